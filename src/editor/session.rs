//! The editing session: the document, its history and file, the selection, the active tool and
//! the gesture under way, driven by pointer and key events in level coordinates.
//!
//! Everything here is plain data and pure logic: the egui panels ([`super::ui`]) turn screen
//! events into the calls below (through the camera's ray against the level plane) and draw what
//! the session exposes. The object tools (agents, movers, doors, switches) and their gestures
//! are in the child module `objects_tools`. So every interaction (click, box select, drag, draw and close, brushes,
//! copy and paste) is unit-tested without a window.
//!
//! # Tolerances
//! - Picking uses a radius in metres the caller derives from the view (a few pixels at the current
//!   zoom), so that handles are as easy to hit zoomed in as zoomed out. Nothing of the document
//!   depends on it: it only chooses *what* an event acts on.
//! - Positions that end up in the document are either snapped to exact grid points ([`Grid`]) or
//!   the pointer's own coordinates; the edit's checks ([`apply`](super::apply)) decide whether
//!   they are allowed.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use glam::DVec2;

use super::history::History;
use super::objects::{self, AgentTemplate, Grab, ObjectRef};
use super::ops::{Edit, EditError};
use super::snap::Grid;
use crate::collision::{Aabb, PolygonKind};
mod objects_tools;

use crate::level::{
    find_comments, load_level, save_level, FileError, Ladder, Level, LevelError, LevelPolygon,
    SavePlaces, SaveTarget,
};

/// What a click or drag in the view does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Select and move vertices, polygons, ladders and the spawn; box-select on empty space;
    /// Ctrl-click on an edge inserts a vertex.
    Select,
    /// Click points of a new polygon; click the first point (or press Enter) to close it.
    Draw,
    /// Drag a rectangle: a new box polygon.
    BoxBrush,
    /// Click or drag over grid cells: one square polygon per cell (the grid's size).
    TileBrush,
    /// Drag a rectangle: a new ladder.
    Ladder,
    /// Click: the spawn point goes there.
    Spawn,
    /// Click: the hero is put there (play-test from the cursor).
    PlaceHero,
    /// Click: a new agent of the [`AgentTemplate`]'s kind, size and facing, feet at the click.
    Agent,
    /// Drag a rectangle: a new mover (a platform with a two-node path; drag its nodes with
    /// Select).
    Mover,
    /// Drag a rectangle: a new closed door.
    Door,
    /// Click a door to pick it, then drag a rectangle: that door's switch region.
    Switch,
}

impl Tool {
    /// Every tool, in toolbar order.
    pub const ALL: [Tool; 11] = [
        Tool::Select,
        Tool::Draw,
        Tool::BoxBrush,
        Tool::TileBrush,
        Tool::Ladder,
        Tool::Spawn,
        Tool::Agent,
        Tool::Mover,
        Tool::Door,
        Tool::Switch,
        Tool::PlaceHero,
    ];

    /// Whether it places or links objects (agents, movers, doors, switches): the toolbar lists
    /// these in its Objects menu.
    pub fn is_object(self) -> bool {
        matches!(self, Tool::Agent | Tool::Mover | Tool::Door | Tool::Switch)
    }

    /// The toolbar label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Draw => "Draw",
            Tool::BoxBrush => "Box",
            Tool::TileBrush => "Tiles",
            Tool::Ladder => "Ladder",
            Tool::Spawn => "Spawn",
            Tool::PlaceHero => "Hero here",
            Tool::Agent => "Agent",
            Tool::Mover => "Mover",
            Tool::Door => "Door",
            Tool::Switch => "Switch",
        }
    }
}

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
    /// Inside a ladder.
    Ladder(usize),
    /// An object: an agent, a mover or a path node of one, a door or its switch.
    Object(Grab),
    /// A mover's path segment `segment` (node `segment` to the next), at `point`.
    PathSegment {
        mover: usize,
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
    /// A ladder.
    pub ladder: Option<usize>,
    /// An agent, mover or door.
    pub object: Option<ObjectRef>,
    /// The selected node of the selected mover's path.
    pub node: Option<usize>,
}

impl Selection {
    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.polygons.is_empty()
            && self.vertices.is_empty()
            && self.ladder.is_none()
            && self.object.is_none()
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
    Ladder {
        index: usize,
        grab: DVec2,
        offset: DVec2,
    },
    /// A rubber band from `from` to `to` (box select, box brush, ladder).
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
}

