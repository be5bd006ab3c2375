//! The window: winit's `ApplicationHandler`, the GPU surface and the redraw loop.
//!
//! Each redraw polls gamepads, runs [`Game::frame`] for the wall time since the previous redraw,
//! prepares and draws the frame, and presents it (Fifo, i.e. vsync, unless disabled). Window
//! events (keys, focus, resize, close) are handled as they arrive; keys go to the input state
//! immediately, so presses between redraws are latched for the next tick.
use std::sync::Arc;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{Fullscreen, Window, WindowId};

use super::command::{AppCommand, MenuNav};
use super::egui_layer::{EguiFrame, EguiLayer};
use super::frame_log::{FrameLog, LoggedFrame};
use super::game::{FrameReport, Game};
use super::mode::AppMode;
use super::router::{KeyPress, Mods, Route};
use super::ui::{Effect, GameUi};
use super::GameError;
use super::GameOptions;
use crate::editor::ui::FrameTime;
use crate::input::{key_from_logical, key_from_winit, Gamepads, Key};
use crate::render::frame::FrameData;
use crate::render::gpu::{Gpu, GpuError};
use crate::render::quality::Quality;
use crate::render::renderer::{FrameTarget, Renderer};
use crate::view::CameraConfig;

/// Fails with a one-line message when there is no display to open a window on.
pub fn check_display() -> Result<(), GameError> {
    #[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
    {
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        if !set("DISPLAY") {
            if set("WAYLAND_DISPLAY") {
                return Err(GameError::NoDisplay("no X11 display: DISPLAY is not set (this build draws through X11; run under XWayland, which sets DISPLAY)"));
            }
            return Err(GameError::NoDisplay("no display: neither DISPLAY nor WAYLAND_DISPLAY is set; the game needs a desktop session (`tessera sim` and `tessera render` work without one)"));
        }
    }
    Ok(())
}

/// Runs the event loop until the window closes or `exit_after` passes; returns the game.
pub fn run(
    game: Game,
    gui: GameUi,
    audio: crate::audio::device::GameAudio,
    materials: crate::level::Materials,
    opts: &GameOptions,
) -> Result<Game, GameError> {
    let frame_log = match &opts.frame_log {
        Some(path) => {
            Some(FrameLog::create(path).map_err(|e| GameError::FrameLog(path.clone(), e))?)
        }
        None => None,
    };
    let event_loop = EventLoop::new().map_err(|e| GameError::Display(e.to_string()))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        opts,
        game,
        gui,
        audio,
        materials,
        pads: Gamepads::new(),
        gfx: None,
        frame: FrameData::default(),
        last: None,
        started: None,
        error: None,
        stats: FrameStats::default(),
        frame_log,
        shown_title: String::new(),
        mods: Mods::default(),
        edit_ended: false,
    };
    // A recovery file newer than the level: the editor opens with its restore prompt.
    if opts.editor || app.gui.editor.dialog_open() {
        app.gui.apply(&mut app.game, AppCommand::ToggleEditor);
    }
    event_loop
        .run_app(&mut app)
        .map_err(|e| GameError::EventLoop(e.to_string()))?;
    if app.game.editing() {
        app.gui.apply(&mut app.game, AppCommand::ToggleEditor);
    }
    if let Some(e) = app.error {
        return Err(e);
    }
    app.stats.log_summary();
    if let Some(g) = app.gfx.as_ref() {
        let [whole, cached, from_cache] = g.renderer.shadow_draws();
        log::info!(
            "shadow map: {whole} frames drawn whole, {cached} drew the level into the cache, \
             {from_cache} copied it from the cache"
        );
        let [alone, inside] = g.renderer.backdrop_draws();
        log::info!(
            "backdrop: {alone} frames drawn in a pass of its own, {inside} inside the main pass"
        );
    }
    if let Some(e) = app
        .gfx
        .as_ref()
        .map(|g| &g.egui)
        .filter(|e| e.composites + e.direct > 0)
    {
        log::info!(
            "egui: {} frames drawn straight onto the frame, {} composited from the layer (drawn {} times)",
            e.direct,
            e.composites,
            e.redraws
        );
    }
    Ok(app.game)
}

