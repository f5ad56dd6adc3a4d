//! `foe play` driven as a player would: scripted games compared in full,
//! refusals that change nothing, saves that resume to the same future, and
//! the prompt at a real (pseudo-)terminal.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// A scratch folder for one test's data (autosave, history, saves).
struct Desk {
    dir: tempfile::TempDir,
}

struct Played {
    stdout: String,
    stderr: String,
    status: i32,
}

impl Desk {
    fn new() -> Desk {
        Desk {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn play(&self, args: &[&str], script: &str) -> Played {
        let output = Command::cargo_bin("foe")
            .expect("foe binary")
            .arg("play")
            .args(args)
            .env("FOE_DATA_DIR", self.path("data"))
            .env_remove("FOE_TABLES")
            .env("NO_COLOR", "1")
            .current_dir(self.dir.path())
            .write_stdin(script)
            .output()
            .expect("foe runs");
        Played {
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            status: output.status.code().unwrap_or(-1),
        }
    }
}

/// Compare with a golden file; `FOE_BLESS=1` rewrites it (deliberately).
#[track_caller]
fn golden(actual: &str, file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/data")
        .join(file);
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        actual,
        expected,
        "\n--- got ---\n{actual}\n--- want ({}) ---",
        path.display()
    );
}

/// The output after the last line that starts with `marker`.
fn after_last<'a>(text: &'a str, marker: &str) -> &'a str {
    text.rfind(marker).map_or(text, |at| &text[at..])
}

const LEARNING_SCRIPT: &str = "\
status
move ?
move b1 forward 6
end
fire ?
end turn
move b1 forward 6
end turn
move b1 towards f1
end turn
map
log 5
quit
";

#[test]
fn a_scripted_learning_game_matches_its_transcript() {
    let desk = Desk::new();
    let played = desk.play(
        &["learning", "--side", "british", "--seed", "11"],
        LEARNING_SCRIPT,
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    golden(&played.stdout, "play_learning.txt");
}

const GUILFORD_SCRIPT: &str = "\
move 23rd forward 6
move guards towards a4
move 33rd forward 6
move 71st forward 6
move b6 forward 6
end
fire b1 a3
end turn
move 23rd forward 2
move b3 forward 3
end
fire b4 a2
fire b3 a5
end turn
status
quit
";

#[test]
fn a_scripted_guilford_game_matches_its_transcript() {
    let desk = Desk::new();
    let played = desk.play(&["guilford", "--seed", "1781"], GUILFORD_SCRIPT);
    assert_eq!(played.status, 0, "{}", played.stderr);
    golden(&played.stdout, "play_guilford.txt");
}

#[test]
fn bad_commands_are_refused_and_change_nothing() {
    let desk = Desk::new();
    let bad = "\
status
fier b1 a1
fire b1
fire b1 a1
move xyzzy forward 3
move b4 forward -2
move b4 to 12
move b4 to 500,500
move b4 to 8,19
pivot b4 up
charge b1 a3
rally a1
general zz to 1,1
log many
end please
load /nonexistent/save.json
status
quit
";
    let played = desk.play(&["guilford", "--seed", "5"], bad);
    assert_eq!(played.status, 0, "{}", played.stderr);
    let errors: Vec<&str> = played
        .stdout
        .lines()
        .filter(|line| line.starts_with("error: ") || line.starts_with("refused: "))
        .collect();
    assert_eq!(
        errors.len(),
        15,
        "every bad line gets exactly one message:\n{}",
        played.stdout
    );
    let first = played.stdout.find("british:\n  unit").unwrap();
    let second = played.stdout.rfind("british:\n  unit").unwrap();
    let status = |from: usize| {
        let text = &played.stdout[from..];
        text[..text.find("turn 1/15").unwrap_or(text.len())].to_string()
    };
    assert_eq!(status(first), status(second), "the state is unchanged");
}

#[test]
fn a_save_written_mid_game_resumes_to_the_same_state_and_future() {
    let desk = Desk::new();
    let first_half = "move 23rd forward 6\nend turn\nmove b3 forward 4\nsave mid.json\n";
    let second_half = "end\nfire b4 a2\nend turn\nmove b5 forward 6\nend turn\nstatus\nquit\n";
    let straight = desk.play(
        &["guilford", "--seed", "42"],
        &format!("{first_half}{second_half}"),
    );
    let resumed = desk.play(
        &["guilford", "--seed", "999"],
        &format!("load mid.json\n{second_half}"),
    );
    assert_eq!(straight.status, 0, "{}", straight.stderr);
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed.stdout.contains("loaded mid.json"),
        "{}",
        resumed.stdout
    );
    assert_eq!(
        after_last(&straight.stdout, "british:\n  unit"),
        after_last(&resumed.stdout, "british:\n  unit")
    );
}

