//! One test per seed-002 clause, with forced dice.
//!
//! Clause → test:
//! - A die per unit, each side assigns its own .. `a_die_per_unit_is_rolled_and_each_side_assigns_its_own`
//! - Assignment offers each face to each unit ... `assignment_offers_each_face_to_each_waiting_unit`
//! - Units act from the highest die down ....... `units_act_from_the_highest_die_down`
//! - Equal opposed dice are thrown again ....... `equal_opposed_dice_are_thrown_again`
//! - Equal dice on one side: the owner picks ... `equal_dice_on_one_side_let_the_owner_pick`
//! - Move, fire, charge or nothing, once ....... `an_activated_unit_acts_once_then_the_next_die`
//! - Optional #1: initiative, loser first ...... `initiative_loser_assigns_first`
//! - Optional #2: dice drafted from one pile ... `drafting_takes_dice_in_turn_from_one_pile`
//! - Optional #3: good commanders' extra dice .. `good_commanders_add_dice_and_the_worst_are_discarded`
//! - Optional rules switched by scenario/caller  `optional_rules_switch_from_the_scenario_or_the_caller`
//! - March columns a third faster ............. `march_columns_move_a_third_faster`
//! - Dismounted cavalry moves as infantry ...... `dismounted_cavalry_moves_as_infantry`
//! - Formation changes cost 2" (4") ............ `formation_changes_cost_2_or_4_inches`
//! - Interpenetration: cost, both dice unused .. `passing_through_a_friend_costs_a_change_and_needs_its_die`
//! - Woods: a third off; dismounted allowed .... `woods_cost_a_third_and_admit_only_troops_on_foot`
//! - Towns: formation cost to enter/leave ...... `towns_cost_a_formation_change_to_enter_and_to_leave`
//! - Fords and bridges in column only .......... `fords_and_bridges_are_crossed_in_column_only`
//! - Marsh/lakes/rivers unchanged (impassable) . `marsh_and_rivers_stay_impassable`
//! - No walls .................................. `the_rule_set_has_no_walls`
//! - Only a charge touches the enemy (ruling) .. `only_a_charge_touches_the_enemy`
//! - Artillery never charges ................... `artillery_never_charges`
//! - No charge from march column ............... `no_charge_from_march_column`
//! - Mounted cavalry may charge anything ....... `mounted_cavalry_charge_anything_foot_need_an_advantage`
//! - Foot: flank/rear or 5+ points advantage ... `mounted_cavalry_charge_anything_foot_need_an_advantage`
//! - Charge: line move, ends in contact ........ `a_charge_reaches_only_a_line_move_and_not_through_friends`
//! - Charge: no interpenetration ............... `a_charge_reaches_only_a_line_move_and_not_through_friends`
//! - Target may fire first; die removed; dice difference `the_target_may_fire_first_with_the_difference_of_the_dice`
//! - A charger shot down never arrives ........ `a_charger_shot_down_never_arrives`
//! - Charge: terrain as normal movement ........ `charges_pay_for_the_ground_like_moves`
//! - Target in column destroyed on contact ..... `columns_and_guns_are_destroyed_on_contact`
//! - Artillery destroyed on contact ............ `columns_and_guns_are_destroyed_on_contact`
//! - Melee: charger only, +2, zouaves +1 ....... `only_the_charger_inflicts_hits_with_its_modifiers`
//! - Melee: dismounted −1, outnumbered bands ... `dismounted_chargers_and_strength_advantage_bands`
//! - Melee: halve (uphill, mounted, town/woods), double flank, round down `melee_halves_then_doubles_and_rounds_down`
//! - Retreat 6" mounted, 3" others ............. `a_repulsed_charger_retreats_6_mounted_3_others`
//! - Retreat through a unit: 1 hit each ........ `a_retreat_through_a_unit_costs_each_a_hit`
//! - Fire: range bands ......................... `fire_is_by_range_band_and_cover_halves`
//! - Fire: march columns cannot fire ........... `march_columns_and_mounted_cavalry_cannot_fire`
//! - Fire: 3" within cover, edge of cover ...... `firing_within_cover_reaches_3_inches_but_the_edge_fires_out`
//! - Fire: strength modifiers .................. `worn_units_fire_weaker`
//! - Removed at 15 hits ........................ `units_are_removed_at_15_hits`
//! - Victory and the last turn ................. `breaking_half_the_enemy_wins_and_the_last_turn_ends_the_game`
//! - Refusals change nothing, roll nothing ..... `refusal` helper in every refusal test; `random_legal_play_never_panics`
//! - Rule numbers from YAML, located errors .... `table_problems_are_located`
//! - Actions, events, refusals as data and words  `actions_and_events_are_data_and_words`
//! - The scenario loads and plays out .......... `henry_hill_loads_and_random_play_finishes`
//! - Random legal play (property) .............. `random_legal_play_never_panics`
//! - The opponent's dice policy: its own tests (`host::opponent::dice`)

use super::*;
use crate::battlefield::tests::p;
use crate::battlefield::{Base, Battlefield, DEFAULT_CELL, Edge, Feature, Shape};
use crate::dice::{Scripted, Seeded};
use crate::ruleset::Ruleset;
use crate::yaml::Source;
use std::sync::Arc;

/// The shipped Henry House Hill (seed 002's scenario): file name, text.
fn shipped_henry_hill() -> (&'static str, &'static str) {
    crate::scenario::builtin("henry-hill").expect("henry-hill is built in")
}

fn ruleset() -> Ruleset {
    Ruleset::builtin("ohw-acw").unwrap().unwrap()
}

pub(crate) fn acw_table() -> Arc<AcwTable> {
    Arc::new(AcwTable::builtin(&ruleset()).unwrap())
}

