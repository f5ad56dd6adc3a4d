//! What a search answers: a [`Route`] of [`Waypoint`]s cut into the
//! [`Leg`]s the rules allow (straight lines, or stretches of road), and
//! routes clipped to a move's allowance.

use crate::battlefield::geometry::Point;
use crate::ruleset::TroopTypeId;

/// One point on a route, with the cost of getting there from the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Waypoint {
    /// Where, in inches.
    pub point: Point,
    /// Cost so far in inches of open-ground movement.
    pub cost: f64,
}

/// One legal move segment: a straight line, or a stretch of road.
#[derive(Debug, Clone, PartialEq)]
pub struct Leg {
    /// The points the leg passes through: two for a straight leg, more for
    /// a leg that follows a road.
    pub points: Vec<Point>,
    /// Cumulative route cost at each point.
    pub costs: Vec<f64>,
    /// Whether the leg follows a road (and may bend with it).
    pub along_road: bool,
}

impl Leg {
    /// Where the leg starts.
    pub fn start(&self) -> Point {
        self.points[0]
    }

    /// Where the leg ends.
    pub fn end(&self) -> Point {
        self.points[self.points.len() - 1]
    }

    /// Length on the table in inches.
    pub fn length(&self) -> f64 {
        self.points.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// The movement cost of this leg alone.
    pub fn cost(&self) -> f64 {
        self.costs[self.costs.len() - 1] - self.costs[0]
    }
}

/// The way a unit would go from one point to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// The troop type the route was found for.
    pub troop: TroopTypeId,
    /// The cell-by-cell path, from the start point to the end point.
    pub waypoints: Vec<Waypoint>,
    /// The path as legal legs, end to end.
    pub legs: Vec<Leg>,
}

impl Route {
    /// Total cost in inches of open-ground movement.
    pub fn cost(&self) -> f64 {
        self.legs
            .last()
            .map_or(0.0, |leg| leg.costs[leg.costs.len() - 1])
    }

    /// The start point.
    pub fn start(&self) -> Point {
        self.legs
            .first()
            .map_or(self.waypoints[0].point, Leg::start)
    }

    /// The end point.
    pub fn end(&self) -> Point {
        self.legs
            .last()
            .map_or(self.waypoints[self.waypoints.len() - 1].point, Leg::end)
    }

    /// Length on the table in inches.
    pub fn length(&self) -> f64 {
        self.legs.iter().map(Leg::length).sum()
    }

    /// The legal straight-line (or road) moves, in order.
    pub fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// How many moves of `allowance` inches the route takes.
    pub fn bounds(&self, allowance: f64) -> u32 {
        if allowance <= 0.0 {
            return u32::MAX;
        }
        ((self.cost() - 1e-6) / allowance).ceil().max(0.0) as u32
    }

    /// The part of the route a unit covers with `allowance` inches of
    /// movement this bound. Cost is taken to grow evenly along each segment.
    pub fn clip(&self, allowance: f64) -> Route {
        let allowance = allowance.max(0.0);
        let mut legs = Vec::new();
        for leg in &self.legs {
            if leg.costs[0] >= allowance {
                break;
            }
            let mut points = vec![leg.points[0]];
            let mut costs = vec![leg.costs[0]];
            for i in 1..leg.points.len() {
                if leg.costs[i] <= allowance {
                    points.push(leg.points[i]);
                    costs.push(leg.costs[i]);
                } else {
                    let span = leg.costs[i] - leg.costs[i - 1];
                    let fraction = if span > 0.0 {
                        (allowance - leg.costs[i - 1]) / span
                    } else {
                        0.0
                    };
                    points.push(leg.points[i - 1].lerp(leg.points[i], fraction));
                    costs.push(allowance);
                    break;
                }
            }
            let finished = costs[costs.len() - 1] >= allowance;
            if points.len() >= 2 {
                legs.push(Leg {
                    points,
                    costs,
                    along_road: leg.along_road,
                });
            }
            if finished {
                break;
            }
        }
        let mut waypoints: Vec<Waypoint> = self
            .waypoints
            .iter()
            .copied()
            .take_while(|w| w.cost <= allowance)
            .collect();
        if let Some(end) = legs.last().map(Leg::end) {
            let end_cost = legs.last().map_or(0.0, |l| l.costs[l.costs.len() - 1]);
            if waypoints.last().is_none_or(|w| w.point != end) {
                waypoints.push(Waypoint {
                    point: end,
                    cost: end_cost,
                });
            }
        }
        if waypoints.is_empty() {
            waypoints.push(self.waypoints[0]);
        }
        Route {
            troop: self.troop,
            waypoints,
            legs,
        }
    }
}
