//! What a player calls the keys and buttons: the one naming function for everything that shows a
//! binding (the settings' key list, and in-level signs and controls cards that name an action's
//! keys). "Space", "Left Ctrl", "C", "A button" — never the W3C codes ("KeyC", "ControlLeft") or
//! the enum names the bindings file uses.
//!
//! # What it owns
//! [`Input`] (a key or a gamepad button), its [`name`](Input::name), [`bound_names`]: an
//! action's keys or buttons as one line of text, and [`sign_text`]: a level sign's text with its
//! placeholders (`{jump}`, `level::sign`) replaced by those names.
//!
//! # Must never depend on
//! winit, gilrs or the app: plain data, like the rest of the device vocabulary.
use super::action::Action;
use super::bindings::Bindings;
use super::device::{Key, PadButton};

/// A keyboard key or a gamepad button: what a binding names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A keyboard key.
    Key(Key),
    /// A gamepad button (named as on an Xbox pad, the standard layout gilrs maps every pad to).
    Pad(PadButton),
}

impl Input {
    /// What a player calls it: "Space", "Left Ctrl", "C", "7", "Up arrow", "F3", "A button",
    /// "Left trigger", "D-pad up".
    pub fn name(self) -> String {
        match self {
            Input::Key(k) => key_name(k),
            Input::Pad(b) => pad_name(b).to_string(),
        }
    }
}

fn key_name(k: Key) -> String {
    use Key::*;
    let fixed = match k {
        ArrowLeft => "Left arrow",
        ArrowRight => "Right arrow",
        ArrowUp => "Up arrow",
        ArrowDown => "Down arrow",
        Backquote => "`",
        Minus => "-",
        Equal => "=",
        Comma => ",",
        Period => ".",
        Slash => "/",
        Semicolon => ";",
        Quote => "'",
        BracketLeft => "[",
        BracketRight => "]",
        Backslash => "\\",
        ShiftLeft => "Left Shift",
        ShiftRight => "Right Shift",
        ControlLeft => "Left Ctrl",
        ControlRight => "Right Ctrl",
        AltLeft => "Left Alt",
        AltRight => "Right Alt",
        PageUp => "Page Up",
        PageDown => "Page Down",
        Escape => "Esc",
        _ => "",
    };
    if !fixed.is_empty() {
        return fixed.to_string();
    }
    // The rest by their code: "KeyC" is "C", "Digit7" is "7", "Numpad7" is "Numpad 7", "F3",
    // "Space", "Enter", "Tab", "Home" are themselves.
    let code = format!("{k:?}");
    if let Some(rest) = code
        .strip_prefix("Key")
        .or_else(|| code.strip_prefix("Digit"))
    {
        return rest.to_string();
    }
    if let Some(rest) = code.strip_prefix("Numpad") {
        return format!("Numpad {rest}");
    }
    code
}

fn pad_name(b: PadButton) -> &'static str {
    match b {
        PadButton::South => "A button",
        PadButton::East => "B button",
        PadButton::North => "Y button",
        PadButton::West => "X button",
        PadButton::LeftTrigger => "Left bumper",
        PadButton::LeftTrigger2 => "Left trigger",
        PadButton::RightTrigger => "Right bumper",
        PadButton::RightTrigger2 => "Right trigger",
        PadButton::Select => "Back button",
        PadButton::Start => "Start button",
        PadButton::DPadUp => "D-pad up",
        PadButton::DPadDown => "D-pad down",
        PadButton::DPadLeft => "D-pad left",
        PadButton::DPadRight => "D-pad right",
    }
}

/// `action`'s keys (`pad` false) or gamepad buttons (`pad` true) in `bindings`, by name, in the
/// bindings' order, joined with " or " ("Space or K"); empty when it has none on that device.
pub fn bound_names(bindings: &Bindings, action: Action, pad: bool) -> String {
    let names: Vec<String> = if pad {
        bindings
            .gamepad
            .get(&action)
            .map(|bs| bs.iter().map(|&b| Input::Pad(b).name()).collect())
            .unwrap_or_default()
    } else {
        bindings
            .keyboard
            .get(&action)
            .map(|ks| ks.iter().map(|&k| Input::Key(k).name()).collect())
            .unwrap_or_default()
    };
    names.join(" or ")
}

/// The action a sign's placeholder names (`"jump"`: [`Action::Jump`]): its name in the bindings
/// file; `None` for a name no action has.
pub fn placeholder_action(name: &str) -> Option<Action> {
    Action::ALL.into_iter().find(|a| action_name(*a) == name)
}

