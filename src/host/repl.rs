//! The words of `foe play` over the boundary, pure: a typed line becomes a
//! [`Command`] (an engine action or a question), a legal action becomes
//! the words that type it back (so `?` lists pasteable commands), and the
//! state, the map and the opponent's reasons become text. Bad input is a
//! one-line message naming what was expected, with did-you-mean for names.

use super::complete::Shapes;
use super::opponent::{Decision, ORDER, Opponent};
use super::position::Position;
use super::{Action, Game};
use crate::battlefield::Point;
use crate::battlefield::geometry::{Vector, tenth};
use crate::scenario::Scenario;
use crate::scenario::label::unit_labels;
use crate::suggest::{did_you_mean, normalise, without_parentheses};
use std::fmt::Write as _;

/// What a line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Take an engine action.
    Act(Action),
    /// Take the action numbered so in the last `?` list (from 1).
    Pick(usize),
    /// List the legal actions: all, or those of one command word, one
    /// unit, or both (`? fire`, `move B3 ?`).
    Legal {
        /// The command word, if one was given.
        verb: Option<String>,
        /// The unit, if one was named.
        unit: Option<usize>,
    },
    /// Seed 002: give out the player's remaining dice by foe's policy.
    Auto,
    /// End phases (seed 002: hold the units still to act) until the
    /// player's turn is over.
    EndTurn,
    /// The turn, the phase and every unit, or one unit in detail.
    Status(Option<usize>),
    /// A map of the table as text, or as an SVG picture written to a file
    /// (or, for a folder `DIR/`, one picture every phase from now on).
    Map {
        /// Where to write the picture.
        svg: Option<String>,
    },
    /// A unit's situation now and the odds of each order its reaction
    /// test could give.
    What(usize),
    /// Why foe's unit did what it did.
    Why(usize),
    /// `why GENERAL`: a general's reaction tests (his name as the
    /// scenario gives it).
    WhyGeneral(String),
    /// The last lines of the record (all with `None`).
    Log(Option<usize>),
    /// The player's actions, turn by turn.
    History,
    /// Each side's victory conditions and how near they are.
    Victory,
    /// The way a unit would go to a point over the ground, and its cost.
    Route {
        /// The unit.
        unit: usize,
        /// Where to.
        to: Point,
    },
    /// Take back the player's last action.
    Undo,
    /// Take back the player's actions of this turn (at a turn's start,
    /// before any, of the turn before; ruling P1).
    UndoTurn,
    /// Go back to the player's first decision in turn N (ruling P1).
    Rewind(u32),
    /// Save the game to a file.
    Save(String),
    /// Load a saved game in place of this one.
    Load(String),
    /// The commands, or one command or rule in detail.
    Help(Option<String>),
    /// Stop.
    Quit,
}

/// The names the prompt reads a game's units by: each unit's map label
/// (`B3`, as maps, `status` and completion show it), its name, or any part
/// of its name that fits only it (`why maryland`).
pub struct Names<'g> {
    game: &'g Game,
    units: Vec<super::UnitView>,
    labels: Vec<String>,
    /// The generals' names, every side's, as the scenario gives them.
    generals: Vec<String>,
}

