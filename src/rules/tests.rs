//! One test per seed-000 rule clause, with forced dice.
//!
//! Clause → test:
//! - Troop types and base sizes ............ `bases_come_from_the_troop_types`
//! - Sequence of play as data .............. `the_turn_sequence_is_data`, `procedure_phases_end_by_themselves`
//! - Movement allowances 6"/6"/12" ......... `movement_allowances`
//! - Straight lines except along roads ..... `road_moves_stay_on_the_road_and_earn_3_inches`
//! - Roads +3" ............................. `road_moves_stay_on_the_road_and_earn_3_inches`
//! - Woods: half for foot, barred to horse and guns `woods_halve_foot_and_bar_horse_and_guns`
//! - Towns: half, barred to horse and guns except by road `towns_bar_horse_and_guns_except_by_road`
//! - Marsh/lakes impassable; rivers only at fords, half `marsh_lake_and_river_block_fords_halve`
//! - Hills: half uphill only ............... `hills_halve_uphill_movement_only`
//! - Pivots at the start and/or end ........ `pivots_at_the_start_and_end_of_a_move`
//! - No shooting after moving or pivoting .. `no_shooting_after_moving_or_pivoting`
//! - No interpenetration ................... `units_cannot_move_through_units`
//! - Enemy presence within 6" .............. `within_6_inches_only_directly_towards_or_away`
//! - A move that is not a charge cannot contact (ruling) `contact_is_only_by_charging`
//! - Charge: contact by movement ........... `a_charge_ends_in_contact_and_melee_waits_for_its_phase`
//! - Charge: one pivot of at most 45° ...... `a_charge_pivots_at_most_45_degrees`
//! - Charge: one charger per enemy unit .... `an_enemy_unit_is_charged_by_one_unit_only`
//! - Charge: no road bonus ................. `charges_earn_no_road_bonus`
//! - Charge restrictions by type ........... `who_may_charge_whom`
//! - Musket: 45° arc ....................... `musket_targets_must_be_in_the_frontal_arc`
//! - Musket: no friend within 3" of target . `no_shooting_at_a_target_with_a_friend_within_3`
//! - Musket: 6" range ...................... `muskets_reach_6_inches`
//! - Musket modifiers in order ............. `musket_modifiers_apply_in_the_order_listed`, `skirmishers_shoot_at_minus_1`
//! - Target in cover: cover between it and the shooter `a_fence_covers_only_against_an_enemy_beyond_it`
//! - Seed 004's volleys: double, at −1 ... `double_volleys_double_and_a_hasty_volley_is_minus_1`
//! - Artillery: bounds, woods/buildings ... `artillery_deducts_range_bounds_and_1_for_woods`
//! - Melee: both roll, modifiers ........... `melee_both_roll_with_modifiers_and_the_most_hit_retreats`
//! - Melee: doubled for flank/rear ......... `flank_attacks_double`
//! - Melee: doubled against artillery ...... `attacking_artillery_doubles`
//! - Melee: −1 charging cover/uphill ....... `charging_into_cover_is_minus_1`
//! - Melee retreat: full move, face away ... `melee_both_roll_with_modifiers_and_the_most_hit_retreats`
//! - Melee ties (ruling) ................... `on_equal_hits_the_charger_retreats`
//! - Retreat off the table (ruling) ........ `a_retreat_off_the_table_drives_the_unit_off`
//! - Retreat blocked (ruling) .............. `a_blocked_retreat_stops_short`
//! - Rout at 13 / 9 ........................ `infantry_rout_at_13_and_cavalry_at_9`
//! - Army resolve, 2 hits, once ............ `army_resolve_strikes_once_with_2_hits`
//! - Rally: 12", one per turn, points, maxima `rally_points_spread_with_maxima_within_12`
//! - Rally: artillery and cavalry never .... `artillery_and_cavalry_cannot_be_rallied`
//! - Rally: one per general per turn, budget `one_rally_per_turn_and_the_budget_runs_out`
//! - Rally budget guidelines (Guilford 8/4)  `rally_budget_reproduces_guilford`
//! - Victory: rout fraction ................ `rout_fraction_wins`
//! - Victory: rout or exit ................. `rout_or_exit_wins`
//! - Victory: hold area, draw at the end ... `the_last_turn_ends_in_a_draw_or_a_held_area`
//! - Refusal leaves the state unchanged .... `a_refused_action_changes_nothing`
//! - Rule numbers from YAML, located errors  `rules_table_problems_are_located`

use super::fixture::{Placed, SmallGame, rules_table};
use super::*;
use crate::battlefield::tests::p;
use crate::battlefield::{Base, Shape};
use crate::dice::Scripted;
use crate::ruleset::{BUILTIN, Ruleset};
use crate::yaml::Source;

/// A game on a 48"×48" table with `features`: British (side 0, south edge,
/// moving first) and Americans (side 1, north edge), each with a general
/// with 3 rallies, for 3 turns.
fn game(
    features: &[(&str, Shape, f64)],
    british: &[Placed<'_>],
    americans: &[Placed<'_>],
) -> GameState {
    SmallGame::new(british, americans)
        .features(features)
        .turns(3)
        .build()
}

fn id(state: &GameState, name: &str) -> UnitId {
    state.find_unit(name).unwrap()
}

fn no_dice() -> Scripted {
    Scripted::new([])
}

/// End phases until `phase` of the side `side` is reached.
fn go_to(state: &mut GameState, side: usize, phase: Phase) -> Vec<Event> {
    let mut events = Vec::new();
    while !(state.active == side && state.phase() == phase) {
        events.extend(state.apply(&Action::EndPhase, &mut no_dice()).unwrap());
    }
    events
}

fn refusal(state: &mut GameState, action: Action) -> String {
    let before = format!("{:?}{:?}", state.units, state.generals);
    let refused = state.apply(&action, &mut no_dice()).unwrap_err();
    assert_eq!(before, format!("{:?}{:?}", state.units, state.generals));
    refused.to_string()
}

fn ok(state: &mut GameState, action: Action, rolls: &[u8]) -> Vec<Event> {
    let mut dice = Scripted::new(rolls.iter().copied());
    let events = state
        .apply(&action, &mut dice)
        .unwrap_or_else(|refusal| panic!("{action:?} refused: {refusal}"));
    assert_eq!(dice.remaining(), 0, "unused dice");
    events
}

fn mv(unit: UnitId, x: f64, y: f64, facing: f64) -> Action {
    Action::Move {
        unit,
        to: p(x, y),
        facing,
    }
}

fn fired_hits(events: &[Event]) -> (u32, Vec<i32>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Fired {
                hits, modifiers, ..
            } => Some((*hits, modifiers.iter().map(|m| m.score).collect())),
            _ => None,
        })
        .expect("a Fired event")
}

fn woods(min: (f64, f64), max: (f64, f64)) -> (&'static str, Shape, f64) {
    (
        "woods",
        Shape::Rect {
            min: p(min.0, min.1),
            max: p(max.0, max.1),
        },
        0.0,
    )
}

