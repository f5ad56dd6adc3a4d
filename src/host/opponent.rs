//! foe's Lone Warrior opponent, one module with a part for each engine:
//! seed 000's in [`awi`] (rulings O1–O18, PL1–PL13), whose sides are its
//! own commanders' ([`super::awi`]); and, in this file and its other
//! parts, the opponent of the seed-001 and seed-002 engines (rulings
//! HO2–HO13), described here. Every bound each of its units reads its
//! [`Situation`] off the game, takes the reaction test with the game's
//! roller, and carries out the *instruction* its order gives
//! (`tables/orders.yaml`, the order and the first variant whose conditions
//! hold): how far it moves and which way, the formation it ends in,
//! whether it fires, whether it routs. Every decision keeps its reasons
//! (factors, die, total, order, and what the unit did) for `why`.
//!
//! Every engine's units take their tests in the one loop,
//! `Opponent::test_units`: each engine's module only reads its units'
//! situations and hands them over, in order.
//!
//! Seed 001 (`rv_orders`): the units of a side are tested at the start of the
//! side's move phase (the side's bound); the instruction then says what
//! each does in its move, shoot and charge phases, and how it answers a
//! charge. Seed 002 (`acw_orders`): the units are tested when the side first
//! gives out its dice that turn; [`dice::assign`] gives the highest dice
//! to the most urgent units, and each unit acts on its order when its die
//! comes up. What an instruction asks, whatever the engine, is
//! [`carry`]'s.
//!
//! The opponent is shown every event of the game ([`Opponent::observe`]),
//! as seed 000's is, so it remembers what a player at the table would:
//! who fell back, who lost a melee, who withdrew.
//!
//! Each side has a plan taken from the game ([`Role`]: seed 001's attacker
//! attacks the army and its defender holds; seed 002's side that must hold
//! an area attacks it and the other defends it), and the plan rules
//! (rulings HO5, HO8–HO12, [`settings`]) say what an order is aimed at and
//! how it is carried out: the reaction test still gives every order, and
//! each decision the plan shapes names the plan and the rule.
//!
//! Each engine's adapter hands the runner's questions to its module here
//! through the commander boundary ([`super::command::Command`]). Seed
//! 000's part ([`awi`]) is richer and decides a side's turn a step at a
//! time on its own. Pure: dice only from the roller passed in.

use super::position::Trace;
use super::{Action, Event, Game};
use crate::battlefield::Point;
use crate::dice::{Die, Roller};
use crate::reaction::{self, Options, Situation};
use crate::scenario::{Area, Scenario};
use crate::tables::{Order, Tables, Towards};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

mod acw_orders;
pub mod awi;
mod candidates;
pub mod carry;
pub mod dice;
mod rv_generals;
mod rv_orders;
pub mod settings;

pub use crate::host::opponent::awi::ORDER;
pub use rv_generals::GeneralTest;

pub use settings::{RULE_NAMES, RulesOn, check_switches};

/// How near an enemy's move must end to one of a side's units, centre to
/// centre, to count as "enemy attacking within six inches" (seed 004).
const ATTACK_WITHIN: f64 = 6.0;

/// Bearings off the straight line a unit tries when it moves, degrees.
const FAN_DEGREES: [f64; 5] = [0.0, -30.0, 30.0, -60.0, 60.0];

/// Bearings a seed-002 unit tries when it looks for a place to fire from
/// (HO12): sideways too, along the crest.
const SHOT_FAN_DEGREES: [f64; 7] = [0.0, -30.0, 30.0, -60.0, 60.0, -90.0, 90.0];

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

