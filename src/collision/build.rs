//! Building a collision mesh: validate, decompose, inflate, triangulate, classify.
//!
//! 1. Every source polygon is validated, the fine notches of long solid outlines are filled (a
//!    zigzag of teeth far below the collider's size becomes its outer hull where the collider
//!    feels the difference by at most 1 mm; see `fill`), then it is split into convex pieces and each piece inflated by the reflected
//!    collider (exact Minkowski sum; see `minkowski`).
//! 2. Every inflated edge, and the level-bounds rectangle, becomes a constraint edge of a
//!    constrained Delaunay triangulation built directly in the mesh's face array (`cdt`).
//!    Crossing constraint edges are split at the crossing, and overlapping collinear ones where
//!    their endpoints lie on each other, with exact predicates before triangulation (see
//!    `planarize`); `cdt` triangulates the resulting planar segment set. No polygon union is computed, so each
//!    edge keeps its origin. First, an inflated edge that the decomposition of a long solid
//!    polygon places inside that polygon's own inflation (an interior diagonal moved by a
//!    collider vertex, or a collider edge moved to an interior Steiner point: see
//!    `decompose::Inside` and `minkowski::minkowski_sum_inside`) is not collected at all. One
//!    exact shortcut: an edge *buried* in a solid piece (both ends in
//!    the closed piece, not both on one of its edge lines, so its interior is in the piece's
//!    interior) separates two solid faces and bounds nothing the walk can reach, so it is left
//!    out ([`super::buried`]), before splitting for whole inflated edges and after it for split pieces, and points no
//!    remaining edge uses are dropped. On a level of overlapping tiles this removes half of the
//!    edges and a third of the vertices (and the build time with them). A second one: a
//!    *junction*, a point where exactly two kept pieces meet in a straight line (where collinear
//!    outlines of neighbouring tiles overlap, each piece's corner splits the line), bounds
//!    nothing either, so the straight chain through it becomes one constraint edge and the point
//!    is left out (a quarter of the vertices on the tile bench level); the edge's source list
//!    keeps which polygons it lies on from which junction on (see [`super::runs`]). A third: a
//!    *dangling* edge, one with an end no other kept edge touches, cannot lie on the closed
//!    loops that separate free, one-way and solid space, so it bounds nothing and is left out,
//!    repeatedly (see [`super::runs`]; a fifth to a third of what the first shortcut keeps on
//!    the tile bench level lies along one piece's outline inside the union of its neighbours).
//! 3. Faces joined by non-constraint edges form regions. Every part of the boundary between free
//!    (or one-way) space and the inside of a solid piece lies on a kept constraint edge (a buried
//!    edge is interior to a solid piece), so a region is wholly solid, wholly one-way or wholly
//!    free: one point test per region (at the centroid of its largest triangle, far from any
//!    edge) classifies it. This is exact topology plus one well-conditioned test, instead of a
//!    fragile test per sliver triangle (see `regions`).
//! 4. Each constraint edge records the source polygons whose inflated outline it lies on: every
//!    piece of a split edge remembers the inflated edge it came from, and identical pieces of
//!    several overlapping edges list all their sources (exact, no distance test). The list's
//!    index is stored on the face's edge (`Face::edge_sources`) as the triangulation makes the
//!    segment an edge, so every constraint edge has its list by construction (see `cdt`).
//!
//! Pieces are processed in Z-order and the kept vertices triangulated in Z-order, whatever
//! order the level lists its polygons in, so each stage's neighbour queries stay in cache.
//!
//! The triangulation covers the level bounds (`MeshConfig::bounds`, by default the inflated
//! pieces' box grown by [`AUTO_BOUNDS_MARGIN`](super::predicates::AUTO_BOUNDS_MARGIN)) plus a frame of 5% of their size (at least 1 m), so
//! the bounds rectangle is made of interior constraint edges with solid faces outside it. Debug
//! builds run [`CollisionMesh::check_invariants`] on every mesh.
//!
//! Everything here is validated before anything is built: bad input is a typed
//! [`GeometryError`] naming the polygon, never a panic; a failure past validation (a vertex the
//! triangulation refuses, constraint edges that would not resolve) is a [`BuildError`] too.

use std::borrow::Cow;

use glam::DVec2;

