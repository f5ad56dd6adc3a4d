//! foe's one integration-test binary: the CLI and REPLs driven as a player would.

mod companion;
mod oracle;
mod support;
