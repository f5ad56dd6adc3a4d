//! The army's plan (house rules PL1–PL7, `tables/opponent.yaml`): what a
//! side is for — to attack an objective, to defend its lines, or neither —
//! and the questions the unit brain asks of it. The reaction test still
//! gives every unit its order; the plan only says what the order is aimed
//! at and how it is carried out.
//!
//! A side's plan is the scenario's `plan:` or, failing that, derived from
//! its victory conditions (ruling PL1): breaking enemy troops of a type or
//! more than a share of the enemy army is an attack on them; holding an
//! area is an attack on the area; a side with nothing to win is free.

use super::Opponent;
use crate::battlefield::Point;
use crate::rules::{GameState, UnitId};
use crate::scenario::{Condition, Objective, Plan, Scenario};

/// One line of a defence: a group of the side's units.
#[derive(Debug, Clone, PartialEq)]
pub struct DefenceLine {
    /// The group's name.
    pub name: String,
    /// Its units.
    pub units: Vec<UnitId>,
    /// Where it stood when the game began (the mean of its units' centres).
    pub post: Point,
    /// Whether it has fallen (PL6): from then on, for good.
    pub fallen: bool,
    /// Whether it has begun to crumble (PL7): from then on, for good.
    pub crumbling: bool,
}

/// A side's plan, resolved against the game's units.
#[derive(Debug, Clone, PartialEq)]
pub struct SidePlan {
    /// The plan.
    pub plan: Plan,
    /// Whether it was derived from the victory conditions (PL1), not given.
    pub derived: bool,
    /// The objective in words ("the continentals", "the trace").
    pub objective: Option<String>,
    /// The objective's units (attacking troops of a type).
    pub objective_units: Vec<UnitId>,
    /// The objective area's centre (attacking an area).
    pub objective_point: Option<Point>,
    /// The lines of a defence, front to back.
    pub lines: Vec<DefenceLine>,
}

impl Default for SidePlan {
    fn default() -> SidePlan {
        SidePlan {
            plan: Plan::Free,
            derived: false,
            objective: None,
            objective_units: Vec::new(),
            objective_point: None,
            lines: Vec::new(),
        }
    }
}

/// The plan the victory conditions call for when a scenario gives none
/// (ruling PL1): the first condition that `side` wins by decides.
pub fn derive(scenario: &Scenario, side: usize) -> Plan {
    let first = scenario.victory.iter().find(|v| v.winner == side);
    match first.map(|victory| &victory.when) {
        Some(Condition::RoutOrExit { troop_type, .. }) => {
            Plan::Attack(Objective::Troops(*troop_type))
        }
        Some(Condition::HoldArea { area, .. }) => Plan::Attack(Objective::Area(area.name.clone())),
        Some(Condition::RoutFraction { .. }) => Plan::Attack(Objective::Army),
        None => Plan::Free,
    }
}

impl SidePlan {
    /// Resolve `side`'s plan in `scenario` against the game's units.
    pub fn resolve(scenario: &Scenario, state: &GameState, side: usize) -> SidePlan {
        let Some(scenario_side) = scenario.sides.get(side) else {
            return SidePlan::default();
        };
        let (plan, derived) = match &scenario_side.plan {
            Some(plan) => (plan.clone(), false),
            None => (derive(scenario, side), true),
        };
        let mut resolved = SidePlan {
            plan: plan.clone(),
            derived,
            ..SidePlan::default()
        };
        match &plan {
            Plan::Free => {}
            Plan::Attack(Objective::Army) => {
                resolved.objective = Some("the enemy army".into());
            }
            Plan::Attack(Objective::Troops(troop)) => {
                let name = &state.battlefield.ruleset.troop(*troop).name;
                resolved.objective = Some(format!("the {name}"));
                resolved.objective_units = state
                    .units
                    .iter()
                    .enumerate()
                    .filter(|(_, unit)| unit.side != side && unit.troop == *troop)
                    .map(|(index, _)| UnitId(index))
                    .collect();
            }
            Plan::Attack(Objective::Area(name)) => {
                resolved.objective = Some(name.clone());
                resolved.objective_point = scenario
                    .areas
                    .iter()
                    .find(|area| area.name == *name)
                    .map(|area| area.min.lerp(area.max, 0.5));
            }
            Plan::Defend(lines) => {
                for line in lines {
                    let units: Vec<UnitId> = scenario_side
                        .units
                        .iter()
                        .chain(&scenario_side.reserves)
                        .filter(|unit| unit.group.as_deref() == Some(line.as_str()))
                        .filter_map(|unit| state.find_unit(&unit.name))
                        .collect();
                    let placed: Vec<Point> = units
                        .iter()
                        .map(|id| state.unit(*id))
                        .filter(|unit| !unit.is_reserve())
                        .map(|unit| unit.base.centre)
                        .collect();
                    let post = if placed.is_empty() {
                        Point::new(0.0, 0.0)
                    } else {
                        let n = placed.len() as f64;
                        Point::new(
                            placed.iter().map(|p| p.x).sum::<f64>() / n,
                            placed.iter().map(|p| p.y).sum::<f64>() / n,
                        )
                    };
                    resolved.lines.push(DefenceLine {
                        name: line.clone(),
                        units,
                        post,
                        fallen: false,
                        crumbling: false,
                    });
                }
            }
        }
        resolved
    }

