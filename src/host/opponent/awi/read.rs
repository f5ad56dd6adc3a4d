//! Reading a unit's situation off the game state, as a player at the table
//! would (seed 004, "Troops reaction to local events"; rulings O1–O5).

use super::{Memory, Opponent};
use crate::battlefield::{Base, Point};
use crate::reaction::Situation;
use crate::rules::{GameState, GeneralId, UnitId};
use crate::ruleset::Category;
use crate::tables::{ClassKind, Column};

/// The situation factors read off the map, with what produced each.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// What the reaction test is given.
    pub situation: Situation,
    /// The ground's column before any withdrawal note (ruling O1).
    pub ground: Column,
    /// The nearest enemy by base-to-base distance, in sight or not (R5).
    pub nearest_enemy: Option<(UnitId, f64)>,
    /// The nearest enemy in sight.
    pub seen_enemy: Option<UnitId>,
    /// A general within 3".
    pub general: Option<(GeneralId, f64)>,
    /// The nearest friend within 6".
    pub support: Option<(UnitId, f64)>,
    /// An enemy seen falling back.
    pub retreating_enemy: Option<UnitId>,
    /// The friend ahead it is approaching, deployed to fire.
    pub friend_ahead: Option<UnitId>,
    /// The enemy that friend is fighting, if in contact.
    pub friend_enemy: Option<UnitId>,
    /// Hits now.
    pub hits: u32,
    /// Hits when it last tested.
    pub hits_before: u32,
    /// Figures at full strength (ruling O3).
    pub figures: u32,
    /// Figures left now.
    pub figures_left: u32,
    /// Off table in reserve (an encamped test).
    pub off_table: bool,
}

/// Figures lost for `hits` in a unit of `figures` figures that routs at
/// `threshold` hits, having lost `share_at_threshold` percent of its
/// figures by then (ruling O3): hits scaled to figures, rounded down.
pub fn figures_lost(hits: u32, figures: u32, threshold: u32, share_at_threshold: u32) -> u32 {
    let threshold = u64::from(threshold.max(1));
    let scaled = u64::from(hits).min(threshold)
        * u64::from(figures)
        * u64::from(share_at_threshold.min(100))
        / (threshold * 100);
    // At most `figures`, which is a u32.
    scaled.min(u64::from(figures)) as u32
}

/// The best reaction column of the ground a base holds against an enemy at
/// `towards` (ruling O1): the terrain under its centre, or the best cover
/// under the part of its base facing the enemy
/// ([`crate::battlefield::Battlefield::for_each_cell_towards`]). A unit
/// lining a fence is behind hard cover against the enemy beyond it, and in
/// the open against an enemy on its own side.
pub fn ground_column(state: &GameState, base: &Base, towards: Point) -> Column {
    let field = &state.battlefield;
    let mut best: Option<Column> = None;
    field.for_each_cell_towards(base, towards, |cell| {
        let column = field.grid.column(&field.ruleset, cell);
        if column != Column::Retreat {
            best = best.max(Some(column));
        }
    });
    best.unwrap_or(Column::Open)
}

/// Where a unit reads its ground against (ruling O1): the centre of its
/// nearest enemy (base to base), or with none on the table a point ahead
/// of it.
pub fn ground_towards(state: &GameState, id: UnitId, nearest_enemy: Option<UnitId>) -> Point {
    let base = &state.unit(id).base;
    match nearest_enemy {
        Some(enemy) => state.unit(enemy).base.centre,
        None => base.centre + base.forward(),
    }
}

/// The ground unit `id` is in, as every display says it and the
/// opponent's reading reads it (ruling O1): [`ground_column`] of its base
/// towards [`ground_towards`] its nearest active enemy, base to base (ties
/// by unit). One function, so `status UNIT` and `what UNIT` cannot
/// disagree.
pub fn unit_ground(state: &GameState, id: UnitId) -> Column {
    let base = &state.unit(id).base;
    let enemy_side = GameState::enemy_of(state.unit(id).side);
    let nearest = state
        .active_units(enemy_side)
        .map(|enemy| (enemy, base.distance_to(&state.unit(enemy).base)))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(enemy, _)| enemy);
    ground_column(state, base, ground_towards(state, id, nearest))
}

