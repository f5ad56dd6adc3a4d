//! Seed 000 *Movement* (`engine/movement.rs`): allowances, road moves,
//! the effects of terrain, pivots, no shooting after moving,
//! interpenetration, enemy presence, and contact only by charging.

use super::*;

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
