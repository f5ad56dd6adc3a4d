//! A player's turn at the `foe play` prompt with its helpful commands:
//! `victory`, `help fire`, one unit's choices, `forward max` and `towards
//! UNIT max`, an alias, and a suggestion pasted back with its names.

use assert_cmd::Command;
use std::path::Path;

/// The sample turn of the README's play section.
pub const SAMPLE_TURN: &str = "\
victory
help fire
move b4 ?
move 23rd forward max
move guards towards a4 max
mv b3 forward 3
end
fire ?
fire B1 (Royal Artillery) A3 (Singleton's Gun)
end turn
victory
quit
";

#[test]
fn a_sample_turn_with_the_players_commands_matches_its_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("foe")
        .unwrap()
        .args(["play", "--seed", "1781", "--no-autosave"])
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .current_dir(dir.path())
        .write_stdin(SAMPLE_TURN)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/play_player_turn.txt");
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, stdout.as_ref()).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(stdout, expected, "\n--- got ---\n{stdout}");
    // Nothing the player typed was refused or misread.
    assert!(!stdout.contains("refused"), "{stdout}");
    assert!(!stdout.contains("error"), "{stdout}");
}

/// A whole Guilford game typed the way a player types (`forward max`,
/// `towards UNIT max`, `?` lines pasted back; no coordinates worked out by
/// hand), as a small program played it (`src/host/whole_game.rs` keeps the
/// frozen script honest): it plays to its verdict without one refusal, and
/// its whole transcript is pinned.
#[test]
fn a_whole_guilford_game_typed_as_a_player_types_plays_to_its_verdict_unrefused() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data");
    let script = std::fs::read_to_string(data.join("play_whole_guilford.in")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("foe")
        .unwrap()
        .args(["play", "--seed", "1781", "--no-autosave"])
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .current_dir(dir.path())
        .write_stdin(script)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let path = data.join("play_whole_guilford.txt");
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, stdout.as_ref()).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(stdout, expected, "\n--- got ---\n{stdout}");
    assert!(!stdout.contains("refused"), "{stdout}");
    assert!(!stdout.contains("error"), "{stdout}");
    assert!(
        stdout.contains("\nVictory to the ") || stdout.contains("\nA draw: "),
        "{stdout}"
    );
}

/// The README's turn with the refusals that help, `route`, `victory`,
/// `forward max`, a pasted `?` line and `rewind`.
pub const HELPFUL_TURN: &str = "\
victory
what a2
move b5 to 3,16
move B5 towards 3,16 max
route b3 to 40,17
move b3 forward max
general cornwallis to 30,30
end
fire ?
fire B1 (Royal Artillery) A3 (Singleton's Gun)
end turn
move B3 towards A5 max
end turn
move b3 to 36,13
pivot b3 towards a5
charge b3 a5
history
rewind 2
quit
";

#[test]
fn a_turn_with_the_refusals_that_help_route_and_rewind_matches_its_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("foe")
        .unwrap()
        .args(["play", "--seed", "1781", "--no-autosave"])
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .current_dir(dir.path())
        .write_stdin(HELPFUL_TURN)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/play_helpful_turn.txt");
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, stdout.as_ref()).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(stdout, expected, "\n--- got ---\n{stdout}");
}
