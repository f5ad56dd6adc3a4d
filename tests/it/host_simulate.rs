//! `foe simulate` on the seed-001 and seed-002 scenarios (`guilford-ruinous`,
//! `henry-hill`) with every flag seed 000's has: the same report, `--json`
//! and `--csv` (seed 001 adding its victory margin), `--jobs` and shards
//! giving the same sums, `--set`/`--sweep`/`--balance` on the keys these
//! rules read, `--baseline`, `--replay`, `--bench`. Games are short (`--set
//! turns=2`) and few: foe's opponent for these rules is being changed, so
//! no test pins what it does in a game, only what the flags do.

use crate::support::foe;
use serde_json::Value;

const SEED_001: &str = "guilford-ruinous";
const SEED_002: &str = "henry-hill";

fn simulate(args: &[&str]) -> crate::support::Run {
    let mut all = vec!["simulate"];
    all.extend_from_slice(args);
    foe(&all)
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    simulate(&all).json()
}

/// The report without the seconds taken, which differ run to run.
fn timeless(mut report: Value) -> Value {
    report["seconds"] = Value::Null;
    report
}

/// Short games, for speed.
const SHORT: [&str; 2] = ["--set", "turns=2"];

#[test]
fn host_studies_are_the_same_whatever_the_jobs_and_shards_merge_into_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    for scenario in [SEED_001, SEED_002] {
        let run = |extra: &[&str]| {
            let mut args = vec![scenario, "--games", "3"];
            args.extend_from_slice(&SHORT);
            args.extend_from_slice(extra);
            json(&args)
        };
        let one = run(&["--jobs", "1"]);
        let two = run(&["--jobs", "2"]);
        assert_eq!(timeless(one.clone()), timeless(two), "{scenario}");
        assert_eq!(one["aggregate"]["games"], 3, "{scenario}");
        assert_eq!(one["aggregate"]["ranges"], serde_json::json!([[0, 3]]));
        assert_eq!(one["sets"], serde_json::json!(["turns=2"]));
        // Seed 001's margin is summed; seed 002 has none to sum.
        let margins = &one["aggregate"]["margins"];
        if scenario == SEED_001 {
            assert_eq!(margins["games"], 3, "{one}");
        } else {
            assert!(margins.is_null(), "{margins}");
        }
        // Shards 1/2 and 2/2 (by --shard, and the second again by
        // --first-game) merge into the whole.
        let shard_one = dir.path().join(format!("{scenario}-1.json"));
        let shard_two = dir.path().join(format!("{scenario}-2.json"));
        std::fs::write(
            &shard_one,
            run(&["--jobs", "1", "--shard", "1/2"]).to_string(),
        )
        .unwrap();
        let second = run(&["--jobs", "1", "--shard", "2/2"]);
        let by_first_game = {
            let mut args = vec![scenario, "--games", "2", "--first-game", "1"];
            args.extend_from_slice(&SHORT);
            json(&args)
        };
        assert_eq!(
            second["aggregate"], by_first_game["aggregate"],
            "{scenario}"
        );
        std::fs::write(&shard_two, second.to_string()).unwrap();
        let merged = json(&[
            "--merge",
            shard_two.to_str().unwrap(),
            shard_one.to_str().unwrap(),
        ]);
        assert_eq!(merged["aggregate"], one["aggregate"], "{scenario}");
        // The merged report prints as a run does, margin and all.
        let printed = simulate(&[
            "--merge",
            shard_one.to_str().unwrap(),
            shard_two.to_str().unwrap(),
        ]);
        assert_eq!(printed.status, 0, "{}", printed.stderr);
        assert!(printed.stdout.contains(": 3 games"), "{}", printed.stdout);
        assert_eq!(
            printed.stdout.contains("Victory margin (house rule RV10"),
            scenario == SEED_001,
            "{}",
            printed.stdout
        );
        // A shard over games already merged is refused.
        let again = simulate(&[
            "--merge",
            shard_one.to_str().unwrap(),
            shard_one.to_str().unwrap(),
        ]);
        assert_eq!(again.status, 1);
        assert!(again.stderr.contains("shards must cover different games"));
    }
}

