//! Random legal play, the rules engine alone (as `foe simulate --bench`
//! measures it): `randomplay NAME GAMES`, for profiling `legal_actions`
//! under cachegrind (`benches/instructions.sh randomplay` counts the
//! instructions a call). Prints the games per second and the actions
//! listed.

// The same allocator as the `foe` binary, so a profile is the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use foe::dice::Seeded;
use foe::rules::{Action, GameSetup, GameState, RulesTable};
use foe::ruleset::Ruleset;
use foe::scenario;
use foe::tables::Tables;
use foe::yaml::Source;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "guilford".into());
    let games: u64 = std::env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    let (file, text) = scenario::builtin(&name).expect("built in");
    let scenario = scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    let ruleset = &scenario.battlefield.ruleset;
    let rules = Arc::new(
        RulesTable::builtin(&ruleset.name, ruleset)
            .unwrap()
            .unwrap(),
    );
    let tables = Tables::embedded();
    let setup = GameSetup::from_scenario(&scenario).unwrap();
    let start = std::time::Instant::now();
    let (mut calls, mut listed) = (0u64, 0u64);
    for seed in 0..games {
        let mut dice = Seeded::new(seed);
        let (mut state, _) =
            GameState::new(setup.clone(), rules.clone(), &tables.characters, &mut dice).unwrap();
        let mut chooser = rand::rngs::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let mut steps = 0;
        while !state.is_over() && steps < 20_000 {
            steps += 1;
            let legal = state.legal_actions();
            calls += 1;
            listed += legal.len() as u64;
            let action = if chooser.random_range(0..3) == 0 || legal.is_empty() {
                Action::EndPhase
            } else {
                legal[chooser.random_range(0..legal.len())].clone()
            };
            let _ = state.apply(&action, &mut dice);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: {games} games of random play in {secs:.2}s = {:.1} games/s; {calls} legal_actions calls, {listed} actions listed",
        games as f64 / secs
    );
}
