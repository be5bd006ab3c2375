//! Sound: the committed samples, an offline-first deterministic mixer fed by movement events,
//! and device output through `rodio`.
//!
//! # What it owns
//! - [`sounds`]: the catalogue (footsteps per surface set, jump, land, bonk, rung, wall-slide
//!   loop, music loop) and its files under `assets/sounds/`; [`wav`]: 16-bit WAV in and out;
//!   [`dsp`]: the seeded RNG and `libm`-free sin/cos/exp that keep the mixer bit-reproducible.
//!   The files are made by the sound generator, the tool `tools/sounds` (crate `tessera-sounds`,
//!   fixed seeds, a test pins them byte for byte): the game synthesises nothing at run time and
//!   reads only the committed files.
//! - [`bank`]: every file decoded once at start (no file I/O or decoding afterwards).
//! - [`events`]: movement events to cues (the table is in its docs), footsteps by the surface's
//!   material (`assets/materials.ron`, shared with the renderer), panning by horizontal offset
//!   from the listener ([`events::PAN_WIDTH`] = 12 m) and distance attenuation
//!   ([`events::FULL_LEVEL_DISTANCE`] = 4 m, then inverse distance over
//!   [`events::ROLLOFF_DISTANCE`] = 10 m).
//! - [`mixer`]: stereo `f32` at 48 kHz; voices with resampling by pitch; effects, music and master
//!   buses; per-sound voice caps and minimum retrigger times ([`mixer::limits`]); round-robin
//!   variations with ±4 % pitch and ±10 % gain from a seeded RNG; the music loop ducked by 8 dB
//!   for 0.25 s under loud effects; a soft limiter above 0.8 so the output never clips. Every
//!   constant is documented where it is defined, with its unit and reason.
//! - [`offline`]: `tessera sim --audio OUT.wav`, the same mixer driven tick by tick (400 output
//!   frames per 120 Hz tick), deterministic; [`device`]: the same mixer as a rodio source on the
//!   audio thread, fed through a bounded channel, silent (and still counting) without a device;
//!   [`settings`]: the volumes in the user's settings file.
//!
//! # Must never depend on
//! The window, GPU or input crates, the sound generator, or the simulation's internals: it reads `MoveEvent`s, the
//! level's polygons (for materials) and positions the caller passes. The simulation layers never
//! import this module or `rodio` (`tests/it/layering.rs`).
//!
//! # Timing
//! The game collects each frame's events with their ticks (`app::Game::frame_events`) and sends
//! their cues once per frame; the audio thread applies cues at the start of each
//! [`device::BLOCK_FRAMES`] block (5.3 ms). Event to first sample: at most one frame, one block
//! and the device's own buffer. Offline, the cues of tick `n` start exactly at output frame
//! `(n − 1) × 400`.
pub mod dsp;
pub mod sounds;
pub mod wav;

pub use sounds::Sound;
pub mod bank;
pub mod events;
pub mod mixer;
pub mod offline;

use crate::level::{load_materials, DataDir, Materials, MaterialsError, MissingDataFile};

/// The decoded sound bank and the material table, loaded once at start.
pub struct AudioAssets {
    /// Every sound, decoded.
    pub bank: bank::Bank,
    /// The material table (footstep sets and volumes).
    pub materials: Materials,
}

/// The sounds or the material table could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum AudioLoadError {
    /// A data file is missing.
    #[error(transparent)]
    Missing(#[from] MissingDataFile),
    /// The material table is bad.
    #[error(transparent)]
    Materials(#[from] MaterialsError),
    /// A sound file is bad.
    #[error(transparent)]
    Bank(#[from] bank::BankError),
}

impl AudioAssets {
    /// Loads `assets/materials.ron` and decodes every file of `assets/sounds/`, found through the
    /// data directory.
    pub fn load(data: &DataDir) -> Result<AudioAssets, AudioLoadError> {
        let materials = load_materials(data.find(crate::level::MATERIALS_FILE)?)?;
        let probe = format!("{}/{}", bank::SOUNDS_DIR, Sound::Music.file_name(0));
        let music = data.find(&probe)?;
        let dir = music.parent().unwrap_or(std::path::Path::new("."));
        Ok(AudioAssets {
            bank: bank::Bank::load(dir)?,
            materials,
        })
    }
}
pub mod device;
pub mod settings;