/// What a save did, or why it wrote nothing and what the caller must ask the user.
///
/// A save never writes into the game's install directory (a level shipped in an unpacked archive:
/// its user's copy is written instead), and never silently drops comments: the editor writes the
/// level from its document, so a file on disk that holds comments (`//`, `/* */`) is replaced
/// only after the user agreed ([`EditorSession::allow_dropping_comments`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    /// Written to this file (the session's file from now on).
    Written(PathBuf),
    /// `shipped` ships with the game and was left as it was; the level was written to the user's
    /// `copy`, which is the session's file from now on.
    Copied {
        /// The shipped level.
        shipped: PathBuf,
        /// The user's copy, written.
        copy: PathBuf,
    },
    /// Nothing written: the document has no file yet (ask for one, then [`EditorSession::save_as`]).
    NeedsPath,
    /// Nothing written: `shipped` ships with the game, and its copy in the user's directory
    /// already exists (from an earlier session: replacing it could lose that work), or there is
    /// no user directory (`copy` is `None`). Ask for a path, suggesting `copy`.
    ShippedNeedsPath {
        /// The shipped level.
        shipped: PathBuf,
        /// The suggested path: the user's copy.
        copy: Option<PathBuf>,
    },
    /// Nothing written: `path` holds comments that the save would drop. Ask: save anyway
    /// ([`EditorSession::allow_dropping_comments`], then save again), save as another file, or
    /// cancel.
    WouldDropComments {
        /// The file that would be replaced.
        path: PathBuf,
        /// How many comments it holds.
        comments: usize,
        /// The line of the first one.
        first_line: usize,
    },
}

/// Something the session asks of the game around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Request {
    /// Put the hero at this point (nearest free point) and keep the simulation paused.
    PlaceHero(DVec2),
}

