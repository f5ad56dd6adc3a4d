//! Seed 000 *Musket Shooting* and *Artillery Shooting*
//! (`engine/shooting.rs`): the frontal arc, no friend near the target,
//! range and bounds, cover, and the modifiers in the order listed, seed
//! 004's volleys among them.

use super::*;

fn fired_hits(events: &[Event]) -> (u32, Vec<i32>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Fired {
                hits, modifiers, ..
            } => Some((*hits, modifiers.iter().map(|m| m.score).collect())),
            _ => None,
        })
        .expect("a Fired event")
}

#[test]
fn musket_targets_must_be_in_the_frontal_arc() {
    let mut state = game(
        &[],
        &[("Foot", "british-regulars", 20.0, 10.0, 0.0)],
        &[
            ("Ahead", "militia", 25.0, 15.0, 180.0),
            ("Aside", "militia", 27.0, 9.0, 270.0),
        ],
    );
    let [foot, ahead, aside] = ["Foot", "Ahead", "Aside"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: foot,
            target: aside,
            volley: Volley::Single,
        },
    );
    assert!(text.contains("within 45 degrees"), "{text}");
    ok(
        &mut state,
        Action::Fire {
            unit: foot,
            target: ahead,
            volley: Volley::Single,
        },
        &[3],
    );
}

#[test]
fn no_shooting_at_a_target_with_a_friend_within_3() {
    let mut state = game(
        &[],
        &[
            ("Foot", "british-regulars", 20.0, 10.0, 0.0),
            ("Friend", "british-regulars", 26.5, 15.0, 0.0),
        ],
        &[("Enemy", "militia", 20.0, 15.0, 180.0)],
    );
    let [foot, enemy] = ["Foot", "Enemy"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: foot,
            target: enemy,
            volley: Volley::Single,
        },
    );
    assert!(
        text.contains("friendly unit `Friend` is within 3\""),
        "{text}"
    );
}

#[test]
fn muskets_reach_6_inches() {
    let mut state = game(
        &[],
        &[
            ("Near", "militia", 10.0, 10.0, 0.0),
            ("Far", "militia", 30.0, 10.0, 0.0),
        ],
        &[
            ("A", "militia", 10.0, 17.5, 180.0),
            ("B", "militia", 30.0, 17.6, 180.0),
        ],
    );
    let [near, far, a, b] = ["Near", "Far", "A", "B"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let text = refusal(
        &mut state,
        Action::Fire {
            unit: far,
            target: b,
            volley: Volley::Single,
        },
    );
    assert!(text.contains("range is 6\""), "{text}");
    ok(
        &mut state,
        Action::Fire {
            unit: near,
            target: a,
            volley: Volley::Single,
        },
        &[2],
    );
}

#[test]
fn musket_modifiers_apply_in_the_order_listed() {
    let features = [woods((0.0, 15.5), (48.0, 20.0))];
    let mut state = game(
        &features,
        &[
            ("Grenadiers", "grenadiers", 10.0, 10.0, 0.0),
            ("Regulars", "british-regulars", 30.0, 10.0, 0.0),
        ],
        &[
            ("A", "militia", 10.0, 16.0, 180.0),
            ("B", "militia", 30.0, 16.0, 180.0),
        ],
    );
    let [grenadiers, regulars, a, b] = ["Grenadiers", "Regulars", "A", "B"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    // 4, +2 grenadiers = 6, −1 cover = 5.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: grenadiers,
            target: a,
            volley: Volley::Single,
        },
        &[4],
    );
    assert_eq!(fired_hits(&events), (5, vec![6, 5]));
    assert_eq!(state.units[a.0].hits, 5);
    // 2, +1 regulars = 3, −1 cover = 2.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: regulars,
            target: b,
            volley: Volley::Single,
        },
        &[2],
    );
    assert_eq!(fired_hits(&events), (2, vec![3, 2]));
}

/// Seed 000's "target in cover" is cover between the target and
/// the shooter. A fence under the front of a base covers it from an enemy
/// beyond the fence; a fence under the rear of a base, with the shooter on
/// the unit's own side, does not, though it covers the same unit from an
/// enemy beyond it.
#[test]
fn a_fence_covers_only_against_an_enemy_beyond_it() {
    let fence = (
        "fence",
        Shape::Line {
            points: vec![p(0.0, 18.0), p(48.0, 18.0)],
            width: 0.5,
        },
        0.0,
    );
    let mut state = game(
        &[fence],
        &[
            ("South", "militia", 10.0, 12.5, 0.0),
            ("Below", "militia", 30.0, 12.0, 0.0),
            ("North", "militia", 30.0, 23.5, 180.0),
        ],
        &[
            // Lining the fence from the north, facing south.
            ("Lining", "militia", 10.0, 18.9, 180.0),
            // Standing south of the fence, its rear against it.
            ("Before", "militia", 30.0, 17.2, 180.0),
        ],
    );
    let [south, below, north, lining, before] =
        ["South", "Below", "North", "Lining", "Before"].map(|n| id(&state, n));
    assert!(state.in_cover(
        &state.units[before.0].base,
        state.units[north.0].base.centre
    ));
    go_to(&mut state, 0, Phase::Shooting);
    // 3, −1 cover = 2.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: south,
            target: lining,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (2, vec![2]));
    // The fence is behind Before: no cover, 3 hits.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: below,
            target: before,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (3, vec![]));
    // From beyond the fence the same unit is covered.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: north,
            target: before,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (2, vec![2]));
}

