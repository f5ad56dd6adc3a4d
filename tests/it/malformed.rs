//! Untrusted input: a corpus of malformed scenarios and tables,
//! each refused with its expected message, quickly, never a panic; and the
//! hostile cases of the issue in small form through the CLI.
//!
//! `tests/it/data/malformed/scenarios/NAME.yaml` is checked with
//! `foe check NAME.yaml`, and each folder of `tables/` with
//! `foe --tables FOLDER check guilford`; what foe prints is compared with
//! `NAME.expected` beside it. `FOE_BLESS=1` rewrites those (deliberately).
//! A table folder holds no copies of shipped tables: its `FILE.edit` says
//! what to replace in the shipped `tables/FILE` (`from`, `to`), and the
//! test writes the result, so the case cannot drift from the shipped file.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::support::foe;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/malformed")
}

/// Run foe in `dir`; what it printed, as the expected files hold it.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, Duration) {
    let started = Instant::now();
    let output = Command::cargo_bin("foe")
        .expect("foe binary")
        .current_dir(dir)
        .args(args)
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .output()
        .expect("foe runs");
    let elapsed = started.elapsed();
    let status = output.status.code().unwrap_or(-1);
    let printed = format!(
        "$ foe {}\nstatus: {status}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (status, printed, elapsed)
}

/// Each case refused (status 1, not a panic), in a few seconds even in a
/// debug build, with exactly the expected output.
fn check_case(dir: &Path, args: &[&str], expected_file: &Path, failures: &mut Vec<String>) {
    let (status, printed, elapsed) = run_in(dir, args);
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(expected_file, &printed).unwrap();
    }
    let expected = std::fs::read_to_string(expected_file).unwrap_or_default();
    let name = expected_file.display();
    if status != 1 {
        failures.push(format!("{name}: status {status}\n{printed}"));
    } else if elapsed > Duration::from_secs(20) {
        failures.push(format!("{name}: took {elapsed:?}"));
    } else if printed != expected {
        failures.push(format!(
            "{name}:\n--- got ---\n{printed}\n--- want ---\n{expected}"
        ));
    }
}

