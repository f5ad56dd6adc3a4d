use super::set::{Assignment, apply_to_text};
use super::*;
use crate::ruleset::Ruleset;
use crate::yaml::Source;
use std::sync::atomic::AtomicBool;

fn study(name: &str, sets: &[&str]) -> Study {
    let (file, text) = crate::scenario::builtin(name).expect("built in");
    let assignments: Vec<Assignment> = sets
        .iter()
        .map(|set| Assignment::parse(set).expect("KEY=VALUE"))
        .collect();
    let text = apply_to_text(text, &assignments).expect("applies");
    let scenario =
        crate::scenario::load(Source::new(file, &text), Ruleset::builtin).expect("valid");
    let tables = crate::tables::Tables::load(&crate::tables::embedded_texts()).expect("tables");
    Study::new(Arc::new(scenario), Arc::new(tables), 1781, Vec::new()).expect("engine")
}

fn run_on(study: &Study, jobs: usize, games: Range<u64>) -> RunResult {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .expect("pool");
    pool.install(|| study.run(games, true, &AtomicBool::new(false), &|| {}))
        .expect("runs")
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    let study = study("guilford", &[]);
    let one = run_on(&study, 1, 0..12);
    let two = run_on(&study, 2, 0..12);
    assert_eq!(one, two);
    assert_eq!(one.aggregate.games, 12);
    assert_eq!(one.aggregate.ranges, GameRanges(vec![(0, 12)]));
    assert_eq!(one.games.len(), 12);
}

#[test]
fn merged_shards_equal_one_run_over_both_ranges() {
    let study = study("learning", &[]);
    let whole = run_on(&study, 2, 0..20).aggregate;
    let mut first = run_on(&study, 1, 0..7).aggregate;
    let second = run_on(&study, 2, 7..20).aggregate;
    first.merge(&second).expect("different games");
    assert_eq!(first, whole);
    // Merged the other way round too.
    let mut second_first = run_on(&study, 1, 7..20).aggregate;
    second_first
        .merge(&run_on(&study, 1, 0..7).aggregate)
        .expect("different games");
    assert_eq!(second_first, whole);
    let overlap = run_on(&study, 1, 5..9).aggregate;
    assert_eq!(
        whole
            .clone()
            .merge(&overlap)
            .expect_err("overlap")
            .to_string(),
        "both runs played games 5..9: shards must cover different games"
    );
}

#[test]
fn game_i_is_the_match_with_its_seed() {
    let study = study("learning", &[]);
    let summary = study.summarize(3).expect("plays");
    assert_eq!(summary.seed, crate::stats::game_seed(1781, 3));
    // The game `foe play learning --seed S --side none` watches: the
    // runner on the rule set's own table, stepped as the prompt steps it.
    let mut watched =
        crate::host::run::Start::new(study.scenario.clone(), study.tables.clone(), summary.seed)
            .begin()
            .expect("starts");
    while watched.step_foe().expect("foe plays") {}
    assert_eq!(GameSummary::of(&watched, 3), summary);
}

#[test]
fn set_turns_ends_games_by_that_turn() {
    let short = study("guilford", &["turns=3"]);
    let result = run_on(&short, 2, 0..6);
    assert!(result.games.iter().all(|game| game.turns <= 3));
    assert_eq!(result.aggregate.turns.keys().max(), Some(&3));
}

#[test]
fn a_stopped_run_plays_no_more_games() {
    let study = study("learning", &[]);
    let stop = AtomicBool::new(true);
    let result = study.run(0..50, false, &stop, &|| {}).expect("runs");
    assert!(result.stopped);
    assert_eq!(result.aggregate.games, 0);
}

#[test]
fn aggregate_rates_carry_their_wilson_interval() {
    let mut aggregate = Aggregate::default();
    for index in 0..100 {
        aggregate.add(&GameSummary {
            index,
            seed: index,
            winner: (index % 2 == 0).then_some(0),
            condition: (index % 2 == 0).then_some(1),
            turns: if index < 50 { 10 } else { 15 },
            units_lost: vec![1, 2],
            hits: vec![3, 4],
            charges: vec![1, 0],
            routed: vec![index % 4 == 0, false],
            exited: vec![false, false],
            rallies_used: vec![2],
            orders: [("charge".to_string(), 1)].into(),
            stuck: [("militia".to_string(), [4, 1])].into(),
            hemmed: [("militia".to_string(), [2, 1])].into(),
            margin: None,
            conduct: std::collections::BTreeMap::new(),
        });
    }
    assert_eq!(aggregate.stuck["militia"], [400, 100]);
    assert_eq!(aggregate.hemmed["militia"], [200, 100]);
    let mut twice = aggregate.clone();
    twice.absorb(&aggregate);
    assert_eq!(twice.hemmed["militia"], [400, 200]);
    let rate = aggregate.win_rate(0);
    assert!((rate.rate - 0.5).abs() < 1e-12);
    // Wilson, 50 of 100 at 95%: 0.4038 to 0.5962.
    assert!((rate.low - 0.4038).abs() < 5e-4 && (rate.high - 0.5962).abs() < 5e-4);
    assert_eq!(aggregate.draws, 50);
    assert_eq!(aggregate.wins, vec![50, 0]);
    assert_eq!(aggregate.conditions, vec![0, 50]);
    assert_eq!(aggregate.median_turns(), Some(12.5));
    assert_eq!(aggregate.mean_turns(), Some(12.5));
    assert_eq!(aggregate.routed, vec![25, 0]);
    assert_eq!(aggregate.orders["charge"], 100);
}

