//! The opponent on small tables with forced dice: situation extraction
//! factor by factor, each order and variant, generals, reserves and
//! reinforcements, and the rally policy.

use super::*;
use crate::battlefield::tests::p;
use crate::battlefield::{Base, CellSet, Shape};
use crate::dice::{Scripted, Seeded};
use crate::rules::fixture::{Placed, SmallGame, rules_table};
use crate::rules::{Event, Phase, Status};
use crate::ruleset::Ruleset;
use crate::tables::Column;

/// British (side 0, south edge, first) and Americans (side 1, north
/// edge) on a 48" table, each with an average general in a far corner;
/// `reserves` are British reserves.
fn game_with(
    features: &[(&str, Shape, f64)],
    british: &[Placed<'_>],
    americans: &[Placed<'_>],
    reserves: &[Placed<'_>],
) -> GameState {
    SmallGame::new(british, americans)
        .features(features)
        .reserves(reserves)
        .generals_at((2.0, 46.0), (46.0, 2.0))
        .build()
}

fn game(british: &[Placed<'_>], americans: &[Placed<'_>]) -> GameState {
    game_with(&[], british, americans, &[])
}

/// An opponent whose generals have taken their start positions already.
fn opponent(state: &GameState, side: usize) -> Opponent {
    let mut opponent = Opponent::new(Arc::new(Tables::embedded()), state, side);
    for general in &mut opponent.generals {
        general.placed = true;
    }
    opponent
}

fn dice(rolls: impl IntoIterator<Item = u8>) -> Scripted {
    Scripted::then(rolls, Box::new(Seeded::new(7)))
}

/// Run the Movement phase of the side to act.
fn movement(opponent: &mut Opponent, state: &mut GameState, rolls: &[u8]) -> TurnReport {
    let mut report = TurnReport::default();
    opponent.movement(state, &mut dice(rolls.iter().copied()), &mut report);
    report
}

/// End phases until it is `side`'s Movement phase.
fn to_side(state: &mut GameState, side: usize) {
    while !(state.active == side && state.phase() == Phase::Movement) {
        state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    }
}

fn unit(state: &GameState, name: &str) -> UnitId {
    state.find_unit(name).unwrap()
}

fn memory_mut<'a>(opponent: &'a mut Opponent, state: &GameState, name: &str) -> &'a mut Memory {
    opponent.units[unit(state, name).0].as_mut().unwrap()
}

fn decision<'a>(report: &'a TurnReport, name: &str) -> &'a Decision {
    report.decisions.iter().find(|d| d.name == name).unwrap()
}

fn moved(decision: &Decision) -> Option<(Point, Point)> {
    decision.events.iter().find_map(|e| match e {
        Event::Moved { from, to, .. } => Some((*from, *to)),
        _ => None,
    })
}

const NORTH: f64 = 0.0;
const SOUTH: f64 = 180.0;

fn fence() -> (&'static str, Shape, f64) {
    (
        "fence",
        Shape::Line {
            points: vec![p(0.0, 18.0), p(48.0, 18.0)],
            width: 0.5,
        },
        0.0,
    )
}

// ---- Situation extraction, factor by factor ----

#[test]
fn the_column_is_the_best_cover_facing_the_enemy() {
    let woods = (
        "woods",
        Shape::Rect {
            min: p(30.0, 30.0),
            max: p(40.0, 40.0),
        },
        0.0,
    );
    let state = game_with(
        &[fence(), woods],
        &[("Foot", "british-regulars", 10.0, 5.0, NORTH)],
        &[
            ("Behind the fence", "militia", 24.0, 18.9, SOUTH),
            ("In the wood", "militia", 35.0, 35.0, SOUTH),
            ("In the open", "militia", 10.0, 40.0, SOUTH),
        ],
        &[],
    );
    let foot = state.unit(unit(&state, "Foot")).base.centre;
    let column = |name: &str, towards: Point| {
        read::ground_column(&state, &state.unit(unit(&state, name)).base, towards)
    };
    assert_eq!(column("Behind the fence", foot), Column::Hard);
    assert_eq!(column("In the wood", foot), Column::Natural);
    assert_eq!(column("In the open", foot), Column::Open);
    // Issue 15: the fence lies between the unit and an enemy to the south
    // only; against an enemy on its own (north) side it stands in the open.
    // The wood it stands in covers it from every side.
    let north = p(24.0, 30.0);
    assert_eq!(column("Behind the fence", north), Column::Open);
    assert_eq!(column("In the wood", p(35.0, 47.0)), Column::Natural);
    // The reading measures against the nearest enemy.
    let opponent = opponent(&state, 1);
    let id = unit(&state, "Behind the fence");
    let reading = opponent.read(&state, id, &opponent.memory(&state, id));
    assert_eq!(reading.ground, Column::Hard);
}

/// The key the readings sort distances by orders numbers as
/// `f64::total_cmp` does: negative and positive zeros, infinities, NaNs of
/// either sign, and numbers drawn at random from their bits.
#[test]
fn the_distance_key_orders_as_total_cmp() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(13);
    let mut values = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::MIN,
    ];
    values.extend((0..200).map(|_| f64::from_bits(rng.random::<u64>())));
    values.extend((0..200).map(|_| rng.random_range(0.0..60.0)));
    for &a in &values {
        for &b in &values {
            assert_eq!(
                read::total_order_key(a).cmp(&read::total_order_key(b)),
                a.total_cmp(&b),
                "{a:?} {b:?}"
            );
        }
    }
}

/// With many units on the table the memo's blocked cells come from rosters
/// kept across questions and brought up to date as units move: they are
/// the battlefield's own, worked out afresh, whichever units move (one,
/// several or none between questions), whoever asks (movers of several
/// sizes and facings) and whoever is left out; a set asked for before a
/// move keeps the answers of before it.
#[test]
fn the_memos_blocked_cells_with_many_units_are_the_battlefields_as_units_move() {
    use rand::{RngExt, SeedableRng};
    let troops = ["british-regulars", "cavalry", "militia", "riflemen"];
    let names: Vec<String> = (0..80).map(|i| format!("U{i}")).collect();
    // Eight columns of ten, clear of each other and of the generals.
    let placed = |range: std::ops::Range<usize>, facing: f64| -> Vec<Placed<'_>> {
        range
            .map(|i| {
                (
                    names[i].as_str(),
                    troops[i % troops.len()],
                    6.0 + 5.2 * (i % 8) as f64,
                    4.0 + 4.2 * (i / 8) as f64,
                    facing,
                )
            })
            .collect()
    };
    let (british, americans) = (placed(0..40, NORTH), placed(40..80, SOUTH));
    let mut state = game(&british, &americans);
    let n = state.units.len();
    assert!(n >= super::memo::ROSTER_FROM);
    let opponent = opponent(&state, 0);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
    let mut before: Option<(CellSet, CellSet)> = None;
    for round in 0..150 {
        for _ in 0..[0, 1, 1, 3][round % 4] {
            let moved = rng.random_range(0..n);
            let base = state.units[moved].base;
            // Staying put (a wheel on the spot), a step along either axis,
            // or a jump anywhere.
            let step = rng.random_range(-1.0..1.0);
            let centre = match rng.random_range(0..4) {
                0 => base.centre,
                1 => base.centre + crate::battlefield::Vector::new(step, 0.0),
                2 => base.centre + crate::battlefield::Vector::new(0.0, step),
                _ => p(rng.random_range(3.0..45.0), rng.random_range(3.0..45.0)),
            };
            let facing = if rng.random_range(0..2) == 0 {
                base.facing
            } else {
                rng.random_range(0.0..360.0)
            };
            state.units[moved].base = Base::new(centre, facing, base.frontage, base.depth);
        }
        let asking = rng.random_range(0..n);
        let left_out = rng.random_range(0..n);
        let others = (0..n).filter(|i| *i != asking && *i != left_out);
        let mut mover = state.units[asking].base;
        if rng.random_range(0..3) == 0 {
            mover = Base::new(
                mover.centre,
                rng.random_range(0.0..360.0),
                mover.frontage,
                mover.depth,
            );
        }
        let ours = opponent
            .memo
            .blocked_for(&state, &mover, others.clone().map(UnitId));
        let fresh = state
            .battlefield
            .blocked_for(&mover, others.map(|i| &state.units[i].base));
        // A few cells asked about first, as a search does, then all.
        for _ in 0..20 {
            let cell = rng.random_range(0..state.battlefield.grid.len());
            assert_eq!(ours.contains(cell), fresh.contains(cell), "round {round}");
        }
        if let Some((set, fresh)) = before.take() {
            assert_eq!(set, fresh, "round {round}, the set asked for before");
        }
        // Every fifth set is held, half worked out, over the next moves.
        if round % 5 == 0 {
            before = Some((ours, fresh));
        } else {
            assert_eq!(ours, fresh, "round {round}");
        }
    }
}

/// The memos answer exactly as the battlefield does, however the units are
/// moved about between questions (a memo entry counts only while both bases
/// stand exactly where they stood).
#[test]
fn the_memos_answer_as_the_battlefield_does_as_units_move() {
    use rand::{RngExt, SeedableRng};
    let woods = (
        "woods",
        Shape::Rect {
            min: p(20.0, 20.0),
            max: p(30.0, 30.0),
        },
        0.0,
    );
    let mut state = game_with(
        &[fence(), woods],
        &[
            ("A", "british-regulars", 10.0, 5.0, NORTH),
            ("B", "cavalry", 20.0, 8.0, NORTH),
        ],
        &[
            ("C", "militia", 24.0, 18.9, SOUTH),
            ("D", "riflemen", 35.0, 35.0, SOUTH),
        ],
        &[],
    );
    let opponent = opponent(&state, 0);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
    let n = state.units.len();
    for round in 0..400 {
        // Move one unit, or none, then ask about every pair.
        if round % 3 != 0 {
            let moved = rng.random_range(0..n);
            let base = state.units[moved].base;
            let centre = p(rng.random_range(3.0..45.0), rng.random_range(3.0..45.0));
            let facing = if rng.random_range(0..2) == 0 {
                base.facing
            } else {
                rng.random_range(0.0..360.0)
            };
            state.units[moved].base = Base::new(centre, facing, base.frontage, base.depth);
        }
        let leave_out = rng.random_range(0..n);
        let others = (0..n).filter(|i| *i != leave_out);
        let mover = state.units[leave_out].base;
        assert_eq!(
            opponent
                .memo
                .blocked_for(&state, &mover, others.clone().map(UnitId)),
            state
                .battlefield
                .blocked_for(&mover, others.map(|i| &state.units[i].base))
        );
        for a in 0..n {
            let (ua, base_a) = (UnitId(a), state.units[a].base);
            let towards = state.units[(a + 1) % n].base.centre;
            assert_eq!(
                opponent.memo.ground(&state, ua, towards),
                read::ground_column(&state, &base_a, towards)
            );
            for b in 0..n {
                let (ub, base_b) = (UnitId(b), state.units[b].base);
                assert_eq!(
                    opponent.memo.distance(&state, ua, ub).to_bits(),
                    base_a.distance_to(&base_b).to_bits()
                );
                assert_eq!(
                    opponent.memo.within(&state, ua, ub, 6.0),
                    base_a.within(&base_b, 6.0)
                );
                assert_eq!(
                    opponent.memo.in_frontal_arc(&state, ua, ub),
                    base_a.in_frontal_arc(&base_b)
                );
            }
        }
    }
}

