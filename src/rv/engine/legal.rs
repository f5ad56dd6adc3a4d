//! The actions the side to act may take now, in a fixed order, each
//! accepted by [`GameState::check`]; moves are a sample.

use crate::battlefield::geometry::{Vector, normalise_degrees};
use crate::rv::event::{Action, Formation, Response};
use crate::rv::state::{GameState, direction};
use crate::rv::table::PhaseKind;

impl GameState {
    /// Every action the side to act may take now, in a fixed order: for
    /// each of its units in index order its formation changes, mounting,
    /// about-face, a few moves (full and half ahead, towards the nearest
    /// enemy, back) and a pivot to face the nearest enemy; then its
    /// commanders' joins, leaves and moves; fire and charges at each enemy
    /// in index order; answers to a charge; and last `EndPhase`. Moves
    /// are a sample of the infinitely many: each is checked, so every
    /// action listed is accepted by [`GameState::apply`].
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        let Some(side) = self.to_act() else {
            return actions;
        };
        if self.pending.is_some() {
            for response in [Response::Fire, Response::CounterCharge, Response::Stand] {
                let action = Action::Respond { response };
                if self.check(&action).is_ok() {
                    actions.push(action);
                }
            }
            return actions;
        }
        let push = |actions: &mut Vec<Action>, action: Action| {
            if self.check(&action).is_ok() && !actions.contains(&action) {
                actions.push(action);
            }
        };
        let (own, enemies) = self.own_and_enemies(side);
        for &unit in &own {
            self.unit_actions(unit, &enemies, &mut actions);
        }
        if self.phase().kind == PhaseKind::Move {
            for (commander, c) in self.commanders.iter().enumerate() {
                if c.side != side || c.lost || c.acted {
                    continue;
                }
                for &unit in &own {
                    push(&mut actions, Action::Join { commander, unit });
                }
                if let Some(unit) = c.attached {
                    let base = self.footprint(unit);
                    let behind = base.forward() * -(base.depth / 2.0 + 1.5);
                    push(
                        &mut actions,
                        Action::Leave {
                            commander,
                            to: base.centre + behind,
                        },
                    );
                } else if let Some(&nearest) = own.iter().min_by(|&&a, &&b| {
                    let da = self.units[a].centre.distance(c.at);
                    let db = self.units[b].centre.distance(c.at);
                    da.total_cmp(&db)
                }) {
                    let goal = self.units[nearest].centre;
                    let gap = (c.at.distance(goal) - 2.0).min(self.table.commander_move);
                    if gap > 0.5 {
                        let heading = direction(c.at, goal, Vector::new(0.0, 1.0));
                        push(
                            &mut actions,
                            Action::MoveCommander {
                                commander,
                                to: c.at + heading * gap,
                            },
                        );
                    }
                }
            }
        }
        actions.push(Action::EndPhase);
        actions
    }

    /// `unit`'s own actions among [`GameState::legal_actions`], in the
    /// same order, without working out every other unit's: its formation
    /// changes, mounting, about-face, moves and pivot in the move phase,
    /// its fire and charges at each enemy in theirs. Empty for a unit not
    /// of the side to act or out of play, and while a charge awaits its
    /// answer. (Commanders' actions, answers and `EndPhase` are no unit's.)
    pub fn legal_actions_of(&self, unit: usize) -> Vec<Action> {
        let mut actions = Vec::new();
        let Some(side) = self.to_act() else {
            return actions;
        };
        let ours = self
            .units
            .get(unit)
            .is_some_and(|u| u.side == side && u.in_play());
        if self.pending.is_some() || !ours {
            return actions;
        }
        let (_, enemies) = self.own_and_enemies(side);
        self.unit_actions(unit, &enemies, &mut actions);
        actions
    }

    /// `side`'s units in play and its enemies', each in index order.
    fn own_and_enemies(&self, side: usize) -> (Vec<usize>, Vec<usize>) {
        (0..self.units.len())
            .filter(|&i| self.units[i].in_play())
            .partition(|&i| self.units[i].side == side)
    }

    /// The actions of `unit` (of the side to act, in play) this phase
    /// allows, appended to `actions` in [`GameState::legal_actions`]'s
    /// order.
    fn unit_actions(&self, unit: usize, enemies: &[usize], actions: &mut Vec<Action>) {
        let push = |actions: &mut Vec<Action>, action: Action| {
            if self.check(&action).is_ok() && !actions.contains(&action) {
                actions.push(action);
            }
        };
        match self.phase().kind {
            PhaseKind::Move => {
                if self.is_reforming(unit) {
                    return;
                }
                for formation in Formation::ALL {
                    push(actions, Action::ChangeFormation { unit, formation });
                }
                push(
                    actions,
                    Action::Mount {
                        unit,
                        mounted: !self.units[unit].mounted,
                    },
                );
                push(actions, Action::AboutFace { unit });
                self.move_candidates(unit, enemies, actions);
            }
            PhaseKind::Shoot => {
                for &target in enemies {
                    push(actions, Action::Fire { unit, target });
                }
            }
            PhaseKind::Charge => {
                for &target in enemies {
                    push(actions, Action::Charge { unit, target });
                }
            }
            PhaseKind::Melee => {}
        }
    }

    fn move_candidates(&self, unit: usize, enemies: &[usize], actions: &mut Vec<Action>) {
        let u = &self.units[unit];
        if u.moved || u.changed_after_move {
            return;
        }
        let base = self.footprint(unit);
        let allowance = self.allowance(unit);
        let forward = base.forward();
        let mut goals = vec![
            base.centre + forward * allowance,
            base.centre + forward * (allowance / 2.0),
            base.centre + forward * -(allowance * self.table.backwards),
        ];
        let nearest = enemies.iter().copied().min_by(|&a, &b| {
            let da = self.units[a].centre.distance(u.centre);
            let db = self.units[b].centre.distance(u.centre);
            da.total_cmp(&db)
        });
        if let Some(enemy) = nearest {
            let theirs = self.footprint(enemy);
            let heading = direction(u.centre, theirs.centre, forward);
            let gap = base.distance_to(&theirs) - self.table.keep_away - 0.25;
            if gap > 0.5 {
                goals.push(base.centre + heading * gap.min(allowance));
            }
        }
        for goal in goals {
            for scale in [1.0, 0.5, 0.25] {
                let to = u.centre.lerp(goal, scale);
                let action = Action::Move { unit, to };
                if self.check(&action).is_ok() {
                    if !actions.contains(&action) {
                        actions.push(action);
                    }
                    break;
                }
            }
        }
        if let Some(enemy) = nearest {
            let bearing = (self.units[enemy].centre - u.centre).bearing().round();
            let turn = crate::battlefield::geometry::turn_between(u.facing, bearing);
            if turn.abs() > 1.0 {
                let action = Action::Pivot {
                    unit,
                    facing: normalise_degrees(bearing),
                };
                if self.check(&action).is_ok() {
                    actions.push(action);
                }
            }
        }
    }
}
