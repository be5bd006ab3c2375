//! Device vocabulary of our own: keys and gamepad buttons, named like the W3C/winit key codes
//! and gilrs' buttons, so bindings files and tests never touch winit or gilrs types.
use serde::{Deserialize, Serialize};

/// Invokes `$m!` with the list of supported keys. One list feeds both the [`Key`] enum and the
/// winit mapping (`winit_keys`), so the two can never drift apart.
macro_rules! with_key_list {
    ($m:ident) => {
        $m! {
            KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM,
            KeyN, KeyO, KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
            Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
            ArrowLeft, ArrowRight, ArrowUp, ArrowDown,
            Space, Enter, Escape, Tab, Backspace, Backquote, Minus, Equal, Comma, Period, Slash,
            Semicolon, Quote, BracketLeft, BracketRight, Backslash,
            ShiftLeft, ShiftRight, ControlLeft, ControlRight, AltLeft, AltRight,
            F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12,
            Numpad0, Numpad1, Numpad2, Numpad3, Numpad4, Numpad5, Numpad6, Numpad7, Numpad8,
            Numpad9, Home, End, PageUp, PageDown, Insert, Delete,
        }
    };
}
pub(crate) use with_key_list;

macro_rules! define_keys {
    ($($name:ident),* $(,)?) => {
        /// A physical keyboard key (by position, as W3C `KeyboardEvent.code` names it: `KeyW` is
        /// the key left of `KeyE` on any layout, so WASD stays in place on AZERTY).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[allow(missing_docs)]
        pub enum Key { $($name),* }
    };
}
with_key_list!(define_keys);

/// A gamepad button (the standard layout gilrs maps every pad to). The left stick and the d-pad
/// axes are handled by [`crate::input::InputState`] directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PadButton {
    /// Bottom face button (A on Xbox, Cross on PlayStation).
    South,
    /// Right face button (B / Circle).
    East,
    /// Top face button (Y / Triangle).
    North,
    /// Left face button (X / Square).
    West,
    /// Left shoulder.
    LeftTrigger,
    /// Left trigger.
    LeftTrigger2,
    /// Right shoulder.
    RightTrigger,
    /// Right trigger.
    RightTrigger2,
    /// Select / Back / Share.
    Select,
    /// Start / Menu / Options.
    Start,
    /// D-pad up.
    DPadUp,
    /// D-pad down.
    DPadDown,
    /// D-pad left.
    DPadLeft,
    /// D-pad right.
    DPadRight,
}
