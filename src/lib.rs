//! foe: a command-line opponent for solo historical wargamers.
pub mod dice;
pub mod yaml;
