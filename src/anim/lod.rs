//! Levels of detail of a skinned mesh: coarser copies for characters drawn small, each with the
//! geometric error it was made with, so the renderer draws the coarsest one whose error stays
//! under a fraction of a pixel ([`Lod::error`] × pixels per mesh unit).
//!
//! # Why
//! A character of 10 000 triangles drawn 90 pixels tall puts several triangles on every pixel it
//! covers; a CPU rasteriser (lavapipe) pays for each of them twice (the shadow and the lit pass),
//! about 5 ms per 10 000 skinned triangles (BENCHMARKS.md, "A crowd of characters"). The pixels
//! would not change if the triangles were fewer.
//!
//! # How
//! Garland and Heckbert's quadric error metric with half-edge collapses: vertices are welded by
//! position; each welded vertex sums the squared distances to the planes of its triangles (area
//! weighted), plus planes through border edges perpendicular to their triangle (so an open
//! border keeps its place); the cheapest collapse of a vertex onto a neighbour goes first. A
//! collapse is refused when it would flip a triangle, or when the two vertices share a neighbour
//! that no triangle of their edge holds (the link condition: it would pinch the surface). A
//! half-edge collapse moves no vertex, so every level is made of the mesh's own positions and
//! skin weights; each corner keeps its own colour and texture coordinates, and its normal
//! (recomputed per triangle for a flat-shaded mesh, one whose vertices all carry their
//! triangle's normal).
//!
//! A level's error (mesh units) is measured after it is made: the largest distance from a vertex
//! of the original mesh to the level's triangles. Collapses go in order of quadric cost, and stop at a cost of
//! [`MAX_RELATIVE_ERROR`]. A planar region simplifies at error 0 (a subdivided low-poly model
//! returns to its low-poly self).
//!
//! Never depends on the renderer: plain data in, plain data out.
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use glam::DVec3;

use super::model::SkinnedMesh;

/// A mesh with fewer triangles than this gets no coarser levels (the campaign's figures have
/// about 300: drawing them costs less than choosing).
pub const MIN_TRIANGLES: usize = 1000;
/// Levels stop at this error, as a fraction of the mesh's bounding-box diagonal: coarser ones
/// would only serve characters a few pixels tall.
pub const MAX_RELATIVE_ERROR: f64 = 0.02;
/// Levels stop at this many triangles.
pub const FLOOR_TRIANGLES: usize = 64;
/// A mesh is flat-shaded when this fraction of its corners carry their triangle's normal
/// (within [`FLAT_NORMAL_COS`]).
const FLAT_FRACTION: f64 = 0.95;
/// Cosine between a corner's normal and its triangle's under which they differ.
const FLAT_NORMAL_COS: f32 = 0.999;
/// Cosine between a triangle's normal before and after a collapse under which the collapse is
/// refused (it would fold the triangle over: 0 is a right angle).
const FOLD_COS: f64 = 0.2;
/// Weight of a border edge's plane against its triangle's, per unit area.
const BORDER_WEIGHT: f64 = 10.0;

/// One coarser copy of a mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct Lod {
    /// The mesh, with its own vertices (positions and skin weights are the original mesh's).
    pub mesh: SkinnedMesh,
    /// The largest distance (mesh units) from a vertex of the original mesh to this level's
    /// surface (see the module docs).
    pub error: f32,
}

/// The coarser levels of `mesh`, each with about half the triangles of the one before, finest
/// first; none for a mesh of fewer than [`MIN_TRIANGLES`] triangles.
pub fn chain(mesh: &SkinnedMesh) -> Vec<Lod> {
    let triangles = mesh.indices.len() / 3;
    if triangles < MIN_TRIANGLES {
        return Vec::new();
    }
    let mut s = Simplifier::new(mesh);
    let max_error = MAX_RELATIVE_ERROR * s.diagonal;
    let mut levels = Vec::new();
    let mut target = triangles / 2;
    while target >= FLOOR_TRIANGLES {
        if !s.collapse_to(target, max_error) {
            break;
        }
        levels.push(Lod {
            mesh: s.mesh(),
            error: s.measured_error() as f32,
        });
        target = s.alive_triangles / 2;
    }
    levels
}

