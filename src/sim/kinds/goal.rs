//! The goal kind: the tick the hero reached the level's goal. The goal is a region of the level
//! (`Level::goal`): the hero's feet entering it is what counts (the rules of play's
//! `SimKind::regions` phase), once; after it the level is won ([`SimKind::won_at`]): the regions
//! count no more and nothing hurts the hero.
//!
//! Must never depend on another kind, the world's private state, or window, GPU, audio or input
//! crates.
use super::{PlaySlot, SimKind, Stage, Turn};
use crate::level::Level;
use crate::sim::play::PlayEvent;

/// The goal's state: when it was reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Goal {
    /// The tick the goal was reached.
    reached: Option<u64>,
}

impl Goal {
    /// The tick the goal was reached.
    pub fn reached(&self) -> Option<u64> {
        self.reached
    }
}

impl SimKind for Goal {
    const NAME: &'static str = "goal";

    /// Not reached.
    fn build(_level: &Level) -> Goal {
        Goal { reached: None }
    }

    /// A goal reached stays reached across a level swap or edit (a restart builds it anew).
    fn level_replaced(&mut self, _level: &Level) {}

    /// The hero's feet in the goal's region reach it this tick ([`PlayEvent::GoalReached`]).
    fn regions(&mut self, stage: &mut Stage, turn: &mut Turn) {
        let feet = stage.hero.body.pos;
        if stage.level.goal.is_some_and(|g| g.contains(feet)) {
            self.reached = Some(turn.tick);
            turn.events.push(PlayEvent::GoalReached);
        }
    }

    fn won_at(&self) -> Option<u64> {
        self.reached
    }

    /// The tick the goal was reached (`u64::MAX`: not reached), the rules of play's 6th word.
    fn play_words(&self, slot: PlaySlot, words: &mut Vec<u64>) {
        if slot == PlaySlot::AfterDead {
            words.push(self.reached.unwrap_or(u64::MAX));
        }
    }

    fn is_game(&self, level: &Level) -> bool {
        level.goal.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::{Actions, Tuning};
    use crate::sim::World;

    /// A floor with the goal around the spawn.
    fn level() -> Level {
        crate::level::parse_level(
            std::path::Path::new("g.ron"),
            "(name: \"g\", polygons: [\
             (points: [(-6.0, -1.0), (6.0, -1.0), (6.0, 0.0), (-6.0, 0.0)])],\
             goal: Some((min: (-1.0, 0.0), max: (1.0, 2.0))), spawn: (0.0, 0.0))",
        )
        .unwrap()
    }

    /// The goal is reached once, at the tick the hero's feet are in it; it stays reached across
    /// a level swap and is not after a restart.
    #[test]
    fn the_goal_is_reached_once_and_kept_until_a_restart() {
        let mut w = World::new(&level(), &Tuning::default()).unwrap();
        assert!(w.is_game());
        w.step(&Actions::default());
        assert_eq!(w.goal_tick(), Some(0));
        assert_eq!(w.play_events(), [PlayEvent::GoalReached]);
        w.step(&Actions::default());
        assert!(w.play_events().is_empty(), "reached once");
        assert_eq!(w.goal_tick(), Some(0));
        assert_eq!(w.play_ticks(), 1, "the time stops at the goal");
        w.set_level(&level()).unwrap();
        assert_eq!(w.goal_tick(), Some(0));
        w.restart().unwrap();
        assert_eq!(w.goal_tick(), None);
    }
}