/// An edit under the editor's control: document, history, file, selection and tools.
#[derive(Clone, Debug)]
pub struct EditorSession {
    level: Level,
    history: History,
    path: Option<PathBuf>,
    /// Identifies the document's current state: a fresh number after each edit, the earlier number
    /// after an undo. `saved` is the state on disk.
    state: u64,
    next_state: u64,
    undo_states: Vec<u64>,
    redo_states: Vec<u64>,
    saved: Option<u64>,
    /// Bumped by every change of the document (edit, undo, redo, open): the game rebuilds its
    /// world and meshes when it differs from the last one it saw.
    revision: u64,
    /// The selection.
    pub selection: Selection,
    /// The active tool.
    pub tool: Tool,
    /// Grid snapping (toggle and size).
    pub grid: Grid,
    /// What the agent tool places.
    pub agent_template: AgentTemplate,
    drawing: Vec<DVec2>,
    gesture: Gesture,
    message: Option<Message>,
    clipboard: Vec<LevelPolygon>,
    /// A copied object; when set, it is what pastes (a copy of polygons clears it).
    object_clipboard: Option<objects::ObjectClip>,
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
    /// A session on `level`, saved at `path` (`None`: never saved; save asks for a path).
    pub fn new(level: Level, path: Option<PathBuf>) -> Self {
        EditorSession {
            level,
            history: History::default(),
            saved: path.as_ref().map(|_| 0),
            path,
            state: 0,
            next_state: 1,
            undo_states: Vec::new(),
            redo_states: Vec::new(),
            revision: 0,
            selection: Selection::default(),
            tool: Tool::Select,
            grid: Grid::new(DEFAULT_GRID).expect("the default grid size is valid"),
            agent_template: AgentTemplate::default(),
            drawing: Vec::new(),
            gesture: Gesture::None,
            message: None,
            clipboard: Vec::new(),
            object_clipboard: None,
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

    /// The document.
    pub fn level(&self) -> &Level {
        &self.level
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
    /// The rubber band being dragged, if any (for drawing).
    pub fn band(&self) -> Option<Aabb> {
        match self.gesture {
            Gesture::Band { from, to, .. } => Some(rect(from, to)),
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
            self.history.apply_drag(&mut self.level, edit)
        } else {
            self.history.apply(&mut self.level, edit)
        };
        match r {
            Ok(()) => {
                if self.history.undo_len() > before {
                    self.undo_states.push(self.state);
                }
                self.redo_states.clear();
                self.state = self.next_state;
                self.next_state += 1;
                self.revision += 1;
                self.message = None;
                Ok(())
            }
            Err(e) => {
                self.message = Some(Message {
                    text: e.to_string(),
                    at,
                    error: true,
                });
                Err(e)
            }
        }
    }

    /// Undoes the last edit; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        self.end_gesture();
        match self.history.undo(&mut self.level) {
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
        match self.history.redo(&mut self.level) {
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
        self.revision += 1;
        self.message = None;
        self.prune_selection();
    }

    /// Drops selected indices that no longer exist.
    fn prune_selection(&mut self) {
        let level = &self.level;
        self.selection
            .polygons
            .retain(|&p| p < level.polygons.len());
        self.selection
            .vertices
            .retain(|&(p, v)| level.polygons.get(p).is_some_and(|q| v < q.points.len()));
        if self
            .selection
            .ladder
            .is_some_and(|l| l >= level.ladders.len())
        {
            self.selection.ladder = None;
        }
        self.prune_object_selection();
    }

    fn report(&mut self, text: String, error: bool) {
        let at = self.message.as_ref().map_or(self.level.spawn, |m| m.at);
        self.message = Some(Message { text, at, error });
    }

    // ----- files -----

    /// Saves to the session's file (atomically; an invalid level is never written); see
    /// [`SaveOutcome`] for what is written where, and when nothing is.
    pub fn save(&mut self) -> Result<SaveOutcome, LevelError> {
        match self.path.clone() {
            Some(p) => self.save_as(&p),
            None => Ok(SaveOutcome::NeedsPath),
        }
    }

    /// Saves to `path` and makes it the session's file: unless `path` ships with the game (then
    /// its user's copy), and not over a file holding comments the user has not agreed to drop
    /// (see [`SaveOutcome`]).
    pub fn save_as(&mut self, path: &Path) -> Result<SaveOutcome, LevelError> {
        let places = self.save_places.get_or_insert_with(SavePlaces::resolve);
        let (target, shipped) = match places.target(path) {
            SaveTarget::InPlace => (path.to_path_buf(), None),
            SaveTarget::Copy(copy) => {
                if copy.exists() && !self.copies_written.contains(&copy) {
                    return Ok(SaveOutcome::ShippedNeedsPath {
                        shipped: path.to_path_buf(),
                        copy: Some(copy),
                    });
                }
                (copy, Some(path.to_path_buf()))
            }
            SaveTarget::NoPlace => {
                return Ok(SaveOutcome::ShippedNeedsPath {
                    shipped: path.to_path_buf(),
                    copy: None,
                })
            }
        };
        if self.drop_comments_ok.as_deref() != Some(target.as_path()) {
            // A file that cannot be read is not checked: writing it reports the real problem.
            if let Ok(text) = std::fs::read_to_string(&target) {
                let comments = find_comments(&text);
                if let Some(first) = comments.first() {
                    return Ok(SaveOutcome::WouldDropComments {
                        path: target,
                        comments: comments.len(),
                        first_line: first.line,
                    });
                }
            }
        }
        if shipped.is_some() {
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|error| {
                    LevelError::File(FileError::Write {
                        path: target.clone(),
                        error,
                    })
                })?;
            }
        }
        save_level(&target, &self.level)?;
        self.path = Some(target.clone());
        self.saved = Some(self.state);
        Ok(match shipped {
            Some(shipped) => {
                self.copies_written.insert(target.clone());
                SaveOutcome::Copied {
                    shipped,
                    copy: target,
                }
            }
            None => SaveOutcome::Written(target),
        })
    }

    /// The user agreed that saving over `path` drops its comments: the next save to it writes.
    pub fn allow_dropping_comments(&mut self, path: &Path) {
        self.drop_comments_ok = Some(path.to_path_buf());
    }

    /// Opens `path` in place of the document (the history is cleared). On error nothing
    /// changes.
    pub fn open(&mut self, path: &Path) -> Result<(), LevelError> {
        let level = load_level(path)?;
        self.replace(level, Some(path.to_path_buf()), true);
        Ok(())
    }

    /// Replaces the document (a restored recovery file: `saved` false keeps it marked unsaved).
    pub fn replace(&mut self, level: Level, path: Option<PathBuf>, saved: bool) {
        self.level = level;
        self.path = path;
        self.history.clear();
        self.undo_states.clear();
        self.redo_states.clear();
        self.state = self.next_state;
        self.next_state += 1;
        self.saved = saved.then_some(self.state);
        self.revision += 1;
        self.selection.clear();
        self.drawing.clear();
        self.gesture = Gesture::None;
        self.message = None;
    }

    // ----- picking -----

    /// What is under `p`, with handles within `radius` metres.
    pub fn pick(&self, p: DVec2, radius: f64) -> Option<Hit> {
        let level = &self.level;
        let mut best: Option<(f64, Hit)> = None;
        for (pi, poly) in level.polygons.iter().enumerate() {
            if !near_box(poly, p, radius) {
                continue;
            }
            for (vi, &v) in poly.points.iter().enumerate() {
                let d = v.distance(p);
                if d <= radius && best.is_none_or(|(b, _)| d < b) {
                    best = Some((
                        d,
                        Hit::Vertex {
                            polygon: pi,
                            vertex: vi,
                        },
                    ));
                }
            }
        }
        if best.is_some() {
            return best.map(|(_, h)| h);
        }
        if let Some(g) = objects::pick_handle(level, p, radius) {
            return Some(Hit::Object(g));
        }
        if level.spawn.distance(p) <= radius {
            return Some(Hit::Spawn);
        }
        for (pi, poly) in level.polygons.iter().enumerate() {
            if !near_box(poly, p, radius) {
                continue;
            }
            let n = poly.points.len();
            for e in 0..n {
                let (a, b) = (poly.points[e], poly.points[(e + 1) % n]);
                let q = closest_on_segment(a, b, p);
                let d = q.distance(p);
                if d <= radius && best.is_none_or(|(b, _)| d < b) {
                    best = Some((
                        d,
                        Hit::Edge {
                            polygon: pi,
                            edge: e,
                            point: q,
                        },
                    ));
                }
            }
        }
        if best.is_some() {
            return best.map(|(_, h)| h);
        }
        if let Some((mover, segment, point)) = objects::pick_path_segment(level, p, radius) {
            return Some(Hit::PathSegment {
                mover,
                segment,
                point,
            });
        }
        if let Some(g) = objects::pick_inside(level, p) {
            return Some(Hit::Object(g));
        }
        if let Some(pi) = (0..level.polygons.len())
            .rev()
            .find(|&i| inside(&level.polygons[i].points, p))
        {
            return Some(Hit::Polygon(pi));
        }
        (0..level.ladders.len())
            .rev()
            .find(|&i| level.ladders[i].aabb().contains(p))
            .map(Hit::Ladder)
    }

    // ----- pointer -----

    /// The primary button went down at `p`.
    pub fn press(&mut self, p: DVec2, radius: f64, mods: Modifiers) {
        self.message = None;
        let snapped = self.grid.snap(p);
        match self.tool {
            Tool::Select => self.press_select(p, radius, mods),
            Tool::Draw => self.click_draw(snapped, radius),
            Tool::BoxBrush | Tool::Ladder => {
                self.gesture = Gesture::Band {
                    from: snapped,
                    to: snapped,
                    add: false,
                }
            }
            Tool::TileBrush => {
                self.gesture = Gesture::Tiles {
                    cells: BTreeSet::new(),
                };
                self.paint_tile(p);
            }
            Tool::Spawn => {
                let _ = self.edit(Edit::MoveSpawn { to: snapped }, p);
            }
            Tool::PlaceHero => self.requests.push(Request::PlaceHero(p)),
            Tool::Agent | Tool::Mover | Tool::Door | Tool::Switch => {
                self.press_object_tool(p, snapped, radius)
            }
        }
    }

    fn press_select(&mut self, p: DVec2, radius: f64, mods: Modifiers) {
        let hit = self.pick(p, radius);
        let sel = &mut self.selection;
        match hit {
            Some(Hit::Edge {
                polygon,
                edge,
                point,
            }) if mods.ctrl => {
                let point = if self.grid.enabled {
                    self.grid.snap(point)
                } else {
                    point
                };
                if self
                    .edit(
                        Edit::InsertVertex {
                            polygon,
                            edge,
                            point,
                        },
                        p,
                    )
                    .is_ok()
                {
                    self.selection.clear();
                    self.selection.vertices.insert((polygon, edge + 1));
                }
            }
            Some(Hit::Vertex { polygon, vertex }) => {
                if mods.shift {
                    if !sel.vertices.remove(&(polygon, vertex)) {
                        sel.vertices.insert((polygon, vertex));
                    }
                    return;
                }
                if !sel.vertices.contains(&(polygon, vertex)) {
                    sel.clear();
                    sel.vertices.insert((polygon, vertex));
                }
                let vertices: Vec<usize> = sel
                    .vertices
                    .iter()
                    .filter(|&&(q, _)| q == polygon)
                    .map(|&(_, v)| v)
                    .collect();
                let grab = self.level.polygons[polygon].points[vertex];
                self.gesture = Gesture::Vertices {
                    polygon,
                    vertices,
                    grab,
                    offset: p - grab,
                };
            }
            Some(Hit::Spawn) => {
                self.gesture = Gesture::Spawn {
                    offset: p - self.level.spawn,
                };
            }
            Some(Hit::Edge { polygon, .. }) | Some(Hit::Polygon(polygon)) => {
                if mods.shift {
                    if !sel.polygons.remove(&polygon) {
                        sel.polygons.insert(polygon);
                    }
                    return;
                }
                if !sel.polygons.contains(&polygon) {
                    sel.clear();
                    sel.polygons.insert(polygon);
                }
                let grab = self.level.polygons[polygon].points[0];
                self.gesture = Gesture::Polygons {
                    polygons: sel.polygons.iter().copied().collect(),
                    grab,
                    offset: p - grab,
                };
            }
            Some(Hit::Object(what)) => self.grab_object(what, p),
            Some(Hit::PathSegment {
                mover,
                segment,
                point,
            }) => self.press_path_segment(mover, segment, point, p, mods),
            Some(Hit::Ladder(index)) => {
                if !mods.shift {
                    sel.clear();
                }
                sel.ladder = Some(index);
                let grab = self.level.ladders[index].min;
                self.gesture = Gesture::Ladder {
                    index,
                    grab,
                    offset: p - grab,
                };
            }
            None => {
                if !mods.shift {
                    sel.clear();
                }
                self.gesture = Gesture::Band {
                    from: p,
                    to: p,
                    add: mods.shift,
                };
            }
        }
    }

    /// The pointer moved to `p` with the button down.
    pub fn drag(&mut self, p: DVec2) {
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
                        grab_now = self.level.polygons[polygon].points[vertices[0]];
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
                        grab_now = self.level.polygons[polygons[0]].points[0];
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
                if to != self.level.spawn {
                    // The spawn is one value: a plain edit per step; undo restores each step.
                    let _ = self.run(Edit::MoveSpawn { to }, p, false);
                }
                self.gesture = Gesture::Spawn { offset };
            }
            Gesture::Ladder {
                index,
                grab,
                offset,
            } => {
                let target = grid.snap(p - offset);
                let mut grab_now = grab;
                if target != grab
                    && self
                        .run(
                            Edit::MoveLadder {
                                index,
                                delta: target - grab,
                            },
                            p,
                            false,
                        )
                        .is_ok()
                {
                    grab_now = self.level.ladders[index].min;
                }
                self.gesture = Gesture::Ladder {
                    index,
                    grab: grab_now,
                    offset,
                };
            }
            Gesture::Band { from, add, .. } => {
                let to = if self.tool == Tool::Select {
                    p
                } else {
                    grid.snap(p)
                };
                self.gesture = Gesture::Band { from, to, add };
            }
            g @ Gesture::Tiles { .. } => {
                self.gesture = g;
                self.paint_tile(p);
            }
            Gesture::Object { what, grab, offset } => self.drag_object(what, grab, offset, p),
            Gesture::None => {}
        }
    }

