//! The moves `legal` lists, checked quickly: what every
//! candidate move of a unit shares is worked out once per listing (who is
//! near enough to matter, which enemies are within the enemy presence
//! distance), and what depends only on the table, the mover and the ends
//! (a straight move's walk, a general's, the road move towards a goal) is
//! remembered per thread, since a unit that has not moved is offered the
//! same moves listing after listing. Every answer is exactly
//! [`GameState::allows`]' for the same move: this only leaves out work
//! whose outcome is known.

use super::movement::{Mover, may_meet_on_path, steps};
use crate::battlefield::geometry::{EPSILON, maybe_within_segment, turn_between};
use crate::battlefield::{Base, Battlefield, Point, Vector};
use crate::rules::event::Refusal;
use crate::rules::id::{GeneralId, UnitId};
use crate::rules::state::{GameState, Unit};
use crate::ruleset::Category;
use std::cell::{OnceCell, RefCell};
use std::sync::{Arc, Weak};

/// What one unit's candidate moves share within one listing.
pub(super) struct Neighbourhood {
    unit: UnitId,
    /// Active units other than the mover whose centres are near enough
    /// that a move within its allowance could overlap them, come within
    /// the keep-clear distance of them or pass them: every unit the
    /// checks of such a move could name, and a few more, in index order.
    others: Vec<usize>,
    /// The enemies among `others`.
    enemies: Vec<usize>,
    /// The bearings from where the unit stands to the enemies within the
    /// enemy presence distance ([`GameState::enemy_presence`]'s, in index
    /// order).
    presence: Vec<f64>,
}

impl Neighbourhood {
    /// A neighbourhood of nobody, to be filled
    /// ([`GameState::fill_neighbourhood`]).
    pub(super) fn empty() -> Neighbourhood {
        Neighbourhood {
            unit: UnitId(0),
            others: Vec::new(),
            enemies: Vec::new(),
            presence: Vec::new(),
        }
    }

    /// Whether an enemy is within the enemy presence distance, so that
    /// only moves directly towards or away from one are allowed (and no
    /// road move at all).
    pub(super) fn enemy_present(&self) -> bool {
        !self.presence.is_empty()
    }
}

/// One way a unit's listed moves go: what its moves that way (a full,
/// three-quarter, half and quarter move) share.
pub(super) struct Heading {
    /// The facing the moves end at (rounded as listed).
    facing: f64,
    /// The unit's base turned to `facing`, once asked for.
    end: OnceCell<Base>,
}

impl Heading {
    /// Moves ending at `facing`.
    pub(super) fn new(facing: f64) -> Heading {
        Heading {
            facing,
            end: OnceCell::new(),
        }
    }
}

impl GameState {
    /// The neighbourhood of `id`'s moves now (a unit of the side to act).
    #[cfg(test)]
    pub(super) fn neighbourhood(&self, id: UnitId) -> Neighbourhood {
        let mut near = Neighbourhood::empty();
        self.fill_neighbourhood(id, &mut near);
        near
    }

    /// [`GameState::neighbourhood`] of `id`, written over `near`: its
    /// lists keep their room from one unit to the next of a listing.
    pub(super) fn fill_neighbourhood(&self, id: UnitId, near: &mut Neighbourhood) {
        let unit = &self.units[id.0];
        let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
        // A listed move ends within its allowance of the centre (plus the
        // rounding to 1/1000", under 0.001"); the checks look no farther
        // than both reaches (overlaps, the sweep's broad phase) or both
        // reaches and the keep-clear distance. The 0.02" are a margin.
        let reach = allowance + unit.base.reach() + self.rules.keep_clear.max(0.0) + 0.02;
        near.unit = id;
        near.others.clear();
        near.enemies.clear();
        near.presence.clear();
        // Room for all, so that neither is grown a push at a time.
        near.others.reserve(self.units.len());
        near.enemies.reserve(self.units.len());
        for (index, other) in self.units.iter().enumerate() {
            if index == id.0 || !other.is_active() {
                continue;
            }
            let enemy = other.side != unit.side;
            if enemy
                && unit
                    .base
                    .within(&other.base, self.rules.enemy_presence + EPSILON)
            {
                near.presence
                    .push((other.base.centre - unit.base.centre).bearing());
            }
            let limit = reach + other.base.reach();
            let apart = other.base.centre - unit.base.centre;
            if apart.dot(apart) <= limit * limit {
                near.others.push(index);
                if enemy {
                    near.enemies.push(index);
                }
            }
        }
    }

