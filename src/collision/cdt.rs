//! The constrained Delaunay triangulation, built directly in the mesh's flat face array.
//!
//! # What it owns
//! Turning the build's kept vertices (the frame's four corners first, then the rest in Z-order)
//! and its planar constraint segments into the [`Face`] array the mesh keeps: vertices, the
//! neighbour across each edge, the constraint bit and each constraint edge's source list. Face 0
//! is the unbounded outside. It knows nothing of pieces, kinds or regions ([`super::build`]
//! classifies the faces afterwards) and must never depend on the walk or on spade.
//!
//! # Why not spade
//! Spade's DCEL (four indices per half-edge, an entry per vertex and face) took 183 of the 379 MiB
//! one build of 200 000 squares held at its peak, and the faces were then copied out of it. Here
//! the triangulation *is* the face array: 40 bytes a triangle, reserved once at its exact final
//! size (`2n − 5` faces for `n` vertices inside a four-corner hull, the outside included), plus a
//! face per vertex while constraints are inserted.
//!
//! # The algorithm
//! 1. **Delaunay.** The frame's two triangles, then every vertex inserted in order: located by a
//!    visibility walk from the last triangle made (the Z-order keeps walks short; the walk
//!    terminates on any Delaunay triangulation, and a step limit falls back to a scan), the
//!    triangle split in three (or the two triangles beside an edge the vertex lies on in four),
//!    and Lawson's flips restore the empty-circle property. Every decision is an exact predicate
//!    (`robust`'s `orient2d` and `incircle`); cocircular points are not flipped, so ties keep
//!    the first triangulation found.
//! 2. **Constraints.** Segments that are already edges (most of them: 87 % on the tile bench
//!    level) are found in one sequential scan of the faces. Each missing segment is inserted by
//!    walking from its first vertex through the triangles it crosses, collecting the crossed
//!    edges, and flipping them away (Sloan, "A fast algorithm for generating constrained
//!    Delaunay triangulations", 1993): a crossed edge whose quadrilateral is convex is flipped,
//!    and its new diagonal goes back in the queue while it still crosses; then the new edges are
//!    flipped until each is locally Delaunay or a constraint. Only crossed edges are ever
//!    flipped, so a constraint edge that hangs into the crossed triangles from one side (a
//!    segment with a free end, which the cavity-retriangulation method has to special-case)
//!    stays as it is. A vertex lying exactly on a segment splits it there; a segment crossing a
//!    constraint edge is a conflict, counted and reported by the caller (the splitting stage
//!    makes the segments planar, so there are none).
//!
//! The result is the constrained Delaunay triangulation of the segments, up to ties between
//! cocircular points (a unit lattice has many; spade broke them its own way).
use glam::DVec2;

use super::buckets::Buckets;
use super::mesh::{Face, FaceId, FaceKind};
use super::predicates::orient;

/// Why a triangulation failed (a bug or input the build should have refused).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CdtError {
    /// Two vertices are equal, or a vertex lies outside the frame.
    BadVertex(u32),
}

const NONE: u32 = u32::MAX;

/// A triangulation under construction: the vertices and the face array it fills.
pub(crate) struct Cdt<'a> {
    verts: &'a [DVec2],
    faces: Vec<Face>,
    /// Per vertex, one face that has it as a corner (constraint insertion starts there).
    vface: Vec<u32>,
    /// Legalisation stack: (face, edge) pairs to check.
    stack: Vec<(u32, u8)>,
    /// Counter that varies the first edge a walk step tests.
    turn: usize,
}

fn blank() -> Face {
    Face {
        v: [0; 3],
        adj: [FaceId::OUTSIDE; 3],
        constraint: 0,
        kind: FaceKind::Solid,
        edge_sources: [NONE; 3],
    }
}

fn incircle(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    let k = |p: DVec2| robust::Coord { x: p.x, y: p.y };
    robust::incircle(k(a), k(b), k(c), k(d))
}

#[inline]
fn nx(i: usize) -> usize {
    if i == 2 {
        0
    } else {
        i + 1
    }
}

#[inline]
fn pv(i: usize) -> usize {
    if i == 0 {
        2
    } else {
        i - 1
    }
}

/// A triangle with its neighbours and no constraint edge.
fn tri(v: [u32; 3], adj: [u32; 3]) -> Face {
    Face {
        v,
        adj: adj.map(FaceId),
        ..blank()
    }
}

