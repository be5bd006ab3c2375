//! What a results screen (a level's complete screen) lets through of the menu presses: nothing
//! in its first [`RESULTS_GRACE`], and no press of a key that was already held when it came up
//! until that key has been let go. A player mashing Jump through the last jump to the goal (or
//! still holding it) must see the results instead of skipping them into the next level.
//!
//! # What it owns
//! [`ResultsGate`]: when its screen came up and whether the choosing keys were let go since. The
//! clock is the caller's (`Instant`s passed in), so the rule is tested without waiting.
//!
//! # Must never depend on
//! egui, winit or the game: plain data, fed the screen's time and the held state of the keys.
use std::time::{Duration, Instant};

use super::command::MenuNav;

/// How long a results screen ignores every press after it came up.
pub const RESULTS_GRACE: Duration = Duration::from_millis(500);

/// The gate of one results screen, from the moment it came up (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultsGate {
    opened: Instant,
    /// The keys that choose were up at some point since the screen came up.
    released: bool,
}

impl ResultsGate {
    /// A screen that came up at `now`; `held`: a key that chooses (Jump, Enter) or moves the
    /// highlight is down at that moment.
    pub fn open(now: Instant, held: bool) -> ResultsGate {
        ResultsGate {
            opened: now,
            released: !held,
        }
    }

    /// The presses of a frame at `now` that the screen acts on: none within [`RESULTS_GRACE`]
    /// of its opening, none until the keys held when it opened were let go; `held`: whether
    /// such a key is down now. `accept` is the frame's Enter (the router's menu accept).
    pub fn pass(
        &mut self,
        now: Instant,
        held: bool,
        nav: MenuNav,
        accept: bool,
    ) -> (MenuNav, bool) {
        if !held {
            self.released = true;
        }
        let open = self.released && now.saturating_duration_since(self.opened) >= RESULTS_GRACE;
        if open {
            (nav, accept)
        } else {
            (MenuNav::default(), false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCEPT: MenuNav = MenuNav {
        up: 0,
        down: 0,
        accept: true,
        back: false,
    };

    #[test]
    fn nothing_passes_in_the_first_half_second() {
        let t0 = Instant::now();
        let mut g = ResultsGate::open(t0, false);
        let at = |ms| t0 + Duration::from_millis(ms);
        assert_eq!(
            g.pass(at(0), false, ACCEPT, true),
            (MenuNav::default(), false)
        );
        assert_eq!(
            g.pass(at(499), false, ACCEPT, true),
            (MenuNav::default(), false)
        );
        assert_eq!(g.pass(at(500), false, ACCEPT, true), (ACCEPT, true));
    }

    #[test]
    fn a_key_held_from_play_must_be_let_go_first() {
        let t0 = Instant::now();
        let mut g = ResultsGate::open(t0, true);
        let at = |ms| t0 + Duration::from_millis(ms);
        // Still held after the grace: nothing (an auto-repeat or a second pad's press included).
        assert_eq!(
            g.pass(at(1400), true, ACCEPT, false),
            (MenuNav::default(), false)
        );
        // Let go, then pressed again: that press counts.
        assert_eq!(
            g.pass(at(1450), false, MenuNav::default(), false).0,
            MenuNav::default()
        );
        assert_eq!(g.pass(at(1500), true, ACCEPT, false), (ACCEPT, false));
    }
}
