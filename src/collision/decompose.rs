//! Splitting a simple polygon into convex pieces.
//!
//! # What it owns
//! The convex pieces of every level polygon (the mesh build inflates each piece by the collider;
//! the renderer fills them). A convex polygon is one piece, passed through as it is. A concave
//! one is triangulated, then Hertel–Mehlhorn removes diagonals; pieces overlap nothing, cover the
//! polygon exactly, are strictly convex and counter-clockwise, and keep the source polygon's id
//! (the caller's job). Long outlines are normal (freehand drawing, imported terrain: a cave wall
//! of thousands of points), so every step is O(n log n) or better in the polygon's vertex count n.
//!
//! # Algorithm
//! 1. Triangulation: a constrained Delaunay triangulation (spade, O(n log n)) of the polygon's
//!    vertices with its edges as constraints, the points inserted in Z-order
//!    ([`polygon_triangles`]). Its triangles inside the polygon are found by a
//!    flood fill from the left side of every outline edge across the edges that are not outline
//!    edges: topology only, no arithmetic (spade decides every orientation and in-circle question
//!    with exact predicates). A polygon spade refuses (a non-zero coordinate below 2^-142 in
//!    magnitude, which validation accepts) is ear clipped instead, O(n²). Polygons of at most
//!    `SMALL_POLYGON` (64) points keep the decomposition they always had (ear clipping, then
//!    Hertel–Mehlhorn restarting after each merge), so existing levels' meshes do not change.
//! 2. Hertel–Mehlhorn on a half-edge structure: every diagonal knows the two half-edges on its
//!    sides (twins found by sorting the half-edges' vertex pairs, O(n log n)), and each piece's
//!    half-edges are a cycle of `next`/`prev` links. Each diagonal is visited once and removed
//!    when both of its ends stay convex (exact [`orient`], a straight angle allowed) in the
//!    merged piece; removal relinks four half-edges, O(1). A removal only widens the angles at
//!    its two ends, so a diagonal kept once stays necessary: after the single pass every
//!    remaining diagonal is essential (removing it would make an end reflex), so at most two
//!    remain per reflex vertex, at most 2r + 1 pieces for r reflex vertices, within four times
//!    the optimal number. Each piece then leaves out the vertices where it runs straight on
//!    (Steiner points along an outline edge or between grid triangles), so pieces are strictly
//!    convex; a neighbour may keep such a vertex as a corner (a T-junction), which the mesh
//!    build does not mind: it splits every crossing and touching itself.
//!
//! 3. Steiner points, for concave polygons of more than `SMALL_POLYGON` points only, before
//!    step 1, so that pieces stay local (an inflated piece's box and crossings are what the mesh
//!    build pays for; see [`super::build`]). With the spacing s = twice the median edge length,
//!    raised so that the grid's cells in the polygon's box number at most about
//!    [`STEINER_BUDGET`] n (0.5 n):
//!    - every outline edge longer than [`LONG_EDGE`] s (4 s) is split at points
//!      `a + (b - a) * k / 2^j`, parts of at most ~s; a candidate is kept only if it lies exactly
//!      on the edge (`orient(a, b, p) == 0`) and strictly after the previous one, so the outline
//!      is the same point set. Shorter edges are left whole: splitting them only adds vertices
//!      where pieces run straight on;
//!    - one point per cell of a square grid of spacing s (at a fixed pseudo-random place in the
//!      cell: a lattice's cocircular points would send every in-circle test to its slow exact
//!      stage), kept if it lies inside the polygon at least s / 2 from the outline
//!      ([`interior_grid`]: cells near a sample of the outline are marked, and a scanline
//!      decides inside for the rest). Wide parts get points, narrow ones (a comb's teeth, a
//!      thin strip) none, where they would only cut pieces smaller;
//!    - outline and grid points go into spade one by one in Z-order, then the outline's edges as
//!      constraints ([`zorder_triangles`]); the result is accepted only if every outline edge is
//!      a constraint edge, no point merged, and the inside triangles number m - 2 + 2k for m
//!      outline points and k interior points used. Otherwise the grid points are located one by
//!      one in spade's bulk-loaded triangulation of the outline (exact `locate`; points on an
//!      edge or a vertex are left out) and those strictly inside an inside triangle inserted:
//!      inserting a point strictly inside a face only flips unconstrained edges, so the outline
//!      stays a closed loop of constraint edges. Either way the inside triangles are found by the
//!      same flood fill, and their count is checked.
//!
//!    Hertel–Mehlhorn then also keeps a diagonal whose removal would give a piece of more than
//!    `MAX_PIECE` (16) vertices (piece sizes tracked by union-find), so no piece walk in the
//!    build is long. Pieces then have Steiner vertices, exactly on the outline or inside; they
//!    still cover the polygon exactly, without overlap, strictly convex and counter-clockwise.
//!    If spade refuses the points, the decomposition falls back to steps 1 and 2 without Steiner
//!    points.
//!
//! 4. What lies inside: each piece of a long polygon comes with which of its vertices are
//!    interior Steiner points and which of its edges are diagonals through the interior
//!    ([`Inside`], read off the half-edge structure, no geometry). The mesh build leaves the
//!    inflated edges these generate out (see `minkowski_sum_inside`): they lie inside the
//!    polygon's own inflation. On the 20 000-point blob of the `long_outline` bench this leaves
//!    only the pieces along the outline adding edges.
//!
//! O(n log n) time and O(n) memory per polygon (the Steiner points are O(n); the grid's
//! inside test sorts O(n) crossings).
//!
//! # Tolerances
//! None: every side-of-line decision is exact. The output's points are the input's points,
//! split points checked to lie exactly on their edge, and grid points checked (exactly, by the
//! triangulation's flood fill) to lie strictly inside the polygon; their rounding only moves
//! where they are, never which side of a line anything is on. The grid's own inside test and
//! its s / 2 clearance are rounded, and only choose which points to offer.
//!
//! # Why one file of more than 1 000 lines
//! One concept, run as one sequential pipeline: the steps above share the local triangulation
//! (its half-edge arrays and vertex numbering) and each means something only after the one
//! before, so split into files they would spread one algorithm's invariants over several places.
//! The code is under 900 lines; the rest is its tests, which build the same awkward outlines
//! (long, jagged, with collinear runs) for every step.
use glam::DVec2;
use spade::{ConstrainedDelaunayTriangulation, Point2, PositionInTriangulation, Triangulation};

use super::build::z_order;
use super::predicates::{orient, Aabb};

/// Which parts of a convex piece lie in the interior of the polygon it came from: entry `k` for
/// the piece's vertex `k` and its edge from vertex `k` to vertex `k + 1`. An interior vertex is a
/// Steiner point strictly inside the polygon; an interior edge is a diagonal (or a straight chain
/// of diagonals through interior points) whose points other than its ends are all strictly
/// inside. Both are exact facts of the decomposition's topology, not geometric tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Inside {
    /// Vertex `k` lies strictly inside the polygon.
    pub(crate) vertex: bool,
    /// Edge `k -> k + 1`, ends excepted, lies strictly inside the polygon.
    pub(crate) edge: bool,
}

