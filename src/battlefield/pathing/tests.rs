//! The pathing tests: routes round lakes, over fords and along roads, the
//! allowance, uphill, blocked cells, fields; and, as property tests, every
//! shortcut answering bit for bit as the plain search or walk it replaced.

use super::super::tests::{guilford, p, table};
use super::super::{Edge, Shape};
use super::legs::{Quick, SEGMENT_ESTIMATE_ERROR};
use super::squares::Squares;
use super::*;
use crate::battlefield::CellIndex;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

fn infantry(field: &Battlefield) -> TroopTypeId {
    field.ruleset.troop_type("british-regulars").unwrap()
}

#[test]
fn open_ground_is_one_straight_leg() {
    let field = table(24.0, 24.0, &[]);
    let route = field
        .route(
            infantry(&field),
            p(2.0, 2.0),
            p(20.0, 14.0),
            &CellSet::none(),
        )
        .unwrap();
    assert_eq!(route.legs.len(), 1, "{:?}", route.legs);
    let straight = p(2.0, 2.0).distance(p(20.0, 14.0));
    assert!(
        (route.cost() - straight).abs() < 0.01,
        "{} vs {straight}",
        route.cost()
    );
    assert_eq!(route.bounds(6.0), 4);
}

#[test]
fn routes_go_round_a_lake() {
    let field = table(
        24.0,
        24.0,
        &[(
            "lake",
            Shape::Circle {
                centre: p(12.0, 12.0),
                radius: 5.0,
            },
            0.0,
        )],
    );
    let route = field
        .route(
            infantry(&field),
            p(2.0, 12.0),
            p(22.0, 12.0),
            &CellSet::none(),
        )
        .unwrap();
    let lake = Shape::Circle {
        centre: p(12.0, 12.0),
        radius: 5.0,
    };
    for leg in route.legs() {
        for w in 0..=20 {
            assert!(
                !lake.contains(leg.start().lerp(leg.end(), w as f64 / 20.0)),
                "leg {leg:?} wets its feet"
            );
        }
    }
    assert!(route.legs.len() >= 2);
    assert!(
        route.cost() > 20.0 && route.cost() < 26.0,
        "{}",
        route.cost()
    );
}

#[test]
fn rivers_are_crossed_at_the_ford() {
    let field = table(
        24.0,
        24.0,
        &[
            (
                "river",
                Shape::Line {
                    points: vec![p(0.0, 12.0), p(24.0, 12.0)],
                    width: 1.0,
                },
                0.0,
            ),
            (
                "ford",
                Shape::Rect {
                    min: p(19.0, 11.0),
                    max: p(21.0, 13.0),
                },
                0.0,
            ),
        ],
    );
    let troop = infantry(&field);
    let route = field
        .route(troop, p(4.0, 4.0), p(4.0, 20.0), &CellSet::none())
        .unwrap();
    let crosses_at_ford = route
        .waypoints
        .iter()
        .any(|w| (w.point.y - 12.0).abs() < 0.6 && w.point.x > 18.9 && w.point.x < 21.1);
    assert!(crosses_at_ford, "{:?}", route.legs);
    // Without the ford nobody crosses.
    let dry = table(
        24.0,
        24.0,
        &[(
            "river",
            Shape::Line {
                points: vec![p(0.0, 12.0), p(24.0, 12.0)],
                width: 0.3,
            },
            0.0,
        )],
    );
    assert!(
        dry.route(troop, p(4.0, 4.0), p(4.0, 20.0), &CellSet::none())
            .is_none()
    );
    // Not even along a diagonal river.
    let diagonal = table(
        24.0,
        24.0,
        &[(
            "river",
            Shape::Line {
                points: vec![p(0.0, 0.0), p(24.0, 24.0)],
                width: 0.1,
            },
            0.0,
        )],
    );
    assert!(
        diagonal
            .route(troop, p(18.0, 4.0), p(4.0, 18.0), &CellSet::none())
            .is_none()
    );
}

#[test]
fn routes_prefer_a_road() {
    // A road that bends round woods: guns must keep to it; foot take it
    // because 9" a move on the road beats 3" a move in the woods.
    let road = Shape::Line {
        points: vec![
            p(12.0, 0.0),
            p(12.0, 8.0),
            p(16.0, 12.0),
            p(12.0, 16.0),
            p(12.0, 24.0),
        ],
        width: 1.0,
    };
    let field = table(
        24.0,
        24.0,
        &[
            (
                "woods",
                Shape::Rect {
                    min: p(0.0, 6.0),
                    max: p(24.0, 18.0),
                },
                0.0,
            ),
            ("road", road, 0.0),
        ],
    );
    let gun = field.ruleset.troop_type("artillery").unwrap();
    let route = field
        .route(gun, p(12.0, 1.0), p(12.0, 23.0), &CellSet::none())
        .unwrap();
    assert!(
        route
            .legs
            .iter()
            .any(|leg| leg.along_road && leg.points.len() > 2)
    );
    let foot = field
        .route(
            infantry(&field),
            p(12.0, 1.0),
            p(12.0, 23.0),
            &CellSet::none(),
        )
        .unwrap();
    assert!(foot.cost() < 22.0 * 6.0 / 9.0 * 1.3, "{}", foot.cost());
    // Along the road the 6" move reaches 9" of table.
    let clipped = foot.clip(6.0);
    assert!((clipped.length() - 9.0).abs() < 0.3, "{}", clipped.length());
}

