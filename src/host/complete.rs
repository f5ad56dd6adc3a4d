//! Tab completion at the one `foe play` prompt, by context (the line
//! editor asks through [`crate::completion::Grammar`]): the command first
//! (the shared ones and the rule set's own), then what that command takes
//! next — your units where you act with one (by map label, listed with
//! their names, or by name), the enemy's as a target and for `why`, your
//! generals or commanders, and the fixed words (`to`, `at`, `line`, `open order`,
//! `fire`, `counter`, your unassigned dice…). A unit's name may be several
//! words: it is completed whole, from where it begins. Pure: the words are
//! read off the game once a prompt, then each Tab is a function of the
//! line and the cursor.

use super::repl::Names;
use crate::completion::{Choice, Grammar, beginning_with, word_at};

/// The commands both rule sets share (questions, undo, save).
const COMMON_VERBS: &[&str] = &[
    "end", "route", "status", "map", "what", "why", "victory", "log", "history", "undo", "rewind",
    "save", "load", "help", "quit",
];

/// The common commands the watching pause prompt refuses.
const WATCHING_REFUSES: &[&str] = &["end", "undo", "rewind", "history", "load"];

/// What a place on the line takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// One of the player's units (seed 001: or a commander, for `move`).
    Own,
    /// One of the player's units, or a commander of theirs.
    OwnOrCommander,
    /// One of the player's commanders.
    Commander,
    /// One of foe's units.
    Enemy,
    /// Any unit in play.
    Any,
    /// One of these words (a word may hold a space: `open order`).
    Word(&'static [&'static str]),
    /// The player's dice still to give out (seed 002).
    Die,
    /// A number, a point, a file: typed, not completed.
    Free,
}

use Item::{Any, Commander, Die, Enemy, Free, Own, OwnOrCommander, Word};

/// The shapes a command's words may take after its first word: each a
/// sequence of places (more than one where words are optional).
pub type Shapes = &'static [&'static [Item]];

/// The shapes of a command's words after its first word: the shared
/// commands', else the rule set's own (`own`, its adapter's).
fn shapes(own: fn(&str) -> Shapes, verb: &str) -> Shapes {
    match verb {
        "map" => &[&[Word(&["--svg"]), Free]],
        "why" | "what" => &[&[Enemy]],
        "status" => &[&[Any]],
        "route" => &[&[Own, Word(&["to"]), Free]],
        "end" => &[&[Word(&["turn"])]],
        "help" => &[&[Word(&[
            "move", "route", "end", "status", "map", "what", "why", "victory", "log", "history",
            "undo", "rewind", "save", "fire", "charge", "respond",
        ])]],
        "log" => &[&[Word(&["all"])]],
        "undo" => &[&[Word(&["turn"])]],
        "rewind" | "save" | "load" => &[&[Free]],
        "fire" | "charge" => &[&[Own, Word(&["at"]), Enemy], &[Own, Enemy]],
        _ => own(verb),
    }
}

/// The shapes of `move` that every rule set's moves share: straight on or
/// back, or towards an enemy, as far as `max`.
pub const DIRECTED_MOVES: [&[Item]; 2] = [
    &[Own, Word(&["forward", "back"]), Word(&["max"])],
    &[Own, Word(&["towards"]), Enemy, Word(&["max"])],
];

/// What the seed-001/002 prompt completes now, read off the game.
#[derive(Debug, Clone, Default)]
pub struct HostGrammar {
    /// The first words of the rule set's own commands.
    own_verbs: &'static [&'static str],
    /// The shapes of the rule set's own commands (none before a game).
    own_shapes: Option<fn(&str) -> Shapes>,
    /// The player's units in play: map label, name.
    own: Vec<(String, String)>,
    /// The other sides' units in play: map label, name.
    enemy: Vec<(String, String)>,
    /// The player's commanders still with the army (seed 001).
    commanders: Vec<String>,
    /// The player's dice to give out (seed 002), as typed.
    dice: Vec<String>,
    /// The player commands no side: only the questions are offered.
    watching: bool,
}

