use super::*;
use crate::play::tests::start;

fn check(line: &str, expected: &str) {
    let game = start("guilford", 3, vec![0]);
    let got = match parse(line, &game.scenario, &game.state) {
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
}

#[test]
fn other_commands() {
    check("end", "Act(EndPhase)");
    check("end turn", "EndTurn");
    check("e turn", "error: `e` could be end, exit");
    check("status", "Status(None)");
    check("fire ?", "Legal(Some(\"fire\"))");
    check("?", "Legal(None)");
    check("what a1", "What(UnitId(7))");
    check("map svg out.svg", "Map { svg: Some(\"out.svg\") }");
    check("map --svg out.svg", "Map { svg: Some(\"out.svg\") }");
    check("log 5", "Log(Some(5))");
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
