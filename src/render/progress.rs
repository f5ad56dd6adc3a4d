//! Victory progress in words: each side's conditions and how far each is
//! from being met ("british win if they rout or drive off the table 1
//! continentals unit of the americans: 0 of 2 lost, 1 more needed; nearest
//! 1st Maryland (A10), 14" from 23rd Foot (B4)"). Pure: strings out.

use crate::battlefield::geometry::trim;
use crate::render::play::Names;
use crate::rules::progress::{Progress, Standing, progress};
use crate::rules::{GameState, UnitId};
use std::fmt::Write;

/// A unit as `1st Maryland (A10)` when its label is known.
fn named(state: &GameState, names: Option<&Names>, unit: UnitId) -> String {
    match names {
        Some(names) => format!("{} ({})", state.unit(unit).name, names.label(unit)),
        None => state.unit(unit).name.clone(),
    }
}

/// "british win if they rout ...": a side and its condition in words.
fn wins_if(state: &GameState, winner: usize, condition: &crate::rules::Condition) -> String {
    let words = crate::render::play::condition(state, condition);
    let they = if matches!(condition, crate::rules::Condition::HoldArea { .. }) {
        ""
    } else {
        "they "
    };
    format!("{} win if {they}{words}", state.sides[winner].name)
}

/// One condition and its standing, in one line without a newline.
pub fn line(state: &GameState, names: Option<&Names>, item: &Progress) -> String {
    let mut out = wins_if(state, item.winner, &item.condition);
    match &item.standing {
        Standing::Losses {
            lost,
            needed,
            of,
            most_hit,
            nearest,
        } => {
            let _ = write!(out, ": {lost} of {of} lost");
            if lost >= needed {
                out.push_str(", met");
                return out;
            }
            let _ = write!(out, ", {} more needed", needed - lost);
            if let Some((unit, hits, threshold)) = most_hit
                && *hits > 0
            {
                let _ = write!(
                    out,
                    "; most hit {}, {hits}{} hits",
                    named(state, names, *unit),
                    threshold.map_or(String::new(), |t| format!(" of {t}"))
                );
            }
            if let Some((target, attacker, distance)) = nearest {
                let _ = write!(
                    out,
                    "; nearest {}, {}\" from {}",
                    named(state, names, *target),
                    trim((distance * 10.0).round() / 10.0),
                    named(state, names, *attacker)
                );
            }
        }
        Standing::Area { ours, theirs } => {
            let list = |units: &[UnitId]| {
                units
                    .iter()
                    .map(|unit| named(state, names, *unit))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            match (ours.is_empty(), theirs.is_empty()) {
                (true, true) => out.push_str(": nobody is in it yet"),
                (false, true) => {
                    let _ = write!(out, ": held now by {}", list(ours));
                }
                (true, false) => {
                    let _ = write!(out, ": the enemy is in it ({})", list(theirs));
                }
                (false, false) => {
                    let _ = write!(out, ": contested by {} and {}", list(ours), list(theirs));
                }
            }
            out.push_str(" (judged after the last turn)");
        }
    }
    out
}

/// Every side's victory conditions with their progress, then what happens
/// if none is met.
pub fn victory(state: &GameState, names: Option<&Names>) -> String {
    let mut out = String::from("Victory:\n");
    for item in progress(state) {
        let _ = writeln!(out, "  {}", line(state, names, &item));
    }
    let _ = writeln!(
        out,
        "  Otherwise a draw after turn {} (now turn {}).",
        state.turns, state.turn
    );
    out
}

/// How near each side came to its conditions, for the verdict of a drawn
/// game.
pub fn how_near(state: &GameState) -> String {
    let mut out = String::new();
    for item in progress(state) {
        let _ = writeln!(out, "  {}", line(state, None, &item));
    }
    out
}

/// The conditions alone, for `help victory` and the opening banner.
pub fn conditions(state: &GameState) -> String {
    let mut out = String::from("Victory:\n");
    for victory in &state.victory {
        let _ = writeln!(out, "  {}", wins_if(state, victory.winner, &victory.when));
    }
    let _ = writeln!(
        out,
        "  Otherwise a draw after turn {}. `victory` shows how near each side is.",
        state.turns
    );
    out
}

/// The lines of one side's own conditions, for `status`.
pub fn side(state: &GameState, names: &Names, side: usize) -> String {
    let mut out = String::new();
    for item in progress(state).iter().filter(|item| item.winner == side) {
        let _ = writeln!(out, "  to win: {}", line(state, Some(names), item));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::tests::start;

    #[test]
    fn guilfords_victory_progress_at_the_start() {
        let game = start("guilford", 3, vec![0]);
        let names = Names::new(&game.scenario, game.state());
        let out = victory(game.state(), Some(&names));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "Victory:");
        assert!(
            lines[1].starts_with(
                "  americans win if they rout more than 50% of the british units: 0 of 7 lost, 4 more needed; nearest "
            ),
            "{out}"
        );
        assert!(
            lines[2].starts_with(
                "  british win if they rout or drive off the table 1 continentals unit of the americans: 0 of 2 lost, 1 more needed; nearest "
            ),
            "{out}"
        );
        assert_eq!(lines[3], "  Otherwise a draw after turn 15 (now turn 1).");
    }

    #[test]
    fn hits_and_losses_show_in_the_progress() {
        let mut game = start("guilford", 3, vec![0]);
        let maryland = game.state().find_unit("1st Maryland").unwrap();
        let virginia = game.state().find_unit("4th Virginia").unwrap();
        game.state_mut().units[virginia.0].hits = 7;
        let names = Names::new(&game.scenario, game.state());
        let british = &progress(game.state())[1];
        let said = line(game.state(), Some(&names), british);
        assert!(
            said.contains("; most hit 4th Virginia (A11), 7 of 13 hits; nearest "),
            "{said}"
        );
        game.state_mut().units[maryland.0].status = crate::rules::Status::Routed;
        let names = Names::new(&game.scenario, game.state());
        let british = &progress(game.state())[1];
        assert_eq!(
            line(game.state(), Some(&names), british),
            "british win if they rout or drive off the table 1 continentals unit of the americans: 1 of 2 lost, met"
        );
    }
}
