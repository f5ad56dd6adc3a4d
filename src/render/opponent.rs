//! The opponent's decisions in words: a short paragraph per unit for the
//! bound's report, the generals' reactions, and the full `why` of a unit.
//! Pure: reads the decisions as recorded; recomputes nothing.

use crate::battlefield::geometry::trim;
use crate::host::opponent::awi::{
    Decision, GeneralDecision, Preview, RallyDecision, Reading, TurnReport,
};
use crate::rules::{Action, Event, GameState, UnitId};
use std::fmt::Write;

fn name(state: &GameState, id: UnitId) -> &str {
    state.units.get(id.0).map_or("?", |u| u.name.as_str())
}

/// A unit's ground in the words every display uses (`what`, `why`,
/// `status UNIT`): `ground: hard cover`.
pub fn ground_line(ground: crate::tables::Column) -> String {
    format!("ground: {}", ground.title())
}

/// The situation factors read off the map, one phrase each.
pub fn reading(state: &GameState, reading: &Reading) -> Vec<String> {
    let s = &reading.situation;
    let mut lines = Vec::new();
    if reading.off_table {
        lines.push("encamped in reserve off table (open ground, no enemy in sight)".into());
        return lines;
    }
    lines.push(ground_line(reading.ground));
    if s.withdrew_last_bound {
        lines.push("withdrew last bound: cover disregarded".into());
    }
    match (reading.seen_enemy, reading.nearest_enemy) {
        (Some(seen), _) => lines.push(format!("enemy in sight: {}", name(state, seen))),
        (None, _) => lines.push("no enemy in sight".into()),
    }
    if let Some((enemy, distance)) = reading.nearest_enemy {
        lines.push(format!(
            "nearest enemy {} at {}\"",
            name(state, enemy),
            trim((distance * 10.0).round() / 10.0)
        ));
    }
    lines.push(format!(
        "hits {} (were {}): {} of {} figures left, {} lost last bound{}",
        reading.hits,
        reading.hits_before,
        reading.figures_left,
        reading.figures,
        s.casualties,
        if s.under_half {
            ", under half strength"
        } else {
            ""
        }
    ));
    if let Some((general, distance)) = reading.general {
        lines.push(format!(
            "general {} within 3\" ({}\")",
            state.general(general).name,
            trim((distance * 10.0).round() / 10.0)
        ));
    }
    if let Some((friend, _)) = reading.support {
        lines.push(format!("supported by {} within 6\"", name(state, friend)));
    }
    if let Some(enemy) = reading.retreating_enemy {
        lines.push(format!("sees {} falling back", name(state, enemy)));
    }
    if s.lost_melee {
        lines.push("lost a melee last bound".into());
    }
    if s.skirmish_order {
        lines.push("line infantry in skirmish order".into());
    }
    if let Some(character) = s.character {
        lines.push(format!("{character} character"));
    }
    if let Some(friend) = reading.friend_ahead {
        lines.push(format!("friend ahead: {}", name(state, friend)));
    }
    lines
}

fn movement(state: &GameState, events: &[Event]) -> Vec<String> {
    let mut parts = Vec::new();
    for event in events {
        match event {
            Event::Moved { from, to, road, .. } => parts.push(format!(
                "moves {from} → {to}{}",
                if *road { " by road" } else { "" }
            )),
            Event::Pivoted { to, .. } => parts.push(format!("turns to face {}°", trim(*to))),
            Event::Charged {
                target, from, to, ..
            } => parts.push(format!("charges {} ({from} → {to})", name(state, *target))),
            Event::Entered { to, .. } => parts.push(format!("enters at {to}")),
            Event::Fired {
                target,
                weapon,
                roll,
                modifiers,
                hits,
                ..
            } => parts.push(format!(
                "fires at {} ({} → {hits} hit{})",
                name(state, *target),
                crate::rules::log::shot_steps(state, *weapon, *roll, modifiers),
                if *hits == 1 { "" } else { "s" }
            )),
            _ => {}
        }
    }
    parts
}