fn field(features: &[(&str, Shape, f64)]) -> Battlefield {
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

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Shape {
    Shape::Rect {
        min: p(x0, y0),
        max: p(x1, y1),
    }
}

/// A unit: name, troop type, x, y, facing, formation.
type Placed<'a> = (&'a str, &'a str, f64, f64, f64, Formation);

fn setup_with(
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
fn dice(rolls: &[u8]) -> Scripted {
    Scripted::then(rolls.iter().copied(), Box::new(Seeded::new(7)))
}

fn start(setup: GameSetup, rolls: &[u8]) -> (GameState, Vec<Event>) {
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
fn assign(state: &mut GameState, plan: &[(&str, u8)]) -> Vec<Event> {
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

fn fingerprint(state: &GameState) -> String {
    format!(
        "{:?}{:?}{:?}{:?}{:?}{:?}",
        state.units, state.phase, state.pools, state.pile, state.turn, state.outcome
    )
}

/// Apply an action that must be refused: the state is unchanged and no die
/// is rolled (the scripted roller has none and no fallback).
fn refusal(state: &mut GameState, action: Action) -> String {
    let before = fingerprint(state);
    let mut no_dice = Scripted::new([]);
    let refused = state.apply(&action, &mut no_dice).unwrap_err();
    assert_eq!(before, fingerprint(state));
    assert!(state.check(&action).is_err());
    refused.to_string()
}

fn apply(state: &mut GameState, action: Action, rolls: &[u8]) -> Vec<Event> {
    state
        .apply(&action, &mut dice(rolls))
        .unwrap_or_else(|refusal| panic!("{action}: {refusal}"))
}

fn mv(unit: UnitId, formation: Option<Formation>, x: f64, y: f64, facing: f64) -> Action {
    Action::Move {
        unit,
        formation,
        to: p(x, y),
        facing,
    }
}

/// Charge; if the target may fire first, it declines. All the events.
fn charge(state: &mut GameState, unit: UnitId, target: UnitId, rolls: &[u8]) -> Vec<Event> {
    let mut events = apply(state, Action::Charge { unit, target }, rolls);
    if state.phase()
        == (Phase::ChargeResponse {
            charger: unit,
            target,
        })
    {
        events.extend(apply(
            state,
            Action::Respond {
                unit: target,
                fire: false,
            },
            rolls,
        ));
    }
    events
}

fn hits_of(events: &[Event]) -> Vec<u32> {
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

// ----- activation ------------------------------------------------------------

#[test]
fn a_die_per_unit_is_rolled_and_each_side_assigns_its_own() {
    let (mut state, events) = start(
        setup_with(
            &[],
            &[
                ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
                ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
            ],
            &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        ),
        &[2, 5, 4],
    );
    assert_eq!(
        &events[..3],
        &[
            Event::TurnBegan { turn: 1 },
            Event::DiceRolled {
                side: Some(0),
                dice: vec![5, 2]
            },
            Event::DiceRolled {
                side: Some(1),
                dice: vec![4]
            },
        ]
    );
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    assert_eq!(state.to_act(), Some(0));
    // Side 1 cannot assign while side 0 does, nor give a die it has not.
    let c = id(&state, "C");
    assert!(refusal(&mut state, Action::AssignDie { die: 4, unit: c }).contains("other side"));
    let a = id(&state, "A");
    assert!(refusal(&mut state, Action::AssignDie { die: 6, unit: a }).contains("no unassigned 6"));
    apply(&mut state, Action::AssignDie { die: 2, unit: a }, &[]);
    assert!(
        refusal(&mut state, Action::AssignDie { die: 5, unit: a }).contains("already has a die")
    );
    let b = id(&state, "B");
    apply(&mut state, Action::AssignDie { die: 5, unit: b }, &[]);
    assert_eq!(state.phase(), Phase::Assigning { side: 1 });
    apply(&mut state, Action::AssignDie { die: 4, unit: c }, &[]);
    assert_eq!(state.phase(), Phase::Activating);
    assert_eq!(state.up_next(), vec![b]);
}

#[test]
fn assignment_offers_each_face_to_each_waiting_unit() {
    let state = game(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[3, 3, 1],
    );
    let (a, b) = (id(&state, "A"), id(&state, "B"));
    assert_eq!(
        state.legal_actions(),
        vec![
            Action::AssignDie { die: 3, unit: a },
            Action::AssignDie { die: 3, unit: b },
        ]
    );
}

#[test]
fn units_act_from_the_highest_die_down() {
    let mut state = game(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[2, 5, 4],
    );
    assign(&mut state, &[("A", 2), ("B", 5), ("C", 4)]);
    let order: Vec<&str> = ["B", "C", "A"].to_vec();
    for name in order {
        let unit = id(&state, name);
        assert_eq!(state.up_next(), vec![unit], "{name} is up");
        assert_eq!(state.to_act(), Some(state.unit(unit).side));
        let events = apply(&mut state, Action::Hold { unit }, &[]);
        assert!(matches!(events[0], Event::Activated { .. }));
    }
    // Every die used: the next turn's dice are thrown.
    assert_eq!(state.turn(), 2);
}

#[test]
fn equal_opposed_dice_are_thrown_again() {
    let mut state = game(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[4, 4],
    );
    // A's assignment, then C's, which completes it: the tie is thrown
    // again at once, 3 each (again), then A 2, C 5: C goes first.
    let a = id(&state, "A");
    let c = id(&state, "C");
    apply(&mut state, Action::AssignDie { die: 4, unit: a }, &[]);
    let events = apply(
        &mut state,
        Action::AssignDie { die: 4, unit: c },
        &[3, 3, 2, 5],
    );
    let ties: Vec<(UnitId, u8)> = events
        .iter()
        .filter_map(|e| match e {
            Event::TieRolled { unit, roll } => Some((*unit, *roll)),
            _ => None,
        })
        .collect();
    assert_eq!(ties, vec![(a, 3), (c, 3), (a, 2), (c, 5)]);
    assert_eq!(state.up_next(), vec![c]);
    apply(&mut state, Action::Hold { unit: c }, &[]);
    assert_eq!(state.up_next(), vec![a]);
}

#[test]
fn equal_dice_on_one_side_let_the_owner_pick() {
    let mut state = game(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[6, 6, 1],
    );
    let events = assign(&mut state, &[("A", 6), ("B", 6), ("C", 1)]);
    assert!(!events.iter().any(|e| matches!(e, Event::TieRolled { .. })));
    let (a, b) = (id(&state, "A"), id(&state, "B"));
    assert_eq!(state.up_next(), vec![a, b]);
    apply(&mut state, Action::Hold { unit: b }, &[]);
    assert_eq!(state.up_next(), vec![a]);
}

#[test]
fn an_activated_unit_acts_once_then_the_next_die() {
    let mut state = game(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[
            ("C", "infantry", 10.0, 5.0, NORTH, Formation::Line),
            ("D", "infantry", 20.0, 5.0, NORTH, Formation::Line),
        ],
        &[6, 1, 2],
    );
    assign(&mut state, &[("A", 6), ("C", 2), ("D", 1)]);
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    // C's die is not up yet.
    assert!(refusal(&mut state, Action::Hold { unit: c }).contains("not the highest"));
    apply(&mut state, mv(a, None, 10.0, 26.0, SOUTH), &[]);
    assert!(refusal(&mut state, Action::Hold { unit: a }).contains("already acted"));
    assert_eq!(state.to_act(), Some(1));
    // The legal actions are C's: hold first, then its moves.
    let legal = state.legal_actions();
    assert_eq!(legal[0], Action::Hold { unit: c });
    assert!(legal.iter().all(|action| match action {
        Action::Move { unit, .. }
        | Action::Hold { unit }
        | Action::Fire { unit, .. }
        | Action::Charge { unit, .. } => *unit == c,
        _ => false,
    }));
}

#[test]
fn initiative_loser_assigns_first() {
    let mut setup = setup_with(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
    );
    setup.optional.initiative = true;
    // 3-3 is thrown again; 2-5: side 1 wins, side 0 assigns first.
    let (state, events) = start(setup.clone(), &[3, 3, 2, 5, 4, 4]);
    assert_eq!(
        events[1],
        Event::InitiativeRolled {
            rolls: vec![[3, 3], [2, 5]],
            winner: 1
        }
    );
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    let (state, _) = start(setup, &[6, 1, 4, 4]);
    assert_eq!(state.phase(), Phase::Assigning { side: 1 });
}

#[test]
fn drafting_takes_dice_in_turn_from_one_pile() {
    let mut setup = setup_with(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
    );
    setup.optional.draft = true;
    let (mut state, events) = start(setup, &[2, 6, 4]);
    assert_eq!(
        events[1],
        Event::DiceRolled {
            side: None,
            dice: vec![6, 4, 2]
        }
    );
    let (a, b, c) = (id(&state, "A"), id(&state, "B"), id(&state, "C"));
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    apply(&mut state, Action::AssignDie { die: 6, unit: a }, &[]);
    // Side 1 takes next, from the same pile.
    assert_eq!(state.phase(), Phase::Assigning { side: 1 });
    assert_eq!(state.dice_to_assign(1), &[4, 2]);
    apply(&mut state, Action::AssignDie { die: 2, unit: c }, &[]);
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    apply(&mut state, Action::AssignDie { die: 4, unit: b }, &[]);
    assert_eq!(state.phase(), Phase::Activating);
    assert_eq!(state.up_next(), vec![a]);
}

#[test]
fn good_commanders_add_dice_and_the_worst_are_discarded() {
    let mut setup = setup_with(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
    );
    setup.forces[1].extra_dice = 1;
    // Off: the extra die is not thrown.
    let (state, _) = start(setup.clone(), &[3, 4]);
    assert_eq!(state.pools[1], vec![4]);
    setup.optional.good_commanders = true;
    let (state, events) = start(setup, &[3, 1, 5]);
    assert!(events.contains(&Event::DiceRolled {
        side: Some(1),
        dice: vec![5, 1]
    }));
    assert!(events.contains(&Event::DiceDiscarded {
        side: Some(1),
        dice: vec![1]
    }));
    assert_eq!(state.pools[1], vec![5]);
}

#[test]
fn optional_rules_switch_from_the_scenario_or_the_caller() {
    let text = shipped_henry_hill().1.replace(
        "first: union ",
        "optional_rules: [initiative, good-commanders]\nfirst: union ",
    );
    let scenario = crate::scenario::load(Source::new("h.yaml", &text), Ruleset::builtin).unwrap();
    let table = acw_table();
    let setup = GameSetup::from_scenario(&scenario, &table).unwrap();
    assert!(setup.optional.initiative && setup.optional.good_commanders && !setup.optional.draft);
    // Jackson is brave: a good commander (ruling AC3); McDowell is not.
    assert_eq!(
        setup
            .forces
            .iter()
            .map(|f| f.extra_dice)
            .collect::<Vec<_>>(),
        vec![0, 1]
    );
    let mut rules = OptionalRules::default();
    rules.set("draft", true).unwrap();
    assert!(rules.draft);
    assert!(
        rules
            .set("initiativ", true)
            .unwrap_err()
            .contains("did you mean `initiative`")
    );
    let text = shipped_henry_hill()
        .1
        .replace("first: union ", "optional_rules: [drafting]\nfirst: union ");
    let scenario = crate::scenario::load(Source::new("h.yaml", &text), Ruleset::builtin).unwrap();
    assert!(matches!(
        GameSetup::from_scenario(&scenario, &table),
        Err(SetupError::OptionalRule(_))
    ));
}

// ----- movement ----------------------------------------------------------------

/// A game where the first unit listed for side 0 acts first.
fn solo(features: &[(&str, Shape, f64)], blue: &[Placed<'_>], grey: &[Placed<'_>]) -> GameState {
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

fn far_enemy<'a>() -> Placed<'a> {
    ("Far", "infantry", 33.0, 2.0, NORTH, Formation::Line)
}

#[test]
fn march_columns_move_a_third_faster() {
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        refusal(&mut state, mv(a, None, 10.0, 18.5, NORTH)).contains("needs 8.5\" of its 8.0\"")
    );
    apply(&mut state, mv(a, None, 10.0, 18.0, NORTH), &[]);
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(refusal(&mut state, mv(a, None, 10.0, 16.5, NORTH)).contains("of its 6.0\""));
    // Cavalry 12" in line, 16" in column; limbered guns 8".
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(state.check(&mv(h, None, 10.0, 26.0, NORTH)).is_ok());
    let state = solo(
        &[],
        &[("G", "artillery", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let g = id(&state, "G");
    assert!(state.check(&mv(g, None, 10.0, 18.0, NORTH)).is_ok());
    assert!(state.check(&mv(g, None, 10.0, 18.5, NORTH)).is_err());
}

#[test]
fn dismounted_cavalry_moves_as_infantry() {
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Dismounted)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(refusal(&mut state, mv(h, None, 10.0, 17.0, NORTH)).contains("of its 6.0\""));
    assert!(state.check(&mv(h, None, 10.0, 16.0, NORTH)).is_ok());
    assert_eq!(state.unit(h).mode(), Mode::Foot);
}

#[test]
fn formation_changes_cost_2_or_4_inches() {
    // Infantry line to column: 8" less 2".
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        refusal(
            &mut state,
            mv(a, Some(Formation::Column), 10.0, 16.5, NORTH)
        )
        .contains("less 2\" to change formation")
    );
    let events = apply(
        &mut state,
        mv(a, Some(Formation::Column), 10.0, 16.0, NORTH),
        &[],
    );
    assert!(events.contains(&Event::FormationChanged {
        unit: a,
        from: Formation::Line,
        to: Formation::Column,
        cost: 2.0
    }));
    assert_eq!(state.formation(a), Formation::Column);
    // Cavalry dismounting: 6" less 4". Mounting: 12" less 4".
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(
        state
            .check(&mv(h, Some(Formation::Dismounted), 10.0, 12.0, NORTH))
            .is_ok()
    );
    assert!(
        state
            .check(&mv(h, Some(Formation::Dismounted), 10.0, 12.5, NORTH))
            .is_err()
    );
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Dismounted)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(
        state
            .check(&mv(h, Some(Formation::Line), 10.0, 18.0, NORTH))
            .is_ok()
    );
    assert!(
        state
            .check(&mv(h, Some(Formation::Line), 10.0, 18.5, NORTH))
            .is_err()
    );
    // Artillery limbering: 8" less 4"; unlimbering: 6" less 4".
    let state = solo(
        &[],
        &[("G", "artillery", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let g = id(&state, "G");
    assert!(
        state
            .check(&mv(g, Some(Formation::Column), 10.0, 14.0, NORTH))
            .is_ok()
    );
    assert!(
        state
            .check(&mv(g, Some(Formation::Column), 10.0, 14.5, NORTH))
            .is_err()
    );
    // Infantry cannot dismount.
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        refusal(
            &mut state,
            mv(a, Some(Formation::Dismounted), 10.0, 10.0, NORTH)
        )
        .contains("cannot change")
    );
}

#[test]
fn passing_through_a_friend_costs_a_change_and_needs_its_die() {
    let blue = [
        ("A", "infantry", 10.0, 10.0, NORTH, Formation::Line),
        ("F", "infantry", 10.0, 12.0, NORTH, Formation::Line),
    ];
    // F still has its die: A passes through, 4" and 2" for passing.
    let mut state = solo(&[], &blue, &[far_enemy()]);
    let (a, f) = (id(&state, "A"), id(&state, "F"));
    assert!(refusal(&mut state, mv(a, None, 10.0, 14.5, NORTH)).contains("needs 6.5\""));
    let events = apply(&mut state, mv(a, None, 10.0, 14.0, NORTH), &[]);
    assert!(events.contains(&Event::PassedThrough { unit: a, friend: f }));
    // Once F has used its die, nobody passes through it.
    let mut state = game(&[], &blue, &[far_enemy()], &[1, 6, 1]);
    assign(&mut state, &[("A", 1), ("F", 6), ("Far", 1)]);
    let f = id(&state, "F");
    apply(&mut state, Action::Hold { unit: f }, &[]);
    // Far and A tie at 1: A wins the re-roll.
    let a = id(&state, "A");
    if state.up_next() != vec![a] {
        let far = id(&state, "Far");
        apply(&mut state, Action::Hold { unit: far }, &[]);
    }
    assert!(refusal(&mut state, mv(a, None, 10.0, 14.0, NORTH)).contains("no unused die"));
}

#[test]
fn woods_cost_a_third_and_admit_only_troops_on_foot() {
    let woods = [("woods", rect(0.0, 0.0, 36.0, 30.0), 0.0)];
    let mut state = solo(
        &woods,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    // 6" of woods costs 9".
    assert!(refusal(&mut state, mv(a, None, 10.0, 16.0, NORTH)).contains("needs 9.0\""));
    assert!(state.check(&mv(a, None, 10.0, 14.0, NORTH)).is_ok());
    let state = solo(
        &woods,
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Dismounted)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(state.check(&mv(h, None, 10.0, 14.0, NORTH)).is_ok());
    // Mounted horse and guns may not stand in woods at all.
    let mut setup = setup_with(
        &woods,
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    assert!(matches!(
        GameState::new(setup.clone(), acw_table(), &mut dice(&[1, 1])),
        Err(SetupError::BadUnit { .. })
    ));
    setup.battlefield = Arc::new(field(&[("woods", rect(0.0, 15.0, 36.0, 30.0), 0.0)]));
    let (mut state, _) = start(setup, &[6, 1]);
    assign(&mut state, &[("H", 6), ("Far", 1)]);
    let h = id(&state, "H");
    assert!(
        refusal(&mut state, mv(h, None, 10.0, 20.0, NORTH))
            .contains("mounted cavalry cannot cross the woods")
    );
}

#[test]
fn towns_cost_a_formation_change_to_enter_and_to_leave() {
    let town = [("town", rect(0.0, 12.0, 36.0, 14.0), 0.0)];
    let mut state = solo(
        &town,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    // 5" across a town: 2" to enter, 2" to leave.
    assert!(refusal(&mut state, mv(a, None, 10.0, 15.0, NORTH)).contains("needs 9.0\""));
    assert!(state.check(&mv(a, None, 10.0, 11.5, NORTH)).is_ok());
    // 11" to 12.5: entering costs 2" (1.5 + 2 = 3.5 of 6).
    let events = apply(&mut state, mv(a, None, 10.0, 12.5, NORTH), &[]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Moved { used, .. } if (*used - 4.5).abs() < 1e-6))
    );
}

#[test]
fn fords_and_bridges_are_crossed_in_column_only() {
    let river = [
        ("river", rect(0.0, 13.0, 36.0, 15.0), 0.0),
        ("ford", rect(8.0, 13.0, 12.0, 15.0), 0.0),
    ];
    let mut state = solo(
        &river,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(refusal(&mut state, mv(a, None, 10.0, 16.0, NORTH)).contains("march column only"));
    let state = solo(
        &river,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(state.check(&mv(a, None, 10.0, 17.0, NORTH)).is_ok());
    // Not across the river beside the ford.
    assert!(
        state
            .check(&mv(a, None, 20.0, 17.0, NORTH))
            .unwrap_err()
            .to_string()
            .contains("river")
    );
    let bridge = [
        ("river", rect(0.0, 13.0, 36.0, 15.0), 0.0),
        ("bridge", rect(8.0, 13.0, 12.0, 15.0), 0.0),
    ];
    let state = solo(
        &bridge,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        state
            .check(&mv(a, None, 10.0, 16.0, NORTH))
            .unwrap_err()
            .to_string()
            .contains("march column only")
    );
}

#[test]
fn marsh_and_rivers_stay_impassable() {
    let marsh = [("marsh", rect(0.0, 13.0, 36.0, 15.0), 0.0)];
    let state = solo(
        &marsh,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        state
            .check(&mv(a, None, 10.0, 17.0, NORTH))
            .unwrap_err()
            .to_string()
            .contains("marsh")
    );
}

#[test]
fn the_rule_set_has_no_walls() {
    let rules = ruleset();
    assert!(rules.terrain_kind("wall").is_none());
    assert!(rules.terrain_kind("fence").is_none());
}

#[test]
fn only_a_charge_touches_the_enemy() {
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 20.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 14.0, NORTH, Formation::Line)],
    );
    let a = id(&state, "A");
    assert!(refusal(&mut state, mv(a, None, 10.0, 15.5, SOUTH)).contains("only a charge"));
    assert!(refusal(&mut state, mv(a, None, 10.0, 12.0, SOUTH)).contains("in the way"));
}

// ----- charging ----------------------------------------------------------------

#[test]
fn artillery_never_charges() {
    let mut state = solo(
        &[],
        &[("G", "artillery", 10.0, 16.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 13.0, NORTH, Formation::Column)],
    );
    let (g, c) = (id(&state, "G"), id(&state, "C"));
    assert!(
        refusal(&mut state, Action::Charge { unit: g, target: c })
            .contains("cannot charge, full stop")
    );
}

#[test]
fn no_charge_from_march_column() {
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 16.0, SOUTH, Formation::Column)],
        &[("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
    );
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    assert!(refusal(&mut state, Action::Charge { unit: h, target: c }).contains("march column"));
}

#[test]
fn mounted_cavalry_charge_anything_foot_need_an_advantage() {
    let grey = [("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)];
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 18.0, SOUTH, Formation::Line)],
        &grey,
    );
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    assert!(state.check(&Action::Charge { unit: h, target: c }).is_ok());
    // Dismounted, the horse are foot.
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 14.0, SOUTH, Formation::Dismounted)],
        &grey,
    );
    assert!(
        refusal(&mut state, Action::Charge { unit: h, target: c }).contains("need an advantage")
    );
    // Foot frontally: refused at equal strength; allowed at 5 points more.
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 14.0, SOUTH, Formation::Line)],
        &grey,
    );
    let a = id(&state, "A");
    assert!(
        refusal(&mut state, Action::Charge { unit: a, target: c }).contains("5+ strength points")
    );
    state.units[c.0].hits = 4;
    assert!(state.check(&Action::Charge { unit: a, target: c }).is_err());
    state.units[c.0].hits = 5;
    assert!(state.check(&Action::Charge { unit: a, target: c }).is_ok());
    // Foot on the flank need no advantage.
    let state = solo(
        &[],
        &[("A", "infantry", 16.0, 10.0, 270.0, Formation::Line)],
        &grey,
    );
    let a = id(&state, "A");
    assert!(state.check(&Action::Charge { unit: a, target: c }).is_ok());
}

