//! The one save format of `foe play`, for every rule set: the scenario
//! (its text, so the save replays on its own), the seed, the sides the
//! player and the baseline command, the opponent's plan rules that were
//! off, the player's actions, the record of rolls when the player rolled
//! real dice, how far a watched game had gone, a summary for listing, and
//! what made the game. foe's own actions are not saved: they are played
//! again from the seed, or from the record of rolls.
//!
//! [`GameSave::from_json`] reads every save foe has written: this format
//! (`foe-save`, version 4), seed 000's earlier one (versions 1 to 3, no
//! format name, sides by index) and the earlier one of seeds 001 and 002
//! (`foe-other-rules-save`, versions 1 to 3). The version is read before
//! anything else, so a save from a newer foe is refused as newer, not as
//! damaged. Pure: the file side (atomic writes) is `cli::saves`.

use super::run::{HostMatch, Start};
use super::{Action, Engine};
use crate::dice::{Roller, Scheme};
use crate::save::{Made, Running, ScenarioFile, VersionProblem, check_version};
use crate::scenario::Scenario;
use crate::tables::Tables;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The format's name, written first in every save.
pub const FORMAT: &str = "foe-save";
/// The version this foe writes. Versions 1 to 3 were the two earlier
/// formats' (still read); a foe that reads only those refuses this one.
pub const VERSION: u32 = 4;

/// A saved game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSave {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] when written.
    pub version: u32,
    /// The engine that played it.
    pub engine: Engine,
    /// The scenario.
    pub scenario: ScenarioFile,
    /// The dice's seed.
    pub seed: u64,
    /// How the seeded dice were drawn: absent in saves written before
    /// keyed dice, which replay from one stream as they were played
    /// (ruling P7).
    #[serde(default = "Scheme::earlier")]
    pub dice: Scheme,
    /// The sides the player commands, by name (none: watching).
    pub player_sides: Vec<String>,
    /// The sides the scripted baseline commands, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub baseline_sides: Vec<String>,
    /// The opponent's plan rules that were off (`--rule NAME=off`); a
    /// resumed game plays by them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules_off: Vec<String>,
    /// The player's actions, in order.
    pub actions: Vec<Action>,
    /// Whether the player rolled real dice; then `rolls` replays them and
    /// the resumed game asks for the player's dice again.
    #[serde(default, skip_serializing_if = "is_false")]
    pub asked: bool,
    /// Every roll of a game played with real dice, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<u8>,
    /// A watched game: how far foe had played it when it was saved, so it
    /// resumes there rather than replay to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watched: Option<Watched>,
    /// When the game began, in seconds since 1970 (UTC), as the edge gave
    /// it: it names the game's autosave. Never used to replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<u64>,
    /// The game as it stood when saved, for listing saves without
    /// replaying them. Never used to replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<About>,
    /// The foe and tables that played the game, and its dice bookkeeping,
    /// checked when it resumes (none: a save from before they were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<Made>,
    /// The sides of an earlier seed-000 save, which named them by index
    /// (player's, baseline's): [`GameSave::sides`] checks them against the
    /// scenario. Never written.
    #[serde(skip)]
    pub(crate) side_indices: Option<(Vec<usize>, Vec<usize>)>,
}

/// How far a watched game had been played when it was saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Watched {
    /// Sides' turns played (how seed 000's games are watched, a side's
    /// whole turn at a time).
    Turns(usize),
    /// foe's actions played (seeds 001 and 002, told line by line).
    Actions(usize),
}

