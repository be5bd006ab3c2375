//! Splitting a simple polygon into convex pieces.
//!
//! Ear clipping with exact predicates gives triangles; Hertel–Mehlhorn then removes every diagonal
//! whose removal keeps both neighbouring pieces convex, so a convex polygon stays one piece and a
//! concave one becomes at most four times the optimal number of pieces. Pieces overlap nothing and
//! keep the source polygon's id (the caller's job). O(n²) per polygon, fine for level polygons.
use glam::DVec2;

use super::predicates::orient;

/// Calls `f` with each convex piece (counter-clockwise) of a simple counter-clockwise polygon
/// without collinear vertices. A convex polygon is passed through as it is, without a copy: a
/// mesh build decomposes every polygon of the level, and on a tile level every one is convex.
/// Returns `None` only if ear clipping finds no ear, which cannot happen for a valid simple
/// polygon.
pub(crate) fn for_each_convex_piece(pts: &[DVec2], mut f: impl FnMut(&[DVec2])) -> Option<()> {
    if is_convex(pts) {
        f(pts);
        return Some(());
    }
    for piece in concave_pieces(pts)? {
        f(&piece);
    }
    Some(())
}

/// The convex pieces (counter-clockwise, overlapping nothing) of a simple counter-clockwise
/// polygon without collinear vertices, as [`normalized_ccw`](crate::collision::normalized_ccw)
/// gives for a validated polygon: the pieces a mesh build inflates, so a renderer drawing them
/// draws what the core collides with. A convex polygon is one piece, unchanged. `None` only if ear
/// clipping finds no ear, which cannot happen for a valid simple polygon. (The build itself visits
/// the pieces without collecting them: `for_each_convex_piece`.)
pub fn convex_pieces(pts: &[DVec2]) -> Option<Vec<Vec<DVec2>>> {
    let mut out = Vec::new();
    for_each_convex_piece(pts, |piece| out.push(piece.to_vec()))?;
    Some(out)
}

/// The convex pieces of a polygon that is not convex: ear clipping, then Hertel–Mehlhorn.
fn concave_pieces(pts: &[DVec2]) -> Option<Vec<Vec<DVec2>>> {
    let n = pts.len();
    let tris = ear_clip(pts)?;
    // Pieces as index lists; merge across diagonals (Hertel–Mehlhorn).
    let mut pieces: Vec<Vec<usize>> = tris.iter().map(|t| t.to_vec()).collect();
    let is_boundary = |a: usize, b: usize| (a + 1) % n == b || (b + 1) % n == a;
    let mut merged_any = true;
    while merged_any {
        merged_any = false;
        'search: for i in 0..pieces.len() {
            let len_i = pieces[i].len();
            for k in 0..len_i {
                let (a, b) = (pieces[i][k], pieces[i][(k + 1) % len_i]);
                if is_boundary(a, b) {
                    continue;
                }
                // Find the piece holding the reverse edge b -> a.
                let Some((j, m)) = pieces.iter().enumerate().find_map(|(j, p)| {
                    if j == i {
                        return None;
                    }
                    let l = p.len();
                    (0..l)
                        .find(|&m| p[m] == b && p[(m + 1) % l] == a)
                        .map(|m| (j, m))
                }) else {
                    continue;
                };
                let merged = merge(&pieces[i], k, &pieces[j], m);
                let merged_pts: Vec<DVec2> = merged.iter().map(|&q| pts[q]).collect();
                if is_convex(&merged_pts) {
                    let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                    pieces.swap_remove(hi);
                    pieces[lo] = merged;
                    merged_any = true;
                    break 'search;
                }
            }
        }
    }
    Some(
        pieces
            .into_iter()
            .map(|p| p.into_iter().map(|q| pts[q]).collect())
            .collect(),
    )
}

/// Joins piece `p` (whose edge k is a -> b) and piece `q` (whose edge m is b -> a) across the
/// shared diagonal, keeping counter-clockwise order.
fn merge(p: &[usize], k: usize, q: &[usize], m: usize) -> Vec<usize> {
    let (lp, lq) = (p.len(), q.len());
    let mut out = Vec::with_capacity(lp + lq - 2);
    // p from b around to a: p[k+1], p[k+2], ..., p[k]
    for s in 1..=lp {
        out.push(p[(k + s) % lp]);
    }
    // then q after a up to before b: q[m+2], ..., q[m-1]
    for s in 2..lq {
        out.push(q[(m + s) % lq]);
    }
    out
}