    /// The button went up at `p`.
    pub fn release(&mut self, p: DVec2) {
        self.drag(p);
        match std::mem::replace(&mut self.gesture, Gesture::None) {
            Gesture::Band { from, to, add } => {
                let r = rect(from, to);
                match self.tool {
                    Tool::Select => self.select_in(r, add),
                    Tool::BoxBrush if r.min.x < r.max.x && r.min.y < r.max.y => {
                        let outline = vec![
                            r.min,
                            DVec2::new(r.max.x, r.min.y),
                            r.max,
                            DVec2::new(r.min.x, r.max.y),
                        ];
                        if self
                            .edit(
                                Edit::AddPolygon {
                                    polygon: LevelPolygon::solid(outline),
                                },
                                p,
                            )
                            .is_ok()
                        {
                            self.select_only_polygon(self.level.polygons.len() - 1);
                        }
                    }
                    Tool::Mover | Tool::Door | Tool::Switch => self.release_object_band(r, p),
                    Tool::Ladder if r.min.x < r.max.x && r.min.y < r.max.y => {
                        let ladder = Ladder {
                            min: r.min,
                            max: r.max,
                        };
                        if self.edit(Edit::AddLadder { ladder }, p).is_ok() {
                            self.selection.clear();
                            self.selection.ladder = Some(self.level.ladders.len() - 1);
                        }
                    }
                    _ => {}
                }
            }
            _ => self.history.end_drag(),
        }
    }

