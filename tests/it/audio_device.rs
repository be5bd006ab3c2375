//! Real device output through rodio, into ALSA's null device (no sound card needed), and the
//! silent fallback when no device opens. Each step runs in a child process of its own with its
//! `ALSA_CONFIG_PATH`: the variable is read by ALSA for the whole process, and the other tests of
//! this executable run beside it.
//!
//! Linux only: the ALSA configuration is what chooses the device.
#![cfg(target_os = "linux")]
use std::ffi::OsStr;
use std::sync::Arc;

use glam::DVec2;
use tessera::audio::bank::{Bank, SOUNDS_DIR};
use tessera::audio::device::GameAudio;
use tessera::audio::events::SoundMap;
use tessera::audio::mixer::Volumes;
use tessera::level::{Level, Materials};
use tessera::movement::MoveEvent;

fn level() -> Level {
    Level::empty("x")
}

/// Set in the child processes that open the device: which step to run. The child is the test
/// below run again with it set; without it (run directly) the test is the parent and asserts.
const CHILD_ENV: &str = "TESSERA_AUDIO_DEVICE_STEP";

/// One step of the test below, in a process of its own whose `ALSA_CONFIG_PATH` names the ALSA
/// configuration.
fn device_step(step: &std::ffi::OsStr) {
    let sounds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SOUNDS_DIR);
    let bank = Arc::new(Bank::load(&sounds).unwrap());
    let map = || SoundMap::new(&Materials::default(), &level());
    let events = [(1, MoveEvent::Jumped), (2, MoveEvent::Bonked)];
    let mut audio = GameAudio::new(Arc::clone(&bank), map(), Volumes::default(), true);
    if step == "none" {
        // No usable default device: silent, one log line, the events still counted.
        assert!(!audio.playing());
        audio.frame(&events, &[], &[], DVec2::ZERO, DVec2::ZERO);
        assert_eq!((audio.cues_made, audio.cues_dropped), (2, 2));
        assert_eq!(audio.samples_played(), 0);
        return;
    }
    assert_eq!(step, "null");
    // The null device: the mixer runs on the audio thread and the device pulls its samples.
    assert!(audio.playing(), "the ALSA null device did not open");
    audio.frame(&events, &[], &[], DVec2::ZERO, DVec2::ZERO);
    assert_eq!((audio.cues_made, audio.cues_dropped), (2, 0));
    // Wait for the device to take a tenth of a second of sound (progress, not a time limit:
    // the loop ends as soon as the samples are there).
    let mut polls = 0u64;
    while audio.samples_played() < 2 * 4800 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        polls += 1;
        assert!(polls < 100_000, "the device never pulled samples");
    }
}

/// Runs each step in a child process (this test again, with [`CHILD_ENV`] and its ALSA
/// configuration set) and asserts that the child ran this one test and passed.
#[test]
fn plays_into_the_null_device_and_falls_back_to_silence_without_one() {
    if let Some(step) = std::env::var_os(CHILD_ENV) {
        device_step(&step);
        return;
    }
    let dir = std::env::temp_dir().join(format!("tessera-alsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let child = crate::common::test_name(
        module_path!(),
        "plays_into_the_null_device_and_falls_back_to_silence_without_one",
    );
    for (step, text) in [
        ("none", "pcm.!default { type hw card 99 device 0 }\n"),
        ("null", "pcm.!default { type null }\n"),
    ] {
        let conf = dir.join(format!("{step}.conf"));
        std::fs::write(&conf, text).unwrap();
        let out = crate::common::rerun_as_child(
            &child,
            &[
                (CHILD_ENV, OsStr::new(step)),
                ("ALSA_CONFIG_PATH", conf.as_os_str()),
            ],
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("test result: ok. 1 passed"),
            "step {step}: {}\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
