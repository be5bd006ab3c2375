//! Filling fine notches of long solid outlines before they are decomposed: the collider cannot
//! feel a zigzag of teeth a micrometre deep, but each tooth would become a convex piece whose
//! inflation is nearly the whole collider, and n such pieces overlap pairwise, so their edges
//! cross about n² times before the buried ones are thrown away (BENCHMARKS.md, "Big and dense
//! worlds": 20 000 teeth of 1 µm took 45 s and 14 GB). Filling them keeps the cost with the
//! outline's length.
//!
//! # The rule
//! A run of consecutive vertices `v[i] .. v[j]` of a counter-clockwise solid outline is filled when
//! - it is strictly monotone along its chord `v[j] − v[i]` (each step moves forward along it),
//! - every vertex lies within [`FILL_TOLERANCE`] / 2 of the chord's line, on either side, and
//! - at least [`FILL_MIN_RUN`] vertices would go (a short near-straight stretch is left alone:
//!   hand-drawn and generated outlines keep their points exactly).
//!
//! The run is replaced by its *outer hull*: the reflex vertices (right turns, exact [`orient`])
//! are dropped until every turn is convex, so the new edges pass over the notches and every kept
//! vertex is an original one. The outline only gains material: the filled outline contains the
//! original, and every original point is within [`FILL_TOLERANCE`] of it. The hero can therefore
//! rest up to 1 mm above such a surface, never inside the level's geometry; collisions stay exact
//! for the outline that is kept. 1 mm is below a pixel at any zoom the game draws and the same
//! scale as the steps rule's near-misses (tiles whose tops differ by a millimetre are one floor).
//!
//! Only solid outlines of more than [`FILL_MIN_POINTS`] points are looked at (small polygons keep
//! their pieces, pinned hashes and golden images), runs are at most [`FILL_MAX_RUN`] vertices long
//! (which bounds the search: O(n · run) for a fine zigzag, O(n) for ordinary outlines, where the
//! first test fails), and a run never wraps past vertex 0. If the filled outline does not validate
//! (a filled notch reaching across to another part of the same outline), the original is kept.
use std::borrow::Cow;

use glam::DVec2;

use super::polygon::{validate_polygon, PolygonId};
use super::predicates::{cross, orient};

/// Largest distance, m, between an original vertex and the filled outline (1 mm).
pub const FILL_TOLERANCE: f64 = 1e-3;
/// Fewest vertices a filled run removes.
pub const FILL_MIN_RUN: usize = 8;
/// Most vertices in one run (chord ends included).
pub const FILL_MAX_RUN: usize = 512;
/// Outlines of at most this many points are never filled.
pub const FILL_MIN_POINTS: usize = 64;

/// The outline the collision core builds for a solid polygon whose counter-clockwise outline is
/// `ccw` (see the module docs): `ccw` itself unless fine notches were filled.
pub fn filled_outline<'a>(id: PolygonId, ccw: &'a [DVec2]) -> Cow<'a, [DVec2]> {
    let n = ccw.len();
    if n <= FILL_MIN_POINTS {
        return Cow::Borrowed(ccw);
    }
    let mut out: Vec<DVec2> = Vec::new();
    let mut filled = false;
    let mut hull: Vec<DVec2> = Vec::new();
    let mut i = 0;
    while i < n {
        out.push(ccw[i]);
        let j = longest_run(ccw, i);
        if j > i + FILL_MIN_RUN {
            outer_hull(&ccw[i..=j], &mut hull);
            // The hull starts at v[i] (pushed) and ends at v[j] (pushed as the next run's start).
            out.extend_from_slice(&hull[1..hull.len() - 1]);
            filled = true;
            i = j;
        } else {
            i += 1;
        }
    }
    if filled && validate_polygon(id, &out).is_ok() {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(ccw)
    }
}

/// The last index `j` (at most `i + FILL_MAX_RUN − 1`, before the wrap) such that `v[i] .. v[j]`
/// may be filled; `i + 1` when no run of three vertices can be.
fn longest_run(v: &[DVec2], i: usize) -> usize {
    let last = (i + FILL_MAX_RUN - 1).min(v.len() - 1);
    let half = FILL_TOLERANCE / 2.0;
    let mut best = i + 1;
    for j in i + 2..=last {
        let d = v[j] - v[i];
        let len = d.length();
        if len == 0.0 {
            break;
        }
        let ok = (i + 1..=j).all(|k| {
            let forward = (v[k] - v[k - 1]).dot(d) > 0.0;
            forward && (k == j || cross(d, v[k] - v[i]).abs() <= half * len)
        });
        if !ok {
            break;
        }
        best = j;
    }
    best
}

