//! Hostile files, generated here at their worst sizes, fed to every reader
//! foe has: `check`, `play`, `simulate`, `map`, `route`, `--tables`,
//! `--army`, the companion's `army FILE`, play's `load FILE`, `--resume`
//! of a save whose scenario text is hostile, and `simulate --merge`.
//!
//! Each must be refused with an ordinary error (status 1 or 2, one line
//! on stderr; inside a REPL, one line and the session goes on), never an
//! abort, a panic or a hang. The sizes are the worst the limits allow, so
//! the limits are what keeps each refusal immediate: no clock is read here.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// A hostile file and what it is.
struct Case {
    name: &'static str,
    text: String,
}

fn learning() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/learning.yaml"))
        .unwrap()
}

/// The YAML corpus: nesting, breadth, aliases, long lines and names,
/// control characters, and a megabyte of brackets.
fn yaml_cases() -> Vec<Case> {
    let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
    for (name, of) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        bomb.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{of}"); 9].join(",")
        ));
    }
    let long_name = learning().replacen(
        "name: 44th Foot",
        &format!("name: {}", "F".repeat(70_000)),
        1,
    );
    let newline_name =
        learning().replacen("name: 44th Foot", "name: \"44th\\n== turn 99: fake ==\"", 1);
    let escape_name = learning().replacen("name: 44th Foot", "name: \"44th\\e[2J\"", 1);
    let long_side = learning().replace("british", &"b".repeat(66_000));
    vec![
        Case {
            name: "deep-block",
            text: format!("{}x\n", "- ".repeat(40_000)),
        },
        Case {
            name: "deep-block-stairs",
            text: (0..700)
                .map(|level| format!("{}k:\n", " ".repeat(level)))
                .collect(),
        },
        Case {
            name: "deep-flow",
            text: "[".repeat(250_000),
        },
        Case {
            name: "deep-map",
            text: "{a: ".repeat(60_000),
        },
        Case {
            name: "wide-flow",
            text: format!("[{}1]", "1,".repeat(120_000)),
        },
        Case {
            name: "alias-bomb",
            text: bomb,
        },
        Case {
            name: "long-line",
            text: format!("name: {}\n", "x".repeat(250_000)),
        },
        Case {
            name: "long-name",
            text: long_name,
        },
        Case {
            name: "long-side",
            text: long_side,
        },
        Case {
            name: "newline-name",
            text: newline_name,
        },
        Case {
            name: "escape-name",
            text: escape_name,
        },
        Case {
            name: "megabyte-of-brackets",
            text: "[".repeat(1 << 20),
        },
        Case {
            name: "megabyte-of-maps",
            text: "{a:".repeat((1 << 20) / 3),
        },
    ]
}

/// JSON for the save and report readers: deep, wide, keys twice.
fn json_cases() -> Vec<Case> {
    vec![
        Case {
            name: "deep-json",
            text: "[".repeat((1 << 20) - 1),
        },
        Case {
            name: "deep-object",
            text: "{\"a\":".repeat(200_000),
        },
        Case {
            name: "wide-json",
            text: format!("[{}1]", "1,".repeat(400_000)),
        },
        Case {
            name: "keys-twice",
            text: "{\"version\": 1, \"version\": 2}".into(),
        },
    ]
}

