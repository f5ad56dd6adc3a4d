//! The rule-set boundary: the registry of engines and one [`Game`] over
//! them — the seed-000 referee ([`crate::rules`]), seed 001 "A Ruinous
//! Victory" ([`crate::rv`]) and seed 002 OHW ACW with activation dice
//! ([`crate::acw`]). What an engine offers the layers above (start from a
//! validated scenario, whose turn and phase it is, what is legal, `check`
//! and `apply` with events and typed refusals, the units as an opponent
//! reads them, the verdict, the scenario keys it reads) is the trait
//! [`position::Position`]; each engine implements it in its adapter
//! ([`engines`]), and [`Game`] delegates to the one it holds.
//!
//! The engine is chosen once, from the rule set's `name`, by [`engine_for`]
//! over the table [`ENGINES`]: the only place that knows which rule set is
//! which engine (ruling HO1). Nothing outside the engines, this registry
//! and the adapters asks which rule set a game is played under; it asks
//! the [`Game`].
//!
//! Every game is played by one runner, [`run::HostMatch`], with a
//! commander per side the player does not command, found through the
//! commander boundary ([`command::Command`]). Seed 000's sides are
//! commanded by the rich Lone Warrior opponent, which carries out its own
//! steps ([`awi`]), and the prompt tells its games turn by turn from their
//! reports ([`awi::AwiCommanders`]). What the edges must do differently per
//! engine they ask of [`Engine`] ([`Engine::whole_turns`],
//! [`Engine::scenario_keys`], [`Engine::plan_rules`]), which reads it off
//! the engine's adapters.
//!
//! Pure: no I/O, dice only through the `Roller` passed in.

pub mod awi;
pub mod baseline;
pub mod command;
pub mod complete;
pub mod engines;
pub mod lines;
pub mod opponent;
pub mod position;
pub mod probe;
pub mod repl;
pub mod run;
pub mod save;

#[cfg(test)]
mod seed_000_tests;
#[cfg(test)]
pub(crate) mod test_game;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod whole_game;

use crate::battlefield::{Base, Battlefield, Point};
use crate::dice::Roller;
use crate::scenario::Scenario;
use crate::tables::Tables;
use crate::{acw, rules, rv};
use position::Position;
use serde::{Deserialize, Serialize};
use std::fmt;

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

/// `$body` with `$P` standing for the [`Position`] type of `$engine`: the
/// registry of which state type plays which engine.
macro_rules! each_engine {
    ($engine:expr, $P:ident => $body:expr) => {
        match $engine {
            Engine::Awi => {
                type $P = rules::GameState;
                $body
            }
            Engine::Rv => {
                type $P = rv::GameState;
                $body
            }
            Engine::Acw => {
                type $P = acw::GameState;
                $body
            }
        }
    };
}

/// `$body` with `$state` bound to the boxed state `$game` holds, whatever
/// its engine.
macro_rules! each_game {
    ($game:expr, $state:ident => $body:expr) => {
        match $game {
            Game::Awi($state) => $body,
            Game::Rv($state) => $body,
            Game::Acw($state) => $body,
        }
    };
}

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

    /// Whether the engine's games are told a side's turn at a time
    /// ([`command::Command::WHOLE_TURNS`]): a watched game then steps a
    /// side's turn at a time, and a save counts its watched turns so.
    pub fn whole_turns(self) -> bool {
        each_engine!(self, P => <P as command::Command>::WHOLE_TURNS)
    }

    /// The scenario keys that mean something to the engine's set-up, by
    /// where they stand: what `foe simulate --set` may change; `None` for
    /// an engine that reads every key of the scenario format.
    pub fn scenario_keys(self) -> Option<ScenarioKeys> {
        each_engine!(self, P => P::SCENARIO_KEYS)
    }

    /// The plan rules of `tables/opponent.yaml` the engine's opponent
    /// follows ([`command::Command::PLAN_RULES`]).
    pub fn plan_rules(self) -> &'static [&'static str] {
        each_engine!(self, P => <P as command::Command>::PLAN_RULES)
    }
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
    /// The game is over.
    GameOver,
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
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::Awi(refusal) => refusal.fmt(f),
            Refusal::Rv(refusal) => refusal.fmt(f),
            Refusal::Acw(refusal) => refusal.fmt(f),
        }
    }
}

