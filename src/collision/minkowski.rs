//! Exact-topology Minkowski sum of two convex polygons.
//!
//! A body with reference point `p` and collider `Q` overlaps obstacle `C` exactly when
//! `p ∈ C ⊕ (−Q)`. Inflating every convex piece this way turns "does the collider touch the
//! level?" into "is the point in an inflated piece?".
use glam::DVec2;

use super::polygon::remove_collinear;
use super::predicates::cross;

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
    let (na, nb) = (a.len(), b.len());
    let (ia, ib) = (lowest(a), lowest(b));
    let at = |i: usize| a[(ia + i) % na];
    let bt = |j: usize| b[(ib + j) % nb];
    let mut out = Vec::with_capacity(na + nb);
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
        if c >= 0.0 {
            i += 1;
        }
        if c <= 0.0 {
            j += 1;
        }
    }
    out.dedup();
    if out.len() > 1 && out[0] == out[out.len() - 1] {
        out.pop();
    }
    remove_collinear(out)
}

/// The collider reflected through its reference point (`−Q`), still counter-clockwise.
pub(crate) fn reflect(q: &[DVec2]) -> Vec<DVec2> {
    q.iter().map(|&p| -p).collect()
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
}