use super::buried::{buried, buried_deep};
use super::cdt;
use super::collider::ColliderShape;
use super::decompose::for_each_convex_piece;
use super::fill::{fill_mouth, filled_outline};
use super::grid::PieceGrid;
use super::locate::Seeds;
use super::mesh::{CollisionMesh, Face, Gates, InflatedPiece, SourceLists};
use super::minkowski::{minkowski_sum_inside, reflect};
use super::planarize::{planarize, Piece, PlanarizeError, Points, MAX_PASSES};
use super::polygon::{
    normalized_ccw, validate_polygon, GeometryError, Num, PolygonId, Solidity, SourcePolygon,
    MAX_COORDINATE,
};
use super::predicates::{automatic_bounds, Aabb};
use super::regions::{classify_regions, gates_of};
use super::runs::{prune_dangling, Junctions};
use super::thin::{needs_thinning, thinned, PieceSegment};

/// How to build a mesh. `Default` gives the documented defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshConfig {
    /// The region the body's reference point may occupy; everything outside is solid. `None`: the
    /// bounding box of all inflated pieces grown by
    /// [`AUTO_BOUNDS_MARGIN`](super::predicates::AUTO_BOUNDS_MARGIN) (the game always passes the
    /// level's bounds, automatic ones included: `sim::world::automatic_bounds`).
    pub bounds: Option<Aabb>,
    /// A one-way piece's edge blocks downward movement only if its upward normal's y is at least
    /// this (default 0.5: tops up to 60° from horizontal; the sides never block).
    pub one_way_min_normal_y: f64,
}

impl Default for MeshConfig {
    fn default() -> Self {
        MeshConfig {
            bounds: None,
            one_way_min_normal_y: 0.5,
        }
    }
}

/// Why a mesh could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// A polygon or the collider is malformed.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// The configured bounds are empty, non-finite or out of range.
    #[error("level bounds {0:?} are empty, non-finite or beyond ±1e7 m")]
    BadBounds(Aabb),
    /// Spade refused a vertex.
    #[error("triangulation failed: {0}")]
    Triangulation(String),
    /// The level's inflated outlines overlap so much that building its mesh would take more
    /// memory than its size warrants (see [`WORK_PER_POINT`]).
    #[error(
        "{polygon}: its outline, inflated by the collider, overlaps itself or its neighbours too \
         often ({count} {what}; the limit for this level is {limit}, {WORK_PER_POINT} per point \
         of the level and at least {WORK_FLOOR}). Detail much finer than the collider that is \
         not fine enough to be filled (teeth or slivers a few millimetres apart) costs this: \
         simplify the outline there"
    )]
    TooIntricate {
        /// A polygon where the overlap is.
        polygon: PolygonId,
        /// What was counted ("crossing points", "candidate pairs", "grid entries").
        what: &'static str,
        /// How many, when counting stopped.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// The built mesh failed its invariant check (an internal bug; please report the level).
    #[error("collision mesh invariant violated: {0}")]
    Invariant(String),
}

/// Work the splitting stage may do per point of the level's polygons: grid entries, candidate
/// pairs in one pass and crossing points in all are each held under
/// `WORK_PER_POINT × points` (at least [`WORK_FLOOR`]). Each unit of work holds a few dozen bytes
/// while the mesh is built, so a level costs at most a few kilobytes per point, whatever its
/// shape; the levels and benches measured need at most 4 per point (the overlap of thin teeth
/// wider apart than `fill` fills is what used to need hundreds).
pub const WORK_PER_POINT: usize = 64;

/// The least work allowed a level however few its points (2²¹: about 100 MB at most).
pub const WORK_FLOOR: usize = 1 << 21;

