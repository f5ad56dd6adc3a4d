//! Routes and distance fields over the battlefield's petgraph graph.
//!
//! The graph ([`super::CellGraph`], a `Csr` with one node per cell) is built
//! once per table. Searches walk its edges (a cell's eight neighbours, with
//! their lengths), skipping the cells a troop type cannot enter and the
//! cells other units stand on as they go, and price each step: step length × the mean
//! of the two cells' terrain multipliers, doubled going uphill (seed 000:
//! hills half movement uphill). Costs are in inches of open-ground movement, so a route costing
//! 9 is one and a half 6" moves.
//!
//! A route is the cheapest cell path turned into legs the rules allow:
//! straight lines, except along roads where the move may follow the road.
//! String pulling tests each longer straight line by its sample points;
//! where a line crosses a square of cells alike (same multiplier and
//! height, passable, nobody in it) the samples there are counted, not
//! visited, and every answer is the one visiting them would give.

use super::geometry::Point;
use super::{Battlefield, CellIndex};
use crate::ruleset::TroopTypeId;
use petgraph::visit::EdgeRef;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A set of cells, e.g. those enemy units stand on: one bit per cell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CellSet {
    /// Bit `cell % 64` of word `cell / 64` is set when the set holds `cell`.
    words: Vec<u64>,
    /// The number of cells the set can hold; others are never in it.
    len: usize,
}

impl CellSet {
    /// An empty set for a grid of `n_cells`.
    pub fn new(n_cells: usize) -> CellSet {
        CellSet {
            words: vec![0; n_cells.div_ceil(64)],
            len: n_cells,
        }
    }

    /// The empty set, usable with any grid.
    pub fn none() -> CellSet {
        CellSet::default()
    }

    /// Add a cell (ignored if out of range).
    #[inline]
    pub fn insert(&mut self, cell: CellIndex) {
        if cell < self.len {
            self.words[cell / 64] |= 1 << (cell % 64);
        }
    }

    /// Add cells `first .. first + len` (those in range), a word at a time.
    pub fn insert_span(&mut self, first: CellIndex, len: usize) {
        let end = first.saturating_add(len).min(self.len);
        let mut at = first;
        while at < end {
            let (word, offset) = (at / 64, at % 64);
            let count = (64 - offset).min(end - at);
            let bits = if count == 64 {
                u64::MAX
            } else {
                ((1u64 << count) - 1) << offset
            };
            self.words[word] |= bits;
            at += count;
        }
    }

    /// Take a cell out (ignored if out of range).
    #[inline]
    pub fn remove(&mut self, cell: CellIndex) {
        if cell < self.len {
            self.words[cell / 64] &= !(1u64 << (cell % 64));
        }
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub fn contains(&self, cell: CellIndex) -> bool {
        cell < self.len && self.words[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// Bits `first .. first + count` of the set (`count` at most 64), cell
    /// `first` in bit 0; cells past the set's length are not in it.
    #[inline]
    fn bits(&self, first: CellIndex, count: usize) -> u64 {
        let (word, offset) = (first / 64, first % 64);
        let mut bits = self.words.get(word).map_or(0, |w| w >> offset);
        if offset != 0 {
            bits |= self.words.get(word + 1).map_or(0, |w| w << (64 - offset));
        }
        if count < 64 {
            bits & ((1u64 << count) - 1)
        } else {
            bits
        }
    }
}

/// For each cell, the largest `r` such that every cell of the grid within
/// `r` cells of it (the square of side `2r + 1` around it) is passable and
/// has its multiplier and ground height, bit for bit; 0 for an impassable
/// cell. That is one less than the (Chebyshev) distance to the nearest
/// cell that differs, found by a two-pass distance transform from the cells
/// next to one that differs.
pub(super) fn uniform_radii(grid: &super::Grid, multipliers: &[f32]) -> Vec<u16> {
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
enum Square {
    /// Up to this step they surely land in the square.
    Through(usize),
    /// The square is of no use: the next sample may lie outside it.
    Outside,
}

/// What [`Battlefield::segment_quick`] can tell of a straight line without
/// measuring every step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quick {
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
const SEGMENT_ESTIMATE_ERROR: f64 = 1e-9;

/// How many cells [`Battlefield::cut_off`] floods from a goal before it
/// leaves the question to the search: a goal shut in among units is shut
/// in a space of a few hundred cells; a flood that runs on is wasted work.
const CUT_OFF_BUDGET: usize = 1024;

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
    /// [`Battlefield::route_through`]'s square radii, kept between routes
    /// on this thread rather than allocated (grid-sized) for each one.
    static SQUARES: RefCell<Squares> = RefCell::new(Squares::default());
}

/// [`Battlefield::square_radius`]'s answers for one route, by cell: grid
/// sized, each cell `u8::MAX` until worked out. Only the cells asked about
/// are put back, so starting a route costs what the last one asked, not a
/// pass over the grid.
#[derive(Debug, Default)]
struct Squares {
    radius: Vec<u8>,
    asked: Vec<CellIndex>,
}

impl Squares {
    /// Forget every answer, for a route on a grid of `n_cells` cells.
    fn start(&mut self, n_cells: usize) {
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

    fn get(&self, cell: CellIndex) -> Option<u8> {
        Some(self.radius[cell]).filter(|&radius| radius != u8::MAX)
    }

    fn remember(&mut self, cell: CellIndex, radius: u8) {
        self.radius[cell] = radius;
        self.asked.push(cell);
    }
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
    heap: BinaryHeap<Entry>,
    /// The cells waiting in [`Battlefield::cut_off`]'s flood.
    queue: Vec<u32>,
}

/// One cell's state in a [`Search`], together so one cache line holds it.
#[derive(Clone, Copy)]
struct Node {
    stamp: u32,
    cost: f32,
    previous: u32,
    /// The A* estimate from this cell to the goal, worked out when the
    /// cell is first reached (it depends on nothing else).
    estimate: f32,
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
                cost: f32::INFINITY,
                previous: u32::MAX,
                estimate: 0.0,
            };
            self.nodes = vec![unreached; n_cells];
            self.generation = 1;
        }
        self.closed.clear();
        self.closed.extend_from_slice(&impassable.words);
        self.closed.resize(n_cells.div_ceil(64), 0);
        // A set holds no cell past its length, so its words say exactly
        // which cells it holds (any past the grid are never looked at).
        for (word, &bits) in self.closed.iter_mut().zip(&blocked.words) {
            *word |= bits;
        }
        if source < n_cells {
            self.closed[source / 64] &= !(1u64 << (source % 64));
        }
    }

    #[inline]
    fn closed(&self, cell: usize) -> bool {
        self.closed[cell / 64] & (1u64 << (cell % 64)) != 0
    }

    #[inline]
    fn close(&mut self, cell: usize) {
        self.closed[cell / 64] |= 1u64 << (cell % 64);
    }

    #[inline]
    fn cost(&self, cell: usize) -> f32 {
        let node = &self.nodes[cell];
        if node.stamp == self.generation {
            node.cost
        } else {
            f32::INFINITY
        }
    }

    fn previous(&self, cell: usize) -> u32 {
        self.nodes[cell].previous
    }

    /// Reach `cell` at `cost` from `previous`; the cell's estimate, worked
    /// out by `estimate` on its first reach in this search.
    #[inline(always)]
    fn set(
        &mut self,
        cell: usize,
        cost: f32,
        previous: u32,
        estimate: impl FnOnce(usize) -> f32,
    ) -> f32 {
        let generation = self.generation;
        let node = &mut self.nodes[cell];
        if node.stamp != generation {
            node.stamp = generation;
            node.estimate = estimate(cell);
        }
        node.cost = cost;
        node.previous = previous;
        node.estimate
    }
}

/// One point on a route, with the cost of getting there from the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Waypoint {
    /// Where, in inches.
    pub point: Point,
    /// Cost so far in inches of open-ground movement.
    pub cost: f64,
}

