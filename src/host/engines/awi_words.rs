//! Seed 000's words at the prompt: its own verbs (`pivot UNIT F`, `fire`
//! and `charge` with or without `at`, `rally [GENERAL] UNIT...`, `general
//! GENERAL to X,Y`, `end`, and the moves to a point or along a road), read
//! as Guilford's own prompt reads them, so a player types the same lines
//! as before; and the words that type each of its actions back.

use crate::battlefield::Point;
use crate::battlefield::geometry::typed_bearing;
use crate::host::Game;
use crate::host::complete::{DIRECTED_MOVES, Item::*, Shapes};
use crate::host::repl::{Names, Words, split_word, trim, unit_at_target, unknown_verb, xy};
use crate::rules::progress::{Progress, progress, wins_if};
use crate::rules::{Action, GameState, GeneralId, UnitId, Volley};
use crate::scenario::label::general_label;
use crate::suggest::{normalise, without_parentheses};
use std::fmt::Write as _;

/// What a facing may be, for messages.
const FACING: &str = "a facing: degrees, n/ne/e/se/s/sw/w/nw, or towards UNIT";

/// The ways a `move` line may go that are seed 000's own.
const MOVE_USAGE: &str = "expected `move UNIT to X,Y [facing F]`, `forward N|max`, `back N|max`, `towards UNIT|X,Y [N|max]` or `road to X,Y`";

/// The most words a line's list of units is read from.
const MOST_WORDS: usize = 64;

