//! The level editor's document model: editing operations as pure functions on a [`Level`], an
//! undo/redo history, and grid snapping. No drawing, no input: the editor's panels and viewport
//! call into this and show what it returns.
//!
//! # What it owns
//! - [`ops`]: [`Edit`], the explicit editing commands (move vertices or polygons, insert and
//!   delete vertices, add, paste and delete polygons, set kind, material and colour, move the
//!   spawn, set camera and level bounds, rotate and scale a selection about a pivot, set one
//!   object kind's list: ladders are a kind), and [`apply`], which either applies
//!   one to the level and returns its inverse or refuses it with an [`EditError`] and leaves the
//!   level untouched. An edit is
//!   checked on a candidate of what it touches only, with the level's own rules (the one
//!   validator, `level::validate`, whose problem [`EditError::Invalid`] wraps: the message a
//!   load would give) plus the editor's rules for edits (the near-duplicate rule, an agent's
//!   placement), never by validating the whole level, so its cost scales with the edit, not with
//!   the level. A valid level stays valid: every accepted edit keeps [`Level::validate`]
//!   passing.
//! - [`history`]: [`History`], the undo and redo stacks. Each entry holds the edit and its inverse
//!   (the old coordinates or fields of what it touched, never a snapshot of the level), so memory
//!   and time per undo are proportional to the edit. Consecutive drags of the same vertices or
//!   polygons can merge into one entry.
//! - [`kinds`]: object kinds by registration: each kind of level object (checkpoints, the goal,
//!   doors with their switches, movers, agents, ladders) is one file implementing
//!   [`kinds::ObjectKind`] (its list, its check through the one validator, its parts, moves,
//!   drawing, panel and how a new one is placed) and one line in [`kinds::KINDS`]; one
//!   [`Edit::SetObjects`] sets any kind's list.
//! - [`objects`]: the objects in the editor whatever their kind, through the registry: which
//!   object and part ([`Grab`]) a press picks, how a drag moves it, what deleting it does.
//! - [`snap`]: [`Grid`], snapping to exact grid points, and [`close_outline`], which drops the
//!   closing click of a drawn polygon when it lands on the first point.
//! - [`session`]: [`EditorSession`], the document (the game's one level document,
//!   `level::LevelDoc`, shared with the world, which follows each change) with its history, file and unsaved state, the
//!   selection, the tools and the pointer gestures in level coordinates (picking, box select,
//!   drags, drawing, brushes, copy and paste), all testable without a window.
//! - [`shortcut`]: [`Shortcut`], the editor's key commands as values (the app's input router
//!   makes them from key presses; the editor never reads the keyboard).
//! - [`recovery`]: autosaving to a recovery file on a writer thread, and finding one to restore.
//! - [`ui`]: the egui front end (viewport, overlays, panels, dialogs). It returns commands; the
//!   game (`app::ui`) carries them out.
//!
//! # Tolerances
//! - [`NEAR_DUPLICATE`] = 1e-4 m: the least distance between two vertices of one polygon an edit
//!   may leave. `validate_polygon` refuses only exactly equal consecutive points; two vertices a
//!   hair apart are valid geometry but make slivers and near-zero-length edges that the collision
//!   build has to weld or split (and that the hero snags on), and they are what a closing click
//!   next to (not on) the first point makes. 0.1 mm is far below anything drawn on purpose (the
//!   finest useful grid is centimetres) and far above `f64` noise at level coordinates
//!   (about 1e-12 m at 1e4 m). The inverse edits that put back earlier coordinates
//!   ([`Edit::is_restore`]) skip this rule so that a level loaded with such a pair still undoes.
//! - Grid points are exact: see [`snap`] (no tolerance; equal grid indices give bit-identical
//!   coordinates).
//!
//! # Usage
//! ```
//! use glam::DVec2;
//! use tessera::editor::{Edit, History};
//! # use tessera::level::{Level, LevelPolygon};
//! # let mut level = Level { polygons: vec![LevelPolygon::solid(vec![
//! #     DVec2::new(0., 0.), DVec2::new(2., 0.), DVec2::new(2., 1.), DVec2::new(0., 1.)])],
//! #     spawn: DVec2::new(0., 3.), ..Level::empty("l") };
//! let original = level.clone();
//! let mut history = History::default();
//! history
//!     .apply(&mut level, Edit::MoveVertices { polygon: 0, vertices: vec![2], delta: DVec2::X })
//!     .unwrap();
//! // Dragging vertex 2 across the opposite edge is refused with a message; nothing changes.
//! let moved = level.clone();
//! let e = history.apply(&mut level, Edit::MoveVertices {
//!     polygon: 0, vertices: vec![2], delta: DVec2::new(-4., -0.5) });
//! assert!(e.unwrap_err().to_string().starts_with("polygon 0"));
//! assert_eq!(level, moved);
//! history.undo(&mut level).unwrap();
//! assert_eq!(level, original);
//! ```
//!
//! # Must never depend on
//! Window, GPU, audio or input crates. The model (everything but [`ui`]) imports no GUI crate
//! either: it reads `level` (the document and its validator), `collision` (collider overlap)
//! and `sim` (the agents' size classes' colliders, the movers' poses). [`ui`] draws
//! through egui only (no wgpu, no winit) and reads `render` (the camera, the collision overlay's
//! drawing) and `sim` (the world it shows). The simulation layers never import the editor
//! (`tests/it/layering.rs` checks all three rules).
//!
//! [`Level`]: crate::level::Level
//! [`Level::validate`]: crate::level::Level::validate
pub mod clipboard;
pub mod history;
pub mod kinds;
pub mod objects;
pub mod ops;
pub mod recovery;
pub mod session;
pub mod shortcut;
pub mod snap;
pub mod ui;

pub use history::History;
pub use objects::{Grab, ObjectRef};
pub use ops::{apply, Applied, Edit, EditError, NEAR_DUPLICATE};
pub use session::{EditorSession, Hit, Modifiers, Request, Selection, Tool};
pub use shortcut::Shortcut;
pub use snap::{close_outline, Grid};
