//! A player's turn at the `foe play` prompt with the commands of issue 16:
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
