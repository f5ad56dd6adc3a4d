//! Line of sight over the rasterised table.
//!
//! Sight runs between two points at ground level. Hills block by their
//! height; woods and towns (whatever the rule set marks `blocks_sight`)
//! stand `sight_height` levels above their ground. A cell blocks when it
//! rises above the straight line between the two eyes, so troops on higher
//! ground see over lower obstacles. Terrain within the rule set's `see_into`
//! of either end is ignored, so troops at the edge of a wood see out.

use super::Battlefield;
use super::geometry::{Base, Point};

impl Battlefield {
    /// Whether an observer at `from` can see `to`.
    pub fn line_of_sight(&self, from: Point, to: Point) -> bool {
        let (Some(from_cell), Some(to_cell)) = (self.grid.cell_at(from), self.grid.cell_at(to))
        else {
            return false;
        };
        let eye_from = self.grid.ground[from_cell] as f64;
        let eye_to = self.grid.ground[to_cell] as f64;
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
            let line = eye_from + (eye_to - eye_from) * fraction;
            let ground = self.grid.ground[cell] as f64;
            if ground > line + 1e-3 {
                return false;
            }
            let top = self.grid.sight_top[cell] as f64;
            let deep_inside = fraction * length > see_into && (1.0 - fraction) * length > see_into;
            if top > ground && deep_inside && top > line + 1e-3 {
                return false;
            }
        }
        true
    }

    /// Whether one base can see another, centre to centre.
    pub fn can_see(&self, observer: &Base, target: &Base) -> bool {
        self.line_of_sight(observer.centre, target.centre)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Shape;
    use super::super::tests::{p, table};

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
}
