//! `--tables DIR` reaches every file foe reads, under every engine: a
//! number changed in a player's copy of a rule set (the battlefield's
//! sections and each engine's own) or of the opponent's settings changes
//! the games of a small `simulate`, and anything in the folder that is not
//! a regular file is an error naming it, never a quiet return to the
//! built-in file.

use crate::support::foe;
use std::path::Path;

/// The shipped file `tables/<file>`, with `from` replaced by `to` (every
/// occurrence), written to `dir/<file>`.
fn edited_copy(dir: &Path, file: &str, from: &str, to: &str) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tables")
        .join(file);
    let text = std::fs::read_to_string(&shipped).unwrap();
    assert!(text.contains(from), "`{from}` is not in tables/{file}");
    let target = dir.join(file);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(target, text.replace(from, to)).unwrap();
}

/// A short study's report, less the seconds it took.
fn study(tables: Option<&Path>, scenario: &str) -> serde_json::Value {
    let mut args: Vec<&str> = Vec::new();
    let dir;
    if let Some(tables) = tables {
        dir = tables.display().to_string();
        args.extend(["--tables", &dir]);
    }
    args.extend([
        "simulate", scenario, "--games", "2", "--seed", "3", "--set", "turns=3", "--json",
    ]);
    let mut report = foe(&args).json();
    report["seconds"] = serde_json::Value::Null;
    report
}

/// The games of `scenario` differ with `file` edited under `--tables`.
#[track_caller]
fn an_edit_changes_the_games(scenario: &str, file: &str, from: &str, to: &str) {
    let dir = tempfile::tempdir().unwrap();
    let shipped = study(None, scenario);
    // The folder alone, with no files in it, changes nothing.
    assert_eq!(study(Some(dir.path()), scenario), shipped, "{scenario}");
    edited_copy(dir.path(), file, from, to);
    let edited = study(Some(dir.path()), scenario);
    assert_eq!(edited["aggregate"]["games"], 2);
    assert_ne!(
        edited["aggregate"], shipped["aggregate"],
        "{scenario}: {file} with `{to}` under --tables played the same games"
    );
}

#[test]
fn a_seed_000_rule_set_under_tables_changes_the_games() {
    an_edit_changes_the_games(
        "guilford",
        "rulesets/ohw-awi.yaml",
        "British regulars or Continentals, add: 1,",
        "British regulars or Continentals, add: 4,",
    );
}

#[test]
fn a_seed_001_rule_set_under_tables_changes_the_games() {
    // Every musket shot in range hits on a 1.
    an_edit_changes_the_games(
        "guilford-ruinous",
        "rulesets/ruinous-victory.yaml",
        "musket: [5, 6, none]",
        "musket: [1, 1, none]",
    );
}

#[test]
fn a_seed_002_rule_set_under_tables_changes_the_games() {
    an_edit_changes_the_games(
        "henry-hill",
        "rulesets/ohw-acw.yaml",
        "removed_at: 15 ",
        "removed_at: 3 ",
    );
}

/// One plan-rule file for every rule set: the opponent of seeds 001 and
/// 002 reads the player's `opponent.yaml` as seed 000's does.
#[test]
fn the_opponents_settings_under_tables_change_the_games() {
    for scenario in ["guilford", "guilford-ruinous", "henry-hill"] {
        an_edit_changes_the_games(scenario, "opponent.yaml", "on: true", "on: false");
    }
    an_edit_changes_the_games(
        "guilford-ruinous",
        "opponent.yaml",
        "rv_figures_per_base: 2",
        "rv_figures_per_base: 40",
    );
}

/// A file foe once read and reads no more is an error, not passed over:
/// the player meant foe to read their changes.
#[test]
fn the_retired_settings_file_under_tables_says_where_its_settings_went() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("opponent-other-rules.yaml"), "rules: {}\n").unwrap();
    let run = foe(&[
        "--tables",
        &dir.path().display().to_string(),
        "check",
        "guilford-ruinous",
    ]);
    let path = dir.path().join("opponent-other-rules.yaml");
    run.fails_with(
        1,
        &format!(
            "error: `{}`: foe no longer reads this file: its settings (rv_figures_per_base, turn_to_face_degrees, the plan rules) are in opponent.yaml now; move your changes there and remove it",
            path.display()
        ),
    );
}

