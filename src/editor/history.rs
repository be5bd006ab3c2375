//! Undo and redo: two stacks of applied edits, each entry the edit and its inverse.
//!
//! Undo applies the stored inverse; redo applies the edit again (edits are deterministic, so the
//! level comes out `==` to what it was after the first application). Applying a new edit clears
//! the redo stack. An entry holds only what its edit touched, so memory and time per undo are
//! proportional to the edit, not to the level.
use super::ops::{apply, Edit, EditError};
use crate::level::Level;

/// One undoable step.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    edit: Edit,
    inverse: Edit,
    /// Set for a drag that later drags of the same selection may merge into.
    drag: Option<DragKey>,
}

/// What a drag moves: later drags of the same thing merge.
#[derive(Clone, Debug, PartialEq)]
enum DragKey {
    Vertices {
        polygon: usize,
        vertices: Vec<usize>,
    },
    Polygons(Vec<usize>),
    /// An object kind's list (`SetObjects`, by the kind's name): the merged entry's redo is the
    /// last list.
    Objects(&'static str),
}

/// The undo and redo stacks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
}

impl History {
    /// Applies `edit` to `level` and records it; clears the redo stack. A refused edit changes
    /// neither the level nor the history.
    pub fn apply(&mut self, level: &mut Level, edit: Edit) -> Result<(), EditError> {
        let applied = apply(level, &edit)?;
        self.undo.push(Entry {
            edit,
            inverse: applied.inverse,
            drag: None,
        });
        self.redo.clear();
        Ok(())
    }

    /// Like [`History::apply`], but a `MoveVertices` or `MovePolygons` that moves the same
    /// selection as the previous entry (itself applied through this method, with no other edit,
    /// undo or redo since) merges into it: one undo then goes back to before the whole drag. The
    /// merged entry's redo sets the final coordinates (re-adding the deltas would round
    /// differently). Call [`History::end_drag`] when the mouse button is released.
    pub fn apply_drag(&mut self, level: &mut Level, edit: Edit) -> Result<(), EditError> {
        let key = match &edit {
            Edit::MoveVertices {
                polygon, vertices, ..
            } => DragKey::Vertices {
                polygon: *polygon,
                vertices: vertices.clone(),
            },
            Edit::MovePolygons { polygons, .. } => DragKey::Polygons(polygons.clone()),
            Edit::SetObjects { list, .. } => DragKey::Objects(list.kind().name()),
            _ => return self.apply(level, edit),
        };
        let applied = apply(level, &edit)?;
        self.redo.clear();
        if let Some(last) = self.undo.last_mut() {
            if last.drag.as_ref() == Some(&key) {
                last.edit = final_positions(level, &key);
                return Ok(());
            }
        }
        self.undo.push(Entry {
            edit,
            inverse: applied.inverse,
            drag: Some(key),
        });
        Ok(())
    }

    /// Ends the current drag: the next drag starts a new entry.
    pub fn end_drag(&mut self) {
        if let Some(last) = self.undo.last_mut() {
            last.drag = None;
        }
    }

    /// Undoes the last edit. `Ok(false)` if there is nothing to undo. An error means the level
    /// was changed behind the history's back (the inverse no longer applies); the level and the
    /// history are then unchanged.
    pub fn undo(&mut self, level: &mut Level) -> Result<bool, EditError> {
        let Some(mut entry) = self.undo.pop() else {
            return Ok(false);
        };
        match apply(level, &entry.inverse) {
            Ok(_) => {
                entry.drag = None;
                self.redo.push(entry);
                Ok(true)
            }
            Err(e) => {
                self.undo.push(entry);
                Err(e)
            }
        }
    }

