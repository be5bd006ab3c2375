//! The collision core: moving a point-sized body through arbitrary 2D level geometry, exactly.
//!
//! # What it owns
//! Level polygons are split into convex pieces and inflated by a convex collider (exact Minkowski
//! sum with the collider's feet as reference point): the collider overlaps an obstacle exactly when
//! its feet are inside an inflated piece. Every inflated edge goes into a constrained Delaunay
//! triangulation (built in the mesh's own face array, `cdt`); crossing edges are split where they cross; faces inside any inflated piece
//! are solid, the rest free (or one-way). A body is a point plus the face that contains it; a move
//! walks the segment across faces in the order it crosses their edges and slides along blocking
//! edges (the move loop, `walk`). The face is a discrete fact, decided by exact orientation
//! predicates: floating point error moves a body by ulps along an edge, never into a wall.
//!
//! # Public surface
//! Everything the other layers, the tests, the benches and the fuzz targets use is re-exported
//! here, and only that; every submodule is private and its internals are `pub(crate)`.
//! - Input and building: [`SourcePolygon`] ([`PolygonId`], [`Solidity`]), checked by
//!   [`validate_polygon`] ([`GeometryError`], [`MAX_COORDINATE`]); [`ColliderShape`];
//!   [`build_mesh`] with [`MeshConfig`] ([`BuildError`]); [`CollisionWorld`]: one mesh per
//!   collider shape, indexed by [`ColliderId`]. For editing: [`build_chunked_mesh`] (and
//!   [`CollisionWorld::new_chunked`]) builds the same mesh chunk by chunk
//!   ([`DEFAULT_CHUNK_SIZE`]), and [`CollisionMesh::rebuild_polygons`] rebuilds only the chunks
//!   an edit touches.
//! - The mesh, read-only but for its gates: [`CollisionMesh`] and its [`Face`], [`FaceId`],
//!   [`FaceKind`], [`EdgeRef`], [`InflatedPiece`]; [`CollisionMesh::check_invariants`]
//!   ([`InvariantError`]); [`CollisionMesh::set_gate`] (and [`CollisionWorld::set_gate`]) opens
//!   or closes a gate (see "Gates" below).
//! - Queries: [`CollisionMesh::move_and_slide`], [`CollisionMesh::cast`] and
//!   [`CollisionMesh::ray_cast`] ([`Body`], [`MoveOptions`], [`MoveResult`], [`MoveEnd`],
//!   [`Contact`], [`Contacts`]); [`CollisionMesh::locate`] ([`Location`]);
//!   [`CollisionMesh::support_below`] ([`Support`]).
//! - Geometry the other layers share with the core (the renderer draws the convex pieces the
//!   core inflates; movement and overlays measure against edges): [`normalized_ccw`],
//!   [`convex_pieces`], the outline the core builds for a solid polygon ([`filled_outline`],
//!   [`fill_mouth`]),
//!   the exact orientation test [`orient`], [`cross`], [`closest_on_segment`]
//!   and [`Aabb`]; how two characters' colliders meet ([`colliders_meet`], [`Meeting`]), by the
//!   same Minkowski sum.
//! - Moving solids beside the mesh: [`Movers`] ([`InflatedConvex`], [`MoverEdge`],
//!   [`MoverHit`]; see "Movers" below).
//!
//! # Module map (all private)
//! - `chunked`: the same build chunk by chunk on a fixed grid, stitched into one face array,
//!   and rebuilt in part after an edit (border points shared exactly, a fixpoint for the ones
//!   rounding puts on a chunk line).
//! - `build`: validation, decomposition, inflation, triangulation, classification; `fill`:
//!   filling fine notches of long solid outlines;
//!   `polygon`: source polygons and their validation; `decompose`: convex pieces;
//!   `collider` and `minkowski`: collider outlines and the inflation; `grid`: the uniform grid of
//!   inflated pieces the build stages query; `planarize`: splitting crossing and overlapping
//!   constraint edges before triangulation; `buried`: edges inside a solid piece, left out;
//!   `runs`: dropping dangling constraint edges and merging straight chains through junctions;
//!   `cdt`: the constrained Delaunay triangulation, built directly in the face array (incremental
//!   insertion with Lawson's flips, then Sloan's flips for the missing segments); `buckets`: the flat
//!   counting-sort grouping the build stages share.
//! - `mesh`: the flat face array and edge/face queries; `invariants`: the checker.
//! - `walk`: move-and-slide and ray casts (the move loop and its tolerances are documented
//!   there).
//! - `locate`: point location and nearest free point; `support`: ground and hand-off queries.
//! - `world`: one mesh per collider shape and mapping bodies between them.
//! - `kinematic`: kinematic solids (movers) beside the mesh ([`Movers`]: convex pieces inflated
//!   per collider, posed each tick; `kinematic::pose` turns them, `kinematic::sweep` sorts their
//!   boxes, `kinematic::query` answers the inside test, segment entry and support queries).
//! - `predicates`: the exact orientation test, small vector helpers and [`Aabb`].
//!
//! # The data structure
//! A [`CollisionMesh`] is a flat array of triangles ([`Face`]): three vertex indices
//! counter-clockwise, the neighbour across each edge (edge `i` runs from `v[i]` to `v[i + 1]`, the
//! face on its left), a bit per edge marking constraint edges, the face's kind and region, and per
//! edge the index of its list of source polygons whose inflated outline it lies on (all lists
//! stored flat in one `mesh::SourceLists`; an edge that runs straight past pieces' corners also
//! records which polygons apply along which part of it). Face 0 is the
//! unbounded outside, always solid. A region is a maximal set of faces joined across
//! non-constraint edges; since every part of an inflated outline that is not buried inside a
//! solid piece is a constraint edge, a region is wholly solid, one-way or free and is classified
//! once, by one well-inside point (buried edges, which bound nothing, are left out of the
//! triangulation; see `build`). An edge
//! blocks a body leaving its face when the face across is solid (or a one-way top, for moves going
//! down): the blocking edges, seen from the free side, form closed chains (the ground a body
//! walks on; `support` follows them). Overlapping pieces leave no edge inside the free region, so
//! a seam between tiles is nothing the walk can catch on. The build triangulates in the flat array
//! itself (`cdt`), and point location walks it (`locate`).
//!
//! # Tolerances
//! Every side-of-line decision is exact ([`orient`]); tolerances only bound distances:
//! - [`MAX_COORDINATE`] (1e7 m): input range, so every coordinate keeps ~1e-9 m of
//!   absolute precision.
//! - `walk::MIN_SLIDE` (1e-12 m), `walk::TOUCH_DISTANCE` (1e-9 m), `walk::WEDGE_PUSH` (1e-9,
//!   relative), `walk::ONE_WAY_GRAZE` (1e-9, relative), `walk::MAX_STEPS` (65 536 steps a move),
//!   `walk::MAX_MOVE` (1e9 m): the move loop (see `walk`, where each is explained).
//! - [`FILL_TOLERANCE`] (1 mm): how much free space the filling of a long solid outline's fine
//!   notches may take, as the collider feels it (shallow notches within 1 mm of a straight run,
//!   narrow ones whose mouths are at most [`fill_mouth`] wide), so that teeth far below the
//!   collider's size do not each become a piece (see `fill`, where the rule and its bounds are
//!   stated; the collision is exact for the filled outline, which contains the original).
//! - `planarize::SNAP_ULPS` (8 ulps): a crossing that close to an endpoint is that endpoint.
//! - `buried::BURIED_MARGIN` (1e-9 m): how deep inside a solid piece a split edge must lie to be
//!   left out of the triangulation (rounded split points may sit an ulp inside an outline).
//! - `invariants::INSIDE_SLACK` (1e-7 m): the checker's allowance for a face poking into a piece
//!   by rounding of split points.
//! - `planarize::MAX_PASSES` (64): splitting passes before a build gives up with an error.
//! - `kinematic::NUDGE_START` (1e-12 m, relative, doubling up to `kinematic::MAX_NUDGES` = 80
//!   times): the step out of a mover piece for a point computed on its boundary that rounded
//!   inside (see `kinematic`).
//!
//! Limits that decide only cost, never an answer:
//! - [`WORK_PER_POINT`] (64, at least [`WORK_FLOOR`] = 2²¹): grid entries, candidate pairs and
//!   crossing points the splitting stage may hold per point of the level; past it the build fails
//!   with [`BuildError::TooIntricate`], so a build's memory is bounded per point.
//! - `thin::THIN_MIN_PIECES` (32) and `thin::THIN_MIN_PAIRS` (16 per segment): which solid
//!   polygons are merged by divide and conquer before splitting (`thin`); the kept edges are
//!   those the splitting stage would keep.
//! - `grid::ENTRIES_PER_PIECE` (16, plus 2²⁰): the piece grid's cells grow past it.
//! - `locate::WALK_LIMIT_PER_FACE` (4): point location's walk steps per face before an exact
//!   scan; [`PARALLEL_BUILD_MAX_POINTS`] (200 000): above it a world's meshes build in turn.
//!
//! # Solidity
//! The core knows shapes and how they block ([`Solidity`]), never what a level or the game makes
//! of them: [`Solidity::Solid`] blocks from every side, [`Solidity::OneWay`] from above (below),
//! [`Solidity::Gate`] while closed (below), and [`Solidity::Passable`] not at all (checked and
//! counted in the build's extent like any polygon, so the mesh is the one it would be with it, but
//! it makes no piece). The level names its polygons (`level::PolygonKind`) and maps each kind to a
//! solidity when it hands its polygons over; what a polygon means to the rules of play is read
//! from the level, never from here. `tests/it/layering.rs` fails on any identifier in this folder
//! that names a level object.
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
//! # Gates (gated faces)
//! A [`Solidity::Gate`] polygon is inflated and triangulated like any other, so its outline is
//! made of constraint edges and its faces form regions of their own; it buries no other polygon's
//! edges (the gate may open), is never filled or thinned, and keeps its interior edges. The
//! region classification records, for each face a gate covers and no solid piece does, which
//! gates cover it and what it is without them (free or one-way). Each gate starts closed (those
//! faces solid); [`CollisionMesh::set_gate`] rewrites the kinds of the faces it covers: solid
//! while any gate covering a face is closed, its gate-less kind once all are open. Nothing else
//! changes (vertices, triangles, neighbours, constraint bits), so bodies keep their faces, the
//! cost is the gate's faces, and every query reads kinds as it always did. The invariant checker
//! counts a gate's pieces as solid while closed and absent while open; a property test
//! (`collision_props`) checks that after any sequence of toggles the mesh answers like one built
//! from scratch without the open gates and with the closed ones solid.
//!
//! # Movers
//! Moving platforms are not in the mesh: [`Movers`] keeps each one's convex pieces inflated by
//! every collider in its own frame and a translation per tick, and answers the same questions as
//! the mesh (is the feet point inside, where does a segment enter, what is the ground under the
//! feet) with the same exact [`orient`], in the mover's frame (`kinematic` states the rules and its
//! tolerances). The simulation moves them, carries their riders and pushes what they overlap
//! (`sim::movers`); the movement code clips each move against them after the static walk.
//!
//! # Must never depend on
//! Window, GPU, audio or input crates, or any other Tessera module (the level's kinds of polygon
//! and objects included): this is a plain library.
//! Coordinates are `f64` metres, y up.
mod buckets;
mod build;
mod buried;
mod cdt;
mod chunked;
mod collider;
mod decompose;
mod fill;
mod grid;
mod invariants;
mod kinematic;
mod locate;
mod mesh;
mod minkowski;
mod planarize;
mod polygon;
mod predicates;
mod regions;
mod runs;
mod support;
mod thin;
mod walk;
mod world;

