//! `foe simulate` on scenarios whose rule set is not seed 000's (seed 001
//! "A Ruinous Victory", seed 002 OHW ACW): foe's Lone Warrior opponent
//! ([`crate::host::opponent`]) on both sides through the rule-set boundary,
//! games on a rayon pool, each seeded from the study seed and its index
//! ([`crate::stats::game_seed`]), so game `i` is the same game however the
//! study is split. Prints outcome shares with 95% Wilson intervals, mean
//! turns, units lost, and for seed 001 the victory margin and its spread;
//! `--replay I` prints game `I`'s whole record.

use super::Context;
use super::simulate::Args;
use crate::error::{Error, Result};
use crate::host::run::{GameResult, play_one};
use crate::host::{Engine, engine_for};
use crate::scenario::Scenario;
use crate::tables::Tables;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

/// The scenario `argument` names, if its rule set is played through the
/// boundary rather than by seed 000's `Match`.
pub(super) fn other_rules(argument: &str, context: &Context<'_>) -> Result<Option<Scenario>> {
    let (shown_as, text) = super::check::scenario_text(argument)?;
    let scenario =
        super::check::load_scenario_text(&shown_as, &text, context.tables_dir.as_deref())?;
    Ok(match engine_for(&scenario.battlefield.ruleset.name) {
        Some(Engine::Awi) | None => None,
        Some(_) => Some(scenario),
    })
}

/// Run the study.
pub(super) fn run(
    args: &Args,
    context: &mut Context<'_>,
    scenario: Scenario,
    tables: Arc<Tables>,
) -> Result<()> {
    let unsupported = [
        (!args.sets.is_empty(), "--set"),
        (args.sweep.is_some(), "--sweep"),
        (args.balance.is_some(), "--balance"),
        (!args.baseline.is_empty(), "--baseline"),
        (args.csv.is_some(), "--csv"),
        (args.json, "--json"),
        (args.bench, "--bench"),
    ];
    if let Some((_, flag)) = unsupported.iter().find(|(given, _)| *given) {
        return Err(Error::Invalid(format!(
            "{flag} is not yet available for rule set `{}`: foe simulate plays it with --games, --seed, --first-game, --jobs and --replay",
            scenario.battlefield.ruleset.name
        )));
    }
    let scenario = Arc::new(scenario);
    if let Some(index) = args.replay {
        let (result, game_match) =
            play_one(&scenario, &tables, args.seed, index).map_err(Error::Invalid)?;
        let mut text = String::new();
        let mut turn = 0;
        for entry in &game_match.log {
            if entry.turn != turn {
                turn = entry.turn;
                let _ = writeln!(text, "-- turn {turn} --");
            }
            let _ = writeln!(text, "  {}", entry.text);
        }
        let _ = writeln!(text, "{}", describe(&game_match.game.sides(), &result));
        let _ = writeln!(
            text,
            "Replay it: foe play {} --side none --no-pause --seed {}",
            args.scenario,
            crate::stats::game_seed(args.seed, index)
        );
        return context.print(&text);
    }
    let jobs = args.jobs.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| Error::Invalid(format!("cannot start threads: {error}")))?;
    let started = Instant::now();
    let first = args.first_game;
    let results: Vec<std::result::Result<GameResult, String>> = pool.install(|| {
        (first..first + args.games)
            .into_par_iter()
            .map(|index| play_one(&scenario, &tables, args.seed, index).map(|(r, _)| r))
            .collect()
    });
    let results = results
        .into_iter()
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(Error::Invalid)?;
    let seconds = started.elapsed().as_secs_f64();
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.name.clone()).collect();
    let engine = engine_for(&scenario.battlefield.ruleset.name).unwrap_or(Engine::Awi);
    let mut text = format!(
        "{} ({}, rule set {}), {} games from game {first}, seed {}, foe on both sides\n",
        scenario.name,
        engine.seed(),
        scenario.battlefield.ruleset.name,
        results.len(),
        args.seed
    );
    text.push_str(&summary(&sides, &results));
    let _ = writeln!(text, "({seconds:.1}s)");
    context.print(&text)
}

/// One game in a line.
fn describe(sides: &[String], result: &GameResult) -> String {
    let winner = result
        .winner
        .and_then(|side| sides.get(side))
        .map_or("a draw".to_string(), |side| format!("{side} win"));
    let margin = result
        .margin
        .map_or(String::new(), |m| format!(", victory margin {m:+}"));
    format!(
        "Game {}: {winner} on turn {}: {}{margin}.",
        result.index, result.turns, result.reason
    )
}

/// The study summed up: shares with 95% Wilson intervals, turns, losses,
/// margins. Pure, so tests pin it.
pub fn summary(sides: &[String], results: &[GameResult]) -> String {
    let n = results.len() as u64;
    let mut text = String::new();
    if n == 0 {
        return text;
    }
    let width = sides.iter().map(String::len).max().unwrap_or(5).max(5) + 5;
    let share = |count: u64| {
        let (low, high) = crate::stats::wilson(count, n, 1.96);
        format!(
            "{:5.1}%  (95% {:.1}-{:.1}%)",
            100.0 * count as f64 / n as f64,
            100.0 * low,
            100.0 * high
        )
    };
    for (index, side) in sides.iter().enumerate() {
        let wins = results.iter().filter(|r| r.winner == Some(index)).count() as u64;
        let _ = writeln!(text, "  {:<width$} {}", format!("{side} win"), share(wins));
    }
    let draws = results.iter().filter(|r| r.winner.is_none()).count() as u64;
    let _ = writeln!(text, "  {:<width$} {}", "draws", share(draws));
    let mean = |values: &mut dyn Iterator<Item = f64>| {
        let values: Vec<f64> = values.collect();
        values.iter().sum::<f64>() / values.len().max(1) as f64
    };
    let _ = writeln!(
        text,
        "  mean turns {:.1}",
        mean(&mut results.iter().map(|r| f64::from(r.turns)))
    );
    let lost: Vec<String> = sides
        .iter()
        .enumerate()
        .map(|(side, name)| {
            let m = mean(
                &mut results
                    .iter()
                    .map(|r| f64::from(r.lost.get(side).copied().unwrap_or(0))),
            );
            format!("{name} {m:.1}")
        })
        .collect();
    let _ = writeln!(text, "  units lost per game: {}", lost.join(", "));
    let margins: Vec<f64> = results
        .iter()
        .filter_map(|r| r.margin.map(f64::from))
        .collect();
    if !margins.is_empty() {
        let count = margins.len() as f64;
        let mean = margins.iter().sum::<f64>() / count;
        let variance = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / count;
        let low = margins.iter().copied().fold(f64::INFINITY, f64::min);
        let high = margins.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let _ = writeln!(
            text,
            "  victory margin (house rule RV10: defender's losses less the attacker's, % of bases): mean {mean:+.1}, sd {:.1}, from {low:+.0} to {high:+.0}",
            variance.sqrt()
        );
    }
    text
}
