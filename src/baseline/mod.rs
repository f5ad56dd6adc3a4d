//! The baseline: a simple scripted side to measure the Lone Warrior
//! opponent against, so that `foe simulate` can say how strong
//! the opponent is against something other than itself.
//!
//! It is deliberately plain and takes no reaction test: each unit charges
//! a weakened enemy it may lawfully charge, else stands and fires if it can
//! shoot now, else advances on the nearest enemy to the edge of its weapon
//! range (guns and a defending side stay and turn to face instead); each
//! general rides to just behind his most damaged unit and rallies the
//! worst. The policy is ruled in `docs/rulings.md`, "Baseline" (B1…).
//!
//! [`Controller`] is what commands a side of a `foe play` match or a
//! `foe simulate` game: the Lone Warrior [`Opponent`] or a [`Baseline`].
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
use crate::opponent::act::{Facing, Goal, reach, shot_open};
use crate::opponent::{FieldCache, Opponent, TurnReport};
use crate::rules::{
    Action, Checked, Event, GameState, GeneralId, Phase, Refusal, UnitId, Volley, Weapon,
};
use crate::ruleset::Category;
use crate::scenario::{Plan, Scenario};
use crate::tables::Tables;
use std::fmt;
use std::sync::Arc;

/// How far inside its weapon's range an advancing unit aims to stop, in
/// inches: a move towards an enemy's centre does not close the distance
/// between the bases quite inch for inch.
const RANGE_MARGIN: f64 = 0.5;

/// Who commands a side that the player does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ControllerKind {
    /// foe's Lone Warrior opponent (the default on every side).
    #[default]
    Foe,
    /// The scripted [`Baseline`].
    Baseline,
}

impl ControllerKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ControllerKind::Foe => "foe",
            ControllerKind::Baseline => "baseline",
        }
    }

    /// The kind named `name` (as [`ControllerKind::name`] gives it).
    pub fn from_name(name: &str) -> Option<ControllerKind> {
        [ControllerKind::Foe, ControllerKind::Baseline]
            .into_iter()
            .find(|kind| kind.name() == name)
    }

    /// The name with what it is, for introductions and summaries.
    pub fn describe(self) -> &'static str {
        match self {
            ControllerKind::Foe => "foe (Lone Warrior)",
            ControllerKind::Baseline => "baseline (scripted)",
        }
    }
}

impl fmt::Display for ControllerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What commands a side: the Lone Warrior opponent or the baseline.
#[derive(Debug, Clone)]
pub enum Controller {
    /// foe's Lone Warrior opponent.
    Foe(Opponent),
    /// The scripted baseline.
    Baseline(Baseline),
}

/// What a controller did in one player turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Played {
    /// The Lone Warrior opponent's report.
    Foe(TurnReport),
    /// The baseline's report.
    Baseline(BaselineReport),
}

impl Controller {
    /// Which kind it is.
    pub fn kind(&self) -> ControllerKind {
        match self {
            Controller::Foe(_) => ControllerKind::Foe,
            Controller::Baseline(_) => ControllerKind::Baseline,
        }
    }

    /// The Lone Warrior opponent, if that is what commands the side.
    pub fn opponent(&self) -> Option<&Opponent> {
        match self {
            Controller::Foe(opponent) => Some(opponent),
            Controller::Baseline(_) => None,
        }
    }

    /// Take note of the other side's events (the baseline needs none).
    pub fn observe(&mut self, state: &GameState, events: &[Event]) {
        if let Controller::Foe(opponent) = self {
            opponent.observe(state, events);
        }
    }

    /// Play the side's whole player turn.
    pub fn play_turn(&mut self, state: &mut GameState, roller: &mut dyn Roller) -> Played {
        match self {
            Controller::Foe(opponent) => Played::Foe(opponent.play_turn(state, roller)),
            Controller::Baseline(baseline) => Played::Baseline(baseline.play_turn(state, roller)),
        }
    }

    /// The helper that shares what it works out with the other sides.
    fn memo_source(&self) -> &Opponent {
        match self {
            Controller::Foe(opponent) => opponent,
            Controller::Baseline(baseline) => &baseline.mover,
        }
    }
}

