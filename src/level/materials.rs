//! The material table (`assets/materials.ron`): how each surface material looks and sounds.
//!
//! # What it owns
//! [`Materials`]: per material name, the side and top colours (sRGB, written `0xRRGGBB` as an
//! artist picks them), whether solid polygons of it get plank stripes, the footstep sound set and
//! its volume; and the entries used for polygons with no material or an unknown one, per polygon
//! kind (solid, one-way). The renderer (`render::palette`) and the audio (`audio`) both read it,
//! so a surface's look and its footsteps come from one row.
//!
//! [`Materials::default`] equals the shipped file (a unit test pins it): the renderer draws with
//! the defaults (so its golden images stay independent of the data directory), the audio loads
//! the file; `tests/it/data_files.rs` checks both agree.
//!
//! # Must never depend on
//! Window, GPU, audio or input crates: this is plain data, loaded with the level module's RON
//! plumbing (errors name the file, line and column).
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::FileError;
use super::file::{parse_ron, read_text};
use crate::level::PolygonKind;

/// The largest volume factor a material may give its footsteps (1 is the sample's own level; a
/// factor above 2 would push a footstep over the loudest effects and towards clipping).
pub const MAX_FOOTSTEP_VOLUME: f32 = 2.0;

/// The footstep sound sets the audio has samples for (each a few round-robin variations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FootstepSound {
    /// Grass, earth: a dull, low-passed brush.
    Soft,
    /// Stone, rock, brick: a short, bright click.
    Stone,
    /// Wooden planks: a hollow knock.
    Wood,
    /// Metal: a ringing tap.
    Metal,
    /// Ice: a crisp, high tick.
    Ice,
    /// Sand: a long, hissy scrape.
    Sand,
}

impl FootstepSound {
    /// Every set, in a fixed order.
    pub const ALL: [FootstepSound; 6] = [
        FootstepSound::Soft,
        FootstepSound::Stone,
        FootstepSound::Wood,
        FootstepSound::Metal,
        FootstepSound::Ice,
        FootstepSound::Sand,
    ];
    /// The name used in the data file and in sample file names.
    pub fn name(self) -> &'static str {
        match self {
            FootstepSound::Soft => "soft",
            FootstepSound::Stone => "stone",
            FootstepSound::Wood => "wood",
            FootstepSound::Metal => "metal",
            FootstepSound::Ice => "ice",
            FootstepSound::Sand => "sand",
        }
    }
}

/// One material's look and sound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Material {
    /// Front face and walls, sRGB `0xRRGGBB`.
    pub side: u32,
    /// Upward-facing walls (the walkable tops), sRGB `0xRRGGBB`.
    pub top: u32,
    /// Plank stripes on solid polygons too (one-way platforms are always striped). Default false.
    #[serde(default)]
    pub stripes: bool,
    /// The footstep sound set.
    pub footstep: FootstepSound,
    /// Footstep volume factor, 0 to [`MAX_FOOTSTEP_VOLUME`]. Default 1.
    #[serde(default = "unit_volume")]
    pub volume: f32,
}

fn unit_volume() -> f32 {
    1.0
}

/// The material table (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Materials {
    /// Materials by the name level polygons use (`material: Some("grass")`).
    pub materials: BTreeMap<String, Material>,
    /// Solid polygons with no material or an unknown one.
    pub default_solid: Material,
    /// One-way platforms with no material or an unknown one.
    pub default_one_way: Material,
}

const fn m(side: u32, top: u32, footstep: FootstepSound, volume: f32) -> Material {
    Material {
        side,
        top,
        stripes: false,
        footstep,
        volume,
    }
}

impl Default for Materials {
    /// The shipped table (equal to `assets/materials.ron`).
    fn default() -> Self {
        use FootstepSound::*;
        let table = [
            ("grass", m(0x6b4e3a, 0x6aa84f, Soft, 0.8)),
            ("dirt", m(0x7a5a40, 0x8f6c4e, Soft, 1.0)),
            ("stone", m(0x7c8190, 0x9ca2ae, Stone, 1.0)),
            ("rock", m(0x6f6a66, 0x8e8782, Stone, 1.1)),
            ("wood", m(0xa0713f, 0xc28f57, Wood, 1.0)),
            ("metal", m(0x66737f, 0x8b99a6, Metal, 0.9)),
            ("ice", m(0x9cc8df, 0xd5ecf7, Ice, 0.9)),
            ("sand", m(0xc9ad7a, 0xe0c794, Sand, 0.9)),
            ("brick", m(0x9a5140, 0xb06a56, Stone, 1.0)),
        ];
        Materials {
            materials: table.into_iter().map(|(n, m)| (n.to_string(), m)).collect(),
            default_solid: m(0x767d8c, 0x959cab, Stone, 1.0),
            default_one_way: m(0xa0713f, 0xc28f57, Wood, 1.0),
        }
    }
}

