//! Table geometry in inches: points, oriented unit bases, arcs and the tests
//! the rules ask of them (which arc a point is in, the 45° frontal arc,
//! distance between bases, overlap).
//!
//! Conventions, used everywhere in foe: the origin is the south-west corner
//! of the table, `x` grows east (right) and `y` grows north (up). A facing is
//! a compass bearing in degrees: 0 faces north (+y), 90 faces east (+x).
//!
//! Lengths are `sqrt(x² + y²)` with every operation rounded once, as IEEE 754
//! requires of `*`, `+` and `sqrt`: the same bits on every platform, where
//! libm's `hypot` differs in its last bit between C libraries (bearings
//! still come from libm's `sin`, `cos` and `atan2`). A length is ordered as
//! the squared length it comes from, so the least of many lengths is the
//! square root of the least squared length, with no square root per
//! candidate.

use std::fmt;

/// Distances smaller than this are treated as zero, so that bases placed
/// edge to edge touch without overlapping.
pub const EPSILON: f64 = 1e-6;

/// A point on the table, in inches.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// Inches east of the west edge.
    pub x: f64,
    /// Inches north of the south edge.
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// Straight-line distance to `other`, in inches.
    pub fn distance(self, other: Point) -> f64 {
        (self - other).length()
    }

    /// The point `fraction` of the way from `self` to `other`.
    pub fn lerp(self, other: Point, fraction: f64) -> Point {
        self + (other - self) * fraction
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", trim(self.x), trim(self.y))
    }
}

/// A distance in inches as the engines' and the record's lines print it:
/// [`trim`]med, with the inch mark (`6"`, `2.5"`, `0.33"`). The one
/// formatter for inches; [`inches_to_tenths`] is its one variant.
pub fn inches(value: f64) -> String {
    format!("{}\"", trim(value))
}

/// A distance in inches to tenths, a whole number without `.0` and with
/// no mark (`6`, `2.5`, `0.3`): the reaction test's and the companion's
/// distances, which print one place where [`inches`] prints two.
pub fn inches_to_tenths(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

/// A point rounded to 0.1", as foe prints points and players type them.
pub fn tenth(point: Point) -> Point {
    Point::new(
        (point.x * 10.0).round() / 10.0,
        (point.y * 10.0).round() / 10.0,
    )
}

/// A number with at most two decimals and no trailing zeros, for messages
/// (a coordinate, or inches where the mark is written beside it).
pub fn trim(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// A displacement on the table, in inches.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector {
    /// Eastward component.
    pub x: f64,
    /// Northward component.
    pub y: f64,
}

impl Vector {
    /// The vector `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Vector {
        Vector { x, y }
    }

    /// The unit vector pointing along a compass bearing in degrees.
    pub fn from_bearing(degrees: f64) -> Vector {
        let radians = degrees.to_radians();
        Vector::new(radians.sin(), radians.cos())
    }

    /// Length in inches: `sqrt(x² + y²)`, each operation rounded once, so
    /// the same on every platform (see the module header). Table distances
    /// are far from where the squares would overflow or underflow.
    pub fn length(self) -> f64 {
        self.squared_length().sqrt()
    }

    /// The squared length, `x² + y²`: [`Vector::length`] is its square root,
    /// and is ordered as it is.
    pub fn squared_length(self) -> f64 {
        self.x * self.x + self.y * self.y
    }

    /// Dot product.
    pub fn dot(self, other: Vector) -> f64 {
        self.x * other.x + self.y * other.y
    }

    /// The compass bearing this vector points along, in `[0, 360)`.
    pub fn bearing(self) -> f64 {
        normalise_degrees(self.x.atan2(self.y).to_degrees())
    }
}

impl std::ops::Sub for Point {
    type Output = Vector;
    fn sub(self, other: Point) -> Vector {
        Vector::new(self.x - other.x, self.y - other.y)
    }
}

impl std::ops::Add<Vector> for Point {
    type Output = Point;
    fn add(self, v: Vector) -> Point {
        Point::new(self.x + v.x, self.y + v.y)
    }
}

impl std::ops::Mul<f64> for Vector {
    type Output = Vector;
    fn mul(self, k: f64) -> Vector {
        Vector::new(self.x * k, self.y * k)
    }
}

impl std::ops::Add for Vector {
    type Output = Vector;
    fn add(self, v: Vector) -> Vector {
        Vector::new(self.x + v.x, self.y + v.y)
    }
}

/// An angle folded into `[0, 360)`.
pub fn normalise_degrees(degrees: f64) -> f64 {
    let folded = degrees.rem_euclid(360.0);
    if folded >= 360.0 { 0.0 } else { folded }
}

