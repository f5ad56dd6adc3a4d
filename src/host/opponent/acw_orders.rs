//! The Lone Warrior opponent under seed 002 (OHW ACW with activation
//! dice): how a unit's situation is read off the game and the opponent's
//! memory (rulings HO3, AC15), and how its instruction becomes the one
//! action it takes when its die comes up (HO4, HO13): its rout; a
//! formation change (deploy, form column, limber or unlimber, mount or
//! dismount), made as part of its move; the move the instruction gives
//! (towards the enemy, the front, the nearest cover or its rear, as far as
//! its share of a move); or its shot or charge.

use super::candidates::{self, Candidate, Tried, candidate};
use super::carry::{self, SHARES};
use super::dice;
use super::{FAN_DEGREES, ORDER, Opponent, Role, SHOT_FAN_DEGREES, Testee};
use crate::acw;
use crate::battlefield::geometry::{Vector, normalise_degrees};
use crate::battlefield::{Base, Point};
use crate::dice::Roller;
use crate::host::opponent::awi::figures_lost;
use crate::reaction::{Outcome, Situation};
use crate::ruleset::Category;
use crate::scenario::Area;
use crate::tables::{self, Fire, Order, Towards};
use std::cell::OnceCell;
use std::fmt::Write as _;

/// Seed 002's plans: the side a hold-the-area condition names attacks the
/// area, the other side defends it; without one, both are free.
pub fn acw_role(state: &acw::GameState, side: usize) -> Role {
    for victory in &state.victory {
        if let crate::scenario::Condition::HoldArea { side: holder, area } = &victory.when {
            let named = Some(area.clone());
            return if *holder == side {
                Role::Attack(named)
            } else {
                Role::Defend(named)
            };
        }
    }
    Role::Free
}

/// A move as the opponent judges it: the action and where the unit ends.
type Moving = (acw::Action, Point);

/// What one unit's activation does, and why in words.
type Choice = (acw::Action, String);

/// Which of the ways of carrying out an order that does not fall back a
/// unit's instruction takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Branch {
    /// Up to a friend ahead (ruling O5).
    Friend,
    /// A charge at the enemy.
    Charge,
    /// A charge or an advance that moves (towards the front out of sight).
    Moves,
    /// Everything else: stand, fire, or form.
    Other,
}

/// What every candidate of a seed-002 unit's activation reads, worked out
/// once before any is tried.
struct ActContext<'a> {
    state: &'a acw::GameState,
    unit: acw::UnitId,
    /// The nearest enemy.
    enemy: acw::UnitId,
    /// Its reaction test this turn.
    outcome: &'a Outcome,
    /// The way its instruction goes (none: it stays).
    heading: Option<Towards>,
    /// The formation its instruction asks, if it is not in it: the change
    /// it makes now.
    formation: Option<acw::Formation>,
    /// The formation the instruction asks, when seed 002 has no change
    /// straight to it and `formation` is the first step.
    leads_to: Option<acw::Formation>,
    /// Its side's plan.
    role: Role,
    /// The nearest enemy it may charge.
    charge_target: Option<acw::UnitId>,
    /// Its weapon's range; its move in the formation it ends in, and the
    /// share of it the instruction gives.
    range: f64,
    allowance: f64,
    inches: f64,
    /// Where rule advance-on-objective sends an advance, and why.
    objective: Option<(Point, String)>,
    /// Whether rule hold-the-line keeps its side's units where they are.
    defending: bool,
    branch: Branch,
    /// Whether rule close-to-range brings it on (HO5).
    closing: bool,
    /// Why the formation its instruction asks could not be made.
    unformed: OnceCell<String>,
}

/// The candidates of a seed-002 unit's activation, in the order they are
/// tried, when its order does not fall back.
fn act_candidates<'a>() -> [Candidate<ActContext<'a>, Choice>; 14] {
    [
        candidate("press-home", Opponent::acw_press_home),
        candidate(ORDER, Opponent::acw_form_first),
        candidate(ORDER, Opponent::acw_support_friend),
        candidate("hold-the-line", Opponent::acw_hold_behind_friend),
        candidate(ORDER, Opponent::acw_charge_on_order),
        candidate("hold-the-line", Opponent::acw_fire_not_charge),
        candidate(ORDER, Opponent::acw_fire_on_order),
        candidate("advance-on-objective", Opponent::acw_advance_on_objective),
        candidate(ORDER, Opponent::acw_advance_on_order),
        candidate(ORDER, Opponent::acw_fire_for_charge),
        candidate("close-to-range", Opponent::acw_close_to_range),
        candidate(ORDER, Opponent::acw_withdrawing_holds),
        candidate("find-a-shot", Opponent::acw_find_a_shot_last),
        candidate(ORDER, Opponent::acw_form_instead),
    ]
}

fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

