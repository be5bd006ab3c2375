//! Character animation data: the hero's skinned model and its clips.
//!
//! # What it owns
//! - [`hero_model`]: the generator of `assets/hero.glb` (skeleton, skinned low-poly mesh,
//!   the twelve clips), pure code that returns bytes and does no I/O; a test pins the committed
//!   file byte for byte.
//!
//! This module is part of the front end's data, but it must never depend on wgpu (or any
//! window, GPU, audio or input crate): the renderer reads what it builds, not the other way
//! round.
pub mod hero_model;
