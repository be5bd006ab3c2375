//! The keyboard edge: winit key codes to our [`Key`]s.
use winit::keyboard::KeyCode;

use super::device::{with_key_list, Key};

macro_rules! map_keys {
    ($($name:ident),* $(,)?) => {
        /// Our key for a winit key code; `None` for keys the game does not know (they are
        /// ignored, never an error).
        pub fn key_from_winit(code: KeyCode) -> Option<Key> {
            match code {
                $(KeyCode::$name => Some(Key::$name),)*
                _ => None,
            }
        }
    };
}
with_key_list!(map_keys);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_keys_map_by_name_and_unknown_ones_are_ignored() {
        assert_eq!(key_from_winit(KeyCode::KeyW), Some(Key::KeyW));
        assert_eq!(key_from_winit(KeyCode::ArrowLeft), Some(Key::ArrowLeft));
        assert_eq!(key_from_winit(KeyCode::F11), Some(Key::F11));
        assert_eq!(key_from_winit(KeyCode::LaunchMail), None);
    }
}
