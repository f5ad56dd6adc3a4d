//! The seed-004 orders as written, carried out under seeds 001 and 002
//! (ruling HO13), with forced reaction dice: withdrawals to the rear at
//! the order's speed and into cover, routers lost, fire and withdraw's
//! volley at −1 and close order's none, columns deploying, an out-of-sight
//! charge marching in column, a unit moving up behind a friend ahead,
//! double volleys fired as the one volley each rule set has, and the
//! factors the opponent remembers.
//! Every test reads its order off the chart, as a game would.

use super::*;
use crate::acw;
use crate::battlefield::Point;
use crate::tables::Fire;

/// Every move `unit` made among `actions`, as seed-001 destinations.
fn rv_moves(actions: &[Action], unit: usize) -> Vec<Point> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Rv(rv::Action::Move { unit: who, to }) if *who == unit => Some(*to),
            _ => None,
        })
        .collect()
}

fn rv_took(actions: &[Action], wanted: impl Fn(&rv::Action) -> bool) -> bool {
    actions
        .iter()
        .any(|a| matches!(a, Action::Rv(a) if wanted(a)))
}

fn rv_unit(game: &Game, unit: usize) -> rv::Unit {
    let Game::Rv(state) = game else {
        panic!("a seed-001 game")
    };
    state.units()[unit].clone()
}

/// British regulars at 24,10 facing north and an American unit
/// (`american`, a YAML flow line) in front of them, on `terrain`; the
/// generals far away.
fn militia_before_foot(terrain: &str, american: &str) -> Scenario {
    rv_scenario_on(
        terrain,
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 10], facing: north }",
        ],
        &[FAR_GENERAL_NORTH, american],
    )
}

const MILITIA_AT_16: &str =
    "{ name: Militia, troop_type: militia, strength: 5, position: [24, 16], facing: south }";

/// Local militia 6" in front of British regulars: militia in the open -2,
/// enemy within 6" -1; with die 1, -2: withdraw. It goes straight back to
/// its own (north) edge at seed 001's half speed backwards, not sideways
/// and never towards the enemy, and does not fire. Next bound, having
/// withdrawn, it tests in the retreat column (-2): die 1, -1, rout; it
/// leaves the field, lost.
#[test]
fn a_seed_001_withdrawal_goes_to_the_rear_and_a_second_routs() {
    let scenario = militia_before_foot("", MILITIA_AT_16);
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario);
    let taken = play(&mut game, &mut opponent, 1, &[1], 2);
    let first = opponent.latest(1).unwrap().clone();
    assert_eq!(first.order(), Order::Withdraw);
    let moves = rv_moves(&taken, 1);
    assert_eq!(moves.len(), 1, "{taken:?}");
    let to = moves[0];
    assert!((to.x - 24.0).abs() < 1e-6, "straight back: {to:?}");
    assert!((to.y - 19.0).abs() < 1e-6, "3\" to the north: {to:?}");
    assert_eq!(first.moves, vec![(Point::new(24.0, 16.0), to)]);
    assert!(!rv_took(&taken, |a| matches!(a, rv::Action::Fire { .. })));
    assert!(
        first
            .did
            .iter()
            .any(|d| d.what.contains("fell back 3.0\" to its rear")),
        "{:?}",
        first.did
    );
    // Turn 2: it withdrew in its last bound.
    let situation = opponent.situation(&game, 1).unwrap();
    assert!(situation.withdrew_last_bound);
    let taken = play(&mut game, &mut opponent, 1, &[1], 3);
    assert_eq!(opponent.latest(1).unwrap().order(), Order::Rout);
    assert!(rv_took(&taken, |a| *a == rv::Action::Rout { unit: 1 }));
    assert!(rv_unit(&game, 1).removed == Some(rv::Removal::Routed));
}

