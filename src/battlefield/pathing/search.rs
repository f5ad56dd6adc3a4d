//! The A* search over the cell graph: the price of a step (its length ×
//! the mean of the two cells' terrain multipliers, doubled uphill, in
//! whole units), the route chosen among those of one cost by the costs
//! alone ([`canonical_walk`]), the working arrays kept per thread (with
//! each category's step prices from every cell and its cells' costs from
//! the guides, for the estimate, worked out once per table), a cell's
//! eight edges walked from the grid rather than the graph's lists, a goal
//! shut in among units found unreachable by a small flood from it first,
//! and open-ground paths remembered per thread (answers that cannot differ
//! from searching again).

use super::cells::{BUCKET, CellSet};
use super::guides::{GUIDES, signed, signed_lower_bound};
use super::queue::CostQueue;
use crate::battlefield::geometry::Point;
use crate::battlefield::{Battlefield, CellIndex};
use crate::ruleset::TroopTypeId;
use std::cell::RefCell;
use std::cmp::Reverse;

/// How many cells each way from a goal [`Battlefield::cut_off`] floods
/// before it leaves the question to the search: a goal shut in among units
/// is shut in a space of a few hundred cells; a flood that runs on is
/// wasted work. The box is at most 64 cells wide (a word a row).
const CUT_OFF_BOX: usize = 32;

/// How many cells the search finishes before it asks whether the goal can
/// be reached at all ([`Battlefield::reaches`]): a search for a goal cut
/// off from the start by a wall of units (an army's line across the
/// table) would otherwise finish every cell on the start's side.
const POP_BUDGET: usize = 4096;

/// How many cells each way from the start [`Battlefield::cut_off`] floods
/// first among many units (a deferred set): a start shut in among its
/// neighbours is shut in a few dozen cells, and the units round the goal
/// need not be worked out to say so.
const START_BOX: usize = 16;

/// The most rows of [`CUT_OFF_BOX`]'s box.
const CUT_OFF_ROWS: usize = 2 * CUT_OFF_BOX + 1;

/// How many open-ground paths ([`OPEN_PATHS`]) a thread keeps before it
/// forgets them all.
const OPEN_PATHS_KEPT: usize = 4096;

/// A remembered open-ground path: by table, category, start and goal cell.
type OpenPaths =
    std::collections::HashMap<(u64, usize, CellIndex, CellIndex), Option<Vec<CellIndex>>>;

thread_local! {
    /// [`Battlefield::cell_path`]'s answers with nothing blocked (the
    /// engine's road moves to the nearest enemies, asked again at every
    /// listing of legal actions), per thread.
    static OPEN_PATHS: RefCell<OpenPaths> = RefCell::new(OpenPaths::new());
    /// [`Battlefield::cell_path`]'s working arrays, kept between searches
    /// on this thread rather than allocated (grid-sized) for each one.
    static SEARCH: RefCell<Search> = RefCell::new(Search::default());
}

/// The A* search's per-cell cost, previous cell and estimate, the cells
/// it may no longer step into, and its heap. A cell's node counts only if
/// it was reached in the current search (its stamp is the current
/// generation); otherwise it is unreached: infinite cost, no previous cell.
#[derive(Default)]
struct Search {
    generation: u32,
    nodes: Vec<Node>,
    /// One bit per cell: ground the troop cannot enter, cells other units
    /// stand on (never the start), and cells already finished. A step
    /// into a cell is considered only if its bit is clear.
    closed: Vec<u64>,
    heap: CostQueue,
    flood: Flood,
    terrain: Terrain,
}

/// Each category's step prices from every cell, and its cells' costs from
/// the guides, for the table last searched: the search's inner loop reads
/// a step's price rather than working it out.
#[derive(Default)]
struct Terrain {
    table: Option<u64>,
    by_category: [CategoryTerrain; 5],
}

/// One category's [`Terrain`].
#[derive(Default)]
struct CategoryTerrain {
    /// By cell, the price in [`units`] of each step to a neighbour
    /// (`prices[cell][slot(k)]` for step `k` of [`Steps`]); [`UNREACHABLE`]
    /// for a neighbour off the table (never asked).
    prices: Vec<[u32; 8]>,
    /// By cell, its costs from the table's guides as
    /// [`super::guides::signed`] gives them: the search's estimate is
    /// their bound ([`super::guides::signed_lower_bound`], worked out
    /// quickly from these; [`Battlefield::search_path`]).
    guides: Vec<[i32; GUIDES]>,
}

/// The slot in a cell's [`CategoryTerrain::prices`] of step `k` of
/// [`Steps`] (`k` = 4, the cell itself, has none).
#[inline(always)]
const fn slot(k: usize) -> usize {
    if k > 4 { k - 1 } else { k }
}

impl Terrain {
    /// The step prices and guides' costs for `category` on
    /// `field`, worked out the first time they are asked for on this
    /// thread (per table).
    fn of(&mut self, field: &Battlefield, category: usize) -> &CategoryTerrain {
        if self.table != Some(field.id.0) {
            self.table = Some(field.id.0);
            self.by_category = Default::default();
        }
        let terrain = &mut self.by_category[category];
        if terrain.prices.is_empty() {
            *terrain = CategoryTerrain::new(field, category);
        }
        terrain
    }
}

impl CategoryTerrain {
    fn new(field: &Battlefield, category: usize) -> CategoryTerrain {
        let grid = &field.grid;
        let (width, height) = (grid.width, grid.height);
        let multipliers = &field.multipliers[category];
        let ground = &grid.ground;
        let uphill = field.ruleset.uphill_speed as f32;
        let steps = Steps::new(grid);
        let prices = (0..grid.len())
            .map(|cell| {
                let (x, y) = (cell % width, cell / width);
                let on_table = neighbours_on_table(width, height, x, y);
                let mut prices = [UNREACHABLE; 8];
                for k in (0..9).filter(|&k| k != 4 && on_table & (1 << k) != 0) {
                    let next = cell.wrapping_add(steps.offset[k]);
                    prices[slot(k)] = step_units(
                        steps.half_length[k],
                        multipliers[cell],
                        multipliers[next],
                        ground[cell],
                        ground[next],
                        uphill,
                    );
                }
                prices
            })
            .collect();
        let guides = field.guides(category).iter().map(signed).collect();
        CategoryTerrain { prices, guides }
    }
}

