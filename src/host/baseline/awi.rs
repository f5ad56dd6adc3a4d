//! The baseline's policy read under seed 000 (rulings B1–B8): what
//! [`super`] is for seeds 001 and 002, here with seed 000's reserves,
//! generals and defence lines.
//!
//! It is deliberately plain and takes no reaction test: each unit charges
//! a weakened enemy it may lawfully charge, else stands and fires if it can
//! shoot now, else advances on the nearest enemy to the edge of its weapon
//! range (guns and a defending side stay and turn to face instead); each
//! general rides to just behind his most damaged unit and rallies the
//! worst. The policy is ruled in `docs/rulings.md`, "Baseline" (B1…).
//!
//! Like the other engines' readings it decides one step at a time
//! ([`AwiBaseline::next`]: a unit's decision and the action carrying it
//! out, or the end of a phase); seed 000's commanders (`host::awi`) take
//! those steps as the runner asks ([`AwiBaseline::step`]; a whole turn is
//! [`AwiBaseline::play_turn`]) and keep the turn's [`BaselineReport`].
//!
//! Pure: no I/O, no clock, and no dice of its own. It decides from the
//! state alone, in a fixed order, so a seed replays a game exactly; the
//! engine rolls for its shots, melees and rallies with the [`Roller`]
//! passed in. Every action is checked by the engine before it is sent
//! (`GameState::checked`), so the baseline never sends a refused action;
//! what the engine refused while it looked for one is kept with the
//! decision.

#[cfg(test)]
mod tests;

use crate::dice::Roller;
use crate::host::opponent::awi::act::{Facing, Goal, reach, shot_open};
use crate::host::opponent::awi::{FieldCache, Opponent, turn_by_steps};
use crate::rules::{
    Action, Checked, Event, GameState, GeneralId, Phase, Refusal, UnitId, Volley, Weapon,
};
use crate::ruleset::Category;
use crate::scenario::{Plan, Scenario};
use crate::tables::Tables;
use std::collections::VecDeque;
use std::sync::Arc;

/// How far inside its weapon's range an advancing unit aims to stop, in
/// inches: a move towards an enemy's centre does not close the distance
/// between the bases quite inch for inch.
const RANGE_MARGIN: f64 = 0.5;

/// Ruling B6: a side defends when its scenario plan is `defend` or when
/// no victory condition is its to win.
pub fn defends(scenario: &Scenario, state: &GameState, side: usize) -> bool {
    let hold = scenario
        .sides
        .get(side)
        .is_some_and(|s| matches!(s.plan, Some(Plan::Defend(_))));
    hold || !state.victory.iter().any(|victory| victory.winner == side)
}

/// Whom a baseline decision is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commanded {
    /// A unit.
    Unit(UnitId),
    /// A general.
    General(GeneralId),
}

/// Which branch of the policy a decision took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// Charged a weakened enemy (ruling B2).
    Charge,
    /// Stood to fire (ruling B3).
    Stand,
    /// Advanced towards the nearest enemy (ruling B4).
    Advance,
    /// Turned to face an enemy in reach (ruling B5).
    Pivot,
    /// Stayed where it was (ruling B5, B6).
    Hold,
    /// A reserve came on (ruling B8).
    Enter,
    /// A general rode (ruling B7).
    Ride,
    /// A general rallied (ruling B7).
    Rally,
    /// Shot in the Shooting phase (ruling B3).
    Fire,
}

/// One decision of the baseline, with its reason in a line.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineDecision {
    /// The unit or general.
    pub who: Commanded,
    /// Its name.
    pub name: String,
    /// The branch of the policy taken.
    pub choice: Choice,
    /// Why, in one line (the policy's words, the enemy and the numbers).
    pub why: String,
    /// The enemy aimed at, if any.
    pub target: Option<UnitId>,
    /// Actions sent and accepted, in order.
    pub actions: Vec<Action>,
    /// Actions the engine refused when checked (never sent): the first
    /// refusal of each search.
    pub refused: Vec<(Action, Refusal)>,
    /// The events its actions caused.
    pub events: Vec<Event>,
}

