//! Property tests of the collision core over random levels (issue 3, "What it must prove").
//!
//! Levels mix grid-snapped rectangles and L shapes (edges touching exactly), diamonds touching at
//! vertices, random convex polygons, star-shaped concave polygons, slivers down to 1e-6 m thick,
//! huge polygons, one-way platforms, and the whole level translated by up to 1e5 m. Colliders are
//! boxes, chamfered boxes and diamonds; a separate property builds dense clusters of unit tiles
//! (stacked both ways) with head-chamfered colliders, the game's shape. Bodies make chained random moves of every length (zero,
//! 1e-12 m, ..., 50 m) and direction (axis-aligned and diagonal ones included).
//!
//! Everything the properties check is computed independently of the mesh: the collider's overlap
//! with a level polygon is a separating-axis depth against convex pieces the generator knows (not
//! the core's decomposition), and the path between two positions is checked by sweeping the
//! collider along it.
use glam::DVec2;
use proptest::prelude::*;
use proptest::test_runner::Config;
use tessera::collision::*;

/// Allowed overlap of the collider with a solid polygon, metres (issue 3).
const MAX_OVERLAP: f64 = 1e-5;

/// A generated level polygon with convex pieces known by construction.
#[derive(Clone, Debug)]
struct Shape {
    kind: Solidity,
    outline: Vec<DVec2>,
    /// Convex counter-clockwise pieces whose union is the polygon.
    pieces: Vec<Vec<DVec2>>,
}

use crate::common::source::{rect_pts, v};

fn solid_shape(outline: Vec<DVec2>) -> Shape {
    Shape {
        kind: Solidity::Solid,
        pieces: vec![outline.clone()],
        outline,
    }
}

/// Axis-aligned rectangle on a 0.25 m grid (neighbours touch along edges exactly).
fn grid_rect() -> impl Strategy<Value = Shape> {
    (-32i32..32, -32i32..32, 1i32..16, 1i32..16).prop_map(|(x, y, w, h)| {
        let (x0, y0) = (x as f64 * 0.25, y as f64 * 0.25);
        solid_shape(rect_pts(x0, y0, x0 + w as f64 * 0.25, y0 + h as f64 * 0.25))
    })
}

/// An L shape on a 0.5 m grid: concave, pieces are its two rectangles.
fn grid_l() -> impl Strategy<Value = Shape> {
    (-16i32..16, -16i32..16, 2i32..6, 2i32..6, 1i32..2, 0usize..4).prop_map(
        |(x, y, w, h, t, rot)| {
            let s = 0.5;
            let (w, h, t) = (w as f64 * s, h as f64 * s, t as f64 * s);
            // L in local coordinates, then rotated by multiples of 90° (exact).
            let outline = [v(0.0, 0.0), v(w, 0.0), v(w, t), v(t, t), v(t, h), v(0.0, h)];
            let a = rect_pts(0.0, 0.0, w, t);
            let b = rect_pts(0.0, t, t, h);
            let r = |p: DVec2| {
                let q = match rot {
                    0 => p,
                    1 => v(-p.y, p.x),
                    2 => v(-p.x, -p.y),
                    _ => v(p.y, -p.x),
                };
                q + v(x as f64 * s, y as f64 * s)
            };
            Shape {
                kind: Solidity::Solid,
                outline: outline.iter().map(|&p| r(p)).collect(),
                pieces: vec![
                    a.into_iter().map(r).collect(),
                    b.into_iter().map(r).collect(),
                ],
            }
        },
    )
}

/// Diamonds of radius 0.5 centred on a 1 m grid: neighbours touch at vertices.
fn grid_diamond() -> impl Strategy<Value = Shape> {
    (-8i32..8, -8i32..8).prop_map(|(x, y)| {
        let c = v(x as f64, y as f64);
        solid_shape(vec![
            c + v(0.0, -0.5),
            c + v(0.5, 0.0),
            c + v(0.0, 0.5),
            c + v(-0.5, 0.0),
        ])
    })
}

/// A convex polygon: points at sorted random angles on an ellipse.
fn convex() -> impl Strategy<Value = Shape> {
    (
        -8.0..8.0f64,
        -8.0..8.0f64,
        0.05..4.0f64,
        0.05..4.0f64,
        prop::collection::vec(0.0..1.0f64, 3..9),
    )
        .prop_filter_map("angles too close", |(cx, cy, rx, ry, fr)| {
            let mut a: Vec<f64> = fr.iter().map(|f| f * std::f64::consts::TAU).collect();
            a.sort_by(f64::total_cmp);
            let n = a.len();
            let gaps_ok = (0..n).all(|i| {
                let next = if i + 1 < n {
                    a[i + 1]
                } else {
                    a[0] + std::f64::consts::TAU
                };
                next - a[i] > 0.05 && next - a[i] < 3.0
            });
            gaps_ok.then(|| {
                solid_shape(
                    a.iter()
                        .map(|t| v(cx + rx * t.cos(), cy + ry * t.sin()))
                        .collect(),
                )
            })
        })
}

