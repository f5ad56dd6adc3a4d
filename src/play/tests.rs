use super::*;
use crate::dice::{Roller, Seeded};
use crate::rules::UnitId;
use crate::ruleset::Ruleset;
use crate::yaml::Source;

/// A built-in scenario, its rules table and its file, ready for a match.
fn builtin(name: &str) -> (Arc<Scenario>, Arc<RulesTable>, ScenarioFile) {
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
    (Arc::new(scenario), rules, file)
}

pub(crate) fn start(name: &str, seed: u64, player_sides: Vec<usize>) -> Match {
    let (scenario, rules, file) = builtin(name);
    MatchSetup::new(scenario, file, rules, Arc::new(Tables::embedded()))
        .seed(seed)
        .player_sides(player_sides)
        .start()
        .unwrap()
}

#[test]
fn the_player_moves_when_the_opponent_has_played_its_first_turn() {
    // Guilford: the Americans (side 1) move first; the player is British.
    let game = start("guilford", 3, vec![0]);
    assert!(game.players_turn());
    assert_eq!(game.state().active, 0);
    assert!(matches!(
        game.log().last(),
        Some(Entry::Opponent { side: 1, .. })
    ));
}

/// Stepping is for watching: on the player's turn nothing is played for
/// them, nothing is counted as a watched step, and a loop of steps ends.
#[test]
fn step_plays_nothing_on_the_players_turn() {
    let mut game = start("guilford", 3, vec![0]);
    assert!(game.players_turn());
    let entries = game.log().len();
    assert!(!game.step());
    assert_eq!(game.log().len(), entries);
    assert_eq!(game.save().watched, None);
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut game = start("guilford", 3, vec![0]);
    let before = game.save();
    let unit = game.state().find_unit("23rd Foot").unwrap();
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
    let unit = game.state().find_unit("23rd Foot").unwrap();
    let base = game.state().unit(unit).base;
    let action = Action::Move {
        unit,
        to: base.centre + base.forward() * 4.0,
        facing: base.facing,
    };
    game.act(action.clone()).unwrap();
    let after = game.state().unit(unit).base;
    assert_eq!(game.undo().unwrap(), action);
    assert_eq!(game.state().unit(unit).base, base);
    game.act(action).unwrap();
    assert_eq!(game.state().unit(unit).base, after);
}

#[test]
fn undo_with_nothing_done_is_refused() {
    let mut game = start("learning", 5, vec![0]);
    assert_eq!(
        game.undo(),
        Err("nothing to undo: you have not acted yet".to_string())
    );
    assert!(game.undo_turn().is_err());
}

fn units(game: &Match) -> String {
    format!("{:?}{:?}", game.state().units, game.state().generals)
}

fn forward(game: &Match, name: &str, inches: f64) -> Action {
    let unit = game.state().find_unit(name).unwrap();
    let base = game.state().unit(unit).base;
    Action::Move {
        unit,
        to: base.centre + base.forward() * inches,
        facing: base.facing,
    }
}

#[test]
fn undo_reaches_back_across_a_turn_and_the_opponent_replays_the_same() {
    let mut game = start("guilford", 3, vec![0]);
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn().unwrap();
    assert_eq!(game.state().turn, 2);
    let after_turn = units(&game);
    let log_length = game.log().len();
    // The last action was the end of the player's turn 1: taking it back
    // takes back the Americans' turn 2 that followed it.
    assert_eq!(game.undo(), Ok(Action::EndPhase));
    assert_eq!(game.state().turn, 1);
    assert!(game.players_turn());
    // Ending the turn again plays the Americans' turn again, the same.
    game.end_turn().unwrap();
    assert_eq!(units(&game), after_turn);
    assert_eq!(game.log().len(), log_length);
}

