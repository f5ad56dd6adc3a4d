//! Seed 000's texts at the one `foe play` prompt, read off the runner
//! through a [`View`]: the record turn by turn (foe's bound a paragraph a
//! unit), `what` and `why` from the Lone Warrior opponent, `status` of the
//! armies and of one unit, the refusals that help, and the end-of-game
//! summary. Pure: strings out.

use crate::battlefield::geometry::trim;
use crate::host::awi::{AwiCommanders, Entry};
use crate::host::run::HostMatch;
use crate::rules::log::event_line;
use crate::rules::{Condition, Event, GameState, Outcome, UnitId};
use crate::scenario::Scenario;
use std::fmt::Write;

/// The map labels of a seed-000 game's units (`B3`) and generals, as
/// maps, `status` and the prompt show them.
pub struct Names {
    labels: Vec<String>,
    general_labels: Vec<String>,
}

impl Names {
    /// The labels in `state`, a game of `scenario`.
    pub fn new(scenario: &Scenario, state: &GameState) -> Names {
        let labels =
            crate::scenario::label::unit_labels(scenario, state.units.iter().map(|unit| unit.side));
        let mut counts = vec![0usize; state.sides.len()];
        let general_labels = state
            .generals
            .iter()
            .map(|general| {
                let index = counts[general.side];
                counts[general.side] += 1;
                crate::scenario::label::general_label(&state.sides[general.side].name, index)
            })
            .collect();
        Names {
            labels,
            general_labels,
        }
    }

    /// A unit's map label.
    pub fn label(&self, unit: UnitId) -> &str {
        self.labels.get(unit.0).map_or("?", String::as_str)
    }

    /// A general's map label.
    pub fn general_label(&self, general: crate::rules::GeneralId) -> &str {
        self.general_labels
            .get(general.0)
            .map_or("?", String::as_str)
    }
}

/// A seed-000 game in the one runner, as these texts read it: its state,
/// its record, its scenario and the Lone Warrior opponents of its sides.
#[derive(Clone, Copy)]
pub struct View<'a> {
    runner: &'a HostMatch,
    commanders: &'a AwiCommanders,
    state: &'a GameState,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// Each general's rallies at the start.
    pub starting_rallies: &'a [u32],
}

impl<'a> View<'a> {
    /// The seed-000 game `runner` plays (`None` under other rules).
    pub fn of(runner: &'a HostMatch) -> Option<View<'a>> {
        let commanders = AwiCommanders::of(runner)?;
        Some(View {
            state: runner.state::<GameState>()?,
            runner,
            commanders,
            scenario: &runner.scenario,
            starting_rallies: commanders.starting_rallies(),
        })
    }

    /// The runner that plays the game.
    pub fn runner(&self) -> &'a HostMatch {
        self.runner
    }

    /// The game now.
    pub fn state(&self) -> &'a GameState {
        self.state
    }

    /// Everything that happened, in order.
    pub fn log(&self) -> &'a [Entry] {
        self.commanders.log()
    }

    /// The Lone Warrior opponent commanding a side, if any.
    pub fn opponent(&self, side: usize) -> Option<&'a crate::host::opponent::awi::Opponent> {
        self.commanders
            .controller(side)
            .and_then(crate::host::awi::Controller::opponent)
    }
}

/// The record's entries from `from` on, as `foe play` prints them.
pub fn told(game: &View<'_>, from: usize, detail: Detail) -> String {
    let log = game.log();
    log.get(from..)
        .unwrap_or_default()
        .iter()
        .map(|e| entry(game, e, detail))
        .collect()
}

/// `what UNIT`: the unit's situation and the odds of each order its
/// reaction test could give now.
pub fn what(game: &View<'_>, unit: usize) -> String {
    let state = game.state();
    let Some(u) = state.units.get(unit) else {
        return format!("no unit #{unit}");
    };
    match game.opponent(u.side) {
        Some(opponent) => match opponent.preview(state, UnitId(unit)) {
            Some(preview) => crate::render::opponent::preview(state, &preview),
            None => format!("{} is off the table: it takes no reaction test.", u.name),
        },
        None if game.runner.baseline_sides().contains(&u.side) => {
            format!("{} is the baseline's: it takes no reaction test.", u.name)
        }
        None => format!("{} is yours: foe does not decide for it.", u.name),
    }
}

