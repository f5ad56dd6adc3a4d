//! Fuzz targets as property tests (cargo-fuzz needs a nightly compiler):
//! the scenario loader on mutated shipped scenarios, the in-game command
//! parser on random lines and near-misses, and both save loaders on
//! mutated real saves. Each must never panic: a mutated scenario is a
//! game or a list of problems located in its file; a line is a command or
//! a message; a save is a game or a message. Case counts are small, so
//! the three run in a few seconds in a debug build.

use foe::dice::Seeded;
use foe::host::repl::{Names, parse};
use foe::host::save::GameSave;
use foe::ruleset::Ruleset;
use foe::save::ScenarioFile;
use foe::scenario::Scenario;
use foe::tables::Tables;
use foe::yaml::Source;
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

/// One edit of a text.
#[derive(Debug, Clone)]
enum Edit {
    /// Remove `length` bytes at a place (0 to 1 of the text's length).
    Delete(f64, usize),
    /// Insert text at a place.
    Insert(f64, String),
    /// Repeat the `length` bytes at a place.
    Repeat(f64, usize),
    /// Cut the text at a place.
    Truncate(f64),
    /// Swap two lines.
    SwapLines(f64, f64),
}

/// Text a mutation inserts: YAML and JSON syntax, hostile numbers, unicode.
fn insertion() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\n".to_string()),
        Just(": ".to_string()),
        Just("- ".to_string()),
        Just("  ".to_string()),
        Just("\t".to_string()),
        Just("&a ".to_string()),
        Just("*a".to_string()),
        Just("<<: *a\n".to_string()),
        Just("{".to_string()),
        Just("]".to_string()),
        Just("\"".to_string()),
        Just(",".to_string()),
        Just("null".to_string()),
        Just("-1".to_string()),
        Just("1e308".to_string()),
        Just("-1e308".to_string()),
        Just(".nan".to_string()),
        Just("NaN".to_string()),
        Just("18446744073709551616".to_string()),
        Just("4294967296".to_string()),
        Just("0".to_string()),
        Just("🦀".to_string()),
        Just("é".to_string()),
        "[a-z0-9 :,.-]{1,12}",
        any::<String>().prop_map(|text| text.chars().take(8).collect()),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (0.0..1.0f64, 1usize..40).prop_map(|(at, length)| Edit::Delete(at, length)),
        4 => (0.0..1.0f64, insertion()).prop_map(|(at, text)| Edit::Insert(at, text)),
        1 => (0.0..1.0f64, 1usize..200).prop_map(|(at, length)| Edit::Repeat(at, length)),
        1 => (0.0..1.0f64).prop_map(Edit::Truncate),
        1 => (0.0..1.0f64, 0.0..1.0f64).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

/// The nearest character boundary at or before `fraction` of the text.
fn boundary(text: &str, fraction: f64) -> usize {
    let mut at = ((text.len() as f64) * fraction) as usize;
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        match edit {
            Edit::Delete(at, length) => {
                let start = boundary(&text, *at);
                let end = boundary(
                    &text,
                    ((start + length) as f64 / text.len().max(1) as f64).min(1.0),
                );
                if end > start {
                    text.replace_range(start..end, "");
                }
            }
            Edit::Insert(at, insert) => {
                let at = boundary(&text, *at);
                text.insert_str(at, insert);
            }
            Edit::Repeat(at, length) => {
                let start = boundary(&text, *at);
                let end = boundary(
                    &text,
                    ((start + length) as f64 / text.len().max(1) as f64).min(1.0),
                );
                let piece = text[start..end].to_string();
                text.insert_str(end, &piece);
            }
            Edit::Truncate(at) => {
                let at = boundary(&text, *at);
                text.truncate(at);
            }
            Edit::SwapLines(a, b) => {
                let mut lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let (a, b) = (
                        ((lines.len() as f64) * a) as usize % lines.len(),
                        ((lines.len() as f64) * b) as usize % lines.len(),
                    );
                    lines.swap(a, b);
                }
                text = lines.join("\n");
            }
        }
    }
    text
}