impl Opponent {
    /// Read `id`'s situation now, given what is remembered about it.
    pub(super) fn read(&self, state: &GameState, id: UnitId, memory: &Memory) -> Reading {
        self.read_measuring(state, id, memory).0
    }

    /// [`Opponent::read`], and every active enemy with its base-to-base
    /// distance, nearest first (ties by unit), as measured for the reading
    /// ([`Measured`]): carrying out the order ranks the same enemies, and
    /// nothing moves in between.
    pub(super) fn read_measuring(
        &self,
        state: &GameState,
        id: UnitId,
        memory: &Memory,
    ) -> (Reading, Measured) {
        let unit = state.unit(id);
        let tables = &self.tables;
        let kind = memory.kind.unwrap_or(ClassKind::Line);
        let enemy_side = GameState::enemy_of(self.side);
        let enemies = super::active_ids(state, enemy_side);
        // By distance, then by unit: a total order (and entries equal in
        // it are the same entry), so an unstable sort, which needs no
        // buffer, puts them in the one order a stable sort would, and the
        // comparison is of whole numbers ([`f64::total_cmp`]'s key).
        let by_distance = |ids: &mut Vec<(UnitId, f64)>| {
            ids.sort_unstable_by_key(|&(id, distance)| (total_order_key(distance), id));
        };
        let mut measured = Measured::new(state, &self.memo, id, &enemies);
        if measured.by_distance.is_empty() {
            measured.measure_all(state, &self.memo);
        }
        let nearest_enemy = measured.by_distance.first().copied();
        let (seen_enemy, retreating_enemy, sees_cavalry) = self.sight(state, id, &mut measured);
        let reach = &tables.reaction.distances;
        let general_within = reach.general_within + 1e-6;
        let support_within = reach.support_within + 1e-6;
        let general = self.general_near(state, &unit.base, general_within);
        // Only friends within 6" (support, a friend ahead) are asked about,
        // in order of distance and then unit (so found in any order).
        let mut friends: Vec<(UnitId, f64)> = Vec::new();
        state
            .units
            .each_near(&unit.base, support_within, |index, f| {
                if index != id.0
                    && f.side == self.side
                    && f.is_active()
                    && !unit.base.surely_farther_than(&f.base, support_within)
                {
                    friends.push((UnitId(index), self.memo.distance(state, id, UnitId(index))));
                }
            });
        by_distance(&mut friends);
        let support = friends.iter().copied().find(|(_, d)| *d <= support_within);
        let (friend_ahead, friend_enemy) =
            self.friend_ahead(state, id, nearest_enemy, &friends, support_within);
        let threshold = state.rules.rout_threshold(unit.category).unwrap_or(13);
        let share = self.tables.opponent.figures_lost_at_rout_threshold;
        let lost_now = figures_lost(unit.hits, memory.figures, threshold, share);
        let lost_before = figures_lost(memory.hits_at_test, memory.figures, threshold, share);
        let figures_left = memory.figures - lost_now;
        let towards = ground_towards(state, id, nearest_enemy.map(|(e, _)| e));
        let ground = self.memo.ground(state, id, towards);
        let situation = Situation {
            class: memory.class.clone(),
            column: Some(ground),
            enemy_in_sight: seen_enemy.is_some(),
            enemy_distance: nearest_enemy.map(|(_, d)| d),
            general_within_3: general.is_some(),
            support_within_6: support.is_some(),
            sees_enemy_retreat: retreating_enemy.is_some(),
            lost_melee: memory.lost_melee,
            skirmish_order: kind == ClassKind::Line
                && memory.formation == crate::tables::Formation::Skirmish,
            sees_own_rout: false,
            casualties: lost_now.saturating_sub(lost_before),
            // Seed 004: "under half strength"; fewer than half its figures.
            under_half: figures_left * 2 < memory.figures,
            withdrew_last_bound: memory.withdrew,
            character: memory.character,
            formation: Some(memory.formation),
            disordered: memory.disordered,
            sees_cavalry,
            friend_firing_ahead: friend_ahead.is_some(),
            friend_in_melee: friend_enemy.is_some(),
        };
        let reading = Reading {
            situation,
            ground,
            nearest_enemy,
            seen_enemy,
            general,
            support,
            retreating_enemy,
            friend_ahead,
            friend_enemy,
            hits: unit.hits,
            hits_before: memory.hits_at_test,
            figures: memory.figures,
            figures_left,
            off_table: false,
        };
        (reading, measured)
    }

