//! The Lone Warrior opponent under seed 001 ("A Ruinous Victory"): how a
//! unit's situation is read off the game (ruling HO3) and how its
//! instruction becomes the engine's actions, phase by phase (HO4, HO13):
//! formation first (deploy, form column, mount or dismount), then the move
//! the instruction gives (towards the enemy or the front, to the rear, to
//! the nearest cover, as far as its share of a move), then its fire in the
//! shoot phase (a volley, a hasty one at −1, or none), its charge, its
//! answer to a charge, and its rout.

use super::candidates::{self, Candidate, Tried, candidate};
use super::carry::{self, SHARES};
use super::{FAN_DEGREES, ORDER, Opponent, Role, Testee};
use crate::battlefield::geometry::{Vector, turn_between};
use crate::dice::Roller;
use crate::reaction::{self, Options, Outcome, Situation};
use crate::rv;
use crate::tables::{self, Fire, Order, Towards};

/// Seed 001's plans: the rule set's attacker attacks the army, its
/// defender defends.
pub fn rv_role(state: &rv::GameState, side: usize) -> Role {
    let (attacker, defender) = state.attacker_defender();
    if side == attacker {
        Role::Attack(None)
    } else if side == defender {
        Role::Defend(None)
    } else {
        Role::Free
    }
}

/// One step of a unit's carrying-out: the action, what it did in words,
/// the candidate that carried it out, and whether the unit has more to do
/// in this phase (a formation changed at the start of its move, before
/// the move itself).
struct Step {
    action: rv::Action,
    what: String,
    by: &'static str,
    more: bool,
}

impl Step {
    /// The order's own step, the unit's last in this phase.
    fn last(action: rv::Action, what: String) -> Step {
        Step {
            action,
            what,
            by: ORDER,
            more: false,
        }
    }

    /// This step, carried out by the candidate named `by`.
    fn by(self, by: &'static str) -> Step {
        Step { by, ..self }
    }
}

/// What every candidate of a seed-001 unit's move phase reads, worked out
/// once before any is tried.
struct MoveContext<'a> {
    state: &'a rv::GameState,
    unit: usize,
    /// The unit's own legal actions now (`GameState::legal_actions_of`).
    legal: &'a [rv::Action],
    /// Its reaction test this bound.
    outcome: Outcome,
    /// Its side's plan.
    role: Role,
    /// Whether rule hold-the-line keeps it where it is (HO9).
    holding: bool,
    /// The nearest enemy, and how far it is, base to base.
    enemy: Option<usize>,
    enemy_distance: f64,
    /// How far it can hurt an enemy from where it stands.
    reach: f64,
    /// Its move this phase.
    allowance: f64,
}

/// The candidates of a seed-001 unit's move phase, in the order they are
/// tried: its rout, the formation its instruction asks, then the way it
/// moves (a plan rule's aim before the instruction's own).
fn move_candidates<'a>() -> [Candidate<MoveContext<'a>, Step>; 5] {
    [
        candidate(ORDER, Opponent::rv_rout),
        candidate(ORDER, Opponent::rv_form_first),
        candidate("hold-the-line", Opponent::rv_hold_the_line),
        candidate("close-to-range", Opponent::rv_close_to_range),
        candidate(ORDER, Opponent::rv_instruction),
    ]
}

impl Opponent {
    pub(crate) fn rv_next(
        &mut self,
        state: &rv::GameState,
        side: usize,
        roller: &mut dyn Roller,
    ) -> rv::Action {
        if !self.tested.contains(&(state.turn(), side)) {
            self.rv_test(state, side, roller);
            self.rv_general_tests(state, side, roller);
        }
        if let Some(pending) = state.pending() {
            return self.rv_respond(state, pending);
        }
        let own: Vec<usize> = (0..state.units().len())
            .filter(|&u| state.units()[u].side == side && !state.is_removed(u))
            .collect();
        if state.phase().kind == rv::PhaseKind::Move {
            if let Some(action) = self.rv_general_reactions(state, side) {
                return action;
            }
            if self.rules.general_leads
                && let Some(action) = self.rv_commanders(state, side)
            {
                return action;
            }
        }
        for unit in own {
            if self.handled.contains(&unit) {
                continue;
            }
            // The unit's own legal actions only: the engine need not work
            // out every other unit's for each action of this one.
            let legal = || state.legal_actions_of(unit);
            let chosen = match state.phase().kind {
                rv::PhaseKind::Move => self.rv_move(state, unit, &legal()),
                rv::PhaseKind::Shoot => self.rv_fire(state, unit, &legal()),
                rv::PhaseKind::Charge => self.rv_charge(state, unit, &legal()),
                rv::PhaseKind::Melee => None,
            };
            if let Some(step) = chosen {
                if !step.more {
                    self.handled.insert(unit);
                }
                match step.action {
                    rv::Action::Move { to, .. } => {
                        let from = state.units()[unit].centre;
                        self.moved(unit, from, to, state.turn());
                    }
                    rv::Action::Rout { .. } => self.note_rout(unit, state.turn()),
                    _ => {}
                }
                self.did(unit, step.by, step.what);
                return step.action;
            }
            self.handled.insert(unit);
            let role = rv_role(state, side);
            if state.phase().kind == rv::PhaseKind::Move && self.holds(&role, unit) {
                self.did(
                    unit,
                    "hold-the-line",
                    format!(
                        "kept its ground rather than advance: {} (rule hold-the-line)",
                        role.words()
                    ),
                );
            }
        }
        rv::Action::EndPhase
    }

