//! The seed-002 referee: checking every action completely before anything
//! changes, and applying it with the dice.
//!
//! Every check lives in a `plan_*` function that reads the state and
//! returns what would happen; `apply` runs `check` first, so a refusal
//! leaves the state untouched and rolls no die.
//!
//! Laid out by the seed's own procedures, so a clause is found by its name
//! (the clause → file: test list heads `src/acw/tests/mod.rs`, and each
//! procedure's tests are in the file of its name there): this file holds
//! the dispatch of every action to its check and its carrying out, and the
//! names refusals use. `setup` starts a game; `activation` is the dice
//! driven initiative that replaces the sequence of play; `movement`,
//! `shooting`, `charges`, `melee`, `casualties` and `victory` are the
//! procedures; `legal` lists the actions.

mod activation;
mod casualties;
mod charges;
mod legal;
mod melee;
mod movement;
mod setup;
mod shooting;
mod victory;

use super::event::{Action, Event, Modifier, Refusal, Removal, Rule};
use super::state::{GameState, Outcome, Phase, Unit, UnitId};
use super::table::{Formation, Mode};
use crate::battlefield::{Base, Point};
use crate::dice::Roller;
use crate::ruleset::Category;

/// What a checked move would do.
#[derive(Debug, Clone)]
struct MovePlan {
    from: Formation,
    to_formation: Formation,
    change_cost: f64,
    base: Base,
    used: f64,
    allowance: f64,
    friends: Vec<UnitId>,
}

/// What a checked charge would do.
#[derive(Debug, Clone)]
struct ChargePlan {
    flank_or_rear: bool,
    target_may_fire: bool,
}

/// What a checked shot would do, before the die.
#[derive(Debug, Clone)]
struct FirePlan {
    modifiers: Vec<Modifier>,
}

