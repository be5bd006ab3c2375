//! Level polygons as low-poly 3D slabs (and ladders, see `ladder_mesh`): the static geometry, built once per level (and again only
//! when the level is edited), uploaded once, drawn every frame by chunk.
//!
//! Each polygon (counter-clockwise, collinear points removed) becomes a slab across the play plane
//! `z = 0`: a front face at `z = +h` (its convex pieces fanned into triangles), a bevel band
//! sloping 45° from the front face, inset by `bevel`, out to the true outline, and side walls down
//! to `z = -h`. No back face: the camera never sees it, and the shadow pass draws without culling.
//! Upward-facing walls (the walkable tops) take the material's top colour. One-way platforms are
//! thinner (`one_way_half_depth`), lighter and striped. Hazards carry spikes on their exposed
//! edges (`spike_mesh`).
//!
//! Geometry is grouped into square chunks (by polygon centroid) laid out contiguously in the index
//! buffer, so a frame draws only the index ranges of chunks in view ([`ChunkTable::visible`]).
//!
//! Each chunk's indices start with its **open front faces**: the front faces at the level's
//! frontmost depth ([`SlabConfig::front_depth`], the solid slabs' fronts by default). Nothing
//! stands in front of them: every slab, ladder and character lies behind that plane (the
//! slabs' fronts at 1.2 m; the deepest shipped figure, the brute, reaches 0.65 m from the play
//! plane; a character file's model deeper than the fronts would cast no shadow on them), so no shadow
//! can fall on them from a sun in front of the play plane, and a sun behind it does not light
//! them at all. The lit pass draws them without a shadow-map lookup ([`ChunkTable::visible_split`]),
//! which is most of what a CPU rasteriser spends on a lit fragment; the shadow pass draws them
//! like the rest.
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use glam::{DVec2, Vec3};

use super::hazard_look::add_look;
use super::ladder_mesh::add_ladder;
use super::palette::{lighten, polygon_style, SurfaceStyle};
use super::vertex::MeshVertex;
use crate::collision::{convex_pieces, normalized_ccw, orient, polygon_triangles, Aabb};
use crate::level::Level;
use crate::level::PolygonKind;

/// Slab dimensions, m.
#[derive(Clone, Debug, PartialEq)]
pub struct SlabConfig {
    /// Half depth (in z) of solid slabs. Default 1.2.
    pub solid_half_depth: f32,
    /// Half depth of one-way platforms. Default 0.7.
    pub one_way_half_depth: f32,
    /// Width of the front bevel. Default 0.08.
    pub bevel: f64,
    /// Side of the square culling chunks. Default 24.
    pub chunk_size: f64,
}

impl SlabConfig {
    /// The level's frontmost depth: the fronts of the deepest slabs (ladders stand behind the
    /// play plane). Front faces there are open (see the module docs).
    pub fn front_depth(&self) -> f32 {
        self.solid_half_depth.max(self.one_way_half_depth)
    }
}

impl Default for SlabConfig {
    fn default() -> Self {
        SlabConfig {
            solid_half_depth: 1.2,
            one_way_half_depth: 0.7,
            bevel: 0.08,
            chunk_size: 24.0,
        }
    }
}

/// A contiguous run of the index buffer holding the slabs of one chunk.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// The chunk's polygons' bounding box in the play plane.
    pub aabb: Aabb,
    /// Its indices: `indices.start..open_end` its open front faces (see the module docs), then
    /// the rest.
    pub indices: Range<u32>,
    /// Where its open front faces end.
    pub open_end: u32,
}

/// The chunks of the static geometry, for culling.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChunkTable {
    /// Chunks in the order they were laid out (an edit may move a chunk's indices after the
    /// others', or empty them: [`LevelGeometry`]'s layout).
    pub chunks: Vec<Chunk>,
}

impl ChunkTable {
    /// Index ranges of the chunks overlapping `view`, written into `out` (one a chunk: the room
    /// [`LevelGeometry`] leaves after each keeps them apart); empty ones left out.
    pub fn visible(&self, view: &Aabb, out: &mut Vec<Range<u32>>) {
        out.clear();
        out.extend(
            self.chunks
                .iter()
                .filter(|c| !c.indices.is_empty() && c.aabb.overlaps(view))
                .map(|c| c.indices.clone()),
        );
    }