/// Builds the collision mesh of `polygons` for `collider`.
pub fn build_mesh(
    polygons: &[SourcePolygon],
    collider: &ColliderShape,
    config: &MeshConfig,
) -> Result<CollisionMesh, BuildError> {
    let mut ph = PhaseClock::start();
    let q = collider.points()?;
    validate_all(polygons)?;
    ph.lap("validate");
    let (pieces, interior) = inflate_all(polygons, &q)?;
    ph.lap("decompose and inflate");
    let inner = bounds_for(&pieces, &q, config)?;
    let outer = frame_around(inner, &pieces);
    let input = Input::new(&pieces, &interior, outer, inner, work_budget(polygons));
    let segments = collect_segments(&input, outer)?;
    ph.lap("grid and segments");
    let Triangulation {
        verts: vertices,
        faces,
        lists: sources,
        gates,
    } = triangulate(segments, &input, &outer, |_| false, &mut ph)?;
    ph.report(polygons.len());

    let extent = Aabb::from_points(vertices.iter().copied());
    let seeds = Seeds::new(&vertices, &faces, extent);
    let mesh = CollisionMesh {
        collider: q,
        extent,
        vertices,
        faces,
        source_lists: sources,
        pieces,
        bounds: inner,
        one_way_min_normal_y: config.one_way_min_normal_y,
        seeds,
        gates,
        chunking: None,
    };
    if cfg!(debug_assertions) {
        mesh.check_invariants()
            .map_err(|e| BuildError::Invariant(e.to_string()))?;
    }
    Ok(mesh)
}

/// Validates every polygon (the first error found).
pub(super) fn validate_all(polygons: &[SourcePolygon]) -> Result<(), BuildError> {
    for poly in polygons {
        validate_polygon(poly.id, &poly.points)?;
    }
    Ok(())
}

/// The work the splitting stage may do for `polygons` (see [`WORK_PER_POINT`]).
pub(super) fn work_budget(polygons: &[SourcePolygon]) -> usize {
    let points: usize = polygons.iter().map(|p| p.points.len()).sum();
    WORK_PER_POINT.saturating_mul(points).max(WORK_FLOOR)
}

/// The triangulation's frame: the level bounds `inner` and every piece (explicit bounds may
/// leave some outside), grown by 5 % of the bounds' size (at least 1 m). The triangulation's hull
/// is its four corners.
pub(super) fn frame_around(inner: Aabb, pieces: &[InflatedPiece]) -> Aabb {
    let frame = (0.05 * (inner.max - inner.min).max_element()).max(1.0);
    pieces
        .iter()
        .fold(inner, |b, p| b.union(&p.aabb))
        .expand(frame)
}

/// What the build's stages read besides the segments: the inflated pieces, their interior-edge
/// masks (see `decompose::Inside`) and the grid over them, the level bounds, the work budget and
/// the gates (what [`classify_regions`] numbers them by). A whole build passes every
/// piece; a chunk (see [`super::chunked`]) the pieces of the polygons that reach it.
pub(super) struct Input<'a> {
    pub(super) pieces: &'a [InflatedPiece],
    pub(super) interior: &'a [u64],
    pub(super) grid: PieceGrid,
    pub(super) inner: Aabb,
    pub(super) budget: usize,
    pub(super) gate_ids: Vec<(PolygonId, bool)>,
}

impl<'a> Input<'a> {
    /// The input of `pieces` (with their `interior` masks) for segments within `region`, in the
    /// level bounds `inner`, with `budget` work allowed.
    pub(super) fn new(
        pieces: &'a [InflatedPiece],
        interior: &'a [u64],
        region: Aabb,
        inner: Aabb,
        budget: usize,
    ) -> Self {
        Input {
            pieces,
            interior,
            grid: PieceGrid::new(pieces, region),
            inner,
            budget,
            gate_ids: gates_of(pieces),
        }
    }
}