    fn end_gesture(&mut self) {
        self.gesture = Gesture::None;
        self.history.end_drag();
    }

    fn select_in(&mut self, r: Aabb, add: bool) {
        if !add {
            self.selection.clear();
        }
        for (pi, poly) in self.level.polygons.iter().enumerate() {
            let inside: Vec<usize> = (0..poly.points.len())
                .filter(|&v| r.contains(poly.points[v]))
                .collect();
            if inside.len() == poly.points.len() {
                self.selection.polygons.insert(pi);
            } else {
                self.selection
                    .vertices
                    .extend(inside.into_iter().map(|v| (pi, v)));
            }
        }
    }

    fn select_only_polygon(&mut self, polygon: usize) {
        self.selection.clear();
        self.selection.polygons.insert(polygon);
    }

    fn paint_tile(&mut self, p: DVec2) {
        let s = self.grid.size();
        let cell = ((p.x / s).floor() as i64, (p.y / s).floor() as i64);
        let Gesture::Tiles { cells } = &mut self.gesture else {
            return;
        };
        if !cells.insert(cell) {
            return;
        }
        // A cell already covered by a polygon vertex-for-vertex is not painted twice.
        let (x0, y0) = (self.grid.coordinate(cell.0), self.grid.coordinate(cell.1));
        let (x1, y1) = (
            self.grid.coordinate(cell.0 + 1),
            self.grid.coordinate(cell.1 + 1),
        );
        let outline = vec![
            DVec2::new(x0, y0),
            DVec2::new(x1, y0),
            DVec2::new(x1, y1),
            DVec2::new(x0, y1),
        ];
        if self.level.polygons.iter().any(|q| q.points == outline) {
            return;
        }
        let _ = self.edit(
            Edit::AddPolygon {
                polygon: LevelPolygon::solid(outline),
            },
            p,
        );
    }

    // ----- drawing -----

