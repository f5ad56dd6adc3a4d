//! Text for `foe play`: the state of the armies, the legal choices, the
//! victory verdict and the end-of-game summary. Pure: strings out.

use crate::battlefield::geometry::trim;
use crate::play::command::Names;
use crate::play::{Entry, Match};
use crate::rules::log::event_line;
use crate::rules::{Action, Condition, Event, GameState, Outcome, UnitId};
use std::fmt::Write;

/// How much of the opponent's reasoning to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// Results only: what moved, fired and fell.
    Quiet,
    /// A short paragraph per unit.
    #[default]
    Normal,
    /// Every factor of every test too.
    Verbose,
}

/// The lines of a log entry.
pub fn entry(game: &Match, entry: &Entry, detail: Detail) -> String {
    let state = game.state();
    let mut out = String::new();
    match entry {
        Entry::Setup(events) | Entry::Player { events, .. } => {
            for (at, event) in events.iter().enumerate() {
                push_event(&mut out, state, event, detail);
                push_retreat_reason(&mut out, game, entry, at);
            }
        }
        Entry::Opponent { side, report } => {
            let _ = writeln!(out, "== {} (foe) ==", state.sides[*side].name);
            if detail == Detail::Quiet {
                for (index, event) in report.events.iter().enumerate() {
                    push_event(&mut out, state, event, detail);
                    push_retreat_reason(&mut out, game, entry, index);
                }
            } else {
                // A paragraph per decision, then whatever the paragraphs do
                // not tell (melees, routs, the end of the turn).
                out.push_str(&crate::render::opponent::turn(state, report));
                if detail == Detail::Verbose {
                    for decision in report.reserves.iter().chain(&report.decisions) {
                        out.push_str(&crate::render::opponent::why(state, decision));
                    }
                }
                let mut told: Vec<&Event> = report
                    .reserves
                    .iter()
                    .chain(&report.decisions)
                    .flat_map(|decision| &decision.events)
                    .chain(report.rallies.iter().flat_map(|rally| &rally.events))
                    .collect();
                for (index, event) in report.events.iter().enumerate() {
                    if let Some(at) = told.iter().position(|seen| *seen == event) {
                        told.swap_remove(at);
                        continue;
                    }
                    push_event(&mut out, state, event, detail);
                    push_retreat_reason(&mut out, game, entry, index);
                }
            }
        }
        Entry::Baseline { report, .. } => {
            out.push_str(&crate::render::baseline::turn(state, report, detail));
        }
    }
    out
}

fn push_event(out: &mut String, state: &GameState, event: &Event, detail: Detail) {
    // The prompt names the phase; the phase-end lines are for the verbose.
    let routine = matches!(event, Event::PhaseEnded { .. });
    if routine && detail != Detail::Verbose {
        return;
    }
    let _ = writeln!(out, "{}", event_line(state, event));
}

/// After a melee retreat, why that unit retreats: seed 000 Melee Retreat,
/// "the unit with the most total hits retreats", with both units' hits in
/// all, or the rule set's ruling on equal totals.
fn push_retreat_reason(out: &mut String, game: &Match, entry: &Entry, at: usize) {
    let events = entry.events();
    let Some(Event::Retreated { unit, .. }) = events.get(at) else {
        return;
    };
    let Some(other) = events[..at].iter().rev().find_map(|event| match event {
        Event::Melee { charger, defender } if charger.unit == *unit => Some(defender.unit),
        Event::Melee { charger, defender } if defender.unit == *unit => Some(charger.unit),
        _ => None,
    }) else {
        return;
    };
    let (Some(ours), Some(theirs)) = (
        hits_then(game, entry, at, *unit),
        hits_then(game, entry, at, other),
    ) else {
        return;
    };
    let state = game.state();
    let (name, other_name) = (&state.unit(*unit).name, &state.unit(other).name);
    let _ = if ours == theirs {
        writeln!(
            out,
            "  (why: {name} and {other_name} have {ours} hits each, and on equal totals the charger retreats, a ruling: see docs/rulings.md, Melee)"
        )
    } else {
        writeln!(
            out,
            "  (why: {name} has {ours} hits in all to {theirs} of {other_name}, and the unit with the most total hits retreats a full move, seed 000 Melee Retreat)"
        )
    };
}