impl<'g> Names<'g> {
    /// The names in `game`, a game of `scenario`.
    pub fn new(game: &'g Game, scenario: &Scenario) -> Names<'g> {
        let units = game.units();
        let labels = unit_labels(scenario, units.iter().map(|u| u.side));
        Names {
            game,
            units,
            labels,
            generals: scenario
                .sides
                .iter()
                .flat_map(|side| side.generals.iter().map(|g| g.name.clone()))
                .collect(),
        }
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// Every unit, by index, as the prompt reads them.
    pub fn units(&self) -> &[super::UnitView] {
        &self.units
    }

    /// A unit's map label.
    pub fn label(&self, unit: usize) -> &str {
        self.labels.get(unit).map_or("?", String::as_str)
    }

    /// A unit's name.
    pub fn name(&self, unit: usize) -> &str {
        self.units.get(unit).map_or("?", |u| u.name.as_str())
    }

    /// The general `text` names (his name or its unique beginning,
    /// ignoring case), if any.
    pub fn general(&self, text: &str) -> Option<&str> {
        let text = text.trim().trim_matches('`').trim();
        crate::suggest::resolve(text, self.generals.iter().map(String::as_str)).ok()
    }

    /// A unit as `B3 (71st Foot)`.
    pub fn both(&self, unit: usize) -> String {
        format!("{} ({})", self.label(unit), self.name(unit))
    }

    /// The unit `text` names: its label, its name, the start of its name,
    /// or a part of its name no other unit's has (ignoring case and
    /// punctuation), or `#N` by index.
    pub fn unit(&self, text: &str) -> Result<usize, String> {
        let text = without_parentheses(text);
        let text = text.trim().trim_matches('`').trim();
        if text.is_empty() {
            return Err(
                "expected a unit: its map label (such as B3), its name or part of it".into(),
            );
        }
        if let Some(n) = text.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
            return self.units.get(n).map(|u| u.index).ok_or_else(|| {
                format!(
                    "no unit #{n}: units are #0 to #{}",
                    self.units.len().saturating_sub(1)
                )
            });
        }
        let typed = normalise(text);
        if typed.is_empty() {
            return Err(format!(
                "no unit `{text}`: name a unit by its label or name"
            ));
        }
        let named: Vec<(usize, String)> = self
            .units
            .iter()
            .map(|u| (u.index, normalise(&u.name)))
            .collect();
        // Tried in turn: the label or whole name, the start of a name, any
        // part of one.
        let fits = |tier: u8, label: &str, name: &str| match tier {
            0 => label == typed || name == typed,
            1 => name.starts_with(&typed),
            _ => name.contains(&typed),
        };
        let pick = |tier: u8| -> Vec<usize> {
            named
                .iter()
                .filter(|(index, name)| fits(tier, &normalise(self.label(*index)), name))
                .map(|(index, _)| *index)
                .collect()
        };
        for tier in 0..3 {
            match pick(tier).as_slice() {
                [] => {}
                [one] => return Ok(*one),
                many => {
                    let listed: Vec<String> = many.iter().map(|&u| self.both(u)).collect();
                    return Err(format!(
                        "`{text}` could be {}; say more of the name or use its label",
                        listed.join(", ")
                    ));
                }
            }
        }
        Err(format!("no unit `{text}`{}", self.suggestion(text)))
    }

    /// `; did you mean `Washington's Dragoons` (A1)?` for a mistyped unit:
    /// the nearest label, whole name, or word of a name (players type one
    /// word of a name, misspelt).
    fn suggestion(&self, typed: &str) -> String {
        // Two letters are near every label: no guess.
        if typed.chars().count() < 3 {
            return String::new();
        }
        let mut spellings: Vec<(String, usize)> = Vec::new();
        for u in &self.units {
            spellings.push((self.label(u.index).to_lowercase(), u.index));
            spellings.push((u.name.to_lowercase(), u.index));
            for word in u.name.split_whitespace() {
                let word = normalise(word);
                // A possessive's name alone (`Jackson's` as `jackson`).
                if let Some(stem) = word.strip_suffix('s')
                    && u.name.to_lowercase().contains(&format!("{stem}'s"))
                    && stem.len() > 2
                {
                    spellings.push((stem.to_string(), u.index));
                }
                if word.len() > 2 {
                    spellings.push((word, u.index));
                }
            }
        }
        let typed = typed.to_lowercase();
        let nearest = crate::suggest::nearest(&typed, spellings.iter().map(|(s, _)| s.as_str()))
            .or_else(|| {
                crate::suggest::sounds_like(&typed, spellings.iter().map(|(s, _)| s.as_str()))
            });
        match nearest.and_then(|found| spellings.iter().find(|(s, _)| s == found)) {
            Some((_, unit)) => format!(
                "; did you mean `{}` ({})?",
                self.name(*unit),
                self.label(*unit)
            ),
            None => String::new(),
        }
    }
}

/// Parse a line typed at the prompt.
pub fn parse(names: &Names<'_>, line: &str) -> Result<Command, String> {
    let line = line.trim();
    // Split the line as typed: lowercasing can change a word's length in
    // bytes, so the rest is never cut at a lowercased offset.
    let (verb, rest) = match line.split_once(char::is_whitespace) {
        Some((verb, rest)) => (verb.to_lowercase(), rest.trim()),
        None => (line.to_lowercase(), ""),
    };
    if let Ok(n) = verb.parse::<usize>()
        && rest.is_empty()
    {
        return Ok(Command::Pick(n));
    }
    let verb = ALIASES
        .iter()
        .find(|(alias, _)| *alias == verb)
        .map_or(verb.as_str(), |(_, verb)| verb);
    // A unique beginning of a command is the command (`stat`, `vic`), as
    // at Guilford's prompt; one that could be several says which.
    let known = verbs(names.game);
    let verb = match crate::suggest::resolve(verb, known.iter().copied()) {
        Ok(full) => full,
        Err(matches) if matches.len() > 1 && !known.contains(&verb) => {
            return Err(format!("`{verb}` could be {}", matches.join(", ")));
        }
        Err(_) => verb,
    };
    if verb == "?" || line.ends_with(" ?") {
        return legal(names, line);
    }
    match verb {
        "auto" => Ok(Command::Auto),
        "status" => match rest {
            "" => Ok(Command::Status(None)),
            unit => Ok(Command::Status(Some(names.unit(unit)?))),
        },
        "map" => match rest.split_once(char::is_whitespace) {
            _ if rest.is_empty() => Ok(Command::Map { svg: None }),
            Some((word, file)) if word.eq_ignore_ascii_case("svg") || word == "--svg" => {
                Ok(Command::Map {
                    svg: Some(file.trim().to_string()),
                })
            }
            _ => Err("expected `map`, `map --svg FILE` or `map --svg DIR/`".into()),
        },
        "why" => match names.unit(rest) {
            Ok(unit) => Ok(Command::Why(unit)),
            Err(problem) => match names.general(rest) {
                Some(general) => Ok(Command::WhyGeneral(general.to_string())),
                None => Err(problem),
            },
        },
        "what" => Ok(Command::What(names.unit(rest)?)),
        "log" => match rest {
            "" => Ok(Command::Log(Some(20))),
            "all" => Ok(Command::Log(None)),
            n => n
                .parse()
                .map(|n| Command::Log(Some(n)))
                .map_err(|_| format!("`log` takes a number of lines or `all`, not `{n}`")),
        },
        "history" => Ok(Command::History),
        "victory" => Ok(Command::Victory),
        "route" => {
            let (who, to) = split_word(rest, "to")
                .ok_or("expected `route UNIT to X,Y` or `route UNIT to UNIT`")?;
            let unit = names.unit(who)?;
            let to = match point(to) {
                Ok(to) => to,
                Err(problem) => match names.unit(to) {
                    Ok(target) => names.units[target].position,
                    Err(_) => return Err(problem),
                },
            };
            Ok(Command::Route { unit, to })
        }
        "end" if rest.eq_ignore_ascii_case("turn") => Ok(Command::EndTurn),
        "undo" => match rest.to_lowercase().as_str() {
            "" => Ok(Command::Undo),
            "turn" => Ok(Command::UndoTurn),
            other => Err(format!(
                "`undo` takes back your last action, `undo turn` this turn's; not `undo {other}`"
            )),
        },
        "rewind" => match rest.parse::<u32>() {
            Ok(turn) if turn >= 1 => Ok(Command::Rewind(turn)),
            _ => Err(format!(
                "`rewind` takes a turn number from 1 (rewind 2 goes back to the start of turn 2), not `{rest}`"
            )),
        },
        "save" if !rest.is_empty() => Ok(Command::Save(rest.to_string())),
        "save" => Err("`save` takes a file name: save FILE".into()),
        "load" if !rest.is_empty() => Ok(Command::Load(rest.to_string())),
        "load" => Err("`load` takes a file name: load FILE".into()),
        "help" => Ok(Command::Help(
            (!rest.is_empty()).then(|| rest.to_lowercase()),
        )),
        "quit" => Ok(Command::Quit),
        "move" => match directed_move(names, rest) {
            Some(action) => action.map(Command::Act),
            None => action(names, verb, rest).map(Command::Act),
        },
        _ => action(names, verb, rest).map(Command::Act),
    }
}

/// `?`, `? VERB`, `? UNIT`, `? VERB UNIT` and `VERB UNIT ?`.
fn legal(names: &Names<'_>, line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line
        .split_whitespace()
        .filter(|word| *word != "?" && !word.eq_ignore_ascii_case("legal"))
        .collect();
    let Some(first) = words.first() else {
        return Ok(Command::Legal {
            verb: None,
            unit: None,
        });
    };
    let first = first.to_lowercase();
    let first = ALIASES
        .iter()
        .find(|(alias, _)| *alias == first)
        .map_or(first.as_str(), |(_, verb)| verb)
        .to_string();
    let (verb, rest) = if verbs(names.game).contains(&first.as_str()) {
        (Some(first), &words[1..])
    } else {
        (None, &words[..])
    };
    let unit = match rest {
        [] => None,
        words => Some(names.unit(&words.join(" "))?),
    };
    Ok(Command::Legal { verb, unit })
}

/// Other words players type for a command: `mv` is `move`.
pub const ALIASES: &[(&str, &str)] = &[
    ("mv", "move"),
    ("go", "move"),
    ("advance", "move"),
    ("shoot", "fire"),
    ("volley", "fire"),
    ("attack", "charge"),
    ("face", "pivot"),
    ("wheel", "pivot"),
    ("turn", "pivot"),
    ("legal", "?"),
    ("s", "status"),
    ("h", "help"),
    ("q", "quit"),
    ("exit", "quit"),
];

/// The commands every rule set has, with their usage, for `help`, Tab
/// and did-you-mean: the same words as seed 000's prompt.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        "?",
        "?  or  ? COMMAND [UNIT]  or  COMMAND UNIT ?   what is legal now; a number takes one from the list",
    ),
    (
        "move",
        "move UNIT to X,Y | forward N|max | back N|max | towards UNIT|X,Y [N|max]",
    ),
    (
        "route",
        "route UNIT to X,Y|UNIT   the way it would go over the ground, its cost in moves, and the first move to paste",
    ),
    (
        "end",
        "end [turn]               end this phase (where the rules have phases), or your whole turn",
    ),
    (
        "status",
        "status [UNIT]            the turn, the phase and every unit, or one unit in detail",
    ),
    (
        "map",
        "map [--svg FILE|DIR/]    the table, or an SVG picture (DIR/: one every phase)",
    ),
    (
        "what",
        "what UNIT                a unit's situation now and the odds of each order",
    ),
    (
        "why",
        "why UNIT|GENERAL         foe's reaction test for its unit or general (the baseline's reason), and what it did",
    ),
    (
        "victory",
        "victory                  each side's victory conditions and how near they are",
    ),
    (
        "log",
        "log [N|all]              the record (its last N lines)",
    ),
    (
        "history",
        "history                  your actions, turn by turn",
    ),
    (
        "undo",
        "undo [turn]              take back your last action (or this turn's)",
    ),
    (
        "rewind",
        "rewind N                 go back to the start of turn N",
    ),
    ("save", "save FILE                save the game"),
    (
        "load",
        "load FILE                load a saved game in place of this one",
    ),
    (
        "help",
        "help [COMMAND|RULE]      this list, one command, or a rule",
    ),
    (
        "quit",
        "quit                     leave (the game is autosaved)",
    ),
];

