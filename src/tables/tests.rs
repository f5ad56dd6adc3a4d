use super::*;

fn with_replaced(file: &str, from: &str, to: &str) -> Vec<TableText> {
    let mut texts = embedded_texts();
    let entry = texts
        .iter_mut()
        .find(|text| text.file == file)
        .expect("table file");
    assert!(
        entry.text.contains(from),
        "test edit `{from}` not found in {file}"
    );
    entry.text = entry.text.replacen(from, to, 1);
    texts
}

fn problems_of(texts: &[TableText]) -> String {
    Tables::load(texts)
        .expect_err("tables should be refused")
        .to_string()
}

#[test]
fn the_built_in_tables_load() {
    let tables = Tables::load(&embedded_texts()).unwrap();
    assert_eq!(tables.reaction.classes.len(), 9);
    assert_eq!(
        tables.reaction.class("indians").unwrap().0,
        "canadian-militia"
    );
}

#[test]
fn every_d100_roll_maps_to_exactly_one_character() {
    let tables = Tables::embedded();
    for roll in 1..=100u8 {
        let owners = tables
            .characters
            .characters
            .iter()
            .filter(|b| (b.from..=b.to).contains(&roll))
            .count();
        assert_eq!(owners, 1, "roll {roll}");
    }
    assert_eq!(tables.characters.roll(5), Character::Rash);
    assert_eq!(tables.characters.roll(95), Character::Cautious);
    assert_eq!(tables.characters.roll(96), Character::Timid);
}

#[test]
fn every_total_falls_in_exactly_one_band() {
    let tables = Tables::embedded();
    for total in -40..=40 {
        let owners = tables
            .reaction
            .bands
            .iter()
            .filter(|band| band.contains(total))
            .count();
        assert_eq!(owners, 1, "total {total}");
    }
}

#[test]
fn a_gap_in_the_character_bands_is_located() {
    let texts = with_replaced("characters.yaml", "from: 6,  to: 30", "from: 7,  to: 30");
    assert_eq!(
        problems_of(&texts),
        "tables/characters.yaml:14:7: character bands: no band covers 6; bands must cover 1-100 exactly once"
    );
}

#[test]
fn an_overlap_in_a_reinforcement_table_is_located() {
    let texts = with_replaced(
        "reinforcements.yaml",
        "{ from: 6,  to: 15,  troop: troupes",
        "{ from: 5,  to: 15,  troop: troupes",
    );
    let text = problems_of(&texts);
    assert!(
        text.starts_with(
            "tables/reinforcements.yaml:33:11: french reinforcements: 5 is covered by two bands"
        ),
        "{text}"
    );
}

#[test]
fn an_unknown_class_in_the_reinforcements_suggests_the_nearest() {
    let texts = with_replaced(
        "reinforcements.yaml",
        "class: rangers }",
        "class: rangres }",
    );
    let text = problems_of(&texts);
    assert!(
        text.contains("unknown troop class `rangres`; did you mean `rangers`?"),
        "{text}"
    );
    assert!(
        text.starts_with("tables/reinforcements.yaml:19:57:"),
        "{text}"
    );
}

#[test]
fn a_score_band_gap_is_reported() {
    let texts = with_replaced(
        "reaction.yaml",
        "  - min: 0\n    max: 0\n",
        "  - min: 0\n    max: -1\n",
    );
    let text = problems_of(&texts);
    assert!(text.contains("score bands"), "{text}");
}

#[test]
fn a_missing_class_column_is_a_located_serde_error() {
    let texts = with_replaced(
        "reaction.yaml",
        "open: 0,  natural: 2, hard: 2, retreat: 2 }",
        "open: 0,  natural: 2, hard: 2 }",
    );
    let text = problems_of(&texts);
    assert!(text.starts_with("tables/reaction.yaml:"), "{text}");
    assert!(text.contains("missing field `retreat`"), "{text}");
}

#[test]
fn a_wrong_type_is_reported_with_line_and_column() {
    let texts = with_replaced(
        "melee.yaml",
        "  rangers:              { name: Rangers,              factor: 3,",
        "  rangers:              { name: Rangers,              factor: lots,",
    );
    let text = problems_of(&texts);
    assert!(
        text.starts_with("tables/melee.yaml:18:63: troops.rangers.factor: invalid type"),
        "{text}"
    );
}

#[test]
fn problems_in_several_files_are_all_reported() {
    let mut texts = with_replaced("characters.yaml", "from: 6,  to: 30", "from: 7,  to: 30");
    let generals = texts
        .iter_mut()
        .find(|t| t.file == "generals.yaml")
        .unwrap();
    generals.text = generals
        .text
        .replacen("E: [96, 100] }", "E: [97, 100] }", 1);
    let text = problems_of(&texts);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.contains("rash reactions: no band covers 96"), "{text}");
}

#[test]
fn a_broken_yaml_file_never_panics() {
    for garbage in ["", "[", "classes: 3", "{{{{", "- - - -", "\u{0}"] {
        let mut texts = embedded_texts();
        texts[0].text = garbage.to_string();
        assert!(Tables::load(&texts).is_err(), "{garbage:?}");
    }
}

