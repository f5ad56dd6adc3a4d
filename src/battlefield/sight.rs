//! Line of sight over the rasterised table.
//!
//! Sight runs between two points at ground level. Hills block by their
//! height; woods and towns (whatever the rule set marks `blocks_sight`)
//! stand `sight_height` levels above their ground. A cell blocks when it
//! rises above the straight line between the two eyes, so troops on higher
//! ground see over lower obstacles. Terrain within the rule set's `see_into`
//! of either end is ignored, so troops at the edge of a wood see out.
//!
//! The table is a raster: each cell's ground is its centre's height, and
//! so is each eye's. On a slope the true ground anywhere in a cell differs
//! from its centre's by up to the steepest rise to a cell it touches, so a
//! cell blocks only when it rises above the line by more than that rise
//! and the eyes' (ruling on sight down a slope, `docs/rulings.md`): two
//! units on one slope see each other, and a crest between them still
//! hides them.
//!
//! Sight between two bases depends only on the table and their centres, and
//! the same is asked again and again (most units stand still most bounds,
//! and the games of a simulation start alike), so each thread remembers the
//! lines it has traced, whatever game asked.

use super::Battlefield;
use super::geometry::{Base, Point};
use std::cell::RefCell;

/// How many traced lines each thread remembers: a power of two, few enough
/// that the table stays in a core's cache (about 200 KB).
const REMEMBERED: usize = 1 << 12;

/// A traced line: the table, the two eyes' coordinates as bits, and
/// whether the one sees the other.
#[derive(Debug, Clone, Copy)]
struct Traced {
    table: u64,
    eyes: [u64; 4],
    sees: bool,
}

thread_local! {
    /// Direct-mapped by a hash of table and eyes: a line that lands on a
    /// taken slot replaces what was there.
    static TRACED: RefCell<Vec<Traced>> = const { RefCell::new(Vec::new()) };
}

