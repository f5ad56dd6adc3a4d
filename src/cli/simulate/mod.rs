//! `foe simulate`: Monte Carlo balance for scenario designers.
//!
//! The one edge around [`crate::simulate`], for every rule set: it loads
//! the scenario (with any `--set`), runs the games on a rayon pool of
//! `--jobs` threads, shows a progress bar on a terminal, stops between
//! games on Ctrl-C, measures the seconds, and prints or writes what the
//! pure core summed.

use super::Context;
use super::saves::write_atomically;
use crate::error::{Error, Result};
use crate::host::position::SharedTable;
use crate::host::probe::{Probe, Stage};
use crate::host::run::Printed;
use crate::host::{Engine, Game, engine_for};
use crate::render::play::Detail;
use crate::render::simulate::{self as text, Point};
use crate::render::texts::{Telling, Texts};
use crate::scenario::Scenario;
use crate::simulate::set::{self, Assignment};
use crate::simulate::{GameSummary, Labels, REPORT_VERSION, Report, RunResult, Study, text_hash};
use crate::tables::Tables;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod per_engine;

/// Arguments of `foe simulate`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  foe simulate guilford --games 2000
  foe simulate guilford --games 500 --set sides.british.generals.Cornwallis.rallies=10
  foe simulate guilford --sweep sides.british.generals.Cornwallis.rallies=4..12:2 --svg rallies.svg
  foe simulate guilford --balance sides.americans.generals.Greene.rallies=0..12
  foe simulate guilford --games 5000 --first-game 5000 --json > shard2.json
  foe simulate --merge shard1.json --merge shard2.json
  foe simulate guilford --games 100000 --shard 3/8 --json > shard3.json
  foe simulate guilford --replay 17
  foe simulate guilford --baseline british      the scripted baseline commands the British

--set KEY=VALUE paths: dot-separated steps from the top of the scenario
file; in a list, a step is an item's name (or a unique prefix of it, or a
0-based position): turns=10, sides.british.generals.Cornwallis.rallies=10,
sides.americans.units.1st Maryland.troop_type=militia,
sides.british.generals.Cornwallis.character=rash. VALUE is read as YAML.")]
pub struct Args {
    /// The scenario: a built-in name (guilford, guilford-rv, guilford-ruinous, henry-hill, learning, monongahela, stress) or a file.
    #[arg(default_value = "guilford")]
    pub scenario: String,
    /// Games to play (at each value of a sweep or balance search).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u64,
    /// The study's seed: game i rolls with a seed derived from it and i.
    #[arg(long, value_name = "S", default_value_t = 1781)]
    pub seed: u64,
    /// The index of the first game (to run a shard of a larger study).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub first_game: u64,
    /// Play only shard I of N of the games (I from 1 to N): games split
    /// evenly, for a job array whose runs are merged with --merge.
    #[arg(long, value_name = "I/N", conflicts_with_all = ["sweep", "balance", "replay", "merge"])]
    pub shard: Option<String>,
    /// Threads to play on (default: every core).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Print the results as JSON (for --merge).
    #[arg(long)]
    pub json: bool,
    /// Write one line per game to this CSV file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Change a scenario parameter for this run (repeatable); see below.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Run the games at each value of KEY from A to B and print the win-rate curve.
    #[arg(long, value_name = "KEY=A..B[:STEP]", conflicts_with_all = ["balance", "replay", "csv"])]
    pub sweep: Option<String>,
    /// With --sweep: also draw the curve as an SVG file.
    #[arg(long, value_name = "FILE", requires = "sweep")]
    pub svg: Option<PathBuf>,
    /// Search whole values of KEY from A to B for the one nearest an even game.
    #[arg(long, value_name = "KEY=A..B", conflicts_with_all = ["replay", "csv"])]
    pub balance: Option<String>,
    /// The scripted baseline commands this side instead of foe's Lone Warrior
    /// opponent (repeatable; by default foe commands every side).
    #[arg(long = "baseline", value_name = "SIDE")]
    pub baseline: Vec<String>,
    /// With --balance: the side whose win rate should be nearest 50% (default: the first side).
    #[arg(long, value_name = "NAME", requires = "balance")]
    pub side: Option<String>,
    /// Print game I's full log, and the `foe play` command that replays it.
    #[arg(long, value_name = "I", conflicts_with_all = ["json", "csv"])]
    pub replay: Option<u64>,
    /// Combine runs written by --json (repeatable); prints the merged report.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["sweep", "balance", "replay", "csv", "sets"])]
    pub merge: Vec<PathBuf>,
    /// Measure the scenario's games per second on one core (foe on every
    /// side, and random legal play) and print the figures.
    #[arg(long, conflicts_with_all = ["sweep", "balance", "replay", "merge", "baseline", "json", "csv", "shard", "first_game", "jobs", "games"])]
    pub bench: bool,
}

/// Set by Ctrl-C: the run stops between games. A second Ctrl-C exits.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

pub(super) fn catch_ctrl_c() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Failing to install the handler only means Ctrl-C stops at once.
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    });
}