/// [`Battlefield::reaches`]' rows of open cells and of cells reached, a
/// word-aligned row after another, and a row's worth of work.
#[derive(Default)]
struct Flood {
    open_rows: Vec<u64>,
    reached_rows: Vec<u64>,
    row: Vec<u64>,
}

/// One cell's state in a [`Search`], together so one cache line holds it.
#[derive(Clone, Copy)]
struct Node {
    stamp: u32,
    /// The cheapest known cost from the start to this cell, in [`units`].
    cost: u32,
    /// The A* estimate of the cost from this cell to the goal, worked out
    /// when the cell is first reached (it depends on nothing else).
    estimate: u32,
}

/// How many units of cost the search counts to an inch of open-ground
/// movement. The search prices each step in whole units (rounded up, so
/// never below its cost in inches) and adds them exactly: two ways of
/// one cost cost the same however they are added up, and ties between
/// them are real ties, broken by [`canonical_walk`] alone.
pub(super) const UNITS_PER_INCH: f64 = 1024.0;

/// The dearest one step may be priced, in units (4,096"): dearer ground
/// (a house rule's speed near zero) is priced at this, so that sums stay
/// far from overflowing.
pub(super) const STEP_CAP: u32 = 1 << 22;

/// The cost of a cell not reached, and of any way dearer than a `u32` of
/// units can count.
pub(super) const UNREACHABLE: u32 = u32::MAX;

/// A non-negative amount of units rounded down to a whole number (and
/// at most [`UNREACHABLE`]).
#[inline(always)]
fn units_down(amount: f64) -> u32 {
    // `as` truncates towards zero and saturates, which for amounts at or
    // above zero is rounding down.
    amount as u32
}

/// A step's cost in inches as whole units, rounded up: at least one unit
/// (so every step costs something), at most [`STEP_CAP`], and
/// [`UNREACHABLE`] for an infinite (or not-a-number) cost.
#[inline(always)]
pub(super) fn units(cost: f32) -> u32 {
    let amount = f64::from(cost) * UNITS_PER_INCH;
    if amount.is_nan() || amount == f64::INFINITY {
        return UNREACHABLE;
    }
    if amount >= f64::from(STEP_CAP) {
        return STEP_CAP;
    }
    let whole = units_down(amount);
    (whole + u32::from(f64::from(whole) < amount)).max(1)
}

/// The price in [`units`] of the step from a cell (its multiplier and
/// ground height) to a neighbour half a step's length `half_length` away:
/// `step_cost`, term for term.
#[inline(always)]
fn step_units(
    half_length: f32,
    multiplier_from: f32,
    multiplier_to: f32,
    ground_from: f32,
    ground_to: f32,
    uphill: f32,
) -> u32 {
    let mut cost = half_length * (multiplier_from + multiplier_to);
    if ground_to > ground_from + 1e-4 {
        cost /= uphill;
    }
    units(cost)
}

/// A cheapest path between `end` and `start` that a search from `start`
/// found, chosen the same way whatever order it finished cells in: walked
/// back from `end`, each step goes to the first neighbour (in the graph's
/// order, [`Steps`]) whose finished cost from the start plus the price of
/// the step from it is the cost here. `finished_cost(cell)` is a finished
/// cell's cost from the start (`None` for a cell not finished),
/// `step_price(at, k, cell)` the price of the step from `cell` into `at`,
/// `k` the step from `at` to `cell`. The cells come from `end` to `start`.
///
/// Every cell on a cheapest path to `end` was finished before `end` (an
/// A* search with a consistent estimate strictly below every way's cost
/// finishes them first, with their costs exact), so the walk finds a next
/// cell at each step and ends at the start; the costs fall by at least a
/// unit a step.
pub(super) fn canonical_walk(
    width: usize,
    height: usize,
    offsets: &[usize; 9],
    end: CellIndex,
    start: CellIndex,
    finished_cost: impl Fn(usize) -> Option<u32>,
    step_price: impl Fn(usize, usize, usize) -> u32,
) -> Option<Vec<CellIndex>> {
    let mut cost = finished_cost(end)?;
    let mut cells = vec![end];
    let mut at = end;
    while at != start {
        let (x, y) = (at % width, at / width);
        // Every neighbour of a cell not on the table's edge is on the table.
        let on_table = if x > 0 && y > 0 && x + 1 < width && y + 1 < height {
            ALL_NEIGHBOURS
        } else {
            neighbours_on_table(width, height, x, y)
        };
        let mut next = None;
        for (k, &offset) in offsets.iter().enumerate() {
            if on_table & (1 << k) == 0 {
                continue;
            }
            let cell = at.wrapping_add(offset);
            if let Some(rest) = finished_cost(cell)
                && rest.checked_add(step_price(at, k, cell)) == Some(cost)
            {
                next = Some((cell, rest));
                break;
            }
        }
        // None only if the costs were not a search's (a cell finished
        // with no cheapest next step): no path rather than a loop.
        let (cell, rest) = next?;
        cells.push(cell);
        (at, cost) = (cell, rest);
    }
    Some(cells)
}

impl Search {
    /// Begin a search over `n_cells` cells: every cell unreached, the heap
    /// empty, and closed the cells of `impassable` and `blocked` but
    /// `source`.
    fn start(&mut self, n_cells: usize, impassable: &CellSet, blocked: &CellSet, source: usize) {
        self.heap.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.nodes.len() != n_cells || self.generation == 0 {
            let unreached = Node {
                stamp: 0,
                cost: UNREACHABLE,
                estimate: 0,
            };
            self.nodes = vec![unreached; n_cells];
            self.generation = 1;
        }
        self.closed.clear();
        self.closed.extend_from_slice(&impassable.words);
        self.closed.resize(n_cells.div_ceil(64), 0);
        // A set holds no cell past its length, so its words say exactly
        // which cells it holds (any past the grid are never looked at); a
        // deferred set's units not worked out yet are added as the search
        // reaches their buckets.
        blocked.worked_out_into(&mut self.closed, |cell| impassable.contains(cell));
        if source < n_cells {
            self.closed[source / 64] &= !(1u64 << (source % 64));
        }
    }
}

/// Whether bit `cell` of a bit array is set.
#[inline(always)]
fn bit(words: &[u64], cell: usize) -> bool {
    words[cell / 64] & (1u64 << (cell % 64)) != 0
}