/// How one engine reads a player's words and says its actions back: the
/// prompt's adapter, one for each engine (in [`super::engines`]). The
/// shared vocabulary (`move U forward N`, `?`, `status`, `undo`, …) is
/// this module's; a rule set's own verbs, its reasons for the verbs it has
/// no use for, and its words for its actions are its adapter's.
pub trait Words: Position {
    /// The rule set's own commands, each with its usage.
    const COMMANDS: &'static [(&'static str, &'static str)];

    /// Why a verb another rule set has does nothing here, naming the
    /// command that does the job.
    fn not_here(verb: &str) -> Option<&'static str>;

    /// What a command does under these rules, beyond its usage (`help
    /// VERB`).
    fn more_on(verb: &str) -> Option<&'static str>;

    /// A line's verb and the rest of it as one of this engine's actions.
    fn read(&self, names: &Names<'_>, verb: &str, rest: &str) -> Result<Self::Action, String>;

    /// The move of `unit` straight to `to`, ending facing `facing` (where
    /// the rules let a move choose its facing).
    fn move_to(unit: usize, to: Point, facing: f64) -> Self::Action;

    /// The words that type `action` at the prompt.
    fn say(&self, action: &Self::Action) -> String;

    /// The unit `action` is for, if it is one unit's.
    fn unit_of(action: &Self::Action) -> Option<usize>;

    /// Whether `action` passes the player's current step (an `end` of a
    /// phase, a unit's `hold`).
    fn passes(action: &Self::Action) -> bool;

    /// `help TOPIC` on a rule (`help melee`, `help shooting`): the rule
    /// set's rules of it from its data, as played; `None` for a word that
    /// names none of its rules.
    fn rule_help(&self, topic: &str) -> Option<String> {
        let _ = topic;
        None
    }

    /// The opening's lines on how the game is won and how a turn goes
    /// (`game` is this one, as the boundary holds it).
    fn rules_lines(&self, game: &Game) -> String {
        let _ = game;
        String::new()
    }

    /// `status`'s lines on dice waiting to be given out.
    fn dice_lines(&self) -> String {
        String::new()
    }

    /// The dice the side giving them out has left, and the units waiting
    /// for one; `None` when no dice are being given out.
    fn dice_to_give(&self) -> Option<String> {
        None
    }

    /// `auto`: the next of the player's dice given out as foe would (see
    /// [`auto_die`]).
    fn auto_die(
        &self,
        player_sides: &[usize],
    ) -> Result<Option<(Self::Action, String)>, &'static str> {
        let _ = player_sides;
        Err("`auto` gives out seed-002 activation dice; this game has none")
    }

    /// `, die 5` (`, die 5 used`) for a unit given an activation die.
    fn activation_die(&self, unit: usize) -> String {
        let _ = unit;
        String::new()
    }

    /// `victory`'s lines: each side's conditions and how near they are.
    fn victory_lines(&self, names: &Names<'_>) -> String {
        let _ = names;
        String::new()
    }

    /// The first words of the rule set's own commands (`move` among
    /// them), in the order Tab lists them.
    const FIRST_WORDS: &'static [&'static str];

    /// What Tab completes after the first word of one of the rule set's
    /// own commands.
    fn shapes(verb: &str) -> Shapes;

    /// The player's commanders still with the army, by name, for Tab.
    fn own_commanders(&self, player_sides: &[usize]) -> Vec<String> {
        let _ = player_sides;
        Vec::new()
    }

    /// The player's dice still to give out, as typed, for Tab.
    fn dice_typed(&self, player_sides: &[usize]) -> Vec<String> {
        let _ = player_sides;
        Vec::new()
    }
}

/// [`Words::FIRST_WORDS`] of `P`.
pub(super) fn first_words<P: Words>(_: &P) -> &'static [&'static str] {
    P::FIRST_WORDS
}

/// [`Words::shapes`] of `P`.
pub(super) fn shapes<P: Words>(_: &P) -> fn(&str) -> Shapes {
    P::shapes
}

