//! An outline traced from a bitmap: the ink of a drawing (dark or opaque pixels) becomes one
//! simple polygon in metres, so a hill can be drawn in any paint program and put in a level.
//!
//! This module owns the pixel mask and its outline: which pixels are ink, the one shape kept
//! (the largest 4-connected blob, its holes filled, so that its outline never touches itself),
//! and the outline along the pixels' edges. Simplifying and
//! rounding are `polygon`'s. It depends on the `image` crate for decoding only.
//!
//! Tolerances: a pixel is ink when its alpha is at least half and its luma below
//! [`INK_LUMA`]; the outline is exact on the pixel grid (every corner at a whole number of
//! pixels times the scale).
use std::collections::HashMap;

use crate::polygon::{drop_collinear, Point};

/// A pixel darker than this (0–255, Rec. 601 luma) is ink, when it is not transparent.
pub const INK_LUMA: f64 = 128.0;

/// A bitmap's ink: `true` cells, row 0 at the bottom (y up, as in a level).
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    /// Cells across.
    pub width: usize,
    /// Cells up.
    pub height: usize,
    cells: Vec<bool>,
}

impl Mask {
    /// A mask from rows given top first (as an image stores them), `#` for ink.
    #[cfg(test)]
    pub fn from_rows(rows: &[&str]) -> Mask {
        let height = rows.len();
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut cells = vec![false; width * height];
        for (r, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                cells[(height - 1 - r) * width + x] = c == '#';
            }
        }
        Mask {
            width,
            height,
            cells,
        }
    }

    /// The ink of an image: dark, opaque pixels.
    pub fn from_image(image: &image::RgbaImage) -> Mask {
        let (width, height) = (image.width() as usize, image.height() as usize);
        let mut cells = vec![false; width * height];
        for (x, row, p) in image.enumerate_pixels() {
            let [r, g, b, a] = p.0;
            let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
            let ink = a >= 128 && luma < INK_LUMA;
            cells[(height - 1 - row as usize) * width + x as usize] = ink;
        }
        Mask {
            width,
            height,
            cells,
        }
    }

    /// Whether cell (x, y) is ink; outside the mask nothing is.
    pub fn get(&self, x: isize, y: isize) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height
            && self.cells[y as usize * self.width + x as usize]
    }

    /// Ink cells.
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }

    /// Cells 4-connected to `start` whose ink equals `ink`, flooded from `start`.
    fn flood(&self, starts: &[(usize, usize)], ink: bool) -> Vec<bool> {
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for &(x, y) in starts {
            if self.cells[y * self.width + x] == ink && !seen[y * self.width + x] {
                seen[y * self.width + x] = true;
                stack.push((x, y));
            }
        }
        while let Some((x, y)) = stack.pop() {
            let (xi, yi) = (x as isize, y as isize);
            for (nx, ny) in [(xi - 1, yi), (xi + 1, yi), (xi, yi - 1), (xi, yi + 1)] {
                if nx < 0 || ny < 0 || nx as usize >= self.width || ny as usize >= self.height {
                    continue;
                }
                let i = ny as usize * self.width + nx as usize;
                if !seen[i] && self.cells[i] == ink {
                    seen[i] = true;
                    stack.push((nx as usize, ny as usize));
                }
            }
        }
        seen
    }

    /// The one shape an outline is traced around: the largest 4-connected blob of ink (the
    /// lowest, then leftmost, of equal ones) with its holes filled. Its outline is simple: where
    /// two of a blob's cells meet only at a corner, the blob's 4-connected path between them
    /// closes a loop round one of the corner's empty cells, a hole, so no such pinch is left.
    /// `None` when there is no ink.
    pub fn shape(&self) -> Option<Mask> {
        let mut best: Option<(usize, Vec<bool>)> = None;
        let mut taken = vec![false; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let i = y * self.width + x;
                if !self.cells[i] || taken[i] {
                    continue;
                }
                let blob = self.flood(&[(x, y)], true);
                let size = blob.iter().filter(|&&c| c).count();
                for (t, &b) in taken.iter_mut().zip(&blob) {
                    *t |= b;
                }
                if best.as_ref().is_none_or(|(s, _)| size > *s) {
                    best = Some((size, blob));
                }
            }
        }
        let (_, blob) = best?;
        let mut shape = Mask {
            width: self.width,
            height: self.height,
            cells: blob,
        };
        shape.fill_holes();
        Some(shape)
    }

    /// Every empty cell not 4-connected to the mask's border becomes ink.
    fn fill_holes(&mut self) {
        let mut border = Vec::new();
        for x in 0..self.width {
            border.push((x, 0));
            border.push((x, self.height - 1));
        }
        for y in 0..self.height {
            border.push((0, y));
            border.push((self.width - 1, y));
        }
        let outside = self.flood(&border, false);
        for (cell, out) in self.cells.iter_mut().zip(outside) {
            *cell = !out;
        }
    }

    /// The outline of a shape (as [`Mask::shape`] gives) along its cells' edges, counter-
    /// clockwise, in cells, straight runs merged, starting at its lowest-left corner.
    pub fn outline(&self) -> Vec<Point> {
        // Each ink cell's side that faces an empty cell is an edge with the ink on its left.
        let mut next: HashMap<(isize, isize), (isize, isize)> = HashMap::new();
        for y in 0..self.height as isize {
            for x in 0..self.width as isize {
                if !self.get(x, y) {
                    continue;
                }
                if !self.get(x, y - 1) {
                    next.insert((x, y), (x + 1, y));
                }
                if !self.get(x + 1, y) {
                    next.insert((x + 1, y), (x + 1, y + 1));
                }
                if !self.get(x, y + 1) {
                    next.insert((x + 1, y + 1), (x, y + 1));
                }
                if !self.get(x - 1, y) {
                    next.insert((x, y + 1), (x, y));
                }
            }
        }
        let Some(&start) = next.keys().min_by_key(|&&(x, y)| (y, x)) else {
            return Vec::new();
        };
        let mut ring = vec![start];
        let mut at = next[&start];
        while at != start {
            ring.push(at);
            at = next[&at];
        }
        let points: Vec<Point> = ring.iter().map(|&(x, y)| (x as f64, y as f64)).collect();
        drop_collinear(&points)
    }
}

