//! The scenario's *Victory Conditions* and *Game Length*
//! (`engine/victory.rs`): a rout fraction, rout or exit, and at the end of
//! the last turn an area held or a draw.

use super::*;

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