#[test]
fn bases_come_from_the_troop_types() {
    let state = game(
        &[],
        &[
            ("Foot", "british-regulars", 10.0, 10.0, 0.0),
            ("Horse", "cavalry", 20.0, 10.0, 0.0),
            ("Guns", "artillery", 30.0, 10.0, 0.0),
        ],
        &[("Rifles", "riflemen", 10.0, 40.0, 180.0)],
    );
    let frontages: Vec<f64> = state.units.iter().map(|u| u.base.frontage).collect();
    assert_eq!(frontages, [4.0, 3.0, 2.0, 4.0]);
    assert_eq!(state.generals[0].base.frontage, 2.0);
    assert_eq!(
        state.units[3].category,
        crate::ruleset::Category::Skirmisher
    );
}

#[test]
fn the_turn_sequence_is_data() {
    let rules = rules_table();
    let phases: Vec<Phase> = rules.phases.iter().map(|rule| rule.phase).collect();
    assert_eq!(
        phases,
        [
            Phase::Movement,
            Phase::Shooting,
            Phase::Melee,
            Phase::Rout,
            Phase::Rallying
        ]
    );
    let mut state = game(&[], &[("A", "militia", 10.0, 10.0, 0.0)], &[]);
    assert_eq!(
        (state.turn, state.active, state.phase()),
        (1, 0, Phase::Movement)
    );
    go_to(&mut state, 1, Phase::Movement);
    assert_eq!(state.turn, 1);
    go_to(&mut state, 0, Phase::Movement);
    assert_eq!(state.turn, 2);
}

#[test]
fn procedure_phases_end_by_themselves() {
    let mut state = game(&[], &[("A", "militia", 10.0, 10.0, 0.0)], &[]);
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(&mut state, Action::EndPhase, &[]);
    let ended: Vec<Phase> = events
        .iter()
        .filter_map(|e| match e {
            Event::PhaseEnded { phase, .. } => Some(*phase),
            _ => None,
        })
        .collect();
    assert_eq!(ended, [Phase::Shooting, Phase::Melee, Phase::Rout]);
    assert_eq!(state.phase(), Phase::Rallying);
}

#[test]
fn movement_allowances() {
    let mut state = game(
        &[],
        &[
            ("Foot", "british-regulars", 10.0, 10.0, 0.0),
            ("Horse", "cavalry", 20.0, 10.0, 0.0),
            ("Light", "british-light-infantry", 30.0, 10.0, 0.0),
            ("Guns", "artillery", 40.0, 10.0, 0.0),
        ],
        &[],
    );
    let [foot, horse, light, guns] = ["Foot", "Horse", "Light", "Guns"].map(|n| id(&state, n));
    let text = refusal(&mut state, mv(foot, 10.0, 16.2, 0.0));
    assert!(text.contains("the allowance is 6\""), "{text}");
    ok(&mut state, mv(foot, 10.0, 16.0, 0.0), &[]);
    refusal(&mut state, mv(horse, 20.0, 22.2, 0.0));
    ok(&mut state, mv(horse, 20.0, 22.0, 0.0), &[]);
    refusal(&mut state, mv(light, 30.0, 16.2, 0.0));
    ok(&mut state, mv(light, 30.0, 16.0, 0.0), &[]);
    refusal(&mut state, mv(guns, 40.0, 16.2, 0.0));
    ok(&mut state, mv(guns, 40.0, 16.0, 0.0), &[]);
    let text = refusal(&mut state, mv(foot, 10.0, 17.0, 0.0));
    assert!(text.contains("already moved this turn"), "{text}");
}

fn road(points: &[(f64, f64)]) -> (&'static str, Shape, f64) {
    (
        "road",
        Shape::Line {
            points: points.iter().map(|(x, y)| p(*x, *y)).collect(),
            width: 1.0,
        },
        0.0,
    )
}

#[test]
fn road_moves_stay_on_the_road_and_earn_3_inches() {
    let features = [road(&[(24.0, 0.0), (24.0, 20.0), (34.0, 30.0)])];
    let mut state = game(
        &features,
        &[("Foot", "british-regulars", 24.0, 5.0, 0.0)],
        &[],
    );
    let foot = id(&state, "Foot");
    // 9" along the road: 6" plus the 3" road bonus.
    let mut on_road = state.clone();
    ok(
        &mut on_road,
        Action::MoveRoad {
            unit: foot,
            path: vec![p(24.0, 14.0)],
            facing: 0.0,
        },
        &[],
    );
    refusal(
        &mut state.clone(),
        Action::MoveRoad {
            unit: foot,
            path: vec![p(24.0, 14.5)],
            facing: 0.0,
        },
    );
    // The same 9" straight but off the road earns nothing.
    let text = refusal(&mut state, mv(foot, 24.0, 14.0, 0.0));
    assert!(text.contains("allowance is 6\""), "{text}");
    // A road move bends with the road; leaving it is refused.
    let mut bend = game(
        &features,
        &[("Foot", "british-regulars", 24.0, 16.0, 0.0)],
        &[],
    );
    let foot = id(&bend, "Foot");
    ok(
        &mut bend.clone(),
        Action::MoveRoad {
            unit: foot,
            path: vec![p(24.0, 20.0), p(27.0, 23.0)],
            facing: 45.0,
        },
        &[],
    );
    let text = refusal(
        &mut bend,
        Action::MoveRoad {
            unit: foot,
            path: vec![p(24.0, 20.0), p(20.0, 23.0)],
            facing: 0.0,
        },
    );
    assert!(text.contains("leaves the road"), "{text}");
}

#[test]
fn woods_halve_foot_and_bar_horse_and_guns() {
    let features = [woods((0.0, 12.0), (48.0, 30.0))];
    let mut state = game(
        &features,
        &[
            ("Foot", "militia", 10.0, 13.0, 0.0),
            ("Horse", "cavalry", 20.0, 8.0, 0.0),
            ("Guns", "artillery", 30.0, 8.0, 0.0),
        ],
        &[],
    );
    let [foot, horse, guns] = ["Foot", "Horse", "Guns"].map(|n| id(&state, n));
    ok(&mut state.clone(), mv(foot, 10.0, 16.0, 0.0), &[]);
    let text = refusal(&mut state, mv(foot, 10.0, 16.2, 0.0));
    assert!(text.contains("allowance is 6\""), "{text}");
    let text = refusal(&mut state, mv(horse, 20.0, 14.0, 0.0));
    assert!(text.contains("impassable"), "{text}");
    refusal(&mut state, mv(guns, 30.0, 13.0, 0.0));
}

#[test]
fn towns_bar_horse_and_guns_except_by_road() {
    let town = (
        "town",
        Shape::Rect {
            min: p(0.0, 20.0),
            max: p(48.0, 30.0),
        },
        0.0,
    );
    let features = [town, road(&[(24.0, 0.0), (24.0, 48.0)])];
    let mut state = game(
        &features,
        &[
            ("Foot", "militia", 10.0, 21.0, 0.0),
            ("Guns", "artillery", 24.0, 18.0, 0.0),
            ("Horse", "cavalry", 34.0, 18.0, 0.0),
        ],
        &[],
    );
    let [foot, guns, horse] = ["Foot", "Guns", "Horse"].map(|n| id(&state, n));
    ok(&mut state.clone(), mv(foot, 10.0, 24.0, 0.0), &[]);
    refusal(&mut state, mv(foot, 10.0, 24.5, 0.0));
    refusal(&mut state, mv(horse, 34.0, 22.0, 0.0));
    ok(
        &mut state,
        Action::MoveRoad {
            unit: guns,
            path: vec![p(24.0, 26.0)],
            facing: 0.0,
        },
        &[],
    );
}

