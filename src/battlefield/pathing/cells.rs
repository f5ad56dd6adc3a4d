//! Sets of cells (those other units stand on, which a search skips): one
//! bit per cell; and sets whose cells under other units are worked out
//! only where they are first asked about.
//!
//! A deferred set ([`crate::battlefield::Battlefield::deferred_cells`])
//! keeps, besides its bits, the units whose blocked cells it has not worked
//! out yet. The table is cut into buckets of [`BUCKET`] × [`BUCKET`]
//! cells; the first question about a cell of a bucket (a search reaching
//! it, a leg crossing it) works out every unit whose cells may fall in
//! that bucket, all its cells at once. A unit's cells lie in the buckets
//! of its box, so a cell's answer never changes once its bucket has been
//! asked about, and every answer is the one the set built whole gives.

use crate::battlefield::grid::Raster;
use crate::battlefield::{Base, CellIndex};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

/// A unit's blocked cells for a mover, as runs (first cell, length),
/// worked out once and shared by whoever keeps them (the opponent's memo).
pub type Spans = Arc<OnceLock<Vec<(CellIndex, usize)>>>;

/// The side of a bucket, in cells.
pub(super) const BUCKET: usize = 8;

/// A set of cells, e.g. those enemy units stand on: one bit per cell.
#[derive(Debug, Default)]
pub struct CellSet {
    /// Bit `cell % 64` of word `cell / 64` is set when the set holds `cell`
    /// (besides those of units not yet worked out, in a deferred set).
    pub(super) words: Vec<u64>,
    /// The number of cells the set can hold; others are never in it.
    len: usize,
    lazy: Option<Box<Lazy>>,
}

/// What a deferred set has not worked out yet. Atomic words so that a
/// question through `&self` may work cells out (the set stays `Sync`).
#[derive(Debug)]
struct Lazy {
    raster: Raster,
    /// Buckets west to east.
    across: usize,
    jobs: Vec<Job>,
    /// One bit per bucket: asked about, its units' cells worked out.
    touched: Vec<AtomicU64>,
    /// The cells of the units worked out so far.
    overlay: Vec<AtomicU64>,
    /// Cells taken out of the set after units were deferred (they stay
    /// out whatever a unit's cells say).
    removed: Vec<CellIndex>,
    /// The jobs whose boxes hold each bucket (bucket `b`'s are
    /// `jobs[starts[b]..starts[b + 1]]`), built at the first question.
    index: OnceLock<(Vec<u32>, Vec<u32>)>,
}

/// A unit whose cells are not worked out yet: the mover's and its base,
/// its box in buckets (south-west and north-east, both included).
#[derive(Debug)]
struct Job {
    mover: Base,
    other: Base,
    from: (usize, usize),
    to: (usize, usize),
    spans: Spans,
    done: AtomicBool,
}

impl Clone for Job {
    fn clone(&self) -> Job {
        Job {
            mover: self.mover,
            other: self.other,
            from: self.from,
            to: self.to,
            spans: self.spans.clone(),
            done: AtomicBool::new(self.done.load(Relaxed)),
        }
    }
}

fn copy_words(words: &[AtomicU64]) -> Vec<AtomicU64> {
    words
        .iter()
        .map(|word| AtomicU64::new(word.load(Relaxed)))
        .collect()
}

impl Clone for Lazy {
    fn clone(&self) -> Lazy {
        Lazy {
            raster: self.raster,
            across: self.across,
            jobs: self.jobs.clone(),
            touched: copy_words(&self.touched),
            overlay: copy_words(&self.overlay),
            removed: self.removed.clone(),
            index: self.index.clone(),
        }
    }
}

impl Clone for CellSet {
    fn clone(&self) -> CellSet {
        CellSet {
            words: self.words.clone(),
            len: self.len,
            lazy: self.lazy.clone(),
        }
    }
}

/// Two sets are equal when they hold the same cells, however many of
/// them are worked out yet.
impl PartialEq for CellSet {
    fn eq(&self, other: &CellSet) -> bool {
        self.len == other.len && self.resolved() == other.resolved()
    }
}

impl Eq for CellSet {}

