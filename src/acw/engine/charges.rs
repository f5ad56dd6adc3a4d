//! Seed 002 *Charging*: artillery never charges, nor a unit in march
//! column; mounted cavalry charge anything, foot need an advantage (flank
//! or rear, or 5+ strength points); a line move ending in contact, turning
//! only at its start, no formation change, no interpenetration.

use super::ChargePlan;
use crate::acw::event::{Refusal, Rule};
use crate::acw::state::{GameState, UnitId};
use crate::acw::table::Formation;
use crate::battlefield::Base;
use crate::battlefield::geometry::{Arc as BaseArc, normalise_degrees};

impl GameState {
    pub(super) fn plan_charge(&self, id: UnitId, target_id: UnitId) -> Result<ChargePlan, Refusal> {
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
}

/// Where a charger ends: squarely against the face of the target in the
/// arc it charges from, centred on that face, facing it.
pub(super) fn contact_base(charger: &Base, target: &Base, arc: BaseArc) -> Base {
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