/// The local index of corner `v` of `face`.
#[inline]
fn corner(face: &Face, v: u32) -> Option<usize> {
    (0..3).find(|&i| face.v[i] == v)
}

/// Triangulates `verts` (the first four the corners of a rectangle containing every other vertex
/// strictly inside, all distinct) with every segment `[a, b, list]` of `segments` (planar: they
/// meet only at common ends) an edge carrying `list`. Returns the faces (face 0 the outside) and
/// how many segments conflicted with others.
pub(crate) fn triangulate(
    verts: &[DVec2],
    segments: Vec<[u32; 3]>,
) -> Result<(Vec<Face>, usize), CdtError> {
    let n = verts.len();
    // The segments by their lower vertex, `(upper vertex, list)`, before the faces are
    // allocated, in place of the segment list (a build's peak is the faces beside these).
    let by_low = Buckets::new(n, || {
        segments
            .iter()
            .map(|&[a, b, list]| (a.min(b) as usize, (a.max(b), list)))
    });
    drop(segments);
    let mut t = Cdt {
        verts,
        faces: Vec::with_capacity((2 * n).saturating_sub(5).max(3)),
        vface: vec![NONE; n],
        stack: Vec::new(),
        turn: 0,
    };
    t.start()?;
    let mut last = 1u32;
    for p in 4..n as u32 {
        last = t.insert(p, last)?;
    }
    drop(std::mem::take(&mut t.stack));
    let conflicts = t.constrain(&by_low);
    Ok((t.faces, conflicts))
}

