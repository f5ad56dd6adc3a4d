//! The labels units and generals go by on maps and at the prompt: a unit
//! is its side's initial and its number in the side's list (`B3`), a
//! general the initial, `G` and his number (`BG1`). The commands read
//! them and the maps draw them, so they live with the game, not the
//! renderers.

use crate::scenario::Scenario;

/// The label a unit has on maps: its side's initial and its number in the
/// side's list, e.g. `B3`.
pub fn unit_label(scenario: &Scenario, side: usize, index: usize) -> String {
    let initial = scenario.sides[side]
        .name
        .chars()
        .next()
        .unwrap_or('?')
        .to_ascii_uppercase();
    // Sides sharing an initial are told apart by their number.
    let shared = scenario
        .sides
        .iter()
        .filter(|s| s.name.chars().next().map(|c| c.to_ascii_uppercase()) == Some(initial))
        .count()
        > 1;
    if shared {
        format!("{initial}{}.{}", side + 1, index + 1)
    } else {
        format!("{initial}{}", index + 1)
    }
}

/// A general's map label: the side's initial, `G`, and his number.
pub fn general_label(side_name: &str, index: usize) -> String {
    let initial = side_name.chars().next().unwrap_or('?').to_ascii_uppercase();
    format!("{initial}G{}", index + 1)
}

/// The map label of each unit of a game, in the game's unit order, given
/// each unit's side: a side's units are numbered in the order they come.
pub fn unit_labels(scenario: &Scenario, sides: impl IntoIterator<Item = usize>) -> Vec<String> {
    let mut counts = vec![0usize; scenario.sides.len()];
    sides
        .into_iter()
        .map(|side| match counts.get_mut(side) {
            Some(count) => {
                *count += 1;
                unit_label(scenario, side, *count - 1)
            }
            None => "?".to_string(),
        })
        .collect()
}
