//! The rasterised table: terrain features drawn once into a grid of square
//! cells (0.5" by default), each knowing which terrain kinds cover it, its
//! ground height and how tall its sight-blocking terrain stands.

use super::geometry::Point;
use super::geometry::point_segment_distance;
use super::shape::{Shape, polygon_edge_distance};
use crate::ruleset::{Column, Ruleset, TerrainId};

/// The default cell size in inches.
pub const DEFAULT_CELL: f64 = 0.5;

/// The most cells a grid may have; bigger tables need bigger cells.
/// Every cell costs about 270 bytes once the battlefield is built (its
/// pathing graph, sight and distance tables): 100,000 cells keep the
/// largest table's `foe check` near 50 MB (a 40-foot table then needs
/// cells of 1.6"). The biggest shipped table has 41,472.
pub const MAX_CELLS: usize = 100_000;

/// The most terrain kinds a rule set may define (one bit per kind per cell).
pub const MAX_KINDS: usize = 64;

/// One terrain feature placed on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Feature {
    /// Its kind in the rule set.
    pub kind: TerrainId,
    /// Its outline.
    pub shape: Shape,
    /// Height in hill levels at its highest point (kinds with `elevation`).
    pub height: f64,
    /// A name for messages and victory areas, if the scenario gave one.
    pub name: Option<String>,
}

/// The index of a cell: `y * width + x`, counting from the south-west.
pub type CellIndex = usize;

/// The table as cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// Cell edge in inches.
    pub cell: f64,
    /// Cells west to east.
    pub width: usize,
    /// Cells south to north.
    pub height: usize,
    /// Table width in inches.
    pub table_width: f64,
    /// Table depth in inches.
    pub table_height: f64,
    /// Bit `k` set when terrain kind `k` covers the cell.
    pub kinds: Vec<u64>,
    /// Ground height in hill levels.
    pub ground: Vec<f32>,
    /// Ground height plus the tallest sight-blocking terrain in the cell.
    pub sight_top: Vec<f32>,
    /// `1 / cell` when the cell's size is a power of two: multiplying by it
    /// is then dividing by the cell, to the bit, and quicker.
    inverse: Option<f64>,
}

/// A [`Grid`]'s cells as places, without their terrain: the cell, the
/// number of cells each way and the table's width ([`Grid::raster`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Raster {
    pub(super) cell: f64,
    inverse: Option<f64>,
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) table_width: f64,
}

impl Raster {
    /// [`Grid::clamped_cell`].
    pub(super) fn clamped_cell(&self, point: Point) -> (usize, usize) {
        let (x, y) = match self.inverse {
            Some(inverse) => (point.x * inverse, point.y * inverse),
            None => (point.x / self.cell, point.y / self.cell),
        };
        (
            floor_clamped(x, self.width - 1),
            floor_clamped(y, self.height - 1),
        )
    }

    /// [`Grid::centre_of_xy`].
    pub(super) fn centre_of_xy(&self, x: usize, y: usize) -> Point {
        Point::new((x as f64 + 0.5) * self.cell, (y as f64 + 0.5) * self.cell)
    }

    /// [`Grid::centre`].
    pub(super) fn centre(&self, index: CellIndex) -> Point {
        self.centre_of_xy(index % self.width, index / self.width)
    }
}

