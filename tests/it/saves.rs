//! Saves: a corpus of damaged `foe play` and companion saves, each refused
//! with its expected one-line message and left as it was, both at
//! `--resume FILE` and at `load FILE` inside a game (which goes on); saves
//! written by earlier foes, resumed as they were with a notice; saves made
//! under `--tables`, or changed by hand, refused; and the lock that keeps a
//! second foe off a save in use.
//!
//! `tests/it/data/malformed/saves/KIND/NAME.json` (KIND `play` or
//! `companion`) is resumed with `foe KIND --resume KIND/NAME.json` from the
//! `saves` folder; the one line foe prints on standard error is compared
//! with `NAME.expected` beside it. `FOE_BLESS=1` rewrites those
//! (deliberately).

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/malformed/saves")
}

/// Run foe from the corpus folder with a fresh data folder.
fn foe_in_corpus(args: &[&str], stdin: &str) -> (i32, String, String) {
    let data = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("foe")
        .expect("foe binary")
        .current_dir(corpus())
        .args(args)
        .env("FOE_DATA_DIR", data.path())
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .write_stdin(stdin)
        .output()
        .expect("foe runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The corpus files of one kind, sorted.
fn files(kind: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus().join(kind))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    names
}

/// Resume and load every save of `kind`; the problems found.
fn check_kind(kind: &str, game: &[&str]) -> Vec<String> {
    let mut failures = Vec::new();
    for name in files(kind) {
        let file = format!("{kind}/{name}");
        let path = corpus().join(&file);
        let before = std::fs::read(&path).unwrap();
        let expected_file = path.with_extension("expected");

        let (status, _, stderr) = foe_in_corpus(&[kind, "--resume", &file], "quit\n");
        let message = stderr.trim_end();
        if std::env::var_os("FOE_BLESS").is_some() {
            std::fs::write(&expected_file, format!("{message}\n")).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_file).unwrap_or_default();
        let expected = expected.trim_end();
        if status != 1 || message.lines().count() != 1 {
            failures.push(format!("{file}: --resume gave status {status}:\n{stderr}"));
        } else if message != expected {
            failures.push(format!(
                "{file}: --resume said\n  {message}\nnot\n  {expected}"
            ));
        }

        // The same file loaded inside a game: one error line, and the game
        // goes on to its `quit`.
        let mut args = game.to_vec();
        args.push("--no-autosave");
        let (status, stdout, stderr) = foe_in_corpus(&args, &format!("load {file}\nquit\n"));
        let said = expected.trim_start_matches("error: ");
        if status != 0 || !stderr.is_empty() {
            failures.push(format!("{file}: load gave status {status}:\n{stderr}"));
        } else if !stdout.lines().any(|line| line.ends_with(said)) {
            failures.push(format!("{file}: load did not say `{said}`:\n{stdout}"));
        }

        if std::fs::read(&path).unwrap() != before {
            failures.push(format!("{file}: changed by foe"));
        }
    }
    failures
}

#[test]
fn every_malformed_play_save_is_refused_with_its_expected_message() {
    assert!(files("play").len() >= 25);
    let failures = check_kind("play", &["play", "learning", "--seed", "1"]);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_malformed_companion_save_is_refused_with_its_expected_message() {
    assert!(files("companion").len() >= 12);
    let failures = check_kind("companion", &["companion", "--seed", "1"]);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `tests/it/data/saves/`: saves written by foe before saves recorded what
/// made the game (play format versions 1 and 2, the other rules' versions
/// 1 and 2, the companion's version 2), each with what that foe printed on
/// resuming it and typing `status` (`NAME.expected`). Such a save names no
/// rules, so a deliberate change of foe's games replays it differently, as
/// its notice warns: `play-guilford-watch.expected` was re-recorded when
/// the opponent stopped wasting itself (BEHAVIOUR 7, rulings PL9, PL11,
/// PL13), and `host-henry-hill-watch.expected` when seeds 001 and 002's
/// units began to support a friend ahead (BEHAVIOUR 8, ruling HO27).
fn earlier_saves() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/saves")
}

/// Resume each earlier save named `prefix*` with `foe KIND`: the same
/// game as that foe resumed, plus one notice saying where it came from.
fn earlier_saves_resume_as_they_were(kind: &str, prefix: &str) {
    let mut names: Vec<String> = std::fs::read_dir(earlier_saves())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(prefix) && name.ends_with(".json"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    for name in names {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(earlier_saves().join(&name), dir.path().join(&name)).unwrap();
        let output = Command::cargo_bin("foe")
            .unwrap()
            .current_dir(dir.path())
            .args([kind, "--resume", &name])
            .env("FOE_DATA_DIR", dir.path().join("data"))
            .env_remove("FOE_TABLES")
            .env("NO_COLOR", "1")
            .write_stdin("status\nquit\n")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let notices: Vec<&str> = stdout.lines().filter(|l| l.starts_with("note: ")).collect();
        let rest: String = stdout
            .lines()
            .filter(|l| !l.starts_with("note: "))
            .map(|l| format!("{l}\n"))
            .collect();
        let expected =
            std::fs::read_to_string(earlier_saves().join(&name).with_extension("expected"))
                .unwrap();
        if !output.status.success() {
            failures.push(format!(
                "{name}: status {:?}: {}",
                output.status.code(),
                String::from_utf8_lossy(&output.stderr)
            ));
        } else if notices
            != [
                "note: it was saved by an older foe, before saves recorded foe's rules: if they changed since, it may replay differently from the game you played",
            ]
        {
            failures.push(format!("{name}: notices {notices:?}"));
        } else if rest != expected {
            failures.push(format!("{name}: resumed as\n{rest}\nnot as\n{expected}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn earlier_seed_000_saves_resume_as_they_were_with_a_notice() {
    earlier_saves_resume_as_they_were("play", "play-");
}

#[test]
fn earlier_seed_001_and_002_saves_resume_as_they_were_with_a_notice() {
    earlier_saves_resume_as_they_were("play", "host-");
}

#[test]
fn earlier_companion_saves_resume_as_they_were_with_a_notice() {
    earlier_saves_resume_as_they_were("companion", "companion");
}

/// foe in `dir`, its data folder inside it.
fn foe_in(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let run = super::support::foe_in(dir, args, stdin);
    (run.status, run.stdout, run.stderr)
}

/// House tables: one built-in table with a line added.
fn house_tables(dir: &Path) -> PathBuf {
    let tables = dir.join("house");
    std::fs::create_dir_all(&tables).unwrap();
    let melee =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/melee.yaml"))
            .unwrap();
    std::fs::write(tables.join("melee.yaml"), format!("{melee}# house copy\n")).unwrap();
    tables
}

#[test]
fn a_save_made_under_tables_resumes_only_under_them() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    house_tables(dir);
    let game = "move 44th forward max\nend turn\nsave built-in.json\nquit\n";
    let (status, _, stderr) = foe_in(
        dir,
        &["play", "learning", "--seed", "1", "--no-autosave"],
        game,
    );
    assert_eq!(status, 0, "{stderr}");
    let game = "move 44th forward max\nend turn\nsave house.json\nquit\n";
    let (status, _, stderr) = foe_in(
        dir,
        &[
            "play",
            "learning",
            "--seed",
            "1",
            "--no-autosave",
            "--tables",
            "house",
        ],
        game,
    );
    assert_eq!(status, 0, "{stderr}");
    let before = std::fs::read(dir.join("house.json")).unwrap();

    // Without its tables: refused in one line, the save left as it was.
    let (status, _, stderr) = foe_in(dir, &["play", "--resume", "house.json"], "quit\n");
    assert_eq!(status, 1);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: `house.json` was played under other tables (`--tables`, hash "),
        "{stderr}"
    );
    assert!(
        stderr.contains("resume it with the --tables folder it was played with"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(dir.join("house.json")).unwrap(), before);
    // A built-in game under house tables: refused too.
    let (status, _, stderr) = foe_in(
        dir,
        &["play", "--resume", "built-in.json", "--tables", "house"],
        "quit\n",
    );
    assert_eq!(status, 1);
    assert!(
        stderr.contains("was played under the built-in tables"),
        "{stderr}"
    );
    // Under its own tables: resumed, and nothing to note.
    for (save, tables) in [("house.json", Some("house")), ("built-in.json", None)] {
        let mut args = vec!["play", "--resume", save];
        args.extend(tables.map(|t| ["--tables", t]).into_iter().flatten());
        let (status, stdout, stderr) = foe_in(dir, &args, "quit\n");
        assert_eq!(status, 0, "{stderr}");
        assert!(
            stdout.contains("Resumed: 4 of your actions replayed."),
            "{stdout}"
        );
        assert!(!stdout.contains("note:"), "{stdout}");
    }
    // `load` inside a game says the same and the game goes on.
    let (status, stdout, _) = foe_in(
        dir,
        &["play", "learning", "--no-autosave"],
        "load house.json\nquit\n",
    );
    assert_eq!(status, 0);
    assert!(
        stdout.contains("error: `house.json` was played under other tables"),
        "{stdout}"
    );
}

#[test]
fn a_save_changed_by_hand_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let game = "move 44th forward max\nend turn\nsave game.json\nquit\n";
    let (status, _, stderr) = foe_in(
        dir,
        &["play", "learning", "--seed", "1", "--no-autosave"],
        game,
    );
    assert_eq!(status, 0, "{stderr}");
    let text = std::fs::read_to_string(dir.join("game.json")).unwrap();
    // Another seed replays the same actions as another battle.
    let changed = text.replace("\"seed\": 1,", "\"seed\": 2,");
    assert_ne!(changed, text);
    std::fs::write(dir.join("changed.json"), &changed).unwrap();
    let (status, _, stderr) = foe_in(dir, &["play", "--resume", "changed.json"], "quit\n");
    assert_eq!(status, 1);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: `changed.json` does not replay to the game that was saved ("),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("it was changed after foe wrote it\n"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("changed.json")).unwrap(),
        changed
    );
}

#[test]
fn a_companion_save_changed_by_hand_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let game = "army british\nbound\nunit 44th d=20\nsave game.json\nquit\n";
    let (status, _, stderr) = foe_in(dir, &["companion", "--seed", "3", "--no-autosave"], game);
    assert_eq!(status, 0, "{stderr}");
    let text = std::fs::read_to_string(dir.join("game.json")).unwrap();
    let (status, stdout, stderr) = foe_in(dir, &["companion", "--resume", "game.json"], "quit\n");
    assert_eq!(status, 0, "{stderr}");
    assert!(!stdout.contains("note:"), "{stdout}");
    for changed in [
        text.replace("\"seed\": 3,", "\"seed\": 4,"),
        text.replacen("\"d100\"", "\"d6\"", 1),
    ] {
        assert_ne!(changed, text);
        std::fs::write(dir.join("changed.json"), &changed).unwrap();
        let (status, _, stderr) = foe_in(dir, &["companion", "--resume", "changed.json"], "quit\n");
        assert_eq!(status, 1);
        assert_eq!(
            stderr,
            "error: cannot load `changed.json`: the save was changed after foe wrote it (its content does not match its `check`): its seed, dice or answers are not the game that was played\n"
        );
    }
}

/// A foe playing with its standard input held open, so it keeps running,
/// once it holds its lock and `file` is there.
fn running_foe(dir: &Path, args: &[&str], file: &str) -> std::process::Child {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("foe"))
        .current_dir(dir)
        .args(args)
        .env("FOE_DATA_DIR", dir.join("data"))
        .env_remove("FOE_TABLES")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !dir.join(".game.json.lock").exists() || !dir.join(file).exists() {
        assert!(started.elapsed().as_secs() < 20, "foe did not start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child
}

#[test]
fn a_second_foe_on_the_same_save_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let in_use = |stderr: &str| {
        stderr.lines().count() == 1
            && stderr.starts_with("error: `game.json` is in use by another foe (process ")
    };
    // One foe plays; a second `--resume` of its save, or a new game with
    // the same `--autosave`, is refused and changes nothing.
    let mut first = running_foe(
        dir,
        &["play", "learning", "--seed", "1", "--autosave", "game.json"],
        "game.json",
    );
    let before = std::fs::read(dir.join("game.json")).unwrap();
    let (status, _, stderr) = foe_in(dir, &["play", "--resume", "game.json"], "end turn\nquit\n");
    assert_eq!(status, 1);
    assert!(in_use(&stderr), "{stderr}");
    let (status, _, stderr) = foe_in(
        dir,
        &["play", "learning", "--autosave", "game.json"],
        "quit\n",
    );
    assert_eq!(status, 1);
    assert!(in_use(&stderr), "{stderr}");
    assert_eq!(std::fs::read(dir.join("game.json")).unwrap(), before);
    // Once it ends, the save is free and the lock file gone.
    drop(first.stdin.take());
    assert!(first.wait().unwrap().success());
    assert!(!dir.join(".game.json.lock").exists());
    let (status, _, stderr) = foe_in(dir, &["play", "--resume", "game.json"], "quit\n");
    assert_eq!(status, 0, "{stderr}");
    // A foe killed outright holds nothing: the system lets its lock go.
    let mut killed = running_foe(dir, &["play", "--resume", "game.json"], "game.json");
    killed.kill().unwrap();
    killed.wait().unwrap();
    let (status, _, stderr) = foe_in(dir, &["play", "--resume", "game.json"], "quit\n");
    assert_eq!(status, 0, "{stderr}");
    // The companion's saves are locked the same way.
    std::fs::remove_file(dir.join("game.json")).unwrap();
    let mut companion = running_foe(
        dir,
        &["companion", "--seed", "1", "--autosave", "game.json"],
        ".game.json.lock",
    );
    let (status, _, stderr) = foe_in(dir, &["companion", "--autosave", "game.json"], "quit\n");
    assert_eq!(status, 1);
    assert!(in_use(&stderr), "{stderr}");
    drop(companion.stdin.take());
    assert!(companion.wait().unwrap().success());
}
