use super::run::{HostMatch, play_one};
use super::*;
use crate::dice::Seeded;
use crate::ruleset::Ruleset;
use crate::yaml::Source;

fn scenario(name: &str) -> Arc<Scenario> {
    let (file, text) = crate::scenario::builtin(name).expect("built in");
    Arc::new(crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid"))
}

fn tables() -> Arc<Tables> {
    Arc::new(Tables::embedded())
}

#[test]
fn the_registry_names_an_engine_for_every_shipped_rule_set() {
    for (name, _, _) in crate::ruleset::BUILTIN {
        assert!(engine_for(name).is_some(), "{name}");
    }
    assert_eq!(engine_for("ohw-awi"), Some(Engine::Awi));
    assert_eq!(engine_for("ruinous-victory"), Some(Engine::Rv));
    assert_eq!(engine_for("ohw-acw"), Some(Engine::Acw));
    assert_eq!(engine_for("dba"), None);
}

#[test]
fn the_opponent_settings_file_reads() {
    let settings = opponent::Settings::builtin();
    assert!(settings.rv_figures_per_base > 0);
}

#[test]
fn every_builtin_scenario_starts_behind_the_boundary() {
    for name in crate::scenario::builtin_names() {
        let (game, _) = Game::start(&scenario(name), &tables(), &mut Seeded::new(1)).unwrap();
        assert!(!game.is_over(), "{name}");
        assert!(!game.legal_actions().is_empty(), "{name}");
        assert!(!game.units().is_empty(), "{name}");
    }
}

#[test]
fn foe_plays_a_whole_seed_001_game_against_itself() {
    let (result, game_match) = play_one(&scenario("guilford-ruinous"), &tables(), 1, 0).unwrap();
    assert!(result.margin.is_some());
    assert!(game_match.verdict().is_some());
    assert!(!game_match.opponent.decisions().is_empty());
}

#[test]
fn foe_plays_a_whole_seed_002_game_against_itself() {
    let (result, game_match) = play_one(&scenario("henry-hill"), &tables(), 1, 0).unwrap();
    assert!(result.turns >= 1);
    assert!(game_match.verdict().is_some());
    assert!(
        game_match
            .opponent
            .decisions()
            .iter()
            .any(|d| d.die.is_some())
    );
}

#[test]
fn a_watched_game_replays_from_its_seed() {
    for name in ["guilford-ruinous", "henry-hill"] {
        let mut first = HostMatch::new(scenario(name), tables(), 7, Vec::new()).unwrap();
        first.play_foe().unwrap();
        let second = HostMatch::replay(scenario(name), tables(), 7, Vec::new(), &[]).unwrap();
        assert_eq!(first.log, second.log, "{name}");
    }
}