/// Calls `f` with each convex piece (counter-clockwise) of a simple counter-clockwise polygon
/// without collinear vertices, and which of its vertices and edges lie inside the polygon
/// ([`Inside`]; an empty slice: none known). A convex polygon is passed through as it is, without
/// a copy: a mesh build decomposes every polygon of the level, and on a tile level every one is
/// convex. Polygons of up to [`SMALL_POLYGON`] points report nothing inside, so the meshes built
/// from them do not change. Returns `None` only if ear clipping (the fallback triangulation)
/// finds no ear, which cannot happen for a valid simple polygon.
pub(crate) fn for_each_convex_piece(
    pts: &[DVec2],
    mut f: impl FnMut(&[DVec2], &[Inside]),
) -> Option<()> {
    if is_convex(pts) {
        f(pts, &[]);
        return Some(());
    }
    if pts.len() <= SMALL_POLYGON {
        for piece in small_pieces(pts)? {
            f(&piece, &[]);
        }
        return Some(());
    }
    let (mut buf, mut ids, mut inside) = (Vec::new(), Vec::new(), Vec::new());
    let mut emit = |points: &[DVec2], outline: usize, cycle: &[u32], on_outline: &[bool]| {
        strict_piece(points, outline, cycle, on_outline, &mut ids, &mut inside);
        // A cycle of merged triangles has positive area, so it keeps at least three
        // corners; a degenerate cycle would be skipped rather than emitted empty.
        if ids.len() >= 3 {
            piece_points(points, &ids, &mut buf);
            f(&buf, &inside);
        }
    };
    if let Some(local) = local_triangulation(pts) {
        let (points, outline) = (&local.points, local.outline);
        hertel_mehlhorn(points, outline, &local.tris, MAX_PIECE, |cycle, on| {
            emit(points, outline, cycle, on)
        });
        return Some(());
    }
    let tris = polygon_triangles(pts)?;
    hertel_mehlhorn(pts, pts.len(), &tris, usize::MAX, |cycle, on| {
        emit(pts, pts.len(), cycle, on)
    });
    Some(())
}

/// Fills `out` with the points of a piece given by its vertex indices.
fn piece_points(pts: &[DVec2], ids: &[u32], out: &mut Vec<DVec2>) {
    out.clear();
    out.extend(ids.iter().map(|&i| pts[i as usize]));
}

/// Hertel–Mehlhorn keeps a diagonal of a long polygon's triangulation when removing it would
/// give a piece of more than this many vertices, so every piece stays small (the mesh build
/// walks whole piece outlines per query).
const MAX_PIECE: usize = 16;

/// A triangulation of a long polygon with Steiner points (see the module doc): `points[..outline]`
/// is the outline (the polygon's vertices in order, with the split points of its long edges
/// between them), `points[outline..]` are interior points; `tris` are counter-clockwise index
/// triples.
struct LocalTriangulation {
    points: Vec<DVec2>,
    outline: usize,
    tris: Vec<[u32; 3]>,
}

/// Points on segment `a b` (exclusive) splitting it into parts of at most about `len`, each
/// exactly on the segment (`orient(a, b, p) == 0`, checked) and strictly ordered from `a` to
/// `b`. Candidates are `a + (b - a) * t` for `t = k / 2^m`; a rounded one off the segment's line
/// or out of order is left out, so the outline stays the same point set.
fn split_points(a: DVec2, b: DVec2, len: f64, out: &mut Vec<DVec2>) {
    let d = b - a;
    let parts = (d.length() / len).ceil();
    if parts.is_nan() || parts < 2.0 {
        return;
    }
    let parts = (parts as u64).min(1 << 20).next_power_of_two();
    let step = 1.0 / parts as f64;
    // Coordinate along which the segment is ordered (the larger extent; never zero).
    let along = |p: DVec2| {
        if d.x.abs() >= d.y.abs() {
            p.x * d.x.signum()
        } else {
            p.y * d.y.signum()
        }
    };
    let mut last = along(a);
    let end = along(b);
    for k in 1..parts {
        let p = a + d * (k as f64 * step);
        let t = along(p);
        if t > last && t < end && orient(a, b, p) == 0.0 {
            out.push(p);
            last = t;
        }
    }
}

/// Triangulates a long simple counter-clockwise polygon with Steiner points: long outline edges
/// split at exact points on them, and the points of a square grid that lie strictly inside the
/// polygon (located in the triangulation of the outline, exactly). `None` if spade refuses the
/// coordinates or the result is inconsistent (the caller then decomposes without Steiner points).
fn local_triangulation(pts: &[DVec2]) -> Option<LocalTriangulation> {
    let n = pts.len();
    // Local feature size: twice the median edge length, raised so that the split points and
    // grid points stay O(n).
    let mut lengths: Vec<f64> = (0..n)
        .map(|i| (pts[(i + 1) % n] - pts[i]).length())
        .collect();
    let mid = n / 2;
    let median = *lengths.select_nth_unstable_by(mid, f64::total_cmp).1;
    let total: f64 = lengths.iter().sum();
    let (lo, hi) = pts.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let size = hi - lo;
    let budget = STEINER_BUDGET * n as f64;
    let mut spacing = 2.0 * median;
    spacing = spacing.max(total / budget);
    spacing = spacing.max((size.x * size.y / budget).sqrt());
    if !(spacing.is_finite() && spacing > 0.0) {
        return None;
    }
    // Outline with split points: only long edges are split, so that no triangle spans far along
    // one; a short edge split would only add vertices where a piece runs straight on.
    let mut outline: Vec<DVec2> = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        outline.push(a);
        if (b - a).length() > LONG_EDGE * spacing {
            split_points(a, b, spacing, &mut outline);
        }
    }
    let m = outline.len();
    let cols = (size.x / spacing).floor() as usize;
    let rows = (size.y / spacing).floor() as usize;
    // Offset from the box corner by a fraction far from simple ones, so grid points rarely land
    // on a level's outline edges (drawn on round coordinates).
    let grid_point = |r: usize, c: usize| {
        let (jx, jy) = jitter(r, c);
        Point2::new(
            lo.x + (c as f64 + GRID_OFFSET + jx) * spacing,
            lo.y + (r as f64 + GRID_OFFSET + jy) * spacing,
        )
    };
    let grid: Vec<Point2<f64>> = interior_grid(&outline, lo, spacing, rows, cols)
        .into_iter()
        .map(|(r, c)| grid_point(r, c))
        .collect();
    if let Some(local) = grid_triangulation(&outline, &grid) {
        return Some(local);
    }
    let verts: Vec<Point2<f64>> = outline.iter().map(|p| Point2::new(p.x, p.y)).collect();
    let edges: Vec<[usize; 2]> = (0..m).map(|i| [i, (i + 1) % m]).collect();
    let mut conflicts = 0usize;
    let mut cdt: ConstrainedDelaunayTriangulation<Point2<f64>> =
        ConstrainedDelaunayTriangulation::try_bulk_load_cdt(verts, edges, |_| conflicts += 1)
            .ok()?;
    if conflicts > 0 || cdt.num_vertices() != m {
        return None;
    }
    let inside = inside_faces(&cdt, m, |v| v)?;
    // Grid points strictly inside an inside triangle (in row order, so each walk is short).
    let mut interior: Vec<Point2<f64>> = Vec::new();
    let mut hint = cdt.vertices().next()?.fix();
    for p in grid {
        if let PositionInTriangulation::OnFace(face) = cdt.locate_with_hint(p, hint) {
            hint = cdt.face(face).vertices()[0].fix();
            if inside[face.index()] {
                interior.push(p);
            }
        }
    }
    let k = interior.len();
    for p in interior {
        cdt.insert(p).ok()?;
    }
    if cdt.num_vertices() != m + k {
        return None;
    }
    let (points, tris) = inside_triangles(&cdt, &outline)?;
    // m outline points and k interior points: m - 2 + 2k triangles.
    if tris.len() != m - 2 + 2 * k {
        return None;
    }
    Some(LocalTriangulation {
        points,
        outline: m,
        tris,
    })
}

