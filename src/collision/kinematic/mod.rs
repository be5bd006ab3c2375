//! Kinematic solids (movers) beside the static mesh, moved by a pose every tick.
//!
//! # What it owns
//! A mover is a set of convex pieces in its own frame (its rest pose, where the level draws it)
//! and an offset (its pose this tick: rest + offset). For each collider of the world it keeps
//! each piece inflated by that collider, `piece ⊕ (−collider)` in the mover's frame, exactly as
//! the static mesh inflates level pieces: a body's feet `p` make its collider overlap the piece
//! exactly when `p − offset` is strictly inside the inflated piece. The static mesh is never
//! touched: a mover's cost is its pieces, not a re-mesh.
//!
//! [`Movers`] is one type; its parts are split by concern:
//! - this file: the inflated pieces ([`InflatedConvex`]), building the movers, their offsets
//!   from tick to tick and the momentum a character leaving one keeps ([`Movers::carried`]);
//! - `pose`: turning movers ([`Pose`]), their inflation afresh at each angle and the points they
//!   carry;
//! - `sweep`: the per-tick sort of the movers' boxes that every query starts from;
//! - `query`: the inside test, segment entry, support below the feet and the nudge out;
//! - `saved`: the poses saved and put back ([`MoverPoses`]), for a search over the simulation.
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
//! # Tolerances
//! - `NUDGE_START` (1e-12 m, relative to the coordinates' magnitude, at least 1e-12 m): the first
//!   step out of a piece for a point that rounded inside; steps double, so a point an ulp inside
//!   moves out by a few ulps.
//! - `MAX_NUDGES` (80 doublings): a bound on that search (80 doublings from 1e-12 m cover any
//!   distance within `MAX_COORDINATE`).
//!
//! Must never depend on anything but the rest of the collision core.
mod pose;
mod query;
mod saved;
mod sweep;

use glam::DVec2;

use super::minkowski::{minkowski_sum, reflect};
use super::predicates::{orient, Aabb};
pub use pose::Pose;
use pose::Turning;
pub use saved::MoverPoses;
use sweep::Sweep;

/// A one-way mover's edge blocks a move going down only if its outward normal's `y` is at least
/// this (tops up to 60° from horizontal), as the static mesh's one-way tops
/// (`MeshConfig::one_way_min_normal_y`'s default); its sides and bottom never block.
pub const ONE_WAY_MIN_NORMAL_Y: f64 = 0.5;
/// First nudge out of a piece (m, times the magnitude of the point, at least 1e-12 m).
pub(super) const NUDGE_START: f64 = 1e-12;
/// Most doublings of the nudge.
pub(super) const MAX_NUDGES: u32 = 80;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn square() -> Vec<DVec2> {
        vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 1.0),
            DVec2::new(0.0, 1.0),
        ]
    }

    pub(super) fn unit_box() -> Vec<DVec2> {
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
}
