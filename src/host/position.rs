//! The engine boundary as a trait: what every rules engine offers the
//! runner, the opponents, the REPL and the study, whatever its rules.
//! Modelled on a chess library's `Position` behind a variant enum: each
//! engine's game state implements [`Position`] in its adapter
//! ([`super::engines`]), and [`super::Game`] is the closed set of them,
//! delegating every question to the engine it holds.
//!
//! A new rule set is one engine folder, one line in the registry
//! ([`super::ENGINES`] and [`super::Game`]'s variants) and its adapters.
//! Pure: no I/O, dice only through the `Roller` passed in.

use super::{Action, Engine, Event, Game, Refusal, ScenarioKeys, StartError, UnitView, Verdict};
use crate::battlefield::{Base, Battlefield, Point};
use crate::dice::Roller;
use crate::ruleset::TroopTypeId;
use crate::scenario::{Condition, Scenario};
use crate::tables::Tables;

/// An engine's rules table read once and shared by many games
/// ([`Position::start_on`]).
pub type SharedTable = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// A game just started under one engine, with its set-up's events, or
/// why it cannot start.
pub type Started<P> = Result<(P, Vec<<P as Position>::Event>), StartError>;

/// A game under one engine's rules, as the layers above the engines see
/// it.
pub trait Position: Clone + std::fmt::Debug + Sized {
    /// The engine's own action.
    type Action: Clone + PartialEq + Into<Action>;
    /// The engine's own event.
    type Event: Into<Event>;
    /// The engine's own refusal, naming the rule.
    type Refusal: Into<Refusal>;

    /// Which engine this is.
    const ENGINE: Engine;

    /// The scenario keys that mean something to its set-up, by where they
    /// stand (what `foe simulate --set` may change); `None` when it reads
    /// every key of the scenario format.
    const SCENARIO_KEYS: Option<ScenarioKeys>;

    /// The game a validated scenario describes, with the events of its
    /// set-up (generals' characters rolled, first side diced, …).
    /// `tables` are the Lone Warrior tables.
    fn start(
        scenario: &Scenario,
        tables: &Tables,
        roller: &mut dyn Roller,
    ) -> Result<(Self, Vec<Self::Event>), StartError>;

    /// [`Position::start`] on the engine's own rules table `table`, read
    /// once for many games of one scenario (`foe simulate`); `None` when
    /// `table` is not this engine's (the game then starts as
    /// [`Position::start`] starts it).
    fn start_on(
        _scenario: &Scenario,
        _tables: &Tables,
        _table: &SharedTable,
        _roller: &mut dyn Roller,
    ) -> Option<Started<Self>> {
        None
    }

    /// The engine's rules table for `scenario`'s rule set, read once to be
    /// shared by many games ([`Position::start_on`]); `None` for an engine
    /// that reads its table as each game starts.
    fn shared_table(_scenario: &Scenario) -> Result<Option<SharedTable>, StartError> {
        Ok(None)
    }

    /// This engine's action inside an action of any engine, if it is one.
    fn own(action: &Action) -> Option<&Self::Action>;

    /// The game as the closed set of engines holds it.
    fn into_game(self) -> Game;

    /// This engine's state inside a game of any engine, if it is one.
    fn of(game: &Game) -> Option<&Self>;

    /// [`Position::of`], to change it.
    fn of_mut(game: &mut Game) -> Option<&mut Self>;

    /// The table it is played on.
    fn battlefield(&self) -> &Battlefield;

    /// Side names, by index.
    fn sides(&self) -> Vec<String>;

    /// The game turn, from 1.
    fn turn(&self) -> u32;

    /// Game turns in all.
    fn turns(&self) -> u32;

    /// The phase now, in words (`british move`, `activation`, …).
    fn phase(&self) -> String;

    /// The side that must act next (`None` once the game is over).
    fn to_act(&self) -> Option<usize>;

    /// Whether the game is over. Asked before every action, so it makes
    /// no verdict's words.
    fn is_over(&self) -> bool;

    /// Every legal action for the side to act, in the engine's fixed order.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// Check an action completely without changing anything.
    fn check(&self, action: &Self::Action) -> Result<(), Self::Refusal>;

