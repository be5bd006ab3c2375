//! Random triggers for the zero-penetration property tests (`movers::zero_penetration_among_
//! random_movers`, `agents::zero_penetration::`): signals from every source a level can name
//! (a region the hero or an agent enters, leaves or occupies, a character standing on a mover, a
//! timer once, every N s or both, a delay after another signal, a track arriving at a key, a
//! mover's clock stopping, the level's start) driving movers that start stopped or running
//! (started, stopped, reversed, returned, restarted), doors on schedules (`timer(at, every)`)
//! and on those signals, and characters placed on a mover's top at tick 0. Generators only: the
//! tests that use them assert.
use glam::DVec2;
use tessera::collision::Aabb;
use tessera::level::{
    Level, LevelDoor, LevelSignal, MoverStart, RegionEdge, SignalSource, SignalWho, Track,
};

use crate::common::p;

/// What a scenario's triggers contain, for the test's count of what it exercised.
#[derive(Clone, Copy, Debug, Default)]
pub struct Drawn {
    /// Movers that start stopped.
    pub stopped: usize,
    /// Doors with a `timer(at, every)` schedule.
    pub scheduled: usize,
}

fn pick<T: Copy>(rng: &mut impl FnMut() -> f64, of: &[T]) -> T {
    of[((rng() * of.len() as f64) as usize).min(of.len() - 1)]
}

fn who(rng: &mut impl FnMut() -> f64) -> SignalWho {
    pick(rng, &[SignalWho::Hero, SignalWho::Agent, SignalWho::Any])
}

fn edge(rng: &mut impl FnMut() -> f64) -> RegionEdge {
    pick(
        rng,
        &[RegionEdge::Enter, RegionEdge::Leave, RegionEdge::Occupied],
    )
}

/// A box of 1–6 m by 1–4 m with its lower-left corner in `room`.
fn area(rng: &mut impl FnMut() -> f64, room: Aabb) -> Aabb {
    let min = room.min + (room.max - room.min) * DVec2::new(rng(), rng());
    Aabb {
        min,
        max: min + DVec2::new(1.0 + rng() * 5.0, 1.0 + rng() * 3.0),
    }
}

/// A random source for signal `i` of `n` in `l` (its movers already drawn).
fn source(
    rng: &mut impl FnMut() -> f64,
    l: &Level,
    i: usize,
    n: usize,
    room: Aabb,
) -> SignalSource {
    let movers = l.movers.len();
    let tracked: Vec<usize> = (0..movers)
        .filter(|&m| l.movers[m].track.is_some())
        .collect();
    match (rng() * 8.0) as usize {
        0 | 1 => SignalSource::Region {
            area: area(rng, room),
            who: who(rng),
            on: edge(rng),
        },
        2 if movers > 0 => SignalSource::StoodOn {
            mover: pick(rng, &(0..movers).collect::<Vec<_>>()),
            who: who(rng),
            on: edge(rng),
        },
        3 if n > 1 => SignalSource::After {
            signal: format!("s{}", (i + 1 + (rng() * (n - 1) as f64) as usize) % n),
            seconds: (1.0 + (rng() * 240.0).floor()) / 120.0,
        },
        4 if !tracked.is_empty() => {
            let mover = pick(rng, &tracked);
            let keys = l.movers[mover].track.as_ref().map_or(1, |t| t.keys.len());
            SignalSource::TrackKey {
                mover,
                key: (rng() * keys as f64) as usize % keys,
            }
        }
        5 if movers > 0 => SignalSource::MoverEnd(pick(rng, &(0..movers).collect::<Vec<_>>())),
        6 => SignalSource::LevelStart,
        _ => timer(rng),
    }
}

/// The signal that starts signal `i`'s chain of delays (`i` itself if it is no `after`), or
/// `None` for a loop of delays.
fn root(l: &Level, mut i: usize) -> Option<usize> {
    for _ in 0..=l.signals.len() {
        match &l.signals[i].source {
            SignalSource::After { signal, .. } => i = l.signal_index(signal)?,
            _ => return Some(i),
        }
    }
    None
}

/// A timer: once at 0–4 s, every 0.2–3 s, or both (a schedule with an offset).
fn timer(rng: &mut impl FnMut() -> f64) -> SignalSource {
    let at = (rng() * 480.0).floor() / 120.0;
    let every = (24.0 + (rng() * 336.0).floor()) / 120.0;
    match (rng() * 3.0) as usize {
        0 => SignalSource::Timer {
            at: Some(at),
            every: None,
        },
        1 => SignalSource::Timer {
            at: None,
            every: Some(every),
        },
        _ => SignalSource::Timer {
            at: Some(at),
            every: Some(every),
        },
    }
}

