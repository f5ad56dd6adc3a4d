//! Seed 000 *Rallying*: one rally a turn per general within his budget,
//! *Check Command Range* (12"), *Attempt Rally* (an average die's points
//! removed as hits, at most each troop type's maximum; artillery and
//! cavalry not rallied). Rulings "Rallying", "Rally budget"; the budget
//! itself is `state::rally_budget`.

use super::Plan;
use crate::dice::Roller;
use crate::rules::event::{Event, Refusal};
use crate::rules::id::{GeneralId, UnitId};
use crate::rules::state::{GameState, General, Unit};

impl GameState {
    /// Whether `general` may rally `unit` now as far as the unit goes: it
    /// has hits, its troop type may be rallied at all, and it stands
    /// within the general's range. What every listing of rallies asks (the
    /// legal actions, the opponent's and the baseline's choices); the
    /// check of a rally refuses each failing part by name.
    pub fn may_rally(&self, general: &General, unit: &Unit) -> bool {
        unit.hits > 0
            && self.rules.rally_max[unit.troop.0] > 0
            && general
                .base
                .within(&unit.base, self.rules.rally_range + 1e-6)
    }

    pub(super) fn plan_rally(&self, id: GeneralId, units: &[UnitId]) -> Result<Plan, Refusal> {
        let general = self.own_general(id)?;
        let name = || general.name.clone();
        if general.rallied {
            return Err(Refusal::AlreadyRallied { name: name() });
        }
        if general.rallies_left == 0 {
            return Err(Refusal::NoRalliesLeft { name: name() });
        }
        if units.is_empty() {
            return Err(Refusal::NothingToRally);
        }
        for (index, unit_id) in units.iter().enumerate() {
            let unit = self.own_unit(*unit_id)?;
            if units[..index].contains(unit_id) {
                return Err(Refusal::RalliedTwice {
                    name: unit.name.clone(),
                });
            }
            if self.rules.rally_max[unit.troop.0] == 0 {
                return Err(Refusal::CannotBeRallied {
                    name: unit.name.clone(),
                });
            }
            let distance = general.base.distance_to(&unit.base);
            if distance > self.rules.rally_range + 1e-6 {
                return Err(Refusal::OutOfCommandRange {
                    name: unit.name.clone(),
                    distance,
                    range: self.rules.rally_range,
                });
            }
        }
        Ok(Plan::Rally {
            general: id,
            units: units.to_vec(),
        })
    }

    pub(super) fn rally(
        &mut self,
        id: GeneralId,
        units: &[UnitId],
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let roll = roller.roll_for(
            self.rules.rally_die,
            format_args!("{}'s rally", self.generals[id.0].name),
        );
        let mut points = u32::from(roll);
        let mut removed = Vec::new();
        for unit_id in units {
            let unit = &mut self.units[unit_id.0];
            let most = self.rules.rally_max[unit.troop.0];
            let take = points.min(most).min(unit.hits);
            unit.hits -= take;
            points -= take;
            removed.push((*unit_id, take));
        }
        let general = &mut self.generals[id.0];
        general.rallied = true;
        general.rallies_left -= 1;
        events.push(Event::Rallied {
            general: id,
            roll,
            removed,
            rallies_left: general.rallies_left,
        });
    }
}
