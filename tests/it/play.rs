//! `foe play` driven as a player would: scripted games compared in full,
//! refusals that change nothing, saves that resume to the same future, and
//! the prompt at a real (pseudo-)terminal.

use super::support::golden;
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

    /// The files in the autosave folder, by name.
    fn autosaves(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.path("data/play-saves"))
            .map(|entries| {
                entries
                    .flatten()
                    .map(|entry| entry.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    fn play_bytes(&self, args: &[&str], script: Vec<u8>) -> Played {
        let output = Command::cargo_bin("foe")
            .expect("foe binary")
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

/// A rally naming a unit out of the general's 12" rallies the others and
/// says why it left that one out, and the game is then exactly the game
/// where only the others were named: the same die, the same future, and
/// `undo` takes the whole rally back.
#[test]
fn a_rally_leaves_out_the_unit_out_of_range_and_rallies_the_rest() {
    let desk = Desk::new();
    // Turn 3's rallying phase: the 23rd Foot (B4, 9 hits) is within
    // Cornwallis's range, the Guards (B2, 2 hits) 12.28" away.
    let to_rallying = GUILFORD_SCRIPT.replace("status\nquit\n", "end\nend\n");
    let play = |rally: &str| {
        let played = desk.play(
            &["guilford", "--seed", "1781"],
            &format!("{to_rallying}{rally}\nundo\n{rally}\nend\nstatus\nquit\n"),
        );
        assert_eq!(played.status, 0, "{}", played.stderr);
        played.stdout
    };
    let both = play("rally cornwallis b2 b4");
    let one = play("rally cornwallis b4");
    let left_out = "cannot rally `Guards Grenadiers`: it is 12.28\" from the general and must be within 12\"\n";
    assert_eq!(both.matches(left_out).count(), 2, "{both}");
    let rallying = &both[both.find("turn 3 british rallying").unwrap()..];
    assert!(!rallying.contains("refused:"), "{rallying}");
    assert!(
        both.contains(&format!(
            "{left_out}Cornwallis rallies: die 3: 23rd Foot −2 (7 rallies left)\n"
        )),
        "{both}"
    );
    assert!(both.contains("Taken back: `rally"), "{both}");
    assert_eq!(
        both.replace(left_out, "").replace("b2 b4", "b4"),
        one,
        "naming the unit out of range changes nothing else"
    );
    // Out of range alone, the rally is refused as before.
    let alone = desk.play(
        &["guilford", "--seed", "1781"],
        &format!("{to_rallying}rally cornwallis b2\nquit\n"),
    );
    assert!(
        alone.stdout.contains(&format!("refused: {left_out}")),
        "{}",
        alone.stdout
    );
}

/// Every move `UNIT ?` lists is one the engine takes when typed: the
/// engine's own sample and the farthest straight moves (forward, back,
/// towards the nearest enemy and away) alike, in several scenarios and
/// seeds. Each is typed, then undone, in one game.
#[test]
fn every_move_a_units_question_lists_is_taken() {
    let desk = Desk::new();
    let asks: String = (1..=12)
        .flat_map(|n| ["a", "b", "u", "c"].map(|side| format!("move {side}{n} ?\n")))
        .collect();
    let mut tried = 0;
    for (scenario, seed, first) in [
        ("guilford", "1781", ""),
        ("guilford", "7", ""),
        ("learning", "3", ""),
        ("monongahela", "11", ""),
        ("monongahela", "1755", ""),
        ("guilford-rv", "2", ""),
        ("henry-hill", "4", "auto\n"),
    ] {
        let args = ["--seed", seed, scenario];
        let listed = desk.play(&args, &format!("{first}{asks}quit\n"));
        assert_eq!(listed.status, 0, "{}", listed.stderr);
        let moves: Vec<&str> = listed
            .stdout
            .lines()
            .filter_map(|line| line.trim_start().split_once("  "))
            .filter(|(n, _)| n.parse::<u32>().is_ok())
            .map(|(_, command)| command)
            .filter(|command| command.starts_with("move "))
            .collect();
        assert!(
            !moves.is_empty(),
            "{scenario} {seed}: nothing listed\n{}",
            listed.stdout
        );
        tried += moves.len();
        let script: String = moves.iter().map(|line| format!("{line}\nundo\n")).collect();
        let typed = desk.play(&args, &format!("{first}{script}quit\n"));
        assert_eq!(typed.status, 0, "{}", typed.stderr);
        let turned_down: Vec<&str> = typed
            .stdout
            .lines()
            .filter(|line| line.starts_with("refused: ") || line.starts_with("error: "))
            .collect();
        assert!(
            turned_down.is_empty(),
            "{scenario} {seed}: listed by `?` but turned down: {turned_down:#?}"
        );
        assert_eq!(typed.stdout.matches("Taken back").count(), moves.len());
    }
    assert!(tried > 50, "only {tried} moves listed");
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
        text[..text.find("turn 1 british").unwrap_or(text.len())].to_string()
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
    assert_eq!(desk.autosaves().len(), 1);
    let resumed = desk.play(&["--resume"], "status\nquit\n");
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(resumed.stdout.contains("moved"), "{}", resumed.stdout);
    // A short summary, not the whole log again.
    assert!(
        resumed
            .stdout
            .contains("Resumed: 1 of your actions replayed."),
        "{}",
        resumed.stdout
    );
    assert!(
        !resumed.stdout.contains("44th Foot moves"),
        "{}",
        resumed.stdout
    );
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
fn a_watcher_can_look_around_between_turns_without_moving_anything() {
    let desk = Desk::new();
    // The same game watched straight through, and with looks between its
    // turns: the looks answer, an order is refused, and the game is the same.
    let args = ["guilford", "--side", "none", "--seed", "4"];
    let plain = desk.play(&args, "\n\nq\n");
    let looked = desk.play(
        &args,
        "status b2\nwhy a1\nvictory\nmove b1 forward 2\nmap\n\nwhat a1\n\nq\n",
    );
    assert_eq!(looked.status, 0, "{}", looked.stderr);
    let out = &looked.stdout;
    for expected in [
        "Guards Grenadiers",
        "reaction test (",
        "Otherwise a draw after turn 15",
        "You are watching: foe commands both sides. Enter goes on.",
        "before the die",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    // Between the looks nothing moved: the turns printed are the plain run's.
    let turns = |text: &str| {
        text.lines()
            .filter(|line| line.contains(" moves ") || line.contains("Fires at"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(turns(out), turns(&plain.stdout));
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
    session.exp_string("movement > ").expect("the prompt");
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
    session.exp_string("movement > ").expect("the prompt again");
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
fn tab_lists_the_choices_by_context_at_a_terminal() {
    let desk = Desk::new();
    let binary = assert_cmd::cargo::cargo_bin("foe");
    let command = format!(
        "env FOE_DATA_DIR={} NO_COLOR=1 TERM=xterm {} play guilford --seed 1781",
        desk.path("data").display(),
        binary.display()
    );
    let mut session = rexpect::spawn(&command, Some(20_000)).expect("spawn foe in a pty");
    session.exp_string("movement > ").expect("the prompt");
    // The target of `fire` is an enemy unit: Tab twice lists them, with names.
    session.send("fire b1 a1\t\t").expect("type");
    session.flush().expect("flush");
    session
        .exp_string("A1 (Campbell's Riflemen)")
        .expect("the first choice listed");
    session
        .exp_string("A12 (Washington's Dragoons)")
        .expect("the last choice listed");
    // After a unit to move, the words of a move; one choice is completed.
    session.send("\x15move b3 fo\t").expect("type");
    session.flush().expect("flush");
    session
        .exp_string("forward")
        .expect("Tab completed the only choice");
    session.send(" max").expect("type");
    session.send_line("").expect("enter");
    session
        .exp_string("40,10 using 6")
        .expect("the completed line ran");
    session.send_line("quit").expect("quit");
    session.exp_eof().expect("foe leaves");
}

/// A unit told to fire that does not says why, a melee says who
/// charged and why the loser retreats, and the end-of-game table has a
/// heading (guns' range bands are in `play_player_turn.txt`).
#[test]
fn the_log_says_why_a_unit_holds_its_fire_and_why_a_melee_loser_retreats() {
    let desk = Desk::new();
    let watched = |seed: &str| {
        let played = desk.play(
            &["guilford", "--side", "none", "--no-pause", "--seed", seed],
            "",
        );
        assert_eq!(played.status, 0, "{}", played.stderr);
        played.stdout
    };
    let one = watched("11");
    assert!(
        one.lines().any(|line| line == "Butler's Militia: Stand and fire (5). Stand and fire; does not fire at 71st Foot (3.0\" away): Campbell's Riflemen, a friend, is within 3\" of the target, and no unit shoots at an enemy that close to its own."),
        "{one}"
    );
    assert!(
        one.contains("The armies at the end (units lost, hits on the units left, rallies used of the budget):\nside            units   lost       hits  rallies\n"),
        "{one}"
    );
    // The Guards charge Eaton's Militia at the fence, and the militia,
    // with the most hits, retreats.
    assert!(
        one.contains("\
melee: Guards Grenadiers charging: die 4, +2 grenadiers or cavalry = 6, -1 charging a unit in cover or uphill = 5 → 5 hits on Eaton's Militia; Eaton's Militia defending: die 3 → 3 hits on Guards Grenadiers
  Eaton's Militia takes 5 hits (total 10)
  Guards Grenadiers takes 3 hits (total 9)
  Eaton's Militia retreats 33,19 → 32.79,24.7, facing 357.87°
  (why: Eaton's Militia has 10 hits in all to 9 of Guards Grenadiers, and the unit with the most total hits retreats a full move, seed 000 Melee Retreat)
"),
        "{one}"
    );
}

#[test]
fn the_players_own_dice_are_asked_checked_and_saved() {
    let desk = Desk::new();
    // Two d100 rolls for the rolled generals, then (the Americans moving
    // first) the gun's average die: a 9 is refused and asked again.
    let script = "45\n90\nend\nfire a3 b1\n9\n4\nsave asked.json\nquit\n";
    let output = Command::cargo_bin("foe")
        .unwrap()
        .args([
            "--dice",
            "ask",
            "play",
            "guilford",
            "--side",
            "americans",
            "--seed",
            "1",
        ])
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
    // Every roll is asked for by name: the rolled generals' characters and
    // the gun's fire.
    assert_eq!(stderr.matches("the character of ").count(), 2, "{stderr}");
    assert!(stderr.contains("'s fire at "), "{stderr}");
    assert!(!stderr.contains("foe needs a roll"), "{stderr}");
    assert!(
        stdout.contains("die 4, -3 for 3 range bands of 6\" = 1"),
        "{stdout}"
    );
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(desk.path("asked.json")).unwrap()).unwrap();
    assert_eq!(save["asked"], true);
    assert_eq!(save["rolls"], serde_json::json!([45, 90, 4]));
    // Loading replays the recorded rolls: no dice are asked again.
    let loaded = desk.play(&["learning"], "load asked.json\nstatus b1\nquit\n");
    assert!(
        loaded.stdout.contains("hits 1 (routs at 9)"),
        "{}",
        loaded.stdout
    );
}

#[test]
fn two_games_keep_two_autosaves_and_resume_picks_the_newest_or_the_named() {
    let desk = Desk::new();
    let guilford = desk.play(&["guilford", "--seed", "1"], "move 23rd forward 3\nquit\n");
    assert_eq!(guilford.status, 0, "{}", guilford.stderr);
    let learning = desk.play(&["learning", "--seed", "1"], "quit\n");
    assert_eq!(learning.status, 0, "{}", learning.stderr);
    let saves = desk.autosaves();
    assert_eq!(saves.len(), 2, "{saves:?}");
    assert!(saves[0].starts_with("guilford-") && saves[1].starts_with("learning-"));
    // Make the Guilford game the older one, whatever the clock's resolution.
    let older = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    std::fs::File::options()
        .write(true)
        .open(desk.path("data/play-saves").join(&saves[0]))
        .unwrap()
        .set_modified(older)
        .unwrap();
    let listed = desk.play(&["--resume", "list"], "");
    assert_eq!(listed.status, 0, "{}", listed.stderr);
    let lines: Vec<&str> = listed.stdout.lines().collect();
    assert!(lines[0].starts_with("Saved games in "), "{}", listed.stdout);
    assert!(lines[1].contains("Learning the system - two units, one at each end of the table; you: british; turn 1/12; saved "), "{}", listed.stdout);
    assert!(
        lines[2].contains("Guilford Courthouse, 15 March 1781; you: british; turn 1/15; saved "),
        "{}",
        listed.stdout
    );
    let newest = desk.play(&["--resume"], "quit\n");
    assert!(newest.stdout.contains("Resumed: "), "{}", newest.stdout);
    assert!(
        newest.stdout.contains("Learning the system"),
        "{}",
        newest.stdout
    );
    let named = desk.play(&["--resume", "guilford"], "status b1\nquit\n");
    assert!(
        named.stdout.contains("Guilford Courthouse"),
        "{}",
        named.stdout
    );
    assert!(
        named
            .stdout
            .contains("Resumed: 1 of your actions replayed."),
        "{}",
        named.stdout
    );
    let unknown = desk.play(&["--resume", "monongahela"], "");
    assert_eq!(unknown.status, 1);
    assert!(
        unknown
            .stderr
            .starts_with("error: no saved game `monongahela` in"),
        "{}",
        unknown.stderr
    );
    // Resuming went on saving in the same two files.
    assert_eq!(desk.autosaves(), saves);
}

#[test]
fn an_autosave_or_save_that_is_a_device_is_refused_and_left_as_it_is() {
    let desk = Desk::new();
    // Only a refusal is ever checked against the real device.
    let played = desk.play(&["learning", "--autosave", "/dev/null"], "quit\n");
    assert_eq!(played.status, 1);
    assert_eq!(
        played.stderr,
        "error: `/dev/null` is a character device, not a regular file: foe writes saves only to regular files, and leaves it as it is\n"
    );
    // A link to the device, and a FIFO: `save` refuses both, the game goes on.
    std::os::unix::fs::symlink("/dev/null", desk.path("null.json")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(desk.path("pipe.json"))
        .status()
        .unwrap();
    assert!(made.success());
    let played = desk.play(
        &["learning", "--seed", "1"],
        "save null.json\nsave pipe.json\nmove b1 forward 2\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played
            .stdout
            .contains("error: `null.json` is a link to a character device, not a regular file"),
        "{}",
        played.stdout
    );
    assert!(
        played
            .stdout
            .contains("error: `pipe.json` is a FIFO, not a regular file"),
        "{}",
        played.stdout
    );
    assert!(
        played.stdout.contains("44th Foot moves"),
        "{}",
        played.stdout
    );
    let link = std::fs::symlink_metadata(desk.path("null.json")).unwrap();
    assert!(link.file_type().is_symlink());
    let fifo = std::fs::symlink_metadata(desk.path("pipe.json")).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&fifo.file_type()));
    // --autosave naming the FIFO is refused before the game starts.
    let played = desk.play(&["learning", "--autosave", "pipe.json"], "quit\n");
    assert_eq!(played.status, 1);
    assert!(
        played.stderr.starts_with("error: `pipe.json` is a FIFO"),
        "{}",
        played.stderr
    );
}

#[test]
fn the_autosave_is_written_before_the_result_is_printed() {
    let desk = Desk::new();
    // The autosave cannot be written (its folder is a file), so each
    // attempt prints a warning where it happens: before the move's line.
    std::fs::write(desk.path("blocker"), "").unwrap();
    let played = desk.play(
        &["learning", "--seed", "1", "--autosave", "blocker/save.json"],
        "move b1 forward 2\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let after_command = after_last(&played.stdout, "> move b1 forward 2");
    let warned = after_command
        .find("warning: autosave failed")
        .expect(after_command);
    let moved = after_command.find("44th Foot moves").expect(after_command);
    assert!(warned < moved, "saved before shown:\n{after_command}");
    // And a written autosave holds the move printed before the prompt ended.
    let played = desk.play(
        &["learning", "--seed", "1", "--autosave", "game.json"],
        "move b1 forward 2\n",
    );
    assert!(played.stdout.contains("44th Foot moves"));
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(desk.path("game.json")).unwrap()).unwrap();
    assert_eq!(save["actions"].as_array().unwrap().len(), 1);
    let leftovers: Vec<_> = std::fs::read_dir(desk.dir.path())
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn a_new_game_sets_aside_the_save_it_would_overwrite() {
    let desk = Desk::new();
    desk.play(
        &["guilford", "--seed", "1", "--autosave", "game.json"],
        "move 23rd forward 3\nquit\n",
    );
    let played = desk.play(
        &["learning", "--seed", "1", "--autosave", "game.json"],
        "quit\n",
    );
    assert!(
        played.stdout.contains("is kept as game.previous.json"),
        "{}",
        played.stdout
    );
    let previous = std::fs::read_to_string(desk.path("game.previous.json")).unwrap();
    assert!(previous.contains("Guilford Courthouse"));
}

/// A save of the Guilford game played with the player's own dice.
fn asked_save(desk: &Desk) -> serde_json::Value {
    let output = Command::cargo_bin("foe")
        .unwrap()
        .args([
            "--dice",
            "ask",
            "play",
            "guilford",
            "--side",
            "americans",
            "--seed",
            "1",
        ])
        .env("FOE_DATA_DIR", desk.path("data"))
        .current_dir(desk.dir.path())
        .write_stdin("45\n90\nend\nfire a3 b1\n4\nsave asked.json\nquit\n")
        .output()
        .unwrap();
    assert!(output.status.success());
    serde_json::from_str(&std::fs::read_to_string(desk.path("asked.json")).unwrap()).unwrap()
}

#[test]
fn a_corrupted_save_is_refused_with_what_is_wrong_never_a_panic() {
    let desk = Desk::new();
    let good = asked_save(&desk);
    let write = |name: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let mut save = good.clone();
        change(&mut save);
        std::fs::write(desk.path(name), serde_json::to_string(&save).unwrap()).unwrap();
    };
    write("not-a-face.json", &|save| save["rolls"][0] = 0.into());
    write("too-few.json", &|save| {
        save["rolls"].as_array_mut().unwrap().pop();
    });
    write("no-side.json", &|save| {
        save["player_sides"] = serde_json::json!(["hessians"])
    });
    write("version-0.json", &|save| save["version"] = 0.into());
    let text = serde_json::to_string_pretty(&good).unwrap();
    std::fs::write(desk.path("truncated.json"), &text[..text.len() / 2]).unwrap();
    let played = desk.play(
        &["learning", "--seed", "1"],
        "load not-a-face.json\nload too-few.json\nload no-side.json\nload version-0.json\nload truncated.json\nstatus b1\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    for expected in [
        "error: `not-a-face.json`: the saved game does not replay: the set-up: recorded roll 0 is not a face of the d100",
        "error: `too-few.json`: the saved game does not replay: action 2 of the save: the record of rolls ends where a roll of the average die is needed",
        "error: `no-side.json`: the saved game names no side `hessians` (its scenario has british, americans)",
        "error: `version-0.json` is not a foe play save: `0` is not a format version",
        "error: `truncated.json` is not a foe play save: EOF while parsing",
    ] {
        assert!(
            played.stdout.contains(expected),
            "missing {expected:?} in\n{}",
            played.stdout
        );
    }
    // The game in play is untouched.
    assert!(played.stdout.contains("B1 44th Foot"), "{}", played.stdout);
    // --resume of a corrupted save stops with one line, not a panic.
    let resumed = desk.play(&["--resume", "not-a-face.json"], "");
    assert_eq!(resumed.status, 1, "{}", resumed.stderr);
    assert_eq!(resumed.stderr.lines().count(), 1, "{}", resumed.stderr);
    assert!(
        resumed
            .stderr
            .contains("recorded roll 0 is not a face of the d100"),
        "{}",
        resumed.stderr
    );
}

#[test]
fn a_game_with_the_players_dice_resumes_asking_for_them() {
    let desk = Desk::new();
    asked_save(&desk);
    // No --dice ask this time: the save says the player rolls.
    let resumed = desk.play(&["--resume", "asked.json"], "end\nend\n3\nquit\n");
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed
            .stdout
            .contains("Dice: you roll your own, as when the game was saved;"),
        "{}",
        resumed.stdout
    );
    assert!(
        resumed.stderr.contains(": type "),
        "asked for a roll: {}",
        resumed.stderr
    );
}

#[test]
fn a_bad_line_at_a_dice_prompt_or_the_prompt_is_refused_and_play_goes_on() {
    let desk = Desk::new();
    let mut script = b"\xff\xfe\n".to_vec();
    script.extend(std::iter::repeat_n(b'4', 70_000));
    script.extend(b"\n45\n90\n\xc3\x28 status\n");
    script.extend(std::iter::repeat_n(b's', 70_000));
    script.extend(b"\nstatus b1\nquit\n");
    let played = desk.play_bytes(
        &[
            "--dice",
            "ask",
            "play",
            "guilford",
            "--side",
            "americans",
            "--seed",
            "1",
        ],
        script,
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played
            .stderr
            .contains("that line is not UTF-8 text; it was ignored"),
        "{}",
        played.stderr
    );
    assert!(
        played
            .stderr
            .contains("that line is longer than 65536 bytes; it was ignored"),
        "{}",
        played.stderr
    );
    assert!(
        !played.stderr.contains("no more input"),
        "{}",
        played.stderr
    );
    // The player's rolls were used, not the seeded dice.
    assert!(
        played.stdout.contains("is Average (d100 45)"),
        "{}",
        played.stdout
    );
    assert!(
        played.stdout.contains("is Cautious (d100 90)"),
        "{}",
        played.stdout
    );
    assert!(
        played
            .stdout
            .contains("error: that line is not UTF-8 text; it was ignored"),
        "{}",
        played.stdout
    );
    assert!(
        played
            .stdout
            .contains("error: that line is longer than 65536 bytes; it was ignored"),
        "{}",
        played.stdout
    );
    assert!(
        played.stdout.contains("B1 Royal Artillery"),
        "{}",
        played.stdout
    );
}

const ROLLBACK_SCRIPT: &str = "\
history
move b1 forward 6
end turn
move b1 forward 6
end
history
undo
undo
undo
history
end turn
move b1 forward 3
end turn
rewind 2
history
status b1
undo turn
undo turn
history
rewind 5
quit
";

#[test]
fn undo_undo_turn_rewind_and_history_take_the_game_back_across_turns() {
    let desk = Desk::new();
    let played = desk.play(
        &["learning", "--side", "british", "--seed", "11"],
        ROLLBACK_SCRIPT,
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    golden(&played.stdout, "play_rollback.txt");
    // The autosave after the rewinds holds only the kept prefix: nothing.
    let saves = desk.autosaves();
    let save: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(desk.path("data/play-saves").join(&saves[0])).unwrap(),
    )
    .unwrap();
    assert_eq!(save["actions"], serde_json::json!([]));
}

#[test]
fn a_game_against_the_baseline_resumes_and_rewinds_with_the_baseline() {
    let args = [
        "guilford",
        "--side",
        "americans",
        "--baseline",
        "british",
        "--seed",
        "8",
    ];
    let straight = Desk::new().play(&args, "end turn\nend turn\nend turn\nstatus\nquit\n");
    assert_eq!(straight.status, 0, "{}", straight.stderr);
    assert!(
        straight.stdout.contains("== british (baseline) =="),
        "{}",
        straight.stdout
    );

    let desk = Desk::new();
    let first = desk.play(&args, "end turn\nend turn\nquit\n");
    assert_eq!(first.status, 0, "{}", first.stderr);
    let saves = desk.autosaves();
    let save: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(desk.path("data/play-saves").join(&saves[0])).unwrap(),
    )
    .unwrap();
    assert_eq!(save["baseline_sides"], serde_json::json!(["british"]));
    // Resumed, the baseline still commands the British: its turn is played
    // by it, the same as in the game never interrupted.
    let resumed = desk.play(&["--resume"], "end turn\nstatus\nquit\n");
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed.stdout.contains(
            "The baseline (scripted, not Lone Warrior; rulings HO20-HO26) commands the british."
        ),
        "{}",
        resumed.stdout
    );
    assert!(
        resumed.stdout.contains("== british (baseline) =="),
        "{}",
        resumed.stdout
    );
    assert_eq!(
        after_last(&straight.stdout, "british:\n  unit"),
        after_last(&resumed.stdout, "british:\n  unit")
    );
    // Rewound to turn 2 and played on, it is the same game again.
    let rewound = desk.play(
        &["--resume"],
        "rewind 2\nend turn\nend turn\nstatus\nquit\n",
    );
    assert_eq!(rewound.status, 0, "{}", rewound.stderr);
    assert_eq!(
        after_last(&rewound.stdout, "== british (baseline) =="),
        after_last(&straight.stdout, "== british (baseline) ==")
    );
    // `--baseline` with `--resume` is a usage error: the save says who commands.
    let both = desk.play(&["--resume", "--baseline", "british"], "");
    assert_eq!(both.status, 2, "{}", both.stderr);
}

/// What `foe play` printed in answer to `command`: from its prompt line to
/// the next prompt.
fn answer<'a>(stdout: &'a str, command: &str) -> &'a str {
    let marker = format!("> {command}\n");
    let start = stdout
        .find(&marker)
        .unwrap_or_else(|| panic!("no `{command}` in\n{stdout}"))
        + marker.len();
    let rest = &stdout[start..];
    let end = rest
        .match_indices('\n')
        .map(|(at, _)| at + 1)
        .find(|&at| rest[at..].starts_with("turn ") && rest[at..].contains("> "))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The `ground: …` line of an answer.
fn ground_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|line| line.starts_with("ground: "))
        .unwrap_or_else(|| panic!("no ground in\n{text}"))
}

/// A unit of foe's that marched in column says so in the same
/// words in the log, `status`, `status UNIT`, `what UNIT` and both maps; a
/// unit foe routed is listed as routed; and `status UNIT` and `what UNIT`
/// say the same ground for every unit, the fence line's too.
#[test]
fn foes_unit_states_and_ground_read_the_same_in_status_what_and_the_maps() {
    let desk = Desk::new();
    // The first two turns of the typed whole game, on seed 5: foe's third
    // line marches up in column in its turn 3.
    let whole = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/play_whole_guilford.in"),
    )
    .unwrap();
    let mut script: String = whole
        .lines()
        .take(18)
        .map(|line| line.to_owned() + "\n")
        .collect();
    script.push_str("status\nmap\nmap --svg turn3.svg\n");
    for unit in 1..=12 {
        script.push_str(&format!("what a{unit}\nstatus a{unit}\n"));
    }
    script.push_str("quit\n");
    let played = desk.play(&["--seed", "5", "--no-autosave"], &script);
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    assert!(
        out.contains("Kirkwood's Riflemen: Advance and fire (7). Moves 10,40 → 10.88,35.59 (now in column).\n"),
        "{out}"
    );
    let table = answer(out, "status");
    let row = |label: &str| {
        table
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{label} ")))
            .unwrap_or_else(|| panic!("no {label} in\n{table}"))
            .trim_end()
    };
    assert!(row("A9").ends_with(" column"), "{table}");
    assert!(row("A1").ends_with(" skirmish"), "{table}");
    assert!(row("A3").ends_with(" routed"), "{table}");
    assert!(
        answer(out, "status a9").contains("\n  state: column\n"),
        "{out}"
    );
    assert!(
        answer(out, "what a9").contains("\n  state: column\n"),
        "{out}"
    );
    assert!(
        answer(out, "map").contains(
            "A9    Kirkwood's Riflemen (riflemen) at 10.88,35.59 facing south, 0 hits, column\n"
        ),
        "{out}"
    );
    let svg = std::fs::read_to_string(desk.path("turn3.svg")).unwrap();
    assert!(
        svg.contains("<title>A9 Kirkwood's Riflemen (riflemen), 0 hits, column</title>"),
        "{svg}"
    );
    // Eaton's Militia lines the fence with the Guards beyond it.
    assert_eq!(ground_line(answer(out, "what a4")), "ground: hard cover");
    assert_eq!(ground_line(answer(out, "status a4")), "ground: hard cover");
    for unit in (1..=12).filter(|unit| *unit != 3) {
        let what = answer(out, &format!("what a{unit}"));
        let status = answer(out, &format!("status a{unit}"));
        assert_eq!(ground_line(what), ground_line(status), "a{unit}");
    }
}

/// Seed 1 is a drawn game (with dice drawn by their place in the game,
/// ruling P7).
#[test]
fn a_drawn_game_says_how_near_each_side_came_to_winning() {
    let desk = Desk::new();
    let played = desk.play(
        &["guilford", "--side", "none", "--seed", "1", "--no-pause"],
        "",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    let verdict = out
        .find("A draw: neither side met its victory conditions by turn 15. How near each came:\n")
        .unwrap_or_else(|| panic!("{out}"));
    let after: Vec<&str> = out[verdict..].lines().skip(1).take(2).collect();
    assert!(
        after[0].starts_with("  americans win if they rout more than 50% of the british units: "),
        "{after:?}"
    );
    assert!(after[1].contains("1 more needed"), "{after:?}");
}
