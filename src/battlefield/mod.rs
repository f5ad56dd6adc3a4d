//! The battlefield: the table in inches, its terrain rasterised into a grid,
//! line of sight, and pathing over an eight-neighbour cell graph built once
//! per table (kept as a petgraph `Csr`; searches walk it from the grid).
//!
//! Pure: no I/O, no printing, no clock; the same table and question give
//! the same answer. The rule set says what each terrain kind does; this
//! module only applies it.

pub mod geometry;
pub mod grid;
pub mod pathing;
pub mod shape;
pub mod sight;

pub use geometry::{Arc, Base, Point, Vector};
pub use grid::{CellIndex, DEFAULT_CELL, Feature, Grid};
pub(crate) use pathing::Roster;
pub use pathing::{CellSet, Field, Leg, Route, Spans, Waypoint};
pub use shape::Shape;

use crate::ruleset::{Category, Column, Movement, Ruleset, TerrainId, TroopTypeId};
use petgraph::csr::Csr;
use std::sync::OnceLock;

/// `v.floor()` without a call into the C library (which is what `floor`
/// is without SSE4.1): the same for every `v` (NaN for NaN). Below 2^51 in
/// size, adding and taking away 1.5 × 2^52 rounds `v` to a whole number
/// exactly (there the numbers are one apart), and one step down makes it
/// the floor.
#[inline]
fn floor(v: f64) -> f64 {
    const ROUND: f64 = 6_755_399_441_055_744.0;
    if v.is_nan() || v.abs() >= 2_251_799_813_685_248.0 {
        return v.floor();
    }
    let nearest = (v + ROUND) - ROUND;
    if nearest > v { nearest - 1.0 } else { nearest }
}

/// `v.ceil()` as [`floor`] is `v.floor()`.
#[inline]
fn ceil(v: f64) -> f64 {
    -floor(-v)
}

/// `v.floor()` as a whole number, for `v` between -2^50 and 2^50 (not
/// NaN): adding 1.5 × 2^52 rounds `v` to the nearest whole number, which
/// the sum's bits then hold, counted up from those of 1.5 × 2^52 (the sum
/// stays between 2^52 and 2^53, where the numbers are one apart and share
/// an exponent); one less where that is above `v`. No check for NaN or
/// for numbers too large, and no saturating conversion: the quick walk of
/// blocked cells holds its numbers to the grid first.
#[inline]
fn floor_to_int(v: f64) -> i64 {
    const ROUND: f64 = 6_755_399_441_055_744.0;
    let sum = v + ROUND;
    let nearest = sum.to_bits() as i64 - ROUND.to_bits() as i64;
    nearest - i64::from(sum - ROUND > v)
}

/// `v.ceil()` as a whole number, as [`floor_to_int`] is `v.floor()`.
#[inline]
fn ceil_to_int(v: f64) -> i64 {
    -floor_to_int(-v)
}

/// The pathing graph: one node per cell (index = y·width + x), an edge to
/// each of the eight neighbours in both directions, weighted by step length
/// in inches. Terrain costs are applied when searching, per troop type.
pub type CellGraph = Csr<(), f32, petgraph::Directed, u32>;

/// A table ready for play: terrain, grid, per-category movement costs and
/// the pathing graph.
#[derive(Debug, Clone)]
pub struct Battlefield {
    /// The rule set the terrain effects come from.
    pub ruleset: Ruleset,
    /// The features as placed.
    pub features: Vec<Feature>,
    /// The rasterised table.
    pub grid: Grid,
    graph: CellGraph,
    /// Cost of one inch of movement per cell, by category index, as a
    /// multiple of an inch of open ground; infinite where impassable.
    multipliers: [Vec<f32>; 5],
    /// The smallest finite multiplier per category (for A*'s estimate).
    cheapest: [f32; 5],
    /// The cells each category cannot enter (infinite multiplier), by
    /// category index.
    impassable: [CellSet; 5],
    /// For each category and cell, the radius (in cells) of the square of
    /// cells around it that all share its multiplier and ground height, and
    /// are passable; 0 for impassable cells. String pulling counts a line's
    /// steps through such a square without walking them.
    /// Worked out on first use ([`Battlefield::uniform`]).
    uniform: [OnceLock<Vec<u16>>; 5],
    /// For each category, every cell's cost from the table's guide cells
    /// (the route search's lower bound, [`pathing::guide_costs`]).
    /// Worked out on first use ([`Battlefield::guides`]).
    guides: [OnceLock<pathing::GuideCosts>; 5],
    /// Whether a road runs through each cell.
    road: Vec<bool>,
    /// The tallest `grid.sight_top` among each cell and its eight
    /// neighbours: line of sight skips, unmeasured, sample points that
    /// land near cells no taller than both eyes.
    sight_near: Vec<f32>,
    /// The tallest `grid.sight_top` in each square block of
    /// [`SIGHT_BLOCK`] cells and the two cells all round it, row by row
    /// (`sight_blocks_across` to a row): line of sight skips at once the
    /// sample points that stay near a block no taller than both eyes.
    sight_blocks: Vec<f32>,
    /// Blocks in a row of `sight_blocks`.
    sight_blocks_across: usize,
    /// For each cell, the steepest rise of the ground between it and a
    /// cell it touches: how far its centre's height may be from the
    /// ground's height anywhere in it, which line of sight allows for.
    sight_rise: Vec<f32>,
    /// The distance between two cells' centres by how many cells apart
    /// they are across and down (`down * grid.width + across`), when that
    /// is all it depends on ([`centre_distances`]); `None` otherwise.
    centre_distances: Option<Vec<f64>>,
    /// Each cell's ground: the terrain kinds present that no other kind
    /// present opens (a road through woods, a ford's river), as a set of
    /// kind indices. Worked out on first use ([`Battlefield::ground_mask_at`]).
    ground: OnceLock<Vec<u64>>,
    /// Which table this is, for what is remembered about it beyond one
    /// game ([`Battlefield::can_see`]).
    id: TableId,
}

/// A number no other table built in this process has. foe never changes a
/// table once built (its fields are public to read), so what was worked out
/// for one id holds for it for good; a clone takes a new id, so changing a
/// copy could not mislead.
#[derive(Debug, PartialEq, Eq)]
struct TableId(u64);