pub use acw_orders::acw_role;
pub use rv_orders::rv_role;

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
    /// What it did on its order, in order, each with the candidate that
    /// carried it out.
    pub did: Vec<Did>,
    /// Each move it made on its order: where its centre was and where it
    /// ended (what `foe simulate` measures withdrawals by).
    pub moves: Vec<(Point, Point)>,
    /// Whether it stood in march column (or limbered) with an enemy in
    /// sight when it was tested.
    pub column_in_sight: bool,
    /// Whether it routed off the field on its order.
    pub routed: bool,
    /// Whether it was told to change formation and had no room to, here
    /// or within its move (ruling HO13).
    pub no_room: bool,
    /// The friend ahead, deployed to fire, it was approaching the rear of
    /// when it was tested (ruling O5): whom a support goes behind.
    pub friend: Option<usize>,
}

/// One thing a unit did on its order, and the candidate that carried it
/// out (the `candidates` module): the order's own instruction, or a plan rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Did {
    /// What it did, in words.
    pub what: String,
    /// Whom it was carried out by: a plan rule's name
    /// (`tables/opponent.yaml`), or [`ORDER`] for the order's own
    /// instruction.
    pub by: &'static str,
}

impl std::fmt::Display for Did {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl Decision {
    /// Its order (a unit without a test stands and fires).
    pub fn order(&self) -> Order {
        self.outcome
            .as_ref()
            .map_or(Order::StandAndFire, |outcome| outcome.order)
    }
}

/// A unit as its engine's reader hands it to the reaction-test loop
/// ([`Opponent::test_units`]).
struct Testee {
    /// Its index in the game.
    unit: usize,
    /// Its name, for the die's reason.
    name: String,
    /// What its test reads; `None` for a unit without a Lone Warrior class.
    situation: Option<Situation>,
    /// Whether it stands in march column (or limbered) with an enemy in
    /// sight.
    column_in_sight: bool,
}

/// The opponent commanding some sides of a game.
#[derive(Debug, Clone)]
pub struct Opponent {
    tables: Arc<Tables>,
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
    /// Losses at the unit's last test (seed 001: bases left; seed 002:
    /// hits taken).
    losses_at_test: BTreeMap<usize, u32>,
    /// Seed 002: sides whose dice are given out at random (the yardstick
    /// for the dice policy), not by [`dice::assign`].
    random_dice: Vec<usize>,
    /// Each side's rear: the bearing of its own table edge.
    rears: Vec<f64>,
    /// The turn each unit last withdrew in (moved back, or routed, on a
    /// withdrawing order): "withdrew in the last bound".
    withdrew: BTreeMap<usize, u32>,
    /// The turn each unit was last seen falling back (a retreat the rules
    /// made, or a withdrawal): "see enemy in retreat".
    fell_back: BTreeMap<usize, u32>,
    /// Seed 002: the turn each unit last lost a melee (a repulsed charger
    /// falls back).
    lost_melee: BTreeMap<usize, u32>,
    /// The game turn, as the events last said.
    turn: u32,
    /// Seed 001: each commander's character (`None`: to be rolled at his
    /// first test), in the engine's order of commanders.
    characters: Vec<Option<crate::tables::Character>>,
    /// Seed 001: every commander's reaction test, oldest first.
    general_tests: Vec<GeneralTest>,
    /// Seed 001: this bound's reactions, by commander: an index into
    /// `general_tests`.
    reactions: BTreeMap<usize, usize>,
    /// Seed 001: commanders who rode off the table for good (reaction E).
    gone: BTreeSet<usize>,
    /// The turn each side was last attacked: an enemy charged one of its
    /// units, or closed to within 6" of one (centre to centre).
    attacked: BTreeMap<usize, u32>,
    /// Each unit's character as the scenario gives it (seed 004's unit
    /// character for militia and provincials), by unit index: the
    /// scenario's units side by side, in order, as the engines number
    /// them.
    unit_characters: Vec<Option<crate::tables::Character>>,
}

impl Opponent {
    /// An opponent for games of `scenario`, with the Lone Warrior tables.
    /// The plan rules are those of `tables/opponent.yaml` on in `tables`
    /// (the file, less any switched off by `--rule`, ruling HO8). Each
    /// side's rear is its own table edge.
    pub fn new(tables: Arc<Tables>, scenario: &Scenario) -> Opponent {
        let rules = RulesOn::of(&tables.opponent.rules);
        Opponent {
            tables,
            rules,
            decisions: Vec::new(),
            current: BTreeMap::new(),
            tested: BTreeSet::new(),
            phase_key: None,
            handled: BTreeSet::new(),
            handled_commanders: BTreeSet::new(),
            losses_at_test: BTreeMap::new(),
            random_dice: Vec::new(),
            rears: scenario
                .sides
                .iter()
                .map(|side| side.edge.bearing())
                .collect(),
            withdrew: BTreeMap::new(),
            fell_back: BTreeMap::new(),
            lost_melee: BTreeMap::new(),
            turn: 0,
            characters: rv_generals::characters(scenario),
            general_tests: Vec::new(),
            reactions: BTreeMap::new(),
            gone: BTreeSet::new(),
            attacked: BTreeMap::new(),
            unit_characters: scenario
                .sides
                .iter()
                .flat_map(|side| side.units.iter().map(|unit| unit.character))
                .collect(),
        }
    }

