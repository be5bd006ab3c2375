//! The Draw tool: click points of a new polygon; a click on its first point or Enter closes
//! it (a solid polygon, selected), Backspace takes back the last point, Escape drops it.
use glam::DVec2;

use super::{Look, Press, Sketch, ToolBehaviour, ToolKey};
use crate::editor::ops::Edit;
use crate::editor::session::{EditorSession, Gesture};
use crate::level::LevelPolygon;

pub(super) struct Draw;

impl ToolBehaviour for Draw {
    fn label(&self) -> &'static str {
        "Draw"
    }

    fn hint(&self) -> &'static str {
        "Click the points of a new polygon; click the first point or press Enter to close it; Backspace takes back a point, Escape drops it"
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        s.click_draw(press.snapped, press.radius);
    }

    fn key(&self, s: &mut EditorSession, key: ToolKey, cursor: DVec2) -> bool {
        if s.drawing.is_empty() {
            return false;
        }
        match key {
            ToolKey::Finish => s.finish_drawing(cursor),
            ToolKey::Back => {
                s.undo_point();
            }
            ToolKey::Cancel => s.cancel_drawing(),
        }
        true
    }

    /// The polygon being drawn, a rubber line from its last point to the snapped pointer, and
    /// its points (the first one larger: a click there closes it).
    fn sketch(&self, s: &EditorSession, pointer: Option<DVec2>) -> Vec<Sketch> {
        let d = &s.drawing;
        let Some(&last) = d.last() else {
            return Vec::new();
        };
        let look = Look::Making;
        let mut out = vec![Sketch::Path {
            points: d.clone(),
            closed: false,
            width: 2.0,
            look,
        }];
        if let Some(p) = pointer {
            out.push(Sketch::Path {
                points: vec![last, s.grid.snap(p)],
                closed: false,
                width: 1.0,
                look,
            });
        }
        out.extend(d.iter().enumerate().map(|(i, &at)| Sketch::Dot {
            at,
            radius: if i == 0 { 6.0 } else { 3.5 },
            look,
        }));
        out
    }
}

impl EditorSession {
    /// A click of the Draw tool at `p`: closes the polygon on its first point (within
    /// `radius`, with at least 3 points), else adds a point.
    fn click_draw(&mut self, p: DVec2, radius: f64) {
        if let Some(&first) = self.drawing.first() {
            if self.drawing.len() >= 3 && first.distance(p) <= radius {
                self.finish_drawing(p);
                return;
            }
        }
        if self.drawing.last() == Some(&p) {
            return; // A double click on one point adds it once.
        }
        self.drawing.push(p);
    }

    /// Closes the polygon being drawn (Enter, or a click on its first point).
    pub fn finish_drawing(&mut self, at: DVec2) {
        if self.drawing.len() < 3 {
            self.report("a polygon needs at least 3 points".into(), true);
            return;
        }
        let polygon = LevelPolygon::solid(self.drawing.clone());
        if self.edit(Edit::AddPolygon { polygon }, at).is_ok() {
            self.drawing.clear();
            let last = self.level.read().polygons.len() - 1;
            self.select_only_polygon(last);
        }
    }

    /// Removes the last point of the polygon being drawn (Backspace); returns whether there
    /// was one.
    pub fn undo_point(&mut self) -> bool {
        self.drawing.pop().is_some()
    }

    /// Drops the polygon being drawn (Escape).
    pub fn cancel_drawing(&mut self) {
        self.drawing.clear();
        self.gesture = Gesture::None;
    }
}