/// One legal move segment: a straight line, or a stretch of road.
#[derive(Debug, Clone, PartialEq)]
pub struct Leg {
    /// The points the leg passes through: two for a straight leg, more for
    /// a leg that follows a road.
    pub points: Vec<Point>,
    /// Cumulative route cost at each point.
    pub costs: Vec<f64>,
    /// Whether the leg follows a road (and may bend with it).
    pub along_road: bool,
}

impl Leg {
    /// Where the leg starts.
    pub fn start(&self) -> Point {
        self.points[0]
    }

    /// Where the leg ends.
    pub fn end(&self) -> Point {
        self.points[self.points.len() - 1]
    }

    /// Length on the table in inches.
    pub fn length(&self) -> f64 {
        self.points.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// The movement cost of this leg alone.
    pub fn cost(&self) -> f64 {
        self.costs[self.costs.len() - 1] - self.costs[0]
    }
}

/// The way a unit would go from one point to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// The troop type the route was found for.
    pub troop: TroopTypeId,
    /// The cell-by-cell path, from the start point to the end point.
    pub waypoints: Vec<Waypoint>,
    /// The path as legal legs, end to end.
    pub legs: Vec<Leg>,
}

impl Route {
    /// Total cost in inches of open-ground movement.
    pub fn cost(&self) -> f64 {
        self.legs
            .last()
            .map_or(0.0, |leg| leg.costs[leg.costs.len() - 1])
    }

    /// The start point.
    pub fn start(&self) -> Point {
        self.legs
            .first()
            .map_or(self.waypoints[0].point, Leg::start)
    }

    /// The end point.
    pub fn end(&self) -> Point {
        self.legs
            .last()
            .map_or(self.waypoints[self.waypoints.len() - 1].point, Leg::end)
    }

    /// Length on the table in inches.
    pub fn length(&self) -> f64 {
        self.legs.iter().map(Leg::length).sum()
    }

    /// The legal straight-line (or road) moves, in order.
    pub fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// How many moves of `allowance` inches the route takes.
    pub fn bounds(&self, allowance: f64) -> u32 {
        if allowance <= 0.0 {
            return u32::MAX;
        }
        ((self.cost() - 1e-6) / allowance).ceil().max(0.0) as u32
    }

    /// The part of the route a unit covers with `allowance` inches of
    /// movement this bound. Cost is taken to grow evenly along each segment.
    pub fn clip(&self, allowance: f64) -> Route {
        let allowance = allowance.max(0.0);
        let mut legs = Vec::new();
        for leg in &self.legs {
            if leg.costs[0] >= allowance {
                break;
            }
            let mut points = vec![leg.points[0]];
            let mut costs = vec![leg.costs[0]];
            for i in 1..leg.points.len() {
                if leg.costs[i] <= allowance {
                    points.push(leg.points[i]);
                    costs.push(leg.costs[i]);
                } else {
                    let span = leg.costs[i] - leg.costs[i - 1];
                    let fraction = if span > 0.0 {
                        (allowance - leg.costs[i - 1]) / span
                    } else {
                        0.0
                    };
                    points.push(leg.points[i - 1].lerp(leg.points[i], fraction));
                    costs.push(allowance);
                    break;
                }
            }
            let finished = costs[costs.len() - 1] >= allowance;
            if points.len() >= 2 {
                legs.push(Leg {
                    points,
                    costs,
                    along_road: leg.along_road,
                });
            }
            if finished {
                break;
            }
        }
        let mut waypoints: Vec<Waypoint> = self
            .waypoints
            .iter()
            .copied()
            .take_while(|w| w.cost <= allowance)
            .collect();
        if let Some(end) = legs.last().map(Leg::end) {
            let end_cost = legs.last().map_or(0.0, |l| l.costs[l.costs.len() - 1]);
            if waypoints.last().is_none_or(|w| w.point != end) {
                waypoints.push(Waypoint {
                    point: end,
                    cost: end_cost,
                });
            }
        }
        if waypoints.is_empty() {
            waypoints.push(self.waypoints[0]);
        }
        Route {
            troop: self.troop,
            waypoints,
            legs,
        }
    }
}

/// The cost from every cell to the nearest of a set of goal cells, for one
/// troop type: "how far to cover", "how far to my own table edge".
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The troop type the field was computed for.
    pub troop: TroopTypeId,
    /// Cost per cell in inches of open-ground movement; infinite where no
    /// goal can be reached.
    pub cost: Vec<f32>,
    /// For each cell, the neighbour one step nearer a goal (`u32::MAX` at a
    /// goal or where none can be reached).
    pub next: Vec<u32>,
}