#[test]
fn a_charge_reaches_only_a_line_move_and_not_through_friends() {
    let grey = [("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)];
    // Cavalry 12": front edge at 10.75; from 24 with depth 2 the charger's
    // centre must reach 11.75, 12.25" away.
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 24.0, SOUTH, Formation::Line)],
        &grey,
    );
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    assert!(
        refusal(&mut state, Action::Charge { unit: h, target: c })
            .contains("has to end in contact")
    );
    let state = solo(
        &[],
        &[
            ("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line),
            ("F", "infantry", 10.0, 15.0, SOUTH, Formation::Line),
        ],
        &grey,
    );
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    let refused = state
        .check(&Action::Charge { unit: h, target: c })
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("no interpenetration when charging"),
        "{refused}"
    );
}

#[test]
fn the_target_may_fire_first_with_the_difference_of_the_dice() {
    let mut state = game(
        &[],
        &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
        &[
            ("C", "infantry", 10.0, 10.0, NORTH, Formation::Line),
            ("D", "infantry", 30.0, 10.0, NORTH, Formation::Line),
        ],
        &[6, 2, 1],
    );
    assign(&mut state, &[("H", 6), ("C", 2), ("D", 1)]);
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    let events = apply(&mut state, Action::Charge { unit: h, target: c }, &[]);
    assert!(matches!(events.last(), Some(Event::ChargeDeclared { .. })));
    assert_eq!(
        state.phase(),
        Phase::ChargeResponse {
            charger: h,
            target: c
        }
    );
    assert_eq!(state.to_act(), Some(1));
    assert_eq!(
        state.legal_actions(),
        vec![
            Action::Respond {
                unit: c,
                fire: true
            },
            Action::Respond {
                unit: c,
                fire: false
            }
        ]
    );
    // The horse are 8.25" away: long range, -1; dice 2 - 6 = -4. Fire 6
    // scores 1. Then the melee: 4 + 2 charging = 6 hits, C is not removed
    // and the horse retreat 6".
    let events = apply(
        &mut state,
        Action::Respond {
            unit: c,
            fire: true,
        },
        &[6, 4],
    );
    let fired = events.iter().find_map(|e| match e {
        Event::Fired {
            modifiers, hits, ..
        } => Some((modifiers.clone(), *hits)),
        _ => None,
    });
    let (modifiers, hits) = fired.unwrap();
    assert_eq!(modifiers.last().unwrap().add, -4);
    assert_eq!(hits, 1);
    assert_eq!(hits_of(&events), vec![1, 6]);
    assert!(state.unit(c).activated, "the target's die is used up");
    assert_eq!(state.up_next(), vec![id(&state, "D")]);
    assert_eq!(state.unit(h).hits, 1);
    // Without firing: straight to the melee.
    let mut state = game(
        &[],
        &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[6, 2],
    );
    assign(&mut state, &[("H", 6), ("C", 2)]);
    apply(&mut state, Action::Charge { unit: h, target: c }, &[]);
    let events = apply(
        &mut state,
        Action::Respond {
            unit: c,
            fire: false,
        },
        &[4],
    );
    assert_eq!(hits_of(&events), vec![6]);
    assert!(!state.unit(c).activated);
}