impl Grid {
    /// Rasterise `features` onto a `table_width` × `table_height` table.
    /// A cell takes every feature that covers its centre; lines narrower
    /// than a cell still mark a continuous band of cells, so a thin river
    /// cannot be slipped through diagonally.
    pub fn rasterise(
        ruleset: &Ruleset,
        table_width: f64,
        table_height: f64,
        cell: f64,
        features: &[Feature],
    ) -> Grid {
        let width = ((table_width / cell).ceil() as usize).max(1);
        let height = ((table_height / cell).ceil() as usize).max(1);
        let n_cells = width * height;
        let mut grid = Grid {
            cell,
            width,
            height,
            table_width,
            table_height,
            kinds: vec![0; n_cells],
            ground: vec![0.0; n_cells],
            sight_top: vec![0.0; n_cells],
            inverse: exact_inverse(cell),
        };
        let mut tallest_obstacle = vec![0.0f32; n_cells];
        for feature in features {
            let terrain = ruleset.kind(feature.kind);
            let bit = 1u64 << (feature.kind.0 % MAX_KINDS);
            // Thin lines are widened to about one cell so they stay connected.
            let shape = match &feature.shape {
                Shape::Line { points, width } => Shape::Line {
                    points: points.clone(),
                    width: width.max(cell * 1.5),
                },
                other => other.clone(),
            };
            let inside = grid.cells_inside(&shape, terrain.elevation);
            let deepest = inside
                .iter()
                .fold(0.0f64, |deepest, (_, depth)| deepest.max(*depth));
            for (index, depth) in inside {
                grid.kinds[index] |= bit;
                if terrain.elevation {
                    // A hill rises evenly from its edge to its deepest point.
                    let level = if deepest > 0.0 {
                        feature.height * depth / deepest
                    } else {
                        feature.height
                    };
                    grid.ground[index] = grid.ground[index].max(level as f32);
                }
                if terrain.blocks_sight {
                    tallest_obstacle[index] =
                        tallest_obstacle[index].max(terrain.sight_height as f32);
                }
            }
        }
        for ((top, ground), obstacle) in grid
            .sight_top
            .iter_mut()
            .zip(&grid.ground)
            .zip(&tallest_obstacle)
        {
            *top = ground + obstacle;
        }
        grid
    }

