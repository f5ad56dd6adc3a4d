//! Seed 000 *Charges*: a move into contact with an enemy, one pivot of up
//! to 45° at its start, one charger per target, no road bonus, and the
//! *Unit Restrictions* on who may charge whom; the contact point found
//! along the charge (remembered per thread). Ruling "Charges". The melee a
//! charge brings is `melee`.

use super::{CONTACT, Path, Plan};
use crate::battlefield::geometry::turn_between;
use crate::battlefield::{Base, Point, Vector};
use crate::rules::event::Refusal;
use crate::rules::id::UnitId;
use crate::rules::state::{GameState, Unit};

impl GameState {
    pub(super) fn plan_charge(
        &self,
        id: UnitId,
        target_id: UnitId,
        quick: bool,
    ) -> Result<Plan, Refusal> {
        let unit = self.own_unit(id)?;
        self.not_moved(unit)?;
        if unit.pivoted {
            // The charge's own pivot is its start-of-move pivot.
            return Err(Refusal::AlreadyPivoted {
                name: unit.name.clone(),
            });
        }
        let target = self.enemy_unit(target_id)?;
        let ruleset = &self.battlefield.ruleset;
        let allowed = self.rules.may_charge(unit.troop, unit.category);
        if !allowed.is_some_and(|set| set.contains(target.troop, target.category)) {
            return Err(Refusal::MayNotCharge {
                charger: ruleset.troop(unit.troop).name.clone(),
                target: target.name.clone(),
                allowed: allowed.map(|set| set.names.clone()).unwrap_or_default(),
            });
        }
        if let Some((by, _)) = self.charges.iter().find(|(_, t)| *t == target_id) {
            return Err(Refusal::AlreadyCharged {
                target: target.name.clone(),
                by: self.units[by.0].name.clone(),
            });
        }
        let line = target.base.centre - unit.base.centre;
        let facing = line.bearing();
        let needed = turn_between(unit.base.facing, facing);
        if needed > self.rules.charge_max_pivot + 1e-6 {
            return Err(Refusal::ChargePivot {
                needed,
                most: self.rules.charge_max_pivot,
            });
        }
        if quick && self.surely_out_of_charge_reach(unit, target, facing) {
            // Only a yes or no is wanted, and no path to contact could be
            // paid for: no need to find the contact point.
            return Err(Refusal::TooFar {
                name: unit.name.clone(),
                cost: f64::INFINITY,
                allowance: ruleset.move_inches[unit.category.index()],
            });
        }
        let to = remembered_contact_point(&unit.base, facing, &target.base);
        // A charger already in contact pivots where it stands; a pivot that
        // would swing its base into the target is no charge (units never
        // move through one another, seed 000 Interpenetration).
        if Base::new(to, facing, unit.base.frontage, unit.base.depth).overlaps(&target.base) {
            return Err(self.interpenetration(unit, target_id));
        }
        let points = [unit.base.centre, to];
        let path = Path {
            unit: id,
            points: &points,
            travel_facing: facing,
            end_facing: facing,
            road: false,
            charge_target: Some(target_id),
            quick,
        };
        if self.rules.charge_road_bonus {
            // House rule switch: charges along a road would earn the bonus;
            // seed 000 says they do not, so this branch is unused by default.
            self.check_path(&Path { road: true, ..path })?;
        } else {
            self.check_path(&path)?;
        }
        let flank_or_rear = target.base.arc_of(unit.base.centre) != crate::battlefield::Arc::Front;
        Ok(Plan::Charge {
            unit: id,
            target: target_id,
            to,
            facing,
            flank_or_rear,
        })
    }

    /// Whether no charge by `unit` along `facing` could reach `target`
    /// within its move allowance, judged without the contact point. The
    /// charger ends within [`CONTACT`] of the target, and a base moved `s`
    /// inches comes at most `s` inches nearer, so it travels at least its
    /// distance from the target (turned to charge) less [`CONTACT`]; first
    /// a cheaper bound from the centres less both bases' reach. No inch
    /// costs less than the table's cheapest (uphill only adds). The margin
    /// keeps rounding on the safe side: a charge it refuses, the full check
    /// refuses too.
    fn surely_out_of_charge_reach(&self, unit: &Unit, target: &Unit, facing: f64) -> bool {
        let field = &self.battlefield;
        let allowance = field.ruleset.move_inches[unit.category.index()];
        let cheapest = field.cheapest_multiplier(unit.category);
        let out_of_reach = |travel: f64| travel * cheapest > allowance + 0.01;
        let rough = unit.base.centre.distance(target.base.centre)
            - unit.base.reach()
            - target.base.reach()
            - CONTACT;
        if out_of_reach(rough) {
            return true;
        }
        let turned = Base::new(
            unit.base.centre,
            facing,
            unit.base.frontage,
            unit.base.depth,
        );
        out_of_reach(turned.distance_to(&target.base) - CONTACT)
    }
}

