//! What every game edge shares: the arguments of `foe play`, a scenario
//! read and made ready for play (`foe play`, `foe simulate`), the sides
//! named on the command line, the `--rule` switches checked against
//! the game's rule set, and a save read in any format foe has written. The play and simulate edges sit on it; it calls
//! neither.

use crate::error::{Error, Result};
use crate::host::Engine;
use crate::host::save::GameSave;
use crate::tables::Tables;
use std::path::{Path, PathBuf};

/// Arguments of `foe play`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  foe play                           Guilford Courthouse, you command the British
  foe play learning --side french --seed 7
  foe play guilford --side none      watch foe fight itself, Enter to step
  foe play --resume                  continue the last game
  foe play --resume list             the saved games, newest first
  foe play --resume guilford         the newest game whose name begins `guilford`
  foe play --baseline americans      the scripted baseline commands the Americans
  foe play guilford-ruinous --side americans   seed 001, A Ruinous Victory
  foe play henry-hill --side confederates      seed 002: assign 6 to UNIT, auto

At the prompt: `help` lists the commands, `?` or `COMMAND ?` lists what is
legal now, `end` ends the phase and `end turn` the turn. Units are named by
their map label (B3) or their name (`23rd`, `guards`).
Example turn:  move 23rd forward 6 / end / fire b4 a1 / end turn
Every game is autosaved in its own file (play-saves/ in foe's data folder)
after every action; `undo`, `undo turn`, `rewind N` and `history` take the
game back, across turns too.")]
pub struct Args {
    /// The scenario: a built-in name (guilford, guilford-rv, guilford-ruinous, henry-hill, learning, monongahela) or a file.
    #[arg(default_value = "guilford")]
    pub scenario: String,
    /// The side you command (by name, e.g. british), or `none` to watch.
    #[arg(long, value_name = "NAME")]
    pub side: Option<String>,
    /// The scripted baseline commands this side instead of foe's Lone Warrior
    /// opponent (repeatable; not a side you command).
    #[arg(long = "baseline", value_name = "SIDE", conflicts_with = "resume")]
    pub baseline: Vec<String>,
    /// Seed for the dice: the same seed and the same commands give the same game.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Continue a saved game: the newest, the one named (or the newest whose
    /// name begins so), or `list` to see them.
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    pub resume: Option<String>,
    /// In watch mode, play on without waiting for Enter.
    #[arg(long)]
    pub no_pause: bool,
    /// Print only what happened, not the opponent's reasons.
    #[arg(long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print every factor of the opponent's tests.
    #[arg(long)]
    pub verbose: bool,
    /// Draw the map after every opponent turn.
    #[arg(long)]
    pub map: bool,
    /// Map width in columns.
    #[arg(long, value_name = "COLUMNS", default_value_t = 80)]
    pub width: usize,
    /// Autosave to this file instead of a new file in `play-saves/` in foe's data folder.
    #[arg(long, value_name = "FILE")]
    pub autosave: Option<PathBuf>,
    /// Do not autosave.
    #[arg(long, conflicts_with_all = ["autosave", "resume"])]
    pub no_autosave: bool,
}

/// The indices of the sides named by `--baseline` (each by name or unique
/// prefix), in scenario order without repeats.
pub(super) fn baseline_sides(named: &[String], sides: &[&str]) -> Result<Vec<usize>> {
    let mut found = Vec::new();
    for name in named {
        match crate::suggest::resolve(name, sides.iter().copied()) {
            Ok(side) => found.extend(sides.iter().position(|s| *s == side)),
            Err(_) => return Err(Error::unknown("side", name, sides.iter().copied())),
        }
    }
    found.sort_unstable();
    found.dedup();
    Ok(found)
}

/// `--baseline` naming a side the player commands, refused in one line.
pub(super) fn refuse_the_players_side(
    baseline_sides: &[usize],
    player_sides: &[usize],
    sides: &[&str],
) -> Result<()> {
    match baseline_sides
        .iter()
        .find(|side| player_sides.contains(side))
    {
        Some(side) => Err(Error::Invalid(format!(
            "--baseline `{}`: you command that side; the baseline commands a side you do not",
            sides[*side]
        ))),
        None => Ok(()),
    }
}

/// `--rule` switches that the opponent of the game's rule set follows, or
/// a one-line error ([`crate::host::opponent::check_switches`]).
pub(super) fn check_rules(tables: &Tables, engine: Engine, ruleset: &str) -> Result<()> {
    crate::host::opponent::check_switches(tables, engine, ruleset).map_err(Error::Invalid)
}

/// Read the save at `path`, in any format foe has written; every problem
/// is one line naming the file.
pub(super) fn read_save(path: &Path) -> Result<GameSave> {
    let text = super::read_text(path)?;
    GameSave::from_json(&text)
        .map_err(|problem| Error::Invalid(format!("`{}` {problem}", path.display())))
}
