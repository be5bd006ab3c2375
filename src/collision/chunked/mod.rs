//! Chunked meshes: the same collision mesh built chunk by chunk on a fixed grid, so that an edit
//! rebuilds only the chunks it touches.
//!
//! # What it owns
//! [`build_chunked_mesh`] and [`CollisionMesh::rebuild_polygons`]. A chunked mesh is a
//! [`CollisionMesh`] like any other: one flat face array that the walk, point location and the
//! invariant checker read exactly as they read a whole build. Only how it is built differs:
//! - **The grid.** Square chunks of a fixed size on lines at whole multiples of it (so a grid
//!   that grows keeps its lines), covering the whole build's frame (`grid`).
//! - **One chunk.** The chunk only clips: every segment the build would collect
//!   (`build::polygon_segments`) that reaches the chunk is clipped to it (the closed square), and
//!   the chunk's four sides become constraint segments of a pseudo-source, split at every point
//!   where a clipped edge ends on them. Then the build's own stages (`build::triangulate`:
//!   `planarize`, buried and dangling runs, junctions, `cdt`, region classification) run on the
//!   chunk alone in a frame a quarter of a chunk wider, and the faces outside the square are
//!   dropped: the sides are constraints, so the faces inside are exactly those without a frame
//!   corner.
//! - **Shared border points.** Where an edge crosses a chunk line, both chunks compute the point
//!   from the whole edge, its ends in lexicographic order, and the line alone (`clip`): the same
//!   bits on both sides. Border points are never junctions and border segments never buried, so
//!   both sides keep them. What rounding can still give one side only (a crossing of two clipped
//!   edges that lands exactly on the line) is found by comparing the two sides' points after the
//!   chunks are built, and the side that lacks a point is rebuilt with it as an extra split of
//!   its border (a fixpoint: [`MAX_BORDER_ROUNDS`]).
//! - **Stitching.** A built chunk's faces go into the mesh's face array, in the slots its old
//!   faces freed (or at the end), and are linked to the faces across its border (`stitch`, which
//!   says how).
//! - **What a rebuild costs.** The chunks that the changed polygons' inflated pieces cover
//!   before and after (and a neighbour the fixpoint sends back), each built from the pieces of
//!   the polygons that reach them; then their faces' install. Besides, a few passes over the
//!   piece list (which pieces go, the bounds) and over the seed grid: about 0.1 ms a mesh at
//!   1 000 polygons, 0.6 ms at 10 000 (BENCHMARKS.md, "Editor: edit to playable"). The first
//!   build of a level builds every chunk: most of a large, sparse level's chunks are empty, at
//!   about 35 µs each.
//!
//! What is left behind: the source lists of rebuilt chunks' old faces (a few per chunk; lists
//! are appended, not reused) and, between compactions, the vertices only old faces used.
//!
//! # What it answers
//! The same as a whole build, up to rounding: the solid, one-way and free regions are the same
//! sets of points, except that an edge crossing a chunk line is split there at a rounded point
//! (a kink of an ulp or so, as at every crossing `planarize` splits), and that border points
//! are vertices a whole build may not have (the walk hands a body along straight joints without
//! losing distance: `tests/it/regression_landing_slide_past_a_joint.rs`).
//! `tests/it/chunked_mesh.rs` compares point location and moves with a whole build at random
//! points after random edits, and plays the default level after edits against the level loaded
//! afresh.
//!
//! # Must never
//! Depend on anything outside `collision`; change what a whole build ([`super::build_mesh`])
//! produces (the game's pinned traces are made with it).
use std::borrow::Cow;
use std::collections::HashMap;

use glam::DVec2;
use smallvec::SmallVec;

use super::build::{
    bounds_for, frame_around, inflate_all, polygon_segments, triangulate, validate_all,
    work_budget, BuildError, Input, MeshConfig, PhaseClock, Segments, Triangulation, BORDER_PIECE,
    NO_PIECE,
};
use super::buried::buried;
use super::collider::ColliderShape;
use super::locate::Seeds;
use super::mesh::{CollisionMesh, Face, FaceId, FaceKind, Gates, InflatedPiece, SourceLists};
use super::polygon::{validate_polygon, Num, PolygonId, Solidity, SourcePolygon};
use super::predicates::{automatic_bounds, Aabb};
use super::thin::PieceSegment;
use grid::{clip, on_boundary, ChunkGrid};
use stitch::install;

