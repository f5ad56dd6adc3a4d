//! Bases removed (by fire and melee) and units removed, and the risk to an
//! attached commander each time his unit loses a base (*Commanders*).
//! Rulings RV11, RV14.

use crate::dice::{Die, Roller};
use crate::rv::event::{Event, Removal};
use crate::rv::state::GameState;
use crate::rv::table::Kind;

impl GameState {
    /// Remove up to `n` bases; a unit left with one base loses it too
    /// (not a cannon); a unit with none is destroyed. `by_fire`: an
    /// attached commander risks his life if the unit is wiped out.
    pub(super) fn lose_bases(
        &mut self,
        unit: usize,
        n: u32,
        by_fire: bool,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let u = &mut self.units[unit];
        if n == 0 || !u.in_play() {
            return;
        }
        let mut lost = n.min(u.bases);
        u.bases -= lost;
        if u.bases == 1 && u.kind != Kind::Cannon {
            u.bases = 0;
            lost += 1;
        }
        let left = u.bases;
        events.push(Event::BasesLost {
            unit: self.who(unit),
            lost,
            left,
        });
        if left == 0 {
            if by_fire && let Some(commander) = self.commander_of(unit) {
                self.commander_risk(commander, roller, events);
            }
            self.remove(unit, Removal::Destroyed, events);
        }
    }

    /// Take a unit out of play; a commander with it is left standing.
    pub(super) fn remove(&mut self, unit: usize, why: Removal, events: &mut Vec<Event>) {
        self.units[unit].removed = Some(why);
        events.push(Event::Removed {
            unit: self.who(unit),
            why,
        });
        if let Some(commander) = self.commander_of(unit) {
            let at = self.units[unit].centre;
            let c = &mut self.commanders[commander];
            c.attached = None;
            c.at = at;
            events.push(Event::Left {
                commander: self.commander_who(commander),
                unit: self.who(unit),
                at,
            });
        }
    }

    /// Roll for a commander exposed to danger: lost on the table's number.
    pub(super) fn commander_risk(
        &mut self,
        commander: usize,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let roll = roller.roll_for(
            Die::D6,
            format_args!("{}'s risk", self.commanders[commander].name),
        );
        let lost = roll >= self.table.commander_lost_on;
        events.push(Event::CommanderRisk {
            commander: self.commander_who(commander),
            roll,
            lost,
        });
        if lost {
            let c = &mut self.commanders[commander];
            c.lost = true;
            c.attached = None;
        }
    }
}