#[test]
fn undo_turn_and_rewind_go_back_to_the_start_of_a_turn() {
    let mut game = start("guilford", 4, vec![0]);
    let turn_one = units(&game);
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn().unwrap();
    let turn_two = units(&game);
    game.act(forward(&game, "33rd Foot", 3.0)).unwrap();
    game.act(forward(&game, "71st Foot", 3.0)).unwrap();
    let by_turn = game.actions_by_turn();
    assert_eq!(by_turn.len(), 2);
    assert_eq!(by_turn[1].0, 2);
    assert_eq!(by_turn[1].1.len(), 2);
    // This turn's two moves go.
    assert_eq!(game.undo_turn(), Ok((2, 2)));
    assert_eq!(units(&game), turn_two);
    // At the start of turn 2, `undo turn` takes back turn 1.
    let (turn, _) = game.undo_turn().unwrap();
    assert_eq!(turn, 1);
    assert_eq!(units(&game), turn_one);
    assert!(game.actions().is_empty());
    assert!(game.rewind(2).unwrap_err().contains("no turn 2"));
    // Play to turn 3, then rewind to the start of turn 2: the save holds
    // only the kept prefix.
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn().unwrap();
    let kept = game.actions().len();
    game.act(forward(&game, "33rd Foot", 3.0)).unwrap();
    game.end_turn().unwrap();
    assert_eq!(game.state().turn, 3);
    assert!(game.rewind(2).unwrap() > 1);
    assert_eq!(units(&game), {
        let mut again = start("guilford", 4, vec![0]);
        again.act(forward(&again, "23rd Foot", 4.0)).unwrap();
        again.end_turn().unwrap();
        units(&again)
    });
    assert_eq!(game.save().actions.len(), kept);
    assert_eq!(
        game.rewind(2).unwrap_err(),
        "nothing to take back: you have not acted since the start of turn 2"
    );
}

#[test]
fn a_save_replays_to_the_same_state_and_the_same_future() {
    let mut game = start("guilford", 9, vec![0]);
    let unit = game.state().find_unit("Guards Grenadiers").unwrap();
    let base = game.state().unit(unit).base;
    game.act(Action::Move {
        unit,
        to: base.centre + base.forward() * 5.0,
        facing: base.facing,
    })
    .unwrap();
    game.end_turn().unwrap();
    let save = game.save();
    let text = serde_json::to_string(&save).unwrap();
    let loaded: GameSave = serde_json::from_str(&text).unwrap();
    let mut replayed = Match::from_save(
        &loaded,
        game.scenario.clone(),
        game.rules().clone(),
        game.tables.clone(),
        None,
    )
    .unwrap();
    assert_eq!(
        format!("{:?}", replayed.state().units),
        format!("{:?}", game.state().units)
    );
    game.end_turn().unwrap();
    replayed.end_turn().unwrap();
    assert_eq!(
        format!("{:?}", replayed.state().units),
        format!("{:?}", game.state().units)
    );
    assert_eq!(replayed.state().turn, game.state().turn);
}

#[test]
fn watching_plays_one_turn_a_step_until_the_end() {
    let mut game = start("learning", 2, vec![]);
    let mut steps = 0;
    while game.step() {
        steps += 1;
        assert!(
            steps <= 2 * game.state().turns as usize + 2,
            "the game must end by its last turn"
        );
    }
    assert!(game.state().is_over());
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
    let mut game = MatchSetup::new(Arc::new(scenario), file, rules, tables)
        .seed(1)
        .player_sides(vec![0])
        .dice(Some(dice))
        .start()
        .unwrap();
    game.end_turn().unwrap();
    let gun = game.state().find_unit("Royal Artillery").unwrap();
    let target = game.state().find_unit("Singleton's Gun").unwrap();
    game.act(Action::EndPhase).unwrap();
    let before_fire = format!("{:?}", game.state().units);
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
        game.rules().clone(),
        game.tables.clone(),
        None,
    )
    .unwrap();
    assert_eq!(
        format!("{:?}", replayed.state().units),
        format!("{:?}", game.state().units)
    );
    // Undo forgets the fire's roll: the state is as before it.
    game.undo().unwrap();
    assert_eq!(format!("{:?}", game.state().units), before_fire);
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
        game.rules().clone(),
        game.tables.clone(),
        Some(theirs),
    )
    .unwrap();
    assert_eq!(
        format!("{:?}", loaded.state().units),
        format!("{:?}", game.state().units)
    );
    assert_eq!(loaded.state().generals, game.state().generals);
    // From now on the rolls are the player's, and saves keep them.
    assert!(loaded.save().asked);
}