/// A unit's hits just after event `at` of `entry`: its hits now, less the
/// hits taken since, plus the hits rallied off since (the log is the whole
/// game). `None` if the entry is not in the game's log.
fn hits_then(game: &Match, entry: &Entry, at: usize, unit: UnitId) -> Option<u32> {
    let index = game.log().iter().position(|e| std::ptr::eq(e, entry))?;
    let later = entry.events()[at + 1..]
        .iter()
        .chain(game.log()[index + 1..].iter().flat_map(Entry::events));
    let mut hits = i64::from(game.state().unit(unit).hits);
    for event in later {
        match event {
            Event::HitsTaken {
                unit: u, hits: n, ..
            } if *u == unit => hits -= i64::from(*n),
            Event::Rallied { removed, .. } => {
                for (u, n) in removed {
                    if *u == unit {
                        hits += i64::from(*n);
                    }
                }
            }
            _ => {}
        }
    }
    u32::try_from(hits).ok()
}

/// The prompt: turn, side, phase.
pub fn prompt(state: &GameState) -> String {
    if state.is_over() {
        return "game over> ".into();
    }
    format!(
        "turn {}/{} {} {}> ",
        state.turn,
        state.turns,
        state.sides[state.active].name,
        state.phase()
    )
}

/// The army of a side, one unit a line.
pub fn status(game: &Match, side: usize) -> String {
    let state = game.state();
    let names = Names::new(&game.scenario, state);
    let mut out = format!("{}:\n", state.sides[side].name);
    let _ = writeln!(
        out,
        "  {:<5} {:<22} {:<22} {:>5}  {:<12} {:<7} flags",
        "unit", "name", "type", "hits", "at", "facing"
    );
    for (index, unit) in state.units.iter().enumerate() {
        if unit.side != side {
            continue;
        }
        let troop = &state.battlefield.ruleset.troop(unit.troop).name;
        let rout_at = state
            .rules
            .rout_threshold(unit.category)
            .map_or("-".to_string(), |n| n.to_string());
        let mut flags: Vec<String> = Vec::new();
        match unit.status {
            crate::rules::Status::Active => {}
            crate::rules::Status::Routed => flags.push("routed".into()),
            crate::rules::Status::Exited => flags.push("driven off".into()),
            crate::rules::Status::Reserve => flags.push("in reserve".into()),
        }
        // foe's units: the state its opponent keeps, in the same words as
        // `status UNIT`, `what` and the maps.
        flags.extend(unit_state(game, UnitId(index)).map_or(Vec::new(), |s| s.words()));
        if unit.is_active() {
            if unit.moved {
                flags.push("moved".into());
            }
            if unit.fired {
                flags.push("fired".into());
            }
            if unit.charging.is_some() {
                flags.push("charging".into());
            }
        }
        let _ = writeln!(
            out,
            "  {:<5} {:<22} {:<22} {:>5}  {:<12} {:<7} {}",
            names.label(UnitId(index)),
            unit.name,
            troop,
            format!("{}/{rout_at}", unit.hits),
            if unit.is_active() {
                unit.base.centre.to_string()
            } else {
                "-".into()
            },
            if unit.is_active() {
                format!("{}°", trim(unit.base.facing))
            } else {
                "-".into()
            },
            flags.join(", ")
        );
    }
    for (index, general) in state.generals.iter().enumerate() {
        if general.side == side {
            let _ = writeln!(
                out,
                "  {:<5} {}, general ({}) at {}, {} rall{} left{}",
                names.general_label(crate::rules::GeneralId(index)),
                general.name,
                general.character,
                general.base.centre,
                general.rallies_left,
                if general.rallies_left == 1 {
                    "y"
                } else {
                    "ies"
                },
                if general.rallied {
                    ", has rallied this turn"
                } else {
                    ""
                }
            );
        }
    }
    out.push_str(&crate::render::progress::side(state, &names, side));
    out
}

