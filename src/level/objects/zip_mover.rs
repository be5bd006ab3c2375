//! A zip mover: a block that, touched (stood on), runs fast to its end, waits there a moment,
//! and comes back slowly to where it was, then waits to be touched again.
//!
//! Made of one mover on a `loop` track of two keys, stopped until a character stands on it
//! (`stood_on`), stopped again when its track comes back round to its first key
//! (`track_key`): the run (`run`, speeding up), a hold at the end (`hold`), the way back
//! (`back`, at constant speed).
//!
//! Must never depend on the simulation, the editor, or any window, GPU or audio crate.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::{add_round_trip, add_signal, block_problem, key, seconds_problem, stood, Composite};
use crate::collision::Aabb;
use crate::level::fields::{object_fields, ObjectField, Widget};
use crate::level::{Level, SignalWho, TrackEase};

/// The longest time any of its phases may take, s.
pub const MAX_TIME: f64 = 60.0;

object_fields! {
/// A zip mover (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZipMover {
    /// The block, m, where it rests.
    pub block: Aabb => ("block", Widget::Custom),
    /// Where its run ends, as an offset from where it rests, m.
    pub to: DVec2 => ("to", Widget::Point),
    /// Seconds the run takes (speeding up). Default 0.5.
    #[serde(default = "half")]
    pub run: f64 => ("run", Widget::Number { min: 0.05, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds it waits at the end. Default 0.5.
    #[serde(default = "half")]
    pub hold: f64 => ("hold", Widget::Number { min: 0.0, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds the way back takes. Default 3.
    #[serde(default = "three")]
    pub back: f64 => ("back", Widget::Number { min: 0.05, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Who sets it off by standing on it: `hero` (the default), `agent` or `any`.
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

impl Composite for ZipMover {
    const NAME: &'static str = "zip mover";

    fn problem(&self) -> Option<String> {
        block_problem(&self.block)
            .or_else(|| {
                (!(self.to.is_finite() && self.to != DVec2::ZERO && self.to.length() <= 1000.0))
                    .then(|| {
                        format!(
                            "its end ({}, {}) must be an offset of more than 0 and at most 1000 m",
                            self.to.x, self.to.y
                        )
                    })
            })
            .or_else(|| seconds_problem("run", self.run, 0.05, MAX_TIME))
            .or_else(|| seconds_problem("hold", self.hold, 0.0, MAX_TIME))
            .or_else(|| seconds_problem("back", self.back, 0.05, MAX_TIME))
    }

    fn expand(&self, name: &str, level: &mut Level) {
        let mover = level.movers.len();
        let touched = add_signal(level, name, "touched", stood(mover, self.who));
        let keys = vec![
            key(DVec2::ZERO, 0.0, self.run, TrackEase::In),
            key(self.to, self.hold, self.back, TrackEase::Linear),
        ];
        add_round_trip(level, name, self.block, keys, touched);
    }

    fn area(&self) -> Aabb {
        self.block
    }

    fn block_mut(&mut self) -> &mut Aabb {
        &mut self.block
    }

    fn placed(at: DVec2) -> Self {
        ZipMover {
            block: Aabb {
                min: at - DVec2::new(1.0, 0.0),
                max: at + DVec2::new(1.0, 0.5),
            },
            to: DVec2::new(6.0, 0.0),
            run: half(),
            hold: half(),
            back: three(),
            who: SignalWho::Hero,
        }
    }

    fn fields_mut(&mut self) -> Vec<ObjectField<'_>> {
        ZipMover::fields_mut(self)
    }
}
