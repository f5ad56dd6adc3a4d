//! Seed 001 *Formations* and *Movement* (`engine/movement.rs`), commanders joining and leaving.

use super::*;

#[test]
fn units_are_bases_in_line_column_or_open_order() {
    let mut jaegers = unit("Jaegers", BRITISH, "jaegers", 4, 30.0, 5.0, NORTH);
    jaegers.formation = Formation::OpenOrder;
    let mut column = unit("71st", BRITISH, "british-line", 6, 5.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 12.0, 2.0, NORTH),
        column,
        jaegers,
        unit("Gun", BRITISH, "british-cannon", 1, 44.0, 5.0, NORTH),
    ]);
    let size = |unit: usize| {
        let base = state.footprint(unit);
        (base.frontage, base.depth)
    };
    assert_eq!(size(0), (9.0, 1.0)); // six 1.5" bases side by side
    assert_eq!(size(1), (1.5, 6.0)); // one behind another
    assert_eq!(size(2), (10.5, 1.0)); // a stand's width between stands
    assert_eq!(size(3), (1.5, 2.0)); // a gun is its base
    assert_eq!(state.formation(3), None); // "Cannons do not have formations"
    assert_eq!(state.strength(0), Some(1.0));
}

#[test]
fn line_moves_6_and_column_12() {
    let mut column = unit("71st", BRITISH, "british-line", 6, 40.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        column,
    ]);
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 11.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 11.0),
        },
        &[],
    );
    assert_eq!(state.position(0), Some(p(10.0, 11.0)));
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 12.0)
            }
        ),
        Refusal::AlreadyMoved { .. }
    ));
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 1,
                to: p(40.0, 22.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(40.0, 22.0),
        },
        &[],
    );
}

#[test]
fn open_order_only_for_light_troops() {
    let mut state = game(vec![
        unit("Militia", BRITISH, "militia", 5, 10.0, 5.0, NORTH),
        unit("Jaegers", BRITISH, "jaegers", 4, 30.0, 5.0, NORTH),
        unit(
            "Light Infantry",
            BRITISH,
            "british-light-infantry",
            4,
            30.0,
            15.0,
            NORTH,
        ),
        unit("Guards", BRITISH, "guards", 4, 10.0, 15.0, NORTH),
    ]);
    let open = |unit| Action::ChangeFormation {
        unit,
        formation: Formation::OpenOrder,
    };
    assert!(matches!(
        refused(&mut state, open(0)),
        Refusal::NoSuchFormation { .. }
    ));
    assert!(matches!(
        refused(&mut state, open(3)),
        Refusal::NoSuchFormation { .. }
    ));
    apply(&mut state, open(1), &[]);
    apply(&mut state, open(2), &[]);
    assert_eq!(state.formation(1), Some(Formation::OpenOrder));
    // The Virginia Rifles too, on their own turn.
    let mut state = game(vec![unit(
        "Rifles",
        AMERICANS,
        "virginia-rifles",
        6,
        24.0,
        40.0,
        SOUTH,
    )]);
    go_to(&mut state, PhaseKind::Move, AMERICANS);
    apply(&mut state, open(0), &[]);
}

#[test]
fn one_formation_change_a_turn_at_the_start_or_end() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        unit("33rd", BRITISH, "british-line", 6, 30.0, 5.0, NORTH),
    ]);
    let column = |unit| Action::ChangeFormation {
        unit,
        formation: Formation::Column,
    };
    let line = |unit| Action::ChangeFormation {
        unit,
        formation: Formation::Line,
    };
    // At the start: form column, then march 12".
    apply(&mut state, column(0), &[]);
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 17.0),
        },
        &[],
    );
    assert!(matches!(
        refused(&mut state, line(0)),
        Refusal::AlreadyChanged { .. }
    ));
    // At the end: move 6" in line, then form column; no more moving.
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(30.0, 11.0),
        },
        &[],
    );
    apply(&mut state, column(1), &[]);
    assert!(
        state
            .check(&Action::Move {
                unit: 1,
                to: p(30.0, 12.0)
            })
            .is_err()
    );
    // Next turn it may change again.
    next_turn(&mut state);
    apply(&mut state, line(0), &[]);
}

#[test]
fn about_face_once_a_turn() {
    let mut state = game(vec![unit(
        "23rd",
        BRITISH,
        "british-line",
        6,
        10.0,
        5.0,
        NORTH,
    )]);
    apply(&mut state, Action::AboutFace { unit: 0 }, &[]);
    assert_eq!(state.facing(0), Some(180.0));
    assert!(matches!(
        refused(&mut state, Action::AboutFace { unit: 0 }),
        Refusal::AlreadyAboutFaced { .. }
    ));
    // About-facing is not the unit's move; going on north is now backwards.
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 8.0),
        },
        &[],
    );
}

#[test]
fn backwards_at_half_speed() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 20.0, NORTH),
        unit("33rd", BRITISH, "british-line", 6, 30.0, 20.0, NORTH),
    ]);
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 16.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    let events = apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 17.0),
        },
        &[],
    );
    assert!(matches!(
        events[0],
        Event::Moved {
            backwards: true,
            ..
        }
    ));
    // Sideways is not backwards.
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(36.0, 20.0),
        },
        &[],
    );
}

