//! The editor's egui front end: the viewport (picking, handles, overlays) and the panels.
//!
//! # What it owns
//! - [`EditorUi`]: the [`EditorSession`] plus everything only the screen needs: the free camera,
//!   overlay toggles, the frame-time history, dialogs and the autosaver. [`EditorUi::show`] draws
//!   one frame of UI into an egui `Ui` and returns the [`Command`]s the game must carry out
//!   (run, pause, step, place the hero, tuning, quit). The level itself is changed only through
//!   the session's edits, in place, in the one level document the session shares with the
//!   game's world (`level::LevelDoc`); a frame that changed it returns [`Command::LevelEdited`]
//!   first, on which the world rebuilds what it derives from that document (nothing is copied
//!   and nothing compares revisions).
//! - [`view`]: screen ↔ level-plane mapping through the camera (a ray against `z = 0`).
//! - [`objects`]: the objects of every registered kind drawn over the view (each kind draws
//!   itself through the `Pen` implemented there) with the hover highlight of a part, the active
//!   tool's settings, the selected object's panel (its kind's, through the `PanelUi` implemented
//!   there) and the time preview of moving objects.
//! - [`panels`]: one file per panel (the toolbar and status bar, the left panel, the selection,
//!   the dialogs), one small function per section.
//! - [`solve`]: the Solve button's search on a thread of its own (and the one after a save),
//!   its route and narrowest windows drawn over the view.
//!
//! # Must never depend on
//! wgpu or winit: egui is drawn by whoever hosts it (the game window, or `egui_kittest` in the
//! tests). The simulation never imports this.
pub mod objects;
pub mod overlays;
pub mod panels;
pub mod solve;
pub mod view;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Instant;

use egui::{Color32, Sense};
use glam::DVec2;

use super::recovery::{self, Autosave, Pending};
use super::session::{EditorSession, Modifiers, ToolKey};
use super::Shortcut;
use crate::collision::ColliderId;
use crate::level::{design_warnings, DesignWarning};
use crate::movement::Tuning;
use crate::sim::World;
use crate::view::camera::{CameraConfig, CameraRig};
use overlays::Overlays;
use view::ViewMapping;

/// Pick radius in screen points: handles are this easy to hit at any zoom.
pub const PICK_RADIUS_POINTS: f32 = 8.0;

/// Camera distances the zoom stays within, metres.
pub const ZOOM_RANGE: (f64, f64) = (4.0, 400.0);

/// What the game must do after a UI frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run or pause the simulation (the editor stays open).
    SetRunning(bool),
    /// Run exactly one tick.
    Step,
    /// Close the editor and play on from the current state.
    Leave,
    /// Put the hero at this point (nearest free point).
    PlaceHero(DVec2),
    /// Pose every mover at this time (s) and run them on from there; sent before
    /// [`Command::PlaceHero`] when the movers' scrubber is on (play-test at the scrubbed time).
    SetMoverTime(f64),
    /// Put the level back as it starts: the hero at the spawn, the agents and doors as the level
    /// places them, the rules of play from the start, the movers at `mover_time` seconds (0, or
    /// the scrubber's time when it is on).
    Reset { mover_time: f64 },
    /// Use this base tuning from now on.
    SetTuning(Box<Tuning>),
    /// Start recording a play-test, from the current state.
    RecordPlaytest,
    /// Stop recording the play-test and keep it for playing back.
    StopRecording,
    /// Play the last recorded play-test back from its start.
    PlayBack,
    /// The document changed (an edit, undo, redo, open or restore): the world, which holds the
    /// same document, follows it (`sim::World::level_edited`).
    LevelEdited,
    /// Quit the game (any unsaved-changes prompt has been answered).
    Quit,
    /// The overlay menu changed: remember this choice in the user's settings.
    SetOverlays(Overlays),
    /// Play from here: the hero at this point, the editor closed, playing; opening the editor
    /// again puts the world back as the level starts it (the document is never changed by play).
    PlayFrom(DVec2),
}

