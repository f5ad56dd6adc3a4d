//! Saves, the pure part shared by `foe play` and `foe companion`: replaying
//! recorded dice with every roll checked, the version check every save
//! format makes before anything else, what a save records of the foe that
//! wrote it (so a save that would replay as another game is never resumed
//! silently), and the names and dates of autosaves.
//!
//! **What makes the game.** Every save records a [`Made`]: foe's rules and
//! opponent fingerprint ([`fingerprint`]: a fixed FNV-1a hash of every
//! built-in table and rule set text and of [`BEHAVIOUR`]), the hash of the
//! tables in force when they were not the built-in ones (`--tables`), and
//! the dice bookkeeping: how many dice the game had drawn, a hash of their
//! faces, and a hash of every unit's place, facing and strength. A save
//! made under other tables is refused before it replays ([`check_tables`]);
//! after the replay, [`after_replay`] compares the bookkeeping: the same
//! foe must replay to the very same game (else the save was changed after
//! foe wrote it), and a save of another foe resumes with a one-line notice
//! saying whether it replayed to the same game and what differs.
//!
//! [`BEHAVIOUR`] must be bumped by every change to foe's code that changes
//! games (the golden transcripts or pinned checksums in the tests change):
//! the tables' texts are hashed as they are, but code is not.
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

/// The version of foe's game behaviour: bumped by every code change that
/// changes games (what the golden transcripts and pinned checksums show),
/// so saves of the foe before it resume with a notice.
pub const BEHAVIOUR: u32 = 14;

/// A 64-bit FNV-1a hash: fixed, the same on every machine and in every
/// build (unlike std's randomly keyed hasher).
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

impl Fnv {
    /// A hash of nothing yet.
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Add bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Fnv {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    /// Add a text and its length (so `ab`,`c` and `a`,`bc` differ).
    pub fn text(&mut self, text: &str) -> &mut Fnv {
        self.number(text.len() as u64).bytes(text.as_bytes())
    }

    /// Add a number.
    pub fn number(&mut self, value: u64) -> &mut Fnv {
        self.bytes(&value.to_le_bytes())
    }

    /// The hash as 16 hexadecimal digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// foe's rules-and-opponent fingerprint: [`BEHAVIOUR`] and every built-in
/// text that games are played by (the Lone Warrior tables, the rule sets,
/// the other rules' opponent settings, all in [`crate::tables::EMBEDDED`]
/// and [`crate::ruleset::BUILTIN`]), hashed.
pub fn fingerprint() -> String {
    static PRINT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PRINT
        .get_or_init(|| {
            let mut hash = Fnv::new();
            hash.number(u64::from(BEHAVIOUR));
            for (file, text) in crate::tables::EMBEDDED {
                hash.text(file).text(text);
            }
            for (name, _, text) in crate::ruleset::BUILTIN {
                hash.text(name).text(text);
            }
            hash.hex()
        })
        .clone()
}

/// What a save records of the foe that wrote it and of the dice its game
/// drew: what resuming checks so a save never replays as another game
/// silently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Made {
    /// The [`fingerprint`] of the foe that wrote the save.
    pub foe: String,
    /// The hash of the tables in force when they were not the built-in
    /// ones (`--tables`); none: left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<String>,
    /// The dice bookkeeping when saved (a companion save keeps its own:
    /// `seed` and `drawn`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<Book>,
}

/// The dice bookkeeping of a game: the dice drawn and where they led.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Book {
    /// How many dice the game had drawn.
    pub dice: usize,
    /// A hash of their faces, in order.
    pub faces: String,
    /// A hash of the turn and of every unit's place, facing, strength and
    /// whether it is still in play.
    pub position: String,
}

impl Book {
    /// The bookkeeping of a game that drew `rolls`, in `turn`, with its
    /// units as `units` (`(place x, place y, facing, strength, removed)`).
    pub fn of(rolls: &[u8], turn: u32, units: impl IntoIterator<Item = UnitMark>) -> Book {
        let mut position = Fnv::new();
        position.number(u64::from(turn));
        for unit in units {
            position
                .number(unit.x.to_bits())
                .number(unit.y.to_bits())
                .number(unit.facing.to_bits())
                .number(unit.strength.to_bits())
                .number(u64::from(unit.removed));
        }
        Book {
            dice: rolls.len(),
            faces: Fnv::new().bytes(rolls).hex(),
            position: position.hex(),
        }
    }

    /// What differs from `then` (the save's), in words; none when nothing.
    fn differs(&self, then: &Book) -> Option<String> {
        if self.dice != then.dice {
            Some(format!(
                "it had drawn {} dice when saved, and replays to {}",
                then.dice, self.dice
            ))
        } else if self.faces != then.faces {
            Some(format!("its {} dice replay with other faces", self.dice))
        } else if self.position != then.position {
            Some("the units replay to other places or strengths".into())
        } else {
            None
        }
    }
}