/// [`Words::read`] as an action of any engine.
pub(super) fn read<P: Words>(
    state: &P,
    names: &Names<'_>,
    verb: &str,
    rest: &str,
) -> Result<Action, String> {
    state.read(names, verb, rest).map(Into::into)
}

/// [`Words::COMMANDS`] of `P`.
pub(super) fn commands<P: Words>(_: &P) -> &'static [(&'static str, &'static str)] {
    P::COMMANDS
}

/// [`Words::not_here`] of `P`.
pub(super) fn not_here<P: Words>(_: &P, verb: &str) -> Option<&'static str> {
    P::not_here(verb)
}

/// [`Words::rule_help`] of `P`.
pub(super) fn rule_help<P: Words>(state: &P, topic: &str) -> Option<String> {
    state.rule_help(topic)
}

/// [`Words::more_on`] of `P`.
pub(super) fn more_on<P: Words>(_: &P, verb: &str) -> Option<&'static str> {
    P::more_on(verb)
}

/// [`Words::move_to`] as an action of any engine.
pub(super) fn move_action<P: Words>(_: &P, unit: usize, to: Point, facing: f64) -> Action {
    P::move_to(unit, to, facing).into()
}

/// [`Words::say`] for an action of any engine (one of another engine's is
/// shown as it is stored).
pub(super) fn say<P: Words>(state: &P, action: &Action) -> String {
    match P::own(action) {
        Some(own) => state.say(own),
        None => format!("{action:?}"),
    }
}

/// [`Words::unit_of`] for an action of any engine.
pub(super) fn unit_of<P: Words>(_: &P, action: &Action) -> Option<usize> {
    P::own(action).and_then(P::unit_of)
}

/// [`Words::auto_die`] as an action of any engine.
pub(super) fn auto_die_of<P: Words>(
    state: &P,
    player_sides: &[usize],
) -> Result<Option<(Action, String)>, &'static str> {
    state
        .auto_die(player_sides)
        .map(|next| next.map(|(action, said)| (action.into(), said)))
}

/// [`Words::passes`] for an action of any engine.
pub(super) fn passes<P: Words>(_: &P, action: &Action) -> bool {
    P::own(action).is_some_and(P::passes)
}

/// The most words `VERB UNIT TARGET` without `at` is cut into two units'
/// names at.
const MOST_WORDS_OF_TWO_UNITS: usize = 24;

/// `VERB UNIT at TARGET` (`fire`, `charge`), or `VERB UNIT TARGET` as
/// Guilford's prompt takes it (`fire B4 A1`): the two units, by index.
/// Without `at`, the line is cut where both sides name a unit.
pub(super) fn unit_at_target(
    names: &Names<'_>,
    verb: &str,
    rest: &str,
) -> Result<(usize, usize), String> {
    if let Some((who, target)) = split_word(rest, "at") {
        return Ok((names.unit(who)?, names.unit(target)?));
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    // Two units' names are a few words each: a longer line is no pair of
    // them, and is not tried cut by cut.
    if words.len() > MOST_WORDS_OF_TWO_UNITS {
        return Err(format!(
            "expected `{verb} UNIT at TARGET`: that is {} words",
            words.len()
        ));
    }
    (1..words.len())
        .find_map(|cut| {
            let who = names.unit(&words[..cut].join(" ")).ok()?;
            let target = names.unit(&words[cut..].join(" ")).ok()?;
            Some((who, target))
        })
        .ok_or_else(|| format!("expected `{verb} UNIT at TARGET`"))
}

/// How many of a side's units are gone, of how many.
pub(super) fn lost_of(names: &Names<'_>, side: usize) -> (usize, usize) {
    let all: Vec<&super::UnitView> = names.units.iter().filter(|u| u.side == side).collect();
    (all.iter().filter(|u| u.removed).count(), all.len())
}

/// A unit's name, or `#N` for an index the game does not have.
pub(super) fn unit_name<P: Position>(state: &P, index: usize) -> String {
    state
        .units()
        .get(index)
        .map_or(format!("#{index}"), |u| u.name.clone())
}

/// The command words of a game's rule set (for did-you-mean and Tab).
pub fn verbs(game: &Game) -> Vec<&'static str> {
    COMMANDS
        .iter()
        .chain(game.commands())
        .map(|(verb, _)| *verb)
        .collect()
}

fn action(names: &Names<'_>, verb: &str, rest: &str) -> Result<Action, String> {
    names.game.read(names, verb, rest)
}

pub(super) fn unknown_verb(game: &Game, verb: &str) -> String {
    if let Some(reason) = not_in_these_rules(game, verb) {
        return reason;
    }
    let known = verbs(game);
    // The nearest command, else the command of the nearest other word for
    // one (`shoot` is `fire`).
    let nearest = crate::suggest::nearest(verb, known.iter().copied().filter(|v| *v != "?"))
        .or_else(|| {
            let alias = crate::suggest::nearest(verb, ALIASES.iter().map(|(alias, _)| *alias))?;
            ALIASES
                .iter()
                .find(|(word, _)| *word == alias)
                .map(|(_, verb)| *verb)
                .filter(|verb| known.contains(verb))
        });
    let hint = nearest.map_or(String::new(), |found| format!("; did you mean `{found}`?"));
    format!("unknown command `{verb}`{hint}; `help` lists the commands")
}

/// Why a command another rule set has does nothing here, with the one
/// that does.
fn not_in_these_rules(game: &Game, verb: &str) -> Option<String> {
    let reason = game.not_here(verb).or(match verb {
        "rally" | "general" => Some("these rules have no rally or general moves"),
        _ => None,
    })?;
    Some(format!("`{verb}`: {reason}"))
}

/// The farthest a `max` move looks, as a multiple of the troop type's
/// allowance: the engine's own check decides how far it may go.
const MAX_REACH: f64 = 2.0;

/// `move UNIT forward N|max`, `back N|max`, `towards UNIT|X,Y [N|max]`:
/// the straight move they mean, as the engine's own move to a point.
/// `None` for a line that is none of them (a `move UNIT to X,Y`).
fn directed_move(names: &Names<'_>, rest: &str) -> Option<Result<Action, String>> {
    directed(names, rest).map(|read| read.map(|(action, _)| action))
}

