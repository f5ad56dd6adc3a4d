//! foe's one integration-test binary: the CLI and REPLs driven as a player would.

mod battlefield;
mod companion;
mod crash;
mod fuzz;
mod host;
mod host_simulate;
mod hostile;
mod layers;
mod malformed;
mod one_script;
mod opponent;
mod oracle;
mod play;
mod player;
mod readme;
mod rules;
mod rv;
mod saves;
mod simulate;
mod soak;
mod support;
mod svg;
mod tables;
