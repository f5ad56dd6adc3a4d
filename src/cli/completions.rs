//! `foe completions`: shell completion scripts.

use crate::error::{Error, Result};
use std::io::Write;

/// Arguments of `foe completions`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  foe completions bash > ~/.local/share/bash-completion/completions/foe"
)]
pub struct Args {
    /// The shell to write completions for.
    pub shell: clap_complete::Shell,
}

/// Write the completion script for the chosen shell.
pub fn run(args: &Args, command: &mut clap::Command, out: &mut dyn Write) -> Result<()> {
    let mut buffer = Vec::new();
    clap_complete::generate(args.shell, command, "foe", &mut buffer);
    out.write_all(&buffer).map_err(|source| Error::Io {
        action: "write",
        path: "<stdout>".into(),
        source,
    })
}
