//! Seed 000 *Charges* (`engine/charges.rs`): contact by movement, one
//! pivot of at most 45° (and none through the target), one charger per
//! target, no road bonus, who may charge whom, and the quick check agreeing
//! with the full one.

use super::*;

#[test]
fn a_charge_ends_in_contact_and_melee_waits_for_its_phase() {
    let mut state = game(
        &[],
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[("Enemy", "militia", 20.0, 15.0, 180.0)],
    );
    let [foot, enemy] = ["Foot", "Enemy"].map(|n| id(&state, n));
    let events = ok(
        &mut state,
        Action::Charge {
            unit: foot,
            target: enemy,
        },
        &[],
    );
    assert!(matches!(
        events[0],
        Event::Charged {
            flank_or_rear: false,
            ..
        }
    ));
    assert!(state.in_contact(foot, enemy));
    assert_eq!(state.units[enemy.0].hits, 0);
    // Moving → shooting: no melee yet. Shooting → melee: fought.
    ok(&mut state, Action::EndPhase, &[]);
    let events = ok(&mut state, Action::EndPhase, &[4, 3]);
    assert!(events.iter().any(|e| matches!(e, Event::Melee { .. })));
}

#[test]
fn a_charge_pivots_at_most_45_degrees() {
    let mut state = game(
        &[],
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[
            ("Ahead", "militia", 24.0, 14.0, 180.0),
            ("Aside", "militia", 26.0, 11.0, 270.0),
        ],
    );
    let [foot, ahead, aside] = ["Foot", "Ahead", "Aside"].map(|n| id(&state, n));
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: foot,
            target: aside,
        },
    );
    assert!(text.contains("at most 45°"), "{text}");
    ok(
        &mut state,
        Action::Charge {
            unit: foot,
            target: ahead,
        },
        &[],
    );
}

#[test]
fn an_enemy_unit_is_charged_by_one_unit_only() {
    let mut state = game(
        &[],
        &[
            ("Left", "british-regulars", 16.0, 10.0, 0.0),
            ("Right", "british-regulars", 24.0, 10.0, 0.0),
        ],
        &[("Enemy", "militia", 20.0, 14.0, 180.0)],
    );
    let [left, right, enemy] = ["Left", "Right", "Enemy"].map(|n| id(&state, n));
    ok(
        &mut state,
        Action::Charge {
            unit: left,
            target: enemy,
        },
        &[],
    );
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: right,
            target: enemy,
        },
    );
    assert!(text.contains("may only be charged by one unit"), "{text}");
}

#[test]
fn charges_earn_no_road_bonus() {
    let features = [road(&[(20.0, 0.0), (20.0, 48.0)])];
    let mut state = game(
        &features,
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[("Enemy", "militia", 20.0, 19.0, 180.0)],
    );
    let [foot, enemy] = ["Foot", "Enemy"].map(|n| id(&state, n));
    // 7.5" to contact: within 6" + 3" by road, not within a charge's 6".
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: foot,
            target: enemy,
        },
    );
    assert!(text.contains("allowance is 6\""), "{text}");
}

