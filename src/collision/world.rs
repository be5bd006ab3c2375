//! `CollisionWorld`: one collision mesh per collider shape, built from the same level.
//!
//! Standing, crouching and other characters each get their own mesh; all share the feet reference
//! point, so a body changes mesh by locating its position in the other mesh.
use glam::DVec2;

use super::build::{build_mesh, BuildError, MeshConfig};
use super::chunked::build_chunked_mesh;
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

    /// [`CollisionWorld::new`] with chunked meshes ([`build_chunked_mesh`], chunks of
    /// `chunk_size` metres): they answer as whole builds do, and an edit rebuilds only the
    /// chunks it touches ([`CollisionWorld::rebuild_edited`]).
    pub fn new_chunked(
        polygons: &[SourcePolygon],
        shapes: &[ColliderShape],
        config: MeshConfig,
        chunk_size: f64,
    ) -> Result<Self, BuildError> {
        let meshes = build_all_with(polygons, shapes, |shape| {
            build_chunked_mesh(polygons, shape, &config, chunk_size)
        })?;
        Ok(CollisionWorld {
            shapes: shapes.to_vec(),
            meshes,
        })
    }

    /// No meshes (a placeholder while a world's meshes are rebuilt elsewhere).
    pub(crate) fn empty() -> Self {
        CollisionWorld {
            shapes: Vec::new(),
            meshes: Vec::new(),
        }
    }

    /// The chunk size when every mesh is chunked ([`CollisionWorld::new_chunked`]).
    pub fn chunk_size(&self) -> Option<f64> {
        let first = self.meshes.first()?.chunk_size()?;
        self.meshes
            .iter()
            .all(|m| m.chunk_size() == Some(first))
            .then_some(first)
    }

    /// Brings every chunked mesh up to date after the polygons `changed` were edited, given the
    /// changed polygons the level still has (`edited`; see [`CollisionMesh::rebuild_edited`];
    /// `config` is the level's). The meshes are rebuilt in parallel threads. Returns the chunks
    /// built in all, or `None` when some mesh cannot be rebuilt in part (new bounds, an edit past
    /// its chunk grid): then build the world again ([`CollisionWorld::new_chunked`]). On an
    /// error too the meshes may be left part rebuilt: build the world again.
    pub fn rebuild_edited(
        &mut self,
        edited: &[SourcePolygon],
        changed: &[PolygonId],
        config: &MeshConfig,
    ) -> Result<Option<usize>, BuildError> {
        let Some((first, rest)) = self.meshes.split_first_mut() else {
            return Ok(Some(0));
        };
        let results: Vec<Result<Option<usize>, BuildError>> = std::thread::scope(|s| {
            let handles: Vec<_> = rest
                .iter_mut()
                .map(|m| s.spawn(move || m.rebuild_edited(edited, changed, config)))
                .collect();
            let mut results = vec![first.rebuild_edited(edited, changed, config)];
            results.extend(handles.into_iter().map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(BuildError::Triangulation(
                        "mesh rebuild thread panicked".into(),
                    ))
                })
            }));
            results
        });
        let mut built = Some(0);
        for r in results {
            built = match (built, r?) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            };
        }
        Ok(built)
    }

    /// The mesh for a collider.
    pub fn mesh(&self, id: ColliderId) -> &CollisionMesh {
        &self.meshes[id.0 as usize]
    }

    /// Opens or closes the gate `id` in every mesh ([`CollisionMesh::set_gate`]): no re-mesh.
    /// Returns whether the meshes have such a gate.
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
    build_all_with(polygons, shapes, |shape| {
        build_mesh(polygons, shape, config)
    })
}

/// One mesh per shape, made by `build`: in parallel threads, or one after the other for a level
/// of more than [`PARALLEL_BUILD_MAX_POINTS`] points.
fn build_all_with(
    polygons: &[SourcePolygon],
    shapes: &[ColliderShape],
    build: impl Fn(&ColliderShape) -> Result<CollisionMesh, BuildError> + Sync,
) -> Result<Vec<CollisionMesh>, BuildError> {
    let Some((first, rest)) = shapes.split_first() else {
        return Ok(Vec::new());
    };
    let points: usize = polygons.iter().map(|p| p.points.len()).sum();
    if points > PARALLEL_BUILD_MAX_POINTS {
        return shapes.iter().map(&build).collect();
    }
    let build = &build;
    // One thread per further shape; the calling thread builds the first mesh meanwhile.
    let results: Vec<Result<CollisionMesh, BuildError>> = std::thread::scope(|s| {
        let handles: Vec<_> = rest
            .iter()
            .map(|shape| s.spawn(move || build(shape)))
            .collect();
        let mut results = vec![build(first)];
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
