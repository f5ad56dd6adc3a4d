//! One test per seed-002 clause, with forced dice, in one file per
//! procedure as the engine is laid out (`engine/movement.rs` is tested in
//! `movement.rs`, and so on; `event` is the actions and events as data,
//! `game` whole games); this file holds the helpers they share, some of
//! them also used by `host::opponent::dice`'s tests.
//!
//! Clause → file: test
//! - A die per unit, each side assigns its own .. `activation`: `a_die_per_unit_is_rolled_and_each_side_assigns_its_own`
//! - Assignment offers each face to each unit ... `activation`: `assignment_offers_each_face_to_each_waiting_unit`
//! - Units act from the highest die down ....... `activation`: `units_act_from_the_highest_die_down`
//! - Equal opposed dice are thrown again ....... `activation`: `equal_opposed_dice_are_thrown_again`
//! - Equal dice on one side: the owner picks ... `activation`: `equal_dice_on_one_side_let_the_owner_pick`
//! - Move, fire, charge or nothing, once ....... `activation`: `an_activated_unit_acts_once_then_the_next_die`
//! - Optional #1: initiative, loser first ...... `activation`: `initiative_loser_assigns_first`
//! - Optional #2: dice drafted from one pile ... `activation`: `drafting_takes_dice_in_turn_from_one_pile`
//! - Optional #3: good commanders' extra dice .. `activation`: `good_commanders_add_dice_and_the_worst_are_discarded`
//! - Optional rules switched by scenario/caller  `setup`: `optional_rules_switch_from_the_scenario_or_the_caller`
//! - March columns a third faster ............. `movement`: `march_columns_move_a_third_faster`
//! - Dismounted cavalry moves as infantry ...... `movement`: `dismounted_cavalry_moves_as_infantry`
//! - Formation changes cost 2" (4") ............ `movement`: `formation_changes_cost_2_or_4_inches`
//! - Interpenetration: cost, both dice unused .. `movement`: `passing_through_a_friend_costs_a_change_and_needs_its_die`
//! - Woods: a third off; dismounted allowed .... `movement`: `woods_cost_a_third_and_admit_only_troops_on_foot`
//! - Towns: formation cost to enter/leave ...... `movement`: `towns_cost_a_formation_change_to_enter_and_to_leave`
//! - Fords and bridges in column only .......... `movement`: `fords_and_bridges_are_crossed_in_column_only`
//! - Marsh/lakes/rivers unchanged (impassable) . `movement`: `marsh_and_rivers_stay_impassable`
//! - No walls .................................. `movement`: `the_rule_set_has_no_walls`
//! - Only a charge touches the enemy (ruling) .. `movement`: `only_a_charge_touches_the_enemy`
//! - Artillery never charges ................... `charges`: `artillery_never_charges`
//! - No charge from march column ............... `charges`: `no_charge_from_march_column`
//! - Mounted cavalry may charge anything ....... `charges`: `mounted_cavalry_charge_anything_foot_need_an_advantage`
//! - Foot: flank/rear or 5+ points advantage ... `charges`: `mounted_cavalry_charge_anything_foot_need_an_advantage`
//! - Charge: line move, ends in contact ........ `charges`: `a_charge_reaches_only_a_line_move_and_not_through_friends`
//! - Charge: no interpenetration ............... `charges`: `a_charge_reaches_only_a_line_move_and_not_through_friends`
//! - Target may fire first; die removed; dice difference `melee`: `the_target_may_fire_first_with_the_difference_of_the_dice`
//! - A charger shot down never arrives ........ `melee`: `a_charger_shot_down_never_arrives`
//! - Charge: terrain as normal movement ........ `charges`: `charges_pay_for_the_ground_like_moves`
//! - Target in column destroyed on contact ..... `melee`: `columns_and_guns_are_destroyed_on_contact`
//! - Artillery destroyed on contact ............ `melee`: `columns_and_guns_are_destroyed_on_contact`
//! - Melee: charger only, +2, zouaves +1 ....... `melee`: `only_the_charger_inflicts_hits_with_its_modifiers`
//! - Melee: dismounted −1, outnumbered bands ... `melee`: `dismounted_chargers_and_strength_advantage_bands`
//! - Melee: halve (uphill, mounted, town/woods), double flank, round down `melee`: `melee_halves_then_doubles_and_rounds_down`
//! - Retreat 6" mounted, 3" others ............. `melee`: `a_repulsed_charger_retreats_6_mounted_3_others`
//! - Retreat through a unit: 1 hit each ........ `melee`: `a_retreat_through_a_unit_costs_each_a_hit`
//! - Fire: range bands ......................... `shooting`: `fire_is_by_range_band_and_cover_halves`
//! - Fire: march columns cannot fire ........... `shooting`: `march_columns_and_mounted_cavalry_cannot_fire`
//! - Fire: 3" within cover, edge of cover ...... `shooting`: `firing_within_cover_reaches_3_inches_but_the_edge_fires_out`
//! - Fire: strength modifiers .................. `shooting`: `worn_units_fire_weaker`
//! - Removed at 15 hits ........................ `casualties`: `units_are_removed_at_15_hits`
//! - Victory and the last turn ................. `victory`: `breaking_half_the_enemy_wins_and_the_last_turn_ends_the_game`
//! - Refusals change nothing, roll nothing ..... the `refusal` helper here, in every refusal test; `game`: `random_legal_play_never_panics`
//! - Rule numbers from YAML, located errors .... `setup`: `table_problems_are_located`
//! - Actions, events, refusals as data and words  `event`: `actions_and_events_are_data_and_words`
//! - The scenario loads and plays out .......... `game`: `henry_hill_loads_and_random_play_finishes`
//! - Random legal play (property) .............. `game`: `random_legal_play_never_panics`
//! - The opponent's dice policy: its own tests (`host::opponent::dice`)

