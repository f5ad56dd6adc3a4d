//! The rule-set boundary: one [`Game`] over the three engines —
//! the seed-000 referee ([`crate::rules`]), seed 001 "A Ruinous Victory"
//! ([`crate::rv`]) and seed 002 OHW ACW with activation dice
//! ([`crate::acw`]) — with the surface an opponent, a REPL, a simulation
//! and a save need: whose turn and phase it is, what is legal, `check` and
//! `apply` with events and typed refusals, the units as an opponent reads
//! them, and the verdict.
//!
//! The engine is chosen once, from the rule set's `name`, by [`engine_for`]
//! over the table [`ENGINES`]: the only place that knows which rule set is
//! which engine (ruling HO1). Nothing outside the engines and this module
//! asks which rule set a game is played under; it asks the [`Game`].
//!
//! Every game is played by one runner, [`run::HostMatch`], with a
//! commander per side the player does not command. The seed-000 engine sits
//! behind the boundary unchanged: its sides are commanded by the rich
//! Lone Warrior opponent a whole turn at a time ([`awi`]), and its games
//! are told turn by turn through [`crate::play::Match`], the runner's
//! seed-000 view, so its golden transcripts stay byte-identical. What the
//! edges must do differently per engine they ask of [`Engine`]
//! ([`Engine::tells_turns`], [`Engine::scenario_keys`]).
//!
//! Pure: no I/O, dice only through the `Roller` passed in.

pub mod awi;
pub mod baseline;
pub mod complete;
pub mod opponent;
pub mod repl;
pub mod run;
pub mod save;

#[cfg(test)]
mod tests;

use crate::battlefield::{Battlefield, Point};
use crate::dice::Roller;
use crate::scenario::Scenario;
use crate::tables::Tables;
use crate::{acw, rules, rv};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// The rules engines foe has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// Seed 000: One-Hour-Wargames-style horse and musket, average dice.
    Awi,
    /// Seed 001: "A Ruinous Victory", Guilford Courthouse 1781.
    Rv,
    /// Seed 002: One-Hour Wargames ACW with activation dice.
    Acw,
}

/// Which engine plays which rule set, by the rule set's `name` (ruling
/// HO1). A rule set not listed has no engine: `foe check` still validates
/// its scenarios, play refuses them with a message.
pub const ENGINES: &[(&str, Engine)] = &[
    ("ohw-awi", Engine::Awi),
    ("ruinous-victory", Engine::Rv),
    ("ohw-acw", Engine::Acw),
];

/// The engine that plays the rule set `name`, if any.
pub fn engine_for(name: &str) -> Option<Engine> {
    ENGINES
        .iter()
        .find(|(ruleset, _)| *ruleset == name)
        .map(|(_, engine)| *engine)
}

impl Engine {
    /// The seed's name as messages give it.
    pub fn seed(self) -> &'static str {
        match self {
            Engine::Awi => "seed 000",
            Engine::Rv => "seed 001",
            Engine::Acw => "seed 002",
        }
    }

    /// Whether the engine's games are told turn by turn, each side's turn
    /// with the Lone Warrior opponent's reasons ([`crate::play::Match`],
    /// seed 000's view of [`run::HostMatch`], with its REPL and its
    /// study), rather than line by line ([`run::HostMatch`]'s record).
    pub fn tells_turns(self) -> bool {
        match self {
            Engine::Awi => true,
            Engine::Rv | Engine::Acw => false,
        }
    }

    /// The scenario keys that mean something to the engine's set-up, by
    /// where they stand: what `foe simulate --set` may change. Seed 000
    /// reads every key of the scenario format (its study checks a `--set`
    /// by validating the changed scenario), so it has no list.
    pub fn scenario_keys(self) -> Option<ScenarioKeys> {
        Some(match self {
            // Seed 001 (`rv::GameSetup::from_scenario`): the ground, the
            // turns, each unit's bases, formation, place and brigade, each
            // commander's place; its own turn sequence and victory.
            Engine::Rv => ScenarioKeys {
                top: &["turns", "table", "terrain"],
                side: &["units", "generals"],
                unit: &[
                    "troop_type",
                    "strength",
                    "formation",
                    "position",
                    "facing",
                    "group",
                ],
                general: &["position"],
            },
            // Seed 002 (`acw::GameSetup::from_scenario`): units have no
            // strength (every unit takes the same hits) and generals only a
            // character (a good one adds a die, ruling AC3).
            Engine::Acw => ScenarioKeys {
                top: &[
                    "turns",
                    "first",
                    "table",
                    "terrain",
                    "areas",
                    "victory",
                    "optional_rules",
                ],
                side: &["units", "generals", "edge"],
                unit: &[
                    "troop_type",
                    "formation",
                    "position",
                    "facing",
                    "reaction_class",
                ],
                general: &["character"],
            },
            Engine::Awi => return None,
        })
    }
}