/// A bearing a player types: degrees (0 = north, 90 = east, a `°` mark
/// allowed) or a compass point (`n`, `ne`, … or `north`, `north-east`,
/// …), folded into 0–360; `None` for anything else (NaN, infinities).
pub fn typed_bearing(word: &str) -> Option<f64> {
    let word = word.trim().to_lowercase();
    let compass = [
        ("n", "north", 0.0),
        ("ne", "north-east", 45.0),
        ("e", "east", 90.0),
        ("se", "south-east", 135.0),
        ("s", "south", 180.0),
        ("sw", "south-west", 225.0),
        ("w", "west", 270.0),
        ("nw", "north-west", 315.0),
    ];
    if let Some((_, _, degrees)) = compass
        .iter()
        .find(|(short, long, _)| word == *short || word == *long)
    {
        return Some(*degrees);
    }
    word.trim_end_matches('°')
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .map(normalise_degrees)
}

/// The smallest turn, in degrees (0–180), between two bearings.
pub fn turn_between(from: f64, to: f64) -> f64 {
    let difference = normalise_degrees(to - from);
    difference.min(360.0 - difference)
}

/// Which side of a base a point lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arc {
    /// Ahead of the base.
    Front,
    /// Off the base's left flank.
    LeftFlank,
    /// Off the base's right flank.
    RightFlank,
    /// Behind the base.
    Rear,
}

impl Arc {
    /// Whether this is either flank.
    pub fn is_flank(self) -> bool {
        matches!(self, Arc::LeftFlank | Arc::RightFlank)
    }
}

/// An oriented rectangular base: where a unit stands and which way it faces.
///
/// Build one with [`Base::new`] (or [`Base::moved_to`]) and treat the fields
/// as read-only: the unit vectors along the facing are computed once there,
/// because the rules ask the same base for its corners many times per move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Base {
    /// The centre of the base, the point it pivots on (seed 000: "units may
    /// pivot on their central point").
    pub centre: Point,
    /// Compass bearing the front edge faces, degrees.
    pub facing: f64,
    /// Width of the front edge, inches.
    pub frontage: f64,
    /// Front-to-back depth, inches.
    pub depth: f64,
    /// `Vector::from_bearing(facing)`, kept so it is computed once.
    forward: Vector,
    /// `Vector::from_bearing(facing + 90)`, kept so it is computed once.
    right: Vector,
    /// Half the diagonal, kept so it is computed once.
    reach: f64,
}

impl Base {
    /// A base of the given size at `centre` facing `facing` degrees.
    pub fn new(centre: Point, facing: f64, frontage: f64, depth: f64) -> Base {
        let facing = normalise_degrees(facing);
        Base {
            centre,
            facing,
            frontage,
            depth,
            forward: Vector::from_bearing(facing),
            right: Vector::from_bearing(facing + 90.0),
            reach: Base::reach_of(frontage, depth),
        }
    }

    /// The same base, facing the same way, with its centre at `centre`:
    /// exactly `Base::new(centre, self.facing, self.frontage, self.depth)`
    /// without computing the facing's sine and cosine again.
    pub fn moved_to(&self, centre: Point) -> Base {
        Base { centre, ..*self }
    }

    /// Unit vector the base faces.
    pub fn forward(&self) -> Vector {
        self.forward
    }

    /// Unit vector to the base's right.
    pub fn right(&self) -> Vector {
        self.right
    }

    /// [`Base::reach`] of a base `frontage` wide and `depth` deep, without
    /// building it.
    pub fn reach_of(frontage: f64, depth: f64) -> f64 {
        Vector::new(frontage, depth).length() / 2.0
    }

    /// Half the diagonal: no part of the base is farther than this from its
    /// centre.
    pub fn reach(&self) -> f64 {
        self.reach
    }

    /// Whether the two bases are certainly more than `limit` inches apart,
    /// judged by their centres alone: when true, `distance_to` is more than
    /// `limit`; when false, nothing is known. A cheap first test before the
    /// exact distance.
    pub fn surely_farther_than(&self, other: &Base, limit: f64) -> bool {
        // No two points of the bases are closer than the centres less both
        // reaches; the margins keep rounding on the safe side.
        let gap = limit.max(0.0) + self.reach + other.reach + EPSILON;
        let apart = self.centre - other.centre;
        apart.dot(apart) > gap * gap * (1.0 + 1e-9)
    }

    /// Exactly `self.distance_to(other) <= limit`, quicker for bases far apart.
    pub fn within(&self, other: &Base, limit: f64) -> bool {
        !self.surely_farther_than(other, limit) && self.distance_to(other) <= limit
    }

