//! Seed 000 *Movement*: straight moves and road moves, the allowance by
//! troop type, *Effects of terrain on movement* (halved, impassable, uphill,
//! the road bonus), *Turning* (pivots), *Interpenetration*, *Enemy
//! Presence* (only directly towards or away within 6"), a move ending in
//! contact being a charge; generals' moves and reserves entering at their
//! own edge. Rulings: "Measuring", "Moving", "Enemy presence", "Contact is
//! a charge", "Generals" in `docs/rulings.md`.
//!
//! A move's cost is worked out by one walk, [`GameState::walk_cost`], for
//! units and generals alike: what differs between them (a troop type's
//! ground, the uphill rule, road moves) is said in its [`Mover`].

use super::quick_moves::remembered_path_walk;
use super::{Path, Plan, STEP};
use crate::battlefield::geometry::{EPSILON, maybe_within_segment, turn_between};
use crate::battlefield::{Base, Point};
use crate::rules::event::Refusal;
use crate::rules::id::{GeneralId, UnitId};
use crate::rules::state::{GameState, Unit};
use crate::ruleset::{Category, TroopTypeId};

impl GameState {
    /// A reserve enters with its base on the table touching its own edge,
    /// on ground it may enter, overlapping nobody and clear of the enemy.
    pub(super) fn plan_enter(&self, id: UnitId, to: Point, facing: f64) -> Result<Plan, Refusal> {
        let unit = self
            .units
            .get(id.0)
            .ok_or(Refusal::NoSuchUnit { index: id.0 })?;
        let name = || unit.name.clone();
        if unit.side != self.active {
            return Err(Refusal::NotYours { name: name() });
        }
        if !unit.is_reserve() {
            return Err(Refusal::NotInReserve { name: name() });
        }
        let field = &self.battlefield;
        let base = Base::new(to, facing, unit.base.frontage, unit.base.depth);
        if !field.base_on_table(&base) {
            return Err(Refusal::OffTable { name: name() });
        }
        let edge = self.sides[unit.side].edge;
        let gap = base
            .corners()
            .iter()
            .map(|c| match edge {
                crate::battlefield::Edge::South => c.y,
                crate::battlefield::Edge::North => field.height() - c.y,
                crate::battlefield::Edge::West => c.x,
                crate::battlefield::Edge::East => field.width() - c.x,
            })
            .fold(f64::INFINITY, f64::min);
        if gap > 0.05 {
            return Err(Refusal::NotAtOwnEdge { name: name() });
        }
        let passable = field
            .grid
            .cell_at(to)
            .is_some_and(|cell| field.passable(unit.troop, cell));
        if !passable {
            return Err(Refusal::Impassable {
                name: name(),
                at: to,
            });
        }
        if let Some(other) = self.overlapping(&base, id, None) {
            return Err(self.interpenetration(unit, other));
        }
        if let Some(enemy) = self.units.iter().find(|u| {
            u.is_active()
                && u.side != unit.side
                && !base.surely_farther_than(&u.base, self.rules.keep_clear)
                && base.distance_to(&u.base) < self.rules.keep_clear
        }) {
            return Err(Refusal::ContactWithoutCharge {
                name: name(),
                enemy: enemy.name.clone(),
            });
        }
        Ok(Plan::Enter { unit: id, base })
    }

    pub(super) fn plan_pivot(&self, id: UnitId, facing: f64) -> Result<Plan, Refusal> {
        let unit = self.own_unit(id)?;
        self.not_moved(unit)?;
        if unit.pivoted {
            return Err(Refusal::AlreadyPivoted {
                name: unit.name.clone(),
            });
        }
        let turned = Base::new(
            unit.base.centre,
            facing,
            unit.base.frontage,
            unit.base.depth,
        );
        if !self.battlefield.base_on_table(&turned) {
            return Err(Refusal::OffTable {
                name: unit.name.clone(),
            });
        }
        if let Some(other) = self.overlapping(&turned, id, None) {
            return Err(Refusal::Interpenetration {
                name: unit.name.clone(),
                other: self.units[other.0].name.clone(),
            });
        }
        Ok(Plan::Pivot { unit: id, facing })
    }

