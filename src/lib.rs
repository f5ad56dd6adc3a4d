//! foe: a command-line opponent for solo historical wargamers.
//!
//! The library holds everything; `main.rs` only calls [`cli::run`]. Modules
//! in reading order: dice and tables, the reaction test and the other Lone
//! Warrior procedures, then the edges (command line, REPLs, rendering).
//! See ARCHITECTURE.md for the code map and the invariants.

#![warn(missing_docs)]

pub mod battlefield;
pub mod completion;
pub mod dice;
pub mod error;
pub mod names;
pub mod ruleset;
pub mod scenario;
pub mod suggest;
pub mod yaml;

pub mod tables;

pub mod acw;
pub mod general;
pub mod host;
pub mod melee;
pub mod reaction;
pub mod reinforce;
pub mod rules;
pub mod rv;
pub mod stats;

pub mod companion;

pub mod save;
pub mod simulate;

pub mod cli;
pub mod render;
