//! The collision mesh: a constrained Delaunay triangulation of the level with every face marked
//! free, one-way or solid for one collider shape.
//!
//! Faces are stored flat (`Vec<Face>`, indexed by [`FaceId`]) with their three vertices
//! counter-clockwise and the neighbour across each edge, so the move loop touches only small
//! contiguous records. Edge `i` of a face runs from `v[i]` to `v[(i + 1) % 3]`; the face lies on its
//! left. Face 0 is the unbounded outside of the triangulation's hull, always solid. The build
//! triangulates in this array (`cdt`) and keeps nothing else of it; point location walks the
//! faces (`locate`).
use glam::DVec2;

use super::grid::strictly_inside;
use super::locate::Seeds;
use super::polygon::{PolygonId, Solidity};
use super::predicates::{left_normal, Aabb};

/// Lists of source polygons, stored flat: list `i` is `ids[start[i]..start[i + 1]]` (one
/// allocation for all of them, not one per list).
///
/// A constraint edge that runs straight through junctions (see `runs`) lies on different
/// polygons' outlines along its length: its list is the union, and its parts
/// (a run of `parts`, recorded in `with_parts` only for such lists: a few among millions on a
/// large level) say which list applies from which point on, in order along the edge.
#[derive(Clone, Debug)]
pub(crate) struct SourceLists {
    start: Vec<u32>,
    ids: Vec<PolygonId>,
    /// `(list, first part)` for each list made of parts, in list order; the list's parts run to
    /// the next entry's first part (or the end of `parts`).
    with_parts: Vec<(u32, u32)>,
    parts: Vec<(DVec2, u32)>,
}

impl SourceLists {
    /// Room for `lists` lists of `ids` ids in all.
    pub(crate) fn with_capacity(lists: usize, ids: usize) -> Self {
        let mut start = Vec::with_capacity(lists + 1);
        start.push(0);
        SourceLists {
            start,
            ids: Vec::with_capacity(ids),
            with_parts: Vec::new(),
            parts: Vec::new(),
        }
    }
    /// Appends a list; returns its index.
    pub(crate) fn push(&mut self, ids: &[PolygonId]) -> u32 {
        self.ids.extend_from_slice(ids);
        self.start.push(self.ids.len() as u32);
        (self.start.len() - 2) as u32
    }
    /// Appends the list of an edge made of parts: `union` for the whole edge, and for each part
    /// in order along it, the point it starts at and the index of its own list.
    pub(crate) fn push_parts(
        &mut self,
        union: &[PolygonId],
        parts: impl IntoIterator<Item = (DVec2, u32)>,
    ) -> u32 {
        let first = self.parts.len() as u32;
        self.parts.extend(parts);
        let list = self.push(union);
        self.with_parts.push((list, first));
        list
    }
    /// The sources of list `i` at point `p` of its edge: the list of the part holding `p` (the
    /// later part at a point where two meet), or the whole list for an edge of one part.
    pub(crate) fn at(&self, i: u32, p: DVec2) -> &[PolygonId] {
        let Ok(k) = self.with_parts.binary_search_by_key(&i, |w| w.0) else {
            return self.get(i);
        };
        let end = self
            .with_parts
            .get(k + 1)
            .map_or(self.parts.len(), |w| w.1 as usize);
        let parts = &self.parts[self.with_parts[k].1 as usize..end];
        let Some((&(origin, first), rest)) = parts.split_first() else {
            return self.get(i);
        };
        // Parts are in order along the edge (a floor of many tiles makes hundreds): binary search.
        let dir = parts[parts.len() - 1].0 - origin;
        let t = (p - origin).dot(dir);
        let after = rest.partition_point(|(from, _)| (*from - origin).dot(dir) <= t);
        let list = if after == 0 { first } else { rest[after - 1].1 };
        self.get(list)
    }
    /// Number of lists.
    pub(crate) fn len(&self) -> usize {
        self.start.len() - 1
    }
    /// Appends every list of `other` with `drop` left out of it, and returns the new index of
    /// each of `other`'s lists (`u32::MAX` for a list that only held `drop`: it is not kept).
    pub(crate) fn append_without(&mut self, other: &SourceLists, drop: PolygonId) -> Vec<u32> {
        let mut map = Vec::with_capacity(other.len());
        let mut ids: Vec<PolygonId> = Vec::new();
        let mut w = 0;
        for i in 0..other.len() as u32 {
            let parts = (w < other.with_parts.len() && other.with_parts[w].0 == i).then(|| {
                let end = other
                    .with_parts
                    .get(w + 1)
                    .map_or(other.parts.len(), |x| x.1 as usize);
                let first = other.with_parts[w].1 as usize;
                w += 1;
                &other.parts[first..end]
            });
            ids.clear();
            ids.extend(other.get(i).iter().copied().filter(|&p| p != drop));
            map.push(match parts {
                _ if ids.is_empty() => u32::MAX,
                Some(parts) => {
                    let mapped: Vec<(DVec2, u32)> =
                        parts.iter().map(|&(p, l)| (p, map[l as usize])).collect();
                    self.push_parts(&ids, mapped)
                }
                None => self.push(&ids),
            });
        }
        map
    }
    /// List `i`.
    pub(crate) fn get(&self, i: u32) -> &[PolygonId] {
        let i = i as usize;
        &self.ids[self.start[i] as usize..self.start[i + 1] as usize]
    }
    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.start.capacity() * 4
            + self.with_parts.capacity() * 8
            + self.ids.capacity() * std::mem::size_of::<PolygonId>()
            + self.parts.capacity() * std::mem::size_of::<(DVec2, u32)>()
    }
}