/// The same militia with a wood just behind it: die 3, total 0, fire and
/// withdraw. A line is close order, so it does not fire and falls back
/// half a move into the wood (the nearest cover) rather than straight
/// back into the open.
#[test]
fn a_seed_001_fire_and_withdraw_in_close_order_falls_back_to_cover_without_firing() {
    let scenario = militia_before_foot(
        "terrain:\n  - { kind: woods, name: copse, polygon: [[21, 17], [27, 17], [27, 24], [21, 24]] }\n",
        MILITIA_AT_16,
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario);
    let taken = play(&mut game, &mut opponent, 1, &[3], 2);
    let decision = opponent.latest(1).unwrap();
    assert_eq!(decision.order(), Order::FireAndWithdraw);
    assert!(
        decision
            .outcome
            .as_ref()
            .unwrap()
            .instruction
            .does
            .starts_with("Close order troops are disordered"),
    );
    let moves = rv_moves(&taken, 1);
    assert_eq!(moves.len(), 1, "{taken:?}");
    let Game::Rv(state) = &game else {
        unreachable!()
    };
    assert!(carry::in_cover(state.battlefield(), moves[0]), "{moves:?}");
    assert!(moves[0].y > 16.0, "to the rear: {moves:?}");
    assert!(Point::new(24.0, 16.0).distance(moves[0]) <= 3.0 + 1e-6);
    assert!(
        decision
            .did
            .iter()
            .any(|d| d.what.contains("to the nearest cover")),
        "{:?}",
        decision.did
    );
    assert!(!rv_took(&taken, |a| matches!(
        a,
        rv::Action::Fire { .. } | rv::Action::HastyFire { .. }
    )));
}

/// Virginia Rifles (rangers) in open order: rangers in the open 0, enemy
/// within 6" -1, die 1: 0, fire and withdraw. Not in close order, so they
/// fall back and fire their single volley at -1.
#[test]
fn a_seed_001_fire_and_withdraw_in_open_order_fires_a_hasty_volley() {
    let scenario = militia_before_foot(
        "",
        "{ name: Rifles, troop_type: virginia-rifles, strength: 6, formation: skirmish, position: [24, 12], facing: south }",
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario);
    let taken = play(&mut game, &mut opponent, 1, &[1], 2);
    let decision = opponent.latest(1).unwrap();
    assert_eq!(decision.order(), Order::FireAndWithdraw);
    assert!(rv_took(&taken, |a| matches!(
        a,
        rv::Action::HastyFire { unit: 1, target: 0 }
    )));
    assert!(!rv_took(&taken, |a| matches!(a, rv::Action::Fire { .. })));
    assert!(rv_moves(&taken, 1).iter().all(|to| to.y > 12.0));
}

/// British regulars in march column 10" from militia in sight: regulars
/// in the open +2, die 3: 5, stand and fire. A column deploys into line
/// (its formation change for the turn) and stays.
#[test]
fn a_seed_001_column_in_sight_of_the_enemy_deploys() {
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, formation: column, position: [24, 10], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 22], facing: south }",
        ],
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    let taken = play(&mut game, &mut opponent, 0, &[3], 2);
    assert_eq!(opponent.latest(0).unwrap().order(), Order::StandAndFire);
    assert!(rv_took(&taken, |a| *a
        == rv::Action::ChangeFormation {
            unit: 0,
            formation: rv::Formation::Line
        }));
    assert!(rv_moves(&taken, 0).is_empty());
    assert_eq!(rv_unit(&game, 0).formation, rv::Formation::Line);
}

