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
/// now: the first move offered, and the point printed after move 1, is
/// the farthest point along the part of the route one move covers, at
/// 0.1", that a single move the rules take now reaches, pulled back along
/// the route 0.1" of cost at a time. When that falls short of where the
/// route's costs put the end of move 1 (a bend, dearer ground, an enemy
/// near), the line says so.
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
    // The first move as the engine takes it: the farthest point along the
    // part of the route one move covers that a single move, typed as
    // printed, reaches. A bend, dearer ground or an enemy near can leave
    // it short of where the route's cost says one move gets.
    let reach = route.clip(allowance);
    let first = {
        let mut tried: Vec<Point> = Vec::new();
        let steps = (reach.cost() * 10.0).ceil().clamp(0.0, 2_000.0) as u32;
        (0..steps).find_map(|back| {
            let cost = reach.cost() - f64::from(back) * 0.1;
            let part = route.clip(cost);
            let end = tenth(part.end());
            if tried.contains(&end) || end == tenth(ask.from) {
                return None;
            }
            tried.push(end);
            let along_road = part.legs().last().is_some_and(|leg| leg.along_road);
            first_move(end, along_road).map(|line| (end, line))
        })
    };
    // Short only by more than printing at 0.1" and a step back cost.
    let short = first
        .as_ref()
        .filter(|(end, _)| end.distance(reach.end()) > 0.2);
    let last = if short.is_some() { moves.max(2) } else { moves };
    for bound in 1..last {
        let at = route.clip(allowance * f64::from(bound)).end();
        match (&first, short) {
            (_, Some((end, _))) if bound == 1 => {
                let _ = writeln!(
                    out,
                    "  after move 1: at {end}; the rules take no single move to {at} now"
                );
            }
            (Some((end, _)), None) if bound == 1 => {
                let _ = writeln!(out, "  after move 1: at {end}");
            }
            _ => {
                let _ = writeln!(out, "  after move {bound}: at {at}");
            }
        }
    }
    if let Some((_, line)) = first {
        let _ = writeln!(out, "this move: `{line}`");
    }
    out
}