/// The controllers of a game's sides: none for the player's sides, the
/// baseline for `baseline_sides`, foe's opponent for the rest. They share
/// `fields` (and, within the game, what they work out about the units).
pub fn controllers(
    tables: &Arc<Tables>,
    scenario: &Scenario,
    state: &GameState,
    player_sides: &[usize],
    baseline_sides: &[usize],
    fields: &FieldCache,
) -> Vec<Option<Controller>> {
    let mut controllers: Vec<Option<Controller>> = Vec::with_capacity(state.sides.len());
    for side in 0..state.sides.len() {
        if player_sides.contains(&side) {
            controllers.push(None);
            continue;
        }
        let mut opponent = Opponent::new(tables.clone(), state, side)
            .with_scenario(scenario, state)
            .with_fields(fields);
        if let Some(first) = controllers.iter().flatten().next() {
            opponent = opponent.sharing_memo(first.memo_source());
        }
        let controller = if baseline_sides.contains(&side) {
            let defending = defends(scenario, state, side);
            Controller::Baseline(Baseline::from_mover(opponent, defending))
        } else {
            Controller::Foe(opponent)
        };
        controllers.push(Some(controller));
    }
    controllers
}

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

/// The baseline commanding one side.
#[derive(Debug, Clone)]
pub struct Baseline {
    side: usize,
    defending: bool,
    /// The opponent's movement and measuring code, borrowed for its
    /// lawful-move search (straight line, then a route's first leg, each
    /// shortened until the engine accepts it) and its remembered
    /// distances. It takes no reaction test here.
    mover: Opponent,
    /// The turn whose Movement phase has been played.
    moved_turn: Option<u32>,
}

impl Baseline {
    /// A baseline for `side`, defending or not as the scenario says
    /// ([`defends`]).
    pub fn new(
        tables: Arc<Tables>,
        scenario: &Scenario,
        state: &GameState,
        side: usize,
        fields: &FieldCache,
    ) -> Baseline {
        let mover = Opponent::new(tables, state, side)
            .with_scenario(scenario, state)
            .with_fields(fields);
        Baseline::from_mover(mover, defends(scenario, state, side))
    }