/// A saved game in short, for a list of saves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct About {
    /// The scenario's title.
    pub title: String,
    /// The names of the sides the player commands (none: watching).
    pub player: Vec<String>,
    /// The turn.
    pub turn: u32,
    /// Of how many.
    pub turns: u32,
    /// Whether the game is over.
    pub over: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl GameSave {
    /// A save of a game under `engine`, with nothing optional in it yet.
    pub fn new(engine: Engine, scenario: ScenarioFile, seed: u64) -> GameSave {
        GameSave {
            format: FORMAT.to_string(),
            version: VERSION,
            engine,
            scenario,
            seed,
            dice: Scheme::default(),
            player_sides: Vec::new(),
            baseline_sides: Vec::new(),
            rules_off: Vec::new(),
            actions: Vec::new(),
            asked: false,
            rolls: Vec::new(),
            watched: None,
            started: None,
            about: None,
            made: None,
            side_indices: None,
        }
    }

    /// The save of `game` now: its scenario `file`, when it `started`,
    /// and the foe and tables `running` it.
    pub fn of(
        game: &HostMatch,
        file: ScenarioFile,
        started: Option<u64>,
        running: &Running,
    ) -> GameSave {
        let state = &game.game;
        let sides = state.sides();
        let names = |indices: &[usize]| -> Vec<String> {
            indices
                .iter()
                .filter_map(|s| sides.get(*s).cloned())
                .collect()
        };
        let player = names(&game.player_sides);
        let mut save = GameSave::new(state.engine(), file, game.seed);
        save.dice = game.dice;
        save.player_sides = player.clone();
        save.baseline_sides = names(game.baseline_sides());
        save.rules_off = game.tables().opponent.rules.off();
        save.actions = game.player_actions();
        save.asked = game.asks();
        save.rolls = game.rolls().to_vec();
        save.watched = game.player_sides.is_empty().then(|| game.watched());
        save.started = started;
        save.about = Some(About {
            title: game.scenario.title.clone(),
            player,
            turn: state.turn(),
            turns: state.turns(),
            over: state.is_over(),
        });
        save.made = Some(running.made(Some(game.book())));
        save
    }

    /// How far a watched game went (`Some(0)` for one saved at its
    /// start), or `None` when the player commands a side of `player_sides`.
    /// Seed 000 counts a watched game by sides' turns, the others by foe's
    /// actions, as the runner steps them; a save counted the other way is
    /// refused.
    pub fn watched_steps(&self, player_sides: &[usize]) -> Result<Option<usize>, String> {
        let by_turns = self.engine.whole_turns();
        let steps = match self.watched {
            Some(Watched::Actions(steps)) if !by_turns => steps,
            Some(Watched::Turns(steps)) if by_turns => steps,
            Some(Watched::Turns(_)) => {
                return Err(
                    "the saved game counts its watched turns by sides' turns, as only seed 000 does"
                        .into(),
                );
            }
            Some(Watched::Actions(_)) => {
                return Err(
                    "the saved game counts its watched turns by actions, as only seeds 001 and 002 do"
                        .into(),
                );
            }
            None => 0,
        };
        Ok(player_sides.is_empty().then_some(steps))
    }

    /// The game this save records, played again in the runner: `scenario`
    /// (its text in the save, validated) under `tables` (with the save's
    /// plan rules, [`GameSave::tables`]), the player and the baseline on
    /// `sides` ([`GameSave::sides`]). A seeded game replays from its seed;
    /// one played with the player's own dice replays its record of rolls,
    /// each checked against its die, and `dice` rolls on where the record
    /// ends in foe's turn. A watched game stops where it was saved.
    pub fn replay(
        &self,
        scenario: Arc<Scenario>,
        tables: Arc<Tables>,
        sides: (Vec<usize>, Vec<usize>),
        dice: Box<dyn Roller>,
    ) -> Result<HostMatch, String> {
        let (player_sides, baseline_sides) = sides;
        let start = Start::new(scenario, tables, self.seed)
            .dice_drawn(self.dice)
            .baseline_sides(baseline_sides);
        if let Some(steps) = self.watched_steps(&player_sides)? {
            let record = self.asked.then(|| (&self.rolls[..], dice));
            return start.replay_watched(steps, record);
        }
        let start = start.player_sides(player_sides);
        if self.asked {
            start.resume_recorded(&self.actions, &self.rolls, dice)
        } else {
            start.replay(&self.actions)
        }
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Read a save's text, in any format foe has written. The message
    /// completes a sentence that begins with the file's name.
    pub fn from_json(text: &str) -> Result<GameSave, String> {
        crate::yaml::json::check_unnamed(text)
            .map_err(|problem| format!("is not a foe play save: {problem}"))?;
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|error| format!("is not a foe play save: {error}"))?;
        match value.get("format").map(|format| format.as_str()) {
            None => super::engines::earlier_seed_000_save(value),
            Some(Some(FORMAT)) => {
                version(&value, VERSION)?;
                serde_json::from_value(value)
                    .map_err(|error| format!("is not a foe play save: {error}"))
            }
            Some(Some(earlier::OTHER_RULES)) => earlier::other_rules(value),
            Some(Some(crate::companion::FORMAT)) => {
                Err("is a `foe companion` save: resume it with `foe companion --resume`".into())
            }
            Some(_) => Err("is not a foe play save: its `format` is not foe's".into()),
        }
    }

    /// The sides the player and the baseline command, as indices into the
    /// scenario's `sides` (their names, in order), each checked: a side the
    /// scenario lacks, or one side given to both, is a message.
    pub fn sides(&self, sides: &[String]) -> Result<(Vec<usize>, Vec<usize>), String> {
        let (player, baseline) = match &self.side_indices {
            Some((player, baseline)) => {
                let count = sides.len();
                if let Some(side) = player.iter().find(|&&side| side >= count) {
                    return Err(format!(
                        "the saved game names side {side}, but the scenario has {count} sides"
                    ));
                }
                if let Some(side) = baseline.iter().find(|&&side| side >= count) {
                    return Err(format!(
                        "the saved game gives the baseline side {side}, but the scenario has {count} sides"
                    ));
                }
                (player.clone(), baseline.clone())
            }
            None => {
                let find = |name: &String| {
                    sides.iter().position(|side| side == name).ok_or_else(|| {
                        format!(
                            "the saved game names no side `{name}` (its scenario has {})",
                            sides.join(", ")
                        )
                    })
                };
                let player = self
                    .player_sides
                    .iter()
                    .map(find)
                    .collect::<Result<_, _>>()?;
                let baseline = self
                    .baseline_sides
                    .iter()
                    .map(find)
                    .collect::<Result<_, _>>()?;
                (player, baseline)
            }
        };
        if let Some(&side) = baseline.iter().find(|side| player.contains(side)) {
            // An earlier seed-000 save named its sides by index.
            let which = match &self.side_indices {
                Some(_) => format!("side {side}"),
                None => format!("the {}", sides[side]),
            };
            return Err(format!(
                "the saved game gives {which} both to the player and to the baseline"
            ));
        }
        Ok((player, baseline))
    }

    /// `tables` with the opponent's plan rules as the saved game had them,
    /// whatever this run's are; a rule this foe does not have is a message.
    pub fn tables(&self, tables: &Tables) -> Result<Tables, String> {
        let mut switched = tables.clone();
        switched
            .opponent
            .rules
            .restore_off(&self.rules_off)
            .map_err(|name| {
                format!(
                    "the saved game switches off the opponent rule `{name}`, which this foe does not have"
                )
            })?;
        Ok(switched)
    }

    /// Whether the save was played by `engine`, which plays its scenario
    /// here; a scenario under another engine (a save edited by hand) would
    /// replay as a different game, and is a message.
    pub fn check_engine(&self, engine: Option<Engine>, ruleset: &str) -> Result<(), String> {
        if engine == Some(self.engine) {
            Ok(())
        } else {
            Err(format!(
                "is a {} game, but its scenario is played under rule set `{ruleset}`",
                self.engine.seed()
            ))
        }
    }

    /// The save in a line, for `--resume list`, without replaying it.
    pub fn describe(&self) -> String {
        let Some(about) = &self.about else {
            let who = if self.player_sides.is_empty() && self.side_indices.is_none() {
                "watching".to_string()
            } else if self.player_sides.is_empty() {
                "an older save".to_string()
            } else {
                format!("you: {}", self.player_sides.join(", "))
            };
            return format!(
                "{} ({}); {who}; {} actions",
                self.scenario.shown_as,
                self.engine.seed(),
                self.actions.len()
            );
        };
        let who = if about.player.is_empty() {
            "watching".to_string()
        } else {
            format!("you: {}", about.player.join(", "))
        };
        let turn = if about.over {
            "over".to_string()
        } else {
            format!("turn {}/{}", about.turn, about.turns)
        };
        format!("{}; {who}; {turn}", about.title)
    }
}

