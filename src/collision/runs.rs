//! The kept constraint runs before triangulation: dropping dangling ones and merging straight
//! chains through junctions into single edges.
//!
//! A *run* is one distinct constraint segment after splitting: `split[start..end]` in
//! [`super::build`], all pieces with the same pair of point ids (identical pieces of several
//! inflated outlines). Owns only these two simplifications; must never depend on spade or on the
//! mesh types.
use glam::DVec2;

use super::buckets::Buckets;
use super::planarize::Piece;
use super::predicates::orient;

/// The kept runs ending at each point (run indices), from the runs' point pairs.
fn runs_at_points(split: &[Piece], runs: &[(usize, usize)], points: usize) -> Buckets<u32> {
    Buckets::new(points, || {
        runs.iter()
            .enumerate()
            .flat_map(|(r, &(s, _))| split[s].0.map(move |p| (p as usize, r as u32)))
    })
}

/// The other end of run `r` from point `p`.
fn other_end(split: &[Piece], runs: &[(usize, usize)], r: u32, p: u32) -> u32 {
    let [a, b] = split[runs[r as usize].0].0;
    if a == p {
        b
    } else {
        a
    }
}

/// Removes dangling runs: a run with an end that no other run touches, repeatedly (so whole
/// dangling trees go). The edges between different kinds of space (free, one-way, solid: the
/// outside of the bounds is solid) form closed loops, so every point on them has at least two
/// such edges; a run ending at a point of degree 1 is therefore not one of them. It has the same
/// kind on both sides, bounds nothing, and leaving it out only merges two regions of one kind.
/// On the tile bench level these are edges along one piece's outline inside the union of others
/// (each piece holds part of its neighbourhood, none the whole run): about a fifth of the kept
/// runs for the box collider, a third of the vertices for the chamfered one.
pub(crate) fn prune_dangling(runs: &mut Vec<(usize, usize)>, split: &[Piece], points: usize) {
    let at = runs_at_points(split, runs, points);
    let mut degree: Vec<u32> = (0..points).map(|p| at.get(p).len() as u32).collect();
    let mut alive = vec![true; runs.len()];
    let mut stack: Vec<u32> = (0..points as u32)
        .filter(|&p| degree[p as usize] == 1)
        .collect();
    while let Some(p) = stack.pop() {
        if degree[p as usize] != 1 {
            continue;
        }
        let Some(&r) = at.get(p as usize).iter().find(|&&r| alive[r as usize]) else {
            continue;
        };
        alive[r as usize] = false;
        degree[p as usize] = 0;
        let q = other_end(split, runs, r, p) as usize;
        degree[q] -= 1;
        if degree[q] == 1 {
            stack.push(q as u32);
        }
    }
    let mut r = 0;
    runs.retain(|_| {
        r += 1;
        alive[r - 1]
    });
}

/// The most parts one constraint edge through junctions may have: a contact looks its part up by
/// binary search, and a 400-tile floor would otherwise be one edge of 400 parts. Chains longer
/// than this keep every 8th junction as a vertex (7 of 8 junctions are still left out).
pub(crate) const MAX_EDGE_PARTS: usize = 8;

/// Junctions: kept points where exactly two kept runs meet, collinear and on opposite sides
/// (where the top edges of neighbouring tiles' inflated pieces overlap, a run ends at each
/// piece's corner). A junction bounds nothing: the line goes straight on. So a straight chain of
/// runs through junctions becomes one constraint edge, with the junctions left out of the
/// triangulation (about a quarter of the vertices of the 10 000-tile bench level), and its
/// source list records which runs' lists apply from which junction on
/// ([`super::mesh::SourceLists::push_parts`]): attribution stays exact per point. Every chain is
/// cut into edges of at most [`MAX_EDGE_PARTS`] parts.
pub(crate) struct Junctions<'a> {
    split: &'a [Piece],
    runs: &'a [(usize, usize)],
    /// The runs ending at each point.
    at: Buckets<u32>,
    /// Per point: a junction (left out of the triangulation).
    pub(crate) is_junction: Vec<bool>,
}