    /// Whether rule hold-the-line (HO9) keeps `unit` of a defending side
    /// where it is rather than advance or charge on its order.
    fn holds(&self, role: &Role, unit: usize) -> bool {
        self.rules.hold_the_line
            && role.defends()
            && matches!(self.order_of(unit), Order::AdvanceAndFire | Order::Charge)
    }

    /// Each of `side`'s units in play takes its reaction test, in unit
    /// order, at the start of the side's bound ([`Opponent::test_units`]).
    fn rv_test(&mut self, state: &rv::GameState, side: usize, roller: &mut dyn Roller) {
        self.tested.insert((state.turn(), side));
        let mut units = Vec::new();
        for unit in 0..state.units().len() {
            let u = &state.units()[unit];
            if u.side != side || state.is_removed(unit) {
                continue;
            }
            let before = self.losses_at_test.insert(unit, u.bases).unwrap_or(u.bases);
            let situation = self.rv_situation(state, unit, before);
            let column_in_sight = situation.as_ref().is_some_and(|s| {
                s.enemy_in_sight
                    && s.formation == Some(tables::Formation::Column)
                    && reaction::modifiers(&self.tables, s, Options::default()).is_ok()
            });
            units.push(Testee {
                unit,
                name: u.name.clone(),
                situation,
                column_in_sight,
            });
        }
        let friend_ahead = |opponent: &Opponent, unit| opponent.rv_friend_ahead(state, unit);
        self.test_units(state.turn(), units, &friend_ahead, roller);
    }

    /// The situation unit `unit`'s next reaction test would read (`what
    /// UNIT`), `None` for a unit out of play or without a class.
    pub(crate) fn rv_situation_now(&self, state: &rv::GameState, unit: usize) -> Option<Situation> {
        if state.is_removed(unit) {
            return None;
        }
        let bases = state.units().get(unit)?.bases;
        let before = self.losses_at_test.get(&unit).copied().unwrap_or(bases);
        self.rv_situation(state, unit, before)
    }

