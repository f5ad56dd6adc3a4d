//! Seed 001 *Morale Checks* (`engine/morale.rs`): a die and modifiers against the bases left.

use super::*;

fn morale_event(events: &[Event]) -> (u8, i32, i32, bool) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Morale {
                roll,
                modifier,
                limit,
                passed,
                ..
            } => Some((*roll, *modifier, *limit, *passed)),
            _ => None,
        })
        .unwrap()
}

#[test]
fn morale_is_d6_plus_modifiers_against_bases() {
    // Guards -1: a 5 with 4 bases passes (5 - 1 ≤ 4).
    let mut state = game(vec![
        unit("Guards", BRITISH, "guards", 4, 24.0, 10.0, NORTH),
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
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[5, 1]);
    assert_eq!(morale_event(&events), (5, -1, 4, true));
    // Loyalists +1: a 4 with 4 bases fails; with a commander (a base) it passes.
    for (with_commander, passed) in [(false, false), (true, true)] {
        let mut loyalists = unit("Loyalists", BRITISH, "loyalists", 4, 24.0, 10.0, NORTH);
        loyalists.brigade = Some("Cornwallis".into());
        let mut state = game_with(
            &[],
            vec![
                loyalists,
                unit(
                    "Continentals",
                    AMERICANS,
                    "continentals",
                    6,
                    24.0,
                    14.0,
                    SOUTH,
                ),
            ],
            vec![commander("Cornwallis", BRITISH, 24.0, 8.0, false)],
            3,
        );
        if with_commander {
            apply(
                &mut state,
                Action::Join {
                    commander: 0,
                    unit: 0,
                },
                &[],
            );
        }
        go_to(&mut state, PhaseKind::Charge, BRITISH);
        let rolls: &[u8] = if passed { &[4, 1] } else { &[4] };
        let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, rolls);
        let limit = if with_commander { 5 } else { 4 };
        assert_eq!(morale_event(&events), (4, 1, limit, passed));
    }
}

#[test]
fn cannon_pass_morale_on_4_or_less() {
    let mut state = charge_game(unit(
        "US Gun",
        AMERICANS,
        "american-cannon",
        1,
        24.0,
        14.0,
        SOUTH,
    ));
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 4]);
    let tests: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Morale { limit, passed, .. } => Some((*limit, *passed)),
            _ => None,
        })
        .collect();
    assert_eq!(tests, [(4, true), (4, true)]);
    assert!(state.pending().is_some());
}

#[test]
fn militia_that_fail_morale_run_away() {
    let mut state = charge_game(unit("Militia", AMERICANS, "militia", 5, 24.0, 14.0, SOUTH));
    // Militia +1: a 5 makes 6 against 5 bases.
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 5]);
    assert!(events.contains(&Event::Removed {
        unit: state.who(1),
        why: Removal::RanAway
    }));
    assert_eq!(state.position(0), Some(p(24.0, 14.0)));
}
