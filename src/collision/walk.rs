//! The move loop: walking a segment across faces and sliding along blocking edges.
//!
//! A body is a point plus the face containing it. A move from `p` to `target` repeatedly asks the
//! current face which of its edges the target lies strictly beyond (exact [`orient`] tests). With
//! one such edge, that is the exit; with two, the exact side of their shared vertex relative to the
//! line of travel decides which the segment crosses first (a segment through the vertex takes the
//! first; the walk then continues from the vertex). The crossing point is clamped onto the exit
//! edge, so the position is always on the closure of the face it is recorded in.
//!
//! Crossing into a free face just changes the face. Crossing a blocking edge (into a solid face,
//! or down through a one-way top) stops on the edge, removes the displacement component into the
//! edge and continues along it with what remains. The face is never changed at a blocking edge,
//! which is why rounding can never put a body inside a wall: the face is the source of truth.
//!
//! # Tolerances
//! - [`MIN_SLIDE`] (1e-12 m): a remaining slide shorter than this ends the move. Far below any
//!   visible distance, far above the ~1e-16 relative rounding of a projection.
//! - [`TOUCH_DISTANCE`] (1e-9 m): a previous contact edge still counts as touched within this
//!   distance, for wedge detection. Matches the accuracy of crossing points near 1e5 m.
//! - [`MAX_STEPS`]: face crossings plus collisions per move, so the walk always terminates.
//!
//! Rules that keep sliding stable: the edge being slid along is not re-tested in its own face (a
//! slide parallel to it can only "cross" it by rounding); a slide that would turn back against the
//! original displacement stops (no ping-pong in wedges); a slide that would push into the previous
//! contact edge while still touching it stops (the corner of a wedge).
use glam::DVec2;

use super::mesh::{CollisionMesh, EdgeRef, FaceId, FaceKind};
use super::polygon::PolygonId;
use super::predicates::{closest_on_segment, cross, orient};

/// A slide shorter than this (metres) ends the move.
pub const MIN_SLIDE: f64 = 1e-12;
/// Distance (metres) within which a previous contact edge still counts as touched.
pub const TOUCH_DISTANCE: f64 = 1e-9;
/// Upper bound on face crossings plus collisions in one move.
pub const MAX_STEPS: usize = 1 << 16;

/// A body on a mesh: its reference point (the collider's feet) and the face containing it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Body {
    /// Position of the reference point.
    pub pos: DVec2,
    /// The face containing `pos` (closed triangle): the source of truth for "inside or outside".
    pub face: FaceId,
}

/// Options for a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveOptions {
    /// Let the body pass down through one-way tops (dropping through a platform).
    pub pass_one_way: bool,
}

/// A blocking edge met during a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The edge, as seen from the body's (free) face.
    pub edge: EdgeRef,
    /// Unit normal of the edge pointing out of the obstacle, into free space.
    pub normal: DVec2,
    /// Where the body touched the edge.
    pub point: DVec2,
    /// The first source polygon whose inflated outline the edge lies on.
    pub source: Option<PolygonId>,
    /// Distance travelled before the contact, as a fraction of the requested displacement's length.
    pub fraction: f64,
}

/// Why a move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveEnd {
    /// The full (possibly slid) displacement was used.
    Completed,
    /// A blocking edge absorbed what was left (head-on hit, or a ray cast hit).
    Blocked,
    /// The slide would have turned back or pushed into a second wall: stuck in a wedge.
    Wedged,
    /// [`MAX_STEPS`] reached; the body is still consistent where it stopped.
    StepLimit,
}

/// The outcome of [`CollisionMesh::move_and_slide`].
#[derive(Clone, Debug, PartialEq)]
pub struct MoveResult {
    /// The body after the move.
    pub body: Body,
    /// Every blocking edge met, in order.
    pub contacts: Vec<Contact>,
    /// Length of the path actually travelled.
    pub travelled: f64,
    /// Why the move ended.
    pub end: MoveEnd,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Slide,
    StopAtFirst,
}

impl CollisionMesh {
    /// Whether moving out of `e.face` across `e` is blocked.
    #[inline]
    pub fn blocks(&self, e: EdgeRef, opts: MoveOptions) -> bool {
        let g = self.face(e.face).adj[e.edge as usize];
        match self.kind(g) {
            FaceKind::Solid => true,
            FaceKind::Free => false,
            FaceKind::OneWay => !opts.pass_one_way && self.is_one_way_top(e),
        }
    }

    /// Moves `body` by `displacement`, sliding along blocking edges. See the module docs.
    pub fn move_and_slide(&self, body: Body, displacement: DVec2, opts: MoveOptions) -> MoveResult {
        self.walk(body, displacement, opts, Mode::Slide)
    }

