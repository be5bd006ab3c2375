//! The sound bank: every sound's variations decoded once, at start, to mono `f32` at their own
//! rate. Nothing is read or decoded after loading; the mixer only indexes this.
use std::path::{Path, PathBuf};

use super::sounds::Sound;
use super::wav::{self, Wav, WavError};

/// The directory of the sound files, relative to the data directory.
pub const SOUNDS_DIR: &str = "assets/sounds";

/// One decoded sample: mono, in [-1, 1].
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Frames per second of `data`.
    pub rate: f64,
    /// Mono samples (stereo files are averaged to mono: positioning is the mixer's job).
    pub data: Vec<f32>,
}

impl Clip {
    fn from_wav(w: &Wav) -> Clip {
        let ch = w.channels as usize;
        let data = w
            .samples
            .chunks_exact(ch)
            .map(|f| f.iter().map(|&s| s as f32).sum::<f32>() / (ch as f32 * 32768.0))
            .collect();
        Clip {
            rate: w.rate as f64,
            data,
        }
    }
}

/// Every sound's clips, by [`Sound::index`] then variation.
#[derive(Clone, Debug, PartialEq)]
pub struct Bank {
    clips: Vec<Vec<Clip>>,
}

/// A sound file is missing or unreadable.
#[derive(Debug, thiserror::Error)]
#[error("sound bank: {0}")]
pub struct BankError(#[from] pub WavError);

impl Bank {
    /// Reads and decodes every sound file from `dir` (the data directory's [`SOUNDS_DIR`]).
    pub fn load(dir: &Path) -> Result<Bank, BankError> {
        Ok(Bank::build(|s, v| {
            let path: PathBuf = dir.join(s.file_name(v));
            wav::read(&path)
        })?)
    }

    fn build<E>(mut get: impl FnMut(Sound, usize) -> Result<Wav, E>) -> Result<Bank, E> {
        let mut clips = Vec::new();
        for s in Sound::all() {
            let mut v = Vec::new();
            for i in 0..s.variations() {
                v.push(Clip::from_wav(&get(s, i)?));
            }
            clips.push(v);
        }
        Ok(Bank { clips })
    }

    /// Variation `v` (taken modulo the count) of `sound`.
    pub fn clip(&self, sound: Sound, v: usize) -> &Clip {
        let c = &self.clips[sound.index()];
        &c[v % c.len()]
    }
}