#[test]
fn clipping_to_the_allowance() {
    let field = table(24.0, 24.0, &[]);
    let route = field
        .route(
            infantry(&field),
            p(2.0, 2.0),
            p(2.0, 20.0),
            &CellSet::none(),
        )
        .unwrap();
    let clipped = route.clip(6.0);
    assert!((clipped.cost() - 6.0).abs() < 1e-6);
    assert!((clipped.end().y - 8.0).abs() < 1e-6, "{:?}", clipped.end());
    assert_eq!(route.clip(100.0), route);
    assert!(route.clip(0.0).legs.is_empty());
    // Half movement in woods: 6" of allowance is 3" of table.
    let woods = table(
        24.0,
        24.0,
        &[(
            "woods",
            Shape::Rect {
                min: p(0.0, 0.0),
                max: p(24.0, 24.0),
            },
            0.0,
        )],
    );
    let slow = woods
        .route(
            infantry(&woods),
            p(2.0, 2.0),
            p(2.0, 20.0),
            &CellSet::none(),
        )
        .unwrap();
    assert!((slow.clip(6.0).end().y - 5.0).abs() < 1e-6);
}

#[test]
fn uphill_is_half_speed_downhill_is_not() {
    let field = table(
        24.0,
        24.0,
        &[(
            "hill",
            Shape::Rect {
                min: p(0.0, 12.0),
                max: p(24.0, 36.0),
            },
            3.0,
        )],
    );
    let troop = infantry(&field);
    let up = field
        .route(troop, p(12.0, 12.5), p(12.0, 20.0), &CellSet::none())
        .unwrap();
    let down = field
        .route(troop, p(12.0, 20.0), p(12.0, 12.5), &CellSet::none())
        .unwrap();
    assert!(
        up.cost() > 1.8 * down.cost(),
        "up {} down {}",
        up.cost(),
        down.cost()
    );
}

#[test]
fn blocked_cells_are_avoided_and_fields_find_the_edge() {
    let field = table(24.0, 24.0, &[]);
    let troop = infantry(&field);
    let wall_of_units = super::super::Base::new(p(12.0, 12.0), 0.0, 20.0, 2.0);
    let blocked = field.occupied([&wall_of_units]);
    let route = field
        .route(troop, p(12.0, 4.0), p(12.0, 20.0), &blocked)
        .unwrap();
    assert!(route.cost() > 17.0, "{}", route.cost());
    let home = field.distance_field(troop, &field.edge_cells(Edge::South), &CellSet::none());
    let cell = field.grid.cell_at(p(5.0, 10.0)).unwrap();
    assert!((home.cost_at(cell).unwrap() - 10.0).abs() < 0.01);
    let back = field
        .route_down(&home, p(5.0, 10.0), &CellSet::none())
        .unwrap();
    assert!(back.end().y < 0.5);
}

/// `uniform_radii` by brute force: one less than the Chebyshev distance
/// to the nearest cell with another multiplier or height, or
/// impassable; 0 on impassable cells.
fn uniform_radii_plain(field: &Battlefield, category: usize) -> Vec<u16> {
    let grid = &field.grid;
    let multipliers = &field.multipliers[category];
    let label = |cell: usize| {
        multipliers[cell]
            .is_finite()
            .then(|| (multipliers[cell].to_bits(), grid.ground[cell].to_bits()))
    };
    (0..grid.len())
        .map(|cell| {
            if label(cell).is_none() {
                return 0;
            }
            let (x, y) = (cell % grid.width, cell / grid.width);
            let nearest = (0..grid.len())
                .filter(|&other| label(other) != label(cell))
                .map(|other| {
                    let (ox, oy) = (other % grid.width, other / grid.width);
                    ox.abs_diff(x).max(oy.abs_diff(y))
                })
                .min();
            nearest.map_or(u16::MAX - 1, |d| (d - 1) as u16)
        })
        .collect()
}

#[test]
fn uniform_radii_match_the_brute_force_ones() {
    let hill = Shape::Circle {
        centre: p(6.0, 14.0),
        radius: 4.0,
    };
    let lake = Shape::Circle {
        centre: p(16.0, 6.0),
        radius: 2.5,
    };
    let woods = Shape::Rect {
        min: p(1.0, 1.0),
        max: p(9.0, 5.5),
    };
    let road = Shape::Line {
        points: vec![p(0.0, 9.0), p(20.0, 11.0)],
        width: 1.0,
    };
    let field = table(
        20.0,
        18.0,
        &[
            ("hill", hill, 2.0),
            ("lake", lake, 0.0),
            ("woods", woods, 0.0),
            ("road", road, 0.0),
        ],
    );
    for category in 0..5 {
        assert_eq!(
            field.uniform(category),
            &uniform_radii_plain(&field, category)[..],
            "category {category}"
        );
    }
    // Open ground only: nothing differs anywhere.
    let open = table(5.0, 4.0, &[]);
    assert!(open.uniform(0).iter().all(|&r| r == u16::MAX - 1));
}

