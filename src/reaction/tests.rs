use super::*;
use crate::tables::{Move, Towards};
use proptest::prelude::*;

fn tables() -> Tables {
    Tables::embedded()
}

fn rangers() -> Situation {
    Situation {
        class: "rangers".into(),
        column: Some(Column::Open),
        enemy_in_sight: true,
        ..Situation::default()
    }
}

fn factor_lines(outcome: &Outcome) -> Vec<(String, i32)> {
    outcome
        .factors
        .iter()
        .map(|factor| (factor.label.to_string(), factor.value))
        .collect()
}

// The seed's worked example: a unit of rangers encamped in open ground off
// the table, over four bounds (seed 004, "Example").

#[test]
fn worked_example_bound_1_out_of_sight_marches_in_column() {
    let situation = Situation {
        enemy_in_sight: false,
        enemy_distance: Some(16.0),
        formation: Some(Formation::Column),
        ..rangers()
    };
    let outcome = test(&tables(), &situation, Options::default(), 4).unwrap();
    assert_eq!(
        factor_lines(&outcome),
        [
            ("Rangers in open ground".into(), 0),
            ("No enemy in sight".into(), 3),
            ("Enemy over 15\"".into(), 1)
        ]
    );
    assert_eq!(outcome.total, 8);
    assert_eq!(outcome.order, Order::AdvanceAndFire);
    assert_eq!(outcome.instruction.moves, Move::Full);
    assert_eq!(outcome.instruction.formation, Some(Formation::Column));
    assert_eq!(outcome.instruction.towards, Some(Towards::Front));
    assert!(
        outcome
            .instruction
            .does
            .contains("march in column at normal speed"),
        "{}",
        outcome.instruction.does
    );
}

#[test]
fn worked_example_bound_2_enemy_in_sight_deploys_into_skirmish_line() {
    let situation = Situation {
        enemy_distance: Some(18.0),
        formation: Some(Formation::Column),
        ..rangers()
    };
    let outcome = test(&tables(), &situation, Options::default(), 4).unwrap();
    assert_eq!(
        factor_lines(&outcome),
        [
            ("Rangers in open ground".into(), 0),
            ("Enemy over 15\"".into(), 1)
        ]
    );
    assert_eq!(outcome.total, 5);
    assert_eq!(outcome.order, Order::StandAndFire);
    assert_eq!(outcome.instruction.formation, Some(Formation::Skirmish));
    assert_eq!(&*outcome.instruction.does, "Deploy into skirmish order.");
}

#[test]
fn worked_example_bound_3_two_casualties_fire_and_withdraw() {
    let situation = Situation {
        enemy_distance: Some(5.0),
        casualties: 2,
        ..rangers()
    };
    let outcome = test(&tables(), &situation, Options::default(), 3).unwrap();
    assert_eq!(
        factor_lines(&outcome),
        [
            ("Rangers in open ground".into(), 0),
            ("Enemy within 6\"".into(), -1),
            ("2 figures lost last bound".into(), -2)
        ]
    );
    assert_eq!(outcome.total, 0);
    assert_eq!(outcome.order, Order::FireAndWithdraw);
    assert_eq!(outcome.instruction.towards, Some(Towards::Cover));
    assert_eq!(outcome.instruction.moves, Move::Half);
    assert_eq!(outcome.move_inches, 3.0);
}

#[test]
fn worked_example_bound_4_reads_the_chart_not_the_misprint() {
    // The seed prints "Enemy within 6 inches -1" and "TOTAL +1"; the chart's
    // natural-cover column says -2, and 2 - 2 + 4 is 4. Ruled: the chart wins;
    // the order (stand and fire) is the same either way. The rangers fired and
    // withdrew last bound, but this bound they are asked in natural cover: the
    // example treats the withdrawal as over, so withdrew_last_bound is false.
    let situation = Situation {
        column: Some(Column::Natural),
        enemy_distance: Some(5.0),
        ..rangers()
    };
    let outcome = test(&tables(), &situation, Options::default(), 4).unwrap();
    assert_eq!(
        factor_lines(&outcome),
        [
            ("Rangers in natural cover".into(), 2),
            ("Enemy within 6\"".into(), -2)
        ]
    );
    assert_eq!(outcome.total, 4);
    assert_eq!(outcome.order, Order::StandAndFire);
}