#[test]
fn marsh_lake_and_river_block_fords_halve() {
    let band = |kind: &'static str, y: f64| {
        (
            kind,
            Shape::Rect {
                min: p(0.0, y),
                max: p(48.0, y + 2.0),
            },
            0.0,
        )
    };
    let ford = (
        "ford",
        Shape::Rect {
            min: p(30.0, 13.0),
            max: p(34.0, 15.0),
        },
        0.0,
    );
    let features = [
        band("river", 13.0),
        ford,
        band("marsh", 33.0),
        band("lake", 40.0),
    ];
    let mut state = game(
        &features,
        &[
            ("Foot", "militia", 10.0, 11.0, 0.0),
            ("Fording", "militia", 32.0, 12.0, 0.0),
            ("Marsh", "militia", 10.0, 31.0, 0.0),
            ("Lake", "militia", 20.0, 38.0, 0.0),
        ],
        &[],
    );
    let [foot, fording, marsh, lake] = ["Foot", "Fording", "Marsh", "Lake"].map(|n| id(&state, n));
    refusal(&mut state, mv(foot, 10.0, 16.0, 0.0));
    refusal(&mut state, mv(marsh, 10.0, 36.0, 0.0));
    refusal(&mut state, mv(lake, 20.0, 43.0, 0.0));
    // Across the 2" ford at half speed: 1" + 2×2" + 0.9" = 5.9" of movement for 3.9".
    ok(&mut state.clone(), mv(fording, 32.0, 15.9, 0.0), &[]);
    refusal(&mut state, mv(fording, 32.0, 16.3, 0.0));
}

#[test]
fn hills_halve_uphill_movement_only() {
    let hill = (
        "hill",
        Shape::Rect {
            min: p(0.0, 20.0),
            max: p(48.0, 48.0),
        },
        1.0,
    );
    let mut state = game(
        &[hill],
        &[("Up", "militia", 10.0, 17.0, 0.0)],
        &[("Down", "militia", 30.0, 30.0, 180.0)],
    );
    let up = id(&state, "Up");
    // Uphill from y=20 the ground keeps rising, so the last inches cost double.
    refusal(&mut state, mv(up, 10.0, 23.0, 0.0));
    ok(&mut state, mv(up, 10.0, 21.4, 0.0), &[]);
    go_to(&mut state, 1, Phase::Movement);
    let down = id(&state, "Down");
    ok(&mut state, mv(down, 30.0, 24.0, 180.0), &[]);
}

#[test]
fn pivots_at_the_start_and_end_of_a_move() {
    let mut state = game(&[], &[("Foot", "militia", 10.0, 10.0, 0.0)], &[]);
    let foot = id(&state, "Foot");
    ok(
        &mut state,
        Action::Pivot {
            unit: foot,
            facing: 90.0,
        },
        &[],
    );
    let text = refusal(
        &mut state,
        Action::Pivot {
            unit: foot,
            facing: 180.0,
        },
    );
    assert!(text.contains("start and/or end of a move"), "{text}");
    let events = ok(&mut state, mv(foot, 16.0, 10.0, 45.0), &[]);
    assert!(matches!(events[0], Event::Moved { facing, .. } if (facing - 45.0).abs() < 1e-9));
    refusal(
        &mut state,
        Action::Pivot {
            unit: foot,
            facing: 0.0,
        },
    );
}

#[test]
fn no_shooting_after_moving_or_pivoting() {
    let mut state = game(
        &[],
        &[
            ("Mover", "british-regulars", 10.0, 10.0, 0.0),
            ("Pivoter", "british-regulars", 20.0, 10.0, 0.0),
        ],
        &[
            ("T1", "militia", 10.0, 17.0, 180.0),
            ("T2", "militia", 20.0, 17.0, 180.0),
        ],
    );
    let [mover, pivoter, t1, t2] = ["Mover", "Pivoter", "T1", "T2"].map(|n| id(&state, n));
    ok(&mut state, mv(mover, 10.0, 11.0, 0.0), &[]);
    ok(
        &mut state,
        Action::Pivot {
            unit: pivoter,
            facing: 0.0,
        },
        &[],
    );
    go_to(&mut state, 0, Phase::Shooting);
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: mover,
            target: t1,
            volley: Volley::Single,
        },
    );
    assert_eq!(text, "cannot shoot with `Mover`: the unit moved this turn");
    refusal(
        &mut state,
        Action::Fire {
            unit: pivoter,
            target: t2,
            volley: Volley::Single,
        },
    );
    // Next turn, standing still, they may.
    ok(&mut state, Action::EndPhase, &[]);
    go_to(&mut state, 0, Phase::Shooting);
    ok(
        &mut state,
        Action::Fire {
            unit: mover,
            target: t1,
            volley: Volley::Single,
        },
        &[3],
    );
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: mover,
            target: t1,
            volley: Volley::Single,
        },
    );
    assert!(text.contains("already fired"), "{text}");
}

#[test]
fn units_cannot_move_through_units() {
    let mut state = game(
        &[],
        &[
            ("Back", "militia", 10.0, 10.0, 0.0),
            ("Front", "militia", 10.0, 13.0, 0.0),
        ],
        &[],
    );
    let back = id(&state, "Back");
    let text = refusal(&mut state, mv(back, 10.0, 16.0, 0.0));
    assert!(text.contains("through `Front`"), "{text}");
    ok(&mut state, mv(back, 15.0, 10.0, 0.0), &[]);
}

#[test]
fn within_6_inches_only_directly_towards_or_away() {
    let mut state = game(
        &[],
        &[("Foot", "militia", 20.0, 10.0, 0.0)],
        &[("Enemy", "militia", 20.0, 16.0, 180.0)],
    );
    let foot = id(&state, "Foot");
    let text = refusal(&mut state, mv(foot, 24.0, 10.0, 0.0));
    assert!(text.contains("within 6\" of an enemy"), "{text}");
    refusal(&mut state, mv(foot, 22.0, 12.0, 0.0));
    ok(&mut state.clone(), mv(foot, 20.0, 4.0, 0.0), &[]);
    ok(&mut state.clone(), mv(foot, 20.0, 13.0, 0.0), &[]);
    // Within "directly" (10°).
    ok(&mut state, mv(foot, 20.5, 5.0, 0.0), &[]);
}

#[test]
fn contact_is_only_by_charging() {
    let mut state = game(
        &[],
        &[("Foot", "militia", 20.0, 10.0, 0.0)],
        &[("Enemy", "militia", 20.0, 16.0, 180.0)],
    );
    let foot = id(&state, "Foot");
    let text = refusal(&mut state, mv(foot, 20.0, 14.5, 0.0));
    assert!(
        text.contains("contact with the enemy is a charge"),
        "{text}"
    );
}

#[test]
fn a_charge_ends_in_contact_and_melee_waits_for_its_phase() {
    let mut state = game(
        &[],
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[("Enemy", "militia", 20.0, 15.0, 180.0)],
    );
    let [foot, enemy] = ["Foot", "Enemy"].map(|n| id(&state, n));
    let events = ok(
        &mut state,
        Action::Charge {
            unit: foot,
            target: enemy,
        },
        &[],
    );
    assert!(matches!(
        events[0],
        Event::Charged {
            flank_or_rear: false,
            ..
        }
    ));
    assert!(state.in_contact(foot, enemy));
    assert_eq!(state.units[enemy.0].hits, 0);
    // Moving → shooting: no melee yet. Shooting → melee: fought.
    ok(&mut state, Action::EndPhase, &[]);
    let events = ok(&mut state, Action::EndPhase, &[4, 3]);
    assert!(events.iter().any(|e| matches!(e, Event::Melee { .. })));
}