/// Wall-clock time of each build stage, logged at debug level (`RUST_LOG=tessera::collision=debug`)
/// to see where a level's build time goes; reads no clock when that level is off.
pub(super) struct PhaseClock {
    last: Option<std::time::Instant>,
    laps: Vec<(&'static str, std::time::Duration)>,
}

impl PhaseClock {
    fn start() -> Self {
        PhaseClock {
            last: log::log_enabled!(log::Level::Debug).then(std::time::Instant::now),
            laps: Vec::new(),
        }
    }
    /// A clock that reads no clock and logs nothing (a chunk's build: its stages are timed as
    /// a whole by whoever builds the chunks).
    pub(super) fn off() -> Self {
        PhaseClock {
            last: None,
            laps: Vec::new(),
        }
    }
    /// Ends the current stage, named `name`.
    fn lap(&mut self, name: &'static str) {
        if let Some(last) = self.last {
            let now = std::time::Instant::now();
            self.laps.push((name, now - last));
            self.last = Some(now);
        }
    }
    fn report(&self, polygons: usize) {
        if self.last.is_some() {
            let laps: Vec<String> = self
                .laps
                .iter()
                .map(|(n, d)| format!("{n} {:.2}", d.as_secs_f64() * 1e3))
                .collect();
            log::debug!("mesh build, {polygons} polygons, ms: {}", laps.join(", "));
        }
    }
}

/// Splits every polygon into convex pieces and inflates each by `−collider`. The pieces come out
/// in Z-order of their polygons' boxes, whatever the input order (an editor appends polygons, a
/// generator may shuffle them): every later stage queries pieces and points near the piece at
/// hand, and this keeps those neighbours close in memory.
pub(super) fn inflate_all(
    polygons: &[SourcePolygon],
    q: &[DVec2],
) -> Result<(Vec<InflatedPiece>, Vec<u64>), BuildError> {
    let neg_q = reflect(q);
    let mouth = fill_mouth(q);
    let boxes: Vec<Aabb> = polygons
        .iter()
        .map(|p| Aabb::from_points(p.points.iter().copied()))
        .collect();
    let all = boxes.iter().fold(
        Aabb {
            min: DVec2::INFINITY,
            max: DVec2::NEG_INFINITY,
        },
        |acc, b| acc.union(b),
    );
    // Key and index packed in one integer (the key has 32 bits): a plain integer sort.
    let mut order: Vec<u64> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| z_order((b.min + b.max) * 0.5, &all) << 32 | i as u64)
        .collect();
    order.sort_unstable();
    let mut pieces = Vec::with_capacity(polygons.len());
    let mut interior = Vec::with_capacity(polygons.len());
    for &key in &order {
        let poly = &polygons[key as u32 as usize];
        if poly.kind == Solidity::Passable {
            // Not an obstacle: no piece (validated all the same, above).
            continue;
        }
        let ccw = normalized_ccw(&poly.points);
        // Fine notches of long solid outlines are filled first (see `fill`): one-way outlines
        // keep every point, since their edges are what a body moving down lands on.
        let ccw = if poly.kind == Solidity::Solid {
            match filled_outline(poly.id, &ccw, mouth) {
                Cow::Owned(f) => Cow::Owned(f),
                Cow::Borrowed(_) => ccw,
            }
        } else {
            ccw
        };
        for_each_convex_piece(&ccw, |c, inside| {
            // Interior edges bound nothing only where the polygon is solid: a one-way region's
            // edges are also what blocks a body moving down (see `walk`).
            let inside = if poly.kind == Solidity::Solid {
                inside
            } else {
                &[]
            };
            let (mut points, mask) = minkowski_sum_inside(c, inside, &neg_q);
            // The mesh keeps every piece: no spare capacity (a sum is sized for n + m points,
            // and parallel edges merge).
            points.shrink_to_fit();
            let aabb = Aabb::from_points(points.iter().copied());
            pieces.push(InflatedPiece {
                source: poly.id,
                kind: poly.kind,
                points,
                aabb,
            });
            interior.push(mask);
        })
        .ok_or(GeometryError::SelfIntersection {
            polygon: poly.id,
            a: 0,
            b: 0,
        })?;
    }
    Ok((pieces, interior))
}

pub(super) fn bounds_for(
    pieces: &[InflatedPiece],
    q: &[DVec2],
    config: &MeshConfig,
) -> Result<Aabb, BuildError> {
    let b = match config.bounds {
        Some(b) => b,
        None => automatic_bounds(
            q.iter()
                .map(|p| -*p)
                .chain(pieces.iter().flat_map(|p| [p.aabb.min, p.aabb.max])),
        ),
    };
    let ok = b.min.is_finite()
        && b.max.is_finite()
        && b.min.x < b.max.x
        && b.min.y < b.max.y
        && b.min.abs().max_element() <= 2.0 * MAX_COORDINATE
        && b.max.abs().max_element() <= 2.0 * MAX_COORDINATE;
    if ok {
        Ok(b)
    } else {
        Err(BuildError::BadBounds(b))
    }
}

/// A triangulation with its regions classified: what the build's stages make of a set of
/// segments.
pub(super) struct Triangulation {
    /// The kept points in Z-order, the frame's four corners first.
    pub(super) verts: Vec<DVec2>,
    /// The faces, with their kinds.
    pub(super) faces: Vec<Face>,
    /// The constraint edges' source lists.
    pub(super) lists: SourceLists,
    /// The faces each gate covers.
    pub(super) gates: Gates,
}