/// One case per line: (what, situation tweak, die, expected total, expected order).
#[test]
fn factor_table_cases() {
    let tables = tables();
    let check = |what: &str, situation: Situation, die: u8, total: i32, order: Order| {
        let outcome = test(&tables, &situation, Options::default(), die).unwrap();
        assert_eq!(
            (outcome.total, outcome.order),
            (total, order),
            "{what}: {:?}",
            outcome.factors
        );
    };
    let regulars = Situation {
        class: "british-regulars".into(),
        column: Some(Column::Open),
        enemy_in_sight: true,
        ..Situation::default()
    };
    check(
        "regulars in the open",
        regulars.clone(),
        1,
        3,
        Order::StandAndFire,
    );
    check(
        "general within 3 in open",
        Situation {
            general_within_3: true,
            ..regulars.clone()
        },
        5,
        9,
        Order::Charge,
    );
    check(
        "sees enemy retreat in open",
        Situation {
            sees_enemy_retreat: true,
            ..regulars.clone()
        },
        2,
        9,
        Order::Charge,
    );
    check(
        "lost melee in hard cover",
        Situation {
            column: Some(Column::Hard),
            lost_melee: true,
            ..regulars.clone()
        },
        1,
        2,
        Order::StandAndFire,
    );
    check(
        "skirmish order in the open",
        Situation {
            skirmish_order: true,
            ..regulars.clone()
        },
        1,
        2,
        Order::StandAndFire,
    );
    check(
        "under half strength",
        Situation {
            under_half: true,
            ..regulars.clone()
        },
        6,
        2,
        Order::StandAndFire,
    );
    check(
        "support only counts in retreat",
        Situation {
            support_within_6: true,
            ..regulars.clone()
        },
        1,
        3,
        Order::StandAndFire,
    );
    check(
        "withdrew last bound: cover disregarded",
        Situation {
            column: Some(Column::Hard),
            withdrew_last_bound: true,
            support_within_6: true,
            ..regulars.clone()
        },
        1,
        3,
        Order::StandAndFire,
    );
    check(
        "exactly 6 inches is within 6",
        Situation {
            enemy_distance: Some(6.0),
            ..regulars.clone()
        },
        1,
        2,
        Order::StandAndFire,
    );
    check(
        "exactly 15 inches is not over 15",
        Situation {
            enemy_distance: Some(15.0),
            ..regulars.clone()
        },
        1,
        3,
        Order::StandAndFire,
    );
    let militia = Situation {
        class: "local-militia".into(),
        column: Some(Column::Open),
        enemy_in_sight: true,
        ..Situation::default()
    };
    check(
        "local militia in the open",
        militia.clone(),
        2,
        0,
        Order::FireAndWithdraw,
    );
    check(
        "rash militia",
        Situation {
            character: Some(Character::Rash),
            ..militia.clone()
        },
        2,
        2,
        Order::StandAndFire,
    );
    check(
        "timid militia",
        Situation {
            character: Some(Character::Timid),
            ..militia.clone()
        },
        2,
        -2,
        Order::Withdraw,
    );
    check(
        "withdrew last bound and scores -1 routs",
        Situation {
            withdrew_last_bound: true,
            ..militia.clone()
        },
        1,
        -1,
        Order::Rout,
    );
    check(
        "indians alias",
        Situation {
            class: "indians".into(),
            ..militia.clone()
        },
        1,
        0,
        Order::FireAndWithdraw,
    );
}

#[test]
fn the_optional_own_rout_factor_counts_only_when_switched_on() {
    let tables = tables();
    let situation = Situation {
        sees_own_rout: true,
        ..rangers()
    };
    assert_eq!(
        test(&tables, &situation, Options::default(), 3)
            .unwrap()
            .total,
        3
    );
    assert_eq!(
        test(
            &tables,
            &situation,
            Options {
                sees_own_rout: true
            },
            3
        )
        .unwrap()
        .total,
        1
    );
}