use super::*;
use crate::battlefield::tests::p;
use crate::battlefield::{Base, Battlefield, DEFAULT_CELL, Edge, Feature, Shape};
use crate::dice::{Scripted, Seeded};
use crate::ruleset::Ruleset;
use crate::yaml::Source;
use std::sync::Arc;

mod activation;
mod casualties;
mod charges;
mod event;
mod game;
mod melee;
mod movement;
mod setup;
mod shooting;
mod victory;

/// The shipped Henry House Hill (seed 002's scenario): file name, text.
pub(super) fn shipped_henry_hill() -> (&'static str, &'static str) {
    crate::scenario::builtin("henry-hill").expect("henry-hill is built in")
}

pub(super) fn ruleset() -> Ruleset {
    Ruleset::builtin("ohw-acw").unwrap().unwrap()
}

pub(crate) fn acw_table() -> Arc<AcwTable> {
    Arc::new(AcwTable::builtin(&ruleset()).unwrap())
}

pub(super) fn field(features: &[(&str, Shape, f64)]) -> Battlefield {
    let rules = ruleset();
    let features = features
        .iter()
        .map(|(kind, shape, height)| Feature {
            kind: rules.terrain_kind(kind).unwrap(),
            shape: shape.clone(),
            height: *height,
            name: None,
        })
        .collect();
    Battlefield::new(rules, 36.0, 36.0, DEFAULT_CELL, features)
}

pub(super) fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Shape {
    Shape::Rect {
        min: p(x0, y0),
        max: p(x1, y1),
    }
}

/// A unit: name, troop type, x, y, facing, formation.
pub(super) type Placed<'a> = (&'a str, &'a str, f64, f64, f64, Formation);

