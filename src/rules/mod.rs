//! The rules engine for the seed-000 horse-and-musket rules (One-Hour-
//! Wargames style, average dice), as a pure library.
//!
//! A [`GameState`] is built from a [`GameSetup`] (what a scenario says);
//! [`GameState::legal_actions`] lists what the side to act may do, in a
//! fixed order; [`GameState::apply`] carries out one [`Action`] with the
//! dice passed in and returns the [`Event`]s, or refuses it with a
//! [`Refusal`] that names the rule broken and leaves the state unchanged.
//! Every rule number comes from the rule set's YAML ([`RulesTable`]); the
//! turn sequence is data there too.
//!
//! Pure: no I/O, no printing, no clock, no global RNG.

mod engine;
mod event;
mod from_scenario;
pub mod help;
mod id;
pub mod invariants;
pub mod log;
pub mod progress;
pub mod spatial;
mod state;
mod table;

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod tests;

pub use engine::{CONTACT, Checked};
pub use event::{Action, Applied, Cause, Event, MeleeRoll, Refusal, Volley, Weapon};
pub use id::{GeneralId, UnitId};
pub use state::{
    Condition, ForceSetup, GameSetup, GameState, General, GeneralSetup, Outcome, SetupError,
    SideState, Status, Unit, UnitSetup, Victory, rally_budget,
};
pub use table::{
    ActionKind, Budget, Gunnery, Modifier, Musketry, Operation, Phase, PhaseRule, Procedure,
    Quality, Role, RulesTable, Situation, Supply, Ties, TroopSet,
};