impl std::error::Error for Refusal {}

impl Refusal {
    /// What stopped a move short, in one clause, when this is the refusal
    /// of a step further: dearer ground, a unit in the way (`friend` says
    /// whether a unit of that name is a friend), the table edge, an enemy
    /// near. Any other refusal as it reads.
    pub fn stopped_by(&self, friend: &dyn Fn(&str) -> Option<bool>) -> String {
        use crate::battlefield::geometry::trim;
        match self {
            Refusal::Awi(rules::Refusal::TooFar { cost, .. }) => format!(
                "the ground costs more than open ground (0.1\" further would need {}\" of movement)",
                trim(*cost)
            ),
            Refusal::Awi(rules::Refusal::Impassable { at, .. }) => {
                format!("impassable ground at {at}")
            }
            Refusal::Awi(rules::Refusal::OffTable { .. }) => "the table edge".into(),
            Refusal::Awi(rules::Refusal::Interpenetration { other, .. }) => {
                let kind = match friend(other) {
                    Some(true) => "a friend",
                    Some(false) => "an enemy",
                    None => "a unit",
                };
                format!("{kind} ({other}) in the way")
            }
            Refusal::Awi(rules::Refusal::EnemyPresence { within, .. }) => format!(
                "an enemy within {}\", so it may move only directly towards or away from it",
                trim(*within)
            ),
            Refusal::Awi(rules::Refusal::ContactWithoutCharge { enemy, .. }) => {
                format!("an enemy ({enemy}) ahead, which a move that is not a charge may not touch")
            }
            other => other.to_string(),
        }
    }
}

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
        Game::start_sharing(scenario, tables, None, roller)
    }

    /// [`Game::start`] on the engine's rules `table` read once for many
    /// games, if it is the engine's ([`position::Position::start_on`]).
    pub fn start_sharing(
        scenario: &Scenario,
        tables: &Tables,
        table: Option<&position::SharedTable>,
        roller: &mut dyn Roller,
    ) -> Result<(Game, Vec<Event>), StartError> {
        let ruleset = &scenario.battlefield.ruleset;
        let engine =
            engine_for(&ruleset.name).ok_or_else(|| StartError::NoEngine(ruleset.name.clone()))?;
        each_engine!(engine, P => position::start::<P>(scenario, tables, table, roller))
    }

    /// The rules table of `scenario`'s engine, read once for many games
    /// ([`Game::start_sharing`]); `None` where its engine reads its table
    /// as each game starts.
    pub fn shared_table(scenario: &Scenario) -> Result<Option<position::SharedTable>, StartError> {
        let ruleset = &scenario.battlefield.ruleset;
        let engine =
            engine_for(&ruleset.name).ok_or_else(|| StartError::NoEngine(ruleset.name.clone()))?;
        each_engine!(engine, P => P::shared_table(scenario))
    }

    /// Which engine plays it.
    pub fn engine(&self) -> Engine {
        each_game!(self, state => engine_of(state.as_ref()))
    }

    /// The table it is played on.
    pub fn battlefield(&self) -> &Battlefield {
        each_game!(self, state => Position::battlefield(state.as_ref()))
    }

    /// Side names, by index.
    pub fn sides(&self) -> Vec<String> {
        each_game!(self, state => Position::sides(state.as_ref()))
    }

    /// The game turn, from 1.
    pub fn turn(&self) -> u32 {
        each_game!(self, state => Position::turn(state.as_ref()))
    }

    /// Game turns in all.
    pub fn turns(&self) -> u32 {
        each_game!(self, state => Position::turns(state.as_ref()))
    }

    /// The phase now, in words (`british move`, `activation`, …).
    pub fn phase(&self) -> String {
        each_game!(self, state => Position::phase(state.as_ref()))
    }

    /// The side that must act next (`None` once the game is over).
    pub fn to_act(&self) -> Option<usize> {
        each_game!(self, state => Position::to_act(state.as_ref()))
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        each_game!(self, state => Position::is_over(state.as_ref()))
    }

    /// Every legal action for the side to act, in the engine's fixed order.
    pub fn legal_actions(&self) -> Vec<Action> {
        each_game!(self, state => position::legal_actions(state.as_ref()))
    }

    /// Check an action completely without changing anything.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        each_game!(self, state => position::check(state.as_ref(), action))
    }

    /// A seed-000 rally naming several units that the rules refuse only
    /// because of some of them (out of the general's command range, or a
    /// troop type never rallied): the rally of the others, in the order
    /// named, and for each unit left out its rally alone with the refusal
    /// that leaves it out. `None` for anything else, to be taken or refused
    /// whole.
    pub fn rally_what_can_be(&self, action: &Action) -> Option<(Action, Vec<(Action, Refusal)>)> {
        let Action::Awi(rules::Action::Rally { general, units }) = action else {
            return None;
        };
        if units.len() < 2 || self.check(action).is_ok() {
            return None;
        }
        let alone = |unit| {
            Action::Awi(rules::Action::Rally {
                general: *general,
                units: vec![unit],
            })
        };
        let mut can = Vec::new();
        let mut left_out = Vec::new();
        for unit in units {
            match self.check(&alone(*unit)) {
                Ok(()) => can.push(*unit),
                Err(
                    refusal @ Refusal::Awi(
                        rules::Refusal::OutOfCommandRange { .. }
                        | rules::Refusal::CannotBeRallied { .. },
                    ),
                ) => left_out.push((alone(*unit), refusal)),
                Err(_) => return None,
            }
        }
        let fewer = Action::Awi(rules::Action::Rally {
            general: *general,
            units: can,
        });
        (!left_out.is_empty() && self.check(&fewer).is_ok()).then_some((fewer, left_out))
    }

    /// Carry an action out with the dice; a refusal changes nothing and
    /// rolls no die.
    pub fn apply(
        &mut self,
        action: &Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, Refusal> {
        each_game!(self, state => position::apply(state.as_mut(), action, roller))
    }

    /// Every unit, by index, as the opponent reads it.
    pub fn units(&self) -> Vec<UnitView> {
        each_game!(self, state => Position::units(state.as_ref()))
    }

    /// A unit's troop type and footprint now, for pathing.
    pub fn footing(&self, unit: usize) -> Option<(crate::ruleset::TroopTypeId, Base)> {
        each_game!(self, state => Position::footing(state.as_ref(), unit))
    }

    /// How the game ended, once it has.
    pub fn verdict(&self) -> Option<Verdict> {
        each_game!(self, state => Position::verdict(state.as_ref()))
    }

    /// The victory margin so far, under rules that keep one (seed 001's
    /// house rule RV10); `None` under rules without one.
    pub fn margin(&self) -> Option<i32> {
        each_game!(self, state => Position::margin(state.as_ref()))
    }

    /// An event as one line of the record, units and sides by name.
    pub fn event_line(&self, event: &Event) -> String {
        each_game!(self, state => position::event_line(state.as_ref(), event))
    }

    /// What an event means to the record's counts and turns.
    pub fn event_facts(&self, event: &Event) -> position::EventFacts {
        each_game!(self, state => position::event_facts(state.as_ref(), event))
    }
}