impl TableId {
    fn fresh() -> TableId {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        TableId(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for TableId {
    fn clone(&self) -> TableId {
        TableId::fresh()
    }
}

/// The side of a [`Battlefield::sight_blocks`] block, in cells.
const SIGHT_BLOCK: usize = 4;

impl Battlefield {
    /// Rasterise `features` onto a `width` × `height` inch table with cells
    /// of `cell` inches, and build the pathing graph.
    pub fn new(
        ruleset: Ruleset,
        width: f64,
        height: f64,
        cell: f64,
        features: Vec<Feature>,
    ) -> Battlefield {
        let grid = Grid::rasterise(&ruleset, width, height, cell, &features);
        let n_cells = grid.len();
        let mut multipliers: [Vec<f32>; 5] = Default::default();
        let mut cheapest = [f32::INFINITY; 5];
        let mut road = vec![false; n_cells];
        for category in Category::ALL {
            let mut costs = Vec::with_capacity(n_cells);
            for (index, road_here) in road.iter_mut().enumerate() {
                let (speed, on_road) = cell_speed(&ruleset, &grid, index, category);
                *road_here = on_road;
                let multiplier = match speed {
                    Some(speed) => (1.0 / speed) as f32,
                    None => f32::INFINITY,
                };
                cheapest[category.index()] = cheapest[category.index()].min(multiplier);
                costs.push(multiplier);
            }
            multipliers[category.index()] = costs;
        }
        let impassable = multipliers.each_ref().map(|costs| {
            let mut set = CellSet::new(n_cells);
            for (cell, multiplier) in costs.iter().enumerate() {
                if !multiplier.is_finite() {
                    set.insert(cell);
                }
            }
            set
        });
        let graph = build_graph(&grid);
        let sight_near = tallest_nearby(&grid);
        let sight_rise = steepest_rise(&grid);
        let (sight_blocks, sight_blocks_across) = tallest_in_blocks(&grid);
        let centre_distances = centre_distances(&grid);
        Battlefield {
            ruleset,
            features,
            grid,
            graph,
            multipliers,
            cheapest,
            impassable,
            uniform: Default::default(),
            guides: Default::default(),
            road,
            sight_near,
            sight_blocks,
            sight_blocks_across,
            sight_rise,
            centre_distances,
            ground: OnceLock::new(),
            id: TableId::fresh(),
        }
    }

    /// The terrain kinds that count at `point`, as a set of kind indices
    /// (bit `k`: kind `k`; [`grid::kinds_of`] lists them): those present
    /// that no other kind present opens (a road through woods, a ford's
    /// river). Empty off the table. A look-up, asked for every cell under
    /// a base at every step of a move.
    pub fn ground_mask_at(&self, point: Point) -> u64 {
        self.grid
            .cell_at(point)
            .map_or(0, |cell| self.ground_mask_of(cell))
    }

    /// [`Battlefield::ground_mask_at`] the centre of `cell`, by its index
    /// (empty for an index off the table).
    pub fn ground_mask_of(&self, cell: CellIndex) -> u64 {
        let ground = self.ground.get_or_init(|| {
            (0..self.grid.len())
                .map(|cell| self.grid.ground_of(&self.ruleset, cell))
                .collect()
        });
        ground.get(cell).copied().unwrap_or(0)
    }

    /// [`pathing::guide_costs`] for the category with index `category`.
    fn guides(&self, category: usize) -> &[[u32; pathing::GUIDES]] {
        self.per_category(&self.guides, category, || {
            pathing::guide_costs(&self.grid, &self.multipliers[category])
        })
        .as_slice()
    }

    /// [`pathing::uniform_radii`] for the category with index `category`.
    fn uniform(&self, category: usize) -> &[u16] {
        self.per_category(&self.uniform, category, || {
            pathing::uniform_radii(&self.grid, &self.multipliers[category])
        })
        .as_slice()
    }

    /// What `slots` keeps for the category with index `category`, worked
    /// out on first use by `work_out`, or copied from a category that
    /// moves alike (its multipliers the same in every cell) and has it.
    fn per_category<'a, T: Clone>(
        &self,
        slots: &'a [OnceLock<T>; 5],
        category: usize,
        work_out: impl FnOnce() -> T,
    ) -> &'a T {
        slots[category].get_or_init(|| {
            match (0..5)
                .filter(|&c| c != category && self.moves_alike(category, c))
                .find_map(|c| slots[c].get())
            {
                Some(answer) => answer.clone(),
                None => work_out(),
            }
        })
    }

    /// Whether two categories' multipliers are the same in every cell, so
    /// that what is worked out from them is too.
    fn moves_alike(&self, category: usize, other: usize) -> bool {
        let (ours, theirs) = (&self.multipliers[category], &self.multipliers[other]);
        ours.iter()
            .map(|m| m.to_bits())
            .eq(theirs.iter().map(|m| m.to_bits()))
    }

    /// The pathing graph.
    pub fn graph(&self) -> &CellGraph {
        &self.graph
    }

    /// Exactly `grid.centre(a).distance(grid.centre(b))`, from a table by
    /// the cells' offset where the grid allows one.
    pub fn centre_distance(&self, a: CellIndex, b: CellIndex) -> f64 {
        self.centre_distance_to(b)(a)
    }

    /// [`Battlefield::centre_distance`] from any cell to `goal`, with what
    /// depends only on the goal worked out once (for a search's estimate).
    pub fn centre_distance_to(&self, goal: CellIndex) -> impl Fn(CellIndex) -> f64 + '_ {
        let width = self.grid.width;
        let (goal_x, goal_y) = (goal % width, goal / width);
        move |cell| match &self.centre_distances {
            Some(table) => {
                let (x, y) = (cell % width, cell / width);
                table[y.abs_diff(goal_y) * width + x.abs_diff(goal_x)]
            }
            None => self.grid.centre(cell).distance(self.grid.centre(goal)),
        }
    }

    /// Table width in inches.
    pub fn width(&self) -> f64 {
        self.grid.table_width
    }

    /// Table depth in inches.
    pub fn height(&self) -> f64 {
        self.grid.table_height
    }

    /// Whether `point` is on the table.
    pub fn on_table(&self, point: Point) -> bool {
        self.grid.cell_at(point).is_some()
    }

    /// Whether every corner of `base` is on the table.
    pub fn base_on_table(&self, base: &Base) -> bool {
        base.corners().iter().all(|&c| {
            c.x >= -geometry::EPSILON
                && c.y >= -geometry::EPSILON
                && c.x <= self.width() + geometry::EPSILON
                && c.y <= self.height() + geometry::EPSILON
        })
    }

    /// The category of a troop type.
    pub fn category(&self, troop: TroopTypeId) -> Category {
        self.ruleset.troop(troop).category
    }

    /// Cost of one inch of movement for `troop` in `cell`, as a multiple of
    /// open ground (2 = half movement); `None` where it cannot go.
    pub fn cost_multiplier(&self, troop: TroopTypeId, cell: CellIndex) -> Option<f64> {
        let multiplier = *self.multipliers[self.category(troop).index()].get(cell)?;
        multiplier.is_finite().then_some(multiplier as f64)
    }

    /// The smallest cost of an inch for `category` anywhere on this table
    /// (a road's, when there is one): no move of that category costs less
    /// than its length times this.
    pub fn cheapest_multiplier(&self, category: Category) -> f64 {
        f64::from(self.cheapest[category.index()])
    }

    /// Whether `troop` may stand in or enter `cell`.
    pub fn passable(&self, troop: TroopTypeId, cell: CellIndex) -> bool {
        self.cost_multiplier(troop, cell).is_some()
    }

    /// Whether every cell under `base` ([`Battlefield::for_each_cell_under`])
    /// is [`Battlefield::passable`] to `troop`: at once where the base lies
    /// inside a square of cells all passable to it around the cell of its
    /// centre (the squares the route search keeps), else cell by cell.
    pub fn passable_under(&self, troop: TroopTypeId, base: &Base) -> bool {
        if let Some(cell) = self.grid.cell_at(base.centre) {
            // A cell whose centre is on the base is at most this many
            // cells across or down from the centre's (one more for the
            // rounding).
            let cells_away = (base.reach() / self.grid.cell + 0.5).floor() + 1.0;
            let radius = self.uniform(self.category(troop).index())[cell];
            if f64::from(radius) >= cells_away {
                return true;
            }
        }
        let multipliers = &self.multipliers[self.category(troop).index()];
        self.all_cells_under(base, |cell| {
            multipliers.get(cell).is_some_and(|m| m.is_finite())
        })
    }

    /// Whether a road runs through `cell`.
    pub fn on_road(&self, cell: CellIndex) -> bool {
        self.road.get(cell).copied().unwrap_or(false)
    }

    /// The terrain kinds at `point` (the `open` kind on bare ground).
    pub fn terrain_at(&self, point: Point) -> Vec<TerrainId> {
        match self.grid.cell_at(point) {
            Some(cell) => self.grid.kinds_at(&self.ruleset, cell),
            None => Vec::new(),
        }
    }

    /// The reaction-chart column for a unit whose centre is at `point`.
    pub fn column_at(&self, point: Point) -> Column {
        self.grid
            .cell_at(point)
            .map_or(Column::Open, |cell| self.grid.column(&self.ruleset, cell))
    }

    /// Whether a unit whose centre is at `point` is in cover for shooting.
    pub fn cover_at(&self, point: Point) -> bool {
        self.grid
            .cell_at(point)
            .is_some_and(|cell| self.grid.cover(&self.ruleset, cell))
    }

    /// Ground height in hill levels at `point`.
    pub fn height_at(&self, point: Point) -> f64 {
        self.grid
            .cell_at(point)
            .map_or(0.0, |cell| self.grid.ground[cell] as f64)
    }

    /// The cells a base covers (cells whose centres lie on the base).
    pub fn cells_under(&self, base: &Base) -> Vec<CellIndex> {
        let mut cells = Vec::new();
        self.for_each_cell_under(base, |cell| cells.push(cell));
        cells
    }

    /// The cells of `base` that stand between it and something at
    /// `towards` (a shooter, a charger, the enemy it reads its ground
    /// against), in [`Battlefield::for_each_cell_under`]'s order: the cell
    /// under its centre (the terrain it stands in, whatever the direction),
    /// then every cell under the base whose centre lies on `towards`' side
    /// of the line through the base's centre square to the line towards it.
    /// A fence under the front half of a base lies between it and an enemy
    /// ahead; under the rear half it lies behind the unit.
    pub fn for_each_cell_towards(
        &self,
        base: &Base,
        towards: Point,
        mut visit: impl FnMut(CellIndex),
    ) {
        if let Some(cell) = self.grid.cell_at(base.centre) {
            visit(cell);
        }
        let direction = towards - base.centre;
        let grid = &self.grid;
        self.for_each_cell_under(base, |cell| {
            if (grid.centre(cell) - base.centre).dot(direction) >= 0.0 {
                visit(cell);
            }
        });
    }

    /// Whether cover-giving terrain lies between `base` and something at
    /// `towards` ([`Battlefield::for_each_cell_towards`]): seed 000's
    /// "target in cover", read as cover between the target and the shooter.
    pub fn in_cover_from(&self, base: &Base, towards: Point) -> bool {
        let mut cover = false;
        self.for_each_cell_towards(base, towards, |cell| {
            cover = cover || self.grid.cover(&self.ruleset, cell);
        });
        cover
    }

    /// Each cell of [`Battlefield::cells_under`], in the same order, without
    /// building the list.
    ///
    /// The same cells as testing every cell of the base's bounding box
    /// (`Grid::for_each_cell_in` of its bounds, then [`Base::contains`] on
    /// the centre), but each row only tests the cells near the stretch the
    /// base covers, found by solving the base's two slab conditions for x.
    /// The stretch is widened by a margin far larger than any rounding, and
    /// every cell in it is still tested exactly as before, so none is
    /// missed and none added.
    pub fn for_each_cell_under(&self, base: &Base, mut visit: impl FnMut(CellIndex)) {
        self.all_cells_under(base, |cell| {
            visit(cell);
            true
        });
    }

