//! Splitting the constraint segments where they cross or touch, before triangulation.
//!
//! Inflated pieces overlap, so their outlines cross, overlap along shared lines (neighbouring tiles)
//! and have corners lying on each other's edges. Splitting crossings one at a time inside the
//! triangulation (as spade's `add_constraint_and_split` did when the mesh was built with spade)
//! rounds each split point, and when a rounded point lands off the split edge the constraint is
//! rerouted through a nearby vertex (centimetres away in tests) or the build panics; overlapping
//! collinear constraints make that common. So the crossings are resolved here, up front, with
//! exact predicates, and the triangulation (`cdt`) only ever sees a planar set of constraint
//! segments:
//!
//! - two segments that cross properly (all four [`orient`] signs strict) are both split at the
//!   crossing point, computed from the shorter segment and clamped into both bounding boxes;
//! - a segment with another segment's endpoint exactly on its interior (collinear overlaps, a
//!   tile's corner on its neighbour's edge) is split at that endpoint, so overlapping collinear
//!   segments become identical pieces and are merged.
//!
//! A rounded crossing point lies within an ulp or so of both lines, so the new pieces can cross a
//! third segment that passed within an ulp of the crossing; the next pass splits those, and only
//! pieces of segments split at a rounded point need testing: a segment whose split points all
//! lie exactly on it (orientation exactly zero, e.g. every crossing of an axis-aligned pair)
//! becomes exact sub-segments that meet the pieces of the segments it was tested against only at
//! shared split points, so on tile levels one pass suffices. A crossing within [`SNAP_ULPS`] ulps of
//! one of the two segments' endpoints is taken to be that endpoint (otherwise nearly parallel
//! segments ending in a cluster of nearly coincident vertices cross again just past every
//! rounded crossing, one ulp further each pass). A handful of passes reach a fixed point;
//! [`MAX_PASSES`] bounds them (running out is reported, never a panic). Every split moves geometry
//! by a few ulps at most: no vertex is rerouted.
use glam::DVec2;

use super::buckets::Buckets;
use super::predicates::orient;

/// Why [`planarize`] stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PlanarizeError {
    /// Crossings still unresolved after [`MAX_PASSES`] passes, near this point.
    Unresolved(DVec2),
    /// The work exceeded the budget: `count` grid entries, candidate pairs or split points
    /// (`what`) where `limit` were allowed. `segment` is an input segment with the most of them
    /// (for the error message: its polygon is where the overlap is).
    OverBudget {
        /// What was counted.
        what: &'static str,
        /// How many there were when counting stopped.
        count: usize,
        /// The budget.
        limit: usize,
        /// An input segment in the thick of it.
        segment: u32,
    },
}

/// Upper bound on splitting passes (real levels need one or two; clusters of nearly concurrent
/// lines a few more).
pub(crate) const MAX_PASSES: usize = 64;

/// A proper crossing closer than this many ulps (of the two segments' largest coordinate) to one
/// of their endpoints is snapped onto that endpoint. Crossing points are accurate to about an
/// ulp, so this only merges what rounding cannot tell apart; it moves a constraint by at most
/// ~2e-15 of the coordinates (2e-10 m at 1e5 m), far below `INSIDE_SLACK`.
pub(crate) const SNAP_ULPS: f64 = 8.0;

/// Vertex store with exact deduplication (`-0.0` and `0.0` are the same point).
///
/// The index is an open-addressing hash table of point ids (linear probing, at most half full):
/// 4 bytes a slot, where a map from coordinate keys took 24. A build looks up every point of
/// every inflated outline, at random places in a fresh table, so its size is much of its cost.
#[derive(Default)]
pub(crate) struct Points {
    /// The distinct points, in insertion order.
    pub(crate) points: Vec<DVec2>,
    /// Ids into `points`, [`EMPTY`] for a free slot; the length is zero or a power of two.
    slots: Vec<u32>,
}

/// A free slot of [`Points`]' table.
const EMPTY: u32 = u32::MAX;

