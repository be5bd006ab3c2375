//! The move loop: walking a segment across faces and sliding along blocking edges.
//!
//! # State
//! A body is a point plus the face containing it (on its closed triangle). The face, not the
//! coordinates, says which side of every edge the body is on: it only ever changes by crossing a
//! passable edge to the neighbour across it, never at a blocking edge, so rounding can move a body
//! by ulps *along* a wall but never into it.
//!
//! # One step of the walk
//! A move walks the segment from `start` to `target` (at first the body's position and
//! position + displacement). Each step asks the current face which of its edges the target lies
//! strictly beyond, with exact [`orient`] tests:
//! - none: the target is in the face; the move ends there;
//! - one: that edge is the exit;
//! - two (they share a vertex `w`): the exact side of `w` relative to the line `start -> target`
//!   says which the line crosses first.
//!
//! The crossing point is computed from the line (not from the current point, so rounding of
//! earlier crossings does not accumulate) and put onto the exit edge (exactly, for axis-aligned
//! edges), so the body always lies on the closure of the face it is recorded in. Crossing a
//! passable edge changes the face. Crossing a blocking edge (into a solid face; or, for a move
//! going down, from a free face down through a one-way top) is a contact: the body stops on the
//! edge, and the rest of the move is projected onto the edge's own vector and walked from there
//! (a slide). The slide keeps exactly the tangential component of what was left.
//!
//! # Passing through a vertex
//! When the line leaves the face exactly through a vertex (two crossed edges with the line exactly
//! through their shared vertex, or a blocking exit crossed exactly at one of its ends), the path
//! touches only that point. The walk rotates around the vertex through passable edges, either way,
//! to the face whose closed angle at the vertex holds the direction of travel, and continues
//! there from the vertex: grazing a corner, or running exactly along an obstacle's edge, is not a
//! collision. If both ways meet a blocking edge first, the body stops at the vertex against the
//! one of the two that points most along the remaining move, and slides along it; if neither
//! points along the move at all, the vertex is the bottom of a wedge and the move ends there.
//! So the outcome at a vertex depends on the geometry, never on how the triangulation happens to
//! fan around it. A vertex counts only if it lies between the current point and the target
//! (a move of a few ulps can be exactly collinear with a far-away vertex).
//!
//! # Sliding
//! While sliding along edge `e`, `e` is not re-tested in its own face (a slide parallel to it can
//! only "cross" it by rounding), and the slide leaves that face exactly through `e`'s vertex ahead
//! once it reaches it (a computed crossing would land ulps beside it, and in a sliver face the
//! other edges may not even test as crossed). Wedge corners are therefore reached exactly and
//! pushing into them frame after frame gives bit-identical positions. A slide ends the move when:
//! - it is shorter than [`MIN_SLIDE`] (head-on hit: [`MoveEnd::Blocked`]);
//! - it would turn back against the original displacement (no ping-pong in wedges:
//!   [`MoveEnd::Wedged`]);
//! - it would push into the previous contact edge, still touched within [`TOUCH_DISTANCE`], by
//!   more than [`WEDGE_PUSH`] of its length (the corner of a wedge: [`MoveEnd::Wedged`]).
//!
//! One-way tops block only moves whose displacement goes down (`y < 0`) or runs along them:
//! walking into a platform's bevelled side or jumping up through it passes, landing on it or
//! walking up a slanted one does not.
//!
//! # Tolerances
//! Topology (which side, which face) is always exact; these only bound distances and counts.
//! - [`MIN_SLIDE`] (1e-12 m): a remaining slide shorter than this ends the move. Far below any
//!   visible distance, far above the ~1e-16 relative rounding of a projection near the origin.
//! - [`TOUCH_DISTANCE`] (1e-9 m): a previous contact edge still counts as touched within this
//!   distance, for wedge detection. Above the rounding of crossing points at 1e5 m (~1e-11 m),
//!   far below anything a player could squeeze through.
//! - [`WEDGE_PUSH`] (1e-9, relative): a slide pushes into the previous contact edge only if its
//!   component into that edge exceeds this fraction of its length, so sliding from one tile's
//!   floor edge to the next (collinear up to rounding, ~1e-16) never counts as a wedge.
//! - [`ONE_WAY_GRAZE`] (1e-9, relative): a move this close to parallel to a one-way top runs
//!   along it and is held on it whatever its direction; rounding tilts a move along an edge by
//!   ~1e-16, a move meant to cut into the platform by far more.
//! - [`MAX_STEPS`] (65 536): face crossings plus contacts per move, so the walk always terminates
//!   (a move across a 10 000-tile level needs a few thousand).
//! - `MAX_FAN` (1024): faces visited around one vertex when passing through it.
//! - `END_ZONE` (1e-6 of the edge): a blocking edge crossed this close to an end is tested
//!   exactly for a pass through that end vertex, keeping the two extra exact tests off the
//!   common path. Crossings are accurate to ulps unless the line is within ~1e-10 rad of
//!   parallel to the edge; only then could a pass through the end be missed, and the body simply
//!   stops on the edge instead (never inside the obstacle).
//! - [`MAX_MOVE`] (1e9 m): longer displacements are shortened to this length, direction kept.
//!   Coordinates are limited to ±1e7 m and the level bounds are solid, so the outcome is the same,
//!   and products in the predicates and crossing computations stay far from `f64` overflow (a
//!   1e307 m move would otherwise overflow them and end outside every face).
use glam::DVec2;

