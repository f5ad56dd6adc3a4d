//! What the opponent has already worked out in this game, kept so that it
//! is not worked out again: the distance, frontal arc, ground and cells
//! under units by their exact bases. Most units stand still most bounds, and
//! each bound asks the same questions many times (the reading, the targeting
//! rule, the shot). Line of sight is remembered by the table itself
//! ([`crate::battlefield::Battlefield::can_see`]).
//!
//! Pure caches: every answer is exactly the one the battlefield's own
//! function gives (tests compare them), so no game changes by their use.
//! The unit memo is shared (`Rc`) by the opponents of a game and by their
//! clones: its answers depend only on where the bases stand, not on who
//! asks.

use crate::battlefield::{Base, Point, Roster, Spans};
use crate::rules::{GameState, UnitId};
use crate::tables::Column;
use std::cell::RefCell;
use std::sync::Arc;

/// Where a base stands, exactly: its centre, facing and size as bits (the
/// rest of a base follows from these). Equal places are equal bases.
type Place = [u64; 5];

fn place(base: &Base) -> Place {
    [
        base.centre.x.to_bits(),
        base.centre.y.to_bits(),
        base.facing.to_bits(),
        base.frontage.to_bits(),
        base.depth.to_bits(),
    ]
}

/// Whether two places are the same, word by word, stopping at the first
/// difference (a plain `==` on the arrays calls `memcmp`, which costs more
/// than the five comparisons).
#[inline(always)]
fn same(a: &Place, b: &Place) -> bool {
    a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4]
}

/// One remembered answer about a pair of units, kept with the two places it
/// was worked out for: it counts only while both still stand exactly there.
type Slot<T> = Option<(Place, Place, T)>;

/// The most slots a [`Pairs`] keeps: every pair of up to 1,024 units has
/// its own; with more units, pairs share slots (`a × n + b` wrapped round),
/// so the memory stays near 100 MB whatever the armies. A shared slot can
/// only hand back an answer worked out for the very same two places, which
/// is the same answer, so sharing costs recomputing, never a change.
const MAX_PAIR_SLOTS: usize = 1 << 20;

/// Answers about pairs of units by unit id, `n_units` squared slots (at
/// most [`MAX_PAIR_SLOTS`]).
#[derive(Debug)]
struct Pairs<T> {
    n_units: usize,
    slots: Vec<Slot<T>>,
}

impl<T> Default for Pairs<T> {
    fn default() -> Pairs<T> {
        Pairs {
            n_units: 0,
            slots: Vec::new(),
        }
    }
}

impl<T: Copy> Pairs<T> {
    /// The answer for `a` and `b` standing at `base_a` and `base_b`, worked
    /// out by `work` unless it is remembered.
    fn get(
        &mut self,
        n_units: usize,
        (a, base_a): (UnitId, &Base),
        (b, base_b): (UnitId, &Base),
        work: impl FnOnce() -> T,
    ) -> T {
        if self.n_units != n_units {
            self.n_units = n_units;
            self.slots.clear();
            let slots = n_units.saturating_mul(n_units).min(MAX_PAIR_SLOTS);
            self.slots.resize_with(slots, || None);
        }
        let (place_a, place_b) = (place(base_a), place(base_b));
        let pair = a.0 * n_units + b.0;
        let index = if pair < self.slots.len() {
            pair
        } else {
            pair % self.slots.len()
        };
        let slot = &mut self.slots[index];
        if let Some((was_a, was_b, answer)) = slot
            && same(was_a, &place_a)
            && same(was_b, &place_b)
        {
            return *answer;
        }
        let answer = work();
        *slot = Some((place_a, place_b, answer));
        answer
    }
}

/// Distances, frontal arcs, ground and the cells under units, remembered
/// by their exact bases. The same answers as [`Base::distance_to`],
/// [`Base::within`], [`Base::in_frontal_arc`], [`super::read::ground_column`]
/// and [`crate::battlefield::Battlefield::blocked_for`].
#[derive(Debug, Default)]
pub(crate) struct UnitMemo {
    distances: RefCell<Pairs<f64>>,
    arcs: RefCell<Pairs<bool>>,
    grounds: RefCell<Vec<Option<(Base, Point, Column)>>>,
    blocks: RefCell<Vec<[Option<Block>; SHAPES]>>,
    /// How many times [`UnitMemo::blocked_for`] was asked: the stamp of a
    /// block's last use.
    asks: std::cell::Cell<u64>,
    /// [`UnitMemo::blocked_for`]'s units and their cells, a buffer kept.
    asked: RefCell<Vec<(UnitId, Spans)>>,
    /// With many units on the table, [`UnitMemo::blocked_for`]'s units by
    /// the buckets of cells they may block, for movers of a few reaches,
    /// the one used last at the end: kept across questions and brought up
    /// to date as units move, instead of every unit deferred and indexed
    /// at each question.
    rosters: RefCell<Vec<Arc<Roster>>>,
}

