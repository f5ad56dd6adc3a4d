//! Unit tests of the companion game, with forced dice.

use super::*;
use crate::dice::Scripted;

fn tables() -> Tables {
    Tables::embedded()
}

fn unit(name: &str, class: &str, figures: u32, character: Option<Character>) -> Action {
    Action::AddUnit {
        unit: UnitSetup {
            name: name.into(),
            class: class.into(),
            figures,
            formation: None,
            character,
        },
    }
}

fn answers(line: &str, game: &Game, name: &str) -> Answers {
    let index = game.unit_index(name).unwrap();
    let context = game.context(&game.units[index]);
    let words: Vec<&str> = line.split_whitespace().collect();
    questions::fast(&words, &context).unwrap()
}

/// Apply actions in turn with the given dice; every die must be used.
struct Play {
    tables: Tables,
    session: Session,
}

impl Play {
    fn new() -> Play {
        Play {
            tables: tables(),
            session: Session::new(),
        }
    }

    fn act(&mut self, action: Action, dice: &[u8]) -> Vec<Event> {
        let mut roller = Scripted::new(dice.iter().copied());
        let events = self
            .session
            .apply(&self.tables, action, &mut roller)
            .unwrap();
        assert_eq!(roller.remaining(), 0, "unused dice");
        events
    }

    fn answer(&mut self, name: &str, line: &str, dice: &[u8]) -> Vec<Event> {
        let answers = answers(line, &self.session.game, name);
        self.act(
            Action::Answer {
                name: name.into(),
                answers,
            },
            dice,
        )
    }

    fn game(&self) -> &Game {
        &self.session.game
    }
}

fn tested(events: &[Event]) -> &Outcome {
    events
        .iter()
        .find_map(|event| match event {
            Event::UnitTested { outcome, .. } => Some(outcome),
            _ => None,
        })
        .expect("a unit test")
}

fn general_reaction(events: &[Event]) -> Option<(Reaction, Whereabouts)> {
    events.iter().find_map(|event| match event {
        Event::GeneralReacted {
            reaction,
            whereabouts,
            ..
        } => Some((reaction.reaction, *whereabouts)),
        _ => None,
    })
}

/// The army of the three-bound story below: one provincial unit, an average
/// general (start roll 50: C, on a hill, not at the rear), the French table.
fn provincials() -> Play {
    let mut play = Play::new();
    play.act(
        unit("prov", "provincial-militia", 10, Some(Character::Average)),
        &[],
    );
    play.act(
        Action::SetGeneral {
            general: GeneralSetup {
                name: Some("Colonel Test".into()),
                character: Some(Character::Average),
            },
        },
        &[50],
    );
    play.act(
        Action::SetReinforcements {
            army: "french".into(),
        },
        &[],
    );
    play
}

#[test]
fn a_withdrawal_followed_by_minus_one_routs_and_the_general_reacts() {
    let mut play = provincials();
    play.act(Action::StartBound, &[]);
    // Provincials in the open +1, enemy within 6" -1, three figures -3, die 1: -2.
    // The general tests for own troops withdrawing: d100 70 is D for an average
    // general; the French d100 50 is Canadian militia, character 50 (average),
    // reserve test die 2: -1 +3 +2 = 4, stand and fire, so it stays off.
    let events = play.answer("prov", "open d=4 lost=3", &[1, 70, 50, 50, 2]);
    let outcome = tested(&events);
    assert_eq!((outcome.total, outcome.order), (-2, Order::Withdraw));
    assert_eq!(
        general_reaction(&events),
        Some((Reaction::D, Whereabouts::Unchanged))
    );
    assert!(
        events
            .iter()
            .any(|event| matches!(event, Event::ReserveTested { enters: false, .. }))
    );
    assert!(matches!(
        events.last(),
        Some(Event::BoundEnded { bound: 1, .. })
    ));
    let prov = &play.game().units[0];
    assert!(prov.withdrew_last_bound);
    assert_eq!((prov.figures, prov.last_order), (7, Some(Order::Withdraw)));
    assert_eq!(play.game().reserves.len(), 1);

    // Bound 2: the reserve tests again (die 6: +8, advance) and enters.
    let events = play.act(Action::StartBound, &[6]);
    assert!(
        events
            .iter()
            .any(|event| matches!(event, Event::ReserveTested { enters: true, .. }))
    );
    assert_eq!(play.game().units[1].name, "canadian-militia-1");
    assert!(play.game().reserves.is_empty());
    // Withdrew last bound: retreat column (provincials -2), enemy within 6"
    // -2, die 3: -1, and a second withdrawal routs. The general tests again
    // (a new bound): 85 is E, he rides to the rear.
    let events = play.answer("prov", "open d=4", &[3, 85]);
    let outcome = tested(&events);
    assert_eq!((outcome.total, outcome.order), (-1, Order::Rout));
    assert!(outcome.column_note.unwrap().contains("withdrew last bound"));
    assert_eq!(
        general_reaction(&events),
        Some((Reaction::E, Whereabouts::ToRear))
    );
    assert_eq!(
        play.game()
            .units
            .iter()
            .map(|unit| unit.name.as_str())
            .collect::<Vec<_>>(),
        ["canadian-militia-1"],
        "the routed unit left the army"
    );
    assert!(!play.game().in_bound, "the newcomer moved when it entered");

    // Bound 3: a second E while at the rear takes him off for good.
    play.act(Action::StartBound, &[]);
    let events = play.act(
        Action::Report {
            trigger: Trigger::EnemyAttackingWithin6,
        },
        &[90],
    );
    assert_eq!(
        general_reaction(&events),
        Some((Reaction::E, Whereabouts::OffTable))
    );
    let events = play.act(
        Action::Report {
            trigger: Trigger::EnemyWithdrawing,
        },
        &[],
    );
    assert!(
        matches!(&events[0], Event::TriggerIgnored { reason, .. } if reason.contains("left the table"))
    );
    let context = play.game().context(&play.game().units[0]);
    assert!(!context.general_on_table);
}

