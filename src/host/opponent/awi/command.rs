//! The bound's command: generals' triggers and reactions, reserves and
//! reinforcements, the units' tests in order, the shooting, and the rally
//! policy (rulings O14–O18).

use super::{Cursor, Decision, GeneralDecision, Opponent, RallyDecision, Reading, TurnReport};
use crate::battlefield::{Point, Vector};
use crate::dice::{Die, Roller};
use crate::host::probe::{Stage, staged};
use crate::reaction::{self, Options, Situation};
use crate::rules::{Action, Event, GameState, GeneralId, UnitId};
use crate::tables::{Column, Formation, Reaction, Trigger};
use std::collections::VecDeque;
use std::sync::Arc;

fn round(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// Where reserve `id` may come on, in the order tried: at the centre of
/// its side's own table edge, where it waits, then 5" at a time either
/// side of it, out to 20" (the opponent's and the baseline's rule).
pub(crate) fn entries(state: &GameState, id: UnitId) -> Vec<Action> {
    let unit = state.unit(id);
    let edge = state.sides[unit.side].edge;
    let along = Vector::from_bearing(edge.bearing() + 90.0);
    [0.0, 5.0, -5.0, 10.0, -10.0, 15.0, -15.0, 20.0, -20.0]
        .into_iter()
        .map(move |offset| Action::Enter {
            unit: id,
            to: round_point(unit.base.centre + along * offset),
            facing: unit.base.facing,
        })
        .collect()
}

fn round_point(point: Point) -> Point {
    Point::new(round(point.x), round(point.y))
}

/// Seed-004 reinforcement troop types as seed-000 (ohw-awi) troop types
/// (ruling O17), following the Monongahela mapping by fighting style.
pub fn reinforcement_troop(troop: &str) -> &'static str {
    match troop {
        "grenadiers" => "grenadiers",
        "british-line-infantry" => "british-regulars",
        "light-infantry" => "british-light-infantry",
        "troupes-de-la-marine" | "rangers" | "red-indians" => "light-infantry",
        "canadian-militia" | "local-militia" => "militia",
        "provincial-militia" => "provincials",
        "light-artillery" | "field-artillery" => "artillery",
        _ => "militia",
    }
}

impl Opponent {
    /// The triggers that hold at the start of this bound (seed 004: own
    /// troops routing or withdrawing, enemy attacking within 6", enemy
    /// troops routing or withdrawing).
    fn triggers(&self, state: &GameState) -> Vec<Trigger> {
        let mut triggers = Vec::new();
        let own_back = !self.own_lost.is_empty()
            || state.active_units(self.side).any(|id| {
                self.units
                    .get(id.0)
                    .and_then(Option::as_ref)
                    .is_some_and(|m| m.withdrew || m.lost_melee)
            });
        if own_back {
            triggers.push(Trigger::OwnTroopsWithdrawing);
        }
        if self.enemy_attacking {
            triggers.push(Trigger::EnemyAttackingWithin6);
        }
        if !self.enemy_retreating.is_empty() {
            triggers.push(Trigger::EnemyWithdrawing);
        }
        triggers
    }

    /// The Movement phase begins: the triggers that hold this bound, the
    /// defence lines brought up to date, what was seen since the last bound
    /// forgotten once read; then the side's generals, each in turn.
    pub(super) fn begin_movement(&mut self, state: &GameState) -> Cursor {
        let triggers = self.triggers(state);
        self.update_lines(state);
        self.enemy_attacking = false;
        self.own_lost.clear();
        let generals = (0..state.generals.len())
            .filter(|index| state.generals[*index].side == self.side)
            .map(GeneralId)
            .collect();
        Cursor::Generals(generals, triggers)
    }

    /// The reserves waiting off table, in unit order, when the generals
    /// are done (a general may have called one up).
    pub(super) fn waiting(&self, state: &GameState) -> VecDeque<UnitId> {
        (0..state.units.len())
            .map(UnitId)
            .filter(|id| state.unit(*id).side == self.side && state.unit(*id).is_reserve())
            .collect()
    }

    /// Whether unit `id` takes its reaction test when the Movement phase
    /// comes to it: on the table, not yet moved, its guns not abandoned.
    pub(super) fn tests(&self, state: &GameState, id: UnitId) -> bool {
        state.unit(id).is_active() && !state.unit(id).moved && !self.memory(state, id).abandoned
    }

