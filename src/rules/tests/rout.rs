//! Seed 000 *Rout* (`engine/rout.rs`): routed at 13 hits or 9, army
//! resolve once, and a unit that breaks under the reaction test routed at
//! once and counted as lost (ruling O12).

use super::*;

#[test]
fn infantry_rout_at_13_and_cavalry_at_9() {
    let mut state = game(
        &[],
        &[
            ("Foot12", "militia", 10.0, 10.0, 0.0),
            ("Foot13", "militia", 20.0, 10.0, 0.0),
            ("Horse8", "cavalry", 30.0, 10.0, 0.0),
            ("Horse9", "cavalry", 40.0, 10.0, 0.0),
        ],
        &[
            ("E1", "militia", 10.0, 40.0, 180.0),
            ("E2", "militia", 20.0, 40.0, 180.0),
            ("E3", "militia", 30.0, 40.0, 180.0),
            ("E4", "militia", 40.0, 40.0, 180.0),
        ],
    );
    for (name, hits) in [("Foot12", 12), ("Foot13", 13), ("Horse8", 8), ("Horse9", 9)] {
        let unit = id(&state, name);
        state.units[unit.0].hits = hits;
    }
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(&mut state, Action::EndPhase, &[]);
    let routed: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Routed { unit, .. } => Some(state.units[unit.0].name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(routed, ["Foot13", "Horse9"]);
}

#[test]
fn army_resolve_strikes_once_with_2_hits() {
    let mut state = game(
        &[],
        &[
            ("A", "militia", 10.0, 10.0, 0.0),
            ("B", "militia", 20.0, 10.0, 0.0),
            ("C", "militia", 30.0, 10.0, 0.0),
        ],
        &[("E", "militia", 10.0, 40.0, 180.0)],
    );
    let [a, b, c] = ["A", "B", "C"].map(|n| id(&state, n));
    state.units[a.0].hits = 13;
    state.units[c.0].hits = 11;
    go_to(&mut state, 0, Phase::Shooting);
    // A routs: 1 of 3 is not more than half. Nothing else.
    let events = ok(&mut state, Action::EndPhase, &[]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::ArmyResolve { .. }))
    );
    state.units[b.0].hits = 13;
    // B routs in the next rout phase (the Americans'): 2 of 3 lost; C takes
    // 2 hits (13) and routs in turn.
    let events = go_to(&mut state, 0, Phase::Movement);
    let resolve: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::ArmyResolve { .. }))
        .collect();
    assert_eq!(
        resolve,
        [&Event::ArmyResolve {
            side: 0,
            lost: 2,
            of: 3,
            hits: 2
        }]
    );
    assert_eq!(state.units[c.0].status, Status::Routed);
    assert!(state.sides[0].resolve_spent);
}

/// Ruling O12: a unit the Lone Warrior test routs leaves the
/// table routed, with whatever hits it has, and counts as lost at once: for
/// "rout or force off the tabletop" at the end of the phase, and for army
/// resolve in the Rout phase. `legal_actions` never offers it.
#[test]
fn a_unit_that_breaks_is_routed_and_counts_as_lost() {
    let state = game(
        &[],
        &[("A", "grenadiers", 20.0, 10.0, 0.0)],
        &[
            ("Continentals", "continentals", 20.0, 40.0, 180.0),
            ("Other", "continentals", 30.0, 40.0, 180.0),
        ],
    );
    let continentals = state
        .battlefield
        .ruleset
        .troop_type("continentals")
        .unwrap();
    let mut state = with_victory(
        state,
        vec![Victory {
            winner: 0,
            when: Condition::RoutOrExit {
                side: 1,
                troop: continentals,
                count: 1,
            },
        }],
    );
    let [a, broken] = ["A", "Continentals"].map(|n| id(&state, n));
    // Not the British player's to rout, and never offered.
    let text = refusal(&mut state, Action::Rout { unit: broken });
    assert!(text.contains("Continentals"), "{text}");
    go_to(&mut state, 1, Phase::Movement);
    assert!(
        state
            .legal_actions()
            .iter()
            .all(|action| !matches!(action, Action::Rout { .. }))
    );
    state.units[broken.0].hits = 2;
    let events = ok(&mut state, Action::Rout { unit: broken }, &[]);
    assert_eq!(
        events,
        vec![Event::Routed {
            unit: broken,
            hits: 2
        }]
    );
    assert_eq!(state.units[broken.0].status, Status::Routed);
    assert_eq!(state.lost(1), 1);
    let events = ok(&mut state, Action::EndPhase, &[]);
    assert!(events.contains(&Event::Victory {
        winner: 0,
        condition: 0
    }));
    assert!(state.units[a.0].is_active());
}
