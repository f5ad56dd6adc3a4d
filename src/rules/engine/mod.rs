//! Applying actions: every check before any change (a refused action leaves
//! the state as it was), then the change and its events; the turn sequence
//! and the automatic procedures it runs.
//!
//! Laid out by the seed-000 rules' own procedures, so a clause is found by
//! its name: this file holds the *Sequence of Play* (phases ending and
//! turns passing, the Melee and Rout phases run as they begin), the
//! dispatch of every action to its check (`plan`) and to its carrying out
//! (`execute`), and what several procedures share (modifiers applied in
//! order, hits taken). The procedures themselves are `movement`,
//! `charges`, `shooting`, `melee`, `rout`, `rally` and `victory`;
//! `legal` lists the actions the side to act may take.

mod charges;
mod legal;
mod melee;
mod movement;
mod quick_moves;
mod quick_refusals;
mod rally;
mod rout;
mod shooting;
mod victory;

use super::event::{Action, Applied, Cause, Event, Refusal, Volley, Weapon};
use super::id::{GeneralId, UnitId};
use super::state::{GameState, General, Status, Unit};
use super::table::{Modifier, Operation, Procedure, Role, Situation};
use crate::battlefield::{Base, Point};
use crate::dice::Roller;
use crate::ruleset::{Category, TroopTypeId};

/// Sampling step along a move, inches: fine enough that a 0.5" cell or a
/// 1.5"-deep base cannot be slipped through.
const STEP: f64 = 0.1;

/// Two bases this close (inches) are in contact.
pub const CONTACT: f64 = 0.01;

/// A checked action, with everything worked out, ready to carry out.
#[derive(Debug, Clone)]
enum Plan {
    Pivot {
        unit: UnitId,
        facing: f64,
    },
    Move {
        unit: UnitId,
        path: Vec<Point>,
        facing: f64,
        cost: f64,
        road: bool,
    },
    Charge {
        unit: UnitId,
        target: UnitId,
        to: Point,
        facing: f64,
        flank_or_rear: bool,
    },
    MoveGeneral {
        general: GeneralId,
        to: Point,
    },
    Fire {
        unit: UnitId,
        target: UnitId,
        weapon: Weapon,
        range: f64,
        volley: Volley,
    },
    Rally {
        general: GeneralId,
        units: Vec<UnitId>,
    },
    CallUp {
        name: String,
        troop: TroopTypeId,
    },
    Rout {
        unit: UnitId,
    },
    Enter {
        unit: UnitId,
        base: Base,
    },
    EndPhase,
}

/// An action the engine has accepted, with its plan already worked out:
/// [`GameState::apply_checked`] carries it out without checking it again.
/// Only valid for the state it was checked against, unchanged since.
#[derive(Debug, Clone)]
pub struct Checked {
    action: Action,
    plan: Plan,
}

impl Checked {
    /// The action that was checked.
    pub fn action(&self) -> &Action {
        &self.action
    }
}

/// A straight or road move to be checked.
struct Path<'a> {
    unit: UnitId,
    points: &'a [Point],
    travel_facing: f64,
    end_facing: f64,
    road: bool,
    charge_target: Option<UnitId>,
    /// Only whether the path is lawful matters, not which refusal: the
    /// check may stop as soon as the cost is over the allowance.
    quick: bool,
}