    /// Whether `test` holds for every cell under `base`, asked in
    /// [`Battlefield::for_each_cell_under`]'s order and no further than
    /// the first cell where it fails.
    pub fn all_cells_under(&self, base: &Base, mut test: impl FnMut(CellIndex) -> bool) -> bool {
        let (min, max) = base.bounds();
        let grid = &self.grid;
        let (centre, right, forward) = (base.centre, base.right(), base.forward());
        let all_finite = [
            min.x,
            min.y,
            max.x,
            max.y,
            centre.x,
            centre.y,
            right.x,
            right.y,
            forward.x,
            forward.y,
            base.frontage,
            base.depth,
            grid.cell,
        ]
        .iter()
        .all(|v| v.is_finite());
        if !all_finite || grid.cell <= 0.0 {
            let mut all = true;
            grid.for_each_cell_in(&Shape::Rect { min, max }, |cell| {
                if all && base.contains(grid.centre(cell)) {
                    all = test(cell);
                }
            });
            return all;
        }
        let (x0, y0) = grid.clamped_cell(min);
        let (x1, y1) = grid.clamped_cell(max);
        // `Base::contains` compares with these, computed the same way.
        let half_u = base.frontage / 2.0 + geometry::EPSILON;
        let half_v = base.depth / 2.0 + geometry::EPSILON;
        // Rounding in the tests below is around 1e-13"; a thousandth of a
        // cell leaves room to spare without testing many more cells.
        let margin = grid.cell * 1e-3;
        for y in y0..=y1 {
            let py = (y as f64 + 0.5) * grid.cell;
            // The bounding rectangle's y test (`Shape::Rect::contains`: the
            // least of four differences is not negative; with finite values
            // that is each of them).
            if !(py - min.y >= 0.0 && max.y - py >= 0.0) {
                continue;
            }
            // `Base::local`'s terms that do not depend on x.
            let oy = py - centre.y;
            let (u_y, v_y) = (oy * right.y, oy * forward.y);
            let (mut lo, mut hi) = (min.x, max.x);
            narrow_to_slab(&mut lo, &mut hi, centre.x, right.x, u_y, half_u);
            narrow_to_slab(&mut lo, &mut hi, centre.x, forward.x, v_y, half_v);
            // Cells whose centres lie within the margin of [lo, hi].
            let first = (lo - margin) / grid.cell - 0.5;
            let last = (hi + margin) / grid.cell - 0.5;
            if !(first <= x1 as f64 && last >= x0 as f64) {
                continue;
            }
            let xs = grid::floor_clamped(first, x1).max(x0);
            let xe = grid::floor_clamped(last, x1);
            let row = y * grid.width;
            for x in xs..=xe {
                let px = (x as f64 + 0.5) * grid.cell;
                let ox = px - centre.x;
                let u = ox * right.x + u_y;
                let v = ox * forward.x + v_y;
                if px - min.x >= 0.0
                    && max.x - px >= 0.0
                    && u.abs() <= half_u
                    && v.abs() <= half_v
                    && !test(row + x)
                {
                    return false;
                }
            }
        }
        true
    }

    /// An empty set of cells for this table to which units' blocked cells
    /// may be added deferred ([`CellSet::defer`]): worked out only where a
    /// search or a leg first asks about them.
    pub(crate) fn deferred_cells(&self) -> CellSet {
        CellSet::deferred(self.grid.raster())
    }

    /// The cells every base in `bases` covers, as a set to route around.
    pub fn occupied<'a>(&self, bases: impl IntoIterator<Item = &'a Base>) -> CellSet {
        let mut set = CellSet::new(self.grid.len());
        for base in bases {
            self.for_each_cell_under(base, |cell| set.insert(cell));
        }
        set
    }

    /// The cells where a base of `mover`'s size and facing, half a cell
    /// larger on every side and centred on the cell's centre, would overlap
    /// `other` (the two bases' Minkowski sum, sampled at cell centres with
    /// room for the sampling): the cells the mover's centre must keep out
    /// of to pass `other` without touching it (seed 000: "units cannot move
    /// through other units"). They include every cell under `other`.
    pub fn for_each_cell_blocked_for(
        &self,
        mover: &Base,
        other: &Base,
        mut visit: impl FnMut(CellIndex),
    ) {
        self.for_each_span_blocked_for(mover, other, |first, len| {
            (first..first + len).for_each(&mut visit);
        });
    }

    /// [`Battlefield::for_each_cell_blocked_for`]'s cells as runs along
    /// the rows, `visit(first, len)` for cells `first .. first + len`, in
    /// the same order: the middle of each row's stretch, surely inside,
    /// is one run however long, so a set takes it a word at a time.
    pub fn for_each_span_blocked_for(
        &self,
        mover: &Base,
        other: &Base,
        visit: impl FnMut(CellIndex, usize),
    ) {
        self.grid
            .raster()
            .for_each_span_blocked_for(mover, other, visit);
    }

    /// [`Battlefield::for_each_cell_blocked_for`]'s test: a cell's centre
    /// is blocked when its projection on each axis lies strictly between
    /// the slab's two bounds.
    #[cfg(test)]
    fn blocked_slabs(&self, mover: &Base, other: &Base) -> [(Vector, f64, f64); 4] {
        self.grid.raster().blocked_slabs(mover, other)
    }

    /// The cells a unit of `mover`'s size and facing cannot put its centre
    /// on without overlapping one of `bases`
    /// ([`Battlefield::for_each_cell_blocked_for`]), as a set to route
    /// around: a route planned clear of them fits the whole base, not only
    /// its centre, so it never leads through a gap narrower than the base.
    pub fn blocked_for<'a>(
        &self,
        mover: &Base,
        bases: impl IntoIterator<Item = &'a Base>,
    ) -> CellSet {
        let mut set = CellSet::new(self.grid.len());
        for other in bases {
            self.for_each_span_blocked_for(mover, other, |first, len| {
                set.insert_span(first, len);
            });
        }
        set
    }

    /// The cells along the table edge named by `edge`.
    pub fn edge_cells(&self, edge: Edge) -> Vec<CellIndex> {
        let (w, h) = (self.grid.width, self.grid.height);
        match edge {
            Edge::South => (0..w).collect(),
            Edge::North => ((h - 1) * w..h * w).collect(),
            Edge::West => (0..h).map(|y| y * w).collect(),
            Edge::East => (0..h).map(|y| y * w + w - 1).collect(),
        }
    }
}

/// Narrow `[lo, hi]` (x in inches) towards the x where
/// `|(x - centre_x) * k + c| <= half`, never excluding an x where it holds:
/// bounds are only tightened when `k` is far enough from 0 for rounding to
/// be negligible, and the caller widens the result by a margin.
fn narrow_to_slab(lo: &mut f64, hi: &mut f64, centre_x: f64, k: f64, c: f64, half: f64) {
    if k.abs() < 1e-6 {
        return;
    }
    let a = centre_x + (-half - c) / k;
    let b = centre_x + (half - c) / k;
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    *lo = lo.max(a);
    *hi = hi.min(b);
}

/// A table edge, named by compass direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Edge {
    /// The top edge (largest y).
    North,
    /// The bottom edge (y = 0).
    South,
    /// The right edge (largest x).
    East,
    /// The left edge (x = 0).
    West,
}

impl Edge {
    /// All four, in a fixed order.
    pub const ALL: [Edge; 4] = [Edge::North, Edge::South, Edge::East, Edge::West];

    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::South => "south",
            Edge::East => "east",
            Edge::West => "west",
        }
    }

    /// The compass bearing that faces towards this edge.
    pub fn bearing(self) -> f64 {
        match self {
            Edge::North => 0.0,
            Edge::East => 90.0,
            Edge::South => 180.0,
            Edge::West => 270.0,
        }
    }

    /// The opposite edge.
    pub fn opposite(self) -> Edge {
        match self {
            Edge::North => Edge::South,
            Edge::South => Edge::North,
            Edge::East => Edge::West,
            Edge::West => Edge::East,
        }
    }
}

/// The speed of `category` in one cell and whether a road runs through it.
/// Kinds another kind in the cell `opens` are ignored; of the rest the
/// slowest decides, and a road multiplies the result by the road bonus
/// (seed 000: roads add 3" to a 6" or 12" move). `None` when impassable.
fn cell_speed(
    ruleset: &Ruleset,
    grid: &Grid,
    index: CellIndex,
    category: Category,
) -> (Option<f64>, bool) {
    let present = grid.kinds_at(ruleset, index);
    let opened: Vec<TerrainId> = present
        .iter()
        .flat_map(|k| ruleset.kind(*k).opens.iter().copied())
        .collect();
    let mut speed: Option<f64> = None;
    let mut road_speed: Option<f64> = None;
    for kind_id in present.iter().filter(|k| !opened.contains(k)) {
        let kind = ruleset.kind(*kind_id);
        match kind.movement[category.index()] {
            Movement::Impassable => return (None, kind.road),
            Movement::Speed(s) if kind.road => {
                road_speed = Some(road_speed.map_or(s, |r: f64| r.min(s)))
            }
            Movement::Speed(s) => speed = Some(speed.map_or(s, |old: f64| old.min(s))),
        }
    }
    let base =
        speed.unwrap_or_else(
            || match ruleset.kind(ruleset.open).movement[category.index()] {
                Movement::Speed(s) => s,
                Movement::Impassable => 1.0,
            },
        );
    match road_speed {
        Some(road) => {
            let allowance = ruleset.move_inches[category.index()];
            let bonus = (allowance + ruleset.road_bonus) / allowance;
            (Some(base.min(road) * bonus), true)
        }
        None => (Some(base), false),
    }
}

