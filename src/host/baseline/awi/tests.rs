//! The baseline on small open tables with forced dice: it charges the
//! weakened, fires at the most-hit target in reach, holds when defending,
//! and every action it sends is one the engine accepts; and whole games of
//! every shipped scenario with the baseline on either side.

use super::*;
use crate::battlefield::Base;
use crate::dice::{Die, Scripted, Seeded};
use crate::host::awi::{Controller, Played, controllers};
use crate::rules::fixture::{Placed, SmallGame};
use crate::ruleset::Ruleset;

/// British (side 0, south edge, first) and Americans (side 1, north edge)
/// on an open 48" table, each with a general in a far corner.
fn game(british: &[Placed<'_>], americans: &[Placed<'_>]) -> GameState {
    SmallGame::new(british, americans).build()
}

fn baseline(state: &GameState, side: usize, defending: bool) -> AwiBaseline {
    AwiBaseline::from_mover(
        Opponent::new(Arc::new(Tables::embedded()), state, side),
        defending,
    )
}

fn unit(state: &GameState, name: &str) -> UnitId {
    state.find_unit(name).unwrap()
}

fn set_hits(state: &mut GameState, name: &str, hits: u32) {
    let id = unit(state, name);
    state.units[id.0].hits = hits;
}

fn decision<'a>(report: &'a BaselineReport, name: &str, choice: Choice) -> &'a BaselineDecision {
    report
        .decisions
        .iter()
        .find(|d| d.name == name && d.choice == choice)
        .unwrap_or_else(|| panic!("no {choice:?} for {name}: {:#?}", report.decisions))
}

fn charged(report: &BaselineReport) -> Vec<(UnitId, UnitId)> {
    report
        .events
        .iter()
        .filter_map(|event| match event {
            Event::Charged { unit, target, .. } => Some((*unit, *target)),
            _ => None,
        })
        .collect()
}

fn fired(report: &BaselineReport) -> Vec<(UnitId, UnitId)> {
    report
        .events
        .iter()
        .filter_map(|event| match event {
            Event::Fired { unit, target, .. } => Some((*unit, *target)),
            _ => None,
        })
        .collect()
}

fn moved(report: &BaselineReport, id: UnitId) -> bool {
    report
        .events
        .iter()
        .any(|event| matches!(event, Event::Moved { unit, .. } if *unit == id))
}

/// Regulars 3" from militia, square on.
fn face_to_face(militia_hits: u32, regulars_hits: u32) -> GameState {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, 0.0)],
        &[("Militia", "militia", 24.0, 14.5, 180.0)],
    );
    set_hits(&mut state, "Militia", militia_hits);
    set_hits(&mut state, "Regulars", regulars_hits);
    state
}

#[test]
fn it_charges_an_enemy_at_half_its_rout_threshold_and_melee_follows() {
    // Militia rout at 13 hits: 7 is at least half.
    let mut state = face_to_face(7, 0);
    let mut side = baseline(&state, 0, false);
    // Forced dice: the charger's melee die, then the defender's.
    let mut dice = Scripted::then([5, 2], Box::new(Seeded::new(1)));
    let report = side.play_turn(&mut state, &mut dice);
    let (regulars, militia) = (unit(&state, "Regulars"), unit(&state, "Militia"));
    assert_eq!(charged(&report), vec![(regulars, militia)]);
    let why = &decision(&report, "Regulars", Choice::Charge).why;
    assert!(why.contains("7 hits of 13"), "{why}");
    assert!(
        report
            .events
            .iter()
            .any(|event| matches!(event, Event::Melee { charger, .. } if charger.roll == 5)),
        "{:#?}",
        report.events
    );
    // A charge is the unit's move: it does not fire as well.
    assert!(fired(&report).is_empty());
}

