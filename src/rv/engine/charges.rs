//! Seed 001 *Charges*: declared in the shared charge phase by units in line
//! within charge reach (the British first), the target's morale check and
//! its answer (fire at 1" or counter-charge), closing in to contact.
//! Rulings RV5, RV12.

use crate::battlefield::{Arc as ArcOf, Base, Point};
use crate::dice::Roller;
use crate::rv::event::{Event, Formation, MoraleFor, Refusal, Removal, Response};
use crate::rv::state::{GameState, Melee, Pending, Unit, direction, footprint};
use crate::rv::table::Kind;

impl GameState {
    pub(super) fn charge_reach(&self, u: &Unit) -> f64 {
        match u.kind {
            Kind::Dragoons if u.mounted => self.table.charge_mounted,
            Kind::Dragoons => self.table.charge_dismounted,
            _ => self.table.charge_infantry,
        }
    }

    pub(super) fn check_can_charge(&self, u: &Unit) -> Result<(), Refusal> {
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

    pub(in crate::rv) fn can_fire_at_chargers(&self, pending: Pending) -> Result<(), Refusal> {
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

    pub(in crate::rv) fn can_counter_charge(&self, pending: Pending) -> Result<(), Refusal> {
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

    pub(super) fn charge(
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

    pub(super) fn respond(
        &mut self,
        response: Response,
        roller: &mut dyn Roller,
        events: &mut Vec<Event>,
    ) {
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
}

/// The point of `base` nearest to `point`.
pub(in crate::rv) fn nearest_point(base: &Base, point: Point) -> Point {
    let (u, v) = base.local(point);
    let u = u.clamp(-base.frontage / 2.0, base.frontage / 2.0);
    let v = v.clamp(-base.depth / 2.0, base.depth / 2.0);
    base.centre + base.right() * u + base.forward() * v
}