mod grid;
mod stitch;

/// The default chunk size (metres): a chunk of a dense tile level holds about 16 tiles, so one
/// chunk's build costs a few hundred microseconds.
pub const DEFAULT_CHUNK_SIZE: f64 = 8.0;

/// Rounds of rebuilding chunks that lack a border point their neighbour has. Each round can only
/// add points that rounding put exactly on a chunk line; one is the most seen.
pub const MAX_BORDER_ROUNDS: usize = 8;

/// The pseudo-source of a chunk's border segments (left out of the stitched mesh's lists).
const BORDER_SOURCE: PolygonId = PolygonId(u32::MAX - 1);

/// A map keyed by a few integers (point bits, vertex ids) with a multiplicative hash: the
/// border maps of a rebuild hold a few hundred entries, where SipHash was a tenth of its time.
type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<MixHasher>>;

/// The hasher of [`FastMap`]: each integer written is mixed in by a multiply and a rotation.
#[derive(Default)]
struct MixHasher(u64);

impl std::hash::Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// A face edge on a chunk's border, before stitching.
const UNLINKED: u32 = u32::MAX;

/// One chunk's new triangulation, faces inside its square only, before it is installed.
struct Fresh {
    /// Its vertices (the frame's corners left out).
    verts: Vec<DVec2>,
    /// Its faces, numbered from 0, vertices indexing `verts`; [`UNLINKED`] across the border.
    faces: Vec<Face>,
    lists: SourceLists,
    /// Faces a gate covers: face, kind with the gates open, the gates.
    gated: Vec<(u32, FaceKind, SmallVec<[PolygonId; 2]>)>,
}

/// What a chunked mesh keeps of each chunk to rebuild it.
#[derive(Clone, Debug, Default)]
struct Chunk {
    /// Its faces' slots in the mesh's face array.
    faces: Vec<u32>,
    /// Its faces' edges on its square's sides (face slot, edge).
    border: Vec<(u32, u8)>,
    /// Its vertices on its square's sides.
    boundary: Vec<DVec2>,
    /// Points its border is split at because a neighbour has them.
    extra: Vec<DVec2>,
}

/// What a chunked mesh keeps to rebuild chunks.
#[derive(Clone, Debug)]
pub(crate) struct Chunking {
    pub(crate) grid: ChunkGrid,
    /// Per piece of the mesh: its interior-edge mask (see `decompose::Inside`).
    interior: Vec<u64>,
    chunks: Vec<Chunk>,
    /// Face slots a rebuilt chunk left unused ([`Face::UNUSED`]), for the next to fill.
    free: Vec<u32>,
    config: MeshConfig,
    budget: usize,
}

/// Builds the collision mesh of `polygons` for `collider` chunk by chunk (chunks of
/// `chunk_size` metres; see the module docs). It answers as [`super::build_mesh`] does and can
/// be rebuilt in part ([`CollisionMesh::rebuild_polygons`]).
pub fn build_chunked_mesh(
    polygons: &[SourcePolygon],
    collider: &ColliderShape,
    config: &MeshConfig,
    chunk_size: f64,
) -> Result<CollisionMesh, BuildError> {
    build_chunked(polygons, collider.points()?, config, chunk_size)
}

/// [`build_chunked_mesh`] for the collider's outline `q`.
fn build_chunked(
    polygons: &[SourcePolygon],
    q: Vec<DVec2>,
    config: &MeshConfig,
    chunk_size: f64,
) -> Result<CollisionMesh, BuildError> {
    validate_all(polygons)?;
    if !(chunk_size.is_finite() && chunk_size >= 0.5) {
        return Err(BuildError::Triangulation(format!(
            "chunk size {} is not a finite size of at least 0.5 m",
            Num(chunk_size)
        )));
    }
    let (pieces, interior) = inflate_all(polygons, &q)?;
    let budget = work_budget(polygons);
    let inner = bounds_for(&pieces, &q, config)?;
    let grid = ChunkGrid::covering(frame_around(inner, &pieces), chunk_size);
    if grid.len() > 1 << 24 {
        return Err(BuildError::Triangulation(format!(
            "{} chunks of {} m are too many for this level's size",
            grid.len(),
            Num(chunk_size)
        )));
    }
    let mut chunking = Chunking {
        chunks: vec![Chunk::default(); grid.len()],
        grid,
        interior,
        free: Vec::new(),
        config: config.clone(),
        budget,
    };
    let extent = chunking.grid.bounds();
    let mut mesh = CollisionMesh {
        collider: q,
        extent,
        vertices: Vec::new(),
        faces: vec![Face::UNUSED],
        source_lists: SourceLists::with_capacity(0, 0),
        pieces,
        bounds: inner,
        one_way_min_normal_y: config.one_way_min_normal_y,
        seeds: Seeds::new(&[], &[], extent),
        gates: Gates::default(),
        chunking: None,
    };
    let all: Vec<usize> = (0..chunking.grid.len()).collect();
    let fresh = rebuild_chunks(&mesh.pieces, &mut chunking, inner, &all)?;
    install(&mut mesh, &mut chunking, fresh, true)?;
    mesh.seeds = Seeds::new(&mesh.vertices, &mesh.faces, extent);
    mesh.chunking = Some(Box::new(chunking));
    if cfg!(debug_assertions) {
        mesh.check_invariants()
            .map_err(|e| BuildError::Invariant(e.to_string()))?;
    }
    Ok(mesh)
}