/// `foe react --terrain WORD` reads the ground in the player's rule set.
#[test]
fn react_reads_the_ground_in_a_rule_set_under_tables() {
    let dir = tempfile::tempdir().unwrap();
    edited_copy(
        dir.path(),
        "rulesets/ohw-awi.yaml",
        "column: natural      # seed 004: woodland is natural cover",
        "column: hard",
    );
    let args = |tables: Option<&str>| {
        let mut args = Vec::new();
        if let Some(tables) = tables {
            args.extend(["--tables", tables]);
        }
        args.extend([
            "react",
            "--class",
            "rangers",
            "--terrain",
            "woods",
            "--die",
            "4",
        ]);
        foe(&args)
    };
    let shipped = args(None);
    assert!(
        shipped
            .stdout
            .contains("(woods: natural cover in the ohw-awi rule set)"),
        "{}",
        shipped.stdout
    );
    let path = dir.path().display().to_string();
    let edited = args(Some(&path));
    assert!(
        edited
            .stdout
            .contains("(woods: hard cover in the ohw-awi rule set)"),
        "{}{}",
        edited.stdout,
        edited.stderr
    );
}

/// `foe react --class` takes the built-in battles' troop types, read
/// through the rule set's `reaction_class` as the digital table reads
/// them, and says so; a typo gets the nearest name of either kind.
#[test]
fn react_takes_the_battles_troop_types_as_classes() {
    let continentals = foe(&["react", "--class", "continentals", "--die", "3"]);
    assert_eq!(continentals.status, 0, "{}", continentals.stderr);
    assert!(
        continentals.stdout.contains(
            "(continentals: a troop type of the ohw-awi rule set, which tests as british-regulars)"
        ),
        "{}",
        continentals.stdout
    );
    assert!(
        continentals
            .stdout
            .contains("British Regulars in open ground"),
        "{}",
        continentals.stdout
    );
    let militia = foe(&["react", "--class", "militia", "--die", "3"]);
    assert!(
        militia.stdout.contains("Local Militia in open ground"),
        "{}",
        militia.stdout
    );
    let zouaves = foe(&["react", "--class", "zouaves", "--die", "3"]);
    assert!(
        zouaves.stdout.contains("ohw-acw rule set"),
        "{}",
        zouaves.stdout
    );
    let typo = foe(&["react", "--class", "contnentals", "--die", "3"]);
    assert_ne!(typo.status, 0);
    assert!(
        typo.stderr
            .contains("unknown troop class `contnentals`; did you mean `continentals`?"),
        "{}",
        typo.stderr
    );
}

/// `foe melee` and `foe reinforce` say the seed they rolled with, as
/// `foe react` does, and the seed repeats the roll.
#[test]
fn melee_and_reinforce_say_the_seed_they_rolled_with() {
    for args in [
        &[
            "melee",
            "--troop",
            "rangers",
            "--figures",
            "8",
            "--seed",
            "4",
        ][..],
        &["reinforce", "--army", "british", "--seed", "4"][..],
    ] {
        let first = foe(args);
        assert_eq!(first.status, 0, "{}", first.stderr);
        assert!(
            first
                .stdout
                .contains("(rolled with seed 4; --seed 4 repeats it)"),
            "{}",
            first.stdout
        );
        assert_eq!(foe(args).stdout, first.stdout);
    }
    let forced = foe(&[
        "melee",
        "--troop",
        "rangers",
        "--figures",
        "8",
        "--die",
        "3",
    ]);
    assert!(
        !forced.stdout.contains("rolled with seed"),
        "{}",
        forced.stdout
    );
}

