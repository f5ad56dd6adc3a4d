//! `foe play` and `foe simulate` on the seed-001 and seed-002 scenarios,
//! through the rule-set boundary (src/host/): whole watched games compared
//! with golden transcripts (`FOE_BLESS=1` rewrites them, deliberately), a
//! player giving orders and activation dice from a script and at a
//! pseudo-terminal, saves that resume to the same game, and simulate's
//! report.

use super::support::{Run as Played, golden};
use std::path::Path;

fn foe(dir: &Path, args: &[&str], script: &str) -> Played {
    super::support::foe_in(dir, args, script)
}

#[test]
fn a_watched_seed_001_game_matches_its_transcript() {
    let desk = tempfile::tempdir().unwrap();
    let played = foe(
        desk.path(),
        &[
            "play",
            "guilford-ruinous",
            "--side",
            "none",
            "--no-pause",
            "--seed",
            "5",
            "--no-autosave",
        ],
        "",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played.stdout.contains("Game over on turn"),
        "{}",
        played.stdout
    );
    assert!(
        played.stdout.contains("victory margin"),
        "{}",
        played.stdout
    );
    golden(&played.stdout, "host_rv_watch.txt");
}

#[test]
fn a_watched_seed_002_game_matches_its_transcript() {
    let desk = tempfile::tempdir().unwrap();
    let played = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "none",
            "--no-pause",
            "--seed",
            "3",
            "--no-autosave",
        ],
        "",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played.stdout.contains("Game over on turn"),
        "{}",
        played.stdout
    );
    golden(&played.stdout, "host_acw_watch.txt");
}

#[test]
fn a_player_gives_out_activation_dice_and_bad_input_changes_nothing() {
    let desk = tempfile::tempdir().unwrap();
    let script = "?\nassign 9 to Jackson\nassign 6 to Jackson\nassign 5 to Jaxon\nassign 5 to Jackson\nfire\nflee\nstatus\nauto\nwhy Sherman\nundo\n?\nquit\n";
    let played = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "confederates",
            "--seed",
            "5",
            "--no-autosave",
        ],
        script,
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    assert!(out.contains("expected a die from 1 to 6, not `9`"), "{out}");
    assert!(out.contains("no unassigned 6"), "{out}");
    assert!(
        out.contains("no unit `Jaxon`; did you mean `Jackson's Brigade` (C3)?"),
        "{out}"
    );
    assert!(out.contains("auto: die"), "{out}");
    assert!(out.contains("Taken back"), "{out}");
    golden(out, "host_acw_player.txt");
}

/// `--baseline` on the other rule sets: the scripted baseline commands a
/// side the player does not, a save keeps it, and a resumed game replays
/// with it; a save without one is written as before.
#[test]
fn the_baseline_commands_a_side_in_play_and_a_save_keeps_it() {
    let desk = tempfile::tempdir().unwrap();
    let watched = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "none",
            "--baseline",
            "union",
            "--no-pause",
            "--seed",
            "3",
            "--no-autosave",
        ],
        "",
    );
    assert_eq!(watched.status, 0, "{}", watched.stderr);
    assert!(
        watched.stdout.contains(
            "The baseline (scripted, not Lone Warrior; rulings HO20-HO26) commands the union."
        ),
        "{}",
        watched.stdout
    );
    assert!(
        watched.stdout.contains("Game over on turn"),
        "{}",
        watched.stdout
    );
    // Not the player's own side.
    let refused = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "union",
            "--baseline",
            "union",
            "--seed",
            "3",
        ],
        "",
    );
    assert_ne!(refused.status, 0);
    assert!(
        refused
            .stderr
            .contains("--baseline `union`: you command that side"),
        "{}",
        refused.stderr
    );
    // Saved with it, resumed with it: the same game.
    let played = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "confederates",
            "--baseline",
            "uni",
            "--seed",
            "3",
            "--no-autosave",
        ],
        "auto\nsave with.json\nstatus\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let text = std::fs::read_to_string(desk.path().join("with.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        save["baseline_sides"],
        serde_json::json!(["union"]),
        "{text}"
    );
    let resumed = foe(
        desk.path(),
        &["play", "--resume", "with.json"],
        "status\nquit\n",
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed.stdout.contains("commands the union."),
        "{}",
        resumed.stdout
    );
    let status = |out: &str| out.rsplit("Turn ").next().map(str::to_string);
    assert_eq!(status(&played.stdout), status(&resumed.stdout));
    // Without a baseline the save has no such field.
    let plain = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "confederates",
            "--seed",
            "3",
            "--no-autosave",
        ],
        "save plain.json\nquit\n",
    );
    assert_eq!(plain.status, 0, "{}", plain.stderr);
    let text = std::fs::read_to_string(desk.path().join("plain.json")).unwrap();
    assert!(!text.contains("baseline_sides"), "{text}");
}

