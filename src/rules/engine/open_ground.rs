//! Straight moves over one kind of ground, decided without walking them
//! (issue 18). Around most units every cell a move within their allowance
//! could sample is alike: the same cost of an inch, the same height, road
//! or not. A walk over such ground costs its length times that inch,
//! to within rounding far below the margins used here, so its answer is
//! known from the length alone unless the length is within a hair of the
//! allowance (then the walk is taken). Which cells are alike is worked out
//! once per table and category on a thread: for each cell, the largest
//! square of cells round it that are all like it; a move hops along its
//! line from square to square.

use super::quick_moves::same_table;
use crate::battlefield::{Battlefield, Point, Vector};
use crate::rules::state::{GameState, Unit};
use crate::ruleset::TroopTypeId;
use std::cell::RefCell;
use std::sync::{Arc, Weak};

/// Per category (troop types of a category price ground alike), for each cell: how many cells each way round it (a
/// square, Chebyshev distance) are all alike it ([`uniform_radii`]); empty
/// until first asked for.
struct Radii {
    table: Weak<Battlefield>,
    by_category: [Vec<u16>; 5],
}

thread_local! {
    static RADII: RefCell<Radii> = const {
        RefCell::new(Radii {
            table: Weak::new(),
            by_category: [Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new()],
        })
    };
}

/// How far along one line from where a unit stands every cell within a
/// hair of the line is alike, and what an inch costs there.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenRay {
    /// Every point within 0.001" of the line, at most this far along it,
    /// lies in a cell alike the start's.
    covered: f64,
    /// What the walk prices an inch at in those cells.
    inch: f64,
}

impl GameState {
    /// How far along `direction` (of length 1) from where `unit` stands
    /// the ground is alike, looking no farther than `up_to`: `None` if the
    /// start's own cell cannot be entered or sits next to unlike ground.
    pub(super) fn open_ray(&self, unit: &Unit, direction: Vector, up_to: f64) -> Option<OpenRay> {
        let field = &self.battlefield;
        let grid = &field.grid;
        let start = unit.base.centre;
        let label = |cell: usize| {
            (
                field.cost_multiplier(unit.troop, cell).map(f64::to_bits),
                grid.ground[cell].to_bits(),
                field.on_road(cell),
            )
        };
        let first = grid.cell_at(start)?;
        let alike = label(first);
        // Hop along the line: round a point whose cell has radius `r`,
        // every cell within `r` each way is alike it, so every point within
        // `r - 1` cells each way (a cell to spare for rounding) lies in
        // such a cell; points within 0.001" of the line and of the hop's
        // point along it are, and the next hop is that far on.
        let covered = with_radii(field, unit.troop, |radii| {
            let mut along: f64 = 0.0;
            let mut covered: f64 = 0.0;
            loop {
                let point = start + direction * along;
                let Some(cell) = grid.cell_at(point) else {
                    return covered;
                };
                let radius = radii[cell];
                if radius < 2 || label(cell) != alike {
                    return covered;
                }
                let reach = f64::from(radius - 1) * grid.cell - 0.001;
                covered = along + reach;
                if covered > up_to {
                    return covered;
                }
                along += reach - 0.001;
            }
        });
        if covered <= 0.0 {
            return None;
        }
        // The walk prices every step at its cell's inch; off the road of a
        // road move, a road cell loses its bonus.
        let mut inch = field.cost_multiplier(unit.troop, first)?;
        if field.on_road(first) {
            inch *= self.road_factor(unit.category);
        }
        Some(OpenRay { covered, inch })
    }

