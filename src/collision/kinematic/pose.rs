//! Turning movers: a mover's pose (an offset and an angle about its pivot), its pieces turned
//! and inflated afresh at each angle, and the points it carries.
//!
//! A mover may turn about a pivot (its pose: rotation by `angle` about the pivot, then the
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
//! Must never depend on anything but the rest of the collision core.
use glam::DVec2;

use super::super::minkowski::{minkowski_sum, minkowski_sum_into};
use super::super::predicates::{orient, Aabb};
use super::{InflatedConvex, Movers};

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
pub(super) struct Turning {
    pub(super) pivot: DVec2,
    pub(super) rest: Vec<Vec<DVec2>>,
    pub(super) angle: f64,
    pub(super) prev: f64,
    /// Per collider, the pieces inflated at the last tick's angle (the world's lift rule asks
    /// where a one-way mover's top was: [`Movers::prev_pieces`]). Swapped with this tick's
    /// before they are inflated again, so its buffers are reused.
    pub(super) prev_inflated: Vec<Vec<InflatedConvex>>,
    /// One piece turned, reused every tick.
    pub(super) scratch: Vec<DVec2>,
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

impl Movers {
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
    pub(super) fn turn_displacement(&self, m: u32, p: DVec2) -> DVec2 {
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
    pub(super) fn inflate_turned(&mut self, m: usize) {
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
}

#[cfg(test)]
mod tests {
    use super::super::tests::{square, unit_box};
    use super::*;

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
}
