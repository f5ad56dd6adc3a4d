//! The baseline's policy under seeds 001 and 002, a rule at a time.

use super::acw::acw_activate;
use super::*;
use crate::battlefield::{Battlefield, DEFAULT_CELL};
use crate::dice::Scripted;
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::tables::Tables;
use crate::yaml::Source;
use crate::{acw, rv};
use std::sync::Arc;

// ----- seed 001 -----------------------------------------------------------

const BRITISH: usize = 0;
const AMERICANS: usize = 1;

fn rv_ruleset() -> Ruleset {
    Ruleset::builtin("ruinous-victory").unwrap().unwrap()
}

/// A unit of seed 001 in line, `bases` strong, at `(x, y)` facing `facing`.
fn rv_unit(name: &str, side: usize, troop: &str, x: f64, y: f64, facing: f64) -> rv::UnitSetup {
    rv::UnitSetup {
        name: name.to_string(),
        side,
        troop: rv_ruleset().troop_type(troop).unwrap(),
        bases: 4,
        centre: Point::new(x, y),
        facing,
        formation: rv::Formation::Line,
        mounted: true,
        brigade: None,
    }
}

/// A seed-001 game on an open 48" table, at the British move phase.
fn rv_game(units: Vec<rv::UnitSetup>) -> Game {
    let rules = rv_ruleset();
    let table = rv::RvTable::builtin("ruinous-victory", &rules)
        .unwrap()
        .unwrap();
    let setup = rv::GameSetup {
        battlefield: Arc::new(Battlefield::new(
            rules,
            48.0,
            48.0,
            DEFAULT_CELL,
            Vec::new(),
        )),
        sides: vec!["british".into(), "americans".into()],
        units,
        commanders: Vec::new(),
        turns: 3,
    };
    let (state, _) = rv::GameState::new(setup, Arc::new(table), &mut Scripted::new([])).unwrap();
    Game::Rv(Box::new(state))
}

/// End phases until `side`'s `kind` phase.
fn rv_go_to(game: &mut Game, kind: rv::PhaseKind, side: usize) {
    for _ in 0..20 {
        if let Game::Rv(state) = game
            && state.phase().kind == kind
            && state.to_act() == Some(side)
        {
            return;
        }
        game.apply(&Action::Rv(rv::Action::EndPhase), &mut Scripted::new([]))
            .unwrap();
    }
    panic!("never reached {kind:?} for side {side}");
}

fn moved_to(action: Option<Action>) -> Point {
    match action {
        Some(Action::Rv(rv::Action::Move { to, .. })) => to,
        other => panic!("expected a move, got {other:?}"),
    }
}

#[test]
fn seed_001_an_attacker_out_of_range_advances_to_the_edge_of_musket_range() {
    // 10" apart centre to centre: the musket reaches 6", so the line
    // stops half an inch inside it, short of a full move.
    let mut game = rv_game(vec![
        rv_unit("Guards", BRITISH, "guards", 24.0, 10.0, 0.0),
        rv_unit("Militia", AMERICANS, "militia", 24.0, 20.0, 180.0),
    ]);
    let Game::Rv(state) = &game else {
        unreachable!()
    };
    let gap = state.footprint(0).distance_to(&state.footprint(1));
    let allowance = state.allowance(0);
    assert!(
        gap - 5.5 < allowance,
        "the test wants a short advance: gap {gap}, allowance {allowance}"
    );
    let mut baseline = Baseline::new(vec![BRITISH]);
    let to = moved_to(baseline.next_action(&game));
    assert!((to.x - 24.0).abs() < 1e-6, "straight at the enemy: {to:?}");
    assert!(
        (to.y - 10.0 - (gap - 5.5)).abs() < 1e-6,
        "{to:?}, gap {gap}"
    );
    // In range now, it stands: the phase ends.
    game.apply(
        &Action::Rv(rv::Action::Move { unit: 0, to }),
        &mut Scripted::new([]),
    )
    .unwrap();
    assert_eq!(
        baseline.next_action(&game),
        Some(Action::Rv(rv::Action::EndPhase))
    );
}

