//! Seed 001 *Formations* and *Movement*: line and column, mounting and
//! dismounting, about-faces and pivots, straight moves with the allowance
//! by formation (6" in line, 12" in column) and terrain, room to stand and
//! keeping away from the enemy; *Commanders* moving, joining and leaving
//! their units. Rulings RV2, RV4, RV6, RV8, RV11.

use super::STEP;
use crate::battlefield::geometry::EPSILON;
use crate::battlefield::{Base, Point};
use crate::rv::event::{Formation, Refusal};
use crate::rv::state::{Commander, GameState, Unit};
use crate::rv::table::Kind;

impl GameState {
    pub(super) fn ready_commander(
        &self,
        commander: usize,
        side: usize,
    ) -> Result<&Commander, Refusal> {
        let c = self
            .commanders
            .get(commander)
            .filter(|c| c.side == side)
            .ok_or(Refusal::NotYours { index: commander })?;
        if c.lost {
            return Err(Refusal::OutOfPlay {
                name: c.name.clone(),
            });
        }
        if c.acted {
            return Err(commander_refusal(
                c,
                "he has already moved, joined or left this turn",
            ));
        }
        Ok(c)
    }

    pub(super) fn check_commander_reach(
        &self,
        c: &Commander,
        from: Point,
        to: Point,
    ) -> Result<(), Refusal> {
        if !(to.x.is_finite() && to.y.is_finite()) {
            return Err(Refusal::NotANumber);
        }
        if !self.battlefield.on_table(to) {
            return Err(commander_refusal(c, "that is off the table"));
        }
        if from.distance(to) > self.table.commander_move + EPSILON {
            return Err(commander_refusal(c, "a commander moves 12\" at most"));
        }
        Ok(())
    }

    /// One formation change (or mount/dismount) a turn, at the start or
    /// the end of the move.
    pub(super) fn check_change(&self, unit: usize) -> Result<(), Refusal> {
        let u = &self.units[unit];
        if u.changed {
            return Err(Refusal::AlreadyChanged {
                name: u.name.clone(),
            });
        }
        Ok(())
    }

    pub(super) fn check_may_move(&self, u: &Unit) -> Result<(), Refusal> {
        if u.changed_after_move {
            return Err(Refusal::MoveOver {
                name: u.name.clone(),
            });
        }
        if u.moved {
            return Err(Refusal::AlreadyMoved {
                name: u.name.clone(),
            });
        }
        Ok(())
    }

    /// The unit's allowance in inches, forwards.
    pub fn allowance(&self, unit: usize) -> f64 {
        let u = &self.units[unit];
        let t = &self.table;
        match (u.kind, u.formation) {
            (Kind::Cannon, _) => t.move_cannon,
            (Kind::Dragoons, _) if u.mounted => t.move_mounted,
            (Kind::Dragoons, _) => t.move_dismounted,
            (Kind::Infantry, Formation::Line) => t.move_line,
            (Kind::Infantry, Formation::Column) => t.move_column,
            (Kind::Infantry, Formation::OpenOrder) => t.move_open_order,
        }
    }

    /// `base` (the unit's footprint somewhere) is on the table, on ground it
    /// may enter, and overlaps no other unit in play but those in `ignore`.
    pub(super) fn check_room(
        &self,
        unit: usize,
        base: &Base,
        ignore: &[usize],
    ) -> Result<(), Refusal> {
        let u = &self.units[unit];
        let no_room = |what: String| {
            Err(Refusal::NoRoom {
                name: u.name.clone(),
                what,
            })
        };
        if !self.battlefield.base_on_table(base) {
            return no_room("that is off the table".into());
        }
        if !self.battlefield.passable_under(u.troop, base) {
            return no_room("the ground is impassable to it".into());
        }
        for (index, other) in self.units.iter().enumerate() {
            if index == unit || !other.in_play() || ignore.contains(&index) {
                continue;
            }
            // Built only for a unit near enough to overlap.
            let near = base.may_overlap(other.centre, self.footprint_reach(index));
            if near && base.overlaps(&self.footprint(index)) {
                return no_room(format!("{} stands there", other.name));
            }
        }
        Ok(())
    }

    /// No part of `base` comes within `keep_away` of an enemy, unless the
    /// unit was already nearer at `start` (it may then get no nearer).
    pub(super) fn check_keep_away(
        &self,
        unit: usize,
        base: &Base,
        start: &Base,
    ) -> Result<(), Refusal> {
        self.keep_away_from(unit, base, start, &self.enemy_footprints(unit))
    }

