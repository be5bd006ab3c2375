//! Bad input to the collision core (issue 3): every malformed polygon or collider is refused with a
//! typed error naming the polygon and the problem, through `build_mesh` and `CollisionWorld`, and
//! nothing panics.
use tessera::collision::*;

use crate::common::source::{rect, solid, v};

const ID: PolygonId = PolygonId(7);

fn polygon(p: &[(f64, f64)]) -> SourcePolygon {
    solid(ID.0, p)
}

fn good(id: u32) -> SourcePolygon {
    rect(id, 0.0, -1.0, 5.0, 0.0)
}

fn box_collider() -> ColliderShape {
    ColliderShape::Box {
        width: 0.8,
        height: 1.8,
    }
}

/// Builds a level of two good polygons and `bad`, expecting a geometry error; returns it after
/// checking that the message names polygon 7.
fn refused(bad: SourcePolygon) -> GeometryError {
    let level = [good(1), bad, good(2)];
    let err = match build_mesh(&level, &box_collider(), &MeshConfig::default()) {
        Err(BuildError::Geometry(e)) => e,
        Err(other) => panic!("expected a geometry error, got {other:?}"),
        Ok(_) => panic!("bad polygon accepted"),
    };
    let msg = err.to_string();
    assert!(
        msg.contains("polygon 7"),
        "message does not name the polygon: {msg}"
    );
    // The world refuses it the same way.
    match CollisionWorld::new(&level, &[box_collider()], MeshConfig::default()) {
        Err(BuildError::Geometry(e)) => assert_eq!(e.to_string(), msg),
        other => panic!("world: {:?}", other.err()),
    }
    err
}

#[test]
fn fewer_than_three_points() {
    for pts in [&[][..], &[(0.0, 0.0)][..], &[(0.0, 0.0), (1.0, 0.0)][..]] {
        let e = refused(polygon(pts));
        assert_eq!(
            e,
            GeometryError::TooFewPoints {
                polygon: ID,
                count: pts.len()
            }
        );
        assert!(e.to_string().contains("at least 3"), "{e}");
    }
}

