//! What the opponent keeps of a unit and shows of it (`mod.rs`'s
//! `UnitState`, ruling O6): its state in words, what a bound changed, and
//! only the side's own units on the table.

use super::*;

#[test]
fn a_units_state_reads_formation_first_then_what_befell_it() {
    let state = |formation, disordered, withdrew, abandoned| UnitState {
        formation,
        disordered,
        withdrew,
        abandoned,
    };
    let marching = state(Formation::Column, true, true, false);
    assert_eq!(marching.to_string(), "column, disordered, fell back");
    assert_eq!(
        state(Formation::CloseOrder, false, false, false).to_string(),
        "close order"
    );
    assert_eq!(
        state(Formation::Unlimbered, false, false, true).to_string(),
        "unlimbered, guns abandoned"
    );
    // The log tells what a bound changed, not what it did not (a fall
    // back is told by the move itself).
    let line = state(Formation::Line, false, false, false);
    assert_eq!(
        marching.changes_since(&line),
        ["now in column", "disordered"]
    );
    let reformed = state(Formation::Column, false, false, false);
    assert_eq!(reformed.changes_since(&marching), ["reformed"]);
    assert!(line.changes_since(&line).is_empty());
}

#[test]
fn unit_state_is_the_sides_own_units_on_the_table_only() {
    let mut state = game(
        &[("Foot", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 1);
    let militia = unit(&state, "Militia");
    memory_mut(&mut opponent, &state, "Militia").formation = Formation::Column;
    memory_mut(&mut opponent, &state, "Militia").withdrew = true;
    assert_eq!(
        opponent.unit_state(&state, militia).unwrap().to_string(),
        "column, fell back"
    );
    assert_eq!(opponent.unit_state(&state, unit(&state, "Foot")), None);
    state.units[militia.0].status = Status::Routed;
    assert_eq!(opponent.unit_state(&state, militia), None);
}