impl Words for GameState {
    const COMMANDS: &'static [(&'static str, &'static str)] = &[
        (
            "pivot",
            "pivot UNIT F             face F: degrees, n/ne/e/se/s/sw/w/nw, to 90, or towards UNIT",
        ),
        (
            "charge",
            "charge UNIT [at] TARGET  charge into contact (melee is fought in the melee phase)",
        ),
        ("fire", "fire UNIT [at] TARGET    shoot (muskets or guns)"),
        (
            "rally",
            "rally [GENERAL] UNIT [UNIT...]   a rally attempt, most urgent unit first",
        ),
        ("general", "general GENERAL to X,Y   move a general"),
    ];

    fn not_here(verb: &str) -> Option<&'static str> {
        Some(match verb {
            "about" => {
                "seed 000 turns a unit with `pivot UNIT F` (to face about, the bearing behind it)"
            }
            "form" => "seed 000 units have no formations: `move` and `pivot` place them",
            "mount" | "dismount" => "seed 000 horse fights mounted and never dismounts",
            "respond" => {
                "seed 000 charges wait for no answer: the melee is fought in the melee phase"
            }
            "join" | "leave" => {
                "seed 000 generals stand alone: `general GENERAL to X,Y` moves one, `rally GENERAL UNIT...` rallies"
            }
            "assign" | "auto" => "seed 000 has no activation dice: units act phase by phase",
            "hold" => "seed 000 units hold by doing nothing: `end` ends the phase",
            _ => return None,
        })
    }

    fn rule_help(&self, topic: &str) -> Option<String> {
        let topic = crate::rules::help::topic(topic)?;
        Some(crate::rules::help::rules(
            topic,
            &self.rules,
            &self.battlefield.ruleset,
        ))
    }

    fn more_on(verb: &str) -> Option<&'static str> {
        Some(match verb {
            "fire" => {
                "In your shooting phase each unit that has not moved or pivoted this turn may shoot once, at an enemy in its frontal arc, in range and in sight, with none of your units close to the target; the rule set's shooting table (tables/rulesets/ohw-awi.yaml) gives the hits. Close-order foot near its target may fire a double volley (`fire UNIT at TARGET double`), under the same rule as foe's; `help fire` says who and how near."
            }
            "charge" => {
                "In your movement phase a charge is the unit's move: it pivots to face the target and goes straight at it until the bases touch, within its move; the melee is fought in the melee phase, and the unit with more hits in all retreats."
            }
            "move" => {
                "In your movement phase each unit moves once: straight to a point, ending with the facing given (`move UNIT to X,Y facing F`), or along a road for the road bonus (`move UNIT road to X,Y`; `road via X,Y ... to X,Y` gives the way); near the enemy only straight towards or away from it. A reserve comes on with `enter UNIT at X,Y [facing F]`."
            }
            "pivot" => {
                "A unit may pivot on its centre once a turn, before it moves; a unit that pivoted may not shoot that turn."
            }
            "rally" => {
                "In your rallying phase each general may make one rally attempt a turn, from his budget (`status` shows it): the die's points come off the hits of the units named near him, in the order named, no more from each than its troop type allows. With one general on the table his name may be left out."
            }
            "general" => {
                "In your movement phase a general moves straight to a point within his allowance, to stand near the units he will rally."
            }
            "end" => "`end` ends this phase (`end phase` too); `end turn` the rest of your turn.",
            _ => return None,
        })
    }

    fn read(&self, names: &Names<'_>, verb: &str, rest: &str) -> Result<Action, String> {
        // A shot pasted back as `?` says it ends in `(double volley)`.
        let bracketed = rest
            .trim_end()
            .strip_suffix(')')
            .and_then(|inside| volley_named(&inside.replace('(', " ")).map(|(_, volley)| volley));
        // A unit pasted as `B4 (23rd Foot)` is its label.
        let rest = without_parentheses(rest);
        let rest = rest.trim();
        match verb {
            "end" => match rest.to_lowercase().as_str() {
                "" | "phase" => Ok(Action::EndPhase),
                other => Err(format!(
                    "expected `end` (this phase) or `end turn`, not `end {other}`"
                )),
            },
            "move" => read_move(self, names, rest),
            "pivot" => read_pivot(self, names, rest),
            "fire" | "charge" => {
                // Each cut of the line is tried as two units: not many.
                let words = rest.split_whitespace().count();
                if words > MOST_WORDS {
                    return Err(format!(
                        "`{verb} UNIT at TARGET` names two units, not {words} words"
                    ));
                }
                // `fire U at T double`: the volley is named after the
                // target, as `?` and `history` write it.
                let (units, volley) = match (volley_named(rest), bracketed) {
                    (Some((units, volley)), _) if verb == "fire" => (units, volley),
                    (None, Some(volley)) if verb == "fire" => (rest, volley),
                    _ => (rest, Volley::Single),
                };
                let (unit, target) = unit_at_target(names, verb, units)
                    .or_else(|problem| {
                        if units.len() == rest.len() {
                            Err(problem)
                        } else {
                            unit_at_target(names, verb, rest)
                        }
                    })
                    .map_err(|problem| target_problem(names, verb, rest).unwrap_or(problem))?;
                let (unit, target) = (UnitId(unit), UnitId(target));
                Ok(if verb == "fire" {
                    Action::Fire {
                        unit,
                        target,
                        volley,
                    }
                } else {
                    Action::Charge { unit, target }
                })
            }
            "rally" => read_rally(self, names, rest),
            "general" => {
                let (who, to) = split_word(rest, "to")
                    .ok_or("expected `general GENERAL to X,Y`".to_string())?;
                Ok(Action::MoveGeneral {
                    general: general_named(self, who)?,
                    to: point_at(to)?,
                })
            }
            "enter" => read_enter(self, names, rest),
            _ => Err(unknown_verb(names.game(), verb)),
        }
    }

    fn move_to(unit: usize, to: Point, facing: f64) -> Action {
        Action::Move {
            unit: UnitId(unit),
            to,
            facing,
        }
    }

    fn say(&self, action: &Action) -> String {
        let name = |unit: &UnitId| unit_named(self, *unit);
        // Points and bearings to 0.01, as players type them; to 0.001 where
        // that rounding would make a lawful action unlawful.
        let fine = finer(self, action);
        let number = |value: f64| if fine { thousandth(value) } else { trim(value) };
        let point = |at: Point| format!("{},{}", number(at.x), number(at.y));
        match action {
            Action::Pivot { unit, facing } => {
                format!("pivot {} to {}", name(unit), number(*facing))
            }
            Action::Move { unit, to, facing } => format!(
                "move {} to {} facing {}",
                name(unit),
                point(*to),
                number(*facing)
            ),
            Action::MoveRoad { unit, path, facing } => {
                let (end, via) = match path.split_last() {
                    Some((end, via)) => (point(*end), via),
                    None => ("?".to_string(), &[][..]),
                };
                let via = if via.is_empty() {
                    String::new()
                } else {
                    let points: Vec<String> = via.iter().map(|at| point(*at)).collect();
                    format!(" via {}", points.join(" "))
                };
                format!(
                    "move {} road{via} to {end} facing {}",
                    name(unit),
                    number(*facing)
                )
            }
            Action::Charge { unit, target } => {
                format!("charge {} at {}", name(unit), name(target))
            }
            Action::Fire {
                unit,
                target,
                volley,
            } => {
                let volley = match volley {
                    Volley::Single => String::new(),
                    other => format!(" ({} volley)", other.name()),
                };
                format!("fire {} at {}{volley}", name(unit), name(target))
            }
            Action::MoveGeneral { general, to } => {
                format!("general {} to {}", general_name(self, *general), point(*to))
            }
            Action::Rally { general, units } => {
                let units: Vec<String> = units.iter().map(name).collect();
                format!("rally {} {}", general_name(self, *general), units.join(" "))
            }
            Action::CallUp { name, troop } => format!("call up {name} ({troop})"),
            Action::Enter { unit, to, facing } => format!(
                "enter {} at {} facing {}",
                name(unit),
                point(*to),
                number(*facing)
            ),
            Action::Rout { unit } => format!("rout {}", name(unit)),
            Action::EndPhase => "end".to_string(),
        }
    }

    fn unit_of(action: &Action) -> Option<usize> {
        match action {
            Action::Pivot { unit, .. }
            | Action::Move { unit, .. }
            | Action::MoveRoad { unit, .. }
            | Action::Charge { unit, .. }
            | Action::Fire { unit, .. }
            | Action::Enter { unit, .. }
            | Action::Rout { unit } => Some(unit.0),
            Action::Rally { units, .. } => units.first().map(|unit| unit.0),
            Action::MoveGeneral { .. } | Action::CallUp { .. } | Action::EndPhase => None,
        }
    }

    fn passes(action: &Action) -> bool {
        matches!(action, Action::EndPhase)
    }

    fn rules_lines(&self, _game: &Game) -> String {
        let mut text = String::new();
        for victory in &self.victory {
            let _ = writeln!(
                text,
                "Victory: the {}.",
                wins_if(self, victory.winner, &victory.when)
            );
        }
        let _ = writeln!(
            text,
            "Otherwise a draw after turn {}; `victory` shows how near each side is.",
            self.turns
        );
        text
    }

    fn victory_lines(&self, names: &Names<'_>) -> String {
        let mut text = String::new();
        for item in progress(self) {
            let _ = writeln!(text, "  {}", progress_line(self, names, &item));
        }
        let _ = writeln!(
            text,
            "  Otherwise a draw after turn {} (now turn {}).",
            self.turns, self.turn
        );
        text
    }

    const FIRST_WORDS: &'static [&'static str] =
        &["move", "pivot", "charge", "fire", "rally", "general"];

    fn shapes(verb: &str) -> Shapes {
        match verb {
            "move" => &[
                DIRECTED_MOVES[0],
                DIRECTED_MOVES[1],
                &[OwnOrCommander, Word(&["to"]), Free, Word(&["facing"]), Free],
                &[
                    Own,
                    Word(&["road"]),
                    Word(&["to"]),
                    Free,
                    Word(&["facing"]),
                    Free,
                ],
            ],
            "pivot" | "face" => &[
                &[Own, Word(&["to", "towards"]), Free],
                &[Own, Word(&["towards"]), Enemy],
            ],
            "rally" => &[
                &[Commander, Own, Own, Own, Own, Own, Own],
                &[Own, Own, Own, Own, Own, Own],
            ],
            "general" => &[&[Commander, Word(&["to"]), Free]],
            _ => &[],
        }
    }

    fn own_commanders(&self, player_sides: &[usize]) -> Vec<String> {
        self.generals
            .iter()
            .filter(|general| player_sides.contains(&general.side))
            .map(|general| general.name.clone())
            .collect()
    }
}