impl BaselineDecision {
    /// A decision about `who`, named `name`, taking `choice`, its reason
    /// and actions still to come.
    fn new(who: Commanded, name: &str, choice: Choice) -> BaselineDecision {
        BaselineDecision {
            who,
            name: name.to_string(),
            choice,
            why: String::new(),
            target: None,
            actions: Vec::new(),
            refused: Vec::new(),
            events: Vec::new(),
        }
    }
}

/// Everything the baseline did in one player turn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BaselineReport {
    /// The side.
    pub side: usize,
    /// Game turn.
    pub turn: u32,
    /// Decisions in the order made: reserves, units and generals in the
    /// Movement phase, shots, rallies.
    pub decisions: Vec<BaselineDecision>,
    /// Every action sent and accepted, in order.
    pub actions: Vec<Action>,
    /// Every engine event, in order.
    pub events: Vec<Event>,
}

/// The seed-000 baseline commanding one side.
#[derive(Debug, Clone)]
pub struct AwiBaseline {
    side: usize,
    defending: bool,
    /// The opponent's movement and measuring code, borrowed for its
    /// lawful-move search (straight line, then a route's first leg, each
    /// shortened until the engine accepts it) and its remembered
    /// distances. It takes no reaction test here.
    mover: Opponent,
    /// The turn whose Movement phase has been begun.
    moved_turn: Option<u32>,
    /// The turn and phase `cursor` is in.
    phase_key: Option<(u32, Phase)>,
    /// Who in the phase is still to be seen to.
    cursor: Cursor,
}

/// Who in a phase is still to be seen to, in the policy's order.
#[derive(Debug, Clone, PartialEq)]
enum Cursor {
    /// The phase has not begun.
    Start,
    /// Movement: the reserves waiting off table (B8).
    Reserves(VecDeque<UnitId>),
    /// Movement: the units on the table (B2–B6).
    Units(VecDeque<UnitId>),
    /// Movement: the generals from this index on (B7).
    Riders(usize),
    /// Shooting: the units that may fire (B3).
    Shots(VecDeque<UnitId>),
    /// Rallying: the generals from this index on (B7).
    Rallies(usize),
    /// Everyone has been seen to: the phase ends.
    Done,
}

/// The baseline's next step in a side's turn ([`AwiBaseline::next`]).
#[derive(Debug, Clone)]
pub enum Step {
    /// A decision about a unit or general, and the action that carries it
    /// out (none: it stays, and the decision says why).
    Decided(Box<BaselineDecision>, Option<Checked>),
    /// Everyone in the phase has been seen to: end it.
    EndPhase,
}

impl AwiBaseline {
    /// A baseline for `side`, defending or not as the scenario says
    /// ([`defends`]).
    pub fn new(
        tables: Arc<Tables>,
        scenario: &Scenario,
        state: &GameState,
        side: usize,
        fields: &FieldCache,
    ) -> AwiBaseline {
        let mover = Opponent::new(tables, state, side)
            .with_scenario(scenario, state)
            .with_fields(fields);
        AwiBaseline::from_mover(mover, defends(scenario, state, side))
    }

    /// A baseline that moves and measures with `mover` (whose side it
    /// commands), defending or not.
    pub fn from_mover(mover: Opponent, defending: bool) -> AwiBaseline {
        AwiBaseline {
            side: mover.side(),
            defending,
            mover,
            moved_turn: None,
            phase_key: None,
            cursor: Cursor::Start,
        }
    }

    /// The side commanded.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Whether the side defends (ruling B6).
    pub fn defending(&self) -> bool {
        self.defending
    }

    /// Make the side defend or attack, whatever the scenario says.
    pub fn set_defending(&mut self, defending: bool) {
        self.defending = defending;
    }

    /// The helper whose remembered distances the other sides share.
    pub fn mover(&self) -> &Opponent {
        &self.mover
    }

    /// Play the side's whole player turn from the current phase through
    /// the end of its Rallying phase, a [`Step`] at a time. Never panics;
    /// never sends an action the engine has not accepted on checking.
    pub fn play_turn(&mut self, state: &mut GameState, roller: &mut dyn Roller) -> BaselineReport {
        let mut report = BaselineReport {
            side: self.side,
            turn: state.turn,
            ..BaselineReport::default()
        };
        let side = self.side;
        turn_by_steps(state, side, |state| self.step(state, roller, &mut report));
        report
    }