/// Why `move UNIT forward|back|towards ... max` stops short of the unit's
/// allowance, as a line for the reply: where it stops, how much of the
/// allowance it uses and, in one clause, what stopped it (the engine's
/// refusal of the move 0.1" further: dearer ground, a unit in the way,
/// the table edge, an enemy near). None for any other line, a line the
/// rules refuse, or a `max` move that uses its whole allowance.
pub fn max_stops_short(names: &Names<'_>, line: &str) -> Option<String> {
    let (verb, rest) = line.trim().split_once(char::is_whitespace)?;
    if !verb.eq_ignore_ascii_case("move")
        || !rest.split_whitespace().last().is_some_and(is_max_word)
    {
        return None;
    }
    directed(names, rest.trim())?.ok()?.1
}

/// A directed move as [`directed_move`] reads it, with a `max` move's
/// [`max_stops_short`] line.
fn directed(names: &Names<'_>, rest: &str) -> Option<Result<(Action, Option<String>), String>> {
    let padded = format!("{rest} ");
    let (way, who, after) = ["forward", "back", "towards", "toward"]
        .into_iter()
        .find_map(|way| split_word(&padded, way).map(|(who, after)| (way, who, after)))?;
    // `move U to X,Y facing towards V` is a move to a point, its facing
    // towards a unit: the rule set's own words read it.
    if split_word(&padded, "facing").is_some_and(|(before, _)| before.len() < who.len()) {
        return None;
    }
    Some((|| {
        let unit = names.unit(who)?;
        let view = &names.units[unit];
        let (troop, base) = names
            .game
            .footing(unit)
            .ok_or_else(|| format!("{} is not on the table", view.name))?;
        let allowance = names.game.battlefield().ruleset.move_of(troop);
        let words: Vec<&str> = after.split_whitespace().collect();
        let (direction, facing, distance) = match way {
            "forward" | "back" => {
                let sign = if way == "forward" { 1.0 } else { -1.0 };
                let direction = Vector::from_bearing(view.facing) * sign;
                (direction, view.facing, words.first().copied())
            }
            _ => {
                let (goal_words, distance) = match words.split_last() {
                    Some((last, head)) if !head.is_empty() && is_distance(last) => {
                        (head.join(" "), Some(*last))
                    }
                    _ => (words.join(" "), None),
                };
                let (goal, gap) = match point(&goal_words) {
                    Ok(goal) => (goal, None),
                    Err(problem) => {
                        let target = names.unit(&goal_words).map_err(|_| problem)?;
                        let goal = names.units[target].position;
                        // Stop a hair short of contact: a move that is not
                        // a charge may not touch the enemy.
                        let gap = names
                            .game
                            .footing(target)
                            .map(|(_, other)| (base.distance_to(&other) - 0.25).max(0.0));
                        (goal, gap)
                    }
                };
                let direction = goal - view.position;
                let reach = distance.map_or(Some(allowance), |_| None);
                let wanted = match (reach, gap) {
                    (Some(reach), Some(gap)) => Some(reach.min(gap)),
                    (Some(reach), None) => Some(reach.min(direction.length())),
                    (None, _) => None,
                };
                let bearing = direction.bearing();
                match wanted {
                    Some(wanted) => {
                        return to_point(
                            names,
                            unit,
                            view.position + Vector::from_bearing(bearing) * wanted,
                            bearing,
                        )
                        .map(|action| (action, None));
                    }
                    None => (direction, bearing, distance),
                }
            }
        };
        match distance {
            Some(word) if is_max_word(word) => farthest(names, unit, direction, facing, allowance),
            Some(word) => {
                let inches = inches_word(word)?;
                to_point(
                    names,
                    unit,
                    view.position + Vector::from_bearing(direction.bearing()) * inches,
                    facing,
                )
                .map(|action| (action, None))
            }
            None => Err(format!(
                "expected how far: `move {} {way} 3` (inches) or `move {} {way} max`",
                names.label(unit),
                names.label(unit)
            )),
        }
    })())
}

fn is_max_word(word: &str) -> bool {
    word.eq_ignore_ascii_case("max") || word.eq_ignore_ascii_case("full")
}

fn is_distance(word: &str) -> bool {
    is_max_word(word) || inches_word(word).is_ok()
}

fn inches_word(word: &str) -> Result<f64, String> {
    word.trim_end_matches('"')
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite() && *value > 0.0)
        .ok_or_else(|| format!("expected a distance in inches (or `max`), not `{word}`"))
}

/// The engine's move of `unit` to `to`, ending facing `facing` (seed 001
/// moves keep the facing a unit has).
pub fn move_to(names: &Names<'_>, unit: usize, to: Point, facing: f64) -> Action {
    names.game.move_action(unit, to, facing)
}

/// A move to `to`, at the point rounded to 0.1" (as foe prints points and
/// players type them) when the rules take that, else the exact one.
fn to_point(names: &Names<'_>, unit: usize, to: Point, facing: f64) -> Result<Action, String> {
    let rounded = move_to(names, unit, tenth(to), facing);
    if names.game.check(&rounded).is_ok() {
        return Ok(rounded);
    }
    Ok(move_to(names, unit, to, facing))
}

/// The farthest lawful straight move of `unit` along `direction`, no
/// longer than [`MAX_REACH`] times its `allowance`: the engine's own check
/// decides, tried from there down in steps of 0.1". So `max` never asks
/// for a refused move when a lawful one at least 0.1" long exists. With
/// it, when it uses less than the allowance, the line saying where it
/// stops and why: the engine's refusal of the move 0.1" further.
fn farthest(
    names: &Names<'_>,
    unit: usize,
    direction: Vector,
    facing: f64,
    allowance: f64,
) -> Result<(Action, Option<String>), String> {
    let name = names.name(unit);
    if direction.length() < 1e-9 {
        return Err(format!("{name} is already there"));
    }
    let from = names.units[unit].position;
    let step = Vector::from_bearing(direction.bearing());
    let found = farthest_step(from, step, allowance * MAX_REACH, |to| {
        [tenth(to), to]
            .into_iter()
            .map(|to| (to, move_to(names, unit, to, facing)))
            .find(|(_, action)| names.game.check(action).is_ok())
    });
    let Some((n, (to, action))) = found else {
        let refusal = names
            .game
            .check(&move_to(names, unit, from + step * 0.1, facing))
            .err()
            .map_or(String::new(), |refusal| format!(": {refusal}"));
        return Err(format!("{name} cannot move that way now{refusal}"));
    };
    let used = f64::from(n) / 10.0;
    let short = (used + 0.05 < allowance)
        .then(|| {
            let further = from + step * (f64::from(n + 1) / 10.0);
            names
                .game
                .check(&move_to(names, unit, further, facing))
                .err()
        })
        .flatten()
        .map(|refusal| {
            format!(
                "{name} stops at {to} after {}\" of its {}\" move: {}",
                trim(used),
                trim(allowance),
                stop_clause(names, unit, &refusal)
            )
        });
    Ok((action, short))
}

