//! The living level of issue 52's cost goal (goal 4), shared by the benches that tick it
//! (`benches/signals.rs`), deterministic from a seed: rows of unit tiles (100 to a row, rows
//! 4 m apart), patrols of the three box size classes walking them, 64 movers on tracks (a hold
//! at each end) over the rows, 16 doors beyond the rows' right ends, and 200 signals wired in
//! one of three ways ([`Wiring`]) so that the same world can be ticked with its signals
//! firing, with every signal quiet, and with none.
//!
//! Must never depend on the bench harness (criterion): plain level data.
use glam::DVec2;
use tessera::collision::Aabb;
use tessera::level::{
    AgentKind, AgentSize, Level, LevelAgent, LevelDoor, LevelMover, LevelPolygon, LevelSignal,
    RegionEdge, SignalSource, SignalWho, Track, TrackEase, TrackKey, TrackRepeat,
};

use super::inputs::Rng;

/// Movers on tracks.
pub const MOVERS: usize = 64;
/// Doors.
pub const DOORS: usize = 16;
/// Signals of the [`Wiring::Living`] and [`Wiring::Quiet`] worlds.
pub const SIGNALS: usize = 200;

/// How the level's 200 signals are wired. The sources are of the same kinds and number in
/// `Living` and `Quiet`, bound to the same targets (door `toggle_on` and `open_on`, mover
/// `restart_on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wiring {
    /// Signals that fire: each door toggled every 2 s on a timer of its own, 100 regions on the
    /// rows the agents walk (70 counting agents, 20 anyone, 10 the hero; entering, leaving or
    /// occupied), 64 track keys (half the movers restarted when they reach their far key),
    /// 20 `stood_on` of movers.
    Living,
    /// The same sources where nothing happens: the door timers at a day's end, the regions
    /// lifted off the floor (no agent's feet ever in them), `mover_end` for the track keys (a
    /// ping-pong never ends), the same `stood_on` (no one rides).
    Quiet,
    /// No signals and no targets: the same movers running, the same doors closed.
    None,
}

/// The level: `tiles` unit tiles, `agents` patrols, [`MOVERS`] tracked movers, [`DOORS`] doors
/// and (unless [`Wiring::None`]) [`SIGNALS`] signals, from `seed`.
pub fn living_level(tiles: usize, agents: usize, wiring: Wiring, seed: u64) -> Level {
    let per_row = 100.min(tiles);
    let rows = tiles.div_ceil(per_row);
    let row_y = |r: u64| 4.0 * r as f64;
    let polygons = (0..tiles)
        .map(|i| {
            let (x, y) = ((i % per_row) as f64, row_y((i / per_row) as u64));
            LevelPolygon::solid(vec![
                DVec2::new(x, y - 1.0),
                DVec2::new(x + 1.0, y - 1.0),
                DVec2::new(x + 1.0, y),
                DVec2::new(x, y),
            ])
        })
        .collect();
    let mut rng = Rng(seed);
    let sizes = [AgentSize::Small, AgentSize::Medium, AgentSize::Large];
    let agents = (0..agents)
        .map(|i| LevelAgent {
            kind: AgentKind::Patrol,
            size: sizes[i % 3],
            spawn: DVec2::new(
                2.0 + rng.unit() * (per_row as f64 - 4.0),
                row_y(rng.below(rows as u64)),
            ),
            facing: if rng.below(2) == 0 { 1.0 } else { -1.0 },
            character: None,
            patrol: None,
        })
        .collect();
    // Doors at the right ends of the rows (where no agent walks), closed.
    let doors: Vec<LevelDoor> = (0..DOORS)
        .map(|k| {
            let (x, y) = (per_row as f64 + 0.5, row_y((k % rows) as u64));
            LevelDoor {
                points: vec![
                    DVec2::new(x + 2.0 * (k / rows) as f64, y - 1.0),
                    DVec2::new(x + 2.0 * (k / rows) as f64 + 1.0, y - 1.0),
                    DVec2::new(x + 2.0 * (k / rows) as f64 + 1.0, y + 2.0),
                    DVec2::new(x + 2.0 * (k / rows) as f64, y + 2.0),
                ],
                open: false,
                switch: None,
                close_after: None,
                open_on: Vec::new(),
                close_on: Vec::new(),
                toggle_on: Vec::new(),
            }
        })
        .collect();
    // Platforms 1 m × 0.3 m, 2.4 m over a row (above the tallest class's head), going 3 m right
    // in 1 s and back, holding 0.5 s at the start and 0.25 s at the end.
    let key = |offset: DVec2, hold: f64| TrackKey {
        offset,
        angle: 0.0,
        hold,
        time: Some(1.0),
        speed: None,
        ease: TrackEase::Smooth,
    };
    let movers: Vec<LevelMover> = (0..MOVERS)
        .map(|_| {
            let at = DVec2::new(
                1.0 + rng.unit() * (per_row as f64 - 10.0),
                row_y(rng.below(rows as u64)) + 2.4,
            );
            LevelMover {
                pieces: vec![vec![
                    at,
                    at + DVec2::new(1.0, 0.0),
                    at + DVec2::new(1.0, 0.3),
                    at + DVec2::new(0.0, 0.3),
                ]],
                track: Some(Track {
                    keys: vec![key(DVec2::ZERO, 0.5), key(DVec2::new(3.0, 0.0), 0.25)],
                    repeat: TrackRepeat::PingPong,
                    delay: 0.0,
                }),
                ..Default::default()
            }
        })
        .collect();
    let mut level = Level {
        polygons,
        doors,
        agents,
        movers,
        spawn: DVec2::new(1.0, 0.0),
        ..Level::empty("living bench")
    };
    if wiring != Wiring::None {
        wire(&mut level, wiring, per_row, rows, &mut rng);
    }
    level
}