/// Whether `scenario`'s games are told turn by turn ([`Engine::tells_turns`]);
/// a rule set without an engine counts as seed 000's, whose loading then
/// says there is no engine for it.
pub fn tells_turns(scenario: &Scenario) -> bool {
    engine_for(&scenario.battlefield.ruleset.name).is_none_or(Engine::tells_turns)
}

/// The scenario keys that mean something to an engine's set-up
/// ([`Engine::scenario_keys`]), by where they stand.
#[derive(Debug, Clone, Copy)]
pub struct ScenarioKeys {
    /// The scenario's own keys.
    pub top: &'static [&'static str],
    /// A side's.
    pub side: &'static [&'static str],
    /// A unit's.
    pub unit: &'static [&'static str],
    /// A general's.
    pub general: &'static [&'static str],
}

/// A game under any engine.
#[derive(Debug, Clone)]
pub enum Game {
    /// Seed 000.
    Awi(Box<rules::GameState>),
    /// Seed 001.
    Rv(Box<rv::GameState>),
    /// Seed 002.
    Acw(Box<acw::GameState>),
}

/// An action under any engine (what saves record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "engine", content = "do")]
pub enum Action {
    /// Seed 000.
    Awi(rules::Action),
    /// Seed 001.
    Rv(rv::Action),
    /// Seed 002.
    Acw(acw::Action),
}

/// An event under any engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Seed 000.
    Awi(rules::Event),
    /// Seed 001.
    Rv(rv::Event),
    /// Seed 002.
    Acw(acw::Event),
}

/// Why an action was refused. The state is unchanged and no die rolled.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// An action of another engine than the game's.
    WrongEngine {
        /// The game's engine.
        game: Engine,
    },
    /// It is not the player's turn: foe commands the side to act.
    NotYours,
    /// Seed 000's refusal, naming the rule.
    Awi(rules::Refusal),
    /// Seed 001's.
    Rv(rv::Refusal),
    /// Seed 002's.
    Acw(acw::Refusal),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::WrongEngine { game } => {
                write!(
                    f,
                    "that is not an action of this game's rules ({})",
                    game.seed()
                )
            }
            Refusal::NotYours => f.write_str("it is not your turn: foe commands the side to act"),
            Refusal::Awi(refusal) => refusal.fmt(f),
            Refusal::Rv(refusal) => refusal.fmt(f),
            Refusal::Acw(refusal) => refusal.fmt(f),
        }
    }
}

impl std::error::Error for Refusal {}

/// Why a scenario cannot be started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// No engine plays the scenario's rule set.
    NoEngine(String),
    /// The engine's table would not read.
    Table(String),
    /// The engine refused the setup.
    Setup(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::NoEngine(name) => write!(f, "no rules engine for rule set `{name}`"),
            StartError::Table(problem) => write!(f, "the rules table: {problem}"),
            StartError::Setup(problem) => f.write_str(problem),
        }
    }
}

impl std::error::Error for StartError {}

