//! Source polygons for the collision-core tests (`tessera::collision`), built from coordinate
//! tuples: one definition of `v`, `poly`, `solid` and `rect` for every collision test.
#![allow(dead_code)]

use glam::DVec2;
use tessera::collision::{PolygonId, Solidity, SourcePolygon};

pub fn v(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

/// The corners of the axis-aligned rectangle from `(x0, y0)` to `(x1, y1)`, counter-clockwise.
pub fn rect_pts(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
    vec![v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y1)]
}

pub fn poly(id: u32, kind: Solidity, p: &[(f64, f64)]) -> SourcePolygon {
    SourcePolygon {
        id: PolygonId(id),
        kind,
        points: p.iter().map(|&(x, y)| v(x, y)).collect(),
    }
}

pub fn solid(id: u32, p: &[(f64, f64)]) -> SourcePolygon {
    poly(id, Solidity::Solid, p)
}

pub fn rect(id: u32, x0: f64, y0: f64, x1: f64, y1: f64) -> SourcePolygon {
    SourcePolygon {
        id: PolygonId(id),
        kind: Solidity::Solid,
        points: rect_pts(x0, y0, x1, y1),
    }
}

/// `polys` moved by `o`.
pub fn translated(polys: &[SourcePolygon], o: DVec2) -> Vec<SourcePolygon> {
    polys
        .iter()
        .map(|p| SourcePolygon {
            points: p.points.iter().map(|&q| q + o).collect(),
            ..p.clone()
        })
        .collect()
}
