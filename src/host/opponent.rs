//! foe's Lone Warrior opponent for the seed-001 and seed-002 engines
//! (rulings HO2–HO6): every bound each of its units reads its
//! [`Situation`] off the game, takes the reaction test with the game's
//! roller, and carries the order out as the engine's actions. Every
//! decision keeps its reasons (factors, die, total, order, and what the
//! unit did) for `why`.
//!
//! Seed 001: the units of a side are tested at the start of the side's
//! move phase (the side's bound); the order then says what each does in
//! its move, shoot and charge phases, and how it answers a charge. Seed
//! 002: the units are tested when the side first gives out its dice that
//! turn; [`acw::policy::assign`] gives the highest dice to the most urgent
//! units, and each unit acts on its order when its die comes up.
//!
//! The seed-000 engine keeps its own, richer opponent ([`crate::opponent`]);
//! this one does not play it. Pure: dice only from the roller passed in.

use super::{Action, Game};
use crate::battlefield::Base;
use crate::battlefield::geometry::turn_between;
use crate::dice::{Die, Roller};
use crate::reaction::{self, Options, Situation};
use crate::tables::{self, Order, Tables};
use crate::{acw, rv};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Bearings off the straight line a unit tries when it moves, degrees.
const FAN_DEGREES: [f64; 5] = [0.0, -30.0, 30.0, -60.0, 60.0];

/// The numbers of the house mapping (`tables/opponent-other-rules.yaml`).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Figures a seed-001 base counts for in the reaction test (HO3).
    pub rv_figures_per_base: u32,
    /// A unit whose nearest enemy is more than this far off its front
    /// turns to face it (HO4).
    pub turn_to_face_degrees: f64,
    /// The attacker's standing units with no enemy in range advance (HO5).
    pub close_to_range: bool,
}

/// The settings file as shipped.
pub const SETTINGS_FILE: (&str, &str) = (
    "tables/opponent-other-rules.yaml",
    include_str!("../../tables/opponent-other-rules.yaml"),
);

impl Settings {
    /// The shipped settings. The file is embedded and a test reads it, so
    /// this cannot fail in a released binary.
    pub fn builtin() -> Settings {
        serde_yaml::from_str(SETTINGS_FILE.1).expect("the shipped opponent settings are valid")
    }
}

/// One unit's decision for one bound, with its reasons.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The unit's index in the game.
    pub unit: usize,
    /// Its name.
    pub name: String,
    /// The game turn.
    pub turn: u32,
    /// The reaction test, or `None` for a unit without a Lone Warrior
    /// class (it stands, ruling HO2).
    pub outcome: Option<reaction::Outcome>,
    /// Seed 002: the activation die it was given, and why.
    pub die: Option<(u8, String)>,
    /// What it did on its order, in order.
    pub did: Vec<String>,
}

impl Decision {
    /// Its order (a unit without a test stands and fires).
    pub fn order(&self) -> Order {
        self.outcome
            .as_ref()
            .map_or(Order::StandAndFire, |outcome| outcome.order)
    }
}

/// The opponent commanding some sides of a game.
#[derive(Debug, Clone)]
pub struct Opponent {
    tables: Arc<Tables>,
    settings: Settings,
    /// Every decision so far, oldest first.
    decisions: Vec<Decision>,
    /// This bound's decision for each unit: an index into `decisions`.
    current: BTreeMap<usize, usize>,
    /// `(turn, side)` pairs already tested.
    tested: BTreeSet<(u32, usize)>,
    /// The phase the units in `handled` were handled in.
    phase_key: Option<(u32, String)>,
    /// Units already handled in this phase.
    handled: BTreeSet<usize>,
    /// Seed 001: bases at the unit's last test.
    bases_at_test: BTreeMap<usize, u32>,
    /// Seed 002: sides whose dice are given out at random (the yardstick
    /// for the dice policy), not by [`acw::policy::assign`].
    random_dice: Vec<usize>,
}