    /// Sight, asked of the nearest enemies first and only until the three
    /// answers it gives are settled: the nearest enemy in sight, the
    /// nearest seen falling back, and whether cavalry is seen. The enemies
    /// beyond the near ones are `measured` only if one of them could still
    /// settle an answer.
    fn sight(
        &self,
        state: &GameState,
        id: UnitId,
        measured: &mut Measured,
    ) -> (Option<UnitId>, Option<UnitId>, bool) {
        let unit = state.unit(id);
        let field = &state.battlefield;
        let mut seen_enemy = None;
        let mut retreating_enemy = None;
        let mut sees_cavalry = false;
        let mut at = 0;
        loop {
            if at == measured.by_distance.len() {
                let matters = |e: UnitId| {
                    (self.enemy_retreating.contains(&e) && retreating_enemy.is_none())
                        || (state.unit(e).category == Category::Cavalry && !sees_cavalry)
                };
                if measured.complete() || (seen_enemy.is_some() && !measured.rest().any(matters)) {
                    break;
                }
                measured.measure_all(state, &self.memo);
            }
            let (e, _) = measured.by_distance[at];
            at += 1;
            let retreating = self.enemy_retreating.contains(&e);
            let cavalry = state.unit(e).category == Category::Cavalry;
            let matters = seen_enemy.is_none()
                || (retreating && retreating_enemy.is_none())
                || (cavalry && !sees_cavalry);
            if !matters || !field.can_see(&unit.base, &state.unit(e).base) {
                continue;
            }
            seen_enemy = seen_enemy.or(Some(e));
            if retreating {
                retreating_enemy = retreating_enemy.or(Some(e));
            }
            sees_cavalry |= cavalry;
        }
        (seen_enemy, retreating_enemy, sees_cavalry)
    }

    /// The nearest of the side's generals on the table within
    /// `general_within` inches of `base`, and how far.
    fn general_near(
        &self,
        state: &GameState,
        base: &Base,
        general_within: f64,
    ) -> Option<(GeneralId, f64)> {
        state
            .generals
            .iter()
            .enumerate()
            .filter(|(index, g)| {
                g.side == self.side && !self.generals.get(*index).is_some_and(|m| m.left)
            })
            .filter(|(_, g)| !g.base.surely_farther_than(base, general_within))
            .map(|(index, g)| (GeneralId(index), g.base.distance_to(base)))
            .filter(|(_, d)| *d <= general_within)
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
    }

    /// Ruling O5: approaching the rear of a friend deployed to fire is a
    /// friend within 6", in the unit's frontal arc, nearer the unit's
    /// nearest enemy than the unit is, with an enemy within musket range.
    /// The friend ahead, of the `friends` within `support_within` nearest
    /// first, and the enemy it is in contact with, if any.
    fn friend_ahead(
        &self,
        state: &GameState,
        id: UnitId,
        nearest_enemy: Option<(UnitId, f64)>,
        friends: &[(UnitId, f64)],
        support_within: f64,
    ) -> (Option<UnitId>, Option<UnitId>) {
        let enemy_side = GameState::enemy_of(self.side);
        let mut friend_ahead = None;
        let mut friend_enemy = None;
        if let Some((enemy, distance)) = nearest_enemy {
            for (friend, gap) in friends {
                if *gap > support_within {
                    break;
                }
                if !self.memo.in_frontal_arc(state, id, *friend)
                    || self.memo.distance(state, *friend, enemy) >= distance
                {
                    continue;
                }
                // In contact: within the engine's contact distance.
                // The enemies are the active units of `enemy_side`, in unit
                // order: the first in contact is the least index, asked of
                // the units' spatial index (`within` holds only of bases not
                // surely farther apart than its limit).
                let friend_base = &state.unit(*friend).base;
                let enemy_within = |limit: f64| {
                    move |index: usize, e: &crate::rules::Unit| {
                        e.side == enemy_side
                            && e.is_active()
                            && self.memo.within(state, *friend, UnitId(index), limit)
                    }
                };
                let engaged = state
                    .units
                    .first_near(
                        friend_base,
                        crate::rules::CONTACT,
                        enemy_within(crate::rules::CONTACT),
                    )
                    .map(UnitId);
                let musket = state.rules.musket.range + 1e-6;
                let firing = state
                    .units
                    .any_near(friend_base, musket, enemy_within(musket));
                if engaged.is_some() || firing {
                    friend_ahead = Some(*friend);
                    friend_enemy = engaged;
                    break;
                }
            }
        }
        (friend_ahead, friend_enemy)
    }
}

