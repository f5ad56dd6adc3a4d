//! The seed-002 referee: One-Hour Wargames for the American Civil War with
//! activation dice, as a pure library beside the seed-000 engine
//! (`crate::rules`).
//!
//! A turn: each side throws a die per unit (`Event::DiceRolled`), the sides
//! give their dice to their units (`Action::AssignDie`), and units act from
//! the highest die down, each moving, firing, charging or holding; opposed
//! units on equal dice throw again (`Event::TieRolled`). The optional
//! rules (initiative, a drafted pile, good commanders' extra dice) are
//! switches ([`OptionalRules`]). Every number is in
//! `tables/rulesets/ohw-acw.yaml` ([`AcwTable`]).
//!
//! The interface is the seed-000 engine's shape, ready for a rule-set trait:
//! [`GameState::new`], [`GameState::to_act`], [`GameState::legal_actions`]
//! (fixed order), [`GameState::check`], [`GameState::apply`] (a refusal
//! changes nothing and rolls no die), [`GameState::outcome`], and unit
//! queries. How foe's opponent gives out its dice is the opponent's
//! business (`host::opponent::dice`), read through this surface.
//!
//! Pure: no I/O, no clock, dice only through the `Roller` passed in.

mod engine;
mod event;
mod state;
mod table;

pub use event::{Action, Event, Modifier, Refusal, Removal, Rule};
pub use state::{
    ForceSetup, GameSetup, GameState, Outcome, Phase, SetupError, Side, Unit, UnitId, UnitSetup,
};
pub use table::{
    AcwTable, Band, Formation, FormationChange, Mode, OptionalRules, TerrainEffect, Weapon,
};

#[cfg(test)]
pub(crate) mod tests;
