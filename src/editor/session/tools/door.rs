//! The Door tool: drag a rectangle, get a new closed door (selected); refused with the reason
//! when it would overlap another door.
use glam::DVec2;

use super::{has_area, start_band, Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::kinds::added;
use crate::editor::kinds::door::{new_door, Door};
use crate::editor::session::EditorSession;

pub(super) struct DoorTool;

impl ToolBehaviour for DoorTool {
    fn label(&self) -> &'static str {
        "Door"
    }

    fn hint(&self) -> &'static str {
        "Drag a rectangle: a new closed door"
    }

    fn is_object(&self) -> bool {
        true
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        start_band(s, press.snapped, false);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, _add: bool) {
        if !has_area(&r) {
            return;
        }
        let (edit, door) = added::<Door>(&s.level.read(), new_door(r));
        if s.edit(edit, p).is_ok() {
            s.select_object(door, None);
        }
    }
}
