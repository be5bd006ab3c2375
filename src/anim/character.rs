//! Character files: which model a character is drawn with, and which of its clips plays each role
//! of the animation controller (`assets/characters/*.ron`).
//!
//! ```ron
//! (
//!     // The model, relative to this file: a self-contained binary glTF (.glb).
//!     model: "robot.glb",
//!     // Model units per metre times this = metres (0.01 for a model in centimetres).
//!     scale: 1.0,
//!     // Degrees about the up axis (+y, glTF's) that turn the model to face +x, the hero's
//!     // "right": 90 for a model facing +z (glTF's front), 0 for one facing +x already.
//!     turn: 90.0,
//!     // Role -> the model's clip name. A role left out plays the clip named like the role
//!     // (exactly, then ignoring case: `Idle` plays idle), else one named by a synonym
//!     // (`Armature|Running` runs; `anim::clip_names`), else its fallback (below).
//!     clips: { "run": "Running", "jump_takeoff": "Jump" },
//!     // The controller's leg joints -> the model's joint names, for those named otherwise.
//!     joints: { "thigh.L": "UpperLeg.L", "shin.L": "LowerLeg.L", "foot.L": "Foot.L" },
//! )
//! ```
//!
//! Fields:
//! - `model` (path, required): the `.glb`, relative to the character file.
//! - `scale` (number, default: measured): multiplies the model's lengths (and its clips'
//!   translations) to metres; the built-in hero is 1.8 m tall standing, its collider 1.8 m.
//!   Left out, the model's height at rest is measured and fitted to the 1.8 m collider (a model
//!   in centimetres, or with a 0.01 armature scale, is scaled by about 0.01), unless it is within
//!   10 % of it already (then 1: the built-in hero is drawn exactly as modelled); see
//!   [`measure::fitted_scale`].
//! - `turn` (degrees, default: measured): rotation about +y applied to the whole model so that
//!   it faces +x. Left out, it is measured from the joints named left and right (`.L`, `Left`,
//!   ...): 90 for a model facing glTF's front (+z), 0 for one facing +x, 0 when unclear; see
//!   [`measure::facing_turn`].
//! - `up` (`Y` or `Z`, default: measured): the model's up axis. glTF's is +y, but a model
//!   exported from a Z-up tool without conversion lies on its back; left out, a model whose
//!   head joint is above its feet along +z clearly more than along +y is stood up
//!   ([`measure::up_axis`]; the turn and scale are measured after).
//! - `root_motion` (`Strip` or `Keep`, default `Strip`): `Strip` removes each clip's horizontal
//!   drift of the root joint from its first key to its last (a walk keyed travelling forward
//!   then plays in place; sway and bob stay; a clip that ends where it starts is unchanged), so
//!   the movement alone moves the character.
//! - `speeds` (map, default empty): `walk`, `run`, `crouch_walk` → the ground speed (m/s) at
//!   which that clip plays at its keyed rate. Without it a gait is timed by the planted foot
//!   (the six leg joints found, see `joints`), else by its clip's removed root motion per
//!   second, else by 1.5, 4.5 and 1.0 m/s.
//! - `animations` (list of paths, default empty): more files whose clips the character plays,
//!   relative to the character file: an animation library, or an auto-rigger's one-clip
//!   downloads ("without skin") for a model rigged with the same skeleton. Their channels drive
//!   the model's joints by node name; a file of one animation names its clip after the file
//!   (`Run.glb`: `Run`, so `clips: { "run": "Run" }` or the role name itself picks it), a file
//!   of several keeps its clip names, and every clip name must be unique. With animation
//!   files the model file itself may have no animations ([`Model::add_clips_from`]).
//! - `skin` (name, default: the first): which of the model's skins to draw, when it has several.
//! - `tint` (`(r, g, b)`, linear, each 0 to 4; default `(1, 1, 1)`): multiplies the model's
//!   colours (vertex colours and base colour texture) when drawn, so one model serves characters
//!   that must read apart (`hero_small.ron` and `hero_medium.ron` are the hero scaled; the campaign's
//!   enemies have figures of their own, `anim::hero_model::Figure`).
//! - `joints` (map, default empty): the controller's leg joints (`thigh.L`, `shin.L`,
//!   `foot.L`, `thigh.R`, `shin.R`, `foot.R`: foot planting and speed-matched steps use them) →
//!   the model's joint names; a joint left out is looked up by the controller's name. A model
//!   without them and no `joints` entry is animated without foot planting (a blob, a bird).
//! - `clips` (map, default empty): role name → clip name. The roles are the controller's:
//!   `idle`, `run`, `walk`, `crouch_walk`, `jump_takeoff`, `rise`, `fall`, `land`,
//!   `crouch_idle`, `wall_slide`, `climb`, `push`, and the game's `attack`, `hurt` (both
//!   played over the upper body: every joint but the root and the legs), `death` and `charge`
//!   (a brute's, timed like the run). A role without a clip plays the first of its fallbacks
//!   that has one ([`HeroClip::fallbacks`]: crouch_walk → walk → run → idle, jump_takeoff →
//!   rise → fall → idle, land → idle, wall_slide → fall → idle, push → walk → idle, attack →
//!   push → idle, hurt → fall → idle, death → crouch_idle → idle, charge → run → walk →
//!   idle, ...), reported by `tessera model`. A role left out of `clips` first looks for a
//!   clip named like it, then for one a synonym of it names (`anim::clip_names`: `Running`,
//!   `Armature|Sprint_01` run, `Punch` attacks, `Survey` idles). A model without an idle-like
//!   clip stands in its bind pose for `idle` (with a note), never an error.
//!
//! Unknown fields and role names are errors naming the file and line, like every data file. What
//! the issue "Characters from files" adds next (a height or scale for the collider, the facing and
//! up axes, ground speeds, root motion, IK joints, and `tessera play --character`) extends this
//! file with optional fields.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::controller::Locomotion;
use super::error::{AnimError, ModelFileError};
use super::hero_clips::{HeroClip, HeroClips, How, RoleMapping};
use super::measure;
use super::model::Model;
use crate::level::{parse_ron, read_text, FileError};

