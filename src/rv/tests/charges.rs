//! Seed 001 *Charges* (`engine/charges.rs`): who may charge, morale first, the answers.

use super::*;

#[test]
fn charges_only_from_line_and_within_range() {
    let mut column = unit("71st", BRITISH, "british-line", 6, 30.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        column,
        unit("Gun", BRITISH, "british-cannon", 1, 20.0, 10.0, NORTH),
        unit("Legion", BRITISH, "british-dragoons", 4, 40.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            12.0,
            SOUTH,
        ),
        unit("Militia", AMERICANS, "militia", 5, 30.0, 15.0, SOUTH),
        unit("US Gun", AMERICANS, "american-cannon", 1, 20.0, 14.0, SOUTH),
        unit("Maryland", AMERICANS, "continentals", 4, 40.0, 17.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    // 6" of gap: infantry reach it.
    assert!(state.check(&Action::Charge { unit: 0, target: 4 }).is_ok());
    assert!(matches!(
        refused(&mut state, Action::Charge { unit: 1, target: 5 }),
        Refusal::CannotCharge { .. }
    ));
    assert!(matches!(
        refused(&mut state, Action::Charge { unit: 2, target: 6 }),
        Refusal::CannotCharge { .. }
    ));
    // 10.75" of gap: beyond infantry, within the dragoons' 12".
    assert!(state.check(&Action::Charge { unit: 3, target: 7 }).is_ok());
    let mut far = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            12.5,
            SOUTH,
        ),
    ]);
    go_to(&mut far, PhaseKind::Charge, BRITISH);
    assert!(
        refused(&mut far, Action::Charge { unit: 0, target: 1 })
            .to_string()
            .contains("beyond charge range (6\")")
    );
}

#[test]
fn a_charger_that_fails_morale_does_not_charge() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[5]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ChargeFaltered { .. }))
    );
    assert_eq!(state.position(0), Some(p(24.0, 10.0)));
    assert!(state.pending().is_none());
    // It may not try again this turn, but it may still be charged.
    assert!(matches!(
        refused(&mut state, Action::Charge { unit: 0, target: 1 }),
        Refusal::CannotCharge { .. }
    ));
    apply(&mut state, Action::EndPhase, &[]);
    assert!(state.check(&Action::Charge { unit: 1, target: 0 }).is_ok());
}

#[test]
fn a_target_that_fails_loses_a_base_and_retreats_12() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    // Charger 4 ≤ 4 passes; target 6 > 5 fails.
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 6]);
    assert_eq!(state.units()[1].bases, 4);
    assert_eq!(state.position(1), Some(p(24.0, 26.0)));
    assert_eq!(state.position(0), Some(p(24.0, 14.0)));
    assert!(state.melees().is_empty());
}

#[test]
fn a_charged_cannon_that_fails_is_eliminated() {
    let mut state = charge_game(unit(
        "US Gun",
        AMERICANS,
        "american-cannon",
        1,
        24.0,
        14.0,
        SOUTH,
    ));
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 5]);
    assert!(state.is_removed(1));
}

#[test]
fn a_target_that_passes_may_fire_at_1_inch() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 2]);
    // The target's side answers.
    assert_eq!(state.to_act(), Some(AMERICANS));
    assert_eq!(
        state.legal_actions(),
        [
            Action::Respond {
                response: Response::Fire
            },
            Action::Respond {
                response: Response::CounterCharge
            },
        ]
    );
    assert!(matches!(
        refused(&mut state, Action::EndPhase),
        Refusal::ResponsePending
    ));
    // Five dice in the 1" column, needing 5.
    let events = apply(
        &mut state,
        Action::Respond {
            response: Response::Fire,
        },
        &[5, 1, 1, 1, 1],
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Fired { needed: 5, hits: 1, band, .. } if *band == 1.0))
    );
    assert_eq!(state.units()[0].bases, 3);
    // The survivors close and fight in the melee phase.
    assert!(state.footprint(0).distance_to(&state.footprint(1)) < 0.01);
    assert_eq!(state.melees().len(), 1);
    assert_eq!(state.to_act(), Some(BRITISH));
}

#[test]
fn a_counter_charge_meets_in_the_middle() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        16.0,
        SOUTH,
    ));
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 2]);
    apply(
        &mut state,
        Action::Respond {
            response: Response::CounterCharge,
        },
        &[],
    );
    // 5" apart at the start: each goes 2.5".
    let (a, b) = (state.position(0).unwrap(), state.position(1).unwrap());
    assert!(
        (a.y - 12.5).abs() < 0.01 && (b.y - 13.5).abs() < 0.01,
        "{a:?} {b:?}"
    );
    assert!(state.melees()[0].counter);
}

#[test]
fn a_unit_charged_in_the_flank_can_only_stand() {
    // Facing east, its front is away from the charger.
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 4, 22.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            3,
            24.0,
            14.0,
            90.0,
        ),
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 1]);
    assert_eq!(
        state.legal_actions(),
        [Action::Respond {
            response: Response::Stand
        }]
    );
    apply(
        &mut state,
        Action::Respond {
            response: Response::Stand,
        },
        &[],
    );
    assert!(state.melees()[0].flank);
}
