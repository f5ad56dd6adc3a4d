//! One or more tests per seed-001 rule clause, with forced dice.
//!
//! Clause → test:
//! - Turn order: British move, British shoot, American move, American
//!   shoot, one charge phase (British first), melees
//!   .......................................... `the_turn_sequence_is_data`, `british_charge_first`
//! - Units of bases; line and column footprints `units_are_bases_in_line_column_or_open_order`
//! - Infantry line 6", column 12" ............. `line_moves_6_and_column_12`
//! - Open order only for light infantry, Jaegers, Virginia Rifles `open_order_only_for_light_troops`
//! - One formation change a turn, at the start or end of a move `one_formation_change_a_turn_at_the_start_or_end`
//! - About-face once a turn .................. `about_face_once_a_turn`
//! - Backwards at half speed ................. `backwards_at_half_speed`
//! - Never within 1" of an enemy except charging `never_within_1_inch_of_an_enemy_except_by_charging`
//! - Dragoons mounted/dismounted, horse holders, 6" dismounted `dragoons_mount_or_dismount_once_and_leave_horse_holders`
//! - Cannons move 6", no fire after moving, may pivot and fire `cannons_move_6_and_fire_only_if_they_did_not_move`
//! - Commanders move 12" ...................... `commanders_join_and_leave_their_units_during_movement`
//! - Fire only from line, dismounted dragoons, unmoved guns `only_lines_dismounted_dragoons_and_unmoved_guns_fire`
//! - A die per base, two per cannon, to-hit by band and type `a_die_per_base_to_hit_by_band_and_type`, `two_dice_per_cannon`
//! - Range from the centre to the nearest part . `range_runs_from_the_centre_to_the_nearest_part`
//! - Front only ............................... `fire_goes_only_to_the_front`
//! - Not through narrow gaps or over friends .. `no_fire_over_friends_or_through_narrow_gaps`
//! - Woods block the line of fire (ruling RV7) `woods_block_the_line_of_fire`
//! - A base lost per hit; a unit down to one base loses it, not a cannon `a_unit_down_to_one_base_loses_it_but_a_cannon_does_not`
//! - An artillery base needs 3 hits in one turn `a_gun_needs_three_hits_in_one_turn`
//! - Charges only from line, within charge range `charges_only_from_line_and_within_range`
//! - Charger's morale first; a failure stops it `a_charger_that_fails_morale_does_not_charge`
//! - Target fails: loses a base, retreats 12", charger takes its place `a_target_that_fails_loses_a_base_and_retreats_12`
//! - A cannon that fails is eliminated ........ `a_charged_cannon_that_fails_is_eliminated`
//! - Target passes: fires at 1" (the charger then closes) `a_target_that_passes_may_fire_at_1_inch`
//! - Target passes: counter-charge, meet in the middle `a_counter_charge_meets_in_the_middle`
//! - No answer possible from the flank (ruling RV12) `a_unit_charged_in_the_flank_can_only_stand`
//! - Morale: d6 + modifiers ≤ bases, +1 for a commander `morale_is_d6_plus_modifiers_against_bases`
//! - Cannon pass morale on 4 or less .......... `cannon_pass_morale_on_4_or_less`
//! - Militia that fail morale are removed ...... `militia_that_fail_morale_run_away`
//! - Melee: opposed d6 with modifiers; loser loses a base, retreats 12", reforms
//!   .......................................... `melee_is_opposed_and_the_loser_retreats_and_reforms`
//! - Melee modifiers (stands, flank, commander, troops, mounted, woods)
//!   .......................................... `melee_modifiers_come_from_the_table`, `defending_woods_is_plus_1`
//! - Melee ties: each loses a base, roll again `melee_ties_cost_each_a_base_and_roll_again`
//! - Militia that lose a melee are removed .... `militia_that_lose_a_melee_run_away`
//! - Commanders join and leave during movement, +1 melee, a base for morale
//!   .......................................... `commanders_join_and_leave_their_units_during_movement`, `morale_is_d6_plus_modifiers_against_bases`, `melee_modifiers_come_from_the_table`
//! - Commander lost on a 6 when his unit is wiped out by fire `a_commander_falls_on_a_6_when_his_unit_is_shot_away`
//! - Commander lost on a 6 after a melee ...... `a_commander_risks_a_roll_after_every_melee`
//! - Victory: drive the Americans from the field, margin (ruling RV10)
//!   .......................................... `driving_the_defender_off_wins_by_a_margin`, `time_up_leaves_the_field_to_the_defender`, `a_broken_attacker_loses`
//! - Refusals change nothing and roll no die .. `a_refused_action_changes_nothing_and_rolls_no_die`
//! - Actions, events, refusals: serde, sentences `actions_events_and_refusals_are_serde_and_read_as_sentences`
//! - Rule numbers from YAML, located problems . `table_problems_are_located`
//! - The Guilford order of battle ............. `guilford_ruinous_sets_up_the_seed_order_of_battle`
//! - Random legal play never panics, every listed action is accepted, refusals change
//!   nothing, units stay on the table apart, games end within the game length
//!   .......................................... `random_legal_play_ends_within_the_game_length`, `a_whole_guilford_game_ends`

use super::*;
use crate::battlefield::{Battlefield, DEFAULT_CELL, Feature, Point, Shape};
use crate::dice::{Roller, Scripted, Seeded};
use crate::ruleset::Ruleset;
use crate::yaml::Source;
use std::sync::Arc;

const BRITISH: usize = 0;
const AMERICANS: usize = 1;
const NORTH: f64 = 0.0;
const SOUTH: f64 = 180.0;

fn ruleset() -> Ruleset {
    Ruleset::builtin("ruinous-victory").unwrap().unwrap()
}