    /// Unit `unit`'s character for its reaction test: the scenario's, for
    /// a class the chart rates (militia, provincials); none otherwise, as
    /// under seed 000 (ruling R9).
    fn unit_character(&self, unit: usize, class: &str) -> Option<crate::tables::Character> {
        let rated = self
            .tables
            .reaction
            .class(class)
            .is_ok_and(|(_, row)| row.rated);
        if rated {
            self.unit_characters.get(unit).copied().flatten()
        } else {
            None
        }
    }

    /// Every seed-001 commander's reaction test so far, oldest first.
    pub fn general_tests(&self) -> &[GeneralTest] {
        &self.general_tests
    }

    /// The bearing of `side`'s rear (its own table edge).
    pub fn rear(&self, side: usize) -> f64 {
        self.rears.get(side).copied().unwrap_or(0.0)
    }

    /// Show the opponent what an action did (every action of the game,
    /// the player's and foe's, in order): it remembers who fell back, and
    /// who lost a melee, as a player at the table would.
    pub fn observe(&mut self, game: &Game, events: &[Event]) {
        // The units as they stand after the action, read once and only if
        // a charge or a move asks.
        let mut units = None;
        for event in events {
            let facts = game.event_facts(event);
            if let Some(turn) = facts.turn_began {
                self.turn = turn;
            }
            match facts.trace {
                Some(Trace::Retreated { unit, .. }) => {
                    self.fell_back.insert(unit, self.turn);
                    // Seed 002's only retreat is a repulsed charger's: it
                    // lost the melee (seed 001's loser is the engine's
                    // reforming).
                    if game.retreat_loses_melee() {
                        self.lost_melee.insert(unit, self.turn);
                    }
                }
                Some(Trace::Charged { target, .. }) => {
                    let units = units.get_or_insert_with(|| game.units());
                    if let Some(side) = units.get(target).map(|u| u.side) {
                        self.attacked.insert(side, self.turn);
                    }
                }
                Some(Trace::Moved { unit, from, to }) => {
                    // A move that closes on an enemy and ends within 6" of
                    // it; one falling back is no attack.
                    let units = units.get_or_insert_with(|| game.units());
                    let Some(mover) = units.get(unit) else {
                        continue;
                    };
                    let within = units.iter().find(|other| {
                        other.side != mover.side
                            && !other.removed
                            && other.position.distance(to) <= ATTACK_WITHIN
                            && other.position.distance(to) < other.position.distance(from)
                    });
                    if let Some(other) = within {
                        self.attacked.insert(other.side, self.turn);
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether `unit` fell back in the last bound (this turn or the one
    /// before), as an enemy seeing it would judge.
    fn fell_back_lately(&self, unit: usize, turn: u32) -> bool {
        self.fell_back
            .get(&unit)
            .is_some_and(|&when| when.saturating_add(1) >= turn)
    }

    /// Whether `unit` withdrew in its last bound (the turn before `turn`).
    fn withdrew_last_bound(&self, unit: usize, turn: u32) -> bool {
        self.withdrew
            .get(&unit)
            .is_some_and(|&when| when.saturating_add(1) == turn)
    }

    /// Note that `unit` routed off the field on its order this turn.
    fn note_rout(&mut self, unit: usize, turn: u32) {
        if let Some(&i) = self.current.get(&unit) {
            self.decisions[i].routed = true;
        }
        self.note_withdrawal(unit, turn);
    }

    /// Note that `unit` withdrew (moved back or routed) this turn.
    fn note_withdrawal(&mut self, unit: usize, turn: u32) {
        self.withdrew.insert(unit, turn);
        self.fell_back.insert(unit, turn);
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
        game.foe_situation(self, unit)
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
        game.foe_next(self, side, roller)
    }

    /// The one reaction-test loop of every engine's units (rulings HO2,
    /// HO3, AC15): each of `units`, in the order its engine's reader hands
    /// them, whose situation the chart can test takes the test on a D6
    /// from `roller`, and its decision is recorded for the bound, the
    /// order and its variant from `tables/orders.yaml` to be carried out.
    /// A unit without a class, or one the chart refuses, stands untested.
    /// A unit whose instruction goes up to a friend remembers which
    /// (`friend_ahead`, ruling O5).
    fn test_units(
        &mut self,
        turn: u32,
        units: Vec<Testee>,
        friend_ahead: &dyn Fn(&Opponent, usize) -> Option<usize>,
        roller: &mut dyn Roller,
    ) {
        for testee in units {
            let outcome = testee
                .situation
                .filter(|s| reaction::modifiers(&self.tables, s, Options::default()).is_ok())
                .and_then(|situation| {
                    let die =
                        roller.roll_for(Die::D6, format_args!("{}'s reaction test", testee.name));
                    reaction::test(&self.tables, &situation, Options::default(), die).ok()
                });
            let friend = outcome
                .as_ref()
                .filter(|outcome| carry::heading(outcome) == Some(Towards::Friend))
                .and_then(|_| friend_ahead(self, testee.unit));
            self.record(Decision {
                unit: testee.unit,
                name: testee.name,
                turn,
                outcome,
                die: None,
                did: Vec::new(),
                moves: Vec::new(),
                column_in_sight: testee.column_in_sight,
                routed: false,
                no_room: false,
                friend,
            });
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

    /// This bound's reaction test of `unit`, if it took one.
    fn outcome_of(&self, unit: usize) -> Option<&reaction::Outcome> {
        self.current
            .get(&unit)
            .and_then(|&i| self.decisions[i].outcome.as_ref())
    }

    /// Note what `unit` did on its order, carried out `by` a candidate.
    fn did(&mut self, unit: usize, by: &'static str, what: String) {
        if let Some(&i) = self.current.get(&unit) {
            self.decisions[i].did.push(Did { what, by });
        }
    }

    /// Note that `unit` was told to change formation and had no room.
    fn no_room(&mut self, unit: usize) {
        if let Some(&i) = self.current.get(&unit) {
            self.decisions[i].no_room = true;
        }
    }

    /// Note a move `unit` made on its order; a withdrawing order's move is
    /// a withdrawal ("withdrew in the last bound").
    fn moved(&mut self, unit: usize, from: Point, to: Point, turn: u32) {
        if let Some(&i) = self.current.get(&unit) {
            self.decisions[i].moves.push((from, to));
            if carry::falls_back(self.decisions[i].order()) && from.distance(to) > 1e-6 {
                self.note_withdrawal(unit, turn);
            }
        }
    }
}

#[cfg(test)]
mod tests;