#[test]
fn a_host_report_has_seed_000s_shape_and_seed_001_its_margin() {
    let mut args = vec![SEED_001, "--games", "2", "--jobs", "1"];
    args.extend_from_slice(&SHORT);
    let run = simulate(&args);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = &run.stdout;
    for wanted in [
        "A Ruinous Victory - Guilford Courthouse, 1781 (seed-001 rules): 2 games",
        "seed 1781, games 0..2, --set turns=2",
        "commanded by: british foe (Lone Warrior), americans foe (Lone Warrior)",
        "95% interval",
        "british wins",
        "Turns played: mean 2.0, median 2",
        "Per game      units lost  hits taken  charges in contact",
        "Units lost (% of games)",
        "What decided the game (% of games)",
        "americans win: time is up with the defenders still on the field",
        "Orders given (per game)",
        "Victory margin (house rule RV10: the defender's losses less the attacker's, % of bases)",
    ] {
        assert!(out.contains(wanted), "{wanted}:\n{out}");
    }
    let mut args = vec![SEED_002, "--games", "2", "--jobs", "1"];
    args.extend_from_slice(&SHORT);
    let run = simulate(&args);
    assert_eq!(run.status, 0, "{}", run.stderr);
    for wanted in [
        "Henry House Hill, First Bull Run, 21 July 1861: 2 games",
        "union win: the union hold the Henry House plateau at the end",
        "confederates win: rout more than 50% of the union units",
        "Orders given (per game)",
    ] {
        assert!(run.stdout.contains(wanted), "{wanted}:\n{}", run.stdout);
    }
    assert!(!run.stdout.contains("Victory margin"), "{}", run.stdout);
    // "confederates" is longer than the side column's 10 characters: the
    // column widens, so each row's numbers end under their heading.
    let lines: Vec<&str> = run.stdout.lines().collect();
    let heading = lines
        .iter()
        .position(|line| line.starts_with("Per game"))
        .expect("the per-game table");
    let end_of = |line: &str, word: &str| line.find(word).map(|at| at + word.len());
    let units_lost = end_of(lines[heading], "units lost").unwrap();
    for row in &lines[heading + 1..heading + 3] {
        let number_end = row
            .char_indices()
            .skip_while(|(_, c)| !c.is_ascii_digit())
            .find(|(_, c)| *c == ' ')
            .map(|(at, _)| at)
            .unwrap();
        assert_eq!(number_end, units_lost, "{row}\n{}", lines[heading]);
    }
}

#[test]
fn host_csv_has_a_line_per_game_and_seed_001_its_margin() {
    let dir = tempfile::tempdir().unwrap();
    for (scenario, margin) in [(SEED_001, true), (SEED_002, false)] {
        let path = dir.path().join(format!("{scenario}.csv"));
        let mut args = vec![scenario, "--games", "2", "--jobs", "2"];
        args.extend_from_slice(&SHORT);
        args.extend(["--csv", path.to_str().unwrap()]);
        let run = simulate(&args);
        assert_eq!(run.status, 0, "{}", run.stderr);
        let csv = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert!(lines[0].starts_with("game,seed,winner,condition,turns,"));
        assert_eq!(lines[0].ends_with(",orders,margin"), margin, "{}", lines[0]);
        assert!(lines[1].starts_with("0,") && lines[2].starts_with("1,"));
        let fields = lines[0].split(',').count();
        for line in &lines[1..] {
            // Every row has its turns (2) and, for seed 001, a margin.
            assert_eq!(line.split(',').nth(4), Some("2"), "{line}");
            if margin {
                let last = line.rsplit(',').next().unwrap();
                assert!(last.parse::<i32>().is_ok(), "{line}");
            }
            assert!(line.split(',').count() >= fields, "{line}");
        }
    }
}

