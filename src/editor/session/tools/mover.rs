//! The Mover tool: drag a rectangle, get a new mover (a platform with a two-node path, selected;
//! its nodes drag with Select). Shift-drag adds the rectangle as another piece of the selected
//! mover (its path unchanged), refused with the reason when no mover is selected.
use glam::DVec2;

use super::{has_area, start_band, Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::objects::{self, ObjectRef};
use crate::editor::ops::Edit;
use crate::editor::session::EditorSession;

pub(super) struct MoverTool;

impl ToolBehaviour for MoverTool {
    fn label(&self) -> &'static str {
        "Mover"
    }

    fn hint(&self) -> &'static str {
        "Drag a rectangle: a new moving platform; Shift-drag adds a piece to the selected mover"
    }

    fn is_object(&self) -> bool {
        true
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        start_band(s, press.snapped, press.mods.shift);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, add: bool) {
        if !has_area(&r) {
            return;
        }
        if add {
            let Some(ObjectRef::Mover(i)) = s.selection.object else {
                s.refuse("select a mover first: Shift-drag adds a piece to it", p);
                return;
            };
            let edit = objects::mover_edit(&s.level, i, |m| m.pieces.push(objects::rect_points(r)));
            let _ = s.edit(edit, p);
            return;
        }
        let mut movers = s.level.movers.clone();
        movers.push(objects::new_mover(r));
        let edit = Edit::SetMovers {
            movers,
            restore: false,
        };
        if s.edit(edit, p).is_ok() {
            s.select_object(ObjectRef::Mover(s.level.movers.len() - 1), None);
        }
    }
}