    /// Carry an action out with the dice; a refusal changes nothing and
    /// rolls no die.
    fn apply(
        &mut self,
        action: &Self::Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Self::Event>, Self::Refusal>;

    /// Every unit, by index, as the opponent reads it.
    fn units(&self) -> Vec<UnitView>;

    /// A unit's troop type and the ground it covers now (its footprint),
    /// for pathing: what `route` plans around.
    fn footing(&self, unit: usize) -> Option<(TroopTypeId, Base)>;

    /// How the game ended, once it has.
    fn verdict(&self) -> Option<Verdict>;

    /// The victory margin so far, under rules that keep one.
    fn margin(&self) -> Option<i32> {
        None
    }

    /// This engine's event inside an event of any engine, if it is one.
    fn own_event(event: &Event) -> Option<&Self::Event>;

    /// This engine's refusal inside a refusal of any engine, if it is one.
    fn own_refusal(refusal: &Refusal) -> Option<&Self::Refusal>;

    /// An event as one line of the record, units and sides by name.
    fn event_line(&self, event: &Self::Event) -> String;

    /// What an event means to the record's counts (hits, charges that
    /// reached contact, units lost) and to its turns.
    fn event_facts(&self, event: &Self::Event) -> EventFacts;

    /// How the rule set counts what a unit has lost.
    const LOSSES: Losses = Losses::Hits;

    /// How many phases back a picture's arrows start: the events since
    /// the beginning of the `ARROW_PHASES`-th last phase begun.
    const ARROW_PHASES: usize = 1;

    /// A unit as a picture shows it.
    fn standing(&self, unit: usize) -> Standing;

    /// The ways a game can be won, each with its winner, where the rules
    /// fix them (seed 001's three endings); `None` where the scenario's
    /// victory conditions are the ways.
    fn own_endings(&self) -> Option<Vec<(usize, String)>> {
        None
    }

    /// Which of the scenario's victory conditions decided the game, where
    /// the engine says (seeds 000 and 002).
    fn condition_met(&self) -> Option<usize> {
        None
    }

    /// The ways a game of `scenario` can be won, each with its winner, in
    /// words, in a fixed order (what a study's
    /// [`crate::simulate::GameSummary::condition`] indexes): the rules'
    /// own endings where they fix them, else the scenario's victory
    /// conditions.
    fn victory_words(&self, scenario: &Scenario) -> Vec<(usize, String)> {
        if let Some(endings) = self.own_endings() {
            return endings;
        }
        let sides = self.sides();
        let side_name = |side: usize| sides.get(side).cloned().unwrap_or_default();
        scenario
            .victory
            .iter()
            .map(|victory| {
                let words = match &victory.when {
                    Condition::RoutFraction { side, more_than } => format!(
                        "rout more than {}% of the {} units",
                        (more_than * 100.0).round(),
                        side_name(*side)
                    ),
                    Condition::RoutOrExit {
                        side,
                        troop_type,
                        count,
                    } => format!(
                        "rout or drive off the table {count} {} unit{} of the {}",
                        scenario.battlefield.ruleset.troop(*troop_type).name,
                        if *count == 1 { "" } else { "s" },
                        side_name(*side)
                    ),
                    Condition::HoldArea { side, area } => {
                        format!("the {} hold {} at the end", side_name(*side), area.name)
                    }
                };
                (victory.winner, words)
            })
            .collect()
    }

    /// A side's commanders on the table, as a picture shows them (none
    /// where the rules put none there).
    fn figures(&self, side: usize) -> Vec<Figure> {
        let _ = side;
        Vec::new()
    }
}

/// What one event means to the runner's record: the facts a study counts
/// and the turn it files later events under. Every field is `None` for an
/// event that counts for nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EventFacts {
    /// A unit took losses: the unit, and how many (hits; seed 001: bases).
    pub hit: Option<(usize, u32)>,
    /// A charge reached contact: the charging unit.
    pub charger: Option<usize>,
    /// A unit left play: the unit, and whether it left off the table
    /// (rather than routing or being destroyed).
    pub removed: Option<(usize, bool)>,
    /// A new game turn began: its number.
    pub turn_began: Option<u32>,
    /// A phase began (seed 002: a turn, its one phase of activations):
    /// where a picture's arrows of the last phase start.
    pub phase_began: bool,
    /// What a picture draws of it as an arrow.
    pub trace: Option<Trace>,
}