/// The cells a unit blocks for movers of one size and facing, as runs
/// (first cell, length), kept with where it stood and that shape: worked
/// out when a search or a leg first asks about them (shared with the sets
/// of cells that defer them).
#[derive(Debug)]
struct Block {
    place: Place,
    shape: Place,
    /// The ask that used it last ([`UnitMemo::asks`]): the one used
    /// longest ago makes room for a new shape.
    used: u64,
    spans: Spans,
}

/// How many movers' shapes (size and facing) each unit's blocked cells are
/// kept for: an army's movers come in a few shapes (foot and horse, facing
/// the enemy), and one slot alone was emptied by each change of shape.
const SHAPES: usize = 4;

/// How many units' blocked cells, not yet worked out, a set of them defers
/// until a search or a leg asks ([`crate::battlefield::CellSet::defer`]);
/// fewer are worked out at once, which costs less than asking about them.
const DEFER_FROM: usize = 24;

/// How many units on the table from which [`UnitMemo::blocked_for`]'s
/// questions go to a [`Roster`] kept across them.
pub(super) const ROSTER_FROM: usize = 64;

/// How many movers' reaches [`UnitMemo::rosters`] keeps a roster for: an
/// army's units come in a few sizes.
const ROSTERS: usize = 4;

impl UnitMemo {
    /// Exactly `state.unit(a).base.distance_to(&state.unit(b).base)`. The
    /// distance is the same both ways, bit for bit (a test pins this), so
    /// one slot serves both orders.
    pub(crate) fn distance(&self, state: &GameState, a: UnitId, b: UnitId) -> f64 {
        let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        let (base_a, base_b) = (&state.unit(a).base, &state.unit(b).base);
        self.distances
            .borrow_mut()
            .get(state.units.len(), (a, base_a), (b, base_b), || {
                base_a.distance_to(base_b)
            })
    }

    /// Exactly `state.unit(a).base.within(&state.unit(b).base, limit)`.
    pub(crate) fn within(&self, state: &GameState, a: UnitId, b: UnitId, limit: f64) -> bool {
        // `within` is `distance_to <= limit` after a quicker first test,
        // which answers bases far apart without the memo.
        !state
            .unit(a)
            .base
            .surely_farther_than(&state.unit(b).base, limit)
            && self.distance(state, a, b) <= limit
    }

    /// Exactly `state.unit(a).base.in_frontal_arc(&state.unit(b).base)`.
    pub(crate) fn in_frontal_arc(&self, state: &GameState, a: UnitId, b: UnitId) -> bool {
        let (base_a, base_b) = (&state.unit(a).base, &state.unit(b).base);
        self.arcs
            .borrow_mut()
            .get(state.units.len(), (a, base_a), (b, base_b), || {
                base_a.in_frontal_arc(base_b)
            })
    }

    /// Exactly `ground_column(state, &state.unit(id).base, towards)`.
    pub(super) fn ground(&self, state: &GameState, id: UnitId, towards: Point) -> Column {
        let base = &state.unit(id).base;
        let mut grounds = self.grounds.borrow_mut();
        if grounds.len() < state.units.len() {
            grounds.resize(state.units.len(), None);
        }
        match &grounds[id.0] {
            Some((was, at, column)) if was == base && *at == towards => *column,
            _ => {
                let column = super::read::ground_column(state, base, towards);
                grounds[id.0] = Some((*base, towards, column));
                column
            }
        }
    }
}

impl UnitMemo {
    /// Exactly `state.battlefield.blocked_for(&mover, ..)` of the bases of
    /// `units`: each unit's cells worked out once while it stands where it
    /// stood and movers of one size and facing ask.
    pub(super) fn blocked_for(
        &self,
        state: &GameState,
        mover: &Base,
        units: impl IntoIterator<Item = UnitId>,
    ) -> crate::battlefield::CellSet {
        let field = &state.battlefield;
        if state.units.len() >= ROSTER_FROM {
            return self.blocked_by_roster(state, mover, units);
        }
        let mut blocks = self.blocks.borrow_mut();
        if blocks.len() < state.units.len() {
            blocks.resize_with(state.units.len(), Default::default);
        }
        // Only the mover's size and facing matter, not where it stands.
        let shape = place(&mover.moved_to(Point::new(0.0, 0.0)));
        let mut asked = self.asked.borrow_mut();
        asked.clear();
        let ask = self.asks.get() + 1;
        self.asks.set(ask);
        let mut unknown = 0;
        for id in units {
            let here = place(&state.unit(id).base);
            let slots = &mut blocks[id.0];
            let kept = slots
                .iter_mut()
                .flatten()
                .find(|block| same(&block.place, &here) && same(&block.shape, &shape));
            let spans = match kept {
                Some(block) => {
                    block.used = ask;
                    if block.spans.get().is_none() {
                        unknown += 1;
                    }
                    block.spans.clone()
                }
                None => {
                    // An empty slot, or the one used longest ago; its cells'
                    // lock is emptied in place when nobody else holds it.
                    let slot = match slots.iter().position(Option::is_none) {
                        Some(at) => &mut slots[at],
                        None => slots
                            .iter_mut()
                            .min_by_key(|slot| slot.as_ref().map_or(0, |block| block.used))
                            .expect("SHAPES slots"),
                    };
                    let spans = match slot.take() {
                        Some(mut block) => match Arc::get_mut(&mut block.spans) {
                            Some(lock) => {
                                lock.take();
                                block.spans
                            }
                            None => Spans::default(),
                        },
                        None => Spans::default(),
                    };
                    *slot = Some(Block {
                        place: here,
                        shape,
                        used: ask,
                        spans: spans.clone(),
                    });
                    unknown += 1;
                    spans
                }
            };
            asked.push((id, spans));
        }
        if unknown > DEFER_FROM {
            let mut set = field.deferred_cells();
            set.reserve_deferred(unknown);
            for (id, spans) in asked.drain(..) {
                set.defer(mover, &state.unit(id).base, spans);
            }
            return set;
        }
        let mut set = crate::battlefield::CellSet::new(field.grid.len());
        for (id, spans) in asked.drain(..) {
            let cells = spans.get_or_init(|| {
                let mut cells = Vec::new();
                field.for_each_span_blocked_for(mover, &state.unit(id).base, |first, len| {
                    cells.push((first, len));
                });
                cells
            });
            for &(first, len) in cells {
                set.insert_span(first, len);
            }
        }
        set
    }