/// The state foe's opponent keeps of one of its units (formation,
/// disorder, fell back, guns abandoned); `None` for the player's or the
/// baseline's units and units off the table.
pub fn unit_state(game: &Match, unit: UnitId) -> Option<crate::opponent::UnitState> {
    let state = game.state();
    game.opponent(state.units.get(unit.0)?.side)?
        .unit_state(state, unit)
}

/// One unit in detail.
pub fn unit_detail(game: &Match, unit: UnitId) -> String {
    let state = game.state();
    let u = state.unit(unit);
    let names = Names::new(&game.scenario, state);
    let troop = &state.battlefield.ruleset.troop(u.troop).name;
    let mut out = format!(
        "{} {} ({}, {})\n",
        names.label(unit),
        u.name,
        troop,
        state.sides[u.side].name
    );
    let _ = writeln!(
        out,
        "  hits {} (routs at {})",
        u.hits,
        state
            .rules
            .rout_threshold(u.category)
            .map_or("-".into(), |n| n.to_string())
    );
    if let Some(words) = unit_state(game, unit) {
        let _ = writeln!(out, "  state: {words}");
    }
    if u.is_active() {
        let _ = writeln!(
            out,
            "  at {} facing {}°",
            u.base.centre,
            trim(u.base.facing)
        );
        let ground = crate::opponent::unit_ground(state, unit);
        let _ = writeln!(out, "  {}", crate::render::opponent::ground_line(ground));
        let mut near: Vec<(f64, UnitId)> = state
            .active_units(GameState::enemy_of(u.side))
            .map(|enemy| (u.base.distance_to(&state.unit(enemy).base), enemy))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.0.cmp(&b.1.0)));
        for (distance, enemy) in near.iter().take(3) {
            let e = state.unit(*enemy);
            let _ = writeln!(
                out,
                "  enemy {} {} at {}\"{}{}",
                names.label(*enemy),
                e.name,
                trim((distance * 10.0).round() / 10.0),
                if u.base.in_frontal_arc(&e.base) {
                    ", in its frontal arc"
                } else {
                    ""
                },
                if state.battlefield.can_see(&u.base, &e.base) {
                    ""
                } else {
                    ", out of sight"
                }
            );
        }
    } else {
        let _ = writeln!(out, "  off the table");
    }
    out
}

