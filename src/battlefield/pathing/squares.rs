//! Squares of cells alike (same multiplier and height, passable, nobody in
//! them): a straight line's samples inside one are counted, not visited,
//! and every answer is the one visiting them would give. The radii are
//! worked out once per table and category ([`uniform_radii`]), and per
//! route where units block cells.

use super::cells::CellSet;
use crate::battlefield::geometry::Point;
use crate::battlefield::{Battlefield, CellIndex};
use std::cell::RefCell;

/// For each cell, the largest `r` such that every cell of the grid within
/// `r` cells of it (the square of side `2r + 1` around it) is passable and
/// has its multiplier and ground height, bit for bit; 0 for an impassable
/// cell. That is one less than the (Chebyshev) distance to the nearest
/// cell that differs, found by a two-pass distance transform from the cells
/// next to one that differs.
pub(in crate::battlefield) fn uniform_radii(
    grid: &crate::battlefield::Grid,
    multipliers: &[f32],
) -> Vec<u16> {
    let (w, h) = (grid.width, grid.height);
    const FAR: u16 = u16::MAX;
    // An impassable cell differs from every passable one, whatever its
    // multiplier's bits.
    let labels: Vec<u64> = multipliers
        .iter()
        .zip(&grid.ground)
        .map(|(m, g)| match m.is_finite() {
            true => (u64::from(m.to_bits()) << 32) | u64::from(g.to_bits()),
            false => u64::MAX,
        })
        .collect();
    // The distance to the nearest differing cell: 0 for an impassable cell,
    // 1 beside a differing cell, else worked out from the neighbours'.
    let mut distance: Vec<u16> = labels
        .iter()
        .map(|&l| if l == u64::MAX { 0 } else { FAR })
        .collect();
    for y in 0..h {
        let row = y * w;
        for x in 0..w {
            let cell = row + x;
            let here = labels[cell];
            // The neighbours after this cell: east, and the three above.
            let mut next = [usize::MAX; 4];
            if x + 1 < w {
                next[0] = cell + 1;
            }
            if y + 1 < h {
                next[1] = cell + w;
                if x > 0 {
                    next[2] = cell + w - 1;
                }
                if x + 1 < w {
                    next[3] = cell + w + 1;
                }
            }
            for other in next {
                if other != usize::MAX && labels[other] != here {
                    distance[cell] = distance[cell].min(1);
                    distance[other] = distance[other].min(1);
                }
            }
        }
    }
    // Forward over the neighbours already passed, then back over the rest
    // (a distance past `FAR` stays `FAR`).
    let step = |d: u16| d.saturating_add(1);
    for y in 0..h {
        for x in 0..w {
            let cell = y * w + x;
            let mut d = distance[cell];
            if x > 0 {
                d = d.min(step(distance[cell - 1]));
            }
            if y > 0 {
                let below = cell - w;
                d = d.min(step(distance[below]));
                if x > 0 {
                    d = d.min(step(distance[below - 1]));
                }
                if x + 1 < w {
                    d = d.min(step(distance[below + 1]));
                }
            }
            distance[cell] = d;
        }
    }
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            let cell = y * w + x;
            let mut d = distance[cell];
            if x + 1 < w {
                d = d.min(step(distance[cell + 1]));
            }
            if y + 1 < h {
                let above = cell + w;
                d = d.min(step(distance[above]));
                if x > 0 {
                    d = d.min(step(distance[above - 1]));
                }
                if x + 1 < w {
                    d = d.min(step(distance[above + 1]));
                }
            }
            distance[cell] = d;
        }
    }
    for d in &mut distance {
        *d = d.saturating_sub(1);
    }
    distance
}

/// The largest radius up to `radius` (at most 31) of a square of cells
/// around `(cx, cy)` on a `width` × `height` grid holding no cell of
/// `blocked`: one less than the (Chebyshev) distance to the nearest
/// blocked cell within `radius`, found row by row.
fn clear_radius(
    blocked: &CellSet,
    width: usize,
    height: usize,
    cx: usize,
    cy: usize,
    radius: usize,
) -> usize {
    debug_assert!(radius <= 31);
    if blocked.words.is_empty() {
        return radius;
    }
    // The distance to the nearest blocked cell found so far, or just past
    // the square; only cells nearer than that are looked at.
    let mut nearest = radius + 1;
    for y in cy.saturating_sub(radius)..=(cy + radius).min(height - 1) {
        let dy = y.abs_diff(cy);
        if dy >= nearest {
            continue;
        }
        let reach = nearest - 1;
        let lo = cx.saturating_sub(reach);
        let hi = (cx + reach).min(width - 1);
        let row = blocked.bits(y * width + lo, hi - lo + 1);
        if row == 0 {
            continue;
        }
        let at = cx - lo;
        let left = row & (u64::MAX >> (63 - at));
        if left != 0 {
            let x = 63 - left.leading_zeros() as usize;
            nearest = nearest.min(dy.max(at - x));
        }
        let right = row >> at;
        if right != 0 {
            nearest = nearest.min(dy.max(right.trailing_zeros() as usize));
        }
    }
    nearest.saturating_sub(1)
}

