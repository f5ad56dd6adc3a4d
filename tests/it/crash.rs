//! A short crash test in `cargo test` (the long one is
//! `scripts/crash-test.sh 200`): `foe play guilford` and `foe companion`
//! killed with `kill -9` after a random acknowledged line; each autosave
//! parses, holds every acknowledged action, resumes, and leaves no
//! temporary file once the resumed game has written.

#[path = "../../examples/crash/kill.rs"]
mod kill;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

#[test]
fn games_killed_mid_play_lose_nothing_acknowledged() {
    let program = std::path::PathBuf::from(env!("CARGO_BIN_EXE_foe"));
    let scratch = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    let mut acknowledged = 0;
    for number in 0..4u64 {
        let repl = if number == 3 {
            kill::Repl::Companion
        } else {
            kill::Repl::Play
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1_000 + number);
        let folder = scratch.path().join(format!("kill-{number}"));
        let found = kill::kill_once(&program, None, &folder, repl, &mut rng);
        acknowledged += found.acknowledged;
        problems.extend(
            found
                .problems
                .iter()
                .map(|problem| format!("kill {number} ({repl:?}): {problem}")),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(acknowledged >= 4, "{acknowledged} lines acknowledged");
}