impl Points {
    /// An empty store with room for `n` points before it grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Points {
            points: Vec::with_capacity(n),
            slots: vec![EMPTY; (2 * n).next_power_of_two().max(16)],
        }
    }

    /// The id of `p`, inserting it if new. Coordinates are canonicalised first: `-0.0` becomes
    /// `0.0` (equal as numbers, different as keys), and magnitudes below 2^-142 (spade's smallest
    /// accepted value, which polygon validation uses; e.g. subnormals from valid input, where the
    /// exact predicates' error-free arithmetic would underflow) become 0, a change far below any
    /// tolerance. All exact tests here run on the canonical points. Ids are given in
    /// insertion order, whatever the table's size or hash.
    pub(crate) fn id(&mut self, p: DVec2) -> u32 {
        let canon = |c: f64| {
            if c.abs() < spade::MIN_ALLOWED_VALUE {
                0.0
            } else {
                c
            }
        };
        let p = DVec2::new(canon(p.x), canon(p.y));
        if 2 * (self.points.len() + 1) > self.slots.len() {
            self.grow();
        }
        let (x, y) = (p.x.to_bits(), p.y.to_bits());
        let mask = self.slots.len() - 1;
        let mut k = slot_of(x, y, self.slots.len());
        loop {
            let id = self.slots[k];
            if id == EMPTY {
                let id = self.points.len() as u32;
                self.slots[k] = id;
                self.points.push(p);
                return id;
            }
            let q = self.points[id as usize];
            if q.x.to_bits() == x && q.y.to_bits() == y {
                return id;
            }
            k = (k + 1) & mask;
        }
    }

    /// Doubles the table (at least 16 slots) and re-inserts every point.
    fn grow(&mut self) {
        let len = (2 * self.slots.len()).max(16);
        self.slots = vec![EMPTY; len];
        let mask = len - 1;
        for (id, q) in self.points.iter().enumerate() {
            let mut k = slot_of(q.x.to_bits(), q.y.to_bits(), len);
            while self.slots[k] != EMPTY {
                k = (k + 1) & mask;
            }
            self.slots[k] = id as u32;
        }
    }
}

/// The slot of a table of `len` slots (a power of two) where the point with coordinate bits `x`,
/// `y` starts probing: the top bits of a multiplicative hash, which depend on every input bit
/// (the coordinates of tile levels often share their low bits and differ in their high ones).
fn slot_of(x: u64, y: u64, len: usize) -> usize {
    let h = (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ y).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    (h >> (64 - len.trailing_zeros())) as usize
}

/// One output segment: its two point ids (smaller first) and the index of the input segment it
/// lies on.
pub(crate) type Piece = ([u32; 2], u32);

/// Splits `segments` (pairs of point ids; zero-length ones are dropped) until no two cross or
/// overlap and no endpoint lies on another segment's interior. New crossing points are added to
/// `pts`. Returns every resulting piece with the input segment it came from: identical pieces of
/// different input segments (overlapping collinear edges) are all listed, so the caller knows
/// every source of a constraint edge. Sorted by point pair. Fails with the location of a crossing
/// still unresolved after [`MAX_PASSES`], or as soon as the grid entries, candidate pairs of one
/// pass or split points in all exceed `budget` (each is memory: the caller bounds what an input
/// can cost).
pub(crate) fn planarize(
    pts: &mut Points,
    segments: &[[u32; 2]],
    budget: usize,
) -> Result<Vec<Piece>, PlanarizeError> {
    let (mut segs, mut fresh) = dedup(
        segments
            .iter()
            .enumerate()
            .map(|(k, &s)| ((s, k as u32), true)),
        pts.points.len(),
    );
    let mut splits: Vec<(u32, u32)> = Vec::new();
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut chain: Vec<(f64, u32)> = Vec::new();
    let mut split_points = 0;
    for _ in 0..MAX_PASSES {
        candidate_pairs(&pts.points, &segs, &fresh, &mut pairs, budget).map_err(
            |(what, count, i)| PlanarizeError::OverBudget {
                what,
                count,
                limit: budget,
                segment: segs[i as usize].1,
            },
        )?;
        splits.clear();
        for &(i, j) in &pairs {
            let before = pts.points.len();
            split_pair(pts, &segs, i, j, &mut splits);
            split_points += pts.points.len() - before;
            if split_points > budget {
                return Err(PlanarizeError::OverBudget {
                    what: "crossing points",
                    count: split_points,
                    limit: budget,
                    segment: segs[i as usize].1,
                });
            }
        }
        log::debug!(
            "planarize pass: {} segments, {} candidate pairs, {} splits",
            segs.len(),
            pairs.len(),
            splits.len()
        );
        if splits.is_empty() {
            return Ok(segs);
        }
        // Rebuild: every split segment becomes a chain through its split points, in order.
        splits.sort_unstable();
        splits.dedup();
        let mut out: Vec<(Piece, bool)> = Vec::with_capacity(segs.len() + splits.len() * 2);
        let mut k = 0;
        for (i, &([a, b], origin)) in segs.iter().enumerate() {
            if k >= splits.len() || splits[k].0 as usize != i {
                out.push((([a, b], origin), false));
                continue;
            }
            let (pa, pb) = (pts.points[a as usize], pts.points[b as usize]);
            let d = pb - pa;
            chain.clear();
            while k < splits.len() && splits[k].0 as usize == i {
                let p = splits[k].1;
                chain.push(((pts.points[p as usize] - pa).dot(d), p));
                k += 1;
            }
            chain.sort_by(|x, y| x.0.total_cmp(&y.0));
            // Pieces through split points exactly on the segment are exact sub-segments of it:
            // they meet the pieces of every segment it was tested against only at split points,
            // so they need no retest. Rounded split points may create new crossings.
            let fresh = chain
                .iter()
                .any(|&(_, p)| orient(pa, pb, pts.points[p as usize]) != 0.0);
            let mut prev = a;
            for &(_, p) in chain.iter().chain(std::iter::once(&(0.0, b))) {
                if p != prev {
                    out.push((([prev, p], origin), fresh));
                    prev = p;
                }
            }
        }
        (segs, fresh) = dedup(out, pts.points.len());
    }
    // Still splitting: report where.
    let _ = candidate_pairs(&pts.points, &segs, &fresh, &mut pairs, budget);
    let loc = pairs
        .first()
        .map(|&(i, _)| pts.points[segs[i as usize].0[0] as usize])
        .unwrap_or(DVec2::ZERO);
    Err(PlanarizeError::Unresolved(loc))
}

