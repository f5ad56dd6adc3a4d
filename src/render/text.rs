//! Plain-text renderings of the Lone Warrior procedures, laid out like the
//! seed's worked example: one line per factor, the die, the total, the order,
//! and what the unit physically does.

use crate::battlefield::geometry::inches_to_tenths;
use crate::general::{General, GeneralReaction};
use crate::melee::MeleeOutcome;
use crate::reaction::{Factor, Outcome};
use crate::reinforce::Reinforcement;
use crate::tables::{Column, Fire, Move, Order, Tables, Towards};
use std::fmt::Write;

/// The narrowest label column; longer labels widen it so values stay aligned.
const MIN_WIDTH: usize = 40;

fn width_of(factors: &[Factor], column: Option<Column>) -> usize {
    factors
        .iter()
        .map(|factor| factor_label(factor, column).chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(MIN_WIDTH)
}

fn line(out: &mut String, width: usize, label: &str, value: i32) {
    let _ = writeln!(out, "  {label:<width$} {}", signed(value));
}

/// A value with its sign, as the seed prints factors (`+3`, `-1`, `0`).
pub fn signed(value: i32) -> String {
    if value == 0 {
        "0".into()
    } else {
        format!("{value:+}")
    }
}

/// A factor's label, saying in words when a factor that applies is worth
/// nothing in the unit's column ([`Factor::label_in`]).
pub fn factor_label(factor: &Factor, column: Option<Column>) -> String {
    factor.label_in(column)
}

fn factors(out: &mut String, width: usize, factors: &[Factor], column: Option<Column>) {
    for factor in factors {
        line(out, width, &factor_label(factor, column), factor.value);
    }
}

/// A reaction test, factor by factor, then the order and what the unit does.
pub fn reaction(outcome: &Outcome) -> String {
    let mut out = String::new();
    if let Some(note) = &outcome.column_note {
        let _ = writeln!(out, "  ({note})");
    }
    let column = Some(outcome.column);
    let width = width_of(&outcome.factors, column);
    factors(&mut out, width, &outcome.factors, column);
    line(&mut out, width, "Die", i32::from(outcome.die));
    let _ = writeln!(
        out,
        "  {:<width$} {}: {}",
        "TOTAL",
        signed(outcome.total),
        outcome.order
    );
    let _ = writeln!(out, "  {}", what_it_does(outcome));
    for note in &outcome.notes {
        let _ = writeln!(out, "  {note}");
    }
    out
}

/// The physical instruction in one line, with the move in inches.
pub fn what_it_does(outcome: &Outcome) -> String {
    let instruction = &outcome.instruction;
    let mut text = format!("-> {}", instruction.does);
    let mut details: Vec<String> = Vec::new();
    if instruction.moves != Move::None {
        let towards = match instruction.towards {
            Some(Towards::Enemy) => " towards the enemy",
            Some(Towards::Front) => " towards the front",
            Some(Towards::Cover) => " to the nearest cover",
            Some(Towards::Rear) => " to the rear",
            Some(Towards::Friend) => " towards the friend",
            None => "",
        };
        details.push(format!(
            "move {}\"{towards}",
            inches_to_tenths(outcome.move_inches)
        ));
    }
    if let Some(formation) = instruction.formation {
        details.push(format!("ends in {formation}"));
    }
    match instruction.fire {
        Fire::None => {}
        Fire::Volley => details.push("fires".into()),
        Fire::Double => details.push("fires double volleys".into()),
        Fire::MinusOne => details.push("fires one volley at -1".into()),
    }
    for state in &instruction.becomes {
        details.push(state.replace('-', " "));
    }
    if !details.is_empty() {
        let _ = write!(text, " [{}]", details.join("; "));
    }
    text
}

/// The exact chance of each order, one per line.
pub fn odds(odds: &[(Order, f64)]) -> String {
    let mut out = String::from("  Odds over the D6:\n");
    for (order, probability) in odds {
        let _ = writeln!(
            out,
            "    {:<20} {:>5.1}%  ({}/6)",
            order.title(),
            probability * 100.0,
            (probability * 6.0).round()
        );
    }
    out
}

/// A rolled general.
pub fn general(general: &General) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", general.name, general.nation);
    let _ = writeln!(
        out,
        "  Character: {} (d100 {})",
        general.character, general.roll
    );
    let chances: Vec<String> = general
        .reaction_odds
        .iter()
        .map(|(reaction, p)| format!("{reaction} {:.0}%", p * 100.0))
        .collect();
    let _ = writeln!(out, "  Reactions: {}", chances.join(", "));
    let _ = writeln!(
        out,
        "  Starts: {} (d100 {}: {})",
        general.start_position, general.start_roll, general.start
    );
    out
}

