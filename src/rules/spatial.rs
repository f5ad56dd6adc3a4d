//! Where the units stand, indexed: [`Units`] owns a game's units (what
//! [`GameState::units`](super::GameState::units) holds) together with a
//! uniform grid of buckets over their base centres ([`Buckets`]), so that
//! "who is near this base" looks at a few buckets instead of every unit.
//!
//! The grid is built lazily, the first time a query asks for it. Reading
//! goes through `Deref<Target = [Unit]>` and `Index`; writing only through
//! accessors that tell the grid first, so it can never describe units that
//! have since moved, routed or entered: `units[i]` in a place that may
//! change it (`IndexMut`) marks unit `i` unsettled, and an unsettled unit
//! is a candidate of every query, wherever it stands, until the grid is
//! built again (dropped when too many are unsettled, rebuilt at the next
//! query); [`Units::iter_mut`] and [`Units::push`] drop the grid.
//!
//! Only active units are placed in buckets. Each sits in the one bucket of
//! its base's centre; a query for a box widens it by the largest reach of
//! any placed base (half its diagonal), so every unit whose base could
//! reach into the box is among the candidates. Candidates are a superset,
//! and may include units not active: the caller applies its exact test to
//! each (which asks whether the unit is active), as it did in a scan of
//! every unit, and so gets the same answers.

use super::state::Unit;
use crate::battlefield::geometry::EPSILON;
use crate::battlefield::{Base, Point};
use std::sync::OnceLock;

/// Below this many units a query scans them all: the grid does not pay.
/// Measured in instructions: with the grid, a Guilford game (24 units)
/// cost about 0.8% more than with scans; with 32 units a unit-bound cost
/// a little less (0.2%), and the gain grows with the army (17% a
/// unit-bound at 400 units).
pub const INDEX_FROM: usize = 32;

/// A game's units, with a spatial index of the active ones kept in step.
#[derive(Default)]
pub struct Units {
    /// Every unit, in scenario order.
    list: Vec<Unit>,
    /// The grid over `list`'s active units, built on demand; told of
    /// every mutable access.
    grid: OnceLock<Buckets>,
    /// Tests only: whether to ask the grid whatever the size.
    #[cfg(test)]
    forced: Option<bool>,
}

impl Units {
    /// Units in this order, not yet indexed.
    pub fn new(list: Vec<Unit>) -> Units {
        Units {
            list,
            grid: OnceLock::new(),
            #[cfg(test)]
            forced: None,
        }
    }

    /// The units as a slice.
    pub fn as_slice(&self) -> &[Unit] {
        &self.list
    }