    /// One unit's bound in the Movement phase: it reads its situation,
    /// takes the reaction test and carries out its order; a shot its order
    /// gives waits for the Shooting phase.
    pub(super) fn unit_bound(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: UnitId,
        report: &mut TurnReport,
    ) {
        let mut memory = self.memory(state, id);
        let (reading, measured) = staged(&self.probe, Stage::Reading, || {
            self.read_measuring(state, id, &memory)
        });
        let name = &state.unit(id).name;
        let die = roller.roll_for(Die::D6, format_args!("{name}'s reaction test"));
        let Ok(outcome) = staged(&self.probe, Stage::Reaction, || {
            reaction::test(&self.tables, &reading.situation, Options::default(), die)
        }) else {
            return;
        };
        memory.hits_at_test = state.unit(id).hits;
        memory.lost_melee = false;
        let before = memory.state();
        let (mut decision, fire) = self.carry_out(
            state,
            roller,
            id,
            &mut memory,
            (reading, measured),
            outcome,
            report,
        );
        memory.withdrew = decision.withdrew;
        let after = memory.state();
        if !after.changes_since(&before).is_empty() {
            decision.state_change = Some((before, after));
        }
        self.units[id.0] = Some(memory);
        if fire {
            self.pending_fire.push(id);
        }
        report.decisions.push(Arc::new(decision));
    }

    /// The Shooting phase comes to unit `id`, whose order fires: it shoots
    /// as its decision of the bound says.
    pub(super) fn unit_shot(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: UnitId,
        report: &mut TurnReport,
    ) {
        let mut decisions = std::mem::take(&mut report.decisions);
        if let Some(decision) = decisions.iter_mut().find(|d| d.unit == id) {
            // Not yet shared: the turn's decisions are remembered when it
            // ends, so this never copies.
            self.shoot(state, roller, Arc::make_mut(decision), report);
        }
        report.decisions = decisions;
    }

    /// The Rallying phase comes to general `index` (ruling O14): with
    /// attempts left he rallies when a unit he can rally within command
    /// range has 3 hits or more; the units go most hits first, then by
    /// name. Whether he had anyone to rally.
    pub(super) fn rally(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        index: usize,
        report: &mut TurnReport,
    ) -> bool {
        let general = &state.generals[index];
        if general.side != self.side
            || general.rallied
            || general.rallies_left == 0
            || self.generals.get(index).is_some_and(|m| m.left)
        {
            return false;
        }
        let mut units: Vec<UnitId> = state
            .active_units(self.side)
            .filter(|id| {
                let unit = state.unit(*id);
                unit.hits >= 3 && state.may_rally(general, unit)
            })
            .collect();
        if units.is_empty() {
            return false;
        }
        units.sort_by(|a, b| {
            state
                .unit(*b)
                .hits
                .cmp(&state.unit(*a).hits)
                .then(state.unit(*a).name.cmp(&state.unit(*b).name))
        });
        let why = format!(
            "{} of his units within {}\" have 3 hits or more ({} attempts left)",
            units.len(),
            state.rules.rally_range,
            general.rallies_left
        );
        let action = Action::Rally {
            general: GeneralId(index),
            units: units.clone(),
        };
        let (mut actions, mut refused, mut events) = (Vec::new(), Vec::new(), Vec::new());
        self.send(
            state,
            roller,
            action,
            report,
            Some((&mut actions, &mut refused, &mut events)),
        );
        report.rallies.push(RallyDecision {
            general: GeneralId(index),
            units,
            why,
            events,
        });
        true
    }