impl Opponent {
    /// An opponent with the Lone Warrior tables and the shipped settings.
    pub fn new(tables: Arc<Tables>) -> Opponent {
        Opponent {
            tables,
            settings: Settings::builtin(),
            decisions: Vec::new(),
            current: BTreeMap::new(),
            tested: BTreeSet::new(),
            phase_key: None,
            handled: BTreeSet::new(),
            bases_at_test: BTreeMap::new(),
            random_dice: Vec::new(),
        }
    }

    /// This opponent, giving out `sides`' seed-002 activation dice at
    /// random ([`acw::policy::random_assignment`], rolled on the game's
    /// roller) instead of by its policy: the yardstick for the policy.
    pub fn with_random_dice(mut self, sides: Vec<usize>) -> Opponent {
        self.random_dice = sides;
        self
    }

    /// Every decision so far, oldest first.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The latest decision about unit `unit`.
    pub fn latest(&self, unit: usize) -> Option<&Decision> {
        self.decisions.iter().rev().find(|d| d.unit == unit)
    }

    /// The next action for the side to act, which this opponent commands:
    /// reaction tests are rolled on `roller` when a bound begins. `None`
    /// when the game is over or under the seed-000 engine.
    pub fn next_action(&mut self, game: &Game, roller: &mut dyn Roller) -> Option<Action> {
        let side = game.to_act()?;
        let key = (game.turn(), game.phase());
        if self.phase_key.as_ref() != Some(&key) {
            self.phase_key = Some(key);
            self.handled.clear();
        }
        match game {
            Game::Awi(_) => None,
            Game::Rv(state) => Some(Action::Rv(self.rv_next(state, side, roller))),
            Game::Acw(state) => self
                .acw_next(state, side, roller)
                .map(Action::Acw)
                .or_else(|| game.legal_actions().into_iter().next()),
        }
    }

    fn record(&mut self, decision: Decision) {
        self.current.insert(decision.unit, self.decisions.len());
        self.decisions.push(decision);
    }

    fn order_of(&self, unit: usize) -> Order {
        self.current
            .get(&unit)
            .map_or(Order::StandAndFire, |&i| self.decisions[i].order())
    }

    fn did(&mut self, unit: usize, what: String) {
        if let Some(&i) = self.current.get(&unit) {
            self.decisions[i].did.push(what);
        }
    }

    // ----- seed 001 ---------------------------------------------------------

    fn rv_next(
        &mut self,
        state: &rv::GameState,
        side: usize,
        roller: &mut dyn Roller,
    ) -> rv::Action {
        if !self.tested.contains(&(state.turn(), side)) {
            self.rv_test(state, side, roller);
        }
        if let Some(pending) = state.pending() {
            return self.rv_respond(state, pending);
        }
        let own: Vec<usize> = (0..state.units().len())
            .filter(|&u| state.units()[u].side == side && !state.is_removed(u))
            .collect();
        let legal = state.legal_actions();
        for unit in own {
            if !self.handled.insert(unit) {
                continue;
            }
            let chosen = match state.phase().kind {
                rv::PhaseKind::Move => self.rv_move(state, unit, &legal),
                rv::PhaseKind::Shoot => self.rv_fire(state, unit, &legal),
                rv::PhaseKind::Charge => self.rv_charge(state, unit, &legal),
                rv::PhaseKind::Melee => None,
            };
            if let Some((action, what)) = chosen {
                self.did(unit, what);
                return action;
            }
        }
        rv::Action::EndPhase
    }

    fn rv_test(&mut self, state: &rv::GameState, side: usize, roller: &mut dyn Roller) {
        self.tested.insert((state.turn(), side));
        let withdrew: BTreeSet<usize> = self
            .current
            .values()
            .map(|&i| &self.decisions[i])
            .filter(|d| {
                matches!(
                    d.order(),
                    Order::Withdraw | Order::FireAndWithdraw | Order::Rout
                )
            })
            .map(|d| d.unit)
            .collect();
        for unit in 0..state.units().len() {
            let u = &state.units()[unit];
            if u.side != side || state.is_removed(unit) {
                continue;
            }
            let before = self.bases_at_test.insert(unit, u.bases).unwrap_or(u.bases);
            let outcome = self
                .rv_situation(state, unit, before, withdrew.contains(&unit))
                .filter(|s| reaction::modifiers(&self.tables, s, Options::default()).is_ok())
                .and_then(|situation| {
                    let die = roller.roll_for(Die::D6, format_args!("{}'s reaction test", u.name));
                    reaction::test(&self.tables, &situation, Options::default(), die).ok()
                });
            self.record(Decision {
                unit,
                name: u.name.clone(),
                turn: state.turn(),
                outcome,
                die: None,
                did: Vec::new(),
            });
        }
    }

