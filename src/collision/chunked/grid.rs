//! The chunk grid and clipping to a chunk: the only geometry a chunked build adds to the build's
//! stages.
//!
//! Square chunks of a fixed size lie on lines at whole multiples of it (so a grid that grows
//! keeps its lines). An edge is clipped to a chunk's closed square with its ends in
//! lexicographic order and each crossing computed from the whole edge and the line alone
//! ([`clip`]): two chunks sharing a side compute the same bits for the point where an edge
//! crosses it.
//!
//! Must never depend on anything outside `collision`.
use glam::DVec2;
use smallvec::SmallVec;

use super::super::predicates::Aabb;

/// The fixed grid of square chunks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChunkGrid {
    /// Index of the first line along each axis (lines lie at whole multiples of `size`).
    first: [i64; 2],
    pub(super) size: f64,
    nx: usize,
    ny: usize,
}

impl ChunkGrid {
    /// The grid of chunks of `size` covering `b`.
    pub(super) fn covering(b: Aabb, size: f64) -> Self {
        let lo = (b.min / size).floor();
        let hi = (b.max / size).ceil();
        ChunkGrid {
            first: [lo.x as i64, lo.y as i64],
            size,
            nx: ((hi.x - lo.x) as usize).max(1),
            ny: ((hi.y - lo.y) as usize).max(1),
        }
    }
    pub(super) fn line(&self, axis: usize, k: usize) -> f64 {
        (self.first[axis] + k as i64) as f64 * self.size
    }
    pub(super) fn len(&self) -> usize {
        self.nx * self.ny
    }
    /// The square of chunk `i` (row by row from the lower left).
    pub(super) fn rect(&self, i: usize) -> Aabb {
        let (x, y) = (i % self.nx, i / self.nx);
        Aabb {
            min: DVec2::new(self.line(0, x), self.line(1, y)),
            max: DVec2::new(self.line(0, x + 1), self.line(1, y + 1)),
        }
    }
    /// The whole grid.
    pub(super) fn bounds(&self) -> Aabb {
        Aabb {
            min: DVec2::new(self.line(0, 0), self.line(1, 0)),
            max: DVec2::new(self.line(0, self.nx), self.line(1, self.ny)),
        }
    }
    /// The chunks beside chunk `c` (sharing a side; also a corner when `diagonal`).
    pub(super) fn neighbours(&self, c: usize, diagonal: bool) -> SmallVec<[usize; 8]> {
        let (x, y) = ((c % self.nx) as i64, (c / self.nx) as i64);
        let mut out = SmallVec::new();
        for (dx, dy) in [
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
            (1, 1),
        ] {
            let (u, v) = (x + dx, y + dy);
            if (dx == 0 || dy == 0 || diagonal)
                && (0..self.nx as i64).contains(&u)
                && (0..self.ny as i64).contains(&v)
            {
                out.push(v as usize * self.nx + u as usize);
            }
        }
        out
    }
    /// Whether `b` lies within the grid.
    pub(super) fn holds(&self, b: &Aabb) -> bool {
        let g = self.bounds();
        g.contains(b.min) && g.contains(b.max)
    }
    /// The chunks whose closed square meets the closed box `b`.
    pub(super) fn touching(&self, b: &Aabb, out: &mut Vec<usize>) {
        let cell = |c: f64, axis: usize, n: usize| {
            ((c / self.size).floor() as i64 - self.first[axis]).clamp(0, n as i64 - 1) as usize
        };
        let (x0, x1) = (cell(b.min.x, 0, self.nx), cell(b.max.x, 0, self.nx));
        let (y0, y1) = (cell(b.min.y, 1, self.ny), cell(b.max.y, 1, self.ny));
        // A box ending exactly on a line touches the chunk before it too.
        let x0 = if x0 > 0 && b.min.x <= self.line(0, x0) {
            x0 - 1
        } else {
            x0
        };
        let y0 = if y0 > 0 && b.min.y <= self.line(1, y0) {
            y0 - 1
        } else {
            y0
        };
        for y in y0..=y1 {
            for x in x0..=x1 {
                out.push(y * self.nx + x);
            }
        }
    }
}