/// A symmetric 4×4 quadric (the upper triangle: a², ab, ac, ad, b², bc, bd, c², cd, d²).
#[derive(Clone, Copy, Debug, Default)]
struct Quadric([f64; 10]);

impl Quadric {
    /// `weight` × the squared distance to the plane through `p` with unit normal `n`.
    fn plane(n: DVec3, p: DVec3, weight: f64) -> Quadric {
        let d = -n.dot(p);
        let [a, b, c] = n.to_array();
        Quadric(
            [
                a * a,
                a * b,
                a * c,
                a * d,
                b * b,
                b * c,
                b * d,
                c * c,
                c * d,
                d * d,
            ]
            .map(|x| x * weight),
        )
    }

    fn add(&mut self, o: &Quadric) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }

    fn sum(a: &Quadric, b: &Quadric) -> Quadric {
        let mut q = *a;
        q.add(b);
        q
    }

    /// The quadric's value at `p` (never negative but for rounding).
    fn at(&self, p: DVec3) -> f64 {
        let q = &self.0;
        let (x, y, z) = (p.x, p.y, p.z);
        let v = q[0] * x * x
            + 2.0 * q[1] * x * y
            + 2.0 * q[2] * x * z
            + 2.0 * q[3] * x
            + q[4] * y * y
            + 2.0 * q[5] * y * z
            + 2.0 * q[6] * y
            + q[7] * z * z
            + 2.0 * q[8] * z
            + q[9];
        v.max(0.0)
    }
}

/// A queued collapse: the cost's bits (costs are not negative, so their bits order as they
/// do), the position moved, the one it moves onto, and both positions' versions when queued.
type Collapse = (u64, u32, u32, u32, u32);

struct Simplifier<'a> {
    source: &'a SkinnedMesh,
    /// Welded positions and their quadrics.
    pos: Vec<DVec3>,
    quadric: Vec<Quadric>,
    /// Per welded position: an original vertex there (its skin weights are the position's).
    rep: Vec<u32>,
    /// Bumped when a position's neighbourhood changes: queued collapses of an older version
    /// are stale.
    version: Vec<u32>,
    removed: Vec<bool>,
    /// Per triangle: welded positions and the original vertex of each corner.
    tri_pos: Vec<[u32; 3]>,
    tri_vertex: Vec<[u32; 3]>,
    alive: Vec<bool>,
    alive_triangles: usize,
    /// Per welded position: the triangles that use it (dead ones left in until rebuilt).
    incident: Vec<Vec<u32>>,
    heap: BinaryHeap<Reverse<Collapse>>,
    flat: bool,
    diagonal: f64,
}