    /// An attack on the enemy army (the nearest enemy is the objective),
    /// or on `units` when some are given (for a game built in code).
    pub fn attack(units: Vec<UnitId>, objective: &str) -> SidePlan {
        SidePlan {
            plan: Plan::Attack(Objective::Army),
            objective: Some(objective.to_string()),
            objective_units: units,
            ..SidePlan::default()
        }
    }

    /// A defence of `lines` (name and units, front to back), each posted
    /// where its units stand now (for a game built in code).
    pub fn defend(state: &GameState, lines: &[(&str, &[UnitId])]) -> SidePlan {
        let lines = lines
            .iter()
            .map(|(name, units)| {
                let n = units.len().max(1) as f64;
                let (x, y) = units.iter().fold((0.0, 0.0), |(x, y), id| {
                    let centre = state.unit(*id).base.centre;
                    (x + centre.x, y + centre.y)
                });
                DefenceLine {
                    name: name.to_string(),
                    units: units.to_vec(),
                    post: Point::new(x / n, y / n),
                    fallen: false,
                    crumbling: false,
                }
            })
            .collect::<Vec<_>>();
        SidePlan {
            plan: Plan::Defend(lines.iter().map(|line| line.name.clone()).collect()),
            lines,
            ..SidePlan::default()
        }
    }

    /// Whether the side attacks.
    pub fn attacks(&self) -> bool {
        matches!(self.plan, Plan::Attack(_))
    }

    /// Whether the side defends.
    pub fn defends(&self) -> bool {
        matches!(self.plan, Plan::Defend(_))
    }

    /// The index of the line `unit` belongs to, in a defence.
    pub fn line_of(&self, unit: UnitId) -> Option<usize> {
        self.lines
            .iter()
            .position(|line| line.units.contains(&unit))
    }

    /// The plan in words, a verb phrase whose subject is the side ("defend
    /// their lines"), for `why` and the banner.
    pub fn describe(&self) -> String {
        let source = if self.derived {
            " (from their victory conditions)"
        } else {
            ""
        };
        match &self.plan {
            Plan::Free => "fight free, every order aimed at the nearest enemy".into(),
            Plan::Attack(_) => format!(
                "attack {}{source}",
                self.objective.as_deref().unwrap_or("the enemy")
            ),
            Plan::Defend(_) => {
                let names: Vec<&str> = self.lines.iter().map(|l| l.name.as_str()).collect();
                format!(
                    "defend their lines, front to back: {}{source}",
                    names.join(", ")
                )
            }
        }
    }
}

impl Opponent {
    /// Whether the optional rule `name` is switched on and serves this
    /// side's plan.
    pub(super) fn rule(&self, name: &str) -> bool {
        let rules = &self.tables.opponent.rules;
        let serves = match rules.plan_of(name) {
            Some(crate::tables::PlanKind::Attack) => self.plan.attacks(),
            Some(crate::tables::PlanKind::Defend) => self.plan.defends(),
            Some(crate::tables::PlanKind::Any) => self.plan.attacks() || self.plan.defends(),
            None => false,
        };
        serves && rules.is_on(name) == Some(true)
    }

    /// Whether enemy `unit` shows signs of disorder (ruling PL11): at
    /// least `press-home`'s `disorder_hits` hits, or seen falling back.
    pub(super) fn disordered(&self, state: &GameState, unit: UnitId) -> bool {
        state.unit(unit).hits >= self.tables.opponent.rules.press_home.disorder_hits
            || self.enemy_retreating.contains(&unit)
    }

    /// Whether enemy `unit` is wavering (ruling PL9): half its strength
    /// gone (hits at least half its rout threshold), or seen falling back.
    pub(super) fn wavering(&self, state: &GameState, unit: UnitId) -> bool {
        let enemy = state.unit(unit);
        let threshold = state.rules.rout_threshold(enemy.category).unwrap_or(13);
        enemy.hits * 2 >= threshold || self.enemy_retreating.contains(&unit)
    }