impl Field {
    /// The cost from `cell` to the nearest goal, if one can be reached.
    pub fn cost_at(&self, cell: CellIndex) -> Option<f64> {
        let cost = *self.cost.get(cell)?;
        cost.is_finite().then_some(cost as f64)
    }

    /// The cells from `cell` down to the nearest goal, both included.
    pub fn path_from(&self, cell: CellIndex) -> Option<Vec<CellIndex>> {
        self.cost_at(cell)?;
        let mut path = vec![cell];
        let mut at = cell;
        while let Some(&next) = self.next.get(at) {
            if next == u32::MAX || path.len() > self.next.len() {
                break;
            }
            at = next as usize;
            path.push(at);
        }
        Some(path)
    }
}

/// Priority-queue entry: a cost's bits above the cell index. Costs are
/// never negative, so their bit patterns order like the numbers; the cell
/// index breaks ties deterministically (the order of the pair
/// `(cost bits, cell)`, packed in one integer to compare quickly).
type Entry = Reverse<u64>;

fn entry(cost: f32, cell: usize) -> Entry {
    Reverse((u64::from(cost.to_bits()) << 32) | cell as u64)
}

fn entry_cell(entry: Entry) -> usize {
    (entry.0 & u64::from(u32::MAX)) as usize
}

impl Battlefield {
    fn step_cost(&self, multipliers: &[f32], from: usize, to: usize, length: f32) -> f32 {
        let mut cost = length * 0.5 * (multipliers[from] + multipliers[to]);
        if self.grid.ground[to] > self.grid.ground[from] + 1e-4 {
            cost /= self.ruleset.uphill_speed as f32;
        }
        cost
    }

    /// The cheapest route for `troop` from `from` to `to`, avoiding cells in
    /// `blocked` (other units) and ground the troop type cannot enter; the
    /// cell the unit starts in is always allowed. `None` if `to` is off the
    /// table, impassable, blocked or cut off.
    pub fn route(
        &self,
        troop: TroopTypeId,
        from: Point,
        to: Point,
        blocked: &CellSet,
    ) -> Option<Route> {
        self.route_within(troop, from, to, blocked, f64::INFINITY)
    }

    /// [`Battlefield::route`] with legs worked out only as far as a cost of
    /// `limit`: `route_within(.., limit).clip(limit)` is exactly
    /// `route(..).clip(limit)`, without pulling the string beyond this bound.
    pub fn route_within(
        &self,
        troop: TroopTypeId,
        from: Point,
        to: Point,
        blocked: &CellSet,
        limit: f64,
    ) -> Option<Route> {
        let cells = self.cell_path(troop, from, to, blocked)?;
        Some(self.route_through(troop, from, to, &cells, blocked, limit))
    }

    /// The cheapest cell-by-cell path for `troop` from `from` to `to`
    /// (A* over the petgraph graph), without turning it into legs.
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
        let open = blocked.words.iter().all(|&word| word == 0);
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
    fn search_path(
        &self,
        category: usize,
        source: CellIndex,
        goal: CellIndex,
        blocked: &CellSet,
    ) -> Option<Vec<CellIndex>> {
        let multipliers = &self.multipliers[category];
        // The graph's nodes this troop may enter, its start and passable
        // cells nobody stands on, are those `Search::start` leaves open.
        let cheapest = self.cheapest[category];
        let distance_to_goal = self.centre_distance_to(goal);
        let estimate = |cell: usize| (distance_to_goal(cell) as f32) * cheapest * 0.999;
        let (ground, uphill) = (&self.grid.ground, self.ruleset.uphill_speed as f32);
        SEARCH.with_borrow_mut(|search| {
            // A goal that cannot be reached would have the search visit
            // every cell it can reach, often most of the table; where the
            // goal is shut in a small space (among units), a small flood
            // from it says so first.
            search.start(self.grid.len(), &self.impassable[category], blocked, source);
            if self.cut_off(search, source, goal, CUT_OFF_BUDGET) {
                return None;
            }
            search.start(self.grid.len(), &self.impassable[category], blocked, source);
            let source_estimate = search.set(source, 0.0, u32::MAX, estimate);
            search.heap.push(entry(source_estimate, source));
            // Only the start and cells whose bit was clear are pushed, and
            // a cell's bit is set when it is finished: a popped cell with
            // its bit set was finished before.
            while let Some(popped) = search.heap.pop() {
                let cell = entry_cell(popped);
                if search.closed(cell) {
                    continue;
                }
                search.close(cell);
                if cell == goal {
                    break;
                }
                let cost_here = search.cost(cell);
                // `step_cost`'s terms for this cell, worked out once.
                let (multiplier_here, climb_above) = (multipliers[cell], ground[cell] + 1e-4);
                for edge in self.graph().edges(cell as u32) {
                    let next = edge.target() as usize;
                    if search.closed(next) {
                        continue;
                    }
                    // `step_cost(multipliers, cell, next, length)`, term for term.
                    let mut step = *edge.weight() * 0.5 * (multiplier_here + multipliers[next]);
                    if ground[next] > climb_above {
                        step /= uphill;
                    }
                    let candidate = cost_here + step;
                    if candidate < search.cost(next) {
                        let to_goal = search.set(next, candidate, cell as u32, estimate);
                        search.heap.push(entry(candidate + to_goal, next));
                    }
                }
            }
            if !search.cost(goal).is_finite() {
                return None;
            }
            let mut cells = vec![goal];
            let mut at = goal;
            while at != source {
                at = search.previous(at) as usize;
                cells.push(at);
            }
            cells.reverse();
            Some(cells)
        })
    }

    /// Whether `goal` surely cannot be reached from `source`, on a
    /// [`Search`] just started (the cells it may not enter closed): the
    /// cells reachable from the goal, flooded at most `budget` of them, run
    /// out without meeting the source. The grid's edges come in pairs, so
    /// the goal reaches the source exactly when the source reaches the
    /// goal. It leaves the search's closed cells to be started again.
    fn cut_off(&self, search: &mut Search, source: usize, goal: usize, budget: usize) -> bool {
        if source == goal {
            return false;
        }
        search.queue.clear();
        search.queue.push(goal as u32);
        search.close(goal);
        let mut at = 0;
        while let Some(&cell) = search.queue.get(at) {
            at += 1;
            if at > budget {
                return false;
            }
            for edge in self.graph().edges(cell) {
                let next = edge.target();
                if next as usize == source {
                    return false;
                }
                if !search.closed(next as usize) {
                    search.close(next as usize);
                    search.queue.push(next);
                }
            }
        }
        true
    }

