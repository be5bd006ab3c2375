//! The editing session: the document, its history and file, the selection, the active tool and
//! the gesture under way, driven by pointer and key events in level coordinates.
//!
//! The document is a [`LevelDoc`]: in the game, the world's own level document
//! ([`EditorSession::on`]), which the session's edits, undo and redo change in place and the
//! world then follows (`Command::LevelEdited`); on its own ([`EditorSession::new`], the tests)
//! a document of its own. Reading it ([`EditorSession::level`]) gives a guard to drop before
//! the session edits it.
//!
//! Everything here is plain data and pure logic: the egui panels ([`super::ui`]) turn screen
//! events into the calls below (through the camera's ray against the level plane) and draw what
//! the session exposes.
//!
//! This file holds the session's state, its history and the pointer's dispatch (press, drag,
//! release, and the Select tool's gestures); one child module per concern holds the rest:
//! `pick` (what is under the pointer), `tools` (one file per tool behind [`ToolBehaviour`]:
//! what a press, a band and a key do with it), `selection` (delete, rotate, scale, copy,
//! paste, kind), `objects_tools` (grabbing, dragging, copying and deleting agents, movers and
//! their path nodes, doors, switches) and `files` (save, open, [`SaveOutcome`]). So every interaction (click, box select, drag, draw and close, brushes,
//! copy and paste) is unit-tested without a window.
//!
//! # Tolerances
//! - Picking uses a radius in metres the caller derives from the view (a few pixels at the current
//!   zoom), so that handles are as easy to hit zoomed in as zoomed out. Nothing of the document
//!   depends on it: it only chooses *what* an event acts on.
//! - Positions that end up in the document are either snapped to exact grid points ([`Grid`]) or
//!   the pointer's own coordinates; the edit's checks ([`apply`](super::apply)) decide whether
//!   they are allowed.
use std::cell::Ref;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use glam::DVec2;

use super::clipboard::Fragment;
use super::history::History;
use super::kinds::Templates;
use super::objects::{Grab, ObjectRef};
use super::ops::{Edit, EditError};
use super::snap::Grid;
use crate::collision::Aabb;
mod files;
mod objects_tools;
mod pick;
mod selection;
mod tools;

pub use files::SaveOutcome;
pub use pick::{closest_on_segment, inside};
pub use tools::{Look, Press, Sketch, Tool, ToolBehaviour, ToolKey, ToolPanel};

use crate::level::{Level, LevelDoc, SavePlaces};

/// What is under the pointer, most specific first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hit {
    /// A vertex handle.
    Vertex { polygon: usize, vertex: usize },
    /// The spawn marker.
    Spawn,
    /// An edge, at `point` (the nearest point on it).
    Edge {
        polygon: usize,
        edge: usize,
        point: DVec2,
    },
    /// Inside a polygon (the last one drawn, when they overlap).
    Polygon(usize),
    /// An object or a part of one: an agent, a mover or a path node of one, a door or its
    /// switch.
    Object(Grab),
    /// The segment `segment` of an object's path (node `segment` to the next), at `point`.
    PathSegment {
        object: ObjectRef,
        segment: usize,
        point: DVec2,
    },
}

/// The selection.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Whole polygons.
    pub polygons: BTreeSet<usize>,
    /// Single vertices, `(polygon, vertex)`.
    pub vertices: BTreeSet<(usize, usize)>,
    /// An object of any kind (an agent, mover, door).
    pub object: Option<ObjectRef>,
    /// The selected node of the selected object's path (a mover's).
    pub node: Option<usize>,
}

impl Selection {
    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.polygons.is_empty() && self.vertices.is_empty() && self.object.is_none()
    }

    /// Clears it.
    pub fn clear(&mut self) {
        *self = Selection::default();
    }

    /// The one polygon the panels show: the single selected polygon, or the polygon of the
    /// selected vertices when they all belong to one.
    pub fn single_polygon(&self) -> Option<usize> {
        if self.polygons.len() == 1 && self.vertices.is_empty() {
            return self.polygons.first().copied();
        }
        let mut polys = self.vertices.iter().map(|&(p, _)| p);
        let first = polys.next()?;
        (self.polygons.is_empty() && polys.all(|p| p == first)).then_some(first)
    }
}