/// Priority-queue entry: a cost's bits above the cell index. Costs are
/// never negative, so their bit patterns order like the numbers; the cell
/// index breaks ties deterministically (the order of the pair
/// `(cost bits, cell)`, packed in one integer to compare quickly).
pub(super) type Entry = Reverse<u64>;

pub(super) fn entry(cost: f32, cell: usize) -> Entry {
    entry_units(cost.to_bits(), cell)
}

/// An entry of the route search: a priority in [`units`] above the cell
/// index.
#[inline(always)]
pub(super) fn entry_units(priority: u32, cell: usize) -> Entry {
    Reverse((u64::from(priority) << 32) | cell as u64)
}

pub(super) fn entry_cell(entry: Entry) -> usize {
    (entry.0 & u64::from(u32::MAX)) as usize
}

impl Battlefield {
    pub(super) fn step_cost(
        &self,
        multipliers: &[f32],
        from: usize,
        to: usize,
        length: f32,
    ) -> f32 {
        let mut cost = length * 0.5 * (multipliers[from] + multipliers[to]);
        if self.grid.ground[to] > self.grid.ground[from] + 1e-4 {
            cost /= self.ruleset.uphill_speed as f32;
        }
        cost
    }

    /// The cheapest cell-by-cell path for `troop` from `from` to `to`
    /// (A* over the petgraph graph's cells and edges, a cell's edges
    /// walked from the grid by index arithmetic: the same neighbours, in
    /// the same order, with the same lengths), without turning it into
    /// legs.
    pub fn cell_path(
        &self,
        troop: TroopTypeId,
        from: Point,
        to: Point,
        blocked: &CellSet,
    ) -> Option<Vec<CellIndex>> {
        let source = self.grid.cell_at(from)?;
        let goal = self.grid.cell_at(to)?;
        let category = self.category(troop).index();
        let multipliers = &self.multipliers[category];
        if !multipliers[goal].is_finite() || (blocked.contains(goal) && goal != source) {
            return None;
        }
        // Over open ground (nothing blocked) the path depends only on the
        // table, the category and the two cells: remembered.
        let open = !blocked.is_deferred() && blocked.words.iter().all(|&word| word == 0);
        if open {
            let key = (self.id.0, category, source, goal);
            if let Some(cells) = OPEN_PATHS.with_borrow(|paths| paths.get(&key).cloned()) {
                return cells;
            }
            let cells = self.search_path(category, source, goal, blocked);
            OPEN_PATHS.with_borrow_mut(|paths| {
                if paths.len() >= OPEN_PATHS_KEPT {
                    paths.clear();
                }
                paths.insert(key, cells.clone());
            });
            return cells;
        }
        self.search_path(category, source, goal, blocked)
    }