/// One unit as [`Book::of`] reads it.
#[derive(Debug, Clone, Copy)]
pub struct UnitMark {
    /// Its place, across.
    pub x: f64,
    /// Its place, up the table.
    pub y: f64,
    /// Its facing.
    pub facing: f64,
    /// Its strength left.
    pub strength: f64,
    /// Out of play.
    pub removed: bool,
}

/// This run of foe, as resuming compares it with a save's [`Made`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    /// This foe's [`fingerprint`].
    pub foe: String,
    /// The hash of this run's tables, when they are not the built-in ones.
    pub tables: Option<String>,
}

impl Running {
    /// This foe, with the hash of its `--tables` (none: the built-in ones).
    pub fn new(tables: Option<String>) -> Running {
        Running {
            foe: fingerprint(),
            tables,
        }
    }

    /// What a save written now records, with the game's bookkeeping.
    pub fn made(&self, book: Option<Book>) -> Made {
        Made {
            foe: self.foe.clone(),
            tables: self.tables.clone(),
            book,
        }
    }
}

/// Before a save replays: refuse one played under other tables than this
/// run's (the message completes a sentence naming the file). A save from
/// before saves recorded their tables cannot be checked:
/// [`after_replay`] says so.
pub fn check_tables(saved: Option<&Made>, running: &Running) -> Result<(), String> {
    let Some(saved) = saved else {
        return Ok(());
    };
    match (&saved.tables, &running.tables) {
        (then, now) if then == now => Ok(()),
        (None, None) => Ok(()),
        (Some(hash), None) => Err(format!(
            "was played under other tables (`--tables`, hash {hash}) than this run's built-in ones: resume it with the --tables folder it was played with"
        )),
        (None, Some(hash)) => Err(format!(
            "was played under the built-in tables, and this run's --tables (hash {hash}) differ: resume it without --tables (and FOE_TABLES)"
        )),
        (Some(then), Some(now)) => Err(format!(
            "was played under other tables (hash {then}) than this run's --tables (hash {now}): resume it with the tables it was played with"
        )),
    }
}

/// Who wrote a save, in words, when it was not this foe; none when it was.
fn other_foe(saved: Option<&Made>, running: &Running) -> Option<String> {
    match saved {
        None => Some("it was saved by an older foe, before saves recorded foe's rules".into()),
        Some(made) if made.foe != running.foe => Some(format!(
            "it was saved by another foe (rules and opponent {}, this foe's {})",
            made.foe, running.foe
        )),
        Some(_) => None,
    }
}

/// A replay that failed, explained: a save of another foe that no longer
/// replays (an action refused, the game over early) is told as that, not
/// as damage. `problem` completes a sentence naming the file.
pub fn replay_failed(saved: Option<&Made>, running: &Running, problem: &str) -> String {
    match other_foe(saved, running) {
        Some(who) => format!(
            "the saved game does not replay under this foe ({problem}): {who}; that foe's rules or opponent played it otherwise, or the save is damaged"
        ),
        None => problem.to_string(),
    }
}

