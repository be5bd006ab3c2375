//! The gamepad edge: gilrs events to [`InputState`] calls, with hot-plug logging.
//!
//! No gamepad, or gilrs failing to start (no udev, no permissions, an unsupported platform), means
//! keyboard-only play: the failure is logged once at info level and never becomes an error.
use std::collections::BTreeMap;

use gilrs::{Axis, Button, EventType, Gilrs};
use glam::DVec2;

use super::device::PadButton;
use super::state::{InputState, PadId};

/// Polls gamepads, if the platform offers any, into an [`InputState`].
pub struct Gamepads {
    gilrs: Option<Gilrs>,
    sticks: BTreeMap<PadId, DVec2>,
}

impl Gamepads {
    /// Starts gamepad support, logging the pads already connected; keyboard-only if it cannot.
    pub fn new() -> Self {
        let gilrs = match Gilrs::new() {
            Ok(g) => {
                for (id, pad) in g.gamepads() {
                    log::info!("gamepad {} connected: {}", usize::from(id), pad.name());
                }
                Some(g)
            }
            Err(gilrs::Error::NotImplemented(_)) => {
                log::info!("gamepads are not supported on this platform; keyboard only");
                None
            }
            Err(e) => {
                log::info!("gamepad support unavailable ({e}); keyboard only");
                None
            }
        };
        Gamepads {
            gilrs,
            sticks: BTreeMap::new(),
        }
    }

    /// Whether gamepad support started.
    pub fn available(&self) -> bool {
        self.gilrs.is_some()
    }

    /// Feeds every pending gamepad event into `input`.
    pub fn poll(&mut self, input: &mut InputState) {
        let Some(gilrs) = self.gilrs.as_mut() else {
            return;
        };
        while let Some(ev) = gilrs.next_event() {
            let pad = usize::from(ev.id);
            match ev.event {
                EventType::Connected => {
                    log::info!("gamepad {pad} connected: {}", gilrs.gamepad(ev.id).name());
                }
                EventType::Disconnected => {
                    log::info!("gamepad {pad} disconnected");
                    self.sticks.remove(&pad);
                    input.pad_disconnected(pad);
                }
                EventType::ButtonPressed(b, _) => {
                    if let Some(b) = pad_button(b) {
                        input.button(pad, b, true);
                    }
                }
                EventType::ButtonReleased(b, _) => {
                    if let Some(b) = pad_button(b) {
                        input.button(pad, b, false);
                    }
                }
                EventType::AxisChanged(axis @ (Axis::LeftStickX | Axis::LeftStickY), value, _) => {
                    let s = self.sticks.entry(pad).or_insert(DVec2::ZERO);
                    if axis == Axis::LeftStickX {
                        s.x = value as f64;
                    } else {
                        s.y = value as f64;
                    }
                    input.stick(pad, *s);
                }
                _ => {}
            }
        }
    }
}

impl Default for Gamepads {
    fn default() -> Self {
        Gamepads::new()
    }
}

/// Our button for a gilrs button; `None` for buttons the game does not use.
pub fn pad_button(b: Button) -> Option<PadButton> {
    Some(match b {
        Button::South => PadButton::South,
        Button::East => PadButton::East,
        Button::North => PadButton::North,
        Button::West => PadButton::West,
        Button::LeftTrigger => PadButton::LeftTrigger,
        Button::LeftTrigger2 => PadButton::LeftTrigger2,
        Button::RightTrigger => PadButton::RightTrigger,
        Button::RightTrigger2 => PadButton::RightTrigger2,
        Button::Select => PadButton::Select,
        Button::Start => PadButton::Start,
        Button::DPadUp => PadButton::DPadUp,
        Button::DPadDown => PadButton::DPadDown,
        Button::DPadLeft => PadButton::DPadLeft,
        Button::DPadRight => PadButton::DPadRight,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_buttons_and_dpad_map_and_others_are_ignored() {
        assert_eq!(pad_button(Button::South), Some(PadButton::South));
        assert_eq!(pad_button(Button::DPadLeft), Some(PadButton::DPadLeft));
        assert_eq!(pad_button(Button::Mode), None);
        assert_eq!(pad_button(Button::Unknown), None);
    }

    #[test]
    fn starting_without_gamepad_devices_is_not_an_error() {
        // On a machine without udev devices gilrs may fail to start: that must mean keyboard only.
        let mut pads = Gamepads::new();
        let mut input = InputState::new(crate::input::Bindings::default());
        pads.poll(&mut input);
        assert_eq!(
            input.take_tick_actions(),
            crate::movement::Actions::default()
        );
    }
}