impl Battlefield {
    /// Whether an observer at `from` can see `to`.
    pub fn line_of_sight(&self, from: Point, to: Point) -> bool {
        let (Some(from_cell), Some(to_cell)) = (self.grid.cell_at(from), self.grid.cell_at(to))
        else {
            return false;
        };
        let eye_from = self.grid.ground[from_cell] as f64;
        let eye_to = self.grid.ground[to_cell] as f64;
        // How far either eye's height may be from its cell centre's.
        let eyes_slack = self.sight_rise[from_cell].max(self.sight_rise[to_cell]) as f64;
        let length = from.distance(to);
        let n_steps = (length / (self.grid.cell * 0.5)).ceil() as usize;
        let see_into = self.ruleset.see_into;
        if n_steps < 2 {
            return true;
        }
        // The sample points move monotonically along each axis (each step
        // of `lerp` rounds monotonically), so all lie between the first and
        // the last; if those are on the (box-shaped) table, all are.
        let sample = |step: usize| from.lerp(to, step as f64 / n_steps as f64);
        if self.grid.cell_at(sample(1)).is_none()
            || self.grid.cell_at(sample(n_steps - 1)).is_none()
        {
            return false;
        }
        // The sight line never dips below the lower eye (it runs from one
        // eye to the other, and the 1e-3 slack dwarfs its rounding), so a
        // cell no taller than that cannot block. A sample point is found
        // cheaply to within far less than a cell; when every cell around
        // that spot is that low, the exact point's cell is too, and the
        // step is skipped. Skipping a step that could not block changes
        // nothing: the answer is whether any step blocks.
        let lowest_eye = eye_from.min(eye_to);
        let inverse_cell = 1.0 / self.grid.cell;
        let inverse_steps = 1.0 / n_steps as f64;
        // In cells: where the line starts and how far it goes.
        let (x0, y0) = (from.x * inverse_cell, from.y * inverse_cell);
        let (dx, dy) = (
            (to.x - from.x) * inverse_cell,
            (to.y - from.y) * inverse_cell,
        );
        let (last_x, last_y) = (self.grid.width as i64 - 1, self.grid.height as i64 - 1);
        // How far one step goes, in cells along each axis (at most half a
        // cell: a step is half a cell long).
        let (step_x, step_y) = (dx * inverse_steps, dy * inverse_steps);
        let block = super::SIGHT_BLOCK;
        let mut step = 1;
        while step < n_steps {
            let rough = step as i64 as f64 * inverse_steps;
            let (fx, fy) = (x0 + dx * rough, y0 + dy * rough);
            // Truncation is the floor for positive values; negative ones
            // clamp to 0 either way.
            let x = (fx as i64).clamp(0, last_x) as usize;
            let y = (fy as i64).clamp(0, last_y) as usize;
            let (bx, by) = (x / block, y / block);
            if self.sight_blocks[by * self.sight_blocks_across + bx] as f64 <= lowest_eye {
                // The steps ahead whose rough points stay within a cell of
                // this block land within two cells of it exactly, and the
                // block's height covers those cells: none can block. Skip
                // to the last of them (less a step, for the rounding of
                // the rough points against this straight-line reckoning).
                let room = |at: f64, by_step: f64, start: usize| {
                    let (low, high) = (start as f64 - 1.0, (start + block) as f64 + 1.0);
                    if by_step > 0.0 {
                        (high - at) / by_step
                    } else if by_step < 0.0 {
                        (low - at) / by_step
                    } else {
                        f64::INFINITY
                    }
                };
                let ahead = room(fx, step_x, bx * block).min(room(fy, step_y, by * block));
                step += 1 + (ahead.min(n_steps as f64) as usize).saturating_sub(1);
                continue;
            }
            if self.sight_near[y * self.grid.width + x] as f64 <= lowest_eye {
                step += 1;
                continue;
            }
            let fraction = step as f64 / n_steps as f64;
            let point = from.lerp(to, fraction);
            let Some(cell) = self.grid.cell_at(point) else {
                return false;
            };
            step += 1;
            if cell == from_cell || cell == to_cell {
                continue;
            }
            let line = eye_from + (eye_to - eye_from) * fraction + eyes_slack;
            let ground = self.grid.ground[cell] as f64;
            let slack = 1e-3 + self.sight_rise[cell] as f64;
            if ground > line + slack {
                return false;
            }
            let top = self.grid.sight_top[cell] as f64;
            let deep_inside = fraction * length > see_into && (1.0 - fraction) * length > see_into;
            if top > ground && deep_inside && top > line + slack {
                return false;
            }
        }
        true
    }

    /// [`Battlefield::line_of_sight`] stepping through every sample point:
    /// the plain version, kept for tests.
    #[cfg(test)]
    pub(crate) fn line_of_sight_every_step(&self, from: Point, to: Point) -> bool {
        let (Some(from_cell), Some(to_cell)) = (self.grid.cell_at(from), self.grid.cell_at(to))
        else {
            return false;
        };
        let eye_from = self.grid.ground[from_cell] as f64;
        let eye_to = self.grid.ground[to_cell] as f64;
        // How far either eye's height may be from its cell centre's.
        let eyes_slack = self.sight_rise[from_cell].max(self.sight_rise[to_cell]) as f64;
        let length = from.distance(to);
        let n_steps = (length / (self.grid.cell * 0.5)).ceil() as usize;
        let see_into = self.ruleset.see_into;
        for step in 1..n_steps {
            let fraction = step as f64 / n_steps as f64;
            let point = from.lerp(to, fraction);
            let Some(cell) = self.grid.cell_at(point) else {
                return false;
            };
            if cell == from_cell || cell == to_cell {
                continue;
            }
            let line = eye_from + (eye_to - eye_from) * fraction + eyes_slack;
            let ground = self.grid.ground[cell] as f64;
            let slack = 1e-3 + self.sight_rise[cell] as f64;
            if ground > line + slack {
                return false;
            }
            let top = self.grid.sight_top[cell] as f64;
            let deep_inside = fraction * length > see_into && (1.0 - fraction) * length > see_into;
            if top > ground && deep_inside && top > line + slack {
                return false;
            }
        }
        true
    }