/// A mutated scenario is a game, or problems each naming the file (with a
/// line inside it, when there is one).
fn check_scenario(name: &str, text: &str) -> Result<(), TestCaseError> {
    match foe::scenario::load(Source::new(name, text), Ruleset::builtin) {
        Ok(_) => {}
        Err(problems) => {
            prop_assert!(!problems.0.is_empty());
            let lines = text.lines().count() + 1;
            for problem in &problems.0 {
                prop_assert_eq!(&problem.file, name);
                prop_assert!(!problem.message.is_empty());
                if let Some(line) = problem.line {
                    prop_assert!(line >= 1 && line <= lines, "{problem} of {lines} lines");
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// The small shipped scenario, mutated anywhere.
    #[test]
    fn mutated_learning_scenarios_load_or_say_where(edits in proptest::collection::vec(edit(), 1..6)) {
        let (file, text) = foe::scenario::builtin("learning").unwrap();
        check_scenario(file, &apply(text, &edits))?;
    }

    /// Guilford (seven terrain features, nineteen units), mutated anywhere.
    #[test]
    fn mutated_guilford_scenarios_load_or_say_where(edits in proptest::collection::vec(edit(), 1..4)) {
        let (file, text) = foe::scenario::builtin("guilford").unwrap();
        check_scenario(file, &apply(text, &edits))?;
    }
}

/// A Guilford game at its start, for the parser.
fn guilford() -> &'static (Arc<Scenario>, foe::host::Game) {
    static GAME: OnceLock<(Arc<Scenario>, foe::host::Game)> = OnceLock::new();
    GAME.get_or_init(|| {
        let (file, text) = foe::scenario::builtin("guilford").unwrap();
        let scenario = foe::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
        let (game, _) =
            foe::host::Game::start(&scenario, &Tables::embedded(), &mut Seeded::new(1781)).unwrap();
        (Arc::new(scenario), game)
    })
}

/// Lines near real commands: command words, labels, names and points in
/// any order, with hostile numbers and odd characters between.
fn near_command() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("move"),
        Just("mv"),
        Just("pivot"),
        Just("charge"),
        Just("fire"),
        Just("rally"),
        Just("general"),
        Just("end"),
        Just("turn"),
        Just("map"),
        Just("--svg"),
        Just("status"),
        Just("log"),
        Just("what"),
        Just("why"),
        Just("save"),
        Just("load"),
        Just("undo"),
        Just("rewind"),
        Just("history"),
        Just("victory"),
        Just("help"),
        Just("?"),
        Just("to"),
        Just("forward"),
        Just("back"),
        Just("towards"),
        Just("road"),
        Just("facing"),
        Just("max"),
        Just("B1"),
        Just("B4"),
        Just("A3"),
        Just("A12"),
        Just("BG1"),
        Just("AG1"),
        Just("23rd"),
        Just("Guards"),
        Just("Grenadiers"),
        Just("Cornwallis"),
        Just("Greene"),
        Just("(23rd Foot)"),
        Just("("),
        Just(")"),
        Just("1e308"),
        Just("-1e308"),
        Just("NaN"),
        Just("inf"),
        Just("-0"),
        Just("18446744073709551616"),
        Just("4294967296"),
        Just("12,8"),
        Just("12 8"),
        Just("1e308,-1e308"),
        Just(","),
        Just("ne"),
        Just("°"),
        Just("\""),
        Just("é"),
        Just("🦀"),
        Just("\u{0}"),
    ];
    proptest::collection::vec(word, 0..9).prop_map(|words| words.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any text at all.
    #[test]
    fn the_command_parser_takes_any_line(line in any::<String>()) {
        let (scenario, game) = guilford();
        let _ = parse(&Names::new(game, scenario), &line);
    }

    /// Lines made of command words, names and hostile numbers.
    #[test]
    fn the_command_parser_takes_near_misses(line in near_command()) {
        let (scenario, game) = guilford();
        let _ = parse(&Names::new(game, scenario), &line);
    }
}

/// A real save: a few turns of a `learning` game.
fn learning_save() -> &'static (String, Arc<Tables>) {
    static SAVE: OnceLock<(String, Arc<Tables>)> = OnceLock::new();
    SAVE.get_or_init(|| {
        let tables = Arc::new(Tables::embedded());
        let (file, text) = foe::scenario::builtin("learning").unwrap();
        let scenario = foe::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
        let mut game = foe::host::run::Start::new(Arc::new(scenario), tables.clone(), 7)
            .player_sides(vec![0])
            .begin()
            .unwrap();
        game.play_foe().unwrap();
        let legal = game.game.legal_actions();
        let _ = game.player(&legal[0]);
        let _ = game.play_foe();
        // Two turns ended, a phase at a time, as `end turn` does.
        for _ in 0..2 {
            let turn = game.game.turn();
            while game.player_to_act() && game.game.turn() == turn {
                let Some(pass) = foe::host::repl::pass(&game.game) else {
                    break;
                };
                if game.player(&pass).is_err() {
                    break;
                }
                let _ = game.play_foe();
            }
        }
        let file = ScenarioFile {
            shown_as: file.into(),
            text: text.into(),
        };
        let save = GameSave::of(&game, file, None, &foe::save::Running::new(None));
        (save.to_json(), tables)
    })
}

/// A real companion save: the French army loaded and a bound begun.
fn companion_save() -> &'static (String, Tables) {
    static SAVE: OnceLock<(String, Tables)> = OnceLock::new();
    SAVE.get_or_init(|| {
        let tables = Tables::embedded();
        let (shown_as, text) = foe::companion::army::example("french").unwrap();
        let army = foe::companion::army::parse(&tables, shown_as, text).unwrap();
        let mut session = foe::companion::Session::new();
        let mut dice = Seeded::new(7);
        session
            .apply(
                &tables,
                foe::companion::Action::LoadArmy { army },
                &mut dice,
            )
            .unwrap();
        session
            .apply(&tables, foe::companion::Action::StartBound, &mut dice)
            .unwrap();
        let text = foe::companion::SaveFile::of(&session, Some(7), &[]).to_json();
        (text, tables)
    })
}