    /// `walk_cost`'s answer for `unit` going straight from where it stands
    /// to `to` (not along a road, dearer uphill, a yes or no), when `ray`
    /// (along a line `to` is within 0.001" of) decides it without a walk:
    /// every cell the walk could sample alike (one price, one height, so
    /// never climbing), all on the table, and the length not within a hair
    /// of the allowance. `None` when the walk must be taken.
    pub(super) fn straight_walk_on_open_ground(
        &self,
        unit: &Unit,
        ray: &OpenRay,
        to: Point,
    ) -> Option<bool> {
        let grid = &self.battlefield.grid;
        let start = unit.base.centre;
        let length = (to - start).length();
        // The sampled points lie on the segment, within 0.001" of the ray
        // and no farther along it than the length and a hair.
        if length + 0.01 > ray.covered {
            return None;
        }
        // Both ends well inside the table keep every sampled point on it.
        let inside = |p: Point| {
            let margin = 2.0 * grid.cell;
            p.x > margin
                && p.y > margin
                && p.x < grid.table_width - margin
                && p.y < grid.table_height - margin
        };
        if !inside(start) || !inside(to) {
            return None;
        }
        let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
        let limit = allowance + 1e-6;
        // The walk's cost is the sum of its steps' lengths times the inch:
        // within 1e-12 of `length * inch` or so; these margins are far wider.
        let cost = length * ray.inch;
        if cost * (1.0 + 1e-9) + 1e-9 <= limit {
            Some(true)
        } else if cost * (1.0 - 1e-9) - 1e-9 > limit {
            Some(false)
        } else {
            None
        }
    }
}

/// `answer` of the radii of `troop`'s category on `field`, worked out on
/// first use.
fn with_radii<T>(
    field: &Arc<Battlefield>,
    troop: TroopTypeId,
    answer: impl FnOnce(&[u16]) -> T,
) -> T {
    let category = field.category(troop).index();
    RADII.with_borrow_mut(|radii| {
        if !same_table(&radii.table, field) {
            radii.table = Arc::downgrade(field);
            radii.by_category = Default::default();
        }
        if radii.by_category[category].is_empty() {
            radii.by_category[category] = uniform_radii(field, troop);
        }
        answer(&radii.by_category[category])
    })
}

