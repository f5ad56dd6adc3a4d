//! What `foe simulate` does only for games told line by line (those whose
//! sides are commanded an action at a time, not
//! [`crate::host::Engine::whole_turns`]): `--replay`'s record of one game
//! and `--bench`'s figures by the runner's stages; and what differs by
//! rule set, asked of the boundary: the `--set` keys the engine reads, and
//! seed 001's victory margin under a report. The study itself is the one
//! [`crate::simulate::Study`] every rule set runs.

use super::super::Context;
use super::{Args, Base, shell_word};
use crate::error::{Error, Result};
use crate::host::run::{HostMatch, HostStage};
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

/// `--replay I`: game I's whole record, and the `foe play` line that
/// replays it.
pub(super) fn replay(
    args: &Args,
    context: &mut Context<'_>,
    base: &Base,
    sets: &[Assignment],
    index: u64,
) -> Result<()> {
    let study = base.study(sets, args.seed)?;
    let game_match = study.play(index).map_err(Error::Invalid)?;
    let mut out = String::new();
    let mut turn = 0;
    for entry in &game_match.log {
        if entry.turn != turn {
            turn = entry.turn;
            let _ = writeln!(out, "-- turn {turn} --");
        }
        let _ = writeln!(out, "  {}", entry.text);
    }
    let _ = writeln!(out, "{}", describe(&game_match, index));
    if !sets.is_empty() {
        out.push_str(
            "(foe play replays it only from a copy of the scenario with the --set changes made)\n",
        );
    }
    let sides = game_match.game.sides();
    let baseline: String = study
        .baseline_sides
        .iter()
        .filter_map(|side| sides.get(*side))
        .map(|side| format!(" --baseline {}", shell_word(side)))
        .collect();
    let _ = writeln!(
        out,
        "Replay it: foe play {} --side none{baseline}{} --no-pause --seed {}",
        shell_word(&base.argument),
        super::rule_words(&base.tables.opponent.rules),
        study.seed_of(index)
    );
    context.print(&out)
}

/// One game in a line.
fn describe(game_match: &HostMatch, index: u64) -> String {
    let sides = game_match.game.sides();
    let Some(verdict) = game_match.verdict() else {
        return format!("Game {index}: not finished.");
    };
    let winner = verdict
        .winner
        .and_then(|side| sides.get(side))
        .map_or("a draw".to_string(), |side| format!("{side} win"));
    let margin = verdict
        .margin
        .map_or(String::new(), |m| format!(", victory margin {m:+}"));
    format!(
        "Game {index}: {winner} on turn {}: {}{margin}.",
        game_match.game.turn(),
        verdict.reason
    )
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