    /// `point` in the base's own frame: (inches to the right of the centre,
    /// inches ahead of the centre).
    pub fn local(&self, point: Point) -> (f64, f64) {
        let offset = point - self.centre;
        (offset.dot(self.right()), offset.dot(self.forward()))
    }

    /// The four corners: front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [Point; 4] {
        let half_right = self.right() * (self.frontage / 2.0);
        let half_forward = self.forward() * (self.depth / 2.0);
        let c = self.centre;
        [
            c + half_forward + half_right * -1.0,
            c + half_forward + half_right,
            c + half_forward * -1.0 + half_right,
            c + half_forward * -1.0 + half_right * -1.0,
        ]
    }

    /// The midpoint of the front edge.
    pub fn front_centre(&self) -> Point {
        self.centre + self.forward() * (self.depth / 2.0)
    }

    /// Whether `point` lies on or inside the base.
    pub fn contains(&self, point: Point) -> bool {
        let (u, v) = self.local(point);
        u.abs() <= self.frontage / 2.0 + EPSILON && v.abs() <= self.depth / 2.0 + EPSILON
    }

    /// Which arc of this base `point` lies in. The arcs are divided by the
    /// base's diagonals produced outwards (a ruling: seed 000 names front,
    /// flank and rear attacks without drawing the arcs).
    pub fn arc_of(&self, point: Point) -> Arc {
        let (u, v) = self.local(point);
        // Scale so that the diagonals become the lines |u'| = |v'|.
        let u_scaled = u / (self.frontage / 2.0).max(EPSILON);
        let v_scaled = v / (self.depth / 2.0).max(EPSILON);
        if v_scaled >= u_scaled.abs() {
            Arc::Front
        } else if -v_scaled >= u_scaled.abs() {
            Arc::Rear
        } else if u_scaled < 0.0 {
            Arc::LeftFlank
        } else {
            Arc::RightFlank
        }
    }

    /// Whether `point` is inside the 45° frontal arc: ahead of the front edge
    /// and within 45° outwards of lines straight ahead from its two front
    /// corners (seed 000: targets "within 45 degrees of their frontal arc").
    pub fn point_in_frontal_arc(&self, point: Point) -> bool {
        let (u, v) = self.local(point);
        let ahead = v - self.depth / 2.0;
        ahead >= -EPSILON && u.abs() - self.frontage / 2.0 <= ahead + EPSILON
    }

    /// Whether any part of `other` lies inside this base's 45° frontal arc.
    pub fn in_frontal_arc(&self, other: &Base) -> bool {
        // Clip the other base's outline to the arc's three half-planes; any
        // area left over is inside the arc.
        let corners = other.corners().map(|c| self.local(c));
        let half = self.frontage / 2.0;
        let front = self.depth / 2.0;
        // Each half-plane as a*u + b*v + c >= 0.
        let planes = [
            (0.0, 1.0, -front),        // ahead of the front edge
            (-1.0, 1.0, half - front), // right-hand 45° line
            (1.0, 1.0, half - front),  // left-hand 45° line
        ];
        let sides = planes.map(|(a, b, c)| corners.map(|p| a * p.0 + b * p.1 + c));
        // Shortcuts that clipping would reach anyway. No corner on the
        // inner side of the first plane: its clip leaves nothing.
        if sides[0].iter().all(|&s| s < 0.0 || s.is_nan()) {
            return false;
        }
        // Every corner on the inner side of every plane: each clip keeps the
        // outline as it is, so only its area decides.
        if sides.iter().flatten().all(|&s| s >= 0.0) {
            let area = polygon_area(&corners);
            return area > EPSILON || area.is_nan();
        }
        // Every corner well outside a later plane: so is every point the
        // earlier clips make, each within rounding of a segment between
        // corners, and that plane's clip leaves nothing.
        if sides[1..]
            .iter()
            .any(|plane| plane.iter().all(|&s| s < -EPSILON))
        {
            return false;
        }
        let mut polygon = Clipped::default();
        let mut clipped = Clipped::default();
        for c in corners {
            polygon.push(c);
        }
        for (a, b, c) in planes {
            clip_half_plane(polygon.points(), a, b, c, &mut clipped);
            std::mem::swap(&mut polygon, &mut clipped);
            if polygon.len == 0 {
                return false;
            }
        }
        true
    }

    /// Whether two bases overlap (touching edges do not count).
    pub fn overlaps(&self, other: &Base) -> bool {
        let ours = self.corners();
        let theirs = other.corners();
        let axes = [self.forward(), self.right(), other.forward(), other.right()];
        axes.iter().all(|&axis| {
            let (min_a, max_a) = project(&ours, axis);
            let (min_b, max_b) = project(&theirs, axis);
            min_a < max_b - EPSILON && min_b < max_a - EPSILON
        })
    }

    /// Whether two bases overlap, with a cheap test of their centres first:
    /// the same answer as [`Base::overlaps`], quicker when they are apart.
    pub fn overlaps_near(&self, other: &Base) -> bool {
        self.may_overlap(other.centre, other.reach()) && self.overlaps(other)
    }

    /// Whether the base may overlap one centred at `centre` that reaches
    /// `reach` from it: false only when they surely do not (the cheap test
    /// of [`Base::overlaps_near`], for a base not yet built).
    pub fn may_overlap(&self, centre: Point, reach: f64) -> bool {
        // Overlapping bases share a point, which is within each one's reach
        // of its centre; the margin only keeps rounding on the safe side.
        let limit = (self.reach() + reach) * (1.0 + 1e-9) + EPSILON;
        let apart = self.centre - centre;
        apart.dot(apart) < limit * limit
    }

    /// The shortest distance between any part of the two bases, 0 if they
    /// touch or overlap.
    pub fn distance_to(&self, other: &Base) -> f64 {
        // `overlaps_near` is `overlaps`, quicker when the bases are apart.
        if self.overlaps_near(other) {
            return 0.0;
        }
        // Two convex shapes apart have a nearest pair of points with a
        // corner of one of them among it: the distance is the least from a
        // corner of either base to the other base as a solid rectangle,
        // measured in that base's own frame. Each corner is measured the
        // same way whichever base asks, so the answer is the same both ways,
        // bit for bit. Corners that are not numbers are left out.
        let theirs = other.corners().map(|c| self.squared_distance_outside(c));
        let ours = self.corners().map(|c| other.squared_distance_outside(c));
        theirs
            .iter()
            .chain(&ours)
            .fold(f64::INFINITY, |least, &squared| least.min(squared))
            .sqrt()
    }

    /// The squared distance from `point` to the base taken as a solid
    /// rectangle (0 inside), in the base's own frame.
    fn squared_distance_outside(&self, point: Point) -> f64 {
        let (u, v) = self.local(point);
        let du = (u.abs() - self.frontage.abs() / 2.0).max(0.0);
        let dv = (v.abs() - self.depth.abs() / 2.0).max(0.0);
        du * du + dv * dv
    }

    /// The shortest distance from any part of the base to `point`.
    pub fn distance_to_point(&self, point: Point) -> f64 {
        let (u, v) = self.local(point);
        let du = (u.abs() - self.frontage / 2.0).max(0.0);
        let dv = (v.abs() - self.depth / 2.0).max(0.0);
        Vector::new(du, dv).length()
    }

    /// The axis-aligned box around the base: (min corner, max corner).
    pub fn bounds(&self) -> (Point, Point) {
        let corners = self.corners();
        let mut min = corners[0];
        let mut max = corners[0];
        for c in &corners[1..] {
            min = Point::new(min.x.min(c.x), min.y.min(c.y));
            max = Point::new(max.x.max(c.x), max.y.max(c.y));
        }
        (min, max)
    }
}

