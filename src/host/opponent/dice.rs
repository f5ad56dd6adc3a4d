//! How the opponent gives out its seed-002 activation dice (rulings
//! AC15–AC16): the opponent's policy, beside the opponent, read through the
//! engine's public surface.
//!
//! Lone Warrior first: each unit takes its reaction test (the opponent's
//! one loop, `Opponent::test_units`, on the seed-004 chart, ACW troop
//! types mapped to its classes in the rule set's `reaction_class`), and
//! its order decides how urgent its die is:
//!
//! 1. a unit ordered to charge with an enemy it may charge within reach;
//! 2. a unit an enemy could charge this turn (to fire first, or get away);
//! 3. a unit ordered to withdraw or rout (out before the enemy fires);
//! 4. a unit advancing (advance and fire, or a charge with nothing in reach);
//! 5. a unit standing to fire (it fires whenever its die comes up).
//!
//! The highest dice go to the most urgent units; within a rank the unit
//! nearer the enemy comes first, then the lower id. [`assign`] is a pure
//! function of the state, the side and the orders; every assignment carries
//! its reason. [`random_assignment`] is the yardstick to compare it with.

use crate::acw::{Action, Formation, GameState, Phase, UnitId};
use crate::dice::{Die, Roller};
use crate::reaction::Situation;
use crate::ruleset::Category;
use crate::tables::{self, Order, Tables};
use serde::Serialize;
use std::fmt;

/// How urgently a unit needs a high die, most urgent first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Priority {
    /// Ordered to charge, with a target in reach.
    Charge,
    /// An enemy could charge it.
    Threatened,
    /// Ordered to withdraw or rout.
    Withdraw,
    /// Advancing.
    Advance,
    /// Standing to fire, or without an order.
    Stand,
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Priority::Charge => "charging",
            Priority::Threatened => "threatened",
            Priority::Withdraw => "withdrawing",
            Priority::Advance => "advancing",
            Priority::Stand => "standing",
        })
    }
}

/// One die given to one unit, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assignment {
    /// The unit.
    pub unit: UnitId,
    /// The die's face.
    pub die: u8,
    /// Its rank.
    pub priority: Priority,
    /// Why, in a sentence (what `why` shows).
    pub reason: String,
}

impl Assignment {
    /// The engine action that makes this assignment.
    pub fn action(&self) -> Action {
        Action::AssignDie {
            die: self.die,
            unit: self.unit,
        }
    }
}

/// The Lone Warrior situation of unit `id` as the table shows it now: its
/// class, ground, the nearest enemy and whether it is seen, friends within
/// 6" (`tables`' support distance), strength under half, formation (guns
/// in column are limbered). What only a memory of past bounds tells
/// (casualties since the last test, a melee lost, a withdrawal, an enemy
/// falling back) the opponent adds (`Opponent::acw_situation`, ruling
/// AC15).
pub fn situation(state: &GameState, id: UnitId, tables: &Tables) -> Option<Situation> {
    let unit = state.unit(id);
    let class = unit.reaction_class.clone()?;
    let field = &state.battlefield;
    let enemies: Vec<UnitId> = (0..state.units.len())
        .map(UnitId)
        .filter(|e| state.unit(*e).side != unit.side && !state.removed(*e))
        .collect();
    let nearest = state.nearest_enemy(id);
    let enemy_distance = nearest.map(|e| unit.base.distance_to(&state.unit(e).base));
    let enemy_in_sight = enemies
        .iter()
        .any(|e| field.can_see(&unit.base, &state.unit(*e).base));
    let sees_cavalry = enemies
        .iter()
        .any(|e| state.unit(*e).mounted() && field.can_see(&unit.base, &state.unit(*e).base));
    let support_within_6 = state.active_units(unit.side).any(|f| {
        f != id
            && unit.base.within(
                &state.unit(f).base,
                tables.reaction.distances.support_within,
            )
    });
    let formation = match (unit.category, unit.formation) {
        (Category::Cavalry, Formation::Dismounted) => Some(tables::Formation::Dismounted),
        (Category::Cavalry, _) => Some(tables::Formation::Mounted),
        (Category::Artillery, Formation::Column) => Some(tables::Formation::Limbered),
        (Category::Artillery, _) => Some(tables::Formation::Unlimbered),
        (_, Formation::Column) => Some(tables::Formation::Column),
        _ => Some(tables::Formation::Line),
    };
    Some(Situation {
        class,
        column: Some(field.column_at(unit.base.centre)),
        enemy_in_sight,
        enemy_distance,
        support_within_6,
        under_half: state.strength(id) < 0.5,
        formation,
        sees_cavalry,
        ..Situation::default()
    })
}