impl<'a> Simplifier<'a> {
    fn new(mesh: &'a SkinnedMesh) -> Self {
        let mut weld: HashMap<[u32; 3], u32> = HashMap::new();
        let mut pos = Vec::new();
        let mut rep = Vec::new();
        let welded: Vec<u32> = mesh
            .positions
            .iter()
            .enumerate()
            .map(|(v, p)| {
                *weld.entry(p.map(f32::to_bits)).or_insert_with(|| {
                    pos.push(DVec3::from_array(p.map(f64::from)));
                    rep.push(v as u32);
                    (pos.len() - 1) as u32
                })
            })
            .collect();
        let tri_vertex: Vec<[u32; 3]> = mesh
            .indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect();
        let tri_pos: Vec<[u32; 3]> = tri_vertex
            .iter()
            .map(|t| t.map(|v| welded[v as usize]))
            .collect();
        let (lo, hi) = pos.iter().fold(
            (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let mut s = Simplifier {
            source: mesh,
            quadric: vec![Quadric::default(); pos.len()],
            version: vec![0; pos.len()],
            removed: vec![false; pos.len()],
            incident: vec![Vec::new(); pos.len()],
            alive: vec![true; tri_pos.len()],
            alive_triangles: tri_pos.len(),
            heap: BinaryHeap::new(),
            flat: is_flat(mesh),
            diagonal: (hi - lo).length().max(f64::MIN_POSITIVE),
            pos,
            rep,
            tri_pos,
            tri_vertex,
        };
        let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
        for (t, tp) in s.tri_pos.iter().enumerate() {
            let [a, b, c] = tp.map(|p| s.pos[p as usize]);
            let cross = (b - a).cross(c - a);
            let area = cross.length() / 2.0;
            if tp[0] == tp[1] || tp[1] == tp[2] || tp[0] == tp[2] || area == 0.0 {
                s.alive[t] = false;
                s.alive_triangles -= 1;
                continue;
            }
            let q = Quadric::plane(cross.normalize(), a, area);
            for &p in tp {
                s.quadric[p as usize].add(&q);
                s.incident[p as usize].push(t as u32);
            }
            for k in 0..3 {
                let (u, v) = (tp[k], tp[(k + 1) % 3]);
                *edges.entry((u.min(v), u.max(v))).or_insert(0) += 1;
            }
        }
        // Border edges (one triangle): a plane through the edge, perpendicular to its triangle.
        for (t, tp) in s.tri_pos.iter().enumerate() {
            if !s.alive[t] {
                continue;
            }
            let [a, b, c] = tp.map(|p| s.pos[p as usize]);
            let n = (b - a).cross(c - a);
            for k in 0..3 {
                let (u, v) = (tp[k], tp[(k + 1) % 3]);
                if edges[&(u.min(v), u.max(v))] != 1 {
                    continue;
                }
                let (pu, pv) = (s.pos[u as usize], s.pos[v as usize]);
                let side = (pv - pu).cross(n).normalize_or_zero();
                if side == DVec3::ZERO {
                    continue;
                }
                let q = Quadric::plane(side, pu, BORDER_WEIGHT * (pv - pu).length_squared());
                s.quadric[u as usize].add(&q);
                s.quadric[v as usize].add(&q);
            }
        }
        let mut keys: Vec<(u32, u32)> = edges.into_keys().collect();
        keys.sort_unstable();
        for (u, v) in keys {
            s.push(u, v);
        }
        s
    }

    /// Queues the cheaper direction of collapsing the edge `u`–`v`.
    fn push(&mut self, u: u32, v: u32) {
        let q = Quadric::sum(&self.quadric[u as usize], &self.quadric[v as usize]);
        let (cu, cv) = (q.at(self.pos[v as usize]), q.at(self.pos[u as usize]));
        // (from, onto): `cu` moves u onto v.
        let (from, onto, cost) = if cu <= cv { (u, v, cu) } else { (v, u, cv) };
        self.heap.push(Reverse((
            cost.to_bits(),
            from,
            onto,
            self.version[from as usize],
            self.version[onto as usize],
        )));
    }

    /// The triangles alive around welded position `p`.
    fn around(&self, p: u32) -> impl Iterator<Item = u32> + '_ {
        self.incident[p as usize]
            .iter()
            .copied()
            .filter(|&t| self.alive[t as usize])
    }

    fn neighbours(&self, p: u32) -> Vec<u32> {
        let mut n: Vec<u32> = self
            .around(p)
            .flat_map(|t| self.tri_pos[t as usize])
            .filter(|&q| q != p)
            .collect();
        n.sort_unstable();
        n.dedup();
        n
    }

    /// Whether collapsing `from` onto `onto` keeps the surface a surface and folds nothing.
    fn can_collapse(&self, from: u32, onto: u32) -> bool {
        let mut across: Vec<u32> = self
            .around(from)
            .filter(|&t| self.tri_pos[t as usize].contains(&onto))
            .flat_map(|t| self.tri_pos[t as usize])
            .filter(|&q| q != from && q != onto)
            .collect();
        across.sort_unstable();
        across.dedup();
        let nf = self.neighbours(from);
        let no = self.neighbours(onto);
        let shared = nf.iter().filter(|q| no.binary_search(q).is_ok()).count();
        if shared != across.len() {
            return false;
        }
        let target = self.pos[onto as usize];
        self.around(from)
            .filter(|&t| !self.tri_pos[t as usize].contains(&onto))
            .all(|t| {
                let p = self.tri_pos[t as usize].map(|q| self.pos[q as usize]);
                let moved = self.tri_pos[t as usize].map(|q| {
                    if q == from {
                        target
                    } else {
                        self.pos[q as usize]
                    }
                });
                let before = (p[1] - p[0]).cross(p[2] - p[0]);
                let after = (moved[1] - moved[0]).cross(moved[2] - moved[0]);
                let (lb, la) = (before.length(), after.length());
                la > 0.0 && before.dot(after) > FOLD_COS * lb * la
            })
    }

    /// Collapses until at most `target` triangles are alive. False when the collapses left
    /// within `max_error` run out first (nothing is then collapsed past that error).
    fn collapse_to(&mut self, target: usize, max_error: f64) -> bool {
        while self.alive_triangles > target {
            let Some(Reverse((cost, from, onto, vf, vo))) = self.heap.pop() else {
                return false;
            };
            let (f, o) = (from as usize, onto as usize);
            if self.removed[f] || self.removed[o] || self.version[f] != vf || self.version[o] != vo
            {
                continue;
            }
            let error = f64::from_bits(cost).sqrt();
            if error > max_error {
                self.heap.push(Reverse((cost, from, onto, vf, vo)));
                return false;
            }
            if !self.can_collapse(from, onto) {
                continue;
            }
            self.apply(from, onto);
        }
        true
    }

    fn apply(&mut self, from: u32, onto: u32) {
        let tris: Vec<u32> = self.around(from).collect();
        for t in tris {
            let tp = &mut self.tri_pos[t as usize];
            if tp.contains(&onto) {
                self.alive[t as usize] = false;
                self.alive_triangles -= 1;
            } else {
                for q in tp.iter_mut() {
                    if *q == from {
                        *q = onto;
                    }
                }
                self.incident[onto as usize].push(t);
            }
        }
        let q = self.quadric[from as usize];
        self.quadric[onto as usize].add(&q);
        self.removed[from as usize] = true;
        self.incident[from as usize].clear();
        let alive = &self.alive;
        self.incident[onto as usize].retain(|&t| alive[t as usize]);
        // Only the edges of `onto` changed cost (its quadric grew); queued collapses of other
        // edges keep theirs, and are checked again when they come up.
        self.version[onto as usize] += 1;
        for n in self.neighbours(onto) {
            self.push(onto.min(n), onto.max(n));
        }
    }

    /// The largest distance from an original position to the simplified surface: a one-sided
    /// Hausdorff distance taken at the vertices. (The quadric cost is not one: it measures a
    /// kept vertex against the old planes, not the old vertices against the new triangles.)
    fn measured_error(&self) -> f64 {
        // The alive triangles in a grid of cubes: a triangle within one cube's side of a point
        // overlaps one of the 27 cubes around the point's.
        let cell = self.diagonal / 32.0;
        let key = |p: DVec3| (p / cell).floor().to_array().map(|c| c as i32);
        let mut grid: HashMap<[i32; 3], Vec<u32>> = HashMap::new();
        let alive: Vec<u32> = (0..self.tri_pos.len() as u32)
            .filter(|&t| self.alive[t as usize])
            .collect();
        let corners = |t: u32| self.tri_pos[t as usize].map(|q| self.pos[q as usize]);
        for &t in &alive {
            let c = corners(t);
            let lo = key(c[0].min(c[1]).min(c[2]));
            let hi = key(c[0].max(c[1]).max(c[2]));
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        grid.entry([x, y, z]).or_default().push(t);
                    }
                }
            }
        }
        let mut worst = 0.0f64;
        for (p, &at) in self.pos.iter().enumerate() {
            if !self.removed[p] {
                continue; // a kept vertex is on the surface
            }
            let k = key(at);
            // Only the largest distance matters: a point within it of some triangle is done.
            let enough = worst.max(1e-9 * self.diagonal);
            let mut best = f64::INFINITY;
            // Its own cube first (where the triangles it lies on are), then the 26 around.
            let offsets = std::iter::once([0, 0, 0]).chain(
                (0..27)
                    .map(|i| [i % 3 - 1, i / 3 % 3 - 1, i / 9 - 1])
                    .filter(|o| *o != [0, 0, 0]),
            );
            'search: for [dx, dy, dz] in offsets {
                let near = grid.get(&[k[0] + dx, k[1] + dy, k[2] + dz]);
                for &t in near.into_iter().flatten() {
                    best = best.min(point_triangle(at, corners(t)));
                    if best <= enough {
                        break 'search;
                    }
                }
            }
            if best > cell {
                best = alive
                    .iter()
                    .map(|&t| point_triangle(at, corners(t)))
                    .fold(f64::INFINITY, f64::min);
            }
            worst = worst.max(best);
        }
        worst
    }

    /// The alive triangles as a mesh: each corner takes its position's position and skin
    /// weights, and its own colour, texture coordinates and normal (its triangle's for a
    /// flat-shaded mesh).
    fn mesh(&self) -> SkinnedMesh {
        let src = self.source;
        let mut out = SkinnedMesh::default();
        let mut index: HashMap<(u32, u32), u32> = HashMap::new();
        for t in (0..self.tri_pos.len()).filter(|&t| self.alive[t]) {
            let tp = self.tri_pos[t];
            let face = {
                let [a, b, c] = tp.map(|p| self.pos[p as usize]);
                (b - a)
                    .cross(c - a)
                    .normalize_or_zero()
                    .as_vec3()
                    .to_array()
            };
            for (k, (&p, &v)) in tp.iter().zip(&self.tri_vertex[t]).enumerate() {
                // A flat mesh's corners are its triangles' own; a smooth one's are shared.
                let key = if self.flat {
                    (t as u32, k as u32)
                } else {
                    (p, v)
                };
                let next = out.positions.len() as u32;
                let i = *index.entry(key).or_insert_with(|| {
                    let (r, v) = (self.rep[p as usize] as usize, v as usize);
                    out.positions.push(src.positions[r]);
                    out.joints.push(src.joints[r]);
                    out.weights.push(src.weights[r]);
                    out.normals
                        .push(if self.flat { face } else { src.normals[v] });
                    out.colours.push(src.colours[v]);
                    out.uvs.push(src.uvs[v]);
                    next
                });
                out.indices.push(i);
            }
        }
        out
    }
}