#[test]
fn it_charges_an_enemy_with_more_hits_than_itself_and_not_an_unhurt_one() {
    let mut state = face_to_face(2, 1);
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(3));
    assert_eq!(charged(&report).len(), 1);

    // Equal hits and under half the threshold: not weakened, so it stands
    // and fires instead.
    let mut state = face_to_face(2, 2);
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(3));
    assert!(charged(&report).is_empty());
    decision(&report, "Regulars", Choice::Stand);
    assert_eq!(fired(&report).len(), 1);
}

#[test]
fn it_fires_at_the_most_hit_target_in_reach_not_the_nearest() {
    let setup = |near_hits: u32, far_hits: u32| {
        let mut state = game(
            &[("Regulars", "british-regulars", 24.0, 10.0, 0.0)],
            &[
                ("Near", "militia", 20.0, 14.0, 180.0),
                ("Far", "militia", 29.0, 15.0, 180.0),
            ],
        );
        set_hits(&mut state, "Near", near_hits);
        set_hits(&mut state, "Far", far_hits);
        // The regulars have more hits than either: neither is weakened.
        set_hits(&mut state, "Regulars", 5);
        state
    };
    let mut state = setup(1, 4);
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(5));
    let regulars = unit(&state, "Regulars");
    assert_eq!(fired(&report), vec![(regulars, unit(&state, "Far"))]);
    assert!(charged(&report).is_empty());
    let why = &decision(&report, "Regulars", Choice::Fire).why;
    assert!(why.contains("Far (4 hits"), "{why}");

    // Equal hits: the nearer.
    let mut state = setup(2, 2);
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(5));
    assert_eq!(fired(&report), vec![(regulars, unit(&state, "Near"))]);
}

/// The baseline plays as a player would: its close-order foot fires the
/// double volley the rules allow either side within 6"; skirmishers, who
/// may not, fire a single one.
#[test]
fn it_fires_a_double_volley_where_the_rules_allow_one() {
    let mut state = game(
        &[
            ("Regulars", "british-regulars", 14.0, 10.0, 0.0),
            ("Light", "british-light-infantry", 34.0, 10.0, 0.0),
        ],
        &[
            ("A", "militia", 14.0, 15.0, 180.0),
            ("B", "militia", 34.0, 15.0, 180.0),
        ],
    );
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(5));
    let volleys: Vec<(String, bool)> = report
        .events
        .iter()
        .filter_map(|event| match event {
            Event::Fired {
                unit, modifiers, ..
            } => Some((
                state.unit(*unit).name.clone(),
                modifiers.iter().any(|m| m.label == "double volley"),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        volleys,
        vec![("Regulars".to_string(), true), ("Light".to_string(), false)]
    );
    let why = &decision(&report, "Regulars", Choice::Fire).why;
    assert!(why.contains("fires a double volley at"), "{why}");
}

#[test]
fn out_of_range_it_advances_to_the_edge_of_musket_range() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, 0.0)],
        &[("Militia", "militia", 24.0, 20.5, 180.0)],
    );
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(5));
    let (regulars, militia) = (unit(&state, "Regulars"), unit(&state, "Militia"));
    assert!(moved(&report, regulars));
    decision(&report, "Regulars", Choice::Advance);
    let gap = state
        .unit(regulars)
        .base
        .distance_to(&state.unit(militia).base);
    // From 9" apart to just inside 6", not to contact.
    assert!(gap <= 6.0 && gap > 5.0, "{gap}");
}

