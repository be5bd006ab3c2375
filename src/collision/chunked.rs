//! Chunked meshes: the same collision mesh built chunk by chunk on a fixed grid, so that an edit
//! rebuilds only the chunks it touches.
//!
//! # What it owns
//! [`build_chunked_mesh`] and [`CollisionMesh::rebuild_polygons`]. A chunked mesh is a
//! [`CollisionMesh`] like any other: one flat face array that the walk, point location and the
//! invariant checker read exactly as they read a whole build. Only how it is built differs:
//! - **The grid.** Square chunks of a fixed size on lines at whole multiples of it (so a grid
//!   that grows keeps its lines), covering the whole build's frame.
//! - **One chunk.** Every inflated edge that reaches the chunk is clipped to it (the closed
//!   square), and the chunk's four sides become constraint segments of a pseudo-source, split at
//!   every point where a clipped edge ends on them. Then the build's own stages run on the chunk
//!   alone (`planarize`, buried and dangling runs, junctions, `cdt`, region classification) in a
//!   frame a quarter of a chunk wider, and the faces outside the square are dropped: the sides
//!   are constraints, so the faces inside are exactly those without a frame corner.
//! - **Shared border points.** Where an edge crosses a chunk line, both chunks compute the point
//!   from the whole edge, its ends in lexicographic order, and the line alone (`clip`): the same
//!   bits on both sides. Border points are never junctions and border segments never buried, so
//!   both sides keep them. What rounding can still give one side only (a crossing of two clipped
//!   edges that lands exactly on the line) is found by comparing the two sides' points after the
//!   chunks are built, and the side that lacks a point is rebuilt with it as an extra split of
//!   its border (a fixpoint: [`MAX_BORDER_ROUNDS`]).
//! - **Stitching.** The chunks' faces are concatenated; border points become one vertex; a face
//!   edge on a border is linked to the face across it, found by its two vertices. A border edge
//!   that lies on no inflated outline (its source list held only the pseudo-source) stops being
//!   a constraint: the walk crosses it like any edge of the triangulation.
//!
//! # What it answers
//! The same as a whole build, up to rounding: the solid, one-way and free regions are the same
//! sets of points, except that an edge crossing a chunk line is split there at a rounded point
//! (a kink of an ulp or so, as at every crossing `planarize` splits). `tests/it/chunked_mesh.rs`
//! compares point location and moves with a whole build at random points after random edits.
//!
//! # Must never
//! Depend on anything outside `collision`; change what a whole build ([`super::build_mesh`])
//! produces (the game's pinned traces are made with it).
use std::collections::HashMap;

use glam::DVec2;
use smallvec::SmallVec;

use super::build::{
    bounds_for, classify_regions, constraint_edges, door_gates, inflate_all, kept_runs,
    order_vertices, run_source_lists, unresolved, BuildError, MeshConfig, Segments, BORDER_PIECE,
    NO_PIECE, WORK_FLOOR, WORK_PER_POINT,
};
use super::buried::buried;
use super::cdt;
use super::collider::ColliderShape;
use super::grid::PieceGrid;
use super::locate::Seeds;
use super::mesh::{
    CollisionMesh, Face, FaceId, FaceKind, GatedFace, Gates, InflatedPiece, SourceLists,
};
use super::planarize::{planarize, PlanarizeError, Points};
use super::polygon::{validate_polygon, Num, PolygonId, SourcePolygon};
use super::predicates::Aabb;
use super::runs::Junctions;
use super::thin::{needs_thinning, thinned, PieceSegment};

/// The default chunk size (metres): a chunk of a dense tile level holds about 16 tiles, so one
/// chunk's build costs a few hundred microseconds.
pub const DEFAULT_CHUNK_SIZE: f64 = 8.0;

/// Rounds of rebuilding chunks that lack a border point their neighbour has. Each round can only
/// add points that rounding put exactly on a chunk line; one is the most seen.
pub const MAX_BORDER_ROUNDS: usize = 8;

/// The pseudo-source of a chunk's border segments (left out of the stitched mesh's lists).
const BORDER_SOURCE: PolygonId = PolygonId(u32::MAX - 1);

/// A face edge on a chunk's border, before stitching.
const UNLINKED: u32 = u32::MAX;

