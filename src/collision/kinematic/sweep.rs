//! The per-tick sweep of the movers' boxes, which every query starts from.
//!
//! Each tick the movers' boxes in the world are sorted by their left side, per collider; a query
//! scans only the boxes within the widest box's width of its region (a sweep: tens to hundreds
//! of movers cost a binary search and a few boxes), then the pieces whose box it reaches.
//!
//! Must never depend on anything but the rest of the collision core.
use glam::DVec2;

use super::super::predicates::Aabb;
use super::Movers;

/// One collider's movers sorted by the left side of their box in the world this tick.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Sweep {
    /// `(box, mover)`, by `box.min.x`, then mover.
    boxes: Vec<(Aabb, u32)>,
    /// The widest box, m.
    width: f64,
}

impl Movers {
    /// The sweep of every collider for this tick's offsets. Each box is updated where it was
    /// in last tick's order, so the sort meets an almost sorted list (movers move little in a
    /// tick): a pass over it, not a full sort. The keys (left side, then mover index) are
    /// unique, so the order is the same whatever order the sort starts from.
    pub(super) fn sort(&mut self) {
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

    /// The movers whose inflation by collider `c` may reach `region` (world) this tick, in the
    /// sweep's order (by the left side of their box, then index: the same every run): a binary
    /// search for the first box whose left side is within the widest box's width of the region,
    /// then the boxes up to the region's right side.
    pub(super) fn near(&self, c: usize, region: Aabb) -> impl Iterator<Item = u32> + '_ {
        let sweep = &self.sweep[c];
        let from = region.min.x - sweep.width;
        let first = sweep.boxes.partition_point(|(b, _)| b.min.x < from);
        sweep.boxes[first..]
            .iter()
            .take_while(move |(b, _)| b.min.x <= region.max.x)
            .filter(move |(b, _)| b.overlaps(&region))
            .map(|&(_, m)| m)
    }

    /// The movers whose inflation by collider `c` may reach `region` (world) this tick, in the
    /// sweep's order ([`Movers::near`]; none for a collider the movers were not inflated by):
    /// what the solver's state key counts as near.
    pub fn reaching(&self, c: usize, region: Aabb) -> impl Iterator<Item = u32> + '_ {
        (c < self.sweep.len())
            .then(|| self.near(c, region))
            .into_iter()
            .flatten()
    }
}