    /// All a unit's listed pivots and moves depend on (`legal`'s
    /// `listed_pivots` and `listed_moves`, besides the table): whether
    /// each is listed (`pivoting`, `moving`); its troop type, category and
    /// base; the centres
    /// of its three nearest enemies (`nearest`, nearest first), along
    /// which it moves; the bearings to the enemies within the enemy
    /// presence distance; the bases of the units near enough to matter
    /// (the neighbourhood's), each marked friend or enemy; and the rules'
    /// keep-clear distance and tolerance of "directly". As bits, written
    /// over `key`.
    pub(super) fn moves_key(
        &self,
        near: &Neighbourhood,
        nearest: &[UnitId],
        pivoting: bool,
        moving: bool,
        key: &mut Vec<u64>,
    ) {
        let unit = &self.units[near.unit.0];
        let nearest = &nearest[..nearest.len().min(3)];
        key.clear();
        key.reserve(13 + 2 * nearest.len() + near.presence.len() + 6 * near.others.len());
        key.extend([
            u64::from(pivoting) | (u64::from(moving) << 1),
            unit.troop.0 as u64,
            unit.category.index() as u64,
        ]);
        key.extend(base_bits(&unit.base));
        key.extend([
            self.rules.keep_clear.to_bits(),
            self.rules.directly_within.to_bits(),
            nearest.len() as u64,
        ]);
        for enemy in nearest {
            let centre = self.units[enemy.0].base.centre;
            key.extend([centre.x.to_bits(), centre.y.to_bits()]);
        }
        key.push(near.presence.len() as u64);
        key.extend(near.presence.iter().map(|bearing| bearing.to_bits()));
        key.push(near.others.len() as u64);
        let mut enemies = near.enemies.iter().peekable();
        for &index in &near.others {
            let enemy = enemies.next_if_eq(&&index).is_some();
            key.push(u64::from(enemy));
            key.extend(base_bits(&self.units[index].base));
        }
    }

    /// All the listed move of `near`'s unit along `direction` (of length
    /// one) ending at `facing` depends on (`legal`'s `listed_way`, besides
    /// the table): the unit's troop type, category and base; the
    /// direction and facing; the rules' keep-clear distance and tolerance
    /// of "directly"; the bearings to the enemies within the enemy
    /// presence distance; and the bases of the neighbourhood's units
    /// within both reaches and the keep-clear distance (and a margin) of
    /// the line from where it stands to a full move's end, each marked
    /// friend or enemy. Every move tried ends on that line (but for the
    /// rounding to 1/1000"), so every unit its checks could name (one it
    /// may meet along the way, end on, or end within the keep-clear
    /// distance of) is among those. As bits, written over `key`.
    pub(super) fn way_key(
        &self,
        near: &Neighbourhood,
        direction: Vector,
        facing: f64,
        key: &mut Vec<u64>,
    ) {
        let unit = &self.units[near.unit.0];
        let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
        let start = unit.base.centre;
        let far = start + direction * allowance;
        let slack = unit.base.reach() + self.rules.keep_clear.max(0.0) + 0.02;
        key.clear();
        key.reserve(16 + near.presence.len() + 6 * near.others.len());
        key.extend([unit.troop.0 as u64, unit.category.index() as u64]);
        key.extend(base_bits(&unit.base));
        key.extend([
            self.rules.keep_clear.to_bits(),
            self.rules.directly_within.to_bits(),
            direction.x.to_bits(),
            direction.y.to_bits(),
            facing.to_bits(),
            near.presence.len() as u64,
        ]);
        key.extend(near.presence.iter().map(|bearing| bearing.to_bits()));
        let mut enemies = near.enemies.iter().peekable();
        let mut along = 0;
        for &index in &near.others {
            let enemy = enemies.next_if_eq(&&index).is_some();
            let base = &self.units[index].base;
            if maybe_within_segment(base.centre, start, far, slack + base.reach()) {
                key.push(u64::from(enemy));
                key.extend(base_bits(base));
                along += 1;
            }
        }
        key.push(along);
    }

