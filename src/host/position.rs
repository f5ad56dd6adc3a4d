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
use crate::battlefield::{Base, Battlefield};
use crate::dice::Roller;
use crate::ruleset::TroopTypeId;
use crate::scenario::Scenario;
use crate::tables::Tables;

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

    /// Whether its games are told turn by turn with the Lone Warrior
    /// opponent's reasons ([`crate::play::Match`]) rather than line by line
    /// ([`super::run::HostMatch`]'s record).
    const TELLS_TURNS: bool;

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

    /// This engine's action inside an action of any engine, if it is one.
    fn own(action: &Action) -> Option<&Self::Action>;

    /// The game as the closed set of engines holds it.
    fn into_game(self) -> Game;

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

    /// An event as one line of the record, units and sides by name.
    fn event_line(&self, event: &Self::Event) -> String;

    /// What an event means to the record's counts (hits, charges that
    /// reached contact, units lost) and to its turns.
    fn event_facts(&self, event: &Self::Event) -> EventFacts;
}

/// What one event means to the runner's record: the facts a study counts
/// and the turn it files later events under. Every field is `None` for an
/// event that counts for nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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
}

/// [`Position::event_line`] for an event of any engine (one of another
/// engine's is shown as it is stored).
pub(super) fn event_line<P: Position>(state: &P, event: &Event) -> String {
    match P::own_event(event) {
        Some(own) => state.event_line(own),
        None => format!("{event:?}"),
    }
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
    roller: &mut dyn Roller,
) -> Result<(Game, Vec<Event>), StartError> {
    let (state, events) = P::start(scenario, tables, roller)?;
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