/// Whether `attacker` could charge `defender` this turn as the seed
/// allows, judged by distance (its move in its formation) and the seed's
/// conditions, not by the ground between.
pub fn could_charge(state: &GameState, attacker: UnitId, defender: UnitId) -> bool {
    let a = state.unit(attacker);
    let d = state.unit(defender);
    let table = &state.table;
    if a.removed || d.removed || a.side == d.side || table.never_charge.contains(&a.troop) {
        return false;
    }
    // A column would have to deploy first (2" or more): judged in line.
    let formation = if a.formation == Formation::Column {
        Formation::Line
    } else {
        a.formation
    };
    let Some(reach) = table.move_of(a.troop, formation) else {
        return false;
    };
    if !a.base.within(&d.base, reach) {
        return false;
    }
    let mounted = a.category == Category::Cavalry && formation != Formation::Dismounted;
    mounted && table.any_target.contains(&a.troop)
        || d.base.arc_of(a.base.centre) != crate::battlefield::Arc::Front
        || state.strength_points(attacker)
            >= state
                .strength_points(defender)
                .saturating_add(table.strength_advantage)
}

/// The rank of unit `id` given its order, with the reason.
fn rank(state: &GameState, id: UnitId, order: Option<Order>) -> (Priority, String) {
    let unit = state.unit(id);
    let enemies: Vec<UnitId> = (0..state.units.len())
        .map(UnitId)
        .filter(|e| state.unit(*e).side != unit.side && !state.removed(*e))
        .collect();
    let order_name = order.map_or("no order", |o| o.title());
    if order == Some(Order::Charge)
        && let Some(target) = enemies.iter().find(|e| could_charge(state, id, **e))
    {
        return (
            Priority::Charge,
            format!(
                "{order_name}, and `{}` is within reach: a high die, to strike before it acts",
                state.unit(*target).name
            ),
        );
    }
    if let Some(threat) = enemies.iter().find(|e| could_charge(state, **e, id)) {
        return (
            Priority::Threatened,
            format!(
                "{order_name}, but `{}` could charge it: a high die, to fire first or get away",
                state.unit(*threat).name
            ),
        );
    }
    match order {
        Some(Order::Withdraw | Order::Rout | Order::FireAndWithdraw) => (
            Priority::Withdraw,
            format!("{order_name}: an early die, to get away before the enemy fires"),
        ),
        Some(Order::Charge | Order::AdvanceAndFire) => (
            Priority::Advance,
            format!("{order_name}: a middle die, once the urgent units have theirs"),
        ),
        Some(Order::StandAndFire) | None => (
            Priority::Stand,
            format!("{order_name}: a low die; standing troops fire whenever their turn comes"),
        ),
    }
}

/// Give `side`'s dice to its units still waiting for one: the most urgent
/// (see the module header) get the highest dice. `orders` are the units'
/// reaction-test orders; a unit missing from them stands. Drafting
/// (optional rule #2), the plan takes the highest dice of the pile as if
/// they were all the side's; apply the first and ask again.
pub fn assign(state: &GameState, side: usize, orders: &[(UnitId, Order)]) -> Vec<Assignment> {
    let mut dice = state.dice_to_assign(side).to_vec();
    dice.sort_unstable_by(|a, b| b.cmp(a));
    let mut ranked: Vec<(Priority, f64, UnitId, String)> = state
        .unassigned(side)
        .map(|id| {
            let order = orders.iter().find(|(u, _)| *u == id).map(|(_, o)| *o);
            let (priority, reason) = rank(state, id, order);
            let distance = state.nearest_enemy(id).map_or(f64::INFINITY, |e| {
                state.unit(id).base.distance_to(&state.unit(e).base)
            });
            (priority, distance, id, reason)
        })
        .collect();
    ranked.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    ranked
        .into_iter()
        .zip(dice)
        .map(|((priority, _, unit, reason), die)| Assignment {
            unit,
            die,
            priority,
            reason,
        })
        .collect()
}