    /// Exactly `self.allows(&Action::Pivot { unit, facing })` for the
    /// unit of `near` (of the side to act, on the table, neither moved nor
    /// pivoted, in a phase that allows pivots): turned where it stands, on
    /// the table and on nobody. A unit it could overlap is within both
    /// bases' reach, so among the neighbourhood's.
    pub(super) fn allows_listed_pivot(&self, near: &Neighbourhood, facing: f64) -> bool {
        let base = &self.units[near.unit.0].base;
        let turned = Base::new(base.centre, facing, base.frontage, base.depth);
        self.battlefield.base_on_table(&turned)
            && !near
                .others
                .iter()
                .any(|&index| turned.overlaps_near(&self.units[index].base))
    }

    /// Exactly `self.allows(&Action::Move { unit, to, facing })` for the
    /// unit of `near` (of the side to act, on the table, not yet moved, in
    /// a phase that allows moves), with `to` within its allowance of where
    /// it stands; `end` keeps its base turned to `facing` (anywhere) for
    /// the other moves the same way. The same checks as
    /// [`GameState::check_path`]'s quick one, against the neighbourhood's
    /// units only, cheapest first; the walk remembered.
    pub(super) fn allows_listed_move(
        &self,
        near: &Neighbourhood,
        heading: &Heading,
        to: Point,
    ) -> bool {
        let facing = heading.facing;
        let unit = &self.units[near.unit.0];
        let start = unit.base.centre;
        // Enemy presence: only directly towards or away from one of them.
        if !near.presence.is_empty() {
            let travel = to - start;
            if travel.length() >= EPSILON {
                let tolerance = self.rules.directly_within;
                let bearing = travel.bearing();
                let direct = near.presence.iter().any(|&towards| {
                    let angle = turn_between(bearing, towards);
                    angle <= tolerance + EPSILON || angle >= 180.0 - tolerance - EPSILON
                });
                if !direct {
                    return false;
                }
            }
        }
        // Where it ends: on nobody at the walk's last point (at the travel
        // facing and the end one), on the table, clear of the enemy.
        let end = heading.end.get_or_init(|| {
            // The same base when the facing is the unit's own, to the bit:
            // its sine and cosine are known.
            if facing.to_bits() == unit.base.facing.to_bits() {
                unit.base
            } else {
                Base::new(start, facing, unit.base.frontage, unit.base.depth)
            }
        });
        let last = start.lerp(to, 1.0);
        let overlaps_someone = |base: &Base| {
            near.others
                .iter()
                .any(|&index| base.overlaps_near(&self.units[index].base))
        };
        if overlaps_someone(&unit.base.moved_to(last)) || overlaps_someone(&end.moved_to(last)) {
            return false;
        }
        let at_end = end.moved_to(to);
        if !self.battlefield.base_on_table(&at_end) {
            return false;
        }
        let keep_clear = self.rules.keep_clear;
        if near.enemies.iter().any(|&index| {
            let enemy = &self.units[index].base;
            !at_end.surely_farther_than(enemy, keep_clear) && at_end.distance_to(enemy) < keep_clear
        }) {
            return false;
        }
        // The ground: off the table, impassable or over the allowance.
        let points = [start, to];
        let walked = remembered_walk(&self.battlefield, unit, &points, || {
            let mover = Mover {
                name: &unit.name,
                troop: Some(unit.troop),
                category: unit.category,
                along_road: false,
                uphill: true,
                quick: true,
            };
            self.walk_lawful(start, to, &mover)
        });
        if !walked {
            return false;
        }
        // Nobody met along the way.
        let travelling = unit.base;
        let may_meet =
            |&index: &usize| may_meet_on_path(&travelling, &self.units[index].base, &points);
        if !near.others.iter().any(may_meet) {
            return true;
        }
        let met: Vec<usize> = near.others.iter().copied().filter(may_meet).collect();
        // The sweep depends only on the bases: the mover's, where it goes,
        // the facing it ends at and the bases it may meet, in order.
        let mut key = base_bits(&travelling).to_vec();
        key.extend([to.x.to_bits(), to.y.to_bits(), end.facing.to_bits()]);
        for &index in &met {
            key.extend(base_bits(&self.units[index].base));
        }
        remembered_sweep(key, || {
            let n_steps = steps(start, to);
            let sweep = std::iter::once(start)
                .chain((1..=n_steps).map(|step| start.lerp(to, step as f64 / n_steps as f64)));
            self.sweep_clear(unit, &travelling, end.facing, sweep, n_steps + 1, &met)
                .is_ok()
        })
    }

