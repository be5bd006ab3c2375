//! A falling platform: a block that, stood on, shakes for a moment, falls, waits at the bottom
//! and rises back to where it was, then waits to be stood on again.
//!
//! Made of one mover on a `loop` track, stopped until a character stands on it (`stood_on`),
//! stopped again when its track comes round to its first key (`track_key`): the shake (eight
//! legs side to side, [`SHAKE_AMPLITUDE`]), the fall (easing in, as a dropped thing speeds up),
//! a hold at the bottom for `back_after`, and the rise back (`rise`, smooth).
//!
//! Must never depend on the simulation, the editor, or any window, GPU or audio crate.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::{add_round_trip, add_signal, block_problem, key, seconds_problem, stood, Composite};
use crate::collision::Aabb;
use crate::level::fields::{object_fields, ObjectField, Widget};
use crate::level::{Level, SignalWho, TrackEase};

/// How far it shakes to each side, m.
pub const SHAKE_AMPLITUDE: f64 = 0.03;

/// The longest time any of its phases may take, s.
pub const MAX_TIME: f64 = 60.0;

object_fields! {
/// A falling platform (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FallingPlatform {
    /// The block, m, where it rests.
    pub block: Aabb => ("block", Widget::Custom),
    /// Seconds it shakes, from the tick it is stood on, before it falls. Default 0.4.
    #[serde(default = "shake")]
    pub shake: f64 => ("shake", Widget::Number { min: 0.4, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// How far it falls, m. Default 8.
    #[serde(default = "fall")]
    pub fall: f64 => ("fall", Widget::Number { min: 0.5, max: 1000.0, unit: "m", speed: 0.1 }),
    /// Seconds the fall takes (speeding up). Default 1.
    #[serde(default = "one")]
    pub fall_time: f64 => ("fall time", Widget::Number { min: 0.05, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds it waits at the bottom before it comes back. Default 2.
    #[serde(default = "two")]
    pub back_after: f64 => ("back after", Widget::Number { min: 0.0, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds it takes to rise back. Default 2.
    #[serde(default = "two")]
    pub rise: f64 => ("rise", Widget::Number { min: 0.05, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Who sets it off by standing on it: `hero` (the default), `agent` or `any`.
    #[serde(default)]
    pub who: SignalWho => ("who", Widget::Choice),
}
}

fn shake() -> f64 {
    0.4
}
fn fall() -> f64 {
    8.0
}
fn one() -> f64 {
    1.0
}
fn two() -> f64 {
    2.0
}

impl Composite for FallingPlatform {
    const NAME: &'static str = "falling platform";

    fn problem(&self) -> Option<String> {
        block_problem(&self.block)
            .or_else(|| seconds_problem("shake", self.shake, 0.4, MAX_TIME))
            .or_else(|| {
                (!(self.fall.is_finite() && self.fall > 0.0 && self.fall <= 1000.0))
                    .then(|| format!("its fall, {} m, must be from 0 to 1000 m", self.fall))
            })
            .or_else(|| seconds_problem("fall time", self.fall_time, 0.05, MAX_TIME))
            .or_else(|| seconds_problem("back after", self.back_after, 0.0, MAX_TIME))
            .or_else(|| seconds_problem("rise", self.rise, 0.05, MAX_TIME))
    }

    fn expand(&self, name: &str, level: &mut Level) {
        let mover = level.movers.len();
        let on = add_signal(level, name, "stood", stood(mover, self.who));
        let side = |k: usize| match k % 4 {
            1 => SHAKE_AMPLITUDE,
            3 => -SHAKE_AMPLITUDE,
            _ => 0.0,
        };
        let mut keys: Vec<_> = (0..8)
            .map(|k| key(DVec2::new(side(k), 0.0), 0.0, self.shake / 8.0, TrackEase::Linear))
            .collect();
        keys.push(key(DVec2::ZERO, 0.0, self.fall_time, TrackEase::In));
        keys.push(key(DVec2::new(0.0, -self.fall), self.back_after, self.rise, TrackEase::Smooth));
        add_round_trip(level, name, self.block, keys, on);
    }

    fn area(&self) -> Aabb {
        self.block
    }

    fn block_mut(&mut self) -> &mut Aabb {
        &mut self.block
    }

    fn placed(at: DVec2) -> Self {
        FallingPlatform {
            block: Aabb {
                min: at - DVec2::new(1.0, 0.0),
                max: at + DVec2::new(1.0, 0.5),
            },
            shake: shake(),
            fall: fall(),
            fall_time: one(),
            back_after: two(),
            rise: two(),
            who: SignalWho::Hero,
        }
    }

    fn fields_mut(&mut self) -> Vec<ObjectField<'_>> {
        FallingPlatform::fields_mut(self)
    }
}
