//! Reading the player's commands in `foe play`: words in, a [`Command`] out,
//! with units named by their map label (`B3`), their name, or a unique
//! prefix of it (`23rd`, `guards gren`). Pure: it reads the game state to
//! resolve names and turn "forward 3" into a point, and never changes it.

use crate::battlefield::geometry::{Vector, normalise_degrees};
use crate::battlefield::{Base, Point};
use crate::render::map::unit_label;
use crate::render::scene::general_label;
use crate::rules::{Action, GameState, GeneralId, UnitId};
use crate::scenario::Scenario;

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
    /// Take back the last action.
    Undo,
    /// Help, on everything or one command.
    Help(Option<String>),
    /// What is legal now (for one command word, or all).
    Legal(Option<String>),
    /// Leave.
    Quit,
}

/// Every command word, with its usage, for help and completion.
pub const COMMANDS: [(&str, &str); 19] = [
    (
        "move",
        "move UNIT to X,Y [facing F] | forward N | back N | towards UNIT [N] | road to X,Y",
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
        "end",
        "end [turn]             end this phase (or the whole turn)",
    ),
    (
        "map",
        "map [--svg FILE]       the battlefield now, or as an SVG picture",
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
    ("save", "save FILE              save the game"),
    ("load", "load FILE              load a saved game"),
    (
        "undo",
        "undo                   take back your last action this turn",
    ),
    ("help", "help [COMMAND]         this list, or one command"),
    ("?", "?  or  COMMAND ?       what is legal now"),
    (
        "quit",
        "quit                   leave (the game is autosaved)",
    ),
    ("exit", "exit                   leave"),
];

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

fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl<'a> Names<'a> {
    /// The names in a game of `scenario`.
    pub fn new(scenario: &Scenario, state: &'a GameState) -> Names<'a> {
        let mut counts = vec![0usize; state.sides.len()];
        let labels = state
            .units
            .iter()
            .map(|unit| {
                let index = counts[unit.side];
                counts[unit.side] += 1;
                unit_label(scenario, unit.side, index)
            })
            .collect();
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

    /// Every label and name, for completion.
    pub fn words(&self) -> Vec<String> {
        let mut words: Vec<String> = self.labels.clone();
        words.extend(self.general_labels.iter().cloned());
        for unit in &self.state.units {
            words.push(
                unit.name
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string(),
            );
        }
        words.sort();
        words.dedup();
        words
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
        let mut all: Vec<&str> = self.labels.iter().map(String::as_str).collect();
        all.extend(self.state.units.iter().map(|unit| unit.name.as_str()));
        Err(format!(
            "no unit `{typed}`{}",
            crate::suggest::did_you_mean(typed, all)
        ))
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
    let compass = [
        ("n", 0.0),
        ("ne", 45.0),
        ("e", 90.0),
        ("se", 135.0),
        ("s", 180.0),
        ("sw", 225.0),
        ("w", 270.0),
        ("nw", 315.0),
    ];
    let word = first.to_lowercase();
    let short = match word.as_str() {
        "north" => "n",
        "east" => "e",
        "south" => "s",
        "west" => "w",
        "north-east" => "ne",
        "south-east" => "se",
        "south-west" => "sw",
        "north-west" => "nw",
        other => other,
    };
    if let Some((_, degrees)) = compass.iter().find(|(name, _)| *name == short) {
        return Ok(*degrees);
    }
    if matches!(short, "towards" | "toward" | "at" | "to") {
        let (target, _) = names.unit(&words[1..])?;
        return Ok((names.state.unit(target).base.centre - from.centre).bearing());
    }
    word.trim_end_matches('°')
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .map(normalise_degrees)
        .ok_or_else(|| {
            format!(
                "expected a facing: degrees, n/ne/e/se/s/sw/w/nw, or towards UNIT, not `{first}`"
            )
        })
}

/// Parse one line of the player's.
pub fn parse(line: &str, scenario: &Scenario, state: &GameState) -> Result<Command, String> {
    let names = Names::new(scenario, state);
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((first, rest)) = words.split_first() else {
        return Err("type a command; `help` lists them".into());
    };
    let verbs: Vec<&str> = COMMANDS.iter().map(|(word, _)| *word).collect();
    let verb = match crate::suggest::resolve(first, verbs.iter().copied()) {
        Ok(verb) => verb,
        Err(matches) if matches.len() > 1 => {
            return Err(format!("`{first}` could be {}", matches.join(", ")));
        }
        Err(_) => {
            return Err(format!(
                "unknown command `{first}`{}; `help` lists them",
                crate::suggest::did_you_mean(first, verbs)
            ));
        }
    };
    if rest.last() == Some(&"?") || verb == "?" {
        return Ok(Command::Legal((verb != "?").then(|| verb.to_string())));
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
                Some("forward") => {
                    let distance = inches(after.get(1))?;
                    Ok(Command::Act(Action::Move { unit, to: base.centre + base.forward() * distance, facing: keep }))
                }
                Some("back") => {
                    let distance = inches(after.get(1))?;
                    Ok(Command::Act(Action::Move { unit, to: base.centre + base.forward() * -distance, facing: keep }))
                }
                Some("towards") | Some("toward") => {
                    let (target, used) = names.unit(&after[1..])?;
                    let target_base = state.unit(target).base;
                    let direction = target_base.centre - base.centre;
                    let bearing = direction.bearing();
                    // Stop a hair short of contact: a move that is not a charge
                    // may not touch the enemy.
                    let gap = (base.distance_to(&target_base) - 0.25).max(0.0);
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
                _ => Err("expected `move UNIT to X,Y`, `forward N`, `back N`, `towards UNIT [N]` or `road to X,Y`".into()),
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
            _ => Err("expected `map` or `map --svg FILE`".into()),
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
        "undo" => Ok(Command::Undo),
        "help" => Ok(Command::Help(rest.first().map(|word| word.to_string()))),
        _ => Ok(Command::Quit),
    }
}

#[cfg(test)]
mod tests;
