//! Dice: the three kinds foe rolls, and the sources that roll them.
//!
//! Every random number in foe comes from a [`Roller`] passed explicitly to
//! the code that needs it. [`Seeded`] is the one real generator (ChaCha8,
//! whose stream is portable, so a seed replays a game on any machine);
//! [`Scripted`] hands out forced rolls for tests (it panics on a roll that
//! is not a face: a bug in the test). Rolls read back from a save, which
//! are untrusted, go through the checking `save::Replay` instead.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::collections::VecDeque;
use std::fmt;

/// The kinds of dice the rules call for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Die {
    /// An ordinary six-sided die, 1–6 (the Lone Warrior reaction test).
    D6,
    /// The average die of the seed-000 rules: faces 2, 3, 3, 4, 4, 5.
    Average,
    /// Percentage dice, 1–100 (generals and reinforcements).
    D100,
}

/// The faces of the average die, in face order.
pub const AVERAGE_FACES: [u8; 6] = [2, 3, 3, 4, 4, 5];

impl Die {
    /// Whether `value` is a face this die can show.
    pub fn is_face(self, value: u8) -> bool {
        match self {
            Die::D6 => (1..=6).contains(&value),
            Die::Average => (2..=5).contains(&value),
            Die::D100 => (1..=100).contains(&value),
        }
    }

    /// Every face the die can show with its probability, for exact odds.
    pub fn outcomes(self) -> Vec<(u8, f64)> {
        match self {
            Die::D6 => (1..=6).map(|face| (face, 1.0 / 6.0)).collect(),
            Die::Average => vec![
                (2, 1.0 / 6.0),
                (3, 2.0 / 6.0),
                (4, 2.0 / 6.0),
                (5, 1.0 / 6.0),
            ],
            Die::D100 => (1..=100).map(|face| (face, 0.01)).collect(),
        }
    }

    /// What a player types or reads: the legal faces in words.
    pub fn faces_hint(self) -> &'static str {
        match self {
            Die::D6 => "a D6 roll from 1 to 6",
            Die::Average => "an average-die roll from 2 to 5",
            Die::D100 => "a percentage roll from 1 to 100",
        }
    }

    /// What a player types for `count` dice of this kind: the
    /// [`Die::faces_hint`] of one, or `3 D6 rolls from 1 to 6`.
    pub fn faces_hint_for(self, count: usize) -> String {
        if count == 1 {
            return self.faces_hint().to_string();
        }
        let kind = match self {
            Die::D6 => "D6 rolls from 1 to 6",
            Die::Average => "average-die rolls from 2 to 5",
            Die::D100 => "percentage rolls from 1 to 100",
        };
        format!("{count} {kind}")
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Die::D6 => "D6",
            Die::Average => "average die",
            Die::D100 => "d100",
        })
    }
}

/// A source of dice rolls. The rules ask; the roller answers with a legal face.
pub trait Roller {
    /// Roll one die of the given kind.
    fn roll(&mut self, die: Die) -> u8;

    /// Roll one die, saying what it is for (`prov's reaction test`). Only a
    /// roller that asks a player for real dice needs the reason; the others
    /// just roll. The reason comes unformatted (`format_args!`), so rolling
    /// allocates nothing unless a player is asked.
    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        let _ = why;
        self.roll(die)
    }

    /// Roll `count` dice of one kind at once, all for one reason (`the
    /// 33rd Virginia firing`). The dice come in the order `count` calls of
    /// [`Roller::roll_for`] would give them, so a seeded game is the same
    /// whichever way it is rolled; a roller that asks a player can take
    /// them all from one line.
    fn roll_many(&mut self, die: Die, count: usize, why: std::fmt::Arguments<'_>) -> Vec<u8> {
        (0..count).map(|_| self.roll_for(die, why)).collect()
    }
}

impl<R: Roller + ?Sized> Roller for &mut R {
    fn roll(&mut self, die: Die) -> u8 {
        (**self).roll(die)
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        (**self).roll_for(die, why)
    }

    fn roll_many(&mut self, die: Die, count: usize, why: std::fmt::Arguments<'_>) -> Vec<u8> {
        (**self).roll_many(die, count, why)
    }
}

impl<R: Roller + ?Sized> Roller for Box<R> {
    fn roll(&mut self, die: Die) -> u8 {
        (**self).roll(die)
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        (**self).roll_for(die, why)
    }

    fn roll_many(&mut self, die: Die, count: usize, why: std::fmt::Arguments<'_>) -> Vec<u8> {
        (**self).roll_many(die, count, why)
    }
}

/// The seeded, portable generator: the same seed gives the same rolls everywhere.
#[derive(Debug)]
pub struct Seeded {
    rng: ChaCha8Rng,
}

