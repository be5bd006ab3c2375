//! The collision core: moving a point-sized body through arbitrary 2D level geometry, exactly.
//!
//! # What it owns
//! Level polygons are split into convex pieces and inflated by a convex collider (exact Minkowski
//! sum with the collider's feet as reference point): the collider overlaps an obstacle exactly when
//! its feet are inside an inflated piece. Every inflated edge goes into a constrained Delaunay
//! triangulation (spade); crossing edges are split where they cross; faces inside any inflated piece
//! are solid, the rest free (or one-way). A body is a point plus the face that contains it; a move
//! walks the segment across faces in the order it crosses their edges and slides along blocking
//! edges ([`walk`]). The face is a discrete fact, decided by exact orientation predicates: floating
//! point error moves a body by ulps along an edge, never into a wall.
//!
//! - [`build`]: validation, decomposition, inflation, triangulation, classification.
//! - [`mesh`]: the flat face array and edge/face queries; [`invariants`]: the checker.
//! - [`walk`]: move-and-slide and ray casts (tolerances documented there).
//! - [`locate`]: point location and nearest free point; [`support`]: ground and hand-off queries.
//! - [`world`]: one mesh per collider shape and mapping bodies between them.
//!
//! # One-way platforms
//! Faces inside one-way pieces (and no solid piece) are [`FaceKind::OneWay`]. Bodies may be in
//! them. Crossing from a free face into a one-way face is blocked only through a top edge (normal
//! pointing up by at least `MeshConfig::one_way_min_normal_y`), i.e. while moving down onto it, and
//! not when the move asks to pass (`MoveOptions::pass_one_way`, for dropping through).
//!
//! # Must never depend on
//! Window, GPU, audio or input crates, or any other Tessera module: this is a plain library.
//! Coordinates are `f64` metres, y up.
pub mod build;
pub mod collider;
pub mod decompose;
pub mod grid;
pub mod invariants;
pub mod locate;
pub mod mesh;
pub mod minkowski;
pub mod planarize;
pub mod polygon;
pub mod predicates;
pub mod support;
pub mod walk;
pub mod world;

pub use build::{build_mesh, BuildError, MeshConfig};
pub use collider::ColliderShape;
pub use invariants::InvariantError;
pub use locate::Location;
pub use mesh::{CollisionMesh, EdgeRef, FaceId, FaceKind, InflatedPiece};
pub use polygon::{validate_polygon, GeometryError, PolygonId, PolygonKind, SourcePolygon};
pub use predicates::Aabb;
pub use support::Support;
pub use walk::{Body, Contact, MoveEnd, MoveOptions, MoveResult};
pub use world::{ColliderId, CollisionWorld};
