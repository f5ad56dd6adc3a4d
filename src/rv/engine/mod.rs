//! The seed-001 referee ("A Ruinous Victory"): checking every action
//! completely before anything changes, applying it with the dice passed
//! in, and the phase machine.
//!
//! [`GameState::check`] is the one place an action's legality is decided;
//! [`GameState::apply`] calls it first and then only carries the action out,
//! so a refusal leaves the state untouched and rolls no die.
//!
//! Laid out by the seed's own procedures, so a clause is found by its
//! name: this file holds the *Turn Sequence* (British move and shoot,
//! American move and shoot, charges, melees: data in the rule set, rulings
//! RV3 and RV15), the dispatch of every action to its check and its
//! carrying out, and the names events use. `setup` starts a game;
//! `movement`, `shooting`, `charges`, `morale`, `melee`, `losses` and
//! `victory` are the procedures; `legal` lists the actions.

mod charges;
mod legal;
mod losses;
mod melee;
mod morale;
mod movement;
mod setup;
mod shooting;
mod victory;

use self::movement::commander_refusal;
use self::shooting::cannot_fire;
use super::event::{Action, Event, Formation, Refusal, Response, Who};
use super::state::{EndReason, GameState, Unit, footprint};
use super::table::{Kind, PhaseKind};
use crate::battlefield::geometry::{EPSILON, normalise_degrees};
use crate::dice::Roller;

/// Path samples are taken this far apart, inches (the grid's cell).
const STEP: f64 = 0.5;

impl GameState {
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
            Action::Fire { unit, target } | Action::HastyFire { unit, target } => {
                in_phase(PhaseKind::Shoot)?;
                let u = self.ready_unit(unit, acting)?;
                if u.fired {
                    return Err(cannot_fire(u, "it has fired this turn"));
                }
                self.check_can_shoot(u)?;
                let t = self.enemy(target, acting)?;
                let (_, needed) =
                    self.fire_band(unit, target)
                        .map_err(|why| Refusal::BadTarget {
                            name: t.name.clone(),
                            why,
                        })?;
                if matches!(action, Action::HastyFire { .. }) && needed >= 6 {
                    return Err(cannot_fire(
                        u,
                        &format!("at -1 it would need {}+ at this range", needed + 1),
                    ));
                }
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
            Action::Rout { unit } => {
                in_phase(PhaseKind::Move)?;
                self.own_unit(unit, acting).map(|_| ())
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
            Action::HastyFire { unit, target } => {
                let (band, needed) = self
                    .fire_band(unit, target)
                    .expect("checked before anything changed");
                self.units[unit].fired = true;
                self.volley(unit, target, band, needed + 1, roller, &mut events);
            }
            Action::Charge { unit, target } => self.charge(unit, target, roller, &mut events),
            Action::Respond { response } => self.respond(response, roller, &mut events),
            Action::Rout { unit } => self.remove(unit, super::event::Removal::Routed, &mut events),
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
}