/// Adds the [`SIGNALS`] signals and their targets (see [`Wiring`]).
fn wire(level: &mut Level, wiring: Wiring, per_row: usize, rows: usize, rng: &mut Rng) {
    let quiet = wiring == Wiring::Quiet;
    let signal = |name: String, source: SignalSource| LevelSignal { name, source };
    let mut signals = Vec::with_capacity(SIGNALS);
    // Each door on a schedule of its own: toggled every 2 s (quiet: once, at a day's end).
    for (k, door) in level.doors.iter_mut().enumerate() {
        let name = format!("door{k}");
        signals.push(signal(
            name.clone(),
            if quiet {
                SignalSource::Timer {
                    at: Some(86_000.0 + k as f64),
                    every: None,
                }
            } else {
                SignalSource::Timer {
                    at: Some(0.05 * k as f64),
                    every: Some(2.0),
                }
            },
        ));
        door.toggle_on.push(name);
    }
    // Each mover's far key (quiet: its clock's end, which a ping-pong never reaches); half the
    // movers restart from their start on it.
    for (m, mover) in level.movers.iter_mut().enumerate() {
        let name = format!("key{m}");
        signals.push(signal(
            name.clone(),
            if quiet {
                SignalSource::MoverEnd(m)
            } else {
                SignalSource::TrackKey { mover: m, key: 1 }
            },
        ));
        if m % 2 == 0 {
            mover.restart_on.push(name);
        }
    }
    // Regions 3 m wide on the rows the agents walk (quiet: lifted 0.5 m off the floor, where
    // no patrol's feet ever are); one in six opens a door.
    let whos = [SignalWho::Agent; 7]
        .into_iter()
        .chain([SignalWho::Any; 2])
        .chain([SignalWho::Hero])
        .collect::<Vec<_>>();
    let edges = [RegionEdge::Enter, RegionEdge::Leave, RegionEdge::Occupied];
    for i in 0..100 {
        let x = 5.0 + rng.unit() * (per_row as f64 - 10.0);
        let y = 4.0 * rng.below(rows as u64) as f64 + if quiet { 0.5 } else { -0.5 };
        let name = format!("zone{i}");
        signals.push(signal(
            name.clone(),
            SignalSource::Region {
                area: Aabb {
                    min: DVec2::new(x, y),
                    max: DVec2::new(x + 3.0, y + 2.0),
                },
                who: whos[i % whos.len()],
                on: edges[i % edges.len()],
            },
        ));
        if i % 6 == 0 {
            let doors = level.doors.len();
            level.doors[(i / 6) % doors].open_on.push(name);
        }
    }
    // Standing on a mover: no one rides these (they are over the agents' heads).
    for j in 0..20 {
        signals.push(signal(
            format!("stand{j}"),
            SignalSource::StoodOn {
                mover: j * 3,
                who: SignalWho::Any,
                on: edges[j % edges.len()],
            },
        ));
    }
    assert_eq!(signals.len(), SIGNALS);
    level.signals = signals;
}
