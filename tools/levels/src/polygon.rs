//! Closed polygons as the level format takes them: a list of points, the first not repeated,
//! in either orientation. This module owns the checks every shape passes before it is printed
//! (simple: no edge crosses or touches another but its neighbours; no point repeated; positive
//! area), the simplification of a traced outline, and the rounding to the printed precision.
//!
//! It depends on nothing but `std`. Tolerances: points are printed to [`DECIMALS`] decimals
//! (1 mm); the crossing test is exact on the rounded coordinates up to the orientation's
//! floating-point error, which at metre scale and millimetre spacing is 1e-12 of the terms.

/// A point in metres.
pub type Point = (f64, f64);

/// Decimals a printed coordinate keeps (millimetres).
pub const DECIMALS: i32 = 3;

/// Twice the signed area (positive when counter-clockwise).
pub fn twice_area(points: &[Point]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum()
}

fn orient(a: Point, b: Point, c: Point) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

fn on_segment(a: Point, b: Point, p: Point) -> bool {
    p.0 >= a.0.min(b.0) && p.0 <= a.0.max(b.0) && p.1 >= a.1.min(b.1) && p.1 <= a.1.max(b.1)
}

/// Whether segments `ab` and `cd` share any point (crossing, touching or overlapping).
fn segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (d1, d2) = (orient(c, d, a), orient(c, d, b));
    let (d3, d4) = (orient(a, b, c), orient(a, b, d));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on_segment(c, d, a))
        || (d2 == 0.0 && on_segment(c, d, b))
        || (d3 == 0.0 && on_segment(a, b, c))
        || (d4 == 0.0 && on_segment(a, b, d))
}

/// Why a polygon cannot go into a level, or `None` when it can: fewer than three points, a
/// repeated point, two edges that meet other than at their shared corner, or no area.
pub fn problem(points: &[Point]) -> Option<String> {
    let n = points.len();
    if n < 3 {
        return Some(format!("{n} points (a polygon needs 3)"));
    }
    for i in 0..n {
        for j in i + 1..n {
            if points[i] == points[j] {
                return Some(format!("points {i} and {j} are the same ({:?})", points[i]));
            }
        }
    }
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        for j in i + 1..n {
            // Neighbouring edges share a corner; they meet only if they fold back on each other.
            let (c, d) = (points[j], points[(j + 1) % n]);
            let neighbours = j == i + 1 || (i == 0 && j == n - 1);
            if neighbours {
                let (corner, p, q) = if j == i + 1 { (b, a, d) } else { (a, b, c) };
                if orient(p, corner, q) == 0.0
                    && (p.0 - corner.0) * (q.0 - corner.0) + (p.1 - corner.1) * (q.1 - corner.1)
                        > 0.0
                {
                    return Some(format!("edges {i} and {j} fold back on each other"));
                }
            } else if segments_meet(a, b, c, d) {
                return Some(format!("edges {i} and {j} cross or touch"));
            }
        }
    }
    if twice_area(points) == 0.0 {
        return Some("no area".into());
    }
    None
}

/// The points rounded to the printed precision, with points that became equal to their
/// predecessor dropped.
pub fn rounded(points: &[Point]) -> Vec<Point> {
    let scale = 10f64.powi(DECIMALS);
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for &(x, y) in points {
        let p = ((x * scale).round() / scale, (y * scale).round() / scale);
        // `-0.0` prints as "-0.0": make it zero.
        let p = (p.0 + 0.0, p.1 + 0.0);
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

fn distance_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (qx, qy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - qx).powi(2) + (p.1 - qy).powi(2)).sqrt()
}

/// Ramer–Douglas–Peucker on an open polyline: the indices kept, first and last always.
fn keep_open(points: &[Point], tolerance: f64, from: usize, to: usize, keep: &mut Vec<bool>) {
    let mut worst = (0.0, from);
    for i in from + 1..to {
        let d = distance_to_segment(points[i], points[from], points[to]);
        if d > worst.0 {
            worst = (d, i);
        }
    }
    if worst.0 > tolerance {
        keep[worst.1] = true;
        keep_open(points, tolerance, from, worst.1, keep);
        keep_open(points, tolerance, worst.1, to, keep);
    }
}