fn project(corners: &[Point; 4], axis: Vector) -> (f64, f64) {
    let mut min = f64::INFINITY;
    let mut max = f64::NEG_INFINITY;
    for c in corners {
        let d = Vector::new(c.x, c.y).dot(axis);
        min = min.min(d);
        max = max.max(d);
    }
    (min, max)
}

/// A clipped polygon kept on the stack. A base's four corners clipped by
/// three half-planes gain at most one vertex each; even if rounding made every
/// edge cross a plane, each clip at most doubles them: 4, 8, 16, 32.
#[derive(Default)]
struct Clipped {
    points: [(f64, f64); 32],
    len: usize,
}

impl Clipped {
    fn push(&mut self, point: (f64, f64)) {
        self.points[self.len] = point;
        self.len += 1;
    }

    fn points(&self) -> &[(f64, f64)] {
        &self.points[..self.len]
    }
}

/// Sutherland–Hodgman clip of a convex polygon to `a*u + b*v + c >= 0`,
/// into `out` (emptied first). Degenerate leftovers (no area) come back
/// empty.
fn clip_half_plane(polygon: &[(f64, f64)], a: f64, b: f64, c: f64, out: &mut Clipped) {
    let side = |p: (f64, f64)| a * p.0 + b * p.1 + c;
    out.len = 0;
    for i in 0..polygon.len() {
        let p = polygon[i];
        let q = polygon[(i + 1) % polygon.len()];
        let (sp, sq) = (side(p), side(q));
        if sp >= 0.0 {
            out.push(p);
        }
        if (sp >= 0.0) != (sq >= 0.0) {
            let t = sp / (sp - sq);
            out.push((p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t));
        }
    }
    if polygon_area(out.points()) <= EPSILON {
        out.len = 0;
    }
}

