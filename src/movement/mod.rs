//! Platformer movement on the collision core: a deterministic state machine at a fixed timestep.
//!
//! Must never depend on window, GPU, audio or input crates.
pub mod actions;
pub mod tuning;

pub use actions::Actions;
pub use tuning::{Tuning, TuningError, TuningOverrides};
