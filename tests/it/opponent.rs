//! The Lone Warrior opponent driving whole games: seeded self-play of every
//! shipped scenario (a reduced `stress`), the same events for the same seed,
//! the Guilford Americans holding their fence line, and the renderers.

use foe::dice::Seeded;
use foe::host::opponent::awi::{GameRecord, Opponent, opponents_for, self_play};
use foe::render::opponent as render;
use foe::rules::{Event, GameSetup, GameState, RulesTable};
use foe::ruleset::Ruleset;
use foe::scenario::{self, Scenario};
use foe::tables::Tables;
use foe::yaml::Source;
use std::sync::Arc;

fn load(name: &str) -> Scenario {
    let (file, text) = scenario::builtin(name).expect("built in");
    scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid scenario")
}

fn start(scenario: &Scenario, seed: u64) -> (GameState, Seeded, Arc<Tables>) {
    let ruleset = &scenario.battlefield.ruleset;
    let rules = Arc::new(
        RulesTable::builtin(&ruleset.name, ruleset)
            .unwrap()
            .unwrap(),
    );
    let tables = Arc::new(Tables::embedded());
    let mut dice = Seeded::new(seed);
    let setup = GameSetup::from_scenario(scenario).unwrap();
    let (state, _) = GameState::new(setup, rules, &tables.characters, &mut dice).unwrap();
    (state, dice, tables)
}

fn play(scenario: &Scenario, seed: u64) -> (GameState, GameRecord) {
    let (mut state, mut dice, tables) = start(scenario, seed);
    let mut opponents = opponents_for(&tables, scenario, &state);
    let record = self_play(&mut state, &mut opponents, &mut dice);
    (state, record)
}

#[track_caller]
fn finishes(scenario: &Scenario, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let (state, record) = play(scenario, seed);
        assert!(
            state.is_over(),
            "{} seed {seed} did not finish",
            scenario.name
        );
        assert!(
            record.turns <= scenario.turns,
            "{} seed {seed}",
            scenario.name
        );
        assert!(matches!(
            record.events.last(),
            Some(Event::GameEnded { .. })
        ));
        // Every unit of both sides took a test in the first bound it was on.
        assert!(record.reports.iter().any(|r| !r.decisions.is_empty()));
    }
}

#[test]
fn learning_games_finish_within_their_turns() {
    finishes(&load("learning"), 0..12);
}

#[test]
fn guilford_games_finish_within_their_turns() {
    finishes(&load("guilford"), 0..10);
}

#[test]
fn monongahela_games_finish_within_their_turns() {
    finishes(&load("monongahela"), 0..6);
}

#[test]
fn guilford_rv_games_finish_within_their_turns() {
    finishes(&load("guilford-rv"), 0..2);
}

#[test]
fn a_reduced_stress_game_finishes() {
    let mut scenario = load("stress");
    for side in &mut scenario.sides {
        side.units.truncate(40);
    }
    scenario.turns = 4;
    finishes(&scenario, 0..1);
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let scenario = load("guilford");
    let (_, first) = play(&scenario, 42);
    let (_, again) = play(&scenario, 42);
    assert_eq!(first.events, again.events);
    assert_eq!(first.actions, again.actions);
    let (_, other) = play(&scenario, 43);
    assert_ne!(first.events, other.events);
}

#[test]
fn the_guilford_americans_do_not_leave_their_fence_line_to_march_on_the_british_in_turn_1() {
    let scenario = load("guilford");
    for seed in 0..8 {
        let (mut state, mut dice, tables) = start(&scenario, seed);
        let before = state.units.clone();
        let mut americans = Opponent::new(tables, &state, 1).with_scenario(&scenario, &state);
        // The Americans begin (seed 000).
        assert_eq!(state.active, 1);
        let report = americans.play_turn(&mut state, &mut dice);
        for (unit, was) in state.units.iter().zip(&before) {
            if unit.side == 1 {
                assert!(
                    unit.base.centre.y >= was.base.centre.y - 1e-9,
                    "seed {seed}: {} marched south: {} → {}",
                    unit.name,
                    was.base.centre,
                    unit.base.centre
                );
            }
        }
        // The first line tested behind hard cover.
        let butler = report
            .decisions
            .iter()
            .find(|d| d.name == "Butler's Militia")
            .unwrap();
        assert_eq!(butler.outcome.column, foe::tables::Column::Hard);
    }
}

