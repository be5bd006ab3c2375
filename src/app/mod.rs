//! The game application: options, the window and its event loop, and the frame logic.
//!
//! # What it owns
//! - [`run_game`]: the entry point `tessera` / `tessera play` call. It loads and validates every
//!   file first (level, tuning, bindings, replay), then opens the window.
//! - [`fixed_step`]: the fixed-timestep accumulator (120 Hz ticks, capped catch-up).
//! - [`game`]: one frame's logic without a window (pause, ticks from input or replay, camera).
//! - [`window`]: the winit `ApplicationHandler`, the GPU surface, presentation, fullscreen.
//!
//! # Must never depend on
//! Nothing depends on it: it is the top of the crate. The simulation, the renderer and the input
//! module do not know it exists.
pub mod fixed_step;
pub mod game;
pub mod window;

use std::path::PathBuf;

use anyhow::Context;

use crate::input::{Bindings, InputState};
use crate::level::{load_level, load_tuning};
use crate::movement::{Actions, Tuning};
use crate::render::quality::Msaa;
use crate::sim::{load_replay, save_replay, Replay, World};

pub use fixed_step::{FixedStep, FrameSteps};
pub use game::{FrameReport, Game, MAX_CATCH_UP_STEPS};

/// How to run the game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOptions {
    /// The level file to play.
    pub level: PathBuf,
    /// A tuning file; `None`: the shipped defaults.
    pub tuning: Option<PathBuf>,
    /// A bindings file; `None`: `assets/bindings.ron` if it exists, else the built-in defaults.
    pub bindings: Option<PathBuf>,
    /// A replay to play from the first tick (live input takes over when it ends).
    pub replay: Option<PathBuf>,
    /// Where to save the actions of every tick played, as a replay, on exit.
    pub record: Option<PathBuf>,
    /// Quit cleanly after this many seconds of wall time (for smoke tests and measurements).
    pub exit_after: Option<f64>,
    /// Wait for the display's vertical blank (Fifo presentation); on by default.
    pub vsync: bool,
    /// Initial window size in logical pixels.
    pub window_size: (u32, u32),
    /// Multisampling: `Auto` (the default: 4× on GPUs, none on CPU rasterisers such as lavapipe)
    /// or a fixed 1 or 4 samples per pixel.
    pub msaa: Msaa,
}

/// The bindings file looked for when none is given.
pub const DEFAULT_BINDINGS_PATH: &str = "assets/bindings.ron";

impl GameOptions {
    /// Options to play `level` with every default.
    pub fn new(level: impl Into<PathBuf>) -> Self {
        GameOptions {
            level: level.into(),
            tuning: None,
            bindings: None,
            replay: None,
            record: None,
            exit_after: None,
            vsync: true,
            window_size: (1280, 720),
            msaa: Msaa::Auto,
        }
    }
}

/// Plays a level in a window until it is closed (or `exit_after` passes).
///
/// Errors (bad files, no display, no GPU adapter) come back as one clear message; nothing panics.
pub fn run_game(opts: GameOptions) -> anyhow::Result<()> {
    anyhow::ensure!(
        matches!(opts.msaa, Msaa::Auto | Msaa::Samples(1 | 4)),
        "MSAA must be auto, 1 or 4 samples per pixel, got {}",
        opts.msaa
    );
    if let Some(s) = opts.exit_after {
        anyhow::ensure!(
            s.is_finite() && s >= 0.0,
            "--exit-after must be a non-negative number of seconds, got {s}"
        );
    }
    let level = load_level(&opts.level)?;
    let tuning = match &opts.tuning {
        Some(p) => load_tuning(p)?,
        None => Tuning::default(),
    };
    let bindings = match &opts.bindings {
        Some(p) => Bindings::load(p)?,
        None if std::path::Path::new(DEFAULT_BINDINGS_PATH).exists() => {
            Bindings::load(std::path::Path::new(DEFAULT_BINDINGS_PATH))?
        }
        None => Bindings::default(),
    };
    let replay: Option<Vec<Actions>> = opts
        .replay
        .as_ref()
        .map(|p| load_replay(p).map(|r| r.iter().collect()))
        .transpose()?;
    let world = World::new(&level, &tuning).with_context(|| format!("{}", opts.level.display()))?;
    for w in world.warnings() {
        log::warn!("{}: {w}", opts.level.display());
    }
    window::check_display()?;
    let aspect = opts.window_size.0 as f64 / opts.window_size.1.max(1) as f64;
    let game = Game::new(
        world,
        InputState::new(bindings),
        replay,
        opts.record.is_some(),
        aspect,
    );
    let game = window::run(game, &opts)?;
    if let (Some(path), Some(actions)) = (&opts.record, game.recorded()) {
        save_replay(path, &Replay::from_actions(actions))?;
        log::info!("recorded {} ticks to {}", actions.len(), path.display());
    }
    Ok(())
}
