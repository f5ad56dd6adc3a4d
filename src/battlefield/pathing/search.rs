//! The A* search over the cell graph: the price of a step (its length ×
//! the mean of the two cells' terrain multipliers, doubled uphill), the
//! working arrays kept per thread, a goal shut in among units found
//! unreachable by a small flood from it first, and open-ground paths
//! remembered per thread (answers that cannot differ from searching
//! again).

use super::cells::CellSet;
use crate::battlefield::geometry::Point;
use crate::battlefield::{Battlefield, CellIndex};
use crate::ruleset::TroopTypeId;
use petgraph::visit::EdgeRef;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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

/// Priority-queue entry: a cost's bits above the cell index. Costs are
/// never negative, so their bit patterns order like the numbers; the cell
/// index breaks ties deterministically (the order of the pair
/// `(cost bits, cell)`, packed in one integer to compare quickly).
pub(super) type Entry = Reverse<u64>;

pub(super) fn entry(cost: f32, cell: usize) -> Entry {
    Reverse((u64::from(cost.to_bits()) << 32) | cell as u64)
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
}