/// The version check every format makes first, in the words a player
/// reads.
pub(crate) fn version(value: &serde_json::Value, reads: u32) -> Result<u32, String> {
    check_version(value, reads).map_err(|problem| match problem {
        VersionProblem::Missing => "is not a foe play save: it has no `version`".to_string(),
        VersionProblem::Newer(version) => format!(
            "was saved by a newer foe (format {version}, this foe reads {VERSION}); it is left untouched"
        ),
        VersionProblem::NotAVersion(found) => {
            format!("is not a foe play save: `{found}` is not a format version")
        }
    })
}

/// The format seeds 001 and 002 were saved in before this one, read into
/// it (seed 000's earlier format is its adapter's:
/// [`super::engines::earlier_seed_000_save`]).
mod earlier {
    use super::{Action, Engine, GameSave, Made, ScenarioFile, Scheme, Watched};
    use serde::Deserialize;

    /// The earlier format name of seeds 001 and 002's saves.
    pub(super) const OTHER_RULES: &str = "foe-other-rules-save";

    /// Seeds 001 and 002's saves, versions 1 to 3 (2 for the player's own
    /// dice, 3 with `made`).
    #[derive(Deserialize)]
    struct OtherRulesSave {
        #[allow(dead_code)]
        format: String,
        #[allow(dead_code)]
        version: u32,
        engine: Engine,
        scenario: ScenarioFile,
        seed: u64,
        player_sides: Vec<String>,
        #[serde(default)]
        baseline_sides: Vec<String>,
        #[serde(default)]
        rules_off: Vec<String>,
        actions: Vec<Action>,
        #[serde(default)]
        asked: bool,
        #[serde(default)]
        rolls: Vec<u8>,
        #[serde(default)]
        watched_actions: Option<usize>,
        #[serde(default)]
        made: Option<Made>,
    }