/// The outer hull of a counter-clockwise chain that is monotone along its chord: the chain with
/// every reflex or straight vertex dropped (exact orientation), into `hull`.
fn outer_hull(chain: &[DVec2], hull: &mut Vec<DVec2>) {
    hull.clear();
    for &p in chain {
        while hull.len() >= 2 && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: PolygonId = PolygonId(0);

    /// A 1 km × 1 m slab whose right end is a zigzag of `n` teeth `depth` deep (counter-clockwise).
    fn slab_with_teeth(n: usize, depth: f64) -> Vec<DVec2> {
        let mut v = vec![DVec2::new(0.0, -1.0), DVec2::new(1000.0, -1.0)];
        for i in 0..n {
            let y = -1.0 + (i + 1) as f64 / (n + 1) as f64;
            let x = 1000.0 + if i % 2 == 0 { depth } else { 0.0 };
            v.push(DVec2::new(x, y));
        }
        v.push(DVec2::new(1000.0, 0.0));
        v.push(DVec2::new(0.0, 0.0));
        v
    }

    /// Whether `p` is inside or on the counter-clockwise polygon `poly` (crossing number, with
    /// points on an edge counted as inside).
    fn inside_or_on(poly: &[DVec2], p: DVec2) -> bool {
        let n = poly.len();
        let mut inside = false;
        for k in 0..n {
            let (a, b) = (poly[k], poly[(k + 1) % n]);
            if orient(a, b, p) == 0.0
                && p.x >= a.x.min(b.x)
                && p.x <= a.x.max(b.x)
                && p.y >= a.y.min(b.y)
                && p.y <= a.y.max(b.y)
            {
                return true;
            }
            if (a.y > p.y) != (b.y > p.y) && orient(a, b, p) * (b.y - a.y).signum() > 0.0 {
                inside = !inside;
            }
        }
        inside
    }

    fn distance_to_outline(poly: &[DVec2], p: DVec2) -> f64 {
        let n = poly.len();
        (0..n)
            .map(|k| {
                let (a, b) = (poly[k], poly[(k + 1) % n]);
                let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                (a + (b - a) * t).distance(p)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// The filled outline contains the original and is within the tolerance of every original
    /// vertex; it keeps only original vertices.
    fn assert_fills(original: &[DVec2], filled: &[DVec2]) {
        validate_polygon(ID, filled).unwrap();
        for &p in original {
            assert!(
                inside_or_on(filled, p),
                "{p:?} is outside the filled outline"
            );
            let d = distance_to_outline(filled, p);
            assert!(d <= FILL_TOLERANCE * (1.0 + 1e-9), "{p:?} is {d} m away");
        }
        for p in filled {
            assert!(original.contains(p), "{p:?} is not an original vertex");
        }
    }

    #[test]
    fn micrometre_teeth_are_filled_to_a_few_points_per_run() {
        let v = slab_with_teeth(20_000, 1e-6);
        let f = filled_outline(ID, &v);
        assert!(matches!(f, Cow::Owned(_)));
        assert!(f.len() < 20_000 / 100, "{} points left", f.len());
        assert_fills(&v, &f);
    }

    #[test]
    fn teeth_deeper_than_the_tolerance_are_kept() {
        let v = slab_with_teeth(2_000, 2e-3);
        // 2 000 teeth over a metre are 0.5 mm apart but 2 mm deep: the chord test fails.
        assert!(matches!(filled_outline(ID, &v), Cow::Borrowed(_)));
        let v = slab_with_teeth(2_000, 0.4e-3);
        let f = filled_outline(ID, &v);
        assert!(f.len() < 100, "{} points left", f.len());
        assert_fills(&v, &f);
    }

    #[test]
    fn ordinary_outlines_and_short_straight_runs_are_left_alone() {
        // A round outline of 1 000 points: no three consecutive points within 0.5 mm of a chord
        // over a whole run.
        let round: Vec<DVec2> = (0..1000)
            .map(|i| {
                let a = i as f64 / 1000.0 * std::f64::consts::TAU;
                DVec2::new(a.cos(), a.sin()) * 20.0
            })
            .collect();
        assert!(matches!(filled_outline(ID, &round), Cow::Borrowed(_)));
        // Small polygons are never looked at, however fine.
        let small = slab_with_teeth(40, 1e-6);
        assert!(small.len() <= FILL_MIN_POINTS);
        assert!(matches!(filled_outline(ID, &small), Cow::Borrowed(_)));
        // A run of FILL_MIN_RUN − 1 fine teeth between coarse ones stays.
        let mut v = slab_with_teeth(100, 0.05);
        let fine: Vec<DVec2> = (0..FILL_MIN_RUN - 1)
            .map(|k| {
                DVec2::new(
                    1000.0 + 0.1 + (k % 2) as f64 * 1e-6,
                    -0.995 + k as f64 * 1e-4,
                )
            })
            .collect();
        v.splice(2..2, fine);
        v.remove(1);
        v.insert(1, DVec2::new(1000.1, -1.0));
        validate_polygon(ID, &v).unwrap();
        assert!(matches!(filled_outline(ID, &v), Cow::Borrowed(_)));
    }
}
