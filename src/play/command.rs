//! Reading the player's commands in `foe play`: words in, a [`Command`] out,
//! with units named by their map label (`B3`), their name, or a unique
//! prefix of it (`23rd`, `guards gren`). Pure: it reads the game state to
//! resolve names and turn "forward 3" into a point, and never changes it.

use crate::battlefield::geometry::{Vector, typed_bearing};
use crate::battlefield::{Base, Point};
use crate::rules::{Action, GameState, GeneralId, UnitId};
use crate::scenario::Scenario;
use crate::scenario::label::{general_label, unit_labels};
use crate::suggest::{normalise, without_parentheses};

/// What the player asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// A rules action for the engine.
    Act(Action),
    /// End phases until the player's turn is over.
    EndTurn,
    /// Draw the map, or write it as SVG.
    Map {
        /// Where to write an SVG picture instead.
        svg: Option<String>,
    },
    /// Show the army (or one unit).
    Status(Option<UnitId>),
    /// Show the last `n` lines of the battle log (all when `None`).
    Log(Option<usize>),
    /// An enemy unit's situation and odds now.
    What(UnitId),
    /// The reaction test behind a unit's last order.
    Why(UnitId),
    /// Save the game.
    Save(String),
    /// Load a game.
    Load(String),
    /// Take back the last action (in this turn or an earlier one).
    Undo,
    /// Take back this turn's actions (at a turn's start, the last turn's).
    UndoTurn,
    /// Go back to the start of turn N.
    Rewind(u32),
    /// The turns with the player's actions.
    History,
    /// Each side's victory conditions and how near they are.
    Victory,
    /// Help, on everything or one command.
    Help(Option<String>),
    /// What is legal now: for one command word, one unit, both, or all.
    Legal {
        /// The command word, if one was given.
        verb: Option<String>,
        /// The unit, if one was named (`move b6 ?`).
        unit: Option<UnitId>,
    },
    /// The way a unit would go to a point, and its cost in moves.
    Route {
        /// The unit.
        unit: UnitId,
        /// Where to.
        to: Point,
    },
    /// Leave.
    Quit,
}

/// Every command word, with its usage, for help and completion.
pub const COMMANDS: [(&str, &str); 23] = [
    (
        "move",
        "move UNIT to X,Y [facing F] | forward N|max | back N|max | towards UNIT|X,Y [N|max] | road to X,Y",
    ),
    (
        "pivot",
        "pivot UNIT F          face F: degrees, n/ne/e/se/s/sw/w/nw, or towards UNIT",
    ),
    (
        "charge",
        "charge UNIT TARGET     charge into contact (melee is fought in the melee phase)",
    ),
    ("fire", "fire UNIT TARGET       shoot (muskets or guns)"),
    (
        "rally",
        "rally [GENERAL] UNIT [UNIT...]   a rally attempt, most urgent unit first",
    ),
    ("general", "general GENERAL to X,Y   move a general"),
    (
        "route",
        "route UNIT to X,Y|UNIT   the way it would go (pathing), its cost in moves, and the first move to paste",
    ),
    (
        "end",
        "end [turn]             end this phase (or the whole turn)",
    ),
    (
        "map",
        "map [--svg FILE|DIR/]  the battlefield now, or an SVG picture (DIR/: one every turn)",
    ),
    (
        "status",
        "status [UNIT]          your army, or one unit in detail",
    ),
    (
        "log",
        "log [N]                the battle so far (or its last N lines)",
    ),
    (
        "what",
        "what UNIT              an enemy unit's situation and odds this bound",
    ),
    (
        "why",
        "why UNIT               the reaction test behind a unit's last order",
    ),
    (
        "victory",
        "victory                each side's victory conditions and how near they are",
    ),
    ("save", "save FILE              save the game"),
    ("load", "load FILE              load a saved game"),
    (
        "undo",
        "undo [turn]            take back your last action (or this turn's), even from an earlier turn",
    ),
    (
        "rewind",
        "rewind N               go back to the start of turn N (foe's moves replay from the seed)",
    ),
    (
        "history",
        "history                your actions, turn by turn",
    ),
    (
        "help",
        "help [COMMAND|RULE]    this list, one command, or a rule (fire, charge, melee, move, rally, rout, victory)",
    ),
    (
        "?",
        "?  or  COMMAND [UNIT] ?   what is legal now, as lines to paste back",
    ),
    (
        "quit",
        "quit                   leave (the game is autosaved)",
    ),
    ("exit", "exit                   leave"),
];

