use super::*;
use crate::battlefield::Base;
use crate::host::test_game::{Seed000 as Match, start};

/// The prompt's names of the game's units.
fn names(game: &Match) -> Names<'_> {
    Names::new(&game.game.game, &game.game.scenario)
}

/// The seed-000 action a line typed at the prompt means.
fn action_of(game: &Match, line: &str) -> Action {
    act(&names(game), line)
        .expect("parses")
        .unwrap_or_else(|| panic!("not an action: {line}"))
}

/// What the player is told when `line` is refused now.
fn refused(game: &Match, line: &str) -> String {
    let action = action_of(game, line);
    let refusal = game.state().check(&action).expect_err("refused");
    super::refusal(&names(game), game.state(), &action, &refusal)
}

/// Put a unit somewhere, facing `facing`.
fn place(game: &mut Match, name: &str, x: f64, y: f64, facing: f64) -> UnitId {
    let id = game.state().find_unit(name).unwrap();
    let base = game.state().unit(id).base;
    game.state_mut().units[id.0].base =
        Base::new(Point::new(x, y), facing, base.frontage, base.depth);
    id
}

#[test]
fn a_move_too_long_gives_its_cost_by_ground_and_the_farthest_point_with_its_command() {
    let game = start("guilford", 1781, vec![0]);
    assert_eq!(
        refused(&game, "move b5 to 3,16"),
        "cannot move `71st Foot`: the move needs 15.6\" (10.4\" open, 2.6\" of woods at half speed) and the allowance is 6\"; the farthest it can go that way is 5.7,9.5 — `move B5 towards 3,16 max`"
    );
    assert_eq!(
        refused(&game, "move b3 forward 12"),
        "cannot move `33rd Foot`: the move needs 12\" and the allowance is 6\"; the farthest it can go that way is 40,10 — `move B3 forward max`"
    );
    // The command it offers is lawful and goes exactly there.
    let action = action_of(&game, "move B5 towards 3,16 max");
    assert!(game.state().check(&action).is_ok());
}

#[test]
fn the_cost_by_ground_adds_up_to_the_engines_cost() {
    let game = start("guilford", 1781, vec![0]);
    let unit = game.state().find_unit("71st Foot").unwrap();
    let to = Point::new(3.0, 16.0);
    let stretches = ground_cost(game.state(), unit, to).unwrap();
    let total: f64 = stretches.iter().map(Stretch::cost).sum();
    let action = Action::Move {
        unit,
        to,
        facing: 0.0,
    };
    match game.state().check(&action) {
        Err(Refusal::TooFar { cost, .. }) => assert!((cost - total).abs() < 1e-9, "{cost} {total}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_general_too_far_is_told_the_farthest_point_he_may_ride_to() {
    let game = start("guilford", 1781, vec![0]);
    assert_eq!(
        refused(&game, "general cornwallis to 30,30"),
        "cannot move `Cornwallis`: the ride needs 36.12\" and the allowance is 12\"; the farthest he can go that way is 24,13.3 — `general BG1 to 24,13.3`"
    );
}

#[test]
fn enemy_presence_names_the_enemy_even_out_of_sight_and_offers_the_move_it_allows() {
    let mut game = start("guilford", 1781, vec![0]);
    // 33rd Foot short of Lynch's Riflemen, Eaton's Militia a little further.
    place(&mut game, "33rd Foot", 40.0, 13.0, 0.0);
    assert_eq!(
        refused(&game, "move b3 to 34,10"),
        "cannot move `33rd Foot` that way: it is within 6\" of Lynch's Riflemen (A5), 4.5\" away (and of Eaton's Militia (A4), 5.4\" away), and a unit within 6\" of an enemy may only advance directly towards it or retire directly away from it — `move B3 towards A5 max`"
    );
    // Kirkwood's Riflemen deep in the woods, unseen: named all the same.
    place(&mut game, "Kirkwood's Riflemen", 2.0, 18.0, 90.0);
    place(&mut game, "71st Foot", 9.0, 12.0, 0.0);
    let text = refused(&game, "move b5 to 12,14");
    assert!(text.contains("Kirkwood's Riflemen (A9)"), "{text}");
    assert!(text.contains("out of sight"), "{text}");
}

#[test]
fn a_charge_after_a_pivot_says_why_it_must_wait_a_turn() {
    let mut game = start("guilford", 1781, vec![0]);
    // Turned away, as a unit is after a melee retreat.
    place(&mut game, "33rd Foot", 40.0, 15.0, 180.0);
    let text = refused(&game, "charge b3 a5");
    assert_eq!(
        text,
        "cannot charge: a charger may pivot at most 45° at the start and this charge needs 180°; `pivot B3 towards A5` turns it to face Lynch's Riflemen now, and it may charge next turn (a unit that has pivoted may not charge in the same turn)"
    );
    let pivot = action_of(&game, "pivot B3 towards A5");
    game.act(pivot).unwrap();
    assert_eq!(
        refused(&game, "charge b3 a5"),
        "cannot charge with `33rd Foot`: it has pivoted this turn, and a charge opens with its own pivot of up to 45° to face Lynch's Riflemen (a unit pivots once, at the start of its move), so it may charge next turn; this turn it may still move"
    );
}