#[test]
fn seed_001_a_defender_holds_and_guns_stay_but_both_turn_to_face() {
    let mut game = rv_game(vec![
        rv_unit("Gun", BRITISH, "british-cannon", 10.0, 4.0, 0.0),
        rv_unit("Guards", BRITISH, "guards", 24.0, 4.0, 0.0),
        rv_unit("Militia", AMERICANS, "militia", 24.0, 40.0, 180.0),
    ]);
    // The gun, far out of its reach, stays; the Guards advance.
    let mut british = Baseline::new(vec![BRITISH]);
    match british.next_action(&game) {
        Some(Action::Rv(rv::Action::Move { unit: 1, .. })) => {}
        other => panic!("the Guards should advance first, got {other:?}"),
    }
    // The Americans defend (the rule set's defender): they do not move.
    rv_go_to(&mut game, rv::PhaseKind::Move, AMERICANS);
    let mut americans = Baseline::new(vec![AMERICANS]);
    assert_eq!(
        americans.next_action(&game),
        Some(Action::Rv(rv::Action::EndPhase))
    );
    // An enemy off the front: the unit pivots to face it instead.
    let game = rv_game(vec![
        rv_unit("Guards", BRITISH, "guards", 10.0, 10.0, 0.0),
        rv_unit("Militia", AMERICANS, "militia", 30.0, 10.0, 270.0),
    ]);
    match Baseline::new(vec![BRITISH]).next_action(&game) {
        Some(Action::Rv(rv::Action::Pivot { unit: 0, facing })) => {
            assert!((facing - 90.0).abs() < 1e-6, "{facing}");
        }
        other => panic!("expected a pivot, got {other:?}"),
    }
}

/// The reason of the decision `chosen` records.
fn reason(baseline: &Baseline, chosen: &Chosen) -> String {
    let index = chosen.decision.expect("a unit's decision");
    baseline.decisions()[index].why.clone()
}

/// Each of seed 001's choices says why in words, naming the ruling; a
/// unit that stands in the move phase says why too, and ending the
/// phase is no one's decision.
#[test]
fn seed_001_the_baseline_says_why() {
    let mut game = rv_game(vec![
        rv_unit("Guards", BRITISH, "guards", 24.0, 10.0, 0.0),
        rv_unit("Militia", AMERICANS, "militia", 24.0, 20.0, 180.0),
    ]);
    let mut british = Baseline::new(vec![BRITISH]);
    let advance = british.decide(&game).unwrap();
    let why = reason(&british, &advance);
    assert!(
        why.starts_with("advances on `Militia`, the nearest enemy,")
            && why.ends_with("to the edge of its 6\" range (HO23)"),
        "{why}"
    );
    game.apply(&advance.action, &mut Scripted::new([])).unwrap();
    british.did(advance.decision.unwrap(), vec!["Guards move 3.5\".".into()]);
    let end = british.decide(&game).unwrap();
    assert_eq!(end.action, Action::Rv(rv::Action::EndPhase));
    assert_eq!(end.decision, None);
    assert_eq!(british.decisions()[0].did, ["Guards move 3.5\"."]);
    assert!(!british.decisions()[0].stood);
    // The defender's units stand, and say so.
    rv_go_to(&mut game, rv::PhaseKind::Move, AMERICANS);
    let mut americans = Baseline::new(vec![AMERICANS]);
    let end = americans.decide(&game).unwrap();
    assert_eq!(end.action, Action::Rv(rv::Action::EndPhase));
    let stood = &americans.decisions()[0];
    assert!(stood.stood);
    assert_eq!(stood.name, "Militia");
    assert!(
        stood
            .why
            .starts_with("stands: its side defends and never advances (HO24)"),
        "{}",
        stood.why
    );
    // In the shoot phase, it fires at the weakest in reach.
    rv_go_to(&mut game, rv::PhaseKind::Shoot, BRITISH);
    let fire = british.decide(&game).unwrap();
    assert!(matches!(
        fire.action,
        Action::Rv(rv::Action::Fire { unit: 0, target: 1 })
    ));
    let why = reason(&british, &fire);
    assert!(
        why.starts_with("fires at `Militia`, the weakest enemy it can fire at: 100% left,")
            && why.ends_with("(HO22)"),
        "{why}"
    );
    // An enemy off the front: a pivot, with the angle.
    let game = rv_game(vec![
        rv_unit("Guards", BRITISH, "guards", 10.0, 10.0, 0.0),
        rv_unit("Militia", AMERICANS, "militia", 30.0, 10.0, 270.0),
    ]);
    let mut baseline = Baseline::new(vec![BRITISH]);
    let pivot = baseline.decide(&game).unwrap();
    let why = reason(&baseline, &pivot);
    assert!(
        why.starts_with("turns to face `Militia`, the nearest enemy (")
            && why.ends_with("90° off its front (HO23)"),
        "{why}"
    );
}

#[test]
fn seed_001_a_charge_says_why_the_target_is_weakened() {
    let e = Weighed {
        index: 1,
        strength: 0.5,
        distance: 2.0,
    };
    assert_eq!(
        charge_why("Militia", 1.0, e, false),
        "charges `Militia`: weakened (50% left, half its strength gone), the weakest it may charge, 2\" away (HO21)"
    );
    let e = Weighed { strength: 0.8, ..e };
    assert_eq!(
        charge_why("Militia", 1.0, e, true),
        "charges `Militia`: weakened (80% left, weaker than the charger's 100%), the weakest it may charge, 2\" away, within the defender's 6\" (HO21, HO24)"
    );
}

