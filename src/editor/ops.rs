//! Editing commands on the level document: [`Edit`] and [`apply`].
//!
//! Each command stores what it needs and [`apply`] returns its inverse, built from the old values
//! of exactly what it touched. A refused edit leaves the level untouched: the touched polygons are
//! built as candidates, checked, and only then written back.
//!
//! The checks are the level's own ([`crate::level::validate`], the one validator, on the part
//! an edit touches), wrapped in [`EditError::Invalid`]; the editor adds only its rules for edits
//! (indices, the near-duplicate rule, finite transforms, an agent's placement).
use glam::{DMat2, DVec2};

use crate::collision::{Aabb, Num};
use crate::level::limits::check_counts;
use crate::level::validate::{check_bounds, check_colour, check_music, check_outline, check_spawn};
use crate::level::{Level, LevelPolygon, LevelProblem, PolygonKind};

use super::kinds::ObjectList;

use super::snap::close_outline;

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
/// its function below (vertices, polygons, a polygon's fields, regions; objects, ladders
/// among them, by their kind, `editor::kinds`).
///
/// Cost: the touched polygons' size (validation is O(n log n) per touched polygon), plus the
/// shift of later polygons on insertion or deletion; never the whole level's
/// validation. A valid level stays valid.
pub fn apply(level: &mut Level, edit: &Edit) -> Result<Applied, EditError> {
    let strict = !edit.is_restore();
    check_growth(level, edit)?;
    let inverse = match edit {
        Edit::MoveVertices { .. }
        | Edit::SetVertices { .. }
        | Edit::InsertVertex { .. }
        | Edit::InsertVertices { .. }
        | Edit::DeleteVertices { .. } => vertex_edit(level, edit, strict)?,
        Edit::MovePolygons { .. }
        | Edit::Rotate { .. }
        | Edit::Scale { .. }
        | Edit::SetPolygonPoints { .. }
        | Edit::AddPolygon { .. }
        | Edit::AddPolygons { .. }
        | Edit::InsertPolygons { .. }
        | Edit::DeletePolygons { .. } => polygon_edit(level, edit, strict)?,
        Edit::SetKind { .. } | Edit::SetMaterial { .. } | Edit::SetColour { .. } => {
            field_edit(level, edit)?
        }
        Edit::MoveSpawn { to } => {
            check_spawn(*to)?;
            Edit::MoveSpawn {
                to: std::mem::replace(&mut level.spawn, *to),
            }
        }
        Edit::SetCameraBounds { .. } | Edit::SetBounds { .. } => region_edit(level, edit)?,
        Edit::SetMusic { music } => {
            check_music(*music)?;
            Edit::SetMusic {
                music: std::mem::replace(&mut level.music, *music),
            }
        }
        Edit::SetObjects { list, .. } => Edit::SetObjects {
            list: list.kind().set(level, list, strict)?,
            restore: true,
        },
    };
    Ok(Applied { inverse })
}

