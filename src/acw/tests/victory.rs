//! Seed 002 victory (`engine/victory.rs`): the scenario's conditions and the last turn.

use super::*;

#[test]
fn breaking_half_the_enemy_wins_and_the_last_turn_ends_the_game() {
    let mut setup = setup_with(
        &[],
        &[("A", "infantry", 10.0, 13.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)],
    );
    // The second condition is the one that fires: the outcome names it.
    setup.victory = vec![
        crate::scenario::Victory {
            winner: 1,
            when: crate::scenario::Condition::RoutFraction {
                side: 0,
                more_than: 0.5,
            },
        },
        crate::scenario::Victory {
            winner: 0,
            when: crate::scenario::Condition::RoutFraction {
                side: 1,
                more_than: 0.5,
            },
        },
    ];
    let (mut state, _) = start(setup.clone(), &[6, 1]);
    assign(&mut state, &[("A", 6), ("C", 1)]);
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    state.units[c.0].hits = 14;
    let events = apply(&mut state, Action::Fire { unit: a, target: c }, &[5]);
    assert!(matches!(
        events.last(),
        Some(Event::GameOver {
            winner: Some(0),
            ..
        })
    ));
    assert!(
        matches!(
            state.outcome(),
            Outcome::Won {
                side: 0,
                condition: 1,
                ..
            }
        ),
        "{:?}",
        state.outcome()
    );
    assert_eq!(state.to_act(), None);
    assert!(state.legal_actions().is_empty());
    assert_eq!(
        refusal(&mut state, Action::Hold { unit: a }),
        "the game is over"
    );
    // Three turns of holding: a draw.
    let (mut state, _) = start(setup, &[6, 1]);
    let mut roller = Seeded::new(3);
    while state.outcome() == &Outcome::Playing {
        let action = state
            .legal_actions()
            .into_iter()
            .find(|a| matches!(a, Action::AssignDie { .. } | Action::Hold { .. }))
            .unwrap();
        state.apply(&action, &mut roller).unwrap();
    }
    assert_eq!(state.outcome(), &Outcome::Draw);
    assert_eq!(state.turn(), 3);
    // An empty table with endless turns ends at once.
    let mut empty = setup_with(&[], &[], &[]);
    empty.turns = u32::MAX;
    let (state, events) = start(empty, &[]);
    assert_eq!(state.outcome(), &Outcome::Draw);
    assert!(matches!(
        events.last(),
        Some(Event::GameOver { winner: None, .. })
    ));
}