/// Milliseconds per frame of each part, for the frame-time graph. The parts are measured apart
/// so the graph blames the right one: on a software rasteriser (lavapipe) the GPU's work runs on
/// the CPU inside `present`, not inside the step that recorded it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTime {
    /// Simulation ticks (and level rebuilds).
    pub sim: f32,
    /// The UI pass on the CPU: egui's layout and the editor's overlays, tessellation, texture
    /// uploads, and recording egui's draw calls.
    pub ui: f32,
    /// Preparing, recording and submitting the 3D frame on the CPU.
    pub render: f32,
    /// Acquiring the surface and presenting: the GPU's work (all of it, on lavapipe) and vsync.
    pub present: f32,
}

/// Frames the graph keeps.
pub const FRAME_HISTORY: usize = 240;

/// How often the frame-time graph takes a new snapshot, seconds.
pub const GRAPH_REFRESH_SECONDS: f64 = 0.5;

/// A dialog over the editor.
#[derive(Clone, Debug, PartialEq)]
enum Dialog {
    /// Type a path to open or save as.
    Path { save: bool, text: String },
    /// Unsaved changes: save, discard or cancel before `then`.
    Unsaved { then: Then },
    /// A recovery file newer than the level: restore it or throw it away.
    Restore { pending: Pending },
    /// Saving would replace `path`, which holds comments: save anyway, save as, or cancel;
    /// `then`: what the unsaved-changes prompt that asked for the save goes on with once saved.
    Comments {
        path: PathBuf,
        comments: usize,
        first_line: usize,
        then: Option<Then>,
    },
}

/// What an unsaved-changes prompt guards.
#[derive(Clone, Debug, PartialEq)]
enum Then {
    Quit,
    Open,
}

/// What the editor shows of the simulation's state. The game owns that state (running or
/// paused, the play-test being recorded, the last one recorded); the editor reads it each frame
/// and asks for changes with [`Command`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimStatus {
    /// The simulation runs.
    pub running: bool,
    /// A play-test is being recorded.
    pub recording: bool,
    /// The length in ticks of the last play-test recorded, if any.
    pub playtest_ticks: Option<usize>,
}

/// The editor's screen state around its session.
pub struct EditorUi {
    /// The document and the editing state.
    pub session: EditorSession,
    autosave: Option<Autosave>,
    /// The editor's own camera (panned and zoomed; the game's camera is left alone).
    pub camera: CameraRig,
    camera_placed: bool,
    /// The collision overlays drawn over the view (none by default; the app keeps the choice
    /// in the user's settings, told by [`Command::SetOverlays`]).
    pub overlays: Overlays,
    /// The tuning being edited (applied live), and the file it saves to.
    pub tuning: Tuning,
    tuning_saved: Tuning,
    tuning_path: Option<PathBuf>,
    frame_times: VecDeque<FrameTime>,
    /// The snapshot of `frame_times` the graph shows, and when it was taken.
    graph: Vec<FrameTime>,
    graph_at: Option<Instant>,
    dialog: Option<Dialog>,
    status: Option<String>,
    /// The primary button was pressed in the viewport and is still down.
    pressing: bool,
    /// The simulation's state this frame (read from the game in [`EditorUi::show`]).
    sim: SimStatus,
    pointer_world: Option<DVec2>,
    /// Shortcuts from the input router, carried out in the next frame.
    shortcuts: Vec<Shortcut>,
    /// The time (s) every mover is drawn at as a ghost, chosen with the scrubber; `None`: none.
    pub scrub: Option<f64>,
    /// The level's design warnings (`level::design`), shown in the status bar; checked again
    /// when the document or the tuning changes (`None`: to be checked on the next frame).
    design: Option<Vec<DesignWarning>>,
    /// Where the view's context menu was opened (snapped), for "Play from here".
    context_at: Option<DVec2>,
    /// The screen rect the view took in the last frame (between the panels).
    view_rect: egui::Rect,
    /// The solver: the Solve button's search, and the one after a save of a level with a goal.
    pub solver: solve::Solver,
}

