//! Thinning a polygon whose inflated pieces overlap heavily: only what can lie on the boundary of
//! their union goes on to the splitting stage.
//!
//! A solid outline with teeth much narrower than the collider, but too far apart for `fill` to
//! fill (the collider can feel the notches), is decomposed into pieces of about a tooth each, and
//! each piece inflated by the collider is nearly the whole collider: `k` teeth under the collider's
//! width give `k` mutually overlapping inflated pieces whose outlines cross pairwise. Splitting
//! all of them at once costs the overlap, `n · k` crossing points for `n` teeth (60 m of 1 cm teeth
//! 6 mm apart: 385 MB for the two shipped colliders), although almost every piece of them lies
//! inside the union and is thrown away afterwards.
//!
//! So such a polygon's pieces are merged by divide and conquer, in their decomposition order (which
//! follows the outline, so the two halves of a range are two stretches of it):
//!
//! 1. the outline segments of each half are thinned recursively (a range of at most
//!    [`LEAF_PIECES`] pieces is kept as it is);
//! 2. the two thinned sets are split against each other exactly ([`planarize`]), and a split
//!    piece is kept unless it lies deep inside a solid piece of the two halves
//!    ([`buried_deep_among`]: it then bounds nothing; pieces outside the other half's box are not
//!    tested); of identical split pieces (collinear outlines that overlap) one is kept.
//!
//! What a range returns is therefore about the boundary of its pieces' union, and the union of
//! two stretches of outline overlaps the other only near where they meet, so each merge costs
//! about the two boundaries, not the overlap: the whole is `O(n log n)`. Nothing is rounded that
//! the splitting stage would not round anyway: the kept pieces are sub-segments of inflated edges
//! cut at exactly the crossing points that stage computes, each remembering its piece (and so
//! its polygon), and a piece is dropped only by the same conservative test as after that stage.
//! Keeping a piece that is in fact interior is always correct (it separates two solid faces);
//! dropping one is only ever done for pieces [`BURIED_MARGIN`](super::buried::BURIED_MARGIN)
//! deep inside a solid piece.
//!
//! Only solid polygons that need it are thinned ([`needs_thinning`]: at least [`THIN_MIN_PIECES`]
//! pieces, more than [`THIN_MIN_PAIRS`] overlapping segment boxes per segment): ordinary
//! outlines, whose pieces overlap a few neighbours, go to the splitting stage whole, as before.
//!
//! Owns only this merge; reads the pieces and the piece grid.
use std::ops::Range;

use super::buried::buried_deep_among;
use super::grid::PieceGrid;
use super::mesh::InflatedPiece;
use glam::DVec2;

use super::planarize::{box_pairs_exceed, planarize, Piece, PlanarizeError, Points};
use super::predicates::Aabb;

/// A range of at most this many pieces is not split further.
pub(crate) const LEAF_PIECES: usize = 4;

/// A solid polygon of at least this many pieces is thinned when its pieces overlap many others.
pub(crate) const THIN_MIN_PIECES: usize = 32;

/// The overlap that makes thinning pay: pairs of the polygon's segments with overlapping boxes,
/// per segment (what the splitting stage tests). Ordinary outlines stay below 4 (a comb of 0.25 m
/// teeth, stairs, 10 cm teeth 5 cm apart: 6.5); 3 cm teeth 1.5 cm apart reach 21 and 1 cm teeth
/// 6 mm apart 113, with about two crossing points per pair.
pub(crate) const THIN_MIN_PAIRS: usize = 16;

/// Whether the outline segments `segs` of the pieces of one solid polygon (at least
/// [`THIN_MIN_PIECES`] of them) overlap enough to be thinned.
pub(crate) fn needs_thinning(points: &[DVec2], segs: &[PieceSegment], pieces: usize) -> bool {
    #[cfg(test)]
    if let Some(forced) = tests::FORCE.with(|f| f.get()) {
        return forced;
    }
    if pieces < THIN_MIN_PIECES {
        return false;
    }
    box_pairs_exceed(points, segs, THIN_MIN_PAIRS * segs.len())
}

