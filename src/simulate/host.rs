//! A `foe simulate` study of games told line by line (seeds 001 and 002):
//! [`Study`] plays each watched game with [`crate::host::run::HostMatch`]
//! and sums it into the same [`GameSummary`] a game told turn by turn
//! gives, so the report, `--json`, `--merge` and `--csv` treat every rule
//! set alike. It lives here, above the runner, so the
//! runner never reaches up into the study.

use super::{GameSummary, Labels, Study};
use crate::baseline::ControllerKind;
use crate::host::opponent::carry::{falls_back, rearward};
use crate::host::run::{HostMatch, Start};
use crate::host::{Game, Verdict};
use crate::scenario::{Condition, Scenario};
use std::collections::BTreeMap;

impl Study {
    /// Game `index`, not yet played, for a study told line by line (else a
    /// one-line reason: a study told turn by turn sums its games from their
    /// own record, [`Study::start`]).
    pub fn start_lines(&self, index: u64) -> Result<HostMatch, String> {
        if self.turn_by_turn().is_some() {
            return Err("this scenario's games are told turn by turn (Study::start)".into());
        }
        Start::new(
            self.scenario.clone(),
            self.tables.clone(),
            self.seed_of(index),
        )
        .baseline_sides(self.baseline_sides.clone())
        .begin()
        .map_err(|error| error.to_string())
    }

    /// Game `index` played to its end, for a study told line by line.
    pub fn play_lines(&self, index: u64) -> Result<HostMatch, String> {
        let mut game_match = self.start_lines(index)?;
        game_match.play_foe()?;
        if game_match.verdict().is_none() {
            return Err("the game stopped before its end".to_string());
        }
        Ok(game_match)
    }

    /// The names a report of a study told line by line prints with, read
    /// off a game not yet played.
    pub fn labels_of_lines(&self) -> Labels {
        let Ok(game_match) = self.start_lines(0) else {
            return Labels::default();
        };
        let game = &game_match.game;
        let sides = game.sides();
        Labels {
            units: game
                .units()
                .into_iter()
                .map(|unit| (unit.side, unit.name))
                .collect(),
            generals: Vec::new(),
            conditions: conditions(game, &self.scenario),
            controllers: (0..sides.len())
                .map(|side| {
                    let kind = if self.baseline_sides.contains(&side) {
                        ControllerKind::Baseline
                    } else {
                        ControllerKind::Foe
                    };
                    kind.name().to_string()
                })
                .collect(),
            plans: Vec::new(),
            rules_off: self.tables.opponent.rules.off(),
            sides,
        }
    }
}

/// The ways a game can be won, each with its winner, in a fixed order (what
/// [`GameSummary::condition`] indexes): seed 001's three endings (house
/// rules RV3, RV10), seed 002's scenario victory conditions.
pub fn conditions(game: &Game, scenario: &Scenario) -> Vec<(usize, String)> {
    let sides = game.sides();
    let side_name = |side: usize| sides.get(side).cloned().unwrap_or_default();
    if let Some(endings) = game.own_endings() {
        return endings;
    }
    scenario
        .victory
        .iter()
        .map(|victory| {
            let words = match &victory.when {
                Condition::RoutFraction { side, more_than } => format!(
                    "rout more than {}% of the {} units",
                    (more_than * 100.0).round(),
                    side_name(*side)
                ),
                Condition::RoutOrExit {
                    side,
                    troop_type,
                    count,
                } => format!(
                    "rout or drive off the table {count} {} unit{} of the {}",
                    scenario.battlefield.ruleset.troop(*troop_type).name,
                    if *count == 1 { "" } else { "s" },
                    side_name(*side)
                ),
                Condition::HoldArea { side, area } => {
                    format!("the {} hold {} at the end", side_name(*side), area.name)
                }
            };
            (victory.winner, words)
        })
        .collect()
}

/// Which of [`conditions`] decided a game won with `verdict`.
fn condition_of(game: &Game, verdict: &Verdict) -> Option<usize> {
    let winner = verdict.winner?;
    match game.own_endings() {
        Some(endings) => endings
            .iter()
            .position(|(side, words)| *side == winner && *words == verdict.reason),
        // The engine says which of the scenario's conditions fired.
        None => game.condition_met(),
    }
}

/// A finished game summed up as `foe simulate` counts seed 000's: result,
/// turns, units lost, hits (seed 001: bases), charges in contact, each
/// unit's fate, foe's reaction-test orders, and seed 001's margin.
pub fn summary(game_match: &HostMatch, index: u64) -> GameSummary {
    let game = &game_match.game;
    let verdict = game.verdict();
    let tally = &game_match.tally;
    let n_sides = game.sides().len();
    let mut units_lost = vec![0; n_sides];
    for unit in game.units() {
        if unit.removed && unit.side < n_sides {
            units_lost[unit.side] += 1;
        }
    }
    let mut orders = BTreeMap::new();
    for decision in game_match.opponent.decisions() {
        if let Some(outcome) = &decision.outcome {
            *orders.entry(outcome.order.id().to_string()).or_insert(0) += 1;
        }
    }
    let conduct = conduct(game_match);
    GameSummary {
        index,
        seed: game_match.seed,
        winner: verdict.as_ref().and_then(|v| v.winner),
        condition: verdict.as_ref().and_then(|v| condition_of(game, v)),
        turns: game.turn().min(game.turns()),
        units_lost,
        hits: tally.hits.clone(),
        charges: tally.charges.clone(),
        routed: tally.routed.clone(),
        exited: tally.exited.clone(),
        rallies_used: Vec::new(),
        orders,
        stuck: BTreeMap::new(),
        hemmed: BTreeMap::new(),
        margin: verdict.and_then(|v| v.margin),
        conduct,
    }
}