/// Other words players type for a command (`mv` is `move`): the one list
/// every rule set's prompt reads.
pub use crate::host::repl::ALIASES;

/// The farthest a `max` move looks, as a multiple of the troop type's
/// allowance: a straight move along a road may go further than the
/// allowance, and the engine's own checks decide.
const MAX_REACH: f64 = 2.0;

/// Words that end a unit's name inside a command.
const STOP_WORDS: [&str; 9] = [
    "to", "at", "towards", "toward", "forward", "back", "road", "facing", "?",
];

/// The names a game's units and generals answer to.
pub struct Names<'a> {
    state: &'a GameState,
    labels: Vec<String>,
    general_labels: Vec<String>,
}

impl<'a> Names<'a> {
    /// The names in a game of `scenario`.
    pub fn new(scenario: &Scenario, state: &'a GameState) -> Names<'a> {
        let labels = unit_labels(scenario, state.units.iter().map(|unit| unit.side));
        let mut general_counts = vec![0usize; state.sides.len()];
        let general_labels = state
            .generals
            .iter()
            .map(|general| {
                let index = general_counts[general.side];
                general_counts[general.side] += 1;
                general_label(&state.sides[general.side].name, index)
            })
            .collect();
        Names {
            state,
            labels,
            general_labels,
        }
    }

    /// A unit's map label.
    pub fn label(&self, unit: UnitId) -> &str {
        self.labels.get(unit.0).map_or("?", String::as_str)
    }

    /// A general's map label.
    pub fn general_label(&self, general: GeneralId) -> &str {
        self.general_labels
            .get(general.0)
            .map_or("?", String::as_str)
    }

    /// Resolve the longest run of `words` from the start that names exactly
    /// one unit; returns it and how many words it took.
    pub fn unit(&self, words: &[&str]) -> Result<(UnitId, usize), String> {
        let candidates: Vec<(usize, String, String)> = self
            .state
            .units
            .iter()
            .enumerate()
            .map(|(index, unit)| (index, normalise(&self.labels[index]), normalise(&unit.name)))
            .collect();
        let span = words
            .iter()
            .take_while(|word| !STOP_WORDS.contains(&word.to_lowercase().as_str()))
            .count();
        for take in (1..=span.min(5)).rev() {
            let typed = normalise(&words[..take].join(" "));
            if typed.is_empty() {
                continue;
            }
            let exact: Vec<usize> = candidates
                .iter()
                .filter(|(_, label, name)| *label == typed || *name == typed)
                .map(|c| c.0)
                .collect();
            if exact.len() == 1 {
                return Ok((UnitId(exact[0]), take));
            }
            let prefixed: Vec<usize> = candidates
                .iter()
                .filter(|(_, _, name)| name.starts_with(&typed))
                .map(|c| c.0)
                .collect();
            if prefixed.len() == 1 {
                return Ok((UnitId(prefixed[0]), take));
            }
            if take == 1 && prefixed.len() > 1 {
                let names: Vec<&str> = prefixed
                    .iter()
                    .map(|i| self.state.units[*i].name.as_str())
                    .collect();
                return Err(format!(
                    "`{}` could be {}; say more of the name or use its label",
                    words[0],
                    names.join(", ")
                ));
            }
        }
        let typed = words.first().copied().unwrap_or("");
        Err(format!("no unit `{typed}`{}", self.unit_suggestion(typed)))
    }

    /// `; did you mean `Guards Grenadiers` (B2)?` for a mistyped unit: the
    /// nearest label, whole name, or word of a name (players type one word
    /// of a name, misspelt: `grenadeirs`).
    pub fn unit_suggestion(&self, typed: &str) -> String {
        // Two letters are near every label: no guess.
        if typed.chars().count() < 3 {
            return String::new();
        }
        let mut spellings: Vec<(String, usize)> = Vec::new();
        for (index, unit) in self.state.units.iter().enumerate() {
            spellings.push((self.labels[index].to_lowercase(), index));
            spellings.push((unit.name.to_lowercase(), index));
            for word in unit.name.split_whitespace() {
                let word: String = word
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect();
                if word.len() > 2 {
                    spellings.push((word, index));
                }
            }
        }
        let typed_lower = typed.to_lowercase();
        let nearest = crate::suggest::nearest(
            &typed_lower,
            spellings.iter().map(|(spelling, _)| spelling.as_str()),
        );
        match nearest.and_then(|found| spellings.iter().find(|(spelling, _)| spelling == found)) {
            Some((_, index)) => format!(
                "; did you mean `{}` ({})?",
                self.state.units[*index].name, self.labels[*index]
            ),
            None => String::new(),
        }
    }

    /// Resolve a general by label or name prefix.
    pub fn general(&self, word: &str) -> Result<GeneralId, String> {
        let typed = normalise(word);
        let found: Vec<usize> = self
            .state
            .generals
            .iter()
            .enumerate()
            .filter(|(index, general)| {
                normalise(&self.general_labels[*index]) == typed
                    || normalise(&general.name).starts_with(&typed)
            })
            .map(|(index, _)| index)
            .collect();
        match found.as_slice() {
            [one] => Ok(GeneralId(*one)),
            _ => Err(format!(
                "no general `{word}`; generals: {}",
                self.general_list()
            )),
        }
    }

    fn general_list(&self) -> String {
        self.state
            .generals
            .iter()
            .enumerate()
            .map(|(index, general)| format!("{} ({})", self.general_labels[index], general.name))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Parse `X,Y` (or `X Y`) into a point.
fn point(words: &[&str]) -> Result<(Point, usize), String> {
    let joined: String = words.iter().take(2).copied().collect::<Vec<_>>().join(" ");
    let parts: Vec<&str> = joined
        .split([',', ' '])
        .filter(|part| !part.is_empty())
        .collect();
    let parse = |text: &str| text.parse::<f64>().ok().filter(|value| value.is_finite());
    match parts.as_slice() {
        [x, y, ..] => match (parse(x), parse(y)) {
            (Some(x), Some(y)) => {
                let used = if words
                    .first()
                    .is_some_and(|word| word.contains(',') && !word.ends_with(','))
                {
                    1
                } else {
                    2
                };
                Ok((Point::new(x, y), used.min(words.len())))
            }
            _ => Err(format!("expected a point X,Y in inches, not `{joined}`")),
        },
        _ => Err(format!("expected a point X,Y in inches, not `{joined}`")),
    }
}

/// Whether a distance word asks for as far as the move allows.
fn is_max(word: Option<&&str>) -> bool {
    word.is_some_and(|word| word.eq_ignore_ascii_case("max") || word.eq_ignore_ascii_case("full"))
}

fn inches(word: Option<&&str>) -> Result<f64, String> {
    let word = word.ok_or("expected a distance in inches")?;
    word.trim_end_matches('"')
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite() && *value > 0.0)
        .ok_or_else(|| format!("expected a distance in inches, not `{word}`"))
}

/// A facing: degrees (0 = north, 90 = east), a compass point, or towards a unit.
fn facing(words: &[&str], names: &Names<'_>, from: &Base) -> Result<f64, String> {
    let first = words
        .first()
        .ok_or("expected a facing: degrees, n/ne/e/se/s/sw/w/nw, or towards UNIT")?;
    let word = first.to_lowercase();
    // `to 90` is a bearing; `to UNIT`, `towards UNIT`, `at UNIT` face it.
    if word == "to"
        && let [bearing] = &words[1..]
        && let Some(degrees) = typed_bearing(bearing)
    {
        return Ok(degrees);
    }
    if matches!(word.as_str(), "towards" | "toward" | "at" | "to") {
        let (target, _) = names.unit(&words[1..])?;
        return Ok((names.state.unit(target).base.centre - from.centre).bearing());
    }
    typed_bearing(&word).ok_or_else(|| {
        format!("expected a facing: degrees, n/ne/e/se/s/sw/w/nw, or towards UNIT, not `{first}`")
    })
}

/// The command a first word names: a command, a unique prefix of one, or an
/// alias; else a message with the nearest command.
fn verb_of(first: &str) -> Result<&'static str, String> {
    let verbs: Vec<&'static str> = COMMANDS.iter().map(|(word, _)| *word).collect();
    if let Some((_, verb)) = ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(first))
    {
        return Ok(verb);
    }
    match crate::suggest::resolve(first, verbs.iter().copied()) {
        Ok(verb) => Ok(verb),
        Err(matches) if matches.len() > 1 => {
            Err(format!("`{first}` could be {}", matches.join(", ")))
        }
        Err(_) => {
            // `?` is one character from every two-letter word: never a
            // suggestion for a word.
            let words = verbs
                .iter()
                .copied()
                .filter(|verb| *verb != "?")
                .chain(ALIASES.iter().map(|(alias, _)| *alias));
            let hint = match crate::suggest::nearest(first, words) {
                Some(found) => {
                    let verb = ALIASES
                        .iter()
                        .find(|(alias, _)| *alias == found)
                        .map_or(found, |(_, verb)| verb);
                    format!("; did you mean `{verb}`?")
                }
                None => String::new(),
            };
            Err(format!(
                "unknown command `{first}`{hint}; `help` lists them"
            ))
        }
    }
}