/// Run `foe simulate`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    if !args.merge.is_empty() {
        return merge(args, context);
    }
    let sets = args
        .sets
        .iter()
        .map(|text| Assignment::parse(text).map_err(|error| Error::Invalid(error.0)))
        .collect::<Result<Vec<_>>>()?;
    if args.bench {
        let read = super::check::read_scenario(&args.scenario, context.tables_dir.as_deref())?;
        let tables = Arc::new(context.tables()?);
        let base = Base::read(read, args, context, tables)?;
        base.check(&sets)?;
        let figures = bench_scenario(&base, &sets, args.seed, 2.0)?;
        return context.print(&figures);
    }
    if args.games == 0 {
        return Err(Error::Invalid("--games must be at least 1".into()));
    }
    if args.jobs == Some(0) {
        return Err(Error::Invalid("--jobs must be at least 1".into()));
    }
    check_limits(args)?;
    args.first_game
        .checked_add(args.games)
        .ok_or_else(|| Error::Invalid("--first-game plus --games is too large".into()))?;
    let (first_game, games) = match &args.shard {
        Some(text) => shard_range(text, args.first_game, args.games).map_err(Error::Invalid)?,
        None => (args.first_game, args.games),
    };
    let tables = Arc::new(context.tables()?);
    // Read and validated once, here, whatever the rule set.
    let read = super::check::read_scenario(&args.scenario, context.tables_dir.as_deref())?;
    let base = Base::read(read, args, context, tables)?;
    base.check(&sets)?;
    if let Some(index) = args.replay {
        return replay(args, &base, &sets, index, context);
    }
    let pool = pool(args.jobs)?;
    catch_ctrl_c();
    if let Some(sweep) = &args.sweep {
        return run_sweep(
            args,
            &|| side_names(&base, &sets, args.seed),
            &base.shown_as,
            sweep,
            &mut |key, value| point(args, &base, &sets, key, value, &pool),
            context,
        );
    }
    if let Some(balance) = &args.balance {
        return run_balance(
            args,
            &|| side_names(&base, &sets, args.seed),
            balance,
            &mut |key, value| point(args, &base, &sets, key, value, &pool),
            context,
        );
    }
    let study = base.study(&sets, args.seed)?;
    let started = Instant::now();
    let result = play(&study, first_game, games, args.csv.is_some(), &pool)?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.csv {
        write_atomically(path, &csv(&study.labels(), &result.games))?;
    }
    let report = base.report(&study, &sets, result, seconds);
    if args.json {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|error| Error::Invalid(error.to_string()))?;
        context.print(&format!("{json}\n"))
    } else {
        let mut out = text::report(&report, Some(pool.current_num_threads()));
        out.push_str(&per_engine::margin_text(&report.aggregate));
        context.print(&out)
    }
}

/// The most games one run plays: at about 1,000 games a second a core,
/// some hours on a small machine. A larger study is several runs of
/// shards (`--shard`), merged.
pub const MAX_GAMES: u64 = 10_000_000;

/// The most games a whole sweep plays, over all its values.
pub const MAX_SWEEP_GAMES: u64 = 10 * MAX_GAMES;

/// Game indices (`--first-game`, `--replay`) stay below this, so every
/// report's counts stay far from overflowing when shards are merged.
pub const MAX_GAME_INDEX: u64 = 1 << 48;

/// The most threads `--jobs` starts.
pub const MAX_JOBS: usize = 256;

/// The most games `--csv` keeps a line of (each is held in memory until
/// the file is written).
pub const MAX_CSV_GAMES: u64 = 1_000_000;

/// The most reports one `--merge` reads.
pub const MAX_MERGE_FILES: usize = 1_000;

/// The most shards a study is cut into.
pub const MAX_SHARDS: u64 = 100_000;

/// Refuse, before any work, a count no run should be asked for; each
/// message names the limit.
fn check_limits(args: &Args) -> Result<()> {
    let too_many = |flag: &str, limit: u64, given: u64, why: &str| {
        Err(Error::Invalid(format!(
            "{flag} must be at most {limit}{why}, not {given}"
        )))
    };
    if args.games > MAX_GAMES {
        return too_many(
            "--games",
            MAX_GAMES,
            args.games,
            " (run a larger study as shards with --shard and merge them)",
        );
    }
    if let Some(jobs) = args.jobs
        && jobs > MAX_JOBS
    {
        return too_many("--jobs", MAX_JOBS as u64, jobs as u64, " threads");
    }
    if args.first_game > MAX_GAME_INDEX - MAX_GAMES {
        return too_many(
            "--first-game",
            MAX_GAME_INDEX - MAX_GAMES,
            args.first_game,
            "",
        );
    }
    if let Some(index) = args.replay
        && index >= MAX_GAME_INDEX
    {
        return too_many("--replay", MAX_GAME_INDEX - 1, index, "");
    }
    if args.csv.is_some() && args.games > MAX_CSV_GAMES {
        return too_many(
            "--games",
            MAX_CSV_GAMES,
            args.games,
            " with --csv (each game's line is held until the file is written)",
        );
    }
    Ok(())
}

