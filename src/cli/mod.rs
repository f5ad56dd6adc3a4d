//! The command line: argument parsing and dispatch to one file per subcommand.
//!
//! This is an edge: it reads files and the environment, rolls the seeded
//! dice, and prints. Everything it shows was computed by the pure core.

use crate::error::{Error, Result};
use crate::tables::{TableText, Tables};
use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

mod check;
pub mod companion;
mod completions;
pub mod dice;
mod general;
mod map;
mod melee;
mod play;
mod react;
mod reinforce;
mod repl;
mod route;
mod saves;
pub mod simulate;

use dice::{CliDice, DiceMode};

/// foe plays the enemy in your solo wargames.
#[derive(Debug, Parser)]
#[command(
    name = "foe",
    version,
    about = "foe plays the enemy in your solo wargames: the Lone Warrior programmed opponent",
    after_help = "\
Examples:
  foe play                                   Guilford Courthouse against foe
  foe companion --army french                foe runs the enemy army at your table
  foe react --class rangers --terrain natural --enemy-distance 5 --die 4
  foe general --nation british --count 3
  foe reinforce --army french
  foe melee --figures 8 --troop rangers --situation charging
  foe simulate guilford --games 1000"
)]
pub struct Cli {
    /// Read rule tables from this folder instead of the built-in ones (files missing there stay built-in).
    #[arg(long, global = true, env = "FOE_TABLES", value_name = "DIR")]
    pub tables: Option<PathBuf>,

    /// Roll the dice (default), or ask you to roll real dice and type the results.
    #[arg(long, global = true, value_enum, default_value_t = DiceMode::Roll)]
    pub dice: DiceMode,

    /// Switch one of the opponent's optional plan rules on or off for this
    /// run (repeatable): NAME=on|off, or all=off for pure Lone Warrior.
    /// The rules: advance-on-objective, close-to-range, general-leads,
    /// hold-the-line, fall-back, counter-attack (docs/rulings.md, Plans).
    #[arg(long = "rule", global = true, value_name = "NAME=on|off")]
    pub rules: Vec<String>,

    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// foe's subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a scenario against foe on a digital table (Guilford Courthouse by default).
    Play(play::Args),
    /// Run the enemy army for a game on a real table: an interactive prompt, bound after bound.
    Companion(companion::Args),
    /// What does this enemy unit do this bound? The Lone Warrior reaction test.
    React(react::Args),
    /// Roll random general personalities, or a general's reaction to an event.
    General(general::Args),
    /// Call up a unit of reinforcements and test whether it enters.
    Reinforce(reinforce::Args),
    /// Lone Warrior melee casualties for one side.
    Melee(melee::Args),
    /// Play many games with foe on every side: the odds of a scenario, and which knob moves them.
    Simulate(simulate::Args),
    /// Validate a scenario and list every problem with its file, line and column.
    Check(check::Args),
    /// Draw a scenario's battlefield in the terminal, or as an SVG picture.
    Map(map::Args),
    /// The route a unit would take to a point, and its cost in moves.
    Route(route::Args),
    /// Print shell completions: bash, zsh, fish, elvish, powershell.
    Completions(completions::Args),
}

/// What every subcommand gets: where to print, and how to load tables and roll dice.
pub struct Context<'a> {
    out: &'a mut dyn Write,
    tables_dir: Option<PathBuf>,
    dice_mode: DiceMode,
    /// `--rule` settings, applied to the tables as they are loaded.
    rules: Vec<String>,
}

impl Context<'_> {
    /// Load the tables: the built-in ones, overridden file by file from `--tables DIR`.
    pub fn tables(&mut self) -> Result<Tables> {
        let mut tables = load_tables(self.tables_dir.as_deref())?;
        for setting in &self.rules {
            tables
                .opponent
                .rules
                .apply_setting(setting)
                .map_err(Error::Invalid)?;
        }
        Ok(tables)
    }

    /// The dice for this run.
    pub fn dice(&self, seed: Option<u64>) -> CliDice {
        CliDice::new(self.dice_mode, seed)
    }

    /// Whether the player types their own rolls.
    pub fn asks(&self) -> bool {
        self.dice_mode == DiceMode::Ask
    }

    /// Print text to standard output.
    pub fn print(&mut self, text: &str) -> Result<()> {
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(|source| Error::Io {
                action: "write",
                path: "<stdout>".into(),
                source,
            })
    }
}