/// A face (triangle) of a collision mesh. Small and `Copy`; index into [`CollisionMesh::face`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct FaceId(pub u32);

impl FaceId {
    /// The unbounded face outside the triangulation.
    pub const OUTSIDE: FaceId = FaceId(0);
}

/// What a face is for bodies moving on this mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaceKind {
    /// Outside every inflated piece: bodies move freely here.
    Free,
    /// Inside a one-way piece only: bodies may be here; it blocks only through its top edges.
    OneWay,
    /// Inside a solid piece or outside the level bounds: no body is ever here.
    Solid,
}

/// A directed edge of a face: edge `edge` of face `face`, with the face on its left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct EdgeRef {
    /// The face whose edge this is (on the edge's left).
    pub face: FaceId,
    /// Local edge index 0..3.
    pub edge: u8,
}

/// One triangle of the mesh.
#[derive(Clone, Copy, Debug)]
pub struct Face {
    /// Vertex indices, counter-clockwise.
    pub v: [u32; 3],
    /// Neighbour across edge `i` (`v[i] -> v[i+1]`); [`FaceId::OUTSIDE`] at the hull.
    pub adj: [FaceId; 3],
    /// Bit `i` set when edge `i` is a constraint edge (an inflated-piece or bounds edge).
    pub constraint: u8,
    /// Free, one-way or solid.
    pub kind: FaceKind,
    /// Per edge: index of the mesh's list of the source polygons whose inflated edge this
    /// constraint edge lies on (`u32::MAX` for non-constraint edges); read the list with
    /// [`CollisionMesh::edge_sources`] or [`CollisionMesh::edge_sources_at`].
    pub edge_sources: [u32; 3],
}

impl Face {
    /// A slot of the face array that holds no triangle (the outside face 0, or a slot a chunked
    /// mesh freed when it rebuilt a chunk): its three vertices are one.
    pub(crate) const UNUSED: Face = Face {
        v: [0; 3],
        adj: [FaceId::OUTSIDE; 3],
        constraint: 0,
        kind: FaceKind::Solid,
        edge_sources: [u32::MAX; 3],
    };
    /// Whether this slot holds no triangle ([`Face::UNUSED`]).
    #[inline]
    pub(crate) fn is_unused(&self) -> bool {
        self.v[0] == self.v[1]
    }
}

/// A convex inflated piece of a source polygon (kept for the invariant checker, the editor overlay
/// and source lookup).
#[derive(Clone, Debug)]
pub struct InflatedPiece {
    /// The polygon it came from.
    pub source: PolygonId,
    /// Solid or one-way.
    pub kind: Solidity,
    /// Counter-clockwise convex outline (the piece ⊕ −collider).
    pub points: Vec<DVec2>,
    /// Bounding box of `points`.
    pub aabb: Aabb,
}

/// A collision mesh for one collider shape. Built by [`super::build::build_mesh`].
pub struct CollisionMesh {
    pub(crate) collider: Vec<DVec2>,
    pub(crate) vertices: Vec<DVec2>,
    pub(crate) faces: Vec<Face>,
    pub(crate) source_lists: SourceLists,
    pub(crate) pieces: Vec<InflatedPiece>,
    pub(crate) bounds: Aabb,
    /// Bounding box of all vertices: every face lies inside it.
    pub(crate) extent: Aabb,
    pub(crate) one_way_min_normal_y: f64,
    /// Where point location starts its walks (see `locate`).
    pub(crate) seeds: Seeds,
    /// The gates and the faces they make solid.
    pub(crate) gates: Gates,
    /// What a chunked build keeps to rebuild in part (see `chunked`); `None` for a whole build.
    pub(crate) chunking: Option<Box<super::chunked::Chunking>>,
}

/// A face that a gate makes solid while it is closed.
#[derive(Clone, Debug)]
pub(crate) struct GatedFace {
    /// The face.
    pub face: FaceId,
    /// Its kind with every gate open (free or one-way: a face inside a solid piece is solid
    /// whatever the gates do, and is not gated).
    pub open_kind: FaceKind,
    /// The gates (indices into [`Gates::ids`]) whose polygon covers it: it is solid while any of
    /// them is closed.
    pub gates: smallvec::SmallVec<[u32; 2]>,
}