/// One segment: its two point ids in `pts` and the index of the piece whose outline it lies on
/// (the splitting stage's [`Piece`] shape, with a piece index for the origin).
pub(crate) type PieceSegment = Piece;

/// The segments of `segs` (outline segments of pieces of one solid polygon, sorted by piece)
/// that can lie on the boundary of the pieces' union, split where they cross (see the module
/// docs). New crossing points go into `pts`. Fails when one merge exceeds the splitting
/// stage's `budget`.
pub(crate) fn thinned(
    pts: &mut Points,
    segs: &[PieceSegment],
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
    budget: usize,
) -> Result<Vec<PieceSegment>, PlanarizeError> {
    let (Some(first), Some(last)) = (segs.first(), segs.last()) else {
        return Ok(Vec::new());
    };
    Ok(thin_range(pts, segs, first.1..last.1 + 1, pieces, grid, budget)?.0)
}

/// [`thinned`] for the segments of pieces `range`; also returns the box of those pieces.
fn thin_range(
    pts: &mut Points,
    segs: &[PieceSegment],
    range: Range<u32>,
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
    budget: usize,
) -> Result<(Vec<PieceSegment>, Aabb), PlanarizeError> {
    if range.len() <= LEAF_PIECES {
        let b = range
            .clone()
            .map(|i| pieces[i as usize].aabb)
            .reduce(|a, b| a.union(&b));
        return Ok((segs.to_vec(), b.unwrap_or(EMPTY)));
    }
    let mid = range.start + (range.len() as u32).div_ceil(2);
    let at = segs.partition_point(|s| s.1 < mid);
    let (low, low_box) = thin_range(pts, &segs[..at], range.start..mid, pieces, grid, budget)?;
    let (high, high_box) = thin_range(pts, &segs[at..], mid..range.end, pieces, grid, budget)?;
    let halves = [(range.start..mid, low_box), (mid..range.end, high_box)];
    let kept = merge(pts, low, high, &halves, pieces, grid, budget)?;
    Ok((kept, low_box.union(&high_box)))
}

/// An empty box (the identity of [`Aabb::union`]).
const EMPTY: Aabb = Aabb {
    min: DVec2::INFINITY,
    max: DVec2::NEG_INFINITY,
};

