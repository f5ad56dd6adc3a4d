//! Seed 000 *Melee*, run by itself in the Melee phase: *Two Sided Combat*
//! (both sides roll), *Assess Casualties* (modifiers in the listed order,
//! doubling for flank and rear and against artillery, −1 charging cover or
//! uphill) and *Melee Retreat* (the unit with the most hits retreats a full
//! move directly away, ending facing away). Rulings "Melee", "Retreats".

use super::{STEP, applies, apply_modifiers};
use crate::battlefield::Base;
use crate::battlefield::geometry::EPSILON;
use crate::dice::Roller;
use crate::rules::event::{Cause, Event, MeleeRoll};
use crate::rules::id::UnitId;
use crate::rules::state::{GameState, Status, Unit};
use crate::rules::table::{Operation, Role, Situation};

impl GameState {
    pub(super) fn melee_phase(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
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
                    crate::rules::table::Ties::ChargerRetreats => Some((charger, defender)),
                    crate::rules::table::Ties::NobodyRetreats => None,
                }
            };
            if let Some((loser, winner)) = loser {
                self.retreat(loser, winner, events);
            }
            let unit = &mut self.units[charger.0];
            unit.charging = None;
        }
    }

    /// What a charge by `charger` on `target`, launched from where it
    /// stands now, would multiply its melee score by: the product of the
    /// rule set's `multiply` steps for the charger (seed 000: ×2 into a
    /// flank or rear, ×2 against artillery), saturating. The situations
    /// are judged as the charge and its melee judge them: the flank by
    /// where the charger starts, cover and slope from there too. 1 when
    /// nothing multiplies.
    pub fn charge_multiplier(&self, charger: UnitId, target: UnitId) -> i32 {
        let unit = &self.units[charger.0];
        let opponent = &self.units[target.0];
        let situations = self.charge_situations(unit, opponent);
        self.rules
            .melee_steps
            .iter()
            .filter(|step| applies(step, unit, opponent, Some(Role::Charger), &situations))
            .filter_map(|step| match step.operation {
                Operation::Multiply(n) => Some(n),
                Operation::Add(_) => None,
            })
            .fold(1i32, i32::saturating_mul)
    }

    /// The charger's situations in a charge on `opponent` launched from
    /// where it stands now: a flank or rear attack by where it starts,
    /// cover or higher ground by where it starts too.
    fn charge_situations(&self, unit: &Unit, opponent: &Unit) -> Vec<Situation> {
        let mut situations = Vec::new();
        if opponent.base.arc_of(unit.base.centre) != crate::battlefield::Arc::Front {
            situations.push(Situation::FlankOrRearAttack);
        }
        let uphill = self.battlefield.height_at(opponent.base.centre)
            > self.battlefield.height_at(unit.base.centre) + 1e-4;
        if uphill || self.in_cover(&opponent.base, unit.base.centre) {
            situations.push(Situation::DefenderInCoverOrUphill);
        }
        situations
    }

    /// The chance that a charge by `charger` on `target`, launched from
    /// where it stands now, wins its melee: over every pair of faces of
    /// the melee die, the share in which the charger neither reaches its
    /// rout threshold nor ends with as many hits in all as the target
    /// (seed 000 Melee Retreat; on a tie the rule set's `ties` decides).
    /// The situations are judged as [`GameState::charge_multiplier`]
    /// judges them. Pure: no dice are drawn.
    pub fn charge_odds(&self, charger: UnitId, target: UnitId) -> f64 {
        let unit = &self.units[charger.0];
        let opponent = &self.units[target.0];
        let situations = self.charge_situations(unit, opponent);
        let score = |who: &Unit, against: &Unit, role, situations: &[Situation], face: u8| {
            apply_modifiers(
                &self.rules.melee_steps,
                i32::from(face),
                who,
                against,
                Some(role),
                situations,
                &mut Vec::new(),
            )
            .max(0) as u32
        };
        let rout_at = self.rules.rout_threshold(unit.category).unwrap_or(u32::MAX);
        let outcomes = self.rules.melee_die.outcomes();
        let mut wins = 0.0;
        for &(charger_face, p) in &outcomes {
            let dealt = score(unit, opponent, Role::Charger, &situations, charger_face);
            for &(defender_face, q) in &outcomes {
                let taken = score(opponent, unit, Role::Defender, &[], defender_face);
                let charger_total = unit.hits.saturating_add(taken);
                let target_total = opponent.hits.saturating_add(dealt);
                let won = charger_total < rout_at
                    && (target_total > charger_total
                        || (target_total == charger_total
                            && self.rules.ties == crate::rules::table::Ties::NobodyRetreats));
                if won {
                    wins += p * q;
                }
            }
        }
        wins
    }

    fn melee_roll(
        &self,
        id: UnitId,
        opponent_id: UnitId,
        role: Role,
        roller: &mut dyn Roller,
    ) -> MeleeRoll {
        let unit = &self.units[id.0];
        let opponent = &self.units[opponent_id.0];
        let roll = roller.roll_for(
            self.rules.melee_die,
            format_args!("{}'s melee against {}", unit.name, opponent.name),
        );
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
}
