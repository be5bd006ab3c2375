//! Source polygons (the level's obstacles as the collision core receives them) and their validation.
//!
//! Validation runs before anything is built ("check, then execute"): a bad polygon is reported with
//! its id and the problem, and no mesh is touched.
use std::borrow::Cow;

use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::predicates::{orient, segments_intersect, signed_area};

/// Largest coordinate magnitude accepted, in metres. Far beyond any level, and small enough that
/// inflated coordinates keep about 1e-9 m of absolute `f64` precision.
pub const MAX_COORDINATE: f64 = 1e7;

/// Identifies a source polygon (the level's polygon index). Meshes keep these on every solid face
/// and constraint edge so the movement layer, the editor and sound can ask what a surface is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PolygonId(pub u32);

impl PolygonId {
    /// The id given to the solid frame around the level bounds.
    pub const BOUNDS: PolygonId = PolygonId(u32::MAX);
}

impl std::fmt::Display for PolygonId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == PolygonId::BOUNDS {
            write!(f, "level bounds")
        } else {
            write!(f, "polygon {}", self.0)
        }
    }
}

/// How a polygon blocks bodies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolygonKind {
    /// Blocks from every side.
    #[default]
    Solid,
    /// Blocks only bodies crossing its upward-facing top edges while moving down (see
    /// `collision::walk` for the exact rule); passable from below and from the sides.
    OneWay,
}

/// A level obstacle: a simple polygon (convex or concave, either orientation).
#[derive(Clone, Debug, PartialEq)]
pub struct SourcePolygon {
    /// Id reported back on faces, edges and contacts.
    pub id: PolygonId,
    /// Solid or one-way.
    pub kind: PolygonKind,
    /// Vertices in order (either orientation), without repeating the first at the end.
    pub points: Vec<DVec2>,
}

/// What is wrong with an input polygon or collider.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// A coordinate is NaN or infinite.
    #[error("{polygon}: point {point} has a non-finite coordinate ({x}, {y})")]
    NonFinite {
        polygon: PolygonId,
        point: usize,
        x: f64,
        y: f64,
    },
    /// A coordinate is beyond [`MAX_COORDINATE`].
    #[error("{polygon}: point {point} at ({x}, {y}) is beyond the ±1e7 m coordinate limit")]
    OutOfRange {
        polygon: PolygonId,
        point: usize,
        x: f64,
        y: f64,
    },
    /// Fewer than three points.
    #[error("{polygon}: has {count} points, a polygon needs at least 3 distinct points")]
    TooFewPoints { polygon: PolygonId, count: usize },
    /// Two consecutive points are equal.
    #[error("{polygon}: points {a} and {b} are duplicates at ({x}, {y})")]
    DuplicatePoint {
        polygon: PolygonId,
        a: usize,
        b: usize,
        x: f64,
        y: f64,
    },
    /// All points on one line.
    #[error("{polygon}: has zero area (all points are collinear)")]
    ZeroArea { polygon: PolygonId },
    /// Two edges cross or touch, or an edge folds back on the previous one.
    #[error("{polygon}: self-intersection between edge {a} and edge {b}")]
    SelfIntersection {
        polygon: PolygonId,
        a: usize,
        b: usize,
    },
    /// The collider is not a convex polygon with positive area.
    #[error("collider: {0}")]
    BadCollider(String),
}

/// Checks a polygon: finite, in range, no duplicate consecutive points, at least three points, no
/// zero area, no self-intersection. O(n²) in the number of points (level polygons are small).
pub fn validate_polygon(id: PolygonId, points: &[DVec2]) -> Result<(), GeometryError> {
    for (i, p) in points.iter().enumerate() {
        if !p.x.is_finite() || !p.y.is_finite() {
            return Err(GeometryError::NonFinite {
                polygon: id,
                point: i,
                x: p.x,
                y: p.y,
            });
        }
        if p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE {
            return Err(GeometryError::OutOfRange {
                polygon: id,
                point: i,
                x: p.x,
                y: p.y,
            });
        }
    }
    let n = points.len();
    if n < 3 {
        return Err(GeometryError::TooFewPoints {
            polygon: id,
            count: n,
        });
    }
    for i in 0..n {
        let j = (i + 1) % n;
        if points[i] == points[j] {
            let p = points[i];
            return Err(GeometryError::DuplicatePoint {
                polygon: id,
                a: i,
                b: j,
                x: p.x,
                y: p.y,
            });
        }
    }
    if (0..n).all(|i| orient(points[0], points[1], points[i]) == 0.0) {
        return Err(GeometryError::ZeroArea { polygon: id });
    }
    // Edge i runs from point i to point i + 1.
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        // Adjacent edge folding back onto this one (a spike of zero width).
        let c = points[(i + 2) % n];
        if orient(a, b, c) == 0.0 && (c - b).dot(b - a) < 0.0 {
            return Err(GeometryError::SelfIntersection {
                polygon: id,
                a: i,
                b: (i + 1) % n,
            });
        }
        for j in (i + 2)..n {
            if i == 0 && j == n - 1 {
                continue; // adjacent through the closing vertex
            }
            let (c, d) = (points[j], points[(j + 1) % n]);
            if segments_intersect(a, b, c, d) {
                return Err(GeometryError::SelfIntersection {
                    polygon: id,
                    a: i,
                    b: j,
                });
            }
        }
    }
    if signed_area(points) == 0.0 {
        return Err(GeometryError::ZeroArea { polygon: id });
    }
    Ok(())
}