/// `--rule` on the other rule sets: a rule the game's engine follows is
/// kept in the save and the resumed game is played by it; one it does not
/// follow is refused.
#[test]
fn a_host_game_keeps_its_rules_in_the_save() {
    let desk = tempfile::tempdir().unwrap();
    let refused = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--rule",
            "general-leads=off",
            "--side",
            "none",
            "--no-pause",
        ],
        "",
    );
    assert_ne!(refused.status, 0);
    assert!(
        refused.stderr.contains("does not follow `general-leads`"),
        "{}",
        refused.stderr
    );
    let played = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "confederates",
            "--rule",
            "press-home=off",
            "--seed",
            "4",
            "--no-autosave",
        ],
        "auto\nsave r.json\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let first = std::fs::read_to_string(desk.path().join("r.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&first).unwrap();
    // Every rule off is named, so the save replays whatever the tables
    // say later.
    assert_eq!(
        save["rules_off"],
        serde_json::json!(["press-home"]),
        "{first}"
    );
    // Resumed without --rule, the game is still played by its rules: saved
    // again, it is the same save.
    let resumed = foe(
        desk.path(),
        &["play", "--resume", "r.json"],
        "save again.json\nquit\n",
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    let again = std::fs::read_to_string(desk.path().join("again.json")).unwrap();
    assert_eq!(first, again);
}