/// The farthest point `from + step × d` with `d` at most `reach` inches,
/// tried 0.1" at a time from there down, that `take` accepts: how many
/// tenths of an inch it lies out, with what `take` gave. One walk for
/// `max` moves and `?`'s straight moves.
fn farthest_step<T>(
    from: Point,
    step: Vector,
    reach: f64,
    take: impl Fn(Point) -> Option<T>,
) -> Option<(u32, T)> {
    let tenths = (reach * 10.0).floor().clamp(0.0, 2_000.0) as u32;
    (1..=tenths)
        .rev()
        .find_map(|n| take(from + step * (f64::from(n) / 10.0)).map(|taken| (n, taken)))
}

/// What stopped a `max` move, in one clause, from the engine's refusal of
/// the move a step further; a unit in the way named friend or enemy.
fn stop_clause(names: &Names<'_>, unit: usize, refusal: &super::Refusal) -> String {
    let side = names.units[unit].side;
    refusal.stopped_by(&|other: &str| {
        names
            .units
            .iter()
            .find(|u| u.name == other)
            .map(|u| u.side == side)
    })
}

/// The straight moves `UNIT ?` offers beside the engine's own list: as far
/// as `unit` may go forward and back along its facing, towards the nearest
/// enemy, and directly away from it, each only if the engine's own check
/// takes it. Facing alone is not how every rule judges a move: within an
/// enemy's presence seed 000 lets a unit only advance directly towards it
/// or retire directly away (Enemy Presence), so there the moves towards
/// and away are the ones offered. None for a unit off the table.
pub fn straight_moves(names: &Names<'_>, unit: usize) -> Vec<Action> {
    let Some(view) = names.units.get(unit) else {
        return Vec::new();
    };
    let Some((troop, _)) = names.game.footing(unit) else {
        return Vec::new();
    };
    let reach = names.game.battlefield().ruleset.move_of(troop) * MAX_REACH;
    let ahead = Vector::from_bearing(view.facing);
    let mut ways = vec![(ahead, view.facing), (ahead * -1.0, view.facing)];
    let nearest = names
        .units
        .iter()
        .filter(|other| other.side != view.side && !other.removed)
        .filter(|other| names.game.footing(other.index).is_some())
        .min_by(|a, b| {
            let (da, db) = (
                a.position.distance(view.position),
                b.position.distance(view.position),
            );
            da.total_cmp(&db).then(a.index.cmp(&b.index))
        });
    if let Some(enemy) = nearest {
        let towards = enemy.position - view.position;
        if towards.length() > 1e-9 {
            // Towards: as `move UNIT towards ENEMY max` reads it, facing
            // the enemy; away: backing off, still facing as it does.
            ways.push((towards, towards.bearing()));
            ways.push((towards * -1.0, view.facing));
        }
    }
    let from = view.position;
    let mut offers: Vec<Action> = Vec::new();
    for (direction, facing) in ways {
        // The farthest point, at a point and a facing as `?` prints them,
        // so the line listed, typed, is this very move.
        let step = Vector::from_bearing(direction.bearing());
        let facing = (facing * 100.0).round() / 100.0;
        let found = farthest_step(from, step, reach, |to| {
            let action = move_to(names, unit, tenth(to), facing);
            names.game.check(&action).ok()?;
            as_typed(names, &action)
        });
        if let Some((_, action)) = found
            && !offers.contains(&action)
        {
            offers.push(action);
        }
    }
    offers
}

/// What `?` lists for `action`: the action its printed line means when
/// typed, or `None` when the engine would refuse that line (a point
/// printed to 0.01" can cost a hair more than the exact one). A line that
/// does not read back as an action is listed as it is.
pub fn listed_as_typed(names: &Names<'_>, action: &Action) -> Option<Action> {
    match parse(names, &words(names.game, action)) {
        Ok(Command::Act(typed)) => names.game.check(&typed).is_ok().then_some(typed),
        _ => Some(action.clone()),
    }
}

/// `action` as the player gets it by typing the line foe prints for it,
/// if the engine takes that.
fn as_typed(names: &Names<'_>, action: &Action) -> Option<Action> {
    match parse(names, &words(names.game, action)) {
        Ok(Command::Act(typed)) if names.game.check(&typed).is_ok() => Some(typed),
        _ => None,
    }
}

/// `A to B` split on the last ` to ` (unit names may hold `to`).
pub(super) fn split_word<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    // Matched on the bytes as typed, ignoring ASCII case (the words are
    // ASCII), so the cut is always at a character boundary.
    let needle = format!(" {word} ");
    let (bytes, wanted) = (text.as_bytes(), needle.as_bytes());
    let at = (0..=bytes.len().checked_sub(wanted.len())?)
        .rev()
        .find(|&i| bytes[i..i + wanted.len()].eq_ignore_ascii_case(wanted))?;
    Some((text[..at].trim(), text[at + wanted.len()..].trim()))
}

pub(super) fn point(text: &str) -> Result<Point, String> {
    let bad = || format!("expected a point as X,Y in inches (e.g. 30,12), not `{text}`");
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: f64 = x.trim().parse().map_err(|_| bad())?;
    let y: f64 = y.trim().parse().map_err(|_| bad())?;
    if !(x.is_finite() && y.is_finite()) {
        return Err(bad());
    }
    Ok(Point::new(x, y))
}

pub(super) fn degrees(text: &str) -> Result<f64, String> {
    crate::battlefield::geometry::typed_bearing(text).ok_or_else(|| {
        format!("expected a bearing: degrees (0-360) or n/ne/e/se/s/sw/w/nw, not `{text}`")
    })
}

/// `text` without its first word when that is `word` (any case, a whole
/// word: `facet` is not `face`).
pub(super) fn strip_word<'t>(text: &'t str, word: &str) -> &'t str {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    if text[..end].eq_ignore_ascii_case(word) {
        &text[end..]
    } else {
        text
    }
}

fn name(game: &Game, index: usize) -> String {
    game.units()
        .get(index)
        .map_or(format!("#{index}"), |u| u.name.clone())
}

pub(super) fn xy(point: Point) -> String {
    format!("{},{}", trim(point.x), trim(point.y))
}