/// A Guilford game with "the player's own dice" (a generator the match
/// cannot recreate from its seed), a few actions in.
fn asked_game() -> Match {
    let fresh = start("guilford", 1, vec![0]);
    let dice: Box<dyn Roller> = Box::new(Seeded::new(0xD1CE));
    let mut game = MatchSetup::new(
        fresh.scenario.clone(),
        fresh.file.clone(),
        fresh.rules().clone(),
        fresh.tables.clone(),
    )
    .seed(1)
    .player_sides(vec![0])
    .dice(Some(dice))
    .start()
    .unwrap();
    game.end_turn().unwrap();
    game
}

fn replay(game: &Match, save: &GameSave) -> Result<Match, MatchError> {
    Match::from_save(
        save,
        game.scenario.clone(),
        game.rules().clone(),
        game.tables.clone(),
        None,
    )
}

#[test]
fn a_damaged_record_of_rolls_is_refused_with_what_is_wrong_not_a_panic() {
    let game = asked_game();
    let good = game.save();
    assert!(replay(&game, &good).is_ok());
    let refused = |change: &dyn Fn(&mut GameSave)| {
        let mut save = good.clone();
        change(&mut save);
        replay(&game, &save).err().expect("refused").to_string()
    };
    // The generals' characters are the first rolls, on the d100.
    assert_eq!(
        refused(&|save| save.rolls[0] = 0),
        "the saved game does not replay: the set-up: recorded roll 0 is not a face of the d100"
    );
    assert_eq!(
        refused(&|save| save.rolls[1] = 101),
        "the saved game does not replay: the set-up: recorded roll 101 is not a face of the d100"
    );
    // Too few rolls: never silently rolled on with other dice.
    let cut = refused(&|save| save.rolls.truncate(save.rolls.len() - 1));
    assert!(
        cut.contains("the record of rolls ends where a roll of the"),
        "{cut}"
    );
    assert_eq!(
        refused(&|save| save.rolls.clear()),
        "the saved game does not replay: the set-up: the record of rolls ends where a roll of the d100 is needed"
    );
    assert_eq!(
        refused(&|save| save.rolls.push(3)),
        "the saved game does not replay: the end of the record: 1 recorded roll left over"
    );
    assert_eq!(
        refused(&|save| save.player_sides = vec!["prussians".into()]),
        "the saved game names no side `prussians` (its scenario has british, americans)"
    );
    // A wild number is refused before the rules would walk it inch by inch.
    let unit = game.state().find_unit("23rd Foot").unwrap();
    assert_eq!(
        refused(&|save| save.actions.insert(
            0,
            crate::host::Action::Awi(Action::Move {
                unit,
                to: crate::battlefield::Point {
                    x: 1e308,
                    y: -1e308
                },
                facing: 0.0
            })
        )),
        "the saved game does not replay: action 1: the point 1e308,-1e308 is far off the table"
    );
}

#[test]
fn save_files_are_checked_for_their_version_first() {
    let game = start("learning", 2, vec![0]);
    let text = game.save().to_json();
    assert_eq!(GameSave::from_json(&text).unwrap(), game.save());
    let newer = text.replace("\"version\": 4", "\"version\": 9");
    assert_eq!(
        GameSave::from_json(&newer).unwrap_err(),
        "was saved by a newer foe (format 9, this foe reads 4); it is left untouched"
    );
    let zero = text.replace("\"version\": 4", "\"version\": 0");
    assert_eq!(
        GameSave::from_json(&zero).unwrap_err(),
        "is not a foe play save: `0` is not a format version"
    );
    let cut = &text[..text.len() / 2];
    assert!(
        GameSave::from_json(cut)
            .unwrap_err()
            .starts_with("is not a foe play save: EOF while parsing")
    );
    // A version 1 save (no `steps`, `started`, `about`) still reads.
    let old = r#"{"version": 1, "scenario": {"shown_as": "x", "text": ""}, "seed": 1, "player_sides": [0], "actions": []}"#;
    assert_eq!(
        GameSave::from_json(old).unwrap().engine,
        crate::host::Engine::Awi
    );
    // Saves record what made the game; version 1 and 2 saves have no `made`.
    assert!(text.contains("\"made\""), "{text}");
    assert_eq!(GameSave::from_json(old).unwrap().made, None);
}

