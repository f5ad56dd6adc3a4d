//! Guide cells ("landmarks"): a lower bound of the cost between any two
//! cells of a table, for the route search's estimate.
//!
//! For a guide cell at each corner of the table, the cost from the guide
//! to every cell is worked out once per table and troop category, over
//! the terrain alone (no units) and with no uphill penalty, so that the
//! cost is the same both ways; each step is priced in the search's whole
//! units rounded down, so never above the search's price of it. Any path
//! from `a` to `b` then costs at least `|cost(guide, a) − cost(guide, b)|`
//! for each guide (the triangle inequality; a path's true cost, with units
//! in the way and hills to climb, is never less than over bare ground on
//! the level). The largest of these bounds is the estimate ALT ("A*,
//! landmarks and the triangle inequality", Goldberg and Harrelson 2005)
//! uses: it is consistent, and it knows what the straight-line estimate
//! does not: that most ground costs more than a road, and that a river or
//! a wood lies between. The estimate steers the search only: which route
//! is found does not depend on it (see [`super::search`]).

use super::search::{STEP_CAP, Steps, UNITS_PER_INCH, UNREACHABLE, neighbours_on_table};
use crate::battlefield::grid::Grid;

/// How many guide cells a table has: one a corner. Measured on Guilford
/// self-play (instructions a game, cachegrind, with the estimate in
/// floating point): 2 guides 23.4 M, 4 guides 21.0 M, 8 (corners and the
/// middles of the edges) 21.2 M, and 8 cost twice as much to work out.
pub(crate) const GUIDES: usize = 4;

/// Each cell's cost from every guide in whole units, by cell;
/// [`UNREACHABLE`] where a guide cannot reach it over the terrain.
pub(crate) type GuideCosts = Vec<[u32; GUIDES]>;

/// The price of a guide's step between cells of multipliers `a` and `b`
/// a step's half length apart: the search's step on the level
/// (`step_cost`'s terms), in units rounded down and capped as the search
/// caps its own ([`STEP_CAP`]), so never above the search's price; no
/// step ([`UNREACHABLE`]) exactly where the search has none on the level.
#[inline(always)]
fn guide_step(half_length: f32, a: f32, b: f32) -> u32 {
    let cost = half_length * (a + b);
    if cost < f32::INFINITY {
        // `as` truncates (rounds down) and saturates.
        ((f64::from(cost) * UNITS_PER_INCH) as u32).min(STEP_CAP)
    } else {
        UNREACHABLE
    }
}

/// The costs from each of [`GUIDES`] guide cells (the passable cells
/// nearest the table's corners) to every cell, for ground priced by
/// `multipliers` (infinite where impassable), each step [`guide_step`]
/// (Dijkstra's search from each guide over the grid's eight neighbours,
/// by Dial's buckets).
#[inline(never)]
pub(crate) fn guide_costs(grid: &Grid, multipliers: &[f32]) -> GuideCosts {
    let height = grid.height;
    let n_cells = grid.len();
    let mut costs = vec![[UNREACHABLE; GUIDES]; n_cells];
    let (w, h) = (grid.width - 1, height - 1);
    let aims: [(usize, usize); GUIDES] = [(0, 0), (w, h), (w, 0), (0, h)];
    let steps = Steps::new(grid);
    // Dial's buckets: every step costs at least the width of a bucket, so
    // nothing a cell's costs reach falls in its own bucket or below; a
    // cell's cost is final once the buckets below its own are done, and
    // the cells of one bucket may be taken in any order.
    let cheapest = multipliers.iter().copied().fold(f32::INFINITY, f32::min);
    let width = guide_step(steps.half_length[1], cheapest, cheapest).max(1);
    if width == UNREACHABLE {
        return costs;
    }
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let mut cost = vec![UNREACHABLE; n_cells];
    let mut finished = vec![false; n_cells];
    for (k, &(ax, ay)) in aims.iter().enumerate() {
        // The passable cell nearest the aim (ties by index).
        let Some(guide) = (0..n_cells)
            .filter(|&cell| multipliers[cell].is_finite())
            .min_by_key(|&cell| {
                let (x, y) = (cell % grid.width, cell / grid.width);
                (x.abs_diff(ax).pow(2) + y.abs_diff(ay).pow(2), cell)
            })
        else {
            return costs;
        };
        cost.fill(UNREACHABLE);
        finished.fill(false);
        cost[guide] = 0;
        buckets.iter_mut().for_each(Vec::clear);
        let mut at = 0;
        push(&mut buckets, 0, guide);
        while at < buckets.len() {
            let Some(cell) = buckets[at].pop() else {
                at += 1;
                continue;
            };
            let cell = cell as usize;
            if finished[cell] {
                continue;
            }
            finished[cell] = true;
            let (here, multiplier_here) = (cost[cell], multipliers[cell]);
            let (x, y) = (cell % grid.width, cell / grid.width);
            let mut step = |k: usize| {
                let next = cell.wrapping_add(steps.offset[k]);
                if !finished[next] {
                    let price =
                        guide_step(steps.half_length[k], multiplier_here, multipliers[next]);
                    // Ground that cannot be entered is no step.
                    let candidate = here.saturating_add(price);
                    if candidate < cost[next] {
                        cost[next] = candidate;
                        push(&mut buckets, (candidate / width) as usize, next);
                    }
                }
            };
            if x > 0 && y > 0 && x + 1 < grid.width && y + 1 < height {
                for k in [0, 1, 2, 3, 5, 6, 7, 8] {
                    step(k);
                }
            } else {
                let on_table = neighbours_on_table(grid.width, height, x, y);
                for k in (0..9).filter(|k| on_table & (1 << k) != 0) {
                    step(k);
                }
            }
        }
        for (costs, &cost) in costs.iter_mut().zip(&cost) {
            costs[k] = cost;
        }
    }
    costs
}