    /// [`Battlefield::cell_path`]'s search, from cell to cell, the goal
    /// already checked open.
    ///
    /// The search (A* over steps priced in whole [`units`]) finishes
    /// the goal, then the path is walked back from it, taking at each cell
    /// the first neighbour in the graph's order that lies on a cheapest way
    /// from the start ([`canonical_walk`]). Which of several routes of one
    /// cost is taken depends only on the costs, never on the order the
    /// search finished cells in, so any estimate (or none) gives the same
    /// path.
    fn search_path(
        &self,
        category: usize,
        source: CellIndex,
        goal: CellIndex,
        blocked: &CellSet,
    ) -> Option<Vec<CellIndex>> {
        // A start on ground the troop cannot enter: every step from it
        // costs infinitely much, and it reaches nothing (its own cell is
        // no goal, being such ground).
        if !self.multipliers[category][source].is_finite() {
            return None;
        }
        // The graph's nodes this troop may enter, its start and passable
        // cells nobody stands on, are those `Search::start` leaves open.
        let (width, height) = (self.grid.width, self.grid.height);
        let steps = Steps::new(&self.grid);
        SEARCH.with_borrow_mut(|search| {
            // A goal that cannot be reached would have the search visit
            // every cell it can reach, often most of the table; where the
            // goal is shut in a small space (among units), a small flood
            // from it says so first. Among many units (a deferred set),
            // where a start shut in among its neighbours is common, a
            // smaller flood from the start goes first; each floods only the
            // buckets it comes to, working out their units as it goes.
            let deferred = blocked.is_deferred();
            if deferred {
                // The cells the search starts with worked out: those the
                // start and the cells taken out lie in (so that no unit
                // worked out later covers them).
                blocked.touch(source, |_, _| {});
                for &cell in blocked.removed() {
                    blocked.touch(cell, |_, _| {});
                }
            }
            search.start(self.grid.len(), &self.impassable[category], blocked, source);
            let lazy = deferred.then_some(blocked);
            if deferred && self.cut_off(&mut search.closed, goal, source, START_BOX, lazy) {
                return None;
            }
            if self.cut_off(&mut search.closed, source, goal, CUT_OFF_BOX, lazy) {
                return None;
            }
            // The search's parts as plain slices and locals, so that the
            // loop keeps them at hand (a push onto the heap cannot move them).
            let Search {
                generation,
                nodes,
                closed,
                heap,
                flood,
                terrain,
            } = search;
            let (generation, nodes, closed) = (*generation, &mut nodes[..], &mut closed[..]);
            let CategoryTerrain { prices, guides } = terrain.of(self, category);
            let guides = &guides[..];
            let goal_guides = guides[goal];
            // The estimate of the cost from a cell to the goal, in units:
            // the guides' bound ([`super::guides::lower_bound`], worked out
            // as [`signed_lower_bound`]) less a 1024th of itself, rounded
            // down (below every way's cost, and strictly below any way's
            // but the goal's own). It is consistent: it changes how much is
            // searched, never what is found ([`canonical_walk`]). (The
            // larger of it and the straight line over the cheapest ground,
            // the estimate before, searched a few cells fewer at more cost
            // a cell: Guilford self-play 18.19 M instructions a game with
            // both, 17.88 M with the guides' alone; `stress` 3,572 M and
            // 3,560 M.) What it reads it holds by value, so that the loop
            // reaches it in one step.
            let estimate_at = move |cell: usize| {
                let guided = signed_lower_bound(&guides[cell], &goal_guides);
                guided - (guided >> 10).max(u32::from(guided != 0))
            };
            let source_estimate = estimate_at(source);
            nodes[source] = Node {
                stamp: generation,
                cost: 0,
                estimate: source_estimate,
            };
            heap.push(entry_units(source_estimate, source));
            // Only the start and cells whose bit was clear are pushed, and
            // a cell's bit is set when it is finished: a popped cell with
            // its bit set was finished before.
            let mut finished = 0;
            while let Some(popped) = heap.pop() {
                let cell = entry_cell(popped);
                if bit(closed, cell) {
                    continue;
                }
                closed[cell / 64] |= 1u64 << (cell % 64);
                if cell == goal {
                    break;
                }
                finished += 1;
                if finished == POP_BUDGET
                    && !self.reaches(closed, flood, category, blocked, source, goal)
                {
                    return None;
                }
                let (x, y) = (cell % width, cell / width);
                if deferred {
                    // Work out the units that may stand on the cell's
                    // neighbours before stepping into any. The cell's own
                    // bucket was worked out when it was reached; a cell
                    // on the edge of its bucket reaches into others, and
                    // the buckets of its four corners hold them all.
                    let inner = 1..BUCKET - 1;
                    if !inner.contains(&(x % BUCKET)) || !inner.contains(&(y % BUCKET)) {
                        let (x0, x1) = (x.saturating_sub(1), (x + 1).min(width - 1));
                        let (y0, y1) = (y.saturating_sub(1), (y + 1).min(height - 1));
                        for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
                            blocked.touch(y * width + x, |first, len| {
                                set_span(closed, first, len);
                            });
                        }
                    }
                }
                let cost_here = nodes[cell].cost;
                let prices_here = &prices[cell];
                // Step `k` of `Steps` from the cell to a neighbour, if its
                // cell is open: its price (`step_cost(multipliers, cell,
                // next, length)`, term for term, in units, read from the
                // table of prices), and the A* relaxation.
                macro_rules! step {
                    ($k:expr) => {{
                        let k: usize = $k;
                        let next = cell.wrapping_add(steps.offset[k]);
                        if !bit(closed, next) {
                            let price = prices_here[slot(k)];
                            let candidate = cost_here.saturating_add(price);
                            let node = &mut nodes[next];
                            // Unreached in this search: unreachable (a step
                            // too dear to price is no step).
                            let fresh = node.stamp != generation;
                            let known = if fresh { UNREACHABLE } else { node.cost };
                            if candidate < known {
                                if fresh {
                                    node.stamp = generation;
                                    node.estimate = estimate_at(next);
                                }
                                node.cost = candidate;
                                let priority = candidate.saturating_add(node.estimate);
                                heap.push(entry_units(priority, next));
                            }
                        }
                    }};
                }
                // The graph's edges from the cell, in its order, walked
                // from the grid.
                if x > 0 && y > 0 && x + 1 < width && y + 1 < height {
                    step!(0);
                    step!(1);
                    step!(2);
                    step!(3);
                    step!(5);
                    step!(6);
                    step!(7);
                    step!(8);
                } else {
                    let on_table = neighbours_on_table(width, height, x, y);
                    for k in 0..9 {
                        if on_table & (1 << k) != 0 {
                            step!(k);
                        }
                    }
                }
            }
            if !bit(closed, goal) || nodes[goal].stamp != generation {
                return None;
            }
            let finished_cost = |cell: usize| {
                (nodes[cell].stamp == generation && bit(closed, cell)).then_some(nodes[cell].cost)
            };
            // The price of the step into a cell from its neighbour `from`
            // (`k` the step from the cell to `from`; the step back from
            // `from` is step `8 - k`).
            let step_price = |_: usize, k: usize, from: usize| prices[from][slot(8 - k)];
            let mut cells = canonical_walk(
                width,
                height,
                &steps.offset,
                goal,
                source,
                finished_cost,
                step_price,
            )?;
            cells.reverse();
            Some(cells)
        })
    }

    /// Whether `goal` can be reached from `source` at all, asked of a
    /// search under way: a flood of the whole table from the start, a row
    /// of 64 cells at a time, over the cells the search may enter (its
    /// closed cells less those it has finished). A deferred set's units
    /// are all worked out first (into the search's closed cells too, as it
    /// would have as it went). This answers only how much work the search
    /// does, never what it finds.
    fn reaches(
        &self,
        closed: &mut [u64],
        flood: &mut Flood,
        category: usize,
        blocked: &CellSet,
        source: usize,
        goal: usize,
    ) -> bool {
        blocked.touch_all(|first, len| set_span(closed, first, len));
        let (width, height) = (self.grid.width, self.grid.height);
        let impassable = &self.impassable[category];
        // The cells a search may enter: as `Search::start` leaves them.
        let mut shut = impassable.words.clone();
        shut.resize(self.grid.len().div_ceil(64), 0);
        blocked.worked_out_into(&mut shut, |cell| impassable.contains(cell));
        shut[source / 64] &= !(1u64 << (source % 64));
        let per_row = width.div_ceil(64);
        let Flood {
            open_rows,
            reached_rows,
            row,
        } = flood;
        open_rows.clear();
        for y in 0..height {
            for k in 0..per_row {
                let count = (width - 64 * k).min(64);
                let mask = if count == 64 {
                    u64::MAX
                } else {
                    (1u64 << count) - 1
                };
                open_rows.push(!closed_bits(&shut, y * width + 64 * k, count) & mask);
            }
        }
        reached_rows.clear();
        reached_rows.resize(open_rows.len(), 0);
        row.clear();
        row.resize(per_row, 0);
        let (source_x, source_y) = (source % width, source / width);
        let (goal_x, goal_y) = (goal % width, goal / width);
        reached_rows[source_y * per_row + source_x / 64] = 1u64 << (source_x % 64);
        let goal_at = (goal_y * per_row + goal_x / 64, 1u64 << (goal_x % 64));
        loop {
            let mut changed = false;
            for y in (0..height).chain((0..height).rev()) {
                let at = y * per_row;
                row.copy_from_slice(&reached_rows[at..at + per_row]);
                for other in [y.wrapping_sub(1), y + 1] {
                    if other < height {
                        let from = other * per_row;
                        spread(&reached_rows[from..from + per_row], row);
                    }
                }
                let open = &open_rows[at..at + per_row];
                for (bits, &open) in row.iter_mut().zip(open) {
                    *bits &= open;
                }
                fill_along(row, open);
                if row[..] == reached_rows[at..at + per_row] {
                    continue;
                }
                reached_rows[at..at + per_row].copy_from_slice(row);
                changed = true;
                if reached_rows[goal_at.0] & goal_at.1 != 0 {
                    return true;
                }
            }
            if !changed {
                return false;
            }
        }
    }

    /// The box [`Battlefield::cut_off`] floods round `goal`, `reach`
    /// cells each way (at most [`CUT_OFF_BOX`]): its first and
    /// past-the-last columns and rows.
    fn cut_off_box(&self, goal: usize, reach: usize) -> (usize, usize, usize, usize) {
        let (width, height) = (self.grid.width, self.grid.height);
        let (goal_x, goal_y) = (goal % width, goal / width);
        let x_lo = goal_x.saturating_sub(reach);
        let y_lo = goal_y.saturating_sub(reach);
        (
            x_lo,
            (x_lo + 2 * reach).min(width),
            y_lo,
            (goal_y + reach + 1).min(height),
        )
    }

    /// Whether `goal` surely cannot be reached from `source`, on a
    /// [`Search`] just started (the cells it may not enter closed, at least
    /// within the box; with `deferred`, the deferred set whose units are
    /// worked out into `closed` bucket by bucket as the flood comes to
    /// them): the cells reachable from the goal within a box of
    /// `reach` cells each way (at most [`CUT_OFF_BOX`]), flooded a row of
    /// 64 cells at a time, close up without
    /// meeting the source or an edge of the box that is not the table's
    /// (beyond which the flood might go on). The grid's edges join every
    /// cell to its eight neighbours and come in pairs, so the goal reaches
    /// the source exactly when the source reaches the goal. A goal in a
    /// space too large for the box is left to the search: this answers
    /// only how much work the search does, never what it finds.
    fn cut_off(
        &self,
        closed: &mut [u64],
        source: usize,
        goal: usize,
        reach: usize,
        deferred: Option<&CellSet>,
    ) -> bool {
        if source == goal {
            return false;
        }
        let (width, height) = (self.grid.width, self.grid.height);
        let (goal_x, goal_y) = (goal % width, goal / width);
        let (x_lo, x_hi, y_lo, y_hi) = self.cut_off_box(goal, reach);
        let n_rows = y_hi - y_lo;
        let box_width = x_hi - x_lo;
        let full = if box_width == 64 {
            u64::MAX
        } else {
            (1u64 << box_width) - 1
        };
        // The cells of the box's sides through which the flood could leave
        // it (those on the table's edge cannot).
        let mut side = 0;
        if x_lo > 0 {
            side |= 1;
        }
        if x_hi < width {
            side |= 1 << (box_width - 1);
        }
        // With a deferred set, the flood goes only over buckets worked out,
        // and works out those it comes to as it comes to them (a goal shut
        // in a small space needs only the buckets round that space);
        // `allowed` holds a row's cells in buckets worked out. Cells not
        // worked out count as closed until then, so the flood never reaches
        // more than it would with every unit worked out, and it says "cut
        // off" only when no bucket is left at its edge.
        let (column_lo, row_lo) = (x_lo / BUCKET, y_lo / BUCKET);
        let n_columns = (x_hi - 1) / BUCKET - column_lo + 1;
        let column_bits = |column: usize| {
            let lo = (column * BUCKET).max(x_lo) - x_lo;
            let hi = ((column + 1) * BUCKET).min(x_hi) - x_lo;
            match hi - lo {
                64 => u64::MAX,
                n => ((1u64 << n) - 1) << lo,
            }
        };
        let mut worked_out = [0u16; CUT_OFF_ROWS.div_ceil(BUCKET) + 1];
        let mut allowed = [full; CUT_OFF_ROWS];
        let mut open = [0u64; CUT_OFF_ROWS];
        let mut reached = [0u64; CUT_OFF_ROWS];
        // Work out the bucket at `column`, `bucket_row` (of the table) and
        // open the box's rows through it.
        let work_out = |column: usize,
                        bucket_row: usize,
                        closed: &mut [u64],
                        allowed: &mut [u64; CUT_OFF_ROWS],
                        open: &mut [u64; CUT_OFF_ROWS],
                        worked_out: &mut [u16]| {
            if let Some(blocked) = deferred {
                blocked.touch(
                    bucket_row * BUCKET * width + column * BUCKET,
                    |first, len| set_span(closed, first, len),
                );
                worked_out[bucket_row - row_lo] |= 1 << (column - column_lo);
                let rows = (bucket_row * BUCKET).max(y_lo)..((bucket_row + 1) * BUCKET).min(y_hi);
                for y in rows {
                    let row = y - y_lo;
                    allowed[row] |= column_bits(column);
                    open[row] = !closed_bits(closed, y * width + x_lo, box_width) & allowed[row];
                }
            }
        };
        if deferred.is_some() {
            allowed = [0; CUT_OFF_ROWS];
            work_out(
                goal_x / BUCKET,
                goal_y / BUCKET,
                closed,
                &mut allowed,
                &mut open,
                &mut worked_out,
            );
        } else {
            for (row, bits) in open.iter_mut().enumerate().take(n_rows) {
                let first = (y_lo + row) * width + x_lo;
                *bits = !closed_bits(closed, first, box_width) & full;
            }
        }
        let (source_x, source_y) = (source % width, source / width);
        let source_bit = if (x_lo..x_hi).contains(&source_x) && (y_lo..y_hi).contains(&source_y) {
            Some((source_y - y_lo, 1u64 << (source_x - x_lo)))
        } else {
            None
        };
        let leaks = |row: usize, bits: u64| {
            bits & side != 0 || (row == 0 && y_lo > 0) || (row + 1 == n_rows && y_hi < height)
        };
        let goal_row = goal_y - y_lo;
        reached[goal_row] = 1u64 << (goal_x - x_lo);
        // Rows `low..=high` hold every reached cell.
        let (mut low, mut high) = (goal_row, goal_row);
        loop {
            let mut changed = false;
            // A sweep up the rows and back down, each row taking what its
            // neighbours above and below reach and filling along itself.
            let rows = (low.saturating_sub(1)..=(high + 1).min(n_rows - 1))
                .chain((low.saturating_sub(1)..=(high + 1).min(n_rows - 1)).rev());
            for row in rows {
                let mut from = reached[row];
                if row > 0 {
                    from |= reached[row - 1];
                }
                if row + 1 < n_rows {
                    from |= reached[row + 1];
                }
                let mut bits = (from | from << 1 | from >> 1) & open[row];
                if bits == reached[row] {
                    continue;
                }
                loop {
                    let wider = (bits | bits << 1 | bits >> 1) & open[row];
                    if wider == bits {
                        break;
                    }
                    bits = wider;
                }
                if leaks(row, bits) {
                    return false;
                }
                if let Some((source_row, source_bits)) = source_bit
                    && source_row == row
                    && bits & source_bits != 0
                {
                    return false;
                }
                reached[row] = bits;
                changed = true;
                low = low.min(row);
                high = high.max(row);
            }
            if changed {
                continue;
            }
            if deferred.is_none() {
                return true;
            }
            // The flood has stopped: work out the buckets next to what it
            // reached that are not worked out yet, and go on, or stop if
            // there are none.
            let mut more = false;
            for row in low.saturating_sub(1)..=(high + 1).min(n_rows - 1) {
                let mut from = reached[row];
                if row > 0 {
                    from |= reached[row - 1];
                }
                if row + 1 < n_rows {
                    from |= reached[row + 1];
                }
                let edge = (from | from << 1 | from >> 1) & full & !allowed[row];
                if edge == 0 {
                    continue;
                }
                let bucket_row = (y_lo + row) / BUCKET;
                for column in column_lo..column_lo + n_columns {
                    if edge & column_bits(column) != 0
                        && worked_out[bucket_row - row_lo] & (1 << (column - column_lo)) == 0
                    {
                        work_out(
                            column,
                            bucket_row,
                            closed,
                            &mut allowed,
                            &mut open,
                            &mut worked_out,
                        );
                        more = true;
                    }
                }
            }
            if !more {
                return true;
            }
        }
    }
}