/// Vertex edits: move, put back, insert and delete vertices of one polygon. Returns the inverse.
fn vertex_edit(level: &mut Level, edit: &Edit, strict: bool) -> Result<Edit, EditError> {
    Ok(match edit {
        Edit::MoveVertices {
            polygon,
            vertices,
            delta,
        } => {
            let pts = points_of(level, *polygon)?;
            check_indices(*polygon, pts.len(), vertices, false)?;
            let mut cand = pts.to_vec();
            let old: Vec<(usize, DVec2)> = vertices.iter().map(|&i| (i, pts[i])).collect();
            for &i in vertices {
                cand[i] += *delta;
            }
            commit_points(level, *polygon, cand, strict)?;
            Edit::SetVertices {
                polygon: *polygon,
                vertices: old,
            }
        }
        Edit::SetVertices { polygon, vertices } => {
            let pts = points_of(level, *polygon)?;
            let idx: Vec<usize> = vertices.iter().map(|v| v.0).collect();
            check_indices(*polygon, pts.len(), &idx, false)?;
            let mut cand = pts.to_vec();
            let old: Vec<(usize, DVec2)> = idx.iter().map(|&i| (i, pts[i])).collect();
            for &(i, p) in vertices {
                cand[i] = p;
            }
            commit_points(level, *polygon, cand, strict)?;
            Edit::SetVertices {
                polygon: *polygon,
                vertices: old,
            }
        }
        Edit::InsertVertex {
            polygon,
            edge,
            point,
        } => {
            let pts = points_of(level, *polygon)?;
            if *edge >= pts.len() {
                return Err(EditError::NoVertex {
                    polygon: *polygon,
                    vertex: *edge,
                });
            }
            let mut cand = pts.to_vec();
            cand.insert(edge + 1, *point);
            commit_points(level, *polygon, cand, strict)?;
            Edit::DeleteVertices {
                polygon: *polygon,
                vertices: vec![edge + 1],
            }
        }
        Edit::InsertVertices { polygon, vertices } => {
            let pts = points_of(level, *polygon)?;
            let mut cand = pts.to_vec();
            let mut last = None;
            for &(i, p) in vertices {
                if i > cand.len() || last.is_some_and(|l| i <= l) {
                    return Err(EditError::NoVertex {
                        polygon: *polygon,
                        vertex: i,
                    });
                }
                cand.insert(i, p);
                last = Some(i);
            }
            commit_points(level, *polygon, cand, strict)?;
            Edit::DeleteVertices {
                polygon: *polygon,
                vertices: vertices.iter().map(|v| v.0).collect(),
            }
        }
        Edit::DeleteVertices { polygon, vertices } => {
            let pts = points_of(level, *polygon)?;
            check_indices(*polygon, pts.len(), vertices, true)?;
            if pts.len() - vertices.len() < 3 {
                return Err(EditError::TooFewVertices {
                    polygon: *polygon,
                    count: pts.len(),
                    deleting: vertices.len(),
                });
            }
            let mut sorted = vertices.clone();
            sorted.sort_unstable();
            let old: Vec<(usize, DVec2)> = sorted.iter().map(|&i| (i, pts[i])).collect();
            let mut cand = Vec::with_capacity(pts.len() - sorted.len());
            let mut k = 0;
            for (i, &p) in pts.iter().enumerate() {
                if k < sorted.len() && sorted[k] == i {
                    k += 1;
                } else {
                    cand.push(p);
                }
            }
            commit_points(level, *polygon, cand, strict)?;
            Edit::InsertVertices {
                polygon: *polygon,
                vertices: old,
            }
        }
        // `apply` sends each family its own variants only.
        _ => unreachable!("vertex_edit got {edit:?}"),
    })
}

/// Whole-polygon edits: move, rotate, scale, put back outlines, add, paste, put back and delete
/// polygons. Returns the inverse.
fn polygon_edit(level: &mut Level, edit: &Edit, strict: bool) -> Result<Edit, EditError> {
    Ok(match edit {
        Edit::MovePolygons { polygons, delta } => {
            transform(level, polygons, strict, |p| p + *delta)?
        }
        Edit::Rotate {
            polygons,
            pivot,
            angle,
        } => {
            if !angle.is_finite() || !pivot.is_finite() {
                return Err(EditError::Transform(format!(
                    "rotation by {} rad about ({}, {}) must be finite",
                    Num(*angle),
                    Num(pivot.x),
                    Num(pivot.y)
                )));
            }
            let m = DMat2::from_angle(*angle);
            transform(level, polygons, strict, |p| *pivot + m * (p - *pivot))?
        }
        Edit::Scale {
            polygons,
            pivot,
            factor,
        } => {
            if !factor.is_finite() || !pivot.is_finite() {
                return Err(EditError::Transform(format!(
                    "scale by ({}, {}) about ({}, {}) must be finite",
                    Num(factor.x),
                    Num(factor.y),
                    Num(pivot.x),
                    Num(pivot.y)
                )));
            }
            transform(level, polygons, strict, |p| *pivot + (p - *pivot) * *factor)?
        }
        Edit::SetPolygonPoints { polygons } => {
            let idx: Vec<usize> = polygons.iter().map(|p| p.0).collect();
            check_polygons(level, &idx)?;
            let mut old = Vec::with_capacity(polygons.len());
            for (i, pts) in polygons {
                check_points(*i, pts, strict)?;
                old.push((*i, level.polygons[*i].points.clone()));
            }
            for (i, pts) in polygons {
                level.polygons[*i].points = pts.clone();
            }
            Edit::SetPolygonPoints { polygons: old }
        }
        Edit::AddPolygon { polygon } => {
            let mut p = polygon.clone();
            close_outline(&mut p.points);
            add_polygons(level, vec![p], strict)?
        }
        Edit::AddPolygons { polygons } => add_polygons(level, polygons.clone(), strict)?,
        Edit::InsertPolygons { polygons } => {
            let mut last = None;
            // Before the k-th insertion the list holds `len + k` polygons.
            for (len, (i, p)) in (level.polygons.len()..).zip(polygons) {
                if *i > len || last.is_some_and(|l| *i <= l) {
                    return Err(EditError::NoPolygon(*i));
                }
                check_polygon(*i, p, strict)?;
                last = Some(*i);
            }
            for (i, p) in polygons {
                level.polygons.insert(*i, p.clone());
            }
            Edit::DeletePolygons {
                polygons: polygons.iter().map(|p| p.0).collect(),
            }
        }
        Edit::DeletePolygons { polygons } => {
            check_polygons(level, polygons)?;
            let mut sorted = polygons.clone();
            sorted.sort_unstable();
            // Remove from the back so earlier indices stay put; restore ascending.
            let mut old: Vec<(usize, LevelPolygon)> = Vec::with_capacity(sorted.len());
            for &i in sorted.iter().rev() {
                old.push((i, level.polygons.remove(i)));
            }
            old.reverse();
            Edit::InsertPolygons { polygons: old }
        }
        // `apply` sends each family its own variants only.
        _ => unreachable!("polygon_edit got {edit:?}"),
    })
}

