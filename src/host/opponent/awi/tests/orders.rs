//! Carrying out a unit's order (`act.rs`, rulings O6–O13): each order and
//! variant, routes for the whole base, units hemmed in or held up, and the
//! targeting rule and shots over seeded scatterings of units.

use super::*;

#[test]
fn militia_behind_a_fence_with_the_enemy_at_4_inches_and_no_losses_does_not_charge_on_a_1() {
    let mut state = game_with(
        &[fence()],
        &[("Regulars", "british-regulars", 24.0, 13.4, NORTH)],
        &[("Militia", "militia", 24.0, 18.9, SOUTH)],
        &[],
    );
    to_side(&mut state, 1);
    let mut opponent = opponent(&state, 1);
    let report = movement(&mut opponent, &mut state, &[1]);
    let militia = decision(&report, "Militia");
    // Local militia in hard cover +2, enemy within 6" -2, die 1: total 1.
    assert!((militia.reading.nearest_enemy.unwrap().1 - 4.0).abs() < 0.01);
    assert_eq!(militia.outcome.column, Column::Hard);
    assert_eq!(militia.outcome.total, 1);
    assert_eq!(militia.outcome.order, Order::StandAndFire);
    assert!(militia.actions.is_empty(), "{:?}", militia.actions);
    assert_eq!(opponent.pending_fire, vec![militia.unit]);
}