#[test]
fn each_factor_is_read_off_the_map_on_and_off() {
    let woods = (
        "woods",
        Shape::Rect {
            min: p(0.0, 20.0),
            max: p(15.0, 30.0),
        },
        0.0,
    );
    let mut state = game_with(
        &[woods],
        &[
            ("Seen", "british-regulars", 30.0, 10.0, NORTH),
            ("Hidden", "british-regulars", 10.0, 10.0, NORTH),
            ("Friend", "british-regulars", 35.0, 10.0, NORTH),
        ],
        &[("Enemy", "militia", 10.0, 40.0, SOUTH)],
        &[],
    );
    let mut opponent = opponent(&state, 0);
    let read = |opponent: &Opponent, state: &GameState, name: &str| {
        let id = unit(state, name);
        opponent.read(state, id, &opponent.memory(state, id))
    };
    // Enemy in sight: across open ground yes, through the wood no.
    let seen = read(&opponent, &state, "Seen");
    let hidden = read(&opponent, &state, "Hidden");
    assert!(seen.situation.enemy_in_sight);
    assert!(!hidden.situation.enemy_in_sight);
    // The nearest enemy's distance is base to base, known in sight or not.
    assert!((hidden.situation.enemy_distance.unwrap() - 28.5).abs() < 1e-6);
    // Supporting troops within 6": Seen has Friend 1" away; Hidden none.
    assert!(seen.situation.support_within_6 && !hidden.situation.support_within_6);
    // A general within 3": move the British general next to Seen.
    state.generals[0].base = Base::new(p(30.0, 7.0), 0.0, 2.0, 2.0);
    assert!(read(&opponent, &state, "Seen").situation.general_within_3);
    assert!(!read(&opponent, &state, "Hidden").situation.general_within_3);
    // Casualties last bound: at its 13-hit threshold a unit of 13 figures
    // has lost 60% of them (ruling O3), so 3 hits are 1 figure (1.8
    // rounded down); it is under half (7 of 13 lost) from 12 hits.
    let seen_index = unit(&state, "Seen").0;
    state.units[seen_index].hits = 3;
    let hit = read(&opponent, &state, "Seen");
    assert_eq!(hit.situation.casualties, 1);
    assert!(!hit.situation.under_half);
    state.units[seen_index].hits = 11;
    assert!(!read(&opponent, &state, "Seen").situation.under_half);
    state.units[seen_index].hits = 12;
    assert!(read(&opponent, &state, "Seen").situation.under_half);
    memory_mut(&mut opponent, &state, "Seen").hits_at_test = 12;
    assert_eq!(read(&opponent, &state, "Seen").situation.casualties, 0);
    // Lost melee: noted from a retreat, counts until the next test.
    let seen_id = unit(&state, "Seen");
    opponent.observe(
        &state,
        &[Event::Retreated {
            unit: seen_id,
            from: p(30.0, 12.0),
            to: p(30.0, 10.0),
            facing: SOUTH,
            blocked: false,
        }],
    );
    assert!(read(&opponent, &state, "Seen").situation.lost_melee);
    assert!(!read(&opponent, &state, "Hidden").situation.lost_melee);
    // An enemy seen falling back: it moved away from our nearest unit.
    let enemy = unit(&state, "Enemy");
    assert!(!read(&opponent, &state, "Seen").situation.sees_enemy_retreat);
    opponent.observe(
        &state,
        &[Event::Moved {
            unit: enemy,
            from: p(10.0, 36.0),
            to: p(10.0, 40.0),
            facing: SOUTH,
            cost: 4.0,
            road: false,
        }],
    );
    assert!(read(&opponent, &state, "Seen").situation.sees_enemy_retreat);
    assert!(
        !read(&opponent, &state, "Hidden")
            .situation
            .sees_enemy_retreat
    );
    // Withdrew last bound: the retreat column.
    memory_mut(&mut opponent, &state, "Hidden").withdrew = true;
    assert!(
        read(&opponent, &state, "Hidden")
            .situation
            .withdrew_last_bound
    );
    // Character counts for rated classes only; skirmish order for line only.
    memory_mut(&mut opponent, &state, "Seen").class = "local-militia".into();
    opponent.set_character(seen_id, Some(Character::Brave));
    memory_mut(&mut opponent, &state, "Seen").formation = Formation::Skirmish;
    let militia = read(&opponent, &state, "Seen");
    assert_eq!(militia.situation.character, Some(Character::Brave));
    assert!(militia.situation.skirmish_order);
    let regulars = opponent.memory_for(
        &state,
        seen_id,
        "british-regulars".into(),
        None,
        Some(Character::Brave),
        None,
    );
    assert_eq!(regulars.character, None);
}

// ---- Orders and variants ----

#[test]
fn the_general_and_support_distances_are_the_tables_own() {
    // Friend 5" from Seen, the general about 4" behind it (base to base).
    let mut state = game(
        &[
            ("Seen", "british-regulars", 30.0, 10.0, NORTH),
            ("Friend", "british-regulars", 39.0, 10.0, NORTH),
        ],
        &[("Enemy", "militia", 10.0, 40.0, SOUTH)],
    );
    state.generals[0].base = Base::new(p(30.0, 5.0), 0.0, 2.0, 2.0);
    let read = |tables: Tables, state: &GameState| {
        let mut opponent = Opponent::new(Arc::new(tables), state, 0);
        for general in &mut opponent.generals {
            general.placed = true;
        }
        let id = unit(state, "Seen");
        opponent
            .read(state, id, &opponent.memory(state, id))
            .situation
    };
    // The seed's 3" and 6": the friend supports, the general is too far.
    let seed = read(Tables::embedded(), &state);
    assert!(seed.support_within_6 && !seed.general_within_3);
    // House-ruled: a general within 5", support within 4".
    let mut house = Tables::embedded();
    house.reaction.distances.general_within = 5.0;
    house.reaction.distances.support_within = 4.0;
    let ruled = read(house, &state);
    assert!(!ruled.support_within_6 && ruled.general_within_3);
}

#[test]
fn militia_behind_a_fence_with_the_enemy_at_4_inches_and_no_losses_does_not_charge_on_a_1() {
    let mut state = game_with(
        &[fence()],
        &[("Regulars", "british-regulars", 24.0, 13.4, NORTH)],
        &[("Militia", "militia", 24.0, 18.9, SOUTH)],
        &[],
    );
    to_side(&mut state, 1);
    let mut opponent = opponent(&state, 1);
    let report = movement(&mut opponent, &mut state, &[1]);
    let militia = decision(&report, "Militia");
    // Local militia in hard cover +2, enemy within 6" -2, die 1: total 1.
    assert!((militia.reading.nearest_enemy.unwrap().1 - 4.0).abs() < 0.01);
    assert_eq!(militia.outcome.column, Column::Hard);
    assert_eq!(militia.outcome.total, 1);
    assert_eq!(militia.outcome.order, Order::StandAndFire);
    assert!(militia.actions.is_empty(), "{:?}", militia.actions);
    assert_eq!(opponent.pending_fire, vec![militia.unit]);
}