/// The gates of a mesh (pieces of [`Solidity::Gate`](super::Solidity::Gate) polygons): each
/// gate's region was triangulated with the rest of the level, its outline a constraint like any
/// piece's, so opening or closing one only rewrites the kinds of the faces it covers: no re-mesh.
#[derive(Clone, Debug, Default)]
pub(crate) struct Gates {
    /// Each gate's polygon and whether it is closed.
    pub ids: Vec<(PolygonId, bool)>,
    /// The gated faces.
    pub faces: Vec<GatedFace>,
    /// Per gate, indices into `faces` of the faces it covers.
    pub by_gate: Vec<Vec<u32>>,
}

impl Gates {
    /// The gate polygons that are open.
    pub fn open_ids(&self) -> Vec<PolygonId> {
        self.ids.iter().filter(|g| !g.1).map(|g| g.0).collect()
    }
    /// Whether the gate `id` is open (a polygon that is no gate is open).
    pub fn is_open(&self, id: PolygonId) -> bool {
        !self.ids.iter().any(|&(g, closed)| g == id && closed)
    }
}

impl CollisionMesh {
    /// The collider polygon (counter-clockwise, relative to the feet) this mesh was inflated by.
    pub fn collider(&self) -> &[DVec2] {
        &self.collider
    }
    /// Number of faces including the outside face 0.
    pub fn num_faces(&self) -> usize {
        self.faces.len()
    }
    /// All vertices.
    pub fn vertices(&self) -> &[DVec2] {
        &self.vertices
    }
    /// A face record.
    #[inline]
    pub fn face(&self, f: FaceId) -> &Face {
        &self.faces[f.0 as usize]
    }
    /// Opens or closes the gate `id`: the faces its inflated outline covers become solid while it
    /// is closed, and what they would be without it (free or one-way) while it is open, unless
    /// another closed gate covers them. No re-mesh: a face's kind is rewritten, its
    /// triangle and neighbours stay, so bodies keep their faces (a body in a face that became
    /// solid is the caller's to move out). Costs the number of faces the gate covers. Returns
    /// whether this mesh has such a gate.
    pub fn set_gate(&mut self, id: PolygonId, open: bool) -> bool {
        let Some(g) = self.gates.ids.iter().position(|&(d, _)| d == id) else {
            return false;
        };
        self.gates.ids[g].1 = !open;
        for &i in &self.gates.by_gate[g] {
            let gf = &self.gates.faces[i as usize];
            let closed = gf.gates.iter().any(|&h| self.gates.ids[h as usize].1);
            self.faces[gf.face.0 as usize].kind = if closed {
                FaceKind::Solid
            } else {
                gf.open_kind
            };
        }
        true
    }

    /// Whether the gate `id` is open (`true` for a polygon that is no gate of this mesh).
    pub fn gate_open(&self, id: PolygonId) -> bool {
        self.gates.is_open(id)
    }

