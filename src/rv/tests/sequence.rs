//! Seed 001 *Turn Sequence* (`engine/mod.rs`): the phases as data, the British first, refusals.

use super::*;

#[test]
fn the_turn_sequence_is_data() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 24.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            24.0,
            40.0,
            SOUTH,
        ),
    ]);
    let mut seen = Vec::new();
    for _ in 0..6 {
        let phase = state.phase();
        seen.push((state.turn(), phase.kind, state.to_act()));
        state.apply(&Action::EndPhase, &mut no_dice()).unwrap();
    }
    use PhaseKind::*;
    assert_eq!(
        seen,
        [
            (1, Move, Some(BRITISH)),
            (1, Shoot, Some(BRITISH)),
            (1, Move, Some(AMERICANS)),
            (1, Shoot, Some(AMERICANS)),
            (1, Charge, Some(BRITISH)),
            (1, Charge, Some(AMERICANS)),
        ]
    );
    // The melee phase runs by itself and the next turn begins.
    assert_eq!((state.turn(), state.phase().kind), (2, Move));
    assert_eq!(state.to_act(), Some(BRITISH));
    assert_eq!(
        rv_table()
            .sequence
            .iter()
            .map(|p| p.kind)
            .collect::<Vec<_>>(),
        [Move, Shoot, Move, Shoot, Charge, Melee]
    );
}

#[test]
fn british_charge_first() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 24.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            24.0,
            14.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    // The Americans may not charge until the British have done.
    let american = unit_named(&state, "Continentals");
    assert!(matches!(
        refused(
            &mut state,
            Action::Charge {
                unit: american,
                target: 0
            }
        ),
        Refusal::NotYours { .. }
    ));
    apply(&mut state, Action::EndPhase, &[]);
    assert_eq!(state.to_act(), Some(AMERICANS));
    assert_eq!(state.phase().kind, PhaseKind::Charge);
    assert!(
        state
            .check(&Action::Charge {
                unit: american,
                target: 0
            })
            .is_ok()
    );
}

#[test]
fn a_refused_action_changes_nothing_and_rolls_no_die() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            30.0,
            SOUTH,
        ),
    ]);
    for action in [
        Action::Move {
            unit: 0,
            to: p(10.0, 40.0),
        },
        Action::Move {
            unit: 0,
            to: p(f64::NAN, 1.0),
        },
        Action::Move {
            unit: 1,
            to: p(10.0, 28.0),
        },
        Action::Move {
            unit: 99,
            to: p(10.0, 12.0),
        },
        Action::Fire { unit: 0, target: 1 },
        Action::Charge { unit: 0, target: 1 },
        Action::Respond {
            response: Response::Fire,
        },
        Action::Pivot {
            unit: 0,
            facing: f64::INFINITY,
        },
        Action::Join {
            commander: 3,
            unit: 0,
        },
    ] {
        let refusal = refused(&mut state, action);
        assert!(!refusal.to_string().is_empty());
    }
}
