//! The plan rules (HO5, HO8–HO12), each on and off, with forced
//! reaction dice: a unit's order is rolled on the Lone Warrior chart as in
//! a game, and the test checks what the rule makes of it.

use super::*;
use crate::dice::{Scripted, Seeded};
use crate::host::{Engine, Game};
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::yaml::Source;
use crate::{acw, rv};

fn tables() -> Arc<Tables> {
    Arc::new(Tables::embedded())
}

fn load(text: &str) -> Scenario {
    crate::scenario::load(Source::new("test.yaml", text), Ruleset::builtin).expect("valid")
}

mod generals;
mod orders;

/// A seed-001 scenario on a 48" square table: the British units and
/// generals, then the Americans', as YAML flow lines.
fn rv_scenario(british: &[&str], americans: &[&str]) -> Scenario {
    rv_scenario_on("", british, americans)
}

/// [`rv_scenario`] with `terrain` (YAML flow lines of features).
fn rv_scenario_on(terrain: &str, british: &[&str], americans: &[&str]) -> Scenario {
    let lines = |items: &[&str]| {
        items
            .iter()
            .map(|i| format!("      - {i}\n"))
            .collect::<String>()
    };
    let (british_generals, british_units): (Vec<&str>, Vec<&str>) =
        british.iter().partition(|i| !i.contains("troop_type"));
    let (american_generals, american_units): (Vec<&str>, Vec<&str>) =
        americans.iter().partition(|i| !i.contains("troop_type"));
    load(&format!(
        "name: t\ntitle: t\nruleset: ruinous-victory\ntable: {{ width: 48, height: 48 }}\nturns: 3\nfirst: british\n{terrain}sides:\n  - name: british\n    edge: south\n    generals:\n{}    units:\n{}  - name: americans\n    edge: north\n    generals:\n{}    units:\n{}",
        lines(&british_generals),
        lines(&british_units),
        lines(&american_generals),
        lines(&american_units),
    ))
}

fn rules_without(name: &str) -> RulesOn {
    let mut rules = all_rules();
    assert!(rules.set(name, false), "{name}");
    rules
}

fn all_rules() -> RulesOn {
    RulesOn::of(&Tables::embedded().opponent.rules)
}

fn start(scenario: &Scenario) -> Game {
    Game::start(scenario, &tables(), &mut Seeded::new(1))
        .unwrap()
        .0
}

/// Plays `side`'s actions with `opponent` (forced reaction dice first,
/// then seeded ones), the other side ending its phases, until turn
/// `until` begins; every action foe took for `side`.
fn play(
    game: &mut Game,
    opponent: &mut Opponent,
    side: usize,
    dice: &[u8],
    until: u32,
) -> Vec<Action> {
    let mut roller = Scripted::then(dice.iter().copied(), Box::new(Seeded::new(2)));
    let mut taken = Vec::new();
    while game.turn() < until && !game.is_over() {
        let action = if game.to_act() == Some(side) {
            let action = opponent.next_action(game, &mut roller).unwrap();
            taken.push(action.clone());
            action
        } else {
            game.legal_actions().last().cloned().unwrap()
        };
        let events = game.apply(&action, &mut roller).unwrap();
        opponent.observe(game, &events);
    }
    taken
}

fn rv_moved(actions: &[Action], unit: usize) -> bool {
    actions
        .iter()
        .any(|a| matches!(a, Action::Rv(rv::Action::Move { unit: who, .. }) if *who == unit))
}

fn rv_charged(actions: &[Action], unit: usize) -> bool {
    actions
        .iter()
        .any(|a| matches!(a, Action::Rv(rv::Action::Charge { unit: who, .. }) if *who == unit))
}

const FAR_GENERAL: &str = "{ name: Far, character: average, position: [2, 2] }";
const FAR_GENERAL_NORTH: &str = "{ name: North, character: average, position: [46, 46] }";

#[test]
fn an_attacker_with_no_enemy_in_its_weapons_reach_closes_in() {
    // British regulars 8" from militia: within seed 001's 12" band, but a
    // musket hits nothing beyond 6". Regulars in the open +2, die 2: 4,
    // stand and fire.
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 10], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 19], facing: south }",
        ],
    );
    for (rules, moves) in [
        (all_rules(), true),
        (rules_without("close-to-range"), false),
    ] {
        let mut game = start(&scenario);
        let mut opponent = Opponent::new(tables(), &scenario).with_rules(rules);
        let taken = play(&mut game, &mut opponent, 0, &[2], 2);
        assert_eq!(opponent.latest(0).unwrap().order(), Order::StandAndFire);
        assert_eq!(rv_moved(&taken, 0), moves, "{rules:?}: {taken:?}");
        if moves {
            let did = &opponent.decisions()[0].did;
            assert!(
                did.iter()
                    .any(|d| d.what.contains("the plan is to break the enemy army")
                        && d.what.contains("rule close-to-range")
                        && d.by == "close-to-range"),
                "{did:?}"
            );
        }
    }
}