impl Opponent {
    pub(crate) fn acw_next(
        &mut self,
        state: &acw::GameState,
        side: usize,
        roller: &mut dyn Roller,
    ) -> Option<acw::Action> {
        match state.phase() {
            acw::Phase::Assigning { side } => {
                if self.tested.insert((state.turn(), side)) {
                    self.acw_test(state, side, roller);
                }
                let orders: Vec<(acw::UnitId, Order)> = state
                    .unassigned(side)
                    .map(|id| (id, self.order_of(id.0)))
                    .collect();
                let assignment = if self.random_dice.contains(&side) {
                    dice::random_assignment(state, side, roller)
                        .into_iter()
                        .next()?
                } else {
                    dice::next_assignment(state, side, &orders)?
                };
                if let Some(&i) = self.current.get(&assignment.unit.0) {
                    self.decisions[i].die = Some((assignment.die, assignment.reason.clone()));
                }
                Some(assignment.action())
            }
            acw::Phase::ChargeResponse { charger, target } => {
                let fire = acw::Action::Respond {
                    unit: target,
                    fire: true,
                };
                let order = self.order_of(target.0);
                let fires = state.check(&fire).is_ok();
                let action = if fires {
                    fire
                } else {
                    acw::Action::Respond {
                        unit: target,
                        fire: false,
                    }
                };
                let words = if fires {
                    "fired first at its charger"
                } else {
                    "could not fire at its charger"
                };
                self.did(
                    target.0,
                    ORDER,
                    format!(
                        "{words} `{}` (its order: {})",
                        state.unit(charger).name,
                        order.title()
                    ),
                );
                Some(action)
            }
            acw::Phase::Activating => {
                let unit = *state
                    .up_next()
                    .iter()
                    .find(|id| state.unit(**id).side == side)?;
                let (by, (action, what)) = self.acw_activate(state, unit);
                match action {
                    acw::Action::Move { to, .. } => {
                        self.moved(unit.0, state.position(unit), to, state.turn())
                    }
                    acw::Action::Rout { .. } => self.note_rout(unit.0, state.turn()),
                    _ => {}
                }
                self.did(unit.0, by, what);
                Some(action)
            }
            acw::Phase::Over => None,
        }
    }

    /// Each of `side`'s units still waiting for a die takes its reaction
    /// test, in unit order, when the side first gives out its dice that
    /// turn ([`Opponent::test_units`]); one the chart cannot test stands
    /// (ruling AC15).
    fn acw_test(&mut self, state: &acw::GameState, side: usize, roller: &mut dyn Roller) {
        let units: Vec<Testee> = state
            .unassigned(side)
            .map(|id| {
                let unit = state.unit(id);
                let hits_before = self.losses_at_test.get(&id.0).copied().unwrap_or(unit.hits);
                let situation = self.acw_situation(state, id, hits_before);
                Testee {
                    unit: id.0,
                    name: unit.name.clone(),
                    column_in_sight: unit.formation == acw::Formation::Column
                        && situation.as_ref().is_some_and(|s| s.enemy_in_sight),
                    situation,
                }
            })
            .collect();
        for testee in &units {
            self.losses_at_test
                .insert(testee.unit, state.unit(acw::UnitId(testee.unit)).hits);
        }
        let friend_ahead =
            |opponent: &Opponent, unit| opponent.acw_friend_ahead(state, acw::UnitId(unit));
        self.test_units(state.turn(), units, &friend_ahead, roller);
    }

    /// The situation unit `unit`'s next reaction test would read (`what
    /// UNIT`), `None` for a unit out of play or without a class.
    pub(crate) fn acw_situation_now(
        &self,
        state: &acw::GameState,
        unit: usize,
    ) -> Option<Situation> {
        let id = acw::UnitId(unit);
        if unit >= state.units.len() || state.removed(id) {
            return None;
        }
        let hits = state.unit(id).hits;
        let before = self.losses_at_test.get(&unit).copied().unwrap_or(hits);
        self.acw_situation(state, id, before)
    }

    /// The Lone Warrior situation of a seed-002 unit (rulings HO3, AC15):
    /// what the table shows ([`dice::situation`]) and what the opponent
    /// remembers since its last test, when it had taken `hits_before`
    /// hits: casualties (hits turned into figures as seed 000's are,
    /// ruling O3, the unit's removal its rout threshold), under half its
    /// figures, a melee lost, a withdrawal, an enemy in sight falling back.
    /// Seed 002 has no generals on the table: "general within 3"" never
    /// counts.
    pub(super) fn acw_situation(
        &self,
        state: &acw::GameState,
        id: acw::UnitId,
        hits_before: u32,
    ) -> Option<Situation> {
        let mut situation = dice::situation(state, id, &self.tables)?;
        let unit = state.unit(id);
        let figures = state.table.removed_at.max(1);
        let share = self.tables.opponent.figures_lost_at_rout_threshold;
        let lost_now = figures_lost(unit.hits, figures, figures, share);
        let lost_before = figures_lost(hits_before, figures, figures, share);
        let turn = state.turn();
        situation.casualties = lost_now.saturating_sub(lost_before);
        situation.under_half = (figures - lost_now.min(figures)) * 2 < figures;
        situation.lost_melee = self
            .lost_melee
            .get(&id.0)
            .is_some_and(|&when| when.saturating_add(1) >= turn);
        situation.withdrew_last_bound = self.withdrew_last_bound(id.0, turn);
        situation.sees_enemy_retreat = (0..state.units.len()).map(acw::UnitId).any(|e| {
            let enemy = state.unit(e);
            enemy.side != unit.side
                && !state.removed(e)
                && self.fell_back_lately(e.0, turn)
                && state.battlefield.can_see(&unit.base, &enemy.base)
        });
        situation.character = self.unit_character(id.0, &situation.class);
        // Seed 002's charges are settled as they go in: no melee outlasts
        // the activation, so a friend is never in one at a test (HO27).
        situation.friend_firing_ahead = self.acw_friend_ahead(state, id).is_some();
        Some(situation)
    }