impl GameState {
    /// Whether `action` would be accepted now, and if not, why.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        self.plan(action, false).map(|_| ())
    }

    /// Whether `action` would be accepted now: exactly `check(action).is_ok()`,
    /// quicker for a refused move, because the reason is not worked out in
    /// full (a move's cost only grows along its path, so once it is over the
    /// allowance the move is refused whatever comes after).
    pub fn allows(&self, action: &Action) -> bool {
        self.plan(action, true).is_ok()
    }

    /// Like [`GameState::check`], keeping the plan when `action` is accepted
    /// so that [`GameState::apply_checked`] need not work it out again.
    /// With `quick`, a refused move's reason is not worked out in full (as
    /// [`GameState::allows`]); an accepted action's plan is the same either way.
    pub fn checked(&self, action: &Action, quick: bool) -> Result<Checked, Refusal> {
        self.plan(action, quick).map(|plan| Checked {
            action: action.clone(),
            plan,
        })
    }

    /// Apply `action` for the side to act, rolling with `roller`. On refusal
    /// nothing changes and no die is rolled.
    pub fn apply(
        &mut self,
        action: &Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, Refusal> {
        let plan = self.plan(action, false)?;
        Ok(self.execute(plan, roller))
    }

    /// Apply an action checked by [`GameState::checked`] against this very
    /// state (unchanged since): the same events as [`GameState::apply`],
    /// without checking it a second time.
    pub fn apply_checked(&mut self, checked: Checked, roller: &mut dyn Roller) -> Vec<Event> {
        self.execute(checked.plan, roller)
    }

    fn execute(&mut self, plan: Plan, roller: &mut dyn Roller) -> Vec<Event> {
        let mut events = Vec::new();
        match plan {
            Plan::Pivot { unit, facing } => {
                let u = &mut self.units[unit.0];
                let from = u.base.facing;
                u.base = Base::new(u.base.centre, facing, u.base.frontage, u.base.depth);
                u.pivoted = true;
                events.push(Event::Pivoted {
                    unit,
                    from,
                    to: u.base.facing,
                });
            }
            Plan::Move {
                unit,
                path,
                facing,
                cost,
                road,
            } => {
                let u = &mut self.units[unit.0];
                let from = u.base.centre;
                let to = *path.last().unwrap_or(&from);
                u.base = Base::new(to, facing, u.base.frontage, u.base.depth);
                u.moved = true;
                events.push(Event::Moved {
                    unit,
                    from,
                    to,
                    facing: u.base.facing,
                    cost,
                    road,
                });
            }
            Plan::Charge {
                unit,
                target,
                to,
                facing,
                flank_or_rear,
            } => {
                let u = &mut self.units[unit.0];
                let from = u.base.centre;
                u.base = Base::new(to, facing, u.base.frontage, u.base.depth);
                u.moved = true;
                u.charging = Some(target);
                u.charge_in_flank = flank_or_rear;
                self.charges.push((unit, target));
                events.push(Event::Charged {
                    unit,
                    target,
                    from,
                    to,
                    facing: u.base.facing,
                    flank_or_rear,
                });
            }
            Plan::MoveGeneral { general, to } => {
                let g = &mut self.generals[general.0];
                let from = g.base.centre;
                g.base = Base::new(to, g.base.facing, g.base.frontage, g.base.depth);
                g.moved = true;
                events.push(Event::GeneralMoved { general, from, to });
            }
            Plan::Fire {
                unit,
                target,
                weapon,
                range,
                volley,
            } => self.fire(unit, target, (weapon, volley), range, roller, &mut events),
            Plan::Rally { general, units } => self.rally(general, &units, roller, &mut events),
            Plan::Rout { unit } => {
                // Ruling O12: a unit that breaks is routed at once.
                let u = &mut self.units[unit.0];
                u.status = Status::Routed;
                events.push(Event::Routed { unit, hits: u.hits });
            }
            Plan::CallUp { name, troop } => {
                let side = self.active;
                let edge = self.sides[side].edge;
                let field = &self.battlefield;
                let kind = field.ruleset.troop(troop);
                let (frontage, depth) = (kind.frontage, kind.depth);
                let centre = edge_centre(edge, field.width(), field.height(), depth / 2.0);
                let base = Base::new(centre, edge.opposite().bearing(), frontage, depth);
                let unit = UnitId(self.units.len());
                self.units.push(Unit::reserve(
                    name,
                    side,
                    troop,
                    field.category(troop),
                    base,
                ));
                events.push(Event::CalledUp {
                    unit,
                    troop: self.battlefield.ruleset.troop(troop).name.clone(),
                });
            }
            Plan::Enter { unit, base } => {
                let u = &mut self.units[unit.0];
                u.base = base;
                u.status = Status::Active;
                u.moved = true;
                self.sides[u.side].starting_units += 1;
                events.push(Event::Entered {
                    unit,
                    to: base.centre,
                    facing: base.facing,
                });
            }
            Plan::EndPhase => self.end_phase(roller, &mut events),
        }
        events
    }

    fn plan(&self, action: &Action, quick: bool) -> Result<Plan, Refusal> {
        if self.is_over() {
            return Err(Refusal::GameOver);
        }
        if let Some(kind) = action.kind() {
            let rule = &self.rules.phases[self.phase_index];
            if !rule.actions.contains(&kind) {
                return Err(Refusal::WrongPhase {
                    action: kind,
                    phase: rule.phase,
                });
            }
        }
        match action {
            Action::EndPhase => Ok(Plan::EndPhase),
            Action::Pivot { unit, facing } => self.plan_pivot(*unit, *facing),
            Action::Move { unit, to, facing } => {
                let u = self.own_unit(*unit)?;
                self.not_moved(u)?;
                let points = [u.base.centre, *to];
                self.enemy_presence(*unit, &points, false)?;
                let cost = self.check_path(&Path {
                    unit: *unit,
                    points: &points,
                    travel_facing: u.base.facing,
                    end_facing: *facing,
                    road: false,
                    charge_target: None,
                    quick,
                })?;
                Ok(Plan::Move {
                    unit: *unit,
                    path: vec![*to],
                    facing: *facing,
                    cost,
                    road: false,
                })
            }
            Action::MoveRoad { unit, path, facing } => {
                let u = self.own_unit(*unit)?;
                self.not_moved(u)?;
                if path.is_empty() {
                    return Err(Refusal::EmptyPath);
                }
                let mut points = vec![u.base.centre];
                points.extend(path.iter().copied());
                self.enemy_presence(*unit, &points, true)?;
                let cost = self.check_path(&Path {
                    unit: *unit,
                    points: &points,
                    travel_facing: u.base.facing,
                    end_facing: *facing,
                    road: true,
                    charge_target: None,
                    quick,
                })?;
                Ok(Plan::Move {
                    unit: *unit,
                    path: path.clone(),
                    facing: *facing,
                    cost,
                    road: true,
                })
            }
            Action::Charge { unit, target } => self.plan_charge(*unit, *target, quick),
            Action::MoveGeneral { general, to } => self.plan_general(*general, *to),
            Action::Fire {
                unit,
                target,
                volley,
            } => self.plan_fire(*unit, *target, *volley),
            Action::Rally { general, units } => self.plan_rally(*general, units),
            Action::CallUp { name, troop } => {
                let troop_id = self.battlefield.ruleset.troop_type(troop).ok_or_else(|| {
                    Refusal::UnknownTroop {
                        troop: troop.clone(),
                    }
                })?;
                if self.battlefield.ruleset.troop(troop_id).category == Category::General {
                    return Err(Refusal::UnknownTroop {
                        troop: troop.clone(),
                    });
                }
                if name.trim().is_empty() || self.units.iter().any(|u| u.name == *name) {
                    return Err(Refusal::NameTaken { name: name.clone() });
                }
                Ok(Plan::CallUp {
                    name: name.clone(),
                    troop: troop_id,
                })
            }
            Action::Enter { unit, to, facing } => self.plan_enter(*unit, *to, *facing),
            Action::Rout { unit } => {
                self.own_unit(*unit)?;
                Ok(Plan::Rout { unit: *unit })
            }
        }
    }

    fn unit_checked(&self, id: UnitId) -> Result<&Unit, Refusal> {
        let unit = self
            .units
            .get(id.0)
            .ok_or(Refusal::NoSuchUnit { index: id.0 })?;
        if !unit.is_active() {
            return Err(Refusal::NotOnTable {
                name: unit.name.clone(),
            });
        }
        Ok(unit)
    }

    fn own_unit(&self, id: UnitId) -> Result<&Unit, Refusal> {
        let unit = self.unit_checked(id)?;
        if unit.side != self.active {
            return Err(Refusal::NotYours {
                name: unit.name.clone(),
            });
        }
        Ok(unit)
    }

    /// A general of the side to act.
    fn own_general(&self, id: GeneralId) -> Result<&General, Refusal> {
        let general = self
            .generals
            .get(id.0)
            .ok_or(Refusal::NoSuchGeneral { index: id.0 })?;
        if general.side != self.active {
            return Err(Refusal::NotYours {
                name: general.name.clone(),
            });
        }
        Ok(general)
    }

    fn enemy_unit(&self, id: UnitId) -> Result<&Unit, Refusal> {
        let unit = self.unit_checked(id)?;
        if unit.side == self.active {
            return Err(Refusal::NotAnEnemy {
                name: unit.name.clone(),
            });
        }
        Ok(unit)
    }

    fn not_moved(&self, unit: &Unit) -> Result<(), Refusal> {
        if unit.moved {
            return Err(Refusal::AlreadyMoved {
                name: unit.name.clone(),
            });
        }
        Ok(())
    }

    fn take_hits(&mut self, id: UnitId, hits: u32, cause: Cause, events: &mut Vec<Event>) {
        if hits == 0 {
            return;
        }
        let unit = &mut self.units[id.0];
        unit.hits += hits;
        events.push(Event::HitsTaken {
            unit: id,
            hits,
            total: unit.hits,
            cause,
        });
    }

    fn end_phase(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        loop {
            events.push(Event::PhaseEnded {
                turn: self.turn,
                side: self.active,
                phase: self.phase(),
            });
            if self.check_victory(events) {
                return;
            }
            self.advance(events);
            if self.is_over() {
                return;
            }
            match self.rules.phases[self.phase_index].procedure {
                Some(Procedure::Melee) => self.melee_phase(roller, events),
                Some(Procedure::Rout) => self.rout_phase(events),
                None => return,
            }
        }
    }

    /// Move to the next phase, player turn or game turn; end the game after
    /// the last.
    fn advance(&mut self, events: &mut Vec<Event>) {
        self.phase_index += 1;
        if self.phase_index < self.rules.phases.len() {
            return;
        }
        self.phase_index = 0;
        let second = self.active != self.first;
        if second {
            events.push(Event::TurnEnded { turn: self.turn });
            if self.turn >= self.turns {
                self.finish(events);
                return;
            }
            self.turn += 1;
        }
        self.active = GameState::enemy_of(self.active);
        self.charges.clear();
        for unit in &mut self.units {
            unit.moved = false;
            unit.pivoted = false;
            unit.fired = false;
            unit.charging = None;
            unit.charge_in_flank = false;
        }
        for general in &mut self.generals {
            general.moved = false;
            general.rallied = false;
        }
        events.push(Event::TurnBegan {
            turn: self.turn,
            side: self.active,
        });
    }

    /// `candidates` sorted nearest first by centre distance to `point`
    /// (ties by id).
    pub fn nearest(&self, point: Point, candidates: &[UnitId]) -> Vec<UnitId> {
        let mut sorted = candidates.to_vec();
        sorted.sort_by(|a, b| {
            let da = self.units[a.0].base.centre.distance(point);
            let db = self.units[b.0].base.centre.distance(point);
            da.total_cmp(&db).then(a.0.cmp(&b.0))
        });
        sorted
    }

    /// Whether two units' bases touch.
    pub fn in_contact(&self, a: UnitId, b: UnitId) -> bool {
        self.units[a.0].base.within(&self.units[b.0].base, CONTACT)
    }
}