/// An action in the player's words.
pub fn action(game: &Match, action: &Action) -> String {
    let state = game.state();
    let names = Names::new(&game.scenario, state);
    let unit = |id: &UnitId| format!("{} ({})", names.label(*id), state.unit(*id).name);
    match action {
        Action::Pivot { unit: u, facing } => format!("pivot {} {}", unit(u), trim(*facing)),
        Action::Move {
            unit: u,
            to,
            facing,
        } => format!("move {} to {to} facing {}", unit(u), trim(*facing)),
        Action::MoveRoad { unit: u, path, .. } => {
            format!(
                "move {} road to {}",
                unit(u),
                path.last().map_or("?".into(), |p| p.to_string())
            )
        }
        Action::Charge { unit: u, target } => format!("charge {} {}", unit(u), unit(target)),
        Action::Fire {
            unit: u, target, ..
        } => format!("fire {} {}", unit(u), unit(target)),
        Action::MoveGeneral { general, to } => {
            format!("general {} to {to}", names.general_label(*general))
        }
        Action::Rally { general, units } => format!(
            "rally {} {}",
            names.general_label(*general),
            units
                .iter()
                .map(|u| names.label(*u).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Action::CallUp { name, troop } => format!("call up {name} ({troop})"),
        Action::Enter {
            unit: u,
            to,
            facing,
        } => {
            format!("enter {} at {to} facing {}", unit(u), trim(*facing))
        }
        Action::Rout { unit: u } => format!("rout {}", unit(u)),
        Action::EndPhase => "end".into(),
    }
}

/// What is legal now: a summary of all, or for one command word, one unit
/// (grouped: advance, retire, wheel, fire, charge) or both. Every line is
/// a command that can be pasted back at the prompt, its points rounded to
/// 0.1" where that is still lawful.
pub fn legal(game: &Match, verb: Option<&str>, unit: Option<UnitId>) -> String {
    let state = game.state();
    if state.is_over() {
        return "The game is over.\n".into();
    }
    let actions = state.legal_actions();
    let matches_verb = |action: &Action| match verb {
        None => true,
        Some("move") => matches!(action, Action::Move { .. } | Action::MoveRoad { .. }),
        Some("pivot") => matches!(action, Action::Pivot { .. }),
        Some("charge") => matches!(action, Action::Charge { .. }),
        Some("fire") => matches!(action, Action::Fire { .. }),
        Some("rally") => matches!(action, Action::Rally { .. }),
        Some("general") => matches!(action, Action::MoveGeneral { .. }),
        Some("end") => matches!(action, Action::EndPhase),
        Some(_) => false,
    };
    let matches_unit = |action: &Action| match unit {
        None => true,
        Some(wanted) => actor(action) == Some(wanted),
    };
    let mut chosen: Vec<Action> = actions
        .iter()
        .filter(|action| matches_verb(action) && matches_unit(action))
        .filter_map(|action| rounded(state, action))
        .collect();
    // For one unit, the farthest lawful moves straight ahead and back too.
    if let Some(unit) = unit
        && matches_verb(&Action::Move {
            unit,
            to: state.unit(unit).base.centre,
            facing: 0.0,
        })
    {
        let base = state.unit(unit).base;
        for sign in [1.0, -1.0] {
            if let Ok(action) =
                crate::play::command::farthest(state, unit, base.forward() * sign, base.facing)
                && let Some(action) = rounded(state, &action)
                && !chosen.contains(&action)
            {
                chosen.push(action);
            }
        }
    }
    // Only moves that leave the unit somewhere useful: not into ground
    // from which its troop type has no way to the enemy (a horse unit
    // among woods, say), unless it has none where it stands either.
    chosen.retain(|action| useful(state, action));
    let names = Names::new(&game.scenario, state);
    let mut out = format!(
        "{} phase of {}, turn {}",
        state.phase(),
        state.sides[state.active].name,
        state.turn
    );
    match unit {
        Some(unit) => {
            let _ = writeln!(out, ": {} {}", names.label(unit), state.unit(unit).name);
        }
        None => out.push_str(".\n"),
    }
    if chosen.is_empty() {
        let _ = writeln!(out, "Nothing of that kind is legal now.");
        return out;
    }
    if verb.is_none() && unit.is_none() {
        let mut kinds: Vec<&str> = Vec::new();
        for action in &chosen {
            let word = action_word(action);
            if !kinds.contains(&word) {
                kinds.push(word);
            }
        }
        let _ = writeln!(
            out,
            "Legal now: {}. `COMMAND ?` or `COMMAND UNIT ?` lists them.",
            kinds.join(", ")
        );
        return out;
    }
    if let Some(unit) = unit {
        for group in [
            "advance", "retire", "road", "wheel", "fire", "charge", "rally",
        ] {
            let lines: Vec<&Action> = chosen
                .iter()
                .filter(|action| group_of(state, unit, action) == Some(group))
                .collect();
            if lines.is_empty() {
                continue;
            }
            let _ = writeln!(out, "  {group}:");
            for action in lines {
                let _ = writeln!(out, "    {}", self::action(game, action));
            }
        }
        if matches!(verb, None | Some("move")) && state.unit(unit).side == state.active {
            let _ = writeln!(
                out,
                "  or as far as it may: `move {0} forward max`, `move {0} back max`, `move {0} towards UNIT|X,Y max`",
                names.label(unit)
            );
        }
        return out;
    }
    const SHOWN: usize = 40;
    for action in chosen.iter().take(SHOWN) {
        let _ = writeln!(out, "  {}", self::action(game, action));
    }
    if chosen.len() > SHOWN {
        let _ = writeln!(
            out,
            "  ... and {} more (any legal point will do, not only these)",
            chosen.len() - SHOWN
        );
    }
    out
}

/// The unit an action is for.
fn actor(action: &Action) -> Option<UnitId> {
    match action {
        Action::Pivot { unit, .. }
        | Action::Move { unit, .. }
        | Action::MoveRoad { unit, .. }
        | Action::Charge { unit, .. }
        | Action::Fire { unit, .. }
        | Action::Rout { unit }
        | Action::Enter { unit, .. } => Some(*unit),
        Action::Rally { units, .. } => units.first().copied(),
        Action::MoveGeneral { .. } | Action::CallUp { .. } | Action::EndPhase => None,
    }
}

/// Which group a unit's action is listed under: a move ahead of its front
/// advances, any other retires; a pivot wheels.
fn group_of(state: &GameState, unit: UnitId, action: &Action) -> Option<&'static str> {
    let base = &state.unit(unit).base;
    match action {
        Action::Move { to, .. } => {
            let ahead = (*to - base.centre).dot(base.forward()) > 0.0;
            Some(if ahead { "advance" } else { "retire" })
        }
        Action::MoveRoad { .. } => Some("road"),
        Action::Pivot { .. } => Some("wheel"),
        Action::Fire { .. } => Some("fire"),
        Action::Charge { .. } => Some("charge"),
        Action::Rally { .. } => Some("rally"),
        _ => None,
    }
}

/// An action as a player can type it back: points and facings rounded to
/// 0.1" and 0.1°, and if that rounding makes a move unlawful (a hair too
/// far), the point pulled back along the move 0.1" at a time. `None` when
/// no such line is lawful: a suggestion that would be refused is no help.
/// Whether a suggested move leaves its unit a way over the ground to the
/// nearest enemy (other units aside), when it has one where it stands.
/// Every other action is useful.
fn useful(state: &GameState, action: &Action) -> bool {
    let (unit, to) = match action {
        Action::Move { unit, to, .. } => (*unit, *to),
        Action::MoveRoad { unit, path, .. } => match path.last() {
            Some(to) => (*unit, *to),
            None => return true,
        },
        _ => return true,
    };
    let mover = state.unit(unit);
    let nearest = state
        .active_units(GameState::enemy_of(mover.side))
        .map(|enemy| state.unit(enemy).base.centre)
        .min_by(|a, b| a.distance(to).total_cmp(&b.distance(to)));
    let Some(enemy) = nearest else {
        return true;
    };
    let field = &state.battlefield;
    let open = crate::battlefield::CellSet::none();
    let way = |from| field.cell_path(mover.troop, from, enemy, &open).is_some();
    way(to) || !way(mover.base.centre)
}

fn rounded(state: &GameState, action: &Action) -> Option<Action> {
    let tenth = crate::play::command::tenth;
    let degrees = |facing: f64| ((facing * 10.0).round() / 10.0).rem_euclid(360.0);
    let lawful = |action: Action| state.check(&action).is_ok().then_some(action);
    match action {
        Action::Move { unit, to, facing } => {
            let from = state.unit(*unit).base.centre;
            let length = from.distance(*to);
            (0..20).find_map(|back| {
                let keep = if length > 0.0 {
                    (1.0 - f64::from(back) * 0.1 / length).max(0.0)
                } else {
                    1.0
                };
                lawful(Action::Move {
                    unit: *unit,
                    to: tenth(from.lerp(*to, keep)),
                    facing: degrees(*facing),
                })
            })
        }
        Action::MoveRoad { unit, path, facing } => lawful(Action::MoveRoad {
            unit: *unit,
            path: path.iter().map(|p| tenth(*p)).collect(),
            facing: degrees(*facing),
        }),
        Action::Pivot { unit, facing } => lawful(Action::Pivot {
            unit: *unit,
            facing: degrees(*facing),
        }),
        other => Some(other.clone()),
    }
}

fn action_word(action: &Action) -> &'static str {
    match action {
        Action::Pivot { .. } => "pivot",
        Action::Move { .. } | Action::MoveRoad { .. } => "move",
        Action::Charge { .. } => "charge",
        Action::Fire { .. } => "fire",
        Action::MoveGeneral { .. } => "general",
        Action::Rally { .. } => "rally",
        Action::CallUp { .. } => "call-up",
        Action::Enter { .. } => "enter",
        Action::Rout { .. } => "rout",
        Action::EndPhase => "end",
    }
}

