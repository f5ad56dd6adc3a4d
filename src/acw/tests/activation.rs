//! Seed 002 activation (`engine/activation.rs`): dice thrown, assigned, acted on; optional #1–#3.

use super::*;

#[test]
fn a_die_per_unit_is_rolled_and_each_side_assigns_its_own() {
    let (mut state, events) = start(
        setup_with(
            &[],
            &[
                ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
                ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
            ],
            &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        ),
        &[2, 5, 4],
    );
    assert_eq!(
        &events[..3],
        &[
            Event::TurnBegan { turn: 1 },
            Event::DiceRolled {
                side: Some(0),
                dice: vec![5, 2]
            },
            Event::DiceRolled {
                side: Some(1),
                dice: vec![4]
            },
        ]
    );
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    assert_eq!(state.to_act(), Some(0));
    // Side 1 cannot assign while side 0 does, nor give a die it has not.
    let c = id(&state, "C");
    assert!(refusal(&mut state, Action::AssignDie { die: 4, unit: c }).contains("other side"));
    let a = id(&state, "A");
    assert!(refusal(&mut state, Action::AssignDie { die: 6, unit: a }).contains("no unassigned 6"));
    apply(&mut state, Action::AssignDie { die: 2, unit: a }, &[]);
    assert!(
        refusal(&mut state, Action::AssignDie { die: 5, unit: a }).contains("already has a die")
    );
    let b = id(&state, "B");
    apply(&mut state, Action::AssignDie { die: 5, unit: b }, &[]);
    assert_eq!(state.phase(), Phase::Assigning { side: 1 });
    apply(&mut state, Action::AssignDie { die: 4, unit: c }, &[]);
    assert_eq!(state.phase(), Phase::Activating);
    assert_eq!(state.up_next(), vec![b]);
}

#[test]
fn assignment_offers_each_face_to_each_waiting_unit() {
    let state = game(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[3, 3, 1],
    );
    let (a, b) = (id(&state, "A"), id(&state, "B"));
    assert_eq!(
        state.legal_actions(),
        vec![
            Action::AssignDie { die: 3, unit: a },
            Action::AssignDie { die: 3, unit: b },
        ]
    );
}

#[test]
fn units_act_from_the_highest_die_down() {
    let mut state = game(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[2, 5, 4],
    );
    assign(&mut state, &[("A", 2), ("B", 5), ("C", 4)]);
    let order: Vec<&str> = ["B", "C", "A"].to_vec();
    for name in order {
        let unit = id(&state, name);
        assert_eq!(state.up_next(), vec![unit], "{name} is up");
        assert_eq!(state.to_act(), Some(state.unit(unit).side));
        let events = apply(&mut state, Action::Hold { unit }, &[]);
        assert!(matches!(events[0], Event::Activated { .. }));
    }
    // Every die used: the next turn's dice are thrown.
    assert_eq!(state.turn(), 2);
}

#[test]
fn equal_opposed_dice_are_thrown_again() {
    let mut state = game(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[4, 4],
    );
    // A's assignment, then C's, which completes it: the tie is thrown
    // again at once, 3 each (again), then A 2, C 5: C goes first.
    let a = id(&state, "A");
    let c = id(&state, "C");
    apply(&mut state, Action::AssignDie { die: 4, unit: a }, &[]);
    let events = apply(
        &mut state,
        Action::AssignDie { die: 4, unit: c },
        &[3, 3, 2, 5],
    );
    let ties: Vec<(UnitId, u8)> = events
        .iter()
        .filter_map(|e| match e {
            Event::TieRolled { unit, roll } => Some((*unit, *roll)),
            _ => None,
        })
        .collect();
    assert_eq!(ties, vec![(a, 3), (c, 3), (a, 2), (c, 5)]);
    assert_eq!(state.up_next(), vec![c]);
    apply(&mut state, Action::Hold { unit: c }, &[]);
    assert_eq!(state.up_next(), vec![a]);
}

#[test]
fn equal_dice_on_one_side_let_the_owner_pick() {
    let mut state = game(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
        &[6, 6, 1],
    );
    let events = assign(&mut state, &[("A", 6), ("B", 6), ("C", 1)]);
    assert!(!events.iter().any(|e| matches!(e, Event::TieRolled { .. })));
    let (a, b) = (id(&state, "A"), id(&state, "B"));
    assert_eq!(state.up_next(), vec![a, b]);
    apply(&mut state, Action::Hold { unit: b }, &[]);
    assert_eq!(state.up_next(), vec![a]);
}