    /// Ruling O5 under seed 002: the friend ahead, deployed to fire (in a
    /// formation its weapon fires from), that `unit` is approaching the
    /// rear of ([`carry::friend_ahead`]).
    fn acw_friend_ahead(&self, state: &acw::GameState, unit: acw::UnitId) -> Option<usize> {
        let placed: Vec<carry::Placed> = (0..state.units.len())
            .map(acw::UnitId)
            .filter(|&i| !state.removed(i))
            .map(|i| {
                let u = state.unit(i);
                carry::Placed {
                    index: i.0,
                    side: u.side,
                    base: u.base,
                    deployed: state.table.weapon(u.troop, u.formation).is_some(),
                }
            })
            .collect();
        let within = self.tables.reaction.distances.support_within;
        carry::friend_ahead(&placed, unit.0, within, self.tables.orders.musket_range)
    }

    /// Ruling O5: a move of at most `inches` (changing to `formation` if
    /// asked) towards the place `support_behind` inches to the rear of the
    /// friend `unit` was approaching at its test, the lawful move that ends
    /// nearest it; a unit already there holds, and says so.
    fn acw_support(
        &self,
        state: &acw::GameState,
        unit: acw::UnitId,
        inches: f64,
        formation: Option<acw::Formation>,
    ) -> Option<Choice> {
        let friend = self
            .current
            .get(&unit.0)
            .and_then(|&i| self.decisions[i].friend)
            .map(acw::UnitId)
            .filter(|&f| !state.removed(f))?;
        let here = state.position(unit);
        let name = &state.unit(friend).name;
        let behind = self.tables.orders.support_behind;
        let spot = carry::support_spot(here, state.position(friend), behind);
        let behind = crate::battlefield::geometry::inches(behind);
        let now = here.distance(spot);
        if now <= carry::IN_SUPPORT {
            return Some((
                acw::Action::Hold { unit },
                format!("held its ground in support of `{name}`, {behind} to its rear"),
            ));
        }
        Self::acw_moves(state, unit, spot, &FAN_DEGREES, inches, formation)
            .into_iter()
            .filter(|(_, to)| to.distance(spot) < now - 0.25)
            .min_by(|a, b| a.1.distance(spot).total_cmp(&b.1.distance(spot)))
            .map(|(action, to)| {
                (
                    action,
                    format!(
                        "moved up {:.1}\" in support of `{name}`, halting {behind} to its rear",
                        here.distance(to)
                    ),
                )
            })
    }

    /// The formation seed 002 has for an instruction's formation, for
    /// this unit, when it is not in it already and may change to it:
    /// foot line (close order and skirmish lines are its line) or column;
    /// cavalry mounted (in line) or dismounted; guns limbered (column) or
    /// unlimbered (line). Where seed 002 has no change straight to it (a
    /// mounted column dismounts only from line), the change that leads
    /// there comes first (ruling HO13), and the second of the pair is the
    /// formation the instruction asks.
    fn acw_formation(
        state: &acw::GameState,
        unit: acw::UnitId,
        wanted: Option<tables::Formation>,
    ) -> Option<(acw::Formation, acw::Formation)> {
        use tables::Formation as F;
        let u = state.unit(unit);
        let formation = match (u.category, wanted?) {
            (Category::Artillery, F::Limbered) => acw::Formation::Column,
            (Category::Artillery, F::Unlimbered) => acw::Formation::Line,
            (Category::Artillery, _) => return None,
            (Category::Cavalry, F::Mounted) => acw::Formation::Line,
            (Category::Cavalry, F::Dismounted) => acw::Formation::Dismounted,
            (_, F::Column) => acw::Formation::Column,
            (_, F::Line | F::CloseOrder | F::Skirmish) => acw::Formation::Line,
            (_, F::Mounted | F::Dismounted | F::Limbered | F::Unlimbered) => return None,
        };
        if formation == u.formation {
            return None;
        }
        let changes = |from, to| state.table.change_cost(u.troop, from, to).is_some();
        if changes(u.formation, formation) {
            return Some((formation, formation));
        }
        acw::Formation::ALL
            .into_iter()
            .find(|&step| {
                step != u.formation
                    && step != formation
                    && changes(u.formation, step)
                    && changes(step, formation)
            })
            .map(|step| (step, formation))
    }

