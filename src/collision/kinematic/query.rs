//! The movers' queries, each the static mesh's question asked of the mover pieces:
//! - [`Movers::inside`]: the first mover piece strictly containing a point.
//! - [`Movers::first_hit`]: where a segment first enters any mover piece (Cyrus–Beck clipping of
//!   the segment against each convex inflated piece whose box it reaches), and through which
//!   edge. A segment running along an edge's line, or touching a corner, does not enter.
//! - [`Movers::support_below`]: a walkable top edge of a mover within a probe distance below the
//!   feet (landing on a mover, walking from the static ground onto one).
//! - [`Movers::nudge_out`]: a point that rounded inside a piece moved out of it.
//!
//! Each runs in the mover's frame `p − offset` with the exact [`orient`] (see the parent
//! module), over the movers the sweep finds near its region (`sweep`).
//!
//! Must never depend on anything but the rest of the collision core.
use glam::DVec2;

use super::super::predicates::{orient, Aabb};
use super::{
    InflatedConvex, MoverEdge, MoverHit, Movers, MAX_NUDGES, NUDGE_START, ONE_WAY_MIN_NORMAL_Y,
};

impl Movers {
    /// The first solid mover piece (in the sweep's order, then the mover's) whose inflation by
    /// collider `c` strictly contains the feet `p`, other than `skip`. One-way movers are not
    /// asked: a body may be inside them.
    pub fn inside(&self, c: usize, p: DVec2, skip: Option<(u32, u16)>) -> Option<(u32, u16)> {
        self.inside_where(c, p, skip, false)
    }

    /// The first one-way mover piece whose inflation by collider `c` strictly contains `p`.
    pub fn inside_one_way(&self, c: usize, p: DVec2) -> Option<(u32, u16)> {
        if !self.any_one_way {
            return None;
        }
        self.inside_where(c, p, None, true)
    }

    fn inside_where(
        &self,
        c: usize,
        p: DVec2,
        skip: Option<(u32, u16)>,
        one_way: bool,
    ) -> Option<(u32, u16)> {
        let region = Aabb { min: p, max: p };
        self.near(c, region).find_map(|m| {
            if self.one_way[m as usize] != one_way {
                return None;
            }
            let q = p - self.offset(m);
            self.inflated[m as usize][c]
                .iter()
                .enumerate()
                .find(|&(k, piece)| {
                    skip != Some((m, k as u16))
                        && piece.bounds.contains(q)
                        && piece.strictly_contains(q)
                })
                .map(|(k, _)| (m, k as u16))
        })
    }

    /// Where the segment from `a` by `d` first enters the inflation by collider `c` of any mover
    /// piece other than `skip` (see the module docs); `None` when it enters none. A one-way
    /// mover is entered only through a top going down, and not at all with `pass_one_way`.
    pub fn first_hit(
        &self,
        c: usize,
        a: DVec2,
        d: DVec2,
        skip: Option<(u32, u16)>,
        pass_one_way: bool,
    ) -> Option<MoverHit> {
        if self.is_empty() {
            return None;
        }
        let region = Aabb::from_points([a, a + d]);
        let mut best: Option<MoverHit> = None;
        for m in self.near(c, region) {
            let one_way = self.one_way[m as usize];
            if one_way && (pass_one_way || d.y >= 0.0) {
                continue;
            }
            let q0 = a - self.offset(m);
            let seg = Aabb::from_points([q0, q0 + d]);
            for (k, piece) in self.inflated[m as usize][c].iter().enumerate() {
                if skip == Some((m, k as u16)) || !piece.bounds.overlaps(&seg) {
                    continue;
                }
                if let Some((t, edge)) = enter(piece, q0, d) {
                    if one_way && piece.normal(edge).y < ONE_WAY_MIN_NORMAL_Y {
                        // Into a one-way piece's side or bottom: passes.
                        continue;
                    }
                    if best.is_none_or(|b| t < b.t) {
                        best = Some(MoverHit {
                            at: MoverEdge {
                                mover: m,
                                piece: k as u16,
                                edge: edge as u16,
                            },
                            t,
                            normal: piece.normal(edge),
                        });
                    }
                }
            }
        }
        best
    }