#[test]
fn a_watched_game_resumes_at_the_turn_it_was_saved() {
    let mut game = start("learning", 6, vec![]);
    for _ in 0..3 {
        assert!(game.step());
    }
    let save = game.save();
    assert_eq!(save.watched, Some(Watched::Turns(3)));
    let mut resumed = replay(&game, &save).unwrap();
    assert_eq!(units(&resumed), units(&game));
    game.step();
    resumed.step();
    assert_eq!(units(&resumed), units(&game));
}

#[test]
fn rewinding_a_game_with_the_players_dice_forgets_the_rolls_taken_back() {
    let mut game = asked_game();
    let at_start = game.save().rolls.len();
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn().unwrap();
    assert!(game.save().rolls.len() > at_start);
    game.rewind(2).unwrap();
    assert_eq!(game.save().rolls.len(), at_start);
    assert!(replay(&game, &game.save()).is_ok());
}

/// Guilford with the player commanding the Americans (who move first) and
/// the scripted baseline the British, on the seeded dice or the player's own.
fn baseline_game(seed: u64, dice: Option<Box<dyn Roller>>) -> Match {
    let (scenario, rules, file) = builtin("guilford");
    MatchSetup::new(scenario, file, rules, Arc::new(Tables::embedded()))
        .seed(seed)
        .player_sides(vec![1])
        .baseline_sides(vec![0])
        .dice(dice)
        .start()
        .unwrap()
}

/// Whether the baseline, and not foe's opponent, commands the British.
fn baseline_commands_the_british(game: &Match) -> bool {
    game.baseline_sides == [0]
        && game.opponent(0).is_none()
        && matches!(
            game.runner.controller(0),
            Some(crate::baseline::Controller::Baseline(_))
        )
}

/// The baseline's turns in the log, by side.
fn baseline_turns(game: &Match) -> Vec<usize> {
    game.log()
        .iter()
        .filter_map(|entry| match entry {
            Entry::Baseline { side, .. } => Some(*side),
            _ => None,
        })
        .collect()
}

#[test]
fn a_saved_game_with_a_baseline_side_resumes_and_replays_identically() {
    // Seeded dice replay from the seed; the player's own dice from the
    // record, each roll of the baseline's turns checked against its die.
    for dice in [None, Some(Box::new(Seeded::new(0xBA5E)) as Box<dyn Roller>)] {
        let asked = dice.is_some();
        let mut game = baseline_game(13, dice);
        game.act(forward(&game, "1st Maryland", 2.0)).unwrap();
        game.end_turn().unwrap();
        game.end_turn().unwrap();
        assert_eq!(baseline_turns(&game), vec![0, 0], "asked: {asked}");
        let text = game.save().to_json();
        let save = GameSave::from_json(&text).unwrap();
        assert_eq!(save.baseline_sides, vec!["british"]);
        assert_eq!(save.asked, asked);
        let mut resumed = replay(&game, &save).unwrap();
        assert!(baseline_commands_the_british(&resumed), "asked: {asked}");
        assert_eq!(format!("{:?}", resumed.log()), format!("{:?}", game.log()));
        assert_eq!(units(&resumed), units(&game));
        // The same future: the resumed game rolls on where the save left
        // off (from the seed, or the seeded generator standing in for the
        // player's dice in both).
        if asked {
            let dice = || Some(Box::new(Seeded::new(0xF00D)) as Box<dyn Roller>);
            game = Match::from_save(
                &save,
                game.scenario.clone(),
                game.rules().clone(),
                game.tables.clone(),
                dice(),
            )
            .unwrap();
            resumed = Match::from_save(
                &save,
                resumed.scenario.clone(),
                resumed.rules.clone(),
                resumed.tables.clone(),
                dice(),
            )
            .unwrap();
        }
        game.end_turn().unwrap();
        resumed.end_turn().unwrap();
        assert_eq!(baseline_turns(&resumed), vec![0, 0, 0]);
        assert_eq!(format!("{:?}", resumed.log()), format!("{:?}", game.log()));
        assert_eq!(resumed.save(), game.save());
    }
}