/// `route_through` as it was: every extension of a leg tested by
/// walking its whole line (the estimate, measured near the limit).
fn route_through_plain(
    field: &Battlefield,
    troop: TroopTypeId,
    from: Point,
    to: Point,
    cells: &[CellIndex],
    blocked: &CellSet,
    limit: f64,
) -> Route {
    let category = field.category(troop).index();
    let multipliers = &field.multipliers[category];
    let mut waypoints = Vec::with_capacity(cells.len());
    let mut total = 0.0f64;
    for (index, &cell) in cells.iter().enumerate() {
        let point = if index == 0 {
            from
        } else if index + 1 == cells.len() {
            to
        } else {
            field.grid.centre(cell)
        };
        if index > 0 {
            let previous = waypoints.last().map_or(from, |w: &Waypoint| w.point);
            total += field.step_cost(
                multipliers,
                cells[index - 1],
                cell,
                previous.distance(point) as f32,
            ) as f64;
        }
        waypoints.push(Waypoint { point, cost: total });
    }
    let start_cell = cells[0];
    let road: Vec<bool> = cells.iter().map(|&c| field.on_road(c)).collect();
    let mut legs: Vec<Leg> = Vec::new();
    let mut cursor = 0;
    let mut leg_cost = 0.0;
    while cursor + 1 < waypoints.len() && leg_cost < limit.max(0.0) {
        // A stretch of road: consecutive road cells, followed as they bend.
        if road[cursor] && road[cursor + 1] {
            let mut end = cursor + 1;
            while end + 1 < waypoints.len() && road[end + 1] {
                end += 1;
            }
            let points: Vec<Point> = waypoints[cursor..=end].iter().map(|w| w.point).collect();
            let base = waypoints[cursor].cost;
            let costs: Vec<f64> = waypoints[cursor..=end]
                .iter()
                .map(|w| w.cost - base + leg_cost)
                .collect();
            leg_cost = costs[costs.len() - 1];
            legs.push(Leg {
                points,
                costs,
                along_road: true,
            });
            cursor = end;
            continue;
        }
        // Off the road: pull the string as far as a straight line stays
        // on passable ground and costs no more than the cells it replaces.
        let mut end = cursor + 1;
        let mut end_cost = field
            .segment_cost(
                category,
                waypoints[cursor].point,
                waypoints[end].point,
                start_cell,
                blocked,
            )
            .unwrap_or(waypoints[end].cost - waypoints[cursor].cost);
        // Whether `end_cost` is the exact cost to `end` yet: an
        // extension decided by the estimate leaves it to be measured.
        let mut measured = true;
        while end + 1 < waypoints.len() && !(road[end] && road[end + 1]) {
            let path_cost = waypoints[end + 1].cost - waypoints[cursor].cost;
            let (a, b) = (waypoints[cursor].point, waypoints[end + 1].point);
            // The estimate settles the test unless the straight line's
            // cost is within its error of the limit; then it is measured.
            let limit = path_cost * 1.02 + 1e-3;
            let Some(estimate) = field.segment_cost_estimate(category, a, b, start_cell, blocked)
            else {
                break;
            };
            let error = estimate * SEGMENT_ESTIMATE_ERROR + SEGMENT_ESTIMATE_ERROR;
            if estimate + error <= limit {
                end += 1;
                measured = false;
                continue;
            }
            if estimate - error > limit {
                break;
            }
            match field.segment_cost(category, a, b, start_cell, blocked) {
                Some(straight) if straight <= limit => {
                    end += 1;
                    end_cost = straight;
                    measured = true;
                }
                _ => break,
            }
        }
        if !measured {
            end_cost = field
                .segment_cost(
                    category,
                    waypoints[cursor].point,
                    waypoints[end].point,
                    start_cell,
                    blocked,
                )
                .unwrap_or(waypoints[end].cost - waypoints[cursor].cost);
        }
        legs.push(Leg {
            points: vec![waypoints[cursor].point, waypoints[end].point],
            costs: vec![leg_cost, leg_cost + end_cost],
            along_road: false,
        });
        leg_cost += end_cost;
        cursor = end;
    }
    Route {
        troop,
        waypoints,
        legs,
    }
}