/// The guides' lower bound, in units, of the cost between two cells with
/// costs `a` and `b` from the guides: the largest difference over the
/// guides. It needs no test for a guide that reaches neither or only one
/// of the cells: the guides' costs are over the same ground as the search,
/// both ways, so two cells joined by any way are reached by the same
/// guides (a guide reaching neither gives 0, `UNREACHABLE` less itself),
/// and for two cells no way joins, any bound is a true one. The search
/// works it out as [`signed_lower_bound`]; this is the plain form the
/// tests hold that to.
#[cfg(test)]
pub(crate) fn lower_bound(a: &[u32; GUIDES], b: &[u32; GUIDES]) -> u32 {
    (0..GUIDES).map(|k| a[k].abs_diff(b[k])).fold(0, u32::max)
}

/// A cell's costs from the guides as `i32`s, for [`signed_lower_bound`]:
/// each cost as it is, or `i32::MAX` for a cost above it
/// ([`UNREACHABLE`] among them).
#[inline]
pub(crate) fn signed(costs: &[u32; GUIDES]) -> [i32; GUIDES] {
    costs.map(|cost| i32::try_from(cost).unwrap_or(i32::MAX))
}

/// [`lower_bound`] of two cells' [`signed`] costs, cheaper: the
/// differences of non-negative `i32`s never overflow, and their absolute
/// values and largest are plain signed arithmetic, which the vector
/// instructions every x86-64 has do four at a time (the unsigned
/// comparisons [`lower_bound`] needs have no such instruction there).
///
/// It is [`lower_bound`] of the costs whenever the two cells' costs are
/// all below `i32::MAX` or alike in every guide's unreachable ones, as
/// for any two cells a way joins (the guides reach the same cells of two
/// cells joined). Otherwise it is still a true bound: a cost clamped to
/// `i32::MAX` moves its differences towards nothing, never above them.
#[inline(always)]
pub(crate) fn signed_lower_bound(a: &[i32; GUIDES], b: &[i32; GUIDES]) -> u32 {
    let difference: [i32; GUIDES] = std::array::from_fn(|k| {
        let difference = a[k] - b[k];
        let sign = difference >> 31;
        (difference ^ sign) - sign
    });
    // The largest of four, in pairs, as the vector instructions take it.
    let pairs = [
        difference[0].max(difference[2]),
        difference[1].max(difference[3]),
    ];
    pairs[0].max(pairs[1]) as u32
}

