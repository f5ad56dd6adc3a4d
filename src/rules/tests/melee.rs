//! Seed 000 *Melee* (`engine/melee.rs`): both sides roll, the modifiers
//! and doublings (flank, rear, against artillery; known before the charge
//! is made), −1 charging into cover, ties, and the retreat: directly away,
//! off the table, or blocked.

use super::*;

fn melee_event(events: &[Event]) -> (&MeleeRoll, &MeleeRoll) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Melee { charger, defender } => Some((charger, defender)),
            _ => None,
        })
        .expect("a melee")
}

#[test]
fn melee_both_roll_with_modifiers_and_the_most_hit_retreats() {
    let mut state = game(
        &[],
        &[("Grenadiers", "grenadiers", 20.0, 10.0, 0.0)],
        &[("Militia", "militia", 20.0, 15.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Grenadiers", "Militia", &[3, 4]);
    let (charger, defender) = melee_event(&events);
    assert_eq!((charger.roll, charger.hits), (3, 5));
    assert_eq!((defender.roll, defender.hits), (4, 4));
    let militia = id(&state, "Militia");
    let retreat = events
        .iter()
        .find_map(|e| match e {
            Event::Retreated {
                unit,
                from,
                to,
                facing,
                ..
            } => Some((*unit, *from, *to, *facing)),
            _ => None,
        })
        .unwrap();
    assert_eq!(retreat.0, militia);
    // A full 6" move directly away, ending facing away (north).
    assert!(
        (retreat.2.y - retreat.1.y - 6.0).abs() < 0.11,
        "{retreat:?}"
    );
    assert!(retreat.3.abs() < 1e-6 || (retreat.3 - 360.0).abs() < 1e-6);
    // The charger stays where it made contact.
    let grenadiers = id(&state, "Grenadiers");
    assert!((state.units[grenadiers.0].base.centre.y - 13.5).abs() < 0.01);
}

#[test]
fn a_charge_is_known_to_double_before_it_is_made() {
    // Regulars south of militia facing south (front), east (flank) and
    // north (rear), and of guns facing south.
    for (troop, facing, multiplier) in [
        ("militia", 180.0, 1),
        ("militia", 90.0, 2),
        ("militia", 0.0, 2),
        ("artillery", 180.0, 2),
    ] {
        let state = SmallGame::new(
            &[("Regulars", "british-regulars", 24.0, 10.0, 0.0)],
            &[("Target", troop, 24.0, 14.0, facing)],
        )
        .build();
        let (regulars, target) = (
            state.find_unit("Regulars").unwrap(),
            state.find_unit("Target").unwrap(),
        );
        assert_eq!(
            state.charge_multiplier(regulars, target),
            multiplier,
            "{troop} facing {facing}"
        );
    }
}

/// `charge_odds` counts every pair of average-die faces (2, 3, 3, 4, 4,
/// 5): regulars (+1) charging fresh militia in the open win when their
/// score beats the militia's (a tie is the charger's retreat), 23 of 36;
/// one hit on the militia already makes a tie a win, 31 of 36; regulars
/// with 10 of their 13 hits rout on any score but the lowest, and lose
/// then too, 0; into the flank (×2) they always win.
#[test]
fn a_charge_knows_its_odds_of_winning_the_melee_before_it_is_made() {
    for (regulars_hits, militia_hits, facing, odds) in [
        (0, 0, 180.0, 23.0 / 36.0),
        (0, 1, 180.0, 31.0 / 36.0),
        (10, 1, 180.0, 0.0),
        (0, 0, 90.0, 1.0),
    ] {
        let mut state = SmallGame::new(
            &[("Regulars", "british-regulars", 24.0, 10.0, 0.0)],
            &[("Militia", "militia", 24.0, 14.0, facing)],
        )
        .build();
        let (regulars, militia) = (
            state.find_unit("Regulars").unwrap(),
            state.find_unit("Militia").unwrap(),
        );
        state.units[regulars.0].hits = regulars_hits;
        state.units[militia.0].hits = militia_hits;
        let found = state.charge_odds(regulars, militia);
        assert!(
            (found - odds).abs() < 1e-9,
            "{regulars_hits} and {militia_hits} hits, facing {facing}: {found} not {odds}"
        );
    }
}

#[test]
fn flank_attacks_double() {
    let mut state = game(
        &[],
        &[("Horse", "cavalry", 10.0, 20.0, 90.0)],
        &[("Militia", "militia", 18.0, 20.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Horse", "Militia", &[3, 3]);
    let (charger, _) = melee_event(&events);
    // 3 +2 cavalry = 5, doubled for the flank = 10.
    assert_eq!(charger.hits, 10);
    assert_eq!(charger.modifiers[1].label, "flank or rear attack");
}

#[test]
fn attacking_artillery_doubles() {
    let mut state = game(
        &[],
        &[("Horse", "cavalry", 20.0, 10.0, 0.0)],
        &[("Gun", "artillery", 20.0, 18.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Horse", "Gun", &[2, 2]);
    let (charger, defender) = melee_event(&events);
    // 2 +2 cavalry = 4, doubled attacking artillery = 8; the gun rolls 2.
    assert_eq!((charger.hits, defender.hits), (8, 2));
}

#[test]
fn charging_into_cover_is_minus_1() {
    let features = [woods((0.0, 14.5), (48.0, 20.0))];
    let mut state = game(
        &features,
        &[("Regulars", "british-regulars", 20.0, 11.0, 0.0)],
        &[("Rifles", "riflemen", 20.0, 16.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "Regulars", "Rifles", &[3, 3]);
    let (charger, defender) = melee_event(&events);
    // 3 +1 regulars −1 into cover = 3; riflemen 3 −1 skirmishers = 2.
    assert_eq!((charger.hits, defender.hits), (3, 2));
}

#[test]
fn on_equal_hits_the_charger_retreats() {
    let mut state = game(
        &[],
        &[("A", "militia", 20.0, 10.0, 0.0)],
        &[("B", "militia", 20.0, 15.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "A", "B", &[3, 3]);
    let a = id(&state, "A");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Retreated { unit, .. } if *unit == a))
    );
}

#[test]
fn a_retreat_off_the_table_drives_the_unit_off() {
    let mut state = game(
        &[],
        &[("A", "grenadiers", 20.0, 40.0, 0.0)],
        &[("B", "militia", 20.0, 45.0, 180.0)],
    );
    let events = charge_and_fight(&mut state, "A", "B", &[5, 2]);
    let b = id(&state, "B");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Exited { unit } if *unit == b))
    );
    assert_eq!(state.units[b.0].status, Status::Exited);
}

#[test]
fn a_blocked_retreat_stops_short() {
    let mut state = game(
        &[],
        &[("A", "grenadiers", 20.0, 10.0, 0.0)],
        &[
            ("B", "militia", 20.0, 15.0, 180.0),
            ("Behind", "militia", 20.0, 19.0, 180.0),
        ],
    );
    let events = charge_and_fight(&mut state, "A", "B", &[5, 2]);
    let blocked = events.iter().find_map(|e| match e {
        Event::Retreated { blocked, to, .. } => Some((*blocked, *to)),
        _ => None,
    });
    let (blocked, to) = blocked.unwrap();
    assert!(blocked);
    assert!(to.y < 17.6 && to.y > 17.3, "{to:?}");
}