/// The build's stages from the collected segments on: splits them where they cross or touch
/// ([`planarize`]), drops buried and dangling runs, joins straight chains through junctions
/// (never at a point `pinned` says), orders the kept points in Z-order over `frame` (whose four
/// corners are points 0 to 3 of `segments`), triangulates (`cdt`) and classifies the regions.
/// Each split piece keeps the input edge it came from, so every constraint edge knows its
/// source polygons exactly (all of them, where collinear edges of several pieces overlap).
///
/// The stages, in order: [`planarize`], [`kept_runs`], [`run_source_lists`], the junctions
/// ([`Junctions::find`]), [`order_vertices`], [`constraint_edges`], `cdt::triangulate` and
/// [`classify_regions`]. A whole build runs them once; a chunked one once per chunk.
pub(super) fn triangulate(
    segments: Segments,
    input: &Input,
    frame: &Aabb,
    pinned: impl Fn(DVec2) -> bool,
    ph: &mut PhaseClock,
) -> Result<Triangulation, BuildError> {
    let Segments {
        mut pts,
        segs,
        source,
        piece,
    } = segments;
    let split =
        planarize(&mut pts, &segs, input.budget).map_err(|e| planarize_failed(e, &source))?;
    drop(segs);
    ph.lap("planarize");
    let (runs, mut used) = kept_runs(&pts.points, &split, &piece, input.pieces, &input.grid);
    ph.lap("drop buried pieces");
    let (mut lists, run_list) = run_source_lists(&runs, &split, &source);
    // Straight chains through junctions become single constraint edges (see [`super::runs`]).
    let chains = Junctions::find(&pts.points, &split, &runs, pinned);
    for (p, &j) in chains.is_junction.iter().enumerate() {
        if j {
            used[p] = false;
        }
    }
    let (verts, remap) = order_vertices(&pts.points, &used, frame);
    ph.lap("order vertices");
    let edges = constraint_edges(&chains, &run_list, &mut lists, &pts.points, &remap);
    ph.lap("source lists");
    // The face array is the largest thing a build holds: free the splitting stage's arrays
    // first rather than at the end of this function.
    drop(chains);
    drop((pts, split, runs, used, run_list, remap, source, piece));
    let (mut faces, conflicts) = cdt::triangulate(&verts, edges).map_err(|e| match e {
        cdt::CdtError::BadVertex(v) => BuildError::Triangulation(format!(
            "vertex ({}, {}) is repeated or outside the frame",
            Num(verts[v as usize].x),
            Num(verts[v as usize].y)
        )),
    })?;
    ph.lap("triangulation");
    if conflicts > 0 {
        return Err(BuildError::Triangulation(format!(
            "{conflicts} constraint edges conflict after splitting"
        )));
    }
    let gates = classify_regions(
        &mut faces,
        &verts,
        input.pieces,
        &input.grid,
        input.inner,
        input.gate_ids.clone(),
    );
    ph.lap("classify regions");
    Ok(Triangulation {
        verts,
        faces,
        lists,
        gates,
    })
}

/// The constraint segments before splitting, each with where it came from.
pub(super) struct Segments {
    /// Every segment end, deduplicated exactly; the frame's four corners are points 0 to 3.
    pub(super) pts: Points,
    /// The segments, as pairs of point ids.
    pub(super) segs: Vec<[u32; 2]>,
    /// The source polygon of each segment ([`PolygonId::BOUNDS`] for the bounds).
    pub(super) source: Vec<PolygonId>,
    /// The piece each segment comes from ([`NO_PIECE`] for the bounds, [`BORDER_PIECE`] for a
    /// chunk's border).
    pub(super) piece: Vec<u32>,
}

impl Segments {
    /// No segments yet, and the four corners of `frame` as points 0 to 3 (room for `points`).
    pub(super) fn framed(frame: &Aabb, points: usize) -> Segments {
        let mut out = Segments {
            pts: Points::with_capacity(points),
            segs: Vec::new(),
            source: Vec::new(),
            piece: Vec::new(),
        };
        for c in frame.corners() {
            out.pts.id(c);
        }
        out
    }