/// The polygon's points counter-clockwise, with collinear points removed. Expects a validated
/// polygon. Borrows the input when it is already so (every tile of a tile level): a mesh build
/// normalizes every polygon of the level.
pub fn normalized_ccw(points: &[DVec2]) -> Cow<'_, [DVec2]> {
    let reversed = signed_area(points) < 0.0;
    if !reversed && removable_vertex(points).is_none() {
        return Cow::Borrowed(points);
    }
    let mut pts: Vec<DVec2> = points.to_vec();
    if reversed {
        pts.reverse();
    }
    Cow::Owned(remove_collinear(pts))
}

/// Drops vertices that lie on the straight line between their neighbours (exact test).
pub(crate) fn remove_collinear(mut pts: Vec<DVec2>) -> Vec<DVec2> {
    while let Some(i) = removable_vertex(&pts) {
        pts.remove(i);
    }
    pts
}

/// The first vertex [`remove_collinear`] drops: one equal to its predecessor or on the line
/// through its neighbours. `None` for a triangle or less (nothing is dropped below three points).
fn removable_vertex(pts: &[DVec2]) -> Option<usize> {
    let n = pts.len();
    if n <= 3 {
        return None;
    }
    (0..n).find(|&i| {
        let prev = pts[(i + n - 1) % n];
        let next = pts[(i + 1) % n];
        pts[i] == prev || orient(prev, pts[i], next) == 0.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(p: &[(f64, f64)]) -> Vec<DVec2> {
        p.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }
    const ID: PolygonId = PolygonId(7);

    #[test]
    fn accepts_concave_either_orientation() {
        let l = v(&[(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]);
        assert_eq!(validate_polygon(ID, &l), Ok(()));
        let mut r = l.clone();
        r.reverse();
        assert_eq!(validate_polygon(ID, &r), Ok(()));
        assert!(signed_area(&normalized_ccw(&r)) > 0.0);
    }

    #[test]
    fn rejects_bad_polygons_with_the_culprit_named() {
        let e = validate_polygon(ID, &v(&[(0., 0.), (1., 0.)])).unwrap_err();
        assert_eq!(
            e,
            GeometryError::TooFewPoints {
                polygon: ID,
                count: 2
            }
        );
        assert!(e.to_string().contains("polygon 7"));
        let e = validate_polygon(ID, &v(&[(0., 0.), (1., 0.), (2., 0.)])).unwrap_err();
        assert_eq!(e, GeometryError::ZeroArea { polygon: ID });
        let e = validate_polygon(ID, &v(&[(0., 0.), (1., 0.), (1., 0.), (0., 1.)])).unwrap_err();
        assert!(matches!(
            e,
            GeometryError::DuplicatePoint { a: 1, b: 2, .. }
        ));
        let e = validate_polygon(ID, &v(&[(0., 0.), (1., 1.), (1., 0.), (0., 1.)])).unwrap_err();
        assert!(matches!(e, GeometryError::SelfIntersection { .. }));
        let e = validate_polygon(ID, &v(&[(0., 0.), (f64::NAN, 0.), (0., 1.)])).unwrap_err();
        assert!(matches!(e, GeometryError::NonFinite { point: 1, .. }));
        let e = validate_polygon(ID, &v(&[(0., 0.), (2e7, 0.), (0., 1.)])).unwrap_err();
        assert!(matches!(e, GeometryError::OutOfRange { point: 1, .. }));
        // A spike folding back on itself.
        let e = validate_polygon(ID, &v(&[(0., 0.), (2., 0.), (1., 0.), (0., 1.)])).unwrap_err();
        assert!(matches!(e, GeometryError::SelfIntersection { .. }));
    }

    #[test]
    fn collinear_points_are_removed() {
        let sq = v(&[(0., 0.), (1., 0.), (2., 0.), (2., 2.), (0., 2.)]);
        assert_eq!(normalized_ccw(&sq).len(), 4);
    }

    /// The mesh build normalizes every polygon: a clean counter-clockwise outline (every tile)
    /// is borrowed as it is; a clockwise one is reversed and one with a collinear point or a
    /// repeated point is cleaned, into a copy.
    #[test]
    fn normalization_copies_only_what_it_changes() {
        let tile = v(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
        let n = normalized_ccw(&tile);
        assert!(matches!(n, Cow::Borrowed(_)));
        assert_eq!(&*n, &tile[..]);
        let cw: Vec<DVec2> = tile.iter().rev().copied().collect();
        let n = normalized_ccw(&cw);
        assert!(matches!(n, Cow::Owned(_)));
        assert!(signed_area(&n) > 0.0 && n.len() == 4);
        for messy in [
            v(&[(0., 0.), (0.5, 0.), (1., 0.), (1., 1.), (0., 1.)]),
            v(&[(0., 0.), (1., 0.), (1., 0.), (1., 1.), (0., 1.)]),
        ] {
            let n = normalized_ccw(&messy);
            assert!(matches!(n, Cow::Owned(_)));
            assert_eq!(&*n, &tile[..]);
        }
        // A triangle keeps its points whatever they are (nothing is dropped below three).
        let tri = v(&[(0., 0.), (1., 0.), (0., 1.)]);
        assert!(matches!(normalized_ccw(&tri), Cow::Borrowed(_)));
    }
}