/// A star-shaped (usually concave) polygon; its pieces are the fan triangles from the centre.
fn star() -> impl Strategy<Value = Shape> {
    (
        -8.0..8.0f64,
        -8.0..8.0f64,
        prop::collection::vec((0.2..3.0f64, -0.35..0.35f64), 4..11),
    )
        .prop_map(|(cx, cy, rs)| {
            let n = rs.len();
            let c = v(cx, cy);
            let outline: Vec<DVec2> = rs
                .iter()
                .enumerate()
                .map(|(i, &(r, j))| {
                    let t = (i as f64 + j) / n as f64 * std::f64::consts::TAU;
                    c + v(r * t.cos(), r * t.sin())
                })
                .collect();
            let pieces = (0..n)
                .map(|i| vec![c, outline[i], outline[(i + 1) % n]])
                .collect();
            Shape {
                kind: Solidity::Solid,
                outline,
                pieces,
            }
        })
}

/// A thin rotated rectangle, 1e-6 m to 1e-2 m thick.
fn sliver() -> impl Strategy<Value = Shape> {
    (
        -8.0..8.0f64,
        -8.0..8.0f64,
        0.1..6.0f64,
        -6.0..-2.0f64,
        0.0..std::f64::consts::PI,
    )
        .prop_map(|(cx, cy, len, lt, ang)| {
            let t = 10f64.powf(lt);
            let (u, n) = (v(ang.cos(), ang.sin()), v(-ang.sin(), ang.cos()));
            let c = v(cx, cy);
            solid_shape(vec![
                c - u * len * 0.5 - n * t * 0.5,
                c + u * len * 0.5 - n * t * 0.5,
                c + u * len * 0.5 + n * t * 0.5,
                c - u * len * 0.5 + n * t * 0.5,
            ])
        })
}

/// A huge ground block or slope (kilometres).
fn huge() -> impl Strategy<Value = Shape> {
    (-6.0..0.0f64, 500.0..5000.0f64, -0.3..0.3f64).prop_map(|(top, size, slope)| {
        solid_shape(vec![
            v(-size, top - size * slope - 10.0),
            v(size, top + size * slope - 10.0),
            v(size, top + size * slope),
            v(-size, top - size * slope),
        ])
    })
}

/// A random triangle.
fn triangle() -> impl Strategy<Value = Shape> {
    prop::array::uniform6(-8.0..8.0f64).prop_filter_map("degenerate triangle", |c| {
        let (a, b, d) = (v(c[0], c[1]), v(c[2], c[3]), v(c[4], c[5]));
        let area = (b - a).perp_dot(d - a);
        (area.abs() > 1e-3).then(|| {
            if area > 0.0 {
                solid_shape(vec![a, b, d])
            } else {
                solid_shape(vec![a, d, b])
            }
        })
    })
}

/// A one-way platform (a thin rectangle on the grid, sometimes slanted).
fn one_way() -> impl Strategy<Value = Shape> {
    (-16i32..16, -16i32..16, 2i32..12, -2i32..3).prop_map(|(x, y, w, s)| {
        let (x0, y0, w) = (x as f64 * 0.5, y as f64 * 0.5, w as f64 * 0.5);
        let dy = s as f64 * 0.25;
        let outline = vec![
            v(x0, y0),
            v(x0 + w, y0 + dy),
            v(x0 + w, y0 + dy + 0.25),
            v(x0, y0 + 0.25),
        ];
        Shape {
            kind: Solidity::OneWay,
            pieces: vec![outline.clone()],
            outline,
        }
    })
}

/// A row or column of separate unit-ish tiles on the grid (seams between overlapping inflated
/// pieces), as several shapes.
fn tile_row() -> impl Strategy<Value = Vec<Shape>> {
    (-16i32..16, -16i32..16, 2usize..12, prop::bool::ANY, 1i32..3).prop_map(
        |(x, y, n, horizontal, size)| {
            let s = size as f64 * 0.5;
            (0..n)
                .map(|k| {
                    let (x0, y0) = if horizontal {
                        (x as f64 * 0.5 + k as f64 * s, y as f64 * 0.5)
                    } else {
                        (x as f64 * 0.5, y as f64 * 0.5 + k as f64 * s)
                    };
                    solid_shape(rect_pts(x0, y0, x0 + s, y0 + s))
                })
                .collect()
        },
    )
}

fn any_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        4 => grid_rect(),
        2 => grid_l(),
        2 => grid_diamond(),
        3 => convex(),
        3 => star(),
        2 => sliver(),
        2 => triangle(),
        1 => one_way(),
    ]
}

