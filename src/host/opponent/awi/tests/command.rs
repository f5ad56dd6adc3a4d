//! The bound's command (`command.rs`, rulings O14–O18): generals' triggers
//! and reactions, their start positions, the rally policy, reinforcements
//! called up and reserves brought on.

use super::*;

#[test]
fn a_general_rides_to_the_most_stricken_unit_on_an_a() {
    let mut state = game(
        &[
            ("Fresh", "british-regulars", 10.0, 10.0, NORTH),
            ("Stricken", "british-regulars", 30.0, 10.0, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    state.units[1].hits = 4;
    state.generals[0].base = Base::new(p(30.0, 2.0), 0.0, 2.0, 2.0);
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Fresh").withdrew = true;
    let report = movement(&mut opponent, &mut state, &[5, 3, 3]);
    let general = &report.generals[0];
    assert_eq!(general.reaction.as_ref().unwrap().reaction, Reaction::A);
    assert!(general.does.contains("Stricken"), "{}", general.does);
    // He rides to just behind it: within 3" of where it stood.
    assert_eq!(
        general.actions,
        vec![Action::MoveGeneral {
            general: GeneralId(0),
            to: p(30.0, 7.75)
        }]
    );
}

#[test]
fn reaction_e_at_the_baseline_takes_the_general_off_for_good() {
    let mut state = game(
        &[("Foot", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    state.generals[0].base = Base::new(p(24.0, 1.5), 0.0, 2.0, 2.0);
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Foot").withdrew = true;
    let report = movement(&mut opponent, &mut state, &[100, 3]);
    assert!(report.generals[0].does.contains("for good"));
    assert!(opponent.generals[0].left);
    // He no longer counts as a general within 3", even standing there.
    state.generals[0].base = Base::new(p(24.0, 8.0), 0.0, 2.0, 2.0);
    let preview = opponent.preview(&state, UnitId(0)).unwrap();
    assert!(!preview.reading.situation.general_within_3);
}

#[test]
fn the_start_position_is_rolled_on_the_generals_chart() {
    let mut state = game(
        &[("Foot", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = Opponent::new(Arc::new(Tables::embedded()), &state, 0);
    // Average: 1-20 is A, centre front in the main battle line.
    let report = movement(&mut opponent, &mut state, &[10, 3]);
    let (roll, letter, point) = report.generals[0].start.unwrap();
    assert_eq!((roll, letter), (10, Reaction::A));
    assert_eq!(point, p(24.0, 10.0));
    assert!(matches!(
        report.generals[0].actions[..],
        [Action::MoveGeneral { .. }]
    ));
}

#[test]
fn rallies_are_spent_on_units_with_three_hits_or_more() {
    let mut state = game(
        &[
            ("Hurt", "british-regulars", 10.0, 10.0, NORTH),
            ("Scratched", "british-regulars", 16.0, 10.0, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    state.generals[0].base = Base::new(p(13.0, 6.0), 0.0, 2.0, 2.0);
    state.units[0].hits = 3;
    state.units[1].hits = 2;
    while state.phase() != Phase::Rallying {
        state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    }
    let mut commander = opponent(&state, 0);
    let mut report = TurnReport::default();
    commander.phase(&mut state, &mut dice([4]), &mut report);
    assert_eq!(report.rallies.len(), 1);
    assert_eq!(report.rallies[0].units, vec![UnitId(0)]);
    assert_eq!(state.units[0].hits, 1);
    // With nobody at 3 hits the attempt is kept.
    let mut state2 = state.clone();
    state2.units[0].hits = 2;
    state2.generals[0].rallied = false;
    let mut report = TurnReport::default();
    commander.phase(&mut state2, &mut dice([]), &mut report);
    assert!(report.rallies.is_empty());
}

#[test]
fn a_called_up_reinforcement_enters_at_the_centre_of_the_rear_edge() {
    let mut state = game(
        &[("Foot", "british-regulars", 10.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    opponent.set_reinforcements(Some("british"));
    memory_mut(&mut opponent, &state, "Foot").withdrew = true;
    // General: 70 is D for an average general; d100 10 calls up British
    // line infantry; their reserve test: regulars +2 open, +3 out of
    // sight, die 1: 6, advance, so they enter.
    let report = movement(&mut opponent, &mut state, &[70, 10, 1, 3]);
    let general = &report.generals[0];
    assert_eq!(
        general.called_up,
        Some((10, "British Line Infantry".into()))
    );
    let id = UnitId(state.units.len() - 1);
    assert_eq!(
        state.unit(id).name,
        "British Line Infantry (reinforcement 1)"
    );
    assert!(state.unit(id).is_active());
    assert_eq!(state.unit(id).base.centre, p(24.0, 0.75));
    assert!(
        report.reserves[0]
            .actions
            .iter()
            .any(|a| matches!(a, Action::Enter { .. }))
    );
    assert_eq!(state.sides[0].starting_units, 2);
    // It has moved for the bound: no ordinary test until the next.
    assert!(report.decisions.iter().all(|d| d.unit != id));
}

#[test]
fn a_scenario_reserve_waits_until_its_test_brings_it_on() {
    let mut state = game_with(
        &[],
        &[("Foot", "british-regulars", 10.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
        &[("Reserve", "militia", 24.0, 0.75, NORTH)],
    );
    let reserve = unit(&state, "Reserve");
    assert!(state.unit(reserve).is_reserve());
    let mut opponent = opponent(&state, 0);
    // Local militia encamped: -2 open, +3 out of sight, die 1: 2, stays.
    let report = movement(&mut opponent, &mut state, &[1, 3]);
    assert!(report.reserves[0].plan.contains("stays off table"));
    assert!(state.unit(reserve).is_reserve());
    to_side(&mut state, 1);
    to_side(&mut state, 0);
    // Die 6: 7, advance: it enters.
    let report = movement(&mut opponent, &mut state, &[6, 3]);
    assert!(report.reserves[0].plan.contains("enters"));
    assert!(state.unit(reserve).is_active());
}

/// What a turn report has seen to so far: the generals, reserves, units
/// and rallies by who they are, and the actions sent.
fn seen_to(report: &TurnReport) -> (Vec<String>, usize) {
    let who = report
        .generals
        .iter()
        .map(|g| format!("general {}", g.general.0))
        .chain(
            report
                .reserves
                .iter()
                .map(|d| format!("reserve {}", d.unit.0)),
        )
        .chain(
            report
                .decisions
                .iter()
                .map(|d| format!("unit {}", d.unit.0)),
        )
        .chain(
            report
                .rallies
                .iter()
                .map(|r| format!("rally {}", r.general.0)),
        )
        .collect();
    (who, report.actions.len())
}

/// A side's turn taken a step at a time ([`Opponent::step`]): each step
/// sees to one general, reserve, unit or rally, or one unit's shot,
/// or ends the phase; nobody is seen to twice in a turn's phase; and the
/// turn is the one `play_turn` plays with the same dice.
#[test]
fn a_turn_taken_a_step_at_a_time_sees_to_each_once_a_phase() {
    let tables = Arc::new(Tables::embedded());
    let (mut records, mut shots, mut phases) = (0, 0, 0);
    for name in ["guilford", "monongahela"] {
        let (scenario, mut state) =
            crate::rules::fixture::builtin_game(name, Some(6), &mut Seeded::new(5));
        let mut sides = opponents_for(&tables, &scenario, &state);
        for bound in 0..12 {
            if state.is_over() {
                break;
            }
            let (side, turn) = (state.active, state.turn);
            let (mut stepped, mut stepper) = (state.clone(), sides[side].clone());
            let mut report = TurnReport {
                side,
                turn,
                ..TurnReport::default()
            };
            let mut dice = Seeded::new(100 + bound);
            let mut this_phase: Vec<String> = Vec::new();
            while !stepped.is_over() && stepped.active == side && stepped.turn == turn {
                let (phase, index) = (stepped.phase(), stepped.phase_index);
                let (before, sent) = seen_to(&report);
                stepper.step(&mut stepped, &mut dice, &mut report);
                let (after, now_sent) = seen_to(&report);
                if stepped.phase_index != index || stepped.active != side {
                    assert_eq!(after, before, "{name}: a phase's end decided nothing");
                    assert_eq!(now_sent, sent + 1, "{name}: the end of the phase");
                    this_phase.clear();
                    phases += 1;
                } else if phase == Phase::Shooting && after == before {
                    // A unit told to fire may find no one to shoot.
                    assert!(
                        now_sent <= sent + 1,
                        "{name}: a step of shooting fires once"
                    );
                    shots += now_sent - sent;
                } else {
                    assert_eq!(after.len(), before.len() + 1, "{name}: one decision a step");
                    let who = after.last().unwrap().clone();
                    assert!(!this_phase.contains(&who), "{name}: {who} seen to twice");
                    this_phase.push(who);
                    records += 1;
                }
            }
            stepper.remember(&report);
            let played = sides[side].play_turn(&mut state, &mut Seeded::new(100 + bound));
            assert_eq!(report, played, "{name}, bound {bound}");
            for (a, b) in stepped.units.iter().zip(&state.units) {
                assert_eq!((a.base, a.hits, a.status), (b.base, b.hits, b.status));
            }
            for (other, opponent) in sides.iter_mut().enumerate() {
                if other != side {
                    opponent.observe(&state, &played.events);
                }
            }
        }
    }
    assert!(
        records > 40 && shots > 5 && phases > 30,
        "{records} decisions, {shots} shots, {phases} phases"
    );
}
