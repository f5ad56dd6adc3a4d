use super::*;
use crate::completion::Grammar;
use crate::host::complete::HostGrammar;
use crate::host::repl::{self, Command};
use crate::host::run::{HostMatch, Start};
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::tables::Tables;
use crate::yaml::Source;
use std::sync::Arc;

fn scenario(name: &str) -> Arc<Scenario> {
    let (file, text) = crate::scenario::builtin(name).expect("built in");
    Arc::new(crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid"))
}

/// A seed-000 game with the player on side 0, once foe has played the
/// turns before the player's first.
fn start(name: &str, seed: u64) -> HostMatch {
    let mut game_match = Start::new(scenario(name), Arc::new(Tables::embedded()), seed)
        .player_sides(vec![0])
        .begin()
        .unwrap();
    game_match.play_foe().unwrap();
    game_match
}

/// Guilford as the old prompt's tests played it: the player British, the
/// Americans' first turn played by foe.
fn guilford() -> HostMatch {
    let game_match = start("guilford", 3);
    assert!(game_match.player_to_act());
    game_match
}

fn state(game_match: &HostMatch) -> &GameState {
    match &game_match.game {
        Game::Awi(state) => state,
        _ => panic!("a seed-000 game"),
    }
}

/// What a line reads as at the prompt: the seed-000 action (`Debug`), the
/// command, or `error: ...`.
fn read(game_match: &HostMatch, line: &str) -> String {
    let names = Names::new(&game_match.game, &game_match.scenario);
    match repl::parse(&names, line) {
        Ok(Command::Act(crate::host::Action::Awi(action))) => format!("{action:?}"),
        Ok(other) => format!("{other:?}"),
        Err(message) => format!("error: {message}"),
    }
}

/// The action a line reads as.
#[track_caller]
fn action(game_match: &HostMatch, line: &str) -> Action {
    let names = Names::new(&game_match.game, &game_match.scenario);
    match repl::parse(&names, line) {
        Ok(Command::Act(crate::host::Action::Awi(action))) => action,
        other => panic!("`{line}` reads as {other:?}"),
    }
}

/// The one-line message a line is refused with.
#[track_caller]
fn problem(game_match: &HostMatch, line: &str) -> String {
    let names = Names::new(&game_match.game, &game_match.scenario);
    let problem = repl::parse(&names, line).expect_err(line);
    assert!(!problem.contains('\n'), "`{line}`: {problem}");
    problem
}

#[test]
fn units_by_label_name_and_prefix() {
    let game = guilford();
    let check = |line: &str, expected: &str| assert_eq!(read(&game, line), expected, "{line}");
    check(
        "fire B1 A10",
        "Fire { unit: UnitId(0), target: UnitId(16), volley: Single }",
    );
    check(
        "fire B1 A3",
        "Fire { unit: UnitId(0), target: UnitId(9), volley: Single }",
    );
    check(
        "fire royal at singleton",
        "Fire { unit: UnitId(0), target: UnitId(9), volley: Single }",
    );
    check(
        "charge guards gren a1",
        "Charge { unit: UnitId(1), target: UnitId(7) }",
    );
    check(
        "fire 23rd lynch's",
        "Fire { unit: UnitId(3), target: UnitId(11), volley: Single }",
    );
    check(
        "shoot b1 a10",
        "Fire { unit: UnitId(0), target: UnitId(16), volley: Single }",
    );
    check(
        "attack Tarleton's Legion at Washington's Dragoons",
        "Charge { unit: UnitId(6), target: UnitId(18) }",
    );
    // A part of a name that fits one unit only.
    check(
        "fire artillery at maryland",
        "Fire { unit: UnitId(0), target: UnitId(16), volley: Single }",
    );
}

#[test]
fn moves_and_facings() {
    let game = guilford();
    let check = |line: &str, expected: &str| assert_eq!(read(&game, line), expected, "{line}");
    check(
        "move 23rd forward 3",
        "Move { unit: UnitId(3), to: Point { x: 14.0, y: 7.0 }, facing: 0.0 }",
    );
    check(
        "mv b4 forward 3",
        "Move { unit: UnitId(3), to: Point { x: 14.0, y: 7.0 }, facing: 0.0 }",
    );
    check(
        "move b4 to 12,8 facing ne",
        "Move { unit: UnitId(3), to: Point { x: 12.0, y: 8.0 }, facing: 45.0 }",
    );
    check(
        "move b4 to 12, 8 face 90",
        "Move { unit: UnitId(3), to: Point { x: 12.0, y: 8.0 }, facing: 90.0 }",
    );
    check(
        "move b4 to 12 8",
        "Move { unit: UnitId(3), to: Point { x: 12.0, y: 8.0 }, facing: 0.0 }",
    );
    check(
        "move b4 to 12,8 facing to 270",
        "Move { unit: UnitId(3), to: Point { x: 12.0, y: 8.0 }, facing: 270.0 }",
    );
    check(
        "move 23rd Foot to 14,8 facing north-west",
        "Move { unit: UnitId(3), to: Point { x: 14.0, y: 8.0 }, facing: 315.0 }",
    );
    check("pivot b4 90", "Pivot { unit: UnitId(3), facing: 90.0 }");
    check("pivot b4 w", "Pivot { unit: UnitId(3), facing: 270.0 }");
    check("pivot b4 to 90", "Pivot { unit: UnitId(3), facing: 90.0 }");
    check(
        "pivot b4 to north-east",
        "Pivot { unit: UnitId(3), facing: 45.0 }",
    );
    check("face b4 45°", "Pivot { unit: UnitId(3), facing: 45.0 }");
    check(
        "pivot 23rd Foot -90",
        "Pivot { unit: UnitId(3), facing: 270.0 }",
    );
    // `pivot a1 0` is A1 facing north, not the unit A10.
    check("pivot a1 0", "Pivot { unit: UnitId(7), facing: 0.0 }");
    check("pivot a1 2", "Pivot { unit: UnitId(7), facing: 2.0 }");
    // Facing a unit: from where the unit stands, or from where a move ends.
    let s = state(&game);
    let from = s.unit(UnitId(3)).base.centre;
    let campbell = s.unit(UnitId(7)).base.centre;
    let towards = Action::Pivot {
        unit: UnitId(3),
        facing: (campbell - from).bearing(),
    };
    for line in [
        "pivot b4 towards a1",
        "pivot 23rd at campbell",
        "pivot b4 to a1",
    ] {
        assert_eq!(action(&game, line), towards, "{line}");
    }
    let to = Point::new(12.0, 8.0);
    assert_eq!(
        action(&game, "move b4 to 12,8 facing at campbell's riflemen"),
        Action::Move {
            unit: UnitId(3),
            to,
            facing: (campbell - to).bearing(),
        }
    );
}

#[test]
fn a_move_to_a_point_keeps_the_facing_when_none_is_given() {
    let game = guilford();
    let Action::Move { facing, .. } = action(&game, "move b4 to 14,8") else {
        panic!("a move");
    };
    assert_eq!(facing, state(&game).unit(UnitId(3)).base.facing);
}

#[test]
fn road_moves_go_straight_along_the_road_or_as_the_route_planner_finds() {
    let game = guilford();
    let s = state(&game);
    // Royal Artillery stands on the Great Salisbury road, facing north.
    let straight = action(&game, "move royal road to 24,8");
    assert_eq!(
        straight,
        Action::MoveRoad {
            unit: UnitId(0),
            path: vec![Point::new(24.0, 8.0)],
            facing: 0.0,
        }
    );
    assert_eq!(s.check(&straight), Ok(()));
    assert_eq!(
        action(&game, "move b1 road via 24,6 24,7 to 24,8 facing n"),
        Action::MoveRoad {
            unit: UnitId(0),
            path: vec![
                Point::new(24.0, 6.0),
                Point::new(24.0, 7.0),
                Point::new(24.0, 8.0)
            ],
            facing: 0.0,
        }
    );
    // Off the road: the planner's way, which ends where it was asked to.
    let Action::MoveRoad { path, .. } = action(&game, "move b2 road to 30,8") else {
        panic!("a road move");
    };
    assert_eq!(path.last(), Some(&Point::new(30.0, 8.0)));
    assert!(problem(&game, "move b1 road to 99,99").contains("off the table"));
    assert!(problem(&game, "move b1 road 24,8").contains("move UNIT road to X,Y"));
    assert!(problem(&game, "move b1 road via 24,6 24 7 to 24,8").contains("`24`"));
}

#[test]
fn generals_and_rallies() {
    let game = guilford();
    let check = |line: &str, expected: &str| assert_eq!(read(&game, line), expected, "{line}");
    let to = "MoveGeneral { general: GeneralId(0), to: Point { x: 20.0, y: 8.0 } }";
    for line in [
        "general cornwallis to 20,8",
        "general Corn to 20,8",
        "general BG1 to 20 8",
        "general wallis to 20,8",
        "move Cornwallis to 20,8",
    ] {
        check(line, to);
    }
    let b1_b2 = "Rally { general: GeneralId(0), units: [UnitId(0), UnitId(1)] }";
    for line in [
        "rally cornwallis b1 b2",
        "rally bg1 B1, B2",
        "rally b1 b2",
        "rally Royal Artillery Guards Grenadiers",
        "rally cornwallis royal guards",
    ] {
        check(line, b1_b2);
    }
    check(
        "rally cornwallis guards grenadiers 23rd foot light infantry",
        "Rally { general: GeneralId(0), units: [UnitId(1), UnitId(3), UnitId(5)] }",
    );
    // The other side's general is read too; the rules refuse him.
    check(
        "rally greene 1st maryland",
        "Rally { general: GeneralId(1), units: [UnitId(16)] }",
    );
    check(
        "rally greene 1st maryland 4th virginia",
        "Rally { general: GeneralId(1), units: [UnitId(16), UnitId(17)] }",
    );
    let problems = [
        ("rally", "name the units to rally"),
        ("rally cornwallis", "name the units to rally"),
        ("rally cornwallis xyzzy", "no unit `xyzzy`"),
        (
            "rally cornwallis b1 grenadeirs",
            "did you mean `Guards Grenadiers` (B2)?",
        ),
        ("rally ,,,", "name the units to rally"),
        ("general", "general GENERAL to X,Y"),
        (
            "general nobody to 1,1",
            "no general `nobody`; generals: BG1 (Cornwallis), AG1 (Greene)",
        ),
        ("general cornwallis 1,1", "general GENERAL to X,Y"),
        ("general cornwallis to", "general GENERAL to X,Y"),
        ("general cornwallis to north", "expected a point X,Y"),
        (
            "move cornwallis to 20,8 facing 0",
            "a general has no facing",
        ),
    ];
    for (line, expected) in problems {
        let problem = problem(&game, line);
        assert!(problem.contains(expected), "`{line}`: {problem}");
    }
}

#[test]
fn end_ends_the_phase_and_end_turn_the_turn() {
    let game = guilford();
    assert_eq!(read(&game, "end"), "EndPhase");
    assert_eq!(read(&game, "end phase"), "EndPhase");
    assert_eq!(read(&game, "END"), "EndPhase");
    assert_eq!(read(&game, "end turn"), "EndTurn");
    assert!(problem(&game, "end now").contains("`end turn`"));
    let names = Names::new(&game.game, &game.scenario);
    assert_eq!(
        repl::pass(&game.game),
        Some(crate::host::Action::Awi(Action::EndPhase))
    );
    assert_eq!(
        repl::words(&game.game, &crate::host::Action::Awi(Action::EndPhase)),
        "end"
    );
    assert!(repl::history(&names, &[]).contains("not acted"));
}

#[test]
fn bad_lines_say_what_was_expected() {
    let game = guilford();
    let problems = [
        ("fire b1", "`fire UNIT TARGET`: name the target too"),
        ("fire xyzzy a1", "no unit `xyzzy`"),
        (
            "fire b1 grenadeirs",
            "no unit `grenadeirs`; did you mean `Guards Grenadiers` (B2)?",
        ),
        ("fire b1 at nobody", "no unit `nobody`"),
        ("fire", "name the unit and its target"),
        ("charge at", "charge UNIT"),
        (
            "move b4 to 12",
            "expected a point X,Y in inches (e.g. 24,12), not `12`",
        ),
        ("move b4 to here", "X,Y"),
        ("move b4 to nan,3", "X,Y"),
        ("move b4 to inf,3", "X,Y"),
        ("move b4 to 1,2,3", "X,Y"),
        ("move b4 forward -2", "distance in inches"),
        ("move b4", "move UNIT to X,Y [facing F]"),
        ("move to 3,3", "name a unit"),
        ("move b4 somewhere", "move UNIT to X,Y [facing F]"),
        ("move b4 to 12,8 facing", "expected a facing"),
        ("move b4 to 12,8 facing up", "not `up`"),
        ("move b4 to 12,8 facing to nowhere", "not `to nowhere`"),
        ("pivot", "expected `pivot UNIT F`"),
        ("pivot b4", "after the unit: `pivot B4 90`"),
        (
            "pivot b4 up",
            "expected a facing: degrees, n/ne/e/se/s/sw/w/nw, or towards UNIT, not `up`",
        ),
        ("pivot b4 nan", "not `nan`"),
        ("pivot b4 inf", "not `inf`"),
        ("pivot b4 towards", "expected a facing"),
        ("pivot xyzzy 90", "no unit `xyzzy`"),
        ("pivot b4 to nowhere", "not `to nowhere`"),
        ("enter b4 1,1", "enter UNIT at X,Y"),
        ("fier b1 a1", "did you mean `fire`?"),
        ("form b1 line", "seed 000 units have no formations"),
        ("assign 5 to b1", "seed 000 has no activation dice"),
        ("respond fire", "melee is fought in the melee phase"),
        (
            "join cornwallis to b1",
            "`general GENERAL to X,Y` moves one",
        ),
        ("about face b1", "`pivot UNIT F`"),
        ("hold b1", "`end` ends the phase"),
        ("mount b7", "never dismounts"),
    ];
    for (line, expected) in problems {
        let problem = problem(&game, line);
        assert!(problem.contains(expected), "`{line}`: {problem}");
    }
}

/// Whatever is typed, the prompt answers with an action or a one-line
/// message, and the rules judge any action read without a panic.
#[test]
fn odd_input_never_panics() {
    let game = guilford();
    let long = "b1 ".repeat(2_000);
    let many = format!("rally cornwallis {long}");
    let fire_many = format!("fire {long}");
    let lines = [
        "",
        " ",
        "?",
        "move b4 to 1e308,1e308",
        "move b4 to -1e308,5 facing 1e308",
        "move b4 to 99999999999999999999,1",
        "move b4 to 1e308,1e308 facing towards a1",
        "move b4 road to 1e308,1e308",
        "move b4 road to -5,-5",
        "move b4 road via 1e308,1 nan,2 to 3,3",
        "move b4 road via 1e308,1 -1e308,2 to 3,3",
        "move b4 road via to 3,3",
        "move b4 forward 1e308",
        "move b4 forward NaN",
        "move b4 back 1e-308",
        "move b4 towards 1e308,1e308",
        "move b4 towards 1e308,1e308 max",
        "pivot b4 1e308",
        "pivot b4 -1e308",
        "pivot b4 1e-320",
        "general cornwallis to 1e308,-1e308",
        "general cornwallis to -0,-0",
        "enter b4 at 1e308,1 facing 1e308",
        "rally cornwallis b1 b1 b1",
        many.as_str(),
        fire_many.as_str(),
        "pivot İİ 90",
        "rally İ",
        "move İ road to 1,2",
        "fire (b1) at (a1)",
        "move b4 ((( to 1,2",
        "move b4 road to 24,8 facing towards",
        "general to to to",
        "rally to to",
        "pivot to to",
        "pivot b4 to to",
        "move b4 to to 1,2",
        "\u{0} \u{7f}",
    ];
    let names = Names::new(&game.game, &game.scenario);
    for line in lines {
        match repl::parse(&names, line) {
            Ok(Command::Act(action)) => {
                let _ = game.game.check(&action);
                let _ = repl::words(&game.game, &action);
            }
            Ok(_) => {}
            Err(problem) => assert!(!problem.contains('\n'), "`{line}`: {problem}"),
        }
    }
}

#[test]
fn a_line_pasted_back_with_its_parenthesised_names_is_the_same_action() {
    let game = guilford();
    assert_eq!(
        read(&game, "fire B1 (Royal Artillery) A10 (1st Maryland)"),
        "Fire { unit: UnitId(0), target: UnitId(16), volley: Single }"
    );
    assert_eq!(
        read(&game, "move B4 (23rd Foot) to 14,8 facing 0"),
        "Move { unit: UnitId(3), to: Point { x: 14.0, y: 8.0 }, facing: 0.0 }"
    );
    assert_eq!(
        read(&game, "rally BG1 (Cornwallis) B1 (Royal Artillery) B2"),
        "Rally { general: GeneralId(0), units: [UnitId(0), UnitId(1)] }"
    );
}

/// Either side names a shot's volley after its target, as `?` and
/// `history` say it; a unit's name that ends in a volley word still reads.
#[test]
fn a_shot_names_its_volley_after_the_target() {
    let game = guilford();
    for (line, volley) in [
        ("fire B3 at A4 double", "Double"),
        ("fire B3 at A4 DOUBLE volley", "Double"),
        (
            "fire B3 (33rd Foot) at A4 (Eaton's Militia) (double volley)",
            "Double",
        ),
        ("fire A4 at B3 double", "Double"),
        ("fire B3 at A4 hasty", "Hasty"),
        ("fire B3 at A4 single volley", "Single"),
        ("fire B3 at A4", "Single"),
    ] {
        assert!(
            read(&game, line).ends_with(&format!("volley: {volley} }}")),
            "{line}: {}",
            read(&game, line)
        );
    }
    let said = repl::words(
        &game.game,
        &crate::host::Action::Awi(Action::Fire {
            unit: UnitId(2),
            target: UnitId(3),
            volley: Volley::Double,
        }),
    );
    assert_eq!(said, "fire 33rd Foot at 23rd Foot (double volley)");
    assert!(problem(&game, "fire B3 at Z9 double").contains("Z9"));
}

#[test]
fn each_action_is_said_as_it_is_typed() {
    let game = guilford();
    let say = |action: Action| repl::words(&game.game, &crate::host::Action::Awi(action));
    assert_eq!(
        say(Action::Pivot {
            unit: UnitId(3),
            facing: 45.0
        }),
        "pivot 23rd Foot to 45"
    );
    assert_eq!(
        say(Action::Move {
            unit: UnitId(3),
            to: Point::new(14.0, 8.25),
            facing: 0.0
        }),
        "move 23rd Foot to 14,8.25 facing 0"
    );
    assert_eq!(
        say(Action::MoveRoad {
            unit: UnitId(0),
            path: vec![Point::new(24.0, 6.0), Point::new(24.0, 8.0)],
            facing: 0.0
        }),
        "move Royal Artillery road via 24,6 to 24,8 facing 0"
    );
    assert_eq!(
        say(Action::Fire {
            unit: UnitId(0),
            target: UnitId(16),
            volley: Volley::Single
        }),
        "fire Royal Artillery at 1st Maryland"
    );
    assert_eq!(
        say(Action::Charge {
            unit: UnitId(6),
            target: UnitId(18)
        }),
        "charge Tarleton's Legion at Washington's Dragoons"
    );
    assert_eq!(
        say(Action::MoveGeneral {
            general: GeneralId(0),
            to: Point::new(20.0, 8.0)
        }),
        "general Cornwallis to 20,8"
    );
    assert_eq!(
        say(Action::Rally {
            general: GeneralId(0),
            units: vec![UnitId(1), UnitId(3)]
        }),
        "rally Cornwallis Guards Grenadiers 23rd Foot"
    );
    assert_eq!(
        say(Action::Enter {
            unit: UnitId(5),
            to: Point::new(11.0, 1.5),
            facing: 0.0
        }),
        "enter Light Infantry at 11,1.5 facing 0"
    );
    assert_eq!(say(Action::EndPhase), "end");
    // With its label, as `history` and `?` show a unit's own lines.
    let names = Names::new(&game.game, &game.scenario);
    assert_eq!(
        repl::words_labelled(
            &names,
            &crate::host::Action::Awi(Action::Pivot {
                unit: UnitId(3),
                facing: 45.0
            })
        ),
        "pivot B4 to 45"
    );
}

#[test]
fn a_number_is_said_to_a_thousandth_only_where_a_hundredth_would_not_do() {
    assert_eq!(thousandth(6.0), "6");
    assert_eq!(thousandth(5.9954), "5.995");
    assert_eq!(thousandth(-0.0001), "0");
    let game = guilford();
    let s = state(&game);
    // A move of the 23rd Foot (at 14,4) just short of its 6": to the
    // hundredth (17,9.2) it would be 6.003" long.
    let exact = Action::Move {
        unit: UnitId(3),
        to: Point::new(17.0, 9.196),
        facing: 0.0,
    };
    assert_eq!(s.unit(UnitId(3)).base.centre, Point::new(14.0, 4.0));
    assert_eq!(s.check(&exact), Ok(()));
    assert!(
        s.check(&Action::Move {
            unit: UnitId(3),
            to: Point::new(17.0, 9.2),
            facing: 0.0,
        })
        .is_err()
    );
    let said = repl::words(&game.game, &crate::host::Action::Awi(exact.clone()));
    assert_eq!(said, "move 23rd Foot to 17,9.196 facing 0");
    assert_eq!(action(&game, &said), exact);
    // Where the hundredth will do, the hundredth.
    let near = Action::Move {
        unit: UnitId(3),
        to: Point::new(15.0, 6.004),
        facing: 0.0,
    };
    assert_eq!(
        repl::words(&game.game, &crate::host::Action::Awi(near)),
        "move 23rd Foot to 15,6 facing 0"
    );
}

/// Two actions are the same up to the rounding of their words: the same
/// units and generals, points within 0.01" and bearings within 0.01°.
fn near(a: &Action, b: &Action) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() < 0.006;
    let points = |p: &Point, q: &Point| close(p.x, q.x) && close(p.y, q.y);
    let bearings = |x: f64, y: f64| {
        let turn = (x - y).rem_euclid(360.0);
        turn.min(360.0 - turn) < 0.006
    };
    match (a, b) {
        (Action::Pivot { unit, facing }, Action::Pivot { unit: u, facing: f }) => {
            unit == u && bearings(*facing, *f)
        }
        (
            Action::Move { unit, to, facing },
            Action::Move {
                unit: u,
                to: t,
                facing: f,
            },
        )
        | (
            Action::Enter { unit, to, facing },
            Action::Enter {
                unit: u,
                to: t,
                facing: f,
            },
        ) => unit == u && points(to, t) && bearings(*facing, *f),
        (
            Action::MoveRoad { unit, path, facing },
            Action::MoveRoad {
                unit: u,
                path: p,
                facing: f,
            },
        ) => {
            unit == u
                && path.len() == p.len()
                && path.iter().zip(p).all(|(a, b)| points(a, b))
                && bearings(*facing, *f)
        }
        (Action::MoveGeneral { general, to }, Action::MoveGeneral { general: g, to: t }) => {
            general == g && points(to, t)
        }
        _ => a == b,
    }
}

