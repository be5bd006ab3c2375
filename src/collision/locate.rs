//! Point location: which face contains a point, and the nearest free point to a blocked one.
use glam::DVec2;
use spade::{PositionInTriangulation, Triangulation};

use super::mesh::{CollisionMesh, EdgeRef, FaceId, FaceKind};
use super::predicates::closest_on_segment;
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

impl CollisionMesh {
    /// Locates `p` (spade's walk from the hint face's first vertex). On an edge or a vertex the
    /// least blocked of the touching faces is chosen, so a point on a wall is free.
    pub fn locate(&self, p: DVec2, hint: Option<FaceId>) -> Location {
        // Outside every vertex's box is outside the triangulation; checking first also keeps
        // spade's walk away from huge coordinates (its predicates overflow near 1e300).
        if !p.is_finite() || !self.extent.contains(p) {
            return Location::Outside;
        }
        let pt = spade::Point2::new(p.x, p.y);
        let hint_v = hint
            .filter(|h| h.0 != 0 && (h.0 as usize) < self.faces.len())
            .map(|h| spade::handles::FixedVertexHandle::from_index(self.face(h).v[0] as usize));
        let pos = match hint_v {
            Some(v) => self.cdt.locate_with_hint(pt, v),
            None => self.cdt.locate(pt),
        };
        let candidates: Vec<FaceId> = match pos {
            PositionInTriangulation::OnFace(f) => vec![FaceId(f.index() as u32)],
            PositionInTriangulation::OnEdge(e) => {
                let e = self.cdt.directed_edge(e);
                vec![
                    FaceId(e.face().fix().index() as u32),
                    FaceId(e.rev().face().fix().index() as u32),
                ]
            }
            PositionInTriangulation::OnVertex(v) => self
                .cdt
                .vertex(v)
                .out_edges()
                .map(|e| FaceId(e.face().fix().index() as u32))
                .collect(),
            _ => return Location::Outside,
        };
        let best = candidates
            .into_iter()
            .filter(|f| f.0 != 0)
            .min_by_key(|&f| rank(self.kind(f)));
        match best {
            Some(f) if self.kind(f) != FaceKind::Solid => Location::Free(Body { pos: p, face: f }),
            Some(f) => Location::Solid(f),
            None => Location::Outside,
        }
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