fn rv_table() -> Arc<RvTable> {
    Arc::new(
        RvTable::builtin("ruinous-victory", &ruleset())
            .unwrap()
            .unwrap(),
    )
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A unit in line, mounted if dragoons, in no brigade.
fn unit(
    name: &str,
    side: usize,
    troop: &str,
    bases: u32,
    x: f64,
    y: f64,
    facing: f64,
) -> UnitSetup {
    UnitSetup {
        name: name.to_string(),
        side,
        troop: ruleset()
            .troop_type(troop)
            .unwrap_or_else(|| panic!("{troop}")),
        bases,
        centre: p(x, y),
        facing,
        formation: Formation::Line,
        mounted: true,
        brigade: None,
    }
}

fn commander(name: &str, side: usize, x: f64, y: f64, overall: bool) -> CommanderSetup {
    CommanderSetup {
        name: name.to_string(),
        side,
        at: p(x, y),
        overall,
    }
}

/// A game on a 48" × 48" table with `woods` (rectangles), these units and
/// commanders, lasting `turns`.
fn game_with(
    woods: &[(Point, Point)],
    units: Vec<UnitSetup>,
    commanders: Vec<CommanderSetup>,
    turns: u32,
) -> GameState {
    let rules = ruleset();
    let features = woods
        .iter()
        .map(|&(min, max)| Feature {
            kind: rules.terrain_kind("woods").unwrap(),
            shape: Shape::Polygon(vec![min, p(max.x, min.y), max, p(min.x, max.y)]),
            height: 0.0,
            name: None,
        })
        .collect();
    let setup = GameSetup {
        battlefield: Arc::new(Battlefield::new(rules, 48.0, 48.0, DEFAULT_CELL, features)),
        sides: vec!["british".into(), "americans".into()],
        units,
        commanders,
        turns,
    };
    GameState::new(setup, rv_table(), &mut no_dice()).unwrap().0
}

fn game(units: Vec<UnitSetup>) -> GameState {
    game_with(&[], units, Vec::new(), 3)
}

fn no_dice() -> Scripted {
    Scripted::new([])
}

/// End phases until the `kind` phase of `side` (`None`: the melee phase's
/// turn end is passed through by ending the charge phase).
fn go_to(state: &mut GameState, kind: PhaseKind, side: usize) {
    let mut guard = 0;
    while !(state.phase().kind == kind && state.to_act() == Some(side)) {
        state.apply(&Action::EndPhase, &mut no_dice()).unwrap();
        guard += 1;
        assert!(guard < 20, "never reached {kind} for side {side}");
    }
}

/// End phases into the next turn's British move.
fn next_turn(state: &mut GameState) {
    let turn = state.turn();
    while state.turn() == turn {
        state.apply(&Action::EndPhase, &mut no_dice()).unwrap();
    }
    go_to(state, PhaseKind::Move, BRITISH);
}

/// Apply with forced dice, insisting every die is used.
fn apply(state: &mut GameState, action: Action, rolls: &[u8]) -> Vec<Event> {
    let mut dice = Scripted::new(rolls.iter().copied());
    let events = state
        .apply(&action, &mut dice)
        .unwrap_or_else(|refusal| panic!("{action:?} refused: {refusal}"));
    assert_eq!(dice.remaining(), 0, "not every forced die was rolled");
    events
}

/// The refusal of `action`, checking it changed nothing and rolled nothing.
fn refused(state: &mut GameState, action: Action) -> Refusal {
    let before = state.clone();
    let refusal = state.apply(&action, &mut no_dice()).unwrap_err();
    assert!(*state == before, "a refusal changed the state");
    refusal
}

fn unit_named(state: &GameState, name: &str) -> usize {
    state.units().iter().position(|u| u.name == name).unwrap()
}

// ---------------------------------------------------------------------------
// Turn order
// ---------------------------------------------------------------------------

#[test]
fn the_turn_sequence_is_data() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 24.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            24.0,
            40.0,
            SOUTH,
        ),
    ]);
    let mut seen = Vec::new();
    for _ in 0..6 {
        let phase = state.phase();
        seen.push((state.turn(), phase.kind, state.to_act()));
        state.apply(&Action::EndPhase, &mut no_dice()).unwrap();
    }
    use PhaseKind::*;
    assert_eq!(
        seen,
        [
            (1, Move, Some(BRITISH)),
            (1, Shoot, Some(BRITISH)),
            (1, Move, Some(AMERICANS)),
            (1, Shoot, Some(AMERICANS)),
            (1, Charge, Some(BRITISH)),
            (1, Charge, Some(AMERICANS)),
        ]
    );
    // The melee phase runs by itself and the next turn begins.
    assert_eq!((state.turn(), state.phase().kind), (2, Move));
    assert_eq!(state.to_act(), Some(BRITISH));
    assert_eq!(
        rv_table()
            .sequence
            .iter()
            .map(|p| p.kind)
            .collect::<Vec<_>>(),
        [Move, Shoot, Move, Shoot, Charge, Melee]
    );
}

#[test]
fn british_charge_first() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 24.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            24.0,
            14.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    // The Americans may not charge until the British have done.
    let american = unit_named(&state, "Continentals");
    assert!(matches!(
        refused(
            &mut state,
            Action::Charge {
                unit: american,
                target: 0
            }
        ),
        Refusal::NotYours { .. }
    ));
    apply(&mut state, Action::EndPhase, &[]);
    assert_eq!(state.to_act(), Some(AMERICANS));
    assert_eq!(state.phase().kind, PhaseKind::Charge);
    assert!(
        state
            .check(&Action::Charge {
                unit: american,
                target: 0
            })
            .is_ok()
    );
}

// ---------------------------------------------------------------------------
// Formations and movement
// ---------------------------------------------------------------------------

#[test]
fn units_are_bases_in_line_column_or_open_order() {
    let mut jaegers = unit("Jaegers", BRITISH, "jaegers", 4, 30.0, 5.0, NORTH);
    jaegers.formation = Formation::OpenOrder;
    let mut column = unit("71st", BRITISH, "british-line", 6, 5.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 12.0, 2.0, NORTH),
        column,
        jaegers,
        unit("Gun", BRITISH, "british-cannon", 1, 44.0, 5.0, NORTH),
    ]);
    let size = |unit: usize| {
        let base = state.footprint(unit);
        (base.frontage, base.depth)
    };
    assert_eq!(size(0), (9.0, 1.0)); // six 1.5" bases side by side
    assert_eq!(size(1), (1.5, 6.0)); // one behind another
    assert_eq!(size(2), (10.5, 1.0)); // a stand's width between stands
    assert_eq!(size(3), (1.5, 2.0)); // a gun is its base
    assert_eq!(state.formation(3), None); // "Cannons do not have formations"
    assert_eq!(state.strength(0), Some(1.0));
}

#[test]
fn line_moves_6_and_column_12() {
    let mut column = unit("71st", BRITISH, "british-line", 6, 40.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        column,
    ]);
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 11.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 11.0),
        },
        &[],
    );
    assert_eq!(state.position(0), Some(p(10.0, 11.0)));
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 12.0)
            }
        ),
        Refusal::AlreadyMoved { .. }
    ));
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 1,
                to: p(40.0, 22.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(40.0, 22.0),
        },
        &[],
    );
}

#[test]
fn open_order_only_for_light_troops() {
    let mut state = game(vec![
        unit("Militia", BRITISH, "militia", 5, 10.0, 5.0, NORTH),
        unit("Jaegers", BRITISH, "jaegers", 4, 30.0, 5.0, NORTH),
        unit(
            "Light Infantry",
            BRITISH,
            "british-light-infantry",
            4,
            30.0,
            15.0,
            NORTH,
        ),
        unit("Guards", BRITISH, "guards", 4, 10.0, 15.0, NORTH),
    ]);
    let open = |unit| Action::ChangeFormation {
        unit,
        formation: Formation::OpenOrder,
    };
    assert!(matches!(
        refused(&mut state, open(0)),
        Refusal::NoSuchFormation { .. }
    ));
    assert!(matches!(
        refused(&mut state, open(3)),
        Refusal::NoSuchFormation { .. }
    ));
    apply(&mut state, open(1), &[]);
    apply(&mut state, open(2), &[]);
    assert_eq!(state.formation(1), Some(Formation::OpenOrder));
    // The Virginia Rifles too, on their own turn.
    let mut state = game(vec![unit(
        "Rifles",
        AMERICANS,
        "virginia-rifles",
        6,
        24.0,
        40.0,
        SOUTH,
    )]);
    go_to(&mut state, PhaseKind::Move, AMERICANS);
    apply(&mut state, open(0), &[]);
}

#[test]
fn one_formation_change_a_turn_at_the_start_or_end() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        unit("33rd", BRITISH, "british-line", 6, 30.0, 5.0, NORTH),
    ]);
    let column = |unit| Action::ChangeFormation {
        unit,
        formation: Formation::Column,
    };
    let line = |unit| Action::ChangeFormation {
        unit,
        formation: Formation::Line,
    };
    // At the start: form column, then march 12".
    apply(&mut state, column(0), &[]);
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 17.0),
        },
        &[],
    );
    assert!(matches!(
        refused(&mut state, line(0)),
        Refusal::AlreadyChanged { .. }
    ));
    // At the end: move 6" in line, then form column; no more moving.
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(30.0, 11.0),
        },
        &[],
    );
    apply(&mut state, column(1), &[]);
    assert!(
        state
            .check(&Action::Move {
                unit: 1,
                to: p(30.0, 12.0)
            })
            .is_err()
    );
    // Next turn it may change again.
    next_turn(&mut state);
    apply(&mut state, line(0), &[]);
}