    /// What a seed-002 unit does when its die comes up (rulings HO4,
    /// HO13): its rout; else the instruction of its order, as the plan
    /// rules aim it; with the candidate that carried it out.
    pub(super) fn acw_activate(
        &mut self,
        state: &acw::GameState,
        unit: acw::UnitId,
    ) -> (&'static str, Choice) {
        let hold = |what: &str| (ORDER, (acw::Action::Hold { unit }, what.to_string()));
        let Some(enemy) = state.nearest_enemy(unit) else {
            return hold("held: no enemy left");
        };
        // A unit without a test (no class, ruling AC15) stands and fires.
        let Some(outcome) = self.outcome_of(unit.0).cloned() else {
            return self
                .acw_fire(state, unit)
                .map_or_else(|| hold("held its ground"), |fire| (ORDER, fire));
        };
        if outcome.order == Order::Rout {
            let rout = acw::Action::Rout { unit };
            if state.check(&rout).is_ok() {
                return (
                    ORDER,
                    (
                        rout,
                        format!(
                            "{}: it routed and left the field, lost to its army (ruling O12)",
                            outcome.instruction.does.trim_end_matches('.')
                        ),
                    ),
                );
            }
        }
        // A charge in march column forms line on its way in, since seed
        // 002's columns cannot charge; a unit holding its ground does not
        // form march column to go anywhere (ruling HO13).
        let u = state.unit(unit);
        let role = acw_role(state, u.side);
        let holding = self.rules.hold_the_line
            && role.defends()
            && matches!(outcome.order, Order::AdvanceAndFire | Order::Charge);
        let wanted = match outcome.instruction.formation {
            Some(tables::Formation::Column) if holding => None,
            None if outcome.order == Order::Charge
                && carry::heading(&outcome) == Some(Towards::Enemy)
                && u.formation == acw::Formation::Column =>
            {
                Some(tables::Formation::Line)
            }
            wanted => wanted,
        };
        let steps = Self::acw_formation(state, unit, wanted);
        let formation = steps.map(|(step, _)| step);
        let chosen = match carry::heading(&outcome) {
            Some(way @ (Towards::Rear | Towards::Cover)) => self
                .acw_fall_back(state, unit, &outcome, way, formation)
                .map(|choice| (ORDER, choice)),
            heading => self.acw_stand_or_advance(state, unit, enemy, &outcome, heading, steps),
        };
        chosen.unwrap_or_else(|| {
            if holding {
                (
                    "hold-the-line",
                    (
                        acw::Action::Hold { unit },
                        format!(
                            "held its ground rather than advance: {} (rule hold-the-line)",
                            role.words()
                        ),
                    ),
                )
            } else {
                hold("held its ground")
            }
        })
    }

    /// The nearest enemy `unit` may fire at, as an action, if any.
    fn acw_fire(&self, state: &acw::GameState, unit: acw::UnitId) -> Option<Choice> {
        let target =
            Self::acw_nearest_lawful(state, unit, |target| acw::Action::Fire { unit, target })?;
        Some((
            acw::Action::Fire { unit, target },
            format!("fired at `{}`", state.unit(target).name),
        ))
    }

    /// The nearest enemy for which `action` of `unit` is lawful.
    fn acw_nearest_lawful(
        state: &acw::GameState,
        unit: acw::UnitId,
        action: impl Fn(acw::UnitId) -> acw::Action,
    ) -> Option<acw::UnitId> {
        let u = state.unit(unit);
        (0..state.units.len())
            .map(acw::UnitId)
            .filter(|e| state.unit(*e).side != u.side && !state.removed(*e))
            .filter(|&target| state.check(&action(target)).is_ok())
            .min_by(|a, b| {
                let da = u.base.distance_to(&state.unit(*a).base);
                let db = u.base.distance_to(&state.unit(*b).base);
                da.total_cmp(&db).then(a.cmp(b))
            })
    }

    /// A withdrawal (withdraw, fire and withdraw, rout that could not
    /// leave): to the nearest cover within its share of a move when the
    /// instruction says so (one already in cover stays, and fires its
    /// volley if the instruction fires), else straight to its rear, facing
    /// the enemy still; a change of formation (limbering, remounting) is
    /// part of the move.
    fn acw_fall_back(
        &self,
        state: &acw::GameState,
        unit: acw::UnitId,
        outcome: &Outcome,
        way: Towards,
        formation: Option<acw::Formation>,
    ) -> Option<Choice> {
        let u = state.unit(unit);
        let here = state.position(unit);
        let instruction = &outcome.instruction;
        if way == Towards::Cover && carry::in_cover(&state.battlefield, here) {
            // Ruling O8: already in cover, it is where it would withdraw to.
            // Seed 002 has no volley at -1, so a hasty volley is none.
            return match instruction.fire {
                Fire::None | Fire::MinusOne => None,
                _ => self.acw_fire(state, unit),
            }
            .map(|(action, what)| {
                (
                    action,
                    format!("{what}: already in cover, it stays (ruling O8)"),
                )
            });
        }
        let after = formation.unwrap_or(u.formation);
        let allowance = state.table.move_of(u.troop, after).unwrap_or(0.0);
        let inches = carry::inches(outcome, allowance);
        let rear = self.rear(u.side);
        let try_points = |points: Vec<Point>| {
            points.into_iter().find_map(|to| {
                let to = Point::new(round(to.x), round(to.y));
                let action = acw::Action::Move {
                    unit,
                    formation,
                    to,
                    facing: round(u.base.facing),
                };
                state.check(&action).is_ok().then_some((action, to))
            })
        };
        let cover = (way == Towards::Cover)
            .then(|| try_points(carry::cover_points(&state.battlefield, here, rear, inches)))
            .flatten();
        let (moving, whither) = match cover {
            Some(moving) => (moving, "to the nearest cover"),
            None => (
                try_points(carry::rear_points(here, rear, inches))?,
                "to its rear",
            ),
        };
        let formed = match formation {
            Some(acw::Formation::Column) if u.category == Category::Artillery => "limbered and ",
            Some(acw::Formation::Line) if u.category == Category::Cavalry => "remounted and ",
            Some(_) => "changed formation and ",
            None => "",
        };
        Some((
            moving.0,
            format!(
                "{formed}fell back {:.1}\" {whither}, facing the enemy",
                here.distance(moving.1)
            ),
        ))
    }