impl<'a> Junctions<'a> {
    /// Finds the junctions among `points` and cuts the chains through them. Points for which
    /// `pinned` holds are never junctions (a chunk's border points, which its neighbour shares).
    pub(crate) fn find(
        points: &[DVec2],
        split: &'a [Piece],
        runs: &'a [(usize, usize)],
        pinned: impl Fn(DVec2) -> bool,
    ) -> Self {
        let at = runs_at_points(split, runs, points.len());
        let is_junction = (0..points.len())
            .map(|p| {
                // The frame's corners (0..4) stay, whatever lies around them.
                let ends = at.get(p);
                p >= 4 && ends.len() == 2 && !pinned(points[p]) && {
                    let [u, w] = [ends[0], ends[1]]
                        .map(|r| points[other_end(split, runs, r, p as u32) as usize]);
                    let v = points[p];
                    orient(u, v, w) == 0.0 && (u - v).dot(w - v) < 0.0
                }
            })
            .collect();
        let mut j = Junctions {
            split,
            runs,
            at,
            is_junction,
        };
        let mut cuts = Vec::new();
        j.for_each_edge(|_, _, chain| {
            cuts.extend(
                chain
                    .iter()
                    .skip(MAX_EDGE_PARTS)
                    .step_by(MAX_EDGE_PARTS)
                    .map(|&(from, _)| from),
            );
        });
        for p in cuts {
            j.is_junction[p as usize] = false;
        }
        j
    }

    /// Calls `f(a, b, chain)` once per constraint edge: its two end points and, from `a` on,
    /// each run of the chain with the point it starts at (one run for an edge with no junction).
    pub(crate) fn for_each_edge(&self, mut f: impl FnMut(u32, u32, &[(u32, u32)])) {
        let mut done = vec![false; self.runs.len()];
        let mut chain: Vec<(u32, u32)> = Vec::new();
        for r in 0..self.runs.len() {
            if done[r] {
                continue;
            }
            let [a, b] = self.split[self.runs[r].0].0;
            let (ja, jb) = (self.is_junction[a as usize], self.is_junction[b as usize]);
            if ja && jb {
                // Inside a chain: walked from one of the chain's ends.
                continue;
            }
            let (start, mut next) = if ja { (b, a) } else { (a, b) };
            let mut run = r as u32;
            chain.clear();
            chain.push((start, run));
            done[r] = true;
            while self.is_junction[next as usize] {
                let ends = self.at.get(next as usize);
                let r2 = if ends[0] == run { ends[1] } else { ends[0] };
                chain.push((next, r2));
                done[r2 as usize] = true;
                next = other_end(self.split, self.runs, r2, next);
                run = r2;
            }
            f(start, next, &chain);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dangling_runs_are_pruned_and_loops_kept() {
        // Points 0-3: a square loop; 4-5: a tail hanging off corner 2; 6-7: a lone segment;
        // 8-10: a triangle touching the square at corner 0 (a pinch: degree 4 there).
        let pairs: [[u32; 2]; 12] = [
            [0, 1],
            [1, 2],
            [2, 3],
            [0, 3],
            [2, 4],
            [4, 5],
            [6, 7],
            [0, 8],
            [8, 9],
            [0, 9],
            [9, 10],
            [3, 3],
        ];
        // One split piece per run (the last, degenerate pair never occurs; it is not a run).
        let split: Vec<Piece> = pairs.iter().map(|&p| (p, 0)).collect();
        let mut runs: Vec<(usize, usize)> = (0..11).map(|k| (k, k + 1)).collect();
        prune_dangling(&mut runs, &split, 11);
        let kept: Vec<[u32; 2]> = runs.iter().map(|&(s, _)| split[s].0).collect();
        assert_eq!(
            kept,
            [[0, 1], [1, 2], [2, 3], [0, 3], [0, 8], [8, 9], [0, 9]]
        );
    }
}