/// Special files: a named pipe, a folder, a device, a dangling link.
#[cfg(unix)]
fn special_files(dir: &Path) -> Vec<PathBuf> {
    let fifo = dir.join("pipe.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let folder = dir.join("folder.yaml");
    std::fs::create_dir(&folder).unwrap();
    let dangling = dir.join("dangling.yaml");
    std::os::unix::fs::symlink(dir.join("nowhere.yaml"), &dangling).unwrap();
    vec![fifo, folder, PathBuf::from("/dev/zero"), dangling]
}

/// Run foe in `dir` with `input`: (status, stdout, stderr).
fn run(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let output = Command::cargo_bin("foe")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .env_remove("FOE_TABLES")
        .env("FOE_DATA_DIR", dir.join("data"))
        .env("NO_COLOR", "1")
        .write_stdin(input)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A refusal at the command line: an error status and one printable line.
fn refused(dir: &Path, what: &str, args: &[&str], failures: &mut Vec<String>) {
    let (status, stdout, stderr) = run(dir, args, "quit\n");
    let shown = format!(
        "{what}: foe {}",
        args.join(" ").chars().take(120).collect::<String>()
    );
    let error_lines = stderr
        .lines()
        .filter(|line| line.starts_with("error:"))
        .count();
    if !(status == 1 || status == 2) || stderr.contains("panicked") {
        failures.push(format!("{shown}: status {status}\n{}", tail(&stderr)));
    } else if stderr.lines().count() != 1 || error_lines != 1 {
        failures.push(format!(
            "{shown}: stderr is not one error line:\n{}",
            tail(&stderr)
        ));
    } else if stderr.contains('\u{1b}') || stdout.contains('\u{1b}') {
        failures.push(format!("{shown}: an escape character reached the terminal"));
    }
}

/// A refusal inside a REPL: the session says so and goes on to `quit`.
fn refused_inside(
    dir: &Path,
    what: &str,
    args: &[&str],
    command: &str,
    failures: &mut Vec<String>,
) {
    let (status, stdout, stderr) = run(dir, args, &format!("{command}\nquit\n"));
    let shown = format!("{what}: `{command}` in foe {}", args.join(" "));
    if status != 0 || !stderr.is_empty() {
        failures.push(format!("{shown}: status {status}\n{}", tail(&stderr)));
    } else if stdout.contains('\u{1b}') {
        failures.push(format!("{shown}: an escape character reached the terminal"));
    }
}

fn tail(text: &str) -> String {
    text.chars()
        .rev()
        .take(400)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

/// Every YAML reader given `file` (a path relative to `dir`).
fn every_yaml_reader(dir: &Path, what: &str, file: &str, failures: &mut Vec<String>) {
    refused(dir, what, &["check", file], failures);
    refused(
        dir,
        what,
        &[
            "play",
            file,
            "--side",
            "none",
            "--no-autosave",
            "--no-pause",
        ],
        failures,
    );
    refused(dir, what, &["simulate", file, "--games", "1"], failures);
    let set = ["simulate", file, "--games", "1", "--set", "turns=2"];
    refused(dir, what, &set, failures);
    refused(dir, what, &["map", file], failures);
    refused(
        dir,
        what,
        &["route", file, "--unit", "Rangers", "--to", "10,10"],
        failures,
    );
    refused(dir, what, &["companion", "--army", file], failures);
    refused_inside(
        dir,
        what,
        &["companion", "--seed", "1", "--autosave", "c.json"],
        &format!("army {file}"),
        failures,
    );
}

#[test]
fn hostile_yaml_is_refused_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for case in yaml_cases() {
        let file = format!("{}.yaml", case.name);
        std::fs::write(dir.path().join(&file), &case.text).unwrap();
        every_yaml_reader(dir.path(), case.name, &file, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn hostile_tables_are_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for case in yaml_cases() {
        let tables = dir.path().join(case.name);
        std::fs::create_dir(&tables).unwrap();
        std::fs::write(tables.join("reaction.yaml"), &case.text).unwrap();
        for command in [
            &["check", "guilford"][..],
            &["simulate", "learning", "--games", "1"],
            &["companion", "--army", "french"],
        ] {
            let mut args = vec!["--tables", case.name];
            args.extend_from_slice(command);
            refused(dir.path(), case.name, &args, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A save of the learning scenario whose scenario text is `text`.
fn save_with_scenario(text: &str) -> String {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/data/malformed/saves/play/unknown-action.json");
    let mut save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(corpus).unwrap()).unwrap();
    save["scenario"]["text"] = serde_json::Value::String(text.to_string());
    save["actions"] = serde_json::json!([]);
    serde_json::to_string_pretty(&save).unwrap()
}

/// Every save and report reader given each of `files` (name, text). A
/// play save is read (and its scenario parsed) only by `play`: with
/// `plays_only`, the other readers are left out.
fn every_json_reader(
    dir: &Path,
    files: &[(String, String)],
    plays_only: bool,
    failures: &mut Vec<String>,
) {
    for (name, text) in files {
        let file = format!("{name}.json");
        std::fs::write(dir.join(&file), text).unwrap();
        refused(
            dir,
            name,
            &["play", "--resume", &file, "--no-pause"],
            failures,
        );
        if !plays_only {
            refused(dir, name, &["companion", "--resume", &file], failures);
            refused(dir, name, &["simulate", "--merge", &file], failures);
        }
        refused_inside(
            dir,
            name,
            &["play", "learning", "--seed", "1", "--no-autosave"],
            &format!("load {file}"),
            failures,
        );
    }
}

#[test]
fn hostile_json_is_refused_by_every_save_and_report_reader() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let files: Vec<(String, String)> = json_cases()
        .into_iter()
        .map(|case| (case.name.to_string(), case.text))
        .collect();
    every_json_reader(dir.path(), &files, false, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Saves whose own text is fine but whose scenario is hostile.
#[test]
fn saves_of_hostile_scenarios_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    // The scenario text is read by the same reader as a scenario file:
    // the cases of each kind of limit, not all of them again.
    let kinds = [
        "deep-block",
        "deep-flow",
        "wide-flow",
        "long-line",
        "long-name",
        "newline-name",
    ];
    let files: Vec<(String, String)> = yaml_cases()
        .into_iter()
        .filter(|case| kinds.contains(&case.name))
        .map(|case| {
            (
                format!("save-of-{}", case.name),
                save_with_scenario(&case.text),
            )
        })
        .filter(|(_, save)| save.len() < 1 << 20)
        .collect();
    assert_eq!(files.len(), kinds.len());
    every_json_reader(dir.path(), &files, true, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for path in special_files(dir.path()) {
        let file = path.to_str().unwrap();
        every_yaml_reader(dir.path(), file, file, &mut failures);
        refused(
            dir.path(),
            file,
            &["play", "--resume", file, "--no-pause"],
            &mut failures,
        );
        refused(
            dir.path(),
            file,
            &["simulate", "--merge", file],
            &mut failures,
        );
        refused_inside(
            dir.path(),
            file,
            &["play", "learning", "--seed", "1", "--no-autosave"],
            &format!("load {file}"),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Names from `--set` and labels in a `--merge` report: refused, and a
/// long one must not panic the report's columns.
#[test]
fn long_and_unprintable_names_from_the_command_line_and_reports_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let long = format!("sides.british.units.44th Foot.name={}", "N".repeat(70_000));
    // A value is read as YAML: one nested 60,000 deep is taken as a word.
    let deep = format!("title={}", "[".repeat(60_000));
    for set in [&long, &deep] {
        let args = ["simulate", "learning", "--games", "1", "--set", set];
        refused(dir.path(), "--set", &args, &mut failures);
    }
    let (status, stdout, stderr) = run(
        dir.path(),
        &["simulate", "learning", "--games", "2", "--json"],
        "",
    );
    assert_eq!(status, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 6] = [
        ("long side", |r| {
            r["labels"]["sides"][0] = "s".repeat(70_000).into()
        }),
        ("escape in a side", |r| {
            r["labels"]["sides"][0] = "\u{1b}[2J".into()
        }),
        ("wins above games", |r| {
            r["aggregate"]["wins"][0] = 1_012.into()
        }),
        ("backwards range", |r| {
            r["aggregate"]["ranges"] = serde_json::json!([[5, 3]])
        }),
        ("wrong length", |r| {
            r["aggregate"]["routed"] = serde_json::json!(vec![0; 50])
        }),
        ("games not in ranges", |r| {
            r["aggregate"]["games"] = 200.into()
        }),
    ];
    for (what, edit) in &edits {
        let mut bad = report.clone();
        edit(&mut bad);
        std::fs::write(dir.path().join("bad.json"), bad.to_string()).unwrap();
        refused(
            dir.path(),
            what,
            &["simulate", "--merge", "bad.json"],
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Counts no run should be asked for are refused before any work, each in
/// one line naming its limit; a range is counted, not built.
#[test]
fn edge_options_are_refused_naming_their_limit() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (
            &["--games", "10000000000"],
            "--games must be at most 10000000",
        ),
        (&["--jobs", "100000"], "--jobs must be at most 256 threads"),
        (
            &["--first-game", "18446744073709551615"],
            "--first-game must be at most",
        ),
        (
            &["--replay", "281474976710656"],
            "--replay must be at most 281474976710655",
        ),
        (
            &["--games", "2000000", "--csv", "g.csv"],
            "--games must be at most 1000000 with --csv",
        ),
        (
            &["--games", "1000000", "--shard", "1/1000000"],
            "at most 100000 shards",
        ),
        (
            &["--sweep", "turns=1..1000000000"],
            "has more than 1000 values",
        ),
        (
            &["--balance", "turns=1..1000000000"],
            "has more than 1000 values",
        ),
        (
            &["--games", "1000000", "--sweep", "turns=1..200"],
            "a sweep plays at most 100000000",
        ),
    ];
    for (options, expected) in cases {
        let mut args = vec!["simulate", "learning"];
        args.extend_from_slice(options);
        let (status, _, stderr) = run(dir.path(), &args, "");
        assert_eq!(status, 1, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    let merges: Vec<String> = (0..1_001).map(|i| format!("r{i}.json")).collect();
    let mut args = vec!["simulate"];
    for merge in &merges {
        args.extend(["--merge", merge.as_str()]);
    }
    let (status, _, stderr) = run(dir.path(), &args, "");
    assert_eq!(status, 1, "{stderr}");
    assert!(
        stderr.contains("--merge reads at most 1000 reports, not 1001"),
        "{stderr}"
    );
}

/// The companion's `general NAME` takes one printable line: an escape
/// sequence typed at the prompt is refused and never echoed raw.
#[test]
fn a_general_named_with_an_escape_sequence_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (status, stdout, stderr) = run(
        dir.path(),
        &["companion", "--seed", "1", "--no-autosave"],
        "general rash Colonel \u{1b}[2JX\nstatus\nquit\n",
    );
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stdout.contains("holds the character U+001B; a name is one line of printable characters"),
        "{stdout}"
    );
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
}
