//! Reading a unit's situation off the game state (`read.rs`, rulings
//! O1–O5): the cover column facing the enemy, the distance key, each
//! factor on and off, the tables' own distances, and every display reading
//! the same ground as the opponent.

use super::*;

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
    // The fence lies between the unit and an enemy to the south
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