/// Splits the thinned segments of two halves (`halves`: their piece ranges and boxes) against
/// each other and keeps one copy of each split piece that is not deep inside a solid piece of
/// either half. A piece outside the other half's box is kept untested: what it lies in within its
/// own half was settled by an earlier merge (or, within a leaf, by the build's first burial
/// test of whole edges; a leaf's edges partly inside each other may leave a few interior pieces,
/// which is only a little wasted work).
fn merge(
    pts: &mut Points,
    low: Vec<PieceSegment>,
    high: Vec<PieceSegment>,
    halves: &[(Range<u32>, Aabb); 2],
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
    budget: usize,
) -> Result<Vec<PieceSegment>, PlanarizeError> {
    let both = halves[0].0.start..halves[1].0.end;
    let mut segs = low;
    segs.extend(high);
    let input: Vec<[u32; 2]> = segs.iter().map(|s| s.0).collect();
    let split = planarize(pts, &input, budget)?;
    drop(input);
    let mut out: Vec<PieceSegment> = Vec::with_capacity(split.len().min(2 * segs.len()));
    // `split` is sorted by point pair: identical pieces are adjacent.
    for (k, &(pair, origin)) in split.iter().enumerate() {
        if k > 0 && split[k - 1].0 == pair {
            continue;
        }
        let piece = segs[origin as usize].1;
        let (a, b) = (pts.points[pair[0] as usize], pts.points[pair[1] as usize]);
        let other_box = halves[usize::from(halves[0].0.contains(&piece))].1;
        let near = other_box.overlaps(&Aabb::from_points([a, b]));
        if !near || !buried_deep_among(a, b, piece, pieces, grid, both.clone()) {
            out.push((pair, piece));
        }
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::collision::{
        build_mesh, ColliderShape, FaceKind, Location, MeshConfig, PolygonId, Solidity,
        SourcePolygon,
    };

    thread_local! {
        /// Overrides [`needs_thinning`] on this thread: `Some(true)` thins every polygon,
        /// `Some(false)` none.
        pub(crate) static FORCE: Cell<Option<bool>> = const { Cell::new(None) };
    }

    fn build(
        polygons: &[SourcePolygon],
        c: &ColliderShape,
        thin: bool,
    ) -> crate::collision::CollisionMesh {
        FORCE.with(|f| f.set(Some(thin)));
        let m = build_mesh(polygons, c, &MeshConfig::default());
        FORCE.with(|f| f.set(None));
        m.unwrap()
    }

    fn kind(l: Location, m: &crate::collision::CollisionMesh) -> Option<FaceKind> {
        match l {
            Location::Free(b) => Some(m.kind(b.face)),
            Location::Solid(_) => Some(FaceKind::Solid),
            Location::Outside => None,
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::test_seed::proptest_config(16, 0x7419_0a11_5eed))]
        /// A thinned polygon's mesh answers like the mesh of the same polygon split whole: at
        /// random points, and at points a few micrometres beside each vertex, the kind of space
        /// (free or solid) is the same. (The debug build's invariant check also runs on both:
        /// no free face inside an inflated piece, every solid face inside one.)
        #[test]
        fn a_thinned_polygon_is_located_like_an_unthinned_one(
            seed in proptest::num::u64::ANY,
            teeth in 8usize..120,
            pitch_mm in 3u32..200,
            w in 0.2f64..1.5,
            h in 0.2f64..2.0,
            round in proptest::bool::ANY,
            square_teeth in proptest::bool::ANY,
        ) {
            let mut next = crate::test_seed::unit_stream(seed);
            // A slab whose top is `teeth` teeth of random depth `pitch` apart: pointed, or
            // square teeth of random width and height with gaps between (a comb).
            let pitch = pitch_mm as f64 * 1e-3;
            let len = pitch * teeth as f64;
            let mut points = vec![DVec2::new(0.0, -1.0), DVec2::new(len, -1.0)];
            for i in (0..teeth).rev() {
                let x = i as f64 * pitch;
                let top = 0.5 * pitch + next() * 4.0 * pitch;
                if square_teeth {
                    let width = (0.2 + 0.6 * next()) * pitch;
                    points.push(DVec2::new(x + pitch, 0.0));
                    points.push(DVec2::new(x + pitch, top));
                    points.push(DVec2::new(x + pitch - width, top));
                    points.push(DVec2::new(x + pitch - width, 0.0));
                } else {
                    points.push(DVec2::new(x + 0.5 * pitch, top));
                    points.push(DVec2::new(x, 0.0));
                }
            }
            if square_teeth {
                points.push(DVec2::new(0.0, 0.0));
            }
            let polygon = [SourcePolygon { id: PolygonId(0), kind: Solidity::Solid, points }];
            let collider = if round {
                ColliderShape::ChamferedBox { width: w, height: h, chamfer: 0.3 * w.min(h) }
            } else {
                ColliderShape::Box { width: w, height: h }
            };
            let thin = build(&polygon, &collider, true);
            let whole = build(&polygon, &collider, false);
            let ext = whole.extent;
            let mut probes: Vec<DVec2> = (0..400)
                .map(|_| ext.min + (ext.max - ext.min) * DVec2::new(next(), next()))
                .collect();
            for v in whole.vertices() {
                // Beside every vertex, off every axis and 45° line: a vertex itself may be a
                // rounded crossing point an ulp off the outline it lies on, placed differently in
                // the two meshes.
                for d in [DVec2::new(3e-6, 7e-6), DVec2::new(-7e-6, 3e-6), DVec2::new(-3e-6, -7e-6), DVec2::new(7e-6, -3e-6)] {
                    probes.push(*v + d);
                }
            }
            for p in probes {
                let (a, b) = (kind(thin.locate(p, None), &thin), kind(whole.locate(p, None), &whole));
                proptest::prop_assert_eq!(a, b, "at {:?}", p);
            }
        }
    }
}