    /// Seed 000 Enemy Presence: a unit that starts its move within the
    /// distance of an enemy unit may only go directly away from or directly
    /// towards one of those enemies. Road moves bend, so they are refused.
    pub(super) fn enemy_presence(
        &self,
        id: UnitId,
        points: &[Point],
        road: bool,
    ) -> Result<(), Refusal> {
        let unit = &self.units[id.0];
        let limit = self.rules.enemy_presence + EPSILON;
        let is_near =
            |u: &Unit| u.is_active() && u.side != unit.side && unit.base.within(&u.base, limit);
        let refusal = || Refusal::EnemyPresence {
            name: unit.name.clone(),
            within: self.rules.enemy_presence,
        };
        let start = points.first().copied().unwrap_or(unit.base.centre);
        let end = *points.last().unwrap_or(&start);
        let travel = end - start;
        let tolerance = self.rules.directly_within;
        // The travel's bearing only once an enemy near asks for it.
        let bearing = std::cell::OnceCell::new();
        let direct = |enemy: &Unit| {
            let towards = (enemy.base.centre - start).bearing();
            let angle = turn_between(*bearing.get_or_init(|| travel.bearing()), towards);
            angle <= tolerance + EPSILON || angle >= 180.0 - tolerance - EPSILON
        };
        if self.units.indexed() {
            // The same answer from the enemies the grid finds near: whether
            // any is near, and whether any near one is directly ahead or
            // behind (which of them comes first never mattered).
            let short = road || travel.length() < EPSILON;
            let (mut near, mut any_direct) = (false, false);
            self.units.buckets().near_base(&unit.base, limit, |index| {
                let u = &self.units[index];
                if !is_near(u) {
                    return true;
                }
                near = true;
                any_direct = !short && direct(u);
                !short && !any_direct
            });
            return if !near || (!road && (travel.length() < EPSILON || any_direct)) {
                Ok(())
            } else {
                Err(refusal())
            };
        }
        // The enemies within the distance, found as they are asked for
        // (none collected): the first decides whether any is near, the
        // rest only until one is directly ahead or behind.
        let mut near = self.units.iter().filter(|u| is_near(u));
        let Some(first) = near.next() else {
            return Ok(());
        };
        if road {
            return Err(refusal());
        }
        if travel.length() < EPSILON {
            return Ok(());
        }
        if direct(first) || near.any(direct) {
            Ok(())
        } else {
            Err(refusal())
        }
    }

