//! `cargo run -p tessera-models` writes every generated model to its committed place in the
//! repository (`assets/hero.glb`, the enemies' figures, `benches/crowd/hero_10k.glb`);
//! `cargo run -p tessera-models -- --check` writes nothing and fails when a committed file
//! differs from what the generator builds.
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("usage: tessera-models [--check] (unknown argument {other:?})");
            return ExitCode::from(2);
        }
    };
    // The repository's root: this crate lives in `tools/models`.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut differ = 0;
    for (path, built) in tessera_models::generated_files() {
        let file = root.join(&path);
        let same = std::fs::read(&file).is_ok_and(|c| c == built);
        if check {
            if !same {
                eprintln!("{path} differs from what the generator builds");
                differ += 1;
            }
        } else if !same {
            if let Err(e) = std::fs::write(&file, &built) {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
            println!("wrote {path} ({} bytes)", built.len());
        }
    }
    if differ > 0 {
        eprintln!("regenerate with `cargo run -p tessera-models`");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
