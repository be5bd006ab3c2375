//! Buried edges: whether a segment of an inflated outline lies inside another solid piece, where
//! it separates two solid faces and bounds nothing, so the build leaves it out of the
//! triangulation (see [`super::build`]).
//!
//! Owns only these tests; reads the pieces and the piece grid, changes nothing.
use glam::DVec2;

use super::grid::PieceGrid;
use super::mesh::InflatedPiece;
use super::polygon::Solidity;
use super::predicates::orient;

/// Whether segment `a b` (an edge of piece `own`, never buried in it) lies inside a solid piece
/// with its interior off that piece's outline (exact): it then separates two solid faces and
/// bounds nothing. A convex piece holds the segment if it holds both ends; the segment's
/// interior touches the outline only if both ends lie on one edge's line.
pub(crate) fn buried(
    a: DVec2,
    b: DVec2,
    own: u32,
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
) -> bool {
    inside_a_solid_piece(a, b, own, pieces, grid, 0..u32::MAX, |u, v| {
        let (oa, ob) = (orient(u, v, a), orient(u, v, b));
        oa >= 0.0 && ob >= 0.0 && (oa > 0.0 || ob > 0.0)
    })
}

/// How far (metres, plus 1e-12 relative to the coordinates) inside every edge line of a solid
/// piece both ends of a split piece must be for `buried_deep`. Split points are rounded, so a
/// piece lying along an outline can have both ends an ulp inside it; an exact test would drop
/// it and open the outline. Far above rounding, far below any geometry that matters: a piece
/// kept by this margin costs only time.
pub(crate) const BURIED_MARGIN: f64 = 1e-9;

/// [`buried`] for pieces with rounded (split) ends: both ends more than [`BURIED_MARGIN`] inside
/// every edge line of one solid piece (conservative: keeping an edge is always correct). The
/// distance `cross(v - u, p - u) / |v - u|` is compared squared, with no square root or division
/// per edge: this test ran for every split piece and was a tenth of a large build.
/// `own` is a piece the segment lies on the outline of (skipped: it cannot hold it deep inside).
pub(crate) fn buried_deep(
    a: DVec2,
    b: DVec2,
    own: u32,
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
) -> bool {
    buried_deep_among(a, b, own, pieces, grid, 0..u32::MAX)
}

/// [`buried_deep`] tested only against the pieces with an index in `among`.
pub(crate) fn buried_deep_among(
    a: DVec2,
    b: DVec2,
    own: u32,
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
    among: std::ops::Range<u32>,
) -> bool {
    let margin = BURIED_MARGIN + 1e-12 * a.abs().max(b.abs()).max_element();
    let margin2 = margin * margin;
    inside_a_solid_piece(a, b, own, pieces, grid, among, |u, v| {
        let e = v - u;
        let (ca, cb) = (e.perp_dot(a - u), e.perp_dot(b - u));
        let limit = margin2 * e.length_squared();
        ca > 0.0 && cb > 0.0 && ca * ca > limit && cb * cb > limit
    })
}

/// Whether some solid piece but `own`, with an index in `among`, whose box holds `a` and `b`
/// passes `inside(u, v)` for every edge `u v` of its (counter-clockwise) outline. The grid cell's entries carry the boxes,
/// so a piece's outline is read only when its box passes.
fn inside_a_solid_piece(
    a: DVec2,
    b: DVec2,
    own: u32,
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
    among: std::ops::Range<u32>,
    inside: impl Fn(DVec2, DVec2) -> bool,
) -> bool {
    grid.candidates(a).iter().any(|e| {
        e.kind == Solidity::Solid
            && e.piece != own
            && among.contains(&e.piece)
            && e.aabb.contains(a)
            && e.aabb.contains(b)
            && {
                let pts = &pieces[e.piece as usize].points;
                let n = pts.len();
                (0..n).all(|i| inside(pts[i], pts[(i + 1) % n]))
            }
    })
}
