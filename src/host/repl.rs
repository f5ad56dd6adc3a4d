//! The words of `foe play` over the boundary, pure: a typed line becomes a
//! [`Command`] (an engine action or a question), a legal action becomes
//! the words that type it back (so `?` lists pasteable commands), and the
//! state, the map and the opponent's reasons become text. Bad input is a
//! one-line message naming what was expected, with did-you-mean for names.

use super::opponent::{Decision, Opponent};
use super::{Action, Engine, Game, acw_formation};
use crate::battlefield::Point;
use crate::suggest::{did_you_mean, resolve};
use crate::{acw, rv};
use std::fmt::Write as _;

/// What a line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Take an engine action.
    Act(Action),
    /// Take the action numbered so in the last `?` list (from 1).
    Pick(usize),
    /// List the legal actions.
    Legal,
    /// Seed 002: give out the player's remaining dice by foe's policy.
    Auto,
    /// The turn, the phase and every unit.
    Status,
    /// A map of the table as text, or as an SVG picture written to a file
    /// (or, for a folder `DIR/`, one picture every phase from now on).
    Map {
        /// Where to write the picture.
        svg: Option<String>,
    },
    /// Why foe's unit did what it did.
    Why(usize),
    /// The last lines of the record (all with `None`).
    Log(Option<usize>),
    /// Take back the player's last action.
    Undo,
    /// Take back the player's actions of this turn (at a turn's start,
    /// before any, of the turn before; ruling P1).
    UndoTurn,
    /// Go back to the player's first decision in turn N (ruling P1).
    Rewind(u32),
    /// Save the game to a file.
    Save(String),
    /// The commands.
    Help,
    /// Stop.
    Quit,
}

/// Parse a line typed at the prompt.
pub fn parse(game: &Game, line: &str) -> Result<Command, String> {
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
    match verb.as_str() {
        "?" | "legal" => Ok(Command::Legal),
        "auto" => Ok(Command::Auto),
        "status" | "s" => Ok(Command::Status),
        "map" => match rest.split_once(char::is_whitespace) {
            _ if rest.is_empty() => Ok(Command::Map { svg: None }),
            Some((word, file)) if word.eq_ignore_ascii_case("svg") || word == "--svg" => {
                Ok(Command::Map {
                    svg: Some(file.trim().to_string()),
                })
            }
            _ => Err("expected `map`, `map --svg FILE` or `map --svg DIR/`".into()),
        },
        "why" => Ok(Command::Why(unit(game, rest)?)),
        "log" => match rest {
            "" => Ok(Command::Log(Some(20))),
            "all" => Ok(Command::Log(None)),
            n => n
                .parse()
                .map(|n| Command::Log(Some(n)))
                .map_err(|_| format!("`log` takes a number of lines or `all`, not `{n}`")),
        },
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
        "help" | "h" => Ok(Command::Help),
        "quit" | "exit" | "q" => Ok(Command::Quit),
        _ => action(game, &verb, rest).map(Command::Act),
    }
}

/// The commands' first words (for did-you-mean and Tab).
pub const VERBS: &[&str] = &[
    "?", "assign", "auto", "charge", "dismount", "end", "face", "fire", "form", "help", "hold",
    "join", "leave", "log", "map", "mount", "move", "pivot", "quit", "respond", "rewind", "save",
    "status", "undo", "why",
];

fn action(game: &Game, verb: &str, rest: &str) -> Result<Action, String> {
    match game {
        Game::Rv(state) => rv_action(state, game, verb, rest).map(Action::Rv),
        Game::Acw(_) => acw_action(game, verb, rest).map(Action::Acw),
        Game::Awi(_) => Err("seed-000 games are played by the seed-000 REPL".into()),
    }
}

fn unknown_verb(verb: &str) -> String {
    format!(
        "unknown command `{verb}`{}; `help` lists the commands",
        did_you_mean(verb, VERBS.iter().copied())
    )
}

