//! The generated sounds (`tools/sounds`, the `tessera-sounds` crate) against the committed files
//! and the game's loader: every committed file is what the generator builds, `assets/sounds/`
//! holds no other file, and the game decodes each as the sound the catalogue says. The generator
//! is a tool outside the game; this test is where the workspace's `cargo test` checks its output.
use tessera::audio::bank::SOUNDS_DIR;
use tessera::audio::wav;
use tessera::audio::{AudioAssets, Sound};
use tessera::level::DataDir;
use tessera_sounds::{generated_files, RATE};

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_committed_sound_is_what_the_generator_builds() {
    let files = generated_files();
    let count: usize = Sound::all().iter().map(|s| s.variations()).sum();
    assert_eq!(files.len(), count);
    for (path, built) in &files {
        let committed =
            std::fs::read(root().join(path)).unwrap_or_else(|e| panic!("{path} is committed: {e}"));
        assert!(
            committed == *built,
            "{path} differs from what the generator builds; regenerate with \
             `cargo run -p tessera-sounds`"
        );
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(root().join(SOUNDS_DIR))
        .unwrap()
        .map(|e| format!("{SOUNDS_DIR}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    on_disk.sort();
    let mut names: Vec<String> = files.into_iter().map(|(n, _)| n).collect();
    names.sort();
    assert_eq!(
        on_disk, names,
        "assets/sounds/ holds exactly the generated files"
    );
}

/// The game loads every sound from the data directory, each variation decoding to the generator's
/// samples at its rate, mono.
#[test]
fn the_game_decodes_every_shipped_sound_as_generated() {
    let assets = AudioAssets::load(&DataDir::at(root())).unwrap();
    for s in Sound::all() {
        for v in 0..s.variations() {
            let path = root().join(SOUNDS_DIR).join(s.file_name(v));
            let file = wav::read(&path).unwrap();
            assert_eq!((file.rate, file.channels), (RATE, 1), "{path:?}");
            assert_eq!(file.samples, tessera_sounds::synthesize(s, v), "{path:?}");
            let clip = assets.bank.clip(s, v);
            assert_eq!(clip.rate, RATE as f64);
            assert_eq!(clip.data.len(), file.samples.len(), "{s:?} {v}");
        }
    }
}
