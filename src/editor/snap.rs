//! Grid snapping to exact grid points, and closing drawn outlines.
//!
//! # Exactness
//! `(x / size).round() * size` picks the right grid index `k` but then multiplies by a size that
//! is itself rounded: with a 0.1 m grid, index 3 gives `3.0 * 0.1 = 0.30000000000000004`, not
//! the `0.3` a level file says. A [`Grid`] keeps the size as given and, when the size is a
//! fraction `num / den` with `den` a power of 2 or of 10 up to 10⁶ (every grid a person types:
//! 1, 0.5, 0.25, 0.1, 0.05, 0.01, ...), computes grid point `k` as `(k · num) / den`: two integers
//! exact in `f64` and one correctly rounded division, so the result is the `f64` nearest to the
//! exact grid coordinate, the same number a level file's decimal `0.3` parses to. Other sizes fall
//! back to `k as f64 * size`. Either way a coordinate depends only on `k`: equal grid indices give
//! bit-identical coordinates, so a polygon drawn on the grid closes exactly on its first point.
use glam::DVec2;

use super::ops::NEAR_DUPLICATE;

/// Grid snapping settings: on or off, and the grid size in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Whether [`Grid::snap`] snaps.
    pub enabled: bool,
    size: f64,
    /// `size == num / den` exactly, when such a small fraction exists.
    fraction: Option<(i64, i64)>,
}

/// Grid indices beyond this are not snapped exactly by the fraction path (`k · num` must stay an
/// exact integer in `f64`); far beyond any level (1e7 m / 1e-6 m = 1e13).
const MAX_EXACT: i64 = 1 << 52;

impl Grid {
    /// A grid of `size` metres, enabled. `None` if `size` is not finite and positive.
    pub fn new(size: f64) -> Option<Grid> {
        if !(size.is_finite() && size > 0.0) {
            return None;
        }
        Some(Grid {
            enabled: true,
            size,
            fraction: fraction(size),
        })
    }

    /// The size as given.
    pub fn size(&self) -> f64 {
        self.size
    }

    /// Changes the size (keeps `enabled`); `false` and unchanged if not finite and positive.
    pub fn set_size(&mut self, size: f64) -> bool {
        match Grid::new(size) {
            Some(g) => {
                *self = Grid {
                    enabled: self.enabled,
                    ..g
                };
                true
            }
            None => false,
        }
    }

    /// Grid coordinate `k`: exact as described in the module docs.
    pub fn coordinate(&self, k: i64) -> f64 {
        match self.fraction {
            Some((num, den)) if k.abs() <= MAX_EXACT / num => (k * num) as f64 / den as f64,
            _ => k as f64 * self.size,
        }
    }

    /// The grid index nearest to `x`.
    pub fn index(&self, x: f64) -> i64 {
        (x / self.size).round() as i64
    }

    /// The nearest grid point, or `p` itself when snapping is off.
    pub fn snap(&self, p: DVec2) -> DVec2 {
        if !self.enabled {
            return p;
        }
        DVec2::new(
            self.coordinate(self.index(p.x)),
            self.coordinate(self.index(p.y)),
        )
    }
}

/// `size` as `num / den` with `den` a power of 2 or 10 up to 10⁶, if exactly so.
fn fraction(size: f64) -> Option<(i64, i64)> {
    let dens = (0..=6)
        .map(|e| 10i64.pow(e))
        .chain((1..=20).map(|e| 1i64 << e));
    for den in dens {
        let num = (size * den as f64).round();
        if (1.0..=1e9).contains(&num) && num / den as f64 == size {
            return Some((num as i64, den));
        }
    }
    None
}

/// Drops the closing click of a drawn outline: a last point on, or within [`NEAR_DUPLICATE`] of,
/// the first (a polygon's points do not repeat the first at the end). Returns whether it did.
pub fn close_outline(points: &mut Vec<DVec2>) -> bool {
    match (points.first(), points.last()) {
        (Some(&a), Some(&b)) if points.len() > 1 && a.distance(b) < NEAR_DUPLICATE => {
            points.pop();
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::{apply, Edit};
    use crate::level::{Level, LevelPolygon};

    #[test]
    fn tenth_grid_points_are_the_decimal_numbers() {
        let g = Grid::new(0.1).unwrap();
        assert_eq!(g.coordinate(3), 0.3);
        assert_ne!(3.0 * 0.1, 0.3, "the naive product is off");
        for k in -1000..1000i64 {
            let want: f64 = format!("{}.{}", k / 10, (k % 10).abs()).parse().unwrap();
            let want = if k < 0 && k > -10 { -want } else { want };
            assert_eq!(g.coordinate(k).to_bits(), want.to_bits(), "k = {k}");
        }
        let g = Grid::new(0.25).unwrap();
        assert_eq!(g.coordinate(-7), -1.75);
        let g = Grid::new(1.0 / 3.0).unwrap();
        assert_eq!(g.coordinate(3), 3.0 * (1.0 / 3.0));
    }

    #[test]
    fn equal_indices_snap_bit_identically() {
        let g = Grid::new(0.1).unwrap();
        let a = g.snap(DVec2::new(0.3049, -1.2));
        let b = g.snap(DVec2::new(0.2951, -1.1501));
        assert_eq!(a.x.to_bits(), b.x.to_bits());
        assert_eq!(a.y.to_bits(), b.y.to_bits());
        assert_eq!(a, DVec2::new(0.3, -1.2));
        let mut off = g;
        off.enabled = false;
        assert_eq!(off.snap(DVec2::new(0.31, 0.0)), DVec2::new(0.31, 0.0));
        assert!(Grid::new(0.0).is_none() && Grid::new(f64::NAN).is_none());
        assert!(!off.set_size(-1.0));
        assert!(off.set_size(0.5) && !off.enabled && off.size() == 0.5);
    }

    #[test]
    fn a_polygon_drawn_on_the_grid_closes_on_its_first_point() {
        let g = Grid::new(0.1).unwrap();
        let clicks = [(0.01, 0.02), (0.71, -0.03), (0.69, 0.52), (0.04, -0.01)];
        let mut pts: Vec<DVec2> = clicks
            .iter()
            .map(|&(x, y)| g.snap(DVec2::new(x, y)))
            .collect();
        assert_eq!(
            pts[3], pts[0],
            "the closing click lands exactly on the first point"
        );
        assert!(close_outline(&mut pts));
        assert_eq!(pts.len(), 3);
        assert!(!close_outline(&mut pts));
        let mut level = Level {
            spawn: DVec2::new(0.0, 5.0),
            ..Level::empty("t")
        };
        // Through the edit, with the closing click still there: no duplicate vertex.
        let mut with_close = pts.clone();
        with_close.push(g.snap(DVec2::new(-0.02, 0.03)));
        apply(
            &mut level,
            &Edit::AddPolygon {
                polygon: LevelPolygon::solid(with_close),
            },
        )
        .unwrap();
        assert_eq!(level.polygons[0].points, pts);
        level.validate().unwrap();
    }
}