/// `move UNIT to X,Y [facing F]`, `move UNIT road [via X,Y ...] to X,Y
/// [facing F]`, and `move GENERAL to X,Y`; the shared parser has read
/// `forward`, `back` and `towards` already.
fn read_move(state: &GameState, names: &Names<'_>, rest: &str) -> Result<Action, String> {
    let padded = format!(" {rest} ");
    if let Some((who, way)) = split_word(&padded, "road") {
        return read_road(state, names, who, way);
    }
    let (head, facing) = facing_part(rest);
    let head = format!(" {head} ");
    let (who, to) = split_word(&head, "to").ok_or(MOVE_USAGE)?;
    if who.is_empty() {
        return Err("name a unit (its label from the map, like B3, or its name)".into());
    }
    let to = point_at(to)?;
    match names.unit(who) {
        Ok(unit) => {
            let unit = UnitId(unit);
            let facing = match facing {
                Some(text) => facing_from(state, names, text, to)?,
                None => state.unit(unit).base.facing,
            };
            Ok(Action::Move { unit, to, facing })
        }
        Err(problem) => match general_named(state, who) {
            Ok(general) if facing.is_none() => Ok(Action::MoveGeneral { general, to }),
            Ok(_) => Err("a general has no facing: `general GENERAL to X,Y`".into()),
            Err(_) => Err(problem),
        },
    }
}