#[test]
fn a_defender_told_to_advance_keeps_its_ground() {
    // Continentals 20" from the British: regulars +2, enemy over 15" +1,
    // die 4: 7, advance and fire.
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 4], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Line, troop_type: continentals, strength: 6, position: [24, 26], facing: south }",
        ],
    );
    for (rules, moves) in [(all_rules(), false), (rules_without("hold-the-line"), true)] {
        let mut game = start(&scenario);
        let mut opponent = Opponent::new(tables(), &scenario).with_rules(rules);
        let taken = play(&mut game, &mut opponent, 1, &[4], 2);
        assert_eq!(opponent.latest(1).unwrap().order(), Order::AdvanceAndFire);
        assert_eq!(rv_moved(&taken, 1), moves, "{rules:?}: {taken:?}");
        if !moves {
            let did = &opponent.latest(1).unwrap().did;
            assert!(
                did.iter()
                    .any(|d| d.what.contains("the plan is to hold the field")
                        && d.what.contains("rule hold-the-line")
                        && d.by == "hold-the-line"),
                "{did:?}"
            );
        }
    }
}

#[test]
fn why_lays_out_the_test_and_names_the_candidate_that_carried_it_out() {
    // The continentals of the test above: advance and fire on a die of 4,
    // held by hold-the-line, or carried out as the order says without it;
    // either way their commander first rides to lead them (general-leads).
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Foot, troop_type: british-line, strength: 6, position: [24, 4], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Line, troop_type: continentals, strength: 6, position: [24, 26], facing: south }",
        ],
    );
    for (rules, by) in [
        (
            all_rules(),
            "carried out by: general-leads (plan rule), then hold-the-line (plan rule)",
        ),
        (
            rules_without("hold-the-line"),
            "carried out by: general-leads (plan rule), then the order's instruction",
        ),
    ] {
        let mut game = start(&scenario);
        let mut opponent = Opponent::new(tables(), &scenario).with_rules(rules);
        play(&mut game, &mut opponent, 1, &[4], 2);
        let why = crate::host::repl::decision(opponent.latest(1).unwrap());
        let lines: Vec<&str> = why.lines().collect();
        assert_eq!(lines[0], "Line in turn 1:", "{why}");
        assert!(lines[1].starts_with("  reaction test ("), "{why}");
        assert!(lines.contains(&"     +4  die"), "{why}");
        assert!(
            lines.contains(&"    total 7: Advance and fire (Advance and fire. Troops in hard cover stand fast and fire.)"),
            "{why}"
        );
        assert!(lines.iter().any(|l| l.starts_with("  variant: ")), "{why}");
        assert!(lines.iter().any(|l| l.starts_with("  did: ")), "{why}");
        assert_eq!(lines.last(), Some(&format!("  {by}").as_str()), "{why}");
    }
}

#[test]
fn an_attacker_in_charge_reach_presses_home() {
    // Guards 4" from militia: regulars +2, enemy within 6" -1, die 1: 2,
    // stand and fire; in reach, arc and sight of a charge.
    let scenario = rv_scenario(
        &[
            FAR_GENERAL,
            "{ name: Guards, troop_type: guards, strength: 6, position: [24, 10], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Militia, troop_type: militia, strength: 5, position: [24, 15], facing: south }",
        ],
    );
    for (rules, charges) in [(all_rules(), true), (rules_without("press-home"), false)] {
        let mut game = start(&scenario);
        let mut opponent = Opponent::new(tables(), &scenario).with_rules(rules);
        let taken = play(&mut game, &mut opponent, 0, &[1], 2);
        assert_eq!(opponent.decisions()[0].order(), Order::StandAndFire);
        assert_eq!(rv_charged(&taken, 0), charges, "{rules:?}: {taken:?}");
        if charges {
            let did = &opponent.decisions()[0].did;
            assert!(
                did.iter()
                    .any(|d| d.what.contains("rule press-home") && d.by == "press-home"),
                "{did:?}"
            );
        }
    }
}

