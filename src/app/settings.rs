//! The user's settings file (`settings.ron` in the config directory): volumes, fullscreen and
//! multisampling, as chosen in the pause menu; the editor's collision overlays, as chosen in its
//! overlay menu.
//!
//! Every field is optional in the file (missing fields take their defaults). A bad file is
//! reported with its line and column and the defaults are used: settings never stop the game.
//! Writes are atomic.
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::audio::settings::VolumeSettings;
use crate::editor::ui::overlays::Overlays;
use crate::level::{parse_ron, read_text, to_ron, write_atomic, FileError};
use crate::render::quality::Msaa;

/// What the pause menu's settings save.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Master, music and effects volumes, each in `[0, 1]`.
    pub volumes: VolumeSettings,
    /// Start in borderless fullscreen. Default false.
    pub fullscreen: bool,
    /// Multisampling: `"auto"`, `"1"` or `"4"`. Default `"auto"`.
    pub msaa: MsaaSetting,
    /// The editor's collision overlays. Default: none.
    pub editor_overlays: Overlays,
}

/// [`Msaa`] as it is written in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MsaaSetting(pub Msaa);

impl TryFrom<String> for MsaaSetting {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse::<Msaa>().map(MsaaSetting)
    }
}

impl From<MsaaSetting> for String {
    fn from(m: MsaaSetting) -> String {
        m.0.to_string()
    }
}

/// Why the settings file was not used.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// Reading or parsing failed.
    #[error(transparent)]
    File(#[from] FileError),
    /// A volume is outside `[0, 1]`.
    #[error("{path}: volumes.{field} = {value}: must be between 0 and 1")]
    Volume {
        /// The file.
        path: String,
        /// The field.
        field: &'static str,
        /// The value.
        value: f32,
    },
}

impl Settings {
    /// Reads `path`; a missing file gives the defaults.
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        if !path.exists() {
            return Ok(Settings::default());
        }
        let text = read_text(path)?;
        let s: Settings = parse_ron(path, &text)?;
        for (field, value) in [
            ("master", s.volumes.master),
            ("music", s.volumes.music),
            ("effects", s.volumes.effects),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(SettingsError::Volume {
                    path: path.display().to_string(),
                    field,
                    value,
                });
            }
        }
        Ok(s)
    }

    /// Reads `path`, or logs why not and gives the defaults.
    pub fn load_or_default(path: &Path) -> Settings {
        Settings::load(path).unwrap_or_else(|e| {
            log::warn!("{e}; using the default settings");
            Settings::default()
        })
    }

    /// Writes `path` atomically (creating its folder).
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|error| FileError::Write {
                path: path.to_path_buf(),
                error,
            })?;
        }
        let text = to_ron(path, self, 2)?;
        write_atomic(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_bad_values_name_the_field() {
        let d = std::env::temp_dir().join(format!("tessera-settings-{}", std::process::id()));
        let path = d.join("config/settings.ron");
        assert_eq!(Settings::load(&path).unwrap(), Settings::default());
        let s = Settings {
            volumes: VolumeSettings {
                master: 0.5,
                music: 0.25,
                effects: 1.0,
            },
            fullscreen: true,
            msaa: MsaaSetting(Msaa::Samples(4)),
            editor_overlays: Overlays::default(),
        };
        s.save(&path).unwrap();
        assert_eq!(Settings::load(&path).unwrap(), s);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("msaa: \"4\""), "{text}");
        // The audio module reads the same file for its volumes.
        assert_eq!(
            crate::audio::settings::load_volumes(&path).unwrap(),
            s.volumes
        );
        std::fs::write(&path, "(volumes: (master: 2.0))").unwrap();
        let e = Settings::load(&path).unwrap_err().to_string();
        assert!(e.contains("volumes.master"), "{e}");
        std::fs::write(&path, "(msaa: \"8\")").unwrap();
        let e = Settings::load(&path).unwrap_err().to_string();
        assert!(e.contains("settings.ron"), "{e}");
        assert_eq!(Settings::load_or_default(&path), Settings::default());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
