//! Self-play speed: whole seeded games per second
//! on one core with the opponent commanding both sides, for Guilford
//! Courthouse and the small `learning` scenario, measured in the same run so
//! their ratio means something on any machine. Games share one `FieldCache`,
//! as a simulation does.
//!
//! `cargo bench --bench selfplay -- SECONDS` measures each figure for that
//! long (default 3).

// The same allocator as the `foe` binary, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use foe::dice::Seeded;
use foe::host::opponent::awi::{FieldCache, opponents_sharing, self_play};
use foe::rules::{GameSetup, GameState, RulesTable};
use foe::ruleset::Ruleset;
use foe::scenario;
use foe::tables::Tables;
use foe::yaml::Source;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// Games played, seconds taken and mean turns for `name` over about `seconds`.
fn games_per_second(name: &str, seconds: f64) -> (u64, f64, f64) {
    let (file, text) = scenario::builtin(name).expect("built in");
    let scenario = scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
    let ruleset = &scenario.battlefield.ruleset;
    let rules = Arc::new(
        RulesTable::builtin(&ruleset.name, ruleset)
            .expect("built in")
            .expect("valid"),
    );
    let tables = Arc::new(Tables::embedded());
    let setup = GameSetup::from_scenario(&scenario).expect("valid");
    let cache = FieldCache::default();
    let play = |seed: u64| {
        let mut dice = Seeded::new(seed);
        let (mut state, _) =
            GameState::new(setup.clone(), rules.clone(), &tables.characters, &mut dice)
                .expect("starts");
        let mut opponents = opponents_sharing(&tables, &scenario, &state, &cache);
        black_box(self_play(&mut state, &mut opponents, &mut dice)).turns
    };
    // Warm up: the shared fields are computed once per run, not per game.
    play(u64::MAX);
    let start = Instant::now();
    let (mut n_games, mut turns) = (0u64, 0u64);
    while n_games < 5 || start.elapsed().as_secs_f64() < seconds {
        turns += play(n_games) as u64;
        n_games += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    (n_games, secs, turns as f64 / n_games as f64)
}

fn main() {
    let seconds = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse::<f64>().ok())
        .unwrap_or(3.0);
    println!("self-play on one core, the opponent commanding both sides, ~{seconds}s each");
    let mut rates = Vec::new();
    for name in ["guilford", "learning"] {
        let (n_games, secs, turns) = games_per_second(name, seconds);
        let rate = n_games as f64 / secs;
        println!(
            "  {name:<9} {rate:>9.1} games/s  ({n_games} games in {secs:.2}s, mean {turns:.1} turns)"
        );
        rates.push(rate);
    }
    println!("  guilford/learning = {:.3}", rates[0] / rates[1]);
}