pub(super) fn trim(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The words that type `action` at the prompt.
pub fn words(game: &Game, action: &Action) -> String {
    game.say(action)
}

/// Seed 002's dice waiting to be given out, and the units waiting for
/// one, when a side is giving out its activation dice (none otherwise).
pub fn dice_to_give(game: &Game) -> Option<String> {
    game.dice_to_give()
}

/// `auto`: the next of the player's seed-002 activation dice given out by
/// foe's ranking without reaction tests (they would roll dice the replay
/// of the player's actions does not know about): threatened units and
/// those nearest the enemy get the highest dice. The action with what to
/// say about it; `None` once the dice are all given; a one-line reason
/// when there are none to give.
pub fn auto_die(
    game: &Game,
    player_sides: &[usize],
) -> Result<Option<(Action, String)>, &'static str> {
    game.auto_die(player_sides)
}

/// What the game is about and how it is won.
pub fn banner(game: &Game, title: &str, player_sides: &[usize], seed: u64) -> String {
    let sides = game.sides();
    let mut text = format!("{title}\n");
    let _ = writeln!(
        text,
        "Rules: {} ({}); {} turns; seed {seed}.",
        game.battlefield().ruleset.name,
        game.engine().seed(),
        game.turns()
    );
    text.push_str(&game.rules_lines());
    let who = if player_sides.is_empty() {
        "You watch: foe commands both sides.".to_string()
    } else {
        let names: Vec<&str> = player_sides
            .iter()
            .filter_map(|s| sides.get(*s).map(String::as_str))
            .collect();
        format!(
            "You command the {}; foe commands the rest. `help` lists the commands, `?` what is legal now.",
            names.join(", ")
        )
    };
    let _ = writeln!(text, "{who}");
    text
}

/// A scenario's victory condition in words.
pub(super) fn victory_words(game: &Game, victory: &crate::scenario::Victory) -> String {
    use crate::scenario::Condition;
    let sides = game.sides();
    let side = |i: usize| sides.get(i).cloned().unwrap_or_default();
    let winner = side(victory.winner);
    match &victory.when {
        Condition::RoutFraction {
            side: loser,
            more_than,
        } => format!(
            "the {winner} win when more than {:.0}% of the units of the {} are gone",
            more_than * 100.0,
            side(*loser)
        ),
        Condition::RoutOrExit {
            side: loser,
            troop_type,
            count,
        } => format!(
            "the {winner} win when {count} {} of the {} are gone",
            game.battlefield().ruleset.troop(*troop_type).name,
            side(*loser)
        ),
        Condition::HoldArea { side: holder, .. } => format!(
            "the {winner} win if the {} hold their objective area at the end",
            side(*holder)
        ),
    }
}

/// The turn, the phase and every unit, by label.
pub fn status(names: &Names<'_>) -> String {
    let game = names.game();
    let sides = game.sides();
    let mut text = format!(
        "Turn {} of {}: {}.",
        game.turn(),
        game.turns(),
        game.phase()
    );
    if let Some(margin) = game.margin() {
        let _ = write!(text, " Victory margin so far {margin:+}.");
    }
    text.push('\n');
    text.push_str(&game.dice_lines());
    for (side, side_name) in sides.iter().enumerate() {
        let _ = writeln!(text, "{side_name}:");
        for u in names.units.iter().filter(|u| u.side == side) {
            let label = names.label(u.index);
            if u.removed {
                let _ = writeln!(text, "  {label:<4} {:<28} out of play", u.name);
                continue;
            }
            let _ = writeln!(
                text,
                "  {label:<4} {:<28} at {:>11} facing {:>3}  {:>3.0}% {}{}{}",
                u.name,
                xy(u.position),
                u.facing.round(),
                u.strength * 100.0,
                u.formation.as_deref().unwrap_or("-"),
                if u.in_cover { ", in cover" } else { "" },
                activation_die(game, u.index),
            );
        }
    }
    text
}

/// Seed 002: `, die 5` (`, die 5 used`) for a unit given an activation die.
pub fn activation_die(game: &Game, unit: usize) -> String {
    game.activation_die(unit)
}

/// `victory`: each side's conditions and how near they are now.
pub fn victory(names: &Names<'_>) -> String {
    let mut text = String::from("Victory:\n");
    text.push_str(&names.game().victory_lines(names));
    text
}

/// `history`: the player's actions, turn by turn.
pub fn history(names: &Names<'_>, actions: &[(u32, Action)]) -> String {
    if actions.is_empty() {
        return "You have not acted yet.".to_string();
    }
    let mut text =
        String::from("Your actions, turn by turn (`rewind N` goes back to the start of turn N):\n");
    // The same line one after another (`end turn` ends several phases) is
    // said once, with how many times.
    let mut lines: Vec<(u32, String, usize)> = Vec::new();
    for (at, action) in actions {
        let line = words(names.game, action);
        match lines.last_mut() {
            Some((turn, last, count)) if turn == at && *last == line => *count += 1,
            _ => lines.push((*at, line, 1)),
        }
    }
    let mut turn = None;
    for (at, line, count) in lines {
        if turn != Some(at) {
            turn = Some(at);
            let _ = writeln!(text, "turn {at}:");
        }
        match count {
            1 => writeln!(text, "  {line}"),
            n => writeln!(text, "  {line} ({n} times)"),
        }
        .ok();
    }
    text
}

/// An action's words with the unit named by its label (`move B3 to 8,9`).
pub fn words_labelled(names: &Names<'_>, action: &Action) -> String {
    let line = words(names.game, action);
    match action_unit(names.game, action) {
        Some(unit) => line.replacen(names.name(unit), names.label(unit), 1),
        None => line,
    }
}

/// The unit an action is for, if it is one unit's.
fn action_unit(game: &Game, action: &Action) -> Option<usize> {
    game.action_unit(action)
}

/// Whether `action` answers `? VERB UNIT`: its words start with the verb
/// and it is the unit's (or, for a unit's target, names it).
pub fn listed_for(
    names: &Names<'_>,
    action: &Action,
    verb: Option<&str>,
    unit: Option<usize>,
) -> bool {
    let line = words(names.game, action);
    let verb_fits = verb.is_none_or(|verb| {
        line.split_whitespace().next() == Some(verb)
            || (verb == "pivot" && line.starts_with("about face"))
    });
    let unit_fits = unit.is_none_or(|unit| {
        action_unit(names.game, action) == Some(unit)
            || line.contains(&format!(" at {}", names.name(unit)))
    });
    verb_fits && unit_fits
}

/// The action that passes the player's current step: seed 001's `end`
/// of a phase, seed 002's `hold` of the unit whose die is up; `None` when
/// the rules want something else now (an answer to a charge, dice to
/// give out).
pub fn pass(game: &Game) -> Option<Action> {
    game.legal_actions()
        .into_iter()
        .find(|action| game.passes(action))
}