impl Seeded {
    /// A generator whose every roll follows from `seed`.
    pub fn new(seed: u64) -> Seeded {
        Seeded {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Roller for Seeded {
    fn roll(&mut self, die: Die) -> u8 {
        match die {
            Die::D6 => self.rng.random_range(1u8..=6),
            Die::Average => AVERAGE_FACES[usize::from(self.rng.random_range(0u8..6))],
            Die::D100 => self.rng.random_range(1u8..=100),
        }
    }
}

/// Forced rolls, handed out in order; when they run out, a fallback roller
/// (if any) takes over, so a test or a player can force just the first few.
pub struct Scripted {
    queue: VecDeque<u8>,
    fallback: Option<Box<dyn Roller>>,
}

impl fmt::Debug for Scripted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scripted")
            .field("queue", &self.queue)
            .finish_non_exhaustive()
    }
}

impl Scripted {
    /// Forced rolls with no fallback. Each roll must be a legal face of the die
    /// asked for; running out is a bug in the caller (tests), so it panics.
    pub fn new(rolls: impl IntoIterator<Item = u8>) -> Scripted {
        Scripted {
            queue: rolls.into_iter().collect(),
            fallback: None,
        }
    }

    /// Forced rolls first, then rolls from `fallback`.
    pub fn then(rolls: impl IntoIterator<Item = u8>, fallback: Box<dyn Roller>) -> Scripted {
        Scripted {
            queue: rolls.into_iter().collect(),
            fallback: Some(fallback),
        }
    }

    /// Add a forced roll at the end of the queue.
    pub fn push(&mut self, value: u8) {
        self.queue.push_back(value);
    }

    /// How many forced rolls are left.
    pub fn remaining(&self) -> usize {
        self.queue.len()
    }
}

impl Roller for Scripted {
    fn roll(&mut self, die: Die) -> u8 {
        match self.queue.pop_front() {
            Some(value) => {
                assert!(
                    die.is_face(value),
                    "scripted roll {value} is not a face of the {die}"
                );
                value
            }
            None => match &mut self.fallback {
                Some(fallback) => fallback.roll(die),
                None => panic!("scripted dice ran out: the test asked for one more {die}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolling_many_draws_what_rolling_one_at_a_time_does() {
        let mut batch = Seeded::new(42);
        let mut single = Seeded::new(42);
        let many = batch.roll_many(Die::D6, 12, format_args!("a pile"));
        let one: Vec<u8> = (0..12)
            .map(|_| single.roll_for(Die::D6, format_args!("x")))
            .collect();
        assert_eq!(many, one);
        assert_eq!(batch.roll(Die::D100), single.roll(Die::D100));
    }

    #[test]
    fn a_fixed_seed_gives_fixed_dice() {
        // Pinned: if this changes, every saved game and golden transcript breaks.
        let mut roller = Seeded::new(42);
        let d6: Vec<u8> = (0..10).map(|_| roller.roll(Die::D6)).collect();
        let avg: Vec<u8> = (0..10).map(|_| roller.roll(Die::Average)).collect();
        let pct: Vec<u8> = (0..5).map(|_| roller.roll(Die::D100)).collect();
        assert_eq!(d6, [2, 5, 1, 6, 5, 3, 3, 4, 5, 2]);
        assert_eq!(avg, [4, 2, 3, 3, 2, 4, 4, 4, 4, 3]);
        assert_eq!(pct, [54, 51, 38, 91, 59]);
    }

    #[test]
    fn seeded_rolls_are_always_legal_faces() {
        let mut roller = Seeded::new(7);
        for die in [Die::D6, Die::Average, Die::D100] {
            for _ in 0..2000 {
                assert!(die.is_face(roller.roll(die)));
            }
        }
    }

    #[test]
    fn seeded_rolls_cover_every_face() {
        let mut roller = Seeded::new(1);
        for die in [Die::D6, Die::Average] {
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..600 {
                seen.insert(roller.roll(die));
            }
            let faces: std::collections::BTreeSet<u8> =
                die.outcomes().into_iter().map(|(face, _)| face).collect();
            assert_eq!(seen, faces);
        }
    }

    #[test]
    fn outcomes_sum_to_one() {
        for die in [Die::D6, Die::Average, Die::D100] {
            let total: f64 = die.outcomes().iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-9, "{die}");
        }
    }

    #[test]
    fn scripted_rolls_come_in_order_then_fall_back() {
        let mut roller = Scripted::then([4, 2], Box::new(Seeded::new(3)));
        assert_eq!(roller.roll(Die::D6), 4);
        assert_eq!(roller.roll(Die::Average), 2);
        assert!(Die::D100.is_face(roller.roll(Die::D100)));
    }

    #[test]
    #[should_panic(expected = "not a face")]
    fn scripted_rolls_must_be_legal() {
        Scripted::new([1]).roll(Die::Average);
    }
}
