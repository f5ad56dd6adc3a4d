//! Seed 002 *Movement*, *Formation changes*, *Interpenetration*, *Terrain* (`engine/movement.rs`).

use super::*;

fn far_enemy<'a>() -> Placed<'a> {
    ("Far", "infantry", 33.0, 2.0, NORTH, Formation::Line)
}

#[test]
fn march_columns_move_a_third_faster() {
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        refusal(&mut state, mv(a, None, 10.0, 18.5, NORTH)).contains("needs 8.5\" of its 8.0\"")
    );
    apply(&mut state, mv(a, None, 10.0, 18.0, NORTH), &[]);
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(refusal(&mut state, mv(a, None, 10.0, 16.5, NORTH)).contains("of its 6.0\""));
    // Cavalry 12" in line, 16" in column; limbered guns 8".
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(state.check(&mv(h, None, 10.0, 26.0, NORTH)).is_ok());
    let state = solo(
        &[],
        &[("G", "artillery", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let g = id(&state, "G");
    assert!(state.check(&mv(g, None, 10.0, 18.0, NORTH)).is_ok());
    assert!(state.check(&mv(g, None, 10.0, 18.5, NORTH)).is_err());
}

#[test]
fn dismounted_cavalry_moves_as_infantry() {
    let mut state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Dismounted)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(refusal(&mut state, mv(h, None, 10.0, 17.0, NORTH)).contains("of its 6.0\""));
    assert!(state.check(&mv(h, None, 10.0, 16.0, NORTH)).is_ok());
    assert_eq!(state.unit(h).mode(), Mode::Foot);
}

#[test]
fn formation_changes_cost_2_or_4_inches() {
    // Infantry line to column: 8" less 2".
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        refusal(
            &mut state,
            mv(a, Some(Formation::Column), 10.0, 16.5, NORTH)
        )
        .contains("less 2\" to change formation")
    );
    let events = apply(
        &mut state,
        mv(a, Some(Formation::Column), 10.0, 16.0, NORTH),
        &[],
    );
    assert!(events.contains(&Event::FormationChanged {
        unit: a,
        from: Formation::Line,
        to: Formation::Column,
        cost: 2.0
    }));
    assert_eq!(state.formation(a), Formation::Column);
    // Cavalry dismounting: 6" less 4". Mounting: 12" less 4".
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(
        state
            .check(&mv(h, Some(Formation::Dismounted), 10.0, 12.0, NORTH))
            .is_ok()
    );
    assert!(
        state
            .check(&mv(h, Some(Formation::Dismounted), 10.0, 12.5, NORTH))
            .is_err()
    );
    let state = solo(
        &[],
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Dismounted)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(
        state
            .check(&mv(h, Some(Formation::Line), 10.0, 18.0, NORTH))
            .is_ok()
    );
    assert!(
        state
            .check(&mv(h, Some(Formation::Line), 10.0, 18.5, NORTH))
            .is_err()
    );
    // Artillery limbering: 8" less 4"; unlimbering: 6" less 4".
    let state = solo(
        &[],
        &[("G", "artillery", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let g = id(&state, "G");
    assert!(
        state
            .check(&mv(g, Some(Formation::Column), 10.0, 14.0, NORTH))
            .is_ok()
    );
    assert!(
        state
            .check(&mv(g, Some(Formation::Column), 10.0, 14.5, NORTH))
            .is_err()
    );
    // Infantry cannot dismount.
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        refusal(
            &mut state,
            mv(a, Some(Formation::Dismounted), 10.0, 10.0, NORTH)
        )
        .contains("cannot change")
    );
}

#[test]
fn passing_through_a_friend_costs_a_change_and_needs_its_die() {
    let blue = [
        ("A", "infantry", 10.0, 10.0, NORTH, Formation::Line),
        ("F", "infantry", 10.0, 12.0, NORTH, Formation::Line),
    ];
    // F still has its die: A passes through, 4" and 2" for passing.
    let mut state = solo(&[], &blue, &[far_enemy()]);
    let (a, f) = (id(&state, "A"), id(&state, "F"));
    assert!(refusal(&mut state, mv(a, None, 10.0, 14.5, NORTH)).contains("needs 6.5\""));
    let events = apply(&mut state, mv(a, None, 10.0, 14.0, NORTH), &[]);
    assert!(events.contains(&Event::PassedThrough { unit: a, friend: f }));
    // Once F has used its die, nobody passes through it.
    let mut state = game(&[], &blue, &[far_enemy()], &[1, 6, 1]);
    assign(&mut state, &[("A", 1), ("F", 6), ("Far", 1)]);
    let f = id(&state, "F");
    apply(&mut state, Action::Hold { unit: f }, &[]);
    // Far and A tie at 1: A wins the re-roll.
    let a = id(&state, "A");
    if state.up_next() != vec![a] {
        let far = id(&state, "Far");
        apply(&mut state, Action::Hold { unit: far }, &[]);
    }
    assert!(refusal(&mut state, mv(a, None, 10.0, 14.0, NORTH)).contains("no unused die"));
}

#[test]
fn woods_cost_a_third_and_admit_only_troops_on_foot() {
    let woods = [("woods", rect(0.0, 0.0, 36.0, 30.0), 0.0)];
    let mut state = solo(
        &woods,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    // 6" of woods costs 9".
    assert!(refusal(&mut state, mv(a, None, 10.0, 16.0, NORTH)).contains("needs 9.0\""));
    assert!(state.check(&mv(a, None, 10.0, 14.0, NORTH)).is_ok());
    let state = solo(
        &woods,
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Dismounted)],
        &[far_enemy()],
    );
    let h = id(&state, "H");
    assert!(state.check(&mv(h, None, 10.0, 14.0, NORTH)).is_ok());
    // Mounted horse and guns may not stand in woods at all.
    let mut setup = setup_with(
        &woods,
        &[("H", "cavalry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    assert!(matches!(
        GameState::new(setup.clone(), acw_table(), &mut dice(&[1, 1])),
        Err(SetupError::BadUnit { .. })
    ));
    setup.battlefield = Arc::new(field(&[("woods", rect(0.0, 15.0, 36.0, 30.0), 0.0)]));
    let (mut state, _) = start(setup, &[6, 1]);
    assign(&mut state, &[("H", 6), ("Far", 1)]);
    let h = id(&state, "H");
    assert!(
        refusal(&mut state, mv(h, None, 10.0, 20.0, NORTH))
            .contains("mounted cavalry cannot cross the woods")
    );
}

#[test]
fn towns_cost_a_formation_change_to_enter_and_to_leave() {
    let town = [("town", rect(0.0, 12.0, 36.0, 14.0), 0.0)];
    let mut state = solo(
        &town,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    // 5" across a town: 2" to enter, 2" to leave.
    assert!(refusal(&mut state, mv(a, None, 10.0, 15.0, NORTH)).contains("needs 9.0\""));
    assert!(state.check(&mv(a, None, 10.0, 11.5, NORTH)).is_ok());
    // 11" to 12.5: entering costs 2" (1.5 + 2 = 3.5 of 6).
    let events = apply(&mut state, mv(a, None, 10.0, 12.5, NORTH), &[]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Moved { used, .. } if (*used - 4.5).abs() < 1e-6))
    );
}

#[test]
fn fords_and_bridges_are_crossed_in_column_only() {
    let river = [
        ("river", rect(0.0, 13.0, 36.0, 15.0), 0.0),
        ("ford", rect(8.0, 13.0, 12.0, 15.0), 0.0),
    ];
    let mut state = solo(
        &river,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(refusal(&mut state, mv(a, None, 10.0, 16.0, NORTH)).contains("march column only"));
    let state = solo(
        &river,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(state.check(&mv(a, None, 10.0, 17.0, NORTH)).is_ok());
    // Not across the river beside the ford.
    assert!(
        state
            .check(&mv(a, None, 20.0, 17.0, NORTH))
            .unwrap_err()
            .to_string()
            .contains("river")
    );
    let bridge = [
        ("river", rect(0.0, 13.0, 36.0, 15.0), 0.0),
        ("bridge", rect(8.0, 13.0, 12.0, 15.0), 0.0),
    ];
    let state = solo(
        &bridge,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Line)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        state
            .check(&mv(a, None, 10.0, 16.0, NORTH))
            .unwrap_err()
            .to_string()
            .contains("march column only")
    );
}

#[test]
fn marsh_and_rivers_stay_impassable() {
    let marsh = [("marsh", rect(0.0, 13.0, 36.0, 15.0), 0.0)];
    let state = solo(
        &marsh,
        &[("A", "infantry", 10.0, 10.0, NORTH, Formation::Column)],
        &[far_enemy()],
    );
    let a = id(&state, "A");
    assert!(
        state
            .check(&mv(a, None, 10.0, 17.0, NORTH))
            .unwrap_err()
            .to_string()
            .contains("marsh")
    );
}

#[test]
fn the_rule_set_has_no_walls() {
    let rules = ruleset();
    assert!(rules.terrain_kind("wall").is_none());
    assert!(rules.terrain_kind("fence").is_none());
}

#[test]
fn only_a_charge_touches_the_enemy() {
    let mut state = solo(
        &[],
        &[("A", "infantry", 10.0, 20.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 14.0, NORTH, Formation::Line)],
    );
    let a = id(&state, "A");
    assert!(refusal(&mut state, mv(a, None, 10.0, 15.5, SOUTH)).contains("only a charge"));
    assert!(refusal(&mut state, mv(a, None, 10.0, 12.0, SOUTH)).contains("in the way"));
}
