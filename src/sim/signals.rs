//! The level's signals in the simulation: which fire each tick, and what they do to the movers'
//! clocks.
//!
//! # What it owns
//! [`Signals`]: each signal's state (a region's occupancy the tick before, for `enter` and
//! `leave`, and a `stood_on` mover's, read from who rides it; whether a `defeated` source's
//! agent was defeated; whether each mover's clock ran) and the ticks counted since
//! the signals started (the timers' clock), and the signals fired in the last tick
//! ([`Signals::fired`]). It is built from the level ([`Signals::new`]): the targets' signal
//! names are looked up once, never per tick.
//!
//! # Its place in the tick
//! One place, in `World::step`: after every character moved and before the registered kinds'
//! `after_moves`. [`Signals::evaluate`] runs the sources in the level's order of `signals` and
//! marks each one that fires; the kinds read the fired list in their phases through
//! `Stage::fired` (a door opens, closes or toggles in its `after_moves`: `sim::kinds::door`; a
//! hazard turns on or off: `sim::kinds::hazard`);
//! then [`Signals::drive`] applies the movers' actions to their clocks, in the movers' order and
//! each mover's fields in file order (`start_on`, `stop_on`, `reverse_on`, `return_on`,
//! `restart_on`): the clocks run from the next tick on. A checkpoint source fires in the tick
//! after the rules of play reached it (they run after the kinds), and a `defeated` or
//! `defeated_all` source in the tick after they defeated the enemy (a stomp or the attack).
//!
//! # Resets: one rule
//! A level's `reset_on_death` puts the signals back as the level starts them (the timers count
//! from 0 again, `level_start` fires again, no region occupied, no enemy defeated: the world
//! puts the agents back undefeated first, so a `defeated` source can fire again; without
//! `reset_on_death` a defeated enemy stays defeated and its source never fires twice) and
//! every mover that signals drive or that starts stopped back to its clock's start (`start`
//! says running or stopped), just as it puts every door and every hazard back as the level
//! starts it (`sim::kinds`); a mover nothing drives keeps its time, as before signals. A
//! restart, a level swap or an edit builds the signals anew.
//!
//! # Cost
//! A level without signals has none: no work in the tick, no words in the state hash or the
//! trace, so the hashes pinned before signals hold. With signals, a tick costs one test per
//! source and one per mover binding, and the sources that count agents (a region or a
//! `stood_on` whose `who` is not the hero) cost one pass over the agents together, not one
//! each: each agent's feet are looked up in a grid of those regions' boxes and its mover in a
//! list by mover ([`AgentWatch`], built with the signals). The level's parts (the sources and
//! the grid) are shared, not copied, by a copy of the signals (a snapshot's).
//!
//! Must never depend on a kind (it names none: the kinds read [`Signals::fired`]), the world's
//! private state, or window, GPU, audio or input crates.
use std::sync::Arc;

use glam::DVec2;

use super::agents::Agent;
use super::clock::MoverClock;
use super::movers::Path;
use crate::collision::Aabb;
use crate::level::signal::MAX_SIGNALS;
use crate::level::{Level, MoverStart, RegionEdge, SignalSource, SignalWho};

/// What a signal does to a mover's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockAction {
    /// [`MoverClock::start`].
    Start,
    /// [`MoverClock::stop`].
    Stop,
    /// [`MoverClock::reverse`].
    Reverse,
    /// [`MoverClock::return_to_start`].
    Return,
    /// [`MoverClock::restart`].
    Restart,
}

impl ClockAction {
    /// In the order of a mover's signal fields.
    const ALL: [ClockAction; 5] = [
        ClockAction::Start,
        ClockAction::Stop,
        ClockAction::Reverse,
        ClockAction::Return,
        ClockAction::Restart,
    ];

    fn apply(self, c: &mut MoverClock) {
        match self {
            ClockAction::Start => c.start(),
            ClockAction::Stop => c.stop(),
            ClockAction::Reverse => c.reverse(),
            ClockAction::Return => c.return_to_start(),
            ClockAction::Restart => c.restart(),
        }
    }
}