/// Whether more than `limit` pairs of `segments` have overlapping bounding boxes (counted as
/// [`planarize`]'s first pass finds them, holding at most `limit` pairs while counting): a cheap
/// measure of how much splitting them would cost.
pub(crate) fn box_pairs_exceed(points: &[DVec2], segments: &[Piece], limit: usize) -> bool {
    let fresh = vec![true; segments.len()];
    let mut pairs = Vec::new();
    candidate_pairs(points, segments, &fresh, &mut pairs, limit).is_err()
}

/// Orients each piece smaller id first, drops zero-length ones and exact duplicates (same points
/// and origin; a duplicate is fresh if any copy is), sorted by points then origin. Returns the
/// pieces and their fresh flags.
///
/// Each piece is packed into one integer, `a · 2^96 + b · 2^64 + origin · 2^32 + !fresh`, so
/// the sort compares integers rather than tuples: it is a large part of a big level's splitting.
/// The sort is a counting sort on `a` (below `points`, the number of point ids), then a sort of
/// each point's few pieces: linear where a comparison sort of the whole was a fifth of splitting.
fn dedup(segs: impl IntoIterator<Item = (Piece, bool)>, points: usize) -> (Vec<Piece>, Vec<bool>) {
    let keys: Vec<u128> = segs
        .into_iter()
        .filter(|((s, _), _)| s[0] != s[1])
        .map(|(([a, b], o), f)| {
            (a.min(b) as u128) << 96 | (a.max(b) as u128) << 64 | (o as u128) << 32 | !f as u128
        })
        .collect();
    let mut v =
        Buckets::new(points, || keys.iter().map(|&k| ((k >> 96) as usize, k))).into_sorted();
    drop(keys);
    v.dedup_by_key(|k| *k >> 32);
    v.into_iter()
        .map(|k| {
            let piece = ([(k >> 96) as u32, (k >> 64) as u32], (k >> 32) as u32);
            (piece, k & 1 == 0)
        })
        .unzip()
}