/// Apply `modifiers` in order to `score`, recording each that applies.
/// Whether `modifier` counts for `unit` against `opponent` in `role`.
fn applies(
    modifier: &Modifier,
    unit: &Unit,
    opponent: &Unit,
    role: Option<Role>,
    situations: &[Situation],
) -> bool {
    modifier
        .unit
        .as_ref()
        .is_none_or(|set| set.contains(unit.troop, unit.category))
        && modifier
            .opponent
            .as_ref()
            .is_none_or(|set| set.contains(opponent.troop, opponent.category))
        && modifier.role.is_none_or(|r| Some(r) == role)
        && modifier.when.is_none_or(|w| situations.contains(&w))
}

fn apply_modifiers(
    modifiers: &[Modifier],
    mut score: i32,
    unit: &Unit,
    opponent: &Unit,
    role: Option<Role>,
    situations: &[Situation],
    applied: &mut Vec<Applied>,
) -> i32 {
    for modifier in modifiers {
        if !applies(modifier, unit, opponent, role, situations) {
            continue;
        }
        // Saturating: a house-ruled table's steps (each within ±1,000, the
        // rule-set check) may still multiply past i32.
        score = match modifier.operation {
            Operation::Add(n) => score.saturating_add(n),
            Operation::Multiply(n) => score.saturating_mul(n),
        };
        applied.push(Applied {
            label: modifier.label.clone(),
            operation: modifier.operation,
            score,
        });
    }
    score
}

/// A point `inset` inches in from the middle of `edge`.
fn edge_centre(edge: crate::battlefield::Edge, width: f64, height: f64, inset: f64) -> Point {
    use crate::battlefield::Edge;
    match edge {
        Edge::North => Point::new(width / 2.0, height - inset),
        Edge::South => Point::new(width / 2.0, inset),
        Edge::East => Point::new(width - inset, height / 2.0),
        Edge::West => Point::new(inset, height / 2.0),
    }
}
