//! Carrying out a unit's order through legal engine actions (rulings
//! O6–O13): targets by explicit rules, moves by straight line first and
//! petgraph routes where the straight line fails, every fallback recorded.

mod candidates;

use super::memo::UnitMemo;
use super::read::{Measured, NEAR};
use super::{Decision, Hemmed, Memory, Opponent, Reading, RouteNote, TurnReport};
use crate::battlefield::{CellSet, Field, Point, Vector};
use crate::dice::Roller;
use crate::host::probe::{Probing, Stage, staged};
use crate::reaction::Outcome;
use crate::rules::{Action, Checked, Event, GameState, Refusal, UnitId, Volley};
use crate::tables::{Column, Fire, Order};
use candidates::{Context, Engine, GoalMove, Progress};
use std::sync::Arc;

/// Where a move heads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Goal {
    /// Towards an enemy unit, stopping short of contact.
    Enemy(UnitId),
    /// Towards an enemy unit, stopping once within this many inches of it
    /// (moving up to weapon range, ruling PL3).
    Within(UnitId, f64),
    /// Towards a point.
    Point(Point),
    /// The nearest cover that does not lead towards the enemy.
    Cover,
    /// The side's own table edge.
    Rear,
}

/// How the unit faces at the end of its move.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Facing {
    /// Towards a point (the enemy).
    At(Point),
    /// Unchanged (falling back while facing the enemy).
    Keep,
    /// The way it went (routing).
    Travel,
}

fn round(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

fn round_point(point: Point) -> Point {
    Point::new(round(point.x), round(point.y))
}

fn bearing(value: f64) -> f64 {
    let rounded = round(value.rem_euclid(360.0));
    if rounded >= 360.0 { 0.0 } else { rounded }
}

/// The candidates within `limit` inches of `from` (base to base), in the
/// order of the targeting rule ([`rank_by_target_rule`]): what
/// [`side_ranked_within`] answers, by a scan (kept for its test).
#[cfg(test)]
pub(super) fn ranked_within(
    state: &GameState,
    memo: &UnitMemo,
    from: UnitId,
    candidates: &[UnitId],
    limit: f64,
) -> Vec<(UnitId, f64)> {
    rank_by_target_rule(
        state,
        candidates
            .iter()
            .map(|id| (*id, memo.distance(state, from, *id)))
            .filter(|(_, distance)| *distance <= limit),
    )
}

/// The active units of `side` within `limit` inches of `from` (base to
/// base), in the order of the targeting rule: exactly [`ranked_within`] of
/// all of them, asked of the units' spatial index (the rule's order is a
/// total one, so the order they are found in does not matter).
pub(super) fn side_ranked_within(
    state: &GameState,
    memo: &UnitMemo,
    from: UnitId,
    side: usize,
    limit: f64,
) -> Vec<(UnitId, f64)> {
    let base = &state.unit(from).base;
    let mut found = Vec::new();
    state.units.each_near(base, limit, |index, unit| {
        // `surely_farther_than` is true only of bases more than `limit`
        // apart, which the distance test would leave out.
        if unit.side == side && unit.is_active() && !base.surely_farther_than(&unit.base, limit) {
            let distance = memo.distance(state, from, UnitId(index));
            if distance <= limit {
                found.push((UnitId(index), distance));
            }
        }
    });
    rank_by_target_rule(state, found.into_iter())
}

/// Enemies already measured (each with its distance) in the order of the
/// targeting rule (ruling O11): the nearest base to base (to the thousandth
/// of an inch), then the most hits, then the name, then the unit; never the
/// order they come in.
pub(super) fn rank_by_target_rule(
    state: &GameState,
    measured: impl Iterator<Item = (UnitId, f64)>,
) -> Vec<(UnitId, f64)> {
    // Each key is worked out once, not at every comparison; the name is
    // only compared on a tie.
    // Sized for them all at once (a filter's upper bound is its source's).
    let most = measured.size_hint().1.unwrap_or(0);
    let mut keyed: Vec<(f64, u32, UnitId, f64)> = Vec::with_capacity(most);
    keyed.extend(measured.map(|(id, distance)| {
        (
            (distance * 1000.0).round(),
            state.unit(id).hits,
            id,
            distance,
        )
    }));
    keyed.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(b.1.cmp(&a.1))
            .then_with(|| state.unit(a.2).name.cmp(&state.unit(b.2).name))
            .then(a.2.cmp(&b.2))
    });
    keyed
        .into_iter()
        .map(|(_, _, id, distance)| (id, distance))
        .collect()
}

/// [`rank_by_target_rule`] of enemies `measured` nearest first, ties by
/// unit (as [`Opponent::read_measuring`] orders them). The rule's first key,
/// the distance to the thousandth of an inch, never falls along that order,
/// so only runs of enemies equal in it need sorting, by the rule's other
/// keys; the rule's order is a total one, so the list is the same.
pub(super) fn rank_measured(
    state: &GameState,
    mut measured: Vec<(UnitId, f64)>,
) -> Vec<(UnitId, f64)> {
    let key = |distance: f64| (distance * 1000.0).round();
    let mut start = 0;
    while start < measured.len() {
        let first = key(measured[start].1);
        let mut end = start + 1;
        while end < measured.len() && key(measured[end].1).total_cmp(&first).is_eq() {
            end += 1;
        }
        if end - start > 1 {
            measured[start..end].sort_by(|a, b| {
                state
                    .unit(b.0)
                    .hits
                    .cmp(&state.unit(a.0).hits)
                    .then_with(|| state.unit(a.0).name.cmp(&state.unit(b.0).name))
                    .then(a.0.cmp(&b.0))
            });
        }
        start = end;
    }
    measured
}

/// The enemies a reading measured ([`Measured`]) in the order of the
/// targeting rule ([`rank_measured`]): at first only those that come
/// before every enemy not yet measured (nearer than [`NEAR`] by a
/// thousandth of an inch and more), all of them when a question goes past
/// those. The list only grows at its end: the enemies ranked first keep
/// their places.
pub(super) struct Ranked {
    measured: Measured,
    /// The enemies ranked so far, each before every enemy not among them.
    list: Vec<(UnitId, f64)>,
}

