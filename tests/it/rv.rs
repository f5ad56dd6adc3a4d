//! The seed-001 engine through the library's public interface: the Guilford
//! order of battle loads from its file, and a game of the scenario, the seed
//! and the list of actions replays event for event.

use foe::dice::Seeded;
use foe::ruleset::Ruleset;
use foe::rv::{Action, Event, GameSetup, GameState, RvTable};
use foe::yaml::Source;
use std::sync::Arc;

fn guilford() -> GameState {
    // The shipped scenario, as `foe play guilford-ruinous` reads it.
    let (file, text) = foe::scenario::builtin("guilford-ruinous").expect("built in");
    let scenario =
        foe::scenario::load(Source::new(file, text), Ruleset::builtin).expect("the scenario loads");
    let ruleset = &scenario.battlefield.ruleset;
    let table = Arc::new(
        RvTable::builtin(&ruleset.name, ruleset)
            .expect("a built-in rule set")
            .expect("a valid table"),
    );
    let setup = GameSetup::from_scenario(&scenario, &table).expect("placed units");
    GameState::new(setup, table, &mut Seeded::new(0))
        .expect("a playable setup")
        .0
}

/// Play to the end, always taking the action at `pick(turn, n_actions)`.
fn play(seed: u64, pick: fn(usize, usize) -> usize) -> (Vec<Action>, Vec<Event>, GameState) {
    let mut state = guilford();
    let mut dice = Seeded::new(seed);
    let (mut actions, mut events) = (Vec::new(), Vec::new());
    while state.outcome().is_none() {
        let legal = state.legal_actions();
        let action = legal[pick(actions.len(), legal.len())];
        events.extend(state.apply(&action, &mut dice).expect("a listed action"));
        actions.push(action);
        assert!(actions.len() < 50_000, "the game does not end");
    }
    (actions, events, state)
}

fn spread(step: usize, n: usize) -> usize {
    // Mostly something other than ending the phase, now and then the end.
    if step % 5 == 4 { n - 1 } else { (step * 7) % n }
}

#[test]
fn a_guilford_game_replays_from_its_seed_and_actions() {
    let (actions, events, state) = play(1781, spread);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.margin, state.score());
    assert!(state.turn() <= state.turns());
    // The same seed and actions give the same events.
    let mut again = guilford();
    let mut dice = Seeded::new(1781);
    let mut replayed = Vec::new();
    for action in &actions {
        replayed.extend(again.apply(action, &mut dice).unwrap());
    }
    assert_eq!(replayed, events);
    assert_eq!(again.outcome(), Some(outcome));
    // Every event reads as a sentence.
    assert!(events.iter().all(|e| !e.to_string().is_empty()));
}
