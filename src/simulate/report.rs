//! A run as written by `--json` and read back by `--merge`.

use super::Aggregate;
use serde::{Deserialize, Serialize};

/// The version of the report format.
pub const REPORT_VERSION: u32 = 1;

/// The names a report is printed with, so a merged report needs no scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labels {
    /// Side names.
    pub sides: Vec<String>,
    /// Units, in scenario order: (side index, name).
    pub units: Vec<(usize, String)>,
    /// Generals: (side index, name).
    pub generals: Vec<(usize, String)>,
    /// Victory conditions: (winning side, in words).
    pub conditions: Vec<(usize, String)>,
    /// Who commanded each side (`foe` or `baseline`); a report written
    /// before the baseline existed has none, and foe commanded every side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<String>,
    /// Each side's plan, in words, where foe commanded it (empty for a
    /// baseline side; a report from before plans has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plans: Vec<String>,
    /// The opponent's plan rules switched off for the run (`--rule`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules_off: Vec<String>,
}

impl Labels {
    /// Who commanded each side, `foe` where the report does not say.
    pub fn controller(&self, side: usize) -> &str {
        self.controllers.get(side).map_or("foe", String::as_str)
    }
}

/// One run (or several merged).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// The scenario as named on the command line.
    pub scenario: String,
    /// Its title.
    pub title: String,
    /// [`super::text_hash`] of the scenario's text before `--set`, in hex.
    pub scenario_hash: String,
    /// The `--set` assignments, in order.
    pub sets: Vec<String>,
    /// The study's base seed.
    pub seed: u64,
    /// Names to print with.
    pub labels: Labels,
    /// The sums.
    pub aggregate: Aggregate,
    /// Whether a run was stopped before all its games were played.
    pub stopped: bool,
    /// Seconds taken (summed over merged runs).
    pub seconds: f64,
}

impl Report {
    /// Merge another run of the same study over other games. Refused in one
    /// line when the scenario, parameters or seed differ, or a game is in both.
    pub fn merge(&mut self, other: &Report) -> Result<(), String> {
        if other.version != self.version {
            return Err(format!(
                "report format {} cannot be merged with format {}",
                other.version, self.version
            ));
        }
        if other.scenario_hash != self.scenario_hash {
            return Err(format!(
                "runs of different scenarios: `{}` ({}) and `{}` ({})",
                self.scenario, self.scenario_hash, other.scenario, other.scenario_hash
            ));
        }
        if other.sets != self.sets {
            let show = |sets: &[String]| {
                if sets.is_empty() {
                    "none".to_string()
                } else {
                    sets.join(" ")
                }
            };
            return Err(format!(
                "runs with different --set: {} and {}",
                show(&self.sets),
                show(&other.sets)
            ));
        }
        let sides = self.labels.sides.len().max(other.labels.sides.len());
        let commanders = |labels: &Labels| -> Vec<String> {
            (0..sides)
                .map(|side| labels.controller(side).to_string())
                .collect()
        };
        if commanders(&self.labels) != commanders(&other.labels) {
            return Err(format!(
                "runs with different commanders: {} and {}",
                commanders(&self.labels).join("/"),
                commanders(&other.labels).join("/")
            ));
        }
        if other.labels.rules_off != self.labels.rules_off {
            let show = |rules: &[String]| {
                if rules.is_empty() {
                    "none".to_string()
                } else {
                    rules.join(", ")
                }
            };
            return Err(format!(
                "runs with different opponent rules off: {} and {}",
                show(&self.labels.rules_off),
                show(&other.labels.rules_off)
            ));
        }
        if other.seed != self.seed {
            return Err(format!(
                "runs with different seeds: {} and {}; shards of one study share --seed and differ in --first-game",
                self.seed, other.seed
            ));
        }
        self.aggregate
            .merge(&other.aggregate)
            .map_err(|error| error.to_string())?;
        self.stopped |= other.stopped;
        self.seconds += other.seconds;
        Ok(())
    }
}
