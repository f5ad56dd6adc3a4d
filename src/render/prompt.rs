//! Text for the answers of the seed-001 and seed-002 prompt that read
//! the game and foe's opponent: `status UNIT`, `what UNIT` and `route
//! UNIT to X,Y`, with units named by their map labels
//! ([`crate::host::repl::Names`]). Pure: strings out.

use crate::battlefield::geometry::trim;
use crate::battlefield::{Base, Point};
use crate::host::opponent::Opponent;
use crate::host::repl::{self, Names};
use std::fmt::Write as _;

/// `status UNIT`: one unit in detail, with foe's latest order for it
/// (where foe's `opponent` keeps its orders).
pub fn unit_status(names: &Names<'_>, opponent: Option<&Opponent>, unit: usize) -> String {
    let game = names.game();
    let Some(u) = names.units().get(unit) else {
        return format!("no unit #{unit}");
    };
    let field = game.battlefield();
    let side = game.sides().get(u.side).cloned().unwrap_or_default();
    let troop = game
        .footing(unit)
        .map(|(troop, _)| field.ruleset.troop(troop).name.clone())
        .unwrap_or_default();
    let mut text = format!("{} of the {side}: {troop}.\n", names.both(unit));
    if u.removed {
        text.push_str("  out of play.\n");
        return text;
    }
    let ground = field.column_at(u.position);
    let _ = writeln!(
        text,
        "  at {} facing {}, {}{}; {}.",
        u.position,
        u.facing.round(),
        u.formation.as_deref().unwrap_or("no formation"),
        if u.in_cover { ", in cover" } else { "" },
        super::opponent::ground_line(ground),
    );
    let _ = writeln!(
        text,
        "  strength {:.0}% of its start{}.",
        u.strength * 100.0,
        repl::activation_die(game, unit)
    );
    if let Some(decision) = opponent.and_then(|opponent| opponent.latest(unit)) {
        let _ = writeln!(
            text,
            "  foe's order for it, turn {}: {} (`why {}` says why).",
            decision.turn,
            decision.order().title(),
            names.label(unit)
        );
    }
    text
}

/// `what UNIT`: the unit's situation as a reaction test would read it now,
/// each factor, and the odds of each order over the six faces of the die.
pub fn what(names: &Names<'_>, opponent: &Opponent, unit: usize) -> String {
    let game = names.game();
    let Some(situation) = opponent.situation(game, unit) else {
        return format!(
            "{} takes no reaction test: it has no Lone Warrior class, or is out of play (ruling HO2).",
            names.both(unit)
        );
    };
    let tables = opponent.tables();
    let options = crate::reaction::Options::default();
    let (factors, modifier) = match crate::reaction::modifiers(tables, &situation, options) {
        Ok(found) => found,
        Err(problem) => return format!("{}: no test: {problem}", names.both(unit)),
    };
    let mut text = format!("{} now:\n", names.both(unit));
    let distance = situation
        .enemy_distance
        .map_or("no enemy on the table".to_string(), |d| {
            format!("nearest enemy {}\"", trim(d))
        });
    let _ = writeln!(
        text,
        "  {}; enemy {}in sight",
        distance,
        if situation.enemy_in_sight { "" } else { "not " }
    );
    let column = situation.column;
    for factor in &factors {
        let label = super::text::factor_label(factor, column);
        let _ = writeln!(text, "  {:+3}  {label}", factor.value);
    }
    let _ = writeln!(text, "  {modifier:+3}  before the die");
    let mut odds: Vec<(crate::tables::Order, u32)> = Vec::new();
    for die in 1..=6 {
        if let Ok(outcome) = crate::reaction::test(tables, &situation, options, die) {
            match odds.iter_mut().find(|(order, _)| *order == outcome.order) {
                Some((_, count)) => *count += 1,
                None => odds.push((outcome.order, 1)),
            }
        }
    }
    odds.sort_by_key(|(order, _)| *order);
    for (order, count) in odds {
        let _ = writeln!(
            text,
            "  {:>5.1}%  {}",
            f64::from(count) * 100.0 / 6.0,
            order.title()
        );
    }
    text
}

/// `route UNIT to X,Y`: the way pathing finds over the ground and round
/// the other units, its cost in moves, and the first move as a line to
/// paste back when the rules take it now.
pub fn route(names: &Names<'_>, unit: usize, to: Point) -> String {
    let game = names.game();
    let Some((troop, base)) = game.footing(unit) else {
        return format!("no unit #{unit}");
    };
    if names.units()[unit].removed {
        return format!("{} is not on the table.", names.both(unit));
    }
    let others: Vec<Base> = names
        .units()
        .iter()
        .filter(|u| u.index != unit && !u.removed && u.position != to)
        .filter_map(|u| game.footing(u.index).map(|(_, base)| base))
        .collect();
    let ask = super::route::Ask {
        field: game.battlefield(),
        troop,
        from: base.centre,
        to,
        others: &others,
        name: names.name(unit),
        label: names.label(unit),
    };
    super::route::route(&ask, &|end, _| {
        // Facing the way it goes (seed 001's moves keep the unit's own).
        let facing = (end - base.centre).bearing();
        let action = repl::move_to(names, unit, end, facing);
        game.check(&action)
            .is_ok()
            .then(|| repl::words_labelled(names, &action))
    })
}
