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
mod start;

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
    /// Read rule tables from this folder instead of the built-in ones, rule
    /// sets from its `rulesets/` (files missing there stay built-in).
    #[arg(long, global = true, env = "FOE_TABLES", value_name = "DIR")]
    pub tables: Option<PathBuf>,

    /// Roll the dice (default), or ask you to roll real dice and type the results.
    #[arg(long, global = true, value_enum, default_value_t = DiceMode::Roll)]
    pub dice: DiceMode,

    /// Switch one of the opponent's optional plan rules on or off for this
    /// run (repeatable): NAME=on|off, or all=off for pure Lone Warrior.
    /// The rules: advance-on-objective, close-to-range, general-leads,
    /// cavalry-reserve, press-home, stand-off, focus-fire,
    /// fire-on-objective, hold-the-line, fall-back, counter-attack,
    /// find-a-shot (tables/opponent.yaml says which rule sets follow each;
    /// docs/rulings.md, Plans).
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
    Play(start::Args),
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
    if let Some(dir) = dir
        && !dir.is_dir()
    {
        return Err(Error::Invalid(format!(
            "--tables `{}` is not a folder",
            dir.display()
        )));
    }
    for (file, moved) in crate::tables::RETIRED {
        if let Some(dir) = dir
            && std::fs::symlink_metadata(dir.join(file)).is_ok()
        {
            return Err(Error::Invalid(format!(
                "`{}`: foe no longer reads this file: {moved}; move your changes there and remove it",
                dir.join(file).display()
            )));
        }
    }
    let mut overridden = false;
    for text in &mut texts {
        if let Some((shown_as, content)) = table_override(dir, text.file)? {
            *text = TableText {
                file: text.file,
                shown_as,
                text: content,
            };
            overridden = true;
        }
    }
    // The built-in tables are read once a run, whoever asks.
    if !overridden {
        return Ok(Tables::embedded());
    }
    Ok(Tables::load(&texts)?)
}

/// The player's own copy of the table file `relative` (`reaction.yaml`,
/// `rulesets/ohw-acw.yaml`) in the `--tables` folder `dir`: its name as
/// messages show it and its text, or `None` when the folder has no such
/// file (the built-in one is read instead). The one way every table and
/// rule set is looked up in `--tables`.
///
/// Anything at that path that is not a regular file (a folder, a named
/// pipe, a device, a symbolic link to nothing) is an error naming it, not
/// a silent return to the built-in file: the player meant foe to read it.
/// A named pipe is refused from its metadata, never opened.
pub(crate) fn table_override(
    dir: Option<&std::path::Path>,
    relative: &str,
) -> Result<Option<(String, String)>> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    let path = dir.join(relative);
    let io_error = |source| Error::Io {
        action: "read",
        path: path.clone(),
        source,
    };
    match std::fs::symlink_metadata(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(io_error(error)),
        Ok(link) if link.file_type().is_symlink() => match std::fs::metadata(&path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::Invalid(format!(
                    "`{}` is a symbolic link to nothing; remove it to read the built-in {relative}",
                    path.display()
                )));
            }
            Err(error) => return Err(io_error(error)),
            Ok(_) => {}
        },
        Ok(_) => {}
    }
    // `read_text` looks at the metadata again before opening and refuses
    // folders, pipes and devices.
    Ok(Some((path.display().to_string(), read_text(&path)?)))
}

/// Read a text file, refusing anything too large to be a table, scenario,
/// save or army file, and anything that is not a regular file.
///
/// Every file foe reads comes through here. The size reported by the
/// system is not trusted (devices and `/proc` files report 0): reading
/// stops one byte past [`crate::yaml::MAX_FILE_BYTES`] whatever the file
/// claims. Devices, named pipes, sockets and folders are refused without
/// reading; a named pipe is opened without waiting for a writer.
pub fn read_text(path: &std::path::Path) -> Result<String> {
    read_text_limited(path, crate::yaml::MAX_FILE_BYTES)
}

/// [`read_text`] with a limit of `limit` bytes.
fn read_text_limited(path: &std::path::Path, limit: usize) -> Result<String> {
    use std::io::Read;
    let io_error = |source| Error::Io {
        action: "read",
        path: path.into(),
        source,
    };
    // Look before opening, so that a named pipe is never opened where the
    // platform has no non-blocking open below; then look again at what was
    // opened, in case the path was swapped in between.
    let before = std::fs::metadata(path).map_err(io_error)?;
    refuse_unless_regular(path, &before.file_type())?;
    let file = open_without_blocking(path).map_err(io_error)?;
    let opened = file.metadata().map_err(io_error)?;
    refuse_unless_regular(path, &opened.file_type())?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() > limit {
        return Err(Error::Invalid(format!(
            "`{}` is over {limit} bytes; foe reads files of at most {limit} bytes",
            path.display()
        )));
    }
    String::from_utf8(bytes).map_err(|error| {
        Error::Invalid(format!(
            "`{}` is not UTF-8 text (bad byte at offset {})",
            path.display(),
            error.utf8_error().valid_up_to()
        ))
    })
}

