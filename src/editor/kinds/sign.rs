//! Signs in the editor: texts that teach the player, an object kind (placed by a click with their
//! tool, their post's foot at the click; picked by the box of their post, dragged, copied,
//! pasted and deleted as any object; their text and point edited in their panel, one undoable
//! edit per change). The view shows each as its post, a box where its panel goes and its text
//! as written (with its `{action}` placeholders; the game shows the player's keys). The level's
//! rules (`level::sign::check_signs`): a text that is not empty, whose placeholders name actions.
use glam::DVec2;

use super::{BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Pen, Place, Placement};
use crate::collision::Aabb;
use crate::editor::objects::rect_points;
use crate::editor::ops::EditError;
use crate::level::sign::check_signs;
use crate::level::{Level, LevelSign};

/// Signs' colour.
pub const SIGN: Colour = Colour::Rgba([240, 190, 70, 255]);

/// The text a new sign starts with (edited in its panel).
pub const NEW_SIGN_TEXT: &str = "{jump} jumps";

/// Half the width of the box a press on a sign grabs, m.
const HALF_WIDTH: f64 = 0.4;
/// Height of that box, m: the post, up to where the game draws the panel.
const HEIGHT: f64 = 2.2;

/// The sign kind.
pub struct Signs;

/// The box a press on sign `s` grabs: its post.
fn post(s: &LevelSign) -> Aabb {
    Aabb {
        min: s.at - DVec2::new(HALF_WIDTH, 0.0),
        max: s.at + DVec2::new(HALF_WIDTH, HEIGHT),
    }
}

impl ObjectKind for Signs {
    type Item = LevelSign;
    const NAME: &'static str = "sign";
    const BODY_PICK: BodyPick = BodyPick::Box;
    const PLACE: Option<Place> = Some(Place::Click);
    const TOOL: (&'static str, &'static str) = (
        "Sign",
        "Click: a new sign, its post's foot at the click; write its text in its panel",
    );

    fn list(level: &Level) -> &[LevelSign] {
        &level.signs
    }

    fn replace(level: &mut Level, items: Vec<LevelSign>) -> Vec<LevelSign> {
        std::mem::replace(&mut level.signs, items)
    }

    fn check(_level: &Level, signs: &[LevelSign], _strict: bool) -> Result<(), EditError> {
        Ok(check_signs(signs)?)
    }

    fn placed(_level: &Level, at: Placement) -> Option<LevelSign> {
        match at {
            Placement::At(at) => Some(LevelSign {
                at,
                text: NEW_SIGN_TEXT.into(),
            }),
            Placement::Box(_) => None,
        }
    }

    fn body(_level: &Level, s: &LevelSign) -> Vec<Vec<DVec2>> {
        vec![rect_points(post(s))]
    }

    fn anchor(s: &LevelSign) -> Option<DVec2> {
        Some(s.at)
    }

    fn paste_point(_level: &Level, s: &LevelSign) -> DVec2 {
        s.at
    }

    fn translated(s: &LevelSign, delta: DVec2) -> LevelSign {
        LevelSign {
            at: s.at + delta,
            text: s.text.clone(),
        }
    }

    fn draw(_level: &Level, s: &LevelSign, state: DrawState, pen: &mut dyn Pen) {
        let (width, colour) = if state.selected {
            (2.5, Colour::Selected)
        } else {
            (1.5, SIGN)
        };
        pen.line(s.at, s.at + DVec2::new(0.0, HEIGHT), width, colour);
        pen.rect(post(s), 1.0, colour);
        pen.label(s.at + DVec2::new(0.0, HEIGHT), &s.text, colour);
    }

    /// Its point and its text (the level format's field definitions).
    fn panel(
        _level: &Level,
        s: &mut LevelSign,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        let near = s.at;
        ui.fields("sign", s.fields_mut(), near);
        ui.text("{jump}, {attack}, {crouch}, {down}, ... show the player's keys for the action.");
        PanelAsks::default()
    }

    fn example() -> LevelSign {
        LevelSign {
            at: DVec2::new(4.0, 0.0),
            text: "{crouch} crouches".into(),
        }
    }
}