/// The games shard `text` ("I/N", I from 1 to N) of the `games` games from
/// `first_game` plays: `(first game, games)`, the N shards covering the
/// range end to end in order, their sizes differing by at most one. A
/// shard that is not one of N, or that would play no game, is refused in
/// one line.
pub(crate) fn shard_range(
    text: &str,
    first_game: u64,
    games: u64,
) -> std::result::Result<(u64, u64), String> {
    let usage = || format!("--shard `{text}`: expected I/N, shard I of N, with 1 <= I <= N");
    let (index, count) = text.split_once('/').ok_or_else(usage)?;
    let number = |part: &str| part.trim().parse::<u64>().map_err(|_| usage());
    let (index, count) = (number(index)?, number(count)?);
    if count == 0 || index == 0 || index > count {
        return Err(usage());
    }

    if count > games {
        return Err(format!(
            "--shard `{text}`: {count} shards of {games} games would leave some with none"
        ));
    }
    if count > MAX_SHARDS {
        return Err(format!(
            "--shard `{text}`: a study is cut into at most {MAX_SHARDS} shards"
        ));
    }
    // `games * i / count` without overflow: both below 2^64, the product
    // in 128 bits.
    let start = |i: u64| (u128::from(games) * u128::from(i) / u128::from(count)) as u64;
    let (from, to) = (start(index - 1), start(index));
    Ok((first_game + from, to - from))
}

/// The scenario as read, before any `--set`, under any rule set.
pub(super) struct Base {
    /// The scenario as typed on the command line.
    pub(super) argument: String,
    /// Its name in messages and reports.
    pub(super) shown_as: String,
    /// Its text.
    text: String,
    /// The scenario as read, ready for play: the study without `--set`.
    pub(super) read: Read,
    pub(super) tables_dir: Option<PathBuf>,
    pub(super) tables: Arc<Tables>,
    /// The sides named by `--baseline`, as typed.
    baseline: Vec<String>,
}

/// A scenario read for a study, validated once, under any rule set.
pub(super) struct Read {
    /// The scenario.
    pub(super) scenario: Arc<Scenario>,
    /// The engine that plays it (none: its games say so as they start).
    pub(super) engine: Option<Engine>,
    /// Its engine's rules table, read once for every game where the
    /// engine shares one ([`Game::shared_table`]).
    pub(super) table: Option<SharedTable>,
}

impl Base {
    fn read(
        read: super::check::ReadScenario,
        args: &Args,
        context: &Context<'_>,
        tables: Arc<Tables>,
    ) -> Result<Base> {
        Base::new(
            read,
            context.tables_dir.clone(),
            tables,
            args.baseline.clone(),
        )
    }

    fn new(
        read: super::check::ReadScenario,
        tables_dir: Option<PathBuf>,
        tables: Arc<Tables>,
        baseline: Vec<String>,
    ) -> Result<Base> {
        let scenario = Arc::new(read.scenario);
        let engine = engine_for(&scenario.battlefield.ruleset.name);
        let table = match engine {
            Some(_) => Game::shared_table(&scenario).map_err(|e| Error::Invalid(e.to_string()))?,
            // A rule set with no engine: its games say so as they start.
            None => None,
        };
        let told = Read {
            scenario,
            engine,
            table,
        };
        Ok(Base {
            argument: read.argument,
            shown_as: read.shown_as,
            text: read.text,
            read: told,
            tables_dir,
            tables,
            baseline,
        })
    }

    /// Refuse, before any game, what the engine's opponent or set-up
    /// cannot honour: a `--rule` switch that does not reach it, a `--set`
    /// key that means nothing under its rules (an engine that reads every
    /// key checks them by loading).
    fn check(&self, sets: &[Assignment]) -> Result<()> {
        if let Some(engine) = self.read.engine {
            let ruleset = &self.read.scenario.battlefield.ruleset.name;
            super::start::check_rules(&self.tables, engine, ruleset)?;
            per_engine::check_sets(engine, ruleset, sets)?;
        }
        Ok(())
    }

    /// The study with these assignments made.
    pub(super) fn study(&self, sets: &[Assignment], seed: u64) -> Result<Study> {
        let read = &self.read;
        let scenario = if sets.is_empty() {
            read.scenario.clone()
        } else {
            if let Some(engine) = read.engine {
                per_engine::check_sets(engine, &read.scenario.battlefield.ruleset.name, sets)?;
            }
            let text =
                set::apply_to_text(&self.text, sets).map_err(|error| Error::Invalid(error.0))?;
            // Problems are located in the changed document, which is
            // reformatted: say so in the name they are reported under.
            let changed = super::check::load_scenario_text(
                &format!("{} (after --set)", self.shown_as),
                &text,
                self.tables_dir.as_deref(),
            )?;
            if changed.battlefield.ruleset.name != read.scenario.battlefield.ruleset.name {
                return Err(Error::Invalid(
                    "--set may not change the scenario's rule set".to_string(),
                ));
            }
            Arc::new(changed)
        };
        let table = read.table.clone();
        let sides: Vec<&str> = scenario
            .sides
            .iter()
            .map(|side| side.name.as_str())
            .collect();
        let baseline_sides = super::start::baseline_sides(&self.baseline, &sides)?;
        Ok(Study {
            scenario,
            tables: self.tables.clone(),
            seed,
            baseline_sides,
            table,
            fields: crate::host::opponent::awi::FieldCache::default(),
        })
    }