    /// The side's next step ([`AwiBaseline::next`]) carried out on `state`
    /// and recorded in `report`.
    pub fn step(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut BaselineReport,
    ) {
        match self.next(state) {
            Step::Decided(mut decision, action) => {
                if let Some(checked) = action {
                    send(state, roller, checked, report, &mut decision);
                }
                report.decisions.push(*decision);
            }
            Step::EndPhase => {
                // A refused end (never in a sound game) changes nothing.
                if let Ok(events) = state.apply(&Action::EndPhase, roller) {
                    report.actions.push(Action::EndPhase);
                    report.events.extend(events);
                }
            }
        }
    }

    /// The side's next step in `state`, whose active side it must be: in
    /// the Movement phase the reserves, each unit in unit order, then the
    /// generals; in the Shooting phase each unit that may fire; in the
    /// Rallying phase each general; then the end of the phase.
    pub fn next(&mut self, state: &GameState) -> Step {
        let key = (state.turn, state.phase());
        if self.phase_key != Some(key) {
            self.phase_key = Some(key);
            self.cursor = Cursor::Start;
        }
        loop {
            let cursor = std::mem::replace(&mut self.cursor, Cursor::Done);
            match cursor {
                Cursor::Start => self.cursor = self.begin(state),
                Cursor::Reserves(mut waiting) => {
                    if let Some(id) = waiting.pop_front() {
                        self.cursor = Cursor::Reserves(waiting);
                        let (decision, action) = self.reserve(state, id);
                        return Step::Decided(Box::new(decision), action);
                    }
                    self.cursor = Cursor::Units(state.active_units(self.side).collect());
                }
                Cursor::Units(mut own) => {
                    while let Some(id) = own.pop_front() {
                        if state.unit(id).is_active() && !state.unit(id).moved {
                            self.cursor = Cursor::Units(own);
                            let (decision, action) = self.unit(state, id);
                            return Step::Decided(Box::new(decision), action);
                        }
                    }
                    self.cursor = Cursor::Riders(0);
                }
                Cursor::Riders(from) => {
                    for index in from..state.generals.len() {
                        let general = &state.generals[index];
                        if general.side != self.side || general.moved {
                            continue;
                        }
                        if let Some((decision, action)) = self.ride(state, GeneralId(index)) {
                            self.cursor = Cursor::Riders(index + 1);
                            return Step::Decided(Box::new(decision), action);
                        }
                    }
                }
                Cursor::Shots(mut own) => {
                    while let Some(id) = own.pop_front() {
                        if let Some((decision, action)) = self.shot(state, id) {
                            self.cursor = Cursor::Shots(own);
                            return Step::Decided(Box::new(decision), Some(action));
                        }
                    }
                }
                Cursor::Rallies(from) => {
                    for index in from..state.generals.len() {
                        if let Some((decision, action)) = self.rally(state, GeneralId(index)) {
                            self.cursor = Cursor::Rallies(index + 1);
                            return Step::Decided(Box::new(decision), action);
                        }
                    }
                }
                Cursor::Done => return Step::EndPhase,
            }
        }
    }

    /// Where a phase begins: the Movement phase (once a turn) with the
    /// defence's lines brought up to date and the reserves waiting, the
    /// Shooting phase with the side's units, the Rallying phase with its
    /// generals; any other phase (or a Movement phase begun already) is
    /// the rules' alone and ends.
    fn begin(&mut self, state: &GameState) -> Cursor {
        match state.phase() {
            Phase::Movement if self.moved_turn != Some(state.turn) => {
                self.moved_turn = Some(state.turn);
                if self.defending {
                    // B6: the defence's lines as the scenario's plan gives
                    // them; the last goes forward once a line in front has
                    // begun to crumble (the opponent's PL7 and its
                    // `counter-attack` data).
                    self.mover.update_lines(state);
                }
                Cursor::Reserves(
                    (0..state.units.len())
                        .map(UnitId)
                        .filter(|id| {
                            state.unit(*id).side == self.side && state.unit(*id).is_reserve()
                        })
                        .collect(),
                )
            }
            Phase::Shooting => Cursor::Shots(state.active_units(self.side).collect()),
            Phase::Rallying => Cursor::Rallies(0),
            _ => Cursor::Done,
        }
    }