/// The fixed grid of square chunks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChunkGrid {
    /// Index of the first line along each axis (lines lie at whole multiples of `size`).
    first: [i64; 2],
    size: f64,
    nx: usize,
    ny: usize,
}

impl ChunkGrid {
    /// The grid of chunks of `size` covering `b`.
    fn covering(b: Aabb, size: f64) -> Self {
        let lo = (b.min / size).floor();
        let hi = (b.max / size).ceil();
        ChunkGrid {
            first: [lo.x as i64, lo.y as i64],
            size,
            nx: ((hi.x - lo.x) as usize).max(1),
            ny: ((hi.y - lo.y) as usize).max(1),
        }
    }
    fn line(&self, axis: usize, k: usize) -> f64 {
        (self.first[axis] + k as i64) as f64 * self.size
    }
    fn len(&self) -> usize {
        self.nx * self.ny
    }
    /// The square of chunk `i` (row by row from the lower left).
    fn rect(&self, i: usize) -> Aabb {
        let (x, y) = (i % self.nx, i / self.nx);
        Aabb {
            min: DVec2::new(self.line(0, x), self.line(1, y)),
            max: DVec2::new(self.line(0, x + 1), self.line(1, y + 1)),
        }
    }
    /// The whole grid.
    fn bounds(&self) -> Aabb {
        Aabb {
            min: DVec2::new(self.line(0, 0), self.line(1, 0)),
            max: DVec2::new(self.line(0, self.nx), self.line(1, self.ny)),
        }
    }
    /// Whether `b` lies within the grid.
    fn holds(&self, b: &Aabb) -> bool {
        let g = self.bounds();
        g.contains(b.min) && g.contains(b.max)
    }
    /// The chunks whose closed square meets the closed box `b`.
    fn touching(&self, b: &Aabb, out: &mut Vec<usize>) {
        let cell = |c: f64, axis: usize, n: usize| {
            ((c / self.size).floor() as i64 - self.first[axis]).clamp(0, n as i64 - 1) as usize
        };
        let (x0, x1) = (cell(b.min.x, 0, self.nx), cell(b.max.x, 0, self.nx));
        let (y0, y1) = (cell(b.min.y, 1, self.ny), cell(b.max.y, 1, self.ny));
        // A box ending exactly on a line touches the chunk before it too.
        let x0 = if x0 > 0 && b.min.x <= self.line(0, x0) {
            x0 - 1
        } else {
            x0
        };
        let y0 = if y0 > 0 && b.min.y <= self.line(1, y0) {
            y0 - 1
        } else {
            y0
        };
        for y in y0..=y1 {
            for x in x0..=x1 {
                out.push(y * self.nx + x);
            }
        }
    }
}

/// Whether `p` lies on the boundary of the closed box `r` (and in it).
fn on_boundary(r: &Aabb, p: DVec2) -> bool {
    r.contains(p) && (p.x == r.min.x || p.x == r.max.x || p.y == r.min.y || p.y == r.max.y)
}