pub use build::{build_mesh, BuildError, MeshConfig, WORK_FLOOR, WORK_PER_POINT};
pub use chunked::{build_chunked_mesh, DEFAULT_CHUNK_SIZE, MAX_BORDER_ROUNDS};
pub use collider::ColliderShape;
pub(crate) use decompose::is_strictly_convex;
pub use decompose::{convex_pieces, polygon_triangles};
pub use fill::{fill_mouth, filled_outline, FILL_TOLERANCE};
pub use invariants::InvariantError;
pub use kinematic::{
    InflatedConvex, MoverEdge, MoverHit, MoverPoses, Movers, Pose, ONE_WAY_MIN_NORMAL_Y,
};
pub use locate::Location;
pub use mesh::{CollisionMesh, EdgeRef, Face, FaceId, FaceKind, InflatedPiece};
pub use minkowski::{colliders_meet, Meeting};
pub use polygon::{
    normalized_ccw, readable, validate_polygon, GeometryError, Num, PolygonId, Solidity,
    SourcePolygon, MAX_COORDINATE,
};
pub use predicates::{
    automatic_bounds, closest_on_segment, cross, orient, Aabb, AUTO_BOUNDS_MARGIN,
};
pub use support::Support;
pub use walk::{Body, Contact, Contacts, MoveEnd, MoveOptions, MoveResult};
pub use world::{ColliderId, CollisionWorld, PARALLEL_BUILD_MAX_POINTS};
