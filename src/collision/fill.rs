//! Filling fine notches of long solid outlines before they are decomposed: the collider cannot
//! feel a zigzag of teeth a micrometre deep, but each tooth would become a convex piece whose
//! inflation is nearly the whole collider, and n such pieces overlap pairwise, so their edges
//! cross about n² times before the buried ones are thrown away (BENCHMARKS.md, "Big and dense
//! worlds": 20 000 teeth of 1 µm took 45 s and 14 GB). Filling them keeps the cost with the
//! outline's length.
//!
//! # The rule
//! A run of consecutive vertices `v[i] .. v[j]` of a counter-clockwise solid outline is replaced
//! by its *outer hull* (the reflex vertices, right turns by the exact [`orient`], dropped until
//! every turn is convex: the new edges, *bridges*, pass over the notches and every kept vertex is
//! an original one) when
//! - it is strictly monotone along its chord `v[j] − v[i]` (each step moves forward along it),
//! - at least [`FILL_MIN_RUN`] vertices would go (a short near-straight stretch is left alone:
//!   hand-drawn and generated outlines keep their points exactly), and either
//! - **shallow:** every vertex lies within [`FILL_TOLERANCE`] / 2 of the chord's line, so every
//!   original point is within [`FILL_TOLERANCE`] of the filled outline; or
//! - **narrow:** every bridge is at most [`fill_mouth`] long (2 mm for a collider whose corners
//!   are all square or blunter), however deep the notch under it.
//!
//! The outline only gains material, so the hero is never inside the level's geometry; the
//! collisions stay exact for the outline that is kept. What the fill takes from the free space is
//! at most [`FILL_TOLERANCE`] deep, seen from the collider: for a shallow run because no filled
//! point is farther than that from the original outline; for a narrow one because a convex
//! collider that overlaps no solid can reach into a notch only through its mouth (the bridge; the
//! bridge's ends are corners of the outline, so the collider's chord on the bridge's line lies
//! within the bridge), and the part of a convex polygon beyond a chord of length `m`, cut across
//! at most one of its corners (the mouth is shorter than half the collider's shortest edge), lies
//! within `m / 2 / tan(θ / 2)` of the chord, `θ` that corner's angle. `fill_mouth` is the `m` that
//! makes this [`FILL_TOLERANCE`] for the collider's sharpest corner.
//! `tests/it/collision_props.rs` (`fine_teeth_are_filled_outwards_within_the_tolerance`) checks
//! both bounds against the original teeth with random head-chamfered colliders.
//!
//! The hero can therefore rest up to 1 mm above such a surface, or up to 1 mm short of the
//! bottom of a notch it could otherwise have poked a corner into. 1 mm is below a pixel at any
//! zoom the game draws and the same scale as the steps rule's near-misses (tiles whose tops
//! differ by a millimetre are one floor).
//!
//! Only solid outlines of more than [`FILL_MIN_POINTS`] points are looked at (small polygons keep
//! their pieces, pinned hashes and golden images), runs are at most [`FILL_MAX_RUN`] vertices long
//! (which bounds the search: O(n · run) for a fine zigzag, O(n) for ordinary outlines, where the
//! first test fails or a convex stretch of 16 vertices ends the search), and a run never wraps
//! past vertex 0. If the filled outline does not validate
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
/// Vertices a run may grow over without a reflex vertex before the search gives up on it.
const CONVEX_STRETCH: usize = 16;

/// The longest bridge a narrow run may have for a convex `collider` (its outline, any
/// orientation): `2 · FILL_TOLERANCE · tan(θ / 2)`, `θ` its sharpest corner (2 mm for a box), and
/// at most half its shortest edge. 0 for a degenerate outline.
pub fn fill_mouth(collider: &[DVec2]) -> f64 {
    let n = collider.len();
    if n < 3 {
        return 0.0;
    }
    let mut sharpest = std::f64::consts::PI;
    let mut shortest = f64::INFINITY;
    for k in 0..n {
        let (a, b, c) = (
            collider[(k + n - 1) % n],
            collider[k],
            collider[(k + 1) % n],
        );
        let (u, w) = (a - b, c - b);
        shortest = shortest.min(w.length());
        let angle = cross(u, w).abs().atan2(u.dot(w));
        sharpest = sharpest.min(angle);
    }
    (2.0 * FILL_TOLERANCE * (sharpest / 2.0).tan()).min(shortest / 2.0)
}

