//! Seed 001 *Fire*: units in line and guns that did not move fire, dragoons
//! only dismounted; range from the shooter's centre to the nearest part of
//! the target in the 1", 6" and 12" bands; the score needed to remove a
//! base. Rulings RV7, RV8.

use super::charges::nearest_point;
use super::movement::passes_near;
use crate::battlefield::geometry::EPSILON;
use crate::dice::{Die, Roller};
use crate::rv::event::{Event, Formation, Refusal};
use crate::rv::state::{GameState, Unit};
use crate::rv::table::Kind;

impl GameState {
    /// Units in line and guns that did not move may fire; dragoons only
    /// dismounted.
    pub(super) fn check_can_shoot(&self, u: &Unit) -> Result<(), Refusal> {
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

    /// The range band (index into the table's bands, never the first,
    /// which is only for chargers) and the roll needed for `unit` to fire
    /// at `target`; otherwise why not.
    pub(super) fn fire_band(&self, unit: usize, target: usize) -> Result<(usize, u8), String> {
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

    /// Roll `unit`'s dice at `target` in band `band`, needing `needed`, and
    /// remove what they hit.
    pub(super) fn volley(
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
        let rolls = roller.roll_many(Die::D6, n_dice as usize, format_args!("{} firing", u.name));
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
}

pub(super) fn cannot_fire(u: &Unit, why: &str) -> Refusal {
    Refusal::CannotFire {
        name: u.name.clone(),
        why: why.to_string(),
    }
}