#[test]
fn a_defending_side_holds_and_charges_only_within_6_inches() {
    // Dragoons (12" charge) and weakened militia 9" away.
    let setup = || {
        let mut state = game(
            &[("Dragoons", "cavalry", 24.0, 10.0, 0.0)],
            &[("Militia", "militia", 24.0, 21.0, 180.0)],
        );
        set_hits(&mut state, "Militia", 8);
        state
    };
    let mut state = setup();
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(2));
    assert_eq!(charged(&report).len(), 1, "an attacker charges at 9\"");

    let mut state = setup();
    let report = baseline(&state, 0, true).play_turn(&mut state, &mut Seeded::new(2));
    let dragoons = unit(&state, "Dragoons");
    assert!(charged(&report).is_empty(), "a defender does not");
    assert!(!moved(&report, dragoons), "and holds its position");
    let why = &decision(&report, "Dragoons", Choice::Hold).why;
    assert!(why.contains("defending"), "{why}");

    // At 4" the defender charges.
    let mut state = game(
        &[("Dragoons", "cavalry", 24.0, 10.0, 0.0)],
        &[("Militia", "militia", 24.0, 16.0, 180.0)],
    );
    set_hits(&mut state, "Militia", 8);
    let report = baseline(&state, 0, true).play_turn(&mut state, &mut Seeded::new(2));
    assert_eq!(charged(&report).len(), 1);
}

#[test]
fn a_defending_sides_last_line_counter_attacks_once_a_line_in_front_crumbles() {
    // A defence of two lines; whether a unit of the front line has routed.
    // Whether foe's own `counter-attack` switch is off: not the baseline's.
    let run = |front_routed: bool, switched_off: bool| {
        let mut state = game(
            &[
                ("Front A", "british-regulars", 10.0, 15.0, 0.0),
                ("Front B", "british-regulars", 38.0, 15.0, 0.0),
                ("Reserve", "british-regulars", 24.0, 6.0, 0.0),
            ],
            &[("Enemy", "british-regulars", 24.0, 30.0, 180.0)],
        );
        let [a, b, reserve] = ["Front A", "Front B", "Reserve"].map(|name| unit(&state, name));
        if front_routed {
            state.units[b.0].status = crate::rules::Status::Routed;
        }
        let mut tables = Tables::embedded();
        if switched_off {
            tables.opponent.rules.set("counter-attack", false).unwrap();
        }
        let mut mover = Opponent::new(Arc::new(tables), &state, 0);
        mover.set_plan(crate::host::opponent::awi::SidePlan::defend(
            &state,
            &[("front", &[a, b]), ("reserve", &[reserve])],
        ));
        let report =
            AwiBaseline::from_mover(mover, true).play_turn(&mut state, &mut Seeded::new(2));
        (moved(&report, reserve), report)
    };
    let (advanced, report) = run(false, false);
    assert!(!advanced, "the front stands, so the reserve holds");
    let why = &decision(&report, "Reserve", Choice::Hold).why;
    assert!(why.contains("defending"), "{why}");
    for switched_off in [false, true] {
        let (advanced, report) = run(true, switched_off);
        assert!(
            advanced,
            "the front has lost a unit, so the reserve goes forward"
        );
        let why = &decision(&report, "Reserve", Choice::Advance).why;
        assert!(
            why.contains("counter-attacks") && why.contains("(B6)"),
            "{why}"
        );
    }
}

#[test]
fn guns_stay_and_turn_to_face_an_enemy_outside_their_arc() {
    let mut state = game(
        &[("Guns", "artillery", 24.0, 10.0, 0.0)],
        &[("Militia", "militia", 40.0, 10.0, 270.0)],
    );
    let report = baseline(&state, 0, false).play_turn(&mut state, &mut Seeded::new(2));
    let guns = unit(&state, "Guns");
    assert!(!moved(&report, guns));
    decision(&report, "Guns", Choice::Pivot);
    assert!((state.unit(guns).base.facing - 90.0).abs() < 0.01);
    assert!(
        fired(&report).is_empty(),
        "a unit that turned does not fire"
    );
}