#[test]
fn host_set_sweep_and_balance_change_the_games() {
    // --set turns=1: every game ends in the first turn.
    let one = json(&[SEED_002, "--games", "2", "--set", "turns=1"]);
    assert_eq!(one["aggregate"]["turns"], serde_json::json!({"1": 2}));
    // A seed-001 unit's strength is its bases: a British regiment of 1
    // base is an army of 1-base units the engine starts with.
    let weak = json(&[
        SEED_001,
        "--games",
        "1",
        "--set",
        "turns=1",
        "--set",
        "sides.british.units.71st Foot.strength=1",
    ]);
    assert_eq!(weak["aggregate"]["games"], 1);
    // --sweep plays each value.
    let sweep = simulate(&[SEED_002, "--games", "1", "--sweep", "turns=1..2"]);
    assert_eq!(sweep.status, 0, "{}", sweep.stderr);
    assert!(
        sweep
            .stdout
            .starts_with("Sweep of turns: 1 games at each value, seed 1781"),
        "{}",
        sweep.stdout
    );
    let rows: Vec<&str> = sweep.stdout.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{}", sweep.stdout);
    assert!(rows[0].trim_start().starts_with("1      1"), "{}", rows[0]);
    // --balance searches the values for the most even game.
    let balance = simulate(&[
        SEED_001,
        "--games",
        "1",
        "--balance",
        "turns=1..2",
        "--side",
        "americans",
    ]);
    assert_eq!(balance.status, 0, "{}", balance.stderr);
    assert!(
        balance
            .stdout
            .starts_with("Balance of turns for americans wins nearest 50%"),
        "{}",
        balance.stdout
    );
    assert!(
        balance.stdout.contains("Nearest an even game: turns="),
        "{}",
        balance.stdout
    );
}