/// What a tick's sources read of the world.
pub struct Inputs<'a> {
    /// The hero's feet.
    pub hero: DVec2,
    /// The mover the hero rides (stands on), if any: index in the level's `movers`.
    pub hero_on: Option<usize>,
    /// The level's agents (a defeated one counts in no region).
    pub agents: &'a [Agent],
    /// The checkpoint the hero reached in the tick before (`PlayEvent::Checkpoint`: the rules
    /// of play run after the signals).
    pub reached: Option<usize>,
    /// The movers' clocks, as this tick advanced them.
    pub clocks: &'a [MoverClock],
    /// The movers' paths (a `track_key` source asks whether the clock's tick arrived at a key).
    pub paths: &'a [Path],
}

/// A timer source's `at` and `every` in ticks (`every` at least one); none for another source.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct TimerTicks {
    at: Option<u64>,
    every: Option<u64>,
}

/// The level's signals' state (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Signals {
    /// Each signal's source, as the level gives it (level data: shared by copies).
    sources: Arc<[SignalSource]>,
    /// Where the sources that count agents look (level data: shared by copies).
    watch: Arc<AgentWatch>,
    /// Each timer source's times in ticks, looked up once (level data: shared by copies).
    timers: Arc<[TimerTicks]>,
    /// `(signal, mover, action)` in the movers' order, each mover's fields in file order.
    bindings: Vec<(usize, usize, ClockAction)>,
    /// Each mover's `start`, and whether signals drive it (what a reset puts back).
    driven: Vec<Option<MoverStart>>,
    /// Each mover: whether its clock stops at a `once` track's end (signals drive it, or a
    /// `mover_end` source watches it).
    clamped: Vec<bool>,
    /// Ticks since the signals started.
    ticks: u64,
    /// Each signal: whether a region source's box held one it counts in the last tick (or a
    /// `stood_on` source's mover carried one).
    inside: Vec<bool>,
    /// Each mover: whether its clock ran at the last evaluation.
    running: Vec<bool>,
    /// Each signal: whether it fired in the last tick.
    fired: Vec<bool>,
    /// Each `after` source: the signal it waits on and its wait in ticks (looked up once).
    after: Vec<Option<(usize, u64)>>,
    /// Each `after` source: the tick it fires at, while it waits.
    pending: Vec<Option<u64>>,
    /// Each mover's clock ticks after the last tick's signals acted (where a `track_key`
    /// source's clock came from this tick).
    last_ticks: Vec<u64>,
}

impl Signals {
    /// The signals of `level`, as it starts them (a level without signals: none, no work).
    pub fn new(level: &Level) -> Signals {
        let n = level.signals.len();
        let mut bindings = Vec::new();
        let mut driven = Vec::new();
        for (m, mover) in level.movers.iter().enumerate() {
            for ((_, names), action) in mover.signal_fields().into_iter().zip(ClockAction::ALL) {
                // Validation refused a name no source defines.
                bindings.extend(
                    names
                        .iter()
                        .filter_map(|s| level.signal_index(s))
                        .map(|s| (s, m, action)),
                );
            }
            driven.push(mover.is_driven().then_some(mover.start));
        }
        let clamped = (0..level.movers.len())
            .map(|m| {
                driven[m].is_some()
                    || level
                        .signals
                        .iter()
                        .any(|s| s.source == SignalSource::MoverEnd(m))
            })
            .collect();
        Signals {
            clamped,
            sources: level.signals.iter().map(|s| s.source.clone()).collect(),
            watch: Arc::new(AgentWatch::new(&level.signals, level.movers.len())),
            timers: level
                .signals
                .iter()
                .map(|s| match s.source {
                    SignalSource::Timer { at, every } => TimerTicks {
                        at: at.map(seconds_tick),
                        every: every.map(|e| seconds_tick(e).max(1)),
                    },
                    _ => TimerTicks::default(),
                })
                .collect(),
            bindings,
            driven,
            ticks: 0,
            inside: vec![false; n],
            running: level
                .movers
                .iter()
                .map(|m| m.start == MoverStart::Running)
                .collect(),
            fired: vec![false; n],
            after: level
                .signals
                .iter()
                .map(|s| match &s.source {
                    SignalSource::After { signal, seconds } => level
                        .signal_index(signal)
                        .map(|j| (j, seconds_tick(*seconds).max(1))),
                    _ => None,
                })
                .collect(),
            pending: vec![None; n],
            last_ticks: vec![0; level.movers.len()],
        }
    }

