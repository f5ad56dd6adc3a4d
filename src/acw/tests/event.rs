//! Seed 002 actions, events and refusals (`acw/event.rs`) as serde data and as words.

use super::*;

#[test]
fn actions_and_events_are_data_and_words() {
    let actions = [
        Action::AssignDie {
            die: 6,
            unit: UnitId(2),
        },
        mv(UnitId(1), Some(Formation::Column), 3.5, 4.0, 90.0),
        Action::Fire {
            unit: UnitId(1),
            target: UnitId(4),
        },
        Action::Charge {
            unit: UnitId(1),
            target: UnitId(4),
        },
        Action::Hold { unit: UnitId(1) },
        Action::Respond {
            unit: UnitId(4),
            fire: true,
        },
    ];
    for action in &actions {
        let json = serde_json::to_string(action).unwrap();
        assert_eq!(
            &serde_json::from_str::<Action>(&json).unwrap(),
            action,
            "{json}"
        );
    }
    assert_eq!(actions[0].to_string(), "assign 6 to unit 2");
    assert_eq!(
        actions[1].to_string(),
        "unit 1 forms column and moves to 3.5,4 facing 90°"
    );
    let fired = Event::Fired {
        unit: UnitId(1),
        target: UnitId(4),
        roll: 5,
        modifiers: vec![Modifier {
            label: "short range".into(),
            add: 1,
        }],
        halved_for_cover: true,
        hits: 3,
    };
    assert_eq!(
        fired.to_string(),
        "unit 1 fires at unit 4: 5 (short range +1), halved for cover: 3 hits"
    );
    let event = Event::InitiativeRolled {
        rolls: vec![[3, 3], [1, 2]],
        winner: 1,
    };
    assert_eq!(
        event.to_string(),
        "initiative (optional rule #1): 3-3, then 1-2; side 1 wins"
    );
    let json = serde_json::to_string(&event).unwrap();
    assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), event);
    let refusal = Refusal::Broken {
        rule: Rule::Charging,
        detail: "a unit cannot charge in march column".into(),
    };
    assert_eq!(
        refusal.to_string(),
        "seed 002 charging: a unit cannot charge in march column"
    );
    let json = serde_json::to_string(&refusal).unwrap();
    assert_eq!(serde_json::from_str::<Refusal>(&json).unwrap(), refusal);
}
