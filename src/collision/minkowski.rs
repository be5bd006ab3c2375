//! Exact-topology Minkowski sum of two convex polygons.
//!
//! A body with reference point `p` and collider `Q` overlaps obstacle `C` exactly when
//! `p ∈ C ⊕ (−Q)`. Inflating every convex piece this way turns "does the collider touch the
//! level?" into "is the point in an inflated piece?".
use glam::DVec2;

use super::decompose::Inside;
use super::polygon::remove_collinear;
use super::predicates::{cross, orient};

/// Index of the lowest vertex (smallest y, then smallest x).
fn lowest(p: &[DVec2]) -> usize {
    let mut best = 0;
    for (i, q) in p.iter().enumerate() {
        let b = p[best];
        if q.y < b.y || (q.y == b.y && q.x < b.x) {
            best = i;
        }
    }
    best
}

/// The Minkowski sum of two convex counter-clockwise polygons, counter-clockwise, without
/// collinear vertices. Linear in the total vertex count: edges are merged by polar angle.
pub(crate) fn minkowski_sum(a: &[DVec2], b: &[DVec2]) -> Vec<DVec2> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    merge(a, b, &mut out, |_, _| {});
    clean_up(out)
}

/// [`minkowski_sum`] into `out` (cleared first), reusing its allocation: a turning mover's pieces
/// are inflated again every tick.
pub(crate) fn minkowski_sum_into(a: &[DVec2], b: &[DVec2], out: &mut Vec<DVec2>) {
    out.clear();
    merge(a, b, out, |_, _| {});
    *out = clean_up(std::mem::take(out));
}

/// The points of the Minkowski sum of two convex counter-clockwise polygons, merging their edges
/// by polar angle from their lowest points; with repeated or collinear points where the input is
/// not strictly convex ([`clean_up`] removes them). For each point pushed, `step(i, c)` is told
/// the index into `a` of the vertex it starts from and which edge leaves it: `c > 0` `a`'s,
/// `c < 0` `b`'s, `c == 0` both, end to end where they are parallel.
fn merge(a: &[DVec2], b: &[DVec2], out: &mut Vec<DVec2>, mut step: impl FnMut(usize, f64)) {
    let (na, nb) = (a.len(), b.len());
    let (ia, ib) = (lowest(a), lowest(b));
    let at = |i: usize| a[(ia + i) % na];
    let bt = |j: usize| b[(ib + j) % nb];
    out.reserve(na + nb);
    let (mut i, mut j) = (0, 0);
    while i < na || j < nb {
        out.push(at(i) + bt(j));
        let ea = at(i + 1) - at(i);
        let eb = bt(j + 1) - bt(j);
        let c = if i >= na {
            -1.0
        } else if j >= nb {
            1.0
        } else {
            cross(ea, eb)
        };
        step((ia + i) % na, c);
        if c >= 0.0 {
            i += 1;
        }
        if c <= 0.0 {
            j += 1;
        }
    }
}

/// The merged points of [`merge`] without repeated or collinear points.
fn clean_up(mut out: Vec<DVec2>) -> Vec<DVec2> {
    out.dedup();
    if out.len() > 1 && out[0] == out[out.len() - 1] {
        out.pop();
    }
    remove_collinear(out)
}

/// [`minkowski_sum`] of a convex piece `a` of a polygon with `b`, and which of the sum's edges lie
/// strictly inside the polygon's own sum with `b` (bit `k`: the edge from point `k` to point
/// `k + 1`), from which parts of `a` lie inside the polygon (`inside`, as
/// [`for_each_convex_piece`](super::decompose::for_each_convex_piece) reports them; empty: none
/// known). `b` must contain the origin (a collider contains its reference point).
///
/// Every edge of the sum is an edge of `a` moved by a vertex of `b`, an edge of `b` moved by a
/// vertex of `a`, or one of each end to end where they are parallel. If `x` lies strictly inside
/// the polygon `P`, a disc around it does, so `x + y` lies strictly inside `P ⊕ b` for every `y`
/// in `b`: an interior edge of `a` moved by any vertex of `b` lies inside `P ⊕ b` but for its
/// ends, and so does an edge of `b` moved by an interior vertex of `a`. Exact topology, no
/// distance test. The mask is 0 (nothing known) for sums of more than 64 points, and when the
/// merged sum needed cleaning up (a repeated or collinear point from non-strictly convex input),
/// where its edges no longer follow the merge one to one.
pub(crate) fn minkowski_sum_inside(
    a: &[DVec2],
    inside: &[Inside],
    b: &[DVec2],
) -> (Vec<DVec2>, u64) {
    if inside.len() != a.len() || !inside.iter().any(|i| i.vertex || i.edge) {
        return (minkowski_sum(a, b), 0);
    }
    let na = a.len();
    let mut mask = 0u64;
    let mut k = 0;
    let mut out = Vec::with_capacity(na + b.len());
    merge(a, b, &mut out, |i, c| {
        // The edge from point k: `a`'s edge i, `b`'s edge at `a`'s vertex i, or both.
        let interior = if c > 0.0 {
            inside[i].edge
        } else if c < 0.0 {
            inside[i].vertex
        } else {
            inside[i].edge && inside[(i + 1) % na].vertex
        };
        if interior && k < 64 {
            mask |= 1 << k;
        }
        k += 1;
    });
    let k = out.len();
    let clean = (3..=64).contains(&k)
        && (0..k).all(|i| {
            let (p, q, r) = (out[(i + k - 1) % k], out[i], out[(i + 1) % k]);
            p != q && orient(p, q, r) != 0.0
        });
    if clean {
        (out, mask)
    } else {
        (clean_up(out), 0)
    }
}

