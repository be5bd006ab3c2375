//! The "Hero here" tool: a click asks the game to put the hero there (play-test from the
//! cursor); the document is untouched.
use super::{Press, ToolBehaviour};
use crate::editor::session::{EditorSession, Request};

pub(super) struct PlaceHero;

impl ToolBehaviour for PlaceHero {
    fn label(&self) -> &'static str {
        "Hero here"
    }

    fn hint(&self) -> &'static str {
        "Click: the hero is put there, to play-test from the cursor"
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        s.requests.push(Request::PlaceHero(press.at));
    }
}
