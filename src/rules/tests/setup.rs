//! A game set up from its scenario and tables: bases from the troop types,
//! and the rule numbers read from YAML, every problem located.

use super::*;
use crate::ruleset::{BUILTIN, Ruleset};
use crate::yaml::Source;

#[test]
fn bases_come_from_the_troop_types() {
    let state = game(
        &[],
        &[
            ("Foot", "british-regulars", 10.0, 10.0, 0.0),
            ("Horse", "cavalry", 20.0, 10.0, 0.0),
            ("Guns", "artillery", 30.0, 10.0, 0.0),
        ],
        &[("Rifles", "riflemen", 10.0, 40.0, 180.0)],
    );
    let frontages: Vec<f64> = state.units.iter().map(|u| u.base.frontage).collect();
    assert_eq!(frontages, [4.0, 3.0, 2.0, 4.0]);
    assert_eq!(state.generals[0].base.frontage, 2.0);
    assert_eq!(
        state.units[3].category,
        crate::ruleset::Category::Skirmisher
    );
}

#[test]
fn a_modifier_beyond_a_thousand_is_refused() {
    // A house rule may multiply, but not past what a melee can add up.
    let ruleset = Ruleset::builtin("ohw-awi").unwrap().unwrap();
    let text = BUILTIN[0].2.replacen(
        "label: attacking artillery, multiply: 2,",
        "label: attacking artillery, multiply: 30000000,",
        1,
    );
    assert_ne!(text, BUILTIN[0].2);
    let problems = RulesTable::parse(Source::new("r.yaml", &text), &ruleset).unwrap_err();
    let text = problems.to_string();
    assert!(
        text.contains("multiply: 30000000 is not from -1000 to 1000"),
        "{text}"
    );
}

#[test]
fn rules_table_problems_are_located() {
    let ruleset = Ruleset::builtin("ohw-awi").unwrap().unwrap();
    let text = BUILTIN[0]
        .2
        .replacen("range: 12   ", "range: -12  ", 1)
        .replacen(
            "british-light-infantry: [skirmisher]",
            "british-light-infantry: [skirmishr]",
            1,
        )
        .replacen("riflemen: 1", "riflemn: 1", 1);
    let problems = RulesTable::parse(Source::new("r.yaml", &text), &ruleset).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 3, "{text}");
    assert!(text.contains("r.yaml:"), "{text}");
    assert!(
        text.contains("unknown troop type or category `skirmishr`; did you mean `skirmisher`?"),
        "{text}"
    );
    assert!(text.contains("unknown troop type `riflemn`"), "{text}");
    assert!(
        text.contains("rallying.range") || text.contains("inches from 0"),
        "{text}"
    );
}