#[test]
fn about_face_once_a_turn() {
    let mut state = game(vec![unit(
        "23rd",
        BRITISH,
        "british-line",
        6,
        10.0,
        5.0,
        NORTH,
    )]);
    apply(&mut state, Action::AboutFace { unit: 0 }, &[]);
    assert_eq!(state.facing(0), Some(180.0));
    assert!(matches!(
        refused(&mut state, Action::AboutFace { unit: 0 }),
        Refusal::AlreadyAboutFaced { .. }
    ));
    // About-facing is not the unit's move; going on north is now backwards.
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 8.0),
        },
        &[],
    );
}

#[test]
fn backwards_at_half_speed() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 20.0, NORTH),
        unit("33rd", BRITISH, "british-line", 6, 30.0, 20.0, NORTH),
    ]);
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 16.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    let events = apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 17.0),
        },
        &[],
    );
    assert!(matches!(
        events[0],
        Event::Moved {
            backwards: true,
            ..
        }
    ));
    // Sideways is not backwards.
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(36.0, 20.0),
        },
        &[],
    );
}

#[test]
fn never_within_1_inch_of_an_enemy_except_by_charging() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 24.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            24.0,
            12.0,
            SOUTH,
        ),
    ]);
    // The enemy's front edge is at 11.5": a move to 10.2 leaves 0.8".
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(24.0, 10.2)
            }
        ),
        Refusal::TooNearEnemy { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(24.0, 10.0),
        },
        &[],
    );
    // Charging is how units close.
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    assert!(state.check(&Action::Charge { unit: 0, target: 1 }).is_ok());
}

#[test]
fn dragoons_mount_or_dismount_once_and_leave_horse_holders() {
    let mut state = game(vec![
        unit("Legion", BRITISH, "british-dragoons", 4, 10.0, 5.0, NORTH),
        unit("Tarleton", BRITISH, "british-dragoons", 4, 30.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            17.0,
            SOUTH,
        ),
    ]);
    // Mounted: 12", always in line.
    assert!(matches!(
        refused(
            &mut state,
            Action::ChangeFormation {
                unit: 1,
                formation: Formation::Column
            }
        ),
        Refusal::NoSuchFormation { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 1,
            to: p(30.0, 17.0),
        },
        &[],
    );
    // Dismounted: 6"; not both dismount and remount.
    apply(
        &mut state,
        Action::Mount {
            unit: 0,
            mounted: false,
        },
        &[],
    );
    assert!(matches!(
        refused(
            &mut state,
            Action::Mount {
                unit: 0,
                mounted: true
            }
        ),
        Refusal::AlreadyChanged { .. }
    ));
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 11.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 11.0),
        },
        &[],
    );
    // The horse holders' base neither shoots nor fights: 4 bases, 3 dice,
    // 3 stands in melee; it still counts as a base (morale, strength).
    assert_eq!(state.units()[0].fighting_bases(), 3);
    assert_eq!(state.strength(0), Some(1.0));
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(&mut state, Action::Fire { unit: 0, target: 2 }, &[1, 1, 1]);
    assert!(matches!(&events[0], Event::Fired { rolls, .. } if rolls.len() == 3));
    // Mounted dragoons do not fire.
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 1, target: 2 }),
        Refusal::CannotFire { .. }
    ));
}

#[test]
fn cannons_move_6_and_fire_only_if_they_did_not_move() {
    let mut state = game(vec![
        unit("Gun A", BRITISH, "british-cannon", 1, 10.0, 5.0, NORTH),
        unit("Gun B", BRITISH, "british-cannon", 1, 30.0, 5.0, 45.0),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            20.0,
            16.0,
            SOUTH,
        ),
    ]);
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(10.0, 11.5)
            }
        ),
        Refusal::TooFar { .. }
    ));
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(10.0, 11.0),
        },
        &[],
    );
    apply(
        &mut state,
        Action::Pivot {
            unit: 1,
            facing: 315.0,
        },
        &[],
    );
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 0, target: 2 }),
        Refusal::CannotFire { .. }
    ));
    // Pivoted in place: it still fires, two dice.
    let events = apply(&mut state, Action::Fire { unit: 1, target: 2 }, &[1, 1]);
    assert!(matches!(&events[0], Event::Fired { rolls, .. } if rolls.len() == 2));
}

// ---------------------------------------------------------------------------
// Fire
// ---------------------------------------------------------------------------

#[test]
fn only_lines_dismounted_dragoons_and_unmoved_guns_fire() {
    let mut column = unit("71st", BRITISH, "british-line", 6, 10.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let mut state = game(vec![
        column,
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            17.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 0, target: 1 }),
        Refusal::CannotFire { .. }
    ));
    // Firing is once a turn.
    go_to(&mut state, PhaseKind::Shoot, AMERICANS);
    apply(&mut state, Action::Fire { unit: 1, target: 0 }, &[1; 6]);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 1, target: 0 }),
        Refusal::CannotFire { .. }
    ));
}

#[test]
fn a_die_per_base_to_hit_by_band_and_type() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit("33rd", BRITISH, "british-line", 6, 34.0, 10.0, NORTH),
        unit("Militia", AMERICANS, "militia", 5, 10.0, 15.0, SOUTH),
        unit("Rifles", AMERICANS, "virginia-rifles", 6, 34.0, 19.5, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    // Muskets at 4.5": the 6" column, a 6 to hit; one base per hit.
    let events = apply(
        &mut state,
        Action::Fire { unit: 0, target: 2 },
        &[6, 6, 5, 1, 2, 3],
    );
    assert!(matches!(&events[0], Event::Fired { needed: 6, hits: 2, band, .. } if *band == 6.0));
    assert_eq!(state.units()[2].bases, 3);
    // Muskets do not reach the 12" column.
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 1, target: 3 }),
        Refusal::BadTarget { .. }
    ));
    // Rifles at 9": a 6 to hit.
    go_to(&mut state, PhaseKind::Shoot, AMERICANS);
    let events = apply(
        &mut state,
        Action::Fire { unit: 3, target: 1 },
        &[6, 5, 5, 5, 1, 1],
    );
    assert!(matches!(
        &events[0],
        Event::Fired {
            needed: 6,
            hits: 1,
            ..
        }
    ));
    assert_eq!(state.units()[1].bases, 5);
    assert_eq!(rv_table().needed(FireClass::Rifle, 1), Some(5));
    assert_eq!(rv_table().needed(FireClass::Musket, 0), Some(5));
}