/// `A to B` split on the last ` to ` (unit names may hold `to`).
fn split_word<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    // Matched on the bytes as typed, ignoring ASCII case (the words are
    // ASCII), so the cut is always at a character boundary.
    let needle = format!(" {word} ");
    let (bytes, wanted) = (text.as_bytes(), needle.as_bytes());
    let at = (0..=bytes.len().checked_sub(wanted.len())?)
        .rev()
        .find(|&i| bytes[i..i + wanted.len()].eq_ignore_ascii_case(wanted))?;
    Some((text[..at].trim(), text[at + wanted.len()..].trim()))
}

fn point(text: &str) -> Result<Point, String> {
    let bad = || format!("expected a point as X,Y in inches (e.g. 30,12), not `{text}`");
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: f64 = x.trim().parse().map_err(|_| bad())?;
    let y: f64 = y.trim().parse().map_err(|_| bad())?;
    if !(x.is_finite() && y.is_finite()) {
        return Err(bad());
    }
    Ok(Point::new(x, y))
}

fn degrees(text: &str) -> Result<f64, String> {
    text.trim()
        .trim_end_matches('°')
        .parse::<f64>()
        .ok()
        .filter(|d| d.is_finite())
        .ok_or_else(|| format!("expected a compass bearing in degrees (0-360), not `{text}`"))
}

/// A unit by name or unique prefix (ignoring case), or `#N` by index.
pub fn unit(game: &Game, text: &str) -> Result<usize, String> {
    let units = game.units();
    let text = text.trim().trim_matches('`');
    if text.is_empty() {
        return Err("expected a unit's name".into());
    }
    if let Some(n) = text.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
        return units.get(n).map(|u| u.index).ok_or_else(|| {
            format!(
                "no unit #{n}: units are #0 to #{}",
                units.len().saturating_sub(1)
            )
        });
    }
    let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
    match resolve(text, names.iter().copied()) {
        Ok(name) => Ok(units.iter().position(|u| u.name == name).unwrap_or(0)),
        Err(matches) if matches.len() > 1 => Err(format!(
            "`{text}` could be {}",
            matches
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        Err(_) => Err(format!(
            "no unit `{text}`{}",
            did_you_mean(text, names.iter().copied())
        )),
    }
}

/// `text` without its first word when that is `word` (any case, a whole
/// word: `facet` is not `face`).
fn strip_word<'t>(text: &'t str, word: &str) -> &'t str {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    if text[..end].eq_ignore_ascii_case(word) {
        &text[end..]
    } else {
        text
    }
}

fn rv_commander(state: &rv::GameState, text: &str) -> Option<usize> {
    let names: Vec<&str> = state.commanders().iter().map(|c| c.name.as_str()).collect();
    let name = resolve(text.trim(), names.iter().copied()).ok()?;
    state.commanders().iter().position(|c| c.name == name)
}