pub(super) fn setup_with(
    features: &[(&str, Shape, f64)],
    blue: &[Placed<'_>],
    grey: &[Placed<'_>],
) -> GameSetup {
    let field = field(features);
    let rules = field.ruleset.clone();
    let force = |name: &str, edge: Edge, units: &[Placed<'_>]| ForceSetup {
        name: name.to_string(),
        edge,
        units: units
            .iter()
            .map(|(name, troop, x, y, facing, formation)| {
                let id = rules.troop_type(troop).unwrap();
                let t = rules.troop(id);
                UnitSetup {
                    name: name.to_string(),
                    troop: id,
                    base: Base::new(p(*x, *y), *facing, t.frontage, t.depth),
                    formation: *formation,
                    reaction_class: None,
                }
            })
            .collect(),
        extra_dice: 0,
    };
    GameSetup {
        battlefield: Arc::new(field),
        forces: vec![
            force("union", Edge::North, blue),
            force("confederates", Edge::South, grey),
        ],
        first: 0,
        turns: 3,
        victory: Vec::new(),
        optional: OptionalRules::default(),
    }
}

/// Forced rolls, then a seeded fallback (a turn that ends rolls the next
/// turn's dice).
pub(super) fn dice(rolls: &[u8]) -> Scripted {
    Scripted::then(rolls.iter().copied(), Box::new(Seeded::new(7)))
}

pub(super) fn start(setup: GameSetup, rolls: &[u8]) -> (GameState, Vec<Event>) {
    GameState::new(setup, acw_table(), &mut dice(rolls)).unwrap()
}

/// A game with the given units; side 0 rolls its dice, then side 1.
pub(crate) fn game(
    features: &[(&str, Shape, f64)],
    blue: &[Placed<'_>],
    grey: &[Placed<'_>],
    rolls: &[u8],
) -> GameState {
    start(setup_with(features, blue, grey), rolls).0
}

pub(crate) fn id(state: &GameState, name: &str) -> UnitId {
    UnitId(state.units.iter().position(|u| u.name == name).unwrap())
}

/// Assign dice as listed (unit name, face), in whatever order the sides
/// are asked.
pub(super) fn assign(state: &mut GameState, plan: &[(&str, u8)]) -> Vec<Event> {
    let mut events = Vec::new();
    while let Phase::Assigning { side } = state.phase() {
        let (name, die) = plan
            .iter()
            .find(|(name, _)| {
                let unit = state.unit(id(state, name));
                unit.side == side && unit.die.is_none()
            })
            .expect("a die for every unit");
        let unit = id(state, name);
        events.extend(
            state
                .apply(&Action::AssignDie { die: *die, unit }, &mut dice(&[]))
                .unwrap(),
        );
    }
    events
}

pub(super) fn fingerprint(state: &GameState) -> String {
    format!(
        "{:?}{:?}{:?}{:?}{:?}{:?}",
        state.units, state.phase, state.pools, state.pile, state.turn, state.outcome
    )
}

/// Apply an action that must be refused: the state is unchanged and no die
/// is rolled (the scripted roller has none and no fallback).
pub(super) fn refusal(state: &mut GameState, action: Action) -> String {
    let before = fingerprint(state);
    let mut no_dice = Scripted::new([]);
    let refused = state.apply(&action, &mut no_dice).unwrap_err();
    assert_eq!(before, fingerprint(state));
    assert!(state.check(&action).is_err());
    refused.to_string()
}

pub(super) fn apply(state: &mut GameState, action: Action, rolls: &[u8]) -> Vec<Event> {
    state
        .apply(&action, &mut dice(rolls))
        .unwrap_or_else(|refusal| panic!("{action}: {refusal}"))
}

pub(super) fn mv(
    unit: UnitId,
    formation: Option<Formation>,
    x: f64,
    y: f64,
    facing: f64,
) -> Action {
    Action::Move {
        unit,
        formation,
        to: p(x, y),
        facing,
    }
}

pub(super) fn hits_of(events: &[Event]) -> Vec<u32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Fired { hits, .. } | Event::Melee { hits, .. } => Some(*hits),
            _ => None,
        })
        .collect()
}

pub(crate) const SOUTH: f64 = 180.0;
pub(crate) const NORTH: f64 = 0.0;

/// A game where the first unit listed for side 0 acts first.
pub(super) fn solo(
    features: &[(&str, Shape, f64)],
    blue: &[Placed<'_>],
    grey: &[Placed<'_>],
) -> GameState {
    let n = blue.len() + grey.len();
    let mut rolls = vec![6];
    rolls.extend(std::iter::repeat_n(1, n - 1));
    let mut state = game(features, blue, grey, &rolls);
    let mut plan: Vec<(&str, u8)> = vec![(blue[0].0, 6)];
    plan.extend(blue[1..].iter().map(|u| (u.0, 1)));
    plan.extend(grey.iter().map(|u| (u.0, 1)));
    assign(&mut state, &plan);
    state
}

pub(crate) fn henry_hill() -> GameSetup {
    let (file, text) = shipped_henry_hill();
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    GameSetup::from_scenario(&scenario, &acw_table()).unwrap()
}