    /// The change to `formation` the instruction asks (`does`), facing
    /// `enemy`: where the unit stands, else where it finds room within its
    /// move (seed 002 makes the change part of a move, so it moves along
    /// its new front, back, then forward; ruling HO13, as seed 001's units
    /// do). `Err` says why it could not.
    fn acw_form(
        state: &acw::GameState,
        unit: acw::UnitId,
        enemy: acw::UnitId,
        formation: acw::Formation,
        does: &str,
    ) -> Result<Choice, String> {
        let u = state.unit(unit);
        let here = state.position(unit);
        let facing = round(normalise_degrees((state.position(enemy) - here).bearing()));
        let move_to = |to: Point| acw::Action::Move {
            unit,
            formation: Some(formation),
            to,
            facing,
        };
        let why = format!(
            "formed {} facing `{}`: {}",
            formation.name(),
            state.unit(enemy).name,
            does.trim_end_matches('.')
        );
        let refusal = match state.check(&move_to(here)) {
            Ok(()) => return Ok((move_to(here), why)),
            Err(refusal) => refusal,
        };
        let move_in = |f| state.table.move_of(u.troop, f).unwrap_or(0.0);
        let allowance = move_in(u.formation).max(move_in(formation));
        carry::room_points(here, facing, allowance, &carry::ROOM_FAN_FORWARD)
            .into_iter()
            .map(|to| Point::new(round(to.x), round(to.y)))
            .find(|to| state.check(&move_to(*to)).is_ok())
            .map(|to| {
                let gone = here.distance(to);
                (
                    move_to(to),
                    format!("moved {gone:.1}\" to find room and {why}"),
                )
            })
            .ok_or_else(|| {
                format!(
                    "told to form {}, it has no room here or within its move: {refusal}",
                    formation.name()
                )
            })
    }

    /// Every order that does not fall back: a formation change where the
    /// instruction asks one and does not move (deploy, unlimber,
    /// dismount); else charge, fire or advance as the order and the plan
    /// rules say (HO4, HO5, HO8–HO12), an advance as far as the
    /// instruction's share of a move, in its formation (a march to the
    /// front out of sight goes in column): the first of [`act_candidates`]
    /// that applies, named. `None`: the unit holds.
    fn acw_stand_or_advance(
        &mut self,
        state: &acw::GameState,
        unit: acw::UnitId,
        enemy: acw::UnitId,
        outcome: &Outcome,
        heading: Option<Towards>,
        steps: Option<(acw::Formation, acw::Formation)>,
    ) -> Option<(&'static str, Choice)> {
        let u = state.unit(unit);
        let formation = steps.map(|(step, _)| step);
        let order = outcome.order;
        let role = acw_role(state, u.side);
        let range = state
            .table
            .weapon(u.troop, u.formation)
            .map_or(0.0, |w| w.range());
        let after = formation.unwrap_or(u.formation);
        let allowance = state.table.move_of(u.troop, after).unwrap_or(0.0);
        let inches = carry::inches(outcome, allowance);
        let defending = self.rules.hold_the_line && role.defends();
        let branch = match order {
            _ if heading == Some(Towards::Friend) => Branch::Friend,
            Order::Charge if heading == Some(Towards::Enemy) => Branch::Charge,
            Order::Charge | Order::AdvanceAndFire if heading.is_some() && inches > 0.0 => {
                Branch::Moves
            }
            _ => Branch::Other,
        };
        let closing = self.rules.close_to_range
            && order == Order::StandAndFire
            && role.attacks()
            && u.base.distance_to(&state.unit(enemy).base) > range;
        let context = ActContext {
            state,
            unit,
            enemy,
            outcome,
            heading,
            formation,
            leads_to: steps
                .map(|(_, target)| target)
                .filter(|&t| Some(t) != formation),
            charge_target: Self::acw_nearest_lawful(state, unit, |target| acw::Action::Charge {
                unit,
                target,
            }),
            objective: self.acw_objective(state, unit, &role),
            role,
            range,
            allowance,
            inches,
            defending,
            branch,
            closing,
            unformed: OnceCell::new(),
        };
        let chosen = candidates::first(self, &context, &act_candidates())
            .and_then(|(by, choice)| choice.map(|choice| (by, choice)));
        let unformed = context.unformed.into_inner();
        if unformed.is_some() {
            self.no_room(unit.0);
        }
        match (chosen, unformed) {
            (Some((by, (action, what))), Some(why)) => {
                Some((by, (action, format!("{what} ({why})"))))
            }
            (None, Some(why)) => Some((
                ORDER,
                (
                    acw::Action::Hold { unit },
                    format!("held its ground: {why}"),
                ),
            )),
            (chosen, None) => chosen,
        }
    }

    /// A charge at the nearest enemy the unit may charge, `why` ending
    /// what it did.
    fn acw_charge_nearest(c: &ActContext<'_>, why: &str) -> Option<Choice> {
        c.charge_target.map(|target| {
            (
                acw::Action::Charge {
                    unit: c.unit,
                    target,
                },
                format!("charged `{}`{why}", c.state.unit(target).name),
            )
        })
    }

