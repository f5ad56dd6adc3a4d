//! Seed 001 set-up (`engine/setup.rs`): the Guilford order of battle and the table read from YAML.

use super::*;

#[test]
fn table_problems_are_located() {
    let text = crate::ruleset::BUILTIN[1]
        .2
        .replacen("line: 6 ", "line: -6 ", 1)
        .replacen("musket: [5, 6, none]", "musket: [5, 6, never]", 1)
        .replacen("woods: [woods]", "woods: [wods]", 1)
        .replacen("guards: { kind", "gaurds: { kind", 1);
    let rules = ruleset();
    let problems = RvTable::parse(Source::new("rv.yaml", &text), &rules).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 4, "{text}");
    assert!(text.contains("rv.yaml:"), "{text}");
    assert!(
        text.contains("unknown terrain kind `wods`; did you mean `woods`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown troop type `gaurds`; did you mean `guards`?"),
        "{text}"
    );
    assert!(text.contains("`none`"), "{text}");
    assert!(text.contains("inches"), "{text}");
}

#[test]
fn guilford_ruinous_sets_up_the_seed_order_of_battle() {
    let (state, events) = guilford();
    assert!(matches!(
        events[0],
        Event::PhaseBegan {
            turn: 1,
            phase: PhaseKind::Move,
            side: Some(Who { index: 0, .. })
        }
    ));
    assert_eq!(state.sides(), ["british", "americans"]);
    let count = |side: usize| state.units().iter().filter(|u| u.side == side).count();
    let bases = |side: usize| -> u32 {
        state
            .units()
            .iter()
            .filter(|u| u.side == side)
            .map(|u| u.bases)
            .sum()
    };
    // British: dragoons 6, Jaegers 4, Loyalists 4, light infantry 4, three
    // cannons, three Guards of 6, four line of 6.
    assert_eq!(
        (count(BRITISH), bases(BRITISH)),
        (14, 6 + 4 + 4 + 4 + 3 + 18 + 24)
    );
    // Americans: 8 militia of 5, rifles 6, dragoons 4, 4 cannons, 5 Continentals of 6.
    assert_eq!(
        (count(AMERICANS), bases(AMERICANS)),
        (19, 40 + 6 + 4 + 4 + 30)
    );
    assert_eq!(state.commanders().len(), 10);
    assert!(state.commanders()[0].overall && !state.commanders()[1].overall);
    let jaegers = unit_named(&state, "Jaegers");
    assert_eq!(state.formation(jaegers), Some(Formation::OpenOrder));
    assert!(!state.legal_actions().is_empty());
    // A seed-000 scenario is not played under these rules.
    let (file, text) = crate::scenario::builtin("guilford").unwrap();
    let seed_000 = crate::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    assert!(matches!(
        GameSetup::from_scenario(&seed_000, &rv_table()),
        Err(SetupError::WrongRuleset { .. })
    ));
}