use super::mesh::{CollisionMesh, EdgeRef, FaceId, FaceKind};
use super::polygon::PolygonId;
use super::predicates::{closest_on_segment, cross, orient};

/// A slide shorter than this (metres) ends the move.
pub(crate) const MIN_SLIDE: f64 = 1e-12;
/// Distance (metres) within which a previous contact edge still counts as touched.
pub(crate) const TOUCH_DISTANCE: f64 = 1e-9;
/// Fraction of a slide's length by which it must push into the previous contact edge to count as
/// wedged against it.
pub(crate) const WEDGE_PUSH: f64 = 1e-9;
/// Fraction of an edge's length from either end within which a computed crossing of a blocking
/// edge is checked exactly for passing through that end vertex (crossings are accurate to ulps
/// elsewhere, so no exact pass can hide there).
const END_ZONE: f64 = 1e-6;
/// Longest displacement walked (metres); longer ones are shortened to this, direction kept.
pub(crate) const MAX_MOVE: f64 = 1e9;
/// A move within this angle (radians, as a fraction of its length into the edge's normal) of
/// parallel to a one-way top counts as running along it, and is held on it even when not going
/// down.
pub(crate) const ONE_WAY_GRAZE: f64 = 1e-9;
/// Upper bound on face crossings plus collisions in one move.
pub(crate) const MAX_STEPS: usize = 1 << 16;
/// Upper bound on faces visited around one vertex when a move passes exactly through it.
const MAX_FAN: usize = 1024;

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
    /// The step limit (65 536 face crossings plus contacts in one move) reached; the body is
    /// still consistent where it stopped.
    StepLimit,
}

/// The contacts of one move: up to two inline (a slide meets one edge, or two at a corner), more
/// on the heap (a wedge). A move is the hot path of every tick: a heap allocation per move cost
/// about 15% of it, and a larger inline array costs copying the result.
pub type Contacts = smallvec::SmallVec<[Contact; 2]>;

/// The outcome of [`CollisionMesh::move_and_slide`].
#[derive(Clone, Debug, PartialEq)]
pub struct MoveResult {
    /// The body after the move.
    pub body: Body,
    /// Every blocking edge met, in order.
    pub contacts: Contacts,
    /// Length of the path actually travelled.
    pub travelled: f64,
    /// Why the move ended.
    pub end: MoveEnd,
}