    fn from_mover(mover: Opponent, defending: bool) -> Baseline {
        Baseline {
            side: mover.side(),
            defending,
            mover,
            moved_turn: None,
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

    /// Play the side's whole player turn from the current phase through
    /// the end of its Rallying phase. Never panics; never sends an action
    /// the engine has not accepted on checking.
    pub fn play_turn(&mut self, state: &mut GameState, roller: &mut dyn Roller) -> BaselineReport {
        let mut report = BaselineReport {
            side: self.side,
            turn: state.turn,
            ..BaselineReport::default()
        };
        let turn = state.turn;
        // Enough steps for every phase of one player turn; a guard.
        for _ in 0..16 {
            if state.is_over() || state.active != self.side || state.turn != turn {
                break;
            }
            match state.phase() {
                Phase::Movement if self.moved_turn != Some(turn) => {
                    self.moved_turn = Some(turn);
                    self.movement(state, roller, &mut report);
                }
                Phase::Shooting => self.shooting(state, roller, &mut report),
                Phase::Rallying => self.rallying(state, roller, &mut report),
                _ => {}
            }
            if state.is_over() || state.active != self.side {
                break;
            }
            match state.apply(&Action::EndPhase, roller) {
                Ok(events) => {
                    report.actions.push(Action::EndPhase);
                    report.events.extend(events);
                }
                Err(_) => break,
            }
        }
        report
    }

    /// The Movement phase: reserves come on, then each unit in unit order,
    /// then the generals ride.
    fn movement(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut BaselineReport,
    ) {
        if self.defending {
            // B6: the defence's lines as the scenario's plan gives them;
            // the last goes forward once a line in front has begun to
            // crumble (the opponent's PL7 and its `counter-attack` data).
            self.mover.update_lines(state);
        }
        self.reserves(state, roller, report);
        let own: Vec<UnitId> = state.active_units(self.side).collect();
        for id in own {
            if !state.unit(id).is_active() || state.unit(id).moved {
                continue;
            }
            let decision = self.unit(state, roller, id, report);
            report.decisions.push(decision);
        }
        for index in 0..state.generals.len() {
            if state.generals[index].side == self.side && !state.generals[index].moved {
                if let Some(decision) = self.ride(state, roller, GeneralId(index), report) {
                    report.decisions.push(decision);
                }
            }
        }
    }

    /// One unit's move (rulings B2–B6).
    fn unit(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: UnitId,
        report: &mut BaselineReport,
    ) -> BaselineDecision {
        let mut decision = BaselineDecision {
            who: Commanded::Unit(id),
            name: state.unit(id).name.clone(),
            choice: Choice::Hold,
            why: String::new(),
            target: None,
            actions: Vec::new(),
            refused: Vec::new(),
            events: Vec::new(),
        };
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
                send(state, roller, checked, report, &mut decision);
                return decision;
            }
        }
        decision.refused.extend(first_refusal);
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
            return decision;
        }
        let nearest = nearest_first(state, enemies.clone());
        let Some(&(enemy, gap)) = nearest.first() else {
            decision.why = "no enemy on the table: stays (B5)".into();
            return decision;
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
                send(state, roller, checked, report, &mut decision);
                return decision;
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
            return decision;
        }
        // B4: advance on the nearest enemy to the edge of its weapon range
        // (a unit that cannot shoot closes to just short of contact: only a
        // charge may touch). When no lawful move leads towards the nearest,
        // the next nearest are tried, up to three in all.
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
            if released {
                decision.why.push_str(
                    "; its line counter-attacks, a line in front having begun to crumble (B6)",
                );
            }
            send(state, roller, checked, report, &mut decision);
            return decision;
        }
        decision.refused.extend(first_refusal);
        decision.target = Some(enemy);
        decision.why = format!(
            "would advance on {enemy_name} ({gap:.1}\" away) but has no lawful move: stays (B4)"
        );
        decision
    }

    /// Reserves come on at the centre of their own edge as soon as they
    /// can (ruling B8).
    fn reserves(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut BaselineReport,
    ) {
        let waiting: Vec<UnitId> = (0..state.units.len())
            .map(UnitId)
            .filter(|id| state.unit(*id).side == self.side && state.unit(*id).is_reserve())
            .collect();
        for id in waiting {
            let unit = state.unit(id).clone();
            let mut decision = BaselineDecision {
                who: Commanded::Unit(id),
                name: unit.name.clone(),
                choice: Choice::Hold,
                why: String::new(),
                target: None,
                actions: Vec::new(),
                refused: Vec::new(),
                events: Vec::new(),
            };
            let edge = state.sides[self.side].edge;
            let along = crate::battlefield::Vector::from_bearing(edge.bearing() + 90.0);
            let mut first_refusal = None;
            let mut entered = false;
            for offset in [0.0, 5.0, -5.0, 10.0, -10.0, 15.0, -15.0, 20.0, -20.0] {
                let to = round_point(unit.base.centre + along * offset);
                let action = Action::Enter {
                    unit: id,
                    to,
                    facing: unit.base.facing,
                };
                if let Some(checked) = lawful(state, &action, &mut first_refusal) {
                    send(state, roller, checked, report, &mut decision);
                    entered = true;
                    break;
                }
            }
            if entered {
                decision.choice = Choice::Enter;
                decision.why = "enters at its own table edge as soon as it can (B8)".into();
            } else {
                decision.refused.extend(first_refusal);
                decision.why = "its edge is blocked: waits off table (B8)".into();
            }
            report.decisions.push(decision);
        }
    }

    /// A general rides to just behind his most damaged unit (ruling B7).
    fn ride(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: GeneralId,
        report: &mut BaselineReport,
    ) -> Option<BaselineDecision> {
        let unit = self.most_damaged(state)?;
        let general = state.general(id).clone();
        let base = state.unit(unit).base;
        let behind = base.depth / 2.0 + general.base.depth / 2.0 + 1.0;
        let post = round_point(base.centre + base.forward() * -behind);
        let mut decision = BaselineDecision {
            who: Commanded::General(id),
            name: general.name.clone(),
            choice: Choice::Ride,
            why: String::new(),
            target: None,
            actions: Vec::new(),
            refused: Vec::new(),
            events: Vec::new(),
        };
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
                send(state, roller, checked, report, &mut decision);
                return Some(decision);
            }
        }
        decision.refused.extend(first_refusal);
        decision.choice = Choice::Hold;
        decision.why = format!("cannot ride towards {unit_name}: stays (B7)");
        Some(decision)
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

    /// The Shooting phase: every unit that has neither moved nor turned
    /// fires at the weakest enemy the engine lets it shoot (ruling B3).
    fn shooting(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut BaselineReport,
    ) {
        let own: Vec<UnitId> = state.active_units(self.side).collect();
        for id in own {
            let unit = state.unit(id);
            if !unit.is_active() || unit.moved || unit.pivoted || unit.fired {
                continue;
            }
            let Some(range) = reach(state, id) else {
                continue;
            };
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
            for (enemy, distance) in targets {
                // A double volley where the rules allow one, as a player
                // would fire it; else a single.
                let fire = |volley| Action::Fire {
                    unit: id,
                    target: enemy,
                    volley,
                };
                let Some((checked, volley)) = [Volley::Double, Volley::Single]
                    .into_iter()
                    .find_map(|volley| Some((state.checked(&fire(volley), true).ok()?, volley)))
                else {
                    continue;
                };
                let target = state.unit(enemy);
                let mut decision = BaselineDecision {
                    who: Commanded::Unit(id),
                    name: state.unit(id).name.clone(),
                    choice: Choice::Fire,
                    why: format!(
                        "fires {}at the weakest in reach, {} ({} hits, {:.1}\" away) (B3)",
                        if volley == Volley::Double {
                            "a double volley "
                        } else {
                            ""
                        },
                        target.name,
                        target.hits,
                        distance
                    ),
                    target: Some(enemy),
                    actions: Vec::new(),
                    refused: Vec::new(),
                    events: Vec::new(),
                };
                send(state, roller, checked, report, &mut decision);
                report.decisions.push(decision);
                break;
            }
        }
    }

    /// The Rallying phase: each general with attempts left rallies the
    /// worst of his units in command range (ruling B7).
    fn rallying(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut BaselineReport,
    ) {
        for index in 0..state.generals.len() {
            let general = &state.generals[index];
            if general.side != self.side || general.rallied || general.rallies_left == 0 {
                continue;
            }
            let mut units: Vec<UnitId> = state
                .active_units(self.side)
                .filter(|id| state.may_rally(general, state.unit(*id)))
                .collect();
            units.sort_by(|a, b| {
                state
                    .unit(*b)
                    .hits
                    .cmp(&state.unit(*a).hits)
                    .then(a.0.cmp(&b.0))
            });
            let Some(&worst) = units.first() else {
                continue;
            };
            let worst_unit = state.unit(worst);
            let most = state.rules.rally_max[worst_unit.troop.0];
            if worst_unit.hits < most {
                continue;
            }
            let action = Action::Rally {
                general: GeneralId(index),
                units: units.clone(),
            };
            let mut decision = BaselineDecision {
                who: Commanded::General(GeneralId(index)),
                name: general.name.clone(),
                choice: Choice::Rally,
                why: format!(
                    "rallies the worst of his units within {}\", {} ({} hits), then the others most hits first ({} attempts left) (B7)",
                    state.rules.rally_range, worst_unit.name, worst_unit.hits, general.rallies_left
                ),
                target: None,
                actions: Vec::new(),
                refused: Vec::new(),
                events: Vec::new(),
            };
            let mut first_refusal = None;
            match lawful(state, &action, &mut first_refusal) {
                Some(checked) => send(state, roller, checked, report, &mut decision),
                None => {
                    decision.refused.extend(first_refusal);
                    decision.choice = Choice::Hold;
                }
            }
            report.decisions.push(decision);
        }
    }
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
