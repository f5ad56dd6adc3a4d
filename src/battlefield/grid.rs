//! The rasterised table: terrain features drawn once into a grid of square
//! cells (0.5" by default), each knowing which terrain kinds cover it, its
//! ground height and how tall its sight-blocking terrain stands.

use super::geometry::Point;
use super::shape::Shape;
use crate::ruleset::{Column, Ruleset, TerrainId};

/// The default cell size in inches.
pub const DEFAULT_CELL: f64 = 0.5;

/// The most cells a grid may have; bigger tables need bigger cells.
pub const MAX_CELLS: usize = 2_000_000;

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
            let (min, max) = shape.bounds();
            let (x0, y0) = grid.clamped_cell(min);
            let (x1, y1) = grid.clamped_cell(max);
            let mut inside: Vec<(CellIndex, f64)> = Vec::new();
            let mut deepest: f64 = 0.0;
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let centre = grid.centre_of_xy(x, y);
                    let depth = shape.depth_inside(centre);
                    if depth >= 0.0 {
                        inside.push((y * width + x, depth));
                        deepest = deepest.max(depth);
                    }
                }
            }
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

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.width * self.height
    }

    /// Whether the grid has no cells (never, for a built grid).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;

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
}