/// British regulars with a wood between them and the militia, 20" off:
/// regulars in the open +2, no enemy in sight +3, enemy over 15" +1, die
/// 4: 10, charge. Out of sight and range, it forms march column and
/// marches towards the action at double time (12", its column's move).
#[test]
fn a_seed_001_charge_out_of_sight_marches_in_column_to_the_action() {
    let scenario = rv_scenario_on(
        "terrain:\n  - { kind: woods, name: screen, polygon: [[14, 18], [34, 18], [34, 22], [14, 22]] }\n",
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 8], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 30], facing: south }",
        ],
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    let taken = play(&mut game, &mut opponent, 0, &[4], 2);
    let decision = opponent.latest(0).unwrap();
    assert_eq!(decision.order(), Order::Charge);
    assert!(rv_took(&taken, |a| *a
        == rv::Action::ChangeFormation {
            unit: 0,
            formation: rv::Formation::Column
        }));
    let moves = rv_moves(&taken, 0);
    assert_eq!(moves.len(), 1, "{taken:?}");
    let gone = Point::new(24.0, 8.0).distance(moves[0]);
    assert!(gone > 6.0 + 1e-6 && gone <= 12.0 + 1e-6, "{gone}");
    assert!(moves[0].y > 8.0, "towards the action: {moves:?}");
    assert!(
        decision
            .did
            .iter()
            .any(|d| d.what.contains("sound of the action")),
        "{:?}",
        decision.did
    );
}

/// Seed 001 remembers what a player would: a unit seen falling back (a
/// retreat the rules make, or a withdrawal) counts "see enemy in retreat"
/// for the enemies that see it, in the bound it fell back and the next.
#[test]
fn a_seed_001_unit_sees_an_enemy_fall_back() {
    let scenario = militia_before_foot("", MILITIA_AT_16);
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario);
    assert!(!opponent.situation(&game, 0).unwrap().sees_enemy_retreat);
    // The militia withdraws in turn 1 (die 1, as above).
    play(&mut game, &mut opponent, 1, &[1], 2);
    assert!(opponent.situation(&game, 0).unwrap().sees_enemy_retreat);
    assert!(!opponent.situation(&game, 1).unwrap().sees_enemy_retreat);
}

/// Blue regulars under half strength 5" from Grey: 14 hits are 8 of 15
/// figures lost (ruling O3). Having withdrawn last bound or not.
fn broken_blue(withdrew: bool) -> (Order, acw::Action, Did, Game) {
    let scenario = acw_scenario(
        &["{ name: Blue, troop_type: infantry, position: [4, 30], facing: south }"],
        &["{ name: Grey, troop_type: infantry, position: [4, 25], facing: north }"],
        "[[30, 2], [34, 6]]",
    );
    let mut game = start(&scenario);
    if let Game::Acw(state) = &mut game {
        state.units[0].hits = 14;
    }
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    assert!(opponent.situation(&game, 0).unwrap().under_half);
    if withdrew {
        opponent.note_withdrawal(0, 0);
    }
    let (order, action, did) = acw_activation_in(&mut game, &mut opponent, &[2], 0);
    (order, action, did, game)
}

/// A seed-002 unit ordered to withdraw goes straight to its own (north)
/// edge, keeping its front to the enemy. Regulars in the open +2, enemy
/// within 6" -1, under half strength -6, die 2: -3, withdraw.
#[test]
fn a_seed_002_withdrawal_goes_to_the_rear() {
    let (order, action, _, _) = broken_blue(false);
    assert_eq!(order, Order::Withdraw);
    let acw::Action::Move {
        to,
        facing,
        formation: None,
        ..
    } = action
    else {
        panic!("{action:?}")
    };
    assert!((to.x - 4.0).abs() < 1e-6 && to.y > 30.0, "{to:?}");
    assert!((facing - 180.0).abs() < 1e-6, "still facing the enemy");
}

/// The same regulars, having withdrawn last bound (the retreat column:
/// regulars 0, enemy within 6" -2), under half -6, die 2: -6, rout: they
/// leave the table as their die comes up.
#[test]
fn a_seed_002_unit_that_withdrew_and_breaks_routs() {
    let (order, action, did, mut game) = broken_blue(true);
    assert_eq!(order, Order::Rout);
    assert_eq!(
        action,
        acw::Action::Rout {
            unit: acw::UnitId(0)
        }
    );
    assert!(did.what.contains("lost to its army"), "{did}");
    game.apply(&Action::Acw(action), &mut Scripted::new([]))
        .unwrap();
    assert!(game.units()[0].removed);
}

