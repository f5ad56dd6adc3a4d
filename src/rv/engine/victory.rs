//! Victory: a side broken (units left against the rule set's threshold) or
//! the last turn played, with the victory margin. Ruling RV10.

use crate::rv::event::Event;
use crate::rv::state::{EndReason, GameState, Outcome};

impl GameState {
    /// Units in play of `side`, and at the start.
    pub fn units_left(&self, side: usize) -> (usize, usize) {
        let all = self.units.iter().filter(|u| u.side == side);
        let start = all.clone().count();
        (all.filter(|u| u.in_play()).count(), start)
    }

    /// Whether `side` is broken: fewer than the table's share of its units
    /// are left in play (house rule RV10).
    pub fn is_broken(&self, side: usize) -> bool {
        let (left, start) = self.units_left(side);
        (left as u64) * 100 < (start as u64) * u64::from(self.table.broken_below_percent)
    }

    pub(super) fn check_victory(&mut self, events: &mut Vec<Event>) {
        if self.outcome.is_some() {
            return;
        }
        if self.is_broken(self.defender) {
            self.finish(EndReason::DefenderDriven, self.attacker, events);
        } else if self.is_broken(self.attacker) {
            self.finish(EndReason::AttackerBroken, self.defender, events);
        }
    }

    pub(super) fn finish(&mut self, reason: EndReason, winner: usize, events: &mut Vec<Event>) {
        self.pending = None;
        let outcome = Outcome {
            winner,
            reason,
            margin: self.score(),
        };
        self.outcome = Some(outcome);
        events.push(Event::GameOver { outcome });
    }
}
