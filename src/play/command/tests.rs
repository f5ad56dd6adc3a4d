use super::*;
use crate::play::tests::start;

fn check(line: &str, expected: &str) {
    let game = start("guilford", 3, vec![0]);
    let got = match parse(line, &game.scenario, game.state()) {
        Ok(command) => format!("{command:?}"),
        Err(message) => format!("error: {message}"),
    };
    assert_eq!(got, expected, "{line}");
}

#[test]
fn units_by_label_name_and_prefix() {
    check(
        "fire B1 A10",
        "Act(Fire { unit: UnitId(0), target: UnitId(16), volley: Single })",
    );
    check(
        "fire royal at singleton",
        "Act(Fire { unit: UnitId(0), target: UnitId(9), volley: Single })",
    );
    check(
        "charge guards gren a1",
        "Act(Charge { unit: UnitId(1), target: UnitId(7) })",
    );
    check(
        "fire 23rd lynch's",
        "Act(Fire { unit: UnitId(3), target: UnitId(11), volley: Single })",
    );
}

#[test]
fn moves_and_facings() {
    check(
        "move 23rd forward 3",
        "Act(Move { unit: UnitId(3), to: Point { x: 14.0, y: 7.0 }, facing: 0.0 })",
    );
    check(
        "move b4 to 12,8 facing ne",
        "Act(Move { unit: UnitId(3), to: Point { x: 12.0, y: 8.0 }, facing: 45.0 })",
    );
    check(
        "move b4 to 12 8",
        "Act(Move { unit: UnitId(3), to: Point { x: 12.0, y: 8.0 }, facing: 0.0 })",
    );
    check(
        "pivot b4 90",
        "Act(Pivot { unit: UnitId(3), facing: 90.0 })",
    );
    check(
        "pivot b4 w",
        "Act(Pivot { unit: UnitId(3), facing: 270.0 })",
    );
    // `to` a bearing, as the other rule sets' prompt takes it.
    check(
        "pivot b4 to 90",
        "Act(Pivot { unit: UnitId(3), facing: 90.0 })",
    );
    check(
        "pivot b4 to north-east",
        "Act(Pivot { unit: UnitId(3), facing: 45.0 })",
    );
}

#[test]
fn other_commands() {
    check("end", "Act(EndPhase)");
    check("end turn", "EndTurn");
    check("e turn", "error: `e` could be end, exit");
    check("status", "Status(None)");
    check("fire ?", "Legal { verb: Some(\"fire\"), unit: None }");
    check("?", "Legal { verb: None, unit: None }");
    check("what a1", "What(UnitId(7))");
    check("map svg out.svg", "Map { svg: Some(\"out.svg\") }");
    check("map --svg out.svg", "Map { svg: Some(\"out.svg\") }");
    check("log 5", "Log(Some(5))");
    check(
        "route b4 to 20,15",
        "Route { unit: UnitId(3), to: Point { x: 20.0, y: 15.0 } }",
    );
    check(
        "route 23rd to a2",
        "Route { unit: UnitId(3), to: Point { x: 15.0, y: 19.0 } }",
    );
    check(
        "route b4 20,15",
        "error: expected `route UNIT to X,Y` or `route UNIT to UNIT`",
    );
}

#[test]
fn bad_commands_say_what_was_expected() {
    check(
        "fier b1 a1",
        "error: unknown command `fier`; did you mean `fire`?; `help` lists them",
    );
    check("fire b1", "error: `fire UNIT TARGET`: name the target too");
    check("fire xyzzy a1", "error: no unit `xyzzy`");
    check(
        "move b4 to 12",
        "error: expected a point X,Y in inches, not `12`",
    );
    check(
        "move b4 forward -2",
        "error: expected a distance in inches, not `-2`",
    );
    check(
        "pivot b4 up",
        "error: expected a facing: degrees, n/ne/e/se/s/sw/w/nw, or towards UNIT, not `up`",
    );
    check("", "error: type a command; `help` lists them");
    check("log x", "error: expected `log` or `log N`, not `log x`");
}

#[test]
fn aliases_and_typos_of_commands_get_the_command_not_a_question_mark() {
    // `mv` was answered "did you mean `?`": every two-letter word is two
    // edits from `?`.
    check(
        "mv b4 forward 3",
        "Act(Move { unit: UnitId(3), to: Point { x: 14.0, y: 7.0 }, facing: 0.0 })",
    );
    check(
        "shoot b1 a10",
        "Act(Fire { unit: UnitId(0), target: UnitId(16), volley: Single })",
    );
    check(
        "mvoe b4 forward 3",
        "error: unknown command `mvoe`; did you mean `move`?; `help` lists them",
    );
    check("xyzzy", "error: unknown command `xyzzy`; `help` lists them");
    check(
        "grenadeirs",
        "error: unknown command `grenadeirs`; did you mean `Guards Grenadiers` (B2)? commands come first: `status UNIT`, `move UNIT forward max`, `move UNIT ?`",
    );
    check(
        "guards forward 3",
        "error: `guards` is Guards Grenadiers (B2): commands come first, like `move B2 ?`",
    );
}

#[test]
fn a_misspelt_word_of_a_units_name_is_suggested_with_its_label() {
    check(
        "fire b1 grenadeirs",
        "error: no unit `grenadeirs`; did you mean `Guards Grenadiers` (B2)?",
    );
    check(
        "what campbll",
        "error: no unit `campbll`; did you mean `Campbell's Riflemen` (A1)?",
    );
}