#[test]
fn columns_and_guns_are_destroyed_on_contact() {
    for (troop, formation, reason) in [
        ("infantry", Formation::Column, Removal::CaughtInColumn),
        ("artillery", Formation::Line, Removal::GunsOverrun),
    ] {
        let mut state = solo(
            &[],
            &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
            &[("C", troop, 10.0, 10.0, NORTH, formation)],
        );
        let (h, c) = (id(&state, "H"), id(&state, "C"));
        // C's die (1) is unused, but a column cannot fire; guns could, so
        // they decline here.
        let mut events = apply(&mut state, Action::Charge { unit: h, target: c }, &[]);
        if state.phase()
            == (Phase::ChargeResponse {
                charger: h,
                target: c,
            })
        {
            events = apply(
                &mut state,
                Action::Respond {
                    unit: c,
                    fire: false,
                },
                &[],
            );
        }
        assert!(
            events.contains(&Event::Removed { unit: c, reason }),
            "{troop}"
        );
        assert!(state.removed(c));
    }
}

#[test]
fn only_the_charger_inflicts_hits_with_its_modifiers() {
    // Zouaves on a flank: no advantage needed; 3 + 2 + 1 = 6, doubled 12.
    let mut state = solo(
        &[],
        &[("Z", "zouaves", 16.0, 10.0, 270.0, Formation::Line)],
        &[("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
    );
    let (z, c) = (id(&state, "Z"), id(&state, "C"));
    let events = apply(&mut state, Action::Charge { unit: z, target: c }, &[3]);
    let melee = events.iter().find_map(|e| match e {
        Event::Melee {
            modifiers,
            doubled,
            hits,
            ..
        } => Some((modifiers.clone(), *doubled, *hits)),
        _ => None,
    });
    let (modifiers, doubled, hits) = melee.unwrap();
    assert_eq!(
        modifiers
            .iter()
            .map(|m| (m.label.as_str(), m.add))
            .collect::<Vec<_>>(),
        vec![("charging", 2), ("zouaves", 1)]
    );
    assert!(doubled);
    assert_eq!(hits, 12);
    assert_eq!(state.unit(c).hits, 12);
    assert_eq!(state.unit(z).hits, 0, "only the charger inflicts hits");
}

#[test]
fn dismounted_chargers_and_strength_advantage_bands() {
    // Dismounted on the flank: 4 + 2 - 1 = 5, doubled 10; with the
    // defender 11 points down (hits 11): +2.
    let grey = [("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)];
    let mut state = solo(
        &[],
        &[("H", "cavalry", 16.0, 10.0, 270.0, Formation::Dismounted)],
        &grey,
    );
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    let events = apply(&mut state, Action::Charge { unit: h, target: c }, &[4]);
    assert_eq!(hits_of(&events), vec![10]);
    for (defender_hits, expected) in [(11, 14), (6, 12), (5, 10)] {
        let mut state = solo(
            &[],
            &[("H", "cavalry", 16.0, 10.0, 270.0, Formation::Dismounted)],
            &grey,
        );
        state.units[c.0].hits = defender_hits;
        let events = apply(&mut state, Action::Charge { unit: h, target: c }, &[4]);
        assert_eq!(
            hits_of(&events),
            vec![expected],
            "defender down {defender_hits}"
        );
    }
}

#[test]
fn melee_halves_then_doubles_and_rounds_down() {
    // Defender in woods, charged in flank by infantry: (5 + 2) / 2 = 3, x2 = 6.
    let woods = [("woods", rect(5.0, 5.0, 15.0, 15.0), 0.0)];
    let grey = [("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)];
    let mut state = solo(
        &woods,
        &[("A", "infantry", 14.0, 10.0, 270.0, Formation::Line)],
        &grey,
    );
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    let events = apply(&mut state, Action::Charge { unit: a, target: c }, &[5]);
    let halved = events.iter().find_map(|e| match e {
        Event::Melee { halved, .. } => Some(halved.clone()),
        _ => None,
    });
    assert_eq!(halved.unwrap(), vec!["defender in woods".to_string()]);
    assert_eq!(hits_of(&events), vec![6]);
    // Defender uphill, frontal charge by horse: (6 + 2) / 2 = 4.
    let hill = [(
        "hill",
        Shape::Circle {
            centre: p(10.0, 8.0),
            radius: 4.0,
        },
        1.0,
    )];
    let mut state = solo(
        &hill,
        &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
        &grey,
    );
    let h = id(&state, "H");
    let events = apply(&mut state, Action::Charge { unit: h, target: c }, &[]);
    let events = if state.phase()
        == (Phase::ChargeResponse {
            charger: h,
            target: c,
        }) {
        apply(
            &mut state,
            Action::Respond {
                unit: c,
                fire: false,
            },
            &[6],
        )
    } else {
        events
    };
    assert_eq!(hits_of(&events), vec![4]);
    // Mounted defender: horse on horse, (1 + 2) / 2 = 1 (rounded down).
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
        &[("K", "cavalry", 10.0, 10.0, NORTH, Formation::Line)],
    );
    let k = id(&state, "K");
    let events = apply(&mut state, Action::Charge { unit: h, target: k }, &[1]);
    assert_eq!(hits_of(&events), vec![1]);
}

#[test]
fn a_repulsed_charger_retreats_6_mounted_3_others() {
    let grey = [("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)];
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
        &grey,
    );
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    apply(&mut state, Action::Charge { unit: h, target: c }, &[]);
    let events = apply(
        &mut state,
        Action::Respond {
            unit: c,
            fire: false,
        },
        &[1],
    );
    let retreat = events.iter().find_map(|e| match e {
        Event::Retreated { from, to, .. } => Some(from.distance(*to)),
        _ => None,
    });
    assert!((retreat.unwrap() - 6.0).abs() < 1e-9);
    assert_eq!(state.facing(h), SOUTH, "still facing the defender");
    let mut state = solo(
        &[],
        &[("A", "infantry", 16.0, 10.0, 270.0, Formation::Line)],
        &grey,
    );
    let a = id(&state, "A");
    let events = apply(&mut state, Action::Charge { unit: a, target: c }, &[1]);
    let retreat = events.iter().find_map(|e| match e {
        Event::Retreated { from, to, .. } => Some(from.distance(*to)),
        _ => None,
    });
    assert!((retreat.unwrap() - 3.0).abs() < 1e-9);
}

#[test]
fn a_retreat_through_a_unit_costs_each_a_hit() {
    // The zouaves charge the flank from 14.5; a friend stands 2" behind
    // the contact point; the retreat of 3" crosses it and goes on beyond.
    let mut state = solo(
        &[],
        &[
            ("Z", "zouaves", 12.8, 10.0, 270.0, Formation::Line),
            ("F", "infantry", 16.5, 10.0, 270.0, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
    );
    let (z, f) = (id(&state, "Z"), id(&state, "F"));
    let c = id(&state, "C");
    let events = charge(&mut state, z, c, &[1]);
    assert!(
        events.contains(&Event::Damaged { unit: f, hits: 1 }),
        "{events:?}"
    );
    assert!(events.contains(&Event::Damaged { unit: z, hits: 1 }));
    assert!(!state.unit(z).base.overlaps(&state.unit(f).base));
}

// ----- firing -------------------------------------------------------------------

#[test]
fn fire_is_by_range_band_and_cover_halves() {
    for (y, label, add) in [
        (13.0, "short range", 1),
        (17.0, "medium range", 0),
        (21.0, "long range", -1),
    ] {
        let mut state = solo(
            &[],
            &[("A", "infantry", 10.0, y, SOUTH, Formation::Line)],
            &[("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)],
        );
        let (a, c) = (id(&state, "A"), id(&state, "C"));
        let events = apply(&mut state, Action::Fire { unit: a, target: c }, &[4]);
        match &events[1] {
            Event::Fired {
                modifiers, hits, ..
            } => {
                assert_eq!(
                    (modifiers[0].label.as_str(), modifiers[0].add),
                    (label, add)
                );
                assert_eq!(*hits, (4 + add) as u32);
            }
            other => panic!("{other:?}"),
        }
    }
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 23.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)],
    );
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    assert!(refusal(&mut state, Action::Fire { unit: a, target: c }).contains("beyond its 12\""));
    // Artillery canister at 10": +2. Target in a town: halved, 7 / 2 = 3.
    let town = [("town", rect(6.0, 6.0, 14.0, 10.0), 0.0)];
    // C stands at the edge of the town, where it can be seen (see_into 1").
    let mut state = solo(
        &town,
        &[("G", "artillery", 10.0, 20.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 9.5, NORTH, Formation::Line)],
    );
    let g = id(&state, "G");
    let events = apply(&mut state, Action::Fire { unit: g, target: c }, &[5]);
    assert!(
        matches!(
            &events[1],
            Event::Fired {
                halved_for_cover: true,
                hits: 3,
                ..
            }
        ),
        "{events:?}"
    );
    // Out of the frontal arc.
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 13.0, NORTH, Formation::Line)],
        &[("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)],
    );
    assert!(refusal(&mut state, Action::Fire { unit: a, target: c }).contains("frontal arc"));
}

#[test]
fn march_columns_and_mounted_cavalry_cannot_fire() {
    let grey = [("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)];
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 13.0, SOUTH, Formation::Column)],
        &grey,
    );
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    assert!(
        refusal(&mut state, Action::Fire { unit: a, target: c })
            .contains("march columns cannot fire")
    );
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 13.0, SOUTH, Formation::Line)],
        &grey,
    );
    assert!(refusal(&mut state, Action::Fire { unit: a, target: c }).contains("do not fire"));
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 13.0, SOUTH, Formation::Dismounted)],
        &grey,
    );
    assert!(state.check(&Action::Fire { unit: a, target: c }).is_ok());
}