#[test]
fn a_unit_that_withdrew_last_bound_and_scores_minus_1_routs() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 20.0, NORTH)],
        &[("Militia", "militia", 24.0, 26.25, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Regulars").withdrew = true;
    // A withdrawal last bound also makes the general test; Average 61-80 is D
    // (no reinforcement table: he stands).
    let report = movement(&mut opponent, &mut state, &[70, 1]);
    let regulars = decision(&report, "Regulars");
    // Retreat column: regulars 0, enemy within 6" -2, die 1: -1.
    assert_eq!(regulars.outcome.column, Column::Retreat);
    assert_eq!(regulars.outcome.total, -1);
    assert_eq!(regulars.outcome.order, Order::Rout);
    // Ruling O12 (issue 15): it routs off the table, lost to its army now.
    assert_eq!(
        regulars.actions,
        vec![Action::Rout {
            unit: regulars.unit
        }]
    );
    assert_eq!(state.unit(regulars.unit).status, Status::Routed);
    assert_eq!(state.lost(0), 1);
    assert!(regulars.withdrew);
    assert!(
        report.generals[0]
            .triggers
            .contains(&Trigger::OwnTroopsWithdrawing)
    );
}

#[test]
fn cavalry_that_rolls_a_charge_with_no_legal_target_advances_instead() {
    let mut state = game(
        &[("Dragoons", "cavalry", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // Light cavalry in the open +4, enemy over 15" +1, die 6: 11, charge.
    let report = movement(&mut opponent, &mut state, &[6]);
    let dragoons = decision(&report, "Dragoons");
    assert_eq!(dragoons.outcome.order, Order::Charge);
    assert!(
        !dragoons
            .actions
            .iter()
            .any(|a| matches!(a, Action::Charge { .. }))
    );
    assert!(matches!(
        dragoons.refused.first(),
        Some((Action::Charge { .. }, _))
    ));
    assert!(dragoons.plan.contains("O10"), "{}", dragoons.plan);
    let (from, to) = moved(dragoons).expect("it advances");
    assert!(
        (to.y - from.y - 12.0).abs() < 0.01,
        "a full 12\" move: {from} → {to}"
    );
}

#[test]
fn a_charge_goes_in_without_firing() {
    let mut state = game(
        &[("Dragoons", "cavalry", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 18.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // +4 open, enemy within 6"? 6.25" away: no; die 5: 9, charge.
    let report = movement(&mut opponent, &mut state, &[5]);
    let dragoons = decision(&report, "Dragoons");
    assert_eq!(dragoons.outcome.order, Order::Charge);
    assert!(matches!(dragoons.actions[..], [Action::Charge { .. }]));
    assert!(opponent.pending_fire.is_empty());
    assert!(
        dragoons
            .target
            .as_ref()
            .unwrap()
            .1
            .contains("lawfully charge")
    );
}

#[test]
fn artillery_that_rolls_a_charge_stands_and_fires() {
    let mut state = game(
        &[("Guns", "artillery", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 24.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // Artillery open +1, die 6, no distance factor: 7 — advance; force 9
    // with a general within 3".
    state.generals[0].base = Base::new(p(24.0, 7.0), 0.0, 2.0, 2.0);
    let report = movement(&mut opponent, &mut state, &[6]);
    let guns = decision(&report, "Guns");
    assert_eq!(guns.outcome.order, Order::Charge);
    assert!(guns.actions.is_empty());
    assert_eq!(opponent.pending_fire, vec![guns.unit]);
}

#[test]
fn advance_and_fire_stands_and_fires_in_range_and_advances_out_of_it() {
    // In range: regulars 3" from militia.
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 14.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // +2 open, -1 within 6", die 6: 7.
    let report = movement(&mut opponent, &mut state, &[6]);
    let regulars = decision(&report, "Regulars").clone();
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert!(regulars.actions.is_empty());
    assert!(regulars.plan.contains("O7"));
    state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    let mut report = report;
    opponent.shooting(&mut state, &mut dice([3]), &mut report);
    let regulars = decision(&report, "Regulars");
    assert!(matches!(regulars.actions[..], [Action::Fire { .. }]));
    assert!(
        regulars
            .events
            .iter()
            .any(|e| matches!(e, Event::Fired { roll: 3, .. }))
    );

    // Out of range: 18.5" away, in sight, it marches a full move.
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 30.0, SOUTH)],
    );
    let mut second = self::opponent(&state, 0);
    // +2 open, +1 over 15", die 4: 7.
    let report = movement(&mut second, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    let (from, to) = moved(regulars).expect("it advances");
    assert!((to.y - from.y - 6.0).abs() < 0.01);
    assert!(regulars.route.as_ref().unwrap().straight);
}

/// Seed 004, stand and fire on +3 to +5: "Troops in close order fire
/// double volleys if the target is within 6 inches" (ruling O8).
#[test]
fn close_order_standing_and_firing_at_3_to_5_fires_a_double_volley() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 14.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // +2 open, -1 within 6", die 3: 4, stand and fire; in line, 3" away.
    let report = movement(&mut opponent, &mut state, &[3]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::StandAndFire);
    assert_eq!(
        regulars.outcome.instruction.fire,
        crate::tables::Fire::Double
    );
    state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    let mut report = report;
    opponent.shooting(&mut state, &mut dice([3]), &mut report);
    let regulars = decision(&report, "Regulars");
    assert!(
        matches!(
            regulars.actions[..],
            [Action::Fire {
                volley: crate::rules::Volley::Double,
                ..
            }]
        ),
        "{:?}",
        regulars.actions
    );
    // 3, +1 regulars = 4, doubled = 8.
    assert_eq!(state.unit(unit(&state, "Militia")).hits, 8);
}

/// Seed 004, fire and withdraw: "Troops will fire a single volley, (-1)".
/// Skirmishers already in cover stay there and fire it (ruling O8).
#[test]
fn fire_and_withdraw_in_cover_fires_its_volley_at_minus_1() {
    let woods = (
        "woods",
        Shape::Rect {
            min: p(20.0, 8.0),
            max: p(28.0, 11.0),
        },
        0.0,
    );
    let mut state = game_with(
        &[woods],
        &[("Light", "light-infantry", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 15.0, SOUTH)],
        &[],
    );
    let mut opponent = opponent(&state, 0);
    let light = unit(&state, "Light");
    // The die that makes the total 0: fire and withdraw.
    let die = -opponent.preview(&state, light).unwrap().modifier;
    assert!((1..=6).contains(&die), "die {die}");
    let report = movement(&mut opponent, &mut state, &[die as u8]);
    let decision_made = decision(&report, "Light");
    assert_eq!(decision_made.outcome.order, Order::FireAndWithdraw);
    assert!(decision_made.actions.is_empty(), "it stays in its cover");
    state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    let mut report = report;
    opponent.shooting(&mut state, &mut dice([3]), &mut report);
    let light_decision = decision(&report, "Light");
    assert!(
        matches!(
            light_decision.actions[..],
            [Action::Fire {
                volley: crate::rules::Volley::Hasty,
                ..
            }]
        ),
        "{:?}",
        light_decision.actions
    );
    // 3, -1 skirmishers, -1 before withdrawing = 1.
    assert_eq!(state.unit(unit(&state, "Militia")).hits, 1);
}

/// Issue 15: routes are planned for the whole base. Two friends stand
/// just ahead with a 3" gap between them, too narrow for a 4" base: the
/// straight line is refused, and the route leads around them, not into the
/// gap (which the engine would refuse, leaving the unit stuck).
#[test]
fn a_base_too_wide_for_a_gap_goes_around_not_through() {
    let mut state = game(
        &[
            ("Regulars", "british-regulars", 24.0, 10.0, NORTH),
            ("Left", "british-regulars", 20.5, 11.6, NORTH),
            ("Right", "british-regulars", 27.5, 11.6, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    // Regulars tests first (unit order). +2 open, +1 over 15", die 4: 7, advance and fire; out of range, a
    // full move towards the militia.
    let report = movement(&mut opponent, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert!(!regulars.stuck, "{}: {:?}", regulars.plan, regulars.refused);
    let (_, to) = moved(regulars).expect("it moves");
    let route = regulars.route.as_ref().expect("by a route");
    assert!(!route.straight);
    // Not into the gap: its base stays clear of both friends.
    let base = state.unit(regulars.unit).base;
    assert_eq!(base.centre, to);
    for name in ["Left", "Right"] {
        assert!(!base.overlaps(&state.unit(unit(&state, name)).base));
    }
    assert!(
        (to.x - 24.0).abs() > 1.0,
        "it goes round a friend, not up the gap: {to}"
    );
}

/// Issue 15: the footprint mask must not close the route's goal. The
/// target stands beside another enemy, whose blocked cells (for a 4" base)
/// cover the target's centre; the route still heads there, and stops short.
#[test]
fn a_target_beside_another_enemy_can_still_be_approached_by_a_route() {
    let mut state = game(
        &[
            ("Regulars", "british-regulars", 24.0, 10.0, NORTH),
            ("Left", "british-regulars", 20.5, 11.6, NORTH),
            ("Right", "british-regulars", 27.5, 11.6, NORTH),
        ],
        &[
            ("Militia", "militia", 24.0, 40.0, SOUTH),
            ("Neighbour", "militia", 28.2, 40.0, SOUTH),
        ],
    );
    let mut opponent = opponent(&state, 0);
    let report = movement(&mut opponent, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert_eq!(
        regulars.target.as_ref().map(|t| t.0),
        Some(unit(&state, "Militia"))
    );
    assert!(!regulars.stuck, "{}: {:?}", regulars.plan, regulars.refused);
    assert!(moved(regulars).is_some());
}

#[test]
fn a_column_deploys_without_firing() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 14.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Regulars").formation = Formation::Column;
    let report = movement(&mut opponent, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::StandAndFire);
    assert!(regulars.outcome.instruction.does.contains("Deploy"));
    assert!(opponent.pending_fire.is_empty());
    assert_eq!(
        opponent.units[regulars.unit.0].as_ref().unwrap().formation,
        Formation::Line
    );
}

/// Issue 15: the march column belongs to the march. A holding unit told to
/// march in column stays where it is, so it stays in line and does not
/// waste its next bound in sight deploying.
#[test]
fn a_holding_unit_told_to_march_in_column_stays_in_line() {
    let woods = (
        "woods",
        Shape::Rect {
            min: p(0.0, 20.0),
            max: p(20.0, 30.0),
        },
        0.0,
    );
    let mut state = game_with(
        &[woods],
        &[("Regulars", "british-regulars", 10.0, 10.0, NORTH)],
        &[("Militia", "militia", 10.0, 40.0, SOUTH)],
        &[],
    );
    let mut opponent = opponent(&state, 0);
    let regulars = unit(&state, "Regulars");
    opponent.set_plan(SidePlan::defend(&state, &[("line", &[regulars])]));
    let report = movement(&mut opponent, &mut state, &[1]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert_eq!(
        regulars.outcome.instruction.formation,
        Some(Formation::Column),
        "out of sight, the order is to march in column"
    );
    assert!(regulars.actions.is_empty(), "a holding unit does not march");
    assert_eq!(
        opponent.units[regulars.unit.0].as_ref().unwrap().formation,
        Formation::Line
    );
}

#[test]
fn fire_and_withdraw_in_the_open_falls_back_disordered_without_firing() {
    let mut state = game(
        &[("Regulars", "british-regulars", 24.0, 12.0, NORTH)],
        &[("Militia", "militia", 24.0, 16.75, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    state.units[0].hits = 6;
    // +2 open, -1 within 6", -3 figures lost (6 hits, ruling O3), die 2: 0.
    let report = movement(&mut opponent, &mut state, &[2]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::FireAndWithdraw);
    let (from, to) = moved(regulars).expect("it falls back");
    assert!(
        to.y < from.y && (from.y - to.y - 3.0).abs() < 0.01,
        "half a move back"
    );
    assert!(regulars.withdrew);
    assert!(opponent.pending_fire.is_empty());
    assert!(opponent.units[0].as_ref().unwrap().disordered);
}

#[test]
fn routing_guns_are_abandoned_and_never_act_again() {
    let mut state = game(
        &[("Guns", "artillery", 24.0, 20.0, NORTH)],
        &[("Militia", "militia", 24.0, 25.5, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Guns").withdrew = true;
    // Retreat column -2, within 6" -2, die 1: -3, rout. General: 70 (D).
    let report = movement(&mut opponent, &mut state, &[70, 1]);
    let guns = decision(&report, "Guns");
    assert_eq!(guns.outcome.order, Order::Rout);
    assert!(opponent.units[guns.unit.0].as_ref().unwrap().abandoned);
    assert_eq!(state.unit(guns.unit).status, Status::Routed);
    to_side(&mut state, 1);
    to_side(&mut state, 0);
    let report = movement(&mut opponent, &mut state, &[70, 6]);
    assert!(report.decisions.is_empty(), "abandoned guns take no test");
}

// ---- Plans (rulings PL1-PL12) ----

/// Switch one of the opponent's plan rules off.
fn rule_off(opponent: &mut Opponent, name: &str) {
    Arc::make_mut(&mut opponent.tables)
        .opponent
        .rules
        .set(name, false)
        .unwrap();
}

fn rule_on(opponent: &mut Opponent, name: &str) {
    Arc::make_mut(&mut opponent.tables)
        .opponent
        .rules
        .set(name, true)
        .unwrap();
}

/// Where a decision aimed its move, if it moved.
fn moved_to(decision: &Decision) -> Point {
    moved(decision).expect("it moves").1
}

#[test]
fn a_holding_line_stands_on_an_advance_and_charges_only_at_the_line() {
    let setup = || {
        game(
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[("Militia", "militia", 24.0, 30.0, SOUTH)],
        )
    };
    let mut state = setup();
    let mut holding = opponent(&state, 0);
    let regulars = unit(&state, "Regulars");
    holding.set_plan(SidePlan::defend(&state, &[("front line", &[regulars])]));
    // +2, +1 over 15", die 6: 9, charge; nothing within 6": it holds, and
    // says so once, in words.
    let report = movement(&mut holding, &mut state, &[6]);
    let decision = decision(&report, "Regulars");
    assert_eq!(decision.outcome.order, Order::Charge);
    assert!(decision.actions.is_empty());
    assert!(
        decision.plan.contains("the front line holds its line")
            && decision.plan.contains("rule hold-the-line")
            && decision.plan.contains("charges only an enemy within 6\""),
        "{}",
        decision.plan
    );
    // The rule off: the same roll is a charge that goes forward.
    let mut state = setup();
    let mut free = opponent(&state, 0);
    free.set_plan(SidePlan::defend(&state, &[("front line", &[regulars])]));
    rule_off(&mut free, "hold-the-line");
    let report = movement(&mut free, &mut state, &[6]);
    assert!(moved(decision_of(&report, "Regulars")).is_some());
}

fn decision_of<'a>(report: &'a TurnReport, name: &str) -> &'a Decision {
    decision(report, name)
}

#[test]
fn an_attacker_told_to_stand_and_fire_out_of_reach_moves_up_to_range() {
    let setup = || {
        game(
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[("Militia", "militia", 24.0, 20.0, SOUTH)],
        )
    };
    let mut state = setup();
    let mut attacker = opponent(&state, 0);
    attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
    // +2 open, 10" away (no distance factor), die 2: 4, stand and fire.
    let report = movement(&mut attacker, &mut state, &[2]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::StandAndFire);
    assert!(
        regulars.plan.contains("rule close-to-range"),
        "{}",
        regulars.plan
    );
    // It stops 1" inside musket range: 5" from the militia, base to base.
    let id = unit(&state, "Regulars");
    let gap = state
        .unit(id)
        .base
        .distance_to(&state.unit(unit(&state, "Militia")).base);
    assert!((gap - 5.0).abs() < 0.05, "{gap}");
    assert!(
        attacker.pending_fire.is_empty(),
        "it moved, so it does not fire"
    );
    // Pure Lone Warrior: it stands where it is and does nothing.
    let mut state = setup();
    let mut purist = opponent(&state, 0);
    purist.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
    rule_off(&mut purist, "close-to-range");
    let report = movement(&mut purist, &mut state, &[2]);
    assert!(decision(&report, "Regulars").actions.is_empty());
}

#[test]
fn an_advance_goes_for_the_objective_not_the_nearest_enemy_out_of_its_way() {
    let setup = || {
        game(
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[
                ("Militia", "militia", 20.0, 30.0, SOUTH),
                ("Continentals", "continentals", 40.0, 38.0, SOUTH),
            ],
        )
    };
    let mut state = setup();
    let mut attacker = opponent(&state, 0);
    let objective = unit(&state, "Continentals");
    attacker.set_plan(SidePlan::attack(vec![objective], "the continentals"));
    // The militia, 20" away in its arc, is nearest but not in its way
    // (12"). +2 open, +1 over 15", die 4: 7, advance and fire; out of
    // range, a full move.
    let report = movement(&mut attacker, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
    assert_eq!(regulars.target.as_ref().unwrap().0, objective);
    assert!(
        regulars
            .target
            .as_ref()
            .unwrap()
            .1
            .contains("rule advance-on-objective"),
        "{:?}",
        regulars.target
    );
    assert!(moved_to(regulars).x > 24.5, "towards the Continentals");
    // The rule off: the nearest enemy, the militia, is the target.
    let mut state = setup();
    let mut free = opponent(&state, 0);
    free.set_plan(SidePlan::attack(vec![objective], "the continentals"));
    rule_off(&mut free, "advance-on-objective");
    let report = movement(&mut free, &mut state, &[4]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(regulars.target.as_ref().unwrap().0, unit(&state, "Militia"));
}

#[test]
fn a_unit_of_a_fallen_line_falls_back_behind_the_next_line() {
    let setup = || {
        let mut state = game(
            &[
                ("Steady", "british-regulars", 24.0, 20.0, NORTH),
                ("Broken", "british-regulars", 10.0, 20.0, NORTH),
                ("Reserve", "british-regulars", 40.0, 10.0, NORTH),
            ],
            &[("Militia", "militia", 24.0, 38.0, SOUTH)],
        );
        let broken = unit(&state, "Broken");
        state.units[broken.0].status = crate::rules::Status::Routed;
        state
    };
    let plan = |state: &GameState| {
        SidePlan::defend(
            state,
            &[
                ("front", &[unit(state, "Steady"), unit(state, "Broken")]),
                ("rear", &[unit(state, "Reserve")]),
            ],
        )
    };
    let mut state = setup();
    let mut defender = opponent(&state, 0);
    defender.set_plan(plan(&state));
    // Half the front line is gone: it has fallen. Steady has 8 hits since
    // its last test (4 figures at 60%): +2, +1 over 15", -4, die 1: 0, fire
    // and withdraw: it falls back behind the rear line, not straight back.
    let steady = unit(&state, "Steady");
    state.units[steady.0].hits = 8;
    let report = movement(&mut defender, &mut state, &[1]);
    let decision = decision(&report, "Steady");
    assert_eq!(decision.outcome.order, Order::FireAndWithdraw);
    assert!(
        decision.plan.contains("rule fall-back"),
        "{}",
        decision.plan
    );
    let to = moved_to(decision);
    assert!(to.x > 24.5 && to.y < 20.0, "{to:?}");
    assert!(defender.plan().lines[0].fallen && !defender.plan().lines[1].fallen);
    // The rule off: straight back towards its own edge.
    let mut state = setup();
    let mut purist = opponent(&state, 0);
    purist.set_plan(plan(&state));
    rule_off(&mut purist, "fall-back");
    state.units[steady.0].hits = 8;
    let report = movement(&mut purist, &mut state, &[1]);
    let to = moved_to(decision_of(&report, "Steady"));
    assert!((to.x - 24.0).abs() < 0.01 && to.y < 20.0, "{to:?}");
}

#[test]
fn the_last_line_holds_until_a_line_in_front_crumbles_then_goes_forward() {
    let mut state = game(
        &[
            ("Front", "british-regulars", 24.0, 20.0, NORTH),
            ("Last", "british-regulars", 24.0, 8.0, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let plan = SidePlan::defend(
        &state,
        &[
            ("front", &[unit(&state, "Front")]),
            ("last", &[unit(&state, "Last")]),
        ],
    );
    let mut defender = opponent(&state, 0);
    defender.set_plan(plan);
    // Both advance and fire (+2, +1 over 15", die 4 and 4): both hold.
    let report = movement(&mut defender, &mut state, &[4, 4]);
    assert!(decision(&report, "Last").actions.is_empty());
    // The front unit is lost: the front line crumbles and the last line
    // goes forward to meet the enemy.
    let front = unit(&state, "Front");
    state.units[front.0].status = crate::rules::Status::Routed;
    to_side(&mut state, 1);
    to_side(&mut state, 0);
    let report = movement(&mut defender, &mut state, &[4]);
    let last = decision(&report, "Last");
    assert!(last.plan.contains("rule counter-attack"), "{}", last.plan);
    assert!(moved_to(last).y > 8.5);
}

#[test]
fn the_cavalry_reserve_charges_only_an_enemy_that_wavers() {
    let setup = |hits: u32| {
        let mut state = game(
            &[("Dragoons", "cavalry", 24.0, 10.0, NORTH)],
            &[("Militia", "militia", 24.0, 18.0, SOUTH)],
        );
        let militia = unit(&state, "Militia");
        state.units[militia.0].hits = hits;
        state
    };
    for (hits, charges) in [(0, false), (7, true)] {
        let mut state = setup(hits);
        let mut attacker = opponent(&state, 0);
        attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
        // Off by default (ruling PL9): a player switches it on.
        rule_on(&mut attacker, "cavalry-reserve");
        // Light cavalry +4 open, within 6"? no (about 7"), die 6: 10, charge.
        let report = movement(&mut attacker, &mut state, &[6]);
        let dragoons = decision(&report, "Dragoons");
        assert_eq!(dragoons.outcome.order, Order::Charge);
        let charged = dragoons
            .actions
            .iter()
            .any(|action| matches!(action, Action::Charge { .. }));
        assert_eq!(charged, charges, "{hits} hits: {}", dragoons.plan);
        if !charges {
            assert!(dragoons.plan.contains("rule cavalry-reserve"));
        }
    }
}

#[test]
fn focused_fire_goes_to_the_enemy_nearest_to_breaking() {
    let run = |focus: bool| {
        let mut state = game(
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[
                ("Near", "militia", 24.0, 14.0, SOUTH),
                ("Worn", "militia", 28.5, 15.0, SOUTH),
            ],
        );
        let worn = unit(&state, "Worn");
        state.units[worn.0].hits = 5;
        let mut attacker = opponent(&state, 0);
        attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
        if !focus {
            rule_off(&mut attacker, "focus-fire");
        }
        // +2 open, -1 within 6", die 3: 4, stand and fire.
        let mut report = movement(&mut attacker, &mut state, &[3]);
        state.apply(&Action::EndPhase, &mut dice([])).unwrap();
        attacker.shooting(&mut state, &mut dice([3]), &mut report);
        let regulars = decision(&report, "Regulars");
        match regulars.actions[..] {
            [Action::Fire { target, .. }] => state.unit(target).name.clone(),
            _ => panic!("{:?}", regulars.actions),
        }
    };
    assert_eq!(run(true), "Worn");
    assert_eq!(run(false), "Near");
}

#[test]
fn an_attacker_standing_presses_home_without_a_shot_or_into_a_flank() {
    // (a friend within 3" of the militia, which takes the regulars' shot;
    // militia hits; the militia's facing) → whether the regulars charge it.
    let run = |friend: bool, hits: u32, facing: f64| {
        let mut british = vec![("Regulars", "british-regulars", 24.0, 10.0, NORTH)];
        if friend {
            british.push(("Guards", "british-regulars", 29.5, 14.0, NORTH));
        }
        let mut state = game(&british, &[("Militia", "militia", 24.0, 14.0, facing)]);
        let militia = unit(&state, "Militia");
        state.units[militia.0].hits = hits;
        let mut attacker = opponent(&state, 0);
        attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
        // +2 open, -1 within 6", die 3 (and +1 for the friend near by): a
        // stand-and-fire order either way.
        let report = movement(&mut attacker, &mut state, &[3, 3]);
        let regulars = decision(&report, "Regulars").clone();
        assert_eq!(regulars.outcome.order, Order::StandAndFire);
        let charged = regulars
            .actions
            .iter()
            .any(|action| matches!(action, Action::Charge { target, .. } if *target == militia));
        (charged, regulars)
    };
    // No shot, and the militia has a hit: it charges rather than idle.
    let (charged, regulars) = run(true, 1, SOUTH);
    assert!(charged, "{}", regulars.plan);
    assert!(regulars.pressed_home);
    assert!(
        regulars.plan.contains("rule press-home"),
        "{}",
        regulars.plan
    );
    assert!(
        regulars.plan.contains("signs of disorder"),
        "{}",
        regulars.plan
    );
    // No shot but fresh militia: it does not charge.
    let (charged, regulars) = run(true, 0, SOUTH);
    assert!(!charged, "{}", regulars.plan);
    // A shot: it stands and fires its double volley instead.
    let (charged, regulars) = run(false, 1, SOUTH);
    assert!(!charged, "{}", regulars.plan);
    assert!(!regulars.pressed_home);
    // A shot, but the militia faces east, its flank to the regulars: the
    // charge would count double (seed 000), so it charges even fresh
    // militia.
    let (charged, regulars) = run(false, 0, 90.0);
    assert!(charged, "{}", regulars.plan);
    assert!(
        regulars.plan.contains("would take a charge double") && regulars.plan.contains("×2"),
        "{}",
        regulars.plan
    );
}

#[test]
fn cavalry_that_presses_home_has_not_dismounted() {
    // Stand and fire is "dismount and deploy into a skirmish line" for
    // mounted cavalry; one that charges instead stays mounted (issue 15:
    // no formation recorded that was not taken).
    let mut state = game(
        &[("Dragoons", "cavalry", 24.0, 10.0, NORTH)],
        // Its flank to the dragoons: a charge that strikes double.
        &[("Militia", "militia", 24.0, 15.0, 90.0)],
    );
    let mut attacker = opponent(&state, 0);
    attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
    let report = movement(&mut attacker, &mut state, &[1]);
    let dragoons = decision(&report, "Dragoons").clone();
    assert_eq!(dragoons.outcome.order, Order::StandAndFire);
    assert!(dragoons.pressed_home, "{}", dragoons.plan);
    assert_eq!(
        memory_mut(&mut attacker, &state, "Dragoons").formation,
        crate::tables::Formation::Mounted
    );
}

#[test]
fn an_attacker_told_to_advance_presses_home_on_an_enemy_in_disorder() {
    // (militia hits, press-home on) → whether the regulars charge.
    let run = |hits: u32, press: bool| {
        let mut state = game(
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[("Militia", "militia", 24.0, 14.0, SOUTH)],
        );
        let militia = unit(&state, "Militia");
        state.units[militia.0].hits = hits;
        let mut attacker = opponent(&state, 0);
        attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
        if !press {
            rule_off(&mut attacker, "press-home");
        }
        // +2 open, -1 within 6", die 5: 6, advance and fire; already in
        // range, so without the rule it stands and fires (ruling O7).
        let report = movement(&mut attacker, &mut state, &[5]);
        let regulars = decision(&report, "Regulars").clone();
        assert_eq!(regulars.outcome.order, Order::AdvanceAndFire);
        let charged = regulars
            .actions
            .iter()
            .any(|action| matches!(action, Action::Charge { target, .. } if *target == militia));
        (charged, regulars, state)
    };
    // One hit: "any signs of disorder", so it charges.
    let (charged, regulars, state) = run(1, true);
    assert!(charged, "{}", regulars.plan);
    assert!(regulars.pressed_home);
    assert!(
        regulars.plan.contains("rule press-home"),
        "{}",
        regulars.plan
    );
    assert!(
        regulars.plan.contains("1 of the 13 hits"),
        "{}",
        regulars.plan
    );
    let paragraph = crate::render::opponent::paragraph(&state, &regulars);
    assert!(
        paragraph.starts_with(
            "Regulars: Advance and fire (6). Presses home (rule press-home): charges Militia"
        ),
        "{paragraph}"
    );
    // Fresh (no hits), or the rule off: it stands to fire.
    for (hits, press) in [(0, true), (7, false)] {
        let (charged, regulars, _) = run(hits, press);
        assert!(
            !charged,
            "{hits} hits, press-home {press}: {}",
            regulars.plan
        );
        assert!(!regulars.pressed_home);
        assert!(
            regulars.plan.contains("stands and fires"),
            "{}",
            regulars.plan
        );
    }
}

#[test]
fn fire_goes_to_the_objectives_units_in_reach_first() {
    let run = |on: bool| {
        let mut state = game(
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[
                ("Worn", "militia", 24.0, 14.0, SOUTH),
                ("Continentals", "continentals", 28.5, 15.0, SOUTH),
            ],
        );
        let worn = unit(&state, "Worn");
        state.units[worn.0].hits = 5;
        let continentals = unit(&state, "Continentals");
        let mut attacker = opponent(&state, 0);
        attacker.set_plan(SidePlan::attack(vec![continentals], "the continentals"));
        if !on {
            rule_off(&mut attacker, "fire-on-objective");
        }
        // +2 open, -1 within 6", die 3: 4, stand and fire.
        let mut report = movement(&mut attacker, &mut state, &[3]);
        state.apply(&Action::EndPhase, &mut dice([])).unwrap();
        attacker.shooting(&mut state, &mut dice([3]), &mut report);
        let regulars = decision(&report, "Regulars");
        let why = regulars.target.as_ref().map(|(_, why)| why.clone());
        match regulars.actions[..] {
            [Action::Fire { target, .. }] => (state.unit(target).name.clone(), why),
            _ => panic!("{:?}", regulars.actions),
        }
    };
    let (target, why) = run(true);
    assert_eq!(target, "Continentals");
    assert!(why.unwrap().contains("rule fire-on-objective"));
    // Off, focus-fire picks the enemy nearest to breaking.
    assert_eq!(run(false).0, "Worn");
}

#[test]
fn an_attacking_general_with_nothing_to_react_to_rides_with_the_attack() {
    let run = |leads: bool| {
        let mut state = game(
            &[("Regulars", "british-regulars", 24.0, 20.0, NORTH)],
            &[("Militia", "militia", 24.0, 40.0, SOUTH)],
        );
        let mut attacker = opponent(&state, 0);
        attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
        if !leads {
            rule_off(&mut attacker, "general-leads");
        }
        let report = movement(&mut attacker, &mut state, &[4]);
        (report.generals[0].clone(), state.generals[0].base.centre)
    };
    let (decision, at) = run(true);
    assert!(
        decision.does.contains("rule general-leads"),
        "{}",
        decision.does
    );
    assert!(at.distance(p(2.0, 46.0)) > 1.0, "he rode from his corner");
    let (_, at) = run(false);
    assert!(at.distance(p(2.0, 46.0)) < 0.01, "he stays");
}

// ---- Generals, rallies, reserves and reinforcements ----

#[test]
fn a_general_rides_to_the_most_stricken_unit_on_an_a() {
    let mut state = game(
        &[
            ("Fresh", "british-regulars", 10.0, 10.0, NORTH),
            ("Stricken", "british-regulars", 30.0, 10.0, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    state.units[1].hits = 4;
    state.generals[0].base = Base::new(p(30.0, 2.0), 0.0, 2.0, 2.0);
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Fresh").withdrew = true;
    let report = movement(&mut opponent, &mut state, &[5, 3, 3]);
    let general = &report.generals[0];
    assert_eq!(general.reaction.as_ref().unwrap().reaction, Reaction::A);
    assert!(general.does.contains("Stricken"), "{}", general.does);
    // He rides to just behind it: within 3" of where it stood.
    assert_eq!(
        general.actions,
        vec![Action::MoveGeneral {
            general: GeneralId(0),
            to: p(30.0, 7.75)
        }]
    );
}

#[test]
fn reaction_e_at_the_baseline_takes_the_general_off_for_good() {
    let mut state = game(
        &[("Foot", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    state.generals[0].base = Base::new(p(24.0, 1.5), 0.0, 2.0, 2.0);
    let mut opponent = opponent(&state, 0);
    memory_mut(&mut opponent, &state, "Foot").withdrew = true;
    let report = movement(&mut opponent, &mut state, &[100, 3]);
    assert!(report.generals[0].does.contains("for good"));
    assert!(opponent.generals[0].left);
    // He no longer counts as a general within 3", even standing there.
    state.generals[0].base = Base::new(p(24.0, 8.0), 0.0, 2.0, 2.0);
    let preview = opponent.preview(&state, UnitId(0)).unwrap();
    assert!(!preview.reading.situation.general_within_3);
}

#[test]
fn the_start_position_is_rolled_on_the_generals_chart() {
    let mut state = game(
        &[("Foot", "british-regulars", 24.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = Opponent::new(Arc::new(Tables::embedded()), &state, 0);
    // Average: 1-20 is A, centre front in the main battle line.
    let report = movement(&mut opponent, &mut state, &[10, 3]);
    let (roll, letter, point) = report.generals[0].start.unwrap();
    assert_eq!((roll, letter), (10, Reaction::A));
    assert_eq!(point, p(24.0, 10.0));
    assert!(matches!(
        report.generals[0].actions[..],
        [Action::MoveGeneral { .. }]
    ));
}

#[test]
fn rallies_are_spent_on_units_with_three_hits_or_more() {
    let mut state = game(
        &[
            ("Hurt", "british-regulars", 10.0, 10.0, NORTH),
            ("Scratched", "british-regulars", 16.0, 10.0, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    state.generals[0].base = Base::new(p(13.0, 6.0), 0.0, 2.0, 2.0);
    state.units[0].hits = 3;
    state.units[1].hits = 2;
    while state.phase() != Phase::Rallying {
        state.apply(&Action::EndPhase, &mut dice([])).unwrap();
    }
    let mut commander = opponent(&state, 0);
    let mut report = TurnReport::default();
    commander.rallying(&mut state, &mut dice([4]), &mut report);
    assert_eq!(report.rallies.len(), 1);
    assert_eq!(report.rallies[0].units, vec![UnitId(0)]);
    assert_eq!(state.units[0].hits, 1);
    // With nobody at 3 hits the attempt is kept.
    let mut state2 = state.clone();
    state2.units[0].hits = 2;
    state2.generals[0].rallied = false;
    let mut report = TurnReport::default();
    commander.rallying(&mut state2, &mut dice([]), &mut report);
    assert!(report.rallies.is_empty());
}

#[test]
fn a_called_up_reinforcement_enters_at_the_centre_of_the_rear_edge() {
    let mut state = game(
        &[("Foot", "british-regulars", 10.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
    );
    let mut opponent = opponent(&state, 0);
    opponent.set_reinforcements(Some("british"));
    memory_mut(&mut opponent, &state, "Foot").withdrew = true;
    // General: 70 is D for an average general; d100 10 calls up British
    // line infantry; their reserve test: regulars +2 open, +3 out of
    // sight, die 1: 6, advance, so they enter.
    let report = movement(&mut opponent, &mut state, &[70, 10, 1, 3]);
    let general = &report.generals[0];
    assert_eq!(
        general.called_up,
        Some((10, "British Line Infantry".into()))
    );
    let id = UnitId(state.units.len() - 1);
    assert_eq!(
        state.unit(id).name,
        "British Line Infantry (reinforcement 1)"
    );
    assert!(state.unit(id).is_active());
    assert_eq!(state.unit(id).base.centre, p(24.0, 0.75));
    assert!(
        report.reserves[0]
            .actions
            .iter()
            .any(|a| matches!(a, Action::Enter { .. }))
    );
    assert_eq!(state.sides[0].starting_units, 2);
    // It has moved for the bound: no ordinary test until the next.
    assert!(report.decisions.iter().all(|d| d.unit != id));
}

#[test]
fn a_scenario_reserve_waits_until_its_test_brings_it_on() {
    let mut state = game_with(
        &[],
        &[("Foot", "british-regulars", 10.0, 10.0, NORTH)],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
        &[("Reserve", "militia", 24.0, 0.75, NORTH)],
    );
    let reserve = unit(&state, "Reserve");
    assert!(state.unit(reserve).is_reserve());
    let mut opponent = opponent(&state, 0);
    // Local militia encamped: -2 open, +3 out of sight, die 1: 2, stays.
    let report = movement(&mut opponent, &mut state, &[1, 3]);
    assert!(report.reserves[0].plan.contains("stays off table"));
    assert!(state.unit(reserve).is_reserve());
    to_side(&mut state, 1);
    to_side(&mut state, 0);
    // Die 6: 7, advance: it enters.
    let report = movement(&mut opponent, &mut state, &[6, 3]);
    assert!(report.reserves[0].plan.contains("enters"));
    assert!(state.unit(reserve).is_active());
}

#[test]
fn plans_are_given_or_derived_from_the_victory_conditions() {
    let plan_of = |name: &str, edit: &dyn Fn(&str) -> String, side: usize| {
        let (file, text) = crate::scenario::builtin(name).unwrap();
        let scenario = crate::scenario::load(
            crate::yaml::Source::new(file, &edit(text)),
            Ruleset::builtin,
        )
        .unwrap();
        let state = GameState::new(
            crate::rules::GameSetup::from_scenario(&scenario).unwrap(),
            rules_table(),
            &Tables::embedded().characters,
            &mut dice([]),
        )
        .unwrap()
        .0;
        let opponent = Opponent::new(Arc::new(Tables::embedded()), &state, side)
            .with_scenario(&scenario, &state);
        let names = |ids: &[UnitId]| -> Vec<String> {
            ids.iter().map(|id| state.unit(*id).name.clone()).collect()
        };
        let plan = opponent.plan().clone();
        (
            plan.describe(),
            names(&plan.objective_units),
            plan.lines.len(),
        )
    };
    let same = |text: &str| text.to_string();
    // Guilford as written: the British attack the Continentals, the
    // Americans hold three lines.
    let (british, objective, _) = plan_of("guilford", &same, 0);
    assert_eq!(british, "attack the continentals");
    assert_eq!(objective, ["1st Maryland", "4th Virginia"]);
    let (americans, _, lines) = plan_of("guilford", &same, 1);
    assert!(americans.starts_with("defend its lines, front to back: first line"));
    assert_eq!(lines, 3);
    // Without its `plan:` the British attack what their victory names.
    let unplanned = |text: &str| text.replace("    plan: { attack: continentals }\n", "");
    let (british, objective, _) = plan_of("guilford", &unplanned, 0);
    assert_eq!(
        british,
        "attack the continentals (from its victory conditions)"
    );
    assert_eq!(objective.len(), 2);
    // Routing a share of the army is an attack on the army; holding an
    // area, an attack on the area.
    assert_eq!(
        plan_of("learning", &same, 0).0,
        "attack the enemy army (from its victory conditions)"
    );
    assert_eq!(
        plan_of("monongahela", &same, 0).0,
        "attack the trace (from its victory conditions)"
    );
}

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

/// `status UNIT` says [`unit_ground`], `what UNIT` the reading's ground:
/// on Guilford's table they agree for every unit of both sides, the fence
/// line's too, where the ground under a unit's centre is not its cover.
#[test]
fn every_display_reads_the_same_ground_as_the_opponent() {
    let (file, text) = crate::scenario::builtin("guilford").unwrap();
    let scenario =
        crate::scenario::load(crate::yaml::Source::new(file, text), Ruleset::builtin).unwrap();
    let state = GameState::new(
        crate::rules::GameSetup::from_scenario(&scenario).unwrap(),
        rules_table(),
        &Tables::embedded().characters,
        &mut dice([]),
    )
    .unwrap()
    .0;
    let mut under_centre_differs = false;
    for side in 0..2 {
        let opponent = Opponent::new(Arc::new(Tables::embedded()), &state, side)
            .with_scenario(&scenario, &state);
        for id in state.active_units(side) {
            let reading = opponent.preview(&state, id).unwrap().reading;
            assert_eq!(unit_ground(&state, id), reading.ground, "{id:?}");
            under_centre_differs |=
                state.battlefield.column_at(state.unit(id).base.centre) != reading.ground;
        }
    }
    assert!(under_centre_differs);
}

/// Issue 15: a target horse may not enter. The militia stands deep in a
/// wood and the dragoons wait at its southern edge, so every straight move
/// towards the militia ends among the trees (impassable to cavalry, seed
/// 000). The route heads for the open ground nearest the target instead of
/// giving up because the target's own cell is closed to horse.
#[test]
fn horse_heads_for_open_ground_near_a_target_in_woods() {
    let woods = Shape::Rect {
        min: p(14.0, 8.5),
        max: p(34.0, 36.0),
    };
    let mut state = game_with(
        &[("woods", woods, 0.0)],
        &[("Dragoons", "cavalry", 24.0, 7.0, NORTH)],
        &[("Militia", "militia", 24.0, 30.0, SOUTH)],
        &[],
    );
    // A free army (no cavalry reserve to hold the horse back).
    let mut attacker = opponent(&state, 0);
    let report = movement(&mut attacker, &mut state, &[6]);
    let dragoons = decision(&report, "Dragoons");
    assert!(
        matches!(
            dragoons.outcome.order,
            Order::Charge | Order::AdvanceAndFire
        ),
        "{:?}",
        dragoons.outcome.order
    );
    assert!(!dragoons.stuck, "{}: {:?}", dragoons.plan, dragoons.refused);
    let (from, to) = moved(dragoons).expect("it rides round the wood");
    let route = dragoons.route.as_ref().expect("by a route");
    assert!(!route.straight, "{route:?}");
    // Along the wood's edge, not into it.
    assert!((to.x - from.x).abs() > 2.0, "{from} -> {to}");
    let cell = state.battlefield.grid.cell_at(to).unwrap();
    assert!(
        state
            .battlefield
            .passable(state.unit(dragoons.unit).troop, cell)
    );
}

/// Issue 15: hemmed in is the rules, not a refused plan. Within 6" of the
/// militia a unit may move only directly towards or away from it (seed 000
/// Enemy Presence); a friend stands in the straight line, and going back
/// brings it no nearer. The planner finds no move and says the unit is
/// hemmed in, which `foe simulate` counts apart from moves with no lawful
/// way; with the friend gone it advances.
#[test]
fn a_unit_hemmed_in_by_the_enemy_presence_rule_is_not_a_refused_plan() {
    let plan = |friend: bool| {
        let mut british = vec![("Regulars", "british-regulars", 24.0, 10.0, NORTH)];
        if friend {
            british.push(("Friend", "british-regulars", 24.0, 12.0, NORTH));
        }
        let state = game(&british, &[("Militia", "militia", 24.0, 15.5, SOUTH)]);
        let mut attacker = opponent(&state, 0);
        let (regulars, militia) = (unit(&state, "Regulars"), unit(&state, "Militia"));
        let planned = attacker.plan_move(
            &state,
            regulars,
            super::act::Goal::Enemy(militia),
            6.0,
            super::act::Facing::Keep,
        );
        (
            planned.action.is_some(),
            planned.hemmed,
            planned.refusal.is_some(),
        )
    };
    assert_eq!(plan(true), (false, Some(Hemmed::ByEnemy), true));
    assert_eq!(plan(false), (true, None, false));
}

/// Issue 15: held up behind a friend is not a plan the engine refused.
/// Two woods leave a 6" gap, and a friend stands in it; the dragoons wait
/// right behind the friend. Over bare ground they would have a way, so
/// they are held up by units, not stuck for want of a route.
#[test]
fn a_unit_behind_a_friend_in_the_only_gap_is_held_up_not_stuck() {
    let west = Shape::Rect {
        min: p(0.0, 8.0),
        max: p(21.0, 16.0),
    };
    let east = Shape::Rect {
        min: p(27.0, 8.0),
        max: p(48.0, 16.0),
    };
    let mut state = game_with(
        &[("woods", west, 0.0), ("woods", east, 0.0)],
        &[
            ("Dragoons", "cavalry", 24.0, 9.3, NORTH),
            ("Friend", "british-regulars", 24.0, 11.8, NORTH),
        ],
        &[("Militia", "militia", 24.0, 40.0, SOUTH)],
        &[],
    );
    // A free army (no cavalry reserve to hold the horse back).
    let mut attacker = opponent(&state, 0);
    let report = movement(&mut attacker, &mut state, &[6, 1]);
    let dragoons = decision(&report, "Dragoons");
    assert!(moved(dragoons).is_none(), "{}", dragoons.plan);
    assert_eq!(dragoons.hemmed, Some(Hemmed::ByUnits), "{}", dragoons.plan);
    assert!(!dragoons.stuck);
    assert!(dragoons.plan.contains("held up"), "{}", dragoons.plan);
}

/// Issue 15: an attack on ground to take (a scenario's area, as the trace
/// at the Monongahela). A unit told to stand and fire with nobody in reach
/// moves on towards the area rather than standing fast; with the rule off
/// it stands.
#[test]
fn an_attacker_on_an_area_with_nobody_in_reach_moves_on_towards_it() {
    let setup = || {
        game(
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[("Militia", "militia", 40.0, 20.0, SOUTH)],
        )
    };
    let area = || SidePlan {
        plan: crate::scenario::Plan::Attack(crate::scenario::Objective::Area("the hill".into())),
        objective: Some("the hill".into()),
        objective_point: Some(p(24.0, 40.0)),
        ..SidePlan::default()
    };
    let mut state = setup();
    let mut attacker = opponent(&state, 0);
    attacker.set_plan(area());
    let report = movement(&mut attacker, &mut state, &[1]);
    let regulars = decision(&report, "Regulars");
    assert_eq!(
        regulars.outcome.order,
        Order::StandAndFire,
        "{}",
        regulars.plan
    );
    assert!(
        regulars
            .plan
            .contains("moves on towards the objective, the hill"),
        "{}",
        regulars.plan
    );
    let (from, to) = moved(regulars).expect("it moves");
    assert!(to.y > from.y + 3.0, "{from} -> {to}");
    let mut state = setup();
    let mut purist = opponent(&state, 0);
    purist.set_plan(area());
    rule_off(&mut purist, "close-to-range");
    let report = movement(&mut purist, &mut state, &[1]);
    assert!(moved(decision(&report, "Regulars")).is_none());
}

/// Issue 15: an attacker told to stand and fire with no enemy in sight at
/// all stands fast in seed 004; with the plan it marches on its objective
/// (rule close-to-range), and says so once, not "stand fast" and a march.
#[test]
fn an_attacker_with_no_enemy_in_sight_marches_on_rather_than_standing_fast() {
    // The regulars stand in a wood that hides the militia (British
    // regulars test in the natural-cover column there: no +2).
    let woods = Shape::Rect {
        min: p(10.0, 8.0),
        max: p(38.0, 26.0),
    };
    let setup = || {
        game_with(
            &[("woods", woods.clone(), 0.0)],
            &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
            &[("Militia", "militia", 24.0, 34.0, SOUTH)],
            &[],
        )
    };
    let mut state = setup();
    let mut attacker = opponent(&state, 0);
    attacker.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
    let report = movement(&mut attacker, &mut state, &[1]);
    let regulars = decision(&report, "Regulars");
    assert!(!regulars.reading.situation.enemy_in_sight);
    assert_eq!(
        regulars.outcome.order,
        Order::StandAndFire,
        "{}",
        regulars.plan
    );
    assert!(
        regulars
            .plan
            .starts_with("Stand and fire, but no enemy is in sight: rather than stand fast, it marches on towards Militia"),
        "{}",
        regulars.plan
    );
    assert!(!regulars.plan.contains("stand fast;"), "{}", regulars.plan);
    // A full move through the trees: 3" for 6".
    let (from, to) = moved(regulars).expect("it marches");
    assert!(to.y > from.y + 2.5, "{from} -> {to}");
    // Pure Lone Warrior: it stands fast.
    let mut state = setup();
    let mut purist = opponent(&state, 0);
    purist.set_plan(SidePlan::attack(Vec::new(), "the enemy army"));
    rule_off(&mut purist, "close-to-range");
    let report = movement(&mut purist, &mut state, &[1]);
    assert!(moved(decision(&report, "Regulars")).is_none());
}

/// Issue 15: an enemy in reach that cannot be seen (among the trees) is
/// no target; an attacker told to stand and fire closes in on it instead
/// of standing with no shot.
#[test]
fn an_attacker_closes_in_on_an_enemy_in_reach_it_cannot_see() {
    let woods = Shape::Rect {
        min: p(14.0, 13.0),
        max: p(34.0, 30.0),
    };
    let mut state = game_with(
        &[("woods", woods, 0.0)],
        &[("Regulars", "british-regulars", 24.0, 10.0, NORTH)],
        &[
            ("Hidden", "militia", 24.0, 16.5, SOUTH),
            ("Seen", "militia", 44.0, 12.0, SOUTH),
        ],
        &[],
    );
    let mut attacker = opponent(&state, 0);
    let hidden = unit(&state, "Hidden");
    attacker.set_plan(SidePlan::attack(vec![hidden], "the hidden militia"));
    let report = movement(&mut attacker, &mut state, &[1]);
    let regulars = decision(&report, "Regulars");
    assert!(
        regulars.reading.situation.enemy_in_sight,
        "{}",
        regulars.plan
    );
    assert_eq!(
        regulars.outcome.order,
        Order::StandAndFire,
        "{}",
        regulars.plan
    );
    assert!(
        regulars
            .plan
            .contains("Hidden is 5.0\" away but out of sight, so it closes in"),
        "{}",
        regulars.plan
    );
    let (from, to) = moved(regulars).expect("it closes in");
    assert!(to.y > from.y + 0.5, "{from} -> {to}");
}

/// A builtin scenario's units scattered at random, seeded: over the whole
/// table and a little off it, or crowded into its first quarter; facing
/// any way; one in ten routed. The units' spatial index is on whatever
/// their number.
fn scattered(name: &str, seed: u64, rng: &mut rand::rngs::ChaCha8Rng) -> GameState {
    use rand::RngExt;
    let mut state = crate::rules::fixture::builtin_state(name, &mut Seeded::new(seed));
    let (w, h) = (state.battlefield.width(), state.battlefield.height());
    let spread = if rng.random_range(0..2) == 0 {
        1.0
    } else {
        0.25
    };
    for index in 0..state.units.len() {
        let at = p(
            rng.random_range(-4.0..w * spread + 4.0),
            rng.random_range(-4.0..h * spread + 4.0),
        );
        let facing = rng.random_range(0.0..360.0);
        crate::rules::fixture::stand(&mut state, index, at, facing);
        let unit = &mut state.units[index];
        if rng.random_range(0..10) == 0 {
            unit.status = Status::Routed;
        }
    }
    state.units.force_indexed(Some(true));
    state
}

/// Whether a unit has a shot at any of some enemies, asked of the units'
/// spatial index within its weapon's reach, is exactly whether `shot_open`
/// holds for any of them, over the scatterings above: every unit, those
/// of the other side, half of them picked at random, and one it has a
/// shot at.
#[test]
fn any_shot_open_is_shot_open_of_any() {
    use rand::{RngExt, SeedableRng};
    let (mut open, mut closed) = (0, 0);
    for (name, seeds) in [("guilford", 20), ("stress", 3)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_300 + seed);
            let state = scattered(name, seed, &mut rng);
            let memo = memo::UnitMemo::default();
            let n_units = state.units.len();
            for _ in 0..600 {
                let from = UnitId(rng.random_range(0..n_units));
                // Every unit, the other side's, half at random, or one it
                // has a shot at (when it has one).
                let open_at: Vec<usize> = (0..n_units)
                    .filter(|&i| act::shot_open(&state, &memo, from, UnitId(i)))
                    .collect();
                let among: Vec<bool> = match rng.random_range(0..4) {
                    0 => vec![true; n_units],
                    1 => {
                        let side = state.unit(from).side;
                        (0..n_units).map(|i| state.units[i].side != side).collect()
                    }
                    2 => (0..n_units).map(|_| rng.random_range(0..2) == 0).collect(),
                    _ if !open_at.is_empty() => {
                        let one = open_at[rng.random_range(0..open_at.len())];
                        (0..n_units).map(|i| i == one).collect()
                    }
                    _ => vec![false; n_units],
                };
                let scanned = (0..n_units)
                    .filter(|&i| among[i])
                    .any(|i| act::shot_open(&state, &memo, from, UnitId(i)));
                let indexed = act::any_shot_open(&state, &memo, from, |i| among[i]);
                assert_eq!(indexed, scanned, "{name} seed {seed}: {from:?}");

                if scanned {
                    open += 1;
                } else {
                    closed += 1;
                }
            }
        }
    }
    assert!(open > 800 && closed > 3_000, "{open} open, {closed} closed");
}

/// Enemies in the reading's order (by distance, then unit) ranked by
/// sorting only the runs equal to the thousandth of an inch are ranked as
/// the targeting rule ranks them: over the scatterings above with hits at
/// random, at their own distances and at distances coarsened so that many
/// tie to the thousandth (and some exactly).
#[test]
fn ranking_the_measured_enemies_is_the_targeting_rules_ranking() {
    use rand::{RngExt, SeedableRng};
    let mut tied = 0;
    for (name, seeds) in [("guilford", 10), ("stress", 2)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_400 + seed);
            let mut state = scattered(name, seed, &mut rng);
            for index in 0..state.units.len() {
                state.units[index].hits = rng.random_range(0..3);
            }
            let memo = memo::UnitMemo::default();
            let n_units = state.units.len();
            for round in 0..60 {
                let from = UnitId(rng.random_range(0..n_units));
                let coarse = [0.0, 0.0004, 0.0015, 0.25][round % 4];
                let mut measured: Vec<(UnitId, f64)> = (0..n_units)
                    .filter(|&i| i != from.0)
                    .map(|i| {
                        let distance = memo.distance(&state, from, UnitId(i));
                        let distance = if coarse > 0.0 {
                            (distance / coarse).floor() * coarse
                        } else {
                            distance
                        };
                        (UnitId(i), distance)
                    })
                    .collect();
                measured.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                tied += measured
                    .windows(2)
                    .filter(|w| (w[0].1 * 1000.0).round() == (w[1].1 * 1000.0).round())
                    .count();
                let ruled = act::rank_by_target_rule(&state, measured.iter().copied());
                assert_eq!(
                    act::rank_measured(&state, measured),
                    ruled,
                    "{name} seed {seed}: {from:?}"
                );
            }
        }
    }
    assert!(tied > 5_000, "{tied}");
}

/// The enemies a reading measures, near ones at once and the rest when
/// asked, are every enemy by distance then unit, as a full sort orders
/// them; ranked, the near ones are the head of the targeting rule's
/// ranking of them all, and the first for which a test holds, and those
/// within a limit, are the full ranking's: over the scatterings above,
/// from units of either side, with hits at random.
#[test]
fn the_measured_enemies_near_first_are_all_of_them_in_order() {
    use rand::{RngExt, SeedableRng};
    let (mut partial, mut completed) = (0, 0);
    for (name, seeds) in [("guilford", 10), ("stress", 3)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_600 + seed);
            let mut state = scattered(name, seed, &mut rng);
            for index in 0..state.units.len() {
                state.units[index].hits = rng.random_range(0..3);
            }
            let memo = memo::UnitMemo::default();
            let n_units = state.units.len();
            for _ in 0..100 {
                let from = UnitId(rng.random_range(0..n_units));
                let enemies = active_ids(&state, GameState::enemy_of(state.unit(from).side));
                let mut all: Vec<(UnitId, f64)> = enemies
                    .iter()
                    .map(|e| (*e, memo.distance(&state, from, *e)))
                    .collect();
                all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                let ruled = act::rank_by_target_rule(&state, all.iter().copied());
                let measured = read::Measured::new(&state, &memo, from, &enemies);
                let near = measured.by_distance.len();
                assert_eq!(measured.by_distance[..], all[..near], "{name} seed {seed}");
                let mut whole = measured.clone();
                whole.measure_all(&state, &memo);
                assert!(whole.complete());
                assert_eq!(whole.by_distance, all, "{name} seed {seed}");
                let mut ranked = act::Ranked::new(&state, measured.clone());
                assert_eq!(ranked.list()[..], ruled[..ranked.list().len()]);
                if ranked.complete() {
                    completed += 1;
                } else {
                    partial += 1;
                }
                // The first with one of a few hits, of a side (none), or
                // in the frontal arc.
                let hits = rng.random_range(0..3);
                let found = ranked.find(&state, &memo, |e| state.unit(e).hits == hits);
                let expected = ruled
                    .iter()
                    .copied()
                    .find(|(e, _)| state.unit(*e).hits == hits);
                assert_eq!(found, expected, "{name} seed {seed}");
                let mut ranked = act::Ranked::new(&state, measured.clone());
                let arc = |e: UnitId| memo.in_frontal_arc(&state, from, e);
                let found = ranked.find(&state, &memo, arc);
                assert_eq!(found, ruled.iter().copied().find(|(e, _)| arc(*e)));
                let mut ranked = act::Ranked::new(&state, measured);
                let limit = rng.random_range(0.0..40.0);
                let within: Vec<_> = ranked
                    .up_to(&state, &memo, limit)
                    .iter()
                    .copied()
                    .filter(|(_, distance)| *distance <= limit)
                    .collect();
                let expected: Vec<_> = ruled
                    .iter()
                    .copied()
                    .filter(|(_, distance)| *distance <= limit)
                    .collect();
                assert_eq!(within, expected, "{name} seed {seed}: within {limit}");
                let unranked: Vec<UnitId> = ranked.unranked().collect();
                assert_eq!(unranked.len() + ranked.list().len(), all.len());
            }
        }
    }
    assert!(partial > 200 && completed > 200, "{partial} {completed}");
}

/// A charge the opponent judges surely out of reach by the centres alone
/// is one the engine refuses, quick check or full: over the scatterings
/// above, every unit of the side to move against every enemy within 30"
/// of it (facing it half the time); and, head on across open ground, at
/// every distance from 3" to 30" (centre to centre) by twentieths of an
/// inch, where the charges right up to the allowance are lawful.
#[test]
fn a_charge_surely_beyond_reach_is_refused() {
    use rand::SeedableRng;
    let mut beyond = 0;
    for (name, seeds) in [("guilford", 20), ("stress", 2)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_500 + seed);
            let mut state = scattered(name, seed, &mut rng);
            // Some scatterings end the game (a side's units all off the
            // table or routed): those have no charges to ask about.
            let side = (seed % 2) as usize;
            while !(state.is_over() || state.active == side && state.phase() == Phase::Movement) {
                state.apply(&Action::EndPhase, &mut dice([])).unwrap();
            }
            if state.is_over() {
                continue;
            }
            for from in 0..state.units.len() {
                let unit = &state.units[from];
                if unit.side != side || !unit.is_active() {
                    continue;
                }
                let base = unit.base;
                for to in 0..state.units.len() {
                    let enemy = state.units[to].base;
                    if state.units[to].side == side || base.centre.distance(enemy.centre) > 30.0 {
                        continue;
                    }
                    if to % 2 == 0 {
                        let facing = (enemy.centre - base.centre).bearing();
                        crate::rules::fixture::stand(&mut state, from, base.centre, facing);
                    }
                    let charge = Action::Charge {
                        unit: UnitId(from),
                        target: UnitId(to),
                    };
                    let (quick, full) =
                        (state.checked(&charge, true), state.checked(&charge, false));
                    assert_eq!(
                        quick.is_ok(),
                        full.is_ok(),
                        "{name} seed {seed}: {charge:?}"
                    );
                    if act::surely_beyond_charge(&state, UnitId(from), UnitId(to)) {
                        assert!(full.is_err(), "{name} seed {seed}: {charge:?}");
                        beyond += 1;
                    }
                    state.units[from].base = base;
                }
            }
        }
    }
    assert!(beyond > 5_000, "{beyond}");
    let (mut lawful, mut last_lawful, mut first_beyond) = (0, 0.0_f64, f64::INFINITY);
    for troop in ["cavalry", "militia"] {
        for step in 60..=600 {
            let gap = f64::from(step) * 0.05;
            let state = game(
                &[("Chargers", troop, 24.0, 4.0, NORTH)],
                &[("Target", "militia", 24.0, 4.0 + gap, SOUTH)],
            );
            let (chargers, target) = (unit(&state, "Chargers"), unit(&state, "Target"));
            let charge = Action::Charge {
                unit: chargers,
                target,
            };
            let full = state.checked(&charge, false);
            if act::surely_beyond_charge(&state, chargers, target) {
                assert!(full.is_err(), "{troop} at {gap}");
                first_beyond = first_beyond.min(gap);
            } else if full.is_ok() {
                lawful += 1;
                last_lawful = last_lawful.max(gap);
            }
        }
    }
    // Lawful up to the allowance; judged beyond within two bases' reach of
    // the last lawful charge.
    assert!(lawful > 100, "{lawful}");
    assert!(
        first_beyond - last_lawful < 6.0,
        "{last_lawful} {first_beyond}"
    );
}

/// The enemies in range through the units' spatial index are exactly the
/// scan's, in the same order, over seeded scatterings of Guilford's and
/// the stress test's units (on and off the table, crowded, routed).
#[test]
fn side_ranked_within_is_ranked_within_of_the_side() {
    use rand::{RngExt, SeedableRng};
    let mut found = 0;
    for (name, seeds) in [("guilford", 20), ("stress", 3)] {
        for seed in 0..seeds {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18_200 + seed);
            let state = scattered(name, seed, &mut rng);
            let memo = memo::UnitMemo::default();
            for _ in 0..200 {
                let from = UnitId(rng.random_range(0..state.units.len()));
                let side = rng.random_range(0..2);
                let limit = rng.random_range(0.0..30.0);
                let all = active_ids(&state, side);
                let scanned = act::ranked_within(&state, &memo, from, &all, limit);
                let indexed = act::side_ranked_within(&state, &memo, from, side, limit);
                assert_eq!(
                    indexed, scanned,
                    "{name} seed {seed}: {from:?} side {side} within {limit}"
                );
                found += usize::from(!scanned.is_empty());
            }
        }
    }
    assert!(found > 1_000, "{found}");
}