#[test]
fn a_commander_joins_the_unit_of_his_nearest_the_enemy() {
    // Leslie (overall) 5" behind two regiments; the 71st is nearer the
    // enemy.
    let scenario = rv_scenario(
        &[
            "{ name: Leslie, character: average, position: [20, 4] }",
            "{ name: Rear, troop_type: british-line, strength: 6, position: [14, 8], facing: north }",
            "{ name: 71st, troop_type: british-line, strength: 6, position: [26, 12], facing: north }",
        ],
        &[
            FAR_GENERAL_NORTH,
            "{ name: Militia, troop_type: militia, strength: 5, position: [26, 40], facing: south }",
        ],
    );
    for (rules, joins) in [(all_rules(), true), (rules_without("general-leads"), false)] {
        let mut game = start(&scenario);
        let mut opponent = Opponent::new(tables(), &scenario).with_rules(rules);
        let taken = play(&mut game, &mut opponent, 0, &[3, 3], 2);
        let joined = taken.iter().any(|a| {
            matches!(
                a,
                Action::Rv(rv::Action::Join {
                    commander: 0,
                    unit: 1
                })
            )
        });
        assert_eq!(joined, joins, "{rules:?}: {taken:?}");
        if joins {
            let did = &opponent.decisions()[1].did;
            assert!(
                did.iter().any(|d| d.what.contains("Leslie joined it")
                    && d.what.contains("rule general-leads")
                    && d.by == "general-leads"),
                "{did:?}"
            );
        }
    }
}

/// A seed-002 scenario on a 36" table with Henry House Hill's cone (centre
/// 18,18, radius 11) and the Union to hold `area`.
fn acw_scenario(union: &[&str], confederates: &[&str], area: &str) -> Scenario {
    acw_scenario_held_by(union, confederates, area, "union")
}

/// [`acw_scenario`], with `holder` the side that must hold the area (the
/// attacker); the Union assigns its dice first either way.
fn acw_scenario_held_by(
    union: &[&str],
    confederates: &[&str],
    area: &str,
    holder: &str,
) -> Scenario {
    let hill = "terrain:\n  - { kind: hill, name: hill, circle: { centre: [18, 18], radius: 11 }, height: 1 }\n";
    load(&acw_scenario_text(union, confederates, area, holder, hill))
}

/// The text of [`acw_scenario_held_by`] on `terrain` (a `terrain:` list).
fn acw_scenario_text(
    union: &[&str],
    confederates: &[&str],
    area: &str,
    holder: &str,
    terrain: &str,
) -> String {
    let lines = |items: &[&str]| {
        items
            .iter()
            .map(|i| format!("      - {i}\n"))
            .collect::<String>()
    };
    format!(
        "name: t\ntitle: t\nruleset: ohw-acw\ntable: {{ width: 36, height: 36 }}\nturns: 3\nfirst: union\n{terrain}areas:\n  - {{ name: the plateau, rect: {area} }}\nsides:\n  - name: union\n    edge: north\n    generals:\n      - {{ name: U, character: average, position: [2, 34] }}\n    units:\n{}  - name: confederates\n    edge: south\n    generals:\n      - {{ name: C, character: average, position: [2, 2] }}\n    units:\n{}victory:\n  - winner: {holder}\n    when: {{ hold_area: {{ side: {holder}, area: the plateau }} }}\n",
        lines(union),
        lines(confederates),
    )
}

/// Roll the reaction tests of the side assigning first (forced dice), give
/// out the dice, hold every other unit, and ask the opponent what `unit`
/// does when its die comes up.
fn acw_activation(
    scenario: &Scenario,
    rules: RulesOn,
    dice: &[u8],
    unit: usize,
) -> (Order, acw::Action, Did) {
    let mut game = start(scenario);
    let mut opponent = Opponent::new(tables(), scenario).with_rules(rules);
    acw_activation_in(&mut game, &mut opponent, dice, unit)
}

/// [`acw_activation`] on a game and an opponent made ready by the test.
fn acw_activation_in(
    game: &mut Game,
    opponent: &mut Opponent,
    dice: &[u8],
    unit: usize,
) -> (Order, acw::Action, Did) {
    let mut roller = Scripted::then(dice.iter().copied(), Box::new(Seeded::new(5)));
    opponent.next_action(game, &mut roller).unwrap();
    loop {
        let Game::Acw(state) = &*game else {
            panic!("a seed-002 game")
        };
        let action = match state.phase() {
            acw::Phase::Activating if state.up_next().contains(&acw::UnitId(unit)) => {
                let (by, (action, what)) = opponent.acw_activate(state, acw::UnitId(unit));
                return (opponent.order_of(unit), action, Did { what, by });
            }
            acw::Phase::Activating => acw::Action::Hold {
                unit: state.up_next()[0],
            },
            acw::Phase::Over => panic!("the game ended"),
            _ => match game.legal_actions().first() {
                Some(Action::Acw(action)) => action.clone(),
                other => panic!("{other:?}"),
            },
        };
        game.apply(&Action::Acw(action), &mut roller).unwrap();
    }
}

