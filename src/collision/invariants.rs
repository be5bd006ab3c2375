//! The mesh invariant checker. Run after every build in debug builds, in tests and in fuzzing.
use std::collections::HashMap;

use super::grid::penetration_depth;
use super::mesh::{CollisionMesh, EdgeRef, FaceId, FaceKind};
use super::polygon::Solidity;
use super::predicates::orient;

/// Slack (metres) for "inside an inflated piece": split points of crossing constraint edges are
/// rounded, so a face may poke into a piece by a few ulps of the coordinates.
pub(crate) const INSIDE_SLACK: f64 = 1e-7;

/// A violated mesh invariant.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("face {face}: {what}")]
pub struct InvariantError {
    /// The offending face.
    pub face: u32,
    /// What is wrong.
    pub what: String,
}

impl CollisionMesh {
    /// Verifies the mesh:
    /// - every bounded face is a counter-clockwise triangle of positive area;
    /// - adjacency is symmetric (each neighbour has the same edge reversed);
    /// - every edge between faces of different kinds is a constraint edge;
    /// - no free face lies inside any inflated piece, no one-way face inside a solid piece, and
    ///   every solid face lies inside a solid piece or outside the level bounds, where a gate's
    ///   piece is solid while its gate is closed and absent while it is open;
    /// - the blocking boundary of the free region is closed: at every vertex, as many boundary
    ///   edges (free face on the left) arrive as leave.
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        let err = |f: FaceId, what: String| Err(InvariantError { face: f.0, what });
        let mut balance: HashMap<u32, i64> = HashMap::new();
        let mut cand = Vec::new();
        let grid = super::grid::PieceGrid::new(&self.pieces, self.bounds.expand(1.0));
        for f in self.face_ids() {
            let face = self.face(f);
            let [a, b, c] = self.triangle(f);
            if orient(a, b, c) <= 0.0 {
                return err(
                    f,
                    "not a counter-clockwise triangle of positive area".into(),
                );
            }
            for i in 0..3u8 {
                let e = EdgeRef { face: f, edge: i };
                let g = face.adj[i as usize];
                if g != FaceId::OUTSIDE {
                    let tw = self.twin(e);
                    let (p, q) = self.edge_points(e);
                    let (tp, tq) = self.edge_points(tw);
                    if tw.face != g || tp != q || tq != p || self.face(g).adj[tw.edge as usize] != f
                    {
                        return err(f, format!("edge {i}: adjacency is not symmetric"));
                    }
                    if self.kind(g) != face.kind && !self.is_constraint(e) {
                        return err(
                            f,
                            format!(
                                "edge {i}: separates {:?} from {:?} but is not a constraint",
                                face.kind,
                                self.kind(g)
                            ),
                        );
                    }
                } else if face.kind != FaceKind::Solid {
                    return err(
                        f,
                        format!("edge {i}: a non-solid face touches the outside of the hull"),
                    );
                }
                if face.kind == FaceKind::Free && self.kind(g) != FaceKind::Free {
                    *balance.entry(face.v[i as usize]).or_default() += 1;
                    *balance.entry(face.v[(i as usize + 1) % 3]).or_default() -= 1;
                }
            }
            let centre = (a + b + c) / 3.0;
            let inside_bounds = self.bounds.contains(centre);
            // Only the depth at the centre is measured, so only pieces whose box reaches within
            // the slack of the centre can answer (the triangle's own box, on a large face outside
            // a long outline, covers most of the pieces).
            let around = super::predicates::Aabb {
                min: centre - glam::DVec2::splat(2.0 * INSIDE_SLACK),
                max: centre + glam::DVec2::splat(2.0 * INSIDE_SLACK),
            };
            grid.candidates_in(around, &mut cand);
            // A gate's piece is solid while the gate is closed and not there while it is open.
            let depths = |kind: Option<Solidity>| {
                cand.iter()
                    .map(|&i| &self.pieces[i as usize])
                    .filter_map(|p| match p.kind {
                        Solidity::Gate if self.gates.is_open(p.source) => None,
                        Solidity::Gate => Some((p, Solidity::Solid)),
                        k => Some((p, k)),
                    })
                    .filter(move |(_, k)| kind.is_none_or(|want| *k == want))
                    .map(move |(p, _)| penetration_depth(&p.points, centre))
            };
            let depth_in = |kind| depths(kind).fold(f64::NEG_INFINITY, f64::max);
            // The same tests as `depth_in(kind) > t` and `depth_in(kind) >= t`, stopping at the
            // first piece that answers (a large face inside a long outline has many candidates).
            let any_above = |kind, t: f64| depths(kind).any(|d| d > t);
            let any_at_least = |kind, t: f64| depths(kind).any(|d| d >= t);
            match face.kind {
                FaceKind::Free => {
                    if any_above(None, INSIDE_SLACK) || !inside_bounds {
                        let d = depth_in(None);
                        return err(
                            f,
                            format!(
                                "free face inside an inflated piece by {d} m or outside the bounds"
                            ),
                        );
                    }
                }
                FaceKind::OneWay => {
                    if any_above(Some(Solidity::Solid), INSIDE_SLACK)
                        || !any_at_least(Some(Solidity::OneWay), -INSIDE_SLACK)
                    {
                        return err(
                            f,
                            "one-way face inside a solid piece, or outside every one-way piece"
                                .into(),
                        );
                    }
                }
                FaceKind::Solid => {
                    if inside_bounds
                        && !any_at_least(Some(Solidity::Solid), -INSIDE_SLACK)
                        && self.bounds.contains_strictly(centre)
                    {
                        return err(
                            f,
                            "solid face outside every solid piece and inside the bounds".into(),
                        );
                    }
                }
            }
        }
        if let Some((v, n)) = balance.iter().find(|(_, &n)| n != 0) {
            return Err(InvariantError {
                face: 0,
                what: format!(
                    "free-region boundary is not closed at vertex {v} (in minus out = {n})"
                ),
            });
        }
        Ok(())
    }
}
