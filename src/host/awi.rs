//! Seed 000 in the boundary's runner ([`super::run::HostMatch`]): the
//! commanders of its sides and the record its REPL and `foe simulate` read.
//!
//! A seed-000 side that the player does not command is played by a
//! [`Controller`] (foe's Lone Warrior opponent, or the scripted baseline),
//! a whole player turn at a time, and every other side's controller is
//! shown what it did, as it would see it across the table. The runner
//! keeps the game as [`Entry`]s: the set-up rolls, each action of the
//! player's, each side's turn with the opponent's report. That is what
//! the prompt renders (`render::play`) and the study sums.
//!
//! Pure: no I/O, dice only through the `Roller` passed in.

use crate::baseline::{BaselineReport, Controller, Played};
use crate::dice::Roller;
use crate::opponent::TurnReport;
use crate::rules::{Action, Event, GameState};

/// One thing that happened in a seed-000 game, in order.
#[derive(Debug, Clone)]
pub enum Entry {
    /// The set-up rolls (rolled generals).
    Setup(Vec<Event>),
    /// An action of the player's, and what it caused.
    Player {
        /// The action.
        action: Action,
        /// What happened.
        events: Vec<Event>,
    },
    /// A whole turn played by the opponent for a side.
    Opponent {
        /// The side.
        side: usize,
        /// What it decided and what happened.
        report: TurnReport,
    },
    /// A whole turn played by the baseline for a side.
    Baseline {
        /// The side.
        side: usize,
        /// What it did and why.
        report: BaselineReport,
    },
}

impl Entry {
    /// The engine events of the entry.
    pub fn events(&self) -> &[Event] {
        match self {
            Entry::Setup(events) | Entry::Player { events, .. } => events,
            Entry::Opponent { report, .. } => &report.events,
            Entry::Baseline { report, .. } => &report.events,
        }
    }
}

/// Play the active side's whole player turn with its controller and show
/// the other controllers what happened. A side without one (a player's
/// side while watching, which the runner never asks for) only ends its
/// phases. Returns the turn's entry and whether the game moved on: `false`
/// when the side is still to act in the same turn (its controller could
/// not finish it), which the runner takes as a reason to stop rather than
/// loop.
pub(crate) fn play_side(
    controllers: &mut [Option<Controller>],
    state: &mut GameState,
    roller: &mut dyn Roller,
) -> (Entry, bool) {
    let side = state.active;
    let turn = state.turn;
    let entry = match controllers.get_mut(side).and_then(Option::as_mut) {
        Some(controller) => match controller.play_turn(state, roller) {
            Played::Foe(report) => Entry::Opponent { side, report },
            Played::Baseline(report) => Entry::Baseline { side, report },
        },
        None => {
            let mut report = TurnReport::default();
            while !state.is_over() && state.active == side {
                match state.apply(&Action::EndPhase, roller) {
                    Ok(events) => report.events.extend(events),
                    Err(_) => break,
                }
            }
            Entry::Opponent { side, report }
        }
    };
    for (other, controller) in controllers.iter_mut().enumerate() {
        if other != side
            && let Some(controller) = controller
        {
            controller.observe(state, entry.events());
        }
    }
    let moved_on = state.is_over() || state.active != side || state.turn != turn;
    (entry, moved_on)
}

/// Show every controller what the player's action did.
pub(crate) fn observe_player(
    controllers: &mut [Option<Controller>],
    state: &GameState,
    events: &[Event],
) {
    for controller in controllers.iter_mut().flatten() {
        controller.observe(state, events);
    }
}