impl Materials {
    /// The shipped table, built once (what the renderer draws with).
    pub fn builtin() -> &'static Materials {
        static BUILTIN: std::sync::OnceLock<Materials> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(Materials::default)
    }

    /// The entry for a polygon of this material name and kind: the named material when known,
    /// else the kind's default.
    pub fn get(&self, name: Option<&str>, kind: PolygonKind) -> &Material {
        match name.and_then(|n| self.materials.get(n)) {
            Some(m) => m,
            None if kind == PolygonKind::OneWay => &self.default_one_way,
            None => &self.default_solid,
        }
    }

    /// Checks every entry: colours within `0xFFFFFF`, volumes within 0 to
    /// [`MAX_FOOTSTEP_VOLUME`], names not empty. The error names the entry and the field.
    pub fn validate(&self) -> Result<(), String> {
        let entries = self
            .materials
            .iter()
            .map(|(n, m)| (format!("material \"{n}\""), m))
            .chain([
                ("default_solid".to_string(), &self.default_solid),
                ("default_one_way".to_string(), &self.default_one_way),
            ]);
        for (name, m) in entries {
            if name == "material \"\"" {
                return Err("a material has an empty name".into());
            }
            for (field, c) in [("side", m.side), ("top", m.top)] {
                if c > 0xff_ffff {
                    return Err(format!(
                        "{name}: `{field}` = {c:#x} is not an sRGB colour 0xRRGGBB"
                    ));
                }
            }
            if !(m.volume.is_finite() && (0.0..=MAX_FOOTSTEP_VOLUME).contains(&m.volume)) {
                return Err(format!(
                    "{name}: `volume` = {} must be between 0 and {MAX_FOOTSTEP_VOLUME}",
                    m.volume
                ));
            }
        }
        Ok(())
    }
}

/// A materials file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MaterialsError {
    /// Reading or parsing failed (unknown fields and sound sets are reported here, with line and
    /// column).
    #[error(transparent)]
    File(#[from] FileError),
    /// A value is out of range.
    #[error("{}: {why}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The entry, the field and the allowed range.
        why: String,
    },
}

/// Reads and checks a materials file.
pub fn load_materials(path: impl AsRef<Path>) -> Result<Materials, MaterialsError> {
    let path = path.as_ref();
    parse_materials(path, &read_text(path)?)
}

/// Parses and checks materials text as if read from `path` (used in error messages only).
pub fn parse_materials(path: &Path, text: &str) -> Result<Materials, MaterialsError> {
    let m: Materials = parse_ron(path, text)?;
    m.validate().map_err(|why| MaterialsError::Invalid {
        path: path.to_path_buf(),
        why,
    })?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_materials_file_is_the_default() {
        let text = include_str!("../../assets/materials.ron");
        let m = parse_materials(Path::new("assets/materials.ron"), text).unwrap();
        assert_eq!(m, Materials::default());
    }

    #[test]
    fn unknown_and_missing_materials_fall_back_per_kind() {
        let m = Materials::default();
        assert_eq!(m.get(Some("grass"), PolygonKind::Solid).top, 0x6aa84f);
        assert_eq!(m.get(Some("nope"), PolygonKind::OneWay), &m.default_one_way);
        assert_eq!(m.get(None, PolygonKind::Solid), &m.default_solid);
    }

    #[test]
    fn bad_entries_name_the_file_entry_and_field() {
        let base = "(materials: {\"x\": (side: 0x1, top: 0x2, footstep: stone, volume: VOL)}, \
                    default_solid: (side: 0, top: 0, footstep: stone), \
                    default_one_way: (side: 0, top: 0, footstep: wood))";
        let e = parse_materials(Path::new("m.ron"), &base.replace("VOL", "3.0")).unwrap_err();
        let s = e.to_string();
        assert!(
            s.starts_with("m.ron: ") && s.contains("\"x\"") && s.contains("volume"),
            "{s}"
        );
        let text = base.replace("VOL", "1.0").replace("0x2", "0x1000000");
        let e = parse_materials(Path::new("m.ron"), &text).unwrap_err();
        assert!(e.to_string().contains("`top`"), "{e}");
        let text = base
            .replace("VOL", "1.0")
            .replace("footstep: stone, ", "footstep: mud, ");
        let e = parse_materials(Path::new("m.ron"), &text).unwrap_err();
        assert!(e.to_string().starts_with("m.ron:1:"), "{e}");
        assert!(e.to_string().contains("mud"), "{e}");
    }
}
