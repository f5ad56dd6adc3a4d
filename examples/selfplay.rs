//! Self-play speed: whole games per second on one core (for profiling
//! under callgrind: `selfplay NAME GAMES [verbose]`, NAME a built-in
//! scenario or a scenario file). It also prints the unit-bounds played
//! (one opponent decision each), which `benches/instructions.sh` divides by.

// The same allocator as the `foe` binary, so a profile is the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use foe::dice::Seeded;
use foe::host::opponent::awi::{FieldCache, opponents_sharing, self_play};
use foe::rules::{GameSetup, GameState, RulesTable};
use foe::ruleset::Ruleset;
use foe::scenario;
use foe::tables::Tables;
use foe::yaml::Source;
use std::sync::Arc;

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "guilford".into());
    let games: u64 = std::env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let verbose = std::env::args().nth(3).is_some();
    let scenario = match scenario::builtin(&name) {
        Some((file, text)) => scenario::load(Source::new(file, text), Ruleset::builtin),
        None => {
            let text = std::fs::read_to_string(&name).expect("a built-in name or a file");
            scenario::load(Source::new(&name, &text), Ruleset::builtin)
        }
    }
    .unwrap();
    let ruleset = &scenario.battlefield.ruleset;
    let rules = Arc::new(
        RulesTable::builtin(&ruleset.name, ruleset)
            .unwrap()
            .unwrap(),
    );
    let tables = Arc::new(Tables::embedded());
    let setup = GameSetup::from_scenario(&scenario).unwrap();
    let start = std::time::Instant::now();
    let mut wins = [0u32; 3];
    let mut turns = 0;
    let mut unit_bounds = 0;
    let cache = FieldCache::default();
    for seed in 0..games {
        let mut dice = Seeded::new(seed);
        let (mut state, _) =
            GameState::new(setup.clone(), rules.clone(), &tables.characters, &mut dice).unwrap();
        let mut opponents = opponents_sharing(&tables, &scenario, &state, &cache);
        let record = self_play(&mut state, &mut opponents, &mut dice);
        turns += record.turns;
        unit_bounds += record
            .reports
            .iter()
            .map(|report| report.decisions.len())
            .sum::<usize>();
        match record.outcome {
            Some(foe::rules::Outcome::Won { side, .. }) => wins[side] += 1,
            _ => wins[2] += 1,
        }
        if verbose {
            for report in &record.reports {
                for d in &report.decisions {
                    println!(
                        "t{} {} {:?} total {} -> {} | {} | {:?}",
                        d.turn,
                        d.name,
                        d.outcome.order,
                        d.outcome.total,
                        d.plan,
                        d.actions.len(),
                        d.refused
                            .iter()
                            .map(|r| r.1.to_string())
                            .collect::<Vec<_>>()
                    );
                }
                for g in &report.generals {
                    println!("t{} GEN {} {}", report.turn, g.name, g.does);
                }
            }
            println!(
                "{:?} lost {:?}",
                record.outcome,
                (state.lost(0), state.lost(1))
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: {games} games in {secs:.2}s = {:.1} games/s; wins {:?} (side0, side1, draw); mean turns {:.1}; unit-bounds {unit_bounds}",
        games as f64 / secs,
        wins,
        turns as f64 / games as f64
    );
}
