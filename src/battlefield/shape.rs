//! Terrain feature outlines in table inches: polygons, rectangles, circles
//! and lines with a width, and the two questions rasterisation asks of them
//! (is this point inside, and how far inside is it).

use super::geometry::{Point, point_segment_distance};

/// The outline of a terrain feature.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A closed polygon through these corners (at least three).
    Polygon(Vec<Point>),
    /// An axis-aligned rectangle between two corners.
    Rect {
        /// South-west corner.
        min: Point,
        /// North-east corner.
        max: Point,
    },
    /// A circle.
    Circle {
        /// Centre.
        centre: Point,
        /// Radius in inches.
        radius: f64,
    },
    /// A band of the given width along a polyline (roads, rivers, fences).
    Line {
        /// The centre line, at least two points.
        points: Vec<Point>,
        /// Full width in inches.
        width: f64,
    },
}

impl Shape {
    /// How far inside the shape `point` lies, in inches: positive inside,
    /// zero on the edge, negative outside (not a true distance outside
    /// polygons; only the sign matters there).
    pub fn depth_inside(&self, point: Point) -> f64 {
        match self {
            Shape::Polygon(corners) => {
                let edge = polygon_edge_distance(corners, point);
                if polygon_contains(corners, point) {
                    edge
                } else {
                    -edge
                }
            }
            Shape::Rect { min, max } => (point.x - min.x)
                .min(max.x - point.x)
                .min(point.y - min.y)
                .min(max.y - point.y),
            Shape::Circle { centre, radius } => radius - point.distance(*centre),
            Shape::Line { points, width } => width / 2.0 - polyline_distance(points, point),
        }
    }

    /// Whether `point` is inside or on the edge.
    pub fn contains(&self, point: Point) -> bool {
        self.depth_inside(point) >= 0.0
    }

    /// The axis-aligned box around the shape.
    pub fn bounds(&self) -> (Point, Point) {
        let around = |points: &[Point], pad: f64| {
            let mut min = Point::new(f64::INFINITY, f64::INFINITY);
            let mut max = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
            for p in points {
                min = Point::new(min.x.min(p.x), min.y.min(p.y));
                max = Point::new(max.x.max(p.x), max.y.max(p.y));
            }
            (
                Point::new(min.x - pad, min.y - pad),
                Point::new(max.x + pad, max.y + pad),
            )
        };
        match self {
            Shape::Polygon(corners) => around(corners, 0.0),
            Shape::Rect { min, max } => (*min, *max),
            Shape::Circle { centre, radius } => around(&[*centre], *radius),
            Shape::Line { points, width } => around(points, width / 2.0),
        }
    }

    /// A representative point for labels: the middle of the bounding box,
    /// or the middle point of a line.
    pub fn label_point(&self) -> Point {
        match self {
            Shape::Line { points, .. } if !points.is_empty() => points[points.len() / 2],
            _ => {
                let (min, max) = self.bounds();
                min.lerp(max, 0.5)
            }
        }
    }
}

/// Even-odd point-in-polygon test.
pub fn polygon_contains(corners: &[Point], point: Point) -> bool {
    let mut inside = false;
    let n = corners.len();
    for i in 0..n {
        let a = corners[i];
        let b = corners[(i + n - 1) % n];
        if (a.y > point.y) != (b.y > point.y) {
            let x_cross = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if point.x < x_cross {
                inside = !inside;
            }
        }
    }
    inside
}

/// Distance from `point` to the nearest edge of the polygon.
pub fn polygon_edge_distance(corners: &[Point], point: Point) -> f64 {
    let n = corners.len();
    (0..n)
        .map(|i| point_segment_distance(point, corners[i], corners[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
}

/// Distance from `point` to the nearest part of the polyline.
pub fn polyline_distance(points: &[Point], point: Point) -> f64 {
    match points {
        [] => f64::INFINITY,
        [only] => point.distance(*only),
        _ => points
            .windows(2)
            .map(|pair| point_segment_distance(point, pair[0], pair[1]))
            .fold(f64::INFINITY, f64::min),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn each_shape_knows_its_inside() {
        let triangle = Shape::Polygon(vec![p(0.0, 0.0), p(10.0, 0.0), p(0.0, 10.0)]);
        assert!(triangle.contains(p(2.0, 2.0)));
        assert!(!triangle.contains(p(6.0, 6.0)));
        assert!((triangle.depth_inside(p(2.0, 1.0)) - 1.0).abs() < 1e-9);

        let rect = Shape::Rect {
            min: p(1.0, 1.0),
            max: p(5.0, 3.0),
        };
        assert!(rect.contains(p(1.0, 2.0)));
        assert!(!rect.contains(p(0.9, 2.0)));
        assert_eq!(rect.depth_inside(p(3.0, 2.0)), 1.0);

        let circle = Shape::Circle {
            centre: p(0.0, 0.0),
            radius: 2.0,
        };
        assert!(circle.contains(p(1.4, 1.4)));
        assert!(!circle.contains(p(1.5, 1.5)));

        let road = Shape::Line {
            points: vec![p(0.0, 0.0), p(10.0, 0.0), p(10.0, 10.0)],
            width: 1.0,
        };
        assert!(road.contains(p(5.0, 0.4)));
        assert!(road.contains(p(10.4, 5.0)));
        assert!(!road.contains(p(5.0, 0.6)));
        assert_eq!(road.label_point(), p(10.0, 0.0));
    }
}