    /// Adds the segment from `a` to `b` of polygon `source`'s piece `piece`.
    pub(super) fn push(&mut self, a: DVec2, b: DVec2, source: PolygonId, piece: u32) {
        let seg = [self.pts.id(a), self.pts.id(b)];
        self.segs.push(seg);
        self.source.push(source);
        self.piece.push(piece);
    }
}

/// The frame's corners (points 0 to 3), then the bounds rectangle and every inflated piece's
/// outline as segments, leaving out edges that bound nothing ([`polygon_segments`]).
fn collect_segments(input: &Input, frame: Aabb) -> Result<Segments, BuildError> {
    let pieces = input.pieces;
    let mut out = Segments::framed(
        &frame,
        4 + 4 + pieces.iter().map(|p| p.points.len()).sum::<usize>(),
    );
    let bc = input.inner.corners();
    for k in 0..4 {
        let (a, b) = (bc[k], bc[(k + 1) % 4]);
        if !buried(a, b, NO_PIECE, pieces, &input.grid) {
            out.push(a, b, PolygonId::BOUNDS, NO_PIECE);
        }
    }
    let mut start = 0;
    let mut local: Vec<PieceSegment> = Vec::new();
    while start < pieces.len() {
        let source = pieces[start].source;
        let end = start
            + pieces[start..]
                .iter()
                .position(|p| p.source != source)
                .unwrap_or(pieces.len() - start);
        polygon_segments(&mut out.pts, start..end, input, &mut local)?;
        for &(seg, piece) in &local {
            out.segs.push(seg);
            out.source.push(source);
            out.piece.push(piece);
        }
        start = end;
    }
    Ok(out)
}

