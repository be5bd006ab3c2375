//! Exact geometric predicates and small vector helpers.
//!
//! Every side-of-line decision in the collision core goes through [`orient`], an adaptive-precision
//! orientation test (the `robust` crate, Shewchuk's predicates): its sign is exact for any finite
//! `f64` input, so two tests on the same points never disagree. Distances and crossing points are
//! ordinary floating point; they never decide topology.
use glam::DVec2;

/// Twice the signed area of triangle `a b c`: positive when counter-clockwise, negative when
/// clockwise, zero when collinear. The sign is exact.
#[inline]
pub fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// 2D cross product (z component of the 3D cross product).
#[inline]
pub fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// The unit normal on the left of the direction `a -> b` (counter-clockwise rotation by 90°).
/// Divides by the length (rather than multiplying by its rounded reciprocal), so axis-aligned
/// edges get exactly `(0, ±1)` / `(±1, 0)`.
#[inline(always)]
pub(crate) fn left_normal(a: DVec2, b: DVec2) -> DVec2 {
    let d = b - a;
    let len = d.length();
    if len > 0.0 && len.is_finite() {
        DVec2::new(-d.y, d.x) / len
    } else {
        DVec2::ZERO
    }
}

/// Closest point to `p` on the segment `a b`, and its parameter in `[0, 1]`.
#[inline]
pub fn closest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> (DVec2, f64) {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return (a, 0.0);
    }
    let t = ((p - a).dot(d) / len2).clamp(0.0, 1.0);
    // Snap the ends exactly so that points clamped to a vertex are that vertex; on axis-aligned
    // segments keep the exact coordinate along the segment (no rounding through `t`).
    let q = if t == 0.0 {
        a
    } else if t == 1.0 {
        b
    } else if d.y == 0.0 {
        DVec2::new(p.x.clamp(a.x.min(b.x), a.x.max(b.x)), a.y)
    } else if d.x == 0.0 {
        DVec2::new(a.x, p.y.clamp(a.y.min(b.y), a.y.max(b.y)))
    } else {
        a + d * t
    };
    (q, t)
}

/// Whether the closed segments `a b` and `c d` share at least one point (exact).
pub(crate) fn segments_intersect(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    (o1 == 0.0 && on_segment(a, b, c))
        || (o2 == 0.0 && on_segment(a, b, d))
        || (o3 == 0.0 && on_segment(c, d, a))
        || (o4 == 0.0 && on_segment(c, d, b))
}

/// For `p` collinear with `a b`: whether it lies within the segment's bounding box.
fn on_segment(a: DVec2, b: DVec2, p: DVec2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Signed area of a polygon (positive when counter-clockwise).
pub(crate) fn signed_area(points: &[DVec2]) -> f64 {
    let n = points.len();
    let mut sum = 0.0;
    for i in 0..n {
        // Relative to the first point, to keep precision far from the origin.
        let a = points[i] - points[0];
        let b = points[(i + 1) % n] - points[0];
        sum += cross(a, b);
    }
    0.5 * sum
}

/// Room (m) around everything a level holds when it sets no bounds: the one automatic-bounds rule
/// of the game (`sim::world::automatic_bounds`: every polygon, ladder and the spawn) and of the
/// collision core used on its own (`MeshConfig::bounds: None`: every inflated piece). 10 m leaves
/// room to jump well above the highest platform (the default jump is 3 m high).
pub const AUTO_BOUNDS_MARGIN: f64 = 10.0;

/// The automatic bounds: the box around `points` grown by [`AUTO_BOUNDS_MARGIN`] on each side (the
/// box around the origin when there are no points).
pub fn automatic_bounds(points: impl IntoIterator<Item = DVec2>) -> Aabb {
    let mut b = Aabb::from_points(points);
    if b.is_empty() {
        b = Aabb {
            min: DVec2::ZERO,
            max: DVec2::ZERO,
        };
    }
    b.expand(AUTO_BOUNDS_MARGIN)
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: DVec2,
    /// Upper-right corner.
    pub max: DVec2,
}

impl Aabb {
    /// The smallest box around `points` (an empty iterator gives an inverted box).
    pub fn from_points(points: impl IntoIterator<Item = DVec2>) -> Self {
        let mut b = Aabb {
            min: DVec2::splat(f64::INFINITY),
            max: DVec2::splat(f64::NEG_INFINITY),
        };
        for p in points {
            b.min = b.min.min(p);
            b.max = b.max.max(p);
        }
        b
    }
    /// The box's centre.
    pub fn centre(&self) -> DVec2 {
        (self.min + self.max) * 0.5
    }
    /// Whether the box holds no point.
    pub fn is_empty(&self) -> bool {
        !(self.min.x <= self.max.x && self.min.y <= self.max.y)
    }
    /// The union of two boxes.
    pub fn union(&self, o: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
    /// The box grown by `m` on every side.
    pub fn expand(&self, m: f64) -> Aabb {
        Aabb {
            min: self.min - DVec2::splat(m),
            max: self.max + DVec2::splat(m),
        }
    }
    /// Whether `p` is inside or on the boundary.
    pub fn contains(&self, p: DVec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
    /// Whether `p` is strictly inside.
    pub fn contains_strictly(&self, p: DVec2) -> bool {
        p.x > self.min.x && p.x < self.max.x && p.y > self.min.y && p.y < self.max.y
    }
    /// Whether two boxes overlap (closed).
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.min.x <= o.max.x
            && o.min.x <= self.max.x
            && self.min.y <= o.max.y
            && o.min.y <= self.max.y
    }
    /// The box's four corners, counter-clockwise from the lower left.
    pub fn corners(&self) -> [DVec2; 4] {
        [
            self.min,
            DVec2::new(self.max.x, self.min.y),
            self.max,
            DVec2::new(self.min.x, self.max.y),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orient_sign_is_exact_for_nearly_collinear_points() {
        let a = DVec2::new(0.5, 0.5);
        let b = DVec2::new(12.0, 12.0);
        let c = DVec2::new(24.0, 24.0);
        assert_eq!(orient(a, b, c), 0.0);
        let c2 = DVec2::new(24.0, 24.0 + 1e-14);
        assert!(orient(a, b, c2) > 0.0);
    }

    #[test]
    fn segment_intersection_cases() {
        let p = |x, y| DVec2::new(x, y);
        assert!(segments_intersect(
            p(0., 0.),
            p(2., 2.),
            p(0., 2.),
            p(2., 0.)
        ));
        assert!(segments_intersect(
            p(0., 0.),
            p(2., 0.),
            p(2., 0.),
            p(3., 1.)
        ));
        assert!(segments_intersect(
            p(0., 0.),
            p(2., 0.),
            p(1., 0.),
            p(3., 0.)
        ));
        assert!(!segments_intersect(
            p(0., 0.),
            p(1., 0.),
            p(2., 0.),
            p(3., 0.)
        ));
        assert!(!segments_intersect(
            p(0., 0.),
            p(1., 1.),
            p(0., 1.),
            p(0.4, 0.6)
        ));
    }
}