    /// Takes each mover's running from `clocks` as they are (after an edit keeps the clocks), so
    /// no `mover_end` fires for a clock that stopped before the signals were built.
    pub fn follow_clocks(&mut self, clocks: &[MoverClock]) {
        for (r, c) in self.running.iter_mut().zip(clocks) {
            *r = c.running();
        }
        self.note_ticks(clocks);
    }

    /// Notes each clock's ticks: where it comes from in the next tick.
    fn note_ticks(&mut self, clocks: &[MoverClock]) {
        for (t, c) in self.last_ticks.iter_mut().zip(clocks) {
            *t = c.ticks();
        }
    }

    /// Whether the level has any signal.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// Each signal's firing in the last tick, in the level's order (empty without signals).
    pub fn fired(&self) -> &[bool] {
        &self.fired
    }

    /// The ticks counted since the signals started (the timers' clock).
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Each mover's clock as the level starts it, at `shared` ticks: running, or stopped where
    /// `start: stopped`.
    pub fn starting_clocks(level: &Level, shared: u64, clocks: &mut [MoverClock]) {
        for (c, m) in clocks.iter_mut().zip(&level.movers) {
            *c = MoverClock::at(shared);
            if m.start == MoverStart::Stopped {
                c.stop();
            }
        }
    }

    /// After the clocks advanced: the clock of a mover on a `once` track that signals drive or
    /// a `mover_end` watches stops at the track's end (so a later `return` plays no time spent
    /// past the end, and the end is a stop).
    pub fn clamp(&self, paths: &[Path], clocks: &mut [MoverClock]) {
        if !self.clamped.iter().any(|&c| c) {
            return;
        }
        for ((c, p), &clamped) in clocks.iter_mut().zip(paths).zip(&self.clamped) {
            if let (true, Some(end)) = (clamped, p.end_tick()) {
                if c.running() && !c.backward() && c.ticks() >= end {
                    c.set(end);
                    c.stop();
                }
            }
        }
    }

    /// Runs every source in the level's order and marks those that fire this tick (see the
    /// module docs); the timers' clock then moves on a tick.
    pub fn evaluate(&mut self, input: &Inputs) {
        if self.sources.is_empty() {
            return;
        }
        let tick = self.ticks;
        // Which region and `stood_on` sources hold an agent, in one pass over the agents.
        let mut words = [0u64; MAX_SIGNALS.div_ceil(64)];
        let mut more = Vec::new();
        let counted: &mut [u64] = if self.sources.len() <= MAX_SIGNALS {
            &mut words
        } else {
            more.resize(self.sources.len().div_ceil(64), 0);
            &mut more
        };
        self.watch.count(input.agents, counted);
        let has_agent = |i: usize| counted[i / 64] & 1 << (i % 64) != 0;
        for (i, source) in self.sources.iter().enumerate() {
            self.fired[i] = match *source {
                SignalSource::Region { area, who, on } => {
                    let hero = who != SignalWho::Agent && area.contains(input.hero);
                    let now = hero || (who != SignalWho::Hero && has_agent(i));
                    let was = std::mem::replace(&mut self.inside[i], now);
                    edge(on, now, was)
                }
                SignalSource::StoodOn { mover, who, on } => {
                    let hero = who != SignalWho::Agent && input.hero_on == Some(mover);
                    let now = hero || (who != SignalWho::Hero && has_agent(i));
                    let was = std::mem::replace(&mut self.inside[i], now);
                    edge(on, now, was)
                }
                SignalSource::Timer { .. } => match self.timers[i] {
                    TimerTicks {
                        at: Some(a),
                        every: Some(e),
                    } => tick >= a && (tick - a).is_multiple_of(e),
                    TimerTicks { at: Some(a), .. } => tick == a,
                    TimerTicks { every: Some(e), .. } => tick > 0 && tick.is_multiple_of(e),
                    TimerTicks { .. } => false,
                },
                SignalSource::LevelStart => tick == 0,
                SignalSource::Checkpoint(n) => input.reached == Some(n),
                // Defeats happen in the rules of play, after the signals: seen the tick after,
                // as the flag's edge (a reset puts the agents back undefeated and `inside`
                // false).
                SignalSource::Defeated(n) => {
                    let now = input.agents.get(n).is_some_and(|a| a.defeated);
                    let was = std::mem::replace(&mut self.inside[i], now);
                    now && !was
                }
                SignalSource::DefeatedAll => {
                    let mut enemies = input.agents.iter().filter(|a| a.kind.is_enemy());
                    let now = enemies.clone().next().is_some() && enemies.all(|a| a.defeated);
                    let was = std::mem::replace(&mut self.inside[i], now);
                    now && !was
                }
                SignalSource::MoverEnd(m) => {
                    self.running.get(m).copied().unwrap_or(false)
                        && input.clocks.get(m).is_some_and(|c| !c.running())
                }
                SignalSource::TrackKey { mover, key } => {
                    match (input.paths.get(mover), input.clocks.get(mover)) {
                        (Some(p), Some(c)) => p.reaches_key(key, self.last_ticks[mover], c.ticks()),
                        _ => false,
                    }
                }
                SignalSource::After { .. } => {
                    let Some((j, wait)) = self.after[i] else {
                        continue;
                    };
                    // The signal it waits on fired this tick if it runs before this one, else
                    // (its flag still the last tick's) in the tick before: either way the wait
                    // counts from the tick it fired.
                    let base = if j < i {
                        Some(tick)
                    } else {
                        tick.checked_sub(1)
                    };
                    let mut due = self.pending[i] == Some(tick);
                    if due {
                        self.pending[i] = None;
                    }
                    if self.pending[i].is_none() && self.fired[j] {
                        self.pending[i] = base.map(|b| b + wait);
                        if self.pending[i] == Some(tick) {
                            self.pending[i] = None;
                            due = true;
                        }
                    }
                    due
                }
            };
        }
        for (r, c) in self.running.iter_mut().zip(input.clocks) {
            *r = c.running();
        }
        self.ticks += 1;
    }

