//! A timed door: a door that opens and closes on a schedule, `closed_for` seconds shut then
//! `open_for` seconds open, for ever (or open first, with `open`).
//!
//! Made of one door and one timer: the timer opens it (first at the end of its first closed
//! spell, then every cycle: `timer(at, every)`), and the door closes itself `open_for` seconds
//! after it opened (its `close_after`), moving out a character it closes on, as any door.
//!
//! Must never depend on the simulation, the editor, or any window, GPU or audio crate.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::{add_signal, block_outline, block_problem, seconds_problem, Composite};
use crate::collision::Aabb;
use crate::level::fields::{object_fields, ObjectField, Widget};
use crate::level::{Level, LevelDoor, SignalSource};

/// The longest spell it may be open or closed, s.
pub const MAX_TIME: f64 = 3600.0;

object_fields! {
/// A timed door (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimedDoor {
    /// The door's block, m.
    pub block: Aabb => ("block", Widget::Custom),
    /// Seconds it stays open each time. Default 2.
    #[serde(default = "two")]
    pub open_for: f64 => ("open for", Widget::Number { min: 0.1, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Seconds it stays closed each time. Default 2.
    #[serde(default = "two")]
    pub closed_for: f64 => ("closed for", Widget::Number { min: 0.1, max: MAX_TIME, unit: "s", speed: 0.05 }),
    /// Whether it starts open (then closes `open_for` in). Default: closed (then opens
    /// `closed_for` in).
    #[serde(default, skip_serializing_if = "crate::level::document::is_default")]
    pub open: bool => ("starts open", Widget::Flag),
}
}

fn two() -> f64 {
    2.0
}

impl Composite for TimedDoor {
    const NAME: &'static str = "timed door";

    fn problem(&self) -> Option<String> {
        block_problem(&self.block)
            .or_else(|| seconds_problem("open time", self.open_for, 0.1, MAX_TIME))
            .or_else(|| seconds_problem("closed time", self.closed_for, 0.1, MAX_TIME))
    }

    fn expand(&self, name: &str, level: &mut Level) {
        let cycle = self.open_for + self.closed_for;
        let first = if self.open { cycle } else { self.closed_for };
        let open = add_signal(
            level,
            name,
            "open",
            SignalSource::Timer {
                at: Some(first),
                every: Some(cycle),
            },
        );
        level.doors.push(LevelDoor {
            points: block_outline(self.block),
            open: self.open,
            switch: None,
            close_after: Some(self.open_for),
            open_on: vec![open],
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

    /// A door 1 m to the right of the click, its foot at the click's height (so it does not
    /// cover the click: a crumbling block placed at the same point sits there).
    fn placed(at: DVec2) -> Self {
        TimedDoor {
            block: Aabb {
                min: at + DVec2::new(1.0, 0.0),
                max: at + DVec2::new(1.5, 3.0),
            },
            open_for: two(),
            closed_for: two(),
            open: false,
        }
    }

    fn fields_mut(&mut self) -> Vec<ObjectField<'_>> {
        TimedDoor::fields_mut(self)
    }
}
