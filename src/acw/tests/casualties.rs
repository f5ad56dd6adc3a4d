//! Seed 002 *Casualties* (`engine/casualties.rs`): a unit removed at 15 hits.

use super::*;

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

/// Ruling HO13: the Lone Warrior rout order. The unit whose die is up
/// leaves the table at once as routed (its activation), and counts as
/// gone for the victory conditions; never listed, never out of turn.
#[test]
fn a_routed_unit_leaves_the_table_on_its_activation() {
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 13.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 30.0, NORTH, Formation::Line)],
    );
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    assert!(!state.legal_actions().contains(&Action::Rout { unit: a }));
    refusal(&mut state, Action::Rout { unit: c });
    let events = apply(&mut state, Action::Rout { unit: a }, &[]);
    assert!(events.contains(&Event::Removed {
        unit: a,
        reason: Removal::Routed
    }));
    assert!(state.removed(a));
    assert_eq!(state.strength(a), 0.0);
}
