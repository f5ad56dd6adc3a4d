//! Seed 002 *Firing*: no fire from march column, firing out of cover only
//! from its edge and within cover at 3", short, medium and long range
//! bands, the shooter's strength, and the target of a charge firing first
//! with the difference of the dice. Rulings AC7–AC9, AC11, AC12.

use super::FirePlan;
use crate::acw::event::{Event, Modifier, Refusal, Rule};
use crate::acw::state::{GameState, UnitId};
use crate::acw::table::{Formation, Weapon};
use crate::battlefield::{Base, Point};
use crate::dice::Roller;

impl GameState {
    /// The shot `shooter` would fire at `target`; `at_charger` adds the
    /// difference of the activation dice.
    pub(super) fn plan_fire(
        &self,
        shooter_id: UnitId,
        target_id: UnitId,
        at_charger: bool,
    ) -> Result<FirePlan, Refusal> {
        let shooter = self.unit(shooter_id);
        let target = self
            .units
            .get(target_id.0)
            .ok_or(Refusal::NoSuchUnit { index: target_id.0 })?;
        if target.side == shooter.side || target.removed {
            return Err(Refusal::broken(
                Rule::Firing,
                "the target must be an enemy on the table",
            ));
        }
        let weapon: &Weapon = match self.table.weapon(shooter.troop, shooter.formation) {
            Some(weapon) => weapon,
            None if shooter.formation == Formation::Column => {
                return Err(Refusal::broken(Rule::Firing, "march columns cannot fire"));
            }
            None => {
                return Err(Refusal::broken(
                    Rule::Firing,
                    format!(
                        "{} do not fire in {}",
                        self.troop_name(shooter_id),
                        if shooter.mounted() {
                            "the saddle".to_string()
                        } else {
                            shooter.formation.to_string()
                        }
                    ),
                ));
            }
        };
        if !shooter.base.in_frontal_arc(&target.base) {
            return Err(Refusal::broken(
                Rule::Firing,
                format!("`{}` is not in the frontal arc", target.name),
            ));
        }
        let distance = shooter.base.distance_to(&target.base);
        let within_cover = self.firing_within_cover(&shooter.base, &target.base);
        let range = if within_cover {
            self.table.within_cover_range.min(weapon.range())
        } else {
            weapon.range()
        };
        if distance > range + 1e-9 {
            return Err(Refusal::broken(
                Rule::Firing,
                format!(
                    "`{}` is {distance:.1}\" away, beyond its {range}\"{}",
                    target.name,
                    if within_cover {
                        " (firing within cover)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        // Ruling AC9: within cover the 3" range is the limit; the cover
        // itself does not also hide the target.
        if !within_cover && !self.battlefield.can_see(&shooter.base, &target.base) {
            return Err(Refusal::broken(
                Rule::Firing,
                format!("`{}` cannot be seen", target.name),
            ));
        }
        let band = weapon.band(distance).expect("within range");
        let mut modifiers = vec![Modifier {
            label: band.label.clone(),
            add: band.add,
        }];
        if let Some((at_least, add)) = self
            .table
            .strength
            .iter()
            .find(|(at_least, _)| shooter.hits >= *at_least)
        {
            modifiers.push(Modifier {
                label: format!("{at_least}+ hits"),
                add: *add,
            });
        }
        if at_charger && self.table.charger_die_difference {
            let ours = i32::from(shooter.die.unwrap_or(0));
            let theirs = i32::from(target.die.unwrap_or(0));
            modifiers.push(Modifier {
                label: "firing at a charger: the difference of the dice".to_string(),
                add: ours - theirs,
            });
        }
        Ok(FirePlan { modifiers })
    }

    pub(super) fn do_fire(
        &mut self,
        id: UnitId,
        target: UnitId,
        plan: FirePlan,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let roll = roller.roll_for(
            self.table.fire_die,
            format_args!(
                "{}'s fire at {}",
                self.unit(id).name,
                self.unit(target).name
            ),
        );
        let total = plan
            .modifiers
            .iter()
            .fold(i64::from(roll), |sum, m| sum + i64::from(m.add))
            .max(0);
        let halved = self.in_cover(target);
        let total = if halved {
            total / i64::from(self.table.cover_divisor.max(1))
        } else {
            total
        };
        let hits = u32::try_from(total).unwrap_or(u32::MAX);
        events.push(Event::Fired {
            unit: id,
            target,
            roll,
            modifiers: plan.modifiers,
            halved_for_cover: halved,
            hits,
        });
        self.hit(target, hits, events);
    }

    /// Seed 002: "Units must be on the edge of cover to fire out of it";
    /// "Units firing within cover have a range of 3"". A shooter in cover
    /// whose line to the target runs through more than the edge allowance
    /// of cover is firing within cover.
    fn firing_within_cover(&self, shooter: &Base, target: &Base) -> bool {
        let in_cover = |point: Point| {
            self.battlefield
                .terrain_at(point)
                .iter()
                .any(|kind| self.table.cover.contains(kind))
        };
        if !in_cover(shooter.centre) {
            return false;
        }
        let from = shooter.front_centre();
        let to = target.centre;
        let length = from.distance(to);
        let steps = (length / 0.25).ceil().clamp(1.0, 100_000.0) as usize;
        let step = length / steps as f64;
        let mut covered = 0.0;
        for k in 0..steps {
            let point = from.lerp(to, (k as f64 + 0.5) / steps as f64);
            if target.contains(point) {
                break;
            }
            if in_cover(point) {
                covered += step;
            }
        }
        covered > self.table.cover_edge + 1e-9
    }
}