/// A character file as written.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterFile {
    /// The model file, relative to the character file.
    pub model: PathBuf,
    /// Multiplies the model's lengths to metres (default: measured, [`super::measure`]).
    #[serde(default)]
    pub scale: Option<f32>,
    /// Degrees about +y that turn the model to face +x (default: measured).
    #[serde(default)]
    pub turn: Option<f32>,
    /// Role name → the model's clip name.
    #[serde(default)]
    pub clips: BTreeMap<String, String>,
    /// The controller's leg joint name → the model's joint name.
    #[serde(default)]
    pub joints: BTreeMap<String, String>,
    /// What happens to the clips' horizontal root motion.
    #[serde(default)]
    pub root_motion: RootMotion,
    /// Ground speed (m/s) at which `walk`, `run` or `crouch_walk` plays at its keyed rate.
    #[serde(default)]
    pub speeds: BTreeMap<String, f32>,
    /// Files whose clips are added to the model's, relative to the character file.
    #[serde(default)]
    pub animations: Vec<PathBuf>,
    /// Which of the model's axes is up (default: measured, else +y as glTF says).
    #[serde(default)]
    pub up: Option<Up>,
    /// The skin to draw, by name (default: the model's first).
    #[serde(default)]
    pub skin: Option<String>,
    /// Multiplies the model's colours when drawn (linear RGB, each 0 to 4).
    #[serde(default)]
    pub tint: Option<[f32; 3]>,
}

/// Which axis of a model is up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
pub enum Up {
    /// +y, as glTF says.
    #[default]
    Y,
    /// +z (a model exported from a Z-up tool without conversion: it lies on its back).
    Z,
}

/// What a character does with root motion keyed in its clips.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
pub enum RootMotion {
    /// Remove each clip's horizontal drift of the root ([`Model::strip_root_motion`]): the
    /// movement moves the character, the clip only animates it in place.
    #[default]
    Strip,
    /// Play the clips as keyed (a clip that travels pulls the model off its collider).
    Keep,
}

/// A loaded character: its model and the clip of every role.
#[derive(Clone, Debug)]
pub struct Character {
    /// The model file (resolved against the character file's directory).
    pub model_path: PathBuf,
    /// The model.
    pub model: Model,
    /// The clip index of every role.
    pub clips: HeroClips,
    /// How each role got its clip, in [`HeroClip::ALL`] order.
    pub mapping: Vec<RoleMapping>,
    /// The controller's leg joint name → the model's, for those named otherwise.
    pub joints: BTreeMap<String, String>,
    /// What loading the character changed in its model (root motion removed), one sentence each.
    pub notes: Vec<String>,
    /// The gaits' speeds, where given or measured from root motion.
    pub locomotion: Locomotion,
    /// Multiplies the model's colours when drawn (`[1, 1, 1]`: as modelled).
    pub tint: [f32; 3],
    /// The scale applied to the model (given or measured).
    pub scale: f32,
    /// The turn applied to the model, degrees (given or measured).
    pub turn: f32,
    /// The model's up axis (given or measured).
    pub up: Up,
}