/// Seed 002's casualties since the last test count as figures lost (ruling
/// O3: 15 hits are the unit's rout, at 60% of its 15 figures), so 5 hits
/// taken since the last test are 3 figures: -3; 14 hits are 8 figures,
/// under half its strength, and 13 are 7, not yet.
#[test]
fn a_seed_002_unit_counts_the_hits_it_took_since_its_last_test() {
    let scenario = acw_scenario(
        &["{ name: Blue, troop_type: infantry, position: [4, 30], facing: south }"],
        &["{ name: Grey, troop_type: infantry, position: [4, 25], facing: north }"],
        "[[30, 2], [34, 6]]",
    );
    let mut game = start(&scenario);
    let opponent = Opponent::new(tables(), &scenario);
    if let Game::Acw(state) = &mut game {
        state.units[0].hits = 5;
    }
    let Game::Acw(state) = &game else {
        unreachable!()
    };
    let situation = opponent.acw_situation(state, acw::UnitId(0), 0).unwrap();
    assert_eq!(situation.casualties, 3);
    assert!(!situation.under_half);
    let situation = opponent.acw_situation(state, acw::UnitId(0), 5).unwrap();
    assert_eq!(situation.casualties, 0);
    let mut state = state.clone();
    state.units[0].hits = 13;
    assert!(
        !opponent
            .acw_situation(&state, acw::UnitId(0), 13)
            .unwrap()
            .under_half
    );
    state.units[0].hits = 14;
    assert!(
        opponent
            .acw_situation(&state, acw::UnitId(0), 13)
            .unwrap()
            .under_half
    );
}

/// Seed 004's unit character (militia and provincials) counts under
/// seeds 001 and 002 as under seed 000 (ruling R9): a rated class takes
/// the character the scenario gives the unit; an unrated one none.
#[test]
fn a_unit_character_counts_for_rated_classes_under_seeds_001_and_002() {
    let scenario = rv_scenario_on(
        "",
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 10], facing: north, character: timid }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 16], facing: south, character: timid }",
        ],
    );
    let game = start(&scenario);
    let opponent = Opponent::new(tables(), &scenario);
    let foot = opponent.situation(&game, 0).unwrap();
    assert_eq!(foot.character, None, "regulars are not rated");
    let militia = opponent.situation(&game, 1).unwrap();
    assert_eq!(militia.character, Some(crate::tables::Character::Timid));
    let scenario = acw_scenario(
        &[
            "{ name: Blue, troop_type: infantry, reaction_class: local-militia, character: rash, position: [4, 30], facing: south }",
        ],
        &[
            "{ name: Grey, troop_type: infantry, character: rash, position: [4, 25], facing: north }",
        ],
        "[[30, 2], [34, 6]]",
    );
    let game = start(&scenario);
    let opponent = Opponent::new(tables(), &scenario);
    let blue = opponent.situation(&game, 0).unwrap();
    assert_eq!(blue.class, "local-militia");
    assert_eq!(blue.character, Some(crate::tables::Character::Rash));
    assert_eq!(opponent.situation(&game, 1).unwrap().character, None);
}

/// The first die on which `situation` gives `order`, read off the chart.
fn die_for(situation: &crate::reaction::Situation, order: Order) -> u8 {
    die_where(situation, |outcome| outcome.order == order)
}

/// The first die on which `situation`'s outcome is `wanted`.
fn die_where(
    situation: &crate::reaction::Situation,
    wanted: impl Fn(&crate::reaction::Outcome) -> bool,
) -> u8 {
    (1..=6)
        .find(|&die| {
            crate::reaction::test(&tables(), situation, Default::default(), die)
                .is_ok_and(|outcome| wanted(&outcome))
        })
        .unwrap_or_else(|| panic!("no die gives the outcome wanted for {situation:?}"))
}