/// Every roll is followed by the event it decides before the next roll is
/// drawn, so a player rolling real dice sees each result before the next
/// die is asked: the dice drawn before the events of a withdrawal that
/// calls up rated reinforcements, and of a general rolled whole, go up one
/// at a time.
#[test]
fn every_roll_is_followed_by_the_event_it_decides() {
    let drawn_before = |game: &Game, action: Action, dice: &[u8]| -> Vec<usize> {
        let mut roller = Scripted::new(dice.iter().copied());
        let (_, events) = game.apply_paced(&tables(), &action, &mut roller).unwrap();
        assert_eq!(roller.remaining(), 0, "unused dice");
        events.into_iter().map(|(drawn, _)| drawn).collect()
    };
    let mut play = provincials();
    play.act(Action::StartBound, &[]);
    let answer = Action::Answer {
        name: "prov".into(),
        answers: answers("open d=4 lost=3", play.game(), "prov"),
    };
    // The unit's test, the general's reaction, the reinforcement table, the
    // reserve's character, its test; then the end of the bound.
    assert_eq!(
        drawn_before(play.game(), answer, &[1, 70, 50, 50, 2]),
        [1, 2, 3, 4, 5, 5]
    );
    // Rank, name, character, start position.
    let general = Action::SetGeneral {
        general: GeneralSetup::default(),
    };
    assert_eq!(
        drawn_before(&Game::new(), general, &[5, 7, 20, 90]),
        [1, 2, 3, 4]
    );
}

#[test]
fn one_trigger_makes_the_general_test_once_a_bound() {
    let mut play = provincials();
    play.act(
        Action::Report {
            trigger: Trigger::EnemyWithdrawing,
        },
        &[10],
    );
    let events = play.act(
        Action::Report {
            trigger: Trigger::EnemyWithdrawing,
        },
        &[],
    );
    assert!(
        matches!(&events[0], Event::TriggerIgnored { reason, .. } if reason.contains("already"))
    );
    // A unit that sees the enemy retreat raises the same trigger: no roll.
    play.act(Action::StartBound, &[]);
    play.answer("prov", "open d=10 retreat", &[4]);
    // The bound is over: the trigger counts again.
    play.act(
        Action::Report {
            trigger: Trigger::EnemyWithdrawing,
        },
        &[10],
    );
}