impl HostGrammar {
    /// The words of the game `names` reads, for a player commanding
    /// `player_sides`: units by map label (listed with their names) or by
    /// name.
    pub fn of(names: &Names<'_>, player_sides: &[usize]) -> HostGrammar {
        let game = names.game();
        let mut grammar = HostGrammar {
            own_verbs: game.first_words(),
            own_shapes: Some(game.shapes()),
            commanders: game.commanders(player_sides),
            dice: game.dice_typed(player_sides),
            watching: player_sides.is_empty(),
            ..HostGrammar::default()
        };
        for unit in names.units().iter().filter(|unit| !unit.removed) {
            let entry = (names.label(unit.index).to_string(), unit.name.clone());
            if player_sides.contains(&unit.side) {
                grammar.own.push(entry);
            } else {
                grammar.enemy.push(entry);
            }
        }
        grammar
    }

    fn verbs(&self) -> Vec<&'static str> {
        let own: &[&str] = if self.watching { &[] } else { self.own_verbs };
        own.iter()
            .chain(COMMON_VERBS)
            // Watching, there is nothing of the player's to take back.
            .filter(|verb| !(self.watching && WATCHING_REFUSES.contains(verb)))
            .copied()
            .collect()
    }

    /// The units a place takes: label, name.
    fn units(&self, item: Item) -> Vec<&(String, String)> {
        match item {
            Own | OwnOrCommander => self.own.iter().collect(),
            Enemy => self.enemy.iter().collect(),
            Any => self.own.iter().chain(&self.enemy).collect(),
            _ => Vec::new(),
        }
    }

    /// Every word a place takes as typed: its units' labels and names, its
    /// commanders, dice or words.
    fn names(&self, item: Item) -> Vec<&str> {
        fn list(names: &[String]) -> Vec<&str> {
            names.iter().map(String::as_str).collect()
        }
        let mut names: Vec<&str> = self
            .units(item)
            .into_iter()
            .flat_map(|(label, name)| [label.as_str(), name.as_str()])
            .collect();
        match item {
            OwnOrCommander | Commander => names.extend(list(&self.commanders)),
            Die => names.extend(list(&self.dice)),
            Word(words) => names.extend(words.iter().copied()),
            _ => {}
        }
        names
    }

    /// The choices for a place with `typed` of it: units by label first
    /// (shown with their names), then by name, then the rest.
    fn choices(&self, item: Item, typed: &str) -> Vec<Choice> {
        let units = self.units(item);
        if units.is_empty() {
            return choices(&self.names(item), typed, item);
        }
        let lower = typed.to_lowercase();
        let mut found: Vec<Choice> = units
            .iter()
            .filter(|(label, _)| label.to_lowercase().starts_with(&lower))
            .map(|(label, name)| Choice {
                replacement: label.clone(),
                display: format!("{label} ({name})"),
            })
            .collect();
        if !lower.is_empty() {
            let names: Vec<&str> = units.iter().map(|(_, name)| name.as_str()).collect();
            for choice in choices(&names, typed, item) {
                let already = units.iter().any(|(label, name)| {
                    *name == choice.replacement && found.iter().any(|f| f.replacement == *label)
                });
                if !already {
                    found.push(choice);
                }
            }
        }
        if matches!(item, OwnOrCommander) {
            found.extend(beginning_with(&self.names(Commander), typed));
        }
        found
    }

    /// Follow `shape` over `text` (the line after the command's first word,
    /// up to the cursor, which begins at byte `offset` of the line): the
    /// place the cursor is in and what it completes, or `None` if the words
    /// typed do not fit the shape.
    fn follow(&self, shape: &[Item], text: &str, offset: usize) -> Option<(usize, Vec<Choice>)> {
        let mut at = 0;
        for (n, item) in shape.iter().enumerate() {
            let rest = text.get(at..)?;
            if *item == Free {
                // A number or a point: one word, never completed.
                match rest.char_indices().find(|(_, c)| c.is_whitespace()) {
                    Some((space, c)) => at += space + c.len_utf8(),
                    None => return Some((offset + at, Vec::new())),
                }
                continue;
            }
            let names = self.names(*item);
            if let Some(used) = consumed(&names, rest, shape.get(n + 1)) {
                at += used;
                continue;
            }
            let choices = self.choices(*item, rest);
            if choices.is_empty() && rest.contains(char::is_whitespace) {
                return None;
            }
            return Some((offset + at, choices));
        }
        // Past the last place: nothing more to complete.
        Some((offset + text.len(), Vec::new()))
    }
}