/// The eight steps from a cell to its neighbours, by `k` = `3 (dy + 1) +
/// (dx + 1)` (the graph's order; `k` = 4, the cell itself, unused): what
/// to add to a cell's index, and half the step's length (the graph's
/// edge weight × 0.5, the first factor of `step_cost`).
pub(super) struct Steps {
    pub(super) offset: [usize; 9],
    pub(super) half_length: [f32; 9],
}

impl Steps {
    pub(super) fn new(grid: &crate::battlefield::Grid) -> Steps {
        let (straight, diagonal) = (
            crate::battlefield::straight_step(grid),
            crate::battlefield::diagonal_step(grid),
        );
        let mut steps = Steps {
            offset: [0; 9],
            half_length: [0.0; 9],
        };
        for k in 0..9 {
            let (dx, dy) = (k % 3, k / 3);
            // `dy * width + dx` less `width + 1`, wrapping: added to a
            // cell's index, the neighbour's.
            steps.offset[k] = (dy * grid.width + dx).wrapping_sub(grid.width + 1);
            let length = if dx != 1 && dy != 1 {
                diagonal
            } else {
                straight
            };
            steps.half_length[k] = length * 0.5;
        }
        steps
    }
}

/// Every neighbour of [`Steps`], bit `k` for neighbour `k`: those of a
/// cell not on the table's edge.
const ALL_NEIGHBOURS: u32 = 0b111_101_111;

