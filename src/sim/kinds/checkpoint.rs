//! The checkpoint kind: the last checkpoint the hero reached, and where it respawns. A
//! checkpoint is a region of the level (`Level::checkpoints`): the hero's feet entering one is
//! what counts, while the goal is not reached (the rules of play's `SimKind::regions` phase).
//! The hero respawns at the bottom centre of the last one reached, or at the level's spawn.
//!
//! Must never depend on another kind, the world's private state, or window, GPU, audio or input
//! crates.
use glam::DVec2;

use super::{PlaySlot, SimKind, Stage, Turn};
use crate::level::Level;
use crate::sim::play::PlayEvent;

/// The checkpoints' state: the last one reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checkpoints {
    /// The last checkpoint reached (index in the level's `checkpoints`).
    reached: Option<usize>,
}

impl Checkpoints {
    /// The last checkpoint reached (index in the level's `checkpoints`).
    pub fn reached(&self) -> Option<usize> {
        self.reached
    }

    /// Where the hero respawns: the bottom centre of the last checkpoint's region, or the spawn.
    pub fn respawn_point(&self, level: &Level) -> DVec2 {
        self.reached
            .and_then(|i| level.checkpoints.get(i))
            .map_or(level.spawn, |b| {
                DVec2::new((b.min.x + b.max.x) * 0.5, b.min.y)
            })
    }
}

impl SimKind for Checkpoints {
    const NAME: &'static str = "checkpoint";

    /// None reached.
    fn build(_level: &Level) -> Checkpoints {
        Checkpoints { reached: None }
    }

    /// The checkpoint reached stays, unless the new level has no checkpoint of its index.
    fn level_replaced(&mut self, level: &Level) {
        if self.reached.is_some_and(|c| c >= level.checkpoints.len()) {
            self.reached = None;
        }
    }

    /// The first checkpoint (in the level's order) the hero's feet are in is reached, with a
    /// [`PlayEvent::Checkpoint`] when it was not the last one reached.
    fn regions(&mut self, stage: &mut Stage, turn: &mut Turn) {
        let feet = stage.hero.body.pos;
        if let Some(i) = stage.level.checkpoints.iter().position(|c| c.contains(feet)) {
            if self.reached != Some(i) {
                self.reached = Some(i);
                turn.events.push(PlayEvent::Checkpoint { index: i });
            }
        }
    }

    fn respawn_at(&self, level: &Level) -> Option<DVec2> {
        Some(self.respawn_point(level))
    }

    /// The checkpoint reached (`u64::MAX` for none), the rules of play's 4th word.
    fn play_words(&self, slot: PlaySlot, words: &mut Vec<u64>) {
        if slot == PlaySlot::AfterDeaths {
            words.push(self.reached.map_or(u64::MAX, |c| c as u64));
        }
    }

    fn is_game(&self, level: &Level) -> bool {
        !level.checkpoints.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::{Actions, Tuning};
    use crate::sim::World;

    /// A floor with checkpoint 0 around the spawn and checkpoint 1 further right.
    fn level(checkpoints: &str) -> Level {
        crate::level::parse_level(
            std::path::Path::new("c.ron"),
            &format!(
                "(name: \"c\", polygons: [\
                 (points: [(-6.0, -1.0), (6.0, -1.0), (6.0, 0.0), (-6.0, 0.0)])],\
                 checkpoints: [{checkpoints}], spawn: (0.0, 0.0))"
            ),
        )
        .unwrap()
    }

    /// The hero's feet in a checkpoint reach it once (one event), the respawn point is its
    /// bottom centre, and a level swap keeps it only while the new level has a checkpoint of
    /// that index.
    #[test]
    fn a_checkpoint_is_reached_once_and_kept_across_a_swap_while_it_exists() {
        let two = "(min: (-1.0, 0.0), max: (2.0, 2.0)), (min: (4.0, 0.0), max: (5.0, 2.0))";
        let mut w = World::new(&level(two), &Tuning::default()).unwrap();
        assert_eq!(w.checkpoint(), None);
        w.step(&Actions::default());
        assert_eq!(w.checkpoint(), Some(0));
        assert_eq!(w.play_events(), [PlayEvent::Checkpoint { index: 0 }]);
        w.step(&Actions::default());
        assert!(w.play_events().is_empty(), "reached once");
        let c = Checkpoints { reached: Some(0) };
        assert_eq!(c.respawn_point(&w.level()), DVec2::new(0.5, 0.0));
        assert_eq!(Checkpoints::default().respawn_point(&w.level()), DVec2::ZERO);

        w.set_level(&level(two)).unwrap();
        assert_eq!(w.checkpoint(), Some(0));
        w.set_level(&level("")).unwrap();
        assert_eq!(w.checkpoint(), None);
        w.set_level(&level(two)).unwrap();
        w.step(&Actions::default());
        assert_eq!(w.checkpoint(), Some(0));
        w.restart().unwrap();
        assert_eq!(w.checkpoint(), None);
    }
}