/// Modifier keys held during a pointer event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Add to the selection instead of replacing it.
    pub shift: bool,
    /// Ctrl (Cmd on macOS): insert a vertex on an edge.
    pub ctrl: bool,
}

/// A message shown at the cursor: why an edit was refused, or what a command did.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Where (level coordinates).
    pub at: DVec2,
    /// Whether it reports a refusal.
    pub error: bool,
}

/// The gesture between a press and its release.
#[derive(Clone, Debug, PartialEq)]
enum Gesture {
    None,
    /// Moving vertices of one polygon; `grab` is where the grabbed vertex is now, `offset` the
    /// pointer's offset from it at the press.
    Vertices {
        polygon: usize,
        vertices: Vec<usize>,
        grab: DVec2,
        offset: DVec2,
    },
    /// Moving whole polygons; `grab` is the grabbed polygon's first vertex.
    Polygons {
        polygons: Vec<usize>,
        grab: DVec2,
        offset: DVec2,
    },
    Spawn {
        offset: DVec2,
    },
    /// A rubber band from `from` to `to` (box select, box brush, a placing tool's box).
    Band {
        from: DVec2,
        to: DVec2,
        add: bool,
    },
    /// Painting tiles: cells already visited in this stroke.
    Tiles {
        cells: BTreeSet<(i64, i64)>,
    },
    /// Moving an object or a part of one; `grab` is where its grab point is now.
    Object {
        what: Grab,
        grab: DVec2,
        offset: DVec2,
    },
    /// A link dragged from a signal's source (`from`, its link handle) to the pointer (`to`);
    /// `moved`: the pointer has left the press point.
    Link {
        source: ObjectRef,
        from: DVec2,
        to: DVec2,
        moved: bool,
    },
}

/// Something the session asks of the game around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Request {
    /// Put the hero at this point (nearest free point) and keep the simulation paused.
    PlaceHero(DVec2),
}

/// An edit under the editor's control: document, history, file, selection and tools. Not
/// `Clone`: a copy would share the document (a [`LevelDoc`] handle) with a history of its own.
#[derive(Debug)]
pub struct EditorSession {
    /// The document: shared with the game's world when the session is on its document
    /// ([`EditorSession::on`]); the session edits it in place.
    level: LevelDoc,
    history: History,
    path: Option<PathBuf>,
    /// Identifies the document's current state: a fresh number after each edit, the earlier number
    /// after an undo. `saved` is the state on disk.
    state: u64,
    next_state: u64,
    undo_states: Vec<u64>,
    redo_states: Vec<u64>,
    saved: Option<u64>,
    /// Bumped by every change of the document (edit, undo, redo, open): the autosave writes a
    /// state it has not written yet.
    revision: u64,
    /// The document changed since [`EditorSession::take_change`] last said so: the editor then
    /// asks the game to follow it (`Command::LevelEdited`).
    changed: bool,
    /// The selection.
    pub selection: Selection,
    /// The active tool.
    pub tool: Tool,
    /// Grid snapping (toggle and size).
    pub grid: Grid,
    /// What the placing tools with settings place next (`ObjectKind::template`: an agent's).
    pub templates: Templates,
    drawing: Vec<DVec2>,
    gesture: Gesture,
    /// Where the button went down, until the pointer first moves: a drag to the press point is
    /// no drag (a click on an off-grid vertex or path node must not snap it to the grid).
    press_at: Option<DVec2>,
    message: Option<Message>,
    /// What Copy took: polygons and objects.
    clipboard: Fragment,
    requests: Vec<Request>,
    /// Where saves may go; resolved from the process on the first save unless set.
    save_places: Option<SavePlaces>,
    /// A file holding comments the user agreed to replace.
    drop_comments_ok: Option<PathBuf>,
    /// User copies of shipped levels written in this session (replaced without asking again).
    copies_written: BTreeSet<PathBuf>,
}

/// The grid size a new session starts with, metres.
pub const DEFAULT_GRID: f64 = 0.25;

impl EditorSession {
    /// A session on a new document holding `level`, saved at `path` (`None`: never saved; save
    /// asks for a path).
    pub fn new(level: Level, path: Option<PathBuf>) -> Self {
        Self::on(LevelDoc::new(level), path)
    }