    fn click_draw(&mut self, p: DVec2, radius: f64) {
        if let Some(&first) = self.drawing.first() {
            if self.drawing.len() >= 3 && first.distance(p) <= radius {
                self.finish_drawing(p);
                return;
            }
        }
        if self.drawing.last() == Some(&p) {
            return; // A double click on one point adds it once.
        }
        self.drawing.push(p);
    }

    /// Closes the polygon being drawn (Enter, or a click on its first point).
    pub fn finish_drawing(&mut self, at: DVec2) {
        if self.drawing.len() < 3 {
            self.report("a polygon needs at least 3 points".into(), true);
            return;
        }
        let polygon = LevelPolygon::solid(self.drawing.clone());
        if self.edit(Edit::AddPolygon { polygon }, at).is_ok() {
            self.drawing.clear();
            self.select_only_polygon(self.level.polygons.len() - 1);
        }
    }

    /// Removes the last point of the polygon being drawn (Backspace); returns whether there
    /// was one.
    pub fn undo_point(&mut self) -> bool {
        self.drawing.pop().is_some()
    }

    /// Drops the polygon being drawn (Escape).
    pub fn cancel_drawing(&mut self) {
        self.drawing.clear();
        self.gesture = Gesture::None;
    }

    // ----- selection commands -----

    /// Deletes the selected vertices, else the selected polygons, else the selected ladder.
    pub fn delete_selection(&mut self) {
        let at = self.selection_centre().unwrap_or(self.level.spawn);
        if !self.selection.vertices.is_empty() {
            // Polygons whose every vertex is selected go whole; per polygon otherwise.
            let mut by_poly: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
            for &(p, v) in &self.selection.vertices {
                by_poly.entry(p).or_default().push(v);
            }
            for (p, vs) in by_poly.into_iter().rev() {
                let _ = self.edit(
                    Edit::DeleteVertices {
                        polygon: p,
                        vertices: vs,
                    },
                    at,
                );
            }
        } else if !self.selection.polygons.is_empty() {
            let polygons = self.selection.polygons.iter().copied().collect();
            let _ = self.edit(Edit::DeletePolygons { polygons }, at);
        } else if let Some(index) = self.selection.ladder {
            let _ = self.edit(Edit::DeleteLadder { index }, at);
        } else if self.selection.object.is_some() {
            // A path node deleted keeps its mover selected.
            if self.delete_object() {
                return;
            }
        }
        self.selection.clear();
    }

    /// The polygons a transform acts on: the selected ones, and those of selected vertices.
    pub fn selected_polygons(&self) -> Vec<usize> {
        let mut s = self.selection.polygons.clone();
        s.extend(self.selection.vertices.iter().map(|&(p, _)| p));
        s.into_iter().collect()
    }