impl Ranked {
    /// The measured enemies, those surely ahead of the unmeasured ranked.
    pub(super) fn new(state: &GameState, measured: Measured) -> Ranked {
        if measured.complete() {
            let list = rank_measured(state, measured.by_distance.clone());
            return Ranked { measured, list };
        }
        // The rule's first key rises with the distance, and every enemy
        // not measured is farther than `NEAR`: those below `NEAR`'s key
        // come before them all, whatever their other keys.
        let key = |distance: f64| (distance * 1000.0).round();
        let settled = measured
            .by_distance
            .iter()
            .take_while(|(_, distance)| key(*distance) < key(NEAR))
            .count();
        let list = rank_measured(state, measured.by_distance[..settled].to_vec());
        Ranked { measured, list }
    }

    /// The enemies ranked so far.
    pub(super) fn list(&self) -> &[(UnitId, f64)] {
        &self.list
    }

    /// Whether every enemy is ranked.
    pub(super) fn complete(&self) -> bool {
        self.measured.complete() && self.list.len() == self.measured.by_distance.len()
    }

    /// The enemies not ranked yet.
    pub(super) fn unranked(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.measured.by_distance[self.list.len()..]
            .iter()
            .map(|(e, _)| *e)
            .chain(self.measured.rest())
    }

    /// Every enemy, ranked or not yet.
    pub(super) fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.measured.ids()
    }

    /// Measure and rank them all.
    pub(super) fn rank_all(&mut self, state: &GameState, memo: &UnitMemo) {
        if self.complete() {
            return;
        }
        self.measured.measure_all(state, memo);
        let list = rank_measured(state, self.measured.by_distance.clone());
        debug_assert_eq!(list[..self.list.len()], self.list[..]);
        self.list = list;
    }

    /// The first enemy, in the rule's order, for which `test` holds.
    pub(super) fn find(
        &mut self,
        state: &GameState,
        memo: &UnitMemo,
        mut test: impl FnMut(UnitId) -> bool,
    ) -> Option<(UnitId, f64)> {
        let ranked = self.list.len();
        let found = self.list.iter().copied().find(|(e, _)| test(*e));
        if found.is_some() || self.complete() {
            return found;
        }
        self.rank_all(state, memo);
        self.list[ranked..].iter().copied().find(|(e, _)| test(*e))
    }

    /// The ranked enemies as far as every enemy within `limit` inches
    /// (base to base) is among them: the list asked with a limit, whose
    /// enemies farther than it do not count.
    pub(super) fn up_to(
        &mut self,
        state: &GameState,
        memo: &UnitMemo,
        limit: f64,
    ) -> &[(UnitId, f64)] {
        // Those not ranked are `NEAR` to the thousandth or farther.
        if limit >= NEAR - 0.001 {
            self.rank_all(state, memo);
        }
        &self.list
    }
}

/// Whether no charge by `id` could reach `target` within its move
/// allowance, judged by the centres alone, as the engine's first test of a
/// charge's reach judges it (a charger ends within [`crate::rules::CONTACT`]
/// of its target, a base moved `s` inches comes at most `s` inches nearer,
/// and no inch costs less than the table's cheapest), with a margin twice
/// the engine's. When true, the engine refuses the charge.
pub(super) fn surely_beyond_charge(state: &GameState, id: UnitId, target: UnitId) -> bool {
    let (unit, enemy) = (state.unit(id), state.unit(target));
    let field = &state.battlefield;
    let allowance = field.ruleset.move_inches[unit.category.index()];
    let cheapest = field.cheapest_multiplier(unit.category);
    let rough = unit.base.centre.distance(enemy.base.centre)
        - unit.base.reach()
        - enemy.base.reach()
        - crate::rules::CONTACT;
    rough * cheapest > allowance + 0.02
}

/// Whether `unit` could shoot at `target` now if it stood still (the
/// engine's fire checks, without the phase): weapon, arc, range, sight,
/// friends near the target.
pub(crate) fn shot_open(state: &GameState, memo: &UnitMemo, id: UnitId, target: UnitId) -> bool {
    let unit = state.unit(id);
    let enemy = state.unit(target);
    let Some(most) = reach(state, id) else {
        return false;
    };
    if !enemy.is_active() || !memo.in_frontal_arc(state, id, target) {
        return false;
    }
    if !memo.within(state, id, target, most + 1e-6) {
        return false;
    }
    let clearance = state.rules.friendly_clearance;
    let crowded = state
        .units
        .any_near(&enemy.base, clearance + 1e-6, |index, u| {
            index != id.0
                && u.is_active()
                && u.side == unit.side
                && memo.within(state, UnitId(index), target, clearance + 1e-6)
        });
    !crowded && state.battlefield.can_see(&unit.base, &enemy.base)
}

/// Whether `id` could shoot at any of the enemies `among` names (by unit
/// index) now: exactly whether [`shot_open`] holds for any of them. A shot
/// needs the target active and within the weapon's reach, so only the
/// units the spatial index finds within that reach are asked about.
pub(crate) fn any_shot_open(
    state: &GameState,
    memo: &UnitMemo,
    id: UnitId,
    among: impl Fn(usize) -> bool,
) -> bool {
    let Some(most) = reach(state, id) else {
        return false;
    };
    state
        .units
        .any_near(&state.unit(id).base, most + 1e-6, |index, _| {
            among(index) && shot_open(state, memo, id, UnitId(index))
        })
}

/// The engine's acceptance of `action` now, kept with its plan so that
/// sending it does not check it again. The first refusal met is kept in
/// full in `first_refusal`; once one is kept, later tries only need a yes
/// or no, which the quick check (as [`GameState::allows`]) answers more
/// cheaply.
pub(super) fn lawful(
    probe: &Probing,
    state: &GameState,
    action: &Action,
    first_refusal: &mut Option<(Action, Refusal)>,
) -> Option<Checked> {
    let quick = first_refusal.is_some();
    match staged(probe, Stage::Rules, || state.checked(action, quick)) {
        Ok(checked) => Some(checked),
        Err(refusal) => {
            if !quick {
                *first_refusal = Some((action.clone(), refusal));
            }
            None
        }
    }
}