#[test]
fn two_dice_per_cannon() {
    let mut state = game(vec![
        unit("Gun", BRITISH, "british-cannon", 1, 10.0, 5.0, NORTH),
        unit("Militia", AMERICANS, "militia", 5, 10.0, 16.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    // 10.5" to the militia's front: the 12" column, a 6 to hit.
    let events = apply(&mut state, Action::Fire { unit: 0, target: 1 }, &[6, 6]);
    assert!(matches!(
        &events[0],
        Event::Fired {
            needed: 6,
            hits: 2,
            ..
        }
    ));
    assert_eq!(state.units()[1].bases, 3);
}

#[test]
fn range_runs_from_the_centre_to_the_nearest_part() {
    let mut column = unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        10.0,
        18.0,
        SOUTH,
    );
    column.formation = Formation::Column;
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        column,
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    // Centre to centre 8", centre to its nearest part 5.5": in musket range.
    let events = apply(&mut state, Action::Fire { unit: 0, target: 1 }, &[1; 6]);
    assert!(matches!(&events[0], Event::Fired { band, .. } if *band == 6.0));
}

#[test]
fn fire_goes_only_to_the_front() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 20.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            16.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(matches!(
        refused(&mut state, Action::Fire { unit: 0, target: 1 }),
        Refusal::BadTarget { .. }
    ));
}

#[test]
fn no_fire_over_friends_or_through_narrow_gaps() {
    let target = || {
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            16.5,
            SOUTH,
        )
    };
    let shooter = || unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH);
    for (friend_x, allowed) in [(10.0, false), (12.2, false), (14.0, true)] {
        let mut state = game(vec![
            shooter(),
            target(),
            unit("Friends", BRITISH, "british-line", 2, friend_x, 13.0, NORTH),
        ]);
        go_to(&mut state, PhaseKind::Shoot, BRITISH);
        let fire = Action::Fire { unit: 0, target: 1 };
        assert_eq!(
            state.check(&fire).is_ok(),
            allowed,
            "friend at x {friend_x}"
        );
        if !allowed {
            assert!(
                refused(&mut state, fire)
                    .to_string()
                    .contains("Friends is in the way")
            );
        }
    }
}

#[test]
fn woods_block_the_line_of_fire() {
    let mut state = game_with(
        &[(p(0.0, 12.0), p(20.0, 14.0))],
        vec![
            unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
            unit(
                "Continentals",
                AMERICANS,
                "continentals",
                6,
                10.0,
                16.5,
                SOUTH,
            ),
        ],
        Vec::new(),
        3,
    );
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    assert!(
        refused(&mut state, Action::Fire { unit: 0, target: 1 })
            .to_string()
            .contains("cannot see")
    );
}

#[test]
fn a_unit_down_to_one_base_loses_it_but_a_cannon_does_not() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            3,
            10.0,
            15.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(
        &mut state,
        Action::Fire { unit: 0, target: 1 },
        &[6, 6, 1, 1, 1, 1],
    );
    assert!(events.contains(&Event::BasesLost {
        unit: state.who(1),
        lost: 3,
        left: 0
    }));
    assert!(state.is_removed(1));
    // A gun reduced to one base keeps it (a battery of two, house-ruled).
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit(
            "Battery",
            AMERICANS,
            "american-cannon",
            2,
            10.0,
            15.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(
        &mut state,
        Action::Fire { unit: 0, target: 1 },
        &[6, 6, 6, 1, 1, 1],
    );
    assert_eq!(state.units()[1].bases, 1);
    assert!(!state.is_removed(1));
}

#[test]
fn a_gun_needs_three_hits_in_one_turn() {
    let units = || {
        vec![
            unit("Gun", BRITISH, "british-cannon", 1, 10.0, 8.0, NORTH),
            unit("23rd", BRITISH, "british-line", 2, 14.0, 10.0, NORTH),
            unit("US Gun", AMERICANS, "american-cannon", 1, 10.0, 15.0, SOUTH),
        ]
    };
    let mut state = game(units());
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(&mut state, Action::Fire { unit: 0, target: 2 }, &[5, 5]);
    assert!(events.contains(&Event::CannonHits {
        unit: state.who(2),
        this_turn: 2
    }));
    assert!(!state.is_removed(2));
    apply(&mut state, Action::Fire { unit: 1, target: 2 }, &[6, 1]);
    assert!(state.is_removed(2));
    // Hits do not carry over into the next turn.
    let mut state = game(units());
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(&mut state, Action::Fire { unit: 0, target: 2 }, &[5, 5]);
    apply(&mut state, Action::EndPhase, &[]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(&mut state, Action::Fire { unit: 1, target: 2 }, &[6, 1]);
    assert!(!state.is_removed(2));
    assert_eq!(state.units()[2].cannon_hits, 1);
}

// ---------------------------------------------------------------------------
// Charges
// ---------------------------------------------------------------------------

#[test]
fn charges_only_from_line_and_within_range() {
    let mut column = unit("71st", BRITISH, "british-line", 6, 30.0, 10.0, NORTH);
    column.formation = Formation::Column;
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        column,
        unit("Gun", BRITISH, "british-cannon", 1, 20.0, 10.0, NORTH),
        unit("Legion", BRITISH, "british-dragoons", 4, 40.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            12.0,
            SOUTH,
        ),
        unit("Militia", AMERICANS, "militia", 5, 30.0, 15.0, SOUTH),
        unit("US Gun", AMERICANS, "american-cannon", 1, 20.0, 14.0, SOUTH),
        unit("Maryland", AMERICANS, "continentals", 4, 40.0, 17.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    // 6" of gap: infantry reach it.
    assert!(state.check(&Action::Charge { unit: 0, target: 4 }).is_ok());
    assert!(matches!(
        refused(&mut state, Action::Charge { unit: 1, target: 5 }),
        Refusal::CannotCharge { .. }
    ));
    assert!(matches!(
        refused(&mut state, Action::Charge { unit: 2, target: 6 }),
        Refusal::CannotCharge { .. }
    ));
    // 10.75" of gap: beyond infantry, within the dragoons' 12".
    assert!(state.check(&Action::Charge { unit: 3, target: 7 }).is_ok());
    let mut far = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 5.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            12.5,
            SOUTH,
        ),
    ]);
    go_to(&mut far, PhaseKind::Charge, BRITISH);
    assert!(
        refused(&mut far, Action::Charge { unit: 0, target: 1 })
            .to_string()
            .contains("beyond charge range (6\")")
    );
}

fn charge_game(target: UnitSetup) -> GameState {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 4, 24.0, 10.0, NORTH),
        target,
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    state
}

#[test]
fn a_charger_that_fails_morale_does_not_charge() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[5]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ChargeFaltered { .. }))
    );
    assert_eq!(state.position(0), Some(p(24.0, 10.0)));
    assert!(state.pending().is_none());
    // It may not try again this turn, but it may still be charged.
    assert!(matches!(
        refused(&mut state, Action::Charge { unit: 0, target: 1 }),
        Refusal::CannotCharge { .. }
    ));
    apply(&mut state, Action::EndPhase, &[]);
    assert!(state.check(&Action::Charge { unit: 1, target: 0 }).is_ok());
}

#[test]
fn a_target_that_fails_loses_a_base_and_retreats_12() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    // Charger 4 ≤ 4 passes; target 6 > 5 fails.
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 6]);
    assert_eq!(state.units()[1].bases, 4);
    assert_eq!(state.position(1), Some(p(24.0, 26.0)));
    assert_eq!(state.position(0), Some(p(24.0, 14.0)));
    assert!(state.melees().is_empty());
}

#[test]
fn a_charged_cannon_that_fails_is_eliminated() {
    let mut state = charge_game(unit(
        "US Gun",
        AMERICANS,
        "american-cannon",
        1,
        24.0,
        14.0,
        SOUTH,
    ));
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 5]);
    assert!(state.is_removed(1));
}

