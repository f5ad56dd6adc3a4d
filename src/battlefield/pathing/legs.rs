//! A cell path turned into legal legs by string pulling: each longer
//! straight line tested by its sample points and priced, road legs kept
//! whole.

use super::cells::CellSet;
use super::route::{Leg, Route, Waypoint};
use super::squares::{SQUARES, Square, Squares};
use crate::battlefield::geometry::Point;
use crate::battlefield::{Battlefield, CellIndex};
use crate::ruleset::TroopTypeId;

/// What [`Battlefield::segment_quick`] can tell of a straight line without
/// measuring every step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quick {
    /// [`Battlefield::segment_cost_estimate`] is `Some` and, with its error
    /// added, within the limit.
    Within,
    /// [`Battlefield::segment_cost_estimate`] is `None`: the line meets
    /// ground the category cannot enter or a blocked cell.
    Impassable,
    /// Neither is certain.
    Unsure,
}

/// A bound on [`Battlefield::segment_cost_estimate`]'s error, relative to
/// the cost (and, added, in inches): thousands of times the worst rounding.
/// String pulling trusts the estimate only when the straight line's cost is
/// farther than this from its limit, so every leg is the one measuring
/// each step would give.
pub(super) const SEGMENT_ESTIMATE_ERROR: f64 = 1e-9;

impl Battlefield {
    /// Turn a cell path into a route with legal legs, stopping at the first
    /// leg that would start at a cost of `limit` or more ([`Route::clip`]
    /// drops such legs; each leg depends only on those before it).
    pub(super) fn route_through(
        &self,
        troop: TroopTypeId,
        from: Point,
        to: Point,
        cells: &[CellIndex],
        blocked: &CellSet,
        limit: f64,
    ) -> Route {
        let category = self.category(troop).index();
        let multipliers = &self.multipliers[category];
        let mut waypoints = Vec::with_capacity(cells.len());
        let mut total = 0.0f64;
        for (index, &cell) in cells.iter().enumerate() {
            let point = if index == 0 {
                from
            } else if index + 1 == cells.len() {
                to
            } else {
                self.grid.centre(cell)
            };
            if index > 0 {
                let previous = waypoints.last().map_or(from, |w: &Waypoint| w.point);
                total += self.step_cost(
                    multipliers,
                    cells[index - 1],
                    cell,
                    previous.distance(point) as f32,
                ) as f64;
            }
            waypoints.push(Waypoint { point, cost: total });
        }
        let start_cell = cells[0];
        // `square_radius`'s answers for this route (only string pulling past
        // the first cell asks), in this thread's buffer, put back at the end.
        let mut squares = SQUARES.take();
        if cells.len() > 2 {
            squares.start(self.grid.len());
        }
        let road: Vec<bool> = cells.iter().map(|&c| self.on_road(c)).collect();
        let mut legs: Vec<Leg> = Vec::new();
        let mut cursor = 0;
        let mut leg_cost = 0.0;
        while cursor + 1 < waypoints.len() && leg_cost < limit.max(0.0) {
            // A stretch of road: consecutive road cells, followed as they bend.
            if road[cursor] && road[cursor + 1] {
                let mut end = cursor + 1;
                while end + 1 < waypoints.len() && road[end + 1] {
                    end += 1;
                }
                let points: Vec<Point> = waypoints[cursor..=end].iter().map(|w| w.point).collect();
                let base = waypoints[cursor].cost;
                let costs: Vec<f64> = waypoints[cursor..=end]
                    .iter()
                    .map(|w| w.cost - base + leg_cost)
                    .collect();
                leg_cost = costs[costs.len() - 1];
                legs.push(Leg {
                    points,
                    costs,
                    along_road: true,
                });
                cursor = end;
                continue;
            }
            // Off the road: pull the string as far as a straight line stays
            // on passable ground and costs no more than the cells it replaces.
            let mut end = cursor + 1;
            let mut end_cost = self
                .segment_cost(
                    category,
                    waypoints[cursor].point,
                    waypoints[end].point,
                    start_cell,
                    blocked,
                )
                .unwrap_or(waypoints[end].cost - waypoints[cursor].cost);
            // Whether `end_cost` is the exact cost to `end` yet: an
            // extension decided by the estimate leaves it to be measured.
            let mut measured = true;
            while end + 1 < waypoints.len() && !(road[end] && road[end + 1]) {
                let path_cost = waypoints[end + 1].cost - waypoints[cursor].cost;
                let (a, b) = (waypoints[cursor].point, waypoints[end + 1].point);
                // The estimate settles the test unless the straight line's
                // cost is within its error of the limit; then it is measured.
                let limit = path_cost * 1.02 + 1e-3;
                let quick =
                    self.segment_quick(category, a, b, start_cell, blocked, limit, &mut squares);
                match quick {
                    Quick::Within => {
                        end += 1;
                        measured = false;
                        continue;
                    }
                    Quick::Impassable => break,
                    Quick::Unsure => {}
                }
                let Some(estimate) =
                    self.segment_cost_estimate(category, a, b, start_cell, blocked)
                else {
                    break;
                };
                let error = estimate * SEGMENT_ESTIMATE_ERROR + SEGMENT_ESTIMATE_ERROR;
                if estimate + error <= limit {
                    end += 1;
                    measured = false;
                    continue;
                }
                if estimate - error > limit {
                    break;
                }
                match self.segment_cost(category, a, b, start_cell, blocked) {
                    Some(straight) if straight <= limit => {
                        end += 1;
                        end_cost = straight;
                        measured = true;
                    }
                    _ => break,
                }
            }
            if !measured {
                end_cost = self
                    .segment_cost(
                        category,
                        waypoints[cursor].point,
                        waypoints[end].point,
                        start_cell,
                        blocked,
                    )
                    .unwrap_or(waypoints[end].cost - waypoints[cursor].cost);
            }
            legs.push(Leg {
                points: vec![waypoints[cursor].point, waypoints[end].point],
                costs: vec![leg_cost, leg_cost + end_cost],
                along_road: false,
            });
            leg_cost += end_cost;
            cursor = end;
        }
        SQUARES.set(squares);
        Route {
            troop,
            waypoints,
            legs,
        }
    }