/// A polygon's fields: kind, material, colour. Returns the inverse.
fn field_edit(level: &mut Level, edit: &Edit) -> Result<Edit, EditError> {
    Ok(match edit {
        Edit::SetKind { polygon, kind } => {
            let p = polygon_mut(level, *polygon)?;
            Edit::SetKind {
                polygon: *polygon,
                kind: std::mem::replace(&mut p.kind, *kind),
            }
        }
        Edit::SetMaterial { polygon, material } => {
            let p = polygon_mut(level, *polygon)?;
            Edit::SetMaterial {
                polygon: *polygon,
                material: std::mem::replace(&mut p.material, material.clone()),
            }
        }
        Edit::SetColour { polygon, colour } => {
            check_colour(*polygon, *colour)?;
            let p = polygon_mut(level, *polygon)?;
            Edit::SetColour {
                polygon: *polygon,
                colour: std::mem::replace(&mut p.colour, *colour),
            }
        }
        // `apply` sends each family its own variants only.
        _ => unreachable!("field_edit got {edit:?}"),
    })
}

/// The camera and level bounds. Returns the inverse.
fn region_edit(level: &mut Level, edit: &Edit) -> Result<Edit, EditError> {
    Ok(match edit {
        Edit::SetCameraBounds { bounds } => {
            check_bounds("camera_bounds", bounds.as_ref())?;
            Edit::SetCameraBounds {
                bounds: std::mem::replace(&mut level.camera_bounds, *bounds),
            }
        }
        Edit::SetBounds { bounds } => {
            check_bounds("bounds", bounds.as_ref())?;
            level.check_inside(*bounds)?;
            Edit::SetBounds {
                bounds: std::mem::replace(&mut level.bounds, *bounds),
            }
        }
        // `apply` sends each family its own variants only.
        _ => unreachable!("region_edit got {edit:?}"),
    })
}

/// Refuses an edit that adds polygons or points past the level's limits
/// ([`crate::level::limits`]), before anything changes. Restores (undo) put back what was there
/// and are not checked. O(polygons) for the total point count, and only for edits that grow the
/// level.
fn check_growth(level: &Level, edit: &Edit) -> Result<(), EditError> {
    // The polygons added, the polygon that gains a vertex.
    let (added, grown): (&[LevelPolygon], Option<usize>) = match edit {
        Edit::AddPolygon { polygon } => (std::slice::from_ref(polygon), None),
        Edit::AddPolygons { polygons } => (polygons, None),
        Edit::InsertVertex { polygon, .. } => (&[], Some(*polygon)),
        _ => return Ok(()),
    };
    let points = level
        .polygons
        .iter()
        .chain(added)
        .enumerate()
        .map(|(i, p)| (i, p.points.len() + usize::from(grown == Some(i))));
    check_counts(
        level.polygons.len() + added.len(),
        points,
        level.ladders.len(),
    )
    .map_err(|e| LevelProblem::Limit(e).into())
}

fn points_of(level: &Level, polygon: usize) -> Result<&[DVec2], EditError> {
    level
        .polygons
        .get(polygon)
        .map(|p| p.points.as_slice())
        .ok_or(EditError::NoPolygon(polygon))
}

fn polygon_mut(level: &mut Level, polygon: usize) -> Result<&mut LevelPolygon, EditError> {
    level
        .polygons
        .get_mut(polygon)
        .ok_or(EditError::NoPolygon(polygon))
}