#[test]
fn a_target_that_passes_may_fire_at_1_inch() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 2]);
    // The target's side answers.
    assert_eq!(state.to_act(), Some(AMERICANS));
    assert_eq!(
        state.legal_actions(),
        [
            Action::Respond {
                response: Response::Fire
            },
            Action::Respond {
                response: Response::CounterCharge
            },
        ]
    );
    assert!(matches!(
        refused(&mut state, Action::EndPhase),
        Refusal::ResponsePending
    ));
    // Five dice in the 1" column, needing 5.
    let events = apply(
        &mut state,
        Action::Respond {
            response: Response::Fire,
        },
        &[5, 1, 1, 1, 1],
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Fired { needed: 5, hits: 1, band, .. } if *band == 1.0))
    );
    assert_eq!(state.units()[0].bases, 3);
    // The survivors close and fight in the melee phase.
    assert!(state.footprint(0).distance_to(&state.footprint(1)) < 0.01);
    assert_eq!(state.melees().len(), 1);
    assert_eq!(state.to_act(), Some(BRITISH));
}

#[test]
fn a_counter_charge_meets_in_the_middle() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        16.0,
        SOUTH,
    ));
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 2]);
    apply(
        &mut state,
        Action::Respond {
            response: Response::CounterCharge,
        },
        &[],
    );
    // 5" apart at the start: each goes 2.5".
    let (a, b) = (state.position(0).unwrap(), state.position(1).unwrap());
    assert!(
        (a.y - 12.5).abs() < 0.01 && (b.y - 13.5).abs() < 0.01,
        "{a:?} {b:?}"
    );
    assert!(state.melees()[0].counter);
}

#[test]
fn a_unit_charged_in_the_flank_can_only_stand() {
    // Facing east, its front is away from the charger.
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 4, 22.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            3,
            24.0,
            14.0,
            90.0,
        ),
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 1]);
    assert_eq!(
        state.legal_actions(),
        [Action::Respond {
            response: Response::Stand
        }]
    );
    apply(
        &mut state,
        Action::Respond {
            response: Response::Stand,
        },
        &[],
    );
    assert!(state.melees()[0].flank);
}

// ---------------------------------------------------------------------------
// Morale
// ---------------------------------------------------------------------------

fn morale_event(events: &[Event]) -> (u8, i32, i32, bool) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Morale {
                roll,
                modifier,
                limit,
                passed,
                ..
            } => Some((*roll, *modifier, *limit, *passed)),
            _ => None,
        })
        .unwrap()
}

#[test]
fn morale_is_d6_plus_modifiers_against_bases() {
    // Guards -1: a 5 with 4 bases passes (5 - 1 ≤ 4).
    let mut state = game(vec![
        unit("Guards", BRITISH, "guards", 4, 24.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            24.0,
            14.0,
            SOUTH,
        ),
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[5, 1]);
    assert_eq!(morale_event(&events), (5, -1, 4, true));
    // Loyalists +1: a 4 with 4 bases fails; with a commander (a base) it passes.
    for (with_commander, passed) in [(false, false), (true, true)] {
        let mut loyalists = unit("Loyalists", BRITISH, "loyalists", 4, 24.0, 10.0, NORTH);
        loyalists.brigade = Some("Cornwallis".into());
        let mut state = game_with(
            &[],
            vec![
                loyalists,
                unit(
                    "Continentals",
                    AMERICANS,
                    "continentals",
                    6,
                    24.0,
                    14.0,
                    SOUTH,
                ),
            ],
            vec![commander("Cornwallis", BRITISH, 24.0, 8.0, false)],
            3,
        );
        if with_commander {
            apply(
                &mut state,
                Action::Join {
                    commander: 0,
                    unit: 0,
                },
                &[],
            );
        }
        go_to(&mut state, PhaseKind::Charge, BRITISH);
        let rolls: &[u8] = if passed { &[4, 1] } else { &[4] };
        let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, rolls);
        let limit = if with_commander { 5 } else { 4 };
        assert_eq!(morale_event(&events), (4, 1, limit, passed));
    }
}

#[test]
fn cannon_pass_morale_on_4_or_less() {
    let mut state = charge_game(unit(
        "US Gun",
        AMERICANS,
        "american-cannon",
        1,
        24.0,
        14.0,
        SOUTH,
    ));
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 4]);
    let tests: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Morale { limit, passed, .. } => Some((*limit, *passed)),
            _ => None,
        })
        .collect();
    assert_eq!(tests, [(4, true), (4, true)]);
    assert!(state.pending().is_some());
}

#[test]
fn militia_that_fail_morale_run_away() {
    let mut state = charge_game(unit("Militia", AMERICANS, "militia", 5, 24.0, 14.0, SOUTH));
    // Militia +1: a 5 makes 6 against 5 bases.
    let events = apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 5]);
    assert!(events.contains(&Event::Removed {
        unit: state.who(1),
        why: Removal::RanAway
    }));
    assert_eq!(state.position(0), Some(p(24.0, 14.0)));
}

// ---------------------------------------------------------------------------
// Melee
// ---------------------------------------------------------------------------

/// Charge 23rd (4 bases) into `target`, which passes and stands or fires
/// without effect, then end the charge phase with `melee_rolls`.
fn melee(target: UnitSetup, response: Response, melee_rolls: &[u8]) -> (GameState, Vec<Event>) {
    let mut state = charge_game(target);
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 1]);
    let fire_dice = if response == Response::Fire {
        vec![1; state.units()[1].fighting_bases() as usize]
    } else {
        Vec::new()
    };
    apply(&mut state, Action::Respond { response }, &fire_dice);
    apply(&mut state, Action::EndPhase, &[]);
    let events = apply(&mut state, Action::EndPhase, melee_rolls);
    (state, events)
}

fn rounds(events: &[Event]) -> Vec<(i32, i32, Option<usize>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::MeleeRound {
                charger,
                defender,
                winner,
            } => Some((charger.total, defender.total, *winner)),
            _ => None,
        })
        .collect()
}

#[test]
fn melee_is_opposed_and_the_loser_retreats_and_reforms() {
    let (mut state, events) = melee(
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            4,
            24.0,
            14.0,
            SOUTH,
        ),
        Response::Fire,
        &[2, 5],
    );
    assert_eq!(rounds(&events), [(2, 5, Some(1))]);
    // The charger lost: a base, 12" back, and the next turn reforming.
    assert_eq!(state.units()[0].bases, 3);
    let at = state.position(0).unwrap();
    assert!((at.y - (13.0 - 0.5 - 12.0)).abs() < 0.6, "{at:?}");
    assert_eq!(state.turn(), 2);
    assert!(state.is_reforming(0));
    assert!(matches!(
        refused(
            &mut state,
            Action::Move {
                unit: 0,
                to: p(24.0, 2.0)
            }
        ),
        Refusal::Reforming { .. }
    ));
    assert!(
        !state
            .legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move { unit: 0, .. }))
    );
    next_turn(&mut state);
    assert_eq!(state.turn(), 3);
    assert!(!state.is_reforming(0));
}

#[test]
fn melee_ties_cost_each_a_base_and_roll_again() {
    let (state, events) = melee(
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            4,
            24.0,
            14.0,
            SOUTH,
        ),
        Response::Fire,
        &[3, 3, 6, 1],
    );
    assert_eq!(rounds(&events), [(3, 3, None), (6, 1, Some(0))]);
    // Tie: 4 → 3 each; then the Continentals lose: 3 → 2.
    assert_eq!(state.units()[0].bases, 3);
    assert_eq!(state.units()[1].bases, 2);
}