#[test]
fn firing_within_cover_reaches_3_inches_but_the_edge_fires_out() {
    // Deep in a wood that runs to the target: 3".
    let woods = [("woods", rect(0.0, 0.0, 36.0, 30.0), 0.0)];
    let grey = [("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)];
    let mut state = solo(
        &woods,
        &[("A", "infantry", 10.0, 13.0, SOUTH, Formation::Line)],
        &grey,
    );
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    assert!(
        refusal(&mut state, Action::Fire { unit: a, target: c }).contains("firing within cover")
    );
    let state = solo(
        &woods,
        &[("A", "infantry", 10.0, 11.5, SOUTH, Formation::Line)],
        &grey,
    );
    assert!(state.check(&Action::Fire { unit: a, target: c }).is_ok());
    // At the edge of a wood, firing out into the open: full range.
    let edge = [("woods", rect(0.0, 15.5, 36.0, 30.0), 0.0)];
    let state = solo(
        &edge,
        &[("A", "infantry", 10.0, 16.0, SOUTH, Formation::Line)],
        &grey,
    );
    assert!(state.check(&Action::Fire { unit: a, target: c }).is_ok());
    // Well inside it: only 3".
    let state = solo(
        &edge,
        &[("A", "infantry", 10.0, 18.5, SOUTH, Formation::Line)],
        &grey,
    );
    assert!(state.check(&Action::Fire { unit: a, target: c }).is_err());
}

#[test]
fn worn_units_fire_weaker() {
    for (hits, expected) in [(4, 4), (5, 3), (10, 2)] {
        let mut state = solo(
            &[],
            &[("A", "infantry", 10.0, 17.0, SOUTH, Formation::Line)],
            &[("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)],
        );
        let (a, c) = (id(&state, "A"), id(&state, "C"));
        state.units[a.0].hits = hits;
        let events = apply(&mut state, Action::Fire { unit: a, target: c }, &[4]);
        assert_eq!(hits_of(&events), vec![expected], "{hits} hits");
    }
}

#[test]
fn units_are_removed_at_15_hits() {
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 13.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)],
    );
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    state.units[c.0].hits = 9;
    assert!((state.strength(c) - 0.4).abs() < 1e-9);
    let events = apply(&mut state, Action::Fire { unit: a, target: c }, &[5]);
    assert!(events.contains(&Event::Removed {
        unit: c,
        reason: Removal::Casualties
    }));
    assert!(state.removed(c));
    assert_eq!(state.strength(c), 0.0);
}

#[test]
fn breaking_half_the_enemy_wins_and_the_last_turn_ends_the_game() {
    let mut setup = setup_with(
        &[],
        &[("A", "infantry", 10.0, 13.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 8.0, NORTH, Formation::Line)],
    );
    // The second condition is the one that fires: the outcome names it.
    setup.victory = vec![
        crate::scenario::Victory {
            winner: 1,
            when: crate::scenario::Condition::RoutFraction {
                side: 0,
                more_than: 0.5,
            },
        },
        crate::scenario::Victory {
            winner: 0,
            when: crate::scenario::Condition::RoutFraction {
                side: 1,
                more_than: 0.5,
            },
        },
    ];
    let (mut state, _) = start(setup.clone(), &[6, 1]);
    assign(&mut state, &[("A", 6), ("C", 1)]);
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    state.units[c.0].hits = 14;
    let events = apply(&mut state, Action::Fire { unit: a, target: c }, &[5]);
    assert!(matches!(
        events.last(),
        Some(Event::GameOver {
            winner: Some(0),
            ..
        })
    ));
    assert!(
        matches!(
            state.outcome(),
            Outcome::Won {
                side: 0,
                condition: 1,
                ..
            }
        ),
        "{:?}",
        state.outcome()
    );
    assert_eq!(state.to_act(), None);
    assert!(state.legal_actions().is_empty());
    assert_eq!(
        refusal(&mut state, Action::Hold { unit: a }),
        "the game is over"
    );
    // Three turns of holding: a draw.
    let (mut state, _) = start(setup, &[6, 1]);
    let mut roller = Seeded::new(3);
    while state.outcome() == &Outcome::Playing {
        let action = state
            .legal_actions()
            .into_iter()
            .find(|a| matches!(a, Action::AssignDie { .. } | Action::Hold { .. }))
            .unwrap();
        state.apply(&action, &mut roller).unwrap();
    }
    assert_eq!(state.outcome(), &Outcome::Draw);
    assert_eq!(state.turn(), 3);
    // An empty table with endless turns ends at once.
    let mut empty = setup_with(&[], &[], &[]);
    empty.turns = u32::MAX;
    let (state, events) = start(empty, &[]);
    assert_eq!(state.outcome(), &Outcome::Draw);
    assert!(matches!(
        events.last(),
        Some(Event::GameOver { winner: None, .. })
    ));
}

#[test]
fn table_problems_are_located() {
    let (_, file, text) = crate::ruleset::BUILTIN
        .iter()
        .find(|(name, _, _)| *name == "ohw-acw")
        .unwrap();
    let bad = text
        .replacen(
            "column: 8          # seed 002: \"a march",
            "colum: 8          # seed 002: \"a march",
            1,
        )
        .replacen("removed_at: 15", "removed_at: 0", 1)
        .replacen("never: [artillery]", "never: [artilery]", 1);
    let rules = Ruleset::parse(Source::new(file, &bad)).unwrap();
    let problems = AcwTable::parse(Source::new("acw.yaml", &bad), &rules).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 3, "{text}");
    assert!(
        text.contains("unknown formation `colum`; did you mean `column`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown troop type `artilery`; did you mean `artillery`?"),
        "{text}"
    );
    assert!(text.contains("acw.yaml:"), "{text}");
}

