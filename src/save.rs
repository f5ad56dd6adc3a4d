//! Saves, the pure part shared by `foe play` and `foe companion`: replaying
//! recorded dice with every roll checked, the version check every save
//! format makes before anything else, and the names and dates of autosaves.
//!
//! A save is a record (the actions, and the rolls when the player rolled
//! real dice) that is replayed to rebuild the game. A save file is
//! untrusted input: a roll that is not a face of the die it is read for, a
//! record that runs out, or rolls left over at the end are reported as a
//! message naming what is wrong, never a panic and never a silent switch to
//! other dice. Writing files (atomically, never over a device) is the
//! edge's business, in `cli::saves`; nothing here reads a clock or a file.

use crate::dice::{Die, Roller};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Where a game's scenario came from, kept in its save (every engine's) so
/// the save replays on its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioFile {
    /// The name shown in messages (a path or `scenarios/x.yaml`).
    pub shown_as: String,
    /// The scenario's YAML text.
    pub text: String,
}

/// Recorded rolls handed back in order, each checked against the die it is
/// read for. The first problem is kept (later rolls are then meaningless)
/// and a legal face is returned in its place, so the rules carry on to the
/// end of the action and the caller reports the problem, not a panic.
#[derive(Debug, Default)]
pub struct Replay {
    rolls: VecDeque<u8>,
    /// How many rolls have been read.
    read: usize,
    problem: Option<String>,
}

impl Replay {
    /// A replay of these rolls, oldest first.
    pub fn new(rolls: impl IntoIterator<Item = u8>) -> Replay {
        Replay {
            rolls: rolls.into_iter().collect(),
            read: 0,
            problem: None,
        }
    }

    /// The first problem met so far: a roll that is not a face of its die,
    /// or a roll missing from the record.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// How many recorded rolls have not been read.
    pub fn left(&self) -> usize {
        self.rolls.len()
    }

    /// Whether the record was read to its end without a problem: the first
    /// problem, or the count of rolls left over, otherwise.
    pub fn finish(&self) -> Result<(), String> {
        if let Some(problem) = &self.problem {
            return Err(problem.clone());
        }
        match self.rolls.len() {
            0 => Ok(()),
            1 => Err("1 recorded roll left over".into()),
            left => Err(format!("{left} recorded rolls left over")),
        }
    }
}

impl Roller for Replay {
    fn roll(&mut self, die: Die) -> u8 {
        self.read += 1;
        match self.rolls.pop_front() {
            Some(value) if die.is_face(value) => value,
            Some(value) => {
                self.problem
                    .get_or_insert(format!("recorded roll {value} is not a face of the {die}"));
                lowest_face(die)
            }
            None => {
                self.problem.get_or_insert(format!(
                    "the record of rolls ends where a roll of the {die} is needed"
                ));
                lowest_face(die)
            }
        }
    }
}

/// The lowest face of a die: a stand-in after a bad record, never shown.
fn lowest_face(die: Die) -> u8 {
    match die {
        Die::D6 | Die::D100 => 1,
        Die::Average => 2,
    }
}

/// Check a save's `version` field before reading the rest, so a save from
/// a newer foe is refused as newer (its meaning cannot be known) rather
/// than as damaged. `reads` is the newest version this foe understands;
/// versions start at 1.
pub fn check_version(value: &serde_json::Value, reads: u32) -> Result<u32, VersionProblem> {
    let Some(found) = value.get("version") else {
        return Err(VersionProblem::Missing);
    };
    match found.as_u64() {
        Some(version) if version > u64::from(reads) => Err(VersionProblem::Newer(version)),
        Some(version) if version >= 1 => Ok(version as u32),
        _ => Err(VersionProblem::NotAVersion(found.to_string())),
    }
}

/// What is wrong with a save's version number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionProblem {
    /// There is no `version` field.
    Missing,
    /// A version newer than this foe reads.
    Newer(u64),
    /// The field is not a version number (zero, negative, text).
    NotAVersion(String),
}