fn polygon_area(polygon: &[(f64, f64)]) -> f64 {
    let mut twice = 0.0;
    for i in 0..polygon.len() {
        let p = polygon[i];
        let q = polygon[(i + 1) % polygon.len()];
        twice += p.0 * q.1 - q.0 * p.1;
    }
    (twice / 2.0).abs()
}

/// Distance from `p` to the segment `a`–`b`.
pub fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    point_segment_offset(p, a, b).length()
}

/// Whether `p` may lie within `limit` of the segment `a`–`b`: true
/// whenever `point_segment_distance(p, a, b) < limit`, and only a hair more
/// often (squares are compared, with a margin far above their rounding, so
/// no square root is needed). For broad phases that a finer test follows.
pub fn maybe_within_segment(p: Point, a: Point, b: Point, limit: f64) -> bool {
    let offset = point_segment_offset(p, a, b);
    offset.dot(offset) < limit * limit * (1.0 + 1e-9) + 1e-12
}

/// The least distance from `to` to any of `points` (infinite if none):
/// exactly the least of their `distance`s, with one square root, of the
/// least squared distance.
pub fn least_distance(points: impl Iterator<Item = Point>, to: Point) -> f64 {
    points
        .map(|p| (p - to).squared_length())
        .fold(f64::INFINITY, f64::min)
        .sqrt()
}

/// `p` less the nearest point of the segment `a`–`b`.
fn point_segment_offset(p: Point, a: Point, b: Point) -> Vector {
    let ab = b - a;
    let length_squared = ab.dot(ab);
    if length_squared <= EPSILON * EPSILON {
        return p - a;
    }
    let t = ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0);
    p - (a + ab * t)
}

#[cfg(test)]
mod tests {

    /// The one inch formatter and its one variant, as every line prints them.
    #[test]
    fn inches_print_to_hundredths_with_the_mark_or_to_tenths_without() {
        assert_eq!(inches(6.0), "6\"");
        assert_eq!(inches(2.5), "2.5\"");
        assert_eq!(inches(1.0 / 3.0), "0.33\"");
        assert_eq!(inches(-0.001), "0\"");
        assert_eq!(inches_to_tenths(6.0), "6");
        assert_eq!(inches_to_tenths(2.5), "2.5");
        assert_eq!(inches_to_tenths(1.0 / 3.0), "0.3");
    }
    use super::*;