/// `cell_path` by its definition, through petgraph's `NodeFiltered` view
/// of the graph: every cell's cost from the start by a plain Dijkstra over
/// the whole table (steps priced by `step_cost` in whole units, rounded
/// up), then from the goal back, step after step, the first neighbour in
/// the graph's order on a cheapest way from the start.
fn cell_path_through_petgraph(
    field: &Battlefield,
    troop: TroopTypeId,
    from: Point,
    to: Point,
    blocked: &CellSet,
) -> Option<Vec<CellIndex>> {
    use petgraph::visit::EdgeRef;
    let source = field.grid.cell_at(from)?;
    let goal = field.grid.cell_at(to)?;
    let category = field.category(troop).index();
    let multipliers = &field.multipliers[category];
    if !multipliers[goal].is_finite() || (blocked.contains(goal) && goal != source) {
        return None;
    }
    let price = |from: usize, to: usize, length: f32| {
        super::search::units(field.step_cost(multipliers, from, to, length))
    };
    let cost = costs_from_start_through_petgraph(field, troop, source, blocked);
    if cost[goal] >= u64::from(u32::MAX) {
        return None;
    }
    let mut cells = vec![goal];
    let mut at = goal;
    while at != source {
        at = field
            .graph()
            .edges(at as u32)
            .map(|edge| (edge.target() as usize, *edge.weight()))
            .find(|&(previous, length)| {
                let step = price(previous, at, length);
                step != u32::MAX && cost[previous].checked_add(u64::from(step)) == Some(cost[at])
            })
            .expect("a cheapest way back from every cell on one")
            .0;
        cells.push(at);
    }
    cells.reverse();
    Some(cells)
}

/// Every cell's cost from `source` in the search's units (`u64::MAX`
/// where it cannot be reached), by a plain Dijkstra over petgraph's
/// `NodeFiltered` view of the graph (`source` open whatever stands on it).
fn costs_from_start_through_petgraph(
    field: &Battlefield,
    troop: TroopTypeId,
    source: CellIndex,
    blocked: &CellSet,
) -> Vec<u64> {
    use petgraph::visit::{EdgeRef, IntoEdges, NodeFiltered};
    let category = field.category(troop).index();
    let multipliers = &field.multipliers[category];
    let filtered = NodeFiltered::from_fn(field.graph(), |node: u32| {
        let cell = node as usize;
        cell == source || (multipliers[cell].is_finite() && !blocked.contains(cell))
    });
    let price = |from: usize, to: usize, length: f32| {
        super::search::units(field.step_cost(multipliers, from, to, length))
    };
    let n = field.grid.len();
    let (mut cost, mut done) = (vec![u64::MAX; n], vec![false; n]);
    let mut heap = BinaryHeap::new();
    cost[source] = 0;
    heap.push(Reverse((0u64, source as u32)));
    while let Some(Reverse((_, cell))) = heap.pop() {
        let cell = cell as usize;
        if done[cell] {
            continue;
        }
        done[cell] = true;
        for edge in (&filtered).edges(cell as u32) {
            let next = edge.target() as usize;
            let step = price(cell, next, *edge.weight());
            if done[next] || step == u32::MAX {
                continue;
            }
            let candidate = cost[cell] + u64::from(step);
            if candidate < cost[next] {
                cost[next] = candidate;
                heap.push(Reverse((candidate, next as u32)));
            }
        }
    }
    cost
}

/// `distance_field` as it was, through petgraph's `NodeFiltered`.
fn distance_field_through_petgraph(
    field: &Battlefield,
    troop: TroopTypeId,
    goals: &[CellIndex],
    blocked: &CellSet,
) -> Field {
    use petgraph::visit::{EdgeRef, IntoEdges, NodeFiltered};
    let category = field.category(troop).index();
    let multipliers = &field.multipliers[category];
    let n_cells = field.grid.len();
    let mut cost = vec![f32::INFINITY; n_cells];
    let mut next = vec![u32::MAX; n_cells];
    let mut done = vec![false; n_cells];
    let mut heap = BinaryHeap::new();
    let filtered = NodeFiltered::from_fn(field.graph(), |node: u32| {
        let cell = node as usize;
        multipliers[cell].is_finite() && !blocked.contains(cell)
    });
    for &goal in goals {
        if goal < n_cells && multipliers[goal].is_finite() && !blocked.contains(goal) {
            cost[goal] = 0.0;
            heap.push(Reverse((0, goal as u32)));
        }
    }
    while let Some(Reverse((_, cell))) = heap.pop() {
        let cell = cell as usize;
        if done[cell] {
            continue;
        }
        done[cell] = true;
        for edge in (&filtered).edges(cell as u32) {
            let neighbour = edge.target() as usize;
            if done[neighbour] {
                continue;
            }
            let candidate =
                cost[cell] + field.step_cost(multipliers, neighbour, cell, *edge.weight());
            if candidate < cost[neighbour] {
                cost[neighbour] = candidate;
                next[neighbour] = cell as u32;
                heap.push(Reverse((candidate.to_bits(), neighbour as u32)));
            }
        }
    }
    Field { troop, cost, next }
}

/// A run of cells inserted at once is the cells inserted one by one,
/// across word boundaries and past the set's end.
#[test]
fn spans_insert_the_cells_one_by_one_would() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
    for _ in 0..2000 {
        let n_cells = rng.random_range(1..400);
        let (mut spans, mut cells) = (CellSet::new(n_cells), CellSet::new(n_cells));
        for _ in 0..rng.random_range(0..6) {
            let first = rng.random_range(0..n_cells + 70);
            let len = rng.random_range(0..200);
            spans.insert_span(first, len);
            (first..first + len).for_each(|cell| cells.insert(cell));
        }
        assert_eq!(spans, cells);
    }
}