/// Unit 0's activation in a fresh game of `scenario`, its reaction test
/// forced to the first die whose outcome is `wanted`, under `rules`.
fn first_activation(
    scenario: &Scenario,
    rules: RulesOn,
    wanted: impl Fn(&crate::reaction::Outcome) -> bool,
) -> (Order, acw::Action, Did) {
    let mut game = start(scenario);
    let mut opponent = Opponent::new(tables(), scenario).with_rules(rules);
    let dice = [die_where(&opponent.situation(&game, 0).unwrap(), wanted)];
    acw_activation_in(&mut game, &mut opponent, &dice, 0)
}

/// A seed-002 scenario of `union` against `confederates` on `terrain` (a
/// `terrain:` list; empty: open ground), the plateau held by `holder`.
fn acw_ground(union: &[&str], confederates: &[&str], holder: &str, terrain: &str) -> Scenario {
    load(&acw_scenario_text(
        union,
        confederates,
        "[[30, 2], [34, 6]]",
        holder,
        terrain,
    ))
}

/// Ruling HO28: a close-order line standing and firing at +3 to +5 with
/// the enemy within 6" is told to fire double volleys; seed 001 has one
/// volley a turn (a die a base), so it fires that one, once.
#[test]
fn a_seed_001_double_volley_is_the_one_volley_seed_001_has() {
    let scenario = militia_before_foot("", MILITIA_AT_16);
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    let foot = opponent.situation(&game, 0).unwrap();
    let die = die_where(&foot, |o| o.instruction.fire == Fire::Double);
    let taken = play(&mut game, &mut opponent, 0, &[die], 2);
    let decision = opponent.latest(0).unwrap();
    assert_eq!(decision.order(), Order::StandAndFire);
    let volleys: Vec<&Action> = taken
        .iter()
        .filter(|a| matches!(a, Action::Rv(rv::Action::Fire { unit: 0, target: 1 })))
        .collect();
    assert_eq!(volleys.len(), 1, "{taken:?}");
    assert!(!rv_took(&taken, |a| matches!(
        a,
        rv::Action::HastyFire { .. }
    )));
}

/// Ruling HO28 under seed 002: the double volley is the unit's one shot
/// when its die comes up.
#[test]
fn a_seed_002_double_volley_is_the_one_shot_seed_002_has() {
    let scenario = acw_scenario(
        &["{ name: Blue, troop_type: infantry, position: [4, 24], facing: south }"],
        &["{ name: Grey, troop_type: infantry, position: [4, 19], facing: north }"],
        "[[30, 2], [34, 6]]",
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    let blue = opponent.situation(&game, 0).unwrap();
    let die = die_where(&blue, |o| o.instruction.fire == Fire::Double);
    let (order, action, did) = acw_activation_in(&mut game, &mut opponent, &[die], 0);
    assert_eq!(order, Order::StandAndFire);
    assert_eq!(
        action,
        acw::Action::Fire {
            unit: acw::UnitId(0),
            target: acw::UnitId(1)
        },
        "{did}"
    );
}

/// Units 0 (a line with the enemy in front) and 1 (a line behind it): the
/// second reads a friend firing ahead (ruling O5) and the first does not;
/// the dice that tell the first to stand and fire and the second to
/// advance and fire.
fn front_and_support_dice(opponent: &Opponent, game: &Game) -> [u8; 2] {
    let front = opponent.situation(game, 0).unwrap();
    let second = opponent.situation(game, 1).unwrap();
    assert!(!front.friend_firing_ahead);
    assert!(second.friend_firing_ahead, "{second:?}");
    assert!(!second.friend_in_melee, "no melee outlasts its turn (HO27)");
    [
        die_for(&front, Order::StandAndFire),
        die_for(&second, Order::AdvanceAndFire),
    ]
}

/// British regulars 7" behind another British line that has militia 5"
/// in front of it (ruling O5): the rear unit is approaching a friend
/// deployed to fire, so its advance-and-fire order's variant sends it up
/// at half speed to halt 6" behind that friend, without firing; the front
/// line, told to stand and fire, stays.
#[test]
fn a_seed_001_unit_behind_a_friend_firing_moves_up_in_support() {
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Front, troop_type: british-line, strength: 6, position: [24, 12], facing: north }",
            "{ name: Second, troop_type: british-line, strength: 6, position: [24, 5], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 17], facing: south }",
        ],
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    let dice = front_and_support_dice(&opponent, &game);
    let taken = play(&mut game, &mut opponent, 0, &dice, 2);
    let decision = opponent.latest(1).unwrap();
    let outcome = decision.outcome.as_ref().unwrap();
    assert!(
        outcome
            .instruction
            .does
            .starts_with("Support the friendly unit ahead")
    );
    assert_eq!(decision.friend, Some(0));
    let moves = rv_moves(&taken, 1);
    assert_eq!(moves.len(), 1, "{taken:?}");
    assert!(
        moves[0].distance(Point::new(24.0, 6.0)) < 1e-6,
        "halts 6\" behind Front: {moves:?}"
    );
    assert!(rv_moves(&taken, 0).is_empty(), "{taken:?}");
    assert!(!rv_took(&taken, |a| matches!(
        a,
        rv::Action::Fire { unit: 1, .. }
    )));
    assert!(
        decision.did.iter().any(|d| d
            .what
            .contains("in support of `Front`, halting 6\" to its rear")),
        "{:?}",
        decision.did
    );
}