    /// Reserve `id`, waiting off table, takes the encamped test; an advance
    /// or charge brings it on at the centre of its own edge (seed 004).
    pub(super) fn reserve(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: UnitId,
        report: &mut TurnReport,
    ) {
        let memory = self.memory(state, id);
        let name = &state.unit(id).name;
        let die = roller.roll_for(Die::D6, format_args!("{name}'s reserve test"));
        let Ok(outcome) =
            crate::reinforce::reserve_test(&self.tables, &memory.class, die, memory.character)
        else {
            return;
        };
        let reserve = &self.tables.reinforcements.reserve;
        let situation = Situation {
            class: memory.class.clone(),
            column: Some(reserve.column),
            enemy_in_sight: reserve.enemy_in_sight,
            character: memory.character,
            formation: Some(memory.formation),
            ..Situation::default()
        };
        let enters = self.tables.reinforcements.enters(outcome.order);
        let mut decision = Decision::new(
            id,
            name.clone(),
            state.turn,
            Reading {
                situation,
                ground: Column::Open,
                nearest_enemy: None,
                seen_enemy: None,
                general: None,
                support: None,
                retreating_enemy: None,
                friend_ahead: None,
                friend_enemy: None,
                hits: 0,
                hits_before: 0,
                figures: memory.figures,
                figures_left: memory.figures,
                off_table: true,
            },
            outcome,
        );
        if enters {
            let mut entered = false;
            let mut first_refusal = None;
            for action in entries(state, id) {
                if let Some(checked) =
                    super::act::lawful(&self.probe, state, &action, &mut first_refusal)
                {
                    self.send_checked(state, roller, checked, report, Some(decision.record()));
                    entered = true;
                    break;
                }
            }
            decision.plan = if entered {
                "enters at the centre of its own table edge (seed 004: from the centre rear)"
                    .to_string()
            } else {
                decision.refused.extend(first_refusal);
                "would enter, but its edge is blocked; waits off table".to_string()
            };
        } else {
            decision.plan =
                "stays off table, encamped (only an advance or charge brings a reserve on)"
                    .to_string();
        }
        report.reserves.push(Arc::new(decision));
    }

    /// The centre of the side's front line: the mean of the units within
    /// 4" of the most advanced (ruling O15).
    pub(super) fn front_centre(&self, state: &GameState) -> Option<(Point, Vector)> {
        self.front_centre_of(state, None)
    }

    /// [`Opponent::front_centre`] of the side's other units than `unit`
    /// (where the cavalry reserve follows the line it is not part of).
    pub(super) fn front_centre_without(
        &self,
        state: &GameState,
        unit: UnitId,
    ) -> Option<(Point, Vector)> {
        self.front_centre_of(state, Some(unit))
    }

    fn front_centre_of(
        &self,
        state: &GameState,
        without: Option<UnitId>,
    ) -> Option<(Point, Vector)> {
        let edge = state.sides[self.side].edge;
        let forward = Vector::from_bearing(edge.opposite().bearing());
        let own: Vec<Point> = state
            .active_units(self.side)
            .filter(|id| Some(*id) != without)
            .map(|id| state.unit(id).base.centre)
            .collect();
        let ahead = |p: &Point| forward.dot(*p - Point::new(0.0, 0.0));
        let most = own.iter().map(ahead).fold(f64::NEG_INFINITY, f64::max);
        let front: Vec<&Point> = own.iter().filter(|p| ahead(p) >= most - 4.0).collect();
        if front.is_empty() {
            return None;
        }
        let n = front.len() as f64;
        let x = front.iter().map(|p| p.x).sum::<f64>() / n;
        let y = front.iter().map(|p| p.y).sum::<f64>() / n;
        Some((Point::new(x, y), forward))
    }

    fn clamp(state: &GameState, point: Point) -> Point {
        let (w, h) = (state.battlefield.width(), state.battlefield.height());
        round_point(Point::new(
            point.x.clamp(1.5, (w - 1.5).max(1.5)),
            point.y.clamp(1.5, (h - 1.5).max(1.5)),
        ))
    }

    /// The centre of the side's own table edge, 1.5" in.
    fn rear_centre(&self, state: &GameState) -> Point {
        let edge = state.sides[self.side].edge;
        let (w, h) = (state.battlefield.width(), state.battlefield.height());
        let point = match edge {
            crate::battlefield::Edge::North => Point::new(w / 2.0, h - 1.5),
            crate::battlefield::Edge::South => Point::new(w / 2.0, 1.5),
            crate::battlefield::Edge::East => Point::new(w - 1.5, h / 2.0),
            crate::battlefield::Edge::West => Point::new(1.5, h / 2.0),
        };
        round_point(point)
    }

    /// Where the general's chart puts him at the start (seed 004, "General's
    /// Battlefield Position"; ruling O15).
    fn start_point(&self, state: &GameState, letter: Reaction) -> Point {
        let Some((front, forward)) = self.front_centre(state) else {
            return self.rear_centre(state);
        };
        let point = match letter {
            Reaction::A => front,
            Reaction::B => front + forward * -3.0,
            Reaction::C => {
                // The highest ground at least 6" behind the front line.
                let field = &state.battlefield;
                let mut best: Option<(f64, f64, Point)> = None;
                let mut y = 1.0;
                while y < field.height() {
                    let mut x = 1.0;
                    while x < field.width() {
                        let p = Point::new(x, y);
                        let behind = forward.dot(front - p);
                        let height = field.height_at(p);
                        if behind >= 6.0 && height > 0.0 {
                            let distance = p.distance(front);
                            let better = best.is_none_or(|(h, d, _)| {
                                height > h + 1e-9 || ((height - h).abs() <= 1e-9 && distance < d)
                            });
                            if better {
                                best = Some((height, distance, p));
                            }
                        }
                        x += 2.0;
                    }
                    y += 2.0;
                }
                best.map_or(front + forward * -10.0, |(_, _, p)| p)
            }
            Reaction::D => front + forward * -10.0,
            Reaction::E => return self.rear_centre(state),
        };
        Self::clamp(state, point)
    }