/// A broken settings file is refused before any game, with its place.
#[test]
fn a_broken_settings_file_under_tables_is_refused_where_it_breaks() {
    let dir = tempfile::tempdir().unwrap();
    edited_copy(
        dir.path(),
        "opponent.yaml",
        "rv_figures_per_base: 2",
        "rv_figures_per_bass: 4",
    );
    let run = foe(&[
        "--tables",
        &dir.path().display().to_string(),
        "check",
        "guilford",
    ]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(
        run.stderr.contains("opponent.yaml:") && run.stderr.contains("rv_figures_per_bass"),
        "{}",
        run.stderr
    );
}

/// `foe --tables DIR check SCENARIO` fails naming `DIR/<file>` as `what`.
#[track_caller]
fn refused(dir: &Path, scenario: &str, file: &str, what: &str) {
    let run = foe(&["--tables", &dir.display().to_string(), "check", scenario]);
    let path = dir.join(file);
    run.fails_with(1, &format!("error: `{}` {what}", path.display()));
}

#[test]
fn a_folder_in_place_of_a_table_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("reaction.yaml")).unwrap();
    refused(
        dir.path(),
        "guilford",
        "reaction.yaml",
        "is a folder, not a regular file; foe reads only regular files",
    );
    std::fs::create_dir_all(dir.path().join("rulesets/ohw-acw.yaml")).unwrap();
    std::fs::remove_dir(dir.path().join("reaction.yaml")).unwrap();
    refused(
        dir.path(),
        "henry-hill",
        "rulesets/ohw-acw.yaml",
        "is a folder, not a regular file; foe reads only regular files",
    );
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_to_nothing_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rulesets")).unwrap();
    let link = dir.path().join("rulesets/ruinous-victory.yaml");
    std::os::unix::fs::symlink(dir.path().join("gone.yaml"), &link).unwrap();
    refused(
        dir.path(),
        "guilford-ruinous",
        "rulesets/ruinous-victory.yaml",
        "is a symbolic link to nothing; remove it to read the built-in rulesets/ruinous-victory.yaml",
    );
    // A link to a real file is read as the file.
    std::fs::remove_file(&link).unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/rulesets/ruinous-victory.yaml"),
    )
    .unwrap();
    std::fs::write(dir.path().join("real.yaml"), text).unwrap();
    std::os::unix::fs::symlink(dir.path().join("real.yaml"), &link).unwrap();
    let run = foe(&[
        "--tables",
        &dir.path().display().to_string(),
        "check",
        "guilford-ruinous",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
}

/// A named pipe is refused from its metadata: foe never waits for a
/// writer that will not come.
#[cfg(target_os = "linux")]
#[test]
fn a_named_pipe_in_place_of_a_table_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("opponent.yaml"))
        .status()
        .unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    refused(
        dir.path(),
        "guilford",
        "opponent.yaml",
        "is a named pipe, not a regular file; foe reads only regular files",
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// `foe check` is not "ok" for a scenario whose rule set's engine sections
/// would not read under `--tables`: it sets the game up as `play` would,
/// under every engine, and names the file and line.
#[test]
fn check_refuses_a_broken_engine_section_under_tables() {
    for (scenario, file, from, to) in [
        (
            "guilford",
            "rulesets/ohw-awi.yaml",
            "  enemy_presence: 6 ",
            "  enemy_presence: -6 ",
        ),
        (
            "guilford-ruinous",
            "rulesets/ruinous-victory.yaml",
            "musket: [5, 6, none]",
            "musket: [9, 6, none]",
        ),
        (
            "henry-hill",
            "rulesets/ohw-acw.yaml",
            "removed_at: 15 ",
            "removed_at: -15 ",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        edited_copy(dir.path(), file, from, to);
        let run = foe(&[
            "--tables",
            &dir.path().display().to_string(),
            "check",
            scenario,
        ]);
        assert_eq!(run.status, 1, "{scenario}: {}", run.stdout);
        // The line the edit is on, as the shipped file numbers it.
        let shipped = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tables")
                .join(file),
        )
        .unwrap();
        let line = 1 + shipped[..shipped.find(from).unwrap()].matches('\n').count();
        let wanted = format!("{}:{line}:", dir.path().join(file).display());
        assert!(run.stderr.contains(&wanted), "{scenario}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{scenario}: {}", run.stderr);
    }
}