    /// Ruling HO10 (`press-home`): an attacker told to advance and fire,
    /// or to stand and fire, that the seed lets charge, charges rather
    /// than deploy or trade volleys.
    fn acw_press_home(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        let order = c.outcome.order;
        if !(self.rules.press_home
            && c.role.attacks()
            && matches!(order, Order::AdvanceAndFire | Order::StandAndFire)
            && c.branch != Branch::Friend)
        {
            return Tried::Passes;
        }
        let told = order.title().to_lowercase();
        let plan = c.role.words();
        Tried::acts_if(Self::acw_charge_nearest(
            c,
            &format!(": told to {told}, it presses home, {plan} (rule press-home)"),
        ))
    }

    /// The change of formation the instruction asks where it stands (or
    /// where it finds room); why it could not is kept, for what the unit
    /// does instead.
    fn acw_form_first(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        let (None, Some(formation)) = (c.heading, c.formation) else {
            return Tried::Passes;
        };
        let mut does = c.outcome.instruction.does.trim_end_matches('.').to_string();
        if let Some(target) = c.leads_to {
            let _ = write!(
                does,
                " (first {}: seed 002 changes to {} only from {0})",
                formation.name(),
                target.name()
            );
        }
        Self::acw_form_noting(c, formation, &does)
    }

    /// The change to `formation` ([`Opponent::acw_form`]), carrying out
    /// `does`; why it could not is kept, for what the unit does instead.
    fn acw_form_noting(c: &ActContext<'_>, formation: acw::Formation, does: &str) -> Tried<Choice> {
        match Self::acw_form(c.state, c.unit, c.enemy, formation, does) {
            Ok(formed) => Tried::Acts(formed),
            Err(why) => {
                let _ = c.unformed.set(why);
                Tried::Passes
            }
        }
    }

    /// Ruling O5: up behind the friend ahead.
    fn acw_support_friend(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch != Branch::Friend || c.defending {
            return Tried::Passes;
        }
        Tried::applies(self.acw_support(c.state, c.unit, c.inches, c.formation))
    }

    /// Ruling PL5 under hold-the-line: a defender does not move up behind
    /// a friend; it keeps its ground.
    fn acw_hold_behind_friend(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch == Branch::Friend && c.defending {
            Tried::Stands
        } else {
            Tried::Passes
        }
    }

    /// A charge the order gives.
    fn acw_charge_on_order(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch != Branch::Charge {
            return Tried::Passes;
        }
        Tried::acts_if(Self::acw_charge_nearest(c, ""))
    }

    /// Ruling HO9 (`hold-the-line`): a defender with no charge in reach
    /// keeps its ground and fires.
    fn acw_fire_not_charge(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch != Branch::Charge || !c.defending {
            return Tried::Passes;
        }
        let plan = c.role.words();
        Tried::acts_if(self.acw_fire(c.state, c.unit).map(|(a, w)| {
            (
                a,
                format!(
                    "{w} (no charge in reach; {plan}, so it keeps its ground: rule hold-the-line)"
                ),
            )
        }))
    }

    /// The volley an order that fires gives.
    fn acw_fire_on_order(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        let fires = c.outcome.instruction.fire != Fire::None;
        if !matches!(c.branch, Branch::Moves | Branch::Other) || !fires {
            return Tried::Passes;
        }
        Tried::acts_if(self.acw_fire(c.state, c.unit))
    }

    /// Whether the unit advances on its order: a charge or an advance, not
    /// held by hold-the-line.
    fn acw_advances(c: &ActContext<'_>) -> bool {
        matches!(c.branch, Branch::Charge | Branch::Moves) && !c.defending
    }

    /// Ruling HO8 (`advance-on-objective`): the advance goes at the enemy
    /// in the way, the enemy on the area, or the area.
    fn acw_advance_on_objective(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if !Self::acw_advances(c) || c.objective.is_none() {
            return Tried::Passes;
        }
        Tried::acts_if(self.acw_advance_for(c, c.inches))
    }

    /// The advance the order gives, on the nearest enemy.
    fn acw_advance_on_order(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if !Self::acw_advances(c) || c.objective.is_some() {
            return Tried::Passes;
        }
        Tried::acts_if(self.acw_advance_for(c, c.inches))
    }

    /// A charge that found no enemy to charge, nor a way forward, fires.
    fn acw_fire_for_charge(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch != Branch::Charge || c.defending {
            return Tried::Passes;
        }
        Tried::acts_if(self.acw_fire(c.state, c.unit))
    }

    /// Ruling HO5 (`close-to-range`): an attacker told to stand and fire
    /// with no enemy within its weapon's reach closes, a full move.
    fn acw_close_to_range(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch != Branch::Other || !c.closing {
            return Tried::Passes;
        }
        let range = c.range;
        Tried::acts_if(self.acw_advance_for(c, c.allowance).map(|(a, what)| {
            (
                a,
                format!(
                    "{what} (no enemy within its {range}\" reach: it closes, rule close-to-range)"
                ),
            )
        }))
    }

    /// Fire and withdraw with no shot: it neither closes nor looks for one.
    fn acw_withdrawing_holds(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch == Branch::Other && !c.closing && c.outcome.order == Order::FireAndWithdraw {
            Tried::Stands
        } else {
            Tried::Passes
        }
    }

    /// Ruling HO12 (`find-a-shot`), for a unit with no other shot or move.
    fn acw_find_a_shot_last(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        if c.branch == Branch::Friend || Self::acw_advances(c) && c.branch == Branch::Charge {
            return Tried::Passes;
        }
        Tried::acts_if(self.acw_find_a_shot(
            c.state,
            c.unit,
            c.range,
            &c.role,
            c.objective.as_ref(),
        ))
    }

