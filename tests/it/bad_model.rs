//! The bad-model corpus (`tests/bad_input/model/`, expectations in its `expected.ron`): every bad
//! hero model gives a clear, typed error naming the file and what is wrong, never a panic, and a
//! model without a clip the controller plays names that clip; a damaged file that still loads
//! animates without a panic.
use std::path::PathBuf;

use glam::DVec2;
use serde::Deserialize;
use tessera::anim::{AnimInput, HeroAnimator, HeroClips, Model, ModelFileError};
use tessera::movement::MoveState;

const DIR: &str = "tests/bad_input/model";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    file: String,
    fragments: Vec<String>,
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DIR)
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(dir().join("expected.ron")).unwrap();
    ron::from_str(&text).unwrap_or_else(|e| panic!("expected.ron: {e}"))
}

/// Loads a model the way the game does: the file, then the controller's clips.
fn load_for_hero(path: &std::path::Path) -> Result<(), String> {
    let model = Model::load(path).map_err(|e| e.to_string())?;
    HeroClips::find(&model).map(|_| ()).map_err(|error| {
        ModelFileError::Bad {
            path: path.to_path_buf(),
            error,
        }
        .to_string()
    })
}

#[test]
fn every_bad_model_is_refused_with_its_reason() {
    for case in cases() {
        let path = dir().join(&case.file);
        let message = load_for_hero(&path).expect_err(&case.file);
        assert!(
            message.starts_with(&path.display().to_string()),
            "{}: message does not start with the path:\n{message}",
            case.file
        );
        for f in &case.fragments {
            assert!(
                message.contains(f.as_str()),
                "{}: message lacks {f:?}:\n{message}",
                case.file
            );
        }
    }
}

#[test]
fn the_corpus_and_its_expectations_match() {
    let listed: Vec<String> = cases().into_iter().map(|c| c.file).collect();
    let on_disk: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "expected.ron")
        .collect();
    for f in &on_disk {
        assert!(listed.contains(f), "{f} has no entry in expected.ron");
    }
    for f in &listed {
        assert_eq!(on_disk.contains(f), f != "missing.glb", "{f}");
    }
}

#[test]
fn the_committed_hero_loads_with_every_clip() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/hero.glb");
    load_for_hero(&path).unwrap();
}

#[test]
fn every_prefix_of_the_hero_is_refused_without_a_panic() {
    // Cut at every 97th byte (and the last few): a truncated download anywhere in the file.
    let bytes =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/hero.glb")).unwrap();
    let cuts = (0..bytes.len())
        .step_by(97)
        .chain(bytes.len() - 4..bytes.len());
    for n in cuts {
        let e = Model::from_glb(&bytes[..n]).expect_err("a cut file");
        assert!(e.to_string().contains("truncated"), "{n} bytes: {e}");
    }
}

#[test]
fn damaged_bytes_anywhere_never_panic() {
    // One byte changed at a time, at 1 500 places spread evenly over the file: 1 200 in the JSON
    // chunk (the structure), 300 in the binary chunk (the numbers). Each load returns a model or
    // an error, never a panic. Strides from the chunk sizes and fixed replacement values keep the
    // test deterministic. (With fixed strides of 7 and 281 bytes it once tried 1 374 places, not
    // the 1 500 it said: the model had shrunk under them; the count is now asserted.)
    let bytes =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/hero.glb")).unwrap();
    let json_end = 20 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let spread = |range: std::ops::Range<usize>, n: usize| {
        assert!(range.len() >= n, "{range:?} has fewer than {n} bytes");
        range.clone().step_by(range.len() / n).take(n)
    };
    let places: Vec<usize> = spread(20..json_end, 1_200)
        .chain(spread(json_end..bytes.len(), 300))
        .collect();
    assert_eq!(places.len(), 1_500);
    let mut refused = 0;
    for (n, &i) in places.iter().enumerate() {
        let mut damaged = bytes.clone();
        damaged[i] = [b'9', b'"', b'}', 0xff, b'-'][n % 5];
        match Model::from_glb(&damaged) {
            Err(_) => refused += 1,
            // A model that loads (damaged numbers can be NaN) animates without a panic too.
            Ok(model) => {
                if let Ok(mut hero) = HeroAnimator::new(model) {
                    for k in 0..4 {
                        let input = AnimInput {
                            state: MoveState::TopDown,
                            ticks_in_state: k,
                            facing: 1.0,
                            vel: DVec2::new(f64::from(k) * 3.0, 0.0),
                            crouched: k == 3,
                            climb_speed: 4.0,
                            ground: None,
                            cue: None,
                            dead: false,
                            charging: false,
                        };
                        hero.tick(&input, &[], 1.0 / 120.0);
                    }
                    let _ = hero.joint_positions(DVec2::ZERO, 0.5);
                }
            }
        }
    }
    // Most changes to the JSON break it; the check is that none of them panicked.
    assert!(refused > 100, "{refused}");
}

/// An animation file (a character file's `animations`, [`Model::add_clips_from`]) cut short
/// anywhere or with a byte changed anywhere is refused or adds its clips, never a panic, and a
/// refused one leaves the model's clips as they were.
#[test]
fn damaged_animation_files_never_panic() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/hero.glb");
    let bytes = std::fs::read(&path).unwrap();
    let model = Model::load(&path).unwrap();
    let mut bare = model.clone();
    bare.clips.clear();
    let no_file = |uri: &str| {
        Err(tessera::anim::AnimError::Invalid(format!(
            "no file `{uri}`"
        )))
    };
    for n in (0..bytes.len()).step_by(97) {
        let mut m = bare.clone();
        let e = m
            .add_clips_from_gltf(&bytes[..n], no_file, "cut")
            .expect_err("a cut file");
        assert!(e.to_string().contains("truncated"), "{n} bytes: {e}");
        assert!(m.clips.is_empty());
    }
    let (mut added, mut refused) = (0, 0);
    for (n, i) in (20..bytes.len()).step_by(bytes.len() / 700).enumerate() {
        let mut damaged = bytes.clone();
        damaged[i] = [b'9', b'"', b'}', 0xff, b'-'][n % 5];
        let mut m = bare.clone();
        match m.add_clips_from_gltf(&damaged, no_file, "damaged") {
            Ok(_) => added += 1,
            Err(_) => {
                assert!(m.clips.is_empty(), "byte {i}: a refused file added clips");
                refused += 1;
            }
        }
    }
    // Both outcomes happen: the damage reaches the structure (refused) and the numbers (added).
    assert!(added > 0 && refused > 0, "{added} added, {refused} refused");
}