/// For each cell, the steepest rise of the ground between it and the (up
/// to) eight cells it touches.
fn steepest_rise(grid: &Grid) -> Vec<f32> {
    let (w, h) = (grid.width, grid.height);
    let mut steepest = vec![0.0_f32; grid.len()];
    for y in 0..h {
        for x in 0..w {
            let here = grid.ground[y * w + x];
            let mut rise = 0.0_f32;
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    rise = rise.max((grid.ground[ny * w + nx] - here).abs());
                }
            }
            steepest[y * w + x] = rise;
        }
    }
    steepest
}

/// For each cell, the tallest `sight_top` of it and its (up to) eight
/// neighbours.
fn tallest_nearby(grid: &Grid) -> Vec<f32> {
    let (w, h) = (grid.width, grid.height);
    let mut tallest = vec![f32::NEG_INFINITY; grid.len()];
    for y in 0..h {
        for x in 0..w {
            let mut top = f32::NEG_INFINITY;
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    top = top.max(grid.sight_top[ny * w + nx]);
                }
            }
            tallest[y * w + x] = top;
        }
    }
    tallest
}

/// The distances between cell centres by the cells' offset, when the
/// distance depends on nothing else: a cell's centre is `(x + 0.5) × cell`,
/// exact when the cell's size is a power of two (and the grid not absurdly
/// large), so two centres differ by exactly `offset × cell` along each axis
/// and a length (which ignores signs) gives one answer per offset. `None`
/// for other cell sizes, and for grids too large to be worth a table.
fn centre_distances(grid: &Grid) -> Option<Vec<f64>> {
    let exact = grid.cell > 0.0
        && grid.cell.is_finite()
        && grid.cell.to_bits() & ((1u64 << 52) - 1) == 0
        && grid.width.max(grid.height) < 1 << 20;
    if !exact || grid.len() > 1 << 18 {
        return None;
    }
    let mut table = Vec::with_capacity(grid.len());
    for down in 0..grid.height {
        for across in 0..grid.width {
            table.push(
                geometry::Vector::new(across as f64 * grid.cell, down as f64 * grid.cell).length(),
            );
        }
    }
    Some(table)
}

/// The tallest `sight_top` in each [`SIGHT_BLOCK`]-cell block and the two
/// cells all round it, and the number of blocks across.
fn tallest_in_blocks(grid: &Grid) -> (Vec<f32>, usize) {
    let (w, h) = (grid.width, grid.height);
    let (across, down) = (w.div_ceil(SIGHT_BLOCK), h.div_ceil(SIGHT_BLOCK));
    let mut tallest = vec![f32::NEG_INFINITY; across * down];
    for by in 0..down {
        for bx in 0..across {
            let (x0, y0) = (bx * SIGHT_BLOCK, by * SIGHT_BLOCK);
            let mut top = f32::NEG_INFINITY;
            for y in y0.saturating_sub(2)..(y0 + SIGHT_BLOCK + 2).min(h) {
                for x in x0.saturating_sub(2)..(x0 + SIGHT_BLOCK + 2).min(w) {
                    top = top.max(grid.sight_top[y * w + x]);
                }
            }
            tallest[by * across + bx] = top;
        }
    }
    (tallest, across)
}

thread_local! {
    /// [`grid::Raster::blocked_slabs`]' swollen mover last made, by the
    /// bits of its facing, frontage and depth.
    static SWOLLEN: std::cell::Cell<Option<([u64; 3], Base)>> =
        const { std::cell::Cell::new(None) };
}

impl grid::Raster {
    /// The columns and rows (south-west and north-east corners, both
    /// included) that hold every cell
    /// [`Battlefield::for_each_span_blocked_for`] may visit.
    pub(super) fn blocked_box(
        &self,
        mover: &Base,
        other: &Base,
    ) -> ((usize, usize), (usize, usize)) {
        self.blocked_box_for_reach(mover.reach(), other)
    }

    /// [`grid::Raster::blocked_box`] for every mover whose reach
    /// ([`Base::reach`]) is `reach`: the box depends on the mover through
    /// its reach alone.
    pub(super) fn blocked_box_for_reach(
        &self,
        reach: f64,
        other: &Base,
    ) -> ((usize, usize), (usize, usize)) {
        let (min, max) = other.bounds();
        let reach = reach + self.cell;
        (
            self.clamped_cell(Point::new(min.x - reach, min.y - reach)),
            self.clamped_cell(Point::new(max.x + reach, max.y + reach)),
        )
    }

