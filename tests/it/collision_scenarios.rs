//! Scenario tests for the failure modes other character controllers are known for (issue 3):
//! internal edges on tile floors, far-from-origin levels, bullets through paper, oscillation in
//! narrow gaps, wedges, exact vertex/edge moves, symmetric wall slides, seams, one-way platforms,
//! support chains, mesh switching and spawn repair.
use glam::DVec2;
use tessera::collision::*;

const HZ: f64 = 120.0;

use crate::common::source::{poly, rect, translated, v};

fn colliders() -> [ColliderShape; 3] {
    [
        ColliderShape::Box {
            width: 0.8,
            height: 1.8,
        },
        ColliderShape::ChamferedBox {
            width: 0.8,
            height: 1.8,
            chamfer: 0.2,
        },
        ColliderShape::Diamond {
            width: 0.8,
            height: 1.8,
        },
    ]
}

fn mesh(polys: &[SourcePolygon], c: &ColliderShape) -> CollisionMesh {
    let m = build_mesh(polys, c, &MeshConfig::default()).expect("mesh builds");
    m.check_invariants().expect("mesh invariants");
    m
}

fn body_at(m: &CollisionMesh, p: DVec2) -> Body {
    match m.locate(p, None) {
        Location::Free(b) => b,
        other => panic!("{p:?} is not free: {other:?}"),
    }
}

const OPTS: MoveOptions = MoveOptions {
    pass_one_way: false,
};

/// Separating-axis overlap depth of two convex polygons (> 0: overlapping by that much).
fn sat_depth(a: &[DVec2], b: &[DVec2]) -> f64 {
    let mut depth = f64::INFINITY;
    for poly in [a, b] {
        for i in 0..poly.len() {
            let e = poly[(i + 1) % poly.len()] - poly[i];
            let axis = v(-e.y, e.x).normalize();
            let pr = |p: &[DVec2]| {
                p.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), q| {
                        (l.min(q.dot(axis)), h.max(q.dot(axis)))
                    })
            };
            let ((al, ah), (bl, bh)) = (pr(a), pr(b));
            depth = depth.min((ah - bl).min(bh - al));
        }
    }
    depth
}

/// Deepest overlap of the collider at `pos` with any of the convex `pieces`.
fn overlap(c: &ColliderShape, pos: DVec2, pieces: &[Vec<DVec2>]) -> f64 {
    let q: Vec<DVec2> = c.points().unwrap().iter().map(|&p| p + pos).collect();
    pieces
        .iter()
        .map(|p| sat_depth(&q, p))
        .fold(f64::NEG_INFINITY, f64::max)
}

fn assert_valid(m: &CollisionMesh, b: Body) {
    assert_ne!(
        m.kind(b.face),
        FaceKind::Solid,
        "body {b:?} in a solid face"
    );
}

// ---------------------------------------------------------------------------------------------
// Tile floors: no internal edges, no slowed frame.

fn tile_floor(n: u32) -> Vec<SourcePolygon> {
    (0..n)
        .map(|i| rect(i, i as f64, -1.0, i as f64 + 1.0, 0.0))
        .collect()
}

/// Crosses the 400-tile floor at 8 m/s, 120 Hz, both ways, flat and pressing into the floor:
/// every frame travels exactly the requested horizontal distance and stays exactly on the floor.
fn cross_tile_floor(origin: DVec2) {
    let polys = translated(&tile_floor(400), origin);
    for c in colliders() {
        let m = mesh(&polys, &c);
        for press in [0.0, -0.01, -8.0 / HZ] {
            for dir in [1.0, -1.0] {
                let x0 = if dir > 0.0 { 1.0 } else { 399.0 };
                let mut b = body_at(&m, origin + v(x0, 0.0));
                let d = v(dir * 8.0 / HZ, press);
                let frames = (397.0 * HZ / 8.0) as usize;
                for f in 0..frames {
                    let r = m.move_and_slide(b, d, OPTS);
                    let dx = r.body.pos.x - b.pos.x;
                    assert!(
                        (dx - d.x).abs() <= 1e-9,
                        "{c:?} frame {f}: moved {dx} instead of {} ({:?}, {:?})",
                        d.x,
                        r.end,
                        r.contacts
                    );
                    assert_eq!(r.body.pos.y, origin.y, "{c:?} frame {f}: left the floor");
                    assert_eq!(r.end, MoveEnd::Completed, "{c:?} frame {f}");
                    assert_valid(&m, r.body);
                    b = r.body;
                }
            }
        }
    }
}