    /// The cost of moving along `points` (a straight move, or a road's
    /// bends), sampled every `STEP` inches: each step's length × the cost
    /// of an inch of its cell's ground, for units dearer uphill; refused
    /// off the table, on ground `mover` may not enter, off the road of a
    /// road move, or over the allowance. The one walk of units' and
    /// generals' moves. Returns the cost and the number of sampled points
    /// (the start included).
    pub(super) fn walk_cost(
        &self,
        points: &[Point],
        mover: &Mover<'_>,
    ) -> Result<(f64, usize), Refusal> {
        let field = &self.battlefield;
        let name = || mover.name.to_string();
        let allowance = field.ruleset.move_inches[mover.category.index()];
        let road_factor = self.road_factor(mover.category);
        let mut cost = 0.0;
        let mut previous_cell = field.grid.cell_at(points[0]);
        let mut climbing = false;
        let mut n_points: usize = 1;
        // The last cell looked up and its cost of an inch: most steps stay
        // in the cell before, which was accepted then and costs the same.
        let mut looked_up: Option<(usize, f64)> = None;
        for pair in points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let n_steps = steps(a, b);
            // A move of 1e20" has `usize::MAX` steps (the float cast
            // saturates): its first few leave the table, and the count must
            // not wrap before they do.
            n_points = n_points.saturating_add(n_steps);
            let mut last = a;
            for step in 1..=n_steps {
                let point = a.lerp(b, step as f64 / n_steps as f64);
                let Some(cell) = field.grid.cell_at(point) else {
                    return Err(Refusal::OffTable { name: name() });
                };
                let multiplier = match (looked_up, mover.troop) {
                    (Some((known, multiplier)), _) if known == cell => multiplier,
                    (_, Some(troop)) => {
                        let Some(mut multiplier) = field.cost_multiplier(troop, cell) else {
                            return Err(Refusal::Impassable {
                                name: name(),
                                at: point,
                            });
                        };
                        if mover.along_road {
                            if !field.on_road(cell) {
                                return Err(Refusal::OffRoad {
                                    name: name(),
                                    at: point,
                                });
                            }
                        } else if field.on_road(cell) {
                            // The battlefield's road cells include the road
                            // bonus; a move not along the road does not earn it.
                            multiplier *= road_factor;
                        }
                        looked_up = Some((cell, multiplier));
                        multiplier
                    }
                    // A rule set without a general troop type: generals
                    // cross any ground at an inch an inch.
                    (_, None) => 1.0,
                };
                if mover.uphill && Some(cell) != previous_cell {
                    climbing = previous_cell
                        .is_some_and(|p| field.grid.ground[cell] > field.grid.ground[p] + 1e-4);
                    previous_cell = Some(cell);
                }
                let slope = if climbing {
                    1.0 / field.ruleset.uphill_speed
                } else {
                    1.0
                };
                cost += last.distance(point) * multiplier * slope;
                if mover.quick && cost > allowance + 1e-6 {
                    // Every step adds a cost of zero or more: refused.
                    return Err(Refusal::TooFar {
                        name: name(),
                        cost,
                        allowance,
                    });
                }
                last = point;
            }
        }
        if cost > allowance + 1e-6 {
            return Err(Refusal::TooFar {
                name: name(),
                cost,
                allowance,
            });
        }
        Ok((cost, n_points))
    }

    /// Exactly `self.walk_cost(&[a, b], mover).is_ok()`, quicker: the same
    /// sampled points and cells (so the same ground refused), but the cost
    /// added up a run of steps in one cell at a time, not a step at a
    /// time. Every step costs its length times its cell's rate, so a run
    /// costs its rate times the distance it covers, which equals the sum
    /// of its steps' lengths but for rounding (the points lie on one line
    /// to within a few units in the last place). When the sum so found is
    /// within a bound of that rounding of the allowance, the step-by-step
    /// walk decides.
    pub(super) fn walk_lawful(&self, a: Point, b: Point, mover: &Mover<'_>) -> bool {
        let field = &self.battlefield;
        let allowance = field.ruleset.move_inches[mover.category.index()];
        let limit = allowance + 1e-6;
        let road_factor = self.road_factor(mover.category);
        let n_steps = steps(a, b);
        // Each step's term and each run's carry a few roundings, and the
        // sums one each per term: 16 times that, to be safe.
        let margin = |cost: f64| 16.0 * (n_steps as f64 + 16.0) * f64::EPSILON * (cost.abs() + 1.0);
        let mut previous_cell = field.grid.cell_at(a);
        let mut climbing = false;
        // The cell of the step before (none before the first step), the
        // rate of an inch in it, and where its run of steps began.
        let mut current: Option<usize> = None;
        let mut rate = 0.0;
        let mut run_from = a;
        let mut last = a;
        let mut cost = 0.0;
        // A step's point and cell (none off the table).
        let point_at = |step: usize| a.lerp(b, step as f64 / n_steps as f64);
        let grid = &field.grid;
        let travel = b - a;
        let mut step = 1;
        let mut point = point_at(1);
        let mut here = grid.cell_at(point);
        loop {
            let Some(cell) = here else {
                return false;
            };
            // `step` begins a run of steps in `cell`.
            if current.is_some() {
                cost += rate * last.distance(run_from);
                if cost > limit + margin(cost) {
                    return false;
                }
            }
            let multiplier = match mover.troop {
                Some(troop) => {
                    let Some(mut multiplier) = field.cost_multiplier(troop, cell) else {
                        return false;
                    };
                    if mover.along_road {
                        if !field.on_road(cell) {
                            return false;
                        }
                    } else if field.on_road(cell) {
                        multiplier *= road_factor;
                    }
                    multiplier
                }
                None => 1.0,
            };
            if mover.uphill && Some(cell) != previous_cell {
                climbing = previous_cell.is_some_and(|p| grid.ground[cell] > grid.ground[p] + 1e-4);
                previous_cell = Some(cell);
            }
            let slope = if climbing {
                1.0 / field.ruleset.uphill_speed
            } else {
                1.0
            };
            rate = multiplier * slope;
            current = Some(cell);
            run_from = last;
            // The run's last step. A point's column and row only grow (or
            // only shrink) along the move, step after step, so the steps
            // in one cell are one run: guessed from where the line leaves
            // the cell, then checked, a step at a time, either way.
            let (column, row) = ((cell % grid.width) as f64, (cell / grid.width) as f64);
            let leaves = |from: f64, along: f64, first: f64| {
                if along > 0.0 {
                    ((first + 1.0) * grid.cell - from) / along
                } else if along < 0.0 {
                    (first * grid.cell - from) / along
                } else {
                    f64::INFINITY
                }
            };
            let exit = leaves(a.x, travel.x, column).min(leaves(a.y, travel.y, row));
            let guess = (exit * n_steps as f64).ceil() - 1.0;
            let mut end = if guess >= n_steps as f64 {
                n_steps
            } else if guess > step as f64 {
                guess as usize
            } else {
                step
            };
            let mut end_point = if end == step { point } else { point_at(end) };
            while end > step && grid.cell_at(end_point) != Some(cell) {
                end -= 1;
                end_point = if end == step { point } else { point_at(end) };
            }
            let mut next = None;
            while end < n_steps {
                let after = point_at(end + 1);
                let cell_after = grid.cell_at(after);
                if cell_after == Some(cell) {
                    end += 1;
                    end_point = after;
                } else {
                    next = Some((after, cell_after));
                    break;
                }
            }
            last = end_point;
            match next {
                Some((after, cell_after)) => {
                    step = end + 1;
                    point = after;
                    here = cell_after;
                }
                None => break,
            }
        }
        cost += rate * last.distance(run_from);
        if !cost.is_finite() {
            return self.walk_cost(&[a, b], mover).is_ok();
        }
        let margin = margin(cost);
        if cost > limit + margin {
            false
        } else if cost < limit - margin {
            true
        } else {
            self.walk_cost(&[a, b], mover).is_ok()
        }
    }

    /// The movement cost of a path, checking ground, the table edge, other
    /// units and (outside charges) contact with the enemy.
    pub(super) fn check_path(&self, path: &Path<'_>) -> Result<f64, Refusal> {
        if path.quick {
            // Only yes or no is wanted, so the cheap checks of where the
            // unit ends go first: most refused tries end on someone, off
            // the table or against the enemy, and need no walk.
            self.check_path_end(path)?;
        }
        let unit = &self.units[path.unit.0];
        let mover = Mover {
            name: &unit.name,
            troop: Some(unit.troop),
            category: unit.category,
            along_road: path.road,
            uphill: true,
            quick: path.quick,
        };
        let (cost, sweep_len) =
            remembered_path_walk(&self.battlefield, &mover, path.points, || {
                self.walk_cost(path.points, &mover)
            })?;
        // The sampled points along the path, from its start, as the walk
        // took them: the sweep below (rarely needed) walks them again
        // rather than the walk keeping them.
        let sweep = || {
            std::iter::once(path.points[0]).chain(path.points.windows(2).flat_map(|pair| {
                let (a, b) = (pair[0], pair[1]);
                let n_steps = steps(a, b);
                (1..=n_steps).map(move |step| a.lerp(b, step as f64 / n_steps as f64))
            }))
        };
        // No interpenetration: the base, as it travels, overlaps nobody.
        // Only units near the path can be met: a broad phase over the whole
        // path first, then the fine steps against those few (usually none).
        let travelling = unit_turned(unit, path.points[0], path.travel_facing);
        let near = self.near_path(&travelling, path.points, path.unit, path.charge_target);
        if !near.is_empty() {
            self.sweep_clear(
                unit,
                &travelling,
                path.end_facing,
                sweep(),
                sweep_len,
                &near,
            )?;
        }
        if !path.quick {
            self.check_path_end(path)?;
        }
        Ok(cost)
    }

    /// No interpenetration along the way: `travelling` (the base at the
    /// travel facing) moved to each of the `sweep_len` sampled points
    /// overlaps none of `near` (unit indices, in order), nor at the last
    /// point turned to `end_facing`.
    pub(super) fn sweep_clear(
        &self,
        unit: &Unit,
        travelling: &Base,
        end_facing: f64,
        sweep: impl Iterator<Item = Point>,
        sweep_len: usize,
        near: &[usize],
    ) -> Result<(), Refusal> {
        for (index, point) in sweep.enumerate() {
            let moved = travelling.moved_to(point);
            if index + 1 == sweep_len {
                // Also at the travel facing, before the end pivot.
                if let Some(other) = self.overlapping_among(&moved, near) {
                    return Err(self.interpenetration(unit, other));
                }
                let base = Base::new(point, end_facing, moved.frontage, moved.depth);
                if let Some(other) = self.overlapping_among(&base, near) {
                    return Err(self.interpenetration(unit, other));
                }
            } else if let Some(other) = self.overlapping_among(&moved, near) {
                return Err(self.interpenetration(unit, other));
            }
        }
        Ok(())
    }

    /// The checks of where a path ends: on the table, clear of the enemy
    /// (outside charges), and, for a quick check, on nobody (the walk
    /// checks that as it goes, and a full check keeps its order).
    fn check_path_end(&self, path: &Path<'_>) -> Result<(), Refusal> {
        let unit = &self.units[path.unit.0];
        let name = || unit.name.clone();
        let at = *path.points.last().unwrap_or(&unit.base.centre);
        let end = unit_turned(unit, at, path.end_facing);
        if path.quick {
            // The walk's last checks, at the travel facing and the end one,
            // at its last sampled point: the lerp to the end at fraction
            // n/n, which is exactly 1 (and the lerp may round off the end).
            let last = match path.points {
                [.., a, b] => a.lerp(*b, 1.0),
                _ => at,
            };
            let travelled = unit_turned(unit, last, path.travel_facing);
            let end = end.moved_to(last);
            for base in [&travelled, &end] {
                if let Some(other) = self.overlapping(base, path.unit, path.charge_target) {
                    return Err(self.interpenetration(unit, other));
                }
            }
        }
        if !self.battlefield.base_on_table(&end) {
            return Err(Refusal::OffTable { name: name() });
        }
        let keep_clear = self.rules.keep_clear;
        let touches = |index: usize, u: &Unit| {
            u.is_active()
                && u.side != unit.side
                && Some(UnitId(index)) != path.charge_target
                && !end.surely_farther_than(&u.base, keep_clear)
                && end.distance_to(&u.base) < keep_clear
        };
        let first = self.units.first_near(&end, keep_clear, touches);
        if let Some(enemy) = first {
            return Err(Refusal::ContactWithoutCharge {
                name: name(),
                enemy: self.units[enemy].name.clone(),
            });
        }
        Ok(())
    }

    pub(super) fn interpenetration(&self, unit: &Unit, other: UnitId) -> Refusal {
        Refusal::Interpenetration {
            name: unit.name.clone(),
            other: self.units[other.0].name.clone(),
        }
    }

    /// The first active unit other than `me` and `ignore` that `base` overlaps.
    pub(in crate::rules) fn overlapping(
        &self,
        base: &Base,
        me: UnitId,
        ignore: Option<UnitId>,
    ) -> Option<UnitId> {
        let meets = |index: usize, u: &Unit| {
            index != me.0
                && Some(UnitId(index)) != ignore
                && u.is_active()
                && base.overlaps_near(&u.base)
        };
        // Overlapping bases are within 0" of each other.
        self.units.first_near(base, 0.0, meets).map(UnitId)
    }

    /// The first of `candidates` (unit indices, in order) that `base` overlaps.
    fn overlapping_among(&self, base: &Base, candidates: &[usize]) -> Option<UnitId> {
        candidates
            .iter()
            .find(|&&index| base.overlaps_near(&self.units[index].base))
            .map(|&index| UnitId(index))
    }

    /// The active units other than `me` and `ignore` that `base` could
    /// overlap anywhere along the polyline `points` (a superset: any unit a
    /// base centred on the path overlaps is within both bases' reach of it).
    fn near_path(
        &self,
        base: &Base,
        points: &[Point],
        me: UnitId,
        ignore: Option<UnitId>,
    ) -> Vec<usize> {
        // The path's bounding box (of its points that are numbers): a unit
        // whose centre is farther from it on either axis than both reaches,
        // a hair and a margin far above the rounding of
        // `maybe_within_segment`'s squares is farther than that from every
        // segment, so `may_meet_on_path` says no; decided without it.
        let (mut low, mut high) = (
            Point::new(f64::INFINITY, f64::INFINITY),
            Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        );
        for point in points {
            low = Point::new(low.x.min(point.x), low.y.min(point.y));
            high = Point::new(high.x.max(point.x), high.y.max(point.y));
        }
        let surely_apart = |other: &Base| {
            let limit = (base.reach() + other.reach() + 1e-6) * (1.0 + 1e-6) + 1e-5;
            let centre = other.centre;
            centre.x < low.x - limit
                || centre.x > high.x + limit
                || centre.y < low.y - limit
                || centre.y > high.y + limit
        };
        let meets = |index: &usize| {
            let u = &self.units[*index];
            *index != me.0
                && Some(UnitId(*index)) != ignore
                && u.is_active()
                && !surely_apart(&u.base)
                && may_meet_on_path(base, &u.base, points)
        };
        if self.units.indexed() {
            // `may_meet_on_path`'s limit is both reaches (and a hair): the
            // grid widens by the other's.
            let limit = base.reach() + 1e-6;
            let mut near = self.units.buckets().near_points(points, limit);
            near.retain(meets);
            return near;
        }
        (0..self.units.len()).filter(meets).collect()
    }

    /// How much a road speeds up `category`: the road bonus as a factor.
    pub(super) fn road_factor(&self, category: Category) -> f64 {
        let ruleset = &self.battlefield.ruleset;
        let allowance = ruleset.move_inches[category.index()];
        (allowance + ruleset.road_bonus) / allowance
    }

    pub(super) fn general_troop(&self) -> Option<TroopTypeId> {
        let ruleset = &self.battlefield.ruleset;
        ruleset
            .troop_types
            .iter()
            .position(|t| t.category == Category::General)
            .map(TroopTypeId)
    }

    pub(super) fn plan_general(&self, id: GeneralId, to: Point) -> Result<Plan, Refusal> {
        let general = self.own_general(id)?;
        let name = || general.name.clone();
        if general.moved {
            return Err(Refusal::AlreadyMoved { name: name() });
        }
        let mover = Mover {
            name: &general.name,
            troop: self.general_troop(),
            category: Category::General,
            along_road: false,
            uphill: false,
            quick: false,
        };
        self.walk_cost(&[general.base.centre, to], &mover)?;
        let field = &self.battlefield;
        let end = Base::new(
            to,
            general.base.facing,
            general.base.frontage,
            general.base.depth,
        );
        if !field.base_on_table(&end) {
            return Err(Refusal::OffTable { name: name() });
        }
        Ok(Plan::MoveGeneral { general: id, to })
    }
}