/// The collider reflected through its reference point (`−Q`), still counter-clockwise.
pub(crate) fn reflect(q: &[DVec2]) -> Vec<DVec2> {
    q.iter().map(|&p| -p).collect()
}

/// How two convex colliders meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meeting {
    /// Apart.
    Apart,
    /// Touching along their boundaries, no area in common.
    Touching,
    /// Overlapping with area in common.
    Overlapping,
}

/// How collider `a` (convex, counter-clockwise, relative to its feet) at feet `pa` meets collider
/// `b` at `pb`. They overlap exactly when `pb − pa` lies inside `a ⊕ (−b)` (the same Minkowski
/// sum the meshes are inflated by), decided by the exact [`orient`] on
/// the sum's edges. The sum's vertices are differences of collider vertices (rounded once, at the
/// colliders' scale) and `pb − pa` is one rounded subtraction: touching is exact where those are
/// (positions and colliders on a binary grid, as in the tests).
pub fn colliders_meet(a: &[DVec2], pa: DVec2, b: &[DVec2], pb: DVec2) -> Meeting {
    let reflected: Vec<DVec2> = b.iter().map(|&q| -q).collect();
    let sum = minkowski_sum(a, &reflected);
    let d = pb - pa;
    let mut touching = false;
    for i in 0..sum.len() {
        let o = orient(sum[i], sum[(i + 1) % sum.len()], d);
        if o < 0.0 {
            return Meeting::Apart;
        }
        touching |= o == 0.0;
    }
    if touching {
        Meeting::Touching
    } else {
        Meeting::Overlapping
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::predicates::signed_area;

    fn v(p: &[(f64, f64)]) -> Vec<DVec2> {
        p.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    #[test]
    fn box_plus_box_is_a_box() {
        let a = v(&[(0., 0.), (2., 0.), (2., 1.), (0., 1.)]);
        let b = v(&[(-0.5, -1.), (0.5, -1.), (0.5, 0.), (-0.5, 0.)]);
        let s = minkowski_sum(&a, &b);
        assert_eq!(s.len(), 4);
        assert!((signed_area(&s) - 3.0 * 2.0).abs() < 1e-12);
        assert!(s.contains(&DVec2::new(-0.5, -1.0)) && s.contains(&DVec2::new(2.5, 1.0)));
    }

    #[test]
    fn triangle_plus_diamond_has_all_edge_directions() {
        let a = v(&[(0., 0.), (3., 0.), (0., 2.)]);
        let b = v(&[(0., -1.), (1., 0.), (0., 1.), (-1., 0.)]);
        let s = minkowski_sum(&a, &b);
        assert!(crate::collision::decompose::is_convex(&s));
        // No edge directions are parallel, so every edge of both survives.
        assert_eq!(s.len(), 7);
    }

    #[test]
    fn colliders_meet_apart_touching_and_overlapping() {
        let sq = v(&[(-0.5, 0.0), (0.5, 0.0), (0.5, 1.0), (-0.5, 1.0)]);
        let tall = v(&[(-0.25, 0.0), (0.25, 0.0), (0.25, 2.0), (-0.25, 2.0)]);
        let at = |x: f64, y: f64| DVec2::new(x, y);
        // Side by side: the square spans x -0.5..0.5, the tall box at x spans x-0.25..x+0.25.
        assert_eq!(
            colliders_meet(&sq, at(0.0, 0.0), &tall, at(1.0, 0.0)),
            Meeting::Apart
        );
        assert_eq!(
            colliders_meet(&sq, at(0.0, 0.0), &tall, at(0.75, 0.0)),
            Meeting::Touching
        );
        assert_eq!(
            colliders_meet(&sq, at(0.0, 0.0), &tall, at(0.5, 0.5)),
            Meeting::Overlapping
        );
        // Standing on top: feet on the square's top is touching; a hair lower overlaps.
        assert_eq!(
            colliders_meet(&sq, at(0.0, 0.0), &tall, at(0.0, 1.0)),
            Meeting::Touching
        );
        assert_eq!(
            colliders_meet(&sq, at(0.0, 0.0), &tall, at(0.0, 1.0 - 1.0 / 1024.0)),
            Meeting::Overlapping
        );
        // Symmetric.
        assert_eq!(
            colliders_meet(&tall, at(0.75, 0.0), &sq, at(0.0, 0.0)),
            Meeting::Touching
        );
        // Corner to corner.
        assert_eq!(
            colliders_meet(&sq, at(0.0, 0.0), &tall, at(0.75, 1.0)),
            Meeting::Touching
        );
        assert_eq!(
            colliders_meet(&sq, at(0.0, 0.0), &tall, at(0.75, 1.0 + 1e-9)),
            Meeting::Apart
        );
    }
}
