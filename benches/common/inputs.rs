//! Deterministic inputs shared by the benches (`collision`, `instruction_counts`), included by
//! each with `#[path]`: the sizes, speeds and seed of their workloads, a tiny generator (so the
//! levels never change with a dependency), the axis-aligned rectangle the bench levels are made
//! of, the colliders and tuning of the hero benches, and the spawn point in a level's largest
//! free region.
use glam::DVec2;
use tessera::collision::{
    cross, Aabb, Body, ColliderShape, CollisionMesh, EdgeRef, FaceKind, Location, PolygonId,
    Solidity, SourcePolygon,
};
use tessera::movement::Tuning;

/// Fixed timestep, s.
pub const DT: f64 = 1.0 / 120.0;
/// Running speed on the floor, m/s.
pub const RUN_SPEED: f64 = 8.0;
/// Gravity, m/s² (the shipped tuning's).
pub const GRAVITY: f64 = 32.0;
/// Length of one random-walk move, m (8.4 m/s at 120 Hz).
pub const WALK_STEP: f64 = 0.07;
/// Floor tiles in the floor scenario (the bridge).
pub const FLOOR_TILES: usize = 400;
/// Seed of every pseudo-random level, walk and input.
pub const SEED: u64 = 0x7E55_E4A0_2D00_0003;
/// Collider size (width, height) in every engine, m.
pub const COLLIDER: (f64, f64) = (0.8, 1.8);
/// Crouching collider size, m.
pub const CROUCH_COLLIDER: (f64, f64) = (0.8, 1.0);

/// SplitMix64: a tiny deterministic generator.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The solid rectangle from `(x0, y0)` to `(x1, y1)` as source polygon `id`.
pub fn rect(id: usize, x0: f64, y0: f64, x1: f64, y1: f64) -> SourcePolygon {
    SourcePolygon {
        id: PolygonId(id as u32),
        kind: Solidity::Solid,
        points: vec![
            DVec2::new(x0, y0),
            DVec2::new(x1, y0),
            DVec2::new(x1, y1),
            DVec2::new(x0, y1),
        ],
    }
}

/// A box collider of `size` (width, height), m.
pub fn box_collider(size: (f64, f64)) -> ColliderShape {
    ColliderShape::Box {
        width: size.0,
        height: size.1,
    }
}

/// Tuning for the hero benches: shipped defaults with box colliders of the same size as the raw
/// moves and Rapier use, so all contenders move the same shape through the same geometry.
pub fn hero_tuning(top_down: bool) -> Tuning {
    Tuning {
        stand_collider: box_collider(COLLIDER),
        crouch_collider: box_collider(CROUCH_COLLIDER),
        top_down,
        ..Tuning::default()
    }
}

/// A free spot in the largest free region of `mesh` (by area): the centroid of its largest
/// triangle. Returns the spot, the region's area (m²) and its face count. A region is the faces
/// joined across non-constraint edges (found here by a flood fill, numbered by their first face).
pub fn spawn_in_largest_region(mesh: &CollisionMesh) -> (DVec2, f64, usize) {
    let mut label = vec![u32::MAX; mesh.num_faces()];
    for start in mesh.face_ids() {
        if mesh.kind(start) != FaceKind::Free || label[start.0 as usize] != u32::MAX {
            continue;
        }
        label[start.0 as usize] = start.0;
        let mut stack = vec![start];
        while let Some(f) = stack.pop() {
            for i in 0..3u8 {
                let g = mesh.face(f).adj[i as usize];
                let e = EdgeRef { face: f, edge: i };
                if g.0 != 0 && !mesh.is_constraint(e) && label[g.0 as usize] == u32::MAX {
                    label[g.0 as usize] = start.0;
                    stack.push(g);
                }
            }
        }
    }
    // region -> (area, faces, best face centroid, best face area)
    let mut regions: std::collections::BTreeMap<u32, (f64, usize, DVec2, f64)> = Default::default();
    for f in mesh.face_ids() {
        if mesh.kind(f) != FaceKind::Free {
            continue;
        }
        let [a, b, c] = mesh.triangle(f);
        let area = cross(b - a, c - a) / 2.0;
        let r = regions
            .entry(label[f.0 as usize])
            .or_insert((0.0, 0, a, f64::NEG_INFINITY));
        r.0 += area;
        r.1 += 1;
        if area > r.3 {
            r.2 = (a + b + c) / 3.0;
            r.3 = area;
        }
    }
    let best = regions
        .into_iter()
        .max_by(|x, y| x.1 .0.total_cmp(&y.1 .0).then(y.0.cmp(&x.0)))
        .expect("a free region");
    (best.1 .2, best.1 .0, best.1 .1)
}

/// The free body at `p` (a bench's spawn must be free).
pub fn locate_free(mesh: &CollisionMesh, p: DVec2) -> Body {
    match mesh.locate(p, None) {
        Location::Free(b) => b,
        other => panic!("spawn {p:?} is not free: {other:?}"),
    }
}

/// `n` separate unit tiles side by side: x in `[0, n]`, top at y = 0.
pub fn floor_tiles(n: usize) -> Vec<SourcePolygon> {
    (0..n)
        .map(|i| rect(i, i as f64, -1.0, i as f64 + 1.0, 0.0))
        .collect()
}

/// `n` unit tiles on distinct cells of a square grid filled to 25 % (200 × 200 for 10 000),
/// shuffled from `seed`; returns them and the grid's side, m.
pub fn scatter_tiles(n: usize, seed: u64) -> (Vec<SourcePolygon>, f64) {
    let side = ((4 * n) as f64).sqrt().ceil() as usize;
    let mut cells: Vec<u32> = (0..(side * side) as u32).collect();
    let mut rng = Rng(seed);
    for i in 0..n {
        let j = i + rng.below((cells.len() - i) as u64) as usize;
        cells.swap(i, j);
    }
    let polygons = cells[..n]
        .iter()
        .enumerate()
        .map(|(id, &c)| {
            let (x, y) = ((c as usize % side) as f64, (c as usize / side) as f64);
            rect(id, x, y, x + 1.0, y + 1.0)
        })
        .collect();
    (polygons, side as f64)
}

/// Where the standing collider's feet may go in a scatter grid of side `s`: the collider inside
/// the grid square.
pub fn scatter_feet_bounds(s: f64) -> Aabb {
    let (hw, h) = (COLLIDER.0 / 2.0, COLLIDER.1);
    Aabb {
        min: DVec2::new(hw, 0.0),
        max: DVec2::new(s - hw, s - h),
    }
}