/// One decision in words, laid out as seed 000's `why` is: the reaction
/// test factor by factor, the die, the total and the order, the variant,
/// the activation die (seed 002), what the unit did, and the candidates
/// that carried it out.
pub fn decision(d: &Decision) -> String {
    let mut text = format!("{} in turn {}:", d.name, d.turn);
    match &d.outcome {
        Some(outcome) => {
            let note = outcome
                .column_note
                .as_ref()
                .map_or(String::new(), |note| format!("; {note}"));
            let _ = write!(
                text,
                "\n  reaction test ({}, {} column{note}):",
                outcome.class_name,
                outcome.column.title()
            );
            for factor in &outcome.factors {
                let label = factor.label_in(Some(outcome.column));
                let _ = write!(text, "\n    {:+3}  {label}", factor.value);
            }
            let _ = write!(
                text,
                "\n    {:+3}  die\n    total {}: {} ({})\n  variant: {}",
                outcome.die,
                outcome.total,
                outcome.order.title(),
                outcome.band,
                outcome.instruction.does
            );
        }
        None => text.push_str("\n  no Lone Warrior class, so no test: it stands (ruling HO2)"),
    }
    if let Some((die, reason)) = &d.die {
        let _ = write!(text, "\n  activation die {die}: {reason}");
    }
    if d.did.is_empty() {
        text.push_str("\n  it has not acted on it yet");
        return text;
    }
    for did in &d.did {
        let _ = write!(text, "\n  did: {}", did.what);
    }
    let mut by: Vec<&str> = Vec::new();
    for did in &d.did {
        if !by.contains(&did.by) {
            by.push(did.by);
        }
    }
    let by: Vec<String> = by
        .into_iter()
        .map(|name| match name {
            ORDER => "the order's instruction".to_string(),
            rule => format!("{rule} (plan rule)"),
        })
        .collect();
    let _ = write!(text, "\n  carried out by: {}", by.join(", then "));
    text
}

/// One of the baseline's decisions in words: what it chose, why (naming
/// the ruling), and what came of it.
pub fn baseline_decision(d: &super::baseline::Decision) -> String {
    let mut text = format!("Turn {}: the baseline's `{}` {}.", d.turn, d.name, d.why);
    if !d.did.is_empty() {
        let did: Vec<&str> = d
            .did
            .iter()
            .map(|line| line.trim_end_matches('.'))
            .collect();
        let _ = write!(text, " Then: {}.", did.join("; "));
    }
    text
}

/// Why the unit did what it did: foe's reaction tests for it this turn
/// and last, or, for a side the scripted baseline commands, the baseline's
/// decisions for it and their reasons.
pub fn why_unit(
    opponent: &Opponent,
    baseline: &[super::baseline::Decision],
    baseline_sides: &[usize],
    game: &Game,
    unit: usize,
) -> String {
    let side = game.units().get(unit).map(|u| u.side);
    if !side.is_some_and(|side| baseline_sides.contains(&side)) {
        return why(opponent, game, unit);
    }
    let recent: Vec<String> = baseline
        .iter()
        .filter(|d| d.unit == unit && d.turn + 1 >= game.turn())
        .map(baseline_decision)
        .collect();
    if recent.is_empty() {
        return format!(
            "the baseline has decided nothing for `{}` lately (out of play, or nothing to do).",
            name(game, unit)
        );
    }
    recent.join("\n")
}

/// Why foe's general did what he did (`why GENERAL`): his reaction tests
/// this turn and last, each with what he did.
pub fn why_general(opponent: &Opponent, game: &Game, general: &str) -> String {
    let recent: Vec<String> = opponent
        .general_tests()
        .iter()
        .filter(|test| test.name == general && test.turn + 1 >= game.turn())
        .map(|test| {
            let mut line = format!("{} (turn {}): {}", test.name, test.turn, test.line());
            if !test.did.is_empty() {
                let _ = write!(line, ". Then: {}.", test.did.join("; "));
            }
            line
        })
        .collect();
    if recent.is_empty() {
        return format!(
            "foe has taken no reaction test for `{general}` lately: none of his triggers held (his own troops falling back or losing a melee, the enemy attacking within 6\", the enemy falling back), or he is yours."
        );
    }
    recent.join("\n")
}

/// Why foe's unit did what it did: its decisions this turn and last.
pub fn why(opponent: &Opponent, game: &Game, unit: usize) -> String {
    let recent: Vec<&Decision> = opponent
        .decisions()
        .iter()
        .filter(|d| d.unit == unit && d.turn + 1 >= game.turn())
        .collect();
    if recent.is_empty() {
        return format!(
            "foe has taken no test for `{}` lately (a unit the player commands, or out of play).",
            name(game, unit)
        );
    }
    recent
        .into_iter()
        .map(decision)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `help`: every command of the game's rule set with its usage; `help
/// COMMAND` one of them (a rule set without it says why, and what does
/// it); `help victory` how the game is won.
pub fn help(names: &Names<'_>, topic: Option<&str>) -> String {
    let game = names.game();
    let all: Vec<(&str, &str)> = COMMANDS.iter().chain(game.commands()).copied().collect();
    let Some(topic) = topic.map(str::trim).filter(|t| !t.is_empty()) else {
        let mut text = format!(
            "Commands ({}; unique beginnings work; units by map label, name or part of a name):\n",
            game.battlefield().ruleset.name
        );
        for (_, usage) in &all {
            let _ = writeln!(text, "  {usage}");
        }
        text.push_str("`help COMMAND` says more of one; `help victory` how the game is won.\n");
        return text;
    };
    let topic = topic.to_lowercase();
    let topic = ALIASES
        .iter()
        .find(|(alias, _)| *alias == topic)
        .map_or(topic.as_str(), |(_, verb)| verb);
    if topic == "victory" {
        return victory(names);
    }
    let found: Vec<&str> = all
        .iter()
        .filter(|(verb, _)| *verb == topic)
        .map(|(_, usage)| *usage)
        .collect();
    let rules = game.rule_help(topic);
    if !found.is_empty() {
        let mut text = found.join("\n");
        text.push('\n');
        if let Some(more) = game.more_on(topic) {
            text.push_str(more);
            text.push('\n');
        }
        if let Some(rules) = rules {
            text.push_str(&rules);
        }
        return text;
    }
    if let Some(rules) = rules {
        return rules;
    }
    if let Some(reason) = not_in_these_rules(game, topic) {
        return reason;
    }
    format!(
        "no help on `{topic}`{}; `help` lists the commands",
        did_you_mean(topic, all.iter().map(|(verb, _)| *verb))
    )
}
