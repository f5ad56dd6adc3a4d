//! Carrying out a unit's order through legal engine actions (rulings
//! O6–O13): targets by explicit rules, moves by straight line first and
//! petgraph routes where the straight line fails, every fallback recorded.

use super::memo::UnitMemo;
use super::probe::{Probing, Stage, staged};
use super::{Decision, Memory, Opponent, Reading, RouteNote, TurnReport};
use crate::battlefield::geometry::turn_between;
use crate::battlefield::{CellSet, Field, Point, Vector};
use crate::dice::Roller;
use crate::reaction::Outcome;
use crate::rules::{Action, Checked, Event, GameState, Refusal, UnitId};
use crate::scenario::Posture;
use crate::tables::{Column, Fire, Order, Towards};
use std::sync::Arc;

/// Where a move heads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Goal {
    /// Towards an enemy unit, stopping short of contact.
    Enemy(UnitId),
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
/// order of the targeting rule ([`rank_by_target_rule`]).
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
    let crowded = state.units.iter().enumerate().any(|(index, u)| {
        index != id.0
            && u.is_active()
            && u.side == unit.side
            && memo.within(state, UnitId(index), target, clearance + 1e-6)
    });
    !crowded && state.battlefield.can_see(&unit.base, &enemy.base)
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

/// The weapon's reach in inches, if the unit shoots.
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

    /// Carry out the movement part of `outcome` for `id`, read just now with
    /// the enemies it measured ([`Opponent::read_measuring`]); the shot, if
    /// any, is made in the Shooting phase ([`Opponent::shooting`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn carry_out(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: UnitId,
        memory: &mut Memory,
        (reading, measured): (Reading, Vec<(UnitId, f64)>),
        outcome: Outcome,
        report: &mut TurnReport,
    ) -> (Decision, bool) {
        // Where the unit stood when its order came (it may move below).
        let (base, category) = (state.unit(id).base, state.unit(id).category);
        let instruction = outcome.instruction.clone();
        let order = outcome.order;
        let kind = memory.kind;
        let mut decision = Decision {
            unit: id,
            name: state.unit(id).name.clone(),
            turn: state.turn,
            reading,
            outcome,
            plan: String::new(),
            target: None,
            route: None,
            actions: Vec::new(),
            refused: Vec::new(),
            events: Vec::new(),
            withdrew: false,
        };
        // Formation and state changes are the opponent's own bookkeeping
        // (ruling O6: the seed-000 engine has no formations).
        if let (Some(formation), Some(kind)) = (instruction.formation, kind)
            && formation.fits(kind)
        {
            memory.formation = formation;
        }
        for change in &instruction.becomes {
            match change.as_str() {
                "disordered" => memory.disordered = true,
                "reformed" => memory.disordered = false,
                "guns-abandoned" => memory.abandoned = true,
                _ => {}
            }
        }
        let allowance = state.battlefield.ruleset.move_inches[category.index()];
        // Ruling O9: shares of a move above the engine's allowance (double
        // time) are capped at a full move.
        let inches = decision.outcome.move_inches.min(allowance);
        let hold = self.posture == Posture::Hold;
        // The enemies as the reading measured them: nothing has moved since.
        let enemies: Vec<UnitId> = measured.iter().map(|(e, _)| *e).collect();
        let ranked = rank_by_target_rule(state, measured.into_iter());
        // The advance target: nearest in the frontal arc, else nearest. Only
        // the first in the arc matters, so the arc test stops there.
        let first_in_arc = ranked
            .iter()
            .copied()
            .find(|(e, _)| self.memo.in_frontal_arc(state, id, *e));
        let any_in_arc = first_in_arc.is_some();
        let advance_target = first_in_arc.or(ranked.first().copied());
        let target_reason = |(_, distance): (UnitId, f64), arc: bool| {
            format!(
                "nearest enemy{} ({:.1}\" away; ties go to the most hits, then the name)",
                if arc { " in its frontal arc" } else { "" },
                distance
            )
        };
        let mut wants_fire = instruction.fire != Fire::None;
        let mut goal: Option<(Goal, f64, Facing, String)> = None;
        let mut plan = Vec::new();
        match (instruction.moves.fraction() > 0.0, instruction.towards) {
            (false, _) | (true, None) => {
                plan.push(instruction.does.to_string());
            }
            (true, Some(Towards::Enemy)) if order == Order::Charge => {
                let mut charged = false;
                let reach_limit = if hold {
                    self.tables.reaction.distances.enemy_within
                } else {
                    f64::INFINITY
                };
                let mut first_refusal = None;
                for (target, distance) in &ranked {
                    if *distance > reach_limit + 1e-6 {
                        continue;
                    }
                    let action = Action::Charge {
                        unit: id,
                        target: *target,
                    };
                    if let Some(checked) = lawful(&self.probe, state, &action, &mut first_refusal) {
                        decision.target = Some((
                            *target,
                            format!(
                                "nearest enemy it may lawfully charge ({:.1}\" away)",
                                distance
                            ),
                        ));
                        plan.push(format!(
                            "charges {} at full speed without firing",
                            state.unit(*target).name
                        ));
                        self.send_checked(state, roller, checked, report, Some(decision.record()));
                        charged = true;
                        break;
                    }
                }
                wants_fire = false;
                if !charged {
                    if let Some(refused) = first_refusal {
                        decision.refused.push(refused);
                    }
                    if hold {
                        // Ruling O13: a holding side charges only an enemy
                        // at its line; otherwise it stands and fires.
                        plan.push(format!(
                            "holds its position (posture hold): no enemy within {}\" to charge, so it stands and fires",
                            self.tables.reaction.distances.enemy_within
                        ));
                        wants_fire = true;
                    } else if let Some(target) = advance_target {
                        // Ruling O10: no lawful charge (artillery, British
                        // light infantry at formed foot, nothing in reach):
                        // it advances at full speed towards the target.
                        plan.push(format!(
                            "no lawful charge, so it advances at full speed towards {} without firing (ruling O10)",
                            state.unit(target.0).name
                        ));
                        decision.target = Some((target.0, target_reason(target, any_in_arc)));
                        let at = state.unit(target.0).base.centre;
                        goal = Some((
                            Goal::Enemy(target.0),
                            allowance,
                            Facing::At(at),
                            "the enemy".into(),
                        ));
                    }
                }
            }
            (true, Some(Towards::Enemy | Towards::Front)) => {
                let target = advance_target;
                let can_fire_now =
                    wants_fire && enemies.iter().any(|e| shot_open(state, &self.memo, id, *e));
                if hold {
                    plan.push(
                        "holds its position (posture hold): does not advance; stands and fires if it can"
                            .into(),
                    );
                    wants_fire =
                        instruction.fire != Fire::None || decision.reading.situation.enemy_in_sight;
                } else if can_fire_now {
                    // Ruling O7: seed 000 forbids moving and shooting in one
                    // turn; a unit that can already shoot stands and fires.
                    plan.push(format!(
                        "{}; already in range, so it stands and fires (seed 000: no shooting after moving, ruling O7)",
                        instruction.does
                    ));
                } else if let Some(target) = target {
                    wants_fire = false;
                    plan.push(instruction.does.to_string());
                    decision.target = Some((target.0, target_reason(target, any_in_arc)));
                    let at = state.unit(target.0).base.centre;
                    let name = if instruction.towards == Some(Towards::Front) {
                        "the front (the nearest enemy)".to_string()
                    } else {
                        "the enemy".to_string()
                    };
                    goal = Some((Goal::Enemy(target.0), inches, Facing::At(at), name));
                }
            }
            (true, Some(Towards::Friend)) => {
                wants_fire = false;
                let friend = decision.reading.friend_ahead;
                let mut joined = false;
                if let Some(enemy) = decision.reading.friend_enemy {
                    let action = Action::Charge {
                        unit: id,
                        target: enemy,
                    };
                    decision.target = Some((enemy, "the enemy its friend is fighting".into()));
                    joined =
                        !hold && self.send(state, roller, action, report, Some(decision.record()));
                    if joined {
                        plan.push("joins the friendly unit's melee".into());
                    }
                }
                if !joined
                    && !hold
                    && let Some(friend) = friend
                {
                    let friend_base = state.unit(friend).base;
                    let away = base.centre - friend_base.centre;
                    let length = away.length().max(1e-6);
                    let spot = friend_base.centre + away * (6.0 / length);
                    if base.centre.distance(spot) > 0.5 {
                        plan.push(format!(
                            "supports {}, halting 6\" to its rear",
                            state.unit(friend).name
                        ));
                        let facing = Facing::At(friend_base.centre);
                        goal = Some((
                            Goal::Point(spot),
                            inches,
                            facing,
                            format!("6\" behind {}", state.unit(friend).name),
                        ));
                    } else {
                        plan.push(format!("already supports {}", state.unit(friend).name));
                    }
                } else if !joined {
                    plan.push("holds its position (posture hold)".into());
                }
            }
            (true, Some(Towards::Cover)) => {
                if matches!(decision.reading.ground, Column::Natural | Column::Hard) {
                    // Ruling O8: already in cover, it is where it would
                    // withdraw to; it stays and fires its single volley.
                    plan.push(format!(
                        "{}; already in cover, so it stays where it is{} (ruling O8)",
                        instruction.does,
                        if wants_fire { " and fires" } else { "" }
                    ));
                } else {
                    plan.push(format!(
                        "{}; it moves, so it does not fire (seed 000, ruling O8)",
                        instruction.does
                    ));
                    wants_fire = false;
                    goal = Some((
                        Goal::Cover,
                        inches,
                        Facing::Keep,
                        "the nearest cover".into(),
                    ));
                }
            }
            (true, Some(Towards::Rear)) => {
                wants_fire = false;
                plan.push(instruction.does.to_string());
                let facing = if order == Order::Rout {
                    Facing::Travel
                } else {
                    Facing::Keep
                };
                goal = Some((Goal::Rear, inches, facing, "its own table edge".into()));
            }
        }
        // Stand-and-fire with no target in its arc: pivot to face the
        // nearest enemy in reach (ruling O7; it then cannot fire).
        // (The cheap conditions first; all must hold, in any order.)
        if goal.is_none()
            && wants_fire
            && decision.actions.is_empty()
            && let Some(reach) = reach(state, id)
            && let Some((enemy, distance)) = ranked.first().copied()
            && distance <= reach
            && !self.memo.in_frontal_arc(state, id, enemy)
            && !enemies.iter().any(|e| shot_open(state, &self.memo, id, *e))
            && state.battlefield.can_see(&base, &state.unit(enemy).base)
        {
            let facing = bearing((state.unit(enemy).base.centre - base.centre).bearing());
            if turn_between(base.facing, facing) > 1.0 {
                let action = Action::Pivot { unit: id, facing };
                if self.send(state, roller, action, report, Some(decision.record())) {
                    plan.push(format!(
                        "turns to face {}, so cannot fire this turn",
                        state.unit(enemy).name
                    ));
                    wants_fire = false;
                }
            }
        }
        if let Some((goal, inches, facing, goal_name)) = goal {
            let (action, note, refusal) = self.plan_move(state, id, goal, inches, facing);
            // A refusal on the way to a move that was found is only a
            // shorter try; it is recorded when nothing lawful was found.
            if action.is_none()
                && let Some(refusal) = refusal
            {
                decision.refused.push(refusal);
            }
            match action {
                Some(checked) => {
                    self.send_checked(state, roller, checked, report, Some(decision.record()));
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
                None => plan.push("cannot move: no lawful way (stays where it is)".into()),
            }
        }
        decision.plan = plan.join("; ");
        (decision, wants_fire)
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
        let enemies = super::active_ids(state, GameState::enemy_of(self.side));
        // Only enemies within reach can be shot (`shot_open`'s range test,
        // the same bound), so the rest are not ranked.
        let ranked = ranked_within(state, &self.memo, id, &enemies, reach + 1e-6);
        // The nearest enemy in reach, to say why there is no shot at it.
        let nearest = ranked.first().copied();
        let ranked = if state.unit(id).moved || state.unit(id).pivoted {
            Vec::new()
        } else {
            ranked
        };
        for (target, distance) in ranked {
            let action = Action::Fire { unit: id, target };
            // `shot_open` is part of the engine's fire check, with sight
            // remembered: most refused targets are out of sight, and the
            // table already knows.
            if !shot_open(state, &self.memo, id, target) {
                continue;
            }
            let Ok(checked) = staged(&self.probe, Stage::Rules, || state.checked(&action, true))
            else {
                continue;
            };
            let keep = decision.target.as_ref().is_some_and(|(t, _)| *t == target);
            if !keep {
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
            let action = Action::Fire { unit: id, target };
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
    ) -> (
        Option<Checked>,
        Option<RouteNote>,
        Option<(Action, Refusal)>,
    ) {
        let unit = state.unit(id);
        let start = unit.base.centre;
        let keep_clear = state.rules.keep_clear;
        let enemies = super::active_ids(state, GameState::enemy_of(self.side));
        let near = ranked_within(
            state,
            &self.memo,
            id,
            &enemies,
            state.rules.enemy_presence + 1e-6,
        );
        let mut first_refusal: Option<(Action, Refusal)> = None;
        let end_facing = |to: Point| match facing {
            Facing::At(point) => {
                if point.distance(to) < 1e-6 {
                    unit.base.facing
                } else {
                    bearing((point - to).bearing())
                }
            }
            Facing::Keep => unit.base.facing,
            Facing::Travel => {
                if start.distance(to) < 1e-6 {
                    unit.base.facing
                } else {
                    bearing((to - start).bearing())
                }
            }
        };
        let straight = |direction: Vector,
                        length: f64,
                        first_refusal: &mut Option<(Action, Refusal)>|
         -> Option<Checked> {
            let norm = direction.length();
            if norm < 1e-9 || length < 0.1 {
                return None;
            }
            let direction = direction * (1.0 / norm);
            for fraction in [1.0, 0.75, 0.5, 0.25] {
                let to = round_point(start + direction * (length * fraction));
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
        };
        let note = |to: Point, legs: usize, straight: bool| RouteNote {
            from: start,
            to,
            goal: String::new(),
            length: 0.0,
            legs,
            straight,
        };
        let action_end = |checked: &Checked| match checked.action() {
            Action::Move { to, .. } => *to,
            Action::MoveRoad { path, .. } => *path.last().unwrap_or(&start),
            _ => start,
        };
        match goal {
            Goal::Rear | Goal::Cover => {
                if let Some((enemy, _)) = near.first() {
                    // Falling back within 6" of the enemy: directly away
                    // from the nearest (seed 000 Enemy Presence).
                    let direction = start - state.unit(*enemy).base.centre;
                    let action = straight(direction, inches, &mut first_refusal);
                    let routed = action.as_ref().map(|a| note(action_end(a), 1, true));
                    return (action, routed, first_refusal);
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
                        if !towards_enemy {
                            let action =
                                self.leg_action(state, id, leg, &end_facing, &mut first_refusal);
                            if let Some(action) = action {
                                let n = clipped.legs().len();
                                let to = action_end(&action);
                                return (Some(action), Some(note(to, n, false)), first_refusal);
                            }
                        }
                    }
                }
                // Ruling O8: cover that lies towards the enemy is no refuge;
                // such a unit falls back to the rear instead.
                let edge = state.sides[self.side].edge;
                let back = Vector::from_bearing(edge.bearing());
                let action = straight(back, inches, &mut first_refusal);
                let routed = action.as_ref().map(|a| note(action_end(a), 1, true));
                (action, routed, first_refusal)
            }
            Goal::Enemy(_) | Goal::Point(_) => {
                let (goal_point, cap, target) = match goal {
                    Goal::Enemy(target) => {
                        let enemy = state.unit(target);
                        let gap = unit.base.distance_to(&enemy.base);
                        (
                            enemy.base.centre,
                            (gap - keep_clear - 0.3).max(0.0),
                            Some(target),
                        )
                    }
                    Goal::Point(point) => (point, f64::INFINITY, None),
                    _ => (start, 0.0, None),
                };
                let line = goal_point - start;
                let length = inches.min(line.length()).min(cap);
                if let Some(action) = straight(line, length, &mut first_refusal) {
                    let to = action_end(&action);
                    return (Some(action), Some(note(to, 1, true)), first_refusal);
                }
                // Within 6" of an enemy: only directly towards one of them.
                if let Some(Refusal::EnemyPresence { .. }) = first_refusal.as_ref().map(|r| &r.1) {
                    let (enemy, gap) = near
                        .iter()
                        .copied()
                        .find(|(e, _)| Some(*e) == target)
                        .unwrap_or(near[0]);
                    let line = state.unit(enemy).base.centre - start;
                    let length = inches.min((gap - keep_clear - 0.3).max(0.0));
                    let action = straight(line, length, &mut first_refusal);
                    let routed = action.as_ref().map(|a| note(action_end(a), 1, true));
                    return (action, routed, first_refusal);
                }
                if length < 0.1 {
                    return (None, None, first_refusal);
                }
                // The straight line is blocked: follow the pathing route.
                let limit = (inches * 0.97).min(cap.max(0.0));
                let route = staged(&self.probe, Stage::Pathing, || {
                    let blocked = self.blocked(state, id, target);
                    state
                        .battlefield
                        .route_within(unit.troop, start, goal_point, &blocked, limit)
                });
                let Some(route) = route else {
                    return (None, None, first_refusal);
                };
                let clipped = route.clip(limit);
                let Some(leg) = clipped.legs().first() else {
                    return (None, None, first_refusal);
                };
                let action = self.leg_action(state, id, leg, &end_facing, &mut first_refusal);
                let n = clipped.legs().len();
                let routed = action.as_ref().map(|a| note(action_end(a), n, false));
                (action, routed, first_refusal)
            }
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

    /// Cells under every other unit on the table (seed 000: no
    /// interpenetration), leaving out `except` (a target to reach).
    fn blocked(&self, state: &GameState, id: UnitId, except: Option<UnitId>) -> CellSet {
        let others = state
            .units
            .iter()
            .enumerate()
            .filter(|(index, u)| *index != id.0 && Some(UnitId(*index)) != except && u.is_active())
            .map(|(index, _)| UnitId(index));
        self.memo.occupied(state, others)
    }
}
