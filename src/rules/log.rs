//! The seed-000 events in words: one line per event, names looked up in
//! the game state, numbers as the seed prints them. The engine's own
//! words, as seeds 001 and 002 keep theirs beside their events, so the
//! runner's record and every renderer share one text.

use super::{Applied, Cause, Event, GameState, MeleeRoll, Operation, Weapon};
use crate::battlefield::geometry::{inches, trim};
use std::fmt::Write;

/// Every event as a line of text.
pub fn transcript(state: &GameState, events: &[Event]) -> String {
    let mut out = String::new();
    for event in events {
        let _ = writeln!(out, "{}", event_line(state, event));
    }
    out
}

fn degrees(value: f64) -> String {
    format!("{}°", trim(value))
}

use crate::names::hits;

fn steps(roll: u8, modifiers: &[Applied]) -> String {
    let mut text = format!("die {roll}");
    for applied in modifiers {
        let change = match applied.operation {
            Operation::Add(n) => format!("{n:+}"),
            Operation::Multiply(n) => format!("×{n}"),
        };
        let _ = write!(text, ", {change} {} = {}", applied.label, applied.score);
    }
    text
}

fn melee_side(state: &GameState, roll: &MeleeRoll, role: &str, other: &MeleeRoll) -> String {
    format!(
        "{} {role}: {} → {} on {}",
        state.unit(roll.unit).name,
        steps(roll.roll, &roll.modifiers),
        hits(roll.hits),
        state.unit(other.unit).name
    )
}

/// A shot's die and modifiers; for guns, the first step (the range) said as
/// range bands of the rule set's length: `-3 for 3 range bands of 6"`.
/// A shot's die and modifiers in order, with each running score: why it
/// scored what it did.
pub(crate) fn shot_steps(
    state: &GameState,
    weapon: Weapon,
    roll: u8,
    modifiers: &[Applied],
) -> String {
    match (weapon, modifiers.split_first()) {
        (Weapon::Artillery, Some((range, rest))) => {
            let bands = match range.operation {
                Operation::Add(n) => -n,
                Operation::Multiply(_) => 0,
            };
            let mut text = format!(
                "die {roll}, -{bands} for {bands} range band{} of {} = {}",
                if bands == 1 { "" } else { "s" },
                inches(state.rules.artillery.bound),
                range.score
            );
            let more = steps(0, rest);
            text.push_str(more.trim_start_matches("die 0"));
            text
        }
        _ => steps(roll, modifiers),
    }
}

/// One event as a line of text.
pub fn event_line(state: &GameState, event: &Event) -> String {
    let unit = |id: crate::rules::UnitId| state.unit(id).name.as_str();
    let side = |index: usize| state.sides[index].name.as_str();
    match event {
        Event::CharacterRolled {
            general,
            roll,
            character,
        } => format!(
            "{} is {} (d100 {roll})",
            state.general(*general).name,
            character.title()
        ),
        Event::TurnBegan { turn, side: s } => format!("== turn {turn}: {} ==", side(*s)),
        Event::Pivoted { unit: u, from, to } => {
            format!(
                "{} pivots from {} to {}",
                unit(*u),
                degrees(*from),
                degrees(*to)
            )
        }
        Event::Moved {
            unit: u,
            from,
            to,
            facing,
            cost,
            road,
        } => format!(
            "{} moves {from} → {to}{} using {}, facing {}",
            unit(*u),
            if *road { " by road" } else { "" },
            inches(*cost),
            degrees(*facing)
        ),
        Event::GeneralMoved { general, from, to } => {
            format!("{} rides {from} → {to}", state.general(*general).name)
        }
        Event::Charged {
            unit: u,
            target,
            from,
            to,
            facing,
            flank_or_rear,
        } => format!(
            "{} charges {}{}: {from} → {to}, facing {}",
            unit(*u),
            unit(*target),
            if *flank_or_rear {
                " in flank or rear"
            } else {
                ""
            },
            degrees(*facing)
        ),
        Event::Fired {
            unit: u,
            target,
            weapon,
            range,
            roll,
            modifiers,
            hits: n_hits,
        } => format!(
            "{} {} {} at {}: {} → {}",
            unit(*u),
            match weapon {
                Weapon::Musket => "fires at",
                Weapon::Artillery => "bombards",
            },
            unit(*target),
            inches(*range),
            shot_steps(state, *weapon, *roll, modifiers),
            hits(*n_hits)
        ),
        Event::HitsTaken {
            unit: u,
            hits: n_hits,
            total,
            cause,
        } => format!(
            "  {} takes {}{} (total {total})",
            unit(*u),
            hits(*n_hits),
            match cause {
                Cause::Fire | Cause::Melee => "",
                Cause::ArmyResolve => " from army resolve",
            }
        ),
        Event::Melee { charger, defender } => format!(
            "melee: {}; {}",
            melee_side(state, charger, "charging", defender),
            melee_side(state, defender, "defending", charger)
        ),
        Event::Retreated {
            unit: u,
            from,
            to,
            facing,
            blocked,
        } => format!(
            "  {} retreats {from} → {to}{}, facing {}",
            unit(*u),
            if *blocked { " (blocked)" } else { "" },
            degrees(*facing)
        ),
        Event::Exited { unit: u } => format!("  {} is driven off the table", unit(*u)),
        Event::Routed { unit: u, hits: n } => format!("{} routs with {}", unit(*u), hits(*n)),
        Event::ArmyResolve {
            side: s,
            lost,
            of,
            hits: n,
        } => format!(
            "army resolve: the {} have lost {lost} of {of} units; every remaining unit takes {}",
            side(*s),
            hits(*n)
        ),
        Event::Rallied {
            general,
            roll,
            removed,
            rallies_left,
        } => {
            let spread: Vec<String> = removed
                .iter()
                .map(|(id, n)| format!("{} −{n}", unit(*id)))
                .collect();
            format!(
                "{} rallies: die {roll}: {} ({rallies_left} rallies left)",
                state.general(*general).name,
                spread.join(", ")
            )
        }
        Event::PhaseEnded { phase, .. } => format!("-- end of {phase}"),
        Event::TurnEnded { turn } => format!("== end of turn {turn} =="),
        Event::CalledUp { unit: u, troop } => {
            format!("{} ({troop}) is called up and waits off table", unit(*u))
        }
        Event::Entered {
            unit: u,
            to,
            facing,
        } => {
            format!(
                "{} enters the table at {to} facing {}",
                unit(*u),
                trim(*facing)
            )
        }
        Event::Victory { winner, condition } => {
            format!(
                "victory to the {} (condition {})",
                side(*winner),
                condition + 1
            )
        }
        Event::GameEnded { draw } => {
            if *draw {
                "the game ends in a draw".to_string()
            } else {
                "the game is over".to_string()
            }
        }
    }
}