#[test]
fn disordered_troops_reform_whatever_else_holds() {
    let tables = tables();
    let militia = Situation {
        class: "local-militia".into(),
        column: Some(Column::Open),
        disordered: true,
        ..Situation::default()
    };
    // Out of sight and range, stand and fire: reform, not stand fast.
    let outcome = test(&tables, &militia, Options::default(), 2).unwrap();
    assert_eq!(outcome.order, Order::StandAndFire);
    assert_eq!(*outcome.instruction.becomes, ["reformed"]);
    // Behind hard cover in sight, advance and fire: reform, not fire.
    let hard = Situation {
        class: "british-regulars".into(),
        column: Some(Column::Hard),
        enemy_in_sight: true,
        enemy_distance: Some(10.0),
        ..militia.clone()
    };
    let outcome = test(&tables, &hard, Options::default(), 6).unwrap();
    assert_eq!(outcome.order, Order::AdvanceAndFire);
    assert_eq!(*outcome.instruction.becomes, ["reformed"]);
    assert_eq!(outcome.instruction.fire, crate::tables::Fire::None);
    // Out of sight, advance and fire: reform, not march in column.
    let unseen = Situation {
        enemy_in_sight: false,
        enemy_distance: None,
        ..hard
    };
    let outcome = test(&tables, &unseen, Options::default(), 3).unwrap();
    assert_eq!(outcome.order, Order::AdvanceAndFire);
    assert_eq!(*outcome.instruction.becomes, ["reformed"]);
}

/// R18 over the whole table, so a new variant cannot slip in ahead of
/// reform: in every order that has a `disordered` variant, no variant a
/// disordered unit could also meet comes before it. No condition rules
/// disorder out, so the first variant naming it must be the first variant.
#[test]
fn no_variant_shadows_disordered_reform() {
    use crate::tables::Condition;
    let tables = tables();
    for (order, text) in &tables.orders.orders {
        let Some(reform) = text
            .variants
            .iter()
            .position(|variant| variant.when.contains(&Condition::Disordered))
        else {
            continue;
        };
        assert!(
            reform == 0,
            "order `{}`: variant {:?} comes before the disordered variant, \
             so a disordered unit meeting it never reforms (R18)",
            order.id(),
            text.variants[0].when
        );
    }
}

#[test]
fn variants_follow_the_seed() {
    let tables = tables();
    let order_of =
        |situation: Situation, die: u8| test(&tables, &situation, Options::default(), die).unwrap();
    let hard = Situation {
        class: "british-regulars".into(),
        column: Some(Column::Hard),
        enemy_in_sight: true,
        enemy_distance: Some(10.0),
        ..Situation::default()
    };
    let outcome = order_of(hard, 5);
    assert_eq!(outcome.order, Order::AdvanceAndFire);
    assert_eq!(
        outcome.instruction.moves,
        Move::None,
        "behind hard cover, stand fast and fire"
    );

    let guns = Situation {
        class: "artillery".into(),
        column: Some(Column::Open),
        enemy_in_sight: true,
        ..Situation::default()
    };
    let outcome = order_of(
        Situation {
            withdrew_last_bound: true,
            casualties: 3,
            ..guns.clone()
        },
        1,
    );
    assert_eq!(outcome.order, Order::Rout);
    assert_eq!(*outcome.instruction.becomes, ["routed", "guns-abandoned"]);
    let outcome = order_of(
        Situation {
            casualties: 2,
            ..guns.clone()
        },
        1,
    );
    assert_eq!(outcome.order, Order::FireAndWithdraw);
    assert!(outcome.instruction.does.contains("lie down"));
    let outcome = order_of(
        Situation {
            general_within_3: true,
            ..guns.clone()
        },
        6,
    );
    assert_eq!(outcome.order, Order::Charge);
    assert_eq!(outcome.instruction.moves, Move::None, "guns never charge");

    let close_order = Situation {
        class: "provincial-militia".into(),
        column: Some(Column::Open),
        enemy_in_sight: true,
        casualties: 2,
        ..Situation::default()
    };
    let outcome = order_of(close_order.clone(), 1);
    assert_eq!(outcome.order, Order::FireAndWithdraw);
    assert_eq!(
        *outcome.instruction.becomes,
        ["disordered"],
        "close order troops are disordered and do not fire"
    );

    let outcome = order_of(
        Situation {
            casualties: 0,
            enemy_distance: Some(4.0),
            ..close_order.clone()
        },
        3,
    );
    assert_eq!(outcome.order, Order::StandAndFire);
    assert_eq!(
        outcome.notes.len(),
        1,
        "double volleys at close order within 6"
    );

    let skirmishers = Situation {
        class: "light-infantry".into(),
        column: Some(Column::Natural),
        enemy_in_sight: true,
        enemy_distance: Some(5.0),
        general_within_3: true,
        ..Situation::default()
    };
    let outcome = order_of(skirmishers, 6);
    assert_eq!(outcome.order, Order::AdvanceAndFire);
    assert_eq!(
        outcome.instruction.formation,
        Some(Formation::Skirmish),
        "light troops advance in skirmish order"
    );

    let cavalry = Situation {
        class: "light-cavalry".into(),
        column: Some(Column::Natural),
        enemy_in_sight: true,
        ..Situation::default()
    };
    let outcome = order_of(cavalry, 2);
    assert_eq!(outcome.instruction.formation, Some(Formation::Dismounted));
}