#[test]
fn resume_continues_the_autosaved_game() {
    let desk = Desk::new();
    let first = desk.play(&["learning", "--seed", "3"], "move b1 forward 5\nquit\n");
    assert_eq!(first.status, 0, "{}", first.stderr);
    assert!(desk.path("data/play-autosave.json").is_file());
    let resumed = desk.play(&["--resume"], "status\nquit\n");
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(resumed.stdout.contains("moved"), "{}", resumed.stdout);
}

#[test]
fn a_damaged_or_newer_save_is_refused_and_left_untouched() {
    let desk = Desk::new();
    std::fs::write(desk.path("broken.json"), "{ not json").unwrap();
    let newer = r#"{"version": 99, "scenario": {"shown_as": "x", "text": ""}, "seed": 1, "player_sides": [0], "actions": []}"#;
    std::fs::write(desk.path("newer.json"), newer).unwrap();
    let played = desk.play(
        &["learning", "--seed", "1"],
        "load broken.json\nload newer.json\nquit\n",
    );
    assert!(
        played
            .stdout
            .contains("error: `broken.json` is not a foe play save"),
        "{}",
        played.stdout
    );
    assert!(
        played.stdout.contains("saved by a newer foe (format 99"),
        "{}",
        played.stdout
    );
    assert_eq!(
        std::fs::read_to_string(desk.path("broken.json")).unwrap(),
        "{ not json"
    );
    assert_eq!(
        std::fs::read_to_string(desk.path("newer.json")).unwrap(),
        newer
    );
}

#[test]
fn watching_plays_the_game_to_its_end() {
    let desk = Desk::new();
    let played = desk.play(
        &[
            "learning",
            "--side",
            "none",
            "--seed",
            "8",
            "--no-pause",
            "--quiet",
        ],
        "",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played.stdout.contains("Victory to the") || played.stdout.contains("A draw"),
        "{}",
        played.stdout
    );
}

#[test]
fn an_unknown_side_or_scenario_is_one_line() {
    let desk = Desk::new();
    let played = desk.play(&["learning", "--side", "prussians"], "");
    assert_eq!(played.status, 1);
    assert_eq!(
        played.stderr.trim_end(),
        "error: unknown side `prussians`; expected one of: british, french, none"
    );
    let played = desk.play(&["gilford"], "");
    assert_eq!(
        played.stderr.trim_end(),
        "error: unknown scenario `gilford`; did you mean `guilford`?"
    );
}

#[test]
fn the_prompt_completes_unit_names_and_keeps_history_at_a_terminal() {
    let desk = Desk::new();
    let binary = assert_cmd::cargo::cargo_bin("foe");
    let command = format!(
        "env FOE_DATA_DIR={} NO_COLOR=1 TERM=xterm {} play learning --seed 2",
        desk.path("data").display(),
        binary.display()
    );
    let mut session = rexpect::spawn(&command, Some(20_000)).expect("spawn foe in a pty");
    session.exp_string("movement> ").expect("the prompt");
    // Tab completes the unit's name from its first letters.
    session.send("status Ran\t").expect("type");
    session.flush().expect("flush");
    session
        .exp_string("Rangers")
        .expect("Tab completed the name on the line");
    session.send_line("").expect("enter");
    session
        .exp_string("F1 Rangers")
        .expect("completed unit name and its status");
    session.exp_string("movement> ").expect("the prompt again");
    // Up-arrow brings back the last line.
    session.send("\x1b[A").expect("up");
    session.flush().expect("flush");
    session
        .exp_string("status Rangers")
        .expect("Up brought the last line back");
    session.send_line("").expect("enter");
    session
        .exp_string("F1 Rangers")
        .expect("the line from history ran again");
    session.send_line("quit").expect("quit");
    session.exp_eof().expect("foe leaves");
}

#[test]
fn the_players_own_dice_are_asked_checked_and_saved() {
    let desk = Desk::new();
    // Two d100 rolls for the rolled generals, then the gun's average die:
    // a 9 is refused and asked again.
    let script = "45\n90\nend\nfire b1 a3\n9\n4\nsave asked.json\nquit\n";
    let output = Command::cargo_bin("foe")
        .unwrap()
        .args(["--dice", "ask", "play", "guilford", "--seed", "1"])
        .env("FOE_DATA_DIR", desk.path("data"))
        .current_dir(desk.dir.path())
        .write_stdin(script)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`9` is not an average-die roll from 2 to 5"),
        "{stderr}"
    );
    assert!(stdout.contains("die 4, -3 range 3 bounds = 1"), "{stdout}");
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(desk.path("asked.json")).unwrap()).unwrap();
    assert_eq!(save["asked"], true);
    assert_eq!(save["rolls"], serde_json::json!([45, 90, 4]));
    // Loading replays the recorded rolls: no dice are asked again.
    let loaded = desk.play(&["learning"], "load asked.json\nstatus a3\nquit\n");
    assert!(
        loaded.stdout.contains("hits 1 (routs at 9)"),
        "{}",
        loaded.stdout
    );
}