/// Set bits `first .. first + len` (those below `n_bits`) of `words`, a
/// word at a time, through `set(word, bits)`.
fn for_each_word_of_span(
    first: CellIndex,
    len: usize,
    n_bits: usize,
    mut set: impl FnMut(usize, u64),
) {
    let end = first.saturating_add(len).min(n_bits);
    let mut at = first;
    while at < end {
        let (word, offset) = (at / 64, at % 64);
        let count = (64 - offset).min(end - at);
        let bits = if count == 64 {
            u64::MAX
        } else {
            ((1u64 << count) - 1) << offset
        };
        set(word, bits);
        at += count;
    }
}

/// Bits `first .. first + count` (`count` at most 64) of `word(i)`, cell
/// `first` in bit 0; bits past `n_words` are clear.
#[inline]
fn bits_of(word: impl Fn(usize) -> u64, n_words: usize, first: CellIndex, count: usize) -> u64 {
    let (at, offset) = (first / 64, first % 64);
    let mut bits = if at < n_words { word(at) >> offset } else { 0 };
    if offset != 0 && at + 1 < n_words {
        bits |= word(at + 1) << (64 - offset);
    }
    if count < 64 {
        bits & ((1u64 << count) - 1)
    } else {
        bits
    }
}

impl Lazy {
    fn bucket_of(&self, cell: CellIndex) -> usize {
        let width = self.raster.width;
        (cell / width / BUCKET) * self.across + (cell % width) / BUCKET
    }

    /// Work out the cells of every unit whose box holds bucket `bucket`,
    /// unless it was asked about before; `visit` each run of cells newly
    /// worked out.
    fn touch(&self, bucket: usize, mut visit: impl FnMut(CellIndex, usize)) {
        let (word, bit) = (bucket / 64, 1u64 << (bucket % 64));
        if self.touched[word].load(Relaxed) & bit != 0 {
            return;
        }
        self.touched[word].fetch_or(bit, Relaxed);
        let (starts, listed) = self.index.get_or_init(|| self.build_index());
        let n_bits = self.raster.width * self.raster.height;
        for &job in &listed[starts[bucket] as usize..starts[bucket + 1] as usize] {
            let job = &self.jobs[job as usize];
            if job.done.swap(true, Relaxed) {
                continue;
            }
            let spans = job.spans.get_or_init(|| {
                let mut spans = Vec::new();
                self.raster
                    .for_each_span_blocked_for(&job.mover, &job.other, |first, len| {
                        spans.push((first, len));
                    });
                spans
            });
            for &(first, len) in spans {
                for_each_word_of_span(first, len, n_bits, |word, bits| {
                    self.overlay[word].fetch_or(bits, Relaxed);
                });
                visit(first, len);
            }
        }
    }

    /// Which jobs' boxes hold each bucket, as `(starts, jobs)`: a count
    /// of each bucket's jobs, their running sums, then the jobs filled in,
    /// each bucket's in the order of the jobs.
    fn build_index(&self) -> (Vec<u32>, Vec<u32>) {
        let n_buckets = self.across * self.raster.height.div_ceil(BUCKET);
        let mut starts = vec![0u32; n_buckets + 1];
        for job in &self.jobs {
            for by in job.from.1..=job.to.1 {
                let row = by * self.across;
                for count in &mut starts[row + job.from.0 + 1..=row + job.to.0 + 1] {
                    *count += 1;
                }
            }
        }
        for at in 1..starts.len() {
            starts[at] += starts[at - 1];
        }
        let mut fill = starts.clone();
        let mut listed = vec![0u32; starts[n_buckets] as usize];
        for (at, job) in self.jobs.iter().enumerate() {
            for by in job.from.1..=job.to.1 {
                let row = by * self.across;
                for next in &mut fill[row + job.from.0..=row + job.to.0] {
                    listed[*next as usize] = at as u32;
                    *next += 1;
                }
            }
        }
        (starts, listed)
    }

    /// [`CellSet::contains`] of a cell not in the set's own words.
    #[inline(never)]
    fn contains(&self, cell: CellIndex) -> bool {
        let bit = 1u64 << (cell % 64);
        let worked_out = |lazy: &Lazy| lazy.overlay[cell / 64].load(Relaxed) & bit != 0;
        if !worked_out(self) {
            self.touch(self.bucket_of(cell), |_, _| {});
            if !worked_out(self) {
                return false;
            }
        }
        !self.removed.contains(&cell)
    }