impl GameState {
    /// Check an action completely without changing anything.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        self.plan(action).map(|_| ())
    }

    /// Check and apply an action with the dice; the events record it. A
    /// refusal changes nothing and rolls no die.
    pub fn apply(
        &mut self,
        action: &Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, Refusal> {
        let plan = self.plan(action)?;
        let mut events = Vec::new();
        match (action, plan) {
            (Action::AssignDie { die, unit }, _) => self.do_assign(*die, *unit, &mut events),
            (Action::Hold { unit }, _) => {
                self.activate(*unit, &mut events);
                events.push(Event::Held { unit: *unit });
            }
            (Action::Rout { unit }, _) => {
                self.activate(*unit, &mut events);
                self.remove(*unit, Removal::Routed, &mut events);
            }
            (Action::Move { unit, .. }, Plan::Move(plan)) => {
                self.activate(*unit, &mut events);
                self.do_move(*unit, plan, &mut events);
            }
            (Action::Fire { unit, target }, Plan::Fire(plan)) => {
                self.activate(*unit, &mut events);
                self.do_fire(*unit, *target, plan, roller, &mut events);
            }
            (Action::Charge { unit, target }, Plan::Charge(plan)) => {
                self.activate(*unit, &mut events);
                events.push(Event::ChargeDeclared {
                    unit: *unit,
                    target: *target,
                    flank_or_rear: plan.flank_or_rear,
                });
                if plan.target_may_fire {
                    self.phase = Phase::ChargeResponse {
                        charger: *unit,
                        target: *target,
                    };
                    return Ok(events);
                }
                self.resolve_charge(*unit, *target, roller, &mut events);
            }
            (Action::Respond { unit, fire }, plan) => {
                let Phase::ChargeResponse { charger, target } = self.phase else {
                    unreachable!("checked: a response answers a charge");
                };
                debug_assert_eq!(*unit, target);
                self.phase = Phase::Activating;
                if *fire && let Plan::Fire(plan) = plan {
                    // Seed 002: "remove the activation dice after firing".
                    self.units[target.0].activated = true;
                    self.do_fire(target, charger, plan, roller, &mut events);
                }
                if !self.unit(charger).removed && self.outcome == Outcome::Playing {
                    self.resolve_charge(charger, target, roller, &mut events);
                }
            }
            _ => unreachable!("plan matches its action"),
        }
        self.check_victory(&mut events);
        self.advance(roller, &mut events);
        Ok(events)
    }

    fn plan(&self, action: &Action) -> Result<Plan, Refusal> {
        if self.phase == Phase::Over {
            return Err(Refusal::GameOver);
        }
        let unit_id = match action {
            Action::AssignDie { unit, .. }
            | Action::Move { unit, .. }
            | Action::Fire { unit, .. }
            | Action::Charge { unit, .. }
            | Action::Hold { unit }
            | Action::Rout { unit }
            | Action::Respond { unit, .. } => *unit,
        };
        let unit = self
            .units
            .get(unit_id.0)
            .ok_or(Refusal::NoSuchUnit { index: unit_id.0 })?;
        if unit.removed {
            return Err(not_this(unit, "it has been removed"));
        }
        match (self.phase, action) {
            (Phase::Assigning { side }, Action::AssignDie { die, .. }) => {
                if unit.side != side {
                    return Err(not_this(unit, "the other side is assigning its dice"));
                }
                if unit.die.is_some() {
                    return Err(not_this(unit, "it already has a die"));
                }
                if !self.dice_to_assign(side).contains(die) {
                    return Err(Refusal::broken(
                        Rule::Activation,
                        format!("there is no unassigned {die} to give"),
                    ));
                }
                Ok(Plan::Nothing)
            }
            (Phase::Assigning { side }, _) => Err(Refusal::NotNow {
                waiting_for: format!("{} to assign its dice", self.sides[side].name),
            }),
            (Phase::ChargeResponse { charger, target }, Action::Respond { fire, .. }) => {
                if unit_id != target {
                    return Err(not_this(unit, "only the unit charged answers the charge"));
                }
                if *fire {
                    self.plan_fire(target, charger, true).map(Plan::Fire)
                } else {
                    Ok(Plan::Nothing)
                }
            }
            (Phase::ChargeResponse { target, .. }, _) => Err(Refusal::NotNow {
                waiting_for: format!("`{}` to answer the charge", self.unit(target).name),
            }),
            (Phase::Activating, Action::AssignDie { .. } | Action::Respond { .. }) => {
                Err(Refusal::NotNow {
                    waiting_for: "the unit whose die is up to act".to_string(),
                })
            }
            (Phase::Activating, _) => {
                if !self.up_next().contains(&unit_id) {
                    let why = if unit.activated {
                        "it has already acted this turn".to_string()
                    } else {
                        "its die is not the highest still to act".to_string()
                    };
                    return Err(not_this(unit, &why));
                }
                match action {
                    Action::Hold { .. } | Action::Rout { .. } => Ok(Plan::Nothing),
                    Action::Move {
                        formation,
                        to,
                        facing,
                        ..
                    } => self
                        .plan_move(unit_id, *formation, *to, *facing)
                        .map(Plan::Move),
                    Action::Fire { target, .. } => {
                        self.plan_fire(unit_id, *target, false).map(Plan::Fire)
                    }
                    Action::Charge { target, .. } => {
                        self.plan_charge(unit_id, *target).map(Plan::Charge)
                    }
                    Action::AssignDie { .. } | Action::Respond { .. } => {
                        unreachable!("matched above")
                    }
                }
            }
            (Phase::Over, _) => Err(Refusal::GameOver),
        }
    }

    fn troop_name(&self, id: UnitId) -> String {
        let unit = self.unit(id);
        let name = &self.battlefield.ruleset.troop(unit.troop).name;
        if unit.category == Category::Cavalry && unit.formation == Formation::Dismounted {
            "dismounted cavalry".to_string()
        } else {
            name.clone()
        }
    }

    fn mode_name(&self, mode: Mode) -> &'static str {
        match mode {
            Mode::Foot => "troops on foot",
            Mode::Mounted => "mounted cavalry",
            Mode::Guns => "guns",
        }
    }

    fn ground_name(&self, point: Point) -> String {
        let kinds = self.ground_at(point);
        if kinds.is_empty() {
            return "edge of the table".to_string();
        }
        kinds
            .iter()
            .map(|k| self.battlefield.ruleset.kind(*k).name.clone())
            .collect::<Vec<_>>()
            .join(" and ")
    }
}

/// What a checked action will do.
#[derive(Debug)]
enum Plan {
    Nothing,
    Move(MovePlan),
    Fire(FirePlan),
    Charge(ChargePlan),
}

fn not_this(unit: &Unit, why: &str) -> Refusal {
    Refusal::NotThisUnit {
        name: unit.name.clone(),
        why: why.to_string(),
    }
}
