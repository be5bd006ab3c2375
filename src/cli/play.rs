//! `tessera` without a subcommand: play the default level.
//!
//! The game window is not part of this build yet, so this validates the default level and says
//! so, pointing at the headless `sim` command.
use std::process::ExitCode;

use tessera::level::{load_level, DEFAULT_LEVEL_PATH};

/// Exit status of a play request while the window is not built (2, like a usage error).
const NOT_BUILT: u8 = 2;

/// Loads the default level, then explains that the window is not built yet.
pub fn play_default() -> anyhow::Result<ExitCode> {
    let level = load_level(DEFAULT_LEVEL_PATH)?;
    eprintln!(
        "tessera: the game window is not built yet, so level \"{}\" cannot be played; \
         simulate it headless with `tessera sim --level {DEFAULT_LEVEL_PATH}`",
        level.name
    );
    Ok(ExitCode::from(NOT_BUILT))
}
