use super::*;
use crate::dice::{Roller, Seeded};
use crate::rules::UnitId;
use crate::ruleset::Ruleset;
use crate::yaml::Source;

pub(crate) fn start(name: &str, seed: u64, player_sides: Vec<usize>) -> Match {
    let (file, text) = crate::scenario::builtin(name).expect("built in");
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
    let ruleset = &scenario.battlefield.ruleset;
    let rules = Arc::new(
        RulesTable::builtin(&ruleset.name, ruleset)
            .unwrap()
            .unwrap(),
    );
    let file = ScenarioFile {
        shown_as: file.to_string(),
        text: text.to_string(),
    };
    Match::new(
        Arc::new(scenario),
        file,
        rules,
        Arc::new(Tables::embedded()),
        seed,
        player_sides,
    )
    .unwrap()
}

#[test]
fn the_player_moves_when_the_opponent_has_played_its_first_turn() {
    // Guilford: the Americans (side 1) move first; the player is British.
    let game = start("guilford", 3, vec![0]);
    assert!(game.players_turn());
    assert_eq!(game.state.active, 0);
    assert!(matches!(
        game.log.last(),
        Some(Entry::Opponent { side: 1, .. })
    ));
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut game = start("guilford", 3, vec![0]);
    let before = game.save();
    let unit = game.state.find_unit("23rd Foot").unwrap();
    let refusal = game
        .act(Action::Fire {
            unit,
            target: UnitId(20),
            volley: crate::rules::Volley::Single,
        })
        .unwrap_err();
    assert!(!refusal.to_string().is_empty());
    assert_eq!(game.save(), before);
}

#[test]
fn undo_then_the_same_action_gives_the_same_state() {
    let mut game = start("guilford", 3, vec![0]);
    let unit = game.state.find_unit("23rd Foot").unwrap();
    let base = game.state.unit(unit).base;
    let action = Action::Move {
        unit,
        to: base.centre + base.forward() * 4.0,
        facing: base.facing,
    };
    game.act(action.clone()).unwrap();
    let after = game.state.unit(unit).base;
    assert_eq!(game.undo().unwrap(), action);
    assert_eq!(game.state.unit(unit).base, base);
    game.act(action).unwrap();
    assert_eq!(game.state.unit(unit).base, after);
}

#[test]
fn undo_stops_at_the_start_of_the_players_turn() {
    let mut game = start("learning", 5, vec![0]);
    assert_eq!(game.undo(), Err("nothing to undo this turn"));
}

#[test]
fn a_save_replays_to_the_same_state_and_the_same_future() {
    let mut game = start("guilford", 9, vec![0]);
    let unit = game.state.find_unit("Guards Grenadiers").unwrap();
    let base = game.state.unit(unit).base;
    game.act(Action::Move {
        unit,
        to: base.centre + base.forward() * 5.0,
        facing: base.facing,
    })
    .unwrap();
    game.end_turn().unwrap();
    let save = game.save();
    let text = serde_json::to_string(&save).unwrap();
    let loaded: SaveFile = serde_json::from_str(&text).unwrap();
    let mut replayed = Match::from_save(
        &loaded,
        game.scenario.clone(),
        game.rules.clone(),
        game.tables.clone(),
        None,
    )
    .unwrap();
    assert_eq!(
        format!("{:?}", replayed.state.units),
        format!("{:?}", game.state.units)
    );
    game.end_turn().unwrap();
    replayed.end_turn().unwrap();
    assert_eq!(
        format!("{:?}", replayed.state.units),
        format!("{:?}", game.state.units)
    );
    assert_eq!(replayed.state.turn, game.state.turn);
}

#[test]
fn watching_plays_one_turn_a_step_until_the_end() {
    let mut game = start("learning", 2, vec![]);
    let mut steps = 0;
    while game.step() {
        steps += 1;
        assert!(
            steps <= 2 * game.state.turns as usize + 2,
            "the game must end by its last turn"
        );
    }
    assert!(game.state.is_over());
}

#[test]
fn a_game_with_the_players_own_dice_replays_from_its_recorded_rolls() {
    let (file, text) = crate::scenario::builtin("guilford").unwrap();
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    let ruleset = &scenario.battlefield.ruleset;
    let rules = Arc::new(
        RulesTable::builtin(&ruleset.name, ruleset)
            .unwrap()
            .unwrap(),
    );
    let file = ScenarioFile {
        shown_as: file.to_string(),
        text: text.to_string(),
    };
    // "The player's dice": a generator the match cannot recreate from its seed.
    let dice: Box<dyn Roller> = Box::new(Seeded::new(0xD1CE));
    let tables = Arc::new(Tables::embedded());
    let mut game = Match::with_dice(
        Arc::new(scenario),
        file,
        rules,
        tables,
        1,
        vec![0],
        Some(dice),
    )
    .unwrap();
    game.end_turn().unwrap();
    let gun = game.state.find_unit("Royal Artillery").unwrap();
    let target = game.state.find_unit("Singleton's Gun").unwrap();
    game.act(Action::EndPhase).unwrap();
    let before_fire = format!("{:?}", game.state.units);
    game.act(Action::Fire {
        unit: gun,
        target,
        volley: crate::rules::Volley::Single,
    })
    .unwrap();
    let save = game.save();
    assert!(save.asked && !save.rolls.is_empty());
    let replayed = Match::from_save(
        &save,
        game.scenario.clone(),
        game.rules.clone(),
        game.tables.clone(),
        None,
    )
    .unwrap();
    assert_eq!(
        format!("{:?}", replayed.state.units),
        format!("{:?}", game.state.units)
    );
    // Undo forgets the fire's roll: the state is as before it.
    game.undo().unwrap();
    assert_eq!(format!("{:?}", game.state.units), before_fire);
    assert_eq!(game.save().rolls.len() + 1, save.rolls.len());
}

#[test]
fn a_seeded_game_loaded_with_the_players_dice_replays_from_its_seed() {
    let mut game = start("guilford", 21, vec![0]);
    game.end_turn().unwrap();
    let save = game.save();
    // Dice that would give different rolls if the replay used them.
    let theirs: Box<dyn Roller> = Box::new(Seeded::new(0xBAD));
    let loaded = Match::from_save(
        &save,
        game.scenario.clone(),
        game.rules.clone(),
        game.tables.clone(),
        Some(theirs),
    )
    .unwrap();
    assert_eq!(
        format!("{:?}", loaded.state.units),
        format!("{:?}", game.state.units)
    );
    assert_eq!(loaded.state.generals, game.state.generals);
    // From now on the rolls are the player's, and saves keep them.
    assert!(loaded.save().asked);
}
