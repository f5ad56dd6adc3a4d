//! Applying actions: every check before any change (a refused action leaves
//! the state as it was), then the change and its events; the automatic
//! procedures (melee, rout, army resolve) and the victory check.

use super::event::{Action, Applied, Cause, Event, MeleeRoll, Refusal, Volley, Weapon};
use super::state::{Condition, GameState, GeneralId, Outcome, Status, Unit, UnitId};
use super::table::{ActionKind, Modifier, Operation, Procedure, Role, Situation};
use crate::battlefield::geometry::{EPSILON, maybe_within_segment, turn_between};
use crate::battlefield::{Base, Point, Vector};
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

    /// A reserve enters with its base on the table touching its own edge,
    /// on ground it may enter, overlapping nobody and clear of the enemy.
    fn plan_enter(&self, id: UnitId, to: Point, facing: f64) -> Result<Plan, Refusal> {
        let unit = self
            .units
            .get(id.0)
            .ok_or(Refusal::NoSuchUnit { index: id.0 })?;
        let name = || unit.name.clone();
        if unit.side != self.active {
            return Err(Refusal::NotYours { name: name() });
        }
        if !unit.is_reserve() {
            return Err(Refusal::NotInReserve { name: name() });
        }
        let field = &self.battlefield;
        let base = Base::new(to, facing, unit.base.frontage, unit.base.depth);
        if !field.base_on_table(&base) {
            return Err(Refusal::OffTable { name: name() });
        }
        let edge = self.sides[unit.side].edge;
        let gap = base
            .corners()
            .iter()
            .map(|c| match edge {
                crate::battlefield::Edge::South => c.y,
                crate::battlefield::Edge::North => field.height() - c.y,
                crate::battlefield::Edge::West => c.x,
                crate::battlefield::Edge::East => field.width() - c.x,
            })
            .fold(f64::INFINITY, f64::min);
        if gap > 0.05 {
            return Err(Refusal::NotAtOwnEdge { name: name() });
        }
        let passable = field
            .grid
            .cell_at(to)
            .is_some_and(|cell| field.passable(unit.troop, cell));
        if !passable {
            return Err(Refusal::Impassable {
                name: name(),
                at: to,
            });
        }
        if let Some(other) = self.overlapping(&base, id, None) {
            return Err(self.interpenetration(unit, other));
        }
        if let Some(enemy) = self.units.iter().find(|u| {
            u.is_active()
                && u.side != unit.side
                && !base.surely_farther_than(&u.base, self.rules.keep_clear)
                && base.distance_to(&u.base) < self.rules.keep_clear
        }) {
            return Err(Refusal::ContactWithoutCharge {
                name: name(),
                enemy: enemy.name.clone(),
            });
        }
        Ok(Plan::Enter { unit: id, base })
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

    fn plan_pivot(&self, id: UnitId, facing: f64) -> Result<Plan, Refusal> {
        let unit = self.own_unit(id)?;
        self.not_moved(unit)?;
        if unit.pivoted {
            return Err(Refusal::AlreadyPivoted {
                name: unit.name.clone(),
            });
        }
        let turned = Base::new(
            unit.base.centre,
            facing,
            unit.base.frontage,
            unit.base.depth,
        );
        if !self.battlefield.base_on_table(&turned) {
            return Err(Refusal::OffTable {
                name: unit.name.clone(),
            });
        }
        if let Some(other) = self.overlapping(&turned, id, None) {
            return Err(Refusal::Interpenetration {
                name: unit.name.clone(),
                other: self.units[other.0].name.clone(),
            });
        }
        Ok(Plan::Pivot { unit: id, facing })
    }

    /// Seed 000 Enemy Presence: a unit that starts its move within the
    /// distance of an enemy unit may only go directly away from or directly
    /// towards one of those enemies. Road moves bend, so they are refused.
    fn enemy_presence(&self, id: UnitId, points: &[Point], road: bool) -> Result<(), Refusal> {
        let unit = &self.units[id.0];
        let near: Vec<&Unit> = self
            .units
            .iter()
            .filter(|u| u.is_active() && u.side != unit.side)
            .filter(|u| {
                unit.base
                    .within(&u.base, self.rules.enemy_presence + EPSILON)
            })
            .collect();
        if near.is_empty() {
            return Ok(());
        }
        let refusal = Refusal::EnemyPresence {
            name: unit.name.clone(),
            within: self.rules.enemy_presence,
        };
        if road {
            return Err(refusal);
        }
        let start = points[0];
        let end = *points.last().unwrap_or(&start);
        let travel = end - start;
        if travel.length() < EPSILON {
            return Ok(());
        }
        let tolerance = self.rules.directly_within;
        let direct = near.iter().any(|enemy| {
            let towards = (enemy.base.centre - start).bearing();
            let angle = turn_between(travel.bearing(), towards);
            angle <= tolerance + EPSILON || angle >= 180.0 - tolerance - EPSILON
        });
        if direct { Ok(()) } else { Err(refusal) }
    }

    /// The movement cost of a path, checking ground, the table edge, other
    /// units and (outside charges) contact with the enemy.
    fn check_path(&self, path: &Path<'_>) -> Result<f64, Refusal> {
        if path.quick {
            // Only yes or no is wanted, so the cheap checks of where the
            // unit ends go first: most refused tries end on someone, off
            // the table or against the enemy, and need no walk.
            self.check_path_end(path)?;
        }
        let unit = &self.units[path.unit.0];
        let field = &self.battlefield;
        let name = || unit.name.clone();
        let category = unit.category;
        let allowance = field.ruleset.move_inches[category.index()];
        let road_factor = self.road_factor(category);
        let mut cost = 0.0;
        let mut previous_cell = field.grid.cell_at(path.points[0]);
        let mut climbing = false;
        // The sampled points along the path, from its start: the cost is
        // summed over them here, and the sweep below (rarely needed) walks
        // them again rather than keeping them.
        let steps = |a: Point, b: Point| ((a.distance(b) / STEP).ceil() as usize).max(1);
        let sweep = || {
            std::iter::once(path.points[0]).chain(path.points.windows(2).flat_map(|pair| {
                let (a, b) = (pair[0], pair[1]);
                let n_steps = steps(a, b);
                (1..=n_steps).map(move |step| a.lerp(b, step as f64 / n_steps as f64))
            }))
        };
        let mut sweep_len: usize = 1;
        // The last cell looked up and its cost of an inch: most steps stay
        // in the cell before, which was accepted then and costs the same.
        let mut looked_up: Option<(usize, f64)> = None;
        for pair in path.points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let n_steps = steps(a, b);
            // A move of 1e20" has `usize::MAX` steps (the float cast
            // saturates): its first few leave the table, and the count must
            // not wrap before they do.
            sweep_len = sweep_len.saturating_add(n_steps);
            let mut last = a;
            for step in 1..=n_steps {
                let point = a.lerp(b, step as f64 / n_steps as f64);
                let Some(cell) = field.grid.cell_at(point) else {
                    return Err(Refusal::OffTable { name: name() });
                };
                let multiplier = match looked_up {
                    Some((known, multiplier)) if known == cell => multiplier,
                    _ => {
                        let Some(mut multiplier) = field.cost_multiplier(unit.troop, cell) else {
                            return Err(Refusal::Impassable {
                                name: name(),
                                at: point,
                            });
                        };
                        if path.road {
                            if !field.on_road(cell) {
                                return Err(Refusal::OffRoad {
                                    name: name(),
                                    at: point,
                                });
                            }
                        } else if field.on_road(cell) {
                            // The battlefield's road cells include the road
                            // bonus; a move not along the road does not earn it.
                            multiplier *= road_factor;
                        }
                        looked_up = Some((cell, multiplier));
                        multiplier
                    }
                };
                if Some(cell) != previous_cell {
                    climbing = previous_cell
                        .is_some_and(|p| field.grid.ground[cell] > field.grid.ground[p] + 1e-4);
                    previous_cell = Some(cell);
                }
                let slope = if climbing {
                    1.0 / field.ruleset.uphill_speed
                } else {
                    1.0
                };
                cost += last.distance(point) * multiplier * slope;
                if path.quick && cost > allowance + 1e-6 {
                    // Every step adds a cost of zero or more: refused.
                    return Err(Refusal::TooFar {
                        name: name(),
                        cost,
                        allowance,
                    });
                }
                last = point;
            }
        }
        if cost > allowance + 1e-6 {
            return Err(Refusal::TooFar {
                name: name(),
                cost,
                allowance,
            });
        }
        // No interpenetration: the base, as it travels, overlaps nobody.
        // Only units near the path can be met: a broad phase over the whole
        // path first, then the fine steps against those few (usually none).
        let travelling = Base::new(
            path.points[0],
            path.travel_facing,
            unit.base.frontage,
            unit.base.depth,
        );
        let near = self.near_path(&travelling, path.points, path.unit, path.charge_target);
        if !near.is_empty() {
            for (index, point) in sweep().enumerate() {
                let moved = travelling.moved_to(point);
                if index + 1 == sweep_len {
                    // Also at the travel facing, before the end pivot.
                    if let Some(other) = self.overlapping_among(&moved, &near) {
                        return Err(self.interpenetration(unit, other));
                    }
                    let base = Base::new(point, path.end_facing, moved.frontage, moved.depth);
                    if let Some(other) = self.overlapping_among(&base, &near) {
                        return Err(self.interpenetration(unit, other));
                    }
                } else if let Some(other) = self.overlapping_among(&moved, &near) {
                    return Err(self.interpenetration(unit, other));
                }
            }
        }
        if !path.quick {
            self.check_path_end(path)?;
        }
        Ok(cost)
    }

    /// The checks of where a path ends: on the table, clear of the enemy
    /// (outside charges), and, for a quick check, on nobody (the walk
    /// checks that as it goes, and a full check keeps its order).
    fn check_path_end(&self, path: &Path<'_>) -> Result<(), Refusal> {
        let unit = &self.units[path.unit.0];
        let name = || unit.name.clone();
        let at = *path.points.last().unwrap_or(&unit.base.centre);
        let end = Base::new(at, path.end_facing, unit.base.frontage, unit.base.depth);
        if path.quick {
            // The walk's last checks, at the travel facing and the end one,
            // at its last sampled point: the lerp to the end at fraction
            // n/n, which is exactly 1 (and the lerp may round off the end).
            let last = match path.points {
                [.., a, b] => a.lerp(*b, 1.0),
                _ => at,
            };
            let travelled = Base::new(
                last,
                path.travel_facing,
                unit.base.frontage,
                unit.base.depth,
            );
            let end = Base::new(last, path.end_facing, unit.base.frontage, unit.base.depth);
            for base in [&travelled, &end] {
                if let Some(other) = self.overlapping(base, path.unit, path.charge_target) {
                    return Err(self.interpenetration(unit, other));
                }
            }
        }
        if !self.battlefield.base_on_table(&end) {
            return Err(Refusal::OffTable { name: name() });
        }
        for enemy in self
            .units
            .iter()
            .enumerate()
            .filter(|(index, u)| {
                u.is_active() && u.side != unit.side && Some(UnitId(*index)) != path.charge_target
            })
            .map(|(_, u)| u)
        {
            if !end.surely_farther_than(&enemy.base, self.rules.keep_clear)
                && end.distance_to(&enemy.base) < self.rules.keep_clear
            {
                return Err(Refusal::ContactWithoutCharge {
                    name: name(),
                    enemy: enemy.name.clone(),
                });
            }
        }
        Ok(())
    }

    fn interpenetration(&self, unit: &Unit, other: UnitId) -> Refusal {
        Refusal::Interpenetration {
            name: unit.name.clone(),
            other: self.units[other.0].name.clone(),
        }
    }

    /// The first active unit other than `me` and `ignore` that `base` overlaps.
    pub(super) fn overlapping(
        &self,
        base: &Base,
        me: UnitId,
        ignore: Option<UnitId>,
    ) -> Option<UnitId> {
        self.units
            .iter()
            .enumerate()
            .filter(|(index, u)| *index != me.0 && Some(UnitId(*index)) != ignore && u.is_active())
            .find(|(_, u)| base.overlaps_near(&u.base))
            .map(|(index, _)| UnitId(index))
    }

    /// The first of `candidates` (unit indices, in order) that `base` overlaps.
    fn overlapping_among(&self, base: &Base, candidates: &[usize]) -> Option<UnitId> {
        candidates
            .iter()
            .find(|&&index| base.overlaps_near(&self.units[index].base))
            .map(|&index| UnitId(index))
    }

    /// The active units other than `me` and `ignore` that `base` could
    /// overlap anywhere along the polyline `points` (a superset: any unit a
    /// base centred on the path overlaps is within both bases' reach of it).
    fn near_path(
        &self,
        base: &Base,
        points: &[Point],
        me: UnitId,
        ignore: Option<UnitId>,
    ) -> Vec<usize> {
        let reach = base.reach();
        self.units
            .iter()
            .enumerate()
            .filter(|(index, u)| *index != me.0 && Some(UnitId(*index)) != ignore && u.is_active())
            .filter(|(_, u)| {
                let limit = reach + u.base.reach() + 1e-6;
                let centre = u.base.centre;
                // A broad phase: a few more units than those strictly
                // within the limit change nothing (the fine steps decide).
                if points.len() < 2 {
                    return points
                        .iter()
                        .any(|p| maybe_within_segment(centre, *p, *p, limit));
                }
                points
                    .windows(2)
                    .any(|pair| maybe_within_segment(centre, pair[0], pair[1], limit))
            })
            .map(|(index, _)| index)
            .collect()
    }

    /// How much a road speeds up `category`: the road bonus as a factor.
    fn road_factor(&self, category: Category) -> f64 {
        let ruleset = &self.battlefield.ruleset;
        let allowance = ruleset.move_inches[category.index()];
        (allowance + ruleset.road_bonus) / allowance
    }

    fn plan_charge(&self, id: UnitId, target_id: UnitId, quick: bool) -> Result<Plan, Refusal> {
        let unit = self.own_unit(id)?;
        self.not_moved(unit)?;
        if unit.pivoted {
            // The charge's own pivot is its start-of-move pivot.
            return Err(Refusal::AlreadyPivoted {
                name: unit.name.clone(),
            });
        }
        let target = self.enemy_unit(target_id)?;
        let ruleset = &self.battlefield.ruleset;
        let allowed = self.rules.may_charge(unit.troop, unit.category);
        if !allowed.is_some_and(|set| set.contains(target.troop, target.category)) {
            return Err(Refusal::MayNotCharge {
                charger: ruleset.troop(unit.troop).name.clone(),
                target: target.name.clone(),
                allowed: allowed.map(|set| set.names.clone()).unwrap_or_default(),
            });
        }
        if let Some((by, _)) = self.charges.iter().find(|(_, t)| *t == target_id) {
            return Err(Refusal::AlreadyCharged {
                target: target.name.clone(),
                by: self.units[by.0].name.clone(),
            });
        }
        let line = target.base.centre - unit.base.centre;
        let facing = line.bearing();
        let needed = turn_between(unit.base.facing, facing);
        if needed > self.rules.charge_max_pivot + 1e-6 {
            return Err(Refusal::ChargePivot {
                needed,
                most: self.rules.charge_max_pivot,
            });
        }
        if quick && self.surely_out_of_charge_reach(unit, target, facing) {
            // Only a yes or no is wanted, and no path to contact could be
            // paid for: no need to find the contact point.
            return Err(Refusal::TooFar {
                name: unit.name.clone(),
                cost: f64::INFINITY,
                allowance: ruleset.move_inches[unit.category.index()],
            });
        }
        let to = remembered_contact_point(&unit.base, facing, &target.base);
        // A charger already in contact pivots where it stands; a pivot that
        // would swing its base into the target is no charge (units never
        // move through one another, seed 000 Interpenetration).
        if Base::new(to, facing, unit.base.frontage, unit.base.depth).overlaps(&target.base) {
            return Err(self.interpenetration(unit, target_id));
        }
        let points = [unit.base.centre, to];
        let path = Path {
            unit: id,
            points: &points,
            travel_facing: facing,
            end_facing: facing,
            road: false,
            charge_target: Some(target_id),
            quick,
        };
        if self.rules.charge_road_bonus {
            // House rule switch: charges along a road would earn the bonus;
            // seed 000 says they do not, so this branch is unused by default.
            self.check_path(&Path { road: true, ..path })?;
        } else {
            self.check_path(&path)?;
        }
        let flank_or_rear = target.base.arc_of(unit.base.centre) != crate::battlefield::Arc::Front;
        Ok(Plan::Charge {
            unit: id,
            target: target_id,
            to,
            facing,
            flank_or_rear,
        })
    }

    /// Whether no charge by `unit` along `facing` could reach `target`
    /// within its move allowance, judged without the contact point. The
    /// charger ends within [`CONTACT`] of the target, and a base moved `s`
    /// inches comes at most `s` inches nearer, so it travels at least its
    /// distance from the target (turned to charge) less [`CONTACT`]; first
    /// a cheaper bound from the centres less both bases' reach. No inch
    /// costs less than the table's cheapest (uphill only adds). The margin
    /// keeps rounding on the safe side: a charge it refuses, the full check
    /// refuses too.
    fn surely_out_of_charge_reach(&self, unit: &Unit, target: &Unit, facing: f64) -> bool {
        let field = &self.battlefield;
        let allowance = field.ruleset.move_inches[unit.category.index()];
        let cheapest = field.cheapest_multiplier(unit.category);
        let out_of_reach = |travel: f64| travel * cheapest > allowance + 0.01;
        let rough = unit.base.centre.distance(target.base.centre)
            - unit.base.reach()
            - target.base.reach()
            - CONTACT;
        if out_of_reach(rough) {
            return true;
        }
        let turned = Base::new(
            unit.base.centre,
            facing,
            unit.base.frontage,
            unit.base.depth,
        );
        out_of_reach(turned.distance_to(&target.base) - CONTACT)
    }

    fn general_troop(&self) -> Option<TroopTypeId> {
        let ruleset = &self.battlefield.ruleset;
        ruleset
            .troop_types
            .iter()
            .position(|t| t.category == Category::General)
            .map(TroopTypeId)
    }

    fn plan_general(&self, id: GeneralId, to: Point) -> Result<Plan, Refusal> {
        let general = self
            .generals
            .get(id.0)
            .ok_or(Refusal::NoSuchGeneral { index: id.0 })?;
        let name = || general.name.clone();
        if general.side != self.active {
            return Err(Refusal::NotYours { name: name() });
        }
        if general.moved {
            return Err(Refusal::AlreadyMoved { name: name() });
        }
        let field = &self.battlefield;
        let allowance = field.ruleset.move_inches[Category::General.index()];
        let from = general.base.centre;
        let length = from.distance(to);
        let n_steps = ((length / STEP).ceil() as usize).max(1);
        let mut cost = 0.0;
        let mut last = from;
        // Looked up once, not at every 0.1" step.
        let general_troop = self.general_troop();
        let road_factor = self.road_factor(Category::General);
        // As in `check_path`: the cost of an inch in the last cell looked up.
        let mut looked_up: Option<(usize, f64)> = None;
        for step in 1..=n_steps {
            let point = from.lerp(to, step as f64 / n_steps as f64);
            let Some(cell) = field.grid.cell_at(point) else {
                return Err(Refusal::OffTable { name: name() });
            };
            let multiplier = match (looked_up, general_troop) {
                (Some((known, multiplier)), _) if known == cell => multiplier,
                (_, Some(troop)) => {
                    let multiplier = match field.cost_multiplier(troop, cell) {
                        Some(m) if field.on_road(cell) => m * road_factor,
                        Some(m) => m,
                        None => {
                            return Err(Refusal::Impassable {
                                name: name(),
                                at: point,
                            });
                        }
                    };
                    looked_up = Some((cell, multiplier));
                    multiplier
                }
                (_, None) => 1.0,
            };
            cost += last.distance(point) * multiplier;
            last = point;
        }
        if cost > allowance + 1e-6 {
            return Err(Refusal::TooFar {
                name: name(),
                cost,
                allowance,
            });
        }
        let end = Base::new(
            to,
            general.base.facing,
            general.base.frontage,
            general.base.depth,
        );
        if !field.base_on_table(&end) {
            return Err(Refusal::OffTable { name: name() });
        }
        Ok(Plan::MoveGeneral { general: id, to })
    }

    /// Which weapon `unit` shoots with, if any.
    pub fn weapon_of(&self, unit: &Unit) -> Option<Weapon> {
        if self
            .rules
            .artillery
            .shooters
            .contains(unit.troop, unit.category)
        {
            Some(Weapon::Artillery)
        } else if self
            .rules
            .musket
            .shooters
            .contains(unit.troop, unit.category)
        {
            Some(Weapon::Musket)
        } else {
            None
        }
    }

    fn plan_fire(&self, id: UnitId, target_id: UnitId, volley: Volley) -> Result<Plan, Refusal> {
        let unit = self.own_unit(id)?;
        let name = || unit.name.clone();
        if unit.moved || unit.pivoted {
            return Err(Refusal::MovedThisTurn { name: name() });
        }
        if unit.fired {
            return Err(Refusal::AlreadyFired { name: name() });
        }
        let weapon = self
            .weapon_of(unit)
            .ok_or(Refusal::CannotShoot { name: name() })?;
        let target = self.enemy_unit(target_id)?;
        let target_name = || target.name.clone();
        if !unit.base.in_frontal_arc(&target.base) {
            return Err(Refusal::NotInArc {
                target: target_name(),
            });
        }
        let range = unit.base.distance_to(&target.base);
        let most = match weapon {
            Weapon::Musket => self.rules.musket.range,
            Weapon::Artillery => self.rules.artillery.max_range,
        };
        if range > most + 1e-6 {
            return Err(Refusal::OutOfRange {
                target: target_name(),
                range,
                most,
            });
        }
        if volley != Volley::Single {
            let refuse = |why: String| Refusal::VolleyNotAllowed {
                name: name(),
                volley,
                why,
            };
            let rule = self
                .rules
                .volley(volley)
                .ok_or_else(|| refuse("the rule set has no such volley".into()))?;
            if !rule.shooters.contains(unit.troop, unit.category) {
                return Err(refuse(format!(
                    "only {} may",
                    rule.shooters.names.join(", ")
                )));
            }
            if range > rule.within + 1e-6 {
                return Err(refuse(format!(
                    "`{}` is {range:.1}\" away, beyond {}\"",
                    target.name, rule.within
                )));
            }
        }
        if !self.battlefield.can_see(&unit.base, &target.base) {
            return Err(Refusal::NoLineOfSight {
                target: target_name(),
            });
        }
        let clearance = self.rules.friendly_clearance;
        if let Some(friend) = self.units.iter().enumerate().find(|(index, u)| {
            *index != id.0
                && u.is_active()
                && u.side == unit.side
                && u.base.within(&target.base, clearance + 1e-6)
        }) {
            return Err(Refusal::FriendNearTarget {
                target: target_name(),
                friend: friend.1.name.clone(),
                within: clearance,
            });
        }
        Ok(Plan::Fire {
            unit: id,
            target: target_id,
            weapon,
            range,
            volley,
        })
    }

    fn plan_rally(&self, id: GeneralId, units: &[UnitId]) -> Result<Plan, Refusal> {
        let general = self
            .generals
            .get(id.0)
            .ok_or(Refusal::NoSuchGeneral { index: id.0 })?;
        let name = || general.name.clone();
        if general.side != self.active {
            return Err(Refusal::NotYours { name: name() });
        }
        if general.rallied {
            return Err(Refusal::AlreadyRallied { name: name() });
        }
        if general.rallies_left == 0 {
            return Err(Refusal::NoRalliesLeft { name: name() });
        }
        if units.is_empty() {
            return Err(Refusal::NothingToRally);
        }
        for (index, unit_id) in units.iter().enumerate() {
            let unit = self.own_unit(*unit_id)?;
            if units[..index].contains(unit_id) {
                return Err(Refusal::RalliedTwice {
                    name: unit.name.clone(),
                });
            }
            if self.rules.rally_max[unit.troop.0] == 0 {
                return Err(Refusal::CannotBeRallied {
                    name: unit.name.clone(),
                });
            }
            let distance = general.base.distance_to(&unit.base);
            if distance > self.rules.rally_range + 1e-6 {
                return Err(Refusal::OutOfCommandRange {
                    name: unit.name.clone(),
                    distance,
                    range: self.rules.rally_range,
                });
            }
        }
        Ok(Plan::Rally {
            general: id,
            units: units.to_vec(),
        })
    }

    fn fire(
        &mut self,
        id: UnitId,
        target_id: UnitId,
        (weapon, volley): (Weapon, Volley),
        range: f64,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let rules = self.rules.clone();
        let roll = roller.roll(rules.shooting_die);
        let unit = &self.units[id.0];
        let target = &self.units[target_id.0];
        let mut situations = Vec::new();
        if self.in_cover(&target.base, unit.base.centre) {
            situations.push(Situation::TargetInCover);
        }
        if self.in_any(&target.base, &rules.artillery.woods_or_buildings) {
            situations.push(Situation::TargetInWoodsOrBuildings);
        }
        match volley {
            Volley::Single => {}
            Volley::Double => situations.push(Situation::DoubleVolley),
            Volley::Hasty => situations.push(Situation::HastyVolley),
        }
        let mut applied = Vec::new();
        let mut score = i32::from(roll);
        let modifiers = match weapon {
            Weapon::Musket => &rules.musket.modifiers,
            Weapon::Artillery => {
                // seed 000: "calculate the number of 6" bounds to reach the
                // target" (20" is 4 bounds), and deduct them.
                let bounds = ((range - 1e-9) / rules.artillery.bound).ceil().max(1.0) as i32;
                score -= bounds;
                applied.push(Applied {
                    label: format!("range {bounds} bounds"),
                    operation: Operation::Add(-bounds),
                    score,
                });
                &rules.artillery.modifiers
            }
        };
        score = apply_modifiers(
            modifiers,
            score,
            unit,
            target,
            None,
            &situations,
            &mut applied,
        );
        let hits = score.max(0) as u32;
        self.units[id.0].fired = true;
        events.push(Event::Fired {
            unit: id,
            target: target_id,
            weapon,
            range,
            roll,
            modifiers: applied,
            hits,
        });
        self.take_hits(target_id, hits, Cause::Fire, events);
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

    /// Whether any cell under `base` (or its centre's) has one of `kinds`.
    fn in_any(&self, base: &Base, kinds: &[crate::ruleset::TerrainId]) -> bool {
        let field = &self.battlefield;
        let holds = |cell| kinds.iter().any(|kind| field.grid.has(cell, *kind));
        let mut found = field.grid.cell_at(base.centre).is_some_and(holds);
        field.for_each_cell_under(base, |cell| found = found || holds(cell));
        found
    }

    fn rally(
        &mut self,
        id: GeneralId,
        units: &[UnitId],
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let roll = roller.roll(self.rules.rally_die);
        let mut points = u32::from(roll);
        let mut removed = Vec::new();
        for unit_id in units {
            let unit = &mut self.units[unit_id.0];
            let most = self.rules.rally_max[unit.troop.0];
            let take = points.min(most).min(unit.hits);
            unit.hits -= take;
            points -= take;
            removed.push((*unit_id, take));
        }
        let general = &mut self.generals[id.0];
        general.rallied = true;
        general.rallies_left -= 1;
        events.push(Event::Rallied {
            general: id,
            roll,
            removed,
            rallies_left: general.rallies_left,
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

    /// The last turn is over: areas held decide, else a draw.
    fn finish(&mut self, events: &mut Vec<Event>) {
        let held: Vec<(usize, usize)> = self
            .victory
            .iter()
            .enumerate()
            .filter_map(|(index, victory)| match &victory.when {
                Condition::HoldArea { side, min, max, .. } => {
                    let inside = |u: &&Unit| {
                        u.is_active()
                            && (min.x..=max.x).contains(&u.base.centre.x)
                            && (min.y..=max.y).contains(&u.base.centre.y)
                    };
                    let ours = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side)
                        .any(|u| inside(&u));
                    let theirs = self
                        .units
                        .iter()
                        .filter(|u| u.side != *side)
                        .any(|u| inside(&u));
                    (ours && !theirs).then_some((victory.winner, index))
                }
                _ => None,
            })
            .collect();
        self.declare(&held, events);
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::Draw);
            events.push(Event::GameEnded { draw: true });
        }
    }

    /// Declare the result of the conditions met: one side, or a draw if both.
    fn declare(&mut self, met: &[(usize, usize)], events: &mut Vec<Event>) -> bool {
        let Some(&(winner, condition)) = met.first() else {
            return false;
        };
        if met.iter().any(|(side, _)| *side != winner) {
            self.outcome = Some(Outcome::Draw);
            events.push(Event::GameEnded { draw: true });
        } else {
            self.outcome = Some(Outcome::Won {
                side: winner,
                condition,
            });
            events.push(Event::Victory { winner, condition });
            events.push(Event::GameEnded { draw: false });
        }
        true
    }

    /// Check the rout and exit conditions (after every phase).
    fn check_victory(&mut self, events: &mut Vec<Event>) -> bool {
        let met: Vec<(usize, usize)> = self
            .victory
            .iter()
            .enumerate()
            .filter(|(_, victory)| match &victory.when {
                Condition::RoutFraction { side, more_than } => {
                    let starting = self.sides[*side].starting_units as f64;
                    starting > 0.0 && self.lost(*side) as f64 > more_than * starting + 1e-9
                }
                Condition::RoutOrExit { side, troop, count } => {
                    let lost = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side && u.troop == *troop && !u.is_active())
                        .count();
                    lost as u32 >= *count
                }
                Condition::HoldArea { .. } => false,
            })
            .map(|(index, victory)| (victory.winner, index))
            .collect();
        self.declare(&met, events)
    }

    fn melee_phase(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        let charges = std::mem::take(&mut self.charges);
        for (charger, defender) in charges {
            if !(self.units[charger.0].is_active() && self.units[defender.0].is_active()) {
                continue;
            }
            let charger_roll = self.melee_roll(charger, defender, Role::Charger, roller);
            let defender_roll = self.melee_roll(defender, charger, Role::Defender, roller);
            let (to_defender, to_charger) = (charger_roll.hits, defender_roll.hits);
            events.push(Event::Melee {
                charger: charger_roll,
                defender: defender_roll,
            });
            self.take_hits(defender, to_defender, Cause::Melee, events);
            self.take_hits(charger, to_charger, Cause::Melee, events);
            let (charger_hits, defender_hits) =
                (self.units[charger.0].hits, self.units[defender.0].hits);
            // seed 000 Melee Retreat: the unit with the most total hits.
            let loser = if defender_hits > charger_hits {
                Some((defender, charger))
            } else if charger_hits > defender_hits {
                Some((charger, defender))
            } else {
                match self.rules.ties {
                    super::table::Ties::ChargerRetreats => Some((charger, defender)),
                    super::table::Ties::NobodyRetreats => None,
                }
            };
            if let Some((loser, winner)) = loser {
                self.retreat(loser, winner, events);
            }
            let unit = &mut self.units[charger.0];
            unit.charging = None;
        }
    }

    fn melee_roll(
        &self,
        id: UnitId,
        opponent_id: UnitId,
        role: Role,
        roller: &mut dyn Roller,
    ) -> MeleeRoll {
        let roll = roller.roll(self.rules.melee_die);
        let unit = &self.units[id.0];
        let opponent = &self.units[opponent_id.0];
        let mut situations = Vec::new();
        if role == Role::Charger {
            if unit.charge_in_flank {
                situations.push(Situation::FlankOrRearAttack);
            }
            let uphill = self.battlefield.height_at(opponent.base.centre)
                > self.battlefield.height_at(unit.base.centre) + 1e-4;
            if uphill || self.in_cover(&opponent.base, unit.base.centre) {
                situations.push(Situation::DefenderInCoverOrUphill);
            }
        }
        let mut modifiers = Vec::new();
        let score = apply_modifiers(
            &self.rules.melee_steps,
            i32::from(roll),
            unit,
            opponent,
            Some(role),
            &situations,
            &mut modifiers,
        );
        MeleeRoll {
            unit: id,
            roll,
            modifiers,
            hits: score.max(0) as u32,
        }
    }

    /// Seed 000 Melee Retreat: directly away from `from` a full move (terrain
    /// costs count, no road bonus), ending facing away. Stops short at
    /// impassable ground or another unit; a base that would leave the table
    /// is driven off it.
    fn retreat(&mut self, id: UnitId, from: UnitId, events: &mut Vec<Event>) {
        let unit = &self.units[id.0];
        let field = self.battlefield.clone();
        let mut direction = unit.base.centre - self.units[from.0].base.centre;
        if direction.length() < EPSILON {
            direction = unit.base.forward() * -1.0;
        }
        let direction = direction * (1.0 / direction.length());
        let allowance = field.ruleset.move_inches[unit.category.index()];
        let road_factor = self.road_factor(unit.category);
        let start = unit.base.centre;
        let mut at = start;
        let mut cost = 0.0;
        let mut blocked = false;
        let mut previous_cell = field.grid.cell_at(at);
        loop {
            let next = at + direction * STEP;
            let base = unit.base.moved_to(next);
            if !field.base_on_table(&base) {
                let unit = &mut self.units[id.0];
                unit.status = Status::Exited;
                unit.charging = None;
                events.push(Event::Exited { unit: id });
                return;
            }
            let Some(cell) = field.grid.cell_at(next) else {
                blocked = true;
                break;
            };
            let Some(mut multiplier) = field.cost_multiplier(unit.troop, cell) else {
                blocked = true;
                break;
            };
            if field.on_road(cell) {
                multiplier *= road_factor;
            }
            let climbing = previous_cell
                .is_some_and(|p| field.grid.ground[cell] > field.grid.ground[p] + 1e-4);
            let slope = if climbing {
                1.0 / field.ruleset.uphill_speed
            } else {
                1.0
            };
            let step_cost = STEP * multiplier * slope;
            if cost + step_cost > allowance + 1e-9 {
                break;
            }
            if self.overlapping(&base, id, None).is_some() {
                blocked = true;
                break;
            }
            at = next;
            cost += step_cost;
            previous_cell = Some(cell);
        }
        let unit = &self.units[id.0];
        let away = direction.bearing();
        let turned = Base::new(at, away, unit.base.frontage, unit.base.depth);
        let facing =
            if field.base_on_table(&turned) && self.overlapping(&turned, id, None).is_none() {
                away
            } else {
                unit.base.facing
            };
        let unit = &mut self.units[id.0];
        unit.base = Base::new(at, facing, unit.base.frontage, unit.base.depth);
        events.push(Event::Retreated {
            unit: id,
            from: start,
            to: at,
            facing: unit.base.facing,
            blocked,
        });
    }

    fn rout_phase(&mut self, events: &mut Vec<Event>) {
        loop {
            for index in 0..self.units.len() {
                let unit = &self.units[index];
                if !unit.is_active() {
                    continue;
                }
                if let Some(threshold) = self.rules.rout_threshold(unit.category)
                    && unit.hits >= threshold
                {
                    let hits = unit.hits;
                    self.units[index].status = Status::Routed;
                    events.push(Event::Routed {
                        unit: UnitId(index),
                        hits,
                    });
                }
            }
            let mut struck = false;
            for side in 0..self.sides.len() {
                let lost = self.lost(side);
                let of = self.sides[side].starting_units;
                if self.sides[side].resolve_spent
                    || of == 0
                    || lost as f64 <= self.rules.resolve_lost_more_than * of as f64 + 1e-9
                {
                    continue;
                }
                // seed 000 Army Resolve: once, on every remaining unit.
                self.sides[side].resolve_spent = true;
                struck = true;
                let hits = self.rules.resolve_hits;
                events.push(Event::ArmyResolve {
                    side,
                    lost,
                    of,
                    hits,
                });
                let remaining: Vec<UnitId> = self.active_units(side).collect();
                for unit in remaining {
                    self.take_hits(unit, hits, Cause::ArmyResolve, events);
                }
            }
            if !struck {
                return;
            }
        }
    }

    /// The actions the side to act may take now, in a fixed order. Moves
    /// are continuous, so a sample is enumerated (see `docs/rulings.md`):
    /// charges, pivots to face the nearest enemies, straight moves towards
    /// the three nearest enemies, directly away from the nearest, straight
    /// ahead and straight back (the longest legal of a full, three-quarter,
    /// half and quarter move), road moves towards the two nearest enemies
    /// along the pathing route, generals riding towards their most damaged
    /// units; every legal shot; one rally per general over his damaged
    /// units, most hits first; and ending the phase, always last.
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.is_over() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        let allowed = &self.rules.phases[self.phase_index].actions;
        let own: Vec<UnitId> = self.active_units(self.active).collect();
        let enemies: Vec<UnitId> = self
            .active_units(GameState::enemy_of(self.active))
            .collect();
        // `allows` is exactly `check(..).is_ok()`, quicker for a refusal.
        let push = |actions: &mut Vec<Action>, action: Action| {
            if !actions.contains(&action) && self.allows(&action) {
                actions.push(action);
            }
        };
        for &id in &own {
            let unit = &self.units[id.0];
            if unit.moved {
                continue;
            }
            let nearest = self.nearest(unit.base.centre, &enemies);
            if allowed.contains(&ActionKind::Charge) {
                for &target in &enemies {
                    push(&mut actions, Action::Charge { unit: id, target });
                }
            }
            if allowed.contains(&ActionKind::Pivot) && !unit.pivoted {
                for &enemy in nearest.iter().take(2) {
                    let facing = (self.units[enemy.0].base.centre - unit.base.centre).bearing();
                    if turn_between(unit.base.facing, facing) > 1.0 {
                        push(&mut actions, Action::Pivot { unit: id, facing });
                    }
                }
            }
            if allowed.contains(&ActionKind::Move) {
                let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
                let mut directions: Vec<(Vector, f64)> = Vec::new();
                for &enemy in nearest.iter().take(3) {
                    let line = self.units[enemy.0].base.centre - unit.base.centre;
                    directions.push((line, line.bearing()));
                }
                if let Some(&enemy) = nearest.first() {
                    let line = unit.base.centre - self.units[enemy.0].base.centre;
                    directions.push((line, unit.base.facing));
                }
                directions.push((unit.base.forward(), unit.base.facing));
                directions.push((unit.base.forward() * -1.0, unit.base.facing));
                for (direction, facing) in directions {
                    let length = direction.length();
                    if length < EPSILON {
                        continue;
                    }
                    let direction = direction * (1.0 / length);
                    for fraction in [1.0, 0.75, 0.5, 0.25] {
                        let to = round_point(unit.base.centre + direction * (allowance * fraction));
                        let action = Action::Move {
                            unit: id,
                            to,
                            facing: round(facing),
                        };
                        if self.allows(&action) {
                            if !actions.contains(&action) {
                                actions.push(action);
                            }
                            break;
                        }
                    }
                }
            }
            if allowed.contains(&ActionKind::MoveRoad)
                && let Some(cell) = self.battlefield.grid.cell_at(unit.base.centre)
                && self.battlefield.on_road(cell)
            {
                let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
                for &enemy in nearest.iter().take(2) {
                    let goal = self.units[enemy.0].base.centre;
                    let blocked = crate::battlefield::CellSet::none();
                    let Some(route) =
                        self.battlefield
                            .route(unit.troop, unit.base.centre, goal, &blocked)
                    else {
                        continue;
                    };
                    let clipped = route.clip(allowance * 0.98);
                    let Some(leg) = clipped.legs().first() else {
                        continue;
                    };
                    if !leg.along_road || leg.points.len() < 2 {
                        continue;
                    }
                    let path: Vec<Point> =
                        leg.points[1..].iter().map(|p| round_point(*p)).collect();
                    let facing = match path.len() {
                        1 => (path[0] - unit.base.centre).bearing(),
                        n => (path[n - 1] - path[n - 2]).bearing(),
                    };
                    push(
                        &mut actions,
                        Action::MoveRoad {
                            unit: id,
                            path,
                            facing: round(facing),
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::Enter) {
            for (index, unit) in self.units.iter().enumerate() {
                if unit.side == self.active && unit.is_reserve() {
                    push(
                        &mut actions,
                        Action::Enter {
                            unit: UnitId(index),
                            to: unit.base.centre,
                            facing: unit.base.facing,
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::MoveGeneral) {
            for (index, general) in self.generals.iter().enumerate() {
                if general.side != self.active || general.moved {
                    continue;
                }
                let mut damaged: Vec<UnitId> = own.clone();
                damaged.sort_by_key(|id| (std::cmp::Reverse(self.units[id.0].hits), id.0));
                let allowance = self.battlefield.ruleset.move_inches[Category::General.index()];
                for id in damaged.into_iter().take(2) {
                    let target = self.units[id.0].base.centre;
                    let line = target - general.base.centre;
                    let length = line.length();
                    if length < 3.0 {
                        continue;
                    }
                    let travel = (length - 3.0).min(allowance);
                    let to = round_point(general.base.centre + line * (travel / length));
                    push(
                        &mut actions,
                        Action::MoveGeneral {
                            general: GeneralId(index),
                            to,
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::Fire) {
            for &unit in &own {
                for &target in &enemies {
                    // A player's shot is single: the other volleys are
                    // the Lone Warrior opponent's orders.
                    push(
                        &mut actions,
                        Action::Fire {
                            unit,
                            target,
                            volley: Volley::Single,
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::Rally) {
            for (index, general) in self.generals.iter().enumerate() {
                if general.side != self.active {
                    continue;
                }
                let mut units: Vec<UnitId> = own
                    .iter()
                    .copied()
                    .filter(|id| {
                        let unit = &self.units[id.0];
                        unit.hits > 0
                            && self.rules.rally_max[unit.troop.0] > 0
                            && general
                                .base
                                .within(&unit.base, self.rules.rally_range + 1e-6)
                    })
                    .collect();
                units.sort_by_key(|id| (std::cmp::Reverse(self.units[id.0].hits), id.0));
                if !units.is_empty() {
                    push(
                        &mut actions,
                        Action::Rally {
                            general: GeneralId(index),
                            units,
                        },
                    );
                }
            }
        }
        actions.push(Action::EndPhase);
        actions
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
        let applies = modifier
            .unit
            .as_ref()
            .is_none_or(|set| set.contains(unit.troop, unit.category))
            && modifier
                .opponent
                .as_ref()
                .is_none_or(|set| set.contains(opponent.troop, opponent.category))
            && modifier.role.is_none_or(|r| Some(r) == role)
            && modifier.when.is_none_or(|w| situations.contains(&w));
        if !applies {
            continue;
        }
        score = match modifier.operation {
            Operation::Add(n) => score + n,
            Operation::Multiply(n) => score * n,
        };
        applied.push(Applied {
            label: modifier.label.clone(),
            operation: modifier.operation,
            score,
        });
    }
    score
}

/// Contact points this thread has worked out lately, by the exact charger,
/// facing and target: a charge is tried bound after bound while neither
/// unit moves, and the search costs some sixty distance measurements.
const CONTACT_MEMO: usize = 64;

/// A remembered contact point with its arguments as bits: the charger's
/// centre, facing and size, the charge's facing, the target's the same.
type Contact = Option<([u64; 11], Point)>;

thread_local! {
    static CONTACTS: std::cell::RefCell<[Contact; CONTACT_MEMO]> =
        const { std::cell::RefCell::new([None; CONTACT_MEMO]) };
}

/// Exactly [`contact_point`], remembered (the same arguments, to the bit,
/// give the same answer; a slot holds the latest of the keys that share it).
fn remembered_contact_point(charger: &Base, facing: f64, target: &Base) -> Point {
    let key = [
        charger.centre.x.to_bits(),
        charger.centre.y.to_bits(),
        charger.facing.to_bits(),
        charger.frontage.to_bits(),
        charger.depth.to_bits(),
        facing.to_bits(),
        target.centre.x.to_bits(),
        target.centre.y.to_bits(),
        target.facing.to_bits(),
        target.frontage.to_bits(),
        target.depth.to_bits(),
    ];
    let slot = key
        .iter()
        .fold(0u64, |hash, word| {
            (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
        })
        .wrapping_shr(58) as usize
        % CONTACT_MEMO;
    CONTACTS.with_borrow_mut(|memo| match memo[slot] {
        Some((known, point)) if known == key => point,
        _ => {
            let point = contact_point(charger, facing, target);
            memo[slot] = Some((key, point));
            point
        }
    })
}

/// Where a base charging along `facing` from its centre first touches
/// `target`: the charger advances straight at the target's centre.
fn contact_point(charger: &Base, facing: f64, target: &Base) -> Point {
    let start = charger.centre;
    let line = target.centre - start;
    let length = line.length();
    let direction = Vector::from_bearing(facing);
    let turned = Base::new(start, facing, charger.frontage, charger.depth);
    let at = |s: f64| turned.moved_to(start + direction * s);
    if at(0.0).within(target, CONTACT) {
        return start;
    }
    let (mut lo, mut hi) = (0.0, length);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let (new_lo, new_hi) = if at(mid).within(target, CONTACT * 0.5) {
            (lo, mid)
        } else {
            (mid, hi)
        };
        if (new_lo, new_hi) == (lo, hi) {
            // A step that changes nothing: every later step is the same
            // step (the bounds have met to the last bit), so stop here with
            // the answer all 60 would give.
            break;
        }
        (lo, hi) = (new_lo, new_hi);
    }
    start + direction * hi
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

/// Round to 1/1000 inch, so enumerated actions print and replay cleanly.
fn round(value: f64) -> f64 {
    let rounded = (value * 1000.0).round() / 1000.0;
    if rounded >= 360.0 {
        rounded - 360.0
    } else {
        rounded
    }
}

fn round_point(point: Point) -> Point {
    Point::new(
        (point.x * 1000.0).round() / 1000.0,
        (point.y * 1000.0).round() / 1000.0,
    )
}

#[cfg(test)]
mod memo_tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The remembered contact point is the searched one, bit for bit, asked
    /// in any order, again and again, with keys that share slots.
    #[test]
    fn remembered_contact_points_are_the_searched_ones() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(11);
        let base = |rng: &mut rand::rngs::ChaCha8Rng| {
            Base::new(
                Point::new(rng.random_range(0.0..24.0), rng.random_range(0.0..24.0)),
                rng.random_range(0.0..360.0),
                rng.random_range(2.0..4.0),
                rng.random_range(1.0..2.0),
            )
        };
        // Few chargers and many targets (a unit tries one target after
        // another), three times as many pairs as slots, asked at random.
        let chargers: Vec<Base> = (0..8).map(|_| base(&mut rng)).collect();
        let targets: Vec<Base> = (0..3 * CONTACT_MEMO / 8).map(|_| base(&mut rng)).collect();
        for _ in 0..5_000 {
            let charger = chargers[rng.random_range(0..chargers.len())];
            let target = targets[rng.random_range(0..targets.len())];
            // Straight ahead (the same facing at every target) or turned to
            // face the target.
            let facing = if rng.random_range(0..2) == 0 {
                charger.facing
            } else {
                (target.centre - charger.centre).bearing()
            };
            let remembered = remembered_contact_point(&charger, facing, &target);
            let searched = contact_point(&charger, facing, &target);
            assert_eq!(
                (remembered.x.to_bits(), remembered.y.to_bits()),
                (searched.x.to_bits(), searched.y.to_bits())
            );
        }
    }
}