    /// [`Battlefield::segment_cost`] within a relative error far below
    /// [`SEGMENT_ESTIMATE_ERROR`], cheaper: the same sample points, cells
    /// and `None`, but every step's length taken as the line's length over
    /// the number of steps instead of measured (the sample points are
    /// evenly spaced, so the steps differ only by rounding, about 1e-13 of
    /// a step on a table a few feet across).
    pub(super) fn segment_cost_estimate(
        &self,
        category: usize,
        a: Point,
        b: Point,
        start_cell: CellIndex,
        blocked: &CellSet,
    ) -> Option<f64> {
        self.walk_segment(category, a, b, start_cell, blocked, false)
    }

    /// What string pulling's test of the straight line from `a` to `b`
    /// against `limit` would find, as far as it is sure without walking
    /// every step: [`Quick::Within`] only if
    /// [`Battlefield::segment_cost_estimate`] is `Some(estimate)` with
    /// `estimate + (estimate * SEGMENT_ESTIMATE_ERROR +
    /// SEGMENT_ESTIMATE_ERROR) <= limit`, and [`Quick::Impassable`] only if
    /// it is `None`.
    ///
    /// It takes the estimate's steps in order, but where the previous
    /// sample point's cell is the centre of a square of cells that share
    /// its multiplier and ground height (`uniform`) and hold no blocked
    /// cell, it counts the samples that surely land in the square instead
    /// of visiting them: each of those steps adds exactly that multiplier
    /// (the mean of two equal multipliers, on flat ground). Their sum is
    /// taken once, so the total differs from the estimate's by rounding
    /// only, which a factor far larger than that rounding covers.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn segment_quick(
        &self,
        category: usize,
        a: Point,
        b: Point,
        start_cell: CellIndex,
        blocked: &CellSet,
        limit: f64,
        squares: &mut Squares,
    ) -> Quick {
        let multipliers = &self.multipliers[category];
        let uniform = self.uniform(category);
        let grid = &self.grid;
        let length = a.distance(b);
        let n_steps = ((length / (grid.cell * 0.25)).ceil() as usize).max(1);
        if n_steps > 1 << 30 {
            return Quick::Unsure;
        }
        let Some(mut previous_cell) = grid.cell_at(a) else {
            return Quick::Impassable;
        };
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        // Sample points are within about 1e-13" of the line; a square's
        // points more than `margin` inside it land in its cells, on the table.
        let margin = (grid.cell * 1e-6).max((grid.table_width + grid.table_height) * 1e-12);
        let uphill = 1.0 / self.ruleset.uphill_speed;
        let mut sum = 0.0f64;
        let mut climbing = false;
        let mut step = 0;
        // Whether to look for a square around `previous_cell` (not again
        // once one was no help, until the next cell).
        let mut look = true;
        while step < n_steps {
            let radius = match look && !climbing {
                true => self.square_radius(squares, uniform, blocked, previous_cell),
                false => 0,
            };
            if radius >= 2 {
                look = false;
                let square =
                    self.square_samples(previous_cell, radius, (a, dx, dy), step, n_steps, margin);
                if let Square::Through(last) = square {
                    // Steps `step + 1 ..= last` all land in the square.
                    sum += (last - step) as f64 * multipliers[previous_cell] as f64;
                    step = last;
                    let point = a.lerp(b, step as f64 / n_steps as f64);
                    let Some(cell) = grid.cell_at(point) else {
                        return Quick::Unsure;
                    };
                    look = cell != previous_cell;
                    previous_cell = cell;
                    continue;
                }
            }
            step += 1;
            let point = a.lerp(b, step as f64 / n_steps as f64);
            let Some(cell) = grid.cell_at(point) else {
                return Quick::Impassable;
            };
            if cell != start_cell && (!multipliers[cell].is_finite() || blocked.contains(cell)) {
                return Quick::Impassable;
            }
            if cell != previous_cell {
                climbing = grid.ground[cell] > grid.ground[previous_cell] + 1e-4;
                look = true;
            }
            let mean = 0.5 * (multipliers[previous_cell] + multipliers[cell]) as f64;
            let slope = if climbing { uphill } else { 1.0 };
            sum += mean * slope;
            previous_cell = cell;
        }
        // The estimate is `fl(S * fl(length / n))`, `S` its float sum of the
        // same `n` non-negative terms. `S` is at most the exact sum times
        // (1 + u)^n, and `sum` (at most n + 1 additions and n products of a
        // count by a multiplier) at least the exact sum times
        // (1 - u)^(2n + 2), u = 2^-53: the bound below has room for both
        // and its own two roundings, with n under 2^30.
        let slack = 1.0 + (n_steps as f64 + 8.0) * f64::EPSILON * 4.0;
        let bound = sum * (length / n_steps as f64) * slack;
        let error = bound * SEGMENT_ESTIMATE_ERROR + SEGMENT_ESTIMATE_ERROR;
        if bound + error <= limit {
            Quick::Within
        } else {
            Quick::Unsure
        }
    }

    /// The cost of moving straight from `a` to `b`, or `None` if the line
    /// crosses ground the category cannot enter or a blocked cell.
    pub(super) fn segment_cost(
        &self,
        category: usize,
        a: Point,
        b: Point,
        start_cell: CellIndex,
        blocked: &CellSet,
    ) -> Option<f64> {
        self.walk_segment(category, a, b, start_cell, blocked, true)
    }

    /// Walk the straight line from `a` to `b` in quarter-cell steps:
    /// `None` where it meets ground the category cannot enter or a blocked
    /// cell, else its cost, each step's length `measured` or (for the
    /// estimate) the line's length over the number of steps.
    #[inline(always)]
    fn walk_segment(
        &self,
        category: usize,
        a: Point,
        b: Point,
        start_cell: CellIndex,
        blocked: &CellSet,
        measured: bool,
    ) -> Option<f64> {
        let multipliers = &self.multipliers[category];
        let length = a.distance(b);
        let n_steps = ((length / (self.grid.cell * 0.25)).ceil() as usize).max(1);
        let mut cost = 0.0f64;
        let mut previous_cell = self.grid.cell_at(a)?;
        let mut previous_point = a;
        let mut climbing = false;
        let uphill = 1.0 / self.ruleset.uphill_speed;
        for step in 1..=n_steps {
            let point = a.lerp(b, step as f64 / n_steps as f64);
            let cell = self.grid.cell_at(point)?;
            if cell != start_cell && (!multipliers[cell].is_finite() || blocked.contains(cell)) {
                return None;
            }
            // Within one cell the slope is the one met on entering it.
            if cell != previous_cell {
                climbing = self.grid.ground[cell] > self.grid.ground[previous_cell] + 1e-4;
            }
            let mean = 0.5 * (multipliers[previous_cell] + multipliers[cell]) as f64;
            let slope = if climbing { uphill } else { 1.0 };
            if measured {
                cost += previous_point.distance(point) * mean * slope;
                previous_point = point;
            } else {
                cost += mean * slope;
            }
            previous_cell = cell;
        }
        Some(if measured {
            cost
        } else {
            cost * (length / n_steps as f64)
        })
    }
}