/// Checks vertex indices: in range, none repeated, and (if `nonempty`) at least one.
fn check_indices(
    polygon: usize,
    len: usize,
    idx: &[usize],
    nonempty: bool,
) -> Result<(), EditError> {
    if nonempty && idx.is_empty() {
        return Err(EditError::Empty);
    }
    if let Some(&vertex) = idx.iter().find(|&&i| i >= len) {
        return Err(EditError::NoVertex { polygon, vertex });
    }
    if let Some(index) = repeated(idx) {
        return Err(EditError::Repeated {
            what: "vertex",
            index,
        });
    }
    Ok(())
}

/// Checks polygon indices: in range, at least one, none repeated.
fn check_polygons(level: &Level, idx: &[usize]) -> Result<(), EditError> {
    if idx.is_empty() {
        return Err(EditError::Empty);
    }
    if let Some(&i) = idx.iter().find(|&&i| i >= level.polygons.len()) {
        return Err(EditError::NoPolygon(i));
    }
    if let Some(index) = repeated(idx) {
        return Err(EditError::Repeated {
            what: "polygon",
            index,
        });
    }
    Ok(())
}

/// The first index given twice. O(k log k) in the selection's size.
fn repeated(idx: &[usize]) -> Option<usize> {
    let mut s = idx.to_vec();
    s.sort_unstable();
    s.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// Checks `cand` as polygon `polygon`'s outline and writes it.
fn commit_points(
    level: &mut Level,
    polygon: usize,
    cand: Vec<DVec2>,
    strict: bool,
) -> Result<(), EditError> {
    check_points(polygon, &cand, strict)?;
    level.polygons[polygon].points = cand;
    Ok(())
}

/// Applies `f` to every point of the selected polygons, checks all, writes all; the inverse puts
/// the old outlines back.
fn transform(
    level: &mut Level,
    polygons: &[usize],
    strict: bool,
    f: impl Fn(DVec2) -> DVec2,
) -> Result<Edit, EditError> {
    check_polygons(level, polygons)?;
    let mut cands = Vec::with_capacity(polygons.len());
    for &i in polygons {
        let cand: Vec<DVec2> = level.polygons[i].points.iter().map(|&p| f(p)).collect();
        check_points(i, &cand, strict)?;
        cands.push(cand);
    }
    let mut old = Vec::with_capacity(polygons.len());
    for (&i, cand) in polygons.iter().zip(cands) {
        old.push((i, std::mem::replace(&mut level.polygons[i].points, cand)));
    }
    Ok(Edit::SetPolygonPoints { polygons: old })
}

fn add_polygons(
    level: &mut Level,
    polygons: Vec<LevelPolygon>,
    strict: bool,
) -> Result<Edit, EditError> {
    if polygons.is_empty() {
        return Err(EditError::Empty);
    }
    let first = level.polygons.len();
    for (k, p) in polygons.iter().enumerate() {
        check_polygon(first + k, p, strict)?;
    }
    let n = polygons.len();
    level.polygons.extend(polygons);
    Ok(Edit::DeletePolygons {
        polygons: (first..first + n).collect(),
    })
}

fn check_polygon(index: usize, p: &LevelPolygon, strict: bool) -> Result<(), EditError> {
    check_points(index, &p.points, strict)?;
    Ok(check_colour(index, p.colour)?)
}

/// The geometry checks of one polygon: `validate_polygon`, then (if `strict`) the near-duplicate
/// rule.
fn check_points(polygon: usize, points: &[DVec2], strict: bool) -> Result<(), EditError> {
    check_outline(polygon, points)?;
    if strict {
        if let Some((a, b, distance)) = near_duplicate(points) {
            return Err(EditError::NearDuplicate {
                polygon,
                a,
                b,
                distance,
            });
        }
    }
    Ok(())
}

/// Two vertices (any two, not only neighbours) closer than [`NEAR_DUPLICATE`], with their
/// distance: the closest such pair found by a sweep along x, O(n log n) unless many vertices
/// share an x within the tolerance.
pub fn near_duplicate(points: &[DVec2]) -> Option<(usize, usize, f64)> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_unstable_by(|&a, &b| points[a].x.total_cmp(&points[b].x));
    let mut best: Option<(usize, usize, f64)> = None;
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if points[j].x - points[i].x >= NEAR_DUPLICATE {
                break;
            }
            let d = points[i].distance(points[j]);
            if d < NEAR_DUPLICATE && best.is_none_or(|b| d < b.2) {
                best = Some((i.min(j), i.max(j), d));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::GeometryError;
    use crate::editor::kinds::{checkpoint::Checkpoint, goal::Goal, set_list};
    use crate::level::Ladder;

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn square(x: f64, y: f64, s: f64) -> Vec<DVec2> {
        vec![p(x, y), p(x + s, y), p(x + s, y + s), p(x, y + s)]
    }

    /// Edits that grow the level stop at its limits, with the limit named and the level
    /// unchanged; undoing a deletion is never refused.
    #[test]
    fn growth_past_a_limit_is_refused_before_anything_changes() {
        use crate::level::limits::MAX_POINTS_PER_POLYGON;
        let mut l = level();
        let before = l.clone();
        let n = MAX_POINTS_PER_POLYGON + 1;
        let big: Vec<DVec2> = (0..n)
            .map(|i| {
                let a = i as f64 / n as f64 * std::f64::consts::TAU;
                p(a.cos(), a.sin() + 10.0)
            })
            .collect();
        let e = apply(
            &mut l,
            &Edit::AddPolygon {
                polygon: LevelPolygon::solid(big),
            },
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "polygon 3: 250001 points, more than the limit of 250000 points per polygon"
        );
        assert_eq!(l, before);
        // At the limit: one more vertex on that polygon is refused.
        let at: Vec<DVec2> = (0..MAX_POINTS_PER_POLYGON)
            .map(|i| {
                let a = i as f64 / MAX_POINTS_PER_POLYGON as f64 * std::f64::consts::TAU;
                p(a.cos() * 1000.0, a.sin() * 1000.0 + 2000.0)
            })
            .collect();
        apply(
            &mut l,
            &Edit::AddPolygon {
                polygon: LevelPolygon::solid(at.clone()),
            },
        )
        .unwrap();
        let mid = (at[0] + at[1]) / 2.0;
        let e = apply(
            &mut l,
            &Edit::InsertVertex {
                polygon: 3,
                edge: 0,
                point: mid,
            },
        )
        .unwrap_err();
        assert!(
            matches!(e, EditError::Invalid(LevelProblem::Limit(_))),
            "{e}"
        );
        assert_eq!(l.polygons[3].points.len(), MAX_POINTS_PER_POLYGON);
        let del = apply(&mut l, &Edit::DeletePolygons { polygons: vec![3] }).unwrap();
        apply(&mut l, &del.inverse).unwrap();
        assert_eq!(l.polygons.len(), 4);
    }

    fn level() -> Level {
        let mut one_way = LevelPolygon::solid(vec![p(5., 2.), p(8., 2.), p(8., 2.5), p(5., 2.5)]);
        one_way.kind = PolygonKind::OneWay;
        one_way.material = Some("wood".into());
        Level {
            polygons: vec![
                LevelPolygon::solid(vec![p(-5., -1.), p(5., -1.), p(5., 0.), p(-5., 0.)]),
                LevelPolygon::solid(square(0., 3., 1.)),
                one_way,
            ],
            ladders: vec![Ladder {
                min: p(2., 0.),
                max: p(3., 4.),
            }],
            spawn: p(0., 0.),
            ..Level::empty("ops")
        }
    }

    /// Applies `edit`, checks the level stays valid, that undo gives back the original `==` and
    /// redo the edited level `==`. Returns the edited level.
    fn round_trip(edit: Edit) -> Level {
        let l0 = level();
        let mut l = l0.clone();
        let a = apply(&mut l, &edit).unwrap_or_else(|e| panic!("{edit:?}: {e}"));
        l.validate().unwrap();
        assert_ne!(l, l0, "{edit:?} changed nothing");
        let l1 = l.clone();
        let redo = apply(&mut l, &a.inverse).unwrap();
        assert_eq!(l, l0, "undo of {edit:?}");
        apply(&mut l, &edit).unwrap();
        assert_eq!(l, l1, "redo of {edit:?}");
        // The inverse of the inverse redoes too.
        let mut l2 = l0.clone();
        apply(&mut l2, &redo.inverse).unwrap();
        assert_eq!(l2, l1);
        l1
    }

    /// Applies `edit`, expects a refusal whose message starts with `starts`, and the level
    /// unchanged.
    fn refused(edit: Edit, starts: &str) -> EditError {
        let l0 = level();
        let mut l = l0.clone();
        let e = apply(&mut l, &edit).unwrap_err();
        assert!(e.to_string().starts_with(starts), "{e}");
        assert_eq!(l, l0, "refused {edit:?} changed the level");
        e
    }

    #[test]
    fn every_operation_round_trips() {
        let l = round_trip(Edit::MoveVertices {
            polygon: 1,
            vertices: vec![1, 2],
            delta: p(0.5, 0.1),
        });
        assert_eq!(l.polygons[1].points[2], p(1.5, 4.1));
        let l = round_trip(Edit::MovePolygons {
            polygons: vec![1, 2],
            delta: p(0.1, -0.2),
        });
        assert_eq!(l.polygons[1].points[0], p(0.1, 2.8));
        let l = round_trip(Edit::InsertVertex {
            polygon: 1,
            edge: 3,
            point: p(-0.5, 3.5),
        });
        assert_eq!(l.polygons[1].points.len(), 5);
        assert_eq!(l.polygons[1].points[4], p(-0.5, 3.5));
        let l = round_trip(Edit::DeleteVertices {
            polygon: 1,
            vertices: vec![3],
        });
        assert_eq!(l.polygons[1].points, vec![p(0., 3.), p(1., 3.), p(1., 4.)]);
        let l = round_trip(Edit::AddPolygon {
            polygon: LevelPolygon::solid(vec![p(10., 0.), p(11., 0.), p(10., 1.)]),
        });
        assert_eq!(l.polygons.len(), 4);
        let l = round_trip(Edit::AddPolygons {
            polygons: vec![
                LevelPolygon::solid(square(10., 0., 1.)),
                LevelPolygon::solid(square(12., 0., 1.)),
            ],
        });
        assert_eq!(l.polygons[4].points, square(12., 0., 1.));
        let l = round_trip(Edit::DeletePolygons {
            polygons: vec![2, 0],
        });
        assert_eq!(l.polygons.len(), 1);
        assert_eq!(l.polygons[0].points, square(0., 3., 1.));
        let l = round_trip(Edit::SetKind {
            polygon: 0,
            kind: PolygonKind::OneWay,
        });
        assert_eq!(l.polygons[0].kind, PolygonKind::OneWay);
        round_trip(Edit::SetMaterial {
            polygon: 2,
            material: None,
        });
        round_trip(Edit::SetMaterial {
            polygon: 0,
            material: Some("stone".into()),
        });
        round_trip(Edit::SetColour {
            polygon: 0,
            colour: Some([0.2, 0.4, 1.0]),
        });
        let l = round_trip(Edit::MoveSpawn { to: p(1., 2.) });
        assert_eq!(l.spawn, p(1., 2.));
        // Ladders are an object kind: their edits are `editor::kinds`' (its registry tests).
        let b = Some(Aabb {
            min: p(-20., -5.),
            max: p(20., 15.),
        });
        round_trip(Edit::SetCameraBounds { bounds: b });
        round_trip(Edit::SetBounds { bounds: b });
        let l = round_trip(set_list::<Goal>(b.into_iter().collect()));
        assert_eq!(l.goal, b);
        let l = round_trip(Edit::SetMusic { music: Some(3) });
        assert_eq!(l.music_track(), 2);
        let l = round_trip(set_list::<Checkpoint>(
            [b, b].into_iter().flatten().collect(),
        ));
        assert_eq!(l.checkpoints.len(), 2);
        let l = round_trip(Edit::Rotate {
            polygons: vec![1],
            pivot: p(0.5, 3.5),
            angle: std::f64::consts::FRAC_PI_4,
        });
        assert!((l.polygons[1].points[0] - p(0.5, 3.5 - 0.5f64.sqrt())).length() < 1e-12);
        let l = round_trip(Edit::Scale {
            polygons: vec![1, 2],
            pivot: p(0., 3.),
            factor: p(2., -1.),
        });
        assert_eq!(l.polygons[1].points[2], p(2., 2.));
    }

    #[test]
    fn restoring_edits_round_trip() {
        round_trip(Edit::SetVertices {
            polygon: 1,
            vertices: vec![(2, p(1.5, 4.5))],
        });
        round_trip(Edit::SetPolygonPoints {
            polygons: vec![(1, square(0., 3., 2.))],
        });
        round_trip(Edit::InsertVertices {
            polygon: 1,
            vertices: vec![(1, p(0.5, 2.9)), (3, p(1.1, 3.5))],
        });
        round_trip(Edit::InsertPolygons {
            polygons: vec![
                (0, LevelPolygon::solid(square(20., 0., 1.))),
                (4, LevelPolygon::solid(square(22., 0., 1.))),
            ],
        });
    }

    #[test]
    fn moving_a_vertex_across_an_edge_is_refused() {
        let e = refused(
            Edit::MoveVertices {
                polygon: 1,
                vertices: vec![2],
                delta: p(-1.5, -0.5),
            },
            "polygon 1: self-intersection",
        );
        assert!(matches!(
            e,
            EditError::Invalid(LevelProblem::Polygon(
                GeometryError::SelfIntersection { .. }
            ))
        ));
        // Scaling a selection flat, or rotating nothing, is refused too.
        refused(
            Edit::Scale {
                polygons: vec![1, 2],
                pivot: p(0., 0.),
                factor: p(1., 0.),
            },
            "polygon 1: points 1 and 2 are duplicates",
        );
        refused(
            Edit::Rotate {
                polygons: vec![],
                pivot: p(0., 0.),
                angle: 1.0,
            },
            "nothing selected",
        );
        refused(
            Edit::Rotate {
                polygons: vec![1],
                pivot: p(0., 0.),
                angle: f64::NAN,
            },
            "rotation by NaN",
        );
    }

    #[test]
    fn degenerate_and_collinear_outlines_are_refused() {
        refused(
            Edit::AddPolygon {
                polygon: LevelPolygon::solid(vec![p(0., 10.), p(1., 10.), p(2., 10.)]),
            },
            "polygon 3: has zero area",
        );
        refused(
            Edit::MoveVertices {
                polygon: 1,
                vertices: vec![2, 3],
                delta: p(0., -1.),
            },
            "polygon 1: ",
        );
        refused(
            Edit::MoveVertices {
                polygon: 1,
                vertices: vec![0],
                delta: p(f64::INFINITY, 0.),
            },
            "polygon 1: point 0 has a non-finite coordinate",
        );
    }

    #[test]
    fn near_duplicate_vertices_are_refused() {
        let e = refused(
            Edit::MoveVertices {
                polygon: 1,
                vertices: vec![1],
                delta: p(-1. + 5e-5, 0.),
            },
            "polygon 1: vertices 0 and 1 would be",
        );
        assert!(matches!(e, EditError::NearDuplicate { a: 0, b: 1, .. }));
        // Exactly on top: a duplicate point.
        refused(
            Edit::MoveVertices {
                polygon: 1,
                vertices: vec![1],
                delta: p(-1., 0.),
            },
            "polygon 1: points 0 and 1 are duplicates",
        );
        // Non-neighbours count too: a pinch.
        refused(
            Edit::InsertVertex {
                polygon: 0,
                edge: 2,
                point: p(5. - 2e-5, -1. + 3e-5),
            },
            "polygon 0: ",
        );
        refused(
            Edit::InsertVertex {
                polygon: 1,
                edge: 0,
                point: p(1. - 1e-5, 3.),
            },
            "polygon 1: vertices 1 and 2",
        );
        // Just over the tolerance is fine.
        round_trip(Edit::InsertVertex {
            polygon: 1,
            edge: 0,
            point: p(1. - 2e-4, 3.),
        });
    }

    #[test]
    fn deleting_below_three_vertices_is_refused() {
        refused(
            Edit::DeleteVertices {
                polygon: 1,
                vertices: vec![0, 2],
            },
            "polygon 1: deleting 2 of its 4 vertices would leave fewer than 3",
        );
        refused(
            Edit::DeleteVertices {
                polygon: 1,
                vertices: vec![],
            },
            "nothing selected",
        );
        refused(
            Edit::DeleteVertices {
                polygon: 1,
                vertices: vec![1, 1],
            },
            "vertex 1 is selected twice",
        );
    }

    #[test]
    fn closing_click_on_the_first_point_does_not_duplicate_it() {
        let l = round_trip(Edit::AddPolygon {
            polygon: LevelPolygon::solid(vec![p(10., 0.), p(11., 0.), p(10., 1.), p(10., 0.)]),
        });
        assert_eq!(
            l.polygons[3].points,
            vec![p(10., 0.), p(11., 0.), p(10., 1.)]
        );
        // A closing click a hair off the first point closes too, rather than leaving a sliver.
        let l = round_trip(Edit::AddPolygon {
            polygon: LevelPolygon::solid(vec![
                p(10., 0.),
                p(11., 0.),
                p(10., 1.),
                p(10. + 1e-6, 0.),
            ]),
        });
        assert_eq!(l.polygons[3].points.len(), 3);
        // Pasting is taken as given: a repeated first point there is an error.
        refused(
            Edit::AddPolygons {
                polygons: vec![LevelPolygon::solid(vec![
                    p(10., 0.),
                    p(11., 0.),
                    p(10., 1.),
                    p(10., 0.),
                ])],
            },
            "polygon 3: points 3 and 0 are duplicates",
        );
    }

    #[test]
    fn bad_indices_and_fields_are_refused() {
        refused(
            Edit::SetKind {
                polygon: 9,
                kind: PolygonKind::Solid,
            },
            "there is no polygon 9",
        );
        refused(
            Edit::MoveVertices {
                polygon: 1,
                vertices: vec![4],
                delta: p(0., 0.),
            },
            "polygon 1: there is no vertex 4",
        );
        refused(
            Edit::InsertVertex {
                polygon: 1,
                edge: 4,
                point: p(0., 0.),
            },
            "polygon 1: there is no vertex 4",
        );
        refused(
            Edit::DeletePolygons {
                polygons: vec![1, 3],
            },
            "there is no polygon 3",
        );
        refused(
            Edit::MovePolygons {
                polygons: vec![1, 1],
                delta: p(1., 0.),
            },
            "polygon 1 is selected twice",
        );
        refused(
            Edit::SetColour {
                polygon: 0,
                colour: Some([0., 2., 0.]),
            },
            "polygon 0: colour",
        );
        refused(
            Edit::AddPolygons {
                polygons: vec![LevelPolygon {
                    colour: Some([-1., 0., 0.]),
                    ..LevelPolygon::solid(square(10., 0., 1.))
                }],
            },
            "polygon 3: colour",
        );
        refused(
            Edit::MoveSpawn {
                to: p(f64::NAN, 0.),
            },
            "spawn (NaN, 0)",
        );
        refused(Edit::MoveSpawn { to: p(2e7, 0.) }, "spawn");
        let bad = Some(Aabb {
            min: p(1., 1.),
            max: p(0., 2.),
        });
        refused(Edit::SetCameraBounds { bounds: bad }, "camera_bounds: min");
        refused(Edit::SetBounds { bounds: bad }, "bounds: min");
        refused(set_list::<Goal>(bad.into_iter().collect()), "goal: min");
        refused(
            set_list::<Checkpoint>(bad.into_iter().collect()),
            "checkpoint 0: min",
        );
        refused(Edit::AddPolygons { polygons: vec![] }, "nothing selected");
    }

    /// Level bounds that would leave a checkpoint, the goal or a mover's path outside are
    /// refused (the level would no longer validate, and so no longer save); undo of bounds that
    /// held them is never refused.
    #[test]
    fn bounds_must_keep_the_regions_and_the_movers_inside() {
        let mut l = level();
        let big = Some(Aabb {
            min: p(-20., -20.),
            max: p(20., 20.),
        });
        let small = Some(Aabb {
            min: p(-2., -2.),
            max: p(2., 2.),
        });
        let undo_big = apply(&mut l, &Edit::SetBounds { bounds: big }).unwrap();
        let cp = Aabb {
            min: p(5., 0.),
            max: p(6., 2.),
        };
        apply(&mut l, &set_list::<Checkpoint>(vec![cp])).unwrap();
        let before = l.clone();
        let e = apply(&mut l, &Edit::SetBounds { bounds: small }).unwrap_err();
        assert_eq!(
            e.to_string(),
            "checkpoint 0: the region min (5, 0) max (6, 2) must lie inside the level's bounds \
             min (-2, -2) max (2, 2)"
        );
        assert_eq!(l, before);
        l.checkpoints.clear();
        let unit = Aabb {
            min: p(0., 0.),
            max: p(1., 1.),
        };
        l.movers.push(crate::level::LevelMover {
            path: vec![p(0., 0.), p(0., 5.)],
            ..crate::editor::kinds::mover::new_mover(unit)
        });
        let e = apply(&mut l, &Edit::SetBounds { bounds: small }).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("mover 0: path offset 1 (0, 5) takes it outside"),
            "{e}"
        );
        l.movers.clear();
        apply(&mut l, &undo_big.inverse).unwrap();
        assert_eq!(l.bounds, None);
    }

    #[test]
    fn a_transform_refused_on_one_polygon_touches_none() {
        // Polygon 0 would pass the geometry check; polygon 1 (checked first) is flattened to
        // near-duplicate vertices, and neither is written.
        let e = refused(
            Edit::Scale {
                polygons: vec![1, 0],
                pivot: p(0., 0.),
                factor: p(1., 1e-5),
            },
            "polygon 1: vertices",
        );
        assert!(matches!(e, EditError::NearDuplicate { polygon: 1, .. }));
    }

    #[test]
    fn near_duplicate_finds_the_closest_pair() {
        let pts = vec![p(0., 0.), p(1., 0.), p(1., 1e-5), p(0., 1.), p(5e-5, 1.)];
        let (a, b, d) = near_duplicate(&pts).unwrap();
        assert_eq!((a, b), (1, 2));
        assert!((d - 1e-5).abs() < 1e-12);
        assert_eq!(near_duplicate(&square(0., 0., 1.)), None);
    }
}