    /// [`UnitMemo::blocked_for`] through the roster of units for movers
    /// of `mover`'s reach, brought up to date with where the units stand.
    fn blocked_by_roster(
        &self,
        state: &GameState,
        mover: &Base,
        units: impl IntoIterator<Item = UnitId>,
    ) -> crate::battlefield::CellSet {
        let field = &state.battlefield;
        let ask = self.asks.get() + 1;
        self.asks.set(ask);
        let mut rosters = self.rosters.borrow_mut();
        let reach = mover.reach();
        match rosters
            .iter()
            .position(|roster| roster.serves(field, reach))
        {
            Some(at) => {
                let roster = rosters.remove(at);
                rosters.push(roster);
            }
            None => {
                if rosters.len() == ROSTERS {
                    rosters.remove(0);
                }
                rosters.push(Arc::new(Roster::new(field, reach)));
            }
        }
        let kept = rosters.last_mut().expect("a roster");
        // A roster still held by a set of cells asked for before is left
        // to it, and a new one built.
        if Arc::get_mut(kept).is_none() {
            *kept = Arc::new(Roster::new(field, reach));
        }
        let roster = Arc::get_mut(kept).expect("a roster held here alone");
        roster.stand_all(state.units.iter().map(|unit| &unit.base));
        let mut included = vec![0u64; state.units.len().div_ceil(64)];
        for id in units {
            included[id.0 / 64] |= 1 << (id.0 % 64);
        }
        crate::battlefield::CellSet::deferred_roster(kept.clone(), mover, ask, included)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::Point;
    use rand::{RngExt, SeedableRng};

    /// The distance between two bases is the same both ways, bit for bit,
    /// so the memo may keep one slot for both orders.
    #[test]
    fn distances_are_the_same_both_ways() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            let mut base = || {
                Base::new(
                    Point::new(rng.random_range(0.0..12.0), rng.random_range(0.0..12.0)),
                    rng.random_range(0.0..360.0),
                    rng.random_range(1.0..6.0),
                    rng.random_range(0.5..3.0),
                )
            };
            let (a, b) = (base(), base());
            assert_eq!(
                a.distance_to(&b).to_bits(),
                b.distance_to(&a).to_bits(),
                "{a:?} {b:?}"
            );
        }
    }

    /// With more units than have a slot each, pairs share slots: the
    /// memory stays bounded and every answer is still the one worked out
    /// for those two bases, whichever pair used the slot before.
    #[test]
    fn many_units_share_slots_and_get_their_own_answers() {
        let n_units = 2_500;
        let base = |i: usize| Base::new(Point::new(i as f64 * 0.25, 3.0), 0.0, 2.0, 1.0);
        let mut pairs: Pairs<f64> = Pairs::default();
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..50_000 {
            let (a, b) = (rng.random_range(0..n_units), rng.random_range(0..n_units));
            let (base_a, base_b) = (base(a), base(b));
            let got = pairs.get(n_units, (UnitId(a), &base_a), (UnitId(b), &base_b), || {
                base_a.distance_to(&base_b)
            });
            assert_eq!(got.to_bits(), base_a.distance_to(&base_b).to_bits());
        }
        assert_eq!(pairs.slots.len(), MAX_PAIR_SLOTS);
        // Up to 1,024 units, every pair keeps its own slot.
        let mut small: Pairs<f64> = Pairs::default();
        small.get(1_024, (UnitId(0), &base(0)), (UnitId(1), &base(1)), || 1.0);
        assert_eq!(small.slots.len(), 1_024 * 1_024);
    }
}