/// Who makes a move whose cost [`GameState::walk_cost`] walks, and how the
/// ground is priced for him.
pub(super) struct Mover<'a> {
    /// Named in refusals.
    pub(super) name: &'a str,
    /// Whose terrain costs apply; `None` (a rule set without a general
    /// troop type) prices every cell at an inch an inch.
    pub(super) troop: Option<TroopTypeId>,
    /// Whose allowance and road bonus apply.
    pub(super) category: Category,
    /// A road move: every step on the road. Otherwise a step on the road
    /// loses the road bonus the battlefield's road cells include.
    pub(super) along_road: bool,
    /// Whether climbing costs more (seed 000: hills halve movement
    /// uphill): for units, not for generals.
    pub(super) uphill: bool,
    /// Only whether the move is lawful matters: refuse as soon as the cost
    /// is over the allowance.
    pub(super) quick: bool,
}

/// Whether `base` could overlap `other` anywhere along the polyline
/// `points`: [`GameState::near_path`]'s broad phase for one unit.
pub(super) fn may_meet_on_path(base: &Base, other: &Base, points: &[Point]) -> bool {
    let limit = base.reach() + other.reach() + 1e-6;
    let centre = other.centre;
    // A broad phase: a few more units than those strictly within the
    // limit change nothing (the fine steps decide).
    if points.len() < 2 {
        return points
            .iter()
            .any(|p| maybe_within_segment(centre, *p, *p, limit));
    }
    points
        .windows(2)
        .any(|pair| maybe_within_segment(centre, pair[0], pair[1], limit))
}