/// A unit as the opponent and the REPL read it, whatever the engine.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitView {
    /// Its index in the game (the engine's unit id).
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: usize,
    /// Where its centre stands.
    pub position: Point,
    /// Compass bearing it faces.
    pub facing: f64,
    /// Strength left as a fraction of the start (0 once out of play).
    pub strength: f64,
    /// Its formation in words, if it has one.
    pub formation: Option<String>,
    /// It stands in cover.
    pub in_cover: bool,
    /// Routed, destroyed, run away or off the table.
    pub removed: bool,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The winning side, `None` for a draw.
    pub winner: Option<usize>,
    /// Why, in words.
    pub reason: String,
    /// Seed 001's victory margin (house rule RV10), from the attacker's view.
    pub margin: Option<i32>,
}

impl Game {
    /// Start the game a validated scenario describes, under the engine its
    /// rule set names. `tables` are the Lone Warrior tables (seed 000's
    /// generals roll their characters on them).
    pub fn start(
        scenario: &Scenario,
        tables: &Tables,
        roller: &mut dyn Roller,
    ) -> Result<(Game, Vec<Event>), StartError> {
        let ruleset = &scenario.battlefield.ruleset;
        let engine =
            engine_for(&ruleset.name).ok_or_else(|| StartError::NoEngine(ruleset.name.clone()))?;
        let table_problem = |p: crate::yaml::Problems| StartError::Table(p.to_string());
        match engine {
            Engine::Awi => {
                let table = rules::RulesTable::of(ruleset).map_err(table_problem)?;
                let setup = rules::GameSetup::from_scenario(scenario)
                    .map_err(|e| StartError::Setup(e.to_string()))?;
                let (state, events) =
                    rules::GameState::new(setup, Arc::new(table), &tables.characters, roller)
                        .map_err(|e| StartError::Setup(e.to_string()))?;
                Ok((
                    Game::Awi(Box::new(state)),
                    events.into_iter().map(Event::Awi).collect(),
                ))
            }
            Engine::Rv => {
                let table = rv::RvTable::of(ruleset).map_err(table_problem)?;
                let setup = rv::GameSetup::from_scenario(scenario, &table)
                    .map_err(|e| StartError::Setup(e.to_string()))?;
                let (state, events) = rv::GameState::new(setup, Arc::new(table), roller)
                    .map_err(|e| StartError::Setup(e.to_string()))?;
                Ok((
                    Game::Rv(Box::new(state)),
                    events.into_iter().map(Event::Rv).collect(),
                ))
            }
            Engine::Acw => {
                let table = acw::AcwTable::of(ruleset).map_err(table_problem)?;
                let setup = acw::GameSetup::from_scenario(scenario, &table)
                    .map_err(|e| StartError::Setup(e.to_string()))?;
                let (state, events) = acw::GameState::new(setup, Arc::new(table), roller)
                    .map_err(|e| StartError::Setup(e.to_string()))?;
                Ok((
                    Game::Acw(Box::new(state)),
                    events.into_iter().map(Event::Acw).collect(),
                ))
            }
        }
    }

    /// Which engine plays it.
    pub fn engine(&self) -> Engine {
        match self {
            Game::Awi(_) => Engine::Awi,
            Game::Rv(_) => Engine::Rv,
            Game::Acw(_) => Engine::Acw,
        }
    }

    /// The table it is played on.
    pub fn battlefield(&self) -> &Battlefield {
        match self {
            Game::Awi(state) => &state.battlefield,
            Game::Rv(state) => state.battlefield(),
            Game::Acw(state) => &state.battlefield,
        }
    }

    /// Side names, by index.
    pub fn sides(&self) -> Vec<String> {
        match self {
            Game::Awi(state) => state.sides.iter().map(|s| s.name.clone()).collect(),
            Game::Rv(state) => state.sides().to_vec(),
            Game::Acw(state) => state.sides.iter().map(|s| s.name.clone()).collect(),
        }
    }

    /// The game turn, from 1.
    pub fn turn(&self) -> u32 {
        match self {
            Game::Awi(state) => state.turn,
            Game::Rv(state) => state.turn(),
            Game::Acw(state) => state.turn(),
        }
    }

    /// Game turns in all.
    pub fn turns(&self) -> u32 {
        match self {
            Game::Awi(state) => state.turns,
            Game::Rv(state) => state.turns(),
            Game::Acw(state) => state.turns,
        }
    }

