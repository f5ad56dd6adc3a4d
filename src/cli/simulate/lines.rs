//! What `foe simulate` does only for games told line by line (not
//! [`crate::host::Engine::whole_turns`]): `--bench`'s figures by the
//! runner's stages; and what differs by
//! rule set, asked of the boundary: the `--set` keys the engine reads, and
//! seed 001's victory margin under a report. The study itself is the one
//! [`crate::simulate::Study`] every rule set runs.

use super::Base;
use crate::error::{Error, Result};
use crate::host::run::HostStage;
use crate::host::{Engine, Game};
use crate::simulate::Aggregate;
use crate::simulate::set::Assignment;
use std::fmt::Write as _;
use std::time::Instant;

/// Seed 001's victory margin under a report (nothing for rules without
/// one, so seed 000's reports are unchanged).
pub(super) fn margin_text(aggregate: &Aggregate) -> String {
    let margins = &aggregate.margins;
    if margins.is_empty() {
        return String::new();
    }
    format!(
        "\nVictory margin (house rule RV10: the defender's losses less the attacker's, % of bases)\n  mean {:+.1}, sd {:.1}, from {:+} to {:+} ({} games)\n",
        margins.mean(),
        margins.sd(),
        margins.low,
        margins.high,
        margins.games
    )
}

/// Refuse, in one line, a `--set` key that means nothing under the
/// engine's rules (a general's `rallies` under seed 001, a unit's
/// `strength` under seed 002), naming the valid keys there and the nearest
/// to a typo.
pub(super) fn check_sets(engine: Engine, ruleset: &str, sets: &[Assignment]) -> Result<()> {
    // Seed 000's keys are checked by validating the changed scenario.
    let Some(keys) = engine.scenario_keys() else {
        return Ok(());
    };
    for assignment in sets {
        let steps: Vec<&str> = assignment.key.split('.').collect();
        let (step, valid, what) = match steps.as_slice() {
            ["sides"] | ["sides", _] => continue,
            ["sides", _, field] => (*field, keys.side, "a side's"),
            ["sides", _, "units", _] | ["sides", _, "generals", _] => continue,
            ["sides", _, "units", _, field, ..] => (*field, keys.unit, "a unit's"),
            ["sides", _, "generals", _, field, ..] => (*field, keys.general, "a general's"),
            ["sides", _, field, ..] => (*field, keys.side, "a side's"),
            [top, ..] => (*top, keys.top, "the scenario's"),
            [] => continue,
        };
        if valid.contains(&step) {
            continue;
        }
        let hint = match crate::suggest::nearest(step, valid.iter().copied()) {
            Some(near) => format!("did you mean `{near}`? "),
            None => String::new(),
        };
        return Err(Error::Invalid(format!(
            "--set `{}`: `{step}` means nothing under rule set `{ruleset}` ({}); {hint}{what} keys there: {}",
            assignment.key,
            engine.seed(),
            valid.join(", ")
        )));
    }
    Ok(())
}

/// `--bench` on a seed-001 or seed-002 scenario (with any `--set`, game *i*
/// seeded from `seed` and *i*): whole
/// games per second on one core with foe on both sides, and with random
/// legal actions (the rules engine alone, through the boundary), then how
/// a game's time splits between foe deciding, the rules engine, and the
/// records, from a separate pass with a clock at each change of stage.
pub(super) fn bench(base: &Base, sets: &[Assignment], seed: u64, seconds: f64) -> Result<String> {
    use rand::{RngExt, SeedableRng};
    let study = base.study(sets, seed)?;
    let tables = &study.tables;
    let name = &base.argument;
    let rate = |play_one: &mut dyn FnMut(u64)| {
        let started = Instant::now();
        let mut games = 0;
        while games < 3 || started.elapsed().as_secs_f64() < seconds {
            play_one(games);
            games += 1;
        }
        games as f64 / started.elapsed().as_secs_f64()
    };
    let foe_rate = rate(&mut |index| {
        std::hint::black_box(study.play(index).ok());
    });
    let mut legal_time = 0.0;
    let mut apply_time = 0.0;
    let mut actions = 0u64;
    let mut engine_games = 0u64;
    let engine_rate = rate(&mut |index| {
        let mut dice = crate::dice::Seeded::new(study.seed_of(index));
        let Ok((mut game, _)) = Game::start(&study.scenario, tables, &mut dice) else {
            return;
        };
        engine_games += 1;
        let mut chooser = rand::rngs::ChaCha8Rng::seed_from_u64(index ^ 0x5eed);
        let mut steps = 0;
        while !game.is_over() && steps < 20_000 {
            steps += 1;
            let clock = Instant::now();
            let legal = game.legal_actions();
            legal_time += clock.elapsed().as_secs_f64();
            let Some(action) =
                (!legal.is_empty()).then(|| legal[chooser.random_range(0..legal.len())].clone())
            else {
                break;
            };
            let clock = Instant::now();
            let _ = game.apply(&action, &mut dice);
            apply_time += clock.elapsed().as_secs_f64();
            actions += 1;
        }
    });
    // Time by stage: the game names each stage it enters; the clock is here.
    let mut stage_seconds = [0.0; 3];
    let mut stage_games = 0u64;
    let started = Instant::now();
    while stage_games < 3 || started.elapsed().as_secs_f64() < seconds {
        let mut game_match = study.start(stage_games).map_err(Error::Invalid)?;
        let mut stage = HostStage::Records;
        let mut since = Instant::now();
        let mut probe = |next: HostStage| {
            let now = Instant::now();
            stage_seconds[stage_index(stage)] += now.duration_since(since).as_secs_f64();
            stage = next;
            since = now;
        };
        while game_match
            .step_foe_probed(&mut probe)
            .map_err(Error::Invalid)?
        {}
        probe(HostStage::Records);
        stage_games += 1;
    }
    let mut out = String::from("foe simulate --bench: whole games per second on one core\n");
    let _ = writeln!(
        out,
        "  {:<34} {foe_rate:>10.0} games/s",
        format!("{name}, opponent on both sides")
    );
    let _ = writeln!(
        out,
        "  {:<34} {engine_rate:>10.0} games/s   opponent/random-play {:.3}",
        format!("{name}, random legal play"),
        foe_rate / engine_rate
    );
    let engine_total = legal_time + apply_time;
    if engine_total > 0.0 {
        let _ = writeln!(
            out,
            "    random play: {:.0} actions a game; {:.0}% of engine time listing legal actions, {:.0}% applying them",
            actions as f64 / engine_games.max(1) as f64,
            100.0 * legal_time / engine_total,
            100.0 * apply_time / engine_total
        );
    }
    let total: f64 = stage_seconds.iter().sum();
    let share =
        |stage: HostStage| 100.0 * stage_seconds[stage_index(stage)] / total.max(f64::MIN_POSITIVE);
    let _ = writeln!(
        out,
        "  {name} time by stage (a separate pass with a clock at each stage change, {stage_games} games):\n    deciding (foe's opponent) {:.0}%; rules engine {:.0}%; records {:.0}%",
        share(HostStage::Deciding),
        share(HostStage::Rules),
        share(HostStage::Records)
    );
    Ok(out)
}

fn stage_index(stage: HostStage) -> usize {
    match stage {
        HostStage::Deciding => 0,
        HostStage::Rules => 1,
        HostStage::Records => 2,
    }
}
