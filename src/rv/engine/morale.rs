//! Seed 001 *Morale Checks*: a die with its modifiers against the bases
//! left (a commander counting as one), and the retreat of a unit that
//! fails. Rulings RV9, RV13.

use super::STEP;
use crate::battlefield::Point;
use crate::dice::{Die, Roller};
use crate::rv::event::{Event, MoraleFor, Removal};
use crate::rv::state::{GameState, direction};
use crate::rv::table::Kind;

impl GameState {
    /// A morale test: d6 plus the troop's modifier, at most the bases (an
    /// attached commander counting as bases) passes; cannon pass on the
    /// table's number. Militia that fail run away.
    pub(super) fn morale(
        &mut self,
        unit: usize,
        test: MoraleFor,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) -> bool {
        let u = &self.units[unit];
        let roll = roller.roll_for(Die::D6, format_args!("{}'s morale", u.name));
        let (modifier, limit) = if u.kind == Kind::Cannon {
            (0, i32::from(self.table.cannon_pass))
        } else {
            let commander = if self.commander_of(unit).is_some() {
                self.table.commander_bases
            } else {
                0
            };
            (
                u.rules(&self.table).morale,
                i32::try_from(u.bases + commander).unwrap_or(i32::MAX),
            )
        };
        let passed = i32::from(roll) + modifier <= limit;
        let militia = u.rules(&self.table).militia;
        events.push(Event::Morale {
            unit: self.who(unit),
            test,
            roll,
            modifier,
            limit,
            passed,
        });
        if !passed && militia {
            self.remove(unit, Removal::RanAway, events);
        }
        passed
    }

    /// Fall back `distance` directly away from `from`, keeping the facing;
    /// a retreat across the table edge leaves the field; one blocked stops
    /// at the farthest clear point (house rule RV13).
    pub(super) fn retreat(
        &mut self,
        unit: usize,
        from: Point,
        distance: f64,
        events: &mut Vec<Event>,
    ) {
        let start = self.footprint(unit);
        let away = direction(from, start.centre, start.forward() * -1.0);
        let full = start.moved_to(start.centre + away * distance);
        if !self.battlefield.base_on_table(&full) {
            self.remove(unit, Removal::LeftTheField, events);
            return;
        }
        let n_steps = (distance / STEP).ceil().max(1.0) as usize;
        for step in (1..=n_steps).rev() {
            let centre = start.centre + away * (distance * step as f64 / n_steps as f64);
            if self.check_room(unit, &start.moved_to(centre), &[]).is_ok() {
                self.units[unit].centre = centre;
                events.push(Event::Retreated {
                    unit: self.who(unit),
                    from: start.centre,
                    to: centre,
                });
                return;
            }
        }
    }
}
