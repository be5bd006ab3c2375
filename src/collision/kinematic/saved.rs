//! The movers' poses saved and put back: what a tick changes in [`Movers`] (offsets this tick
//! and the last, the momentum grace, a turning mover's angles and its inflations at them),
//! never what the movers are built from (their rest pieces, the colliders, the inflation of a
//! mover that only translates). A search over the simulation saves a world and restores it many
//! times; restoring gives the same bits as the run that was saved, so the next ticks do too.
//!
//! Must never depend on anything but the rest of the collision core.
use glam::DVec2;

use super::super::predicates::Aabb;
use super::{InflatedConvex, Movers};

/// The poses of a set of movers at one tick ([`Movers::save_poses`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoverPoses {
    offset: Vec<DVec2>,
    prev: Vec<DVec2>,
    grace: Vec<(DVec2, u32)>,
    /// Per turning mover in the movers' order: its angle this tick and the last, its inflation
    /// at each (per collider, per piece) and its boxes. An inflation is kept rather than made
    /// again: a piece turned by 0 is not always the bits of the piece it was built from.
    turning: Vec<TurnSaved>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct TurnSaved {
    angle: f64,
    prev: f64,
    inflated: Vec<Vec<InflatedConvex>>,
    prev_inflated: Vec<Vec<InflatedConvex>>,
    bounds: Vec<Aabb>,
}

/// `to` made equal to `from`, reusing `to`'s vertex buffers (no allocation once the shapes
/// match: a turning piece's vertex count changes only where an edge merges).
fn copy_inflation(to: &mut Vec<Vec<InflatedConvex>>, from: &[Vec<InflatedConvex>]) {
    to.resize_with(from.len(), Vec::new);
    for (t, f) in to.iter_mut().zip(from) {
        t.resize_with(f.len(), || InflatedConvex {
            verts: Vec::new(),
            bounds: Aabb::from_points([DVec2::ZERO]),
        });
        for (a, b) in t.iter_mut().zip(f) {
            a.verts.clone_from(&b.verts);
            a.bounds = b.bounds;
        }
    }
}

impl Movers {
    /// Saves the movers' poses into `into` (its buffers reused).
    pub fn save_poses(&self, into: &mut MoverPoses) {
        into.offset.clone_from(&self.offset);
        into.prev.clone_from(&self.prev);
        into.grace.clone_from(&self.grace);
        let mut k = 0;
        for (m, t) in self.turning.iter().enumerate() {
            let Some(t) = t else { continue };
            if into.turning.len() == k {
                into.turning.push(TurnSaved::default());
            }
            let s = &mut into.turning[k];
            s.angle = t.angle;
            s.prev = t.prev;
            copy_inflation(&mut s.inflated, &self.inflated[m]);
            copy_inflation(&mut s.prev_inflated, &t.prev_inflated);
            s.bounds.clone_from(&self.bounds[m]);
            k += 1;
        }
        into.turning.truncate(k);
    }

    /// Puts back the poses `saved` by [`Movers::save_poses`] on these same movers: every query
    /// answers as it did then, and the next ticks run as they did.
    pub fn restore_poses(&mut self, saved: &MoverPoses) {
        assert_eq!(
            saved.offset.len(),
            self.offset.len(),
            "poses saved from other movers"
        );
        self.offset.clone_from(&saved.offset);
        self.prev.clone_from(&saved.prev);
        self.grace.clone_from(&saved.grace);
        let mut k = 0;
        for (m, t) in self.turning.iter_mut().enumerate() {
            let Some(t) = t else { continue };
            let s = &saved.turning[k];
            t.angle = s.angle;
            t.prev = s.prev;
            copy_inflation(&mut self.inflated[m], &s.inflated);
            copy_inflation(&mut t.prev_inflated, &s.prev_inflated);
            self.bounds[m].clone_from(&s.bounds);
            k += 1;
        }
        self.sort();
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{square, unit_box};
    use super::*;
    use crate::collision::Pose;

    /// A translating and a turning mover, saved after a few poses and restored after more:
    /// every offset, angle, inflation and query is as it was.
    #[test]
    fn restored_poses_answer_as_the_saved_ones() {
        let pieces = vec![vec![square()], vec![square()]];
        let mut m = Movers::new(&pieces, &[unit_box()])
            .with_pivots(&pieces, &[None, Some(DVec2::new(1.0, 0.5))]);
        let pose = |i: f64| {
            [
                Pose {
                    offset: DVec2::new(i * 0.1, 0.0),
                    angle: 0.0,
                },
                Pose {
                    offset: DVec2::new(5.0, 0.0),
                    angle: i * 0.05,
                },
            ]
        };
        for i in 0..3 {
            m.set_poses(pose(i as f64));
        }
        let mut saved = MoverPoses::default();
        m.save_poses(&mut saved);
        let expected = m.clone();
        for i in 3..9 {
            m.set_poses(pose(i as f64));
        }
        assert_ne!(m.pose(1), expected.pose(1));
        m.restore_poses(&saved);
        assert_eq!(m.pose(0), expected.pose(0));
        assert_eq!(m.pose(1), expected.pose(1));
        assert_eq!(m.pieces(1, 0), expected.pieces(1, 0));
        assert_eq!(m.prev_pieces(1, 0), expected.prev_pieces(1, 0));
        assert_eq!(m.carried(0, DVec2::ZERO), expected.carried(0, DVec2::ZERO));
        let p = DVec2::new(6.0, 0.6);
        assert_eq!(m.inside(0, p, None), expected.inside(0, p, None));
        // The next tick from here is the next tick from there.
        let mut again = expected.clone();
        m.set_poses(pose(3.0));
        again.set_poses(pose(3.0));
        assert_eq!(m.pieces(1, 0), again.pieces(1, 0));
        assert_eq!(m.carried(1, p), again.carried(1, p));
    }
}