    /// Ride the general straight towards `point`, as far as he may.
    fn ride(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: GeneralId,
        point: Point,
        report: &mut TurnReport,
        decision: &mut GeneralDecision,
    ) -> bool {
        let from = state.general(id).base.centre;
        let line = point - from;
        let length = line.length();
        if length < 0.25 || state.general(id).moved {
            return false;
        }
        let allowance =
            state.battlefield.ruleset.move_inches[crate::ruleset::Category::General.index()];
        let reach = length.min(allowance);
        let mut first_refusal = None;
        for fraction in [1.0, 0.75, 0.5, 0.25] {
            let to = round_point(from + line * (reach * fraction / length));
            let action = Action::MoveGeneral { general: id, to };
            if let Some(checked) =
                super::act::lawful(&self.probe, state, &action, &mut first_refusal)
            {
                let mut events = Vec::new();
                self.send_checked(
                    state,
                    roller,
                    checked,
                    report,
                    Some((&mut decision.actions, &mut decision.refused, &mut events)),
                );
                return true;
            }
        }
        decision.refused.extend(first_refusal);
        false
    }

    /// One general's bound: his start position at the first, a reaction
    /// test when a trigger holds (ruling O16: one test a bound), and what
    /// the reaction means on the table.
    pub(super) fn general(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        id: GeneralId,
        triggers: &[Trigger],
        report: &mut TurnReport,
    ) -> GeneralDecision {
        let general = state.general(id).clone();
        let mut decision = GeneralDecision {
            general: id,
            name: general.name.clone(),
            character: general.character,
            start: None,
            triggers: triggers.to_vec(),
            reaction: None,
            does: String::new(),
            called_up: None,
            actions: Vec::new(),
            refused: Vec::new(),
        };
        let mut memory = self.generals[id.0].clone();
        if memory.left {
            decision.does = "has left the table for good".into();
            return decision;
        }
        let mut does = Vec::new();
        if !memory.placed {
            memory.placed = true;
            let roll =
                roller.roll_for(Die::D100, format_args!("{}'s start position", general.name));
            let letter = self.tables.generals.reaction(general.character, roll);
            let point = self.start_point(state, letter);
            decision.start = Some((roll, letter, point));
            memory.post = Some(point);
            does.push(format!(
                "start position {letter}: {} ({})",
                self.tables.generals.start_position(letter),
                point
            ));
        }
        if let Some(&trigger) = triggers.first() {
            let roll = roller.roll_for(Die::D100, format_args!("{}'s reaction", general.name));
            if let Ok(reaction) =
                crate::general::react(&self.tables, general.character, Some(trigger), roll)
            {
                let letter = reaction.reaction;
                decision.reaction = Some(reaction);
                match letter {
                    Reaction::A => {
                        memory.post = None;
                        if let Some(unit) = self.most_stricken(state) {
                            let base = state.unit(unit).base;
                            let spot = Self::clamp(
                                state,
                                base.centre + base.forward() * -(base.depth / 2.0 + 1.5),
                            );
                            does.push(format!(
                                "A: rides to {}, the most stricken unit",
                                state.unit(unit).name
                            ));
                            self.ride(state, roller, id, spot, report, &mut decision);
                        }
                    }
                    Reaction::B => {
                        memory.post = None;
                        if let Some((front, _)) = self.front_centre(state) {
                            let spot = Self::clamp(state, front);
                            does.push(format!("B: advances to the centre of the front line ({spot})"));
                            self.ride(state, roller, id, spot, report, &mut decision);
                        }
                    }
                    Reaction::C => does.push("C: stands and does nothing".into()),
                    Reaction::D => match self.army.clone() {
                        Some(army) => {
                            does.push("D: orders up a unit of reinforcements".into());
                            self.call_up(state, roller, &army, report, &mut decision);
                        }
                        None => does.push(
                            "D: orders up reinforcements, but the scenario has none: stands (ruling O17)"
                                .into(),
                        ),
                    },
                    Reaction::E => {
                        memory.post = None;
                        let rear = self.rear_centre(state);
                        if general.base.centre.distance(rear) <= 1.0 {
                            memory.left = true;
                            does.push(
                                "E: already at the rear baseline, rides off the table for good"
                                    .into(),
                            );
                        } else {
                            does.push(format!("E: rides to the rear ({rear})"));
                            self.ride(state, roller, id, rear, report, &mut decision);
                        }
                    }
                }
            }
        }
        if let Some(post) = memory.post
            && !state.general(id).moved
        {
            if state.general(id).base.centre.distance(post) <= 0.25 {
                memory.post = None;
            } else {
                does.push(format!("rides towards his start position {post}"));
                self.ride(state, roller, id, post, report, &mut decision);
                if state.general(id).base.centre.distance(post) <= 0.25 {
                    memory.post = None;
                }
            }
        }
        // Ruling PL4: with no reaction to make and his start position
        // reached, an attacking general rides with the attack.
        if decision.reaction.is_none()
            && memory.post.is_none()
            && !state.general(id).moved
            && self.rule("general-leads")
            && let Some((front, forward)) = self.front_centre(state)
        {
            let behind = self.tables.opponent.rules.general_leads.behind;
            let spot = Self::clamp(state, front + forward * -behind);
            if state.general(id).base.centre.distance(spot) > 0.5 {
                does.push(format!(
                    "rides with the attack, {behind}\" behind the centre of the front line ({spot}; plan: {}, rule general-leads)",
                    self.plan.describe()
                ));
                self.ride(state, roller, id, spot, report, &mut decision);
            }
        }
        if does.is_empty() {
            does.push("no trigger: stays where he is".into());
        }
        decision.does = does.join("; ");
        self.generals[id.0] = memory;
        decision
    }

