//! The command line: argument parsing and dispatch to one file per subcommand.
//!
//! This is an edge: it reads files and the environment, rolls the seeded
//! dice, and prints. Everything it shows was computed by the pure core.

use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

mod completions;

/// foe plays the enemy in your solo wargames.
#[derive(Debug, Parser)]
#[command(name = "foe", version, about, long_about = None)]
pub struct Cli {
    /// Read rule tables from this folder instead of the built-in ones.
    #[arg(long, global = true, env = "FOE_TABLES", value_name = "DIR")]
    pub tables: Option<std::path::PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

/// foe's subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print shell completions.
    Completions(completions::Args),
}

/// Run foe with these arguments, writing to `out` and `err`; returns the exit status.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let status = error.exit_code();
            let rendered = error.render();
            let target: &mut dyn Write = if error.use_stderr() { err } else { out };
            let _ = write!(
                target,
                "{}",
                if error.use_stderr() {
                    rendered.to_string()
                } else {
                    rendered.ansi().to_string()
                }
            );
            return status;
        }
    };
    let result = match cli.command {
        Command::Completions(args) => completions::run(&args, &mut Cli::command(), out),
    };
    match result {
        Ok(()) => 0,
        Err(error) => {
            if let crate::error::Error::Io { source, .. } = &error
                && source.kind() == std::io::ErrorKind::BrokenPipe
            {
                return 0;
            }
            let _ = writeln!(err, "error: {error}");
            1
        }
    }
}
