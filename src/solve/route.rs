//! A route: the moves held from the level's start, each for some ticks, and what it turns into
//! (per-tick actions, a replay in the project's format, the list of input changes).
//!
//! Must never depend on window, GPU, audio or input crates.
use super::moves::Move;
use crate::movement::Actions;
use crate::sim::{Replay, TICK_HZ};

/// Moves held in turn from tick 0; the goal is reached on the last tick.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Route {
    /// Each move and the ticks it is held, in order; no two neighbours alike.
    pub holds: Vec<(Move, u32)>,
}

impl Route {
    /// A route from holds in order, neighbours holding the same move merged.
    pub fn new(holds: impl IntoIterator<Item = (Move, u32)>) -> Route {
        let mut out: Vec<(Move, u32)> = Vec::new();
        for (m, n) in holds {
            match out.last_mut() {
                Some((last, k)) if *last == m => *k += n,
                _ if n > 0 => out.push((m, n)),
                _ => {}
            }
        }
        Route { holds: out }
    }

    /// Ticks in the route (the goal is reached on its last).
    pub fn ticks(&self) -> u64 {
        self.holds.iter().map(|&(_, n)| n as u64).sum()
    }

    /// The route's time in seconds.
    pub fn seconds(&self) -> f64 {
        self.ticks() as f64 / TICK_HZ as f64
    }

    /// The move held on each tick.
    pub fn per_tick(&self) -> Vec<Move> {
        self.holds
            .iter()
            .flat_map(|&(m, n)| std::iter::repeat_n(m, n as usize))
            .collect()
    }

    /// Each input change: the tick a move starts and the move (the first at tick 0).
    pub fn changes(&self) -> Vec<(u64, Move)> {
        let mut t = 0;
        self.holds
            .iter()
            .map(|&(m, n)| {
                let at = t;
                t += n as u64;
                (at, m)
            })
            .collect()
    }

    /// The per-tick actions: each tick's move, pressed where its hold starts.
    pub fn actions(&self) -> Vec<Actions> {
        actions_of(&self.per_tick())
    }

    /// The route as a replay (`sim::replay`), with a second of idle ticks after the goal (as
    /// the shipped replays have).
    pub fn replay(&self) -> Replay {
        let actions = self.actions();
        let mut r = Replay::from_actions(&actions);
        r.frames = Some(actions.len() as u64 + TICK_HZ as u64);
        r
    }
}

/// The actions of holding `moves[t]` on tick `t` from an idle start.
pub fn actions_of(moves: &[Move]) -> Vec<Actions> {
    let mut prev = Move::default();
    moves
        .iter()
        .map(|&m| {
            let a = m.actions(prev);
            prev = m;
            a
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(dir: i8, jump: bool) -> Move {
        Move {
            dir,
            jump,
            ..Move::default()
        }
    }

    /// Neighbours holding the same move merge; the replay plays back the same actions.
    #[test]
    fn a_route_merges_holds_and_its_replay_plays_its_actions() {
        let r = Route::new([
            (m(1, false), 8),
            (m(1, false), 4),
            (m(1, true), 8),
            (m(0, false), 4),
        ]);
        assert_eq!(r.holds.len(), 3);
        assert_eq!(r.ticks(), 24);
        assert_eq!(
            r.changes(),
            [(0, m(1, false)), (12, m(1, true)), (20, m(0, false))]
        );
        let a = r.actions();
        assert!(a[12].jump_pressed && !a[13].jump_pressed);
        let played: Vec<Actions> = r.replay().iter().collect();
        assert_eq!(&played[..24], &a[..]);
        assert_eq!(played.len(), 24 + TICK_HZ as usize);
    }
}