    /// The cells whose centres `shape` covers (depth zero or more), in
    /// row order, each with its depth inside the shape: what testing every
    /// cell of the shape's box with [`Shape::depth_inside`] finds, to the
    /// bit. Depths are exact only where `depths` is asked for (a hill's
    /// slope); otherwise a polygon's are 0.
    ///
    /// A polygon is drawn a row at a time: the row's edge crossings decide
    /// inside and outside (the even-odd rule, with the very crossings the
    /// point test computes), and only cells within a hair of an edge are
    /// tested for lying on it. A line keeps each cell's least distance to
    /// the segments near it. Neither tests every cell against every corner.
    pub fn cells_inside(&self, shape: &Shape, depths: bool) -> Vec<(CellIndex, f64)> {
        let (min, max) = shape.bounds();
        let (x0, y0) = self.clamped_cell(min);
        let (x1, y1) = self.clamped_cell(max);
        let mut inside = Vec::new();
        match shape {
            Shape::Polygon(corners) => {
                self.polygon_cells(corners, (x0, x1), (y0, y1), depths, &mut inside);
            }
            Shape::Line { points, width } if points.len() >= 2 => {
                self.line_cells(points, *width, (x0, x1), (y0, y1), &mut inside);
            }
            _ => {
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let depth = shape.depth_inside(self.centre_of_xy(x, y));
                        if depth >= 0.0 {
                            inside.push((y * self.width + x, depth));
                        }
                    }
                }
            }
        }
        inside
    }

    fn polygon_cells(
        &self,
        corners: &[Point],
        (x0, x1): (usize, usize),
        (y0, y1): (usize, usize),
        depths: bool,
        inside: &mut Vec<(CellIndex, f64)>,
    ) {
        const OUT: u8 = 0;
        const CONTAINED: u8 = 1;
        const ON_EDGE: u8 = 2;
        let n = corners.len();
        let mut crossings: Vec<f64> = Vec::with_capacity(n);
        let mut row = vec![OUT; x1 + 1 - x0];
        for y in y0..=y1 {
            let row_y = self.centre_of_xy(x0, y).y;
            // The crossings `polygon_contains` computes for a point on this
            // row, by the same expression: it is inside when an odd number
            // lie to its right.
            crossings.clear();
            for i in 0..n {
                let a = corners[i];
                let b = corners[(i + n - 1) % n];
                if (a.y > row_y) != (b.y > row_y) {
                    crossings.push(a.x + (row_y - a.y) * (b.x - a.x) / (b.y - a.y));
                }
            }
            crossings.sort_by(f64::total_cmp);
            let mut passed = 0;
            for x in x0..=x1 {
                let centre_x = self.centre_of_xy(x, y).x;
                while passed < crossings.len() && crossings[passed] <= centre_x {
                    passed += 1;
                }
                row[x - x0] = if (crossings.len() - passed) % 2 == 1 {
                    CONTAINED
                } else {
                    OUT
                };
            }
            // A cell outside is still covered when its centre is on an edge
            // (at distance exactly 0): only centres within a hair of an
            // edge can be, and each is tested against that edge alone.
            for i in 0..n {
                let (a, b) = (corners[i], corners[(i + 1) % n]);
                if let Some((from, to)) = edge_span_near_row(a, b, row_y) {
                    for x in self.columns_between(from, to, x0, x1) {
                        if row[x - x0] == OUT
                            && point_segment_distance(self.centre_of_xy(x, y), a, b) == 0.0
                        {
                            row[x - x0] = ON_EDGE;
                        }
                    }
                }
            }
            for x in x0..=x1 {
                let index = y * self.width + x;
                match row[x - x0] {
                    CONTAINED if depths => {
                        let centre = self.centre_of_xy(x, y);
                        inside.push((index, polygon_edge_distance(corners, centre)));
                    }
                    CONTAINED => inside.push((index, 0.0)),
                    // `depth_inside` gives minus the edge distance: -0.
                    ON_EDGE => inside.push((index, -0.0)),
                    _ => {}
                }
            }
        }
    }

    fn line_cells(
        &self,
        points: &[Point],
        width: f64,
        (x0, x1): (usize, usize),
        (y0, y1): (usize, usize),
        inside: &mut Vec<(CellIndex, f64)>,
    ) {
        // Each cell's least distance to the segments whose padded boxes
        // hold it: a cell outside a segment's box is further than half the
        // width from it, so its least distance is decided by the others
        // (or it is outside the line whichever way).
        let box_width = x1 + 1 - x0;
        let mut least = vec![f64::INFINITY; box_width * (y1 + 1 - y0)];
        let pad = width / 2.0 + self.cell;
        for pair in points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let low = Point::new(a.x.min(b.x) - pad, a.y.min(b.y) - pad);
            let high = Point::new(a.x.max(b.x) + pad, a.y.max(b.y) + pad);
            let (sx0, sy0) = self.clamped_cell(low);
            let (sx1, sy1) = self.clamped_cell(high);
            for y in sy0.max(y0)..=sy1.min(y1) {
                for x in sx0.max(x0)..=sx1.min(x1) {
                    let distance = point_segment_distance(self.centre_of_xy(x, y), a, b);
                    let slot = &mut least[(y - y0) * box_width + (x - x0)];
                    *slot = slot.min(distance);
                }
            }
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                let depth = width / 2.0 - least[(y - y0) * box_width + (x - x0)];
                if depth >= 0.0 {
                    inside.push((y * self.width + x, depth));
                }
            }
        }
    }

    /// The columns from `x0` to `x1` whose centres lie from `from` to `to`.
    fn columns_between(
        &self,
        from: f64,
        to: f64,
        x0: usize,
        x1: usize,
    ) -> std::ops::RangeInclusive<usize> {
        // Column x's centre is at (x + 0.5) * cell; one column more either
        // side than the centres strictly need, against rounding.
        let first = floor_clamped(from / self.cell - 0.5, x1).max(x0);
        let last = floor_clamped(to / self.cell + 0.5, x1);
        first..=last
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.width * self.height
    }

    /// Whether the grid has no cells (never, for a built grid).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(super) fn clamped_cell(&self, point: Point) -> (usize, usize) {
        self.raster().clamped_cell(point)
    }

    /// The grid's size and cell, without its terrain: what placing a base
    /// on cells needs (a copy a set of cells can keep).
    pub(super) fn raster(&self) -> Raster {
        Raster {
            cell: self.cell,
            inverse: self.inverse,
            width: self.width,
            height: self.height,
            table_width: self.table_width,
        }
    }

    /// The cell containing `point`, or `None` off the table.
    pub fn cell_at(&self, point: Point) -> Option<CellIndex> {
        if !(point.x >= 0.0
            && point.y >= 0.0
            && point.x <= self.table_width
            && point.y <= self.table_height)
        {
            return None;
        }
        let (x, y) = self.clamped_cell(point);
        Some(y * self.width + x)
    }

    /// The centre of a cell.
    pub fn centre(&self, index: CellIndex) -> Point {
        self.centre_of_xy(index % self.width, index / self.width)
    }

    pub(super) fn centre_of_xy(&self, x: usize, y: usize) -> Point {
        Point::new((x as f64 + 0.5) * self.cell, (y as f64 + 0.5) * self.cell)
    }

    /// Whether terrain kind `kind` covers the cell.
    pub fn has(&self, index: CellIndex, kind: TerrainId) -> bool {
        self.kinds[index] & (1u64 << (kind.0 % MAX_KINDS)) != 0
    }

    /// The terrain kinds covering a cell, in rule-set order; the rule set's
    /// `open` kind when nothing does.
    pub fn kinds_at(&self, ruleset: &Ruleset, index: CellIndex) -> Vec<TerrainId> {
        let mask = self.kinds[index];
        if mask == 0 {
            return vec![ruleset.open];
        }
        (0..ruleset.terrain.len().min(MAX_KINDS))
            .filter(|k| mask & (1u64 << k) != 0)
            .map(TerrainId)
            .collect()
    }

    /// The kinds of [`Grid::kinds_at`] that no other kind there opens (a
    /// road through woods, a ford's river), as a set of kind indices.
    pub fn ground_of(&self, ruleset: &Ruleset, index: CellIndex) -> u64 {
        let kinds = ruleset.terrain.len().min(MAX_KINDS);
        let present = match self.kinds[index] {
            0 => 1u64 << (ruleset.open.0 % MAX_KINDS),
            mask if kinds == MAX_KINDS => mask,
            mask => mask & ((1u64 << kinds) - 1),
        };
        let mut opened = 0u64;
        for other in kinds_of(present) {
            for kind in &ruleset.kind(other).opens {
                if *kind != other && kind.0 < MAX_KINDS {
                    opened |= 1u64 << kind.0;
                }
            }
        }
        present & !opened
    }

    /// The kind drawn on a map for this cell: the top layer.
    pub fn top_kind(&self, ruleset: &Ruleset, index: CellIndex) -> TerrainId {
        self.kinds_at(ruleset, index)
            .into_iter()
            .max_by_key(|k| (ruleset.kind(*k).layer, k.0))
            .unwrap_or(ruleset.open)
    }

    /// The reaction-chart column a unit standing in this cell uses: the best
    /// cover any kind there gives (seed 004: open, natural, hard).
    pub fn column(&self, ruleset: &Ruleset, index: CellIndex) -> Column {
        // `kinds_at` without building its list: asked for every cell under
        // a base whenever a unit's situation is read.
        let mask = self.kinds[index];
        if mask == 0 {
            return ruleset.kind(ruleset.open).column;
        }
        (0..ruleset.terrain.len().min(MAX_KINDS))
            .filter(|k| mask & (1u64 << k) != 0)
            .map(|k| ruleset.kind(TerrainId(k)).column)
            .max()
            .unwrap_or(Column::Open)
    }

    /// Whether a target in this cell is in cover for shooting (seed 000).
    pub fn cover(&self, ruleset: &Ruleset, index: CellIndex) -> bool {
        // `kinds_at` without building its list, as `column`: asked for the
        // cells under every target shot at.
        let mask = self.kinds[index];
        if mask == 0 {
            return ruleset.kind(ruleset.open).cover;
        }
        (0..ruleset.terrain.len().min(MAX_KINDS))
            .any(|k| mask & (1u64 << k) != 0 && ruleset.kind(TerrainId(k)).cover)
    }

    /// The cells whose centres lie inside `shape`.
    pub fn cells_in(&self, shape: &Shape) -> Vec<CellIndex> {
        let mut cells = Vec::new();
        self.for_each_cell_in(shape, |cell| cells.push(cell));
        cells
    }

    /// Each cell of [`Grid::cells_in`], in the same order, without the list.
    pub fn for_each_cell_in(&self, shape: &Shape, mut visit: impl FnMut(CellIndex)) {
        let (min, max) = shape.bounds();
        let (x0, y0) = self.clamped_cell(min);
        let (x1, y1) = self.clamped_cell(max);
        for y in y0..=y1 {
            for x in x0..=x1 {
                if shape.contains(self.centre_of_xy(x, y)) {
                    visit(y * self.width + x);
                }
            }
        }
    }
}