#[test]
fn rewind_and_undo_in_a_baseline_game_keep_the_baseline_commanding_its_side() {
    let mut straight = baseline_game(21, None);
    straight.end_turn().unwrap();
    let at_turn_2 = format!("{:?}", straight.log());
    straight.end_turn().unwrap();
    let at_turn_3 = format!("{:?}", straight.log());

    let mut game = baseline_game(21, None);
    game.end_turn().unwrap();
    let kept = game.actions().len();
    game.act(forward(&game, "1st Maryland", 3.0)).unwrap();
    game.end_turn().unwrap();
    game.end_turn().unwrap();
    assert_eq!(game.state().turn, 4);
    assert_eq!(baseline_turns(&game), vec![0, 0, 0]);
    // Back to the start of turn 2: the baseline's turn 1 is played again,
    // the same, by the baseline.
    let taken = game.actions().len() - kept;
    assert_eq!(game.rewind(2).unwrap(), taken);
    assert!(baseline_commands_the_british(&game));
    assert_eq!(format!("{:?}", game.log()), at_turn_2);
    assert_eq!(game.save().baseline_sides, vec!["british"]);
    // Ending the turn now, the baseline plays the British turn 2 exactly as
    // in a game that never had the taken-back actions.
    game.end_turn().unwrap();
    assert_eq!(format!("{:?}", game.log()), at_turn_3);
    assert_eq!(baseline_turns(&game), vec![0, 0]);
    // Undo across the turn takes back the baseline's turn with it, and the
    // baseline plays it again when the turn ends again.
    game.undo().unwrap();
    assert!(baseline_commands_the_british(&game));
    assert_eq!(baseline_turns(&game), vec![0]);
    game.act(Action::EndPhase).unwrap();
    assert_eq!(format!("{:?}", game.log()), at_turn_3);
}

#[test]
fn a_save_giving_the_baseline_a_missing_or_the_players_side_is_refused() {
    let game = baseline_game(5, None);
    let refused = |change: &dyn Fn(&mut GameSave)| {
        let mut save = game.save();
        change(&mut save);
        replay(&game, &save).err().expect("refused").to_string()
    };
    assert_eq!(
        refused(&|save| save.baseline_sides = vec!["british".into(), "hessians".into()]),
        "the saved game names no side `hessians` (its scenario has british, americans)"
    );
    assert_eq!(
        refused(&|save| save.baseline_sides = vec!["americans".into()]),
        "the saved game gives the americans both to the player and to the baseline"
    );
    // A save without the field is foe against foe.
    let mut value: serde_json::Value = serde_json::from_str(&game.save().to_json()).unwrap();
    value.as_object_mut().unwrap().remove("baseline_sides");
    let old = GameSave::from_json(&value.to_string()).unwrap();
    assert!(old.baseline_sides.is_empty());
    let replayed = replay(&game, &old).unwrap();
    assert!(replayed.opponent(0).is_some());
}

#[test]
fn a_saved_game_keeps_the_opponent_rules_it_was_played_by() {
    // Watch Guilford with two plan rules off; the save names them, and a
    // resume with every rule on still replays the game as it was played.
    let (scenario, rules, file) = builtin("guilford");
    let mut off = Tables::embedded();
    off.opponent.rules.set("close-to-range", false).unwrap();
    off.opponent.rules.set("hold-the-line", false).unwrap();
    let mut game = MatchSetup::new(scenario.clone(), file, rules.clone(), Arc::new(off))
        .seed(21)
        .start()
        .unwrap();
    for _ in 0..6 {
        game.step();
    }
    let save = GameSave::from_json(&game.save().to_json()).unwrap();
    // `cavalry-reserve` is off by default (ruling PL9), so it is named too.
    assert_eq!(
        save.rules_off,
        vec!["close-to-range", "cavalry-reserve", "hold-the-line"]
    );
    let every_rule_on = Arc::new(Tables::embedded());
    let resumed =
        Match::from_save(&save, scenario.clone(), rules.clone(), every_rule_on, None).unwrap();
    assert_eq!(format!("{:?}", resumed.log()), format!("{:?}", game.log()));
    // A rule this foe does not know is refused by name, not ignored.
    let mut unknown = save.clone();
    unknown.rules_off.push("ambush".into());
    let error = Match::from_save(
        &unknown,
        scenario,
        rules,
        Arc::new(Tables::embedded()),
        None,
    )
    .err()
    .unwrap();
    assert!(error.to_string().contains("`ambush`"), "{error}");
}