impl CollisionMesh {
    /// The chunk size of a mesh built by [`build_chunked_mesh`] (`None` for a whole build).
    pub fn chunk_size(&self) -> Option<f64> {
        self.chunking.as_ref().map(|c| c.grid.size)
    }

    /// Brings a chunked mesh up to date after the polygons `changed` were edited (moved,
    /// reshaped, added or removed): `polygons` is the level's whole new list. Only the chunks
    /// the changed polygons' inflated pieces touch, before or after, are built again (and a
    /// neighbour that must share a new border point), in place in the face array
    /// ([`CollisionMesh::rebuild_edited`]); when that cannot be (see there), the mesh is built
    /// again whole (chunked). A mesh built whole ([`super::build_mesh`]) cannot be rebuilt in
    /// part: that is an error. Returns how many chunks were built.
    ///
    /// Bodies' faces are not kept: locate them again.
    pub fn rebuild_polygons(
        &mut self,
        polygons: &[SourcePolygon],
        changed: &[PolygonId],
        config: &MeshConfig,
    ) -> Result<usize, BuildError> {
        let ids = sorted_ids(changed);
        let edited: Vec<SourcePolygon> = polygons
            .iter()
            .filter(|p| ids.binary_search(&p.id).is_ok())
            .cloned()
            .collect();
        if let Some(built) = self.rebuild_edited(&edited, changed, config)? {
            return Ok(built);
        }
        let size = self
            .chunk_size()
            .expect("rebuild_edited refuses a whole build");
        let open = self.gates.open_ids();
        *self = build_chunked(polygons, self.collider.clone(), config, size)?;
        for id in open {
            self.set_gate(id, true);
        }
        Ok(self.chunking.as_ref().map_or(0, |c| c.grid.len()))
    }