#[test]
fn a_charge_pivots_at_most_45_degrees() {
    let mut state = game(
        &[],
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[
            ("Ahead", "militia", 24.0, 14.0, 180.0),
            ("Aside", "militia", 26.0, 11.0, 270.0),
        ],
    );
    let [foot, ahead, aside] = ["Foot", "Ahead", "Aside"].map(|n| id(&state, n));
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: foot,
            target: aside,
        },
    );
    assert!(text.contains("at most 45°"), "{text}");
    ok(
        &mut state,
        Action::Charge {
            unit: foot,
            target: ahead,
        },
        &[],
    );
}

#[test]
fn an_enemy_unit_is_charged_by_one_unit_only() {
    let mut state = game(
        &[],
        &[
            ("Left", "british-regulars", 16.0, 10.0, 0.0),
            ("Right", "british-regulars", 24.0, 10.0, 0.0),
        ],
        &[("Enemy", "militia", 20.0, 14.0, 180.0)],
    );
    let [left, right, enemy] = ["Left", "Right", "Enemy"].map(|n| id(&state, n));
    ok(
        &mut state,
        Action::Charge {
            unit: left,
            target: enemy,
        },
        &[],
    );
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: right,
            target: enemy,
        },
    );
    assert!(text.contains("may only be charged by one unit"), "{text}");
}

#[test]
fn charges_earn_no_road_bonus() {
    let features = [road(&[(20.0, 0.0), (20.0, 48.0)])];
    let mut state = game(
        &features,
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[("Enemy", "militia", 20.0, 19.0, 180.0)],
    );
    let [foot, enemy] = ["Foot", "Enemy"].map(|n| id(&state, n));
    // 7.5" to contact: within 6" + 3" by road, not within a charge's 6".
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: foot,
            target: enemy,
        },
    );
    assert!(text.contains("allowance is 6\""), "{text}");
}

/// The quick yes-or-no (which skips the contact point for targets surely
/// out of reach) agrees with the full check on every charge near the edge of
/// reach: open ground, along a road, into woods and up a hill, for foot and
/// horse, straight ahead and at an angle.
#[test]
fn quick_charge_answers_agree_with_the_full_check() {
    let hill = (
        "hill",
        Shape::Rect {
            min: p(30.0, 24.0),
            max: p(48.0, 48.0),
        },
        1.0,
    );
    let grounds = [
        Vec::new(),
        vec![road(&[(20.0, 0.0), (20.0, 48.0)])],
        vec![woods((14.0, 16.0), (26.0, 30.0))],
        vec![hill],
    ];
    let mut compared = 0;
    for features in &grounds {
        for (troop, x) in [
            ("british-regulars", 20.0),
            ("cavalry", 20.0),
            ("cavalry", 38.0),
        ] {
            let mut state = game(
                features,
                &[("Charger", troop, x, 10.0, 0.0)],
                &[("Target", "militia", x, 40.0, 180.0)],
            );
            let charge = Action::Charge {
                unit: id(&state, "Charger"),
                target: id(&state, "Target"),
            };
            let target = id(&state, "Target");
            for gap in 0..=40 {
                for (side_step, facing) in [(0.0, 180.0), (0.0, 90.0), (1.5, 135.0), (4.0, 180.0)] {
                    let y = 10.0 + 3.0 + 0.25 * f64::from(gap);
                    let base = &mut state.units[target.0].base;
                    *base = Base::new(p(x + side_step, y + 6.0), facing, base.frontage, base.depth);
                    assert_eq!(
                        state.allows(&charge),
                        state.check(&charge).is_ok(),
                        "{troop} at {x}, target {side_step}\" aside and {y}\" up facing {facing}, on {features:?}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 4 * 3 * 41 * 4);
}

#[test]
fn who_may_charge_whom() {
    let mut state = game(
        &[],
        &[
            ("Light", "british-light-infantry", 6.0, 10.0, 0.0),
            ("Foot", "british-regulars", 16.0, 10.0, 0.0),
            ("Horse", "cavalry", 26.0, 10.0, 0.0),
            ("Guns", "artillery", 36.0, 10.0, 0.0),
        ],
        &[
            ("Rifles", "riflemen", 6.0, 14.0, 180.0),
            ("Militia", "militia", 16.0, 14.0, 180.0),
            ("Gun", "artillery", 26.0, 14.0, 180.0),
            ("Target", "militia", 36.0, 14.0, 180.0),
        ],
    );
    let names = state.clone();
    let unit = |n| id(&names, n);
    let charge = |a, b| Action::Charge { unit: a, target: b };
    let text = refusal(&mut state, charge(unit("Light"), unit("Militia")));
    assert_eq!(
        text,
        "cannot charge `Militia`: british-light-infantry may only charge skirmisher"
    );
    let text = refusal(&mut state, charge(unit("Foot"), unit("Gun")));
    assert!(
        text.contains("may only charge skirmisher and infantry"),
        "{text}"
    );
    let text = refusal(&mut state, charge(unit("Guns"), unit("Target")));
    assert_eq!(text, "cannot charge: artillery never charge");
    ok(
        &mut state.clone(),
        charge(unit("Foot"), unit("Militia")),
        &[],
    );
    ok(&mut state.clone(), charge(unit("Horse"), unit("Gun")), &[]);
    ok(&mut state, charge(unit("Light"), unit("Rifles")), &[]);
}

#[test]
fn musket_targets_must_be_in_the_frontal_arc() {
    let mut state = game(
        &[],
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[
            ("Ahead", "militia", 25.0, 15.0, 180.0),
            ("Aside", "militia", 27.0, 9.0, 270.0),
        ],
    );
    let [foot, ahead, aside] = ["Foot", "Ahead", "Aside"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: foot,
            target: aside,
            volley: Volley::Single,
        },
    );
    assert!(text.contains("within 45 degrees"), "{text}");
    ok(
        &mut state,
        Action::Fire {
            unit: foot,
            target: ahead,
            volley: Volley::Single,
        },
        &[3],
    );
}

#[test]
fn no_shooting_at_a_target_with_a_friend_within_3() {
    let mut state = game(
        &[],
        &[
            ("Foot", "british-regulars", 20.0, 10.0, 0.0),
            ("Friend", "british-regulars", 26.5, 15.0, 0.0),
        ],
        &[("Enemy", "militia", 20.0, 15.0, 180.0)],
    );
    let [foot, enemy] = ["Foot", "Enemy"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: foot,
            target: enemy,
            volley: Volley::Single,
        },
    );
    assert!(
        text.contains("friendly unit `Friend` is within 3\""),
        "{text}"
    );
}

#[test]
fn muskets_reach_6_inches() {
    let mut state = game(
        &[],
        &[
            ("Near", "militia", 10.0, 10.0, 0.0),
            ("Far", "militia", 30.0, 10.0, 0.0),
        ],
        &[
            ("A", "militia", 10.0, 17.5, 180.0),
            ("B", "militia", 30.0, 17.6, 180.0),
        ],
    );
    let [near, far, a, b] = ["Near", "Far", "A", "B"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: far,
            target: b,
            volley: Volley::Single,
        },
    );
    assert!(text.contains("range is 6\""), "{text}");
    ok(
        &mut state,
        Action::Fire {
            unit: near,
            target: a,
            volley: Volley::Single,
        },
        &[2],
    );
}

#[test]
fn musket_modifiers_apply_in_the_order_listed() {
    let features = [woods((0.0, 15.5), (48.0, 20.0))];
    let mut state = game(
        &features,
        &[
            ("Grenadiers", "grenadiers", 10.0, 10.0, 0.0),
            ("Regulars", "british-regulars", 30.0, 10.0, 0.0),
        ],
        &[
            ("A", "militia", 10.0, 16.0, 180.0),
            ("B", "militia", 30.0, 16.0, 180.0),
        ],
    );
    let [grenadiers, regulars, a, b] = ["Grenadiers", "Regulars", "A", "B"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    // 4, +2 grenadiers = 6, −1 cover = 5.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: grenadiers,
            target: a,
            volley: Volley::Single,
        },
        &[4],
    );
    assert_eq!(fired_hits(&events), (5, vec![6, 5]));
    assert_eq!(state.units[a.0].hits, 5);
    // 2, +1 regulars = 3, −1 cover = 2.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: regulars,
            target: b,
            volley: Volley::Single,
        },
        &[2],
    );
    assert_eq!(fired_hits(&events), (2, vec![3, 2]));
}

