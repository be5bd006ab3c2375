//! Fuzz target: bytes → a few polygons and a collider → `build_mesh` → `check_invariants()` and a
//! few moves. Panics (a finding) when a build of valid input fails for any reason other than a
//! geometry error, when a built mesh violates its invariants, or when a move ends in a solid face,
//! off its face, hits the step limit or travels further than asked.
//!
//! Run: `cargo +nightly fuzz run mesh_build` (or `-s none` to build without sanitizers).
#![no_main]

use glam::DVec2;
use libfuzzer_sys::fuzz_target;
use tessera::collision::*;

/// Reads bytes; yields zeros when exhausted.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes([self.u8(), self.u8()])
    }
    fn f64_raw(&mut self) -> f64 {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.u8();
        }
        f64::from_le_bytes(b)
    }
    /// A coordinate: mostly on a 1/16 m grid (exact touching and collinear cases), sometimes
    /// arbitrary small offsets, rarely raw bits (NaN, infinities, huge, subnormal).
    fn coord(&mut self) -> f64 {
        match self.u8() % 16 {
            0 => self.f64_raw(),
            1..=4 => self.i16() as f64 / 16.0 + self.i16() as f64 * 1e-9,
            _ => (self.i16() % 512) as f64 / 16.0,
        }
    }
    fn size(&mut self) -> f64 {
        (self.u8() as f64 + 1.0) / 32.0
    }
}

fn polygon(id: u32, r: &mut Bytes) -> SourcePolygon {
    let kind = if r.u8() % 5 == 0 {
        Solidity::OneWay
    } else {
        Solidity::Solid
    };
    let n = 3 + (r.u8() % 6) as usize;
    let points = match r.u8() % 4 {
        // Raw points: mostly invalid (self-intersecting, degenerate); exercises validation.
        0 => (0..n).map(|_| DVec2::new(r.coord(), r.coord())).collect(),
        // Axis-aligned rectangle on the grid (tiles: edges and corners coincide exactly).
        1 => {
            let (x, y) = ((r.i16() % 256) as f64 / 8.0, (r.i16() % 256) as f64 / 8.0);
            let (w, h) = (r.size() * 4.0, r.size() * 4.0);
            vec![
                DVec2::new(x, y),
                DVec2::new(x + w, y),
                DVec2::new(x + w, y + h),
                DVec2::new(x, y + h),
            ]
        }
        // Star-shaped around a centre: always simple, often concave.
        _ => {
            let c = DVec2::new(r.coord(), r.coord());
            let mut acc = 0.0;
            let steps: Vec<f64> = (0..n).map(|_| r.u8() as f64 + 1.0).collect();
            let total: f64 = steps.iter().sum::<f64>() * 1.0001;
            steps
                .iter()
                .map(|s| {
                    acc += s;
                    let t = acc / total * std::f64::consts::TAU;
                    c + DVec2::new(t.cos(), t.sin()) * (r.size() * 2.0)
                })
                .collect()
        }
    };
    SourcePolygon {
        id: PolygonId(id),
        kind,
        points,
    }
}

fn collider(r: &mut Bytes) -> ColliderShape {
    let (w, h) = (r.size() * 2.0, r.size() * 2.0);
    match r.u8() % 8 {
        0..=2 => ColliderShape::Box {
            width: w,
            height: h,
        },
        3..=4 => ColliderShape::ChamferedBox {
            width: w,
            height: h,
            chamfer: w.min(h) * (r.u8() as f64 / 520.0),
        },
        5..=6 => ColliderShape::Diamond {
            width: w,
            height: h,
        },
        _ => ColliderShape::Convex {
            points: (0..3 + r.u8() % 4)
                .map(|_| DVec2::new(r.coord() / 8.0, r.coord() / 8.0))
                .collect(),
        },
    }
}

fn dist_to_triangle(p: DVec2, t: [DVec2; 3]) -> f64 {
    if (0..3).all(|i| (t[(i + 1) % 3] - t[i]).perp_dot(p - t[i]) >= 0.0) {
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

fuzz_target!(|data: &[u8]| {
    let mut r = Bytes(data);
    let offset = match r.u8() % 4 {
        0 => DVec2::new(1e5, 1e5),
        1 => DVec2::new(-1e5, 3.25e4),
        _ => DVec2::ZERO,
    };
    let shape = collider(&mut r);
    let count = 1 + (r.u8() % 6) as u32;
    let polys: Vec<SourcePolygon> = (0..count)
        .map(|i| {
            let mut p = polygon(i, &mut r);
            for q in &mut p.points {
                *q += offset;
            }
            p
        })
        .collect();
    let debug = std::env::var_os("FUZZ_DEBUG").is_some();
    if debug {
        eprintln!("polygons: {polys:?}\ncollider: {shape:?}");
    }
    let mesh = match build_mesh(&polys, &shape, &MeshConfig::default()) {
        Ok(m) => m,
        Err(BuildError::Geometry(_)) => return,
        Err(e) => panic!("valid input refused: {e}\n{polys:?}\n{shape:?}"),
    };
    if let Err(e) = mesh.check_invariants() {
        panic!("invariant violated: {e}");
    }
    for _ in 0..2 {
        let start = offset + DVec2::new(r.coord(), r.coord());
        if debug {
            eprintln!("start {start:?}");
        }
        let Some((mut body, _)) = mesh.nearest_free_point(start) else {
            continue;
        };
        for _ in 0..4 {
            let d = DVec2::new(r.coord(), r.coord());
            let opts = MoveOptions {
                pass_one_way: r.u8() % 4 == 0,
            };
            if debug {
                eprintln!("move {body:?} by {d:?} {opts:?}");
            }
            let res = mesh.move_and_slide(body, d, opts);
            let b = res.body;
            assert_ne!(res.end, MoveEnd::StepLimit, "step limit: {body:?} + {d:?}");
            assert_ne!(mesh.kind(b.face), FaceKind::Solid, "in a solid face: {body:?} + {d:?}");
            let off = dist_to_triangle(b.pos, mesh.triangle(b.face));
            assert!(
                off <= 1e-9 + 1e-13 * b.pos.abs().max_element(),
                "{off} m off its face: {body:?} + {d:?} -> {b:?}"
            );
            if d.is_finite() {
                assert!(res.travelled <= d.length() * (1.0 + 1e-9) + 1e-9);
            }
            body = b;
        }
    }
});