/// `a`'s name in the bindings file and in signs' placeholders (`"toggle_editor"`).
fn action_name(a: Action) -> String {
    // The serde name, as `assets/bindings.ron` writes it; an action always serialises.
    ron::to_string(&a).unwrap_or_default()
}

/// A level sign's `text` as the player reads it: each placeholder (`{jump}`) replaced by the keys
/// (`pad` false) or gamepad buttons (`pad` true) bound to its action ([`bound_names`]: "Space or
/// K"); an action with none on that device reads "(unbound)", and a name no action has (which
/// `level::validate` refuses) stays as written.
pub fn sign_text(text: &str, bindings: &Bindings, pad: bool) -> String {
    use crate::level::sign::{pieces, Piece};
    let mut out = String::with_capacity(text.len() + 16);
    for p in pieces(text) {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Action(name) => match placeholder_action(name) {
                Some(a) => {
                    let names = bound_names(bindings, a, pad);
                    out.push_str(if names.is_empty() {
                        "(unbound)"
                    } else {
                        &names
                    });
                }
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The level's list of placeholders (`level::sign`, which may not name the input module) is
    /// the actions' names in the bindings file, in order: every action can be named on a sign.
    #[test]
    fn every_action_is_a_placeholder_and_every_placeholder_an_action() {
        let names: Vec<String> = Action::ALL.into_iter().map(action_name).collect();
        assert_eq!(names, crate::level::sign::PLACEHOLDERS);
        for a in Action::ALL {
            assert_eq!(placeholder_action(&action_name(a)), Some(a));
        }
        assert_eq!(placeholder_action("dash"), None);
    }

    #[test]
    fn a_sign_names_the_bound_keys_or_buttons() {
        let mut b = Bindings::default();
        let text = "{jump} jumps, {crouch} crouches";
        assert_eq!(
            sign_text(text, &b, false),
            "Space or K jumps, C or Left Ctrl crouches"
        );
        assert!(sign_text(text, &b, true).starts_with("A button jumps, "));
        b.keyboard.insert(Action::Jump, vec![Key::KeyH]);
        assert_eq!(sign_text("{jump}!", &b, false), "H!");
        b.keyboard.remove(&Action::Jump);
        assert_eq!(sign_text("{jump}", &b, false), "(unbound)");
        assert_eq!(sign_text("{dash} a {", &b, false), "{dash} a {");
    }

    #[test]
    fn keys_and_buttons_have_the_names_players_use() {
        let k = |k| Input::Key(k).name();
        assert_eq!(k(Key::Space), "Space");
        assert_eq!(k(Key::ControlLeft), "Left Ctrl");
        assert_eq!(k(Key::KeyC), "C");
        assert_eq!(k(Key::Digit7), "7");
        assert_eq!(k(Key::Numpad7), "Numpad 7");
        assert_eq!(k(Key::ArrowUp), "Up arrow");
        assert_eq!(k(Key::Escape), "Esc");
        assert_eq!(k(Key::F3), "F3");
        assert_eq!(k(Key::Enter), "Enter");
        assert_eq!(k(Key::PageDown), "Page Down");
        assert_eq!(Input::Pad(PadButton::South).name(), "A button");
        assert_eq!(Input::Pad(PadButton::LeftTrigger2).name(), "Left trigger");
    }

    #[test]
    fn every_key_has_a_name_unlike_its_code_unless_the_code_reads_as_a_name() {
        use crate::input::device::with_key_list;
        macro_rules! all_keys {
            ($($name:ident),* $(,)?) => { [$(Key::$name),*] };
        }
        let keys = with_key_list!(all_keys);
        let mut seen = std::collections::BTreeSet::new();
        for key in keys {
            let name = Input::Key(key).name();
            assert!(!name.is_empty(), "{key:?}");
            assert!(seen.insert(name.clone()), "{key:?}: {name} named twice");
            let code = format!("{key:?}");
            assert!(
                !(code.starts_with("Key") || code.starts_with("Digit") || code.contains("Left"))
                    || name != code,
                "{key:?} shown as its code"
            );
        }
    }

    #[test]
    fn an_actions_keys_read_as_one_line() {
        let b = Bindings::default();
        assert_eq!(bound_names(&b, Action::Jump, false), "Space or K");
        assert_eq!(bound_names(&b, Action::Crouch, false), "C or Left Ctrl");
        assert_eq!(bound_names(&b, Action::Jump, true), "A button");
        assert_eq!(bound_names(&b, Action::ToggleEditor, true), "");
    }
}
