//! `foe simulate` on scenarios whose rule set is not seed 000's (seed 001
//! "A Ruinous Victory", seed 002 OHW ACW): foe's Lone Warrior opponent
//! ([`crate::host::opponent`]) or the scripted baseline
//! ([`crate::host::baseline`]) on each side, through the rule-set boundary.
//! Each game is summed into seed 000's [`crate::simulate::GameSummary`]
//! ([`crate::simulate::host::summary`]), so the report, `--json`, `--merge`,
//! `--csv`, `--sweep` and `--balance` are seed 000's own, with seed 001's
//! victory margin added; game `i` is seeded from the study seed and `i`
//! ([`crate::stats::game_seed`]), so it is the same game however the study
//! is split. `--bench` times whole games and the stages the boundary shows.

use super::Context;
use super::check::ReadScenario;
use super::repl::write_atomically;
use super::simulate::{self as seed000, Args, STOP};
use crate::error::{Error, Result};
use crate::host::run::{HostMatch, HostStage};
use crate::host::{Engine, Game, engine_for};
use crate::render::simulate::{self as text, Point};
use crate::scenario::Scenario;
use crate::simulate::host::HostStudy;
use crate::simulate::set::{self, Assignment};
use crate::simulate::{Aggregate, REPORT_VERSION, Report, RunResult, text_hash};
use crate::tables::Tables;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// A seed-001 or seed-002 scenario, as read before any `--set`.
pub(super) struct HostScenario {
    /// The scenario as typed on the command line.
    argument: String,
    /// Its name in messages and reports.
    shown_as: String,
    /// Its text.
    text: String,
    /// Validated.
    scenario: Scenario,
    /// The engine that plays it.
    engine: Engine,
    tables_dir: Option<PathBuf>,
}

/// Which study a scenario read on the command line goes to.
pub(super) enum Studied {
    /// Seeds 001 and 002: told line by line ([`crate::host::tells_turns`]),
    /// studied here.
    Host(HostScenario),
    /// Seed 000's: studied by `cli::simulate` over `play::Match`, the
    /// runner's seed-000 view.
    Seed000(ReadScenario),
}

/// Which study `read` goes to; the scenario is not read again.
pub(super) fn other_rules(read: ReadScenario, context: &Context<'_>) -> Studied {
    let engine = engine_for(&read.scenario.battlefield.ruleset.name);
    match engine {
        Some(engine) if !crate::host::tells_turns(&read.scenario) => Studied::Host(HostScenario {
            argument: read.argument,
            shown_as: read.shown_as,
            text: read.text,
            scenario: read.scenario,
            engine,
            tables_dir: context.tables_dir.clone(),
        }),
        _ => Studied::Seed000(read),
    }
}

impl HostScenario {
    fn ruleset(&self) -> &str {
        &self.scenario.battlefield.ruleset.name
    }

    /// The study with these assignments made and these sides given to the
    /// baseline.
    fn study(
        &self,
        sets: &[Assignment],
        seed: u64,
        baseline: &[String],
        tables: &Arc<Tables>,
    ) -> Result<HostStudy> {
        let scenario = if sets.is_empty() {
            self.scenario.clone()
        } else {
            check_sets(self.engine, self.ruleset(), sets)?;
            let text =
                set::apply_to_text(&self.text, sets).map_err(|error| Error::Invalid(error.0))?;
            let scenario = super::check::load_scenario_text(
                &format!("{} (after --set)", self.shown_as),
                &text,
                self.tables_dir.as_deref(),
            )?;
            if engine_for(&scenario.battlefield.ruleset.name) != Some(self.engine) {
                return Err(Error::Invalid(
                    "--set may not change the scenario's rule set".to_string(),
                ));
            }
            scenario
        };
        let sides: Vec<&str> = scenario.sides.iter().map(|s| s.name.as_str()).collect();
        let baseline_sides = super::play::baseline_sides(baseline, &sides)?;
        Ok(HostStudy {
            scenario: Arc::new(scenario),
            tables: tables.clone(),
            seed,
            baseline_sides,
        })
    }