    /// The share (percent, rounded down) of line `index`'s units that are
    /// off the table (routed, driven off, removed) or fell back at their
    /// last test.
    fn line_losses(&self, state: &GameState, index: usize) -> u64 {
        let Some(line) = self.plan.lines.get(index) else {
            return 0;
        };
        if line.units.is_empty() {
            return 100;
        }
        let gone = line
            .units
            .iter()
            .filter(|id| {
                let unit = state.unit(**id);
                let fell_back =
                    matches!(self.units.get(id.0), Some(Some(memory)) if memory.withdrew);
                (!unit.is_active() && !unit.is_reserve()) || fell_back
            })
            .count() as u64;
        gone * 100 / line.units.len() as u64
    }

    /// Note which lines have fallen (PL6) or begun to crumble (PL7) since
    /// the last bound. Both are for good: a line that has given way does
    /// not stand again because a unit rallied.
    pub(crate) fn update_lines(&mut self, state: &GameState) {
        let rules = &self.tables.opponent.rules;
        let (falls, crumbles) = (
            u64::from(rules.fall_back.line_falls_at),
            u64::from(rules.counter_attack.front_crumbles_at),
        );
        for index in 0..self.plan.lines.len() {
            let losses = self.line_losses(state, index);
            let line = &mut self.plan.lines[index];
            line.fallen |= losses >= falls;
            line.crumbling |= losses >= crumbles;
        }
    }

    /// Whether line `index` of the defence has fallen (PL6).
    pub(super) fn line_fallen(&self, index: usize) -> bool {
        self.plan.lines.get(index).is_some_and(|line| line.fallen)
    }

    /// Whether `unit` holds its line (PL5): it defends, the rule is on, and
    /// its line has not been released to counter-attack (PL7).
    pub(super) fn holds(&self, unit: UnitId) -> bool {
        if !self.rule("hold-the-line") {
            return false;
        }
        match self.plan.line_of(unit) {
            Some(index) => !self.released(index),
            // A unit in no line (a reinforcement) holds with the army.
            None => true,
        }
    }

    /// Whether `unit`'s line of the defence is the last and a line in
    /// front of it has begun to crumble, whatever foe's `counter-attack`
    /// switch says: the baseline's defence (ruling B6) reads the plan and
    /// the rule's numbers, not foe's `--rule` switches.
    pub(crate) fn unit_released_by_plan(&self, unit: UnitId) -> bool {
        self.plan
            .line_of(unit)
            .is_some_and(|index| self.front_crumbling(index))
    }

    /// Whether line `index` is the last line, the army's reserve, and a
    /// line in front of it has begun to crumble.
    fn front_crumbling(&self, index: usize) -> bool {
        index > 0
            && index + 1 == self.plan.lines.len()
            && self.plan.lines[..index].iter().any(|line| line.crumbling)
    }

    /// Whether line `index` is released to advance (PL7): the rule is on,
    /// it is the last line, the army's reserve, and a line in front of it
    /// has begun to crumble.
    pub(super) fn released(&self, index: usize) -> bool {
        self.rule("counter-attack") && self.front_crumbling(index)
    }

    /// Where a unit of a fallen line withdraws to (PL6): behind the next
    /// line that still stands, if any.
    pub(super) fn fall_back_point(
        &self,
        state: &GameState,
        unit: UnitId,
    ) -> Option<(Point, String)> {
        if !self.rule("fall-back") {
            return None;
        }
        let index = self.plan.line_of(unit)?;
        if !self.line_fallen(index) {
            return None;
        }
        let next = self.plan.lines[index + 1..]
            .iter()
            .find(|line| !line.fallen)?;
        let edge = state.sides[self.side].edge;
        let back = crate::battlefield::Vector::from_bearing(edge.bearing());
        Some((next.post + back * 3.0, format!("behind the {}", next.name)))
    }

    /// The objective's nearest point to `unit` for an attack (PL2): the
    /// nearest objective unit still on the table, or the objective area.
    pub(super) fn objective_target(&self, state: &GameState, unit: UnitId) -> Option<Objectived> {
        if !self.rule("advance-on-objective") {
            return None;
        }
        if let Some(point) = self.plan.objective_point {
            return Some(Objectived::Point(point));
        }
        let from = state.unit(unit).base.centre;
        self.plan
            .objective_units
            .iter()
            .copied()
            .filter(|id| state.unit(*id).is_active())
            .map(|id| (id, state.unit(id).base.centre.distance(from)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
            .map(|(id, _)| Objectived::Unit(id))
    }
}

/// What an attack heads for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Objectived {
    /// An enemy unit of the objective.
    Unit(UnitId),
    /// The objective area's centre.
    Point(Point),
}
