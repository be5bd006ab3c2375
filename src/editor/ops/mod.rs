//! Editing commands on the level document: [`Edit`] and [`apply`].
//!
//! Each command stores what it needs and [`apply`] returns its inverse, built from the old values
//! of exactly what it touched. A refused edit leaves the level untouched: the touched polygons are
//! built as candidates, checked, and only then written back.
//!
//! The checks are the level's own ([`crate::level::validate`], the one validator, on the part
//! an edit touches), wrapped in [`EditError::Invalid`]; the editor adds only its rules for edits
//! (indices, the near-duplicate rule, finite transforms, an agent's placement).
//!
//! This module owns the [`Edit`] enum, its errors and the dispatch of [`apply`]; each family of
//! edits is its own file: `polygons` (vertices, adding and deleting polygons, a polygon's
//! fields), `transform` (move, rotate, scale whole polygons), `settings` (level-wide values:
//! spawn, bounds, music), `signals` (a signal's rename with its uses), `rules` (the checks of edits, the editor's own rules among them).
//! Object edits are the kinds' (`editor::kinds`). Nothing here depends on the session, the tools
//! or the UI.
use glam::DVec2;

use crate::collision::Aabb;
use crate::level::{Level, LevelPolygon, LevelProblem, PolygonKind};

use super::kinds::ObjectList;

mod polygons;
mod rules;
mod settings;
mod signals;
#[cfg(test)]
mod tests;
mod transform;

pub use rules::near_duplicate;

/// Least distance between two vertices of one polygon that an edit may leave, metres (see the
/// module docs of [`editor`](super) for why).
pub const NEAR_DUPLICATE: f64 = 1e-4;

/// One editing command. Vertex and polygon indices are positions in `Level::polygons` and
/// `LevelPolygon::points` at the time the edit is applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Moves some vertices of one polygon by `delta`.
    MoveVertices {
        polygon: usize,
        vertices: Vec<usize>,
        delta: DVec2,
    },
    /// Moves whole polygons by `delta`.
    MovePolygons { polygons: Vec<usize>, delta: DVec2 },
    /// Inserts `point` on edge `edge` (from vertex `edge` to the next), as vertex `edge + 1`.
    InsertVertex {
        polygon: usize,
        edge: usize,
        point: DVec2,
    },
    /// Deletes vertices of one polygon; refused if fewer than 3 would remain.
    DeleteVertices {
        polygon: usize,
        vertices: Vec<usize>,
    },
    /// Adds a drawn polygon at the end of the list. A last point on (or within
    /// [`NEAR_DUPLICATE`] of) the first is the closing click and is dropped, not duplicated.
    AddPolygon { polygon: LevelPolygon },
    /// Adds polygons at the end of the list (paste), in order.
    AddPolygons { polygons: Vec<LevelPolygon> },
    /// Deletes polygons; later polygons move down.
    DeletePolygons { polygons: Vec<usize> },
    /// Sets a polygon's kind.
    SetKind { polygon: usize, kind: PolygonKind },
    /// Sets a polygon's material.
    SetMaterial {
        polygon: usize,
        material: Option<String>,
    },
    /// Sets a polygon's colour (each component in `[0, 1]`).
    SetColour {
        polygon: usize,
        colour: Option<[f32; 3]>,
    },
    /// Moves the spawn point to `to`.
    MoveSpawn { to: DVec2 },
    /// Sets or clears the camera bounds.
    SetCameraBounds { bounds: Option<Aabb> },
    /// Sets or clears the level bounds.
    SetBounds { bounds: Option<Aabb> },
    /// Sets the level's music track (`None`: the default, track 1).
    SetMusic { music: Option<u32> },
    /// Replaces one kind's objects (add, move, change, delete: the whole list, so the inverse
    /// is the list before; the kind has the checks, `editor::kinds`). `restore`: it puts back an
    /// earlier list (an inverse), so the kind's rules for new objects (an agent's placement) are
    /// skipped.
    SetObjects { list: ObjectList, restore: bool },
    /// Rotates polygons by `angle` radians (counter-clockwise) about `pivot`.
    Rotate {
        polygons: Vec<usize>,
        pivot: DVec2,
        angle: f64,
    },
    /// Scales polygons about `pivot` by `factor` per axis (a negative factor mirrors).
    Scale {
        polygons: Vec<usize>,
        pivot: DVec2,
        factor: DVec2,
    },
    /// Renames signal `index` (in `Level::signals`) to `name`, and every use of its name: each
    /// target's signal fields (`Level::signal_uses_mut`), each delay waiting on it. Refused
    /// when the level's rules refuse the name (empty, another signal's).
    RenameSignal { index: usize, name: String },
    /// Several edits as one step (a paste of polygons and objects; one undo takes it back), in
    /// order: each sees the level the ones before it left. Refused as a whole if any part is.
    Group(Vec<Edit>),
    // Restoring edits: the inverses of the edits above. They put back values that were there
    // before, so they skip the near-duplicate rule (see `is_restore`).
    /// Puts back vertex coordinates `(index, point)` of one polygon.
    SetVertices {
        polygon: usize,
        vertices: Vec<(usize, DVec2)>,
    },
    /// Puts back the whole outline of polygons `(index, points)`.
    SetPolygonPoints { polygons: Vec<(usize, Vec<DVec2>)> },
    /// Puts back deleted vertices `(index, point)`, indices ascending, each its index after the
    /// insertion.
    InsertVertices {
        polygon: usize,
        vertices: Vec<(usize, DVec2)>,
    },
    /// Puts back deleted polygons `(index, polygon)`, indices ascending, each its index after the
    /// insertion.
    InsertPolygons {
        polygons: Vec<(usize, LevelPolygon)>,
    },
}

