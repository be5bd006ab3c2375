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
//! - [`build`]: validation, decomposition, inflation, triangulation, classification;
//!   [`planarize`]: splitting crossing and overlapping constraint edges before spade sees them;
//!   [`buried`]: edges inside a solid piece, left out;
//!   [`runs`]: dropping dangling constraint edges and merging straight chains through junctions;
//!   [`constrain`]: making the segments edges of spade's triangulation; [`buckets`]: the flat
//!   counting-sort grouping the build stages share.
//! - [`mesh`]: the flat face array and edge/face queries; [`invariants`]: the checker.
//! - [`walk`]: move-and-slide and ray casts (the move loop and its tolerances are documented
//!   there).
//! - [`locate`]: point location and nearest free point; [`support`]: ground and hand-off queries.
//! - [`world`]: one mesh per collider shape and mapping bodies between them.
//!
//! # The data structure
//! A [`CollisionMesh`] is a flat array of triangles ([`mesh::Face`]): three vertex indices
//! counter-clockwise, the neighbour across each edge (edge `i` runs from `v[i]` to `v[i + 1]`, the
//! face on its left), a bit per edge marking constraint edges, the face's kind and region, and per
//! edge the index of its list of source polygons whose inflated outline it lies on (all lists
//! stored flat in one [`mesh::SourceLists`]; an edge that runs straight past pieces' corners also
//! records which polygons apply along which part of it). Face 0 is the
//! unbounded outside, always solid. A region is a maximal set of faces joined across
//! non-constraint edges; since every part of an inflated outline that is not buried inside a
//! solid piece is a constraint edge, a region is wholly solid, one-way or free and is classified
//! once, by one well-inside point (buried edges, which bound nothing, are left out of the
//! triangulation; see [`build`]). An edge
//! blocks a body leaving its face when the face across is solid (or a one-way top, for moves going
//! down): the blocking edges, seen from the free side, form closed chains (the ground a body
//! walks on; [`support`] follows them). Overlapping pieces leave no edge inside the free region, so
//! a seam between tiles is nothing the walk can catch on. Spade's triangulation is kept beside the
//! flat array for point location.
//!
//! # Tolerances
//! Every side-of-line decision is exact ([`predicates::orient`]); tolerances only bound distances:
//! - [`polygon::MAX_COORDINATE`] (1e7 m): input range, so every coordinate keeps ~1e-9 m of
//!   absolute precision.
//! - [`walk::MIN_SLIDE`], [`walk::TOUCH_DISTANCE`], [`walk::WEDGE_PUSH`], [`walk::ONE_WAY_GRAZE`],
//!   [`walk::MAX_STEPS`], [`walk::MAX_MOVE`]: the move loop (see [`walk`]).
//! - [`planarize::SNAP_ULPS`] (8 ulps): a crossing that close to an endpoint is that endpoint.
//! - [`buried::BURIED_MARGIN`] (1e-9 m): how deep inside a solid piece a split edge must lie to be
//!   left out of the triangulation (rounded split points may sit an ulp inside an outline).
//! - [`invariants::INSIDE_SLACK`] (1e-7 m): the checker's allowance for a face poking into a piece
//!   by rounding of split points.
//! - [`planarize::MAX_PASSES`]: splitting passes before a build gives up with an error.
//!
//! # One-way platforms
//! Faces inside one-way pieces (and no solid piece) are [`FaceKind::OneWay`]. Bodies may be in
//! them. Crossing from a free face into a one-way face is blocked only through a top edge (normal
//! pointing up by at least `MeshConfig::one_way_min_normal_y`) and only for a move going down
//! (displacement `y < 0`) or running along the top, i.e. while moving down onto it or walking on
//! it; never when the move asks to pass (`MoveOptions::pass_one_way`, for dropping through).
//! Walking into a platform's side (even its bevelled corner, with a chamfered collider) or jumping
//! up through it passes. [`CollisionMesh::blocks`] answers for a move going down.
//!
//! # Must never depend on
//! Window, GPU, audio or input crates, or any other Tessera module: this is a plain library.
//! Coordinates are `f64` metres, y up.
pub mod buckets;
pub mod build;
pub mod buried;
pub mod collider;
pub mod constrain;
pub mod decompose;
pub mod grid;
pub mod invariants;
pub mod locate;
pub mod mesh;
pub mod minkowski;
pub mod planarize;
pub mod polygon;
pub mod predicates;
pub mod runs;
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
pub use walk::{Body, Contact, Contacts, MoveEnd, MoveOptions, MoveResult};
pub use world::{ColliderId, CollisionWorld};