#[test]
fn militia_that_lose_a_melee_run_away() {
    // Militia that pass (a 1) and fire without effect, then lose.
    let (state, events) = melee(
        unit("Militia", AMERICANS, "militia", 5, 24.0, 14.0, SOUTH),
        Response::Fire,
        &[4, 2],
    );
    assert_eq!(rounds(&events), [(4, 2 + 1 - 1, Some(0))]);
    assert_eq!(state.units()[1].removed, Some(Removal::RanAway));
}

#[test]
fn melee_modifiers_come_from_the_table() {
    // Guards (+1) charge militia (-1) in the flank (+1) with their
    // commander (+1 melee); 4 guards against 5 militia: no stands bonus.
    let mut guards = unit("Guards", BRITISH, "guards", 4, 22.0, 10.0, NORTH);
    guards.brigade = Some("O'Hara".into());
    let mut state = game_with(
        &[],
        vec![
            guards,
            unit("Militia", AMERICANS, "militia", 5, 24.0, 15.0, 90.0),
        ],
        vec![commander("O'Hara", BRITISH, 24.0, 8.0, false)],
        3,
    );
    apply(
        &mut state,
        Action::Join {
            commander: 0,
            unit: 0,
        },
        &[],
    );
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[3, 1]);
    apply(
        &mut state,
        Action::Respond {
            response: Response::Stand,
        },
        &[],
    );
    apply(&mut state, Action::EndPhase, &[]);
    // Melee dice, then the commander's risk roll.
    let events = apply(&mut state, Action::EndPhase, &[1, 6, 2]);
    let labels = |side: fn(&Event) -> Option<&MeleeSide>| {
        let found = events.iter().find_map(side).unwrap();
        found
            .modifiers
            .iter()
            .map(|m| (m.label.clone(), m.value))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        labels(|e| match e {
            Event::MeleeRound { charger, .. } => Some(charger),
            _ => None,
        }),
        [
            ("hitting the flank or rear".to_string(), 1),
            ("commander with the unit".to_string(), 1),
            ("guards".to_string(), 1),
        ]
    );
    assert_eq!(
        labels(|e| match e {
            Event::MeleeRound { defender, .. } => Some(defender),
            _ => None,
        }),
        [
            ("more stands than the opponent".to_string(), 1),
            ("militia".to_string(), -1),
        ]
    );
    // Mounted dragoons +1.
    assert_eq!(
        rv_table()
            .troop(ruleset().troop_type("british-dragoons").unwrap())
            .unwrap()
            .melee_mounted,
        1
    );
}

#[test]
fn defending_woods_is_plus_1() {
    let mut state = game_with(
        &[(p(0.0, 13.8), p(48.0, 30.0))],
        vec![
            unit("23rd", BRITISH, "british-line", 4, 24.0, 10.0, NORTH),
            unit(
                "Continentals",
                AMERICANS,
                "continentals",
                4,
                24.0,
                14.0,
                SOUTH,
            ),
        ],
        Vec::new(),
        3,
    );
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[4, 1]);
    apply(
        &mut state,
        Action::Respond {
            response: Response::Fire,
        },
        &[1, 1, 1, 1],
    );
    apply(&mut state, Action::EndPhase, &[]);
    // 4 against 3 + 1 for the woods: a tie, each loses a base; then 5
    // against 1 + 1.
    let events = apply(&mut state, Action::EndPhase, &[4, 3, 5, 1]);
    assert_eq!(rounds(&events), [(4, 4, None), (5, 2, Some(0))]);
    let defender = events
        .iter()
        .find_map(|e| match e {
            Event::MeleeRound { defender, .. } => Some(defender),
            _ => None,
        })
        .unwrap();
    assert!(
        defender
            .modifiers
            .iter()
            .any(|m| m.label == "defending woods" && m.value == 1)
    );
}

// ---------------------------------------------------------------------------
// Commanders
// ---------------------------------------------------------------------------

#[test]
fn commanders_join_and_leave_their_units_during_movement() {
    let mut guards = unit("Guards", BRITISH, "guards", 6, 20.0, 10.0, NORTH);
    guards.brigade = Some("O'Hara".into());
    let mut line = unit("23rd", BRITISH, "british-line", 6, 40.0, 10.0, NORTH);
    line.brigade = Some("Webster".into());
    let mut state = game_with(
        &[],
        vec![guards, line],
        vec![
            commander("O'Hara", BRITISH, 20.0, 2.0, false),
            commander("Cornwallis", BRITISH, 40.0, 2.0, true),
        ],
        3,
    );
    // Only his own units; the overall commander may join any.
    assert!(matches!(
        refused(
            &mut state,
            Action::Join {
                commander: 0,
                unit: 1
            }
        ),
        Refusal::Commander { .. }
    ));
    apply(
        &mut state,
        Action::Join {
            commander: 0,
            unit: 0,
        },
        &[],
    );
    apply(
        &mut state,
        Action::Join {
            commander: 1,
            unit: 1,
        },
        &[],
    );
    assert_eq!(state.commander_of(0), Some(0));
    // He moves with the unit.
    apply(
        &mut state,
        Action::Move {
            unit: 0,
            to: p(20.0, 16.0),
        },
        &[],
    );
    assert_eq!(state.commanders()[0].at, p(20.0, 16.0));
    // One commander action a turn.
    assert!(matches!(
        refused(
            &mut state,
            Action::Leave {
                commander: 0,
                to: p(20.0, 14.0)
            }
        ),
        Refusal::Commander { .. }
    ));
    next_turn(&mut state);
    assert!(matches!(
        refused(
            &mut state,
            Action::Leave {
                commander: 0,
                to: p(20.0, 30.0)
            }
        ),
        Refusal::Commander { .. }
    ));
    apply(
        &mut state,
        Action::Leave {
            commander: 0,
            to: p(20.0, 14.0),
        },
        &[],
    );
    assert_eq!(state.commander_of(0), None);
    // A commander on his own moves 12".
    next_turn(&mut state);
    assert!(
        state
            .check(&Action::MoveCommander {
                commander: 0,
                to: p(20.0, 26.5)
            })
            .is_err()
    );
    apply(
        &mut state,
        Action::MoveCommander {
            commander: 0,
            to: p(20.0, 26.0),
        },
        &[],
    );
}

#[test]
fn a_commander_falls_on_a_6_when_his_unit_is_shot_away() {
    for (risk, lost) in [(6, true), (5, false)] {
        let mut continentals = unit(
            "Continentals",
            AMERICANS,
            "continentals",
            2,
            10.0,
            15.0,
            SOUTH,
        );
        continentals.brigade = Some("Huger".into());
        let mut state = game_with(
            &[],
            vec![
                unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
                continentals,
            ],
            vec![commander("Huger", AMERICANS, 10.0, 20.0, false)],
            3,
        );
        go_to(&mut state, PhaseKind::Move, AMERICANS);
        apply(
            &mut state,
            Action::Join {
                commander: 0,
                unit: 1,
            },
            &[],
        );
        go_to(&mut state, PhaseKind::Shoot, BRITISH);
        apply(
            &mut state,
            Action::Fire { unit: 0, target: 1 },
            &[6, 1, 1, 1, 1, 1, risk],
        );
        assert!(state.is_removed(1));
        assert_eq!(state.commanders()[0].lost, lost);
        assert_eq!(state.commanders()[0].attached, None);
    }
}

