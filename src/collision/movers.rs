//! Movers: kinematic solids beside the static mesh, moved by a translation every tick.
//!
//! # What it owns
//! A mover is a set of convex pieces in its own frame (its rest pose, where the level draws it)
//! and an offset (its pose this tick: rest + offset). For each collider of the world it keeps
//! each piece inflated by that collider, `piece ⊕ (−collider)` in the mover's frame, exactly as
//! the static mesh inflates level pieces: a body's feet `p` make its collider overlap the piece
//! exactly when `p − offset` is strictly inside the inflated piece. The static mesh is never
//! touched: a mover's cost is its pieces, not a re-mesh.
//!
//! # The inside test, and why the frame matters
//! "Strictly inside" is decided in the mover's frame by the exact [`orient`] on `p − offset` (one
//! rounded subtraction) against the inflated piece's vertices: every edge has the point strictly
//! on its left (the pieces are counter-clockwise). A rider's position is kept in the mover's
//! frame and drawn into the world as `offset + local` (one rounded addition); the round trip can
//! land an ulp inside, so every point this module hands out is checked with the same test and
//! pushed out along the edge's normal by doubling steps from `NUDGE_START` until it is not
//! inside ([`Movers::nudge_out`]). So "never strictly inside a mover" is decided by one exact
//! predicate, everywhere (the movement code, the world's pushes and the tests' checker).
//!
//! # Queries
//! - [`Movers::inside`]: the first mover piece strictly containing a point.
//! - [`Movers::first_hit`]: where a segment first enters any mover piece (Cyrus–Beck clipping of
//!   the segment against each convex inflated piece whose box it reaches), and through which
//!   edge. A segment running along an edge's line, or touching a corner, does not enter.
//! - [`Movers::support_below`]: a walkable top edge of a mover within a probe distance below the
//!   feet (landing on a mover, walking from the static ground onto one).
//!
//! Each tick the movers' boxes in the world are sorted by their left side, per collider; a query
//! scans only the boxes within the widest box's width of its region (a sweep: tens to hundreds
//! of movers cost a binary search and a few boxes), then the pieces whose box it reaches.
//!
//! # One-way movers
//! A mover marked one-way ([`Movers::with_one_way`]) blocks only as a one-way face of the static
//! mesh does: a body may be inside it, and a segment enters it only through a top edge (outward
//! normal `y` at least [`ONE_WAY_MIN_NORMAL_Y`]) while going down, measured in the mover's frame,
//! so relative to the mover (the movers do not move during a character's step), and never when
//! the move asks to pass (`pass_one_way`, a drop-through). [`Movers::inside`] and everything
//! built on it (pushes, crushes, the penetration checks) ignore one-way movers;
//! [`Movers::inside_one_way`] finds them for the world's lift rule (`sim::movers`: a one-way
//! mover rising into a character that stood or fell above its top lifts it onto the top). A
//! turning one-way mover's top at its last pose is its inflation at its last angle
//! ([`Movers::prev_pieces`]: kept for every turning mover, the buffers swapped each tick).
//!
//! # Turning movers
//! A mover may also turn about a pivot (its pose: rotation by `angle` about the pivot, then the
//! offset; [`Pose`], [`Movers::with_pivots`]). A turned piece's inflation by an upright collider is
//! not the turned inflation: it changes shape with the angle (a box resting on a tilted plank
//! touches it with a corner). So each tick a turning mover's pieces are turned (`libm`'s sine
//! and cosine: the same bits on every platform), made convex again exactly (a monotone-chain
//! hull with [`orient`]: rounding cannot leave a reflex corner) and inflated afresh, for every
//! collider; the queries then run as for a translating mover, in the mover's frame `p − offset`.
//! Its edge list changes with the angle (edges merge where a piece edge lines up with a collider
//! edge), so an edge index means something only for the tick it was found in: a rider is
//! carried by the turn ([`Movers::turn_point`]: its point turned with the piece, `q + (R(Δ) −
//! I)(q − pivot)`, which keeps the rounding of a tick to the size of `q`'s ulp whatever the
//! angle has grown to) and then re-seated on the new inflation ([`Movers::reseat`]: the nearest
//! point of the nearest upward-facing edge, along its normal, so it does not slide along the
//! plank). What a character is pushed along, and keeps as momentum, is the displacement of the
//! mover's point where it is ([`Movers::displacement`]), not one velocity for the whole mover.
//! A translating mover takes none of these paths: its bits are those of a mover without turns.
//!
//! # Tolerances
//! - `NUDGE_START` (1e-12 m, relative to the coordinates' magnitude, at least 1e-12 m): the first
//!   step out of a piece for a point that rounded inside; steps double, so a point an ulp inside
//!   moves out by a few ulps.
//! - `MAX_NUDGES` (80 doublings): a bound on that search (80 doublings from 1e-12 m cover any
//!   distance within `MAX_COORDINATE`).
//!
//! Must never depend on anything but the rest of the collision core.
use glam::DVec2;