    /// Exactly `self.allows(&Action::MoveGeneral { general, to })` for a
    /// general of the side to act who has not moved: the walk (remembered)
    /// and his base on the table where he ends.
    pub(super) fn allows_listed_general_move(&self, id: GeneralId, to: Point) -> bool {
        let general = &self.generals[id.0];
        let troop = self.general_troop();
        let from = general.base.centre;
        let key = [
            troop.map_or(u64::MAX, |troop| troop.0 as u64),
            Category::General.index() as u64,
            from.x.to_bits(),
            from.y.to_bits(),
            to.x.to_bits(),
            to.y.to_bits(),
        ];
        let walked = recall(&GENERAL_WALKS, &self.battlefield, &key, || {
            let mover = Mover {
                name: &general.name,
                troop,
                category: Category::General,
                along_road: false,
                uphill: false,
                quick: false,
            };
            self.walk_lawful(from, to, &mover)
        });
        walked && self.battlefield.base_on_table(&general.base.moved_to(to))
    }
}

/// How many answers of each kind a thread remembers (a slot holds the
/// latest of the keys that share it).
const SLOTS: usize = 4096;

/// A key of a remembered answer: the mover's troop type and category and
/// two points, as bits.
type Key = [u64; 6];

/// Answers remembered on one table (held weakly, which keeps its
/// allocation, so no other table can take its address while it is held),
/// by keys of type `K`.
struct Remembered<V, K = Key> {
    table: Weak<Battlefield>,
    slots: Vec<Option<(K, V)>>,
}

impl<V, K> Remembered<V, K> {
    const fn new() -> Remembered<V, K> {
        Remembered {
            table: Weak::new(),
            slots: Vec::new(),
        }
    }
}

thread_local! {
    /// Whether a general's walk is lawful.
    static GENERAL_WALKS: RefCell<Remembered<bool>> = const { RefCell::new(Remembered::new()) };
    /// Whether a straight walk of a unit is lawful.
    static WALKS: RefCell<Remembered<bool>> = const { RefCell::new(Remembered::new()) };
    /// A road move's path and facing towards a goal, if the road leads
    /// there.
    static ROADS: RefCell<Remembered<Option<RoadMove>>> = const { RefCell::new(Remembered::new()) };
}

/// A road move's path (its points after the start) and facing.
pub(super) type RoadMove = (Vec<Point>, f64);

/// The key of a remembered answer as it is stored: its bits.
trait StoredKey {
    /// The key's bits.
    fn bits(&self) -> &[u64];
    /// The key of `bits` (of the right length).
    fn of_bits(bits: &[u64]) -> Self;
}

impl StoredKey for Key {
    fn bits(&self) -> &[u64] {
        self
    }

    fn of_bits(bits: &[u64]) -> Key {
        let mut key = [0; 6];
        key.copy_from_slice(bits);
        key
    }
}

impl StoredKey for Box<[u64]> {
    fn bits(&self) -> &[u64] {
        self
    }

    fn of_bits(bits: &[u64]) -> Box<[u64]> {
        Box::from(bits)
    }
}

/// `answer()`, remembered in `memo` by `field` and `key`: only for answers
/// that depend on nothing else.
fn recall<V: Clone, K: StoredKey>(
    memo: &'static std::thread::LocalKey<RefCell<Remembered<V, K>>>,
    field: &Arc<Battlefield>,
    key: &[u64],
    answer: impl FnOnce() -> V,
) -> V {
    recall_with(memo, field, key, answer, V::clone)
}

/// `read(&answer())`, `answer()` remembered in `memo` by `field` and
/// `key` (only for answers that depend on nothing else): a remembered
/// answer is read where it is kept, not copied out, and the key is copied
/// only to be kept with a new answer.
fn recall_with<V, K: StoredKey, R>(
    memo: &'static std::thread::LocalKey<RefCell<Remembered<V, K>>>,
    field: &Arc<Battlefield>,
    key: &[u64],
    answer: impl FnOnce() -> V,
    read: impl FnOnce(&V) -> R,
) -> R {
    let slot = slot_of(key);
    let mut read = Some(read);
    let known = memo.with_borrow_mut(|memo| {
        if !same_table(&memo.table, field) {
            memo.table = Arc::downgrade(field);
            memo.slots.clear();
            memo.slots.resize_with(SLOTS, || None);
        }
        match &memo.slots[slot] {
            Some((stored, value)) if stored.bits() == key => read.take().map(|read| read(value)),
            _ => None,
        }
    });
    if let Some(known) = known {
        return known;
    }
    let value = answer();
    let read = read.take().expect("not read yet");
    let result = read(&value);
    memo.with_borrow_mut(|memo| memo.slots[slot] = Some((K::of_bits(key), value)));
    result
}

