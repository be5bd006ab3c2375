//! The Switch tool: a click on a door picks it; a rectangle dragged then becomes that door's
//! switch region (one undoable edit of the door), refused with the reason when no door is
//! picked.
use glam::DVec2;

use super::{has_area, start_band, Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::objects::{self, Grab, ObjectRef};
use crate::editor::ops::Edit;
use crate::editor::session::EditorSession;

pub(super) struct SwitchTool;

impl ToolBehaviour for SwitchTool {
    fn label(&self) -> &'static str {
        "Switch"
    }

    fn hint(&self) -> &'static str {
        "Click a door to pick it, then drag a rectangle: that door's switch region"
    }

    fn is_object(&self) -> bool {
        true
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        if let Some(Grab::Door(i) | Grab::Switch(i)) = objects::pick_inside(&s.level, press.at) {
            s.select_object(ObjectRef::Door(i), None);
            return;
        }
        start_band(s, press.snapped, false);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, _add: bool) {
        if !has_area(&r) {
            return;
        }
        let Some(ObjectRef::Door(i)) = s.selection.object else {
            s.refuse("pick a door first: click it with the switch tool", p);
            return;
        };
        let mut doors = s.level.doors.clone();
        doors[i].switch = Some(r);
        let edit = Edit::SetDoors {
            doors,
            restore: false,
        };
        let _ = s.edit(edit, p);
    }
}