    /// The Lone Warrior situation of a seed-001 unit (ruling HO3): its
    /// bases left at its last test were `bases_before`.
    pub(super) fn rv_situation(
        &self,
        state: &rv::GameState,
        unit: usize,
        bases_before: u32,
    ) -> Option<Situation> {
        let u = &state.units()[unit];
        let field = state.battlefield();
        let class = field.ruleset.troop(u.troop).reaction_class.clone()?;
        let base = state.footprint(unit);
        let distances = &self.tables.reaction.distances;
        let enemies: Vec<usize> = (0..state.units().len())
            .filter(|&e| state.units()[e].side != u.side && !state.is_removed(e))
            .collect();
        let enemy_distance = enemies
            .iter()
            .map(|&e| base.distance_to(&state.footprint(e)))
            .min_by(f64::total_cmp);
        let seen: Vec<usize> = enemies
            .iter()
            .copied()
            .filter(|&e| field.can_see(&base, &state.footprint(e)))
            .collect();
        let formation = match (u.kind, u.formation) {
            (rv::Kind::Cannon, _) => None,
            (rv::Kind::Dragoons, _) if u.mounted => Some(tables::Formation::Mounted),
            (rv::Kind::Dragoons, _) => Some(tables::Formation::Dismounted),
            (_, rv::Formation::Column) => Some(tables::Formation::Column),
            (_, rv::Formation::OpenOrder) => Some(tables::Formation::Skirmish),
            (_, rv::Formation::Line) => Some(tables::Formation::Line),
        };
        let lost_bases = bases_before.saturating_sub(u.bases);
        let turn = state.turn();
        let character = self.unit_character(unit, &class);
        Some(Situation {
            character,
            class,
            column: Some(field.column_at(u.centre)),
            enemy_in_sight: !seen.is_empty(),
            enemy_distance,
            general_within_3: state.commanders().iter().any(|c| {
                c.side == u.side
                    && !c.lost
                    && base.distance_to_point(c.at) <= distances.general_within
            }),
            support_within_6: (0..state.units().len()).any(|f| {
                f != unit
                    && state.units()[f].side == u.side
                    && !state.is_removed(f)
                    && base.within(&state.footprint(f), distances.support_within)
            }),
            sees_enemy_retreat: seen.iter().any(|&e| self.fell_back_lately(e, turn)),
            // Seed 001 lets no unit charge an enemy already in a charge,
            // and no melee outlasts its turn: a friend is never still in
            // melee at a test (ruling HO27).
            friend_firing_ahead: self.rv_friend_ahead(state, unit).is_some(),
            lost_melee: state.is_reforming(unit),
            casualties: lost_bases.saturating_mul(self.tables.opponent.rv_figures_per_base),
            under_half: state.strength(unit).unwrap_or(0.0) < 0.5,
            withdrew_last_bound: self.withdrew_last_bound(unit, turn),
            formation,
            sees_cavalry: seen.iter().any(|&e| {
                let enemy = &state.units()[e];
                enemy.kind == rv::Kind::Dragoons && enemy.mounted
            }),
            ..Situation::default()
        })
    }

    /// Ruling O5 under seed 001: the friend ahead, deployed to fire (in
    /// line or open order, dragoons on foot, or cannon), that `unit` is
    /// approaching the rear of ([`carry::friend_ahead`]).
    fn rv_friend_ahead(&self, state: &rv::GameState, unit: usize) -> Option<usize> {
        let placed: Vec<carry::Placed> = (0..state.units().len())
            .filter(|&i| !state.is_removed(i))
            .map(|i| {
                let u = &state.units()[i];
                let deployed = match u.kind {
                    rv::Kind::Cannon => true,
                    rv::Kind::Dragoons => !u.mounted,
                    _ => u.formation != rv::Formation::Column,
                };
                carry::Placed {
                    index: i,
                    side: u.side,
                    base: state.footprint(i),
                    deployed,
                }
            })
            .collect();
        let within = self.tables.reaction.distances.support_within;
        carry::friend_ahead(&placed, unit, within, self.tables.orders.musket_range)
    }