    /// The faces the gate `id` makes solid while closed (none for a polygon that is no gate).
    pub fn gate_faces(&self, id: PolygonId) -> impl Iterator<Item = FaceId> + '_ {
        let g = self.gates.ids.iter().position(|&(d, _)| d == id);
        g.into_iter().flat_map(move |g| {
            self.gates.by_gate[g]
                .iter()
                .map(move |&i| self.gates.faces[i as usize].face)
        })
    }

    /// The kind of a face.
    #[inline]
    pub fn kind(&self, f: FaceId) -> FaceKind {
        self.faces[f.0 as usize].kind
    }
    /// Iterator over the ids of all bounded faces (a chunked mesh's unused slots left out).
    pub fn face_ids(&self) -> impl Iterator<Item = FaceId> + '_ {
        (1..self.faces.len() as u32)
            .filter(|&f| !self.faces[f as usize].is_unused())
            .map(FaceId)
    }
    /// The face's three corners, counter-clockwise.
    #[inline]
    pub fn triangle(&self, f: FaceId) -> [DVec2; 3] {
        let v = self.faces[f.0 as usize].v;
        [
            self.vertices[v[0] as usize],
            self.vertices[v[1] as usize],
            self.vertices[v[2] as usize],
        ]
    }
    /// The endpoints of a directed edge.
    #[inline]
    pub fn edge_points(&self, e: EdgeRef) -> (DVec2, DVec2) {
        let v = self.faces[e.face.0 as usize].v;
        let i = e.edge as usize;
        (
            self.vertices[v[i] as usize],
            self.vertices[v[(i + 1) % 3] as usize],
        )
    }
    /// Unit normal of an edge pointing into its face (to the edge's left).
    #[inline(always)]
    pub fn edge_normal(&self, e: EdgeRef) -> DVec2 {
        let (a, b) = self.edge_points(e);
        left_normal(a, b)
    }
    /// The same edge seen from the neighbouring face.
    pub fn twin(&self, e: EdgeRef) -> EdgeRef {
        let f = self.face(e.face);
        let g = f.adj[e.edge as usize];
        let a = f.v[e.edge as usize];
        let gv = self.faces[g.0 as usize].v;
        let j = (0..3).find(|&j| gv[(j + 1) % 3] == a).unwrap_or(0);
        EdgeRef {
            face: g,
            edge: j as u8,
        }
    }
    /// Whether the edge is a constraint edge (lies on an inflated piece or the bounds).
    #[inline]
    pub fn is_constraint(&self, e: EdgeRef) -> bool {
        self.faces[e.face.0 as usize].constraint & (1 << e.edge) != 0
    }
    /// Source polygons whose inflated outline this edge lies on at point `p` of it (empty for
    /// non-constraint edges). An edge running straight past several pieces' corners lies on
    /// different outlines along its length; this is the list where `p` is.
    #[inline]
    pub fn edge_sources_at(&self, e: EdgeRef, p: DVec2) -> &[PolygonId] {
        let s = self.faces[e.face.0 as usize].edge_sources[e.edge as usize];
        if s == u32::MAX {
            &[]
        } else {
            self.source_lists.at(s, p)
        }
    }
    /// Source polygons whose inflated outline this edge lies on anywhere along it (empty for
    /// non-constraint edges); [`Self::edge_sources_at`] says which at a given point.
    pub fn edge_sources(&self, e: EdgeRef) -> &[PolygonId] {
        let s = self.faces[e.face.0 as usize].edge_sources[e.edge as usize];
        if s == u32::MAX {
            &[]
        } else {
            self.source_lists.get(s)
        }
    }
    /// Source polygons whose inflated pieces contain a solid or one-way face's centroid (see
    /// [`Self::sources_at`]; empty for free faces). Regions merge across edges buried in solid
    /// pieces, so a solid face may lie partly in one piece and partly in another.
    pub fn face_sources(&self, f: FaceId) -> Vec<PolygonId> {
        if self.kind(f) == FaceKind::Free {
            return Vec::new();
        }
        if f == FaceId::OUTSIDE {
            return vec![PolygonId::BOUNDS];
        }
        let [a, b, c] = self.triangle(f);
        self.sources_at((a + b + c) / 3.0)
    }
    /// Source polygons whose inflated pieces strictly contain `p`, sorted, with
    /// [`PolygonId::BOUNDS`] outside the level bounds (a scan of the pieces: for the editor and
    /// tools, not per-tick code).
    pub fn sources_at(&self, p: DVec2) -> Vec<PolygonId> {
        let mut out: Vec<PolygonId> = self
            .pieces
            .iter()
            .filter(|q| q.aabb.contains(p) && strictly_inside(&q.points, p))
            .map(|q| q.source)
            .collect();
        if !self.bounds.contains_strictly(p) {
            out.push(PolygonId::BOUNDS);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
    /// The inflated convex pieces this mesh was built from.
    pub fn pieces(&self) -> &[InflatedPiece] {
        &self.pieces
    }
    /// The level bounds: faces outside are solid.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }
    /// Whether `e` is a one-way top edge: the neighbour is one-way, the face is free, and the edge's
    /// normal (pointing into the free face) is at least `one_way_min_normal_y` upward.
    #[inline]
    pub fn is_one_way_top(&self, e: EdgeRef) -> bool {
        let f = self.face(e.face);
        f.kind == FaceKind::Free
            && self.kind(f.adj[e.edge as usize]) == FaceKind::OneWay
            && self.edge_normal(e).y >= self.one_way_min_normal_y
    }
    /// Approximate heap memory of the mesh in bytes (flat arrays, pieces, the seed grid).
    pub fn memory_bytes(&self) -> usize {
        self.memory_parts().iter().map(|(_, b)| b).sum()
    }
    /// [`Self::memory_bytes`] by part: the vertex and face arrays the walk reads, the source
    /// lists, the inflated pieces and point location's seed grid.
    pub fn memory_parts(&self) -> [(&'static str, usize); 5] {
        use std::mem::size_of;
        [
            ("vertices", self.vertices.capacity() * size_of::<DVec2>()),
            ("faces", self.faces.capacity() * size_of::<Face>()),
            ("source lists", self.source_lists.memory_bytes()),
            (
                "pieces",
                self.pieces
                    .iter()
                    .map(|p| size_of::<InflatedPiece>() + p.points.capacity() * 16)
                    .sum::<usize>(),
            ),
            ("seed grid", self.seeds.memory_bytes()),
        ]
    }
}
