//! The A* search's priority queue: buckets of the packed entries'
//! priority ([`super::search::Entry`], a priority in whole units of cost
//! above a cell index), which pops the entries in order of priority, those
//! of one priority in any order.
//!
//! The priorities an A* search pushes lie a few inches above the last it
//! popped, so a ring of buckets, one a unit of priority, holds nearly all
//! of them: a push is a bucket's push, and a pop takes the last entry
//! pushed into the lowest bucket in use (a bucket's entries share their
//! priority, so no comparison is needed). An entry that falls outside the
//! ring (below its first bucket, or too far above) goes to a binary heap
//! beside it, and a pop takes the lesser priority of the two.
//!
//! Which of several entries of one priority comes first does not matter
//! to the search: with its consistent estimate, every cell it finishes is
//! finished at its cheapest cost whatever the order among ties, and the
//! path it returns is walked from those costs alone
//! ([`super::search::canonical_walk`]).

use super::search::Entry;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Buckets in the ring (a power of two), one a unit of priority: 16
/// inches of priorities (at [`super::search::UNITS_PER_INCH`]).
const RING: usize = 1 << 14;

/// The end of a bucket's list of entries.
const NIL: u32 = u32::MAX;

/// The bucket of a packed entry: its priority, the high half.
#[inline(always)]
fn bucket_of(value: u64) -> u64 {
    value >> 32
}

/// A min-queue of packed entries, popping them in order of priority (the
/// high 32 bits), entries of one priority in any order.
#[derive(Debug)]
pub(super) struct CostQueue {
    /// The bucket number of the ring's first slot in use: no entry in the
    /// ring is in a lower bucket, and the ring holds buckets `first ..
    /// first + RING`. [`UNANCHORED`] while the queue is empty after
    /// [`CostQueue::clear`], so that the first push sets it.
    first: u64,
    /// Slot `b % RING` holds bucket `b`'s entries as a list through
    /// `links`, last pushed first: the index of its first link, when the
    /// slot's bit of `occupied` is set (else stale).
    heads: Box<[u32; RING]>,
    /// Bit `s % 64` of word `s / 64` set when slot `s` holds an entry.
    occupied: Box<[u64; RING / 64]>,
    /// The ring's entries, each its low half (the cell) and the next link
    /// of its bucket ([`NIL`] for the last), in the order pushed; emptied
    /// with the queue.
    links: Vec<(u32, u32)>,
    /// How many entries the ring holds.
    in_ring: usize,
    /// Entries outside the ring, popped by plain comparison.
    outside: BinaryHeap<Reverse<u64>>,
}

/// [`CostQueue::first`] of a queue just cleared: far above every bucket
/// (a bucket is a `u64` shifted right by 32 bits), so that every entry
/// falls outside the ring and the first push, finding the queue empty,
/// starts the ring at its own bucket.
const UNANCHORED: u64 = 1 << 62;

impl Default for CostQueue {
    fn default() -> CostQueue {
        CostQueue {
            first: UNANCHORED,
            heads: vec![NIL; RING]
                .into_boxed_slice()
                .try_into()
                .expect("RING heads"),
            occupied: Box::new([0; RING / 64]),
            links: Vec::new(),
            in_ring: 0,
            outside: BinaryHeap::new(),
        }
    }
}

impl CostQueue {
    /// Empty the queue (keeping what it has allocated).
    pub(super) fn clear(&mut self) {
        if self.in_ring != 0 {
            self.occupied.fill(0);
        }
        self.links.clear();
        self.in_ring = 0;
        self.first = UNANCHORED;
        self.outside.clear();
    }

    /// Add an entry.
    #[inline(always)]
    pub(super) fn push(&mut self, entry: Entry) {
        let value = entry.0;
        let bucket = bucket_of(value);
        // How far above the ring's first bucket the entry's lies; below it,
        // the difference wraps round to far above the ring.
        if bucket.wrapping_sub(self.first) >= RING as u64 {
            if self.in_ring != 0 || !self.outside.is_empty() {
                self.outside.push(entry);
                return;
            }
            // An empty queue starts its ring at the entry's bucket (an
            // empty queue whose ring holds the entry's bucket keeps it: no
            // entry lies below its first bucket).
            self.first = bucket;
        }
        let Ok(link) = u32::try_from(self.links.len()) else {
            // Far more entries than a search pushes (at most eight a cell):
            // the rest wait outside, so that a link fits its `u32`.
            self.outside.push(entry);
            return;
        };
        let slot = (bucket % RING as u64) as usize;
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        let next = if self.occupied[word] & bit != 0 {
            self.heads[slot]
        } else {
            NIL
        };
        self.heads[slot] = link;
        self.links.push((value as u32, next));
        self.occupied[word] |= bit;
        self.in_ring += 1;
    }