#[test]
fn bad_situations_are_refused_with_a_reason() {
    let tables = tables();
    let error = |situation: Situation, die: u8| {
        test(&tables, &situation, Options::default(), die)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(rangers(), 7),
        "die must be a D6 roll from 1 to 6, not 7"
    );
    assert_eq!(
        error(
            Situation {
                class: "rangrs".into(),
                ..rangers()
            },
            3
        ),
        "unknown troop class `rangrs`; did you mean `rangers`?"
    );
    assert_eq!(
        error(
            Situation {
                character: Some(Character::Rash),
                ..rangers()
            },
            3
        ),
        "rangers have no character rating; only militia and provincial classes are rated"
    );
    assert_eq!(
        error(
            Situation {
                skirmish_order: true,
                ..rangers()
            },
            3
        ),
        "the skirmish-order factor is for line infantry; rangers are light troops"
    );
    assert_eq!(
        error(
            Situation {
                formation: Some(Formation::Limbered),
                ..rangers()
            },
            3
        ),
        "rangers cannot be in limbered formation"
    );
    assert_eq!(
        error(
            Situation {
                enemy_distance: Some(-1.0),
                ..rangers()
            },
            3
        ),
        "enemy distance must be zero or more inches, not -1"
    );
    assert_eq!(
        error(
            Situation {
                enemy_distance: Some(-1e308),
                ..rangers()
            },
            3
        ),
        "enemy distance must be zero or more inches, not -1e308"
    );
}

#[test]
fn odds_of_the_worked_example_bound_3() {
    let situation = Situation {
        enemy_distance: Some(5.0),
        casualties: 2,
        ..rangers()
    };
    let odds = odds(&tables(), &situation, Options::default()).unwrap();
    // Totals -2..3 over the die: withdraw on 1-2, fire and withdraw on 3, stand and fire on 4-6.
    let expect = [
        (Order::StandAndFire, 3.0 / 6.0),
        (Order::FireAndWithdraw, 1.0 / 6.0),
        (Order::Withdraw, 2.0 / 6.0),
    ];
    assert_eq!(odds.len(), expect.len());
    for ((order, p), (want_order, want_p)) in odds.iter().zip(expect) {
        assert_eq!(*order, want_order);
        assert!((p - want_p).abs() < 1e-12);
    }
}

fn arbitrary_situation() -> impl Strategy<Value = Situation> {
    let classes = prop::sample::select(vec![
        "british-regulars",
        "troupes-de-la-marine",
        "rangers",
        "canadian-militia",
        "provincial-militia",
        "light-infantry",
        "local-militia",
        "light-cavalry",
        "artillery",
    ]);
    let columns = prop::sample::select(Column::ALL.to_vec());
    (
        classes,
        columns,
        any::<[bool; 9]>(),
        prop::option::of(0.0f64..40.0),
        0u32..12,
    )
        .prop_map(
            |(class, column, flags, enemy_distance, casualties)| Situation {
                class: class.into(),
                column: Some(column),
                enemy_in_sight: flags[0],
                general_within_3: flags[1],
                support_within_6: flags[2],
                sees_enemy_retreat: flags[3],
                lost_melee: flags[4],
                under_half: flags[5],
                withdrew_last_bound: flags[6],
                disordered: flags[7],
                sees_cavalry: flags[8],
                enemy_distance,
                casualties,
                ..Situation::default()
            },
        )
}

