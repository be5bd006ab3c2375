//! Which tuning a command uses: the named file, else the shipped file, else the built-in defaults.
use std::path::Path;

use tessera::level::{load_tuning, DEFAULT_TUNING_PATH};
use tessera::movement::Tuning;

/// The tuning and a description of where it came from (for summaries).
pub fn resolve(path: Option<&Path>) -> anyhow::Result<(Tuning, String)> {
    let path = match path {
        Some(p) => p,
        None if Path::new(DEFAULT_TUNING_PATH).is_file() => Path::new(DEFAULT_TUNING_PATH),
        None => return Ok((Tuning::default(), "built-in defaults".to_string())),
    };
    Ok((load_tuning(path)?, path.display().to_string()))
}