/// The most work drawing a scenario's terrain may take, in cell tests
/// (see [`raster_work`]). The shipped scenarios take under a million; a
/// table of the largest size covered by a hundred plain features takes
/// 15 million, about a tenth of a second.
pub const MAX_RASTER_WORK: u64 = 40_000_000;

/// About how many cell tests drawing `shape` takes on a table of
/// `columns` × `rows` cells of `cell` inches, with depths (`depths`, for a
/// hill) or without. An estimate made before drawing, from the shape's box
/// alone, never below the work done.
pub fn raster_work(shape: &Shape, depths: bool, cell: f64, (columns, rows): (usize, usize)) -> u64 {
    let span = |low: f64, high: f64, count: usize| -> u64 {
        let first = floor_clamped(low / cell, count - 1);
        let last = floor_clamped(high / cell, count - 1);
        (last.max(first) - first + 1) as u64
    };
    let box_cells = |(min, max): (Point, Point)| -> (u64, u64) {
        (span(min.x, max.x, columns), span(min.y, max.y, rows))
    };
    match shape {
        Shape::Polygon(corners) => {
            let n = corners.len() as u64;
            let (width, height) = box_cells(shape.bounds());
            let perimeter: f64 = (0..corners.len())
                .map(|i| corners[i].distance(corners[(i + 1) % corners.len()]) / cell + 2.0)
                .sum();
            let depth_work = if depths { width * height * n } else { 0 };
            height * (2 * n + width) + perimeter.min(u64::MAX as f64) as u64 + depth_work
        }
        Shape::Line { points, width } => {
            let pad = width.max(cell * 1.5) / 2.0 + cell;
            let (box_width, box_height) = box_cells(shape.bounds());
            let segments: u64 = points
                .windows(2)
                .map(|pair| {
                    let low = Point::new(
                        pair[0].x.min(pair[1].x) - pad,
                        pair[0].y.min(pair[1].y) - pad,
                    );
                    let high = Point::new(
                        pair[0].x.max(pair[1].x) + pad,
                        pair[0].y.max(pair[1].y) + pad,
                    );
                    let (w, h) = box_cells((low, high));
                    w * h
                })
                .sum();
            segments + box_width * box_height
        }
        Shape::Rect { .. } | Shape::Circle { .. } => {
            let (width, height) = box_cells(shape.bounds());
            width * height
        }
    }
}