#[test]
fn decisions_render_as_paragraphs_and_explain_why() {
    let scenario = load("learning");
    let (mut state, mut dice, tables) = start(&scenario, 3);
    let mut opponents = opponents_for(&tables, &scenario, &state);
    let report = opponents[0].play_turn(&mut state, &mut dice);
    let text = render::turn(&state, &report);
    assert!(text.contains("44th Foot: "), "{text}");
    let id = state.find_unit("44th Foot").unwrap();
    let decision = opponents[0].last_decision(id).unwrap();
    let why = render::why(&state, decision);
    for part in [
        "read off the map",
        "reaction test",
        "die",
        "total",
        "variant",
        "on the table",
        "carried out by",
    ] {
        assert!(why.contains(part), "{part} missing from:\n{why}");
    }
    // `what`: exact odds before any roll, summing to one.
    let preview = opponents[0].preview(&state, id).unwrap();
    let sum: f64 = preview.odds.iter().map(|(_, p)| p).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    assert!(render::preview(&state, &preview).contains('%'));
    // Not the side's unit: no preview.
    let rangers = state.find_unit("Rangers").unwrap();
    assert!(opponents[0].preview(&state, rangers).is_none());
}

/// FNV-1a over the debug text of everything a game produced: every event,
/// action and decision (floats print exactly, shortest round trip), so any
/// change in behaviour, however small, changes the sum.
fn checksum(record: &GameRecord) -> u64 {
    let text = format!(
        "{:?}|{}|{:?}|{:?}|{:?}",
        record.outcome, record.turns, record.events, record.actions, record.reports
    );
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A checksum of whole self-played games, pinned. A change to the engine,
/// the opponent or the geometry that moves any game, even by the last bit
/// of a position, changes it. A deliberate change of games re-pins it, with
/// its reason and its measured effect over 1,000 games in the commit
/// (`git log -p` on this file is that history).
/// Optimisations of the engine and the opponent must leave every seeded
/// game exactly as it was. The games share one `FieldCache`, as a
/// simulation does.
#[test]
fn seeded_guilford_games_are_unchanged_by_optimisation() {
    let scenario = load("guilford");
    let cache = foe::host::opponent::awi::FieldCache::default();
    let mut seen = Vec::new();
    for seed in 0..5 {
        let (mut state, mut dice, tables) = start(&scenario, seed);
        let mut opponents =
            foe::host::opponent::awi::opponents_sharing(&tables, &scenario, &state, &cache);
        let record = self_play(&mut state, &mut opponents, &mut dice);
        seen.push((seed, record.turns, record.events.len(), checksum(&record)));
    }
    let pinned: Vec<(u64, u32, usize, u64)> = vec![
        (0, 13, 360, 11871573125337843803),
        (1, 8, 215, 14642864950349107421),
        (2, 15, 432, 2721751583955274845),
        (3, 11, 311, 17642186731679127132),
        (4, 11, 322, 17738809806784882408),
    ];
    assert_eq!(seen, pinned);
}

/// A probe that counts the stages the runner and the opponent enter and
/// checks that each is left for the one it interrupted.
#[derive(Debug, Default)]
struct StageCount(
    std::sync::Mutex<(
        Vec<foe::host::probe::Stage>,
        [u64; foe::host::probe::Stage::ALL.len()],
    )>,
);

impl foe::host::probe::Probe for StageCount {
    fn enter(&self, stage: foe::host::probe::Stage) -> foe::host::probe::Stage {
        let mut inner = self.0.lock().unwrap();
        inner.1[stage.index()] += 1;
        if inner.0.is_empty() {
            // Outside the opponent's stages, the time is its deciding.
            inner.0.push(foe::host::probe::Stage::Deciding);
        }
        let was = inner.0[inner.0.len() - 1];
        // Entering the stage below on the stack is leaving the top one.
        if inner.0.len() >= 2 && inner.0[inner.0.len() - 2] == stage {
            inner.0.pop();
        } else {
            inner.0.push(stage);
        }
        was
    }
}

/// A probe only watches: the same game with and without one, and a
/// Guilford game in the runner passes through every stage the bench
/// reports.
#[test]
fn a_probe_sees_every_stage_and_changes_nothing() {
    let scenario = Arc::new(load("guilford"));
    let tables = Arc::new(Tables::embedded());
    let watched = |start: foe::host::run::Start| {
        let mut game = start.begin().expect("starts");
        while game.watch_step().expect("plays") {}
        game
    };
    let plain = watched(foe::host::run::Start::new(
        scenario.clone(),
        tables.clone(),
        11,
    ));
    let count = Arc::new(StageCount::default());
    let probed = watched(foe::host::run::Start::new(scenario, tables, 11).probing(count.clone()));
    assert_eq!(plain.events(), probed.events());
    assert!(plain.verdict().is_some());
    let (stack, entered) = count.0.lock().unwrap().clone();
    assert_eq!(
        stack,
        [foe::host::probe::Stage::Deciding],
        "every stage was left"
    );
    for stage in foe::host::probe::Stage::ALL {
        if stage != foe::host::probe::Stage::Deciding {
            assert!(entered[stage.index()] > 0, "{} never entered", stage.name());
        }
    }
}