/// A victory condition in words.
pub fn condition(state: &GameState, condition: &Condition) -> String {
    match condition {
        Condition::RoutFraction { side, more_than } => format!(
            "rout more than {}% of the {} units",
            trim(more_than * 100.0),
            state.sides[*side].name
        ),
        Condition::RoutOrExit { side, troop, count } => format!(
            "rout or drive off the table {count} {} unit{} of the {}",
            state.battlefield.ruleset.troop(*troop).name,
            if *count == 1 { "" } else { "s" },
            state.sides[*side].name
        ),
        Condition::HoldArea { side, name, .. } => {
            format!("the {} hold {name} at the end", state.sides[*side].name)
        }
    }
}

/// The verdict and the summary table.
pub fn summary(game: &Match) -> String {
    let state = game.state();
    let mut out = String::new();
    match &state.outcome {
        Some(Outcome::Won { side, condition }) => {
            let how = state
                .victory
                .get(*condition)
                .map_or(String::new(), |v| self::condition(state, &v.when));
            let _ = writeln!(
                out,
                "Victory to the {} ({how}) in turn {}.",
                state.sides[*side].name, state.turn
            );
        }
        Some(Outcome::Draw) => {
            let _ = writeln!(
                out,
                "A draw: neither side met its victory conditions by turn {}. How near each came:",
                state.turns
            );
            out.push_str(&super::progress::how_near(state));
        }
        None => {
            let _ = writeln!(
                out,
                "The game goes on (turn {} of {}).",
                state.turn, state.turns
            );
        }
    }
    let _ = writeln!(
        out,
        "The armies at the end (units lost, hits on the units left, rallies used of the budget):"
    );
    let _ = writeln!(
        out,
        "{:<14} {:>6} {:>6} {:>10} {:>8}",
        "side", "units", "lost", "hits", "rallies"
    );
    for (side_index, side) in state.sides.iter().enumerate() {
        let units: Vec<_> = state
            .units
            .iter()
            .filter(|u| u.side == side_index)
            .collect();
        let lost = units.iter().filter(|u| !u.is_active()).count();
        let hits: u32 = units.iter().filter(|u| u.is_active()).map(|u| u.hits).sum();
        let used: u32 = state
            .generals
            .iter()
            .enumerate()
            .filter(|(_, g)| g.side == side_index)
            .map(|(i, g)| {
                game.starting_rallies
                    .get(i)
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(g.rallies_left)
            })
            .sum();
        let budget: u32 = state
            .generals
            .iter()
            .enumerate()
            .filter(|(_, g)| g.side == side_index)
            .map(|(i, _)| game.starting_rallies.get(i).copied().unwrap_or(0))
            .sum();
        let _ = writeln!(
            out,
            "{:<14} {:>6} {:>6} {:>10} {:>8}",
            side.name,
            units.len(),
            lost,
            format!("{hits} on {}", units.len() - lost),
            format!("{used}/{budget}")
        );
    }
    out
}