/// A goal shut in by blocked cells, or a start shut in, or a goal whose
/// shut space holds the start: the search answers as the plain one
/// does (no route, or the route inside), however small the space.
#[test]
fn goals_shut_in_are_found_unreachable_as_before() {
    let field = table(24.0, 24.0, &[]);
    let troop = infantry(&field);
    let width = field.grid.width;
    let ring = |cx: usize, cy: usize, r: usize| {
        let mut set = CellSet::new(field.grid.len());
        for y in cy - r..=cy + r {
            for x in cx - r..=cx + r {
                if x.abs_diff(cx) == r || y.abs_diff(cy) == r {
                    set.insert(y * width + x);
                }
            }
        }
        set
    };
    let centre = |x: usize, y: usize| field.grid.centre(y * width + x);
    let cases = [
        (ring(20, 20, 3), centre(5, 5), centre(20, 20)),
        (ring(20, 20, 3), centre(20, 20), centre(5, 5)),
        (ring(20, 20, 3), centre(21, 19), centre(20, 20)),
        (ring(20, 20, 1), centre(20, 20), centre(20, 20)),
        (ring(20, 20, 12), centre(40, 40), centre(20, 20)),
        (ring(24, 24, 20), centre(3, 3), centre(24, 24)),
    ];
    for (blocked, from, to) in cases {
        assert_eq!(
            field.cell_path(troop, from, to, &blocked),
            cell_path_through_petgraph(&field, troop, from, to, &blocked),
            "{from:?} to {to:?}"
        );
    }
    assert_eq!(
        field.cell_path(troop, centre(5, 5), centre(20, 20), &ring(20, 20, 3)),
        None
    );
}

/// A start on ground the troop cannot enter (horse in a wood, found by
/// the property test when the search walked the grid): every step from
/// it costs infinitely much, so nothing is reached, as the graph's search
/// found (nor is the start's own cell a goal, being such ground).
#[test]
fn a_start_the_troop_cannot_enter_reaches_nothing() {
    let field = guilford();
    let horse = field.ruleset.troop_type("cavalry").unwrap();
    let category = field.category(horse).index();
    let start = (0..field.grid.len())
        .find(|&cell| !field.multipliers[category][cell].is_finite())
        .expect("ground horse cannot enter at Guilford");
    let from = field.grid.centre(start);
    for to in [p(18.14, 0.0), p(60.0, 40.0), from] {
        assert_eq!(
            field.cell_path(horse, from, to, &CellSet::none()),
            cell_path_through_petgraph(&field, horse, from, to, &CellSet::none()),
            "to {to:?}"
        );
    }
    assert_eq!(
        field.cell_path(horse, from, from, &CellSet::none()),
        None,
        "the start's own cell cannot be a goal the troop cannot enter"
    );
}

/// Cells joined over bare ground are exactly those between which the
/// search over bare ground finds a path of more than one cell: on
/// Guilford (every troop type, starts and goals anywhere, on ground they
/// cannot enter too) and on a table a river without a ford cuts in two.
#[test]
fn joined_over_bare_ground_is_the_search_finding_a_way() {
    use rand::{RngExt, SeedableRng};
    let river = (
        "river",
        Shape::Line {
            points: vec![p(0.0, 12.0), p(24.0, 12.0)],
            width: 1.0,
        },
        0.0,
    );
    let lake = (
        "lake",
        Shape::Circle {
            centre: p(6.0, 5.0),
            radius: 2.0,
        },
        0.0,
    );
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
    for field in [guilford(), table(24.0, 24.0, &[river, lake])] {
        let (mut joined, mut apart) = (0, 0);
        for _ in 0..400 {
            let troop = field
                .ruleset
                .troop_type(["british-regulars", "cavalry", "artillery"][rng.random_range(0..3)])
                .unwrap();
            let mut point = || {
                p(
                    rng.random_range(-0.5..field.width() + 0.5),
                    rng.random_range(-0.5..field.height() + 0.5),
                )
            };
            let (from, to) = (point(), point());
            let to = if rng.random_bool(0.05) { from } else { to };
            let searched = field
                .cell_path(troop, from, to, &CellSet::none())
                .is_some_and(|cells| cells.len() > 1);
            assert_eq!(
                field.joined_over_bare_ground(troop, from, to),
                searched,
                "{from:?} to {to:?}"
            );
            if searched {
                joined += 1;
            } else {
                apart += 1;
            }
        }
        assert!(joined > 50 && apart > 50, "{joined} joined, {apart} apart");
    }
}

