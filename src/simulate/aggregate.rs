//! Sums of many games, keyed by the games they cover, and merged like sets.

use super::GameSummary;
use crate::stats::{Z95, wilson};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A set of game indices as sorted, disjoint, non-adjacent half-open
/// ranges `[start, end)`: the games an aggregate covers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRanges(pub Vec<(u64, u64)>);

impl GameRanges {
    /// Add one game.
    pub fn insert(&mut self, index: u64) {
        self.insert_range(index, index + 1);
    }

    /// Add `[start, end)`.
    pub fn insert_range(&mut self, start: u64, end: u64) {
        if start >= end {
            return;
        }
        self.0.push((start, end));
        self.normalize();
    }

    /// Every game of both.
    pub fn union(&mut self, other: &GameRanges) {
        self.0.extend(other.0.iter().copied());
        self.normalize();
    }

    /// Whether a game is in both.
    pub fn overlaps(&self, other: &GameRanges) -> bool {
        self.0
            .iter()
            .any(|&(a, b)| other.0.iter().any(|&(c, d)| a.max(c) < b.min(d)))
    }

    /// How many games.
    pub fn count(&self) -> u64 {
        self.0.iter().map(|(start, end)| end - start).sum()
    }

    fn normalize(&mut self) {
        self.0.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(self.0.len());
        for &(start, end) in &self.0 {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        self.0 = merged;
    }
}

impl fmt::Display for GameRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "none");
        }
        for (position, (start, end)) in self.0.iter().enumerate() {
            if position > 0 {
                write!(f, ", ")?;
            }
            if end - start == 1 {
                write!(f, "{start}")?;
            } else {
                write!(f, "{start}..{end}")?;
            }
        }
        Ok(())
    }
}

/// Why two aggregates do not merge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// The same game is in both.
    #[error("both runs played games {0}: shards must cover different games")]
    Overlap(GameRanges),
}

/// The sums of many games. Whole numbers only, so adding games in any
/// order, or merging shards, gives the same aggregate.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aggregate {
    /// The games summed.
    pub ranges: GameRanges,
    /// How many.
    pub games: u64,
    /// Wins per side.
    pub wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// How many games lasted each number of turns.
    pub turns: BTreeMap<u32, u64>,
    /// Units lost per side, summed.
    pub units_lost: Vec<u64>,
    /// Hits taken per side, summed.
    pub hits: Vec<u64>,
    /// Charges reaching contact per side, summed (absent from reports
    /// written before they were counted).
    #[serde(default)]
    pub charges: Vec<u64>,
    /// Per unit: games in which it routed.
    pub routed: Vec<u64>,
    /// Per unit: games in which it was driven off the table.
    pub exited: Vec<u64>,
    /// Per victory condition: games it decided.
    pub conditions: Vec<u64>,
    /// Per general: rally attempts used, summed.
    pub rallies_used: Vec<u64>,
    /// Orders given, by id, summed.
    pub orders: BTreeMap<String, u64>,
    /// Per troop type: bounds tested on the table and bounds a move found
    /// no lawful way, summed ([`GameSummary::stuck`]).
    #[serde(default)]
    pub stuck: BTreeMap<String, [u64; 2]>,
    /// Per troop type: bounds its units were hemmed in by the
    /// enemy-presence rule, and held up behind other units, summed
    /// ([`GameSummary::hemmed`]).
    #[serde(default)]
    pub hemmed: BTreeMap<String, [u64; 2]>,
    /// Seed 001's victory margins ([`GameSummary::margin`]); empty, and
    /// left out of reports, under rules without one.
    #[serde(default, skip_serializing_if = "Margins::is_empty")]
    pub margins: Margins,
    /// How foe carried out its orders, summed by name
    /// ([`GameSummary::conduct`]); empty where no game counted them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conduct: BTreeMap<String, u64>,
}

/// Victory margins summed as whole numbers (count, sum, sum of squares,
/// lowest and highest), so they add and merge in any order like the rest
/// of an [`Aggregate`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Margins {
    /// Games with a margin.
    pub games: u64,
    /// The margins summed.
    pub sum: i64,
    /// Their squares summed.
    pub squares: u64,
    /// The lowest (meaningless while `games` is 0).
    pub low: i32,
    /// The highest.
    pub high: i32,
}

impl Margins {
    /// No game had a margin.
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// Add one game's margin.
    pub fn add(&mut self, margin: i32) {
        self.absorb(&Margins {
            games: 1,
            sum: i64::from(margin),
            squares: u64::from(margin.unsigned_abs()).pow(2),
            low: margin,
            high: margin,
        });
    }

    /// Add other games' margins.
    pub fn absorb(&mut self, other: &Margins) {
        if other.games == 0 {
            return;
        }
        if self.games == 0 {
            *self = *other;
            return;
        }
        self.games += other.games;
        self.sum += other.sum;
        self.squares += other.squares;
        self.low = self.low.min(other.low);
        self.high = self.high.max(other.high);
    }

    /// The mean margin.
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.games.max(1) as f64
    }

    /// The margins' standard deviation (of the games, not of the mean).
    pub fn sd(&self) -> f64 {
        let n = self.games.max(1) as f64;
        let mean = self.mean();
        (self.squares as f64 / n - mean * mean).max(0.0).sqrt()
    }
}

/// A rate with its 95% Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Successes over trials.
    pub rate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

fn add_into(into: &mut Vec<u64>, from: impl IntoIterator<Item = u64>) {
    for (index, value) in from.into_iter().enumerate() {
        if into.len() <= index {
            into.resize(index + 1, 0);
        }
        into[index] += value;
    }
}

