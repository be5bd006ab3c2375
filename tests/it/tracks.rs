//! Movers with tracks (`level::track`, `sim::track`): each case `levels/test/tracks.ron` writes
//! (a lift holding at its floors, a crusher that waits, drops and stays down, a bridge that starts
//! after a delay, a lift with unequal legs, a constant-rate rocker, a rocker holding at its ends)
//! posed by the world at chosen ticks to 1e-9 of hand-computed values; the world's pose is the
//! track's pure function of the mover's clock, and the clock is in the trace and the hash.
use glam::DVec2;
use tessera::level::{load_level, Level};
use tessera::movement::{Actions, Tuning};
use tessera::sim::{World, TICK_HZ};

fn level() -> Level {
    load_level(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/tracks.ron"
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Mover `m`'s pose in a world of `tracks.ron` at each of `want`'s ticks (in order): its offset
/// and angle to 1e-9 of `want`'s, and the world's pose bit for bit the track's pure function of
/// the tick's time. No character is ever inside anything.
fn assert_poses(m: u32, want: &[(u64, (f64, f64), f64)]) {
    let level = level();
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    for &(tick, (x, y), angle) in want {
        while w.frame() < tick {
            w.step(&Actions::default());
            assert!(w.penetrations().is_empty(), "tick {}", w.frame());
        }
        let pose = w.movers().pose(m);
        assert!(
            (pose.offset - DVec2::new(x, y)).length() <= 1e-9 && (pose.angle - angle).abs() <= 1e-9,
            "mover {m} at tick {tick}: {pose:?}, want ({x}, {y}) {angle}"
        );
        let time = tick as f64 / TICK_HZ as f64;
        let pure = tessera::sim::movers::pose_at(&level.movers[m as usize], time);
        assert_eq!(pose, pure, "mover {m} at tick {tick}");
    }
}

/// A lift rising 8 m in two legs of 2 s, holding 1 s at the bottom, the middle and the top:
/// 12 s there and back (the end holds once per turn-around, the middle's on each pass).
#[test]
fn a_lift_holds_at_each_floor() {
    assert_poses(
        0,
        &[
            (60, (0.0, 0.0), 0.0),
            (120, (0.0, 0.0), 0.0),
            (240, (0.0, 2.0), 0.0),
            (420, (0.0, 4.0), 0.0),
            (600, (0.0, 6.0), 0.0),
            (780, (0.0, 8.0), 0.0),
            (960, (0.0, 6.0), 0.0),
            (1140, (0.0, 4.0), 0.0),
            (1320, (0.0, 2.0), 0.0),
            (1500, (0.0, 0.0), 0.0),
            (1680, (0.0, 2.0), 0.0),
        ],
    );
}

/// A crusher waits 2 s, drops 5 m in 0.5 s easing in (a quarter of the way at half the time),
/// and stays down.
#[test]
fn a_crusher_waits_drops_and_stays_down() {
    assert_poses(
        1,
        &[
            (120, (0.0, 0.0), 0.0),
            (240, (0.0, 0.0), 0.0),
            (270, (0.0, -1.25), 0.0),
            (300, (0.0, -5.0), 0.0),
            (1200, (0.0, -5.0), 0.0),
        ],
    );
    // Still down after a day.
    let m = &level().movers[1];
    let day = tessera::sim::movers::pose_at(m, 86_400.0);
    assert_eq!(day.offset, DVec2::new(0.0, -5.0));
}

/// A bridge waits 3 s once, then goes 4 m and back at 2 m/s without waiting again.
#[test]
fn a_mover_starts_after_a_delay() {
    assert_poses(
        2,
        &[
            (120, (0.0, 0.0), 0.0),
            (348, (0.0, 0.0), 0.0),
            (480, (2.0, 0.0), 0.0),
            (600, (4.0, 0.0), 0.0),
            (720, (2.0, 0.0), 0.0),
            (840, (0.0, 0.0), 0.0),
            (960, (2.0, 0.0), 0.0),
        ],
    );
}

/// A lift rises 6 m at 12 m/s and comes down at 10 m/s: 0.5 s up, 0.6 s down, round and round;
/// one tick moves it 0.1 m going up and 1/12 m coming down.
#[test]
fn unequal_legs_go_up_at_12_and_down_at_10() {
    assert_poses(
        3,
        &[
            (30, (0.0, 3.0), 0.0),
            (60, (0.0, 6.0), 0.0),
            (96, (0.0, 3.0), 0.0),
            (162, (0.0, 3.0), 0.0),
        ],
    );
    let m = &level().movers[3];
    let y = |tick: u64| tessera::sim::movers::offset_at(m, tick as f64 / TICK_HZ as f64).y;
    for tick in [3, 40, 135, 170] {
        assert!(
            (y(tick + 1) - y(tick) - 0.1).abs() <= 1e-9,
            "up at tick {tick}"
        );
    }
    for tick in [70, 100, 200, 250] {
        assert!(
            (y(tick + 1) - y(tick) + 10.0 / 120.0).abs() <= 1e-9,
            "down at tick {tick}"
        );
    }
}

/// A plank rocks between -0.2 and 0.2 rad at 0.4 rad/s: a triangle wave, every tick turning it
/// by 0.4/120 rad either way, its offset never moving.
#[test]
fn a_rocker_turns_at_a_constant_rate() {
    assert_poses(
        4,
        &[
            (0, (0.0, 0.0), -0.2),
            (30, (0.0, 0.0), -0.1),
            (120, (0.0, 0.0), 0.2),
            (180, (0.0, 0.0), 0.0),
            (270, (0.0, 0.0), -0.1),
        ],
    );
    let m = &level().movers[4];
    let angle = |tick: u64| tessera::sim::movers::pose_at(m, tick as f64 / TICK_HZ as f64).angle;
    for tick in 0..480 {
        let step = (angle(tick + 1) - angle(tick)).abs();
        assert!((step - 0.4 / 120.0).abs() <= 1e-12, "tick {tick}: {step}");
    }
}

/// The same plank holding 0.5 s at each end: 3 s a round.
#[test]
fn a_rocker_holds_at_each_end() {
    assert_poses(
        5,
        &[
            (30, (0.0, 0.0), -0.2),
            (60, (0.0, 0.0), -0.2),
            (120, (0.0, 0.0), 0.0),
            (210, (0.0, 0.0), 0.2),
            (240, (0.0, 0.0), 0.2),
            (300, (0.0, 0.0), 0.0),
            (384, (0.0, 0.0), -0.2),
        ],
    );
}

/// Each mover's clock counts the world's ticks; the trace line of a level with tracks says them
/// and a clock set off the others moves the state hash.
#[test]
fn the_clocks_are_in_the_trace_and_the_hash() {
    let level = level();
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    for _ in 0..90 {
        w.step(&Actions::default());
    }
    assert!(w
        .mover_clocks()
        .iter()
        .all(|c| c.ticks() == 90 && c.running()));
    assert_eq!(w.trace_frame().clocks, vec![90; 6]);
    let hash = w.state_hash();
    let mut same = World::new(&level, &Tuning::default()).unwrap();
    for _ in 0..90 {
        same.step(&Actions::default());
    }
    assert_eq!(same.state_hash(), hash);
    // A scrubbed time moves every clock (and so the hash), and they run on from there.
    same.set_mover_time(10.0);
    assert_ne!(same.state_hash(), hash);
    same.step(&Actions::default());
    assert!(same.mover_clocks().iter().all(|c| c.ticks() == 1201));
    // Levels without tracks leave the clocks out of the line.
    let plain = load_level(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/movers.ron"
    ))
    .unwrap();
    let mut w = World::new(&plain, &Tuning::default()).unwrap();
    w.step(&Actions::default());
    assert!(w.trace_frame().clocks.is_empty());
}

/// An idle rider of a platform on a track with holds, speeds from a standstill and a stop (once
/// and ping-pong) rides every tick from its landing on, keeping its point in the platform's frame
/// bit for bit and its place to 1e-9 m.
#[test]
fn a_rider_stays_on_through_holds_and_stops() {
    use tessera::level::{LevelMover, Track, TrackKey, TrackRepeat};
    use tessera::movement::MoveState;
    for repeat in [TrackRepeat::Once, TrackRepeat::PingPong] {
        let key = |x: f64, y: f64, hold: f64, time: f64| TrackKey {
            hold,
            time: (time > 0.0).then_some(time),
            ..TrackKey::timed(DVec2::new(x, y), 0.0, time)
        };
        let platform = LevelMover {
            pieces: vec![vec![
                DVec2::new(-2.0, -0.5),
                DVec2::new(2.0, -0.5),
                DVec2::new(2.0, 0.0),
                DVec2::new(-2.0, 0.0),
            ]],
            track: Some(Track {
                keys: vec![
                    key(0.0, 0.0, 1.5, 1.0),
                    key(0.0, 3.0, 0.5, 0.8),
                    key(3.0, 3.0, 0.5, 0.0),
                ],
                repeat,
                delay: 0.0,
            }),
            path: Vec::new(),
            period: 0.0,
            ..Default::default()
        };
        let mut l = crate::common::level(
            vec![crate::common::rect(-40.0, -60.0, 40.0, -59.0)],
            vec![],
            DVec2::new(0.0, 0.5),
        );
        l.movers = vec![platform];
        l.validate().unwrap();
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let riding = |w: &World| match w.hero().state {
            MoveState::Riding { local, speed, .. } => Some((local, speed)),
            _ => None,
        };
        while riding(&w).is_none_or(|(_, speed)| speed != 0.0) {
            w.step(&Actions::default());
            assert!(
                w.frame() < 170,
                "{repeat:?}: landed and stopped in the first hold"
            );
        }
        let (local, _) = riding(&w).unwrap();
        for _ in 0..10 * TICK_HZ {
            w.step(&Actions::default());
            let (now, _) = riding(&w).unwrap_or_else(|| {
                panic!("{repeat:?}: not riding at tick {}", w.frame());
            });
            assert_eq!(now, local, "{repeat:?}, tick {}", w.frame());
            let off = (w.hero().body.pos - w.movers().offset(0) - local).length();
            assert!(off <= 1e-9, "{repeat:?}, tick {}: {off}", w.frame());
            assert!(w.penetrations().is_empty());
        }
        // It went somewhere: a `once` track stays at its last key.
        if repeat == TrackRepeat::Once {
            assert_eq!(w.movers().offset(0), DVec2::new(3.0, 3.0));
        }
    }
}
