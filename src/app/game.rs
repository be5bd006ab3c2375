//! The game's frame logic without a window: the app's mode ([`AppMode`], whose one writer is
//! [`Game::change_mode`]), fixed ticks fed by input or a replay, recording, and the view (`crate::view`: camera, hero animation, step smoothing) fed
//! after each tick. The window layer (`app::window`) only adds devices, the GPU and presentation:
//! it hands the renderer the view's snapshot. Nothing here imports the renderer, so this is
//! testable with synthetic input.
use std::time::Duration;

use glam::DVec2;

use super::command::{read_ui_actions, AppCommand, MenuNav};
use super::fixed_step::{FixedStep, FrameSteps};
use super::mode::{AppMode, ModeEvent};
use crate::anim::HeroAnimator;
use crate::input::{sign_text, InputState};
use crate::movement::{Actions, MoveEvent};
use crate::sim::{Replay, ReplayDriver, World, TICK_HZ};
use crate::view::{CameraConfig, View};

/// Most ticks run in one frame; beyond that the game slows down rather than spiral (about 67 ms
/// of game time at 120 Hz).
pub const MAX_CATCH_UP_STEPS: u32 = 8;

/// What a frame did, for the window layer.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameReport {
    /// Ticks simulated.
    pub steps: u32,
    /// Blend factor between the last two ticks for drawing.
    pub alpha: f64,
    /// The app's commands pressed since the last frame (the editor and fullscreen keys), for
    /// the UI to apply (`GameUi::apply`); the pause key and the overlay are already handled.
    pub commands: Vec<AppCommand>,
    /// The menus' navigation pressed since the last frame.
    pub nav: MenuNav,
}

/// A recorded play-test: played back on the level as it is then (the one level document).
#[derive(Clone, Debug, PartialEq)]
pub struct Playtest {
    /// Where the hero started.
    pub start: DVec2,
    /// Every tick's actions.
    pub actions: Vec<Actions>,
}

/// The running game: world, clock, input, replay, and its view.
pub struct Game {
    world: World,
    clock: FixedStep,
    input: InputState,
    replay: ReplayDriver,
    /// Camera, hero animation, step smoothing, blend and overlay: fed after each tick.
    view: View,
    recorded: Option<Vec<Actions>>,
    /// The app's mode: which screen is up and whether the simulation runs.
    mode: AppMode,
    pause_on_focus_loss: bool,
    had_focus: bool,
    /// The play-test being recorded: where the hero started and every tick's actions since.
    recording: Option<(DVec2, Vec<Actions>)>,
    /// The last play-test recorded, for playing back.
    playtest: Option<Playtest>,
    /// Every event of this frame's ticks, each with the number of the tick it happened on (the
    /// world's tick count after that tick, so the first tick is 1). Cleared at the start of each
    /// frame; its allocation is kept.
    frame_events: Vec<(u64, MoveEvent)>,
    /// The rules of play's events of the last frame's ticks.
    frame_play_events: Vec<(u64, crate::sim::PlayEvent)>,
    frame_world_events: Vec<(u64, crate::sim::WorldEvent, DVec2)>,
    /// Per sign, the text it showed at the last frame (`None`: hidden), for the log.
    signs_read: Vec<Option<String>>,
}

impl Game {
    /// A game on `world`. With a `replay` the first ticks play it, then live input takes over
    /// (the same [`ReplayDriver`] as `tessera sim`); focus loss does not pause a replay. `record`
    /// keeps every tick's actions. `hero` draws the hero ([`HeroAnimator::builtin`], or a
    /// character's).
    pub fn new(
        world: World,
        input: InputState,
        replay: Option<&Replay>,
        record: bool,
        aspect: f64,
        hero: HeroAnimator,
    ) -> Self {
        let view = View::with_hero(&world, CameraConfig::default(), aspect, hero);
        Game {
            pause_on_focus_loss: replay.is_none(),
            had_focus: false,
            world,
            clock: FixedStep::new(TICK_HZ, MAX_CATCH_UP_STEPS),
            input,
            replay: ReplayDriver::new(replay),
            view,
            recorded: record.then(Vec::new),
            mode: AppMode::Playing,
            recording: None,
            playtest: None,
            frame_events: Vec::new(),
            frame_play_events: Vec::new(),
            frame_world_events: Vec::new(),
            signs_read: Vec::new(),
        }
    }

    /// Draws the world's agents with `cast`'s characters ([`crate::view::Cast::load`]).
    pub fn set_cast(&mut self, cast: crate::view::Cast) {
        self.view.set_cast(cast);
    }

