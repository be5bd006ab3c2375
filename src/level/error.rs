//! Errors of the data files: every message starts with the file's path, then the place (line and
//! column for RON errors, an object index for validation problems), then what is wrong.
//!
//! Each message is complete on one line: inner errors are part of the `Display` text and are not
//! also returned by `source()`, so printing the chain (`anyhow`'s `{:#}`) never repeats them.
use std::path::{Path, PathBuf};

use super::document::MUSIC_TRACKS;
use super::limits::LimitExceeded;
use crate::collision::GeometryError;
use crate::movement::TuningError;

/// Reading, parsing or writing a RON data file failed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened or read (missing, a directory, no permission).
    #[error("{}: cannot read: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The file is larger than [`super::limits::MAX_FILE_BYTES`]; refused before it is read.
    #[error(
        "{}: {bytes} bytes, more than the limit of {} bytes (64 MiB) per data file",
        path.display(),
        super::limits::MAX_FILE_BYTES
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size, or at least how much was read before the limit was passed.
        bytes: u64,
    },
    /// The file is not valid RON, or a value has the wrong type, or a field is unknown or missing.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the parser expected or refused.
        message: String,
    },
    /// The document could not be turned into RON.
    #[error("{}: cannot serialize: {message}", path.display())]
    Serialize {
        /// The file that was to be written.
        path: PathBuf,
        /// The serializer's message.
        message: String,
    },
    /// Writing the file failed; the previous file, if any, is unchanged.
    #[error("{}: cannot write: {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
}

impl FileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Read { path, .. }
            | FileError::TooLarge { path, .. }
            | FileError::Syntax { path, .. }
            | FileError::Serialize { path, .. }
            | FileError::Write { path, .. } => path,
        }
    }
}

/// A level file could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// Reading, parsing or writing failed.
    #[error(transparent)]
    File(#[from] FileError),
    /// The file parsed but the level is invalid.
    #[error("{}: {problem}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The first problem found.
        problem: LevelProblem,
    },
}

/// What is wrong with a parsed level, naming the culprit.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LevelProblem {
    /// A polygon is malformed (the message names `polygon N`, N its index in `polygons`).
    #[error("{0}")]
    Polygon(GeometryError),
    /// A polygon's colour has a component outside `[0, 1]` or not finite.
    #[error("polygon {index}: colour {colour:?} must have components between 0 and 1")]
    Colour {
        /// Index in `polygons`.
        index: usize,
        /// The colour as written.
        colour: [f32; 3],
    },
    /// A polygon that is not a hazard has a hazard's look (`look: lava` on a solid).
    #[error("polygon {index}: look: {} is for a hazard, and this polygon is not one", .look.name())]
    HazardLook {
        /// Index in `polygons`.
        index: usize,
        /// The look as written.
        look: super::HazardLook,
    },
    /// A ladder is empty, inverted, not finite or out of range.
    #[error("ladder {index}: {why}")]
    Ladder {
        /// Index in `ladders`.
        index: usize,
        /// The problem.
        why: String,
    },
    /// A checkpoint region is empty, inverted, out of range or outside the level's bounds.
    #[error("checkpoint {index}: {why}")]
    Checkpoint {
        /// Index in `checkpoints`.
        index: usize,
        /// The problem.
        why: String,
    },
    /// The goal region is empty, inverted, out of range or outside the level's bounds.
    #[error("goal: {why}")]
    Goal {
        /// The problem.
        why: String,
    },
    /// The spawn point is not finite or out of range.
    #[error(
        "spawn ({}, {}) must be finite and within ±1e7 m",
        crate::collision::readable(.x),
        crate::collision::readable(.y)
    )]
    Spawn {
        /// As written.
        x: f64,
        /// As written.
        y: f64,
    },
    /// A door's outline, switch or timer is unusable.
    #[error("door {index}: {why}")]
    Door {
        /// Index in `doors`.
        index: usize,
        /// The problem.
        why: String,
    },
    /// An agent's spawn point or facing is unusable.
    #[error("agent {index}: {why}")]
    Agent {
        /// Index in `agents`.
        index: usize,
        /// The problem.
        why: String,
    },
    /// A mover's pieces, path or period is unusable.
    #[error("mover {index}: {why}")]
    Mover {
        /// Index in `movers`.
        index: usize,
        /// The problem.
        why: String,
    },
    /// A sign's text is empty, too long or names an action that does not exist, or its point is
    /// out of range.
    #[error("sign {index}: {why}")]
    Sign {
        /// Index in `signs`.
        index: usize,
        /// The problem.
        why: String,
    },
    /// A signal's name is empty or taken, or its source unusable (`level::signal`).
    #[error("signal {index}: {why}")]
    Signal {
        /// Index in `signals`.
        index: usize,
        /// The problem.
        why: String,
    },
    /// An object (`level::objects`) is unusable.
    #[error("{object}: {why}")]
    Object {
        /// The object (`"falling platform 2"`).
        object: String,
        /// What is wrong.
        why: String,
    },
    /// A target's signal field (a door's, a mover's, a hazard's) names a signal no source
    /// defines, belongs to what cannot take it, or closes a loop that would never settle.
    #[error("{object}: {why}")]
    SignalTarget {
        /// The target, as messages name it: `door 2`, `mover 0`.
        object: String,
        /// The problem, naming the field and the signal.
        why: String,
    },
    /// `camera_bounds` or `bounds` is empty, inverted, not finite or out of range.
    #[error("{field}: {why}")]
    Bounds {
        /// `camera_bounds` or `bounds`.
        field: &'static str,
        /// The problem.
        why: String,
    },
    /// `music` names no track the game has.
    #[error("music: track {track} does not exist; the game has tracks 1 to {MUSIC_TRACKS}")]
    Music {
        /// The track named.
        track: u32,
    },
    /// The tuning overrides, applied to the default tuning, give a value out of range.
    #[error("tuning overrides: {0}")]
    Tuning(TuningError),
    /// The level holds more polygons, points or ladders than [`super::limits`] allows.
    #[error("{0}")]
    Limit(LimitExceeded),
}
