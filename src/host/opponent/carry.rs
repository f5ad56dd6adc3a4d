//! What an order's instruction asks of a unit, whatever the engine (ruling
//! HO13): how far it moves, which way (towards the enemy, the front, the
//! nearest cover or its own rear), and the points a withdrawal may end at.
//! Each engine's carrying-out (`rv_orders`, `acw_orders`) turns these
//! into its own actions and checks each with its rules.
//!
//! Pure geometry over the battlefield: no engine, no dice.

use crate::battlefield::geometry::Vector;
use crate::battlefield::{Battlefield, Point};
use crate::reaction::Outcome;
use crate::tables::{Column, Condition, Fire, Order, Tables, Towards};

/// Bearings off a unit's rear that a withdrawal tries, straight back first.
pub(super) const REAR_FAN: [f64; 5] = [0.0, -30.0, 30.0, -60.0, 60.0];

/// Bearings off a unit's rear that it looks for cover on: the rear half
/// only, since cover towards the enemy is no refuge (ruling O8).
const COVER_FAN: [f64; 9] = [0.0, -22.5, 22.5, -45.0, 45.0, -67.5, 67.5, -90.0, 90.0];

/// Shares of a move a unit tries, longest first: the rules may refuse the
/// whole of it (ground, other units, seed 001's half speed backwards).
pub(super) const SHARES: [f64; 4] = [1.0, 0.75, 0.5, 0.25];

/// How far the instruction moves the unit, in inches: the order's share of
/// its class's normal move (`tables/orders.yaml`), capped at what its
/// engine allows it (ruling O9: no double time beyond the allowance).
pub(super) fn inches(outcome: &Outcome, allowance: f64) -> f64 {
    outcome.move_inches.min(allowance).max(0.0)
}

/// Whether the order falls back: withdraw, fire and withdraw, or rout.
pub fn falls_back(order: Order) -> bool {
    matches!(
        order,
        Order::FireAndWithdraw | Order::Withdraw | Order::Rout
    )
}

/// Whether the instruction moves the unit, and where it heads.
pub(super) fn heading(outcome: &Outcome) -> Option<Towards> {
    let instruction = &outcome.instruction;
    (instruction.moves.fraction() > 0.0)
        .then_some(instruction.towards)
        .flatten()
}

/// What the unit fires once it has moved, where its rules let it fire
/// after a move (seed 001): as its instruction says, except that a march
/// made because the enemy was out of musket range (a variant for
/// `out-of-range`) closes the range for the order's own fire, so a unit
/// that ends in reach fires as its order's default says ("advance and
/// fire", ruling HO13).
pub(super) fn fire_once_moved(tables: &Tables, outcome: &Outcome) -> Fire {
    let text = tables.orders.get(outcome.order);
    let out_of_range = text.variants.iter().any(|variant| {
        variant.when.contains(&Condition::OutOfRange)
            && variant.instruction() == outcome.instruction
    });
    if out_of_range {
        text.fire
    } else {
        outcome.instruction.fire
    }
}

/// How far a move from `from` to `to` went towards the rear at bearing
/// `rear` (positive: towards its own edge; negative: towards the enemy's
/// side of the table).
pub fn rearward(from: Point, to: Point, rear: f64) -> f64 {
    (to - from).dot(Vector::from_bearing(rear))
}

/// Whether the ground at `at` is cover (natural or hard).
pub(super) fn in_cover(field: &Battlefield, at: Point) -> bool {
    matches!(field.column_at(at), Column::Natural | Column::Hard)
}

/// Where a withdrawal from `from` may end: straight back towards bearing
/// `rear` and 30° and 60° either side, at each share of `inches`, in the
/// order to try them.
pub(super) fn rear_points(from: Point, rear: f64, inches: f64) -> Vec<Point> {
    let mut points = Vec::new();
    if inches <= 0.0 {
        return points;
    }
    for share in SHARES {
        for offset in REAR_FAN {
            points.push(from + Vector::from_bearing(rear + offset) * (inches * share));
        }
    }
    points
}

/// The points in cover within `inches` of `from` on the rear half of the
/// table (bearing `rear`, 90° either side), nearest first (then straighter
/// back first): where "withdraw to the nearest cover" may end. Empty when
/// no cover is in reach.
pub(super) fn cover_points(field: &Battlefield, from: Point, rear: f64, inches: f64) -> Vec<Point> {
    let mut points = Vec::new();
    if inches <= 0.0 {
        return points;
    }
    for share in [0.25, 0.5, 0.75, 1.0] {
        for offset in COVER_FAN {
            let to = from + Vector::from_bearing(rear + offset) * (inches * share);
            if field.on_table(to) && in_cover(field, to) {
                points.push(to);
            }
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_towards_the_own_edge_is_rearward_and_one_towards_the_enemy_is_not() {
        let from = Point::new(10.0, 10.0);
        let rear = 180.0;
        let back = from + Vector::from_bearing(rear) * 3.0;
        let forward = from + Vector::from_bearing(0.0) * 3.0;
        assert!((rearward(from, back, rear) - 3.0).abs() < 1e-9);
        assert!((rearward(from, forward, rear) + 3.0).abs() < 1e-9);
    }

    #[test]
    fn rear_points_go_back_straight_first_and_never_forward() {
        let from = Point::new(20.0, 20.0);
        let points = rear_points(from, 90.0, 4.0);
        assert_eq!(points.len(), 20);
        let first = points[0];
        assert!((rearward(from, first, 90.0) - 4.0).abs() < 1e-9);
        for to in points {
            assert!(rearward(from, to, 90.0) > 0.0, "{to:?}");
        }
        assert!(rear_points(from, 90.0, 0.0).is_empty());
    }
}