pub use crate::battlefield::geometry::tenth;

/// The farthest lawful straight move of `unit` along `direction` (any
/// length), ending with `facing`: the engine's own check decides, tried
/// from twice the allowance down in steps of 0.1", each at the point
/// rounded to 0.1" and, if that will not do (a move within 6" of the enemy
/// must be straight towards or away from it), the exact one. So `max` never
/// asks for a refused move when a lawful one at least 0.1" long exists.
pub fn farthest(
    state: &GameState,
    unit: UnitId,
    direction: Vector,
    facing: f64,
) -> Result<Action, String> {
    let u = state.unit(unit);
    let length = direction.length();
    if length < 1e-9 {
        return Err(format!("{} is already there", u.name));
    }
    let direction = direction * (1.0 / length);
    let allowance = state.battlefield.ruleset.move_inches[u.category.index()];
    let steps = (allowance * MAX_REACH * 10.0).round() as u32;
    let at = |tenths: u32, rounded: bool| {
        let to = u.base.centre + direction * (f64::from(tenths) / 10.0);
        Action::Move {
            unit,
            to: if rounded { tenth(to) } else { to },
            facing,
        }
    };
    for tenths in (1..=steps).rev() {
        for rounded in [true, false] {
            let action = at(tenths, rounded);
            if state.check(&action).is_ok() {
                return Ok(action);
            }
        }
    }
    match state.check(&at(1, false)) {
        Err(refusal) => Err(format!("no lawful move that way: {refusal}")),
        Ok(()) => Err(format!("{} cannot move that way", u.name)),
    }
}