    /// The footprints of `unit`'s enemies in play, in unit order: worked
    /// out once for a whole path, whose every step checks them.
    fn enemy_footprints(&self, unit: usize) -> Vec<(usize, Base)> {
        let side = self.units[unit].side;
        self.units
            .iter()
            .enumerate()
            .filter(|(_, enemy)| enemy.side != side && enemy.in_play())
            .map(|(index, _)| (index, self.footprint(index)))
            .collect()
    }

    /// [`GameState::check_keep_away`] against `enemies` (their footprints,
    /// in unit order).
    fn keep_away_from(
        &self,
        unit: usize,
        base: &Base,
        start: &Base,
        enemies: &[(usize, Base)],
    ) -> Result<(), Refusal> {
        for (index, theirs) in enemies {
            if base.surely_farther_than(theirs, self.table.keep_away) {
                continue;
            }
            let limit = self.table.keep_away.min(start.distance_to(theirs));
            if base.distance_to(theirs) < limit - 1e-9 {
                return Err(Refusal::TooNearEnemy {
                    name: self.units[unit].name.clone(),
                    enemy: self.units[*index].name.clone(),
                });
            }
        }
        Ok(())
    }

    /// Check a straight move of `unit`'s centre to `to`; the inches it
    /// costs and whether it is backwards.
    pub(super) fn check_path(&self, unit: usize, to: Point) -> Result<(f64, bool), Refusal> {
        let u = &self.units[unit];
        let start = self.footprint(unit);
        let offset = to - u.centre;
        let length = offset.length();
        let backwards = offset.dot(start.forward()) < -1e-9;
        let allowed = self.allowance(unit) * if backwards { self.table.backwards } else { 1.0 };
        let category = self.battlefield.category(u.troop);
        let least = length * self.battlefield.cheapest_multiplier(category);
        if least > allowed + EPSILON {
            return Err(Refusal::TooFar {
                name: u.name.clone(),
                wanted: least,
                allowed,
            });
        }
        let n_steps = ((length / STEP).ceil() as usize).max(1);
        let enemies = self.enemy_footprints(unit);
        let mut cost = 0.0;
        for step in 1..=n_steps {
            let fraction = step as f64 / n_steps as f64;
            let here = u.centre.lerp(to, fraction);
            let middle = u.centre.lerp(to, (step as f64 - 0.5) / n_steps as f64);
            let multiplier = self
                .battlefield
                .grid
                .cell_at(middle)
                .and_then(|cell| self.battlefield.cost_multiplier(u.troop, cell));
            let Some(multiplier) = multiplier else {
                return Err(Refusal::NoRoom {
                    name: u.name.clone(),
                    what: "the way is impassable to it".into(),
                });
            };
            cost += length / n_steps as f64 * multiplier;
            let base = start.moved_to(here);
            if step == n_steps {
                self.check_room(unit, &base, &[])?;
            } else if !self.battlefield.base_on_table(&base) {
                return Err(Refusal::NoRoom {
                    name: u.name.clone(),
                    what: "the way leaves the table".into(),
                });
            } else if !self.battlefield.passable_under(u.troop, &base) {
                return Err(Refusal::NoRoom {
                    name: u.name.clone(),
                    what: "the way is impassable to it".into(),
                });
            }
            self.keep_away_from(unit, &base, &start, &enemies)?;
        }
        if cost > allowed + EPSILON {
            return Err(Refusal::TooFar {
                name: u.name.clone(),
                wanted: cost,
                allowed,
            });
        }
        Ok((cost, backwards))
    }
}

pub(super) fn commander_refusal(c: &Commander, why: &str) -> Refusal {
    Refusal::Commander {
        name: c.name.clone(),
        why: why.to_string(),
    }
}

/// Whether the segment from `from` to `to` passes within `gap` of `base`
/// (sampled every quarter inch, and at both ends).
pub(super) fn passes_near(from: Point, to: Point, base: &Base, gap: f64) -> bool {
    let length = from.distance(to);
    let n_steps = ((length / 0.25).ceil() as usize).clamp(1, 4000);
    (0..=n_steps).any(|step| {
        let here = from.lerp(to, step as f64 / n_steps as f64);
        base.distance_to_point(here) < gap
    })
}