    /// A walkable edge of a mover piece (outward normal `y` at least `min_normal_y`) under the
    /// feet `p`: `p` within `probe` above it (measured along the vertical), over its span, and not
    /// strictly inside that piece. The nearest such edge, with the point on it under `p` (world).
    /// One-way movers are skipped with `pass_one_way` (a drop-through).
    pub fn support_below(
        &self,
        c: usize,
        p: DVec2,
        probe: f64,
        min_normal_y: f64,
        pass_one_way: bool,
    ) -> Option<(MoverEdge, DVec2)> {
        if self.is_empty() {
            return None;
        }
        let region = Aabb {
            min: p - DVec2::new(0.0, probe),
            max: p,
        };
        let mut best: Option<(MoverEdge, DVec2, f64)> = None;
        for m in self.near(c, region) {
            if pass_one_way && self.one_way[m as usize] {
                continue;
            }
            let q = p - self.offset(m);
            for (k, piece) in self.inflated[m as usize][c].iter().enumerate() {
                if !piece.bounds.expand(probe).contains(q) || piece.strictly_contains(q) {
                    continue;
                }
                for i in 0..piece.verts.len() {
                    let n = piece.normal(i);
                    if n.y < min_normal_y {
                        continue;
                    }
                    let (ea, eb) = piece.edge(i);
                    let (lo, hi) = (ea.x.min(eb.x), ea.x.max(eb.x));
                    if q.x < lo || q.x > hi || eb.x == ea.x {
                        continue;
                    }
                    let y = ea.y + (eb.y - ea.y) * (q.x - ea.x) / (eb.x - ea.x);
                    let gap = q.y - y;
                    if (-1e-9..=probe).contains(&gap) && best.is_none_or(|b| gap < b.2) {
                        let at = MoverEdge {
                            mover: m,
                            piece: k as u16,
                            edge: i as u16,
                        };
                        best = Some((at, DVec2::new(q.x, y) + self.offset(m), gap));
                    }
                }
            }
        }
        best.map(|(e, p, _)| (e, p))
    }

    /// `p` moved out of piece `e` (inflated by collider `c`) along `dir` by doubling steps until
    /// it is not strictly inside it (`p` itself when it is not); see the module docs.
    pub fn nudge_out(&self, e: MoverEdge, c: usize, p: DVec2, dir: DVec2) -> DVec2 {
        let piece = self.piece(e, c);
        let o = self.offset(e.mover);
        let mut step = NUDGE_START * p.abs().max_element().max(1.0);
        let mut q = p;
        for _ in 0..MAX_NUDGES {
            if !piece.strictly_contains(q - o) {
                return q;
            }
            q = p + dir * step;
            step *= 2.0;
        }
        q
    }
}