impl MoveResult {
    /// A move of nothing yet from `body` (to be filled by [`CollisionMesh::move_and_slide_in`]).
    #[inline]
    pub fn at(body: Body) -> Self {
        MoveResult {
            body,
            contacts: Contacts::new(),
            travelled: 0.0,
            end: MoveEnd::Completed,
        }
    }
}

/// Outcome of a move's line passing exactly through a vertex.
enum Around {
    /// Continue in this face (its closed angle at the vertex holds the direction of travel).
    Pass(FaceId),
    /// Both ways around the vertex meet a blocking edge first: the one met rotating
    /// counter-clockwise, then clockwise (seen from the free face on their left).
    Blocked([Option<EdgeRef>; 2]),
}

/// What passing exactly through a vertex comes to ([`CollisionMesh::through_vertex`]).
enum AtVertex {
    /// Continue from the vertex in this face.
    Pass(FaceId),
    /// Stop at the vertex against this blocking edge (seen from its free face) and slide along it.
    Against(EdgeRef),
    /// Stop at the vertex against this blocking edge: the bottom of a wedge, the move ends.
    WedgeBottom(EdgeRef),
    /// Stop at the vertex, no blocking edge found around it (cannot happen on a valid mesh).
    Stuck,
}

/// The straight stretch of a move being walked: the move itself, then each slide.
struct Leg {
    /// The body's current point (on the closure of the current face).
    p: DVec2,
    /// Where the line starts: the move's start, or the contact point a slide starts from, or a
    /// vertex passed through. Crossings are computed from the line, not from `p`, so rounding of
    /// earlier crossings does not accumulate.
    start: DVec2,
    /// Where the line ends.
    target: DVec2,
    /// The blocking edge being slid along (not re-tested in its own face).
    skip: Option<EdgeRef>,
    /// The previous contact: the edge's normal and its ends (for wedge detection).
    last: Option<(DVec2, DVec2, DVec2)>,
}

impl Leg {
    /// The whole move `d` from `p`.
    #[inline(always)]
    fn new(p: DVec2, d: DVec2) -> Self {
        Leg {
            p,
            start: p,
            target: p + d,
            skip: None,
            last: None,
        }
    }

    /// Moves the body's point to `x`, adding the distance to `res.travelled`.
    #[inline(always)]
    fn advance(&mut self, res: &mut MoveResult, x: DVec2) {
        res.travelled += self.p.distance(x);
        self.p = x;
    }

    /// After a contact at `x` with blocking edge `e` (normal `n`, ends `ab`), the rest of the
    /// line projected onto the edge's own vector (not via the rounded unit normal, so a slide
    /// along an axis-aligned edge stays exactly on it) becomes the next leg; or why the move ends
    /// there: a slide too short ([`MIN_SLIDE`]), turning back against the whole move `d`, or
    /// pushing into the previous contact edge, still touched, by more than [`WEDGE_PUSH`].
    #[inline(always)]
    fn slide(
        &mut self,
        x: DVec2,
        e: EdgeRef,
        n: DVec2,
        (a, b): (DVec2, DVec2),
        d: DVec2,
    ) -> Option<MoveEnd> {
        let r = self.target - x;
        let ev = b - a;
        let r_t = ev * (r.dot(ev) / ev.length_squared());
        let len = r_t.length();
        if len <= MIN_SLIDE {
            return Some(MoveEnd::Blocked);
        }
        if r_t.dot(d) <= 0.0 {
            return Some(MoveEnd::Wedged);
        }
        if let Some((n0, a0, b0)) = self.last {
            let (c, _) = closest_on_segment(x, a0, b0);
            if c.distance(x) <= TOUCH_DISTANCE && r_t.dot(n0) < -WEDGE_PUSH * len {
                return Some(MoveEnd::Wedged);
            }
        }
        self.last = Some((n, a, b));
        self.skip = Some(e);
        self.start = x;
        self.target = x + r_t;
        None
    }
}

