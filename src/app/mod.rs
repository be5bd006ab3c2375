//! The game application: options, the window and its event loop, and the frame logic.
//!
//! # What it owns
//! - [`run_game`]: the entry point `tessera` / `tessera play` call. It loads and validates every
//!   file first (level, tuning, bindings, replay), then opens the window.
//! - [`fixed_step`]: the fixed-timestep accumulator (120 Hz ticks, capped catch-up).
//! - [`mode`]: the app's mode ([`mode::AppMode`]: title, playing, paused, level complete,
//!   editing, play-testing) as one state machine; the game holds it and is its one writer.
//! - [`game`]: one frame's logic without a window (the mode, ticks from input or replay, camera).
//! - [`command`]: what the UIs ask for ([`command::AppCommand`]) and the one function that
//!   applies it (`GameUi::apply`), queueing the window's [`ui::Effect`]s.
//! - [`router`]: the one owner of keyboard input; each key press goes to exactly one of a text
//!   field, the game's input state, the editor's shortcuts or a menu, by the mode.
//! - [`ui`]: the editor, the campaign screens, the HUD and the pause menu in one egui pass; they
//!   return commands. [`controls_card`]: every action's keys, beside the title and the pause menu.
//! - [`egui_layer`]: egui's input and drawing in the window, through a layer drawn again only
//!   when egui's output changes.
//! - [`window`]: the winit `ApplicationHandler`, the GPU surface, presentation, fullscreen.
//!
//! # Must never depend on
//! Nothing depends on it: it is the top of the crate. The simulation, the renderer and the input
//! module do not know it exists.
pub mod campaign;
pub mod command;
pub mod controls_card;
pub mod egui_layer;
pub mod fixed_step;
pub mod frame_log;
pub mod game;
pub mod hud;
pub mod keys_panel;
pub mod mode;
pub mod results_gate;
pub mod router;
pub mod settings;
pub mod ui;
pub mod window;

use std::path::{Path, PathBuf};

use crate::input::{Bindings, BindingsError, InputState};
use crate::level::{DataDir, UserDirs, BINDINGS_FILE};
use crate::render::gpu::GpuError;
use crate::render::quality::Msaa;
use crate::sim::{
    load_world, save_replay, LoadError, LoadedWorld, Replay, ReplayError, WorldFiles,
};

pub use command::{AppCommand, MenuNav};
pub use fixed_step::{FixedStep, FrameSteps};
pub use game::{FrameReport, Game, MAX_CATCH_UP_STEPS};
pub use mode::{AppMode, ModeEvent};

/// How to run the game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOptions {
    /// The data directory (`--data-dir`); `None`: `TESSERA_DATA`, else the usual places (see
    /// [`crate::level::paths`]).
    pub data_dir: Option<PathBuf>,
    /// The level file to play; `None`: the data directory's `levels/default.ron`.
    pub level: Option<PathBuf>,
    /// A tuning file; `None`: the data directory's `assets/tuning.ron` if present, else the
    /// built-in defaults (the policy of every command: `level::resolve_tuning`).
    pub tuning: Option<PathBuf>,
    /// A bindings file; `None`: the user's `bindings.ron` (chosen in game) if present, else the
    /// data directory's `assets/bindings.ron` if present, else the built-in defaults.
    pub bindings: Option<PathBuf>,
    /// A replay to play from the first tick (live input takes over when it ends).
    pub replay: Option<PathBuf>,
    /// Where to save the actions of every tick played, as a replay, on exit.
    pub record: Option<PathBuf>,
    /// Quit cleanly after this many seconds of wall time (for smoke tests and measurements).
    pub exit_after: Option<f64>,
    /// Write every frame's times to this file ([`frame_log`]).
    pub frame_log: Option<PathBuf>,
    /// Wait for the display's vertical blank (Fifo presentation); on by default.
    pub vsync: bool,
    /// Initial window size in logical pixels.
    pub window_size: (u32, u32),
    /// Multisampling: `Auto` (the default: 4× on GPUs, none on CPU rasterisers such as lavapipe)
    /// or a fixed 1 or 4 samples per pixel.
    pub msaa: Msaa,
    /// Start with the level editor open.
    pub editor: bool,
    /// A character file to draw the hero with (`None`: the built-in hero).
    pub character: Option<PathBuf>,
    /// Play this campaign (`levels/campaign.ron`) from its title screen; `level` is then the
    /// level it continues with.
    pub campaign: Option<PathBuf>,
}