/// An event as an arrow on a picture of the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trace {
    /// A unit moved from one point to another.
    Moved {
        /// The unit.
        unit: usize,
        /// Where its centre was.
        from: Point,
        /// Where it is.
        to: Point,
    },
    /// A unit fell back.
    Retreated {
        /// The unit.
        unit: usize,
        /// Where its centre was.
        from: Point,
        /// Where it is.
        to: Point,
    },
    /// A unit fired at another.
    Fired {
        /// The shooter.
        unit: usize,
        /// Its target.
        target: usize,
    },
    /// A charge reached its target.
    Charged {
        /// The charger.
        unit: usize,
        /// Its target.
        target: usize,
    },
}

/// How a rule set counts what a unit has lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Losses {
    /// Hits taken.
    Hits,
    /// Bases lost (seed 001).
    Bases,
}

/// A unit as a picture of the table shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// Its troop type.
    pub troop: TroopTypeId,
    /// The ground it covers (seed 001: its bases in their formation).
    pub footprint: Base,
    /// What it has lost, counted as the rule set counts ([`Losses`]).
    pub lost: u32,
    /// The losses that take it out of play (0: none known).
    pub out_at: u32,
    /// What else the rule set says of it (`3 of 4 bases`, `with Greene`).
    pub notes: Vec<String>,
}

/// A commander on the table (seed 001), as a picture shows one.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The commander's name.
    pub name: String,
    /// Where he stands, while he is with the army.
    pub at: Option<Point>,
}

/// [`Position::event_line`] for an event of any engine (one of another
/// engine's is shown as it is stored).
pub(super) fn event_line<P: Position>(state: &P, event: &Event) -> String {
    match P::own_event(event) {
        Some(own) => state.event_line(own),
        None => format!("{event:?}"),
    }
}

/// [`Position::LOSSES`] of `P`.
pub(super) fn losses<P: Position>(_: &P) -> Losses {
    P::LOSSES
}

/// [`Position::ARROW_PHASES`] of `P`.
pub(super) fn arrow_phases<P: Position>(_: &P) -> usize {
    P::ARROW_PHASES
}

/// [`Position::event_facts`] for an event of any engine (one of another
/// engine's counts for nothing).
pub(super) fn event_facts<P: Position>(state: &P, event: &Event) -> EventFacts {
    P::own_event(event).map_or_else(EventFacts::default, |own| state.event_facts(own))
}

/// Start a `P` game and hold it as a [`Game`], its events as [`Event`]s.
pub(super) fn start<P: Position>(
    scenario: &Scenario,
    tables: &Tables,
    table: Option<&SharedTable>,
    roller: &mut dyn Roller,
) -> Result<(Game, Vec<Event>), StartError> {
    let (state, events) = match table.and_then(|table| P::start_on(scenario, tables, table, roller))
    {
        Some(started) => started?,
        None => P::start(scenario, tables, roller)?,
    };
    Ok((
        state.into_game(),
        events.into_iter().map(Into::into).collect(),
    ))
}

/// [`Position::check`] for an action of any engine.
pub(super) fn check<P: Position>(state: &P, action: &Action) -> Result<(), Refusal> {
    let action = P::own(action).ok_or(Refusal::WrongEngine { game: P::ENGINE })?;
    state.check(action).map_err(Into::into)
}

/// [`Position::apply`] for an action of any engine.
pub(super) fn apply<P: Position>(
    state: &mut P,
    action: &Action,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, Refusal> {
    let action = P::own(action).ok_or(Refusal::WrongEngine { game: P::ENGINE })?;
    state
        .apply(action, roller)
        .map(|events| events.into_iter().map(Into::into).collect())
        .map_err(Into::into)
}

/// [`Position::legal_actions`] as actions of any engine.
pub(super) fn legal_actions<P: Position>(state: &P) -> Vec<Action> {
    state.legal_actions().into_iter().map(Into::into).collect()
}