/// Why a character could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CharacterError {
    /// The character file is unreadable or not valid RON of the right shape.
    #[error(transparent)]
    File(#[from] FileError),
    /// A role name that the controller does not have.
    #[error(
        "{}: `{role}` is not a role (the roles: {})",
        path.display(),
        HeroClip::ALL.map(HeroClip::name).join(", ")
    )]
    UnknownRole {
        /// The character file.
        path: PathBuf,
        /// The name as written.
        role: String,
    },
    /// A leg joint name that the controller does not use.
    #[error(
        "{}: `{joint}` is not one of the controller's leg joints ({})",
        path.display(),
        LEG_JOINTS.join(", ")
    )]
    UnknownJoint {
        /// The character file.
        path: PathBuf,
        /// The name as written.
        joint: String,
    },
    /// `scale` or `turn` out of range.
    #[error("{}: {message}", path.display())]
    Value {
        /// The character file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The model cannot be loaded.
    #[error(transparent)]
    Model(#[from] ModelFileError),
    /// The model lacks `idle`, or a clip the file names.
    #[error("{}: {error}", path.display())]
    Clips {
        /// The character file.
        path: PathBuf,
        /// What is missing.
        error: AnimError,
    },
}

/// The leg joints the controller looks up by name (foot planting, speed-matched steps).
pub const LEG_JOINTS: [&str; 6] = ["thigh.L", "shin.L", "foot.L", "thigh.R", "shin.R", "foot.R"];

/// Checks `file`'s values and joint names (not its model or clips).
pub fn check_fields(path: &Path, file: &CharacterFile) -> Result<(), CharacterError> {
    let value = |message: String| {
        Err(CharacterError::Value {
            path: path.to_path_buf(),
            message,
        })
    };
    if let Some(scale) = file.scale {
        if !(scale.is_finite() && scale > 0.0 && scale <= 1e4) {
            return value(format!(
                "scale must be a positive number up to 1e4, got {scale}"
            ));
        }
    }
    if let Some(t) = file.tint {
        if !t.iter().all(|v| v.is_finite() && (0.0..=4.0).contains(v)) {
            return value(format!(
                "tint ({}, {}, {}) must have components between 0 and 4",
                t[0], t[1], t[2]
            ));
        }
    }
    if let Some(turn) = file.turn {
        if !(turn.is_finite() && turn.abs() <= 360.0) {
            return value(format!(
                "turn must be a number of degrees within ±360, got {turn}"
            ));
        }
    }
    if let Some(j) = file
        .joints
        .keys()
        .find(|j| !LEG_JOINTS.contains(&j.as_str()))
    {
        return Err(CharacterError::UnknownJoint {
            path: path.to_path_buf(),
            joint: j.clone(),
        });
    }
    Ok(())
}

/// The role → clip-name pairs of `file`, every role name checked.
pub fn role_names(
    path: &Path,
    file: &CharacterFile,
) -> Result<Vec<(HeroClip, String)>, CharacterError> {
    file.clips
        .iter()
        .map(|(role, clip)| {
            HeroClip::from_name(role)
                .map(|r| (r, clip.clone()))
                .ok_or_else(|| CharacterError::UnknownRole {
                    path: path.to_path_buf(),
                    role: role.clone(),
                })
        })
        .collect()
}

/// Loads a character file, its model, and every role's clip; or, given a model file itself
/// (`.glb`, `.gltf`), the character the loader infers for it: the file that
/// [`CharacterFile::for_model`] writes, every field left to its default (clips by name and
/// synonym, scale and turn measured), so `--character robot.glb` plays a model with no file.
pub fn load_character(path: &Path) -> Result<Character, CharacterError> {
    load_character_fitted(path, measure::FIT_HEIGHT)
}

/// [`load_character`] for a collider `fit_height` m tall (an agent's size class): a model file
/// given directly, or a character file without `scale`, is fitted to that height.
pub fn load_character_fitted(path: &Path, fit_height: f32) -> Result<Character, CharacterError> {
    if is_model_file(path) {
        return from_file_fitted(path, &CharacterFile::for_model(path), fit_height);
    }
    let file: CharacterFile = parse_ron(path, &read_text(path)?)?;
    from_file_fitted(path, &file, fit_height)
}

/// Whether `path` names a model (`.glb` or `.gltf`, any case) rather than a character file.
pub fn is_model_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
}

