//! The Tiles brush: a click or a stroke over grid cells makes one square polygon per cell
//! (the grid's size), each cell once per stroke and never over a square already there.
use glam::DVec2;

use super::{Look, Press, Sketch, ToolBehaviour};
use crate::editor::ops::Edit;
use crate::editor::session::{EditorSession, Gesture};
use crate::level::LevelPolygon;

pub(super) struct TileBrush;

impl ToolBehaviour for TileBrush {
    fn label(&self) -> &'static str {
        "Tiles"
    }

    fn hint(&self) -> &'static str {
        "Click or drag over grid cells: one square polygon per cell (the grid's size)"
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        s.gesture = Gesture::Tiles {
            cells: Default::default(),
        };
        s.paint_tile(press.at);
    }

    /// The cell under the pointer, the square a click would add.
    fn sketch(&self, s: &EditorSession, pointer: Option<DVec2>) -> Vec<Sketch> {
        let Some(p) = pointer else {
            return Vec::new();
        };
        vec![Sketch::Path {
            points: s.cell_outline(s.cell_at(p)),
            closed: true,
            width: 1.0,
            look: Look::Preview,
        }]
    }
}

impl EditorSession {
    /// Paints the cell under `p` in the tile stroke under way.
    pub(in crate::editor::session) fn paint_tile(&mut self, p: DVec2) {
        let cell = self.cell_at(p);
        let Gesture::Tiles { cells } = &mut self.gesture else {
            return;
        };
        if !cells.insert(cell) {
            return;
        }
        // A cell already covered by a polygon vertex-for-vertex is not painted twice.
        let outline = self.cell_outline(cell);
        if self
            .level
            .read()
            .polygons
            .iter()
            .any(|q| q.points == outline)
        {
            return;
        }
        let _ = self.edit(
            Edit::AddPolygon {
                polygon: LevelPolygon::solid(outline),
            },
            p,
        );
    }

    /// The grid cell holding `p`.
    fn cell_at(&self, p: DVec2) -> (i64, i64) {
        let s = self.grid.size();
        ((p.x / s).floor() as i64, (p.y / s).floor() as i64)
    }

    /// A grid cell's square, counter-clockwise from its lower left corner.
    fn cell_outline(&self, cell: (i64, i64)) -> Vec<DVec2> {
        let (x0, y0) = (self.grid.coordinate(cell.0), self.grid.coordinate(cell.1));
        let (x1, y1) = (
            self.grid.coordinate(cell.0 + 1),
            self.grid.coordinate(cell.1 + 1),
        );
        vec![
            DVec2::new(x0, y0),
            DVec2::new(x1, y0),
            DVec2::new(x1, y1),
            DVec2::new(x0, y1),
        ]
    }
}
