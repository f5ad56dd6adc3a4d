//! The carrying-out of an order as candidate actions: each plan rule
//! (`tables/opponent.yaml`) that can take a hand in a unit's move, and the
//! order's own instruction (`tables/orders.yaml`), is a candidate that
//! says whether it applies to the unit here and, when it does, what the
//! unit does and why. They are tried in one fixed order ([`CANDIDATES`]),
//! over a [`Context`] worked out once beforehand; the decision names the
//! one that acted ([`Decision::by`]).

use super::super::plan::Objectived;
use super::super::read::{Measured, NEAR};
use super::super::{Decision, ORDER, Opponent, TurnReport};
use super::{Facing, Goal, Ranked, any_shot_open, bearing, lawful, reach, surely_beyond_charge};
use crate::battlefield::geometry::turn_between;
use crate::battlefield::{Base, Point};
use crate::dice::Roller;
use crate::rules::{Action, GameState, UnitId};
use crate::tables::{ClassKind, Column, Fire, Instruction, Order, Towards};
use Stage::{Standing, Variant};

/// What the variant's instruction asks of the unit's feet: it decides
/// which of the candidates that answer the variant may apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// No move, or a move towards nothing.
    Still,
    /// A charge at the enemy.
    Charge,
    /// An advance towards the enemy or the front.
    Advance,
    /// Up to a friend ahead.
    Friend,
    /// To the nearest cover.
    Cover,
    /// To its own rear.
    Rear,
}

/// When a candidate is tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// It answers the variant: once one of these applies, the others of
    /// this stage are passed over.
    Variant,
    /// It stirs a unit the variant left standing, with no move to make and
    /// no action sent: tried only while no candidate has acted.
    Standing,
}

/// The rules engine a candidate acts through: the game, the dice and the
/// turn's report.
pub(super) struct Engine<'a> {
    /// The game.
    pub(super) state: &'a mut GameState,
    /// The dice.
    pub(super) roller: &'a mut dyn Roller,
    /// The turn's report.
    pub(super) report: &'a mut TurnReport,
}