/// Whether a counter-clockwise *simple* polygon is convex (every turn strictly left). Only valid
/// for polygons known to be simple: a self-intersecting star (a pentagram) turns left everywhere
/// too; see [`is_strictly_convex`] for unvalidated input.
pub(crate) fn is_convex(pts: &[DVec2]) -> bool {
    let n = pts.len();
    n >= 3 && (0..n).all(|i| orient(pts[i], pts[(i + 1) % n], pts[(i + 2) % n]) > 0.0)
}

/// Whether any point list is a strictly convex counter-clockwise polygon: every other vertex lies
/// strictly left of every edge (exact). Rejects self-intersecting stars that [`is_convex`] would
/// accept. O(n²), for small polygons such as colliders.
pub(crate) fn is_strictly_convex(pts: &[DVec2]) -> bool {
    let n = pts.len();
    n >= 3
        && (0..n).all(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            (0..n)
                .filter(|&j| j != i && j != (i + 1) % n)
                .all(|j| orient(a, b, pts[j]) > 0.0)
        })
}

/// Triangulates a simple counter-clockwise polygon by ear clipping; triangles as index triples.
fn ear_clip(pts: &[DVec2]) -> Option<Vec<[usize; 3]>> {
    let mut idx: Vec<usize> = (0..pts.len()).collect();
    let mut tris = Vec::with_capacity(pts.len().saturating_sub(2));
    while idx.len() > 3 {
        let n = idx.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (idx[(i + n - 1) % n], idx[i], idx[(i + 1) % n]);
            if orient(pts[a], pts[b], pts[c]) <= 0.0 {
                return false;
            }
            // No other remaining vertex inside or on the candidate triangle.
            idx.iter().all(|&q| {
                q == a
                    || q == b
                    || q == c
                    || pts[q] == pts[a]
                    || pts[q] == pts[b]
                    || pts[q] == pts[c]
                    || !(orient(pts[a], pts[b], pts[q]) >= 0.0
                        && orient(pts[b], pts[c], pts[q]) >= 0.0
                        && orient(pts[c], pts[a], pts[q]) >= 0.0)
            })
        })?;
        tris.push([idx[(ear + n - 1) % n], idx[ear], idx[(ear + 1) % n]]);
        idx.remove(ear);
    }
    tris.push([idx[0], idx[1], idx[2]]);
    Some(tris)
}

#[cfg(test)]
mod tests {
    use super::super::predicates::signed_area;
    use super::*;

    fn v(p: &[(f64, f64)]) -> Vec<DVec2> {
        p.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    #[test]
    fn a_pentagram_turns_left_everywhere_but_is_not_strictly_convex() {
        let star: Vec<DVec2> = (0..5)
            .map(|k| {
                let t = (k * 2) as f64 * std::f64::consts::TAU / 5.0;
                DVec2::new(t.cos(), t.sin())
            })
            .collect();
        assert!(is_convex(&star));
        assert!(!is_strictly_convex(&star));
        let sq = v(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
        assert!(is_strictly_convex(&sq));
    }

    #[test]
    fn convex_polygon_is_one_piece() {
        let sq = v(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
        assert_eq!(convex_pieces(&sq).unwrap().len(), 1);
    }

    #[test]
    fn l_shape_becomes_two_convex_pieces_with_the_same_area() {
        let l = v(&[(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]);
        let pieces = convex_pieces(&l).unwrap();
        assert_eq!(pieces.len(), 2);
        assert!(pieces.iter().all(|p| is_convex(p)));
        let area: f64 = pieces.iter().map(|p| signed_area(p)).sum();
        assert!((area - 3.0).abs() < 1e-12);
    }

    #[test]
    fn comb_shape_pieces_are_convex_and_cover_it() {
        // A comb with three teeth.
        let c = v(&[
            (0., 0.),
            (5., 0.),
            (5., 3.),
            (4., 3.),
            (4., 1.),
            (3., 1.),
            (3., 3.),
            (2., 3.),
            (2., 1.),
            (1., 1.),
            (1., 3.),
            (0., 3.),
        ]);
        let pieces = convex_pieces(&c).unwrap();
        assert!(pieces.iter().all(|p| is_convex(p)));
        let area: f64 = pieces.iter().map(|p| signed_area(p)).sum();
        assert!((area - signed_area(&c)).abs() < 1e-12);
    }
}
