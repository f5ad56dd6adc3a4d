//! Pathing benchmark: one route query and one distance field on a 72"×48"
//! table at 0.5" cells with woods, a river with two fords and a road,
//! against a plain flat-array Dijkstra doing the same work (the floor).
//! Prints the route/floor and field/floor ratios measured in this run.

use foe::battlefield::{Battlefield, CellSet, DEFAULT_CELL, Edge, Feature, Point, Shape};
use foe::ruleset::Ruleset;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn table() -> Battlefield {
    let rules = Ruleset::builtin("ohw-awi")
        .expect("built in")
        .expect("valid");
    let kind = |name: &str| rules.terrain_kind(name).expect(name);
    let p = Point::new;
    let feature = |name: &str, shape: Shape| Feature {
        kind: kind(name),
        shape,
        height: 0.0,
        name: None,
    };
    let features = vec![
        feature(
            "woods",
            Shape::Polygon(vec![
                p(6.0, 26.0),
                p(22.0, 24.0),
                p(26.0, 38.0),
                p(8.0, 40.0),
            ]),
        ),
        feature(
            "woods",
            Shape::Polygon(vec![
                p(44.0, 6.0),
                p(60.0, 4.0),
                p(62.0, 18.0),
                p(46.0, 19.0),
            ]),
        ),
        feature(
            "woods",
            Shape::Circle {
                centre: p(54.0, 36.0),
                radius: 5.0,
            },
        ),
        feature(
            "river",
            Shape::Line {
                points: vec![p(0.0, 22.0), p(24.0, 20.0), p(48.0, 24.0), p(72.0, 22.0)],
                width: 1.5,
            },
        ),
        feature(
            "ford",
            Shape::Rect {
                min: p(10.0, 19.0),
                max: p(14.0, 23.5),
            },
        ),
        feature(
            "ford",
            Shape::Rect {
                min: p(58.0, 21.0),
                max: p(62.0, 25.5),
            },
        ),
        feature(
            "road",
            Shape::Line {
                points: vec![p(36.0, 0.0), p(36.0, 22.0), p(38.0, 48.0)],
                width: 1.0,
            },
        ),
        feature(
            "bridge",
            Shape::Rect {
                min: p(35.0, 20.5),
                max: p(38.0, 25.0),
            },
        ),
    ];
    Battlefield::new(rules, 72.0, 48.0, DEFAULT_CELL, features)
}

/// The floor: Dijkstra over flat arrays with the same 8-neighbour steps and
/// the same costs, no graph library. `goal` = early exit; else a full field.
fn floor(
    field: &Battlefield,
    multipliers: &[f32],
    sources: &[usize],
    goal: Option<usize>,
) -> Vec<f32> {
    let (w, h) = (field.grid.width as i64, field.grid.height as i64);
    let cell = field.grid.cell as f32;
    let diagonal = cell * std::f32::consts::SQRT_2;
    let uphill = field.ruleset.uphill_speed as f32;
    let ground = &field.grid.ground;
    let mut cost = vec![f32::INFINITY; multipliers.len()];
    let mut done = vec![false; multipliers.len()];
    let mut heap = BinaryHeap::new();
    for &s in sources {
        cost[s] = 0.0;
        heap.push(Reverse((0u32, s as u32)));
    }
    while let Some(Reverse((_, at))) = heap.pop() {
        let at = at as usize;
        if done[at] {
            continue;
        }
        done[at] = true;
        if Some(at) == goal {
            break;
        }
        let (x, y) = (at as i64 % w, at as i64 / w);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (nx, ny) = (x + dx, y + dy);
                if (dx, dy) == (0, 0) || nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let next = (ny * w + nx) as usize;
                if done[next] || !multipliers[next].is_finite() {
                    continue;
                }
                let length = if dx != 0 && dy != 0 { diagonal } else { cell };
                let mut step = length * 0.5 * (multipliers[at] + multipliers[next]);
                if ground[next] > ground[at] + 1e-4 {
                    step /= uphill;
                }
                let candidate = cost[at] + step;
                if candidate < cost[next] {
                    cost[next] = candidate;
                    heap.push(Reverse((candidate.to_bits(), next as u32)));
                }
            }
        }
    }
    cost
}

fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    f(); // warm up
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    let build_start = Instant::now();
    let field = table();
    let build = build_start.elapsed();
    let troop = field.ruleset.troop_type("british-regulars").unwrap();
    let from = Point::new(4.0, 4.0);
    let to = Point::new(68.0, 44.0);
    let none = CellSet::none();
    // One blocked cell in a far corner, off every route: a route over
    // open ground is remembered per thread (`cell_path`'s memo), and the
    // benchmark is of the search, not of the memo.
    let mut corner = CellSet::new(field.grid.len());
    corner.insert(field.grid.cell_at(Point::new(71.9, 0.1)).unwrap());
    let multipliers: Vec<f32> = (0..field.grid.len())
        .map(|c| {
            field
                .cost_multiplier(troop, c)
                .map_or(f32::INFINITY, |m| m as f32)
        })
        .collect();
    let source = field.grid.cell_at(from).unwrap();
    let goal = field.grid.cell_at(to).unwrap();
    let goals = field.edge_cells(Edge::North);

    // Same answers first: the benchmark compares equal work.
    let route = field.route(troop, from, to, &none).expect("a route");
    let floor_cost = floor(&field, &multipliers, &[source], Some(goal))[goal];
    let field_result = field.distance_field(troop, &goals, &none);
    let floor_field = floor(&field, &multipliers, &goals, None);
    assert!(
        (field_result.cost_at(source).unwrap() - floor_field[source] as f64).abs() < 1e-3,
        "field and floor disagree"
    );

    let runs = 31;
    assert_eq!(
        field.route(troop, from, to, &corner).expect("a route").legs,
        route.legs,
        "the corner's cell is off the route"
    );
    let route_time = median(
        || {
            black_box(field.route(troop, from, to, &corner));
        },
        runs,
    );
    let search_time = median(
        || {
            black_box(field.cell_path(troop, from, to, &corner));
        },
        runs,
    );
    let route_floor = median(
        || {
            black_box(floor(&field, &multipliers, &[source], Some(goal)));
        },
        runs,
    );
    let field_time = median(
        || {
            black_box(field.distance_field(troop, &goals, &none));
        },
        runs,
    );
    let field_floor = median(
        || {
            black_box(floor(&field, &multipliers, &goals, None));
        },
        runs,
    );

    println!(
        "pathing on a 72\"x48\" table at 0.5\" cells ({} cells), median of {runs} runs",
        field.grid.len()
    );
    println!(
        "  build battlefield (raster + graph): {:>9.3} ms",
        build.as_secs_f64() * 1e3
    );
    println!(
        "  route  (A* on petgraph Csr):        {:>9.3} ms  (cell-path cost {floor_cost:.2}, legs cost {:.2})",
        route_time.as_secs_f64() * 1e3,
        route.cost()
    );
    println!(
        "    of which the A* search:           {:>9.3} ms",
        search_time.as_secs_f64() * 1e3
    );
    println!(
        "  floor  (flat-array Dijkstra):       {:>9.3} ms",
        route_floor.as_secs_f64() * 1e3
    );
    println!(
        "  field  (multi-source, petgraph):    {:>9.3} ms",
        field_time.as_secs_f64() * 1e3
    );
    println!(
        "  floor  (flat-array Dijkstra):       {:>9.3} ms",
        field_floor.as_secs_f64() * 1e3
    );
    println!(
        "  route/floor = {:.2}",
        route_time.as_secs_f64() / route_floor.as_secs_f64()
    );
    println!(
        "  search/floor = {:.2} (the route without turning it into legs)",
        search_time.as_secs_f64() / route_floor.as_secs_f64()
    );
    println!(
        "  field/floor = {:.2}",
        field_time.as_secs_f64() / field_floor.as_secs_f64()
    );
}
