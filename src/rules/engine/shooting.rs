//! Seed 000 *Musket Shooting* and *Artillery Shooting*: field of fire (the
//! 45° frontal arc, no friend within 3" of the target), range (muskets'
//! range, artillery's 6" bounds), *Moving and Shooting* (no shot after a
//! move or pivot), and assessing casualties with the modifiers in the order
//! listed (cover; woods or buildings for artillery). Ruling "Shooting".

use super::{Plan, apply_modifiers};
use crate::battlefield::Base;
use crate::dice::Roller;
use crate::rules::event::{Applied, Cause, Event, Refusal, Volley, Weapon};
use crate::rules::id::UnitId;
use crate::rules::state::{GameState, Unit};
use crate::rules::table::{Operation, Situation};

impl GameState {
    /// Which weapon `unit` shoots with, if any.
    pub fn weapon_of(&self, unit: &Unit) -> Option<Weapon> {
        if self
            .rules
            .artillery
            .shooters
            .contains(unit.troop, unit.category)
        {
            Some(Weapon::Artillery)
        } else if self
            .rules
            .musket
            .shooters
            .contains(unit.troop, unit.category)
        {
            Some(Weapon::Musket)
        } else {
            None
        }
    }

    pub(super) fn plan_fire(
        &self,
        id: UnitId,
        target_id: UnitId,
        volley: Volley,
    ) -> Result<Plan, Refusal> {
        let unit = self.own_unit(id)?;
        let name = || unit.name.clone();
        if unit.moved || unit.pivoted {
            return Err(Refusal::MovedThisTurn { name: name() });
        }
        if unit.fired {
            return Err(Refusal::AlreadyFired { name: name() });
        }
        let weapon = self
            .weapon_of(unit)
            .ok_or(Refusal::CannotShoot { name: name() })?;
        let target = self.enemy_unit(target_id)?;
        let target_name = || target.name.clone();
        if !unit.base.in_frontal_arc(&target.base) {
            return Err(Refusal::NotInArc {
                target: target_name(),
            });
        }
        let range = unit.base.distance_to(&target.base);
        let most = match weapon {
            Weapon::Musket => self.rules.musket.range,
            Weapon::Artillery => self.rules.artillery.max_range,
        };
        if range > most + 1e-6 {
            return Err(Refusal::OutOfRange {
                target: target_name(),
                range,
                most,
            });
        }
        if volley != Volley::Single {
            let refuse = |why: String| Refusal::VolleyNotAllowed {
                name: name(),
                volley,
                why,
            };
            let rule = self
                .rules
                .volley(volley)
                .ok_or_else(|| refuse("the rule set has no such volley".into()))?;
            if !rule.shooters.contains(unit.troop, unit.category) {
                return Err(refuse(format!(
                    "only {} may",
                    rule.shooters.names.join(", ")
                )));
            }
            if range > rule.within + 1e-6 {
                return Err(refuse(format!(
                    "`{}` is {range:.1}\" away, beyond {}\"",
                    target.name, rule.within
                )));
            }
        }
        if !self.battlefield.can_see(&unit.base, &target.base) {
            return Err(Refusal::NoLineOfSight {
                target: target_name(),
            });
        }
        let clearance = self.rules.friendly_clearance;
        let friend_near = |index: usize, u: &Unit| {
            index != id.0
                && u.is_active()
                && u.side == unit.side
                && u.base.within(&target.base, clearance + 1e-6)
        };
        if let Some(friend) = self
            .units
            .first_near(&target.base, clearance + 1e-6, friend_near)
        {
            return Err(Refusal::FriendNearTarget {
                target: target_name(),
                friend: self.units[friend].name.clone(),
                within: clearance,
            });
        }
        Ok(Plan::Fire {
            unit: id,
            target: target_id,
            weapon,
            range,
            volley,
        })
    }

    pub(super) fn fire(
        &mut self,
        id: UnitId,
        target_id: UnitId,
        (weapon, volley): (Weapon, Volley),
        range: f64,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let rules = self.rules.clone();
        let unit = &self.units[id.0];
        let target = &self.units[target_id.0];
        let roll = roller.roll_for(
            rules.shooting_die,
            format_args!("{}'s fire at {}", unit.name, target.name),
        );
        let mut situations = Vec::new();
        if self.in_cover(&target.base, unit.base.centre) {
            situations.push(Situation::TargetInCover);
        }
        if self.in_any(&target.base, &rules.artillery.woods_or_buildings) {
            situations.push(Situation::TargetInWoodsOrBuildings);
        }
        match volley {
            Volley::Single => {}
            Volley::Double => situations.push(Situation::DoubleVolley),
            Volley::Hasty => situations.push(Situation::HastyVolley),
        }
        let mut applied = Vec::new();
        let mut score = i32::from(roll);
        let modifiers = match weapon {
            Weapon::Musket => &rules.musket.modifiers,
            Weapon::Artillery => {
                // seed 000: "calculate the number of 6" bounds to reach the
                // target" (20" is 4 bounds), and deduct them.
                let bounds = ((range - 1e-9) / rules.artillery.bound).ceil().max(1.0) as i32;
                score -= bounds;
                applied.push(Applied {
                    label: format!("range {bounds} bounds"),
                    operation: Operation::Add(-bounds),
                    score,
                });
                &rules.artillery.modifiers
            }
        };
        score = apply_modifiers(
            modifiers,
            score,
            unit,
            target,
            None,
            &situations,
            &mut applied,
        );
        let hits = score.max(0) as u32;
        self.units[id.0].fired = true;
        events.push(Event::Fired {
            unit: id,
            target: target_id,
            weapon,
            range,
            roll,
            modifiers: applied,
            hits,
        });
        self.take_hits(target_id, hits, Cause::Fire, events);
    }

    /// Whether any cell under `base` (or its centre's) has one of `kinds`.
    fn in_any(&self, base: &Base, kinds: &[crate::ruleset::TerrainId]) -> bool {
        let field = &self.battlefield;
        let holds = |cell| kinds.iter().any(|kind| field.grid.has(cell, *kind));
        let mut found = field.grid.cell_at(base.centre).is_some_and(holds);
        field.for_each_cell_under(base, |cell| found = found || holds(cell));
        found
    }
}