/// `d` shortened to [`MAX_MOVE`] if longer, direction kept: the same outcome (the level bounds
/// are solid and far closer), and every predicate and crossing stays far from overflow. Compared
/// squared: a square root here held up the start of every move (the length is needed only for
/// the contacts' fractions).
#[inline(always)]
fn capped(d: DVec2) -> DVec2 {
    if d.length_squared() > MAX_MOVE * MAX_MOVE {
        d * (MAX_MOVE / d.length())
    } else {
        d
    }
}

/// Where the line of `leg` crosses exit edge `i` (from `a` to `b`) of the current face: the
/// crossing of the line (not from the current point, so errors of earlier crossings do not
/// accumulate) with the edge, put onto the edge. A blocking exit (`blocked`) crossed exactly at
/// one of its ends is a pass through that vertex, whose local index is returned too (if the
/// vertex lies between the current point and the target; one outside that range is collinear by
/// coincidence, e.g. for a move of a few ulps). Only a crossing computed within `END_ZONE` of an
/// end can be one, so the exact tests run only there.
#[inline(always)]
fn exit_crossing(leg: &Leg, a: DVec2, b: DVec2, i: usize, blocked: bool) -> (DVec2, Option<usize>) {
    let (start, target) = (leg.start, leg.target);
    let dp = cross(b - a, start - a);
    let dq = cross(b - a, target - a);
    let t = if dp - dq != 0.0 {
        (dp / (dp - dq)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (q, s) = closest_on_segment(start + (target - start) * t, a, b);
    let mut through = None;
    if blocked && !(END_ZONE..=1.0 - END_ZONE).contains(&s) {
        if orient(start, target, a) == 0.0 && within_reach(start, target, a) {
            through = Some(i);
        } else if orient(start, target, b) == 0.0 && within_reach(start, target, b) {
            through = Some((i + 1) % 3);
        }
    }
    (q, through)
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

    /// Whether a move with displacement `d` (the whole move's) out of `e.face` across `e` is
    /// blocked: [`Self::blocks`], except that a one-way top blocks only a move going down
    /// (`d.y < 0`) or running along it (within [`ONE_WAY_GRAZE`] of parallel, so rounding never
    /// drops a body walking up a slanted platform into it). Walking into a platform's bevelled
    /// side, or cutting up through a top while jumping, passes.
    #[inline]
    fn blocks_move(&self, e: EdgeRef, opts: MoveOptions, d: DVec2) -> bool {
        let g = self.face(e.face).adj[e.edge as usize];
        match self.kind(g) {
            FaceKind::Solid => true,
            FaceKind::Free => false,
            FaceKind::OneWay => {
                !opts.pass_one_way
                    && self.is_one_way_top(e)
                    && (d.y < 0.0 || d.dot(self.edge_normal(e)) >= -ONE_WAY_GRAZE * d.length())
            }
        }
    }

    /// Moves `body` by `displacement`, sliding along blocking edges. The rules (one step of the
    /// walk, passing through vertices, sliding, when a slide ends) and the move loop's
    /// tolerances are documented in `collision/walk.rs`.
    #[inline]
    pub fn move_and_slide(&self, body: Body, displacement: DVec2, opts: MoveOptions) -> MoveResult {
        let mut res = MoveResult::at(body);
        self.walk(&mut res, displacement, opts, Mode::Slide);
        res
    }

    /// [`Self::move_and_slide`] from `res.body` by `displacement`, written into `res` (a fresh
    /// [`MoveResult::at`]): a caller that keeps the result in place saves copying it out, which
    /// is a measurable part of a whole movement step.
    #[inline]
    pub fn move_and_slide_in(&self, res: &mut MoveResult, displacement: DVec2, opts: MoveOptions) {
        self.walk(res, displacement, opts, Mode::Slide);
    }

    /// Walks `body` along `displacement` and stops at the first blocking edge (no slide).
    #[inline]
    pub fn cast(&self, body: Body, displacement: DVec2, opts: MoveOptions) -> MoveResult {
        let mut res = MoveResult::at(body);
        self.walk(&mut res, displacement, opts, Mode::StopAtFirst);
        res
    }

    /// The move loop, from `res.body` (a fresh [`MoveResult::at`]), writing into `res`: filled in
    /// place, the result is never copied out of this (not inlined) function.
    ///
    /// Each step (see the module docs): find the edge the line leaves the current face through
    /// ([`Self::exit_edge`]; none: the target is reached), the point where it crosses that edge
    /// ([`exit_crossing`]), and if the line passes exactly through a vertex, what that comes to
    /// ([`Self::through_vertex`]); then either cross a passable edge into the neighbouring face,
    /// or record the contact and slide along the blocking edge ([`Leg::slide`]).
    fn walk(&self, res: &mut MoveResult, d: DVec2, opts: MoveOptions, mode: Mode) {
        if !d.is_finite() || d == DVec2::ZERO {
            return;
        }
        let d = capped(d);
        let mut leg = Leg::new(res.body.pos, d);
        let mut f = res.body.face;
        let mut steps = 0;
        loop {
            steps += 1;
            if steps > MAX_STEPS {
                res.end = MoveEnd::StepLimit;
                break;
            }
            let tri = self.triangle(f);
            let Some((i, through)) = self.exit_edge(&leg, f, &tri, opts, d) else {
                // The target is in this face: the move ends there.
                leg.advance(res, leg.target);
                break;
            };
            let mut e = EdgeRef {
                face: f,
                edge: i as u8,
            };
            let (mut a, mut b) = (tri[i], tri[(i + 1) % 3]);
            let blocked = self.blocks_move(e, opts, d);
            let (mut x, through) = match through {
                Some(wi) => (leg.p, Some(wi)),
                None => exit_crossing(&leg, a, b, i, blocked),
            };
            if let Some(wi) = through {
                let w = tri[wi];
                match self.through_vertex(f, wi, w, leg.target, e, blocked, opts, d) {
                    AtVertex::Pass(g) => {
                        leg.advance(res, w);
                        f = g;
                        leg.skip = None;
                        leg.start = w;
                        continue;
                    }
                    AtVertex::Against(c) => {
                        e = c;
                        f = c.face;
                        (a, b) = self.edge_points(c);
                    }
                    AtVertex::WedgeBottom(c) => {
                        f = c.face;
                        leg.advance(res, w);
                        self.push_contact(res, c, w, d);
                        res.end = if res.contacts.len() > 1 {
                            MoveEnd::Wedged
                        } else {
                            MoveEnd::Blocked
                        };
                        break;
                    }
                    AtVertex::Stuck => {
                        res.end = MoveEnd::Blocked;
                        leg.advance(res, w);
                        break;
                    }
                }
                x = w;
            }
            leg.advance(res, x);
            if !blocked && through.is_none() {
                f = self.face(f).adj[i];
                leg.skip = None;
                continue;
            }
            let n = self.push_contact(res, e, x, d);
            if mode == Mode::StopAtFirst {
                res.end = MoveEnd::Blocked;
                break;
            }
            if let Some(end) = leg.slide(x, e, n, (a, b), d) {
                res.end = end;
                break;
            }
        }
        res.body = Body {
            pos: leg.p,
            face: f,
        };
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
    /// Records a contact with blocking edge `e` at `x`; returns the edge's normal.
    #[inline(always)]
    fn push_contact(&self, res: &mut MoveResult, e: EdgeRef, x: DVec2, d: DVec2) -> DVec2 {
        let n = self.edge_normal(e);
        res.contacts.push(Contact {
            edge: e,
            normal: n,
            point: x,
            source: self.edge_sources_at(e, x).first().copied(),
            fraction: res.travelled / d.length(),
        });
        n
    }

    /// The edge through which the line of `leg` leaves face `f` (corners `tri`), and the local
    /// index of the vertex it leaves through if it passes exactly through one; `None` if the
    /// target lies in the face (on its closed triangle).
    ///
    /// Sliding along an edge of this face, the slide runs along the edge's line, so it leaves the
    /// face exactly through the edge's end vertex ahead once it reaches it (rounding only moves a
    /// computed crossing near it, and in a sliver face the other edges may not even test as
    /// crossed): passing that vertex exactly keeps wedge corners and seams bit-stable. Otherwise
    /// the exact side of the target relative to each edge (but the one slid along) says which
    /// edges it lies beyond: one is the exit; of two, [`Self::first_crossed`] decides.
    #[inline(always)]
    fn exit_edge(
        &self,
        leg: &Leg,
        f: FaceId,
        tri: &[DVec2; 3],
        opts: MoveOptions,
        d: DVec2,
    ) -> Option<(usize, Option<usize>)> {
        let (start, target) = (leg.start, leg.target);
        let slide_exit = leg.skip.filter(|se| se.face == f).and_then(|se| {
            let k = se.edge as usize;
            let fwd = (target - start).dot(tri[(k + 1) % 3] - tri[k]) > 0.0;
            let wi = if fwd { (k + 1) % 3 } else { k };
            let i = if fwd { wi } else { (k + 2) % 3 };
            within_reach(start, target, tri[wi]).then_some((i, Some(wi)))
        });
        if slide_exit.is_some() {
            return slide_exit;
        }
        let mut out = [false; 3];
        for (i, o) in out.iter_mut().enumerate() {
            if leg.skip
                != Some(EdgeRef {
                    face: f,
                    edge: i as u8,
                })
            {
                *o = orient(tri[i], tri[(i + 1) % 3], target) < 0.0;
            }
        }
        Some(match (out[0], out[1], out[2]) {
            (false, false, false) => return None,
            (true, false, false) => (0, None),
            (false, true, false) => (1, None),
            (false, false, true) => (2, None),
            (true, true, _) => self.first_crossed(f, 0, tri, start, target, opts, d),
            (false, true, true) => self.first_crossed(f, 1, tri, start, target, opts, d),
            (true, false, true) => self.first_crossed(f, 2, tri, start, target, opts, d),
        })
    }

    /// The line of a move leaves face `f` exactly through its vertex `wi` (local index; at `w`), having
    /// first been found to leave through edge `exit` (`blocked`: whether that edge blocks the
    /// move). Passing around the vertex ([`Self::around_vertex`]) continues in another face;
    /// otherwise the body stops at the vertex against the blocking edge (of the two bounding the
    /// blocked directions) that points most along the remaining move, so the slide follows the
    /// free side closest to the move's direction whatever the triangulation around the vertex
    /// looks like. If neither points along the move at all, the vertex is the bottom of a wedge.
    ///
    /// Kept out of line: it is the rare path, and inlined into [`Self::walk`] it made every
    /// common step slower (more instructions and ~4% more time per move on a tile floor).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn through_vertex(
        &self,
        f: FaceId,
        wi: usize,
        w: DVec2,
        target: DVec2,
        exit: EdgeRef,
        blocked: bool,
        opts: MoveOptions,
        d: DVec2,
    ) -> AtVertex {
        let sides = match self.around_vertex(f, wi, target, opts, d) {
            Around::Pass(g) => return AtVertex::Pass(g),
            Around::Blocked(sides) => sides,
        };
        let r = target - w;
        let along = |c: EdgeRef| {
            let (ca, cb) = self.edge_points(c);
            let u = if ca == w { cb - ca } else { ca - cb };
            r.dot(u) / u.length()
        };
        let best = sides
            .into_iter()
            .flatten()
            .map(|c| (c, along(c)))
            .max_by(|c0, c1| c0.1.total_cmp(&c1.1));
        match best {
            // Both edges at the vertex lead back against the move: the vertex is the bottom of a
            // wedge (or the move hits a concave corner head-on). Stop there.
            Some((c, score)) if score <= 0.0 => AtVertex::WedgeBottom(c),
            Some((c, _)) => AtVertex::Against(c),
            // No blocking edge found around the vertex (cannot happen on a valid mesh): treat
            // the vertex as blocking along the exit edge's line.
            None if blocked => AtVertex::Against(exit),
            None => AtVertex::Stuck,
        }
    }

    /// Of edges `k` and `k + 1` of face `f` (sharing vertex `k + 1`), the one the line
    /// `start -> target` crosses first, by the exact side of the shared vertex. A line exactly
    /// through the vertex also returns the vertex's local index: it touches neither edge's
    /// interior and is a pass through the vertex ([`Self::around_vertex`]); the edge returned then
    /// (a passable one if there is one) is only used if that pass is blocked.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn first_crossed(
        &self,
        f: FaceId,
        k: usize,
        tri: &[DVec2; 3],
        start: DVec2,
        target: DVec2,
        opts: MoveOptions,
        d: DVec2,
    ) -> (usize, Option<usize>) {
        let w = (k + 1) % 3;
        let o = orient(start, target, tri[w]);
        if o > 0.0 {
            (k, None)
        } else if o < 0.0 {
            (w, None)
        } else if !within_reach(start, target, tri[w]) {
            // Collinear by coincidence (a move of a few ulps from a point rounded off its face):
            // no pass through the vertex; the plain crossing stays within rounding.
            (k, None)
        } else if !self.blocks_move(
            EdgeRef {
                face: f,
                edge: k as u8,
            },
            opts,
            d,
        ) {
            (k, Some(w))
        } else {
            (w, Some(w))
        }
    }

    /// The line of a move leaves face `f` exactly through its vertex `wi` (local index). The path
    /// touches only that point, so it continues in whichever face around the vertex holds the
    /// direction to `target` in its closed angle, provided that face can be reached by rotating
    /// around the vertex (either way) without crossing a blocking edge. Otherwise both ways are
    /// blocked first: the vertex is a corner the body stops at (or a zero-width gap between two
    /// obstacles touching at a point, which counts as closed), and the two blocking edges are
    /// returned.
    fn around_vertex(
        &self,
        f: FaceId,
        wi: usize,
        target: DVec2,
        opts: MoveOptions,
        d: DVec2,
    ) -> Around {
        let w = self.face(f).v[wi];
        let mut sides = [None; 2];
        // Rotate first towards the side the target lies beyond (the shorter way, usually).
        let t0 = self.triangle(f);
        let cw_first = orient(t0[wi], t0[(wi + 1) % 3], target) < 0.0;
        for ccw in [!cw_first, cw_first] {
            let side = if ccw { 0 } else { 1 };
            let mut g = f;
            let mut gi = wi;
            for _ in 0..MAX_FAN {
                // Counter-clockwise: across the edge entering the vertex; clockwise: leaving it.
                let ei = if ccw { (gi + 2) % 3 } else { gi };
                let eg = EdgeRef {
                    face: g,
                    edge: ei as u8,
                };
                if self.blocks_move(eg, opts, d) {
                    sides[side] = Some(eg);
                    break;
                }
                let h = self.face(g).adj[ei];
                if h == f || h == FaceId::OUTSIDE {
                    break;
                }
                g = h;
                let hv = self.face(g).v;
                gi = match hv.iter().position(|&v| v == w) {
                    Some(j) => j,
                    None => break,
                };
                let t = self.triangle(g);
                if orient(t[(gi + 2) % 3], t[gi], target) >= 0.0
                    && orient(t[gi], t[(gi + 1) % 3], target) >= 0.0
                {
                    return Around::Pass(g);
                }
            }
        }
        Around::Blocked(sides)
    }
}

/// Whether `w` lies within the stretch of the line from `start` to `target` (by projection and
/// distance; `w` is on or near the line wherever this is asked).
#[inline]
fn within_reach(start: DVec2, target: DVec2, w: DVec2) -> bool {
    let s = target - start;
    let u = w - start;
    u.dot(s) >= 0.0 && u.length_squared() <= s.length_squared()
}
