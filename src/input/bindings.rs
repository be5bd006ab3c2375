//! Key and button bindings: which device inputs trigger which [`Action`], from a RON file users
//! edit (`assets/bindings.ron`). Read through the level module's RON plumbing, so errors name the
//! file and the line and column.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::device::{Key, PadButton};
use crate::level::{read_ron, to_ron, write_atomic, FileError};

/// Writes `bindings` to `path` atomically (creating its folder): the bindings chosen in game.
pub fn save_bindings(path: &Path, bindings: &Bindings) -> Result<(), FileError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|error| FileError::Write {
            path: path.to_path_buf(),
            error,
        })?;
    }
    let text = to_ron(path, bindings, 2)?;
    write_atomic(path, text.as_bytes())
}

/// Device-to-action bindings. Several keys or buttons may trigger one action; an action with no
/// entry has no binding on that device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bindings {
    /// Keyboard keys per action. Default: arrows and WASD move, Space/K jump, C/Ctrl crouch,
    /// Escape/P pause, Tab editor, F3 debug overlay, F11 fullscreen.
    pub keyboard: BTreeMap<Action, Vec<Key>>,
    /// Gamepad buttons per action. Default: d-pad moves, South jumps, East/left trigger crouch,
    /// Start pauses, Select toggles the debug overlay.
    pub gamepad: BTreeMap<Action, Vec<PadButton>>,
    /// Left stick radial dead zone: deflections shorter than this (of 1) count as centred.
    /// Default 0.2.
    pub stick_dead_zone: f64,
    /// Left stick deflection (of 1) that counts as full speed. Default 0.9.
    pub stick_full: f64,
}

impl Default for Bindings {
    fn default() -> Self {
        use Key::*;
        use PadButton as P;
        let keyboard = BTreeMap::from([
            (Action::Left, vec![ArrowLeft, KeyA]),
            (Action::Right, vec![ArrowRight, KeyD]),
            (Action::Up, vec![ArrowUp, KeyW]),
            (Action::Down, vec![ArrowDown, KeyS]),
            (Action::Jump, vec![Space, KeyK]),
            (Action::Crouch, vec![KeyC, ControlLeft]),
            (Action::Attack, vec![KeyJ, KeyX]),
            (Action::Pause, vec![Escape, KeyP]),
            (Action::ToggleEditor, vec![Tab]),
            (Action::ToggleDebug, vec![F3]),
            (Action::Fullscreen, vec![F11]),
        ]);
        let gamepad = BTreeMap::from([
            (Action::Left, vec![P::DPadLeft]),
            (Action::Right, vec![P::DPadRight]),
            (Action::Up, vec![P::DPadUp]),
            (Action::Down, vec![P::DPadDown]),
            (Action::Jump, vec![P::South]),
            (Action::Crouch, vec![P::East, P::LeftTrigger2]),
            (Action::Attack, vec![P::West]),
            (Action::Pause, vec![P::Start]),
            (Action::ToggleDebug, vec![P::Select]),
        ]);
        Bindings {
            keyboard,
            gamepad,
            stick_dead_zone: 0.2,
            stick_full: 0.9,
        }
    }
}

/// A change to the keyboard bindings, as the settings' key list makes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingEdit {
    /// Bind the key to the action as well as its other keys; the key leaves any other action.
    AddKey(Action, Key),
    /// Unbind the key from the action.
    RemoveKey(Action, Key),
    /// The action's default keys again (they leave any other action).
    ResetAction(Action),
    /// Every action's default keys again.
    ResetAll,
}

/// The bindings file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum BindingsError {
    /// Missing, unreadable, or not valid RON (with line and column).
    #[error(transparent)]
    File(#[from] FileError),
    /// Parsed, but a value is out of range.
    #[error("{}: {field}: {why}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The field at fault.
        field: &'static str,
        /// What is wrong.
        why: String,
    },
}

impl Bindings {
    /// Loads and validates a bindings file.
    pub fn load(path: &Path) -> Result<Bindings, BindingsError> {
        let b: Bindings = read_ron(path)?;
        b.validate()
            .map_err(|(field, why)| BindingsError::Invalid {
                path: path.to_path_buf(),
                field,
                why,
            })?;
        Ok(b)
    }