fn collider() -> impl Strategy<Value = ColliderShape> {
    // Sizes are multiples of 1/8 m half the time, so inflated edges line up with grid geometry.
    let size = prop_oneof![(1u32..24).prop_map(|k| k as f64 * 0.125), 0.05..3.0f64,];
    (size.clone(), size, 0.05..0.45f64, 0usize..3).prop_map(|(w, h, c, k)| match k {
        0 => ColliderShape::Box {
            width: w,
            height: h,
        },
        1 => ColliderShape::ChamferedBox {
            width: w,
            height: h,
            chamfer: c * w.min(h),
        },
        _ => ColliderShape::Diamond {
            width: w,
            height: h,
        },
    })
}

fn offset() -> impl Strategy<Value = DVec2> {
    prop_oneof![
        3 => Just(DVec2::ZERO),
        1 => Just(v(1e5, 1e5)),
        1 => Just(v(-1e5, 3.25e4)),
    ]
}

/// A displacement: zero, tiny, ordinary or long; random or exactly axis-aligned / diagonal.
fn displacement() -> impl Strategy<Value = DVec2> {
    let dir = prop_oneof![
        (0.0..std::f64::consts::TAU).prop_map(|a| v(a.cos(), a.sin())),
        (-1i32..=1, -1i32..=1).prop_map(|(x, y)| v(x as f64, y as f64)),
    ];
    let len = prop_oneof![
        1 => Just(0.0),
        1 => (-12.0..-6.0f64).prop_map(|e| 10f64.powf(e)),
        5 => 1e-3..2.0f64,
        2 => 2.0..50.0f64,
    ];
    (dir, len).prop_map(|(d, l)| d * l)
}

fn start_point() -> impl Strategy<Value = DVec2> {
    prop_oneof![
        (-10.0..10.0f64, -10.0..10.0f64).prop_map(|(x, y)| v(x, y)),
        (-80i32..80, -80i32..80).prop_map(|(x, y)| v(x as f64 * 0.125, y as f64 * 0.125)),
    ]
}

#[derive(Clone, Debug)]
struct Level {
    shapes: Vec<Shape>,
    offset: DVec2,
}

impl Level {
    fn polygons(&self) -> Vec<SourcePolygon> {
        self.shapes
            .iter()
            .enumerate()
            .map(|(i, s)| SourcePolygon {
                id: PolygonId(i as u32),
                kind: s.kind,
                points: s.outline.iter().map(|&p| p + self.offset).collect(),
            })
            .collect()
    }
    /// Convex pieces of the solid polygons, in world coordinates, with their polygon index.
    fn solid_pieces(&self) -> Vec<(usize, Vec<DVec2>)> {
        let mut out = Vec::new();
        for (i, s) in self.shapes.iter().enumerate() {
            if s.kind != Solidity::Solid {
                continue;
            }
            for p in &s.pieces {
                out.push((i, p.iter().map(|&q| q + self.offset).collect()));
            }
        }
        out
    }
}

fn level() -> impl Strategy<Value = Level> {
    (
        prop::collection::vec(any_shape(), 1..9),
        prop::option::weighted(0.3, tile_row()),
        prop::option::weighted(0.2, huge()),
        offset(),
    )
        .prop_map(|(mut shapes, tiles, big, offset)| {
            shapes.extend(tiles.into_iter().flatten());
            shapes.extend(big);
            Level { shapes, offset }
        })
}

// ---------------------------------------------------------------------------------------------
// Independent geometry: separating-axis depth between convex polygons.

/// Penetration depth of two convex counter-clockwise polygons: the smallest overlap of their
/// projections over all edge normals (positive: they overlap by that much; ≤ 0: apart/touching).
fn sat_depth(a: &[DVec2], b: &[DVec2]) -> f64 {
    let mut depth = f64::INFINITY;
    for poly in [a, b] {
        let n = poly.len();
        for i in 0..n {
            let e = poly[(i + 1) % n] - poly[i];
            let len = e.length();
            if len == 0.0 {
                continue;
            }
            let axis = v(-e.y, e.x) / len;
            let (amin, amax) = project(a, axis);
            let (bmin, bmax) = project(b, axis);
            depth = depth.min((amax - bmin).min(bmax - amin));
        }
    }
    depth
}

fn project(p: &[DVec2], axis: DVec2) -> (f64, f64) {
    p.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), q| {
            let d = q.dot(axis);
            (lo.min(d), hi.max(d))
        })
}

/// Convex hull (counter-clockwise, Andrew's monotone chain).
fn hull(mut pts: Vec<DVec2>) -> Vec<DVec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<DVec2> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<DVec2> = Vec::new();
    for &p in pts.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Deepest overlap of the collider swept from `a` to `b` with any solid piece.
fn swept_overlap(q: &[DVec2], a: DVec2, b: DVec2, pieces: &[(usize, Vec<DVec2>)]) -> (f64, usize) {
    let swept = hull(q.iter().flat_map(|&c| [a + c, b + c]).collect());
    pieces.iter().map(|(i, p)| (sat_depth(&swept, p), *i)).fold(
        (f64::NEG_INFINITY, usize::MAX),
        |x, y| if y.0 > x.0 { y } else { x },
    )
}