    /// Walks `body` along `displacement` and stops at the first blocking edge (no slide).
    pub fn cast(&self, body: Body, displacement: DVec2, opts: MoveOptions) -> MoveResult {
        self.walk(body, displacement, opts, Mode::StopAtFirst)
    }

    fn walk(&self, body: Body, d: DVec2, opts: MoveOptions, mode: Mode) -> MoveResult {
        let mut res = MoveResult {
            body,
            contacts: Vec::new(),
            travelled: 0.0,
            end: MoveEnd::Completed,
        };
        if !d.is_finite() || d == DVec2::ZERO {
            return res;
        }
        let d_len = d.length();
        let (mut p, mut f) = (body.pos, body.face);
        let mut start = p;
        let mut target = p + d;
        let mut skip: Option<EdgeRef> = None;
        let mut last: Option<(DVec2, DVec2, DVec2)> = None;
        let mut steps = 0;
        loop {
            steps += 1;
            if steps > MAX_STEPS {
                res.end = MoveEnd::StepLimit;
                break;
            }
            let tri = self.triangle(f);
            let mut out = [false; 3];
            for (i, o) in out.iter_mut().enumerate() {
                if skip
                    != Some(EdgeRef {
                        face: f,
                        edge: i as u8,
                    })
                {
                    *o = orient(tri[i], tri[(i + 1) % 3], target) < 0.0;
                }
            }
            let i = match (out[0], out[1], out[2]) {
                (false, false, false) => {
                    res.travelled += p.distance(target);
                    p = target;
                    break;
                }
                (true, false, false) => 0,
                (false, true, false) => 1,
                (false, false, true) => 2,
                (true, true, _) => self.first_crossed(f, 0, &tri, start, target, opts),
                (false, true, true) => self.first_crossed(f, 1, &tri, start, target, opts),
                (true, false, true) => self.first_crossed(f, 2, &tri, start, target, opts),
            };
            let e = EdgeRef {
                face: f,
                edge: i as u8,
            };
            let (a, b) = (tri[i], tri[(i + 1) % 3]);
            let dp = cross(b - a, p - a);
            let dq = cross(b - a, target - a);
            let t = if dp - dq != 0.0 {
                (dp / (dp - dq)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (x, _) = closest_on_segment(p + (target - p) * t, a, b);
            res.travelled += p.distance(x);
            p = x;
            if !self.blocks(e, opts) {
                f = self.face(f).adj[i];
                skip = None;
                continue;
            }
            let n = self.edge_normal(e);
            res.contacts.push(Contact {
                edge: e,
                normal: n,
                point: x,
                source: self.edge_sources(e).first().copied(),
                fraction: res.travelled / d_len,
            });
            if mode == Mode::StopAtFirst {
                res.end = MoveEnd::Blocked;
                break;
            }
            let r = target - x;
            let r_t = r - n * r.dot(n);
            let len = r_t.length();
            if len <= MIN_SLIDE {
                res.end = MoveEnd::Blocked;
                break;
            }
            if r_t.dot(d) <= 0.0 {
                res.end = MoveEnd::Wedged;
                break;
            }
            if let Some((n0, a0, b0)) = last {
                let (c, _) = closest_on_segment(x, a0, b0);
                if c.distance(x) <= TOUCH_DISTANCE && r_t.dot(n0) < -1e-9 * len {
                    res.end = MoveEnd::Wedged;
                    break;
                }
            }
            last = Some((n, a, b));
            skip = Some(e);
            start = x;
            target = x + r_t;
        }
        res.body = Body { pos: p, face: f };
        res
    }

    /// Casts a ray from `body` along `displacement`; the first blocking edge hit, if any.
    pub fn ray_cast(&self, body: Body, displacement: DVec2, opts: MoveOptions) -> Option<Contact> {
        self.cast(body, displacement, opts)
            .contacts
            .first()
            .copied()
    }
}

impl CollisionMesh {
    /// Of edges `k` and `k + 1` of face `f` (sharing vertex `k + 1`), the one the line
    /// `start -> target` crosses first, by the exact side of the shared vertex. A line exactly
    /// through the vertex touches neither edge's interior: it leaves through a passable edge if
    /// there is one (rotating around the vertex), so grazing an obstacle's corner is no collision.
    #[inline]
    fn first_crossed(&self, f: FaceId, k: usize, tri: &[DVec2; 3], start: DVec2, target: DVec2, opts: MoveOptions) -> usize {
        let w = tri[(k + 1) % 3];
        let o = orient(start, target, w);
        if o > 0.0 || (o == 0.0 && !self.blocks(EdgeRef { face: f, edge: k as u8 }, opts)) {
            k
        } else {
            (k + 1) % 3
        }
    }
}