/// Whether `p` lies on the boundary of the closed box `r` (and in it).
pub(super) fn on_boundary(r: &Aabb, p: DVec2) -> bool {
    r.contains(p) && (p.x == r.min.x || p.x == r.max.x || p.y == r.min.y || p.y == r.max.y)
}

/// The part of segment `a b` in the closed box `r`, or `None` when it has no part of positive
/// length there. The segment is taken with its ends in lexicographic order, and a point where it
/// crosses a side gets that side's coordinate exactly and the other from the whole segment: two
/// chunks sharing the side compute the same bits.
pub(super) fn clip(a: DVec2, b: DVec2, r: &Aabb) -> Option<(DVec2, DVec2)> {
    if r.contains(a) && r.contains(b) {
        return Some((a, b));
    }
    let (p, q) = if (a.x, a.y) <= (b.x, b.y) {
        (a, b)
    } else {
        (b, a)
    };
    let d = q - p;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    // The side (axis, coordinate) where the segment enters and leaves, if not at its ends.
    let mut enter: Option<(usize, f64)> = None;
    let mut exit: Option<(usize, f64)> = None;
    for (axis, lo, hi) in [(0, r.min.x, r.max.x), (1, r.min.y, r.max.y)] {
        let (pc, dc) = (p[axis], d[axis]);
        if dc == 0.0 {
            if pc < lo || pc > hi {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((lo - pc) / dc, (hi - pc) / dc);
        let (tin, vin, tout, vout) = if dc > 0.0 {
            (ta, lo, tb, hi)
        } else {
            (tb, hi, ta, lo)
        };
        if tin > t0 {
            t0 = tin;
            enter = Some((axis, vin));
        }
        if tout < t1 {
            t1 = tout;
            exit = Some((axis, vout));
        }
    }
    if t0 >= t1 {
        return None;
    }
    let at = |t: f64, side: Option<(usize, f64)>, end: DVec2| match side {
        None => end,
        Some((axis, v)) => {
            let mut x = p + d * t;
            x[axis] = v;
            x.clamp(r.min, r.max)
        }
    };
    let (u, v) = (at(t0, enter, p), at(t1, exit, q));
    (u != v).then_some((u, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_gives_both_sides_of_a_line_the_same_point() {
        let left = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(8.0, 8.0),
        };
        let right = Aabb {
            min: DVec2::new(8.0, 0.0),
            max: DVec2::new(16.0, 8.0),
        };
        let (a, b) = (DVec2::new(1.1, 0.3), DVec2::new(14.7, 7.9));
        for (u, v) in [(a, b), (b, a)] {
            let (_, l) = clip(u, v, &left).unwrap();
            let (r, _) = clip(u, v, &right).unwrap();
            assert_eq!(l, r);
            assert_eq!(l.x, 8.0);
        }
        // A segment along the shared line belongs to both closed squares.
        let (u, v) = (DVec2::new(8.0, 1.0), DVec2::new(8.0, 3.0));
        assert_eq!(clip(u, v, &left), Some((u, v)));
        assert_eq!(clip(u, v, &right), Some((u, v)));
        // Touching a corner only is no part.
        assert_eq!(
            clip(
                DVec2::new(7.0, 9.0),
                DVec2::new(9.0, 7.0),
                &left.expand(0.0)
            ),
            None
        );
    }

    #[test]
    fn the_grid_lies_on_whole_multiples_of_its_size() {
        let g = ChunkGrid::covering(
            Aabb {
                min: DVec2::new(-3.0, 5.0),
                max: DVec2::new(17.0, 6.0),
            },
            8.0,
        );
        assert_eq!(g.bounds().min, DVec2::new(-8.0, 0.0));
        assert_eq!(g.bounds().max, DVec2::new(24.0, 8.0));
        assert_eq!(g.rect(0).max, g.rect(1).min + DVec2::new(0.0, 8.0));
        let mut t = Vec::new();
        g.touching(
            &Aabb {
                min: DVec2::new(0.0, 1.0),
                max: DVec2::new(1.0, 2.0),
            },
            &mut t,
        );
        assert_eq!(t, [0, 1]);
    }
}
