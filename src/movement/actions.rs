//! The per-tick action snapshot: everything the simulation knows of the player's intent.
//!
//! Devices (keyboard, gamepad) and replays are interchangeable producers of this snapshot; the
//! simulation never sees a device. Recording the snapshots of a session gives a replay.
use glam::DVec2;
use serde::{Deserialize, Serialize};

/// What the player asks for during one simulation tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Actions {
    /// Movement axis, x right and y up, each component in `[-1, 1]`. y is climb up/down on
    /// ladders, look/drop down on the ground, and movement in top-down mode.
    #[serde(rename = "move")]
    pub move_axis: DVec2,
    /// Jump button held.
    pub jump: bool,
    /// Jump pressed since the previous tick (kept even if released again before the tick, so a
    /// press shorter than a tick is never lost).
    pub jump_pressed: bool,
    /// Crouch held.
    pub crouch: bool,
    /// Attack pressed since the previous tick (`sim::play`: the hero's attack; kept even if
    /// released again before the tick, as a jump press is).
    pub attack_pressed: bool,
}

impl Actions {
    /// The snapshot with the axis clamped to `[-1, 1]` and non-finite values zeroed.
    pub fn sanitized(mut self) -> Self {
        let c = |v: f64| {
            if v.is_finite() {
                v.clamp(-1.0, 1.0)
            } else {
                0.0
            }
        };
        self.move_axis = DVec2::new(c(self.move_axis.x), c(self.move_axis.y));
        self
    }
}
