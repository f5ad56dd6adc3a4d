//! Tab completion at the `foe play` prompt, by context: the command first,
//! then the units that command takes (your own to move, pivot, fire or
//! charge with; the enemy as the target of `fire` and `charge` and for
//! `what`), then the words that may follow (`to`, `forward`, `back`,
//! `towards`, `max`, compass points, `turn`). Pure: given the line, the
//! cursor and the game, the choices, each with what replaces the word and
//! what is shown in the list (`A1 (Campbell's Riflemen)`).

use super::command::{ALIASES, COMMANDS, Names};
use crate::rules::{GameState, GeneralId, UnitId};
use crate::scenario::Scenario;
use std::sync::Arc;

pub use crate::completion::{Choice, Grammar, beginning_with, word_at};

/// What the prompt completes, worked out once per prompt from the game:
/// owned, so a line editor can keep it while the player types.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    /// The side to act's units on the table: label, name.
    own: Vec<(String, String)>,
    /// The other sides' units on the table: label, name.
    enemy: Vec<(String, String)>,
    /// The side to act's generals: label, name.
    generals: Vec<(String, String)>,
    /// Every unit's label and name, for `status`.
    all: Vec<(String, String)>,
    /// Another prompt's grammar, which then completes instead.
    grammar: Option<Arc<dyn Grammar>>,
}

/// The compass points a facing may be given as.
const COMPASS: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

impl Vocabulary {
    /// Completion by another prompt's grammar.
    pub fn of_grammar(grammar: Arc<dyn Grammar>) -> Vocabulary {
        Vocabulary {
            grammar: Some(grammar),
            ..Vocabulary::default()
        }
    }

    /// The names a game's prompt completes now.
    pub fn of(scenario: &Scenario, state: &GameState) -> Vocabulary {
        let names = Names::new(scenario, state);
        let mut vocabulary = Vocabulary::default();
        for (index, unit) in state.units.iter().enumerate() {
            if !unit.is_active() {
                continue;
            }
            let entry = (names.label(UnitId(index)).to_string(), unit.name.clone());
            vocabulary.all.push(entry.clone());
            if unit.side == state.active {
                vocabulary.own.push(entry);
            } else {
                vocabulary.enemy.push(entry);
            }
        }
        for (index, general) in state.generals.iter().enumerate() {
            if general.side == state.active {
                vocabulary.generals.push((
                    names.general_label(GeneralId(index)).to_string(),
                    general.name.clone(),
                ));
            }
        }
        vocabulary
    }

    /// Whether `word` is the beginning of exactly one unit's name, as the
    /// prompt reads names (letters and digits only, any case).
    fn names_one(&self, word: &str) -> bool {
        let normal = |text: &str| -> String {
            text.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let typed = normal(word);
        !typed.is_empty()
            && self
                .all
                .iter()
                .filter(|(_, name)| normal(name).starts_with(&typed))
                .count()
                == 1
    }
}

/// What a word of the line may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Command,
    Own,
    Enemy,
    AnyUnit,
    /// The enemy first, then one's own (where to head).
    EnemyThenOwn,
    General,
    Words(&'static [&'static str]),
    Nothing,
}

/// The choices for the word the cursor is in (or starts, after a space):
/// where that word begins, and the choices whose replacement begins with
/// what is typed of it (or, for a unit, whose name does).
pub fn complete(vocabulary: &Vocabulary, line: &str, cursor: usize) -> (usize, Vec<Choice>) {
    if let Some(grammar) = &vocabulary.grammar {
        return grammar.complete(line, cursor);
    }
    let (before, start) = word_at(line, cursor);
    let typed = &before[start..];
    let done: Vec<&str> = before[..start].split_whitespace().collect();
    let slot = slot(vocabulary, &done);
    let lower = typed.to_lowercase();
    let units = |list: &[(String, String)]| -> Vec<Choice> {
        list.iter()
            .filter_map(|(label, name)| {
                let first = name.split_whitespace().next().unwrap_or(name);
                // A label typed is completed as a label; a name typed, as
                // the first word of the name when that word alone names the
                // unit (the prompt reads a unique beginning of a name),
                // else as the label.
                let replacement = if label.to_lowercase().starts_with(&lower) {
                    label.clone()
                } else if first.to_lowercase().starts_with(&lower) && vocabulary.names_one(first) {
                    first.to_string()
                } else if name.to_lowercase().starts_with(&lower)
                    || name
                        .split_whitespace()
                        .any(|word| word.to_lowercase().starts_with(&lower))
                {
                    label.clone()
                } else {
                    return None;
                };
                Some(Choice {
                    replacement,
                    display: format!("{label} ({name})"),
                })
            })
            .collect()
    };
    let words = |list: &[&str]| beginning_with(list, typed);
    let choices = match slot {
        Slot::Command => {
            let commands: Vec<&str> = COMMANDS
                .iter()
                .map(|(word, _)| *word)
                .filter(|word| *word != "?")
                .collect();
            let mut choices = words(&commands);
            // An alias is offered only when typed as one (`mv`, `shoot`).
            if choices.is_empty() {
                let aliases: Vec<&str> = ALIASES.iter().map(|(alias, _)| *alias).collect();
                choices = words(&aliases);
            }
            choices
        }
        Slot::Own => units(&vocabulary.own),
        Slot::Enemy => units(&vocabulary.enemy),
        Slot::AnyUnit => units(&vocabulary.all),
        Slot::EnemyThenOwn => {
            let mut choices = units(&vocabulary.enemy);
            choices.extend(units(&vocabulary.own));
            choices
        }
        Slot::General => {
            let mut choices = units(&vocabulary.generals);
            choices.extend(units(&vocabulary.own));
            choices
        }
        Slot::Words(list) => words(list),
        Slot::Nothing => Vec::new(),
    };
    (start, choices)
}

