//! Why a model could not be loaded: one typed error per way a file can be bad, each a clear
//! sentence (the caller adds the file's path, see [`ModelFileError`]).
use std::path::PathBuf;

/// A model file (binary glTF) that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum AnimError {
    /// Shorter than its own header says, or too short to hold a header.
    #[error("truncated: {0}")]
    Truncated(String),
    /// Neither a binary glTF (`glTF` magic) nor glTF JSON.
    #[error("not a glTF file: {0}")]
    NotGltf(String),
    /// A glTF file that breaks the format's rules (a dangling index, a bad accessor).
    #[error("invalid glTF: {0}")]
    Invalid(String),
    /// No skin, or a skin without joints or inverse bind matrices.
    #[error("missing skin: {0}")]
    MissingSkin(String),
    /// A skinned mesh primitive without an attribute skinning needs (`POSITION`, `JOINTS_0`,
    /// `WEIGHTS_0`); a missing `NORMAL` is not an error (flat normals are computed).
    #[error("missing attribute: {0}")]
    MissingAttribute(String),
    /// Valid glTF that this loader does not handle: a required extension, more joints than the
    /// renderer's palette, a primitive that is not a triangle list.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// No animation clips at all.
    #[error(
        "missing clips: the file has no animations (a character file's `animations` can bring \
         them from other files)"
    )]
    NoClips,
    /// An animation file whose animated nodes are named after none of the model's joints.
    #[error("no joint in common: {0}")]
    NoJointInCommon(String),
    /// Two clips of one character (its model's and its animation files') with one name.
    #[error(
        "the clip `{0}` is already loaded (from the model or an earlier animation file): clip \
         names must differ, rename one of the files or clips"
    )]
    DuplicateClip(String),
    /// A clip the animation controller needs is not in the file.
    #[error("missing clip `{0}` (the hero's animation controller needs it)")]
    MissingClip(&'static str),
    /// A role is mapped (by a character file) to a clip name the model does not have.
    #[error(
        "the role `{role}` is mapped to the clip `{clip}`, which the model does not have (its \
         clips: {available})"
    )]
    UnknownClip {
        /// The role.
        role: &'static str,
        /// The name it was mapped to.
        clip: String,
        /// The model's clip names, quoted, comma-separated.
        available: String,
    },
}

/// An [`AnimError`] with the file it came from, or a file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ModelFileError {
    /// The file could not be read.
    #[error("{}: cannot read: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The file system's error (a field, not a `source`: the message already says it, and
        /// `{:#}` would say it twice).
        error: std::io::Error,
    },
    /// The file was read but is not a usable model.
    #[error("{}: {error}", path.display())]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: AnimError,
    },
}
