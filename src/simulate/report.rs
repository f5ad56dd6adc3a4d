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

/// The largest count a report may hold (games, game indices, summed
/// hits): far beyond any run, and low enough that merging a thousand
/// reports cannot overflow.
pub const MAX_COUNT: u64 = 1 << 48;

impl Report {
    /// Refuse a report that contradicts itself (as a hand-edited or
    /// damaged one may): counts that do not add up to its games, counts
    /// above them, ranges run backwards or overlapping, lists longer than
    /// the names they count for, names that are not one printable line.
    /// The message names the field.
    pub fn check(&self) -> Result<(), String> {
        let labels = &self.labels;
        let aggregate = &self.aggregate;
        let games = aggregate.games;
        let (sides, units) = (labels.sides.len(), labels.units.len());
        for (index, name) in labels.sides.iter().enumerate() {
            crate::names::check(&format!("labels.sides[{index}]"), name)?;
        }
        let named = [("units", &labels.units), ("generals", &labels.generals)];
        for (field, list) in named {
            for (index, (side, name)) in list.iter().enumerate() {
                crate::names::check(&format!("labels.{field}[{index}]"), name)?;
                if *side >= sides {
                    return Err(format!(
                        "labels.{field}[{index}] is on side {side} of {sides}"
                    ));
                }
            }
        }
        for (index, (side, words)) in labels.conditions.iter().enumerate() {
            let field = format!("labels.conditions[{index}]");
            if let Some(problem) = crate::names::problem(&field, words, 400) {
                return Err(problem);
            }
            if *side >= sides {
                return Err(format!("{field} is won by side {side} of {sides}"));
            }
        }
        let texts = labels
            .controllers
            .iter()
            .chain(&labels.plans)
            .chain(&labels.rules_off)
            .chain(&self.sets)
            .chain([&self.scenario, &self.title]);
        for text in texts {
            if let Some(problem) = crate::names::problem("a label", text, 400) {
                return Err(problem);
            }
        }
        if games > MAX_COUNT {
            return Err(format!(
                "aggregate.games is {games}; a report holds at most {MAX_COUNT}"
            ));
        }
        let mut last_end = None;
        for &(start, end) in &aggregate.ranges.0 {
            if start >= end || end > MAX_COUNT {
                return Err(format!(
                    "aggregate.ranges holds {start}..{end}, not a range of games below {MAX_COUNT}"
                ));
            }
            if last_end.is_some_and(|last| start <= last) {
                return Err(format!(
                    "aggregate.ranges is out of order or overlaps at {start}..{end}"
                ));
            }
            last_end = Some(end);
        }
        let in_ranges = aggregate.ranges.count();
        if in_ranges != games {
            return Err(format!(
                "aggregate.games is {games} but aggregate.ranges cover {in_ranges} games"
            ));
        }
        let lists = [
            ("wins", &aggregate.wins, sides),
            ("units_lost", &aggregate.units_lost, sides),
            ("hits", &aggregate.hits, sides),
            ("charges", &aggregate.charges, sides),
            ("routed", &aggregate.routed, units),
            ("exited", &aggregate.exited, units),
            ("conditions", &aggregate.conditions, labels.conditions.len()),
            (
                "rallies_used",
                &aggregate.rallies_used,
                labels.generals.len(),
            ),
        ];
        for (field, list, names) in lists {
            if list.len() > names {
                return Err(format!(
                    "aggregate.{field} has {} entries for {names} names",
                    list.len()
                ));
            }
            if let Some(count) = list.iter().find(|&&count| count > MAX_COUNT) {
                return Err(format!(
                    "aggregate.{field} holds {count}; a report holds at most {MAX_COUNT}"
                ));
            }
        }
        let per_game = [
            ("wins", &aggregate.wins),
            ("routed", &aggregate.routed),
            ("exited", &aggregate.exited),
            ("conditions", &aggregate.conditions),
        ];
        for (field, list) in per_game {
            if let Some((index, count)) = list.iter().enumerate().find(|(_, count)| **count > games)
            {
                return Err(format!(
                    "aggregate.{field}[{index}] is {count}, more than its {games} games"
                ));
            }
        }
        let sum = |counts: &mut dyn Iterator<Item = u64>| counts.map(u128::from).sum::<u128>();
        let decided = sum(&mut aggregate.wins.iter().copied()) + u128::from(aggregate.draws);
        if decided != u128::from(games) {
            return Err(format!(
                "aggregate.wins and draws add up to {decided}, not its {games} games"
            ));
        }
        let by_turns = sum(&mut aggregate.turns.values().copied());
        if by_turns != u128::from(games) {
            return Err(format!(
                "aggregate.turns counts {by_turns} games, not its {games}"
            ));
        }
        if aggregate.turns.keys().any(|&turns| turns > 1000) {
            return Err("aggregate.turns holds a game of more than 1000 turns".into());
        }
        let conditions = sum(&mut aggregate.conditions.iter().copied());
        if conditions > u128::from(games) {
            return Err(format!(
                "aggregate.conditions decided {conditions} games, more than its {games}"
            ));
        }
        let maps = [
            aggregate.orders.values().copied().collect::<Vec<_>>(),
            aggregate.stuck.values().flatten().copied().collect(),
            aggregate.hemmed.values().flatten().copied().collect(),
            aggregate.conduct.values().copied().collect(),
        ];
        if maps.iter().flatten().any(|&count| count > MAX_COUNT)
            || [aggregate.draws, aggregate.margins.squares]
                .iter()
                .any(|&count| count > MAX_COUNT)
            || aggregate.margins.sum.unsigned_abs() > MAX_COUNT
        {
            return Err(format!(
                "aggregate holds a count above {MAX_COUNT}; a report holds at most that"
            ));
        }
        if let Some((troop, _)) = aggregate
            .stuck
            .iter()
            .find(|(_, [bounds, stuck])| stuck > bounds)
        {
            return Err(format!(
                "aggregate.stuck[{troop}] has more bounds stuck than tested"
            ));
        }
        let margins = &aggregate.margins;
        if margins.games > games || (margins.games > 0 && margins.low > margins.high) {
            return Err(format!(
                "aggregate.margins covers {} games (of {games}) from {} to {}",
                margins.games, margins.low, margins.high
            ));
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(format!("seconds is {}, not a time", self.seconds));
        }
        Ok(())
    }

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