/// The segments of one polygon's pieces, `input.pieces[range]`, that can bound anything, into
/// `local` (cleared first) as pairs of point ids of `pts` with their piece: every outline edge
/// but those interior to the polygon (its pieces' interior masks) or buried in a piece. A solid
/// polygon whose pieces overlap heavily is thinned first ([`super::thin`]): only split pieces
/// that can lie on the boundary of its pieces' union are kept.
pub(super) fn polygon_segments(
    pts: &mut Points,
    range: std::ops::Range<usize>,
    input: &Input,
    local: &mut Vec<PieceSegment>,
) -> Result<(), BuildError> {
    let (pieces, interior, grid, budget) =
        (input.pieces, input.interior, &input.grid, input.budget);
    local.clear();
    let (start, end) = (range.start, range.end);
    for i in range {
        let outline = &pieces[i].points;
        for (k, &a) in outline.iter().enumerate() {
            let b = outline[(k + 1) % outline.len()];
            if (k >= 64 || interior[i] & 1 << k == 0) && !buried(a, b, i as u32, pieces, grid) {
                local.push(([pts.id(a), pts.id(b)], i as u32));
            }
        }
    }
    let solid = pieces[start].kind == Solidity::Solid;
    if solid && needs_thinning(&pts.points, local, end - start) {
        let source = pieces[start].source;
        *local = thinned(pts, local, pieces, grid, budget).map_err(|e| match e {
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
    Ok(())
}

/// The build error for a failed split of the segments whose sources are `source`.
pub(super) fn planarize_failed(e: PlanarizeError, source: &[PolygonId]) -> BuildError {
    match e {
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
    }
}

/// The error for crossings still unresolved near `at` after every splitting pass.
pub(super) fn unresolved(at: DVec2) -> BuildError {
    BuildError::Triangulation(format!(
        "constraint edges still cross near ({}, {}) after {MAX_PASSES} splitting passes",
        Num(at.x),
        Num(at.y)
    ))
}

/// The runs of `split` (sorted by point pair: one constraint edge per run of equal pairs, as
/// `(start, end)` ranges) that are kept, and which points they use. Pieces deep inside a solid
/// piece are dropped ([`buried_deep`]), then dangling runs ([`prune_dangling`]); the kept points
/// are the frame's four corners and every end of a kept run.
pub(super) fn kept_runs(
    points: &[DVec2],
    split: &[Piece],
    seg_piece: &[u32],
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
) -> (Vec<(usize, usize)>, Vec<bool>) {
    let mut runs: Vec<(usize, usize)> = Vec::with_capacity(split.len());
    let mut used = vec![false; points.len()];
    used[..4].fill(true);
    let mut k = 0;
    while k < split.len() {
        let pair = split[k].0;
        let start = k;
        while k < split.len() && split[k].0 == pair {
            k += 1;
        }
        let (a, b) = (points[pair[0] as usize], points[pair[1] as usize]);
        let border = split[start..k]
            .iter()
            .any(|s| seg_piece[s.1 as usize] == BORDER_PIECE);
        if border || !buried_deep(a, b, seg_piece[split[start].1 as usize], pieces, grid) {
            runs.push((start, k));
        }
    }
    prune_dangling(&mut runs, split, points.len());
    for &(start, _) in &runs {
        let [a, b] = split[start].0;
        used[a as usize] = true;
        used[b as usize] = true;
    }
    (runs, used)
}

/// One source list per kept run: the sources of its pieces, sorted, without repeats. Returns the
/// lists and each run's list index.
pub(super) fn run_source_lists(
    runs: &[(usize, usize)],
    split: &[Piece],
    seg_source: &[PolygonId],
) -> (SourceLists, Vec<u32>) {
    let mut lists = SourceLists::with_capacity(runs.len(), split.len());
    let mut srcs: Vec<PolygonId> = Vec::new();
    let run_list: Vec<u32> = runs
        .iter()
        .map(|&(start, end)| {
            srcs.clear();
            srcs.extend(split[start..end].iter().map(|s| seg_source[s.1 as usize]));
            srcs.sort_unstable();
            srcs.dedup();
            lists.push(&srcs)
        })
        .collect();
    (lists, run_list)
}

/// The kept points in Z-order (the frame's corners first) as the mesh's vertices, and the map
/// from point id to vertex index (`u32::MAX` for points left out). Polygons come in any order (an
/// editor appends them, a generator may shuffle them), and the triangulation's insertions and
/// constraint walks go from vertex to neighbouring vertex, which is then nearby in memory. Keys are
/// computed once (a sort by key recomputes them at every comparison), packed with the index into
/// one integer.
pub(super) fn order_vertices(
    points: &[DVec2],
    used: &[bool],
    outer: &Aabb,
) -> (Vec<DVec2>, Vec<u32>) {
    let mut order: Vec<u64> = (0..points.len() as u32)
        .filter(|&i| used[i as usize])
        .map(|i| z_order(points[i as usize], outer) << 32 | i as u64)
        .collect();
    order[4..].sort_unstable();
    let mut remap = vec![u32::MAX; points.len()];
    let mut verts: Vec<DVec2> = Vec::with_capacity(order.len());
    for &key in &order {
        let i = key as u32;
        let p = points[i as usize];
        remap[i as usize] = verts.len() as u32;
        verts.push(p);
    }
    (verts, remap)
}

/// The constraint edges, as `[vertex, vertex, list]`: one per chain of runs. A chain of one run
/// carries that run's list; a chain through junctions gets a new list (the union of its runs'
/// sources, sorted, without repeats) that also records from which point on each run's list
/// applies.
pub(super) fn constraint_edges(
    chains: &Junctions,
    run_list: &[u32],
    lists: &mut SourceLists,
    points: &[DVec2],
    remap: &[u32],
) -> Vec<[u32; 3]> {
    let mut edges: Vec<[u32; 3]> = Vec::with_capacity(run_list.len());
    let mut srcs: Vec<PolygonId> = Vec::new();
    chains.for_each_edge(|a, b, chain| {
        let list = match chain {
            [(_, r)] => run_list[*r as usize],
            parts => {
                srcs.clear();
                for &(_, r) in parts {
                    srcs.extend_from_slice(lists.get(run_list[r as usize]));
                }
                srcs.sort_unstable();
                srcs.dedup();
                lists.push_parts(
                    &srcs,
                    parts
                        .iter()
                        .map(|&(from, r)| (points[from as usize], run_list[r as usize])),
                )
            }
        };
        edges.push([remap[a as usize], remap[b as usize], list]);
    });
    edges
}

/// The Z-order (Morton) key of `p` on a 2^16 × 2^16 grid over `frame` (32 bits): points close in
/// the plane get close keys. Only an ordering for memory locality; ties and rounding are harmless.
pub(super) fn z_order(p: DVec2, frame: &Aabb) -> u64 {
    let size = (frame.max - frame.min).max(DVec2::splat(f64::MIN_POSITIVE));
    let q = |c: f64| (c.clamp(0.0, 1.0) * 65_535.0) as u64;
    let spread = |mut v: u64| {
        v = (v | (v << 8)) & 0x00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f;
        v = (v | (v << 2)) & 0x3333_3333;
        (v | (v << 1)) & 0x5555_5555
    };
    let t = (p - frame.min) / size;
    spread(q(t.x)) | (spread(q(t.y)) << 1)
}

/// No piece: the segment is a bounds edge.
pub(super) const NO_PIECE: u32 = u32::MAX;

/// The segment is part of a chunk's border (see [`super::chunked`]): never buried, never
/// dangling, its points never junctions.
pub(super) const BORDER_PIECE: u32 = u32::MAX - 1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::mesh::{EdgeRef, FaceId};

    fn square(id: u32, kind: Solidity, x0: f64, y0: f64, s: f64) -> SourcePolygon {
        SourcePolygon {
            id: PolygonId(id),
            kind,
            points: [(x0, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)]
                .map(|(x, y)| DVec2::new(x, y))
                .to_vec(),
        }
    }

    #[test]
    fn a_face_record_is_forty_bytes() {
        // Three vertices, three neighbours, three source lists and two bytes of flags: the face
        // array is most of a mesh's memory (BENCHMARKS.md, "Big and dense worlds").
        assert_eq!(std::mem::size_of::<Face>(), 40);
    }

    #[test]
    fn z_order_keys_follow_the_quadrants_of_the_frame() {
        let frame = Aabb {
            min: DVec2::new(-10.0, 5.0),
            max: DVec2::new(30.0, 25.0),
        };
        assert_eq!(z_order(frame.min, &frame), 0);
        assert_eq!(z_order(frame.max, &frame), u32::MAX as u64);
        // Every point of the lower-left quadrant comes before every point of the upper-right one,
        // and points outside the frame are clamped onto it.
        let low = z_order(DVec2::new(9.9, 14.9), &frame);
        let high = z_order(DVec2::new(10.1, 15.1), &frame);
        assert!(low < high, "{low:#x} {high:#x}");
        assert_eq!(
            z_order(DVec2::new(-1e9, 1e9), &frame),
            z_order(DVec2::new(-10.0, 25.0), &frame)
        );
    }

    /// Every source polygon with at least one constraint edge on its outline.
    fn outlined(m: &CollisionMesh) -> Vec<PolygonId> {
        let mut out: Vec<PolygonId> = (1..m.num_faces() as u32)
            .flat_map(|f| {
                (0..3u8).map(move |edge| EdgeRef {
                    face: FaceId(f),
                    edge,
                })
            })
            .filter(|&e| m.is_constraint(e))
            .flat_map(|e| m.edge_sources(e).to_vec())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn edges_buried_in_a_solid_piece_are_left_out_and_the_rest_kept() {
        let small = ColliderShape::Box {
            width: 0.2,
            height: 0.2,
        };
        let polys = [
            square(0, Solidity::Solid, 0.0, 0.0, 10.0),
            // Wholly inside polygon 0: its outline bounds nothing.
            square(1, Solidity::Solid, 4.0, 4.0, 1.0),
            square(2, Solidity::OneWay, 6.0, 6.0, 1.0),
            // Overlapping polygon 0's edge: the part outside stays.
            square(3, Solidity::Solid, 9.0, 4.0, 3.0),
            // A one-way piece does not bury a solid one.
            square(4, Solidity::OneWay, 20.0, 0.0, 5.0),
            square(5, Solidity::Solid, 21.0, 1.0, 1.0),
        ];
        let m = build_mesh(&polys, &small, &MeshConfig::default()).unwrap();
        m.check_invariants().unwrap();
        assert_eq!(
            outlined(&m),
            [0, 3, 4, 5]
                .map(PolygonId)
                .into_iter()
                .chain([PolygonId::BOUNDS])
                .collect::<Vec<_>>()
        );
        // Inside polygons 0 and 1 is still solid, and sourced by both.
        let p = DVec2::new(4.5, 4.5);
        assert!(matches!(
            m.locate(p, None),
            crate::collision::Location::Solid(_)
        ));
        assert_eq!(m.sources_at(p), [PolygonId(0), PolygonId(1)]);
    }
}