/// `cover` and `column` read a cell's kinds without listing them, and
/// answer as the list would, on every cell of the Guilford table.
#[test]
fn cover_and_column_answer_as_the_kinds_listed() {
    let field = guilford();
    let (grid, ruleset) = (&field.grid, &field.ruleset);
    let mut covered = 0;
    for cell in 0..grid.len() {
        let kinds = grid.kinds_at(ruleset, cell);
        let cover = kinds.iter().any(|k| ruleset.kind(*k).cover);
        assert_eq!(grid.cover(ruleset, cell), cover, "cell {cell}");
        let column = kinds.iter().map(|k| ruleset.kind(*k).column).max();
        assert_eq!(Some(grid.column(ruleset, cell)), column, "cell {cell}");
        covered += usize::from(cover);
    }
    assert!(covered > 0 && covered < grid.len());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// Walking the grid's neighbours directly finds the same paths and
    /// fields, cell for cell and bit for bit.
    #[test]
    fn searches_match_the_petgraph_versions(
        troop_pick in 0usize..3,
        from in (0.0f64..48.0, 0.0f64..48.0),
        to in (0.0f64..48.0, 0.0f64..48.0),
        units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..8),
        edge_pick in 0usize..4,
    ) {
        thread_local! {
            static FIELD: Battlefield = guilford();
        }
        FIELD.with(|field| {
            let troop = field
                .ruleset
                .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                .unwrap();
            let bases: Vec<_> = units
                .iter()
                .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                .collect();
            let blocked = field.occupied(&bases);
            let (from, to) = (p(from.0, from.1), p(to.0, to.1));
            for set in [&blocked, &CellSet::none()] {
                proptest::prop_assert_eq!(
                    field.cell_path(troop, from, to, set),
                    cell_path_through_petgraph(field, troop, from, to, set)
                );
            }
            let goals = field.edge_cells(Edge::ALL[edge_pick]);
            let ours = field.distance_field(troop, &goals, &blocked);
            let theirs = distance_field_through_petgraph(field, troop, &goals, &blocked);
            proptest::prop_assert_eq!(&ours.next, &theirs.next);
            let bits = |f: &Field| f.cost.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&ours), bits(&theirs));
            Ok(())
        })?;
    }

    /// Routes, legs and costs are bit for bit those of pulling the
    /// string by walking every line, for any limit.
    #[test]
    fn routes_match_the_plain_string_pulling(
        troop_pick in 0usize..3,
        from in (0.0f64..48.0, 0.0f64..48.0),
        to in (0.0f64..48.0, 0.0f64..48.0),
        units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..12),
        limit_pick in 0usize..4,
        edge_pick in 0usize..4,
    ) {
        thread_local! {
            static FIELD: Battlefield = guilford();
        }
        FIELD.with(|field| {
            let troop = field
                .ruleset
                .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                .unwrap();
            let bases: Vec<_> = units
                .iter()
                .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                .collect();
            let blocked = field.occupied(&bases);
            let (from, to) = (p(from.0, from.1), p(to.0, to.1));
            let limit = [f64::INFINITY, 5.82, 11.64, 0.5][limit_pick];
            let bits = |route: &Option<Route>| format!("{route:?}");
            for set in [&blocked, &CellSet::none()] {
                let ours = field.route_within(troop, from, to, set, limit);
                let theirs = field
                    .cell_path(troop, from, to, set)
                    .map(|cells| route_through_plain(field, troop, from, to, &cells, set, limit));
                proptest::prop_assert_eq!(bits(&ours), bits(&theirs));
            }
            // Down a distance field, as units falling back go.
            let goals = field.edge_cells(Edge::ALL[edge_pick]);
            let home = field.distance_field(troop, &goals, &CellSet::none());
            let ours = field.route_down_within(&home, from, &blocked, limit);
            let theirs = field.grid.cell_at(from).and_then(|start| {
                let cells = home.path_from(start)?;
                let end = field.grid.centre(*cells.last()?);
                Some(route_through_plain(field, troop, from, end, &cells, &blocked, limit))
            });
            proptest::prop_assert_eq!(bits(&ours), bits(&theirs));
            Ok(())
        })?;
    }

    /// `segment_quick` says `Within` only when the estimate with its
    /// error is within the limit, and `Impassable` only when the
    /// estimate is `None`, with limits a hair either side of it.
    #[test]
    fn quick_segment_answers_agree_with_the_estimate(
        troop_pick in 0usize..3,
        from in (0.0f64..48.0, 0.0f64..48.0),
        to in (0.0f64..48.0, 0.0f64..48.0),
        units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..8),
        nudge in -2000i32..2000,
    ) {
        thread_local! {
            static FIELD: Battlefield = guilford();
        }
        FIELD.with(|field| {
            let troop = field
                .ruleset
                .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                .unwrap();
            let category = field.category(troop).index();
            let bases: Vec<_> = units
                .iter()
                .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                .collect();
            let blocked = field.occupied(&bases);
            let (from, to) = (p(from.0, from.1), p(to.0, to.1));
            let start = field.grid.cell_at(from).unwrap();
            for set in [&blocked, &CellSet::none()] {
                let estimate = field.segment_cost_estimate(category, from, to, start, set);
                let error = |e: f64| e * SEGMENT_ESTIMATE_ERROR + SEGMENT_ESTIMATE_ERROR;
                // Limits around the estimate with its error, 1e-13 apart,
                // and the largest that the estimate is not within.
                let edge = estimate.map(|e| e + error(e)).filter(|e| e.is_finite() && *e > 0.0);
                let limits = [
                    edge.map_or(10.0, |e| e * (1.0 + f64::from(nudge) * 1e-13)),
                    edge.map_or(10.0, |e| f64::from_bits(e.to_bits() - 1)),
                ];
                for limit in limits {
                    let mut squares = Squares::default();
                    squares.start(field.grid.len());
                    let quick =
                        field.segment_quick(category, from, to, start, set, limit, &mut squares);
                    match quick {
                        Quick::Within => {
                            let e = estimate.unwrap();
                            proptest::prop_assert!(e + error(e) <= limit);
                        }
                        Quick::Impassable => proptest::prop_assert!(estimate.is_none()),
                        Quick::Unsure => {}
                    }
                }
                // Far from the limit the quick answer is always sure.
                if let Some(e) = estimate {
                    let roomy = (e + error(e)) * 1.001 + 1e-6;
                    let mut squares = Squares::default();
                    squares.start(field.grid.len());
                    let quick = field.segment_quick(category, from, to, start, set, roomy, &mut squares);
                    if e.is_finite() {
                        proptest::prop_assert_eq!(quick, Quick::Within);
                    }
                } else {
                    let mut squares = Squares::default();
                    squares.start(field.grid.len());
                    let quick = field.segment_quick(category, from, to, start, set, 10.0, &mut squares);
                    proptest::prop_assert_eq!(quick, Quick::Impassable);
                }
            }
            Ok(())
        })?;
    }

    /// The string-pulling estimate of a straight line's cost is
    /// impassable exactly when the measured cost is, and otherwise
    /// within a thousandth of the error bound string pulling allows it.
    #[test]
    fn segment_estimates_are_within_their_error_bound(
        troop_pick in 0usize..3,
        from in (0.0f64..48.0, 0.0f64..48.0),
        to in (0.0f64..48.0, 0.0f64..48.0),
        units in proptest::collection::vec((0.0f64..48.0, 0.0f64..48.0, 0.0f64..360.0), 0..8),
    ) {
        thread_local! {
            static FIELD: Battlefield = guilford();
        }
        FIELD.with(|field| {
            let troop = field
                .ruleset
                .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                .unwrap();
            let category = field.category(troop).index();
            let bases: Vec<_> = units
                .iter()
                .map(|&(x, y, facing)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                .collect();
            let blocked = field.occupied(&bases);
            let (from, to) = (p(from.0, from.1), p(to.0, to.1));
            let start = field.grid.cell_at(from).unwrap();
            for set in [&blocked, &CellSet::none()] {
                let exact = field.segment_cost(category, from, to, start, set);
                let estimate = field.segment_cost_estimate(category, from, to, start, set);
                proptest::prop_assert_eq!(exact.is_some(), estimate.is_some());
                if let (Some(exact), Some(estimate)) = (exact, estimate) {
                    if !exact.is_finite() {
                        // Starting in ground it cannot enter.
                        proptest::prop_assert_eq!(exact, estimate);
                        continue;
                    }
                    let bound = (exact * SEGMENT_ESTIMATE_ERROR + SEGMENT_ESTIMATE_ERROR) * 1e-3;
                    proptest::prop_assert!(
                        (exact - estimate).abs() <= bound,
                        "{} vs {}",
                        exact,
                        estimate
                    );
                }
            }
            Ok(())
        })?;
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// A set whose units' cells are deferred answers every question as the
    /// set built whole does: routes (the search and the legs), single
    /// cells and, worked out at last, the whole set; also with a cell taken
    /// out (a target to reach) and with some units worked out before.
    #[test]
    fn deferred_sets_answer_as_the_whole_set(
        troop_pick in 0usize..3,
        from in (0.0f64..72.0, 0.0f64..48.0),
        to in (0.0f64..72.0, 0.0f64..48.0),
        units in proptest::collection::vec(
            (0.0f64..72.0, 0.0f64..48.0, 0.0f64..360.0, proptest::bool::ANY),
            0..60,
        ),
        mover_facing in 0.0f64..360.0,
        take_out_goal in proptest::bool::ANY,
        probes in proptest::collection::vec(0usize..20_000, 0..20),
    ) {
        thread_local! {
            static FIELD: Battlefield = guilford();
        }
        FIELD.with(|field| {
            let troop = field
                .ruleset
                .troop_type(["british-regulars", "cavalry", "artillery"][troop_pick])
                .unwrap();
            let bases: Vec<_> = units
                .iter()
                .map(|&(x, y, facing, _)| super::super::Base::new(p(x, y), facing, 4.0, 1.0))
                .collect();
            let mover = super::super::Base::new(p(from.0, from.1), mover_facing, 3.0, 1.5);
            let (from, to) = (p(from.0, from.1), p(to.0, to.1));
            let mut whole = field.blocked_for(&mover, &bases);
            let goal = field.grid.cell_at(to);
            let deferred = || {
                let mut set = field.deferred_cells();
                for (base, &(_, _, _, known)) in bases.iter().zip(&units) {
                    let spans = Spans::default();
                    if known {
                        let mut cells = Vec::new();
                        field.for_each_span_blocked_for(&mover, base, |first, len| {
                            cells.push((first, len));
                        });
                        spans.set(cells).unwrap();
                    }
                    set.defer(&mover, base, spans);
                }
                if take_out_goal && let Some(goal) = goal {
                    set.remove(goal);
                }
                set
            };
            if take_out_goal && let Some(goal) = goal {
                whole.remove(goal);
            }
            proptest::prop_assert_eq!(
                field.cell_path(troop, from, to, &deferred()),
                field.cell_path(troop, from, to, &whole)
            );
            proptest::prop_assert_eq!(
                field.route(troop, from, to, &deferred()),
                field.route(troop, from, to, &whole)
            );
            let set = deferred();
            for &cell in &probes {
                let cell = cell % field.grid.len();
                proptest::prop_assert_eq!(set.contains(cell), whole.contains(cell), "cell {}", cell);
            }
            proptest::prop_assert!(set == whole);
            Ok(())
        })?;
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// On three shipped tables, with units in the way: the guides' bound
    /// never exceeds a cell's true cost to the start (a plain Dijkstra
    /// over the whole table), and the search, steered by it, finds the
    /// very path of the plain search's definition. The estimate changes
    /// how much is searched, never what is found.
    #[test]
    fn the_guides_estimate_changes_no_route(
        table_pick in 0usize..3,
        troop_pick in 0usize..3,
        from in (0.0f64..1.0, 0.0f64..1.0),
        to in (0.0f64..1.0, 0.0f64..1.0),
        units in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, 0.0f64..360.0), 0..12),
    ) {
        thread_local! {
            static FIELDS: Vec<Battlefield> = ["guilford", "monongahela", "learning"]
                .into_iter()
                .map(|name| {
                    let (file, text) = crate::scenario::builtin(name).unwrap();
                    let scenario = crate::scenario::load(
                        crate::yaml::Source::new(file, text),
                        crate::ruleset::Ruleset::builtin,
                    )
                    .unwrap();
                    scenario.battlefield.as_ref().clone()
                })
                .collect();
        }
        FIELDS.with(|fields| {
            let field = &fields[table_pick];
            let (width, height) = (field.width(), field.height());
            let p = |(x, y): (f64, f64)| p(x * width, y * height);
            let troop = TroopTypeId(troop_pick * 2 % field.ruleset.troop_types.len());
            let category = field.category(troop).index();
            let bases: Vec<_> = units
                .iter()
                .map(|&(x, y, facing)| super::super::Base::new(p((x, y)), facing, 4.0, 1.0))
                .collect();
            let blocked = field.occupied(&bases);
            let (from, to) = (p(from), p(to));
            let (Some(_), Some(goal)) = (field.grid.cell_at(from), field.grid.cell_at(to))
            else {
                return Ok(());
            };
            // The bound is the same both ways: each cell's cost from the
            // goal bounds it as its cost to the goal does.
            let exact = costs_from_start_through_petgraph(field, troop, goal, &blocked);
            let guides = field.guides(category);
            for (cell, &cost) in exact.iter().enumerate() {
                if cost < u64::from(u32::MAX) {
                    let bound = super::guides::lower_bound(&guides[cell], &guides[goal]);
                    proptest::prop_assert!(
                        u64::from(bound) <= cost,
                        "cell {} bound {} cost {}", cell, bound, cost
                    );
                }
            }
            proptest::prop_assert_eq!(
                field.cell_path(troop, from, to, &blocked),
                cell_path_through_petgraph(field, troop, from, to, &blocked)
            );
            Ok(())
        })?;
    }
}