/// Adds to `l` (its movers and agents drawn, inside `room`) two to seven signals of random
/// sources; makes about two in five movers start stopped and binds each mover's `start_on`,
/// `stop_on`, `reverse_on`, `return_on` and `restart_on` to a random signal about a third of the
/// time each; adds up to three doors (boxes in `room`, apart, open or closed) driven by those signals,
/// each also on a schedule of its own half of the time (`toggle_on` a `timer(at, every)`).
pub fn add(l: &mut Level, rng: &mut impl FnMut() -> f64, room: Aabb) -> Drawn {
    let mut drawn = Drawn::default();
    let n = 2 + (rng() * 6.0) as usize;
    let sources: Vec<SignalSource> = (0..n).map(|i| source(rng, l, i, n, room)).collect();
    l.signals = sources
        .into_iter()
        .enumerate()
        .map(|(i, source)| LevelSignal {
            name: format!("s{i}"),
            source,
        })
        .collect();
    // A loop of delays (`after` waiting, through others, on itself) never fires and `check`
    // refuses it: the delay that closes one waits on the level's start instead.
    for i in 0..n {
        if root(l, i).is_none() {
            l.signals[i].source = SignalSource::LevelStart;
        }
    }
    let name = |rng: &mut dyn FnMut() -> f64| format!("s{}", (rng() * n as f64) as usize % n);
    let names = |rng: &mut dyn FnMut() -> f64, chance: f64| {
        if rng() < chance {
            vec![name(rng)]
        } else {
            Vec::new()
        }
    };
    for m in &mut l.movers {
        if rng() < 0.4 {
            m.start = MoverStart::Stopped;
            drawn.stopped += 1;
        }
        // A stopped mover is started by something more often than not.
        let start = if m.start == MoverStart::Stopped {
            0.7
        } else {
            0.35
        };
        m.start_on = names(rng, start);
        m.stop_on = names(rng, 0.35);
        m.reverse_on = names(rng, 0.35);
        m.return_on = names(rng, 0.35);
        m.restart_on = names(rng, 0.35);
    }
    // A mover reversed at its own track's key reverses every tick (`check` refuses it).
    for k in 0..l.movers.len() {
        let own_key = |name: &String| {
            let at = l.signal_index(name).and_then(|i| root(l, i));
            matches!(at.map(|r| &l.signals[r].source),
                Some(SignalSource::TrackKey { mover, .. }) if *mover == k)
        };
        let keep: Vec<String> = l.movers[k]
            .reverse_on
            .iter()
            .filter(|n| !own_key(n))
            .cloned()
            .collect();
        l.movers[k].reverse_on = keep;
    }
    let doors = ((rng() * 4.0) as usize).min(3);
    for d in 0..doors {
        // Each door in a third of the room's width of its own (doors may not overlap).
        let column = (room.max.x - room.min.x) / 3.0;
        let min = p(
            room.min.x + column * (d as f64 + rng() * 0.5),
            room.min.y + (room.max.y - room.min.y) * rng(),
        );
        let max = min + DVec2::new(0.5 + rng() * (0.5 * column - 0.5), 0.5 + rng() * 2.5);
        let mut door = LevelDoor {
            points: vec![min, p(max.x, min.y), max, p(min.x, max.y)],
            open: rng() < 0.5,
            switch: None,
            close_after: None,
            open_on: names(rng, 0.4),
            close_on: names(rng, 0.4),
            toggle_on: names(rng, 0.4),
        };
        if rng() < 0.5 {
            let schedule = format!("door{d}");
            l.signals.push(LevelSignal {
                name: schedule.clone(),
                source: SignalSource::Timer {
                    at: Some((rng() * 360.0).floor() / 120.0),
                    every: Some((24.0 + (rng() * 216.0).floor()) / 120.0),
                },
            });
            door.toggle_on.push(schedule);
            drawn.scheduled += 1;
        }
        l.doors.push(door);
    }
    drawn
}

/// Puts the hero on a random mover's top half of the time, and each agent on one a third of the
/// time: the point is the middle of the mover's top at its pose at tick 0 (the top made level
/// and the first key's angle 0, so that pose is the rest pose, whatever else the mover does).
/// Returns how many were placed so.
pub fn spawn_on_movers(l: &mut Level, rng: &mut impl FnMut() -> f64) -> usize {
    if l.movers.is_empty() {
        return 0;
    }
    let mut placed = 0;
    let top = |l: &mut Level, rng: &mut dyn FnMut() -> f64| {
        let m = (rng() * l.movers.len() as f64) as usize % l.movers.len();
        let mover = &mut l.movers[m];
        // The generated pieces are boxes with one top corner raised: both top corners level.
        let piece = &mut mover.pieces[0];
        let mut order: Vec<usize> = (0..piece.len()).collect();
        order.sort_by(|&a, &b| piece[b].y.total_cmp(&piece[a].y));
        let y = piece[order[0]].y;
        piece[order[1]].y = y;
        let (x0, x1) = (piece[order[0]].x, piece[order[1]].x);
        if let Some(t) = &mut mover.track {
            t.keys[0].angle = 0.0;
            by_time_where_too_fast(t);
        }
        p(0.5 * (x0 + x1), y)
    };
    if rng() < 0.5 {
        l.spawn = top(l, rng);
        placed += 1;
    }
    for i in 0..l.agents.len() {
        if rng() < 1.0 / 3.0 {
            l.agents[i].spawn = top(l, rng);
            placed += 1;
        }
    }
    placed
}

/// A leg by speed that the new first angle makes turn too fast for its length: by time.
fn by_time_where_too_fast(t: &mut Track) {
    for i in 0..t.keys.len() {
        if t.keys[i].speed.is_some() && tessera::level::track_problem(t).is_some() {
            t.keys[i].speed = None;
            t.keys[i].time = Some(1.0);
        }
    }
}