/// What [`Opponent::plan_move`] found: the move, if any, with its route
/// note; the engine's first refusal on the way; and, when there is no
/// move, whether the rules or the units on the table leave the unit none
/// ([`Hemmed`]: no plan the engine refused) or the planner failed (ruling
/// PL10).
pub(crate) struct MovePlan {
    /// The move, checked by the engine.
    pub action: Option<Checked>,
    /// Its route, for the log.
    pub note: Option<RouteNote>,
    /// The first try the engine refused, if any was.
    pub refusal: Option<(Action, Refusal)>,
    /// Why no way was found, when the rules and the table allow none.
    pub hemmed: Option<Hemmed>,
}

impl MovePlan {
    fn found(action: Checked, note: Option<RouteNote>, refusal: Option<(Action, Refusal)>) -> Self {
        MovePlan {
            action: Some(action),
            note,
            refusal,
            hemmed: None,
        }
    }

    fn none(refusal: Option<(Action, Refusal)>) -> Self {
        MovePlan {
            action: None,
            note: None,
            refusal,
            hemmed: None,
        }
    }

    fn hemmed(refusal: Option<(Action, Refusal)>) -> Self {
        MovePlan {
            hemmed: Some(Hemmed::ByEnemy),
            ..MovePlan::none(refusal)
        }
    }

    fn held_up(refusal: Option<(Action, Refusal)>) -> Self {
        MovePlan {
            hemmed: Some(Hemmed::ByUnits),
            ..MovePlan::none(refusal)
        }
    }
}

/// Where a planned move ends: the point a checked move or road move
/// reaches, or `start` for any other action.
fn action_end(start: Point, checked: &Checked) -> Point {
    match checked.action() {
        Action::Move { to, .. } => *to,
        Action::MoveRoad { path, .. } => *path.last().unwrap_or(&start),
        _ => start,
    }
}

/// How a planned move leaves the unit facing, wherever it ends.
struct EndFacing {
    /// How it is to face.
    facing: Facing,
    /// Its facing now.
    now: f64,
    /// Where it starts.
    start: Point,
}

impl EndFacing {
    /// Its facing at the end of a move to `to`.
    fn at(&self, to: Point) -> f64 {
        match self.facing {
            Facing::At(point) => {
                if point.distance(to) < 1e-6 {
                    self.now
                } else {
                    bearing((point - to).bearing())
                }
            }
            Facing::Keep => self.now,
            Facing::Travel => {
                if self.start.distance(to) < 1e-6 {
                    self.now
                } else {
                    bearing((to - self.start).bearing())
                }
            }
        }
    }
}

/// One move being planned ([`Opponent::plan_move`]): the unit, where it
/// starts and how it will face, the enemies near enough to limit it, and
/// the first refusal its tries have met.
struct Mover<'a> {
    /// The engine's checks.
    probe: &'a Probing,
    /// The game.
    state: &'a GameState,
    /// The unit.
    id: UnitId,
    /// Where it starts.
    start: Point,
    /// How it faces at the end.
    end: EndFacing,
    /// The enemies within 6" (seed 000 Enemy Presence), nearest first.
    near: Vec<(UnitId, f64)>,
    /// The first try the engine refused.
    first_refusal: Option<(Action, Refusal)>,
}

impl Mover<'_> {
    /// The straight move along `direction` for `length` inches, shortened
    /// by quarters until the engine accepts it.
    fn straight(&mut self, direction: Vector, length: f64) -> Option<Checked> {
        let norm = direction.length();
        if norm < 1e-9 || length < 0.1 {
            return None;
        }
        let direction = direction * (1.0 / norm);
        for fraction in [1.0, 0.75, 0.5, 0.25] {
            let to = round_point(self.start + direction * (length * fraction));
            let action = Action::Move {
                unit: self.id,
                to,
                facing: self.end.at(to),
            };
            if let Some(checked) = lawful(self.probe, self.state, &action, &mut self.first_refusal)
            {
                return Some(checked);
            }
        }
        None
    }

    /// The last resort: every straight line from here, 16 bearings at
    /// four lengths, the best by `score` (lower is better) first, and
    /// only those that score at least a quarter inch better than
    /// standing still. A way the searches above missed is still found.
    fn fan(&mut self, reach: f64, score: &dyn Fn(Point) -> f64) -> Option<Checked> {
        let start = self.start;
        let here = score(start);
        let mut tries: Vec<(f64, Point)> = Vec::with_capacity(64);
        for step in 0..16 {
            let direction = Vector::from_bearing(f64::from(step) * 22.5);
            for fraction in [1.0, 0.75, 0.5, 0.25] {
                let to = round_point(start + direction * (reach * fraction));
                let value = score(to);
                if value < here - 0.25 {
                    tries.push((value, to));
                }
            }
        }
        tries.sort_by(|a, b| a.0.total_cmp(&b.0));
        tries.into_iter().find_map(|(_, to)| {
            let action = Action::Move {
                unit: self.id,
                to,
                facing: self.end.at(to),
            };
            lawful(self.probe, self.state, &action, &mut self.first_refusal)
        })
    }

    /// The move found: `action`, with its route note (`legs` of it, by the
    /// `straight` line or by pathing) and the first refusal met.
    fn found(&mut self, action: Checked, legs: usize, straight: bool) -> MovePlan {
        let note = RouteNote {
            from: self.start,
            to: action_end(self.start, &action),
            goal: String::new(),
            length: 0.0,
            legs,
            straight,
        };
        MovePlan::found(action, Some(note), self.first_refusal.take())
    }
}

