//! The indexes that name a unit and a general: shared by the state that
//! holds them and the actions and events that refer to them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Index of a unit in [`GameState::units`](super::GameState::units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub usize);

/// Index of a general in [`GameState::generals`](super::GameState::generals).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GeneralId(pub usize);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {}", self.0)
    }
}
