//! Character animation: the hero's skinned model, clip sampling and blending, interruptible
//! transitions, the skinning palette, and the controller that turns the movement state into a
//! pose.
//!
//! # What it owns
//! - [`hero_model`]: the generator of `assets/hero.glb` (skeleton, skinned low-poly mesh,
//!   its clips), pure code that returns bytes and does no I/O; a test pins the committed
//!   file byte for byte.
//! - [`model`]: loading a binary glTF (the `gltf` crate) into a [`Skeleton`], a [`SkinnedMesh`]
//!   and [`Clip`]s, with a typed [`AnimError`] for every way a file can be bad, and clips from
//!   animation files bound by joint name; `gltf_read` (the file, its buffers and accessors
//!   checked) and `skin_load` (the skeleton and the skinned mesh) are its parts.
//! - [`character`]: character files (a model, its clips' roles, animation files, scale, turn);
//!   [`measure`]: a model's height and facing measured at rest, for a file that leaves them out.
//! - [`controller`]: movement state → pose for the hero ([`HeroAnimator`]).
//! - [`hero_clips`]: the clips the hero's controller needs, found by name;
//!   [`clip_names`]: the synonym table that matches clip names as exporters write them to roles.
//! - [`clip`]: sampling (step, linear, cubic spline for translation, rotation and scale);
//!   [`transform`]: the per-joint transform and its blend; [`dead_blend`]: interruptible
//!   transitions; [`foot_ik`]: feet planted on slopes by two-bone IK; [`skeleton`]: joint world matrices and the palette (world × inverse bind),
//!   written into caller-owned buffers.
//!
//! Poses are `f32` (what the GPU consumes); the simulation's `f64` positions are converted once,
//! at the root transform.
//!
//! It reads the simulation's `movement` (the hero's state and the events of each tick) and
//! nothing else of the crate.
//!
//! # Must never depend on
//! wgpu or any window, GPU, audio or input crate (`tests/it/layering.rs`), nor the renderer, the app
//! or any other front-end module: the renderer reads the palette built here, not the other way
//! round, and the simulation never reads anything from here.
pub mod character;
pub mod clip;
pub mod clip_names;
pub mod controller;
pub mod dead_blend;
pub mod error;
pub mod foot_ik;
mod gltf_read;
pub mod hero_clips;
pub mod hero_model;
pub mod lod;
pub mod measure;
pub mod model;
pub mod skeleton;
mod skin_load;
pub mod transform;

pub use character::{load_character, Character, CharacterError, CharacterFile};
pub use clip::{Channel, Clip, Interpolation, Property};
pub use controller::{AnimInput, Cue, HeroAnimator, Locomotion};
pub use dead_blend::DeadBlend;
pub use error::{AnimError, ModelFileError};
pub use foot_ik::Ground;
pub use hero_clips::{HeroClip, HeroClips, How, RoleMapping, BIND_POSE};
pub use model::{BaseColorTexture, MeshPart, Model, SkinnedMesh, MAX_JOINTS};
pub use skeleton::Skeleton;
pub use transform::Transform;

/// The committed hero model (`assets/hero.glb`), compiled in like the shaders so the game needs no
/// data file to draw its hero.
pub const HERO_GLB: &[u8] = include_bytes!("../../assets/hero.glb");

/// The embedded hero model, parsed once.
///
/// # Panics
/// Never in practice: the embedded bytes are the committed `assets/hero.glb`, which the tests
/// load (`anim::model` and `tests/it/bad_model.rs`); they cannot change after the build.
pub fn builtin_hero() -> &'static Model {
    static HERO: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
    HERO.get_or_init(|| Model::from_glb(HERO_GLB).expect("the embedded hero model loads (tested)"))
}
