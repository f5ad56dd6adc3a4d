//! A stand-in for the Lone Warrior opponent while it is built on its own
//! branch: it ends every phase of its turn. Replaced when `opponent` lands.

use crate::dice::Roller;
use crate::rules::{Action, Event, GameState, UnitId};
use crate::tables::Tables;
use std::sync::Arc;

/// Commands one side.
#[derive(Debug, Clone)]
pub struct Opponent {
    side: usize,
}

/// What the opponent did in a turn.
#[derive(Debug, Clone, Default)]
pub struct TurnReport {
    /// Every engine event, in order.
    pub events: Vec<Event>,
}

impl Opponent {
    /// An opponent for `side`.
    pub fn new(_tables: Arc<Tables>, _state: &GameState, side: usize) -> Opponent {
        Opponent { side }
    }

    /// Play the side's turn: end each phase.
    pub fn play_turn(&mut self, state: &mut GameState, roller: &mut dyn Roller) -> TurnReport {
        let mut report = TurnReport::default();
        while !state.is_over() && state.active == self.side {
            match state.apply(&Action::EndPhase, roller) {
                Ok(events) => report.events.extend(events),
                Err(_) => break,
            }
        }
        report
    }

    /// Nothing to preview yet.
    pub fn preview(&self, _state: &GameState, _unit: UnitId) -> Option<String> {
        None
    }
}
