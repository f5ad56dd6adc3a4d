//! Text for the tabletop companion: its events as the player reads them at
//! the table, the army at a glance (`status`), the short log (`history`) and
//! the Markdown battle report (`export`). Reaction tests reuse
//! [`super::text::reaction`], so a companion test reads like the seed's
//! worked example and like `foe react`.

use super::text;
use crate::companion::{Change, Event, Game, Unit, Whereabouts};
use crate::tables::{Tables, Trigger};
use std::fmt::Write;

/// The events of one action, in full, as the REPL prints them.
pub fn events(tables: &Tables, events: &[Event]) -> String {
    events
        .iter()
        .map(|event| event_text(tables, event))
        .collect()
}

fn character_text(character: Option<crate::tables::Character>, roll: Option<u8>) -> String {
    match (character, roll) {
        (Some(character), Some(roll)) => format!(", {character} (d100 {roll})"),
        (Some(character), None) => format!(", {character}"),
        _ => String::new(),
    }
}

fn trigger_text(tables: &Tables, trigger: Trigger) -> String {
    tables
        .generals
        .triggers
        .get(&trigger)
        .cloned()
        .unwrap_or_else(|| trigger.id().to_string())
}

/// One event in full.
pub fn event_text(tables: &Tables, event: &Event) -> String {
    let mut out = String::new();
    match event {
        Event::ArmyLoaded { name } => {
            let _ = writeln!(out, "Army: {name}");
        }
        Event::UnitJoined {
            name,
            class_name,
            figures,
            formation,
            character,
            character_roll,
        } => {
            let _ = writeln!(
                out,
                "  + {name}: {class_name}, {figures} figures, {formation}{}",
                character_text(*character, *character_roll)
            );
        }
        Event::UnitRemoved { name } => {
            let _ = writeln!(out, "{name} taken off the table.");
        }
        Event::GeneralRank { rank, roll } => {
            let _ = writeln!(out, "The general's rank (d100 {roll}): {rank}.");
        }
        Event::GeneralNamed { name, roll } => {
            let _ = writeln!(out, "The general's name (d100 {roll}): {name}.");
        }
        Event::GeneralAppointed {
            name,
            character,
            character_roll,
        } => {
            let rolled = character_roll.map_or(String::new(), |roll| format!(" (d100 {roll})"));
            let _ = writeln!(out, "General: {name}, {character}{rolled}");
        }
        Event::GeneralStarts { roll, position, .. } => {
            let _ = writeln!(out, "  Starts (d100 {roll}): {position}");
        }
        Event::ReinforcementTable { army } => {
            let _ = writeln!(out, "Reinforcements from the {army} table.");
        }
        Event::MeleeLost { name } => {
            let _ = writeln!(
                out,
                "{name} lost a melee: it counts in its next reaction test."
            );
        }
        Event::BoundStarted { bound } => {
            let _ = writeln!(out, "== Bound {bound} ==");
        }
        Event::GeneralReacted {
            name,
            reaction,
            whereabouts,
        } => {
            let _ = writeln!(out, "General {name} reacts:");
            out.push_str(&text::general_reaction(tables, reaction));
            match whereabouts {
                Whereabouts::ToRear => {
                    let _ = writeln!(
                        out,
                        "  => He rides to the centre of the rear baseline; another E takes him off the table."
                    );
                }
                Whereabouts::OffTable => {
                    let _ = writeln!(
                        out,
                        "  => He rides off the table and will not return. Remove the general's figure."
                    );
                }
                Whereabouts::Forward | Whereabouts::Unchanged => {}
            }
        }
        Event::TriggerIgnored { trigger, reason } => {
            let _ = writeln!(
                out,
                "No general's test for \"{}\": {reason}.",
                trigger_text(tables, *trigger).trim_end_matches('.')
            );
        }
        Event::ReinforcementCalled {
            name,
            army,
            roll,
            troop_name,
        } => {
            let _ = writeln!(
                out,
                "Reinforcements ({army} table, d100 {roll}): {troop_name}, called up as {name}."
            );
        }
        Event::ReserveCharacter {
            name,
            character,
            roll,
        } => {
            let _ = writeln!(out, "  {name}'s character (d100 {roll}): {character}.");
        }
        Event::NoReinforcements { reason } => {
            let _ = writeln!(out, "No reinforcements: {reason}.");
        }
        Event::ReserveTested {
            name,
            outcome,
            enters,
            entry,
        } => {
            let _ = writeln!(out, "{name} (reserve, encamped off table):");
            out.push_str(&text::reaction(outcome));
            if *enters {
                let _ = writeln!(
                    out,
                    "  => It {entry}: place it there. It takes its first test next bound."
                );
            } else {
                let _ = writeln!(out, "  => It {entry}.");
            }
        }
        Event::UnitTested {
            name,
            outcome,
            figures,
            start_figures,
            changes,
            ..
        } => {
            let _ = writeln!(
                out,
                "{name} ({}, {figures}/{start_figures} figures):",
                outcome.class_name
            );
            out.push_str(&text::reaction(outcome));
            if let Some(target) = crate::companion::fire_target(outcome) {
                let _ = writeln!(out, "  Target: {target}.");
            }
            let changes: Vec<String> = changes.iter().map(|change| change_text(*change)).collect();
            if !changes.is_empty() {
                let _ = writeln!(out, "  => {}", changes.join("; "));
            }
        }
        Event::UnitDestroyed { name } => {
            let _ = writeln!(
                out,
                "{name} has lost its last figure: take it off the table."
            );
        }
        Event::BoundEnded {
            bound,
            on_table,
            in_reserve,
        } => {
            let reserves = if *in_reserve > 0 {
                format!(", {in_reserve} waiting off table")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "== End of bound {bound}: {on_table} unit{} on the table{reserves} ==",
                plural(*on_table)
            );
        }
    }
    out
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

fn change_text(change: Change) -> String {
    match change {
        Change::Disordered => "now DISORDERED".into(),
        Change::Reformed => "reformed (no longer disordered)".into(),
        Change::Routed => "ROUTED: take it off the table".into(),
        Change::GunsAbandoned => "GUNS ABANDONED: leave them where they stand".into(),
        Change::UnderHalf => "now under half strength (-6 from now on)".into(),
        Change::Formation(formation) => format!("now in {formation}"),
    }
}

/// One event in a line, for `history` and the Markdown log; `None` for
/// events too small to list.
pub fn summary(tables: &Tables, event: &Event) -> Option<String> {
    Some(match event {
        Event::ArmyLoaded { name } => format!("Army loaded: {name}"),
        Event::UnitJoined {
            name,
            class_name,
            figures,
            character,
            character_roll,
            ..
        } => format!(
            "{name} joins: {class_name}, {figures} figures{}",
            character_text(*character, *character_roll)
        ),
        Event::UnitRemoved { name } => format!("{name} taken off the table"),
        Event::GeneralAppointed {
            name, character, ..
        } => format!("General {name}, {character}"),
        Event::GeneralRank { .. } | Event::GeneralNamed { .. } | Event::GeneralStarts { .. } => {
            return None;
        }
        Event::ReserveCharacter {
            name, character, ..
        } => format!("{name} is {character}"),
        Event::ReinforcementTable { army } => format!("Reinforcements from the {army} table"),
        Event::MeleeLost { name } => format!("{name} lost a melee"),
        Event::BoundStarted { .. } | Event::BoundEnded { .. } => return None,
        Event::GeneralReacted {
            name,
            reaction,
            whereabouts,
        } => {
            let trigger = reaction
                .trigger
                .map(|trigger| format!(" ({})", trigger.id()))
                .unwrap_or_default();
            let off = match whereabouts {
                Whereabouts::OffTable => ", and off the table for good",
                Whereabouts::ToRear => ", to the baseline",
                _ => "",
            };
            format!(
                "General {name}{trigger}: d100 {} = {}, {}{off}",
                reaction.roll,
                reaction.reaction,
                reaction
                    .meaning
                    .split(['(', ';'])
                    .next()
                    .unwrap_or("")
                    .trim_end()
                    .trim_end_matches('.')
            )
        }
        Event::TriggerIgnored { trigger, reason } => {
            format!(
                "{} reported; no test: {reason}",
                trigger_text(tables, *trigger).trim_end_matches('.')
            )
        }
        Event::ReinforcementCalled {
            name,
            roll,
            troop_name,
            ..
        } => format!("Reinforcement called (d100 {roll}): {troop_name} as {name}"),
        Event::NoReinforcements { reason } => format!("No reinforcements: {reason}"),
        Event::ReserveTested {
            name,
            outcome,
            entry,
            ..
        } => format!(
            "{name} (reserve): {} = {}, {entry}",
            text::signed(outcome.total),
            outcome.order
        ),
        Event::UnitTested {
            name,
            answers,
            outcome,
            changes,
            ..
        } => {
            let changes: Vec<String> = changes.iter().map(|change| change_text(*change)).collect();
            let tail = if changes.is_empty() {
                String::new()
            } else {
                format!(" ({})", changes.join("; "))
            };
            format!(
                "{name} [{answers}]: die {}, total {} = {}{tail}",
                outcome.die,
                text::signed(outcome.total),
                outcome.order
            )
        }
        Event::UnitDestroyed { name } => format!("{name} destroyed"),
    })
}

/// Past bounds in short lines (`history`).
pub fn history(tables: &Tables, game: &Game) -> String {
    let mut out = String::new();
    let mut shown_bound = None;
    for (bound, event) in &game.log {
        let Some(line) = summary(tables, event) else {
            continue;
        };
        if shown_bound != Some(*bound) {
            shown_bound = Some(*bound);
            if *bound == 0 {
                let _ = writeln!(out, "Before the battle:");
            } else {
                let _ = writeln!(out, "Bound {bound}:");
            }
        }
        let _ = writeln!(out, "  {line}");
    }
    if out.is_empty() {
        out.push_str("Nothing has happened yet.\n");
    }
    out
}

fn last_order(unit: &Unit) -> String {
    unit.last_order
        .map_or("-".to_string(), |order| order.title().to_string())
}

fn class_label(unit: &Unit) -> String {
    match unit.character {
        Some(character) => format!("{} ({character})", unit.class),
        None => unit.class.clone(),
    }
}

/// The army at a glance (`status`).
pub fn status(game: &Game) -> String {
    let mut out = String::new();
    if !game.army_name.is_empty() {
        let _ = writeln!(out, "{}", game.army_name);
    }
    let phase = match (game.bound, game.in_bound) {
        (0, _) => "before the first bound".to_string(),
        (bound, true) => {
            let waiting = game
                .units
                .iter()
                .filter(|unit| !unit.tested_this_bound)
                .count();
            format!(
                "bound {bound}, {waiting} unit{} still to test",
                plural(waiting)
            )
        }
        (bound, false) => format!("bound {bound} over"),
    };
    let _ = writeln!(out, "Phase: {phase}");
    match &game.general {
        Some(general) => {
            let place = if !general.on_table {
                "off the table for good"
            } else if general.at_rear {
                "at the rear"
            } else {
                "on the table"
            };
            let _ = writeln!(
                out,
                "General: {}, {} ({place})",
                general.name, general.character
            );
        }
        None => {
            let _ = writeln!(out, "General: none");
        }
    }
    if game.units.is_empty() {
        let _ = writeln!(out, "No units on the table.");
    } else {
        let rows: Vec<[String; 6]> = game
            .units
            .iter()
            .map(|unit| {
                [
                    unit.name.clone(),
                    class_label(unit),
                    format!("{}/{}", unit.figures, unit.start_figures),
                    unit.formation.to_string(),
                    last_order(unit),
                    unit.flags().join(" "),
                ]
            })
            .collect();
        let headers = [
            "unit",
            "class",
            "strength",
            "formation",
            "last order",
            "flags",
        ];
        let mut widths = headers.map(str::len);
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |cells: &[&str]| {
            let mut text = String::new();
            for (index, (cell, width)) in cells.iter().zip(widths).enumerate() {
                if index + 1 == cells.len() {
                    text.push_str(cell);
                } else {
                    let _ = write!(text, "{cell:<width$}  ");
                }
            }
            text.trim_end().to_string()
        };
        let _ = writeln!(out, "{}", line(&headers));
        for row in &rows {
            let cells: Vec<&str> = row.iter().map(String::as_str).collect();
            let _ = writeln!(out, "{}", line(&cells));
        }
    }
    for reserve in &game.reserves {
        let _ = writeln!(
            out,
            "Off table: {} ({}, {} figures{}), tests each bound",
            reserve.name,
            reserve.troop_name,
            reserve.figures,
            reserve
                .character
                .map_or(String::new(), |character| format!(", {character}"))
        );
    }
    out
}

/// The battle's log as Markdown (`export`).
pub fn markdown(tables: &Tables, game: &Game) -> String {
    let mut out = String::new();
    let title = if game.army_name.is_empty() {
        "the enemy army"
    } else {
        game.army_name.as_str()
    };
    let _ = writeln!(out, "# Battle log: {title}\n");
    let _ = writeln!(
        out,
        "The enemy was run by foe's tabletop companion (Lone Warrior programmed opponent)."
    );
    let mut shown_bound = None;
    for (bound, event) in &game.log {
        if let Event::UnitTested { name, outcome, .. } = event {
            if shown_bound != Some(*bound) {
                shown_bound = Some(*bound);
                let _ = writeln!(out, "\n## Bound {bound}\n");
            }
            let _ = writeln!(
                out,
                "- **{name}**: {}",
                summary(tables, event)
                    .unwrap_or_default()
                    .trim_start_matches(name.as_str())
                    .trim_start_matches(' ')
            );
            let factors: Vec<String> = outcome
                .factors
                .iter()
                .map(|factor| format!("{} {}", factor.label, text::signed(factor.value)))
                .collect();
            let _ = writeln!(
                out,
                "  - {}; die {}. {}",
                factors.join(", "),
                outcome.die,
                text::what_it_does(outcome).trim_start_matches("-> ")
            );
            continue;
        }
        let Some(line) = summary(tables, event) else {
            continue;
        };
        if shown_bound != Some(*bound) {
            shown_bound = Some(*bound);
            if *bound == 0 {
                let _ = writeln!(out, "\n## Before the battle\n");
            } else {
                let _ = writeln!(out, "\n## Bound {bound}\n");
            }
        }
        let _ = writeln!(out, "- {line}");
    }
    let _ = writeln!(out, "\n## The army now\n");
    if game.units.is_empty() {
        let _ = writeln!(out, "No units left on the table.");
    } else {
        let _ = writeln!(
            out,
            "| Unit | Class | Strength | Formation | Last order | Flags |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|");
        for unit in &game.units {
            let _ = writeln!(
                out,
                "| {} | {} | {}/{} | {} | {} | {} |",
                unit.name,
                class_label(unit),
                unit.figures,
                unit.start_figures,
                unit.formation,
                last_order(unit),
                unit.flags().join(", ")
            );
        }
    }
    for reserve in &game.reserves {
        let _ = writeln!(
            out,
            "\nOff table: {} ({}), waiting to enter.",
            reserve.name, reserve.troop_name
        );
    }
    if let Some(general) = &game.general {
        let place = if general.on_table {
            "on the table"
        } else {
            "gone from the field"
        };
        let _ = writeln!(
            out,
            "\nGeneral: {} ({}), {place}.",
            general.name, general.character
        );
    }
    out
}