/// Tables the guides serve badly: a river without a ford cutting the table
/// in two (so half the guides reach neither end, or only one), lakes over
/// two corners (so the guides stand elsewhere), units scattered across:
/// every route is the plain search's, and none is found across the river.
#[test]
fn routes_stay_the_plain_searchs_where_guides_cannot_reach() {
    use rand::{RngExt, SeedableRng};
    let river = (
        "river",
        Shape::Line {
            points: vec![p(0.0, 14.0), p(36.0, 10.0)],
            width: 1.0,
        },
        0.0,
    );
    let lake = |x: f64, y: f64| {
        (
            "lake",
            Shape::Circle {
                centre: p(x, y),
                radius: 4.0,
            },
            0.0,
        )
    };
    let field = table(36.0, 24.0, &[river, lake(0.0, 0.0), lake(36.0, 24.0)]);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(12);
    let (mut found, mut none) = (0, 0);
    for _ in 0..300 {
        let troop = field
            .ruleset
            .troop_type(["british-regulars", "cavalry", "artillery"][rng.random_range(0..3)])
            .unwrap();
        let point = |rng: &mut rand::rngs::ChaCha8Rng| {
            p(rng.random_range(0.0..36.0), rng.random_range(0.0..24.0))
        };
        let (from, to) = (point(&mut rng), point(&mut rng));
        let bases: Vec<_> = (0..rng.random_range(0..8))
            .map(|_| {
                let centre = point(&mut rng);
                super::super::Base::new(centre, rng.random_range(0.0..360.0), 4.0, 1.0)
            })
            .collect();
        let blocked = field.occupied(&bases);
        let ours = field.cell_path(troop, from, to, &blocked);
        assert_eq!(
            ours,
            cell_path_through_petgraph(&field, troop, from, to, &blocked),
            "{from:?} to {to:?}"
        );
        if ours.is_some() {
            found += 1;
        } else {
            none += 1;
        }
    }
    assert!(found > 50 && none > 50, "{found} found, {none} none");
}
