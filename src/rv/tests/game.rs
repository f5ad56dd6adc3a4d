//! Seed 001 whole games: random legal play, every listed action accepted, games ending.

use super::*;

/// The unit whose own action `action` is (a commander's, an answer to a
/// charge and the end of a phase are no unit's).
fn acting_unit(action: &Action) -> Option<usize> {
    match *action {
        Action::ChangeFormation { unit, .. }
        | Action::Mount { unit, .. }
        | Action::AboutFace { unit }
        | Action::Pivot { unit, .. }
        | Action::Move { unit, .. }
        | Action::Fire { unit, .. }
        | Action::Charge { unit, .. }
        | Action::HastyFire { unit, .. }
        | Action::Rout { unit } => Some(unit),
        Action::MoveCommander { .. }
        | Action::Join { .. }
        | Action::Leave { .. }
        | Action::Respond { .. }
        | Action::EndPhase => None,
    }
}

/// Play random legal actions (ending phases often, so games end). Every
/// few actions, each listed action is applied to a copy and must be
/// accepted (`try_all`); a random action of any kind, if refused, must
/// leave the state as it was.
fn random_game(mut state: GameState, seed: u64, max_actions: usize, try_all: bool) -> GameState {
    use rand::{RngExt, SeedableRng};
    let mut choose = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut dice = Seeded::new(seed ^ 0x5eed);
    let turns = state.turns();
    for step in 0..max_actions {
        if state.outcome().is_some() {
            break;
        }
        let actions = state.legal_actions();
        assert!(!actions.is_empty(), "a side to act always has an action");
        if state.pending().is_none() {
            assert_eq!(actions.last(), Some(&Action::EndPhase));
        }
        if try_all && step % 7 == 0 {
            for action in &actions {
                let mut copy = state.clone();
                copy.apply(action, &mut Seeded::new(seed))
                    .unwrap_or_else(|refusal| panic!("listed {action:?} refused: {refusal}"));
            }
            // One unit's legal actions are its own among all of them.
            for unit in 0..=state.units().len() {
                let own: Vec<Action> = actions
                    .iter()
                    .filter(|action| acting_unit(action) == Some(unit))
                    .cloned()
                    .collect();
                assert_eq!(state.legal_actions_of(unit), own, "unit {unit}");
            }
        }
        let n_units = state.units().len() + 2;
        let unit = choose.random_range(0..n_units);
        let target = choose.random_range(0..n_units);
        let to = p(
            choose.random_range(-5.0..state.battlefield().width() + 5.0),
            choose.random_range(-5.0..state.battlefield().height() + 5.0),
        );
        let bogus = match choose.random_range(0..8) {
            0 => Action::Fire { unit, target },
            1 => Action::Charge { unit, target },
            2 => Action::Move { unit, to },
            3 => Action::Pivot {
                unit,
                facing: choose.random_range(0.0..360.0),
            },
            4 => Action::ChangeFormation {
                unit,
                formation: Formation::ALL[target % 3],
            },
            5 => Action::Join {
                commander: target % 4,
                unit,
            },
            6 => Action::Leave {
                commander: target % 4,
                to,
            },
            _ => Action::Respond {
                response: [Response::Fire, Response::CounterCharge, Response::Stand][target % 3],
            },
        };
        if state.check(&bogus).is_err() {
            let before = state.clone();
            assert!(state.apply(&bogus, &mut no_dice()).is_err());
            assert!(state == before, "refused {bogus:?} changed the state");
        }
        let action = if choose.random_range(0..4) == 0 && actions.contains(&Action::EndPhase) {
            Action::EndPhase
        } else {
            actions[choose.random_range(0..actions.len())]
        };
        state
            .apply(&action, &mut dice as &mut dyn Roller)
            .unwrap_or_else(|refusal| panic!("listed {action:?} refused: {refusal}"));
        assert!(state.turn() <= turns);
        invariants(&state);
    }
    state
}

/// Every unit in play stands wholly on the table, on ground it may enter,
/// overlapping no other unit in play; strength stays within 0 and 1.
fn invariants(state: &GameState) {
    let field = state.battlefield();
    let in_play: Vec<usize> = (0..state.units().len())
        .filter(|&unit| !state.is_removed(unit))
        .collect();
    for &unit in &in_play {
        let base = state.footprint(unit);
        let u = &state.units()[unit];
        assert!(field.base_on_table(&base), "{} off the table", u.name);
        assert!(
            field
                .cells_under(&base)
                .iter()
                .all(|&cell| field.passable(u.troop, cell)),
            "{} on impassable ground",
            u.name
        );
        assert!(
            u.bases >= 1 && u.bases <= u.start_bases,
            "{}: {} bases",
            u.name,
            u.bases
        );
        for &other in in_play.iter().filter(|&&other| other > unit) {
            assert!(
                !base.overlaps(&state.footprint(other)),
                "{} overlaps {}",
                u.name,
                state.units()[other].name
            );
        }
    }
}

#[test]
fn a_whole_guilford_game_ends() {
    let (state, _) = guilford();
    let state = random_game(state, 1781, 20_000, false);
    let outcome = state.outcome().expect("the game ended");
    assert_eq!(outcome.margin, state.score());
    assert!(state.turn() <= state.turns());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, failure_persistence: None, ..Default::default() })]

    #[test]
    fn random_legal_play_ends_within_the_game_length(seed in proptest::prelude::any::<u64>()) {
        let mut light = unit("Light Infantry", BRITISH, "british-light-infantry", 4, 40.0, 4.0, NORTH);
        light.formation = Formation::OpenOrder;
        let mut guards = unit("Guards", BRITISH, "guards", 6, 24.0, 4.0, NORTH);
        guards.brigade = Some("O'Hara".into());
        let state = game_with(
            &[(p(4.0, 20.0), p(16.0, 28.0))],
            vec![
                guards,
                unit("Legion", BRITISH, "british-dragoons", 4, 8.0, 4.0, NORTH),
                unit("Gun", BRITISH, "british-cannon", 1, 32.0, 3.0, NORTH),
                light,
                unit("Militia", AMERICANS, "militia", 5, 12.0, 18.0, SOUTH),
                unit("Rifles", AMERICANS, "virginia-rifles", 6, 36.0, 18.0, SOUTH),
                unit("Maryland", AMERICANS, "continentals", 6, 24.0, 30.0, SOUTH),
                unit("US Gun", AMERICANS, "american-cannon", 1, 24.0, 24.0, SOUTH),
                unit("Dragoons", AMERICANS, "american-dragoons", 4, 40.0, 40.0, SOUTH),
            ],
            vec![
                commander("O'Hara", BRITISH, 24.0, 1.0, false),
                commander("Greene", AMERICANS, 24.0, 44.0, true),
            ],
            6,
        );
        let state = random_game(state, seed, 5_000, true);
        proptest::prop_assert!(state.outcome().is_some(), "no outcome by turn {}", state.turn());
    }
}