/// Seed 002, the same: Blue regulars 7" behind another Blue line with
/// Grey 5" in front of it move up, when their die comes up, to halt 6"
/// behind their friend (ruling O5), without firing.
#[test]
fn a_seed_002_unit_behind_a_friend_firing_moves_up_in_support() {
    let scenario = acw_scenario(
        &[
            "{ name: Front, troop_type: infantry, position: [4, 24], facing: south }",
            "{ name: Second, troop_type: infantry, position: [4, 31], facing: south }",
        ],
        &["{ name: Grey, troop_type: infantry, position: [4, 19], facing: north }"],
        "[[30, 2], [34, 6]]",
    );
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    let dice = front_and_support_dice(&opponent, &game);
    let (order, action, did) = acw_activation_in(&mut game, &mut opponent, &dice, 1);
    assert_eq!(order, Order::AdvanceAndFire);
    let acw::Action::Move { to, .. } = action else {
        panic!("{action:?}: {did}")
    };
    assert!(
        to.distance(Point::new(4.0, 30.0)) < 1e-6,
        "halts 6\" behind Front: {to:?}"
    );
    assert!(
        did.what
            .contains("in support of `Front`, halting 6\" to its rear"),
        "{did}"
    );
}

/// Ruling HO13: a seed-002 column told to deploy, with a friend standing
/// where its line would be, moves aside (the change's cost coming off its
/// move) and deploys there; hemmed in on both flanks by a lake within its
/// move, it holds (no plan rule moves it) and says why. The column faces east, so its line, facing
/// the enemy to the south, would stand across it.
#[test]
fn a_seed_002_column_with_no_room_to_deploy_moves_aside_to_deploy() {
    let column = "{ name: Column, troop_type: infantry, formation: column, position: [8, 30], facing: east }";
    let grey = "{ name: Grey, troop_type: infantry, position: [8, 21], facing: north }";
    let deploys = |o: &crate::reaction::Outcome| {
        o.instruction.formation == Some(crate::tables::Formation::Line)
            && o.instruction.moves == crate::tables::Move::None
    };
    let right = "{ name: Right, troop_type: infantry, position: [11.2, 30], facing: south }";
    let scenario = acw_scenario(&[column, right], &[grey], "[[30, 2], [34, 6]]");
    let mut game = start(&scenario);
    let mut opponent = Opponent::new(tables(), &scenario).with_rules(RulesOn::none());
    let dice = [
        die_where(&opponent.situation(&game, 0).unwrap(), deploys),
        die_for(&opponent.situation(&game, 1).unwrap(), Order::StandAndFire),
    ];
    let (_, action, did) = acw_activation_in(&mut game, &mut opponent, &dice, 0);
    let acw::Action::Move {
        to,
        formation: Some(acw::Formation::Line),
        ..
    } = action
    else {
        panic!("{action:?}: {did}")
    };
    assert!(to.distance(Point::new(8.0, 30.0)) > 0.5, "{to:?}");
    assert!(did.what.contains("to find room and formed line"), "{did}");

    // A causeway 2" wide between two lakes: no line fits within its move.
    let lakes = "terrain:\n  - { kind: lake, name: west, polygon: [[0, 24], [7, 24], [7, 36], [0, 36]] }\n  - { kind: lake, name: east, polygon: [[9, 24], [36, 24], [36, 36], [9, 36]] }\n";
    let causeway = acw_ground(&[column], &[grey], "union", lakes);
    let (_, action, did) = first_activation(&causeway, RulesOn::none(), deploys);
    assert_eq!(
        action,
        acw::Action::Hold {
            unit: acw::UnitId(0)
        },
        "{did}"
    );
    assert!(
        did.what.contains("no room here or within its move"),
        "{did}"
    );
}