/// Put `cell` in bucket `index`, adding buckets as needed.
fn push(buckets: &mut Vec<Vec<u32>>, index: usize, cell: usize) {
    if index >= buckets.len() {
        buckets.resize_with(index + 1, Vec::new);
    }
    buckets[index].push(cell as u32);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// A guide's costs by a binary heap over the graph's own edges, each
    /// step the mean of the two multipliers times the edge's length, in
    /// units rounded down.
    fn plain(
        field: &crate::battlefield::Battlefield,
        multipliers: &[f32],
        guide: usize,
    ) -> Vec<u32> {
        use petgraph::visit::EdgeRef;
        let mut cost = vec![UNREACHABLE; field.grid.len()];
        let mut done = vec![false; field.grid.len()];
        let mut heap = BinaryHeap::new();
        cost[guide] = 0;
        heap.push(Reverse((0u32, guide)));
        while let Some(Reverse((_, cell))) = heap.pop() {
            if std::mem::replace(&mut done[cell], true) {
                continue;
            }
            for edge in field.graph().edges(cell as u32) {
                let next = edge.target() as usize;
                let step = *edge.weight() * 0.5 * (multipliers[cell] + multipliers[next]);
                if !step.is_finite() {
                    continue;
                }
                let price = ((f64::from(step) * UNITS_PER_INCH).floor() as u32).min(STEP_CAP);
                let candidate = cost[cell] + price;
                if candidate < cost[next] {
                    cost[next] = candidate;
                    heap.push(Reverse((candidate, next)));
                }
            }
        }
        cost
    }

    /// Over seeded random costs (some unreachable, some above `i32::MAX`,
    /// most small) and over every pair of Guilford's cells a guide apart
    /// in index (those a way may join): the signed bound is the plain one wherever the costs are
    /// below `i32::MAX` or unreachable alike, and never above it.
    #[test]
    fn signed_bounds_are_the_plain_ones() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        let cost = |rng: &mut rand::rngs::ChaCha8Rng| match rng.random_range(0..10) {
            0 => UNREACHABLE,
            1 => rng.random_range(1u32 << 31..UNREACHABLE),
            2 => i32::MAX as u32,
            _ => {
                let bits = rng.random_range(1..31);
                rng.random_range(0..1u32 << bits)
            }
        };
        let mut alike = 0;
        for _ in 0..200_000 {
            let a: [u32; GUIDES] = std::array::from_fn(|_| cost(&mut rng));
            let mut b: [u32; GUIDES] = std::array::from_fn(|_| cost(&mut rng));
            for k in 0..GUIDES {
                if (a[k] == UNREACHABLE) != (b[k] == UNREACHABLE) && rng.random_bool(0.7) {
                    b[k] = if a[k] == UNREACHABLE {
                        UNREACHABLE
                    } else {
                        rng.random_range(0..1 << 30)
                    };
                }
            }
            let (plain, signed) = (
                lower_bound(&a, &b),
                signed_lower_bound(&signed(&a), &signed(&b)),
            );
            assert!(signed <= plain, "{a:?} {b:?}");
            let comparable = (0..GUIDES).all(|k| {
                (a[k] < 1 << 31 && b[k] < 1 << 31) || (a[k] == UNREACHABLE && b[k] == UNREACHABLE)
            });
            if comparable {
                assert_eq!(signed, plain, "{a:?} {b:?}");
                alike += 1;
            }
        }
        assert!(alike > 10_000, "{alike}");
        let field = crate::battlefield::tests::guilford();
        for multipliers in &field.multipliers {
            let costs = guide_costs(&field.grid, multipliers);
            let signed_costs: Vec<_> = costs.iter().map(signed).collect();
            for (a, b) in (0..costs.len()).zip((0..costs.len()).rev().step_by(3)) {
                // Cells on ground no way joins (impassable) are left out.
                if (0..GUIDES).any(|k| (costs[a][k] == UNREACHABLE) != (costs[b][k] == UNREACHABLE))
                {
                    continue;
                }
                assert_eq!(
                    signed_lower_bound(&signed_costs[a], &signed_costs[b]),
                    lower_bound(&costs[a], &costs[b]),
                    "cells {a} {b}"
                );
            }
        }
    }

    /// Dial's buckets find each guide's costs exactly as a binary heap
    /// does, for every category on Guilford, impassable ground and all;
    /// every guide is a passable cell.
    #[test]
    fn guide_costs_are_the_cheapest_from_each_guide() {
        let field = crate::battlefield::tests::guilford();
        for multipliers in &field.multipliers {
            let costs = guide_costs(&field.grid, multipliers);
            for k in 0..GUIDES {
                let guide = (0..field.grid.len())
                    .find(|&cell| costs[cell][k] == 0)
                    .expect("a guide");
                assert!(multipliers[guide].is_finite());
                let expected = plain(&field, multipliers, guide);
                for (cell, (ours, theirs)) in costs.iter().zip(&expected).enumerate() {
                    assert_eq!(ours[k], *theirs, "guide {k} cell {cell}");
                }
            }
        }
    }
}
