//! Seed 001 losses (`engine/losses.rs`): bases and units removed, the risk to commanders.

use super::*;

#[test]
fn a_unit_down_to_one_base_loses_it_but_a_cannon_does_not() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            3,
            10.0,
            15.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(
        &mut state,
        Action::Fire { unit: 0, target: 1 },
        &[6, 6, 1, 1, 1, 1],
    );
    assert!(events.contains(&Event::BasesLost {
        unit: state.who(1),
        lost: 3,
        left: 0
    }));
    assert!(state.is_removed(1));
    // A gun reduced to one base keeps it (a battery of two, house-ruled).
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit(
            "Battery",
            AMERICANS,
            "american-cannon",
            2,
            10.0,
            15.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(
        &mut state,
        Action::Fire { unit: 0, target: 1 },
        &[6, 6, 6, 1, 1, 1],
    );
    assert_eq!(state.units()[1].bases, 1);
    assert!(!state.is_removed(1));
}

#[test]
fn a_commander_falls_on_a_6_when_his_unit_is_shot_away() {
    for (risk, lost) in [(6, true), (5, false)] {
        let mut continentals = unit(
            "Continentals",
            AMERICANS,
            "continentals",
            2,
            10.0,
            15.0,
            SOUTH,
        );
        continentals.brigade = Some("Huger".into());
        let mut state = game_with(
            &[],
            vec![
                unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
                continentals,
            ],
            vec![commander("Huger", AMERICANS, 10.0, 20.0, false)],
            3,
        );
        go_to(&mut state, PhaseKind::Move, AMERICANS);
        apply(
            &mut state,
            Action::Join {
                commander: 0,
                unit: 1,
            },
            &[],
        );
        go_to(&mut state, PhaseKind::Shoot, BRITISH);
        apply(
            &mut state,
            Action::Fire { unit: 0, target: 1 },
            &[6, 1, 1, 1, 1, 1, risk],
        );
        assert!(state.is_removed(1));
        assert_eq!(state.commanders()[0].lost, lost);
        assert_eq!(state.commanders()[0].attached, None);
    }
}

#[test]
fn a_commander_risks_a_roll_after_every_melee() {
    // Won or lost, he rolls: a 6 and he falls.
    let mut guards = unit("Guards", BRITISH, "guards", 4, 24.0, 10.0, NORTH);
    guards.brigade = Some("O'Hara".into());
    let mut state = game_with(
        &[],
        vec![
            guards,
            unit(
                "Continentals",
                AMERICANS,
                "continentals",
                4,
                24.0,
                14.0,
                SOUTH,
            ),
        ],
        vec![commander("O'Hara", BRITISH, 24.0, 8.0, false)],
        3,
    );
    apply(
        &mut state,
        Action::Join {
            commander: 0,
            unit: 0,
        },
        &[],
    );
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[3, 1]);
    apply(
        &mut state,
        Action::Respond {
            response: Response::CounterCharge,
        },
        &[],
    );
    apply(&mut state, Action::EndPhase, &[]);
    let events = apply(&mut state, Action::EndPhase, &[6, 1, 6]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::CommanderRisk {
            roll: 6,
            lost: true,
            ..
        }
    )));
    assert!(state.commanders()[0].lost);
    assert_eq!(state.commander_of(0), None);
}

/// Ruling HO13: the Lone Warrior rout order. A unit of the side to move
/// leaves the field at once and counts as lost (its bases gone from the
/// victory margin); only in its own move phase, and never listed.
#[test]
fn a_routed_unit_leaves_the_field_and_counts_as_lost() {
    let mut state = game(vec![
        unit("71st", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit("Militia", AMERICANS, "militia", 5, 10.0, 30.0, SOUTH),
        unit("23rd", BRITISH, "british-line", 6, 34.0, 10.0, NORTH),
        unit("33rd", BRITISH, "british-line", 6, 10.0, 2.0, NORTH),
    ]);
    go_to(&mut state, PhaseKind::Move, BRITISH);
    assert!(!state.legal_actions().contains(&Action::Rout { unit: 0 }));
    assert!(matches!(
        refused(&mut state, Action::Rout { unit: 1 }),
        Refusal::NotYours { .. }
    ));
    let margin = state.score();
    let events = apply(&mut state, Action::Rout { unit: 0 }, &[]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Removed {
            why: Removal::Routed,
            ..
        }
    )));
    assert!(state.is_removed(0));
    assert_eq!(state.loss_percent(BRITISH), 33);
    assert_eq!(state.attacker_defender(), (BRITISH, AMERICANS));
    assert!(state.score() < margin, "the attacker lost its bases");
    assert!(matches!(
        refused(&mut state, Action::Rout { unit: 0 }),
        Refusal::OutOfPlay { .. }
    ));
    go_to(&mut state, PhaseKind::Shoot, AMERICANS);
    assert!(matches!(
        refused(&mut state, Action::Rout { unit: 1 }),
        Refusal::WrongPhase { .. }
    ));
}
