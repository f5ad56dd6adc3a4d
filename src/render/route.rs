//! `route UNIT to X,Y` as text, for every rule set: the way pathing finds
//! over the ground and round the other units, its cost in moves, each leg,
//! where the unit stands after each move, and the first move as a line to
//! paste back when the rules take it now. The rule set's prompt says how
//! a move is typed and whether the rules take it. Pure: strings out.

use crate::battlefield::geometry::{tenth, trim};
use crate::battlefield::{Base, Battlefield, Point};
use crate::ruleset::TroopTypeId;
use std::fmt::Write;

/// What a route is asked for.
pub struct Ask<'a> {
    /// The table.
    pub field: &'a Battlefield,
    /// The unit's troop type.
    pub troop: TroopTypeId,
    /// Where its centre stands.
    pub from: Point,
    /// Where to.
    pub to: Point,
    /// The other units on the table, which it must go round (not one at
    /// `to`: a unit routed to is not in its own way).
    pub others: &'a [Base],
    /// Its name.
    pub name: &'a str,
    /// Its map label.
    pub label: &'a str,
}

/// The route text. `first_move(end, along_road)` types a move of the unit
/// to `end` (along the road, if so) and says whether the rules take it
/// now: the first leg clipped to one move is offered at its end rounded
/// to 0.1", pulled back along the leg 0.1" at a time if rounding made it
/// a hair too long.
pub fn route(ask: &Ask<'_>, first_move: &dyn Fn(Point, bool) -> Option<String>) -> String {
    let field = ask.field;
    let to = ask.to;
    let troop = &field.ruleset.troop(ask.troop).name;
    if !field.on_table(to) {
        return format!(
            "{to} is off the {}\" x {}\" table.\n",
            trim(field.width()),
            trim(field.height())
        );
    }
    if let Some(cell) = field.grid.cell_at(to)
        && !field.passable(ask.troop, cell)
    {
        let kinds: Vec<&str> = field
            .grid
            .kinds_at(&field.ruleset, cell)
            .iter()
            .map(|kind| field.ruleset.kind(*kind).name.as_str())
            .collect();
        return format!(
            "{to} is {}, which {} ({troop}) cannot enter.\n",
            kinds.join(" and "),
            ask.name
        );
    }
    let blocked = field.occupied(ask.others);
    let Some(route) = field.route(ask.troop, ask.from, to, &blocked) else {
        return format!(
            "{} ({}) cannot reach {to}: the ground is impassable to it, occupied or cut off.\n",
            ask.name, ask.label
        );
    };
    let allowance = field.ruleset.move_of(ask.troop);
    let moves = route.bounds(allowance);
    let mut out = format!(
        "{} ({}, {troop}, {}\" a move) from {} to {to}\ncost {}\" of movement: {moves} move{}\n",
        ask.name,
        ask.label,
        trim(allowance),
        ask.from,
        trim(route.cost()),
        if moves == 1 { "" } else { "s" },
    );
    for (index, leg) in route.legs().iter().enumerate() {
        let (kind, along) = if leg.along_road {
            ("road    ", " along the road")
        } else {
            ("straight", "")
        };
        let _ = writeln!(
            out,
            "  {}. {kind}  {} -> {}  {}\"{along}, costs {}\"",
            index + 1,
            leg.start(),
            leg.end(),
            trim(leg.length()),
            trim(leg.cost())
        );
    }
    for bound in 1..moves {
        let _ = writeln!(
            out,
            "  after move {bound}: at {}",
            route.clip(allowance * f64::from(bound)).end()
        );
    }
    let clipped = route.clip(allowance);
    let line = clipped.legs().first().and_then(|leg| {
        (0..20).find_map(|back| {
            let length = leg.length();
            let keep = if length > 0.0 {
                (1.0 - f64::from(back) * 0.1 / length).max(0.0)
            } else {
                1.0
            };
            let end = if leg.along_road {
                tenth(leg.end())
            } else {
                tenth(leg.start().lerp(leg.end(), keep))
            };
            first_move(end, leg.along_road)
        })
    });
    if let Some(line) = line {
        let _ = writeln!(out, "this move: `{line}`");
    }
    out
}