/// Refuse anything but a regular file, naming what it is instead.
fn refuse_unless_regular(path: &std::path::Path, kind: &std::fs::FileType) -> Result<()> {
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a folder"
    } else {
        special_file_kind(kind)
    };
    Err(Error::Invalid(format!(
        "`{}` is {what}, not a regular file; foe reads only regular files",
        path.display()
    )))
}

#[cfg(unix)]
fn special_file_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_kind: &std::fs::FileType) -> &'static str {
    "not a file"
}

/// Open for reading. Where the platform's flag is known, the open does not
/// wait for a writer if the path has become a named pipe since it was
/// looked at; reading a regular file is the same with or without it.
fn open_without_blocking(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    if let Some(flag) = O_NONBLOCK {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(flag);
    }
    options.open(path)
}

/// `O_NONBLOCK`, on the platforms whose value foe knows without `libc`
/// (elsewhere the look before opening is the only guard).
#[cfg(unix)]
const O_NONBLOCK: Option<i32> = if cfg!(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd",
    target_os = "dragonfly"
)) {
    Some(0x0004)
} else if cfg!(all(
    any(target_os = "linux", target_os = "android"),
    not(any(
        target_arch = "mips",
        target_arch = "mips64",
        target_arch = "sparc",
        target_arch = "sparc64"
    ))
)) {
    Some(0o4000)
} else {
    None
};

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
            // The message may quote a file, a save or the command line: one
            // line, or one a problem, with anything unprintable escaped.
            let text = error.to_string();
            let shown = match error {
                Error::Problems(_) => crate::names::escape_lines(&text),
                _ => crate::names::escape(&text),
            };
            let _ = writeln!(err, "error: {shown}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// `--rule`'s help lists every plan rule `--rule` takes.
    #[test]
    fn the_rule_flag_names_every_plan_rule() {
        let mut command = Cli::command();
        let help = command.render_long_help().to_string().replace('\n', " ");
        for name in crate::tables::RULE_NAMES {
            assert!(help.contains(name), "--rule's help lacks {name}");
        }
    }

    /// `/dev/zero` reports a size of 0 and never ends: the old cap, which
    /// trusted the reported size, read it until memory ran out.
    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading() {
        let error = read_text(std::path::Path::new("/dev/zero")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`/dev/zero` is a character device, not a regular file; foe reads only regular files"
        );
    }

    /// Opening a named pipe for reading waits for a writer; foe must not.
    #[cfg(unix)]
    #[test]
    fn named_pipes_are_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let started = Instant::now();
        let error = read_text(&fifo).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(error.to_string().ends_with(
            "pipe.yaml` is a named pipe, not a regular file; foe reads only regular files"
        ));
        // The second look, after opening, refuses it too.
        let file = open_without_blocking(&fifo).unwrap();
        let kind = file.metadata().unwrap().file_type();
        assert!(refuse_unless_regular(&fifo, &kind).is_err());
    }

    #[test]
    fn folders_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_text(dir.path()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("is a folder, not a regular file")
        );
    }

    /// The limit holds whatever the file says its size is: a file growing
    /// past it is cut at one byte over and refused.
    #[test]
    fn reading_stops_one_byte_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.yaml");
        std::fs::write(&path, "a".repeat(101)).unwrap();
        let error = read_text_limited(&path, 100).unwrap_err();
        assert!(
            error
                .to_string()
                .ends_with("big.yaml` is over 100 bytes; foe reads files of at most 100 bytes"),
            "{error}"
        );
        std::fs::write(&path, "a".repeat(100)).unwrap();
        assert_eq!(read_text_limited(&path, 100).unwrap().len(), 100);
    }

    /// Files that report no size (as `/proc` files do) are read to their end.
    #[cfg(target_os = "linux")]
    #[test]
    fn files_reporting_no_size_are_read() {
        let path = std::path::Path::new("/proc/self/status");
        assert_eq!(std::fs::metadata(path).unwrap().len(), 0);
        assert!(read_text(path).unwrap().contains("Name:"));
    }

    #[test]
    fn text_that_is_not_utf8_is_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latin1.yaml");
        std::fs::write(&path, b"name: caf\xe9\n").unwrap();
        let error = read_text(&path).unwrap_err().to_string();
        assert!(
            error.ends_with("latin1.yaml` is not UTF-8 text (bad byte at offset 9)"),
            "{error}"
        );
    }
}