/// Where grid points sit in their cell (a fraction of the spacing from the box corner).
const GRID_OFFSET: f64 = 0.414_213_562_373_095;

/// A fixed pseudo-random offset of grid point `(r, c)` in its cell, each coordinate in
/// `[-0.25, 0.25)` spacings: the points of a square lattice are four by four on a circle and
/// three by three on a line, where every in-circle and orientation test of the triangulation
/// falls through to its slow exact stage. The point stays inside its cell, which is all that
/// [`interior_grid`] relies on.
fn jitter(r: usize, c: usize) -> (f64, f64) {
    // SplitMix64 of the cell.
    let mut z = ((r as u64) << 32 | c as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let unit = |bits: u64| (bits & 0xFFFF_FFFF) as f64 / 4_294_967_296.0 * 0.5 - 0.25;
    (unit(z), unit(z >> 32))
}

/// At most about this many Steiner grid points (and as many split points) per outline point: the
/// grid spacing is raised until the polygon's box holds no more. Only pieces that touch the
/// outline add edges to a mesh (the rest are interior: [`Inside`]), so a sparse grid loses
/// little locality, and each grid point costs an insertion and two triangles. Measured on the
/// 20 000-point noisy blob of the `long_outline` bench: 2 gave 32 000 pieces and 53 ms of
/// decomposition and inflation per mesh, 0.5 gave 16 000 pieces and 26 ms, with the rest of the
/// build unchanged (2026-11-24).
const STEINER_BUDGET: f64 = 0.5;

/// Outline edges longer than this many grid spacings are split into parts of at most one.
const LONG_EDGE: f64 = 4.0;

/// The cells `(row, column)` of the `rows × cols` grid of spacing `s` from `lo` whose grid point
/// (at [`GRID_OFFSET`] in the cell) lies inside the closed `outline` and at least `s / 2` from
/// it: Steiner points where the polygon is wide, none in its narrow parts (a point inside a thin
/// tooth only cuts it into more pieces). O(m + rows × cols) for m outline points.
///
/// Nearness: every outline edge is sampled every `s / 2` and the 3 × 3 cells around each
/// sample's cell are marked; a point less than `s / 2` from an edge is less than `3s / 4` from a
/// sample, so in a marked cell. Inside: crossings of the outline with each row's line, sorted,
/// and the parity left of each point. The crossings are rounded, but an unmarked point is at
/// least `s / 2` from every one of them, so the parity is exact where it is used. (A wrong
/// answer would cost nothing but locality anyway: the triangulation ignores points outside the
/// polygon, and the caller checks that no point lies on the outline.)
fn interior_grid(
    outline: &[DVec2],
    lo: DVec2,
    s: f64,
    rows: usize,
    cols: usize,
) -> Vec<(usize, usize)> {
    if rows == 0 || cols == 0 {
        return Vec::new();
    }
    let m = outline.len();
    let mut near = vec![false; rows * cols];
    let cell = |p: DVec2| {
        let c = ((p - lo) / s).floor();
        (c.y as isize, c.x as isize)
    };
    let mut crossings: Vec<(usize, f64)> = Vec::new();
    for i in 0..m {
        let (a, b) = (outline[i], outline[(i + 1) % m]);
        let samples = ((b - a).length() / (0.5 * s)).ceil().max(1.0) as usize;
        for k in 0..=samples {
            let (r, c) = cell(a + (b - a) * (k as f64 / samples as f64));
            for rr in (r - 1).max(0)..=(r + 1).min(rows as isize - 1) {
                for cc in (c - 1).max(0)..=(c + 1).min(cols as isize - 1) {
                    near[rr as usize * cols + cc as usize] = true;
                }
            }
        }
        // Rows whose line y crosses the edge, half-open in y so a vertex counts once.
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        let first = ((y0 - lo.y) / s - GRID_OFFSET).ceil().max(0.0) as usize;
        let mut r = first;
        while r < rows {
            let y = lo.y + (r as f64 + GRID_OFFSET) * s;
            if y >= y1 {
                break;
            }
            if y >= y0 {
                crossings.push((r, a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)));
            }
            r += 1;
        }
    }
    crossings.sort_unstable_by(|p, q| p.0.cmp(&q.0).then(p.1.total_cmp(&q.1)));
    let mut out = Vec::new();
    let mut k = 0;
    for r in 0..rows {
        let mut inside = false;
        for c in 0..cols {
            let x = lo.x + (c as f64 + GRID_OFFSET) * s;
            while k < crossings.len() && crossings[k].0 == r && crossings[k].1 < x {
                inside = !inside;
                k += 1;
            }
            if inside && !near[r * cols + c] {
                out.push((r, c));
            }
        }
        while k < crossings.len() && crossings[k].0 == r {
            k += 1;
        }
    }
    out
}

/// The triangulation of `local_triangulation` from the outline and all grid points at once
/// ([`zorder_triangles`]; those outside the polygon end up in outside triangles, unused): no
/// point location walks. `None` if a grid point lies on the outline (an outline edge is then
/// split, or merged with a vertex) or spade refuses the points; the caller then locates the grid
/// points one by one.
fn grid_triangulation(outline: &[DVec2], grid: &[Point2<f64>]) -> Option<LocalTriangulation> {
    let m = outline.len();
    let mut points: Vec<DVec2> = outline.to_vec();
    points.extend(grid.iter().map(|p| DVec2::new(p.x, p.y)));
    let tris = zorder_triangles(&points, m)?;
    let mut used = vec![false; points.len()];
    for t in &tris {
        for &v in t {
            used[v as usize] = true;
        }
    }
    let k = used[m..].iter().filter(|&&u| u).count();
    // m outline points and k interior points: m - 2 + 2k triangles.
    if used[..m].iter().any(|&u| !u) || tris.len() != m - 2 + 2 * k {
        return None;
    }
    Some(LocalTriangulation {
        points,
        outline: m,
        tris,
    })
}