#[test]
fn never_within_1_inch_of_an_enemy_except_by_charging() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 24.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            24.0,
            12.0,
            SOUTH,
        ),
    ]);
    // The enemy's front edge is at 11.5": a move to 10.2 leaves 0.8".
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(24.0, 10.2)
            }
        ),
        Refusal::TooNearEnemy { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(24.0, 10.0),
        },
        &[],
    );
    // Charging is how units close.
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    assert!(state.check(&Action::Charge { unit: 0, target: 1 }).is_ok());
}

#[test]
fn dragoons_mount_or_dismount_once_and_leave_horse_holders() {
    let mut state = game(vec![
        unit("Legion", BRITISH, "british-dragoons", 4, 10.0, 5.0, NORTH),
        unit("Tarleton", BRITISH, "british-dragoons", 4, 30.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            17.0,
            SOUTH,
        ),
    ]);
    // Mounted: 12", always in line.
    assert!(matches!(
        refused(
            &mut state,
            Action::ChangeFormation {
                unit: 1,
                formation: Formation::Column
            }
        ),
        Refusal::NoSuchFormation { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(30.0, 17.0),
        },
        &[],
    );
    // Dismounted: 6"; not both dismount and remount.
    apply(
        &mut state,
        Action::Mount {
            unit: 0,
            mounted: false,
        },
        &[],
    );
    assert!(matches!(
        refused(
            &mut state,
            Action::Mount {
                unit: 0,
                mounted: true
            }
        ),
        Refusal::AlreadyChanged { .. }
    ));
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 11.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 11.0),
        },
        &[],
    );
    // The horse holders' base neither shoots nor fights: 4 bases, 3 dice,
    // 3 stands in melee; it still counts as a base (morale, strength).
    assert_eq!(state.units()[0].fighting_bases(), 3);
    assert_eq!(state.strength(0), Some(1.0));
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(&mut state, Action::Fire { unit: 0, target: 2 }, &[1, 1, 1]);
    assert!(matches!(&events[0], Event::Fired { rolls, .. } if rolls.len() == 3));
    // Mounted dragoons do not fire.
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 1, target: 2 }),
        Refusal::CannotFire { .. }
    ));
}

#[test]
fn cannons_move_6_and_fire_only_if_they_did_not_move() {
    let mut state = game(vec![
        unit("Gun A", BRITISH, "british-cannon", 1, 10.0, 5.0, NORTH),
        unit("Gun B", BRITISH, "british-cannon", 1, 30.0, 5.0, 45.0),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            20.0,
            16.0,
            SOUTH,
        ),
    ]);
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 11.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 11.0),
        },
        &[],
    );
    apply(
        &mut state,
        Action::Pivot {
            unit: 1,
            facing: 315.0,
        },
        &[],
    );
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 0, target: 2 }),
        Refusal::CannotFire { .. }
    ));
    // Pivoted in place: it still fires, two dice.
    let events = apply(&mut state, Action::Fire { unit: 1, target: 2 }, &[1, 1]);
    assert!(matches!(&events[0], Event::Fired { rolls, .. } if rolls.len() == 2));
}

#[test]
fn commanders_join_and_leave_their_units_during_movement() {
    let mut guards = unit("Guards", BRITISH, "guards", 6, 20.0, 10.0, NORTH);
    guards.brigade = Some("O'Hara".into());
    let mut line = unit("23rd", BRITISH, "british-line", 6, 40.0, 10.0, NORTH);
    line.brigade = Some("Webster".into());
    let mut state = game_with(
        &[],
        vec![guards, line],
        vec![
            commander("O'Hara", BRITISH, 20.0, 2.0, false),
            commander("Cornwallis", BRITISH, 40.0, 2.0, true),
        ],
        3,
    );
    // Only his own units; the overall commander may join any.
    assert!(matches!(
        refused(
            &mut state,
            Action::Join {
                commander: 0,
                unit: 1
            }
        ),
        Refusal::Commander { .. }
    ));
    apply(
        &mut state,
        Action::Join {
            commander: 0,
            unit: 0,
        },
        &[],
    );
    apply(
        &mut state,
        Action::Join {
            commander: 1,
            unit: 1,
        },
        &[],
    );
    assert_eq!(state.commander_of(0), Some(0));
    // He moves with the unit.
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(20.0, 16.0),
        },
        &[],
    );
    assert_eq!(state.commanders()[0].at, p(20.0, 16.0));
    // One commander action a turn.
    assert!(matches!(
        refused(
            &mut state,
            Action::Leave {
                commander: 0,
                to: p(20.0, 14.0)
            }
        ),
        Refusal::Commander { .. }
    ));
    next_turn(&mut state);
    assert!(matches!(
        refused(
            &mut state,
            Action::Leave {
                commander: 0,
                to: p(20.0, 30.0)
            }
        ),
        Refusal::Commander { .. }
    ));
    apply(
        &mut state,
        Action::Leave {
            commander: 0,
            to: p(20.0, 14.0),
        },
        &[],
    );
    assert_eq!(state.commander_of(0), None);
    // A commander on his own moves 12".
    next_turn(&mut state);
    assert!(
        state
            .check(&Action::MoveCommander {
                commander: 0,
                to: p(20.0, 26.5)
            })
            .is_err()
    );
    apply(
        &mut state,
        Action::MoveCommander {
            commander: 0,
            to: p(20.0, 26.0),
        },
        &[],
    );
}