    /// [`Battlefield::for_each_span_blocked_for`]: each row's stretch
    /// worked out once from the slabs, the cells surely inside taken
    /// without testing and only those whose centres lie within a hair of
    /// the stretch's ends tested as
    /// [`grid::Raster::for_each_span_blocked_for_plain`] tests them; rows
    /// that surely hold no cell (outside the slabs' extent north and
    /// south) skipped; runs of cells next to each other visited as one.
    /// The same cells in the same order as the plain walk (a test compares
    /// them); slabs with a bound that is not a finite number are left to
    /// it.
    pub(super) fn for_each_span_blocked_for(
        &self,
        mover: &Base,
        other: &Base,
        mut visit: impl FnMut(CellIndex, usize),
    ) {
        let grid = self;
        let slabs = self.blocked_slabs(mover, other);
        let finite = |v: f64| v.is_finite();
        // (A slab with `lo > hi` holds no cell; it is left to the plain
        // walk too, so that below each slab's lower bound along the row is
        // known from the sign of its axis.)
        let odd = !(finite(grid.cell) && grid.cell > 0.0 && finite(grid.table_width))
            || slabs.iter().any(|&(axis, lo, hi)| {
                !(finite(axis.x) && finite(axis.y) && finite(lo) && finite(hi) && lo <= hi)
            });
        if odd {
            return self.for_each_span_blocked_for_plain(mover, other, visit);
        }
        let ((x0, y0), (x1, y1)) = self.blocked_box(mover, other);
        let width = grid.table_width.abs() + grid.cell;
        let inverse_cell = 1.0 / grid.cell;
        let (before_x, after_x) = (x0 as f64 - 1.0, x1 as f64 + 1.0);
        // The rows that may hold a cell. Slabs 0 and 1 (the mover's
        // forward and right axes) and slabs 2 and 3 (the other's) each
        // bound a rectangle, and a centre the test passes lies in both
        // (within rounding, about 1e-13"). The axes of a pair are square
        // to each other and of unit length (but for rounding, 1e-16), so
        // a point is `along_0 * axis_0 + along_1 * axis_1` and a
        // rectangle's north-south extent is that of its bounds' products
        // with the axes' `y`. Rows whose centres lie a millionth of an
        // inch or more outside either extent hold no cell the test
        // passes; the rest are walked.
        let extent = |(a, a_lo, a_hi): (Vector, f64, f64), (b, b_lo, b_hi): (Vector, f64, f64)| {
            let (p, q) = (a_lo * a.y, a_hi * a.y);
            let (r, s) = (b_lo * b.y, b_hi * b.y);
            (p.min(q) + r.min(s), p.max(q) + r.max(s))
        };
        let (south_m, north_m) = extent(slabs[0], slabs[1]);
        let (south_o, north_o) = extent(slabs[2], slabs[3]);
        let (south, north) = (south_m.max(south_o), north_m.min(north_o));
        let first_row = ceil((south - 1e-6) * inverse_cell - 0.5).max(y0 as f64);
        let last_row = floor((north + 1e-6) * inverse_cell - 0.5).min(y1 as f64);
        // (Neither is NaN: finite bounds, and `max` and `min` pass over a
        // NaN anyway.)
        if first_row > last_row {
            return;
        }
        // Within `y0..=y1`, whole numbers.
        let (y0, y1) = (first_row as i64 as usize, last_row as i64 as usize);
        // The slabs across the row (their axis not square to it), as
        // `(lo, hi, 1 / axis.x, axis.y)` with `lo` and `hi` swapped where
        // `axis.x` is negative (so that `lo`'s end of the stretch is its
        // lower one), and those along it. The four places are always
        // worked through (the compiler unrolls them): a slab along the row
        // has `(-inf, inf, 1, 0)` there, whose stretch is the whole row.
        let mut across_row = [(f64::NEG_INFINITY, f64::INFINITY, 1.0, 0.0); 4];
        let mut along_row = [(0.0, 0.0, 0.0); 4];
        let mut n_along = 0;
        // Whether any cells are surely inside: not where a slab's axis is
        // nearly square to the row (its bounds along the row are then far
        // from the cells, and rounding in them large).
        let mut sure_at_all = true;
        for (at, &(axis, lo, hi)) in slabs.iter().enumerate() {
            if axis.x.abs() > 1e-9 {
                let inverse_x = 1.0 / axis.x;
                across_row[at] = if inverse_x > 0.0 {
                    (lo, hi, inverse_x, axis.y)
                } else {
                    (hi, lo, inverse_x, axis.y)
                };
                if axis.x.abs() <= 1e-3 {
                    sure_at_all = false;
                }
            } else {
                along_row[n_along] = (lo, hi, axis.y);
                n_along += 1;
            }
        }
        let along_row = &along_row[..n_along];
        // How far outside the stretch a centre may lie and still be
        // tested, in inches. Where every slab across the row is far from
        // square to it (`|axis.x| > 1e-3`), a centre `2.5e-7"` outside a
        // slab's stretch of the row is `2.5e-10` or more outside the
        // slab's bounds, against rounding of about 1e-13 in the test's dot
        // product (a scenario's table is at most 480" a side, so the
        // coordinates are a few hundred inches at most) and a few 1e-12"
        // in the stretch's ends (whose error in the slab's bounds divided
        // by `axis.x` is at most 1e-3 times smaller than the margin); the
        // test would fail. (Less than
        // `geometry::EPSILON`, by which a base touching the other but not
        // overlapping it lies outside: those centres are not tested.)
        // Otherwise a cell, far more than rounding can move the ends.
        let outside = if sure_at_all { 2.5e-7 } else { grid.cell };
        // The run of cells found but not yet visited.
        let (mut run_first, mut run_len) = (0, 0);
        for y in y0..=y1 {
            // `grid.centre_of_xy(x0, y).y`, through `i64` (a quicker
            // conversion, and exact: `y` is far below 2^53).
            let centre_y = (y as i64 as f64 + 0.5) * grid.cell;
            // The stretch of the row inside every slab across it, in inches:
            // `(lo - across) / axis.x` and `(hi - across) / axis.x`, in
            // order, as the plain walk works them out but for rounding (a
            // few 1e-13", against the margins below). In order without
            // comparing them: with `lo <= hi`, subtracting `across` and
            // multiplying by a number of one sign keeps or reverses their
            // order (rounding is monotonic), and equal ends are the same
            // number but for the sign of a zero, which nothing below tells
            // apart. No end is NaN (finite numbers, or infinities less a
            // zero, times a number not zero), so a plain comparison takes
            // the larger and the smaller.
            let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
            for &(low, high, inverse_x, axis_y) in &across_row {
                let across = centre_y * axis_y;
                let (a, b) = ((low - across) * inverse_x, (high - across) * inverse_x);
                lower = if a > lower { a } else { lower };
                upper = if b < upper { b } else { upper };
            }
            let mut sure_here = sure_at_all;
            let mut empty = false;
            for &(lo, hi, axis_y) in along_row {
                let across = centre_y * axis_y;
                if across <= lo - 1e-5 || across >= hi + 1e-5 {
                    empty = true;
                } else if !(across - 1e-6 - width * 1e-9 > lo && across + 1e-6 + width * 1e-9 < hi)
                {
                    sure_here = false;
                }
            }
            if empty {
                continue;
            }
            // Cells whose centres lie `outside` or more outside the
            // stretch fail the test; those a millionth of an inch inside
            // pass it. Their numbers along the row are held to a cell
            // beyond `x0..=x1` first, whole numbers (so the same whether
            // held before rounding or after), where rounding to whole
            // numbers is quick and exact.
            let hold = |v: f64| {
                if v > before_x {
                    if v < after_x { v } else { after_x }
                } else {
                    before_x
                }
            };
            let from = ceil_to_int(hold((lower - outside) * inverse_cell - 0.5)).max(x0 as i64);
            let to = floor_to_int(hold((upper + outside) * inverse_cell - 0.5)).min(x1 as i64);
            if from > to {
                continue;
            }
            // The cells surely inside, `sure_from..=sure_to` (or none),
            // held to `from..=to`.
            let (sure_from, sure_to) = if sure_here {
                (
                    ceil_to_int(hold((lower + 1e-6) * inverse_cell - 0.5)).max(from),
                    floor_to_int(hold((upper - 1e-6) * inverse_cell - 0.5)).min(to),
                )
            } else {
                (1, 0)
            };
            // `from` and `to` lie within `x0..=x1`.
            let (from, to) = (from as usize, to as usize);
            let row = y * grid.width;
            let mut take = |first: CellIndex, len: usize| {
                if run_len > 0 && run_first + run_len == first {
                    run_len += len;
                } else {
                    if run_len > 0 {
                        visit(run_first, run_len);
                    }
                    (run_first, run_len) = (first, len);
                }
            };
            // The plain walk's test of cell `x` of the row.
            let inside = |x: usize| {
                let centre = grid.centre_of_xy(x, y);
                slabs.iter().all(|&(axis, lo, hi)| {
                    let along = Vector::new(centre.x, centre.y).dot(axis);
                    lo < along && along < hi
                })
            };
            // The cells left to test: all of `from..=to`, or those either
            // side of the cells surely inside (`from <= sure_from <=
            // sure_to <= to` then).
            let (tested, after) = if sure_from <= sure_to {
                let (sure_from, sure_to) = (sure_from as usize, sure_to as usize);
                (from..sure_from, Some((sure_from, sure_to)))
            } else {
                (from..to + 1, None)
            };
            for x in tested {
                if inside(x) {
                    take(row + x, 1);
                }
            }
            if let Some((sure_from, sure_to)) = after {
                take(row + sure_from, sure_to - sure_from + 1);
                for x in sure_to + 1..to + 1 {
                    if inside(x) {
                        take(row + x, 1);
                    }
                }
            }
        }
        if run_len > 0 {
            visit(run_first, run_len);
        }
    }

    /// [`Battlefield::for_each_span_blocked_for`], each slab's stretch of
    /// each row worked out on its own: the walk the quick one is checked
    /// against, and the one that takes slabs with bounds that are not
    /// finite numbers.
    pub(super) fn for_each_span_blocked_for_plain(
        &self,
        mover: &Base,
        other: &Base,
        mut visit: impl FnMut(CellIndex, usize),
    ) {
        let grid = self;
        let slabs = self.blocked_slabs(mover, other);
        let ((x0, y0), (x1, y1)) = self.blocked_box(mover, other);
        for y in y0..=y1 {
            // Only the cells of the row whose centres the slabs may hold
            // are tested: each slab's stretch of the row, solved for x and
            // widened by a cell each way (far more than rounding can move
            // it), so every cell left out fails the test.
            let centre_y = grid.centre_of_xy(x0, y).y;
            let (mut from, mut to) = (x0 as f64, x1 as f64);
            // The cells surely inside every slab, far enough inside (a
            // millionth of an inch, against rounding of about 1e-13") that
            // the test would pass: taken without testing.
            let (mut sure_from, mut sure_to) = (from, to);
            let width = grid.table_width.abs() + grid.cell;
            for &(axis, lo, hi) in &slabs {
                let across = centre_y * axis.y;
                if axis.x.abs() > 1e-9 {
                    let (a, b) = ((lo - across) / axis.x, (hi - across) / axis.x);
                    let (a, b) = if a <= b { (a, b) } else { (b, a) };
                    from = from.max(ceil(a / grid.cell - 1.5));
                    to = to.min(floor(b / grid.cell + 0.5));
                    if axis.x.abs() > 1e-3 && a.is_finite() && b.is_finite() {
                        sure_from = sure_from.max(ceil((a + 1e-6) / grid.cell - 0.5));
                        sure_to = sure_to.min(floor((b - 1e-6) / grid.cell - 0.5));
                    } else {
                        sure_to = sure_from - 1.0;
                    }
                } else if across <= lo - 1e-5 || across >= hi + 1e-5 {
                    // Across the row the slab's measure moves by less than
                    // the table's width times 1e-9: no cell of it is inside.
                    to = from - 1.0;
                } else if !(across - 1e-6 - width * 1e-9 > lo && across + 1e-6 + width * 1e-9 < hi)
                {
                    sure_to = sure_from - 1.0;
                }
            }
            // (Neither is NaN: `max` and `min` pass over a NaN bound.)
            if from > to {
                continue;
            }
            // `from` and `to` lie within `x0..=x1`, whole numbers.
            let (from, to) = (from as usize, to as usize);
            let sure = |x: usize| sure_from <= x as f64 && x as f64 <= sure_to;
            let mut x = from;
            while x <= to {
                if sure(x) {
                    // `sure_to` is a whole number below `to + 1` here.
                    let last = (sure_to as usize).min(to);
                    visit(y * grid.width + x, last - x + 1);
                    x = last + 1;
                    continue;
                }
                let cell = y * grid.width + x;
                let centre = grid.centre(cell);
                let inside = slabs.iter().all(|&(axis, lo, hi)| {
                    let along = Vector::new(centre.x, centre.y).dot(axis);
                    lo < along && along < hi
                });
                if inside {
                    visit(cell, 1);
                }
                x += 1;
            }
        }
    }

