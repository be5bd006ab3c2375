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

/// A number as error messages print it: plainly when it reads well (`0.25`, `-12`, `1500000`),
/// in scientific notation when it is very large or very small (`-1e300`, `3e-12`), never as three
/// hundred digits. Non-finite values print as `NaN`, `inf`, `-inf`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

/// [`Num`] of a borrowed value (for error attributes, whose fields are references).
pub fn readable(x: &f64) -> Num {
    Num(*x)
}

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        let a = x.abs();
        if !x.is_finite() || x == 0.0 || (1e-4..1e9).contains(&a) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

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

/// How a polygon blocks bodies: all the collision core knows of what a polygon is for (what the
/// level makes of it, and what the rules of play read from it, are theirs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Solidity {
    /// Blocks from every side.
    #[default]
    Solid,
    /// Blocks only bodies crossing its upward-facing top edges while moving down (see
    /// `collision::walk` for the exact rule); passable from below and from the sides.
    OneWay,
    /// A gate: blocks from every side while closed; while open, its space is what it would be
    /// without the polygon ([`CollisionMesh::set_gate`](super::CollisionMesh::set_gate)). Opening
    /// and closing rewrites face kinds in place, no re-mesh.
    Gate,
    /// Blocks nothing: checked like every polygon and counted in the build's extent, but every
    /// mesh build leaves it out, so bodies move through it (an area the caller reads itself).
    Passable,
}

/// A level obstacle: a simple polygon (convex or concave, either orientation).
#[derive(Clone, Debug, PartialEq)]
pub struct SourcePolygon {
    /// Id reported back on faces, edges and contacts.
    pub id: PolygonId,
    /// How it blocks (or, [`Solidity::Passable`], that it does not).
    pub kind: Solidity,
    /// Vertices in order (either orientation), without repeating the first at the end.
    pub points: Vec<DVec2>,
}