/// The centre of the cell nearest `point` that `troop` may stand on and no
/// other unit's footprint covers (`point` itself when its cell is open),
/// looking at most 12" away; `None` when there is none or `point` is off
/// the table.
fn open_point_near(
    field: &crate::battlefield::Battlefield,
    troop: crate::ruleset::TroopTypeId,
    point: Point,
    blocked: &CellSet,
) -> Option<Point> {
    let grid = &field.grid;
    let open = |cell| field.passable(troop, cell) && !blocked.contains(cell);
    let cell = grid.cell_at(point)?;
    if open(cell) {
        return Some(point);
    }
    let (column, row) = ((cell % grid.width) as i64, (cell / grid.width) as i64);
    let rings = (12.0 / grid.cell).ceil() as i64;
    let mut best: Option<(f64, Point)> = None;
    for ring in 1..=rings {
        // Once a cell is found, a later ring can still hold a nearer one
        // only while the ring's inner edge is nearer than it.
        if let Some((distance, _)) = best
            && (ring as f64 - 1.0) * grid.cell > distance
        {
            break;
        }
        for dy in -ring..=ring {
            for dx in -ring..=ring {
                if dx.abs() != ring && dy.abs() != ring {
                    continue;
                }
                let (x, y) = (column + dx, row + dy);
                if x < 0 || y < 0 || x >= grid.width as i64 || y >= grid.height as i64 {
                    continue;
                }
                let candidate = y as usize * grid.width + x as usize;
                if !open(candidate) {
                    continue;
                }
                let centre = grid.centre(candidate);
                let distance = centre.distance(point);
                if best.is_none_or(|(nearest, _)| distance < nearest) {
                    best = Some((distance, centre));
                }
            }
        }
    }
    best.map(|(_, centre)| centre)
}

/// Why a unit told to fire holds its fire, in a few words, from the
/// engine's refusal of the shot at the nearest enemy in reach.
fn held_fire(refusal: &Refusal) -> String {
    match refusal {
        Refusal::MovedThisTurn { .. } => {
            "it moved or pivoted this turn, and a unit that moves may not shoot".into()
        }
        Refusal::AlreadyFired { .. } => "it has fired this turn".into(),
        Refusal::NotInArc { .. } => "the enemy is not in its frontal arc".into(),
        Refusal::NoLineOfSight { .. } => "it cannot see the enemy".into(),
        Refusal::FriendNearTarget { friend, within, .. } => format!(
            "{friend}, a friend, is within {}\" of the target, and no unit shoots at an enemy that close to its own",
            crate::battlefield::geometry::trim(*within)
        ),
        other => other.to_string(),
    }
}

/// The weapon's reach in inches, if the unit shoots.
pub(crate) fn reach(state: &GameState, id: UnitId) -> Option<f64> {
    state.weapon_of(state.unit(id)).map(|weapon| match weapon {
        crate::rules::Weapon::Musket => state.rules.musket.range,
        crate::rules::Weapon::Artillery => state.rules.artillery.max_range,
    })
}

impl Opponent {
    fn edge_field(&self, state: &GameState, id: UnitId) -> Arc<Field> {
        let troop = state.unit(id).troop;
        let edge = state.sides[self.side].edge;
        let field = &state.battlefield;
        self.fields.get(super::FieldGoal::Edge(edge), troop, || {
            field.distance_field(troop, &field.edge_cells(edge), &CellSet::none())
        })
    }

    fn cover_field(&self, state: &GameState, id: UnitId) -> Arc<Field> {
        let troop = state.unit(id).troop;
        let field = &state.battlefield;
        self.fields.get(super::FieldGoal::Cover, troop, || {
            let goals: Vec<usize> = (0..field.grid.len())
                .filter(|&cell| {
                    matches!(
                        field.grid.column(&field.ruleset, cell),
                        Column::Natural | Column::Hard
                    )
                })
                .collect();
            field.distance_field(troop, &goals, &CellSet::none())
        })
    }

    /// Ruling PL11 (`press-home`): of the enemies ranked nearest first,
    /// charge the first within `allowance` that the engine lets `id`
    /// charge and that shows signs of disorder or that the charge would
    /// strike double (the rule set's melee multipliers: seed 000's flank or
    /// rear, and guns). A unit that `has_a_shot` charges only where the
    /// charge strikes double: elsewhere its volley does more. Whether it
    /// charged.
    fn press_home(
        &mut self,
        engine: &mut Engine<'_>,
        id: UnitId,
        allowance: f64,
        progress: &mut Progress,
        has_a_shot: bool,
    ) -> bool {
        let Engine {
            state,
            roller,
            report,
        } = engine;
        let (state, ranked) = (&mut **state, &mut progress.ranked);
        let (decision, plan) = (&mut progress.decision, &mut progress.plan);
        let mut first_refusal = None;
        // The enemies beyond the allowance are passed over: only those
        // within it need be ranked.
        for (target, distance) in ranked.up_to(state, &self.memo, allowance + 1e-6) {
            if *distance > allowance + 1e-6 {
                continue;
            }
            let multiplier = state.charge_multiplier(id, *target);
            let disordered = !has_a_shot && self.disordered(state, *target);
            if multiplier <= 1 && !disordered {
                continue;
            }
            // Never into a melee the rules say it is likelier to lose
            // (PL11's least odds).
            let least = f64::from(self.tables.opponent.rules.press_home.least_odds) / 100.0;
            if state.charge_odds(id, *target) < least - 1e-9 {
                continue;
            }
            let action = Action::Charge {
                unit: id,
                target: *target,
            };
            let Some(checked) = lawful(&self.probe, state, &action, &mut first_refusal) else {
                continue;
            };
            let enemy = state.unit(*target);
            let threshold = state.rules.rout_threshold(enemy.category).unwrap_or(13);
            let (what, why) = if disordered {
                let why = if enemy.hits >= self.tables.opponent.rules.press_home.disorder_hits {
                    format!("{} of the {} hits that rout it", enemy.hits, threshold)
                } else {
                    "falling back".to_string()
                };
                ("shows signs of disorder", why)
            } else {
                (
                    "would take a charge double",
                    format!("its melee score ×{multiplier}, flank, rear or guns"),
                )
            };
            decision.target = Some((
                *target,
                format!("an enemy within a move that {what} ({why}, {distance:.1}\" away)"),
            ));
            plan.push(format!(
                "an enemy within a move {what}, so it presses home: charges {} ({why}; plan: {}, rule press-home)",
                enemy.name,
                self.plan.describe()
            ));
            self.send_checked(state, *roller, checked, report, Some(decision.record()));
            return true;
        }
        false
    }

