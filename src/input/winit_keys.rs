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

/// Our key for the key the keyboard layout produces (winit's logical key), for shortcuts named by
/// their label (Ctrl+Z is the key labelled Z on any layout): letters, digits and the named keys
/// shortcuts use. `None` for anything else (the physical key is used then).
pub fn key_from_logical(key: &winit::keyboard::Key) -> Option<Key> {
    use winit::keyboard::{Key as L, NamedKey as N};
    match key {
        L::Character(s) => {
            let mut chars = s.chars();
            let c = chars.next()?.to_ascii_lowercase();
            if chars.next().is_some() {
                return None;
            }
            let letters = [
                Key::KeyA,
                Key::KeyB,
                Key::KeyC,
                Key::KeyD,
                Key::KeyE,
                Key::KeyF,
                Key::KeyG,
                Key::KeyH,
                Key::KeyI,
                Key::KeyJ,
                Key::KeyK,
                Key::KeyL,
                Key::KeyM,
                Key::KeyN,
                Key::KeyO,
                Key::KeyP,
                Key::KeyQ,
                Key::KeyR,
                Key::KeyS,
                Key::KeyT,
                Key::KeyU,
                Key::KeyV,
                Key::KeyW,
                Key::KeyX,
                Key::KeyY,
                Key::KeyZ,
            ];
            match c {
                'a'..='z' => Some(letters[(c as u8 - b'a') as usize]),
                '.' => Some(Key::Period),
                _ => None,
            }
        }
        L::Named(N::Enter) => Some(Key::Enter),
        L::Named(N::Escape) => Some(Key::Escape),
        L::Named(N::Backspace) => Some(Key::Backspace),
        L::Named(N::Delete) => Some(Key::Delete),
        L::Named(N::Tab) => Some(Key::Tab),
        L::Named(N::Space) => Some(Key::Space),
        _ => None,
    }
}

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

    #[test]
    fn logical_keys_map_letters_by_label() {
        use winit::keyboard::{Key as L, NamedKey};
        assert_eq!(key_from_logical(&L::Character("z".into())), Some(Key::KeyZ));
        assert_eq!(key_from_logical(&L::Character("Z".into())), Some(Key::KeyZ));
        assert_eq!(
            key_from_logical(&L::Character(".".into())),
            Some(Key::Period)
        );
        assert_eq!(key_from_logical(&L::Character("é".into())), None);
        assert_eq!(
            key_from_logical(&L::Named(NamedKey::Enter)),
            Some(Key::Enter)
        );
    }
}
