//! The Box brush: drag a rectangle, get a solid box polygon (selected).
use glam::DVec2;

use super::{has_area, start_band, Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::objects::rect_points;
use crate::editor::ops::Edit;
use crate::editor::session::EditorSession;
use crate::level::LevelPolygon;

pub(super) struct BoxBrush;

impl ToolBehaviour for BoxBrush {
    fn label(&self) -> &'static str {
        "Box"
    }

    fn hint(&self) -> &'static str {
        "Drag a rectangle: a new box polygon"
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        start_band(s, press.snapped, false);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, _add: bool) {
        if !has_area(&r) {
            return;
        }
        let polygon = LevelPolygon::solid(rect_points(r));
        if s.edit(Edit::AddPolygon { polygon }, p).is_ok() {
            let last = s.level.read().polygons.len() - 1;
            s.select_only_polygon(last);
        }
    }
}