#[test]
fn a_commander_risks_a_roll_after_every_melee() {
    // Won or lost, he rolls: a 6 and he falls.
    let mut guards = unit("Guards", BRITISH, "guards", 4, 24.0, 10.0, NORTH);
    guards.brigade = Some("O'Hara".into());
    let mut state = game_with(
        &[],
        vec![
            guards,
            unit(
                "Continentals",
                AMERICANS,
                "continentals",
                4,
                24.0,
                14.0,
                SOUTH,
            ),
        ],
        vec![commander("O'Hara", BRITISH, 24.0, 8.0, false)],
        3,
    );
    apply(
        &mut state,
        Action::Join {
            commander: 0,
            unit: 0,
        },
        &[],
    );
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    apply(&mut state, Action::Charge { unit: 0, target: 1 }, &[3, 1]);
    apply(
        &mut state,
        Action::Respond {
            response: Response::CounterCharge,
        },
        &[],
    );
    apply(&mut state, Action::EndPhase, &[]);
    let events = apply(&mut state, Action::EndPhase, &[6, 1, 6]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::CommanderRisk {
            roll: 6,
            lost: true,
            ..
        }
    )));
    assert!(state.commanders()[0].lost);
    assert_eq!(state.commander_of(0), None);
}

// ---------------------------------------------------------------------------
// Victory
// ---------------------------------------------------------------------------

#[test]
fn driving_the_defender_off_wins_by_a_margin() {
    // Two American units: losing one of two leaves 50% ≥ 34%; both gone is
    // broken. The British lose nothing: margin +100.
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit("Militia", AMERICANS, "militia", 2, 10.0, 15.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    let events = apply(
        &mut state,
        Action::Fire { unit: 0, target: 1 },
        &[6, 1, 1, 1, 1, 1],
    );
    let outcome = state.outcome().unwrap();
    assert_eq!(
        outcome,
        Outcome {
            winner: BRITISH,
            reason: EndReason::DefenderDriven,
            margin: 100
        }
    );
    assert!(matches!(events.last(), Some(Event::GameOver { .. })));
    assert_eq!(state.to_act(), None);
    assert!(state.legal_actions().is_empty());
    assert!(matches!(
        refused(&mut state, Action::EndPhase),
        Refusal::GameOver
    ));
}

#[test]
fn time_up_leaves_the_field_to_the_defender() {
    let mut state = game_with(
        &[],
        vec![
            unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
            unit("33rd", BRITISH, "british-line", 6, 30.0, 10.0, NORTH),
            unit("Militia", AMERICANS, "militia", 5, 10.0, 15.0, SOUTH),
            unit("Maryland", AMERICANS, "continentals", 6, 30.0, 30.0, SOUTH),
        ],
        Vec::new(),
        1,
    );
    go_to(&mut state, PhaseKind::Shoot, BRITISH);
    apply(
        &mut state,
        Action::Fire { unit: 0, target: 2 },
        &[6, 6, 1, 1, 1, 1],
    );
    for _ in 0..5 {
        apply(&mut state, Action::EndPhase, &[]);
    }
    // The militia lost 2 of the Americans' 11 bases (18%): margin +18.
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: AMERICANS,
            reason: EndReason::TimeUp,
            margin: 18
        })
    );
    assert_eq!(state.score(), 18);
}

#[test]
fn a_broken_attacker_loses() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 2, 10.0, 15.0, NORTH),
        unit("Rifles", AMERICANS, "virginia-rifles", 6, 10.0, 25.0, SOUTH),
        unit("Maryland", AMERICANS, "continentals", 6, 30.0, 30.0, SOUTH),
    ]);
    go_to(&mut state, PhaseKind::Shoot, AMERICANS);
    apply(
        &mut state,
        Action::Fire { unit: 1, target: 0 },
        &[6, 1, 1, 1, 1, 1],
    );
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: AMERICANS,
            reason: EndReason::AttackerBroken,
            margin: -100
        })
    );
}

// ---------------------------------------------------------------------------
// Refusals, the table, the scenario
// ---------------------------------------------------------------------------

#[test]
fn a_refused_action_changes_nothing_and_rolls_no_die() {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 6, 10.0, 10.0, NORTH),
        unit(
            "Continentals",
            AMERICANS,
            "continentals",
            6,
            10.0,
            30.0,
            SOUTH,
        ),
    ]);
    for action in [
        Action::Move {
            unit: 0,
            to: p(10.0, 40.0),
        },
        Action::Move {
            unit: 0,
            to: p(f64::NAN, 1.0),
        },
        Action::Move {
            unit: 1,
            to: p(10.0, 28.0),
        },
        Action::Move {
            unit: 99,
            to: p(10.0, 12.0),
        },
        Action::Fire { unit: 0, target: 1 },
        Action::Charge { unit: 0, target: 1 },
        Action::Respond {
            response: Response::Fire,
        },
        Action::Pivot {
            unit: 0,
            facing: f64::INFINITY,
        },
        Action::Join {
            commander: 3,
            unit: 0,
        },
    ] {
        let refusal = refused(&mut state, action);
        assert!(!refusal.to_string().is_empty());
    }
}

#[test]
fn table_problems_are_located() {
    let text = crate::ruleset::BUILTIN[1]
        .2
        .replacen("line: 6 ", "line: -6 ", 1)
        .replacen("musket: [5, 6, none]", "musket: [5, 6, never]", 1)
        .replacen("woods: [woods]", "woods: [wods]", 1)
        .replacen("guards: { kind", "gaurds: { kind", 1);
    let rules = ruleset();
    let problems = RvTable::parse(Source::new("rv.yaml", &text), &rules).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 4, "{text}");
    assert!(text.contains("rv.yaml:"), "{text}");
    assert!(
        text.contains("unknown terrain kind `wods`; did you mean `woods`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown troop type `gaurds`; did you mean `guards`?"),
        "{text}"
    );
    assert!(text.contains("`none`"), "{text}");
    assert!(text.contains("inches"), "{text}");
}

fn guilford() -> (GameState, Vec<Event>) {
    // The shipped scenario, as `foe play guilford-ruinous` reads it.
    let (file, text) = crate::scenario::builtin("guilford-ruinous").unwrap();
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    let table = rv_table();
    assert_eq!(scenario.turns, table.game_length);
    let setup = GameSetup::from_scenario(&scenario, &table).unwrap();
    GameState::new(setup, table, &mut no_dice()).unwrap()
}

#[test]
fn guilford_ruinous_sets_up_the_seed_order_of_battle() {
    let (state, events) = guilford();
    assert!(matches!(
        events[0],
        Event::PhaseBegan {
            turn: 1,
            phase: PhaseKind::Move,
            side: Some(Who { index: 0, .. })
        }
    ));
    assert_eq!(state.sides(), ["british", "americans"]);
    let count = |side: usize| state.units().iter().filter(|u| u.side == side).count();
    let bases = |side: usize| -> u32 {
        state
            .units()
            .iter()
            .filter(|u| u.side == side)
            .map(|u| u.bases)
            .sum()
    };
    // British: dragoons 6, Jaegers 4, Loyalists 4, light infantry 4, three
    // cannons, three Guards of 6, four line of 6.
    assert_eq!(
        (count(BRITISH), bases(BRITISH)),
        (14, 6 + 4 + 4 + 4 + 3 + 18 + 24)
    );
    // Americans: 8 militia of 5, rifles 6, dragoons 4, 4 cannons, 5 Continentals of 6.
    assert_eq!(
        (count(AMERICANS), bases(AMERICANS)),
        (19, 40 + 6 + 4 + 4 + 30)
    );
    assert_eq!(state.commanders().len(), 10);
    assert!(state.commanders()[0].overall && !state.commanders()[1].overall);
    let jaegers = unit_named(&state, "Jaegers");
    assert_eq!(state.formation(jaegers), Some(Formation::OpenOrder));
    assert!(!state.legal_actions().is_empty());
    // A seed-000 scenario is not played under these rules.
    let (file, text) = crate::scenario::builtin("guilford").unwrap();
    let seed_000 = crate::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    assert!(matches!(
        GameSetup::from_scenario(&seed_000, &rv_table()),
        Err(SetupError::WrongRuleset { .. })
    ));
}

