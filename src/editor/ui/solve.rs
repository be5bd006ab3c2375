//! The editor's **Solve**: the solver (`crate::solve`) run on the level as it is in the editor,
//! on a thread of its own, its route drawn over the view as the hero's path and its narrowest
//! windows (the presses with the least slack) marked where they happen. After a save of a level
//! with a goal, the same search runs by itself, and a level that no route finishes gets a
//! warning in the status bar with the furthest point reached.
//!
//! It owns the running search (one at a time: a request while one runs waits for it, and only
//! the latest request is kept) and the last result, which an edit makes stale (cleared: a route
//! through a level that changed proves nothing). It never blocks a frame (the frame only polls a
//! channel) and never writes the document. The search is the CLI's (`tessera solve`): the same
//! level, tuning and budget give the same route, so what the editor draws is what `solve` prints.
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::time::Instant;

use glam::DVec2;

use crate::level::Level;
use crate::movement::Tuning;
use crate::sim::World;
use crate::solve::{search, slack, Config, Outcome, NOMINAL_TICKS_PER_SECOND};

/// The budget of the editor's search, in nominal seconds (the CLI's default too).
pub const BUDGET_SECONDS: f64 = 30.0;

/// How many of the narrowest windows are marked.
pub const MARKS: usize = 3;

/// A press with little slack: where and when it happens, and its window in ticks.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// The hero's feet when the press comes.
    pub at: DVec2,
    /// The tick of the press.
    pub tick: u64,
    /// How many ticks the press may move (earlier + later + 1) and still reach the goal.
    pub window: u32,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// A route: the hero's feet every tick, its length, its input changes and the narrowest
    /// windows, narrowest first.
    Route {
        /// The hero's feet at every tick of the route.
        path: Vec<DVec2>,
        /// The route's length in seconds.
        seconds: f64,
        /// Its input changes.
        changes: usize,
        /// The narrowest windows, narrowest first (at most [`MARKS`]).
        marks: Vec<Mark>,
    },
    /// No route: every reachable state was tried (`exhausted`), or the budget ran out.
    NoRoute {
        /// The furthest point reached (closest to the goal).
        furthest: DVec2,
        /// Its tick.
        tick: u64,
        /// Whether the search tried everything (else it ran out of budget).
        exhausted: bool,
    },
    /// The level has no goal.
    NoGoal,
    /// The level could not be built into a world.
    Failed(String),
}

impl Found {
    /// One line for the status bar.
    pub fn summary(&self) -> String {
        match self {
            Found::Route {
                seconds,
                changes,
                marks,
                ..
            } => {
                let hardest = marks.first().map_or(String::new(), |m| {
                    format!(
                        "; the narrowest press: {} ticks at ({:.1}, {:.1})",
                        m.window, m.at.x, m.at.y
                    )
                });
                format!("solved: a route of {seconds:.2} s, {changes} input changes{hardest}")
            }
            Found::NoRoute {
                furthest,
                tick,
                exhausted,
            } => {
                let why = if *exhausted {
                    "no route reaches the goal"
                } else {
                    "no route found within the solver's budget"
                };
                format!(
                    "{why}: the furthest point is ({:.1}, {:.1}) at {:.2} s",
                    furthest.x,
                    furthest.y,
                    *tick as f64 / crate::sim::TICK_HZ as f64
                )
            }
            Found::NoGoal => "the level has no goal to solve for".into(),
            Found::Failed(e) => format!("not solved: {e}"),
        }
    }

    /// Whether this is a warning (a goal no route reaches).
    pub fn is_warning(&self) -> bool {
        matches!(self, Found::NoRoute { .. } | Found::Failed(_))
    }
}

/// Runs the search on `level` with `tuning` (the editor's base tuning; the level's overrides
/// apply): the route, its path, its slack.
pub fn solve(level: &Level, tuning: &Tuning, budget_seconds: f64) -> Found {
    let mut world = match World::new(level, tuning) {
        Ok(w) => w,
        Err(e) => return Found::Failed(e.to_string()),
    };
    let config = Config {
        budget_ticks: (budget_seconds * NOMINAL_TICKS_PER_SECOND as f64) as u64,
        ..Config::default()
    };
    match search(&mut world, &config).0 {
        Outcome::Solved(route) => {
            let (mut windows, _) = slack(&mut world, &route);
            // As `solve::narrowest` counts them: the first move (tick 0) cannot come earlier.
            windows.retain(|s| s.tick > 0);
            windows.sort_by_key(|s| (s.window(), s.tick));
            let marks = windows
                .iter()
                .take(MARKS)
                .map(|s| Mark {
                    at: s.pos,
                    tick: s.tick,
                    window: s.window(),
                })
                .collect();
            // The path: the route played from the level's start.
            let mut play = match World::new(level, tuning) {
                Ok(w) => w,
                Err(e) => return Found::Failed(e.to_string()),
            };
            let mut path = vec![play.hero().body.pos];
            for a in route.actions() {
                play.step(&a);
                path.push(play.hero().body.pos);
                if play.goal_tick().is_some() {
                    break;
                }
            }
            Found::Route {
                path,
                seconds: route.seconds(),
                changes: route.changes().len(),
                marks,
            }
        }
        Outcome::Unsolvable(f) => Found::NoRoute {
            furthest: f.pos,
            tick: f.tick,
            exhausted: true,
        },
        Outcome::OutOfBudget(f) => Found::NoRoute {
            furthest: f.pos,
            tick: f.tick,
            exhausted: false,
        },
        Outcome::NoGoal => Found::NoGoal,
    }
}

/// Why a search was started: the Solve button (its result is shown, route or not) or a save
/// (only a level no route finishes is reported).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The Solve button.
    Asked,
    /// A save of a level with a goal.
    Saved,
}

