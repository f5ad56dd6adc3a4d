//! Statistics for many games: confidence intervals, and the per-game seeds
//! that make a large study reproducible whatever way it is split up.

/// The z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `successes` out of `trials` at `z`.
/// Better than the normal approximation near 0% and 100% and for small
/// samples; `(0, 1)` when there are no trials.
pub fn wilson(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The seed of game `index` in a study seeded with `base`: a SplitMix64
/// mix, so neighbouring games get unrelated streams and game `i` has the
/// same seed however the study is split into jobs or shards.
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The median of a list of whole numbers (the mean of the middle two for an
/// even count); `None` when empty.
pub fn median(values: &[u32]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let middle = sorted.len() / 2;
    Some(if sorted.len() % 2 == 0 {
        (f64::from(sorted[middle - 1]) + f64::from(sorted[middle])) / 2.0
    } else {
        f64::from(sorted[middle])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_matches_known_binomial_cases() {
        let (lo, hi) = wilson(50, 100, Z95);
        assert!(close(lo, 0.4038) && close(hi, 0.5962), "{lo} {hi}");
        let (lo, hi) = wilson(0, 10, Z95);
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        let (lo, hi) = wilson(9, 10, Z95);
        assert!(close(lo, 0.5958) && close(hi, 0.9821), "{lo} {hi}");
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn wilson_contains_the_observed_rate_and_narrows_with_more_games() {
        for (k, n) in [(1, 3), (30, 100), (300, 1000), (999, 1000)] {
            let (lo, hi) = wilson(k, n, Z95);
            let p = k as f64 / n as f64;
            assert!(lo <= p && p <= hi);
        }
        let narrow = wilson(300, 1000, Z95);
        let wide = wilson(30, 100, Z95);
        assert!(narrow.1 - narrow.0 < wide.1 - wide.0);
    }

    #[test]
    fn game_seeds_are_fixed_and_distinct() {
        // Pinned: saved studies and `--replay i` depend on these values.
        assert_eq!(game_seed(1781, 0), 17_645_300_101_933_861_220);
        assert_eq!(game_seed(1781, 1), 4_351_008_610_031_796_380);
        let seeds: std::collections::BTreeSet<u64> =
            (0..10_000).map(|i| game_seed(1781, i)).collect();
        assert_eq!(seeds.len(), 10_000);
        assert_ne!(game_seed(1, 1), game_seed(2, 1));
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3, 1, 2]), Some(2.0));
        assert_eq!(median(&[4, 1, 2, 3]), Some(2.5));
    }
}
