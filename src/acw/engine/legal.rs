//! The actions the side to act may take now, in a fixed order: assigning
//! dice, or the activated unit's move, fire, charge or nothing (moves a
//! sample of bearings and shares of the allowance).

use crate::acw::event::Action;
use crate::acw::state::{GameState, Phase, UnitId};
use crate::acw::table::Formation;
use crate::battlefield::geometry::normalise_degrees;
use crate::battlefield::{Point, Vector};

/// Bearings a generated move may take, compass degrees.
const BEARINGS: [f64; 8] = [0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0];

/// Shares of the allowance a generated move may use.
const SHARES: [f64; 3] = [1.0, 0.5, 0.25];

impl GameState {
    /// Every legal action for the side to act, in a fixed order: during
    /// assignment each die face (highest first) for each unit waiting for a
    /// die; during activation, for each unit whose die is up, holding, then
    /// fire and charges at each enemy, then moves (each formation change,
    /// eight bearings, three shares of the allowance, two facings); when
    /// charged, firing first or not.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        match self.phase {
            Phase::Over => {}
            Phase::Assigning { side } => {
                let mut faces: Vec<u8> = self.dice_to_assign(side).to_vec();
                faces.dedup();
                for die in faces {
                    for unit in self.unassigned(side) {
                        actions.push(Action::AssignDie { die, unit });
                    }
                }
            }
            Phase::ChargeResponse { target, .. } => {
                for fire in [true, false] {
                    let action = Action::Respond { unit: target, fire };
                    if self.check(&action).is_ok() {
                        actions.push(action);
                    }
                }
            }
            Phase::Activating => {
                for unit in self.up_next() {
                    actions.push(Action::Hold { unit });
                    let enemies: Vec<UnitId> = (0..self.units.len())
                        .map(UnitId)
                        .filter(|e| {
                            let enemy = self.unit(*e);
                            enemy.side != self.unit(unit).side && !enemy.removed
                        })
                        .collect();
                    for target in &enemies {
                        let action = Action::Fire {
                            unit,
                            target: *target,
                        };
                        if self.check(&action).is_ok() {
                            actions.push(action);
                        }
                    }
                    for target in &enemies {
                        let action = Action::Charge {
                            unit,
                            target: *target,
                        };
                        if self.check(&action).is_ok() {
                            actions.push(action);
                        }
                    }
                    self.move_candidates(unit, &mut actions);
                }
            }
        }
        actions
    }

    fn move_candidates(&self, id: UnitId, actions: &mut Vec<Action>) {
        let unit = self.unit(id);
        let mut formations = vec![None];
        for formation in Formation::ALL {
            if formation != unit.formation
                && self
                    .table
                    .change_cost(unit.troop, unit.formation, formation)
                    .is_some()
                && self.table.move_of(unit.troop, formation).is_some()
            {
                formations.push(Some(formation));
            }
        }
        let mut push = |action: Action| {
            if self.check(&action).is_ok() && !actions.contains(&action) {
                actions.push(action);
            }
        };
        for formation in formations {
            let new_formation = formation.unwrap_or(unit.formation);
            let cost = formation
                .and_then(|f| self.table.change_cost(unit.troop, unit.formation, f))
                .unwrap_or(0.0);
            let allowance = self.table.move_of(unit.troop, new_formation).unwrap_or(0.0) - cost;
            if formation.is_some() {
                push(Action::Move {
                    unit: id,
                    formation,
                    to: unit.base.centre,
                    facing: unit.base.facing,
                });
            }
            if allowance <= 0.0 {
                continue;
            }
            for bearing in BEARINGS {
                for share in SHARES {
                    let to = unit.base.centre + Vector::from_bearing(bearing) * (allowance * share);
                    let to = Point::new(round_to(to.x), round_to(to.y));
                    for facing in [unit.base.facing, bearing] {
                        push(Action::Move {
                            unit: id,
                            formation,
                            to,
                            facing,
                        });
                    }
                }
            }
        }
        // Turning in place to face the nearest enemy.
        if let Some(enemy) = self.nearest_enemy(id) {
            let bearing = (self.unit(enemy).base.centre - unit.base.centre).bearing();
            let facing = round_to(normalise_degrees(bearing));
            push(Action::Move {
                unit: id,
                formation: None,
                to: unit.base.centre,
                facing,
            });
        }
    }

    /// The nearest enemy still on the table, by base distance.
    pub fn nearest_enemy(&self, id: UnitId) -> Option<UnitId> {
        let unit = self.unit(id);
        self.units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != unit.side && !e.removed)
            .map(|(i, e)| (UnitId(i), unit.base.distance_to(&e.base)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
            .map(|(i, _)| i)
    }
}

/// Round generated coordinates to a thousandth of an inch, so that actions
/// print and replay cleanly.
fn round_to(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}
