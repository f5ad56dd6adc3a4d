//! One scripted session, the same commands in every rule set: Guilford
//! (seed 000), Guilford under "A Ruinous Victory" (seed 001) and Henry
//! House Hill (seed 002). A player who learned one game types the same
//! words in the others: no line is an unknown command, the save resumes,
//! and each whole transcript is pinned (`FOE_BLESS=1` rewrites them,
//! deliberately).

use super::support::{foe_in, golden};
use std::path::Path;

/// A scenario's units in the script: one of the player's, one of foe's,
/// the one to move (seed 002: the one whose die comes up first), where a
/// move by map label goes, and where `route` asks for.
struct Cast {
    scenario: &'static str,
    /// Lines the rules want first (seed 002 gives out its dice).
    first: &'static str,
    own: &'static str,
    enemy: &'static str,
    mover: &'static str,
    to: &'static str,
    route_to: &'static str,
}

const CASTS: [Cast; 3] = [
    Cast {
        scenario: "guilford",
        first: "",
        own: "B1",
        enemy: "A1",
        mover: "B1",
        to: "24,8",
        route_to: "24,20",
    },
    Cast {
        scenario: "guilford-ruinous",
        first: "",
        own: "B1",
        enemy: "A1",
        mover: "B1",
        to: "8,8",
        route_to: "30,20",
    },
    Cast {
        scenario: "henry-hill",
        first: "auto\n",
        own: "U1",
        enemy: "C1",
        mover: "U2",
        to: "19,21",
        route_to: "30,20",
    },
];

fn script(cast: &Cast) -> String {
    let Cast {
        first,
        own,
        enemy,
        mover,
        to,
        route_to,
        ..
    } = cast;
    format!(
        "help\n{first}?\nvictory\nwhat {enemy}\nwhy {enemy}\nstatus {own}\nhistory\n\
         route {own} to {route_to}\nmove {mover} forward max\nundo\nmove {mover} to {to}\n\
         history\nundo turn\nrewind 1\nmap\nmap --svg picture.svg\nsave game.json\nquit\n"
    )
}

fn foe(dir: &Path, args: &[&str], script: &str) -> String {
    let run = foe_in(dir, args, script);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn one_script_plays_in_every_rule_set() {
    for cast in &CASTS {
        let desk = tempfile::tempdir().unwrap();
        let played = foe(
            desk.path(),
            &["play", cast.scenario, "--seed", "3", "--no-autosave"],
            &script(cast),
        );
        for refused in ["unknown command", "could be", "no unit"] {
            assert!(
                !played.contains(refused),
                "{}: `{refused}` in\n{played}",
                cast.scenario
            );
        }
        let picture = std::fs::read_to_string(desk.path().join("picture.svg"))
            .unwrap_or_else(|e| panic!("{}: no picture: {e}", cast.scenario));
        assert!(picture.starts_with("<svg"), "{}", cast.scenario);
        assert!(
            desk.path().join("game.json").is_file(),
            "{}: no save",
            cast.scenario
        );
        let resumed = foe(
            desk.path(),
            &["play", "--resume", "game.json"],
            &format!("status {}\nquit\n", cast.own),
        );
        assert!(!resumed.contains("error:"), "{}: {resumed}", cast.scenario);
        let transcript = format!("{played}\n=== --resume game.json ===\n{resumed}");
        golden(
            &transcript,
            &format!("script_{}.txt", cast.scenario.replace('-', "_")),
        );
    }
}