    /// Redoes the last undone edit. `Ok(false)` if there is nothing to redo.
    pub fn redo(&mut self, level: &mut Level) -> Result<bool, EditError> {
        let Some(mut entry) = self.redo.pop() else {
            return Ok(false);
        };
        match apply(level, &entry.edit) {
            Ok(applied) => {
                entry.inverse = applied.inverse;
                self.undo.push(entry);
                Ok(true)
            }
            Err(e) => {
                self.redo.push(entry);
                Err(e)
            }
        }
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Number of undoable edits.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// Forgets every edit (after loading another level).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

/// The edit that sets the dragged selection to where it is now.
fn final_positions(level: &Level, key: &DragKey) -> Edit {
    match key {
        DragKey::Vertices { polygon, vertices } => Edit::SetVertices {
            polygon: *polygon,
            vertices: vertices
                .iter()
                .map(|&i| (i, level.polygons[*polygon].points[i]))
                .collect(),
        },
        DragKey::Polygons(ids) => Edit::SetPolygonPoints {
            polygons: ids
                .iter()
                .map(|&i| (i, level.polygons[i].points.clone()))
                .collect(),
        },
        DragKey::Objects(name) => Edit::SetObjects {
            list: super::kinds::kind(name).list(level),
            restore: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    use crate::level::LevelPolygon;

    fn level() -> Level {
        Level {
            polygons: vec![LevelPolygon::solid(vec![
                DVec2::new(0., 0.),
                DVec2::new(2., 0.),
                DVec2::new(2., 1.),
                DVec2::new(0., 1.),
            ])],
            spawn: DVec2::new(0., 3.),
            ..Level::empty("h")
        }
    }

    fn nudge(d: f64) -> Edit {
        Edit::MoveVertices {
            polygon: 0,
            vertices: vec![2],
            delta: DVec2::new(d, 0.1),
        }
    }

    #[test]
    fn undo_redo_and_a_new_edit_clears_redo() {
        let l0 = level();
        let mut l = l0.clone();
        let mut h = History::default();
        assert!(!h.can_undo() && !h.undo(&mut l).unwrap());
        h.apply(&mut l, nudge(0.3)).unwrap();
        let l1 = l.clone();
        h.apply(
            &mut l,
            Edit::MoveSpawn {
                to: DVec2::new(1., 5.),
            },
        )
        .unwrap();
        let l2 = l.clone();
        assert!(h.undo(&mut l).unwrap());
        assert_eq!(l, l1);
        assert!(h.undo(&mut l).unwrap());
        assert_eq!(l, l0);
        assert!(!h.undo(&mut l).unwrap());
        assert!(h.redo(&mut l).unwrap());
        assert_eq!(l, l1);
        assert!(h.redo(&mut l).unwrap());
        assert_eq!(l, l2);
        assert!(!h.redo(&mut l).unwrap());
        h.undo(&mut l).unwrap();
        assert!(h.can_redo());
        h.apply(&mut l, nudge(0.1)).unwrap();
        assert!(!h.can_redo());
        h.clear();
        assert!(!h.can_undo());
    }

    #[test]
    fn refused_edits_leave_history_and_level_alone() {
        let mut l = level();
        let mut h = History::default();
        h.apply(&mut l, nudge(0.3)).unwrap();
        let (l1, h1) = (l.clone(), h.clone());
        assert!(h.apply(&mut l, nudge(-9.0)).is_err());
        assert_eq!((l, h), (l1, h1));
    }

    #[test]
    fn drags_of_the_same_vertices_merge_into_one_entry() {
        let l0 = level();
        let mut l = l0.clone();
        let mut h = History::default();
        for _ in 0..10 {
            h.apply_drag(&mut l, nudge(0.1)).unwrap();
        }
        assert_eq!(h.undo_len(), 1);
        let dragged = l.clone();
        h.end_drag();
        h.apply_drag(&mut l, nudge(0.1)).unwrap();
        assert_eq!(h.undo_len(), 2);
        h.undo(&mut l).unwrap();
        assert_eq!(l, dragged);
        h.undo(&mut l).unwrap();
        assert_eq!(l, l0);
        h.redo(&mut l).unwrap();
        assert_eq!(l, dragged, "redo sets the final coordinates bit for bit");
        // Another selection does not merge; nor do polygon drags into vertex drags.
        h.apply_drag(
            &mut l,
            Edit::MovePolygons {
                polygons: vec![0],
                delta: DVec2::X,
            },
        )
        .unwrap();
        h.apply_drag(
            &mut l,
            Edit::MovePolygons {
                polygons: vec![0],
                delta: DVec2::X,
            },
        )
        .unwrap();
        assert_eq!(h.undo_len(), 2);
        h.undo(&mut l).unwrap();
        assert_eq!(l, dragged);
    }
}