/// A closed outline simplified so that no dropped point lies further than `tolerance` from the
/// kept outline (Ramer–Douglas–Peucker from the point furthest from the first, both halves),
/// then rounded; if the result is not simple, the tolerance is halved until it is (a traced
/// outline at tolerance 0 is simple, so this ends). Returns the points and the tolerance used.
pub fn simplified(points: &[Point], tolerance: f64) -> (Vec<Point>, f64) {
    let n = points.len();
    let mut tolerance = tolerance;
    loop {
        let far = (1..n)
            .max_by(|&i, &j| {
                let di = (points[i].0 - points[0].0).hypot(points[i].1 - points[0].1);
                let dj = (points[j].0 - points[0].0).hypot(points[j].1 - points[0].1);
                di.total_cmp(&dj).then(j.cmp(&i))
            })
            .unwrap_or(0);
        let mut ring: Vec<Point> = points.to_vec();
        ring.push(points[0]);
        let mut keep = vec![false; ring.len()];
        keep[0] = true;
        keep[far] = true;
        keep[n] = true;
        keep_open(&ring, tolerance, 0, far, &mut keep);
        keep_open(&ring, tolerance, far, n, &mut keep);
        let kept: Vec<Point> = (0..n).filter(|&i| keep[i]).map(|i| ring[i]).collect();
        let out = rounded(&drop_collinear(&kept));
        if problem(&out).is_none() || tolerance < 1e-6 {
            return (out, tolerance);
        }
        tolerance /= 2.0;
    }
}

/// The points without those lying exactly on the line through their neighbours (a traced
/// outline's straight runs are many pixel corners).
pub fn drop_collinear(points: &[Point]) -> Vec<Point> {
    let mut out: Vec<Point> = points.to_vec();
    let mut changed = true;
    while changed && out.len() > 3 {
        changed = false;
        let n = out.len();
        for i in 0..n {
            let (a, b, c) = (out[(i + n - 1) % n], out[i], out[(i + 1) % n]);
            if orient(a, b, c) == 0.0 {
                out.remove(i);
                changed = true;
                break;
            }
        }
    }
    out
}

/// The polygon as one entry of a level's `polygons` list.
pub fn level_entry(points: &[Point], material: Option<&str>) -> String {
    let list: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("({x:?}, {y:?})"))
        .collect();
    match material {
        Some(m) => format!("(points: [{}], material: {m:?}),", list.join(", ")),
        None => format!("(points: [{}]),", list.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_is_simple_and_a_bow_tie_is_not() {
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        assert_eq!(problem(&square), None);
        let bow = [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)];
        assert!(
            problem(&bow).unwrap().contains("cross"),
            "{:?}",
            problem(&bow)
        );
        let touching = [(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 1.0)];
        assert!(problem(&touching).is_some());
        assert!(problem(&[(0.0, 0.0), (1.0, 0.0)]).is_some());
    }

    #[test]
    fn simplification_keeps_every_point_within_the_tolerance() {
        // A staircase of 0.1 m steps up a 45° line, closed below.
        let mut stairs = vec![(0.0, 0.0)];
        for i in 0..20 {
            let x = i as f64 * 0.1;
            stairs.push((x + 0.1, x));
            stairs.push((x + 0.1, x + 0.1));
        }
        stairs.push((2.0, 0.0));
        stairs.dedup();
        let (out, tol) = simplified(&stairs, 0.08);
        assert_eq!(problem(&out), None);
        assert!(out.len() < 6, "{out:?}");
        for p in &stairs {
            let n = out.len();
            let d = (0..n)
                .map(|i| distance_to_segment(*p, out[i], out[(i + 1) % n]))
                .fold(f64::INFINITY, f64::min);
            assert!(d <= tol + 1e-3, "{p:?} is {d} from the outline");
        }
    }

    #[test]
    fn rounding_prints_millimetres_without_negative_zero() {
        let out = rounded(&[(-0.0001, 1.23456), (2.0, 0.0), (2.0, 0.0), (-0.0, 1.2346)]);
        assert_eq!(out, vec![(0.0, 1.235), (2.0, 0.0)]);
        assert_eq!(
            level_entry(&[(0.0, 1.5), (2.0, 0.0), (1.0, -1.0)], Some("grass")),
            "(points: [(0.0, 1.5), (2.0, 0.0), (1.0, -1.0)], material: \"grass\"),"
        );
    }
}
