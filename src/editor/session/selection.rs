//! Commands on the selection: delete, rotate, scale, copy and paste, set the kind.
use glam::DVec2;

use super::EditorSession;
use crate::editor::ops::Edit;
use crate::level::LevelPolygon;
use crate::level::PolygonKind;

impl EditorSession {
    /// Deletes the selected vertices, else the selected polygons, else the selected object.
    pub fn delete_selection(&mut self) {
        let at = self.selection_centre().unwrap_or(self.level.read().spawn);
        if !self.selection.vertices.is_empty() {
            // Polygons whose every vertex is selected go whole; per polygon otherwise.
            let mut by_poly: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
            for &(p, v) in &self.selection.vertices {
                by_poly.entry(p).or_default().push(v);
            }
            for (p, vs) in by_poly.into_iter().rev() {
                let _ = self.edit(
                    Edit::DeleteVertices {
                        polygon: p,
                        vertices: vs,
                    },
                    at,
                );
            }
        } else if !self.selection.polygons.is_empty() {
            let polygons = self.selection.polygons.iter().copied().collect();
            let _ = self.edit(Edit::DeletePolygons { polygons }, at);
        } else if self.selection.object.is_some() {
            // A path node deleted keeps its mover selected.
            if self.delete_object() {
                return;
            }
        }
        self.selection.clear();
    }

    /// The polygons a transform acts on: the selected ones, and those of selected vertices.
    pub fn selected_polygons(&self) -> Vec<usize> {
        let mut s = self.selection.polygons.clone();
        s.extend(self.selection.vertices.iter().map(|&(p, _)| p));
        s.into_iter().collect()
    }

    /// The centre of the selection's bounding box.
    pub fn selection_centre(&self) -> Option<DVec2> {
        let level = self.level.read();
        let mut pts = self
            .selected_polygons()
            .into_iter()
            .flat_map(|p| level.polygons[p].points.iter().copied())
            .peekable();
        pts.peek()?;
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for p in pts {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        Some((lo + hi) / 2.0)
    }

    /// Rotates the selected polygons by `degrees` about the selection's centre.
    pub fn rotate_selection(&mut self, degrees: f64) {
        let Some(pivot) = self.selection_centre() else {
            return self.report("select polygons to rotate".into(), true);
        };
        let polygons = self.selected_polygons();
        let _ = self.edit(
            Edit::Rotate {
                polygons,
                pivot,
                angle: degrees.to_radians(),
            },
            pivot,
        );
    }

    /// Scales the selected polygons by `factor` about the selection's centre.
    pub fn scale_selection(&mut self, factor: DVec2) {
        let Some(pivot) = self.selection_centre() else {
            return self.report("select polygons to scale".into(), true);
        };
        let polygons = self.selected_polygons();
        let _ = self.edit(
            Edit::Scale {
                polygons,
                pivot,
                factor,
            },
            pivot,
        );
    }

    /// Copies the selected polygons.
    pub fn copy(&mut self) -> usize {
        if self.copy_object() {
            return 1;
        }
        self.object_clipboard = None;
        self.clipboard = self
            .selected_polygons()
            .into_iter()
            .map(|p| self.level.read().polygons[p].clone())
            .collect();
        self.clipboard.len()
    }

    /// Pastes the copied polygons with their centre at `at` (snapped to the grid), and selects
    /// them.
    pub fn paste(&mut self, at: DVec2) {
        if self.paste_object(at) {
            return;
        }
        if self.clipboard.is_empty() {
            return self.report("nothing copied".into(), true);
        }
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for p in self.clipboard.iter().flat_map(|q| &q.points) {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        // Moved by a whole number of grid cells, so grid-aligned copies stay on the grid.
        let delta = self.grid.snap(at) - self.grid.snap((lo + hi) / 2.0);
        let polygons: Vec<LevelPolygon> = self
            .clipboard
            .iter()
            .map(|q| LevelPolygon {
                points: q.points.iter().map(|&p| p + delta).collect(),
                ..q.clone()
            })
            .collect();
        let n = polygons.len();
        if self.edit(Edit::AddPolygons { polygons }, at).is_ok() {
            let len = self.level.read().polygons.len();
            self.selection.clear();
            self.selection.polygons.extend(len - n..len);
        }
    }

    /// Sets the kind of every selected polygon (one undo step each).
    pub fn set_kind(&mut self, kind: PolygonKind) {
        let at = self.selection_centre().unwrap_or(self.level.read().spawn);
        for polygon in self.selected_polygons() {
            if self.level.read().polygons[polygon].kind != kind {
                let _ = self.edit(Edit::SetKind { polygon, kind }, at);
            }
        }
    }
}