#[test]
fn a_seed_002_unit_with_the_enemy_off_its_front_turns_to_where_it_can_fire() {
    // Blue faces east; Grey stands 3.5" to its south, in sight but off its
    // front, so Blue has no shot. Regulars in the open +2, enemy within 6"
    // -1, die 2: 3, stand and fire.
    let scenario = acw_scenario(
        &["{ name: Blue, troop_type: infantry, position: [4, 34], facing: east }"],
        &["{ name: Grey, troop_type: infantry, position: [4, 29], facing: north }"],
        "[[30, 2], [34, 6]]",
    );
    let (order, action, did) = acw_activation(&scenario, all_rules(), &[2], 0);
    assert_eq!(order, Order::StandAndFire);
    assert!(matches!(action, acw::Action::Move { .. }), "{action:?}");
    assert!(did.what.contains("rule find-a-shot"), "{did}");
    assert_eq!(did.by, "find-a-shot");
    let (_, action, _) = acw_activation(&scenario, rules_without("find-a-shot"), &[2], 0);
    assert!(matches!(action, acw::Action::Hold { .. }), "{action:?}");
}

#[test]
fn find_a_shot_does_not_move_a_unit_whose_enemy_is_only_out_of_range() {
    // The Confederates must take the plateau, so the Union defends. Blue
    // sees Grey 15" off, beyond its reach: no shot for want of range, not
    // of sight or arc, so find-a-shot leaves it where it stands (regulars
    // in the open +2, enemy 15" or less, die 3: 5, stand and fire).
    let scenario = acw_scenario_held_by(
        &["{ name: Blue, troop_type: infantry, position: [4, 34], facing: south }"],
        &["{ name: Grey, troop_type: infantry, position: [4, 19], facing: north }"],
        "[[30, 2], [34, 6]]",
        "confederates",
    );
    let (order, action, did) = acw_activation(&scenario, all_rules(), &[3], 0);
    assert_eq!(order, Order::StandAndFire);
    assert!(
        matches!(action, acw::Action::Hold { .. }),
        "{action:?}: {did}"
    );
    assert!(!did.what.contains("find-a-shot"), "{did}");
}

#[test]
fn seed_002_cavalry_of_the_attacker_presses_home_when_the_seed_allows() {
    // Union horse 4" in front of Confederate infantry: light cavalry in the
    // open +4, enemy within 6" -1, die 1: 4, stand and fire. Mounted
    // cavalry may charge anything (seed 002).
    let scenario = acw_scenario(
        &["{ name: Horse, troop_type: cavalry, position: [18, 34], facing: south }"],
        &["{ name: Grey, troop_type: infantry, position: [18, 29], facing: north }"],
        "[[11, 12], [26, 24]]",
    );
    let (order, action, did) = acw_activation(&scenario, all_rules(), &[1], 0);
    assert_eq!(order, Order::StandAndFire);
    assert!(matches!(action, acw::Action::Charge { .. }), "{action:?}");
    assert!(did.what.contains("rule press-home"), "{did}");
    assert_eq!(did.by, "press-home");
    let (_, action, _) = acw_activation(&scenario, rules_without("press-home"), &[1], 0);
    assert!(!matches!(action, acw::Action::Charge { .. }), "{action:?}");
}

#[test]
fn seed_002_advances_go_for_the_objective_and_defenders_hold() {
    // Union infantry far from everything: regulars +2, enemy over 15" +1
    // and perhaps out of sight +3; die 4: 7 or 10, an advance or a charge
    // with nothing to charge. The enemy is west, the plateau east.
    let scenario = acw_scenario(
        &["{ name: Blue, troop_type: infantry, position: [18, 33], facing: south }"],
        &["{ name: Grey, troop_type: infantry, position: [3, 10], facing: north }"],
        "[[28, 20], [35, 30]]",
    );
    let area_centre = Point::new(31.5, 25.0);
    let enemy = Point::new(3.0, 10.0);
    let ends = |action: &acw::Action| match action {
        acw::Action::Move { to, .. } => *to,
        other => panic!("{other:?}"),
    };
    let (order, action, did) = acw_activation(&scenario, all_rules(), &[4], 0);
    assert!(
        matches!(order, Order::AdvanceAndFire | Order::Charge),
        "{order:?}"
    );
    assert!(
        did.what.contains("the plan is to take the plateau"),
        "{did}"
    );
    assert_eq!(did.by, "advance-on-objective");
    let to = ends(&action);
    assert!(to.distance(area_centre) < Point::new(18.0, 33.0).distance(area_centre));
    let (_, action, did) =
        acw_activation(&scenario, rules_without("advance-on-objective"), &[4], 0);
    assert_eq!(did.by, ORDER, "{did}");
    let to = ends(&action);
    assert!(to.distance(enemy) < Point::new(18.0, 33.0).distance(enemy));
}

