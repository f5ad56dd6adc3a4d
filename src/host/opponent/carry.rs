//! What an order's instruction asks of a unit, whatever the engine (ruling
//! HO13): how far it moves, which way (towards the enemy, the front, the
//! nearest cover, its own rear or the friend ahead it supports), the
//! points a withdrawal may end at, and which friend a unit is approaching
//! the rear of (ruling O5).
//! Each engine's carrying-out (`rv_orders`, `acw_orders`) turns these
//! into its own actions and checks each with its rules.
//!
//! Pure geometry over the battlefield: no engine, no dice.

use crate::battlefield::geometry::Vector;
use crate::battlefield::{Base, Battlefield, Point};
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

/// Why a unit stood in march column (or limbered) with the enemy in
/// sight after the bound of the order `outcome` gave it, by the name of
/// its count in [`crate::host::command::CONDUCT`]: it was told to deploy
/// and had no room (`no_room`, ruling HO13); its order kept its
/// formation (a withdrawal, or a variant that names no deployed one, as
/// seed 004 writes them, HO13); or none of these, which no ruling
/// explains. `charge_deploys`: the engine lets only a line charge, so a
/// charge at the enemy forms line first (seeds 001 and 002, HO13; seed
/// 000's units charge "whatever the formation").
pub fn kept_in_column(
    outcome: Option<&Outcome>,
    no_room: bool,
    charge_deploys: bool,
) -> &'static str {
    use crate::tables::Formation as F;
    if no_room {
        return "column-in-sight-no-room";
    }
    let Some(outcome) = outcome else {
        return "column-in-sight-kept";
    };
    let charges = charge_deploys
        && outcome.order == Order::Charge
        && heading(outcome) == Some(Towards::Enemy);
    let deploys = charges
        || matches!(
            outcome.instruction.formation,
            Some(F::Line | F::CloseOrder | F::Skirmish | F::Dismounted | F::Unlimbered)
        );
    if falls_back(outcome.order) || !deploys {
        "column-in-sight-kept"
    } else {
        "column-in-sight-unruled"
    }
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

/// Bearings off a unit's facing it tries, in order, when it has no room
/// to change formation where it stands: sideways, then back, then back
/// obliquely.
pub(super) const ROOM_FAN: [f64; 5] = [90.0, -90.0, 180.0, 135.0, -135.0];

/// [`ROOM_FAN`], then forward and forward obliquely: where seed 002's
/// column, whose change of formation is part of a move, may also step
/// forward to deploy (ruling HO13).
pub(super) const ROOM_FAN_FORWARD: [f64; 8] = [90.0, -90.0, 180.0, 135.0, -135.0, 0.0, 45.0, -45.0];

/// Where a unit at `from` facing `facing` may move to find room to change
/// formation, within `allowance` inches (ruling HO13), on the bearings
/// `fan` off its facing: a quarter of the move each way first, then half,
/// three quarters and the whole of it.
pub(super) fn room_points(from: Point, facing: f64, allowance: f64, fan: &[f64]) -> Vec<Point> {
    let mut points = Vec::new();
    for share in [0.25, 0.5, 0.75, 1.0] {
        for &offset in fan {
            points.push(from + Vector::from_bearing(facing + offset) * (allowance * share));
        }
    }
    points
}

/// A unit on the table as the reading of "a friend ahead" weighs it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Placed {
    /// Its index in the game.
    pub index: usize,
    /// Its side.
    pub side: usize,
    /// Where it stands.
    pub base: Base,
    /// Deployed to fire: in a formation its rules let it fire from.
    pub deployed: bool,
}

/// Ruling O5, read the same way under every rule set: the friend `unit`
/// is approaching the rear of, deployed to fire. That is a friend within
/// `within` inches (base to base; `tables/reaction.yaml`'s support
/// distance), in `unit`'s frontal arc, nearer `unit`'s nearest enemy than
/// `unit` is, deployed to fire with an enemy within `musket` inches
/// (`tables/orders.yaml`'s musket range). The nearest such friend, then
/// the first listed; `None` when there is none.
pub(super) fn friend_ahead(
    units: &[Placed],
    unit: usize,
    within: f64,
    musket: f64,
) -> Option<usize> {
    let me = units.iter().find(|u| u.index == unit)?;
    let enemies = || units.iter().filter(|e| e.side != me.side);
    let (enemy, distance) = enemies()
        .map(|e| (e, me.base.distance_to(&e.base)))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.index.cmp(&b.0.index)))?;
    units
        .iter()
        .filter(|f| f.side == me.side && f.index != unit && f.deployed)
        .map(|f| (f, me.base.distance_to(&f.base)))
        .filter(|(_, gap)| *gap <= within + 1e-6)
        .filter(|(f, _)| me.base.in_frontal_arc(&f.base))
        .filter(|(f, _)| f.base.distance_to(&enemy.base) < distance)
        .filter(|(f, _)| enemies().any(|e| f.base.distance_to(&e.base) <= musket + 1e-6))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.index.cmp(&b.0.index)))
        .map(|(f, _)| f.index)
}

/// Where a unit at `from` supporting a friend at `friend` halts: `behind`
/// inches to the friend's rear on the line from the friend to the unit,
/// centre to centre (ruling O5).
pub(super) fn support_spot(from: Point, friend: Point, behind: f64) -> Point {
    let away = from - friend;
    friend + away * (behind / away.length().max(1e-6))
}

/// How near its support spot a unit must be to count as there already,
/// inches (as seed 000's opponent: half an inch).
pub(super) const IN_SUPPORT: f64 = 0.5;

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

    /// Side 0 faces north (bearing 0 is north, y growing), side 1 south.
    fn placed(index: usize, side: usize, x: f64, y: f64, deployed: bool) -> Placed {
        let facing = if side == 0 { 0.0 } else { 180.0 };
        Placed {
            index,
            side,
            base: Base::new(Point::new(x, y), facing, 4.0, 1.0),
            deployed,
        }
    }

    #[test]
    fn a_friend_ahead_is_near_in_front_nearer_the_enemy_and_deployed_to_fire_at_it() {
        let (within, musket) = (6.0, 6.0);
        let enemy = placed(9, 1, 20.0, 20.0, true);
        let front = placed(0, 0, 20.0, 15.0, true);
        let second = placed(1, 0, 20.0, 9.0, true);
        let units = [front, second, enemy];
        assert_eq!(friend_ahead(&units, 1, within, musket), Some(0));
        // The front unit has no friend ahead: the second is behind it.
        assert_eq!(friend_ahead(&units, 0, within, musket), None);
        // A friend in march column is not deployed to fire.
        let column = [placed(0, 0, 20.0, 15.0, false), second, enemy];
        assert_eq!(friend_ahead(&column, 1, within, musket), None);
        // Nor is one with no enemy within musket range.
        let far = placed(9, 1, 20.0, 23.0, true);
        assert_eq!(friend_ahead(&[front, second, far], 1, within, musket), None);
        // A friend more than 6" off is not the one being approached.
        let back = placed(1, 0, 20.0, 6.0, true);
        assert_eq!(friend_ahead(&[front, back, enemy], 1, within, musket), None);
        // The spot: 6" behind the friend, on the line to the supporter.
        let spot = support_spot(Point::new(20.0, 9.0), Point::new(20.0, 15.0), 6.0);
        assert!(spot.distance(Point::new(20.0, 9.0)) < 1e-9, "{spot:?}");
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