    /// The cost from every cell to the nearest cell of `goals` for `troop`
    /// (multi-source Dijkstra, searching back from the goals), avoiding
    /// `blocked` cells and ground the troop cannot enter.
    pub fn distance_field(
        &self,
        troop: TroopTypeId,
        goals: &[CellIndex],
        blocked: &CellSet,
    ) -> Field {
        let category = self.category(troop).index();
        let multipliers = &self.multipliers[category];
        let (ground, uphill) = (&self.grid.ground, self.ruleset.uphill_speed as f32);
        let n_cells = self.grid.len();
        let mut cost = vec![f32::INFINITY; n_cells];
        let mut next = vec![u32::MAX; n_cells];
        let mut heap: BinaryHeap<Entry> = BinaryHeap::new();
        // One bit per cell: ground the troop cannot enter, cells other units
        // stand on, and cells already finished; the graph's nodes this troop
        // may enter are those whose bit is clear at the start.
        let mut closed = self.impassable[category].words.clone();
        for (word, &bits) in closed.iter_mut().zip(&blocked.words) {
            *word |= bits;
        }
        let is_closed =
            |closed: &[u64], cell: usize| closed[cell / 64] & (1u64 << (cell % 64)) != 0;
        for &goal in goals {
            if goal < n_cells && !is_closed(&closed, goal) {
                cost[goal] = 0.0;
                heap.push(entry(0.0, goal));
            }
        }
        // Only cells whose bit was clear are pushed, and a cell's bit is set
        // when it is finished: a popped cell with its bit set was finished.
        while let Some(popped) = heap.pop() {
            let cell = entry_cell(popped);
            if is_closed(&closed, cell) {
                continue;
            }
            closed[cell / 64] |= 1u64 << (cell % 64);
            // The grid's edges come in pairs, so a cell's out-neighbours are
            // also the cells that can step into it; price the inbound step,
            // `step_cost(multipliers, neighbour, cell, length)` term for term.
            let cost_here = cost[cell];
            let (multiplier_here, ground_here) = (multipliers[cell], ground[cell]);
            for edge in self.graph().edges(cell as u32) {
                let neighbour = edge.target() as usize;
                if is_closed(&closed, neighbour) {
                    continue;
                }
                let mut step = *edge.weight() * 0.5 * (multipliers[neighbour] + multiplier_here);
                if ground_here > ground[neighbour] + 1e-4 {
                    step /= uphill;
                }
                let candidate = cost_here + step;
                if candidate < cost[neighbour] {
                    cost[neighbour] = candidate;
                    next[neighbour] = cell as u32;
                    heap.push(entry(candidate, neighbour));
                }
            }
        }
        Field { troop, cost, next }
    }

    /// The route from `from` down a distance field to its nearest goal.
    pub fn route_down(&self, field: &Field, from: Point, blocked: &CellSet) -> Option<Route> {
        self.route_down_within(field, from, blocked, f64::INFINITY)
    }

    /// [`Battlefield::route_down`] with legs only as far as a cost of
    /// `limit`, as [`Battlefield::route_within`].
    pub fn route_down_within(
        &self,
        field: &Field,
        from: Point,
        blocked: &CellSet,
        limit: f64,
    ) -> Option<Route> {
        let start = self.grid.cell_at(from)?;
        let cells = field.path_from(start)?;
        let end = self.grid.centre(*cells.last()?);
        Some(self.route_through(field.troop, from, end, &cells, blocked, limit))
    }

