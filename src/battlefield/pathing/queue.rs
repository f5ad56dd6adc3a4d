//! The A* search's priority queue: buckets of the packed entries'
//! priority ([`super::search::Entry`], a priority in whole units of cost
//! above a cell index), which pops exactly what a binary heap of them
//! pops, in the same order.
//!
//! The priorities an A* search pushes lie a few inches above the last it
//! popped, so a ring of buckets, each the entries whose priority falls in
//! a narrow band (a 64th of an inch), holds nearly all of them: a push is
//! a bucket's push, and a pop takes the least entry of the lowest bucket
//! in use (a few entries, compared whole). A lower bucket holds only
//! lesser entries. An entry that falls outside the ring (below its first
//! bucket, or too far above) goes to a binary heap beside it, and a pop
//! takes the least of the two. Entries are whole `u64`s, equal only when
//! alike in every bit, so the order of pops is the order of the values.

use super::search::Entry;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Buckets in the ring (a power of two): 16 inches of priorities.
const RING: usize = 1024;

/// The low bits of a priority that a bucket leaves out: a bucket is 2^4
/// units (a 64th of an inch at [`super::search::UNITS_PER_INCH`]).
const FINE: u32 = 4;

/// The bucket of a packed entry: its priority less the lowest [`FINE`]
/// bits, which never decreases as the entry grows.
#[inline(always)]
fn bucket_of(value: u64) -> u64 {
    value >> (32 + FINE)
}

/// A min-queue of packed entries, popping exactly as
/// `BinaryHeap<Reverse<u64>>` does.
#[derive(Debug)]
pub(super) struct CostQueue {
    /// The bucket number of the ring's first slot in use: no entry in the
    /// ring is in a lower bucket, and the ring holds buckets `first ..
    /// first + RING`. [`UNANCHORED`] while the queue is empty after
    /// [`CostQueue::clear`], so that the first push sets it.
    first: u64,
    /// Slot `b % RING` holds bucket `b`'s entries (an array of the ring's
    /// size, so that a slot, `b % RING`, needs no bounds check).
    slots: Box<[Vec<u64>; RING]>,
    /// Bit `s % 64` of word `s / 64` set when slot `s` holds an entry.
    occupied: [u64; RING / 64],
    /// How many entries the ring holds.
    in_ring: usize,
    /// Entries outside the ring, popped by plain comparison.
    outside: BinaryHeap<Reverse<u64>>,
}

/// [`CostQueue::first`] of a queue just cleared: far above every bucket
/// (a bucket is a `u64` shifted right by 36 bits), so that every entry
/// falls outside the ring and the first push, finding the queue empty,
/// starts the ring at its own bucket.
const UNANCHORED: u64 = 1 << 62;

impl Default for CostQueue {
    fn default() -> CostQueue {
        let slots: Vec<Vec<u64>> = (0..RING).map(|_| Vec::new()).collect();
        CostQueue {
            first: UNANCHORED,
            slots: slots.into_boxed_slice().try_into().expect("RING slots"),
            occupied: [0; RING / 64],
            in_ring: 0,
            outside: BinaryHeap::new(),
        }
    }
}

impl CostQueue {
    /// Empty the queue (keeping what it has allocated).
    pub(super) fn clear(&mut self) {
        if self.in_ring != 0 {
            for (word, bits) in self.occupied.iter_mut().enumerate() {
                let mut bits = std::mem::take(bits);
                while bits != 0 {
                    self.slots[word * 64 + bits.trailing_zeros() as usize].clear();
                    bits &= bits - 1;
                }
            }
        }
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
        let slot = (bucket % RING as u64) as usize;
        self.slots[slot].push(value);
        self.occupied[slot / 64] |= 1u64 << (slot % 64);
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

    /// Take out the least entry.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<Entry> {
        if self.in_ring == 0 {
            return self.outside.pop();
        }
        let (bucket, slot) = self.lowest();
        self.first = bucket;
        let entries = &mut self.slots[slot];
        let mut at = 0;
        for (k, &value) in entries.iter().enumerate().skip(1) {
            if value < entries[at] {
                at = k;
            }
        }
        let least = entries[at];
        if let Some(&Reverse(outside)) = self.outside.peek()
            && outside < least
        {
            return self.outside.pop();
        }
        entries.swap_remove(at);
        if entries.is_empty() {
            self.occupied[slot / 64] &= !(1u64 << (slot % 64));
        }
        self.in_ring -= 1;
        Some(Reverse(least))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Over seeded random runs of pushes and pops, mostly rising as an A*
    /// search's are, with duplicates and entries below the last popped:
    /// every pop is the binary heap's.
    #[test]
    fn pops_what_a_binary_heap_pops() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        let mut queue = CostQueue::default();
        for round in 0..400 {
            queue.clear();
            let mut heap: BinaryHeap<Reverse<u64>> = BinaryHeap::new();
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
                    queue.push(Reverse(value));
                    heap.push(Reverse(value));
                } else {
                    let popped = queue.pop();
                    assert_eq!(popped, heap.pop(), "round {round}");
                    if let Some(Reverse(value)) = popped {
                        floor = value;
                    }
                }
            }
            while let Some(expected) = heap.pop() {
                assert_eq!(queue.pop(), Some(expected), "round {round}");
            }
            assert_eq!(queue.pop(), None);
        }
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
        let mut sorted: Vec<u64> = entries
            .iter()
            .map(|&(priority, cell)| entry_units(priority, cell).0)
            .collect();
        sorted.sort_unstable();
        assert_eq!(popped, sorted);
    }
}