    /// [`CellSet::bits`]' cells worked out in a deferred set, those taken
    /// out left out.
    #[inline(never)]
    fn bits(&self, first: CellIndex, count: usize, len: usize) -> u64 {
        let end = (first + count).min(len);
        if first >= end {
            return 0;
        }
        let mut at = first;
        while at < end {
            self.touch(self.bucket_of(at), |_, _| {});
            at += BUCKET;
        }
        self.touch(self.bucket_of(end - 1), |_, _| {});
        let overlay = &self.overlay;
        let mut bits = bits_of(|at| overlay[at].load(Relaxed), overlay.len(), first, count);
        for &removed in &self.removed {
            if removed >= first && removed < end {
                bits &= !(1u64 << (removed - first));
            }
        }
        bits
    }

    /// Touch every bucket, visiting the runs of cells newly worked out.
    fn touch_all(&self, mut visit: impl FnMut(CellIndex, usize)) {
        for bucket in 0..self.across * self.raster.height.div_ceil(BUCKET) {
            self.touch(bucket, &mut visit);
        }
    }
}

impl CellSet {
    /// An empty set for a grid of `n_cells`.
    pub fn new(n_cells: usize) -> CellSet {
        CellSet {
            words: vec![0; n_cells.div_ceil(64)],
            len: n_cells,
            lazy: None,
        }
    }

    /// The empty set, usable with any grid.
    pub fn none() -> CellSet {
        CellSet::default()
    }