    /// The Lone Warrior situation of a seed-001 unit (ruling HO3).
    fn rv_situation(
        &self,
        state: &rv::GameState,
        unit: usize,
        bases_before: u32,
        withdrew: bool,
    ) -> Option<Situation> {
        let u = &state.units()[unit];
        let field = state.battlefield();
        let class = field.ruleset.troop(u.troop).reaction_class.clone()?;
        let base = state.footprint(unit);
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
        Some(Situation {
            class,
            column: Some(field.column_at(u.centre)),
            enemy_in_sight: !seen.is_empty(),
            enemy_distance,
            general_within_3: state
                .commanders()
                .iter()
                .any(|c| c.side == u.side && !c.lost && base.distance_to_point(c.at) <= 3.0),
            support_within_6: (0..state.units().len()).any(|f| {
                f != unit
                    && state.units()[f].side == u.side
                    && !state.is_removed(f)
                    && base.within(&state.footprint(f), 6.0)
            }),
            lost_melee: state.is_reforming(unit),
            casualties: lost_bases.saturating_mul(self.settings.rv_figures_per_base),
            under_half: state.strength(unit).unwrap_or(0.0) < 0.5,
            withdrew_last_bound: withdrew,
            formation,
            sees_cavalry: seen.iter().any(|&e| {
                let enemy = &state.units()[e];
                enemy.kind == rv::Kind::Dragoons && enemy.mounted
            }),
            ..Situation::default()
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

    fn rv_move(
        &self,
        state: &rv::GameState,
        unit: usize,
        legal: &[rv::Action],
    ) -> Option<(rv::Action, String)> {
        let mut order = self.order_of(unit);
        let enemies: Vec<usize> = (0..state.units().len())
            .filter(|&e| state.units()[e].side != state.units()[unit].side && !state.is_removed(e))
            .collect();
        let enemy = Self::rv_nearest(state, unit, &enemies)?;
        let mut note = "";
        let range = state.table().bands.last().copied().unwrap_or(0.0);
        if self.settings.close_to_range
            && order == Order::StandAndFire
            && state.units()[unit].side == state.attacker_defender().0
            && state.footprint(unit).distance_to(&state.footprint(enemy)) > range
        {
            order = Order::AdvanceAndFire;
            note = " (no enemy within range: the attacker closes, ruling HO5)";
        }
        let u = &state.units()[unit];
        let target = state.units()[enemy].centre;
        let bearing = (target - u.centre).bearing();
        let off_front = turn_between(u.facing, bearing).abs();
        let pivot = || {
            legal.iter().find_map(|a| match a {
                rv::Action::Pivot { unit: who, facing } if *who == unit => Some((
                    *a,
                    format!(
                        "turned to face `{}` (bearing {facing:.0})",
                        state.units()[enemy].name
                    ),
                )),
                _ => None,
            })
        };
        // The engine lists a few moves; the opponent also tries a fan of
        // its own towards (and away from) the enemy, so a unit blocked
        // straight ahead goes round (ruling HO4), each checked by the rules.
        let allowance = state.allowance(unit);
        let mut fan = Vec::new();
        if allowance > 0.0 {
            for away in [false, true] {
                let heading = if away { bearing + 180.0 } else { bearing };
                for offset in FAN_DEGREES {
                    for share in [1.0, 2.0 / 3.0, 1.0 / 3.0] {
                        let to = u.centre
                            + crate::battlefield::geometry::Vector::from_bearing(heading + offset)
                                * (allowance * share);
                        let action = rv::Action::Move { unit, to };
                        if state.check(&action).is_ok() {
                            fan.push((action, to));
                        }
                    }
                }
            }
        }
        let moves = legal
            .iter()
            .filter_map(|a| match a {
                rv::Action::Move { unit: who, to } if *who == unit => Some((*a, *to)),
                _ => None,
            })
            .chain(fan);
        match order {
            Order::Charge | Order::AdvanceAndFire | Order::StandAndFire
                if off_front > self.settings.turn_to_face_degrees =>
            {
                pivot()
            }
            Order::Charge | Order::AdvanceAndFire => {
                let now = u.centre.distance(target);
                moves
                    .map(|(a, to)| (a, to, to.distance(target)))
                    .filter(|(_, _, d)| *d < now - 0.25)
                    .min_by(|a, b| a.2.total_cmp(&b.2))
                    .map(|(a, to, _)| {
                        (
                            a,
                            format!(
                                "advanced {:.1}\" towards `{}`{note}",
                                u.centre.distance(to),
                                state.units()[enemy].name
                            ),
                        )
                    })
            }
            Order::StandAndFire => None,
            Order::FireAndWithdraw | Order::Withdraw | Order::Rout => {
                let now = u.centre.distance(target);
                moves
                    .map(|(a, to)| (a, to, to.distance(target)))
                    .filter(|(_, _, d)| *d > now + 0.25)
                    .max_by(|a, b| a.2.total_cmp(&b.2))
                    .map(|(a, to, _)| {
                        (
                            a,
                            format!(
                                "fell back {:.1}\" from `{}`",
                                u.centre.distance(to),
                                state.units()[enemy].name
                            ),
                        )
                    })
            }
        }
    }

    fn rv_fire(
        &self,
        state: &rv::GameState,
        unit: usize,
        legal: &[rv::Action],
    ) -> Option<(rv::Action, String)> {
        if matches!(self.order_of(unit), Order::Withdraw | Order::Rout) {
            return None;
        }
        let targets: Vec<usize> = legal
            .iter()
            .filter_map(|a| match a {
                rv::Action::Fire { unit: who, target } if *who == unit => Some(*target),
                _ => None,
            })
            .collect();
        let target = Self::rv_nearest(state, unit, &targets)?;
        Some((
            rv::Action::Fire { unit, target },
            format!(
                "fired at `{}`, the nearest in reach",
                state.units()[target].name
            ),
        ))
    }

    fn rv_charge(
        &self,
        state: &rv::GameState,
        unit: usize,
        legal: &[rv::Action],
    ) -> Option<(rv::Action, String)> {
        if self.order_of(unit) != Order::Charge {
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
        Some((
            rv::Action::Charge { unit, target },
            format!("charged `{}`", state.units()[target].name),
        ))
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
            format!(
                "{words} (`{}` charged it; its order: {})",
                state.units()[pending.charger].name,
                order.title()
            ),
        );
        rv::Action::Respond { response }
    }

    // ----- seed 002 ---------------------------------------------------------

    fn acw_next(
        &mut self,
        state: &acw::GameState,
        side: usize,
        roller: &mut dyn Roller,
    ) -> Option<acw::Action> {
        match state.phase() {
            acw::Phase::Assigning { side } => {
                if self.tested.insert((state.turn(), side)) {
                    for (id, outcome) in
                        acw::policy::reaction_orders(state, side, &self.tables, roller)
                    {
                        self.record(Decision {
                            unit: id.0,
                            name: state.unit(id).name.clone(),
                            turn: state.turn(),
                            outcome: Some(outcome),
                            die: None,
                            did: Vec::new(),
                        });
                    }
                    // A unit the chart cannot test stands (ruling AC15).
                    let unassigned: Vec<acw::UnitId> = state.unassigned(side).collect();
                    for id in unassigned {
                        if self
                            .current
                            .get(&id.0)
                            .is_none_or(|&i| self.decisions[i].turn != state.turn())
                        {
                            self.record(Decision {
                                unit: id.0,
                                name: state.unit(id).name.clone(),
                                turn: state.turn(),
                                outcome: None,
                                die: None,
                                did: Vec::new(),
                            });
                        }
                    }
                }
                let orders: Vec<(acw::UnitId, Order)> = state
                    .unassigned(side)
                    .map(|id| (id, self.order_of(id.0)))
                    .collect();
                let assignment = if self.random_dice.contains(&side) {
                    acw::policy::random_assignment(state, side, roller)
                        .into_iter()
                        .next()?
                } else {
                    acw::policy::next_assignment(state, side, &orders)?
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
                let (action, what) = self.acw_activate(state, unit);
                self.did(unit.0, what);
                Some(action)
            }
            acw::Phase::Over => None,
        }
    }

    fn acw_activate(&self, state: &acw::GameState, unit: acw::UnitId) -> (acw::Action, String) {
        let order = self.order_of(unit.0);
        let legal = state.legal_actions();
        let Some(enemy) = state.nearest_enemy(unit) else {
            return (
                acw::Action::Hold { unit },
                "held: no enemy left".to_string(),
            );
        };
        let enemy_name = &state.unit(enemy).name;
        let target_base: Base = state.unit(enemy).base;
        let here = state.position(unit);
        let fire = legal.iter().find_map(|a| match a {
            acw::Action::Fire { unit: who, target } if *who == unit => Some((
                a.clone(),
                format!("fired at `{}`", state.unit(*target).name),
            )),
            _ => None,
        });
        let charge = legal.iter().find_map(|a| match a {
            acw::Action::Charge { unit: who, target } if *who == unit => {
                Some((a.clone(), format!("charged `{}`", state.unit(*target).name)))
            }
            _ => None,
        });
        // Moves keep the formation unless the unit must change to move at
        // all; among them, the one nearest (or farthest from) the enemy.
        let moves = |towards: bool| -> Option<(acw::Action, String)> {
            let now = target_base.distance_to_point(here);
            legal
                .iter()
                .filter_map(|a| match a {
                    acw::Action::Move {
                        unit: who,
                        formation: None,
                        to,
                        ..
                    } if *who == unit => Some((a.clone(), *to, target_base.distance_to_point(*to))),
                    _ => None,
                })
                .filter(|(_, _, d)| {
                    if towards {
                        *d < now - 0.25
                    } else {
                        *d > now + 0.25
                    }
                })
                .min_by(|a, b| {
                    let key = |d: f64| if towards { d } else { -d };
                    key(a.2).total_cmp(&key(b.2))
                })
                .map(|(a, to, _)| {
                    let verb = if towards { "advanced" } else { "fell back" };
                    let prep = if towards { "towards" } else { "from" };
                    (
                        a,
                        format!("{verb} {:.1}\" {prep} `{enemy_name}`", here.distance(to)),
                    )
                })
        };
        let hold = || (acw::Action::Hold { unit }, "held its ground".to_string());
        let attacker = state.victory.iter().find_map(|v| match v.when {
            crate::scenario::Condition::HoldArea { side, .. } => Some(side),
            _ => None,
        });
        let u = state.unit(unit);
        let range = state
            .table
            .weapon(u.troop, u.formation)
            .map_or(0.0, |w| w.range());
        let closing = self.settings.close_to_range
            && order == Order::StandAndFire
            && fire.is_none()
            && attacker == Some(u.side)
            && u.base.distance_to(&target_base) > range;
        let chosen = match order {
            Order::Charge => charge.or_else(|| moves(true)).or(fire),
            Order::AdvanceAndFire => fire.or_else(|| moves(true)),
            Order::StandAndFire if closing => moves(true).map(|(a, what)| {
                (
                    a,
                    format!("{what} (no enemy within range: the attacker closes, ruling HO5)"),
                )
            }),
            Order::StandAndFire => fire,
            Order::FireAndWithdraw => fire.or_else(|| moves(false)),
            Order::Withdraw | Order::Rout => moves(false),
        };
        chosen.unwrap_or_else(hold)
    }
}
