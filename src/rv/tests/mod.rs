//! One or more tests per seed-001 rule clause, with forced dice, in one
//! file per procedure as the engine is laid out (`engine/movement.rs` is
//! tested in `movement.rs`, and so on; `sequence` is `engine/mod.rs`'s turn
//! sequence and refusals, `event` the actions and events as data, `game`
//! whole games); this file holds the helpers they share.
//!
//! Clause → file: test
//! - Turn order: British move, British shoot, American move, American
//!   shoot, one charge phase (British first), melees
//!   .......................................... `sequence`: `the_turn_sequence_is_data`, `british_charge_first`
//! - Units of bases; line and column footprints `movement`: `units_are_bases_in_line_column_or_open_order`
//! - Infantry line 6", column 12" ............. `movement`: `line_moves_6_and_column_12`
//! - Open order only for light infantry, Jaegers, Virginia Rifles `movement`: `open_order_only_for_light_troops`
//! - One formation change a turn, at the start or end of a move `movement`: `one_formation_change_a_turn_at_the_start_or_end`
//! - About-face once a turn .................. `movement`: `about_face_once_a_turn`
//! - Backwards at half speed ................. `movement`: `backwards_at_half_speed`
//! - Never within 1" of an enemy except charging `movement`: `never_within_1_inch_of_an_enemy_except_by_charging`
//! - Dragoons mounted/dismounted, horse holders, 6" dismounted `movement`: `dragoons_mount_or_dismount_once_and_leave_horse_holders`
//! - Cannons move 6", no fire after moving, may pivot and fire `movement`: `cannons_move_6_and_fire_only_if_they_did_not_move`
//! - Commanders move 12" ...................... `movement`: `commanders_join_and_leave_their_units_during_movement`
//! - Fire only from line, dismounted dragoons, unmoved guns `shooting`: `only_lines_dismounted_dragoons_and_unmoved_guns_fire`
//! - A die per base, two per cannon, to-hit by band and type `shooting`: `a_die_per_base_to_hit_by_band_and_type`, `two_dice_per_cannon`
//! - Range from the centre to the nearest part . `shooting`: `range_runs_from_the_centre_to_the_nearest_part`
//! - Front only ............................... `shooting`: `fire_goes_only_to_the_front`
//! - Not through narrow gaps or over friends .. `shooting`: `no_fire_over_friends_or_through_narrow_gaps`
//! - Woods block the line of fire (ruling RV7) `shooting`: `woods_block_the_line_of_fire`
//! - A base lost per hit; a unit down to one base loses it, not a cannon `losses`: `a_unit_down_to_one_base_loses_it_but_a_cannon_does_not`
//! - An artillery base needs 3 hits in one turn `shooting`: `a_gun_needs_three_hits_in_one_turn`
//! - Charges only from line, within charge range `charges`: `charges_only_from_line_and_within_range`
//! - Charger's morale first; a failure stops it `charges`: `a_charger_that_fails_morale_does_not_charge`
//! - Target fails: loses a base, retreats 12", charger takes its place `charges`: `a_target_that_fails_loses_a_base_and_retreats_12`
//! - A cannon that fails is eliminated ........ `charges`: `a_charged_cannon_that_fails_is_eliminated`
//! - Target passes: fires at 1" (the charger then closes) `charges`: `a_target_that_passes_may_fire_at_1_inch`
//! - Target passes: counter-charge, meet in the middle `charges`: `a_counter_charge_meets_in_the_middle`
//! - No answer possible from the flank (ruling RV12) `charges`: `a_unit_charged_in_the_flank_can_only_stand`
//! - Morale: d6 + modifiers ≤ bases, +1 for a commander `morale`: `morale_is_d6_plus_modifiers_against_bases`
//! - Cannon pass morale on 4 or less .......... `morale`: `cannon_pass_morale_on_4_or_less`
//! - Militia that fail morale are removed ...... `morale`: `militia_that_fail_morale_run_away`
//! - Melee: opposed d6 with modifiers; loser loses a base, retreats 12", reforms
//!   .......................................... `melee`: `melee_is_opposed_and_the_loser_retreats_and_reforms`
//! - Melee modifiers (stands, flank, commander, troops, mounted, woods)
//!   .......................................... `melee`: `melee_modifiers_come_from_the_table`, `defending_woods_is_plus_1`
//! - Melee ties: each loses a base, roll again `melee`: `melee_ties_cost_each_a_base_and_roll_again`
//! - Militia that lose a melee are removed .... `melee`: `militia_that_lose_a_melee_run_away`
//! - Commanders join and leave during movement, +1 melee, a base for morale
//!   .......................................... `movement`: `commanders_join_and_leave_their_units_during_movement`; `morale`: `morale_is_d6_plus_modifiers_against_bases`; `melee`: `melee_modifiers_come_from_the_table`
//! - Commander lost on a 6 when his unit is wiped out by fire `losses`: `a_commander_falls_on_a_6_when_his_unit_is_shot_away`
//! - Commander lost on a 6 after a melee ...... `losses`: `a_commander_risks_a_roll_after_every_melee`
//! - Victory: drive the Americans from the field, margin (ruling RV10)
//!   .......................................... `victory`: `driving_the_defender_off_wins_by_a_margin`, `time_up_leaves_the_field_to_the_defender`, `a_broken_attacker_loses`
//! - Refusals change nothing and roll no die .. `sequence`: `a_refused_action_changes_nothing_and_rolls_no_die`
//! - Actions, events, refusals: serde, sentences `event`: `actions_events_and_refusals_are_serde_and_read_as_sentences`
//! - Rule numbers from YAML, located problems . `setup`: `table_problems_are_located`
//! - The Guilford order of battle ............. `setup`: `guilford_ruinous_sets_up_the_seed_order_of_battle`
//! - Random legal play never panics, every listed action is accepted, refusals change
//!   nothing, units stay on the table apart, games end within the game length
//!   .......................................... `game`: `random_legal_play_ends_within_the_game_length`, `a_whole_guilford_game_ends`