/// How many bytes of `rest` the place taking `names` uses, with the space
/// after it: the longest name followed by a space (ignoring case), else a
/// unique beginning of a name as the prompt reads it, up to the next
/// place's word (`1st G at …`).
fn consumed(names: &[&str], rest: &str, next: Option<&Item>) -> Option<usize> {
    let lower = rest.to_lowercase();
    // Lowercasing may change lengths: only compare where it did not.
    let same = lower.len() == rest.len();
    let whole = names
        .iter()
        .map(|name| name.to_lowercase())
        .filter(|name| {
            same && lower.starts_with(name.as_str())
                && rest.is_char_boundary(name.len())
                && lower[name.len()..].starts_with(' ')
        })
        .map(|name| name.len() + 1)
        .max();
    if whole.is_some() {
        return whole;
    }
    let Some(Word(words)) = next else {
        return None;
    };
    words
        .iter()
        .filter_map(|word| {
            let needle = format!(" {word} ");
            let found = rest
                .as_bytes()
                .windows(needle.len())
                .position(|window| window.eq_ignore_ascii_case(needle.as_bytes()))?;
            let typed = rest[..found].trim();
            crate::suggest::resolve(typed, names.iter().copied())
                .ok()
                .map(|_| found + 1)
        })
        .min()
}

/// The names that begin as `typed` does (ignoring case), whole; for units,
/// also those with a later word that does (`Gua` offers `1st Guards`).
fn choices(names: &[&str], typed: &str, item: Item) -> Vec<Choice> {
    let mut choices = beginning_with(names, typed);
    if matches!(item, Own | OwnOrCommander | Commander | Enemy) && !typed.trim().is_empty() {
        let lower = typed.to_lowercase();
        for name in names {
            let later = name
                .split_whitespace()
                .skip(1)
                .any(|word| word.to_lowercase().starts_with(&lower));
            if later && !choices.iter().any(|c| c.replacement == *name) {
                choices.push(Choice {
                    replacement: (*name).to_string(),
                    display: (*name).to_string(),
                });
            }
        }
    }
    choices
}