    /// A unit whose instruction moves it in a formation (an advance in
    /// line, a charge, which forms line first) and that neither moved nor
    /// fired, held by a plan rule or with nowhere to go, still takes the
    /// formation where it stands, or where it finds room (ruling HO13):
    /// a column in sight of the enemy deploys.
    fn acw_form_instead(&mut self, c: &ActContext<'_>) -> Tried<Choice> {
        let (Some(_), Some(formation)) = (c.heading, c.formation) else {
            return Tried::Passes;
        };
        let does = c.outcome.instruction.does.trim_end_matches('.');
        let does = format!("{does}; it cannot go, so it takes the formation where it is");
        Self::acw_form_noting(c, formation, &does)
    }

    /// An advance of at most `inches` on the objective or the nearest
    /// enemy (HO8), "towards the sound of the action" out of sight.
    fn acw_advance_for(&self, c: &ActContext<'_>, inches: f64) -> Option<Choice> {
        self.acw_advance(
            c.state,
            c.unit,
            c.enemy,
            c.objective.as_ref(),
            &c.role,
            inches,
            c.formation,
        )
        .map(|(a, words)| {
            if c.heading == Some(Towards::Front) {
                (a, format!("{words}, towards the sound of the action"))
            } else {
                (a, words)
            }
        })
    }

    /// Where an advance goes (ruling HO8, `advance-on-objective`): an
    /// enemy in the way first (in its frontal arc and within seed 000's
    /// `in_the_way`, PL2), else an enemy standing in the objective area,
    /// else the area; `None` without an area to take.
    fn acw_objective(
        &self,
        state: &acw::GameState,
        unit: acw::UnitId,
        role: &Role,
    ) -> Option<(Point, String)> {
        let (Role::Attack(Some(area)), true) = (role, self.rules.advance_on_objective) else {
            return None;
        };
        let u = state.unit(unit);
        let plan = role.words();
        let here = state.position(unit);
        let way = self.tables.opponent.rules.advance_on_objective.in_the_way;
        let enemies = || {
            (0..state.units.len())
                .map(acw::UnitId)
                .filter(move |e| state.unit(*e).side != u.side && !state.removed(*e))
        };
        let in_the_way = enemies()
            .filter(|e| {
                let other = state.unit(*e);
                u.base.within(&other.base, way) && u.base.in_frontal_arc(&other.base)
            })
            .min_by(|a, b| {
                let da = u.base.distance_to(&state.unit(*a).base);
                let db = u.base.distance_to(&state.unit(*b).base);
                da.total_cmp(&db).then(a.cmp(b))
            });
        if let Some(e) = in_the_way {
            return Some((
                state.position(e),
                format!("`{}`, in its way: {plan}", state.unit(e).name),
            ));
        }
        let holders = enemies()
            .filter(|e| area.holds(&state.unit(*e).base))
            .min_by(|a, b| {
                here.distance(state.position(*a))
                    .total_cmp(&here.distance(state.position(*b)))
                    .then(a.cmp(b))
            });
        Some(match holders {
            Some(e) => (
                state.position(e),
                format!(
                    "`{}`, which stands on {}: {plan}",
                    state.unit(e).name,
                    area.name
                ),
            ),
            None => (
                area.min.lerp(area.max, 0.5),
                format!("{}: {plan}", area.name),
            ),
        })
    }

    /// An advance of at most `inches` towards the objective (HO8) or the
    /// nearest enemy, changing to `formation` on the way if the
    /// instruction asks; a unit already holding the area it must take,
    /// with no enemy there or in its way, stays.
    #[allow(clippy::too_many_arguments)]
    fn acw_advance(
        &self,
        state: &acw::GameState,
        unit: acw::UnitId,
        enemy: acw::UnitId,
        objective: Option<&(Point, String)>,
        role: &Role,
        inches: f64,
        formation: Option<acw::Formation>,
    ) -> Option<Choice> {
        let u = state.unit(unit);
        let here = state.position(unit);
        let (goal, words, rule) = match objective {
            Some((goal, words)) => (*goal, words.clone(), " (rule advance-on-objective)"),
            None => (
                state.position(enemy),
                format!("`{}`", state.unit(enemy).name),
                "",
            ),
        };
        if let Role::Attack(Some(area)) = role
            && self.rules.advance_on_objective
            && area.holds(&u.base)
            && objective.is_some_and(|(_, w)| w.starts_with(area.name.as_str()))
        {
            return None;
        }
        let now = here.distance(goal);
        Self::acw_moves(state, unit, goal, &FAN_DEGREES, inches, formation)
            .into_iter()
            .filter(|(_, to)| to.distance(goal) < now - 0.25)
            .min_by(|a, b| a.1.distance(goal).total_cmp(&b.1.distance(goal)))
            .map(|(a, to)| {
                let formed = match formation {
                    Some(f) => format!("formed {} and ", f.name()),
                    None => String::new(),
                };
                (
                    a,
                    format!(
                        "{formed}advanced {:.1}\" on {words}{rule}",
                        here.distance(to)
                    ),
                )
            })
    }