    /// Ruling O5: a move of at most `inches` towards the place
    /// `support_behind` inches to the rear of the friend `unit` was
    /// approaching at its test, the lawful move that ends nearest it; a
    /// unit already there stays, and says so.
    fn rv_support(&mut self, state: &rv::GameState, unit: usize, inches: f64) -> Option<Step> {
        let friend = self
            .current
            .get(&unit)
            .and_then(|&i| self.decisions[i].friend)
            .filter(|&f| !state.is_removed(f))?;
        let u = &state.units()[unit];
        let name = state.units()[friend].name.clone();
        let behind = self.tables.orders.support_behind;
        let spot = carry::support_spot(u.centre, state.units()[friend].centre, behind);
        let behind = crate::battlefield::geometry::inches(behind);
        let now = u.centre.distance(spot);
        if now <= carry::IN_SUPPORT {
            self.did(
                unit,
                ORDER,
                format!("stood in support of `{name}`, {behind} to its rear"),
            );
            return None;
        }
        let bearing = (spot - u.centre).bearing();
        FAN_DEGREES
            .iter()
            .flat_map(|offset| {
                SHARES.map(|share| {
                    let step = (inches * share).min(now);
                    u.centre + Vector::from_bearing(bearing + offset) * step
                })
            })
            .filter(|to| state.check(&rv::Action::Move { unit, to: *to }).is_ok())
            .map(|to| (to, to.distance(spot)))
            .filter(|(_, d)| *d < now - 0.25)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(to, _)| {
                Step::last(
                    rv::Action::Move { unit, to },
                    format!(
                        "moved up {:.1}\" in support of `{name}`, halting {behind} to its rear",
                        u.centre.distance(to)
                    ),
                )
            })
    }

    fn rv_nearest(state: &rv::GameState, unit: usize, among: &[usize]) -> Option<usize> {
        let base = state.footprint(unit);
        among.iter().copied().min_by(|&a, &b| {
            let da = base.distance_to(&state.footprint(a));
            let db = base.distance_to(&state.footprint(b));
            da.total_cmp(&db).then(a.cmp(&b))
        })
    }

    /// Ruling HO11 (`general-leads`): each of `side`'s commanders not
    /// with a unit joins the unit he may lead that is nearest the enemy and
    /// has no commander, or rides towards it when it is beyond his move.
    /// One commander at a time; `None` once every one is handled.
    fn rv_commanders(&mut self, state: &rv::GameState, side: usize) -> Option<rv::Action> {
        let role = rv_role(state, side);
        for (index, commander) in state.commanders().iter().enumerate() {
            // A commander who tested this bound does what his reaction
            // says (a C or D stands), and one who rode off is gone.
            if commander.side != side
                || commander.lost
                || commander.acted
                || commander.attached.is_some()
                || self.reactions.contains_key(&index)
                || self.gone.contains(&index)
                || !self.handled_commanders.insert(index)
            {
                continue;
            }
            let mut units: Vec<(f64, usize)> = (0..state.units().len())
                .filter(|&u| {
                    let unit = &state.units()[u];
                    unit.side == side
                        && !state.is_removed(u)
                        && !state.is_reforming(u)
                        && state.commander_of(u).is_none()
                        && (commander.overall
                            || unit.brigade.as_deref() == Some(commander.name.as_str()))
                })
                .filter_map(|u| Self::rv_enemy_distance(state, u).map(|d| (d, u)))
                .collect();
            units.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let Some(&(_, lead)) = units.first() else {
                continue;
            };
            let join = rv::Action::Join {
                commander: index,
                unit: lead,
            };
            let plan = role.words();
            if state.check(&join).is_ok() {
                self.did(
                    lead,
                    "general-leads",
                    format!(
                        "{} joined it, the nearest of his units to the enemy: {plan} (rule general-leads)",
                        commander.name
                    ),
                );
                return Some(join);
            }
            let goal = state.units()[lead].centre;
            let gap = commander.at.distance(goal);
            for share in SHARES {
                let step = (state.table().commander_move * share).min(gap - 1.0);
                if step <= 0.0 {
                    break;
                }
                let to = commander.at + (goal - commander.at) * (step / gap);
                let ride = rv::Action::MoveCommander {
                    commander: index,
                    to,
                };
                if state.check(&ride).is_ok() {
                    self.did(
                        lead,
                        "general-leads",
                        format!(
                            "{} rode {step:.1}\" towards it, to lead it: {plan} (rule general-leads)",
                            commander.name
                        ),
                    );
                    return Some(ride);
                }
            }
        }
        None
    }

    fn rv_enemies(state: &rv::GameState, unit: usize) -> Vec<usize> {
        let side = state.units()[unit].side;
        (0..state.units().len())
            .filter(|&e| state.units()[e].side != side && !state.is_removed(e))
            .collect()
    }

    pub(super) fn rv_enemy_distance(state: &rv::GameState, unit: usize) -> Option<f64> {
        let base = state.footprint(unit);
        Self::rv_enemies(state, unit)
            .into_iter()
            .map(|e| base.distance_to(&state.footprint(e)))
            .min_by(f64::total_cmp)
    }

    /// How far a seed-001 unit can hurt an enemy from where it stands: the
    /// longest band its fire hits in, or its charge reach for those that
    /// cannot fire (mounted dragoons).
    pub fn rv_reach(state: &rv::GameState, unit: usize) -> f64 {
        let u = &state.units()[unit];
        let table = state.table();
        if u.kind == rv::Kind::Dragoons && u.mounted {
            return table.charge_mounted;
        }
        let class = u.rules(table).fire;
        table
            .bands
            .iter()
            .enumerate()
            .filter(|(band, _)| table.needed(class, *band).is_some())
            .map(|(_, reach)| *reach)
            .fold(0.0, f64::max)
    }

    /// The formation change (or mount, or dismount) the instruction asks
    /// of a seed-001 unit, if it has the formation and is not in it:
    /// infantry line, column or open order (close order is its line; open
    /// order only for those who may), dragoons mounted or dismounted.
    /// Seed 001's cannon have no formations, so "limber" and "unlimber"
    /// ask nothing of them (ruling HO13).
    fn rv_formation(
        state: &rv::GameState,
        unit: usize,
        wanted: tables::Formation,
    ) -> Result<Option<(rv::Action, &'static str)>, String> {
        use tables::Formation as F;
        let u = &state.units()[unit];
        let action = match (u.kind, wanted) {
            (rv::Kind::Infantry, F::Line | F::CloseOrder) => (
                rv::Action::ChangeFormation {
                    unit,
                    formation: rv::Formation::Line,
                },
                "deployed into line",
            ),
            (rv::Kind::Infantry, F::Column) => (
                rv::Action::ChangeFormation {
                    unit,
                    formation: rv::Formation::Column,
                },
                "formed march column",
            ),
            (rv::Kind::Infantry, F::Skirmish) if u.rules(state.table()).open_order => (
                rv::Action::ChangeFormation {
                    unit,
                    formation: rv::Formation::OpenOrder,
                },
                "deployed into open order",
            ),
            (rv::Kind::Infantry, F::Skirmish) => (
                rv::Action::ChangeFormation {
                    unit,
                    formation: rv::Formation::Line,
                },
                "deployed into line (it may not open order)",
            ),
            (rv::Kind::Dragoons, F::Mounted) => (
                rv::Action::Mount {
                    unit,
                    mounted: true,
                },
                "mounted",
            ),
            (rv::Kind::Dragoons, F::Dismounted) => (
                rv::Action::Mount {
                    unit,
                    mounted: false,
                },
                "dismounted",
            ),
            _ => return Ok(None),
        };
        let already = match action.0 {
            rv::Action::ChangeFormation { formation, .. } => u.formation == formation,
            rv::Action::Mount { mounted, .. } => u.mounted == mounted,
            _ => false,
        };
        if already {
            return Ok(None);
        }
        match state.check(&action.0) {
            Ok(()) => Ok(Some(action)),
            Err(refusal) => Err(refusal.to_string()),
        }
    }

    /// Where `unit` may move (sideways, then back, then obliquely, the
    /// shortest first) and then form `wanted` at the end of its move, when
    /// there is no room to form where it stands.
    fn rv_room_to_form(
        state: &rv::GameState,
        unit: usize,
        wanted: tables::Formation,
    ) -> Option<crate::battlefield::Point> {
        let u = &state.units()[unit];
        carry::room_points(u.centre, u.facing, state.allowance(unit), &carry::ROOM_FAN)
            .into_iter()
            .find(|&to| {
                let step = rv::Action::Move { unit, to };
                if state.check(&step).is_err() {
                    return false;
                }
                let mut after = state.clone();
                after
                    .apply(&step, &mut crate::dice::Scripted::new([]))
                    .is_ok()
                    && matches!(Self::rv_formation(&after, unit, wanted), Ok(Some(_)))
            })
    }

    /// A seed-001 unit's move phase: its rout, its formation, its pivot to
    /// face, or the move its instruction gives (rulings HO4, HO13), as
    /// the first of [`move_candidates`] that applies carries it out.
    fn rv_move(
        &mut self,
        state: &rv::GameState,
        unit: usize,
        legal: &[rv::Action],
    ) -> Option<Step> {
        let outcome = self.outcome_of(unit)?.clone();
        let role = rv_role(state, state.units()[unit].side);
        let holding = self.holds(&role, unit);
        let enemy = Self::rv_nearest(state, unit, &Self::rv_enemies(state, unit));
        let context = MoveContext {
            state,
            unit,
            legal,
            enemy_distance: enemy.map_or(f64::INFINITY, |enemy| {
                state.footprint(unit).distance_to(&state.footprint(enemy))
            }),
            enemy,
            reach: Self::rv_reach(state, unit),
            allowance: state.allowance(unit),
            outcome,
            role,
            holding,
        };
        let (by, step) = candidates::first(self, &context, &move_candidates())?;
        step.map(|step| step.by(by))
    }

    /// Ruling O12: a unit that routs is lost to its army at once.
    fn rv_rout(&mut self, c: &MoveContext<'_>) -> Tried<Step> {
        let rout = rv::Action::Rout { unit: c.unit };
        if c.outcome.order != Order::Rout || c.state.check(&rout).is_err() {
            return Tried::Passes;
        }
        Tried::Acts(Step::last(
            rout,
            format!(
                "{}: it routed and left the field, lost to its army (ruling O12)",
                c.outcome.instruction.does.trim_end_matches('.')
            ),
        ))
    }

    /// The formation the instruction asks, first ([`Opponent::rv_form`]).
    fn rv_form_first(&mut self, c: &MoveContext<'_>) -> Tried<Step> {
        Tried::acts_if(self.rv_form(c.state, c.unit, &c.outcome, c.holding))
    }

    /// Ruling HO9 (`hold-the-line`): the defender keeps its ground; it
    /// only turns to face, and a charge goes in only in the charge phase,
    /// at an enemy in reach.
    fn rv_hold_the_line(&mut self, c: &MoveContext<'_>) -> Tried<Step> {
        if !c.holding {
            return Tried::Passes;
        }
        let note = format!(
            " ({}, so it keeps its ground: rule hold-the-line)",
            c.role.words()
        );
        Tried::applies(self.rv_aimed(c, None, 0.0, &note))
    }

    /// Ruling HO5 (`close-to-range`): an attacker told to stand and fire
    /// with no enemy in its weapons' reach closes, a full move.
    fn rv_close_to_range(&mut self, c: &MoveContext<'_>) -> Tried<Step> {
        let closes = self.rules.close_to_range
            && c.outcome.order == Order::StandAndFire
            && c.outcome.instruction.fire != Fire::None
            && c.role.attacks()
            && c.enemy_distance > c.reach;
        if !closes {
            return Tried::Passes;
        }
        let note = format!(
            " (no enemy within its {}\" reach and {}: it closes, rule close-to-range)",
            c.reach,
            c.role.words()
        );
        Tried::applies(self.rv_aimed(c, Some(Towards::Enemy), c.allowance, &note))
    }

    /// The order's own instruction: the way and the share of a move its
    /// variant gives.
    fn rv_instruction(&mut self, c: &MoveContext<'_>) -> Tried<Step> {
        let heading = carry::heading(&c.outcome);
        let inches = carry::inches(&c.outcome, c.allowance);
        Tried::applies(self.rv_aimed(c, heading, inches, ""))
    }

    /// The unit's move on `heading` (none: it stays), at most `inches`:
    /// first a pivot to face the nearest enemy when it fires or goes
    /// towards the enemy and has it off its front, then the move; `note`
    /// ends what it did. `None` when it does neither.
    fn rv_aimed(
        &mut self,
        c: &MoveContext<'_>,
        heading: Option<Towards>,
        inches: f64,
        note: &str,
    ) -> Option<Step> {
        let (state, unit) = (c.state, c.unit);
        let enemy = c.enemy?;
        let u = &state.units()[unit];
        let instruction = &c.outcome.instruction;
        let bearing = (state.units()[enemy].centre - u.centre).bearing();
        let off_front = turn_between(u.facing, bearing).abs();
        let faces_enemy = match heading {
            None => instruction.fire != Fire::None || c.holding,
            Some(Towards::Enemy | Towards::Front) => true,
            Some(_) => false,
        };
        if faces_enemy && off_front > self.tables.opponent.turn_to_face_degrees {
            return c.legal.iter().find_map(|a| match a {
                rv::Action::Pivot { unit: who, facing } if *who == unit => Some(Step::last(
                    *a,
                    format!(
                        "turned to face `{}` (bearing {facing:.0}){note}",
                        state.units()[enemy].name
                    ),
                )),
                _ => None,
            });
        }
        match heading {
            None => None,
            Some(Towards::Friend) => self.rv_support(state, unit, inches),
            Some(way @ (Towards::Enemy | Towards::Front)) => {
                Self::rv_advance(state, unit, enemy, c.legal, inches, way == Towards::Front)
                    .map(|step| Step::last(step.action, format!("{}{note}", step.what)))
            }
            Some(Towards::Cover) if carry::in_cover(state.battlefield(), u.centre) => None,
            Some(way @ (Towards::Cover | Towards::Rear)) => {
                self.rv_fall_back(state, unit, enemy, inches, way == Towards::Cover)
            }
        }
    }

    /// The formation the instruction asks, first, at the start of the
    /// unit's move (seed 001: "at the start or end of their movement"). A
    /// unit holding its ground does not form march column to go anywhere; a
    /// charge in march column forms line first, since seed 001 lets only a
    /// line charge (ruling HO13). With no room where it stands, it moves to
    /// where it can form (seed 001 lets a unit change formation at the end
    /// of its move); with nowhere, it stays as it is and says why.
    fn rv_form(
        &mut self,
        state: &rv::GameState,
        unit: usize,
        outcome: &Outcome,
        holding: bool,
    ) -> Option<Step> {
        let u = &state.units()[unit];
        let instruction = &outcome.instruction;
        let charging =
            outcome.order == Order::Charge && carry::heading(outcome) == Some(Towards::Enemy);
        let wanted = match instruction.formation {
            Some(tables::Formation::Column) if holding => None,
            None if charging && u.formation == rv::Formation::Column => {
                Some(tables::Formation::Line)
            }
            wanted => wanted,
        }?;
        match Self::rv_formation(state, unit, wanted) {
            Ok(Some((action, words))) => Some(Step {
                action,
                what: format!("{words}: {}", instruction.does.trim_end_matches('.')),
                by: ORDER,
                more: true,
            }),
            Ok(None) => None,
            Err(refusal) => match Self::rv_room_to_form(state, unit, wanted) {
                Some(to) => Some(Step {
                    action: rv::Action::Move { unit, to },
                    what: format!(
                        "moved {:.1}\" to find room to form {wanted} ({refusal})",
                        u.centre.distance(to)
                    ),
                    by: ORDER,
                    more: true,
                }),
                None => {
                    self.no_room(unit);
                    self.did(unit, ORDER, format!("could not form {wanted}: {refusal}"));
                    None
                }
            },
        }
    }

    /// An advance of at most `inches` that brings `unit` nearest `enemy`
    /// (if it gets nearer at all): the engine lists a few moves, and the
    /// opponent also tries a fan of its own, so a unit blocked straight
    /// ahead goes round (ruling HO4), each checked by the rules. `front`:
    /// a march to the front out of sight.
    fn rv_advance(
        state: &rv::GameState,
        unit: usize,
        enemy: usize,
        legal: &[rv::Action],
        inches: f64,
        front: bool,
    ) -> Option<Step> {
        let u = &state.units()[unit];
        let target = state.units()[enemy].centre;
        let bearing = (target - u.centre).bearing();
        let now = u.centre.distance(target);
        let fan = FAN_DEGREES.iter().flat_map(|offset| {
            [1.0, 2.0 / 3.0, 1.0 / 3.0]
                .map(|share| u.centre + Vector::from_bearing(bearing + offset) * (inches * share))
        });
        legal
            .iter()
            .filter_map(|a| match a {
                rv::Action::Move { unit: who, to } if *who == unit => Some(*to),
                _ => None,
            })
            .chain(fan)
            .filter(|to| u.centre.distance(*to) <= inches + 1e-6)
            .filter(|to| state.check(&rv::Action::Move { unit, to: *to }).is_ok())
            .map(|to| (to, to.distance(target)))
            .filter(|(_, d)| *d < now - 0.25)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(to, _)| {
                let gone = u.centre.distance(to);
                let words = if front {
                    format!("marched {gone:.1}\" towards the sound of the action")
                } else {
                    format!(
                        "advanced {gone:.1}\" towards `{}`",
                        state.units()[enemy].name
                    )
                };
                Step::last(rv::Action::Move { unit, to }, words)
            })
    }

    /// A withdrawal of at most `inches`: to the nearest cover on the rear
    /// half when `to_cover` and any is in reach, else straight to the rear
    /// (the side's own edge) and then obliquely; the unit keeps its front
    /// to `enemy` (ruling HO13).
    fn rv_fall_back(
        &self,
        state: &rv::GameState,
        unit: usize,
        enemy: usize,
        inches: f64,
        to_cover: bool,
    ) -> Option<Step> {
        let u = &state.units()[unit];
        let rear = self.rear(u.side);
        let lawful = |to: &crate::battlefield::Point| {
            state.check(&rv::Action::Move { unit, to: *to }).is_ok()
        };
        let cover = to_cover
            .then(|| carry::cover_points(state.battlefield(), u.centre, rear, inches))
            .and_then(|points| points.into_iter().find(lawful));
        let (to, whither) = match cover {
            Some(to) => (to, "to the nearest cover"),
            None => (
                carry::rear_points(u.centre, rear, inches)
                    .into_iter()
                    .find(lawful)?,
                "to its rear",
            ),
        };
        Some(Step::last(
            rv::Action::Move { unit, to },
            format!(
                "fell back {:.1}\" {whither}, facing `{}`",
                u.centre.distance(to),
                state.units()[enemy].name
            ),
        ))
    }

    /// A seed-001 unit's shoot phase: it fires as its instruction says (a
    /// volley, or a hasty one at −1 when it withdraws), at the nearest
    /// enemy it may; one told not to fire does not, unless rule
    /// hold-the-line kept it from charging (HO9).
    fn rv_fire(&self, state: &rv::GameState, unit: usize, legal: &[rv::Action]) -> Option<Step> {
        let outcome = self.outcome_of(unit)?;
        let role = rv_role(state, state.units()[unit].side);
        // A defender kept from charging by hold-the-line stands and fires
        // instead (HO9).
        let (by, fire) = match carry::fire_once_moved(&self.tables, outcome) {
            Fire::None if self.holds(&role, unit) => ("hold-the-line", Fire::Volley),
            Fire::None => return None,
            fire => (ORDER, fire),
        };
        let targets: Vec<usize> = legal
            .iter()
            .filter_map(|a| match a {
                rv::Action::Fire { unit: who, target } if *who == unit => Some(*target),
                _ => None,
            })
            .collect();
        let target = Self::rv_nearest(state, unit, &targets)?;
        let name = &state.units()[target].name;
        if fire == Fire::MinusOne {
            let hasty = rv::Action::HastyFire { unit, target };
            return state.check(&hasty).is_ok().then(|| {
                Step::last(
                    hasty,
                    format!("fired a single volley at -1 at `{name}`, the nearest in reach"),
                )
                .by(by)
            });
        }
        Some(
            Step::last(
                rv::Action::Fire { unit, target },
                format!("fired at `{name}`, the nearest in reach"),
            )
            .by(by),
        )
    }

    /// A seed-001 unit's charge phase: a charge its order gives, or one
    /// rule press-home makes of an attacker's advance (HO10).
    fn rv_charge(&self, state: &rv::GameState, unit: usize, legal: &[rv::Action]) -> Option<Step> {
        let order = self.order_of(unit);
        let outcome = self.outcome_of(unit)?;
        let role = rv_role(state, state.units()[unit].side);
        // A charge whose instruction goes at the enemy (not guns, which
        // cannot charge, nor a march to the front out of sight).
        let charges = order == Order::Charge && carry::heading(outcome) == Some(Towards::Enemy);
        // Ruling HO10: an attacker told to advance and fire that may charge
        // presses home.
        let pressing = self.rules.press_home
            && role.attacks()
            && matches!(order, Order::AdvanceAndFire | Order::StandAndFire)
            && carry::heading(outcome) != Some(Towards::Friend);
        if !charges && !pressing {
            return None;
        }
        let targets: Vec<usize> = legal
            .iter()
            .filter_map(|a| match a {
                rv::Action::Charge { unit: who, target } if *who == unit => Some(*target),
                _ => None,
            })
            .collect();
        let target = Self::rv_nearest(state, unit, &targets)?;
        let (by, why) = if charges {
            (ORDER, String::new())
        } else {
            (
                "press-home",
                format!(
                    ": told to {}, it presses home, {} (rule press-home)",
                    order.title().to_lowercase(),
                    role.words()
                ),
            )
        };
        Some(
            Step::last(
                rv::Action::Charge { unit, target },
                format!("charged `{}`{why}", state.units()[target].name),
            )
            .by(by),
        )
    }

    fn rv_respond(&mut self, state: &rv::GameState, pending: rv::Pending) -> rv::Action {
        use rv::Response::{CounterCharge, Fire, Stand};
        let open = state.responses();
        let order = self.order_of(pending.target);
        let wanted: &[rv::Response] = match order {
            Order::Charge => &[CounterCharge, Fire, Stand],
            Order::AdvanceAndFire | Order::StandAndFire | Order::FireAndWithdraw => {
                &[Fire, CounterCharge, Stand]
            }
            Order::Withdraw | Order::Rout => &[Stand, Fire, CounterCharge],
        };
        let response = wanted
            .iter()
            .copied()
            .find(|r| open.contains(r))
            .or_else(|| open.first().copied())
            .unwrap_or(Stand);
        let words = match response {
            Fire => "fired at its charger",
            CounterCharge => "counter-charged",
            Stand => "stood to receive the charge",
        };
        self.did(
            pending.target,
            ORDER,
            format!(
                "{words} (`{}` charged it; its order: {})",
                state.units()[pending.charger].name,
                order.title()
            ),
        );
        rv::Action::Respond { response }
    }
}
