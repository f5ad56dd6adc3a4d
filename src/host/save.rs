//! A saved game over the boundary: the scenario (its text, so the save
//! replays on its own), the seed, the sides the player commands and the
//! player's actions, with a format name and version read first. foe's own
//! actions are not saved: they are played again from the seed, or, in a
//! game played with the player's own dice (`--dice ask`), from the record
//! of every roll the save keeps. Pure: the file side (atomic writes) is
//! `cli::saves`.

use super::{Action, Engine};
use crate::save::ScenarioFile;
use serde::{Deserialize, Serialize};

/// The format's name, written first in every save.
pub const FORMAT: &str = "foe-other-rules-save";
/// The version earlier foes wrote for a game played with seeded dice (so
/// such saves still loaded in a foe from before `--dice ask`); still read.
pub const VERSION: u32 = 1;
/// The version earlier foes wrote for a game played with the player's own
/// dice (`asked`, `rolls`): a foe that reads only [`VERSION`] would ignore
/// the record of rolls and replay a different game, so it must refuse it.
pub const VERSION_ASKED: u32 = 2;

/// The version this foe writes for every game: `made` (what foe and
/// tables played it, and its dice bookkeeping) is checked when it resumes,
/// so a foe that reads only versions 1 and 2 must refuse it.
pub const VERSION_MADE: u32 = 3;

/// A saved game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostSave {
    /// Always [`FORMAT`].
    pub format: String,
    /// The save's version.
    pub version: u32,
    /// The engine that played it.
    pub engine: Engine,
    /// The scenario.
    pub scenario: ScenarioFile,
    /// The dice's seed.
    pub seed: u64,
    /// The sides the player commands, by name.
    pub player_sides: Vec<String>,
    /// The sides the scripted baseline commands, by name (none: left out
    /// of the file, so saves without one read as before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub baseline_sides: Vec<String>,
    /// The plan rules switched off for the game (`--rule`), by name, so a
    /// resumed game is played by its own rules (none: left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules_off: Vec<String>,
    /// The player's actions, in order.
    pub actions: Vec<Action>,
    /// Whether the player rolled real dice; then `rolls` replays them and
    /// the resumed game asks for the player's dice again (false: left out,
    /// so seeded saves read and write as before).
    #[serde(default, skip_serializing_if = "is_false")]
    pub asked: bool,
    /// Every roll of a game played with real dice, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<u8>,
    /// A watched game (no side the player's): how many actions foe had
    /// played when it was saved, so it resumes there rather than replay
    /// to the end (none: left out; a player's game stops at their turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watched_actions: Option<usize>,
    /// The foe and tables that played the game, and its dice bookkeeping,
    /// checked when it resumes (none: a save from before version 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<crate::save::Made>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    version: Option<u32>,
}

impl HostSave {
    /// Whether `text` is a save of this kind (rather than a seed-000 one).
    pub fn is_one(text: &str) -> bool {
        serde_json::from_str::<Header>(text).is_ok_and(|h| h.format.as_deref() == Some(FORMAT))
    }

    /// The save as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Read a save: the format and version first, then the rest; every
    /// problem is a message.
    pub fn from_json(text: &str) -> Result<HostSave, String> {
        crate::yaml::json::check_unnamed(text).map_err(|e| format!("is not a foe save: {e}"))?;
        let header: Header =
            serde_json::from_str(text).map_err(|e| format!("is not a foe save: {e}"))?;
        if header.format.as_deref() != Some(FORMAT) {
            return Err("is not a save of a seed-001 or seed-002 game".into());
        }
        // Version 1 saves with `asked` were written by the first foe with
        // `--dice ask`, before it wrote version 2 for them: both read.
        match header.version {
            Some(VERSION | VERSION_ASKED | VERSION_MADE) => {}
            Some(v) => {
                return Err(format!(
                    "was written by another foe (save version {v}; this foe reads {VERSION} to {VERSION_MADE})"
                ));
            }
            None => return Err("has no version".into()),
        }
        serde_json::from_str(text).map_err(|e| format!("is damaged: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn save(asked: bool) -> HostSave {
        let (file, text) = crate::scenario::builtin("guilford-ruinous").expect("built in");
        HostSave {
            format: FORMAT.to_string(),
            version: VERSION_MADE,
            engine: Engine::Rv,
            scenario: ScenarioFile {
                shown_as: file.to_string(),
                text: text.to_string(),
            },
            seed: 5,
            player_sides: vec!["british".into()],
            baseline_sides: Vec::new(),
            rules_off: Vec::new(),
            actions: Vec::new(),
            asked,
            rolls: if asked { vec![4, 2] } else { Vec::new() },
            watched_actions: None,
            made: Some(crate::save::Running::new(None).made(None)),
        }
    }

    /// Every save is written as version 3, which a foe reading only
    /// versions 1 and 2 refuses (rather than replay it without checking
    /// what made it). This foe still reads the saves of earlier foes:
    /// version 1 (seeded dice, and the first saves with a record of rolls)
    /// and version 2 (the player's dice), with no `made`; a newer one is
    /// refused.
    #[test]
    fn saves_are_version_3_and_earlier_versions_still_read() {
        for asked in [true, false] {
            let save = save(asked);
            let json = save.to_json();
            assert!(json.contains("\"version\": 3"), "{json}");
            assert!(json.contains("\"made\""), "{json}");
            assert_eq!(HostSave::from_json(&json).unwrap(), save);
        }
        for (version, asked) in [(1, false), (1, true), (2, true)] {
            let early = HostSave {
                version,
                made: None,
                ..save(asked)
            };
            let json = early.to_json();
            assert!(!json.contains("\"made\""), "{json}");
            assert_eq!(HostSave::from_json(&json).unwrap(), early);
        }
        let newer = HostSave {
            version: 4,
            ..save(true)
        };
        assert_eq!(
            HostSave::from_json(&newer.to_json()).unwrap_err(),
            "was written by another foe (save version 4; this foe reads 1 to 3)"
        );
    }
}