/// The next assignment the policy makes when `side` is to assign, if it is.
pub fn next_assignment(
    state: &GameState,
    side: usize,
    orders: &[(UnitId, Order)],
) -> Option<Assignment> {
    if state.phase() != (Phase::Assigning { side }) {
        return None;
    }
    assign(state, side, orders).into_iter().next()
}

/// A random assignment for comparison: the side's units in an order drawn
/// with d100 rolls from `roller`, given the dice highest first.
pub fn random_assignment(
    state: &GameState,
    side: usize,
    roller: &mut dyn Roller,
) -> Vec<Assignment> {
    let mut dice = state.dice_to_assign(side).to_vec();
    dice.sort_unstable_by(|a, b| b.cmp(a));
    let mut units: Vec<(u8, UnitId)> = state
        .unassigned(side)
        .collect::<Vec<_>>()
        .into_iter()
        .map(|id| {
            (
                roller.roll_for(Die::D100, format_args!("a random order")),
                id,
            )
        })
        .collect();
    units.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    units
        .into_iter()
        .zip(dice)
        .map(|((_, unit), die)| Assignment {
            unit,
            die,
            priority: Priority::Stand,
            reason: "drawn at random".to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Priority;
    use crate::acw::tests::{NORTH, SOUTH, acw_table, game, henry_hill, id};
    use crate::acw::{Action, Formation, GameState, Outcome, Phase, UnitId};
    use crate::dice::{Die, Roller, Scripted, Seeded};
    use crate::tables::{Order, Tables};

    /// The orders of `side`'s units waiting for a die, each unit's
    /// reaction test on the chart rolled on `roller`: what the opponent's
    /// loop gives a side with nothing to remember.
    fn orders(
        state: &GameState,
        side: usize,
        tables: &Tables,
        roller: &mut dyn Roller,
    ) -> Vec<(UnitId, Order)> {
        let units: Vec<UnitId> = state.unassigned(side).collect();
        units
            .into_iter()
            .filter_map(|id| {
                let situation = super::situation(state, id, tables)?;
                let name = &state.unit(id).name;
                let die = roller.roll_for(Die::D6, format_args!("{name}'s reaction test"));
                crate::reaction::test(tables, &situation, Default::default(), die)
                    .ok()
                    .map(|outcome| (id, outcome.order))
            })
            .collect()
    }

    #[test]
    fn the_policy_assigns_every_die_once_with_a_reason() {
        let (state, _) = GameState::new(henry_hill(), acw_table(), &mut Seeded::new(5)).unwrap();
        let side = state.to_act().unwrap();
        let tables = Tables::embedded();
        let orders = orders(&state, side, &tables, &mut Seeded::new(9));
        let units = state.units.iter().filter(|u| u.side == side).count();
        assert!(units >= 8);
        assert_eq!(orders.len(), units, "every unit takes its reaction test");
        let plan = super::assign(&state, side, &orders);
        let mut units: Vec<UnitId> = plan.iter().map(|a| a.unit).collect();
        units.sort();
        assert_eq!(units, state.active_units(side).collect::<Vec<_>>());
        let mut dice: Vec<u8> = plan.iter().map(|a| a.die).collect();
        let mut pool = state.dice_to_assign(side).to_vec();
        dice.sort();
        pool.sort();
        assert_eq!(dice, pool, "each die exactly once");
        assert!(plan.iter().all(|a| !a.reason.is_empty()));
        // Priorities never rise as the dice fall.
        assert!(
            plan.windows(2)
                .all(|w| w[0].priority <= w[1].priority && w[0].die >= w[1].die)
        );
        // Applying the plan one by one assigns every die.
        let mut state = state;
        for assignment in &plan {
            state
                .apply(&assignment.action(), &mut Scripted::new([]))
                .unwrap();
        }
        assert!(state.unassigned(side).next().is_none());
    }

    #[test]
    fn charging_and_threatened_units_get_the_highest_dice() {
        let state = game(
            &[],
            &[
                ("Stand", "infantry", 5.0, 30.0, SOUTH, Formation::Line),
                ("Charger", "cavalry", 20.0, 18.0, SOUTH, Formation::Line),
                (
                    "Threatened",
                    "infantry",
                    30.0,
                    10.0,
                    SOUTH,
                    Formation::Column,
                ),
            ],
            &[
                ("C", "infantry", 20.0, 10.0, NORTH, Formation::Line),
                ("Horse", "cavalry", 30.0, 2.0, NORTH, Formation::Line),
            ],
            &[2, 5, 3, 1, 1],
        );
        let (stand, charger, threatened) = (
            id(&state, "Stand"),
            id(&state, "Charger"),
            id(&state, "Threatened"),
        );
        let orders = [
            (stand, Order::StandAndFire),
            (charger, Order::Charge),
            (threatened, Order::AdvanceAndFire),
        ];
        let plan = super::assign(&state, 0, &orders);
        let got: Vec<(UnitId, u8, Priority)> =
            plan.iter().map(|a| (a.unit, a.die, a.priority)).collect();
        assert_eq!(
            got,
            vec![
                (charger, 5, Priority::Charge),
                (threatened, 3, Priority::Threatened),
                (stand, 2, Priority::Stand),
            ]
        );
        assert!(
            plan[0].reason.contains("`C` is within reach"),
            "{}",
            plan[0].reason
        );
        assert!(
            plan[1].reason.contains("could charge it"),
            "{}",
            plan[1].reason
        );
        assert_eq!(
            super::next_assignment(&state, 0, &orders).unwrap().action(),
            Action::AssignDie {
                die: 5,
                unit: charger
            }
        );
        assert!(super::next_assignment(&state, 1, &orders).is_none());
    }

    #[test]
    fn random_assignment_gives_every_die_once() {
        let (state, _) = GameState::new(henry_hill(), acw_table(), &mut Seeded::new(5)).unwrap();
        let side = state.to_act().unwrap();
        let plan = super::random_assignment(&state, side, &mut Seeded::new(2));
        let mut dice: Vec<u8> = plan.iter().map(|a| a.die).collect();
        let mut pool = state.dice_to_assign(side).to_vec();
        dice.sort();
        pool.sort();
        assert_eq!(dice, pool);
        assert_eq!(
            plan.len(),
            state.units.iter().filter(|u| u.side == side).count()
        );
    }

    /// The policy gives out both sides' dice through whole games (drafting or
    /// not); the rest of the play is random.
    #[test]
    fn the_policy_assigns_through_whole_games() {
        use rand::{RngExt, SeedableRng};
        let tables = Tables::embedded();
        for (seed, draft) in [(11, false), (12, true)] {
            let mut setup = henry_hill();
            setup.turns = 3;
            setup.optional.draft = draft;
            let mut roller = Seeded::new(seed);
            let mut pick = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
            let (mut state, _) = GameState::new(setup, acw_table(), &mut roller).unwrap();
            let mut assigned = 0;
            while state.outcome() == &Outcome::Playing {
                let action = match state.phase() {
                    Phase::Assigning { side } => {
                        let orders = orders(&state, side, &tables, &mut roller);
                        let next = super::next_assignment(&state, side, &orders).unwrap();
                        assert!(!next.reason.is_empty());
                        assigned += 1;
                        next.action()
                    }
                    _ => {
                        let legal = state.legal_actions();
                        legal[pick.random_range(0..legal.len())].clone()
                    }
                };
                state.apply(&action, &mut roller).unwrap();
            }
            assert!(assigned >= 16, "draft {draft}: {assigned}");
        }
    }
}