/// The bindings file looked for when none is given, relative to the data directory.
pub const DEFAULT_BINDINGS_PATH: &str = BINDINGS_FILE;

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            data_dir: None,
            level: None,
            tuning: None,
            bindings: None,
            replay: None,
            record: None,
            exit_after: None,
            frame_log: None,
            vsync: true,
            window_size: (1280, 720),
            msaa: Msaa::Auto,
            editor: false,
            character: None,
            campaign: None,
        }
    }
}

impl GameOptions {
    /// Options to play `level` with every default.
    pub fn new(level: impl Into<PathBuf>) -> Self {
        GameOptions {
            level: Some(level.into()),
            ..GameOptions::default()
        }
    }

    /// The data directory these options name (or the usual places).
    pub fn data(&self) -> DataDir {
        DataDir::resolve(self.data_dir.as_deref())
    }
}

/// The game's files could not be loaded, or its options are out of range.
#[derive(Debug, thiserror::Error)]
pub enum GameLoadError {
    /// An option is out of range.
    #[error("{0}")]
    Option(String),
    /// The level, tuning or replay.
    #[error(transparent)]
    World(#[from] LoadError),
    /// The bindings file.
    #[error(transparent)]
    Bindings(#[from] BindingsError),
    /// The character file or its model.
    #[error(transparent)]
    Character(#[from] crate::anim::CharacterError),
    /// An agent's character file.
    #[error(transparent)]
    Cast(#[from] crate::view::CastError),
    /// The character's model lacks a leg joint the controller needs.
    #[error("{}: {error}", path.display())]
    CharacterRig {
        /// The character file.
        path: PathBuf,
        /// What is missing.
        error: crate::anim::AnimError,
    },
}

/// What [`load_game`] loads besides the game: the files the editor saves to.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFiles {
    /// The level file played (and edited).
    pub level: PathBuf,
    /// The base tuning (before the level's overrides).
    pub tuning: crate::movement::Tuning,
    /// The tuning file it came from (`None`: the built-in defaults).
    pub tuning_file: Option<PathBuf>,
}

/// Everything [`run_game`] loads before it opens a window: the game (world, input, replay) and the
/// level file it plays. This is the play path without a window, for tests.
pub fn load_game(opts: &GameOptions) -> Result<(Game, PathBuf), GameLoadError> {
    load_game_files(opts).map(|(g, f)| (g, f.level))
}

/// [`load_game`], with the tuning and its file (for the editor).
pub fn load_game_files(opts: &GameOptions) -> Result<(Game, GameFiles), GameLoadError> {
    if !matches!(opts.msaa, Msaa::Auto | Msaa::Samples(1 | 4)) {
        return Err(GameLoadError::Option(format!(
            "MSAA must be auto, 1 or 4 samples per pixel, got {}",
            opts.msaa
        )));
    }
    if let Some(s) = opts.exit_after {
        if !(s.is_finite() && s >= 0.0) {
            return Err(GameLoadError::Option(format!(
                "--exit-after must be a non-negative number of seconds, got {s}"
            )));
        }
    }
    let data = opts.data();
    let files = WorldFiles {
        data: data.clone(),
        level: opts.level.clone(),
        tuning: opts.tuning.clone(),
        replay: opts.replay.clone(),
    };
    let LoadedWorld {
        world,
        level_path,
        replay,
        tuning,
        tuning_source,
        ..
    } = load_world(&files)?;
    let bindings = load_bindings(
        &data,
        UserDirs::resolve().as_ref(),
        opts.bindings.as_deref(),
    )?;
    for w in world.warnings() {
        log::warn!("{}: {w}", level_path.display());
    }
    let hero = match &opts.character {
        Some(path) => {
            let path = data.user_file(path);
            let c = crate::anim::load_character(&path)?;
            crate::anim::HeroAnimator::for_character(&c)
                .map_err(|error| GameLoadError::CharacterRig { path, error })?
        }
        None => crate::anim::HeroAnimator::builtin(),
    };
    let cast = crate::view::Cast::load(&world, &level_path, &data)?;
    let aspect = opts.window_size.0 as f64 / opts.window_size.1.max(1) as f64;
    let mut game = Game::new(
        world,
        InputState::new(bindings),
        replay.as_ref(),
        opts.record.is_some(),
        aspect,
        hero,
    );
    game.set_cast(cast);
    let tuning_file = match tuning_source {
        crate::level::TuningSource::File(p) => Some(p),
        crate::level::TuningSource::Defaults => None,
    };
    Ok((
        game,
        GameFiles {
            level: level_path,
            tuning,
            tuning_file,
        },
    ))
}

/// The bindings: `explicit` if given, else the user's (chosen in game), else the data
/// directory's, else the built-in defaults.
pub fn load_bindings(
    data: &DataDir,
    user: Option<&UserDirs>,
    explicit: Option<&Path>,
) -> Result<Bindings, BindingsError> {
    if let Some(p) = explicit {
        return Bindings::load(&data.user_file(p));
    }
    if let Some(p) = user.map(UserDirs::bindings_file).filter(|p| p.is_file()) {
        return Bindings::load(&p);
    }
    match data.find_optional(BINDINGS_FILE) {
        Some(p) => Bindings::load(&p),
        None => Ok(Bindings::default()),
    }
}

/// Why the game could not run. Each variant is one clear line; nothing panics.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// A file or an option (see [`load_game`]).
    #[error(transparent)]
    Load(#[from] GameLoadError),
    /// No display to open a window on.
    #[error("{0}")]
    NoDisplay(&'static str),
    /// The display could not be reached.
    #[error("cannot connect to the display: {0}")]
    Display(String),
    /// The window could not be opened.
    #[error("cannot open the game window: {0}")]
    Window(String),
    /// No GPU adapter, or the surface or device failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The event loop stopped with an error.
    #[error("the window's event loop failed: {0}")]
    EventLoop(String),
    /// The sounds or the material table could not be loaded.
    #[error(transparent)]
    Audio(#[from] crate::audio::AudioLoadError),
    /// The recording (`--record`) could not be saved.
    #[error(transparent)]
    Record(#[from] ReplayError),
    /// The frame log (`--frame-log`) could not be created.
    #[error("cannot write the frame log {0}: {1}")]
    FrameLog(PathBuf, std::io::Error),
}

/// Plays a level in a window until it is closed (or `exit_after` passes).
///
/// Errors (bad files, no display, no GPU adapter) come back as one clear message; nothing panics.
pub fn run_game(mut opts: GameOptions) -> Result<(), GameError> {
    let campaign = match &opts.campaign {
        Some(path) => {
            let data = opts.data();
            let campaign = crate::level::campaign::Campaign::load(&data.user_file(path))
                .map_err(|e| GameLoadError::Option(e.to_string()))?;
            let progress_file =
                UserDirs::resolve().map(|u| u.data.join(crate::level::campaign::PROGRESS_FILE));
            let play = campaign::CampaignPlay::new(campaign, progress_file, data);
            opts.level = Some(play.campaign.levels[play.continue_index()].path.clone());
            Some(play)
        }
        None => None,
    };
    let (mut game, files) = load_game_files(&opts)?;
    window::check_display()?;
    let (audio, materials) = start_audio(&opts, &game)?;
    let user = UserDirs::resolve();
    let gui = ui::GameUi::new(
        &game,
        Some(files.level),
        files.tuning,
        files.tuning_file,
        user.as_ref(),
    );
    let mut gui = gui;
    if campaign.is_some() {
        gui.campaign = campaign;
        // The title screen first.
        gui.apply(&mut game, AppCommand::ShowTitle);
    }
    // The pause menu's anti-aliasing choice, unless `--msaa` named one.
    if opts.msaa == Msaa::Auto {
        opts.msaa = gui.settings.msaa.0;
    }
    let game = window::run(game, gui, audio, materials, &opts)?;
    if let (Some(path), Some(actions)) = (&opts.record, game.recorded()) {
        save_replay(path, &Replay::from_actions(actions))?;
        log::info!("recorded {} ticks to {}", actions.len(), path.display());
    }
    Ok(())
}

/// Loads the sounds and the material table (an error names the bad file), reads the volumes from
/// the user's settings file (a bad file is reported and the defaults used: volumes never stop the
/// game), and opens the default audio device, or runs silently without one.
pub fn start_audio(
    opts: &GameOptions,
    game: &Game,
) -> Result<(crate::audio::device::GameAudio, crate::level::Materials), GameError> {
    use crate::audio::{device::GameAudio, events::SoundMap, settings};
    let assets = crate::audio::AudioAssets::load(&opts.data())?;
    let volumes = match UserDirs::resolve() {
        Some(u) => settings::load_volumes(&u.settings_file()).unwrap_or_else(|e| {
            log::warn!("{e}; using the default volumes");
            settings::VolumeSettings::default()
        }),
        None => settings::VolumeSettings::default(),
    };
    let map = SoundMap::new(&assets.materials, &game.world().level());
    let audio = GameAudio::new(std::sync::Arc::new(assets.bank), map, volumes.into(), true);
    Ok((audio, assets.materials))
}