/// The outline of a bitmap's ink in metres: `scale` metres a pixel, the image's bottom-left
/// corner at `origin`.
pub fn traced(mask: &Mask, scale: f64, origin: Point) -> Option<Vec<Point>> {
    let outline = mask.shape()?.outline();
    Some(
        outline
            .iter()
            .map(|&(x, y)| (origin.0 + x * scale, origin.1 + y * scale))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::{problem, twice_area};

    #[test]
    fn a_hill_traces_to_its_outline_counter_clockwise() {
        let mask = Mask::from_rows(&["..##..", ".####.", "######"]);
        let outline = mask.shape().unwrap().outline();
        assert_eq!(
            outline,
            vec![
                (0.0, 0.0),
                (6.0, 0.0),
                (6.0, 1.0),
                (5.0, 1.0),
                (5.0, 2.0),
                (4.0, 2.0),
                (4.0, 3.0),
                (2.0, 3.0),
                (2.0, 2.0),
                (1.0, 2.0),
                (1.0, 1.0),
                (0.0, 1.0),
            ]
        );
        assert!(twice_area(&outline) > 0.0);
        assert_eq!(twice_area(&outline), 2.0 * mask.count() as f64);
    }

    #[test]
    fn holes_are_filled_and_smaller_blobs_dropped() {
        // A ring with a hole; a block meeting it only at a corner; a speck.
        let mask = Mask::from_rows(&["#.......", "....##..", "###.##..", "#.##....", "###....."]);
        let shape = mask.shape().unwrap();
        assert!(shape.get(1, 1), "the hole is filled");
        assert!(!shape.get(0, 4), "the speck is dropped");
        assert!(
            !shape.get(4, 2),
            "the block touching at a corner is another blob"
        );
        assert_eq!(shape.count(), 10);
        let outline = shape.outline();
        assert_eq!(problem(&outline), None, "{outline:?}");
        assert_eq!(twice_area(&outline), 2.0 * shape.count() as f64);
    }

    #[test]
    fn a_blob_touching_itself_at_a_corner_traces_a_simple_outline() {
        // A hook whose tip meets its stem at a corner: the loop it closes is filled.
        let mask = Mask::from_rows(&["##..", "#.#.", "###."]);
        let shape = mask.shape().unwrap();
        assert_eq!(shape.count(), 8);
        let outline = shape.outline();
        assert_eq!(problem(&outline), None, "{outline:?}");
        assert_eq!(twice_area(&outline), 16.0);
    }

    #[test]
    fn no_ink_traces_nothing() {
        assert_eq!(
            traced(&Mask::from_rows(&["...", "..."]), 1.0, (0.0, 0.0)),
            None
        );
    }

    #[test]
    fn metres_come_from_the_scale_and_the_origin() {
        let mask = Mask::from_rows(&["##", "##"]);
        let t = traced(&mask, 0.5, (10.0, -1.0)).unwrap();
        assert_eq!(
            t,
            vec![(10.0, -1.0), (11.0, -1.0), (11.0, 0.0), (10.0, 0.0)]
        );
    }
}