/// The triangles inside the closed outline `points[..m]` (index triples into `points`, counter-
/// clockwise) of the constrained Delaunay triangulation of `points` with the outline's edges as
/// constraints. The points go in one by one in Z-order of a square frame, each located from
/// the one before, then the constraints: spade's bulk load keeps an angular hull around the
/// points' centre that degenerates on long thin outlines, and insertion in outline order hands
/// a far corner every point along a long split edge (a fan of long triangles that every later
/// point flips). `None` if spade refuses or merges a point, or a constraint would cross another
/// or pass through a point.
fn zorder_triangles(points: &[DVec2], m: usize) -> Option<Vec<[u32; 3]>> {
    use spade::handles::FixedVertexHandle;
    let n = points.len();
    let (lo, hi) = points.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let side = (hi - lo).max_element();
    let frame = Aabb {
        min: lo,
        max: lo + DVec2::splat(side),
    };
    let mut order: Vec<u64> = (0..n)
        .map(|i| z_order(points[i], &frame) << 32 | i as u64)
        .collect();
    order.sort_unstable();
    let mut cdt: ConstrainedDelaunayTriangulation<Point2<f64>> =
        ConstrainedDelaunayTriangulation::new();
    let mut handle = vec![FixedVertexHandle::from_index(0); n];
    // Spade's vertex index -> index into `points`.
    let mut local = vec![0u32; n];
    let mut hint = None;
    for key in order {
        let i = key as u32 as usize;
        let p = Point2::new(points[i].x, points[i].y);
        let h = match hint {
            Some(h) => cdt.insert_with_hint(p, h),
            None => cdt.insert(p),
        }
        .ok()?;
        if h.index() + 1 != cdt.num_vertices() {
            return None; // merged with an earlier point
        }
        handle[i] = h;
        local[h.index()] = i as u32;
        hint = Some(h);
    }
    for i in 0..m {
        // A constraint that would cross one already in is refused and changes nothing. One that
        // passes through a point comes back split in several edges.
        if cdt.try_add_constraint(handle[i], handle[(i + 1) % m]).len() != 1 {
            return None;
        }
    }
    let inside = inside_faces(&cdt, m, |v| local[v] as usize)?;
    Some(
        cdt.inner_faces()
            .filter(|f| inside[f.fix().index()])
            .map(|f| f.vertices().map(|v| local[v.fix().index()]))
            .collect(),
    )
}

/// The vertices of a constrained triangulation of `outline` (its first vertices, which must be the
/// outline's points unchanged) and its triangles inside the outline ([`inside_faces`]). `None` if
/// spade moved or merged an outline point, or the outline is not closed in the triangulation.
fn inside_triangles(
    cdt: &ConstrainedDelaunayTriangulation<Point2<f64>>,
    outline: &[DVec2],
) -> Option<(Vec<DVec2>, Vec<[u32; 3]>)> {
    let m = outline.len();
    let points: Vec<DVec2> = cdt
        .vertices()
        .map(|v| DVec2::new(v.position().x, v.position().y))
        .collect();
    if points[..m] != outline[..] {
        return None;
    }
    let inside = inside_faces(cdt, m, |v| v)?;
    let tris = cdt
        .inner_faces()
        .filter(|f| inside[f.fix().index()])
        .map(|f| f.vertices().map(|v| v.fix().index() as u32))
        .collect();
    Some((points, tris))
}

/// Which faces of a constrained triangulation whose vertices `0..m` are a closed
/// counter-clockwise outline (constraint edges `i -> i + 1`) lie inside it: a flood fill from the
/// left side of every outline edge across every other edge (topology only, no arithmetic).
/// `None` if an outline edge is missing or borders the outer face.
fn inside_faces(
    cdt: &ConstrainedDelaunayTriangulation<Point2<f64>>,
    m: usize,
    local: impl Fn(usize) -> usize,
) -> Option<Vec<bool>> {
    let is_outline = |a: usize, b: usize| a < m && b < m && (b == (a + 1) % m || a == (b + 1) % m);
    let mut inside = vec![false; cdt.num_all_faces()];
    let mut stack = Vec::new();
    let mut outline_edges = 0;
    for e in cdt.directed_edges() {
        let (a, b) = (local(e.from().fix().index()), local(e.to().fix().index()));
        if a < m && b == (a + 1) % m {
            outline_edges += 1;
            let face = e.face().as_inner()?;
            if !inside[face.fix().index()] {
                inside[face.fix().index()] = true;
                stack.push(face.fix());
            }
        }
    }
    if outline_edges != m {
        return None;
    }
    while let Some(face) = stack.pop() {
        for e in cdt.face(face).adjacent_edges() {
            if is_outline(local(e.from().fix().index()), local(e.to().fix().index())) {
                continue;
            }
            let across = e.rev().face().as_inner()?;
            if !inside[across.fix().index()] {
                inside[across.fix().index()] = true;
                stack.push(across.fix());
            }
        }
    }
    Some(inside)
}

/// The convex pieces (counter-clockwise, overlapping nothing) of a simple counter-clockwise
/// polygon without collinear vertices, as [`normalized_ccw`](crate::collision::normalized_ccw)
/// gives for a validated polygon: the pieces a mesh build inflates, so a renderer drawing them
/// draws what the core collides with. A convex polygon is one piece, unchanged. `None` only if ear
/// clipping finds no ear, which cannot happen for a valid simple polygon. (The build itself visits
/// the pieces without collecting them: `for_each_convex_piece`.)
pub fn convex_pieces(pts: &[DVec2]) -> Option<Vec<Vec<DVec2>>> {
    let mut out = Vec::new();
    for_each_convex_piece(pts, |piece, _| out.push(piece.to_vec()))?;
    Some(out)
}

/// Triangles (counter-clockwise index triples into `pts`) covering a simple counter-clockwise
/// polygon without collinear vertices, with its own vertices only: what a renderer fills when
/// the convex pieces carry Steiner points (long outlines), which its vertex buffer does not have.
/// The constrained Delaunay triangulation of the outline (Z-order insertion, O(n log n)), or ear
/// clipping (O(n²)) where spade refuses the coordinates. `None` only if ear clipping finds no ear,
/// which cannot happen for a valid simple polygon.
pub fn polygon_triangles(pts: &[DVec2]) -> Option<Vec<[u32; 3]>> {
    let n = pts.len();
    if n < 3 {
        return None;
    }
    match zorder_triangles(pts, n) {
        Some(tris) if tris.len() == n - 2 => Some(tris),
        _ => ear_clip(pts),
    }
}

/// Concave polygons up to this many points keep the pieces they always had (ear clipping, then
/// Hertel–Mehlhorn restarting after every merge: [`small_pieces`]), so the meshes, golden images
/// and replays of existing levels, whose hand-made polygons have a dozen points, do not change.
/// Bounded by this constant, its O(n³) worst case is a few microseconds.
const SMALL_POLYGON: usize = 64;

/// The convex pieces of a small concave polygon: ear clipping, then Hertel–Mehlhorn restarting
/// its search after every merge (the decomposition of polygons up to [`SMALL_POLYGON`] points).
fn small_pieces(pts: &[DVec2]) -> Option<Vec<Vec<DVec2>>> {
    let n = pts.len();
    let tris = ear_clip(pts)?;
    // Pieces as index lists; merge across diagonals (Hertel–Mehlhorn).
    let mut pieces: Vec<Vec<u32>> = tris.iter().map(|t| t.to_vec()).collect();
    let is_boundary =
        |a: u32, b: u32| (a as usize + 1) % n == b as usize || (b as usize + 1) % n == a as usize;
    let mut merged_any = true;
    while merged_any {
        merged_any = false;
        'search: for i in 0..pieces.len() {
            let len_i = pieces[i].len();
            for k in 0..len_i {
                let (a, b) = (pieces[i][k], pieces[i][(k + 1) % len_i]);
                if is_boundary(a, b) {
                    continue;
                }
                // Find the piece holding the reverse edge b -> a.
                let Some((j, m)) = pieces.iter().enumerate().find_map(|(j, p)| {
                    if j == i {
                        return None;
                    }
                    let l = p.len();
                    (0..l)
                        .find(|&m| p[m] == b && p[(m + 1) % l] == a)
                        .map(|m| (j, m))
                }) else {
                    continue;
                };
                let merged = merge(&pieces[i], k, &pieces[j], m);
                let merged_pts: Vec<DVec2> = merged.iter().map(|&q| pts[q as usize]).collect();
                if is_convex(&merged_pts) {
                    let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                    pieces.swap_remove(hi);
                    pieces[lo] = merged;
                    merged_any = true;
                    break 'search;
                }
            }
        }
    }
    Some(
        pieces
            .into_iter()
            .map(|p| p.into_iter().map(|q| pts[q as usize]).collect())
            .collect(),
    )
}