impl Grammar for HostGrammar {
    fn complete(&self, line: &str, cursor: usize) -> (usize, Vec<Choice>) {
        let (before, word_start) = word_at(line, cursor);
        let leading = before.len() - before.trim_start().len();
        let Some((verb, _)) = before[leading..].split_once(char::is_whitespace) else {
            return (
                word_start,
                beginning_with(&self.verbs(), &before[leading..]),
            );
        };
        let offset = leading + verb.len() + 1;
        let verb = verb.to_lowercase();
        let Some(text) = before.get(offset..) else {
            return (word_start, Vec::new());
        };
        let Some(own_shapes) = self.own_shapes else {
            return (word_start, Vec::new());
        };
        // Every shape the words fit; the choices of those that reach the
        // cursor at the same place, without repeats.
        let mut found: Option<(usize, Vec<Choice>)> = None;
        for shape in shapes(own_shapes, &verb) {
            let Some((start, choices)) = self.follow(shape, text, offset) else {
                continue;
            };
            match &mut found {
                None => found = Some((start, choices)),
                Some((at, all)) if *at == start => {
                    for choice in choices {
                        if !all.contains(&choice) {
                            all.push(choice);
                        }
                    }
                }
                Some(_) => {}
            }
        }
        found.unwrap_or((word_start, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Seeded;
    use crate::host::Game;
    use crate::ruleset::Ruleset;
    use crate::tables::Tables;
    use crate::yaml::Source;

    fn scenario(name: &str) -> crate::scenario::Scenario {
        let (file, text) = crate::scenario::builtin(name).expect("built in");
        crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid")
    }

    fn game(name: &str) -> Game {
        Game::start(&scenario(name), &Tables::embedded(), &mut Seeded::new(1))
            .expect("starts")
            .0
    }

    /// The grammar of a new game of `name` for a player of `sides`.
    fn grammar(name: &str, sides: &[usize]) -> HostGrammar {
        let game = game(name);
        HostGrammar::of(&Names::new(&game, &scenario(name)), sides)
    }

    /// The choices at the end of `line`, as `start: a | b`.
    fn check(grammar: &HostGrammar, line: &str, expected: &str) {
        let (start, choices) = grammar.complete(line, line.len());
        let shown: Vec<String> = choices.into_iter().map(|c| c.display).collect();
        assert_eq!(
            format!("{start}: {}", shown.join(" | ")),
            expected,
            "{line:?}"
        );
    }

    #[test]
    fn seed_001_commands_units_and_the_words_after_them() {
        let british = grammar("guilford-ruinous", &[0]);
        let check = |line: &str, expected: &str| check(&british, line, expected);
        check(
            "",
            "0: move | pivot | about | form | mount | dismount | fire | charge | respond | join | leave | end | route | status | map | what | why | victory | log | history | undo | rewind | save | load | help | quit",
        );
        check("mo", "0: move | mount");
        check("xyz", "0: ");
        check("fire 1st", "5: 1st Guards | 1st Cannon");
        check("fire gua", "5: 1st Guards | 2nd Guards | 3rd Guards");
        check(
            "fire 1st Guards ",
            "16: at | A1 (Washington's Dragoons) | A2 (1st NC Militia) | A3 (2nd NC Militia) | A4 (1st Line Cannon A) | A5 (1st Line Cannon B) | A6 (3rd NC Militia) | A7 (4th NC Militia) | A8 (Virginia Rifles) | A9 (1st VA Militia) | A10 (2nd VA Militia) | A11 (3rd VA Militia) | A12 (4th VA Militia) | A13 (4th Virginia) | A14 (5th Virginia) | A15 (1st Maryland) | A16 (3rd Line Cannon A) | A17 (3rd Line Cannon B) | A18 (2nd Maryland) | A19 (Delaware Continentals)",
        );
        check(
            "fire 1st Guards a",
            "16: at | A1 (Washington's Dragoons) | A2 (1st NC Militia) | A3 (2nd NC Militia) | A4 (1st Line Cannon A) | A5 (1st Line Cannon B) | A6 (3rd NC Militia) | A7 (4th NC Militia) | A8 (Virginia Rifles) | A9 (1st VA Militia) | A10 (2nd VA Militia) | A11 (3rd VA Militia) | A12 (4th VA Militia) | A13 (4th Virginia) | A14 (5th Virginia) | A15 (1st Maryland) | A16 (3rd Line Cannon A) | A17 (3rd Line Cannon B) | A18 (2nd Maryland) | A19 (Delaware Continentals)",
        );
        check(
            "fire 1st G at ",
            "14: A1 (Washington's Dragoons) | A2 (1st NC Militia) | A3 (2nd NC Militia) | A4 (1st Line Cannon A) | A5 (1st Line Cannon B) | A6 (3rd NC Militia) | A7 (4th NC Militia) | A8 (Virginia Rifles) | A9 (1st VA Militia) | A10 (2nd VA Militia) | A11 (3rd VA Militia) | A12 (4th VA Militia) | A13 (4th Virginia) | A14 (5th Virginia) | A15 (1st Maryland) | A16 (3rd Line Cannon A) | A17 (3rd Line Cannon B) | A18 (2nd Maryland) | A19 (Delaware Continentals)",
        );
        check("charge 71st Foot at 1st NC", "20: 1st NC Militia");
        check("FORM jaegers ", "13: line | column | open order");
        check("form Jaegers op", "13: open order");
        check("move Cornw", "5: Cornwallis");
        check("move 71st Foot to ", "18: ");
        check("join O'Hara to 2nd", "15: 2nd Guards | 2nd Cannon");
        check("about ", "6: face");
        check("about face Von", "11: Von Bose");
        check("respond c", "8: counter");
        check("why 1st Ma", "4: 1st Maryland");
        check("why Von", "4: ");
        check("map ", "4: --svg");
        check("undo t", "5: turn");
        check("fire Nobody at ", "15: ");
        check("assign ", "7: ");
        // Watching, only the questions.
        let watching = grammar("guilford-ruinous", &[]);
        self::check(
            &watching,
            "",
            "0: route | status | map | what | why | victory | log | save | help | quit",
        );
        self::check(&watching, "why 71st", "4: 71st Foot");
        self::check(&watching, "un", "0: ");
        self::check(&watching, "rew", "0: ");
    }

    /// Whatever is typed, and wherever the cursor is, Tab never panics:
    /// spaces of several bytes, letters that change length in lower case,
    /// a cursor inside a character or past the end.
    #[test]
    fn any_line_and_cursor_completes_without_a_panic() {
        let grammar = grammar("guilford-ruinous", &[0]);
        for line in [
            "fire\u{3000}1st\u{3000}Guards\u{3000}at ",
            "move 71st Foot to 1,2\u{3000}x",
            "fire İİİ at ",
            "charge Ⅻ 1st Guards at 1st NC",
            "form 1st Guards\u{2003}line",
            "\u{3000}\u{3000}",
            "é",
        ] {
            for cursor in 0..=line.len() + 2 {
                let (start, _) = grammar.complete(line, cursor);
                assert!(start <= line.len(), "{line:?} at {cursor}");
                assert!(line.is_char_boundary(start), "{line:?} at {cursor}");
            }
        }
    }

    #[test]
    fn seed_002_dice_move_shapes_and_answers() {
        let game = game("henry-hill");
        let Game::Acw(state) = &game else {
            panic!("seed 002")
        };
        let side = state
            .sides
            .iter()
            .position(|s| s.name == "confederates")
            .unwrap();
        let grammar = HostGrammar::of(&Names::new(&game, &scenario("henry-hill")), &[side]);
        let (_, verbs) = grammar.complete("", 0);
        assert_eq!(verbs[0].display, "assign");
        assert!(verbs.iter().all(|c| c.display != "about"));
        let (start, dice) = grammar.complete("assign ", 7);
        assert_eq!(start, 7);
        let mut expected: Vec<String> = state
            .dice_to_assign(side)
            .iter()
            .map(u8::to_string)
            .collect();
        expected.sort_by(|a, b| b.cmp(a));
        expected.dedup();
        let shown: Vec<String> = dice.into_iter().map(|c| c.display).collect();
        assert_eq!(shown, expected);
        check(&grammar, "assign 6 ", "9: to");
        check(&grammar, "assign 6 to Jack", "12: Jackson's Brigade");
        check(
            &grammar,
            "move Jackson's Brigade ",
            "23: form | to | forward | back | towards",
        );
        check(
            &grammar,
            "move Jackson's Brigade form ",
            "28: line | column | dismounted",
        );
        check(&grammar, "move Jackson's Brigade form line ", "33: to");
        check(&grammar, "move Jack to 30,12 ", "19: facing");
        check(&grammar, "respond ", "8: fire | hold");
        check(&grammar, "form ", "5: ");
    }
}