/// The engine a game state is played under, read off its type.
fn engine_of<P: Position>(_: &P) -> Engine {
    P::ENGINE
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

/// What a picture of the table reads, through each engine's adapter.
impl Game {
    /// How the rule set counts what a unit has lost.
    pub fn losses(&self) -> position::Losses {
        each_game!(self, state => position::losses(state.as_ref()))
    }

    /// How many phases back a picture's arrows start.
    pub fn arrow_phases(&self) -> usize {
        each_game!(self, state => position::arrow_phases(state.as_ref()))
    }

    /// A unit as a picture shows it.
    pub fn standing(&self, unit: usize) -> position::Standing {
        each_game!(self, state => Position::standing(state.as_ref(), unit))
    }

    /// The ways a game can be won, where the rules fix them.
    pub fn own_endings(&self) -> Option<Vec<(usize, String)>> {
        each_game!(self, state => Position::own_endings(state.as_ref()))
    }

    /// Which of the scenario's victory conditions decided the game, where
    /// the engine says.
    pub fn condition_met(&self) -> Option<usize> {
        each_game!(self, state => Position::condition_met(state.as_ref()))
    }

    /// The ways a game of `scenario` can be won, each with its winner, in
    /// words ([`position::Position::victory_words`]).
    pub fn victory_words(&self, scenario: &Scenario) -> Vec<(usize, String)> {
        each_game!(self, state => Position::victory_words(state.as_ref(), scenario))
    }

    /// A side's commanders on the table, as a picture shows them.
    pub fn figures(&self, side: usize) -> Vec<position::Figure> {
        each_game!(self, state => Position::figures(state.as_ref(), side))
    }
}

/// The prompt's words, through each engine's adapter
/// ([`repl::Words`]).
impl Game {
    /// A line's verb and the rest of it as an action of this game's rules.
    pub fn read(&self, names: &repl::Names<'_>, verb: &str, rest: &str) -> Result<Action, String> {
        each_game!(self, state => repl::read(state.as_ref(), names, verb, rest))
    }

    /// The rule set's own commands, each with its usage.
    pub fn commands(&self) -> &'static [(&'static str, &'static str)] {
        each_game!(self, state => repl::commands(state.as_ref()))
    }

    /// Why a verb another rule set has does nothing here, naming the
    /// command that does.
    pub fn not_here(&self, verb: &str) -> Option<&'static str> {
        each_game!(self, state => repl::not_here(state.as_ref(), verb))
    }

    /// What a command does under these rules, beyond its usage.
    pub fn more_on(&self, verb: &str) -> Option<&'static str> {
        each_game!(self, state => repl::more_on(state.as_ref(), verb))
    }

    /// `help TOPIC` on one of the rule set's rules, from its data.
    pub fn rule_help(&self, topic: &str) -> Option<String> {
        each_game!(self, state => repl::rule_help(state.as_ref(), topic))
    }

    /// The move of `unit` straight to `to`, ending facing `facing`.
    pub fn move_action(&self, unit: usize, to: Point, facing: f64) -> Action {
        each_game!(self, state => repl::move_action(state.as_ref(), unit, to, facing))
    }

    /// The words that type `action` at the prompt.
    pub fn say(&self, action: &Action) -> String {
        each_game!(self, state => repl::say(state.as_ref(), action))
    }

    /// The unit `action` is for, if it is one unit's.
    pub fn action_unit(&self, action: &Action) -> Option<usize> {
        each_game!(self, state => repl::unit_of(state.as_ref(), action))
    }

    /// Whether `action` passes the player's current step.
    pub fn passes(&self, action: &Action) -> bool {
        each_game!(self, state => repl::passes(state.as_ref(), action))
    }

    /// The opening's lines on how the game is won and how a turn goes.
    pub fn rules_lines(&self) -> String {
        each_game!(self, state => repl::Words::rules_lines(state.as_ref(), self))
    }

    /// `status`'s lines on dice waiting to be given out.
    pub fn dice_lines(&self) -> String {
        each_game!(self, state => repl::Words::dice_lines(state.as_ref()))
    }

    /// The dice the side giving them out has left, and the units waiting.
    pub fn dice_to_give(&self) -> Option<String> {
        each_game!(self, state => repl::Words::dice_to_give(state.as_ref()))
    }

    /// `auto`: the next of the player's dice given out as foe would.
    pub fn auto_die(
        &self,
        player_sides: &[usize],
    ) -> Result<Option<(Action, String)>, &'static str> {
        each_game!(self, state => repl::auto_die_of(state.as_ref(), player_sides))
    }

    /// `, die 5` (`, die 5 used`) for a unit given an activation die.
    pub fn activation_die(&self, unit: usize) -> String {
        each_game!(self, state => repl::Words::activation_die(state.as_ref(), unit))
    }

    /// The first words of the rule set's own commands, for Tab.
    pub fn first_words(&self) -> &'static [&'static str] {
        each_game!(self, state => repl::first_words(state.as_ref()))
    }

    /// What Tab completes after the first word of one of the rule set's
    /// own commands.
    pub fn shapes(&self) -> fn(&str) -> complete::Shapes {
        each_game!(self, state => repl::shapes(state.as_ref()))
    }

    /// The player's commanders still with the army, for Tab.
    pub fn commanders(&self, player_sides: &[usize]) -> Vec<String> {
        each_game!(self, state => repl::Words::own_commanders(state.as_ref(), player_sides))
    }

    /// The player's dice still to give out, as typed, for Tab.
    pub fn dice_typed(&self, player_sides: &[usize]) -> Vec<String> {
        each_game!(self, state => repl::Words::dice_typed(state.as_ref(), player_sides))
    }

    /// `victory`'s lines: each side's conditions and how near they are.
    pub fn victory_lines(&self, names: &repl::Names<'_>) -> String {
        each_game!(self, state => repl::Words::victory_lines(state.as_ref(), names))
    }
}