impl Edit {
    /// Whether this edit puts back earlier values (an inverse): it skips the near-duplicate rule,
    /// so a level loaded with two vertices closer than [`NEAR_DUPLICATE`] still undoes. Every
    /// other check still applies.
    pub fn is_restore(&self) -> bool {
        matches!(
            self,
            Edit::SetVertices { .. }
                | Edit::SetPolygonPoints { .. }
                | Edit::InsertVertices { .. }
                | Edit::InsertPolygons { .. }
                | Edit::SetObjects { restore: true, .. }
        )
    }
}

/// An applied edit.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The edit that undoes it: applied right after, it gives back the level as it was, `==`.
    pub inverse: Edit,
}

/// Why an edit was refused. The message names the polygon, vertex, ladder, object or field, for
/// display at the cursor.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EditError {
    /// The result would break a rule of the level file (`level::validate`, the one validator):
    /// the message a load of the result would give (a polygon that is not valid, a colour, a
    /// ladder, region or bounds box, the spawn, an object, the music, a limit).
    #[error("{0}")]
    Invalid(LevelProblem),
    /// Two vertices of one polygon would be closer than [`NEAR_DUPLICATE`].
    #[error(
        "polygon {polygon}: vertices {a} and {b} would be {distance:.2e} m apart, closer than the \
         {NEAR_DUPLICATE} m minimum"
    )]
    NearDuplicate {
        polygon: usize,
        a: usize,
        b: usize,
        distance: f64,
    },
    /// Deleting the vertices would leave fewer than 3.
    #[error(
        "polygon {polygon}: deleting {deleting} of its {count} vertices would leave fewer than 3"
    )]
    TooFewVertices {
        polygon: usize,
        count: usize,
        deleting: usize,
    },
    /// No polygon at this index.
    #[error("there is no polygon {0}")]
    NoPolygon(usize),
    /// No vertex (or edge) at this index.
    #[error("polygon {polygon}: there is no vertex {vertex}")]
    NoVertex { polygon: usize, vertex: usize },
    /// An index is given twice.
    #[error("{what} {index} is selected twice")]
    Repeated { what: &'static str, index: usize },
    /// A selection is empty.
    #[error("nothing selected")]
    Empty,
    /// A transform parameter is non-finite.
    #[error("{0}")]
    Transform(String),
    /// A kind of object the level holds a few of at most would have more (a second goal).
    #[error("a level has at most {most} {kind}: move or change the one it has")]
    TooMany { kind: &'static str, most: usize },
    /// An agent would be placed where the editor places none (its collider in a solid, its
    /// spawn outside the level's bounds); the text names it and says why. A level file may hold
    /// such an agent (the world moves it to free space), so this is the editor's rule only.
    #[error("{0}")]
    Placement(String),
}

// By hand, not `#[from]`: the problem is the whole message, not a `source()` to print again.
impl From<LevelProblem> for EditError {
    fn from(problem: LevelProblem) -> Self {
        EditError::Invalid(problem)
    }
}

/// Applies `edit` to `level`, or refuses it and leaves `level` unchanged. Each family of edits has
/// its file (vertices, polygons and a polygon's fields, transforms, level-wide settings; objects,
/// ladders among them, by their kind, `editor::kinds`).
///
/// Cost: the touched polygons' size (validation is O(n log n) per touched polygon), plus the
/// shift of later polygons on insertion or deletion; never the whole level's
/// validation. A valid level stays valid.
pub fn apply(level: &mut Level, edit: &Edit) -> Result<Applied, EditError> {
    if let Edit::Group(parts) = edit {
        return apply_group(level, parts);
    }
    let strict = !edit.is_restore();
    rules::check_growth(level, edit)?;
    let inverse = match edit {
        Edit::MoveVertices { .. }
        | Edit::SetVertices { .. }
        | Edit::InsertVertex { .. }
        | Edit::InsertVertices { .. }
        | Edit::DeleteVertices { .. } => polygons::vertex_edit(level, edit, strict)?,
        Edit::MovePolygons { .. }
        | Edit::Rotate { .. }
        | Edit::Scale { .. }
        | Edit::SetPolygonPoints { .. } => transform::transform_edit(level, edit, strict)?,
        Edit::AddPolygon { .. }
        | Edit::AddPolygons { .. }
        | Edit::InsertPolygons { .. }
        | Edit::DeletePolygons { .. } => polygons::polygon_edit(level, edit, strict)?,
        Edit::SetKind { .. } | Edit::SetMaterial { .. } | Edit::SetColour { .. } => {
            polygons::field_edit(level, edit)?
        }
        Edit::MoveSpawn { .. }
        | Edit::SetCameraBounds { .. }
        | Edit::SetBounds { .. }
        | Edit::SetMusic { .. } => settings::settings_edit(level, edit)?,
        Edit::RenameSignal { index, name } => signals::rename(level, *index, name)?,
        Edit::SetObjects { list, .. } => Edit::SetObjects {
            list: list.kind().set(level, list, strict)?,
            restore: true,
        },
        Edit::Group(_) => unreachable!("a group is applied part by part"),
    };
    Ok(Applied { inverse })
}

/// Applies `parts` in order; the inverse is their inverses in the reverse order. A refused part
/// takes back the parts before it (their inverses are exact), so the level is left unchanged.
fn apply_group(level: &mut Level, parts: &[Edit]) -> Result<Applied, EditError> {
    let mut inverses = Vec::with_capacity(parts.len());
    for part in parts {
        match apply(level, part) {
            Ok(a) => inverses.push(a.inverse),
            Err(e) => {
                for inverse in inverses.iter().rev() {
                    apply(level, inverse).expect("an inverse applies to what its edit left");
                }
                return Err(e);
            }
        }
    }
    inverses.reverse();
    Ok(Applied {
        inverse: Edit::Group(inverses),
    })
}