/// Window, surface, device and renderer.
struct Graphics {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    view_format: wgpu::TextureFormat,
    gpu: Gpu,
    renderer: Renderer,
    egui: EguiLayer,
}

impl Graphics {
    fn new(
        event_loop: &ActiveEventLoop,
        opts: &GameOptions,
        game: &Game,
    ) -> Result<Graphics, GameError> {
        let (w, h) = opts.window_size;
        let attrs = Window::default_attributes()
            .with_title(format!("Tessera — {}", game.world().level().name))
            .with_inner_size(LogicalSize::new(w, h))
            .with_resizable(true);
        let window = Arc::new(
            event_loop
                .create_window(attrs)
                .map_err(|e| GameError::Window(e.to_string()))?,
        );
        let instance = Gpu::instance();
        // With no driver at all, surface creation fails first with a vaguer message.
        if pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all())).is_empty() {
            return Err(GpuError::NoAdapter("no Vulkan driver reports a device".into()).into());
        }
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| GpuError::Surface(e.to_string()))?;
        let gpu = Gpu::open(instance, Some(&surface))?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| {
                GpuError::Surface(format!(
                    "the adapter {} cannot present to this window",
                    gpu.describe()
                ))
            })?;
        // Draw in sRGB: use an sRGB surface format, or an sRGB view of a linear one.
        let caps = surface.get_capabilities(&gpu.adapter);
        if let Some(f) = caps.formats.iter().find(|f| f.is_srgb()) {
            config.format = *f;
        }
        let view_format = config.format.add_srgb_suffix();
        if view_format != config.format {
            config.view_formats.push(view_format);
        }
        // egui draws through a plain (not sRGB) view where the surface allows a second view
        // format: its colours and its blending are in gamma space, so its shader then skips the
        // per-pixel sRGB conversions, and the blend needs no sRGB decode and encode. On a
        // software rasteriser (lavapipe) those conversions were most of the editor's frame time
        // (BENCHMARKS.md, "Editor frame rate").
        let egui_format = if gpu
            .adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::SURFACE_VIEW_FORMATS)
        {
            let linear = config.format.remove_srgb_suffix();
            if linear != config.format {
                config.view_formats.push(linear);
            }
            linear
        } else {
            view_format
        };
        config.present_mode = if opts.vsync {
            wgpu::PresentMode::Fifo
        } else if caps.present_modes.contains(&wgpu::PresentMode::Immediate) {
            wgpu::PresentMode::Immediate
        } else {
            wgpu::PresentMode::AutoNoVsync
        };
        surface.configure(&gpu.device, &config);
        let (quality, why) = Quality::choose(opts.msaa, gpu.adapter.get_info().device_type);
        if let Some(why) = why {
            log::info!("{} is {why}", gpu.describe());
        }
        let mut renderer = Renderer::new(&gpu, view_format, (config.width, config.height), quality);
        renderer.set_level(
            &gpu.device,
            &gpu.queue,
            &game.world().level(),
            &CameraConfig::default(),
        );
        renderer.set_hero_model(&gpu.device, &gpu.queue, game.view().hero().model());
        log::info!(
            "window {}×{}, {:?}, {:?}, {}× MSAA, {}-tap shadows from a {}² map on {}",
            config.width,
            config.height,
            view_format,
            config.present_mode,
            renderer.samples(),
            renderer.quality().shadow_taps,
            renderer.quality().shadow_map,
            gpu.describe()
        );
        let egui = EguiLayer::new(&gpu, &window, egui_format)?;
        Ok(Graphics {
            window,
            surface,
            config,
            view_format,
            gpu,
            renderer,
            egui,
        })
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            return; // Minimised: keep the old configuration; nothing is drawn.
        }
        self.config.width = size.width;
        self.config.height = size.height;
        self.surface.configure(&self.gpu.device, &self.config);
        self.renderer
            .resize(&self.gpu.device, (size.width, size.height));
    }

    fn aspect(&self) -> f64 {
        self.config.width as f64 / self.config.height.max(1) as f64
    }

    /// Fullscreen (borderless, on the current monitor) or a window: the one writer of the
    /// window's fullscreen state (the settings at start, then the effects).
    fn set_fullscreen(&self, full: bool) {
        if full != self.window.fullscreen().is_some() {
            self.window
                .set_fullscreen(full.then_some(Fullscreen::Borderless(None)));
        }
    }

    /// A new renderer of `quality` (another anti-aliasing setting), with `level`'s meshes and the
    /// `hero` model.
    fn rebuild_renderer(
        &mut self,
        quality: Quality,
        level: &crate::level::Level,
        hero: &crate::anim::Model,
    ) {
        self.renderer = Renderer::new(
            &self.gpu,
            self.view_format,
            (self.config.width, self.config.height),
            quality,
        );
        self.renderer.set_level(
            &self.gpu.device,
            &self.gpu.queue,
            level,
            &CameraConfig::default(),
        );
        self.renderer
            .set_hero_model(&self.gpu.device, &self.gpu.queue, hero);
    }
}