/// A unit's bound in a short paragraph: order, movement, shots.
pub fn paragraph(state: &GameState, decision: &Decision) -> String {
    let mut text = format!(
        "{}: {} ({}).",
        decision.name,
        decision.outcome.order.title(),
        decision.outcome.total
    );
    let done = movement(state, &decision.events);
    if done.is_empty() {
        let _ = write!(text, " {}", capitalise(&decision.plan));
        if !text.ends_with('.') {
            text.push('.');
        }
    } else if decision.pressed_home {
        // Ruling PL11: the advance became a charge; say so, not just
        // "Advance and fire. Charges …".
        let _ = write!(
            text,
            " Presses home (rule press-home): {}.",
            done.join(", ")
        );
    } else {
        let _ = write!(text, " {}.", capitalise(&done.join(", ")));
    }
    if let Some((before, after)) = &decision.state_change {
        // Inside the sentence: `Moves 10,40 → 10.9,35.6 (now in column).`
        if text.ends_with('.') {
            text.pop();
        }
        let _ = write!(text, " ({}).", after.changes_since(before).join(", "));
    }
    text
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A general's bound in a line.
pub fn general(decision: &GeneralDecision) -> String {
    let mut text = format!("{} ({}): ", decision.name, decision.character);
    if let Some(reaction) = &decision.reaction {
        let triggers: Vec<&str> = decision.triggers.iter().map(|t| t.id()).collect();
        let _ = write!(
            text,
            "tests for {} (d100 {} → {}); ",
            triggers.join(", "),
            reaction.roll,
            reaction.reaction
        );
    }
    text.push_str(&decision.does);
    if let Some((roll, troop)) = &decision.called_up {
        let _ = write!(text, "; d100 {roll} calls up {troop}");
    }
    text
}

/// A rally attempt in a line.
pub fn rally(state: &GameState, rally: &RallyDecision) -> String {
    let mut text = format!(
        "{} rallies {}",
        state.general(rally.general).name,
        rally
            .units
            .iter()
            .map(|u| name(state, *u))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for event in &rally.events {
        if let Event::Rallied { roll, removed, .. } = event {
            let removed: u32 = removed.iter().map(|(_, n)| n).sum();
            let _ = write!(
                text,
                ": rolled {roll}, {} removed",
                crate::names::hits(removed)
            );
        }
    }
    text
}

/// The opponent's whole bound: generals, reserves, units, rallies.
pub fn turn(state: &GameState, report: &TurnReport) -> String {
    let mut out = String::new();
    for decision in &report.generals {
        let _ = writeln!(out, "{}", general(decision));
    }
    for decision in report.reserves.iter().chain(&report.decisions) {
        let _ = writeln!(out, "{}", paragraph(state, decision));
    }
    for attempt in &report.rallies {
        let _ = writeln!(out, "{}", rally(state, attempt));
    }
    out
}

fn action(state: &GameState, action: &Action) -> String {
    match action {
        Action::Move { to, facing, .. } => format!("move to {to} facing {}", trim(*facing)),
        Action::MoveRoad { path, .. } => format!(
            "move by road to {}",
            path.last().map_or("?".into(), |p| p.to_string())
        ),
        Action::Pivot { facing, .. } => format!("pivot to {}", trim(*facing)),
        Action::Charge { target, .. } => format!("charge {}", name(state, *target)),
        Action::Fire { target, .. } => format!("fire at {}", name(state, *target)),
        Action::Enter { to, .. } => format!("enter at {to}"),
        Action::Rout { .. } => "rout off the table".into(),
        other => format!("{other:?}"),
    }
}

/// Why a unit did what it did: factors, die, total, order, variant,
/// target and why, route, actions and refusals.
pub fn why(state: &GameState, decision: &Decision) -> String {
    let outcome = &decision.outcome;
    let mut out = format!("{} in turn {}:\n", decision.name, decision.turn);
    let _ = writeln!(out, "  read off the map:");
    for line in reading(state, &decision.reading) {
        let _ = writeln!(out, "    {line}");
    }
    let _ = writeln!(
        out,
        "  reaction test ({}, {} column{}):",
        outcome.class_name,
        outcome.column.title(),
        outcome
            .column_note
            .as_ref()
            .map_or(String::new(), |n| format!("; {n}"))
    );
    for factor in &outcome.factors {
        let label = crate::render::text::factor_label(factor, Some(outcome.column));
        let _ = writeln!(out, "    {:+3}  {label}", factor.value);
    }
    let _ = writeln!(out, "    {:+3}  die", outcome.die);
    let _ = writeln!(
        out,
        "    total {}: {} ({})",
        outcome.total,
        outcome.order.title(),
        outcome.band
    );
    let _ = writeln!(out, "  variant: {}", outcome.instruction.does);
    let _ = writeln!(out, "  on the table: {}", decision.plan);
    if decision.by == crate::host::opponent::awi::ORDER {
        let _ = writeln!(out, "  carried out by: the order's instruction");
    } else {
        let _ = writeln!(out, "  carried out by: {} (plan rule)", decision.by);
    }
    if let Some((target, why)) = &decision.target {
        let _ = writeln!(out, "  target: {}, {why}", name(state, *target));
    }
    if let Some(route) = &decision.route {
        let _ = writeln!(
            out,
            "  route: {} → {} towards {}, {}\" of movement, {} leg{}{}",
            route.from,
            route.to,
            route.goal,
            trim(route.length),
            route.legs,
            if route.legs == 1 { "" } else { "s" },
            if route.straight {
                " (straight line)"
            } else {
                " (pathing)"
            }
        );
    }
    for sent in &decision.actions {
        let _ = writeln!(out, "  did: {}", action(state, sent));
    }
    for (refused, why) in &decision.refused {
        let _ = writeln!(out, "  refused: {} ({why})", action(state, refused));
    }
    for shot in movement(state, &decision.events) {
        let _ = writeln!(out, "  result: {shot}");
    }
    out
}

/// A unit's situation now and the odds of each order (`what UNIT`).
pub fn preview(state: &GameState, preview: &Preview) -> String {
    let mut out = format!("{} now:\n", preview.name);
    let _ = writeln!(out, "  state: {}", preview.state);
    for line in reading(state, &preview.reading) {
        let _ = writeln!(out, "  {line}");
    }
    // A unit that withdrew last bound tests in the routing or withdrawing
    // column (ruling O1), whatever its ground.
    let column = if preview.reading.situation.withdrew_last_bound {
        crate::tables::Column::Retreat
    } else {
        preview.reading.ground
    };
    for factor in &preview.factors {
        let label = crate::render::text::factor_label(factor, Some(column));
        let _ = writeln!(out, "  {:+3}  {label}", factor.value);
    }
    let _ = writeln!(out, "  {:+3}  before the die", preview.modifier);
    for (order, chance) in &preview.odds {
        let _ = writeln!(out, "  {:>5.1}%  {}", chance * 100.0, order.title());
    }
    out
}
