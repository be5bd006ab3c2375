//! A uniform grid over inflated pieces' bounding boxes, for "which pieces contain this point".
use glam::DVec2;

use super::mesh::InflatedPiece;
use super::predicates::{orient, Aabb};

/// Buckets of piece indices on a uniform grid.
pub struct PieceGrid {
    origin: DVec2,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
}

impl PieceGrid {
    /// Builds a grid over `bounds` with about one piece per cell on average.
    pub fn new(pieces: &[InflatedPiece], bounds: Aabb) -> Self {
        let size = bounds.max - bounds.min;
        let n = pieces.len().max(1) as f64;
        let cell = ((size.x * size.y / n).sqrt())
            .max(1e-3)
            .max(size.max_element() / 1024.0);
        let nx = ((size.x / cell).ceil() as usize).clamp(1, 1024);
        let ny = ((size.y / cell).ceil() as usize).clamp(1, 1024);
        let mut g = PieceGrid {
            origin: bounds.min,
            cell,
            nx,
            ny,
            cells: vec![Vec::new(); nx * ny],
        };
        for (i, p) in pieces.iter().enumerate() {
            let (x0, y0) = g.cell_of(p.aabb.min);
            let (x1, y1) = g.cell_of(p.aabb.max);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    g.cells[y * nx + x].push(i as u32);
                }
            }
        }
        g
    }

    fn cell_of(&self, p: DVec2) -> (usize, usize) {
        let c = (p - self.origin) / self.cell;
        let x = (c.x.floor().max(0.0) as usize).min(self.nx - 1);
        let y = (c.y.floor().max(0.0) as usize).min(self.ny - 1);
        (x, y)
    }

    /// Indices of pieces whose bounding box may contain `p`.
    pub fn candidates(&self, p: DVec2) -> &[u32] {
        let (x, y) = self.cell_of(p);
        &self.cells[y * self.nx + x]
    }

    /// Indices of pieces whose bounding box may overlap `b`.
    pub fn candidates_in(&self, b: Aabb, out: &mut Vec<u32>) {
        out.clear();
        let (x0, y0) = self.cell_of(b.min);
        let (x1, y1) = self.cell_of(b.max);
        for y in y0..=y1 {
            for x in x0..=x1 {
                out.extend_from_slice(&self.cells[y * self.nx + x]);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// Whether `p` is strictly inside the convex counter-clockwise polygon (exact).
pub fn strictly_inside(points: &[DVec2], p: DVec2) -> bool {
    let n = points.len();
    (0..n).all(|i| orient(points[i], points[(i + 1) % n], p) > 0.0)
}

/// How deep `p` is inside a convex counter-clockwise polygon: the smallest distance to an edge line,
/// positive inside, negative outside (distance to the most violated edge line).
pub fn penetration_depth(points: &[DVec2], p: DVec2) -> f64 {
    let n = points.len();
    let mut depth = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let nrm = super::predicates::left_normal(a, b);
        depth = depth.min((p - a).dot(nrm));
    }
    depth
}