/// Where the segment from `q0` by `d` (the piece's frame) enters `piece`'s interior: the fraction
/// `t` in `[0, 1]` and the edge entered through. Cyrus–Beck: the segment is inside an edge's
/// half-plane past its crossing; it enters the interior when it is inside every half-plane over a
/// stretch of positive length. An edge whose line the segment runs along, with the segment on it
/// or outside, keeps it out (exact [`orient`] for that case).
fn enter(piece: &InflatedConvex, q0: DVec2, d: DVec2) -> Option<(f64, usize)> {
    let n = piece.verts.len();
    let (mut t_in, mut t_out, mut edge) = (0.0_f64, 1.0_f64, usize::MAX);
    for i in 0..n {
        let (a, b) = piece.edge(i);
        let e = b - a;
        // Outward normal, unnormalised: (e.y, −e.x). Inside: normal · (q − a) < 0.
        let nrm = DVec2::new(e.y, -e.x);
        let side = nrm.dot(q0 - a);
        let rate = nrm.dot(d);
        if rate == 0.0 {
            // Parallel: outside or on the line for the whole segment keeps it out.
            if orient(a, b, q0) <= 0.0 {
                return None;
            }
            continue;
        }
        let t = -side / rate;
        if rate < 0.0 {
            // Entering this half-plane at t.
            if t > t_in || (edge == usize::MAX && t >= t_in) {
                t_in = t.max(0.0);
                edge = i;
            }
        } else if t < t_out {
            t_out = t;
        }
        if t_in >= t_out {
            return None;
        }
    }
    if edge == usize::MAX {
        // Inside every half-plane from the start (the start is inside): no entry to report.
        return None;
    }
    (t_in < t_out && t_in <= 1.0).then_some((t_in, edge))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{square, unit_box};
    use super::*;

    #[test]
    fn a_segment_enters_through_the_edge_it_crosses_and_not_along_an_edge() {
        let m = Movers::new(&[vec![square()]], &[unit_box()]);
        // Falling onto the top from above.
        let hit = m
            .first_hit(0, DVec2::new(1.0, 3.0), DVec2::new(0.0, -4.0), None, false)
            .unwrap();
        assert_eq!(hit.t, 0.5);
        assert_eq!(hit.normal, DVec2::new(0.0, 1.0));
        // Walking along the top (on its line), and from the side onto the top's line: no entry.
        assert_eq!(
            m.first_hit(0, DVec2::new(-3.0, 1.0), DVec2::new(8.0, 0.0), None, false),
            None
        );
        // Into the left side.
        let side = m
            .first_hit(0, DVec2::new(-3.0, 0.5), DVec2::new(5.0, 0.0), None, false)
            .unwrap();
        assert_eq!(side.t, 0.5);
        assert_eq!(side.normal, DVec2::new(-1.0, 0.0));
        // Touching a corner only.
        assert_eq!(
            m.first_hit(0, DVec2::new(-1.5, 0.0), DVec2::new(2.0, 2.0), None, false),
            None
        );
        // Stopping short, and skipping the piece.
        assert_eq!(
            m.first_hit(0, DVec2::new(1.0, 3.0), DVec2::new(0.0, -1.5), None, false),
            None
        );
        assert_eq!(
            m.first_hit(
                0,
                DVec2::new(1.0, 3.0),
                DVec2::new(0.0, -4.0),
                Some((0, 0)),
                false
            ),
            None
        );
    }

    #[test]
    fn a_one_way_mover_is_entered_only_through_its_top_going_down() {
        let m = Movers::new(&[vec![square()]], &[unit_box()]).with_one_way(&[true]);
        // Falling onto the top: the same hit as a solid mover's.
        let hit = m
            .first_hit(0, DVec2::new(1.0, 3.0), DVec2::new(0.0, -4.0), None, false)
            .unwrap();
        assert_eq!((hit.t, hit.normal), (0.5, DVec2::new(0.0, 1.0)));
        // Unless passing (a drop-through).
        assert_eq!(
            m.first_hit(0, DVec2::new(1.0, 3.0), DVec2::new(0.0, -4.0), None, true),
            None
        );
        // Up through the bottom, into the side, and down from inside: no entry.
        for (a, d) in [
            (DVec2::new(1.0, -3.0), DVec2::new(0.0, 4.0)),
            (DVec2::new(-3.0, 0.5), DVec2::new(5.0, 0.0)),
            (DVec2::new(-3.0, 0.5), DVec2::new(5.0, -0.1)),
            (DVec2::new(1.0, 0.5), DVec2::new(0.0, -4.0)),
        ] {
            assert_eq!(m.first_hit(0, a, d, None, false), None, "{a} by {d}");
        }
        // Inside it is not "inside" for pushes, but it is found as one-way.
        assert_eq!(m.inside(0, DVec2::new(1.0, 0.5), None), None);
        assert_eq!(m.inside_one_way(0, DVec2::new(1.0, 0.5)), Some((0, 0)));
        // Its top carries (unless passing).
        assert!(m
            .support_below(0, DVec2::new(1.0, 1.01), 0.02, 0.7, false)
            .is_some());
        assert!(m
            .support_below(0, DVec2::new(1.0, 1.01), 0.02, 0.7, true)
            .is_none());
    }

    #[test]
    fn support_below_finds_the_walkable_top_and_nudging_leaves_a_piece() {
        let mut m = Movers::new(&[vec![square()]], &[unit_box()]);
        m.set_offsets([DVec2::new(0.1, 0.2)]);
        let (e, at) = m
            .support_below(0, DVec2::new(1.0, 1.21), 0.02, 0.7, false)
            .unwrap();
        assert_eq!(m.piece(e, 0).normal(e.edge as usize), DVec2::new(0.0, 1.0));
        assert!((at.y - 1.2).abs() < 1e-15);
        assert_eq!(
            m.support_below(0, DVec2::new(1.0, 1.25), 0.02, 0.7, false),
            None
        );
        // A point an ulp inside the top is nudged out along the normal by a few ulps.
        let inside = DVec2::new(1.0, 1.2 - 1e-15);
        assert!(m.inside(0, inside, None).is_some());
        let out = m.nudge_out(e, 0, inside, DVec2::Y);
        assert!(m.inside(0, out, None).is_none());
        assert!(out.y - inside.y < 1e-10);
    }
}
