//! `CollisionWorld`: one collision mesh per collider shape, built from the same level.
//!
//! Standing, crouching and other characters each get their own mesh; all share the feet reference
//! point, so a body changes mesh by locating its position in the other mesh.
use glam::DVec2;

use super::build::{build_mesh, BuildError, MeshConfig};
use super::collider::ColliderShape;
use super::locate::Location;
use super::mesh::CollisionMesh;
use super::polygon::{PolygonId, SourcePolygon};
use super::walk::Body;

/// Index of a collider shape (and its mesh) in a [`CollisionWorld`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ColliderId(pub u16);

/// The level's meshes, one per collider shape.
pub struct CollisionWorld {
    shapes: Vec<ColliderShape>,
    meshes: Vec<CollisionMesh>,
}

impl CollisionWorld {
    /// Builds one mesh per shape (in parallel threads: they are independent). Fails, building
    /// nothing, on the first bad polygon or shape.
    pub fn new(
        polygons: &[SourcePolygon],
        shapes: &[ColliderShape],
        config: MeshConfig,
    ) -> Result<Self, BuildError> {
        let meshes = build_all(polygons, shapes, &config)?;
        Ok(CollisionWorld {
            shapes: shapes.to_vec(),
            meshes,
        })
    }

    /// The mesh for a collider.
    pub fn mesh(&self, id: ColliderId) -> &CollisionMesh {
        &self.meshes[id.0 as usize]
    }

    /// Opens or closes door `id` in every mesh ([`CollisionMesh::set_gate`]): no re-mesh.
    /// Returns whether the meshes have such a door.
    pub fn set_gate(&mut self, id: PolygonId, open: bool) -> bool {
        let mut found = false;
        for m in &mut self.meshes {
            found |= m.set_gate(id, open);
        }
        found
    }

    /// The collider shapes, indexed by [`ColliderId`].
    pub fn shapes(&self) -> &[ColliderShape] {
        &self.shapes
    }

    /// Maps a body from one mesh to another at the same position: `Free(body)` if the other
    /// collider fits there, `Solid`/`Outside` if not (e.g. no room to stand up).
    pub fn map_body(&self, body: Body, to: ColliderId) -> Location {
        self.mesh(to).locate(body.pos, None)
    }

    /// Locates a position on a collider's mesh.
    pub fn locate(&self, id: ColliderId, p: DVec2) -> Location {
        self.mesh(id).locate(p, None)
    }
}

/// Levels with more points than this build their meshes one after the other, so that only one
/// build's working memory is held at a time: 200 000 squares (800 000 points) peaked at 883 MiB
/// in parallel and 566 MiB in turn, for 1.9 s against 3.7 s, when the build held spade's
/// triangulation (release, 2026-11-25); with the triangulation built in the face array (`cdt`)
/// and meshes of 156 MiB, the peak in turn is 376 MiB (BENCHMARKS.md, "Big and dense worlds").
/// Smaller levels build in parallel.
pub const PARALLEL_BUILD_MAX_POINTS: usize = 200_000;

fn build_all(
    polygons: &[SourcePolygon],
    shapes: &[ColliderShape],
    config: &MeshConfig,
) -> Result<Vec<CollisionMesh>, BuildError> {
    let Some((first, rest)) = shapes.split_first() else {
        return Ok(Vec::new());
    };
    let points: usize = polygons.iter().map(|p| p.points.len()).sum();
    if points > PARALLEL_BUILD_MAX_POINTS {
        return shapes
            .iter()
            .map(|shape| build_mesh(polygons, shape, config))
            .collect();
    }
    // One thread per further shape; the calling thread builds the first mesh meanwhile.
    let results: Vec<Result<CollisionMesh, BuildError>> = std::thread::scope(|s| {
        let handles: Vec<_> = rest
            .iter()
            .map(|shape| s.spawn(move || build_mesh(polygons, shape, config)))
            .collect();
        let mut results = vec![build_mesh(polygons, first, config)];
        results.extend(handles.into_iter().map(|h| {
            h.join().unwrap_or_else(|_| {
                Err(BuildError::Triangulation(
                    "mesh build thread panicked".into(),
                ))
            })
        }));
        results
    });
    results.into_iter().collect()
}
