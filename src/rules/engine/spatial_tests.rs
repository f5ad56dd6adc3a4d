//! The units' spatial index answers exactly what a scan of every unit
//! answers: the engine's and the index's own queries, asked both ways of
//! many seeded random positions of the shipped scenarios' units (on the
//! table, exactly on its edges, off it, crowded together, routed, waiting
//! in reserve, and some with no position at all), before and after units
//! move under a built grid.

use super::*;
use crate::battlefield::geometry::least_distance;
use crate::dice::Seeded;
use crate::rules::state::Status;
use rand::{Rng, RngExt, SeedableRng};

/// A random place on or around the table of `state`: anywhere a little
/// beyond it, exactly on an edge or corner, or near another unit.
fn random_point(rng: &mut impl Rng, state: &GameState) -> Point {
    let (w, h) = (state.battlefield.width(), state.battlefield.height());
    match rng.random_range(0..8) {
        0 => Point::new([0.0, w][rng.random_range(0..2)], rng.random_range(0.0..=h)),
        1 => Point::new(rng.random_range(0.0..=w), [0.0, h][rng.random_range(0..2)]),
        2 => Point::new(
            [0.0, w][rng.random_range(0..2)],
            [0.0, h][rng.random_range(0..2)],
        ),
        3 | 4 => {
            let other = &state.units[rng.random_range(0..state.units.len())];
            let c = other.base.centre;
            Point::new(
                c.x + rng.random_range(-6.0..6.0),
                c.y + rng.random_range(-6.0..6.0),
            )
        }
        _ => Point::new(
            rng.random_range(-8.0..w + 8.0),
            rng.random_range(-8.0..h + 8.0),
        ),
    }
}

/// The state of the shipped scenario `name` with its units scattered at
/// random (statuses too), as `seed` says.
fn scattered(name: &str, seed: u64) -> (GameState, rand::rngs::ChaCha8Rng) {
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut state = crate::rules::fixture::builtin_state(name, &mut Seeded::new(seed));
    // Crowd them into part of the table now and then, so that many meet.
    let crowd = rng.random_range(0..3) == 0;
    for index in 0..state.units.len() {
        let at = if crowd {
            let (w, h) = (state.battlefield.width(), state.battlefield.height());
            Point::new(
                rng.random_range(0.0..w / 4.0),
                rng.random_range(0.0..h / 4.0),
            )
        } else {
            random_point(&mut rng, &state)
        };
        let at = if rng.random_range(0..200) == 0 {
            Point::new(f64::NAN, at.y)
        } else {
            at
        };
        let facing = rng.random_range(0.0..360.0);
        crate::rules::fixture::stand(&mut state, index, at, facing);
        let unit = &mut state.units[index];
        unit.status = match rng.random_range(0..12) {
            0 => Status::Routed,
            1 => Status::Exited,
            2 => Status::Reserve,
            _ => Status::Active,
        };
    }
    (state, rng)
}

/// `state` asked through the grid (true) or by a scan of every unit.
fn asked(state: &GameState, grid: bool) -> GameState {
    let mut state = state.clone();
    state.units.force_indexed(Some(grid));
    state
}

/// A random active unit with a place, if there is one.
fn some_unit(rng: &mut impl Rng, state: &GameState) -> Option<UnitId> {
    let active: Vec<usize> = (0..state.units.len())
        .filter(|&i| state.units[i].is_active() && state.units[i].base.centre.x.is_finite())
        .collect();
    (!active.is_empty()).then(|| UnitId(active[rng.random_range(0..active.len())]))
}

/// How often the answers were not the empty ones: enemy presence
/// refused, an overlap found, units near a path, an end too close to an
/// enemy, units within the limit.
#[derive(Default, Debug)]
struct Met([usize; 5]);