    /// Every unit, mutably (the index is dropped).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Unit> {
        self.grid.take();
        self.list.iter_mut()
    }

    /// Add a unit at the end (the index is dropped).
    pub fn push(&mut self, unit: Unit) {
        self.grid.take();
        self.list.push(unit);
    }

    /// The grid over the active units, built now if it is not yet.
    pub fn buckets(&self) -> &Buckets {
        self.grid.get_or_init(|| Buckets::build(&self.list))
    }

    /// Unit `index` may change: the grid answers it to every query from
    /// now on, or is dropped when too many are unsettled.
    fn unsettle(&mut self, index: usize) {
        if let Some(grid) = self.grid.get_mut()
            && !grid.unsettle(index)
        {
            self.grid.take();
        }
    }

    /// Whether queries should go through the grid at all (enough units
    /// for it to pay).
    pub fn indexed(&self) -> bool {
        #[cfg(test)]
        if let Some(forced) = self.forced {
            return forced;
        }
        self.list.len() >= INDEX_FROM
    }

    /// Tests only: ask the grid (`Some(true)`), scan (`Some(false)`), or
    /// choose by size (`None`).
    #[cfg(test)]
    pub(crate) fn force_indexed(&mut self, forced: Option<bool>) {
        self.forced = forced;
    }

    /// The least unit index for which `test` (given the index and the
    /// unit) holds, where `test` holds only for active units whose base
    /// may be within `limit` of `base` (`!base.surely_farther_than(&unit.base,
    /// limit)`): exactly the first of a scan of every unit.
    #[inline]
    pub fn first_near(
        &self,
        base: &Base,
        limit: f64,
        mut test: impl FnMut(usize, &Unit) -> bool,
    ) -> Option<usize> {
        if !self.indexed() {
            return self
                .list
                .iter()
                .enumerate()
                .find(|(index, unit)| test(*index, unit))
                .map(|(index, _)| index);
        }
        let mut first: Option<usize> = None;
        self.buckets().near_base(base, limit, |index| {
            if first.is_none_or(|f| index < f) && test(index, &self.list[index]) {
                first = Some(index);
            }
            true
        });
        first
    }

    /// Whether `test` holds for any unit, where `test` holds only for
    /// active units whose base may be within `limit` of `base`, as
    /// [`Units::first_near`].
    #[inline]
    pub fn any_near(
        &self,
        base: &Base,
        limit: f64,
        mut test: impl FnMut(usize, &Unit) -> bool,
    ) -> bool {
        if !self.indexed() {
            return self
                .list
                .iter()
                .enumerate()
                .any(|(index, unit)| test(index, unit));
        }
        !self
            .buckets()
            .near_base(base, limit, |index| !test(index, &self.list[index]))
    }

    /// Gives `each` every unit (index and unit) that may be within `limit`
    /// of `base`, in no particular order, and maybe others: enough for a
    /// test that holds only for active units whose base may be within
    /// `limit` of `base`, as [`Units::first_near`].
    #[inline]
    pub fn each_near(&self, base: &Base, limit: f64, mut each: impl FnMut(usize, &Unit)) {
        if !self.indexed() {
            self.list
                .iter()
                .enumerate()
                .for_each(|(index, unit)| each(index, unit));
            return;
        }
        self.buckets().near_base(base, limit, |index| {
            each(index, &self.list[index]);
            true
        });
    }

    /// Exactly `least_distance` of the centres of the active units of
    /// `side` to `point`: the least of their squared distances, its
    /// square root (infinite if there are none).
    pub fn least_centre_distance(&self, side: usize, point: Point) -> f64 {
        let squared = |index: usize| {
            let unit = &self.list[index];
            if unit.is_active() && unit.side == side {
                (unit.base.centre - point).squared_length()
            } else {
                f64::INFINITY
            }
        };
        if !self.indexed() {
            return (0..self.list.len())
                .map(squared)
                .fold(f64::INFINITY, f64::min)
                .sqrt();
        }
        let grid = self.buckets();
        // Boxes of growing half-side `r` around the point: once the least
        // found is within `r`, no centre outside the box (farther than `r`
        // along an axis) can be nearer. The box covering the grid answers
        // every unit in it.
        let mut r = grid.cell;
        loop {
            let (lo, hi) = (
                Point::new(point.x - r, point.y - r),
                Point::new(point.x + r, point.y + r),
            );
            let mut least = f64::INFINITY;
            grid.in_box(lo, hi, |index| {
                least = least.min(squared(index));
                true
            });
            if least <= r * r || !grid.inside(lo, hi) {
                return least.sqrt();
            }
            r *= 2.0;
        }
    }
}

impl Clone for Units {
    /// The same units; the copy builds its own index when first asked.
    fn clone(&self) -> Units {
        Units::new(self.list.clone())
    }
}

impl std::fmt::Debug for Units {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.list.fmt(f)
    }
}

impl PartialEq for Units {
    fn eq(&self, other: &Units) -> bool {
        self.list == other.list
    }
}

impl std::ops::Deref for Units {
    type Target = [Unit];
    fn deref(&self) -> &[Unit] {
        &self.list
    }
}

impl std::ops::Index<usize> for Units {
    type Output = Unit;
    fn index(&self, index: usize) -> &Unit {
        &self.list[index]
    }
}

impl std::ops::IndexMut<usize> for Units {
    /// The unit, mutably: the index is dropped first.
    fn index_mut(&mut self, index: usize) -> &mut Unit {
        self.unsettle(index);
        &mut self.list[index]
    }
}

