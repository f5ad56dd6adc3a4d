//! Seed 002 *Firing* (`engine/shooting.rs`): range bands, cover, who cannot fire, strength.

use super::*;

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