/// Seed 004's "cavalry dismount" under seed 002, whose mounted column
/// dismounts only from line (ruling HO13): a cavalry column told to
/// dismount and deploy first forms line, facing the enemy, and says why;
/// told again, it dismounts. It never stands in column bound after bound.
#[test]
fn a_seed_002_cavalry_column_told_to_dismount_first_forms_line() {
    let grey = "{ name: Grey, troop_type: infantry, position: [8, 18], facing: north }";
    let dismounts = |o: &crate::reaction::Outcome| {
        o.instruction.formation == Some(crate::tables::Formation::Dismounted)
            && o.instruction.moves == crate::tables::Move::None
    };
    // In column it forms line first; in line, the same order dismounts it.
    for (formation, forms, first_step) in [
        ("column", acw::Formation::Line, true),
        ("line", acw::Formation::Dismounted, false),
    ] {
        let horse = format!(
            "{{ name: Horse, troop_type: cavalry, formation: {formation}, position: [8, 30], facing: south }}"
        );
        let scenario = acw_scenario(&[&horse], &[grey], "[[30, 2], [34, 6]]");
        let (_, action, did) = first_activation(&scenario, RulesOn::none(), dismounts);
        let acw::Action::Move { formation, .. } = action else {
            panic!("{action:?}: {did}")
        };
        assert_eq!(formation, Some(forms), "{did}");
        assert_eq!(
            did.what
                .contains("(first line: seed 002 changes to dismounted only from line)"),
            first_step,
            "{did}"
        );
        assert_eq!(did.by, ORDER);
    }
}

/// A seed-002 column told to charge (which forms line first) that may not
/// go, held by hold-the-line with no enemy in its reach, takes the line
/// where it stands rather than stand in column in sight of the enemy
/// (ruling HO13); without hold-the-line it goes.
#[test]
fn a_seed_002_column_held_from_its_charge_still_deploys() {
    let column = "{ name: Column, troop_type: infantry, formation: column, position: [18, 30], facing: south }";
    let grey = "{ name: Grey, troop_type: infantry, position: [18, 12], facing: north }";
    // Open ground: no hill between them.
    let scenario = acw_ground(&[column], &[grey], "confederates", "");
    for (rules, deploys) in [(all_rules(), true), (rules_without("hold-the-line"), false)] {
        let (order, action, did) = first_activation(&scenario, rules, |o| o.order == Order::Charge);
        assert_eq!(order, Order::Charge);
        let acw::Action::Move { to, formation, .. } = action else {
            panic!("{action:?}: {did}")
        };
        assert_eq!(formation, Some(acw::Formation::Line), "{did}");
        if deploys {
            assert_eq!(to, Point::new(18.0, 30.0), "{did}");
            assert!(
                did.what
                    .contains("it cannot go, so it takes the formation where it is"),
                "{did}"
            );
            assert_eq!(did.by, ORDER);
        } else {
            assert!(to.y < 30.0, "{to:?}: {did}");
        }
    }
}

