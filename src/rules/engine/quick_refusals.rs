//! Refusals `legal` can see without asking for the full check:
//! the cheap clauses of a charge's and a shot's checks, the same formulas
//! in the same terms, so that a pair one of them refuses is refused by
//! [`GameState::allows`] too, without building the refusal (its names)
//! for each of the many pairs a listing tries. A pair they pass still goes
//! through `allows`, which decides.

use super::CONTACT;
use crate::battlefield::geometry::turn_between;
use crate::rules::event::Weapon;
use crate::rules::id::UnitId;
use crate::rules::state::{GameState, Unit};
use crate::rules::table::TroopSet;

/// What [`GameState::charge_surely_refused`] asks of the charger, worked
/// out once for all its targets.
pub(super) struct ChargeScreen<'a> {
    unit: &'a Unit,
    /// The kinds it may charge (none when it may charge nobody).
    allowed: Option<&'a TroopSet>,
    /// Its move allowance.
    allowance: f64,
    /// The table's cheapest cost of an inch for its category.
    cheapest: f64,
}

impl GameState {
    /// The charger's side of [`GameState::charge_surely_refused`].
    pub(super) fn charge_screen<'a>(&'a self, unit: &'a Unit) -> ChargeScreen<'a> {
        let field = &self.battlefield;
        ChargeScreen {
            unit,
            allowed: self.rules.may_charge(unit.troop, unit.category),
            allowance: field.ruleset.move_inches[unit.category.index()],
            cheapest: field.cheapest_multiplier(unit.category),
        }
    }

    /// Whether the charger of `screen` (of the side to act, on the table,
    /// not moved) surely may not charge the enemy `target` now: it has
    /// pivoted, may not charge its kind, the target is charged already, the
    /// turn to face it is over the most, or its allowance could not bring
    /// it into contact even over the cheapest ground (the charge check's
    /// rough bound from the centres).
    pub(super) fn charge_surely_refused(
        &self,
        screen: &ChargeScreen<'_>,
        target_id: UnitId,
    ) -> bool {
        let unit = screen.unit;
        if unit.pivoted {
            return true;
        }
        let target = &self.units[target_id.0];
        if !screen
            .allowed
            .is_some_and(|set| set.contains(target.troop, target.category))
        {
            return true;
        }
        if self.charges.iter().any(|(_, t)| *t == target_id) {
            return true;
        }
        // The bound from the centres before the bearing: most enemies are
        // far out of reach, and a bearing costs an arc tangent (the tests
        // are all side-effect free, so their order changes no answer).
        let rough = unit.base.centre.distance(target.base.centre)
            - unit.base.reach()
            - target.base.reach()
            - CONTACT;
        if rough * screen.cheapest > screen.allowance + 0.01 {
            return true;
        }
        let facing = (target.base.centre - unit.base.centre).bearing();
        turn_between(unit.base.facing, facing) > self.rules.charge_max_pivot + 1e-6
    }

    /// How far `unit` (of the side to act, on the table) may shoot now
    /// (its weapon's most range), or none when it may not shoot at all: it
    /// moved, pivoted or fired, or has no weapon.
    pub(super) fn shot_reach(&self, unit: &Unit) -> Option<f64> {
        if unit.moved || unit.pivoted || unit.fired {
            return None;
        }
        match self.weapon_of(unit)? {
            Weapon::Musket => Some(self.rules.musket.range),
            Weapon::Artillery => Some(self.rules.artillery.max_range),
        }
    }

    /// Whether `unit`, able to shoot as far as `most` ([`GameState::shot_reach`]),
    /// surely may not shoot at the enemy `target`: it is outside the
    /// shooter's frontal arc or out of range.
    pub(super) fn shot_surely_refused(&self, unit: &Unit, most: f64, target_id: UnitId) -> bool {
        let target = &self.units[target_id.0];
        // Far out of range by the centres alone (then `distance_to` is over
        // the range too), before the arc and the exact distance.
        if unit.base.surely_farther_than(&target.base, most + 1e-6) {
            return true;
        }
        !unit.base.in_frontal_arc(&target.base) || unit.base.distance_to(&target.base) > most + 1e-6
    }
}