/// Seed 004's volleys through the musket modifiers: double volleys for
/// formed foot (twice the score, house rule), the volley before a
/// withdrawal at −1 for any musket; the engine refuses a double volley to
/// skirmishers. Either side may fire both, and `legal_actions` offers the
/// double volley wherever the rule allows it, to whichever side acts.
#[test]
fn double_volleys_double_and_a_hasty_volley_is_minus_1() {
    let mut state = game(
        &[],
        &[
            ("Regulars", "british-regulars", 10.0, 10.0, 0.0),
            ("Light", "british-light-infantry", 30.0, 10.0, 0.0),
        ],
        &[
            ("A", "militia", 10.0, 15.0, 180.0),
            ("B", "militia", 30.0, 15.0, 180.0),
        ],
    );
    let [regulars, light, a, b] = ["Regulars", "Light", "A", "B"].map(|n| id(&state, n));
    let fire = |unit, target, volley| Action::Fire {
        unit,
        target,
        volley,
    };
    go_to(&mut state, 0, Phase::Shooting);
    let doubles = |state: &GameState| -> Vec<Action> {
        state
            .legal_actions()
            .into_iter()
            .filter(|action| {
                matches!(
                    action,
                    Action::Fire {
                        volley: Volley::Double | Volley::Hasty,
                        ..
                    }
                )
            })
            .collect()
    };
    assert_eq!(doubles(&state), vec![fire(regulars, a, Volley::Double)]);
    let text = refusal(&mut state, fire(light, b, Volley::Double));
    assert!(text.contains("cannot fire a double volley"), "{text}");
    // 3, +1 regulars = 4, doubled = 8.
    let events = ok(&mut state, fire(regulars, a, Volley::Double), &[3]);
    assert_eq!(fired_hits(&events), (8, vec![4, 8]));
    // 3, −1 skirmishers = 2, −1 before withdrawing = 1.
    let events = ok(&mut state, fire(light, b, Volley::Hasty), &[3]);
    assert_eq!(fired_hits(&events), (1, vec![2, 1]));
    // The other side's close-order militia, under the same rule: 3 doubled.
    go_to(&mut state, 1, Phase::Shooting);
    assert_eq!(
        doubles(&state),
        vec![
            fire(a, regulars, Volley::Double),
            fire(b, light, Volley::Double)
        ]
    );
    let events = ok(&mut state, fire(b, light, Volley::Double), &[3]);
    assert_eq!(fired_hits(&events), (6, vec![6]));
}

#[test]
fn skirmishers_shoot_at_minus_1() {
    let mut state = game(
        &[],
        &[("Light", "british-light-infantry", 10.0, 10.0, 0.0)],
        &[("A", "militia", 10.0, 15.0, 180.0)],
    );
    let [light, a] = ["Light", "A"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(
        &mut state,
        Action::Fire {
            unit: light,
            target: a,
            volley: Volley::Single,
        },
        &[3],
    );
    assert_eq!(fired_hits(&events), (2, vec![2]));
}

#[test]
fn artillery_deducts_range_bounds_and_1_for_woods() {
    let features = [woods((30.0, 28.0), (40.0, 34.0))];
    let mut state = game(
        &features,
        &[
            ("Guns", "artillery", 10.0, 10.0, 0.0),
            ("Guns2", "artillery", 35.0, 10.0, 0.0),
        ],
        // 20" gap between the bases: 4 bounds.
        &[
            ("A", "militia", 10.0, 31.75, 180.0),
            ("B", "militia", 35.0, 28.6, 180.0),
        ],
    );
    let [guns, guns2, a, b] = ["Guns", "Guns2", "A", "B"].map(|n| id(&state, n));
    go_to(&mut state, 0, Phase::Shooting);
    let events = ok(
        &mut state,
        Action::Fire {
            unit: guns,
            target: a,
            volley: Volley::Single,
        },
        &[5],
    );
    assert_eq!(fired_hits(&events), (1, vec![1]));
    // B in the wood's edge: 5 − 3 bounds − 1 = 1.
    let events = ok(
        &mut state,
        Action::Fire {
            unit: guns2,
            target: b,
            volley: Volley::Single,
        },
        &[5],
    );
    assert_eq!(fired_hits(&events), (1, vec![2, 1]));
}