/// Joins piece `p` (whose edge k is a -> b) and piece `q` (whose edge m is b -> a) across the
/// shared diagonal, keeping counter-clockwise order.
fn merge<T: Copy>(p: &[T], k: usize, q: &[T], m: usize) -> Vec<T> {
    let (lp, lq) = (p.len(), q.len());
    let mut out = Vec::with_capacity(lp + lq - 2);
    // p from b around to a: p[k+1], p[k+2], ..., p[k]
    for s in 1..=lp {
        out.push(p[(k + s) % lp]);
    }
    // then q after a up to before b: q[m+2], ..., q[m-1]
    for s in 2..lq {
        out.push(q[(m + s) % lq]);
    }
    out
}

/// No twin: the half-edge lies on the polygon's outline.
const OUTLINE: u32 = u32::MAX;

/// Merges the triangles of a triangulated simple counter-clockwise polygon into convex pieces
/// (Hertel–Mehlhorn, one pass over the diagonals; see the module doc) of at most `max_piece`
/// vertices and calls `f` with each (vertex indices into `pts`). The polygon's outline is
/// `pts[..n]` in order; further points (interior Steiner points) are vertices of the triangles
/// only.
///
/// Half-edge `h` is edge `h % 3` of triangle `h / 3`, from its vertex `h % 3` to the next; the
/// piece it bounds lies on its left. `next`/`prev` link each piece's half-edges in
/// counter-clockwise order, and a removed diagonal's two half-edges drop out of those cycles.
fn hertel_mehlhorn(
    pts: &[DVec2],
    n: usize,
    tris: &[[u32; 3]],
    max_piece: usize,
    mut f: impl FnMut(&[u32], &[bool]),
) {
    let m = 3 * tris.len();
    let origin = |h: u32| tris[h as usize / 3][h as usize % 3] as usize;
    let mut next: Vec<u32> = (0..m as u32).map(|h| h - h % 3 + (h + 1) % 3).collect();
    let mut prev: Vec<u32> = (0..m as u32).map(|h| h - h % 3 + (h + 2) % 3).collect();
    // Twins: the diagonals' half-edges sorted by their (smaller, larger) vertex pair, so the two
    // sides of each diagonal are neighbours.
    let mut twin = vec![OUTLINE; m];
    let mut keyed: Vec<(u64, u32)> = (0..m as u32)
        .filter_map(|h| {
            let (a, b) = (origin(h), origin(next[h as usize]));
            let outline = a < n && b < n && (b == (a + 1) % n || a == (b + 1) % n);
            (!outline).then(|| (((a.min(b) as u64) << 32) | a.max(b) as u64, h))
        })
        .collect();
    keyed.sort_unstable();
    for pair in keyed.chunks_exact(2) {
        let ((ka, a), (kb, b)) = (pair[0], pair[1]);
        debug_assert_eq!(ka, kb, "a diagonal without its other side");
        twin[a as usize] = b;
        twin[b as usize] = a;
    }
    drop(keyed);
    // One pass over the diagonals (each once, from its lower half-edge).
    let mut removed = vec![false; m];
    // Pieces as a union-find over triangles, with each root's vertex count.
    let mut parent: Vec<u32> = (0..tris.len() as u32).collect();
    let mut count: Vec<u32> = vec![3; tris.len()];
    fn root(parent: &mut [u32], mut t: u32) -> u32 {
        while parent[t as usize] != t {
            let up = parent[parent[t as usize] as usize];
            parent[t as usize] = up;
            t = up;
        }
        t
    }
    for h in 0..m as u32 {
        let t = twin[h as usize];
        if t == OUTLINE || t < h {
            continue;
        }
        // h runs a -> b in piece P, t runs b -> a in piece Q. In the merged piece a follows P's
        // vertex before it and precedes Q's vertex after it; b likewise the other way round.
        let (hu, tu) = (h as usize, t as usize);
        let (a, b) = (origin(h), origin(t));
        let convex_at = |before: usize, at: usize, after: usize| {
            orient(pts[before], pts[at], pts[after]) >= 0.0
        };
        let a_before = origin(prev[hu]);
        let a_after = origin(next[next[tu] as usize]);
        let b_before = origin(prev[tu]);
        let b_after = origin(next[next[hu] as usize]);
        let (rp, rq) = (root(&mut parent, h / 3), root(&mut parent, t / 3));
        let merged = (count[rp as usize] + count[rq as usize]) as usize - 2;
        if merged <= max_piece && convex_at(a_before, a, a_after) && convex_at(b_before, b, b_after)
        {
            parent[rq as usize] = rp;
            count[rp as usize] = merged as u32;
            let (ph, nh, pt, nt) = (prev[hu], next[hu], prev[tu], next[tu]);
            next[ph as usize] = nt;
            prev[nt as usize] = ph;
            next[pt as usize] = nh;
            prev[nh as usize] = pt;
            removed[hu] = true;
            removed[tu] = true;
        }
    }
    // Each remaining cycle is a piece, starting from its lowest half-edge.
    let mut seen = removed;
    let mut piece: Vec<u32> = Vec::new();
    let mut on_outline: Vec<bool> = Vec::new();
    for h in 0..m as u32 {
        if seen[h as usize] {
            continue;
        }
        piece.clear();
        on_outline.clear();
        let mut e = h;
        loop {
            seen[e as usize] = true;
            piece.push(origin(e) as u32);
            on_outline.push(twin[e as usize] == OUTLINE);
            e = next[e as usize];
            if e == h {
                break;
            }
        }
        f(&piece, &on_outline);
    }
}

/// A strictly convex piece from a convex cycle of [`hertel_mehlhorn`] (`cycle`: vertex indices
/// into `pts`; `on_outline[i]`: the edge from `cycle[i]` to the next lies on the outline, which is
/// `pts[..n]`): the vertices where the cycle runs straight on are left out (into `piece`), and
/// `inside` says which of the remaining vertices and edges lie strictly inside the polygon
/// ([`Inside`]): a vertex if it is an interior Steiner point, an edge if all its parts are
/// diagonals and every vertex left out on it is an interior point (a straight run through an
/// outline vertex touches the outline there).
fn strict_piece(
    pts: &[DVec2],
    n: usize,
    cycle: &[u32],
    on_outline: &[bool],
    piece: &mut Vec<u32>,
    inside: &mut Vec<Inside>,
) {
    piece.clear();
    inside.clear();
    let k = cycle.len();
    let at = |i: usize| cycle[i % k] as usize;
    let corner = |i: usize| orient(pts[at(i + k - 1)], pts[at(i)], pts[at(i + 1)]) != 0.0;
    // A cycle of positive area has a corner.
    let Some(first) = (0..k).find(|&i| corner(i)) else {
        return;
    };
    for i in first..first + k {
        let v = at(i);
        if corner(i) {
            piece.push(v as u32);
            inside.push(Inside {
                vertex: v >= n,
                edge: true,
            });
        }
        let last = inside.last_mut().expect("the walk starts at a corner");
        if on_outline[i % k] || (!corner(i) && v < n) {
            last.edge = false;
        }
    }
}

