//! The names a study's report prints with, and which way a game was won,
//! read through the engine boundary for every rule set, so the report,
//! `--json`, `--merge` and `--csv` treat every rule set alike.

use super::{Labels, Study};
use crate::host::command::ControllerKind;
use crate::host::{Game, Verdict};

impl Study {
    /// The names a report prints with, read off a game not yet played.
    pub fn labels(&self) -> Labels {
        let Ok(game_match) = self.start(0) else {
            return Labels::default();
        };
        let game = &game_match.game;
        let sides = game.sides();
        let conduct = game_match.conduct();
        Labels {
            units: game
                .units()
                .into_iter()
                .map(|unit| (unit.side, unit.name))
                .collect(),
            generals: conduct.generals,
            conditions: game.victory_words(&self.scenario),
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
            plans: game_match.plans(),
            rules_off: self.tables.opponent.rules.off(),
            sides,
        }
    }
}

/// Which of [`Game::victory_words`] decided a game won with `verdict`.
pub(super) fn condition_of(game: &Game, verdict: &Verdict) -> Option<usize> {
    let winner = verdict.winner?;
    match game.own_endings() {
        Some(endings) => endings
            .iter()
            .position(|(side, words)| *side == winner && *words == verdict.reason),
        // The engine says which of the scenario's conditions fired.
        None => game.condition_met(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;
    use crate::simulate::GameSummary;
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
            table: None,
            fields: crate::host::opponent::awi::FieldCache::default(),
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
            let game_match = study.play(0).unwrap();
            let summary = GameSummary::of(&game_match, 0);
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
            let conditions = game_match.game.victory_words(&study.scenario);
            match (summary.winner, summary.condition) {
                (Some(winner), Some(condition)) => {
                    assert_eq!(conditions[condition].0, winner, "{name}")
                }
                (None, condition) => assert_eq!(condition, None, "{name}"),
                (Some(_), None) => panic!("{name}: a win with no condition"),
            }
            let tested: u32 = summary.orders.values().sum();
            let foe_units = game_match
                .opponent()
                .expect("foe's boundary opponent")
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