    /// The index ranges of the chunks overlapping `view` split for the lit pass: their open front
    /// faces (drawn without a shadow lookup) into `open`, the rest into `rest`; empty ranges
    /// left out.
    pub fn visible_split(
        &self,
        view: &Aabb,
        open: &mut Vec<Range<u32>>,
        rest: &mut Vec<Range<u32>>,
    ) {
        open.clear();
        rest.clear();
        for c in self.chunks.iter().filter(|c| c.aabb.overlaps(view)) {
            for (out, r) in [
                (&mut *open, c.indices.start..c.open_end),
                (&mut *rest, c.open_end..c.indices.end),
            ] {
                if !r.is_empty() {
                    out.push(r);
                }
            }
        }
    }
}

/// The static level geometry on the CPU, ready to upload.
///
/// # Layout, and what an edit rewrites
/// Each cell's part (its polygons' and ladders' slabs) has a span of the buffers with room to
/// grow ([`room`]: a quarter more, at least 16): a chunk draws the part's indices at the span's
/// start, and what lies after them in the span is never drawn. An edit
/// ([`LevelGeometry::update`]) writes a part that still fits over its span; one that outgrew its
/// span, or a new cell, is appended after the last span (its old span is left unused); an
/// emptied cell's chunk draws nothing. Only what was written is uploaded again
/// ([`LevelGeometry::take_dirty`]), so dragging a box about the 10 000-tile level rewrites a cell's
/// few hundred kilobytes, not the whole level's buffers. When the unused spans outweigh the used
/// ones, the buffers are laid out again from the cells (as [`LevelGeometry::build`] lays them).
#[derive(Clone, Debug, Default)]
pub struct LevelGeometry {
    /// Flat-shaded vertices (with each span's unused room: zeros, never drawn).
    pub vertices: Vec<MeshVertex>,
    /// Triangle list, counter-clockwise seen from outside (with each span's unused room).
    pub indices: Vec<u32>,
    /// Chunks for culling.
    pub chunks: ChunkTable,
    /// Each chunk's slabs by cell, kept so that an edit rebuilds only its cells
    /// ([`LevelGeometry::update`]).
    cells: BTreeMap<(i64, i64), Part>,
    /// Where each cell's part lies in `vertices` and `indices`.
    spans: BTreeMap<(i64, i64), Span>,
    /// Vertices and indices of spans no cell uses any more (an outgrown or emptied cell's).
    unused: (usize, usize),
    /// What changed in the buffers since the last [`LevelGeometry::take_dirty`].
    dirty: Dirty,
    /// Per polygon of the level built: its fingerprint ([`fingerprint`]) and cell.
    prints: Vec<(u64, Option<(i64, i64)>)>,
    /// The ladders of the level built.
    ladders: Vec<crate::level::Ladder>,
}

/// Where a cell's part lies in the buffers: its first vertex and index, the room it has for
/// each, and its chunk (if it is drawn).
#[derive(Clone, Copy, Debug)]
struct Span {
    v0: usize,
    v_room: usize,
    i0: usize,
    i_room: usize,
    chunk: Option<usize>,
}

/// What of the buffers changed: nothing, everything (a new layout), or some element ranges of
/// the vertices and of the indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Dirty {
    /// Nothing since the last upload.
    #[default]
    Clean,
    /// The whole buffers (built or laid out again).
    All,
    /// These vertex ranges and these index ranges, in elements.
    Ranges {
        /// Vertex ranges.
        vertices: Vec<Range<usize>>,
        /// Index ranges.
        indices: Vec<Range<usize>>,
    },
}

impl Dirty {
    fn add(&mut self, v: Range<usize>, i: Range<usize>) {
        match self {
            Dirty::All => {}
            Dirty::Clean => {
                *self = Dirty::Ranges {
                    vertices: vec![v],
                    indices: vec![i],
                }
            }
            Dirty::Ranges { vertices, indices } => {
                vertices.push(v);
                indices.push(i);
            }
        }
    }
}