struct App<'o> {
    opts: &'o GameOptions,
    game: Game,
    gui: GameUi,
    audio: crate::audio::device::GameAudio,
    materials: crate::level::Materials,
    pads: Gamepads,
    gfx: Option<Graphics>,
    frame: FrameData,
    last: Option<Instant>,
    started: Option<Instant>,
    error: Option<GameError>,
    stats: FrameStats,
    /// `--frame-log`: every frame's times.
    frame_log: Option<FrameLog>,
    shown_title: String,
    /// Modifier keys held (winit reports them apart from key events).
    mods: Mods,
    /// A press that ends a single-line edit (Enter, Escape) went to the text field being edited
    /// since the last UI pass. egui lets go of the field only in its next pass, so until then the
    /// keys after it are not typing: Enter and Tab pressed within one frame (a few frames a
    /// second on a software rasteriser under load) gave Tab to egui, which kept the editor open
    /// (`window_input::tab_closes_the_editor_and_space_never_presses_a_button` failed so once,
    /// 2026-11-26).
    edit_ended: bool,
}

impl ApplicationHandler for App<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        match Graphics::new(event_loop, self.opts, &self.game) {
            Ok(g) => {
                // The pause menu's fullscreen choice, saved in the user's settings.
                g.set_fullscreen(self.gui.settings.fullscreen);
                self.gfx = Some(g);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match &event {
            WindowEvent::KeyboardInput { event: key, .. } => {
                self.key_event(key, &event);
                return;
            }
            WindowEvent::ModifiersChanged(m) => {
                let s = m.state();
                self.mods = Mods {
                    ctrl: s.control_key() || s.super_key(),
                    shift: s.shift_key(),
                    alt: s.alt_key(),
                };
            }
            _ => {}
        }
        // Pointer, modifiers, focus and resize events reach egui while it is shown (a click on a
        // panel, a drag in the editor's view). Keys never do, except into a text field
        // (`key_event`).
        if self.ui_shown() {
            if let Some(g) = &mut self.gfx {
                let _ = g.egui.state.on_window_event(&g.window, &event);
            }
        }
        match event {
            WindowEvent::CloseRequested => {
                // Quits now, or brings up the editor's unsaved-changes prompt.
                self.gui.apply(&mut self.game, AppCommand::RequestQuit);
                let effects = self.gui.take_effects();
                self.apply(&effects, event_loop);
            }
            WindowEvent::Resized(size) => {
                if let Some(g) = &mut self.gfx {
                    g.resize(size);
                }
            }
            WindowEvent::Focused(focused) => self.game.focus_changed(focused),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(g) = &self.gfx {
            g.window.request_redraw();
        }
    }
}

impl App<'_> {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: GameError) {
        self.error.get_or_insert(e);
        event_loop.exit();
    }

    /// Whether egui takes pointer and text input (the editor or a menu is shown).
    fn ui_shown(&self) -> bool {
        self.game.mode() != AppMode::Playing
    }

    /// One key event, through the input router (`app::router`): a press goes to exactly one
    /// receiver; a release goes to the game's input state (and to egui while it is shown), so no
    /// key stays held whoever got its press.
    fn key_event(&mut self, key: &KeyEvent, event: &WindowEvent) {
        let text_field = self.ui_shown()
            && !self.edit_ended
            && self
                .gfx
                .as_ref()
                .is_some_and(|g| g.egui.ctx.text_edit_focused());
        let to_egui = |app: &mut Self| {
            if let Some(g) = &mut app.gfx {
                let _ = g.egui.state.on_window_event(&g.window, event);
            }
        };
        let code = match key.physical_key {
            PhysicalKey::Code(code) => key_from_winit(code),
            PhysicalKey::Unidentified(_) => None,
        };
        if key.state == ElementState::Released {
            if let Some(k) = code {
                self.game.input_mut().key(k, false);
            }
            if self.ui_shown() {
                to_egui(self);
            }
            return;
        }
        if text_field {
            if matches!(code, Some(Key::Enter | Key::Escape)) {
                self.edit_ended = true;
            }
            return to_egui(self);
        }
        let (Some(k), false) = (code, key.repeat) else {
            return;
        };
        let press = KeyPress {
            key: k,
            logical: key_from_logical(&key.logical_key),
            mods: self.mods,
        };
        if self.gui.key_press(&mut self.game, press, text_field) == Route::TextField {
            to_egui(self);
        }
    }

    /// One frame, as named steps: simulate, the UI pass, its effects, sound and title, then draw
    /// and present; the frame-time graph gets each step's share.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let start = Instant::now();
        let started = *self.started.get_or_insert(start);
        let elapsed = self.last.map_or(Duration::ZERO, |l| start - l);
        self.last = Some(start);
        if self.gfx.is_none() {
            return;
        }
        let report = self.simulate(elapsed);
        let sim_done = Instant::now();
        let (effects, egui_frame) = self.ui_pass(report.nav);
        let ui_done = Instant::now();
        let level_changed = effects.iter().any(|e| matches!(e, Effect::LevelChanged));
        if self.apply(&effects, event_loop) {
            return;
        }
        self.audio.frame(
            self.game.frame_events(),
            self.game.frame_play_events(),
            self.game.frame_world_events(),
            self.game.world().hero().body.pos,
            self.game.view().camera().focus(),
        );
        self.update_title();
        let Some(times) = self.draw(egui_frame, event_loop) else {
            return;
        };
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f32() * 1000.0;
        let parts = FrameTime {
            sim: ms(start, sim_done),
            ui: ms(sim_done, ui_done) + times.ui_encode,
            render: times.render,
            present: times.present,
        };
        self.gui.record_frame(parts);
        if let Some(log) = &mut self.frame_log {
            log.frame(&LoggedFrame {
                at: start,
                interval: elapsed,
                parts,
                ticks: report.steps,
                editing: self.game.editing(),
                level_changed,
            });
        }
        self.stats.frame(start, report.steps);
        if self
            .opts
            .exit_after
            .is_some_and(|s| start.duration_since(started).as_secs_f64() >= s)
        {
            event_loop.exit();
        }
    }

    /// Polls the gamepads and runs the frame's ticks; the app's keys pressed (the editor,
    /// fullscreen) are applied as commands.
    fn simulate(&mut self, elapsed: Duration) -> FrameReport {
        let aspect = self.gfx.as_ref().map_or(1.0, Graphics::aspect);
        self.pads.poll(self.game.input_mut());
        let mut report = self.game.frame(elapsed, aspect);
        for c in std::mem::take(&mut report.commands) {
            self.gui.apply(&mut self.game, c);
        }
        report
    }

    /// The editor, a menu or the HUD, when shown: one egui pass, tessellated and its textures
    /// uploaded. Returns the effects queued for the window and what to draw.
    fn ui_pass(&mut self, nav: MenuNav) -> (Vec<Effect>, Option<EguiFrame>) {
        // egui's pass below takes the keys given to it; what it says of text focus is current
        // again after it.
        self.edit_ended = false;
        let shown = self.ui_shown()
            || self.game.shows_hud()
            || self.game.view().fade(self.game.world()) > 0.0;
        let Some(g) = self.gfx.as_mut().filter(|_| shown) else {
            return (self.gui.take_effects(), None);
        };
        let mut effects = Vec::new();
        let mut input = g.egui.state.take_egui_input(&g.window);
        // The editor's keys never reach egui (the router has them), so egui makes no paste event
        // of Ctrl+V: an editor paste gets the system clipboard's text here.
        if self.gui.editor.wants_paste() {
            if let Some(text) = g.egui.state.clipboard_text() {
                input.events.push(egui::Event::Paste(text));
            }
        }
        let out = g.egui.ctx.run_ui(input, |ui| {
            effects = self.gui.ui(ui, &mut self.game, nav);
        });
        g.egui
            .state
            .handle_platform_output(&g.window, out.platform_output.clone());
        (effects, Some(g.egui.prepare(&g.gpu, out)))
    }

    /// Carries out the UI's effects in order; `true` when the game quits.
    fn apply(&mut self, effects: &[Effect], event_loop: &ActiveEventLoop) -> bool {
        let Some(g) = &mut self.gfx else {
            return false;
        };
        for e in effects {
            match e {
                Effect::LevelChanged => {
                    g.renderer.set_level(
                        &g.gpu.device,
                        &g.gpu.queue,
                        &self.game.world().level(),
                        &CameraConfig::default(),
                    );
                    self.audio.set_map(crate::audio::events::SoundMap::new(
                        &self.materials,
                        &self.game.world().level(),
                    ));
                }
                Effect::SettingsChanged => {
                    let s = &self.gui.settings;
                    self.audio.set_volumes(s.volumes.into());
                    g.set_fullscreen(s.fullscreen);
                    let (quality, _) =
                        Quality::choose(s.msaa.0, g.gpu.adapter.get_info().device_type);
                    if quality != g.renderer.quality() {
                        g.rebuild_renderer(
                            quality,
                            &self.game.world().level(),
                            self.game.view().hero().model(),
                        );
                    }
                }
                Effect::ToggleFullscreen => {
                    let full = g.window.fullscreen().is_none();
                    g.set_fullscreen(full);
                }
                Effect::Quit => {
                    event_loop.exit();
                    return true;
                }
            }
        }
        false
    }

    /// The window title follows the level, its unsaved mark and the mode.
    fn update_title(&mut self) {
        let title = title(&self.game, &self.gui);
        if title != self.shown_title {
            if let Some(g) = &self.gfx {
                g.window.set_title(&title);
            }
            self.shown_title = title;
        }
    }

    /// Prepares the 3D frame, acquires the surface, records and submits the frame and egui's
    /// shapes, and presents. `None` when nothing was presented (surface not ready, or lost).
    fn draw(
        &mut self,
        egui_frame: Option<EguiFrame>,
        event_loop: &ActiveEventLoop,
    ) -> Option<DrawTimes> {
        let g = self.gfx.as_mut()?;
        let t0 = Instant::now();
        let mut snapshot = self.game.view().snapshot();
        if self.game.editing() {
            snapshot = snapshot.seen_by(&self.gui.editor.camera);
        }
        // The cast's models are uploaded once (and again for a new renderer or cast).
        g.renderer
            .set_cast(&g.gpu.device, &g.gpu.queue, self.game.view().cast());
        let params = g.renderer.frame_params(g.aspect());
        self.frame.prepare(self.game.world(), &snapshot, &params);
        let t1 = Instant::now();
        let texture = match g.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return None
            }
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                let size = g.window.inner_size();
                g.resize(size);
                return None;
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                self.fail(
                    event_loop,
                    GpuError::Surface("the surface reported a validation error".into()).into(),
                );
                return None;
            }
        };
        let t2 = Instant::now();
        let view = texture.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(g.view_format),
            ..Default::default()
        });
        // The plain (not sRGB) view, where the surface allows one (egui's format then): the
        // backdrop's own pass and egui draw through it.
        let format = g.egui.format();
        let plain = (format != g.view_format).then(|| {
            texture.texture.create_view(&wgpu::TextureViewDescriptor {
                format: Some(format),
                ..Default::default()
            })
        });
        let target = FrameTarget {
            view: &view,
            plain: plain.as_ref(),
        };
        g.renderer
            .render(&g.gpu, self.game.world(), &self.frame, target);
        let t3 = Instant::now();
        if let Some(f) = egui_frame {
            let size = (g.config.width, g.config.height);
            g.egui
                .draw(&g.gpu, f, size, plain.as_ref().unwrap_or(&view));
        }
        let t4 = Instant::now();
        g.gpu.queue.present(texture);
        let t5 = Instant::now();
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f32() * 1000.0;
        Some(DrawTimes {
            render: ms(t0, t1) + ms(t2, t3),
            ui_encode: ms(t3, t4),
            present: ms(t1, t2) + ms(t4, t5),
        })
    }
}