#[test]
fn casualties_are_remembered_and_under_half_strength_costs_six() {
    let mut play = Play::new();
    play.act(unit("rangers", "rangers", 10, None), &[]);
    play.act(Action::StartBound, &[]);
    // Rangers in the open 0, enemy over 15" +1, no enemy in sight +3, five lost -5, die 4.
    let outcome = tested(&play.answer("rangers", "unseen lost=5", &[4])).clone();
    assert_eq!(outcome.total, 3, "5 of 10 is not under half");
    play.act(Action::StartBound, &[]);
    let events = play.answer("rangers", "unseen lost=1", &[4]);
    let Event::UnitTested {
        outcome,
        figures,
        changes,
        ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!(*figures, 4);
    assert!(changes.contains(&Change::UnderHalf));
    assert!(outcome.factors.iter().any(|factor| factor.value == -6));
    assert_eq!(outcome.total, 1 + 3 - 1 - 6 + 4);
    play.act(Action::StartBound, &[]);
    let events = play.answer("rangers", "lost=4", &[]);
    assert!(matches!(&events[0], Event::UnitDestroyed { name } if name == "rangers"));
    assert!(play.game().units.is_empty());
}

#[test]
fn a_lost_melee_counts_in_the_next_test_only() {
    let mut play = Play::new();
    play.act(unit("marine", "troupes-de-la-marine", 12, None), &[]);
    play.act(Action::LostMelee { name: "mar".into() }, &[]);
    play.act(Action::StartBound, &[]);
    // The remembered loss is this bound's default.
    let outcome = tested(&play.answer("marine", "natural d=8", &[4])).clone();
    assert!(
        outcome
            .factors
            .iter()
            .any(|factor| factor.id == "lost-melee")
    );
    play.act(Action::StartBound, &[]);
    let outcome = tested(&play.answer("marine", "natural d=8", &[4])).clone();
    assert!(
        !outcome
            .factors
            .iter()
            .any(|factor| factor.id == "lost-melee")
    );
}

#[test]
fn formation_and_disorder_follow_the_instructions() {
    let mut play = Play::new();
    play.act(
        Action::AddUnit {
            unit: UnitSetup {
                name: "44th".into(),
                class: "british-regulars".into(),
                figures: 20,
                formation: Some(Formation::Column),
                character: None,
            },
        },
        &[],
    );
    play.act(Action::StartBound, &[]);
    // Regulars in the open +2, enemy within 6" -1, die 1 (+2): stand and fire; in column, deploy.
    let events = play.answer("44th", "open d=5", &[1]);
    assert!(
        matches!(&events[0], Event::UnitTested { changes, .. } if changes == &[Change::Formation(Formation::Line)])
    );
    // Total 0: fire and withdraw; close order troops are disordered.
    play.act(Action::StartBound, &[]);
    let events = play.answer("44th", "open d=5 lost=2", &[1]);
    assert!(
        matches!(&events[0], Event::UnitTested { changes, .. } if changes.contains(&Change::Disordered))
    );
    let unit = &play.game().units[0];
    assert!(unit.disordered && unit.withdrew_last_bound);
}

/// An order to march in column out of sight must not leave guns "in
/// column", a formation artillery cannot be in (every later answer for
/// them would be refused): guns marching limber up, and the next bound's
/// test goes on.
#[test]
fn guns_told_to_march_in_column_limber_up_and_can_be_tested_again() {
    let mut play = Play::new();
    play.act(
        Action::AddUnit {
            unit: UnitSetup {
                name: "guns".into(),
                class: "artillery".into(),
                figures: 4,
                formation: Some(Formation::Unlimbered),
                character: None,
            },
        },
        &[],
    );
    play.act(Action::StartBound, &[]);
    // Open ground +1, die 6 (+6): out of sight, march in column.
    let events = play.answer("guns", "open unseen", &[6]);
    let outcome = tested(&events);
    assert_eq!(outcome.instruction.formation, Some(Formation::Column));
    assert!(
        matches!(&events[0], Event::UnitTested { changes, .. } if changes == &[Change::Formation(Formation::Limbered)]),
        "{events:?}"
    );
    assert_eq!(play.game().units[0].formation, Formation::Limbered);
    play.act(Action::StartBound, &[]);
    let events = play.answer("guns", "open d=5", &[3]);
    assert!(matches!(&events[0], Event::UnitTested { .. }), "{events:?}");
    // Formations the class can take are kept as the order gives them.
    assert_eq!(
        formation_for(ClassKind::Line, Formation::Column),
        Some(Formation::Column)
    );
    assert_eq!(formation_for(ClassKind::Artillery, Formation::Line), None);
}

/// A reinforcement of guns told to march on "in column" comes on limbered,
/// as guns march: left in column, every answer for it would be refused
/// (after drawing its die) and the bound could not end.
#[test]
fn guns_called_up_come_on_limbered_and_take_their_next_test() {
    let mut play = provincials();
    // d100 70: D for an average general; French d100 91: light artillery
    // (not rated, no character roll); reserve test in the open, no enemy in
    // sight, die 6: it marches on in column.
    let events = play.act(
        Action::Report {
            trigger: Trigger::OwnTroopsWithdrawing,
        },
        &[70, 91, 6],
    );
    assert!(
        events.iter().any(
            |event| matches!(event, Event::ReserveTested { enters: true, outcome, .. }
                if outcome.instruction.formation == Some(Formation::Column))
        ),
        "{events:?}"
    );
    let guns = &play.game().units[1];
    assert_eq!(
        (guns.name.as_str(), guns.formation),
        ("light-artillery-1", Formation::Limbered)
    );
    play.act(Action::StartBound, &[]);
    play.answer("prov", "open d=10", &[4]);
    let events = play.answer("light-artillery-1", "open d=5", &[3]);
    assert!(matches!(&events[0], Event::UnitTested { .. }), "{events:?}");
}

/// An answer the chart refuses (an impossible distance, which only a
/// damaged save or a library caller can give) is refused before foe's die
/// is drawn: the dice stay where they were.
#[test]
fn a_refused_answer_draws_no_dice() {
    let mut play = provincials();
    play.act(Action::StartBound, &[]);
    let before = play.session.clone();
    for distance in [-1.0, f64::NAN, f64::INFINITY] {
        let mut answers = answers("open d=4", play.game(), "prov");
        answers.distance = Some(distance);
        // No dice at all: drawing one would panic.
        let mut roller = Scripted::new([]);
        let error = play
            .session
            .apply(
                &play.tables,
                Action::Answer {
                    name: "prov".into(),
                    answers,
                },
                &mut roller,
            )
            .unwrap_err();
        assert!(
            error.to_string().starts_with("enemy distance must be"),
            "{error}"
        );
    }
    assert_eq!(play.session, before);
    play.answer("prov", "open d=4", &[4]);
}

/// Limbered guns cannot fire: whatever the answers and the die, the order
/// for them never says to fire (a charge or an advance behind hard cover
/// unlimbers them instead), and unlimbered guns still do.
#[test]
fn limbered_guns_are_never_told_to_fire() {
    let guns = |formation| {
        let mut play = Play::new();
        play.act(
            Action::AddUnit {
                unit: UnitSetup {
                    name: "guns".into(),
                    class: "artillery".into(),
                    figures: 4,
                    formation: Some(formation),
                    character: None,
                },
            },
            &[],
        );
        play.act(
            Action::SetGeneral {
                general: GeneralSetup {
                    name: Some("Colonel Test".into()),
                    character: Some(Character::Average),
                },
            },
            &[50],
        );
        play.act(Action::StartBound, &[]);
        play
    };
    let lines = [
        "open d=4",
        "open d=10 general support",
        "natural d=5 general support",
        "hard d=4",
        "hard d=8",
        "hard d=8 general support",
        "hard d=20 general support",
    ];
    let fired = |formation| {
        let play = guns(formation);
        let mut fired = Vec::new();
        for line in lines {
            for die in 1..=6 {
                let action = Action::Answer {
                    name: "guns".into(),
                    answers: answers(line, play.game(), "guns"),
                };
                // The die, then whatever the general's test needs.
                let mut roller = Scripted::then([die], Box::new(crate::dice::Seeded::new(1)));
                let (_, events) = play
                    .game()
                    .apply(&play.tables, &action, &mut roller)
                    .unwrap();
                let outcome = tested(&events);
                fired.push((
                    outcome.order,
                    outcome.instruction.fire != crate::tables::Fire::None,
                    outcome.instruction.formation,
                    outcome.instruction.does.to_string(),
                ));
            }
        }
        fired
    };
    let limbered = fired(Formation::Limbered);
    assert!(limbered.iter().all(|(_, fires, ..)| !fires), "{limbered:?}");
    // The orders that fire for unlimbered guns were given: a charge
    // unlimbers them, behind hard cover they stand fast.
    assert!(
        limbered
            .iter()
            .any(|(order, _, formation, _)| *order == Order::Charge
                && *formation == Some(Formation::Unlimbered)),
        "{limbered:?}"
    );
    assert!(
        limbered
            .iter()
            .any(|(order, _, _, does)| *order == Order::AdvanceAndFire
                && does == "Behind hard cover, stand fast; limbered guns cannot fire.")
    );
    let unlimbered = fired(Formation::Unlimbered);
    for order in [Order::Charge, Order::AdvanceAndFire] {
        assert!(
            unlimbered
                .iter()
                .any(|(given, fires, ..)| *given == order && *fires),
            "{unlimbered:?}"
        );
    }
}

/// A unit told to fire is told what to fire at (ruling C13, foe's
/// focus-fire); a unit that does not fire is told nothing.
#[test]
fn a_unit_told_to_fire_is_told_its_target() {
    let mut play = Play::new();
    play.act(unit("rangers", "rangers", 8, None), &[]);
    play.act(Action::StartBound, &[]);
    // Natural cover +2, enemy within 6" -2, die 2: +2, stand and fire.
    let events = play.answer("rangers", "natural d=5", &[2]);
    let outcome = tested(&events);
    assert_eq!(outcome.order, Order::StandAndFire);
    assert_eq!(
        fire_target(outcome),
        Some(
            "the enemy unit in range and sight that has lost the most figures; the nearest of those if several have lost as many"
        )
    );
    // Out of sight, stand fast: no fire, no target.
    play.act(Action::StartBound, &[]);
    let events = play.answer("rangers", "natural unseen d=far", &[1]);
    let outcome = tested(&events);
    assert_eq!(outcome.instruction.fire, crate::tables::Fire::None);
    assert_eq!(fire_target(outcome), None);
}

/// The companion takes the class words `foe react --class` takes: the
/// troop types of the built-in battles test as their reaction class, and
/// a misspelt word gets the same did-you-mean.
#[test]
fn units_take_the_built_in_battles_troop_types() {
    let mut play = Play::new();
    let events = play.act(unit("1st-md", "continentals", 12, None), &[]);
    assert!(
        matches!(&events[0], Event::UnitJoined { class_name, .. } if class_name == "continentals (tests as British Regulars)"),
        "{events:?}"
    );
    // Guilford's militia test as local militia, a rated class: a character is rolled.
    play.act(unit("eaton", "Militia", 10, None), &[50]);
    let units: Vec<(&str, &str, Option<Character>)> = play
        .game()
        .units
        .iter()
        .map(|unit| (unit.name.as_str(), unit.class.as_str(), unit.character))
        .collect();
    assert_eq!(
        units,
        [
            ("1st-md", "british-regulars", None),
            ("eaton", "local-militia", Some(Character::Average))
        ]
    );
    let tables = tables();
    let mut roller = Scripted::new([]);
    let error = play
        .session
        .apply(&tables, unit("x", "continentls", 12, None), &mut roller)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown troop class `continentls`; did you mean `continentals`?"
    );
    let army = "name: Guilford\nnation: british\nreinforcements: british\nunits:\n  - { name: 1st-md, class: continentals, figures: 12 }\n  - { name: riflemen, class: riflemen, figures: 8 }\n  - { name: guns, class: artillery, figures: 4, formation: limbered }\n";
    assert!(army::parse(&tables, "guilford.yaml", army).is_ok());
}

