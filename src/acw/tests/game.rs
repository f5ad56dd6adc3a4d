//! Seed 002 whole games: Henry House Hill loaded and random legal play to the end.

use super::*;

/// Play random legal actions to the end; every listed action must be
/// accepted, and a refused one must change nothing.
fn random_game(setup: GameSetup, seed: u64) -> GameState {
    use rand::{RngExt, SeedableRng};
    let mut pick = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut roller = Seeded::new(seed);
    let (mut state, _) = GameState::new(setup, acw_table(), &mut roller).unwrap();
    for _ in 0..20_000 {
        if state.outcome() != &Outcome::Playing {
            break;
        }
        let legal = state.legal_actions();
        assert!(!legal.is_empty(), "someone can always act");
        // Now and then, an action that may well be illegal.
        if pick.random_range(0..8) == 0 {
            let unit = UnitId(pick.random_range(0..state.units.len() + 1));
            let wild = match pick.random_range(0..4) {
                0 => Action::Fire {
                    unit,
                    target: UnitId(pick.random_range(0..state.units.len())),
                },
                1 => Action::Charge {
                    unit,
                    target: UnitId(pick.random_range(0..state.units.len())),
                },
                2 => mv(
                    unit,
                    None,
                    pick.random_range(-5.0..40.0),
                    pick.random_range(-5.0..40.0),
                    90.0,
                ),
                _ => Action::AssignDie {
                    die: pick.random_range(0..8),
                    unit,
                },
            };
            // A wild action that happens to be legal is played on the
            // game's dice; a refused one must roll none and change nothing.
            if state.check(&wild).is_ok() {
                state.apply(&wild, &mut roller).unwrap();
            } else {
                let before = fingerprint(&state);
                assert!(state.apply(&wild, &mut Scripted::new([])).is_err());
                assert_eq!(before, fingerprint(&state));
            }
            continue;
        }
        let action = legal[pick.random_range(0..legal.len())].clone();
        state
            .apply(&action, &mut roller)
            .unwrap_or_else(|r| panic!("listed action {action} refused: {r}"));
    }
    assert_ne!(state.outcome(), &Outcome::Playing, "the game ends");
    state
}

#[test]
fn henry_hill_loads_and_random_play_finishes() {
    let setup = henry_hill();
    assert_eq!(setup.forces[0].units.len(), 10);
    assert_eq!(setup.forces[1].units.len(), 8);
    let state = random_game(setup, 1);
    assert!(state.turn() <= 15);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 6, ..Default::default() })]
    #[test]
    fn random_legal_play_never_panics(seed in 0u64..1_000_000, draft: bool, initiative: bool, good: bool) {
        let mut setup = henry_hill();
        setup.turns = 4;
        setup.optional = OptionalRules { initiative, draft, good_commanders: good };
        setup.forces[1].extra_dice = 1;
        random_game(setup, seed);
    }
}