proptest! {
    #[test]
    fn odds_sum_to_one(situation in arbitrary_situation()) {
        let odds = odds(&tables(), &situation, Options::default()).unwrap();
        let sum: f64 = odds.iter().map(|(_, p)| p).sum();
        prop_assert!((sum - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_higher_die_never_gives_a_more_fearful_order(situation in arbitrary_situation()) {
        let tables = tables();
        let orders: Vec<Order> = (1..=6).map(|die| test(&tables, &situation, Options::default(), die).unwrap().order).collect();
        for pair in orders.windows(2) {
            prop_assert!(pair[1] <= pair[0], "{:?}", orders);
        }
    }

    #[test]
    fn the_total_is_the_sum_of_the_lines(situation in arbitrary_situation(), die in 1u8..=6) {
        let outcome = test(&tables(), &situation, Options::default(), die).unwrap();
        let sum: i32 = outcome.factors.iter().map(|f| f.value).sum::<i32>() + i32::from(die);
        prop_assert_eq!(outcome.total, sum);
        prop_assert!(tables().reaction.band(outcome.total).contains(outcome.total));
    }
}

#[test]
fn fixed_labels_read_as_their_formatted_text() {
    for ground in Column::ALL {
        assert_eq!(
            disregarded(ground),
            format!("withdrew last bound: {} disregarded", ground.title())
        );
    }
    for character in Character::ALL {
        assert_eq!(character_label(character), format!("{character} character"));
    }
}

/// `--casualties 2147483647` wrapped the total round to
/// +2147483643 and ordered a charge. The total now stops at the bottom of
/// the range, which is the most fearful band.
#[test]
fn huge_casualties_withdraw_rather_than_wrap_round_to_a_charge() {
    let tables = tables();
    for casualties in [2_147_483_647, u32::MAX] {
        let situation = Situation {
            class: "local-militia".into(),
            column: Some(Column::Retreat),
            enemy_in_sight: true,
            enemy_distance: Some(5.0),
            lost_melee: true,
            casualties,
            ..Situation::default()
        };
        let outcome = test(&tables, &situation, Options::default(), 1).unwrap();
        assert_eq!(outcome.order, Order::Withdraw, "{casualties}");
        assert_eq!(outcome.total, i32::MIN, "{casualties}");
        let lost = outcome.factors.last().unwrap();
        assert_eq!(
            lost.label.to_string(),
            format!("{casualties} figures lost last bound")
        );
        let odds = odds(&tables, &situation, Options::default()).unwrap();
        assert_eq!(odds.len(), 1);
        assert_eq!(odds[0].0, Order::Withdraw);
        assert!((odds[0].1 - 1.0).abs() < 1e-12);
        let (_, sum) = modifiers(&tables, &situation, Options::default()).unwrap();
        assert_eq!(sum, i32::MIN);
    }
}

#[test]
fn totals_stop_at_the_ends_of_the_range() {
    let factor = |value| Factor {
        id: Cow::Borrowed("x"),
        label: Label::Static("x"),
        value,
    };
    assert_eq!(total_of(&[factor(2), factor(-3)], 4), 3);
    assert_eq!(total_of(&[factor(i32::MAX), factor(1)], 6), i32::MAX);
    assert_eq!(total_of(&[factor(i32::MIN), factor(-7)], 1), i32::MIN);
    // Only the sum is clamped, not each step: a big loss offset by a big gain.
    assert_eq!(
        total_of(&[factor(i32::MIN), factor(-7), factor(100)], 1),
        i32::MIN + 94
    );
}

/// Ruling R17: the alternatives are for troops "not in sight or contact",
/// "out of sight and range". Unseen rangers with an enemy 4" off (over a
/// crest) get the order itself; 16" off, the march to the front. The chart
/// counts "no enemy in sight" either way.
#[test]
fn out_of_sight_variants_need_the_enemy_out_of_range_too() {
    let unseen = |distance: f64| Situation {
        enemy_in_sight: false,
        enemy_distance: Some(distance),
        ..rangers()
    };
    let near = test(&tables(), &unseen(4.0), Options::default(), 4).unwrap();
    let far = test(&tables(), &unseen(16.0), Options::default(), 4).unwrap();
    for outcome in [&near, &far] {
        assert!(
            outcome
                .factors
                .iter()
                .any(|factor| factor.id == "no-enemy-in-sight")
        );
    }
    assert_eq!(far.order, Order::AdvanceAndFire);
    assert_eq!(far.instruction.towards, Some(Towards::Front));
    assert_eq!(near.order, Order::AdvanceAndFire);
    assert_eq!(near.instruction.towards, Some(Towards::Enemy));
    assert!(!near.instruction.does.starts_with("Out of sight"));
    // Exactly at musket range is within it.
    let edge = test(&tables(), &unseen(6.0), Options::default(), 4).unwrap();
    assert_eq!(edge.instruction, near.instruction);
}
