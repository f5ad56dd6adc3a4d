//! Seed 004's general officers under seed 001 (ruling HO14), with forced
//! dice: a commander tests when a trigger holds at the start of his side's
//! bound, once, and carries out his reaction in the move phase.

use super::*;
use crate::tables::{Reaction, Trigger};

/// The Americans' overall commander (average) `at`, and militia 6" in
/// front of British regulars that withdraws in turn 1 (militia in the open
/// -2, enemy within 6" -1, die 1: withdraw).
fn withdrawing_militia(at: &str) -> Scenario {
    rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 10], facing: north }",
        ],
        &[
            &format!("{{ name: Greene, character: average, position: {at} }}"),
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 16], facing: south }",
        ],
    )
}

/// No trigger in turn 1; in turn 2 the militia withdrew last bound (own
/// troops withdrawing), so Greene tests: d100 10 is an average general's
/// A, and he rides towards his most stricken unit, 12" a turn.
#[test]
fn a_commander_tests_on_a_trigger_and_rides_to_the_most_stricken_unit() {
    let scenario = withdrawing_militia("[46, 46]");
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    play(&mut game, &mut opponent, 1, &[1], 2);
    assert!(opponent.general_tests().is_empty(), "no trigger in turn 1");
    // Turn 2: the militia stands (retreat column -2, die 6: 4), then
    // Greene's reaction, d100 10.
    let taken = play(&mut game, &mut opponent, 1, &[6, 10], 3);
    let tests = opponent.general_tests();
    assert_eq!(tests.len(), 1, "{tests:?}");
    let test = &tests[0];
    assert_eq!(
        (test.trigger, test.roll, test.reaction),
        (Trigger::OwnTroopsWithdrawing, 10, Reaction::A)
    );
    let ride = taken.iter().find_map(|a| match a {
        Action::Rv(rv::Action::MoveCommander { commander: 1, to }) => Some(*to),
        _ => None,
    });
    let to = ride.unwrap_or_else(|| panic!("{taken:?}"));
    assert!((Point::new(46.0, 46.0).distance(to) - 12.0).abs() < 1e-6);
    assert!(test.did[0].contains("most stricken"), "{:?}", test.did);
    assert!(
        test.line()
            .starts_with("own troops withdrawing: Average, d100 10: A")
    );
}

/// An E rides to the rear; at his own edge he is gone for good: he never
/// tests or moves again, whatever triggers hold.
#[test]
fn a_commander_who_rides_off_at_his_edge_does_not_return() {
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 10], facing: north }",
        ],
        &[
            "{ name: Greene, character: average, position: [24, 46] }",
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 16], facing: south }",
            "{ name: Maryland, troop_type: continentals, strength: 6, position: [40, 40], facing: south }",
        ],
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    // Turn 1: the militia withdraws (die 1), Maryland stands (die 2).
    play(&mut game, &mut opponent, 1, &[1, 2], 2);
    // Turn 2: the militia routs (retreat column, die 1), Maryland's die,
    // then Greene's reaction: d100 90, an average general's E.
    let taken = play(&mut game, &mut opponent, 1, &[1, 2, 90], 3);
    assert_eq!(opponent.general_tests()[0].reaction, Reaction::E);
    assert!(
        taken.iter().any(|a| matches!(
            a,
            Action::Rv(rv::Action::MoveCommander { commander: 1, to }) if (to.y - 47.5).abs() < 1e-6
        )),
        "{taken:?}"
    );
    assert!(opponent.gone.contains(&1));
    // Turn 3: his troops routed last bound, so a trigger holds; he is gone
    // and does not test, nor does general-leads (HO11) bring him back.
    let Game::Rv(state) = &game else {
        unreachable!()
    };
    assert_eq!(
        opponent.rv_trigger(state, 1, 3),
        Some(Trigger::OwnTroopsWithdrawing)
    );
    let mut opponent = opponent.with_rules(all_rules());
    let tests = opponent.general_tests().len();
    let taken = play(&mut game, &mut opponent, 1, &[2], 4);
    assert_eq!(opponent.general_tests().len(), tests, "gone: no test");
    assert!(!taken.iter().any(|a| matches!(
        a,
        Action::Rv(
            rv::Action::MoveCommander { commander: 1, .. } | rv::Action::Join { commander: 1, .. }
        )
    )));
}

/// A `rolled` general rolls his character at his first test, on d100.
#[test]
fn a_rolled_commander_rolls_his_character_at_his_first_test() {
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 10], facing: north }",
        ],
        &[
            "{ name: Greene, character: rolled, position: [46, 46] }",
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 16], facing: south }",
        ],
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    play(&mut game, &mut opponent, 1, &[1], 2);
    // Turn 2: the militia's die, Greene's character (d100 3: rash), his
    // reaction (d100 40: a rash general's B).
    play(&mut game, &mut opponent, 1, &[6, 3, 40], 3);
    let test = &opponent.general_tests()[0];
    assert_eq!(test.character, (crate::tables::Character::Rash, Some(3)));
    assert_eq!(test.reaction, Reaction::B);
}