#[test]
fn host_set_refuses_keys_these_rules_do_not_read_in_one_line() {
    let refused = |args: &[&str]| {
        let run = simulate(args);
        assert_eq!(run.status, 1, "{args:?}: {}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        run.stderr
    };
    // Seed 002 units all take the same hits: no strength.
    let message = refused(&[
        SEED_002,
        "--set",
        "sides.union.units.14th Brooklyn.strength=3",
    ]);
    assert!(
        message.contains("`strength` means nothing under rule set `ohw-acw` (seed 002)"),
        "{message}"
    );
    assert!(
        message.contains("a unit's keys there: troop_type, formation, position"),
        "{message}"
    );
    // Seed 001 commanders never rally.
    let message = refused(&[
        SEED_001,
        "--sweep",
        "sides.british.generals.Cornwallis.rallies=1..2",
    ]);
    assert!(
        message.contains("`rallies` means nothing under rule set `ruinous-victory` (seed 001)"),
        "{message}"
    );
    // A typo gets the nearest valid key.
    let message = refused(&[SEED_001, "--set", "turn=3"]);
    assert!(message.contains("did you mean `turns`?"), "{message}");
    let message = refused(&[
        SEED_001,
        "--balance",
        "sides.british.units.71st Foot.strenght=1..3",
    ]);
    assert!(message.contains("did you mean `strength`?"), "{message}");
    // A plan rule the rule set does not follow changes nothing: refused.
    let message = refused(&["--rule", "focus-fire=off", SEED_002, "--games", "1"]);
    assert!(
        message.contains("does not follow `focus-fire`; it follows"),
        "{message}"
    );
    // One vocabulary both ways: seed 002's own rule is refused at Guilford.
    let message = refused(&["--rule", "find-a-shot=off", "guilford", "--games", "1"]);
    assert!(
        message.contains("does not follow `find-a-shot`; it follows"),
        "{message}"
    );
}

#[test]
fn the_host_baseline_commands_a_side_and_its_runs_merge_only_with_their_own() {
    let dir = tempfile::tempdir().unwrap();
    for (scenario, side, other) in [
        (SEED_001, "british", "americans"),
        (SEED_002, "confederates", "union"),
    ] {
        let mut args = vec![scenario, "--games", "2", "--baseline", side];
        args.extend_from_slice(&SHORT);
        let report = json(&args);
        // The baseline's games are as deterministic as foe's.
        let mut on_one = args.clone();
        on_one.extend(["--jobs", "1"]);
        assert_eq!(
            timeless(json(&on_one)),
            timeless(report.clone()),
            "{scenario}"
        );
        let controllers = &report["labels"]["controllers"];
        let sides = report["labels"]["sides"].as_array().unwrap();
        for (index, name) in sides.iter().enumerate() {
            let expected = if name == side { "baseline" } else { "foe" };
            assert_eq!(controllers[index], expected, "{scenario}: {report}");
        }
        assert_eq!(report["aggregate"]["games"], 2);
        // foe gives reaction-test orders only to its own side's units.
        assert!(report["aggregate"]["orders"].as_object().is_some());
        let mut both = vec![
            scenario,
            "--games",
            "2",
            "--first-game",
            "2",
            "--baseline",
            side,
            "--baseline",
            other,
        ];
        both.extend_from_slice(&SHORT);
        let all_baseline = json(&both);
        assert_eq!(
            all_baseline["aggregate"]["orders"],
            serde_json::json!({}),
            "the baseline takes no reaction tests"
        );
        let first = dir.path().join(format!("{scenario}-a.json"));
        let second = dir.path().join(format!("{scenario}-b.json"));
        std::fs::write(&first, report.to_string()).unwrap();
        std::fs::write(&second, all_baseline.to_string()).unwrap();
        let merged = simulate(&["--merge", first.to_str().unwrap(), second.to_str().unwrap()]);
        assert_eq!(merged.status, 1);
        assert!(
            merged.stderr.contains("runs with different commanders"),
            "{}",
            merged.stderr
        );
    }
    let mut args = vec![
        SEED_002,
        "--games",
        "1",
        "--baseline",
        "union",
        "--jobs",
        "1",
    ];
    args.extend_from_slice(&SHORT);
    let run = simulate(&args);
    assert!(
        run.stdout
            .contains("commanded by: union baseline (scripted), confederates foe (Lone Warrior)"),
        "{}",
        run.stdout
    );
    // An unknown side is refused with the nearest name.
    let refused = simulate(&[SEED_001, "--games", "1", "--baseline", "britsh"]);
    assert_eq!(refused.status, 1);
    assert!(refused.stderr.contains("british"), "{}", refused.stderr);
}

#[test]
fn host_replay_prints_the_game_with_its_sets_and_baseline_noted() {
    let run = simulate(&[
        SEED_001,
        "--games",
        "3",
        "--set",
        "turns=1",
        "--baseline",
        "americans",
        "--replay",
        "2",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = &run.stdout;
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("Game 2 of the study seeded 1781: foe play guilford-ruinous --seed "),
        "{out}"
    );
    assert!(
        first.ends_with(" --side none --baseline americans --no-pause"),
        "{out}"
    );
    assert!(out.contains("with the --set changes made"), "{out}");
    assert!(out.contains("\n\n-- turn 1 --\n"), "{out}");
    assert!(out.contains("\nGame over on turn 1: "), "{out}");
}

/// The replay's line carries the baseline and the rules switched off, and
/// `foe play` run with it prints the same record, line for line, under
/// seeds 001 and 002.
#[test]
fn the_host_replay_line_replays_the_same_game() {
    for (scenario, baseline) in [(SEED_001, "americans"), (SEED_002, "union")] {
        let run = simulate(&[
            scenario,
            "--games",
            "3",
            "--baseline",
            baseline,
            "--rule",
            "press-home=off",
            "--replay",
            "1",
        ]);
        assert_eq!(run.status, 0, "{}", run.stderr);
        let (first, record) = run.stdout.split_once("\n\n").expect("a header");
        let command = first
            .split_once(": foe ")
            .map(|(_, command)| command)
            .unwrap_or_else(|| panic!("{}", run.stdout));
        assert!(
            command.contains(&format!("--baseline {baseline} --rule press-home=off")),
            "{command}"
        );
        let args: Vec<&str> = command.split(' ').collect();
        let dir = tempfile::tempdir().unwrap();
        let played = assert_cmd::Command::cargo_bin("foe")
            .unwrap()
            .args(&args)
            .arg("--no-autosave")
            .env("FOE_DATA_DIR", dir.path())
            .env_remove("FOE_TABLES")
            .output()
            .unwrap();
        assert!(played.status.success());
        let played = String::from_utf8_lossy(&played.stdout);
        assert!(record.contains("  [foe] "), "{record}");
        assert!(
            played.ends_with(record),
            "--- replay ---\n{record}\n--- play ---\n{played}"
        );
    }
}

#[test]
fn host_bench_reports_games_per_second_and_time_by_stage() {
    let run = simulate(&[SEED_002, "--bench", "--set", "turns=1"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = &run.stdout;
    for wanted in [
        "foe simulate --bench: whole games per second on one core",
        "henry-hill",
        "opponent on both sides",
        "random legal play",
        "games/s",
        "random play:",
        "time by stage",
        "deciding",
        "records",
        "rules engine",
    ] {
        assert!(out.contains(wanted), "{wanted}:\n{out}");
    }
}