/// Distance from `p` to the triangle `[a, b, c]` (not degenerate).
fn point_triangle(p: DVec3, [a, b, c]: [DVec3; 3]) -> f64 {
    let n = (b - a).cross(c - a).normalize();
    let q = p - n * n.dot(p - a);
    let edges = [(a, b), (b, c), (c, a)];
    if edges
        .iter()
        .all(|&(u, v)| (v - u).cross(q - u).dot(n) >= 0.0)
    {
        return (p - q).length();
    }
    edges
        .iter()
        .map(|&(u, v)| {
            let t = ((p - u).dot(v - u) / (v - u).length_squared()).clamp(0.0, 1.0);
            (p - (u + (v - u) * t)).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Whether (nearly) every corner of `mesh` carries its triangle's normal.
fn is_flat(mesh: &SkinnedMesh) -> bool {
    let p = |i: u32| glam::Vec3::from_array(mesh.positions[i as usize]);
    let (mut flat, mut all) = (0usize, 0usize);
    for t in mesh.indices.chunks_exact(3) {
        let n = (p(t[1]) - p(t[0]))
            .cross(p(t[2]) - p(t[0]))
            .normalize_or_zero();
        for &v in t {
            all += 1;
            if glam::Vec3::from_array(mesh.normals[v as usize]).dot(n) > FLAT_NORMAL_COS {
                flat += 1;
            }
        }
    }
    all > 0 && flat as f64 >= FLAT_FRACTION * all as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Model, HERO_GLB};
    use glam::Vec3;

    /// A mesh of `tris` (positions), smooth (`normal` per position) or flat, one joint.
    fn mesh_of(tris: &[[Vec3; 3]], normal: Option<&dyn Fn(Vec3) -> Vec3>) -> SkinnedMesh {
        let mut m = SkinnedMesh::default();
        let mut index: HashMap<[u32; 3], u32> = HashMap::new();
        for t in tris {
            let face = (t[1] - t[0]).cross(t[2] - t[0]).normalize();
            for p in t {
                let key = p.to_array().map(f32::to_bits);
                let next = m.positions.len() as u32;
                let i = match normal {
                    Some(_) => *index.entry(key).or_insert(next),
                    None => next,
                };
                if i == next {
                    m.positions.push(p.to_array());
                    m.normals.push(normal.map_or(face, |n| n(*p)).to_array());
                    m.colours.push([1.0; 3]);
                    m.joints.push([0; 4]);
                    m.weights.push([1.0, 0.0, 0.0, 0.0]);
                    m.uvs.push([p.x, p.y, 0.0, 0.0]);
                }
                m.indices.push(i);
            }
        }
        m
    }

    /// Each triangle split in four at its edges' midpoints, `times` times.
    fn subdivide(tris: Vec<[Vec3; 3]>, times: usize) -> Vec<[Vec3; 3]> {
        (0..times).fold(tris, |tris, _| {
            tris.iter()
                .flat_map(|&[a, b, c]| {
                    let (ab, bc, ca) = ((a + b) / 2.0, (b + c) / 2.0, (c + a) / 2.0);
                    [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]
                })
                .collect()
        })
    }

    fn triangles(m: &SkinnedMesh) -> Vec<[Vec3; 3]> {
        m.indices
            .chunks_exact(3)
            .map(|t| [0, 1, 2].map(|k| Vec3::from_array(m.positions[t[k] as usize])))
            .collect()
    }

    /// Distance from `p` to the triangle `t` (the module's own measure, in f64).
    fn distance(p: Vec3, t: [Vec3; 3]) -> f32 {
        point_triangle(p.as_dvec3(), t.map(|q| q.as_dvec3())) as f32
    }

    fn check_level(original: &SkinnedMesh, lod: &Lod) {
        let m = &lod.mesh;
        let n = m.positions.len();
        assert!(m.indices.iter().all(|&i| (i as usize) < n));
        assert!([
            &m.normals.len(),
            &m.colours.len(),
            &m.joints.len(),
            &m.uvs.len()
        ]
        .iter()
        .all(|&&l| l == n));
        for t in triangles(m) {
            assert!(
                (t[1] - t[0]).cross(t[2] - t[0]).length() > 0.0,
                "degenerate"
            );
        }
        // Every position is one of the original mesh's (half-edge collapses move none).
        for p in &m.positions {
            assert!(original.positions.contains(p));
        }
    }

    #[test]
    fn a_small_mesh_gets_no_levels() {
        let hero = Model::from_glb(HERO_GLB).unwrap();
        assert!(hero.mesh.indices.len() / 3 < MIN_TRIANGLES);
        assert!(chain(&hero.mesh).is_empty());
    }

    #[test]
    fn a_subdivided_model_returns_to_its_own_triangles_at_no_error() {
        // The hero (flat-shaded, 276 triangles) split twice into 4 416 coplanar triangles.
        let hero = Model::from_glb(HERO_GLB).unwrap();
        let base = triangles(&hero.mesh);
        let fine = mesh_of(&subdivide(base.clone(), 2), None);
        assert_eq!(fine.indices.len() / 3, base.len() * 16);
        let levels = chain(&fine);
        let lossless: Vec<&Lod> = levels.iter().filter(|l| l.error < 1e-5).collect();
        let last = lossless.last().expect("a level at no error");
        let count = last.mesh.indices.len() / 3;
        assert!(
            count <= base.len() * 2,
            "{count} triangles at no error, from {} (the hero has {})",
            fine.indices.len() / 3,
            base.len()
        );
        for l in &levels {
            check_level(&fine, l);
        }
        // Flat-shaded in, flat-shaded out: every corner carries its triangle's normal.
        assert!(is_flat(&last.mesh));
        // Every vertex of the fine mesh is still on the simplified surface.
        let surface = triangles(&last.mesh);
        for p in &fine.positions {
            let p = Vec3::from_array(*p);
            let d = surface
                .iter()
                .map(|&t| distance(p, t))
                .fold(f32::MAX, f32::min);
            assert!(d < 1e-4, "{p} is {d} m off the simplified surface");
        }
    }

    #[test]
    fn a_sphere_loses_triangles_level_by_level_within_its_errors() {
        let ring = |i: usize, j: usize| {
            // Exact poles and seam, so the sphere is closed.
            if i == 0 || i == 24 {
                return Vec3::new(0.0, if i == 0 { 1.0 } else { -1.0 }, 0.0);
            }
            let j = j % 48;
            let (th, ph) = (
                std::f32::consts::PI * i as f32 / 24.0,
                std::f32::consts::TAU * j as f32 / 48.0,
            );
            Vec3::new(th.sin() * ph.cos(), th.cos(), th.sin() * ph.sin())
        };
        let mut tris = Vec::new();
        for i in 0..24 {
            for j in 0..48 {
                let (a, b, c, d) = (
                    ring(i, j),
                    ring(i + 1, j),
                    ring(i + 1, j + 1),
                    ring(i, j + 1),
                );
                if i != 23 {
                    tris.push([a, c, b]);
                }
                if i != 0 {
                    tris.push([a, d, c]);
                }
            }
        }
        let sphere = mesh_of(&tris, Some(&|p: Vec3| p.normalize()));
        let levels = chain(&sphere);
        assert!(levels.len() >= 2, "{} levels", levels.len());
        let mut last = (sphere.indices.len() / 3, 0.0f32);
        for l in &levels {
            check_level(&sphere, l);
            let count = l.mesh.indices.len() / 3;
            assert!(
                count <= last.0 / 2 + 1 && l.error >= last.1,
                "{count} after {last:?}"
            );
            last = (count, l.error);
            // The sphere's vertices are within the level's error of its surface.
            let surface = triangles(&l.mesh);
            for p in &sphere.positions {
                let p = Vec3::from_array(*p);
                let d = surface
                    .iter()
                    .map(|&t| distance(p, t))
                    .fold(f32::MAX, f32::min);
                assert!(d <= l.error + 1e-5, "{p}: {d} against error {}", l.error);
            }
            // A closed surface stays closed: every edge has two triangles.
            let mut edges: HashMap<(u32, u32), i32> = HashMap::new();
            let weld = |i: u32| {
                l.mesh
                    .positions
                    .iter()
                    .position(|q| *q == l.mesh.positions[i as usize])
                    .unwrap() as u32
            };
            for t in l.mesh.indices.chunks_exact(3) {
                for k in 0..3 {
                    let (u, v) = (weld(t[k]), weld(t[(k + 1) % 3]));
                    *edges.entry((u.min(v), u.max(v))).or_insert(0) += 1;
                }
            }
            assert!(edges.values().all(|&n| n == 2), "an open or pinched edge");
        }
    }
}