impl Cdt<'_> {
    #[inline]
    fn pt(&self, v: u32) -> DVec2 {
        self.verts[v as usize]
    }

    /// The frame's two triangles.
    fn start(&mut self) -> Result<(), CdtError> {
        if self.verts.len() < 4 {
            return Err(CdtError::BadVertex(self.verts.len() as u32));
        }
        let mut c = [0u32, 1, 2, 3];
        if orient(self.pt(0), self.pt(1), self.pt(2)) < 0.0 {
            c = [0, 3, 2, 1];
        }
        let [a, b, cc, d] = c;
        if orient(self.pt(a), self.pt(b), self.pt(cc)) <= 0.0
            || orient(self.pt(a), self.pt(cc), self.pt(d)) <= 0.0
        {
            return Err(CdtError::BadVertex(0));
        }
        self.faces.push(blank());
        // Face 1 (a, b, c), face 2 (a, c, d); they share a→c / c→a.
        self.faces.push(tri([a, b, cc], [0, 0, 2]));
        self.faces.push(tri([a, cc, d], [1, 0, 0]));
        Ok(())
    }

    /// Sets `g`'s neighbour across its edge `v → u` to `f` (nothing for the outside).
    fn relink(&mut self, g: u32, u: u32, v: u32, f: u32) {
        if g == 0 {
            return;
        }
        let face = &mut self.faces[g as usize];
        match corner(face, v).filter(|&i| face.v[nx(i)] == u) {
            Some(i) => face.adj[i] = FaceId(f),
            None => debug_assert!(false, "face {g} has no edge {v}→{u}"),
        }
    }

    /// Where `p` lies against face `f`'s edges, testing from edge `first` on: `Err(e)` for the
    /// first edge it lies strictly beyond, else a bit per edge it lies on.
    fn sides(&self, f: u32, p: DVec2, first: usize) -> Result<u8, usize> {
        let face = &self.faces[f as usize];
        let mut on = 0u8;
        for k in 0..3 {
            let e = (k + first) % 3;
            let o = orient(self.pt(face.v[e]), self.pt(face.v[nx(e)]), p);
            if o < 0.0 {
                return Err(e);
            }
            if o == 0.0 {
                on |= 1 << e;
            }
        }
        Ok(on)
    }

    /// The face containing point `p` (walking from `start`), and a bit per edge `p` lies on.
    fn locate(&mut self, p: DVec2, start: u32) -> Option<(u32, u8)> {
        let mut f = start;
        for _ in 0..64 + 4 * self.faces.len() {
            self.turn = self.turn.wrapping_add(1);
            match self.sides(f, p, self.turn % 3) {
                Ok(on) => return Some((f, on)),
                Err(e) => match self.faces[f as usize].adj[e].0 {
                    0 => return None,
                    g => f = g,
                },
            }
        }
        // Not expected on a Delaunay triangulation: an exact scan.
        (1..self.faces.len() as u32).find_map(|f| self.sides(f, p, 0).ok().map(|on| (f, on)))
    }

    /// Inserts vertex `p`; returns a face that has it.
    fn insert(&mut self, p: u32, start: u32) -> Result<u32, CdtError> {
        let (f, on) = self
            .locate(self.pt(p), start)
            .ok_or(CdtError::BadVertex(p))?;
        match on.count_ones() {
            0 => self.split3(f, p),
            1 => self.split_edge(f, on.trailing_zeros() as usize, p),
            _ => return Err(CdtError::BadVertex(p)),
        }
        self.legalize();
        Ok(self.faces.len() as u32 - 1)
    }

    /// Splits face `f` in three at `p` (inside it).
    fn split3(&mut self, f: u32, p: u32) {
        let Face {
            v: [a, b, c], adj, ..
        } = self.faces[f as usize];
        let [na, nb, nc] = adj.map(|g| g.0);
        let f1 = self.faces.len() as u32;
        let f2 = f1 + 1;
        self.faces[f as usize] = tri([a, b, p], [na, f1, f2]);
        self.faces.push(tri([b, c, p], [nb, f2, f]));
        self.faces.push(tri([c, a, p], [nc, f, f1]));
        self.relink(nb, b, c, f1);
        self.relink(nc, c, a, f2);
        self.stack.extend([(f, 0), (f1, 0), (f2, 0)]);
    }

    /// Splits the edge `e` of face `f` (and the face beyond it) at `p`, which lies on it.
    fn split_edge(&mut self, f: u32, e: usize, p: u32) {
        let face = self.faces[f as usize];
        let (a, b, c) = (face.v[e], face.v[nx(e)], face.v[pv(e)]);
        let beyond = self.across(f, e);
        let g = beyond.map_or(0, |(g, _, _)| g);
        let (n_bc, n_ca) = (face.adj[nx(e)].0, face.adj[pv(e)].0);
        let t2 = self.faces.len() as u32;
        self.faces[f as usize] = tri([a, p, c], [g, t2, n_ca]);
        self.faces.push(tri([p, b, c], [0, n_bc, f]));
        self.relink(n_bc, b, c, t2);
        self.stack.extend([(f, 2), (t2, 1)]);
        let Some((g, k, d)) = beyond else {
            return;
        };
        let gf = self.faces[g as usize];
        let (n_ad, n_db) = (gf.adj[nx(k)].0, gf.adj[pv(k)].0);
        let g2 = t2 + 1;
        // G1 (p, a, d) in g's slot, G2 (b, p, d) new.
        self.faces[g as usize] = tri([p, a, d], [f, n_ad, g2]);
        self.faces.push(tri([b, p, d], [t2, g, n_db]));
        self.faces[t2 as usize].adj[0] = FaceId(g2);
        self.relink(n_db, d, b, g2);
        self.stack.extend([(g, 1), (g2, 2)]);
    }

    /// Lawson's flips for the edges on the stack (each opposite the vertex just inserted, which
    /// is the face's corner after the edge).
    fn legalize(&mut self) {
        while let Some((f, e)) = self.stack.pop() {
            if let Some(g) = self.flip_if_not_delaunay(f, e as usize) {
                self.stack.extend([(f, 1), (g, 1)]);
            }
        }
    }

    /// The face beyond edge `e` of face `f`, the edge's local index there, and that face's
    /// corner opposite it (`None` at the hull).
    fn across(&self, f: u32, e: usize) -> Option<(u32, usize, u32)> {
        let face = &self.faces[f as usize];
        let g = face.adj[e].0;
        if g == 0 {
            return None;
        }
        let gf = &self.faces[g as usize];
        let k = corner(gf, face.v[nx(e)])?;
        Some((g, k, gf.v[pv(k)]))
    }

    /// Flips edge `e` of face `f` when it is no constraint edge and the corner beyond lies
    /// strictly inside `f`'s circumcircle; returns the face beyond (see [`Self::flip`] for
    /// where the edges go).
    fn flip_if_not_delaunay(&mut self, f: u32, e: usize) -> Option<u32> {
        let face = self.faces[f as usize];
        if face.constraint & (1 << e) != 0 {
            return None;
        }
        let (g, _, d) = self.across(f, e)?;
        let [x, y, z] = face.v.map(|w| self.pt(w));
        if incircle(x, y, z, self.pt(d)) <= 0.0 {
            return None;
        }
        self.flip(f, e);
        Some(g)
    }

    /// Flips edge `e` of face `f` (`a → b` with corner `p`; the face beyond, `g`, has `b → a`
    /// and corner `d`): `f` becomes `(p, a, d)` and `g` becomes `(p, d, b)`, so the new
    /// diagonal is `f`'s edge 2 and `g`'s edge 0, and each edge opposite `p` is edge 1. The
    /// four outer edges keep their neighbours and constraint data.
    fn flip(&mut self, f: u32, e: usize) {
        let face = self.faces[f as usize];
        let (a, b, p) = (face.v[e], face.v[nx(e)], face.v[pv(e)]);
        let Some((g, k, d)) = self.across(f, e) else {
            return;
        };
        let gf = self.faces[g as usize];
        let data = |x: &Face, i: usize| (x.adj[i], x.constraint >> i & 1, x.edge_sources[i]);
        // f's edges b→p and p→a; g's edges a→d and d→b.
        let (bp, pa) = (data(&face, nx(e)), data(&face, pv(e)));
        let (ad, db) = (data(&gf, nx(k)), data(&gf, pv(k)));
        // f = (p, a, d): p→a, a→d, d→p (the new diagonal, to g).
        self.faces[f as usize] = Face {
            v: [p, a, d],
            adj: [pa.0, ad.0, FaceId(g)],
            constraint: pa.1 | ad.1 << 1,
            edge_sources: [pa.2, ad.2, NONE],
            ..blank()
        };
        // g = (p, d, b): p→d (the diagonal, to f), d→b, b→p.
        self.faces[g as usize] = Face {
            v: [p, d, b],
            adj: [FaceId(f), db.0, bp.0],
            constraint: db.1 << 1 | bp.1 << 2,
            edge_sources: [NONE, db.2, bp.2],
            ..blank()
        };
        self.relink(ad.0 .0, a, d, f);
        self.relink(bp.0 .0, b, p, g);
        for (v, h) in [(a, f), (p, f), (d, f), (b, g)] {
            self.vface[v as usize] = h;
        }
    }

    /// Makes every segment an edge carrying its list; returns how many conflicted.
    fn constrain(&mut self, by_low: &Buckets<(u32, u32)>) -> usize {
        for (f, face) in self.faces.iter().enumerate().skip(1) {
            for v in face.v {
                self.vface[v as usize] = f as u32;
            }
        }
        let mut found = vec![false; by_low.items().len()];
        for face in self.faces.iter_mut().skip(1) {
            for i in 0..3 {
                let (u, v) = (face.v[i], face.v[nx(i)]);
                let (lo, hi) = (u.min(v), u.max(v));
                let range = by_low.range(lo as usize);
                let at = by_low.items()[range.clone()].iter().position(|e| e.0 == hi);
                if let Some(at) = at {
                    found[range.start + at] = true;
                    face.constraint |= 1 << i;
                    face.edge_sources[i] = by_low.items()[range.start + at].1;
                }
            }
        }
        // The missing segments, by lower vertex (for locality, and a fixed order).
        let mut missing: Vec<[u32; 3]> = Vec::new();
        for lo in 0..self.verts.len() {
            for k in by_low.range(lo) {
                if !found[k] {
                    let (hi, list) = by_low.items()[k];
                    missing.push([lo as u32, hi, list]);
                }
            }
        }
        drop(found);
        let mut conflicts = 0;
        for [a, b, list] in missing {
            if let Err(why) = self.insert_segment(a, b, list) {
                log::debug!(
                    "constraint {a}-{b} ({:?} to {:?}) not inserted: {why}",
                    self.pt(a),
                    self.pt(b)
                );
                conflicts += 1;
            }
        }
        conflicts
    }

    /// Marks edge `i` of face `f` and its twin as a constraint edge with `list`.
    fn mark(&mut self, f: u32, i: usize, list: u32) {
        let face = &mut self.faces[f as usize];
        face.constraint |= 1 << i;
        face.edge_sources[i] = list;
        if let Some((g, j, _)) = self.across(f, i) {
            let gf = &mut self.faces[g as usize];
            gf.constraint |= 1 << j;
            gf.edge_sources[j] = list;
        }
    }

    /// Makes `a b` an edge (or a chain of edges through vertices on it) carrying `list`.
    fn insert_segment(&mut self, mut a: u32, b: u32, list: u32) -> Result<(), &'static str> {
        let pb = self.pt(b);
        // Each round ends at a vertex on the segment, `b` at last.
        for _ in 0..self.verts.len() {
            if a == b {
                return Ok(());
            }
            let pa = self.pt(a);
            match self.leave(a, pb)? {
                Leave::Edge(f, i, to) => {
                    self.mark(f, i, list);
                    a = to;
                }
                Leave::Through(f, i) => {
                    a = self.dig(a, b, f, i, list)?;
                }
            }
            debug_assert!(self.pt(a) != pa);
        }
        Err("rounds")
    }

    /// Calls `visit` with each face around vertex `a` and `a`'s index in it, counter-clockwise
    /// from the face `vface` records (across the edge entering `a`), then clockwise from it when
    /// the hull stops the turn; returns the first answer.
    fn around<R>(&self, a: u32, mut visit: impl FnMut(u32, usize) -> Option<R>) -> Option<R> {
        let start = self.vface[a as usize];
        let (mut f, mut ccw) = (start, true);
        for _ in 0..self.faces.len() + 2 {
            let face = &self.faces[f as usize];
            let i = corner(face, a)?;
            if let Some(r) = visit(f, i) {
                return Some(r);
            }
            let g = if ccw {
                face.adj[pv(i)].0
            } else {
                face.adj[i].0
            };
            match g {
                0 if ccw => {
                    ccw = false;
                    let s = &self.faces[start as usize];
                    f = match s.adj[corner(s, a)?].0 {
                        0 => return None,
                        g => g,
                    };
                }
                0 => return None,
                g if g == start => return None,
                g => f = g,
            }
        }
        None
    }

    /// How the segment from `a` toward `pb` leaves `a`: along an edge (to a vertex on the
    /// segment, `b` itself or one before it), or through the interior of a face.
    fn leave(&self, a: u32, pb: DVec2) -> Result<Leave, &'static str> {
        let pa = self.pt(a);
        let ahead = |q: DVec2| (q - pa).dot(pb - pa) > 0.0;
        self.around(a, |f, i| {
            let face = &self.faces[f as usize];
            let (c, d) = (face.v[nx(i)], face.v[pv(i)]);
            let (pc, pd) = (self.pt(c), self.pt(d));
            let (oc, od) = (orient(pa, pc, pb), orient(pa, pd, pb));
            if oc == 0.0 && ahead(pc) {
                Some(Leave::Edge(f, i, c))
            } else if od == 0.0 && ahead(pd) {
                Some(Leave::Edge(f, pv(i), d))
            } else if oc > 0.0 && od < 0.0 {
                Some(Leave::Through(f, nx(i)))
            } else {
                None
            }
        })
        .ok_or("no face around the vertex holds the segment")
    }

    /// Inserts the part of segment `a → b` that starts through edge `i` of face `f` (whose
    /// right end is below the segment, left end above) and ends at `b` or at the first vertex
    /// exactly on the segment, by Sloan's flips: every edge the part crosses is flipped once its
    /// quadrilateral is convex (a new diagonal that still crosses goes back in the queue), then
    /// the new edges are flipped until they are constrained Delaunay. Edges the part does not
    /// cross are never touched (a constraint edge hanging into the crossed triangles from one
    /// side stays). Returns where the part ended.
    fn dig(&mut self, a: u32, b: u32, f: u32, i: usize, list: u32) -> Result<u32, &'static str> {
        let (pa, pb) = (self.pt(a), self.pt(b));
        let mut crossed: std::collections::VecDeque<([u32; 2], u32)> = Default::default();
        let mut edge = (f, i);
        let end = loop {
            let cur = self.faces[edge.0 as usize];
            if cur.constraint & (1 << edge.1) != 0 {
                return Err("crosses constraint");
            }
            let (right, left) = (cur.v[edge.1], cur.v[nx(edge.1)]);
            crossed.push_back(([right, left], edge.0));
            let g = cur.adj[edge.1].0;
            if g == 0 || crossed.len() > self.faces.len() {
                return Err("outside or long");
            }
            // g = (left, right, e).
            let (_, k, e) = self.across(edge.0, edge.1).ok_or("left vertex")?;
            if e == b {
                break b;
            }
            let o = orient(pa, pb, self.pt(e));
            if o == 0.0 {
                break e;
            }
            edge = if o > 0.0 { (g, nx(k)) } else { (g, pv(k)) };
        };
        let pe = self.pt(end);
        let crosses = |p: DVec2, q: DVec2| {
            let (op, oq) = (orient(pa, pe, p), orient(pa, pe, q));
            (op > 0.0 && oq < 0.0) || (op < 0.0 && oq > 0.0)
        };
        let mut fresh: Vec<([u32; 2], u32)> = Vec::new();
        let mut stalls = 0usize;
        while let Some(([u, v], hint)) = crossed.pop_front() {
            let (f, e) = self.edge_near(u, v, hint).ok_or("find crossed")?;
            let p = self.faces[f as usize].v[pv(e)];
            let (_, _, q) = self.across(f, e).ok_or("twin corner")?;
            let (pp, pq) = (self.pt(p), self.pt(q));
            let (ou, ov) = (orient(pp, pq, self.pt(u)), orient(pp, pq, self.pt(v)));
            let convex = (ou > 0.0 && ov < 0.0) || (ou < 0.0 && ov > 0.0);
            if !convex {
                // Some edge in the queue is always flippable (Sloan): a whole pass without a
                // flip is a bug, not slowness.
                stalls += 1;
                if stalls > crossed.len() + 1 {
                    return Err("stalled");
                }
                crossed.push_back(([u, v], f));
                continue;
            }
            stalls = 0;
            self.flip(f, e);
            if crosses(pp, pq) {
                crossed.push_back(([p, q], f));
            } else {
                fresh.push(([p, q], f));
            }
        }
        // The part is an edge now: mark it.
        let (f, e) = self.find_edge(a, end).ok_or("segment edge")?;
        self.mark(f, e, list);
        // Restore the constrained Delaunay property around the new edges (Lawson's flips end;
        // the bound on rounds only guards against a bug, and leaves a valid triangulation).
        let mut changed = true;
        let mut rounds = 0usize;
        while changed && rounds <= 4 * fresh.len() + 64 {
            changed = false;
            rounds += 1;
            for edge in fresh.iter_mut() {
                let ([u, v], hint) = *edge;
                let Some((f, e)) = self.edge_near(u, v, hint) else {
                    continue;
                };
                if self.flip_if_not_delaunay(f, e).is_some() {
                    // The new diagonal is `f`'s edge 2.
                    let v = self.faces[f as usize].v;
                    *edge = ([v[2], v[0]], f);
                    changed = true;
                }
            }
        }
        Ok(end)
    }

    /// The edge `u → v` (or `v → u`) found in face `hint` or a neighbour of it, else by
    /// [`Self::find_edge`]. A queued edge remembers the face it was last seen in: a flip rewrites
    /// only the two faces it joins, so the edge is still there or across the new diagonal, and
    /// the search does not turn around a vertex that thousands of long triangles share (the
    /// frame's corners, the ends of a long floor).
    fn edge_near(&self, u: u32, v: u32, hint: u32) -> Option<(u32, usize)> {
        let has = |f: u32| {
            let face = &self.faces[f as usize];
            (0..3).find_map(|i| {
                let (x, y) = (face.v[i], face.v[nx(i)]);
                ((x == u && y == v) || (x == v && y == u)).then_some((f, i))
            })
        };
        if hint != 0 {
            if let Some(found) = has(hint) {
                return Some(found);
            }
            for g in self.faces[hint as usize].adj {
                if g.0 != 0 {
                    if let Some(found) = has(g.0) {
                        return Some(found);
                    }
                }
            }
        }
        self.find_edge(u, v)
    }

    /// The face and local index of the directed edge `u → v`, or of `v → u` when `u → v` is on
    /// the hull.
    fn find_edge(&self, u: u32, v: u32) -> Option<(u32, usize)> {
        let mut back = None;
        self.around(u, |f, i| {
            let face = &self.faces[f as usize];
            if face.v[pv(i)] == v {
                back = Some((f, pv(i)));
            }
            (face.v[nx(i)] == v).then_some((f, i))
        })
        .or(back)
    }
}