/// The neighbours of the cell at column `x`, row `y` that are on the
/// table, bit `k` for neighbour `k` of [`Steps`].
#[cold]
pub(super) fn neighbours_on_table(width: usize, height: usize, x: usize, y: usize) -> u32 {
    let mut on_table = ALL_NEIGHBOURS;
    for k in 0..9 {
        let (dx, dy) = (k % 3, k / 3);
        if (x + dx).wrapping_sub(1) >= width || (y + dy).wrapping_sub(1) >= height {
            on_table &= !(1 << k);
        }
    }
    on_table
}

/// OR into `row` the cells of `from` and their neighbours along the row
/// (words in order, bit 0 first).
fn spread(from: &[u64], row: &mut [u64]) {
    let n = from.len();
    for k in 0..n {
        let mut bits = from[k] | from[k] << 1 | from[k] >> 1;
        if k > 0 {
            bits |= from[k - 1] >> 63;
        }
        if k + 1 < n {
            bits |= from[k + 1] << 63;
        }
        row[k] |= bits;
    }
}

/// Fill `row` along each run of `open` cells that holds one of its cells,
/// both ways (`row` within `open`).
fn fill_along(row: &mut [u64], open: &[u64]) {
    // Upwards: adding a run's cells to the run carries through the rest of
    // it; the bits that change, within the run, are those filled.
    let mut carry = false;
    for (bits, &open) in row.iter_mut().zip(open) {
        let (sum, first) = open.overflowing_add(*bits);
        let (sum, second) = sum.overflowing_add(u64::from(carry));
        *bits |= (sum ^ open) & open;
        carry = first || second;
    }
    // Downwards: the same with the bits and the words reversed.
    let mut carry = false;
    for (bits, &open) in row.iter_mut().zip(open).rev() {
        let (seeds, open) = (bits.reverse_bits(), open.reverse_bits());
        let (sum, first) = open.overflowing_add(seeds);
        let (sum, second) = sum.overflowing_add(u64::from(carry));
        *bits |= ((sum ^ open) & open).reverse_bits();
        carry = first || second;
    }
}

/// Set bits `first .. first + len` of a bit array (those in it).
fn set_span(words: &mut [u64], first: usize, len: usize) {
    let end = first.saturating_add(len).min(words.len() * 64);
    let mut at = first;
    while at < end {
        let (word, offset) = (at / 64, at % 64);
        let count = (64 - offset).min(end - at);
        words[word] |= if count == 64 {
            u64::MAX
        } else {
            ((1u64 << count) - 1) << offset
        };
        at += count;
    }
}

