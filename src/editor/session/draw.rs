//! The Draw tool (click points, close on the first or with Enter) and the Tiles brush (one
//! square per grid cell along the stroke).
use glam::DVec2;

use super::{EditorSession, Gesture};
use crate::editor::ops::Edit;
use crate::level::LevelPolygon;

impl EditorSession {
    pub(super) fn click_draw(&mut self, p: DVec2, radius: f64) {
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
            self.select_only_polygon(self.level.polygons.len() - 1);
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

    pub(super) fn paint_tile(&mut self, p: DVec2) {
        let s = self.grid.size();
        let cell = ((p.x / s).floor() as i64, (p.y / s).floor() as i64);
        let Gesture::Tiles { cells } = &mut self.gesture else {
            return;
        };
        if !cells.insert(cell) {
            return;
        }
        // A cell already covered by a polygon vertex-for-vertex is not painted twice.
        let (x0, y0) = (self.grid.coordinate(cell.0), self.grid.coordinate(cell.1));
        let (x1, y1) = (
            self.grid.coordinate(cell.0 + 1),
            self.grid.coordinate(cell.1 + 1),
        );
        let outline = vec![
            DVec2::new(x0, y0),
            DVec2::new(x1, y0),
            DVec2::new(x1, y1),
            DVec2::new(x0, y1),
        ];
        if self.level.polygons.iter().any(|q| q.points == outline) {
            return;
        }
        let _ = self.edit(
            Edit::AddPolygon {
                polygon: LevelPolygon::solid(outline),
            },
            p,
        );
    }
}
