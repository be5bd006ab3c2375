//! A uniform grid over inflated pieces' bounding boxes, for "which pieces contain this point".
use glam::DVec2;

use super::buckets::Buckets;
use super::mesh::InflatedPiece;
use super::polygon::Solidity;
use super::predicates::{orient, Aabb};

/// One piece in a grid cell: its index, box and kind, stored inline so that a query scans one
/// contiguous run of memory and touches a piece's outline only when its box passes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CellEntry {
    /// Bounding box of the piece.
    pub(crate) aabb: Aabb,
    /// Index of the piece in the slice the grid was built from.
    pub(crate) piece: u32,
    /// The piece's kind.
    pub(crate) kind: Solidity,
}

impl Default for CellEntry {
    fn default() -> Self {
        CellEntry {
            aabb: Aabb {
                min: DVec2::ZERO,
                max: DVec2::ZERO,
            },
            piece: 0,
            kind: Solidity::Solid,
        }
    }
}

/// Entries per piece a [`PieceGrid`] may hold (beyond 2²⁰ in all) before its cells grow.
pub(crate) const ENTRIES_PER_PIECE: usize = 16;

/// Pieces bucketed on a uniform grid, stored flat ([`Buckets`] by cell `y * nx + x`).
pub(crate) struct PieceGrid {
    origin: DVec2,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Buckets<CellEntry>,
}

impl PieceGrid {
    /// Builds a grid over `bounds` with about one piece per cell on average, coarser where the
    /// pieces are large for their number: a piece is listed in every cell its box covers, and the
    /// cells double in size until the lists hold at most [`ENTRIES_PER_PIECE`] entries per piece
    /// (plus 2²⁰), so the grid's memory is linear in the pieces whatever their sizes.
    pub(crate) fn new(pieces: &[InflatedPiece], bounds: Aabb) -> Self {
        let size = bounds.max - bounds.min;
        let n = pieces.len().max(1) as f64;
        let mut cell = ((size.x * size.y / n).sqrt())
            .max(1e-3)
            .max(size.max_element() / 1024.0);
        let budget = ENTRIES_PER_PIECE * pieces.len() + (1 << 20);
        let (nx, ny, spans) = loop {
            let nx = ((size.x / cell).ceil() as usize).clamp(1, 1024);
            let ny = ((size.y / cell).ceil() as usize).clamp(1, 1024);
            let cell_of = |p: DVec2| cell_of(bounds.min, cell, nx, ny, p);
            let spans: Vec<((usize, usize), (usize, usize))> = pieces
                .iter()
                .map(|p| (cell_of(p.aabb.min), cell_of(p.aabb.max)))
                .collect();
            let entries: usize = spans
                .iter()
                .map(|&((x0, y0), (x1, y1))| (x1 - x0 + 1) * (y1 - y0 + 1))
                .sum();
            if entries <= budget || nx * ny == 1 {
                break (nx, ny, spans);
            }
            cell *= 2.0;
        };
        let cells = Buckets::new(nx * ny, || {
            pieces.iter().zip(&spans).enumerate().flat_map(
                move |(i, (p, &((x0, y0), (x1, y1))))| {
                    let entry = CellEntry {
                        aabb: p.aabb,
                        piece: i as u32,
                        kind: p.kind,
                    };
                    (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| (y * nx + x, entry)))
                },
            )
        });
        PieceGrid {
            origin: bounds.min,
            cell,
            nx,
            ny,
            cells,
        }
    }

    fn cell_of(&self, p: DVec2) -> (usize, usize) {
        cell_of(self.origin, self.cell, self.nx, self.ny, p)
    }

    fn cell_entries(&self, x: usize, y: usize) -> &[CellEntry] {
        self.cells.get(y * self.nx + x)
    }

    /// The pieces whose bounding box may contain `p` (every piece whose box does is listed).
    pub(crate) fn candidates(&self, p: DVec2) -> &[CellEntry] {
        let (x, y) = self.cell_of(p);
        self.cell_entries(x, y)
    }

    /// Indices of pieces whose bounding box may overlap `b`, sorted, without repeats.
    pub(crate) fn candidates_in(&self, b: Aabb, out: &mut Vec<u32>) {
        out.clear();
        let (x0, y0) = self.cell_of(b.min);
        let (x1, y1) = self.cell_of(b.max);
        for y in y0..=y1 {
            for x in x0..=x1 {
                out.extend(self.cell_entries(x, y).iter().map(|e| e.piece));
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// The cell `(x, y)` holding `p` on a grid of `nx × ny` cells of size `cell` from `origin`
/// (clamped onto the grid).
fn cell_of(origin: DVec2, cell: f64, nx: usize, ny: usize, p: DVec2) -> (usize, usize) {
    let c = (p - origin) / cell;
    // Truncation is the floor for the non-negative values kept here (and cheaper: `floor` is a
    // library call without SSE4.1).
    let x = (c.x.max(0.0) as usize).min(nx - 1);
    let y = (c.y.max(0.0) as usize).min(ny - 1);
    (x, y)
}

/// Whether `p` is strictly inside the convex counter-clockwise polygon (exact).
pub(crate) fn strictly_inside(points: &[DVec2], p: DVec2) -> bool {
    let n = points.len();
    (0..n).all(|i| orient(points[i], points[(i + 1) % n], p) > 0.0)
}

/// Whether `p` is inside the convex counter-clockwise polygon or on its boundary (exact).
pub(crate) fn inside_or_on(points: &[DVec2], p: DVec2) -> bool {
    let n = points.len();
    (0..n).all(|i| orient(points[i], points[(i + 1) % n], p) >= 0.0)
}

/// How deep `p` is inside a convex counter-clockwise polygon: the smallest distance to an edge line,
/// positive inside, negative outside (distance to the most violated edge line).
pub(crate) fn penetration_depth(points: &[DVec2], p: DVec2) -> f64 {
    let n = points.len();
    let mut depth = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let nrm = super::predicates::left_normal(a, b);
        depth = depth.min((p - a).dot(nrm));
    }
    depth
}