    /// Ruling HO12 (`find-a-shot`): no shot for want of sight or arc at an
    /// enemy within reach; a unit holding its ground only turns, or shifts
    /// within the area it holds.
    fn acw_find_a_shot(
        &self,
        state: &acw::GameState,
        unit: acw::UnitId,
        range: f64,
        role: &Role,
        objective: Option<&(Point, String)>,
    ) -> Option<Choice> {
        if !self.rules.find_a_shot
            || range <= 0.0
            || Self::acw_nearest_lawful(state, unit, |target| acw::Action::Fire { unit, target })
                .is_some()
        {
            return None;
        }
        let holding = (self.rules.hold_the_line && role.defends()).then_some(match role {
            Role::Defend(area) => area.as_ref(),
            _ => None,
        });
        let here = state.position(unit);
        Self::acw_firing_place(state, unit, range, objective.map(|o| o.0), holding).map(
            |(a, to, target)| {
                (
                    a,
                    format!(
                        "moved {:.1}\" to where it can fire at `{}`, which it could not see or had off its front (rule find-a-shot)",
                        here.distance(to),
                        state.unit(target).name
                    ),
                )
            },
        )
    }

    /// Moves for `unit` of at most `inches` (changing to `formation` on
    /// the way, if given), on `fan` bearings off the straight line to
    /// `goal` at four lengths, each facing the way it goes or the nearest
    /// enemy from where it ends, and the turn in place to face the nearest
    /// enemy; all checked by the rules.
    fn acw_moves(
        state: &acw::GameState,
        unit: acw::UnitId,
        goal: Point,
        fan: &[f64],
        inches: f64,
        formation: Option<acw::Formation>,
    ) -> Vec<Moving> {
        let here = state.position(unit);
        let mut moves = Vec::new();
        let mut push = |to: Point, facing: f64| {
            let action = acw::Action::Move {
                unit,
                formation,
                to,
                facing: round(normalise_degrees(facing)),
            };
            if !moves.iter().any(|(a, _)| *a == action) && state.check(&action).is_ok() {
                moves.push((action, to));
            }
        };
        if let Some(enemy) = state.nearest_enemy(unit) {
            push(here, (state.position(enemy) - here).bearing());
        }
        if inches <= 0.0 || here.distance(goal) < 1e-6 {
            return moves;
        }
        let bearing = (goal - here).bearing();
        for offset in fan {
            for share in SHARES {
                let step = (inches * share).min(here.distance(goal));
                let to = here + Vector::from_bearing(bearing + offset) * step;
                let to = Point::new(round(to.x), round(to.y));
                push(to, bearing + offset);
                if let Some(enemy) = Self::acw_nearest_enemy_from(state, unit, to) {
                    push(to, (state.position(enemy) - to).bearing());
                }
            }
        }
        moves
    }

    fn acw_nearest_enemy_from(
        state: &acw::GameState,
        unit: acw::UnitId,
        at: Point,
    ) -> Option<acw::UnitId> {
        let side = state.unit(unit).side;
        (0..state.units.len())
            .map(acw::UnitId)
            .filter(|e| state.unit(*e).side != side && !state.removed(*e))
            .min_by(|a, b| {
                at.distance(state.position(*a))
                    .total_cmp(&at.distance(state.position(*b)))
                    .then(a.cmp(b))
            })
    }

    /// Ruling HO12: the lawful move after which `unit` could fire at an
    /// enemy (in range, in its frontal arc, in sight), with the target.
    /// Nearest `goal` first when there is one (an attacker), else the
    /// shortest move.
    fn acw_firing_place(
        state: &acw::GameState,
        unit: acw::UnitId,
        range: f64,
        goal: Option<Point>,
        holding: Option<Option<&Area>>,
    ) -> Option<(acw::Action, Point, acw::UnitId)> {
        let u = state.unit(unit);
        let here = state.position(unit);
        let enemy = state.nearest_enemy(unit)?;
        // Only for want of sight or arc: an enemy is within reach already.
        if u.base.distance_to(&state.unit(enemy).base) > range {
            return None;
        }
        let aim = goal.unwrap_or_else(|| state.position(enemy));
        let enemies: Vec<acw::UnitId> = (0..state.units.len())
            .map(acw::UnitId)
            .filter(|e| state.unit(*e).side != u.side && !state.removed(*e))
            .collect();
        let allowance = state.table.move_of(u.troop, u.formation).unwrap_or(0.0);
        let mut best: Option<(f64, acw::Action, Point, acw::UnitId)> = None;
        for (action, to) in Self::acw_moves(state, unit, aim, &SHOT_FAN_DEGREES, allowance, None) {
            let acw::Action::Move { facing, .. } = action else {
                continue;
            };
            let there = Base::new(to, facing, u.base.frontage, u.base.depth);
            // A unit holding its ground (HO9) only turns where it stands,
            // or shifts within the area it holds.
            let stays = match holding {
                None => true,
                Some(Some(area)) => area.holds(&there) || to.distance(here) < 1e-6,
                Some(None) => to.distance(here) < 1e-6,
            };
            if !stays {
                continue;
            }
            let target = enemies.iter().copied().find(|e| {
                let other = &state.unit(*e).base;
                there.in_frontal_arc(other)
                    && there.distance_to(other) <= range
                    && state.battlefield.can_see(&there, other)
            });
            let Some(target) = target else {
                continue;
            };
            let key = match goal {
                Some(goal) => to.distance(goal),
                None => here.distance(to),
            };
            if best.as_ref().is_none_or(|(k, ..)| key < *k) {
                best = Some((key, action, to, target));
            }
        }
        best.map(|(_, action, to, target)| (action, to, target))
    }
}
