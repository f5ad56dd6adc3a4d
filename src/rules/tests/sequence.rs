//! The *Sequence of Play* (`engine/mod.rs`): the phases and turns as
//! data, the procedure phases ending by themselves, and a refused action
//! leaving the state as it was.

use super::*;

#[test]
fn the_turn_sequence_is_data() {
    let rules = rules_table();
    let phases: Vec<Phase> = rules.phases.iter().map(|rule| rule.phase).collect();
    assert_eq!(
        phases,
        [
            Phase::Movement,
            Phase::Shooting,
            Phase::Melee,
            Phase::Rout,
            Phase::Rallying
        ]
    );
    let mut state = game(&[], &[("A", "militia", 10.0, 10.0, 0.0)], &[]);
    assert_eq!(
        (state.turn, state.active, state.phase()),
        (1, 0, Phase::Movement)
    );
    go_to(&mut state, 1, Phase::Movement);
    assert_eq!(state.turn, 1);
    go_to(&mut state, 0, Phase::Movement);
    assert_eq!(state.turn, 2);
}

#[test]
fn procedure_phases_end_by_themselves() {
    let mut state = game(&[], &[("A", "militia", 10.0, 10.0, 0.0)], &[]);
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(&mut state, Action::EndPhase, &[]);
    let ended: Vec<Phase> = events
        .iter()
        .filter_map(|e| match e {
            Event::PhaseEnded { phase, .. } => Some(*phase),
            _ => None,
        })
        .collect();
    assert_eq!(ended, [Phase::Shooting, Phase::Melee, Phase::Rout]);
    assert_eq!(state.phase(), Phase::Rallying);
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut state = game(
        &[],
        &[("A", "militia", 10.0, 10.0, 0.0)],
        &[("E", "militia", 10.0, 40.0, 180.0)],
    );
    let a = id(&state, "A");
    let e = id(&state, "E");
    for action in [
        mv(a, 10.0, 30.0, 0.0),
        Action::Fire {
            unit: a,
            target: e,
            volley: Volley::Single,
        },
        Action::Charge { unit: e, target: a },
        rally(0, &[a]),
        Action::MoveGeneral {
            general: GeneralId(1),
            to: p(40.0, 40.0),
        },
    ] {
        let before = (state.phase_index, state.active, state.turn);
        refusal(&mut state, action);
        assert_eq!(before, (state.phase_index, state.active, state.turn));
    }
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: a,
            target: e,
            volley: Volley::Single,
        },
    );
    assert_eq!(text, "cannot fire: not allowed in the movement phase");
}
