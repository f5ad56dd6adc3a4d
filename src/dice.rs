//! Dice: the three kinds foe rolls, and the sources that roll them.
//!
//! Every random number in foe comes from a [`Roller`] passed explicitly to
//! the code that needs it. [`Seeded`] is the one real generator (ChaCha8,
//! whose stream is portable, so a seed replays a game on any machine);
//! [`Keyed`] draws each roll from the seed and the roll's place in the
//! game instead (its turn, what it is for, and how many rolls that turn
//! were for the same), so taking a move back and playing it again cannot
//! change the dice of what follows (ruling P7);
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

/// How a seeded game draws its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// One stream from the seed, roll after roll ([`Seeded`]): how games
    /// saved before ruling P7 were rolled, so they replay as played.
    Stream,
    /// Each roll by its place in the game ([`Keyed`]).
    #[default]
    Keyed,
}

impl Scheme {
    /// How saves that do not say rolled: one stream.
    pub fn earlier() -> Scheme {
        Scheme::Stream
    }
}

/// Dice drawn by their place in the game, not from one stream: each roll
/// follows from the game's seed, the turn set by [`Keyed::at_turn`], the
/// die, what the roll is for (the reason given to [`Roller::roll_for`])
/// and how many rolls before it that turn were for the same. So a roll
/// does not depend on how many other rolls came before it: a player who
/// adds or drops a roll of their own (a rally taken back) leaves the
/// enemy's dice as they were. Portable: FNV-1a and SplitMix64, the same
/// on every machine.
#[derive(Debug, Clone)]
pub struct Keyed {
    seed: u64,
    turn: u32,
    /// How many rolls this turn had each key, by key.
    asked: std::collections::HashMap<u64, u32>,
}

impl Keyed {
    /// Dice for the game seeded `seed`, in turn 0 until told otherwise.
    pub fn new(seed: u64) -> Keyed {
        Keyed {
            seed,
            turn: 0,
            asked: std::collections::HashMap::new(),
        }
    }

    /// The game is in turn `turn` now.
    pub fn at_turn(&mut self, turn: u32) {
        if turn != self.turn {
            self.turn = turn;
            self.asked.clear();
        }
    }
}

/// FNV-1a over what is written to it.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl fmt::Write for Fnv {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.bytes(text.as_bytes());
        Ok(())
    }
}

/// SplitMix64's finaliser: a well-mixed word from any word.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Roller for Keyed {
    fn roll(&mut self, die: Die) -> u8 {
        self.roll_for(die, format_args!("a roll"))
    }

    fn roll_for(&mut self, die: Die, why: fmt::Arguments<'_>) -> u8 {
        let mut key = Fnv(0xcbf2_9ce4_8422_2325);
        key.bytes(&self.seed.to_le_bytes());
        key.bytes(&self.turn.to_le_bytes());
        key.bytes(&[die as u8]);
        let _ = fmt::write(&mut key, why);
        let asked = self.asked.entry(key.0).or_insert(0);
        let nth = *asked;
        *asked += 1;
        let word = mix(key.0 ^ mix(u64::from(nth)));
        // The high bits of a widening product: each face as likely as the
        // next to within one part in 2^58.
        let pick = |faces: u64| ((u128::from(word) * u128::from(faces)) >> 64) as u8;
        match die {
            Die::D6 => pick(6) + 1,
            Die::Average => AVERAGE_FACES[usize::from(pick(6))],
            Die::D100 => pick(100) + 1,
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
    fn keyed_dice_follow_the_place_not_the_rolls_before() {
        let mut plain = Keyed::new(7);
        plain.at_turn(3);
        let enemy = |dice: &mut Keyed| -> Vec<u8> {
            (0..4)
                .map(|_| dice.roll_for(Die::D6, format_args!("Greene's reaction")))
                .collect()
        };
        let without = enemy(&mut plain);
        let mut rallied = Keyed::new(7);
        rallied.at_turn(3);
        rallied.roll_for(Die::D6, format_args!("the player's rally"));
        rallied.roll_for(Die::D100, format_args!("Greene's reaction"));
        assert_eq!(enemy(&mut rallied), without, "other rolls change nothing");
        // Another turn, another seed or another reason: other dice.
        let mut later = Keyed::new(7);
        later.at_turn(4);
        let mut other = Keyed::new(8);
        other.at_turn(3);
        let many = |dice: &mut Keyed, why: &str| -> Vec<u8> {
            (0..40)
                .map(|_| dice.roll_for(Die::D100, format_args!("{why}")))
                .collect()
        };
        let mut base = Keyed::new(7);
        base.at_turn(3);
        let first = many(&mut base, "x");
        assert_ne!(many(&mut later, "x"), first);
        assert_ne!(many(&mut other, "x"), first);
        let mut again = Keyed::new(7);
        again.at_turn(3);
        assert_ne!(many(&mut again, "y"), first);
    }

    #[test]
    fn keyed_dice_show_every_face_about_equally() {
        for die in [Die::D6, Die::Average, Die::D100] {
            let mut dice = Keyed::new(11);
            let mut counts = std::collections::BTreeMap::new();
            for turn in 0..60_000u32 {
                dice.at_turn(turn);
                let face = dice.roll_for(die, format_args!("a test"));
                assert!(die.is_face(face));
                *counts.entry(face).or_insert(0u32) += 1;
            }
            for (face, chance) in die.outcomes() {
                let expected = chance * 60_000.0;
                let got = f64::from(counts.get(&face).copied().unwrap_or(0));
                // Five standard deviations of a binomial count.
                let sd = (expected * (1.0 - chance)).sqrt();
                assert!(
                    (got - expected).abs() < 5.0 * sd,
                    "{die} face {face}: {got} of 60,000, expected {expected:.0}"
                );
            }
        }
    }

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
