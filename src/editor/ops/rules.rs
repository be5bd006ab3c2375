//! The checks of edits: the level's own rules on the touched part ([`crate::level::validate`],
//! [`crate::level::limits`]) and the editor's own rules for edits: indices in range and not
//! repeated, the near-duplicate rule ([`NEAR_DUPLICATE`]). They read the level and write nothing.
use glam::DVec2;

use crate::level::limits::check_counts;
use crate::level::validate::{check_colour, check_outline};
use crate::level::{Level, LevelPolygon, LevelProblem};

use super::{Edit, EditError, NEAR_DUPLICATE};

/// Refuses an edit that adds polygons or points past the level's limits
/// ([`crate::level::limits`]), before anything changes. Restores (undo) put back what was there
/// and are not checked. O(polygons) for the total point count, and only for edits that grow the
/// level.
pub(super) fn check_growth(level: &Level, edit: &Edit) -> Result<(), EditError> {
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

/// Checks vertex indices: in range, none repeated, and (if `nonempty`) at least one.
pub(super) fn check_indices(
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
pub(super) fn check_polygons(level: &Level, idx: &[usize]) -> Result<(), EditError> {
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

pub(super) fn check_polygon(index: usize, p: &LevelPolygon, strict: bool) -> Result<(), EditError> {
    check_points(index, &p.points, strict)?;
    Ok(check_colour(index, p.colour)?)
}

/// The geometry checks of one polygon: `validate_polygon`, then (if `strict`) the near-duplicate
/// rule.
pub(super) fn check_points(
    polygon: usize,
    points: &[DVec2],
    strict: bool,
) -> Result<(), EditError> {
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