#[test]
fn rated_units_roll_their_character_and_others_refuse_one() {
    let mut play = Play::new();
    let events = play.act(unit("canadiens", "canadian-militia", 12, None), &[3]);
    assert!(matches!(
        &events[0],
        Event::UnitJoined {
            character: Some(Character::Rash),
            character_roll: Some(3),
            ..
        }
    ));
    let mut roller = Scripted::new([]);
    let error = play
        .session
        .apply(
            &play.tables,
            unit("44th", "british-regulars", 20, Some(Character::Brave)),
            &mut roller,
        )
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "british-regulars have no character rating; only militia and provincial classes are rated"
    );
}

#[test]
fn refused_actions_change_nothing() {
    let mut play = provincials();
    let before = play.session.clone();
    let tables = tables();
    let check = |play: &mut Play, action: Action, expected: &str| {
        let mut roller = Scripted::new([]);
        let error = play
            .session
            .apply(&tables, action, &mut roller)
            .unwrap_err();
        assert_eq!(error.to_string(), expected);
    };
    check(
        &mut play,
        Action::Answer {
            name: "prov".into(),
            answers: Answers::default(),
        },
        "no bound is open; type `bound` to begin the next one",
    );
    check(
        &mut play,
        Action::LostMelee { name: "prv".into() },
        "unknown unit `prv`; did you mean `prov`?",
    );
    check(
        &mut play,
        unit("prov", "rangers", 6, None),
        "there is already a unit `prov`; choose another name",
    );
    check(
        &mut play,
        Action::SetReinforcements {
            army: "prussian".into(),
        },
        "unknown army `prussian`; expected one of: french, british",
    );
    assert_eq!(play.session, before);
}