/// Every query, asked of `grid` (through the index) and `scan` (by
/// scanning), gives the same answers at random places.
fn same_answers(
    rng: &mut impl Rng,
    grid: &GameState,
    scan: &GameState,
    asks: usize,
    met: &mut Met,
) {
    for _ in 0..asks {
        let Some(id) = some_unit(rng, grid) else {
            return;
        };
        let unit = &grid.units[id.0];
        let to = random_point(rng, grid);
        let via = random_point(rng, grid);
        let points = match rng.random_range(0..3) {
            0 => vec![unit.base.centre],
            1 => vec![unit.base.centre, to],
            _ => vec![unit.base.centre, via, to],
        };
        let road = rng.random_range(0..4) == 0;
        let presence = grid.enemy_presence(id, &points, road);
        assert_eq!(
            presence,
            scan.enemy_presence(id, &points, road),
            "enemy presence of {id:?} along {points:?}"
        );
        met.0[0] += usize::from(presence.is_err());
        let facing = rng.random_range(0.0..360.0);
        let base = Base::new(to, facing, unit.base.frontage, unit.base.depth);
        let ignore =
            (rng.random_range(0..3) == 0).then(|| UnitId(rng.random_range(0..grid.units.len())));
        let overlap = grid.overlapping(&base, id, ignore);
        assert_eq!(overlap, scan.overlapping(&base, id, ignore));
        met.0[1] += usize::from(overlap.is_some());
        let near = grid.near_path(&base, &points, id, ignore);
        assert_eq!(near, scan.near_path(&base, &points, id, ignore));
        // And exactly the units the broad phase alone lets through: the
        // bounding box before it leaves out none of them.
        let broad: Vec<usize> = (0..scan.units.len())
            .filter(|&index| {
                let other = &scan.units[index];
                index != id.0
                    && Some(UnitId(index)) != ignore
                    && other.is_active()
                    && may_meet_on_path(&base, &other.base, &points)
            })
            .collect();
        assert_eq!(near, broad, "units near {points:?}");
        met.0[2] += usize::from(!near.is_empty());
        for quick in [false, true] {
            let path = Path {
                unit: id,
                points: &points,
                travel_facing: unit.base.facing,
                end_facing: facing,
                road,
                charge_target: ignore,
                quick,
            };
            let end = grid.check_path_end(&path);
            assert_eq!(end, scan.check_path_end(&path));
            met.0[3] += usize::from(matches!(end, Err(Refusal::ContactWithoutCharge { .. })));
            assert_eq!(grid.check_path(&path), scan.check_path(&path));
        }
        // The index's own queries.
        let side = rng.random_range(0..2);
        let least = grid.units.least_centre_distance(side, to);
        let scanned = least_distance(
            scan.units
                .iter()
                .filter(|u| u.is_active() && u.side == side)
                .map(|u| u.base.centre),
            to,
        );
        assert_eq!(
            least.to_bits(),
            scanned.to_bits(),
            "nearest of side {side} to {to}"
        );
        let limit = rng.random_range(0.0..12.0);
        let exact = |state: &GameState, index: usize| {
            let u = &state.units[index];
            u.is_active() && u.base.within(&base, limit)
        };
        let mut found = Vec::new();
        grid.units.each_near(&base, limit, |index, _| {
            if exact(grid, index) {
                found.push(index);
            }
        });
        found.sort_unstable();
        let all: Vec<usize> = (0..scan.units.len()).filter(|&i| exact(scan, i)).collect();
        assert_eq!(found, all, "within {limit} of {base:?}");
        met.0[4] += usize::from(!all.is_empty());
        assert_eq!(
            grid.units.first_near(&base, limit, |i, _| exact(grid, i)),
            all.first().copied()
        );
        assert_eq!(
            grid.units.any_near(&base, limit, |i, _| exact(grid, i)),
            !all.is_empty()
        );
    }
}

/// Over many seeded scatterings of the shipped scenarios' units (the
/// stress test's 400 among them), every query through the index gives
/// exactly the scan's answer; and again as units move under a grid
/// already built (unsettled, and then so many that it is built again).
#[test]
fn the_index_answers_what_a_scan_answers() {
    let mut met = Met::default();
    for (name, seeds) in [("guilford", 40), ("monongahela", 20), ("stress", 6)] {
        for seed in 0..seeds {
            let (state, mut rng) = scattered(name, 18_100 + seed);
            let mut grid = asked(&state, true);
            let mut scan = asked(&state, false);
            same_answers(&mut rng, &grid, &scan, 60, &mut met);
            // Move some units under the built grid, a few and then many.
            for moves in [1, 3, state.units.len() / 4] {
                for _ in 0..moves {
                    let index = rng.random_range(0..state.units.len());
                    let at = random_point(&mut rng, &grid);
                    let facing = rng.random_range(0.0..360.0);
                    let status = if rng.random_range(0..6) == 0 {
                        Status::Routed
                    } else {
                        Status::Active
                    };
                    for s in [&mut grid, &mut scan] {
                        let unit = &mut s.units[index];
                        unit.base = Base::new(at, facing, unit.base.frontage, unit.base.depth);
                        unit.status = status;
                    }
                }
                same_answers(&mut rng, &grid, &scan, 30, &mut met);
            }
        }
    }
    // Each kind of answer came up often, not only the empty one.
    assert!(met.0.iter().all(|&n| n > 200), "{met:?}");
}