fn rv_action(
    state: &rv::GameState,
    game: &Game,
    verb: &str,
    rest: &str,
) -> Result<rv::Action, String> {
    let two = |word: &str, usage: &str| {
        split_word(rest, word).ok_or_else(|| format!("expected `{usage}`"))
    };
    match verb {
        "end" => Ok(rv::Action::EndPhase),
        "move" => {
            let (who, to) = two("to", "move UNIT to X,Y")?;
            let to = point(to)?;
            match unit(game, who) {
                Ok(unit) => Ok(rv::Action::Move { unit, to }),
                Err(problem) => match rv_commander(state, who) {
                    Some(commander) => Ok(rv::Action::MoveCommander { commander, to }),
                    None => Err(problem),
                },
            }
        }
        "pivot" | "face" => {
            let (who, facing) = two("to", "pivot UNIT to DEGREES")?;
            Ok(rv::Action::Pivot {
                unit: unit(game, who)?,
                facing: degrees(facing)?,
            })
        }
        "about" => Ok(rv::Action::AboutFace {
            unit: unit(game, strip_word(rest, "face"))?,
        }),
        "fire" => {
            let (who, target) = two("at", "fire UNIT at TARGET")?;
            Ok(rv::Action::Fire {
                unit: unit(game, who)?,
                target: unit(game, target)?,
            })
        }
        "charge" => {
            let (who, target) = two("at", "charge UNIT at TARGET")?;
            Ok(rv::Action::Charge {
                unit: unit(game, who)?,
                target: unit(game, target)?,
            })
        }
        "form" => {
            let ends_with = |name: &str| {
                rest.len() >= name.len()
                    && rest.as_bytes()[rest.len() - name.len()..]
                        .eq_ignore_ascii_case(name.as_bytes())
            };
            let (formation, name) = [
                (rv::Formation::OpenOrder, "open order"),
                (rv::Formation::Column, "column"),
                (rv::Formation::Line, "line"),
            ]
            .into_iter()
            .find(|(_, name)| ends_with(name))
            .ok_or_else(|| "expected `form UNIT line|column|open order`".to_string())?;
            Ok(rv::Action::ChangeFormation {
                unit: unit(game, &rest[..rest.len() - name.len()])?,
                formation,
            })
        }
        "mount" | "dismount" => Ok(rv::Action::Mount {
            unit: unit(game, rest)?,
            mounted: verb == "mount",
        }),
        "join" => {
            let (who, to) = two("to", "join COMMANDER to UNIT")?;
            let commander =
                rv_commander(state, who).ok_or_else(|| format!("no commander `{who}`"))?;
            Ok(rv::Action::Join {
                commander,
                unit: unit(game, to)?,
            })
        }
        "leave" => {
            let (who, to) = two("to", "leave COMMANDER to X,Y")?;
            let commander =
                rv_commander(state, who).ok_or_else(|| format!("no commander `{who}`"))?;
            Ok(rv::Action::Leave {
                commander,
                to: point(to)?,
            })
        }
        "respond" => {
            let response = match rest.to_lowercase().as_str() {
                "fire" => rv::Response::Fire,
                "counter" | "counter-charge" | "countercharge" => rv::Response::CounterCharge,
                "stand" => rv::Response::Stand,
                other => {
                    return Err(format!(
                        "expected `respond fire|counter|stand`, not `{other}`"
                    ));
                }
            };
            Ok(rv::Action::Respond { response })
        }
        _ => Err(unknown_verb(verb)),
    }
}

fn acw_action(game: &Game, verb: &str, rest: &str) -> Result<acw::Action, String> {
    let two = |word: &str, usage: &str| {
        split_word(rest, word).ok_or_else(|| format!("expected `{usage}`"))
    };
    let id = |text: &str| unit(game, text).map(acw::UnitId);
    match verb {
        "assign" => {
            let (die, who) = two("to", "assign DIE to UNIT")?;
            let die: u8 = die
                .parse()
                .ok()
                .filter(|d| (1..=6).contains(d))
                .ok_or_else(|| format!("expected a die from 1 to 6, not `{die}`"))?;
            Ok(acw::Action::AssignDie { die, unit: id(who)? })
        }
        "hold" => Ok(acw::Action::Hold { unit: id(rest)? }),
        "fire" => {
            let (who, target) = two("at", "fire UNIT at TARGET")?;
            Ok(acw::Action::Fire {
                unit: id(who)?,
                target: id(target)?,
            })
        }
        "charge" => {
            let (who, target) = two("at", "charge UNIT at TARGET")?;
            Ok(acw::Action::Charge {
                unit: id(who)?,
                target: id(target)?,
            })
        }
        "move" => {
            // move UNIT [form F] to X,Y [facing D]
            let (head, place) = two("to", "move UNIT [form line|column|dismounted] to X,Y [facing DEGREES]")?;
            let (place, facing) = match split_word(&format!(" {place} "), "facing") {
                Some((place, facing)) => (place.to_string(), Some(degrees(facing)?)),
                None => (place.to_string(), None),
            };
            let (who, formation) = match split_word(&format!("{head} "), "form") {
                Some((who, formation)) => {
                    let formation = match formation.to_lowercase().as_str() {
                        "line" => acw::Formation::Line,
                        "column" => acw::Formation::Column,
                        "dismounted" => acw::Formation::Dismounted,
                        other => {
                            return Err(format!(
                                "expected a formation line, column or dismounted, not `{other}`"
                            ));
                        }
                    };
                    (who.to_string(), Some(formation))
                }
                None => (head.to_string(), None),
            };
            let unit = id(&who)?;
            let facing = facing.unwrap_or_else(|| game.units()[unit.0].facing);
            Ok(acw::Action::Move {
                unit,
                formation,
                to: point(&place)?,
                facing,
            })
        }
        "respond" => {
            let Game::Acw(state) = game else {
                return Err("no charge to answer".into());
            };
            let acw::Phase::ChargeResponse { target, .. } = state.phase() else {
                return Err("no charge is waiting for an answer".into());
            };
            match rest.to_lowercase().as_str() {
                "fire" => Ok(acw::Action::Respond {
                    unit: target,
                    fire: true,
                }),
                "hold" | "stand" => Ok(acw::Action::Respond {
                    unit: target,
                    fire: false,
                }),
                other => Err(format!("expected `respond fire|hold`, not `{other}`")),
            }
        }
        "end" => Err(
            "seed 002 has no phases to end: give out your dice (`assign 6 to UNIT`, or `auto`), then act with each unit as its die comes up (`hold UNIT` to do nothing)".into(),
        ),
        _ => Err(unknown_verb(verb)),
    }
}