/// A save is read and, if it reads, replayed: a game or a message.
fn load_play_save(text: &str, tables: &Arc<Tables>) {
    let Ok(save) = GameSave::from_json(text) else {
        return;
    };
    let Ok(scenario) = foe::scenario::load(
        Source::new(&save.scenario.shown_as, &save.scenario.text),
        Ruleset::builtin,
    ) else {
        return;
    };
    let names: Vec<String> = scenario.sides.iter().map(|s| s.name.clone()).collect();
    let (Ok(sides), Ok(switched)) = (save.sides(&names), save.tables(tables)) else {
        return;
    };
    let dice = Box::new(foe::dice::Seeded::new(save.seed));
    let _ = save.replay(Arc::new(scenario), Arc::new(switched), sides, dice);
}

/// A JSON value to put in place of another.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::json;
    prop_oneof![
        Just(json!(null)),
        Just(json!(true)),
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(255)),
        Just(json!(256)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(1e308)),
        Just(json!(-1e308)),
        Just(json!(0.5)),
        Just(json!("")),
        Just(json!("d7")),
        Just(json!("end-phase")),
        Just(json!([])),
        Just(json!([0, 1, 2])),
        Just(json!({})),
        Just(json!({"action": "end-phase"})),
        Just(json!({"action": "fire", "unit": 0, "target": 1})),
        Just(
            json!({"action": "move", "unit": 1, "to": {"x": 1e300, "y": -1e300}, "facing": 1e300})
        ),
        Just(json!({"x": 24.0, "y": 6.0})),
        (0u64..40).prop_map(|n| json!(n)),
    ]
}

/// Replace the `pick`th node (in a walk of the value) with `new`.
fn replace_node(value: &mut serde_json::Value, pick: &mut usize, new: &serde_json::Value) -> bool {
    if *pick == 0 {
        *value = new.clone();
        return true;
    }
    *pick -= 1;
    match value {
        serde_json::Value::Array(items) => {
            items.iter_mut().any(|item| replace_node(item, pick, new))
        }
        serde_json::Value::Object(fields) => fields
            .iter_mut()
            .filter(|(key, _)| key.as_str() != "text")
            .any(|(_, field)| replace_node(field, pick, new)),
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    /// The save's text mutated anywhere (its JSON, not its scenario).
    #[test]
    fn mutated_play_save_texts_load_or_say_why(edits in proptest::collection::vec(edit(), 1..5)) {
        let (text, tables) = learning_save();
        load_play_save(&apply(text, &edits), tables);
    }

    /// One node of the save's JSON replaced by another value: a version,
    /// a seed, a side, an action, a coordinate, a roll.
    #[test]
    fn mutated_play_save_values_load_or_say_why(
        replacements in proptest::collection::vec((0usize..120, json_value()), 1..4),
        asked in any::<bool>(),
    ) {
        let (text, tables) = learning_save();
        let mut value: serde_json::Value = serde_json::from_str(text).unwrap();
        if asked {
            value["asked"] = serde_json::json!(true);
            value["rolls"] = serde_json::json!([50, 3, 4, 2, 5, 3]);
        }
        for (pick, new) in &replacements {
            let mut pick = *pick;
            replace_node(&mut value, &mut pick, new);
        }
        load_play_save(&value.to_string(), tables);
    }

    /// A companion save with one node replaced, or its text mutated.
    #[test]
    fn mutated_companion_saves_load_or_say_why(
        replacements in proptest::collection::vec((0usize..150, json_value()), 0..4),
        edits in proptest::collection::vec(edit(), 0..3),
    ) {
        let (text, tables) = companion_save();
        let mut value: serde_json::Value = serde_json::from_str(text).unwrap();
        for (pick, new) in &replacements {
            let mut pick = *pick;
            replace_node(&mut value, &mut pick, new);
        }
        let text = apply(&value.to_string(), &edits);
        if let Ok(save) = foe::companion::SaveFile::from_json(&text) {
            let _ = save.session(tables);
        }
    }
}
