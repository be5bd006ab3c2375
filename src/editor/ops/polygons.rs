//! Polygon edits: a polygon's vertices (move, put back, insert, delete), whole polygons (add,
//! paste, put back, delete) and a polygon's fields (kind, material, colour). Each returns its
//! inverse; the checks are in `rules`. Transforms of whole polygons are in `transform`.
use glam::DVec2;

use crate::level::validate::check_colour;
use crate::level::{Level, LevelPolygon};

use super::super::snap::close_outline;
use super::rules::{check_indices, check_points, check_polygon, check_polygons};
use super::{Edit, EditError};

/// Vertex edits: move, put back, insert and delete vertices of one polygon. Returns the inverse.
pub(super) fn vertex_edit(level: &mut Level, edit: &Edit, strict: bool) -> Result<Edit, EditError> {
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

/// Whole-polygon edits: add, paste, put back and delete polygons. Returns the inverse.
pub(super) fn polygon_edit(
    level: &mut Level,
    edit: &Edit,
    strict: bool,
) -> Result<Edit, EditError> {
    Ok(match edit {
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
pub(super) fn field_edit(level: &mut Level, edit: &Edit) -> Result<Edit, EditError> {
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

pub(super) fn points_of(level: &Level, polygon: usize) -> Result<&[DVec2], EditError> {
    level
        .polygons
        .get(polygon)
        .map(|p| p.points.as_slice())
        .ok_or(EditError::NoPolygon(polygon))
}

pub(super) fn polygon_mut(
    level: &mut Level,
    polygon: usize,
) -> Result<&mut LevelPolygon, EditError> {
    level
        .polygons
        .get_mut(polygon)
        .ok_or(EditError::NoPolygon(polygon))
}

/// Checks `cand` as polygon `polygon`'s outline and writes it.
pub(super) fn commit_points(
    level: &mut Level,
    polygon: usize,
    cand: Vec<DVec2>,
    strict: bool,
) -> Result<(), EditError> {
    check_points(polygon, &cand, strict)?;
    level.polygons[polygon].points = cand;
    Ok(())
}

pub(super) fn add_polygons(
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