/// How far from a row an edge may pass and still hold a cell centre that
/// lies on it (at distance exactly 0): far above the rounding of any
/// coordinate foe accepts (at most 1e5 inches), far below a cell.
const ON_EDGE_HAIR: f64 = 1e-6;

/// The x-extent of the part of edge `a`–`b` within [`ON_EDGE_HAIR`] of the
/// row at `row_y`, widened by the hair; `None` if it does not come so near.
fn edge_span_near_row(a: Point, b: Point, row_y: f64) -> Option<(f64, f64)> {
    let (low, high) = (a.y.min(b.y), a.y.max(b.y));
    if row_y < low - ON_EDGE_HAIR || row_y > high + ON_EDGE_HAIR {
        return None;
    }
    let (from, to) = if a.y == b.y {
        (a.x.min(b.x), a.x.max(b.x))
    } else {
        let x_at = |y: f64| a.x + (y.clamp(low, high) - a.y) * (b.x - a.x) / (b.y - a.y);
        let (p, q) = (x_at(row_y - ON_EDGE_HAIR), x_at(row_y + ON_EDGE_HAIR));
        (p.min(q), p.max(q))
    };
    Some((from - ON_EDGE_HAIR, to + ON_EDGE_HAIR))
}

/// `1 / cell` when `cell` is a power of two (finite, positive, with no
/// mantissa bits, and its inverse normal too): then both it and every
/// product by it are exact, so `x * inverse` is `x / cell` to the bit.
fn exact_inverse(cell: f64) -> Option<f64> {
    let power_of_two = cell > 0.0 && cell.is_normal() && cell.to_bits() & ((1u64 << 52) - 1) == 0;
    Some(1.0 / cell).filter(|inverse| power_of_two && inverse.is_normal())
}