/// Contact points this thread has worked out lately, by the exact charger,
/// facing and target: a charge is tried bound after bound (and listing
/// after listing) while neither unit moves, and the search costs some
/// sixty distance measurements. A power of two: the slot is the top bits
/// of the key's hash.
const CONTACT_MEMO: usize = 1024;

/// A remembered contact point with its arguments as bits: the charger's
/// centre, facing and size, the charge's facing, the target's the same.
type Contact = Option<([u64; 11], Point)>;

thread_local! {
    static CONTACTS: std::cell::RefCell<[Contact; CONTACT_MEMO]> =
        const { std::cell::RefCell::new([None; CONTACT_MEMO]) };
}

/// Exactly [`contact_point`], remembered (the same arguments, to the bit,
/// give the same answer; a slot holds the latest of the keys that share it).
fn remembered_contact_point(charger: &Base, facing: f64, target: &Base) -> Point {
    let key = [
        charger.centre.x.to_bits(),
        charger.centre.y.to_bits(),
        charger.facing.to_bits(),
        charger.frontage.to_bits(),
        charger.depth.to_bits(),
        facing.to_bits(),
        target.centre.x.to_bits(),
        target.centre.y.to_bits(),
        target.facing.to_bits(),
        target.frontage.to_bits(),
        target.depth.to_bits(),
    ];
    let slot = key
        .iter()
        .fold(0u64, |hash, word| {
            (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
        })
        .wrapping_shr(64 - CONTACT_MEMO.trailing_zeros()) as usize
        % CONTACT_MEMO;
    CONTACTS.with_borrow_mut(|memo| match memo[slot] {
        Some((known, point)) if known == key => point,
        _ => {
            let point = contact_point(charger, facing, target);
            memo[slot] = Some((key, point));
            point
        }
    })
}

/// Where a base charging along `facing` from its centre first touches
/// `target`: the charger advances straight at the target's centre.
fn contact_point(charger: &Base, facing: f64, target: &Base) -> Point {
    let start = charger.centre;
    let line = target.centre - start;
    let length = line.length();
    let direction = Vector::from_bearing(facing);
    let turned = Base::new(start, facing, charger.frontage, charger.depth);
    let at = |s: f64| turned.moved_to(start + direction * s);
    if at(0.0).within(target, CONTACT) {
        return start;
    }
    let (mut lo, mut hi) = (0.0, length);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let (new_lo, new_hi) = if at(mid).within(target, CONTACT * 0.5) {
            (lo, mid)
        } else {
            (mid, hi)
        };
        if (new_lo, new_hi) == (lo, hi) {
            // A step that changes nothing: every later step is the same
            // step (the bounds have met to the last bit), so stop here with
            // the answer all 60 would give.
            break;
        }
        (lo, hi) = (new_lo, new_hi);
    }
    start + direction * hi
}

#[cfg(test)]
mod memo_tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The remembered contact point is the searched one, bit for bit, asked
    /// in any order, again and again, with keys that share slots.
    #[test]
    fn remembered_contact_points_are_the_searched_ones() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(11);
        let base = |rng: &mut rand::rngs::ChaCha8Rng| {
            Base::new(
                Point::new(rng.random_range(0.0..24.0), rng.random_range(0.0..24.0)),
                rng.random_range(0.0..360.0),
                rng.random_range(2.0..4.0),
                rng.random_range(1.0..2.0),
            )
        };
        // Few chargers and many targets (a unit tries one target after
        // another), three times as many pairs as slots, asked at random.
        let chargers: Vec<Base> = (0..8).map(|_| base(&mut rng)).collect();
        let targets: Vec<Base> = (0..3 * CONTACT_MEMO / 8).map(|_| base(&mut rng)).collect();
        for _ in 0..5_000 {
            let charger = chargers[rng.random_range(0..chargers.len())];
            let target = targets[rng.random_range(0..targets.len())];
            // Straight ahead (the same facing at every target) or turned to
            // face the target.
            let facing = if rng.random_range(0..2) == 0 {
                charger.facing
            } else {
                (target.centre - charger.centre).bearing()
            };
            let remembered = remembered_contact_point(&charger, facing, &target);
            let searched = contact_point(&charger, facing, &target);
            assert_eq!(
                (remembered.x.to_bits(), remembered.y.to_bits()),
                (searched.x.to_bits(), searched.y.to_bits())
            );
        }
    }
}