    /// Turn a cell path into a route with legal legs, stopping at the first
    /// leg that would start at a cost of `limit` or more ([`Route::clip`]
    /// drops such legs; each leg depends only on those before it).
    fn route_through(
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
    fn segment_cost_estimate(
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
    fn segment_quick(
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

    /// The radius of the square of cells around `cell` that string pulling
    /// may count samples in without visiting them: at most
    /// [`uniform_radii`]'s, at most 31, and small enough to hold no cell of
    /// `blocked`. `squares` remembers it for the rest of the route.
    #[inline]
    fn square_radius(
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
    fn square_samples(
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

    /// The cost of moving straight from `a` to `b`, or `None` if the line
    /// crosses ground the category cannot enter or a blocked cell.
    fn segment_cost(
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

#[cfg(test)]
mod tests {
    use super::super::tests::{guilford, p, table};
    use super::super::{Edge, Shape};
    use super::*;

    fn infantry(field: &Battlefield) -> TroopTypeId {
        field.ruleset.troop_type("british-regulars").unwrap()
    }

    #[test]
    fn open_ground_is_one_straight_leg() {
        let field = table(24.0, 24.0, &[]);
        let route = field
            .route(
                infantry(&field),
                p(2.0, 2.0),
                p(20.0, 14.0),
                &CellSet::none(),
            )
            .unwrap();
        assert_eq!(route.legs.len(), 1, "{:?}", route.legs);
        let straight = p(2.0, 2.0).distance(p(20.0, 14.0));
        assert!(
            (route.cost() - straight).abs() < 0.01,
            "{} vs {straight}",
            route.cost()
        );
        assert_eq!(route.bounds(6.0), 4);
    }

    #[test]
    fn routes_go_round_a_lake() {
        let field = table(
            24.0,
            24.0,
            &[(
                "lake",
                Shape::Circle {
                    centre: p(12.0, 12.0),
                    radius: 5.0,
                },
                0.0,
            )],
        );
        let route = field
            .route(
                infantry(&field),
                p(2.0, 12.0),
                p(22.0, 12.0),
                &CellSet::none(),
            )
            .unwrap();
        let lake = Shape::Circle {
            centre: p(12.0, 12.0),
            radius: 5.0,
        };
        for leg in route.legs() {
            for w in 0..=20 {
                assert!(
                    !lake.contains(leg.start().lerp(leg.end(), w as f64 / 20.0)),
                    "leg {leg:?} wets its feet"
                );
            }
        }
        assert!(route.legs.len() >= 2);
        assert!(
            route.cost() > 20.0 && route.cost() < 26.0,
            "{}",
            route.cost()
        );
    }

    #[test]
    fn rivers_are_crossed_at_the_ford() {
        let field = table(
            24.0,
            24.0,
            &[
                (
                    "river",
                    Shape::Line {
                        points: vec![p(0.0, 12.0), p(24.0, 12.0)],
                        width: 1.0,
                    },
                    0.0,
                ),
                (
                    "ford",
                    Shape::Rect {
                        min: p(19.0, 11.0),
                        max: p(21.0, 13.0),
                    },
                    0.0,
                ),
            ],
        );
        let troop = infantry(&field);
        let route = field
            .route(troop, p(4.0, 4.0), p(4.0, 20.0), &CellSet::none())
            .unwrap();
        let crosses_at_ford = route
            .waypoints
            .iter()
            .any(|w| (w.point.y - 12.0).abs() < 0.6 && w.point.x > 18.9 && w.point.x < 21.1);
        assert!(crosses_at_ford, "{:?}", route.legs);
        // Without the ford nobody crosses.
        let dry = table(
            24.0,
            24.0,
            &[(
                "river",
                Shape::Line {
                    points: vec![p(0.0, 12.0), p(24.0, 12.0)],
                    width: 0.3,
                },
                0.0,
            )],
        );
        assert!(
            dry.route(troop, p(4.0, 4.0), p(4.0, 20.0), &CellSet::none())
                .is_none()
        );
        // Not even along a diagonal river.
        let diagonal = table(
            24.0,
            24.0,
            &[(
                "river",
                Shape::Line {
                    points: vec![p(0.0, 0.0), p(24.0, 24.0)],
                    width: 0.1,
                },
                0.0,
            )],
        );
        assert!(
            diagonal
                .route(troop, p(18.0, 4.0), p(4.0, 18.0), &CellSet::none())
                .is_none()
        );
    }

    #[test]
    fn routes_prefer_a_road() {
        // A road that bends round woods: guns must keep to it; foot take it
        // because 9" a move on the road beats 3" a move in the woods.
        let road = Shape::Line {
            points: vec![
                p(12.0, 0.0),
                p(12.0, 8.0),
                p(16.0, 12.0),
                p(12.0, 16.0),
                p(12.0, 24.0),
            ],
            width: 1.0,
        };
        let field = table(
            24.0,
            24.0,
            &[
                (
                    "woods",
                    Shape::Rect {
                        min: p(0.0, 6.0),
                        max: p(24.0, 18.0),
                    },
                    0.0,
                ),
                ("road", road, 0.0),
            ],
        );
        let gun = field.ruleset.troop_type("artillery").unwrap();
        let route = field
            .route(gun, p(12.0, 1.0), p(12.0, 23.0), &CellSet::none())
            .unwrap();
        assert!(
            route
                .legs
                .iter()
                .any(|leg| leg.along_road && leg.points.len() > 2)
        );
        let foot = field
            .route(
                infantry(&field),
                p(12.0, 1.0),
                p(12.0, 23.0),
                &CellSet::none(),
            )
            .unwrap();
        assert!(foot.cost() < 22.0 * 6.0 / 9.0 * 1.3, "{}", foot.cost());
        // Along the road the 6" move reaches 9" of table.
        let clipped = foot.clip(6.0);
        assert!((clipped.length() - 9.0).abs() < 0.3, "{}", clipped.length());
    }

    #[test]
    fn clipping_to_the_allowance() {
        let field = table(24.0, 24.0, &[]);
        let route = field
            .route(
                infantry(&field),
                p(2.0, 2.0),
                p(2.0, 20.0),
                &CellSet::none(),
            )
            .unwrap();
        let clipped = route.clip(6.0);
        assert!((clipped.cost() - 6.0).abs() < 1e-6);
        assert!((clipped.end().y - 8.0).abs() < 1e-6, "{:?}", clipped.end());
        assert_eq!(route.clip(100.0), route);
        assert!(route.clip(0.0).legs.is_empty());
        // Half movement in woods: 6" of allowance is 3" of table.
        let woods = table(
            24.0,
            24.0,
            &[(
                "woods",
                Shape::Rect {
                    min: p(0.0, 0.0),
                    max: p(24.0, 24.0),
                },
                0.0,
            )],
        );
        let slow = woods
            .route(
                infantry(&woods),
                p(2.0, 2.0),
                p(2.0, 20.0),
                &CellSet::none(),
            )
            .unwrap();
        assert!((slow.clip(6.0).end().y - 5.0).abs() < 1e-6);
    }

    #[test]
    fn uphill_is_half_speed_downhill_is_not() {
        let field = table(
            24.0,
            24.0,
            &[(
                "hill",
                Shape::Rect {
                    min: p(0.0, 12.0),
                    max: p(24.0, 36.0),
                },
                3.0,
            )],
        );
        let troop = infantry(&field);
        let up = field
            .route(troop, p(12.0, 12.5), p(12.0, 20.0), &CellSet::none())
            .unwrap();
        let down = field
            .route(troop, p(12.0, 20.0), p(12.0, 12.5), &CellSet::none())
            .unwrap();
        assert!(
            up.cost() > 1.8 * down.cost(),
            "up {} down {}",
            up.cost(),
            down.cost()
        );
    }

    #[test]
    fn blocked_cells_are_avoided_and_fields_find_the_edge() {
        let field = table(24.0, 24.0, &[]);
        let troop = infantry(&field);
        let wall_of_units = super::super::Base::new(p(12.0, 12.0), 0.0, 20.0, 2.0);
        let blocked = field.occupied([&wall_of_units]);
        let route = field
            .route(troop, p(12.0, 4.0), p(12.0, 20.0), &blocked)
            .unwrap();
        assert!(route.cost() > 17.0, "{}", route.cost());
        let home = field.distance_field(troop, &field.edge_cells(Edge::South), &CellSet::none());
        let cell = field.grid.cell_at(p(5.0, 10.0)).unwrap();
        assert!((home.cost_at(cell).unwrap() - 10.0).abs() < 0.01);
        let back = field
            .route_down(&home, p(5.0, 10.0), &CellSet::none())
            .unwrap();
        assert!(back.end().y < 0.5);
    }

    /// `uniform_radii` by brute force: one less than the Chebyshev distance
    /// to the nearest cell with another multiplier or height, or
    /// impassable; 0 on impassable cells.
    fn uniform_radii_plain(field: &Battlefield, category: usize) -> Vec<u16> {
        let grid = &field.grid;
        let multipliers = &field.multipliers[category];
        let label = |cell: usize| {
            multipliers[cell]
                .is_finite()
                .then(|| (multipliers[cell].to_bits(), grid.ground[cell].to_bits()))
        };
        (0..grid.len())
            .map(|cell| {
                if label(cell).is_none() {
                    return 0;
                }
                let (x, y) = (cell % grid.width, cell / grid.width);
                let nearest = (0..grid.len())
                    .filter(|&other| label(other) != label(cell))
                    .map(|other| {
                        let (ox, oy) = (other % grid.width, other / grid.width);
                        ox.abs_diff(x).max(oy.abs_diff(y))
                    })
                    .min();
                nearest.map_or(u16::MAX - 1, |d| (d - 1) as u16)
            })
            .collect()
    }

    #[test]
    fn uniform_radii_match_the_brute_force_ones() {
        let hill = Shape::Circle {
            centre: p(6.0, 14.0),
            radius: 4.0,
        };
        let lake = Shape::Circle {
            centre: p(16.0, 6.0),
            radius: 2.5,
        };
        let woods = Shape::Rect {
            min: p(1.0, 1.0),
            max: p(9.0, 5.5),
        };
        let road = Shape::Line {
            points: vec![p(0.0, 9.0), p(20.0, 11.0)],
            width: 1.0,
        };
        let field = table(
            20.0,
            18.0,
            &[
                ("hill", hill, 2.0),
                ("lake", lake, 0.0),
                ("woods", woods, 0.0),
                ("road", road, 0.0),
            ],
        );
        for category in 0..5 {
            assert_eq!(
                field.uniform(category),
                &uniform_radii_plain(&field, category)[..],
                "category {category}"
            );
        }
        // Open ground only: nothing differs anywhere.
        let open = table(5.0, 4.0, &[]);
        assert!(open.uniform(0).iter().all(|&r| r == u16::MAX - 1));
    }

    /// `route_through` as it was: every extension of a leg tested by
    /// walking its whole line (the estimate, measured near the limit).
    fn route_through_plain(
        field: &Battlefield,
        troop: TroopTypeId,
        from: Point,
        to: Point,
        cells: &[CellIndex],
        blocked: &CellSet,
        limit: f64,
    ) -> Route {
        let category = field.category(troop).index();
        let multipliers = &field.multipliers[category];
        let mut waypoints = Vec::with_capacity(cells.len());
        let mut total = 0.0f64;
        for (index, &cell) in cells.iter().enumerate() {
            let point = if index == 0 {
                from
            } else if index + 1 == cells.len() {
                to
            } else {
                field.grid.centre(cell)
            };
            if index > 0 {
                let previous = waypoints.last().map_or(from, |w: &Waypoint| w.point);
                total += field.step_cost(
                    multipliers,
                    cells[index - 1],
                    cell,
                    previous.distance(point) as f32,
                ) as f64;
            }
            waypoints.push(Waypoint { point, cost: total });
        }
        let start_cell = cells[0];
        let road: Vec<bool> = cells.iter().map(|&c| field.on_road(c)).collect();
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
            let mut end_cost = field
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
                let Some(estimate) =
                    field.segment_cost_estimate(category, a, b, start_cell, blocked)
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
                match field.segment_cost(category, a, b, start_cell, blocked) {
                    Some(straight) if straight <= limit => {
                        end += 1;
                        end_cost = straight;
                        measured = true;
                    }
                    _ => break,
                }
            }
            if !measured {
                end_cost = field
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
        Route {
            troop,
            waypoints,
            legs,
        }
    }

    /// `cell_path` as it was: A* through petgraph's `NodeFiltered` view of
    /// the graph, with fresh arrays and a heap of pairs.
    fn cell_path_through_petgraph(
        field: &Battlefield,
        troop: TroopTypeId,
        from: Point,
        to: Point,
        blocked: &CellSet,
    ) -> Option<Vec<CellIndex>> {
        use petgraph::visit::{EdgeRef, IntoEdges, NodeFiltered};
        let source = field.grid.cell_at(from)?;
        let goal = field.grid.cell_at(to)?;
        let category = field.category(troop).index();
        let multipliers = &field.multipliers[category];
        if !multipliers[goal].is_finite() || (blocked.contains(goal) && goal != source) {
            return None;
        }
        let filtered = NodeFiltered::from_fn(field.graph(), |node: u32| {
            let cell = node as usize;
            cell == source || (multipliers[cell].is_finite() && !blocked.contains(cell))
        });
        let cheapest = field.cheapest[category];
        let goal_centre = field.grid.centre(goal);
        let estimate =
            |cell: usize| (field.grid.centre(cell).distance(goal_centre) as f32) * cheapest * 0.999;
        let n = field.grid.len();
        let (mut cost, mut previous, mut done) =
            (vec![f32::INFINITY; n], vec![u32::MAX; n], vec![false; n]);
        let mut heap = BinaryHeap::new();
        cost[source] = 0.0;
        heap.push(Reverse((estimate(source).to_bits(), source as u32)));
        while let Some(Reverse((_, cell))) = heap.pop() {
            let cell = cell as usize;
            if done[cell] {
                continue;
            }
            done[cell] = true;
            if cell == goal {
                break;
            }
            for edge in (&filtered).edges(cell as u32) {
                let next = edge.target() as usize;
                if done[next] {
                    continue;
                }
                let candidate =
                    cost[cell] + field.step_cost(multipliers, cell, next, *edge.weight());
                if candidate < cost[next] {
                    cost[next] = candidate;
                    previous[next] = cell as u32;
                    heap.push(Reverse((
                        (candidate + estimate(next)).to_bits(),
                        next as u32,
                    )));
                }
            }
        }
        if !cost[goal].is_finite() {
            return None;
        }
        let mut cells = vec![goal];
        let mut at = goal;
        while at != source {
            at = previous[at] as usize;
            cells.push(at);
        }
        cells.reverse();
        Some(cells)
    }

    /// `distance_field` as it was, through petgraph's `NodeFiltered`.
    fn distance_field_through_petgraph(
        field: &Battlefield,
        troop: TroopTypeId,
        goals: &[CellIndex],
        blocked: &CellSet,
    ) -> Field {
        use petgraph::visit::{EdgeRef, IntoEdges, NodeFiltered};
        let category = field.category(troop).index();
        let multipliers = &field.multipliers[category];
        let n_cells = field.grid.len();
        let mut cost = vec![f32::INFINITY; n_cells];
        let mut next = vec![u32::MAX; n_cells];
        let mut done = vec![false; n_cells];
        let mut heap = BinaryHeap::new();
        let filtered = NodeFiltered::from_fn(field.graph(), |node: u32| {
            let cell = node as usize;
            multipliers[cell].is_finite() && !blocked.contains(cell)
        });
        for &goal in goals {
            if goal < n_cells && multipliers[goal].is_finite() && !blocked.contains(goal) {
                cost[goal] = 0.0;
                heap.push(Reverse((0, goal as u32)));
            }
        }
        while let Some(Reverse((_, cell))) = heap.pop() {
            let cell = cell as usize;
            if done[cell] {
                continue;
            }
            done[cell] = true;
            for edge in (&filtered).edges(cell as u32) {
                let neighbour = edge.target() as usize;
                if done[neighbour] {
                    continue;
                }
                let candidate =
                    cost[cell] + field.step_cost(multipliers, neighbour, cell, *edge.weight());
                if candidate < cost[neighbour] {
                    cost[neighbour] = candidate;
                    next[neighbour] = cell as u32;
                    heap.push(Reverse((candidate.to_bits(), neighbour as u32)));
                }
            }
        }
        Field { troop, cost, next }
    }

    /// A run of cells inserted at once is the cells inserted one by one,
    /// across word boundaries and past the set's end.
    #[test]
    fn spans_insert_the_cells_one_by_one_would() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        for _ in 0..2000 {
            let n_cells = rng.random_range(1..400);
            let (mut spans, mut cells) = (CellSet::new(n_cells), CellSet::new(n_cells));
            for _ in 0..rng.random_range(0..6) {
                let first = rng.random_range(0..n_cells + 70);
                let len = rng.random_range(0..200);
                spans.insert_span(first, len);
                (first..first + len).for_each(|cell| cells.insert(cell));
            }
            assert_eq!(spans, cells);
        }
    }

    /// A goal shut in by blocked cells, or a start shut in, or a goal whose
    /// shut space holds the start: the search answers as the plain one
    /// does (no route, or the route inside), however small the space.
    #[test]
    fn goals_shut_in_are_found_unreachable_as_before() {
        let field = table(24.0, 24.0, &[]);
        let troop = infantry(&field);
        let width = field.grid.width;
        let ring = |cx: usize, cy: usize, r: usize| {
            let mut set = CellSet::new(field.grid.len());
            for y in cy - r..=cy + r {
                for x in cx - r..=cx + r {
                    if x.abs_diff(cx) == r || y.abs_diff(cy) == r {
                        set.insert(y * width + x);
                    }
                }
            }
            set
        };
        let centre = |x: usize, y: usize| field.grid.centre(y * width + x);
        let cases = [
            (ring(20, 20, 3), centre(5, 5), centre(20, 20)),
            (ring(20, 20, 3), centre(20, 20), centre(5, 5)),
            (ring(20, 20, 3), centre(21, 19), centre(20, 20)),
            (ring(20, 20, 1), centre(20, 20), centre(20, 20)),
            (ring(20, 20, 12), centre(40, 40), centre(20, 20)),
            (ring(24, 24, 20), centre(3, 3), centre(24, 24)),
        ];
        for (blocked, from, to) in cases {
            assert_eq!(
                field.cell_path(troop, from, to, &blocked),
                cell_path_through_petgraph(&field, troop, from, to, &blocked),
                "{from:?} to {to:?}"
            );
        }
        assert_eq!(
            field.cell_path(troop, centre(5, 5), centre(20, 20), &ring(20, 20, 3)),
            None
        );
    }

    /// `cover` and `column` read a cell's kinds without listing them, and
    /// answer as the list would, on every cell of the Guilford table.
    #[test]
    fn cover_and_column_answer_as_the_kinds_listed() {
        let field = guilford();
        let (grid, ruleset) = (&field.grid, &field.ruleset);
        let mut covered = 0;
        for cell in 0..grid.len() {
            let kinds = grid.kinds_at(ruleset, cell);
            let cover = kinds.iter().any(|k| ruleset.kind(*k).cover);
            assert_eq!(grid.cover(ruleset, cell), cover, "cell {cell}");
            let column = kinds.iter().map(|k| ruleset.kind(*k).column).max();
            assert_eq!(Some(grid.column(ruleset, cell)), column, "cell {cell}");
            covered += usize::from(cover);
        }
        assert!(covered > 0 && covered < grid.len());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// Walking the grid's neighbours directly finds the same paths and
        /// fields, cell for cell and bit for bit.
        #[test]
        fn searches_match_the_petgraph_versions(
            troop_pick in 0usize..3,
            from in (0.0f64..48.0, 0.0f64..48.0),
            to in (0.0f64..48.0, 0.0f64..48.0),
            units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..8),
            edge_pick in 0usize..4,
        ) {
            thread_local! {
                static FIELD: Battlefield = guilford();
            }
            FIELD.with(|field| {
                let troop = field
                    .ruleset
                    .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                    .unwrap();
                let bases: Vec<_> = units
                    .iter()
                    .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                    .collect();
                let blocked = field.occupied(&bases);
                let (from, to) = (p(from.0, from.1), p(to.0, to.1));
                for set in [&blocked, &CellSet::none()] {
                    proptest::prop_assert_eq!(
                        field.cell_path(troop, from, to, set),
                        cell_path_through_petgraph(field, troop, from, to, set)
                    );
                }
                let goals = field.edge_cells(Edge::ALL[edge_pick]);
                let ours = field.distance_field(troop, &goals, &blocked);
                let theirs = distance_field_through_petgraph(field, troop, &goals, &blocked);
                proptest::prop_assert_eq!(&ours.next, &theirs.next);
                let bits = |f: &Field| f.cost.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
                proptest::prop_assert_eq!(bits(&ours), bits(&theirs));
                Ok(())
            })?;
        }

        /// Routes, legs and costs are bit for bit those of pulling the
        /// string by walking every line, for any limit.
        #[test]
        fn routes_match_the_plain_string_pulling(
            troop_pick in 0usize..3,
            from in (0.0f64..48.0, 0.0f64..48.0),
            to in (0.0f64..48.0, 0.0f64..48.0),
            units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..12),
            limit_pick in 0usize..4,
            edge_pick in 0usize..4,
        ) {
            thread_local! {
                static FIELD: Battlefield = guilford();
            }
            FIELD.with(|field| {
                let troop = field
                    .ruleset
                    .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                    .unwrap();
                let bases: Vec<_> = units
                    .iter()
                    .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                    .collect();
                let blocked = field.occupied(&bases);
                let (from, to) = (p(from.0, from.1), p(to.0, to.1));
                let limit = [f64::INFINITY, 5.82, 11.64, 0.5][limit_pick];
                let bits = |route: &Option<Route>| format!("{route:?}");
                for set in [&blocked, &CellSet::none()] {
                    let ours = field.route_within(troop, from, to, set, limit);
                    let theirs = field
                        .cell_path(troop, from, to, set)
                        .map(|cells| route_through_plain(field, troop, from, to, &cells, set, limit));
                    proptest::prop_assert_eq!(bits(&ours), bits(&theirs));
                }
                // Down a distance field, as units falling back go.
                let goals = field.edge_cells(Edge::ALL[edge_pick]);
                let home = field.distance_field(troop, &goals, &CellSet::none());
                let ours = field.route_down_within(&home, from, &blocked, limit);
                let theirs = field.grid.cell_at(from).and_then(|start| {
                    let cells = home.path_from(start)?;
                    let end = field.grid.centre(*cells.last()?);
                    Some(route_through_plain(field, troop, from, end, &cells, &blocked, limit))
                });
                proptest::prop_assert_eq!(bits(&ours), bits(&theirs));
                Ok(())
            })?;
        }

        /// `segment_quick` says `Within` only when the estimate with its
        /// error is within the limit, and `Impassable` only when the
        /// estimate is `None`, with limits a hair either side of it.
        #[test]
        fn quick_segment_answers_agree_with_the_estimate(
            troop_pick in 0usize..3,
            from in (0.0f64..48.0, 0.0f64..48.0),
            to in (0.0f64..48.0, 0.0f64..48.0),
            units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..8),
            nudge in -2000i32..2000,
        ) {
            thread_local! {
                static FIELD: Battlefield = guilford();
            }
            FIELD.with(|field| {
                let troop = field
                    .ruleset
                    .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                    .unwrap();
                let category = field.category(troop).index();
                let bases: Vec<_> = units
                    .iter()
                    .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                    .collect();
                let blocked = field.occupied(&bases);
                let (from, to) = (p(from.0, from.1), p(to.0, to.1));
                let start = field.grid.cell_at(from).unwrap();
                for set in [&blocked, &CellSet::none()] {
                    let estimate = field.segment_cost_estimate(category, from, to, start, set);
                    let error = |e: f64| e * SEGMENT_ESTIMATE_ERROR + SEGMENT_ESTIMATE_ERROR;
                    // Limits around the estimate with its error, 1e-13 apart,
                    // and the largest that the estimate is not within.
                    let edge = estimate.map(|e| e + error(e)).filter(|e| e.is_finite() && *e > 0.0);
                    let limits = [
                        edge.map_or(10.0, |e| e * (1.0 + f64::from(nudge) * 1e-13)),
                        edge.map_or(10.0, |e| f64::from_bits(e.to_bits() - 1)),
                    ];
                    for limit in limits {
                        let mut squares = Squares::default();
                        squares.start(field.grid.len());
                        let quick =
                            field.segment_quick(category, from, to, start, set, limit, &mut squares);
                        match quick {
                            Quick::Within => {
                                let e = estimate.unwrap();
                                proptest::prop_assert!(e + error(e) <= limit);
                            }
                            Quick::Impassable => proptest::prop_assert!(estimate.is_none()),
                            Quick::Unsure => {}
                        }
                    }
                    // Far from the limit the quick answer is always sure.
                    if let Some(e) = estimate {
                        let roomy = (e + error(e)) * 1.001 + 1e-6;
                        let mut squares = Squares::default();
                        squares.start(field.grid.len());
                        let quick = field.segment_quick(category, from, to, start, set, roomy, &mut squares);
                        if e.is_finite() {
                            proptest::prop_assert_eq!(quick, Quick::Within);
                        }
                    } else {
                        let mut squares = Squares::default();
                        squares.start(field.grid.len());
                        let quick = field.segment_quick(category, from, to, start, set, 10.0, &mut squares);
                        proptest::prop_assert_eq!(quick, Quick::Impassable);
                    }
                }
                Ok(())
            })?;
        }

        /// The string-pulling estimate of a straight line's cost is
        /// impassable exactly when the measured cost is, and otherwise
        /// within a thousandth of the error bound string pulling allows it.
        #[test]
        fn segment_estimates_are_within_their_error_bound(
            troop_pick in 0usize..3,
            from in (0.0f64..48.0, 0.0f64..48.0),
            to in (0.0f64..48.0, 0.0f64..48.0),
            units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..8),
        ) {
            thread_local! {
                static FIELD: Battlefield = guilford();
            }
            FIELD.with(|field| {
                let troop = field
                    .ruleset
                    .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                    .unwrap();
                let category = field.category(troop).index();
                let bases: Vec<_> = units
                    .iter()
                    .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                    .collect();
                let blocked = field.occupied(&bases);
                let (from, to) = (p(from.0, from.1), p(to.0, to.1));
                let start = field.grid.cell_at(from).unwrap();
                for set in [&blocked, &CellSet::none()] {
                    let exact = field.segment_cost(category, from, to, start, set);
                    let estimate = field.segment_cost_estimate(category, from, to, start, set);
                    proptest::prop_assert_eq!(exact.is_some(), estimate.is_some());
                    if let (Some(exact), Some(estimate)) = (exact, estimate) {
                        if !exact.is_finite() {
                            // Starting in ground it cannot enter.
                            proptest::prop_assert_eq!(exact, estimate);
                            continue;
                        }
                        let bound = (exact * SEGMENT_ESTIMATE_ERROR + SEGMENT_ESTIMATE_ERROR) * 1e-3;
                        proptest::prop_assert!(
                            (exact - estimate).abs() <= bound,
                            "{} vs {}",
                            exact,
                            estimate
                        );
                    }
                }
                Ok(())
            })?;
        }
    }
}
