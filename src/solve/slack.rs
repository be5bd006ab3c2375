//! A route's slack: for each input change, how many ticks earlier and later it could come (the
//! later changes at their ticks) and the route still reach the goal with no death. The
//! narrowest window (earlier + later + 1 ticks) is the route's hardest moment.
//!
//! Each shifted run starts from a snapshot of the route's own run at the tick the shift first
//! changes, and stops early once its state hash equals the route's at the same tick (from there
//! it is the route). A shift is capped at [`MAX_SHIFT`] ticks and at the neighbouring holds'
//! lengths (a change never passes another).
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use super::moves::Move;
use super::route::Route;
use crate::sim::{Snapshot, World, TICK_HZ};

/// The furthest a change is shifted, ticks.
pub const MAX_SHIFT: u32 = 16;

/// One input change's slack.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slack {
    /// The tick the change comes at in the route.
    pub tick: u64,
    /// The move it changes to.
    pub to: Move,
    /// Ticks it could come earlier (every shift up to this one reaches the goal).
    pub earlier: u32,
    /// Ticks it could come later.
    pub later: u32,
    /// The hero's feet at that tick.
    pub pos: DVec2,
}

impl Slack {
    /// The ticks the change may come at: `earlier + later + 1`.
    pub fn window(&self) -> u32 {
        self.earlier + self.later + 1
    }
}

/// Each change's slack in `route`, run from `world`'s state (restored to it at the end), and
/// the ticks simulated.
pub fn slack(world: &mut World, route: &Route) -> (Vec<Slack>, u64) {
    let start = world.snapshot();
    let deaths = world.play().deaths;
    let moves = route.per_tick();
    // The route's own run: a snapshot before each tick and the hash after it.
    let mut snaps: Vec<Snapshot> = Vec::with_capacity(moves.len());
    let mut hashes = Vec::with_capacity(moves.len());
    let mut prev = Move::default();
    for &m in &moves {
        snaps.push(world.snapshot());
        world.step(&m.actions(prev));
        hashes.push(world.state_hash());
        prev = m;
    }
    let mut ticks = moves.len() as u64;
    // A shifted run may reach the goal a little later: it holds the last move this long.
    let grace = TICK_HZ as usize;
    let mut reaches = |shifted: &[Move], from: usize, ticks: &mut u64| -> bool {
        world.restore(&snaps[from]);
        let mut prev = if from == 0 {
            Move::default()
        } else {
            shifted[from - 1]
        };
        let last = *shifted.last().expect("a route has a move");
        for t in from..shifted.len() + grace {
            let m = shifted.get(t).copied().unwrap_or(last);
            world.step(&m.actions(prev));
            prev = m;
            *ticks += 1;
            if world.goal_tick().is_some() {
                return true;
            }
            if world.play().deaths > deaths || world.play().is_dead() {
                return false;
            }
            if t < hashes.len() && t > from && world.state_hash() == hashes[t] {
                // The hash covers the hero and the world but not the move held: the next
                // press is the same only if the move held is.
                if shifted[t] == moves[t] {
                    return true;
                }
            }
        }
        false
    };
    let holds = &route.holds;
    let changes = route.changes();
    let mut out = Vec::with_capacity(changes.len());
    for (i, &(at, to)) in changes.iter().enumerate() {
        let at_u = at as usize;
        let before = if i == 0 { 0 } else { holds[i - 1].1 - 1 };
        let mut earlier = 0;
        for k in 1..=before.min(MAX_SHIFT) {
            let mut shifted = moves.clone();
            shifted[at_u - k as usize..at_u].fill(to);
            if !reaches(&shifted, at_u - k as usize, &mut ticks) {
                break;
            }
            earlier = k;
        }
        let mut later = 0;
        if i > 0 {
            let from = holds[i - 1].0;
            for k in 1..(holds[i].1).min(MAX_SHIFT + 1) {
                let mut shifted = moves.clone();
                shifted[at_u..at_u + k as usize].fill(from);
                if !reaches(&shifted, at_u, &mut ticks) {
                    break;
                }
                later = k;
            }
        }
        out.push(Slack {
            tick: at,
            to,
            earlier,
            later,
            pos: snaps[at_u].hero().body.pos,
        });
    }
    world.restore(&start);
    (out, ticks)
}

/// The narrowest window among `slack`, the first of equals; `None` for none. The route's
/// first move (at tick 0) cannot come earlier, so it counts only with a later change.
pub fn narrowest(slack: &[Slack]) -> Option<&Slack> {
    slack
        .iter()
        .filter(|s| s.tick > 0)
        .min_by_key(|s| (s.window(), s.tick))
}

#[cfg(test)]
mod tests {
    use super::super::route::actions_of;
    use super::super::search::{search, tests::world, Config, Outcome};
    use super::*;

    /// Runs `moves` from a fresh world: whether the goal is reached with no death, holding the
    /// last move a second more.
    fn reaches(moves: &[Move]) -> bool {
        let mut w = world(6.0);
        let mut all = moves.to_vec();
        all.extend(std::iter::repeat_n(
            *moves.last().unwrap(),
            TICK_HZ as usize,
        ));
        for a in actions_of(&all) {
            w.step(&a);
            if w.goal_tick().is_some() {
                return w.play().deaths == 0;
            }
        }
        false
    }

    /// Each change's window, checked by running the shifted routes from the start: every shift
    /// within it reaches the goal, and the first shift past it (where one is tried) does not.
    #[test]
    fn each_window_holds_and_ends_where_the_route_fails() {
        let mut w = world(6.0);
        let Outcome::Solved(route) = search(&mut w, &Config::default()).0 else {
            panic!("not solved");
        };
        let before = w.state_hash();
        let (slacks, ticks) = slack(&mut w, &route);
        assert_eq!(w.state_hash(), before);
        assert!(ticks > route.ticks());
        assert_eq!(slacks.len(), route.holds.len());
        let moves = route.per_tick();
        for (i, s) in slacks.iter().enumerate().skip(1) {
            let at = s.tick as usize;
            let shift = |k: i64| {
                let mut m = moves.clone();
                if k < 0 {
                    m[at - (-k) as usize..at].fill(s.to);
                } else {
                    m[at..at + k as usize].fill(route.holds[i - 1].0);
                }
                m
            };
            for k in -(s.earlier as i64)..=s.later as i64 {
                assert!(reaches(&shift(k)), "change {i} shifted {k}");
            }
            if s.earlier < MAX_SHIFT && s.earlier + 1 < route.holds[i - 1].1 {
                assert!(!reaches(&shift(-(s.earlier as i64) - 1)), "change {i}");
            }
        }
        assert!(narrowest(&slacks).is_some());
    }
}