use super::*;
use crate::battlefield::{Battlefield, DEFAULT_CELL, Feature, Point, Shape};
use crate::dice::{Roller, Scripted, Seeded};
use crate::ruleset::Ruleset;
use crate::yaml::Source;
use std::sync::Arc;

mod charges;
mod event;
mod game;
mod losses;
mod melee;
mod morale;
mod movement;
mod sequence;
mod setup;
mod shooting;
mod victory;

pub(super) const BRITISH: usize = 0;
pub(super) const AMERICANS: usize = 1;
pub(super) const NORTH: f64 = 0.0;
pub(super) const SOUTH: f64 = 180.0;

pub(super) fn ruleset() -> Ruleset {
    Ruleset::builtin("ruinous-victory").unwrap().unwrap()
}

pub(super) fn rv_table() -> Arc<RvTable> {
    Arc::new(
        RvTable::builtin("ruinous-victory", &ruleset())
            .unwrap()
            .unwrap(),
    )
}

pub(super) fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A unit in line, mounted if dragoons, in no brigade.
pub(super) fn unit(
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

pub(super) fn commander(name: &str, side: usize, x: f64, y: f64, overall: bool) -> CommanderSetup {
    CommanderSetup {
        name: name.to_string(),
        side,
        at: p(x, y),
        overall,
    }
}

/// A game on a 48" × 48" table with `woods` (rectangles), these units and
/// commanders, lasting `turns`.
pub(super) fn game_with(
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

pub(super) fn game(units: Vec<UnitSetup>) -> GameState {
    game_with(&[], units, Vec::new(), 3)
}

pub(super) fn no_dice() -> Scripted {
    Scripted::new([])
}

/// End phases until the `kind` phase of `side` (`None`: the melee phase's
/// turn end is passed through by ending the charge phase).
pub(super) fn go_to(state: &mut GameState, kind: PhaseKind, side: usize) {
    let mut guard = 0;
    while !(state.phase().kind == kind && state.to_act() == Some(side)) {
        state.apply(&Action::EndPhase, &mut no_dice()).unwrap();
        guard += 1;
        assert!(guard < 20, "never reached {kind} for side {side}");
    }
}

/// End phases into the next turn's British move.
pub(super) fn next_turn(state: &mut GameState) {
    let turn = state.turn();
    while state.turn() == turn {
        state.apply(&Action::EndPhase, &mut no_dice()).unwrap();
    }
    go_to(state, PhaseKind::Move, BRITISH);
}

/// Apply with forced dice, insisting every die is used.
pub(super) fn apply(state: &mut GameState, action: Action, rolls: &[u8]) -> Vec<Event> {
    let mut dice = Scripted::new(rolls.iter().copied());
    let events = state
        .apply(&action, &mut dice)
        .unwrap_or_else(|refusal| panic!("{action:?} refused: {refusal}"));
    assert_eq!(dice.remaining(), 0, "not every forced die was rolled");
    events
}

/// The refusal of `action`, checking it changed nothing and rolled nothing.
pub(super) fn refused(state: &mut GameState, action: Action) -> Refusal {
    let before = state.clone();
    let refusal = state.apply(&action, &mut no_dice()).unwrap_err();
    assert!(*state == before, "a refusal changed the state");
    refusal
}

pub(super) fn unit_named(state: &GameState, name: &str) -> usize {
    state.units().iter().position(|u| u.name == name).unwrap()
}

pub(super) fn charge_game(target: UnitSetup) -> GameState {
    let mut state = game(vec![
        unit("23rd", BRITISH, "british-line", 4, 24.0, 10.0, NORTH),
        target,
    ]);
    go_to(&mut state, PhaseKind::Charge, BRITISH);
    state
}

pub(super) fn guilford() -> (GameState, Vec<Event>) {
    // The shipped scenario, as `foe play guilford-ruinous` reads it.
    let (file, text) = crate::scenario::builtin("guilford-ruinous").unwrap();
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    let table = rv_table();
    assert_eq!(scenario.turns, table.game_length);
    let setup = GameSetup::from_scenario(&scenario, &table).unwrap();
    GameState::new(setup, table, &mut no_dice()).unwrap()
}