    /// [`CollisionMesh::rebuild_polygons`] given only the changed polygons that the level still
    /// has (`edited`; `changed` also lists the ones removed). Returns `None`, changing nothing,
    /// when the edit cannot be rebuilt in part: `config` changed (new bounds), automatic bounds
    /// moved, or a piece reaches past the chunk grid. On a build error nothing has changed
    /// either, but for a chunk that failed in the middle of the border fixpoint (the mesh is then
    /// left without its rebuilt chunks: build it again).
    pub fn rebuild_edited(
        &mut self,
        edited: &[SourcePolygon],
        changed: &[PolygonId],
        config: &MeshConfig,
    ) -> Result<Option<usize>, BuildError> {
        let Some(chunking) = self.chunking.as_ref() else {
            return Err(BuildError::Triangulation(
                "only a chunked mesh can be rebuilt in part".into(),
            ));
        };
        for poly in edited {
            validate_polygon(poly.id, &poly.points)?;
        }
        let ids = sorted_ids(changed);
        let is_changed = |id: &PolygonId| ids.binary_search(id).is_ok();
        let (new_pieces, new_interior) = inflate_all(edited, &self.collider)?;
        let gone: Vec<bool> = self.pieces.iter().map(|p| is_changed(&p.source)).collect();
        let boxes: Vec<Aabb> = new_pieces
            .iter()
            .map(|p| p.aabb)
            .chain(
                self.pieces
                    .iter()
                    .zip(&gone)
                    .filter(|(_, &g)| g)
                    .map(|(p, _)| p.aabb),
            )
            .collect();
        // The bounds the whole new piece list gives, without building it.
        let kept = self
            .pieces
            .iter()
            .zip(&gone)
            .filter(|(_, &g)| !g)
            .map(|(p, _)| p);
        let inner = match config.bounds {
            Some(_) => bounds_for(&[], &self.collider, config)?,
            None => automatic_bounds(
                self.collider.iter().map(|p| -*p).chain(
                    kept.chain(&new_pieces)
                        .flat_map(|p| [p.aabb.min, p.aabb.max]),
                ),
            ),
        };
        let fits = inner == self.bounds
            && *config == chunking.config
            && boxes.iter().all(|b| chunking.grid.holds(b));
        if !fits {
            return Ok(None);
        }
        let gates_changed = edited.iter().any(|p| p.kind == Solidity::Gate)
            || self
                .pieces
                .iter()
                .zip(&gone)
                .any(|(p, &g)| g && p.kind == Solidity::Gate);
        let mut chunking = self.chunking.take().expect("checked above");
        // The changed polygons' old pieces go (in place: the rest keep their order).
        let mut k = 0;
        self.pieces.retain(|_| {
            k += 1;
            !gone[k - 1]
        });
        let mut k = 0;
        chunking.interior.retain(|_| {
            k += 1;
            !gone[k - 1]
        });
        self.pieces.extend(new_pieces);
        chunking.interior.extend(new_interior);
        let mut todo = Vec::new();
        for b in &boxes {
            chunking.grid.touching(b, &mut todo);
        }
        todo.sort_unstable();
        todo.dedup();
        let fresh = rebuild_chunks(&self.pieces, &mut chunking, inner, &todo);
        let result = fresh.and_then(|fresh| {
            let built = fresh.len();
            install(self, &mut chunking, fresh, gates_changed).map(|()| built)
        });
        self.chunking = Some(chunking);
        let built = result?;
        if cfg!(debug_assertions) {
            self.check_invariants()
                .map_err(|e| BuildError::Invariant(e.to_string()))?;
        }
        Ok(Some(built))
    }
}