#[test]
fn undo_replays_the_rest_with_their_rolls() {
    let mut play = provincials();
    play.act(Action::StartBound, &[]);
    let before = play.session.clone();
    play.answer("prov", "open d=4 lost=3", &[1, 70, 50, 50, 2]);
    let undone = play.session.undo(&play.tables).unwrap();
    assert!(matches!(undone.action, Action::Answer { .. }));
    assert_eq!(undone.rolls, [1, 70, 50, 50, 2]);
    assert_eq!(play.session, before);
    assert!(play.session.game.in_bound);
}

#[test]
fn a_save_round_trips_and_refuses_newer_or_damaged_files() {
    let mut play = provincials();
    play.act(Action::StartBound, &[]);
    play.answer("prov", "open d=4 lost=3", &[1, 70, 50, 50, 2]);
    let text = SaveFile::of(&play.session, Some(7), &[Die::D6]).to_json();
    let save = SaveFile::from_json(&text).unwrap();
    assert_eq!(save.seed, Some(7));
    assert_eq!(save.session(&play.tables).unwrap(), play.session);

    let newer = text.replace("\"version\": 3", "\"version\": 4");
    assert_eq!(
        SaveFile::from_json(&newer).unwrap_err().to_string(),
        "the save is format version 4, written by a newer foe; this foe reads up to version 3"
    );
    let cut = &text[..text.len() / 2];
    assert!(
        SaveFile::from_json(cut)
            .unwrap_err()
            .to_string()
            .starts_with("the save is damaged")
    );
    // A save changed by hand (its seed or its dice drawn decide every later
    // die; its rolls the game so far) is refused by its check.
    let changed = "the save was changed after foe wrote it (its content does not match its `check`): its seed, dice or answers are not the game that was played";
    for tampered in [
        text.replace("\"seed\": 7", "\"seed\": 8"),
        text.replace("\"d6\"", "\"d100\""),
        text.replacen("\"rolls\": [\n        1,", "\"rolls\": [\n        2,", 1),
    ] {
        assert_ne!(tampered, text);
        assert_eq!(
            SaveFile::from_json(&tampered).unwrap_err().to_string(),
            changed
        );
    }
    let unchecked = serde_json::to_string_pretty(&SaveFile {
        check: None,
        ..save.clone()
    })
    .unwrap();
    assert_eq!(
        SaveFile::from_json(&unchecked).unwrap_err().to_string(),
        "the save was changed after foe wrote it (it has no `check`): its seed, dice or answers are not the game that was played"
    );
    // A version 2 save (no check) whose rolls were tampered with does not
    // replay.
    let old = SaveFile {
        version: 2,
        check: None,
        made: None,
        ..save
    };
    let old = serde_json::to_string_pretty(&old).unwrap();
    let tampered = old.replacen("\"rolls\": [\n        1,", "\"rolls\": [\n        9,", 1);
    assert_ne!(tampered, old);
    let error = SaveFile::from_json(&tampered)
        .unwrap()
        .session(&play.tables)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the save is damaged (action 5: recorded roll 9 is not a face of the D6)"
    );
}

