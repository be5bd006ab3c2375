//! Point location: which face contains a point, and the nearest free point to a blocked one.
//!
//! The mesh keeps no triangulation beside its flat face array (the build triangulates in that
//! array: `cdt`). A point is found by a *remembering
//! stochastic visibility walk* (Devillers, Pion and Teillaud, "Walking in a triangulation", 2002):
//! from a start face, cross an edge whose line has the point strictly on its far side, trying the
//! three edges in a pseudo-random order, until no edge does. Every side test is the exact
//! [`orient`], so the face found contains the point in exact arithmetic. In a Delaunay
//! triangulation a deterministic walk always ends; in a constrained one it can circle, which the
//! random order breaks (it ends with probability one). The order comes from a fixed generator
//! seeded by the point, so the same call walks the same faces in every run, and after
//! [`WALK_LIMIT_PER_FACE`] steps per face the walk gives up for an exact scan of every face: the
//! answer never depends on luck, only the time.
//!
//! The start face is the caller's hint, or the seed of the point's cell in a coarse grid over
//! the mesh (about [`FACES_PER_SEED`] faces per cell, 4 bytes each), so a walk without a hint
//! crosses a few faces, not the width of the level.
//!
//! On an edge or a vertex the point is in several closed faces: every one of them is a
//! candidate, and the least blocked wins (a point on a wall is free), the smallest face id among
//! equals. So the answer does not depend on the path the walk took.
use glam::DVec2;

use super::mesh::{CollisionMesh, EdgeRef, Face, FaceId, FaceKind};
use super::predicates::{closest_on_segment, orient, Aabb};
use super::walk::{Body, MoveOptions};

/// Where a point landed on a mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Location {
    /// In a face a body may occupy (free or one-way); on a shared edge or vertex, the free face.
    Free(Body),
    /// Only in solid faces (inside an inflated obstacle, or outside the bounds).
    Solid(FaceId),
    /// Outside the triangulation altogether.
    Outside,
}

fn rank(k: FaceKind) -> u8 {
    match k {
        FaceKind::Free => 0,
        FaceKind::OneWay => 1,
        FaceKind::Solid => 2,
    }
}

/// The faces holding a point: one inside a face, two on an edge, a vertex's fan (no allocation
/// below nine: `locate` runs every time a body changes collider).
type Around = smallvec::SmallVec<[FaceId; 8]>;

/// Faces per cell of the seed grid (on average): the walk from a seed crosses about the square
/// root of this many faces.
pub(crate) const FACES_PER_SEED: usize = 4;

/// Walk steps allowed per face of the mesh before the walk gives up for an exact scan. A walk
/// that has not ended after visiting every face several times is circling.
const WALK_LIMIT_PER_FACE: usize = 4;

/// A coarse grid over the mesh's extent: each cell holds a face near it where walks start.
#[derive(Clone, Debug)]
pub(crate) struct Seeds {
    origin: DVec2,
    /// Cells per metre along each axis.
    scale: DVec2,
    nx: usize,
    ny: usize,
    face: Vec<u32>,
}