/// Distance from `p` to the closed triangle `t`.
fn dist_to_triangle(p: DVec2, t: [DVec2; 3]) -> f64 {
    let inside = (0..3).all(|i| (t[(i + 1) % 3] - t[i]).perp_dot(p - t[i]) >= 0.0);
    if inside {
        return 0.0;
    }
    (0..3)
        .map(|i| {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            let d = b - a;
            let s = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            p.distance(a + d * s)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Checks a body's consistency: never in a solid face, on its face's closed triangle, no overlap.
fn check_body(
    mesh: &CollisionMesh,
    body: Body,
    q: &[DVec2],
    pieces: &[(usize, Vec<DVec2>)],
    what: &str,
) -> Result<(), TestCaseError> {
    prop_assert!(body.pos.is_finite(), "{what}: position not finite");
    prop_assert!(
        body.face != FaceId::OUTSIDE && mesh.kind(body.face) != FaceKind::Solid,
        "{what}: body {body:?} is in a solid face"
    );
    let tol = 1e-9 + 1e-13 * body.pos.abs().max_element();
    let d = dist_to_triangle(body.pos, mesh.triangle(body.face));
    prop_assert!(
        d <= tol,
        "{what}: body {body:?} is {d} m off its face {:?}",
        mesh.triangle(body.face)
    );
    let (depth, poly) = swept_overlap(q, body.pos, body.pos, pieces);
    prop_assert!(
        depth <= MAX_OVERLAP,
        "{what}: collider at {:?} overlaps polygon {poly} by {depth} m",
        body.pos
    );
    Ok(())
}

/// Places a body near `p`: where it is if free, else at the nearest free point.
fn place(mesh: &CollisionMesh, p: DVec2) -> Option<Body> {
    match mesh.locate(p, None) {
        Location::Free(b) => Some(b),
        _ => mesh.nearest_free_point(p).map(|(b, d)| {
            assert!(
                (b.pos.distance(p) - d).abs() <= 1e-9 * (1.0 + d),
                "nearest_free_point reports {d} m for a move of {} m",
                b.pos.distance(p)
            );
            b
        }),
    }
}

/// `cases` cases from a fixed seed, or the one `TESSERA_SEED` sets (`common::seed`); soak runs
/// set `PROPTEST_CASES`, e.g. `PROPTEST_CASES=20000 TESSERA_SEED=random cargo test --release
/// --test it collision_props::`.
fn config(cases: u32) -> Config {
    crate::common::seed::proptest_config(cases, 0x7e55_e7a3)
}

proptest! {
    #![proptest_config(config(1000))]

    /// Random levels and chained random moves: the mesh is valid; the body never ends in a solid
    /// face, stays on its face, never overlaps a solid polygon, never passes through one between
    /// two positions, and every walk terminates.
    #[test]
    fn random_moves_never_penetrate_or_tunnel(
        level in level(),
        shape in collider(),
        starts in prop::collection::vec(start_point(), 1..3),
        moves in prop::collection::vec((displacement(), prop::bool::weighted(0.15)), 1..10),
    ) {
        let polys = level.polygons();
        let mesh = build_mesh(&polys, &shape, &MeshConfig::default())
            .map_err(|e| TestCaseError::fail(format!("build failed: {e}")))?;
        if let Err(e) = mesh.check_invariants() {
            return Err(TestCaseError::fail(format!("invariant: {e}")));
        }
        let q = shape.points().unwrap();
        let pieces = level.solid_pieces();
        for s in starts {
            let Some(mut body) = place(&mesh, s + level.offset) else { continue };
            check_body(&mesh, body, &q, &pieces, "start")?;
            for (k, &(d, pass)) in moves.iter().enumerate() {
                let opts = MoveOptions { pass_one_way: pass };
                let r = mesh.move_and_slide(body, d, opts);
                prop_assert_ne!(r.end, MoveEnd::StepLimit, "move {} of {:?} from {:?}", k, d, body);
                let what = format!("move {k} of {d:?} from {body:?} ({:?})", r.end);
                check_body(&mesh, r.body, &q, &pieces, &what)?;
                // The path: start, every contact point, end; each leg swept by the collider.
                let mut path = vec![body.pos];
                path.extend(r.contacts.iter().map(|c| c.point));
                path.push(r.body.pos);
                for leg in path.windows(2) {
                    let (depth, poly) = swept_overlap(&q, leg[0], leg[1], &pieces);
                    prop_assert!(
                        depth <= MAX_OVERLAP,
                        "{what}: leg {:?} -> {:?} passes through polygon {poly} by {depth} m",
                        leg[0], leg[1]
                    );
                }
                // Zero moves go nowhere; no move goes further than asked.
                prop_assert!(r.travelled <= d.length() * (1.0 + 1e-9) + 1e-9, "{what}: travelled {}", r.travelled);
                if d == DVec2::ZERO {
                    prop_assert_eq!(r.body, body);
                }
                // The same move as a cast never ends beyond the first contact of the slide.
                let c = mesh.cast(body, d, opts);
                check_body(&mesh, c.body, &q, &pieces, &format!("cast {what}"))?;
                body = r.body;
            }
        }
    }
}

/// A long straight wall (a rotated 200 m × 2 m block) near the origin or 1e5 m away.
#[derive(Clone, Debug)]
struct Wall {
    angle: f64,
    offset: DVec2,
}

fn wall() -> impl Strategy<Value = Wall> {
    (
        prop_oneof![
            (0.0..std::f64::consts::TAU),
            (0i32..8).prop_map(|k| k as f64 * std::f64::consts::FRAC_PI_4)
        ],
        offset(),
    )
        .prop_map(|(angle, offset)| Wall { angle, offset })
}

proptest! {
    #![proptest_config(config(500))]

    /// A move into a single straight wall keeps its full tangential component and loses exactly
    /// the normal component beyond the wall (within 1e-9 m), for chained moves of any direction.
    #[test]
    fn sliding_on_a_straight_wall_keeps_the_tangential_component(
        wall in wall(),
        shape in collider(),
        gap in prop_oneof![Just(1e-3), 1e-3..3.0f64],
        along in -10.0..10.0f64,
        moves in prop::collection::vec(displacement(), 1..6),
    ) {
        let (t, n) = (v(wall.angle.cos(), wall.angle.sin()), v(-wall.angle.sin(), wall.angle.cos()));
        // The block's top side runs along t with outward normal n, through `offset`.
        let o = wall.offset;
        let pts = vec![o - t * 1000.0 - n * 2.0, o + t * 1000.0 - n * 2.0, o + t * 1000.0, o - t * 1000.0];
        let polys = [SourcePolygon { id: PolygonId(0), kind: Solidity::Solid, points: pts.clone() }];
        let bounds = Aabb { min: o - DVec2::splat(2000.0), max: o + DVec2::splat(2000.0) };
        let config = MeshConfig { bounds: Some(bounds), ..MeshConfig::default() };
        let mesh = build_mesh(&polys, &shape, &config)
            .map_err(|e| TestCaseError::fail(format!("build failed: {e}")))?;
        let q = shape.points().unwrap();
        // Distance the inflated top side lies out from the block: support of −Q along n.
        let tn = (pts[2] - pts[3]).normalize();
        let nn = v(-tn.y, tn.x);
        let h = q.iter().map(|c| (-*c).dot(nn)).fold(f64::NEG_INFINITY, f64::max);
        let start = o + nn * (h + gap) + tn * along;
        let Location::Free(mut body) = mesh.locate(start, None) else {
            return Err(TestCaseError::fail(format!("start {start:?} not free")));
        };
        let pieces = vec![(0usize, pts.clone())];
        for d in moves {
            let r = mesh.move_and_slide(body, d, MoveOptions::default());
            prop_assert_ne!(r.end, MoveEnd::StepLimit);
            check_body(&mesh, r.body, &q, &pieces, "slide")?;
            let moved = r.body.pos - body.pos;
            let tol = 1e-9;
            prop_assert!(
                (moved.dot(tn) - d.dot(tn)).abs() <= tol,
                "tangential {} instead of {} (move {:?} from {:?}, {:?}, contacts {:?})",
                moved.dot(tn), d.dot(tn), d, body, r.end, r.contacts
            );
            // Normal: free until the wall, then stopped on it.
            let dist = (body.pos - o).dot(nn) - h; // distance to the inflated side
            let expect_n = d.dot(nn).max(-dist);
            prop_assert!(
                (moved.dot(nn) - expect_n).abs() <= tol,
                "normal {} instead of {} (move {:?} from {:?})",
                moved.dot(nn), expect_n, d, body
            );
            body = r.body;
        }
    }
}

/// A cluster of unit tiles on distinct cells of a small lattice: stacked in both directions, the
/// way tile levels are built (`tile_row` only makes rows). Cell size 1 m or 0.5 m.
fn tile_cluster() -> impl Strategy<Value = (Vec<SourcePolygon>, Vec<DVec2>)> {
    (
        prop::collection::btree_set((0u32..8, 0u32..8), 4..40),
        prop_oneof![Just(1.0), Just(0.5)],
    )
        .prop_map(|(cells, s)| {
            let centres: Vec<DVec2> = cells
                .iter()
                .map(|&(x, y)| v((x as f64 + 0.5) * s, (y as f64 + 0.5) * s))
                .collect();
            let polys = cells
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| {
                    let (x0, y0) = (x as f64 * s, y as f64 * s);
                    SourcePolygon {
                        id: PolygonId(i as u32),
                        kind: Solidity::Solid,
                        points: rect_pts(x0, y0, x0 + s, y0 + s),
                    }
                })
                .collect();
            (polys, centres)
        })
}

/// Colliders with a chamfered head only (the game's shape) or chamfered all round, on a 1/8 m
/// grid half the time, so inflated outlines of stacked tiles meet along shared lines.
fn head_chamfered_collider() -> impl Strategy<Value = ColliderShape> {
    (1u32..12, 2u32..20, 1u32..4, prop::bool::ANY).prop_map(|(w, h, c, head)| {
        let (w, h, c) = (w as f64 * 0.125, h as f64 * 0.125, c as f64 * 0.03);
        if head {
            tessera::movement::tuning::head_chamfered_box(w, h, c.min(0.45 * w.min(h)))
        } else {
            ColliderShape::ChamferedBox {
                width: w,
                height: h,
                chamfer: c.min(0.45 * w.min(h)),
            }
        }
    })
}

proptest! {
    #![proptest_config(config(1000))]

    /// Dense clusters of tiles: the mesh is valid (debug builds check the invariants, including
    /// "no free face inside an inflated piece") and the feet at every tile's centre, which the
    /// collider then overlaps, are in a solid face. With the strict region test of before 4ebc58d
    /// (a test point on an outline left out between stacked tiles is in no piece) it fails
    /// within these 1 000 cases.
    #[test]
    fn tile_clusters_are_solid_inside(
        (polys, centres) in tile_cluster(),
        shape in head_chamfered_collider(),
    ) {
        let m = build_mesh(&polys, &shape, &MeshConfig::default());
        prop_assert!(m.is_ok(), "{:?}", m.err().map(|e| e.to_string()));
        let m = m.unwrap();
        prop_assert!(m.check_invariants().is_ok());
        for &c in &centres {
            prop_assert!(
                matches!(m.locate(c, None), Location::Solid(_)),
                "tile centre {c} is not solid"
            );
        }
    }
}

/// A long comb (issue 14's "long outlines"): a strip 1 m high on a 0.25 m grid with teeth
/// `(width, gap, height)` along its top, as one polygon of more than 64 points (the long-outline
/// decomposition, with Steiner points and interior edges left out of the mesh), and its convex
/// pieces by construction: the strip and each tooth.
fn long_comb() -> impl Strategy<Value = Shape> {
    prop::collection::vec((1u32..4, 1u32..4, 1u32..12), 17..60).prop_map(|teeth| {
        let q = 0.25;
        let mut top: Vec<DVec2> = Vec::new();
        let mut pieces = Vec::new();
        let mut x = 0.0;
        for &(w, g, h) in &teeth {
            let (w, g, h) = (w as f64 * q, g as f64 * q, h as f64 * q);
            top.push(v(x, 1.0 + h));
            top.push(v(x + w, 1.0 + h));
            pieces.push(rect_pts(x, 1.0, x + w, 1.0 + h));
            x += w + g;
        }
        // Right to left along the top, then down and along the bottom.
        let mut outline = vec![v(0.0, 0.0), v(x, 0.0), v(x, 1.0)];
        for pair in top.chunks(2).rev() {
            outline.push(v(pair[1].x, 1.0));
            outline.push(pair[1]);
            outline.push(pair[0]);
            if pair[0].x > 0.0 {
                outline.push(v(pair[0].x, 1.0));
            }
        }
        pieces.push(rect_pts(0.0, 0.0, x, 1.0));
        Shape {
            kind: Solidity::Solid,
            outline,
            pieces,
        }
    })
}

/// A noisy round blob of 65 to 400 points (radius 10 to 40 m, ±0.3 m of noise), and its convex
/// pieces by construction: a fan of triangles from the centre (star-shaped by construction).
fn long_blob() -> impl Strategy<Value = Shape> {
    (65usize..400, 10.0f64..40.0, any::<u64>()).prop_map(|(n, r, seed)| {
        let mut s = seed;
        let mut noise = || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64 * 0.6 - 0.3
        };
        let outline: Vec<DVec2> = (0..n)
            .map(|i| {
                let t = i as f64 * std::f64::consts::TAU / n as f64;
                v(t.cos(), t.sin()) * (r + noise())
            })
            .collect();
        let pieces = (0..n)
            .map(|i| vec![v(0.0, 0.0), outline[i], outline[(i + 1) % n]])
            .collect();
        Shape {
            kind: Solidity::Solid,
            outline,
            pieces,
        }
    })
}

/// A slab `len` m long and 1 m deep whose top is a zigzag of `teeth` triangular teeth `depth` m
/// high: the shape of a traced or imported rough floor, with its pieces known by construction
/// (the slab and each tooth).
fn fine_teeth() -> impl Strategy<Value = (Shape, bool)> {
    (
        50usize..1500,
        0.5f64..20.0,
        1e-7f64..1e-6,
        1e-6f64..4e-4,
        2e-3f64..0.3,
    )
        .prop_flat_map(|(teeth, len, tiny, shallow, deep)| {
            // Deep teeth are filled only when narrow: mouths of 1 mm (tips 1 mm apart) are, of
            // 6 mm are not (and those are fewer: they are not filled, so they cost their
            // overlap).
            let narrow = teeth as f64 * 1e-3;
            let wide = (teeth / 10) as f64 * 6e-3;
            (
                Just(teeth),
                prop_oneof![
                    Just((teeth, len, tiny, true)),
                    Just((teeth, len, shallow, true)),
                    Just((teeth, narrow, deep, true)),
                    Just((teeth / 10, wide, deep, false)),
                ],
            )
        })
        .prop_map(|(_, (teeth, len, depth, fills))| {
            let s = len / (2 * teeth) as f64;
            let mut outline = vec![v(0.0, -1.0), v(len, -1.0), v(len, 0.0)];
            let mut pieces = vec![rect_pts(0.0, -1.0, len, 0.0)];
            for k in 1..2 * teeth {
                let x = len - k as f64 * s;
                if k % 2 == 1 {
                    outline.push(v(x, depth));
                    pieces.push(vec![v(x - s, 0.0), v(x + s, 0.0), v(x, depth)]);
                } else {
                    outline.push(v(x, 0.0));
                }
            }
            outline.push(v(0.0, 0.0));
            let shape = Shape {
                kind: Solidity::Solid,
                outline,
                pieces,
            };
            (shape, fills)
        })
}

proptest! {
    #![proptest_config(config(40))]

    /// A zigzag of teeth far below the collider's size is filled outwards (`filled_outline`)
    /// instead of becoming one convex piece per tooth: the build then follows the outline, not
    /// the teeth's pairwise overlap. Teeth of four kinds: 0.1–1 µm and 1 µm–0.4 mm high (the
    /// shallow rule), 2 mm–30 cm high but 1 mm apart (the narrow rule), and as high but 6 mm apart
    /// (not filled: a collider's corner reaches into such notches). The fill may only add solid, and take at most `FILL_TOLERANCE` of free space as the collider feels it:
    /// where the mesh is free the collider overlaps none of the original pieces, and where the
    /// collider is clear of them by more than the tolerance the mesh is free (separating-axis
    /// depth against the slab and every tooth; random feet positions over the whole slab and
    /// just above its top, at any offset).
    #[test]
    fn fine_teeth_are_filled_outwards_within_the_tolerance(
        (shape, fills) in fine_teeth(),
        collider in head_chamfered_collider(),
        offset in offset(),
        probes in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0, -3e-3f64..3e-3), 150),
    ) {
        let level = Level { shapes: vec![shape.clone()], offset };
        let polys = level.polygons();
        let q = collider.points().unwrap();
        let filled = filled_outline(polys[0].id, &polys[0].points, fill_mouth(&q));
        if fills {
            prop_assert!(
                filled.len() * 4 < polys[0].points.len(),
                "{} of {} points kept", filled.len(), polys[0].points.len()
            );
        } else {
            prop_assert_eq!(filled.len(), polys[0].points.len(), "wide mouths filled");
        }
        let mesh = build_mesh(&polys, &collider, &MeshConfig::default());
        prop_assert!(mesh.is_ok(), "{:?}", mesh.err().map(|e| e.to_string()));
        let mesh = mesh.unwrap();
        prop_assert!(mesh.check_invariants().is_ok(), "{:?}", mesh.check_invariants());
        let pieces = level.solid_pieces();
        let len = shape.outline[1].x;
        let (lo, hi) = (v(-1.0, -3.0) + offset, v(len + 1.0, 1.0) + offset);
        let random = probes.iter().map(|&(s, t, _)| lo + (hi - lo) * v(s, t));
        let top = shape.outline.iter().fold(0.0f64, |m, p| m.max(p.y));
        let above_top = probes.iter().map(|&(s, _, dy)| offset + v(len * s, top + dy));
        for p in random.chain(above_top) {
            let (depth, _) = swept_overlap(&q, p, p, &pieces);
            let free = matches!(mesh.locate(p, None), Location::Free(_));
            prop_assert!(
                !free || depth < 1e-6,
                "feet at {:?}: free in the mesh, but the collider overlaps the teeth by {} m",
                p,
                depth
            );
            prop_assert!(
                free || depth > -FILL_TOLERANCE - 1e-6,
                "feet at {:?}: clear of the teeth by {} m, more than the tolerance, but not free",
                p,
                -depth
            );
        }
    }
}

