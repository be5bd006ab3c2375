//! Input: devices become per-tick action snapshots, once, at the edge.
//!
//! # What it owns
//! - [`Action`]s (what the player asks for) and the device vocabulary ([`Key`], [`PadButton`]),
//!   independent of winit and gilrs so tests need no window and no gamepad.
//! - [`Bindings`]: which keys and buttons trigger which action, loaded from `assets/bindings.ron`,
//!   and the edits the settings make to them ([`BindingEdit`]).
//! - What a player calls the keys and buttons ([`Input::name`], [`bound_names`]), and a level
//!   sign's text in the player's keys ([`sign_text`]).
//! - [`InputState`]: gathers device events across render frames into held and just-pressed
//!   states. A press is latched until a simulation tick (or, for UI actions, a frame) consumes it,
//!   so a press shorter than a tick is never lost.
//! - The edges: [`key_from_winit`] maps winit key codes, [`Gamepads`] polls gilrs (hot-plug,
//!   radial dead zone); without a gamepad, or where gilrs cannot start, input is keyboard only.
//!
//! # Must never depend on
//! The renderer or the app. The simulation never sees a device: it reads only the
//! `movement::Actions` snapshot that [`InputState::take_tick_actions`] produces (replays are
//! another producer of the same snapshot).
pub mod action;
pub mod bindings;
pub mod dead_zone;
pub mod device;
pub mod gamepad;
pub mod names;
pub mod state;
pub mod winit_keys;

pub use action::{Action, UiActions};
pub use bindings::{save_bindings, BindingEdit, Bindings, BindingsError};
pub use dead_zone::radial_dead_zone;
pub use device::{Key, PadButton};
pub use gamepad::Gamepads;
pub use names::{bound_names, placeholder_action, sign_text, Input};
pub use state::InputState;
pub use winit_keys::{key_from_logical, key_from_winit};
