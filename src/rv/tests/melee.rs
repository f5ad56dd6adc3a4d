//! Seed 001 *Melee* (`engine/melee.rs`): opposed dice, modifiers, ties, the loser retreating.

use super::*;

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
