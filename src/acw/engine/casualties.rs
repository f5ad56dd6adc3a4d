//! Seed 002 *Casualties*: hits taken, and the unit removed at 15.

use crate::acw::event::{Event, Removal};
use crate::acw::state::{GameState, UnitId};

impl GameState {
    pub(super) fn hit(&mut self, id: UnitId, hits: u32, events: &mut Vec<Event>) {
        let unit = &mut self.units[id.0];
        unit.hits = unit.hits.saturating_add(hits);
        if unit.hits >= self.table.removed_at && !unit.removed {
            self.remove(id, Removal::Casualties, events);
        }
    }

    pub(super) fn remove(&mut self, id: UnitId, reason: Removal, events: &mut Vec<Event>) {
        self.units[id.0].removed = true;
        events.push(Event::Removed { unit: id, reason });
    }
}