thread_local! {
    /// Buffers for keys, lent out one at a time (a key may be built while
    /// another one is in use).
    static KEY_BUFFERS: RefCell<Vec<Vec<u64>>> = const { RefCell::new(Vec::new()) };
}

/// `use_buffer(buffer)` with an empty buffer for a key, lent so that a key
/// is not allocated afresh each time.
pub(super) fn with_key_buffer<R>(use_buffer: impl FnOnce(&mut Vec<u64>) -> R) -> R {
    let mut buffer = KEY_BUFFERS
        .with_borrow_mut(|buffers| buffers.pop())
        .unwrap_or_default();
    buffer.clear();
    let result = use_buffer(&mut buffer);
    KEY_BUFFERS.with_borrow_mut(|buffers| buffers.push(buffer));
    result
}

/// Whether `held` is `field`: a table held weakly keeps its allocation,
/// so no other table can have taken its address.
fn same_table(held: &Weak<Battlefield>, field: &Arc<Battlefield>) -> bool {
    std::ptr::eq(held.as_ptr(), Arc::as_ptr(field))
}

/// A base as bits: its centre, facing and size, which are all of it (the
/// rest [`Base::new`] works out from them).
fn base_bits(base: &Base) -> [u64; 5] {
    [
        base.centre.x.to_bits(),
        base.centre.y.to_bits(),
        base.facing.to_bits(),
        base.frontage.to_bits(),
        base.depth.to_bits(),
    ]
}

/// A remembered sweep: its key and whether it met nobody.
type Sweep = (Vec<u64>, bool);

thread_local! {
    /// Whether a straight move's sweep met nobody, by its key (bases and
    /// points as bits, whatever the table).
    static SWEEPS: RefCell<Vec<Option<Sweep>>> = const { RefCell::new(Vec::new()) };
}

/// `sweep()`'s answer, remembered by `key`, all it depends on.
fn remembered_sweep(key: Vec<u64>, sweep: impl FnOnce() -> bool) -> bool {
    let slot = slot_of(&key);
    let known = SWEEPS.with_borrow_mut(|sweeps| {
        if sweeps.is_empty() {
            sweeps.resize_with(SLOTS, || None);
        }
        match &sweeps[slot] {
            Some((stored, met_nobody)) if *stored == key => Some(*met_nobody),
            _ => None,
        }
    });
    if let Some(met_nobody) = known {
        return met_nobody;
    }
    let met_nobody = sweep();
    SWEEPS.with_borrow_mut(|sweeps| sweeps[slot] = Some((key, met_nobody)));
    met_nobody
}

