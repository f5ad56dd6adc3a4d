//! Seed 002 *Melee* (`engine/melee.rs`): firing first, contact, the charger's hits, the retreat.

use super::*;

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