/// Exactly `Base::new(centre, facing, unit.base.frontage,
/// unit.base.depth)`, without the sine and cosine when `facing` is the
/// unit's own (a base's facing, sine and cosine and reach depend only on
/// its facing and size, and its facing is normalised already).
fn unit_turned(unit: &Unit, centre: Point, facing: f64) -> Base {
    if facing.to_bits() == unit.base.facing.to_bits() {
        unit.base.moved_to(centre)
    } else {
        Base::new(centre, facing, unit.base.frontage, unit.base.depth)
    }
}

/// How many `STEP`s a move from `a` to `b` is sampled in (at least one).
pub(super) fn steps(a: Point, b: Point) -> usize {
    ((a.distance(b) / STEP).ceil() as usize).max(1)
}

#[cfg(test)]
pub(super) mod walk_tests {
    use super::*;
    use crate::dice::Seeded;

    use rand::{RngExt, SeedableRng};

    /// The state at the start of the shipped scenario `name`.
    pub(in crate::rules::engine) fn state(name: &str) -> GameState {
        crate::rules::fixture::builtin_state(name, &mut Seeded::new(1))
    }

    /// The remembered walk of a path is the walk's answer, to the bit and
    /// with the refusal naming the mover: the same points walked by every
    /// kind of mover in turn (troop types, generals' none, along the road
    /// or not, slowed uphill or not, quick or not, under two names), so a
    /// key missing any of them recalls another's answer; each asked twice.
    /// Paths are random polylines and runs of road cells' centres (so road
    /// moves are lawful too) on four shipped tables.
    #[test]
    fn remembered_path_walks_are_the_walks() {
        use super::super::quick_moves::remembered_path_walk;
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1_818);
        let mut lawful = [0usize; 2];
        for name in ["guilford", "monongahela", "guilford-rv", "learning"] {
            let state = state(name);
            let field = &state.battlefield;
            let grid = &field.grid;
            let roads: Vec<usize> = (0..grid.len()).filter(|&c| field.on_road(c)).collect();
            let troops = field.ruleset.troop_types.len();
            for _ in 0..300 {
                let mut points = vec![Point::new(
                    rng.random_range(-1.0..field.width() + 1.0),
                    rng.random_range(-1.0..field.height() + 1.0),
                )];
                if !roads.is_empty() && rng.random_range(0..2) == 0 {
                    // Along a road: from a road cell's centre, to road
                    // neighbours' centres.
                    let mut cell = roads[rng.random_range(0..roads.len())];
                    points = vec![grid.centre(cell)];
                    for _ in 0..rng.random_range(1..5) {
                        let (x, y) = ((cell % grid.width) as i64, (cell / grid.width) as i64);
                        let next = (0..8)
                            .map(|_| {
                                (
                                    x + rng.random_range(-2..=2i64),
                                    y + rng.random_range(-2..=2i64),
                                )
                            })
                            .filter(|&(nx, ny)| {
                                nx >= 0
                                    && ny >= 0
                                    && (nx as usize) < grid.width
                                    && (ny as usize) < grid.height
                            })
                            .map(|(nx, ny)| ny as usize * grid.width + nx as usize)
                            .find(|&c| c != cell && field.on_road(c));
                        let Some(next) = next else { break };
                        cell = next;
                        points.push(grid.centre(cell));
                    }
                } else {
                    for _ in 0..rng.random_range(1..4) {
                        let bearing: f64 = rng.random_range(0.0..360.0);
                        let length = rng.random_range(0.0..8.0);
                        let last = points[points.len() - 1];
                        points.push(
                            last + crate::battlefield::Vector::from_bearing(bearing) * length,
                        );
                    }
                }
                for _ in 0..2 {
                    for troop in (0..troops).map(|t| Some(TroopTypeId(t))).chain([None]) {
                        let category = match troop {
                            Some(troop) => field.ruleset.troop(troop).category,
                            None => Category::General,
                        };
                        for flags in 0..8 {
                            for who in ["first", "second"] {
                                let mover = Mover {
                                    name: who,
                                    troop,
                                    category,
                                    along_road: flags & 1 != 0,
                                    uphill: flags & 2 != 0,
                                    quick: flags & 4 != 0,
                                };
                                let fresh = state.walk_cost(&points, &mover);
                                let remembered = remembered_path_walk(
                                    &state.battlefield,
                                    &mover,
                                    &points,
                                    || state.walk_cost(&points, &mover),
                                );
                                let bits = |walk: &Result<(f64, usize), Refusal>| {
                                    walk.as_ref()
                                        .map(|&(cost, n)| (cost.to_bits(), n))
                                        .map_err(|refusal| format!("{refusal:?}"))
                                };
                                assert_eq!(bits(&remembered), bits(&fresh), "{name}: {points:?}");
                                lawful[usize::from(fresh.is_ok())] += 1;
                            }
                        }
                    }
                }
            }
        }
        // Both answers are common.
        assert!(lawful[0] > 5_000 && lawful[1] > 5_000, "{lawful:?}");
    }

    /// The run-by-run walk says yes exactly when the step-by-step one
    /// does, over random straight moves of every troop type (and generals,
    /// uphill or not) on the shipped tables' hills, woods, roads and
    /// edges: many ending exactly at the allowance over open ground (the
    /// cost then within rounding of it), a hair either side, or anywhere.
    #[test]
    fn walk_lawful_is_walk_cost_ok() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_000);
        let mut decided = [0usize; 2];
        for name in ["guilford", "monongahela", "guilford-rv", "learning"] {
            let state = state(name);
            let field = &state.battlefield;
            let troops = field.ruleset.troop_types.len();
            for _ in 0..6_000 {
                let (troop, category) = if rng.random_range(0..8) == 0 {
                    (state.general_troop(), Category::General)
                } else {
                    let troop = TroopTypeId(rng.random_range(0..troops));
                    (Some(troop), field.ruleset.troop(troop).category)
                };
                let allowance = field.ruleset.move_inches[category.index()];
                let a = Point::new(
                    rng.random_range(-1.0..field.width() + 1.0),
                    rng.random_range(-1.0..field.height() + 1.0),
                );
                let bearing: f64 = rng.random_range(0.0..360.0);
                let length = match rng.random_range(0..5) {
                    0 => allowance,
                    // The cost then within rounding of the limit itself.
                    4 => allowance + 1e-6,
                    1 => allowance * (1.0 + rng.random_range(-1e-7..1e-7)),
                    2 => allowance * rng.random_range(0.0..2.5),
                    _ => allowance * [0.25, 0.5, 0.75, 1.0][rng.random_range(0..4)],
                };
                let b = a + crate::battlefield::Vector::from_bearing(bearing) * length;
                // Rounded as listed moves are, or not.
                let b = if rng.random_range(0..2) == 0 {
                    Point::new(
                        (b.x * 1000.0).round() / 1000.0,
                        (b.y * 1000.0).round() / 1000.0,
                    )
                } else {
                    b
                };
                let mover = Mover {
                    name: "mover",
                    troop,
                    category,
                    along_road: false,
                    uphill: rng.random_range(0..4) != 0,
                    quick: rng.random_range(0..2) == 0,
                };
                let lawful = state.walk_lawful(a, b, &mover);
                assert_eq!(
                    lawful,
                    state.walk_cost(&[a, b], &mover).is_ok(),
                    "{name}: {a} to {b}, {troop:?} {category:?}, uphill {}",
                    mover.uphill
                );
                decided[usize::from(lawful)] += 1;
            }
        }
        // Both answers are common.
        assert!(decided[0] > 2_000 && decided[1] > 2_000, "{decided:?}");
    }
}

#[cfg(test)]
#[path = "spatial_tests.rs"]
mod spatial_tests;
