//! The Spawn tool: a click moves the level's spawn point there (snapped).
use super::{Press, ToolBehaviour};
use crate::editor::ops::Edit;
use crate::editor::session::EditorSession;

pub(super) struct SpawnTool;

impl ToolBehaviour for SpawnTool {
    fn label(&self) -> &'static str {
        "Spawn"
    }

    fn hint(&self) -> &'static str {
        "Click: the level's spawn point goes there"
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        let _ = s.edit(Edit::MoveSpawn { to: press.snapped }, press.at);
    }
}
