//! Seed 002 set-up (`engine/setup.rs`): optional rules from scenario or caller, tables from YAML.

use super::*;

#[test]
fn optional_rules_switch_from_the_scenario_or_the_caller() {
    let text = shipped_henry_hill().1.replace(
        "first: union ",
        "optional_rules: [initiative, good-commanders]\nfirst: union ",
    );
    let scenario = crate::scenario::load(Source::new("h.yaml", &text), Ruleset::builtin).unwrap();
    let table = acw_table();
    let setup = GameSetup::from_scenario(&scenario, &table).unwrap();
    assert!(setup.optional.initiative && setup.optional.good_commanders && !setup.optional.draft);
    // Jackson is brave: a good commander (ruling AC3); McDowell is not.
    assert_eq!(
        setup
            .forces
            .iter()
            .map(|f| f.extra_dice)
            .collect::<Vec<_>>(),
        vec![0, 1]
    );
    let mut rules = OptionalRules::default();
    rules.set("draft", true).unwrap();
    assert!(rules.draft);
    assert!(
        rules
            .set("initiativ", true)
            .unwrap_err()
            .contains("did you mean `initiative`")
    );
    let text = shipped_henry_hill()
        .1
        .replace("first: union ", "optional_rules: [drafting]\nfirst: union ");
    let scenario = crate::scenario::load(Source::new("h.yaml", &text), Ruleset::builtin).unwrap();
    assert!(matches!(
        GameSetup::from_scenario(&scenario, &table),
        Err(SetupError::OptionalRule(_))
    ));
}

#[test]
fn table_problems_are_located() {
    let (_, file, text) = crate::ruleset::BUILTIN
        .iter()
        .find(|(name, _, _)| *name == "ohw-acw")
        .unwrap();
    let bad = text
        .replacen(
            "column: 8          # seed 002: \"a march",
            "colum: 8          # seed 002: \"a march",
            1,
        )
        .replacen("removed_at: 15", "removed_at: 0", 1)
        .replacen("never: [artillery]", "never: [artilery]", 1);
    let rules = Ruleset::parse(Source::new(file, &bad)).unwrap();
    let problems = AcwTable::parse(Source::new("acw.yaml", &bad), &rules).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 3, "{text}");
    assert!(
        text.contains("unknown formation `colum`; did you mean `column`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown troop type `artilery`; did you mean `artillery`?"),
        "{text}"
    );
    assert!(text.contains("acw.yaml:"), "{text}");
}
