//! One test per seed-000 rule clause, with forced dice, in one file per
//! procedure as the engine is laid out (`engine/movement.rs` is tested in
//! `movement.rs`, and so on); this file holds the helpers they share.
//!
//! Clause → file: test
//! - Troop types and base sizes ............ `setup`: `bases_come_from_the_troop_types`
//! - Sequence of play as data .............. `sequence`: `the_turn_sequence_is_data`, `procedure_phases_end_by_themselves`
//! - Movement allowances 6"/6"/12" ......... `movement`: `movement_allowances`
//! - Straight lines except along roads ..... `movement`: `road_moves_stay_on_the_road_and_earn_3_inches`
//! - Roads +3" ............................. `movement`: `road_moves_stay_on_the_road_and_earn_3_inches`
//! - Woods: half for foot, barred to horse and guns `movement`: `woods_halve_foot_and_bar_horse_and_guns`
//! - Towns: half, barred to horse and guns except by road `movement`: `towns_bar_horse_and_guns_except_by_road`
//! - Marsh/lakes impassable; rivers only at fords, half `movement`: `marsh_lake_and_river_block_fords_halve`
//! - Hills: half uphill only ............... `movement`: `hills_halve_uphill_movement_only`
//! - Pivots at the start and/or end ........ `movement`: `pivots_at_the_start_and_end_of_a_move`
//! - No shooting after moving or pivoting .. `movement`: `no_shooting_after_moving_or_pivoting`
//! - No interpenetration ................... `movement`: `units_cannot_move_through_units`
//! - Enemy presence within 6" .............. `movement`: `within_6_inches_only_directly_towards_or_away`
//! - A move that is not a charge cannot contact (ruling) `movement`: `contact_is_only_by_charging`
//! - Charge: contact by movement ........... `charges`: `a_charge_ends_in_contact_and_melee_waits_for_its_phase`
//! - Charge: one pivot of at most 45° ...... `charges`: `a_charge_pivots_at_most_45_degrees`
//! - Charge: one charger per enemy unit .... `charges`: `an_enemy_unit_is_charged_by_one_unit_only`
//! - Charge: no road bonus ................. `charges`: `charges_earn_no_road_bonus`
//! - Charge: the quick check agrees ........ `charges`: `quick_charge_answers_agree_with_the_full_check`
//! - Charge restrictions by type ........... `charges`: `who_may_charge_whom`
//! - Charge: no pivot through the target ... `charges`: `a_charge_whose_pivot_would_swing_into_the_target_is_refused`
//! - Musket: 45° arc ....................... `shooting`: `musket_targets_must_be_in_the_frontal_arc`
//! - Musket: no friend within 3" of target . `shooting`: `no_shooting_at_a_target_with_a_friend_within_3`
//! - Musket: 6" range ...................... `shooting`: `muskets_reach_6_inches`
//! - Musket modifiers in order ............. `shooting`: `musket_modifiers_apply_in_the_order_listed`, `skirmishers_shoot_at_minus_1`
//! - Target in cover: cover between it and the shooter `shooting`: `a_fence_covers_only_against_an_enemy_beyond_it`
//! - Seed 004's volleys: double, at −1 ... `shooting`: `double_volleys_double_and_a_hasty_volley_is_minus_1`
//! - Artillery: bounds, woods/buildings ... `shooting`: `artillery_deducts_range_bounds_and_1_for_woods`
//! - Melee: both roll, modifiers ........... `melee`: `melee_both_roll_with_modifiers_and_the_most_hit_retreats`
//! - Melee: doubled for flank/rear ......... `melee`: `flank_attacks_double`, `a_charge_is_known_to_double_before_it_is_made`
//! - Melee: doubled against artillery ...... `melee`: `attacking_artillery_doubles`
//! - Melee: −1 charging cover/uphill ....... `melee`: `charging_into_cover_is_minus_1`
//! - Melee retreat: full move, face away ... `melee`: `melee_both_roll_with_modifiers_and_the_most_hit_retreats`
//! - Melee ties (ruling) ................... `melee`: `on_equal_hits_the_charger_retreats`
//! - Retreat off the table (ruling) ........ `melee`: `a_retreat_off_the_table_drives_the_unit_off`
//! - Retreat blocked (ruling) .............. `melee`: `a_blocked_retreat_stops_short`
//! - Rout at 13 / 9 ........................ `rout`: `infantry_rout_at_13_and_cavalry_at_9`
//! - Army resolve, 2 hits, once ............ `rout`: `army_resolve_strikes_once_with_2_hits`
//! - A unit that breaks routs (ruling O12) . `rout`: `a_unit_that_breaks_is_routed_and_counts_as_lost`
//! - Rally: 12", one per turn, points, maxima `rally`: `rally_points_spread_with_maxima_within_12`
//! - Rally: artillery and cavalry never .... `rally`: `artillery_and_cavalry_cannot_be_rallied`
//! - Rally: one per general per turn, budget `rally`: `one_rally_per_turn_and_the_budget_runs_out`
//! - Rally budget guidelines (Guilford 8/4)  `rally`: `rally_budget_reproduces_guilford`
//! - Victory: rout fraction ................ `victory`: `rout_fraction_wins`
//! - Victory: rout or exit ................. `victory`: `rout_or_exit_wins`
//! - Victory: hold area, draw at the end ... `victory`: `the_last_turn_ends_in_a_draw_or_a_held_area`
//! - Refusal leaves the state unchanged .... `sequence`: `a_refused_action_changes_nothing`
//! - Rule numbers from YAML, located errors  `setup`: `rules_table_problems_are_located`, `a_modifier_beyond_a_thousand_is_refused`