    /// An empty set over the grid `raster`, to which units' blocked cells
    /// may be added deferred ([`CellSet::defer`]).
    pub(crate) fn deferred(raster: Raster) -> CellSet {
        let n_cells = raster.width * raster.height;
        let across = raster.width.div_ceil(BUCKET);
        let n_buckets = across * raster.height.div_ceil(BUCKET);
        let mut set = CellSet::new(n_cells);
        set.lazy = Some(Box::new(Lazy {
            raster,
            across,
            jobs: Vec::new(),
            touched: (0..n_buckets.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            overlay: (0..n_cells.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            removed: Vec::new(),
            index: OnceLock::new(),
        }));
        set
    }

    /// Make room in a deferred set for `additional` more units deferred
    /// ([`CellSet::defer`]) without growing it on the way; nothing in a
    /// set that is not deferred.
    pub(crate) fn reserve_deferred(&mut self, additional: usize) {
        if let Some(lazy) = &mut self.lazy {
            lazy.jobs.reserve(additional);
        }
    }

    /// Add the cells `other` blocks for a base of `mover`'s size and
    /// facing ([`crate::battlefield::Battlefield::for_each_span_blocked_for`]):
    /// those of `spans` if worked out already, otherwise when first asked
    /// about (and then kept in `spans`). A set that is not deferred works
    /// them out now.
    pub(crate) fn defer(&mut self, mover: &Base, other: &Base, spans: Spans) {
        let lazy = self.lazy.as_mut().expect("a deferred set");
        // A unit added after cells were taken out or questions were asked
        // (the first question builds the index, so no bucket is asked
        // about before it) is worked out now: answers given stay given,
        // and cells taken out come back with a unit's.
        if spans.get().is_none() && lazy.removed.is_empty() && lazy.index.get().is_none() {
            let ((x0, y0), (x1, y1)) = lazy.raster.blocked_box(mover, other);
            let (from, to) = ((x0 / BUCKET, y0 / BUCKET), (x1 / BUCKET, y1 / BUCKET));
            {
                lazy.jobs.push(Job {
                    mover: *mover,
                    other: *other,
                    from,
                    to,
                    spans,
                    done: AtomicBool::new(false),
                });
                return;
            }
        }
        let raster = lazy.raster;
        let cells = spans.get_or_init(|| {
            let mut cells = Vec::new();
            raster.for_each_span_blocked_for(mover, other, |first, len| cells.push((first, len)));
            cells
        });
        for &(first, len) in cells {
            self.insert_span(first, len);
        }
    }

    /// Add a cell (ignored if out of range).
    #[inline]
    pub fn insert(&mut self, cell: CellIndex) {
        if cell < self.len {
            self.words[cell / 64] |= 1 << (cell % 64);
            if let Some(lazy) = &mut self.lazy {
                lazy.removed.retain(|&removed| removed != cell);
            }
        }
    }

    /// Add cells `first .. first + len` (those in range), a word at a time.
    pub fn insert_span(&mut self, first: CellIndex, len: usize) {
        let words = &mut self.words;
        for_each_word_of_span(first, len, self.len, |word, bits| words[word] |= bits);
        if let Some(lazy) = &mut self.lazy {
            lazy.removed
                .retain(|&removed| removed < first || removed - first >= len);
        }
    }

    /// Take a cell out (ignored if out of range).
    #[inline]
    pub fn remove(&mut self, cell: CellIndex) {
        if cell < self.len {
            self.words[cell / 64] &= !(1u64 << (cell % 64));
            if let Some(lazy) = &mut self.lazy
                && !lazy.removed.contains(&cell)
            {
                lazy.removed.push(cell);
            }
        }
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub fn contains(&self, cell: CellIndex) -> bool {
        if cell >= self.len {
            return false;
        }
        let bit = 1u64 << (cell % 64);
        if self.words[cell / 64] & bit != 0 {
            return true;
        }
        match &self.lazy {
            None => false,
            Some(lazy) => lazy.contains(cell),
        }
    }

    /// Bits `first .. first + count` of the set (`count` at most 64), cell
    /// `first` in bit 0; cells past the set's length are not in it.
    #[inline]
    pub(super) fn bits(&self, first: CellIndex, count: usize) -> u64 {
        let words = &self.words;
        let bits = bits_of(|at| words[at], words.len(), first, count);
        match &self.lazy {
            None => bits,
            Some(lazy) => bits | lazy.bits(first, count, self.len),
        }
    }

    /// Whether units' cells are left to be worked out when asked about.
    pub(super) fn is_deferred(&self) -> bool {
        self.lazy.is_some()
    }

    /// In a deferred set, work out the units whose cells may fall in the
    /// bucket of `cell`, unless it was asked about before, and `visit` the
    /// runs of cells newly worked out.
    #[inline]
    pub(super) fn touch(&self, cell: CellIndex, visit: impl FnMut(CellIndex, usize)) {
        if let Some(lazy) = &self.lazy
            && cell < self.len
        {
            lazy.touch(lazy.bucket_of(cell), visit);
        }
    }

    /// In a deferred set, work out every unit not worked out yet, and
    /// `visit` the runs of cells newly worked out.
    pub(super) fn touch_all(&self, visit: impl FnMut(CellIndex, usize)) {
        if let Some(lazy) = &self.lazy {
            lazy.touch_all(visit);
        }
    }

    /// OR the cells worked out so far into `closed` (word for word with
    /// the set), leaving the cells taken out as `keep` says (a search's
    /// ground it cannot enter).
    pub(super) fn worked_out_into(&self, closed: &mut [u64], keep: impl Fn(CellIndex) -> bool) {
        for (word, &bits) in closed.iter_mut().zip(&self.words) {
            *word |= bits;
        }
        if let Some(lazy) = &self.lazy {
            for (word, bits) in closed.iter_mut().zip(&lazy.overlay) {
                *word |= bits.load(Relaxed);
            }
            for &cell in &lazy.removed {
                if !keep(cell) && cell / 64 < closed.len() {
                    closed[cell / 64] &= !(1u64 << (cell % 64));
                }
            }
        }
    }

    /// The cells taken out of a deferred set.
    pub(super) fn removed(&self) -> &[CellIndex] {
        self.lazy.as_ref().map_or(&[], |lazy| &lazy.removed)
    }

    /// The set's words with every cell worked out.
    pub(super) fn resolved(&self) -> std::borrow::Cow<'_, [u64]> {
        match &self.lazy {
            None => std::borrow::Cow::Borrowed(&self.words),
            Some(lazy) => {
                lazy.touch_all(|_, _| {});
                let mut words = self.words.clone();
                self.worked_out_into(&mut words, |_| false);
                std::borrow::Cow::Owned(words)
            }
        }
    }
}