/// A candidate's trial: whether it applies; if it does, it has done what
/// it would (sent the unit's action, or set its goal) and said why in the
/// [`Progress`]'s plan.
type Trial = fn(&mut Opponent, &mut Engine<'_>, &Context, &mut Progress) -> bool;

/// One candidate action.
pub(super) struct Candidate {
    /// Whom it speaks for: a plan rule's name (`tables/opponent.yaml`), or
    /// [`ORDER`] for the order's own instruction.
    pub(super) name: &'static str,
    /// When it is tried.
    stage: Stage,
    /// Its trial.
    trial: Trial,
}

/// The candidates in the order they are tried. Those of the variant stage
/// come first, in the order the variant's own instruction is read: the
/// first of them that applies answers it. A candidate that acts (sends an
/// action or sets a goal) ends the trying; one that applies and leaves the
/// unit standing lets the standing-stage candidates after it try to stir
/// it, and the last that applied is named.
pub(super) const CANDIDATES: &[Candidate] = &[
    // The order moves it not at all.
    candidate(ORDER, Variant, Opponent::still),
    // A charge.
    candidate(ORDER, Variant, Opponent::charge),
    candidate("cavalry-reserve", Variant, Opponent::reserve_uncharged),
    candidate("hold-the-line", Variant, Opponent::hold_uncharged),
    candidate("stand-off", Variant, Opponent::stand_off),
    candidate(
        "counter-attack",
        Variant,
        Opponent::counter_attack_uncharged,
    ),
    candidate(ORDER, Variant, Opponent::advance_uncharged),
    // An advance.
    candidate("press-home", Variant, Opponent::press_home_advancing),
    candidate("cavalry-reserve", Variant, Opponent::reserve_advancing),
    candidate("hold-the-line", Variant, Opponent::hold_advancing),
    candidate(ORDER, Variant, Opponent::fire_now),
    candidate(
        "counter-attack",
        Variant,
        Opponent::counter_attack_advancing,
    ),
    candidate(
        "advance-on-objective",
        Variant,
        Opponent::advance_on_objective,
    ),
    candidate(ORDER, Variant, Opponent::advance),
    // Up to a friend.
    candidate(ORDER, Variant, Opponent::up_to_friend),
    candidate("hold-the-line", Variant, Opponent::hold_behind_friend),
    // To cover.
    candidate(ORDER, Variant, Opponent::in_cover),
    candidate("fall-back", Variant, Opponent::fall_back_to_cover),
    candidate(ORDER, Variant, Opponent::withdraw_to_cover),
    // To the rear.
    candidate(ORDER, Variant, Opponent::rout),
    candidate("fall-back", Variant, Opponent::fall_back_to_rear),
    candidate(ORDER, Variant, Opponent::go_to_rear),
    // A unit left standing.
    candidate("press-home", Standing, Opponent::press_home_standing),
    candidate("counter-attack", Standing, Opponent::counter_attack_closing),
    candidate("close-to-range", Standing, Opponent::close_to_range),
    candidate(ORDER, Standing, Opponent::face_the_enemy),
];

/// A candidate named `name`, tried at `stage` by `trial`.
const fn candidate(name: &'static str, stage: Stage, trial: Trial) -> Candidate {
    Candidate { name, stage, trial }
}

/// A move's goal: where, how many inches, facing how, and in words.
pub(super) type GoalMove = (Goal, f64, Facing, String);

/// What every candidate reads, worked out once before any is tried.
pub(super) struct Context {
    /// The unit carrying out its order.
    pub(super) id: UnitId,
    /// Its base when the order came (it may move as a candidate acts).
    pub(super) base: Base,
    /// The order.
    pub(super) order: Order,
    /// The variant's instruction.
    pub(super) instruction: Instruction,
    /// What the instruction asks of the unit's feet.
    pub(super) shape: Shape,
    /// The unit's move allowance.
    pub(super) allowance: f64,
    /// The inches its order moves it, at most a full move (ruling O9).
    pub(super) inches: f64,
    /// Whether it holds its line (rulings PL5 and PL7).
    pub(super) hold: bool,
    /// Its line, by index and name, if it is in one.
    pub(super) line: Option<(usize, String)>,
    /// Why it counter-attacks, when a line in front of its own gives way
    /// (ruling PL7).
    pub(super) counter_attack: Option<String>,
    /// Whether it is an attacker's cavalry reserve (ruling PL9).
    pub(super) reserve: bool,
    /// What its attack heads for (ruling PL2).
    pub(super) objective: Option<Objectived>,
    /// The reading's enemies, one bit each by unit index.
    pub(super) enemies: Vec<u64>,
    /// The nearest enemy.
    pub(super) first: Option<(UnitId, f64)>,
    /// The nearest enemy in its frontal arc near enough to stand in the way
    /// of its advance on the objective.
    pub(super) blocking: Option<(UnitId, f64)>,
    /// Where a unit of a fallen line falls back to, and its name (PL6).
    pub(super) fall_back: Option<(Point, String)>,
    /// Where an advance heads: the goal, the point it faces, and why.
    pub(super) heading: Option<(Goal, Point, String)>,
}

/// What the candidates have decided so far.
pub(super) struct Progress {
    /// The decision being made.
    pub(super) decision: Decision,
    /// The enemies ranked by the targeting rule, ranked further as asked.
    pub(super) ranked: Ranked,
    /// The plan's parts, in words.
    pub(super) plan: Vec<String>,
    /// The move to make, if any.
    pub(super) goal: Option<GoalMove>,
    /// Whether it would fire in the Shooting phase.
    pub(super) wants_fire: bool,
    /// Whether the goal is the cavalry reserve's place behind the line
    /// (PL9), where it would rather be, not where it is ordered.
    pub(super) waiting: bool,
}

impl Context {
    /// The context of `id` carrying out `outcome`'s order, with the enemies
    /// its reading `measured`, and those enemies ranked by the targeting
    /// rule as far as the context asked.
    pub(super) fn new(
        opponent: &Opponent,
        state: &GameState,
        id: UnitId,
        kind: Option<ClassKind>,
        measured: Measured,
        outcome: &crate::reaction::Outcome,
    ) -> (Context, Ranked) {
        let (base, category) = (state.unit(id).base, state.unit(id).category);
        let instruction = outcome.instruction.clone();
        let order = outcome.order;
        let allowance = state.battlefield.ruleset.move_inches[category.index()];
        // Ruling O9: shares of a move above the engine's allowance (double
        // time) are capped at a full move.
        let inches = outcome.move_inches.min(allowance);
        // Rulings PL5 and PL7: a defending unit holds its line; the last
        // line goes forward once a line in front of it gives way.
        let hold = opponent.holds(id);
        let line = opponent.plan.line_of(id).map(|index| {
            let name = opponent.plan.lines[index].name.clone();
            (index, name)
        });
        // Ruling PL7: a released line counter-attacks: it moves up to
        // range as an attacker does (PL3).
        let counter_attack = line.as_ref().and_then(|(index, name)| {
            opponent.released(*index).then(|| {
                format!(
                    "a line in front of the {name} is giving way, so it goes forward to meet the enemy (plan: defend; rule counter-attack)"
                )
            })
        });
        // Ruling PL9: an attacker's cavalry is its reserve.
        let reserve = kind == Some(ClassKind::Cavalry) && opponent.rule("cavalry-reserve");
        // Ruling PL2: an attacker's advance goes for the objective unless an
        // enemy stands in its way.
        let objective = opponent.objective_target(state, id);
        // The enemies as the reading measured them: nothing has moved since.
        let mut ranked = Ranked::new(state, measured);
        let mut enemies = vec![0u64; state.units.len().div_ceil(64)];
        for e in ranked.ids() {
            enemies[e.0 / 64] |= 1 << (e.0 % 64);
        }
        // The advance target: nearest in the frontal arc, else nearest. Only
        // the first in the arc matters, so the arc test stops there.
        let first_in_arc = ranked.find(state, &opponent.memo, |e| {
            opponent.memo.in_frontal_arc(state, id, e)
        });
        let first = ranked.find(state, &opponent.memo, |_| true);
        let in_the_way = opponent
            .tables
            .opponent
            .rules
            .advance_on_objective
            .in_the_way;
        let blocking = first_in_arc.filter(|(_, distance)| *distance <= in_the_way + 1e-6);
        // Ruling PL6: a unit of a fallen line falls back behind the next
        // line, unless an enemy is close enough that seed 000 allows only a
        // move directly away from it.
        let enemy_close =
            first.is_some_and(|(_, distance)| distance <= state.rules.enemy_presence + 1e-6);
        let fall_back = if enemy_close {
            None
        } else {
            opponent.fall_back_point(state, id)
        };
        let heading = opponent.heading(state, id, first_in_arc, first, blocking, objective);
        let shape = match (instruction.moves.fraction() > 0.0, instruction.towards) {
            (false, _) | (true, None) => Shape::Still,
            (true, Some(Towards::Enemy)) if order == Order::Charge => Shape::Charge,
            (true, Some(Towards::Enemy | Towards::Front)) => Shape::Advance,
            (true, Some(Towards::Friend)) => Shape::Friend,
            (true, Some(Towards::Cover)) => Shape::Cover,
            (true, Some(Towards::Rear)) => Shape::Rear,
        };
        let context = Context {
            id,
            base,
            order,
            instruction,
            shape,
            allowance,
            inches,
            hold,
            line,
            counter_attack,
            reserve,
            objective,
            enemies,
            first,
            blocking,
            fall_back,
            heading,
        };
        (context, ranked)
    }

    /// Whether the unit at `index` is one of the reading's enemies.
    pub(super) fn among(&self, index: usize) -> bool {
        self.enemies[index / 64] & (1 << (index % 64)) != 0
    }

    /// The words for holding the line (ruling PL5), then `what` it does.
    fn holding(&self, what: &str) -> String {
        match &self.line {
            Some((_, name)) => {
                format!("the {name} holds its line (plan: defend; rule hold-the-line): {what}")
            }
            None => format!(
                "holds its position with the army (plan: defend; rule hold-the-line): {what}"
            ),
        }
    }

    /// Why it moves up to range: its counter-attack, or the plan's rule
    /// close-to-range (ruling PL3).
    fn closing_note(&self, opponent: &Opponent) -> String {
        match &self.counter_attack {
            Some(note) => note.clone(),
            None => format!("plan: {}; rule close-to-range", opponent.plan.describe()),
        }
    }
}

/// The words for a unit of a fallen line falling back (ruling PL6).
fn falling_back(name: &str) -> String {
    format!("its line has fallen, so it falls back {name} (plan: defend; rule fall-back)")
}

impl Opponent {
    /// Try the [`CANDIDATES`] in order for the unit of `context`; the name
    /// of the one that acted, or [`ORDER`] when none applied (the unit
    /// carries out its instruction as far as it can).
    pub(super) fn try_candidates(
        &mut self,
        engine: &mut Engine<'_>,
        context: &Context,
        progress: &mut Progress,
    ) -> &'static str {
        let mut by = None;
        for candidate in CANDIDATES {
            if candidate.stage == Stage::Variant && by.is_some() {
                continue;
            }
            if (candidate.trial)(self, engine, context, progress) {
                by = Some(candidate.name);
                if progress.goal.is_some() || !progress.decision.actions.is_empty() {
                    break;
                }
            }
        }
        by.unwrap_or(ORDER)
    }

    /// Where an advance heads: the enemy in the way, else the objective
    /// (PL2), else the nearest enemy in the frontal arc, else the nearest
    /// (ruling O11); the goal, the point it faces, and why.
    fn heading(
        &self,
        state: &GameState,
        id: UnitId,
        first_in_arc: Option<(UnitId, f64)>,
        first: Option<(UnitId, f64)>,
        blocking: Option<(UnitId, f64)>,
        objective: Option<Objectived>,
    ) -> Option<(Goal, Point, String)> {
        let in_the_way = self.tables.opponent.rules.advance_on_objective.in_the_way;
        let any_in_arc = first_in_arc.is_some();
        let advance_target = first_in_arc.or(first);
        let target_reason = |(_, distance): (UnitId, f64), arc: bool| {
            format!(
                "nearest enemy{} ({:.1}\" away; ties go to the most hits, then the name)",
                if arc { " in its frontal arc" } else { "" },
                distance
            )
        };
        match (blocking, objective) {
            (None, Some(Objectived::Unit(unit))) => {
                let distance = self.memo.distance(state, id, unit);
                Some((
                    Goal::Enemy(unit),
                    state.unit(unit).base.centre,
                    format!(
                        "the objective: {} ({:.1}\" away; plan: {}, rule advance-on-objective; no enemy in its way within {}\")",
                        state.unit(unit).name,
                        distance,
                        self.plan.describe(),
                        in_the_way
                    ),
                ))
            }
            (None, Some(Objectived::Point(point))) => Some((
                Goal::Point(point),
                point,
                format!(
                    "the objective, {} ({point}; plan: {}, rule advance-on-objective)",
                    self.plan.objective.as_deref().unwrap_or("the area"),
                    self.plan.describe()
                ),
            )),
            _ => advance_target.map(|target| {
                let in_way = blocking.is_some() && objective.is_some();
                (
                    Goal::Enemy(target.0),
                    state.unit(target.0).base.centre,
                    if in_way {
                        format!(
                            "in its way to the objective: {}",
                            target_reason(target, any_in_arc)
                        )
                    } else {
                        target_reason(target, any_in_arc)
                    },
                )
            }),
        }
    }

    /// The order's instruction when it does not move the unit: its words;
    /// it stands, and fires if told to.
    fn still(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Still {
            return false;
        }
        p.plan.push(cx.instruction.does.to_string());
        true
    }

    /// The order's charge: the nearest enemy it may lawfully charge, within
    /// its line's reach if it holds one (PL5), only a wavering one if it is
    /// the cavalry reserve (PL9). It never fires; the first refusal is kept
    /// when no charge is made.
    fn charge(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Charge {
            return false;
        }
        let id = cx.id;
        let mut charged = false;
        let reach_limit = if cx.hold {
            self.tables.opponent.rules.hold_the_line.charge_within
        } else {
            f64::INFINITY
        };
        let mut first_refusal = None;
        let mut at = 0;
        loop {
            if at == p.ranked.list().len() {
                // Past the enemies ranked so far, the rest are
                // ranked only if one of them could be tried.
                if p.ranked.complete()
                    || reach_limit + 1e-6 < NEAR - 0.001
                    || (first_refusal.is_some()
                        && p.ranked
                            .unranked()
                            .all(|enemy| surely_beyond_charge(e.state, id, enemy)))
                {
                    break;
                }
                p.ranked.rank_all(e.state, &self.memo);
            }
            let (target, distance) = p.ranked.list()[at];
            at += 1;
            if distance > reach_limit + 1e-6 {
                continue;
            }
            if cx.reserve && !self.wavering(e.state, target) {
                continue;
            }
            // Once the first refusal is kept, only a yes or no is
            // wanted, and a charge surely out of reach is a no.
            if first_refusal.is_some() && surely_beyond_charge(e.state, id, target) {
                continue;
            }
            let action = Action::Charge { unit: id, target };
            if let Some(checked) = lawful(&self.probe, e.state, &action, &mut first_refusal) {
                p.decision.target = Some((
                    target,
                    format!("nearest enemy it may lawfully charge ({distance:.1}\" away)"),
                ));
                p.plan.push(format!(
                    "charges {} at full speed without firing",
                    e.state.unit(target).name
                ));
                let record = Some(p.decision.record());
                self.send_checked(e.state, e.roller, checked, e.report, record);
                charged = true;
                break;
            }
        }
        p.wants_fire = false;
        if !charged && let Some(refused) = first_refusal {
            p.decision.refused.push(refused);
        }
        charged
    }

    /// Ruling PL9: the cavalry reserve that found no wavering enemy to
    /// charge waits behind the front line.
    fn reserve_uncharged(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Charge || !cx.reserve {
            return false;
        }
        p.plan.push(format!(
            "the cavalry is the reserve and charges only an enemy that is wavering (half its strength gone, or falling back); none is in reach, so it waits (plan: {}; rule cavalry-reserve)",
            self.plan.describe()
        ));
        self.wait_in_reserve(e, cx, p, cx.allowance)
    }

    /// Ruling PL9: the reserve's goal, its post behind the front line
    /// within `inches`; it is waiting if it has one.
    fn wait_in_reserve(&self, e: &Engine<'_>, cx: &Context, p: &mut Progress, inches: f64) -> bool {
        p.goal = self.reserve_post(e.state, cx.id, inches, &mut p.plan);
        p.waiting = p.goal.is_some();
        true
    }

    /// Ruling PL5: a holding line charges only an enemy at the line;
    /// otherwise it stands and fires.
    fn hold_uncharged(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Charge || !cx.hold {
            return false;
        }
        p.plan.push(cx.holding(&format!(
            "it charges only an enemy within {}\" and none is, so it stands and fires",
            self.tables.opponent.rules.hold_the_line.charge_within
        )));
        p.wants_fire = true;
        true
    }

    /// Ruling PL13: where a unit that can charge from beyond musket range
    /// halts, the inches it moves, rather than stand a bound in the enemy's
    /// volleys; `None` when the rule does not apply.
    fn stand_off_halt(&self, state: &GameState, cx: &Context) -> Option<f64> {
        let musket = state.rules.musket.range;
        let beyond = self.tables.opponent.rules.stand_off.beyond_range;
        cx.first
            .map(|(_, distance)| distance - musket - beyond)
            .filter(|halt| {
                (0.0..cx.allowance).contains(halt)
                    && cx.allowance > musket + beyond + 1.0
                    && self.rule("stand-off")
            })
    }

    /// Ruling PL13 (`stand-off`): with no charge made, it advances only
    /// as far as beyond musket range, within a charge of the enemy.
    fn stand_off(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Charge || cx.heading.is_none() {
            return false;
        }
        let Some(halt) = self.stand_off_halt(e.state, cx) else {
            return false;
        };
        self.advance_instead(e.state, cx, p, Some(halt));
        true
    }

    /// Ruling PL7: a released line with no charge made goes forward all
    /// the same.
    fn counter_attack_uncharged(
        &mut self,
        e: &mut Engine<'_>,
        cx: &Context,
        p: &mut Progress,
    ) -> bool {
        if cx.shape != Shape::Charge || cx.heading.is_none() || cx.counter_attack.is_none() {
            return false;
        }
        self.advance_instead(e.state, cx, p, None);
        true
    }

    /// Ruling O10: no lawful charge (artillery, British light infantry at
    /// formed foot, nothing in reach): it advances at full speed towards
    /// the target.
    fn advance_uncharged(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Charge || cx.heading.is_none() {
            return false;
        }
        self.advance_instead(e.state, cx, p, None);
        true
    }

    /// A charge not made, it advances towards the heading: all the way
    /// (ruling O10), or to `halt` inches short of it (PL13).
    fn advance_instead(
        &mut self,
        state: &GameState,
        cx: &Context,
        p: &mut Progress,
        halt: Option<f64>,
    ) {
        let Some((target, at, why)) = cx.heading.clone() else {
            return;
        };
        let name = match target {
            Goal::Enemy(unit) => state.unit(unit).name.clone(),
            _ => self.plan.objective.clone().unwrap_or_default(),
        };
        p.plan.extend(cx.counter_attack.clone());
        if let Goal::Enemy(unit) = target {
            p.decision.target = Some((unit, why));
        }
        match halt {
            Some(halt) if halt < 0.25 => {
                p.plan.push(format!(
                    "no charge reaches {name} this bound; it waits beyond musket range, within a charge of it (rule stand-off)"
                ));
            }
            Some(halt) => {
                p.plan.push(format!(
                    "no charge reaches {name} this bound; it advances towards it, halting beyond musket range (rule stand-off)"
                ));
                p.goal = Some((target, halt, Facing::At(at), name));
            }
            None => {
                p.plan.push(format!(
                    "no lawful charge, so it advances at full speed towards {name} without firing (ruling O10)"
                ));
                p.goal = Some((target, cx.allowance, Facing::At(at), name));
            }
        }
    }

    /// Ruling PL11: an attacker told to advance presses home on an enemy
    /// in disorder within a move, or one it would strike double. (An
    /// advance fires a single volley at most, so it gives up no double
    /// volley: `has_a_shot` is false.)
    fn press_home_advancing(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        let pressed = cx.shape == Shape::Advance
            && cx.order == Order::AdvanceAndFire
            && !cx.hold
            && !cx.reserve
            && self.rule("press-home")
            && self.press_home(e, cx.id, cx.allowance, p, false);
        if pressed {
            p.wants_fire = false;
            p.decision.pressed_home = true;
        }
        pressed
    }

    /// Ruling PL9: the cavalry reserve told to advance waits behind the
    /// front line for an enemy to waver.
    fn reserve_advancing(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Advance || !cx.reserve {
            return false;
        }
        p.wants_fire = false;
        p.plan.push(format!(
            "the cavalry is the reserve: it waits for an enemy to waver before it charges (plan: {}; rule cavalry-reserve)",
            self.plan.describe()
        ));
        self.wait_in_reserve(e, cx, p, cx.inches)
    }

    /// Ruling PL5: a holding line told to advance does not; it stands and
    /// fires if it can.
    fn hold_advancing(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Advance || !cx.hold {
            return false;
        }
        p.plan
            .push(cx.holding("it does not advance; it stands and fires if it can"));
        p.wants_fire =
            cx.instruction.fire != Fire::None || p.decision.reading.situation.enemy_in_sight;
        true
    }

    /// Ruling O7: seed 000 forbids moving and shooting in one turn; a unit
    /// told to advance that can already shoot stands and fires.
    fn fire_now(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Advance
            || !(p.wants_fire && any_shot_open(e.state, &self.memo, cx.id, |i| cx.among(i)))
        {
            return false;
        }
        p.plan.push(format!(
            "{}; already in range, so it stands and fires (seed 000: no shooting after moving, ruling O7)",
            cx.instruction.does.trim_end_matches('.')
        ));
        true
    }

    /// Ruling PL7: a released line told to advance goes forward.
    fn counter_attack_advancing(
        &mut self,
        e: &mut Engine<'_>,
        cx: &Context,
        p: &mut Progress,
    ) -> bool {
        cx.counter_attack.is_some() && self.advance(e, cx, p)
    }

    /// Ruling PL2: an attacker told to advance goes for the objective when
    /// no enemy stands in its way.
    fn advance_on_objective(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        cx.objective.is_some() && cx.blocking.is_none() && self.advance(e, cx, p)
    }

    /// The order's advance towards the heading (ruling O11): the enemy, or
    /// the front.
    fn advance(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Advance {
            return false;
        }
        let Some((target, at, why)) = cx.heading.clone() else {
            return false;
        };
        p.wants_fire = false;
        p.plan.extend(cx.counter_attack.clone());
        p.plan.push(cx.instruction.does.to_string());
        let objective = cx.objective.is_some() && cx.blocking.is_none();
        if let Goal::Enemy(unit) = target {
            p.decision.target = Some((unit, why));
        }
        let name = if objective {
            format!(
                "the objective, {}",
                self.plan.objective.as_deref().unwrap_or("the enemy")
            )
        } else if cx.instruction.towards == Some(Towards::Front) {
            "the front (the nearest enemy)".to_string()
        } else {
            "the enemy".to_string()
        };
        p.goal = Some((target, cx.inches, Facing::At(at), name));
        true
    }

    /// The order's move up to a friend: it joins the friend's melee, or
    /// supports it from 6" behind (a holding line does neither).
    fn up_to_friend(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Friend {
            return false;
        }
        let id = cx.id;
        p.wants_fire = false;
        let friend = p.decision.reading.friend_ahead;
        if let Some(enemy) = p.decision.reading.friend_enemy {
            let action = Action::Charge {
                unit: id,
                target: enemy,
            };
            p.decision.target = Some((enemy, "the enemy its friend is fighting".into()));
            let joined = !cx.hold
                && self.send(
                    e.state,
                    e.roller,
                    action,
                    e.report,
                    Some(p.decision.record()),
                );
            if joined {
                p.plan.push("joins the friendly unit's melee".into());
                return true;
            }
        }
        if cx.hold {
            return false;
        }
        let Some(friend) = friend else {
            return false;
        };
        let friend_base = e.state.unit(friend).base;
        let away = cx.base.centre - friend_base.centre;
        let length = away.length().max(1e-6);
        let behind = self.tables.orders.support_behind;
        let spot = friend_base.centre + away * (behind / length);
        let friend_name = e.state.unit(friend).name.clone();
        if cx.base.centre.distance(spot) > 0.5 {
            let behind = crate::battlefield::geometry::inches(behind);
            p.plan.push(format!(
                "supports {friend_name}, halting {behind} to its rear"
            ));
            let facing = Facing::At(friend_base.centre);
            p.goal = Some((
                Goal::Point(spot),
                cx.inches,
                facing,
                format!("{behind} behind {friend_name}"),
            ));
        } else {
            p.plan.push(format!("already supports {friend_name}"));
        }
        true
    }

    /// Ruling PL5: a holding line (or a unit with no friend to go to) does
    /// not move up behind its friend.
    fn hold_behind_friend(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Friend {
            return false;
        }
        p.plan
            .push(cx.holding("it does not move up behind its friend"));
        true
    }

    /// Ruling O8: a unit told to withdraw to cover that is already in cover
    /// is where it would withdraw to; it stays and fires its single volley.
    fn in_cover(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Cover
            || !matches!(p.decision.reading.ground, Column::Natural | Column::Hard)
        {
            return false;
        }
        p.plan.push(format!(
            "{}; already in cover, so it stays where it is{} (ruling O8)",
            cx.instruction.does.trim_end_matches('.'),
            if p.wants_fire { " and fires" } else { "" }
        ));
        true
    }

    /// The words of a move to cover: it moves, so it does not fire (ruling
    /// O8).
    fn moving_to_cover(cx: &Context, p: &mut Progress) {
        p.plan.push(format!(
            "{}; it moves, so it does not fire (seed 000, ruling O8)",
            cx.instruction.does.trim_end_matches('.')
        ));
        p.wants_fire = false;
    }

    /// Ruling PL6: a unit of a fallen line told to withdraw to cover falls
    /// back behind the next line instead.
    fn fall_back_to_cover(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Cover {
            return false;
        }
        let Some((point, name)) = cx.fall_back.clone() else {
            return false;
        };
        Self::moving_to_cover(cx, p);
        p.plan.push(falling_back(&name));
        p.goal = Some((Goal::Point(point), cx.inches, Facing::Keep, name));
        true
    }

    /// The order's withdrawal to the nearest cover (ruling O8).
    fn withdraw_to_cover(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Cover {
            return false;
        }
        Self::moving_to_cover(cx, p);
        p.goal = Some((
            Goal::Cover,
            cx.inches,
            Facing::Keep,
            "the nearest cover".into(),
        ));
        true
    }

    /// Ruling O12: a unit that routs is routed, gone from the table and
    /// lost to its army at once (as the companion takes it out of the list,
    /// C8). Only a rule set whose Movement phase has no `rout` action makes
    /// it run for its edge (the candidates after this one).
    fn rout(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Rear {
            return false;
        }
        p.wants_fire = false;
        p.plan.push(cx.instruction.does.to_string());
        let routed = cx.order == Order::Rout
            && self.send(
                e.state,
                e.roller,
                Action::Rout { unit: cx.id },
                e.report,
                Some(p.decision.record()),
            );
        if routed {
            p.plan
                .push("it leaves the table, routed: lost to its army from now (ruling O12)".into());
            p.decision.withdrew = true;
        }
        routed
    }

    /// How a unit going to its rear faces at the end: the way it went if it
    /// routs, else unchanged (falling back facing the enemy).
    fn rear_facing(cx: &Context) -> Facing {
        if cx.order == Order::Rout {
            Facing::Travel
        } else {
            Facing::Keep
        }
    }

    /// Ruling PL6: a unit of a fallen line told to go to its rear falls
    /// back behind the next line.
    fn fall_back_to_rear(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Rear {
            return false;
        }
        let Some((point, name)) = cx.fall_back.clone() else {
            return false;
        };
        p.plan.push(falling_back(&name));
        p.goal = Some((Goal::Point(point), cx.inches, Self::rear_facing(cx), name));
        true
    }

    /// The order's move to the rear: towards its own table edge.
    fn go_to_rear(&mut self, _: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        if cx.shape != Shape::Rear {
            return false;
        }
        p.goal = Some((
            Goal::Rear,
            cx.inches,
            Self::rear_facing(cx),
            "its own table edge".into(),
        ));
        true
    }

    /// Ruling PL11 too: an attacker told to stand and fire presses home on
    /// an enemy within a move that it would strike double, and, when it
    /// has no shot and would stand idle, on one in disorder.
    fn press_home_standing(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        let pressed = cx.order == Order::StandAndFire
            && !cx.hold
            && !cx.reserve
            && self.rule("press-home")
            && {
                let has_a_shot = any_shot_open(e.state, &self.memo, cx.id, |i| cx.among(i));
                self.press_home(e, cx.id, cx.allowance, p, has_a_shot)
            };
        if pressed {
            p.wants_fire = false;
            p.decision.pressed_home = true;
        }
        pressed
    }

    /// Ruling PL7 with PL3: a released line standing with nobody in reach
    /// moves up to range as an attacker does.
    fn counter_attack_closing(
        &mut self,
        e: &mut Engine<'_>,
        cx: &Context,
        p: &mut Progress,
    ) -> bool {
        cx.counter_attack.is_some() && self.close_in(e.state, cx, p)
    }

    /// Ruling PL3 (`close-to-range`): an attacker standing with nobody in
    /// reach moves up to its weapon's range.
    fn close_to_range(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        cx.counter_attack.is_none() && self.rule("close-to-range") && self.close_in(e.state, cx, p)
    }

    /// Ruling PL3: an attacker told to stand and fire with nobody in
    /// reach, but an enemy in sight, moves up to its weapon's range, or on
    /// towards an objective that is ground to take; with no enemy in sight
    /// it marches on ([`Opponent::march_unseen`]). Whether it moves.
    fn close_in(&mut self, state: &GameState, cx: &Context, p: &mut Progress) -> bool {
        let id = cx.id;
        let in_sight = p.decision.reading.situation.enemy_in_sight;
        let idle = p.wants_fire && cx.instruction.moves.fraction() == 0.0 && in_sight;
        if idle
            && reach(state, id).is_some()
            && !any_shot_open(state, &self.memo, id, |i| cx.among(i))
            && let Some((Goal::Point(point), at, _)) = cx.heading.clone()
        {
            // The objective is ground to take: it goes on towards it.
            p.plan.push(format!(
                "nobody in reach, so it moves on towards the objective, {} ({})",
                self.plan.objective.as_deref().unwrap_or("the area"),
                cx.closing_note(self)
            ));
            p.wants_fire = false;
            p.goal = Some((
                Goal::Point(point),
                cx.allowance,
                Facing::At(at),
                "the objective".into(),
            ));
            return true;
        }
        if idle
            && let Some(reach) = reach(state, id)
            && !any_shot_open(state, &self.memo, id, |i| cx.among(i))
            && let Some((Goal::Enemy(target), at, why)) = cx.heading.clone()
        {
            return self.close_on(state, cx, p, (target, at, why), reach);
        }
        self.march_unseen(state, cx, p)
    }

    /// Ruling PL3: moving up to `reach`, its weapon's range, of `target`
    /// (facing `at`, aimed at for `why`) when it is out of reach, or
    /// closing in on it when it is in reach but out of sight. Whether it
    /// moves.
    fn close_on(
        &mut self,
        state: &GameState,
        cx: &Context,
        p: &mut Progress,
        (target, at, why): (UnitId, Point, String),
        reach: f64,
    ) -> bool {
        let distance = self.memo.distance(state, cx.id, target);
        let stop = (reach - self.tables.opponent.rules.close_to_range.inside_range).max(0.0);
        if distance > reach + 1e-6 {
            let why_move = cx.closing_note(self);
            p.plan.push(format!(
                "nobody in reach ({} is {distance:.1}\" away; it shoots to {reach}\"), so it moves up to {stop}\" of it ({why_move})",
                state.unit(target).name,
            ));
            p.decision.target = Some((target, why));
            p.wants_fire = false;
            p.goal = Some((
                Goal::Within(target, stop),
                cx.allowance,
                Facing::At(at),
                format!("{stop}\" of {}", state.unit(target).name),
            ));
            true
        } else if !state
            .battlefield
            .can_see(&cx.base, &state.unit(target).base)
        {
            // In reach but hidden (among trees, behind a crest): it
            // closes in until it sees what it is to shoot.
            let why_move = cx.closing_note(self);
            p.plan.push(format!(
                "{} is {distance:.1}\" away but out of sight, so it closes in ({why_move})",
                state.unit(target).name,
            ));
            p.decision.target = Some((target, why));
            p.wants_fire = false;
            p.goal = Some((
                Goal::Enemy(target),
                cx.allowance,
                Facing::At(at),
                state.unit(target).name.clone(),
            ));
            true
        } else {
            false
        }
    }

    /// Ruling PL3 too: an attacker told to stand and fire with no enemy in
    /// sight at all would stand fast (seed 004); it is out of musket range
    /// as surely as one that sees its enemy far off, so it marches on the
    /// objective instead. Whether it moves.
    fn march_unseen(&mut self, state: &GameState, cx: &Context, p: &mut Progress) -> bool {
        let id = cx.id;
        if !(cx.order == Order::StandAndFire
            && cx.instruction.moves.fraction() == 0.0
            && !p.decision.reading.situation.enemy_in_sight)
        {
            return false;
        }
        let Some((aim, at, why)) = cx.heading.clone() else {
            return false;
        };
        let aim = match aim {
            Goal::Enemy(target) => {
                // Not seen, so not in reach: it goes on until it is.
                let stop = reach(state, id).map_or(0.0, |reach| {
                    let stop = reach - self.tables.opponent.rules.close_to_range.inside_range;
                    if self.memo.distance(state, id, target) <= stop {
                        0.0
                    } else {
                        stop.max(0.0)
                    }
                });
                p.decision.target = Some((target, why));
                Goal::Within(target, stop)
            }
            aim => aim,
        };
        let name = match &aim {
            Goal::Within(target, _) => state.unit(*target).name.clone(),
            _ => self.plan.objective.clone().unwrap_or_default(),
        };
        let rule = cx.closing_note(self);
        // It does not stand fast: the plan overrides the variant.
        if p.plan
            .last()
            .is_some_and(|last| **last == *cx.instruction.does)
        {
            p.plan.pop();
        }
        p.plan.push(format!(
            "{}, but no enemy is in sight: rather than stand fast, it marches on towards {name} ({rule})",
            cx.order.title()
        ));
        p.wants_fire = false;
        p.goal = Some((aim, cx.allowance, Facing::At(at), name));
        true
    }

    /// Ruling O7: a unit to stand and fire with no target in its arc
    /// pivots to face the nearest enemy in reach; it then cannot fire.
    /// (The cheap conditions first; all must hold, in any order.)
    fn face_the_enemy(&mut self, e: &mut Engine<'_>, cx: &Context, p: &mut Progress) -> bool {
        let id = cx.id;
        let base = cx.base;
        if p.wants_fire
            && let Some(reach) = reach(e.state, id)
            && let Some((enemy, distance)) = cx.first
            && distance <= reach
            && !self.memo.in_frontal_arc(e.state, id, enemy)
            && !any_shot_open(e.state, &self.memo, id, |i| cx.among(i))
            && e.state
                .battlefield
                .can_see(&base, &e.state.unit(enemy).base)
        {
            let facing = bearing((e.state.unit(enemy).base.centre - base.centre).bearing());
            if turn_between(base.facing, facing) > 1.0 {
                let action = Action::Pivot { unit: id, facing };
                if self.send(
                    e.state,
                    e.roller,
                    action,
                    e.report,
                    Some(p.decision.record()),
                ) {
                    p.plan.push(format!(
                        "turns to face {}, so cannot fire this turn",
                        e.state.unit(enemy).name
                    ));
                    p.wants_fire = false;
                    return true;
                }
            }
        }
        false
    }
}