impl<'a> IntoIterator for &'a Units {
    type Item = &'a Unit;
    type IntoIter = std::slice::Iter<'a, Unit>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl<'a> IntoIterator for &'a mut Units {
    type Item = &'a mut Unit;
    type IntoIter = std::slice::IterMut<'a, Unit>;
    /// Every unit, mutably (the index is dropped).
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl From<Vec<Unit>> for Units {
    fn from(list: Vec<Unit>) -> Units {
        Units::new(list)
    }
}

/// A uniform grid of buckets over the active units' base centres.
#[derive(Debug, Clone)]
pub struct Buckets {
    /// The least centre coordinates: the grid's south-west corner.
    origin: Point,
    /// A bucket's side, inches.
    cell: f64,
    /// Buckets west to east.
    cols: usize,
    /// Buckets south to north.
    rows: usize,
    /// Bucket `b` holds `ids[starts[b]..starts[b + 1]]`, in unit order.
    starts: Vec<u32>,
    /// Unit indices, bucket by bucket.
    ids: Vec<u32>,
    /// Units in every query's answer: active units whose centre or size
    /// is not a finite number, and units unsettled since the grid was
    /// built (each once).
    loose: Vec<u32>,
    /// Whether each unit is in `loose` (by unit index); a unit in a
    /// bucket and in `loose` is answered from `loose` only.
    is_loose: Vec<bool>,
    /// How many units may be in `loose` before the grid is built again.
    most_loose: usize,
    /// The largest reach (half diagonal) of a base in a bucket.
    max_reach: f64,
}

impl Buckets {
    /// The grid over `units`' active ones.
    pub fn build(units: &[Unit]) -> Buckets {
        let mut min = Point::new(f64::INFINITY, f64::INFINITY);
        let mut max = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut max_reach: f64 = 0.0;
        let mut loose = Vec::new();
        let mut is_loose = vec![false; units.len()];
        let mut placed: Vec<u32> = Vec::with_capacity(units.len());
        for (index, unit) in units.iter().enumerate() {
            if !unit.is_active() {
                continue;
            }
            let c = unit.base.centre;
            let reach = unit.base.reach();
            if !(c.x.is_finite() && c.y.is_finite() && reach.is_finite()) {
                loose.push(index as u32);
                is_loose[index] = true;
                continue;
            }
            placed.push(index as u32);
            min = Point::new(min.x.min(c.x), min.y.min(c.y));
            max = Point::new(max.x.max(c.x), max.y.max(c.y));
            max_reach = max_reach.max(reach);
        }
        let count = placed.len();
        if count == 0 {
            min = Point::new(0.0, 0.0);
            max = min;
        }
        let width = max.x - min.x;
        let height = max.y - min.y;
        // About one unit a bucket, never finer than an inch, and no more
        // buckets than four a unit (a long thin spread).
        let mut cell = ((width * height) / count.max(1) as f64).sqrt().max(1.0);
        let span = |extent: f64, cell: f64| ((extent / cell) as usize).saturating_add(1);
        while span(width, cell).saturating_mul(span(height, cell)) > 4 * count + 16 {
            cell *= 2.0;
        }
        let cols = span(width, cell);
        let rows = span(height, cell);
        let mut buckets = Buckets {
            origin: min,
            cell,
            cols,
            rows,
            starts: vec![0; cols * rows + 1],
            ids: vec![0; count],
            most_loose: loose.len() + 8 + count / 16,
            loose,
            is_loose,
            max_reach,
        };
        // A counting sort by bucket, in unit order within each.
        let bucket: Vec<u32> = placed
            .iter()
            .map(|&index| {
                let c = units[index as usize].base.centre;
                (buckets.row(c.y) * cols + buckets.col(c.x)) as u32
            })
            .collect();
        for &b in &bucket {
            buckets.starts[b as usize + 1] += 1;
        }
        for b in 0..cols * rows {
            buckets.starts[b + 1] += buckets.starts[b];
        }
        let mut next = buckets.starts.clone();
        for (&index, &b) in placed.iter().zip(&bucket) {
            buckets.ids[next[b as usize] as usize] = index;
            next[b as usize] += 1;
        }
        buckets
    }

    /// The column of x, clamped to the grid: monotone in x (a float's
    /// `as` cast truncates, and sends what is below zero, and NaN, to 0).
    fn col(&self, x: f64) -> usize {
        (((x - self.origin.x) / self.cell) as usize).min(self.cols - 1)
    }

    /// The row of y, clamped to the grid, as [`Buckets::col`].
    fn row(&self, y: f64) -> usize {
        (((y - self.origin.y) / self.cell) as usize).min(self.rows - 1)
    }

