//! Seed 001 victory (`engine/victory.rs`): the defender driven off, time up, a broken attacker.

use super::*;

#[test]
fn driving_the_defender_off_wins_by_a_margin() {
    // Two American units: losing one of two leaves 50% ≥ 34%; both gone is
    // broken. The British lose nothing: margin +100.
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit("Militia", AMERICANS, "militia", 2, 10.0, 15.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(
        &mut state,
        Action::Fire { unit: 0, target: 1 },
        &[6, 1, 1, 1, 1, 1],
    );
    let outcome = state.outcome().unwrap();
    assert_eq!(
        outcome,
        Outcome {
            winner: BRITISH,
            reason: EndReason::DefenderDriven,
            margin: 100
        }
    );
    assert!(matches!(events.last(), Some(Event::GameOver { .. })));
    assert_eq!(state.to_act(), None);
    assert!(state.legal_actions().is_empty());
    assert!(matches!(
        refused(&mut state, Action::EndPhase),
        Refusal::GameOver
    ));
}

#[test]
fn time_up_leaves_the_field_to_the_defender() {
    let mut state = game_with(
        &[],
        vec![
            unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
            unit("33rd", BRITISH, "british-line", 6, 30.0, 10.0, NORTH),
            unit("Militia", AMERICANS, "militia", 5, 10.0, 15.0, SOUTH),
            unit("Maryland", AMERICANS, "continentals", 6, 30.0, 30.0, SOUTH),
        ],
        Vec::new(),
        1,
    );
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(
        &mut state,
        Action::Fire { unit: 0, target: 2 },
        &[6, 6, 1, 1, 1, 1],
    );
    for _ in 0..5 {
        apply(&mut state, Action::EndPhase, &[]);
    }
    // The militia lost 2 of the Americans' 11 bases (18%): margin +18.
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: AMERICANS,
            reason: EndReason::TimeUp,
            margin: 18
        })
    );
    assert_eq!(state.score(), 18);
}

#[test]
fn a_broken_attacker_loses() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 2, 10.0, 15.0, NORTH),
        unit("Rifles", AMERICANS, "virginia-rifles", 6, 10.0, 25.0, SOUTH),
        unit("Maryland", AMERICANS, "continentals", 6, 30.0, 30.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, AMERICANS);
    apply(
        &mut state,
        Action::Fire { unit: 1, target: 0 },
        &[6, 1, 1, 1, 1, 1],
    );
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: AMERICANS,
            reason: EndReason::AttackerBroken,
            margin: -100
        })
    );
}
