//! Sound: generated samples, an offline-first deterministic mixer fed by movement events, and
//! device output through `rodio`.
pub mod dsp;
pub mod sounds;
pub mod synth;
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
