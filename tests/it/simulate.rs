//! `foe simulate`: determinism across jobs, `--set` and `--sweep` doing what
//! they say, shards merging into the whole, every scenario running, and
//! `--replay` agreeing with `foe play --side none`.

use crate::support::foe;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let mut all = vec!["simulate"];
    all.extend_from_slice(args);
    all.push("--json");
    foe(&all).json()
}

/// The report without the seconds taken, which differ run to run.
fn timeless(mut report: Value) -> Value {
    report["seconds"] = Value::Null;
    report
}

#[test]
fn results_are_identical_whatever_the_jobs() {
    let one = json(&["guilford", "--games", "16", "--jobs", "1"]);
    let two = json(&["guilford", "--games", "16", "--jobs", "2"]);
    assert_eq!(timeless(one.clone()), timeless(two));
    assert_eq!(one["aggregate"]["games"], 16);
    assert_eq!(one["aggregate"]["ranges"], serde_json::json!([[0, 16]]));
}

/// `--shard I/N` runs as separate processes (as a job array's tasks
/// would) merge into exactly the unsharded run; nonsense shards are refused
/// in one line.
#[test]
fn shards_run_as_separate_processes_merge_into_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<_> = (1..=3)
        .map(|i| dir.path().join(format!("shard{i}.json")))
        .collect();
    let children: Vec<_> = (1..=3)
        .map(|i| {
            std::process::Command::new(env!("CARGO_BIN_EXE_foe"))
                .args(["simulate", "learning", "--games", "11", "--jobs", "1"])
                .args(["--shard", &format!("{i}/3"), "--json"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (child, path) in children.into_iter().zip(&paths) {
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::write(path, output.stdout).unwrap();
    }
    let mut args = vec!["simulate", "--merge"];
    args.extend(paths.iter().rev().map(|path| path.to_str().unwrap()));
    args.push("--json");
    let merged = foe(&args).json();
    let whole = json(&["learning", "--games", "11"]);
    assert_eq!(merged["aggregate"], whole["aggregate"]);
    assert_eq!(merged["aggregate"]["ranges"], serde_json::json!([[0, 11]]));

    for (shard, says) in [
        ("0/0", "expected I/N"),
        ("5/3", "expected I/N"),
        ("1/99999999999999999999", "expected I/N"),
        ("1/12", "12 shards of 11 games"),
    ] {
        let refused = foe(&["simulate", "learning", "--games", "11", "--shard", shard]);
        assert_eq!(refused.status, 1, "{shard}");
        assert!(refused.stderr.contains(says), "{shard}: {}", refused.stderr);
        assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
    }
}

#[test]
fn merged_shards_equal_one_run_over_both_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.json");
    let second = dir.path().join("second.json");
    let shard = |path: &std::path::Path, from: &str| {
        let run = foe(&[
            "simulate",
            "learning",
            "--games",
            "10",
            "--first-game",
            from,
            "--json",
        ]);
        assert_eq!(run.status, 0, "{}", run.stderr);
        std::fs::write(path, run.stdout).unwrap();
    };
    shard(&first, "0");
    shard(&second, "10");
    let merged = foe(&[
        "simulate",
        "--merge",
        first.to_str().unwrap(),
        "--merge",
        second.to_str().unwrap(),
        "--json",
    ])
    .json();
    let whole = json(&["learning", "--games", "20"]);
    assert_eq!(merged["aggregate"], whole["aggregate"]);

    // The same shard twice, another seed, or other parameters: refused in a line.
    let twice = foe(&[
        "simulate",
        "--merge",
        first.to_str().unwrap(),
        first.to_str().unwrap(),
    ]);
    assert_eq!(twice.status, 1);
    assert!(
        twice.stderr.contains("both runs played games 0..10"),
        "{}",
        twice.stderr
    );
    assert_eq!(twice.stderr.lines().count(), 1);
    let other = dir.path().join("other.json");
    let run = foe(&[
        "simulate",
        "learning",
        "--games",
        "3",
        "--first-game",
        "50",
        "--set",
        "turns=5",
        "--json",
    ]);
    std::fs::write(&other, run.stdout).unwrap();
    let refused = foe(&[
        "simulate",
        "--merge",
        first.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(
        refused
            .stderr
            .contains("runs with different --set: none and turns=5"),
        "{}",
        refused.stderr
    );
}

#[test]
fn win_rates_carry_their_wilson_interval() {
    // One turn: the two units are too far apart to fight, so every game is
    // a draw (a full game can be won: routers count as lost).
    let out = foe(&["simulate", "learning", "--games", "10", "--set", "turns=1"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    // No wins in 10 games: Wilson 95% upper bound 27.8%; all draws: 72.2-100.
    assert!(out.stdout.contains("0.0%  0.0-27.8%"), "{}", out.stdout);
    assert!(out.stdout.contains("draws"), "{}", out.stdout);
}

#[test]
fn set_turns_ends_every_game_by_that_turn() {
    let report = json(&["guilford", "--games", "8", "--set", "turns=3"]);
    let turns = report["aggregate"]["turns"].as_object().unwrap();
    assert!(turns.keys().all(|turns| turns.parse::<u32>().unwrap() <= 3));
    assert_eq!(report["sets"], serde_json::json!(["turns=3"]));
}

#[test]
fn set_refuses_unknown_keys_in_one_line_and_validates_values() {
    foe(&[
        "simulate",
        "--set",
        "sides.british.generals.Cornwalis.rallies=9",
    ])
    .fails_with(
        1,
        "error: --set: no item `Cornwalis` in `sides.british.generals`; did you mean `Cornwallis`?",
    );
    foe(&["simulate", "--set", "turns.x=9"]).fails_with(
        1,
        "error: --set: `turns` is a single value: it has no `x` inside it",
    );
    let invalid = foe(&[
        "simulate",
        "--set",
        "sides.americans.units.1st Maryland.troop_type=militiaa",
    ]);
    assert_eq!(invalid.status, 1);
    assert!(
        invalid.stderr.contains(
            "(after --set):236:5: unknown troop type `militiaa`; did you mean `militia`?"
        ),
        "{}",
        invalid.stderr
    );
}

#[test]
fn sweep_runs_each_value_and_draws_the_curve() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("turns.svg");
    let out = foe(&[
        "simulate",
        "guilford",
        "--games",
        "4",
        "--sweep",
        "turns=2..6:2",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .filter(|line| line.trim_start().starts_with(char::is_numeric))
        .collect();
    assert_eq!(rows.len(), 3, "{}", out.stdout);
    for (row, value) in rows.iter().zip(["2", "4", "6"]) {
        assert!(row.trim_start().starts_with(&format!("{value} ")), "{row}");
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert_eq!(picture.matches("<polyline").count(), 2);
}

/// More British rallies must never lower the British win rate beyond noise.
/// With the stand-in opponent every game is a draw and this holds trivially;
/// with the Lone Warrior opponent it is a real check, kept small: 60 games
/// at 0 and at 16 rallies, allowing three standard errors of noise.
#[test]
fn more_british_rallies_never_lower_the_british_win_rate() {
    let rate = |rallies: &str| {
        let set = format!("sides.british.generals.Cornwallis.rallies={rallies}");
        let report = json(&["guilford", "--games", "60", "--set", &set]);
        let games = report["aggregate"]["games"].as_f64().unwrap();
        report["aggregate"]["wins"][0].as_f64().unwrap_or(0.0) / games
    };
    let (few, many) = (rate("0"), rate("16"));
    let noise = 3.0 * (0.25_f64 / 60.0).sqrt() * 2f64.sqrt();
    assert!(many + noise >= few, "0 rallies {few}, 16 rallies {many}");
}

#[test]
fn every_shipped_scenario_runs_without_a_panic() {
    // Whole games of the big scenarios are slow in a debug build; a few
    // turns of each run every part of the pipeline (the opponent's own tests
    // play them to the end).
    for (scenario, games, turns) in [
        ("guilford", "3", "turns=4"),
        ("guilford-rv", "2", "turns=2"),
        ("learning", "3", "turns=12"),
        ("monongahela", "2", "turns=3"),
        ("stress", "1", "turns=1"),
    ] {
        let out = foe(&[
            "simulate", scenario, "--games", games, "--jobs", "2", "--set", turns,
        ]);
        assert_eq!(out.status, 0, "{scenario}: {}", out.stderr);
        assert!(
            out.stdout.contains(&format!(": {games} game")),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn replay_agrees_with_foe_play_watching() {
    let replay = foe(&["simulate", "guilford", "--replay", "5"]);
    assert_eq!(replay.status, 0, "{}", replay.stderr);
    let (first, log) = replay.stdout.split_once("\n\n").expect("a header");
    let seed = first
        .split("--seed ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the seed in the command");
    let seed_value: u64 = seed.parse().unwrap();
    assert_eq!(seed_value, foe::stats::game_seed(1781, 5));
    assert!(first.ends_with(&format!(
        "foe play guilford --seed {seed} --side none --no-pause"
    )));
    let played = foe(&[
        "play",
        "guilford",
        "--seed",
        seed,
        "--side",
        "none",
        "--no-pause",
        "--no-autosave",
    ]);
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played.stdout.ends_with(log),
        "--- replay ---\n{log}\n--- play ---\n{}",
        played.stdout
    );
}

#[test]
fn csv_has_a_line_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    let out = foe(&[
        "simulate",
        "learning",
        "--games",
        "5",
        "--first-game",
        "7",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(lines[0].starts_with("game,seed,winner,condition,turns,british_units_lost"));
    assert!(lines[1].starts_with(&format!("7,{},", foe::stats::game_seed(1781, 7))));
}

#[test]
fn balance_reports_the_value_nearest_an_even_game() {
    let out = foe(&[
        "simulate",
        "learning",
        "--games",
        "3",
        "--balance",
        "turns=1..3",
        "--side",
        "french",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("for french wins nearest 50%"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Nearest an even game: turns="),
        "{}",
        out.stdout
    );
}

#[test]
fn a_baseline_side_gives_identical_results_whatever_the_jobs() {
    let args = ["learning", "--games", "12", "--baseline", "french"];
    let one = json(&[&args[..], &["--jobs", "1"]].concat());
    let two = json(&[&args[..], &["--jobs", "2"]].concat());
    assert_eq!(timeless(one.clone()), timeless(two));
    assert_eq!(
        one["labels"]["controllers"],
        serde_json::json!(["foe", "baseline"])
    );
    // Another controller is another study: not the same games.
    let foe_only = json(&["learning", "--games", "12", "--jobs", "1"]);
    assert_ne!(one["aggregate"], foe_only["aggregate"]);
}

#[test]
fn the_summary_names_who_commanded_each_side() {
    let out = foe(&[
        "simulate",
        "guilford",
        "--games",
        "2",
        "--set",
        "turns=2",
        "--baseline",
        "brit",
        "--baseline",
        "americans",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("commanded by: british baseline (scripted), americans baseline (scripted)"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("charges in contact"), "{}", out.stdout);
    let out = foe(&["simulate", "guilford", "--games", "1", "--set", "turns=1"]);
    assert!(
        out.stdout
            .contains("commanded by: british foe (Lone Warrior), americans foe (Lone Warrior)"),
        "{}",
        out.stdout
    );
    foe(&["simulate", "guilford", "--baseline", "prussians"]).fails_with(
        1,
        "error: unknown side `prussians`; expected one of: british, americans",
    );
}

#[test]
fn shards_with_other_commanders_do_not_merge() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |name: &str, extra: &[&str]| {
        let path = dir.path().join(name);
        let mut args = vec!["simulate", "learning", "--games", "3", "--json"];
        args.extend_from_slice(extra);
        let run = foe(&args);
        assert_eq!(run.status, 0, "{}", run.stderr);
        std::fs::write(&path, run.stdout).unwrap();
        path
    };
    let first = shard("first.json", &[]);
    let second = shard(
        "second.json",
        &["--first-game", "3", "--baseline", "french"],
    );
    let merged = foe(&[
        "simulate",
        "--merge",
        first.to_str().unwrap(),
        second.to_str().unwrap(),
    ]);
    assert_eq!(merged.status, 1);
    assert!(
        merged
            .stderr
            .contains("different commanders: foe/foe and foe/baseline"),
        "{}",
        merged.stderr
    );
}

#[test]
fn replay_of_a_baseline_game_agrees_with_foe_play() {
    let replay = foe(&[
        "simulate",
        "guilford",
        "--replay",
        "3",
        "--baseline",
        "british",
    ]);
    assert_eq!(replay.status, 0, "{}", replay.stderr);
    let (first, log) = replay.stdout.split_once("\n\n").expect("a header");
    let seed = foe::stats::game_seed(1781, 3).to_string();
    assert!(
        first.ends_with(&format!(
            "foe play guilford --seed {seed} --side none --baseline british --no-pause"
        )),
        "{first}"
    );
    assert!(log.contains("== british (baseline) =="), "{log}");
    let played = foe(&[
        "play",
        "guilford",
        "--seed",
        &seed,
        "--side",
        "none",
        "--baseline",
        "british",
        "--no-pause",
        "--no-autosave",
    ]);
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(played.stdout.contains(
        "The baseline (scripted, not Lone Warrior; rulings HO20-HO26) commands the british."
    ));
    assert!(
        played.stdout.ends_with(log),
        "--- replay ---\n{log}\n--- play ---\n{}",
        played.stdout
    );
    // The player's own side cannot be given to the baseline.
    foe(&["play", "guilford", "--side", "british", "--baseline", "british"])
        .fails_with(
            1,
            "error: --baseline `british`: you command that side; the baseline commands a side you do not",
        );
}

#[test]
fn bench_measures_the_named_scenario_and_refuses_flags_it_does_not_use() {
    // The scenario named, with its --set, not always Guilford.
    let run = foe(&["simulate", "learning", "--bench", "--set", "turns=2"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    for wanted in [
        "foe simulate --bench: whole games per second on one core",
        "learning, opponent on both sides",
        "learning, random legal play",
        "learning/random-play",
        "learning time by stage",
    ] {
        assert!(run.stdout.contains(wanted), "{wanted}:\n{}", run.stdout);
    }
    assert!(!run.stdout.contains("guilford"), "{}", run.stdout);
    // Flags a benchmark would silently ignore are refused in one line.
    for flag in [
        ["--baseline", "british"],
        ["--games", "10"],
        ["--jobs", "1"],
        ["--csv", "x.csv"],
    ] {
        let run = foe(&["simulate", "learning", "--bench", flag[0], flag[1]]);
        assert_eq!(run.status, 2, "{flag:?}: {}", run.stdout);
        assert!(
            run.stderr.contains("cannot be used with"),
            "{flag:?}: {}",
            run.stderr
        );
    }
}