#[test]
fn every_rule_is_switched_by_its_own_name_and_only_that_one() {
    let shipped = all_rules();
    for name in RULE_NAMES {
        let mut tables = Tables::embedded();
        assert_eq!(tables.opponent.rules.is_on(name), Some(true), "{name}");
        tables.opponent.rules.set(name, false).unwrap();
        let mut expected = shipped;
        assert!(expected.set(name, false), "{name}");
        assert_eq!(RulesOn::of(&tables.opponent.rules), expected, "{name}");
    }
    let mut tables = Tables::embedded();
    tables.opponent.rules.set("all", false).unwrap();
    assert_eq!(RulesOn::of(&tables.opponent.rules), RulesOn::none());
}

#[test]
fn a_switch_no_rule_here_follows_is_refused_whichever_way_it_is_thrown() {
    let check = |settings_words: &[&str]| {
        let mut tables = Tables::embedded();
        for word in settings_words {
            tables.opponent.rules.apply_setting(word).unwrap();
        }
        check_switches(&tables, Engine::Rv, "ruinous-victory")
    };
    // As shipped, and pure Lone Warrior.
    assert_eq!(check(&[]), Ok(()));
    assert_eq!(check(&["all=off"]), Ok(()));
    assert_eq!(check(&["press-home=off"]), Ok(()));
    // No seed-001 rule follows `cavalry-reserve`, `stand-off` or
    // `focus-fire`: switching one off alone would change nothing.
    let off = check(&["cavalry-reserve=off"]).unwrap_err();
    assert!(off.starts_with("--rule cavalry-reserve=off:"), "{off}");
    let off = check(&["stand-off=off"]).unwrap_err();
    assert!(off.starts_with("--rule stand-off=off:"), "{off}");
    let off = check(&["focus-fire=off"]).unwrap_err();
    assert!(off.starts_with("--rule focus-fire=off:"), "{off}");
    // One vocabulary: seed 002's `find-a-shot` is switched by its own name
    // there, and refused where no opponent follows it.
    let switched = |engine: Engine, ruleset: &str| {
        let mut tables = Tables::embedded();
        tables
            .opponent
            .rules
            .apply_setting("find-a-shot=off")
            .unwrap();
        check_switches(&tables, engine, ruleset)
    };
    assert_eq!(switched(Engine::Acw, "ohw-acw"), Ok(()));
    for (engine, ruleset) in [(Engine::Awi, "ohw-awi"), (Engine::Rv, "ruinous-victory")] {
        let off = switched(engine, ruleset).unwrap_err();
        assert!(off.contains("does not follow `find-a-shot`"), "{off}");
    }
}

#[test]
fn a_seed_002_defender_told_to_advance_holds() {
    // The same ground with the Confederates to take the plateau: the Union
    // (assigning first) defends, and its advance out of reach holds.
    let scenario = acw_scenario_held_by(
        &["{ name: Blue, troop_type: infantry, position: [18, 33], facing: south }"],
        &["{ name: Grey, troop_type: infantry, position: [3, 10], facing: north }"],
        "[[28, 20], [35, 30]]",
        "confederates",
    );
    let (order, action, did) = acw_activation(&scenario, all_rules(), &[4], 0);
    assert!(
        matches!(order, Order::AdvanceAndFire | Order::Charge),
        "{order:?}"
    );
    assert!(matches!(action, acw::Action::Hold { .. }), "{action:?}");
    assert!(
        did.what.contains("the plan is to hold the plateau")
            && did.what.contains("rule hold-the-line"),
        "{did}"
    );
    assert_eq!(did.by, "hold-the-line");
    let (_, action, did) = acw_activation(&scenario, rules_without("hold-the-line"), &[4], 0);
    assert!(matches!(action, acw::Action::Move { .. }), "{action:?}");
    assert_eq!(did.by, ORDER, "{did}");
}