// ----- seed 002 -----------------------------------------------------------

/// A seed-002 scenario: the union (north) must take the plateau in the
/// middle; its infantry at `union`, the confederates' at `confederates`.
fn acw_game(union: &[(f64, f64)], confederates: &[(f64, f64)]) -> Game {
    acw_game_on("", union, confederates)
}

/// [`acw_game`] with `terrain` (YAML list items) on the table.
fn acw_game_on(terrain: &str, union: &[(f64, f64)], confederates: &[(f64, f64)]) -> Game {
    let unit = |side: &str, n: usize, (x, y): &(f64, f64), facing: &str| {
        format!(
            "      - {{ name: {side} {n}, troop_type: infantry, position: [{x}, {y}], facing: {facing} }}\n"
        )
    };
    let mut text = String::from(
        "name: test\ntitle: test\nruleset: ohw-acw\ntable: { width: 36, height: 36 }\nturns: 3\nfirst: union\n\
         areas:\n  - { name: the plateau, rect: [[12, 16], [24, 20]] }\n",
    );
    if !terrain.is_empty() {
        text.push_str("terrain:\n");
        text.push_str(terrain);
    }
    text.push_str("sides:\n  - name: union\n    edge: north\n    units:\n");
    for (n, at) in union.iter().enumerate() {
        text.push_str(&unit("Union", n, at, "south"));
    }
    text.push_str("  - name: confederates\n    edge: south\n    units:\n");
    for (n, at) in confederates.iter().enumerate() {
        text.push_str(&unit("Reb", n, at, "north"));
    }
    text.push_str(
        "victory:\n  - winner: union\n    when: { hold_area: { side: union, area: the plateau } }\n\
         \x20 - winner: confederates\n    when: { rout_fraction: { side: union, more_than: 0.5 } }\n",
    );
    let scenario: Scenario =
        crate::scenario::load(Source::new("test.yaml", &text), Ruleset::builtin).unwrap();
    let (game, _) =
        Game::start(&scenario, &Tables::embedded(), &mut Scripted::new([6; 40])).unwrap();
    game
}

fn acw_state(game: &mut Game) -> &mut acw::GameState {
    match game {
        Game::Acw(state) => state,
        _ => unreachable!(),
    }
}

/// Unit `unit` alone holds a die, and it is up.
fn activate(game: &mut Game, unit: usize) {
    let state = acw_state(game);
    for (index, u) in state.units.iter_mut().enumerate() {
        u.die = (index == unit).then_some(6);
        u.activated = false;
        u.tie_rolls.clear();
    }
    state.phase = acw::Phase::Activating;
}

fn acted(game: &Game, side: usize) -> acw::Action {
    match Baseline::new(vec![side]).next_action(game) {
        Some(Action::Acw(action)) => action,
        other => panic!("expected a seed-002 action, got {other:?}"),
    }
}

#[test]
fn seed_002_it_fires_at_the_most_hit_enemy_in_reach_not_the_nearest() {
    // Union 0 faces two enemies in musket range: Reb 0 nearer, Reb 1
    // farther.
    let mut game = acw_game(&[(18.0, 24.0)], &[(18.0, 18.0), (21.0, 16.5)]);
    activate(&mut game, 0);
    let fire = |target| acw::Action::Fire {
        unit: acw::UnitId(0),
        target: acw::UnitId(target),
    };
    assert_eq!(acted(&game, 0), fire(1), "both unhurt: the nearest");
    acw_state(&mut game).units[2].hits = 2;
    assert_eq!(acted(&game, 0), fire(2), "the most hit, though farther");
}

#[test]
fn seed_002_it_charges_a_weakened_enemy_and_only_a_weakened_one() {
    let mut game = acw_game(&[(18.0, 21.0)], &[(18.0, 17.0)]);
    activate(&mut game, 0);
    let unhurt = acted(&game, 0);
    assert!(
        matches!(unhurt, acw::Action::Fire { .. }),
        "an unhurt enemy is shot at: {unhurt:?}"
    );
    let removed_at = acw_state(&mut game).table.removed_at;
    acw_state(&mut game).units[1].hits = removed_at / 2 + 1;
    assert_eq!(
        acted(&game, 0),
        acw::Action::Charge {
            unit: acw::UnitId(0),
            target: acw::UnitId(1)
        }
    );
}

