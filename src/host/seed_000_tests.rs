//! Seed 000 in the one runner: the player's turn after foe's first,
//! refusals, rollback across turns, saves that replay to the same state
//! and future, the player's own dice, watched games and the baseline.

use super::awi::Entry;
use super::run::{Rollback, Start};
use super::save::{GameSave, Watched};
use super::test_game::{Seed000, begin, builtin, start, tables};
use crate::dice::{Roller, Seeded};
use crate::rules::{Action, UnitId, Volley};
use crate::tables::Tables;

fn forward(game: &Seed000, name: &str, inches: f64) -> Action {
    let unit = game.state().find_unit(name).unwrap();
    let base = game.state().unit(unit).base;
    Action::Move {
        unit,
        to: base.centre + base.forward() * inches,
        facing: base.facing,
    }
}

/// What a rollback refused says.
fn said(rollback: Rollback) -> String {
    match rollback {
        Rollback::Nothing(said) | Rollback::Replay(said) => said,
    }
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

#[test]
fn a_refused_action_changes_nothing() {
    let mut game = start("guilford", 3, vec![0]);
    let before = game.save();
    let unit = game.state().find_unit("23rd Foot").unwrap();
    let refusal = game
        .act(Action::Fire {
            unit,
            target: UnitId(20),
            volley: Volley::Single,
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
    let action = forward(&game, "23rd Foot", 4.0);
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
        said(game.undo().unwrap_err()),
        "nothing to undo: you have not acted yet"
    );
    assert!(game.game.undo_turn().is_err());
}

#[test]
fn undo_reaches_back_across_a_turn_and_the_opponent_replays_the_same() {
    let mut game = start("guilford", 3, vec![0]);
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn();
    assert_eq!(game.state().turn, 2);
    let after_turn = game.units();
    let log_length = game.log().len();
    // The last action was the end of the player's turn 1: taking it back
    // takes back the Americans' turn 2 that followed it.
    assert_eq!(game.undo().unwrap(), Action::EndPhase);
    assert_eq!(game.state().turn, 1);
    assert!(game.players_turn());
    // Ending the turn again plays the Americans' turn again, the same.
    game.end_turn();
    assert_eq!(game.units(), after_turn);
    assert_eq!(game.log().len(), log_length);
}

#[test]
fn undo_turn_and_rewind_go_back_to_the_start_of_a_turn() {
    let mut game = start("guilford", 4, vec![0]);
    let turn_one = game.units();
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn();
    let turn_two = game.units();
    game.act(forward(&game, "33rd Foot", 3.0)).unwrap();
    game.act(forward(&game, "71st Foot", 3.0)).unwrap();
    // This turn's two moves go.
    assert_eq!(game.game.undo_turn().ok(), Some((2, 2)));
    assert_eq!(game.units(), turn_two);
    // At the start of turn 2, `undo turn` takes back turn 1.
    let (turn, _) = game.game.undo_turn().ok().unwrap();
    assert_eq!(turn, 1);
    assert_eq!(game.units(), turn_one);
    assert!(game.actions().is_empty());
    assert!(said(game.game.rewind(2).unwrap_err()).contains("turn 2"));
    // Play to turn 3, then rewind to the start of turn 2: the save holds
    // only the kept prefix.
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn();
    let kept = game.actions().len();
    game.act(forward(&game, "33rd Foot", 3.0)).unwrap();
    game.end_turn();
    assert_eq!(game.state().turn, 3);
    assert!(game.game.rewind(2).ok().unwrap() > 1);
    assert_eq!(game.units(), {
        let mut again = start("guilford", 4, vec![0]);
        again.act(forward(&again, "23rd Foot", 4.0)).unwrap();
        again.end_turn();
        again.units()
    });
    assert_eq!(game.save().actions.len(), kept);
    assert!(game.game.rewind(2).is_err());
}

#[test]
fn a_save_replays_to_the_same_state_and_the_same_future() {
    let mut game = start("guilford", 9, vec![0]);
    game.act(forward(&game, "Guards Grenadiers", 5.0)).unwrap();
    game.end_turn();
    let loaded = GameSave::from_json(&game.save().to_json()).unwrap();
    let mut replayed = game.replay(&loaded).unwrap();
    assert_eq!(replayed.units(), game.units());
    game.end_turn();
    replayed.end_turn();
    assert_eq!(replayed.units(), game.units());
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

/// A Guilford game with "the player's own dice" (a generator the runner
/// cannot recreate from its seed), the first turn ended.
fn asked_game() -> Seed000 {
    let dice: Box<dyn Roller> = Box::new(Seeded::new(0xD1CE));
    let start = Start::new(builtin("guilford").0, tables(), 1).player_sides(vec![0]);
    let mut game = begin("guilford", start, Some(dice));
    game.end_turn();
    game
}

#[test]
fn a_game_with_the_players_own_dice_replays_from_its_recorded_rolls() {
    let mut game = asked_game();
    let gun = game.state().find_unit("Royal Artillery").unwrap();
    let target = game.state().find_unit("Singleton's Gun").unwrap();
    game.act(Action::EndPhase).unwrap();
    let before_fire = game.units();
    game.act(Action::Fire {
        unit: gun,
        target,
        volley: Volley::Single,
    })
    .unwrap();
    let save = game.save();
    assert!(save.asked && !save.rolls.is_empty());
    let replayed = game.replay(&save).unwrap();
    assert_eq!(replayed.units(), game.units());
    // Undo forgets the fire's roll: the state is as before it.
    game.undo().unwrap();
    assert_eq!(game.units(), before_fire);
    assert_eq!(game.save().rolls.len() + 1, save.rolls.len());
}

#[test]
fn a_damaged_record_of_rolls_is_refused_with_what_is_wrong_not_a_panic() {
    let game = asked_game();
    let good = game.save();
    assert!(game.replay(&good).is_ok());
    let refused = |change: &dyn Fn(&mut GameSave)| {
        let mut save = good.clone();
        change(&mut save);
        game.replay(&save).err().expect("refused")
    };
    // The generals' characters are the first rolls, on the d100.
    assert_eq!(
        refused(&|save| save.rolls[0] = 0),
        "the set-up: recorded roll 0 is not a face of the d100"
    );
    assert_eq!(
        refused(&|save| save.rolls[1] = 101),
        "the set-up: recorded roll 101 is not a face of the d100"
    );
    // Too few rolls for the player's own actions: never rolled on with
    // other dice.
    assert_eq!(
        refused(&|save| save.rolls.clear()),
        "the set-up: the record of rolls ends where a roll of the d100 is needed"
    );
    assert_eq!(
        refused(&|save| save.rolls.push(3)),
        "the record of rolls: 1 recorded roll left over"
    );
    assert_eq!(
        refused(&|save| save.player_sides = vec!["prussians".into()]),
        "the saved game names no side `prussians` (its scenario has british, americans)"
    );
    // A wild number is refused by the rules, never walked inch by inch.
    let unit = game.state().find_unit("23rd Foot").unwrap();
    let wild = refused(&|save| {
        save.actions.insert(
            0,
            super::Action::Awi(Action::Move {
                unit,
                to: crate::battlefield::Point {
                    x: 1e308,
                    y: -1e308,
                },
                facing: 0.0,
            }),
        )
    });
    assert!(
        wild.starts_with("action 1 of the save is refused: "),
        "{wild}"
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
    assert_eq!(GameSave::from_json(old).unwrap().engine, super::Engine::Awi);
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
    let mut resumed = game.replay(&save).unwrap();
    assert_eq!(resumed.units(), game.units());
    game.step();
    resumed.step();
    assert_eq!(resumed.units(), game.units());
}

#[test]
fn rewinding_a_game_with_the_players_dice_forgets_the_rolls_taken_back() {
    let mut game = asked_game();
    let at_start = game.save().rolls.len();
    game.act(forward(&game, "23rd Foot", 4.0)).unwrap();
    game.end_turn();
    assert!(game.save().rolls.len() > at_start);
    game.game.rewind(2).ok().unwrap();
    assert_eq!(game.save().rolls.len(), at_start);
    assert!(game.replay(&game.save()).is_ok());
}

/// Guilford with the player commanding the Americans (who move first) and
/// the scripted baseline the British, on the seeded dice or the player's own.
fn baseline_game(seed: u64, dice: Option<Box<dyn Roller>>) -> Seed000 {
    let start = Start::new(builtin("guilford").0, tables(), seed)
        .player_sides(vec![1])
        .baseline_sides(vec![0]);
    begin("guilford", start, dice)
}

/// Whether the baseline, and not foe's opponent, commands the British.
fn baseline_commands_the_british(game: &Seed000) -> bool {
    game.game.baseline_sides() == [0]
        && matches!(
            crate::host::awi::controller_of(&game.game, 0),
            Some(crate::host::awi::Controller::Baseline(_))
        )
}

/// The baseline's turns in the log, by side.
fn baseline_turns(game: &Seed000) -> Vec<usize> {
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
        game.end_turn();
        game.end_turn();
        assert_eq!(baseline_turns(&game), vec![0, 0], "asked: {asked}");
        let save = GameSave::from_json(&game.save().to_json()).unwrap();
        assert_eq!(save.baseline_sides, vec!["british"]);
        assert_eq!(save.asked, asked);
        let dice = || asked.then(|| Box::new(Seeded::new(0xF00D)) as Box<dyn Roller>);
        let mut resumed = game
            .replay_under(&save, &Tables::embedded(), dice())
            .unwrap();
        assert!(baseline_commands_the_british(&resumed), "asked: {asked}");
        assert_eq!(format!("{:?}", resumed.log()), format!("{:?}", game.log()));
        assert_eq!(resumed.units(), game.units());
        // The same future: both roll on where the save left off (from the
        // seed, or the same generator standing in for the player's dice).
        if asked {
            game = game
                .replay_under(&save, &Tables::embedded(), dice())
                .unwrap();
        }
        game.end_turn();
        resumed.end_turn();
        assert_eq!(baseline_turns(&resumed), vec![0, 0, 0]);
        assert_eq!(format!("{:?}", resumed.log()), format!("{:?}", game.log()));
        assert_eq!(resumed.save(), game.save());
    }
}

#[test]
fn rewind_and_undo_in_a_baseline_game_keep_the_baseline_commanding_its_side() {
    let mut straight = baseline_game(21, None);
    straight.end_turn();
    let at_turn_2 = format!("{:?}", straight.log());
    straight.end_turn();
    let at_turn_3 = format!("{:?}", straight.log());

    let mut game = baseline_game(21, None);
    game.end_turn();
    let kept = game.actions().len();
    game.act(forward(&game, "1st Maryland", 3.0)).unwrap();
    game.end_turn();
    game.end_turn();
    assert_eq!(game.state().turn, 4);
    assert_eq!(baseline_turns(&game), vec![0, 0, 0]);
    // Back to the start of turn 2: the baseline's turn 1 is played again,
    // the same, by the baseline.
    let taken = game.actions().len() - kept;
    assert_eq!(game.game.rewind(2).ok(), Some(taken));
    assert!(baseline_commands_the_british(&game));
    assert_eq!(format!("{:?}", game.log()), at_turn_2);
    assert_eq!(game.save().baseline_sides, vec!["british"]);
    // Ending the turn now, the baseline plays the British turn 2 exactly as
    // in a game that never had the taken-back actions.
    game.end_turn();
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
        game.replay(&save).err().expect("refused")
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
    let replayed = game.replay(&old).unwrap();
    assert!(matches!(
        crate::host::awi::controller_of(&replayed.game, 0),
        Some(crate::host::awi::Controller::Foe(_))
    ));
}

#[test]
fn a_saved_game_keeps_the_opponent_rules_it_was_played_by() {
    // Watch Guilford with two plan rules off; the save names them, and a
    // resume with every rule on still replays the game as it was played.
    let mut off = Tables::embedded();
    off.opponent.rules.set("close-to-range", false).unwrap();
    off.opponent.rules.set("hold-the-line", false).unwrap();
    let mut game = super::test_game::play(
        "guilford",
        Start::new(builtin("guilford").0, std::sync::Arc::new(off), 21),
    );
    for _ in 0..6 {
        game.step();
    }
    let save = GameSave::from_json(&game.save().to_json()).unwrap();
    assert_eq!(save.rules_off, vec!["close-to-range", "hold-the-line"]);
    let resumed = game.replay(&save).unwrap();
    assert_eq!(format!("{:?}", resumed.log()), format!("{:?}", game.log()));
    // A rule this foe does not know is refused by name, not ignored.
    let mut unknown = save.clone();
    unknown.rules_off.push("ambush".into());
    let error = game.replay(&unknown).err().unwrap();
    assert!(error.contains("`ambush`"), "{error}");
}

#[test]
fn a_seeded_game_resumed_with_the_players_dice_replays_from_its_seed() {
    let mut game = start("guilford", 21, vec![0]);
    game.end_turn();
    let save = game.save();
    // Dice that would give different rolls if the replay used them.
    let theirs: Box<dyn Roller> = Box::new(Seeded::new(0xBAD));
    let mut loaded = game
        .replay_under(&save, &Tables::embedded(), Some(theirs))
        .unwrap();
    assert_eq!(loaded.units(), game.units());
    // From now on the rolls are the player's, and saves keep them.
    loaded.game.set_dice(Box::new(Seeded::new(0xBAD)));
    assert!(loaded.save().asked);
}

/// The dice of foe's bound, as its report gives them: each unit's
/// reaction-test die and each general's rolls, in order.
fn foes_dice(entry: &Entry) -> String {
    match entry {
        Entry::Opponent { report, .. } => format!(
            "{:?} {:?}",
            report
                .decisions
                .iter()
                .map(|d| (d.name.clone(), d.outcome.die))
                .collect::<Vec<_>>(),
            report.generals
        ),
        other => panic!("not foe's bound: {other:?}"),
    }
}

/// Ruling P7: undo cannot fish for kinder enemy dice. At Guilford, as
/// the British, the first time a rally is lawful: ending the turn, and
/// rallying (a roll of the player's own) before ending it, give foe's
/// next bound the same dice. Under one stream of dice (a save from
/// before) the extra roll shifts every roll of foe's after it.
#[test]
fn a_roll_of_the_players_own_leaves_foes_next_bound_rolled_the_same() {
    let with = |scheme: crate::dice::Scheme| {
        let mut game = super::test_game::play(
            "guilford",
            Start::new(builtin("guilford").0, tables(), 29)
                .dice_drawn(scheme)
                .player_sides(vec![0]),
        );
        for _ in 0..400 {
            let state = game.state();
            let rally = state
                .generals
                .iter()
                .enumerate()
                .filter(|(_, general)| general.side == 0)
                .flat_map(|(g, _)| {
                    state
                        .units
                        .iter()
                        .enumerate()
                        .map(move |(u, _)| Action::Rally {
                            general: crate::rules::GeneralId(g),
                            units: vec![UnitId(u)],
                        })
                })
                .find(|action| game.players_turn() && state.check(action).is_ok());
            if let Some(rally) = rally {
                let mut rallied = super::test_game::play(
                    "guilford",
                    Start::new(builtin("guilford").0, tables(), 29)
                        .dice_drawn(scheme)
                        .player_sides(vec![0]),
                );
                for action in game.actions() {
                    rallied.game.player(&action).unwrap();
                    rallied.game.play_foe().unwrap();
                }
                let before = (game.log().len(), rallied.log().len());
                rallied.act(rally).unwrap();
                game.end_turn();
                rallied.end_turn();
                let next = |g: &Seed000, from: usize| {
                    g.log()[from..]
                        .iter()
                        .find(|e| matches!(e, Entry::Opponent { .. }))
                        .map(foes_dice)
                        .expect("foe's bound")
                };
                return (next(&game, before.0), next(&rallied, before.1));
            }
            game.act(Action::EndPhase).expect("ends the phase");
        }
        panic!("no rally was lawful in 400 of the player's actions");
    };
    let (ended, rallied) = with(crate::dice::Scheme::Keyed);
    assert_eq!(ended, rallied);
    let (ended, rallied) = with(crate::dice::Scheme::Stream);
    assert_ne!(ended, rallied, "one stream: the rally's roll shifts foe's");
}

/// `why GENERAL` at Guilford: foe's general's last bound, his start
/// position the first time; the player's own general has none.
#[test]
fn why_tells_a_seed_000_generals_bound() {
    let game = start("guilford", 1781, vec![0]);
    let view = crate::render::play::View::of(&game.game).expect("seed 000");
    let greene = crate::render::play::why_general(&view, "Greene");
    assert!(greene.starts_with("Greene ("), "{greene}");
    assert!(greene.contains("start position"), "{greene}");
    let cornwallis = crate::render::play::why_general(&view, "Cornwallis");
    assert!(cornwallis.contains("he is yours"), "{cornwallis}");
}

#[test]
fn foe_takes_its_turn_a_step_at_a_time_and_the_record_tells_it_whole() {
    let mut stepped = start("guilford", 4, vec![]);
    let mut watched = start("guilford", 4, vec![]);
    for _ in 0..4 {
        let (told, side) = (stepped.log().len(), stepped.state().active);
        let mut steps = 0;
        while stepped.log().len() == told {
            assert_eq!(stepped.state().active, side, "told when the turn is over");
            assert!(stepped.game.step_foe().unwrap());
            steps += 1;
        }
        let Some(Entry::Opponent { report, .. }) = stepped.log().last() else {
            panic!("the turn is the opponent's entry");
        };
        let phases = report
            .actions
            .iter()
            .filter(|action| matches!(action, Action::EndPhase))
            .count();
        let seen = report.generals.len()
            + report.reserves.len()
            + report.decisions.len()
            + report.rallies.len();
        // One step a phase's end and one for each general, reserve, unit
        // and rally (and each unit's shot, which may fire nothing).
        assert!(steps >= phases + seen && seen > 0, "{steps} steps");
        assert!(watched.step());
        assert_eq!(watched.log().len(), stepped.log().len());
        assert_eq!(
            watched.log().last().unwrap().events(),
            stepped.log().last().unwrap().events()
        );
    }
}