    /// Carry out the movement part of `outcome` for `id`, read just now with
    /// the enemies it measured ([`Opponent::read_measuring`]); the shot, if
    /// any, is made in the Shooting phase ([`Opponent::shooting`]). The
    /// [`CANDIDATES`](candidates::CANDIDATES) are tried in order; the
    /// decision names the one that acted.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn carry_out(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: UnitId,
        memory: &mut Memory,
        (reading, measured): (Reading, Measured),
        outcome: Outcome,
        report: &mut TurnReport,
    ) -> (Decision, bool) {
        let instruction = outcome.instruction.clone();
        let order = outcome.order;
        let kind = memory.kind;
        for change in &instruction.becomes {
            match change.as_str() {
                "disordered" => memory.disordered = true,
                "reformed" => memory.disordered = false,
                "guns-abandoned" => memory.abandoned = true,
                _ => {}
            }
        }
        let (context, ranked) = Context::new(self, state, id, kind, measured, &outcome);
        let decision = Decision::new(
            id,
            state.unit(id).name.clone(),
            state.turn,
            reading,
            outcome,
        );
        let mut progress = Progress {
            decision,
            ranked,
            plan: Vec::new(),
            goal: None,
            wants_fire: instruction.fire != Fire::None,
            waiting: false,
        };
        let mut engine = Engine {
            state,
            roller,
            report,
        };
        progress.decision.by = self.try_candidates(&mut engine, &context, &mut progress);
        let Progress {
            mut decision,
            mut plan,
            goal,
            wants_fire,
            waiting,
            ..
        } = progress;
        if let Some(goal) = goal {
            self.go(&mut engine, &mut decision, &mut plan, goal, waiting, order);
        }
        // Formation changes are the opponent's own bookkeeping (ruling O6:
        // the seed-000 engine has none). A formation named with a move is
        // taken with the move: a unit that does not move (holding, already
        // able to fire, no lawful way) has not formed the march column, and
        // must not lose a later bound deploying out of it.
        let moved = decision
            .events
            .iter()
            .any(|e| matches!(e, Event::Moved { .. } | Event::Charged { .. }));
        // A unit that pressed home charged instead of carrying out the
        // variant (PL11): cavalry told to stand and fire and dismount that
        // charged has not dismounted.
        // A deployment into a formation the unit's kind lacks ("deploy into
        // line" said to cavalry in march column) is into its own deployed
        // formation: cavalry mounted, guns unlimbered (ruling O6).
        use crate::tables::Formation as F;
        let taken = match (instruction.formation, kind) {
            (Some(formation), Some(kind)) if formation.fits(kind) => Some(formation),
            (Some(F::Line | F::CloseOrder | F::Skirmish), Some(kind)) => Some(F::default_for(kind)),
            _ => None,
        };
        if let Some(formation) = taken
            && !decision.pressed_home
            && (instruction.moves.fraction() == 0.0 || moved)
        {
            memory.formation = formation;
        }
        // One sentence: the parts' own full stops would read as "fire.;".
        let last = plan.len().saturating_sub(1);
        decision.plan = plan
            .iter()
            .enumerate()
            .map(|(index, part)| {
                if index < last {
                    part.trim_end_matches('.')
                } else {
                    part.as_str()
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
        (decision, wants_fire)
    }

    /// Make the move to `goal` the candidates chose, and say how it went:
    /// the route taken, or why it stayed (no way, hemmed in, held up, or
    /// the cavalry reserve's wait when `waiting`).
    fn go(
        &mut self,
        engine: &mut Engine<'_>,
        decision: &mut Decision,
        plan: &mut Vec<String>,
        (goal, inches, facing, goal_name): GoalMove,
        waiting: bool,
        order: Order,
    ) {
        let Engine {
            state,
            roller,
            report,
        } = engine;
        let MovePlan {
            action,
            note,
            refusal,
            hemmed,
        } = self.plan_move(state, decision.unit, goal, inches, facing);
        // Nothing tried means nothing to do: it stands where its goal
        // would have it (as near as it may come to its target).
        let tried = refusal.is_some();
        // A refusal on the way to a move that was found is only a
        // shorter try; it is recorded when nothing lawful was found.
        if action.is_none()
            && let Some(refusal) = refusal
        {
            decision.refused.push(refusal);
        }
        match action {
            Some(checked) => {
                self.send_checked(state, *roller, checked, report, Some(decision.record()));
                let cost = decision
                    .events
                    .iter()
                    .rev()
                    .find_map(|e| match e {
                        Event::Moved { cost, .. } => Some(*cost),
                        _ => None,
                    })
                    .unwrap_or(0.0);
                if let Some(mut note) = note {
                    note.goal = goal_name;
                    note.length = round(cost);
                    decision.route = Some(note);
                }
                if order.is_withdrawal() {
                    decision.withdrew = true;
                }
            }
            // The reserve's place behind the line is where it would
            // rather be, not an order: with no way there it waits.
            None if waiting => plan.push("no lawful way there, so it waits where it is".into()),
            None if !tried => plan.push("already as near as it may come, so it stays".into()),
            None if hemmed == Some(Hemmed::ByEnemy) => {
                decision.hemmed = hemmed;
                plan.push(
                    "hemmed in: within 6\" of the enemy it may only move directly towards or away from one, and neither brings it nearer (seed 000 Enemy Presence), so it stays".into(),
                );
            }
            None if hemmed == Some(Hemmed::ByUnits) => {
                decision.hemmed = hemmed;
                plan.push(
                    "held up: other units stand across every way there (units may not pass through one another, seed 000), so it waits".into(),
                );
            }
            None => {
                decision.stuck = true;
                plan.push("cannot move: no lawful way (stays where it is)".into());
            }
        }
    }

    /// Where the cavalry reserve waits (ruling PL9): `behind` inches behind
    /// the centre of the front line, within charging reach of it. `None`
    /// when it is there already, or has no front line to follow.
    fn reserve_post(
        &self,
        state: &GameState,
        id: UnitId,
        inches: f64,
        plan: &mut Vec<String>,
    ) -> Option<(Goal, f64, Facing, String)> {
        let (front, forward) = self.front_centre_without(state, id)?;
        let behind = self.tables.opponent.rules.cavalry_reserve.behind;
        let post = front + forward * -behind;
        let here = state.unit(id).base.centre;
        // Only forward: a reserve behind its post stays behind it; and only
        // to ground it may stand on (cavalry keeps out of woods).
        let field = &state.battlefield;
        let standable = field
            .grid
            .cell_at(post)
            .is_some_and(|cell| field.passable(state.unit(id).troop, cell));
        if forward.dot(post - here) < 1.0 || !standable {
            return None;
        }
        plan.push(format!(
            "it keeps {behind}\" behind the centre of the front line"
        ));
        Some((
            Goal::Point(post),
            inches,
            Facing::At(post + forward * 10.0),
            format!("{behind}\" behind the front line"),
        ))
    }

    /// Shoot with `id` at the best target the engine accepts.
    pub(super) fn shoot(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        decision: &mut Decision,
        report: &mut TurnReport,
    ) {
        let id = decision.unit;
        if !state.unit(id).is_active() {
            return;
        }
        let Some(reach) = reach(state, id) else {
            return;
        };
        // Only enemies within reach can be shot (`shot_open`'s range test,
        // the same bound), so the rest are not ranked.
        let mut ranked = side_ranked_within(
            state,
            &self.memo,
            id,
            GameState::enemy_of(self.side),
            reach + 1e-6,
        );
        // The nearest enemy in reach, to say why there is no shot at it.
        let nearest = ranked.first().copied();
        if state.unit(id).moved || state.unit(id).pivoted {
            ranked.clear();
        }
        // Ruling PL8: an army with a plan concentrates its fire on the enemy
        // nearest to breaking (the most hits), the nearest among equals.
        let focus = self.rule("focus-fire");
        if focus {
            ranked.sort_by_key(|(enemy, _)| std::cmp::Reverse(state.unit(*enemy).hits));
        }
        // Ruling PL12: the objective's units in reach first (a stable sort:
        // among them, and among the rest, the order above stands).
        let on_objective = self.rule("fire-on-objective") && !self.plan.objective_units.is_empty();
        if on_objective {
            ranked.sort_by_key(|(enemy, _)| !self.plan.objective_units.contains(enemy));
        }
        // Ruling O8: the order's volley, through the engine's volleys: a
        // fire-and-withdraw volley at −1, double volleys where the reaction
        // test's band says so (close order, target within 6").
        let volley = match decision.outcome.instruction.fire {
            Fire::MinusOne => Volley::Hasty,
            Fire::Double => Volley::Double,
            Fire::None | Fire::Volley => Volley::Single,
        };
        for (target, distance) in ranked {
            // `shot_open` is part of the engine's fire check, with sight
            // remembered: most refused targets are out of sight, and the
            // table already knows.
            if !shot_open(state, &self.memo, id, target) {
                continue;
            }
            let fire = |volley| Action::Fire {
                unit: id,
                target,
                volley,
            };
            let checked = match staged(&self.probe, Stage::Rules, || {
                state.checked(&fire(volley), true)
            }) {
                Ok(checked) => checked,
                // Double volleys the troop type may not fire (or not at
                // this range) are a single volley; a refused hasty volley
                // is no shot, never a better one.
                Err(refusal @ Refusal::VolleyNotAllowed { .. }) if volley == Volley::Double => {
                    decision.refused.push((fire(volley), refusal));
                    match staged(&self.probe, Stage::Rules, || {
                        state.checked(&fire(Volley::Single), true)
                    }) {
                        Ok(checked) => checked,
                        Err(_) => continue,
                    }
                }
                Err(_) => continue,
            };
            let keep = decision.target.as_ref().is_some_and(|(t, _)| *t == target);
            if on_objective && !keep && self.plan.objective_units.contains(&target) {
                decision.target = Some((
                    target,
                    format!(
                        "the objective's unit in reach{} ({} hits, {:.1}\" away; plan: {}, rule fire-on-objective)",
                        if focus { " nearest to breaking" } else { "" },
                        state.unit(target).hits,
                        distance,
                        self.plan.describe()
                    ),
                ));
            } else if focus && !keep {
                decision.target = Some((
                    target,
                    format!(
                        "the enemy in reach nearest to breaking ({} hits, {:.1}\" away; plan: {}, rule focus-fire)",
                        state.unit(target).hits,
                        distance,
                        self.plan.describe()
                    ),
                ));
            } else if !keep {
                decision.target = Some((
                    target,
                    format!(
                        "nearest enemy it can shoot ({:.1}\" away, in its arc and in sight; ties go to the most hits, then the name)",
                        distance
                    ),
                ));
            }
            self.send_checked(state, roller, checked, report, Some(decision.record()));
            return;
        }
        // No shot: why not at the nearest enemy in reach, kept in the
        // decision, so that a unit told to fire that does not is explained.
        if let Some((target, distance)) = nearest {
            let action = Action::Fire {
                unit: id,
                target,
                volley,
            };
            if let Err(refusal) = state.check(&action) {
                decision.plan = format!(
                    "{}; does not fire at {} ({distance:.1}\" away): {}",
                    decision.plan.trim_end_matches('.'),
                    state.unit(target).name,
                    held_fire(&refusal)
                );
                decision.refused.push((action, refusal));
            }
        }
    }

    /// The move towards `goal` this bound: the straight line first, then
    /// the route found by pathing; within 6" of the enemy, directly towards
    /// or away (seed 000 Enemy Presence). Returns the action, its route
    /// note and the first refusal met on the way.
    pub(crate) fn plan_move(
        &mut self,
        state: &GameState,
        id: UnitId,
        goal: Goal,
        inches: f64,
        facing: Facing,
    ) -> MovePlan {
        let unit = state.unit(id);
        let near = side_ranked_within(
            state,
            &self.memo,
            id,
            GameState::enemy_of(self.side),
            state.rules.enemy_presence + 1e-6,
        );
        let mut mover = Mover {
            probe: &self.probe,
            state,
            id,
            start: unit.base.centre,
            end: EndFacing {
                facing,
                now: unit.base.facing,
                start: unit.base.centre,
            },
            near,
            first_refusal: None,
        };
        match goal {
            Goal::Rear | Goal::Cover => self.move_back(&mut mover, goal, inches),
            Goal::Enemy(_) | Goal::Within(..) | Goal::Point(_) => {
                self.move_on(&mut mover, goal, inches)
            }
        }
    }

    /// [`Opponent::plan_move`] to the rear or to cover: directly away from
    /// a near enemy, else down the distance field to the goal, else
    /// straight back (ruling O8), else any line towards its own edge.
    fn move_back(&self, mover: &mut Mover<'_>, goal: Goal, inches: f64) -> MovePlan {
        let (state, id, start) = (mover.state, mover.id, mover.start);
        let enemies = super::active_ids(state, GameState::enemy_of(self.side));
        let edge = state.sides[self.side].edge;
        let back = Vector::from_bearing(edge.bearing());
        if !mover.near.is_empty() {
            // Falling back within 6" of the enemy: directly away
            // from one of them (seed 000 Enemy Presence), the
            // nearest first; a friend behind it may leave the line
            // away from another open.
            for index in 0..mover.near.len() {
                let enemy = mover.near[index].0;
                let direction = start - state.unit(enemy).base.centre;
                // Away from an enemy on its flank or behind it is not to
                // its rear (seed 004: "move to the rear"; ruling O12).
                if direction.dot(back) <= 1e-9 {
                    continue;
                }
                if let Some(action) = mover.straight(direction, inches) {
                    return mover.found(action, 1, true);
                }
            }
            return MovePlan::hemmed(mover.first_refusal.take());
        }
        let limit = inches * 0.97;
        let route = staged(&self.probe, Stage::Pathing, || {
            let field = match goal {
                Goal::Cover => self.cover_field(state, id),
                _ => self.edge_field(state, id),
            };
            let blocked = self.blocked(state, id, None);
            state
                .battlefield
                .route_down_within(&field, start, &blocked, limit)
        });
        if let Some(route) = route {
            let clipped = route.clip(limit);
            if let Some(leg) = clipped.legs().first() {
                let nearest_enemy = |p: Point| {
                    enemies
                        .iter()
                        .map(|e| state.unit(*e).base.centre.distance(p))
                        .fold(f64::INFINITY, f64::min)
                };
                let towards_enemy = matches!(goal, Goal::Cover)
                    && nearest_enemy(leg.end()) < nearest_enemy(start) - 0.5;
                // A route that bends round ground may set off sideways or
                // forwards; this bound's move must go to the rear (O12).
                let rearward = (leg.end() - start).dot(back) > 1e-9;
                if !towards_enemy && rearward {
                    let end = &mover.end;
                    let action =
                        self.leg_action(state, id, leg, &|to| end.at(to), &mut mover.first_refusal);
                    if let Some(action) = action {
                        return mover.found(action, clipped.legs().len(), false);
                    }
                }
            }
        }
        // Ruling O8: cover that lies towards the enemy is no refuge;
        // such a unit falls back to the rear instead.
        let action = mover.straight(back, inches).or_else(|| {
            // Whatever lies straight behind it: any line that takes
            // it towards its own edge.
            let rearward = |to: Point| -(to - start).dot(back);
            mover.fan(inches, &rearward)
        });
        match action {
            Some(action) => mover.found(action, 1, true),
            None => MovePlan::none(mover.first_refusal.take()),
        }
    }

    /// [`Opponent::plan_move`] towards an enemy or a point: the straight
    /// line as far as the engine allows, a line directly towards or away
    /// from a near enemy ([`Opponent::move_directly`]), else the route
    /// ([`Opponent::move_by_route`]).
    fn move_on(&self, mover: &mut Mover<'_>, goal: Goal, inches: f64) -> MovePlan {
        let (state, start) = (mover.state, mover.start);
        let keep_clear = state.rules.keep_clear;
        let (goal_point, cap, target) = match goal {
            Goal::Enemy(target) | Goal::Within(target, _) => {
                let enemy = state.unit(target);
                let gap = state.unit(mover.id).base.distance_to(&enemy.base);
                let stop = match goal {
                    Goal::Within(_, stop) => stop.max(keep_clear + 0.3),
                    _ => keep_clear + 0.3,
                };
                (enemy.base.centre, (gap - stop).max(0.0), Some(target))
            }
            Goal::Point(point) => (point, f64::INFINITY, None),
            _ => (start, 0.0, None),
        };
        let line = goal_point - start;
        let length = inches.min(line.length()).min(cap);
        if length < 0.1 {
            // As near as it may come: nothing to do.
            return MovePlan::none(mover.first_refusal.take());
        }
        // How far a point leaves the unit from where it is going
        // (for a target, from where it stops short of it).
        let stand_off = line.length() - cap.min(line.length());
        let remaining = |to: Point| (to.distance(goal_point) - stand_off).max(0.0);
        // The straight line, as far along it as the engine allows. A
        // whole move is taken at once; a shortened one only if the
        // route below does no better.
        let shortened = match mover.straight(line, length) {
            Some(action) => {
                let to = action_end(start, &action);
                if to.distance(start) >= length - 0.05 || !mover.near.is_empty() {
                    return mover.found(action, 1, true);
                }
                Some(action)
            }
            None => None,
        };
        if !mover.near.is_empty() {
            return Self::move_directly(mover, goal, target, inches, &remaining);
        }
        let aim = (goal_point, cap, target);
        self.move_by_route(mover, aim, (inches, length), shortened, &remaining)
    }

    /// Within 6" of an enemy only a move directly towards or away from one
    /// of them is lawful (seed 000 Enemy Presence): try each such line that
    /// brings the unit nearer its goal (by `remaining`, how far a point
    /// leaves it from the goal), the `target`'s first, then the nearest; a
    /// route around anything would not be direct.
    fn move_directly(
        mover: &mut Mover<'_>,
        goal: Goal,
        target: Option<UnitId>,
        inches: f64,
        remaining: &dyn Fn(Point) -> f64,
    ) -> MovePlan {
        let (state, start) = (mover.state, mover.start);
        let keep_clear = state.rules.keep_clear;
        let near = mover.near.clone();
        let ordered = near
            .iter()
            .copied()
            .filter(|(e, _)| Some(*e) == target)
            .chain(near.iter().copied().filter(|(e, _)| Some(*e) != target));
        for (enemy, gap) in ordered {
            let towards = state.unit(enemy).base.centre - start;
            let stop = match goal {
                Goal::Within(aimed, stop) if aimed == enemy => stop.max(keep_clear + 0.3),
                _ => keep_clear + 0.3,
            };
            let lines = [
                (towards, inches.min((gap - stop).max(0.0))),
                (towards * -1.0, inches),
            ];
            for (direction, reach) in lines {
                let norm = direction.length();
                if norm < 1e-9 || reach < 0.1 {
                    continue;
                }
                let end = start + direction * (reach / norm);
                if remaining(end) >= remaining(start) - 0.25 {
                    continue;
                }
                if let Some(action) = mover.straight(direction, reach) {
                    let to = action_end(start, &action);
                    if remaining(to) < remaining(start) - 0.25 {
                        return mover.found(action, 1, true);
                    }
                }
            }
        }
        MovePlan::hemmed(mover.first_refusal.take())
    }

    /// The straight line being blocked, follow the pathing route towards
    /// `goal_point` (stopping `cap` inches along, short of the `target`),
    /// unless the `shortened` straight move does as well; else the best of
    /// the fan of lines ([`Mover::fan`]) for `length` inches of the move's
    /// `inches`.
    fn move_by_route(
        &self,
        mover: &mut Mover<'_>,
        (goal_point, cap, target): (Point, f64, Option<UnitId>),
        (inches, length): (f64, f64),
        shortened: Option<Checked>,
        remaining: &dyn Fn(Point) -> f64,
    ) -> MovePlan {
        let (state, id, start) = (mover.state, mover.id, mover.start);
        let unit = state.unit(id);
        let limit = (inches * 0.97).min(cap.max(0.0));
        let route = staged(&self.probe, Stage::Pathing, || {
            let mut blocked = self.blocked(state, id, target);
            // The search heads for the target's centre, but the move
            // stops short of contact (`cap`): a unit standing by the
            // target must not close the goal itself.
            if target.is_some()
                && let Some(cell) = state.battlefield.grid.cell_at(goal_point)
            {
                blocked.remove(cell);
            }
            // A goal the unit cannot stand on (horse and woods, a
            // friend's ground): head for the nearest cell it can.
            let field = &state.battlefield;
            let aim = open_point_near(field, unit.troop, goal_point, &blocked)?;
            field.route_within(unit.troop, start, aim, &blocked, limit)
        });
        if let Some(route) = route {
            let clipped = route.clip(limit);
            let end = &mover.end;
            if let Some(leg) = clipped.legs().first()
                && let Some(action) =
                    self.leg_action(state, id, leg, &|to| end.at(to), &mut mover.first_refusal)
            {
                let to = action_end(start, &action);
                if let Some(short) = shortened
                    && remaining(action_end(start, &short)) <= remaining(to)
                {
                    return mover.found(short, 1, true);
                }
                return mover.found(action, clipped.legs().len(), false);
            }
        }
        if let Some(short) = shortened {
            return mover.found(short, 1, true);
        }
        match mover.fan(length, remaining) {
            Some(action) => mover.found(action, 1, true),
            // Units stand across every way there (a column at a
            // ford, an enemy line across a gap): over bare ground
            // there would be one.
            None if self.way_over_bare_ground(state, id, goal_point) => {
                MovePlan::held_up(mover.first_refusal.take())
            }
            None => MovePlan::none(mover.first_refusal.take()),
        }
    }

    /// The action for a route's first leg: a road move along it, or a
    /// straight move to its end, shortened until the engine accepts it.
    fn leg_action(
        &self,
        state: &GameState,
        id: UnitId,
        leg: &crate::battlefield::Leg,
        end_facing: &dyn Fn(Point) -> f64,
        first_refusal: &mut Option<(Action, Refusal)>,
    ) -> Option<Checked> {
        let start = state.unit(id).base.centre;
        if leg.along_road && leg.points.len() > 2 {
            let path: Vec<Point> = leg.points[1..].iter().map(|p| round_point(*p)).collect();
            let to = *path.last()?;
            let action = Action::MoveRoad {
                unit: id,
                path,
                facing: end_facing(to),
            };
            if let Some(checked) = lawful(&self.probe, state, &action, first_refusal) {
                return Some(checked);
            }
        }
        let end = leg.points.get(1).copied().unwrap_or(start);
        let end = if leg.points.len() == 2 {
            leg.end()
        } else {
            end
        };
        for fraction in [1.0, 0.75, 0.5, 0.25] {
            let to = round_point(start.lerp(end, fraction));
            if to.distance(start) < 0.1 {
                break;
            }
            let action = Action::Move {
                unit: id,
                to,
                facing: end_facing(to),
            };
            if let Some(checked) = lawful(&self.probe, state, &action, first_refusal) {
                return Some(checked);
            }
        }
        None
    }

    /// Whether `id` would have a way towards `goal` over the bare ground,
    /// with no unit of either side on the table: when it has none with
    /// them, the units in the way, not the ground or the plan, stop it.
    fn way_over_bare_ground(&self, state: &GameState, id: UnitId, goal: Point) -> bool {
        let unit = state.unit(id);
        let field = &state.battlefield;
        open_point_near(field, unit.troop, goal, &CellSet::none())
            .is_some_and(|aim| field.joined_over_bare_ground(unit.troop, unit.base.centre, aim))
    }

    /// The cells the unit's centre must keep out of to pass every other
    /// unit on the table without its base touching them (seed 000: no
    /// interpenetration), leaving out `except` (a target to reach): routes
    /// are planned for the whole footprint, so the engine does not refuse
    /// them for a gap narrower than the base.
    fn blocked(&self, state: &GameState, id: UnitId, except: Option<UnitId>) -> CellSet {
        let others = state
            .units
            .iter()
            .enumerate()
            .filter(|(index, u)| *index != id.0 && Some(UnitId(*index)) != except && u.is_active())
            .map(|(index, _)| UnitId(index));
        self.memo.blocked_for(state, &state.unit(id).base, others)
    }
}