struct Running {
    rx: Receiver<Found>,
    why: Why,
    started: Instant,
}

/// The editor's solver: at most one search running, the latest request waiting, the last
/// result until the level changes.
#[derive(Default)]
pub struct Solver {
    running: Option<Running>,
    /// A request made while a search ran: started when it ends (the latest one only).
    waiting: Option<(Level, Tuning, Why)>,
    /// The last result and why it was asked for.
    last: Option<(Found, Why)>,
}

impl Solver {
    /// Starts a search of `level` (or queues it behind the one running, replacing any queued).
    pub fn request(&mut self, level: &Level, tuning: &Tuning, why: Why) {
        if self.running.is_some() {
            self.waiting = Some((level.clone(), tuning.clone(), why));
        } else {
            self.start(level.clone(), tuning.clone(), why);
        }
    }

    fn start(&mut self, level: Level, tuning: Tuning, why: Why) {
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("solve".into())
            .spawn(move || {
                // The editor may be gone by the end: a closed channel is no error.
                let _ = tx.send(solve(&level, &tuning, BUDGET_SECONDS));
            });
        match spawned {
            Ok(_) => {
                self.running = Some(Running {
                    rx,
                    why,
                    started: Instant::now(),
                })
            }
            Err(e) => {
                self.last = Some((Found::Failed(format!("no thread for the solver: {e}")), why))
            }
        }
    }

    /// Once a frame: takes a finished search's result (and starts the waiting one). Returns
    /// the result when one came in this frame.
    pub fn poll(&mut self) -> Option<(&Found, Why)> {
        let run = self.running.as_ref()?;
        let found = match run.rx.try_recv() {
            Ok(f) => f,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => {
                Found::Failed("the solver stopped without an answer".into())
            }
        };
        let why = run.why;
        self.running = None;
        if let Some((level, tuning, why)) = self.waiting.take() {
            self.start(level, tuning, why);
        }
        self.last = Some((found, why));
        self.last.as_ref().map(|(f, w)| (f, *w))
    }

    /// The level changed: the last result no longer holds (a search running goes on; its
    /// result is dropped if a newer request waits behind it).
    pub fn level_changed(&mut self) {
        self.last = None;
    }

    /// Whether a search is running, and for how long (seconds).
    pub fn running(&self) -> Option<f64> {
        self.running
            .as_ref()
            .map(|r| r.started.elapsed().as_secs_f64())
    }

    /// The last result (cleared by an edit).
    pub fn last(&self) -> Option<&Found> {
        self.last.as_ref().map(|(f, _)| f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A floor, a gap of `gap` m, a floor with the goal: the spawn at x = 0.
    fn corridor(gap: f64) -> Level {
        let x = 6.0 + gap;
        let text = format!(
            "(name: \"gap\", polygons: [(points: [(-2.0, -1.0), (6.0, -1.0), (6.0, 0.0), (-2.0, 0.0)]), \
             (points: [({x}, -1.0), ({e}, -1.0), ({e}, 0.0), ({x}, 0.0)])], spawn: (0.0, 0.0), \
             goal: Some((min: ({g0}, 0.0), max: ({g1}, 2.0))), \
             bounds: Some((min: (-3.0, -6.0), max: ({b}, 10.0))))",
            e = x + 10.0,
            g0 = x + 7.0,
            g1 = x + 9.0,
            b = x + 11.0,
        );
        crate::level::parse_level(std::path::Path::new("gap.ron"), &text).unwrap()
    }

    #[test]
    fn a_jumpable_gap_is_solved_with_its_path_and_marks() {
        let found = solve(&corridor(2.0), &Tuning::default(), 2.0);
        let Found::Route {
            path,
            marks,
            seconds,
            ..
        } = &found
        else {
            panic!("{found:?}");
        };
        assert!(
            path.first().unwrap().x < 1.0 && path.last().unwrap().x > 14.5,
            "{path:?}"
        );
        assert!(*seconds > 1.0);
        assert!(!marks.is_empty() && marks.len() <= MARKS);
        assert!(marks.windows(2).all(|w| w[0].window <= w[1].window));
        assert!(marks.iter().all(|m| m.tick > 0), "{marks:?}");
        assert!(
            found.summary().starts_with("solved: a route of "),
            "{}",
            found.summary()
        );
        assert!(!found.is_warning());
    }

    #[test]
    fn a_gap_wider_than_any_jump_is_a_warning_with_the_furthest_point() {
        let found = solve(&corridor(12.0), &Tuning::default(), 2.0);
        let Found::NoRoute { furthest, .. } = &found else {
            panic!("{found:?}");
        };
        // The far floor (from x = 18) is never reached: the furthest place stood on is the
        // near floor's edge.
        assert!(furthest.x < 6.5, "{furthest:?}");
        assert!(found.is_warning());
        assert!(
            found.summary().contains("the furthest point is"),
            "{}",
            found.summary()
        );
    }

    #[test]
    fn a_request_runs_on_a_thread_and_its_result_is_polled() {
        let mut s = Solver::default();
        s.request(&corridor(2.0), &Tuning::default(), Why::Asked);
        assert!(s.running().is_some());
        // A second request waits behind the first.
        s.request(&corridor(12.0), &Tuning::default(), Why::Saved);
        let mut results = Vec::new();
        while results.len() < 2 {
            if let Some((f, why)) = s.poll() {
                results.push((f.clone(), why));
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(matches!(results[0], (Found::Route { .. }, Why::Asked)));
        assert!(matches!(results[1], (Found::NoRoute { .. }, Why::Saved)));
        assert!(s.running().is_none());
        s.level_changed();
        assert!(s.last().is_none());
    }
}