    /// The phase now, in words (`british move`, `activation`, …).
    pub fn phase(&self) -> String {
        let sides = self.sides();
        let side_name = |side: usize| sides.get(side).cloned().unwrap_or_default();
        match self {
            Game::Awi(state) => {
                format!("{} {:?}", side_name(state.active), state.phase()).to_lowercase()
            }
            Game::Rv(state) => {
                let phase = state.phase();
                match (state.pending(), phase.side) {
                    (Some(pending), _) => format!(
                        "charge: `{}` answers `{}`",
                        state.units()[pending.target].name,
                        state.units()[pending.charger].name
                    ),
                    (None, Some(side)) => format!("{} {}", side_name(side), phase.kind),
                    (None, None) => phase.kind.to_string(),
                }
            }
            Game::Acw(state) => match state.phase() {
                acw::Phase::Assigning { side } => format!("{} assigning dice", side_name(side)),
                acw::Phase::Activating => "activation".to_string(),
                acw::Phase::ChargeResponse { charger, target } => format!(
                    "charge: `{}` answers `{}`",
                    state.unit(target).name,
                    state.unit(charger).name
                ),
                acw::Phase::Over => "game over".to_string(),
            },
        }
    }

    /// The side that must act next (`None` once the game is over).
    pub fn to_act(&self) -> Option<usize> {
        match self {
            Game::Awi(state) => (!state.is_over()).then_some(state.active),
            Game::Rv(state) => state.to_act(),
            Game::Acw(state) => state.to_act(),
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        // Asked before every action: no verdict's words are made for it.
        match self {
            Game::Awi(state) => state.is_over(),
            Game::Rv(state) => state.outcome().is_some(),
            Game::Acw(state) => !matches!(state.outcome(), acw::Outcome::Playing),
        }
    }

    /// Every legal action for the side to act, in the engine's fixed order.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self {
            Game::Awi(state) => state.legal_actions().into_iter().map(Action::Awi).collect(),
            Game::Rv(state) => state.legal_actions().into_iter().map(Action::Rv).collect(),
            Game::Acw(state) => state.legal_actions().into_iter().map(Action::Acw).collect(),
        }
    }

    /// Check an action completely without changing anything.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        match (self, action) {
            (Game::Awi(state), Action::Awi(action)) => state.check(action).map_err(Refusal::Awi),
            (Game::Rv(state), Action::Rv(action)) => state.check(action).map_err(Refusal::Rv),
            (Game::Acw(state), Action::Acw(action)) => state.check(action).map_err(Refusal::Acw),
            _ => Err(Refusal::WrongEngine {
                game: self.engine(),
            }),
        }
    }

    /// Carry an action out with the dice; a refusal changes nothing and
    /// rolls no die.
    pub fn apply(
        &mut self,
        action: &Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, Refusal> {
        let engine = self.engine();
        match (self, action) {
            (Game::Awi(state), Action::Awi(action)) => state
                .apply(action, roller)
                .map(|events| events.into_iter().map(Event::Awi).collect())
                .map_err(Refusal::Awi),
            (Game::Rv(state), Action::Rv(action)) => state
                .apply(action, roller)
                .map(|events| events.into_iter().map(Event::Rv).collect())
                .map_err(Refusal::Rv),
            (Game::Acw(state), Action::Acw(action)) => state
                .apply(action, roller)
                .map(|events| events.into_iter().map(Event::Acw).collect())
                .map_err(Refusal::Acw),
            _ => Err(Refusal::WrongEngine { game: engine }),
        }
    }

    /// Every unit, by index, as the opponent reads it.
    pub fn units(&self) -> Vec<UnitView> {
        match self {
            Game::Awi(state) => state
                .units
                .iter()
                .enumerate()
                .map(|(index, unit)| {
                    let rout_at = state.rules.rout_at[unit.category.index()];
                    let removed = unit.status != rules::Status::Active;
                    let strength = if removed {
                        0.0
                    } else if rout_at == 0 {
                        1.0
                    } else {
                        f64::from(rout_at.saturating_sub(unit.hits)) / f64::from(rout_at)
                    };
                    UnitView {
                        index,
                        name: unit.name.clone(),
                        side: unit.side,
                        position: unit.base.centre,
                        facing: unit.base.facing,
                        strength,
                        formation: None,
                        in_cover: state.battlefield.cover_at(unit.base.centre),
                        removed,
                    }
                })
                .collect(),
            Game::Rv(state) => (0..state.units().len())
                .map(|index| {
                    let unit = &state.units()[index];
                    UnitView {
                        index,
                        name: unit.name.clone(),
                        side: unit.side,
                        position: unit.centre,
                        facing: unit.facing,
                        strength: state.strength(index).unwrap_or(0.0),
                        formation: state.formation(index).map(|f| f.to_string()),
                        in_cover: state.in_cover(index),
                        removed: state.is_removed(index),
                    }
                })
                .collect(),
            Game::Acw(state) => (0..state.units.len())
                .map(|index| {
                    let id = acw::UnitId(index);
                    let unit = state.unit(id);
                    UnitView {
                        index,
                        name: unit.name.clone(),
                        side: unit.side,
                        position: state.position(id),
                        facing: state.facing(id),
                        strength: state.strength(id),
                        formation: Some(acw_formation(state.formation(id)).to_string()),
                        in_cover: state.in_cover(id),
                        removed: state.removed(id),
                    }
                })
                .collect(),
        }
    }

    /// How the game ended, once it has.
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Game::Awi(state) => state.outcome.as_ref().map(|outcome| match outcome {
                rules::Outcome::Won { side, condition } => Verdict {
                    winner: Some(*side),
                    reason: format!(
                        "{} met victory condition {}",
                        state.sides.get(*side).map_or("", |s| s.name.as_str()),
                        condition + 1
                    ),
                    margin: None,
                },
                rules::Outcome::Draw => Verdict {
                    winner: None,
                    reason: "neither side won".to_string(),
                    margin: None,
                },
            }),
            Game::Rv(state) => state.outcome().map(|outcome| Verdict {
                winner: Some(outcome.winner),
                reason: match outcome.reason {
                    rv::EndReason::DefenderDriven => "the defenders are driven from the field",
                    rv::EndReason::AttackerBroken => "the attacking army is broken",
                    rv::EndReason::TimeUp => "time is up with the defenders still on the field",
                }
                .to_string(),
                margin: Some(outcome.margin),
            }),
            Game::Acw(state) => match state.outcome() {
                acw::Outcome::Playing => None,
                acw::Outcome::Won { side, reason, .. } => Some(Verdict {
                    winner: Some(*side),
                    reason: reason.clone(),
                    margin: None,
                }),
                acw::Outcome::Draw => Some(Verdict {
                    winner: None,
                    reason: "nobody won by the last turn".to_string(),
                    margin: None,
                }),
            },
        }
    }

    /// Seed 001's victory margin so far (house rule RV10); `None` under
    /// rules without one.
    pub fn margin(&self) -> Option<i32> {
        match self {
            Game::Rv(state) => Some(state.score()),
            _ => None,
        }
    }
}

/// A seed-002 formation in words.
pub fn acw_formation(formation: acw::Formation) -> &'static str {
    match formation {
        acw::Formation::Line => "line",
        acw::Formation::Column => "column",
        acw::Formation::Dismounted => "dismounted",
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)?;
        if let Some(margin) = self.margin {
            write!(f, " (victory margin {margin:+})")?;
        }
        Ok(())
    }
}

/// The map letter of each unit, by index: side 0's units `A`…, side 1's
/// `a`…, in order (then digits past 26), as `status` and `map` show them.
pub fn letters(units: &[UnitView]) -> Vec<char> {
    let mut counts = [0u32; 2];
    units
        .iter()
        .map(|u| {
            let side = u.side.min(1);
            let n = counts[side];
            counts[side] += 1;
            let base = if side == 0 { b'A' } else { b'a' };
            if n < 26 {
                char::from(base + n as u8)
            } else {
                char::from_digit(n % 10, 10).unwrap_or('?')
            }
        })
        .collect()
}