/// After a save replayed: `Ok(None)` when this foe wrote it and it replayed
/// to the very game saved; `Ok(Some(notice))`, one line, when another foe
/// wrote it (whether it replayed to the same game, and what differs); an
/// error when this foe wrote it and it replays to another game (the save
/// was changed after it was written). `now` is the replayed game's
/// bookkeeping; `turn_then` the turn an older save says it was saved in.
pub fn after_replay(
    saved: Option<&Made>,
    running: &Running,
    now: Option<&Book>,
    turn_then: Option<(u32, u32)>,
) -> Result<Option<String>, String> {
    let differs = match (saved.and_then(|made| made.book.as_ref()), now) {
        (Some(then), Some(now)) => now.differs(then),
        _ => match turn_then {
            Some((then, now)) if then != now => Some(format!(
                "it was saved in turn {then}, and replays to turn {now}"
            )),
            _ => None,
        },
    };
    match (other_foe(saved, running), differs) {
        (None, None) => Ok(None),
        (None, Some(what)) => Err(format!(
            "does not replay to the game that was saved ({what}): it was changed after foe wrote it"
        )),
        (Some(who), Some(what)) => Ok(Some(format!(
            "note: this game replays differently under this foe ({what}): {who}"
        ))),
        (Some(who), None) if saved.is_some_and(|made| made.book.is_some()) => Ok(Some(format!(
            "note: {who}; it replays to the same game, and this foe plays on from here"
        ))),
        (Some(who), None) => Ok(Some(format!(
            "note: {who}: if they changed since, it may replay differently from the game you played"
        ))),
    }
}

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

    fn book(dice: &[u8], x: f64) -> Book {
        let unit = UnitMark {
            x,
            y: 2.0,
            facing: 0.0,
            strength: 1.0,
            removed: false,
        };
        Book::of(dice, 3, [unit])
    }

    #[test]
    fn the_hash_is_fixed_and_the_fingerprint_is_this_builds() {
        // FNV-1a 64's published test values.
        assert_eq!(Fnv::new().hex(), "cbf29ce484222325");
        assert_eq!(Fnv::new().bytes(b"a").hex(), "af63dc4c8601ec8c");
        assert_eq!(Fnv::new().bytes(b"foobar").hex(), "85944171f73967e8");
        assert_ne!(
            Fnv::new().text("ab").text("c").hex(),
            Fnv::new().text("a").text("bc").hex()
        );
        let print = fingerprint();
        assert_eq!(print.len(), 16);
        assert_eq!(print, fingerprint());
    }

    #[test]
    fn a_save_of_other_tables_is_refused_before_it_replays() {
        let built_in = Running::new(None);
        let house = Running::new(Some("00000000000000aa".into()));
        let made_built_in = built_in.made(None);
        let made_house = house.made(None);
        assert_eq!(check_tables(Some(&made_built_in), &built_in), Ok(()));
        assert_eq!(check_tables(Some(&made_house), &house), Ok(()));
        assert_eq!(
            check_tables(None, &house),
            Ok(()),
            "older saves cannot tell"
        );
        let error = check_tables(Some(&made_house), &built_in).unwrap_err();
        assert!(error.starts_with("was played under other tables (`--tables`, hash 00000000000000aa) than this run's built-in ones"), "{error}");
        let error = check_tables(Some(&made_built_in), &house).unwrap_err();
        assert!(
            error.starts_with("was played under the built-in tables"),
            "{error}"
        );
        let other = Running::new(Some("00000000000000bb".into()));
        let error = check_tables(Some(&made_house), &other).unwrap_err();
        assert!(error.contains("hash 00000000000000aa"), "{error}");
    }

    #[test]
    fn a_replay_is_compared_with_the_bookkeeping_saved() {
        let this = Running::new(None);
        let then = book(&[1, 2, 3], 5.0);
        let made = this.made(Some(then.clone()));
        // This foe, the same game: silent.
        assert_eq!(
            after_replay(Some(&made), &this, Some(&then), None),
            Ok(None)
        );
        // This foe, another game: changed after foe wrote it.
        for (now, what) in [
            (
                book(&[1, 2], 5.0),
                "it had drawn 3 dice when saved, and replays to 2",
            ),
            (book(&[1, 2, 4], 5.0), "its 3 dice replay with other faces"),
            (
                book(&[1, 2, 3], 6.0),
                "the units replay to other places or strengths",
            ),
        ] {
            let error = after_replay(Some(&made), &this, Some(&now), None).unwrap_err();
            assert_eq!(
                error,
                format!(
                    "does not replay to the game that was saved ({what}): it was changed after foe wrote it"
                )
            );
        }
        // Another foe: a notice either way, saying which.
        let other = Running {
            foe: "0123456789abcdef".into(),
            tables: None,
        };
        let same = after_replay(Some(&made), &other, Some(&then), None)
            .unwrap()
            .unwrap();
        assert!(
            same.starts_with("note: it was saved by another foe"),
            "{same}"
        );
        assert!(same.contains("it replays to the same game"), "{same}");
        let differs = after_replay(Some(&made), &other, Some(&book(&[1], 5.0)), None)
            .unwrap()
            .unwrap();
        assert!(
            differs.starts_with("note: this game replays differently under this foe (it had drawn 3 dice when saved, and replays to 1)"),
            "{differs}"
        );
        // An older save: a notice, and the turn it names compared.
        let older = after_replay(None, &this, Some(&then), Some((4, 4)))
            .unwrap()
            .unwrap();
        assert!(
            older.starts_with("note: it was saved by an older foe"),
            "{older}"
        );
        let moved = after_replay(None, &this, Some(&then), Some((4, 3)))
            .unwrap()
            .unwrap();
        assert!(
            moved.contains("(it was saved in turn 4, and replays to turn 3)"),
            "{moved}"
        );
        for notice in [same, differs, older, moved] {
            assert_eq!(notice.lines().count(), 1, "{notice}");
        }
        // A replay that fails under another foe says so, not as damage.
        assert_eq!(
            replay_failed(None, &this, "action 3 refused: the game is over"),
            "the saved game does not replay under this foe (action 3 refused: the game is over): it was saved by an older foe, before saves recorded foe's rules; that foe's rules or opponent played it otherwise, or the save is damaged"
        );
        assert_eq!(replay_failed(Some(&made), &this, "x"), "x");
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