// ----- the scenario and random play ------------------------------------------------

pub(crate) fn henry_hill() -> GameSetup {
    let (file, text) = shipped_henry_hill();
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
    GameSetup::from_scenario(&scenario, &acw_table()).unwrap()
}

/// Play random legal actions to the end; every listed action must be
/// accepted, and a refused one must change nothing.
fn random_game(setup: GameSetup, seed: u64) -> GameState {
    use rand::{RngExt, SeedableRng};
    let mut pick = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut roller = Seeded::new(seed);
    let (mut state, _) = GameState::new(setup, acw_table(), &mut roller).unwrap();
    for _ in 0..20_000 {
        if state.outcome() != &Outcome::Playing {
            break;
        }
        let legal = state.legal_actions();
        assert!(!legal.is_empty(), "someone can always act");
        // Now and then, an action that may well be illegal.
        if pick.random_range(0..8) == 0 {
            let unit = UnitId(pick.random_range(0..state.units.len() + 1));
            let wild = match pick.random_range(0..4) {
                0 => Action::Fire {
                    unit,
                    target: UnitId(pick.random_range(0..state.units.len())),
                },
                1 => Action::Charge {
                    unit,
                    target: UnitId(pick.random_range(0..state.units.len())),
                },
                2 => mv(
                    unit,
                    None,
                    pick.random_range(-5.0..40.0),
                    pick.random_range(-5.0..40.0),
                    90.0,
                ),
                _ => Action::AssignDie {
                    die: pick.random_range(0..8),
                    unit,
                },
            };
            // A wild action that happens to be legal is played on the
            // game's dice; a refused one must roll none and change nothing.
            if state.check(&wild).is_ok() {
                state.apply(&wild, &mut roller).unwrap();
            } else {
                let before = fingerprint(&state);
                assert!(state.apply(&wild, &mut Scripted::new([])).is_err());
                assert_eq!(before, fingerprint(&state));
            }
            continue;
        }
        let action = legal[pick.random_range(0..legal.len())].clone();
        state
            .apply(&action, &mut roller)
            .unwrap_or_else(|r| panic!("listed action {action} refused: {r}"));
    }
    assert_ne!(state.outcome(), &Outcome::Playing, "the game ends");
    state
}

