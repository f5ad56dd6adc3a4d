//! Seed 000 *Rout*, run by itself in the Rout phase: infantry and
//! skirmishers routed at 13 hits, cavalry and artillery at 9; and *Army
//! Resolve* (a force that has lost more than half its units: 2 hits on
//! every remaining unit, once). Ruling "Rout and army resolve"; a unit
//! that breaks under the opponent's reaction test routs at once (O12, in
//! `execute`).

use crate::rules::event::{Cause, Event};
use crate::rules::id::UnitId;
use crate::rules::state::{GameState, Status};

impl GameState {
    pub(super) fn rout_phase(&mut self, events: &mut Vec<Event>) {
        loop {
            for index in 0..self.units.len() {
                let unit = &self.units[index];
                if !unit.is_active() {
                    continue;
                }
                if let Some(threshold) = self.rules.rout_threshold(unit.category)
                    && unit.hits >= threshold
                {
                    let hits = unit.hits;
                    self.units[index].status = Status::Routed;
                    events.push(Event::Routed {
                        unit: UnitId(index),
                        hits,
                    });
                }
            }
            let mut struck = false;
            for side in 0..self.sides.len() {
                let lost = self.lost(side);
                let of = self.sides[side].starting_units;
                if self.sides[side].resolve_spent
                    || of == 0
                    || lost as f64 <= self.rules.resolve_lost_more_than * of as f64 + 1e-9
                {
                    continue;
                }
                // seed 000 Army Resolve: once, on every remaining unit.
                self.sides[side].resolve_spent = true;
                struck = true;
                let hits = self.rules.resolve_hits;
                events.push(Event::ArmyResolve {
                    side,
                    lost,
                    of,
                    hits,
                });
                let remaining: Vec<UnitId> = self.active_units(side).collect();
                for unit in remaining {
                    self.take_hits(unit, hits, Cause::ArmyResolve, events);
                }
            }
            if !struck {
                return;
            }
        }
    }
}