/// Issue 15: seed 000's "target in cover" is cover between the target and
/// the shooter. A fence under the front of a base covers it from an enemy
/// beyond the fence; a fence under the rear of a base, with the shooter on
/// the unit's own side, does not, though it covers the same unit from an
/// enemy beyond it.
#[test]
fn a_fence_covers_only_against_an_enemy_beyond_it() {
    let fence = (
        "fence",
        Shape::Line {
            points: vec![p(0.0, 18.0), p(48.0, 18.0)],
            width: 0.5,
        },
        0.0,
    );
    let mut state = game(
        &[fence],
        &[
            ("South", "militia", 10.0, 12.5, 0.0),
            ("Below", "militia", 30.0, 12.0, 0.0),
            ("North", "militia", 30.0, 23.5, 180.0),
        ],
        &[
            // Lining the fence from the north, facing south.
            ("Lining", "militia", 10.0, 18.9, 180.0),
            // Standing south of the fence, its rear against it.
            ("Before", "militia", 30.0, 17.2, 180.0),
        ],
    );
    let [south, below, north, lining, before] =
        ["South", "Below", "North", "Lining", "Before"].map(|n| id(&state, n));
    assert!(state.in_cover(
        &state.units[before.0].base,
        state.units[north.0].base.centre
    ));
    go_to(&mut state, 0, Phase::Shooting);
    // 3, −1 cover = 2.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: south,
            target: lining,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (2, vec![2]));
    // The fence is behind Before: no cover, 3 hits.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: below,
            target: before,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (3, vec![]));
    // From beyond the fence the same unit is covered.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: north,
            target: before,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (2, vec![2]));
}

/// Seed 004's volleys through the musket modifiers: double volleys for
/// formed foot (twice the score, house rule), the volley before a
/// withdrawal at −1 for any musket; the engine refuses a double volley to
/// skirmishers and never offers either in `legal_actions`.
#[test]
fn double_volleys_double_and_a_hasty_volley_is_minus_1() {
    let mut state = game(
        &[],
        &[
            ("Regulars", "british-regulars", 10.0, 10.0, 0.0),
            ("Light", "british-light-infantry", 30.0, 10.0, 0.0),
        ],
        &[
            ("A", "militia", 10.0, 15.0, 180.0),
            ("B", "militia", 30.0, 15.0, 180.0),
        ],
    );
    let [regulars, light, a, b] = ["Regulars", "Light", "A", "B"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    assert!(state.legal_actions().iter().all(|action| !matches!(
        action,
        Action::Fire {
            volley: Volley::Double | Volley::Hasty,
            ..
        }
    )));
    let fire = |unit, target, volley| Action::Fire {
        unit,
        target,
        volley,
    };
    let text = refusal(&mut state, fire(light, b, Volley::Double));
    assert!(text.contains("cannot fire a double volley"), "{text}");
    // 3, +1 regulars = 4, doubled = 8.
    let events = ok(&mut state, fire(regulars, a, Volley::Double), &[3]);
    assert_eq!(fired_hits(&events), (8, vec![4, 8]));
    // 3, −1 skirmishers = 2, −1 before withdrawing = 1.
    let events = ok(&mut state, fire(light, b, Volley::Hasty), &[3]);
    assert_eq!(fired_hits(&events), (1, vec![2, 1]));
}

#[test]
fn skirmishers_shoot_at_minus_1() {
    let mut state = game(
        &[],
        &[("Light", "british-light-infantry", 10.0, 10.0, 0.0)],
        &[("A", "militia", 10.0, 15.0, 180.0)],
    );
    let [light, a] = ["Light", "A"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(
        &mut state,
        Action::Fire {
            unit: light,
            target: a,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (2, vec![2]));
}

#[test]
fn artillery_deducts_range_bounds_and_1_for_woods() {
    let features = [woods((30.0, 28.0), (40.0, 34.0))];
    let mut state = game(
        &features,
        &[
            ("Guns", "artillery", 10.0, 10.0, 0.0),
            ("Guns2", "artillery", 35.0, 10.0, 0.0),
        ],
        // 20" gap between the bases: 4 bounds.
        &[
            ("A", "militia", 10.0, 31.75, 180.0),
            ("B", "militia", 35.0, 28.6, 180.0),
        ],
    );
    let [guns, guns2, a, b] = ["Guns", "Guns2", "A", "B"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(
        &mut state,
        Action::Fire {
            unit: guns,
            target: a,
            volley: Volley::Single,
        },
        &[5],
    );
    assert_eq!(fired_hits(&events), (1, vec![1]));
    // B in the wood's edge: 5 − 3 bounds − 1 = 1.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: guns2,
            target: b,
            volley: Volley::Single,
        },
        &[5],
    );
    assert_eq!(fired_hits(&events), (1, vec![2, 1]));
}

fn melee_event(events: &[Event]) -> (&MeleeRoll, &MeleeRoll) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Melee { charger, defender } => Some((charger, defender)),
            _ => None,
        })
        .expect("a melee")
}

/// Charge, then end movement and shooting so the melee is fought with `rolls`.
fn charge_and_fight(
    state: &mut GameState,
    charger: &str,
    target: &str,
    rolls: &[u8],
) -> Vec<Event> {
    let (charger, target) = (id(state, charger), id(state, target));
    ok(
        state,
        Action::Charge {
            unit: charger,
            target,
        },
        &[],
    );
    ok(state, Action::EndPhase, &[]);
    ok(state, Action::EndPhase, rolls)
}