    /// Applies this tick's fired signals to the movers' clocks (see the module docs).
    pub fn drive(&mut self, clocks: &mut [MoverClock]) {
        for &(s, m, action) in &self.bindings {
            if self.fired[s] {
                if let Some(c) = clocks.get_mut(m) {
                    action.apply(c);
                }
            }
        }
        self.note_ticks(clocks);
    }

    /// A `reset_on_death` respawn (see the module docs): the signals as the level starts them,
    /// and each driven mover's clock back to its start. Returns
    /// whether it put any clock back.
    pub fn reset_on_death(&mut self, clocks: &mut [MoverClock]) -> bool {
        if self.sources.is_empty() && self.driven.iter().all(Option::is_none) {
            return false;
        }
        self.ticks = 0;
        self.inside.fill(false);
        self.fired.fill(false);
        self.pending.fill(None);
        for ((c, d), r) in clocks.iter_mut().zip(&self.driven).zip(&mut self.running) {
            if let Some(start) = d {
                *c = MoverClock::at(0);
                if *start == MoverStart::Stopped {
                    c.stop();
                }
                *r = c.running();
            }
        }
        self.note_ticks(clocks);
        self.driven.iter().any(Option::is_some)
    }

    /// Its words in the world's state hash: none without signals; else the ticks, then each
    /// signal's occupancy and firing, each mover's running.
    pub fn hash_words(&self, words: &mut Vec<u64>) {
        if self.sources.is_empty() {
            return;
        }
        words.push(self.ticks);
        words.extend(
            self.inside
                .iter()
                .zip(&self.fired)
                .map(|(&i, &f)| i as u64 | (f as u64) << 1),
        );
        words.extend(self.running.iter().map(|&r| r as u64));
        // Only a level with a delay has these words (the hashes pinned before delays hold).
        words.extend(
            self.after
                .iter()
                .zip(&self.pending)
                .filter(|(a, _)| a.is_some())
                .map(|(_, p)| p.map_or(u64::MAX, |t| t)),
        );
    }
}

/// The sources that count agents (see the module docs): the regions' boxes in a grid of cells
/// over their bounds, the `stood_on` sources by mover; [`AgentWatch::count`] marks, in one pass
/// over the agents, each such source with a (not defeated) agent in its box or on its mover.
#[derive(Debug, PartialEq)]
struct AgentWatch {
    /// The bounds of the regions' boxes (none: an empty box).
    bounds: Aabb,
    /// The inverse of a cell's size (cells per metre).
    per_metre: DVec2,
    /// The grid's columns and rows (0 × 0 without regions).
    cols: usize,
    /// See `cols`.
    rows: usize,
    /// Cell `c`'s regions are `regions[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    /// `(signal, box)` of the regions, by cell (a box over several cells is in each).
    regions: Vec<(u32, Aabb)>,
    /// Mover `m`'s `stood_on` sources are `on_mover[on_starts[m]..on_starts[m + 1]]`.
    on_starts: Vec<u32>,
    /// Signal indices of the `stood_on` sources, by mover.
    on_mover: Vec<u32>,
}