/// A name for a file: lower case letters and digits, other runs of
/// characters turned into one `-` (`Guilford Courthouse` → `guilford-courthouse`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for character in name.chars() {
        if character.is_ascii_alphanumeric() {
            out.push(character.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_end_matches('-');
    if trimmed.is_empty() {
        "game".into()
    } else {
        trimmed.chars().take(40).collect()
    }
}

/// A date and time in UTC, from seconds since 1970.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utc {
    /// The year.
    pub year: i64,
    /// The month, 1–12.
    pub month: u32,
    /// The day of the month, 1–31.
    pub day: u32,
    /// Hours, minutes, seconds.
    pub hour: u32,
    /// Minutes.
    pub minute: u32,
    /// Seconds.
    pub second: u32,
}

impl Utc {
    /// The date and time `seconds` after 1970-01-01 00:00 UTC.
    pub fn from_unix(seconds: u64) -> Utc {
        let days = (seconds / 86_400) as i64;
        let of_day = seconds % 86_400;
        // Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z.rem_euclid(146_097);
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let shifted_month = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
        let month = if shifted_month < 10 {
            shifted_month + 3
        } else {
            shifted_month - 9
        } as u32;
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Utc {
            year,
            month,
            day,
            hour: (of_day / 3600) as u32,
            minute: (of_day / 60 % 60) as u32,
            second: (of_day % 60) as u32,
        }
    }

    /// For a file name: `2025-06-01-140502`.
    pub fn stamp(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}-{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// For people: `2025-06-01 14:05 UTC`.
    pub fn shown(&self) -> String {
        format!(
            "{:04}-{:02}-{:02} {:02}:{:02} UTC",
            self.year, self.month, self.day, self.hour, self.minute
        )
    }
}

/// The file name of a game's autosave: what it is and when it began
/// (`guilford-2025-06-01-140502.json`), so every game keeps its own.
pub fn autosave_name(what: &str, started: u64) -> String {
    format!("{}-{}.json", slug(what), Utc::from_unix(started).stamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_hands_back_its_rolls_and_reports_the_first_bad_one() {
        let mut replay = Replay::new([4, 0, 9]);
        assert_eq!(replay.roll(Die::D6), 4);
        assert_eq!(replay.roll(Die::D100), 1, "a stand-in face, not a panic");
        assert_eq!(replay.roll(Die::D6), 1);
        assert_eq!(
            replay.problem(),
            Some("recorded roll 0 is not a face of the d100")
        );
        assert!(replay.finish().is_err());
    }

    #[test]
    fn a_replay_that_runs_out_or_has_rolls_left_is_refused() {
        let mut short = Replay::new([3]);
        short.roll(Die::Average);
        assert_eq!(short.roll(Die::Average), 2);
        assert_eq!(
            short.finish(),
            Err("the record of rolls ends where a roll of the average die is needed".into())
        );
        let mut long = Replay::new([3, 4, 5]);
        long.roll(Die::D6);
        assert_eq!(long.finish(), Err("2 recorded rolls left over".into()));
        let mut exact = Replay::new([5]);
        exact.roll(Die::D6);
        assert_eq!(exact.finish(), Ok(()));
    }

    #[test]
    fn versions_are_checked_before_anything_else() {
        let check = |text: &str| check_version(&serde_json::from_str(text).unwrap(), 2);
        assert_eq!(check(r#"{"version": 2}"#), Ok(2));
        assert_eq!(check(r#"{"version": 1}"#), Ok(1));
        assert_eq!(check(r#"{"version": 3}"#), Err(VersionProblem::Newer(3)));
        assert_eq!(check(r#"{}"#), Err(VersionProblem::Missing));
        assert_eq!(
            check(r#"{"version": 0}"#),
            Err(VersionProblem::NotAVersion("0".into()))
        );
        assert_eq!(
            check(r#"{"version": "two"}"#),
            Err(VersionProblem::NotAVersion("\"two\"".into()))
        );
    }

    #[test]
    fn dates_and_names() {
        for (seconds, shown) in [
            (0, "1970-01-01 00:00 UTC"),
            (951_782_400, "2000-02-29 00:00 UTC"),
            (1_748_786_702, "2025-06-01 14:05 UTC"),
            (4_107_542_399, "2100-02-28 23:59 UTC"),
        ] {
            assert_eq!(Utc::from_unix(seconds).shown(), shown, "{seconds}");
        }
        assert_eq!(
            autosave_name("Guilford Courthouse, 1781", 1_748_786_702),
            "guilford-courthouse-1781-2025-06-01-140502.json"
        );
        assert_eq!(slug("../../etc"), "etc");
        assert_eq!(slug("***"), "game");
    }
}