    /// One unit's move (rulings B2–B6).
    fn unit(&mut self, state: &GameState, id: UnitId) -> (BaselineDecision, Option<Checked>) {
        let mut decision =
            BaselineDecision::new(Commanded::Unit(id), &state.unit(id).name, Choice::Hold);
        let enemies: Vec<(UnitId, f64)> = state
            .active_units(GameState::enemy_of(self.side))
            .map(|enemy| (enemy, self.mover.memo.distance(state, id, enemy)))
            .collect();
        // B2: charge the weakest weakened enemy the engine accepts.
        let allowance = state.battlefield.ruleset.move_inches[state.unit(id).category.index()];
        // B6: a defending side holds, but its last line counter-attacks
        // once a line in front of it has begun to crumble.
        let released = self.defending && self.mover.unit_released_by_plan(id);
        let defending = self.defending && !released;
        let charge_reach = if defending {
            state.rules.enemy_presence.min(allowance)
        } else {
            allowance
        };
        if let Some(checked) = charge(state, id, &enemies, charge_reach, &mut decision) {
            return (decision, Some(checked));
        }
        // B3: stand and fire when it can shoot now.
        let shootable: Vec<(UnitId, f64)> = weakest_first(
            state,
            enemies
                .iter()
                .copied()
                .filter(|(enemy, _)| shot_open(state, &self.mover.memo, id, *enemy))
                .collect(),
        );
        if let Some((enemy, distance)) = shootable.first() {
            decision.choice = Choice::Stand;
            decision.target = Some(*enemy);
            decision.why = format!(
                "can shoot now: stands to fire at the weakest in reach, {} ({} hits, {:.1}\" away) (B3)",
                state.unit(*enemy).name,
                state.unit(*enemy).hits,
                distance
            );
            return (decision, None);
        }
        let nearest = nearest_first(state, enemies.clone());
        let Some(&(enemy, gap)) = nearest.first() else {
            decision.why = "no enemy on the table: stays (B5)".into();
            return (decision, None);
        };
        let weapon = state.weapon_of(state.unit(id));
        let range = reach(state, id).unwrap_or(0.0);
        let enemy_name = state.unit(enemy).name.clone();
        let stays = weapon == Some(Weapon::Artillery) || defending;
        // B5: an enemy in reach but outside the frontal arc: turn to face it.
        if gap <= range + 1e-6
            && !self.mover.memo.in_frontal_arc(state, id, enemy)
            && state
                .battlefield
                .can_see(&state.unit(id).base, &state.unit(enemy).base)
        {
            let base = state.unit(id).base;
            let facing = bearing((state.unit(enemy).base.centre - base.centre).bearing());
            let action = Action::Pivot { unit: id, facing };
            let mut pivot_refusal = None;
            if let Some(checked) = lawful(state, &action, &mut pivot_refusal) {
                decision.choice = Choice::Pivot;
                decision.target = Some(enemy);
                decision.why = format!(
                    "turns to face {enemy_name} ({gap:.1}\" away, in reach but outside its arc), so does not fire this turn (B5)"
                );
                return (decision, Some(checked));
            }
            decision.refused.extend(pivot_refusal);
        }
        if stays {
            decision.why = if weapon == Some(Weapon::Artillery) {
                format!(
                    "guns stay where they are: nothing to shoot at (nearest enemy {enemy_name} {gap:.1}\" away) (B5)"
                )
            } else {
                format!(
                    "holds its position (defending): nothing to shoot at (nearest enemy {enemy_name} {gap:.1}\" away) (B6)"
                )
            };
            return (decision, None);
        }
        let action = self.advance(state, id, &nearest, (range, allowance), &mut decision);
        if action.is_some() {
            if released {
                decision.why.push_str(
                    "; its line counter-attacks, a line in front having begun to crumble (B6)",
                );
            }
            return (decision, action);
        }
        decision.target = Some(enemy);
        decision.why = format!(
            "would advance on {enemy_name} ({gap:.1}\" away) but has no lawful move: stays (B4)"
        );
        (decision, None)
    }