/// Whether a counter-clockwise *simple* polygon is convex (every turn strictly left). Only valid
/// for polygons known to be simple: a self-intersecting star (a pentagram) turns left everywhere
/// too; see [`is_strictly_convex`] for unvalidated input.
pub(crate) fn is_convex(pts: &[DVec2]) -> bool {
    let n = pts.len();
    n >= 3 && (0..n).all(|i| orient(pts[i], pts[(i + 1) % n], pts[(i + 2) % n]) > 0.0)
}

/// Whether any point list is a strictly convex counter-clockwise polygon: every other vertex lies
/// strictly left of every edge (exact). Rejects self-intersecting stars that [`is_convex`] would
/// accept. O(n²), for small polygons such as colliders.
pub(crate) fn is_strictly_convex(pts: &[DVec2]) -> bool {
    let n = pts.len();
    n >= 3
        && (0..n).all(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            (0..n)
                .filter(|&j| j != i && j != (i + 1) % n)
                .all(|j| orient(a, b, pts[j]) > 0.0)
        })
}

/// Triangulates a simple counter-clockwise polygon by ear clipping; triangles as index triples.
/// O(n²): for small polygons and as the fallback for polygons spade refuses.
fn ear_clip(pts: &[DVec2]) -> Option<Vec<[u32; 3]>> {
    let mut idx: Vec<usize> = (0..pts.len()).collect();
    let mut tris = Vec::with_capacity(pts.len().saturating_sub(2));
    while idx.len() > 3 {
        let n = idx.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (idx[(i + n - 1) % n], idx[i], idx[(i + 1) % n]);
            if orient(pts[a], pts[b], pts[c]) <= 0.0 {
                return false;
            }
            // No other remaining vertex inside or on the candidate triangle.
            idx.iter().all(|&q| {
                q == a
                    || q == b
                    || q == c
                    || pts[q] == pts[a]
                    || pts[q] == pts[b]
                    || pts[q] == pts[c]
                    || !(orient(pts[a], pts[b], pts[q]) >= 0.0
                        && orient(pts[b], pts[c], pts[q]) >= 0.0
                        && orient(pts[c], pts[a], pts[q]) >= 0.0)
            })
        })?;
        tris.push([idx[(ear + n - 1) % n], idx[ear], idx[(ear + 1) % n]].map(|i| i as u32));
        idx.remove(ear);
    }
    tris.push([idx[0], idx[1], idx[2]].map(|i| i as u32));
    Some(tris)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;
    use proptest::test_runner::Config;

    use super::super::polygon::{normalized_ccw, validate_polygon, PolygonId};
    use super::super::predicates::signed_area;
    use super::*;

    /// Checks that `pieces` (vertex indices into `points`) are an exact Hertel–Mehlhorn
    /// decomposition of the counter-clockwise polygon `poly`, whose outline with its split points
    /// is `points[..outline]` (the rest are interior Steiner points):
    /// - the outline is the polygon's vertices in order, with points exactly on its edges
    ///   (strictly between their ends, in order) between them: the same point set;
    /// - every piece is convex and counter-clockwise, with at most `max_piece` vertices: strictly
    ///   convex, or with `straight` (the cycles of [`hertel_mehlhorn`], which merges across a
    ///   diagonal where an end then runs straight on) without a right turn;
    /// - every outline edge is an edge of exactly one piece, in its direction, and every other
    ///   piece edge (a diagonal) is an edge of exactly two pieces, in opposite directions. With
    ///   positively oriented pieces this makes the sum of the pieces' indicator functions the
    ///   outline's: they cover it, without overlap (so interior Steiner points lie inside);
    /// - the areas add up (to a relative 1e-9);
    /// - every diagonal is essential: merging its two pieces turns right somewhere (or, without
    ///   `straight`, does not turn left everywhere), or is too big;
    /// - without Steiner points, at most 2r + 1 pieces for r reflex vertices (within 4× the
    ///   optimum).
    fn check_cover(
        poly: &[DVec2],
        points: &[DVec2],
        outline: usize,
        pieces: &[Vec<u32>],
        max_piece: usize,
        straight: bool,
    ) -> Result<(), String> {
        let n = poly.len();
        let m = outline;
        let convex = |pts: &[DVec2]| {
            if straight {
                turns_left_or_straight(pts) && signed_area(pts) > 0.0
            } else {
                is_strictly_convex(pts)
            }
        };
        // The outline: the polygon's vertices in order, split points on their edges between.
        let mut at = 0;
        for i in 0..n {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            if points.get(at) != Some(&a) {
                return Err(format!("outline point {at} is not polygon vertex {i}"));
            }
            at += 1;
            let mut last = a;
            while at < m && points[at] != b {
                let p = points[at];
                let (t0, t1, t2) = (
                    (last - a).dot(b - a),
                    (p - a).dot(b - a),
                    (b - a).dot(b - a),
                );
                if orient(a, b, p) != 0.0 || !(t0 < t1 && t1 < t2) {
                    return Err(format!(
                        "split point {at} {p:?} is not on edge {i} in order"
                    ));
                }
                last = p;
                at += 1;
            }
        }
        if at != m {
            return Err(format!("outline has {m} points, {at} accounted for"));
        }
        let ids: Vec<Vec<usize>> = pieces
            .iter()
            .map(|p| p.iter().map(|&i| i as usize).collect())
            .collect();
        for (k, p) in ids.iter().enumerate() {
            let pts: Vec<DVec2> = p.iter().map(|&i| points[i]).collect();
            if !convex(&pts) {
                return Err(format!("piece {k} is not convex: {pts:?}"));
            }
            if p.len() > max_piece {
                return Err(format!("piece {k} has {} vertices", p.len()));
            }
        }
        // Directed edge -> (piece, position of the edge in it), for every piece edge.
        let mut edges: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
        for (k, p) in ids.iter().enumerate() {
            for i in 0..p.len() {
                let e = (p[i], p[(i + 1) % p.len()]);
                if edges.insert(e, (k, i)).is_some() {
                    return Err(format!("edge {e:?} bounds two pieces on the same side"));
                }
            }
        }
        for i in 0..m {
            let j = (i + 1) % m;
            if !edges.contains_key(&(i, j)) || edges.contains_key(&(j, i)) {
                return Err(format!(
                    "outline edge {i} -> {j} is not on exactly one piece"
                ));
            }
        }
        let is_outline =
            |a: usize, b: usize| a < m && b < m && (b == (a + 1) % m || a == (b + 1) % m);
        for (&(a, b), &(p, k)) in &edges {
            if is_outline(a, b) {
                continue;
            }
            let Some(&(q, j)) = edges.get(&(b, a)) else {
                return Err(format!("diagonal {a} -> {b} has a piece on one side only"));
            };
            let merged: Vec<DVec2> = merge(&ids[p], k, &ids[q], j)
                .into_iter()
                .map(|i| points[i])
                .collect();
            if merged.len() <= max_piece && convex(&merged) {
                return Err(format!("diagonal {a} -> {b} is not essential"));
            }
        }
        let area: f64 = pieces
            .iter()
            .map(|p| signed_area(&p.iter().map(|&i| points[i as usize]).collect::<Vec<_>>()))
            .sum();
        let want = signed_area(poly);
        if (area - want).abs() > 1e-9 * want.abs() {
            return Err(format!("pieces' area {area} is not the polygon's {want}"));
        }
        let reflex = (0..n)
            .filter(|&i| orient(poly[(i + n - 1) % n], poly[i], poly[(i + 1) % n]) < 0.0)
            .count();
        if points.len() == n && max_piece == usize::MAX && pieces.len() > 2 * reflex + 1 {
            return Err(format!(
                "{} pieces for {reflex} reflex vertices (at most 2r + 1)",
                pieces.len()
            ));
        }
        Ok(())
    }

    /// Whether a closed point list never turns right (convex, possibly with straight vertices,
    /// for a simple counter-clockwise one).
    fn turns_left_or_straight(pts: &[DVec2]) -> bool {
        let n = pts.len();
        (0..n).all(|i| orient(pts[i], pts[(i + 1) % n], pts[(i + 2) % n]) >= 0.0)
    }

    /// Checks the strict pieces [`strict_piece`] makes of the convex cycles `cycles` of a
    /// decomposition (its points `points`, outline `points[..outline]`, of the polygon `poly`):
    /// each is strictly convex, a sub-list of its cycle (only straight vertices left out), with
    /// the same area; a vertex is reported inside exactly when it is an interior Steiner point;
    /// and the midpoint of every edge reported inside lies strictly inside the polygon (an exact
    /// crossing-number test, on up to `samples` edges spread over the pieces).
    fn check_strict(
        poly: &[DVec2],
        points: &[DVec2],
        outline: usize,
        cycles: &[(Vec<u32>, Vec<bool>)],
        samples: usize,
    ) -> Result<(), String> {
        let (mut piece, mut inside) = (Vec::new(), Vec::new());
        let mut inside_edges = Vec::new();
        for (k, (cycle, on_outline)) in cycles.iter().enumerate() {
            strict_piece(points, outline, cycle, on_outline, &mut piece, &mut inside);
            let pts: Vec<DVec2> = piece.iter().map(|&i| points[i as usize]).collect();
            if !is_strictly_convex(&pts) {
                return Err(format!("strict piece {k} is not strictly convex: {pts:?}"));
            }
            let all: Vec<DVec2> = cycle.iter().map(|&i| points[i as usize]).collect();
            let (got, want) = (signed_area(&pts), signed_area(&all));
            if (got - want).abs() > 1e-9 * want.abs() {
                return Err(format!("strict piece {k} has area {got}, its cycle {want}"));
            }
            // The piece is the cycle with vertices left out: a sub-list of a rotation of it.
            let start = cycle
                .iter()
                .position(|&c| c == piece[0])
                .ok_or("a strict piece has a vertex off its cycle")?;
            let mut rotated = cycle[start..].iter().chain(&cycle[..start]);
            if !piece.iter().all(|v| rotated.any(|c| c == v)) {
                return Err(format!("strict piece {k} is not a sub-list of its cycle"));
            }
            for (i, ins) in inside.iter().enumerate() {
                if ins.vertex != (piece[i] as usize >= outline) {
                    return Err(format!("piece {k} vertex {i}: inside flag {}", ins.vertex));
                }
                if ins.edge {
                    inside_edges.push((pts[i] + pts[(i + 1) % pts.len()]) * 0.5);
                }
            }
        }
        let stride = (inside_edges.len() / samples.max(1)).max(1);
        for mid in inside_edges.iter().step_by(stride) {
            if !strictly_inside(poly, *mid) {
                return Err(format!(
                    "an edge reported inside has its midpoint {mid:?} off the interior"
                ));
            }
        }
        Ok(())
    }

    /// Whether `p` lies strictly inside the simple polygon `poly` (crossing number with exact
    /// orientation tests; `false` on the outline).
    fn strictly_inside(poly: &[DVec2], p: DVec2) -> bool {
        let n = poly.len();
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            let o = orient(a, b, p);
            let (ymin, ymax) = (a.y.min(b.y), a.y.max(b.y));
            if o == 0.0 && p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= ymin && p.y <= ymax
            {
                return false;
            }
            if (a.y > p.y) != (b.y > p.y) && (o > 0.0) == (b.y > a.y) {
                inside = !inside;
            }
        }
        inside
    }

    /// The pieces of a polygon as index lists into the points they use (the polygon's, or its
    /// Steiner-augmented ones), as `for_each_convex_piece` makes them, checked by
    /// [`check_cover`].
    fn check_ccw(ccw: &[DVec2]) -> Result<usize, String> {
        let n = ccw.len();
        if is_convex(ccw) {
            return Ok(1);
        }
        if n <= SMALL_POLYGON {
            let pieces = small_pieces(ccw).ok_or("no decomposition")?;
            let index: HashMap<(u64, u64), u32> = ccw
                .iter()
                .enumerate()
                .map(|(i, p)| ((p.x.to_bits(), p.y.to_bits()), i as u32))
                .collect();
            let ids: Option<Vec<Vec<u32>>> = pieces
                .iter()
                .map(|piece| {
                    piece
                        .iter()
                        .map(|p| index.get(&(p.x.to_bits(), p.y.to_bits())).copied())
                        .collect()
                })
                .collect();
            let ids = ids.ok_or("a piece has a point off the polygon")?;
            check_cover(ccw, ccw, n, &ids, usize::MAX, false)?;
            return Ok(ids.len());
        }
        let mut cycles: Vec<(Vec<u32>, Vec<bool>)> = Vec::new();
        let mut record = |p: &[u32], on: &[bool]| cycles.push((p.to_vec(), on.to_vec()));
        if let Some(local) = local_triangulation(ccw) {
            hertel_mehlhorn(
                &local.points,
                local.outline,
                &local.tris,
                MAX_PIECE,
                &mut record,
            );
            let ids: Vec<Vec<u32>> = cycles.iter().map(|c| c.0.clone()).collect();
            check_cover(ccw, &local.points, local.outline, &ids, MAX_PIECE, true)?;
            check_strict(ccw, &local.points, local.outline, &cycles, 300)?;
        } else {
            let tris = polygon_triangles(ccw).ok_or("no triangulation")?;
            hertel_mehlhorn(ccw, n, &tris, usize::MAX, &mut record);
            let ids: Vec<Vec<u32>> = cycles.iter().map(|c| c.0.clone()).collect();
            check_cover(ccw, ccw, n, &ids, usize::MAX, true)?;
            check_strict(ccw, ccw, n, &cycles, 300)?;
        }
        let ids = cycles;
        // The public entry point gives the same pieces.
        let pieces = convex_pieces(ccw).ok_or("no decomposition")?;
        if pieces.len() != ids.len() {
            return Err("convex_pieces disagrees".into());
        }
        Ok(ids.len())
    }

    /// Validates `pts`, normalizes it and checks its decomposition.
    fn check_polygon(pts: &[DVec2]) -> Result<usize, String> {
        validate_polygon(PolygonId(0), pts).map_err(|e| e.to_string())?;
        check_ccw(&normalized_ccw(pts))
    }

    /// A star-shaped polygon: `radii.len()` points at increasing angles around the origin (each
    /// jittered by up to `jitter` of its step), optionally snapped to a 1/8 grid, so that many
    /// points are collinear and cocircular.
    fn star(radii: &[f64], jitter: &[f64], snap: bool) -> Vec<DVec2> {
        let k = radii.len();
        (0..k)
            .map(|i| {
                let t = (i as f64 + jitter[i]) * std::f64::consts::TAU / k as f64;
                let p = DVec2::new(t.cos(), t.sin()) * radii[i];
                if snap {
                    (p * 8.0).round() / 8.0
                } else {
                    p
                }
            })
            .collect()
    }

    /// A comb on the integer grid: a strip of height 1 with teeth `(width, gap after, height)`
    /// along its top. Every tooth top and gap floor is collinear with many others.
    fn comb(teeth: &[(u32, u32, u32)]) -> Vec<DVec2> {
        // The top profile from left to right: (start, end, level) of each tooth top and gap.
        let mut profile: Vec<(f64, f64, f64)> = Vec::new();
        let mut x = 0.0;
        for &(w, g, h) in teeth {
            profile.push((x, x + w as f64, h as f64 + 1.0));
            x += w as f64;
            profile.push((x, x + g as f64, 1.0));
            x += g as f64;
        }
        let mut pts = vec![DVec2::new(0.0, 0.0), DVec2::new(x, 0.0)];
        // Right to left along the top; the outline closes straight down from the first tooth.
        for &(start, end, level) in profile.iter().rev() {
            pts.push(DVec2::new(end, level));
            pts.push(DVec2::new(start, level));
        }
        pts
    }

    /// A fixed seed unless `TESSERA_SEED` sets one (`test_seed`); `PROPTEST_CASES` for soak
    /// runs.
    fn config(cases: u32) -> Config {
        crate::test_seed::proptest_config(cases, 0xdec0_3905)
    }

    proptest! {
        #![proptest_config(config(400))]

        /// Random star-shaped polygons, smooth or snapped to a grid (collinear and cocircular
        /// points everywhere), decompose into an exact Hertel–Mehlhorn cover.
        #[test]
        fn star_polygons_decompose_into_an_exact_cover(
            spec in (3usize..150).prop_flat_map(|k| (
                prop::collection::vec(0.1f64..1.0, k),
                prop::collection::vec(0.0f64..0.9, k),
            )),
            scale in prop::sample::select(vec![1.0, 10.0, 1e-3, 1e5]),
            snap in prop::bool::ANY,
        ) {
            let (radii, jitter) = spec;
            let radii: Vec<f64> = radii.iter().map(|r| r * scale).collect();
            let pts = star(&radii, &jitter, snap);
            // Snapping a small star can fold it; such input is rejected by validation.
            prop_assume!(validate_polygon(PolygonId(0), &pts).is_ok());
            check_polygon(&pts).map_err(TestCaseError::fail)?;
        }

        /// Random combs on the integer grid decompose into an exact Hertel–Mehlhorn cover.
        #[test]
        fn combs_decompose_into_an_exact_cover(
            teeth in prop::collection::vec((1u32..4, 1u32..4, 1u32..5), 1..60),
            offset in prop::sample::select(vec![0.0, 1e5, -3.25]),
        ) {
            let pts: Vec<DVec2> = comb(&teeth).iter().map(|p| *p + offset).collect();
            check_polygon(&pts).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn long_outlines_decompose_into_an_exact_cover() {
        let teeth: Vec<(u32, u32, u32)> = (0..2_500)
            .map(|i| (1 + i % 3, 1 + i % 2, 1 + i % 4))
            .collect();
        let c = comb(&teeth);
        assert_eq!(c.len(), 10_002);
        check_polygon(&c).unwrap();
        // The strip's long base is split; the strip and the teeth are too narrow for interior
        // points.
        let local = local_triangulation(&normalized_ccw(&c)).unwrap();
        assert!(local.outline > c.len());
        assert_eq!(local.points.len(), local.outline);
        // A wide round outline gets interior points, and pieces that touch no outline.
        let k = 10_000;
        let radii: Vec<f64> = (0..k)
            .map(|i| 100.0 + ((i * 7919) % 13) as f64 * 0.1)
            .collect();
        let jitter = vec![0.0; k];
        let round = star(&radii, &jitter, false);
        check_polygon(&round).unwrap();
        let local = local_triangulation(&normalized_ccw(&round)).unwrap();
        assert!(local.points.len() > local.outline + 100);
        let mut inner = 0;
        for_each_convex_piece(&normalized_ccw(&round), |_, inside| {
            inner += usize::from(!inside.is_empty() && inside.iter().all(|i| i.edge));
        })
        .unwrap();
        assert!(inner > 10, "{inner} pieces wholly inside");
    }

    /// Coordinates spade refuses (non-zero, below 2^-142 in magnitude) fall back to ear clipping.
    #[test]
    fn tiny_coordinates_fall_back_to_ear_clipping() {
        let l = v(&[(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]);
        let tiny: Vec<DVec2> = l.iter().map(|p| *p * 1e-45).collect();
        assert!(zorder_triangles(&tiny, tiny.len()).is_none());
        assert_eq!(check_polygon(&tiny), Ok(2));
        // Longer than `SMALL_POLYGON`: ear clipping, then the one-pass Hertel–Mehlhorn.
        let teeth: Vec<(u32, u32, u32)> =
            (0..20).map(|i| (1 + i % 2, 1 + i % 3, 1 + i % 4)).collect();
        let tiny: Vec<DVec2> = comb(&teeth).iter().map(|p| *p * 1e-45).collect();
        assert!(tiny.len() > SMALL_POLYGON);
        assert!(zorder_triangles(&tiny, tiny.len()).is_none());
        check_polygon(&tiny).unwrap();
    }

    fn v(p: &[(f64, f64)]) -> Vec<DVec2> {
        p.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    #[test]
    fn a_pentagram_turns_left_everywhere_but_is_not_strictly_convex() {
        let star: Vec<DVec2> = (0..5)
            .map(|k| {
                let t = (k * 2) as f64 * std::f64::consts::TAU / 5.0;
                DVec2::new(t.cos(), t.sin())
            })
            .collect();
        assert!(is_convex(&star));
        assert!(!is_strictly_convex(&star));
        let sq = v(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
        assert!(is_strictly_convex(&sq));
    }

    #[test]
    fn convex_polygon_is_one_piece() {
        let sq = v(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
        assert_eq!(convex_pieces(&sq).unwrap().len(), 1);
    }

    #[test]
    fn l_shape_becomes_two_convex_pieces_with_the_same_area() {
        let l = v(&[(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]);
        let pieces = convex_pieces(&l).unwrap();
        assert_eq!(pieces.len(), 2);
        assert!(pieces.iter().all(|p| is_convex(p)));
        let area: f64 = pieces.iter().map(|p| signed_area(p)).sum();
        assert!((area - 3.0).abs() < 1e-12);
    }

    #[test]
    fn comb_shape_pieces_are_convex_and_cover_it() {
        // A comb with three teeth.
        let c = v(&[
            (0., 0.),
            (5., 0.),
            (5., 3.),
            (4., 3.),
            (4., 1.),
            (3., 1.),
            (3., 3.),
            (2., 3.),
            (2., 1.),
            (1., 1.),
            (1., 3.),
            (0., 3.),
        ]);
        let pieces = convex_pieces(&c).unwrap();
        assert!(pieces.iter().all(|p| is_convex(p)));
        let area: f64 = pieces.iter().map(|p| signed_area(p)).sum();
        assert!((area - signed_area(&c)).abs() < 1e-12);
    }
}
