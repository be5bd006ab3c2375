//! `cargo run -p tessera-sounds` writes every generated sound to its committed place in the
//! repository (`assets/sounds/*.wav`); `cargo run -p tessera-sounds -- --check` writes nothing
//! and fails when a committed file differs from what the generator builds. Either way a file in
//! `assets/sounds/` that the generator does not make is reported and fails the run (the game
//! would never read it).
use std::path::Path;
use std::process::ExitCode;

use tessera::audio::bank::SOUNDS_DIR;

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("usage: tessera-sounds [--check] (unknown argument {other:?})");
            return ExitCode::from(2);
        }
    };
    // The repository's root: this crate lives in `tools/sounds`.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = tessera_sounds::generated_files();
    let mut differ = 0;
    for (path, built) in &files {
        let file = root.join(path);
        let same = std::fs::read(&file).is_ok_and(|c| c == *built);
        if check {
            if !same {
                eprintln!("{path} differs from what the generator builds");
                differ += 1;
            }
        } else if !same {
            if let Err(e) = std::fs::write(&file, built) {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
            println!("wrote {path} ({} bytes)", built.len());
        }
    }
    let dir = root.join(SOUNDS_DIR);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) => {
            eprintln!("{SOUNDS_DIR}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut strays = 0;
    for entry in entries.flatten() {
        let path = format!("{SOUNDS_DIR}/{}", entry.file_name().to_string_lossy());
        if !files.iter().any(|(p, _)| *p == path) {
            eprintln!("{path} is not made by the generator (remove it)");
            strays += 1;
        }
    }
    if differ > 0 {
        eprintln!("regenerate with `cargo run -p tessera-sounds`");
    }
    if differ > 0 || strays > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
