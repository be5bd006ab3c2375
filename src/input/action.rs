//! What the player can ask for, device-independent.
use serde::{Deserialize, Serialize};

/// A bindable action. Directions feed the movement axis (y is climb up/down on ladders); the
/// last four are UI actions consumed once per rendered frame, not per simulation tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Move left (axis x −1).
    Left,
    /// Move right (axis x +1).
    Right,
    /// Climb up / look up (axis y +1).
    Up,
    /// Climb down / look down (axis y −1).
    Down,
    /// Jump (held and just-pressed).
    Jump,
    /// Crouch (held).
    Crouch,
    /// Attack (just-pressed: `sim::play`'s swing).
    Attack,
    /// Pause or resume the simulation.
    Pause,
    /// Open or close the level editor.
    ToggleEditor,
    /// Show or hide the collision-mesh debug overlay.
    ToggleDebug,
    /// Switch between windowed and borderless fullscreen.
    Fullscreen,
}

impl Action {
    /// Every action, in declaration order (the index is [`Action::index`]).
    pub const ALL: [Action; 11] = [
        Action::Left,
        Action::Right,
        Action::Up,
        Action::Down,
        Action::Jump,
        Action::Crouch,
        Action::Attack,
        Action::Pause,
        Action::ToggleEditor,
        Action::ToggleDebug,
        Action::Fullscreen,
    ];
    /// Number of actions.
    pub const COUNT: usize = Action::ALL.len();

    /// Dense index for per-action arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// What the settings panel's key list calls it (a player's words; each differs from every
    /// other label of the panel, so "Fullscreen" names the checkbox only).
    pub fn label(self) -> &'static str {
        match self {
            Action::Left => "Move left",
            Action::Right => "Move right",
            Action::Up => "Up (climb, look)",
            Action::Down => "Down (climb, drop through)",
            Action::Jump => "Jump",
            Action::Crouch => "Crouch",
            Action::Attack => "Attack",
            Action::Pause => "Pause",
            Action::ToggleEditor => "Level editor",
            Action::ToggleDebug => "Collision overlay",
            Action::Fullscreen => "Toggle fullscreen",
        }
    }
}

/// UI actions pressed since the last rendered frame (each at most once per frame).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UiActions {
    /// Pause was pressed.
    pub pause: bool,
    /// Toggle-editor was pressed.
    pub toggle_editor: bool,
    /// Toggle-debug-overlay was pressed.
    pub toggle_debug: bool,
    /// Fullscreen toggle was pressed.
    pub fullscreen: bool,
    /// How many times Up was pressed (menus move up once per press).
    pub up: u8,
    /// How many times Down was pressed (menus move down once per press).
    pub down: u8,
    /// Jump was pressed (menus activate the highlighted item).
    pub accept: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_dense_and_in_order() {
        for (i, a) in Action::ALL.iter().enumerate() {
            assert_eq!(a.index(), i);
        }
    }
}