    /// B4: advance on the nearest enemy to the edge of the weapon's
    /// `range` (at most `allowance`; a unit that cannot shoot closes to
    /// just short of contact: only a charge may touch). When no lawful
    /// move leads towards the nearest, the next nearest are tried, up to
    /// three in all; the first refusal met is kept with the decision.
    fn advance(
        &mut self,
        state: &GameState,
        id: UnitId,
        nearest: &[(UnitId, f64)],
        (range, allowance): (f64, f64),
        decision: &mut BaselineDecision,
    ) -> Option<Checked> {
        let mut first_refusal = None;
        for (enemy, gap) in nearest.iter().copied().take(3) {
            let enemy_name = state.unit(enemy).name.clone();
            let length = if gap > range {
                allowance.min(gap - range + RANGE_MARGIN)
            } else {
                // In reach but no clear shot (sight, or friends near the
                // target): close in by half a move.
                allowance / 2.0
            };
            let at = state.unit(enemy).base.centre;
            let planned =
                self.mover
                    .plan_move(state, id, Goal::Enemy(enemy), length, Facing::At(at));
            let refusal = planned.refusal;
            let Some(checked) = planned.action else {
                if first_refusal.is_none() {
                    first_refusal = refusal;
                }
                continue;
            };
            let which = if enemy == nearest[0].0 {
                "the nearest enemy"
            } else {
                "the nearest enemy it can move towards"
            };
            decision.choice = Choice::Advance;
            decision.target = Some(enemy);
            decision.why = if range > 0.0 && gap > range {
                format!(
                    "advances on {which}, {enemy_name} ({gap:.1}\" away), to the edge of its {range}\" range (B4)"
                )
            } else if range > 0.0 {
                format!(
                    "advances on {which}, {enemy_name} ({gap:.1}\" away): in range but no clear shot (B4)"
                )
            } else {
                format!("advances on {which}, {enemy_name} ({gap:.1}\" away) (B4)")
            };
            return Some(checked);
        }
        decision.refused.extend(first_refusal);
        None
    }

    /// A reserve comes on at the centre of its own edge as soon as it can
    /// (ruling B8).
    fn reserve(&self, state: &GameState, id: UnitId) -> (BaselineDecision, Option<Checked>) {
        let unit = state.unit(id);
        let mut decision = BaselineDecision::new(Commanded::Unit(id), &unit.name, Choice::Hold);
        let mut first_refusal = None;
        for action in crate::host::opponent::awi::entries(state, id) {
            if let Some(checked) = lawful(state, &action, &mut first_refusal) {
                decision.choice = Choice::Enter;
                decision.why = "enters at its own table edge as soon as it can (B8)".into();
                return (decision, Some(checked));
            }
        }
        decision.refused.extend(first_refusal);
        decision.why = "its edge is blocked: waits off table (B8)".into();
        (decision, None)
    }

    /// A general rides to just behind his most damaged unit (ruling B7);
    /// none when he is there already.
    fn ride(
        &self,
        state: &GameState,
        id: GeneralId,
    ) -> Option<(BaselineDecision, Option<Checked>)> {
        let unit = self.most_damaged(state)?;
        let general = state.general(id);
        let base = state.unit(unit).base;
        let behind = base.depth / 2.0 + general.base.depth / 2.0 + 1.0;
        let post = round_point(base.centre + base.forward() * -behind);
        let mut decision =
            BaselineDecision::new(Commanded::General(id), &general.name, Choice::Ride);
        let unit_name = &state.unit(unit).name;
        let hits = state.unit(unit).hits;
        if general.base.within(&base, 3.0) && general.base.centre.distance(post) <= 1.5 {
            return None;
        }
        let from = general.base.centre;
        let line = post - from;
        let length = line.length();
        if length < 0.25 {
            return None;
        }
        let allowance = state.battlefield.ruleset.move_inches[Category::General.index()];
        let travel = length.min(allowance);
        let mut first_refusal = None;
        for fraction in [1.0, 0.75, 0.5, 0.25] {
            let to = round_point(from + line * (travel * fraction / length));
            let action = Action::MoveGeneral { general: id, to };
            if let Some(checked) = lawful(state, &action, &mut first_refusal) {
                decision.why = format!(
                    "rides to just behind his most damaged unit, {unit_name} ({hits} hits) (B7)"
                );
                return Some((decision, Some(checked)));
            }
        }
        decision.refused.extend(first_refusal);
        decision.choice = Choice::Hold;
        decision.why = format!("cannot ride towards {unit_name}: stays (B7)");
        Some((decision, None))
    }