/// Parse one line of the player's.
pub fn parse(line: &str, scenario: &Scenario, state: &GameState) -> Result<Command, String> {
    let names = Names::new(scenario, state);
    // File names may hold brackets; unit commands drop them.
    let names_a_file = line
        .split_whitespace()
        .next()
        .is_some_and(|first| matches!(verb_of(first), Ok("save" | "load" | "map")));
    let cleaned = if names_a_file {
        line.to_string()
    } else {
        without_parentheses(line)
    };
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let Some((first, rest)) = words.split_first() else {
        return Err("type a command; `help` lists them".into());
    };
    let verb = verb_of(first).map_err(|message| {
        // A unit's name typed first: say what it names and how to command it.
        if !message.starts_with("unknown command") {
            return message;
        }
        if names.unit(&words).is_err() {
            let unit = names.unit_suggestion(first);
            if !unit.is_empty() {
                return format!(
                    "unknown command `{first}`{unit} commands come first: `status UNIT`, `move UNIT forward max`, `move UNIT ?`"
                );
            }
        }
        if let Ok((unit, _)) = names.unit(&words) {
            return format!(
                "`{first}` is {} ({}): commands come first, like `move {} ?`",
                state.unit(unit).name,
                names.label(unit),
                names.label(unit)
            );
        }
        message
    })?;
    if verb == "help" {
        return Ok(Command::Help(rest.first().map(|word| word.to_string())));
    }
    if rest.last() == Some(&"?") || verb == "?" {
        let between = &rest[..rest.len().saturating_sub(1)];
        let (verb, between) = if verb == "?" {
            // `? b6` and `? move b6` ask too.
            match rest.split_first() {
                Some((word, after)) if verb_of(word).is_ok_and(|v| v != "?" && v != "help") => {
                    (verb_of(word).ok(), after)
                }
                _ => (None, rest),
            }
        } else {
            (Some(verb), between)
        };
        let between: Vec<&str> = between.iter().copied().filter(|w| *w != "?").collect();
        let unit = if between.is_empty() {
            None
        } else {
            Some(names.unit(&between)?.0)
        };
        return Ok(Command::Legal {
            verb: verb.map(str::to_string),
            unit,
        });
    }
    let unit_then = |words: &[&str]| -> Result<(UnitId, Vec<String>), String> {
        if words.is_empty() {
            return Err("name a unit (its label from the map, like B3, or its name)".into());
        }
        let (unit, used) = names.unit(words)?;
        Ok((
            unit,
            words[used..].iter().map(|word| word.to_string()).collect(),
        ))
    };
    match verb {
        "move" => {
            let (unit, after) = unit_then(rest)?;
            let after: Vec<&str> = after.iter().map(String::as_str).collect();
            let base = state.unit(unit).base;
            let keep = base.facing;
            match after.first().map(|word| word.to_lowercase()).as_deref() {
                Some("to") => {
                    let (to, used) = point(&after[1..])?;
                    let tail = &after[1 + used..];
                    let facing = match tail.first().map(|w| w.to_lowercase()).as_deref() {
                        Some("facing") | Some("face") => facing(&tail[1..], &names, &Base::new(to, keep, base.frontage, base.depth))?,
                        None => keep,
                        Some(other) => return Err(format!("unexpected `{other}`; expected `facing F` or nothing")),
                    };
                    Ok(Command::Act(Action::Move { unit, to, facing }))
                }
                Some(way @ ("forward" | "back")) => {
                    let sign = if way == "forward" { 1.0 } else { -1.0 };
                    if is_max(after.get(1)) {
                        return farthest(state, unit, base.forward() * sign, keep).map(Command::Act);
                    }
                    let distance = inches(after.get(1))?;
                    Ok(Command::Act(Action::Move { unit, to: base.centre + base.forward() * (sign * distance), facing: keep }))
                }
                Some("towards") | Some("toward") => {
                    // Towards a point, or towards a unit.
                    let (goal, used, target) = match point(&after[1..]) {
                        Ok((goal, used)) => (goal, used, None),
                        Err(_) => {
                            let (target, used) = names.unit(&after[1..])?;
                            (state.unit(target).base.centre, used, Some(target))
                        }
                    };
                    let direction = goal - base.centre;
                    let bearing = direction.bearing();
                    if is_max(after.get(1 + used)) {
                        return farthest(state, unit, direction, bearing).map(Command::Act);
                    }
                    let gap = match target {
                        // Stop a hair short of contact: a move that is not a
                        // charge may not touch the enemy.
                        Some(target) => (base.distance_to(&state.unit(target).base) - 0.25).max(0.0),
                        None => direction.length(),
                    };
                    let wanted = match after.get(1 + used) {
                        Some(word) => inches(Some(word))?,
                        None => state.battlefield.ruleset.move_of(state.unit(unit).troop),
                    };
                    let distance = wanted.min(gap);
                    let step = Vector::from_bearing(bearing) * distance;
                    Ok(Command::Act(Action::Move { unit, to: base.centre + step, facing: bearing }))
                }
                Some("road") => {
                    if after.get(1).map(|w| w.to_lowercase()).as_deref() != Some("to") {
                        return Err("expected `move UNIT road to X,Y`".into());
                    }
                    let (to, _) = point(&after[2..])?;
                    let blocked = state.battlefield.occupied(
                        state.units.iter().enumerate().filter(|(i, u)| *i != unit.0 && u.is_active()).map(|(_, u)| &u.base),
                    );
                    let route = state
                        .battlefield
                        .route(state.unit(unit).troop, base.centre, to, &blocked)
                        .ok_or_else(|| format!("no way for {} to reach {to}", state.unit(unit).name))?;
                    let path: Vec<Point> = route.legs.iter().flat_map(|leg| leg.points.iter().skip(1).copied()).collect();
                    Ok(Command::Act(Action::MoveRoad { unit, path, facing: keep }))
                }
                _ => Err("expected `move UNIT to X,Y`, `forward N|max`, `back N|max`, `towards UNIT|X,Y [N|max]` or `road to X,Y`".into()),
            }
        }
        "pivot" => {
            let (unit, after) = unit_then(rest)?;
            let after: Vec<&str> = after.iter().map(String::as_str).collect();
            let facing = facing(&after, &names, &state.unit(unit).base)?;
            Ok(Command::Act(Action::Pivot { unit, facing }))
        }
        "charge" | "fire" => {
            let (unit, after) = unit_then(rest)?;
            let mut after: Vec<&str> = after.iter().map(String::as_str).collect();
            if after
                .first()
                .is_some_and(|word| word.eq_ignore_ascii_case("at"))
            {
                after.remove(0);
            }
            if after.is_empty() {
                return Err(format!("`{verb} UNIT TARGET`: name the target too"));
            }
            let (target, _) = names.unit(&after)?;
            Ok(Command::Act(if verb == "charge" {
                Action::Charge { unit, target }
            } else {
                Action::Fire {
                    unit,
                    target,
                    volley: crate::rules::Volley::Single,
                }
            }))
        }
        "rally" => {
            let own: Vec<GeneralId> = (0..state.generals.len())
                .map(GeneralId)
                .filter(|general| state.general(*general).side == state.active)
                .collect();
            let (general, units_from) = match rest.first().map(|word| names.general(word)) {
                Some(Ok(general)) => (general, 1),
                _ if own.len() == 1 => (own[0], 0),
                _ => return Err("`rally GENERAL UNIT...`: name the general".into()),
            };
            let mut units = Vec::new();
            let mut remaining = &rest[units_from..];
            while !remaining.is_empty() {
                let (unit, used) = names.unit(remaining)?;
                units.push(unit);
                remaining = &remaining[used.max(1)..];
            }
            if units.is_empty() {
                return Err(
                    "`rally GENERAL UNIT...`: name the units to rally, most urgent first".into(),
                );
            }
            Ok(Command::Act(Action::Rally { general, units }))
        }
        "general" => {
            let general = names.general(rest.first().ok_or("`general GENERAL to X,Y`")?)?;
            if rest.get(1).map(|w| w.to_lowercase()).as_deref() != Some("to") {
                return Err("expected `general GENERAL to X,Y`".into());
            }
            let (to, _) = point(&rest[2..])?;
            Ok(Command::Act(Action::MoveGeneral { general, to }))
        }
        "end" => match rest.first().map(|w| w.to_lowercase()).as_deref() {
            None | Some("phase") => Ok(Command::Act(Action::EndPhase)),
            Some("turn") => Ok(Command::EndTurn),
            Some(other) => Err(format!("expected `end` or `end turn`, not `end {other}`")),
        },
        "map" => match rest {
            [] => Ok(Command::Map { svg: None }),
            [word, file] if word.eq_ignore_ascii_case("svg") || *word == "--svg" => {
                Ok(Command::Map {
                    svg: Some((*file).to_string()),
                })
            }
            _ => Err("expected `map`, `map --svg FILE` or `map --svg DIR/`".into()),
        },
        "status" => match rest {
            [] => Ok(Command::Status(None)),
            _ => Ok(Command::Status(Some(names.unit(rest)?.0))),
        },
        "log" => match rest {
            [] => Ok(Command::Log(None)),
            [n] => n
                .parse()
                .map(|n| Command::Log(Some(n)))
                .map_err(|_| format!("expected `log` or `log N`, not `log {n}`")),
            _ => Err("expected `log` or `log N`".into()),
        },
        "what" | "why" => {
            let (unit, _) = unit_then(rest)?;
            Ok(if verb == "what" {
                Command::What(unit)
            } else {
                Command::Why(unit)
            })
        }
        "save" | "load" => match rest {
            [file] => Ok(if verb == "save" {
                Command::Save((*file).to_string())
            } else {
                Command::Load((*file).to_string())
            }),
            _ => Err(format!("expected `{verb} FILE`")),
        },
        "undo" => match rest {
            [] => Ok(Command::Undo),
            [word] if word.eq_ignore_ascii_case("turn") => Ok(Command::UndoTurn),
            _ => Err("expected `undo` or `undo turn`".into()),
        },
        "rewind" => match rest {
            [n] => n
                .parse()
                .map(Command::Rewind)
                .map_err(|_| format!("expected `rewind N`, a turn number, not `{n}`")),
            _ => Err("expected `rewind N`, the turn to go back to the start of".into()),
        },
        "route" => {
            let (unit, after) = unit_then(rest)?;
            let after: Vec<&str> = after.iter().map(String::as_str).collect();
            if !after
                .first()
                .is_some_and(|word| matches!(word.to_lowercase().as_str(), "to" | "towards"))
            {
                return Err("expected `route UNIT to X,Y` or `route UNIT to UNIT`".into());
            }
            let to = match point(&after[1..]) {
                Ok((to, _)) => to,
                Err(message) => match names.unit(&after[1..]) {
                    Ok((target, _)) => state.unit(target).base.centre,
                    Err(_) => return Err(message),
                },
            };
            Ok(Command::Route { unit, to })
        }
        "history" => Ok(Command::History),
        "victory" => Ok(Command::Victory),
        _ => Ok(Command::Quit),
    }
}

/// A built-in scenario's game for tests elsewhere in the crate (the
/// renderers'), with the player on `player_sides`.
#[cfg(test)]
pub(crate) fn test_game(name: &str, seed: u64, player_sides: Vec<usize>) -> super::Match {
    super::tests::start(name, seed, player_sides)
}

#[cfg(test)]
mod tests;