    /// The centre of the selection's bounding box.
    pub fn selection_centre(&self) -> Option<DVec2> {
        let mut pts = self
            .selected_polygons()
            .into_iter()
            .flat_map(|p| self.level.polygons[p].points.iter().copied())
            .peekable();
        pts.peek()?;
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for p in pts {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        Some((lo + hi) / 2.0)
    }

    /// Rotates the selected polygons by `degrees` about the selection's centre.
    pub fn rotate_selection(&mut self, degrees: f64) {
        let Some(pivot) = self.selection_centre() else {
            return self.report("select polygons to rotate".into(), true);
        };
        let polygons = self.selected_polygons();
        let _ = self.edit(
            Edit::Rotate {
                polygons,
                pivot,
                angle: degrees.to_radians(),
            },
            pivot,
        );
    }

    /// Scales the selected polygons by `factor` about the selection's centre.
    pub fn scale_selection(&mut self, factor: DVec2) {
        let Some(pivot) = self.selection_centre() else {
            return self.report("select polygons to scale".into(), true);
        };
        let polygons = self.selected_polygons();
        let _ = self.edit(
            Edit::Scale {
                polygons,
                pivot,
                factor,
            },
            pivot,
        );
    }

    /// Copies the selected polygons.
    pub fn copy(&mut self) -> usize {
        if self.copy_object() {
            return 1;
        }
        self.object_clipboard = None;
        self.clipboard = self
            .selected_polygons()
            .into_iter()
            .map(|p| self.level.polygons[p].clone())
            .collect();
        self.clipboard.len()
    }

    /// Pastes the copied polygons with their centre at `at` (snapped to the grid), and selects
    /// them.
    pub fn paste(&mut self, at: DVec2) {
        if self.paste_object(at) {
            return;
        }
        if self.clipboard.is_empty() {
            return self.report("nothing copied".into(), true);
        }
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for p in self.clipboard.iter().flat_map(|q| &q.points) {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        // Moved by a whole number of grid cells, so grid-aligned copies stay on the grid.
        let delta = self.grid.snap(at) - self.grid.snap((lo + hi) / 2.0);
        let polygons: Vec<LevelPolygon> = self
            .clipboard
            .iter()
            .map(|q| LevelPolygon {
                points: q.points.iter().map(|&p| p + delta).collect(),
                ..q.clone()
            })
            .collect();
        let n = polygons.len();
        if self.edit(Edit::AddPolygons { polygons }, at).is_ok() {
            let len = self.level.polygons.len();
            self.selection.clear();
            self.selection.polygons.extend(len - n..len);
        }
    }

    /// Sets the kind of every selected polygon (one undo step each).
    pub fn set_kind(&mut self, kind: PolygonKind) {
        let at = self.selection_centre().unwrap_or(self.level.spawn);
        for polygon in self.selected_polygons() {
            if self.level.polygons[polygon].kind != kind {
                let _ = self.edit(Edit::SetKind { polygon, kind }, at);
            }
        }
    }
}

fn rect(a: DVec2, b: DVec2) -> Aabb {
    Aabb {
        min: a.min(b),
        max: a.max(b),
    }
}

fn near_box(poly: &LevelPolygon, p: DVec2, radius: f64) -> bool {
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for &q in &poly.points {
        lo = lo.min(q);
        hi = hi.max(q);
    }
    p.x >= lo.x - radius && p.x <= hi.x + radius && p.y >= lo.y - radius && p.y <= hi.y + radius
}

/// The point of segment `a b` nearest to `p`.
pub fn closest_on_segment(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + d * ((p - a).dot(d) / len2).clamp(0.0, 1.0)
}

/// Whether `p` is inside the outline (even-odd rule; for picking only).
pub fn inside(points: &[DVec2], p: DVec2) -> bool {
    let mut c = false;
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
            c = !c;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn level() -> Level {
        Level {
            name: "t".into(),
            polygons: vec![
                LevelPolygon::solid(vec![p(0., 0.), p(4., 0.), p(4., 1.), p(0., 1.)]),
                LevelPolygon::solid(vec![p(6., 0.), p(8., 0.), p(8., 2.), p(6., 2.)]),
            ],
            ladders: vec![Ladder {
                min: p(10., 0.),
                max: p(11., 4.),
            }],
            doors: Vec::new(),
            agents: Vec::new(),
            movers: Vec::new(),
            spawn: p(1., 3.),
            checkpoints: Vec::new(),
            goal: None,
            reset_on_death: false,
            camera_bounds: None,
            bounds: None,
            tuning: Default::default(),
        }
    }

    fn session() -> EditorSession {
        EditorSession::new(level(), Some(PathBuf::from("unused.ron")))
    }

    const R: f64 = 0.1;
    const NONE: Modifiers = Modifiers {
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
        assert_eq!(s.pick(p(10.5, 2.), R), Some(Hit::Ladder(0)));
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
        assert_eq!(s.level(), &level());
        assert!(!s.dirty(), "back at the saved state");
        assert!(s.redo());
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
        assert!(s.undo() && s.level() == &level());
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
        let added = s.level().polygons.last().unwrap();
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
        assert_eq!(s.level(), &level());
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
        s.set_tool(Tool::Ladder);
        s.press(p(12., 0.), R, NONE);
        s.release(p(12.5, 3.));
        assert_eq!(s.level().ladders.len(), 2);
        s.set_tool(Tool::Spawn);
        s.press(p(3.1, 4.1), R, NONE);
        assert_eq!(s.level().spawn, p(3., 4.));
        s.set_tool(Tool::PlaceHero);
        s.press(p(3.1, 4.1), R, NONE);
        assert_eq!(s.take_requests(), vec![Request::PlaceHero(p(3.1, 4.1))]);
        s.level().validate().unwrap();
        while s.undo() {}
        assert_eq!(s.level(), &level());
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
        assert_eq!(s.level(), &level());
    }

    #[test]
    fn saving_clears_the_dirty_mark_and_open_replaces_the_document() {
        let d = std::env::temp_dir().join(format!("tessera-session-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join("l.ron");
        let mut s = EditorSession::new(level(), None);
        assert!(s.dirty(), "never saved");
        assert_eq!(s.save().unwrap(), SaveOutcome::NeedsPath, "no file yet");
        s.set_tool(Tool::Spawn);
        s.press(p(2., 4.), R, NONE);
        s.save_as(&path).unwrap();
        assert!(!s.dirty());
        let r = s.revision();
        s.undo();
        assert!(s.dirty() && s.revision() > r);
        s.open(&path).unwrap();
        assert!(!s.dirty() && !s.history().can_undo());
        assert_eq!(s.level().spawn, p(2., 4.));
        assert!(s.open(&d.join("missing.ron")).is_err());
        assert_eq!(s.level().spawn, p(2., 4.), "a failed open changes nothing");
        std::fs::remove_dir_all(&d).unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tessera-session-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A session on `path` (a copy of the shipped, commented default level) with one edit.
    fn edited(path: &Path, places: SavePlaces) -> EditorSession {
        let mut s = EditorSession::new(load_level(path).unwrap(), Some(path.to_path_buf()));
        s.set_save_places(places);
        s.edit(Edit::MoveSpawn { to: p(-5., 0.) }, p(0., 0.))
            .unwrap();
        s
    }

    fn shipped_default() -> String {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.ron"))
            .unwrap()
    }

    #[test]
    fn saving_over_comments_asks_first_and_writes_only_once_allowed() {
        let d = scratch("comments");
        let path = d.join("commented.ron");
        let text = shipped_default();
        std::fs::write(&path, &text).unwrap();
        let mut s = edited(&path, SavePlaces::default());
        let asked = s.save().unwrap();
        let SaveOutcome::WouldDropComments {
            path: at,
            comments,
            first_line,
        } = asked.clone()
        else {
            panic!("{asked:?}")
        };
        assert_eq!((at.as_path(), first_line), (path.as_path(), 1));
        assert_eq!(comments, crate::level::find_comments(&text).len());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "not rewritten"
        );
        assert!(s.dirty());
        // Saving as another commented file asks too; a file without comments is written.
        let other = d.join("other.ron");
        std::fs::write(
            &other,
            "/* mine */ (name: \"o\", polygons: [], spawn: (0.0, 0.0))",
        )
        .unwrap();
        assert!(matches!(
            s.save_as(&other).unwrap(),
            SaveOutcome::WouldDropComments { .. }
        ));
        assert_eq!(
            s.path(),
            Some(path.as_path()),
            "the file stays the session's"
        );
        // The user agrees: written, without comments; later saves do not ask again.
        s.allow_dropping_comments(&path);
        assert_eq!(s.save().unwrap(), SaveOutcome::Written(path.clone()));
        assert!(!s.dirty());
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(!crate::level::has_comments(&saved));
        assert_eq!(load_level(&path).unwrap().spawn, p(-5., 0.));
        s.edit(Edit::MoveSpawn { to: p(-6., 0.) }, p(0., 0.))
            .unwrap();
        assert_eq!(s.save().unwrap(), SaveOutcome::Written(path.clone()));
        // Agreement is per file: the other file still asks.
        assert!(matches!(
            s.save_as(&other).unwrap(),
            SaveOutcome::WouldDropComments { .. }
        ));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_shipped_level_of_an_unpacked_archive_is_saved_to_the_users_directory() {
        let d = scratch("archive");
        let archive = d.join("tessera-0.1.0-x86_64-linux");
        std::fs::create_dir_all(archive.join("levels")).unwrap();
        std::fs::write(archive.join("tessera"), "").unwrap();
        let shipped = archive.join("levels/default.ron");
        let text = shipped_default();
        std::fs::write(&shipped, &text).unwrap();
        let user = crate::level::UserDirs::at(d.join("user"));
        let places = SavePlaces {
            install: Some(archive.clone()),
            user_levels: Some(user.levels_dir()),
        };
        let copy = user.levels_dir().join("default.ron");

        let mut s = edited(&shipped, places.clone());
        // The shipped file is left alone, so its comments are not lost: no prompt.
        assert_eq!(
            s.save().unwrap(),
            SaveOutcome::Copied {
                shipped: shipped.clone(),
                copy: copy.clone()
            }
        );
        assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);
        assert_eq!(s.path(), Some(copy.as_path()));
        assert!(!s.dirty());
        assert_eq!(load_level(&copy).unwrap(), *s.level());
        // Later saves go to the copy.
        s.edit(Edit::MoveSpawn { to: p(-6., 0.) }, p(0., 0.))
            .unwrap();
        assert_eq!(s.save().unwrap(), SaveOutcome::Written(copy.clone()));
        assert_eq!(load_level(&copy).unwrap().spawn, p(-6., 0.));
        assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);

        // Another session on the shipped level: the copy exists (earlier work), so it asks for a
        // path, suggesting the copy, and writes nothing.
        let mut again = edited(&shipped, places.clone());
        assert_eq!(
            again.save().unwrap(),
            SaveOutcome::ShippedNeedsPath {
                shipped: shipped.clone(),
                copy: Some(copy.clone())
            }
        );
        assert_eq!(load_level(&copy).unwrap().spawn, p(-6., 0.));
        // Saving as the suggested copy (what the dialog does) replaces it.
        assert_eq!(
            again.save_as(&copy).unwrap(),
            SaveOutcome::Written(copy.clone())
        );
        assert_eq!(load_level(&copy).unwrap().spawn, p(-5., 0.));

        // No user directory: asks for a path.
        let mut nowhere = edited(
            &shipped,
            SavePlaces {
                user_levels: None,
                ..places
            },
        );
        assert_eq!(
            nowhere.save().unwrap(),
            SaveOutcome::ShippedNeedsPath {
                shipped: shipped.clone(),
                copy: None
            }
        );
        assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