/// How a segment leaves its first vertex.
enum Leave {
    /// Along edge `i` of face `f`, to the vertex on the segment at its other end.
    Edge(u32, usize, u32),
    /// Into face `f` through its edge `i` (the edge opposite the vertex).
    Through(u32, usize),
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use glam::DVec2;
    use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

    use super::*;

    /// Whether segments `a b` and `c d` share a point other than a common endpoint, or one has
    /// an endpoint on the other's interior (exact).
    fn interiors_meet(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
        let within = |p: DVec2, q: DVec2, r: DVec2| {
            r != p && r != q && orient(p, q, r) == 0.0 && {
                let (lo, hi) = (p.min(q), p.max(q));
                r.x >= lo.x && r.x <= hi.x && r.y >= lo.y && r.y <= hi.y
            }
        };
        if within(a, b, c) || within(a, b, d) || within(c, d, a) || within(c, d, b) {
            return true;
        }
        let (o1, o2) = (orient(a, b, c), orient(a, b, d));
        let (o3, o4) = (orient(c, d, a), orient(c, d, b));
        o1 * o2 < 0.0 && o3 * o4 < 0.0
    }

    /// Random distinct points inside the frame (the frame's corners first) and a greedy set of
    /// planar segments between them that pass through no other point.
    fn instance(seed: u64, lattice: bool, n: usize) -> (Vec<DVec2>, Vec<[u32; 3]>) {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut points: Vec<DVec2> = vec![
            DVec2::new(-1.0, -1.0),
            DVec2::new(101.0, -1.0),
            DVec2::new(101.0, 101.0),
            DVec2::new(-1.0, 101.0),
        ];
        // The lattice has 144 points.
        let n = if lattice { n.min(120) } else { n };
        while points.len() < n + 4 {
            let p = if lattice {
                DVec2::new((next() % 12) as f64 * 0.6, (next() % 12) as f64 * 0.4)
            } else {
                DVec2::new(
                    (next() % 1_000_000) as f64 * 1e-4,
                    (next() % 1_000_000) as f64 * 1e-4,
                )
            };
            if !points.contains(&p) {
                points.push(p);
            }
        }
        let m = points.len() as u64;
        let mut segs: Vec<[u32; 3]> = Vec::new();
        for _ in 0..4 * n {
            let (a, b) = (4 + (next() % (m - 4)) as u32, 4 + (next() % (m - 4)) as u32);
            if a == b
                || segs
                    .iter()
                    .any(|s| (s[0], s[1]) == (a, b) || (s[0], s[1]) == (b, a))
            {
                continue;
            }
            let (pa, pb) = (points[a as usize], points[b as usize]);
            let clear = points.iter().all(|&p| {
                p == pa || p == pb || orient(pa, pb, p) != 0.0 || {
                    let (lo, hi) = (pa.min(pb), pa.max(pb));
                    !(p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y)
                }
            });
            let planar = segs.iter().all(|s| {
                let (c, d) = (points[s[0] as usize], points[s[1] as usize]);
                !interiors_meet(pa, pb, c, d)
            });
            if clear && planar {
                segs.push([a, b, 1000 + segs.len() as u32]);
            }
        }
        (points, segs)
    }

