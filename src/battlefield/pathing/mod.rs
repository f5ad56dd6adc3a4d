//! Routes and distance fields over the battlefield's petgraph graph.
//!
//! The graph ([`super::CellGraph`], a `Csr` with one node per cell) is built
//! once per table. Searches walk its edges (a cell's eight neighbours, with
//! their lengths; the route search finds them from the grid by index
//! arithmetic, the same edges in the same order, which tests check against
//! the graph's own), skipping the cells a troop type cannot enter and the
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
//!
//! A route's cell path is defined by the costs alone: each step is priced
//! in whole units of 1/1024" (rounded up), so that sums are exact and ties
//! real, and of several cheapest paths the one walked back from the goal
//! by the first neighbour in the graph's order on a cheapest way is taken
//! (`search::canonical_walk`). The search's estimate of the cost still to
//! go is the bound the table's guide cells give (`guides`: each cell's cost
//! from each corner, worked out once per table and category); it changes
//! how much is searched, never what is found.
//!
//! The files: `cells` (sets of cells, those units stand on), `search` (the
//! A* search, its step price and what a thread keeps between searches),
//! `guides` (the guide cells' costs and the bound they give),
//! `queue` (the search's priority queue, buckets by cost that pop in
//! order of cost, ties in any order),
//! `regions` (whether two cells are joined over bare ground, by regions
//! labelled once), `legs` (string pulling: a cell path into legal legs), `squares` (the
//! squares of cells alike that string pulling counts rather than walks),
//! `route` (routes and legs, clipped to an allowance) and `field`
//! (distance fields and routes down them). This file holds the way in:
//! [`Battlefield::route`].

mod cells;
mod field;
mod guides;
mod legs;
mod queue;
mod regions;
mod route;
mod search;
mod squares;

#[cfg(test)]
mod tests;

pub(crate) use cells::Roster;
pub use cells::{CellSet, Spans};
pub use field::Field;
pub(super) use guides::{GUIDES, GuideCosts, guide_costs};
pub use route::{Leg, Route, Waypoint};
pub(super) use squares::uniform_radii;

use super::Battlefield;
use super::geometry::Point;
use crate::ruleset::TroopTypeId;

impl Battlefield {
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
}