    /// The side's unit with the most hits, then the nearest the enemy,
    /// then the first listed.
    fn most_damaged(&self, state: &GameState) -> Option<UnitId> {
        let enemies: Vec<UnitId> = state.active_units(GameState::enemy_of(self.side)).collect();
        let nearest_enemy = |id: UnitId| {
            enemies
                .iter()
                .map(|enemy| self.mover.memo.distance(state, id, *enemy))
                .fold(f64::INFINITY, f64::min)
        };
        let mut own: Vec<(UnitId, u32, f64)> = state
            .active_units(self.side)
            .map(|id| (id, state.unit(id).hits, nearest_enemy(id)))
            .collect();
        own.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)));
        own.first().map(|(id, _, _)| *id)
    }

    /// In the Shooting phase a unit that has neither moved nor turned
    /// fires at the weakest enemy the engine lets it shoot (ruling B3);
    /// none when it may not or has no target.
    fn shot(&self, state: &GameState, id: UnitId) -> Option<(BaselineDecision, Checked)> {
        let unit = state.unit(id);
        if !unit.is_active() || unit.moved || unit.pivoted || unit.fired {
            return None;
        }
        let range = reach(state, id)?;
        let targets: Vec<(UnitId, f64)> = weakest_first(
            state,
            state
                .active_units(GameState::enemy_of(self.side))
                .map(|enemy| (enemy, self.mover.memo.distance(state, id, enemy)))
                .filter(|(enemy, distance)| {
                    *distance <= range + 1e-6 && shot_open(state, &self.mover.memo, id, *enemy)
                })
                .collect(),
        );
        targets.into_iter().find_map(|(enemy, distance)| {
            // A double volley where the rules allow one, as a player
            // would fire it; else a single.
            let fire = |volley| Action::Fire {
                unit: id,
                target: enemy,
                volley,
            };
            let (checked, volley) = [Volley::Double, Volley::Single]
                .into_iter()
                .find_map(|volley| Some((state.checked(&fire(volley), true).ok()?, volley)))?;
            let target = state.unit(enemy);
            let mut decision = BaselineDecision::new(Commanded::Unit(id), &unit.name, Choice::Fire);
            decision.why = format!(
                "fires {}at the weakest in reach, {} ({} hits, {:.1}\" away) (B3)",
                if volley == Volley::Double {
                    "a double volley "
                } else {
                    ""
                },
                target.name,
                target.hits,
                distance
            );
            decision.target = Some(enemy);
            Some((decision, checked))
        })
    }

    /// In the Rallying phase a general with attempts left rallies the
    /// worst of his units in command range, then the others most hits
    /// first (ruling B7); none when none of them needs it.
    fn rally(
        &self,
        state: &GameState,
        id: GeneralId,
    ) -> Option<(BaselineDecision, Option<Checked>)> {
        let general = state.general(id);
        if general.side != self.side || general.rallied || general.rallies_left == 0 {
            return None;
        }
        let mut units: Vec<UnitId> = state
            .active_units(self.side)
            .filter(|unit| state.may_rally(general, state.unit(*unit)))
            .collect();
        units.sort_by(|a, b| {
            state
                .unit(*b)
                .hits
                .cmp(&state.unit(*a).hits)
                .then(a.0.cmp(&b.0))
        });
        let worst = state.unit(*units.first()?);
        if worst.hits < state.rules.rally_max[worst.troop.0] {
            return None;
        }
        let mut decision =
            BaselineDecision::new(Commanded::General(id), &general.name, Choice::Rally);
        decision.why = format!(
            "rallies the worst of his units within {}\", {} ({} hits), then the others most hits first ({} attempts left) (B7)",
            state.rules.rally_range, worst.name, worst.hits, general.rallies_left
        );
        let action = Action::Rally { general: id, units };
        let mut first_refusal = None;
        let checked = lawful(state, &action, &mut first_refusal);
        if checked.is_none() {
            decision.refused.extend(first_refusal);
            decision.choice = Choice::Hold;
        }
        Some((decision, checked))
    }
}