/// The built-in tables, with any file found in `dir` read instead.
pub fn load_tables(dir: Option<&std::path::Path>) -> Result<Tables> {
    let mut texts = crate::tables::embedded_texts();
    if let Some(dir) = dir {
        if !dir.is_dir() {
            return Err(Error::Invalid(format!(
                "--tables `{}` is not a folder",
                dir.display()
            )));
        }
        for text in &mut texts {
            let path = dir.join(text.file);
            if path.is_file() {
                let content = read_text(&path)?;
                *text = TableText {
                    file: text.file,
                    shown_as: path.display().to_string(),
                    text: content,
                };
            }
        }
    }
    Ok(Tables::load(&texts)?)
}

/// Read a text file, refusing anything too large to be a table or scenario.
pub fn read_text(path: &std::path::Path) -> Result<String> {
    let metadata = std::fs::metadata(path).map_err(|source| Error::Io {
        action: "read",
        path: path.into(),
        source,
    })?;
    if metadata.len() > crate::yaml::MAX_YAML_BYTES as u64 {
        return Err(Error::Invalid(format!(
            "`{}` is {} bytes; foe reads files of at most {} bytes",
            path.display(),
            metadata.len(),
            crate::yaml::MAX_YAML_BYTES
        )));
    }
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        action: "read",
        path: path.into(),
        source,
    })
}

/// Run foe with these arguments, writing to `out` and `err`; returns the exit status.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => return report_usage_error(&error, out, err),
    };
    let mut context = Context {
        out,
        tables_dir: cli.tables.clone(),
        dice_mode: cli.dice,
        rules: cli.rules.clone(),
    };
    let result = match &cli.command {
        Command::React(args) => react::run(args, &mut context),
        Command::General(args) => general::run(args, &mut context),
        Command::Reinforce(args) => reinforce::run(args, &mut context),
        Command::Melee(args) => melee::run(args, &mut context),
        Command::Check(args) => check::run(args, &mut context),
        Command::Map(args) => map::run(args, &mut context),
        Command::Route(args) => route::run(args, &mut context),
        Command::Companion(args) => companion::run(args, &mut context),
        Command::Play(args) => play::run(args, &mut context),
        Command::Simulate(args) => simulate::run(args, &mut context),
        Command::Completions(args) => completions::run(args, &mut Cli::command(), context.out),
    };
    match result {
        Ok(()) => 0,
        // A closed pipe (`foe general --count 100 | head`) is not an error.
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            1
        }
    }
}

/// Help and version go to stdout with status 0; usage errors are shortened to
/// clap's first line (plus its tip, if any) on stderr, status 2.
fn report_usage_error(error: &clap::Error, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if !error.use_stderr() {
        // Help and version: coloured only for a terminal that wants colour.
        let rendered = error.render();
        let _ = if map::colour_wanted() {
            write!(out, "{}", rendered.ansi())
        } else {
            write!(out, "{rendered}")
        };
        return 0;
    }
    let rendered = error.render().to_string();
    let mut lines = rendered
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty());
    let mut first = lines.next().unwrap_or("error: bad arguments").to_string();
    // Clap lists the missing arguments on the lines after the first; a
    // one-line message must name them itself.
    if let Some(clap::error::ContextValue::Strings(missing)) =
        error.get(clap::error::ContextKind::InvalidArg)
        && error.kind() == clap::error::ErrorKind::MissingRequiredArgument
    {
        first = format!("{first} {}", missing.join(", "));
    }
    let tip = lines.find(|line| line.starts_with("tip:"));
    let _ = match tip {
        Some(tip) => writeln!(err, "{first} ({tip}; see --help)"),
        None => writeln!(err, "{first} (see --help)"),
    };
    error.exit_code()
}
