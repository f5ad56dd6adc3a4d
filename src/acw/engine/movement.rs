//! Seed 002 *Movement*: moves by troop type and formation (march columns a
//! third faster, dismounted cavalry as infantry), *Formation changes*
//! costing 2" (4" to dismount or limber), *Interpenetration* at a change's
//! cost with both dice unused, and *Terrain* (woods a third off, towns a
//! change's cost to enter and leave, fords and bridges in column only,
//! marsh, lakes and rivers impassable). Rulings AC1, AC4–AC6.

use super::MovePlan;
use crate::acw::event::{Event, Refusal, Rule};
use crate::acw::state::{GameState, Unit, UnitId};
use crate::acw::table::{Formation, Mode};
use crate::battlefield::geometry::EPSILON;
use crate::battlefield::grid::kinds_of;
use crate::battlefield::{Base, Point};
use crate::ruleset::TerrainId;

impl GameState {
    pub(super) fn plan_move(
        &self,
        id: UnitId,
        formation: Option<Formation>,
        to: Point,
        facing: f64,
    ) -> Result<MovePlan, Refusal> {
        let unit = self.unit(id);
        if !(facing.is_finite() && to.x.is_finite() && to.y.is_finite()) {
            return Err(Refusal::broken(
                Rule::Movement,
                "a move needs a place and a facing",
            ));
        }
        let from = unit.formation;
        let (to_formation, change_cost) = match formation {
            None => (from, 0.0),
            Some(f) if f == from => {
                return Err(Refusal::broken(
                    Rule::Formation,
                    format!("it is already in {f}"),
                ));
            }
            Some(f) => {
                let cost = self
                    .table
                    .change_cost(unit.troop, from, f)
                    .filter(|_| self.table.move_of(unit.troop, f).is_some())
                    .ok_or_else(|| {
                        Refusal::broken(
                            Rule::Formation,
                            format!("{} cannot change from {from} to {f}", self.troop_name(id)),
                        )
                    })?;
                (f, cost)
            }
        };
        let full = self.table.move_of(unit.troop, to_formation).unwrap_or(0.0);
        let allowance = full - change_cost;
        let base = Base::new(to, facing, unit.base.frontage, unit.base.depth);
        if !self.battlefield.base_on_table(&base) {
            return Err(Refusal::broken(
                Rule::Movement,
                "the move would leave the table",
            ));
        }
        let mut probe = unit.clone();
        probe.formation = to_formation;
        let mode = probe.mode();
        let (used, friends) = self.path(id, &probe, base, &[], true)?;
        if used > allowance.max(0.0) + 1e-9 {
            return Err(Refusal::broken(
                Rule::Movement,
                format!(
                    "the move needs {:.1}\" of its {:.1}\" ({} {}{})",
                    used,
                    allowance.max(0.0),
                    self.troop_name(id),
                    to_formation,
                    if change_cost > 0.0 {
                        format!(", less {change_cost}\" to change formation")
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        if !self.base_ground_ok(&base, mode, to_formation) {
            return Err(Refusal::broken(
                Rule::Terrain,
                "it cannot stand on that ground",
            ));
        }
        for (index, other) in self.units.iter().enumerate() {
            if index == id.0 || other.removed || other.side == unit.side {
                continue;
            }
            if base.distance_to(&other.base) < self.table.keep_clear {
                return Err(Refusal::broken(
                    Rule::Movement,
                    format!("only a charge may touch the enemy (`{}`)", other.name),
                ));
            }
        }
        Ok(MovePlan {
            from,
            to_formation,
            change_cost,
            base,
            used,
            allowance,
            friends,
        })
    }

    /// The cost of `mover` (a copy of unit `id` in its new formation)
    /// moving straight from where it stands to `base`, and the friends it
    /// passes through. Refuses impassable ground, fords and bridges out of
    /// column, enemies in the way, and friends that have used their die
    /// (or any friend, when `friends_allowed` is false: charges).
    pub(super) fn path(
        &self,
        id: UnitId,
        mover: &Unit,
        base: Base,
        ignore: &[UnitId],
        friends_allowed: bool,
    ) -> Result<(f64, Vec<UnitId>), Refusal> {
        let from = mover.base.centre;
        let to = base.centre;
        let length = from.distance(to);
        let mode = mover.mode();
        let steps = (length / self.table.step).ceil().clamp(1.0, 100_000.0) as usize;
        let step_length = length / steps as f64;
        let mut cost = 0.0;
        let mut in_town = self.town_at(from);
        let town_cost = self.table.line_column_cost(mover.troop);
        if length > EPSILON {
            for step in 0..steps {
                let mid = from.lerp(to, (step as f64 + 0.5) / steps as f64);
                let speed = self.speed_at(mid, mode).ok_or_else(|| {
                    Refusal::broken(
                        Rule::Terrain,
                        format!(
                            "{} cannot cross the {} at {}",
                            self.mode_name(mode),
                            self.ground_name(mid),
                            mid
                        ),
                    )
                })?;
                if mover.formation != Formation::Column && self.column_only_at(mid) {
                    return Err(Refusal::broken(
                        Rule::Terrain,
                        "fords and bridges are crossed in march column only",
                    ));
                }
                cost += step_length / speed;
                let end = from.lerp(to, (step as f64 + 1.0) / steps as f64);
                let town = self.town_at(end);
                if town != in_town {
                    // Seed 002 Towns: a formation change cost to enter or leave.
                    cost += town_cost;
                    in_town = town;
                }
            }
        }
        // Sweep the base along the way, every half inch.
        let sweeps = (length / 0.5).ceil().clamp(1.0, 100_000.0) as usize;
        let mut friends = Vec::new();
        for (index, other) in self.units.iter().enumerate() {
            if index == id.0 || other.removed || ignore.contains(&UnitId(index)) {
                continue;
            }
            if other.base.overlaps_near(&base) {
                return Err(Refusal::broken(
                    Rule::Movement,
                    format!("it would end on top of `{}`", other.name),
                ));
            }
            let crossed = (0..=sweeps).any(|k| {
                let centre = from.lerp(to, k as f64 / sweeps as f64);
                base.moved_to(centre).overlaps_near(&other.base)
            });
            if !crossed {
                continue;
            }
            if other.side != mover.side {
                return Err(Refusal::broken(
                    Rule::Movement,
                    format!("the enemy `{}` is in the way", other.name),
                ));
            }
            if !friends_allowed {
                return Err(Refusal::broken(
                    Rule::Interpenetration,
                    format!(
                        "no interpenetration when charging (`{}` is in the way)",
                        other.name
                    ),
                ));
            }
            if !other.has_unused_die() {
                return Err(Refusal::broken(
                    Rule::Interpenetration,
                    format!(
                        "`{}` has no unused die, so it cannot be passed through",
                        other.name
                    ),
                ));
            }
            friends.push(UnitId(index));
            // Seed 002: a cost equal to a formation change.
            cost += town_cost;
        }
        Ok((cost, friends))
    }

    pub(super) fn do_move(&mut self, id: UnitId, plan: MovePlan, events: &mut Vec<Event>) {
        if plan.to_formation != plan.from {
            events.push(Event::FormationChanged {
                unit: id,
                from: plan.from,
                to: plan.to_formation,
                cost: plan.change_cost,
            });
        }
        for friend in &plan.friends {
            events.push(Event::PassedThrough {
                unit: id,
                friend: *friend,
            });
        }
        let unit = &mut self.units[id.0];
        let from = unit.base.centre;
        unit.formation = plan.to_formation;
        unit.base = plan.base;
        events.push(Event::Moved {
            unit: id,
            from,
            to: plan.base.centre,
            facing: plan.base.facing,
            used: plan.used,
            allowance: plan.allowance,
        });
    }

    /// The terrain kinds that count at `point`: those present that no
    /// other kind present opens (a road through woods, a ford's river).
    pub fn ground_at(&self, point: Point) -> Vec<TerrainId> {
        kinds_of(self.battlefield.ground_mask_at(point)).collect()
    }

    fn speed_at(&self, point: Point, mode: Mode) -> Option<f64> {
        self.speed_on(self.battlefield.ground_mask_at(point), mode)
    }

    /// The speed over the ground `mask` (the kinds that count there):
    /// the slowest of theirs; `None` off the table or where one is
    /// impassable in `mode`.
    fn speed_on(&self, mask: u64, mode: Mode) -> Option<f64> {
        if mask == 0 {
            return None;
        }
        kinds_of(mask)
            .map(|kind| self.table.speed(kind, mode))
            .try_fold(f64::INFINITY, |least, speed| speed.map(|s| least.min(s)))
    }

    fn town_at(&self, point: Point) -> bool {
        kinds_of(self.battlefield.ground_mask_at(point)).any(|kind| {
            self.table
                .terrain
                .get(kind.0)
                .is_some_and(|t| t.formation_cost)
        })
    }

    fn column_only_at(&self, point: Point) -> bool {
        self.column_only_on(self.battlefield.ground_mask_at(point))
    }

    /// Whether a kind of the ground `mask` may be crossed in column only
    /// (a ford, a bridge).
    fn column_only_on(&self, mask: u64) -> bool {
        kinds_of(mask).any(|kind| {
            self.table
                .terrain
                .get(kind.0)
                .is_some_and(|t| t.column_only)
        })
    }

    /// Whether a base in `formation` may stand where it is: every cell
    /// under it passable, and no ford or bridge under it out of column.
    pub(super) fn base_ground_ok(&self, base: &Base, mode: Mode, formation: Formation) -> bool {
        let mut ok = self.speed_at(base.centre, mode).is_some();
        self.battlefield.for_each_cell_under(base, |cell| {
            let mask = self.battlefield.ground_mask_of(cell);
            ok = ok
                && self.speed_on(mask, mode).is_some()
                && (formation == Formation::Column || !self.column_only_on(mask));
        });
        ok
    }
}