use super::minkowski::{minkowski_sum, minkowski_sum_into, reflect};
use super::predicates::{orient, Aabb};

/// A one-way mover's edge blocks a move going down only if its outward normal's `y` is at least
/// this (tops up to 60° from horizontal), as the static mesh's one-way tops
/// (`MeshConfig::one_way_min_normal_y`'s default); its sides and bottom never block.
pub const ONE_WAY_MIN_NORMAL_Y: f64 = 0.5;
/// First nudge out of a piece (m, times the magnitude of the point, at least 1e-12 m).
const NUDGE_START: f64 = 1e-12;
/// Most doublings of the nudge.
const MAX_NUDGES: u32 = 80;
/// Ticks after a mover stops or reverses during which a character leaving it still inherits
/// its velocity from before (0.1 s at the simulation's 120 Hz; Celeste keeps a platform's speed
/// for 0.16 s): a jump a few frames late at the top of a lift's stroke keeps the lift's speed.
pub const MOMENTUM_GRACE_TICKS: u32 = 12;

/// One piece inflated by one collider, in the mover's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct InflatedConvex {
    /// Counter-clockwise vertices, no three collinear.
    pub verts: Vec<DVec2>,
    /// Their box.
    pub bounds: Aabb,
}

impl InflatedConvex {
    /// Whether `q` (in the mover's frame) is strictly inside: strictly left of every edge.
    pub fn strictly_contains(&self, q: DVec2) -> bool {
        let n = self.verts.len();
        (0..n).all(|i| orient(self.verts[i], self.verts[(i + 1) % n], q) > 0.0)
    }

    /// Edge `i`: its two ends, counter-clockwise.
    pub fn edge(&self, i: usize) -> (DVec2, DVec2) {
        let n = self.verts.len();
        (self.verts[i % n], self.verts[(i + 1) % n])
    }

    /// Edge `i` as the ground is walked: from its second vertex to its first, so free space is
    /// on its left, as on the static mesh's edges (a top edge runs left to right, and a positive
    /// speed along it is rightwards).
    pub fn walk(&self, i: usize) -> (DVec2, DVec2) {
        let (a, b) = self.edge(i);
        (b, a)
    }

    /// The unit direction of [`InflatedConvex::walk`].
    pub fn walk_dir(&self, i: usize) -> DVec2 {
        let (a, b) = self.walk(i);
        (b - a).normalize_or_zero()
    }

    /// The edge that continues the ground past the end of edge `i` walked forwards (along
    /// [`InflatedConvex::walk_dir`]), or backwards.
    pub fn next_walked(&self, i: usize, forward: bool) -> usize {
        let n = self.verts.len();
        if forward {
            (i + n - 1) % n
        } else {
            (i + 1) % n
        }
    }

    /// The outward unit normal of edge `i` (free space is on its right side seen from outside:
    /// the normal points out of the piece).
    pub fn normal(&self, i: usize) -> DVec2 {
        let (a, b) = self.edge(i);
        let d = (b - a).normalize_or_zero();
        DVec2::new(d.y, -d.x)
    }
}

/// Where a segment enters a mover piece.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverHit {
    /// Which mover, piece and edge (of the piece inflated by the collider asked about).
    pub at: MoverEdge,
    /// Fraction of the segment travelled before it enters, `[0, 1]`.
    pub t: f64,
    /// The edge's outward unit normal.
    pub normal: DVec2,
}

/// An edge of one mover's piece, inflated by one collider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoverEdge {
    /// The mover's index.
    pub mover: u32,
    /// The piece's index in the mover.
    pub piece: u16,
    /// The edge's index in the inflated piece (from vertex `edge` to `edge + 1`).
    pub edge: u16,
}

/// A mover's pose: turned by `angle` (radians, counter-clockwise) about its pivot, then moved
/// by `offset` from its rest pose.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// From the rest pose, m.
    pub offset: DVec2,
    /// About the pivot, radians (0 for a mover that does not turn).
    pub angle: f64,
}

impl Pose {
    /// Where this pose puts the point `p` of the rest pose, for a mover turning about `pivot`.
    pub fn place(&self, p: DVec2, pivot: DVec2) -> DVec2 {
        if self.angle == 0.0 {
            return p + self.offset;
        }
        pivot + rotate(p - pivot, libm::sin(self.angle), libm::cos(self.angle)) + self.offset
    }
}

/// `d` turned by the angle whose sine and cosine are `s` and `c`.
fn rotate(d: DVec2, s: f64, c: f64) -> DVec2 {
    DVec2::new(c * d.x - s * d.y, s * d.x + c * d.y)
}

/// A turning mover's own data: its pivot and pieces at angle 0 (its frame), its angle this tick
/// and the last, and its inflation at the last angle.
#[derive(Clone, Debug, PartialEq)]
struct Turning {
    pivot: DVec2,
    rest: Vec<Vec<DVec2>>,
    angle: f64,
    prev: f64,
    /// Per collider, the pieces inflated at the last tick's angle (the world's lift rule asks
    /// where a one-way mover's top was: [`Movers::prev_pieces`]). Swapped with this tick's
    /// before they are inflated again, so its buffers are reused.
    prev_inflated: Vec<Vec<InflatedConvex>>,
    /// One piece turned, reused every tick.
    scratch: Vec<DVec2>,
}

