//! The movement tuning file (`assets/tuning.ron`): read, parse, range-check, and the one policy
//! every command uses to pick its tuning ([`resolve_tuning`]).
//!
//! `Tuning` itself lives in `movement` (it is the movement's definition struct); this module only
//! brings it in from disk, like every other data file.
//!
//! # Policy
//! `play`, `sim`, `check`, `render` and the editor all take their tuning from [`resolve_tuning`]:
//! a file named on the command line, else the data directory's `assets/tuning.ron` when present,
//! else the built-in defaults. The level's overrides go on top when the world is built
//! (`sim::World` keeps this base tuning and applies the overrides of whichever level it holds).
use std::fmt;
use std::path::{Path, PathBuf};

use super::error::FileError;
use super::file::{parse_ron, read_text};
use super::paths::{DataDir, TUNING_FILE};
use crate::movement::{Tuning, TuningError};

/// The tuning file the game loads by default, relative to the data directory.
pub const DEFAULT_TUNING_PATH: &str = TUNING_FILE;

/// Where a command's tuning came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuningSource {
    /// This file.
    File(PathBuf),
    /// No file: the built-in defaults.
    Defaults,
}

impl fmt::Display for TuningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuningSource::File(p) => write!(f, "{}", p.display()),
            TuningSource::Defaults => f.write_str("built-in defaults"),
        }
    }
}

/// The base tuning of every command (see the module docs): `explicit` (a file the user named,
/// looked up with [`DataDir::user_file`]) if given, else the data directory's tuning file when
/// present, else the defaults.
pub fn resolve_tuning(
    data: &DataDir,
    explicit: Option<&Path>,
) -> Result<(Tuning, TuningSource), TuningFileError> {
    let path = match explicit {
        Some(p) => data.user_file(p),
        None => match data.find_optional(TUNING_FILE) {
            Some(p) => p,
            None => return Ok((Tuning::default(), TuningSource::Defaults)),
        },
    };
    let tuning = load_tuning(&path)?;
    Ok((tuning, TuningSource::File(path)))
}

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

/// Range-checks `tuning` and writes it to `path` atomically (the tuning panel's save); on error
/// the old file stays.
pub fn save_tuning(path: impl AsRef<Path>, tuning: &Tuning) -> Result<(), TuningFileError> {
    let path = path.as_ref();
    tuning
        .validate()
        .map_err(|error| TuningFileError::Invalid {
            path: path.to_path_buf(),
            error,
        })?;
    let text = super::file::to_ron(path, tuning, 3)?;
    super::file::write_atomic(path, text.as_bytes())?;
    Ok(())
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
mod save_tests {
    use super::*;

    #[test]
    fn saved_tuning_loads_back_and_bad_values_are_not_written() {
        let d = std::env::temp_dir().join(format!("tessera-tuning-save-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join("tuning.ron");
        let mut t = Tuning {
            run_speed: 9.5,
            ..Tuning::default()
        };
        save_tuning(&path, &t).unwrap();
        assert_eq!(load_tuning(&path).unwrap(), t);
        t.jump_cut = 7.0;
        let e = save_tuning(&path, &t).unwrap_err();
        assert!(e.to_string().contains("jump_cut"), "{e}");
        assert_eq!(
            load_tuning(&path).unwrap().jump_cut,
            Tuning::default().jump_cut
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
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
    fn the_policy_is_the_named_file_else_the_data_file_else_the_defaults() {
        let dir = std::env::temp_dir().join(format!("tessera-tuning-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        let data = DataDir::at(&dir);
        assert_eq!(
            resolve_tuning(&data, None).unwrap(),
            (Tuning::default(), TuningSource::Defaults)
        );
        std::fs::write(dir.join(TUNING_FILE), "(run_speed: 9.5)").unwrap();
        let (t, src) = resolve_tuning(&data, None).unwrap();
        assert_eq!(t.run_speed, 9.5);
        assert_eq!(src, TuningSource::File(dir.join(TUNING_FILE)));
        let named = dir.join("other.ron");
        std::fs::write(&named, "(run_speed: 7.5)").unwrap();
        let (t, src) = resolve_tuning(&data, Some(&named)).unwrap();
        assert_eq!(t.run_speed, 7.5);
        assert_eq!(src, TuningSource::File(named));
        std::fs::write(dir.join(TUNING_FILE), "(run_speed: -1.0)").unwrap();
        let e = resolve_tuning(&data, None).unwrap_err();
        assert!(e.to_string().contains("run_speed"), "{e}");
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