    /// [`Battlefield::for_each_cell_blocked_for`]'s test: a cell's centre
    /// is blocked when its projection on each axis lies strictly between
    /// the slab's two bounds.
    pub(super) fn blocked_slabs(&self, mover: &Base, other: &Base) -> [(Vector, f64, f64); 4] {
        let grid = self;
        // Half a cell more on every side: a route's straight legs run
        // between cell centres, and a centre anywhere within half a cell of
        // a free cell's centre (along the base's sides) still clears.
        let (frontage, depth) = (mover.frontage + grid.cell, mover.depth + grid.cell);
        // The swollen base depends only on the mover's facing and size and
        // the cell: the last one made is kept (a set's units are worked out
        // for one mover after another), sparing its sine and cosine.
        let key = [mover.facing.to_bits(), frontage.to_bits(), depth.to_bits()];
        let swollen = SWOLLEN.with(|kept| match kept.get() {
            Some((was, base)) if was == key => base,
            _ => {
                let base = Base::new(Point::new(0.0, 0.0), mover.facing, frontage, depth);
                kept.set(Some((key, base)));
                base
            }
        });
        // [`Base::overlaps`] on the four axes of the two bases, solved for
        // the mover's centre: on each axis its projection must fall
        // strictly inside (lo, hi). Four dot products a cell instead of
        // building and projecting both bases.
        let project = |corners: &[Point; 4], axis: Vector| {
            corners
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
                    let along = Vector::new(c.x, c.y).dot(axis);
                    (lo.min(along), hi.max(along))
                })
        };
        let axes = [
            swollen.forward(),
            swollen.right(),
            other.forward(),
            other.right(),
        ];
        let (ours, theirs) = (swollen.corners(), other.corners());
        axes.map(|axis| {
            let (min_m, max_m) = project(&ours, axis);
            let (min_o, max_o) = project(&theirs, axis);
            (
                axis,
                min_o - max_m + geometry::EPSILON,
                max_o - min_m - geometry::EPSILON,
            )
        })
    }
}

/// The length of a pathing-graph edge to a side neighbour.
fn straight_step(grid: &Grid) -> f32 {
    grid.cell as f32
}

/// The length of a pathing-graph edge to a corner neighbour.
fn diagonal_step(grid: &Grid) -> f32 {
    (grid.cell * std::f64::consts::SQRT_2) as f32
}