    /// The input state (its bindings).
    pub fn input(&self) -> &InputState {
        &self.input
    }

    /// The input state devices feed.
    pub fn input_mut(&mut self) -> &mut InputState {
        &mut self.input
    }

    /// The window gained or lost focus: losing it releases every key (none stays stuck) and
    /// pauses; regaining it resumes if the pause came from the focus loss. A window that never had
    /// focus (a desktop without a window manager, e.g. Xvfb) is not paused by a "not focused"
    /// report.
    pub fn focus_changed(&mut self, focused: bool) {
        if !focused {
            self.input.release_all();
            if self.pause_on_focus_loss && self.had_focus {
                self.change_mode(ModeEvent::FocusLost);
            }
        } else {
            self.had_focus = true;
            self.change_mode(ModeEvent::FocusGained);
        }
    }

    /// The app's mode.
    pub fn mode(&self) -> AppMode {
        self.mode
    }

    /// The one writer of the app's mode (and so of pause): the mode after `event`
    /// ([`AppMode::next`]). When the mode changes, presses made meanwhile do not reach the first
    /// tick (a menu's Jump-to-accept must not jump), the partial tick is forgotten (the wall time
    /// of a pause never reaches the clock), and opening or closing the editor releases every key.
    /// Returns whether the mode changed.
    pub fn change_mode(&mut self, event: ModeEvent) -> bool {
        let next = self.mode.next(event);
        if next == self.mode {
            return false;
        }
        if next.editor_open() != self.mode.editor_open() {
            self.input.release_all();
        }
        log::debug!("mode {:?} -> {next:?} on {event:?}", self.mode);
        self.mode = next;
        let _ = self.input.take_tick_actions();
        self.clock.reset();
        true
    }

    /// Runs one rendered frame's worth of simulation for `elapsed` wall time.
    pub fn frame(&mut self, elapsed: Duration, aspect: f64) -> FrameReport {
        self.frame_events.clear();
        self.frame_play_events.clear();
        self.frame_world_events.clear();
        let mut presses = read_ui_actions(self.input.take_ui_actions());
        // Before the ticks, so a frame with a pause press runs none. In the editor, Escape and
        // Start belong to the editor (its own pause, step and resume): the mode ignores it.
        // In a menu the pause key backs out one level, which the menu decides (`MenuNav::back`).
        if presses.pause && !self.mode.menu() {
            self.change_mode(ModeEvent::PauseKey);
            // Used: the menu it opened must not take it as its back too.
            presses.nav.back = false;
        }
        if presses.overlay {
            self.view.set_overlay(!self.view.overlay());
        }
        let mut steps = FrameSteps {
            steps: 0,
            alpha: self.view.alpha(),
            dropped: Duration::ZERO,
        };
        if self.mode.simulates() {
            steps = self.clock.advance(elapsed);
            for _ in 0..steps.steps {
                self.tick();
            }
            if steps.dropped > Duration::ZERO {
                log::debug!(
                    "frame took too long: dropped {:?} of game time",
                    steps.dropped
                );
            }
            self.view
                .frame(&self.world, steps.alpha, elapsed.as_secs_f64(), aspect);
        }
        self.refresh_sign_texts();
        FrameReport {
            steps: steps.steps,
            alpha: self.view.alpha(),
            commands: presses.commands,
            nav: presses.nav,
        }
    }

    /// Gives the view each sign's text in the player's bindings, on the device used last
    /// (`input::names::sign_text`). Every frame, so a rebinding, a switch of device or a sign
    /// edited in the editor shows at once: a few short strings.
    fn refresh_sign_texts(&mut self) {
        let pad = self.input.pad_last();
        let bindings = self.input.bindings();
        let texts: Vec<String> = self
            .world
            .level()
            .signs
            .iter()
            .map(|s| sign_text(&s.text, bindings, pad))
            .collect();
        if texts != self.view.signs().texts() {
            self.view.signs_mut().set_texts(texts);
        }
        // What the player reads, in the log: each sign as it comes into view and again when its
        // text changes while shown (a rebinding), so a play-through can be followed from its log.
        let signs = self.view.signs();
        let reading: Vec<Option<String>> = (0..signs.texts().len())
            .map(|i| (signs.opacity(i) > 0.0).then(|| signs.texts()[i].clone()))
            .collect();
        for (i, r) in reading.iter().enumerate() {
            if let Some(text) = r.as_ref().filter(|_| self.signs_read.get(i) != Some(r)) {
                log::info!("sign {i} reads: {text}");
            }
        }
        self.signs_read = reading;
    }