proptest! {
    #![proptest_config(config(60))]

    /// Long concave outlines (combs with long straight runs, noisy blobs with a wide interior)
    /// decompose with Steiner points, and the mesh leaves out every inflated edge that lies
    /// inside the polygon's own inflation ([`InflatedPiece`]s touching no outline add none).
    /// The mesh must still be exactly the collider's free space: valid (the invariant checker),
    /// and at random feet positions and around every outline vertex free exactly where the
    /// collider overlaps none of the pieces known by construction (separating-axis depth;
    /// positions within 1e-6 m of touching are not judged).
    #[test]
    fn long_outlines_mesh_exactly_the_free_space(
        shape in prop_oneof![long_comb(), long_blob()],
        collider in head_chamfered_collider(),
        offset in offset(),
        probes in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 200),
    ) {
        let level = Level { shapes: vec![shape.clone()], offset };
        let polys = level.polygons();
        prop_assert!(polys[0].points.len() > 64);
        let mesh = build_mesh(&polys, &collider, &MeshConfig::default());
        prop_assert!(mesh.is_ok(), "{:?}", mesh.err().map(|e| e.to_string()));
        let mesh = mesh.unwrap();
        prop_assert!(mesh.check_invariants().is_ok(), "{:?}", mesh.check_invariants());
        let q = collider.points().unwrap();
        let pieces = level.solid_pieces();
        let (lo, hi) = polys[0].points.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let (lo, hi) = (lo - DVec2::splat(2.0), hi + DVec2::splat(2.0));
        let near_outline = polys[0].points.iter().flat_map(|&p| {
            [v(0.3, 0.05), v(-0.3, 0.05), v(0.05, -0.3), v(0.0, 1.9), v(0.45, 0.9), v(-0.45, -0.2)]
                .map(|d| p + d)
        });
        let random = probes.iter().map(|&(s, t)| lo + (hi - lo) * v(s, t));
        for p in random.chain(near_outline) {
            let (depth, _) = swept_overlap(&q, p, p, &pieces);
            if depth.abs() < 1e-6 {
                continue;
            }
            let free = matches!(mesh.locate(p, None), Location::Free(_));
            prop_assert_eq!(
                free,
                depth < 0.0,
                "feet at {:?}: collider overlap {} m, but the mesh says {}",
                p,
                depth,
                if free { "free" } else { "not free" }
            );
        }
    }
}