#[test]
fn henry_hill_loads_and_random_play_finishes() {
    let setup = henry_hill();
    assert_eq!(setup.forces[0].units.len(), 8);
    assert_eq!(setup.forces[1].units.len(), 8);
    let state = random_game(setup, 1);
    assert!(state.turn() <= 15);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 6, ..Default::default() })]
    #[test]
    fn random_legal_play_never_panics(seed in 0u64..1_000_000, draft: bool, initiative: bool, good: bool) {
        let mut setup = henry_hill();
        setup.turns = 4;
        setup.optional = OptionalRules { initiative, draft, good_commanders: good };
        setup.forces[1].extra_dice = 1;
        random_game(setup, seed);
    }
}

#[test]
fn actions_and_events_are_data_and_words() {
    let actions = [
        Action::AssignDie {
            die: 6,
            unit: UnitId(2),
        },
        mv(UnitId(1), Some(Formation::Column), 3.5, 4.0, 90.0),
        Action::Fire {
            unit: UnitId(1),
            target: UnitId(4),
        },
        Action::Charge {
            unit: UnitId(1),
            target: UnitId(4),
        },
        Action::Hold { unit: UnitId(1) },
        Action::Respond {
            unit: UnitId(4),
            fire: true,
        },
    ];
    for action in &actions {
        let json = serde_json::to_string(action).unwrap();
        assert_eq!(
            &serde_json::from_str::<Action>(&json).unwrap(),
            action,
            "{json}"
        );
    }
    assert_eq!(actions[0].to_string(), "assign 6 to unit 2");
    assert_eq!(
        actions[1].to_string(),
        "unit 1 forms column and moves to 3.5,4 facing 90°"
    );
    let fired = Event::Fired {
        unit: UnitId(1),
        target: UnitId(4),
        roll: 5,
        modifiers: vec![Modifier {
            label: "short range".into(),
            add: 1,
        }],
        halved_for_cover: true,
        hits: 3,
    };
    assert_eq!(
        fired.to_string(),
        "unit 1 fires at unit 4: 5 (short range +1), halved for cover: 3 hits"
    );
    let event = Event::InitiativeRolled {
        rolls: vec![[3, 3], [1, 2]],
        winner: 1,
    };
    assert_eq!(
        event.to_string(),
        "initiative (optional rule #1): 3-3, then 1-2; side 1 wins"
    );
    let json = serde_json::to_string(&event).unwrap();
    assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), event);
    let refusal = Refusal::Broken {
        rule: Rule::Charging,
        detail: "a unit cannot charge in march column".into(),
    };
    assert_eq!(
        refusal.to_string(),
        "seed 002 charging: a unit cannot charge in march column"
    );
    let json = serde_json::to_string(&refusal).unwrap();
    assert_eq!(serde_json::from_str::<Refusal>(&json).unwrap(), refusal);
}