    /// The mesh's faces as a triangulation: counter-clockwise, symmetric, complete; returns the
    /// undirected edges with their lists.
    fn check(points: &[DVec2], faces: &[Face]) -> BTreeMap<[u32; 2], u32> {
        assert_eq!(faces.len(), 2 * points.len() - 5, "face count");
        let mut edges = BTreeMap::new();
        for (f, face) in faces.iter().enumerate().skip(1) {
            let [a, b, c] = face.v.map(|v| points[v as usize]);
            assert!(orient(a, b, c) > 0.0, "face {f} is not counter-clockwise");
            for i in 0..3 {
                let (u, v) = (face.v[i], face.v[nx(i)]);
                let g = face.adj[i].0 as usize;
                let has_list = face.edge_sources[i] != NONE;
                assert_eq!(face.constraint & (1 << i) != 0, has_list);
                if g != 0 {
                    let j = (0..3)
                        .find(|&j| faces[g].v[j] == v && faces[g].v[nx(j)] == u)
                        .expect("symmetric adjacency");
                    assert_eq!(faces[g].adj[j].0 as usize, f);
                    assert_eq!(faces[g].edge_sources[j], face.edge_sources[i]);
                    if !has_list {
                        // Constrained Delaunay: the corner beyond is not inside the circle.
                        let d = points[faces[g].v[pv(j)] as usize];
                        assert!(
                            incircle(a, b, c, d) <= 0.0,
                            "face {f} edge {i} not Delaunay"
                        );
                    }
                }
                edges.insert([u.min(v), u.max(v)], face.edge_sources[i]);
            }
        }
        edges
    }