    fn report(
        &self,
        study: &Study,
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

pub(super) fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(jobs) = jobs {
        builder = builder.num_threads(jobs);
    }
    builder
        .build()
        .map_err(|error| Error::Invalid(format!("cannot start threads: {error}")))
}

/// Play `games` games from `first` on the pool, with a progress bar on a
/// terminal.
fn play(
    study: &Study,
    first: u64,
    games: u64,
    keep_games: bool,
    pool: &rayon::ThreadPool,
) -> Result<RunResult> {
    with_progress(games, pool, &|tick| {
        study
            .run(first..first + games, keep_games, &STOP, tick)
            .map_err(|error| Error::Invalid(error.to_string()))
    })
}

/// Run `games` games on the pool with `run`, which calls the tick it is
/// given after each game: a progress bar on a terminal, nothing elsewhere.
pub(super) fn with_progress(
    games: u64,
    pool: &rayon::ThreadPool,
    run: &(dyn Fn(&(dyn Fn() + Sync)) -> Result<RunResult> + Sync),
) -> Result<RunResult> {
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(games)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let tick = || bar.inc(1);
    let result = pool.install(|| run(&tick));
    bar.finish_and_clear();
    result
}

/// One line per game; seed 001's games add their victory margin.
pub(super) fn csv(labels: &Labels, games: &[GameSummary]) -> String {
    let margins = games.iter().any(|game| game.margin.is_some());
    let mut out = String::from("game,seed,winner,condition,turns");
    for side in &labels.sides {
        out.push_str(&format!(",{side}_units_lost,{side}_hits"));
    }
    out.push_str(",routed,driven_off,orders");
    out.push_str(if margins { ",margin\n" } else { "\n" });
    let field = |text: &str| {
        if text.contains([',', '"', '\n']) {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text.to_string()
        }
    };
    for game in games {
        let winner = game
            .winner
            .and_then(|side| labels.sides.get(side).cloned())
            .unwrap_or_else(|| "draw".into());
        let condition = game
            .condition
            .map_or(String::new(), |c| (c + 1).to_string());
        out.push_str(&format!(
            "{},{},{},{},{}",
            game.index, game.seed, winner, condition, game.turns
        ));
        for side in 0..labels.sides.len() {
            out.push_str(&format!(
                ",{},{}",
                game.units_lost.get(side).copied().unwrap_or(0),
                game.hits.get(side).copied().unwrap_or(0)
            ));
        }
        let names = |flags: &[bool]| {
            flags
                .iter()
                .zip(&labels.units)
                .filter(|(flag, _)| **flag)
                .map(|(_, (_, name))| name.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        };
        let orders: Vec<String> = game
            .orders
            .iter()
            .map(|(order, count)| format!("{order}={count}"))
            .collect();
        out.push_str(&format!(
            ",{},{},{}",
            field(&names(&game.routed)),
            field(&names(&game.exited)),
            field(&orders.join("; "))
        ));
        if margins {
            out.push_str(&format!(
                ",{}",
                game.margin.map_or(String::new(), |m| m.to_string())
            ));
        }
        out.push('\n');
    }
    out
}

/// The `--rule` words that give `foe play` the rules a study was played
/// by (empty when they are the shipped ones), so the replay line replays
/// it.
pub(super) fn rule_words(rules: &crate::tables::PlanRules) -> String {
    let off = rules.off();
    if off.len() == rules.list().len() {
        return " --rule all=off".to_string();
    }
    let (switched_off, switched_on) = crate::tables::PlanRules::changed_from_shipped(&off);
    let off_words = switched_off
        .iter()
        .map(|name| format!(" --rule {name}=off"));
    let on_words = switched_on.iter().map(|name| format!(" --rule {name}=on"));
    off_words.chain(on_words).collect()
}

/// `--replay I`: game I's record as `foe play --side none` prints it,
/// under the `foe play` line that replays it, under any rule set.
fn replay(
    args: &Args,
    base: &Base,
    sets: &[Assignment],
    index: u64,
    context: &mut Context<'_>,
) -> Result<()> {
    let study = base.study(sets, args.seed)?;
    let record = watched(&study, index).map_err(Error::Invalid)?;
    let baseline: String = study
        .baseline_sides
        .iter()
        .map(|side| {
            format!(
                " --baseline {}",
                shell_word(&study.scenario.sides[*side].name)
            )
        })
        .collect();
    let rules = rule_words(&study.tables.opponent.rules);
    let mut out = format!(
        "Game {index} of the study seeded {}: foe play {} --seed {} --side none{baseline}{rules} --no-pause\n",
        args.seed,
        shell_word(&base.argument),
        study.seed_of(index)
    );
    if !sets.is_empty() {
        out.push_str(
            "(foe play replays it only from a copy of the scenario with the --set changes made)\n",
        );
    }
    out.push('\n');
    out.push_str(&record);
    context.print(&out)
}

/// Game `index` of `study` played as `foe play --side none` plays it, and
/// its record and result as that prints them, whatever its rule set: what
/// happened since the last print told after each step.
fn watched(study: &Study, index: u64) -> std::result::Result<String, String> {
    let mut game = study.start(index)?;
    let telling = Telling {
        detail: Detail::Normal,
        quiet: false,
    };
    let (mut out, mut shown, mut turn) = (String::new(), Printed::default(), 0);
    loop {
        let more = game.watch_step()?;
        out.push_str(&Texts::of(&game).told(shown, telling, &mut turn));
        shown = game.printed_now();
        if !more {
            break;
        }
    }
    if let Some(verdict) = game.verdict() {
        out.push_str(&Texts::of(&game).summary(&verdict));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}

pub(super) fn shell_word(word: &str) -> String {
    if word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `KEY=A..B[:STEP]`: the key, and each value as typed and as a number.
fn parse_range(
    flag: &str,
    text: &str,
    integers_only: bool,
) -> Result<(String, Vec<(String, f64)>)> {
    let bad = || {
        Error::Invalid(format!(
            "{flag} `{text}` is not KEY=A..B{}",
            if integers_only { "" } else { "[:STEP]" }
        ))
    };
    let (key, range) = text.rsplit_once('=').ok_or_else(bad)?;
    let (range, step) = match range.split_once(':') {
        Some((range, step)) if !integers_only => (range, Some(step)),
        Some(_) => return Err(bad()),
        None => (range, None),
    };
    let (from, to) = range.split_once("..").ok_or_else(bad)?;
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err(bad());
    }
    let whole = |s: &str| s.trim().parse::<i64>().ok();
    if let (Some(from), Some(to), Some(step)) =
        (whole(from), whole(to), step.map_or(Some(1), whole))
    {
        if step <= 0 || to < from {
            return Err(Error::Invalid(format!(
                "{flag} `{text}`: the range must run upwards by a positive step"
            )));
        }
        // Counted before any value is made: `1..1000000000` is refused
        // at once, not after a billion values are built.
        let count = (i128::from(to) - i128::from(from)) / i128::from(step) + 1;
        if count > 1000 {
            return Err(Error::Invalid(format!(
                "{flag} `{text}` has more than 1000 values"
            )));
        }
        let values: Vec<(String, f64)> = (from..=to)
            .step_by(step as usize)
            .map(|value| (value.to_string(), value as f64))
            .collect();
        return Ok((key, values));
    }
    if integers_only {
        return Err(Error::Invalid(format!(
            "{flag} `{text}`: A and B must be whole numbers"
        )));
    }
    let number = |s: &str| s.trim().parse::<f64>().ok().filter(|n| n.is_finite());
    let (from, to) = (number(from).ok_or_else(bad)?, number(to).ok_or_else(bad)?);
    let step = match step {
        Some(step) => number(step).ok_or_else(bad)?,
        None => 1.0,
    };
    if step <= 0.0 || to < from || (to - from) / step > 1000.0 {
        return Err(Error::Invalid(format!(
            "{flag} `{text}`: the range must run upwards in at most 1000 positive steps"
        )));
    }
    let count = ((to - from) / step + 1e-9).floor() as usize + 1;
    let values = (0..count)
        .map(|n| {
            let value = from + step * n as f64;
            // Round away float noise (0.1 + 0.2) in what is typed and set.
            let value = (value * 1e9).round() / 1e9;
            (value.to_string(), value)
        })
        .collect();
    Ok((key, values))
}

/// The games at one value of a swept key.
fn point(
    args: &Args,
    base: &Base,
    sets: &[Assignment],
    key: &str,
    (value, x): &(String, f64),
    pool: &rayon::ThreadPool,
) -> Result<Point> {
    let mut with_value = sets.to_vec();
    with_value.push(Assignment {
        key: key.to_string(),
        value: set::parse_value(value),
    });
    let study = base.study(&with_value, args.seed)?;
    let result = play(&study, args.first_game, args.games, false, pool)?;
    Ok(Point {
        value: value.clone(),
        x: *x,
        aggregate: result.aggregate,
    })
}

fn side_names(base: &Base, sets: &[Assignment], seed: u64) -> Result<Vec<String>> {
    let study = base.study(sets, seed)?;
    Ok(study
        .scenario
        .sides
        .iter()
        .map(|side| side.name.clone())
        .collect())
}

/// The games at one value of a swept key (the key, the value as typed and
/// as a number), for any rule set.
pub(super) type PointAt<'a> = dyn FnMut(&str, &(String, f64)) -> Result<Point> + 'a;

/// `--sweep KEY=A..B[:STEP]`: the games at each value, as a table (and an
/// SVG with `--svg`). `sides` names the scenario's sides; `point_at` plays
/// one value's games.
pub(super) fn run_sweep(
    args: &Args,
    sides: &dyn Fn() -> Result<Vec<String>>,
    shown_as: &str,
    sweep: &str,
    point_at: &mut PointAt<'_>,
    context: &mut Context<'_>,
) -> Result<()> {
    let (key, values) = parse_range("--sweep", sweep, false)?;
    let total = values.len() as u64 * args.games;
    if total > MAX_SWEEP_GAMES {
        return Err(Error::Invalid(format!(
            "--sweep `{sweep}` with --games {} plays {total} games; a sweep plays at most {MAX_SWEEP_GAMES}",
            args.games
        )));
    }
    let sides = sides()?;
    let started = Instant::now();
    let mut points = Vec::new();
    for value in &values {
        if STOP.load(Ordering::Relaxed) {
            break;
        }
        points.push(point_at(&key, value)?);
    }
    let mut out = format!(
        "Sweep of {key}: {} games at each value, seed {}, {:.2} s\n",
        args.games,
        args.seed,
        started.elapsed().as_secs_f64()
    );
    if STOP.load(Ordering::Relaxed) {
        out.push_str("stopped early: the last value may have fewer games\n");
    }
    out.push_str(&text::sweep_table(&sides, &points));
    if let Some(path) = &args.svg {
        let title = format!("{shown_as}: win rate against {key}");
        write_atomically(path, &text::sweep_svg(&title, &key, &sides, &points))?;
        out.push_str(&format!("wrote {}\n", path.display()));
    }
    context.print(&out)
}

/// `--balance KEY=A..B`: the whole value whose win rate for the side is
/// nearest 50%. Ranges of up to 9 values are scanned; longer ones are
/// bisected, trusting the win rate to move one way as the value grows.
pub(super) fn run_balance(
    args: &Args,
    sides: &dyn Fn() -> Result<Vec<String>>,
    balance: &str,
    point_at: &mut PointAt<'_>,
    context: &mut Context<'_>,
) -> Result<()> {
    let (key, values) = parse_range("--balance", balance, true)?;
    let sides = sides()?;
    let side = match &args.side {
        None => 0,
        Some(name) => match crate::suggest::resolve(name, sides.iter().map(String::as_str)) {
            Ok(found) => sides.iter().position(|side| side == found).unwrap_or(0),
            Err(_) => {
                return Err(Error::unknown(
                    "side",
                    name,
                    sides.iter().map(String::as_str),
                ));
            }
        },
    };
    let started = Instant::now();
    let mut tried: Vec<(usize, Point)> = Vec::new();
    let mut at = |position: usize, tried: &mut Vec<(usize, Point)>| -> Result<f64> {
        if let Some((_, point)) = tried.iter().find(|(p, _)| *p == position) {
            return Ok(point.aggregate.win_rate(side).rate);
        }
        let found = point_at(&key, &values[position])?;
        let rate = found.aggregate.win_rate(side).rate;
        tried.push((position, found));
        Ok(rate)
    };
    if values.len() <= 9 {
        for position in 0..values.len() {
            if STOP.load(Ordering::Relaxed) {
                break;
            }
            at(position, &mut tried)?;
        }
    } else {
        let (mut low, mut high) = (0, values.len() - 1);
        let low_rate = at(low, &mut tried)?;
        let high_rate = at(high, &mut tried)?;
        // Bisect only when 50% lies between the ends.
        if (low_rate - 0.5) * (high_rate - 0.5) < 0.0 {
            while high - low > 1 && !STOP.load(Ordering::Relaxed) {
                let middle = (low + high) / 2;
                let rate = at(middle, &mut tried)?;
                if (rate - 0.5) * (low_rate - 0.5) > 0.0 {
                    low = middle;
                } else {
                    high = middle;
                }
            }
        }
    }
    tried.sort_by_key(|(position, _)| *position);
    let points: Vec<Point> = tried.into_iter().map(|(_, point)| point).collect();
    let mut out = format!(
        "Balance of {key} for {} wins nearest 50%: {} games at each value tried, seed {}, {:.2} s\n",
        sides[side],
        args.games,
        args.seed,
        started.elapsed().as_secs_f64()
    );
    out.push_str(&text::sweep_table(&sides, &points));
    let best = points.iter().min_by(|a, b| {
        let distance = |p: &Point| (p.aggregate.win_rate(side).rate - 0.5).abs();
        distance(a).total_cmp(&distance(b))
    });
    let rates: Vec<f64> = points
        .iter()
        .map(|point| point.aggregate.win_rate(side).rate)
        .collect();
    if rates.iter().all(|rate| *rate < 0.5) || rates.iter().all(|rate| *rate > 0.5) {
        out.push_str(&format!(
            "50% is not reached in this range: {} wins stay on one side of it\n",
            sides[side]
        ));
    }
    if let Some(best) = best {
        out.push_str(&format!(
            "Nearest an even game: {key}={}: {} wins {}\n",
            best.value,
            sides[side],
            text::rate_with_interval(best.aggregate.win_rate(side))
        ));
    }
    context.print(&out)
}

/// `--merge A.json B.json`: one report of runs over different games.
fn merge(args: &Args, context: &mut Context<'_>) -> Result<()> {
    if args.merge.len() > MAX_MERGE_FILES {
        return Err(Error::Invalid(format!(
            "--merge reads at most {MAX_MERGE_FILES} reports, not {}; merge them in groups and merge the results",
            args.merge.len()
        )));
    }
    let mut merged: Option<Report> = None;
    for path in &args.merge {
        let report = read_report(path)?;
        match &mut merged {
            None => merged = Some(report),
            Some(merged) => merged.merge(&report).map_err(|message| {
                Error::Invalid(format!("cannot merge `{}`: {message}", path.display()))
            })?,
        }
    }
    let merged = merged.ok_or_else(|| Error::Invalid("--merge needs a file".into()))?;
    if args.json {
        let json = serde_json::to_string_pretty(&merged)
            .map_err(|error| Error::Invalid(error.to_string()))?;
        context.print(&format!("{json}\n"))
    } else {
        // Seed 001's runs carry a victory margin; seed 000's print as before.
        let mut out = text::report(&merged, None);
        out.push_str(&per_engine::margin_text(&merged.aggregate));
        context.print(&out)
    }
}

fn read_report(path: &Path) -> Result<Report> {
    let text = super::read_text(path)?;
    let shown = path.display().to_string();
    crate::yaml::json::check(&shown, &text)
        .map_err(|problem| Error::Problems(crate::yaml::Problems(vec![problem])))?;
    let report: Report = serde_json::from_str(&text).map_err(|error| {
        Error::Invalid(format!(
            "`{shown}` is not a foe simulate --json report: {error}"
        ))
    })?;
    report
        .check()
        .map_err(|message| Error::Invalid(format!("`{shown}` contradicts itself: {message}")))?;
    Ok(report)
}

/// Measure whole games per second on one core for about `seconds` per
/// figure, on the built-in tables: Guilford watch-mode games with the
/// opponent, the `learning` scenario as a baseline, and Guilford with
/// random legal actions and no opponent (the rules engine alone). Used by
/// `cargo bench`; `foe simulate SCENARIO --bench` measures any scenario.
pub fn bench(seconds: f64) -> Result<String> {
    let tables = Arc::new(super::load_tables(None)?);
    let read = super::check::read_scenario("guilford", None)?;
    let guilford = Base::new(read, None, tables, Vec::new())?;
    bench_scenario(&guilford, &[], 1781, seconds)
}

/// [`bench`] on `base`'s scenario with `sets` made, game *i* seeded from
/// `seed` and *i*, under any rule set: whole games per second on one core
/// with foe on both sides, the `learning` scenario (on the same tables)
/// as a yardstick, and random legal actions (the rules engine alone,
/// through the boundary); then how a game's time splits between the
/// stages of the work, from a separate pass with a clock at each change
/// of stage.
fn bench_scenario(base: &Base, sets: &[Assignment], seed: u64, seconds: f64) -> Result<String> {
    let read = super::check::read_scenario("learning", base.tables_dir.as_deref())?;
    let learning = Base::new(
        read,
        base.tables_dir.clone(),
        base.tables.clone(),
        Vec::new(),
    )?;
    let name = &base.argument;
    let study = base.study(sets, seed)?;
    let learning = learning.study(&[], seed)?;
    // Games per second, one game at a time on this thread.
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
    let learning_rate = rate(&mut |index| {
        std::hint::black_box(learning.play(index).ok());
    });
    let mut random = RandomPlay::default();
    let engine_rate = rate(&mut |index| random.play(&study, index));
    let stages = stage_shares(&study, seconds)?;
    let mut out = String::from("foe simulate --bench: whole games per second on one core\n");
    let _ = writeln!(
        out,
        "  {:<34} {foe_rate:>10.0} games/s",
        format!("{name}, opponent on both sides")
    );
    let _ = writeln!(
        out,
        "  {:<34} {learning_rate:>10.0} games/s   {name}/learning {:.3}",
        "learning (baseline)",
        foe_rate / learning_rate
    );
    let _ = writeln!(
        out,
        "  {:<34} {engine_rate:>10.0} games/s   {name}/random-play {:.3}",
        format!("{name}, random legal play"),
        foe_rate / engine_rate
    );
    out.push_str(&random.said());
    let _ = write!(
        out,
        "  {name} time by stage (a separate pass with a clock at each stage change, {} games):\n   ",
        stages.games
    );
    let total: f64 = stages.seconds.iter().sum();
    // A stage the rule set's commanders do not name is not listed.
    for stage in Stage::ALL {
        let seconds = stages.seconds[stage.index()];
        if seconds > 0.0 {
            let share = 100.0 * seconds / total.max(f64::MIN_POSITIVE);
            let _ = write!(out, " {} {share:.0}%;", stage.name());
        }
    }
    out.pop();
    out.push('\n');
    Ok(out)
}

/// Random legal play through the boundary, counted: each step ends the
/// phase a third of the time (or when nothing else is lawful) where the
/// rules let it, else takes one of the legal actions at random; the time split between listing
/// the legal actions and applying them.
#[derive(Debug, Default)]
struct RandomPlay {
    legal_time: f64,
    apply_time: f64,
    actions: u64,
    games: u64,
}

impl RandomPlay {
    /// Play game `index` of `study` at random to its end (or 20,000
    /// steps).
    fn play(&mut self, study: &Study, index: u64) {
        use rand::{RngExt, SeedableRng};
        let mut dice = crate::dice::Seeded::new(study.seed_of(index));
        let Ok((mut game, _)) = Game::start_sharing(
            &study.scenario,
            &study.tables,
            study.table.as_ref(),
            &mut dice,
        ) else {
            return;
        };
        self.games += 1;
        let mut chooser = rand::rngs::ChaCha8Rng::seed_from_u64(index ^ 0x5eed);
        let mut steps = 0;
        while !game.is_over() && steps < 20_000 {
            steps += 1;
            let clock = Instant::now();
            let legal = game.legal_actions();
            self.legal_time += clock.elapsed().as_secs_f64();
            // Where the rules give no way to end the phase (seed 002's
            // dice), a legal action instead.
            let ending = chooser.random_range(0..3) == 0 || legal.is_empty();
            let action = ending
                .then(|| crate::host::repl::pass(&game))
                .flatten()
                .or_else(|| {
                    (!legal.is_empty()).then(|| legal[chooser.random_range(0..legal.len())].clone())
                });
            let Some(action) = action else {
                break;
            };
            let clock = Instant::now();
            let _ = game.apply(&action, &mut dice);
            self.apply_time += clock.elapsed().as_secs_f64();
            self.actions += 1;
        }
    }

    /// The actions a game and the engine's time split, in a line.
    fn said(&self) -> String {
        let total = self.legal_time + self.apply_time;
        if total <= 0.0 {
            return String::new();
        }
        format!(
            "    random play: {:.0} actions a game; {:.0}% of engine time listing legal actions, {:.0}% applying them\n",
            self.actions as f64 / self.games.max(1) as f64,
            100.0 * self.legal_time / total,
            100.0 * self.apply_time / total
        )
    }
}

/// A [`Probe`] that times the stages with the wall clock: the time since
/// the last stage change goes to the stage being left.
#[derive(Debug)]
struct StageClock {
    inner: std::sync::Mutex<(Stage, Instant, [f64; Stage::ALL.len()])>,
}

impl StageClock {
    fn new() -> StageClock {
        StageClock {
            inner: std::sync::Mutex::new((Stage::Records, Instant::now(), [0.0; Stage::ALL.len()])),
        }
    }

    fn seconds(&self) -> [f64; Stage::ALL.len()] {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        // Charge the time since the last change, then start afresh.
        let now = Instant::now();
        let (stage, since) = (inner.0, inner.1);
        inner.2[stage.index()] += now.duration_since(since).as_secs_f64();
        inner.1 = now;
        inner.2
    }
}

impl Probe for StageClock {
    fn enter(&self, stage: Stage) -> Stage {
        let now = Instant::now();
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (was, since) = (inner.0, inner.1);
        inner.2[was.index()] += now.duration_since(since).as_secs_f64();
        inner.0 = stage;
        inner.1 = now;
        was
    }
}

/// Seconds spent in each stage over whole watched games.
struct StageShares {
    games: u64,
    seconds: [f64; Stage::ALL.len()],
}

/// Watch `study`'s games for about `seconds` with a [`StageClock`] told
/// each stage the runner and the commanders enter (the runner's own loop
/// counts as records).
fn stage_shares(study: &Study, seconds: f64) -> Result<StageShares> {
    let clock = Arc::new(StageClock::new());
    let started = Instant::now();
    let mut games = 0;
    while games < 3 || started.elapsed().as_secs_f64() < seconds {
        let mut game = study
            .start_probing(games, clock.clone())
            .map_err(Error::Invalid)?;
        while game.watch_step().map_err(Error::Invalid)? {}
        std::hint::black_box(&game);
        games += 1;
    }
    Ok(StageShares {
        games,
        seconds: clock.seconds(),
    })
}

#[cfg(test)]
mod tests {
    use super::shard_range;

    fn check(text: &str, first_game: u64, games: u64, expect: Result<(u64, u64), &str>) {
        let got = shard_range(text, first_game, games);
        match expect {
            Ok(range) => assert_eq!(got, Ok(range), "{text}"),
            Err(part) => {
                let message = got.expect_err(text);
                assert!(message.contains(part), "{text}: {message}");
                assert_eq!(message.lines().count(), 1);
            }
        }
    }

    #[test]
    fn shards_split_the_games_evenly_and_refuse_nonsense() {
        check("1/1", 0, 10, Ok((0, 10)));
        check("1/2", 0, 10, Ok((0, 5)));
        check("2/2", 0, 10, Ok((5, 5)));
        check("1/3", 0, 10, Ok((0, 3)));
        check("2/3", 0, 10, Ok((3, 3)));
        check("3/3", 0, 10, Ok((6, 4)));
        check("2/4", 100, 8, Ok((102, 2)));
        check(" 2 / 4 ", 0, 8, Ok((2, 2)));
        check(
            "4/4",
            0,
            u64::MAX,
            Ok((13_835_058_055_282_163_711, 4_611_686_018_427_387_904)),
        );
        check("0/0", 0, 10, Err("expected I/N"));
        check("0/3", 0, 10, Err("expected I/N"));
        check("5/3", 0, 10, Err("expected I/N"));
        check("3", 0, 10, Err("expected I/N"));
        check("a/b", 0, 10, Err("expected I/N"));
        check("-1/3", 0, 10, Err("expected I/N"));
        check("1/99999999999999999999999", 0, 10, Err("expected I/N"));
        check(
            "1/18446744073709551615",
            0,
            10,
            Err("would leave some with none"),
        );
        check("1/11", 0, 10, Err("11 shards of 10 games"));
    }

    /// However many shards, they cover the games end to end, in order.
    #[test]
    fn shards_cover_the_games_end_to_end() {
        for games in 1..40u64 {
            for count in 1..=games {
                let mut next = 7;
                for index in 1..=count {
                    let (first, n) = shard_range(&format!("{index}/{count}"), 7, games).unwrap();
                    assert_eq!(first, next);
                    assert!(n >= games / count && n <= games / count + 1);
                    next = first + n;
                }
                assert_eq!(next, 7 + games);
            }
        }
    }
}
