//! The referee: starting a game, checking every action completely before
//! anything changes, applying it with the dice passed in, the phase
//! machine, and the charge, fire and melee procedures.
//!
//! [`GameState::check`] is the one place an action's legality is decided;
//! [`GameState::apply`] calls it first and then only carries the action out,
//! so a refusal leaves the state untouched and rolls no die.

use super::event::{
    Action, Event, Formation, MeleeSide, Modifier, MoraleFor, Refusal, Removal, Response, Who,
};
use super::state::{
    Commander, EndReason, GameSetup, GameState, MAX_BASES, MAX_UNITS, Melee, Outcome, Pending,
    SetupError, Unit, direction, footprint,
};
use super::table::{Kind, PhaseKind, RvTable};
use crate::battlefield::geometry::{EPSILON, Vector, normalise_degrees};
use crate::battlefield::{Arc as ArcOf, Base, Point};
use crate::dice::{Die, Roller};
use std::sync::Arc;

/// Path samples are taken this far apart, inches (the grid's cell).
const STEP: f64 = 0.5;

impl GameState {
    /// Start a game: every unit placed on the table, on ground it may
    /// enter, overlapping nobody; the sides the rules name found among the
    /// setup's. No die is rolled at the start of a seed-001 game; the
    /// roller is taken so every engine starts the same way.
    pub fn new(
        setup: GameSetup,
        table: Arc<RvTable>,
        roller: &mut dyn Roller,
    ) -> Result<(GameState, Vec<Event>), SetupError> {
        let _ = roller;
        if setup.battlefield.ruleset.name != table.ruleset {
            return Err(SetupError::WrongRuleset {
                table: setup.battlefield.ruleset.name.clone(),
                rules: table.ruleset.clone(),
            });
        }
        let side_index = |name: &str| {
            setup
                .sides
                .iter()
                .position(|s| s == name)
                .ok_or_else(|| SetupError::UnknownSide(name.to_string()))
        };
        let attacker = side_index(&table.attacker)?;
        let defender = side_index(&table.defender)?;
        let charge_sides = table
            .charge_order
            .iter()
            .map(|name| side_index(name))
            .collect::<Result<Vec<_>, _>>()?;
        let phase_sides = table
            .sequence
            .iter()
            .map(|phase| phase.side.as_deref().map(side_index).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        if setup.units.len() > MAX_UNITS || setup.commanders.len() > MAX_UNITS {
            return Err(SetupError::TooBig(format!(
                "a game may have at most {MAX_UNITS} units and {MAX_UNITS} commanders"
            )));
        }
        if setup.turns == 0 || setup.turns > 1000 {
            return Err(SetupError::TooBig(
                "a game lasts between 1 and 1000 turns".to_string(),
            ));
        }
        let battlefield = setup.battlefield.clone();
        let mut units: Vec<Unit> = Vec::new();
        for unit in &setup.units {
            let bad = |problem: String| SetupError::BadUnit {
                name: unit.name.clone(),
                problem,
            };
            let rules = table
                .troop(unit.troop)
                .ok_or_else(|| bad("is not a troop type that fights under these rules".into()))?;
            if unit.side >= setup.sides.len() {
                return Err(bad("belongs to no side".into()));
            }
            if !(1..=MAX_BASES).contains(&unit.bases) {
                return Err(bad(format!("must have 1 to {MAX_BASES} bases")));
            }
            if !(unit.centre.x.is_finite() && unit.centre.y.is_finite() && unit.facing.is_finite())
            {
                return Err(bad("stands at no number".into()));
            }
            let formation = match (rules.kind, unit.formation) {
                (Kind::Infantry, Formation::OpenOrder) if !rules.open_order => {
                    return Err(bad("may not deploy in open order".into()));
                }
                (Kind::Infantry, formation) => formation,
                _ => Formation::Line,
            };
            let placed = Unit {
                name: unit.name.clone(),
                side: unit.side,
                troop: unit.troop,
                kind: rules.kind,
                bases: unit.bases,
                start_bases: unit.bases,
                centre: unit.centre,
                facing: normalise_degrees(unit.facing),
                formation,
                mounted: rules.kind != Kind::Dragoons || unit.mounted,
                brigade: unit.brigade.clone(),
                removed: None,
                reforming: None,
                moved: false,
                pivoted_only: false,
                changed: false,
                changed_after_move: false,
                about_faced: false,
                fired: false,
                charged: false,
                engaged: false,
                cannon_hits: 0,
            };
            let base = footprint(
                &table,
                &battlefield,
                &placed,
                placed.centre,
                placed.facing,
                placed.formation,
            );
            if !battlefield.base_on_table(&base) {
                return Err(bad("does not stand wholly on the table".into()));
            }
            if battlefield
                .cells_under(&base)
                .iter()
                .any(|&cell| !battlefield.passable(unit.troop, cell))
            {
                return Err(bad("stands on ground it cannot enter".into()));
            }
            for other in &units {
                let theirs = footprint(
                    &table,
                    &battlefield,
                    other,
                    other.centre,
                    other.facing,
                    other.formation,
                );
                if base.overlaps_near(&theirs) {
                    return Err(bad(format!("overlaps `{}`", other.name)));
                }
            }
            units.push(placed);
        }
        let mut commanders = Vec::new();
        for commander in &setup.commanders {
            if commander.side >= setup.sides.len()
                || !battlefield.on_table(commander.at)
                || !(commander.at.x.is_finite() && commander.at.y.is_finite())
            {
                return Err(SetupError::BadUnit {
                    name: commander.name.clone(),
                    problem: "must be a commander of a side standing on the table".into(),
                });
            }
            commanders.push(Commander {
                name: commander.name.clone(),
                side: commander.side,
                at: commander.at,
                overall: commander.overall,
                attached: None,
                lost: false,
                acted: false,
            });
        }
        let mut state = GameState {
            table,
            battlefield,
            sides: setup.sides,
            units,
            commanders,
            turn: 1,
            turns: setup.turns,
            phase_index: 0,
            charge_step: 0,
            pending: None,
            melees: Vec::new(),
            outcome: None,
            charge_sides,
            phase_sides,
            attacker,
            defender,
        };
        let mut events = Vec::new();
        state.begin_phase(None, &mut events);
        Ok((state, events))
    }

    // ------------------------------------------------------------------
    // Checking
    // ------------------------------------------------------------------

    /// Whether `action` is legal now, and if not, the rule it breaks.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        if self.outcome.is_some() {
            return Err(Refusal::GameOver);
        }
        if self.pending.is_some() && !matches!(action, Action::Respond { .. }) {
            return Err(Refusal::ResponsePending);
        }
        let phase = self.phase();
        let acting = self.to_act().ok_or(Refusal::GameOver)?;
        let in_phase = |kind: PhaseKind| {
            if phase.kind == kind {
                Ok(())
            } else {
                Err(Refusal::WrongPhase { phase: phase.kind })
            }
        };
        match *action {
            Action::ChangeFormation { unit, formation } => {
                in_phase(PhaseKind::Move)?;
                let u = self.ready_unit(unit, acting)?;
                self.check_change(unit)?;
                let why = |why: &str| {
                    Err(Refusal::NoSuchFormation {
                        name: u.name.clone(),
                        why: why.to_string(),
                    })
                };
                match u.kind {
                    Kind::Cannon => return why("cannons do not have formations"),
                    Kind::Dragoons => return why("dragoons are always in line"),
                    Kind::Infantry => {}
                }
                if formation == u.formation {
                    return why("it is already in that formation");
                }
                if formation == Formation::OpenOrder && !u.rules(&self.table).open_order {
                    return why(
                        "only the light infantry, the Jaegers and the Virginia Rifles may open order",
                    );
                }
                let base = footprint(
                    &self.table,
                    &self.battlefield,
                    u,
                    u.centre,
                    u.facing,
                    formation,
                );
                self.check_room(unit, &base, &[])?;
                self.check_keep_away(unit, &base, &self.footprint(unit))
            }
            Action::Mount { unit, mounted } => {
                in_phase(PhaseKind::Move)?;
                let u = self.ready_unit(unit, acting)?;
                if u.kind != Kind::Dragoons || u.mounted == mounted {
                    return Err(Refusal::NotDragoons {
                        name: u.name.clone(),
                    });
                }
                self.check_change(unit)
            }
            Action::AboutFace { unit } => {
                in_phase(PhaseKind::Move)?;
                let u = self.ready_unit(unit, acting)?;
                if u.about_faced {
                    return Err(Refusal::AlreadyAboutFaced {
                        name: u.name.clone(),
                    });
                }
                Ok(())
            }
            Action::Pivot { unit, facing } => {
                in_phase(PhaseKind::Move)?;
                if !facing.is_finite() {
                    return Err(Refusal::NotANumber);
                }
                let u = self.ready_unit(unit, acting)?;
                self.check_may_move(u)?;
                let base = footprint(
                    &self.table,
                    &self.battlefield,
                    u,
                    u.centre,
                    facing,
                    u.formation,
                );
                self.check_room(unit, &base, &[])?;
                self.check_keep_away(unit, &base, &self.footprint(unit))
            }
            Action::Move { unit, to } => {
                in_phase(PhaseKind::Move)?;
                if !(to.x.is_finite() && to.y.is_finite()) {
                    return Err(Refusal::NotANumber);
                }
                let u = self.ready_unit(unit, acting)?;
                self.check_may_move(u)?;
                self.check_path(unit, to).map(|_| ())
            }
            Action::MoveCommander { commander, to } => {
                in_phase(PhaseKind::Move)?;
                let c = self.ready_commander(commander, acting)?;
                if c.attached.is_some() {
                    return Err(commander_refusal(c, "he is with a unit: leave it instead"));
                }
                self.check_commander_reach(c, c.at, to)
            }
            Action::Join { commander, unit } => {
                in_phase(PhaseKind::Move)?;
                let c = self.ready_commander(commander, acting)?;
                if c.attached.is_some() {
                    return Err(commander_refusal(c, "he is already with a unit"));
                }
                let u = self.own_unit(unit, acting)?;
                if !c.overall && u.brigade.as_deref() != Some(c.name.as_str()) {
                    return Err(commander_refusal(c, "he may join only his own units"));
                }
                if self.commander_of(unit).is_some() {
                    return Err(commander_refusal(c, "that unit already has a commander"));
                }
                let distance = self.footprint(unit).distance_to_point(c.at);
                if distance > self.table.commander_move + EPSILON {
                    return Err(commander_refusal(c, "the unit is beyond his move"));
                }
                Ok(())
            }
            Action::Leave { commander, to } => {
                in_phase(PhaseKind::Move)?;
                let c = self.ready_commander(commander, acting)?;
                if c.attached.is_none() {
                    return Err(commander_refusal(c, "he is not with a unit"));
                }
                self.check_commander_reach(c, c.at, to)
            }
            Action::Fire { unit, target } => {
                in_phase(PhaseKind::Shoot)?;
                let u = self.ready_unit(unit, acting)?;
                if u.fired {
                    return Err(cannot_fire(u, "it has fired this turn"));
                }
                self.check_can_shoot(u)?;
                let t = self.enemy(target, acting)?;
                self.fire_band(unit, target)
                    .map_err(|why| Refusal::BadTarget {
                        name: t.name.clone(),
                        why,
                    })?;
                Ok(())
            }
            Action::Charge { unit, target } => {
                in_phase(PhaseKind::Charge)?;
                let u = self.ready_unit(unit, acting)?;
                self.check_can_charge(u)?;
                let t = self.enemy(target, acting)?;
                let bad = |why: String| {
                    Err(Refusal::BadTarget {
                        name: t.name.clone(),
                        why,
                    })
                };
                if t.engaged {
                    return bad("it is already in a charge this turn".into());
                }
                let (ours, theirs) = (self.footprint(unit), self.footprint(target));
                let reach = self.charge_reach(u);
                if !ours.within(&theirs, reach) {
                    return bad(format!(
                        "it is beyond charge range ({}\")",
                        crate::battlefield::geometry::trim(reach)
                    ));
                }
                if !ours.in_frontal_arc(&theirs) {
                    return bad("a charge goes to the front".into());
                }
                if !self.battlefield.can_see(&ours, &theirs) {
                    return bad("the charger cannot see it".into());
                }
                Ok(())
            }
            Action::Respond { response } => {
                let pending = self.pending.ok_or(Refusal::NoChargeToAnswer)?;
                let fire = self.can_fire_at_chargers(pending);
                let counter = self.can_counter_charge(pending);
                match response {
                    Response::Fire => fire,
                    Response::CounterCharge => counter,
                    Response::Stand if fire.is_ok() || counter.is_ok() => {
                        Err(Refusal::CannotRespond {
                            why: "a unit that passes must fire or counter-charge".into(),
                        })
                    }
                    Response::Stand => Ok(()),
                }
            }
            Action::EndPhase => Ok(()),
        }
    }

    fn own_unit(&self, unit: usize, side: usize) -> Result<&Unit, Refusal> {
        let u = self
            .units
            .get(unit)
            .filter(|u| u.side == side)
            .ok_or(Refusal::NotYours { index: unit })?;
        if !u.in_play() {
            return Err(Refusal::OutOfPlay {
                name: u.name.clone(),
            });
        }
        Ok(u)
    }

    fn ready_unit(&self, unit: usize, side: usize) -> Result<&Unit, Refusal> {
        let u = self.own_unit(unit, side)?;
        if self.is_reforming(unit) {
            return Err(Refusal::Reforming {
                name: u.name.clone(),
            });
        }
        Ok(u)
    }

    fn enemy(&self, target: usize, side: usize) -> Result<&Unit, Refusal> {
        let t = self
            .units
            .get(target)
            .ok_or(Refusal::NotYours { index: target })?;
        if t.side == side {
            return Err(Refusal::BadTarget {
                name: t.name.clone(),
                why: "it is a friend".into(),
            });
        }
        if !t.in_play() {
            return Err(Refusal::OutOfPlay {
                name: t.name.clone(),
            });
        }
        Ok(t)
    }

    fn ready_commander(&self, commander: usize, side: usize) -> Result<&Commander, Refusal> {
        let c = self
            .commanders
            .get(commander)
            .filter(|c| c.side == side)
            .ok_or(Refusal::NotYours { index: commander })?;
        if c.lost {
            return Err(Refusal::OutOfPlay {
                name: c.name.clone(),
            });
        }
        if c.acted {
            return Err(commander_refusal(
                c,
                "he has already moved, joined or left this turn",
            ));
        }
        Ok(c)
    }

    fn check_commander_reach(&self, c: &Commander, from: Point, to: Point) -> Result<(), Refusal> {
        if !(to.x.is_finite() && to.y.is_finite()) {
            return Err(Refusal::NotANumber);
        }
        if !self.battlefield.on_table(to) {
            return Err(commander_refusal(c, "that is off the table"));
        }
        if from.distance(to) > self.table.commander_move + EPSILON {
            return Err(commander_refusal(c, "a commander moves 12\" at most"));
        }
        Ok(())
    }

    /// One formation change (or mount/dismount) a turn, at the start or
    /// the end of the move.
    fn check_change(&self, unit: usize) -> Result<(), Refusal> {
        let u = &self.units[unit];
        if u.changed {
            return Err(Refusal::AlreadyChanged {
                name: u.name.clone(),
            });
        }
        Ok(())
    }

    fn check_may_move(&self, u: &Unit) -> Result<(), Refusal> {
        if u.changed_after_move {
            return Err(Refusal::MoveOver {
                name: u.name.clone(),
            });
        }
        if u.moved {
            return Err(Refusal::AlreadyMoved {
                name: u.name.clone(),
            });
        }
        Ok(())
    }

    /// The unit's allowance in inches, forwards.
    pub fn allowance(&self, unit: usize) -> f64 {
        let u = &self.units[unit];
        let t = &self.table;
        match (u.kind, u.formation) {
            (Kind::Cannon, _) => t.move_cannon,
            (Kind::Dragoons, _) if u.mounted => t.move_mounted,
            (Kind::Dragoons, _) => t.move_dismounted,
            (Kind::Infantry, Formation::Line) => t.move_line,
            (Kind::Infantry, Formation::Column) => t.move_column,
            (Kind::Infantry, Formation::OpenOrder) => t.move_open_order,
        }
    }

    fn charge_reach(&self, u: &Unit) -> f64 {
        match u.kind {
            Kind::Dragoons if u.mounted => self.table.charge_mounted,
            Kind::Dragoons => self.table.charge_dismounted,
            _ => self.table.charge_infantry,
        }
    }

    /// `base` (the unit's footprint somewhere) is on the table, on ground it
    /// may enter, and overlaps no other unit in play but those in `ignore`.
    fn check_room(&self, unit: usize, base: &Base, ignore: &[usize]) -> Result<(), Refusal> {
        let u = &self.units[unit];
        let no_room = |what: String| {
            Err(Refusal::NoRoom {
                name: u.name.clone(),
                what,
            })
        };
        if !self.battlefield.base_on_table(base) {
            return no_room("that is off the table".into());
        }
        let mut passable = true;
        self.battlefield.for_each_cell_under(base, |cell| {
            passable = passable && self.battlefield.passable(u.troop, cell);
        });
        if !passable {
            return no_room("the ground is impassable to it".into());
        }
        for (index, other) in self.units.iter().enumerate() {
            if index == unit || !other.in_play() || ignore.contains(&index) {
                continue;
            }
            if base.overlaps_near(&self.footprint(index)) {
                return no_room(format!("{} stands there", other.name));
            }
        }
        Ok(())
    }

    /// No part of `base` comes within `keep_away` of an enemy, unless the
    /// unit was already nearer at `start` (it may then get no nearer).
    fn check_keep_away(&self, unit: usize, base: &Base, start: &Base) -> Result<(), Refusal> {
        let u = &self.units[unit];
        for (index, enemy) in self.units.iter().enumerate() {
            if enemy.side == u.side || !enemy.in_play() {
                continue;
            }
            let theirs = self.footprint(index);
            if base.surely_farther_than(&theirs, self.table.keep_away) {
                continue;
            }
            let limit = self.table.keep_away.min(start.distance_to(&theirs));
            if base.distance_to(&theirs) < limit - 1e-9 {
                return Err(Refusal::TooNearEnemy {
                    name: u.name.clone(),
                    enemy: enemy.name.clone(),
                });
            }
        }
        Ok(())
    }

    /// Check a straight move of `unit`'s centre to `to`; the inches it
    /// costs and whether it is backwards.
    fn check_path(&self, unit: usize, to: Point) -> Result<(f64, bool), Refusal> {
        let u = &self.units[unit];
        let start = self.footprint(unit);
        let offset = to - u.centre;
        let length = offset.length();
        let backwards = offset.dot(start.forward()) < -1e-9;
        let allowed = self.allowance(unit) * if backwards { self.table.backwards } else { 1.0 };
        let category = self.battlefield.category(u.troop);
        let least = length * self.battlefield.cheapest_multiplier(category);
        if least > allowed + EPSILON {
            return Err(Refusal::TooFar {
                name: u.name.clone(),
                wanted: least,
                allowed,
            });
        }
        let n_steps = ((length / STEP).ceil() as usize).max(1);
        let mut cost = 0.0;
        for step in 1..=n_steps {
            let fraction = step as f64 / n_steps as f64;
            let here = u.centre.lerp(to, fraction);
            let middle = u.centre.lerp(to, (step as f64 - 0.5) / n_steps as f64);
            let multiplier = self
                .battlefield
                .grid
                .cell_at(middle)
                .and_then(|cell| self.battlefield.cost_multiplier(u.troop, cell));
            let Some(multiplier) = multiplier else {
                return Err(Refusal::NoRoom {
                    name: u.name.clone(),
                    what: "the way is impassable to it".into(),
                });
            };
            cost += length / n_steps as f64 * multiplier;
            let base = start.moved_to(here);
            if step == n_steps {
                self.check_room(unit, &base, &[])?;
            } else if !self.battlefield.base_on_table(&base) {
                return Err(Refusal::NoRoom {
                    name: u.name.clone(),
                    what: "the way leaves the table".into(),
                });
            } else {
                let mut passable = true;
                self.battlefield.for_each_cell_under(&base, |cell| {
                    passable = passable && self.battlefield.passable(u.troop, cell);
                });
                if !passable {
                    return Err(Refusal::NoRoom {
                        name: u.name.clone(),
                        what: "the way is impassable to it".into(),
                    });
                }
            }
            self.check_keep_away(unit, &base, &start)?;
        }
        if cost > allowed + EPSILON {
            return Err(Refusal::TooFar {
                name: u.name.clone(),
                wanted: cost,
                allowed,
            });
        }
        Ok((cost, backwards))
    }

    /// Units in line and guns that did not move may fire; dragoons only
    /// dismounted.
    fn check_can_shoot(&self, u: &Unit) -> Result<(), Refusal> {
        match u.kind {
            Kind::Infantry if u.formation == Formation::Column => {
                Err(cannot_fire(u, "only units in line may fire"))
            }
            Kind::Dragoons if u.mounted => Err(cannot_fire(u, "dragoons fire only dismounted")),
            Kind::Cannon if u.moved && !u.pivoted_only => Err(cannot_fire(
                u,
                "a cannon may not fire in a turn it moved (it may pivot and fire)",
            )),
            _ if u.fighting_bases() == 0 => Err(cannot_fire(u, "it has no base to shoot")),
            _ => Ok(()),
        }
    }

    fn check_can_charge(&self, u: &Unit) -> Result<(), Refusal> {
        let cannot = |why: &str| {
            Err(Refusal::CannotCharge {
                name: u.name.clone(),
                why: why.to_string(),
            })
        };
        if u.kind == Kind::Cannon {
            return cannot("cannons do not charge");
        }
        if u.formation == Formation::Column {
            return cannot("only a unit in line may charge");
        }
        if u.charged || u.engaged {
            return cannot("it has charged or been charged this turn");
        }
        Ok(())
    }

    /// The range band (index into the table's bands, never the first,
    /// which is only for chargers) and the roll needed for `unit` to fire
    /// at `target`; otherwise why not.
    fn fire_band(&self, unit: usize, target: usize) -> Result<(usize, u8), String> {
        let u = &self.units[unit];
        let ours = self.footprint(unit);
        let theirs = self.footprint(target);
        if !ours.in_frontal_arc(&theirs) {
            return Err("units fire only to the front".into());
        }
        let aim = nearest_point(&theirs, u.centre);
        let range = u.centre.distance(aim);
        let band = (1..self.table.bands.len())
            .find(|&band| range <= self.table.bands[band] + EPSILON)
            .ok_or_else(|| "it is out of range".to_string())?;
        let needed = self
            .table
            .needed(u.rules(&self.table).fire, band)
            .ok_or_else(|| "it is beyond the reach of these weapons".to_string())?;
        if !self.battlefield.line_of_sight(u.centre, aim) {
            return Err("the shooters cannot see it".into());
        }
        for (index, friend) in self.units.iter().enumerate() {
            if index == unit || friend.side != u.side || !friend.in_play() {
                continue;
            }
            let theirs = self.footprint(index);
            if passes_near(u.centre, aim, &theirs, self.table.narrow_gap) {
                return Err(format!(
                    "{} is in the way (no shooting over friends or through narrow gaps)",
                    friend.name
                ));
            }
        }
        Ok((band, needed))
    }

    pub(super) fn can_fire_at_chargers(&self, pending: Pending) -> Result<(), Refusal> {
        let t = &self.units[pending.target];
        let why = |why: &str| {
            Err(Refusal::CannotRespond {
                why: why.to_string(),
            })
        };
        if self.is_reforming(pending.target) {
            return why("the charged unit is reforming");
        }
        self.check_can_shoot(t)?;
        if self.table.needed(t.rules(&self.table).fire, 0).is_none() {
            return why("its weapons cannot hit at 1\"");
        }
        if !self
            .footprint(pending.target)
            .in_frontal_arc(&self.footprint(pending.charger))
        {
            return why("the chargers are not to its front");
        }
        Ok(())
    }

    pub(super) fn can_counter_charge(&self, pending: Pending) -> Result<(), Refusal> {
        let t = &self.units[pending.target];
        let why = |why: &str| {
            Err(Refusal::CannotRespond {
                why: why.to_string(),
            })
        };
        if self.is_reforming(pending.target) {
            return why("the charged unit is reforming");
        }
        if t.kind == Kind::Cannon {
            return why("cannons do not charge");
        }
        if t.formation == Formation::Column {
            return why("only a unit in line may charge");
        }
        if !self
            .footprint(pending.target)
            .in_frontal_arc(&self.footprint(pending.charger))
        {
            return why("the chargers are not to its front");
        }
        Ok(())
    }

    // ------------------------------------------------------------------
    // Applying
    // ------------------------------------------------------------------

    /// Check `action` and, if it is legal, carry it out with dice from
    /// `roller`. A refusal changes nothing and rolls nothing.
    pub fn apply(
        &mut self,
        action: &Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, Refusal> {
        self.check(action)?;
        let mut events = Vec::new();
        match *action {
            Action::ChangeFormation { unit, formation } => {
                let u = &mut self.units[unit];
                u.formation = formation;
                u.changed = true;
                u.changed_after_move = u.moved;
                events.push(Event::FormationChanged {
                    unit: self.who(unit),
                    formation,
                });
            }
            Action::Mount { unit, mounted } => {
                let u = &mut self.units[unit];
                u.mounted = mounted;
                u.changed = true;
                u.changed_after_move = u.moved;
                events.push(Event::Mounted {
                    unit: self.who(unit),
                    mounted,
                });
            }
            Action::AboutFace { unit } => {
                let u = &mut self.units[unit];
                u.facing = normalise_degrees(u.facing + 180.0);
                u.about_faced = true;
                events.push(Event::AboutFaced {
                    unit: self.who(unit),
                });
            }
            Action::Pivot { unit, facing } => {
                let u = &mut self.units[unit];
                u.facing = normalise_degrees(facing);
                u.moved = true;
                u.pivoted_only = true;
                let facing = u.facing;
                events.push(Event::Pivoted {
                    unit: self.who(unit),
                    facing,
                });
            }
            Action::Move { unit, to } => {
                let (_, backwards) = self
                    .check_path(unit, to)
                    .expect("checked before anything changed");
                let u = &mut self.units[unit];
                let from = u.centre;
                u.centre = to;
                u.moved = true;
                u.pivoted_only = false;
                events.push(Event::Moved {
                    unit: self.who(unit),
                    from,
                    to,
                    backwards,
                });
            }
            Action::MoveCommander { commander, to } => {
                let c = &mut self.commanders[commander];
                c.at = to;
                c.acted = true;
                events.push(Event::CommanderMoved {
                    commander: self.commander_who(commander),
                    to,
                });
            }
            Action::Join { commander, unit } => {
                let centre = self.units[unit].centre;
                let c = &mut self.commanders[commander];
                c.attached = Some(unit);
                c.at = centre;
                c.acted = true;
                events.push(Event::Joined {
                    commander: self.commander_who(commander),
                    unit: self.who(unit),
                });
            }
            Action::Leave { commander, to } => {
                let c = &mut self.commanders[commander];
                let unit = c.attached.take().expect("checked: attached");
                c.at = to;
                c.acted = true;
                events.push(Event::Left {
                    commander: self.commander_who(commander),
                    unit: self.who(unit),
                    at: to,
                });
            }
            Action::Fire { unit, target } => {
                let (band, needed) = self
                    .fire_band(unit, target)
                    .expect("checked before anything changed");
                self.units[unit].fired = true;
                self.volley(unit, target, band, needed, roller, &mut events);
            }
            Action::Charge { unit, target } => self.charge(unit, target, roller, &mut events),
            Action::Respond { response } => self.respond(response, roller, &mut events),
            Action::EndPhase => self.advance(roller, &mut events),
        }
        self.sync_commanders();
        self.check_victory(&mut events);
        Ok(events)
    }

    pub(super) fn who(&self, unit: usize) -> Who {
        Who {
            index: unit,
            name: self.units[unit].name.clone(),
        }
    }

    fn side_who(&self, side: usize) -> Who {
        Who {
            index: side,
            name: self.sides[side].clone(),
        }
    }

    fn commander_who(&self, commander: usize) -> Who {
        Who {
            index: commander,
            name: self.commanders[commander].name.clone(),
        }
    }

    /// Attached commanders stand at their unit's centre.
    fn sync_commanders(&mut self) {
        for c in &mut self.commanders {
            if let Some(unit) = c.attached {
                c.at = self.units[unit].centre;
            }
        }
    }

    /// Roll `unit`'s dice at `target` in band `band`, needing `needed`, and
    /// remove what they hit.
    fn volley(
        &mut self,
        unit: usize,
        target: usize,
        band: usize,
        needed: u8,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let u = &self.units[unit];
        let n_dice = match u.kind {
            Kind::Cannon => u.bases * self.table.dice_per_cannon,
            _ => u.fighting_bases() * self.table.dice_per_base,
        };
        let rolls: Vec<u8> = (0..n_dice)
            .map(|_| roller.roll_for(Die::D6, format_args!("{} firing", u.name)))
            .collect();
        let hits = rolls.iter().filter(|&&roll| roll >= needed).count() as u32;
        events.push(Event::Fired {
            unit: self.who(unit),
            target: self.who(target),
            band: self.table.bands[band],
            needed,
            rolls,
            hits,
        });
        if hits == 0 {
            return;
        }
        let t = &mut self.units[target];
        let lost = if t.kind == Kind::Cannon {
            t.cannon_hits += hits;
            let per_base = self.table.cannon_hits_per_base.max(1);
            let lost = t.cannon_hits / per_base;
            t.cannon_hits %= per_base;
            events.push(Event::CannonHits {
                unit: self.who(target),
                this_turn: self.units[target].cannon_hits,
            });
            lost
        } else {
            hits
        };
        self.lose_bases(target, lost, true, roller, events);
    }

    /// Remove up to `n` bases; a unit left with one base loses it too
    /// (not a cannon); a unit with none is destroyed. `by_fire`: an
    /// attached commander risks his life if the unit is wiped out.
    fn lose_bases(
        &mut self,
        unit: usize,
        n: u32,
        by_fire: bool,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let u = &mut self.units[unit];
        if n == 0 || !u.in_play() {
            return;
        }
        let mut lost = n.min(u.bases);
        u.bases -= lost;
        if u.bases == 1 && u.kind != Kind::Cannon {
            u.bases = 0;
            lost += 1;
        }
        let left = u.bases;
        events.push(Event::BasesLost {
            unit: self.who(unit),
            lost,
            left,
        });
        if left == 0 {
            if by_fire && let Some(commander) = self.commander_of(unit) {
                self.commander_risk(commander, roller, events);
            }
            self.remove(unit, Removal::Destroyed, events);
        }
    }

    /// Take a unit out of play; a commander with it is left standing.
    fn remove(&mut self, unit: usize, why: Removal, events: &mut Vec<Event>) {
        self.units[unit].removed = Some(why);
        events.push(Event::Removed {
            unit: self.who(unit),
            why,
        });
        if let Some(commander) = self.commander_of(unit) {
            let at = self.units[unit].centre;
            let c = &mut self.commanders[commander];
            c.attached = None;
            c.at = at;
            events.push(Event::Left {
                commander: self.commander_who(commander),
                unit: self.who(unit),
                at,
            });
        }
    }

    /// Roll for a commander exposed to danger: lost on the table's number.
    fn commander_risk(
        &mut self,
        commander: usize,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        let roll = roller.roll_for(
            Die::D6,
            format_args!("{}'s risk", self.commanders[commander].name),
        );
        let lost = roll >= self.table.commander_lost_on;
        events.push(Event::CommanderRisk {
            commander: self.commander_who(commander),
            roll,
            lost,
        });
        if lost {
            let c = &mut self.commanders[commander];
            c.lost = true;
            c.attached = None;
        }
    }

    /// A morale test: d6 plus the troop's modifier, at most the bases (an
    /// attached commander counting as bases) passes; cannon pass on the
    /// table's number. Militia that fail run away.
    fn morale(
        &mut self,
        unit: usize,
        test: MoraleFor,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) -> bool {
        let u = &self.units[unit];
        let roll = roller.roll_for(Die::D6, format_args!("{}'s morale", u.name));
        let (modifier, limit) = if u.kind == Kind::Cannon {
            (0, i32::from(self.table.cannon_pass))
        } else {
            let commander = if self.commander_of(unit).is_some() {
                self.table.commander_bases
            } else {
                0
            };
            (
                u.rules(&self.table).morale,
                i32::try_from(u.bases + commander).unwrap_or(i32::MAX),
            )
        };
        let passed = i32::from(roll) + modifier <= limit;
        let militia = u.rules(&self.table).militia;
        events.push(Event::Morale {
            unit: self.who(unit),
            test,
            roll,
            modifier,
            limit,
            passed,
        });
        if !passed && militia {
            self.remove(unit, Removal::RanAway, events);
        }
        passed
    }

    fn charge(
        &mut self,
        unit: usize,
        target: usize,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
        events.push(Event::ChargeDeclared {
            unit: self.who(unit),
            target: self.who(target),
        });
        self.units[unit].charged = true;
        if !self.morale(unit, MoraleFor::Charging, roller, events) {
            if self.units[unit].in_play() {
                events.push(Event::ChargeFaltered {
                    unit: self.who(unit),
                });
            }
            return;
        }
        self.units[unit].engaged = true;
        self.units[target].engaged = true;
        let flank = !matches!(
            self.footprint(target).arc_of(self.units[unit].centre),
            ArcOf::Front
        );
        if self.morale(target, MoraleFor::Charged, roller, events) {
            self.pending = Some(Pending {
                charger: unit,
                target,
                flank,
            });
            events.push(Event::AwaitingResponse {
                unit: self.who(target),
                charger: self.who(unit),
            });
            return;
        }
        // The target failed: a cannon is eliminated, militia have already
        // run; anything else loses a base and falls back 12", and the
        // charger takes its place.
        let vacated = self.units[target].centre;
        if self.units[target].in_play() {
            if self.units[target].kind == Kind::Cannon {
                self.units[target].bases = 0;
                self.remove(target, Removal::Destroyed, events);
            } else {
                self.lose_bases(target, 1, false, roller, events);
                if self.units[target].in_play() {
                    let from = self.units[unit].centre;
                    self.retreat(target, from, self.table.charge_retreat, events);
                }
            }
        }
        let u = &self.units[unit];
        let there = footprint(
            &self.table,
            &self.battlefield,
            u,
            vacated,
            u.facing,
            u.formation,
        );
        if self.check_room(unit, &there, &[]).is_ok() {
            self.units[unit].centre = vacated;
            events.push(Event::TookPlace {
                unit: self.who(unit),
                to: vacated,
            });
        }
    }

    fn respond(&mut self, response: Response, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        let pending = self.pending.take().expect("checked: a charge awaits");
        let (charger, target) = (pending.charger, pending.target);
        events.push(Event::Responded {
            unit: self.who(target),
            response,
        });
        match response {
            Response::Fire => {
                let needed = self
                    .table
                    .needed(self.units[target].rules(&self.table).fire, 0)
                    .expect("checked: it can hit at 1\"");
                self.volley(target, charger, 0, needed, roller, events);
                if !self.units[charger].in_play() {
                    return;
                }
                let gap = self.footprint(charger).distance_to(&self.footprint(target));
                self.close_in(charger, target, gap);
            }
            Response::CounterCharge => {
                let gap = self.footprint(charger).distance_to(&self.footprint(target));
                self.close_in(charger, target, gap / 2.0);
                let gap = self.footprint(charger).distance_to(&self.footprint(target));
                self.close_in(target, charger, gap);
            }
            Response::Stand => {
                let gap = self.footprint(charger).distance_to(&self.footprint(target));
                self.close_in(charger, target, gap);
            }
        }
        events.push(Event::Contact {
            unit: self.who(charger),
            target: self.who(target),
        });
        self.melees.push(Melee {
            charger,
            defender: target,
            flank: pending.flank && response != Response::CounterCharge,
            counter: response == Response::CounterCharge,
        });
    }

    /// Move `mover` straight towards `towards`' centre by as much of `most`
    /// as it can without overlapping anyone or entering ground it cannot.
    fn close_in(&mut self, mover: usize, towards: usize, most: f64) {
        let start = self.footprint(mover);
        let heading = direction(start.centre, self.units[towards].centre, start.forward());
        let fits = |state: &GameState, distance: f64| {
            let base = start.moved_to(start.centre + heading * distance);
            state.check_room(mover, &base, &[]).is_ok()
        };
        if !(most > 0.0 && most.is_finite()) {
            return;
        }
        let mut best = if fits(self, most) { most } else { 0.0 };
        if best == 0.0 {
            let (mut low, mut high) = (0.0, most);
            for _ in 0..24 {
                let middle = (low + high) / 2.0;
                if fits(self, middle) {
                    low = middle;
                } else {
                    high = middle;
                }
            }
            best = low;
        }
        self.units[mover].centre = start.centre + heading * best;
    }

    /// Fall back `distance` directly away from `from`, keeping the facing;
    /// a retreat across the table edge leaves the field; one blocked stops
    /// at the farthest clear point (house rule RV13).
    fn retreat(&mut self, unit: usize, from: Point, distance: f64, events: &mut Vec<Event>) {
        let start = self.footprint(unit);
        let away = direction(from, start.centre, start.forward() * -1.0);
        let full = start.moved_to(start.centre + away * distance);
        if !self.battlefield.base_on_table(&full) {
            self.remove(unit, Removal::LeftTheField, events);
            return;
        }
        let n_steps = (distance / STEP).ceil().max(1.0) as usize;
        for step in (1..=n_steps).rev() {
            let centre = start.centre + away * (distance * step as f64 / n_steps as f64);
            if self.check_room(unit, &start.moved_to(centre), &[]).is_ok() {
                self.units[unit].centre = centre;
                events.push(Event::Retreated {
                    unit: self.who(unit),
                    from: start.centre,
                    to: centre,
                });
                return;
            }
        }
    }

    // ------------------------------------------------------------------
    // The phase machine
    // ------------------------------------------------------------------

    fn begin_phase(&mut self, roller: Option<&mut dyn Roller>, events: &mut Vec<Event>) {
        let phase = self.phase();
        events.push(Event::PhaseBegan {
            turn: self.turn,
            phase: phase.kind,
            side: phase.side.map(|side| self.side_who(side)),
        });
        if phase.kind == PhaseKind::Melee {
            if let Some(roller) = roller {
                self.fight_melees(roller, events);
                self.end_turn(Some(roller), events);
            } else {
                // Only reached if a turn sequence began with a melee phase,
                // which the table refuses: nothing has charged yet anyway.
                self.end_turn(None, events);
            }
        }
    }

    fn advance(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        let kind = self.table.sequence[self.phase_index].kind;
        if kind == PhaseKind::Charge && self.charge_step + 1 < self.charge_sides.len() {
            self.charge_step += 1;
            let phase = self.phase();
            events.push(Event::PhaseBegan {
                turn: self.turn,
                phase: phase.kind,
                side: phase.side.map(|side| self.side_who(side)),
            });
            return;
        }
        self.charge_step = 0;
        if self.phase_index + 1 < self.table.sequence.len() {
            self.phase_index += 1;
            self.begin_phase(Some(roller), events);
        } else {
            self.end_turn(Some(roller), events);
        }
    }

    fn end_turn(&mut self, roller: Option<&mut dyn Roller>, events: &mut Vec<Event>) {
        self.check_victory(events);
        if self.outcome.is_some() {
            return;
        }
        if self.turn >= self.turns {
            self.finish(EndReason::TimeUp, self.defender, events);
            return;
        }
        self.turn += 1;
        for u in &mut self.units {
            u.moved = false;
            u.pivoted_only = false;
            u.changed = false;
            u.changed_after_move = false;
            u.about_faced = false;
            u.fired = false;
            u.charged = false;
            u.engaged = false;
            u.cannon_hits = 0;
        }
        for c in &mut self.commanders {
            c.acted = false;
        }
        self.phase_index = 0;
        self.charge_step = 0;
        self.begin_phase(roller, events);
    }

    /// Fight every melee in the order the charges reached their targets.
    fn fight_melees(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        let melees = std::mem::take(&mut self.melees);
        for melee in melees {
            self.fight(melee, roller, events);
        }
    }

    fn fight(&mut self, melee: Melee, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        let (charger, defender) = (melee.charger, melee.defender);
        if !self.units[charger].in_play() || !self.units[defender].in_play() {
            return;
        }
        let exposed: Vec<usize> = [charger, defender]
            .iter()
            .filter_map(|&unit| self.commander_of(unit))
            .collect();
        // Each tie costs both a base, so this ends; the bound is a guard.
        for _ in 0..=(2 * MAX_BASES) {
            let ours = self.melee_side(charger, defender, true, melee, roller);
            let theirs = self.melee_side(defender, charger, false, melee, roller);
            let winner = match ours.total.cmp(&theirs.total) {
                std::cmp::Ordering::Greater => Some(charger),
                std::cmp::Ordering::Less => Some(defender),
                std::cmp::Ordering::Equal => None,
            };
            events.push(Event::MeleeRound {
                charger: ours,
                defender: theirs,
                winner,
            });
            match winner {
                None => {
                    self.lose_bases(charger, 1, false, roller, events);
                    self.lose_bases(defender, 1, false, roller, events);
                    if self.units[charger].in_play() && self.units[defender].in_play() {
                        continue;
                    }
                }
                Some(winner) => {
                    let loser = if winner == charger { defender } else { charger };
                    if self.units[loser].rules(&self.table).militia {
                        self.remove(loser, Removal::RanAway, events);
                    } else {
                        self.lose_bases(loser, 1, false, roller, events);
                        if self.units[loser].in_play() {
                            let from = self.units[winner].centre;
                            self.retreat(loser, from, self.table.melee_retreat, events);
                        }
                        if self.units[loser].in_play() {
                            let last = self.turn.saturating_add(self.table.reform_turns);
                            self.units[loser].reforming = Some(last);
                            events.push(Event::Reforming {
                                unit: self.who(loser),
                                turn: self.turn.saturating_add(1),
                            });
                        }
                    }
                }
            }
            break;
        }
        for commander in exposed {
            if !self.commanders[commander].lost {
                self.commander_risk(commander, roller, events);
            }
        }
    }

    fn melee_side(
        &self,
        unit: usize,
        opponent: usize,
        charging: bool,
        melee: Melee,
        roller: &mut dyn Roller,
    ) -> MeleeSide {
        let u = &self.units[unit];
        let them = &self.units[opponent];
        let rules = u.rules(&self.table);
        let t = &self.table;
        let mut modifiers = Vec::new();
        let mut add = |label: &str, value: i32| {
            if value != 0 {
                modifiers.push(Modifier {
                    label: label.to_string(),
                    value,
                });
            }
        };
        if u.fighting_bases() > them.fighting_bases() {
            add("more stands than the opponent", t.more_stands);
        }
        if charging && melee.flank {
            add("hitting the flank or rear", t.flank_or_rear);
        }
        if self.commander_of(unit).is_some() {
            add("commander with the unit", t.commander_melee);
        }
        add(&self.battlefield.ruleset.troop(u.troop).name, rules.melee);
        if u.kind == Kind::Dragoons && u.mounted {
            add("mounted dragoons", rules.melee_mounted);
        }
        if !charging
            && !melee.counter
            && self
                .battlefield
                .terrain_at(u.centre)
                .iter()
                .any(|kind| t.woods.contains(kind))
        {
            add("defending woods", t.defending_woods);
        }
        let roll = roller.roll_for(Die::D6, format_args!("{}'s melee", u.name));
        let total = modifiers
            .iter()
            .fold(i32::from(roll), |total, m| total.saturating_add(m.value));
        MeleeSide {
            unit: self.who(unit),
            roll,
            modifiers,
            total,
        }
    }

    /// Units in play of `side`, and at the start.
    pub fn units_left(&self, side: usize) -> (usize, usize) {
        let all = self.units.iter().filter(|u| u.side == side);
        let start = all.clone().count();
        (all.filter(|u| u.in_play()).count(), start)
    }

    /// Whether `side` is broken: fewer than the table's share of its units
    /// are left in play (house rule RV10).
    pub fn is_broken(&self, side: usize) -> bool {
        let (left, start) = self.units_left(side);
        (left as u64) * 100 < (start as u64) * u64::from(self.table.broken_below_percent)
    }

    fn check_victory(&mut self, events: &mut Vec<Event>) {
        if self.outcome.is_some() {
            return;
        }
        if self.is_broken(self.defender) {
            self.finish(EndReason::DefenderDriven, self.attacker, events);
        } else if self.is_broken(self.attacker) {
            self.finish(EndReason::AttackerBroken, self.defender, events);
        }
    }

    fn finish(&mut self, reason: EndReason, winner: usize, events: &mut Vec<Event>) {
        self.pending = None;
        let outcome = Outcome {
            winner,
            reason,
            margin: self.score(),
        };
        self.outcome = Some(outcome);
        events.push(Event::GameOver { outcome });
    }

    // ------------------------------------------------------------------
    // Legal actions
    // ------------------------------------------------------------------

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
        let own: Vec<usize> = (0..self.units.len())
            .filter(|&i| self.units[i].side == side && self.units[i].in_play())
            .collect();
        let enemies: Vec<usize> = (0..self.units.len())
            .filter(|&i| self.units[i].side != side && self.units[i].in_play())
            .collect();
        match self.phase().kind {
            PhaseKind::Move => {
                for &unit in &own {
                    if self.is_reforming(unit) {
                        continue;
                    }
                    for formation in Formation::ALL {
                        push(&mut actions, Action::ChangeFormation { unit, formation });
                    }
                    push(
                        &mut actions,
                        Action::Mount {
                            unit,
                            mounted: !self.units[unit].mounted,
                        },
                    );
                    push(&mut actions, Action::AboutFace { unit });
                    self.move_candidates(unit, &enemies, &mut actions);
                }
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
            PhaseKind::Shoot => {
                for &unit in &own {
                    for &target in &enemies {
                        push(&mut actions, Action::Fire { unit, target });
                    }
                }
            }
            PhaseKind::Charge => {
                for &unit in &own {
                    for &target in &enemies {
                        push(&mut actions, Action::Charge { unit, target });
                    }
                }
            }
            PhaseKind::Melee => {}
        }
        actions.push(Action::EndPhase);
        actions
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

fn commander_refusal(c: &Commander, why: &str) -> Refusal {
    Refusal::Commander {
        name: c.name.clone(),
        why: why.to_string(),
    }
}

fn cannot_fire(u: &Unit, why: &str) -> Refusal {
    Refusal::CannotFire {
        name: u.name.clone(),
        why: why.to_string(),
    }
}

/// The point of `base` nearest to `point`.
pub(super) fn nearest_point(base: &Base, point: Point) -> Point {
    let (u, v) = base.local(point);
    let u = u.clamp(-base.frontage / 2.0, base.frontage / 2.0);
    let v = v.clamp(-base.depth / 2.0, base.depth / 2.0);
    base.centre + base.right() * u + base.forward() * v
}

/// Whether the segment from `from` to `to` passes within `gap` of `base`
/// (sampled every quarter inch, and at both ends).
fn passes_near(from: Point, to: Point, base: &Base, gap: f64) -> bool {
    let length = from.distance(to);
    let n_steps = ((length / 0.25).ceil() as usize).clamp(1, 4000);
    (0..=n_steps).any(|step| {
        let here = from.lerp(to, step as f64 / n_steps as f64);
        base.distance_to_point(here) < gap
    })
}
