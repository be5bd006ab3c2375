//! The "Hero here" tool: a click asks the game to put the hero there, snapped to the grid
//! (play-test from the cursor); the document is untouched.
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
        // Snapped like every placement: on a grid line a floor's top is on, the hero stands.
        s.requests.push(Request::PlaceHero(press.snapped));
    }
}