/// The road move of the unit `who` names along `way` (`to X,Y`, or `via
/// X,Y X,Y ... to X,Y`, then `facing F` if given). Without `via`, the way
/// is straight to the point along the road when the rules take that, else
/// the way the route planner finds around the other units.
fn read_road(state: &GameState, names: &Names<'_>, who: &str, way: &str) -> Result<Action, String> {
    let usage =
        "expected `move UNIT road to X,Y [facing F]` or `move UNIT road via X,Y ... to X,Y`";
    let unit = UnitId(names.unit(who)?);
    let (way, facing) = facing_part(way);
    let (via, to) = match way.split_once(char::is_whitespace) {
        Some((first, after)) if first.eq_ignore_ascii_case("to") => (Vec::new(), after),
        Some((first, after)) if first.eq_ignore_ascii_case("via") => {
            let (via, to) = split_word(after, "to").ok_or(usage)?;
            let points = via
                .split_whitespace()
                .map(|word| {
                    point_at(word).map_err(|_| {
                        format!(
                            "expected the points of the way as X,Y X,Y (each without spaces), not `{word}`"
                        )
                    })
                })
                .collect::<Result<Vec<Point>, String>>()?;
            if points.is_empty() {
                return Err(usage.into());
            }
            (points, to)
        }
        _ => return Err(usage.into()),
    };
    let to = point_at(to)?;
    let u = state.unit(unit);
    let facing = match facing {
        Some(text) => facing_from(state, names, text, to)?,
        None => u.base.facing,
    };
    let road = |path: Vec<Point>| Action::MoveRoad { unit, path, facing };
    if !via.is_empty() {
        let mut path = via;
        path.push(to);
        return Ok(road(path));
    }
    let straight = road(vec![to]);
    if state.check(&straight).is_ok() {
        return Ok(straight);
    }
    if !state.battlefield.on_table(to) {
        return Err(format!("{} is off the table", xy(to)));
    }
    let blocked = state.battlefield.occupied(
        state
            .units
            .iter()
            .enumerate()
            .filter(|(index, other)| *index != unit.0 && other.is_active())
            .map(|(_, other)| &other.base),
    );
    let route = state
        .battlefield
        .route(u.troop, u.base.centre, to, &blocked)
        .ok_or_else(|| format!("no way for {} to reach {}", u.name, xy(to)))?;
    let path: Vec<Point> = route
        .legs
        .iter()
        .flat_map(|leg| leg.points.iter().skip(1).copied())
        .collect();
    Ok(road(path))
}

/// `pivot UNIT 90`, `pivot UNIT ne`, `pivot UNIT to 90`, `pivot UNIT
/// towards UNIT` (or `at`, or `to UNIT`).
fn read_pivot(state: &GameState, names: &Names<'_>, rest: &str) -> Result<Action, String> {
    if rest.is_empty() {
        return Err(format!(
            "expected `pivot UNIT F`, F {}",
            FACING.trim_start_matches("a facing: ")
        ));
    }
    let padded = format!("{rest} ");
    for word in ["towards", "toward", "at", "to"] {
        let Some((who, facing)) = split_word(&padded, word) else {
            continue;
        };
        let unit = UnitId(names.unit(who)?);
        let from = state.unit(unit).base.centre;
        let facing = facing_from(state, names, &format!("{word} {facing}"), from)?;
        return Ok(Action::Pivot { unit, facing });
    }
    // The last word the bearing, the words before it the unit.
    let bearing = rest
        .rsplit_once(char::is_whitespace)
        .and_then(|(who, last)| Some((who, typed_bearing(last)?)));
    if let Some((who, facing)) = bearing
        && let Ok(unit) = names.unit(who)
    {
        return Ok(Action::Pivot {
            unit: UnitId(unit),
            facing,
        });
    }
    if let Ok(unit) = names.unit(rest) {
        return Err(format!(
            "expected {FACING} after the unit: `pivot {} 90`",
            names.label(unit)
        ));
    }
    match rest.rsplit_once(char::is_whitespace) {
        Some((who, last)) => {
            names.unit(who)?;
            Err(format!("expected {FACING}, not `{last}`"))
        }
        None => Err(names.unit(rest).err().unwrap_or_default()),
    }
}

