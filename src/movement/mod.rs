//! Platformer movement on the collision core: a deterministic state machine at a fixed timestep.
//!
//! # What it owns
//! The hero's motion, and every other character's: [`Hero`] (`character`) holds a body on the
//! collision world, a velocity, its [`SizeClass`] (a standing and an optional crouching collider:
//! one mesh each, same feet point), the collider in use and a [`MoveState`]. The hero is
//! [`HERO_CLASS`]; `sim::agents` gives other characters their own classes and meshes. Each state
//! has one step function in its own file: [`supported`] (walking along edge chains with hand-off
//! at joints), [`airborne`] (gravity, air control, wall slide and wall jump, landing),
//! [`climbing`] (ladders), [`top_down`] (no gravity, 8-way), [`riding`] (standing and walking on a
//! mover, kept in its frame). Every feel constant is in [`Tuning`]. A step emits [`MoveEvent`]s
//! that animation and sound consume.
//!
//! # Layers, bottom up
//! - [`state`], [`env`], [`tuning`], [`actions`]: the states and events, the surroundings, the
//!   constants, the inputs.
//! - [`character`]: the [`Hero`] data and `Hero::apply`, the one writer of a character's body,
//!   velocity and state: everything else proposes a change (a [`Transition`](state::Transition),
//!   a move's end, a launch, a replacement) and `apply` makes it, whether it comes from a state's
//!   step, a mover carrying or pushing (`sim::movers`), a door, or the rules of play.
//! - [`moves`]: the character's moves (move-and-slide clipped at the movers, a move to an exact
//!   place), which hand their ends to `apply`.
//! - [`rules`]: what several states share (drop-through, following a turn, landing on a mover,
//!   jumps, ladders), written once.
//! - The states (one file each), which import the layers below and never each other.
//! - [`hero`]: the step that runs the machine (and spawning, relocating), above the states.
//!
//! Nothing below a layer names it, so there is no import circle (`tests/it/layering.rs`).
//!
//! # Must never depend on
//! Window, GPU, audio or input crates; it reads only the collision core and the per-tick
//! [`Actions`]. Same inputs, same tuning, same level: bit-identical results.
pub mod actions;
pub mod airborne;
pub mod character;
pub mod climbing;
pub mod env;
pub mod hero;
pub mod moves;
pub mod riding;
pub mod rules;
pub mod state;
pub mod supported;
pub mod top_down;
pub mod tuning;

pub use actions::Actions;
pub use character::{Hero, Timers};
pub use env::{Env, SizeClass, CROUCH, HERO_CLASS, STAND};
pub use hero::SpawnError;
pub use state::{MoveEvent, MoveState, StepReport};
pub use tuning::{FieldMut, Tuning, TuningError, TuningField, TuningOverrides};