    fn report(
        &self,
        study: &HostStudy,
        sets: &[Assignment],
        result: RunResult,
        seconds: f64,
    ) -> Report {
        Report {
            version: REPORT_VERSION,
            scenario: self.shown_as.clone(),
            title: study.scenario.title.clone(),
            scenario_hash: format!("{:016x}", text_hash(&self.text)),
            sets: sets.iter().map(ToString::to_string).collect(),
            seed: study.seed,
            labels: study.labels(),
            aggregate: result.aggregate,
            stopped: result.stopped,
            seconds,
        }
    }
}

/// Run the study: `games` of it, with `sets` made.
pub(super) fn run(
    args: &Args,
    context: &mut Context<'_>,
    host: HostScenario,
    tables: Arc<Tables>,
    sets: &[Assignment],
    games: Range<u64>,
) -> Result<()> {
    check_rules(&tables, host.engine, host.ruleset())?;
    check_sets(host.engine, host.ruleset(), sets)?;
    if let Some(index) = args.replay {
        return replay(args, context, &host, &tables, sets, index);
    }
    let pool = seed000::pool(args.jobs)?;
    seed000::catch_ctrl_c();
    let mut point_at = |key: &str, (value, x): &(String, f64)| -> Result<Point> {
        let mut with_value = sets.to_vec();
        with_value.push(Assignment {
            key: key.to_string(),
            value: set::parse_value(value),
        });
        let study = host.study(&with_value, args.seed, &args.baseline, &tables)?;
        let result = play(
            &study,
            args.first_game..args.first_game + args.games,
            false,
            &pool,
        )?;
        Ok(Point {
            value: value.clone(),
            x: *x,
            aggregate: result.aggregate,
        })
    };
    let sides = || -> Result<Vec<String>> {
        Ok(host
            .study(sets, args.seed, &args.baseline, &tables)?
            .scenario
            .sides
            .iter()
            .map(|side| side.name.clone())
            .collect())
    };
    if let Some(sweep) = &args.sweep {
        return seed000::run_sweep(args, &sides, &host.shown_as, sweep, &mut point_at, context);
    }
    if let Some(balance) = &args.balance {
        return seed000::run_balance(args, &sides, balance, &mut point_at, context);
    }
    let study = host.study(sets, args.seed, &args.baseline, &tables)?;
    let started = Instant::now();
    let result = play(&study, games, args.csv.is_some(), &pool)?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.csv {
        write_atomically(path, &seed000::csv(&study.labels(), &result.games))?;
    }
    let report = host.report(&study, sets, result, seconds);
    if args.json {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|error| Error::Invalid(error.to_string()))?;
        context.print(&format!("{json}\n"))
    } else {
        let mut out = text::report(&report, Some(pool.current_num_threads()));
        out.push_str(&margin_text(&report.aggregate));
        context.print(&out)
    }
}

/// Play `games` on the pool, with a progress bar on a terminal.
fn play(
    study: &HostStudy,
    games: Range<u64>,
    keep_games: bool,
    pool: &rayon::ThreadPool,
) -> Result<RunResult> {
    seed000::with_progress(games.end - games.start, pool, &|tick| {
        study
            .run(games.clone(), keep_games, &STOP, tick)
            .map_err(Error::Invalid)
    })
}

/// Seed 001's victory margin under a report (nothing for rules without
/// one, so seed 000's reports are unchanged).
pub(super) fn margin_text(aggregate: &Aggregate) -> String {
    let margins = &aggregate.margins;
    if margins.is_empty() {
        return String::new();
    }
    format!(
        "\nVictory margin (house rule RV10: the defender's losses less the attacker's, % of bases)\n  mean {:+.1}, sd {:.1}, from {:+} to {:+} ({} games)\n",
        margins.mean(),
        margins.sd(),
        margins.low,
        margins.high,
        margins.games
    )
}

/// `--rule` switches that reach the host opponent, or a one-line error
/// (ruling HO8, [`crate::host::opponent::Settings::check_switches`]).
pub(super) fn check_rules(
    tables: &Tables,
    engine: crate::host::Engine,
    ruleset: &str,
) -> Result<()> {
    crate::host::opponent::Settings::of(tables)?
        .check_switches(tables, engine, ruleset)
        .map_err(Error::Invalid)
}

