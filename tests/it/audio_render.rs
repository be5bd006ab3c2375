//! Offline audio: `tessera sim --audio` renders the default tour's sound deterministically (its
//! hash is pinned like the state hash in `tests/it/determinism.rs`), below full scale, and the
//! mixer pans events by their side of the listener.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use glam::DVec2;
use tessera::audio::bank::Bank;
use tessera::audio::events::SoundMap;
use tessera::audio::mixer::Volumes;
use tessera::audio::offline::{peak_and_clipped, to_i16, OfflineRender};
use tessera::audio::wav;
use tessera::audio::AudioAssets;
use tessera::level::{DataDir, Level, Materials};
use tessera::movement::MoveEvent;

/// FNV-1a of the WAV file of the default tour (`levels/replays/default_tour.ron` on
/// `levels/default.ron`). Changes when the sounds, the mixer, the event mapping or the movement
/// change; update it deliberately.
const DEFAULT_TOUR_WAV_HASH: u64 = 0x6079_525b_4515_976a;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn render_tour(out: &Path) -> Vec<u8> {
    let status = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .current_dir(root())
        .args(["sim", "--level", "levels/default.ron"])
        .args(["--replay", "levels/replays/default_tour.ron", "--audio"])
        .arg(out)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    std::fs::read(out).unwrap()
}

#[test]
fn the_default_tour_renders_identically_with_a_pinned_hash_and_no_clipping() {
    let dir = std::env::temp_dir().join(format!("tessera-audio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = render_tour(&dir.join("a.wav"));
    let b = render_tour(&dir.join("b.wav"));
    assert!(a == b, "two renders differ");
    let w = wav::decode(Path::new("a.wav"), &a).unwrap();
    assert_eq!((w.rate, w.channels), (48_000, 2));
    let (peak, clipped) = peak_and_clipped(&w.samples);
    assert!(peak < 1.0 && clipped == 0, "peak {peak}, {clipped} clipped");
    assert!(peak > 0.1, "nearly silent: peak {peak}");
    // sox must agree: skipped without it, except in CI (scripts/setup.sh --test installs it),
    // where a missing sox fails.
    if !crate::common::on_path("sox", None) {
        crate::common::skip_outside_ci("sox is not installed (apt-get install sox)");
    } else {
        let o = Command::new("sox")
            .arg(dir.join("a.wav"))
            .args(["-n", "stats"])
            .output()
            .expect("sox runs");
        assert!(o.status.success(), "sox failed: {o:?}");
        let text = String::from_utf8_lossy(&o.stderr);
        let field = |name: &str| {
            text.lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().last())
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or_else(|| panic!("no {name} in sox stats:\n{text}"))
        };
        assert!(field("Pk lev dB") < 0.0, "{text}");
        assert_eq!(field("Flat factor"), 0.0, "{text}");
    }
    assert_eq!(
        fnv(&a),
        DEFAULT_TOUR_WAV_HASH,
        "the render changed: {:#x}",
        fnv(&a)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shipped sounds (`assets/sounds/`), decoded.
fn shipped_bank() -> Bank {
    AudioAssets::load(&DataDir::at(root())).unwrap().bank
}

fn empty_level() -> Level {
    Level::empty("x")
}

/// Energy of the left and right channels of an offline render of `events` at `x`.
fn sides(x: f64) -> (f64, f64) {
    let map = SoundMap::new(&Materials::default(), &empty_level());
    let mut r = OfflineRender::new(Arc::new(shipped_bank()), map, Volumes::default(), false);
    let events = [MoveEvent::Jumped, MoveEvent::Bonked, MoveEvent::LadderRung];
    for e in events {
        r.tick(&[e], &[], &[], DVec2::new(x, 0.0), DVec2::ZERO);
        for _ in 0..30 {
            r.tick(&[], &[], &[], DVec2::ZERO, DVec2::ZERO);
        }
    }
    let s = to_i16(&r.finish());
    let energy = |c: usize| {
        s.iter()
            .skip(c)
            .step_by(2)
            .map(|&v| (v as f64).powi(2))
            .sum()
    };
    (energy(0), energy(1))
}

#[test]
fn events_left_of_the_listener_play_left_and_right_of_it_right() {
    let (l, r) = sides(-30.0);
    assert!(l > 0.0 && r == 0.0, "left event: {l} {r}");
    let (l, r) = sides(30.0);
    assert!(r > 0.0 && l == 0.0, "right event: {l} {r}");
    let (l, r) = sides(0.0);
    assert!((l / r - 1.0).abs() < 1e-9, "centre: {l} {r}");
}