    /// Checks the stick thresholds: `0 <= stick_dead_zone < stick_full <= 1`.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let (dz, full) = (self.stick_dead_zone, self.stick_full);
        if !(dz.is_finite() && (0.0..1.0).contains(&dz)) {
            return Err(("stick_dead_zone", format!("must be in [0, 1), got {dz}")));
        }
        if !(full.is_finite() && full > dz && full <= 1.0) {
            return Err((
                "stick_full",
                format!("must be above stick_dead_zone ({dz}) and at most 1, got {full}"),
            ));
        }
        Ok(())
    }

    /// Makes `edit` (see [`BindingEdit`]).
    pub fn edit(&mut self, edit: BindingEdit) {
        let defaults = Bindings::default();
        match edit {
            BindingEdit::AddKey(action, key) => {
                // One key, one action: a key added here leaves any other action.
                for (a, keys) in self.keyboard.iter_mut() {
                    if *a != action {
                        keys.retain(|k| *k != key);
                    }
                }
                let keys = self.keyboard.entry(action).or_default();
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
            BindingEdit::RemoveKey(action, key) => {
                if let Some(keys) = self.keyboard.get_mut(&action) {
                    keys.retain(|k| *k != key);
                }
            }
            BindingEdit::ResetAction(action) => {
                let keys = defaults.keyboard.get(&action).cloned().unwrap_or_default();
                for (a, ks) in self.keyboard.iter_mut() {
                    if *a != action {
                        ks.retain(|k| !keys.contains(k));
                    }
                }
                self.keyboard.insert(action, keys);
            }
            BindingEdit::ResetAll => self.keyboard = defaults.keyboard,
        }
    }

    /// The actions a key triggers.
    pub fn key_actions(&self, key: Key) -> impl Iterator<Item = Action> + '_ {
        self.keyboard
            .iter()
            .filter(move |(_, keys)| keys.contains(&key))
            .map(|(a, _)| *a)
    }

    /// The actions a gamepad button triggers.
    pub fn button_actions(&self, button: PadButton) -> impl Iterator<Item = Action> + '_ {
        self.gamepad
            .iter()
            .filter(move |(_, bs)| bs.contains(&button))
            .map(|(a, _)| *a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_ron;

    #[test]
    fn defaults_are_valid_and_bind_every_action_on_the_keyboard() {
        let b = Bindings::default();
        b.validate().unwrap();
        for a in Action::ALL {
            assert!(
                b.keyboard.get(&a).is_some_and(|k| !k.is_empty()),
                "{a:?} has no key"
            );
        }
        assert_eq!(
            b.key_actions(Key::KeyA).collect::<Vec<_>>(),
            vec![Action::Left]
        );
        assert_eq!(
            b.button_actions(PadButton::South).collect::<Vec<_>>(),
            vec![Action::Jump]
        );
    }

    #[test]
    fn a_partial_file_keeps_the_other_defaults() {
        let b: Bindings = parse_ron(
            Path::new("b.ron"),
            "(keyboard: {jump: [KeyZ]}, stick_dead_zone: 0.3)",
        )
        .unwrap();
        assert_eq!(b.keyboard.get(&Action::Jump), Some(&vec![Key::KeyZ]));
        assert_eq!(b.keyboard.get(&Action::Left), None);
        assert_eq!(b.gamepad, Bindings::default().gamepad);
        assert_eq!(b.stick_dead_zone, 0.3);
    }

    #[test]
    fn errors_name_the_file_and_place() {
        let dir = std::env::temp_dir().join(format!("tessera-bindings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad_key = dir.join("bad_key.ron");
        std::fs::write(&bad_key, "(\n  keyboard: {jump: [KeyZZ]},\n)\n").unwrap();
        let e = Bindings::load(&bad_key).unwrap_err().to_string();
        assert!(e.contains("bad_key.ron:2:"), "{e}");
        assert!(e.contains("KeyZZ"), "{e}");
        let bad_zone = dir.join("bad_zone.ron");
        std::fs::write(&bad_zone, "(stick_dead_zone: 1.5)").unwrap();
        let e = Bindings::load(&bad_zone).unwrap_err().to_string();
        assert!(
            e.contains("bad_zone.ron") && e.contains("stick_dead_zone"),
            "{e}"
        );
        let e = Bindings::load(&dir.join("missing.ron"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing.ron"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Adding a key keeps the action's others ("Space, K" plus H is "Space, K, H") and takes
    /// it from any other action; removing takes one; a reset gives the defaults back.
    #[test]
    fn keys_are_added_and_removed_per_action_and_reset_to_the_defaults() {
        let mut b = Bindings::default();
        b.edit(BindingEdit::AddKey(Action::Jump, Key::KeyH));
        assert_eq!(
            b.keyboard[&Action::Jump],
            [Key::Space, Key::KeyK, Key::KeyH]
        );
        b.edit(BindingEdit::AddKey(Action::Jump, Key::KeyH));
        assert_eq!(b.keyboard[&Action::Jump].len(), 3, "no key twice");
        b.edit(BindingEdit::RemoveKey(Action::Jump, Key::Space));
        assert_eq!(b.keyboard[&Action::Jump], [Key::KeyK, Key::KeyH]);
        // C crouches; given to attack, it no longer does.
        b.edit(BindingEdit::AddKey(Action::Attack, Key::KeyC));
        assert_eq!(b.keyboard[&Action::Crouch], [Key::ControlLeft]);
        assert_eq!(
            b.key_actions(Key::KeyC).collect::<Vec<_>>(),
            [Action::Attack]
        );
        b.edit(BindingEdit::ResetAction(Action::Crouch));
        assert_eq!(b.keyboard[&Action::Crouch], [Key::KeyC, Key::ControlLeft]);
        assert_eq!(b.keyboard[&Action::Attack], [Key::KeyJ, Key::KeyX]);
        assert_eq!(b.keyboard[&Action::Jump], [Key::KeyK, Key::KeyH]);
        b.edit(BindingEdit::ResetAll);
        assert_eq!(b, Bindings::default());
    }

    #[test]
    fn the_shipped_file_loads_and_equals_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/bindings.ron");
        assert_eq!(Bindings::load(&path).unwrap(), Bindings::default());
    }
}
