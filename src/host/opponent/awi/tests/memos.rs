//! The opponent's memos (`memo.rs`) answer exactly as the battlefield
//! does, however the units move between questions.

use super::*;
use crate::battlefield::CellSet;

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