    /// Whether one base can see another, centre to centre: exactly
    /// [`Battlefield::line_of_sight`] of the centres, remembered (see the
    /// module header).
    pub fn can_see(&self, observer: &Base, target: &Base) -> bool {
        let (from, to) = (observer.centre, target.centre);
        let eyes = [
            from.x.to_bits(),
            from.y.to_bits(),
            to.x.to_bits(),
            to.y.to_bits(),
        ];
        let table = self.id.0;
        // A multiply and rotate per word: positions' bits are well mixed.
        let hash = eyes.iter().fold(table, |hash, &word| {
            (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
        });
        let slot = (hash >> (64 - REMEMBERED.trailing_zeros())) as usize;
        TRACED.with_borrow_mut(|traced| {
            if traced.is_empty() {
                let unused = Traced {
                    table: u64::MAX,
                    eyes: [0; 4],
                    sees: false,
                };
                traced.resize(REMEMBERED, unused);
            }
            let remembered = &mut traced[slot];
            if remembered.table == table
                && remembered.eyes[0] == eyes[0]
                && remembered.eyes[1] == eyes[1]
                && remembered.eyes[2] == eyes[2]
                && remembered.eyes[3] == eyes[3]
            {
                return remembered.sees;
            }
            let sees = self.line_of_sight(from, to);
            *remembered = Traced { table, eyes, sees };
            sees
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Shape;
    use super::super::tests::{guilford, p, table};

    #[test]
    fn open_ground_hides_nothing() {
        let field = table(24.0, 24.0, &[]);
        assert!(field.line_of_sight(p(1.0, 1.0), p(23.0, 20.0)));
    }

    #[test]
    fn a_wood_between_blocks_sight() {
        let field = table(
            24.0,
            24.0,
            &[(
                "woods",
                Shape::Rect {
                    min: p(10.0, 0.0),
                    max: p(14.0, 24.0),
                },
                0.0,
            )],
        );
        assert!(!field.line_of_sight(p(2.0, 12.0), p(22.0, 12.0)));
        // Along the edge of the wood, and from its fringe, sight is clear.
        assert!(field.line_of_sight(p(2.0, 12.0), p(9.5, 20.0)));
        assert!(field.line_of_sight(p(10.5, 12.0), p(2.0, 12.0)));
        // From deep inside, not.
        assert!(!field.line_of_sight(p(12.0, 12.0), p(2.0, 12.0)));
    }

    #[test]
    fn a_hill_between_blocks_sight() {
        let field = table(
            24.0,
            24.0,
            &[(
                "hill",
                Shape::Circle {
                    centre: p(12.0, 12.0),
                    radius: 4.0,
                },
                1.0,
            )],
        );
        assert!(!field.line_of_sight(p(2.0, 12.0), p(22.0, 12.0)));
        assert!(field.line_of_sight(p(2.0, 2.0), p(22.0, 2.0)));
    }

    #[test]
    fn units_on_one_slope_see_each_other_and_a_crest_hides_them() {
        // Henry House Hill's cone: one level over 11".
        let field = table(
            36.0,
            36.0,
            &[(
                "hill",
                Shape::Circle {
                    centre: p(18.0, 17.0),
                    radius: 11.0,
                },
                1.0,
            )],
        );
        // Two units 3" apart on the same slope, on 18 bearings round the
        // cone, each pair across the slope (off the hill's axis).
        for k in 0..18 {
            let angle = f64::from(k) * 20.0_f64.to_radians();
            let (sin, cos) = angle.sin_cos();
            let on_slope = |along: f64, across: f64| {
                p(
                    18.0 + along * cos - across * sin,
                    17.0 + along * sin + across * cos,
                )
            };
            let (a, b) = (on_slope(6.0, -1.5), on_slope(6.0, 1.5));
            assert!(field.line_of_sight(a, b), "bearing {}: {a:?} {b:?}", k * 20);
            assert!(field.line_of_sight_every_step(a, b), "bearing {}", k * 20);
            // Up and down the slope too.
            let (low, high) = (on_slope(8.0, 0.0), on_slope(3.0, 0.5));
            assert!(field.line_of_sight(low, high), "bearing {}", k * 20);
        }
        // The crest still hides the far slope's foot.
        assert!(!field.line_of_sight(p(18.0, 7.0), p(18.0, 27.0)));
        assert!(!field.line_of_sight(p(9.0, 17.0), p(27.5, 17.0)));
    }

    #[test]
    fn higher_ground_sees_over_lower_obstacles() {
        // A gun on a two-level hill looks over a wood near its foot at troops
        // beyond; from the flat the same wood hides them.
        let field = table(
            36.0,
            24.0,
            &[
                (
                    "hill",
                    Shape::Circle {
                        centre: p(6.0, 12.0),
                        radius: 5.0,
                    },
                    2.0,
                ),
                (
                    "woods",
                    Shape::Rect {
                        min: p(13.0, 8.0),
                        max: p(15.0, 16.0),
                    },
                    0.0,
                ),
            ],
        );
        assert!(field.line_of_sight(p(6.0, 12.0), p(30.0, 12.0)));
        assert!(
            field.line_of_sight(p(30.0, 12.0), p(6.0, 12.0)),
            "sight is mutual"
        );
        assert!(!field.line_of_sight(p(11.5, 12.0), p(30.0, 12.0)));
    }

    /// Remembered sight is the traced sight, on every table: two tables of
    /// the same size asked the same lines, one with a wood where the other
    /// is open, answer as their own traces do (more lines are asked than
    /// the memory holds, and each is asked again), and a clone of a table
    /// is a table of its own.
    #[test]
    fn remembered_sight_is_each_tables_own() {
        use super::super::geometry::Base;
        use rand::{RngExt, SeedableRng};
        let wood = Shape::Rect {
            min: p(10.0, 0.0),
            max: p(14.0, 24.0),
        };
        let open = table(24.0, 24.0, &[]);
        let wooded = table(24.0, 24.0, &[("woods", wood, 0.0)]);
        let copy = wooded.clone();
        assert_ne!(copy.id, wooded.id);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(11);
        let mut point = || p(rng.random_range(0.0..24.0), rng.random_range(0.0..24.0));
        let lines: Vec<(Base, Base)> = (0..2 * super::REMEMBERED)
            .map(|_| {
                let base = |centre| Base::new(centre, 0.0, 4.0, 1.0);
                (base(point()), base(point()))
            })
            .collect();
        let mut differ = 0;
        for _ in 0..2 {
            for (a, b) in &lines {
                for field in [&open, &wooded, &copy] {
                    let traced = field.line_of_sight(a.centre, b.centre);
                    assert_eq!(field.can_see(a, b), traced, "{a:?} {b:?}");
                }
                differ += usize::from(open.can_see(a, b) != wooded.can_see(a, b));
            }
        }
        assert!(differ > 100, "the wood hides only {differ} lines");
    }

    /// Ends on the table, off it, on its edges and on cell boundaries.
    fn awkward(pick: u8, v: f64) -> f64 {
        match pick % 4 {
            0 => v,
            1 => (v * 4.0).round() / 4.0,
            2 => [0.0, 48.0, -1e-9, 48.0 + 1e-9, 0.25, 47.75][(v.abs() as usize) % 6],
            _ => (v * 2.0).round() / 2.0 + 1e-12,
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// Skipping steps over low ground changes no answer.
        #[test]
        fn sight_matches_checking_every_step(
            picks in (0u8..4, 0u8..4, 0u8..4, 0u8..4),
            a in (-1.0f64..49.0, -1.0f64..49.0),
            b in (-1.0f64..49.0, -1.0f64..49.0),
        ) {
            thread_local! {
                static FIELD: super::super::Battlefield = guilford();
            }
            let from = p(awkward(picks.0, a.0), awkward(picks.1, a.1));
            let to = p(awkward(picks.2, b.0), awkward(picks.3, b.1));
            FIELD.with(|field| {
                proptest::prop_assert_eq!(
                    field.line_of_sight(from, to),
                    field.line_of_sight_every_step(from, to)
                );
                Ok(())
            })?;
        }
    }
}