#[test]
fn tile_floor_is_crossed_at_full_speed_without_a_slowed_frame() {
    cross_tile_floor(DVec2::ZERO);
}

#[test]
fn tile_floor_far_from_the_origin_behaves_the_same() {
    cross_tile_floor(v(1e5, 1e5));
    cross_tile_floor(v(-1e5, 1e5));
}

// ---------------------------------------------------------------------------------------------
// Bullet through paper.

#[test]
fn two_metres_per_frame_never_pass_a_five_centimetre_platform() {
    for origin in [DVec2::ZERO, v(1e5, -1e5)] {
        let plat = [rect(0, -5.0, 0.0, 5.0, 0.05)];
        let polys = translated(&plat, origin);
        let pieces: Vec<Vec<DVec2>> = polys.iter().map(|p| p.points.clone()).collect();
        for c in colliders() {
            let m = mesh(&polys, &c);
            for (k, dx) in [0.0, 0.013, -0.3, 0.77].into_iter().enumerate() {
                // Start heights that put frame ends just above, on, and just below the top.
                for h in [7.0, 7.05, 6.99, 7.000001, 6.3456] {
                    let mut b = body_at(&m, origin + v(-1.0 + 0.37 * k as f64, h));
                    for f in 0..6 {
                        let r = m.move_and_slide(b, v(dx, -2.0), OPTS);
                        assert_valid(&m, r.body);
                        assert!(
                            r.body.pos.y >= origin.y + 0.05,
                            "{c:?} frame {f}: fell through to {:?}",
                            r.body.pos
                        );
                        assert!(overlap(&c, r.body.pos, &pieces) <= 1e-9);
                        b = r.body;
                    }
                    assert_eq!(b.pos.y, origin.y + 0.05, "{c:?}: not resting on top");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Oscillation: pushing into gaps narrower than the collider.

/// Pushes for `seconds` with `d` per frame; once a frame moves less than 1e-6 m the body must stay
/// bit-identical for every later frame. Returns the final body.
fn push_until_still(m: &CollisionMesh, start: DVec2, d: DVec2, seconds: f64) -> Body {
    let mut b = body_at(m, start);
    let mut still_since: Option<usize> = None;
    for f in 0..(seconds * HZ) as usize {
        let r = m.move_and_slide(b, d, OPTS);
        assert_ne!(r.end, MoveEnd::StepLimit);
        assert_valid(m, r.body);
        if let Some(s) = still_since {
            assert_eq!(
                r.body.pos,
                b.pos,
                "frame {f}: moved by {:?} after wedging at frame {s}",
                r.body.pos - b.pos
            );
        } else if r.body.pos.distance(b.pos) < 1e-6 {
            still_since = Some(f);
        }
        b = r.body;
    }
    assert!(still_since.is_some(), "never came to rest: {b:?}");
    b
}

#[test]
fn pushing_into_a_slot_narrower_than_the_collider_comes_to_rest() {
    // A 4 m wide well whose floor has a 0.5 m slot (the colliders are 0.8 m wide) over a pit;
    // diagonal pushes slide into the slot's notch or a corner of the well and stay there.
    let polys = [
        rect(0, -6.0, -8.0, -0.25, 0.0),
        rect(1, 0.25, -8.0, 6.0, 0.0),
        rect(2, -6.0, -10.0, 6.0, -8.0),
        rect(3, -6.0, 0.0, -2.0, 6.0),
        rect(4, 2.0, 0.0, 6.0, 6.0),
    ];
    let pieces: Vec<Vec<DVec2>> = polys.iter().map(|p| p.points.clone()).collect();
    for c in colliders() {
        let m = mesh(&polys, &c);
        for d in [v(0.0, -0.1), v(0.03, -0.1), v(-0.07, -0.02), v(0.0, -2.0)] {
            for x in [0.0, 0.01, -0.123] {
                let b = push_until_still(&m, v(x, 2.0), d, 3.0);
                assert!(
                    overlap(&c, b.pos, &pieces) <= 1e-9,
                    "{c:?} {d:?}: overlaps at {b:?}"
                );
                // The chamfered box (0.05 m) and the diamond (0.5625 m) sink into the slot by
                // their bevels only.
                assert!(b.pos.y >= -0.5625 - 1e-12, "{c:?}: sank to {b:?}");
            }
        }
    }
}

/// A V-shaped notch of interior angle `deg` (apex at the origin), as a concave polygon and its
/// two convex halves.
fn v_notch(deg: f64) -> (SourcePolygon, Vec<Vec<DVec2>>) {
    let half = (deg / 2.0).to_radians();
    let x = 3.0;
    let y = x / half.tan();
    let pts = [(-x, -2.0), (x, -2.0), (x, y), (0.0, 0.0), (-x, y)];
    let halves = vec![
        vec![v(-x, -2.0), v(0.0, -2.0), v(0.0, 0.0), v(-x, y)],
        vec![v(0.0, -2.0), v(x, -2.0), v(x, y), v(0.0, 0.0)],
    ];
    (poly(0, Solidity::Solid, &pts), halves)
}

#[test]
fn v_wedges_from_10_to_170_degrees_stop_cleanly() {
    for deg in (1..=17).map(|k| k as f64 * 10.0) {
        let (p, halves) = v_notch(deg);
        // Start where the notch is 3 m wide, plus a metre.
        let h = 1.5 / (deg / 2.0).to_radians().tan() + 1.0;
        let polys = [p];
        for c in colliders() {
            let m = mesh(&polys, &c);
            for x in [0.0f64, 0.2, -0.45, 1.3] {
                // A push 68° below horizontal climbs arms flatter than 22° (V over 136°).
                let pushes = if deg < 136.0 {
                    vec![v(0.0, -0.1), v(0.0, -1.0), v(0.04, -0.1)]
                } else {
                    vec![v(0.0, -0.1), v(0.0, -1.0)]
                };
                for d in pushes {
                    // Time to fall, plus time to slide down slowly on the steep arms.
                    let secs = 5.0 + h / d.y.abs() / HZ;
                    let lim = h * (deg / 2.0).to_radians().tan() - 1.0;
                    let b = push_until_still(&m, v(x.clamp(-lim, lim), h), d, secs);
                    let o = overlap(&c, b.pos, &halves);
                    assert!(o <= 1e-9, "{deg}° {c:?}: overlaps by {o} at {b:?}");
                }
            }
        }
    }
}

#[test]
fn falling_into_a_wedge_never_reverses_direction() {
    // Frame by frame, the body's y never increases (no bounce) and x never flips direction twice.
    for deg in [20.0, 60.0, 90.0, 120.0, 160.0] {
        let (p, _) = v_notch(deg);
        let top = 3.0 / (deg / 2.0_f64).to_radians().tan();
        for c in colliders() {
            let m = mesh(std::slice::from_ref(&p), &c);
            let mut b = body_at(&m, v(0.7, top + 1.0));
            let mut flips = 0;
            let mut last_dx = 0.0f64;
            for _ in 0..600 {
                let r = m.move_and_slide(b, v(0.0, -0.05), OPTS);
                let dd = r.body.pos - b.pos;
                assert!(dd.y <= 0.0, "{deg}° {c:?}: bounced up by {}", dd.y);
                if dd.x != 0.0 {
                    if last_dx != 0.0 && dd.x.signum() != last_dx.signum() {
                        flips += 1;
                    }
                    last_dx = dd.x;
                }
                b = r.body;
            }
            assert!(flips <= 1, "{deg}° {c:?}: ping-ponged {flips} times");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Exact vertices and edges.

#[test]
fn moves_exactly_along_edges_and_through_vertices() {
    // Block [0,1]² inflated by a 1×1 box: [-0.5, 1.5] × [-1, 1]; a floor far below.
    let c = ColliderShape::Box {
        width: 1.0,
        height: 1.0,
    };
    let polys = [
        rect(0, 0.0, 0.0, 1.0, 1.0),
        rect(1, -10.0, -10.0, 10.0, -9.0),
    ];
    let m = mesh(&polys, &c);

    // Straight down exactly along the inflated left side: touches, never blocked.
    let b = body_at(&m, v(-0.5, 3.0));
    let r = m.move_and_slide(b, v(0.0, -5.0), OPTS);
    assert_eq!(r.end, MoveEnd::Completed);
    assert_eq!(r.body.pos, v(-0.5, -2.0));
    assert!(r.contacts.is_empty());

    // Along the top edge from one corner past the other.
    let b = body_at(&m, v(-2.0, 1.0));
    let r = m.move_and_slide(b, v(4.0, 0.0), OPTS);
    assert_eq!((r.end, r.body.pos), (MoveEnd::Completed, v(2.0, 1.0)));

    // Grazing the top-left corner diagonally (the line touches the block only at the vertex).
    let b = body_at(&m, v(-1.5, 0.0));
    let r = m.move_and_slide(b, v(2.0, 2.0), OPTS);
    assert_eq!((r.end, r.body.pos), (MoveEnd::Completed, v(0.5, 2.0)));

    // Grazing the bottom-right corner (1.5, -1) from below-left... and from above-right.
    let b = body_at(&m, v(0.5, -2.0));
    let r = m.move_and_slide(b, v(2.0, 2.0), OPTS);
    assert_eq!((r.end, r.body.pos), (MoveEnd::Completed, v(2.5, 0.0)));

    // Diagonally into the top-left corner: stops exactly on the vertex, then slides along one
    // of its edges by the tangential part (both are valid; the body never enters the block).
    let b = body_at(&m, v(-1.5, 2.0));
    let r = m.move_and_slide(b, v(2.0, -2.0), OPTS);
    assert_eq!(r.contacts[0].point, v(-0.5, 1.0));
    let end = r.body.pos;
    assert!(
        end == v(0.5, 1.0) || end == v(-0.5, 0.0),
        "slid to {end:?} ({:?})",
        r.contacts
    );

    // Straight down onto the corner where a flat top meets a 45° slope: of the two blocking
    // edges at the vertex, the slide follows the one closest to the move's direction (down the
    // slope), whatever the triangulation.
    let diamond = [poly(
        0,
        Solidity::Solid,
        &[(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)],
    )];
    let m = mesh(&diamond, &c);
    // Inflated by the 1×1 box: the top vertex becomes the edge y = 1, x ∈ [-0.5, 0.5].
    let b = body_at(&m, v(0.5, 3.0));
    let r = m.move_and_slide(b, v(0.0, -3.0), OPTS);
    assert_eq!(r.contacts[0].point, v(0.5, 1.0));
    assert!((r.body.pos - v(1.0, 0.5)).length() < 1e-12, "{r:?}");
    // The mirrored corner slides the mirrored way.
    let b = body_at(&m, v(-0.5, 3.0));
    let r = m.move_and_slide(b, v(0.0, -3.0), OPTS);
    assert!((r.body.pos - v(-1.0, 0.5)).length() < 1e-12, "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Symmetry.

#[test]
fn stacked_tile_wall_slides_are_mirror_symmetric() {
    let wall: Vec<SourcePolygon> = (0..20)
        .map(|i| rect(i, 0.0, i as f64, 1.0, i as f64 + 1.0))
        .collect();
    let mirrored: Vec<SourcePolygon> = wall
        .iter()
        .map(|p| SourcePolygon {
            points: p.points.iter().rev().map(|q| v(-q.x, q.y)).collect(),
            ..p.clone()
        })
        .collect();
    for c in colliders() {
        let (m, mm) = (mesh(&wall, &c), mesh(&mirrored, &c));
        for (dy, y0) in [(0.07, 1.0), (-0.07, 19.0), (0.0, 10.0), (0.31, 0.2)] {
            let d = v(0.2, dy);
            let mut b = body_at(&m, v(-3.0, y0));
            let mut bm = body_at(&mm, v(3.0, y0));
            for f in 0..400 {
                let r = m.move_and_slide(b, d, OPTS);
                let rm = mm.move_and_slide(bm, v(-d.x, d.y), OPTS);
                let (p, pm) = (r.body.pos, rm.body.pos);
                assert!(
                    (p.x + pm.x).abs() <= 1e-12 && (p.y - pm.y).abs() <= 1e-12,
                    "{c:?} frame {f}: {p:?} vs mirrored {pm:?}"
                );
                assert_eq!(r.end, rm.end, "{c:?} frame {f}: {r:?} vs {rm:?}");
                // While pressed against the wall's side, the vertical motion is kept in full.
                let side = r
                    .contacts
                    .iter()
                    .all(|c| c.normal.y == 0.0 && c.source.is_some_and(|s| s.0 < 20));
                if !r.contacts.is_empty() && side {
                    assert!(
                        (p.y - b.pos.y - dy).abs() <= 1e-9,
                        "{c:?} frame {f}: {b:?} -> {r:?}"
                    );
                }
                b = r.body;
                bm = rm.body;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Seams between overlapping pieces.

#[test]
fn seams_between_overlapping_pieces_cost_no_stop_and_no_speed() {
    // Overlapping rectangles, an L (two convex pieces) and a slope of two overlapping
    // parallelograms whose tops lie on one line y = x / 2.
    let polys = [
        rect(0, -10.0, -1.0, -2.0, 0.0),
        rect(1, -4.0, -1.0, 3.0, 0.0),
        poly(
            2,
            Solidity::Solid,
            &[
                (2.5, -2.0),
                (4.0, -2.0),
                (4.0, -1.0),
                (8.0, -1.0),
                (8.0, 0.0),
                (2.5, 0.0),
            ],
        ),
        poly(
            3,
            Solidity::Solid,
            &[(8.0, -1.0), (14.0, 2.0), (14.0, 3.0), (8.0, 0.0)],
        ),
        poly(
            4,
            Solidity::Solid,
            &[(12.0, 1.0), (20.0, 5.0), (20.0, 6.0), (12.0, 2.0)],
        ),
    ];
    for c in colliders() {
        let m = mesh(&polys, &c);
        // Flat part: -8 .. 7.5, pressing down.
        let mut b = body_at(&m, v(-8.0, 0.0));
        for f in 0..300 {
            let d = v(0.05, -0.02);
            let r = m.move_and_slide(b, d, OPTS);
            let what = format!("{c:?} frame {f} from {b:?}: {r:?}");
            assert_eq!(r.end, MoveEnd::Completed, "{what}");
            assert!((r.body.pos.x - b.pos.x - 0.05).abs() <= 1e-9, "{what}");
            assert_eq!(r.body.pos.y, 0.0, "{what}");
            b = r.body;
        }
        // Slope part: along (2, 1), pressing into it, across the seam at x ≈ 12..14.
        let t = v(2.0, 1.0).normalize();
        let n = v(-t.y, t.x);
        let Some(s) = m.support_below(body_at(&m, v(10.0, 3.0)), 10.0, OPTS) else {
            panic!("no slope under x = 10")
        };
        let mut b = body_at(&m, s.point + n * 1e-3);
        for f in 0..200 {
            let d = t * 0.05 - n * 0.01;
            let r = m.move_and_slide(b, d, OPTS);
            assert_ne!(r.end, MoveEnd::Wedged, "{c:?} frame {f}");
            let along = (r.body.pos - b.pos).dot(t);
            assert!(
                (along - 0.05).abs() <= 1e-9,
                "{c:?} frame {f}: {along} along the slope at {:?}",
                b.pos
            );
            b = r.body;
            if b.pos.x > 18.0 {
                break;
            }
        }
        assert!(b.pos.x > 18.0, "{c:?}: stopped at {b:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// One-way platforms.

#[test]
fn one_way_platforms_pass_from_below_and_the_side_and_hold_from_above() {
    let polys = [
        poly(
            0,
            Solidity::OneWay,
            &[(0.0, 0.0), (4.0, 0.0), (4.0, 0.25), (0.0, 0.25)],
        ),
        rect(1, -10.0, -6.0, 14.0, -5.0),
    ];
    for c in colliders() {
        let m = mesh(&polys, &c);
        // From below, straight through and out of the top.
        let b = body_at(&m, v(2.0, -4.0));
        let r = m.move_and_slide(b, v(0.0, 5.0), OPTS);
        assert_eq!((r.end, r.body.pos), (MoveEnd::Completed, v(2.0, 1.0)));
        // Falling back lands on the top.
        let r = m.move_and_slide(r.body, v(0.1, -3.0), OPTS);
        assert_eq!(r.body.pos.y, 0.25);
        assert!(m.is_one_way_top(r.contacts[0].edge));
        let on_top = r.body;
        // Walking along the top keeps it there; then a drop-through passes down.
        let r = m.move_and_slide(on_top, v(0.5, -0.1), OPTS);
        assert_eq!(r.body.pos, v(2.6, 0.25));
        let r = m.move_and_slide(r.body, v(0.0, -2.0), MoveOptions { pass_one_way: true });
        assert_eq!((r.end, r.body.pos), (MoveEnd::Completed, v(2.6, -1.75)));
        // From the side, at platform height, straight through.
        let b = body_at(&m, v(-3.0, 0.1));
        let r = m.move_and_slide(b, v(10.0, 0.0), OPTS);
        assert_eq!((r.end, r.body.pos), (MoveEnd::Completed, v(7.0, 0.1)));
        // Half-way through from below, then falling: leaves through the bottom unhindered.
        let b = body_at(&m, v(2.0, -4.0));
        let r = m.move_and_slide(b, v(0.0, 4.1), OPTS);
        assert_ne!(m.kind(r.body.face), FaceKind::Solid);
        let r = m.move_and_slide(r.body, v(0.0, -2.0), OPTS);
        assert_eq!(r.end, MoveEnd::Completed);
        assert!((r.body.pos - v(2.0, -1.9)).length() < 1e-12, "{:?}", r.body);
    }
}

// ---------------------------------------------------------------------------------------------
// Support queries.

/// Follows the boundary chain from `e`, returning the visited edges until it leaves the line
/// y = `y` or `max` edges.
fn follow(m: &CollisionMesh, mut e: EdgeRef, forward: bool, max: usize) -> Vec<EdgeRef> {
    let mut out = vec![e];
    for _ in 0..max {
        match m.next_boundary_edge(e, forward, OPTS) {
            Some(n) => {
                out.push(n);
                e = n;
            }
            None => break,
        }
    }
    out
}

#[test]
fn support_chain_continues_across_every_tile_seam_both_ways() {
    for origin in [DVec2::ZERO, v(1e5, 1e5)] {
        let polys = translated(&tile_floor(400), origin);
        for c in colliders() {
            let m = mesh(&polys, &c);
            // Half-width of the collider's flat bottom: how far the floor's top extends past
            // the last tile (0 for the diamond's point).
            let h = c
                .points()
                .unwrap()
                .iter()
                .filter(|p| p.y == 0.0)
                .map(|p| p.x)
                .fold(0.0, f64::max);
            for x in [0.5, 1.0, 200.0, 213.37, 399.5] {
                let b = body_at(&m, origin + v(x, 0.5));
                let s = m.support_below(b, 1.0, OPTS).expect("floor under the body");
                assert_eq!(s.point, origin + v(x, 0.0));
                assert_eq!((s.normal, s.slope), (v(0.0, 1.0), 0.0));
                assert!(s.source.is_some_and(|p| p.0 < 400));
                for forward in [true, false] {
                    let chain = follow(&m, s.edge, forward, 2000);
                    // Along the floor the chain is contiguous and flat to the end of the tiles.
                    let mut flat = 0;
                    let mut prev = m.edge_points(chain[0]);
                    for &e in &chain[1..] {
                        let (a, b) = m.edge_points(e);
                        if forward {
                            assert_eq!(a, prev.1, "chain broken");
                        } else {
                            assert_eq!(b, prev.0, "chain broken");
                        }
                        if m.edge_normal(e) != v(0.0, 1.0) {
                            break;
                        }
                        flat += 1;
                        prev = (a, b);
                    }
                    let (a, b) = prev;
                    let end = if forward { b.x } else { a.x } - origin.x;
                    let expect = if forward { 400.0 + h } else { -h };
                    assert!(
                        (end - expect).abs() < 1e-9,
                        "{c:?} forward={forward}: flat chain ends at {end}, not {expect} \
                         (after {flat} edges)"
                    );
                }
            }
        }
    }
}

#[test]
fn support_chain_turns_at_convex_and_concave_joints() {
    // A floor with a 30° up-slope on the right (concave joint) and a 30° down-slope on the left
    // (convex joint).
    let t30 = 30f64.to_radians().tan();
    let polys = [
        rect(0, -4.0, -2.0, 4.0, 0.0),
        poly(
            1,
            Solidity::Solid,
            &[(4.0, -2.0), (10.0, -2.0), (10.0, 6.0 * t30), (4.0, 0.0)],
        ),
        poly(
            2,
            Solidity::Solid,
            &[
                (-10.0, -2.0 - 6.0 * t30),
                (-4.0, -2.0),
                (-4.0, 0.0),
                (-10.0, -6.0 * t30),
            ],
        ),
    ];
    let c = ColliderShape::Box {
        width: 0.8,
        height: 1.8,
    };
    let m = mesh(&polys, &c);
    let s = m
        .support_below(body_at(&m, v(0.0, 0.5)), 1.0, OPTS)
        .unwrap();
    // Both slopes rise to the right: normal (-1/2, √3/2). Walking right the floor turns up into
    // one (concave joint at x = 3.6), walking left it turns down into the other (convex, -4.4).
    let slope_n = v(-0.5, 3f64.sqrt() / 2.0);
    for (forward, joint) in [(true, v(3.6, 0.0)), (false, v(-4.4, 0.0))] {
        let chain = follow(&m, s.edge, forward, 100);
        let k = chain
            .iter()
            .position(|&e| m.edge_normal(e) != v(0.0, 1.0))
            .expect("the chain leaves the floor");
        let (e, prev) = (chain[k], chain[k - 1]);
        let n = m.edge_normal(e);
        assert!((n - slope_n).length() < 1e-12, "forward={forward}: {n:?}");
        let (pa, pb) = m.edge_points(prev);
        let (a, b) = m.edge_points(e);
        let at = if forward { (pb, a) } else { (pa, b) };
        assert_eq!(at.0, at.1, "chain broken at the joint");
        assert!((at.0 - joint).length() < 1e-12, "joint at {:?}", at.0);
        let sup = m.support_of(e, at.0);
        assert!((sup.slope - 30f64.to_radians()).abs() < 1e-12);
    }
}

// ---------------------------------------------------------------------------------------------
// World: mesh switching and spawn repair.

#[test]
fn standing_up_in_a_tunnel_exactly_at_standing_height() {
    let stand = ColliderShape::Box {
        width: 0.8,
        height: 1.8,
    };
    let crouch = ColliderShape::Box {
        width: 0.8,
        height: 0.9,
    };
    for (gap, fits) in [(1.8 + 1e-4, true), (1.8 - 1e-4, false), (1.8, false)] {
        let polys = [
            rect(0, -10.0, -1.0, 10.0, 0.0),
            rect(1, -10.0, gap, 10.0, gap + 1.0),
        ];
        let w = CollisionWorld::new(
            &polys,
            &[stand.clone(), crouch.clone()],
            MeshConfig::default(),
        )
        .unwrap();
        let (s, c) = (ColliderId(0), ColliderId(1));
        let b = match w.locate(c, v(0.0, 0.0)) {
            Location::Free(b) => b,
            other => panic!("crouching body not free: {other:?}"),
        };
        let r = w.mesh(c).move_and_slide(b, v(3.0, -0.5), OPTS);
        assert_eq!(r.body.pos, v(3.0, 0.0));
        let mapped = w.map_body(r.body, s);
        match (fits, mapped) {
            (true, Location::Free(sb)) => {
                assert_eq!(sb.pos, r.body.pos);
                assert_ne!(w.mesh(s).kind(sb.face), FaceKind::Solid);
            }
            (false, Location::Solid(_)) => {}
            _ => panic!("gap {gap}: expected fits={fits}, got {mapped:?}"),
        }
    }
}

#[test]
fn nearest_free_point_lifts_a_spawn_out_of_a_rock() {
    let c = ColliderShape::Box {
        width: 1.0,
        height: 2.0,
    };
    // Rock [0,4]×[0,2], inflated to [-0.5, 4.5] × [-2, 2].
    let m = mesh(&[rect(0, 0.0, 0.0, 4.0, 2.0)], &c);
    for (p, expect, dist) in [
        (v(1.0, 1.5), v(1.0, 2.0), 0.5),
        (v(0.2, 0.0), v(-0.5, 0.0), 0.7),
        (v(4.4, -1.95), v(4.4, -2.0), 0.05),
        (v(-3.0, 0.0), v(-3.0, 0.0), 0.0),
    ] {
        let (b, d) = m.nearest_free_point(p).unwrap();
        assert!((b.pos - expect).length() < 1e-12, "{p:?} -> {b:?}");
        assert!((d - dist).abs() < 1e-12);
        assert_ne!(m.kind(b.face), FaceKind::Solid);
        // From there, moves work normally.
        let r = m.move_and_slide(b, v(0.0, -0.1), OPTS);
        assert_ne!(m.kind(r.body.face), FaceKind::Solid);
    }
}

#[test]
fn a_long_floor_of_tiles_names_the_tile_under_every_point() {
    // 40 unit tiles side by side, ids in reverse order: the top is a straight line whose pieces'
    // corners bound nothing, so it is a few long edges (at most `MAX_EDGE_PARTS` parts each);
    // each point still names the tiles whose inflated tops cover it.
    let polys: Vec<SourcePolygon> = (0..40)
        .map(|i| rect(100 - i, i as f64, -1.0, i as f64 + 1.0, 0.0))
        .collect();
    let c = ColliderShape::Box {
        width: 0.5,
        height: 1.0,
    };
    let m = mesh(&polys, &c);
    let mut edges = std::collections::HashSet::new();
    for k in 0..400 {
        let x = -0.2 + k as f64 * 0.1 + 0.03;
        let s = m
            .support_below(body_at(&m, v(x, 0.5)), 1.0, OPTS)
            .expect("floor");
        // Tile i's inflated top spans [i - 0.25, i + 1.25].
        let mut expect: Vec<PolygonId> = (0..40)
            .filter(|&i| x >= i as f64 - 0.25 && x <= i as f64 + 1.25)
            .map(|i| PolygonId(100 - i))
            .collect();
        expect.sort();
        assert_eq!(m.edge_sources_at(s.edge, s.point), &expect[..], "x = {x}");
        assert_eq!(s.source, expect.first().copied(), "x = {x}");
        let (a, b) = m.edge_points(s.edge);
        edges.insert(((a.x * 4.0) as i64, (b.x * 4.0) as i64));
    }
    // 80 corner points on the line, 78 of them junctions: far fewer edges than pieces.
    assert!(edges.len() <= 12, "{} floor edges", edges.len());
}

#[test]
fn edges_and_faces_name_their_source_polygons() {
    // Two overlapping blocks and a one-way plank: the overlapped stretch of floor lies on both
    // blocks' outlines, the rest on one; faces inside the overlap belong to both.
    let polys = [
        rect(3, 0.0, -1.0, 4.0, 0.0),
        rect(5, 2.0, -1.0, 6.0, 0.0),
        poly(
            9,
            Solidity::OneWay,
            &[(8.0, 1.0), (10.0, 1.0), (10.0, 1.25), (8.0, 1.25)],
        ),
    ];
    let c = ColliderShape::Box {
        width: 1.0,
        height: 1.0,
    };
    let m = mesh(&polys, &c);
    let floor_at = |x: f64| {
        m.support_below(body_at(&m, v(x, 0.5)), 1.0, OPTS)
            .expect("floor")
    };
    // Inflated: [-0.5, 4.5] and [1.5, 6.5] at y = 0.
    for (x, expect) in [
        (0.0, vec![PolygonId(3)]),
        (1.0, vec![PolygonId(3)]),
        (2.7, vec![PolygonId(3), PolygonId(5)]),
        (4.0, vec![PolygonId(3), PolygonId(5)]),
        (6.0, vec![PolygonId(5)]),
    ] {
        let s = floor_at(x);
        assert_eq!(m.edge_sources_at(s.edge, s.point), &expect[..], "x = {x}");
        assert_eq!(s.source, Some(expect[0]));
        // The floor's top is one straight edge from -0.5 to 6.5 (the pieces' corners on it
        // bound nothing), lying on both outlines.
        assert_eq!(
            m.edge_sources(s.edge),
            &[PolygonId(3), PolygonId(5)],
            "x = {x}"
        );
        let (a, b) = m.edge_points(s.edge);
        assert_eq!((a.x.min(b.x), a.x.max(b.x)), (-0.5, 6.5), "x = {x}");
    }
    let s = m
        .support_below(body_at(&m, v(9.0, 2.0)), 1.0, OPTS)
        .expect("plank");
    assert_eq!(m.edge_sources(s.edge), &[PolygonId(9)]);
    match m.locate(v(3.0, -0.5), None) {
        Location::Solid(f) => assert_eq!(m.face_sources(f), [PolygonId(3), PolygonId(5)]),
        other => panic!("{other:?}"),
    }
    match m.locate(v(9.0, 0.5), None) {
        Location::Free(b) => {
            assert_eq!(m.kind(b.face), FaceKind::OneWay);
            assert_eq!(m.face_sources(b.face), [PolygonId(9)]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn walking_along_a_slanted_one_way_ramp_stays_on_it() {
    // A 20° one-way ramp; moves exactly along its top (as the supported state makes them) never
    // drop the body into the ramp by rounding, uphill or downhill; falling onto it lands.
    let a = 20f64.to_radians();
    let (c, s) = (a.cos(), a.sin());
    let ramp = poly(
        0,
        Solidity::OneWay,
        &[
            (0.0, 0.0),
            (10.0 * c, 10.0 * s),
            (10.0 * c, 10.0 * s + 0.3),
            (0.0, 0.3),
        ],
    );
    for col in colliders() {
        let m = mesh(std::slice::from_ref(&ramp), &col);
        let s0 = m
            .support_below(body_at(&m, v(3.0, 4.0)), 5.0, OPTS)
            .expect("ramp top");
        let dir = {
            let (p, q) = m.edge_points(s0.edge);
            (q - p).normalize()
        };
        // Standing on the ramp: the body is in the free face above the supporting edge (a
        // point located on the edge could round into the platform's one-way face).
        let mut b = Body {
            pos: s0.point,
            face: s0.edge.face,
        };
        for (sign, frames) in [(1.0, 40), (-1.0, 60)] {
            for f in 0..frames {
                let r = m.move_and_slide(b, dir * (sign * 0.05), OPTS);
                assert_eq!(
                    m.kind(r.body.face),
                    FaceKind::Free,
                    "{col:?} frame {f}: fell into the ramp at {:?}",
                    r.body
                );
                let below = m.support_below(r.body, 0.01, OPTS);
                assert!(
                    below.is_some(),
                    "{col:?} frame {f}: no ramp under {:?}",
                    r.body
                );
                b = r.body;
            }
        }
    }
}