/// How far, base to base, a reading measures the enemies at once
/// ([`Measured`]).
pub(super) const NEAR: f64 = 48.0;

/// The active enemies a reading measured, nearest first: at once those
/// within [`NEAR`] inches of the unit, the rest (all of them farther) only
/// when a question goes past the near ones. Every enemy farther than
/// `NEAR` comes after every one within it, so the near ones are the head
/// of the list of them all, by distance then unit.
#[derive(Debug, Clone)]
pub(super) struct Measured {
    /// The unit measured from, and its base when it was measured.
    from: (UnitId, Base),
    /// The enemies measured so far, by distance then unit: those within
    /// `NEAR`, then, once [`Measured::measure_all`] has run, the rest.
    pub(super) by_distance: Vec<(UnitId, f64)>,
    /// The enemies farther than `NEAR`, in unit order, with their
    /// distance when it was worked out on the way: empty once measured.
    far: Vec<(UnitId, Option<f64>)>,
}

impl Measured {
    /// The enemies `enemies` of unit `id`, those within [`NEAR`] measured.
    pub(super) fn new(
        state: &GameState,
        memo: &super::memo::UnitMemo,
        id: UnitId,
        enemies: &[UnitId],
    ) -> Measured {
        let base = state.unit(id).base;
        let mut by_distance = Vec::with_capacity(enemies.len());
        let mut far = Vec::new();
        for &e in enemies {
            // `surely_farther_than` holds only of bases more than `NEAR`
            // apart.
            if base.surely_farther_than(&state.unit(e).base, NEAR) {
                far.push((e, None));
                continue;
            }
            let distance = memo.distance(state, id, e);
            if distance <= NEAR {
                by_distance.push((e, distance));
            } else {
                far.push((e, Some(distance)));
            }
        }
        by_distance.sort_unstable_by_key(|&(id, distance)| (total_order_key(distance), id));
        Measured {
            from: (id, base),
            by_distance,
            far,
        }
    }

    /// Whether every enemy is measured.
    pub(super) fn complete(&self) -> bool {
        self.far.is_empty()
    }

    /// The enemies not measured yet.
    pub(super) fn rest(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.far.iter().map(|(e, _)| *e)
    }

    /// Every enemy measured, whether or not yet.
    pub(super) fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.by_distance.iter().map(|(e, _)| *e).chain(self.rest())
    }

    /// Measure the rest, and put them after the near ones in order. The
    /// enemies have not moved since the reading; the unit may have (a
    /// pivot), so its distances are from its base as it was.
    pub(super) fn measure_all(&mut self, state: &GameState, memo: &super::memo::UnitMemo) {
        let (id, base) = self.from;
        let unchanged = state.unit(id).base == base;
        let mut rest: Vec<(UnitId, f64)> = self
            .far
            .drain(..)
            .map(|(e, known)| {
                let distance = known.unwrap_or_else(|| {
                    if unchanged {
                        memo.distance(state, id, e)
                    } else {
                        base.distance_to(&state.unit(e).base)
                    }
                });
                (e, distance)
            })
            .collect();
        rest.sort_unstable_by_key(|&(id, distance)| (total_order_key(distance), id));
        self.by_distance.extend(rest);
    }
}

/// A whole number ordered as [`f64::total_cmp`] orders `value`: its bits,
/// those after the sign flipped for a negative number (the same key the
/// standard library's `total_cmp` compares).
pub(super) fn total_order_key(value: f64) -> i64 {
    let bits = value.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}
