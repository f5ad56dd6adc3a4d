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
use crate::battlefield::{Base, Battlefield, CellIndex};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};

/// A unit's blocked cells for a mover, as runs (first cell, length),
/// worked out once and shared by whoever keeps them (the opponent's memo).
pub type Spans = Arc<OnceLock<Vec<(CellIndex, usize)>>>;

/// The side of a bucket, in cells.
pub(super) const BUCKET: usize = 8;

/// How many dropped deferred sets' words [`SPARE`] keeps.
const SPARES: usize = 4;

thread_local! {
    /// The words and overlays of deferred sets dropped, every bit clear
    /// (only the words a set wrote to are cleared when it is dropped), for
    /// the next deferred sets to take instead of clearing new words: a
    /// question among many units makes a set over the whole table and
    /// often works out only a few buckets of it.
    static SPARE: std::cell::RefCell<Vec<(Vec<u64>, Vec<AtomicU64>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

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
    /// The units not worked out yet, and where their cells may fall.
    pending: Pending,
    /// One bit per bucket: asked about, its units' cells worked out.
    touched: Vec<AtomicU64>,
    /// The cells of the units worked out so far.
    overlay: Vec<AtomicU64>,
    /// Cells taken out of the set after units were deferred (they stay
    /// out whatever a unit's cells say).
    removed: Vec<CellIndex>,
    /// The first and last words of `overlay` written to (none while the
    /// first is above the last).
    overlay_written: [AtomicUsize; 2],
    /// The first and last of the set's own words written to (none while
    /// the first is above the last).
    words_written: (usize, usize),
}

/// A deferred set's units: added one by one ([`CellSet::defer`]) and
/// indexed by bucket at the first question, or those of a [`Roster`]
/// kept across questions, already indexed.
#[derive(Debug, Clone)]
enum Pending {
    Jobs {
        jobs: Vec<Job>,
        /// The jobs whose boxes hold each bucket (bucket `b`'s are
        /// `jobs[starts[b]..starts[b + 1]]`), built at the first question.
        index: OnceLock<(Vec<u32>, Vec<u32>)>,
    },
    Roster(Box<RosterAsk>),
}

/// A question put to a [`Roster`]: the cells its units in `included`
/// block for `mover`.
#[derive(Debug)]
struct RosterAsk {
    roster: Arc<Roster>,
    mover: Base,
    /// The bits of the mover's facing, frontage and depth: what its
    /// blocked cells depend on besides the other unit.
    shape: [u64; 3],
    /// The question's number, a stamp of when each unit's cells were last
    /// used ([`Standing::kept`]).
    stamp: u64,
    /// One bit per unit of the roster: in the set.
    included: Vec<u64>,
    /// One bit per unit of the roster: its cells worked out.
    done: Vec<AtomicU64>,
}

impl Clone for RosterAsk {
    fn clone(&self) -> RosterAsk {
        RosterAsk {
            roster: self.roster.clone(),
            mover: self.mover,
            shape: self.shape,
            stamp: self.stamp,
            included: self.included.clone(),
            done: copy_words(&self.done),
        }
    }
}

/// The units on a table, each indexed by the buckets its blocked cells
/// may fall in for movers of one reach ([`Base::reach`]; the box of a
/// unit's cells depends on the mover through its reach alone). Kept
/// across the questions of a bound, when most units stand still, and
/// brought up to date one unit at a time as they move
/// ([`Roster::stand`]), so that a question does not index every unit
/// again. Each unit keeps its cells for a few movers' shapes.
#[derive(Debug)]
pub(crate) struct Roster {
    raster: Raster,
    across: usize,
    reach: f64,
    units: Vec<Standing>,
    /// How many of `units` stand somewhere (`base` is not `None`).
    n_standing: usize,
    /// The units whose boxes hold each bucket, in the order of the units.
    buckets: Vec<Vec<u32>>,
}

/// A unit of a [`Roster`]: where it stands, its box in buckets (south-west
/// and north-east, both included), and its cells for the movers' shapes
/// asked about lately.
#[derive(Debug, Default)]
struct Standing {
    base: Option<Base>,
    from: (usize, usize),
    to: (usize, usize),
    kept: Mutex<Vec<Kept>>,
}

/// A unit's blocked cells for movers of one shape, as runs (first cell,
/// length), with the stamp of the question that used them last.
#[derive(Debug)]
struct Kept {
    shape: [u64; 3],
    used: u64,
    spans: Vec<(CellIndex, usize)>,
}

/// How many movers' shapes each unit of a [`Roster`] keeps its cells for:
/// an army's movers come in a few shapes, and the one used longest ago
/// makes room for a new one.
const SHAPES: usize = 4;

/// The bits of `base`'s facing, frontage and depth.
fn shape_of(base: &Base) -> [u64; 3] {
    [
        base.facing.to_bits(),
        base.frontage.to_bits(),
        base.depth.to_bits(),
    ]
}

/// Whether two bases stand exactly alike: centre, facing and size, bit for
/// bit (the rest of a base follows from these). Field by field, not
/// through [`shape_of`]'s arrays, which the compiler copies out to compare.
fn same_place(a: &Base, b: &Base) -> bool {
    a.centre.x.to_bits() == b.centre.x.to_bits()
        && a.centre.y.to_bits() == b.centre.y.to_bits()
        && a.facing.to_bits() == b.facing.to_bits()
        && a.frontage.to_bits() == b.frontage.to_bits()
        && a.depth.to_bits() == b.depth.to_bits()
}

impl Roster {
    /// A roster with no units, for movers of reach `reach` on `field`.
    pub(crate) fn new(field: &Battlefield, reach: f64) -> Roster {
        let raster = field.grid.raster();
        let across = raster.width.div_ceil(BUCKET);
        let n_buckets = across * raster.height.div_ceil(BUCKET);
        Roster {
            raster,
            across,
            reach,
            units: Vec::new(),
            n_standing: 0,
            buckets: vec![Vec::new(); n_buckets],
        }
    }

    /// Whether the roster serves movers of reach `reach` on `field`.
    pub(crate) fn serves(&self, field: &Battlefield, reach: f64) -> bool {
        self.reach.to_bits() == reach.to_bits() && self.raster == field.grid.raster()
    }

    /// Put unit `unit` at `base` (nothing if it stands there already),
    /// the units before it first put where they stood if they are new.
    pub(crate) fn stand(&mut self, unit: usize, base: &Base) {
        if unit >= self.units.len() {
            self.units.resize_with(unit + 1, Standing::default);
        }
        let standing = &mut self.units[unit];
        if standing
            .base
            .as_ref()
            .is_some_and(|was| same_place(was, base))
        {
            return;
        }
        if standing.base.is_some() {
            let (from, to) = (standing.from, standing.to);
            self.leave(unit, from, to);
        } else {
            self.n_standing += 1;
        }
        let ((x0, y0), (x1, y1)) = self.raster.blocked_box_for_reach(self.reach, base);
        let (from, to) = ((x0 / BUCKET, y0 / BUCKET), (x1 / BUCKET, y1 / BUCKET));
        let standing = &mut self.units[unit];
        standing.base = Some(*base);
        (standing.from, standing.to) = (from, to);
        standing
            .kept
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
        for by in from.1..=to.1 {
            for bx in from.0..=to.0 {
                let listed = &mut self.buckets[by * self.across + bx];
                let at = listed.partition_point(|&other| (other as usize) < unit);
                listed.insert(at, unit as u32);
            }
        }
    }

    /// Put unit `i` at the `i`th of `bases` ([`Roster::stand`]) and keep
    /// no units beyond them ([`Roster::truncate`]): most units stand where
    /// they stood, and are passed over in a tight loop.
    pub(crate) fn stand_all<'a>(&mut self, bases: impl ExactSizeIterator<Item = &'a Base>) {
        let n_units = bases.len();
        if self.units.len() < n_units {
            self.units.resize_with(n_units, Standing::default);
        }
        for (unit, base) in bases.enumerate() {
            let stood = self.units[unit]
                .base
                .as_ref()
                .is_some_and(|was| same_place(was, base));
            if !stood {
                self.stand(unit, base);
            }
        }
        self.truncate(n_units);
    }

    /// Keep the first `n_units` units only.
    pub(crate) fn truncate(&mut self, n_units: usize) {
        while self.units.len() > n_units {
            let unit = self.units.len() - 1;
            let standing = self.units.pop().expect("a unit");
            if standing.base.is_some() {
                self.n_standing -= 1;
                self.leave(unit, standing.from, standing.to);
            }
        }
    }

    /// Take `unit` out of the buckets of its box `from..=to`.
    fn leave(&mut self, unit: usize, from: (usize, usize), to: (usize, usize)) {
        for by in from.1..=to.1 {
            for bx in from.0..=to.0 {
                let listed = &mut self.buckets[by * self.across + bx];
                let at = listed.partition_point(|&other| (other as usize) < unit);
                listed.remove(at);
            }
        }
    }
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
            pending: self.pending.clone(),
            touched: copy_words(&self.touched),
            overlay: copy_words(&self.overlay),
            removed: self.removed.clone(),
            overlay_written: self
                .overlay_written
                .each_ref()
                .map(|end| AtomicUsize::new(end.load(Relaxed))),
            words_written: self.words_written,
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

/// A deferred set gives its words and overlay to [`SPARE`] when dropped,
/// having cleared those it wrote to (all others are clear: the words it
/// took were).
impl Drop for CellSet {
    fn drop(&mut self) {
        let Some(lazy) = self.lazy.take() else {
            return;
        };
        let Lazy {
            overlay,
            overlay_written,
            words_written,
            ..
        } = *lazy;
        let mut words = std::mem::take(&mut self.words);
        let n_words = words.len();
        if n_words == 0 || overlay.len() != n_words {
            return;
        }
        let (first, last) = words_written;
        if first <= last {
            words[first..=last.min(n_words - 1)].fill(0);
        }
        let (first, last) = (
            overlay_written[0].load(Relaxed),
            overlay_written[1].load(Relaxed),
        );
        if first <= last {
            for word in &overlay[first..=last.min(n_words - 1)] {
                word.store(0, Relaxed);
            }
        }
        // (A thread's spares may be gone as it ends; the words are then
        // freed.)
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut()
                && spare.len() < SPARES
            {
                spare.push((words, overlay));
            }
        });
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
    /// Note that the set's own words `first..=last` may have been written to.
    fn wrote_words(&mut self, first: usize, last: usize) {
        self.words_written.0 = self.words_written.0.min(first);
        self.words_written.1 = self.words_written.1.max(last);
    }

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
        let n_bits = self.raster.width * self.raster.height;
        // The first and last words of the overlay written to here.
        let (mut first_word, mut last_word) = (usize::MAX, 0);
        let mut add = |spans: &[(CellIndex, usize)]| {
            for &(first, len) in spans {
                if len > 0 {
                    first_word = first_word.min(first / 64);
                    last_word = last_word.max((first + len - 1) / 64);
                }
                for_each_word_of_span(first, len, n_bits, |word, bits| {
                    self.overlay[word].fetch_or(bits, Relaxed);
                });
                visit(first, len);
            }
        };
        match &self.pending {
            Pending::Jobs { jobs, index } => {
                let (starts, listed) = index.get_or_init(|| self.build_index(jobs));
                for &job in &listed[starts[bucket] as usize..starts[bucket + 1] as usize] {
                    let job = &jobs[job as usize];
                    if job.done.swap(true, Relaxed) {
                        continue;
                    }
                    let spans = job.spans.get_or_init(|| {
                        let mut spans = Vec::new();
                        self.raster.for_each_span_blocked_for(
                            &job.mover,
                            &job.other,
                            |first, len| spans.push((first, len)),
                        );
                        spans
                    });
                    add(spans);
                }
            }
            Pending::Roster(ask) => {
                for &unit in &ask.roster.buckets[bucket] {
                    let unit = unit as usize;
                    let (word, bit) = (unit / 64, 1u64 << (unit % 64));
                    if ask.included[word] & bit == 0
                        || ask.done[word].fetch_or(bit, Relaxed) & bit != 0
                    {
                        continue;
                    }
                    let standing = &ask.roster.units[unit];
                    let other = standing.base.as_ref().expect("a unit in a bucket stands");
                    let mut kept = standing
                        .kept
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                    if let Some(kept) = kept.iter_mut().find(|kept| kept.shape == ask.shape) {
                        kept.used = ask.stamp;
                        add(&kept.spans);
                        continue;
                    }
                    // A new shape: in a new slot, or in the one used
                    // longest ago, its runs' room reused.
                    let mut spans = if kept.len() < SHAPES {
                        Vec::new()
                    } else {
                        let oldest = (0..kept.len())
                            .min_by_key(|&at| kept[at].used)
                            .expect("SHAPES slots");
                        let mut spans = kept.swap_remove(oldest).spans;
                        spans.clear();
                        spans
                    };
                    self.raster
                        .for_each_span_blocked_for(&ask.mover, other, |first, len| {
                            spans.push((first, len));
                        });
                    add(&spans);
                    kept.push(Kept {
                        shape: ask.shape,
                        used: ask.stamp,
                        spans,
                    });
                }
            }
        }
        if first_word <= last_word {
            self.overlay_written[0].fetch_min(first_word, Relaxed);
            self.overlay_written[1].fetch_max(last_word, Relaxed);
        }
    }

    /// Which jobs' boxes hold each bucket, as `(starts, jobs)`: a count
    /// of each bucket's jobs, their running sums, then the jobs filled in,
    /// each bucket's in the order of the jobs.
    fn build_index(&self, jobs: &[Job]) -> (Vec<u32>, Vec<u32>) {
        let n_buckets = self.across * self.raster.height.div_ceil(BUCKET);
        let mut starts = vec![0u32; n_buckets + 1];
        for job in jobs {
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
        for (at, job) in jobs.iter().enumerate() {
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
        let n_words = n_cells.div_ceil(64);
        // A dropped set's words if there are some of this size, every bit
        // clear; otherwise new ones.
        let spare = SPARE
            .try_with(|spare| {
                let mut spare = spare.borrow_mut();
                let at = spare.iter().position(|(words, overlay)| {
                    words.len() == n_words && overlay.len() == n_words
                });
                at.map(|at| spare.swap_remove(at))
            })
            .ok()
            .flatten();
        let (words, overlay) = spare.unwrap_or_else(|| {
            (
                vec![0; n_words],
                (0..n_words).map(|_| AtomicU64::new(0)).collect(),
            )
        });
        CellSet {
            words,
            len: n_cells,
            lazy: Some(Box::new(Lazy {
                raster,
                across,
                pending: Pending::Jobs {
                    jobs: Vec::new(),
                    index: OnceLock::new(),
                },
                touched: (0..n_buckets.div_ceil(64))
                    .map(|_| AtomicU64::new(0))
                    .collect(),
                overlay,
                removed: Vec::new(),
                overlay_written: [AtomicUsize::new(usize::MAX), AtomicUsize::new(0)],
                words_written: (usize::MAX, 0),
            })),
        }
    }

    /// The cells the units of `roster` whose bits are set in `included`
    /// (bit `unit % 64` of word `unit / 64`; those of units the roster
    /// does not hold, or that stand nowhere, are left out) block for
    /// `mover` (whose reach must be the roster's), each unit's worked out
    /// when first asked about, as in a set deferred unit by unit
    /// ([`CellSet::defer`]) but with no unit added or indexed here.
    /// `stamp` numbers the question, newer ones larger: the units keep
    /// their cells for the shapes of movers used latest.
    pub(crate) fn deferred_roster(
        roster: Arc<Roster>,
        mover: &Base,
        stamp: u64,
        mut included: Vec<u64>,
    ) -> CellSet {
        debug_assert_eq!(roster.reach.to_bits(), mover.reach().to_bits());
        let mut set = CellSet::deferred(roster.raster);
        let n_units = roster.units.len();
        let mut bits = {
            included.resize(n_units.div_ceil(64), 0);
            if n_units % 64 != 0 {
                included[n_units / 64] &= (1u64 << (n_units % 64)) - 1;
            }
            included
        };
        // Where every unit stands (as where a question stands them all
        // first), every bit kept is a unit's; otherwise those of the
        // units standing nowhere are cleared one by one.
        if roster.n_standing != n_units {
            for (unit, standing) in roster.units.iter().enumerate() {
                if standing.base.is_none() {
                    bits[unit / 64] &= !(1u64 << (unit % 64));
                }
            }
        }
        let lazy = set.lazy.as_mut().expect("a deferred set");
        lazy.pending = Pending::Roster(Box::new(RosterAsk {
            roster,
            mover: *mover,
            shape: shape_of(mover),
            stamp,
            included: bits,
            done: (0..n_units.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        }));
        set
    }

    /// Make room in a deferred set for `additional` more units deferred
    /// ([`CellSet::defer`]) without growing it on the way; nothing in a
    /// set that is not deferred.
    pub(crate) fn reserve_deferred(&mut self, additional: usize) {
        if let Some(lazy) = &mut self.lazy
            && let Pending::Jobs { jobs, .. } = &mut lazy.pending
        {
            jobs.reserve(additional);
        }
    }

    /// Add the cells `other` blocks for a base of `mover`'s size and
    /// facing ([`crate::battlefield::Battlefield::for_each_span_blocked_for`]):
    /// those of `spans` if worked out already, otherwise when first asked
    /// about (and then kept in `spans`). A set that is not deferred works
    /// them out now.
    pub(crate) fn defer(&mut self, mover: &Base, other: &Base, spans: Spans) {
        let lazy = self.lazy.as_mut().expect("a deferred set");
        let Pending::Jobs { jobs, index } = &mut lazy.pending else {
            panic!("units are deferred one by one only in a set built so")
        };
        // A unit added after cells were taken out or questions were asked
        // (the first question builds the index, so no bucket is asked
        // about before it) is worked out now: answers given stay given,
        // and cells taken out come back with a unit's.
        if spans.get().is_none() && lazy.removed.is_empty() && index.get().is_none() {
            let ((x0, y0), (x1, y1)) = lazy.raster.blocked_box(mover, other);
            let (from, to) = ((x0 / BUCKET, y0 / BUCKET), (x1 / BUCKET, y1 / BUCKET));
            {
                jobs.push(Job {
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
                lazy.wrote_words(cell / 64, cell / 64);
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
            if len > 0 {
                lazy.wrote_words(first / 64, (first + len - 1) / 64);
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::tests::{p, table};
    use rand::{RngExt, SeedableRng};

    /// A deferred set made after others were dropped (their words taken
    /// back, cleared where written) starts empty, and holds what a set
    /// built whole holds: units worked out in some buckets, cells added
    /// and taken out, sets cloned, in many rounds.
    #[test]
    fn deferred_sets_reuse_words_cleared() {
        let field = table(30.0, 20.0, &[]);
        let n_words = field.grid.len().div_ceil(64);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
        for round in 0..200 {
            let fresh = field.deferred_cells();
            assert!(fresh.words.iter().all(|&word| word == 0), "{round}");
            let lazy = fresh.lazy.as_ref().expect("deferred");
            assert!(lazy.overlay.iter().all(|word| word.load(Relaxed) == 0));
            assert_eq!(fresh.words.len(), n_words);
            drop(fresh);
            let mover = Base::new(p(15.0, 10.0), rng.random_range(0.0..360.0), 3.0, 1.0);
            let others: Vec<Base> = (0..30)
                .map(|_| {
                    Base::new(
                        p(rng.random_range(0.0..30.0), rng.random_range(0.0..20.0)),
                        rng.random_range(0.0..360.0),
                        rng.random_range(1.0..5.0),
                        rng.random_range(0.5..2.0),
                    )
                })
                .collect();
            let mut set = field.deferred_cells();
            for other in &others {
                set.defer(&mover, other, Spans::default());
            }
            let mut whole = field.blocked_for(&mover, &others);
            for _ in 0..rng.random_range(0..20) {
                set.touch(rng.random_range(0..field.grid.len()), |_, _| {});
            }
            for _ in 0..rng.random_range(0..4) {
                let cell = rng.random_range(0..field.grid.len());
                if rng.random_range(0..2) == 0 {
                    set.insert(cell);
                    whole.insert(cell);
                } else {
                    set.remove(cell);
                    whole.remove(cell);
                }
            }
            if rng.random_range(0..3) == 0 {
                let copy = set.clone();
                assert!(copy == whole);
            }
            assert_eq!(&set.resolved()[..], &whole.words[..], "{round}");
        }
    }
}