    /// A session editing `doc` in place (the game's world's document, [`crate::sim::World::document`]),
    /// saved at `path`. Every change of the document is followed by whoever else holds it when
    /// told ([`EditorSession::take_change`]).
    pub fn on(doc: LevelDoc, path: Option<PathBuf>) -> Self {
        EditorSession {
            level: doc,
            history: History::default(),
            saved: path.as_ref().map(|_| 0),
            path,
            state: 0,
            next_state: 1,
            undo_states: Vec::new(),
            redo_states: Vec::new(),
            revision: 0,
            changed: false,
            selection: Selection::default(),
            tool: Tool::Select,
            grid: Grid::new(DEFAULT_GRID).expect("the default grid size is valid"),
            templates: Templates::default(),
            drawing: Vec::new(),
            gesture: Gesture::None,
            press_at: None,
            message: None,
            clipboard: Fragment::default(),
            requests: Vec::new(),
            save_places: None,
            drop_comments_ok: None,
            copies_written: BTreeSet::new(),
        }
    }

    /// Sets where saves may go (by default [`SavePlaces::resolve`] on the first save).
    pub fn set_save_places(&mut self, places: SavePlaces) {
        self.save_places = Some(places);
    }

    /// The document (a guard: drop it before the session edits).
    pub fn level(&self) -> Ref<'_, Level> {
        self.level.read()
    }

    /// A handle to the document, shared with whoever observes it (the game's world).
    pub fn document(&self) -> LevelDoc {
        self.level.clone()
    }
    /// The file it is saved to.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
    /// Whether the document differs from the file (or was never saved).
    pub fn dirty(&self) -> bool {
        self.saved != Some(self.state)
    }
    /// Changes with every change of the document.
    pub fn revision(&self) -> u64 {
        self.revision
    }
    /// Whether the document changed (an edit, undo, redo, open or restore) since the last call.
    pub fn take_change(&mut self) -> bool {
        std::mem::take(&mut self.changed)
    }
    /// Marks a change of the document.
    fn changed(&mut self) {
        self.revision += 1;
        self.changed = true;
    }
    /// The history.
    pub fn history(&self) -> &History {
        &self.history
    }
    /// The points of the polygon being drawn.
    pub fn drawing(&self) -> &[DVec2] {
        &self.drawing
    }
    /// The message at the cursor, if any.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }
    /// Clears the message.
    pub fn dismiss_message(&mut self) {
        self.message = None;
    }
    /// The link being dragged from a signal's source, if any: `(source, from, to)` (for
    /// drawing).
    pub fn link_drag(&self) -> Option<(ObjectRef, DVec2, DVec2)> {
        match self.gesture {
            Gesture::Link {
                source, from, to, ..
            } => Some((source, from, to)),
            _ => None,
        }
    }

    /// The rubber band being dragged, if any (for drawing).
    pub fn band(&self) -> Option<Aabb> {
        match self.gesture {
            Gesture::Band { from, to, .. } => Some(Aabb::from_points([from, to])),
            _ => None,
        }
    }
    /// Takes what the session asked of the game since the last call.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// Chooses a tool; a half-drawn polygon is dropped.
    pub fn set_tool(&mut self, tool: Tool) {
        if tool != self.tool {
            self.drawing.clear();
            self.gesture = Gesture::None;
            self.tool = tool;
        }
    }

    // ----- edits -----

    /// Applies an edit through the history. A refusal becomes the message at `at` and changes
    /// nothing.
    pub fn edit(&mut self, edit: Edit, at: DVec2) -> Result<(), EditError> {
        self.run(edit, at, false)
    }

    fn run(&mut self, edit: Edit, at: DVec2, drag: bool) -> Result<(), EditError> {
        let before = self.history.undo_len();
        let r = if drag {
            self.level.edit(|l| self.history.apply_drag(l, edit))
        } else {
            self.level.edit(|l| self.history.apply(l, edit))
        };
        match r {
            Ok(()) => {
                if self.history.undo_len() > before {
                    self.undo_states.push(self.state);
                }
                self.redo_states.clear();
                self.state = self.next_state;
                self.next_state += 1;
                self.changed();
                self.message = None;
                Ok(())
            }
            Err(e) => {
                self.refuse(e.to_string(), at);
                Err(e)
            }
        }
    }

    /// Undoes the last edit; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        self.end_gesture();
        let undone = self.level.edit(|l| self.history.undo(l));
        match undone {
            Ok(true) => {
                self.redo_states.push(self.state);
                self.state = self.undo_states.pop().unwrap_or(0);
                self.after_history();
                true
            }
            Ok(false) => false,
            Err(e) => {
                // Cannot happen with inverses built by `apply`; reported, never half-applied.
                self.report(format!("undo failed: {e}"), true);
                false
            }
        }
    }

    /// Redoes the last undone edit; returns whether there was one.
    pub fn redo(&mut self) -> bool {
        self.end_gesture();
        let redone = self.level.edit(|l| self.history.redo(l));
        match redone {
            Ok(true) => {
                self.undo_states.push(self.state);
                self.state = self.redo_states.pop().unwrap_or(0);
                self.after_history();
                true
            }
            Ok(false) => false,
            Err(e) => {
                self.report(format!("redo failed: {e}"), true);
                false
            }
        }
    }

    fn after_history(&mut self) {
        self.changed();
        self.message = None;
        self.prune_selection();
    }

    /// Drops selected indices that no longer exist.
    fn prune_selection(&mut self) {
        let level = self.level.read();
        self.selection
            .polygons
            .retain(|&p| p < level.polygons.len());
        self.selection
            .vertices
            .retain(|&(p, v)| level.polygons.get(p).is_some_and(|q| v < q.points.len()));
        drop(level);
        self.prune_object_selection();
    }

    /// Refuses what the designer asked: `text`, the reason, shown at `at` as an error.
    pub(super) fn refuse(&mut self, text: impl Into<String>, at: DVec2) {
        self.message = Some(Message {
            text: text.into(),
            at,
            error: true,
        });
    }

    fn report(&mut self, text: String, error: bool) {
        let at = self
            .message
            .as_ref()
            .map_or(self.level.read().spawn, |m| m.at);
        self.message = Some(Message { text, at, error });
    }

    // ----- pointer -----

    /// The primary button went down at `p`: the active tool's press ([`ToolBehaviour::press`]).
    pub fn press(&mut self, p: DVec2, radius: f64, mods: Modifiers) {
        self.message = None;
        self.press_at = Some(p);
        let press = Press {
            at: p,
            snapped: self.grid.snap(p),
            radius,
            mods,
        };
        self.tool.behaviour().press(self, press);
    }

    /// A key for the active tool (Enter, Backspace, Escape); returns whether it took it (else the
    /// key keeps the editor's meaning: delete the selection, clear it).
    pub fn tool_key(&mut self, key: ToolKey, cursor: DVec2) -> bool {
        self.tool.behaviour().key(self, key, cursor)
    }

    /// What the active tool shows over the view with the pointer at `pointer` (see
    /// [`ToolBehaviour::sketch`]).
    pub fn tool_sketch(&self, pointer: Option<DVec2>) -> Vec<Sketch> {
        self.tool.behaviour().sketch(self, pointer)
    }

    /// The active tool's settings, if it has any (see [`ToolBehaviour::panel`]).
    pub fn tool_panel(&mut self) -> Option<ToolPanel<'_>> {
        self.tool.behaviour().panel(self)
    }

    /// The active tool's panel changed its setting `field` (see
    /// [`ToolBehaviour::panel_changed`]).
    pub fn tool_panel_changed(&mut self, field: &'static str) {
        self.tool.behaviour().panel_changed(self, field)
    }

    /// The pointer moved to `p` with the button down.
    pub fn drag(&mut self, p: DVec2) {
        if self.press_at == Some(p) {
            // The button is held but the pointer has not moved: not a drag yet.
            return;
        }
        self.press_at = None;
        let grid = self.grid;
        match std::mem::replace(&mut self.gesture, Gesture::None) {
            Gesture::Vertices {
                polygon,
                vertices,
                grab,
                offset,
            } => {
                let target = grid.snap(p - offset);
                let mut grab_now = grab;
                if target != grab {
                    let edit = Edit::MoveVertices {
                        polygon,
                        vertices: vertices.clone(),
                        delta: target - grab,
                    };
                    if self.run(edit, p, true).is_ok() {
                        grab_now = self.level.read().polygons[polygon].points[vertices[0]];
                    }
                }
                self.gesture = Gesture::Vertices {
                    polygon,
                    vertices,
                    grab: grab_now,
                    offset,
                };
            }
            Gesture::Polygons {
                polygons,
                grab,
                offset,
            } => {
                let target = grid.snap(p - offset);
                let mut grab_now = grab;
                if target != grab {
                    let edit = Edit::MovePolygons {
                        polygons: polygons.clone(),
                        delta: target - grab,
                    };
                    if self.run(edit, p, true).is_ok() {
                        grab_now = self.level.read().polygons[polygons[0]].points[0];
                    }
                }
                self.gesture = Gesture::Polygons {
                    polygons,
                    grab: grab_now,
                    offset,
                };
            }
            Gesture::Spawn { offset } => {
                let to = grid.snap(p - offset);
                if to != self.level.read().spawn {
                    // The spawn is one value: a plain edit per step; undo restores each step.
                    let _ = self.run(Edit::MoveSpawn { to }, p, false);
                }
                self.gesture = Gesture::Spawn { offset };
            }
            Gesture::Band { from, add, .. } => {
                let to = if self.tool.behaviour().band_snaps() {
                    grid.snap(p)
                } else {
                    p
                };
                self.gesture = Gesture::Band { from, to, add };
            }
            g @ Gesture::Tiles { .. } => {
                self.gesture = g;
                self.paint_tile(p);
            }
            Gesture::Object { what, grab, offset } => self.drag_object(what, grab, offset, p),
            Gesture::Link { source, from, .. } => {
                self.gesture = Gesture::Link {
                    source,
                    from,
                    to: p,
                    moved: true,
                }
            }
            Gesture::None => {}
        }
    }

    /// The button went up at `p`.
    pub fn release(&mut self, p: DVec2) {
        self.drag(p);
        self.press_at = None;
        match std::mem::replace(&mut self.gesture, Gesture::None) {
            Gesture::Band { from, to, add } => {
                self.tool
                    .behaviour()
                    .band(self, Aabb::from_points([from, to]), p, add);
            }
            Gesture::Link {
                source,
                moved: true,
                ..
            } => self.link(source, p),
            _ => self.history.end_drag(),
        }
    }

    fn end_gesture(&mut self) {
        self.gesture = Gesture::None;
        self.history.end_drag();
    }

    pub(super) fn select_only_polygon(&mut self, polygon: usize) {
        self.selection.clear();
        self.selection.polygons.insert(polygon);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Ladder;
    use crate::level::LevelPolygon;
    use crate::level::PolygonKind;

    pub(super) fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    pub(super) fn level() -> Level {
        Level {
            polygons: vec![
                LevelPolygon::solid(vec![p(0., 0.), p(4., 0.), p(4., 1.), p(0., 1.)]),
                LevelPolygon::solid(vec![p(6., 0.), p(8., 0.), p(8., 2.), p(6., 2.)]),
            ],
            ladders: vec![Ladder {
                min: p(10., 0.),
                max: p(11., 4.),
            }],
            spawn: p(1., 3.),
            ..Level::empty("t")
        }
    }

    fn session() -> EditorSession {
        EditorSession::new(level(), Some(PathBuf::from("unused.ron")))
    }

    pub(super) const R: f64 = 0.1;
    pub(super) const NONE: Modifiers = Modifiers {
        shift: false,
        ctrl: false,
    };
    const SHIFT: Modifiers = Modifiers {
        shift: true,
        ctrl: false,
    };

    #[test]
    fn picking_prefers_vertices_then_spawn_then_edges_then_insides() {
        let s = session();
        assert_eq!(
            s.pick(p(4.05, 0.98), R),
            Some(Hit::Vertex {
                polygon: 0,
                vertex: 2
            })
        );
        assert_eq!(s.pick(p(1.02, 3.0), R), Some(Hit::Spawn));
        assert_eq!(
            s.pick(p(2.0, 1.05), R),
            Some(Hit::Edge {
                polygon: 0,
                edge: 2,
                point: p(2.0, 1.0)
            })
        );
        assert_eq!(s.pick(p(7., 1.), R), Some(Hit::Polygon(1)));
        assert!(
            matches!(s.pick(p(10.5, 2.), R), Some(Hit::Object(g)) if g.object == ObjectRef::new("ladder", 0)),
            "a ladder is picked behind the polygons"
        );
        assert_eq!(s.pick(p(20., 20.), R), None);
    }

    #[test]
    fn dragging_a_vertex_snaps_to_the_grid_and_undoes_in_one_step() {
        let mut s = session();
        s.press(p(4.02, 1.01), R, NONE);
        s.drag(p(4.3, 1.1));
        s.drag(p(4.52, 1.49));
        s.release(p(4.52, 1.49));
        assert_eq!(s.level().polygons[0].points[2], p(4.5, 1.5));
        assert!(s.dirty());
        assert_eq!(s.history().undo_len(), 1, "the drag is one undo step");
        assert!(s.undo());
        assert_eq!(*s.level(), level());
        assert!(!s.dirty(), "back at the saved state");
        assert!(s.redo());
        assert_eq!(s.level().polygons[0].points[2], p(4.5, 1.5));
    }

    /// Regression (found in the window at 836859b): a click on a path node or vertex off the
    /// grid moved it onto the grid and marked the level modified. The view calls `drag` on every
    /// frame the button is held, and `release` drags to the release point, both at the press
    /// point for a click; the grab point snapped there was a move. A drag now starts when the
    /// pointer first leaves the press point.
    #[test]
    fn a_click_on_an_off_grid_vertex_leaves_it_where_it_is() {
        let mut l = level();
        l.polygons[0].points[2] = p(4.02, 1.01);
        let mut s = EditorSession::new(l.clone(), Some(PathBuf::from("unused.ron")));
        s.press(p(4.02, 1.01), R, NONE);
        s.drag(p(4.02, 1.01));
        s.drag(p(4.02, 1.01));
        s.release(p(4.02, 1.01));
        assert_eq!(*s.level(), l);
        assert!(!s.dirty());
        assert_eq!(s.history().undo_len(), 0);
        // Moving off the press point is a drag, snapped as before.
        s.press(p(4.02, 1.01), R, NONE);
        s.drag(p(4.3, 1.1));
        s.release(p(4.52, 1.49));
        assert_eq!(s.level().polygons[0].points[2], p(4.5, 1.5));
    }

    #[test]
    fn a_drag_that_would_cross_an_edge_stops_at_the_last_valid_position_with_a_message() {
        let mut s = session();
        s.press(p(4., 1.), R, NONE);
        s.drag(p(4., 0.5));
        assert_eq!(s.level().polygons[0].points[2], p(4., 0.5));
        // Down through the bottom edge: self-intersecting, refused.
        s.drag(p(2., -1.));
        assert_eq!(s.level().polygons[0].points[2], p(4., 0.5));
        let m = s.message().expect("a message at the cursor");
        assert!(m.error && m.at == p(2., -1.), "{m:?}");
        assert!(m.text.contains("polygon 0"), "{}", m.text);
        s.release(p(2., -1.));
        s.level().validate().unwrap();
    }

    #[test]
    fn polygons_move_as_a_selection_and_shift_adds() {
        let mut s = session();
        s.press(p(1., 0.5), R, NONE);
        s.release(p(1., 0.5));
        s.press(p(7., 1.), R, SHIFT);
        s.release(p(7., 1.));
        assert_eq!(s.selection.polygons, BTreeSet::from([0, 1]));
        s.press(p(7., 1.), R, NONE);
        s.release(p(7., 2.));
        assert_eq!(s.level().polygons[0].points[0], p(0., 1.));
        assert_eq!(s.level().polygons[1].points[0], p(6., 1.));
        assert!(s.undo() && *s.level() == level());
    }

    #[test]
    fn box_select_takes_whole_polygons_and_loose_vertices() {
        let mut s = session();
        s.press(p(-1., -1.), R, NONE);
        s.drag(p(5., 0.5));
        assert!(s.band().is_some());
        s.release(p(5., 0.5));
        assert!(s.selection.polygons.is_empty());
        assert_eq!(s.selection.vertices, BTreeSet::from([(0, 0), (0, 1)]));
        s.press(p(-1., -1.), R, NONE);
        s.release(p(9., 3.));
        assert_eq!(s.selection.polygons, BTreeSet::from([0, 1]));
    }

    #[test]
    fn draw_close_on_first_point_and_undo_last_point() {
        let mut s = session();
        s.set_tool(Tool::Draw);
        for q in [p(0.02, 5.01), p(2.01, 5.), p(2., 7.1), p(9., 9.)] {
            s.press(q, R, NONE);
            s.release(q);
        }
        assert_eq!(s.drawing().len(), 4);
        assert!(s.undo_point());
        s.press(p(-0.03, 5.04), R, NONE);
        s.release(p(-0.03, 5.04));
        assert!(s.drawing().is_empty());
        let added = s.level().polygons.last().unwrap().clone();
        assert_eq!(added.points, vec![p(0., 5.), p(2., 5.), p(2., 7.)]);
        assert_eq!(s.selection.polygons, BTreeSet::from([2]));
        s.level().validate().unwrap();
    }

    #[test]
    fn a_self_intersecting_drawing_is_refused_and_kept_for_fixing() {
        let mut s = session();
        s.set_tool(Tool::Draw);
        for q in [p(0., 5.), p(2., 7.), p(2., 5.), p(0., 7.)] {
            s.press(q, R, NONE);
        }
        s.finish_drawing(p(0., 7.));
        assert_eq!(*s.level(), level());
        assert_eq!(s.drawing().len(), 4);
        assert!(s.message().unwrap().error);
    }

    #[test]
    fn ctrl_click_on_an_edge_inserts_a_snapped_vertex() {
        let mut s = session();
        s.press(
            p(2.07, 1.03),
            R,
            Modifiers {
                shift: false,
                ctrl: true,
            },
        );
        s.release(p(2.07, 1.03));
        assert_eq!(s.level().polygons[0].points.len(), 5);
        assert_eq!(s.level().polygons[0].points[3], p(2., 1.));
        assert_eq!(s.selection.vertices, BTreeSet::from([(0, 3)]));
    }

    #[test]
    fn brushes_ladders_spawn_and_hero_requests() {
        let mut s = session();
        s.set_tool(Tool::BoxBrush);
        s.press(p(0.1, 10.1), R, NONE);
        s.release(p(2.9, 11.1));
        assert_eq!(
            s.level().polygons[2].points,
            vec![p(0., 10.), p(3., 10.), p(3., 11.), p(0., 11.)]
        );
        s.set_tool(Tool::TileBrush);
        s.press(p(20.1, 0.1), R, NONE);
        s.drag(p(20.2, 0.1)); // The same cell: painted once.
        s.drag(p(20.4, 0.1));
        s.release(p(20.4, 0.1));
        assert_eq!(s.level().polygons.len(), 5);
        assert_eq!(s.level().polygons[4].points[0], p(20.25, 0.));
        s.set_tool(Tool::Place("ladder"));
        s.press(p(12., 0.), R, NONE);
        s.release(p(12.5, 3.));
        assert_eq!(s.level().ladders.len(), 2);
        s.set_tool(Tool::Spawn);
        s.press(p(3.1, 4.1), R, NONE);
        assert_eq!(s.level().spawn, p(3., 4.));
        s.set_tool(Tool::PlaceHero);
        s.press(p(3.1, 4.1), R, NONE);
        // Snapped like every placement.
        assert_eq!(s.take_requests(), vec![Request::PlaceHero(p(3., 4.))]);
        s.level().validate().unwrap();
        while s.undo() {}
        assert_eq!(*s.level(), level());
    }

    #[test]
    fn delete_copy_paste_rotate_scale_and_kind() {
        let mut s = session();
        s.press(p(7., 1.), R, NONE);
        s.release(p(7., 1.));
        assert_eq!(s.copy(), 1);
        s.paste(p(20., 20.));
        assert_eq!(s.level().polygons.len(), 3);
        assert_eq!(s.level().polygons[2].points[0], p(19., 19.));
        assert_eq!(s.selection.polygons, BTreeSet::from([2]));
        s.rotate_selection(90.0);
        s.scale_selection(DVec2::new(2.0, 1.0));
        s.set_kind(PolygonKind::OneWay);
        assert_eq!(s.level().polygons[2].kind, PolygonKind::OneWay);
        s.delete_selection();
        assert_eq!(s.level().polygons.len(), 2);
        // Deleting 2 of a quad's 4 vertices would leave a degenerate polygon: refused.
        s.selection.vertices.extend([(0, 0), (0, 1)]);
        s.delete_selection();
        assert_eq!(s.level().polygons[0].points.len(), 2 + 2);
        assert!(s.message().is_some());
        s.level().validate().unwrap();
        while s.undo() {}
        assert_eq!(*s.level(), level());
    }
}