/// The part of segment `a b` in the closed box `r`, or `None` when it has no part of positive
/// length there. The segment is taken with its ends in lexicographic order, and a point where it
/// crosses a side gets that side's coordinate exactly and the other from the whole segment: two
/// chunks sharing the side compute the same bits.
fn clip(a: DVec2, b: DVec2, r: &Aabb) -> Option<(DVec2, DVec2)> {
    if r.contains(a) && r.contains(b) {
        return Some((a, b));
    }
    let (p, q) = if (a.x, a.y) <= (b.x, b.y) {
        (a, b)
    } else {
        (b, a)
    };
    let d = q - p;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    // The side (axis, coordinate) where the segment enters and leaves, if not at its ends.
    let mut enter: Option<(usize, f64)> = None;
    let mut exit: Option<(usize, f64)> = None;
    for (axis, lo, hi) in [(0, r.min.x, r.max.x), (1, r.min.y, r.max.y)] {
        let (pc, dc) = (p[axis], d[axis]);
        if dc == 0.0 {
            if pc < lo || pc > hi {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((lo - pc) / dc, (hi - pc) / dc);
        let (tin, vin, tout, vout) = if dc > 0.0 {
            (ta, lo, tb, hi)
        } else {
            (tb, hi, ta, lo)
        };
        if tin > t0 {
            t0 = tin;
            enter = Some((axis, vin));
        }
        if tout < t1 {
            t1 = tout;
            exit = Some((axis, vout));
        }
    }
    if t0 >= t1 {
        return None;
    }
    let at = |t: f64, side: Option<(usize, f64)>, end: DVec2| match side {
        None => end,
        Some((axis, v)) => {
            let mut x = p + d * t;
            x[axis] = v;
            x.clamp(r.min, r.max)
        }
    };
    let (u, v) = (at(t0, enter, p), at(t1, exit, q));
    (u != v).then_some((u, v))
}

/// One chunk's triangulation, faces inside its square only, before stitching.
#[derive(Clone, Debug)]
pub(crate) struct Chunk {
    /// Its vertices (the frame's corners left out).
    verts: Vec<DVec2>,
    /// Its faces, numbered from 0, vertices indexing `verts`; [`UNLINKED`] across the border.
    faces: Vec<Face>,
    lists: SourceLists,
    /// Faces a door covers: face, kind with the doors open, the doors.
    gated: Vec<(u32, FaceKind, SmallVec<[PolygonId; 2]>)>,
    /// Points added to its border because a neighbour has them.
    extra: Vec<DVec2>,
}

/// What a chunked mesh keeps to rebuild chunks.
#[derive(Clone, Debug)]
pub(crate) struct Chunking {
    pub(crate) grid: ChunkGrid,
    /// Per piece of the mesh: its interior-edge mask (see `decompose::Inside`).
    interior: Vec<u64>,
    chunks: Vec<Chunk>,
    /// The frame the grid covers (the whole build's frame).
    outer: Aabb,
    config: MeshConfig,
    budget: usize,
}

/// What building a chunk reads.
struct Input<'a> {
    pieces: &'a [InflatedPiece],
    interior: &'a [u64],
    grid: &'a PieceGrid,
    inner: Aabb,
    budget: usize,
    gate_ids: &'a [(PolygonId, bool)],
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
    for poly in polygons {
        validate_polygon(poly.id, &poly.points)?;
    }
    if !(chunk_size.is_finite() && chunk_size >= 0.5) {
        return Err(BuildError::Triangulation(format!(
            "chunk size {} is not a finite size of at least 0.5 m",
            Num(chunk_size)
        )));
    }
    let (pieces, interior) = inflate_all(polygons, &q)?;
    let points: usize = polygons.iter().map(|p| p.points.len()).sum();
    let budget = WORK_PER_POINT.saturating_mul(points).max(WORK_FLOOR);
    let inner = bounds_for(&pieces, &q, config)?;
    let frame = (0.05 * (inner.max - inner.min).max_element()).max(1.0);
    let outer = pieces
        .iter()
        .fold(inner, |b, p| b.union(&p.aabb))
        .expand(frame);
    let grid = ChunkGrid::covering(outer, chunk_size);
    if grid.len() > 1 << 24 {
        return Err(BuildError::Triangulation(format!(
            "{} chunks of {} m are too many for this level's size",
            grid.len(),
            Num(chunk_size)
        )));
    }
    let mut chunking = Chunking {
        outer: grid.bounds(),
        grid,
        interior,
        chunks: Vec::new(),
        config: config.clone(),
        budget,
    };
    let mut mesh = CollisionMesh {
        collider: q,
        extent: outer,
        vertices: Vec::new(),
        faces: Vec::new(),
        source_lists: SourceLists::with_capacity(0, 0),
        pieces,
        bounds: inner,
        one_way_min_normal_y: config.one_way_min_normal_y,
        seeds: Seeds::new(&[], &[], outer),
        gates: Gates::default(),
        chunking: None,
    };
    let all: Vec<usize> = (0..chunking.grid.len()).collect();
    chunking.chunks = vec![
        Chunk {
            verts: Vec::new(),
            faces: Vec::new(),
            lists: SourceLists::with_capacity(0, 0),
            gated: Vec::new(),
            extra: Vec::new(),
        };
        chunking.grid.len()
    ];
    rebuild_chunks(&mesh.pieces, &mut chunking, inner, &all)?;
    assemble(&mut mesh, &chunking)?;
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
    /// neighbour that must share a new border point); the face array is then stitched again.
    /// A mesh built whole, or an edit that moves the level's bounds or reaches past the chunk
    /// grid, is built again whole (chunked). Returns how many chunks were built.
    ///
    /// Bodies' faces are not kept: locate them again.
    pub fn rebuild_polygons(
        &mut self,
        polygons: &[SourcePolygon],
        changed: &[PolygonId],
    ) -> Result<usize, BuildError> {
        let Some(mut chunking) = self.chunking.take() else {
            return Err(BuildError::Triangulation(
                "only a chunked mesh can be rebuilt in part".into(),
            ));
        };
        let open: Vec<PolygonId> = self
            .gates
            .ids
            .iter()
            .filter(|g| !g.1)
            .map(|g| g.0)
            .collect();
        let changed_set: std::collections::HashSet<PolygonId> = changed.iter().copied().collect();
        let edited: Vec<SourcePolygon> = polygons
            .iter()
            .filter(|p| changed_set.contains(&p.id))
            .cloned()
            .collect();
        for poly in &edited {
            validate_polygon(poly.id, &poly.points)?;
        }
        let (new_pieces, new_interior) = inflate_all(&edited, &self.collider)?;
        let mut boxes: Vec<Aabb> = new_pieces.iter().map(|p| p.aabb).collect();
        let mut pieces = Vec::with_capacity(self.pieces.len() + new_pieces.len());
        let mut interior = Vec::with_capacity(pieces.capacity());
        for (p, &m) in self.pieces.drain(..).zip(&chunking.interior) {
            if changed_set.contains(&p.source) {
                boxes.push(p.aabb);
            } else {
                pieces.push(p);
                interior.push(m);
            }
        }
        pieces.extend(new_pieces);
        interior.extend(new_interior);
        self.pieces = pieces;
        chunking.interior = interior;
        let inner = bounds_for(&self.pieces, &self.collider, &chunking.config)?;
        let fits = inner == self.bounds && boxes.iter().all(|b| chunking.grid.holds(b));
        if !fits {
            let size = chunking.grid.size;
            let config = chunking.config.clone();
            *self = build_chunked(polygons, self.collider.clone(), &config, size)?;
            for id in open {
                self.set_gate(id, true);
            }
            return Ok(self.chunking.as_ref().map_or(0, |c| c.grid.len()));
        }
        let mut todo = Vec::new();
        for b in &boxes {
            chunking.grid.touching(b, &mut todo);
        }
        todo.sort_unstable();
        todo.dedup();
        let built = rebuild_chunks(&self.pieces, &mut chunking, inner, &todo)?;
        assemble(self, &chunking)?;
        self.chunking = Some(chunking);
        for id in open {
            self.set_gate(id, true);
        }
        if cfg!(debug_assertions) {
            self.check_invariants()
                .map_err(|e| BuildError::Invariant(e.to_string()))?;
        }
        Ok(built)
    }
}

/// Builds the chunks `todo`, then runs the border fixpoint: a chunk missing a point its
/// neighbour has on their shared side is built again with it. Returns how many chunk builds ran.
fn rebuild_chunks(
    pieces: &[InflatedPiece],
    chunking: &mut Chunking,
    inner: Aabb,
    todo: &[usize],
) -> Result<usize, BuildError> {
    let piece_grid = PieceGrid::new(pieces, chunking.outer);
    let gate_ids = door_gates(pieces);
    let input = Input {
        pieces,
        interior: &chunking.interior,
        grid: &piece_grid,
        inner,
        budget: chunking.budget,
        gate_ids: &gate_ids,
    };
    let grid = chunking.grid.clone();
    let mut cand = Vec::new();
    let mut todo = todo.to_vec();
    let mut built = 0;
    for _ in 0..MAX_BORDER_ROUNDS {
        for &c in &todo {
            let extra = std::mem::take(&mut chunking.chunks[c].extra);
            chunking.chunks[c] = build_chunk(&input, grid.rect(c), extra, &mut cand)?;
            built += 1;
        }
        // Compare each built chunk's sides with its four neighbours'.
        let mut next: Vec<usize> = Vec::new();
        for &c in &todo {
            let (x, y) = (c % grid.nx, c / grid.nx);
            let mut neighbours: SmallVec<[usize; 4]> = SmallVec::new();
            if x > 0 {
                neighbours.push(c - 1);
            }
            if x + 1 < grid.nx {
                neighbours.push(c + 1);
            }
            if y > 0 {
                neighbours.push(c - grid.nx);
            }
            if y + 1 < grid.ny {
                neighbours.push(c + grid.nx);
            }
            for d in neighbours {
                let (rc, rd) = (grid.rect(c), grid.rect(d));
                let side = Aabb {
                    min: rc.min.max(rd.min),
                    max: rc.max.min(rd.max),
                };
                let on = |ch: &Chunk| -> Vec<DVec2> {
                    ch.verts
                        .iter()
                        .copied()
                        .filter(|&p| side.contains(p))
                        .collect()
                };
                let (pc, pd) = (on(&chunking.chunks[c]), on(&chunking.chunks[d]));
                for (from, to, to_pts) in [(&pc, d, &pd), (&pd, c, &pc)] {
                    let missing: Vec<DVec2> = from
                        .iter()
                        .copied()
                        .filter(|p| !to_pts.contains(p))
                        .collect();
                    if !missing.is_empty() {
                        chunking.chunks[to].extra.extend(missing);
                        next.push(to);
                    }
                }
            }
        }
        next.sort_unstable();
        next.dedup();
        if next.is_empty() {
            return Ok(built);
        }
        todo = next;
    }
    Err(BuildError::Triangulation(format!(
        "chunk borders still differ after {MAX_BORDER_ROUNDS} rounds (chunk size {} m)",
        Num(grid.size)
    )))
}

/// Builds one chunk: the square `rect`, its border split at `extra` too.
fn build_chunk(
    input: &Input,
    rect: Aabb,
    extra: Vec<DVec2>,
    cand: &mut Vec<u32>,
) -> Result<Chunk, BuildError> {
    let Input {
        pieces,
        interior,
        grid,
        inner,
        budget,
        gate_ids,
    } = *input;
    let frame = rect.expand(0.25 * (rect.max.x - rect.min.x));
    let mut out = Segments {
        pts: Points::with_capacity(64),
        segs: Vec::new(),
        source: Vec::new(),
        piece: Vec::new(),
    };
    for c in frame.corners() {
        out.pts.id(c);
    }
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
            out.segs.push([out.pts.id(prev), out.pts.id(p)]);
            out.source.push(BORDER_SOURCE);
            out.piece.push(BORDER_PIECE);
            prev = p;
        }
    }
    let push = |out: &mut Segments, a: DVec2, b: DVec2, source: PolygonId, piece: u32| {
        if let Some((u, v)) = clip(a, b, &rect) {
            out.segs.push([out.pts.id(u), out.pts.id(v)]);
            out.source.push(source);
            out.piece.push(piece);
        }
    };
    let bc = inner.corners();
    for k in 0..4 {
        let (a, b) = (bc[k], bc[(k + 1) % 4]);
        if !buried(a, b, NO_PIECE, pieces, grid) {
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
        // The polygon's pieces are consecutive: take them all when it is thinned (what
        // thinning keeps depends on the whole polygon), else only those reaching the chunk.
        let mut start = i as usize;
        while start > 0 && pieces[start - 1].source == source {
            start -= 1;
        }
        let mut end = i as usize + 1;
        while end < pieces.len() && pieces[end].source == source {
            end += 1;
        }
        done.push(source);
        local.clear();
        for k in start..end {
            let pts = &pieces[k].points;
            for (e, &a) in pts.iter().enumerate() {
                let b = pts[(e + 1) % pts.len()];
                if (e >= 64 || interior[k] & 1 << e == 0) && !buried(a, b, k as u32, pieces, grid) {
                    local.push(([out.pts.id(a), out.pts.id(b)], k as u32));
                }
            }
        }
        let solid = pieces[start].kind == super::polygon::PolygonKind::Solid;
        if solid && needs_thinning(&out.pts.points, &local, end - start) {
            local = thinned(&mut out.pts, &local, pieces, grid, budget).map_err(|e| match e {
                PlanarizeError::Unresolved(at) => unresolved(at),
                PlanarizeError::OverBudget {
                    what, count, limit, ..
                } => BuildError::TooIntricate {
                    polygon: source,
                    what,
                    count,
                    limit,
                },
            })?;
        }
        for &([a, b], k) in &local {
            let (a, b) = (out.pts.points[a as usize], out.pts.points[b as usize]);
            push(&mut out, a, b, source, k);
        }
    }
    let Segments {
        mut pts,
        segs,
        source,
        piece,
    } = out;
    let split = planarize(&mut pts, &segs, budget).map_err(|e| match e {
        PlanarizeError::Unresolved(at) => unresolved(at),
        PlanarizeError::OverBudget {
            what,
            count,
            limit,
            segment,
        } => BuildError::TooIntricate {
            polygon: source[segment as usize],
            what,
            count,
            limit,
        },
    })?;
    let (runs, mut used) = kept_runs(&pts.points, &split, &piece, pieces, grid);
    let (mut lists, run_list) = run_source_lists(&runs, &split, &source);
    let chains = Junctions::find(&pts.points, &split, &runs, |p| on_boundary(&rect, p));
    for (p, &j) in chains.is_junction.iter().enumerate() {
        if j {
            used[p] = false;
        }
    }
    let (verts, remap) = order_vertices(&pts.points, &used, &frame);
    let edges = constraint_edges(&chains, &run_list, &mut lists, &pts.points, &remap);
    drop(chains);
    let (mut faces, conflicts) = cdt::triangulate(&verts, edges).map_err(|e| match e {
        cdt::CdtError::BadVertex(v) => BuildError::Triangulation(format!(
            "vertex ({}, {}) is repeated or outside the chunk's frame",
            Num(verts[v as usize].x),
            Num(verts[v as usize].y)
        )),
    })?;
    if conflicts > 0 {
        return Err(BuildError::Triangulation(format!(
            "{conflicts} constraint edges conflict after splitting"
        )));
    }
    let gates = classify_regions(&mut faces, &verts, pieces, grid, inner, gate_ids.to_vec());
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
            let doors = gf.gates.iter().map(|&g| gates.ids[g as usize].0).collect();
            gated.push((f, gf.open_kind, doors));
        }
    }
    Ok(Chunk {
        verts: verts[4..].to_vec(),
        faces: kept,
        lists,
        gated,
        extra,
    })
}