/// Seed 002's choices say why too: the die given out, the shot, the
/// charge at a weakened enemy.
#[test]
fn seed_002_the_baseline_says_why() {
    let mut game = acw_game(&[(18.0, 21.0)], &[(18.0, 17.0)]);
    activate(&mut game, 0);
    let mut baseline = Baseline::new(vec![0]);
    let fire = baseline.decide(&game).unwrap();
    let why = reason(&baseline, &fire);
    assert!(
        why.starts_with("fires at `Reb 0`, the weakest enemy it can fire at: 100% left,"),
        "{why}"
    );
    assert_eq!(baseline.decisions()[0].name, "Union 0");
    let removed_at = acw_state(&mut game).table.removed_at;
    acw_state(&mut game).units[1].hits = removed_at / 2 + 1;
    let charge = Baseline::new(vec![0]).decide(&game).unwrap();
    assert!(matches!(
        charge.action,
        Action::Acw(acw::Action::Charge { .. })
    ));
    let mut baseline = Baseline::new(vec![0]);
    let charge = baseline.decide(&game).unwrap();
    let why = reason(&baseline, &charge);
    assert!(why.starts_with("charges `Reb 0`: weakened ("), "{why}");
    assert!(why.ends_with("(HO21)"), "{why}");
}

#[test]
fn seed_002_the_attacker_advances_to_the_edge_of_range_and_the_defender_holds() {
    // 14" apart: the union (which must take the plateau) closes to half
    // an inch inside its 12" musket range; the confederates hold.
    let mut game = acw_game(&[(18.0, 33.0)], &[(18.0, 19.0)]);
    activate(&mut game, 0);
    let gap = {
        let state = acw_state(&mut game);
        state.units[0].base.distance_to(&state.units[1].base)
    };
    match acted(&game, 0) {
        acw::Action::Move { to, .. } => {
            let closed = 33.0 - to.y;
            assert!((closed - (gap - 11.5)).abs() < 1e-6, "{to:?}, gap {gap}");
        }
        other => panic!("expected an advance, got {other:?}"),
    }
    activate(&mut game, 1);
    assert_eq!(
        acted(&game, 1),
        acw::Action::Hold {
            unit: acw::UnitId(1)
        }
    );
    // The reason says it had no shot first: a defender still fires.
    let (_, why) = acw_activate(acw_state(&mut game), acw::UnitId(1));
    assert!(
        why.starts_with("holds: no shot, and its side defends and never advances (HO24)")
            && why.ends_with("out of its 12\" range"),
        "{why}"
    );
}

#[test]
fn seed_002_a_column_near_the_enemy_forms_line_to_fire() {
    let mut game = acw_game(&[(18.0, 30.0)], &[(18.0, 19.0)]);
    acw_state(&mut game).units[0].formation = acw::Formation::Column;
    activate(&mut game, 0);
    match acted(&game, 0) {
        acw::Action::Move {
            formation: Some(acw::Formation::Line),
            ..
        } => {}
        other => panic!("expected it to form line, got {other:?}"),
    }
    // Far off, the column marches on in column.
    let mut game = acw_game(&[(18.0, 34.0)], &[(18.0, 2.0)]);
    acw_state(&mut game).units[0].formation = acw::Formation::Column;
    activate(&mut game, 0);
    match acted(&game, 0) {
        acw::Action::Move {
            formation: None, ..
        } => {}
        other => panic!("expected it to march in column, got {other:?}"),
    }
}

#[test]
fn seed_002_in_range_without_a_shot_the_attacker_closes_half_a_move() {
    // A wood between them hides the enemy, 8" off and in range.
    let woods = "  - { kind: woods, name: the wood, rect: [[10, 20], [26, 22]] }\n";
    let mut game = acw_game_on(woods, &[(18.0, 26.0)], &[(18.0, 17.0)]);
    activate(&mut game, 0);
    let fire = acw::Action::Fire {
        unit: acw::UnitId(0),
        target: acw::UnitId(1),
    };
    assert!(
        acw_state(&mut game).check(&fire).is_err(),
        "the wood hides it"
    );
    let half = {
        let state = acw_state(&mut game);
        state
            .table
            .move_of(state.units[0].troop, state.units[0].formation)
            .unwrap()
            / 2.0
    };
    match acted(&game, 0) {
        acw::Action::Move { to, .. } => {
            assert!((26.0 - to.y - half).abs() < 1e-6, "{to:?}");
        }
        other => panic!("expected it to close in, got {other:?}"),
    }
}

#[test]
fn seed_002_the_highest_die_goes_to_the_unit_nearest_the_enemy() {
    let mut game = acw_game(&[(6.0, 33.0), (30.0, 25.0)], &[(30.0, 10.0)]);
    let state = acw_state(&mut game);
    state.phase = acw::Phase::Assigning { side: 0 };
    let best = state.dice_to_assign(0).iter().copied().max().unwrap();
    assert_eq!(
        acted(&game, 0),
        acw::Action::AssignDie {
            die: best,
            unit: acw::UnitId(1)
        }
    );
}
