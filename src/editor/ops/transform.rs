//! Transforms of whole polygons: move, rotate and scale a selection, and the restoring edit that
//! puts outlines back (their inverse). All selected polygons are checked before any is written.
use glam::{DMat2, DVec2};

use crate::collision::Num;
use crate::level::Level;

use super::rules::{check_points, check_polygons};
use super::{Edit, EditError};

/// Transforms of whole polygons: move, rotate, scale, and their inverse, putting back outlines.
/// Returns the inverse.
pub(super) fn transform_edit(
    level: &mut Level,
    edit: &Edit,
    strict: bool,
) -> Result<Edit, EditError> {
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
        // `apply` sends each family its own variants only.
        _ => unreachable!("transform_edit got {edit:?}"),
    })
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
