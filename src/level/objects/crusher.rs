//! A triggered crusher: a block that drops when a character passes under it, holds down, and
//! rises back, then waits for the next one.
//!
//! Made of one mover on a `loop` track of two keys, stopped until a character's feet enter the
//! box under it (`region`, from its bottom down to `reach` below), stopped again when its track
//! comes back round to its first key (`track_key`): the drop (`drop_time`, speeding up), a
//! hold at the bottom (`hold`), the rise (`rise`, smooth). A character caught under it is
//! crushed as by any mover.
//!
//! Must never depend on the simulation, the editor, or any window, GPU or audio crate.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::{add_round_trip, add_signal, block_problem, key, seconds_problem, Composite};
use crate::collision::Aabb;
use crate::level::fields::{object_fields, ObjectField, Widget};
use crate::level::{Level, RegionEdge, SignalSource, SignalWho, TrackEase};

/// The longest time any of its phases may take, s.
pub const MAX_TIME: f64 = 60.0;

/// The farthest it may drop or watch below itself, m.
pub const MAX_DROP: f64 = 100.0;

object_fields! {
/// A triggered crusher (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Crusher {
    /// The block, m, where it rests.
    pub block: Aabb => ("block", Widget::Custom),
    /// How far it drops, m.
    pub drop: f64 => ("drop", Widget::Number { min: 0.1, max: MAX_DROP, unit: "m", speed: 0.05 }),
    /// How far below its bottom a character's feet set it off, m. Default: its drop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<f64> => ("reach", Widget::Optional { min: 0.1, max: MAX_DROP, unit: "m", speed: 0.05, default: 3.0 }),
    /// Seconds the drop takes (speeding up). Default 0.25.
    #[serde(default = "quarter")]
    pub drop_time: f64 => ("drop time", Widget::Number { min: 0.05, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds it holds at the bottom. Default 1.
    #[serde(default = "one")]
    pub hold: f64 => ("hold", Widget::Number { min: 0.0, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds it takes to rise back. Default 2.
    #[serde(default = "two")]
    pub rise: f64 => ("rise", Widget::Number { min: 0.05, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Whose feet set it off: `any` (the default), `hero` or `agent`.
    #[serde(default = "any")]
    pub who: SignalWho => ("who", Widget::Choice),
}
}

fn quarter() -> f64 {
    0.25
}
fn one() -> f64 {
    1.0
}
fn two() -> f64 {
    2.0
}
fn any() -> SignalWho {
    SignalWho::Any
}

impl Crusher {
    /// The box under it that a character's feet set it off in.
    pub fn under(&self) -> Aabb {
        let reach = self.reach.unwrap_or(self.drop);
        Aabb {
            min: DVec2::new(self.block.min.x, self.block.min.y - reach),
            max: DVec2::new(self.block.max.x, self.block.min.y),
        }
    }
}

impl Composite for Crusher {
    const NAME: &'static str = "crusher";

    fn problem(&self) -> Option<String> {
        let metres = |what: &str, m: f64| {
            (!(m.is_finite() && m > 0.0 && m <= MAX_DROP))
                .then(|| format!("its {what}, {m} m, must be from 0 to {MAX_DROP} m"))
        };
        block_problem(&self.block)
            .or_else(|| metres("drop", self.drop))
            .or_else(|| self.reach.and_then(|r| metres("reach", r)))
            .or_else(|| seconds_problem("drop time", self.drop_time, 0.05, MAX_TIME))
            .or_else(|| seconds_problem("hold", self.hold, 0.0, MAX_TIME))
            .or_else(|| seconds_problem("rise", self.rise, 0.05, MAX_TIME))
    }

    fn expand(&self, name: &str, level: &mut Level) {
        let under = add_signal(
            level,
            name,
            "under",
            SignalSource::Region {
                area: self.under(),
                who: self.who,
                on: RegionEdge::Enter,
            },
        );
        let keys = vec![
            key(DVec2::ZERO, 0.0, self.drop_time, TrackEase::In),
            key(DVec2::new(0.0, -self.drop), self.hold, self.rise, TrackEase::Smooth),
        ];
        add_round_trip(level, name, self.block, keys, under);
    }

    fn area(&self) -> Aabb {
        self.block
    }

    fn block_mut(&mut self) -> &mut Aabb {
        &mut self.block
    }

    fn placed(at: DVec2) -> Self {
        Crusher {
            block: Aabb {
                min: at + DVec2::new(-1.0, 3.0),
                max: at + DVec2::new(1.0, 4.0),
            },
            drop: 3.0,
            reach: None,
            drop_time: quarter(),
            hold: one(),
            rise: two(),
            who: SignalWho::Any,
        }
    }

    fn fields_mut(&mut self) -> Vec<ObjectField<'_>> {
        Crusher::fields_mut(self)
    }
}