    /// The least distance is the plain least, bit for bit, with ties and
    /// near-ties among the points (mirror images, points a hair apart).
    #[test]
    fn least_distance_is_the_plain_least() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(9);
        for _ in 0..50_000 {
            let to = Point::new(rng.random_range(0.0..48.0), rng.random_range(0.0..48.0));
            let mut points: Vec<Point> = (0..rng.random_range(0..12))
                .map(|_| Point::new(rng.random_range(0.0..48.0), rng.random_range(0.0..48.0)))
                .collect();
            if let Some(&p) = points.first() {
                points.push(Point::new(2.0 * to.x - p.x, 2.0 * to.y - p.y));
                points.push(Point::new(to.x - (p.y - to.y), to.y + (p.x - to.x)));
                points.push(Point::new(to.x + (p.y - to.y), to.y - (p.x - to.x)));
                points.push(Point::new(p.x + 1e-12, p.y));
                points.push(Point::new(p.x, p.y - 1e-13));
            }
            let plain = points
                .iter()
                .map(|p| p.distance(to))
                .fold(f64::INFINITY, f64::min);
            let least = least_distance(points.iter().copied(), to);
            assert_eq!(least.to_bits(), plain.to_bits(), "{points:?} {to:?}");
        }
    }

    /// Lengths are the once-rounded `sqrt(x² + y²)`, the same bits on
    /// every platform: pinned where that differs from the correctly rounded
    /// length (which a `hypot` may give), so a return to libm shows here.
    #[test]
    fn lengths_are_the_portable_square_root() {
        for (x, y, bits) in [
            (6.449, 40.677, 0x4044_97af_8dcc_92ee_u64),
            (1.394, 10.641, 0x4025_76be_47ae_16d1),
            (30.83, 8.924, 0x4040_0c3c_2e19_7a22),
        ] {
            let length = Vector::new(x, y).length();
            assert_eq!(length.to_bits(), bits, "{x} {y}: {length}");
            assert_eq!(length.to_bits(), (x * x + y * y).sqrt().to_bits());
            assert_eq!(Point::new(x, 0.0).distance(Point::new(0.0, y)), length);
        }
    }

    /// The broad test passes every point within the limit and fails those
    /// beyond it by more than a hair.
    #[test]
    fn maybe_within_segment_is_a_tight_broad_phase() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(10);
        let mut point = || Point::new(rng.random_range(0.0..48.0), rng.random_range(0.0..48.0));
        for _ in 0..50_000 {
            let (p, a, b) = (point(), point(), point());
            let distance = point_segment_distance(p, a, b);
            // Limits at, a bit above and below, and the next float above the
            // distance (where squares could round the wrong way).
            let next_up = f64::from_bits(distance.to_bits() + 1);
            for limit in [distance, next_up, distance * (1.0 + 1e-15), 5.0] {
                if distance < limit {
                    assert!(maybe_within_segment(p, a, b, limit), "{p:?} {a:?} {b:?}");
                }
                if distance > limit * (1.0 + 1e-8) + 1e-6 {
                    assert!(!maybe_within_segment(p, a, b, limit), "{p:?} {a:?} {b:?}");
                }
            }
        }
    }

    fn infantry(x: f64, y: f64, facing: f64) -> Base {
        Base::new(Point::new(x, y), facing, 4.0, 1.0)
    }

    #[test]
    fn a_typed_bearing_is_degrees_or_a_compass_point() {
        assert_eq!(typed_bearing("ne"), Some(45.0));
        assert_eq!(typed_bearing("North-West"), Some(315.0));
        assert_eq!(typed_bearing(" 90° "), Some(90.0));
        assert_eq!(typed_bearing("-90"), Some(270.0));
        assert_eq!(typed_bearing("720"), Some(0.0));
        for bad in ["NaN", "inf", "1e400", "up", ""] {
            assert_eq!(typed_bearing(bad), None, "{bad}");
        }
    }

    #[test]
    fn bearings_follow_the_compass() {
        let north = Vector::from_bearing(0.0);
        assert!((north.y - 1.0).abs() < 1e-9 && north.x.abs() < 1e-9);
        let east = Vector::from_bearing(90.0);
        assert!((east.x - 1.0).abs() < 1e-9);
        assert!((Vector::new(-1.0, 0.0).bearing() - 270.0).abs() < 1e-9);
        assert_eq!(turn_between(350.0, 10.0), 20.0);
        assert_eq!(normalise_degrees(-90.0), 270.0);
    }

    #[test]
    fn corners_of_a_north_facing_base() {
        let base = infantry(10.0, 10.0, 0.0);
        let [front_left, front_right, rear_right, rear_left] = base.corners();
        let close = |p: Point, x: f64, y: f64| (p.x - x).abs() < 1e-9 && (p.y - y).abs() < 1e-9;
        assert!(close(front_left, 8.0, 10.5));
        assert!(close(front_right, 12.0, 10.5));
        assert!(close(rear_right, 12.0, 9.5));
        assert!(close(rear_left, 8.0, 9.5));
    }

    #[test]
    fn arcs_are_split_by_the_diagonals() {
        let base = infantry(0.0, 0.0, 0.0);
        let check =
            |x: f64, y: f64, arc: Arc| assert_eq!(base.arc_of(Point::new(x, y)), arc, "{x},{y}");
        check(0.0, 5.0, Arc::Front);
        check(0.0, -5.0, Arc::Rear);
        check(-5.0, 0.0, Arc::LeftFlank);
        check(5.0, 0.0, Arc::RightFlank);
        // A wide base: a point level with the front edge but far out is on the flank.
        check(6.0, 1.0, Arc::RightFlank);
        // Facing east, north is the left flank.
        let east = infantry(0.0, 0.0, 90.0);
        assert_eq!(east.arc_of(Point::new(0.0, 5.0)), Arc::LeftFlank);
        assert_eq!(east.arc_of(Point::new(5.0, 0.0)), Arc::Front);
    }

    #[test]
    fn the_45_degree_frontal_arc() {
        let base = infantry(0.0, 0.0, 0.0);
        // Straight ahead, and 45° out from the front corners.
        assert!(base.point_in_frontal_arc(Point::new(0.0, 6.0)));
        assert!(base.point_in_frontal_arc(Point::new(7.0, 5.6)));
        assert!(!base.point_in_frontal_arc(Point::new(8.0, 5.0)));
        assert!(!base.point_in_frontal_arc(Point::new(0.0, -3.0)));
        // A target whose corner pokes into the arc is in it.
        let target = infantry(9.5, 6.0, 0.0);
        assert!(base.in_frontal_arc(&target));
        let wide_out = infantry(13.0, 6.0, 0.0);
        assert!(!base.in_frontal_arc(&wide_out));
        let behind = infantry(0.0, -6.0, 0.0);
        assert!(!base.in_frontal_arc(&behind));
    }

    #[test]
    fn overlap_and_distance() {
        let a = infantry(0.0, 0.0, 0.0);
        let touching = infantry(4.0, 0.0, 0.0);
        assert!(!a.overlaps(&touching));
        assert!(a.distance_to(&touching) < 1e-9);
        let overlapping = infantry(3.0, 0.5, 0.0);
        assert!(a.overlaps(&overlapping));
        assert_eq!(a.distance_to(&overlapping), 0.0);
        let ahead = infantry(0.0, 7.0, 180.0);
        assert!((a.distance_to(&ahead) - 6.0).abs() < 1e-9);
        // A rotated base whose corner reaches into the other.
        let rotated = Base::new(Point::new(0.0, 1.8), 45.0, 2.0, 2.0);
        assert!(a.overlaps(&rotated));
        let diagonal = infantry(7.0, 0.3, 0.0);
        assert!((a.distance_to(&diagonal) - 3.0).abs() < 1e-9);
        assert!((a.distance_to_point(Point::new(2.0, 3.5)) - 3.0).abs() < 1e-9);
    }

    /// The distance between two bases from its definition: the least of
    /// the 32 offsets from each corner to each edge of the other base.
    fn distance_by_all_offsets(ours: &Base, other: &Base) -> f64 {
        if ours.overlaps(other) {
            return 0.0;
        }
        let (a_corners, b_corners) = (ours.corners(), other.corners());
        let mut offsets = Vec::new();
        for i in 0..4 {
            let (a, b) = (a_corners[i], a_corners[(i + 1) % 4]);
            let (c, d) = (b_corners[i], b_corners[(i + 1) % 4]);
            for &p in &b_corners {
                offsets.push(point_segment_offset(p, a, b));
            }
            for &p in &a_corners {
                offsets.push(point_segment_offset(p, c, d));
            }
        }
        offsets
            .iter()
            .map(|v| v.length())
            .fold(f64::INFINITY, f64::min)
    }

    /// `Base::in_frontal_arc` as it was before its shortcuts: always clip.
    fn in_frontal_arc_by_clipping(ours: &Base, other: &Base) -> bool {
        fn clip(polygon: &[(f64, f64)], a: f64, b: f64, c: f64) -> Vec<(f64, f64)> {
            let side = |p: (f64, f64)| a * p.0 + b * p.1 + c;
            let mut out = Vec::new();
            for i in 0..polygon.len() {
                let p = polygon[i];
                let q = polygon[(i + 1) % polygon.len()];
                let (sp, sq) = (side(p), side(q));
                if sp >= 0.0 {
                    out.push(p);
                }
                if (sp >= 0.0) != (sq >= 0.0) {
                    let t = sp / (sp - sq);
                    out.push((p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t));
                }
            }
            if polygon_area(&out) <= EPSILON {
                Vec::new()
            } else {
                out
            }
        }
        let mut polygon: Vec<(f64, f64)> = other.corners().iter().map(|&c| ours.local(c)).collect();
        let (half, front) = (ours.frontage / 2.0, ours.depth / 2.0);
        for (a, b, c) in [
            (0.0, 1.0, -front),
            (-1.0, 1.0, half - front),
            (1.0, 1.0, half - front),
        ] {
            polygon = clip(&polygon, a, b, c);
            if polygon.is_empty() {
                return false;
            }
        }
        true
    }

    /// A base somewhere near `near`, often lined up with it (same or square
    /// facing, edges touching or a hair apart) so that near-ties abound.
    fn awkward_pair(pick: u8, near: &Base, x: f64, y: f64, facing: f64, size: f64) -> Base {
        let snap = |v: f64| (v * 2.0).round() / 2.0;
        let (frontage, depth) = (snap(size).max(0.5), snap(size / 3.0).max(0.5));
        match pick % 6 {
            0 => Base::new(Point::new(x, y), facing, size, size / 3.0),
            1 => Base::new(Point::new(snap(x), snap(y)), near.facing, frontage, depth),
            2 => Base::new(
                Point::new(snap(x), snap(y)),
                near.facing + (facing / 90.0).round() * 90.0,
                frontage,
                depth,
            ),
            // Side by side, touching or nearly.
            3 => near.moved_to(near.centre + near.right() * (near.frontage + (x - 12.0) * 1e-7)),
            // Face to face, a little apart.
            4 => Base::new(
                near.centre + near.forward() * (near.depth + snap(y) / 4.0),
                near.facing + 180.0,
                near.frontage,
                near.depth,
            ),
            _ => Base::new(
                Point::new(x, y),
                (facing / 45.0).round() * 45.0,
                frontage,
                depth,
            ),
        }
    }

    /// `x.distance_to(y)` is the distance by every offset, to within
    /// rounding, the same both ways to the bit, and 0 where a corner pokes
    /// less than EPSILON into the other base (touching: the bases do not
    /// overlap, and are no distance apart).
    fn measures_as_every_offset(x: &Base, y: &Base) -> Result<(), String> {
        let (ours, plain) = (x.distance_to(y), distance_by_all_offsets(x, y));
        if ours.to_bits() != y.distance_to(x).to_bits() {
            return Err(format!("{ours} one way, {} the other", y.distance_to(x)));
        }
        let close = (ours - plain).abs() <= 1e-12 * (1.0 + plain);
        let touching = ours == 0.0 && plain < EPSILON;
        let neither_a_number = !ours.is_finite() && !plain.is_finite();
        if close || touching || neither_a_number {
            Ok(())
        } else {
            Err(format!("{ours} against {plain} by every offset"))
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// Measuring corners against solid bases is measuring every offset,
        /// and clipping only when needed changes no arc.
        #[test]
        fn distance_and_arc_match_the_exhaustive_versions(
            pick in 0u8..6,
            cx in 0.0f64..24.0,
            cy in 0.0f64..24.0,
            our_facing in 0.0f64..360.0,
            square in proptest::bool::ANY,
            x in 0.0f64..24.0,
            y in 0.0f64..24.0,
            facing in 0.0f64..360.0,
            size in 0.0f64..6.0,
        ) {
            let our_facing = if square { (our_facing / 90.0).round() * 90.0 } else { our_facing };
            let ours = Base::new(Point::new(cx, cy), our_facing, 4.0, 1.0);
            let theirs = awkward_pair(pick, &ours, x, y, facing, size);
            let measured = measures_as_every_offset(&ours, &theirs)
                .and_then(|()| measures_as_every_offset(&theirs, &ours));
            proptest::prop_assert!(measured.is_ok(), "{:?} {:?}: {:?}", ours, theirs, measured);
            proptest::prop_assert_eq!(
                ours.in_frontal_arc(&theirs),
                in_frontal_arc_by_clipping(&ours, &theirs)
            );
            proptest::prop_assert_eq!(
                theirs.in_frontal_arc(&ours),
                in_frontal_arc_by_clipping(&theirs, &ours)
            );
        }
    }

    #[test]
    fn odd_bases_measure_as_every_offset() {
        // Two points: all 32 offsets tie.
        let (p1, p2) = (
            Base::new(Point::new(5.0, 5.0), 0.0, 0.0, 0.0),
            Base::new(Point::new(7.0, 8.5), 30.0, 0.0, 0.0),
        );
        assert_eq!(measures_as_every_offset(&p1, &p2), Ok(()));
        assert_eq!(p1.distance_to(&p2), 2.0f64.hypot(3.5));
        let a = infantry(5.0, 5.0, 0.0);
        let odd = [
            Base::new(Point::new(f64::NAN, 5.0), 0.0, 4.0, 1.0),
            Base::new(Point::new(5.0, 7.0), f64::NAN, 4.0, 1.0),
            Base::new(Point::new(f64::INFINITY, 5.0), 0.0, 4.0, 1.0),
            Base::new(Point::new(5.0, 9.0), 0.0, -4.0, 1.0),
            Base::new(Point::new(5.0, 9.0), 0.0, 0.0, 0.0),
            Base::new(Point::new(9.0, 5.0), 90.0, 0.0, 1.0),
            Base::new(Point::new(5.0, 5.0), 0.0, 4.0, 1.0),
            Base::new(Point::new(5.0, 6.0), 0.0, 4.0, 1.0),
            Base::new(Point::new(5.0, 6.0 + 1e-7), 0.0, 4.0, 1.0),
            Base::new(Point::new(5.0, 6.0 - 1e-7), 0.0, 4.0, 1.0),
            Base::new(Point::new(9.0 - 5e-7, 5.2), 0.0, 4.0, 1.0),
            Base::new(Point::new(1e5, 1e5), 33.0, 4.0, 1.0),
        ];
        for b in odd {
            for (x, y) in [(&a, &b), (&b, &a)] {
                assert_eq!(measures_as_every_offset(x, y), Ok(()), "{x:?} {y:?}");
                assert_eq!(
                    x.in_frontal_arc(y),
                    in_frontal_arc_by_clipping(x, y),
                    "{x:?} {y:?}"
                );
            }
        }
    }
}