impl EditorUi {
    /// An editor on `level` (saved at `path`), with the base `tuning` from `tuning_path`, and
    /// recovery files in `recovery_dir` (`None`: no crash recovery, e.g. no home directory).
    pub fn new(
        session: EditorSession,
        tuning: Tuning,
        tuning_path: Option<PathBuf>,
        recovery_dir: Option<PathBuf>,
    ) -> Self {
        let mut dialog = None;
        let autosave = recovery_dir.map(|dir| {
            if let Some(p) = recovery::pending(&dir, session.path()) {
                log::info!(
                    "{} holds unsaved work newer than the level: the editor offers to restore it",
                    p.file.display()
                );
                dialog = Some(Dialog::Restore { pending: p });
            }
            Autosave::new(recovery::recovery_file(&dir, session.path()))
        });
        let focus = session.level().spawn;
        EditorUi {
            session,
            autosave,
            camera: CameraRig::looking_at(CameraConfig::default(), focus),
            camera_placed: false,
            overlays: Overlays::default(),
            tuning_saved: tuning.clone(),
            tuning,
            tuning_path,
            frame_times: VecDeque::with_capacity(FRAME_HISTORY),
            graph: Vec::with_capacity(FRAME_HISTORY),
            graph_at: None,
            dialog,
            status: None,
            pressing: false,
            sim: SimStatus::default(),
            pointer_world: None,
            shortcuts: Vec::new(),
            scrub: None,
            design: None,
            context_at: None,
            view_rect: egui::Rect::NOTHING,
            solver: solve::Solver::default(),
        }
    }

    /// Puts the editor's camera where the game's camera is (on opening the editor).
    pub fn look_from(&mut self, game_camera: &CameraRig) {
        if !self.camera_placed {
            self.camera = game_camera.clone();
            self.camera.set_focus(game_camera.focus());
            self.camera_placed = true;
        }
    }

    /// The screen rect the view (picking, gestures, overlays) took in the last frame: between the
    /// left and the selection panels.
    pub fn view_rect(&self) -> egui::Rect {
        self.view_rect
    }

    /// The status line (last file operation or error).
    pub fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// Sets the status line.
    pub fn set_status(&mut self, s: impl Into<String>) {
        self.status = Some(s.into());
    }

    /// Records one frame's times for the graph. The graph shows a snapshot taken every
    /// [`GRAPH_REFRESH_SECONDS`] of wall time (`now`), not every frame: a graph that moved every
    /// frame would make the editor's drawing change every frame, and the window draws egui again
    /// only when it changes (`app::egui_layer`).
    pub fn record_frame(&mut self, t: FrameTime, now: Instant) {
        if self.frame_times.len() == FRAME_HISTORY {
            self.frame_times.pop_front();
        }
        self.frame_times.push_back(t);
        if self
            .graph_at
            .is_none_or(|at| now.duration_since(at).as_secs_f64() >= GRAPH_REFRESH_SECONDS)
        {
            self.graph_at = Some(now);
            self.graph.clear();
            self.graph.extend(self.frame_times.iter().copied());
        }
    }

    /// The frame times the graph shows (the last snapshot), oldest first.
    pub fn frame_times(&self) -> impl Iterator<Item = &FrameTime> {
        self.graph.iter()
    }

    /// Once per frame, whether or not the editor is shown: autosaves a changed document.
    pub fn autosave(&mut self, now: Instant) {
        if let Some(a) = &mut self.autosave {
            a.tick(now, &self.session);
        }
    }

    /// The window is closing: with unsaved changes, the prompt opens (and `false` comes back);
    /// otherwise `true` (quit now).
    pub fn request_quit(&mut self) -> bool {
        if self.session.dirty() {
            self.dialog = Some(Dialog::Unsaved { then: Then::Quit });
            false
        } else {
            true
        }
    }

    /// Whether a dialog is open.
    pub fn dialog_open(&self) -> bool {
        self.dialog.is_some()
    }

