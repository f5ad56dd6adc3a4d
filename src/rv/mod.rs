//! The seed-001 referee: "A Ruinous Victory", fast-play rules for
//! Guilford Courthouse 1781, as a pure library beside the seed-000 engine
//! in [`crate::rules`].
//!
//! A [`GameState`] is built from a [`GameSetup`] (what a validated
//! scenario whose `ruleset:` is `ruinous-victory` says,
//! [`GameSetup::from_scenario`]) and the rules table [`RvTable`] (the
//! engine's sections of `tables/rulesets/ruinous-victory.yaml`). The side
//! to act ([`GameState::to_act`]) picks from
//! [`GameState::legal_actions`] or any [`Action`] that
//! [`GameState::check`] accepts; [`GameState::apply`] carries it out with
//! the dice passed in and returns the [`Event`]s. A refused action
//! ([`Refusal`], whose `Display` names the rule) changes nothing and rolls
//! no die. The game ends with an [`Outcome`] and a victory margin
//! ([`GameState::score`], house rule RV10).
//!
//! Invariants: no I/O, no printing, no clock, no global RNG; every rule
//! number is in the YAML. Rulings RV1… in `docs/rulings.md` say where the
//! seed is silent and what the engine does.

mod engine;
mod event;
mod state;
mod table;

#[cfg(test)]
mod tests;

pub use event::{
    Action, Event, Formation, MeleeSide, Modifier, MoraleFor, Refusal, Removal, Response, Who,
};
pub use state::{
    Commander, CommanderSetup, EndReason, GameSetup, GameState, MAX_BASES, MAX_UNITS, Melee,
    Outcome, Pending, PhaseNow, SetupError, Unit, UnitSetup,
};
pub use table::{FireClass, Kind, PhaseKind, PhaseRule, RvTable, TroopRules};