    proptest::proptest! {
        #![proptest_config(crate::test_seed::proptest_config(64, 0xc0a5_7a1d))]
        /// On planar segment sets of every kind (long ones far from Delaunay, points on a
        /// lattice, where ties are everywhere): the faces are a triangulation with the
        /// constrained Delaunay property, every segment is an edge carrying its list, no other
        /// edge carries one, and no segment conflicts. Off the lattice (no cocircular points),
        /// the edges are exactly those of spade's constrained Delaunay triangulation.
        #[test]
        fn every_planar_segment_becomes_an_edge_with_its_list(
            seed in 0u64..u64::MAX,
            lattice in proptest::bool::ANY,
            n in 8usize..160,
        ) {
            let (points, segs) = instance(seed, lattice, n);
            let (faces, conflicts) = triangulate(&points, segs.clone()).unwrap();
            proptest::prop_assert_eq!(conflicts, 0);
            let edges = check(&points, &faces);
            for &[a, b, list] in &segs {
                proptest::prop_assert_eq!(edges.get(&[a.min(b), a.max(b)]), Some(&list));
            }
            let with_list = edges.values().filter(|&&l| l != NONE).count();
            proptest::prop_assert_eq!(with_list, segs.len());
            if !lattice {
                let verts: Vec<Point2<f64>> =
                    points.iter().map(|p| Point2::new(p.x, p.y)).collect();
                let mut cdt: ConstrainedDelaunayTriangulation<Point2<f64>> =
                    ConstrainedDelaunayTriangulation::bulk_load_cdt(verts, Vec::new()).unwrap();
                for &[a, b, _] in &segs {
                    cdt.add_constraint(
                        spade::handles::FixedVertexHandle::from_index(a as usize),
                        spade::handles::FixedVertexHandle::from_index(b as usize),
                    );
                }
                let theirs: BTreeSet<[u32; 2]> = cdt
                    .undirected_edges()
                    .map(|e| {
                        let [u, v] = e.vertices().map(|v| v.fix().index() as u32);
                        [u.min(v), u.max(v)]
                    })
                    .collect();
                let ours: BTreeSet<[u32; 2]> = edges.keys().copied().collect();
                proptest::prop_assert_eq!(ours, theirs);
            }
        }

        /// A segment through other vertices becomes the chain of edges between them, each with
        /// the segment's list.
        #[test]
        fn a_segment_through_vertices_is_split_there(seed in 0u64..u64::MAX, n in 8usize..100) {
            let (mut points, _) = instance(seed, true, n);
            // A row of lattice points on one line, and a segment along all of it.
            points.truncate(4);
            for k in 0..n {
                points.push(DVec2::new(k as f64 * 0.5 + 1.0, (k % 7) as f64 * 3.0 + 10.0));
            }
            let row: Vec<u32> = (0..6u32).map(|k| {
                points.push(DVec2::new(2.25 + k as f64 * 7.0, 50.0 + k as f64 * 2.0));
                points.len() as u32 - 1
            }).collect();
            let segs = vec![[row[0], row[5], 7]];
            let (faces, conflicts) = triangulate(&points, segs.clone()).unwrap();
            proptest::prop_assert_eq!(conflicts, 0);
            let edges = check(&points, &faces);
            for w in row.windows(2) {
                proptest::prop_assert_eq!(edges.get(&[w[0].min(w[1]), w[0].max(w[1])]), Some(&7));
            }
        }
    }

    #[test]
    fn crossing_segments_conflict_and_repeated_vertices_are_refused() {
        let mut points = vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(10.0, 0.0),
            DVec2::new(10.0, 10.0),
            DVec2::new(0.0, 10.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(9.0, 9.0),
            DVec2::new(1.0, 9.0),
            DVec2::new(9.0, 1.0),
        ];
        let (_, conflicts) = triangulate(&points, vec![[4, 5, 0], [6, 7, 1]]).unwrap();
        assert_eq!(conflicts, 1);
        points.push(DVec2::new(1.0, 1.0));
        assert!(triangulate(&points, vec![]).is_err());
        points.pop();
        points.push(DVec2::new(11.0, 1.0));
        assert!(triangulate(&points, vec![]).is_err());
    }
}