/// How foe carried out its orders in a game ([`crate::simulate::CONDUCT`]):
/// its withdrawals, and which of them ended nearer the enemy's side of the
/// table than they began (measured along the side's own rear); units
/// routed off on a rout order; bounds a unit began in march column with an
/// enemy in sight having done so the bound before; generals' reaction
/// tests.
fn conduct(game_match: &HostMatch) -> BTreeMap<String, u32> {
    let opponent = &game_match.opponent;
    let units = game_match.game.units();
    let mut counts: BTreeMap<String, u32> = crate::simulate::CONDUCT
        .iter()
        .map(|(name, _)| (name.to_string(), 0))
        .collect();
    let mut count = |name: &str| *counts.entry(name.to_string()).or_insert(0) += 1;
    let mut last_column: BTreeMap<usize, u32> = BTreeMap::new();
    for decision in opponent.decisions() {
        let rear = units
            .get(decision.unit)
            .map_or(0.0, |u| opponent.rear(u.side));
        if falls_back(decision.order()) && !decision.moves.is_empty() {
            count("withdrawals");
            let back: f64 = decision
                .moves
                .iter()
                .map(|(from, to)| rearward(*from, *to, rear))
                .sum();
            if back < -1e-6 {
                count("withdrawals-towards-the-enemy");
            }
        }
        if decision.routed {
            count("routed");
        }
        if decision.column_in_sight {
            if last_column
                .get(&decision.unit)
                .is_some_and(|&turn| turn + 1 == decision.turn)
            {
                count("column-in-sight");
            }
            last_column.insert(decision.unit, decision.turn);
        }
    }
    counts.insert(
        "general-tests".to_string(),
        u32::try_from(opponent.general_tests().len()).unwrap_or(u32::MAX),
    );
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;
    use crate::tables::Tables;
    use crate::yaml::Source;
    use std::sync::Arc;

    fn study(name: &str, turns: u32, baseline_sides: Vec<usize>) -> Study {
        let (file, text) = crate::scenario::builtin(name).expect("built in");
        let mut scenario =
            crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
        scenario.turns = turns;
        Study {
            scenario: Arc::new(scenario),
            tables: Arc::new(Tables::embedded()),
            seed: 7,
            baseline_sides,
            telling: crate::simulate::Telling::Lines,
        }
    }

    /// What a study sums agrees with the game it sums: every unit out of
    /// play is routed or driven off (not both), the others neither; the
    /// deciding condition is the winner's; seed 001 has a margin and seed
    /// 002 none; foe's orders are counted, the baseline's side gives none.
    #[test]
    fn a_host_game_summary_agrees_with_its_game() {
        let mut removed = 0;
        for (name, margin) in [("guilford-ruinous", true), ("henry-hill", false)] {
            let study = study(name, 6, vec![1]);
            let game_match = study.play_lines(0).unwrap();
            let summary = summary(&game_match, 0);
            let units = game_match.game.units();
            removed += units.iter().filter(|u| u.removed).count();
            for (index, unit) in units.iter().enumerate() {
                let (routed, exited) = (summary.routed[index], summary.exited[index]);
                assert_eq!(routed || exited, unit.removed, "{name}: {}", unit.name);
                assert!(!(routed && exited), "{name}: {}", unit.name);
            }
            for side in 0..2 {
                let lost = units.iter().filter(|u| u.side == side && u.removed).count();
                assert_eq!(summary.units_lost[side] as usize, lost, "{name}");
            }
            assert_eq!(summary.margin.is_some(), margin, "{name}");
            assert!((1..=6).contains(&summary.turns), "{name}");
            let conditions = conditions(&game_match.game, &study.scenario);
            match (summary.winner, summary.condition) {
                (Some(winner), Some(condition)) => {
                    assert_eq!(conditions[condition].0, winner, "{name}")
                }
                (None, condition) => assert_eq!(condition, None, "{name}"),
                (Some(_), None) => panic!("{name}: a win with no condition"),
            }
            let tested: u32 = summary.orders.values().sum();
            let foe_units = game_match
                .opponent
                .decisions()
                .iter()
                .filter(|d| d.outcome.is_some())
                .inspect(|d| assert_eq!(units[d.unit].side, 0, "{name}: the baseline's side"))
                .count();
            assert_eq!(tested as usize, foe_units, "{name}");
            assert!(tested > 0, "{name}");
            assert_eq!(game_match.baseline_sides(), &[1]);
        }
        assert!(removed > 0, "the games should lose a unit or two");
    }
}
