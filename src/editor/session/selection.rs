//! Commands on the selection: delete, rotate, scale, copy, paste (from the editor's clipboard or
//! level text) and duplicate, set the kind.
use glam::DVec2;

use super::EditorSession;
use crate::editor::clipboard::Fragment;
use crate::editor::ops::Edit;
use crate::editor::ObjectRef;
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

    /// Copies the selection (its polygons, and its object with its properties) to the editor's
    /// clipboard; returns how many things were copied (0: nothing selected, the clipboard kept).
    pub fn copy(&mut self) -> usize {
        let objects: Vec<ObjectRef> = self.selection.object.into_iter().collect();
        let copy = Fragment::copy(&self.level.read(), &self.selected_polygons(), &objects);
        let n = copy.polygons.len() + copy.objects.len();
        if n > 0 {
            self.clipboard = copy;
        }
        n
    }

    /// What Copy took.
    pub fn clipboard(&self) -> &Fragment {
        &self.clipboard
    }

    /// The clipboard as level text ([`Fragment::to_text`]), for the system clipboard; `None`
    /// when nothing was copied.
    pub fn clipboard_text(&self) -> Option<String> {
        (!self.clipboard.is_empty()).then(|| self.clipboard.to_text(&self.level.read()))
    }

    /// Pastes the clipboard with its centre at `at`, moved by whole grid cells (so grid-aligned
    /// copies stay on the grid), as one undoable edit, and selects what it added.
    pub fn paste(&mut self, at: DVec2) {
        let Some(centre) = self.clipboard.centre(&self.level.read()) else {
            return self.report("nothing copied".into(), true);
        };
        let delta = self.grid.snap(at) - self.grid.snap(centre);
        self.paste_moved(delta, at);
    }

    /// Pastes at `at` what the system clipboard holds, `text` (`None`: it holds no text): level
    /// text (a copy from any level, or a level file's text) becomes the clipboard and pastes as
    /// [`EditorSession::paste`]; other text pastes the editor's own copy, or, with none, is
    /// refused with the reason.
    pub fn paste_from(&mut self, text: Option<&str>, at: DVec2) {
        match text.map(Fragment::parse) {
            Some(Ok(fragment)) if fragment.is_empty() => {
                self.report("the pasted level holds nothing to paste".into(), true)
            }
            Some(Ok(fragment)) => {
                self.clipboard = fragment;
                self.paste(at);
            }
            Some(Err(e)) if self.clipboard.is_empty() => {
                self.refuse(format!("not level text: {e}"), at)
            }
            _ => self.paste(at),
        }
    }

    /// Copies the selection and pastes it one grid cell right of and above where it is (one
    /// metre with the grid off; above, so a copy of something standing on a floor is not inside
    /// it), selected: one undoable edit.
    pub fn duplicate(&mut self) {
        if self.copy() == 0 {
            return self.report("select something to duplicate".into(), true);
        }
        let step = if self.grid.enabled {
            self.grid.size()
        } else {
            1.0
        };
        let at = self
            .clipboard
            .centre(&self.level.read())
            .unwrap_or_default();
        self.paste_moved(DVec2::splat(step), at);
    }

    /// Adds the clipboard moved by `delta`, selecting it; a refusal is shown at `at`.
    fn paste_moved(&mut self, delta: DVec2, at: DVec2) {
        let made = self.clipboard.pasted(&self.level.read(), delta);
        let (edit, pasted) = match made {
            Ok(m) => m,
            Err(e) => return self.refuse(e.to_string(), at),
        };
        if self.edit(edit, at).is_ok() {
            self.selection.clear();
            self.selection.polygons.extend(pasted.polygons);
            self.selection.object = pasted.objects.first().copied();
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