/// The quick yes-or-no (which skips the contact point for targets surely
/// out of reach) agrees with the full check on every charge near the edge of
/// reach: open ground, along a road, into woods and up a hill, for foot and
/// horse, straight ahead and at an angle.
#[test]
fn quick_charge_answers_agree_with_the_full_check() {
    let hill = (
        "hill",
        Shape::Rect {
            min: p(30.0, 24.0),
            max: p(48.0, 48.0),
        },
        1.0,
    );
    let grounds = [
        Vec::new(),
        vec![road(&[(20.0, 0.0), (20.0, 48.0)])],
        vec![woods((14.0, 16.0), (26.0, 30.0))],
        vec![hill],
    ];
    let mut compared = 0;
    for features in &grounds {
        for (troop, x) in [
            ("british-regulars", 20.0),
            ("cavalry", 20.0),
            ("cavalry", 38.0),
        ] {
            let mut state = game(
                features,
                &[("Charger", troop, x, 10.0, 0.0)],
                &[("Target", "militia", x, 40.0, 180.0)],
            );
            let charge = Action::Charge {
                unit: id(&state, "Charger"),
                target: id(&state, "Target"),
            };
            let target = id(&state, "Target");
            for gap in 0..=40 {
                for (side_step, facing) in [(0.0, 180.0), (0.0, 90.0), (1.5, 135.0), (4.0, 180.0)] {
                    let y = 10.0 + 3.0 + 0.25 * f64::from(gap);
                    let base = &mut state.units[target.0].base;
                    *base = Base::new(p(x + side_step, y + 6.0), facing, base.frontage, base.depth);
                    assert_eq!(
                        state.allows(&charge),
                        state.check(&charge).is_ok(),
                        "{troop} at {x}, target {side_step}\" aside and {y}\" up facing {facing}, on {features:?}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 4 * 3 * 41 * 4);
}

#[test]
fn who_may_charge_whom() {
    let mut state = game(
        &[],
        &[
            ("Light", "british-light-infantry", 6.0, 10.0, 0.0),
            ("Foot", "british-regulars", 16.0, 10.0, 0.0),
            ("Horse", "cavalry", 26.0, 10.0, 0.0),
            ("Guns", "artillery", 36.0, 10.0, 0.0),
        ],
        &[
            ("Rifles", "riflemen", 6.0, 14.0, 180.0),
            ("Militia", "militia", 16.0, 14.0, 180.0),
            ("Gun", "artillery", 26.0, 14.0, 180.0),
            ("Target", "militia", 36.0, 14.0, 180.0),
        ],
    );
    let names = state.clone();
    let unit = |n| id(&names, n);
    let charge = |a, b| Action::Charge { unit: a, target: b };
    let text = refusal(&mut state, charge(unit("Light"), unit("Militia")));
    assert_eq!(
        text,
        "cannot charge `Militia`: british-light-infantry may only charge skirmisher"
    );
    let text = refusal(&mut state, charge(unit("Foot"), unit("Gun")));
    assert!(
        text.contains("may only charge skirmisher and infantry"),
        "{text}"
    );
    let text = refusal(&mut state, charge(unit("Guns"), unit("Target")));
    assert_eq!(text, "cannot charge: artillery never charge");
    ok(
        &mut state.clone(),
        charge(unit("Foot"), unit("Militia")),
        &[],
    );
    ok(&mut state.clone(), charge(unit("Horse"), unit("Gun")), &[]);
    ok(&mut state, charge(unit("Light"), unit("Rifles")), &[]);
}

/// Found by the soak runner: a charger already within contact
/// of its target pivots where it stands, and a pivot that swings its base
/// into the target is no charge (seed 000 Interpenetration).
#[test]
fn a_charge_whose_pivot_would_swing_into_the_target_is_refused() {
    let placed = |dx: f64| {
        let probe = game(&[], &[("Foot", "british-regulars", 20.0, 10.0, 0.0)], &[]);
        let depth = probe.units[0].base.depth;
        // The militia's near edge 0.01" beyond the Foot's front edge, its
        // centre `dx` to the right.
        game(
            &[],
            &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
            &[("Militia", "militia", 20.0 + dx, 10.0 + depth + 0.01, 180.0)],
        )
    };
    let mut state = placed(1.0);
    let [foot, militia] = ["Foot", "Militia"].map(|n| id(&state, n));
    let facing = (state.unit(militia).base.centre - state.unit(foot).base.centre).bearing();
    assert!(facing < 45.0, "{facing}");
    let turned = Base::new(
        state.unit(foot).base.centre,
        facing,
        state.unit(foot).base.frontage,
        state.unit(foot).base.depth,
    );
    assert!(
        turned.overlaps(&state.unit(militia).base),
        "the precondition"
    );
    let text = refusal(
        &mut state,
        Action::Charge {
            unit: foot,
            target: militia,
        },
    );
    assert!(text.contains("through `Militia`"), "{text}");
    // Straight ahead, the same contact is a lawful charge.
    let mut state = placed(0.0);
    let [foot, militia] = ["Foot", "Militia"].map(|n| id(&state, n));
    ok(
        &mut state,
        Action::Charge {
            unit: foot,
            target: militia,
        },
        &[],
    );
}