#[test]
fn generals_ride_behind_the_most_damaged_unit_and_rally_the_worst() {
    let mut state = game(
        &[
            ("Fresh", "british-regulars", 34.0, 10.0, 0.0),
            ("Worn", "british-regulars", 12.0, 10.0, 0.0),
        ],
        &[("Militia", "militia", 24.0, 40.0, 180.0)],
    );
    set_hits(&mut state, "Worn", 4);
    set_hits(&mut state, "Fresh", 1);
    // Average die 4 for the rally.
    let mut dice = Scripted::then([4], Box::new(Seeded::new(9)));
    // Defending, so that the units stay where they are.
    let report = baseline(&state, 0, true).play_turn(&mut state, &mut dice);
    let ride = decision(&report, "british general", Choice::Ride);
    assert!(ride.why.contains("Worn (4 hits)"), "{}", ride.why);
    let general = &state.generals[0];
    let worn = state.unit(unit(&state, "Worn"));
    assert!(general.base.within(&worn.base, 3.0));
    assert!(general.base.centre.y < worn.base.centre.y, "behind it");
    let rally = decision(&report, "british general", Choice::Rally);
    assert!(rally.why.contains("Worn (4 hits)"), "{}", rally.why);
    assert!(matches!(
        rally.actions.first(),
        Some(Action::Rally { units, .. }) if units.first() == Some(&unit(&state, "Worn"))
    ));
    assert!(state.unit(unit(&state, "Worn")).hits < 4);
}

/// A roller that writes down every roll, so a turn can be replayed.
struct Recording<'a> {
    inner: &'a mut dyn Roller,
    rolls: Vec<u8>,
}

impl Roller for Recording<'_> {
    fn roll(&mut self, die: Die) -> u8 {
        let value = self.inner.roll(die);
        self.rolls.push(value);
        value
    }
}

/// The built-in scenario `name` (played for `turns` turns, if given) set
/// up with `dice`, and the tables.
fn start(name: &str, turns: Option<u32>, dice: &mut Seeded) -> (Scenario, Arc<Tables>, GameState) {
    let (scenario, state) = crate::rules::fixture::builtin_game(name, turns, dice);
    (scenario, Arc::new(Tables::embedded()), state)
}

/// Taken a step at a time, as the runner may take them, a baseline turn
/// sees to each unit and general at most once a phase, sends only
/// actions the engine takes, and is the turn
/// `play_turn` plays with the same dice.
#[test]
fn a_turn_taken_a_step_at_a_time_sees_to_each_once_a_phase() {
    let (scenario, tables, mut state) = start("guilford", None, &mut Seeded::new(5));
    let fields = FieldCache::default();
    let mut sides: Vec<AwiBaseline> = (0..2)
        .map(|side| AwiBaseline::new(tables.clone(), &scenario, &state, side, &fields))
        .collect();
    let (mut actions, mut phases) = (0, 0);
    for bound in 0..16 {
        if state.is_over() {
            break;
        }
        let (side, turn) = (state.active, state.turn);
        let (mut stepped, mut baseline) = (state.clone(), sides[side].clone());
        let mut dice = Seeded::new(100 + bound);
        let mut seen: Vec<(Phase, Commanded)> = Vec::new();
        while !stepped.is_over() && stepped.active == side && stepped.turn == turn {
            let phase = stepped.phase();
            match baseline.next(&stepped) {
                Step::Decided(decision, action) => {
                    let who = (phase, decision.who);
                    assert!(!seen.contains(&who), "{who:?} seen to twice");
                    seen.push(who);
                    if let Some(checked) = action {
                        stepped.apply_checked(checked, &mut dice);
                        actions += 1;
                    }
                }
                Step::EndPhase => {
                    stepped.apply(&Action::EndPhase, &mut dice).unwrap();
                    phases += 1;
                }
            }
        }
        let report = sides[side].play_turn(&mut state, &mut Seeded::new(100 + bound));
        assert_eq!(report.decisions.len(), seen.len());
        for (a, b) in stepped.units.iter().zip(&state.units) {
            assert_eq!((a.base, a.hits, a.status), (b.base, b.hits, b.status));
        }
    }
    assert!(
        actions > 20 && phases > 20,
        "{actions} actions, {phases} phases"
    );
}