/// Why a column stayed in column in sight of the enemy, as `foe simulate`
/// counts it: no room to deploy, an order that keeps its formation (a
/// withdrawal, a variant that names none), or no reason a ruling gives.
#[test]
fn a_column_kept_in_sight_is_counted_by_its_ruling() {
    let column = "{ name: Column, troop_type: infantry, formation: column, position: [18, 30], facing: south }";
    let grey = "{ name: Grey, troop_type: infantry, position: [18, 12], facing: north }";
    let scenario = acw_ground(&[column], &[grey], "union", "");
    let game = start(&scenario);
    let opponent = Opponent::new(tables(), &scenario);
    let situation = opponent.situation(&game, 0).unwrap();
    let outcome = |situation: &crate::reaction::Situation,
                   wanted: &dyn Fn(&crate::reaction::Outcome) -> bool| {
        let die = die_where(situation, wanted);
        crate::reaction::test(&tables(), situation, Default::default(), die).unwrap()
    };
    let deploy = outcome(&situation, &|o| {
        o.instruction.formation == Some(crate::tables::Formation::Line)
    });
    let charge = outcome(&situation, &|o| o.order == Order::Charge);
    let shaken = crate::reaction::Situation {
        under_half: true,
        casualties: 4,
        ..situation.clone()
    };
    let withdraw = outcome(&shaken, &|o| carry::falls_back(o.order));
    for (outcome, no_room, why) in [
        (Some(&deploy), true, "column-in-sight-no-room"),
        (Some(&deploy), false, "column-in-sight-unruled"),
        (Some(&charge), false, "column-in-sight-unruled"),
        (Some(&withdraw), false, "column-in-sight-kept"),
        (None, false, "column-in-sight-kept"),
    ] {
        assert_eq!(
            carry::kept_in_column(outcome, no_room, true),
            why,
            "{outcome:?}"
        );
    }
    // Seed 000's units charge whatever their formation.
    assert_eq!(
        carry::kept_in_column(Some(&charge), false, false),
        "column-in-sight-kept"
    );
    assert!(
        crate::host::command::CONDUCT
            .iter()
            .any(|(name, _)| *name == "column-in-sight-unruled")
    );
}

/// An attacking seed-002 column told to charge, with no enemy in reach,
/// no way forward (a lake across the table) and no shot, takes its line
/// where it stands (ruling HO13).
#[test]
fn a_seed_002_column_with_no_way_to_its_charge_deploys() {
    let column = "{ name: Column, troop_type: infantry, formation: column, position: [18, 31], facing: south }";
    let grey = "{ name: Grey, troop_type: infantry, position: [18, 12], facing: north }";
    let lake = "terrain:\n  - { kind: lake, name: lake, polygon: [[0, 20], [36, 20], [36, 29.9], [0, 29.9]] }\n";
    let scenario = acw_ground(&[column], &[grey], "union", lake);
    let (order, action, did) =
        first_activation(&scenario, RulesOn::none(), |o| o.order == Order::Charge);
    assert_eq!(order, Order::Charge);
    assert_eq!(
        action,
        acw::Action::Move {
            unit: acw::UnitId(0),
            formation: Some(acw::Formation::Line),
            to: Point::new(18.0, 31.0),
            facing: 180.0,
        },
        "{did}"
    );
    assert!(did.what.contains("it cannot go"), "{did}");
}
