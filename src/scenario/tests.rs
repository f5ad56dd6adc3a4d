use super::*;

fn rules() -> Ruleset {
    Ruleset::builtin("ohw-awi").unwrap().unwrap()
}

fn load_text(name: &str, text: &str) -> Result<Scenario, Problems> {
    load(Source::new(name, text), Ruleset::builtin)
}

#[test]
fn every_builtin_scenario_loads_and_validates() {
    for (name, file, text) in BUILTIN {
        let scenario = load_text(file, text).unwrap_or_else(|p| panic!("{name}:\n{p}"));
        assert_eq!(scenario.name, *name);
    }
}

#[test]
fn guilford_follows_seed_000() {
    let (file, text) = builtin("guilford").unwrap();
    let s = load_text(file, text).unwrap();
    assert_eq!(
        (s.battlefield.width(), s.battlefield.height()),
        (48.0, 48.0)
    );
    assert_eq!(s.turns, 15);
    assert_eq!(s.sides[s.first].name, "americans");
    let british = &s.sides[0];
    assert_eq!(british.units.len(), 7);
    assert_eq!(british.generals[0].rallies, Some(8));
    assert_eq!(s.sides[1].units.len(), 12);
    assert_eq!(s.sides[1].generals[0].rallies, Some(4));
    for unit in &british.units {
        let base = unit.base.unwrap();
        assert!(
            base.corners().iter().all(|c| c.y <= 6.0),
            "{} is not within 6\" of its edge",
            unit.name
        );
    }
    assert_eq!(s.victory.len(), 2);
    // Each American line holds at least two infantry units; guns in the first two.
    let rules = &s.battlefield.ruleset;
    for line in ["first line", "second line", "third line"] {
        let units: Vec<&Unit> = s.sides[1]
            .units
            .iter()
            .filter(|u| u.group.as_deref() == Some(line))
            .collect();
        let foot = units
            .iter()
            .filter(|u| {
                matches!(
                    rules.troop(u.troop).category,
                    Category::Infantry | Category::Skirmisher
                )
            })
            .count();
        assert!(foot >= 2, "{line}");
        let guns = units
            .iter()
            .filter(|u| rules.troop(u.troop).category == Category::Artillery)
            .count();
        assert_eq!(guns, usize::from(line != "third line"), "{line}");
    }
    // The second line stands in the central wood.
    let woods = rules.terrain_kind("woods").unwrap();
    let stevens = s.find_unit("Stevens").unwrap().1;
    assert!(
        s.battlefield
            .terrain_at(stevens.base.unwrap().centre)
            .contains(&woods)
    );
}

#[test]
fn every_problem_is_reported_at_once_with_its_location() {
    let (_, text) = builtin("learning").unwrap();
    let broken = text
        .replace("kind: woods", "kind: wods")
        .replace(
            "troop_type: british-regulars",
            "troop_type: british-regular",
        )
        .replace("reaction_class: rangers", "reaction_class: rangerz")
        .replace("position: [24, 45]", "position: [24, 49]")
        .replace(
            "side: french, more_than: 0 }",
            "side: frensh, more_than: 0 }",
        );
    let problems = load_text("broken.yaml", &broken).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 5, "{text}");
    assert!(
        text.contains("broken.yaml:15:7: unknown terrain kind `wods`; did you mean `woods`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown troop type `british-regular`; did you mean `british-regulars`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown reaction class `rangerz`; did you mean `rangers`?"),
        "{text}"
    );
    assert!(
        text.contains("unit `Rangers` at 24,49 is off the table"),
        "{text}"
    );
    assert!(
        text.contains("unknown side `frensh`; did you mean `french`?"),
        "{text}"
    );
}

#[test]
fn overlapping_impassable_and_out_of_zone_units_are_refused() {
    let (_, text) = builtin("guilford").unwrap();
    let broken = text
        .replace("position: [14, 4]", "position: [36, 4]")
        .replace("position: [23.6, 30]", "position: [20, 30]")
        .replace("position: [8, 4]", "position: [8, 9]");
    let problems = load_text("g.yaml", &broken).unwrap_err();
    let text = problems.to_string();
    assert!(
        text.contains("unit `23rd Foot` overlaps `Guards Grenadiers`"),
        "{text}"
    );
    assert!(
        text.contains(
            "unit `Finley's Gun` (artillery) stands on woods at 20,30, which it cannot enter"
        ),
        "{text}"
    );
    assert!(
        text.contains("unit `71st Foot` at 8,9 is outside its deployment zone"),
        "{text}"
    );
}

#[test]
fn victory_conditions_must_name_something() {
    let (_, text) = builtin("guilford").unwrap();
    let broken = text.replace(
        "troop_type: continentals, count: 1",
        "troop_type: continentals, count: 3",
    );
    let text = load_text("g.yaml", &broken).unwrap_err().to_string();
    assert!(
        text.contains("side `americans` has 2 `continentals` unit(s); the condition needs 3"),
        "{text}"
    );
    let _ = rules();
}

