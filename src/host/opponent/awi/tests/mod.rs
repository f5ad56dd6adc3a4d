//! The opponent on small tables with forced dice, in one file per part of
//! the opponent: `reading` (`read.rs`: situation extraction, factor by
//! factor), `memos` (`memo.rs`: its caches answering as the battlefield
//! does), `memory` (what it keeps and shows of a unit), `orders` (`act.rs`:
//! each order and variant carried out, routes, targets and shots), `plans`
//! (`plan.rs`: the army's plan, each rule on and off) and `command`
//! (`command.rs`: generals, rallies, reserves and reinforcements). The
//! files have names of their own so that the opponent's modules keep
//! theirs in the tests (`act::shot_open`, `read::ground_column`). This
//! file holds the helpers they share.

use super::*;
use crate::battlefield::tests::p;
use crate::battlefield::{Base, Shape};
use crate::dice::{Scripted, Seeded};
use crate::rules::fixture::{Placed, SmallGame, rules_table};
use crate::rules::{Event, Phase, Status};
use crate::ruleset::Ruleset;
use crate::tables::Column;

mod command;
mod memory;
mod memos;
mod orders;
mod plans;
mod reading;

/// British (side 0, south edge, first) and Americans (side 1, north
/// edge) on a 48" table, each with an average general in a far corner;
/// `reserves` are British reserves.
fn game_with(
    features: &[(&str, Shape, f64)],
    british: &[Placed<'_>],
    americans: &[Placed<'_>],
    reserves: &[Placed<'_>],
) -> GameState {
    SmallGame::new(british, americans)
        .features(features)
        .reserves(reserves)
        .generals_at((2.0, 46.0), (46.0, 2.0))
        .build()
}

fn game(british: &[Placed<'_>], americans: &[Placed<'_>]) -> GameState {
    game_with(&[], british, americans, &[])
}

/// An opponent whose generals have taken their start positions already.
fn opponent(state: &GameState, side: usize) -> Opponent {
    let mut opponent = Opponent::new(Arc::new(Tables::embedded()), state, side);
    for general in &mut opponent.generals {
        general.placed = true;
    }
    opponent
}

fn dice(rolls: impl IntoIterator<Item = u8>) -> Scripted {
    Scripted::then(rolls, Box::new(Seeded::new(7)))
}

/// Run the Movement phase of the side to act.
fn movement(opponent: &mut Opponent, state: &mut GameState, rolls: &[u8]) -> TurnReport {
    let mut report = TurnReport::default();
    opponent.movement(state, &mut dice(rolls.iter().copied()), &mut report);
    report
}

/// End phases until it is `side`'s Movement phase.
fn to_side(state: &mut GameState, side: usize) {
    while !(state.active == side && state.phase() == Phase::Movement) {
        state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    }
}

fn unit(state: &GameState, name: &str) -> UnitId {
    state.find_unit(name).unwrap()
}

fn memory_mut<'a>(opponent: &'a mut Opponent, state: &GameState, name: &str) -> &'a mut Memory {
    opponent.units[unit(state, name).0].as_mut().unwrap()
}

fn decision<'a>(report: &'a TurnReport, name: &str) -> &'a Decision {
    report.decisions.iter().find(|d| d.name == name).unwrap()
}

fn moved(decision: &Decision) -> Option<(Point, Point)> {
    decision.events.iter().find_map(|e| match e {
        Event::Moved { from, to, .. } => Some((*from, *to)),
        _ => None,
    })
}

const NORTH: f64 = 0.0;

const SOUTH: f64 = 180.0;

fn fence() -> (&'static str, Shape, f64) {
    (
        "fence",
        Shape::Line {
            points: vec![p(0.0, 18.0), p(48.0, 18.0)],
            width: 0.5,
        },
        0.0,
    )
}
