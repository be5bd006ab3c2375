//! Levels as plain data, and the one loader of the game's RON data files.
//!
//! # What it owns
//! - [`Level`]: the level document (polygons, ladders, doors, agents, movers, checkpoints, the
//!   goal, spawn, bounds, tuning overrides, and the signs the front end draws: [`sign`]). It is
//!   `Clone + PartialEq` data with no behaviour beyond conversion to the collision core's input,
//!   so the editor can snapshot and diff it for undo.
//! - [`LevelDoc`] ([`shared`]): the one level document of a running game, a handle the editor
//!   edits through and the simulation's world reads (one level, no copy kept in step).
//! - [`signal`]: named signals, their sources and the targets' signal names, and their check.
//! - [`objects`]: the objects people expect (a falling platform, a crumbling block, ...), each
//!   a registered kind made of movers, doors and signals ([`Level::played`] expands them).
//! - [`track`]: a mover's track (keys, holds, legs, repeat) as plain data, and its check.
//! - Validation ([`validate`]): the one validator, everything a level can get wrong, checked
//!   before anything is built, each problem a [`LevelProblem`] naming its culprit (polygon or
//!   ladder index, field). Loading, saving, `tessera check` and the editor's edits all use it.
//! - Files: [`load_level`] / [`save_level`], [`load_tuning`], [`load_materials`] (the material
//!   table the renderer and the audio share), and the shared RON plumbing
//!   ([`file`](mod@file)) that replays and key bindings use too: errors name the file and, for
//!   RON syntax and type errors, the line and column; saves are atomic (temp file, fsync, rename).
//! - Where files live ([`paths`]): the one data-directory resolver every command uses, and the
//!   user's config and data directories, and where the editor may save ([`SavePlaces`]: never
//!   into the install directory); the one tuning policy ([`resolve_tuning`]).
//! - [`campaign`]: the sequence of levels the game plays (`levels/campaign.ron`) and the
//!   player's progress through it.
//! - [`comments`]: a RON lexer pass that finds a file's comments (the editor's save drops them,
//!   and asks first).
//!
//! Policy for a spawn point inside solid geometry: not an error here. The simulation moves the
//! hero to the nearest free point and reports a warning (`sim::World::warnings`), which
//! `tessera check` prints; a level whose free space is empty fails to load into a world.
//!
//! # Must never depend on
//! Window, GPU, audio or input crates, or the simulation (`sim` depends on `level`, not the other
//! way round). It reads only `collision` (polygon types, validation) and `movement` (tuning).
pub mod campaign;
pub mod comments;
pub mod design;
pub mod document;
pub mod error;
pub mod fields;
pub mod file;
pub mod limits;
pub mod load;
pub mod materials;
pub mod objects;
pub mod paths;
pub mod save;
pub mod shared;
pub mod sign;
pub mod signal;
pub mod track;
pub mod tuning_file;
pub mod validate;

pub use comments::{find_comments, has_comments, Comment};
pub use design::{design_warnings, DesignWarning};
pub use document::{
    AgentKind, AgentSize, HazardLook, Ladder, Level, LevelAgent, LevelDoor, LevelMover,
    LevelPolygon, MoverEase, MoverMode, PolygonKind,
};
pub use error::{FileError, LevelError, LevelProblem};
pub use file::{parse_ron, read_ron, read_text, to_ron, write_atomic};
pub use limits::{
    check_counts, check_limits, check_mover_size, check_outline_counts, LimitExceeded,
};
pub use load::{load_level, parse_level, DEFAULT_LEVEL_PATH};
pub use materials::{
    load_materials, parse_materials, FootstepSound, Material, Materials, MaterialsError,
};
pub use paths::{
    DataDir, DataOrigin, MissingDataFile, SavePlaces, SaveTarget, UserDirs, BINDINGS_FILE,
    DEFAULT_LEVEL, MATERIALS_FILE, TUNING_FILE,
};
pub use save::{level_to_ron, save_level};
pub use shared::LevelDoc;
pub use sign::LevelSign;
pub use signal::{LevelSignal, MoverStart, RegionEdge, SignalSource, SignalWho};
pub use track::{track_problem, Track, TrackEase, TrackKey, TrackRepeat};
pub use tuning_file::{
    load_tuning, parse_tuning, resolve_tuning, save_tuning, TuningFileError, TuningSource,
    DEFAULT_TUNING_PATH,
};