/// The kind of word expected after the complete words `done`.
fn slot(vocabulary: &Vocabulary, done: &[&str]) -> Slot {
    let Some((first, args)) = done.split_first() else {
        return Slot::Command;
    };
    let Some(verb) = verb(first) else {
        return Slot::Nothing;
    };
    // The unit named first, and what follows it.
    let unit_and_rest = |list: &[(String, String)]| -> Option<&[&str]> {
        let (head, rest) = args.split_first()?;
        known(list, head).then_some(rest)
    };
    match verb {
        "move" => match unit_and_rest(&vocabulary.own) {
            None if args.is_empty() => Slot::Own,
            None => Slot::Nothing,
            Some([]) => Slot::Words(&["to", "forward", "back", "towards", "road", "?"]),
            Some([way]) if matches!(way.to_lowercase().as_str(), "forward" | "back") => {
                Slot::Words(&["max"])
            }
            Some([towards]) if towards.eq_ignore_ascii_case("towards") => Slot::EnemyThenOwn,
            Some([towards, _]) if towards.eq_ignore_ascii_case("towards") => Slot::Words(&["max"]),
            Some([road]) if road.eq_ignore_ascii_case("road") => Slot::Words(&["to"]),
            Some([to, _]) if to.eq_ignore_ascii_case("to") => Slot::Words(&["facing"]),
            Some([to, _, facing]) if to.eq_ignore_ascii_case("to") && is_facing(facing) => {
                Slot::Words(&COMPASS)
            }
            Some(_) => Slot::Nothing,
        },
        "pivot" => match unit_and_rest(&vocabulary.own) {
            None if args.is_empty() => Slot::Own,
            Some([]) => Slot::Words(&["n", "ne", "e", "se", "s", "sw", "w", "nw", "towards"]),
            Some([towards]) if towards.eq_ignore_ascii_case("towards") => Slot::Enemy,
            _ => Slot::Nothing,
        },
        "fire" | "charge" => match unit_and_rest(&vocabulary.own) {
            None if args.is_empty() => Slot::Own,
            Some([]) => Slot::Enemy,
            _ => Slot::Nothing,
        },
        "route" => match unit_and_rest(&vocabulary.all) {
            None if args.is_empty() => Slot::AnyUnit,
            Some([]) => Slot::Words(&["to"]),
            Some([to]) if to.eq_ignore_ascii_case("to") => Slot::EnemyThenOwn,
            _ => Slot::Nothing,
        },
        "rally" => Slot::General,
        "general" => match args {
            [] => Slot::General,
            [_] => Slot::Words(&["to"]),
            _ => Slot::Nothing,
        },
        "what" | "why" if args.is_empty() => Slot::Enemy,
        "status" if args.is_empty() => Slot::AnyUnit,
        "end" | "undo" if args.is_empty() => Slot::Words(&["turn"]),
        "map" if args.is_empty() => Slot::Words(&["--svg"]),
        "help" if args.is_empty() => Slot::Words(&HELP_WORDS),
        _ => Slot::Nothing,
    }
}

/// The words `help` completes: the rules, then the other commands.
const HELP_WORDS: [&str; 21] = [
    "fire", "charge", "melee", "move", "rally", "rout", "victory", "pivot", "general", "route",
    "end", "map", "status", "log", "what", "why", "save", "load", "undo", "rewind", "history",
];

/// Whether `word` is what completion puts on the line for one of `list`'s
/// units: its label, or the first word of its name.
fn known(list: &[(String, String)], word: &str) -> bool {
    list.iter().any(|(label, name)| {
        label.eq_ignore_ascii_case(word)
            || name
                .split_whitespace()
                .next()
                .is_some_and(|first| first.eq_ignore_ascii_case(word))
    })
}

fn is_facing(word: &str) -> bool {
    matches!(word.to_lowercase().as_str(), "facing" | "face")
}

/// The command a first word names (a command, alias or unique prefix).
fn verb(first: &str) -> Option<&'static str> {
    let lower = first.to_lowercase();
    if let Some((_, verb)) = ALIASES.iter().find(|(alias, _)| *alias == lower) {
        return Some(verb);
    }
    let verbs = COMMANDS.iter().map(|(word, _)| *word);
    crate::suggest::resolve(&lower, verbs).ok()
}

#[cfg(test)]
mod tests;