use super::fixture::{Placed, SmallGame, rules_table};
use super::*;
use crate::battlefield::tests::p;
use crate::battlefield::{Base, Shape};
use crate::dice::Scripted;

mod charges;
mod melee;
mod movement;
mod rally;
mod rout;
mod sequence;
mod setup;
mod shooting;
mod victory;

/// A game on a 48"×48" table with `features`: British (side 0, south edge,
/// moving first) and Americans (side 1, north edge), each with a general
/// with 3 rallies, for 3 turns.
fn game(
    features: &[(&str, Shape, f64)],
    british: &[Placed<'_>],
    americans: &[Placed<'_>],
) -> GameState {
    SmallGame::new(british, americans)
        .features(features)
        .turns(3)
        .build()
}

fn id(state: &GameState, name: &str) -> UnitId {
    state.find_unit(name).unwrap()
}

fn no_dice() -> Scripted {
    Scripted::new([])
}

/// End phases until `phase` of the side `side` is reached.
fn go_to(state: &mut GameState, side: usize, phase: Phase) -> Vec<Event> {
    let mut events = Vec::new();
    while !(state.active == side && state.phase() == phase) {
        events.extend(state.apply(&Action::EndPhase, &mut no_dice()).unwrap());
    }
    events
}

fn refusal(state: &mut GameState, action: Action) -> String {
    let before = format!("{:?}{:?}", state.units, state.generals);
    let refused = state.apply(&action, &mut no_dice()).unwrap_err();
    assert_eq!(before, format!("{:?}{:?}", state.units, state.generals));
    refused.to_string()
}

fn ok(state: &mut GameState, action: Action, rolls: &[u8]) -> Vec<Event> {
    let mut dice = Scripted::new(rolls.iter().copied());
    let events = state
        .apply(&action, &mut dice)
        .unwrap_or_else(|refusal| panic!("{action:?} refused: {refusal}"));
    assert_eq!(dice.remaining(), 0, "unused dice");
    events
}

fn mv(unit: UnitId, x: f64, y: f64, facing: f64) -> Action {
    Action::Move {
        unit,
        to: p(x, y),
        facing,
    }
}

fn woods(min: (f64, f64), max: (f64, f64)) -> (&'static str, Shape, f64) {
    (
        "woods",
        Shape::Rect {
            min: p(min.0, min.1),
            max: p(max.0, max.1),
        },
        0.0,
    )
}

fn road(points: &[(f64, f64)]) -> (&'static str, Shape, f64) {
    (
        "road",
        Shape::Line {
            points: points.iter().map(|(x, y)| p(*x, *y)).collect(),
            width: 1.0,
        },
        0.0,
    )
}

/// Charge, then end movement and shooting so the melee is fought with `rolls`.
fn charge_and_fight(
    state: &mut GameState,
    charger: &str,
    target: &str,
    rolls: &[u8],
) -> Vec<Event> {
    let (charger, target) = (id(state, charger), id(state, target));
    ok(
        state,
        Action::Charge {
            unit: charger,
            target,
        },
        &[],
    );
    ok(state, Action::EndPhase, &[]);
    ok(state, Action::EndPhase, rolls)
}

fn rally(general: usize, units: &[UnitId]) -> Action {
    Action::Rally {
        general: GeneralId(general),
        units: units.to_vec(),
    }
}

fn with_victory(mut state: GameState, victory: Vec<Victory>) -> GameState {
    state.victory = victory;
    state
}