/// Every melee troop type takes its morale test with a class of the
/// reaction chart (ruling R19): an unknown class, or none, is refused at
/// load, as is a cap on rounds of 0.
#[test]
fn every_melee_troop_maps_to_a_known_reaction_class() {
    let tables = Tables::embedded();
    for (id, troop) in &tables.melee.troops {
        let class = troop.class.as_deref().unwrap_or_default();
        assert!(tables.reaction.class(class).is_ok(), "{id}: {class}");
    }
    let cases = [
        (
            "factor: 3, class: rangers }",
            "factor: 3, class: rangrs }",
            "tables/melee.yaml:18:66: unknown troop class `rangrs`; did you mean `rangers`?",
        ),
        (
            "factor: 3, class: rangers }",
            "factor: 3 }",
            "tables/melee.yaml:18:27: a troop type needs the reaction class it takes its morale test with",
        ),
        (
            "  max: 6\n",
            "  max: 0\n",
            "tables/melee.yaml:85:3: a melee lasts 1 to 100 rounds, not 0",
        ),
        (
            "  rangers: rangers\n",
            "  rangrs: rangers\n",
            "tables/melee.yaml:70:3: unknown troop class `rangrs`; did you mean `rangers`?",
        ),
        (
            "  british-regulars: line-infantry\n",
            "  british-regulars: line-infntry\n",
            "tables/melee.yaml:68:3: unknown melee troop type `line-infntry`; did you mean `line-infantry`?",
        ),
    ];
    for (from, to, expected) in cases {
        assert_eq!(
            problems_of(&with_replaced("melee.yaml", from, to)),
            expected
        );
    }
}

#[test]
fn the_melee_table_reads_as_the_seed_prints_it() {
    let tables = Tables::embedded();
    assert_eq!(tables.melee.casualties(21, 6), 4);
    assert_eq!(tables.melee.casualties(21, 1), 0);
    assert_eq!(tables.melee.casualties(1, 5), 1);
    assert_eq!(tables.melee.casualties(1, 4), 0);
    assert_eq!(tables.melee.casualties(16, 3), 2);
    assert_eq!(
        tables.melee.casualties(30, 6),
        4,
        "above 21 reads the 21 row"
    );
    assert_eq!(tables.melee.casualties(0, 6), 0);
}

#[test]
fn melee_casualties_never_fall_as_the_die_or_factor_rises() {
    let tables = Tables::embedded();
    for factor in 1..=21 {
        for die in 1..6u8 {
            assert!(
                tables.melee.casualties(factor, die) <= tables.melee.casualties(factor, die + 1)
            );
            assert!(
                tables.melee.casualties(factor, die) <= tables.melee.casualties(factor + 1, die)
            );
        }
    }
}

#[test]
fn a_class_line_reads_name_in_column() {
    let tables = Tables::embedded();
    for class in tables.reaction.classes.values() {
        for column in Column::ALL {
            assert_eq!(
                **class.line(column),
                format!("{} in {}", class.name, column.title())
            );
        }
    }
}

/// A factor of 2147483647 loaded and wrapped totals
/// round; every value now has a range, named with its place in the file.
#[test]
fn table_values_out_of_range_are_refused_with_the_allowed_range() {
    let cases = [
        (
            "reaction.yaml",
            "open: -2, natural: 0, hard: 2, retreat: -2, rated: true }",
            "open: 2147483647, natural: 0, hard: 2, retreat: -2, rated: true }",
            "tables/reaction.yaml:28:77: a class value 2147483647 is out of range; allowed -1000 to 1000",
        ),
        (
            "reaction.yaml",
            "per_figure_lost: -1",
            "per_figure_lost: -2147483648",
            "tables/reaction.yaml:67:3: a factor -2147483648 is out of range; allowed -1000 to 1000",
        ),
        (
            "reaction.yaml",
            "enemy_over: 15 ",
            "enemy_over: .inf ",
            "tables/reaction.yaml:60:3: a distance inf is out of range; allowed 0 to 1000 inches",
        ),
        (
            "reaction.yaml",
            "general_within: 3 ",
            "general_within: -1 ",
            "tables/reaction.yaml:61:3: a distance -1 is out of range; allowed 0 to 1000 inches",
        ),
        (
            "melee.yaml",
            "21: [4, 3, 3, 2, 1, 0]",
            "21: [4000000000, 3, 3, 2, 1, 0]",
            "tables/melee.yaml:40:8: a casualty count 4000000000 is out of range; allowed 0 to 1000",
        ),
        (
            "characters.yaml",
            "from: 1,  to: 5,   unit_factor: 2 }",
            "from: 1,  to: 5,   unit_factor: -99999 }",
            "tables/characters.yaml:13:56: a factor -99999 is out of range; allowed -1000 to 1000",
        ),
    ];
    for (file, from, to, expected) in cases {
        let problems = problems_of(&with_replaced(file, from, to));
        assert_eq!(problems, expected);
    }
}

/// The band checks walk every total between the limits, and the melee
/// check every row up to the highest: limits of 2 billion kept them busy.
#[test]
fn huge_band_limits_and_melee_rows_are_refused_at_once() {
    let started = std::time::Instant::now();
    let problems = problems_of(&with_replaced(
        "reaction.yaml",
        "- min: 9\n",
        "- min: 2000000000\n",
    ));
    assert!(
        problems.ends_with("a band limit 2000000000 is out of range; allowed -1000 to 1000"),
        "{problems}"
    );
    let problems = problems_of(&with_replaced("melee.yaml", "  21: ", "  2000000000: "));
    assert!(
        problems.ends_with("a factor row 2000000000 is out of range; allowed 1 to 1000"),
        "{problems}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