#[test]
fn melee_both_roll_with_modifiers_and_the_most_hit_retreats() {
    let mut state = game(
        &[],
        &[("Grenadiers", "grenadiers", 20.0, 10.0, 0.0)],
        &[("Militia", "militia", 20.0, 15.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Grenadiers", "Militia", &[3, 4]);
    let (charger, defender) = melee_event(&events);
    assert_eq!((charger.roll, charger.hits), (3, 5));
    assert_eq!((defender.roll, defender.hits), (4, 4));
    let militia = id(&state, "Militia");
    let retreat = events
        .iter()
        .find_map(|e| match e {
            Event::Retreated {
                unit,
                from,
                to,
                facing,
                ..
            } => Some((*unit, *from, *to, *facing)),
            _ => None,
        })
        .unwrap();
    assert_eq!(retreat.0, militia);
    // A full 6" move directly away, ending facing away (north).
    assert!(
        (retreat.2.y - retreat.1.y - 6.0).abs() < 0.11,
        "{retreat:?}"
    );
    assert!(retreat.3.abs() < 1e-6 || (retreat.3 - 360.0).abs() < 1e-6);
    // The charger stays where it made contact.
    let grenadiers = id(&state, "Grenadiers");
    assert!((state.units[grenadiers.0].base.centre.y - 13.5).abs() < 0.01);
}

#[test]
fn a_charge_is_known_to_double_before_it_is_made() {
    // Regulars south of militia facing south (front), east (flank) and
    // north (rear), and of guns facing south.
    for (troop, facing, multiplier) in [
        ("militia", 180.0, 1),
        ("militia", 90.0, 2),
        ("militia", 0.0, 2),
        ("artillery", 180.0, 2),
    ] {
        let state = SmallGame::new(
            &[("Regulars", "british-regulars", 24.0, 10.0, 0.0)],
            &[("Target", troop, 24.0, 14.0, facing)],
        )
        .build();
        let (regulars, target) = (
            state.find_unit("Regulars").unwrap(),
            state.find_unit("Target").unwrap(),
        );
        assert_eq!(
            state.charge_multiplier(regulars, target),
            multiplier,
            "{troop} facing {facing}"
        );
    }
}

#[test]
fn flank_attacks_double() {
    let mut state = game(
        &[],
        &[("Horse", "cavalry", 10.0, 20.0, 90.0)],
        &[("Militia", "militia", 18.0, 20.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Horse", "Militia", &[3, 3]);
    let (charger, _) = melee_event(&events);
    // 3 +2 cavalry = 5, doubled for the flank = 10.
    assert_eq!(charger.hits, 10);
    assert_eq!(charger.modifiers[1].label, "flank or rear attack");
}

#[test]
fn attacking_artillery_doubles() {
    let mut state = game(
        &[],
        &[("Horse", "cavalry", 20.0, 10.0, 0.0)],
        &[("Gun", "artillery", 20.0, 18.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Horse", "Gun", &[2, 2]);
    let (charger, defender) = melee_event(&events);
    // 2 +2 cavalry = 4, doubled attacking artillery = 8; the gun rolls 2.
    assert_eq!((charger.hits, defender.hits), (8, 2));
}

#[test]
fn charging_into_cover_is_minus_1() {
    let features = [woods((0.0, 14.5), (48.0, 20.0))];
    let mut state = game(
        &features,
        &[("Regulars", "british-regulars", 20.0, 11.0, 0.0)],
        &[("Rifles", "riflemen", 20.0, 16.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Regulars", "Rifles", &[3, 3]);
    let (charger, defender) = melee_event(&events);
    // 3 +1 regulars −1 into cover = 3; riflemen 3 −1 skirmishers = 2.
    assert_eq!((charger.hits, defender.hits), (3, 2));
}

#[test]
fn on_equal_hits_the_charger_retreats() {
    let mut state = game(
        &[],
        &[("A", "militia", 20.0, 10.0, 0.0)],
        &[("B", "militia", 20.0, 15.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "A", "B", &[3, 3]);
    let a = id(&state, "A");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Retreated { unit, .. } if *unit == a))
    );
}

#[test]
fn a_retreat_off_the_table_drives_the_unit_off() {
    let mut state = game(
        &[],
        &[("A", "grenadiers", 20.0, 40.0, 0.0)],
        &[("B", "militia", 20.0, 45.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "A", "B", &[5, 2]);
    let b = id(&state, "B");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Exited { unit } if *unit == b))
    );
    assert_eq!(state.units[b.0].status, Status::Exited);
}

#[test]
fn a_blocked_retreat_stops_short() {
    let mut state = game(
        &[],
        &[("A", "grenadiers", 20.0, 10.0, 0.0)],
        &[
            ("B", "militia", 20.0, 15.0, 180.0),
            ("Behind", "militia", 20.0, 19.0, 180.0),
        ],
    );
    let events = charge_and_fight(&mut state, "A", "B", &[5, 2]);
    let blocked = events.iter().find_map(|e| match e {
        Event::Retreated { blocked, to, .. } => Some((*blocked, *to)),
        _ => None,
    });
    let (blocked, to) = blocked.unwrap();
    assert!(blocked);
    assert!(to.y < 17.6 && to.y > 17.3, "{to:?}");
}

#[test]
fn infantry_rout_at_13_and_cavalry_at_9() {
    let mut state = game(
        &[],
        &[
            ("Foot12", "militia", 10.0, 10.0, 0.0),
            ("Foot13", "militia", 20.0, 10.0, 0.0),
            ("Horse8", "cavalry", 30.0, 10.0, 0.0),
            ("Horse9", "cavalry", 40.0, 10.0, 0.0),
        ],
        &[
            ("E1", "militia", 10.0, 40.0, 180.0),
            ("E2", "militia", 20.0, 40.0, 180.0),
            ("E3", "militia", 30.0, 40.0, 180.0),
            ("E4", "militia", 40.0, 40.0, 180.0),
        ],
    );
    for (name, hits) in [("Foot12", 12), ("Foot13", 13), ("Horse8", 8), ("Horse9", 9)] {
        let unit = id(&state, name);
        state.units[unit.0].hits = hits;
    }
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(&mut state, Action::EndPhase, &[]);
    let routed: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Routed { unit, .. } => Some(state.units[unit.0].name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(routed, ["Foot13", "Horse9"]);
}

#[test]
fn army_resolve_strikes_once_with_2_hits() {
    let mut state = game(
        &[],
        &[
            ("A", "militia", 10.0, 10.0, 0.0),
            ("B", "militia", 20.0, 10.0, 0.0),
            ("C", "militia", 30.0, 10.0, 0.0),
        ],
        &[("E", "militia", 10.0, 40.0, 180.0)],
    );
    let [a, b, c] = ["A", "B", "C"].map(|n| id(&state, n));
    state.units[a.0].hits = 13;
    state.units[c.0].hits = 11;
    go_to(&mut state, 0, Phase::Shooting);
    // A routs: 1 of 3 is not more than half. Nothing else.
    let events = ok(&mut state, Action::EndPhase, &[]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::ArmyResolve { .. }))
    );
    state.units[b.0].hits = 13;
    // B routs in the next rout phase (the Americans'): 2 of 3 lost; C takes
    // 2 hits (13) and routs in turn.
    let events = go_to(&mut state, 0, Phase::Movement);
    let resolve: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::ArmyResolve { .. }))
        .collect();
    assert_eq!(
        resolve,
        [&Event::ArmyResolve {
            side: 0,
            lost: 2,
            of: 3,
            hits: 2
        }]
    );
    assert_eq!(state.units[c.0].status, Status::Routed);
    assert!(state.sides[0].resolve_spent);
}

fn rally(general: usize, units: &[UnitId]) -> Action {
    Action::Rally {
        general: GeneralId(general),
        units: units.to_vec(),
    }
}

#[test]
fn rally_points_spread_with_maxima_within_12() {
    let mut state = game(
        &[],
        &[
            ("Regulars", "british-regulars", 6.0, 6.0, 0.0),
            ("Militia", "militia", 12.0, 6.0, 0.0),
            ("Far", "british-regulars", 30.0, 30.0, 0.0),
        ],
        &[("E", "militia", 40.0, 44.0, 180.0)],
    );
    let [regulars, militia, far] = ["Regulars", "Militia", "Far"].map(|n| id(&state, n));
    for unit in [regulars, militia, far] {
        state.units[unit.0].hits = 5;
    }
    go_to(&mut state, 0, Phase::Rallying);
    let text = refusal(&mut state, rally(0, &[far]));
    assert!(text.contains("must be within 12\""), "{text}");
    // 5 points: 2 to the regulars (max 2), 1 to the militia (max 1), 2 lost.
    let events = ok(&mut state, rally(0, &[regulars, militia]), &[5]);
    assert_eq!(
        events,
        [Event::Rallied {
            general: GeneralId(0),
            roll: 5,
            removed: vec![(regulars, 2), (militia, 1)],
            rallies_left: 2
        }]
    );
    assert_eq!(
        (state.units[regulars.0].hits, state.units[militia.0].hits),
        (3, 4)
    );
}

#[test]
fn artillery_and_cavalry_cannot_be_rallied() {
    let mut state = game(
        &[],
        &[
            ("Guns", "artillery", 6.0, 6.0, 0.0),
            ("Horse", "cavalry", 12.0, 6.0, 0.0),
        ],
        &[("E", "militia", 40.0, 44.0, 180.0)],
    );
    let [guns, horse] = ["Guns", "Horse"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Rallying);
    for unit in [guns, horse] {
        let text = refusal(&mut state, rally(0, &[unit]));
        assert!(
            text.contains("artillery and cavalry may not be rallied"),
            "{text}"
        );
    }
}

#[test]
fn one_rally_per_turn_and_the_budget_runs_out() {
    let mut state = game(
        &[],
        &[("Regulars", "british-regulars", 6.0, 6.0, 0.0)],
        &[("E", "militia", 40.0, 44.0, 180.0)],
    );
    let regulars = id(&state, "Regulars");
    state.units[regulars.0].hits = 12;
    for turn in 0..3 {
        go_to(&mut state, 0, Phase::Rallying);
        ok(&mut state, rally(0, &[regulars]), &[3]);
        if turn == 0 {
            let text = refusal(&mut state, rally(0, &[regulars]));
            assert!(text.contains("one rally per turn"), "{text}");
        }
        ok(&mut state, Action::EndPhase, &[]);
    }
    assert_eq!(state.units[regulars.0].hits, 6);
    let mut state = game(
        &[],
        &[("Regulars", "british-regulars", 6.0, 6.0, 0.0)],
        &[("E", "militia", 40.0, 44.0, 180.0)],
    );
    state.generals[0].rallies_left = 0;
    go_to(&mut state, 0, Phase::Rallying);
    let text = refusal(&mut state, rally(0, &[regulars]));
    assert!(text.contains("no rally attempts left"), "{text}");
}

#[test]
fn rally_budget_reproduces_guilford() {
    let ruleset = Ruleset::builtin("ohw-awi").unwrap().unwrap();
    let rules = rules_table();
    let troops = |names: &[(&str, usize)]| {
        names
            .iter()
            .flat_map(|(name, n)| std::iter::repeat_n(ruleset.troop_type(name).unwrap(), *n))
            .collect::<Vec<_>>()
    };
    // seed 000 Forces, as given.
    let british = troops(&[
        ("grenadiers", 1),
        ("british-regulars", 3),
        ("british-light-infantry", 1),
        ("artillery", 1),
        ("cavalry", 1),
    ]);
    let americans = troops(&[
        ("continentals", 2),
        ("militia", 4),
        ("riflemen", 3),
        ("artillery", 2),
        ("cavalry", 1),
    ]);
    // Cornwallis exceptional, Greene above average, both normally supplied.
    assert_eq!(
        rally_budget(
            &rules,
            british.clone(),
            Quality::Exceptional,
            Supply::Normal
        ),
        8
    );
    assert_eq!(
        rally_budget(
            &rules,
            americans.clone(),
            Quality::AboveAverage,
            Supply::Normal
        ),
        4
    );
    // The other guidelines move it as the seed says.
    assert_eq!(
        rally_budget(&rules, british, Quality::Average, Supply::Poor),
        4
    );
    assert_eq!(
        rally_budget(&rules, americans, Quality::Average, Supply::Well),
        4
    );
}

fn with_victory(mut state: GameState, victory: Vec<Victory>) -> GameState {
    state.victory = victory;
    state
}

#[test]
fn rout_fraction_wins() {
    let state = game(
        &[],
        &[
            ("A", "militia", 10.0, 10.0, 0.0),
            ("B", "militia", 20.0, 10.0, 0.0),
        ],
        &[("E", "militia", 10.0, 40.0, 180.0)],
    );
    let mut state = with_victory(
        state,
        vec![Victory {
            winner: 1,
            when: Condition::RoutFraction {
                side: 0,
                more_than: 0.5,
            },
        }],
    );
    state.units[0].hits = 13;
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(&mut state, Action::EndPhase, &[]);
    // One of two is not more than half.
    assert!(!state.is_over(), "{events:?}");
    state.units[1].hits = 13;
    let mut events = Vec::new();
    while !state.is_over() {
        events.extend(ok(&mut state, Action::EndPhase, &[]));
    }
    assert!(events.contains(&Event::Victory {
        winner: 1,
        condition: 0
    }));
    assert_eq!(events.last(), Some(&Event::GameEnded { draw: false }));
    assert_eq!(
        state.apply(&Action::EndPhase, &mut no_dice()),
        Err(Refusal::GameOver)
    );
    assert!(state.legal_actions().is_empty());
}

/// Ruling O12 (issue 15): a unit the Lone Warrior test routs leaves the
/// table routed, with whatever hits it has, and counts as lost at once: for
/// "rout or force off the tabletop" at the end of the phase, and for army
/// resolve in the Rout phase. `legal_actions` never offers it.
#[test]
fn a_unit_that_breaks_is_routed_and_counts_as_lost() {
    let state = game(
        &[],
        &[("A", "grenadiers", 20.0, 10.0, 0.0)],
        &[
            ("Continentals", "continentals", 20.0, 40.0, 180.0),
            ("Other", "continentals", 30.0, 40.0, 180.0),
        ],
    );
    let continentals = state
        .battlefield
        .ruleset
        .troop_type("continentals")
        .unwrap();
    let mut state = with_victory(
        state,
        vec![Victory {
            winner: 0,
            when: Condition::RoutOrExit {
                side: 1,
                troop: continentals,
                count: 1,
            },
        }],
    );
    let [a, broken] = ["A", "Continentals"].map(|n| id(&state, n));
    // Not the British player's to rout, and never offered.
    let text = refusal(&mut state, Action::Rout { unit: broken });
    assert!(text.contains("Continentals"), "{text}");
    go_to(&mut state, 1, Phase::Movement);
    assert!(
        state
            .legal_actions()
            .iter()
            .all(|action| !matches!(action, Action::Rout { .. }))
    );
    state.units[broken.0].hits = 2;
    let events = ok(&mut state, Action::Rout { unit: broken }, &[]);
    assert_eq!(
        events,
        vec![Event::Routed {
            unit: broken,
            hits: 2
        }]
    );
    assert_eq!(state.units[broken.0].status, Status::Routed);
    assert_eq!(state.lost(1), 1);
    let events = ok(&mut state, Action::EndPhase, &[]);
    assert!(events.contains(&Event::Victory {
        winner: 0,
        condition: 0
    }));
    assert!(state.units[a.0].is_active());
}

#[test]
fn rout_or_exit_wins() {
    let state = game(
        &[],
        &[("A", "grenadiers", 20.0, 40.0, 0.0)],
        &[
            ("Continentals", "continentals", 20.0, 45.0, 180.0),
            ("Other", "continentals", 30.0, 45.0, 180.0),
        ],
    );
    let continentals = state
        .battlefield
        .ruleset
        .troop_type("continentals")
        .unwrap();
    let mut state = with_victory(
        state,
        vec![Victory {
            winner: 0,
            when: Condition::RoutOrExit {
                side: 1,
                troop: continentals,
                count: 1,
            },
        }],
    );
    // Driven off the table in the melee; the game ends after the melee phase.
    let events = charge_and_fight(&mut state, "A", "Continentals", &[5, 2]);
    assert!(events.contains(&Event::Victory {
        winner: 0,
        condition: 0
    }));
    assert_eq!(
        state.outcome,
        Some(Outcome::Won {
            side: 0,
            condition: 0
        })
    );
}

#[test]
fn the_last_turn_ends_in_a_draw_or_a_held_area() {
    let mut state = game(
        &[],
        &[("A", "militia", 10.0, 10.0, 0.0)],
        &[("E", "militia", 10.0, 40.0, 180.0)],
    );
    let mut events = Vec::new();
    while !state.is_over() {
        events.extend(ok(&mut state, Action::EndPhase, &[]));
    }
    assert_eq!(state.turn, 3);
    assert_eq!(events.last(), Some(&Event::GameEnded { draw: true }));
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::TurnEnded { .. }))
            .count(),
        3
    );
    let state = game(
        &[],
        &[("A", "militia", 10.0, 10.0, 0.0)],
        &[("E", "militia", 10.0, 40.0, 180.0)],
    );
    let mut state = with_victory(
        state,
        vec![Victory {
            winner: 0,
            when: Condition::HoldArea {
                side: 0,
                name: "south".into(),
                min: p(0.0, 0.0),
                max: p(48.0, 20.0),
            },
        }],
    );
    let mut events = Vec::new();
    while !state.is_over() {
        events.extend(ok(&mut state, Action::EndPhase, &[]));
    }
    assert_eq!(
        state.outcome,
        Some(Outcome::Won {
            side: 0,
            condition: 0
        })
    );
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut state = game(
        &[],
        &[("A", "militia", 10.0, 10.0, 0.0)],
        &[("E", "militia", 10.0, 40.0, 180.0)],
    );
    let a = id(&state, "A");
    let e = id(&state, "E");
    for action in [
        mv(a, 10.0, 30.0, 0.0),
        Action::Fire {
            unit: a,
            target: e,
            volley: Volley::Single,
        },
        Action::Charge { unit: e, target: a },
        rally(0, &[a]),
        Action::MoveGeneral {
            general: GeneralId(1),
            to: p(40.0, 40.0),
        },
    ] {
        let before = (state.phase_index, state.active, state.turn);
        refusal(&mut state, action);
        assert_eq!(before, (state.phase_index, state.active, state.turn));
    }
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: a,
            target: e,
            volley: Volley::Single,
        },
    );
    assert_eq!(text, "cannot fire: not allowed in the movement phase");
}

#[test]
fn a_modifier_beyond_a_thousand_is_refused() {
    // A house rule may multiply, but not past what a melee can add up.
    let ruleset = Ruleset::builtin("ohw-awi").unwrap().unwrap();
    let text = BUILTIN[0].2.replacen(
        "label: attacking artillery, multiply: 2,",
        "label: attacking artillery, multiply: 30000000,",
        1,
    );
    assert_ne!(text, BUILTIN[0].2);
    let problems = RulesTable::parse(Source::new("r.yaml", &text), &ruleset).unwrap_err();
    let text = problems.to_string();
    assert!(
        text.contains("multiply: 30000000 is not from -1000 to 1000"),
        "{text}"
    );
}

#[test]
fn rules_table_problems_are_located() {
    let ruleset = Ruleset::builtin("ohw-awi").unwrap().unwrap();
    let text = BUILTIN[0]
        .2
        .replacen("range: 12   ", "range: -12  ", 1)
        .replacen(
            "british-light-infantry: [skirmisher]",
            "british-light-infantry: [skirmishr]",
            1,
        )
        .replacen("riflemen: 1", "riflemn: 1", 1);
    let problems = RulesTable::parse(Source::new("r.yaml", &text), &ruleset).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 3, "{text}");
    assert!(text.contains("r.yaml:"), "{text}");
    assert!(
        text.contains("unknown troop type or category `skirmishr`; did you mean `skirmisher`?"),
        "{text}"
    );
    assert!(text.contains("unknown troop type `riflemn`"), "{text}");
    assert!(
        text.contains("rallying.range") || text.contains("inches from 0"),
        "{text}"
    );
}

/// Found by the soak runner (issue 14): a charger already within contact
/// of its target pivots where it stands, and a pivot that swings its base
/// into the target is no charge (seed 000 Interpenetration).
#[test]
fn a_charge_whose_pivot_would_swing_into_the_target_is_refused() {
    let placed = |dx: f64| {
        let probe = game(&[], &[("Foot", "british-regulars", 20.0, 10.0, 0.0)], &[]);
        let depth = probe.units[0].base.depth;
        // The militia's near edge 0.01" beyond the Foot's front edge, its
        // centre `dx` to the right.
        game(
            &[],
            &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
            &[("Militia", "militia", 20.0 + dx, 10.0 + depth + 0.01, 180.0)],
        )
    };
    let mut state = placed(1.0);
    let [foot, militia] = ["Foot", "Militia"].map(|n| id(&state, n));
    let facing = (state.unit(militia).base.centre - state.unit(foot).base.centre).bearing();
    assert!(facing < 45.0, "{facing}");
    let turned = Base::new(
        state.unit(foot).base.centre,
        facing,
        state.unit(foot).base.frontage,
        state.unit(foot).base.depth,
    );
    assert!(
        turned.overlaps(&state.unit(militia).base),
        "the precondition"
    );
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: foot,
            target: militia,
        },
    );
    assert!(text.contains("through `Militia`"), "{text}");
    // Straight ahead, the same contact is a lawful charge.
    let mut state = placed(0.0);
    let [foot, militia] = ["Foot", "Militia"].map(|n| id(&state, n));
    ok(
        &mut state,
        Action::Charge {
            unit: foot,
            target: militia,
        },
        &[],
    );
}