/// `route UNIT to X,Y` in a game: the way pathing finds around the other
/// units on the table, its cost in moves, each leg, where the unit stands
/// after each move, and this move as a line to paste back when it is
/// lawful now.
pub fn route(game: &Match, unit: UnitId, to: crate::battlefield::Point) -> String {
    let state = game.state();
    let names = Names::new(&game.scenario, state);
    let u = state.unit(unit);
    if !u.is_active() {
        return format!("{} is not on the table.\n", u.name);
    }
    // A unit routed to is not in its own way.
    let goal_unit = state
        .units
        .iter()
        .position(|other| other.is_active() && other.base.centre == to);
    let others: Vec<crate::battlefield::Base> = state
        .units
        .iter()
        .enumerate()
        .filter(|(index, other)| *index != unit.0 && Some(*index) != goal_unit && other.is_active())
        .map(|(_, other)| other.base)
        .collect();
    let label = names.label(unit);
    let ask = crate::render::route::Ask {
        field: &state.battlefield,
        troop: u.troop,
        from: u.base.centre,
        to,
        others: &others,
        name: &u.name,
        label,
    };
    crate::render::route::route(&ask, &|end, along_road| {
        let line = if along_road {
            format!("move {label} road to {end}")
        } else {
            format!("move {label} to {end}")
        };
        match crate::play::command::parse(&line, &game.scenario, state) {
            Ok(crate::play::command::Command::Act(action)) if state.check(&action).is_ok() => {
                Some(line)
            }
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameSetup, RulesTable};
    use crate::ruleset::Ruleset;
    use crate::yaml::Source;

    /// Horse on the open edge of a clearing ringed by woods, which horse
    /// cannot enter: a move into the clearing leads nowhere.
    #[test]
    fn a_suggested_move_into_a_pocket_of_no_way_out_is_not_useful() {
        let text = "\
name: pocket
title: A clearing in the woods
ruleset: ohw-awi
table: { width: 48, height: 48 }
turns: 3
first: british
terrain:
  - { kind: woods, name: west, rect: [[10, 20], [14, 36]] }
  - { kind: woods, name: east, rect: [[34, 20], [38, 36]] }
  - { kind: woods, name: north, rect: [[10, 32], [38, 36]] }
  - { kind: woods, name: south, rect: [[14, 20], [34, 24]] }
sides:
  - name: british
    edge: south
    units:
      - { name: Horse, troop_type: cavalry, position: [24, 10], facing: north }
  - name: french
    edge: north
    units:
      - { name: Foot, troop_type: militia, position: [24, 44], facing: south }
victory:
  - winner: british
    when: { rout_fraction: { side: french, more_than: 0 } }
";
        let scenario =
            crate::scenario::load(Source::new("pocket.yaml", text), Ruleset::builtin).unwrap();
        let ruleset = &scenario.battlefield.ruleset;
        let rules = std::sync::Arc::new(
            RulesTable::builtin(&ruleset.name, ruleset)
                .unwrap()
                .unwrap(),
        );
        let (state, _) = GameState::new(
            GameSetup::from_scenario(&scenario).unwrap(),
            rules,
            &crate::tables::Tables::embedded().characters,
            &mut crate::dice::Scripted::new([]),
        )
        .unwrap();
        let horse = state.find_unit("Horse").unwrap();
        let move_to = |x: f64, y: f64| Action::Move {
            unit: horse,
            to: crate::battlefield::Point::new(x, y),
            facing: 0.0,
        };
        // The clearing (24,28) has no way out for horse; the open ground
        // beside the woods does.
        assert!(!useful(&state, &move_to(24.0, 28.0)));
        assert!(useful(&state, &move_to(6.0, 16.0)));
        assert!(useful(&state, &Action::EndPhase));
    }
}
