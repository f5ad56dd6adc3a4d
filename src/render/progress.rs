//! Victory progress in words: each side's conditions and how far each is
//! from being met ("british win if they rout or drive off the table 1
//! continentals unit of the americans: 0 of 2 lost, 1 more needed; nearest
//! 1st Maryland (A10), 14" from 23rd Foot (B4)"). Pure: strings out.

use crate::render::play::Names;
use crate::rules::progress::{Progress, progress};
use crate::rules::{GameState, UnitId};
use std::fmt::Write;

/// A unit as `1st Maryland (A10)` when its label is known.
fn named(state: &GameState, names: Option<&Names>, unit: UnitId) -> String {
    match names {
        Some(names) => format!("{} ({})", state.unit(unit).name, names.label(unit)),
        None => state.unit(unit).name.clone(),
    }
}

/// One condition and its standing, in one line without a newline.
pub fn line(state: &GameState, names: Option<&Names>, item: &Progress) -> String {
    crate::rules::progress::line(state, &|unit| named(state, names, unit), item)
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
    use crate::host::test_game::start;

    #[test]
    fn hits_and_losses_show_in_the_progress() {
        let mut game = start("guilford", 3, vec![0]);
        let maryland = game.state().find_unit("1st Maryland").unwrap();
        let virginia = game.state().find_unit("4th Virginia").unwrap();
        game.state_mut().units[virginia.0].hits = 7;
        let names = Names::new(game.scenario(), game.state());
        let british = &progress(game.state())[1];
        let said = line(game.state(), Some(&names), british);
        assert!(
            said.contains("; most hit 4th Virginia (A11), 7 of 13 hits; nearest "),
            "{said}"
        );
        game.state_mut().units[maryland.0].status = crate::rules::Status::Routed;
        let names = Names::new(game.scenario(), game.state());
        let british = &progress(game.state())[1];
        assert_eq!(
            line(game.state(), Some(&names), british),
            "british win if they rout or drive off the table 1 continentals unit of the americans: 1 of 2 lost, met"
        );
    }
}