#[test]
fn a_unit_that_withdrew_last_bound_and_scores_minus_1_routs() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 20.0, NORTH)],
        &[("Militia", "militia", 24.0, 26.25, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Regulars").withdrew = true;
    // A withdrawal last bound also makes the general test; Average 61-80 is D
    // (no reinforcement table: he stands).
    let report = movement(&mut opponent, &mut state, &[70, 1]);
    let regulars = decision(&report, "Regulars");
    // Retreat column: regulars 0, enemy within 6" -2, die 1: -1.
    assert_eq!(regulars.outcome.column, Column::Retreat);
    assert_eq!(regulars.outcome.total, -1);
    assert_eq!(regulars.outcome.order, Order::Rout);
    // Ruling O12: it routs off the table, lost to its army now.
    assert_eq!(
        regulars.actions,
        vec![Action::Rout {
            unit: regulars.unit
        }]
    );
    assert_eq!(state.unit(regulars.unit).status, Status::Routed);
    assert_eq!(state.lost(0), 1);
    assert!(regulars.withdrew);
    assert!(
        report.generals[0]
            .triggers
            .contains(&Trigger::OwnTroopsWithdrawing)
    );
}

#[test]
fn cavalry_that_rolls_a_charge_with_no_legal_target_advances_instead() {
    let mut state = game(
        &[("Dragoons", "cavalry", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // Light cavalry in the open +4, enemy over 15" +1, die 6: 11, charge.
    let report = movement(&mut opponent, &mut state, &[6]);
    let dragoons = decision(&report, "Dragoons");
    assert_eq!(dragoons.outcome.order, Order::Charge);
    assert!(
        !dragoons
            .actions
            .iter()
            .any(|a| matches!(a, Action::Charge { .. }))
    );
    assert!(matches!(
        dragoons.refused.first(),
        Some((Action::Charge { .. }, _))
    ));
    assert!(dragoons.plan.contains("O10"), "{}", dragoons.plan);
    let (from, to) = moved(dragoons).expect("it advances");
    assert!(
        (to.y - from.y - 12.0).abs() < 0.01,
        "a full 12\" move: {from} → {to}"
    );
}

#[test]
fn a_charge_goes_in_without_firing() {
    let mut state = game(
        &[("Dragoons", "cavalry", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 18.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // +4 open, enemy within 6"? 6.25" away: no; die 5: 9, charge.
    let report = movement(&mut opponent, &mut state, &[5]);
    let dragoons = decision(&report, "Dragoons");
    assert_eq!(dragoons.outcome.order, Order::Charge);
    assert!(matches!(dragoons.actions[..], [Action::Charge { .. }]));
    assert!(opponent.pending_fire.is_empty());
    assert!(
        dragoons
            .target
            .as_ref()
            .unwrap()
            .1
            .contains("lawfully charge")
    );
}

#[test]
fn artillery_that_rolls_a_charge_stands_and_fires() {
    let mut state = game(
        &[("Guns", "artillery", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 24.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // Artillery open +1, die 6, no distance factor: 7 — advance; force 9
    // with a general within 3".
    state.generals[0].base = Base::new(p(24.0, 7.0), 0.0, 2.0, 2.0);
    let report = movement(&mut opponent, &mut state, &[6]);
    let guns = decision(&report, "Guns");
    assert_eq!(guns.outcome.order, Order::Charge);
    assert!(guns.actions.is_empty());
    assert_eq!(opponent.pending_fire, vec![guns.unit]);
}

#[test]
fn advance_and_fire_stands_and_fires_in_range_and_advances_out_of_it() {
    // In range: regulars 3" from militia.
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 14.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // +2 open, -1 within 6", die 6: 7.
    let report = movement(&mut opponent, &mut state, &[6]);
    let regulars = decision(&report, "Regulars").clone();
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert!(regulars.actions.is_empty());
    assert!(regulars.plan.contains("O7"));
    state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    let mut report = report;
    opponent.phase(&mut state, &mut dice([3]), &mut report);
    let regulars = decision(&report, "Regulars");
    assert!(matches!(regulars.actions[..], [Action::Fire { .. }]));
    assert!(
        regulars
            .events
            .iter()
            .any(|e| matches!(e, Event::Fired { roll: 3, .. }))
    );

    // Out of range: 18.5" away, in sight, it marches a full move.
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 30.0, SOUTH)],
    );
    let mut second = self::opponent(&state, 0);
    // +2 open, +1 over 15", die 4: 7.
    let report = movement(&mut second, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    let (from, to) = moved(regulars).expect("it advances");
    assert!((to.y - from.y - 6.0).abs() < 0.01);
    assert!(regulars.route.as_ref().unwrap().straight);
}

/// Seed 004, stand and fire on +3 to +5: "Troops in close order fire
/// double volleys if the target is within 6 inches" (ruling O8).
#[test]
fn close_order_standing_and_firing_at_3_to_5_fires_a_double_volley() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 14.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // +2 open, -1 within 6", die 3: 4, stand and fire; in line, 3" away.
    let report = movement(&mut opponent, &mut state, &[3]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::StandAndFire);
    assert_eq!(
        regulars.outcome.instruction.fire,
        crate::tables::Fire::Double
    );
    state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    let mut report = report;
    opponent.phase(&mut state, &mut dice([3]), &mut report);
    let regulars = decision(&report, "Regulars");
    assert!(
        matches!(
            regulars.actions[..],
            [Action::Fire {
                volley: crate::rules::Volley::Double,
                ..
            }]
        ),
        "{:?}",
        regulars.actions
    );
    // 3, +1 regulars = 4, doubled = 8.
    assert_eq!(state.unit(unit(&state, "Militia")).hits, 8);
}

/// Seed 004, fire and withdraw: "Troops will fire a single volley, (-1)".
/// Skirmishers already in cover stay there and fire it (ruling O8).
#[test]
fn fire_and_withdraw_in_cover_fires_its_volley_at_minus_1() {
    let woods = (
        "woods",
        Shape::Rect {
            min: p(20.0, 8.0),
            max: p(28.0, 11.0),
        },
        0.0,
    );
    let mut state = game_with(
        &[woods],
        &[("Light", "light-infantry", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 15.0, SOUTH)],
        &[],
    );
    let mut opponent = opponent(&state, 0);
    let light = unit(&state, "Light");
    // The die that makes the total 0: fire and withdraw.
    let die = -opponent.preview(&state, light).unwrap().modifier;
    assert!((1..=6).contains(&die), "die {die}");
    let report = movement(&mut opponent, &mut state, &[die as u8]);
    let decision_made = decision(&report, "Light");
    assert_eq!(decision_made.outcome.order, Order::FireAndWithdraw);
    assert!(decision_made.actions.is_empty(), "it stays in its cover");
    state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    let mut report = report;
    opponent.phase(&mut state, &mut dice([3]), &mut report);
    let light_decision = decision(&report, "Light");
    assert!(
        matches!(
            light_decision.actions[..],
            [Action::Fire {
                volley: crate::rules::Volley::Hasty,
                ..
            }]
        ),
        "{:?}",
        light_decision.actions
    );
    // 3, -1 skirmishers, -1 before withdrawing = 1.
    assert_eq!(state.unit(unit(&state, "Militia")).hits, 1);
}

/// Routes are planned for the whole base. Two friends stand
/// just ahead with a 3" gap between them, too narrow for a 4" base: the
/// straight line is refused, and the route leads around them, not into the
/// gap (which the engine would refuse, leaving the unit stuck).
#[test]
fn a_base_too_wide_for_a_gap_goes_around_not_through() {
    let mut state = game(
        &[
            ("Regulars", "british-regulars", 24.0, 10.0, NORTH),
            ("Left", "british-regulars", 20.5, 11.6, NORTH),
            ("Right", "british-regulars", 27.5, 11.6, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // Regulars tests first (unit order). +2 open, +1 over 15", die 4: 7, advance and fire; out of range, a
    // full move towards the militia.
    let report = movement(&mut opponent, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert!(!regulars.stuck, "{}: {:?}", regulars.plan, regulars.refused);
    let (_, to) = moved(regulars).expect("it moves");
    let route = regulars.route.as_ref().expect("by a route");
    assert!(!route.straight);
    // Not into the gap: its base stays clear of both friends.
    let base = state.unit(regulars.unit).base;
    assert_eq!(base.centre, to);
    for name in ["Left", "Right"] {
        assert!(!base.overlaps(&state.unit(unit(&state, name)).base));
    }
    assert!(
        (to.x - 24.0).abs() > 1.0,
        "it goes round a friend, not up the gap: {to}"
    );
}

/// The footprint mask must not close the route's goal. The
/// target stands beside another enemy, whose blocked cells (for a 4" base)
/// cover the target's centre; the route still heads there, and stops short.
#[test]
fn a_target_beside_another_enemy_can_still_be_approached_by_a_route() {
    let mut state = game(
        &[
            ("Regulars", "british-regulars", 24.0, 10.0, NORTH),
            ("Left", "british-regulars", 20.5, 11.6, NORTH),
            ("Right", "british-regulars", 27.5, 11.6, NORTH),
        ],
        &[
            ("Militia", "militia", 24.0, 40.0, SOUTH),
            ("Neighbour", "militia", 28.2, 40.0, SOUTH),
        ],
    );
    let mut opponent = opponent(&state, 0);
    let report = movement(&mut opponent, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert_eq!(
        regulars.target.as_ref().map(|t| t.0),
        Some(unit(&state, "Militia"))
    );
    assert!(!regulars.stuck, "{}: {:?}", regulars.plan, regulars.refused);
    assert!(moved(regulars).is_some());
}

#[test]
fn a_column_deploys_without_firing() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 14.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Regulars").formation = Formation::Column;
    let report = movement(&mut opponent, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::StandAndFire);
    assert!(regulars.outcome.instruction.does.contains("Deploy"));
    assert!(opponent.pending_fire.is_empty());
    assert_eq!(
        opponent.units[regulars.unit.0].as_ref().unwrap().formation,
        Formation::Line
    );
}

/// Cavalry in march column told "deploy into line", a formation it does
/// not have, deploys into its own: mounted (ruling O6). It does not stay
/// in column bound after bound.
#[test]
fn cavalry_told_to_deploy_into_line_deploys_mounted() {
    let mut state = game(
        &[("Horse", "cavalry", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 14.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Horse").formation = Formation::Column;
    let dice = (1..=6).find(|&die| {
        let mut state = state.clone();
        let mut opponent = opponent.clone();
        let report = movement(&mut opponent, &mut state, &[die]);
        decision(&report, "Horse").outcome.instruction.formation == Some(Formation::Line)
    });
    let die = dice.expect("a die that tells the column to deploy into line");
    let report = movement(&mut opponent, &mut state, &[die]);
    let horse = decision(&report, "Horse");
    assert_eq!(horse.outcome.instruction.formation, Some(Formation::Line));
    assert_eq!(
        opponent.units[horse.unit.0].as_ref().unwrap().formation,
        Formation::Mounted
    );
}

/// The march column belongs to the march. A holding unit told to
/// march in column stays where it is, so it stays in line and does not
/// waste its next bound in sight deploying.
#[test]
fn a_holding_unit_told_to_march_in_column_stays_in_line() {
    let woods = (
        "woods",
        Shape::Rect {
            min: p(0.0, 20.0),
            max: p(20.0, 30.0),
        },
        0.0,
    );
    let mut state = game_with(
        &[woods],
        &[("Regulars", "british-regulars", 10.0, 10.0, NORTH)],
        &[("Militia", "militia", 10.0, 40.0, SOUTH)],
        &[],
    );
    let mut opponent = opponent(&state, 0);
    let regulars = unit(&state, "Regulars");
    opponent.set_plan(SidePlan::defend(&state, &[("line", &[regulars])]));
    let report = movement(&mut opponent, &mut state, &[1]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert_eq!(
        regulars.outcome.instruction.formation,
        Some(Formation::Column),
        "out of sight, the order is to march in column"
    );
    assert!(regulars.actions.is_empty(), "a holding unit does not march");
    assert_eq!(
        opponent.units[regulars.unit.0].as_ref().unwrap().formation,
        Formation::Line
    );
}

#[test]
fn fire_and_withdraw_in_the_open_falls_back_disordered_without_firing() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 12.0, NORTH)],
        &[("Militia", "militia", 24.0, 16.75, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    state.units[0].hits = 6;
    // +2 open, -1 within 6", -3 figures lost (6 hits, ruling O3), die 2: 0.
    let report = movement(&mut opponent, &mut state, &[2]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::FireAndWithdraw);
    let (from, to) = moved(regulars).expect("it falls back");
    assert!(
        to.y < from.y && (from.y - to.y - 3.0).abs() < 0.01,
        "half a move back"
    );
    assert!(regulars.withdrew);
    assert!(opponent.pending_fire.is_empty());
    assert!(opponent.units[0].as_ref().unwrap().disordered);
}

#[test]
fn routing_guns_are_abandoned_and_never_act_again() {
    let mut state = game(
        &[("Guns", "artillery", 24.0, 20.0, NORTH)],
        &[("Militia", "militia", 24.0, 25.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Guns").withdrew = true;
    // Retreat column -2, within 6" -2, die 1: -3, rout. General: 70 (D).
    let report = movement(&mut opponent, &mut state, &[70, 1]);
    let guns = decision(&report, "Guns");
    assert_eq!(guns.outcome.order, Order::Rout);
    assert!(opponent.units[guns.unit.0].as_ref().unwrap().abandoned);
    assert_eq!(state.unit(guns.unit).status, Status::Routed);
    to_side(&mut state, 1);
    to_side(&mut state, 0);
    let report = movement(&mut opponent, &mut state, &[70, 6]);
    assert!(report.decisions.is_empty(), "abandoned guns take no test");
}

/// A target horse may not enter. The militia stands deep in a
/// wood and the dragoons wait at its southern edge, so every straight move
/// towards the militia ends among the trees (impassable to cavalry, seed
/// 000). The route heads for the open ground nearest the target instead of
/// giving up because the target's own cell is closed to horse.
#[test]
fn horse_heads_for_open_ground_near_a_target_in_woods() {
    let woods = Shape::Rect {
        min: p(14.0, 8.5),
        max: p(34.0, 36.0),
    };
    let mut state = game_with(
        &[("woods", woods, 0.0)],
        &[("Dragoons", "cavalry", 24.0, 7.0, NORTH)],
        &[("Militia", "militia", 24.0, 30.0, SOUTH)],
        &[],
    );
    // A free army (no cavalry reserve to hold the horse back).
    let mut attacker = opponent(&state, 0);
    let report = movement(&mut attacker, &mut state, &[6]);
    let dragoons = decision(&report, "Dragoons");
    assert!(
        matches!(
            dragoons.outcome.order,
            Order::Charge | Order::AdvanceAndFire
        ),
        "{:?}",
        dragoons.outcome.order
    );
    assert!(!dragoons.stuck, "{}: {:?}", dragoons.plan, dragoons.refused);
    let (from, to) = moved(dragoons).expect("it rides round the wood");
    let route = dragoons.route.as_ref().expect("by a route");
    assert!(!route.straight, "{route:?}");
    // Along the wood's edge, not into it.
    assert!((to.x - from.x).abs() > 2.0, "{from} -> {to}");
    let cell = state.battlefield.grid.cell_at(to).unwrap();
    assert!(
        state
            .battlefield
            .passable(state.unit(dragoons.unit).troop, cell)
    );
}

/// Hemmed in is the rules, not a refused plan. Within 6" of the
/// militia a unit may move only directly towards or away from it (seed 000
/// Enemy Presence); a friend stands in the straight line, and going back
/// brings it no nearer. The planner finds no move and says the unit is
/// hemmed in, which `foe simulate` counts apart from moves with no lawful
/// way; with the friend gone it advances.
#[test]
fn a_unit_hemmed_in_by_the_enemy_presence_rule_is_not_a_refused_plan() {
    let plan = |friend: bool| {
        let mut british = vec![("Regulars", "british-regulars", 24.0, 10.0, NORTH)];
        if friend {
            british.push(("Friend", "british-regulars", 24.0, 12.0, NORTH));
        }
        let state = game(&british, &[("Militia", "militia", 24.0, 15.5, SOUTH)]);
        let mut attacker = opponent(&state, 0);
        let (regulars, militia) = (unit(&state, "Regulars"), unit(&state, "Militia"));
        let planned = attacker.plan_move(
            &state,
            regulars,
            super::act::Goal::Enemy(militia),
            6.0,
            super::act::Facing::Keep,
        );
        (
            planned.action.is_some(),
            planned.hemmed,
            planned.refusal.is_some(),
        )
    };
    assert_eq!(plan(true), (false, Some(Hemmed::ByEnemy), true));
    assert_eq!(plan(false), (true, None, false));
}

/// Held up behind a friend is not a plan the engine refused.
/// Two woods leave a 6" gap, and a friend stands in it; the dragoons wait
/// right behind the friend. Over bare ground they would have a way, so
/// they are held up by units, not stuck for want of a route.
#[test]
fn a_unit_behind_a_friend_in_the_only_gap_is_held_up_not_stuck() {
    let west = Shape::Rect {
        min: p(0.0, 8.0),
        max: p(21.0, 16.0),
    };
    let east = Shape::Rect {
        min: p(27.0, 8.0),
        max: p(48.0, 16.0),
    };
    let mut state = game_with(
        &[("woods", west, 0.0), ("woods", east, 0.0)],
        &[
            ("Dragoons", "cavalry", 24.0, 9.3, NORTH),
            ("Friend", "british-regulars", 24.0, 11.8, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
        &[],
    );
    // A free army (no cavalry reserve to hold the horse back).
    let mut attacker = opponent(&state, 0);
    let report = movement(&mut attacker, &mut state, &[6, 1]);
    let dragoons = decision(&report, "Dragoons");
    assert!(moved(dragoons).is_none(), "{}", dragoons.plan);
    assert_eq!(dragoons.hemmed, Some(Hemmed::ByUnits), "{}", dragoons.plan);
    assert!(!dragoons.stuck);
    assert!(dragoons.plan.contains("held up"), "{}", dragoons.plan);
}

/// A builtin scenario's units scattered at random, seeded: over the whole
/// table and a little off it, or crowded into its first quarter; facing
/// any way; one in ten routed. The units' spatial index is on whatever
/// their number.
fn scattered(name: &str, seed: u64, rng: &mut rand::rngs::ChaCha8Rng) -> GameState {
    use rand::RngExt;
    let mut state = crate::rules::fixture::builtin_state(name, &mut Seeded::new(seed));
    let (w, h) = (state.battlefield.width(), state.battlefield.height());
    let spread = if rng.random_range(0..2) == 0 {
        1.0
    } else {
        0.25
    };
    for index in 0..state.units.len() {
        let at = p(
            rng.random_range(-4.0..w * spread + 4.0),
            rng.random_range(-4.0..h * spread + 4.0),
        );
        let facing = rng.random_range(0.0..360.0);
        crate::rules::fixture::stand(&mut state, index, at, facing);
        let unit = &mut state.units[index];
        if rng.random_range(0..10) == 0 {
            unit.status = Status::Routed;
        }
    }
    state.units.force_indexed(Some(true));
    state
}

/// Whether a unit has a shot at any of some enemies, asked of the units'
/// spatial index within its weapon's reach, is exactly whether `shot_open`
/// holds for any of them, over the scatterings above: every unit, those
/// of the other side, half of them picked at random, and one it has a
/// shot at.
#[test]
fn any_shot_open_is_shot_open_of_any() {
    use rand::{RngExt, SeedableRng};
    let (mut open, mut closed) = (0, 0);
    for (name, seeds) in [("guilford", 20), ("stress", 3)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_300 + seed);
            let state = scattered(name, seed, &mut rng);
            let memo = memo::UnitMemo::default();
            let n_units = state.units.len();
            for _ in 0..600 {
                let from = UnitId(rng.random_range(0..n_units));
                // Every unit, the other side's, half at random, or one it
                // has a shot at (when it has one).
                let open_at: Vec<usize> = (0..n_units)
                    .filter(|&i| act::shot_open(&state, &memo, from, UnitId(i)))
                    .collect();
                let among: Vec<bool> = match rng.random_range(0..4) {
                    0 => vec![true; n_units],
                    1 => {
                        let side = state.unit(from).side;
                        (0..n_units).map(|i| state.units[i].side != side).collect()
                    }
                    2 => (0..n_units).map(|_| rng.random_range(0..2) == 0).collect(),
                    _ if !open_at.is_empty() => {
                        let one = open_at[rng.random_range(0..open_at.len())];
                        (0..n_units).map(|i| i == one).collect()
                    }
                    _ => vec![false; n_units],
                };
                let scanned = (0..n_units)
                    .filter(|&i| among[i])
                    .any(|i| act::shot_open(&state, &memo, from, UnitId(i)));
                let indexed = act::any_shot_open(&state, &memo, from, |i| among[i]);
                assert_eq!(indexed, scanned, "{name} seed {seed}: {from:?}");

                if scanned {
                    open += 1;
                } else {
                    closed += 1;
                }
            }
        }
    }
    assert!(open > 800 && closed > 3_000, "{open} open, {closed} closed");
}

/// Enemies in the reading's order (by distance, then unit) ranked by
/// sorting only the runs equal to the thousandth of an inch are ranked as
/// the targeting rule ranks them: over the scatterings above with hits at
/// random, at their own distances and at distances coarsened so that many
/// tie to the thousandth (and some exactly).
#[test]
fn ranking_the_measured_enemies_is_the_targeting_rules_ranking() {
    use rand::{RngExt, SeedableRng};
    let mut tied = 0;
    for (name, seeds) in [("guilford", 10), ("stress", 2)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_400 + seed);
            let mut state = scattered(name, seed, &mut rng);
            for index in 0..state.units.len() {
                state.units[index].hits = rng.random_range(0..3);
            }
            let memo = memo::UnitMemo::default();
            let n_units = state.units.len();
            for round in 0..60 {
                let from = UnitId(rng.random_range(0..n_units));
                let coarse = [0.0, 0.0004, 0.0015, 0.25][round % 4];
                let mut measured: Vec<(UnitId, f64)> = (0..n_units)
                    .filter(|&i| i != from.0)
                    .map(|i| {
                        let distance = memo.distance(&state, from, UnitId(i));
                        let distance = if coarse > 0.0 {
                            (distance / coarse).floor() * coarse
                        } else {
                            distance
                        };
                        (UnitId(i), distance)
                    })
                    .collect();
                measured.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                tied += measured
                    .windows(2)
                    .filter(|w| (w[0].1 * 1000.0).round() == (w[1].1 * 1000.0).round())
                    .count();
                let ruled = act::rank_by_target_rule(&state, measured.iter().copied());
                assert_eq!(
                    act::rank_measured(&state, measured),
                    ruled,
                    "{name} seed {seed}: {from:?}"
                );
            }
        }
    }
    assert!(tied > 5_000, "{tied}");
}

/// The enemies a reading measures, near ones at once and the rest when
/// asked, are every enemy by distance then unit, as a full sort orders
/// them; ranked, the near ones are the head of the targeting rule's
/// ranking of them all, and the first for which a test holds, and those
/// within a limit, are the full ranking's: over the scatterings above,
/// from units of either side, with hits at random.
#[test]
fn the_measured_enemies_near_first_are_all_of_them_in_order() {
    use rand::{RngExt, SeedableRng};
    let (mut partial, mut completed) = (0, 0);
    for (name, seeds) in [("guilford", 10), ("stress", 3)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_600 + seed);
            let mut state = scattered(name, seed, &mut rng);
            for index in 0..state.units.len() {
                state.units[index].hits = rng.random_range(0..3);
            }
            let memo = memo::UnitMemo::default();
            let n_units = state.units.len();
            for _ in 0..100 {
                let from = UnitId(rng.random_range(0..n_units));
                let enemies = active_ids(&state, GameState::enemy_of(state.unit(from).side));
                let mut all: Vec<(UnitId, f64)> = enemies
                    .iter()
                    .map(|e| (*e, memo.distance(&state, from, *e)))
                    .collect();
                all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                let ruled = act::rank_by_target_rule(&state, all.iter().copied());
                let measured = read::Measured::new(&state, &memo, from, &enemies);
                let near = measured.by_distance.len();
                assert_eq!(measured.by_distance[..], all[..near], "{name} seed {seed}");
                let mut whole = measured.clone();
                whole.measure_all(&state, &memo);
                assert!(whole.complete());
                assert_eq!(whole.by_distance, all, "{name} seed {seed}");
                let mut ranked = act::Ranked::new(&state, measured.clone());
                assert_eq!(ranked.list()[..], ruled[..ranked.list().len()]);
                if ranked.complete() {
                    completed += 1;
                } else {
                    partial += 1;
                }
                // The first with one of a few hits, of a side (none), or
                // in the frontal arc.
                let hits = rng.random_range(0..3);
                let found = ranked.find(&state, &memo, |e| state.unit(e).hits == hits);
                let expected = ruled
                    .iter()
                    .copied()
                    .find(|(e, _)| state.unit(*e).hits == hits);
                assert_eq!(found, expected, "{name} seed {seed}");
                let mut ranked = act::Ranked::new(&state, measured.clone());
                let arc = |e: UnitId| memo.in_frontal_arc(&state, from, e);
                let found = ranked.find(&state, &memo, arc);
                assert_eq!(found, ruled.iter().copied().find(|(e, _)| arc(*e)));
                let mut ranked = act::Ranked::new(&state, measured);
                let limit = rng.random_range(0.0..40.0);
                let within: Vec<_> = ranked
                    .up_to(&state, &memo, limit)
                    .iter()
                    .copied()
                    .filter(|(_, distance)| *distance <= limit)
                    .collect();
                let expected: Vec<_> = ruled
                    .iter()
                    .copied()
                    .filter(|(_, distance)| *distance <= limit)
                    .collect();
                assert_eq!(within, expected, "{name} seed {seed}: within {limit}");
                let unranked: Vec<UnitId> = ranked.unranked().collect();
                assert_eq!(unranked.len() + ranked.list().len(), all.len());
            }
        }
    }
    assert!(partial > 200 && completed > 200, "{partial} {completed}");
}

/// A charge the opponent judges surely out of reach by the centres alone
/// is one the engine refuses, quick check or full: over the scatterings
/// above, every unit of the side to move against every enemy within 30"
/// of it (facing it half the time); and, head on across open ground, at
/// every distance from 3" to 30" (centre to centre) by twentieths of an
/// inch, where the charges right up to the allowance are lawful.
#[test]
fn a_charge_surely_beyond_reach_is_refused() {
    use rand::SeedableRng;
    let mut beyond = 0;
    for (name, seeds) in [("guilford", 20), ("stress", 2)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_500 + seed);
            let mut state = scattered(name, seed, &mut rng);
            // Some scatterings end the game (a side's units all off the
            // table or routed): those have no charges to ask about.
            let side = (seed % 2) as usize;
            while !(state.is_over() || state.active == side && state.phase() == Phase::Movement) {
                state.apply(&Action::EndPhase, &mut dice([])).unwrap();
            }
            if state.is_over() {
                continue;
            }
            for from in 0..state.units.len() {
                let unit = &state.units[from];
                if unit.side != side || !unit.is_active() {
                    continue;
                }
                let base = unit.base;
                for to in 0..state.units.len() {
                    let enemy = state.units[to].base;
                    if state.units[to].side == side || base.centre.distance(enemy.centre) > 30.0 {
                        continue;
                    }
                    if to % 2 == 0 {
                        let facing = (enemy.centre - base.centre).bearing();
                        crate::rules::fixture::stand(&mut state, from, base.centre, facing);
                    }
                    let charge = Action::Charge {
                        unit: UnitId(from),
                        target: UnitId(to),
                    };
                    let (quick, full) =
                        (state.checked(&charge, true), state.checked(&charge, false));
                    assert_eq!(
                        quick.is_ok(),
                        full.is_ok(),
                        "{name} seed {seed}: {charge:?}"
                    );
                    if act::surely_beyond_charge(&state, UnitId(from), UnitId(to)) {
                        assert!(full.is_err(), "{name} seed {seed}: {charge:?}");
                        beyond += 1;
                    }
                    state.units[from].base = base;
                }
            }
        }
    }
    assert!(beyond > 5_000, "{beyond}");
    let (mut lawful, mut last_lawful, mut first_beyond) = (0, 0.0_f64, f64::INFINITY);
    for troop in ["cavalry", "militia"] {
        let mut state = game(
            &[("Chargers", troop, 24.0, 4.0, NORTH)],
            &[("Target", "militia", 24.0, 7.0, SOUTH)],
        );
        let (chargers, target) = (unit(&state, "Chargers"), unit(&state, "Target"));
        for step in 60..=600 {
            let gap = f64::from(step) * 0.05;
            crate::rules::fixture::stand(&mut state, target.0, p(24.0, 4.0 + gap), SOUTH);
            let charge = Action::Charge {
                unit: chargers,
                target,
            };
            let full = state.checked(&charge, false);
            if act::surely_beyond_charge(&state, chargers, target) {
                assert!(full.is_err(), "{troop} at {gap}");
                first_beyond = first_beyond.min(gap);
            } else if full.is_ok() {
                lawful += 1;
                last_lawful = last_lawful.max(gap);
            }
        }
    }
    // Lawful up to the allowance; judged beyond within two bases' reach of
    // the last lawful charge.
    assert!(lawful > 100, "{lawful}");
    assert!(
        first_beyond - last_lawful < 6.0,
        "{last_lawful} {first_beyond}"
    );
}

/// The enemies in range through the units' spatial index are exactly the
/// scan's, in the same order, over seeded scatterings of Guilford's and
/// the stress test's units (on and off the table, crowded, routed).
#[test]
fn side_ranked_within_is_ranked_within_of_the_side() {
    use rand::{RngExt, SeedableRng};
    let mut found = 0;
    for (name, seeds) in [("guilford", 20), ("stress", 3)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_200 + seed);
            let state = scattered(name, seed, &mut rng);
            let memo = memo::UnitMemo::default();
            for _ in 0..200 {
                let from = UnitId(rng.random_range(0..state.units.len()));
                let side = rng.random_range(0..2);
                let limit = rng.random_range(0.0..30.0);
                let all = active_ids(&state, side);
                let scanned = act::ranked_within(&state, &memo, from, &all, limit);
                let indexed = act::side_ranked_within(&state, &memo, from, side, limit);
                assert_eq!(
                    indexed, scanned,
                    "{name} seed {seed}: {from:?} side {side} within {limit}"
                );
                found += usize::from(!scanned.is_empty());
            }
        }
    }
    assert!(found > 1_000, "{found}");
}

/// Seed 004's advance-and-fire variant: "Light infantry in the open seeing
/// cavalry, form close order." The light infantry forms close order where
/// it stands (the opponent keeps the formation, ruling O6), neither moving
/// nor firing.
#[test]
fn light_infantry_in_the_open_seeing_cavalry_forms_close_order() {
    let start = game(
        &[("Light", "light-infantry", 24.0, 10.0, NORTH)],
        &[("Dragoons", "cavalry", 24.0, 20.0, SOUTH)],
    );
    let mut advanced = 0;
    for die in 1..=6 {
        let mut state = start.clone();
        let mut opponent = opponent(&state, 0);
        let report = movement(&mut opponent, &mut state, &[die]);
        let light = decision(&report, "Light");
        assert!(light.reading.situation.sees_cavalry, "die {die}");
        if light.outcome.order != Order::AdvanceAndFire {
            continue;
        }
        advanced += 1;
        assert!(
            light.outcome.instruction.does.contains("form close order"),
            "die {die}: {}",
            light.outcome.instruction.does
        );
        assert!(light.actions.is_empty(), "die {die}: it stands");
        assert!(
            opponent.pending_fire.is_empty(),
            "die {die}: it does not fire"
        );
        assert_eq!(
            opponent.units[light.unit.0].as_ref().unwrap().formation,
            Formation::CloseOrder,
            "die {die}"
        );
    }
    assert!(advanced > 0, "no die gave advance and fire");
}

/// Ruling O12: a withdrawal goes to the unit's rear. Within 6" of an
/// enemy, seed 000 lets it move only directly away from one; here the one
/// enemy stands behind it (between it and its own edge), so directly away
/// is towards the enemy's side of the table. It does not go: it is
/// hemmed in, and says so.
#[test]
fn a_withdrawal_never_goes_towards_the_enemys_side_to_get_away() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 20.0, NORTH)],
        &[("Militia", "militia", 24.0, 15.25, NORTH)],
    );
    let mut opponent = opponent(&state, 0);
    state.units[0].hits = 6;
    // +2 open, -1 within 6", -3 figures lost (6 hits, ruling O3), die 1: -1.
    let report = movement(&mut opponent, &mut state, &[1]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::Withdraw);
    assert_eq!(moved(regulars), None, "{:?}", regulars.events);
    assert_eq!(state.unit(regulars.unit).base.centre, p(24.0, 20.0));
}