#[test]
fn fewer_than_three_distinct_points() {
    // Three points, two of them equal (consecutive through the wrap-around).
    let e = refused(polygon(&[(0.0, 0.0), (1.0, 0.0), (0.0, 0.0)]));
    assert!(
        matches!(e, GeometryError::DuplicatePoint { a: 2, b: 0, .. }),
        "{e:?}"
    );
    // Two distinct points visited twice.
    let e = refused(polygon(&[(0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (1.0, 0.0)]));
    assert_eq!(e, GeometryError::ZeroArea { polygon: ID });
}

#[test]
fn zero_area() {
    let e = refused(polygon(&[(0.0, 0.0), (1.0, 1.0), (3.0, 3.0), (2.0, 2.0)]));
    assert_eq!(e, GeometryError::ZeroArea { polygon: ID });
    assert!(e.to_string().contains("zero area"));
    // Collinear far from the origin, with coordinates that are not exactly representable.
    let e = refused(polygon(&[
        (1e5, 1e5),
        (1e5 + 0.1, 1e5 + 0.1),
        (1e5 + 0.3, 1e5 + 0.3),
    ]));
    assert!(
        matches!(
            e,
            GeometryError::ZeroArea { .. } | GeometryError::SelfIntersection { .. }
        ),
        "{e:?}"
    );
}

#[test]
fn self_intersections() {
    // Bow tie.
    let e = refused(polygon(&[(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]));
    assert!(
        matches!(e, GeometryError::SelfIntersection { polygon: ID, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("self-intersection"));
    // A vertex touching another edge (pinched polygon).
    let e = refused(polygon(&[
        (0.0, 0.0),
        (4.0, 0.0),
        (4.0, 4.0),
        (2.0, 0.0),
        (0.0, 4.0),
    ]));
    assert!(matches!(e, GeometryError::SelfIntersection { .. }), "{e:?}");
    // The same point visited twice, not consecutively (figure eight).
    let e = refused(polygon(&[
        (0.0, 0.0),
        (2.0, 0.0),
        (1.0, 1.0),
        (2.0, 2.0),
        (0.0, 2.0),
        (1.0, 1.0),
    ]));
    assert!(matches!(e, GeometryError::SelfIntersection { .. }), "{e:?}");
    // A spike folding back along its own edge.
    let e = refused(polygon(&[(0.0, 0.0), (3.0, 0.0), (1.0, 0.0), (0.0, 2.0)]));
    assert!(matches!(e, GeometryError::SelfIntersection { .. }), "{e:?}");
    // Overlapping collinear edges going out and back.
    let e = refused(polygon(&[
        (0.0, 0.0),
        (4.0, 0.0),
        (4.0, 1.0),
        (2.0, 1.0),
        (2.0, 0.0),
        (1.0, 0.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ]));
    assert!(matches!(e, GeometryError::SelfIntersection { .. }), "{e:?}");
}

#[test]
fn non_finite_coordinates() {
    for (k, bad) in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY]
        .into_iter()
        .enumerate()
    {
        let mut pts = vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        if k == 0 {
            pts[2].0 = bad;
        } else {
            pts[2].1 = bad;
        }
        let e = refused(polygon(&pts));
        assert!(
            matches!(
                e,
                GeometryError::NonFinite {
                    polygon: ID,
                    point: 2,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("non-finite"));
    }
}

#[test]
fn duplicate_consecutive_points() {
    let e = refused(polygon(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (0.0, 1.0)]));
    assert_eq!(
        e,
        GeometryError::DuplicatePoint {
            polygon: ID,
            a: 1,
            b: 2,
            x: 1.0,
            y: 0.0
        }
    );
    assert!(e.to_string().contains("duplicates"));
}

#[test]
fn coordinates_beyond_the_limit() {
    for c in [1e7 + 2.0, -2e7, 1e300] {
        let e = refused(polygon(&[(0.0, 0.0), (c, 0.0), (0.0, 1.0)]));
        assert!(
            matches!(
                e,
                GeometryError::OutOfRange {
                    polygon: ID,
                    point: 1,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("1e7"));
    }
    // Exactly at the limit is fine.
    let edge = [
        good(1),
        polygon(&[(1e7 - 1.0, 0.0), (1e7, 0.0), (1e7, 1.0)]),
    ];
    let m = build_mesh(&edge, &box_collider(), &MeshConfig::default()).unwrap();
    m.check_invariants().unwrap();
}

#[test]
fn the_first_bad_polygon_is_reported_and_nothing_is_built() {
    let level = [
        good(0),
        polygon(&[(0.0, 0.0), (1.0, 0.0)]),
        SourcePolygon {
            id: PolygonId(9),
            ..polygon(&[(0.0, 0.0), (f64::NAN, 0.0), (0.0, 1.0)])
        },
    ];
    let shapes = [box_collider(), box_collider()];
    let e = CollisionWorld::new(&level, &shapes, MeshConfig::default())
        .err()
        .expect("a level with bad polygons builds no world");
    assert!(e.to_string().contains("polygon 7"), "{e}");
}

#[test]
fn tiny_but_valid_coordinates_build() {
    // Subnormal-scale and tiny coordinates are valid input; the mesh must build (no spade
    // "too small" refusal) and hold its invariants.
    // Spade refuses magnitudes below 2^-142; the core must not pass them on. (Fuzzing found a
    // one-way triangle with a 1.2e-311 coordinate refused as "triangulation failed: TooSmall".)
    for s in [
        1.228635562969e-311,
        1e-300,
        1e-200,
        1e-150,
        1e-100,
        1e-43,
        1e-12,
    ] {
        for tri in [
            [(s, s), (1.0, s), (1.0, 1.0)],
            [(17.0, -15.625), (0.25, s), (0.0, 0.0)],
            [(0.0, 2.0), (s, 2.0), (0.0, 3.0)],
        ] {
            let level = [good(1), polygon(&tri)];
            for c in [
                box_collider(),
                ColliderShape::Box {
                    width: 0.0625,
                    height: 0.0625,
                },
                ColliderShape::Diamond {
                    width: 1.0,
                    height: 1.0,
                },
            ] {
                match build_mesh(&level, &c, &MeshConfig::default()) {
                    Ok(m) => m.check_invariants().unwrap(),
                    Err(BuildError::Geometry(e)) => {
                        // Refusing a degenerate triangle is fine, as long as it is named.
                        assert!(e.to_string().contains("polygon 7"), "{e}");
                    }
                    Err(e) => panic!("scale {s}, {tri:?}, {c:?}: {e}"),
                }
            }
        }
    }
}

#[test]
fn degenerate_colliders_are_refused() {
    let bad = [
        ColliderShape::Box {
            width: 0.0,
            height: 1.0,
        },
        ColliderShape::Box {
            width: -1.0,
            height: 1.0,
        },
        ColliderShape::Box {
            width: f64::NAN,
            height: 1.0,
        },
        ColliderShape::Box {
            width: 1.0,
            height: f64::INFINITY,
        },
        ColliderShape::Box {
            width: 1e9,
            height: 1.0,
        },
        ColliderShape::ChamferedBox {
            width: 1.0,
            height: 2.0,
            chamfer: 0.5,
        },
        ColliderShape::ChamferedBox {
            width: 1.0,
            height: 2.0,
            chamfer: -0.1,
        },
        ColliderShape::ChamferedBox {
            width: 1.0,
            height: 2.0,
            chamfer: f64::NAN,
        },
        ColliderShape::Diamond {
            width: 1.0,
            height: 0.0,
        },
        ColliderShape::Convex { points: vec![] },
        ColliderShape::Convex {
            points: vec![v(0.0, 0.0), v(1.0, 0.0)],
        },
        ColliderShape::Convex {
            points: vec![v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)],
        },
        // Concave (an arrow head).
        ColliderShape::Convex {
            points: vec![v(0.0, 0.0), v(1.0, 1.0), v(0.0, 0.3), v(-1.0, 1.0)],
        },
        // Self-intersecting.
        ColliderShape::Convex {
            points: vec![v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)],
        },
        // A star winding twice: every turn is a left turn, yet it is not convex. (Fuzzing: such a
        // collider was accepted, its "Minkowski sums" were garbage and a free face ended up
        // 0.22 m inside an inflated piece.)
        ColliderShape::Convex {
            points: (0..5)
                .map(|k| {
                    let t = (k * 2) as f64 * std::f64::consts::TAU / 5.0;
                    v(t.cos(), t.sin() + 1.0)
                })
                .collect(),
        },
        ColliderShape::Convex {
            points: vec![
                v(2.75, -0.007812500125),
                v(-0.0078125, 0.359375),
                v(3.060289707785148e-198, 0.5078125),
                v(111.992187563875, 0.0),
                v(-0.0078125, 0.0),
                v(3.9921875, 1.294131737204814e-256),
            ],
        },
        ColliderShape::Convex {
            points: vec![v(0.0, 0.0), v(f64::NAN, 0.0), v(0.0, 1.0)],
        },
    ];
    for c in bad {
        match build_mesh(&[good(0)], &c, &MeshConfig::default()) {
            Err(BuildError::Geometry(GeometryError::BadCollider(msg))) => {
                assert!(!msg.is_empty());
            }
            other => panic!("{c:?}: {:?}", other.map(|_| "built")),
        }
        assert!(
            CollisionWorld::new(&[good(0)], &[box_collider(), c], MeshConfig::default()).is_err()
        );
    }
    // A clockwise convex collider is fine (it is reoriented), and so are repeated points.
    let dup = ColliderShape::Convex {
        points: vec![v(-0.5, 0.0), v(0.5, 0.0), v(0.5, 0.0), v(0.0, 1.0)],
    };
    build_mesh(&[good(0)], &dup, &MeshConfig::default()).unwrap();
    let cw = ColliderShape::Convex {
        points: vec![v(-0.5, 0.0), v(-0.5, 1.0), v(0.5, 1.0), v(0.5, 0.0)],
    };
    build_mesh(&[good(0)], &cw, &MeshConfig::default()).unwrap();
}

#[test]
fn bad_bounds_are_refused() {
    for b in [
        Aabb {
            min: v(0.0, 0.0),
            max: v(0.0, 1.0),
        },
        Aabb {
            min: v(f64::NAN, 0.0),
            max: v(1.0, 1.0),
        },
        Aabb {
            min: v(-3e7, 0.0),
            max: v(1.0, 1.0),
        },
    ] {
        let cfg = MeshConfig {
            bounds: Some(b),
            ..MeshConfig::default()
        };
        assert!(matches!(
            build_mesh(&[good(0)], &box_collider(), &cfg),
            Err(BuildError::BadBounds(_))
        ));
    }
}

#[test]
fn empty_level_builds_an_empty_room() {
    let m = build_mesh(&[], &box_collider(), &MeshConfig::default()).unwrap();
    m.check_invariants().unwrap();
    assert!(matches!(m.locate(v(0.0, 0.0), None), Location::Free(_)));
}