    /// Unit `index` may change: answer it to every query from now on.
    /// False when too many are unsettled and the grid should go.
    fn unsettle(&mut self, index: usize) -> bool {
        if index >= self.is_loose.len() {
            return false;
        }
        if !self.is_loose[index] {
            self.is_loose[index] = true;
            self.loose.push(index as u32);
        }
        self.loose.len() <= self.most_loose
    }

    /// Whether the box from `lo` to `hi` leaves out some bucket (false
    /// for a box that is not finite numbers, which `in_box` answers with
    /// every unit).
    fn inside(&self, lo: Point, hi: Point) -> bool {
        let all = [lo.x, lo.y, hi.x, hi.y].iter().all(|v| v.is_finite());
        all && (lo.x > self.origin.x
            || lo.y > self.origin.y
            || hi.x < self.origin.x + self.cols as f64 * self.cell
            || hi.y < self.origin.y + self.rows as f64 * self.cell)
    }

    /// The largest reach (half diagonal) of a base in a bucket: none has
    /// a point farther than this from its centre.
    pub fn max_reach(&self) -> f64 {
        self.max_reach
    }

    /// Every active unit whose base may have a point in the box from `lo`
    /// to `hi` (south-west and north-east corners), in no particular
    /// order: every unit whose centre lies within the largest reach of
    /// the box, and maybe a few more (and every unsettled unit, active or
    /// not). A box that is not finite numbers answers every active unit.
    /// `each` answers whether to go on: once it says no, no more
    /// candidates are given, and `in_box` answers false.
    pub fn in_box(&self, lo: Point, hi: Point, mut each: impl FnMut(usize) -> bool) -> bool {
        for &index in &self.loose {
            if !each(index as usize) {
                return false;
            }
        }
        // Rounding is many orders of magnitude below the margin.
        let margin = self.max_reach
            + EPSILON
            + 1e-6 * (lo.x.abs().max(lo.y.abs()).max(hi.x.abs()).max(hi.y.abs()) + self.max_reach);
        let (x0, y0, x1, y1) = (lo.x - margin, lo.y - margin, hi.x + margin, hi.y + margin);
        let (c0, c1, r0, r1) = if [x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
            (self.col(x0), self.col(x1), self.row(y0), self.row(y1))
        } else {
            (0, self.cols - 1, 0, self.rows - 1)
        };
        for row in r0..=r1 {
            let from = self.starts[row * self.cols + c0] as usize;
            let to = self.starts[row * self.cols + c1 + 1] as usize;
            for &index in &self.ids[from..to] {
                if self.is_loose[index as usize] {
                    continue;
                }
                if !each(index as usize) {
                    return false;
                }
            }
        }
        true
    }

    /// Every active unit whose base `base` may be within `limit` inches
    /// of: a superset of those for which
    /// `base.surely_farther_than(&unit.base, limit)` is false, in no
    /// particular order.
    /// `each` answers whether to go on, as in [`Buckets::in_box`].
    pub fn near_base(&self, base: &Base, limit: f64, each: impl FnMut(usize) -> bool) -> bool {
        // `surely_farther_than` is false only when the centres are within
        // limit + both reaches (+ its own margin); `in_box` adds the
        // other's reach.
        let r = limit.max(0.0) + base.reach() + EPSILON;
        let r = r + r * 1e-6;
        let c = base.centre;
        self.in_box(
            Point::new(c.x - r, c.y - r),
            Point::new(c.x + r, c.y + r),
            each,
        )
    }

    /// Every active unit whose base may come within `limit` of the
    /// polyline `points` (a box around them widened by `limit`), in unit
    /// order. Points that are not finite numbers answer every active unit.
    pub fn near_points(&self, points: &[Point], limit: f64) -> Vec<usize> {
        let mut lo = Point::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for p in points {
            if !(p.x.is_finite() && p.y.is_finite()) {
                lo = Point::new(f64::NAN, f64::NAN);
                break;
            }
            lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let r = limit.max(0.0) + EPSILON;
        let r = r + r * 1e-6;
        self.in_box_sorted(
            Point::new(lo.x - r, lo.y - r),
            Point::new(hi.x + r, hi.y + r),
        )
    }

    /// Like [`Buckets::in_box`], the candidates in unit order.
    pub fn in_box_sorted(&self, lo: Point, hi: Point) -> Vec<usize> {
        let mut found = Vec::new();
        self.in_box(lo, hi, |i| {
            found.push(i);
            true
        });
        found.sort_unstable();
        found
    }
}