impl CharacterFile {
    /// The character file of a model with nothing said: the model (by its file name, for a file
    /// beside it) and every other field at its default.
    pub fn for_model(model: &Path) -> CharacterFile {
        CharacterFile {
            model: model.file_name().map_or_else(PathBuf::new, PathBuf::from),
            scale: None,
            turn: None,
            clips: BTreeMap::new(),
            joints: BTreeMap::new(),
            root_motion: RootMotion::default(),
            speeds: BTreeMap::new(),
            animations: Vec::new(),
            skin: None,
            tint: None,
            up: None,
        }
    }
}

impl Character {
    /// A character file (RON) that says what loading inferred: the model (`model`, as it is to
    /// be written), the scale and turn applied, and every role whose clip was found by a synonym
    /// or mapped (roles named like their clip, and fallbacks, need no line), to copy and tweak.
    pub fn inferred_file(&self, model: &str) -> String {
        let mut s = format!("(\n    model: {model:?},\n");
        s += &format!("    scale: {},\n", fmt_number(self.scale));
        s += &format!("    turn: {},\n", fmt_number(self.turn));
        if self.up == Up::Z {
            s += "    up: Z,\n";
        }
        let clips: Vec<String> = (self.mapping.iter())
            .filter(|m| m.fallback.is_none() && matches!(m.how, How::Synonym(_) | How::Mapped))
            .map(|m| format!("        {:?}: {:?},", m.role.name(), m.clip))
            .collect();
        if !clips.is_empty() {
            s += &format!("    clips: {{\n{}\n    }},\n", clips.join("\n"));
        }
        if !self.joints.is_empty() {
            let joints: Vec<String> = (self.joints.iter())
                .map(|(k, v)| format!("        {k:?}: {v:?},"))
                .collect();
            s += &format!("    joints: {{\n{}\n    }},\n", joints.join("\n"));
        }
        s + ")\n"
    }
}

/// A number as RON reads it back (always with a decimal point), at most 4 decimals.
fn fmt_number(x: f32) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0');
    if s.ends_with('.') {
        format!("{s}0")
    } else {
        s.to_string()
    }
}

/// The character a parsed character file (at `path`) describes: its model loaded, root motion
/// removed (unless kept), scaled and turned, every role's clip found.
pub fn from_file(path: &Path, file: &CharacterFile) -> Result<Character, CharacterError> {
    from_file_fitted(path, file, measure::FIT_HEIGHT)
}

/// [`from_file`] fitting a model without `scale` to a collider `fit_height` m tall.
pub fn from_file_fitted(
    path: &Path,
    file: &CharacterFile,
    fit_height: f32,
) -> Result<Character, CharacterError> {
    check_fields(path, file)?;
    let names = role_names(path, file)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let model_path = dir.join(&file.model);
    let clips_elsewhere = !file.animations.is_empty();
    let mut model = Model::load_for_character(&model_path, file.skin.as_deref(), clips_elsewhere)?;
    let mut notes = Vec::new();
    for f in &file.animations {
        for n in model.add_clips_from(&dir.join(f))? {
            notes.push(format!("{}: {n}", f.display()));
        }
    }
    let up = file.up.unwrap_or_else(|| match measure::up_axis(&model) {
        Some(Up::Z) => {
            notes.push(
                "its head is above its feet along +z: stood up, +z turned to +y (a character \
                 file's `up: Y` keeps it as it is)"
                    .to_string(),
            );
            Up::Z
        }
        _ => Up::Y,
    });
    if up == Up::Z {
        model.skeleton.stand_up_z();
    }
    let mut drifts = Vec::new();
    if file.root_motion == RootMotion::Strip {
        drifts = model.strip_root_motion();
        for (clip, drift) in &drifts {
            notes.push(format!(
                "clip `{clip}`: {drift:.2} model units of horizontal root motion removed \
                 (root_motion: Keep plays it as keyed)"
            ));
        }
    }
    let (scale, turn) = measured(&model, file, fit_height, &mut notes);
    model.skeleton.correct(scale, turn);
    let mut c = character(path, model_path, model, &names)?;
    // Each gait's speed: given, else its clip's removed root motion per second (in metres).
    for (k, role) in Locomotion::ROLES.iter().enumerate() {
        let clip = &c.model.clips[c.clips.get(*role)];
        let from_drift = drifts
            .iter()
            .find(|(name, _)| *name == clip.name)
            .filter(|_| clip.duration > 0.0)
            .map(|(_, d)| d * scale / clip.duration);
        c.locomotion.speeds[k] = file.speeds.get(role.name()).copied().or(from_drift);
    }
    c.joints = file.joints.clone();
    c.notes.splice(0..0, notes);
    c.tint = file.tint.unwrap_or([1.0; 3]);
    (c.scale, c.turn, c.up) = (scale, turn, up);
    Ok(c)
}