/// Play random legal actions (ending phases often, so games end). Every
/// few actions, each listed action is applied to a copy and must be
/// accepted (`try_all`); a random action of any kind, if refused, must
/// leave the state as it was.
fn random_game(mut state: GameState, seed: u64, max_actions: usize, try_all: bool) -> GameState {
    use rand::{RngExt, SeedableRng};
    let mut choose = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut dice = Seeded::new(seed ^ 0x5eed);
    let turns = state.turns();
    for step in 0..max_actions {
        if state.outcome().is_some() {
            break;
        }
        let actions = state.legal_actions();
        assert!(!actions.is_empty(), "a side to act always has an action");
        if state.pending().is_none() {
            assert_eq!(actions.last(), Some(&Action::EndPhase));
        }
        if try_all && step % 7 == 0 {
            for action in &actions {
                let mut copy = state.clone();
                copy.apply(action, &mut Seeded::new(seed))
                    .unwrap_or_else(|refusal| panic!("listed {action:?} refused: {refusal}"));
            }
        }
        let n_units = state.units().len() + 2;
        let unit = choose.random_range(0..n_units);
        let target = choose.random_range(0..n_units);
        let to = p(
            choose.random_range(-5.0..state.battlefield().width() + 5.0),
            choose.random_range(-5.0..state.battlefield().height() + 5.0),
        );
        let bogus = match choose.random_range(0..8) {
            0 => Action::Fire { unit, target },
            1 => Action::Charge { unit, target },
            2 => Action::Move { unit, to },
            3 => Action::Pivot {
                unit,
                facing: choose.random_range(0.0..360.0),
            },
            4 => Action::ChangeFormation {
                unit,
                formation: Formation::ALL[target % 3],
            },
            5 => Action::Join {
                commander: target % 4,
                unit,
            },
            6 => Action::Leave {
                commander: target % 4,
                to,
            },
            _ => Action::Respond {
                response: [Response::Fire, Response::CounterCharge, Response::Stand][target % 3],
            },
        };
        if state.check(&bogus).is_err() {
            let before = state.clone();
            assert!(state.apply(&bogus, &mut no_dice()).is_err());
            assert!(state == before, "refused {bogus:?} changed the state");
        }
        let action = if choose.random_range(0..4) == 0 && actions.contains(&Action::EndPhase) {
            Action::EndPhase
        } else {
            actions[choose.random_range(0..actions.len())]
        };
        state
            .apply(&action, &mut dice as &mut dyn Roller)
            .unwrap_or_else(|refusal| panic!("listed {action:?} refused: {refusal}"));
        assert!(state.turn() <= turns);
        invariants(&state);
    }
    state
}

/// Every unit in play stands wholly on the table, on ground it may enter,
/// overlapping no other unit in play; strength stays within 0 and 1.
fn invariants(state: &GameState) {
    let field = state.battlefield();
    let in_play: Vec<usize> = (0..state.units().len())
        .filter(|&unit| !state.is_removed(unit))
        .collect();
    for &unit in &in_play {
        let base = state.footprint(unit);
        let u = &state.units()[unit];
        assert!(field.base_on_table(&base), "{} off the table", u.name);
        assert!(
            field
                .cells_under(&base)
                .iter()
                .all(|&cell| field.passable(u.troop, cell)),
            "{} on impassable ground",
            u.name
        );
        assert!(
            u.bases >= 1 && u.bases <= u.start_bases,
            "{}: {} bases",
            u.name,
            u.bases
        );
        for &other in in_play.iter().filter(|&&other| other > unit) {
            assert!(
                !base.overlaps(&state.footprint(other)),
                "{} overlaps {}",
                u.name,
                state.units()[other].name
            );
        }
    }
}

#[test]
fn actions_events_and_refusals_are_serde_and_read_as_sentences() {
    let mut state = charge_game(unit(
        "Continentals",
        AMERICANS,
        "continentals",
        5,
        24.0,
        14.0,
        SOUTH,
    ));
    let action = Action::Charge { unit: 0, target: 1 };
    let json = serde_json::to_string(&action).unwrap();
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action);
    let events = apply(&mut state, action, &[4, 2]);
    for event in &events {
        let json = serde_json::to_string(event).unwrap();
        assert_eq!(&serde_json::from_str::<Event>(&json).unwrap(), event);
        assert!(event.to_string().ends_with('.'), "{event}");
    }
    assert_eq!(
        events[1].to_string(),
        "23rd test morale to charge: 4+0 against 4, passed."
    );
    let refusal = refused(&mut state, Action::EndPhase);
    let json = serde_json::to_string(&refusal).unwrap();
    assert_eq!(serde_json::from_str::<Refusal>(&json).unwrap(), refusal);
}

#[test]
fn a_whole_guilford_game_ends() {
    let (state, _) = guilford();
    let state = random_game(state, 1781, 20_000, false);
    let outcome = state.outcome().expect("the game ended");
    assert_eq!(outcome.margin, state.score());
    assert!(state.turn() <= state.turns());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, failure_persistence: None, ..Default::default() })]

    #[test]
    fn random_legal_play_ends_within_the_game_length(seed in proptest::prelude::any::<u64>()) {
        let mut light = unit("Light Infantry", BRITISH, "british-light-infantry", 4, 40.0, 4.0, NORTH);
        light.formation = Formation::OpenOrder;
        let mut guards = unit("Guards", BRITISH, "guards", 6, 24.0, 4.0, NORTH);
        guards.brigade = Some("O'Hara".into());
        let state = game_with(
            &[(p(4.0, 20.0), p(16.0, 28.0))],
            vec![
                guards,
                unit("Legion", BRITISH, "british-dragoons", 4, 8.0, 4.0, NORTH),
                unit("Gun", BRITISH, "british-cannon", 1, 32.0, 3.0, NORTH),
                light,
                unit("Militia", AMERICANS, "militia", 5, 12.0, 18.0, SOUTH),
                unit("Rifles", AMERICANS, "virginia-rifles", 6, 36.0, 18.0, SOUTH),
                unit("Maryland", AMERICANS, "continentals", 6, 24.0, 30.0, SOUTH),
                unit("US Gun", AMERICANS, "american-cannon", 1, 24.0, 24.0, SOUTH),
                unit("Dragoons", AMERICANS, "american-dragoons", 4, 40.0, 40.0, SOUTH),
            ],
            vec![
                commander("O'Hara", BRITISH, 24.0, 1.0, false),
                commander("Greene", AMERICANS, 24.0, 44.0, true),
            ],
            6,
        );
        let state = random_game(state, seed, 5_000, true);
        proptest::prop_assert!(state.outcome().is_some(), "no outcome by turn {}", state.turn());
    }
}