/// `value.floor().clamp(0.0, most as f64) as usize`, NaN giving 0, without
/// the call to `floor` (not inlined on the baseline x86-64 target; this is
/// the hottest arithmetic of a move's check).
#[inline]
pub(super) fn floor_clamped(value: f64, most: usize) -> usize {
    // Through i64, whose conversions to and from f64 are single
    // instructions on x86-64 (usize's are not); exact, as `most` is far
    // below 2^53 on any grid and `value` is between 0 and `most` there.
    if most > MAX_CELLS {
        return floor_clamped_wide(value, most);
    }
    if value >= most as i64 as f64 {
        most
    } else if value > 0.0 {
        // Truncation is the floor for a positive value.
        value as i64 as usize
    } else {
        0
    }
}

/// [`floor_clamped`] for any `most`.
#[cold]
fn floor_clamped_wide(value: f64, most: usize) -> usize {
    if value >= most as f64 {
        most
    } else if value > 0.0 {
        value as usize
    } else {
        0
    }
}

/// The kinds in a set of kind indices (bit `k`: kind `k`), lowest first.
pub fn kinds_of(mut mask: u64) -> impl Iterator<Item = TerrainId> {
    std::iter::from_fn(move || {
        let kind = mask.trailing_zeros() as usize;
        mask &= mask.checked_sub(1)?;
        Some(TerrainId(kind))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;
    use proptest::prelude::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    fn rules() -> Ruleset {
        Ruleset::builtin("ohw-awi").unwrap().unwrap()
    }

    fn grid_with(kind: &str, shape: Shape, height: f64) -> (Ruleset, Grid, TerrainId) {
        let rules = rules();
        let kind = rules.terrain_kind(kind).unwrap();
        let feature = Feature {
            kind,
            shape,
            height,
            name: None,
        };
        let grid = Grid::rasterise(&rules, 10.0, 10.0, 0.5, &[feature]);
        (rules, grid, kind)
    }

    fn count(grid: &Grid, kind: TerrainId) -> usize {
        (0..grid.len()).filter(|&i| grid.has(i, kind)).count()
    }

    #[test]
    fn rasterises_a_rectangle() {
        let (_, grid, woods) = grid_with(
            "woods",
            Shape::Rect {
                min: p(1.0, 1.0),
                max: p(3.0, 2.0),
            },
            0.0,
        );
        assert_eq!((grid.width, grid.height), (20, 20));
        assert_eq!(count(&grid, woods), 4 * 2);
        assert!(grid.has(grid.cell_at(p(2.0, 1.5)).unwrap(), woods));
        assert!(!grid.has(grid.cell_at(p(3.5, 1.5)).unwrap(), woods));
        assert_eq!(grid.sight_top[grid.cell_at(p(2.0, 1.5)).unwrap()], 1.0);
    }

    #[test]
    fn rasterises_a_polygon() {
        let triangle = Shape::Polygon(vec![p(0.0, 0.0), p(4.0, 0.0), p(0.0, 4.0)]);
        let (_, grid, marsh) = grid_with("marsh", triangle, 0.0);
        // Cell centres strictly below the diagonal x + y = 4: 8 columns, 8+7+…+1.
        assert_eq!(count(&grid, marsh), 36);
    }

    #[test]
    fn rasterises_a_circle() {
        let (_, grid, lake) = grid_with(
            "lake",
            Shape::Circle {
                centre: p(5.0, 5.0),
                radius: 2.0,
            },
            0.0,
        );
        let area = count(&grid, lake) as f64 * 0.25;
        assert!((area - std::f64::consts::PI * 4.0).abs() < 1.0, "{area}");
    }

    #[test]
    fn rasterises_a_line_as_an_unbroken_band() {
        let river = Shape::Line {
            points: vec![p(0.0, 0.0), p(10.0, 10.0)],
            width: 0.2,
        };
        let (_, grid, kind) = grid_with("river", river, 0.0);
        // Every column is crossed; the pathing tests check nothing slips through.
        for x in 0..grid.width {
            let on: Vec<usize> = (0..grid.height)
                .filter(|&y| grid.has(y * grid.width + x, kind))
                .collect();
            assert!(!on.is_empty(), "column {x}");
        }
        let road = Shape::Line {
            points: vec![p(0.0, 5.0), p(10.0, 5.0)],
            width: 1.0,
        };
        let (_, grid, kind) = grid_with("road", road, 0.0);
        assert_eq!(count(&grid, kind), 20 * 2);
    }

    #[test]
    fn hills_rise_to_their_height() {
        let (rules, grid, hill) = grid_with(
            "hill",
            Shape::Circle {
                centre: p(5.0, 5.0),
                radius: 4.0,
            },
            2.0,
        );
        let top = grid.cell_at(p(5.2, 5.2)).unwrap();
        let slope = grid.cell_at(p(5.2, 7.2)).unwrap();
        assert!(grid.ground[top] > 1.8);
        assert!(grid.ground[slope] > 0.5 && grid.ground[slope] < 1.5);
        assert_eq!(grid.ground[grid.cell_at(p(0.2, 0.2)).unwrap()], 0.0);
        assert!(grid.has(top, hill));
        assert_eq!(grid.column(&rules, top), Column::Open);
    }

    #[test]
    fn column_and_cover_take_the_best_kind() {
        let rules = rules();
        let woods = rules.terrain_kind("woods").unwrap();
        let road = rules.terrain_kind("road").unwrap();
        let features = [
            Feature {
                kind: woods,
                shape: Shape::Rect {
                    min: p(0.0, 0.0),
                    max: p(10.0, 5.0),
                },
                height: 0.0,
                name: None,
            },
            Feature {
                kind: road,
                shape: Shape::Line {
                    points: vec![p(5.0, 0.0), p(5.0, 10.0)],
                    width: 1.0,
                },
                height: 0.0,
                name: None,
            },
        ];
        let grid = Grid::rasterise(&rules, 10.0, 10.0, 0.5, &features);
        let in_wood_on_road = grid.cell_at(p(5.2, 2.0)).unwrap();
        assert_eq!(grid.column(&rules, in_wood_on_road), Column::Natural);
        assert!(grid.cover(&rules, in_wood_on_road));
        assert_eq!(grid.top_kind(&rules, in_wood_on_road), road);
        let open = grid.cell_at(p(1.0, 8.0)).unwrap();
        assert_eq!(grid.kinds_at(&rules, open), vec![rules.open]);
        assert!(!grid.cover(&rules, open));
    }

    /// Cells found by multiplying by an exact inverse are the cells found
    /// by dividing by the cell's size, on and either side of every cell
    /// boundary; sizes that are not powers of two divide.
    #[test]
    fn cells_are_found_by_dividing_by_the_cell() {
        let rules = rules();
        for cell in [0.5, 0.25, 1.0, 2.0, 0.3, 0.75] {
            let grid = Grid::rasterise(&rules, 12.0, 9.0, cell, &[]);
            assert_eq!(
                grid.inverse.is_some(),
                [0.5, 0.25, 1.0, 2.0].contains(&cell)
            );
            for i in 0..=((12.0 / cell) as i64 + 1) {
                let edge = i as f64 * cell;
                for x in [edge, edge.next_down(), edge.next_up(), edge + cell / 3.0] {
                    let point = p(x, (x * 0.7).min(9.0));
                    let by_dividing = (
                        super::floor_clamped(point.x / cell, grid.width - 1),
                        super::floor_clamped(point.y / cell, grid.height - 1),
                    );
                    assert_eq!(grid.clamped_cell(point), by_dividing, "{cell} {point:?}");
                }
            }
        }
        assert_eq!(super::exact_inverse(0.5), Some(2.0));
        for odd in [
            0.0,
            -0.5,
            f64::NAN,
            f64::INFINITY,
            0.3,
            f64::MIN_POSITIVE / 4.0,
        ] {
            assert_eq!(super::exact_inverse(odd), None, "{odd}");
        }
    }

    #[test]
    fn floor_clamped_is_floor_then_clamp() {
        let values = [
            f64::NAN,
            f64::NEG_INFINITY,
            -3.5,
            -1.0,
            -0.5,
            -0.0,
            0.0,
            1e-300,
            0.5,
            0.999_999_999_999_999_9,
            1.0,
            7.25,
            9.0,
            9.5,
            10.0,
            1e300,
            f64::INFINITY,
        ];
        for most in [0usize, 1, 9, 10, MAX_CELLS, MAX_CELLS + 1, usize::MAX] {
            for value in values {
                let expected = value.floor().clamp(0.0, most as f64) as usize;
                assert_eq!(
                    super::floor_clamped(value, most),
                    expected,
                    "{value} {most}"
                );
            }
        }
    }

    /// What rasterising did before rows and segments: every cell of the
    /// shape's box tested with `depth_inside`.
    fn every_cell_of_the_box(grid: &Grid, shape: &Shape) -> Vec<(CellIndex, u64)> {
        let (min, max) = shape.bounds();
        let (x0, y0) = grid.clamped_cell(min);
        let (x1, y1) = grid.clamped_cell(max);
        let mut inside = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let depth = shape.depth_inside(grid.centre_of_xy(x, y));
                if depth >= 0.0 {
                    inside.push((y * grid.width + x, depth.to_bits()));
                }
            }
        }
        inside
    }

    fn compare(grid: &Grid, shape: &Shape) -> Result<(), TestCaseError> {
        let expected = every_cell_of_the_box(grid, shape);
        let found: Vec<(CellIndex, u64)> = grid
            .cells_inside(shape, true)
            .into_iter()
            .map(|(index, depth)| (index, depth.to_bits()))
            .collect();
        prop_assert_eq!(&found, &expected, "{:?}", shape);
        let cells: Vec<CellIndex> = grid
            .cells_inside(shape, false)
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        let expected_cells: Vec<CellIndex> = expected.iter().map(|(i, _)| *i).collect();
        prop_assert_eq!(cells, expected_cells);
        Ok(())
    }

    /// Coordinates on a quarter-inch lattice put corners and edges right on
    /// cell centres (0.25, 0.75, …) and run edges along rows and columns of
    /// them; the rest are anywhere, a little off the table too.
    fn coordinate() -> impl Strategy<Value = f64> {
        prop_oneof![
            (-4i32..=52).prop_map(|quarter| f64::from(quarter) * 0.25),
            -1.0f64..13.0,
        ]
    }

    fn corner() -> impl Strategy<Value = Point> {
        (coordinate(), coordinate()).prop_map(|(x, y)| p(x, y))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Polygons are drawn a row at a time, and
        /// cover exactly the cells (and depths, to the bit) the cell-by-cell
        /// test covered, centres on edges included.
        #[test]
        fn rows_draw_polygons_as_every_cell_tested_did(
            corners in prop::collection::vec(corner(), 3..12),
            cell in prop_oneof![Just(0.5), Just(0.25), Just(0.3), Just(1.0)],
        ) {
            let grid = Grid::rasterise(&rules(), 12.0, 12.0, cell, &[]);
            compare(&grid, &Shape::Polygon(corners))?;
        }

        #[test]
        fn segments_draw_lines_as_every_cell_tested_did(
            points in prop::collection::vec(corner(), 2..8),
            width in prop_oneof![Just(0.75), 0.05f64..4.0],
            cell in prop_oneof![Just(0.5), Just(0.3)],
        ) {
            let grid = Grid::rasterise(&rules(), 12.0, 12.0, cell, &[]);
            compare(&grid, &Shape::Line { points, width })?;
        }
    }

    /// Edges along rows and columns of centres, and a diagonal through
    /// them: the cases a row's crossings alone would miss.
    #[test]
    fn centres_on_edges_are_covered_as_before() {
        let grid = Grid::rasterise(&rules(), 10.0, 10.0, 0.5, &[]);
        let shapes = [
            Shape::Polygon(vec![
                p(0.75, 0.75),
                p(4.25, 0.75),
                p(4.25, 3.25),
                p(0.75, 3.25),
            ]),
            Shape::Polygon(vec![p(0.25, 0.25), p(6.25, 6.25), p(0.25, 6.25)]),
            Shape::Polygon(vec![p(5.0, 5.0), p(5.0, 5.0), p(8.25, 5.0), p(8.25, 9.75)]),
        ];
        for shape in &shapes {
            compare(&grid, shape).unwrap();
        }
        let square = grid.cells_inside(&shapes[0], true);
        // 8 columns by 6 rows of centres, edges included.
        assert_eq!(square.len(), 8 * 6);
    }
}