    /// Draws the editor for one frame into `ui` (the whole window) and returns what the game must
    /// do. `world` is the running world (for the hero panel and the overlays), `sim` the state
    /// of its simulation (the game's).
    pub fn show(&mut self, ui: &mut egui::Ui, world: &World, sim: SimStatus) -> Vec<Command> {
        self.sim = sim;
        if self.design.is_none() {
            let jump = self
                .tuning
                .with_overrides(&self.session.level().tuning)
                .jump_height;
            self.design = Some(design_warnings(&self.session.level(), jump));
        }
        let mut out = Vec::new();
        let screen = ui.ctx().content_rect();
        panels::toolbar(self, ui, &mut out);
        panels::status_bar(self, ui);
        panels::left(self, ui, world, &mut out);
        let right = panels::right(self, ui);
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let aspect = (screen.width() / screen.height().max(1.0)) as f64;
            let map = ViewMapping::new(&self.camera, aspect, screen);
            // The view ends where the selection panel begins: a panel whose content is wider
            // than its width reaches left of the central panel's rect, and the view's overlays
            // (painted after it) were drawn over it.
            let mut rect = ui.max_rect();
            rect.max.x = rect.max.x.min(right.min.x).max(rect.min.x);
            self.viewport(ui, rect, &map, world, &mut out);
        });
        panels::dialogs(self, ui, &mut out);
        for r in self.session.take_requests() {
            match r {
                super::Request::PlaceHero(p) => {
                    if let Some(t) = self.scrub {
                        out.push(Command::SetMoverTime(t));
                    }
                    out.push(Command::PlaceHero(p))
                }
            }
        }
        // First: the frame's edits are already in the world's document, so the world follows
        // them before any other command acts on it (a step, a reset, placing the hero).
        if self.session.take_change() {
            out.insert(0, Command::LevelEdited);
            self.design = None;
            self.solver.level_changed();
        }
        self.poll_solver(ui.ctx());
        if out.iter().any(|c| matches!(c, Command::SetTuning(_))) {
            self.design = None;
        }
        out
    }

    /// The view: pointer gestures, keys, camera pan and zoom, and the overlays.
    fn viewport(
        &mut self,
        ui: &mut egui::Ui,
        rect: egui::Rect,
        map: &ViewMapping,
        world: &World,
        out: &mut Vec<Command>,
    ) {
        self.view_rect = rect;
        let response = ui.interact(
            rect,
            ui.scope_id().with("viewport"),
            Sense::click_and_drag(),
        );
        let (pressed, down, released, pos, mods, scroll, pan) = ui.input(|i| {
            (
                i.pointer.primary_pressed(),
                i.pointer.primary_down(),
                i.pointer.primary_released(),
                i.pointer.interact_pos().or(i.pointer.hover_pos()),
                Modifiers {
                    shift: i.modifiers.shift,
                    ctrl: i.modifiers.command,
                },
                i.smooth_scroll_delta.y,
                if i.pointer.secondary_down() || i.pointer.middle_down() {
                    i.pointer.delta()
                } else {
                    egui::Vec2::ZERO
                },
            )
        });
        let over = response.contains_pointer() && self.dialog.is_none();
        let world_pos = pos.and_then(|p| map.to_world(p));
        self.pointer_world = world_pos;
        let radius = map.metres_per_point() * PICK_RADIUS_POINTS as f64;
        if let Some(p) = world_pos {
            if pressed && over {
                self.pressing = true;
                self.session.press(p, radius, mods);
            } else if self.pressing && down {
                self.session.drag(p);
            }
            if released && self.pressing {
                self.pressing = false;
                self.session.release(p);
            }
        }
        if !down {
            self.pressing = false;
        }
        if over && scroll != 0.0 {
            let c = &mut self.camera.config;
            c.distance =
                (c.distance * (-scroll as f64 * 0.002).exp()).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        }
        if over && pan != egui::Vec2::ZERO {
            let m = map.metres_per_point();
            let f = self.camera.focus() + DVec2::new(-pan.x as f64 * m, pan.y as f64 * m);
            self.camera.set_focus(f);
        }
        self.play_from_here(&response, world_pos, out);
        self.run_shortcuts(ui.ctx(), world_pos.unwrap_or(self.camera.focus()), out);
        let painter = ui.painter_at(rect);
        view::paint_overlays(self, &painter, map, world);
        if let (Some(p), Some(w)) = (pos, world_pos) {
            if over {
                let hover = self.session.pick(w, radius);
                objects::paint_hover(&painter, map, self, hover);
                view::paint_hover(&painter, map, &self.session, hover, p);
            }
        }
        if let Some(m) = self.session.message() {
            if let Some(at) = map.to_screen(m.at) {
                view::paint_message(&painter, at, &m.text, m.error);
            }
        }
    }

    /// Queues a keyboard shortcut (from the app's input router); it is carried out in the next
    /// frame, at the pointer's position then. Shortcuts sent while a dialog is open are dropped
    /// (the dialog has the user's attention).
    pub fn shortcut(&mut self, s: Shortcut) {
        self.shortcuts.push(s);
    }

    /// Whether a paste waits for the next frame: the window then hands it the system
    /// clipboard's text as an `egui::Event::Paste` of that frame's input.
    pub fn wants_paste(&self) -> bool {
        self.shortcuts.contains(&Shortcut::Paste)
    }

    /// Carries out the queued shortcuts; `cursor` is where pastes go. Copy puts the copy on the
    /// system clipboard as level text (through `ctx`); Paste takes level text from this frame's
    /// paste event when it holds some, else the editor's own copy.
    fn run_shortcuts(&mut self, ctx: &egui::Context, cursor: DVec2, out: &mut Vec<Command>) {
        let pasted_text = ctx.input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Paste(t) => Some(t.clone()),
                _ => None,
            })
        });
        for sc in std::mem::take(&mut self.shortcuts) {
            if self.dialog.is_some() {
                continue;
            }
            let s = &mut self.session;
            match sc {
                Shortcut::Undo => {
                    s.undo();
                }
                Shortcut::Redo => {
                    s.redo();
                }
                Shortcut::Copy => {
                    if s.copy() == 0 {
                        self.status = Some("nothing selected to copy".into());
                    } else if let Some(text) = s.clipboard_text() {
                        ctx.copy_text(text);
                        self.status = Some(format!("copied {}", s.clipboard().describe()));
                    }
                }
                Shortcut::Paste => s.paste_from(pasted_text.as_deref(), cursor),
                Shortcut::Duplicate => s.duplicate(),
                Shortcut::Save => self.save(),
                Shortcut::Open => self.open_dialog(),
                Shortcut::FinishDrawing => {
                    s.tool_key(ToolKey::Finish, cursor);
                }
                Shortcut::Backspace => {
                    if !s.tool_key(ToolKey::Back, cursor) {
                        s.delete_selection();
                    }
                }
                Shortcut::Delete => s.delete_selection(),
                Shortcut::Cancel => {
                    if !s.tool_key(ToolKey::Cancel, cursor) {
                        s.selection.clear();
                    }
                }
                Shortcut::ToggleGrid => s.grid.enabled = !s.grid.enabled,
                Shortcut::Step => out.push(Command::Step),
                Shortcut::Tool(t) => s.set_tool(t),
            }
        }
    }

    /// Saves to the level's file, or asks for one (no file yet; a level shipped with the game
    /// whose user copy exists), or asks before dropping the file's comments.
    pub fn save(&mut self) {
        let r = self.session.save();
        self.after_save(r);
    }

    /// Save as `path` (with the same questions as [`Self::save`]).
    pub fn save_as(&mut self, path: PathBuf) {
        let r = self.session.save_as(&path);
        self.after_save(r);
    }

    /// The prompt about comments was answered "save anyway".
    fn save_dropping_comments(&mut self, path: PathBuf) {
        self.session.allow_dropping_comments(&path);
        self.save_as(path);
    }

    fn after_save(&mut self, r: Result<super::session::SaveOutcome, crate::level::LevelError>) {
        use super::session::SaveOutcome;
        let ask_path = |text: String| Dialog::Path { save: true, text };
        match r {
            Ok(SaveOutcome::Written(_)) => self.saved(None),
            Ok(SaveOutcome::Copied { shipped, .. }) => self.saved(Some(shipped)),
            Ok(SaveOutcome::NeedsPath) => self.dialog = Some(ask_path(String::new())),
            Ok(SaveOutcome::ShippedNeedsPath { shipped, copy }) => {
                self.status = Some(match &copy {
                    Some(c) => format!(
                        "{} ships with the game and is not overwritten; your copy {} exists: \
                         save replaces it, or choose another path",
                        shipped.display(),
                        c.display()
                    ),
                    None => format!(
                        "{} ships with the game and is not overwritten; choose where to save",
                        shipped.display()
                    ),
                });
                let text = copy.map(|c| c.display().to_string()).unwrap_or_default();
                self.dialog = Some(ask_path(text));
            }
            Ok(SaveOutcome::WouldDropComments {
                path,
                comments,
                first_line,
            }) => {
                self.dialog = Some(Dialog::Comments {
                    path,
                    comments,
                    first_line,
                    then: None,
                })
            }
            Err(e) => self.status = Some(format!("not saved: {e}")),
        }
    }

    /// After a write: the recovery file goes (and follows the file when it changed); the status
    /// names the file written (and the shipped level left alone, for a copy).
    fn saved(&mut self, shipped: Option<PathBuf>) {
        let moved = self
            .autosave
            .as_ref()
            .is_some_and(|a| *a.file() != self.recovery_file_for_session());
        if moved {
            self.follow_file();
        } else if let Some(a) = &mut self.autosave {
            a.discard();
        }
        let path = self.session.path().map(|p| p.display().to_string());
        let path = path.unwrap_or_default();
        self.status = Some(match shipped {
            Some(s) => {
                let text = format!(
                    "saved {path} (your copy: {} ships with the game and is left as it was)",
                    s.display()
                );
                log::info!("{text}");
                text
            }
            None => format!("saved {path}"),
        });
        // Whether a route still reaches the goal, checked behind the editor's back.
        let level = self.session.level().clone();
        if level.goal.is_some() {
            self.solver.request(&level, &self.tuning, solve::Why::Saved);
        }
    }

    /// The recovery file the session's current file would have.
    fn recovery_file_for_session(&self) -> PathBuf {
        match self.autosave.as_ref().and_then(|a| a.file().parent()) {
            Some(dir) => recovery::recovery_file(dir, self.session.path()),
            None => PathBuf::new(),
        }
    }

    /// Opens the open dialog (after the unsaved-changes prompt when needed).
    pub fn open_dialog(&mut self) {
        self.dialog = Some(if self.session.dirty() {
            Dialog::Unsaved { then: Then::Open }
        } else {
            Dialog::Path {
                save: false,
                text: String::new(),
            }
        });
    }

    /// Opens `path` (the session is replaced; on error nothing changes).
    pub fn open(&mut self, path: PathBuf) {
        match self.session.open(&path) {
            Ok(()) => {
                self.follow_file();
                self.status = Some(format!("opened {}", path.display()));
            }
            Err(e) => self.status = Some(format!("cannot open: {e}")),
        }
    }

    /// The document now holds the level at `path`, put there by the game's world (a campaign's
    /// next level, [`crate::sim::World::set_level`]): edits start afresh on it, saved at `path`.
    /// The recovery file follows it.
    pub fn adopt(&mut self, path: PathBuf) {
        self.session.adopt(path);
        self.follow_file();
    }

    /// The recovery file follows the document's file (after save-as and open); the old one is
    /// deleted.
    fn follow_file(&mut self) {
        if let Some(a) = &mut self.autosave {
            a.discard();
            if let Some(dir) = a.file().parent().map(|d| d.to_path_buf()) {
                *a = Autosave::new(recovery::recovery_file(&dir, self.session.path()));
            }
        }
    }

    /// The collider whose overlay layers are `Overlays::per_collider()[i]`.
    pub fn overlay_collider(i: usize) -> ColliderId {
        ColliderId(i as u16)
    }

    /// The view's context menu (a right click that does not pan): "Play from here" starts a
    /// play-test with the hero at the clicked point, snapped to the grid
    /// ([`Command::PlayFrom`]).
    fn play_from_here(
        &mut self,
        response: &egui::Response,
        at: Option<DVec2>,
        out: &mut Vec<Command>,
    ) {
        if response.secondary_clicked() {
            self.context_at = at.map(|p| self.session.grid.snap(p));
        }
        let Some(at) = self.context_at else {
            return;
        };
        response.context_menu(|ui| {
            if ui
                .button("Play from here")
                .on_hover_text(format!(
                    "play-test with the hero at ({:.2}, {:.2}); Tab back to the editor puts the level as it was",
                    at.x, at.y
                ))
                .clicked()
            {
                if let Some(t) = self.scrub {
                    out.push(Command::SetMoverTime(t));
                }
                out.push(Command::PlayFrom(at));
                ui.close();
            }
        });
    }

    /// Runs the solver on the level as it is (the Solve button).
    pub fn solve(&mut self) {
        let level = self.session.level().clone();
        self.solver.request(&level, &self.tuning, solve::Why::Asked);
        self.status = Some("solving: the route will be drawn over the level".into());
    }

    /// Once a frame: a finished search's result to the status bar (a search after a save
    /// speaks only when no route reaches the goal); while one runs, frames keep coming.
    fn poll_solver(&mut self, ctx: &egui::Context) {
        if let Some((found, why)) = self.solver.poll() {
            if why == solve::Why::Asked || found.is_warning() {
                self.status = Some(found.summary());
            }
        }
        if self.solver.running().is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(200));
        }
    }

    /// The level's design warnings as of the last frame (the spawn inside the goal, a region
    /// out of reach, a switch driving nothing, an agent in a wall).
    pub fn design_warnings(&self) -> &[DesignWarning] {
        self.design.as_deref().unwrap_or_default()
    }

    /// The world position under the pointer in the last frame.
    pub fn pointer_world(&self) -> Option<DVec2> {
        self.pointer_world
    }
}

