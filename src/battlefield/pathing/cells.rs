//! Sets of cells (those other units stand on, which a search skips): one
//! bit per cell.

use crate::battlefield::CellIndex;

/// A set of cells, e.g. those enemy units stand on: one bit per cell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CellSet {
    /// Bit `cell % 64` of word `cell / 64` is set when the set holds `cell`.
    pub(super) words: Vec<u64>,
    /// The number of cells the set can hold; others are never in it.
    len: usize,
}

impl CellSet {
    /// An empty set for a grid of `n_cells`.
    pub fn new(n_cells: usize) -> CellSet {
        CellSet {
            words: vec![0; n_cells.div_ceil(64)],
            len: n_cells,
        }
    }

    /// The empty set, usable with any grid.
    pub fn none() -> CellSet {
        CellSet::default()
    }

    /// Add a cell (ignored if out of range).
    #[inline]
    pub fn insert(&mut self, cell: CellIndex) {
        if cell < self.len {
            self.words[cell / 64] |= 1 << (cell % 64);
        }
    }

    /// Add cells `first .. first + len` (those in range), a word at a time.
    pub fn insert_span(&mut self, first: CellIndex, len: usize) {
        let end = first.saturating_add(len).min(self.len);
        let mut at = first;
        while at < end {
            let (word, offset) = (at / 64, at % 64);
            let count = (64 - offset).min(end - at);
            let bits = if count == 64 {
                u64::MAX
            } else {
                ((1u64 << count) - 1) << offset
            };
            self.words[word] |= bits;
            at += count;
        }
    }

    /// Take a cell out (ignored if out of range).
    #[inline]
    pub fn remove(&mut self, cell: CellIndex) {
        if cell < self.len {
            self.words[cell / 64] &= !(1u64 << (cell % 64));
        }
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub fn contains(&self, cell: CellIndex) -> bool {
        cell < self.len && self.words[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// Bits `first .. first + count` of the set (`count` at most 64), cell
    /// `first` in bit 0; cells past the set's length are not in it.
    #[inline]
    pub(super) fn bits(&self, first: CellIndex, count: usize) -> u64 {
        let (word, offset) = (first / 64, first % 64);
        let mut bits = self.words.get(word).map_or(0, |w| w >> offset);
        if offset != 0 {
            bits |= self.words.get(word + 1).map_or(0, |w| w << (64 - offset));
        }
        if count < 64 {
            bits & ((1u64 << count) - 1)
        } else {
            bits
        }
    }
}
