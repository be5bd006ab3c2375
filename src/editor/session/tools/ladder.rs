//! The Ladder tool: drag a rectangle, get a ladder (selected).
use glam::DVec2;

use super::{has_area, start_band, Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::ops::Edit;
use crate::editor::session::EditorSession;
use crate::level::Ladder;

pub(super) struct LadderTool;

impl ToolBehaviour for LadderTool {
    fn label(&self) -> &'static str {
        "Ladder"
    }

    fn hint(&self) -> &'static str {
        "Drag a rectangle: a new ladder"
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        start_band(s, press.snapped, false);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, _add: bool) {
        if !has_area(&r) {
            return;
        }
        let ladder = Ladder {
            min: r.min,
            max: r.max,
        };
        if s.edit(Edit::AddLadder { ladder }, p).is_ok() {
            s.selection.clear();
            s.selection.ladder = Some(s.level.read().ladders.len() - 1);
        }
    }
}
