//! The Switch tool: a click on a door picks it; a rectangle dragged then becomes that door's
//! switch region (one undoable edit of the door), refused with the reason when no door is
//! picked.
use glam::DVec2;

use super::{has_area, start_band, Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::kinds::door::Door;
use crate::editor::kinds::{changed, ObjectKind};
use crate::editor::objects;
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
        let picked = objects::pick_inside(&s.level.read(), press.at).map(|g| g.object);
        if let Some(door) = picked.filter(|o| o.kind == Door::NAME) {
            s.select_object(door, None);
            return;
        }
        start_band(s, press.snapped, false);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, _add: bool) {
        if !has_area(&r) {
            return;
        }
        let door = s.selection.object.filter(|o| o.kind == Door::NAME);
        let Some(edit) =
            door.and_then(|o| changed::<Door>(&s.level.read(), o.index, |d| d.switch = Some(r)))
        else {
            s.refuse("pick a door first: click it with the switch tool", p);
            return;
        };
        let _ = s.edit(edit, p);
    }
}
