//! The Mover tool: drag a rectangle, get a new mover (a platform with a two-node path, selected;
//! its nodes drag with Select). Shift-drag adds the rectangle as another piece of the selected
//! mover (its path unchanged), refused with the reason when no mover is selected.
use glam::DVec2;

use super::{has_area, start_band, Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::kinds::mover::{new_mover, Mover};
use crate::editor::kinds::{added, changed, ObjectKind};
use crate::editor::objects::rect_points;
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
            let mover = s.selection.object.filter(|o| o.kind == Mover::NAME);
            let add_piece = |m: &mut crate::level::LevelMover| m.pieces.push(rect_points(r));
            let Some(edit) =
                mover.and_then(|o| changed::<Mover>(&s.level.read(), o.index, add_piece))
            else {
                s.refuse("select a mover first: Shift-drag adds a piece to it", p);
                return;
            };
            let _ = s.edit(edit, p);
            return;
        }
        let (edit, mover) = added::<Mover>(&s.level.read(), new_mover(r));
        if s.edit(edit, p).is_ok() {
            s.select_object(mover, None);
        }
    }
}