#[test]
fn help_on_a_word_is_help_not_the_word() {
    check("help ?", "Help(Some(\"?\"))");
    check("help fire", "Help(Some(\"fire\"))");
    check("help", "Help(None)");
}

#[test]
fn asking_for_one_units_choices() {
    check(
        "move b6 ?",
        "Legal { verb: Some(\"move\"), unit: Some(UnitId(5)) }",
    );
    check("? b6", "Legal { verb: None, unit: Some(UnitId(5)) }");
    check(
        "? fire royal",
        "Legal { verb: Some(\"fire\"), unit: Some(UnitId(0)) }",
    );
}

#[test]
fn a_suggestion_pasted_back_with_its_parenthesised_names_is_the_same_action() {
    check(
        "fire B1 (Royal Artillery) A10 (Stevens' Militia)",
        "Act(Fire { unit: UnitId(0), target: UnitId(16), volley: Single })",
    );
    check("save my (first) game.json", "error: expected `save FILE`");
    check("save game(1).json", "Save(\"game(1).json\")");
    check(
        "move B4 (23rd Foot) to 14,8 facing 0",
        "Act(Move { unit: UnitId(3), to: Point { x: 14.0, y: 8.0 }, facing: 0.0 })",
    );
}

/// The farthest lawful move is lawful, and 0.1" further along the same
/// line is not.
#[track_caller]
fn check_max(line: &str, from_a_tenth_further: impl Fn(&Action) -> Action) {
    let game = start("guilford", 3, vec![0]);
    let Ok(Command::Act(action)) = parse(line, &game.scenario, game.state()) else {
        panic!("{line} did not parse to an action");
    };
    assert_eq!(game.state().check(&action), Ok(()), "{line}: {action:?}");
    let further = from_a_tenth_further(&action);
    assert!(
        game.state().check(&further).is_err(),
        "{line}: {further:?} is lawful too"
    );
}

#[test]
fn max_moves_go_as_far_as_the_rules_allow_and_no_further() {
    let along = |direction: Vector| {
        move |action: &Action| match action {
            Action::Move { unit, to, facing } => Action::Move {
                unit: *unit,
                to: *to + direction * 0.1,
                facing: *facing,
            },
            other => other.clone(),
        }
    };
    check_max("move 23rd forward max", along(Vector::new(0.0, 1.0)));
    check_max("move b6 forward max", along(Vector::new(0.0, 1.0)));
    check_max("move b4 back max", along(Vector::new(0.0, -1.0)));
    let game = start("guilford", 3, vec![0]);
    let towards =
        game.state().unit(UnitId(10)).base.centre - game.state().unit(UnitId(1)).base.centre;
    let towards = towards * (1.0 / towards.length());
    check_max("move guards towards a4 max", along(towards));
    // Guilford's 23rd Foot stands at 14,4 facing north: a full 6" move.
    check(
        "move 23rd forward max",
        "Act(Move { unit: UnitId(3), to: Point { x: 14.0, y: 10.0 }, facing: 0.0 })",
    );
    check(
        "move 23rd towards 14,20 max",
        "Act(Move { unit: UnitId(3), to: Point { x: 14.0, y: 10.0 }, facing: 0.0 })",
    );
}

/// Every line `?` prints for a unit or a command, pasted back at the
/// prompt, parses to a lawful action.
#[track_caller]
fn check_pasteable(game: &crate::play::Match, verb: Option<&str>, unit: Option<UnitId>) -> usize {
    let listing = crate::render::play::legal(game, verb, unit);
    let mut pasted = 0;
    for line in listing.lines().map(str::trim) {
        if !["move ", "pivot ", "fire ", "charge ", "rally "]
            .iter()
            .any(|verb| line.starts_with(verb))
        {
            continue;
        }
        match parse(line, &game.scenario, game.state()) {
            Ok(Command::Act(action)) => {
                assert_eq!(game.state().check(&action), Ok(()), "`{line}`: {action:?}");
                pasted += 1;
            }
            other => panic!("`{line}` pasted back gives {other:?}"),
        }
    }
    pasted
}

#[test]
fn every_suggestion_pastes_back_as_a_lawful_command() {
    let mut game = start("guilford", 3, vec![0]);
    let mut pasted = check_pasteable(&game, Some("move"), None);
    pasted += check_pasteable(&game, Some("pivot"), None);
    for unit in 0..7 {
        pasted += check_pasteable(&game, None, Some(UnitId(unit)));
    }
    game.act(Action::EndPhase).unwrap();
    let fired = check_pasteable(&game, Some("fire"), None);
    assert!(
        fired > 0,
        "{}",
        crate::render::play::legal(&game, Some("fire"), None)
    );
    assert!(pasted > 20, "{pasted}");
}

#[test]
fn one_units_choices_are_grouped() {
    let game = start("guilford", 3, vec![0]);
    let listing = crate::render::play::legal(&game, Some("move"), Some(UnitId(3)));
    let headings: Vec<&str> = listing
        .lines()
        .filter(|line| line.starts_with("  ") && !line.starts_with("    "))
        .collect();
    assert_eq!(
        headings,
        [
            "  advance:",
            "  retire:",
            "  or as far as it may: `move B4 forward max`, `move B4 back max`, `move B4 towards UNIT|X,Y max`"
        ]
    );
    assert!(
        listing.starts_with("movement phase of british, turn 1: B4 23rd Foot\n"),
        "{listing}"
    );
    assert!(
        listing.contains("    move B4 (23rd Foot) to 14,10 facing 0\n"),
        "{listing}"
    );
}