/// What a mesh says of the space at `p`: outside the mesh, or the kind of the face it is in
/// (free, one-way or solid).
fn space_at(mesh: &CollisionMesh, p: DVec2) -> Option<FaceKind> {
    match mesh.locate(p, None) {
        Location::Free(b) => Some(mesh.kind(b.face)),
        Location::Solid(f) => Some(mesh.kind(f)),
        Location::Outside => None,
    }
}

proptest! {
    #![proptest_config(config(150))]

    /// Doors (gated faces): random levels with random door outlines of every generated shape,
    /// opened and closed in a random order. After every toggle the mesh passes its invariants and
    /// answers, at random points (off the 1/8 m grid the shapes are snapped to), what a mesh built
    /// from scratch answers: with the doors that are open left out and the closed ones as solid
    /// polygons. So opening a door is exactly "no door there" and closing it exactly "a wall",
    /// with no re-mesh.
    #[test]
    fn a_gate_open_is_no_door_and_closed_is_a_solid_polygon(
        level in level(),
        doors in prop::collection::vec(any_shape(), 1..4),
        shape in collider(),
        points in prop::collection::vec(start_point(), 24..48),
        toggles in prop::collection::vec(0usize..4, 1..6),
    ) {
        let base = level.polygons();
        let n = base.len() as u32;
        let door_polys: Vec<SourcePolygon> = doors
            .iter()
            .enumerate()
            .map(|(i, s)| SourcePolygon {
                id: PolygonId(n + i as u32),
                kind: Solidity::Gate,
                points: s.outline.iter().map(|&p| p + level.offset).collect(),
            })
            .collect();
        let all: Vec<SourcePolygon> = base.iter().chain(&door_polys).cloned().collect();
        // The same bounds for every mesh (the automatic ones would follow the doors left out).
        let config = MeshConfig {
            bounds: Some(automatic_bounds(all.iter().flat_map(|p| p.points.iter().copied()))),
            ..MeshConfig::default()
        };
        let mut mesh = build_mesh(&all, &shape, &config)
            .map_err(|e| TestCaseError::fail(format!("build failed: {e}")))?;
        let mut open = vec![false; door_polys.len()];
        // Off the grid: no sample lies on an outline.
        let off = DVec2::new(0.003_141_59, 0.002_718_28);
        let check = |mesh: &CollisionMesh, open: &[bool], when: &str| -> Result<(), TestCaseError> {
            if let Err(e) = mesh.check_invariants() {
                return Err(TestCaseError::fail(format!("{when}: invariant: {e}")));
            }
            let mut fresh = base.clone();
            for (d, &o) in door_polys.iter().zip(open) {
                if !o {
                    fresh.push(SourcePolygon { kind: Solidity::Solid, ..d.clone() });
                }
            }
            let reference = build_mesh(&fresh, &shape, &config)
                .map_err(|e| TestCaseError::fail(format!("{when}: reference build failed: {e}")))?;
            for &p in &points {
                let p = p + level.offset + off;
                prop_assert_eq!(
                    space_at(mesh, p), space_at(&reference, p),
                    "{} at {:?}, doors open {:?}", when, p, open
                );
            }
            Ok(())
        };
        check(&mesh, &open, "all closed")?;
        for (k, &t) in toggles.iter().enumerate() {
            let i = t % door_polys.len();
            open[i] = !open[i];
            prop_assert!(mesh.set_gate(door_polys[i].id, open[i]));
            check(&mesh, &open, &format!("toggle {k} (door {i})"))?;
        }
    }
}