/// A general's reaction to a trigger.
pub fn general_reaction(tables: &Tables, reaction: &GeneralReaction) -> String {
    let mut out = String::new();
    if let Some(trigger) = reaction.trigger {
        let text = tables
            .generals
            .triggers
            .get(&trigger)
            .map_or(trigger.id(), String::as_str);
        let _ = writeln!(out, "  Trigger: {text}");
    }
    let _ = writeln!(
        out,
        "  {} general, d100 {}: reaction {} ({}-{})",
        reaction.character, reaction.roll, reaction.reaction, reaction.band[0], reaction.band[1]
    );
    let _ = writeln!(out, "  -> {}", reaction.meaning);
    out
}

/// A reinforcement call-up and its reserve test.
pub fn reinforcement(reinforcement: &Reinforcement) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} reinforcements, d100 {}: {}",
        capitalise(&reinforcement.army),
        reinforcement.roll,
        reinforcement.troop_name
    );
    let _ = writeln!(out, "  Reaction test as an encamped reserve:");
    out.push_str(&reaction(&reinforcement.test));
    let _ = writeln!(out, "  => {}", capitalise(&reinforcement.entry));
    out
}

/// A Lone Warrior melee result.
pub fn melee(outcome: &MeleeOutcome) -> String {
    let mut out = String::new();
    let width = width_of(&outcome.factors, None);
    factors(&mut out, width, &outcome.factors, None);
    line(&mut out, width, "Factor", outcome.factor);
    let _ = writeln!(out, "  {:<width$} {}", "Die", outcome.die);
    let _ = writeln!(
        out,
        "  -> {} casualt{} (figures)",
        outcome.casualties,
        if outcome.casualties == 1 { "y" } else { "ies" }
    );
    out
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The exact chance of each reaction of a general over the d100, with the
/// band of rolls that gives it and what it means.
pub fn general_odds(tables: &Tables, character: crate::tables::Character) -> String {
    let mut out = String::from("  Odds over the d100:\n");
    for (reaction, probability) in tables.generals.odds(character) {
        let band = tables
            .generals
            .band(character, reaction)
            .map_or("(never)".to_string(), |[from, to]| format!("({from}-{to})"));
        let _ = writeln!(
            out,
            "    {reaction} {:>5.1}%  {band:<8} {}",
            probability * 100.0,
            tables.generals.meaning(reaction)
        );
    }
    out
}

/// The exact chance of each number of casualties over the D6, and the mean.
pub fn melee_odds(odds: &[(u32, u32)]) -> String {
    let mut out = String::from("  Odds over the D6:\n");
    for (casualties, faces) in odds {
        let _ = writeln!(
            out,
            "    {:<14} {:>5.1}%  ({faces}/6)",
            format!(
                "{casualties} casualt{}",
                if *casualties == 1 { "y" } else { "ies" }
            ),
            f64::from(*faces) * 100.0 / 6.0
        );
    }
    let mean: u32 = odds
        .iter()
        .map(|(casualties, faces)| casualties * faces)
        .sum();
    let _ = writeln!(
        out,
        "    on average     {} figures",
        inches_to_tenths(f64::from(mean) / 6.0)
    );
    out
}

/// The exact odds of a call-up: each troop type's rolls on the d100 and the
/// faces of its reserve test that bring it on, then the chance that
/// whatever is called comes on this bound.
pub fn reinforcement_odds(odds: &[crate::reinforce::TroopOdds]) -> String {
    let mut out = String::from("  Odds over the d100 and the D6:\n");
    let width = odds
        .iter()
        .map(|troop| troop.troop_name.chars().count())
        .max()
        .unwrap_or(0);
    let mut entering = 0;
    for troop in odds {
        let rolls: Vec<String> = troop
            .rolls
            .iter()
            .map(|[from, to]| {
                if from == to {
                    from.to_string()
                } else {
                    format!("{from}-{to}")
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "    {:<width$} {:>3}%  (d100 {}), comes on with {} of 6",
            troop.troop_name,
            troop.chances_in_100,
            rolls.join(", "),
            troop.enters_in_6
        );
        entering += troop.chances_in_100 * troop.enters_in_6;
    }
    let _ = writeln!(
        out,
        "    comes on this bound: {:.1}% ({entering}/600)",
        f64::from(entering) / 6.0
    );
    out
}