impl Seeds {
    /// The seed of each cell: the first face (by id) whose centroid lies in it; a cell no
    /// centroid falls in (inside a large face) takes its nearest seeded predecessor in row order.
    pub(crate) fn new(vertices: &[DVec2], faces: &[Face], extent: Aabb) -> Self {
        let size = (extent.max - extent.min).max(DVec2::splat(f64::MIN_POSITIVE));
        let cells = (faces.len() / FACES_PER_SEED).clamp(1, 1 << 26) as f64;
        // Square cells where the extent allows: nx / ny follows the aspect ratio.
        let aspect = size.x / size.y;
        let nx = (cells * aspect).sqrt().clamp(1.0, cells).round() as usize;
        let ny = (cells / nx as f64).ceil().max(1.0) as usize;
        let mut seeds = Seeds {
            origin: extent.min,
            scale: DVec2::new(nx as f64, ny as f64) / size,
            nx,
            ny,
            face: vec![u32::MAX; nx * ny],
        };
        for (i, f) in faces.iter().enumerate().skip(1) {
            if f.is_unused() {
                continue;
            }
            let [a, b, c] = f.v.map(|v| vertices[v as usize]);
            let cell = seeds.cell((a + b + c) / 3.0);
            if seeds.face[cell] == u32::MAX {
                seeds.face[cell] = i as u32;
            }
        }
        let first = seeds.face.iter().copied().find(|&f| f != u32::MAX);
        let mut last = first.unwrap_or(if faces.len() > 1 { 1 } else { 0 });
        for f in &mut seeds.face {
            if *f == u32::MAX {
                *f = last;
            } else {
                last = *f;
            }
        }
        seeds
    }
    /// After a chunked mesh rebuilt some chunks: a cell seeded by a freed face (`freed`, a bit
    /// per face slot) takes one of the faces `fresh` whose centroid falls in it, else the last
    /// valid seed before it (any face is a correct start; a near one is a short walk). Reads only
    /// the cells and the bitset, not the face array.
    pub(crate) fn repair(
        &mut self,
        vertices: &[DVec2],
        faces: &[Face],
        fresh: &[u32],
        freed: &[u64],
    ) {
        let is_freed = |f: u32| {
            freed
                .get(f as usize / 64)
                .is_some_and(|w| w >> (f % 64) & 1 != 0)
        };
        for &f in fresh {
            let [a, b, c] = faces[f as usize].v.map(|v| vertices[v as usize]);
            let cell = self.cell((a + b + c) / 3.0);
            if is_freed(self.face[cell]) {
                self.face[cell] = f;
            }
        }
        let mut last = self
            .face
            .iter()
            .copied()
            .find(|&f| !is_freed(f))
            .or(fresh.first().copied())
            .unwrap_or(0);
        for f in &mut self.face {
            if is_freed(*f) {
                *f = last;
            } else {
                last = *f;
            }
        }
    }
    #[cfg(test)]
    pub(crate) fn cells(&self) -> &[u32] {
        &self.face
    }
    /// Renumbers the seeds after the face array was compacted (`map[old] = new`).
    pub(crate) fn renumber(&mut self, map: &[u32]) {
        for f in &mut self.face {
            *f = map[*f as usize];
        }
    }
    fn cell(&self, p: DVec2) -> usize {
        let c = ((p - self.origin) * self.scale).floor();
        let x = (c.x.max(0.0) as usize).min(self.nx - 1);
        let y = (c.y.max(0.0) as usize).min(self.ny - 1);
        y * self.nx + x
    }
    /// The face a walk to `p` starts from.
    pub(crate) fn start(&self, p: DVec2) -> FaceId {
        FaceId(self.face[self.cell(p)])
    }
    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.face.capacity() * 4
    }
}

impl CollisionMesh {
    /// Locates `p`, walking from the hint face (or from the seed grid's face near `p`). On an
    /// edge or a vertex the least blocked of the touching faces is chosen, so a point on a wall
    /// is free.
    pub fn locate(&self, p: DVec2, hint: Option<FaceId>) -> Location {
        // Outside every vertex's box is outside the triangulation (whose hull is the frame
        // rectangle, a box itself); checking first also keeps the walk away from huge
        // coordinates.
        if !p.is_finite() || !self.extent.contains(p) || self.faces.len() < 2 {
            return Location::Outside;
        }
        let start = hint
            .filter(|h| {
                h.0 != 0
                    && (h.0 as usize) < self.faces.len()
                    && !self.faces[h.0 as usize].is_unused()
            })
            .unwrap_or_else(|| self.seeds.start(p));
        let Some(f) = self.walk_to(p, start).or_else(|| self.scan_for(p)) else {
            return Location::Outside;
        };
        self.least_blocked(p, self.touching(p, f))
    }

