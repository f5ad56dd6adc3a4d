//! The tabletop oracle: `foe react`, `foe general`, `foe reinforce`, `foe melee`.

use crate::support::{foe, foe_with_input};

#[test]
fn react_worked_example_bound_1() {
    foe(&["react", "--class", "rangers", "--terrain", "open", "--no-enemy-in-sight", "--enemy-distance", "16", "--formation", "column", "--die", "4"]).prints(
        r#"  Rangers in open ground                   0
  No enemy in sight                        +3
  Enemy over 15"                           +1
  Die                                      +4
  TOTAL                                    +8: Advance and fire
  -> Out of sight and range, march in column at normal speed towards the front line. [move 6" towards the front; ends in column]
"#,
    );
}

#[test]
fn react_worked_example_bound_2() {
    foe(&[
        "react",
        "--class",
        "rangers",
        "--terrain",
        "open",
        "--enemy-distance",
        "20",
        "--formation",
        "column",
        "--die",
        "4",
    ])
    .prints(
        r#"  Rangers in open ground                   0
  Enemy over 15"                           +1
  Die                                      +4
  TOTAL                                    +5: Stand and fire
  -> Deploy into skirmish order. [ends in skirmish]
"#,
    );
}

#[test]
fn react_worked_example_bound_3_with_odds() {
    foe(&["react", "--class", "rangers", "--terrain", "open", "--enemy-distance", "5", "--casualties", "2", "--die", "3", "--odds"]).prints(
        r#"  Rangers in open ground                   0
  Enemy within 6"                          -1
  2 figures lost last bound                -2
  Die                                      +3
  TOTAL                                    0: Fire and withdraw
  -> Fire a single volley at -1, then withdraw at half speed to the nearest cover. [move 3" to the nearest cover; fires one volley at -1]
  Odds over the D6:
    Stand and fire        50.0%  (3/6)
    Fire and withdraw     16.7%  (1/6)
    Withdraw              33.3%  (2/6)
"#,
    );
}

/// R18: a disordered unit reforms first, out of sight (stand and fire,
/// advance and fire) or behind hard cover (advance and fire).
#[test]
fn react_disordered_unit_reforms_before_anything_else() {
    let reform = |arguments: &[&str], order: &str| {
        let run = foe(arguments);
        let printed = &run.stdout;
        assert_eq!(run.status, 0, "stderr: {}", run.stderr);
        assert!(
            printed.contains(&format!(": {order}\n  -> Reform. [reformed]\n")),
            "{arguments:?} should reform under {order}, printed:\n{printed}"
        );
    };
    reform(
        &[
            "react",
            "--class",
            "local-militia",
            "--no-enemy-in-sight",
            "--die",
            "2",
            "--disordered",
        ],
        "Stand and fire",
    );
    reform(
        &[
            "react",
            "--class",
            "british-regulars",
            "--no-enemy-in-sight",
            "--die",
            "3",
            "--disordered",
        ],
        "Advance and fire",
    );
    reform(
        &[
            "react",
            "--class",
            "british-regulars",
            "--terrain",
            "hard",
            "--enemy-distance",
            "10",
            "--die",
            "6",
            "--disordered",
        ],
        "Advance and fire",
    );
}

#[test]
fn react_json_has_the_pinned_keys() {
    let json = foe(&[
        "react",
        "--class",
        "indians",
        "--terrain",
        "natural",
        "--withdrew-last-bound",
        "--die",
        "1",
        "--odds",
        "--json",
    ])
    .json();
    assert_eq!(json["total"], -1);
    assert_eq!(json["die"], 1);
    assert_eq!(json["order"], "rout");
    assert_eq!(json["column"], "retreat");
    assert_eq!(json["factors"][0]["value"], -2);
    let odds = json["odds"].as_object().unwrap();
    let sum: f64 = odds.values().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    assert!(odds.contains_key("rout"));
}

#[test]
fn react_with_a_seed_repeats_its_roll() {
    let first = foe(&["react", "--class", "rangers", "--seed", "42", "--json"]).json();
    let second = foe(&["react", "--class", "rangers", "--seed", "42", "--json"]).json();
    assert_eq!(first, second);
    assert_eq!(first["die"], 2, "ChaCha8 seed 42 rolls a 2 first");
    assert_eq!(first["seed"], 42);
}

#[test]
fn react_asks_for_the_die_when_the_player_rolls() {
    let run = foe_with_input(&["--dice", "ask", "react", "--class", "rangers"], "9\n5\n");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("`9` is not a D6 roll from 1 to 6"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout
            .contains("Die                                      +5"),
        "{}",
        run.stdout
    );
}

#[test]
fn react_refuses_bad_input_in_one_line() {
    foe(&["react", "--class", "rangrs"]).fails_with(
        1,
        "error: unknown troop class `rangrs`; did you mean `rangers`?",
    );
    foe(&["react", "--class", "rangers", "--terrain", "wod"])
        .fails_with(1, "error: unknown terrain `wod`; did you mean `wood`?");
    foe(&["react", "--class", "rangers", "--die", "0"])
        .fails_with(1, "error: --die must be a D6 roll from 1 to 6, not 0");
    foe(&["react", "--class", "rangers", "--casualties", "-2"])
        .fails_with(1, "error: --casualties must be 0 or more figures, not -2");
    foe(&["react", "--class", "british-regulars", "--character", "rash"]).fails_with(
        1,
        "error: british-regulars have no character rating; only militia and provincial classes are rated",
    );
    foe(&["react", "--class", "local-militia", "--character", "braev"])
        .fails_with(1, "error: unknown character `braev`; did you mean `brave`?");
    foe(&["react"]).fails_with(
        2,
        "error: the following required arguments were not provided: --class <CLASS> (see --help)",
    );
}

#[test]
fn general_rolls_repeat_with_a_seed() {
    let run = foe(&[
        "general", "--nation", "british", "--count", "2", "--seed", "7",
    ]);
    assert_eq!(
        run.stdout,
        foe(&[
            "general", "--nation", "british", "--count", "2", "--seed", "7"
        ])
        .stdout
    );
    let json = foe(&["general", "--count", "3", "--seed", "7", "--json"]).json();
    let generals = json.as_array().unwrap();
    assert_eq!(generals.len(), 3);
    for general in generals {
        let roll = general["roll"].as_u64().unwrap();
        let character = general["character"].as_str().unwrap();
        let expected = match roll {
            1..=5 => "rash",
            6..=30 => "brave",
            31..=70 => "average",
            71..=95 => "cautious",
            _ => "timid",
        };
        assert_eq!(character, expected, "roll {roll}");
        assert!(general["name"].as_str().unwrap().contains(' '));
    }
}

#[test]
fn general_react_gives_the_chart_reaction() {
    foe(&["general", "react", "--character", "rash", "--trigger", "enemy-withdrawing", "--roll", "40"]).prints(
        "  Trigger: Enemy troops routing or withdrawing.\n  Rash general, d100 40: reaction B (36-60)\n  -> Advances to the centre of the front line (no change if already there).\n",
    );
    let json = foe(&[
        "general",
        "react",
        "--character",
        "timid",
        "--roll",
        "71",
        "--json",
    ])
    .json();
    assert_eq!(json["reaction"], "E");
    assert_eq!(json["rides_to_rear"], true);
    foe(&["general", "react", "--character", "timid", "--roll", "101"]).fails_with(
        1,
        "error: --roll must be a percentage roll from 1 to 100, not 101",
    );
    foe(&["general", "react", "--character", "timid", "--trigger", "panic"]).fails_with(
        1,
        "error: unknown trigger `panic`; expected one of: own-troops-withdrawing, enemy-attacking-within-6, enemy-withdrawing",
    );
}

#[test]
fn reinforce_calls_up_and_tests_the_reserve() {
    foe(&[
        "reinforce",
        "--army",
        "french",
        "--roll",
        "50",
        "--die",
        "2",
    ])
    .prints(
        r#"French reinforcements, d100 50: Canadian Militia
  Reaction test as an encamped reserve:
  Canadian Militia and Indians in open ground  -1
  No enemy in sight                            +3
  Die                                          +2
  TOTAL                                        +4: Stand and fire
  -> No enemy in sight, stand fast.
  => Stays off table, encamped
"#,
    );
    let json = foe(&[
        "reinforce",
        "--army",
        "british",
        "--roll",
        "10",
        "--die",
        "1",
        "--json",
    ])
    .json();
    assert_eq!(json["troop"], "british-line-infantry");
    assert_eq!(json["enters"], true);
    assert_eq!(json["order"], "advance_and_fire");
    foe(&["reinforce", "--army", "prussian"]).fails_with(
        1,
        "error: unknown army `prussian`; expected one of: french, british",
    );
}

/// A roll foe made is one the player can make again: the seed is printed,
/// in text and in JSON, and `--seed` with it repeats the whole result.
#[test]
fn reinforce_and_melee_print_the_seed_they_rolled_with() {
    for command in [
        &["reinforce", "--army", "british"][..],
        &[
            "melee",
            "--figures",
            "6",
            "--troop",
            "rangers",
            "--situation",
            "charging",
        ],
    ] {
        let text = foe(command).stdout;
        let seed = text
            .split("(rolled with seed ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .unwrap_or_else(|| panic!("{command:?} names no seed:\n{text}"))
            .to_string();
        assert!(
            text.ends_with(&format!("--seed {seed} repeats it)\n")),
            "{text}"
        );
        let again = [command, &["--seed", &seed]].concat();
        assert_eq!(foe(&again).stdout, text, "{command:?} --seed {seed}");

        let json = foe(&[command, &["--json"]].concat()).json();
        let seed = json["seed"].to_string();
        assert!(seed.parse::<u64>().is_ok(), "{command:?}: {json}");
        let again = foe(&[command, &["--json", "--seed", &seed]].concat()).json();
        assert_eq!(again, json, "{command:?} --json --seed {seed}");
    }
    // Dice the player gave are not foe's rolls: no seed to repeat.
    let forced = foe(&["melee", "--factor", "3", "--die", "4", "--json"]).json();
    assert!(forced.get("seed").is_none(), "{forced}");
    let forced = foe(&[
        "reinforce",
        "--army",
        "french",
        "--roll",
        "50",
        "--die",
        "2",
        "--json",
    ])
    .json();
    assert!(forced.get("seed").is_none(), "{forced}");
}

#[test]
fn melee_reads_the_casualty_table() {
    let json = foe(&["melee", "--factor", "13", "--die", "5", "--json"]).json();
    assert_eq!(json["casualties"], 3);
    let json = foe(&[
        "melee",
        "--figures",
        "2",
        "--troop",
        "local-militia",
        "--situation",
        "routing-or-withdrawing",
        "--die",
        "6",
        "--json",
    ])
    .json();
    assert_eq!(
        (json["factor"].as_i64(), json["casualties"].as_u64()),
        (Some(0), Some(0))
    );
    foe(&["melee", "--figures", "4", "--troop", "rangrs"]).fails_with(
        1,
        "error: unknown melee troop type `rangrs`; did you mean `rangers`?",
    );
    foe(&["melee"]).fails_with(
        1,
        "error: give --factor F, or --figures N with --troop and --situation",
    );
}

#[test]
fn user_tables_override_the_built_in_ones() {
    let dir = tempfile::tempdir().unwrap();
    let reaction = include_str!("../../tables/reaction.yaml").replace(
        "rangers:              { name: Rangers,                     kind: light,   open: 0,",
        "rangers:              { name: Rangers,                     kind: light,   open: 3,",
    );
    std::fs::write(dir.path().join("reaction.yaml"), reaction).unwrap();
    let json = foe(&[
        "--tables",
        dir.path().to_str().unwrap(),
        "react",
        "--class",
        "rangers",
        "--die",
        "1",
        "--json",
    ])
    .json();
    assert_eq!(json["total"], 4);
}

#[test]
fn a_broken_user_table_is_refused_with_its_location() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("characters.yaml"),
        "characters:\n  - { id: rash, name: Rash, from: 1, to: 5, unit_factor: x }\n",
    )
    .unwrap();
    let path = dir.path().join("characters.yaml");
    let run = foe(&["--tables", dir.path().to_str().unwrap(), "general"]);
    assert_eq!(run.status, 1);
    let expected = format!(
        "error: {}:2:58: characters[0].unit_factor: invalid type: string \"x\", expected i32",
        path.display()
    );
    assert_eq!(run.stderr.trim_end(), expected);
}

#[test]
fn completions_are_printed_for_bash() {
    let run = foe(&["completions", "bash"]);
    assert_eq!(run.status, 0);
    assert!(run.stdout.contains("react"));
    assert!(run.stdout.contains("--enemy-distance"));
}

#[test]
fn help_shows_a_worked_example() {
    for command in ["react", "general", "reinforce", "melee", "completions"] {
        let run = foe(&[command, "--help"]);
        assert_eq!(run.status, 0);
        assert!(
            run.stdout.contains("Example"),
            "{command} --help has no example"
        );
    }
}

#[test]
fn a_factor_that_applies_but_is_worth_nothing_in_the_column_says_so() {
    // "Supporting troops within 6\"  0" read as if the support were ignored.
    foe(&[
        "react",
        "--class",
        "rangers",
        "--support-within-6",
        "--die",
        "3",
    ])
    .prints(
        "  Rangers in open ground                                  0
  Supporting troops within 6\" (no effect in open ground)  0
  Die                                                     +3
  TOTAL                                                   +3: Stand and fire
  -> Stand and fire. [fires]
",
    );
}

#[test]
fn every_subcommand_names_the_arguments_it_is_missing() {
    // The first line of clap's message ended in a colon and named nothing.
    foe(&["general", "react"]).fails_with(
        2,
        "error: the following required arguments were not provided: --character <C> (see --help)",
    );
    foe(&["reinforce"]).fails_with(
        2,
        "error: the following required arguments were not provided: --army <ARMY> (see --help)",
    );
}

#[test]
fn terrain_in_words_is_read_by_the_rule_sets_ground_and_says_so() {
    let first_two = |terrain: &str| {
        let run = foe(&[
            "react",
            "--class",
            "rangers",
            "--terrain",
            terrain,
            "--die",
            "3",
        ]);
        assert_eq!(run.status, 0, "{}", run.stderr);
        run.stdout.lines().take(2).collect::<Vec<_>>().join("\n")
    };
    let cases = [
        (
            "woods",
            "  (woods: natural cover in the ohw-awi rule set)\n  Rangers in natural cover                 +2",
        ),
        (
            "forest",
            "  (forest: woods, natural cover in the ohw-awi rule set)\n  Rangers in natural cover                 +2",
        ),
        (
            "Wood",
            "  (Wood: woods, natural cover in the ohw-awi rule set)\n  Rangers in natural cover                 +2",
        ),
        (
            "building",
            "  (building: town, hard cover in the ohw-awi rule set)\n  Rangers in hard cover                    +2",
        ),
        (
            "fence",
            "  (fence: hard cover in the ohw-awi rule set)\n  Rangers in hard cover                    +2",
        ),
        (
            "wall",
            "  (wall: hard cover in the ohw-awi rule set)\n  Rangers in hard cover                    +2",
        ),
        (
            "hill",
            "  (hill: open ground in the ohw-awi rule set)\n  Rangers in open ground                   0",
        ),
        (
            "natural",
            "  Rangers in natural cover                 +2\n  Die                                      +3",
        ),
    ];
    for (terrain, expected) in cases {
        assert_eq!(first_two(terrain), expected, "--terrain {terrain}");
    }
    let json = foe(&[
        "react",
        "--class",
        "rangers",
        "--terrain",
        "forest",
        "--die",
        "3",
        "--json",
    ])
    .json();
    assert_eq!(
        json["terrain"],
        serde_json::json!({"word": "forest", "kind": "woods", "column": "natural"})
    );
    assert_eq!(json["column"], "natural");
}

#[test]
fn general_reaction_odds_are_the_chart_bands() {
    foe(&["general", "react", "--character", "cautious", "--roll", "58", "--odds"]).prints(
        "  Cautious general, d100 58: reaction D (51-75)
  -> Orders up a unit of reinforcements.
  Odds over the d100:
    A  15.0%  (1-15)   Moves to the most stricken unit (generally the one nearest the enemy, attacking or retreating); his presence rallies it or gives it the impetus to charge.
    B  15.0%  (16-30)  Advances to the centre of the front line (no change if already there).
    C  20.0%  (31-50)  Stands and does nothing.
    D  25.0%  (51-75)  Orders up a unit of reinforcements.
    E  25.0%  (76-100) Rides to the rear; if this takes him off the table he does not return.
",
    );
    let json = foe(&[
        "general",
        "react",
        "--character",
        "rash",
        "--roll",
        "1",
        "--odds",
        "--json",
    ])
    .json();
    let total: f64 = ["A", "B", "C", "D", "E"]
        .iter()
        .map(|l| json["odds"][l].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{json}");
}

#[test]
fn melee_odds_enumerate_the_d6() {
    foe(&[
        "melee",
        "--figures",
        "8",
        "--troop",
        "rangers",
        "--situation",
        "charging",
        "--die",
        "5",
        "--odds",
    ])
    .prints(
        "  8 figures within 1/4\"                    +8
  Rangers                                  +3
  Charging (first round only)              +2
  Factor                                   +13
  Die                                      5
  -> 3 casualties (figures)
  Odds over the D6:
    0 casualties    16.7%  (1/6)
    1 casualty      33.3%  (2/6)
    2 casualties    16.7%  (1/6)
    3 casualties    33.3%  (2/6)
    on average     1.7 figures
",
    );
}

#[test]
fn reinforcement_odds_cover_the_whole_table() {
    let run = foe(&[
        "reinforce",
        "--army",
        "british",
        "--roll",
        "33",
        "--die",
        "3",
        "--odds",
    ]);
    let odds: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|line| !line.contains("Odds"))
        .collect();
    assert_eq!(
        odds.join("\n"),
        "  Odds over the d100 and the D6:
    Grenadiers              5%  (d100 1-5), comes on with 6 of 6
    British Line Infantry  20%  (d100 6-25), comes on with 6 of 6
    Light Infantry          5%  (d100 26-30), comes on with 5 of 6
    Rangers                10%  (d100 31-40), comes on with 4 of 6
    Red Indians             8%  (d100 41-48), comes on with 3 of 6
    Provincial Militia     30%  (d100 49-78), comes on with 5 of 6
    Local Militia          12%  (d100 79-90), comes on with 2 of 6
    Light Artillery         5%  (d100 91-95), comes on with 5 of 6
    Field Artillery         5%  (d100 96-100), comes on with 5 of 6
    comes on this bound: 77.2% (463/600)"
    );
}

/// Seed 004: "After each melee, both sides check morale. If both hold,
/// they fight again." Both sides hold after round 1; the charge is gone in
/// round 2; the line, under half strength, breaks (ruling R19).
#[test]
fn a_whole_melee_is_fought_round_by_round_until_a_side_breaks() {
    foe(&[
        "melee",
        "--figures",
        "8",
        "--troop",
        "rangers",
        "--situation",
        "charging",
        "--against-figures",
        "8",
        "--against-troop",
        "Line Infantry",
        "--die",
        "5,1,6,6",
        "--die",
        "6",
        "--die",
        "6,6,6",
    ])
    .prints(
        r#"Round 1
  Rangers:       8 figures within 1/4" +8, Rangers +3, Charging (first round only) +2 = +13; die 5 -> 3 casualties: Line Infantry 5 left
  Line Infantry: 8 figures within 1/4" +8, Line Infantry +2 = +10; die 1 -> 0 casualties: Rangers 8 left
  Rangers morale:       Rangers in open ground 0, Enemy within 6" -1; die 6 = +5: Stand and fire -> holds
  Line Infantry morale: British Regulars in open ground +2, Enemy within 6" -1, Lost the round -2, 3 figures lost this round -3; die 6 = +2: Stand and fire -> holds
Round 2
  Rangers:       8 figures within 1/4" +8, Rangers +3 = +11; die 6 -> 2 casualties: Line Infantry 3 left
  Line Infantry: 5 figures within 1/4" +5, Line Infantry +2 = +7; die 6 -> 2 casualties: Rangers 6 left
  Rangers morale:       Rangers in open ground 0, Enemy within 6" -1, 2 figures lost this round -2; die 6 = +3: Stand and fire -> holds
  Line Infantry morale: British Regulars in open ground +2, Enemy within 6" -1, 2 figures lost this round -2, Under half strength -6; die 6 = -1: Withdraw -> falls back
=> Line Infantry fail their morale check and fall back: Rangers win, after 2 rounds.
"#,
    );
}

#[test]
fn a_whole_melee_in_json_says_how_it_ended() {
    let args = [
        "melee",
        "--figures",
        "4",
        "--troop",
        "rangers",
        "--ground",
        "hard",
        "--against-figures",
        "4",
        "--against-troop",
        "rangers",
        "--against-ground",
        "hard",
        "--seed",
        "1",
        "--die",
    ];
    // Every die a 1: no casualties, and rangers behind hard cover hold on
    // a 1, so the rounds run out (the table's house-rule cap).
    let ones = ["1"; 24].join(",");
    let json = foe(&[&args[..], &[ones.as_str(), "--json"]].concat()).json();
    assert_eq!(json["end"]["kind"], "rounds-ran-out");
    assert_eq!(json["rounds"].as_array().map(Vec::len), Some(6));
    assert!(json["winner"].is_null());
    assert!(json.get("seed").is_none(), "no die was rolled");
    assert_eq!(json["names"][1], "Rangers (2)");
    // The same melee rolled from the seed says so, and repeats.
    let rolled = foe(&args[..args.len() - 1]);
    assert!(
        rolled
            .stdout
            .contains("(rolled with seed 1; --seed 1 repeats it)")
    );
    assert_eq!(foe(&args[..args.len() - 1]).stdout, rolled.stdout);
}

/// Hostile input to a whole melee: a one-line message, never a panic.
#[test]
fn a_whole_melee_refuses_bad_input_in_one_line() {
    let base = ["melee", "--figures", "4", "--troop", "rangers"];
    let cases: [(&[&str], &str); 9] = [
        (
            &["--against-figures", "-3", "--against-troop", "rangers"],
            "error: --against-figures must be from 0 to 2147483647 figures, not -3",
        ),
        (
            &[
                "--against-figures",
                "99999999999",
                "--against-troop",
                "rangers",
            ],
            "error: --against-figures must be from 0 to 2147483647 figures, not 99999999999",
        ),
        (
            &["--against-figures", "3", "--against-troop", "rangrs"],
            "error: unknown melee troop type `rangrs`; did you mean `rangers`?",
        ),
        (
            &["--against-figures", "3"],
            "error: a whole melee needs both sides' troop types (the morale check is its class's reaction test): give --against-troop TYPE",
        ),
        (
            &[
                "--against-figures",
                "3",
                "--against-troop",
                "rangers",
                "--die",
                "7",
            ],
            "error: --die must be a D6 roll from 1 to 6, not 7",
        ),
        (
            &[
                "--against-figures",
                "3",
                "--against-troop",
                "rangers",
                "--against-strength",
                "2",
            ],
            "error: a unit's strength (2 figures) cannot be less than the 3 figures it fights with",
        ),
        (
            &[
                "--against-figures",
                "3",
                "--against-troop",
                "rangers",
                "--character",
                "rash",
            ],
            "error: rangers have no character rating; only militia and provincial classes are rated",
        ),
        (
            &[
                "--against-figures",
                "3",
                "--against-troop",
                "rangers",
                "--odds",
            ],
            "error: --odds is for one side's round; a whole melee prints its rounds",
        ),
        (
            &["--ground", "hard"],
            "error: --ground is for the morale check of a whole melee: give the other side too (--against-figures N --against-troop TYPE)",
        ),
    ];
    for (extra, message) in cases {
        foe(&[&base[..], extra].concat()).fails_with(1, message);
    }
    for junk in ["NaN", "1e9", "inf", "-0x1"] {
        let run = foe(&[&base[..], &["--against-figures", junk]].concat());
        assert_eq!(run.status, 2, "{junk}: {}", run.stderr);
        assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    }
    foe(&["melee", "--figures", "4", "--die", "3,4"]).fails_with(
        1,
        "error: one side's round takes one --die, not 2; give the other side (--against-figures, --against-troop) to fight a whole melee",
    );
}

/// A player at the table types the rolls `--die` did not give, each asked
/// for by round, kind and side.
#[test]
fn a_whole_melee_asks_for_the_dice_not_given() {
    let run = foe_with_input(
        &[
            "--dice",
            "ask",
            "melee",
            "--figures",
            "8",
            "--troop",
            "rangers",
            "--against-figures",
            "8",
            "--against-troop",
            "rangers",
            "--die",
            "1,1",
        ],
        "6\n1\n",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("round 1, morale D6 for Rangers (1)")
            && run.stderr.contains("round 1, morale D6 for Rangers (2)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout
            .ends_with("=> Rangers (2) fail their morale check and fall back: Rangers (1) win, after 1 round.\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("rolled with seed"), "{}", run.stdout);
}