/// `ids` sorted, without repeats (for binary search).
fn sorted_ids(ids: &[PolygonId]) -> Vec<PolygonId> {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// Builds the chunks `todo`, then runs the border fixpoint: a chunk missing a point its
/// neighbour has on their shared side is built again with it. Returns the new chunks.
fn rebuild_chunks(
    pieces: &[InflatedPiece],
    chunking: &mut Chunking,
    inner: Aabb,
    todo: &[usize],
) -> Result<Vec<(usize, Fresh)>, BuildError> {
    let grid = chunking.grid.clone();
    let mut fresh: FastMap<usize, Fresh> = FastMap::default();
    let mut cand = Vec::new();
    let mut todo = todo.to_vec();
    if todo.is_empty() {
        return Ok(Vec::new());
    }
    for _ in 0..MAX_BORDER_ROUNDS {
        // Only the pieces of polygons that reach these chunks can matter (all of each such
        // polygon's pieces: what thinning keeps depends on the whole polygon).
        let region = todo
            .iter()
            .map(|&c| grid.rect(c))
            .reduce(|a, b| a.union(&b))
            .expect("at least one chunk");
        let (sub, sub_interior) = if todo.len() == grid.len() {
            (Cow::Borrowed(pieces), Cow::Borrowed(&chunking.interior[..]))
        } else {
            let (p, m) = pieces_reaching(pieces, &chunking.interior, &region);
            (Cow::Owned(p), Cow::Owned(m))
        };
        let input = Input::new(&sub, &sub_interior, region, inner, chunking.budget);
        for &c in &todo {
            let built = build_chunk(&input, grid.rect(c), &chunking.chunks[c].extra, &mut cand)?;
            fresh.insert(c, built);
        }
        // Compare each built chunk's sides with its four neighbours'.
        let boundary = |c: usize, side: &Aabb| -> Vec<DVec2> {
            match fresh.get(&c) {
                Some(f) => f
                    .verts
                    .iter()
                    .copied()
                    .filter(|&p| side.contains(p))
                    .collect(),
                None => chunking.chunks[c]
                    .boundary
                    .iter()
                    .copied()
                    .filter(|&p| side.contains(p))
                    .collect(),
            }
        };
        let mut next: Vec<usize> = Vec::new();
        let mut missing: Vec<(usize, DVec2)> = Vec::new();
        for &c in &todo {
            for d in grid.neighbours(c, false) {
                let (rc, rd) = (grid.rect(c), grid.rect(d));
                let side = Aabb {
                    min: rc.min.max(rd.min),
                    max: rc.max.min(rd.max),
                };
                let (pc, pd) = (boundary(c, &side), boundary(d, &side));
                missing.extend(pc.iter().filter(|p| !pd.contains(p)).map(|&p| (d, p)));
                missing.extend(pd.iter().filter(|p| !pc.contains(p)).map(|&p| (c, p)));
            }
        }
        for (c, p) in missing {
            chunking.chunks[c].extra.push(p);
            next.push(c);
        }
        next.sort_unstable();
        next.dedup();
        if next.is_empty() {
            let mut out: Vec<(usize, Fresh)> = fresh.into_iter().collect();
            out.sort_unstable_by_key(|c| c.0);
            return Ok(out);
        }
        todo = next;
    }
    Err(BuildError::Triangulation(format!(
        "chunk borders still differ after {MAX_BORDER_ROUNDS} rounds (chunk size {} m)",
        Num(grid.size)
    )))
}

/// Every piece (with its interior mask) of the polygons that have a piece meeting `region`.
/// A polygon's pieces are consecutive.
fn pieces_reaching(
    pieces: &[InflatedPiece],
    interior: &[u64],
    region: &Aabb,
) -> (Vec<InflatedPiece>, Vec<u64>) {
    let (mut out, mut masks) = (Vec::new(), Vec::new());
    let mut start = 0;
    while start < pieces.len() {
        let source = pieces[start].source;
        let mut end = start + 1;
        while end < pieces.len() && pieces[end].source == source {
            end += 1;
        }
        if pieces[start..end].iter().any(|p| p.aabb.overlaps(region)) {
            out.extend_from_slice(&pieces[start..end]);
            masks.extend_from_slice(&interior[start..end]);
        }
        start = end;
    }
    (out, masks)
}

/// Builds one chunk: the square `rect`, its border split at `extra` too. Only the clipping is
/// the chunk's own: the segments come from the build's [`polygon_segments`], each clipped to the
/// closed square, with the square's sides as constraints of a pseudo-source, and the build's
/// stages ([`triangulate`]) run on them in a frame a quarter of a chunk wider; then the faces
/// outside the square are dropped.
fn build_chunk(
    input: &Input,
    rect: Aabb,
    extra: &[DVec2],
    cand: &mut Vec<u32>,
) -> Result<Fresh, BuildError> {
    let (pieces, grid) = (input.pieces, &input.grid);
    let frame = rect.expand(0.25 * (rect.max.x - rect.min.x));
    let mut out = Segments::framed(&frame, 64);
    // The border: the square's sides, split at the extra points.
    let corners = rect.corners();
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        let d = b - a;
        let mut on: Vec<DVec2> = extra
            .iter()
            .copied()
            .filter(|&p| p != a && p != b && (if d.x == 0.0 { p.x == a.x } else { p.y == a.y }))
            .collect();
        on.sort_by(|p, q| (*p - a).dot(d).total_cmp(&(*q - a).dot(d)));
        on.dedup();
        let mut prev = a;
        for p in on.into_iter().chain(std::iter::once(b)) {
            out.push(prev, p, BORDER_SOURCE, BORDER_PIECE);
            prev = p;
        }
    }
    let push = |out: &mut Segments, a: DVec2, b: DVec2, source: PolygonId, piece: u32| {
        if let Some((u, v)) = clip(a, b, &rect) {
            out.push(u, v, source, piece);
        }
    };
    let bc = input.inner.corners();
    for k in 0..4 {
        let (a, b) = (bc[k], bc[(k + 1) % 4]);
        // Whether a bound is buried is a walk along the whole bound: ask only for the chunks it
        // reaches.
        if clip(a, b, &rect).is_some() && !buried(a, b, NO_PIECE, pieces, grid) {
            push(&mut out, a, b, PolygonId::BOUNDS, NO_PIECE);
        }
    }
    grid.candidates_in(rect, cand);
    cand.retain(|&i| pieces[i as usize].aabb.overlaps(&rect));
    let mut local: Vec<PieceSegment> = Vec::new();
    let mut done: Vec<PolygonId> = Vec::new();
    for &i in cand.iter() {
        let source = pieces[i as usize].source;
        if done.contains(&source) {
            continue;
        }
        // The polygon's pieces are consecutive: take them all (what thinning keeps depends on
        // the whole polygon); clipping drops what does not reach the chunk.
        let mut start = i as usize;
        while start > 0 && pieces[start - 1].source == source {
            start -= 1;
        }
        let mut end = i as usize + 1;
        while end < pieces.len() && pieces[end].source == source {
            end += 1;
        }
        done.push(source);
        polygon_segments(&mut out.pts, start..end, input, &mut local)?;
        for &([a, b], k) in &local {
            let (a, b) = (out.pts.points[a as usize], out.pts.points[b as usize]);
            push(&mut out, a, b, source, k);
        }
    }
    let Triangulation {
        verts,
        faces,
        lists,
        gates,
    } = triangulate(
        out,
        input,
        &frame,
        |p| on_boundary(&rect, p),
        &mut PhaseClock::off(),
    )?;
    // Keep the faces inside the square: those with no frame corner (vertices 0 to 3).
    let mut keep = vec![UNLINKED; faces.len()];
    let mut n = 0u32;
    for (f, face) in faces.iter().enumerate().skip(1) {
        if face.v.iter().all(|&v| v >= 4) {
            keep[f] = n;
            n += 1;
        }
    }
    let kept: Vec<Face> = faces
        .iter()
        .enumerate()
        .filter(|&(f, _)| keep[f] != UNLINKED)
        .map(|(_, face)| {
            let mut face = *face;
            face.v = face.v.map(|v| v - 4);
            face.adj = face.adj.map(|g| FaceId(keep[g.0 as usize]));
            face
        })
        .collect();
    let mut gated = Vec::new();
    for gf in &gates.faces {
        let f = keep[gf.face.0 as usize];
        if f != UNLINKED {
            let covering = gf.gates.iter().map(|&g| gates.ids[g as usize].0).collect();
            gated.push((f, gf.open_kind, covering));
        }
    }
    Ok(Fresh {
        verts: verts[4..].to_vec(),
        faces: kept,
        lists,
        gated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(n: u32) -> Vec<SourcePolygon> {
        (0..n)
            .map(|k| {
                let (x, y) = ((k % 12) as f64 * 1.5, (k / 12) as f64 * 2.5);
                SourcePolygon {
                    id: PolygonId(k),
                    kind: Solidity::Solid,
                    points: vec![
                        DVec2::new(x, y),
                        DVec2::new(x + 1.0, y),
                        DVec2::new(x + 1.0, y + 1.0),
                        DVec2::new(x, y + 1.0),
                    ],
                }
            })
            .collect()
    }

    #[test]
    fn removing_many_polygons_compacts_the_face_array() {
        let shape = ColliderShape::Box {
            width: 0.4,
            height: 0.8,
        };
        let config = MeshConfig {
            bounds: Some(Aabb {
                min: DVec2::new(-2.0, -2.0),
                max: DVec2::new(20.0, 14.0),
            }),
            ..MeshConfig::default()
        };
        let mut polys = tiles(60);
        let mut m = build_chunked_mesh(&polys, &shape, &config, 4.0).unwrap();
        // Every second tile goes: the rebuilt chunks hold far fewer faces, more than a third
        // of the array is freed, and it is compacted.
        let gone: Vec<PolygonId> = polys.iter().step_by(2).map(|p| p.id).collect();
        polys.retain(|p| !gone.contains(&p.id));
        m.rebuild_polygons(&polys, &gone, &config).unwrap();
        assert!(m.chunking.as_ref().unwrap().free.is_empty());
        assert!(m.faces.iter().skip(1).all(|f| !f.is_unused()));
        m.check_invariants().unwrap();
        let whole = super::super::build_mesh(&polys, &shape, &config).unwrap();
        let kind = |m: &CollisionMesh, p: DVec2| match m.locate(p, None) {
            super::super::Location::Free(b) => Some(m.kind(b.face)),
            super::super::Location::Solid(_) => Some(FaceKind::Solid),
            super::super::Location::Outside => None,
        };
        for k in 0..400 {
            let p = DVec2::new((k % 20) as f64 * 0.9 - 1.0, (k / 20) as f64 * 0.7 - 1.0);
            assert_eq!(kind(&m, p), kind(&whole, p), "at {p}");
        }
        // And every seed is a face in use.
        for &f in m.seeds.cells() {
            assert!(!m.faces[f as usize].is_unused());
        }
    }
}
