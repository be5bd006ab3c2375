//! Signs: texts placed in the level that teach the player ("{jump} jumps"), drawn by the front end
//! when the hero is near. A sign's text may name actions in braces, `{jump}`, `{attack}`, ...
//! ([`PLACEHOLDERS`]); the front end shows each as the keys or gamepad buttons the player has
//! bound to it (`input::names::sign_text`), so a sign stays true after a rebinding.
//!
//! The simulation never reads signs: they change no hash, no replay and no trace. This module
//! owns the sign's data, how its text splits into words and placeholders ([`pieces`]), and the
//! rules a sign's text keeps ([`check_sign`]).
//!
//! # Must never depend on
//! The input module or any window, GPU or audio crate: the placeholder names are the bindings
//! file's action names, written out here and checked against the input module's actions by a
//! test there (`input::names`).
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::error::LevelProblem;
use super::fields::{object_fields, Widget};

/// Every placeholder a sign's text may hold, without its braces: the bindings file's name of each
/// action (`assets/bindings.ron`), in the order of the actions.
pub const PLACEHOLDERS: [&str; 11] = [
    "left",
    "right",
    "up",
    "down",
    "jump",
    "crouch",
    "attack",
    "pause",
    "toggle_editor",
    "toggle_debug",
    "fullscreen",
];

/// The longest text a sign may hold, in characters: a few short lines, not a page.
pub const MAX_SIGN_TEXT: usize = 200;

/// The most signs a level may hold.
pub const MAX_SIGNS: usize = 256;

object_fields! {
/// A sign: a text shown in the world above a point when the hero is near (the front end's
/// business: `view::signs`). Drawing only: the simulation never reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelSign {
    /// Where it stands, m: the foot of its post; its panel is drawn above.
    pub at: DVec2 => ("at", Widget::Point),
    /// What it says; `{action}` (`{jump}`, `{attack}`, `{crouch}`, ...) is shown as the keys or
    /// buttons bound to that action. Not empty, at most 200 characters.
    pub text: String => ("text", Widget::Text),
}
}

/// A piece of a sign's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text shown as it is.
    Text(&'a str),
    /// A placeholder, without its braces (`"jump"`): whatever name is between them, known or
    /// not ([`check_sign`] refuses an unknown one).
    Action(&'a str),
}

/// `text` as plain text and placeholders, in order. A `{` with no `}` after it is plain text.
pub fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        out.push(Piece::Action(&rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// Checks sign `index`: a finite point within the level's coordinate range, a text that is not
/// blank, at most [`MAX_SIGN_TEXT`] characters, whose placeholders are all [`PLACEHOLDERS`].
pub fn check_sign(index: usize, s: &LevelSign) -> Result<(), LevelProblem> {
    let why = |why: String| Err(LevelProblem::Sign { index, why });
    if !(s.at.is_finite() && s.at.abs().max_element() <= crate::collision::MAX_COORDINATE) {
        return why(format!(
            "at ({}, {}) must be finite and within ±1e7 m",
            crate::collision::Num(s.at.x),
            crate::collision::Num(s.at.y)
        ));
    }
    if s.text.trim().is_empty() {
        return why("its text is empty".into());
    }
    let n = s.text.chars().count();
    if n > MAX_SIGN_TEXT {
        return why(format!(
            "its text has {n} characters, more than {MAX_SIGN_TEXT}"
        ));
    }
    for p in pieces(&s.text) {
        if let Piece::Action(name) = p {
            if !PLACEHOLDERS.contains(&name) {
                return why(format!(
                    "unknown placeholder {{{name}}}; a sign may name {}",
                    PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// Checks a level's signs: how many, then each ([`check_sign`]).
pub fn check_signs(signs: &[LevelSign]) -> Result<(), LevelProblem> {
    if signs.len() > MAX_SIGNS {
        return Err(LevelProblem::Sign {
            index: MAX_SIGNS,
            why: format!("the level has {} signs, more than {MAX_SIGNS}", signs.len()),
        });
    }
    for (i, s) in signs.iter().enumerate() {
        check_sign(i, s)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(text: &str) -> LevelSign {
        LevelSign {
            at: DVec2::new(1.0, 2.0),
            text: text.into(),
        }
    }

    #[test]
    fn a_text_splits_into_words_and_placeholders() {
        assert_eq!(
            pieces("Press {jump} to jump, {attack}!"),
            [
                Piece::Text("Press "),
                Piece::Action("jump"),
                Piece::Text(" to jump, "),
                Piece::Action("attack"),
                Piece::Text("!"),
            ]
        );
        assert_eq!(pieces("{crouch}"), [Piece::Action("crouch")]);
        assert_eq!(pieces("a { b"), [Piece::Text("a { b")]);
        assert_eq!(pieces(""), []);
    }

    #[test]
    fn a_sign_needs_a_text_with_known_placeholders() {
        assert!(check_sign(0, &sign("{jump} jumps, {down} + {jump} drops")).is_ok());
        let e = check_sign(3, &sign("  ")).unwrap_err().to_string();
        assert_eq!(e, "sign 3: its text is empty");
        let e = check_sign(1, &sign("{dash} dashes"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("sign 1: unknown placeholder {dash}"), "{e}");
        assert!(e.contains("{jump}") && !e.contains('\n'), "{e}");
        let long = "x".repeat(MAX_SIGN_TEXT + 1);
        assert!(check_sign(0, &sign(&long)).is_err());
        let mut far = sign("hi");
        far.at.x = f64::NAN;
        assert!(check_sign(0, &far).is_err());
    }

    #[test]
    fn a_sign_reads_and_writes_as_the_level_file_says() {
        let s: LevelSign = ron::from_str("(at: (3, 0.5), text: \"{jump} jumps\")").unwrap();
        assert_eq!(
            s,
            LevelSign {
                at: DVec2::new(3.0, 0.5),
                text: "{jump} jumps".into()
            }
        );
        let back: LevelSign = ron::from_str(&ron::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        assert!(ron::from_str::<LevelSign>("(at: (0, 0), text: \"a\", colour: 1)").is_err());
    }
}
