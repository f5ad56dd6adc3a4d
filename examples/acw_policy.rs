//! Measures foe's seed-002 dice policy against a random assignment: on
//! Henry House Hill, each side in turn gives out its dice at random while
//! the other keeps the policy, against games where both use the policy.
//! `cargo run --release --example acw_policy -- 400` prints the figures the
//! README quotes.

use foe::host::run::play_one_with;
use foe::ruleset::Ruleset;
use foe::tables::Tables;
use foe::yaml::Source;
use std::sync::Arc;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(400);
    let (file, text) = foe::scenario::builtin("henry-hill").expect("built in");
    let scenario = Arc::new(
        foe::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid scenario"),
    );
    let tables = Arc::new(Tables::embedded());
    for random in [vec![], vec![0], vec![1]] {
        let (mut wins, mut lost) = ([0u64; 3], [0u64; 2]);
        for index in 0..games {
            let (result, _) = play_one_with(&scenario, &tables, 1861, index, random.clone())
                .expect("a game plays");
            wins[result.winner.map_or(2, |w| w.min(1))] += 1;
            for (sum, lost_now) in lost.iter_mut().zip(&result.lost) {
                *sum += u64::from(*lost_now);
            }
        }
        let label = match random.first() {
            None => "both sides by the policy".to_string(),
            Some(side) => format!("{} at random", scenario.sides[*side].name),
        };
        let pct = |n: u64| 100.0 * n as f64 / games as f64;
        let ci = |n: u64| {
            let (lo, hi) = foe::stats::wilson(n, games, 1.96);
            format!("{:.1}-{:.1}", lo * 100.0, hi * 100.0)
        };
        println!(
            "{label:<28} {} win {:5.1}% ({}), {} win {:5.1}% ({}), draws {:5.1}%; units lost per game {:.2} / {:.2}",
            scenario.sides[0].name,
            pct(wins[0]),
            ci(wins[0]),
            scenario.sides[1].name,
            pct(wins[1]),
            ci(wins[1]),
            pct(wins[2]),
            lost[0] as f64 / games as f64,
            lost[1] as f64 / games as f64,
        );
    }
}