    /// The ring's lowest bucket in use, from `first` on (the ring holds
    /// an entry), and its slot.
    #[inline]
    fn lowest(&self) -> (u64, usize) {
        let start = (self.first % RING as u64) as usize;
        let mut slot = start;
        loop {
            let (word, bit) = (slot / 64, slot % 64);
            let bits = self.occupied[word] >> bit;
            if bits != 0 {
                let found = slot + bits.trailing_zeros() as usize;
                let ahead = (found + RING - start) % RING;
                return (self.first + ahead as u64, found);
            }
            slot = ((word + 1) * 64) % RING;
        }
    }

    /// Take out an entry of the least priority.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<Entry> {
        if self.in_ring == 0 {
            return self.outside.pop();
        }
        let (bucket, slot) = self.lowest();
        self.first = bucket;
        if let Some(&Reverse(outside)) = self.outside.peek()
            && bucket_of(outside) < bucket
        {
            return self.outside.pop();
        }
        let (low, next) = self.links[self.heads[slot] as usize];
        self.heads[slot] = next;
        if next == NIL {
            self.occupied[slot / 64] &= !(1u64 << (slot % 64));
        }
        self.in_ring -= 1;
        Some(Reverse((bucket << 32) | u64::from(low)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// A multiset of entries, the plain queue the ring is held to: a pop
    /// is right if the entry is held and of the least priority held.
    #[derive(Default)]
    struct Held(std::collections::BTreeMap<u64, usize>);

    impl Held {
        fn push(&mut self, value: u64) {
            *self.0.entry(value).or_default() += 1;
        }

        /// Take out `popped` (the queue's pop), checking it against the
        /// least entry held.
        fn pop(&mut self, popped: Option<Reverse<u64>>, round: usize) {
            let least = self.0.first_key_value().map(|(&value, _)| value);
            let Some(Reverse(value)) = popped else {
                assert_eq!(least, None, "round {round}");
                return;
            };
            let least = least.expect("an entry held");
            assert_eq!(value >> 32, least >> 32, "round {round}");
            let count = self.0.get_mut(&value).expect("the entry held");
            *count -= 1;
            if *count == 0 {
                self.0.remove(&value);
            }
        }
    }

    /// Over seeded random runs of pushes and pops, mostly rising as an A*
    /// search's are, with duplicates, ties of priority and entries below
    /// the last popped: every pop is an entry pushed and not yet popped, of
    /// the least priority of those (as a binary heap's pop is, but for the
    /// order among ties).
    #[test]
    fn pops_the_least_priority_as_a_binary_heap_does() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        let mut queue = CostQueue::default();
        let mut ties = 0;
        for round in 0..400 {
            queue.clear();
            let mut heap = Held::default();
            let mut floor = 0u64;
            let spread: u64 = match round % 4 {
                0 => 16,
                1 => 1 << 20,
                2 => 1 << 40,
                _ => u64::MAX >> 2,
            };
            for _ in 0..rng.random_range(0..3000) {
                if rng.random_bool(0.55) {
                    let value = match rng.random_range(0..10) {
                        // Below what was last popped.
                        0 => floor.saturating_sub(rng.random_range(0..=spread)),
                        // Exactly what was last popped.
                        1 => floor,
                        _ => floor.saturating_add(rng.random_range(0..=spread)),
                    };
                    // Often another cell of a priority held.
                    let value = match heap.0.keys().next() {
                        Some(&held) if rng.random_bool(0.3) => {
                            ties += 1;
                            (held & !u64::from(u32::MAX)) | rng.random_range(0..1 << 20)
                        }
                        _ => value,
                    };
                    queue.push(Reverse(value));
                    heap.push(value);
                } else {
                    let popped = queue.pop();
                    heap.pop(popped, round);
                    if let Some(Reverse(value)) = popped {
                        floor = value;
                    }
                }
            }
            while !heap.0.is_empty() {
                heap.pop(queue.pop(), round);
            }
            assert_eq!(queue.pop(), None);
        }
        assert!(ties > 10_000, "{ties}");
    }

    /// Entries of an A* search, a priority in units above a cell index.
    #[test]
    fn pops_packed_costs_in_order() {
        use super::super::search::entry_units;
        let mut queue = CostQueue::default();
        let entries = [
            (3584u32, 7usize),
            (0, 3),
            (3584, 2),
            (u32::MAX, 1),
            (1280, 9),
            (0, 3),
            (1_000_000, 4),
        ];
        for &(priority, cell) in &entries {
            queue.push(entry_units(priority, cell));
        }
        let mut popped = Vec::new();
        while let Some(entry) = queue.pop() {
            popped.push(entry.0);
        }
        let priorities: Vec<u64> = popped.iter().map(|value| value >> 32).collect();
        assert!(priorities.is_sorted(), "{popped:?}");
        let mut sorted: Vec<u64> = entries
            .iter()
            .map(|&(priority, cell)| entry_units(priority, cell).0)
            .collect();
        sorted.sort_unstable();
        popped.sort_unstable();
        assert_eq!(popped, sorted);
    }
}