impl Aggregate {
    /// Add one game.
    pub fn add(&mut self, game: &GameSummary) {
        self.ranges.insert(game.index);
        self.games += 1;
        match game.winner {
            Some(side) => {
                add_into(&mut self.wins, (0..=side).map(|s| u64::from(s == side)));
            }
            None => self.draws += 1,
        }
        add_into(&mut self.wins, game.units_lost.iter().map(|_| 0));
        if let Some(condition) = game.condition {
            add_into(
                &mut self.conditions,
                (0..=condition).map(|c| u64::from(c == condition)),
            );
        }
        *self.turns.entry(game.turns).or_insert(0) += 1;
        add_into(
            &mut self.units_lost,
            game.units_lost.iter().map(|&n| n.into()),
        );
        add_into(&mut self.hits, game.hits.iter().map(|&n| n.into()));
        add_into(&mut self.charges, game.charges.iter().map(|&n| n.into()));
        add_into(&mut self.routed, game.routed.iter().map(|&b| b.into()));
        add_into(&mut self.exited, game.exited.iter().map(|&b| b.into()));
        add_into(
            &mut self.rallies_used,
            game.rallies_used.iter().map(|&n| n.into()),
        );
        for (order, count) in &game.orders {
            *self.orders.entry(order.clone()).or_insert(0) += u64::from(*count);
        }
        for (troop, [bounds, stuck]) in &game.stuck {
            let sum = self.stuck.entry(troop.clone()).or_insert([0, 0]);
            sum[0] += u64::from(*bounds);
            sum[1] += u64::from(*stuck);
        }
        for (troop, [enemy, friends]) in &game.hemmed {
            let sum = self.hemmed.entry(troop.clone()).or_insert([0, 0]);
            sum[0] += u64::from(*enemy);
            sum[1] += u64::from(*friends);
        }
        if let Some(margin) = game.margin {
            self.margins.add(margin);
        }
        for (name, count) in &game.conduct {
            *self.conduct.entry(name.clone()).or_insert(0) += u64::from(*count);
        }
    }

    /// Add another aggregate's games, trusting they are different games
    /// (used inside one run, where they are).
    pub fn absorb(&mut self, other: &Aggregate) {
        self.ranges.union(&other.ranges);
        self.games += other.games;
        add_into(&mut self.wins, other.wins.iter().copied());
        self.draws += other.draws;
        for (turns, count) in &other.turns {
            *self.turns.entry(*turns).or_insert(0) += count;
        }
        add_into(&mut self.units_lost, other.units_lost.iter().copied());
        add_into(&mut self.hits, other.hits.iter().copied());
        add_into(&mut self.charges, other.charges.iter().copied());
        add_into(&mut self.routed, other.routed.iter().copied());
        add_into(&mut self.exited, other.exited.iter().copied());
        add_into(&mut self.conditions, other.conditions.iter().copied());
        add_into(&mut self.rallies_used, other.rallies_used.iter().copied());
        for (order, count) in &other.orders {
            *self.orders.entry(order.clone()).or_insert(0) += count;
        }
        for (troop, [bounds, stuck]) in &other.stuck {
            let sum = self.stuck.entry(troop.clone()).or_insert([0, 0]);
            sum[0] += bounds;
            sum[1] += stuck;
        }
        for (troop, [enemy, friends]) in &other.hemmed {
            let sum = self.hemmed.entry(troop.clone()).or_insert([0, 0]);
            sum[0] += enemy;
            sum[1] += friends;
        }
        self.margins.absorb(&other.margins);
        for (name, count) in &other.conduct {
            *self.conduct.entry(name.clone()).or_insert(0) += count;
        }
    }

    /// Merge a shard covering other games; refused if any game is in both.
    pub fn merge(&mut self, other: &Aggregate) -> Result<(), MergeError> {
        if self.ranges.overlaps(&other.ranges) {
            let mut both = GameRanges::default();
            for &(a, b) in &self.ranges.0 {
                for &(c, d) in &other.ranges.0 {
                    both.insert_range(a.max(c), b.min(d));
                }
            }
            return Err(MergeError::Overlap(both));
        }
        self.absorb(other);
        Ok(())
    }

    /// `count` out of the games, with its 95% Wilson interval.
    pub fn rate(&self, count: u64) -> Rate {
        let (low, high) = wilson(count, self.games, Z95);
        Rate {
            rate: if self.games == 0 {
                0.0
            } else {
                count as f64 / self.games as f64
            },
            low,
            high,
        }
    }

    /// Side `side`'s wins.
    pub fn win_rate(&self, side: usize) -> Rate {
        self.rate(self.wins.get(side).copied().unwrap_or(0))
    }

    /// The mean number of turns played.
    pub fn mean_turns(&self) -> Option<f64> {
        let total: u64 = self
            .turns
            .iter()
            .map(|(turns, count)| u64::from(*turns) * count)
            .sum();
        (self.games > 0).then(|| total as f64 / self.games as f64)
    }

    /// The median number of turns played (the mean of the middle two for
    /// an even count, as [`crate::stats::median`]).
    pub fn median_turns(&self) -> Option<f64> {
        if self.games == 0 {
            return None;
        }
        let nth = |n: u64| {
            let mut seen = 0;
            for (turns, count) in &self.turns {
                seen += count;
                if seen > n {
                    return f64::from(*turns);
                }
            }
            0.0
        };
        Some(if self.games % 2 == 0 {
            (nth(self.games / 2 - 1) + nth(self.games / 2)) / 2.0
        } else {
            nth(self.games / 2)
        })
    }

    /// A per-game mean of a sum.
    pub fn mean(&self, total: u64) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            total as f64 / self.games as f64
        }
    }
}
