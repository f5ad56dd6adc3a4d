//! `foe simulate`: many complete games with the opponent commanding every
//! side (or the scripted baseline some, [`Study::baseline_sides`]), summed
//! into the odds a scenario designer balances by.
//!
//! Pure: no printing, no files, no clock. Game `i` of a study seeded `S` is
//! the watched [`HostMatch`] with seed [`game_seed`]`(S, i)`, so `foe play
//! SCENARIO --seed <that seed> --side none` replays it move for move. Each
//! game is reduced to a [`GameSummary`]; summaries are summed into an
//! [`Aggregate`] of whole numbers only, so the sum is the same in any order:
//! that is what makes a run identical whatever `--jobs` is, and what lets
//! shards of a study run anywhere and be merged afterwards.

mod aggregate;
pub mod host;
mod report;
pub mod set;
mod summary;

pub use crate::host::command::CONDUCT;
pub use aggregate::{Aggregate, GameRanges, Margins, MergeError, Rate};
pub use report::{Labels, REPORT_VERSION, Report};
pub use summary::GameSummary;

use crate::host::Game;
use crate::host::opponent::awi::FieldCache;
use crate::host::position::SharedTable;
use crate::host::probe::Probe;
use crate::host::run::{HostMatch, Start};
use crate::scenario::Scenario;
use crate::stats::game_seed;
use crate::tables::Tables;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Everything a game of the study is played from, under any rule set.
#[derive(Clone)]
pub struct Study {
    /// The scenario (after any `--set`).
    pub scenario: Arc<Scenario>,
    /// The opponent's tables.
    pub tables: Arc<Tables>,
    /// The study's base seed: game `i` rolls with `game_seed(seed, i)`.
    pub seed: u64,
    /// The sides the baseline commands (the others: foe's opponent).
    pub baseline_sides: Vec<usize>,
    /// The engine's rules table, read once for every game where its
    /// engine shares one ([`Game::shared_table`]).
    pub table: Option<SharedTable>,
    /// The opponents' distance fields, worked out once for the whole run
    /// (they depend only on the table).
    pub fields: FieldCache,
}

/// What a run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct RunResult {
    /// The sums over every game played.
    pub aggregate: Aggregate,
    /// Each game's summary, in game order, when asked for (`--csv`).
    pub games: Vec<GameSummary>,
    /// Whether the stop flag cut the run short.
    pub stopped: bool,
}

impl Study {
    /// A study of `scenario`'s games under `tables`, game `i` seeded from
    /// `seed` and `i`, the baseline commanding `baseline_sides`; the
    /// engine's rules table read here, once (else a one-line reason).
    pub fn new(
        scenario: Arc<Scenario>,
        tables: Arc<Tables>,
        seed: u64,
        baseline_sides: Vec<usize>,
    ) -> Result<Study, String> {
        let table = Game::shared_table(&scenario).map_err(|error| error.to_string())?;
        Ok(Study {
            scenario,
            tables,
            seed,
            baseline_sides,
            table,
            fields: FieldCache::default(),
        })
    }

    /// The seed of game `index`.
    pub fn seed_of(&self, index: u64) -> u64 {
        game_seed(self.seed, index)
    }

    /// The watched game `index` in the one runner, not yet played.
    pub fn start(&self, index: u64) -> Result<HostMatch, String> {
        self.starting(index)
            .begin()
            .map_err(|error| error.to_string())
    }

    /// [`Study::start`], each stage of the work told to `probe`.
    pub fn start_probing(&self, index: u64, probe: Arc<dyn Probe>) -> Result<HostMatch, String> {
        self.starting(index)
            .probing(probe)
            .begin()
            .map_err(|error| error.to_string())
    }

    /// How game `index` starts.
    fn starting(&self, index: u64) -> Start {
        let mut start = Start::new(
            self.scenario.clone(),
            self.tables.clone(),
            self.seed_of(index),
        )
        .baseline_sides(self.baseline_sides.clone())
        .sharing_fields(&self.fields);
        if let Some(table) = &self.table {
            start = start.sharing_table(table.clone());
        }
        start
    }

    /// Game `index` played to its end, a step at a time as `foe play
    /// --side none` plays it ([`HostMatch::watch_step`]).
    pub fn play(&self, index: u64) -> Result<HostMatch, String> {
        let mut game = self.start(index)?;
        while game.watch_step()? {}
        Ok(game)
    }

    /// Game `index` played and summed up.
    pub fn summarize(&self, index: u64) -> Result<GameSummary, String> {
        Ok(GameSummary::of(&self.play(index)?, index))
    }

    /// Play games `games` on the current rayon pool. `stop` is read before
    /// each game: once set, the games not yet begun are skipped, and the
    /// aggregate says which were played. `progress` is called after each
    /// game (from any thread). The result does not depend on the pool's
    /// size or on the order games finish in.
    pub fn run(
        &self,
        games: Range<u64>,
        keep_games: bool,
        stop: &AtomicBool,
        progress: &(dyn Fn() + Sync),
    ) -> Result<RunResult, String> {
        // Check the scenario makes a game before spreading work.
        self.start(games.start)?;
        Ok(run_games(games, keep_games, stop, progress, &|index| {
            self.summarize(index).ok()
        }))
    }
}

/// Play `games` on the current rayon pool with `summarize` (a game played
/// and summed up; `None` drops it from the sums) and sum them: what
/// [`Study::run`] does, for any rule set. `stop` is read before each game:
/// once set, the games not yet begun are skipped, and the aggregate says
/// which were played. `progress` is called after each game (from any
/// thread). The result does not depend on the pool's size or on the order
/// games finish in.
pub fn run_games(
    games: Range<u64>,
    keep_games: bool,
    stop: &AtomicBool,
    progress: &(dyn Fn() + Sync),
    summarize: &(dyn Fn(u64) -> Option<GameSummary> + Sync),
) -> RunResult {
    let empty = || (Aggregate::default(), Vec::new());
    let (aggregate, mut kept) = games
        .into_par_iter()
        .map(|index| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let summary = summarize(index);
            progress();
            summary
        })
        .fold(empty, |(mut aggregate, mut kept), summary| {
            if let Some(summary) = summary {
                aggregate.add(&summary);
                if keep_games {
                    kept.push(summary);
                }
            }
            (aggregate, kept)
        })
        .reduce(empty, |(mut left, mut left_kept), (right, right_kept)| {
            left.absorb(&right);
            left_kept.extend(right_kept);
            (left, left_kept)
        });
    kept.sort_by_key(|summary| summary.index);
    RunResult {
        aggregate,
        games: kept,
        stopped: stop.load(Ordering::Relaxed),
    }
}

/// A stable 64-bit FNV-1a hash of a scenario's text, so merged runs can be
/// checked to come from the same file (std's hasher may change between
/// Rust releases).
pub fn text_hash(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests;
