//! The seed-002 referee: setting up, the activation procedure (dice rolled,
//! assigned, re-rolled when opposed units tie), checking every action
//! completely before anything changes, and applying it with the dice.
//!
//! Every check lives in a `plan_*` function that reads the state and
//! returns what would happen; `apply` runs `check` first, so a refusal
//! leaves the state untouched and rolls no die.

use super::event::{Action, Event, Modifier, Refusal, Removal, Rule};
use super::state::{GameSetup, GameState, Outcome, Phase, SetupError, Side, Unit, UnitId};
use super::table::{AcwTable, Formation, Mode, Weapon};
use crate::battlefield::geometry::{Arc as BaseArc, EPSILON, normalise_degrees};
use crate::battlefield::{Base, Point, Vector};
use crate::dice::Roller;
use crate::ruleset::{Category, TerrainId};
use crate::scenario::Condition;
use std::sync::Arc;

/// Most throws to settle the initiative or a tie before a fixed order
/// decides (ruling AC2): a forced die could repeat for ever.
const MAX_THROWS: usize = 100;

/// Bearings a generated move may take, compass degrees.
const BEARINGS: [f64; 8] = [0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0];

/// Shares of the allowance a generated move may use.
const SHARES: [f64; 3] = [1.0, 0.5, 0.25];

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
    /// Validate `setup` and start the game: turn 1's dice are rolled (and
    /// the initiative, if that rule is on), so the events are the first of
    /// the record.
    pub fn new(
        setup: GameSetup,
        table: Arc<AcwTable>,
        roller: &mut dyn Roller,
    ) -> Result<(GameState, Vec<Event>), SetupError> {
        if setup.forces.len() != 2 {
            return Err(SetupError::Sides(setup.forces.len()));
        }
        if setup.first > 1 {
            return Err(SetupError::NoSuchSide(setup.first));
        }
        if setup.turns == 0 {
            return Err(SetupError::NoTurns);
        }
        for victory in &setup.victory {
            let side = match &victory.when {
                Condition::RoutFraction { side, .. }
                | Condition::RoutOrExit { side, .. }
                | Condition::HoldArea { side, .. } => *side,
            };
            for index in [victory.winner, side] {
                if index > 1 {
                    return Err(SetupError::NoSuchSide(index));
                }
            }
        }
        let battlefield = setup.battlefield.clone();
        let mut units: Vec<Unit> = Vec::new();
        let mut sides = Vec::new();
        for (side_index, force) in setup.forces.iter().enumerate() {
            sides.push(Side {
                name: force.name.clone(),
                edge: force.edge,
                extra_dice: force.extra_dice.min(100),
            });
            for unit in &force.units {
                let bad = |problem: &str| SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: problem.to_string(),
                };
                let Some(troop) = battlefield.ruleset.troop_types.get(unit.troop.0) else {
                    return Err(bad("has a troop type this rule set does not have"));
                };
                if table.move_of(unit.troop, Formation::Line).is_none() {
                    return Err(bad("is of a troop type with no moves in this rule set"));
                }
                if table.move_of(unit.troop, unit.formation).is_none() {
                    return Err(bad(&format!(
                        "cannot be drawn up in {} (seed 002 formations)",
                        unit.formation
                    )));
                }
                if !battlefield.base_on_table(&unit.base) {
                    return Err(bad("is off the table"));
                }
                if let Some(other) = units.iter().find(|u| u.base.overlaps(&unit.base)) {
                    return Err(bad(&format!("overlaps `{}`", other.name)));
                }
                let placed = Unit {
                    name: unit.name.clone(),
                    side: side_index,
                    troop: unit.troop,
                    category: troop.category,
                    base: unit.base,
                    formation: unit.formation,
                    hits: 0,
                    die: None,
                    tie_rolls: Vec::new(),
                    activated: false,
                    removed: false,
                    reaction_class: unit
                        .reaction_class
                        .clone()
                        .or_else(|| troop.reaction_class.clone()),
                };
                units.push(placed);
            }
        }
        let mut state = GameState {
            table,
            battlefield,
            sides,
            units,
            optional: setup.optional,
            victory: setup.victory,
            first: setup.first,
            turns: setup.turns,
            turn: 0,
            phase: Phase::Activating,
            pools: [Vec::new(), Vec::new()],
            pile: Vec::new(),
            outcome: Outcome::Playing,
        };
        for index in 0..state.units.len() {
            let unit = &state.units[index];
            if !state.base_ground_ok(&unit.base, unit.mode(), unit.formation) {
                return Err(SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: "stands on ground it may not enter".to_string(),
                });
            }
        }
        let mut events = Vec::new();
        state.begin_turn(roller, &mut events);
        Ok((state, events))
    }

    /// The side to act, `None` when the game is over.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::Assigning { side } => Some(side),
            Phase::Activating => self.up_next().first().map(|id| self.unit(*id).side),
            Phase::ChargeResponse { target, .. } => Some(self.unit(target).side),
            Phase::Over => None,
        }
    }

    /// The units whose die is up: the highest unused die (with its tie
    /// re-rolls). They all belong to one side; that side picks which acts.
    pub fn up_next(&self) -> Vec<UnitId> {
        if self.phase != Phase::Activating {
            return Vec::new();
        }
        let pending = || {
            self.units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.has_unused_die())
        };
        let Some(best) = pending().map(|(_, u)| u.key()).max() else {
            return Vec::new();
        };
        pending()
            .filter(|(_, u)| u.key() == best)
            .map(|(i, _)| UnitId(i))
            .collect()
    }

    /// Check an action completely without changing anything.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        self.plan(action).map(|_| ())
    }

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

    // ----- checking -------------------------------------------------------

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
                    Action::Hold { .. } => Ok(Plan::Nothing),
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

    fn plan_move(
        &self,
        id: UnitId,
        formation: Option<Formation>,
        to: Point,
        facing: f64,
    ) -> Result<MovePlan, Refusal> {
        let unit = self.unit(id);
        if !(facing.is_finite() && to.x.is_finite() && to.y.is_finite()) {
            return Err(Refusal::broken(
                Rule::Movement,
                "a move needs a place and a facing",
            ));
        }
        let from = unit.formation;
        let (to_formation, change_cost) = match formation {
            None => (from, 0.0),
            Some(f) if f == from => {
                return Err(Refusal::broken(
                    Rule::Formation,
                    format!("it is already in {f}"),
                ));
            }
            Some(f) => {
                let cost = self
                    .table
                    .change_cost(unit.troop, from, f)
                    .filter(|_| self.table.move_of(unit.troop, f).is_some())
                    .ok_or_else(|| {
                        Refusal::broken(
                            Rule::Formation,
                            format!("{} cannot change from {from} to {f}", self.troop_name(id)),
                        )
                    })?;
                (f, cost)
            }
        };
        let full = self.table.move_of(unit.troop, to_formation).unwrap_or(0.0);
        let allowance = full - change_cost;
        let base = Base::new(to, facing, unit.base.frontage, unit.base.depth);
        if !self.battlefield.base_on_table(&base) {
            return Err(Refusal::broken(
                Rule::Movement,
                "the move would leave the table",
            ));
        }
        let mut probe = unit.clone();
        probe.formation = to_formation;
        let mode = probe.mode();
        let (used, friends) = self.path(id, &probe, base, &[], true)?;
        if used > allowance.max(0.0) + 1e-9 {
            return Err(Refusal::broken(
                Rule::Movement,
                format!(
                    "the move needs {:.1}\" of its {:.1}\" ({} {}{})",
                    used,
                    allowance.max(0.0),
                    self.troop_name(id),
                    to_formation,
                    if change_cost > 0.0 {
                        format!(", less {change_cost}\" to change formation")
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        if !self.base_ground_ok(&base, mode, to_formation) {
            return Err(Refusal::broken(
                Rule::Terrain,
                "it cannot stand on that ground",
            ));
        }
        for (index, other) in self.units.iter().enumerate() {
            if index == id.0 || other.removed || other.side == unit.side {
                continue;
            }
            if base.distance_to(&other.base) < self.table.keep_clear {
                return Err(Refusal::broken(
                    Rule::Movement,
                    format!("only a charge may touch the enemy (`{}`)", other.name),
                ));
            }
        }
        Ok(MovePlan {
            from,
            to_formation,
            change_cost,
            base,
            used,
            allowance,
            friends,
        })
    }

    /// The cost of `mover` (a copy of unit `id` in its new formation)
    /// moving straight from where it stands to `base`, and the friends it
    /// passes through. Refuses impassable ground, fords and bridges out of
    /// column, enemies in the way, and friends that have used their die
    /// (or any friend, when `friends_allowed` is false: charges).
    fn path(
        &self,
        id: UnitId,
        mover: &Unit,
        base: Base,
        ignore: &[UnitId],
        friends_allowed: bool,
    ) -> Result<(f64, Vec<UnitId>), Refusal> {
        let from = mover.base.centre;
        let to = base.centre;
        let length = from.distance(to);
        let mode = mover.mode();
        let steps = (length / self.table.step).ceil().clamp(1.0, 100_000.0) as usize;
        let step_length = length / steps as f64;
        let mut cost = 0.0;
        let mut in_town = self.town_at(from);
        let town_cost = self.table.line_column_cost(mover.troop);
        if length > EPSILON {
            for step in 0..steps {
                let mid = from.lerp(to, (step as f64 + 0.5) / steps as f64);
                let speed = self.speed_at(mid, mode).ok_or_else(|| {
                    Refusal::broken(
                        Rule::Terrain,
                        format!(
                            "{} cannot cross the {} at {}",
                            self.mode_name(mode),
                            self.ground_name(mid),
                            mid
                        ),
                    )
                })?;
                if mover.formation != Formation::Column && self.column_only_at(mid) {
                    return Err(Refusal::broken(
                        Rule::Terrain,
                        "fords and bridges are crossed in march column only",
                    ));
                }
                cost += step_length / speed;
                let end = from.lerp(to, (step as f64 + 1.0) / steps as f64);
                let town = self.town_at(end);
                if town != in_town {
                    // Seed 002 Towns: a formation change cost to enter or leave.
                    cost += town_cost;
                    in_town = town;
                }
            }
        }
        // Sweep the base along the way, every half inch.
        let sweeps = (length / 0.5).ceil().clamp(1.0, 100_000.0) as usize;
        let mut friends = Vec::new();
        for (index, other) in self.units.iter().enumerate() {
            if index == id.0 || other.removed || ignore.contains(&UnitId(index)) {
                continue;
            }
            if other.base.overlaps_near(&base) {
                return Err(Refusal::broken(
                    Rule::Movement,
                    format!("it would end on top of `{}`", other.name),
                ));
            }
            let crossed = (0..=sweeps).any(|k| {
                let centre = from.lerp(to, k as f64 / sweeps as f64);
                base.moved_to(centre).overlaps_near(&other.base)
            });
            if !crossed {
                continue;
            }
            if other.side != mover.side {
                return Err(Refusal::broken(
                    Rule::Movement,
                    format!("the enemy `{}` is in the way", other.name),
                ));
            }
            if !friends_allowed {
                return Err(Refusal::broken(
                    Rule::Interpenetration,
                    format!(
                        "no interpenetration when charging (`{}` is in the way)",
                        other.name
                    ),
                ));
            }
            if !other.has_unused_die() {
                return Err(Refusal::broken(
                    Rule::Interpenetration,
                    format!(
                        "`{}` has no unused die, so it cannot be passed through",
                        other.name
                    ),
                ));
            }
            friends.push(UnitId(index));
            // Seed 002: a cost equal to a formation change.
            cost += town_cost;
        }
        Ok((cost, friends))
    }

    fn plan_charge(&self, id: UnitId, target_id: UnitId) -> Result<ChargePlan, Refusal> {
        let unit = self.unit(id);
        let target = self
            .units
            .get(target_id.0)
            .ok_or(Refusal::NoSuchUnit { index: target_id.0 })?;
        if target.side == unit.side || target.removed {
            return Err(Refusal::broken(
                Rule::Charging,
                "the target must be an enemy on the table",
            ));
        }
        if self.table.never_charge.contains(&unit.troop) {
            return Err(Refusal::broken(
                Rule::Charging,
                format!("{} cannot charge, full stop", self.troop_name(id)),
            ));
        }
        if unit.formation == Formation::Column {
            return Err(Refusal::broken(
                Rule::Charging,
                "a unit cannot charge in march column",
            ));
        }
        let arc = target.base.arc_of(unit.base.centre);
        let flank_or_rear = arc != BaseArc::Front;
        let any_target = unit.mounted() && self.table.any_target.contains(&unit.troop);
        if !any_target && !flank_or_rear {
            let ours = self.strength_points(id);
            let theirs = self.strength_points(target_id);
            if ours < theirs.saturating_add(self.table.strength_advantage) {
                return Err(Refusal::broken(
                    Rule::Charging,
                    format!(
                        "foot need an advantage: the flank or rear, or {}+ strength points more (it has {ours}, `{}` {theirs})",
                        self.table.strength_advantage, target.name
                    ),
                ));
            }
        }
        let contact = contact_base(&unit.base, &target.base, arc);
        if !self.battlefield.base_on_table(&contact) {
            return Err(Refusal::broken(
                Rule::Charging,
                "contact would be off the table",
            ));
        }
        // Seed 002: "Charge movement is as per normal line movement".
        let allowance = self
            .table
            .move_of(unit.troop, unit.formation)
            .unwrap_or(0.0);
        let (used, _) = self.path(id, unit, contact, &[target_id], false)?;
        if used > allowance + 1e-9 {
            return Err(Refusal::broken(
                Rule::Charging,
                format!(
                    "the charge needs {used:.1}\" of its {allowance:.1}\" and has to end in contact"
                ),
            ));
        }
        if !self.base_ground_ok(&contact, unit.mode(), unit.formation) {
            return Err(Refusal::broken(
                Rule::Terrain,
                "the charger cannot stand on the ground at contact",
            ));
        }
        let target_may_fire =
            target.has_unused_die() && self.plan_fire(target_id, id, true).is_ok();
        Ok(ChargePlan {
            flank_or_rear,
            target_may_fire,
        })
    }

    /// The shot `shooter` would fire at `target`; `at_charger` adds the
    /// difference of the activation dice.
    fn plan_fire(
        &self,
        shooter_id: UnitId,
        target_id: UnitId,
        at_charger: bool,
    ) -> Result<FirePlan, Refusal> {
        let shooter = self.unit(shooter_id);
        let target = self
            .units
            .get(target_id.0)
            .ok_or(Refusal::NoSuchUnit { index: target_id.0 })?;
        if target.side == shooter.side || target.removed {
            return Err(Refusal::broken(
                Rule::Firing,
                "the target must be an enemy on the table",
            ));
        }
        let weapon: &Weapon = match self.table.weapon(shooter.troop, shooter.formation) {
            Some(weapon) => weapon,
            None if shooter.formation == Formation::Column => {
                return Err(Refusal::broken(Rule::Firing, "march columns cannot fire"));
            }
            None => {
                return Err(Refusal::broken(
                    Rule::Firing,
                    format!(
                        "{} do not fire in {}",
                        self.troop_name(shooter_id),
                        if shooter.mounted() {
                            "the saddle".to_string()
                        } else {
                            shooter.formation.to_string()
                        }
                    ),
                ));
            }
        };
        if !shooter.base.in_frontal_arc(&target.base) {
            return Err(Refusal::broken(
                Rule::Firing,
                format!("`{}` is not in the frontal arc", target.name),
            ));
        }
        let distance = shooter.base.distance_to(&target.base);
        let within_cover = self.firing_within_cover(&shooter.base, &target.base);
        let range = if within_cover {
            self.table.within_cover_range.min(weapon.range())
        } else {
            weapon.range()
        };
        if distance > range + 1e-9 {
            return Err(Refusal::broken(
                Rule::Firing,
                format!(
                    "`{}` is {distance:.1}\" away, beyond its {range}\"{}",
                    target.name,
                    if within_cover {
                        " (firing within cover)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        // Ruling AC9: within cover the 3" range is the limit; the cover
        // itself does not also hide the target.
        if !within_cover && !self.battlefield.can_see(&shooter.base, &target.base) {
            return Err(Refusal::broken(
                Rule::Firing,
                format!("`{}` cannot be seen", target.name),
            ));
        }
        let band = weapon.band(distance).expect("within range");
        let mut modifiers = vec![Modifier {
            label: band.label.clone(),
            add: band.add,
        }];
        if let Some((at_least, add)) = self
            .table
            .strength
            .iter()
            .find(|(at_least, _)| shooter.hits >= *at_least)
        {
            modifiers.push(Modifier {
                label: format!("{at_least}+ hits"),
                add: *add,
            });
        }
        if at_charger && self.table.charger_die_difference {
            let ours = i32::from(shooter.die.unwrap_or(0));
            let theirs = i32::from(target.die.unwrap_or(0));
            modifiers.push(Modifier {
                label: "firing at a charger: the difference of the dice".to_string(),
                add: ours - theirs,
            });
        }
        Ok(FirePlan { modifiers })
    }

    // ----- applying -------------------------------------------------------

    fn activate(&mut self, id: UnitId, events: &mut Vec<Event>) {
        let unit = &mut self.units[id.0];
        unit.activated = true;
        events.push(Event::Activated {
            unit: id,
            die: unit.die.unwrap_or(0),
        });
    }

    fn do_assign(&mut self, die: u8, id: UnitId, events: &mut Vec<Event>) {
        let side = self.unit(id).side;
        let pool = if self.optional.draft {
            &mut self.pile
        } else {
            &mut self.pools[side]
        };
        if let Some(position) = pool.iter().position(|d| *d == die) {
            pool.remove(position);
        }
        self.units[id.0].die = Some(die);
        events.push(Event::DieAssigned {
            side,
            unit: id,
            die,
        });
        let other = 1 - side;
        let waiting = |s: usize| self.unassigned(s).next().is_some();
        let next = if self.optional.draft {
            // Optional rule #2: the sides take dice in turn.
            if waiting(other) {
                Some(other)
            } else if waiting(side) {
                Some(side)
            } else {
                None
            }
        } else if waiting(side) {
            Some(side)
        } else if waiting(other) {
            Some(other)
        } else {
            None
        };
        match next {
            Some(side) => self.phase = Phase::Assigning { side },
            None => self.start_activation(events),
        }
    }

    fn start_activation(&mut self, events: &mut Vec<Event>) {
        if self.optional.draft && !self.pile.is_empty() {
            events.push(Event::DiceDiscarded {
                side: None,
                dice: std::mem::take(&mut self.pile),
            });
        }
        for side in 0..2 {
            if !self.pools[side].is_empty() {
                events.push(Event::DiceDiscarded {
                    side: Some(side),
                    dice: std::mem::take(&mut self.pools[side]),
                });
            }
        }
        self.phase = Phase::Activating;
    }

    fn do_move(&mut self, id: UnitId, plan: MovePlan, events: &mut Vec<Event>) {
        if plan.to_formation != plan.from {
            events.push(Event::FormationChanged {
                unit: id,
                from: plan.from,
                to: plan.to_formation,
                cost: plan.change_cost,
            });
        }
        for friend in &plan.friends {
            events.push(Event::PassedThrough {
                unit: id,
                friend: *friend,
            });
        }
        let unit = &mut self.units[id.0];
        let from = unit.base.centre;
        unit.formation = plan.to_formation;
        unit.base = plan.base;
        events.push(Event::Moved {
            unit: id,
            from,
            to: plan.base.centre,
            facing: plan.base.facing,
            used: plan.used,
            allowance: plan.allowance,
        });
    }

    fn do_fire(
        &mut self,
        id: UnitId,
        target: UnitId,
        plan: FirePlan,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let roll = roller.roll_for(
            self.table.fire_die,
            format_args!(
                "{}'s fire at {}",
                self.unit(id).name,
                self.unit(target).name
            ),
        );
        let total = plan
            .modifiers
            .iter()
            .fold(i64::from(roll), |sum, m| sum + i64::from(m.add))
            .max(0);
        let halved = self.in_cover(target);
        let total = if halved {
            total / i64::from(self.table.cover_divisor.max(1))
        } else {
            total
        };
        let hits = u32::try_from(total).unwrap_or(u32::MAX);
        events.push(Event::Fired {
            unit: id,
            target,
            roll,
            modifiers: plan.modifiers,
            halved_for_cover: halved,
            hits,
        });
        self.hit(target, hits, events);
    }

    fn resolve_charge(
        &mut self,
        id: UnitId,
        target_id: UnitId,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        // The charger's path was checked when the charge was declared;
        // nothing on it has moved since (only the target may have fired).
        let arc = self.unit(target_id).base.arc_of(self.unit(id).base.centre);
        let flank_or_rear = arc != BaseArc::Front;
        let contact = contact_base(&self.unit(id).base, &self.unit(target_id).base, arc);
        self.units[id.0].base = contact;
        events.push(Event::Contact {
            unit: id,
            target: target_id,
            at: contact.centre,
        });
        let target = self.unit(target_id);
        if self.table.destroyed_formations.contains(&target.formation)
            || self.table.destroyed_troops.contains(&target.troop)
        {
            let reason = if self.table.destroyed_formations.contains(&target.formation) {
                Removal::CaughtInColumn
            } else {
                Removal::GunsOverrun
            };
            self.remove(target_id, reason, events);
            return;
        }
        let roll = roller.roll_for(
            self.table.melee_die,
            format_args!("{}'s charge on {}", self.unit(id).name, target.name),
        );
        let charger = self.unit(id);
        let mut modifiers = vec![Modifier {
            label: "charging".to_string(),
            add: self.table.charging,
        }];
        for (troop, add) in &self.table.melee_by_troop {
            if *troop == charger.troop {
                modifiers.push(Modifier {
                    label: self.battlefield.ruleset.troop(*troop).name.clone(),
                    add: *add,
                });
            }
        }
        if charger.formation == Formation::Dismounted {
            modifiers.push(Modifier {
                label: "dismounted cavalry".to_string(),
                add: self.table.dismounted,
            });
        }
        let advantage =
            i64::from(self.strength_points(id)) - i64::from(self.strength_points(target_id));
        if let Some((more_than, add)) = self
            .table
            .outnumbered
            .iter()
            .find(|(more_than, _)| advantage > i64::from(*more_than))
        {
            modifiers.push(Modifier {
                label: format!("defender outnumbered by more than {more_than}"),
                add: *add,
            });
        }
        let mut total = modifiers
            .iter()
            .fold(i64::from(roll), |sum, m| sum + i64::from(m.add))
            .max(0);
        let target = self.unit(target_id);
        let mut halved = Vec::new();
        if self.battlefield.height_at(target.base.centre)
            > self.battlefield.height_at(self.unit(id).base.centre)
        {
            halved.push("defender uphill".to_string());
        }
        if target.mounted() {
            halved.push("defender is mounted cavalry".to_string());
        }
        if let Some(kind) = self
            .battlefield
            .terrain_at(target.base.centre)
            .into_iter()
            .find(|kind| self.table.halve_in.contains(kind))
        {
            halved.push(format!(
                "defender in {}",
                self.battlefield.ruleset.kind(kind).name
            ));
        }
        if !halved.is_empty() {
            total /= i64::from(self.table.divisor.max(1));
        }
        if flank_or_rear {
            total = total.saturating_mul(i64::from(self.table.flank_or_rear));
        }
        let hits = u32::try_from(total).unwrap_or(u32::MAX);
        events.push(Event::Melee {
            unit: id,
            target: target_id,
            roll,
            modifiers,
            halved,
            doubled: flank_or_rear,
            hits,
        });
        self.hit(target_id, hits, events);
        if !self.unit(target_id).removed {
            self.retreat(id, events);
        }
    }

    /// Seed 002: the repulsed charger retreats straight back, facing the
    /// defender: mounted 6", others 3". A retreat through units costs each
    /// a hit; one that ends on a unit or impassable ground goes on half an
    /// inch at a time (at most 24" more); off the table the unit is gone;
    /// one that can find no place stands (ruling AC10).
    fn retreat(&mut self, id: UnitId, events: &mut Vec<Event>) {
        let unit = self.unit(id).clone();
        let distance = if unit.mounted() {
            self.table.retreat_mounted
        } else {
            self.table.retreat_other
        };
        let back = unit.base.forward() * -1.0;
        let from = unit.base.centre;
        let mut extra = 0.0;
        let found = loop {
            let to = from + back * (distance + extra);
            let base = unit.base.moved_to(to);
            if !self.battlefield.base_on_table(&base) {
                break Some((base, true));
            }
            let clear = self
                .units
                .iter()
                .enumerate()
                .all(|(i, o)| i == id.0 || o.removed || !o.base.overlaps_near(&base));
            if clear && self.base_ground_ok(&base, unit.mode(), unit.formation) {
                break Some((base, false));
            }
            extra += 0.5;
            if extra > 24.0 {
                break None;
            }
        };
        let Some((base, off_table)) = found else {
            return;
        };
        // Units passed through on the way.
        let length = from.distance(base.centre);
        let sweeps = (length / 0.5).ceil().clamp(1.0, 100_000.0) as usize;
        let crossed: Vec<UnitId> = (0..self.units.len())
            .filter(|i| *i != id.0 && !self.units[*i].removed)
            .filter(|i| {
                (0..=sweeps).any(|k| {
                    let centre = from.lerp(base.centre, k as f64 / sweeps as f64);
                    unit.base
                        .moved_to(centre)
                        .overlaps_near(&self.units[*i].base)
                })
            })
            .map(UnitId)
            .collect();
        self.units[id.0].base = base;
        events.push(Event::Retreated {
            unit: id,
            from,
            to: base.centre,
        });
        for other in crossed {
            let hits = self.table.retreat_through;
            for who in [other, id] {
                if !self.unit(who).removed {
                    events.push(Event::Damaged { unit: who, hits });
                    self.hit(who, hits, events);
                }
            }
        }
        if off_table && !self.unit(id).removed {
            self.remove(id, Removal::OffTable, events);
        }
    }

    fn hit(&mut self, id: UnitId, hits: u32, events: &mut Vec<Event>) {
        let unit = &mut self.units[id.0];
        unit.hits = unit.hits.saturating_add(hits);
        if unit.hits >= self.table.removed_at && !unit.removed {
            self.remove(id, Removal::Casualties, events);
        }
    }

    fn remove(&mut self, id: UnitId, reason: Removal, events: &mut Vec<Event>) {
        self.units[id.0].removed = true;
        events.push(Event::Removed { unit: id, reason });
    }

    // ----- the turn -------------------------------------------------------

    fn begin_turn(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        if self.outcome != Outcome::Playing {
            self.phase = Phase::Over;
            return;
        }
        // A table with nobody left on it has nothing more to play (and no
        // die to throw): the game ends as it would at the last turn.
        if self.turn >= self.turns || self.units.iter().all(|u| u.removed) {
            self.finish_at_time(events);
            return;
        }
        self.turn += 1;
        events.push(Event::TurnBegan { turn: self.turn });
        for unit in &mut self.units {
            unit.die = None;
            unit.tie_rolls.clear();
            unit.activated = false;
        }
        let counts: [usize; 2] = [0, 1].map(|side| self.active_units(side).count());
        let extra: [usize; 2] = [0, 1].map(|side| {
            if self.optional.good_commanders {
                self.sides[side].extra_dice as usize
            } else {
                0
            }
        });
        // Optional rule #1: the initiative; the loser assigns first.
        let mut first = self.first;
        let mut winner = None;
        if self.optional.initiative {
            let mut rolls = Vec::new();
            for _ in 0..MAX_THROWS {
                let a = roller.roll_for(
                    self.table.initiative_die,
                    format_args!("{}'s initiative", self.sides[0].name),
                );
                let b = roller.roll_for(
                    self.table.initiative_die,
                    format_args!("{}'s initiative", self.sides[1].name),
                );
                rolls.push([a, b]);
                if a != b {
                    winner = Some(usize::from(b > a));
                    break;
                }
            }
            let won = winner.unwrap_or(self.first);
            events.push(Event::InitiativeRolled { rolls, winner: won });
            winner = Some(won);
            first = 1 - won;
        }
        let die = self.table.activation_die;
        if self.optional.draft {
            // Optional rule #2: one pile, taken in turn; ruling AC2: the
            // initiative winner takes first.
            let n = counts[0] + counts[1] + extra[0] + extra[1];
            let mut pile: Vec<u8> = (0..n)
                .map(|_| roller.roll_for(die, format_args!("the activation pile")))
                .collect();
            pile.sort_unstable_by(|a, b| b.cmp(a));
            events.push(Event::DiceRolled {
                side: None,
                dice: pile.clone(),
            });
            self.pile = pile;
            if let Some(won) = winner {
                first = won;
            }
        } else {
            for side in 0..2 {
                let mut dice: Vec<u8> = (0..counts[side] + extra[side])
                    .map(|_| {
                        roller.roll_for(
                            die,
                            format_args!("{}'s activation dice", self.sides[side].name),
                        )
                    })
                    .collect();
                dice.sort_unstable_by(|a, b| b.cmp(a));
                events.push(Event::DiceRolled {
                    side: Some(side),
                    dice: dice.clone(),
                });
                // Optional rule #3: the worst are discarded.
                let discarded = dice.split_off(counts[side]);
                if !discarded.is_empty() {
                    events.push(Event::DiceDiscarded {
                        side: Some(side),
                        dice: discarded,
                    });
                }
                self.pools[side] = dice;
            }
        }
        let waiting = |s: usize| self.unassigned(s).next().is_some();
        if waiting(first) {
            self.phase = Phase::Assigning { side: first };
        } else if waiting(1 - first) {
            self.phase = Phase::Assigning { side: 1 - first };
        } else {
            self.start_activation(events);
            self.advance(roller, events);
        }
    }

    /// After an action: break opposed ties at the top, or end the turn.
    fn advance(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        if self.outcome != Outcome::Playing {
            self.phase = Phase::Over;
            return;
        }
        if self.phase != Phase::Activating {
            return;
        }
        for _ in 0..MAX_THROWS {
            let up = self.up_next();
            if up.is_empty() {
                events.push(Event::TurnEnded { turn: self.turn });
                self.begin_turn(roller, events);
                return;
            }
            let sides: Vec<usize> = up.iter().map(|id| self.unit(*id).side).collect();
            if !sides.contains(&0) || !sides.contains(&1) {
                return;
            }
            // Seed 002: opposed units with the same die throw again, the
            // higher going first. Ruling AC2: the order always matters.
            for id in up {
                let roll = roller.roll_for(
                    self.table.roll_off_die,
                    format_args!("{}'s re-roll of equal dice", self.unit(id).name),
                );
                self.units[id.0].tie_rolls.push(roll);
                events.push(Event::TieRolled { unit: id, roll });
            }
        }
        // Still tied after every throw: side order decides (unit ids).
        let up = self.up_next();
        for id in up {
            let side = self.unit(id).side as u8;
            self.units[id.0]
                .tie_rolls
                .push(if side == self.first as u8 { 1 } else { 0 });
        }
    }

    fn check_victory(&mut self, events: &mut Vec<Event>) {
        if self.outcome != Outcome::Playing {
            return;
        }
        for victory in &self.victory {
            let won = match &victory.when {
                Condition::RoutFraction { side, more_than } => {
                    let total = self.units.iter().filter(|u| u.side == *side).count();
                    let lost = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side && u.removed)
                        .count();
                    total > 0 && (lost as f64) > more_than * total as f64
                }
                Condition::RoutOrExit {
                    side,
                    troop_type,
                    count,
                } => {
                    let lost = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side && u.removed && u.troop == *troop_type)
                        .count();
                    lost as u64 >= u64::from(*count)
                }
                Condition::HoldArea { .. } => false,
            };
            if won {
                let reason = match &victory.when {
                    Condition::RoutFraction { side, more_than } => format!(
                        "{} lost more than {}% of its units",
                        self.sides[*side].name,
                        (more_than * 100.0).round()
                    ),
                    Condition::RoutOrExit { side, count, .. } => {
                        format!(
                            "{} lost {count} of the units that mattered",
                            self.sides[*side].name
                        )
                    }
                    Condition::HoldArea { .. } => String::new(),
                };
                self.outcome = Outcome::Won {
                    side: victory.winner,
                    reason: reason.clone(),
                };
                events.push(Event::GameOver {
                    winner: Some(victory.winner),
                    reason,
                });
                self.phase = Phase::Over;
                return;
            }
        }
    }

    fn finish_at_time(&mut self, events: &mut Vec<Event>) {
        for victory in &self.victory {
            if let Condition::HoldArea { side, area } = &victory.when {
                let holds = |s: usize| {
                    self.units
                        .iter()
                        .any(|u| u.side == s && !u.removed && area.holds(&u.base))
                };
                if holds(*side) && !holds(1 - *side) {
                    let reason = format!("{} holds {}", self.sides[*side].name, area.name);
                    self.outcome = Outcome::Won {
                        side: victory.winner,
                        reason: reason.clone(),
                    };
                    events.push(Event::GameOver {
                        winner: Some(victory.winner),
                        reason,
                    });
                    self.phase = Phase::Over;
                    return;
                }
            }
        }
        self.outcome = Outcome::Draw;
        events.push(Event::GameOver {
            winner: None,
            reason: "the last turn is over and nobody has won".to_string(),
        });
        self.phase = Phase::Over;
    }

    // ----- ground ---------------------------------------------------------

    /// The terrain kinds that count at `point`: those present that no
    /// other kind present opens (a road through woods, a ford's river).
    pub fn ground_at(&self, point: Point) -> Vec<TerrainId> {
        let kinds = self.battlefield.terrain_at(point);
        let ruleset = &self.battlefield.ruleset;
        kinds
            .iter()
            .copied()
            .filter(|kind| {
                !kinds
                    .iter()
                    .any(|other| other != kind && ruleset.kind(*other).opens.contains(kind))
            })
            .collect()
    }

    fn speed_at(&self, point: Point, mode: Mode) -> Option<f64> {
        let kinds = self.ground_at(point);
        if kinds.is_empty() {
            return None;
        }
        kinds
            .iter()
            .map(|kind| self.table.speed(*kind, mode))
            .try_fold(f64::INFINITY, |least, speed| speed.map(|s| least.min(s)))
    }

    fn town_at(&self, point: Point) -> bool {
        self.ground_at(point).iter().any(|kind| {
            self.table
                .terrain
                .get(kind.0)
                .is_some_and(|t| t.formation_cost)
        })
    }

    fn column_only_at(&self, point: Point) -> bool {
        self.ground_at(point).iter().any(|kind| {
            self.table
                .terrain
                .get(kind.0)
                .is_some_and(|t| t.column_only)
        })
    }

    /// Whether a base in `formation` may stand where it is: every cell
    /// under it passable, and no ford or bridge under it out of column.
    fn base_ground_ok(&self, base: &Base, mode: Mode, formation: Formation) -> bool {
        let mut ok = self.speed_at(base.centre, mode).is_some();
        self.battlefield.for_each_cell_under(base, |cell| {
            let point = self.battlefield.grid.centre(cell);
            ok = ok
                && self.speed_at(point, mode).is_some()
                && (formation == Formation::Column || !self.column_only_at(point));
        });
        ok
    }

    /// Seed 002: "Units must be on the edge of cover to fire out of it";
    /// "Units firing within cover have a range of 3"". A shooter in cover
    /// whose line to the target runs through more than the edge allowance
    /// of cover is firing within cover.
    fn firing_within_cover(&self, shooter: &Base, target: &Base) -> bool {
        let in_cover = |point: Point| {
            self.battlefield
                .terrain_at(point)
                .iter()
                .any(|kind| self.table.cover.contains(kind))
        };
        if !in_cover(shooter.centre) {
            return false;
        }
        let from = shooter.front_centre();
        let to = target.centre;
        let length = from.distance(to);
        let steps = (length / 0.25).ceil().clamp(1.0, 100_000.0) as usize;
        let step = length / steps as f64;
        let mut covered = 0.0;
        for k in 0..steps {
            let point = from.lerp(to, (k as f64 + 0.5) / steps as f64);
            if target.contains(point) {
                break;
            }
            if in_cover(point) {
                covered += step;
            }
        }
        covered > self.table.cover_edge + 1e-9
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

/// Round generated coordinates to a thousandth of an inch, so that actions
/// print and replay cleanly.
fn round_to(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// Where a charger ends: squarely against the face of the target in the
/// arc it charges from, centred on that face, facing it.
fn contact_base(charger: &Base, target: &Base, arc: BaseArc) -> Base {
    let (outward, half) = match arc {
        BaseArc::Front => (target.forward(), target.depth / 2.0),
        BaseArc::Rear => (target.forward() * -1.0, target.depth / 2.0),
        BaseArc::LeftFlank => (target.right() * -1.0, target.frontage / 2.0),
        BaseArc::RightFlank => (target.right(), target.frontage / 2.0),
    };
    let face = target.centre + outward * half;
    let centre = face + outward * (charger.depth / 2.0);
    let facing = normalise_degrees((outward * -1.0).bearing());
    Base::new(centre, facing, charger.frontage, charger.depth)
}
