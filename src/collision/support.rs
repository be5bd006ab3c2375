//! Queries for the movement layer: the edge under a body, and the edge that continues a supporting
//! edge across its end vertex (walking hand-off).
//!
//! The free region's boundary is a set of closed chains of blocking edges. Walking on the ground
//! means following one chain: the next edge is found by rotating around the shared vertex through
//! free faces until the first blocking edge. The seam between two overlapping tiles leaves no edge
//! in the free region, so a tile floor is one chain of collinear edges.
use glam::DVec2;

use super::mesh::{CollisionMesh, EdgeRef, FaceId};
use super::polygon::PolygonId;
use super::walk::{Body, MoveOptions};

/// Upper bound on faces around one vertex visited by the hand-off query.
const MAX_FAN: usize = 1024;

/// A blocking edge under a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Support {
    /// The edge, seen from the free side (direction: free space on its left).
    pub edge: EdgeRef,
    /// Unit normal out of the obstacle.
    pub normal: DVec2,
    /// The point under the body on the edge.
    pub point: DVec2,
    /// Angle of the edge from horizontal, radians in `[0, π]` (0: flat floor, π/2: wall).
    pub slope: f64,
    /// Source polygon of the edge (for footstep materials).
    pub source: Option<PolygonId>,
}

impl CollisionMesh {
    /// The blocking edge straight below `body` within `probe` metres, if its normal points up.
    pub fn support_below(&self, body: Body, probe: f64, opts: MoveOptions) -> Option<Support> {
        let hit = self.ray_cast(body, DVec2::new(0.0, -probe), opts)?;
        (hit.normal.y > 0.0).then(|| Support {
            edge: hit.edge,
            normal: hit.normal,
            point: hit.point,
            slope: hit.normal.y.clamp(-1.0, 1.0).acos(),
            source: hit.source,
        })
    }

    /// Describes edge `e` as a support.
    pub fn support_of(&self, e: EdgeRef, point: DVec2) -> Support {
        let normal = self.edge_normal(e);
        Support {
            edge: e,
            normal,
            point,
            slope: normal.y.clamp(-1.0, 1.0).acos(),
            source: self.edge_sources_at(e, point).first().copied(),
        }
    }

    /// The blocking edge that continues the boundary chain after `e`: at its end vertex when
    /// `forward` (the direction with free space on the left: rightwards along a floor), at its start
    /// vertex otherwise. Found by rotating through the free faces around that vertex.
    pub fn next_boundary_edge(
        &self,
        e: EdgeRef,
        forward: bool,
        opts: MoveOptions,
    ) -> Option<EdgeRef> {
        let mut f = e.face;
        // Forward: the edge leaving the end vertex in this face. Backward: the edge entering the start.
        let step = if forward { 1 } else { 2 };
        let mut j = (e.edge + step) % 3;
        for _ in 0..MAX_FAN {
            let ej = EdgeRef { face: f, edge: j };
            if self.blocks(ej, opts) {
                return Some(ej);
            }
            if self.face(f).adj[j as usize] == FaceId::OUTSIDE {
                return None;
            }
            let tw = self.twin(ej);
            f = tw.face;
            j = (tw.edge + step) % 3;
            if f == e.face {
                // Went all the way around the vertex (the chain ends here, e.g. at the end of a
                // one-way top whose side is passable).
                return None;
            }
        }
        None
    }
}
