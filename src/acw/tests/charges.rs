//! Seed 002 *Charging* (`engine/charges.rs`): who may charge whom, the line move, the ground.

use super::*;

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
