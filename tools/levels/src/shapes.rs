//! Shapes a tile engine cannot make, as polygons for a level: a curved hill through points a
//! designer picks, and a rock (an irregular outline, turned by any angle).
//!
//! This module owns their geometry only; checking and printing are `polygon`'s. It depends on
//! nothing but `std`. Both are pure functions of their arguments (a rock's irregularity comes
//! from its seed through a fixed generator), so a level's comment can name the command that
//! made a polygon and the command gives it again.
use crate::polygon::Point;

/// A hill: the Catmull–Rom curve through `tops` (left to right), sampled so that no piece is
/// longer than `step` metres, closed by straight sides down to `base` and the base between.
/// The curve passes through every given point; between them it is smooth.
pub fn hill(tops: &[Point], base: f64, step: f64) -> Vec<Point> {
    let n = tops.len();
    let mut curve: Vec<Point> = Vec::new();
    for i in 0..n.saturating_sub(1) {
        let p0 = tops[i.saturating_sub(1)];
        let (p1, p2) = (tops[i], tops[i + 1]);
        let p3 = tops[(i + 2).min(n - 1)];
        // As many pieces of equal parameter as it takes for the longest to be within `step`.
        let chord = (p2.0 - p1.0).hypot(p2.1 - p1.1);
        let mut pieces = ((chord / step).ceil() as usize).max(1);
        let samples = loop {
            let s: Vec<Point> = (0..=pieces)
                .map(|k| catmull_rom(p0, p1, p2, p3, k as f64 / pieces as f64))
                .collect();
            if s.windows(2)
                .all(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1) <= step)
            {
                break s;
            }
            pieces += 1;
        };
        curve.extend_from_slice(&samples[..pieces]);
    }
    if let Some(&last) = tops.last() {
        curve.push(last);
    }
    let mut out = Vec::with_capacity(curve.len() + 2);
    if let (Some(first), Some(last)) = (curve.first().copied(), curve.last().copied()) {
        out.push((first.0, base));
        out.push((last.0, base));
        out.extend(curve.iter().rev().copied());
        // Counter-clockwise: base left to right, then the curve right to left.
        if first.1 == base {
            out.remove(out.len() - 1);
        }
        if last.1 == base {
            out.remove(2);
        }
    }
    out
}

fn catmull_rom(p0: Point, p1: Point, p2: Point, p3: Point, t: f64) -> Point {
    let (t2, t3) = (t * t, t * t * t);
    let f = |a: f64, b: f64, c: f64, d: f64| {
        0.5 * (2.0 * b
            + (-a + c) * t
            + (2.0 * a - 5.0 * b + 4.0 * c - d) * t2
            + (-a + 3.0 * b - 3.0 * c + d) * t3)
    };
    (f(p0.0, p1.0, p2.0, p3.0), f(p0.1, p1.1, p2.1, p3.1))
}

/// A rock: `sides` corners round an ellipse of `width` × `height` centred at `centre`, each
/// corner's radius varied by up to `roughness` of it (from `seed`), the whole turned by
/// `angle_deg` counter-clockwise.
pub fn rock(
    centre: Point,
    width: f64,
    height: f64,
    angle_deg: f64,
    sides: usize,
    roughness: f64,
    seed: u64,
) -> Vec<Point> {
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        // SplitMix64: a fixed generator, the same on every machine.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    let (sin, cos) = angle_deg.to_radians().sin_cos();
    (0..sides)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / sides as f64;
            let r = 1.0 + roughness * (2.0 * next() - 1.0);
            let (x, y) = (0.5 * width * r * a.cos(), 0.5 * height * r * a.sin());
            (centre.0 + x * cos - y * sin, centre.1 + x * sin + y * cos)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::{problem, rounded, twice_area};

    #[test]
    fn a_hill_passes_through_its_points_and_stands_on_its_base() {
        let tops = [(0.0, 0.0), (4.0, 2.0), (8.0, 1.0), (12.0, 0.0)];
        let h = hill(&tops, -1.0, 0.5);
        for p in &tops {
            assert!(h.contains(p), "{p:?} missing from {h:?}");
        }
        assert_eq!(h[0], (0.0, -1.0));
        assert_eq!(h[1], (12.0, -1.0));
        assert!(twice_area(&h) > 0.0);
        assert_eq!(problem(&rounded(&h)), None);
        for w in h[2..].windows(2) {
            assert!((w[1].0 - w[0].0).hypot(w[1].1 - w[0].1) <= 0.5 + 1e-9);
        }
    }

    #[test]
    fn a_rock_is_simple_turned_and_the_same_from_its_seed() {
        let a = rock((5.0, 2.0), 3.0, 2.0, 30.0, 9, 0.2, 7);
        assert_eq!(a, rock((5.0, 2.0), 3.0, 2.0, 30.0, 9, 0.2, 7));
        assert_ne!(a, rock((5.0, 2.0), 3.0, 2.0, 30.0, 9, 0.2, 8));
        assert_eq!(problem(&rounded(&a)), None);
        assert!(twice_area(&a) > 0.0);
        // The first corner lies on the turned long axis.
        let (dx, dy) = (a[0].0 - 5.0, a[0].1 - 2.0);
        assert!((dy.atan2(dx).to_degrees() - 30.0).abs() < 1e-9);
    }
}
