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
//! turn; [`dice::assign`] gives the highest dice to the most urgent
//! units, and each unit acts on its order when its die comes up.
//!
//! Each side has a plan taken from the game ([`Role`]: seed 001's attacker
//! attacks the army and its defender holds; seed 002's side that must hold
//! an area attacks it and the other defends it), and the plan rules
//! (rulings HO5, HO8–HO12, [`settings`]) say what an order is aimed at and
//! how it is carried out: the reaction test still gives every order, and
//! each decision the plan shapes names the plan and the rule.
//!
//! The seed-000 engine keeps its own, richer opponent ([`crate::opponent`]);
//! this one does not play it. Pure: dice only from the roller passed in.

use super::{Action, Game};
use crate::battlefield::geometry::turn_between;
use crate::battlefield::{Base, Point};
use crate::dice::{Die, Roller};
use crate::reaction::{self, Options, Situation};
use crate::scenario::Area;
use crate::tables::{self, Order, Tables};
use crate::{acw, rv};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub mod dice;
pub mod settings;

pub use settings::{HostRules, RULE_NAMES, Rule, RulesOn, SETTINGS_FILE, Settings};

/// Bearings off the straight line a unit tries when it moves, degrees.
const FAN_DEGREES: [f64; 5] = [0.0, -30.0, 30.0, -60.0, 60.0];

/// Bearings a seed-002 unit tries when it looks for a place to fire from
/// (HO12): sideways too, along the crest.
const SHOT_FAN_DEGREES: [f64; 7] = [0.0, -30.0, 30.0, -60.0, 60.0, -90.0, 90.0];

/// Shares of its allowance a unit tries to move.
const SHARES: [f64; 4] = [1.0, 0.75, 0.5, 0.25];

/// What a side is for (rulings HO8–HO10): taken from the game, since the
/// engines know who attacks (seed 001's attacker, seed 002's side that
/// must hold an area).
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// Break the enemy army, or take the named area (its name and
    /// rectangle).
    Attack(Option<Area>),
    /// Hold, and deny the named area if there is one.
    Defend(Option<Area>),
    /// Neither: pure Lone Warrior.
    Free,
}

impl Role {
    fn attacks(&self) -> bool {
        matches!(self, Role::Attack(_))
    }

    fn defends(&self) -> bool {
        matches!(self, Role::Defend(_))
    }

    /// The plan in words, for `why`.
    pub fn words(&self) -> String {
        match self {
            Role::Attack(Some(area)) => format!("the plan is to take {}", area.name),
            Role::Attack(None) => "the plan is to break the enemy army".to_string(),
            Role::Defend(Some(area)) => format!("the plan is to hold {}", area.name),
            Role::Defend(None) => "the plan is to hold the field".to_string(),
            Role::Free => "no plan".to_string(),
        }
    }
}

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
    /// The plan rules on for this game.
    rules: RulesOn,
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
    /// Seed-001 commanders already handled in this phase.
    handled_commanders: BTreeSet<usize>,
    /// Seed 001: bases at the unit's last test.
    bases_at_test: BTreeMap<usize, u32>,
    /// Seed 002: sides whose dice are given out at random (the yardstick
    /// for the dice policy), not by [`dice::assign`].
    random_dice: Vec<usize>,
}

impl Opponent {
    /// An opponent with the Lone Warrior tables and their settings file
    /// ([`Settings::of`]). The plan rules are those on in the file and not
    /// switched off in `tables` (`--rule`, ruling HO8).
    ///
    /// The settings file must read: the command line checks it where it
    /// loads the tables (`cli::load_tables`), before any game starts.
    pub fn new(tables: Arc<Tables>) -> Opponent {
        let settings = Settings::of(&tables).unwrap_or_else(|problems| {
            panic!("the opponent's settings were not checked: {problems}")
        });
        let rules = settings.rules_on(&tables);
        Opponent {
            tables,
            settings,
            rules,
            decisions: Vec::new(),
            current: BTreeMap::new(),
            tested: BTreeSet::new(),
            phase_key: None,
            handled: BTreeSet::new(),
            handled_commanders: BTreeSet::new(),
            bases_at_test: BTreeMap::new(),
            random_dice: Vec::new(),
        }
    }