/// For each cell of `field`, the largest `r` such that every cell of the
/// grid within `r` cells of it each way (a square) is alike it for
/// `troop`: the same cost of an inch (or both impassable), the same
/// height, and both on a road or both off it. A cell with a neighbour
/// unlike it has 0; any other has one more than the least of its
/// neighbours' (the squares of radius `r - 1` round its eight neighbours
/// cover its square of radius `r`), which two passes over the grid work
/// out as a Chebyshev distance to the nearest such cell.
pub(super) fn uniform_radii(field: &Battlefield, troop: TroopTypeId) -> Vec<u16> {
    let grid = &field.grid;
    let (width, height) = (grid.width, grid.height);
    let label = |cell: usize| {
        (
            field.cost_multiplier(troop, cell).map(f64::to_bits),
            grid.ground[cell].to_bits(),
            field.on_road(cell),
        )
    };
    let labels: Vec<_> = (0..width * height).map(label).collect();
    let mut radii = vec![u16::MAX - 1; width * height];
    for y in 0..height {
        for x in 0..width {
            let cell = y * width + x;
            let unlike = (y.saturating_sub(1)..(y + 2).min(height)).any(|ny| {
                (x.saturating_sub(1)..(x + 2).min(width))
                    .any(|nx| labels[ny * width + nx] != labels[cell])
            });
            if unlike {
                radii[cell] = 0;
            }
        }
    }
    // Forward: the neighbours west, south-west, south and south-east;
    // backward: east, north-east, north and north-west.
    for y in 0..height {
        for x in 0..width {
            let cell = y * width + x;
            let mut least = radii[cell];
            if x > 0 {
                least = least.min(radii[cell - 1].saturating_add(1));
            }
            if y > 0 {
                let below = cell - width;
                least = least.min(radii[below].saturating_add(1));
                if x > 0 {
                    least = least.min(radii[below - 1].saturating_add(1));
                }
                if x + 1 < width {
                    least = least.min(radii[below + 1].saturating_add(1));
                }
            }
            radii[cell] = least;
        }
    }
    for y in (0..height).rev() {
        for x in (0..width).rev() {
            let cell = y * width + x;
            let mut least = radii[cell];
            if x + 1 < width {
                least = least.min(radii[cell + 1].saturating_add(1));
            }
            if y + 1 < height {
                let above = cell + width;
                least = least.min(radii[above].saturating_add(1));
                if x > 0 {
                    least = least.min(radii[above - 1].saturating_add(1));
                }
                if x + 1 < width {
                    least = least.min(radii[above + 1].saturating_add(1));
                }
            }
            radii[cell] = least;
        }
    }
    radii
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Seeded;
    use crate::rules::engine::movement::Mover;
    use crate::rules::{GameSetup, RulesTable};
    use crate::ruleset::Ruleset;
    use crate::scenario;
    use crate::tables::Tables;
    use crate::yaml::Source;
    use rand::{RngExt, SeedableRng};

    /// [`uniform_radii`] by brute force at one cell: grow the square
    /// until a cell of the grid in it is unlike the middle one.
    fn radius_plain(field: &Battlefield, troop: TroopTypeId, cell: usize) -> u16 {
        let grid = &field.grid;
        let label = |cell: usize| {
            (
                field.cost_multiplier(troop, cell).map(f64::to_bits),
                grid.ground[cell].to_bits(),
                field.on_road(cell),
            )
        };
        let (x, y) = ((cell % grid.width) as i64, (cell / grid.width) as i64);
        let most = grid.width.max(grid.height) as i64;
        for r in 1..=most {
            for ny in (y - r).max(0)..=(y + r).min(grid.height as i64 - 1) {
                for nx in (x - r).max(0)..=(x + r).min(grid.width as i64 - 1) {
                    if label(ny as usize * grid.width + nx as usize) != label(cell) {
                        return (r - 1) as u16;
                    }
                }
            }
        }
        u16::MAX - 1
    }

    #[test]
    fn uniform_radii_match_the_brute_force_ones_on_shipped_tables() {
        for name in ["guilford", "monongahela"] {
            let (file, text) = scenario::builtin(name).unwrap();
            let scenario = scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
            let field = &scenario.battlefield;
            for troop in 0..field.ruleset.troop_types.len() {
                let troop = TroopTypeId(troop);
                let radii = uniform_radii(field, troop);
                for cell in (0..field.grid.len()).step_by(97) {
                    assert_eq!(
                        radii[cell],
                        radius_plain(field, troop, cell),
                        "{name}, troop {}, cell {cell}",
                        troop.0
                    );
                }
            }
        }
    }

    /// Wherever the ground decides a straight move, its answer is the
    /// walk's: moves of every unit of Guilford and Monongahela in many
    /// directions, of lengths up to a little over the allowance and many
    /// within a thousandth of it.
    #[test]
    fn open_ground_answers_are_the_walks() {
        let mut chooser = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        let (mut decided, mut lawful) = (0, 0);
        for name in ["guilford", "monongahela"] {
            let (file, text) = scenario::builtin(name).unwrap();
            let scenario = scenario::load(Source::new(file, text), Ruleset::builtin).unwrap();
            let ruleset = &scenario.battlefield.ruleset;
            let rules = Arc::new(
                RulesTable::builtin(&ruleset.name, ruleset)
                    .unwrap()
                    .unwrap(),
            );
            let setup = GameSetup::from_scenario(&scenario).unwrap();
            let characters = Tables::embedded().characters;
            let (state, _) =
                GameState::new(setup, rules, &characters, &mut Seeded::new(1)).unwrap();
            for unit in state.units.iter().filter(|u| u.is_active()) {
                let allowance = state.battlefield.ruleset.move_inches[unit.category.index()];
                for _ in 0..200 {
                    let direction = Vector::from_bearing(chooser.random_range(0.0..360.0));
                    let length = if chooser.random_range(0..2) == 0 {
                        allowance + chooser.random_range(-1e-3..1e-3)
                    } else {
                        chooser.random_range(0.0..allowance * 1.1)
                    };
                    // The end rounded as listed moves' are, off the line.
                    let exact = unit.base.centre + direction * length;
                    let to = Point::new(
                        (exact.x * 1000.0).round() / 1000.0,
                        (exact.y * 1000.0).round() / 1000.0,
                    );
                    let Some(ray) = state.open_ray(unit, direction, allowance * 1.1 + 0.02) else {
                        continue;
                    };
                    let Some(answer) = state.straight_walk_on_open_ground(unit, &ray, to) else {
                        continue;
                    };
                    let mover = Mover {
                        name: &unit.name,
                        troop: Some(unit.troop),
                        category: unit.category,
                        along_road: false,
                        uphill: true,
                        quick: true,
                    };
                    let walked = state.walk_cost(&[unit.base.centre, to], &mover).is_ok();
                    assert_eq!(answer, walked, "{name}: {} to {to}", unit.name);
                    decided += 1;
                    lawful += usize::from(walked);
                }
            }
        }
        assert!(decided > 1_000 && lawful > 300, "{decided} {lawful}");
    }
}