    /// The most stricken unit: the most hits, then the nearest the enemy,
    /// then the lowest id.
    fn most_stricken(&self, state: &GameState) -> Option<UnitId> {
        let enemies = super::active_ids(state, GameState::enemy_of(self.side));
        // Each unit's key is worked out once (and its distances remembered),
        // not at every comparison.
        let nearest = |id: UnitId| {
            enemies
                .iter()
                .map(|e| self.memo.distance(state, id, *e))
                .fold(f64::INFINITY, f64::min)
        };
        state
            .active_units(self.side)
            .map(|id| (std::cmp::Reverse(state.unit(id).hits), nearest(id), id))
            .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)))
            .map(|(_, _, id)| id)
    }

    /// Reaction D with a table: roll d100 for one unit, call it up, and
    /// give it its character if its class is rated (companion C4).
    fn call_up(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        army: &str,
        report: &mut TurnReport,
        decision: &mut GeneralDecision,
    ) {
        let roll = roller.roll_for(Die::D100, format_args!("reinforcements"));
        let Ok((_, table)) = self.tables.reinforcements.army(army) else {
            return;
        };
        let Some((troop_id, entry)) = self.tables.reinforcements.select(table, roll) else {
            return;
        };
        let (troop_id, entry) = (troop_id.to_string(), entry.clone());
        self.called_up += 1;
        let name = format!("{} (reinforcement {})", entry.name, self.called_up);
        let action = Action::CallUp {
            name,
            troop: reinforcement_troop(&troop_id).to_string(),
        };
        let mut events = Vec::new();
        decision.called_up = Some((roll, entry.name.clone()));
        if self.send(
            state,
            roller,
            action,
            report,
            Some((&mut decision.actions, &mut decision.refused, &mut events)),
        ) {
            for event in &events {
                if let Event::CalledUp { unit, .. } = event {
                    let rated = self
                        .tables
                        .reaction
                        .class(&entry.class)
                        .is_ok_and(|(_, row)| row.rated);
                    let character = rated.then(|| {
                        let roll =
                            roller.roll_for(Die::D100, format_args!("reinforcement's character"));
                        self.tables.characters.roll(roll)
                    });
                    let mut memory =
                        self.memory_for(state, *unit, entry.class.clone(), None, character, None);
                    memory.formation = Formation::default_for(
                        self.tables
                            .reaction
                            .class(&entry.class)
                            .map_or(crate::tables::ClassKind::Line, |(_, row)| row.kind),
                    );
                    self.units[unit.0] = Some(memory);
                }
            }
        }
    }
}
