//! The one replay driver: a world stepped through a replay's actions, then by whatever comes after
//! (idle ticks for `tessera sim` and `tessera render`, live input in the game).
//!
//! `tessera sim`, offscreen rendering (`render::world_at_frame`) and the game loop (`app::Game`)
//! all step through a [`ReplayDriver`], so a replay means the same ticks everywhere: what `sim`
//! traces is what `render` draws and what the game shows.
use super::replay::Replay;
use super::world::World;
use crate::movement::Actions;

/// Plays a replay's per-tick actions into a [`World`], one tick per [`ReplayDriver::step`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayDriver {
    actions: Vec<Actions>,
    pos: usize,
}

impl ReplayDriver {
    /// A driver for `replay` (none: every tick takes the actions passed to `step`).
    pub fn new(replay: Option<&Replay>) -> Self {
        ReplayDriver {
            actions: replay.map(|r| r.iter().collect()).unwrap_or_default(),
            pos: 0,
        }
    }

    /// Ticks in the replay.
    pub fn len(&self) -> u64 {
        self.actions.len() as u64
    }

    /// Whether there is no replay (or an empty one).
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Ticks of the replay played so far.
    pub fn played(&self) -> u64 {
        self.pos as u64
    }

    /// Whether the replay has been played to its end.
    pub fn finished(&self) -> bool {
        self.pos >= self.actions.len()
    }

    /// The actions of the next tick: the replay's while it lasts, then `after`.
    pub fn next_actions(&mut self, after: Actions) -> Actions {
        match self.actions.get(self.pos) {
            Some(a) => {
                self.pos += 1;
                *a
            }
            None => after,
        }
    }

    /// Steps `world` one tick with [`ReplayDriver::next_actions`]; returns the actions used.
    pub fn step(&mut self, world: &mut World, after: Actions) -> Actions {
        let actions = self.next_actions(after);
        world.step(&actions);
        actions
    }

    /// Steps `world` `ticks` times, idle past the replay's end.
    pub fn run(&mut self, world: &mut World, ticks: u64) {
        for _ in 0..ticks {
            self.step(world, Actions::default());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moving(x: f64) -> Actions {
        Actions {
            move_axis: glam::DVec2::new(x, 0.0),
            ..Actions::default()
        }
    }

    #[test]
    fn plays_the_replay_then_what_comes_after() {
        let replay = Replay::from_actions(&[moving(1.0), moving(-1.0)]);
        let mut d = ReplayDriver::new(Some(&replay));
        assert_eq!(d.len(), 2);
        assert!(!d.finished());
        assert_eq!(d.next_actions(moving(0.5)), moving(1.0));
        assert_eq!(d.next_actions(moving(0.5)), moving(-1.0));
        assert!(d.finished());
        assert_eq!(d.played(), 2);
        assert_eq!(d.next_actions(moving(0.5)), moving(0.5));
        assert_eq!(d.played(), 2);
    }

    #[test]
    fn without_a_replay_every_tick_is_the_caller_s() {
        let mut d = ReplayDriver::new(None);
        assert!(d.is_empty() && d.finished());
        assert_eq!(d.next_actions(moving(1.0)), moving(1.0));
    }
}
