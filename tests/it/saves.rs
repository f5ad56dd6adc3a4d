//! Malformed saves (issue 14): a corpus of damaged `foe play` and
//! companion saves, each refused with its expected one-line message and
//! left as it was, both at `--resume FILE` and at `load FILE` inside a game
//! (which goes on).
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