/// The slot of `key` among [`SLOTS`].
fn slot_of(key: &[u64]) -> usize {
    key.iter()
        .fold(0u64, |hash, word| {
            (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
        })
        .wrapping_shr(52) as usize
        % SLOTS
}

/// A unit's listed moves: where each goes and the facing it ends at.
pub(super) type Moves = Vec<(Point, f64)>;

/// A unit's listed pivots and moves.
#[derive(Clone)]
pub(super) struct Listed {
    /// The facings it may pivot to.
    pub(super) pivots: Vec<f64>,
    /// Its straight moves.
    pub(super) moves: Moves,
}

thread_local! {
    /// A unit's listed pivots and moves, by all they depend on
    /// ([`GameState::moves_key`]): a unit nobody near has moved up to is
    /// offered the same listing after listing.
    static MOVES: RefCell<Remembered<Listed, Box<[u64]>>> =
        const { RefCell::new(Remembered::new()) };
}

thread_local! {
    /// Where a unit's listed move one way goes (if anywhere), by all it
    /// depends on ([`GameState::way_key`]).
    static WAYS: RefCell<Remembered<Option<Point>, Box<[u64]>>> =
        const { RefCell::new(Remembered::new()) };
}

/// `way()`, remembered on `field` by `key` ([`GameState::way_key`]).
pub(super) fn remembered_way(
    field: &Arc<Battlefield>,
    key: &[u64],
    way: impl FnOnce() -> Option<Point>,
) -> Option<Point> {
    recall(&WAYS, field, key, way)
}

/// `read(&moves())`, `moves()` remembered on `field` by `key`
/// ([`GameState::moves_key`]).
pub(super) fn remembered_moves<R>(
    field: &Arc<Battlefield>,
    key: &[u64],
    moves: impl FnOnce() -> Listed,
    read: impl FnOnce(&Listed) -> R,
) -> R {
    recall_with(&MOVES, field, key, moves, read)
}

/// The key of `unit` going from `a` to `b`.
fn key(unit: &Unit, a: Point, b: Point) -> Key {
    [
        unit.troop.0 as u64,
        unit.category.index() as u64,
        a.x.to_bits(),
        a.y.to_bits(),
        b.x.to_bits(),
        b.y.to_bits(),
    ]
}

/// Whether the walk of `unit` along the straight move `points` is lawful:
/// `walk()`'s answer, remembered. A walk depends only on the table, the
/// mover's troop type and category, and the points (not on other units).
fn remembered_walk(
    field: &Arc<Battlefield>,
    unit: &Unit,
    points: &[Point; 2],
    walk: impl FnOnce() -> bool,
) -> bool {
    recall(&WALKS, field, &key(unit, points[0], points[1]), walk)
}

/// `road()`, remembered: the road move `unit` is offered towards `goal`
/// (its path and facing), which depends only on the table, the unit's
/// troop type and category, where it stands and the goal.
pub(super) fn remembered_road(
    field: &Arc<Battlefield>,
    unit: &Unit,
    goal: Point,
    road: impl FnOnce() -> Option<RoadMove>,
) -> Option<RoadMove> {
    recall(&ROADS, field, &key(unit, unit.base.centre, goal), road)
}

/// A walk along a path: its cost and the number of points it sampled, or
/// why it is refused ([`GameState::walk_cost`]'s answer).
type PathWalk = Result<(f64, usize), Refusal>;

thread_local! {
    /// The walks of units' paths (`check_path`'s), by all they depend on
    /// ([`path_walk_key`]): a charge or road move listed again, and a move
    /// checked by the listing and then made, walks once.
    static PATH_WALKS: RefCell<Remembered<PathWalk, Box<[u64]>>> =
        const { RefCell::new(Remembered::new()) };
}

/// All a walk along `points` depends on besides the table and the name in
/// its refusals: the mover's troop type (if any) and category, whether it
/// moves along the road, is slowed uphill and wants only yes or no, and
/// the points. As bits.
pub(super) fn path_walk_key(mover: &Mover<'_>, points: &[Point]) -> Vec<u64> {
    let mut key = Vec::with_capacity(4 + 2 * points.len());
    key.extend([
        mover.troop.map_or(u64::MAX, |troop| troop.0 as u64),
        mover.category.index() as u64,
        u64::from(mover.along_road) | u64::from(mover.uphill) << 1 | u64::from(mover.quick) << 2,
        points.len() as u64,
    ]);
    for point in points {
        key.extend([point.x.to_bits(), point.y.to_bits()]);
    }
    key
}

/// `walk()`, the walk of `mover` along `points` on `field`, remembered: a
/// refusal recalled names `mover` (the walk's refusals name only the
/// mover, and nothing else of its answer depends on who it is).
pub(super) fn remembered_path_walk(
    field: &Arc<Battlefield>,
    mover: &Mover<'_>,
    points: &[Point],
    walk: impl FnOnce() -> PathWalk,
) -> PathWalk {
    let answer = recall(&PATH_WALKS, field, &path_walk_key(mover, points), walk);
    answer.map_err(|refusal| named(refusal, mover.name))
}

/// A walk's `refusal` naming `who`.
fn named(mut refusal: Refusal, who: &str) -> Refusal {
    match &mut refusal {
        Refusal::TooFar { name, .. }
        | Refusal::Impassable { name, .. }
        | Refusal::OffTable { name }
        | Refusal::OffRoad { name, .. }
            if name != who =>
        {
            *name = who.to_string();
        }
        // Named already, or not a walk's refusal (a walk refuses in no
        // other way).
        _ => {}
    }
    refusal
}