#[test]
fn the_example_armies_load_as_one_action() {
    let tables = tables();
    for (name, text) in army::EXAMPLES {
        let setup = army::parse(&tables, name, text).unwrap();
        let mut session = Session::new();
        let mut roller = crate::dice::Seeded::new(1);
        session
            .apply(
                &tables,
                Action::LoadArmy {
                    army: setup.clone(),
                },
                &mut roller,
            )
            .unwrap();
        assert_eq!(session.game.units.len(), setup.units.len());
        assert!(session.game.general.is_some());
        for unit in &session.game.units {
            let rated = tables.reaction.class(&unit.class).unwrap().1.rated;
            assert_eq!(unit.character.is_some(), rated, "{}", unit.name);
        }
    }
}

#[test]
fn a_general_rolled_for_an_army_set_up_by_hand_takes_its_reinforcement_tables_nation() {
    // A British army typed in by hand (`reinforcements british`, then
    // `general`) once drew French names: "Brigadier de Beaujeu".
    let mut play = Play::new();
    play.act(
        Action::SetReinforcements {
            army: "british".into(),
        },
        &[],
    );
    play.act(
        Action::SetGeneral {
            general: GeneralSetup::default(),
        },
        // Rank 2 and surname 1 of the nation's lists, character, start.
        &[2, 1, 50, 50],
    );
    let general = play.game().general.as_ref().expect("a general");
    assert_eq!(general.name, "Brigadier Gage");
}
