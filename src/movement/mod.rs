//! Platformer movement on the collision core: a deterministic state machine at a fixed timestep.
//!
//! # What it owns
//! The hero's motion, and every other character's: [`Hero`] holds a body on the collision world, a
//! velocity, its [`SizeClass`] (a standing and an optional crouching collider: one mesh each,
//! same feet point), the collider in use and a [`MoveState`]. The hero is [`HERO_CLASS`];
//! `sim::agents` gives other characters their own classes and meshes. Each state has
//! one step function in its own file: [`supported`] (walking along edge chains with hand-off at
//! joints), [`airborne`] (gravity, air control, wall slide and wall jump, landing), [`climbing`]
//! (ladders), [`top_down`] (no gravity, 8-way), [`riding`] (standing and walking on a mover, kept
//! in its frame). Every feel constant is in [`Tuning`]. A step emits
//! [`MoveEvent`]s that animation and sound consume.
//!
//! A state's step returns a transition (the next state and velocity) and never calls or imports
//! another state; what several states share is written once in [`rules`], below them, and
//! [`hero`] runs the machine ([`rules`]' module docs).
//!
//! # Must never depend on
//! Window, GPU, audio or input crates; it reads only the collision core and the per-tick
//! [`Actions`]. Same inputs, same tuning, same level: bit-identical results.
pub mod actions;
pub mod airborne;
pub mod climbing;
pub mod env;
pub mod hero;
pub mod riding;
pub mod rules;
pub mod state;
pub mod supported;
pub mod top_down;
pub mod tuning;

pub use actions::Actions;
pub use env::{Env, SizeClass, CROUCH, HERO_CLASS, STAND};
pub use hero::{Hero, SpawnError, Timers};
pub use state::{MoveEvent, MoveState, StepReport};
pub use tuning::{FieldMut, Tuning, TuningError, TuningField, TuningOverrides};