/// Convex `piece` turned about `pivot` by the angle whose sine and cosine are `s` and `c`, into
/// `out` (cleared first): the turned points where they are still strictly convex (a turn keeps
/// them so but for rounding), else their hull (a sort, only where a corner rounded flat or
/// reflex).
fn turn_piece(piece: &[DVec2], pivot: DVec2, s: f64, c: f64, out: &mut Vec<DVec2>) {
    out.clear();
    out.extend(piece.iter().map(|&p| pivot + rotate(p - pivot, s, c)));
    let n = out.len();
    let convex = (0..n).all(|i| orient(out[i], out[(i + 1) % n], out[(i + 2) % n]) > 0.0);
    if !convex {
        *out = convex_hull(std::mem::take(out));
    }
}

/// The convex hull of `pts`, counter-clockwise, without collinear points (Andrew's monotone
/// chain with the exact [`orient`]): a turned convex piece whose rounded corners lost strict
/// convexity is convex again, by at most the rounding.
fn convex_hull(mut pts: Vec<DVec2>) -> Vec<DVec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut hull: Vec<DVec2> = Vec::with_capacity(pts.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let it: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in it {
            while hull.len() >= start + 2
                && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Every mover of a world: their pieces inflated by every collider, and their offsets this tick
/// and the last.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Movers {
    /// The colliders reflected (`−collider`), which turning movers' pieces are inflated by
    /// again every tick.
    reflected: Vec<Vec<DVec2>>,
    /// Per mover, its turning, or `None` for a mover that only translates.
    turning: Vec<Option<Turning>>,
    /// `inflated[m][c]`: mover `m`'s pieces inflated by collider `c`.
    inflated: Vec<Vec<Vec<InflatedConvex>>>,
    /// `bounds[m][c]`: the box of all of them, in the mover's frame.
    bounds: Vec<Vec<Aabb>>,
    offset: Vec<DVec2>,
    prev: Vec<DVec2>,
    /// Per mover, whether it is one-way (see the module docs).
    one_way: Vec<bool>,
    /// Whether any is (most levels have none: their characters skip the one-way queries).
    any_one_way: bool,
    /// Per mover, the displacement of its last tick before it stopped or reversed, and the ticks
    /// it is still what a character leaving it keeps ([`Movers::carried`]).
    grace: Vec<(DVec2, u32)>,
    /// Per collider, this tick: the movers' boxes in the world sorted by their left side (ties
    /// by mover index), and the widest box's width: a query scans only the boxes whose left
    /// side lies within that width of its region (see [`Movers::near`]).
    sweep: Vec<Sweep>,
    /// The angles of the poses being set ([`Movers::set_poses`]), kept for the next tick.
    angles: Vec<f64>,
}

/// One collider's movers sorted by the left side of their box in the world this tick.
#[derive(Clone, Debug, Default, PartialEq)]
struct Sweep {
    /// `(box, mover)`, by `box.min.x`, then mover.
    boxes: Vec<(Aabb, u32)>,
    /// The widest box, m.
    width: f64,
}

impl Movers {
    /// No movers.
    pub const EMPTY: Movers = Movers {
        reflected: Vec::new(),
        turning: Vec::new(),
        inflated: Vec::new(),
        bounds: Vec::new(),
        offset: Vec::new(),
        prev: Vec::new(),
        one_way: Vec::new(),
        any_one_way: false,
        grace: Vec::new(),
        sweep: Vec::new(),
        angles: Vec::new(),
    };

    /// Movers made of `pieces` (per mover, its convex counter-clockwise pieces in its frame),
    /// inflated by each of `colliders` (convex, counter-clockwise, relative to the feet), at
    /// offset zero.
    pub fn new(pieces: &[Vec<Vec<DVec2>>], colliders: &[Vec<DVec2>]) -> Movers {
        let reflected: Vec<Vec<DVec2>> = colliders.iter().map(|c| reflect(c)).collect();
        let mut inflated = Vec::with_capacity(pieces.len());
        let mut bounds = Vec::with_capacity(pieces.len());
        for mover in pieces {
            let per: Vec<Vec<InflatedConvex>> = reflected
                .iter()
                .map(|r| {
                    mover
                        .iter()
                        .map(|p| {
                            let verts = minkowski_sum(p, r);
                            let bounds = Aabb::from_points(verts.iter().copied());
                            InflatedConvex { verts, bounds }
                        })
                        .collect()
                })
                .collect();
            bounds.push(
                per.iter()
                    .map(|ps| {
                        ps.iter()
                            .fold(Aabb::from_points(std::iter::empty()), |b, p| {
                                b.union(&p.bounds)
                            })
                    })
                    .collect(),
            );
            inflated.push(per);
        }
        let mut movers = Movers {
            turning: vec![None; pieces.len()],
            reflected,
            inflated,
            bounds,
            offset: vec![DVec2::ZERO; pieces.len()],
            prev: vec![DVec2::ZERO; pieces.len()],
            one_way: vec![false; pieces.len()],
            any_one_way: false,
            grace: vec![(DVec2::ZERO, 0); pieces.len()],
            sweep: vec![Sweep::default(); colliders.len()],
            angles: Vec::new(),
        };
        movers.sort();
        movers
    }

    /// These movers with `pivots[m]` the point mover `m` turns about (its frame), or `None` for
    /// one that only translates (missing entries: `None`). Only turning movers are inflated again
    /// when their angle changes; the others ignore the angle of their pose.
    pub fn with_pivots(mut self, pieces: &[Vec<Vec<DVec2>>], pivots: &[Option<DVec2>]) -> Movers {
        let inflated = &self.inflated;
        for (m, t) in self.turning.iter_mut().enumerate() {
            *t = pivots.get(m).copied().flatten().map(|pivot| Turning {
                pivot,
                rest: pieces[m].clone(),
                angle: 0.0,
                prev: 0.0,
                prev_inflated: inflated[m].clone(),
                scratch: Vec::new(),
            });
        }
        self
    }

    /// Whether mover `m` turns.
    pub fn turns(&self, m: u32) -> bool {
        self.turning[m as usize].is_some()
    }

    /// The point mover `m` turns about (its frame), for a turning mover.
    pub fn pivot(&self, m: u32) -> Option<DVec2> {
        self.turning[m as usize].as_ref().map(|t| t.pivot)
    }

    /// Mover `m`'s pose this tick.
    pub fn pose(&self, m: u32) -> Pose {
        Pose {
            offset: self.offset[m as usize],
            angle: self.turning[m as usize].as_ref().map_or(0.0, |t| t.angle),
        }
    }

    /// Mover `m`'s pose drawn at `alpha` between last tick's and this tick's (linear in the
    /// offset and the angle).
    pub fn drawn_pose(&self, m: u32, alpha: f64) -> Pose {
        let a = alpha.clamp(0.0, 1.0);
        let (prev, now) = (self.prev[m as usize], self.offset[m as usize]);
        let angle = self.turning[m as usize]
            .as_ref()
            .map_or(0.0, |t| t.prev + (t.angle - t.prev) * a);
        Pose {
            offset: prev.lerp(now, a),
            angle,
        }
    }

    /// The point `q` of mover `m`'s frame at last tick's pose, where the turn since then takes
    /// it (this tick's frame): `q + (R(Δ) − I)(q − pivot)`, with `R(Δ) − I` written with
    /// `−2 sin²(Δ/2)` so a small turn loses nothing to cancellation; `q` itself for a mover that
    /// does not turn (or did not turn this tick).
    pub fn turn_point(&self, m: u32, q: DVec2) -> DVec2 {
        let Some(t) = &self.turning[m as usize] else {
            return q;
        };
        let delta = t.angle - t.prev;
        if delta == 0.0 {
            return q;
        }
        let d = q - t.pivot;
        let (s, h) = (libm::sin(delta), libm::sin(0.5 * delta));
        let cm1 = -2.0 * h * h;
        q + DVec2::new(cm1 * d.x - s * d.y, s * d.x + cm1 * d.y)
    }

    /// How far the point of mover `m` at `p` (world, where it was last tick) moved this tick:
    /// the offset's change, plus the turn's at that point. For a mover that does not turn, the
    /// offset's change alone (the same bits as before turning existed).
    pub fn displacement(&self, m: u32, p: DVec2) -> DVec2 {
        let (now, prev) = (self.offset[m as usize], self.prev[m as usize]);
        if self.turning[m as usize].is_none() {
            return now - prev;
        }
        now - prev + self.turn_displacement(m, p)
    }

    /// The turn's part of [`Movers::displacement`] at `p` (world, last tick): how far this
    /// tick's turn alone carried that point of the mover.
    fn turn_displacement(&self, m: u32, p: DVec2) -> DVec2 {
        let q = p - self.prev[m as usize];
        self.turn_point(m, q) - q
    }

    /// Where a point `q` of turning piece `(m, k)` (this tick's frame, inflated by collider
    /// `c`), carried by the turn, sits on the piece's new inflation: the nearest point of the
    /// nearest edge facing up (outward normal `y > 0`), which is the point along that edge's
    /// normal where it is within the edge's span. The edge and the point (mover frame); `None`
    /// for a piece with no edge facing up.
    pub fn reseat(&self, m: u32, k: u16, c: usize, q: DVec2) -> Option<(u16, DVec2)> {
        let piece = &self.inflated[m as usize][c][k as usize];
        let mut best: Option<(u16, DVec2, f64)> = None;
        for i in 0..piece.verts.len() {
            if piece.normal(i).y <= 0.0 {
                continue;
            }
            let (a, b) = piece.edge(i);
            let ab = b - a;
            let len2 = ab.length_squared();
            let f = if len2 > 0.0 {
                ((q - a).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let at = a + ab * f;
            let d = at.distance_squared(q);
            if best.is_none_or(|b| d < b.2) {
                best = Some((i as u16, at, d));
            }
        }
        best.map(|(i, at, _)| (i, at))
    }
    /// These movers with `one_way[m]` saying whether mover `m` is one-way (see the module docs;
    /// missing entries: solid).
    pub fn with_one_way(mut self, one_way: &[bool]) -> Movers {
        for (m, f) in self.one_way.iter_mut().enumerate() {
            *f = one_way.get(m).copied().unwrap_or(false);
        }
        self.any_one_way = self.one_way.contains(&true);
        self
    }

    /// Whether mover `m` is one-way.
    pub fn is_one_way(&self, m: u32) -> bool {
        self.one_way[m as usize]
    }

    /// The sweep of every collider for this tick's offsets. Each box is updated where it was
    /// in last tick's order, so the sort meets an almost sorted list (movers move little in a
    /// tick): a pass over it, not a full sort. The keys (left side, then mover index) are
    /// unique, so the order is the same whatever order the sort starts from.
    fn sort(&mut self) {
        let movers = self.offset.len();
        for (c, sweep) in self.sweep.iter_mut().enumerate() {
            if sweep.boxes.len() != movers {
                sweep.boxes.clear();
                sweep
                    .boxes
                    .extend((0..movers as u32).map(|m| (Aabb::from_points([DVec2::ZERO]), m)));
            }
            sweep.width = 0.0;
            for (world, m) in &mut sweep.boxes {
                let (b, o) = (&self.bounds[*m as usize][c], self.offset[*m as usize]);
                *world = Aabb {
                    min: b.min + o,
                    max: b.max + o,
                };
                sweep.width = sweep.width.max(world.max.x - world.min.x);
            }
            sweep
                .boxes
                .sort_by(|a, b| a.0.min.x.total_cmp(&b.0.min.x).then(a.1.cmp(&b.1)));
        }
    }

    /// Number of movers.
    pub fn len(&self) -> usize {
        self.offset.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.offset.is_empty()
    }

    /// Moves every mover to its offset for the new tick (the old ones become the previous). A
    /// mover that stops or reverses keeps its last displacement as what a character leaving it
    /// inherits for [`MOMENTUM_GRACE_TICKS`] ticks ([`Movers::carried`]).
    pub fn set_offsets(&mut self, offsets: impl IntoIterator<Item = DVec2>) {
        self.move_offsets(offsets);
        self.sort();
    }

    /// Moves every mover to its pose for the new tick (see [`Movers::set_offsets`]); a turning
    /// mover whose angle changed is inflated again (see the module docs).
    pub fn set_poses(&mut self, poses: impl IntoIterator<Item = Pose>) {
        // The angles go aside while the offsets are taken (a buffer kept between ticks).
        let mut angles = std::mem::take(&mut self.angles);
        angles.clear();
        self.move_offsets(poses.into_iter().map(|p| {
            angles.push(p.angle);
            p.offset
        }));
        for (m, &angle) in angles.iter().enumerate() {
            let Some(t) = self.turning.get_mut(m).and_then(Option::as_mut) else {
                continue;
            };
            t.prev = t.angle;
            if t.angle != angle {
                t.angle = angle;
                // Last tick's inflation becomes the previous one; the buffers of the tick
                // before it are filled again.
                std::mem::swap(&mut t.prev_inflated, &mut self.inflated[m]);
                self.inflate_turned(m);
            } else {
                t.prev_inflated.clone_from(&self.inflated[m]);
            }
        }
        self.angles = angles;
        self.sort();
    }

    /// Sets every mover's pose, this tick's and the last's (see [`Movers::place`]).
    pub fn place_poses(&mut self, poses: impl IntoIterator<Item = Pose>) {
        self.set_poses(poses);
        self.prev.clone_from(&self.offset);
        self.grace.iter_mut().for_each(|g| *g = (DVec2::ZERO, 0));
        for (m, t) in self.turning.iter_mut().enumerate() {
            if let Some(t) = t {
                t.prev = t.angle;
                t.prev_inflated.clone_from(&self.inflated[m]);
            }
        }
    }

    /// Turning mover `m`'s pieces turned to its angle and inflated by every collider again, and
    /// its box. Every buffer is reused from the last tick: nothing is allocated but where a
    /// rounded corner sends a piece through the hull.
    fn inflate_turned(&mut self, m: usize) {
        let Some(t) = &mut self.turning[m] else {
            return;
        };
        let (s, c) = (libm::sin(t.angle), libm::cos(t.angle));
        let per = &mut self.inflated[m];
        for (k, piece) in t.rest.iter().enumerate() {
            let turned = &mut t.scratch;
            turn_piece(piece, t.pivot, s, c, turned);
            for (ci, r) in self.reflected.iter().enumerate() {
                let inflated = &mut per[ci][k];
                minkowski_sum_into(turned, r, &mut inflated.verts);
                inflated.bounds = Aabb::from_points(inflated.verts.iter().copied());
            }
        }
        for (ci, pieces) in per.iter().enumerate() {
            self.bounds[m][ci] = pieces
                .iter()
                .fold(Aabb::from_points(std::iter::empty()), |b, p| {
                    b.union(&p.bounds)
                });
        }
    }

    /// The offsets of [`Movers::set_offsets`], without the sort.
    fn move_offsets(&mut self, offsets: impl IntoIterator<Item = DVec2>) {
        std::mem::swap(&mut self.prev, &mut self.offset);
        // `offset` holds the tick before last now, `prev` the last tick's.
        self.grace.resize(self.prev.len(), (DVec2::ZERO, 0));
        let older = std::mem::take(&mut self.offset);
        self.offset.extend(offsets);
        self.offset.resize(self.prev.len(), DVec2::ZERO);
        for (m, g) in self.grace.iter_mut().enumerate() {
            let was = self.prev[m] - older.get(m).copied().unwrap_or(self.prev[m]);
            let now = self.offset[m] - self.prev[m];
            if was != DVec2::ZERO && (now == DVec2::ZERO || now.dot(was) < 0.0) {
                *g = (was, MOMENTUM_GRACE_TICKS);
            } else if g.1 > 0 {
                g.1 -= 1;
            }
        }
    }

    /// Sets every mover's offset, this tick's and the last's (a fresh world, a reset): no
    /// momentum grace is running.
    pub fn place(&mut self, offsets: impl IntoIterator<Item = DVec2>) {
        self.set_offsets(offsets);
        self.prev.clone_from(&self.offset);
        self.grace.iter_mut().for_each(|g| *g = (DVec2::ZERO, 0));
    }

    /// Mover `m`'s displacement at `p` (world, where the point was last tick) that a character
    /// leaving it now inherits (per tick): the offset's last change, or within
    /// [`MOMENTUM_GRACE_TICKS`] of a stop or a reversal of the offset the change before it (a
    /// jump timed at the top of a lift's stroke still gets the lift's speed); plus, for a turning
    /// mover, this tick's turn at that point. The turn gets no grace: a swing reverses gradually
    /// and a spin never does, so the turn's part is always the one of this tick.
    pub fn carried(&self, m: u32, p: DVec2) -> DVec2 {
        let (now, prev) = (self.offset[m as usize], self.prev[m as usize]);
        let offset = match self.grace.get(m as usize) {
            Some(&(was, left)) if left > 0 => was,
            _ => now - prev,
        };
        if !self.turns(m) {
            return offset;
        }
        offset + self.turn_displacement(m, p)
    }

    /// Mover `m`'s offset this tick.
    pub fn offset(&self, m: u32) -> DVec2 {
        self.offset[m as usize]
    }

    /// Mover `m`'s offset last tick.
    pub fn prev_offset(&self, m: u32) -> DVec2 {
        self.prev[m as usize]
    }

    /// Mover `m`'s pieces inflated by collider `c`, in its frame.
    pub fn pieces(&self, m: u32, c: usize) -> &[InflatedConvex] {
        &self.inflated[m as usize][c]
    }

    /// Turning mover `m`'s pieces turned to `angle` and inflated by collider `c` (its frame): what
    /// [`Movers::pieces`] holds at a tick whose angle is `angle`, for drawing it between ticks
    /// (the F3 overlay). Allocates; the simulation never calls it. `None` for a mover that does
    /// not turn (its inflation has one shape: [`Movers::pieces`]).
    pub fn inflation_at(&self, m: u32, c: usize, angle: f64) -> Option<Vec<Vec<DVec2>>> {
        let t = self.turning[m as usize].as_ref()?;
        let (s, co) = (libm::sin(angle), libm::cos(angle));
        Some(
            t.rest
                .iter()
                .map(|piece| {
                    let mut turned = Vec::new();
                    turn_piece(piece, t.pivot, s, co, &mut turned);
                    minkowski_sum(&turned, &self.reflected[c])
                })
                .collect(),
        )
    }

    /// Mover `m`'s pieces inflated by collider `c` at its last tick's pose, in its frame then
    /// (`p − prev_offset`): a turning mover's inflation at its last angle (piece `k` is the same
    /// piece as in [`Movers::pieces`], its edges may differ); a translating mover's are the same
    /// as this tick's.
    pub fn prev_pieces(&self, m: u32, c: usize) -> &[InflatedConvex] {
        match &self.turning[m as usize] {
            Some(t) => &t.prev_inflated[c],
            None => &self.inflated[m as usize][c],
        }
    }

    /// The inflated piece an edge belongs to.
    pub fn piece(&self, e: MoverEdge, c: usize) -> &InflatedConvex {
        &self.inflated[e.mover as usize][c][e.piece as usize]
    }

    /// Edge `e` of collider `c`'s inflation, in the world at this tick's offset.
    pub fn edge_points(&self, e: MoverEdge, c: usize) -> (DVec2, DVec2) {
        let (a, b) = self.piece(e, c).edge(e.edge as usize);
        let o = self.offset(e.mover);
        (a + o, b + o)
    }

    /// The movers whose inflation by collider `c` may reach `region` (world) this tick, in the
    /// sweep's order (by the left side of their box, then index: the same every run): a binary
    /// search for the first box whose left side is within the widest box's width of the region,
    /// then the boxes up to the region's right side.
    fn near(&self, c: usize, region: Aabb) -> impl Iterator<Item = u32> + '_ {
        let sweep = &self.sweep[c];
        let from = region.min.x - sweep.width;
        let first = sweep.boxes.partition_point(|(b, _)| b.min.x < from);
        sweep.boxes[first..]
            .iter()
            .take_while(move |(b, _)| b.min.x <= region.max.x)
            .filter(move |(b, _)| b.overlaps(&region))
            .map(|&(_, m)| m)
    }

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
    use super::*;

    fn square() -> Vec<DVec2> {
        vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 1.0),
            DVec2::new(0.0, 1.0),
        ]
    }

    fn unit_box() -> Vec<DVec2> {
        vec![
            DVec2::new(-0.5, 0.0),
            DVec2::new(0.5, 0.0),
            DVec2::new(0.5, 1.0),
            DVec2::new(-0.5, 1.0),
        ]
    }

    #[test]
    fn a_piece_is_inflated_by_the_reflected_collider_and_moves_with_its_offset() {
        let mut m = Movers::new(&[vec![square()]], &[unit_box()]);
        let p = &m.pieces(0, 0)[0];
        // The feet collide from 1 m below to the top, and half a metre either side.
        assert_eq!(p.bounds.min, DVec2::new(-0.5, -1.0));
        assert_eq!(p.bounds.max, DVec2::new(2.5, 1.0));
        assert_eq!(m.inside(0, DVec2::new(1.0, 0.5), None), Some((0, 0)));
        assert_eq!(
            m.inside(0, DVec2::new(1.0, 1.0), None),
            None,
            "on the top: touching"
        );
        m.set_offsets([DVec2::new(10.0, 0.0)]);
        assert_eq!(m.inside(0, DVec2::new(1.0, 0.5), None), None);
        assert_eq!(m.inside(0, DVec2::new(11.0, 0.5), None), Some((0, 0)));
        assert_eq!(m.prev_offset(0), DVec2::ZERO);
    }

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
    fn a_turning_piece_is_inflated_afresh_at_its_angle() {
        // A 2 × 1 slab turning about its centre (1, 0.5).
        let pieces = vec![vec![square()]];
        let mut m =
            Movers::new(&pieces, &[unit_box()]).with_pivots(&pieces, &[Some(DVec2::new(1.0, 0.5))]);
        assert!(m.turns(0));
        let rest = m.pieces(0, 0)[0].clone();
        m.set_poses([Pose {
            offset: DVec2::ZERO,
            angle: std::f64::consts::FRAC_PI_2,
        }]);
        // Upright now: 1 wide, 2 tall, about the same centre, inflated by the unit box (the feet
        // collide from 1 m below its bottom to its top, half a metre either side).
        let b = m.pieces(0, 0)[0].bounds;
        assert!((b.min - DVec2::new(0.0, -1.5)).length() < 1e-12, "{b:?}");
        assert!((b.max - DVec2::new(2.0, 1.5)).length() < 1e-12, "{b:?}");
        // Strictly convex (cos(π/2) rounds to 6e-17, so the sides lean by that much and the
        // collider's sides stay as edges of their own, a few 1e-17 m off the line).
        let v = &m.pieces(0, 0)[0].verts;
        let n = v.len();
        assert!((0..n).all(|i| orient(v[i], v[(i + 1) % n], v[(i + 2) % n]) > 0.0));
        // A quarter turn more is a half turn: the rest shape again, to rounding.
        m.set_poses([Pose {
            offset: DVec2::ZERO,
            angle: std::f64::consts::PI,
        }]);
        let again = &m.pieces(0, 0)[0];
        assert!((again.bounds.min - rest.bounds.min).length() < 1e-12);
        assert!((again.bounds.max - rest.bounds.max).length() < 1e-12);
        // At 45°, the box rests on a corner: the inflation has the collider's flat bottom on
        // top of the corner (a horizontal edge one collider wide).
        m.set_poses([Pose {
            offset: DVec2::ZERO,
            angle: std::f64::consts::FRAC_PI_4,
        }]);
        let tilted = &m.pieces(0, 0)[0];
        let flat = (0..tilted.verts.len())
            .filter(|&i| tilted.normal(i).y > 0.999_999)
            .map(|i| {
                let (a, b) = tilted.edge(i);
                (a - b).length()
            })
            .collect::<Vec<_>>();
        assert_eq!(flat.len(), 1);
        assert!((flat[0] - 1.0).abs() < 1e-12, "{flat:?}");
    }

    #[test]
    fn the_last_ticks_inflation_is_kept_for_a_turning_mover() {
        let pieces = vec![vec![square()], vec![square()]];
        let mut m = Movers::new(&pieces, &[unit_box()])
            .with_pivots(&pieces, &[Some(DVec2::new(1.0, 0.5)), None]);
        let pose = |angle: f64| Pose {
            offset: DVec2::ZERO,
            angle,
        };
        let rest = m.pieces(0, 0).to_vec();
        assert_eq!(m.prev_pieces(0, 0), &rest[..]);
        m.set_poses([pose(0.3), pose(0.0)]);
        let at_03 = m.pieces(0, 0).to_vec();
        assert_ne!(at_03, rest);
        assert_eq!(m.prev_pieces(0, 0), &rest[..]);
        m.set_poses([pose(0.6), pose(0.0)]);
        assert_eq!(m.prev_pieces(0, 0), &at_03[..]);
        let at_06 = m.pieces(0, 0).to_vec();
        // An unchanged angle: the last tick's inflation is this tick's.
        m.set_poses([pose(0.6), pose(0.0)]);
        assert_eq!(m.prev_pieces(0, 0), &at_06[..]);
        assert_eq!(m.pieces(0, 0), &at_06[..]);
        // A reset: no last tick to speak of.
        m.place_poses([pose(0.9), pose(0.0)]);
        assert_eq!(m.prev_pieces(0, 0), m.pieces(0, 0));
        // A translating mover's are its own.
        assert_eq!(m.prev_pieces(1, 0), m.pieces(1, 0));
        // Drawn between ticks: at this tick's angle, the inflation the queries use.
        let at = m.inflation_at(0, 0, 0.9).unwrap();
        let verts: Vec<Vec<DVec2>> = m.pieces(0, 0).iter().map(|p| p.verts.clone()).collect();
        assert_eq!(at, verts);
        assert_eq!(m.inflation_at(1, 0, 0.9), None);
    }

    #[test]
    fn a_point_turns_with_the_mover_and_its_displacement_is_the_chord() {
        let pieces = vec![vec![square()]];
        let mut m =
            Movers::new(&pieces, &[unit_box()]).with_pivots(&pieces, &[Some(DVec2::new(1.0, 0.5))]);
        m.place_poses([Pose::default()]);
        let turn = 0.01;
        m.set_poses([Pose {
            offset: DVec2::new(0.5, 0.0),
            angle: turn,
        }]);
        // A point 3 m right of the pivot moves by the chord 2·3·sin(Δ/2), at right angles to
        // the radius (leaning back by half the turn), plus the offset's change.
        let q = DVec2::new(4.0, 0.5);
        let moved = m.turn_point(0, q);
        let chord = moved - q;
        assert!((chord.length() - 6.0 * (turn / 2.0).sin()).abs() < 1e-15);
        assert!((chord.y / chord.x + 1.0 / (turn / 2.0).tan()).abs() < 1e-6);
        let d = m.displacement(0, q);
        assert!((d - chord - DVec2::new(0.5, 0.0)).length() < 1e-15);
        // The pivot stays; a mover that does not turn moves every point by its offset's change.
        assert_eq!(m.turn_point(0, DVec2::new(1.0, 0.5)), DVec2::new(1.0, 0.5));
        let mut still = Movers::new(&pieces, &[unit_box()]);
        still.set_offsets([DVec2::new(0.25, 0.5)]);
        assert_eq!(still.displacement(0, q), DVec2::new(0.25, 0.5));
        assert_eq!(still.turn_point(0, q), q);
        // Drawn halfway: half the offset's change and half the turn.
        let half = m.drawn_pose(0, 0.5);
        assert_eq!(half.offset, DVec2::new(0.25, 0.0));
        assert_eq!(half.angle, turn / 2.0);
    }

    #[test]
    fn reseat_puts_a_point_on_the_nearest_edge_facing_up() {
        let pieces = vec![vec![square()]];
        let mut m =
            Movers::new(&pieces, &[unit_box()]).with_pivots(&pieces, &[Some(DVec2::new(1.0, 0.5))]);
        m.set_poses([Pose {
            offset: DVec2::ZERO,
            angle: 0.1,
        }]);
        let piece = &m.pieces(0, 0)[0];
        // Above the tilted top near its middle: onto that edge, along its normal.
        let q = DVec2::new(1.0, 1.2);
        let (e, at) = m.reseat(0, 0, 0, q).unwrap();
        let n = piece.normal(e as usize);
        assert!(n.y > 0.99 && n.x < 0.0, "the top, tilted left: {n}");
        let (a, b) = piece.edge(e as usize);
        assert!(orient(a, b, at).abs() < 1e-12, "on the edge");
        assert!((q - at).perp_dot(n).abs() < 1e-12, "moved along the normal");
    }

    #[test]
    fn the_hull_of_turned_points_is_strictly_convex() {
        let h = convex_hull(vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 2.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(0.0, 2.0),
            DVec2::new(0.0, 2.0),
        ]);
        assert_eq!(
            h,
            vec![
                DVec2::new(0.0, 0.0),
                DVec2::new(2.0, 0.0),
                DVec2::new(2.0, 2.0),
                DVec2::new(0.0, 2.0)
            ]
        );
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