/// Bits `first .. first + count` of a bit array (`count` at most 64),
/// cell `first` in bit 0; bits past the array are clear.
fn closed_bits(words: &[u64], first: usize, count: usize) -> u64 {
    let (word, offset) = (first / 64, first % 64);
    let mut bits = words.get(word).map_or(0, |w| w >> offset);
    if offset != 0 {
        bits |= words.get(word + 1).map_or(0, |w| w << (64 - offset));
    }
    if count < 64 {
        bits & ((1u64 << count) - 1)
    } else {
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::tests::table;
    use petgraph::visit::EdgeRef;
    use rand::{RngExt, SeedableRng};

    /// A step's price in whole units is rounded up, never below one unit
    /// nor below its cost, less than a unit above it, capped for ground
    /// near impassable, and unreachable for infinite or not-a-number costs.
    #[test]
    fn units_round_up_and_cap() {
        assert_eq!(units(0.0), 1);
        assert_eq!(units(1e-9), 1);
        assert_eq!(units(0.5), 512);
        assert_eq!(units(1.0), 1024);
        assert_eq!(units(1.0 + f32::EPSILON), 1025);
        assert_eq!(units(1e30), STEP_CAP);
        assert_eq!(units(f32::MAX), STEP_CAP);
        assert_eq!(units(f32::INFINITY), UNREACHABLE);
        assert_eq!(units(f32::NAN), UNREACHABLE);
        for k in 1..20_000 {
            let cost = k as f32 * 0.0137;
            let exact = f64::from(cost) * UNITS_PER_INCH;
            let priced = f64::from(units(cost));
            assert!(priced >= exact && priced < exact + 1.0, "{cost}: {priced}");
        }
    }

    /// On every shipped table, for every category: each cell's table of
    /// prices holds, for each of the graph's edges from it, the price in
    /// units of `step_cost` over that edge (uphill included; Guilford,
    /// Monongahela and `stress` have hills), and each cell's costs from the
    /// guides are the table's, as `signed` gives them.
    #[test]
    fn prices_are_the_graphs_steps_in_units() {
        for &(name, _, _) in crate::scenario::BUILTIN {
            let (file, text) = crate::scenario::builtin(name).unwrap();
            let scenario = crate::scenario::load(
                crate::yaml::Source::new(file, text),
                crate::ruleset::Ruleset::builtin,
            )
            .unwrap();
            let field = scenario.battlefield.as_ref();
            let (width, n_cells) = (field.grid.width, field.grid.len());
            let steps = Steps::new(&field.grid);
            for category in 0..5 {
                let terrain = CategoryTerrain::new(field, category);
                let multipliers = &field.multipliers[category];
                let mut uphill = 0;
                for cell in 0..n_cells {
                    let mut edges = 0;
                    for edge in field.graph().edges(cell as u32) {
                        let next = edge.target() as usize;
                        let k = (0..9)
                            .find(|&k| cell.wrapping_add(steps.offset[k]) == next)
                            .unwrap();
                        let price = units(field.step_cost(multipliers, cell, next, *edge.weight()));
                        assert_eq!(
                            terrain.prices[cell][slot(k)],
                            price,
                            "{name} cell {cell} step {k}"
                        );
                        uphill +=
                            usize::from(field.grid.ground[next] > field.grid.ground[cell] + 1e-4);
                        edges += 1;
                    }
                    // Every neighbour on the table is an edge; a step off
                    // it has no price.
                    let on_table =
                        neighbours_on_table(width, field.grid.height, cell % width, cell / width);
                    assert_eq!(edges, on_table.count_ones(), "{name} cell {cell}");
                    for k in (0..9).filter(|&k| k != 4 && on_table & (1 << k) == 0) {
                        assert_eq!(
                            terrain.prices[cell][slot(k)],
                            UNREACHABLE,
                            "{name} cell {cell}"
                        );
                    }
                }
                if ["guilford", "monongahela", "stress"].contains(&name) {
                    assert!(uphill > 0, "{name}: no step uphill");
                }
                let guides = field.guides(category);
                assert_eq!(terrain.guides.len(), n_cells, "{name}");
                for (cell, costs) in terrain.guides.iter().enumerate() {
                    assert_eq!(*costs, signed(&guides[cell]), "{name} cell {cell}");
                    assert!(costs.iter().all(|&cost| cost >= 0), "{name} cell {cell}");
                }
            }
        }
    }

    /// Every neighbour of a cell not on the table's edge is on the table (the
    /// walk's and the search's shortcut past `neighbours_on_table`), and a
    /// cell on the edge has some neighbour off it, on grids of several
    /// shapes.
    #[test]
    fn cells_off_the_edge_have_every_neighbour() {
        for (width, height) in [(1, 1), (2, 3), (3, 3), (7, 2), (48, 40), (97, 61)] {
            for y in 0..height {
                for x in 0..width {
                    let interior = x > 0 && y > 0 && x + 1 < width && y + 1 < height;
                    let plain = neighbours_on_table(width, height, x, y);
                    assert_eq!(
                        plain == ALL_NEIGHBOURS,
                        interior,
                        "{width}x{height} {x},{y}"
                    );
                }
            }
        }
    }

    /// The cells reachable from `goal` (eight neighbours, `closed` cells
    /// left out), one at a time.
    fn component(field: &Battlefield, closed: &[u64], goal: usize) -> Vec<usize> {
        let is_closed = |cell: usize| closed[cell / 64] & (1 << (cell % 64)) != 0;
        let mut seen = vec![false; field.grid.len()];
        let mut queue = vec![goal];
        seen[goal] = true;
        let mut at = 0;
        while let Some(&cell) = queue.get(at) {
            at += 1;
            for edge in field.graph().edges(cell as u32) {
                let next = edge.target() as usize;
                if !seen[next] && !is_closed(next) {
                    seen[next] = true;
                    queue.push(next);
                }
            }
        }
        queue
    }

    /// Over seeded random tables of blocked cells and rings of them: a
    /// goal the flood calls cut off cannot be reached from the start, and
    /// every goal shut in a space well inside the box without the start is
    /// called cut off.
    #[test]
    fn cut_off_goals_are_those_shut_in() {
        let field = table(48.0, 40.0, &[]);
        let (width, height) = (field.grid.width, field.grid.height);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        let (mut shut, mut open) = (0, 0);
        for _ in 0..3000 {
            let mut blocked = CellSet::new(field.grid.len());
            let density = rng.random_range(0.0..0.5);
            for cell in 0..field.grid.len() {
                if rng.random_bool(density) {
                    blocked.insert(cell);
                }
            }
            // A ring round a random cell, often with a gap.
            let (cx, cy) = (rng.random_range(0..width), rng.random_range(0..height));
            let r = rng.random_range(1..40usize);
            let gap = rng.random_bool(0.3);
            for y in cy.saturating_sub(r)..=(cy + r).min(height - 1) {
                for x in cx.saturating_sub(r)..=(cx + r).min(width - 1) {
                    if (x.abs_diff(cx) == r || y.abs_diff(cy) == r) && !(gap && x == cx) {
                        blocked.insert(y * width + x);
                    }
                }
            }
            let goal = if rng.random_bool(0.7) {
                cy * width + cx
            } else {
                rng.random_range(0..field.grid.len())
            };
            let source = rng.random_range(0..field.grid.len());
            blocked.remove(goal);
            let mut search = Search::default();
            search.start(field.grid.len(), &CellSet::none(), &blocked, source);
            let reach = component(&field, &search.closed, goal);
            let reaches_source = reach.contains(&source) || source == goal;
            let (gx, gy) = (goal % width, goal / width);
            // The goal's box, or the start's smaller one.
            let box_reach = if rng.random_bool(0.5) {
                CUT_OFF_BOX
            } else {
                START_BOX
            };
            let well_inside = reach.iter().all(|&cell| {
                (cell % width).abs_diff(gx) < box_reach - 1
                    && (cell / width).abs_diff(gy) < box_reach
            });
            let answer = field.cut_off(&mut search.closed, source, goal, box_reach, None);
            if answer {
                assert!(!reaches_source, "goal {goal} source {source}");
                shut += 1;
            } else {
                assert!(
                    reaches_source || !well_inside,
                    "goal {goal} source {source}"
                );
                open += 1;
            }
        }
        assert!(shut > 300 && open > 300, "{shut} shut, {open} open");
    }

    /// Among many units (a deferred set, its units worked out bucket by
    /// bucket as the flood comes to them), the flood says what it says
    /// with every unit worked out first, for the goal's box and the
    /// start's: over seeded rings of units round a cell, often with a gap,
    /// and units scattered, sometimes in crowds, movers of several sizes
    /// and facings.
    #[test]
    fn floods_over_deferred_units_answer_as_over_all_of_them() {
        use super::super::cells::Spans;
        use crate::battlefield::{Base, Point};
        let field = table(48.0, 40.0, &[]);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        let (mut shut, mut open) = (0, 0);
        for _ in 0..1500 {
            let mut bases = Vec::new();
            let centre = Point::new(rng.random_range(0.0..48.0), rng.random_range(0.0..40.0));
            let radius = rng.random_range(2.0..14.0);
            let n_ring = rng.random_range(6..40);
            let gap = rng.random_bool(0.3);
            for k in 0..n_ring {
                if gap && k == 0 {
                    continue;
                }
                let angle = k as f64 / n_ring as f64 * std::f64::consts::TAU;
                let at = Point::new(
                    centre.x + radius * angle.cos(),
                    centre.y + radius * angle.sin(),
                );
                bases.push(Base::new(at, angle.to_degrees() + 90.0, 4.0, 1.0));
            }
            // Sometimes a crowd, leaving pockets open one way only.
            let crowd = if rng.random_bool(0.4) { 250 } else { 30 };
            for _ in 0..rng.random_range(0..crowd) {
                let at = Point::new(rng.random_range(0.0..48.0), rng.random_range(0.0..40.0));
                bases.push(Base::new(at, rng.random_range(0.0..360.0), 4.0, 1.0));
            }
            let mover = Base::new(
                Point::new(0.0, 0.0),
                rng.random_range(0.0..360.0),
                rng.random_range(1.0..4.0),
                rng.random_range(0.5..2.0),
            );
            let whole = field.blocked_for(&mover, &bases);
            let n_cells = field.grid.len();
            let goal = if rng.random_bool(0.7) {
                field.grid.cell_at(centre).unwrap()
            } else {
                rng.random_range(0..n_cells)
            };
            let source = rng.random_range(0..n_cells);
            if whole.contains(goal) || goal == source {
                continue;
            }
            let reach = if rng.random_bool(0.5) {
                CUT_OFF_BOX
            } else {
                START_BOX
            };
            let mut all = Search::default();
            all.start(n_cells, &CellSet::none(), &whole, source);
            let expected = field.cut_off(&mut all.closed, source, goal, reach, None);
            let mut deferred = field.deferred_cells();
            for base in &bases {
                deferred.defer(&mover, base, Spans::default());
            }
            deferred.touch(source, |_, _| {});
            let mut lazy = Search::default();
            lazy.start(n_cells, &CellSet::none(), &deferred, source);
            let answer = field.cut_off(&mut lazy.closed, source, goal, reach, Some(&deferred));
            assert_eq!(
                answer, expected,
                "goal {goal} source {source} reach {reach}"
            );
            // What the flood worked out is the units' cells.
            for (cell, &word) in lazy.closed.iter().enumerate().take(n_cells / 64) {
                assert_eq!(word & !all.closed[cell], 0, "word {cell}");
            }
            if answer {
                shut += 1;
            } else {
                open += 1;
            }
        }
        assert!(shut > 50 && open > 50, "{shut} shut, {open} open");
    }

    /// Over seeded random tables of blocked cells, with walls across the
    /// table and gaps in them: the whole-table flood reaches the goal
    /// exactly when the plain flood from it finds the start.
    #[test]
    fn reaches_answers_as_the_plain_flood() {
        for (width, height) in [(48.0, 40.0), (40.5, 20.0), (32.0, 31.5)] {
            let field = table(width, height, &[]);
            let (width, height) = (field.grid.width, field.grid.height);
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(19);
            let (mut reached, mut not) = (0, 0);
            for _ in 0..400 {
                let mut blocked = CellSet::new(field.grid.len());
                let density = rng.random_range(0.0..0.45);
                for cell in 0..field.grid.len() {
                    if rng.random_bool(density) {
                        blocked.insert(cell);
                    }
                }
                // A wall across the table, sometimes with a gap.
                let wall = rng.random_range(0..width);
                let gap = rng.random_bool(0.3).then(|| rng.random_range(0..height));
                for y in 0..height {
                    if Some(y) != gap {
                        blocked.insert(y * width + wall);
                    }
                }
                let source = rng.random_range(0..field.grid.len());
                let goal = rng.random_range(0..field.grid.len());
                blocked.remove(goal);
                let mut search = Search::default();
                search.start(field.grid.len(), &CellSet::none(), &blocked, source);
                let plain = component(&field, &search.closed, goal).contains(&source);
                let answer = field.reaches(
                    &mut search.closed,
                    &mut search.flood,
                    0,
                    &blocked,
                    source,
                    goal,
                );
                assert_eq!(answer, plain, "goal {goal} source {source}");
                if answer {
                    reached += 1;
                } else {
                    not += 1;
                }
            }
            assert!(reached > 50 && not > 50, "{reached} reached, {not} not");
        }
    }
}
