//! A companion session: the game plus the actions that made it, each with
//! the dice it rolled. That list is the game: `undo` drops the last action
//! and replays the rest with their recorded rolls, and a save file is the
//! list written out, so loading replays it. Replaying recorded rolls (never
//! re-rolling) is what makes a game with real dice (`--dice ask`) load
//! exactly as it was played.

use super::{Action, Event, Game};
use crate::dice::{Die, Roller};
use crate::error::{Error, Result};
use crate::save::{Fnv, Made, Replay, VersionProblem, check_version};
use crate::tables::Tables;
use serde::{Deserialize, Serialize};

/// The `format` field of a save file.
pub const FORMAT: &str = "foe-companion";

/// The save format this foe writes. Older formats are read; newer ones are
/// refused, since their meaning cannot be known. Version 2 added `asked`;
/// version 3 added `made` (the foe and tables that played the game) and
/// `check`, a hash of everything else in the save, so a save changed by
/// hand (its `seed` or `drawn`, which decide every later die) is refused.
pub const VERSION: u32 = 3;

/// An action that was applied, with the dice it rolled in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Played {
    /// What the player did.
    pub action: Action,
    /// The faces rolled while applying it.
    #[serde(default)]
    pub rolls: Vec<u8>,
}

/// The game and its history.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// The game now.
    pub game: Game,
    /// Every applied action, oldest first.
    pub played: Vec<Played>,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

/// A roller that passes rolls through and remembers them.
struct Recorder<'r> {
    inner: &'r mut dyn Roller,
    rolls: Vec<u8>,
}

impl Roller for Recorder<'_> {
    fn roll(&mut self, die: Die) -> u8 {
        self.roll_for(die, format_args!(""))
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        let value = self.inner.roll_for(die, why);
        self.rolls.push(value);
        value
    }
}

impl Session {
    /// A session with an empty game.
    pub fn new() -> Session {
        Session {
            game: Game::new(),
            played: Vec::new(),
        }
    }

    /// Apply an action, rolling with `roller`, and record it. A refused
    /// action changes nothing and is not recorded.
    pub fn apply(
        &mut self,
        tables: &Tables,
        action: Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>> {
        let mut recorder = Recorder {
            inner: roller,
            rolls: Vec::new(),
        };
        let (game, events) = self.game.apply(tables, &action, &mut recorder)?;
        self.game = game;
        self.played.push(Played {
            action,
            rolls: recorder.rolls,
        });
        Ok(events)
    }

    /// Take back the last action: the game is rebuilt from the others.
    /// Returns the action taken back, or `None` when there is nothing to undo.
    pub fn undo(&mut self, tables: &Tables) -> Option<Played> {
        let mut played = self.played.clone();
        let last = played.pop()?;
        // The remaining actions replayed before, with these very rolls, so
        // they replay now; if the tables changed under us, keep the game.
        match Session::replay(tables, played) {
            Ok(session) => {
                *self = session;
                Some(last)
            }
            Err(_) => None,
        }
    }

    /// Rebuild a session from recorded actions and rolls. Any action that is
    /// refused, or whose rolls do not fit, makes the record unusable.
    pub fn replay(tables: &Tables, played: Vec<Played>) -> Result<Session> {
        let mut session = Session::new();
        for (index, entry) in played.into_iter().enumerate() {
            // Every roll is checked against the die it is read for: a
            // damaged save is refused with what is wrong, never a panic.
            let mut replay = Replay::new(entry.rolls.iter().copied());
            let (game, _) = session
                .game
                .apply(tables, &entry.action, &mut replay)
                .map_err(|error| Error::Invalid(format!("action {}: {error}", index + 1)))?;
            replay
                .finish()
                .map_err(|problem| Error::Invalid(format!("action {}: {problem}", index + 1)))?;
            session.game = game;
            session.played.push(entry);
        }
        Ok(session)
    }
}

/// A save file: the session's actions and the state of the seeded dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version, [`VERSION`] when written by this foe.
    pub version: u32,
    /// The seed of the dice, so that rolls after loading continue the stream.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The dice drawn from that seed so far, to wind the stream forward.
    #[serde(default)]
    pub drawn: Vec<Die>,
    /// The actions with their rolls.
    pub actions: Vec<Played>,
    /// Whether the player rolled real dice (`--dice ask`): a resumed game
    /// asks for them again.
    #[serde(default, skip_serializing_if = "is_false")]
    pub asked: bool,
    /// The foe and tables that played the game (none: a save from before
    /// version 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<Made>,
    /// A hash of the rest of the save, written by [`SaveFile::to_json`]
    /// and checked when read (none: a save from before version 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl SaveFile {
    /// The save of a session.
    pub fn of(session: &Session, seed: Option<u64>, drawn: &[Die]) -> SaveFile {
        SaveFile {
            format: FORMAT.into(),
            version: VERSION,
            seed,
            drawn: drawn.to_vec(),
            actions: session.played.clone(),
            asked: false,
            made: None,
            check: None,
        }
    }

    /// The hash of everything in the save but its `check`.
    fn content_check(&self) -> String {
        let unchecked = SaveFile {
            check: None,
            ..self.clone()
        };
        let text = serde_json::to_string(&unchecked).unwrap_or_default();
        Fnv::new().bytes(text.as_bytes()).hex()
    }

    /// The file's text, with its `check`.
    pub fn to_json(&self) -> String {
        let checked = SaveFile {
            check: Some(self.content_check()),
            ..self.clone()
        };
        let mut text = serde_json::to_string_pretty(&checked).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Read a save file's text. The format and version are checked before
    /// anything else, so a newer file is refused as newer, not as damaged.
    pub fn from_json(text: &str) -> Result<SaveFile> {
        crate::yaml::json::check_unnamed(text)
            .map_err(|problem| Error::Invalid(format!("the save is damaged ({problem})")))?;
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|error| Error::Invalid(format!("the save is damaged ({error})")))?;
        if value.get("format").and_then(|format| format.as_str()) != Some(FORMAT) {
            return Err(Error::Invalid(format!(
                "this is not a foe companion save (no `\"format\": \"{FORMAT}\"`)"
            )));
        }
        match check_version(&value, VERSION) {
            Ok(_) => {}
            Err(VersionProblem::Newer(version)) => {
                return Err(Error::Invalid(format!(
                    "the save is format version {version}, written by a newer foe; this foe reads up to version {VERSION}"
                )));
            }
            Err(VersionProblem::Missing) => {
                return Err(Error::Invalid(
                    "the save is damaged (no version number)".into(),
                ));
            }
            Err(VersionProblem::NotAVersion(found)) => {
                return Err(Error::Invalid(format!(
                    "the save is damaged (`{found}` is not a version number)"
                )));
            }
        }
        let save: SaveFile = serde_json::from_value(value)
            .map_err(|error| Error::Invalid(format!("the save is damaged ({error})")))?;
        // From version 3 every save carries the hash of its content: one
        // changed since foe wrote it would change every later die.
        if save.version >= 3 && save.check.as_deref() != Some(save.content_check().as_str()) {
            let what = if save.check.is_some() {
                "its content does not match its `check`"
            } else {
                "it has no `check`"
            };
            return Err(Error::Invalid(format!(
                "the save was changed after foe wrote it ({what}): its seed, dice or answers are not the game that was played"
            )));
        }
        Ok(save)
    }

    /// Replay the save into a session.
    pub fn session(&self, tables: &Tables) -> Result<Session> {
        Session::replay(tables, self.actions.clone())
            .map_err(|error| Error::Invalid(format!("the save is damaged ({error})")))
    }
}