    /// Read a seed-001 or seed-002 save of versions 1 to 3.
    pub(super) fn other_rules(value: serde_json::Value) -> Result<GameSave, String> {
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(1..=3) => {}
            Some(found) => {
                return Err(format!(
                    "was written by another foe (save version {found} of `{OTHER_RULES}`; this foe reads 1 to 3)"
                ));
            }
            None => return Err("is not a foe play save: it has no `version`".into()),
        }
        let save: OtherRulesSave =
            serde_json::from_value(value).map_err(|error| format!("is damaged: {error}"))?;
        Ok(GameSave {
            player_sides: save.player_sides,
            baseline_sides: save.baseline_sides,
            rules_off: save.rules_off,
            actions: save.actions,
            asked: save.asked,
            rolls: save.rolls,
            watched: save.watched_actions.map(Watched::Actions),
            made: save.made,
            dice: Scheme::earlier(),
            ..GameSave::new(save.engine, save.scenario, save.seed)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ruinous() -> ScenarioFile {
        let (file, text) = crate::scenario::builtin("guilford-ruinous").expect("built in");
        ScenarioFile {
            shown_as: file.to_string(),
            text: text.to_string(),
        }
    }

    /// A save is written as version 4 and reads back as it was.
    #[test]
    fn a_save_reads_back_as_written() {
        let mut save = GameSave::new(Engine::Rv, ruinous(), 5);
        save.player_sides = vec!["british".into()];
        save.asked = true;
        save.rolls = vec![4, 2];
        save.watched = Some(Watched::Actions(7));
        save.made = Some(crate::save::Running::new(None).made(None));
        let json = save.to_json();
        assert!(json.contains("\"format\": \"foe-save\""), "{json}");
        assert!(json.contains("\"version\": 4"), "{json}");
        assert!(json.contains("\"actions\": 7"), "{json}");
        assert_eq!(GameSave::from_json(&json).unwrap(), save);
        let newer = json.replace("\"version\": 4", "\"version\": 5");
        assert_eq!(
            GameSave::from_json(&newer).unwrap_err(),
            "was saved by a newer foe (format 5, this foe reads 4); it is left untouched"
        );
        let unknown = json.replace("\"seed\"", "\"sead\"");
        assert!(GameSave::from_json(&unknown).is_err());
    }

    /// The earlier formats read into this one: seed 000's sides by index,
    /// checked against the scenario when it resumes; the other rules'
    /// sides by name.
    #[test]
    fn earlier_formats_read_into_the_one() {
        let text = r#"{"version": 2, "scenario": {"shown_as": "x", "text": ""}, "seed": 1,
            "player_sides": [1], "actions": [], "baseline_sides": [0], "steps": 0}"#;
        let save = GameSave::from_json(text).unwrap();
        assert_eq!(save.engine, Engine::Awi);
        let sides = ["british".to_string(), "americans".to_string()];
        assert_eq!(save.sides(&sides), Ok((vec![1], vec![0])));
        assert_eq!(
            save.sides(&sides[..1]),
            Err("the saved game names side 1, but the scenario has 1 sides".into())
        );
        let other = r#"{"format": "foe-other-rules-save", "version": 2, "engine": "rv",
            "scenario": {"shown_as": "x", "text": ""}, "seed": 1,
            "player_sides": ["americans"], "actions": [], "asked": true, "rolls": [3],
            "watched_actions": 4}"#;
        let save = GameSave::from_json(other).unwrap();
        assert_eq!(save.engine, Engine::Rv);
        assert_eq!(save.watched, Some(Watched::Actions(4)));
        assert_eq!(save.sides(&sides), Ok((vec![1], vec![])));
        let mut renamed = save.clone();
        renamed.player_sides = vec!["french".into()];
        assert_eq!(
            renamed.sides(&sides),
            Err(
                "the saved game names no side `french` (its scenario has british, americans)"
                    .into()
            )
        );
        let later = other.replace("\"version\": 2", "\"version\": 4");
        assert!(
            GameSave::from_json(&later)
                .unwrap_err()
                .starts_with("was written by another foe"),
        );
        // Written again, an earlier save is in this format.
        let again = GameSave::from_json(&save.to_json()).unwrap();
        assert_eq!(again.format, FORMAT);
        assert_eq!(again.version, VERSION);
        assert_eq!(
            again,
            GameSave {
                format: FORMAT.into(),
                version: VERSION,
                ..save
            }
        );
    }

    #[test]
    fn a_companion_save_or_a_strange_format_is_named() {
        let companion = format!(
            r#"{{"format": "{}", "version": 2}}"#,
            crate::companion::FORMAT
        );
        assert!(
            GameSave::from_json(&companion)
                .unwrap_err()
                .contains("foe companion --resume")
        );
        assert_eq!(
            GameSave::from_json(r#"{"format": 7, "version": 4}"#).unwrap_err(),
            "is not a foe play save: its `format` is not foe's"
        );
    }
}