/// `why UNIT`: the reaction test behind the unit's last order.
pub fn why(game: &View<'_>, unit: usize) -> String {
    let state = game.state();
    let Some(u) = state.units.get(unit) else {
        return format!("no unit #{unit}");
    };
    match game.opponent(u.side) {
        Some(opponent) => match opponent.last_decision(UnitId(unit)) {
            Some(decision) => crate::render::opponent::why(state, decision),
            None => format!("{} has taken no reaction test yet.", u.name),
        },
        None if game.runner.baseline_sides().contains(&u.side) => format!(
            "{} is the baseline's: its reasons are in the log (`log`), one line a unit.",
            u.name
        ),
        None => format!("{} is yours: foe decided nothing for it.", u.name),
    }
}

/// Why foe's general `name` did what he did (`why GENERAL`): his last
/// bound's decision, with the reaction test a trigger made him take.
pub fn why_general(game: &View<'_>, name: &str) -> String {
    let last = game.log().iter().rev().find_map(|entry| match entry {
        Entry::Opponent { report, .. } => report.generals.iter().find(|g| g.name == name),
        _ => None,
    });
    match last {
        Some(decision) => crate::render::opponent::general(decision),
        None => format!(
            "foe has decided nothing for `{name}`: he is yours, or his side has not moved yet."
        ),
    }
}

/// Why the rules refused the player's `action`, in words that say what
/// would do (how far the unit may go, what blocks it).
pub fn refused(
    game: &View<'_>,
    action: &crate::host::Action,
    refusal: &crate::host::Refusal,
) -> Option<String> {
    use crate::host::position::Position;
    let action = GameState::own(action)?;
    let refusal = GameState::own_refusal(refusal)?;
    let names = crate::host::repl::Names::new(&game.runner.game, game.scenario);
    Some(crate::render::explain::refusal(
        &names,
        game.state(),
        action,
        refusal,
    ))
}

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
pub fn entry(game: &View<'_>, entry: &Entry, detail: Detail) -> String {
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
fn push_retreat_reason(out: &mut String, game: &View<'_>, entry: &Entry, at: usize) {
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
            "  (why: {name} and {other_name} have {} each, and on equal totals the charger retreats, a ruling: see docs/rulings.md, Melee)",
            crate::names::hits(ours)
        )
    } else {
        writeln!(
            out,
            "  (why: {name} has {} in all to {theirs} of {other_name}, and the unit with the most total hits retreats a full move, seed 000 Melee Retreat)",
            crate::names::hits(ours)
        )
    };
}

/// A unit's hits just after event `at` of `entry`: its hits now, less the
/// hits taken since, plus the hits rallied off since (the log is the whole
/// game). `None` if the entry is not in the game's log.
fn hits_then(game: &View<'_>, entry: &Entry, at: usize, unit: UnitId) -> Option<u32> {
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

/// The army of a side, one unit a line.
pub fn status(game: &View<'_>, side: usize) -> String {
    let state = game.state();
    let names = Names::new(game.scenario, state);
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
pub fn unit_state(game: &View<'_>, unit: UnitId) -> Option<crate::host::opponent::awi::UnitState> {
    let state = game.state();
    game.opponent(state.units.get(unit.0)?.side)?
        .unit_state(state, unit)
}

/// One unit in detail.
pub fn unit_detail(game: &View<'_>, unit: usize) -> String {
    let unit = UnitId(unit);
    let state = game.state();
    let u = state.unit(unit);
    let names = Names::new(game.scenario, state);
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
        let ground = crate::host::opponent::awi::unit_ground(state, unit);
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

/// A victory condition in words.
pub fn condition(state: &GameState, condition: &Condition) -> String {
    crate::rules::progress::condition_words(state, condition)
}

/// The verdict and the summary table.
pub fn summary(game: &View<'_>) -> String {
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