    /// One simulation tick: the replay's actions while it lasts (live input is still consumed, so
    /// presses made during the replay do not fire afterwards), then live input.
    fn tick(&mut self) {
        let live = self.input.take_tick_actions();
        let actions = self.replay.step(&mut self.world, live);
        self.view.after_tick(&self.world);
        let events = &self.world.last_report().events;
        let tick = self.world.frame();
        self.frame_events.extend(events.iter().map(|e| (tick, *e)));
        self.frame_play_events
            .extend(self.world.play_events().iter().map(|e| (tick, *e)));
        self.frame_world_events
            .extend(self.world.placed_events().map(|(e, at)| (tick, e, at)));
        if let Some(r) = &mut self.recorded {
            r.push(actions);
        }
        if let Some((_, r)) = &mut self.recording {
            r.push(actions);
        }
    }

    /// Whether the editor is open ([`AppMode::editor_open`]).
    pub fn editing(&self) -> bool {
        self.mode.editor_open()
    }

    /// Runs exactly one tick (the editor's single step), with the current live input.
    pub fn step_once(&mut self) {
        self.frame_events.clear();
        self.frame_play_events.clear();
        self.frame_world_events.clear();
        self.tick();
        self.view.stepped();
    }

    /// Starts recording a play-test from the hero's position now (every tick's actions from now
    /// on), replacing one under way.
    pub fn start_recording(&mut self) {
        self.recording = Some((self.world.hero().body.pos, Vec::new()));
    }

    /// Stops recording the play-test under way and keeps it for playing back; returns its length
    /// in ticks (`None`: nothing was being recorded).
    pub fn stop_recording(&mut self) -> Option<usize> {
        let (start, actions) = self.recording.take()?;
        let ticks = actions.len();
        self.playtest = Some(Playtest { start, actions });
        Some(ticks)
    }

    /// Whether a play-test is being recorded.
    pub fn recording(&self) -> bool {
        self.recording.is_some()
    }

    /// The last play-test recorded.
    pub fn playtest(&self) -> Option<&Playtest> {
        self.playtest.as_ref()
    }

    /// Plays `replay` from the next tick (live input takes over when it ends): a recorded
    /// play-test played back.
    pub fn play_replay(&mut self, replay: &Replay) {
        self.replay = ReplayDriver::new(Some(replay));
    }

    /// The world, for the editor: level swaps ([`World::set_level`]), placing the hero, tuning.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Moves the camera straight to the hero (after placing it).
    pub fn snap_camera(&mut self, aspect: f64) {
        self.view.snap_camera(&self.world, aspect);
    }

    /// The events of every tick run by the last [`Game::frame`], in order, each with its tick
    /// number ([`World::frame`] after that tick). Empty after a paused frame.
    pub fn frame_events(&self) -> &[(u64, MoveEvent)] {
        &self.frame_events
    }

    /// The rules of play's events of the ticks run in the last frame, with their tick.
    pub fn frame_play_events(&self) -> &[(u64, crate::sim::PlayEvent)] {
        &self.frame_play_events
    }

    /// The world's events (doors, crushes) of the ticks run in the last frame, with their tick
    /// and where they happened.
    pub fn frame_world_events(&self) -> &[(u64, crate::sim::WorldEvent, DVec2)] {
        &self.frame_world_events
    }

    /// Whether the level is a game (a goal, checkpoints, hazards or enemies) and so shows the
    /// HUD: health, deaths, time. A sandbox level shows none (and skips the UI pass while playing).
    pub fn shows_hud(&self) -> bool {
        self.world.is_game()
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }
    /// Whether the simulation waits (every mode but playing and play-testing).
    pub fn paused(&self) -> bool {
        !self.mode.simulates()
    }
    /// Whether the collision overlay is shown.
    pub fn overlay(&self) -> bool {
        self.view.overlay()
    }
    /// Whether the replay (if any) has been played to its end.
    pub fn replay_finished(&self) -> bool {
        self.replay.finished()
    }
    /// The actions of every tick so far, when recording.
    pub fn recorded(&self) -> Option<&[Actions]> {
        self.recorded.as_deref()
    }
    /// The view: camera, hero animation, step smoothing; its snapshot is what gets drawn.
    pub fn view(&self) -> &View {
        &self.view
    }
}