fn build_graph(grid: &Grid) -> CellGraph {
    let (w, h) = (grid.width as i64, grid.height as i64);
    let diagonal = diagonal_step(grid);
    let straight = straight_step(grid);
    let mut edges: Vec<(u32, u32, f32)> = Vec::with_capacity(grid.len() * 8);
    for y in 0..h {
        for x in 0..w {
            let from = (y * w + x) as u32;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    if (dx, dy) == (0, 0) || nx < 0 || ny < 0 || nx >= w || ny >= h {
                        continue;
                    }
                    let length = if dx != 0 && dy != 0 {
                        diagonal
                    } else {
                        straight
                    };
                    edges.push((from, (ny * w + nx) as u32, length));
                }
            }
        }
    }
    // Row-major generation with neighbours in (dy, dx) order is already sorted.
    match Csr::from_sorted_edges(&edges) {
        Ok(graph) if graph.node_count() == grid.len() => graph,
        _ => Csr::with_nodes(grid.len()),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn rules() -> Ruleset {
        Ruleset::builtin("ohw-awi").unwrap().unwrap()
    }

    pub(crate) fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    /// A table built from `(kind, shape)` pairs.
    /// The Guilford Courthouse table, as the scenario builds it.
    pub(crate) fn guilford() -> Battlefield {
        let (file, text) = crate::scenario::builtin("guilford").unwrap();
        crate::scenario::load(
            crate::yaml::Source::new(file, text),
            crate::ruleset::Ruleset::builtin,
        )
        .unwrap()
        .battlefield
        .as_ref()
        .clone()
    }

    pub(crate) fn table(width: f64, height: f64, features: &[(&str, Shape, f64)]) -> Battlefield {
        let rules = rules();
        let features = features
            .iter()
            .map(|(kind, shape, height)| Feature {
                kind: rules.terrain_kind(kind).unwrap_or_else(|| panic!("{kind}")),
                shape: shape.clone(),
                height: *height,
                name: None,
            })
            .collect();
        Battlefield::new(rules, width, height, DEFAULT_CELL, features)
    }

    /// Centre distances from the table are the measured ones, bit for bit,
    /// on grids of cells whose size is a power of two; other sizes have no
    /// table and measure.
    #[test]
    fn centre_distances_are_the_measured_ones() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        for (cell, tabled) in [(0.5, true), (0.25, true), (1.0, true), (0.3, false)] {
            let field = Battlefield::new(rules(), 36.0, 24.0, cell, Vec::new());
            assert_eq!(field.centre_distances.is_some(), tabled, "cell {cell}");
            for _ in 0..20_000 {
                let a = rng.random_range(0..field.grid.len());
                let b = rng.random_range(0..field.grid.len());
                let measured = field.grid.centre(a).distance(field.grid.centre(b));
                assert_eq!(field.centre_distance(a, b).to_bits(), measured.to_bits());
            }
        }
    }

    /// Seed 000's movement effects, every troop type against every terrain
    /// kind: the multiplier on the cost of an inch (2 = half movement),
    /// `None` for impassable.
    #[test]
    fn movement_cost_for_every_troop_type_on_every_terrain() {
        const HALF: Option<f64> = Some(2.0);
        const FULL: Option<f64> = Some(1.0);
        const NO: Option<f64> = None;
        // Road: 6" becomes 9" (foot, guns), 12" becomes 15" (horse, generals).
        const ROAD_FOOT: Option<f64> = Some(6.0 / 9.0);
        const ROAD_HORSE: Option<f64> = Some(12.0 / 15.0);
        let kinds = [
            "open", "woods", "town", "hill", "marsh", "lake", "river", "ford", "bridge", "road",
            "fence", "wall",
        ];
        // Columns in the order of `kinds`.
        let expected: [(&str, [Option<f64>; 12]); 11] = [
            (
                "grenadiers",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "british-regulars",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "british-light-infantry",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "continentals",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "militia",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "provincials",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "light-infantry",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "riflemen",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "cavalry",
                [
                    FULL, NO, NO, FULL, NO, NO, NO, HALF, HALF, ROAD_HORSE, FULL, FULL,
                ],
            ),
            (
                "artillery",
                [
                    FULL, NO, NO, FULL, NO, NO, NO, HALF, HALF, ROAD_FOOT, FULL, FULL,
                ],
            ),
            (
                "general",
                [
                    FULL, HALF, HALF, FULL, NO, NO, NO, HALF, HALF, ROAD_HORSE, FULL, FULL,
                ],
            ),
        ];
        let rules = rules();
        assert_eq!(
            rules.troop_types.len(),
            expected.len(),
            "a troop type is missing from the table"
        );
        assert_eq!(
            rules.terrain.len(),
            kinds.len(),
            "a terrain kind is missing from the table"
        );
        for (kind_index, kind) in kinds.iter().enumerate() {
            // A lone feature covering a whole 4"×4" table; a ford or bridge
            // sits on a river, as it always does on a real table.
            let whole = Shape::Rect {
                min: p(0.0, 0.0),
                max: p(4.0, 4.0),
            };
            let mut features = vec![(*kind, whole.clone(), 0.0)];
            if *kind == "ford" || *kind == "bridge" {
                features.push(("river", whole.clone(), 0.0));
            }
            let field = table(4.0, 4.0, &features);
            for (troop_name, row) in &expected {
                let troop = field.ruleset.troop_type(troop_name).unwrap();
                let got = field.cost_multiplier(troop, 0);
                let want = row[kind_index];
                let same = match (got, want) {
                    (Some(a), Some(b)) => (a - b).abs() < 1e-6,
                    (None, None) => true,
                    _ => false,
                };
                assert!(same, "{troop_name} on {kind}: got {got:?}, want {want:?}");
            }
        }
    }

    #[test]
    fn roads_open_woods_and_towns_to_guns_and_horse() {
        let field = table(
            10.0,
            10.0,
            &[
                (
                    "woods",
                    Shape::Rect {
                        min: p(0.0, 0.0),
                        max: p(10.0, 10.0),
                    },
                    0.0,
                ),
                (
                    "road",
                    Shape::Line {
                        points: vec![p(5.0, 0.0), p(5.0, 10.0)],
                        width: 1.0,
                    },
                    0.0,
                ),
            ],
        );
        let gun = field.ruleset.troop_type("artillery").unwrap();
        assert!(field.passable(gun, field.grid.cell_at(p(5.2, 5.0)).unwrap()));
        assert!(!field.passable(gun, field.grid.cell_at(p(2.0, 5.0)).unwrap()));
    }

    /// Every cell's ground is the kinds there that no other kind there
    /// opens, worked out afresh from the cell's kinds: a road through woods
    /// and a town, a ford across a river, and where they all cross.
    #[test]
    fn the_ground_is_the_kinds_no_other_kind_there_opens() {
        let rect = |x0, y0, x1, y1| Shape::Rect {
            min: p(x0, y0),
            max: p(x1, y1),
        };
        let line = |x0, y0, x1, y1| Shape::Line {
            points: vec![p(x0, y0), p(x1, y1)],
            width: 1.0,
        };
        let field = table(
            20.0,
            12.0,
            &[
                ("woods", rect(0.0, 0.0, 8.0, 12.0), 0.0),
                ("town", rect(12.0, 0.0, 20.0, 6.0), 0.0),
                ("river", line(0.0, 8.0, 20.0, 8.0), 0.0),
                ("ford", rect(9.0, 7.0, 11.0, 9.0), 0.0),
                ("road", line(10.0, 0.0, 10.0, 12.0), 0.0),
                ("road", line(0.0, 3.0, 20.0, 3.0), 0.0),
            ],
        );
        let ruleset = &field.ruleset;
        let mut kinds_seen = std::collections::BTreeSet::new();
        for cell in 0..field.grid.len() {
            let here = field.grid.kinds_at(ruleset, cell);
            let ground: Vec<TerrainId> = here
                .iter()
                .copied()
                .filter(|kind| {
                    !here
                        .iter()
                        .any(|other| other != kind && ruleset.kind(*other).opens.contains(kind))
                })
                .collect();
            let centre = field.grid.centre(cell);
            let mask = field.ground_mask_at(centre);
            assert_eq!(field.ground_mask_of(cell), mask, "cell {cell}");
            assert_eq!(
                grid::kinds_of(mask).collect::<Vec<_>>(),
                ground,
                "{centre:?}"
            );
            kinds_seen.insert(here.len());
        }
        // Cells of one kind, of two and of three were all asked about.
        assert!(
            kinds_seen.contains(&1) && kinds_seen.contains(&3),
            "{kinds_seen:?}"
        );
        assert_eq!(field.ground_mask_at(p(-1.0, 5.0)), 0, "off the table");
        assert_eq!(field.ground_mask_of(field.grid.len()), 0, "no such cell");
    }

    #[test]
    fn bases_on_the_table_and_the_cells_under_them() {
        let field = table(10.0, 10.0, &[]);
        let inside = Base::new(p(5.0, 5.0), 0.0, 4.0, 1.0);
        assert!(field.base_on_table(&inside));
        assert_eq!(field.cells_under(&inside).len(), 8 * 2);
        let hanging = Base::new(p(1.0, 5.0), 0.0, 4.0, 1.0);
        assert!(!field.base_on_table(&hanging));
        assert_eq!(field.edge_cells(Edge::North).len(), 20);
        assert_eq!(field.edge_cells(Edge::East)[1], 39);
    }

    /// `for_each_cell_under` before it narrowed each row: every cell of the
    /// bounding box, tested one by one.
    fn cells_under_by_every_cell(field: &Battlefield, base: &Base) -> Vec<CellIndex> {
        let (min, max) = base.bounds();
        let mut cells = Vec::new();
        field
            .grid
            .for_each_cell_in(&Shape::Rect { min, max }, |cell| {
                if base.contains(field.grid.centre(cell)) {
                    cells.push(cell);
                }
            });
        cells
    }

    /// Facings, sizes and positions that put base edges exactly on cell
    /// centres and edges as well as anywhere: `pick` chooses which.
    fn awkward_base(pick: u8, x: f64, y: f64, facing: f64, frontage: f64, depth: f64) -> Base {
        let snap = |v: f64| (v * 4.0).round() / 4.0;
        match pick % 4 {
            0 => Base::new(p(x, y), facing, frontage, depth),
            1 => Base::new(
                p(snap(x), snap(y)),
                (facing / 45.0).round() * 45.0,
                snap(frontage),
                snap(depth),
            ),
            2 => Base::new(
                p(snap(x), snap(y)),
                (facing / 90.0).round() * 90.0 + 1e-9,
                snap(frontage),
                snap(depth),
            ),
            _ => Base::new(p(x, y), (facing / 30.0).round() * 30.0, 4.0, 1.0),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// The narrowed rows find exactly the cells, in the same order.
        #[test]
        fn cells_under_match_testing_every_cell_of_the_bounds(
            pick in 0u8..4,
            x in -4.0f64..30.0,
            y in -4.0f64..30.0,
            facing in 0.0f64..360.0,
            frontage in 0.0f64..9.0,
            depth in 0.0f64..4.0,
            odd_cells in proptest::bool::ANY,
        ) {
            let base = awkward_base(pick, x, y, facing, frontage, depth);
            // Two bare tables, built once for every case.
            static FIELDS: OnceLock<[Battlefield; 2]> = OnceLock::new();
            let fields = FIELDS.get_or_init(|| {
                [
                    table(26.0, 26.0, &[]),
                    Battlefield::new(rules(), 26.0, 21.0, 0.7, Vec::new()),
                ]
            });
            let field = &fields[usize::from(odd_cells)];
            let cells = field.cells_under(&base);
            proptest::prop_assert_eq!(&cells, &cells_under_by_every_cell(field, &base));
            // `all_cells_under` asks in the same order and stops at the
            // first cell that fails.
            proptest::prop_assert!(field.all_cells_under(&base, |_| true));
            if let Some(&middle) = cells.get(cells.len() / 2) {
                let mut asked = Vec::new();
                let all = field.all_cells_under(&base, |cell| {
                    asked.push(cell);
                    cell != middle
                });
                proptest::prop_assert!(!all);
                proptest::prop_assert_eq!(&asked[..], &cells[..=cells.len() / 2]);
            }
        }

        /// Whether a base's cells are all passable is what asking each
        /// cell says, inside a square of passable cells or not: on
        /// Guilford's table (woods, a creek, fields) for foot, horse and
        /// guns.
        #[test]
        fn passable_under_is_every_cell_under_passable(
            pick in 0u8..4,
            x in -4.0f64..76.0,
            y in -4.0f64..52.0,
            facing in 0.0f64..360.0,
            frontage in 0.0f64..9.0,
            depth in 0.0f64..4.0,
            troop_pick in 0usize..3,
        ) {
            static FIELD: OnceLock<Battlefield> = OnceLock::new();
            let field = FIELD.get_or_init(guilford);
            let base = awkward_base(pick, x, y, facing, frontage, depth);
            let troop = field
                .ruleset
                .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                .unwrap();
            let mut every = true;
            field.for_each_cell_under(&base, |cell| every = every && field.passable(troop, cell));
            proptest::prop_assert_eq!(field.passable_under(troop, &base), every);
        }

        /// The bit set answers like a plain list of flags.
        #[test]
        fn cell_sets_hold_what_was_inserted(
            n_cells in 0usize..300,
            inserted in proptest::collection::vec(0usize..320, 0..40),
        ) {
            let mut set = CellSet::new(n_cells);
            let mut flags = vec![false; n_cells];
            for &cell in &inserted {
                set.insert(cell);
                if let Some(flag) = flags.get_mut(cell) {
                    *flag = true;
                }
            }
            for cell in 0..330 {
                proptest::prop_assert_eq!(set.contains(cell), flags.get(cell).copied().unwrap_or(false));
                proptest::prop_assert!(!CellSet::none().contains(cell));
            }
        }
    }

    #[test]
    fn cells_under_odd_bases_match_testing_every_cell() {
        let field = table(26.0, 26.0, &[]);
        let odd = [
            Base::new(p(f64::NAN, 5.0), 0.0, 4.0, 1.0),
            Base::new(p(5.0, 5.0), f64::NAN, 4.0, 1.0),
            Base::new(p(5.0, 5.0), 0.0, -4.0, 1.0),
            Base::new(p(5.0, 5.0), 0.0, 0.0, 0.0),
            Base::new(p(5.25, 5.25), 0.0, 0.5, 0.5),
            Base::new(p(-1.0, -1.0), 45.0, 4.0, 4.0),
            Base::new(p(25.9, 25.9), 45.0, 4.0, 4.0),
            Base::new(p(13.0, 13.0), 10.0, 60.0, 60.0),
            Base::new(p(1e6, 5.0), 0.0, 4.0, 1.0),
        ];
        for base in odd {
            assert_eq!(
                field.cells_under(&base),
                cells_under_by_every_cell(&field, &base),
                "{base:?}"
            );
        }
    }

    /// The cells a unit blocks for a mover are exactly those where the
    /// mover's base, half a cell larger each side and centred on the cell,
    /// overlaps it ([`Base::overlaps`]), and a base narrower than a gap
    /// finds its middle free where a wider one does not.
    #[test]
    fn blocked_cells_are_where_the_swollen_mover_overlaps() {
        use rand::{RngExt, SeedableRng};
        let field = table(24.0, 24.0, &[]);
        let cell = field.grid.cell;
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(15);
        for _ in 0..40 {
            let mut base = || {
                Base::new(
                    p(rng.random_range(4.0..20.0), rng.random_range(4.0..20.0)),
                    rng.random_range(0.0..360.0),
                    rng.random_range(1.0..4.0),
                    rng.random_range(1.0..2.0),
                )
            };
            let (mover, other) = (base(), base());
            let blocked = field.blocked_for(&mover, [&other]);
            for index in 0..field.grid.len() {
                let swollen = Base::new(
                    field.grid.centre(index),
                    mover.facing,
                    mover.frontage + cell,
                    mover.depth + cell,
                );
                assert_eq!(
                    blocked.contains(index),
                    swollen.overlaps(&other),
                    "cell {index}"
                );
            }
        }
        // Two bases 3" apart: the gap's middle is free for a 2" base and
        // blocked for a 4" one.
        let left = Base::new(p(8.0, 12.0), 0.0, 4.0, 1.5);
        let right = Base::new(p(15.0, 12.0), 0.0, 4.0, 1.5);
        let middle = field.grid.cell_at(p(11.5, 12.0)).unwrap();
        let narrow = Base::new(p(11.5, 6.0), 0.0, 2.0, 1.5);
        let wide = Base::new(p(11.5, 6.0), 0.0, 4.0, 1.5);
        assert!(!field.blocked_for(&narrow, [&left, &right]).contains(middle));
        assert!(field.blocked_for(&wide, [&left, &right]).contains(middle));
    }

    /// Testing only each row's stretch finds exactly the cells testing the
    /// whole box round the base finds, for bases at any angle (square to
    /// the table too) and near the edges.
    #[test]
    fn blocked_cells_match_testing_the_whole_box() {
        use rand::{RngExt, SeedableRng};
        let field = table(24.0, 24.0, &[]);
        let grid = &field.grid;
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        for round in 0..3000 {
            let base = |rng: &mut rand::rngs::ChaCha8Rng| {
                let facing = match round % 3 {
                    0 => f64::from(rng.random_range(0..8u8)) * 45.0,
                    _ => rng.random_range(0.0..360.0),
                };
                Base::new(
                    p(rng.random_range(-2.0..26.0), rng.random_range(-2.0..26.0)),
                    facing,
                    rng.random_range(0.5..6.0),
                    rng.random_range(0.5..3.0),
                )
            };
            let odd = [
                Base::new(p(f64::NAN, 5.0), 0.0, 4.0, 1.0),
                Base::new(p(5.0, 5.0), f64::NAN, 4.0, 1.0),
                Base::new(p(5.0, 5.0), 90.0, 0.0, 0.0),
                Base::new(p(13.0, 13.0), 10.0, 60.0, 60.0),
                Base::new(p(1e6, 5.0), 0.0, 4.0, 1.0),
            ];
            let (mover, other) = match round {
                0..5 => (odd[round], base(&mut rng)),
                5..10 => (base(&mut rng), odd[round - 5]),
                _ => (base(&mut rng), base(&mut rng)),
            };
            let mut ours = Vec::new();
            field.for_each_cell_blocked_for(&mover, &other, |cell| ours.push(cell));
            let slabs = field.blocked_slabs(&mover, &other);
            let (min, max) = other.bounds();
            let reach = mover.reach() + grid.cell;
            let (x0, y0) = grid.clamped_cell(p(min.x - reach, min.y - reach));
            let (x1, y1) = grid.clamped_cell(p(max.x + reach, max.y + reach));
            let mut every = Vec::new();
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let cell = y * grid.width + x;
                    let centre = grid.centre(cell);
                    if slabs.iter().all(|&(axis, lo, hi)| {
                        let along = Vector::new(centre.x, centre.y).dot(axis);
                        lo < along && along < hi
                    }) {
                        every.push(cell);
                    }
                }
            }
            assert_eq!(ours, every, "{mover:?} {other:?}");
        }
    }

    /// The quick walk of the blocked cells visits exactly the cells the
    /// plain walk visits, in the same order, for bases at any angle
    /// (square to the table, nearly square, and anything), of any size, near
    /// the edges and off the table, on tables of several cell sizes.
    #[test]
    fn quick_blocked_cells_are_the_plain_walks() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1818);
        for field in [table(24.0, 24.0, &[]), table(40.5, 20.0, &[]), guilford()] {
            let raster = field.grid.raster();
            let (w, h) = (raster.table_width, field.grid.height as f64 * raster.cell);
            for round in 0..6000 {
                let base = |rng: &mut rand::rngs::ChaCha8Rng| {
                    let facing = match round % 5 {
                        0 => f64::from(rng.random_range(0..8u8)) * 45.0,
                        1 => {
                            f64::from(rng.random_range(0..4u8)) * 90.0
                                + [1e-12, -1e-9, 1e-7, -1e-5, 0.05][rng.random_range(0..5)]
                        }
                        _ => rng.random_range(0.0..360.0),
                    };
                    Base::new(
                        p(
                            rng.random_range(-3.0..w + 3.0),
                            rng.random_range(-3.0..h + 3.0),
                        ),
                        facing,
                        rng.random_range(0.25..8.0),
                        rng.random_range(0.25..3.0),
                    )
                };
                let (mover, other) = (base(&mut rng), base(&mut rng));
                let (quick, plain) = quick_and_plain_blocked_cells(&raster, &mover, &other);
                assert_eq!(quick, plain, "{mover:?} {other:?}");
            }
        }
    }

    /// The cells `mover` may not put its centre on for `other`, in the
    /// order visited, by the quick walk and by the plain walk.
    fn quick_and_plain_blocked_cells(
        raster: &grid::Raster,
        mover: &Base,
        other: &Base,
    ) -> (Vec<CellIndex>, Vec<CellIndex>) {
        let (mut quick, mut plain) = (Vec::new(), Vec::new());
        raster
            .for_each_span_blocked_for(mover, other, |first, len| quick.extend(first..first + len));
        raster.for_each_span_blocked_for_plain(mover, other, |first, len| {
            plain.extend(first..first + len)
        });
        (quick, plain)
    }

    /// The quick walk of the blocked cells visits exactly the cells the
    /// plain walk visits, in the same order, for bases on a lattice of
    /// quarter inches (centres, sizes) facing the table's sides and
    /// diagonals: the bases whose swollen sums have edges a hair
    /// (`geometry::EPSILON`) from rows and columns of cell centres, where
    /// the quick walk's margins are tightest; on tables of cells of
    /// several sizes.
    #[test]
    fn quick_blocked_cells_are_the_plain_walks_on_a_lattice() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1819);
        for cell in [0.5, 0.25, 1.0, 0.3, 0.75] {
            let field = Battlefield::new(rules(), 30.0, 20.0, cell, Vec::new());
            let raster = field.grid.raster();
            let mut found = 0;
            for round in 0..6000 {
                let base = |rng: &mut rand::rngs::ChaCha8Rng| {
                    let facing = match round % 4 {
                        0 => f64::from(rng.random_range(0..4u8)) * 90.0,
                        1 => f64::from(rng.random_range(0..8u8)) * 45.0,
                        2 => f64::from(rng.random_range(0..24u8)) * 15.0,
                        _ => rng.random_range(0.0..360.0),
                    };
                    let quarter = |rng: &mut rand::rngs::ChaCha8Rng, lo: i32, hi: i32| {
                        f64::from(rng.random_range(lo..=hi)) * 0.25
                    };
                    Base::new(
                        p(quarter(rng, -8, 128), quarter(rng, -8, 88)),
                        facing,
                        quarter(rng, 1, 32),
                        quarter(rng, 1, 12),
                    )
                };
                let (mover, other) = (base(&mut rng), base(&mut rng));
                let (quick, plain) = quick_and_plain_blocked_cells(&raster, &mover, &other);
                assert_eq!(quick, plain, "{cell} {mover:?} {other:?}");
                found += plain.len();
            }
            // Not a test of nothing: most pairs block cells.
            assert!(found > 6000 * 10, "{cell} {found}");
        }
    }

    /// The floor and ceiling as whole numbers are the library's, for
    /// numbers either side of whole numbers and halves, and any between.
    #[test]
    fn floor_and_ceil_to_int_are_the_library_ones() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(31);
        let mut values = vec![0.0, -0.0, 1e-300, -1e-300, 2f64.powi(50), -(2f64.powi(50))];
        for whole in -300..=300 {
            let v = f64::from(whole) * 0.5;
            values.extend([v, v.next_up(), v.next_down(), v + 1e-9, v - 1e-9]);
        }
        for _ in 0..100_000 {
            values.push(rng.random_range(-1e6..1e6));
            values.push(rng.random_range(-2.0..2.0));
        }
        for v in values {
            assert_eq!(floor_to_int(v), v.floor() as i64, "{v}");
            assert_eq!(ceil_to_int(v), v.ceil() as i64, "{v}");
        }
    }

    /// The quick floor and ceiling are the library's.
    #[test]
    fn quick_floor_and_ceil_are_the_library_ones() {
        let cases = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            1.5,
            -1.5,
            2.999,
            -2.999,
            1e15,
            -1e15,
            4.5e18,
            -4.5e18,
            1e19,
            -1e19,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e-300,
            -1e-300,
        ];
        for v in cases {
            assert_eq!(floor(v), v.floor(), "{v}");
            assert_eq!(ceil(v), v.ceil(), "{v}");
        }
        assert!(floor(f64::NAN).is_nan() && ceil(f64::NAN).is_nan());
    }
}