/// Milliseconds of the drawing steps of one frame.
struct DrawTimes {
    /// Preparing, recording and submitting the 3D frame (CPU).
    render: f32,
    /// Uploading egui's buffers, recording and submitting its pass (CPU).
    ui_encode: f32,
    /// Waiting to acquire the surface and presenting it: where a software rasteriser (lavapipe)
    /// runs the submitted work, and where vsync waits.
    present: f32,
}

/// The window title: the level, an unsaved-changes mark, and the mode.
fn title(game: &Game, gui: &GameUi) -> String {
    let name = &game.world().level().name;
    let mark = if gui.editor.session.dirty() && gui.editor.session.path().is_some() {
        "● "
    } else {
        ""
    };
    format!("Tessera — {mark}{name}{}", game.mode().label())
}

/// Frame counting for the fps log.
#[derive(Default)]
struct FrameStats {
    first: Option<Instant>,
    window_start: Option<Instant>,
    frames: u64,
    window_frames: u64,
    ticks: u64,
    last: Option<Instant>,
}

impl FrameStats {
    fn frame(&mut self, now: Instant, ticks: u32) {
        self.first.get_or_insert(now);
        let start = *self.window_start.get_or_insert(now);
        self.frames += 1;
        self.window_frames += 1;
        self.ticks += ticks as u64;
        self.last = Some(now);
        let span = now.duration_since(start).as_secs_f64();
        if span >= 5.0 {
            log::info!("{:.1} fps", self.window_frames as f64 / span);
            self.window_start = Some(now);
            self.window_frames = 0;
        }
    }

    fn log_summary(&self) {
        if let (Some(a), Some(b)) = (self.first, self.last) {
            let s = b.duration_since(a).as_secs_f64();
            if s > 0.0 && self.frames > 1 {
                log::info!(
                    "{} frames and {} ticks in {:.2} s: {:.1} fps",
                    self.frames,
                    self.ticks,
                    s,
                    (self.frames - 1) as f64 / s
                );
            }
        }
    }
}