#[test]
fn a_charger_shot_down_never_arrives() {
    let mut state = game(
        &[],
        &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
        &[
            ("C", "infantry", 10.0, 10.0, NORTH, Formation::Line),
            ("D", "infantry", 30.0, 10.0, NORTH, Formation::Line),
        ],
        &[6, 5, 1],
    );
    assign(&mut state, &[("H", 6), ("C", 5), ("D", 1)]);
    let (h, c) = (id(&state, "H"), id(&state, "C"));
    state.units[h.0].hits = 14;
    apply(&mut state, Action::Charge { unit: h, target: c }, &[]);
    // 6, long range -1, dice 5 - 6 = -1: 4 hits, and the horse are gone.
    let events = apply(
        &mut state,
        Action::Respond {
            unit: c,
            fire: true,
        },
        &[6],
    );
    assert!(events.contains(&Event::Removed {
        unit: h,
        reason: Removal::Casualties
    }));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Contact { .. } | Event::Melee { .. }))
    );
    assert_eq!(state.unit(c).hits, 0);
}

#[test]
fn charges_pay_for_the_ground_like_moves() {
    // Foot on the flank, 4" away across woods: 4" of woods costs 6", the
    // whole line move; 4.5" is too far.
    let woods = [("woods", rect(12.0, 0.0, 36.0, 20.0), 0.0)];
    let grey = [("C", "infantry", 10.0, 10.0, NORTH, Formation::Line)];
    let state = solo(
        &woods,
        &[("A", "infantry", 16.75, 10.0, 270.0, Formation::Line)],
        &grey,
    );
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    assert!(state.check(&Action::Charge { unit: a, target: c }).is_ok());
    let mut state = solo(
        &woods,
        &[("A", "infantry", 17.25, 10.0, 270.0, Formation::Line)],
        &grey,
    );
    assert!(
        refusal(&mut state, Action::Charge { unit: a, target: c })
            .contains("has to end in contact")
    );
    // Mounted horse cannot charge through the wood at all.
    let woods = [("woods", rect(0.0, 13.0, 36.0, 16.0), 0.0)];
    let mut state = solo(
        &woods,
        &[("H", "cavalry", 10.0, 20.0, SOUTH, Formation::Line)],
        &grey,
    );
    let h = id(&state, "H");
    assert!(
        refusal(&mut state, Action::Charge { unit: h, target: c })
            .contains("cannot cross the woods")
    );
}