#[test]
fn an_activated_unit_acts_once_then_the_next_die() {
    let mut state = game(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[
            ("C", "infantry", 10.0, 5.0, NORTH, Formation::Line),
            ("D", "infantry", 20.0, 5.0, NORTH, Formation::Line),
        ],
        &[6, 1, 2],
    );
    assign(&mut state, &[("A", 6), ("C", 2), ("D", 1)]);
    let (a, c) = (id(&state, "A"), id(&state, "C"));
    // C's die is not up yet.
    assert!(refusal(&mut state, Action::Hold { unit: c }).contains("not the highest"));
    apply(&mut state, mv(a, None, 10.0, 26.0, SOUTH), &[]);
    assert!(refusal(&mut state, Action::Hold { unit: a }).contains("already acted"));
    assert_eq!(state.to_act(), Some(1));
    // The legal actions are C's: hold first, then its moves.
    let legal = state.legal_actions();
    assert_eq!(legal[0], Action::Hold { unit: c });
    assert!(legal.iter().all(|action| match action {
        Action::Move { unit, .. }
        | Action::Hold { unit }
        | Action::Fire { unit, .. }
        | Action::Charge { unit, .. } => *unit == c,
        _ => false,
    }));
}

#[test]
fn initiative_loser_assigns_first() {
    let mut setup = setup_with(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
    );
    setup.optional.initiative = true;
    // 3-3 is thrown again; 2-5: side 1 wins, side 0 assigns first.
    let (state, events) = start(setup.clone(), &[3, 3, 2, 5, 4, 4]);
    assert_eq!(
        events[1],
        Event::InitiativeRolled {
            rolls: vec![[3, 3], [2, 5]],
            winner: 1
        }
    );
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    let (state, _) = start(setup, &[6, 1, 4, 4]);
    assert_eq!(state.phase(), Phase::Assigning { side: 1 });
}

#[test]
fn drafting_takes_dice_in_turn_from_one_pile() {
    let mut setup = setup_with(
        &[],
        &[
            ("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line),
            ("B", "infantry", 20.0, 30.0, SOUTH, Formation::Line),
        ],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
    );
    setup.optional.draft = true;
    let (mut state, events) = start(setup, &[2, 6, 4]);
    assert_eq!(
        events[1],
        Event::DiceRolled {
            side: None,
            dice: vec![6, 4, 2]
        }
    );
    let (a, b, c) = (id(&state, "A"), id(&state, "B"), id(&state, "C"));
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    apply(&mut state, Action::AssignDie { die: 6, unit: a }, &[]);
    // Side 1 takes next, from the same pile.
    assert_eq!(state.phase(), Phase::Assigning { side: 1 });
    assert_eq!(state.dice_to_assign(1), &[4, 2]);
    apply(&mut state, Action::AssignDie { die: 2, unit: c }, &[]);
    assert_eq!(state.phase(), Phase::Assigning { side: 0 });
    apply(&mut state, Action::AssignDie { die: 4, unit: b }, &[]);
    assert_eq!(state.phase(), Phase::Activating);
    assert_eq!(state.up_next(), vec![a]);
}

#[test]
fn good_commanders_add_dice_and_the_worst_are_discarded() {
    let mut setup = setup_with(
        &[],
        &[("A", "infantry", 10.0, 30.0, SOUTH, Formation::Line)],
        &[("C", "infantry", 10.0, 5.0, NORTH, Formation::Line)],
    );
    setup.forces[1].extra_dice = 1;
    // Off: the extra die is not thrown.
    let (state, _) = start(setup.clone(), &[3, 4]);
    assert_eq!(state.pools[1], vec![4]);
    setup.optional.good_commanders = true;
    let (state, events) = start(setup, &[3, 1, 5]);
    assert!(events.contains(&Event::DiceRolled {
        side: Some(1),
        dice: vec![5, 1]
    }));
    assert!(events.contains(&Event::DiceDiscarded {
        side: Some(1),
        dice: vec![1]
    }));
    assert_eq!(state.pools[1], vec![5]);
}