/// Every legal action of the game now, said and read back through the
/// prompt, is an action the rules take and the same one up to rounding.
/// The kinds of action seen.
#[track_caller]
fn round_trip(game: &Game, scenario: &Scenario) -> Vec<&'static str> {
    let Game::Awi(s) = game else {
        panic!("a seed-000 game");
    };
    let names = Names::new(game, scenario);
    let mut kinds = Vec::new();
    for listed in s.legal_actions() {
        let typed = repl::words(game, &crate::host::Action::Awi(listed.clone()));
        let parsed = match repl::parse(&names, &typed) {
            Ok(Command::Act(crate::host::Action::Awi(parsed))) => parsed,
            other => panic!("`{typed}` reads as {other:?}"),
        };
        assert!(
            near(&listed, &parsed),
            "`{typed}`: {listed:?} read as {parsed:?}"
        );
        assert_eq!(s.check(&parsed), Ok(()), "`{typed}`: {parsed:?}");
        let kind = typed.split_whitespace().next().unwrap_or_default();
        let kind = match kind {
            "move" if typed.contains(" road ") => "road",
            "move" => "move",
            "pivot" => "pivot",
            "fire" => "fire",
            "charge" => "charge",
            "rally" => "rally",
            "general" => "general",
            "enter" => "enter",
            "end" => "end",
            other => panic!("`{other}` said for {listed:?}"),
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

#[test]
fn every_legal_action_said_reads_back_as_itself() {
    let mut game_match = guilford();
    let mut seen: Vec<&str> = Vec::new();
    for step in 0..40 {
        if game_match.verdict().is_some() {
            break;
        }
        if !game_match.player_to_act() {
            game_match.play_foe().unwrap();
            continue;
        }
        for kind in round_trip(&game_match.game, &game_match.scenario) {
            if !seen.contains(&kind) {
                seen.push(kind);
            }
        }
        // Now and then an action other than the phase's end, so the units
        // close with the enemy and the later phases have choices.
        let legal = game_match.game.legal_actions();
        let action = if step % 3 == 2 {
            legal[legal.len() - 1].clone()
        } else {
            legal[(step * 7) % legal.len()].clone()
        };
        game_match.player(&action).unwrap();
    }
    for kind in ["move", "pivot", "road", "general", "fire", "end"] {
        assert!(seen.contains(&kind), "{kind} never listed: {seen:?}");
    }
}

/// Monongahela's British hold a reserve in hand: once the way onto the
/// table at their edge is clear, its `enter` reads back too.
#[test]
fn a_reserve_enters_as_it_is_said() {
    let game_match = start("monongahela", 5);
    assert!(game_match.player_to_act());
    let mut game = game_match.game.clone();
    let Game::Awi(s) = &mut game else {
        panic!("seed 000");
    };
    let reserve = s.find_unit("Dunbar's Rearguard").unwrap();
    let gate = s.unit(reserve).base.centre;
    for unit in s.units.iter_mut().filter(|u| u.is_active()) {
        if unit.base.centre.distance(gate) < 6.0 {
            unit.base.centre = Point::new(unit.base.centre.x + 12.0, unit.base.centre.y + 8.0);
        }
    }
    let kinds = round_trip(&game, &game_match.scenario);
    assert!(kinds.contains(&"enter"), "{kinds:?}");
    let names = Names::new(&game, &game_match.scenario);
    let line = format!("enter dunbar at {} facing n", repl_xy(gate));
    assert!(matches!(
        repl::parse(&names, &line),
        Ok(Command::Act(crate::host::Action::Awi(Action::Enter { facing, .. }))) if facing == 0.0
    ));
}

fn repl_xy(at: Point) -> String {
    format!("{},{}", at.x, at.y)
}

#[test]
fn the_shooting_and_rallying_phases_read_back_too() {
    let mut game_match = guilford();
    // The movement phase ended: the shooting phase has the guns' shots.
    game_match
        .player(&crate::host::Action::Awi(Action::EndPhase))
        .unwrap();
    let kinds = round_trip(&game_match.game, &game_match.scenario);
    assert!(kinds.contains(&"fire"), "{kinds:?}");
    assert!(kinds.contains(&"end"), "{kinds:?}");
    // Hits on units near Cornwallis give him a rally to make.
    let mut game = game_match.game.clone();
    let Game::Awi(s) = &mut game else {
        panic!("seed 000");
    };
    while s.phase() != crate::rules::Phase::Rallying {
        s.apply(&Action::EndPhase, &mut crate::dice::Seeded::new(1))
            .unwrap();
    }
    s.units[3].hits = 2;
    s.units[5].hits = 1;
    let kinds = round_trip(&game, &game_match.scenario);
    assert!(kinds.contains(&"rally"), "{kinds:?}");
}

#[test]
fn victory_says_each_sides_conditions_and_how_near_they_are() {
    let game = guilford();
    let names = Names::new(&game.game, &game.scenario);
    let out = repl::victory(&names);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Victory:");
    assert!(
        lines[1].starts_with(
            "  americans win if they rout more than 50% of the british units: 0 of 7 lost, 4 more needed; "
        ) && lines[1].contains("; nearest "),
        "{out}"
    );
    assert!(
        lines[2].starts_with(
            "  british win if they rout or drive off the table 1 continentals unit of the americans: 0 of 2 lost, 1 more needed; nearest "
        ),
        "{out}"
    );
    assert!(
        lines[2].contains(" (A10)") || lines[2].contains(" (A11)"),
        "{out}"
    );
    assert_eq!(lines[3], "  Otherwise a draw after turn 15 (now turn 1).");
    let banner = game.game.rules_lines();
    assert!(
        banner.starts_with(
            "Victory: the americans win if they rout more than 50% of the british units.\n"
        ),
        "{banner}"
    );
    assert!(
        banner.ends_with("`victory` shows how near each side is.\n"),
        "{banner}"
    );
}

#[test]
fn hits_and_losses_show_in_the_progress() {
    let game = guilford();
    let mut game_state = game.game.clone();
    let Game::Awi(s) = &mut game_state else {
        panic!("seed 000");
    };
    let maryland = s.find_unit("1st Maryland").unwrap();
    let virginia = s.find_unit("4th Virginia").unwrap();
    s.units[virginia.0].hits = 7;
    let names = Names::new(&game_state, &game.scenario);
    let said = game_state.victory_lines(&names);
    assert!(
        said.contains("; most hit 4th Virginia (A11), 7 of 13 hits; nearest "),
        "{said}"
    );
    if let Game::Awi(s) = &mut game_state {
        s.units[maryland.0].status = crate::rules::Status::Routed;
    }
    let names = Names::new(&game_state, &game.scenario);
    assert!(
        game_state.victory_lines(&names).contains(
            "  british win if they rout or drive off the table 1 continentals unit of the americans: 1 of 2 lost, met\n"
        ),
        "{}",
        game_state.victory_lines(&names)
    );
}

#[test]
fn help_names_seed_000s_commands_and_says_more_of_each() {
    let game = guilford();
    let names = Names::new(&game.game, &game.scenario);
    let all = repl::help(&names, None);
    for usage in [
        "pivot UNIT F",
        "rally [GENERAL] UNIT",
        "general GENERAL to X,Y",
    ] {
        assert!(all.contains(usage), "{all}");
    }
    for verb in ["fire", "charge", "move", "rally", "general", "pivot", "end"] {
        let text = repl::help(&names, Some(verb));
        assert!(
            text.lines().count() >= 2,
            "`help {verb}` says no more: {text}"
        );
    }
    assert!(repl::help(&names, Some("form")).contains("no formations"));
    assert!(repl::help(&names, Some("shoot")).contains("shooting phase"));
}

#[test]
fn tab_completes_seed_000s_words() {
    let game = guilford();
    let grammar = HostGrammar::of(&Names::new(&game.game, &game.scenario), &[0]);
    let check = |line: &str, expected: &str| {
        let (start, choices) = grammar.complete(line, line.len());
        let shown: Vec<String> = choices.into_iter().map(|c| c.display).collect();
        assert_eq!(
            format!("{start}: {}", shown.join(" | ")),
            expected,
            "{line:?}"
        );
    };
    check(
        "",
        "0: move | pivot | charge | fire | rally | general | end | route | status | map | what | why | victory | log | history | undo | rewind | save | load | help | quit",
    );
    check("ra", "0: rally");
    check(
        "move 23rd Foot ",
        "15: forward | back | towards | to | road",
    );
    check("move Corn", "5: Cornwallis");
    check("move 23rd Foot to 14,8 ", "23: facing");
    check("move 23rd Foot road ", "20: to");
    check("pivot 23rd Foot ", "16: to | towards");
    check(
        "pivot 23rd Foot towards Campbell",
        "24: Campbell's Riflemen",
    );
    check("general ", "8: Cornwallis");
    check("general Cornwallis ", "19: to");
    check("rally Corn", "6: Cornwallis");
    check(
        "rally Cornwallis Guards Grenadiers Light",
        "35: Light Infantry",
    );
    check("fire Royal Artillery at 1st", "24: 1st Maryland");
    assert_eq!(game.game.commanders(&[0]), ["Cornwallis"]);
    assert_eq!(game.game.commanders(&[1]), ["Greene"]);
}

#[test]
fn the_unit_of_each_action() {
    let unit = |action: Action| <GameState as Words>::unit_of(&action);
    assert_eq!(
        unit(Action::Rally {
            general: GeneralId(0),
            units: vec![UnitId(4), UnitId(2)]
        }),
        Some(4)
    );
    assert_eq!(
        unit(Action::MoveGeneral {
            general: GeneralId(0),
            to: Point::new(1.0, 1.0)
        }),
        None
    );
    assert_eq!(unit(Action::EndPhase), None);
    assert_eq!(
        unit(Action::Fire {
            unit: UnitId(3),
            target: UnitId(9),
            volley: Volley::Single
        }),
        Some(3)
    );
    assert!(<GameState as Words>::passes(&Action::EndPhase));
    assert!(!<GameState as Words>::passes(&Action::Rout {
        unit: UnitId(1)
    }));
}

/// A move to a point may face towards a unit: the shared `towards` move
/// does not take the line for its own.
#[test]
fn a_move_to_a_point_may_face_towards_a_unit() {
    let game_match = guilford();
    let Action::Move { to, facing, .. } = action(&game_match, "move B4 to 14,8 facing towards A2")
    else {
        panic!("a move");
    };
    assert_eq!(to, crate::battlefield::Point::new(14.0, 8.0));
    let a2 = state(&game_match).find_unit("Butler's Militia").unwrap();
    let enemy = state(&game_match).unit(a2).base.centre;
    let bearing = (enemy - to).bearing();
    assert!((facing - bearing).abs() < 1e-9, "{facing} {bearing}");
}

/// A `fire` line of thousands of words is one message, not a search of
/// every way to cut it into two units' names.
#[test]
fn a_huge_fire_line_is_one_message() {
    let game_match = guilford();
    let line = format!("fire {}", "b1 ".repeat(2000));
    let said = read(&game_match, &line);
    assert!(said.starts_with("error: "), "{said}");
}
