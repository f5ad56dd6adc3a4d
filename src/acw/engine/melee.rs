//! Seed 002 *Melee*, the charge carried out: the target may fire first,
//! columns and guns are destroyed on contact, only the charger inflicts
//! casualties (a D6, +2 charging and the listed modifiers, halved then
//! doubled, rounded down), and a charger that does not destroy its target
//! retreats 6" mounted, 3" others, a hit each to units it passes through.
//! Ruling AC10.

use super::charges::contact_base;
use crate::acw::event::{Event, Modifier, Removal};
use crate::acw::state::{GameState, UnitId};
use crate::acw::table::Formation;
use crate::battlefield::geometry::Arc as BaseArc;
use crate::dice::Roller;

impl GameState {
    pub(super) fn resolve_charge(
        &mut self,
        id: UnitId,
        target_id: UnitId,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        // The charger's path was checked when the charge was declared;
        // nothing on it has moved since (only the target may have fired).
        let arc = self.unit(target_id).base.arc_of(self.unit(id).base.centre);
        let flank_or_rear = arc != BaseArc::Front;
        let contact = contact_base(&self.unit(id).base, &self.unit(target_id).base, arc);
        self.units[id.0].base = contact;
        events.push(Event::Contact {
            unit: id,
            target: target_id,
            at: contact.centre,
        });
        let target = self.unit(target_id);
        if self.table.destroyed_formations.contains(&target.formation)
            || self.table.destroyed_troops.contains(&target.troop)
        {
            let reason = if self.table.destroyed_formations.contains(&target.formation) {
                Removal::CaughtInColumn
            } else {
                Removal::GunsOverrun
            };
            self.remove(target_id, reason, events);
            return;
        }
        let roll = roller.roll_for(
            self.table.melee_die,
            format_args!("{}'s charge on {}", self.unit(id).name, target.name),
        );
        let charger = self.unit(id);
        let mut modifiers = vec![Modifier {
            label: "charging".to_string(),
            add: self.table.charging,
        }];
        for (troop, add) in &self.table.melee_by_troop {
            if *troop == charger.troop {
                modifiers.push(Modifier {
                    label: self.battlefield.ruleset.troop(*troop).name.clone(),
                    add: *add,
                });
            }
        }
        if charger.formation == Formation::Dismounted {
            modifiers.push(Modifier {
                label: "dismounted cavalry".to_string(),
                add: self.table.dismounted,
            });
        }
        let advantage =
            i64::from(self.strength_points(id)) - i64::from(self.strength_points(target_id));
        if let Some((more_than, add)) = self
            .table
            .outnumbered
            .iter()
            .find(|(more_than, _)| advantage > i64::from(*more_than))
        {
            modifiers.push(Modifier {
                label: format!("defender outnumbered by more than {more_than}"),
                add: *add,
            });
        }
        let mut total = modifiers
            .iter()
            .fold(i64::from(roll), |sum, m| sum + i64::from(m.add))
            .max(0);
        let target = self.unit(target_id);
        let mut halved = Vec::new();
        if self.battlefield.height_at(target.base.centre)
            > self.battlefield.height_at(self.unit(id).base.centre)
        {
            halved.push("defender uphill".to_string());
        }
        if target.mounted() {
            halved.push("defender is mounted cavalry".to_string());
        }
        if let Some(kind) = self
            .battlefield
            .terrain_at(target.base.centre)
            .into_iter()
            .find(|kind| self.table.halve_in.contains(kind))
        {
            halved.push(format!(
                "defender in {}",
                self.battlefield.ruleset.kind(kind).name
            ));
        }
        if !halved.is_empty() {
            total /= i64::from(self.table.divisor.max(1));
        }
        if flank_or_rear {
            total = total.saturating_mul(i64::from(self.table.flank_or_rear));
        }
        let hits = u32::try_from(total).unwrap_or(u32::MAX);
        events.push(Event::Melee {
            unit: id,
            target: target_id,
            roll,
            modifiers,
            halved,
            doubled: flank_or_rear,
            hits,
        });
        self.hit(target_id, hits, events);
        if !self.unit(target_id).removed {
            self.retreat(id, events);
        }
    }

    /// Seed 002: the repulsed charger retreats straight back, facing the
    /// defender: mounted 6", others 3". A retreat through units costs each
    /// a hit; one that ends on a unit or impassable ground goes on half an
    /// inch at a time (at most 24" more); off the table the unit is gone;
    /// one that can find no place stands (ruling AC10).
    fn retreat(&mut self, id: UnitId, events: &mut Vec<Event>) {
        let unit = self.unit(id).clone();
        let distance = if unit.mounted() {
            self.table.retreat_mounted
        } else {
            self.table.retreat_other
        };
        let back = unit.base.forward() * -1.0;
        let from = unit.base.centre;
        let mut extra = 0.0;
        let found = loop {
            let to = from + back * (distance + extra);
            let base = unit.base.moved_to(to);
            if !self.battlefield.base_on_table(&base) {
                break Some((base, true));
            }
            let clear = self
                .units
                .iter()
                .enumerate()
                .all(|(i, o)| i == id.0 || o.removed || !o.base.overlaps_near(&base));
            if clear && self.base_ground_ok(&base, unit.mode(), unit.formation) {
                break Some((base, false));
            }
            extra += 0.5;
            if extra > 24.0 {
                break None;
            }
        };
        let Some((base, off_table)) = found else {
            return;
        };
        // Units passed through on the way.
        let length = from.distance(base.centre);
        let sweeps = (length / 0.5).ceil().clamp(1.0, 100_000.0) as usize;
        let crossed: Vec<UnitId> = (0..self.units.len())
            .filter(|i| *i != id.0 && !self.units[*i].removed)
            .filter(|i| {
                (0..=sweeps).any(|k| {
                    let centre = from.lerp(base.centre, k as f64 / sweeps as f64);
                    unit.base
                        .moved_to(centre)
                        .overlaps_near(&self.units[*i].base)
                })
            })
            .map(UnitId)
            .collect();
        self.units[id.0].base = base;
        events.push(Event::Retreated {
            unit: id,
            from,
            to: base.centre,
        });
        for other in crossed {
            let hits = self.table.retreat_through;
            for who in [other, id] {
                if !self.unit(who).removed {
                    events.push(Event::Damaged { unit: who, hits });
                    self.hit(who, hits, events);
                }
            }
        }
        if off_table && !self.unit(id).removed {
            self.remove(id, Removal::OffTable, events);
        }
    }
}
