//! Real device output through rodio, into ALSA's null device (no sound card needed), and the
//! silent fallback when no device opens. One test: both steps set `ALSA_CONFIG_PATH` for the
//! process, so they must not run in parallel.
use std::sync::Arc;

use glam::DVec2;
use tessera::audio::bank::Bank;
use tessera::audio::device::GameAudio;
use tessera::audio::events::SoundMap;
use tessera::audio::mixer::Volumes;
use tessera::level::{Level, Materials};
use tessera::movement::MoveEvent;

fn level() -> Level {
    tessera::level::parse_level(
        std::path::Path::new("x.ron"),
        "(name: \"x\", polygons: [], spawn: (0.0, 0.0))",
    )
    .unwrap()
}

fn alsa_config(dir: &std::path::Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::env::set_var("ALSA_CONFIG_PATH", &path);
}

#[test]
#[cfg(target_os = "linux")]
fn plays_into_the_null_device_and_falls_back_to_silence_without_one() {
    let dir = std::env::temp_dir().join(format!("tessera-alsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bank = Arc::new(Bank::generated());
    let map = || SoundMap::new(&Materials::default(), &level());
    let events = [(1, MoveEvent::Jumped), (2, MoveEvent::Bonked)];

    // No usable default device: silent, one log line, the events still counted.
    alsa_config(
        &dir,
        "none.conf",
        "pcm.!default { type hw card 99 device 0 }\n",
    );
    let mut audio = GameAudio::new(Arc::clone(&bank), map(), Volumes::default(), true);
    assert!(!audio.playing());
    audio.frame(&events, DVec2::ZERO, DVec2::ZERO);
    assert_eq!((audio.cues_made, audio.cues_dropped), (2, 2));
    assert_eq!(audio.samples_played(), 0);
    drop(audio);

    // The null device: the mixer runs on the audio thread and the device pulls its samples.
    alsa_config(&dir, "null.conf", "pcm.!default { type null }\n");
    let mut audio = GameAudio::new(Arc::clone(&bank), map(), Volumes::default(), true);
    assert!(audio.playing(), "the ALSA null device did not open");
    audio.frame(&events, DVec2::ZERO, DVec2::ZERO);
    assert_eq!((audio.cues_made, audio.cues_dropped), (2, 0));
    // Wait for the device to take a tenth of a second of sound (progress, not a time limit:
    // the loop ends as soon as the samples are there).
    let mut polls = 0u64;
    while audio.samples_played() < 2 * 4800 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        polls += 1;
        assert!(polls < 100_000, "the device never pulled samples");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