/// `rally [GENERAL] UNIT [UNIT...]`: the general by name (or the side's
/// only one), then the units, most urgent first.
fn read_rally(state: &GameState, names: &Names<'_>, rest: &str) -> Result<Action, String> {
    let spaced = rest.replace(',', " ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let no_units = "`rally GENERAL UNIT...`: name the units to rally, most urgent first";
    if words.is_empty() {
        return Err(no_units.into());
    }
    if words.len() > MOST_WORDS {
        return Err(format!(
            "`rally` takes a general and units, not {} words",
            words.len()
        ));
    }
    let mut problem = None;
    for take in (1..=words.len().min(4)).rev() {
        let Ok(general) = general_named(state, &words[..take].join(" ")) else {
            continue;
        };
        if take == words.len() {
            return Err(no_units.into());
        }
        match units_in(names, &words[take..]) {
            Ok(units) => return Ok(rally(general, units)),
            Err(found) => {
                problem.get_or_insert(found);
            }
        }
    }
    let own: Vec<GeneralId> = (0..state.generals.len())
        .map(GeneralId)
        .filter(|general| state.general(*general).side == state.active)
        .collect();
    match (own.as_slice(), units_in(names, &words)) {
        ([general], Ok(units)) => Ok(rally(*general, units)),
        (_, Ok(_)) => Err(format!(
            "`rally GENERAL UNIT...`: name the general ({})",
            general_list(state)
        )),
        (_, Err(found)) => Err(problem.unwrap_or(found)),
    }
}

fn rally(general: GeneralId, units: Vec<usize>) -> Action {
    Action::Rally {
        general,
        units: units.into_iter().map(UnitId).collect(),
    }
}

/// `enter UNIT at X,Y [facing F]`: a reserve comes onto the table.
fn read_enter(state: &GameState, names: &Names<'_>, rest: &str) -> Result<Action, String> {
    let (head, facing) = facing_part(rest);
    let head = format!(" {head} ");
    let (who, to) = split_word(&head, "at").ok_or("expected `enter UNIT at X,Y [facing F]`")?;
    let unit = UnitId(names.unit(who)?);
    let to = point_at(to)?;
    let facing = match facing {
        Some(text) => facing_from(state, names, text, to)?,
        None => state.unit(unit).base.facing,
    };
    Ok(Action::Enter { unit, to, facing })
}

/// The units a run of words names, in order: each the longest run of
/// words that names one, where the rest can still be read.
fn units_in(names: &Names<'_>, words: &[&str]) -> Result<Vec<usize>, String> {
    // What each tail of the words reads as, from the end: the longest
    // first unit whose rest reads.
    const LONGEST: usize = 6;
    let mut read: Vec<Option<Vec<usize>>> = vec![None; words.len() + 1];
    read[words.len()] = Some(Vec::new());
    for start in (0..words.len()).rev() {
        for take in (1..=LONGEST.min(words.len() - start)).rev() {
            let Some(after) = &read[start + take] else {
                continue;
            };
            if let Ok(unit) = names.unit(&words[start..start + take].join(" ")) {
                let mut units = vec![unit];
                units.extend(after);
                read[start] = Some(units);
                break;
            }
        }
    }
    if let Some(units) = read[0].take() {
        return Ok(units);
    }
    // Where the words stop naming units: the first word no run from it
    // names.
    let mut at = 0;
    while at < words.len() {
        let took = (1..=LONGEST.min(words.len() - at))
            .rev()
            .find(|take| names.unit(&words[at..at + take].join(" ")).is_ok());
        match took {
            Some(take) => at += take,
            None => break,
        }
    }
    let word = words.get(at).or(words.last()).copied().unwrap_or_default();
    Err(names.unit(word).err().unwrap_or_else(|| {
        format!("`{word}` names a unit, but the words around it do not: name each unit once")
    }))
}

/// Why `fire UNIT TARGET` could not be read: the unit without a target,
/// or the first words that name no unit.
/// The volley a shot names after its target (`double`, `double volley`,
/// `hasty`, `single`, any case) and the words before it; `None` when the
/// words name none.
fn volley_named(rest: &str) -> Option<(&str, Volley)> {
    const WORDS: [(&str, Volley); 6] = [
        (" double volley", Volley::Double),
        (" double", Volley::Double),
        (" hasty volley", Volley::Hasty),
        (" hasty", Volley::Hasty),
        (" single volley", Volley::Single),
        (" single", Volley::Single),
    ];
    let rest = rest.trim_end();
    WORDS.iter().find_map(|(words, volley)| {
        let cut = rest.len().checked_sub(words.len())?;
        (rest.is_char_boundary(cut) && rest[cut..].eq_ignore_ascii_case(words))
            .then(|| (rest[..cut].trim_end(), *volley))
    })
}

fn target_problem(names: &Names<'_>, verb: &str, rest: &str) -> Option<String> {
    if rest.is_empty() {
        return Some(format!(
            "`{verb} UNIT TARGET`: name the unit and its target"
        ));
    }
    if split_word(rest, "at").is_some() {
        return None;
    }
    if names.unit(rest).is_ok() {
        return Some(format!("`{verb} UNIT TARGET`: name the target too"));
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    let unit_words = (1..words.len())
        .rev()
        .find(|take| names.unit(&words[..*take].join(" ")).is_ok());
    match unit_words {
        Some(take) => names.unit(&words[take..].join(" ")).err(),
        None => names.unit(words.first()?).err(),
    }
}

/// A line's `... facing F` (or `face F`) cut off: the words before it,
/// and the facing's words if given.
fn facing_part(text: &str) -> (&str, Option<&str>) {
    for word in ["facing", "face"] {
        if let Some((head, facing)) = split_word(text, word) {
            return (head, Some(facing));
        }
        // `facing` last, with nothing after it.
        let lower = text.to_ascii_lowercase();
        if lower.ends_with(&format!(" {word}")) {
            return (&text[..text.len() - word.len() - 1], Some(""));
        }
    }
    (text, None)
}

/// A facing typed at `from`: degrees or a compass point, `to 90`, or
/// towards a unit (`towards UNIT`, `at UNIT`, `to UNIT`).
fn facing_from(
    state: &GameState,
    names: &Names<'_>,
    text: &str,
    from: Point,
) -> Result<f64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("expected {FACING}"));
    }
    let (first, after) = match text.split_once(char::is_whitespace) {
        Some((first, after)) => (first.to_lowercase(), after.trim()),
        None => (text.to_lowercase(), ""),
    };
    let towards = matches!(first.as_str(), "towards" | "toward" | "at" | "to");
    if !towards {
        return typed_bearing(text).ok_or_else(|| format!("expected {FACING}, not `{text}`"));
    }
    if first == "to"
        && let Some(bearing) = typed_bearing(after)
    {
        return Ok(bearing);
    }
    if after.is_empty() {
        return Err(format!("expected {FACING}, not `{text}`"));
    }
    let target = names.unit(after).map_err(|problem| {
        if first == "to" {
            format!("expected {FACING}, not `{text}` ({problem})")
        } else {
            problem
        }
    })?;
    let line = state.unit(UnitId(target)).base.centre - from;
    if line.length() < 1e-9 {
        return Err(format!(
            "{} stands there: no way to face it",
            unit_named(state, UnitId(target))
        ));
    }
    Ok(line.bearing())
}

