//! Volumes in the user's settings file (`UserDirs::settings_file()`, RON), loaded at start and
//! written atomically. Reading ignores sections other than `volumes` (other parts of the game may
//! add theirs).
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::mixer::Volumes;
use crate::level::{parse_ron, read_text, to_ron, write_atomic, FileError};

/// The `volumes` section: linear, 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VolumeSettings {
    /// Everything. Default 0.8.
    pub master: f32,
    /// The music. Default 0.6.
    pub music: f32,
    /// Effects. Default 1.
    pub effects: f32,
}

impl Default for VolumeSettings {
    fn default() -> Self {
        let v = Volumes::default();
        VolumeSettings {
            master: v.master,
            music: v.music,
            effects: v.effects,
        }
    }
}

impl From<VolumeSettings> for Volumes {
    fn from(v: VolumeSettings) -> Volumes {
        Volumes {
            master: v.master,
            music: v.music,
            effects: v.effects,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct SettingsView {
    #[serde(default)]
    volumes: Option<VolumeSettings>,
}

/// A volume out of 0..=1 (or not a number).
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// Reading or parsing failed (line and column).
    #[error(transparent)]
    File(#[from] FileError),
    /// A volume is out of range.
    #[error("{path}: volumes.{field} = {value}: must be between 0 and 1")]
    Range {
        /// The file.
        path: String,
        /// The field.
        field: &'static str,
        /// The value.
        value: f32,
    },
}

/// The volumes of the settings file at `path`: the defaults when the file does not exist or has
/// no `volumes` section.
pub fn load_volumes(path: &Path) -> Result<VolumeSettings, SettingsError> {
    if !path.exists() {
        return Ok(VolumeSettings::default());
    }
    let view: SettingsView = parse_ron(path, &read_text(path)?)?;
    let v = view.volumes.unwrap_or_default();
    for (field, value) in [
        ("master", v.master),
        ("music", v.music),
        ("effects", v.effects),
    ] {
        if !(value.is_finite() && (0.0..=1.0).contains(&value)) {
            return Err(SettingsError::Range {
                path: path.display().to_string(),
                field,
                value,
            });
        }
    }
    Ok(v)
}

/// Writes `volumes` as the settings file at `path` (atomically). The file holds only the
/// sections this version knows (today: `volumes`).
pub fn save_volumes(path: &Path, volumes: &VolumeSettings) -> Result<(), FileError> {
    #[derive(Serialize)]
    struct Settings<'a> {
        volumes: &'a VolumeSettings,
    }
    let text = to_ron(path, &Settings { volumes }, 2)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|error| FileError::Write {
            path: path.to_path_buf(),
            error,
        })?;
    }
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volumes_round_trip_through_the_settings_file() {
        // Not `tessera-settings-PID`: `app::settings`' test uses that folder in the same process,
        // and this test's clean-up removed it under that test's feet (a failure seen once in a
        // full run on 2026-11-26).
        let dir =
            std::env::temp_dir().join(format!("tessera-audio-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("settings.ron");
        assert_eq!(load_volumes(&path).unwrap(), VolumeSettings::default());
        let v = VolumeSettings {
            master: 0.5,
            music: 0.25,
            effects: 1.0,
        };
        save_volumes(&path, &v).unwrap();
        assert_eq!(load_volumes(&path).unwrap(), v);
        std::fs::write(&path, "(volumes: (master: 1.5))").unwrap();
        let e = load_volumes(&path).unwrap_err().to_string();
        assert!(e.contains("settings.ron") && e.contains("master"), "{e}");
        std::fs::write(&path, "(volumes: (loud: 1.0))").unwrap();
        let e = load_volumes(&path).unwrap_err().to_string();
        assert!(e.contains("settings.ron:1:") && e.contains("loud"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