/// Tests one pair of segments exactly and records the splits it needs as (segment, point).
fn split_pair(pts: &mut Points, segs: &[Piece], i: u32, j: u32, out: &mut Vec<(u32, u32)>) {
    let [ia, ib] = segs[i as usize].0;
    let [ja, jb] = segs[j as usize].0;
    let p = &pts.points;
    let (a, b, c, d) = (
        p[ia as usize],
        p[ib as usize],
        p[ja as usize],
        p[jb as usize],
    );
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    if (o1 > 0.0 && o2 > 0.0) || (o1 < 0.0 && o2 < 0.0) {
        return;
    }
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    if (o3 > 0.0 && o4 > 0.0) || (o3 < 0.0 && o4 < 0.0) {
        return;
    }
    if o1 != 0.0 && o2 != 0.0 && o3 != 0.0 && o4 != 0.0 {
        // Proper crossing: parametrize the shorter segment (smaller absolute error).
        let x = if (b - a).length_squared() <= (d - c).length_squared() {
            a + (b - a) * (o3 / (o3 - o4))
        } else {
            c + (d - c) * (o1 / (o1 - o2))
        };
        let lo = a.min(b).max(c.min(d));
        let hi = a.max(b).min(c.max(d));
        let x = x.clamp(lo, hi);
        // A crossing within a few ulps of one of the four endpoints is that endpoint: the other
        // segment is split there. Otherwise two nearly parallel segments meeting in a cluster
        // of nearly coincident vertices cross again just past each rounded crossing point, one
        // ulp further each pass, forever.
        let scale = a.abs().max(b.abs()).max(c.abs()).max(d.abs()).max_element();
        let snap = SNAP_ULPS * f64::EPSILON * scale;
        let near = [(ia, a, false), (ib, b, false), (ja, c, true), (jb, d, true)]
            .into_iter()
            .map(|(id, q, on_j)| (id, q.distance(x), on_j))
            .min_by(|p, q| p.1.total_cmp(&q.1));
        if let Some((id, _, on_j)) = near.filter(|n| n.1 <= snap) {
            out.push(if on_j { (i, id) } else { (j, id) });
            return;
        }
        let id = pts.id(x);
        out.push((i, id));
        out.push((j, id));
        return;
    }
    // Touching: an endpoint exactly on the other segment's interior.
    if o1 == 0.0 && strictly_within(a, b, c) {
        out.push((i, ja));
    }
    if o2 == 0.0 && strictly_within(a, b, d) {
        out.push((i, jb));
    }
    if o3 == 0.0 && strictly_within(c, d, a) {
        out.push((j, ia));
    }
    if o4 == 0.0 && strictly_within(c, d, b) {
        out.push((j, ib));
    }
}