impl AgentWatch {
    /// Most cells of the grid.
    const MAX_CELLS: usize = 4096;

    fn new(signals: &[crate::level::LevelSignal], movers: usize) -> AgentWatch {
        let mut watch = AgentWatch {
            bounds: Aabb::from_points([]),
            per_metre: DVec2::ONE,
            cols: 0,
            rows: 0,
            starts: Vec::new(),
            regions: Vec::new(),
            on_starts: Vec::new(),
            on_mover: Vec::new(),
        };
        let areas: Vec<(u32, Aabb)> = signals
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.source {
                SignalSource::Region { area, who, .. } if who != SignalWho::Hero => {
                    Some((i as u32, area))
                }
                _ => None,
            })
            .collect();
        if !areas.is_empty() {
            let b = areas.iter().fold(areas[0].1, |b, (_, a)| b.union(a));
            let size = b.max - b.min;
            // About four cells a region, shaped like the bounds.
            let cells = (4 * areas.len()).min(Self::MAX_CELLS) as f64;
            let fit = |n: f64| (n.round() as usize).clamp(1, Self::MAX_CELLS);
            let (cols, rows) = if size.x > 0.0 && size.y > 0.0 {
                let cols = fit((cells * size.x / size.y).sqrt());
                (cols, fit(cells / cols as f64).min(Self::MAX_CELLS / cols))
            } else {
                (1, 1)
            };
            watch.bounds = b;
            watch.cols = cols;
            watch.rows = rows;
            watch.per_metre = DVec2::new(
                if size.x > 0.0 {
                    cols as f64 / size.x
                } else {
                    1.0
                },
                if size.y > 0.0 {
                    rows as f64 / size.y
                } else {
                    1.0
                },
            );
            let mut by_cell: Vec<Vec<(u32, Aabb)>> = vec![Vec::new(); cols * rows];
            for &(i, a) in &areas {
                let (c0, r0) = watch.cell_of(a.min);
                let (c1, r1) = watch.cell_of(a.max);
                for r in r0..=r1 {
                    for c in c0..=c1 {
                        by_cell[r * cols + c].push((i, a));
                    }
                }
            }
            watch.starts.push(0);
            for cell in by_cell {
                watch.regions.extend(cell);
                watch.starts.push(watch.regions.len() as u32);
            }
        }
        let mut by_mover: Vec<Vec<u32>> = vec![Vec::new(); movers];
        for (i, s) in signals.iter().enumerate() {
            if let SignalSource::StoodOn { mover, who, .. } = s.source {
                if who != SignalWho::Hero && mover < movers {
                    by_mover[mover].push(i as u32);
                }
            }
        }
        if by_mover.iter().any(|m| !m.is_empty()) {
            watch.on_starts.push(0);
            for m in by_mover {
                watch.on_mover.extend(m);
                watch.on_starts.push(watch.on_mover.len() as u32);
            }
        }
        watch
    }

    /// The cell of a point (column, row), a point outside the bounds in the nearest cell on
    /// them. Monotone in each coordinate, so every point of a box lies in a cell between its
    /// corners' cells. (No `floor`: its argument is not negative in the bounds, where truncating
    /// is the same, and `floor` is a call into the C library on the baseline x86-64 target,
    /// twice an agent a tick; `as u32` saturates at 0 below the bounds, and costs less than
    /// `as usize`.)
    fn cell_of(&self, p: DVec2) -> (usize, usize) {
        let c = (p - self.bounds.min) * self.per_metre;
        (
            (c.x as u32 as usize).min(self.cols - 1),
            (c.y as u32 as usize).min(self.rows - 1),
        )
    }

    /// The regions whose boxes may hold `p`: those of its cell (every one that holds it; a
    /// point outside the bounds is in none, whichever cell it is given).
    fn regions_near(&self, p: DVec2) -> &[(u32, Aabb)] {
        if self.regions.is_empty() {
            return &[];
        }
        let (c, r) = self.cell_of(p);
        let cell = r * self.cols + c;
        &self.regions[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }

    /// Sets bit `i` of `counted` for each source `i` it watches that has an agent (not
    /// defeated) in its box or on its mover.
    fn count(&self, agents: &[Agent], counted: &mut [u64]) {
        let (regions, riders) = (!self.regions.is_empty(), !self.on_mover.is_empty());
        if !regions && !riders {
            return;
        }
        let mut mark = |i: u32| counted[i as usize / 64] |= 1 << (i % 64);
        for a in agents.iter().filter(|a| !a.defeated) {
            let p = a.mover.body.pos;
            if regions {
                for &(i, area) in self.regions_near(p) {
                    if area.contains(p) {
                        mark(i);
                    }
                }
            }
            if let (true, Some((m, _))) = (riders, a.mover.riding_piece()) {
                let m = m as usize;
                if m + 1 < self.on_starts.len() {
                    let range = self.on_starts[m] as usize..self.on_starts[m + 1] as usize;
                    self.on_mover[range].iter().for_each(|&i| mark(i));
                }
            }
        }
    }
}