/// A whole game with the controllers given, checking after every baseline
/// turn that each action it sent is one the engine accepts when asked
/// afresh (its turn replayed action by action through `apply` on the state
/// as it was, with the same rolls, ends in the same place). Returns the
/// finished state and the refusals the baseline met while looking.
fn checked_game(
    name: &str,
    turns: Option<u32>,
    baseline_side: usize,
    seed: u64,
) -> (GameState, usize) {
    let mut dice = Seeded::new(seed);
    let (scenario, tables, mut state) = start(name, turns, &mut dice);
    let mut sides = controllers(
        &tables,
        &scenario,
        &state,
        &[],
        &[baseline_side],
        &FieldCache::default(),
        &None,
    );
    let mut refusals = 0;
    for _ in 0..(state.turns as usize + 1) * 2 + 2 {
        if state.is_over() {
            break;
        }
        let side = state.active;
        let before = state.clone();
        let controller = sides[side].as_mut().expect("every side commanded");
        let mut recording = Recording {
            inner: &mut dice,
            rolls: Vec::new(),
        };
        let played = match controller {
            Controller::Foe(opponent) => {
                Played::Foe(opponent.play_turn(&mut state, &mut recording))
            }
            Controller::Baseline(baseline) => {
                Played::Baseline(baseline.play_turn(&mut state, &mut recording))
            }
        };
        let rolls = recording.rolls;
        if let Played::Baseline(report) = &played {
            let mut again = before;
            let mut replay = Scripted::new(rolls);
            for action in &report.actions {
                if let Err(refusal) = again.apply(action, &mut replay) {
                    panic!("{name}: the baseline sent {action:?}, refused: {refusal}");
                }
            }
            for (a, b) in again.units.iter().zip(&state.units) {
                assert_eq!((a.base, a.hits, a.status), (b.base, b.hits, b.status));
            }
            refusals += report
                .decisions
                .iter()
                .map(|d| d.refused.len())
                .sum::<usize>();
        }
        let events = match &played {
            Played::Foe(report) => report.events.clone(),
            Played::Baseline(report) => report.events.clone(),
        };
        for (other, controller) in sides.iter_mut().enumerate() {
            if other != side
                && let Some(controller) = controller
            {
                controller.observe(&state, &events);
            }
        }
    }
    (state, refusals)
}

#[test]
fn every_shipped_scenario_plays_to_the_end_with_the_baseline_on_either_side() {
    // The stress scenario's turns take long in a debug build: it plays
    // three; the others play every turn.
    // The baseline plays the seed-000 engine: the registry says which
    // built-in scenarios that is.
    for name in crate::scenario::builtin_names().filter(|name| seed_000(name)) {
        let turns = (name == "stress").then_some(3);
        for side in 0..2 {
            let (state, _) = checked_game(name, turns, side, 17 + side as u64);
            assert!(state.is_over(), "{name}, baseline on side {side}");
        }
    }
}

#[test]
fn guilford_with_the_baseline_is_the_same_game_from_the_same_seed() {
    let (first, _) = checked_game("guilford", None, 0, 99);
    let (second, _) = checked_game("guilford", None, 0, 99);
    let places = |state: &GameState| -> Vec<(Base, u32)> {
        state.units.iter().map(|u| (u.base, u.hits)).collect()
    };
    assert_eq!(places(&first), places(&second));
    assert_eq!(first.outcome, second.outcome);
}

/// Whether the built-in scenario `name` is played by the seed-000 engine.
fn seed_000(name: &str) -> bool {
    let (file, text) = crate::scenario::builtin(name).expect("built in");
    let ruleset = crate::scenario::load(crate::yaml::Source::new(file, text), Ruleset::builtin)
        .expect("valid")
        .battlefield
        .ruleset
        .name
        .clone();
    crate::host::engine_for(&ruleset) == Some(crate::host::Engine::Awi)
}