fn name(game: &Game, index: usize) -> String {
    game.units()
        .get(index)
        .map_or(format!("#{index}"), |u| u.name.clone())
}

fn xy(point: Point) -> String {
    format!("{},{}", trim(point.x), trim(point.y))
}

fn trim(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The words that type `action` at the prompt.
pub fn words(game: &Game, action: &Action) -> String {
    match (game, action) {
        (Game::Rv(state), Action::Rv(action)) => {
            let commander = |c: usize| state.commanders()[c].name.clone();
            match action {
                rv::Action::ChangeFormation { unit, formation } => {
                    format!("form {} {formation}", name(game, *unit))
                }
                rv::Action::Mount { unit, mounted } => format!(
                    "{} {}",
                    if *mounted { "mount" } else { "dismount" },
                    name(game, *unit)
                ),
                rv::Action::AboutFace { unit } => format!("about face {}", name(game, *unit)),
                rv::Action::Pivot { unit, facing } => {
                    format!("pivot {} to {}", name(game, *unit), trim(*facing))
                }
                rv::Action::Move { unit, to } => {
                    format!("move {} to {}", name(game, *unit), xy(*to))
                }
                rv::Action::MoveCommander { commander: c, to } => {
                    format!("move {} to {}", commander(*c), xy(*to))
                }
                rv::Action::Join { commander: c, unit } => {
                    format!("join {} to {}", commander(*c), name(game, *unit))
                }
                rv::Action::Leave { commander: c, to } => {
                    format!("leave {} to {}", commander(*c), xy(*to))
                }
                rv::Action::Fire { unit, target } => {
                    format!("fire {} at {}", name(game, *unit), name(game, *target))
                }
                rv::Action::Charge { unit, target } => {
                    format!("charge {} at {}", name(game, *unit), name(game, *target))
                }
                rv::Action::Respond { response } => format!(
                    "respond {}",
                    match response {
                        rv::Response::Fire => "fire",
                        rv::Response::CounterCharge => "counter",
                        rv::Response::Stand => "stand",
                    }
                ),
                rv::Action::EndPhase => "end".to_string(),
            }
        }
        (Game::Acw(_), Action::Acw(action)) => match action {
            acw::Action::AssignDie { die, unit } => {
                format!("assign {die} to {}", name(game, unit.0))
            }
            acw::Action::Move {
                unit,
                formation,
                to,
                facing,
            } => {
                let form =
                    formation.map_or(String::new(), |f| format!(" form {}", acw_formation(f)));
                format!(
                    "move {}{form} to {} facing {}",
                    name(game, unit.0),
                    xy(*to),
                    trim(*facing)
                )
            }
            acw::Action::Fire { unit, target } => {
                format!("fire {} at {}", name(game, unit.0), name(game, target.0))
            }
            acw::Action::Charge { unit, target } => {
                format!("charge {} at {}", name(game, unit.0), name(game, target.0))
            }
            acw::Action::Hold { unit } => format!("hold {}", name(game, unit.0)),
            acw::Action::Respond { fire, .. } => {
                format!("respond {}", if *fire { "fire" } else { "hold" })
            }
        },
        (_, action) => format!("{action:?}"),
    }
}

/// Seed 002's dice waiting to be given out, and the units waiting for
/// one, when a side is giving out its activation dice (none otherwise).
pub fn dice_to_give(game: &Game) -> Option<String> {
    let Game::Acw(state) = game else {
        return None;
    };
    let acw::Phase::Assigning { side } = state.phase() else {
        return None;
    };
    let waiting: Vec<String> = state
        .unassigned(side)
        .map(|id| state.unit(id).name.clone())
        .collect();
    Some(format!(
        "Your dice to give: {:?}; waiting for a die: {}.",
        state.dice_to_assign(side),
        waiting.join(", ")
    ))
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
    let Game::Acw(state) = game else {
        return Err("`auto` gives out seed-002 activation dice; this game has none");
    };
    let acw::Phase::Assigning { side } = state.phase() else {
        return Err("no dice to give out now");
    };
    if !player_sides.contains(&side) {
        return Err("it is foe's turn to give out its dice");
    }
    Ok(crate::host::opponent::dice::assign(state, side, &[])
        .into_iter()
        .next()
        .map(|assignment| {
            let said = format!(
                "auto: die {} to `{}`: {}",
                assignment.die,
                state.unit(assignment.unit).name,
                assignment.reason
            );
            (Action::Acw(assignment.action()), said)
        }))
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
    match game {
        Game::Rv(state) => {
            let (attacker, defender) = state.attacker_defender();
            let table = state.table();
            let _ = writeln!(
                text,
                "Victory: the {} must drive the {} from the field; an army with fewer than {}% of its units left is broken and loses. The margin is the defender's losses less the attacker's, in percent of bases (house rule RV10): a win with a negative margin is a ruinous victory.",
                sides[attacker], sides[defender], table.broken_below_percent
            );
        }
        Game::Acw(state) => {
            for victory in &state.victory {
                let _ = writeln!(text, "Victory: {}.", victory_words(game, victory));
            }
            let _ = writeln!(
                text,
                "Each turn both sides throw a die per unit and give them out (`assign 6 to UNIT`, or `auto`); units act from the highest die down."
            );
        }
        Game::Awi(_) => {}
    }
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
fn victory_words(game: &Game, victory: &crate::scenario::Victory) -> String {
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

/// The turn, the phase and every unit.
pub fn status(game: &Game) -> String {
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
    if let Game::Acw(state) = game {
        for (side, name) in sides.iter().enumerate() {
            let dice = state.dice_to_assign(side);
            if !dice.is_empty() {
                let unassigned: Vec<String> = state
                    .unassigned(side)
                    .map(|id| state.unit(id).name.clone())
                    .collect();
                let _ = writeln!(
                    text,
                    "{name}: dice {:?} to give to {}",
                    dice,
                    unassigned.join(", ")
                );
            }
        }
    }
    for (side, side_name) in sides.iter().enumerate() {
        let _ = writeln!(text, "{side_name}:");
        for (letter, u) in letters(game) {
            if u.side != side {
                continue;
            }
            if u.removed {
                let _ = writeln!(text, "  {letter} {:<28} out of play", u.name);
                continue;
            }
            let die = match game {
                Game::Acw(state) => {
                    state
                        .unit(acw::UnitId(u.index))
                        .die
                        .map_or(String::new(), |d| {
                            let used = if state.unit(acw::UnitId(u.index)).activated {
                                " used"
                            } else {
                                ""
                            };
                            format!(", die {d}{used}")
                        })
                }
                _ => String::new(),
            };
            let _ = writeln!(
                text,
                "  {letter} {:<28} at {:>11} facing {:>3}  {:>3.0}% {}{}{die}",
                u.name,
                xy(u.position),
                u.facing.round(),
                u.strength * 100.0,
                u.formation.as_deref().unwrap_or("-"),
                if u.in_cover { ", in cover" } else { "" },
            );
        }
    }
    text
}

/// Map letters ([`super::letters`]) with their units.
fn letters(game: &Game) -> Vec<(char, super::UnitView)> {
    let units = game.units();
    super::letters(&units).into_iter().zip(units).collect()
}

/// A map of the table, `width` columns wide: each unit in play is its
/// letter (as `status` lists them), woods and other cover `:`.
pub fn map(game: &Game, width: usize) -> String {
    let field = game.battlefield();
    let width = width.clamp(20, 200);
    let (table_w, table_h) = (field.width(), field.height());
    let scale = table_w / width as f64;
    let height = ((table_h / scale / 2.0).ceil() as usize).clamp(5, 100);
    let mut grid = vec![vec![' '; width]; height];
    for (row, line) in grid.iter_mut().enumerate() {
        for (col, cell) in line.iter_mut().enumerate() {
            let x = (col as f64 + 0.5) * scale;
            let y = table_h - (row as f64 + 0.5) * scale * 2.0;
            if field.cover_at(Point::new(x, y)) {
                *cell = ':';
            }
        }
    }
    for (letter, u) in letters(game) {
        if u.removed {
            continue;
        }
        let col = ((u.position.x / scale) as usize).min(width - 1);
        let row = (((table_h - u.position.y) / (scale * 2.0)) as usize).min(height - 1);
        grid[row][col] = letter;
    }
    let mut text = format!("+{}+ north\n", "-".repeat(width));
    for line in grid {
        let _ = writeln!(text, "|{}|", line.into_iter().collect::<String>());
    }
    let _ = writeln!(
        text,
        "+{}+ south; {}\" x {}\", one column {:.1}\"; `:` cover",
        "-".repeat(width),
        trim(table_w),
        trim(table_h),
        scale
    );
    text
}

/// One decision in words: the test's factors, die, total, order, and what
/// the unit did.
pub fn decision(d: &Decision) -> String {
    let mut text = format!("Turn {}: `{}`", d.turn, d.name);
    match &d.outcome {
        Some(outcome) => {
            let factors: Vec<String> = outcome
                .factors
                .iter()
                .map(|f| format!("{} {:+}", f.label, f.value))
                .collect();
            let _ = write!(
                text,
                " ({}, {} ground): {}; die {}, total {}: {} ({}).",
                outcome.class_name,
                outcome.column,
                factors.join(", "),
                outcome.die,
                outcome.total,
                outcome.order.title(),
                outcome.band
            );
        }
        None => text.push_str(": no Lone Warrior class, so no test: it stands (ruling HO2)."),
    }
    if let Some((die, reason)) = &d.die {
        let _ = write!(text, " Activation die {die}: {reason}.");
    }
    if d.did.is_empty() {
        text.push_str(" It has not acted on it yet.");
    } else {
        let _ = write!(text, " It {}.", d.did.join("; then "));
    }
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

/// The commands.
pub fn help(engine: Engine) -> String {
    let mut text = String::from(
        "Commands (units by name, unique prefix or #N):\n  ?                       the legal actions now, numbered; type a number to take one\n",
    );
    match engine {
        Engine::Rv => text.push_str(
            "  move UNIT to X,Y        move straight (a commander too)\n  pivot UNIT to DEGREES   turn on the spot\n  about face UNIT\n  form UNIT line|column|open order\n  mount UNIT / dismount UNIT\n  fire UNIT at TARGET     (shoot phase)\n  charge UNIT at TARGET   (charge phase)\n  respond fire|counter|stand   answer a charge\n  join COMMANDER to UNIT / leave COMMANDER to X,Y\n  end                     end your phase\n",
        ),
        Engine::Acw => text.push_str(
            "  assign DIE to UNIT      give one of your dice to a unit\n  auto                    give out the rest of your dice as foe would\n  move UNIT [form line|column|dismounted] to X,Y [facing DEGREES]\n  fire UNIT at TARGET / charge UNIT at TARGET / hold UNIT\n  respond fire|hold       answer a charge before your unit has acted\n",
        ),
        Engine::Awi => {}
    }
    text.push_str(
        "  status                  the turn, the phase, every unit\n  map [--svg FILE|DIR/]   the table (a picture; into a folder, one every phase)\n  why UNIT                foe's reaction test for its unit (the baseline's reason), and what it did\n  log [N|all]             the record\n  undo                    take back your last action\n  undo turn               take back this turn's actions\n  rewind N                go back to the start of turn N\n  save FILE               save the game\n  help, quit\n",
    );
    text
}