/// The outline the collision core builds for a solid polygon whose counter-clockwise outline is
/// `ccw`, for a collider whose longest fillable notch mouth is `mouth` ([`fill_mouth`]; see the
/// module docs): `ccw` itself unless fine notches were filled.
pub fn filled_outline<'a>(id: PolygonId, ccw: &'a [DVec2], mouth: f64) -> Cow<'a, [DVec2]> {
    let n = ccw.len();
    if n <= FILL_MIN_POINTS {
        return Cow::Borrowed(ccw);
    }
    let mut out: Vec<DVec2> = Vec::new();
    let mut filled = false;
    let mut hull: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < n {
        out.push(ccw[i]);
        let j = longest_run(ccw, i, mouth, &mut hull);
        if j > i + 1 {
            outer_hull(&ccw[i..=j], false, &mut hull);
            // The hull starts at v[i] (pushed) and ends at v[j] (pushed as the next run's start).
            if j + 1 - i - hull.len() >= FILL_MIN_RUN {
                out.extend(hull[1..hull.len() - 1].iter().map(|&k| ccw[i + k]));
                filled = true;
            } else {
                // Too little to fill (a convex stretch, a lone notch): kept as it is, and the
                // search goes on from its end, so each vertex is looked at by O(1) runs.
                out.extend_from_slice(&ccw[i + 1..j]);
            }
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
/// may be filled, shallow or narrow; `i + 1` when no run of three vertices can be. `hull` is
/// scratch.
fn longest_run(v: &[DVec2], i: usize, mouth: f64, hull: &mut Vec<usize>) -> usize {
    let last = (i + FILL_MAX_RUN - 1).min(v.len() - 1);
    let half = FILL_TOLERANCE / 2.0;
    let mut best = i + 1;
    let mut misses = 0;
    let mut reflex = false;
    for j in i + 2..=last {
        // A convex stretch (no right turn yet) has nothing to fill: stop early, so that a smooth
        // round outline costs O(CONVEX_STRETCH) a vertex, not O(FILL_MAX_RUN).
        reflex |= orient(v[j - 2], v[j - 1], v[j]) < 0.0;
        if !reflex && j - i > CONVEX_STRETCH {
            break;
        }
        let d = v[j] - v[i];
        let len = d.length();
        let monotone = len > 0.0 && (i + 1..=j).all(|k| (v[k] - v[k - 1]).dot(d) > 0.0);
        let shallow = || (i + 1..j).all(|k| cross(d, v[k] - v[i]).abs() <= half * len);
        // Every bridge (a hull edge that skips vertices) at most `mouth` long.
        let mut narrow = || {
            outer_hull(&v[i..=j], true, hull);
            hull.windows(2)
                .all(|b| b[1] == b[0] + 1 || v[i + b[0]].distance(v[i + b[1]]) <= mouth)
        };
        if monotone && (shallow() || narrow()) {
            best = j;
            misses = 0;
        } else {
            // A run from a notch to a tip of deep teeth is not monotone, the next one may be:
            // give up after two chords in a row fail (so ordinary outlines cost O(1) a vertex).
            misses += 1;
            if misses == 2 {
                break;
            }
        }
    }
    best
}

/// The outer hull of a counter-clockwise chain that is monotone along its chord: the indices of
/// the chain's vertices left when every reflex one is dropped (exact orientation), and the
/// straight ones too unless `keep_straight` (a vertex on a bridge's line bounds the notches on
/// either side, so the narrow rule measures the mouths between such vertices), into `hull`.
fn outer_hull(chain: &[DVec2], keep_straight: bool, hull: &mut Vec<usize>) {
    hull.clear();
    for (k, &p) in chain.iter().enumerate() {
        while hull.len() >= 2 && {
            let o = orient(chain[hull[hull.len() - 2]], chain[hull[hull.len() - 1]], p);
            o < 0.0 || (o == 0.0 && !keep_straight)
        } {
            hull.pop();
        }
        hull.push(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: PolygonId = PolygonId(0);
    /// A box collider's mouth: 2 mm.
    const MOUTH: f64 = 2e-3;

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
        let f = filled_outline(ID, &v, MOUTH);
        assert!(matches!(f, Cow::Owned(_)));
        assert!(f.len() < 20_000 / 100, "{} points left", f.len());
        assert_fills(&v, &f);
    }

    #[test]
    fn the_mouth_follows_the_sharpest_corner_and_the_shortest_edge() {
        let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        assert!((fill_mouth(&square) - 2e-3).abs() < 1e-15);
        // A 60° corner: 2 mm · tan 30°.
        let triangle = [DVec2::ZERO, DVec2::X, DVec2::new(0.5, 0.75f64.sqrt())];
        let want = 2e-3 * (std::f64::consts::PI / 6.0).tan();
        assert!((fill_mouth(&triangle) - want).abs() < 1e-12);
        // A collider with a chamfer edge √2 mm long: at most half of it.
        let chamfered = [
            DVec2::ZERO,
            DVec2::X,
            DVec2::new(1.0, 1.0),
            DVec2::new(1e-3, 1.0),
            DVec2::new(0.0, 1.0 - 1e-3),
        ];
        assert!((fill_mouth(&chamfered) - 2f64.sqrt() / 2.0 * 1e-3).abs() < 1e-12);
    }

    #[test]
    fn deep_teeth_are_filled_only_where_their_mouths_are_narrow() {
        // 2 000 teeth over a metre are 0.5 mm apart (mouths 1 mm) and 2 mm deep: too deep for
        // the shallow rule, narrow enough for a box collider.
        let v = slab_with_teeth(2_000, 2e-3);
        let f = filled_outline(ID, &v, MOUTH);
        assert!(f.len() < 100, "{} points left", f.len());
        validate_polygon(ID, &f).unwrap();
        for &p in &v {
            assert!(inside_or_on(&f, p), "{p:?} is outside the filled outline");
        }
        // With a mouth of 0.5 mm (a sharper collider) they stay.
        assert!(matches!(filled_outline(ID, &v, 0.5e-3), Cow::Borrowed(_)));
        // 200 teeth over a metre are 5 mm apart: too wide, and 2 mm deep: too deep.
        let v = slab_with_teeth(200, 2e-3);
        assert!(matches!(filled_outline(ID, &v, MOUTH), Cow::Borrowed(_)));
        let v = slab_with_teeth(2_000, 0.4e-3);
        let f = filled_outline(ID, &v, MOUTH);
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
        assert!(matches!(
            filled_outline(ID, &round, MOUTH),
            Cow::Borrowed(_)
        ));
        // Small polygons are never looked at, however fine.
        let small = slab_with_teeth(40, 1e-6);
        assert!(small.len() <= FILL_MIN_POINTS);
        assert!(matches!(
            filled_outline(ID, &small, MOUTH),
            Cow::Borrowed(_)
        ));
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
        assert!(matches!(filled_outline(ID, &v, MOUTH), Cow::Borrowed(_)));
    }
}