/// Refuse, in one line, a `--set` key that means nothing under the
/// engine's rules (a general's `rallies` under seed 001, a unit's
/// `strength` under seed 002), naming the valid keys there and the nearest
/// to a typo.
fn check_sets(engine: Engine, ruleset: &str, sets: &[Assignment]) -> Result<()> {
    // Seed 000's keys are checked by validating the changed scenario.
    let Some(keys) = engine.scenario_keys() else {
        return Ok(());
    };
    for assignment in sets {
        let steps: Vec<&str> = assignment.key.split('.').collect();
        let (step, valid, what) = match steps.as_slice() {
            ["sides"] | ["sides", _] => continue,
            ["sides", _, field] => (*field, keys.side, "a side's"),
            ["sides", _, "units", _] | ["sides", _, "generals", _] => continue,
            ["sides", _, "units", _, field, ..] => (*field, keys.unit, "a unit's"),
            ["sides", _, "generals", _, field, ..] => (*field, keys.general, "a general's"),
            ["sides", _, field, ..] => (*field, keys.side, "a side's"),
            [top, ..] => (*top, keys.top, "the scenario's"),
            [] => continue,
        };
        if valid.contains(&step) {
            continue;
        }
        let hint = match crate::suggest::nearest(step, valid.iter().copied()) {
            Some(near) => format!("did you mean `{near}`? "),
            None => String::new(),
        };
        return Err(Error::Invalid(format!(
            "--set `{}`: `{step}` means nothing under rule set `{ruleset}` ({}); {hint}{what} keys there: {}",
            assignment.key,
            engine.seed(),
            valid.join(", ")
        )));
    }
    Ok(())
}

/// `--replay I`: game I's whole record, and the `foe play` line that
/// replays it.
fn replay(
    args: &Args,
    context: &mut Context<'_>,
    host: &HostScenario,
    tables: &Arc<Tables>,
    sets: &[Assignment],
    index: u64,
) -> Result<()> {
    let study = host.study(sets, args.seed, &args.baseline, tables)?;
    let game_match = study.play(index).map_err(Error::Invalid)?;
    let mut out = String::new();
    let mut turn = 0;
    for entry in &game_match.log {
        if entry.turn != turn {
            turn = entry.turn;
            let _ = writeln!(out, "-- turn {turn} --");
        }
        let _ = writeln!(out, "  {}", entry.text);
    }
    let _ = writeln!(out, "{}", describe(&game_match, index));
    if !sets.is_empty() {
        out.push_str(
            "(foe play replays it only from a copy of the scenario with the --set changes made)\n",
        );
    }
    let sides = game_match.game.sides();
    let baseline: String = study
        .baseline_sides
        .iter()
        .filter_map(|side| sides.get(*side))
        .map(|side| format!(" --baseline {}", seed000::shell_word(side)))
        .collect();
    let _ = writeln!(
        out,
        "Replay it: foe play {} --side none{baseline}{} --no-pause --seed {}",
        seed000::shell_word(&host.argument),
        seed000::rule_words(&tables.opponent.rules),
        study.seed_of(index)
    );
    context.print(&out)
}

/// One game in a line.
fn describe(game_match: &HostMatch, index: u64) -> String {
    let sides = game_match.game.sides();
    let Some(verdict) = game_match.verdict() else {
        return format!("Game {index}: not finished.");
    };
    let winner = verdict
        .winner
        .and_then(|side| sides.get(side))
        .map_or("a draw".to_string(), |side| format!("{side} win"));
    let margin = verdict
        .margin
        .map_or(String::new(), |m| format!(", victory margin {m:+}"));
    format!(
        "Game {index}: {winner} on turn {}: {}{margin}.",
        game_match.game.turn(),
        verdict.reason
    )
}