/// What is wrong with an input polygon or collider.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// A coordinate is NaN or infinite.
    #[error("{polygon}: point {point} has a non-finite coordinate ({}, {})", readable(.x), readable(.y))]
    NonFinite {
        polygon: PolygonId,
        point: usize,
        x: f64,
        y: f64,
    },
    /// A coordinate is beyond [`MAX_COORDINATE`].
    #[error(
        "{polygon}: point {point} at ({}, {}) is beyond the ±1e7 m coordinate limit",
        readable(.x),
        readable(.y)
    )]
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
    #[error("{polygon}: points {a} and {b} are duplicates at ({}, {})", readable(.x), readable(.y))]
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
/// zero area, no self-intersection. O(n log n) in the number of points for a valid polygon (a
/// freehand outline has thousands); finding which edges of a long self-intersecting one cross is
/// O(n²).
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
    // Edge i runs from point i to point i + 1. Every pair of edges is tested (which also names
    // the culprits) unless the polygon is long and the triangulation shows it simple.
    let pairwise = n <= PAIRWISE_MAX || !simple_by_triangulation(points);
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
        if !pairwise {
            continue;
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

/// Polygons with more points than this are first checked for self-intersection by triangulating
/// them ([`simple_by_triangulation`], O(n log n)); testing every pair of edges is faster below it.
const PAIRWISE_MAX: usize = 64;

/// Whether an outline is certainly simple: spade's constrained Delaunay triangulation of its
/// points, with its edges as constraints, kept every point and has every outline edge as an edge
/// (spade decides with exact predicates). Edges of a triangulation meet only at common ends and
/// pass through no other point, and two outline edges with the same ends would need a repeated
/// point, so then only consecutive edges meet, at their common point. `false` does not mean
/// self-intersecting (spade refuses non-zero coordinates below 2^-142 in magnitude): the caller
/// then tests every pair of edges. Expects finite points, no two consecutive ones equal.
fn simple_by_triangulation(points: &[DVec2]) -> bool {
    use spade::{Point2, Triangulation};
    let n = points.len();
    let verts: Vec<Point2<f64>> = points.iter().map(|p| Point2::new(p.x, p.y)).collect();
    let Some(cdt) = outline_cdt(verts, n) else {
        return false;
    };
    // Vertex order is kept, so spade's vertex i is point i unless points were merged. A
    // triangulation has no repeated edge, so n outline edges found means all of them.
    cdt.num_vertices() == n
        && cdt
            .directed_edges()
            .filter(|e| e.to().fix().index() == (e.from().fix().index() + 1) % n)
            .count()
            == n
}

/// Spade's constrained Delaunay triangulation of `verts` whose first `m` points are a closed
/// outline, with the outline's edges as constraints (the points after them are interior
/// points, unconstrained). Spade's vertex `i` is `verts[i]`. `None` if spade refuses a point,
/// merges two, or an outline edge would cross another (or pass through a point).
///
/// The points go in one by one in the order given, each located from the previous one, then the
/// constraints one by one. An outline's own order is spatially coherent, so each walk is short.
/// Spade's bulk load keeps an angular hull around the points' centre that degenerates on long
/// thin outlines (its hull insertion was the top of the profile of `tessera check` on the
/// 20 000-point comb of `scripts/gen-outline.py`). With this, that check went from 0.43 to
/// 0.25 s (release without LTO, idle machine, 2026-11-23). The decomposition's triangulation
/// (`decompose.rs`, with split points along long edges) inserts in Z-order instead: in outline
/// order, a long edge's split points all join one far corner first.
fn outline_cdt(
    verts: Vec<spade::Point2<f64>>,
    m: usize,
) -> Option<spade::ConstrainedDelaunayTriangulation<spade::Point2<f64>>> {
    use spade::handles::FixedVertexHandle;
    use spade::{ConstrainedDelaunayTriangulation, Triangulation};
    let n = verts.len();
    let mut cdt = ConstrainedDelaunayTriangulation::new();
    let mut hint = None;
    for v in verts {
        let h = match hint {
            Some(h) => cdt.insert_with_hint(v, h),
            None => cdt.insert(v),
        };
        hint = Some(h.ok()?);
    }
    if cdt.num_vertices() != n {
        return None;
    }
    for i in 0..m {
        let (a, b) = (
            FixedVertexHandle::from_index(i),
            FixedVertexHandle::from_index((i + 1) % m),
        );
        // A constraint that would cross one already in is refused and changes nothing. One that
        // passes through a point comes back split in several edges.
        if cdt.try_add_constraint(a, b).len() != 1 {
            return None;
        }
    }
    Some(cdt)
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
    fn numbers_in_messages_read_plainly_or_in_scientific_notation() {
        let shown: Vec<String> = [
            0.0,
            0.25,
            -12.0,
            1.5e6,
            1e-4,
            1e9,
            -1e300,
            3e-12,
            f64::NAN,
            f64::INFINITY,
        ]
        .iter()
        .map(|x| Num(*x).to_string())
        .collect();
        assert_eq!(
            shown,
            ["0", "0.25", "-12", "1500000", "0.0001", "1e9", "-1e300", "3e-12", "NaN", "inf"]
        );
        let e = validate_polygon(ID, &v(&[(0., 0.), (-1e300, 0.), (1., 1.)])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "polygon 7: point 1 at (-1e300, 0) is beyond the ±1e7 m coordinate limit"
        );
    }

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

    /// Whether no two non-adjacent edges touch and no edge folds back onto the next: the
    /// pairwise definition of a simple outline.
    fn simple_pairwise(points: &[DVec2]) -> bool {
        let n = points.len();
        (0..n).all(|i| {
            let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
            !(orient(a, b, c) == 0.0 && (c - b).dot(b - a) < 0.0)
                && ((i + 2)..n).all(|j| {
                    (i == 0 && j == n - 1)
                        || !segments_intersect(a, b, points[j], points[(j + 1) % n])
                })
        })
    }

    proptest::proptest! {
        #![proptest_config(crate::test_seed::proptest_config(600, 0x5173_91e0))]

        /// The triangulation's verdict is the pairwise one, on outlines full of touching,
        /// collinear and repeated points: random points on a small grid (rarely simple), and
        /// star-shaped outlines snapped to a grid (mostly simple, with collinear edges), both
        /// optionally far from the origin.
        #[test]
        fn triangulation_finds_an_outline_simple_exactly_when_pairwise_tests_do(
            grid in proptest::collection::vec((0i32..6, 0i32..6), 3..12),
            star in proptest::collection::vec(2i32..12, 3..60),
            use_star in proptest::bool::ANY,
            offset in proptest::sample::select(vec![0.0, 1e6, -0.5]),
        ) {
            let mut pts: Vec<DVec2> = if use_star {
                let k = star.len();
                star.iter()
                    .enumerate()
                    .map(|(i, &r)| {
                        let t = i as f64 * std::f64::consts::TAU / k as f64;
                        (DVec2::new(t.cos(), t.sin()) * r as f64 * 2.0).round() / 2.0
                    })
                    .collect()
            } else {
                grid.iter().map(|&(x, y)| DVec2::new(x as f64, y as f64)).collect()
            };
            for p in &mut pts {
                *p += offset;
            }
            pts.dedup();
            while pts.len() > 1 && pts[0] == pts[pts.len() - 1] {
                pts.pop();
            }
            proptest::prop_assume!(pts.len() >= 3);
            proptest::prop_assert_eq!(simple_by_triangulation(&pts), simple_pairwise(&pts), "{:?}", pts);
        }
    }

    #[test]
    fn a_long_outline_is_validated_by_triangulation_and_its_crossing_still_named() {
        // A star of 2 000 points: simple. Swapping two points far apart makes it cross itself.
        let k = 2_000;
        let mut pts: Vec<DVec2> = (0..k)
            .map(|i| {
                let t = i as f64 * std::f64::consts::TAU / k as f64;
                DVec2::new(t.cos(), t.sin()) * (10.0 + (i % 3) as f64)
            })
            .collect();
        assert!(simple_by_triangulation(&pts));
        assert_eq!(validate_polygon(ID, &pts), Ok(()));
        pts.swap(10, 1_000);
        assert!(!simple_by_triangulation(&pts));
        assert!(matches!(
            validate_polygon(ID, &pts),
            Err(GeometryError::SelfIntersection { a: 9, .. })
        ));
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