#[test]
fn game_ranges_normalize_and_overlap() {
    let mut ranges = GameRanges::default();
    for index in [5, 3, 4, 9, 0] {
        ranges.insert(index);
    }
    assert_eq!(ranges, GameRanges(vec![(0, 1), (3, 6), (9, 10)]));
    assert_eq!(ranges.count(), 5);
    assert_eq!(ranges.to_string(), "0, 3..6, 9");
    assert!(ranges.overlaps(&GameRanges(vec![(5, 7)])));
    assert!(!ranges.overlaps(&GameRanges(vec![(6, 9)])));
}

/// Seed 000's games are summed from the runner's record like every rule
/// set's: its counts agree with seed 000's own turn-by-turn record and the
/// units' final states, reinforcements that arrive during the game
/// included (Monongahela's), and how foe carried out its orders is counted
/// as under seeds 001 and 002.
#[test]
fn a_seed_000_summary_agrees_with_its_own_record() {
    use crate::host::awi::AwiCommanders;
    use crate::rules::{Event, GameState, Status};
    let mut grown = 0;
    let mut tested = 0;
    for name in ["monongahela", "guilford"] {
        let study = study(name, &[]);
        for index in 0..3 {
            let at_start = study.start(index).expect("starts").game.units().len();
            let game = study.play(index).expect("plays");
            grown += usize::from(game.game.units().len() > at_start);
            let summary = GameSummary::of(&game, index);
            let state = game.state::<GameState>().expect("seed 000");
            let mut hits = vec![0; state.sides.len()];
            let mut charges = vec![0; state.sides.len()];
            let (mut falling_back, mut routs, mut general_tests) = (0, 0, 0);
            for entry in AwiCommanders::of(&game).expect("seed 000").log() {
                if let crate::host::awi::Entry::Opponent { report, .. } = entry {
                    for decision in &report.decisions {
                        let order = decision.outcome.order;
                        falling_back += u32::from(matches!(
                            order,
                            crate::tables::Order::Withdraw | crate::tables::Order::FireAndWithdraw
                        ));
                        routs += u32::from(order == crate::tables::Order::Rout);
                    }
                    general_tests += report
                        .generals
                        .iter()
                        .filter(|g| g.reaction.is_some())
                        .count();
                }
                for event in entry.events() {
                    match event {
                        Event::HitsTaken { unit, hits: n, .. } => hits[state.unit(*unit).side] += n,
                        Event::Charged { unit, .. } => charges[state.unit(*unit).side] += 1,
                        _ => {}
                    }
                }
            }
            assert_eq!(summary.hits, hits, "{name} {index}");
            assert_eq!(summary.charges, charges, "{name} {index}");
            let status =
                |s: Status| -> Vec<bool> { state.units.iter().map(|u| u.status == s).collect() };
            assert_eq!(summary.routed, status(Status::Routed), "{name} {index}");
            assert_eq!(summary.exited, status(Status::Exited), "{name} {index}");
            assert!(
                hits.iter().sum::<u32>() > 0,
                "{name} {index}: a game with no hits"
            );
            // How foe carried out its orders, counted as under seeds 001
            // and 002: every count named, withdrawals no more than the
            // orders to fall back, routs and generals' tests all of them.
            let conduct = &summary.conduct;
            for (key, _) in crate::simulate::CONDUCT {
                assert!(conduct.contains_key(key), "{name} {index}: {key}");
            }
            assert!(conduct["withdrawals"] <= falling_back, "{name} {index}");
            assert!(conduct["withdrawals-towards-the-enemy"] <= conduct["withdrawals"]);
            assert_eq!(conduct["routed"], routs, "{name} {index}");
            assert_eq!(
                conduct["general-tests"] as usize, general_tests,
                "{name} {index}"
            );
            tested += general_tests;
        }
    }
    assert!(grown > 0, "no game had units join it");
    assert!(tested > 0, "no general tested in six games");
}