/// The scale and turn of `file`, each measured from the model where the file leaves it out
/// (the scale fitting it to a collider `fit_height` m tall: [`measure::fitted_scale`];
/// [`measure::facing_turn`]); a measure that changes the model adds a note.
pub fn measured(
    model: &Model,
    file: &CharacterFile,
    fit_height: f32,
    notes: &mut Vec<String>,
) -> (f32, f32) {
    let scale = file
        .scale
        .unwrap_or_else(|| match measure::fitted_scale(model, fit_height) {
            Some((s, note)) if s != 1.0 => {
                notes.push(note);
                s
            }
            _ => 1.0,
        });
    let turn = file
        .turn
        .unwrap_or_else(|| match measure::facing_turn(model) {
            Some(t) if t != 0.0 => {
                notes.push(format!(
                    "its joints named left and right face it {t}° from +x: turned by {t}° (a \
                 character file's `turn` sets another)"
                ));
                t
            }
            _ => 0.0,
        });
    (scale, turn)
}

/// A character from an already loaded model and role names (`path`: the character file, for
/// messages); a model without an idle-like clip gets the bind pose as its idle, with a note.
pub fn character(
    path: &Path,
    model_path: PathBuf,
    model: Model,
    names: &[(HeroClip, String)],
) -> Result<Character, CharacterError> {
    let mut model = model;
    let (clips, mapping, note) =
        HeroClips::resolve_or_bind_pose(&mut model, names).map_err(|error| {
            CharacterError::Clips {
                path: path.to_path_buf(),
                error,
            }
        })?;
    Ok(Character {
        model_path,
        model,
        clips,
        mapping,
        joints: BTreeMap::new(),
        notes: note.into_iter().collect(),
        locomotion: Locomotion::default(),
        tint: [1.0; 3],
        scale: 1.0,
        turn: 0.0,
        up: Up::Y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("tessera-character-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn the_shipped_hero_character_plays_every_role_with_its_own_clip() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/characters/hero.ron");
        let c = load_character(&path).unwrap();
        assert_eq!(c.model, *crate::anim::builtin_hero());
        assert!(c.mapping.iter().all(|m| m.fallback.is_none()));
    }

    #[test]
    fn bad_character_files_name_the_file_and_the_problem() {
        let dir = scratch("bad");
        let hero = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/hero.glb");
        std::fs::copy(&hero, dir.join("hero.glb")).unwrap();
        for (name, text, want) in [
            (
                "role.ron",
                "(model: \"hero.glb\", clips: { \"sprint\": \"run\" })",
                "role.ron: `sprint` is not a role (the roles: idle, run, walk,",
            ),
            (
                "clip.ron",
                "(model: \"hero.glb\", clips: { \"run\": \"Running\" })",
                "clip.ron: the role `run` is mapped to the clip `Running`, which the model does not \
                 have (its clips: `idle`,",
            ),
            ("model.ron", "(model: \"nowhere.glb\")", "nowhere.glb: cannot read"),
            ("field.ron", "(model: \"hero.glb\",\n height: 2.0)", "field.ron:2:"),
            ("scale.ron", "(model: \"hero.glb\", scale: 0.0)", "scale.ron: scale must be a positive"),
            ("tint.ron", "(model: \"hero.glb\", tint: (1.0, -1.0, 1.0))", "tint.ron: tint (1, -1, 1) must have components between 0 and 4"),
            (
                "joint.ron",
                "(model: \"hero.glb\", joints: { \"toe.L\": \"Toe\" })",
                "joint.ron: `toe.L` is not one of the controller's leg joints (thigh.L, shin.L,",
            ),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let e = load_character(&path).unwrap_err().to_string();
            assert!(e.contains(want), "{name}: {e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
