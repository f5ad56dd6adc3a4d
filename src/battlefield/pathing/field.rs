//! Multi-source distance fields ("how far to cover", "how far to my own
//! edge") and routes down them to the nearest goal.

use super::cells::CellSet;
use super::route::Route;
use super::search::{Entry, entry, entry_cell};
use crate::battlefield::geometry::Point;
use crate::battlefield::{Battlefield, CellIndex};
use crate::ruleset::TroopTypeId;
use petgraph::visit::EdgeRef;
use std::collections::BinaryHeap;

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

impl Battlefield {
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
        for (word, &bits) in closed.iter_mut().zip(blocked.resolved().iter()) {
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
}