/// For `p` collinear with `a b`: whether it lies strictly between them.
fn strictly_within(a: DVec2, b: DVec2, p: DVec2) -> bool {
    p != a
        && p != b
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Pairs of segments whose bounding boxes overlap and of which at least one is fresh, each pair
/// once, found through a uniform grid (flat bucket arrays): each fresh segment is tested against
/// the segments sharing its cells (a fresh pair only from its smaller index), and a pair counts
/// only in the cell holding the lower-left corner of the two boxes' intersection.
///
/// Fails, with what was counted, how many and a segment with many, when the grid entries (a
/// long segment is listed in every cell its box covers) or the pairs exceed `budget`.
fn candidate_pairs(
    p: &[DVec2],
    segs: &[Piece],
    fresh: &[bool],
    out: &mut Vec<(u32, u32)>,
    budget: usize,
) -> Result<(), (&'static str, usize, u32)> {
    out.clear();
    if segs.len() < 2 || !fresh.iter().any(|&f| f) {
        return Ok(());
    }
    let bbox = |s: &[u32; 2]| {
        let (a, b) = (p[s[0] as usize], p[s[1] as usize]);
        (a.min(b), a.max(b))
    };
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    let mut total = 0.0;
    for (s, _) in segs {
        let (a, b) = bbox(s);
        lo = lo.min(a);
        hi = hi.max(b);
        total += (b - a).max_element();
    }
    let n = segs.len() as f64;
    let size = (hi - lo).max(DVec2::splat(1e-9));
    let cell = (total / n)
        .max((size.x * size.y / (4.0 * n)).sqrt())
        .max(size.max_element() / 4096.0)
        .max(1e-12);
    let nx = ((size.x / cell) as usize + 1).min(4097);
    let ny = ((size.y / cell) as usize + 1).min(4097);
    let cell_of = |q: DVec2| {
        let c = (q - lo) / cell;
        (
            (c.x.max(0.0) as usize).min(nx - 1),
            (c.y.max(0.0) as usize).min(ny - 1),
        )
    };
    // Cell ranges per segment, then bucket starts (counting sort) and bucket contents.
    let ranges: Vec<[u32; 4]> = segs
        .iter()
        .map(|(s, _)| {
            let (a, b) = bbox(s);
            let ((x0, y0), (x1, y1)) = (cell_of(a), cell_of(b));
            [x0 as u32, y0 as u32, x1 as u32, y1 as u32]
        })
        .collect();
    let cover = |r: &[u32; 4]| (r[2] - r[0] + 1) as usize * (r[3] - r[1] + 1) as usize;
    let entries: usize = ranges.iter().map(cover).sum();
    if entries > budget {
        let widest = (0..ranges.len())
            .max_by_key(|&i| cover(&ranges[i]))
            .unwrap_or(0);
        return Err(("grid entries", entries, widest as u32));
    }
    let cells = Buckets::new(nx * ny, || {
        ranges.iter().enumerate().flat_map(move |(i, r)| {
            (r[1]..=r[3]).flat_map(move |y| {
                (r[0]..=r[2]).map(move |x| (y as usize * nx + x as usize, i as u32))
            })
        })
    });
    for (i, r) in ranges.iter().enumerate() {
        if !fresh[i] {
            continue;
        }
        let (ai, bi) = bbox(&segs[i].0);
        for y in r[1]..=r[3] {
            for x in r[0]..=r[2] {
                let c = y as usize * nx + x as usize;
                for &j in cells.get(c) {
                    let ju = j as usize;
                    if ju == i || (fresh[ju] && ju < i) {
                        continue;
                    }
                    let (aj, bj) = bbox(&segs[ju].0);
                    let (l, h) = (ai.max(aj), bi.min(bj));
                    if l.x > h.x || l.y > h.y {
                        continue;
                    }
                    let (cx, cy) = cell_of(l);
                    if cy * nx + cx == c {
                        out.push((i as u32, j));
                    }
                }
            }
        }
        if out.len() > budget {
            return Err(("candidate pairs", out.len(), i as u32));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(points: &[(f64, f64)], segs: &[[u32; 2]]) -> (Points, Vec<Piece>) {
        let mut pts = Points::default();
        for &(x, y) in points {
            pts.id(DVec2::new(x, y));
        }
        let out = planarize(&mut pts, segs, usize::MAX).unwrap();
        (pts, out)
    }

    #[test]
    fn crossing_segments_are_split_at_the_crossing() {
        let (pts, out) = run(&[(0., 0.), (2., 2.), (0., 2.), (2., 0.)], &[[0, 1], [2, 3]]);
        assert_eq!(pts.points.len(), 5);
        assert_eq!(pts.points[4], DVec2::new(1.0, 1.0));
        assert_eq!(out.len(), 4);
    }

    #[test]
    fn collinear_overlaps_merge_and_touching_corners_split() {
        // [0,2] and [1,3] on one line; a vertical segment ending on the first's interior.
        let (_, out) = run(
            &[(0., 0.), (2., 0.), (1., 0.), (3., 0.), (0.5, 0.), (0.5, 1.)],
            &[[0, 1], [2, 3], [4, 5]],
        );
        // [1, 2] (from x = 1 to 2) lies on both input segments 0 and 1.
        assert_eq!(
            out,
            vec![
                ([0, 4], 0),
                ([1, 2], 0),
                ([1, 2], 1),
                ([1, 3], 1),
                ([2, 4], 0),
                ([4, 5], 2)
            ]
        );
    }

    #[test]
    fn negative_zero_and_tiny_magnitudes_are_zero() {
        let mut pts = Points::default();
        assert_eq!(pts.id(DVec2::new(0.0, 1.0)), pts.id(DVec2::new(-0.0, 1.0)));
        assert_eq!(
            pts.id(DVec2::new(0.0, 1.0)),
            pts.id(DVec2::new(1e-311, 1.0))
        );
        assert_eq!(pts.points[0].x.to_bits(), 0);
    }

    /// The table grows from empty and from a small capacity through many doublings; every point
    /// keeps the id of its first insertion, repeats (exact, and after growth) find it, and points
    /// differing only in a low bit or only in sign stay distinct.
    #[test]
    fn ids_follow_insertion_order_through_growth() {
        for mut pts in [Points::default(), Points::with_capacity(3)] {
            let grid: Vec<DVec2> = (0..3000)
                .map(|i| DVec2::new((i % 60) as f64 + 0.4, (i / 60) as f64 - 1.8))
                .collect();
            for (i, &p) in grid.iter().enumerate() {
                assert_eq!(pts.id(p), i as u32);
            }
            for (i, &p) in grid.iter().enumerate().rev() {
                assert_eq!(pts.id(p), i as u32);
            }
            let n = grid.len() as u32;
            let near = DVec2::new(f64::from_bits(grid[7].x.to_bits() + 1), grid[7].y);
            assert_eq!(pts.id(near), n);
            assert_eq!(pts.id(-grid[7]), n + 1);
            assert_eq!(pts.id(grid[7]), 7);
            assert_eq!(pts.points.len(), grid.len() + 2);
        }
    }
}
