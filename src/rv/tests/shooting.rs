//! Seed 001 *Fire* (`engine/shooting.rs`): who fires, dice, range bands, the line of fire.

use super::*;

#[test]
fn only_lines_dismounted_dragoons_and_unmoved_guns_fire() {
    let mut column = unit("71st", BRITISH, "british-line", 6, 10.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let mut state = game(vec![
        column,
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
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 0, target: 1 }),
        Refusal::CannotFire { .. }
    ));
    // Firing is once a turn.
    go_to(&mut state, PhaseKind::Shoot, AMERICANS);
    apply(&mut state, Action::Fire { unit: 1, target: 0 }, &[1; 6]);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 1, target: 0 }),
        Refusal::CannotFire { .. }
    ));
}

#[test]
fn a_die_per_base_to_hit_by_band_and_type() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit("33rd", BRITISH, "british-line", 6, 34.0, 10.0, NORTH),
        unit("Militia", AMERICANS, "militia", 5, 10.0, 15.0, SOUTH),
        unit("Rifles", AMERICANS, "virginia-rifles", 6, 34.0, 19.5, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    // Muskets at 4.5": the 6" column, a 6 to hit; one base per hit.
    let events = apply(
        &mut state,
        Action::Fire { unit: 0, target: 2 },
        &[6, 6, 5, 1, 2, 3],
    );
    assert!(matches!(&events[0], Event::Fired { needed: 6, hits: 2, band, .. } if *band == 6.0));
    assert_eq!(state.units()[2].bases, 3);
    // Muskets do not reach the 12" column.
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 1, target: 3 }),
        Refusal::BadTarget { .. }
    ));
    // Rifles at 9": a 6 to hit.
    go_to(&mut state, PhaseKind::Shoot, AMERICANS);
    let events = apply(
        &mut state,
        Action::Fire { unit: 3, target: 1 },
        &[6, 5, 5, 5, 1, 1],
    );
    assert!(matches!(
        &events[0],
        Event::Fired {
            needed: 6,
            hits: 1,
            ..
        }
    ));
    assert_eq!(state.units()[1].bases, 5);
    assert_eq!(rv_table().needed(FireClass::Rifle, 1), Some(5));
    assert_eq!(rv_table().needed(FireClass::Musket, 0), Some(5));
}

#[test]
fn two_dice_per_cannon() {
    let mut state = game(vec![
        unit("Gun", BRITISH, "british-cannon", 1, 10.0, 5.0, NORTH),
        unit("Militia", AMERICANS, "militia", 5, 10.0, 16.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    // 10.5" to the militia's front: the 12" column, a 6 to hit.
    let events = apply(&mut state, Action::Fire { unit: 0, target: 1 }, &[6, 6]);
    assert!(matches!(
        &events[0],
        Event::Fired {
            needed: 6,
            hits: 2,
            ..
        }
    ));
    assert_eq!(state.units()[1].bases, 3);
}

#[test]
fn range_runs_from_the_centre_to_the_nearest_part() {
    let mut column = unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        10.0,
        18.0,
        SOUTH,
    );
    column.formation = Formation::Column;
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        column,
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    // Centre to centre 8", centre to its nearest part 5.5": in musket range.
    let events = apply(&mut state, Action::Fire { unit: 0, target: 1 }, &[1; 6]);
    assert!(matches!(&events[0], Event::Fired { band, .. } if *band == 6.0));
}

#[test]
fn fire_goes_only_to_the_front() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 20.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            16.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 0, target: 1 }),
        Refusal::BadTarget { .. }
    ));
}

#[test]
fn no_fire_over_friends_or_through_narrow_gaps() {
    let target = || {
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            16.5,
            SOUTH,
        )
    };
    let shooter = || unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH);
    for (friend_x, allowed) in [(10.0, false), (12.2, false), (14.0, true)] {
        let mut state = game(vec![
            shooter(),
            target(),
            unit("Friends", BRITISH, "british-line", 2, friend_x, 13.0, NORTH),
        ]);
        go_to(&mut state, PhaseKind::Shoot, BRITISH);
        let fire = Action::Fire { unit: 0, target: 1 };
        assert_eq!(
            state.check(&fire).is_ok(),
            allowed,
            "friend at x {friend_x}"
        );
        if !allowed {
            assert!(
                refused(&mut state, fire)
                    .to_string()
                    .contains("Friends is in the way")
            );
        }
    }
}

#[test]
fn woods_block_the_line_of_fire() {
    let mut state = game_with(
        &[(p(0.0, 12.0), p(20.0, 14.0))],
        vec![
            unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
            unit(
                "Continentals",
                AMERICANS,
                "continentals",
                6,
                10.0,
                16.5,
                SOUTH,
            ),
        ],
        Vec::new(),
        3,
    );
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(
        refused(&mut state, Action::Fire { unit: 0, target: 1 })
            .to_string()
            .contains("cannot see")
    );
}

#[test]
fn a_gun_needs_three_hits_in_one_turn() {
    let units = || {
        vec![
            unit("Gun", BRITISH, "british-cannon", 1, 10.0, 8.0, NORTH),
            unit("23rd", BRITISH, "british-line", 2, 14.0, 10.0, NORTH),
            unit("US Gun", AMERICANS, "american-cannon", 1, 10.0, 15.0, SOUTH),
        ]
    };
    let mut state = game(units());
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(&mut state, Action::Fire { unit: 0, target: 2 }, &[5, 5]);
    assert!(events.contains(&Event::CannonHits {
        unit: state.who(2),
        this_turn: 2
    }));
    assert!(!state.is_removed(2));
    apply(&mut state, Action::Fire { unit: 1, target: 2 }, &[6, 1]);
    assert!(state.is_removed(2));
    // Hits do not carry over into the next turn.
    let mut state = game(units());
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(&mut state, Action::Fire { unit: 0, target: 2 }, &[5, 5]);
    apply(&mut state, Action::EndPhase, &[]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(&mut state, Action::Fire { unit: 1, target: 2 }, &[6, 1]);
    assert!(!state.is_removed(2));
    assert_eq!(state.units()[2].cannon_hits, 1);
}

/// Ruling HO13: fire and withdraw's single volley at −1 needs one more on
/// each die; where no die could hit at −1 it is refused, rolling nothing.
#[test]
fn a_hasty_volley_needs_one_more_on_each_die() {
    let mut state = game(vec![
        unit("Rifles", BRITISH, "virginia-rifles", 6, 10.0, 10.0, NORTH),
        unit("23rd", BRITISH, "british-line", 6, 34.0, 10.0, NORTH),
        unit("Militia", AMERICANS, "militia", 5, 10.0, 13.5, SOUTH),
        unit("Guards", AMERICANS, "british-line", 6, 34.0, 15.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(
        !state
            .legal_actions()
            .iter()
            .any(|a| matches!(a, Action::HastyFire { .. }))
    );
    // Rifles at 2.5": the 6" column, a 5 to hit, so a 6 at -1.
    let events = apply(
        &mut state,
        Action::HastyFire { unit: 0, target: 2 },
        &[5, 5, 6, 6, 1, 5],
    );
    assert!(matches!(
        &events[0],
        Event::Fired {
            needed: 6,
            hits: 2,
            ..
        }
    ));
    assert_eq!(state.units()[2].bases, 3);
    // Muskets at 4.5" need a 6: at -1 nothing could hit.
    assert!(matches!(
        refused(&mut state, Action::HastyFire { unit: 1, target: 3 }),
        Refusal::CannotFire { .. }
    ));
}