    /// The location of `p` given every face whose closed triangle holds it: the least blocked
    /// bounded face, the smallest id among equals.
    fn least_blocked(&self, p: DVec2, faces: impl IntoIterator<Item = FaceId>) -> Location {
        let best = faces
            .into_iter()
            .filter(|f| f.0 != 0)
            .min_by_key(|&f| (rank(self.kind(f)), f.0));
        match best {
            Some(f) if self.kind(f) != FaceKind::Solid => Location::Free(Body { pos: p, face: f }),
            Some(f) => Location::Solid(f),
            None => Location::Outside,
        }
    }

    /// Whether `p` lies in the closed triangle `f`; `Err(i)` names an edge `i` with `p` strictly
    /// on its far side.
    fn side(&self, p: DVec2, f: FaceId, first: usize) -> Result<(), usize> {
        let [a, b, c] = self.triangle(f);
        let corners = [a, b, c];
        for k in 0..3 {
            let i = (first + k) % 3;
            if orient(corners[i], corners[(i + 1) % 3], p) < 0.0 {
                return Err(i);
            }
        }
        Ok(())
    }

    /// The remembering stochastic walk from `start` to a closed face holding `p` (see the module
    /// docs); `None` if it leaves the triangulation or exceeds its step limit.
    fn walk_to(&self, p: DVec2, start: FaceId) -> Option<FaceId> {
        // xorshift64*, seeded by the point: the same walk in every run.
        let mut state = (p.x.to_bits() ^ p.y.to_bits().rotate_left(32)) | 1;
        let mut next = move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % 3
        };
        let mut f = start;
        let limit = WALK_LIMIT_PER_FACE * self.faces.len() + 64;
        for _ in 0..limit {
            match self.side(p, f, next()) {
                Ok(()) => return Some(f),
                Err(i) => {
                    f = self.faces[f.0 as usize].adj[i];
                    if f == FaceId::OUTSIDE {
                        return None;
                    }
                }
            }
        }
        None
    }

    /// An exact scan of every face for one whose closed triangle holds `p` (the walk's
    /// fallback).
    fn scan_for(&self, p: DVec2) -> Option<FaceId> {
        self.face_ids().find(|&f| self.side(p, f, 0).is_ok())
    }

    /// Every face whose closed triangle holds `p`, given one of them, `f`: `f` alone when `p` is
    /// inside it, `f` and its neighbour when `p` is on one edge, every face around the vertex
    /// when `p` is on one.
    fn touching(&self, p: DVec2, f: FaceId) -> Around {
        let face = self.face(f);
        let [a, b, c] = self.triangle(f);
        let corners = [a, b, c];
        if let Some(j) = corners.iter().position(|&v| v == p) {
            return self.faces_around(f, face.v[j]);
        }
        let mut out = Around::from_elem(f, 1);
        for i in 0..3 {
            if orient(corners[i], corners[(i + 1) % 3], p) == 0.0 {
                out.push(face.adj[i]);
            }
        }
        out
    }

    /// The faces around vertex `v` of face `f` (the outside face included where `v` is on the
    /// hull), turning across the edges that meet at `v`.
    fn faces_around(&self, f: FaceId, v: u32) -> Around {
        let mut out = Around::from_elem(f, 1);
        let mut g = f;
        // Counter-clockwise around `v`: across the edge that ends at `v` (edge j + 2 runs from
        // v[j + 2] to v[j] = v) into the neighbour, until back at `f` or out of the hull.
        for _ in 0..self.faces.len() {
            let face = self.face(g);
            let Some(j) = face.v.iter().position(|&w| w == v) else {
                break;
            };
            g = face.adj[(j + 2) % 3];
            if g == f || g == FaceId::OUTSIDE {
                break;
            }
            out.push(g);
        }
        if g == FaceId::OUTSIDE {
            // On the hull: turn the other way from `f` too, across the edge that starts at `v`.
            out.push(FaceId::OUTSIDE);
            let mut g = f;
            for _ in 0..self.faces.len() {
                let face = self.face(g);
                let Some(j) = face.v.iter().position(|&w| w == v) else {
                    break;
                };
                g = face.adj[j];
                if g == FaceId::OUTSIDE {
                    break;
                }
                out.push(g);
            }
        }
        out
    }

    /// The closest position to `p` that a body may occupy, and how far it is from `p`. A point
    /// already free is returned unchanged (distance 0). `None` for a non-finite `p` or an empty
    /// free region. Scans every blocking edge (O(n)): meant for spawning, not per frame.
    pub fn nearest_free_point(&self, p: DVec2) -> Option<(Body, f64)> {
        if !p.is_finite() {
            return None;
        }
        if let Location::Free(b) = self.locate(p, None) {
            return Some((b, 0.0));
        }
        let mut best: Option<(Body, f64)> = None;
        let opts = MoveOptions { pass_one_way: true };
        for f in self.face_ids() {
            if self.kind(f) == FaceKind::Solid {
                continue;
            }
            for i in 0..3u8 {
                let e = EdgeRef { face: f, edge: i };
                if !self.blocks(e, opts) {
                    continue;
                }
                let (a, b) = self.edge_points(e);
                let (q, _) = closest_on_segment(p, a, b);
                let d = q.distance(p);
                if best.is_none_or(|(_, bd)| d < bd) {
                    best = Some((Body { pos: q, face: f }, d));
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{build_mesh, ColliderShape, MeshConfig, PolygonId, Solidity};
    use crate::collision::{FaceId, SourcePolygon};

    /// What `locate` must answer, by brute force: every bounded face whose closed triangle holds
    /// `p`, the least blocked first, the smallest id among equals.
    fn by_scan(m: &CollisionMesh, p: DVec2) -> Location {
        m.least_blocked(p, m.face_ids().filter(|&f| m.side(p, f, 0).is_ok()))
    }

    proptest::proptest! {
        #![proptest_config(crate::test_seed::proptest_config(24, 0x010c_a7e5_eed5))]
        /// The walk from the seed grid, and from any hint face, finds the face an exact scan of
        /// every face finds: for random points, for every vertex (in many faces at once) and for
        /// midpoints of axis-aligned edges (exactly on an edge).
        #[test]
        fn the_walk_finds_what_a_scan_of_every_face_finds(
            seed in proptest::num::u64::ANY,
            n in 1usize..40,
            one_way in proptest::bool::ANY,
        ) {
            let mut next = crate::test_seed::unit_stream(seed);
            let polygons: Vec<SourcePolygon> = (0..n)
                .map(|i| {
                    let (x, y) = ((next() * 40.0).round() * 0.5, (next() * 40.0).round() * 0.5);
                    let (w, h) = (0.5 + (next() * 6.0).round() * 0.5, 0.5 + (next() * 4.0).round() * 0.5);
                    SourcePolygon {
                        id: PolygonId(i as u32),
                        kind: if one_way && i % 3 == 0 { Solidity::OneWay } else { Solidity::Solid },
                        points: vec![
                            DVec2::new(x, y),
                            DVec2::new(x + w, y),
                            DVec2::new(x + w, y + h),
                            DVec2::new(x, y + h),
                        ],
                    }
                })
                .collect();
            let collider = ColliderShape::Box { width: 0.8, height: 1.5 };
            let m = build_mesh(&polygons, &collider, &MeshConfig::default()).unwrap();
            let mut points: Vec<DVec2> = (0..200)
                .map(|_| m.extent.min + (m.extent.max - m.extent.min) * DVec2::new(next(), next()))
                .collect();
            points.extend(m.vertices().iter().copied());
            for f in m.face_ids() {
                let [a, b, c] = m.triangle(f);
                for (u, v) in [(a, b), (b, c), (c, a)] {
                    if u.x == v.x || u.y == v.y {
                        points.push((u + v) * 0.5);
                    }
                }
            }
            points.push(m.extent.max + DVec2::ONE);
            for p in points {
                let want = by_scan(&m, p);
                proptest::prop_assert_eq!(m.locate(p, None), want, "no hint, at {:?}", p);
                let hint = FaceId(1 + (next() * (m.num_faces() - 1) as f64) as u32);
                proptest::prop_assert_eq!(m.locate(p, Some(hint)), want, "hint {:?}, at {:?}", hint, p);
            }
        }
    }
}