/// Concatenates the chunks into the mesh's arrays and links faces across chunk borders.
fn assemble(mesh: &mut CollisionMesh, chunking: &Chunking) -> Result<(), BuildError> {
    let grid = &chunking.grid;
    let faces_total: usize = chunking.chunks.iter().map(|c| c.faces.len()).sum();
    let verts_total: usize = chunking.chunks.iter().map(|c| c.verts.len()).sum();
    let mut vertices: Vec<DVec2> = Vec::with_capacity(verts_total);
    let mut faces: Vec<Face> = Vec::with_capacity(faces_total + 1);
    faces.push(Face {
        v: [0; 3],
        adj: [FaceId::OUTSIDE; 3],
        constraint: 0,
        kind: FaceKind::Solid,
        edge_sources: [u32::MAX; 3],
    });
    let mut lists = SourceLists::with_capacity(faces_total / 4, faces_total / 4);
    let mut shared: HashMap<[u64; 2], u32> = HashMap::new();
    let mut open: HashMap<[u32; 2], (u32, u8)> = HashMap::new();
    let gate_ids = door_gates(&mesh.pieces);
    let mut gates = Gates {
        by_gate: vec![Vec::new(); gate_ids.len()],
        ids: gate_ids,
        faces: Vec::new(),
    };
    let mut vmap: Vec<u32> = Vec::new();
    for (c, chunk) in chunking.chunks.iter().enumerate() {
        let rect = grid.rect(c);
        vmap.clear();
        for &p in &chunk.verts {
            let id = if on_boundary(&rect, p) {
                *shared
                    .entry([p.x.to_bits(), p.y.to_bits()])
                    .or_insert_with(|| {
                        vertices.push(p);
                        (vertices.len() - 1) as u32
                    })
            } else {
                vertices.push(p);
                (vertices.len() - 1) as u32
            };
            vmap.push(id);
        }
        let list_map = lists.append_without(&chunk.lists, BORDER_SOURCE);
        let base = faces.len() as u32;
        for (lf, face) in chunk.faces.iter().enumerate() {
            let f = base + lf as u32;
            let mut g = *face;
            g.v = face.v.map(|v| vmap[v as usize]);
            for i in 0..3 {
                if face.constraint & 1 << i != 0 {
                    let l = list_map[face.edge_sources[i] as usize];
                    g.edge_sources[i] = l;
                    if l == u32::MAX {
                        g.constraint &= !(1 << i);
                    }
                }
                if face.adj[i].0 == UNLINKED {
                    let (a, b) = (g.v[i], g.v[(i + 1) % 3]);
                    if let Some((h, j)) = open.remove(&[b, a]) {
                        g.adj[i] = FaceId(h);
                        faces[h as usize].adj[j as usize] = FaceId(f);
                    } else {
                        open.insert([a, b], (f, i as u8));
                        g.adj[i] = FaceId::OUTSIDE;
                    }
                } else {
                    g.adj[i] = FaceId(base + face.adj[i].0);
                }
            }
            faces.push(g);
        }
        for (lf, open_kind, doors) in &chunk.gated {
            let n = gates.faces.len() as u32;
            let ids: SmallVec<[u32; 2]> = doors
                .iter()
                .filter_map(|d| gates.ids.iter().position(|g| g.0 == *d))
                .map(|g| g as u32)
                .collect();
            for &g in &ids {
                gates.by_gate[g as usize].push(n);
            }
            gates.faces.push(GatedFace {
                face: FaceId(base + lf),
                open_kind: *open_kind,
                gates: ids,
            });
        }
    }
    // What is still open lies on the grid's outer boundary (the hull), or the borders differ.
    let hull = grid.bounds();
    for &[a, b] in open.keys() {
        let (p, q) = (vertices[a as usize], vertices[b as usize]);
        let on_hull = |axis: usize, v: f64| p[axis] == v && q[axis] == v;
        if !(on_hull(0, hull.min.x)
            || on_hull(0, hull.max.x)
            || on_hull(1, hull.min.y)
            || on_hull(1, hull.max.y))
        {
            return Err(BuildError::Triangulation(format!(
                "chunk borders do not match near ({}, {})",
                Num(p.x),
                Num(p.y)
            )));
        }
    }
    let extent = Aabb::from_points(vertices.iter().copied());
    mesh.seeds = Seeds::new(&vertices, &faces, extent);
    mesh.extent = extent;
    mesh.vertices = vertices;
    mesh.faces = faces;
    mesh.source_lists = lists;
    mesh.gates = gates;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_gives_both_sides_of_a_line_the_same_point() {
        let left = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(8.0, 8.0),
        };
        let right = Aabb {
            min: DVec2::new(8.0, 0.0),
            max: DVec2::new(16.0, 8.0),
        };
        let (a, b) = (DVec2::new(1.1, 0.3), DVec2::new(14.7, 7.9));
        for (u, v) in [(a, b), (b, a)] {
            let (_, l) = clip(u, v, &left).unwrap();
            let (r, _) = clip(u, v, &right).unwrap();
            assert_eq!(l, r);
            assert_eq!(l.x, 8.0);
        }
        // A segment along the shared line belongs to both closed squares.
        let (u, v) = (DVec2::new(8.0, 1.0), DVec2::new(8.0, 3.0));
        assert_eq!(clip(u, v, &left), Some((u, v)));
        assert_eq!(clip(u, v, &right), Some((u, v)));
        // Touching a corner only is no part.
        assert_eq!(
            clip(
                DVec2::new(7.0, 9.0),
                DVec2::new(9.0, 7.0),
                &left.expand(0.0)
            ),
            None
        );
    }

    #[test]
    fn the_grid_lies_on_whole_multiples_of_its_size() {
        let g = ChunkGrid::covering(
            Aabb {
                min: DVec2::new(-3.0, 5.0),
                max: DVec2::new(17.0, 6.0),
            },
            8.0,
        );
        assert_eq!(g.bounds().min, DVec2::new(-8.0, 0.0));
        assert_eq!(g.bounds().max, DVec2::new(24.0, 8.0));
        assert_eq!(g.rect(0).max, g.rect(1).min + DVec2::new(0.0, 8.0));
        let mut t = Vec::new();
        g.touching(
            &Aabb {
                min: DVec2::new(0.0, 1.0),
                max: DVec2::new(1.0, 2.0),
            },
            &mut t,
        );
        assert_eq!(t, [0, 1]);
    }
}
