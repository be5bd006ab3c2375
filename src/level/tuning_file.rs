//! The movement tuning file (`assets/tuning.ron`): read, parse, range-check.
//!
//! `Tuning` itself lives in `movement` (it is the movement's definition struct); this module only
//! brings it in from disk, like every other data file.
use std::path::{Path, PathBuf};

use super::error::FileError;
use super::file::{parse_ron, read_text};
use crate::movement::{Tuning, TuningError};

/// The tuning file the game loads by default, relative to the repository root.
pub const DEFAULT_TUNING_PATH: &str = "assets/tuning.ron";

/// A tuning file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum TuningFileError {
    /// Reading or parsing failed (unknown fields are reported here, with line and column).
    #[error(transparent)]
    File(#[from] FileError),
    /// A value is out of range.
    #[error("{}: {error}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The field and its allowed range.
        error: TuningError,
    },
}

/// Reads a tuning file: missing fields take their defaults, unknown fields are refused, every
/// value is range-checked.
pub fn load_tuning(path: impl AsRef<Path>) -> Result<Tuning, TuningFileError> {
    let path = path.as_ref();
    parse_tuning(path, &read_text(path)?)
}

/// Parses and checks tuning text as if read from `path` (used in error messages only).
pub fn parse_tuning(path: &Path, text: &str) -> Result<Tuning, TuningFileError> {
    let tuning: Tuning = parse_ron(path, text)?;
    tuning
        .validate()
        .map_err(|error| TuningFileError::Invalid {
            path: path.to_path_buf(),
            error,
        })?;
    Ok(tuning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_tuning_file_is_the_default() {
        let text = include_str!("../../assets/tuning.ron");
        let t = parse_tuning(Path::new(DEFAULT_TUNING_PATH), text).unwrap();
        assert_eq!(t, Tuning::default());
    }

    #[test]
    fn partial_files_take_defaults() {
        let t = parse_tuning(Path::new("t.ron"), "(run_speed: 9.5)").unwrap();
        assert_eq!(t.run_speed, 9.5);
        assert_eq!(t.gravity, Tuning::default().gravity);
    }

    #[test]
    fn out_of_range_and_unknown_fields_name_file_and_field() {
        let e = parse_tuning(Path::new("t.ron"), "(\n  jump_cut: 1.5,\n)").unwrap_err();
        assert!(e.to_string().starts_with("t.ron: "), "{e}");
        assert!(e.to_string().contains("jump_cut"), "{e}");
        let e = parse_tuning(Path::new("t.ron"), "(\n  jump_hight: 3.0,\n)").unwrap_err();
        assert!(e.to_string().starts_with("t.ron:2:"), "{e}");
        assert!(e.to_string().contains("jump_hight"), "{e}");
    }
}