/// `--bench` on a seed-001 or seed-002 scenario (with any `--set`, game *i*
/// seeded from `seed` and *i*): whole
/// games per second on one core with foe on both sides, and with random
/// legal actions (the rules engine alone, through the boundary), then how
/// a game's time splits between foe deciding, the rules engine, and the
/// records, from a separate pass with a clock at each change of stage.
pub(super) fn bench(
    host: &HostScenario,
    sets: &[Assignment],
    seed: u64,
    context: &mut Context<'_>,
    seconds: f64,
) -> Result<()> {
    use rand::{RngExt, SeedableRng};
    let tables = Arc::new(context.tables()?);
    check_rules(&tables, host.engine, host.ruleset())?;
    check_sets(host.engine, host.ruleset(), sets)?;
    let study = host.study(sets, seed, &[], &tables)?;
    let name = &host.argument;
    let rate = |play_one: &mut dyn FnMut(u64)| {
        let started = Instant::now();
        let mut games = 0;
        while games < 3 || started.elapsed().as_secs_f64() < seconds {
            play_one(games);
            games += 1;
        }
        games as f64 / started.elapsed().as_secs_f64()
    };
    let foe_rate = rate(&mut |index| {
        std::hint::black_box(study.play(index).ok());
    });
    let mut legal_time = 0.0;
    let mut apply_time = 0.0;
    let mut actions = 0u64;
    let mut engine_games = 0u64;
    let engine_rate = rate(&mut |index| {
        let mut dice = crate::dice::Seeded::new(study.seed_of(index));
        let Ok((mut game, _)) = Game::start(&study.scenario, &tables, &mut dice) else {
            return;
        };
        engine_games += 1;
        let mut chooser = rand::rngs::ChaCha8Rng::seed_from_u64(index ^ 0x5eed);
        let mut steps = 0;
        while !game.is_over() && steps < 20_000 {
            steps += 1;
            let clock = Instant::now();
            let legal = game.legal_actions();
            legal_time += clock.elapsed().as_secs_f64();
            let Some(action) =
                (!legal.is_empty()).then(|| legal[chooser.random_range(0..legal.len())].clone())
            else {
                break;
            };
            let clock = Instant::now();
            let _ = game.apply(&action, &mut dice);
            apply_time += clock.elapsed().as_secs_f64();
            actions += 1;
        }
    });
    // Time by stage: the game names each stage it enters; the clock is here.
    let mut stage_seconds = [0.0; 3];
    let mut stage_games = 0u64;
    let started = Instant::now();
    while stage_games < 3 || started.elapsed().as_secs_f64() < seconds {
        let mut game_match = study.start(stage_games).map_err(Error::Invalid)?;
        let mut stage = HostStage::Records;
        let mut since = Instant::now();
        let mut probe = |next: HostStage| {
            let now = Instant::now();
            stage_seconds[stage_index(stage)] += now.duration_since(since).as_secs_f64();
            stage = next;
            since = now;
        };
        while game_match
            .step_foe_probed(&mut probe)
            .map_err(Error::Invalid)?
        {}
        probe(HostStage::Records);
        stage_games += 1;
    }
    let mut out = String::from("foe simulate --bench: whole games per second on one core\n");
    let _ = writeln!(
        out,
        "  {:<34} {foe_rate:>10.0} games/s",
        format!("{name}, opponent on both sides")
    );
    let _ = writeln!(
        out,
        "  {:<34} {engine_rate:>10.0} games/s   opponent/random-play {:.3}",
        format!("{name}, random legal play"),
        foe_rate / engine_rate
    );
    let engine_total = legal_time + apply_time;
    if engine_total > 0.0 {
        let _ = writeln!(
            out,
            "    random play: {:.0} actions a game; {:.0}% of engine time listing legal actions, {:.0}% applying them",
            actions as f64 / engine_games.max(1) as f64,
            100.0 * legal_time / engine_total,
            100.0 * apply_time / engine_total
        );
    }
    let total: f64 = stage_seconds.iter().sum();
    let share =
        |stage: HostStage| 100.0 * stage_seconds[stage_index(stage)] / total.max(f64::MIN_POSITIVE);
    let _ = writeln!(
        out,
        "  {name} time by stage (a separate pass with a clock at each stage change, {stage_games} games):\n    deciding (foe's opponent) {:.0}%; rules engine {:.0}%; records {:.0}%",
        share(HostStage::Deciding),
        share(HostStage::Rules),
        share(HostStage::Records)
    );
    context.print(&out)
}

fn stage_index(stage: HostStage) -> usize {
    match stage {
        HostStage::Deciding => 0,
        HostStage::Rules => 1,
        HostStage::Records => 2,
    }
}