/// Ruling B2: a charge at the weakest weakened enemy within
/// `charge_reach` that the engine accepts, noted in `decision`; none (the
/// first refusal kept) when there is none.
fn charge(
    state: &GameState,
    id: UnitId,
    enemies: &[(UnitId, f64)],
    charge_reach: f64,
    decision: &mut BaselineDecision,
) -> Option<Checked> {
    let unit_hits = state.unit(id).hits;
    let weakened: Vec<(UnitId, f64)> = weakest_first(
        state,
        enemies
            .iter()
            .copied()
            .filter(|(enemy, distance)| {
                *distance <= charge_reach + 1e-6 && weakened(state, *enemy, unit_hits)
            })
            .collect(),
    );
    let mut first_refusal = None;
    for (enemy, distance) in &weakened {
        let action = Action::Charge {
            unit: id,
            target: *enemy,
        };
        if let Some(checked) = lawful(state, &action, &mut first_refusal) {
            let target = state.unit(*enemy);
            let threshold = state.rules.rout_threshold(target.category).unwrap_or(0);
            decision.choice = Choice::Charge;
            decision.target = Some(*enemy);
            decision.why = format!(
                "charges {} ({:.1}\" away), weakened at {} hits of {} to rout{} (B2)",
                target.name,
                distance,
                target.hits,
                threshold,
                if target.hits > unit_hits {
                    format!(", more than its own {unit_hits}")
                } else {
                    String::new()
                }
            );
            return Some(checked);
        }
    }
    decision.refused.extend(first_refusal);
    None
}

/// Ruling B2: an enemy is weakened when it has at least half the hits
/// that rout it, or more hits than the would-be charger.
fn weakened(state: &GameState, enemy: UnitId, charger_hits: u32) -> bool {
    let unit = state.unit(enemy);
    let half = state
        .rules
        .rout_threshold(unit.category)
        .is_some_and(|threshold| 2 * unit.hits >= threshold);
    half || unit.hits > charger_hits
}

/// Most hits first, then the nearest (to the thousandth of an inch), then
/// the name, then the unit: never the order they come in.
fn weakest_first(state: &GameState, mut measured: Vec<(UnitId, f64)>) -> Vec<(UnitId, f64)> {
    measured.sort_by(|a, b| {
        state
            .unit(b.0)
            .hits
            .cmp(&state.unit(a.0).hits)
            .then(thousandths(a.1).cmp(&thousandths(b.1)))
            .then_with(|| state.unit(a.0).name.cmp(&state.unit(b.0).name))
            .then(a.0.cmp(&b.0))
    });
    measured
}

/// Nearest first (to the thousandth of an inch), then the most hits, then
/// the name, then the unit.
fn nearest_first(state: &GameState, mut measured: Vec<(UnitId, f64)>) -> Vec<(UnitId, f64)> {
    measured.sort_by(|a, b| {
        thousandths(a.1)
            .cmp(&thousandths(b.1))
            .then(state.unit(b.0).hits.cmp(&state.unit(a.0).hits))
            .then_with(|| state.unit(a.0).name.cmp(&state.unit(b.0).name))
            .then(a.0.cmp(&b.0))
    });
    measured
}

fn thousandths(distance: f64) -> i64 {
    (distance * 1000.0).round() as i64
}

fn round(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

fn round_point(point: crate::battlefield::Point) -> crate::battlefield::Point {
    crate::battlefield::Point::new(round(point.x), round(point.y))
}

fn bearing(value: f64) -> f64 {
    let rounded = round(value.rem_euclid(360.0));
    if rounded >= 360.0 { 0.0 } else { rounded }
}

/// The engine's acceptance of `action` now; the first refusal met is kept.
fn lawful(
    state: &GameState,
    action: &Action,
    first_refusal: &mut Option<(Action, Refusal)>,
) -> Option<Checked> {
    match state.checked(action, first_refusal.is_some()) {
        Ok(checked) => Some(checked),
        Err(refusal) => {
            if first_refusal.is_none() {
                *first_refusal = Some((action.clone(), refusal));
            }
            None
        }
    }
}

/// Carry out an action the engine has just accepted, recording it.
fn send(
    state: &mut GameState,
    roller: &mut dyn Roller,
    checked: Checked,
    report: &mut BaselineReport,
    decision: &mut BaselineDecision,
) {
    let action = checked.action().clone();
    let events = state.apply_checked(checked, roller);
    decision.actions.push(action.clone());
    decision.events.extend(events.iter().cloned());
    report.actions.push(action);
    report.events.extend(events);
}