impl Game {
    /// Each unit's map label (`B3`, as every map and command of every rule
    /// set names it), by unit index.
    pub fn labels(&self, scenario: &crate::scenario::Scenario) -> Vec<String> {
        crate::scenario::label::unit_labels(scenario, self.units().iter().map(|u| u.side))
    }
}

/// The commander boundary ([`command::Command`]), asked of the engine a
/// game is played under.
impl Game {
    /// Whether a retreat is a lost melee, as the opponent remembers it.
    pub fn retreat_loses_melee(&self) -> bool {
        fn of<P: command::Command>(_: &P) -> bool {
            P::RETREAT_LOSES_MELEE
        }
        each_game!(self, state => of(state.as_ref()))
    }

    /// What the boundary opponent's next test of `unit` would read.
    pub fn foe_situation(
        &self,
        opponent: &opponent::Opponent,
        unit: usize,
    ) -> Option<crate::reaction::Situation> {
        each_game!(self, state => command::Command::foe_situation(state.as_ref(), opponent, unit))
    }

    /// The boundary opponent's next action for `side`.
    pub fn foe_next(
        &self,
        opponent: &mut opponent::Opponent,
        side: usize,
        roller: &mut dyn Roller,
    ) -> Option<Action> {
        each_game!(self, state => command::Command::foe_next(state.as_ref(), opponent, side, roller))
    }

    /// The baseline's next action for `side`.
    pub fn baseline_next(
        &self,
        baseline: &mut baseline::Baseline,
        side: usize,
    ) -> Option<command::Chose> {
        each_game!(self, state => command::Command::baseline_next(state.as_ref(), baseline, side))
    }

    /// Unit `unit`'s name.
    pub fn unit_name(&self, unit: usize) -> Option<String> {
        each_game!(self, state => command::Command::unit_name(state.as_ref(), unit))
    }

    /// The commanders of the game `setup` describes, as its engine gives
    /// them ([`command::Command::commanders`]).
    pub fn commanders_for(
        &self,
        setup: &command::CommandSetup<'_>,
    ) -> Box<dyn command::Commanders> {
        each_game!(self, state => command::Command::commanders(state.as_ref(), setup))
    }
}