#[test]
fn malformed_files_fail_cleanly() {
    for text in ["", "name: [", "- 1\n- 2", "name: x\ntitle: y\n", "{a: *b}"] {
        assert!(load_text("bad.yaml", text).is_err());
    }
}

#[test]
fn a_plan_names_what_the_side_has_and_says_what_it_expected() {
    let (_, text) = builtin("guilford").unwrap();
    let s = load_text("guilford.yaml", text).unwrap();
    let continentals = s.battlefield.ruleset.troop_type("continentals").unwrap();
    assert_eq!(
        s.sides[0].plan,
        Some(Plan::Attack(Objective::Troops(continentals)))
    );
    assert_eq!(
        s.sides[1].plan,
        Some(Plan::Defend(vec![
            "first line".into(),
            "second line".into(),
            "third line".into()
        ]))
    );
    let problems = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        load_text("guilford.yaml", &text.replace(from, to))
            .unwrap_err()
            .to_string()
    };
    let message = problems(
        "plan: { attack: continentals }",
        "plan: { attack: continentls }",
    );
    assert!(
        message.contains("unknown objective `continentls`; did you mean `continentals`?")
            && message.contains("guilford.yaml:"),
        "{message}"
    );
    let message = problems(
        "[first line, second line, third line]",
        "[first line, second lin]",
    );
    assert!(
        message
            .contains("no unit of the side is in group `second lin`; did you mean `second line`?"),
        "{message}"
    );
    let message = problems(
        "plan: { attack: continentals }",
        "plan: { attack: army, defend: [x] }",
    );
    assert!(message.contains("one of them"), "{message}");
    let message = problems("plan: { attack: continentals }", "plan: atack");
    assert!(
        message.contains("unknown plan `atack`; did you mean `attack`?"),
        "{message}"
    );
    let message = problems(
        "plan: { defend: [first line, second line, third line] }",
        "plan: defend\n    posture: hold",
    );
    assert!(message.contains("not both"), "{message}");
    // The older `posture: hold` is a defence of the groups as listed.
    let old = load_text(
        "guilford.yaml",
        &text.replace(
            "plan: { defend: [first line, second line, third line] }",
            "posture: hold",
        ),
    )
    .unwrap();
    assert_eq!(old.sides[1].plan, s.sides[1].plan);
}

/// A rule set's name is joined into a path under
/// `--tables`, so only plain names are names.
#[test]
fn rule_set_names_are_names_not_paths() {
    for good in ["ohw-awi", "my_rules.v2", "A1"] {
        assert!(is_plain_name(good), "{good}");
    }
    let long = "x".repeat(65);
    for bad in [
        "", "..", "../x", "a/b", "a\\b", "/etc/x", ".hidden", "a..b", "c:x", "é", &long,
    ] {
        assert!(!is_plain_name(bad), "{bad}");
    }
}

/// Two lines of `per_side` units a side on a 400" × 240" table at 1"
/// cells, for `turns` turns: the size the documented limits allow.
fn big_battle(per_side: usize, turns: u32) -> String {
    let mut text = format!(
        "name: big\ntitle: big\nruleset: ohw-awi\ntable: {{ width: 400, height: 240 }}\ncell: 1\nturns: {turns}\nfirst: blue\nsides:\n"
    );
    for (side, edge, y0, dy, facing) in [
        ("blue", "south", 2.0, 3.0, "north"),
        ("red", "north", 238.0, -3.0, "south"),
    ] {
        text.push_str(&format!("  - name: {side}\n    edge: {edge}\n    units:\n"));
        for i in 0..per_side {
            let (row, column) = (i / 55, i % 55);
            text.push_str(&format!(
                "      - {{ name: {side} {i}, troop_type: british-regulars, position: [{:.1}, {:.1}], facing: {facing} }}\n",
                3.6 + 7.2 * column as f64,
                y0 + dy * row as f64
            ));
        }
    }
    text
}

#[test]
fn a_battle_at_the_limits_loads_and_one_past_them_is_refused_in_one_line() {
    let most = load_text("big.yaml", &big_battle(MAX_UNITS / 2, 1000)).unwrap();
    assert_eq!(
        most.sides.iter().map(|s| s.units.len()).sum::<usize>(),
        MAX_UNITS
    );
    let error = load_text("big.yaml", &big_battle(MAX_UNITS / 2 + 1, 15)).unwrap_err();
    assert_eq!(error.0.len(), 1, "{error}");
    assert!(
        error.0[0]
            .message
            .contains("the sides have 2502 units; foe plays at most 2500"),
        "{error}"
    );
    let error = load_text("big.yaml", &big_battle(10, 1001)).unwrap_err();
    assert_eq!(error.0.len(), 1, "{error}");
    assert!(
        error.0[0].message.contains("between 1 and 1000 turns"),
        "{error}"
    );
}
