//! Seed 001 actions, events and refusals (`rv/event.rs`) as serde data and as sentences.

use super::*;

#[test]
fn actions_events_and_refusals_are_serde_and_read_as_sentences() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    let action = Action::Charge { unit: 0, target: 1 };
    let json = serde_json::to_string(&action).unwrap();
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action);
    let events = apply(&mut state, action, &[4, 2]);
    for event in &events {
        let json = serde_json::to_string(event).unwrap();
        assert_eq!(&serde_json::from_str::<Event>(&json).unwrap(), event);
        assert!(event.to_string().ends_with('.'), "{event}");
    }
    assert_eq!(
        events[1].to_string(),
        "23rd test morale to charge: 4+0 against 4, passed."
    );
    let refusal = refused(&mut state, Action::EndPhase);
    let json = serde_json::to_string(&refusal).unwrap();
    assert_eq!(serde_json::from_str::<Refusal>(&json).unwrap(), refusal);
}