    /// This opponent, giving out `sides`' seed-002 activation dice at
    /// random ([`dice::random_assignment`], rolled on the game's
    /// roller) instead of by its policy: the yardstick for the policy.
    pub fn with_random_dice(mut self, sides: Vec<usize>) -> Opponent {
        self.random_dice = sides;
        self
    }

    /// This opponent with these plan rules on (tests and studies).
    pub fn with_rules(mut self, rules: RulesOn) -> Opponent {
        self.rules = rules;
        self
    }

    /// The plan rules on.
    pub fn rules(&self) -> RulesOn {
        self.rules
    }

    /// Every decision so far, oldest first.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The latest decision about unit `unit`.
    pub fn latest(&self, unit: usize) -> Option<&Decision> {
        self.decisions.iter().rev().find(|d| d.unit == unit)
    }

    /// The Lone Warrior tables it reads.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The situation unit `unit`'s reaction test would read now (`what
    /// UNIT`): what the next test of it would see, or `None` for a unit
    /// without a class, out of play, or under seed 000 (whose own opponent
    /// answers there).
    pub fn situation(&self, game: &Game, unit: usize) -> Option<Situation> {
        match game {
            Game::Rv(state) => {
                if state.is_removed(unit) {
                    return None;
                }
                let bases = state.units().get(unit)?.bases;
                let before = self.bases_at_test.get(&unit).copied().unwrap_or(bases);
                let withdrew = self.current.get(&unit).is_some_and(|&i| {
                    matches!(
                        self.decisions[i].order(),
                        Order::Withdraw | Order::FireAndWithdraw | Order::Rout
                    )
                });
                self.rv_situation(state, unit, before, withdrew)
            }
            Game::Acw(state) => {
                let id = acw::UnitId(unit);
                if unit >= state.units.len() || state.removed(id) {
                    return None;
                }
                dice::situation(state, id, &self.tables)
            }
            Game::Awi(_) => None,
        }
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
            self.handled_commanders.clear();
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
        if state.phase().kind == rv::PhaseKind::Move && self.rules.general_leads {
            if let Some(action) = self.rv_commanders(state, side) {
                return action;
            }
        }
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
            let role = rv_role(state, side);
            if state.phase().kind == rv::PhaseKind::Move
                && self.rules.hold_the_line
                && role.defends()
                && matches!(self.order_of(unit), Order::AdvanceAndFire | Order::Charge)
            {
                self.did(
                    unit,
                    format!(
                        "kept its ground rather than advance: {} (rule hold-the-line)",
                        role.words()
                    ),
                );
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
        Some(Situation {
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

    /// Ruling HO11 (`general-leads`): each of `side`'s commanders not
    /// with a unit joins the unit he may lead that is nearest the enemy and
    /// has no commander, or rides towards it when it is beyond his move.
    /// One commander at a time; `None` once every one is handled.
    fn rv_commanders(&mut self, state: &rv::GameState, side: usize) -> Option<rv::Action> {
        let role = rv_role(state, side);
        for (index, commander) in state.commanders().iter().enumerate() {
            if commander.side != side
                || commander.lost
                || commander.acted
                || commander.attached.is_some()
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

    fn rv_enemy_distance(state: &rv::GameState, unit: usize) -> Option<f64> {
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

    fn rv_move(
        &self,
        state: &rv::GameState,
        unit: usize,
        legal: &[rv::Action],
    ) -> Option<(rv::Action, String)> {
        let mut order = self.order_of(unit);
        let side = state.units()[unit].side;
        let role = rv_role(state, side);
        let enemies = Self::rv_enemies(state, unit);
        let enemy = Self::rv_nearest(state, unit, &enemies)?;
        let mut note = String::new();
        let reach = Self::rv_reach(state, unit);
        let enemy_distance = state.footprint(unit).distance_to(&state.footprint(enemy));
        if self.rules.hold_the_line
            && role.defends()
            && matches!(order, Order::AdvanceAndFire | Order::Charge)
        {
            // Ruling HO9: the defender keeps its ground; a charge goes in
            // only in the charge phase, at an enemy in reach.
            order = Order::StandAndFire;
            note = format!(
                " ({}, so it keeps its ground: rule hold-the-line)",
                role.words()
            );
        } else if self.rules.close_to_range
            && order == Order::StandAndFire
            && role.attacks()
            && enemy_distance > reach
        {
            order = Order::AdvanceAndFire;
            note = format!(
                " (no enemy within its {reach}\" reach and {}: it closes, rule close-to-range)",
                role.words()
            );
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
                        "turned to face `{}` (bearing {facing:.0}){note}",
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
        let order = self.order_of(unit);
        let role = rv_role(state, state.units()[unit].side);
        // Ruling HO10: an attacker told to advance and fire that may charge
        // presses home.
        let pressing = self.rules.press_home
            && role.attacks()
            && matches!(order, Order::AdvanceAndFire | Order::StandAndFire);
        if order != Order::Charge && !pressing {
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
        let why = if order == Order::Charge {
            String::new()
        } else {
            format!(
                ": told to {}, it presses home, {} (rule press-home)",
                order.title().to_lowercase(),
                role.words()
            )
        };
        Some((
            rv::Action::Charge { unit, target },
            format!("charged `{}`{why}", state.units()[target].name),
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
                    for (id, outcome) in dice::reaction_orders(state, side, &self.tables, roller) {
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
        let Some(enemy) = state.nearest_enemy(unit) else {
            return (
                acw::Action::Hold { unit },
                "held: no enemy left".to_string(),
            );
        };
        let u = state.unit(unit);
        let role = acw_role(state, u.side);
        let plan = role.words();
        let here = state.position(unit);
        let nearest_of = |targets: Vec<acw::UnitId>| {
            targets.into_iter().min_by(|a, b| {
                let da = u.base.distance_to(&state.unit(*a).base);
                let db = u.base.distance_to(&state.unit(*b).base);
                da.total_cmp(&db).then(a.cmp(b))
            })
        };
        // The engine's own list checks a hundred moves; the opponent asks
        // only about the shots, charges and moves it would take.
        let enemies: Vec<acw::UnitId> = (0..state.units.len())
            .map(acw::UnitId)
            .filter(|e| state.unit(*e).side != u.side && !state.removed(*e))
            .collect();
        let lawful = |action: acw::Action| state.check(&action).is_ok();
        let fire_target = nearest_of(
            enemies
                .iter()
                .copied()
                .filter(|&target| lawful(acw::Action::Fire { unit, target }))
                .collect(),
        );
        let fire = fire_target.map(|target| {
            (
                acw::Action::Fire { unit, target },
                format!("fired at `{}`", state.unit(target).name),
            )
        });
        let charge_target = nearest_of(
            enemies
                .iter()
                .copied()
                .filter(|&target| lawful(acw::Action::Charge { unit, target }))
                .collect(),
        );
        let charge = |why: &str| {
            charge_target.map(|target| {
                (
                    acw::Action::Charge { unit, target },
                    format!("charged `{}`{why}", state.unit(target).name),
                )
            })
        };
        let range = state
            .table
            .weapon(u.troop, u.formation)
            .map_or(0.0, |w| w.range());
        // Where an advance goes (ruling HO8): an enemy in the way first
        // (in its frontal arc and within seed 000's `in_the_way`, PL2),
        // else an enemy standing in the objective area, else the area.
        let way = self.tables.opponent.rules.advance_on_objective.in_the_way;
        let in_the_way = (0..state.units.len())
            .map(acw::UnitId)
            .filter(|e| {
                let other = state.unit(*e);
                other.side != u.side
                    && !state.removed(*e)
                    && u.base.within(&other.base, way)
                    && u.base.in_frontal_arc(&other.base)
            })
            .min_by(|a, b| {
                let da = u.base.distance_to(&state.unit(*a).base);
                let db = u.base.distance_to(&state.unit(*b).base);
                da.total_cmp(&db).then(a.cmp(b))
            });
        let objective: Option<(Point, String)> = match (&role, self.rules.advance_on_objective) {
            (Role::Attack(Some(area)), true) => Some(match in_the_way {
                Some(e) => (
                    state.position(e),
                    format!("`{}`, in its way: {plan}", state.unit(e).name),
                ),
                None => {
                    let holders = (0..state.units.len())
                        .map(acw::UnitId)
                        .filter(|e| {
                            state.unit(*e).side != u.side
                                && !state.removed(*e)
                                && area.holds(&state.unit(*e).base)
                        })
                        .min_by(|a, b| {
                            here.distance(state.position(*a))
                                .total_cmp(&here.distance(state.position(*b)))
                                .then(a.cmp(b))
                        });
                    match holders {
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
                    }
                }
            }),
            _ => None,
        };
        let advance = || -> Option<(acw::Action, String)> {
            let (goal, words, rule) = match &objective {
                Some((goal, words)) => (*goal, words.clone(), " (rule advance-on-objective)"),
                None => (
                    state.position(enemy),
                    format!("`{}`", state.unit(enemy).name),
                    "",
                ),
            };
            // Holding the area with no enemy in it or in the way, it stays.
            if let Role::Attack(Some(area)) = &role
                && self.rules.advance_on_objective
                && area.holds(&u.base)
                && objective
                    .as_ref()
                    .is_some_and(|(_, w)| w.starts_with(area.name.as_str()))
            {
                return None;
            }
            Self::acw_move_towards(state, unit, goal).map(|(a, to)| {
                (
                    a,
                    format!("advanced {:.1}\" on {words}{rule}", here.distance(to)),
                )
            })
        };
        let fall_back = || -> Option<(acw::Action, String)> {
            let target = state.position(enemy);
            let now = here.distance(target);
            let away = here + (here - target) * (12.0 / now.max(1e-6));
            Self::acw_moves(state, unit, away, &FAN_DEGREES)
                .into_iter()
                .filter(|(_, to)| to.distance(target) > now + 0.25)
                .max_by(|a, b| a.1.distance(target).total_cmp(&b.1.distance(target)))
                .map(|(a, to)| {
                    (
                        a,
                        format!(
                            "fell back {:.1}\" from `{}`",
                            here.distance(to),
                            state.unit(enemy).name
                        ),
                    )
                })
        };
        // Ruling HO12: no shot for want of sight or arc at an enemy within
        // reach; a unit holding its ground only turns, or shifts within the
        // area it holds.
        let find_a_shot = || -> Option<(acw::Action, String)> {
            if !self.rules.find_a_shot || range <= 0.0 || fire.is_some() {
                return None;
            }
            let holding = (self.rules.hold_the_line && role.defends()).then_some(match &role {
                Role::Defend(area) => area.as_ref(),
                _ => None,
            });
            Self::acw_firing_place(
                state,
                unit,
                range,
                objective.as_ref().map(|o| o.0),
                holding,
            )
                .map(|(a, to, target)| {
                    (
                        a,
                        format!(
                            "moved {:.1}\" to where it can fire at `{}`, which it could not see or had off its front (rule find-a-shot)",
                            here.distance(to),
                            state.unit(target).name
                        ),
                    )
                })
        };
        let holding = self.rules.hold_the_line
            && role.defends()
            && matches!(order, Order::AdvanceAndFire | Order::Charge);
        let hold = || {
            let what = if holding {
                format!("held its ground rather than advance: {plan} (rule hold-the-line)")
            } else {
                "held its ground".to_string()
            };
            (acw::Action::Hold { unit }, what)
        };
        let out_of_reach = u.base.distance_to(&state.unit(enemy).base) > range;
        let chosen = match order {
            Order::Charge => charge("").or_else(|| {
                if self.rules.hold_the_line && role.defends() {
                    fire.clone()
                        .map(|(a, w)| (a, format!("{w} (no charge in reach; {plan}, so it keeps its ground: rule hold-the-line)")))
                        .or_else(find_a_shot)
                } else {
                    advance().or(fire.clone())
                }
            }),
            Order::AdvanceAndFire => {
                let pressing = self.rules.press_home && role.attacks();
                let pressed = if pressing {
                    charge(&format!(": told to advance, it presses home, {plan} (rule press-home)"))
                } else {
                    None
                };
                pressed.or_else(|| fire.clone()).or_else(|| {
                    if self.rules.hold_the_line && role.defends() {
                        find_a_shot()
                    } else {
                        advance().or_else(find_a_shot)
                    }
                })
            }
            Order::StandAndFire if self.rules.press_home && role.attacks() && charge_target.is_some() => {
                charge(&format!(
                    ": told to stand and fire, it presses home, {plan} (rule press-home)"
                ))
            }
            Order::StandAndFire => fire.clone().or_else(|| {
                let closing = self.rules.close_to_range && role.attacks() && out_of_reach;
                if closing {
                    advance()
                        .map(|(a, what)| {
                            (
                                a,
                                format!("{what} (no enemy within its {range}\" reach: it closes, rule close-to-range)"),
                            )
                        })
                        .or_else(find_a_shot)
                } else {
                    find_a_shot()
                }
            }),
            Order::FireAndWithdraw => fire.clone().or_else(fall_back),
            Order::Withdraw | Order::Rout => fall_back(),
        };
        chosen.unwrap_or_else(hold)
    }

    /// Moves for `unit` that keep its formation, on `fan` bearings off the
    /// straight line to `goal` at four lengths, each facing the way it goes
    /// or the nearest enemy from where it ends, and the turn in place to
    /// face the nearest enemy; all checked by the rules.
    fn acw_moves(
        state: &acw::GameState,
        unit: acw::UnitId,
        goal: Point,
        fan: &[f64],
    ) -> Vec<(acw::Action, Point)> {
        let u = state.unit(unit);
        let here = state.position(unit);
        let round = |value: f64| (value * 100.0).round() / 100.0;
        let mut moves = Vec::new();
        let mut push = |to: Point, facing: f64| {
            let action = acw::Action::Move {
                unit,
                formation: None,
                to,
                facing: round(crate::battlefield::geometry::normalise_degrees(facing)),
            };
            if !moves.iter().any(|(a, _)| *a == action) && state.check(&action).is_ok() {
                moves.push((action, to));
            }
        };
        if let Some(enemy) = state.nearest_enemy(unit) {
            push(here, (state.position(enemy) - here).bearing());
        }
        let allowance = state.table.move_of(u.troop, u.formation).unwrap_or(0.0);
        if allowance <= 0.0 || here.distance(goal) < 1e-6 {
            return moves;
        }
        let bearing = (goal - here).bearing();
        for offset in fan {
            for share in SHARES {
                let step = (allowance * share).min(here.distance(goal));
                let to = here
                    + crate::battlefield::geometry::Vector::from_bearing(bearing + offset) * step;
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

    /// The lawful move that brings `unit` nearest `goal`, if any brings it
    /// nearer.
    fn acw_move_towards(
        state: &acw::GameState,
        unit: acw::UnitId,
        goal: Point,
    ) -> Option<(acw::Action, Point)> {
        let here = state.position(unit);
        let now = here.distance(goal);
        Self::acw_moves(state, unit, goal, &FAN_DEGREES)
            .into_iter()
            .filter(|(_, to)| to.distance(goal) < now - 0.25)
            .min_by(|a, b| a.1.distance(goal).total_cmp(&b.1.distance(goal)))
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
        let mut best: Option<(f64, acw::Action, Point, acw::UnitId)> = None;
        for (action, to) in Self::acw_moves(state, unit, aim, &SHOT_FAN_DEGREES) {
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

#[cfg(test)]
mod tests;