#[test]
fn every_malformed_scenario_is_refused_with_its_expected_message() {
    let dir = corpus().join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_str().unwrap();
        check_case(
            &dir,
            &["check", name],
            &file.with_extension("expected"),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_malformed_table_folder_is_refused_with_its_expected_message() {
    let dir = corpus().join("tables");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 5, "{cases:?}");
    let mut failures = Vec::new();
    let work = tempfile::tempdir().unwrap();
    for case in &cases {
        let name = case.file_name().unwrap().to_str().unwrap();
        write_case(case, &work.path().join(name));
        let args = ["--tables", name, "check", "guilford"];
        check_case(
            work.path(),
            &args,
            &dir.join(format!("{name}.expected")),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A table case's edit: what to replace in the shipped file.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    from: String,
    to: String,
}

/// Write the table folder `case` into `into`: each `FILE.edit` as the
/// shipped `tables/FILE` with its edit made (its `from` must be there),
/// any other file as it is.
fn write_case(case: &Path, into: &Path) {
    std::fs::create_dir_all(into).unwrap();
    for entry in std::fs::read_dir(case).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        match name.strip_suffix(".edit") {
            Some(file) => {
                let edit: Edit =
                    serde_yaml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let shipped = std::fs::read_to_string(
                    Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("tables")
                        .join(file),
                )
                .unwrap();
                assert!(
                    shipped.contains(&edit.from),
                    "{}: `{}` is not in tables/{file}",
                    path.display(),
                    edit.from
                );
                std::fs::write(into.join(file), shipped.replacen(&edit.from, &edit.to, 1)).unwrap();
            }
            None => {
                std::fs::copy(&path, into.join(name)).unwrap();
            }
        }
    }
}

/// The size cap trusted the reported size (0 for a
/// device), so `foe check /dev/zero` read until memory ran out.
#[cfg(unix)]
#[test]
fn devices_are_refused_in_one_line() {
    foe(&["check", "/dev/zero"]).fails_with(
        1,
        "error: `/dev/zero` is a character device, not a regular file; foe reads only regular files",
    );
    foe(&["companion", "--army", "/dev/zero"]).fails_with(
        1,
        "error: `/dev/zero` is a character device, not a regular file; foe reads only regular files",
    );
}

/// A named pipe with no writer hung `foe check`.
#[cfg(unix)]
#[test]
fn named_pipes_are_refused_without_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("battle.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let started = Instant::now();
    let (status, printed, _) = run_in(dir.path(), &["check", "battle.yaml"]);
    assert_eq!(status, 1, "{printed}");
    assert!(
        printed.ends_with(
            "error: `battle.yaml` is a named pipe, not a regular file; foe reads only regular files\n"
        ),
        "{printed}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// `ruleset: ../../secret` with `--tables DIR` read
/// `DIR/rulesets/../../secret.yaml`, any YAML file on the machine.
#[test]
fn a_ruleset_named_by_a_path_is_refused_before_any_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("tables/rulesets")).unwrap();
    let ruleset = include_str!("../../tables/rulesets/ohw-awi.yaml").replacen(
        "name: ohw-awi",
        "name: ../../secret",
        1,
    );
    std::fs::write(dir.path().join("secret.yaml"), ruleset).unwrap();
    let scenario = std::fs::read_to_string(corpus().join("scenarios/ruleset-path.yaml")).unwrap();
    std::fs::write(dir.path().join("battle.yaml"), scenario).unwrap();
    let (status, printed, _) = run_in(dir.path(), &["--tables", "tables", "check", "battle.yaml"]);
    assert_eq!(status, 1, "{printed}");
    assert!(
        printed.contains("battle.yaml:4:1: rule set `../../secret` is not a name"),
        "{printed}"
    );
}

/// `foe --tables broken check guilford` said ok while
/// `play` and `simulate` refused the same tables.
#[test]
fn check_refuses_the_tables_play_refuses() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    write_case(
        &corpus().join("tables/huge-factor"),
        &dir.join("huge-factor"),
    );
    let (check_status, check_printed, _) =
        run_in(dir, &["--tables", "huge-factor", "check", "guilford"]);
    let (play_status, play_printed, _) = run_in(
        dir,
        &[
            "--tables",
            "huge-factor",
            "play",
            "guilford",
            "--side",
            "none",
            "--no-autosave",
        ],
    );
    assert_eq!(
        (check_status, play_status),
        (1, 1),
        "{check_printed}\n{play_printed}"
    );
    let message = "huge-factor/reaction.yaml:67:3: a factor 2147483647 is out of range; allowed -1000 to 1000";
    assert!(check_printed.contains(message), "{check_printed}");
    assert!(play_printed.contains(message), "{play_printed}");
}

/// `--casualties 2147483647` wrapped round to
/// `TOTAL +2147483643: Charge`.
#[test]
fn react_with_enormous_casualties_withdraws() {
    let args = [
        "react",
        "--class",
        "local-militia",
        "--terrain",
        "retreat",
        "--enemy-distance",
        "5",
        "--lost-melee",
        "--casualties",
        "2147483647",
        "--die",
        "1",
        "--odds",
    ];
    let run = foe(&args);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("TOTAL                                    -2147483648: Withdraw"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Withdraw             100.0%  (6/6)"),
        "{}",
        run.stdout
    );
    foe(&["react", "--class", "rangers", "--casualties", "4294967296"]).fails_with(
        1,
        "error: --casualties must be at most 4294967295 figures, not 4294967296",
    );
}

/// `move b1 forward 1e20` overflowed the count of the
/// move's steps in the engine (a panic in a debug build).
#[test]
fn an_enormous_move_is_refused_not_a_crash() {
    let input = "move b1 forward 1e20\nmove b1 back 1e300\nquit\n";
    let run = crate::support::foe_with_input(
        &[
            "play",
            "guilford",
            "--side",
            "british",
            "--seed",
            "1",
            "--no-autosave",
        ],
        input,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("refused: cannot move `Royal Artillery`: the ground at"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("refused: cannot move `Royal Artillery` off the table"),
        "{}",
        run.stdout
    );
}

/// Each problem's place was found by parsing the whole
/// file again; 2,000 units off the table took 31 s to report.
#[test]
fn two_thousand_problems_are_reported_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let many = std::fs::read_to_string(corpus().join("scenarios/many-problems.yaml")).unwrap();
    let (head, tail) = many.split_once("  - name: americans").unwrap();
    let mut text = head.to_string();
    for i in 300..2_000 {
        text.push_str(&format!(
            "      - {{ name: Foot {i}, troop_type: british-regulars, position: [{}, 4] }}\n",
            -100 - 10 * i
        ));
    }
    text.push_str("  - name: americans");
    text.push_str(tail);
    std::fs::write(dir.path().join("many.yaml"), text).unwrap();
    let (status, printed, elapsed) = run_in(dir.path(), &["check", "many.yaml"]);
    assert_eq!(status, 1, "{printed}");
    assert!(
        printed.ends_with("error: `many.yaml` has 2000 problems\n"),
        "{printed}"
    );
    assert!(printed.contains("many.yaml:2010:"), "{printed}");
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}
