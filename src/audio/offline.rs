//! Offline rendering: the sound of a run, tick by tick, through the same [`Mixer`] and event
//! mapping the game uses, into a 16-bit stereo WAV. No device, no clock: the cues of tick `n` are
//! applied at output frame `(n − 1) × FRAMES_PER_TICK`, so a render is a pure function of the
//! level, tuning, replay, materials and bank.
use std::path::Path;
use std::sync::Arc;

use glam::DVec2;

use super::bank::Bank;
use super::events::{cues, SoundMap};
use super::mixer::{Cue, Mixer, Volumes, OUTPUT_RATE};
use crate::movement::MoveEvent;
use crate::sim::TICK_HZ;

/// Output frames per simulation tick (48 000 / 120 = 400, exact).
pub const FRAMES_PER_TICK: usize = (OUTPUT_RATE / TICK_HZ) as usize;
/// Silence rendered after the last tick so the last sounds ring out, s.
pub const TAIL: f64 = 0.5;

/// Accumulates a render tick by tick.
pub struct OfflineRender {
    mixer: Mixer,
    map: SoundMap,
    cues: Vec<Cue>,
    block: Vec<f32>,
    out: Vec<f32>,
}

impl OfflineRender {
    /// A render with these volumes; with `music`, the music loop plays under the effects.
    pub fn new(bank: Arc<Bank>, map: SoundMap, volumes: Volumes, music: bool) -> OfflineRender {
        OfflineRender {
            mixer: Mixer::new(bank, volumes, music),
            map,
            cues: Vec::new(),
            block: vec![0.0; 2 * FRAMES_PER_TICK],
            out: Vec::new(),
        }
    }

    /// One tick: its movement and play events at `source` (the hero) and its world events where
    /// they happened, heard from `listener` (the camera).
    pub fn tick(
        &mut self,
        events: &[MoveEvent],
        play: &[crate::sim::PlayEvent],
        world: &[(crate::sim::WorldEvent, DVec2)],
        source: DVec2,
        listener: DVec2,
    ) {
        self.cues.clear();
        for e in events {
            cues(&self.map, e, source, listener, &mut self.cues);
        }
        for e in play {
            super::events::play_cues(e, source, listener, &mut self.cues);
        }
        for (e, at) in world {
            super::events::world_cues(e, *at, listener, &mut self.cues);
        }
        for c in &self.cues {
            self.mixer.cue(c);
        }
        self.mixer.render(&mut self.block);
        self.out.extend_from_slice(&self.block);
    }

    /// The mixer (for inspection).
    pub fn mixer(&self) -> &Mixer {
        &self.mixer
    }

    /// Renders the tail and returns the interleaved stereo samples.
    pub fn finish(mut self) -> Vec<f32> {
        let ticks = (TAIL * TICK_HZ as f64).round() as usize;
        for _ in 0..ticks {
            self.tick(&[], &[], &[], DVec2::ZERO, DVec2::ZERO);
        }
        self.out
    }
}

/// Interleaved stereo `f32` to 16-bit samples (rounded, clamped).
pub fn to_i16(samples: &[f32]) -> Vec<i16> {
    samples
        .iter()
        .map(|&x| (x * 32767.0).round().clamp(-32768.0, 32767.0) as i16)
        .collect()
}

/// Peak level and the number of samples at full scale (±32767 or −32768: clipped).
pub fn peak_and_clipped(samples: &[i16]) -> (f64, usize) {
    let peak = samples.iter().map(|&s| (s as i32).abs()).max().unwrap_or(0);
    let clipped = samples
        .iter()
        .filter(|&&s| s == i16::MAX || s == i16::MIN)
        .count();
    (peak as f64 / 32768.0, clipped)
}

/// Writes interleaved stereo `f32` as a 16-bit WAV, atomically.
pub fn write_wav(path: &Path, samples: &[f32]) -> Result<(), crate::level::FileError> {
    let bytes = super::wav::encode(OUTPUT_RATE, 2, &to_i16(samples));
    crate::level::write_atomic(path, &bytes)
}
