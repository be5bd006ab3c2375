//! Collider shapes: the convex polygon a body occupies, relative to its reference point.
//!
//! The reference point is the collider's bottom centre (the feet). Meshes built for colliders of
//! different heights therefore share the reference point, and a body can switch from the standing
//! mesh to the crouching mesh without moving.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::decompose::is_strictly_convex;
use super::polygon::{remove_collinear, GeometryError};
use super::predicates::signed_area;

/// A convex collider shape. Sizes in metres.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColliderShape {
    /// Axis-aligned box `width × height` standing on its bottom centre.
    Box { width: f64, height: f64 },
    /// A box whose four corners are cut by `chamfer` metres (an octagon): rolls over small steps
    /// and corners instead of catching on them.
    ChamferedBox {
        width: f64,
        height: f64,
        chamfer: f64,
    },
    /// A diamond `width × height` whose bottom vertex is the feet.
    Diamond { width: f64, height: f64 },
    /// Any convex polygon, counter-clockwise, relative to the feet.
    Convex { points: Vec<DVec2> },
}

impl ColliderShape {
    /// The shape's vertices, counter-clockwise, relative to the feet, validated convex.
    pub fn points(&self) -> Result<Vec<DVec2>, GeometryError> {
        let bad = |m: String| Err(GeometryError::BadCollider(m));
        let pos = |name: &str, v: f64| -> Result<(), GeometryError> {
            if v.is_finite() && v > 0.0 && v < 1e4 {
                Ok(())
            } else {
                Err(GeometryError::BadCollider(format!(
                    "{name} must be a positive finite number below 1e4 m, got {v}"
                )))
            }
        };
        let p = |x: f64, y: f64| DVec2::new(x, y);
        let pts = match *self {
            ColliderShape::Box { width, height } => {
                pos("width", width)?;
                pos("height", height)?;
                let w = width / 2.0;
                vec![p(-w, 0.0), p(w, 0.0), p(w, height), p(-w, height)]
            }
            ColliderShape::ChamferedBox {
                width,
                height,
                chamfer,
            } => {
                pos("width", width)?;
                pos("height", height)?;
                if !(chamfer.is_finite() && chamfer >= 0.0 && 2.0 * chamfer < width.min(height)) {
                    return bad(format!(
                        "chamfer must be at least 0 and less than half the smaller side, got {chamfer}"
                    ));
                }
                let (w, c, h) = (width / 2.0, chamfer, height);
                if c == 0.0 {
                    vec![p(-w, 0.0), p(w, 0.0), p(w, h), p(-w, h)]
                } else {
                    vec![
                        p(-w + c, 0.0),
                        p(w - c, 0.0),
                        p(w, c),
                        p(w, h - c),
                        p(w - c, h),
                        p(-w + c, h),
                        p(-w, h - c),
                        p(-w, c),
                    ]
                }
            }
            ColliderShape::Diamond { width, height } => {
                pos("width", width)?;
                pos("height", height)?;
                let w = width / 2.0;
                vec![
                    p(0.0, 0.0),
                    p(w, height / 2.0),
                    p(0.0, height),
                    p(-w, height / 2.0),
                ]
            }
            ColliderShape::Convex { ref points } => {
                if points
                    .iter()
                    .any(|q| !q.x.is_finite() || !q.y.is_finite() || q.abs().max_element() > 1e4)
                {
                    return bad("convex collider has a non-finite or huge coordinate".into());
                }
                let mut pts = points.clone();
                if signed_area(&pts) < 0.0 {
                    pts.reverse();
                }
                let pts = remove_collinear(pts);
                if !is_strictly_convex(&pts) {
                    return bad(
                        "convex collider points are not a convex polygon with positive area".into(),
                    );
                }
                pts
            }
        };
        Ok(pts)
    }

    /// Height of the shape above the feet.
    pub fn height(&self) -> f64 {
        self.points()
            .map(|p| p.iter().map(|q| q.y).fold(f64::NEG_INFINITY, f64::max))
            .unwrap_or(0.0)
    }
}
