//! A whole Guilford game typed the way a player types: no coordinate
//! worked out by hand, only `forward max`, `towards UNIT max`, and lines
//! that `?` printed pasted back as they are. The player here is a small
//! program; what it typed is frozen in `tests/it/data/play_whole_guilford.in`,
//! which the integration test replays through `foe play` and compares whole.
//! This test checks that the frozen script is still what the program types
//! (`FOE_BLESS=1` rewrites it, deliberately) and that nothing it typed was
//! refused.

use super::Match;
use super::command::{Command, Names, parse};
use crate::rules::{Action, GameState, Phase, UnitId};
use std::path::Path;

/// One line typed: carried out, and kept.
fn typed(game: &mut Match, lines: &mut Vec<String>, line: String) {
    match parse(&line, &game.scenario, game.state()) {
        Ok(Command::Act(action)) => {
            if let Err(refusal) = game.act(action) {
                panic!("`{line}` was refused: {refusal}");
            }
        }
        Ok(Command::EndTurn) => {
            game.end_turn().expect("end turn");
        }
        Ok(_) => {}
        Err(message) => panic!("`{line}` was not understood: {message}"),
    }
    lines.push(line);
}

/// Whether `line` would be accepted now (it is tried before it is typed,
/// as a player reads `?` before pasting).
fn lawful(game: &Match, line: &str) -> bool {
    matches!(
        parse(line, &game.scenario, game.state()),
        Ok(Command::Act(action)) if game.state().check(&action).is_ok()
    )
}

/// The lines `COMMAND ?` prints that can be pasted back.
fn suggested(game: &Match, verb: &str) -> Vec<String> {
    crate::render::play::legal(game, Some(verb), None)
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with(&format!("{verb} ")))
        .map(str::to_string)
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
/// pasted from `charge ?`, the rest `towards` the nearest enemy or
/// `forward` as far as they may (guns stay to shoot), then every shot
/// `fire ?` offers, pasted back.
fn play_guilford() -> (Vec<String>, Match) {
    let mut game = super::tests::start("guilford", 1781, vec![0]);
    let mut lines = Vec::new();
    while !game.state().is_over() {
        let turn = game.state().turn;
        if turn % 5 == 1 {
            typed(&mut game, &mut lines, "victory".into());
        }
        // Movement: charges first, as `charge ?` lists them.
        assert_eq!(game.state().phase(), Phase::Movement);
        while let Some(line) = suggested(&game, "charge")
            .into_iter()
            .find(|line| lawful(&game, line))
        {
            typed(&mut game, &mut lines, line);
        }
        let names = Names::new(&game.scenario, game.state());
        let own: Vec<(UnitId, String)> = game
            .state()
            .active_units(game.state().active)
            .filter(|unit| !game.state().unit(*unit).moved)
            .map(|unit| (unit, names.label(unit).to_string()))
            .collect();
        for (unit, label) in own {
            if game.state().weapon_of(game.state().unit(unit))
                == Some(crate::rules::Weapon::Artillery)
            {
                continue;
            }
            let towards = nearest_enemy(game.state(), unit).map(|enemy| {
                let names = Names::new(&game.scenario, game.state());
                format!("move {label} towards {} max", names.label(enemy))
            });
            let choice = towards
                .into_iter()
                .chain([format!("move {label} forward max")])
                .find(|line| lawful(&game, line));
            if let Some(line) = choice {
                typed(&mut game, &mut lines, line);
            }
        }
        typed(&mut game, &mut lines, "end".into());
        if game.state().is_over() {
            break;
        }
        // Shooting: the first shot `fire ?` offers, again and again.
        if game.state().phase() == Phase::Shooting {
            while let Some(line) = suggested(&game, "fire")
                .into_iter()
                .find(|line| lawful(&game, line))
            {
                typed(&mut game, &mut lines, line);
            }
        }
        typed(&mut game, &mut lines, "end turn".into());
        assert!(
            game.state().is_over() || game.state().turn == turn + 1,
            "turn {turn} did not end"
        );
    }
    typed(&mut game, &mut lines, "quit".into());
    // Only the player's own actions and `victory` were typed.
    assert!(
        game.actions()
            .iter()
            .all(|action| !matches!(action, Action::CallUp { .. }))
    );
    (lines, game)
}

#[test]
fn a_whole_guilford_game_typed_as_a_player_types_is_the_frozen_script() {
    let (lines, game) = play_guilford();
    assert!(game.state().is_over());
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
