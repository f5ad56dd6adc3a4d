//! A whole Guilford game typed the way a player types at the one prompt:
//! no coordinate worked out by hand, only `forward max`, `towards UNIT
//! max`, and lines that `? COMMAND` lists pasted back as they are. The
//! player here is a small program; what it typed is frozen in
//! `tests/it/data/play_whole_guilford.in`, which the integration test
//! replays through `foe play` and compares whole. This test checks that
//! the frozen script is still what the program types (`FOE_BLESS=1`
//! rewrites it, deliberately) and that nothing it typed was refused.

use super::repl::{self, Command, Names};
use super::run::{HostMatch, Start};
use crate::rules::{GameState, Phase, UnitId, Weapon};
use crate::ruleset::Ruleset;
use crate::tables::Tables;
use crate::yaml::Source;
use std::path::Path;
use std::sync::Arc;

/// The seed-000 game the runner plays.
fn state(game: &HostMatch) -> &GameState {
    game.state::<crate::rules::GameState>()
        .expect("a seed-000 game")
}

/// One line typed: carried out as the prompt carries it out, and kept.
fn typed(game: &mut HostMatch, lines: &mut Vec<String>, line: String) {
    let names = Names::new(&game.game, &game.scenario);
    match repl::parse(&names, &line) {
        Ok(Command::Act(action)) => {
            if let Err(refusal) = game.player(&action) {
                panic!("`{line}` was refused: {refusal}");
            }
            game.play_foe().expect("foe plays");
        }
        Ok(Command::EndTurn) => {
            let turn = game.game.turn();
            while game.player_to_act() && game.game.turn() == turn {
                let pass = repl::pass(&game.game).expect("a phase to end");
                game.player(&pass).expect("end the phase");
                game.play_foe().expect("foe plays");
            }
        }
        Ok(_) => {}
        Err(message) => panic!("`{line}` was not understood: {message}"),
    }
    lines.push(line);
}

/// Whether `line` would be accepted now (it is tried before it is typed,
/// as a player reads `?` before pasting).
fn lawful(game: &HostMatch, line: &str) -> bool {
    let names = Names::new(&game.game, &game.scenario);
    matches!(
        repl::parse(&names, line),
        Ok(Command::Act(action)) if game.game.check(&action).is_ok()
    )
}

/// The lines `? VERB` lists, to paste back.
fn suggested(game: &HostMatch, verb: &str) -> Vec<String> {
    let names = Names::new(&game.game, &game.scenario);
    game.game
        .legal_actions()
        .iter()
        .filter(|action| repl::listed_for(&names, action, Some(verb), None))
        .map(|action| repl::words(&game.game, action))
        .collect()
}

/// The nearest enemy unit on the table to `unit`.
fn nearest_enemy(state: &GameState, unit: UnitId) -> Option<UnitId> {
    let base = state.unit(unit).base;
    state
        .active_units(GameState::enemy_of(state.unit(unit).side))
        .min_by(|a, b| {
            base.distance_to(&state.unit(*a).base)
                .total_cmp(&base.distance_to(&state.unit(*b).base))
        })
}

/// The player's whole game: each turn `victory` now and then, charges
/// pasted from `? charge`, the rest `towards` the nearest enemy or
/// `forward` as far as they may (guns stay to shoot), then every shot
/// `? fire` offers, pasted back.
fn play_guilford() -> (Vec<String>, HostMatch) {
    let (file, text) = crate::scenario::builtin("guilford").expect("built in");
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
    let mut game = Start::new(Arc::new(scenario), Arc::new(Tables::embedded()), 1781)
        .player_sides(vec![0])
        .begin()
        .expect("starts");
    game.play_foe().expect("foe plays");
    let mut lines = Vec::new();
    while !game.game.is_over() {
        let turn = game.game.turn();
        if turn % 5 == 1 {
            typed(&mut game, &mut lines, "victory".into());
        }
        // Movement: charges first, as `? charge` lists them.
        assert_eq!(state(&game).phase(), Phase::Movement);
        while let Some(line) = suggested(&game, "charge")
            .into_iter()
            .find(|line| lawful(&game, line))
        {
            typed(&mut game, &mut lines, line);
        }
        let state_now = state(&game);
        let own: Vec<UnitId> = state_now
            .active_units(state_now.active)
            .filter(|unit| !state_now.unit(*unit).moved)
            .collect();
        for unit in own {
            let state_now = state(&game);
            if state_now.weapon_of(state_now.unit(unit)) == Some(Weapon::Artillery) {
                continue;
            }
            let names = Names::new(&game.game, &game.scenario);
            let label = names.label(unit.0).to_string();
            let towards = nearest_enemy(state_now, unit)
                .map(|enemy| format!("move {label} towards {} max", names.label(enemy.0)));
            let choice = towards
                .into_iter()
                .chain([format!("move {label} forward max")])
                .find(|line| lawful(&game, line));
            if let Some(line) = choice {
                typed(&mut game, &mut lines, line);
            }
        }
        typed(&mut game, &mut lines, "end".into());
        if game.game.is_over() {
            break;
        }
        // Shooting: the first shot `? fire` offers, again and again.
        if state(&game).phase() == Phase::Shooting {
            while let Some(line) = suggested(&game, "fire")
                .into_iter()
                .find(|line| lawful(&game, line))
            {
                typed(&mut game, &mut lines, line);
            }
        }
        typed(&mut game, &mut lines, "end turn".into());
        assert!(
            game.game.is_over() || game.game.turn() == turn + 1,
            "turn {turn} did not end"
        );
    }
    typed(&mut game, &mut lines, "quit".into());
    (lines, game)
}

#[test]
fn a_whole_guilford_game_typed_as_a_player_types_is_the_frozen_script() {
    let (lines, game) = play_guilford();
    assert!(game.game.is_over());
    let script = lines.join("\n") + "\n";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/play_whole_guilford.in");
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, &script).unwrap();
    }
    let frozen = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(script, frozen, "FOE_BLESS=1 rewrites the frozen script");
    // No coordinates typed: every move is `max`, every other line pasted.
    for line in &lines {
        if line.starts_with("move ") {
            assert!(line.ends_with(" max"), "{line}");
        }
    }
}