/// Seconds counted in whole ticks, rounded.
fn seconds_tick(s: f64) -> u64 {
    (s * super::TICK_HZ as f64).round() as u64
}

/// Whether a source that counts characters in a place (a region's box, a mover's top) fires,
/// with one counted there `now` and `was` the tick before.
fn edge(on: RegionEdge, now: bool, was: bool) -> bool {
    match on {
        RegionEdge::Enter => now && !was,
        RegionEdge::Leave => was && !now,
        RegionEdge::Occupied => now,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(signals: &str, movers: &str) -> Level {
        crate::level::parse_level(
            std::path::Path::new("s.ron"),
            &format!(
                "(name: \"s\", polygons: [], spawn: (0.0, 0.0), checkpoints: [(min: (5.0, 0.0), \
                 max: (6.0, 1.0))], movers: [{movers}], signals: [{signals}])"
            ),
        )
        .unwrap()
    }

    const MOVER: &str = "(pieces: [[(0.0, 5.0), (1.0, 5.0), (1.0, 6.0), (0.0, 6.0)]], \
                         track: (keys: [(offset: (0.0, 0.0), time: 1.0), (offset: (2.0, 0.0))], \
                         repeat: once)";

    /// Runs `n` ticks with the hero's feet at `hero(tick)`; returns the ticks each signal fired.
    fn fired(s: &mut Signals, n: u64, hero: impl Fn(u64) -> DVec2) -> Vec<Vec<u64>> {
        let mut out = vec![Vec::new(); s.fired().len()];
        for t in 0..n {
            s.evaluate(&Inputs {
                hero: hero(t),
                hero_on: None,
                agents: &[],
                reached: (t == 7).then_some(0),
                clocks: &[],
                paths: &[],
            });
            for (i, &f) in s.fired().iter().enumerate() {
                if f {
                    out[i].push(t);
                }
            }
        }
        out
    }

    #[test]
    fn each_source_fires_on_its_ticks() {
        let l = level(
            "(name: \"in\", source: region(area: (min: (1.0, -1.0), max: (2.0, 1.0)))),\
             (name: \"out\", source: region(area: (min: (1.0, -1.0), max: (2.0, 1.0)), on: leave)),\
             (name: \"on\", source: region(area: (min: (1.0, -1.0), max: (2.0, 1.0)), on: occupied)),\
             (name: \"foe\", source: region(area: (min: (1.0, -1.0), max: (2.0, 1.0)), who: agent)),\
             (name: \"at\", source: timer(at: 0.025)),\
             (name: \"every\", source: timer(every: 0.04)),\
             (name: \"go\", source: level_start),\
             (name: \"cp\", source: checkpoint(0)),\
             (name: \"both\", source: timer(at: 0.025, every: 0.04))",
            "",
        );
        let mut s = Signals::new(&l);
        // The hero's feet in the box on ticks 2 to 4.
        let got = fired(&mut s, 12, |t| {
            DVec2::new(if (2..5).contains(&t) { 1.5 } else { 0.0 }, 0.0)
        });
        let want: [&[u64]; 9] = [
            &[2],
            &[5],
            &[2, 3, 4],
            &[],
            &[3],
            &[5, 10],
            &[0],
            &[7],
            &[3, 8],
        ];
        assert_eq!(got, want.map(<[u64]>::to_vec));
        assert_eq!(s.ticks(), 12);
    }

    #[test]
    fn a_delay_fires_its_wait_after_the_signal_whichever_comes_first_in_the_list() {
        let l = level(
            "(name: \"late\", source: after(signal: \"go\", seconds: 0.05)),\
             (name: \"go\", source: timer(every: 0.025)),\
             (name: \"soon\", source: after(signal: \"go\", seconds: 0.05))",
            "",
        );
        let mut s = Signals::new(&l);
        // `go` every 3 ticks; each delay waits 6 ticks and ignores `go` while it waits (a `go`
        // in the tick it fires counts anew).
        let got = fired(&mut s, 22, |_| DVec2::ZERO);
        assert_eq!(got[1], [3, 6, 9, 12, 15, 18, 21]);
        assert_eq!(got[0], [9, 15, 21]);
        assert_eq!(got[2], [9, 15, 21]);
    }

    #[test]
    fn stood_on_fires_from_who_rides_the_mover() {
        let l = level(
            "(name: \"on\", source: stood_on(mover: 0)),\
             (name: \"off\", source: stood_on(mover: 0, on: leave)),\
             (name: \"while\", source: stood_on(mover: 0, on: occupied)),\
             (name: \"foe\", source: stood_on(mover: 0, who: agent))",
            &format!("{MOVER})"),
        );
        let mut s = Signals::new(&l);
        let mut got = vec![Vec::new(); 4];
        // The hero rides mover 0 on ticks 2 to 4, and stands anywhere else (its feet in no
        // region: only the support counts).
        for t in 0..8u64 {
            s.evaluate(&Inputs {
                hero: DVec2::new(0.5, 6.0),
                hero_on: (2..5).contains(&t).then_some(0),
                agents: &[],
                reached: None,
                clocks: &[MoverClock::at(0)],
                paths: &[],
            });
            for (i, &f) in s.fired().iter().enumerate() {
                if f {
                    got[i].push(t);
                }
            }
        }
        assert_eq!(got, [vec![2], vec![5], vec![2, 3, 4], vec![]]);
    }

    #[test]
    fn mover_targets_drive_clocks_and_a_once_track_stops_at_its_end() {
        let l = level(
            "(name: \"go\", source: timer(at: 0.0)), (name: \"back\", source: mover_end(0)),\
             (name: \"done\", source: mover_end(0))",
            &format!("{MOVER}, start: stopped, start_on: [\"go\"], return_on: [\"back\"])"),
        );
        let paths: Vec<Path> = l.movers.iter().map(Path::new).collect();
        assert_eq!(paths[0].end_tick(), Some(120));
        let mut s = Signals::new(&l);
        let mut clocks = vec![MoverClock::at(0)];
        Signals::starting_clocks(&l, 0, &mut clocks);
        assert!(!clocks[0].running());
        let mut ends = Vec::new();
        for t in 0..400u64 {
            for c in &mut clocks {
                c.advance();
            }
            s.clamp(&paths, &mut clocks);
            s.evaluate(&Inputs {
                hero: DVec2::ZERO,
                hero_on: None,
                agents: &[],
                reached: None,
                clocks: &clocks,
                paths: &paths,
            });
            if s.fired()[2] {
                ends.push((t, clocks[0].ticks()));
            }
            s.drive(&mut clocks);
        }
        // Started in tick 0, it runs from tick 1: at its end (120) in tick 120, stopped there;
        // returned from 120 it is back at 0 in tick 240, and stops.
        assert_eq!(ends, [(120, 120), (240, 0)]);
        assert_eq!((clocks[0].ticks(), clocks[0].running()), (0, false));

        // A reset puts the driven clock back to its start, stopped as `start` says.
        let mut c = [MoverClock::at(55)];
        s.reset_on_death(&mut c);
        assert_eq!((c[0].ticks(), c[0].running(), s.ticks()), (0, false, 0));
    }

    /// What `tessera check` refuses (`level::signal`'s loop rule): a mover reversed by its own
    /// track's arrival at a key that falls between two ticks reverses every tick from then on.
    #[test]
    fn a_mover_reversed_at_its_own_key_jitters_for_ever() {
        let l: Level = crate::level::parse_ron(
            std::path::Path::new("s.ron"),
            "(name: \"s\", polygons: [], spawn: (0.0, 0.0), movers: [(pieces: [[(0.0, 5.0), \
             (1.0, 5.0), (1.0, 6.0), (0.0, 6.0)]], track: (keys: [(offset: (0.0, 0.0), time: \
             1.004), (offset: (2.0, 0.0))], repeat: once), reverse_on: [\"key\"])], signals: \
             [(name: \"key\", source: track_key(mover: 0, key: 1))])",
        )
        .unwrap();
        assert!(l.validate().is_err(), "check refuses it");
        let paths: Vec<Path> = l.movers.iter().map(Path::new).collect();
        let mut s = Signals::new(&l);
        let mut clocks = vec![MoverClock::at(0)];
        let mut ticks = Vec::new();
        for _ in 0..130 {
            for c in &mut clocks {
                c.advance();
            }
            s.clamp(&paths, &mut clocks);
            s.evaluate(&Inputs {
                hero: DVec2::ZERO,
                hero_on: None,
                agents: &[],
                reached: None,
                clocks: &clocks,
                paths: &paths,
            });
            s.drive(&mut clocks);
            ticks.push(clocks[0].ticks());
        }
        // The key at 120.48 ticks: there at tick 120, and from then on between 120 and 121.
        assert!(ticks[..120]
            .iter()
            .enumerate()
            .all(|(i, &t)| t == i as u64 + 1));
        assert!(
            ticks[120..].iter().all(|&t| t == 120 || t == 121),
            "{ticks:?}"
        );
    }

    /// The grid of the regions that count agents finds, for any point, every region whose box
    /// holds it (boxes of every size, points on their edges and corners and at random).
    #[test]
    fn the_agent_regions_grid_finds_every_box_holding_a_point() {
        let mut rng = crate::test_seed::unit_stream(0x5166_6e61);
        let signals: Vec<crate::level::LevelSignal> = (0..300)
            .map(|i| {
                let min = DVec2::new(rng() * 200.0 - 50.0, rng() * 60.0);
                let size = DVec2::new(rng() * rng() * 30.0, rng() * 8.0);
                crate::level::LevelSignal {
                    name: format!("r{i}"),
                    source: SignalSource::Region {
                        area: Aabb {
                            min,
                            max: min + size,
                        },
                        who: [SignalWho::Agent, SignalWho::Any, SignalWho::Hero][i % 3],
                        on: RegionEdge::Enter,
                    },
                }
            })
            .collect();
        let watch = AgentWatch::new(&signals, 0);
        assert!(
            watch.cols * watch.rows > 100,
            "{} × {}",
            watch.cols,
            watch.rows
        );
        let boxes: Vec<(u32, Aabb)> = signals
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.source {
                SignalSource::Region { area, who, .. } if who != SignalWho::Hero => {
                    Some((i as u32, area))
                }
                _ => None,
            })
            .collect();
        let corners = boxes.iter().flat_map(|(_, a)| {
            [
                a.min,
                a.max,
                DVec2::new(a.min.x, a.max.y),
                DVec2::new(a.max.x, a.min.y),
            ]
        });
        let random: Vec<DVec2> = (0..20_000)
            .map(|_| DVec2::new(rng() * 240.0 - 60.0, rng() * 80.0 - 5.0))
            .collect();
        for p in corners.chain(random) {
            let mut want: Vec<u32> = boxes
                .iter()
                .filter(|(_, a)| a.contains(p))
                .map(|&(i, _)| i)
                .collect();
            let mut got: Vec<u32> = watch
                .regions_near(p)
                .iter()
                .filter(|(_, a)| a.contains(p))
                .map(|&(i, _)| i)
                .collect();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "at {p:?}");
        }
    }

    #[test]
    fn a_level_without_signals_costs_nothing_and_hashes_nothing() {
        let l = level("", &format!("{MOVER})"));
        let mut s = Signals::new(&l);
        s.evaluate(&Inputs {
            hero: DVec2::ZERO,
            hero_on: None,
            agents: &[],
            reached: None,
            clocks: &[MoverClock::at(3)],
            paths: &[],
        });
        let mut words = Vec::new();
        s.hash_words(&mut words);
        assert!(words.is_empty() && s.is_empty() && s.ticks() == 0);
        let mut c = [MoverClock::at(500)];
        s.clamp(&l.movers.iter().map(Path::new).collect::<Vec<_>>(), &mut c);
        s.reset_on_death(&mut c);
        assert_eq!(
            c[0],
            MoverClock::at(500),
            "a mover nothing drives keeps its time"
        );
    }
}
