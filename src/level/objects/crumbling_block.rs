//! A crumbling block: a solid block that crumbles away a moment after a character steps onto
//! it, and is back a while later.
//!
//! Made of one door (a block is there while the door is closed, gone while it is open, no
//! re-mesh: `collision::CollisionMesh::set_gate`) and two signals: a character's feet entering
//! a thin box along its top (`region`; a door is not a mover, so nothing rides it) and, `delay`
//! later, the crumble (`after`), which opens the door; the door closes again `back_after`
//! seconds later (its `close_after`), moving out a character it comes back on, as any door.
//!
//! Must never depend on the simulation, the editor, or any window, GPU or audio crate.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::{add_signal, block_outline, block_problem, seconds_problem, Composite};
use crate::collision::Aabb;
use crate::level::fields::{object_fields, ObjectField, Widget};
use crate::level::{Level, LevelDoor, RegionEdge, SignalSource, SignalWho};

/// How far above its top (and below, for the feet's rounding) a character's feet count as on
/// it, m.
pub const TOP_BAND: f64 = 0.05;

/// The longest time it may wait, s.
pub const MAX_TIME: f64 = 600.0;

object_fields! {
/// A crumbling block (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrumblingBlock {
    /// The block, m.
    pub block: Aabb => ("block", Widget::Custom),
    /// Seconds from a character stepping on it to its crumbling. Default 0.5.
    #[serde(default = "half")]
    pub delay: f64 => ("delay", Widget::Number { min: 0.05, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds it is gone before it is back. Default 3.
    #[serde(default = "three")]
    pub back_after: f64 => ("back after", Widget::Number { min: 0.1, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Whose feet set it off: `hero` (the default), `agent` or `any`.
    #[serde(default)]
    pub who: SignalWho => ("who", Widget::Choice),
}
}

fn half() -> f64 {
    0.5
}
fn three() -> f64 {
    3.0
}

impl CrumblingBlock {
    /// The box along its top that a character's feet step into.
    pub fn top(&self) -> Aabb {
        Aabb {
            min: DVec2::new(self.block.min.x, self.block.max.y - TOP_BAND),
            max: DVec2::new(self.block.max.x, self.block.max.y + TOP_BAND),
        }
    }
}

impl Composite for CrumblingBlock {
    const NAME: &'static str = "crumbling block";

    fn problem(&self) -> Option<String> {
        block_problem(&self.block)
            .or_else(|| seconds_problem("delay", self.delay, 0.05, MAX_TIME))
            .or_else(|| seconds_problem("back after", self.back_after, 0.1, MAX_TIME))
    }

    fn expand(&self, name: &str, level: &mut Level) {
        let step = add_signal(
            level,
            name,
            "stepped",
            SignalSource::Region {
                area: self.top(),
                who: self.who,
                on: RegionEdge::Enter,
            },
        );
        let crumble = add_signal(
            level,
            name,
            "crumble",
            SignalSource::After {
                signal: step,
                seconds: self.delay,
            },
        );
        level.doors.push(LevelDoor {
            points: block_outline(self.block),
            open: false,
            switch: None,
            close_after: Some(self.back_after),
            open_on: vec![crumble],
            close_on: Vec::new(),
            toggle_on: Vec::new(),
        });
    }

    fn area(&self) -> Aabb {
        self.block
    }

    fn block_mut(&mut self) -> &mut Aabb {
        &mut self.block
    }

    fn placed(at: DVec2) -> Self {
        CrumblingBlock {
            block: Aabb {
                min: at - DVec2::new(0.5, 0.0),
                max: at + DVec2::new(0.5, 1.0),
            },
            delay: half(),
            back_after: three(),
            who: SignalWho::Hero,
        }
    }

    fn fields_mut(&mut self) -> Vec<ObjectField<'_>> {
        CrumblingBlock::fields_mut(self)
    }

    fn example() -> Self {
        Self::placed(DVec2::new(7.0, 1.0))
    }
}
