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