/// Colours of the editor's drawings.
pub mod colours {
    use super::Color32;
    /// Polygon outlines.
    pub const OUTLINE: Color32 = Color32::from_rgba_premultiplied(230, 230, 230, 160);
    /// One-way outlines.
    pub const ONE_WAY: Color32 = Color32::from_rgb(240, 210, 60);
    /// Hazard outlines.
    pub const HAZARD: Color32 = Color32::from_rgb(255, 70, 40);
    /// Selected polygons and vertices.
    pub const SELECTED: Color32 = Color32::from_rgb(80, 200, 255);
    /// Hovered handles.
    pub const HOVER: Color32 = Color32::from_rgb(255, 255, 255);
    /// The polygon being drawn.
    pub const DRAWING: Color32 = Color32::from_rgb(120, 255, 120);
    /// Refusals.
    pub const ERROR: Color32 = Color32::from_rgb(255, 90, 80);
    /// The spawn marker.
    pub const SPAWN: Color32 = Color32::from_rgb(90, 255, 160);
    /// Grid lines.
    pub const GRID: Color32 = Color32::from_rgba_premultiplied(40, 40, 40, 40);
    /// Level bounds and camera bounds.
    pub const BOUNDS: Color32 = Color32::from_rgb(255, 120, 220);
    /// The solver's route (the hero's path).
    pub const ROUTE: Color32 = Color32::from_rgb(80, 230, 255);
    /// The route's narrowest presses.
    pub const NARROW: Color32 = Color32::from_rgb(255, 170, 40);
}