/// Where the samples after a step lie, for [`Battlefield::segment_quick`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Square {
    /// Up to this step they surely land in the square.
    Through(usize),
    /// The square is of no use: the next sample may lie outside it.
    Outside,
}

thread_local! {
    /// [`Battlefield::route_through`]'s square radii, kept between routes
    /// on this thread rather than allocated (grid-sized) for each one.
    pub(super) static SQUARES: RefCell<Squares> = RefCell::new(Squares::default());
}

/// [`Battlefield::square_radius`]'s answers for one route, by cell: grid
/// sized, each cell `u8::MAX` until worked out. Only the cells asked about
/// are put back, so starting a route costs what the last one asked, not a
/// pass over the grid.
#[derive(Debug, Default)]
pub(super) struct Squares {
    radius: Vec<u8>,
    asked: Vec<CellIndex>,
}

impl Squares {
    /// Forget every answer, for a route on a grid of `n_cells` cells.
    pub(super) fn start(&mut self, n_cells: usize) {
        if self.radius.len() == n_cells {
            for &cell in &self.asked {
                self.radius[cell] = u8::MAX;
            }
        } else {
            self.radius.clear();
            self.radius.resize(n_cells, u8::MAX);
        }
        self.asked.clear();
    }

    pub(super) fn get(&self, cell: CellIndex) -> Option<u8> {
        Some(self.radius[cell]).filter(|&radius| radius != u8::MAX)
    }

    pub(super) fn remember(&mut self, cell: CellIndex, radius: u8) {
        self.radius[cell] = radius;
        self.asked.push(cell);
    }
}

impl Battlefield {
    /// The radius of the square of cells around `cell` that string pulling
    /// may count samples in without visiting them: at most
    /// [`uniform_radii`]'s, at most 31, and small enough to hold no cell of
    /// `blocked`. `squares` remembers it for the rest of the route.
    #[inline]
    pub(super) fn square_radius(
        &self,
        squares: &mut Squares,
        uniform: &[u16],
        blocked: &CellSet,
        cell: CellIndex,
    ) -> usize {
        if let Some(known) = squares.get(cell) {
            return usize::from(known);
        }
        let radius = usize::from(uniform[cell]).min(31);
        let radius = if radius >= 2 {
            let (width, height) = (self.grid.width, self.grid.height);
            clear_radius(blocked, width, height, cell % width, cell / width, radius)
        } else {
            radius
        };
        squares.remember(cell, radius as u8);
        radius
    }

    /// The last sample step of the line `a + (dx, dy) * t` (at
    /// `t = step / n_steps`) up to which every sample after `step` surely
    /// lands in the square of `radius` cells around `centre`, when that is
    /// past `step`.
    ///
    /// The square's cells must all share one multiplier and ground height,
    /// be passable and not blocked ([`Battlefield::square_radius`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn square_samples(
        &self,
        centre: CellIndex,
        radius: usize,
        (a, dx, dy): (Point, f64, f64),
        step: usize,
        n_steps: usize,
        margin: f64,
    ) -> Square {
        let grid = &self.grid;
        let (cx, cy) = (centre % grid.width, centre / grid.width);
        let (x0, x1) = (cx.saturating_sub(radius), (cx + radius).min(grid.width - 1));
        let (y0, y1) = (
            cy.saturating_sub(radius),
            (cy + radius).min(grid.height - 1),
        );
        // The square in inches, on the table, less the margin.
        let low_x = (x0 as f64 * grid.cell).max(0.0) + margin;
        let high_x = ((x1 + 1) as f64 * grid.cell).min(grid.table_width) - margin;
        let low_y = (y0 as f64 * grid.cell).max(0.0) + margin;
        let high_y = ((y1 + 1) as f64 * grid.cell).min(grid.table_height) - margin;
        // The stretch of `t` for which the line is inside, if it is
        // inside anywhere.
        let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
        for (start, delta, low, high) in [(a.x, dx, low_x, high_x), (a.y, dy, low_y, high_y)] {
            if delta == 0.0 {
                if !(start >= low && start <= high) {
                    return Square::Outside;
                }
            } else {
                let (u, v) = ((low - start) / delta, (high - start) / delta);
                let (u, v) = if u <= v { (u, v) } else { (v, u) };
                t0 = t0.max(u);
                t1 = t1.min(v);
            }
        }
        let n = n_steps as f64;
        // (`t0` and `t1` are never NaN: `max` and `min` skip a NaN.)
        if (step + 1) as f64 / n < t0 {
            return Square::Outside;
        }
        // The last step whose `t` is at most `t1` (`t1` may be infinite).
        let mut last = if t1 >= 1.0 {
            n_steps
        } else {
            // Truncation is the floor here (and 0 below 0).
            (t1 * n) as usize
        };
        while last > step && last as f64 / n > t1 {
            last -= 1;
        }
        if last <= step {
            return Square::Outside;
        }
        Square::Through(last)
    }
}
