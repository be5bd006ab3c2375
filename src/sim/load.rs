//! Building a world from files, the same way for every command: the level (default: the data
//! directory's `levels/default.ron`), the base tuning by the one policy
//! ([`level::resolve_tuning`](crate::level::resolve_tuning)), and an optional replay. `tessera
//! play`, `sim`, `render` and the editor all start here, so they cannot disagree about which
//! files a run uses.
use std::path::{Path, PathBuf};

use super::replay::{load_replay, Replay, ReplayError};
use super::world::{World, WorldError};
use crate::level::{
    load_level, resolve_tuning, DataDir, Level, LevelError, MissingDataFile, TuningFileError,
    TuningSource, DEFAULT_LEVEL_PATH,
};
use crate::movement::Tuning;

/// The files a run is made of. Relative paths the user gave are looked up as
/// [`DataDir::user_file`] does: the working directory, then the data directory.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldFiles {
    /// Where default files are found.
    pub data: DataDir,
    /// The level file; `None`: the data directory's default level.
    pub level: Option<PathBuf>,
    /// A tuning file; `None`: the data directory's `assets/tuning.ron` if present, else the
    /// built-in defaults.
    pub tuning: Option<PathBuf>,
    /// An input script.
    pub replay: Option<PathBuf>,
}

impl WorldFiles {
    /// The default level and tuning of `data`, no replay.
    pub fn new(data: DataDir) -> Self {
        WorldFiles {
            data,
            level: None,
            tuning: None,
            replay: None,
        }
    }
}

/// A world built from files, and what it was built from.
pub struct LoadedWorld {
    /// The world, at tick 0.
    pub world: World,
    /// The level as loaded.
    pub level: Level,
    /// The level file used.
    pub level_path: PathBuf,
    /// The base tuning (before the level's overrides).
    pub tuning: Tuning,
    /// Where the base tuning came from.
    pub tuning_source: TuningSource,
    /// The replay, if one was named.
    pub replay: Option<Replay>,
}

/// A run's files could not be loaded or built. Every variant names its file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A default file is in none of the data directory's places.
    #[error(transparent)]
    Missing(#[from] MissingDataFile),
    /// The level file is unreadable or invalid.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// The tuning file is unreadable or invalid.
    #[error(transparent)]
    Tuning(#[from] TuningFileError),
    /// The replay file is unreadable or invalid.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The level is valid data but no world can be built from it (meshes, spawn, tuning).
    /// The message already holds `error`'s whole text, so it is not also given as the error's
    /// source (a reporter that prints the chain would repeat it).
    #[error("{}: {error}", path.display())]
    World {
        /// The level file.
        path: PathBuf,
        /// What went wrong.
        error: WorldError,
    },
}

/// Loads every file first (so a bad one fails before anything runs), then builds the world.
pub fn load_world(files: &WorldFiles) -> Result<LoadedWorld, LoadError> {
    let level_path = match &files.level {
        Some(p) => files.data.user_file(p),
        None => files.data.find(DEFAULT_LEVEL_PATH)?,
    };
    let level = load_level(&level_path)?;
    let (tuning, tuning_source) = resolve_tuning(&files.data, files.tuning.as_deref())?;
    let replay = files
        .replay
        .as_deref()
        .map(|p| load_replay(files.data.user_file(p)))
        .transpose()?;
    let world = build_world(&level_path, &level, &tuning)?;
    Ok(LoadedWorld {
        world,
        level,
        level_path,
        tuning,
        tuning_source,
        replay,
    })
}

/// [`World::new`], with the error naming the level file.
pub fn build_world(path: &Path, level: &Level, tuning: &Tuning) -> Result<World, LoadError> {
    World::new(level, tuning).map_err(|error| LoadError::World {
        path: path.to_path_buf(),
        error,
    })
}
