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

/// Every command a refusal offers (in backticks) is one the engine takes,
/// over many seeded positions: units put anywhere on the table, facing
/// anywhere, each told to go forward, back, towards an enemy and to a
/// point, too far or into an enemy's presence.
#[test]
fn every_command_a_refusal_offers_is_one_the_engine_takes() {
    let mut offered = 0;
    for seed in 0..12_u64 {
        let mut game = start("guilford", seed, vec![0]);
        let mut rng = crate::dice::Seeded::new(seed);
        let mut draw = |low: f64, high: f64| {
            let n = f64::from(crate::dice::Roller::roll(&mut rng, crate::dice::Die::D100));
            low + (high - low) * (n - 1.0) / 99.0
        };
        let own: Vec<String> = game
            .state()
            .units
            .iter()
            .filter(|unit| unit.side == 0 && unit.is_active())
            .map(|unit| unit.name.clone())
            .collect();
        for name in &own {
            let (x, y, facing) = (draw(2.0, 46.0), draw(2.0, 34.0), draw(0.0, 359.0));
            place(&mut game, name, x, y, facing.round());
        }
        let labels: Vec<String> = (0..game.state().units.len())
            .map(|unit| names(&game).label(unit).to_string())
            .collect();
        let enemies: Vec<&String> = labels
            .iter()
            .filter(|label| label.starts_with('A'))
            .collect();
        for (unit, label) in labels.iter().enumerate() {
            if game.state().units[unit].side != 0 {
                continue;
            }
            let mut lines = vec![
                format!("move {label} forward 30"),
                format!("move {label} back 30"),
                format!("move {label} forward 2"),
                format!("move {label} back 2"),
                format!("move {label} forward 7"),
                format!("move {label} back 7"),
                format!(
                    "move {label} to {:.1},{:.1} facing {:.0}",
                    draw(1.0, 47.0),
                    draw(1.0, 35.0),
                    draw(0.0, 359.0)
                ),
                format!(
                    "move {label} to {:.1},{:.1}",
                    draw(1.0, 47.0),
                    draw(1.0, 35.0)
                ),
            ];
            lines.extend(
                enemies
                    .iter()
                    .map(|enemy| format!("move {label} towards {enemy} 30")),
            );
            for line in lines {
                let Ok(Some(action)) = act(&names(&game), &line) else {
                    continue;
                };
                let Err(refusal) = game.state().check(&action) else {
                    continue;
                };
                let said = super::refusal(&names(&game), game.state(), &action, &refusal);
                for command in said.split('`').skip(1).step_by(2) {
                    if !["move ", "pivot ", "general ", "charge "]
                        .iter()
                        .any(|verb| command.starts_with(verb))
                    {
                        continue;
                    }
                    offered += 1;
                    let taken = act(&names(&game), command)
                        .ok()
                        .flatten()
                        .map(|offer| game.state().check(&offer));
                    assert!(
                        matches!(taken, Some(Ok(()))),
                        "seed {seed}: `{line}` is refused with\n  {said}\nand its offer `{command}` is not taken: {taken:?}"
                    );
                }
            }
        }
    }
    assert!(offered > 20, "only {offered} offers seen");
}

/// Within 6" of an enemy a unit may only advance directly towards it or
/// retire directly away (seed 000 Enemy Presence), whatever its facing:
/// `UNIT ?` offers those two straight moves, not forward and back.
#[test]
fn within_an_enemys_presence_the_straight_moves_go_towards_it_and_away() {
    let mut game = start("guilford", 1781, vec![0]);
    // 33rd Foot 4.5" short of Lynch's Riflemen, facing east across it.
    let unit = place(&mut game, "33rd Foot", 40.0, 13.0, 90.0);
    let enemy = game.state().find_unit("Lynch's Riflemen").unwrap();
    let at = game.state().unit(unit).base.centre;
    let to_enemy = (game.state().unit(enemy).base.centre - at).bearing();
    let offers = crate::host::repl::straight_moves(&names(&game), unit.0);
    let mut angles: Vec<f64> = offers
        .iter()
        .map(|offer| match GameState::own(offer) {
            Some(action @ Action::Move { to, .. }) => {
                assert!(game.state().check(action).is_ok(), "{action:?}");
                turn_between((*to - at).bearing(), to_enemy).round()
            }
            other => panic!("not a move: {other:?}"),
        })
        .collect();
    angles.sort_by(f64::total_cmp);
    assert_eq!(angles, [0.0, 180.0], "{offers:?}");
}