/// Ruling P1 on the other rule sets: `undo turn` takes back a turn's
/// actions, `rewind N` goes back to turn N; a game rolled back and saved is
/// the game played with only the kept actions.
#[test]
fn undo_turn_and_rewind_take_a_seed_001_game_back() {
    let desk = tempfile::tempdir().unwrap();
    let args = |save: &str| -> Vec<String> {
        [
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--seed",
            "5",
            "--autosave",
            save,
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |script: &str, save: &str| {
        let args = args(save);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        foe(desk.path(), &args, script)
    };
    // Turn 1 played (a move and three phase ends), then taken back whole.
    let played = run(
        "move 71st to 10,10\nend\nend\nend\nundo turn\nrewind 5\nrewind 0\nundo twice\nquit\n",
        "a.json",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    assert!(
        out.contains("Taken back: your 4 actions of turn 1. Now turn 1, british move."),
        "{out}"
    );
    assert!(
        out.contains("cannot rewind to turn 5: it is turn 1 now"),
        "{out}"
    );
    assert!(out.contains("`rewind` takes a turn number from 1"), "{out}");
    assert!(out.contains("not `undo twice`"), "{out}");
    // The autosave holds no action: the same as a game never played.
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(desk.path().join("a.json")).unwrap())
            .unwrap();
    assert_eq!(save["actions"], serde_json::json!([]), "{save}");
    // Rewind to turn 2 keeps turn 1's actions and drops turn 2's.
    let played = run(
        "move 71st to 10,10\nend\nend\nend\nmove 71st to 10,12\nrewind 2\nquit\n",
        "b.json",
    );
    assert!(
        played
            .stdout
            .contains("Taken back: your 1 action from turn 2 on. Now turn 2, british move."),
        "{}",
        played.stdout
    );
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(desk.path().join("b.json")).unwrap())
            .unwrap();
    assert_eq!(save["actions"].as_array().map(Vec::len), Some(4), "{save}");
}

#[test]
fn a_seed_001_game_saved_mid_turn_resumes_where_it_was() {
    let desk = tempfile::tempdir().unwrap();
    let save = desk.path().join("rv-save.json");
    let save_arg = save.display().to_string();
    let script = format!(
        "move 71st to 8,11\n?\n3\nend\nfire 71st at Washington\nsave {save_arg}\nstatus\nquit\n"
    );
    let first = foe(
        desk.path(),
        &[
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--seed",
            "11",
            "--no-autosave",
        ],
        &script,
    );
    assert_eq!(first.status, 0, "{}", first.stderr);
    assert!(first.stdout.contains("Saved to"), "{}", first.stdout);
    let status_before = first
        .stdout
        .rsplit_once("> status\n")
        .map(|(_, after)| after.split("turn ").next().unwrap_or("").to_string())
        .unwrap();
    let second = foe(
        desk.path(),
        &["play", "--resume", &save_arg],
        "status\nquit\n",
    );
    assert_eq!(second.status, 0, "{}", second.stderr);
    assert!(second.stdout.contains("Resumed:"), "{}", second.stdout);
    assert!(
        second.stdout.contains(status_before.trim()),
        "resumed status differs:\n{}\n--- before ---\n{status_before}",
        second.stdout
    );
    // A damaged save is a message, never a panic.
    std::fs::write(
        &save,
        "{\"format\": \"foe-other-rules-save\", \"version\": 99}",
    )
    .unwrap();
    let third = foe(desk.path(), &["play", "--resume", &save_arg], "quit\n");
    assert_eq!(third.status, 1);
    assert!(third.stderr.contains("another foe"), "{}", third.stderr);
}

#[test]
fn simulate_reports_shares_turns_losses_and_the_margin() {
    let desk = tempfile::tempdir().unwrap();
    let played = foe(
        desk.path(),
        &[
            "simulate",
            "guilford-ruinous",
            "--games",
            "3",
            "--seed",
            "2",
            "--jobs",
            "1",
        ],
        "",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    for wanted in [
        ": 3 games",
        "seed 2, games 0..3",
        "british wins",
        "americans wins",
        "draws",
        "Turns played: mean",
        "units lost",
        "Victory margin",
    ] {
        assert!(out.contains(wanted), "{wanted}:\n{out}");
    }
    let replay = foe(
        desk.path(),
        &[
            "simulate",
            "henry-hill",
            "--games",
            "3",
            "--seed",
            "2",
            "--replay",
            "1",
        ],
        "",
    );
    assert_eq!(replay.status, 0, "{}", replay.stderr);
    let (first, record) = replay.stdout.split_once("\n\n").expect("a header");
    assert!(
        first.starts_with("Game 1 of the study seeded 2: foe play henry-hill --seed "),
        "{first}"
    );
    assert!(first.ends_with(" --side none --no-pause"), "{first}");
    // The line it prints plays the same game, told the same.
    let seed = first
        .split_once("--seed ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .unwrap();
    let again = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "none",
            "--no-pause",
            "--seed",
            seed,
            "--no-autosave",
        ],
        "",
    );
    assert!(again.stdout.ends_with(record), "{record}");
}

#[test]
fn a_player_assigns_dice_at_a_terminal() {
    let desk = tempfile::tempdir().unwrap();
    let binary = assert_cmd::cargo::cargo_bin("foe");
    let command = format!(
        "env FOE_DATA_DIR={} NO_COLOR=1 TERM=xterm {} play henry-hill --side confederates --seed 3 --no-autosave",
        desk.path().join("data").display(),
        binary.display()
    );
    let mut session = rexpect::spawn(&command, Some(30_000)).expect("spawn foe in a pty");
    session
        .exp_string("assigning dice > ")
        .expect("the dice prompt");
    session.send_line("assign 5 to Jackson").expect("type");
    session
        .exp_string("gives Jackson's Brigade a 5")
        .expect("the die is given");
    session.send_line("?").expect("type");
    session
        .exp_string("waiting for a die")
        .expect("what is unassigned");
    session.send_line("quit").expect("quit");
    session.exp_eof().expect("foe leaves");
}

/// Tab at the seed-001 prompt completes by context, as seed 000's does:
/// a unit's whole name (several words), the word a command takes next,
/// and lists the enemy as the target of a charge.
#[test]
fn tab_completes_by_context_at_a_seed_001_terminal() {
    let desk = tempfile::tempdir().unwrap();
    let binary = assert_cmd::cargo::cargo_bin("foe");
    let command = format!(
        "env FOE_DATA_DIR={} NO_COLOR=1 TERM=xterm {} play guilford-ruinous --side british --seed 5 --no-autosave",
        desk.path().join("data").display(),
        binary.display()
    );
    let mut session = rexpect::spawn(&command, Some(30_000)).expect("spawn foe in a pty");
    session
        .exp_string("british move > ")
        .expect("the move prompt");
    // The enemy, listed as the target of a charge (Tab twice).
    session.send("charge 71st Foot at 1st \t\t").expect("type");
    session.flush().expect("flush");
    session
        .exp_string("1st Line Cannon A")
        .expect("an enemy listed");
    session
        .exp_string("1st VA Militia")
        .expect("another listed");
    // A unit's name completed whole, then the formation.
    session.send("\x15form Jaeg\t").expect("type");
    session.flush().expect("flush");
    session
        .exp_string("form Jaegers")
        .expect("the name completed");
    session.send(" li\t").expect("type");
    session.flush().expect("flush");
    session.exp_string("line").expect("the formation completed");
    session.send_line("").expect("enter");
    session
        .exp_string("Jaegers forms line.")
        .expect("the completed line ran");
    session.send_line("quit").expect("quit");
    session.exp_eof().expect("foe leaves");
}

/// `map --svg FILE` draws a seed-001 game as seed 000's are drawn;
/// `map --svg DIR/` keeps a picture of every phase from then on; a bad
/// `map` line is one message.
#[test]
fn map_svg_draws_a_seed_001_game_and_a_folder_follows_it() {
    let desk = tempfile::tempdir().unwrap();
    let played = foe(
        desk.path(),
        &[
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--seed",
            "5",
            "--no-autosave",
        ],
        "map --svg now.svg\nmap --svg pics/\nmove 71st to 8,9\nend\nmap --svg\nmap svg later.svg\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    for expected in [
        "wrote now.svg",
        "wrote pics/turn-01-british-move.svg",
        "wrote pics/turn-01-british-shoot.svg",
        "expected `map`, `map --svg FILE` or `map --svg DIR/`",
        "wrote later.svg",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    let now = std::fs::read_to_string(desk.path().join("now.svg")).unwrap();
    assert!(now.starts_with("<svg"), "{now}");
    assert!(now.contains("turn 1 of 12: british move"));
    assert!(now.contains("71st Foot"));
    assert!(now.contains("General Cornwallis"));
    let shoot =
        std::fs::read_to_string(desk.path().join("pics/turn-01-british-shoot.svg")).unwrap();
    assert!(
        shoot.contains("class=\"arrow move\""),
        "the move just made is an arrow"
    );
}

/// Seed 002's picture too, between watched turns.
#[test]
fn map_svg_draws_a_watched_seed_002_game() {
    let desk = tempfile::tempdir().unwrap();
    let played = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "none",
            "--seed",
            "3",
            "--no-autosave",
        ],
        "map --svg hill.svg\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played.stdout.contains("wrote hill.svg"),
        "{}",
        played.stdout
    );
    let hill = std::fs::read_to_string(desk.path().join("hill.svg")).unwrap();
    assert!(hill.contains("Sherman"), "{hill}");
}