/// A point as players type it: `X,Y`, `X, Y` or `X Y`, in inches.
fn point_at(text: &str) -> Result<Point, String> {
    let bad = || {
        format!(
            "expected a point X,Y in inches (e.g. 24,12), not `{}`",
            text.trim()
        )
    };
    let parts: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .collect();
    let number = |part: &str| {
        part.trim_end_matches('"')
            .parse::<f64>()
            .ok()
            .filter(|value| value.is_finite())
    };
    match parts.as_slice() {
        [x, y] => match (number(x), number(y)) {
            (Some(x), Some(y)) => Ok(Point::new(x, y)),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// Each general's map label (`BG1`): his side's initial, `G`, and his
/// number in the side.
fn general_labels(state: &GameState) -> Vec<String> {
    let mut counts = vec![0usize; state.sides.len()];
    state
        .generals
        .iter()
        .map(|general| match counts.get_mut(general.side) {
            Some(count) => {
                *count += 1;
                general_label(&state.sides[general.side].name, *count - 1)
            }
            None => "?".to_string(),
        })
        .collect()
}

/// The generals as `BG1 (Cornwallis), AG1 (Greene)`.
fn general_list(state: &GameState) -> String {
    general_labels(state)
        .iter()
        .zip(&state.generals)
        .map(|(label, general)| format!("{label} ({})", general.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The general `text` names: his label (`BG1`), his name, the start of
/// it, or a part of it no other general's has (ignoring case and
/// punctuation).
fn general_named(state: &GameState, text: &str) -> Result<GeneralId, String> {
    let typed = normalise(text);
    if typed.is_empty() {
        return Err(format!("name a general: {}", general_list(state)));
    }
    let labels = general_labels(state);
    let named: Vec<(String, String)> = labels
        .iter()
        .zip(&state.generals)
        .map(|(label, general)| (normalise(label), normalise(&general.name)))
        .collect();
    for tier in 0..3 {
        let found: Vec<usize> = named
            .iter()
            .enumerate()
            .filter(|(_, (label, name))| match tier {
                0 => *label == typed || *name == typed,
                1 => name.starts_with(&typed),
                _ => name.contains(&typed),
            })
            .map(|(index, _)| index)
            .collect();
        match found.as_slice() {
            [] => {}
            [one] => return Ok(GeneralId(*one)),
            many => {
                let listed: Vec<String> = many
                    .iter()
                    .map(|index| format!("{} ({})", labels[*index], state.generals[*index].name))
                    .collect();
                return Err(format!("`{}` could be {}", text.trim(), listed.join(", ")));
            }
        }
    }
    Err(format!(
        "no general `{}`; generals: {}",
        text.trim(),
        general_list(state)
    ))
}

/// A unit's name, or `#N` for an index the game does not have.
fn unit_named(state: &GameState, unit: UnitId) -> String {
    state
        .units
        .get(unit.0)
        .map_or(format!("#{}", unit.0), |u| u.name.clone())
}

/// A general's name, or `#N` for an index the game does not have.
fn general_name(state: &GameState, general: GeneralId) -> String {
    state
        .generals
        .get(general.0)
        .map_or(format!("#{}", general.0), |g| g.name.clone())
}

/// A number to 0.001, without trailing zeros.
fn thousandth(value: f64) -> String {
    let rounded = (value * 1000.0).round() / 1000.0;
    let text = format!("{rounded:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// Whether `action` must be said to 0.001: the rules take it as it is,
/// but not with its points and bearings to 0.01 as [`trim`] writes them.
fn finer(state: &GameState, action: &Action) -> bool {
    let hundredth = |value: f64| trim(value).parse::<f64>().unwrap_or(value);
    let point = |at: &Point| Point::new(hundredth(at.x), hundredth(at.y));
    let typed = match action {
        Action::Pivot { unit, facing } => Action::Pivot {
            unit: *unit,
            facing: hundredth(*facing),
        },
        Action::Move { unit, to, facing } => Action::Move {
            unit: *unit,
            to: point(to),
            facing: hundredth(*facing),
        },
        Action::MoveRoad { unit, path, facing } => Action::MoveRoad {
            unit: *unit,
            path: path.iter().map(point).collect(),
            facing: hundredth(*facing),
        },
        Action::MoveGeneral { general, to } => Action::MoveGeneral {
            general: *general,
            to: point(to),
        },
        Action::Enter { unit, to, facing } => Action::Enter {
            unit: *unit,
            to: point(to),
            facing: hundredth(*facing),
        },
        _ => return false,
    };
    typed != *action && state.check(&typed).is_err() && state.check(action).is_ok()
}

/// A unit as `1st Maryland (A10)`.
fn labelled(state: &GameState, names: &Names<'_>, unit: UnitId) -> String {
    format!("{} ({})", unit_named(state, unit), names.label(unit.0))
}

/// One condition and how near it is, in one line.
fn progress_line(state: &GameState, names: &Names<'_>, item: &Progress) -> String {
    crate::rules::progress::line(state, &|unit| labelled(state, names, unit), item)
}

#[cfg(test)]
mod tests;