/// The room a span gets for `n` elements: a quarter more, and at least 16 more, so that an edit
/// that adds a polygon or moves one within its cell fits in place.
fn room(n: usize) -> usize {
    n + (n / 4).max(16)
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Part {
    vertices: Vec<MeshVertex>,
    /// The open front faces' triangles (laid out first), then the rest's.
    open: Vec<u32>,
    indices: Vec<u32>,
    aabb: Option<Aabb>,
}

impl LevelGeometry {
    /// Builds the slabs of every polygon of `level`.
    pub fn build(level: &Level, cfg: &SlabConfig) -> LevelGeometry {
        let mut cells: BTreeMap<(i64, i64), Part> = BTreeMap::new();
        for (i, p) in level.polygons.iter().enumerate() {
            if let Some(key) = polygon_cell(p, cfg) {
                add_polygon(cells.entry(key).or_default(), level, i, cfg);
            }
        }
        for ladder in &level.ladders {
            let part = cells.entry(ladder_cell(ladder, cfg)).or_default();
            add_ladder_part(part, ladder);
        }
        let mut out = LevelGeometry {
            cells,
            prints: level
                .polygons
                .iter()
                .map(|p| (fingerprint(p), polygon_cell(p, cfg)))
                .collect(),
            ladders: level.ladders.clone(),
            ..LevelGeometry::default()
        };
        out.lay_out();
        out
    }

    /// What changed in [`LevelGeometry::vertices`] and [`LevelGeometry::indices`] since the last
    /// call (a new geometry: everything), to upload.
    pub fn take_dirty(&mut self) -> Dirty {
        std::mem::take(&mut self.dirty)
    }

    /// Brings the slabs up to date with `new`, the level they were built from after an edit,
    /// with the same `cfg`: only the cells of polygons and ladders that differ (where they were
    /// and where they are) are built again. A polygon is known by a 64-bit fingerprint of its
    /// kind, points, material and colour kept from the last build (the level itself is not kept).
    /// A cell's part is written into its span if it fits, else appended (the type's docs); the
    /// chunks then draw the same triangles, chunk for chunk, as [`LevelGeometry::build`] of `new`.
    pub fn update(&mut self, new: &Level, cfg: &SlabConfig) {
        let mut keys: Vec<(i64, i64)> = Vec::new();
        let prints: Vec<(u64, Option<(i64, i64)>)> = new
            .polygons
            .iter()
            .map(|p| (fingerprint(p), polygon_cell(p, cfg)))
            .collect();
        for i in 0..self.prints.len().max(prints.len()) {
            let (a, b) = (self.prints.get(i), prints.get(i));
            if a.map(|a| a.0) != b.map(|b| b.0) {
                keys.extend(a.and_then(|a| a.1));
                keys.extend(b.and_then(|b| b.1));
            }
        }
        self.prints = prints;
        if self.ladders != new.ladders {
            keys.extend(self.ladders.iter().map(|l| ladder_cell(l, cfg)));
            keys.extend(new.ladders.iter().map(|l| ladder_cell(l, cfg)));
            self.ladders = new.ladders.clone();
        }
        keys.sort_unstable();
        keys.dedup();
        if keys.is_empty() {
            return;
        }
        for key in &keys {
            self.cells.remove(key);
        }
        for (i, p) in new.polygons.iter().enumerate() {
            if let Some(key) = polygon_cell(p, cfg).filter(|k| keys.binary_search(k).is_ok()) {
                add_polygon(self.cells.entry(key).or_default(), new, i, cfg);
            }
        }
        for ladder in &new.ladders {
            let key = ladder_cell(ladder, cfg);
            if keys.binary_search(&key).is_ok() {
                add_ladder_part(self.cells.entry(key).or_default(), ladder);
            }
        }
        for key in &keys {
            self.place(*key);
        }
        let used = (
            self.vertices.len() - self.unused.0,
            self.indices.len() - self.unused.1,
        );
        if self.unused.0 > used.0 || self.unused.1 > used.1 {
            self.lay_out();
        }
    }

    /// Puts cell `key`'s part (just built, or gone) into the buffers: over its span if it fits,
    /// else after the last span; a gone or undrawn part's chunk draws nothing.
    fn place(&mut self, key: (i64, i64)) {
        let old = self.spans.get(&key).copied();
        let Some(part) = self.cells.get(&key).filter(|p| p.aabb.is_some()) else {
            if let Some(s) = old {
                self.spans.remove(&key);
                self.unused.0 += s.v_room;
                self.unused.1 += s.i_room;
                if let Some(c) = s.chunk {
                    self.chunks.chunks[c].indices = s.i0 as u32..s.i0 as u32;
                    self.chunks.chunks[c].open_end = s.i0 as u32;
                }
            }
            self.cells.remove(&key);
            return;
        };
        let (nv, ni) = (part.vertices.len(), part.open.len() + part.indices.len());
        let span = match old {
            Some(s) if nv <= s.v_room && ni <= s.i_room => s,
            _ => {
                if let Some(s) = old {
                    self.unused.0 += s.v_room;
                    self.unused.1 += s.i_room;
                }
                let s = Span {
                    v0: self.vertices.len(),
                    v_room: room(nv),
                    i0: self.indices.len(),
                    i_room: room(ni),
                    chunk: old.and_then(|s| s.chunk),
                };
                self.vertices.resize(s.v0 + s.v_room, MeshVertex::default());
                self.indices.resize(s.i0 + s.i_room, 0);
                s
            }
        };
        let part = &self.cells[&key];
        let chunk = match (
            write_part(&mut self.vertices, &mut self.indices, part, &span),
            span.chunk,
        ) {
            (Some(chunk), Some(c)) => {
                self.chunks.chunks[c] = chunk;
                Some(c)
            }
            (Some(chunk), None) => {
                self.chunks.chunks.push(chunk);
                Some(self.chunks.chunks.len() - 1)
            }
            (None, c) => c,
        };
        self.spans.insert(key, Span { chunk, ..span });
        self.dirty.add(span.v0..span.v0 + nv, span.i0..span.i0 + ni);
    }

    /// Lays the cells' parts out one after the other in the buffers, in cell order, each in a
    /// span with room to grow; every chunk anew.
    fn lay_out(&mut self) {
        let (nv, ni) = self.cells.values().fold((0, 0), |(v, i), p| {
            (
                v + room(p.vertices.len()),
                i + room(p.open.len() + p.indices.len()),
            )
        });
        self.vertices.clear();
        self.vertices.resize(nv, MeshVertex::default());
        self.indices.clear();
        self.indices.resize(ni, 0);
        self.chunks.chunks.clear();
        self.spans.clear();
        self.unused = (0, 0);
        let (mut v0, mut i0) = (0, 0);
        for (key, part) in &self.cells {
            let mut span = Span {
                v0,
                v_room: room(part.vertices.len()),
                i0,
                i_room: room(part.open.len() + part.indices.len()),
                chunk: None,
            };
            v0 += span.v_room;
            i0 += span.i_room;
            if let Some(chunk) = write_part(&mut self.vertices, &mut self.indices, part, &span) {
                self.chunks.chunks.push(chunk);
                span.chunk = Some(self.chunks.chunks.len() - 1);
            }
            self.spans.insert(*key, span);
        }
        self.dirty = Dirty::All;
    }
}

#[cfg(test)]
impl LevelGeometry {
    /// The cells' vertices one after the other, in cell order (the buffers without their room).
    pub(crate) fn used_vertices(&self) -> Vec<MeshVertex> {
        self.cells
            .values()
            .flat_map(|p| p.vertices.iter().copied())
            .collect()
    }

    /// The triangles the chunks draw, in chunk order.
    pub(crate) fn drawn_triangles(&self) -> Vec<[MeshVertex; 3]> {
        self.chunks
            .chunks
            .iter()
            .flat_map(|c| self.triangles(c.indices.clone()))
            .collect()
    }

    /// The triangles of the index range `r`.
    fn triangles(&self, r: Range<u32>) -> Vec<[MeshVertex; 3]> {
        self.indices[r.start as usize..r.end as usize]
            .chunks(3)
            .map(|t| [t[0], t[1], t[2]].map(|i| self.vertices[i as usize]))
            .collect()
    }

    /// Per drawn chunk: its box, its open front faces' triangles and the rest's, in the order of
    /// the boxes' corners (the same whatever order an edit left the chunks in).
    #[allow(clippy::type_complexity)]
    fn drawn_by_chunk(&self) -> Vec<([u64; 4], Vec<[MeshVertex; 3]>, Vec<[MeshVertex; 3]>)> {
        let mut out: Vec<_> = self
            .chunks
            .chunks
            .iter()
            .filter(|c| !c.indices.is_empty())
            .map(|c| {
                (
                    [c.aabb.min.x, c.aabb.min.y, c.aabb.max.x, c.aabb.max.y].map(f64::to_bits),
                    self.triangles(c.indices.start..c.open_end),
                    self.triangles(c.open_end..c.indices.end),
                )
            })
            .collect();
        out.sort_by_key(|c| c.0);
        out
    }
}

/// Writes `part` at `span`'s start (its indices offset to its vertices) and returns its chunk.
fn write_part(
    vertices: &mut [MeshVertex],
    indices: &mut [u32],
    part: &Part,
    span: &Span,
) -> Option<Chunk> {
    vertices[span.v0..span.v0 + part.vertices.len()].copy_from_slice(&part.vertices);
    let base = span.v0 as u32;
    let n = part.open.len() + part.indices.len();
    for (dst, &i) in indices[span.i0..span.i0 + n]
        .iter_mut()
        .zip(part.open.iter().chain(&part.indices))
    {
        *dst = i + base;
    }
    let start = span.i0 as u32;
    part.aabb.map(|aabb| Chunk {
        aabb,
        indices: start..start + n as u32,
        open_end: start + part.open.len() as u32,
    })
}

/// A 64-bit fingerprint of what a polygon's slab is made from: its kind, points, material and
/// colour (every bit of each, mixed by multiply and rotate). Two different polygons share one
/// with a chance of about 2⁻⁶⁴.
fn fingerprint(p: &crate::level::LevelPolygon) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    let mut mix = |x: u64| h = (h.rotate_left(27) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    mix(match p.kind {
        PolygonKind::Solid => 1,
        PolygonKind::OneWay => 2,
        PolygonKind::Hazard => 3,
    });
    mix(p.points.len() as u64);
    for q in &p.points {
        mix(q.x.to_bits());
        mix(q.y.to_bits());
    }
    match &p.material {
        Some(m) => {
            mix(m.len() as u64 + 1);
            for b in m.bytes() {
                mix(b as u64);
            }
        }
        None => mix(0),
    }
    match p.colour {
        Some(c) => c.iter().for_each(|x| mix(x.to_bits() as u64 | 1 << 40)),
        None => mix(0),
    }
    if p.is_switched() {
        // Its spikes are the objects', not the slab's.
        mix(4);
    }
    mix(5 + p.look as u64);
    h
}

/// The cell of a polygon (by its box's centre), or `None` for one that makes no slab.
fn polygon_cell(p: &crate::level::LevelPolygon, cfg: &SlabConfig) -> Option<(i64, i64)> {
    if p.points.len() < 3 || p.points.iter().any(|q| !q.is_finite()) {
        return None;
    }
    let aabb = Aabb::from_points(p.points.iter().copied());
    Some(cell_of((aabb.min + aabb.max) / 2.0, cfg))
}

fn ladder_cell(ladder: &crate::level::Ladder, cfg: &SlabConfig) -> (i64, i64) {
    let aabb = ladder.aabb();
    cell_of((aabb.min + aabb.max) / 2.0, cfg)
}

fn cell_of(centre: DVec2, cfg: &SlabConfig) -> (i64, i64) {
    (
        (centre.x / cfg.chunk_size).floor() as i64,
        (centre.y / cfg.chunk_size).floor() as i64,
    )
}

/// Appends polygon `i` of `level` to `part`.
fn add_polygon(part: &mut Part, level: &Level, i: usize, cfg: &SlabConfig) {
    let p = &level.polygons[i];
    let pts = normalized_ccw(&p.points);
    if pts.len() < 3 {
        return;
    }
    let aabb = Aabb::from_points(pts.iter().copied());
    let half = if p.kind == PolygonKind::OneWay {
        cfg.one_way_half_depth
    } else {
        cfg.solid_half_depth
    };
    let open = half >= cfg.front_depth();
    add_slab(part, &pts, half, open, cfg.bevel, &polygon_style(p));
    // A switched hazard's spikes (or lava, or blades) change: drawn with the objects
    // (`object_mesh`).
    if p.kind == PolygonKind::Hazard && !p.is_switched() {
        let front = front_triangles(&pts).unwrap_or_default();
        add_look(
            p.look,
            &pts,
            &front,
            half,
            true,
            &mut part.vertices,
            &mut part.indices,
        );
    }
    part.aabb = Some(part.aabb.map_or(aabb, |a| a.union(&aabb)));
}

/// Appends the slab of the polygon `points` (either orientation) to `vertices` and `indices`,
/// `half` deep each side of the play plane, bevelled by `bevel`, in `style`: the level's slab,
/// for the objects drawn like level geometry (movers and doors, `object_mesh`). Nothing for a
/// polygon of fewer than three distinct points.
pub(super) fn extrude_polygon(
    points: &[DVec2],
    half: f32,
    bevel: f64,
    style: &SurfaceStyle,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let pts = normalized_ccw(points);
    if pts.len() < 3 {
        return;
    }
    let mut part = Part {
        vertices: std::mem::take(vertices),
        indices: std::mem::take(indices),
        ..Part::default()
    };
    add_slab(&mut part, &pts, half, false, bevel, style);
    *vertices = part.vertices;
    *indices = part.indices;
}

/// Appends what stands on the hazard outline `points` (either orientation) in `look`, `on` or
/// off (`hazard_look`), on its slab as [`add_polygon`] builds it: for a switched hazard's,
/// drawn with the objects (`object_mesh`). Nothing for an outline of fewer than three distinct
/// points.
pub(super) fn hazard_dressing(
    points: &[DVec2],
    look: crate::level::HazardLook,
    on: bool,
    cfg: &SlabConfig,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let pts = normalized_ccw(points);
    if pts.len() >= 3 {
        let front = front_triangles(&pts).unwrap_or_default();
        add_look(
            look,
            &pts,
            &front,
            cfg.solid_half_depth,
            on,
            vertices,
            indices,
        );
    }
}

fn add_ladder_part(part: &mut Part, ladder: &crate::level::Ladder) {
    let aabb = ladder.aabb();
    add_ladder(&mut part.vertices, &mut part.indices, ladder);
    part.aabb = Some(part.aabb.map_or(aabb, |a| a.union(&aabb)));
}

/// Appends one polygon's slab, its front face among the open ones where `open` (its front is at
/// the level's frontmost depth).
fn add_slab(
    part: &mut Part,
    pts: &[DVec2],
    half: f32,
    open: bool,
    bevel: f64,
    style: &SurfaceStyle,
) {
    let n = pts.len();
    let Some(tris) = front_triangles(pts) else {
        return;
    };
    let inset = inset_outline(pts, bevel, &tris);
    let has_bevel = inset.is_some();
    let front = inset.unwrap_or_else(|| pts.to_vec());
    let bevel_z = if has_bevel { half - bevel as f32 } else { half };
    let stripes = if style.stripes { 1.0 } else { 0.0 };
    let v = |p: DVec2, z: f32, normal: Vec3, color: [f32; 3]| MeshVertex {
        position: [p.x as f32, p.y as f32, z],
        normal: normal.to_array(),
        color,
        stripes,
    };
    // Front face.
    let base = part.vertices.len() as u32;
    part.vertices
        .extend(front.iter().map(|&p| v(p, half, Vec3::Z, style.side)));
    let front_indices = if open {
        &mut part.open
    } else {
        &mut part.indices
    };
    front_indices.extend(tris.iter().flatten().map(|&i| base + i));
    // Bevel band and side walls, one quad each per edge.
    for i in 0..n {
        let j = (i + 1) % n;
        let e = pts[j] - pts[i];
        let out = DVec2::new(e.y, -e.x).normalize();
        let wall_n = Vec3::new(out.x as f32, out.y as f32, 0.0);
        let wall_c = if out.y > 0.5 { style.top } else { style.side };
        if has_bevel {
            let bevel_n = (wall_n + Vec3::Z).normalize();
            let bevel_c = lighten(wall_c, 0.18);
            let quad = [
                v(front[i], half, bevel_n, bevel_c),
                v(front[j], half, bevel_n, bevel_c),
                v(pts[j], bevel_z, bevel_n, bevel_c),
                v(pts[i], bevel_z, bevel_n, bevel_c),
            ];
            push_quad(part, quad);
        }
        let quad = [
            v(pts[i], bevel_z, wall_n, wall_c),
            v(pts[j], bevel_z, wall_n, wall_c),
            v(pts[j], -half, wall_n, wall_c),
            v(pts[i], -half, wall_n, wall_c),
        ];
        push_quad(part, quad);
    }
}

/// Appends a quad `a b c d` (a→b along the front ring, d below a) as two outward-facing triangles.
fn push_quad(part: &mut Part, q: [MeshVertex; 4]) {
    let base = part.vertices.len() as u32;
    part.vertices.extend_from_slice(&q);
    part.indices
        .extend_from_slice(&[base, base + 2, base + 1, base, base + 3, base + 2]);
}

/// Triangles (index triples into `pts`) covering the polygon: its convex pieces, fanned, where
/// they use the polygon's own vertices only (every polygon of up to 64 points); otherwise (a long
/// outline, whose pieces carry Steiner points) the triangulation of the outline itself
/// ([`polygon_triangles`]).
fn front_triangles(pts: &[DVec2]) -> Option<Vec<[u32; 3]>> {
    let index: HashMap<(u64, u64), u32> = pts
        .iter()
        .enumerate()
        .map(|(i, p)| ((p.x.to_bits(), p.y.to_bits()), i as u32))
        .collect();
    let mut tris = Vec::with_capacity(pts.len());
    for piece in convex_pieces(pts)? {
        let ids: Option<Vec<u32>> = piece
            .iter()
            .map(|p| index.get(&(p.x.to_bits(), p.y.to_bits())).copied())
            .collect();
        let Some(ids) = ids else {
            return polygon_triangles(pts);
        };
        tris.extend((1..ids.len() - 1).map(|k| [ids[0], ids[k], ids[k + 1]]));
    }
    Some(tris)
}

/// The outline moved inwards by `bevel` (mitred corners, miters capped at 3× the bevel), or `None`
/// where that would fold a front triangle over or flip an edge (thin spikes, tiny polygons): such
/// polygons get no bevel.
fn inset_outline(pts: &[DVec2], bevel: f64, tris: &[[u32; 3]]) -> Option<Vec<DVec2>> {
    if bevel <= 0.0 {
        return None;
    }
    let n = pts.len();
    let left = |a: DVec2, b: DVec2| {
        let e = (b - a).normalize();
        DVec2::new(-e.y, e.x)
    };
    let inset: Vec<DVec2> = (0..n)
        .map(|i| {
            let (prev, next) = (pts[(i + n - 1) % n], pts[(i + 1) % n]);
            let (n0, n1) = (left(prev, pts[i]), left(pts[i], next));
            let m = (n0 + n1).normalize_or_zero();
            let len = bevel / m.dot(n0).max(1.0 / 3.0);
            pts[i] + m * len
        })
        .collect();
    let edges_keep_direction = (0..n).all(|i| {
        let j = (i + 1) % n;
        (inset[j] - inset[i]).dot(pts[j] - pts[i]) > 0.0
    });
    let triangles_keep_orientation = tris.iter().all(|t| {
        let [a, b, c] = t.map(|i| inset[i as usize]);
        orient(a, b, c) > 0.0
    });
    (edges_keep_direction && triangles_keep_orientation).then_some(inset)
}

#[cfg(test)]
mod tests;