/// The scripted baseline explains itself as foe's opponent does: the turn
/// report gives each unit's reason with its ruling before what it did,
/// and `why UNIT` tells the baseline's decisions, a unit that stood too.
#[test]
fn the_baseline_says_what_it_did_and_why() {
    let desk = tempfile::tempdir().unwrap();
    let played = foe(
        desk.path(),
        &[
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--baseline",
            "americans",
            "--seed",
            "5",
            "--no-autosave",
        ],
        "move 71st to 8,9\nend\nend\nend\nwhy 1st NC Militia\nwhy Washington\nwhy 71st Foot\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    for expected in [
        "  baseline `1st NC Militia`: turns to face `71st Foot`, the nearest enemy (9.85\" away), 57° off its front (HO23)\n  [foe] 1st NC Militia pivot to face 237°.",
        "  baseline `1st Line Cannon A`: fires at `1st Cannon`, the weakest enemy it can fire at: 100% left, 10.11\" away (HO22)\n  [foe] 1st Line Cannon A fire at 1st Cannon",
        "Turn 1: the baseline's `1st NC Militia` turns to face `71st Foot`, the nearest enemy (9.85\" away), 57° off its front (HO23). Then: 1st NC Militia pivot to face 237°.",
        "Turn 1: the baseline's `Washington's Dragoons` stands: its side defends and never advances (HO24); the nearest enemy, `71st Foot`, is 7.75\" away.",
        "foe has taken no test for `71st Foot` lately",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    // A unit that stood is told by `why`, not in the report.
    assert!(!out.contains("  baseline `Washington's Dragoons`"), "{out}");
    // Seed 002's baseline gives out its dice with its reason.
    let watched = foe(
        desk.path(),
        &[
            "play",
            "henry-hill",
            "--side",
            "none",
            "--baseline",
            "union",
            "--no-pause",
            "--seed",
            "3",
            "--no-autosave",
        ],
        "",
    );
    assert_eq!(watched.status, 0, "{}", watched.stderr);
    assert!(
        watched
            .stdout
            .contains("the highest left goes to the unit nearest the enemy still without one"),
        "{}",
        watched.stdout
    );
}

/// `--dice ask` on seed 001: the player types each die (foe's reaction
/// tests too), with seed 000's asking code; a die out of range, a word,
/// `NaN`, a huge number or a negative one is one line and asked again,
/// never a crash. The autosave keeps every roll, and the resumed game
/// replays them without asking, then asks again for new ones.
#[test]
fn the_players_own_dice_are_asked_checked_and_replayed_in_a_seed_001_game() {
    let desk = tempfile::tempdir().unwrap();
    let mut script = String::from("end\nend\n7\nsix\nNaN\n99999999999999999999\n-1\n?\n");
    let dice = [4, 2, 6, 1, 3, 5, 5, 2, 4, 1, 6, 3, 2, 5, 4, 6, 1, 3, 2];
    for die in dice {
        script.push_str(&format!("{die}\n"));
    }
    let played = foe(
        desk.path(),
        &[
            "--dice",
            "ask",
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--seed",
            "5",
            "--autosave",
            "asked.json",
        ],
        &script,
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    assert!(
        played
            .stdout
            .contains("Dice: you roll your own (--dice ask)"),
        "{}",
        played.stdout
    );
    let err = &played.stderr;
    for expected in [
        "Washington's Dragoons's reaction test: type a D6 roll from 1 to 6: ",
        "`7` is not a D6 roll from 1 to 6\n",
        "`six` is not a D6 roll from 1 to 6\n",
        "`NaN` is not a D6 roll from 1 to 6\n",
        "`99999999999999999999` is not a D6 roll from 1 to 6\n",
        "`-1` is not a D6 roll from 1 to 6\n",
        "foe needs a roll of the D6 for Washington's Dragoons's reaction test; an ordinary six-sided die",
        "(no more input: foe rolls from here on)",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    // The player's rolls were used: the first reaction test rolled a 4.
    assert!(
        played
            .stdout
            .contains("foe tests `Washington's Dragoons`: die 4,"),
        "{}",
        played.stdout
    );
    let text = std::fs::read_to_string(desk.path().join("asked.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(save["asked"], true, "{text}");
    // Version 4, the one format: a foe from before it (versions 1 to 3,
    // which could not check what made the game, or read only one rule
    // set's saves) refuses it rather than replay it unchecked.
    assert_eq!(save["version"], 4, "{text}");
    assert_eq!(save["format"], "foe-save", "{text}");
    let rolls: Vec<u64> = save["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    let typed: Vec<u64> = dice.iter().map(|&d| d as u64).collect();
    assert_eq!(rolls[..dice.len()], typed[..], "{text}");
    // Resumed: the record replays (nothing asked), the game is where it
    // was, and new rolls are asked for again.
    let resumed = foe(
        desk.path(),
        &["play", "--resume", "asked.json"],
        "status\nundo\nend\n3\nquit\n",
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed
            .stdout
            .contains("Dice: you roll your own, as when the game was saved"),
        "{}",
        resumed.stdout
    );
    assert!(resumed.stdout.contains("Taken back"), "{}", resumed.stdout);
    let status = |out: &str| {
        out.split("Turn ")
            .nth(1)
            .map(|rest| rest.split("\nturn ").next().unwrap_or("").to_string())
    };
    assert_eq!(
        status(&resumed.stdout).map(|s| s.lines().count() > 10),
        Some(true)
    );
    assert!(
        resumed
            .stderr
            .starts_with("Washington's Dragoons's reaction test: type a D6 roll"),
        "asked again only after `undo` and `end`: {}",
        resumed.stderr
    );
    assert!(
        resumed
            .stdout
            .contains("foe tests `Washington's Dragoons`: die 3,"),
        "{}",
        resumed.stdout
    );
    // A corrupted record is one line, not a panic.
    let mut broken = save.clone();
    broken["rolls"][0] = 9.into();
    std::fs::write(
        desk.path().join("broken.json"),
        serde_json::to_string(&broken).unwrap(),
    )
    .unwrap();
    let refused = foe(desk.path(), &["play", "--resume", "broken.json"], "");
    assert_eq!(refused.status, 1, "{}", refused.stderr);
    assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
    assert_eq!(
        refused.stderr,
        "error: `broken.json`: the saved game does not replay: action 2 of the save: recorded roll 9 is not a face of the D6\n"
    );
}

/// Stopped at a dice prompt in foe's turn (Ctrl-C, a closed terminal:
/// here the process is killed there), a `--dice ask` game's autosave was
/// written after the player's action but before foe's rolls. It resumes:
/// the player rolls the rest of foe's turn, and is shown what foe did.
#[test]
fn an_asked_game_stopped_at_a_dice_prompt_in_foes_turn_resumes() {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let desk = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("foe"))
        .args([
            "--dice",
            "ask",
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--seed",
            "5",
            "--autosave",
            "cut.json",
        ])
        .env("FOE_DATA_DIR", desk.path().join("data"))
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .current_dir(desk.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("foe runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"end\nend\n4\n").unwrap();
    stdin.flush().unwrap();
    // Wait for the second dice prompt (the first was answered), then stop
    // foe there, input still open.
    let mut stderr = child.stderr.take().unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while seen.matches("type a D6 roll").count() < 2 {
        let n = stderr.read(&mut buffer).unwrap();
        assert!(n > 0, "foe stopped before the second prompt: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    let text = std::fs::read_to_string(desk.path().join("cut.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    // No roll yet (an empty record is left out of the file).
    assert_eq!(save["asked"], true, "{text}");
    assert!(save.get("rolls").is_none(), "{text}");
    assert_eq!(save["actions"].as_array().map(Vec::len), Some(2), "{text}");
    let resumed = foe(
        desk.path(),
        &["play", "--resume", "cut.json"],
        "4\n2\n6\n1\n3\n5\n5\n2\n4\n1\n6\n3\n2\n5\n4\n6\n1\n3\n2\n6\n6\n6\n6\n6\n6\n6\n6\n6\n6\n6\nquit\n",
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed
            .stderr
            .starts_with("Washington's Dragoons's reaction test: type a D6 roll from 1 to 6: "),
        "{}",
        resumed.stderr
    );
    for expected in [
        "Resumed: 2 of your actions replayed.",
        "The save ended during foe's turn: foe played the rest of it with the dice you rolled:",
        "foe tests `Washington's Dragoons`: die 4,",
    ] {
        assert!(
            resumed.stdout.contains(expected),
            "{expected:?} in\n{}",
            resumed.stdout
        );
    }
    // The autosave now holds the rolls and resumes with nothing to ask.
    let text = std::fs::read_to_string(desk.path().join("cut.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(save["rolls"].as_array().unwrap().len() > 2, "{text}");
    let again = foe(desk.path(), &["play", "--resume", "cut.json"], "quit\n");
    assert_eq!(again.status, 0, "{}", again.stderr);
    assert_eq!(again.stderr, "");
}

/// A seeded save resumed with `--dice ask` says what happens: the game so
/// far stays the seed's, the player's dice roll from here, and the save
/// keeps them (it then resumes as an asked game, asking nothing it has).
#[test]
fn a_seeded_save_resumed_with_dice_ask_says_the_dice_change_here() {
    let desk = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "guilford-ruinous",
        "--side",
        "british",
        "--seed",
        "5",
        "--autosave",
        "seeded.json",
    ];
    let played = foe(desk.path(), &args, "end\nquit\n");
    assert_eq!(played.status, 0, "{}", played.stderr);
    let text = std::fs::read_to_string(desk.path().join("seeded.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        save["version"], 4,
        "older foes, which cannot check what made it, refuse it: {text}"
    );
    let resumed = foe(
        desk.path(),
        &["--dice", "ask", "play", "--resume", "seeded.json"],
        "end\n4\n2\n6\n1\n3\n5\n5\n2\n4\n1\n6\n3\nquit\n",
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed.stdout.contains(
            "Dice: the game so far was rolled from its seed; from here you roll your own (--dice ask) and the saves keep your rolls;"
        ),
        "{}",
        resumed.stdout
    );
    assert!(!resumed.stdout.contains("as when the game was saved"));
    assert!(
        resumed
            .stdout
            .contains("foe tests `Washington's Dragoons`: die 4,"),
        "{}",
        resumed.stdout
    );
    let text = std::fs::read_to_string(desk.path().join("seeded.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(save["asked"], true, "{text}");
    assert_eq!(save["version"], 4, "{text}");
    let again = foe(desk.path(), &["play", "--resume", "seeded.json"], "quit\n");
    assert_eq!(again.status, 0, "{}", again.stderr);
    assert!(
        again
            .stdout
            .contains("Dice: you roll your own, as when the game was saved"),
        "{}",
        again.stdout
    );
}

/// Watching (`--side none`), the pause between turns takes `save FILE`
/// (written whole, said so; it resumes to the same turn) and refuses
/// `undo` in one line.
#[test]
fn save_at_the_watching_pause_writes_a_save_that_resumes() {
    let desk = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "guilford-ruinous",
        "--side",
        "none",
        "--seed",
        "5",
        "--no-autosave",
    ];
    let watched = foe(desk.path(), &args, "undo\nsave watched.json\nquit\n");
    assert_eq!(watched.status, 0, "{}", watched.stderr);
    for expected in [
        "You are watching: foe commands both sides. Enter goes on.\n",
        "Saved to watched.json; `foe play --resume watched.json` continues it.\n",
    ] {
        assert!(
            watched.stdout.contains(expected),
            "{expected:?} in\n{}",
            watched.stdout
        );
    }
    // It resumes at the pause it was saved at (turn 2), not at the end;
    // the watched game goes on from there as it would have.
    let resumed = foe(
        desk.path(),
        &["play", "--resume", "watched.json"],
        "\nquit\n",
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    for expected in [
        "Resumed: 0 of your actions replayed.\nTurn 2 of 12:",
        "-- turn 3 --\n",
    ] {
        assert!(
            resumed.stdout.contains(expected),
            "{expected:?} in\n{}",
            resumed.stdout
        );
    }
    assert!(!resumed.stdout.contains("Game over"), "{}", resumed.stdout);
    let whole = foe(desk.path(), &args, "\n\nquit\n");
    let turn_2 = |out: &str| {
        out.split("-- turn 3 --")
            .nth(1)
            .and_then(|rest| rest.split("(Enter").next())
            .map(str::to_string)
    };
    assert_eq!(turn_2(&resumed.stdout), turn_2(&whole.stdout));
    assert!(turn_2(&whole.stdout).is_some_and(|t| t.contains("[foe]")));
}

/// With `--dice ask`, seed 002's set-up asks for dice: the title and the
/// dice line are said before the first roll is asked for (standard output
/// and standard error, here one stream, in the order written).
#[test]
fn the_title_and_the_dice_line_come_before_seed_002s_set_up_dice() {
    let desk = tempfile::tempdir().unwrap();
    let args = [
        "--dice",
        "ask",
        "play",
        "henry-hill",
        "--seed",
        "3",
        "--no-autosave",
    ];
    let output = super::support::foe_in_one_stream(desk.path(), &args, "");
    let text = &output.stdout;
    assert_eq!(output.status, 0, "{text}");
    let title = text.find("Henry House Hill, First Bull Run");
    let dice = text.find("Dice: you roll your own (--dice ask)");
    let asked = text.find("activation dice: type 10 D6 rolls from 1 to 6, on one line");
    assert!(
        title.is_some() && dice.is_some() && asked.is_some(),
        "{text}"
    );
    assert!(title < dice && dice < asked, "{text}");
    assert_eq!(
        text.matches("Henry House Hill, First Bull Run").count(),
        1,
        "{text}"
    );
    assert_eq!(text.matches("Dice: you roll").count(), 1, "{text}");
}

/// With `--dice ask`, one line may carry many dice: seed 002's eighteen
/// activation dice are typed at once, each side's share named where it is
/// used, and they are the dice the turn gives out.
#[test]
fn several_dice_go_on_one_line_and_each_is_named() {
    let desk = tempfile::tempdir().unwrap();
    let args = [
        "--dice",
        "ask",
        "play",
        "henry-hill",
        "--seed",
        "3",
        "--no-autosave",
    ];
    let input = "6 6 6 6 5 5 5 5 6 5 4,4,4,4 3 3 3 3\nquit\n";
    let output = super::support::foe_in_one_stream(desk.path(), &args, input);
    let text = &output.stdout;
    assert_eq!(output.status, 0, "{text}");
    assert_eq!(text.matches("activation dice: type").count(), 1, "{text}");
    assert!(
        text.contains("confederates's activation dice: 4 4 4 4 3 3 3 3 (from the line before)"),
        "{text}"
    );
    assert!(
        text.contains("activation dice for union: 6, 6, 6, 6, 6, 5, 5, 5, 5, 5"),
        "{text}"
    );
    assert!(
        text.contains("activation dice for confederates: 4, 4, 4, 4, 3, 3, 3, 3"),
        "{text}"
    );
    assert!(!text.contains("foe needs a roll"), "{text}");
}

/// A seed-001 save whose scenario was swapped for a seed-000 one (a save
/// edited by hand) is refused in one line naming both, not replayed as
/// another game.
#[test]
fn a_save_whose_scenario_is_under_another_engine_is_refused() {
    let desk = tempfile::tempdir().unwrap();
    let played = foe(
        desk.path(),
        &[
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--seed",
            "3",
            "--autosave",
            "s.json",
        ],
        "quit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let save = std::fs::read_to_string(desk.path().join("s.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&save).unwrap();
    let (_, guilford) = foe::scenario::builtin("guilford").unwrap();
    json["scenario"]["text"] = serde_json::Value::String(guilford.to_string());
    std::fs::write(desk.path().join("s.json"), json.to_string()).unwrap();
    let resumed = foe(desk.path(), &["play", "--resume", "s.json"], "quit\n");
    assert_ne!(resumed.status, 0);
    assert!(
        resumed
            .stderr
            .contains("is a seed 001 game, but its scenario is played under rule set `ohw-awi`"),
        "{}",
        resumed.stderr
    );
    assert_eq!(
        resumed.stderr.trim().lines().count(),
        1,
        "{}",
        resumed.stderr
    );
}

/// A number picks from the last `?` list, and only while the game stands
/// where it stood when that list was shown: after an action the old
/// numbers would name other actions, so they are refused with the command
/// that lists them afresh; before any list there is nothing to pick.
#[test]
fn a_number_never_changes_meaning_under_the_player() {
    let desk = tempfile::tempdir().unwrap();
    let script = "5\n? form\n1\n2\n? form\n1\nsave picked.json\nquit\n";
    let played = foe(
        desk.path(),
        &[
            "play",
            "guilford-ruinous",
            "--side",
            "british",
            "--seed",
            "3",
            "--no-autosave",
        ],
        script,
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    assert_eq!(out.matches("no list to pick from").count(), 1, "{out}");
    assert_eq!(
        out.matches("the last `?` list is out of date").count(),
        1,
        "{out}"
    );
    let text = std::fs::read_to_string(desk.path().join("picked.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        save["actions"].as_array().map(Vec::len),
        Some(2),
        "the two picks from fresh lists acted, the stale one did not: {text}"
    );
}

/// `load FILE` at the one prompt: a saved game of any rule set takes this
/// one's place and goes on saving here; a file that is no save is one
/// line, and the game goes on.
#[test]
fn load_takes_a_saved_game_in_place_of_this_one() {
    let desk = tempfile::tempdir().unwrap();
    let henry = foe(
        desk.path(),
        &["play", "henry-hill", "--seed", "2", "--no-autosave"],
        "auto\nsave hh.json\nquit\n",
    );
    assert_eq!(henry.status, 0, "{}", henry.stderr);
    let guilford = foe(
        desk.path(),
        &["play", "guilford", "--seed", "2", "--no-autosave"],
        "save g.json\nquit\n",
    );
    assert_eq!(guilford.status, 0, "{}", guilford.stderr);
    std::fs::write(desk.path().join("junk.json"), "{\"format\": 3}").unwrap();
    let played = foe(
        desk.path(),
        &[
            "play",
            "guilford-ruinous",
            "--seed",
            "1",
            "--autosave",
            "here.json",
        ],
        "load g.json\nload junk.json\nload hh.json\nstatus\nquit\n",
    );
    assert_eq!(played.status, 0, "{}", played.stderr);
    let out = &played.stdout;
    assert!(
        out.contains(
            "loaded g.json: Guilford Courthouse, 15 March 1781, turn 1, british movement."
        ),
        "a seed-000 save loads into a seed-001 game: {out}"
    );
    assert!(
        out.contains("error: `junk.json` is not a foe play save: its `format` is not foe's"),
        "{out}"
    );
    assert!(
        out.contains(
            "loaded hh.json: Henry House Hill, First Bull Run, 21 July 1861, turn 1, activation."
        ),
        "{out}"
    );
    assert!(
        out.contains("Palmer's Regular Cavalry"),
        "status shows the loaded game: {out}"
    );
    // The loaded game is saved where this one was: resuming it is Henry
    // House Hill.
    let resumed = foe(desk.path(), &["play", "--resume", "here.json"], "quit\n");
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed.stdout.starts_with("Henry House Hill"),
        "{}",
        resumed.stdout
    );
}
