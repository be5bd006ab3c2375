//! Riders from the first tick, and the take-off tick (issue 52, goal 3).
//!
//! A character whose spawn, checkpoint or respawn point stands on a mover (at the mover's pose
//! on that tick) starts riding it: not one airborne tick, its velocity relative to the mover
//! zero, its point in the mover's frame kept to 1e-9 m from the first tick on. On a turning
//! mover the point is re-seated every tick on the piece's new inflation, whose shape changes
//! with the angle (an upright collider on a tilted plank touches it with a corner), so there
//! the point along the plank is what stays (to 1e-9 m), the feet stay on the plank's top (to
//! 1e-9 m), and the whole point is back where it was each time the plank's angle is again the
//! one it started at.
//!
//! The take-off tick moves a leaving character once: the world's carry has already moved the
//! rider with its mover for the whole tick, so the tick's whole displacement (from the feet
//! before the carry to the feet after the step) is the velocity the tick reports (after the
//! take-off tick's gravity and air control) times the tick's length, to 1e-9 m.
use glam::DVec2;
use tessera::collision::Aabb;
use tessera::level::{AgentKind, AgentSize, Level, LevelMover, MoverEase, MoverMode};
use tessera::movement::{Actions, Hero, MoveEvent, MoveState, Tuning};
use tessera::sim::{PlayEvent, World, DT, TICK_HZ};

use crate::common::{agent, level, p, rect};

/// A box mover `(x0, y0, x1, y1)` going along `path` (ping-pong, linear) in `period` s.
fn mover(piece: (f64, f64, f64, f64), path: &[(f64, f64)], period: f64) -> LevelMover {
    let (x0, y0, x1, y1) = piece;
    LevelMover {
        pieces: vec![vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]],
        path: path.iter().map(|&(x, y)| p(x, y)).collect(),
        period,
        mode: MoverMode::PingPong,
        ease: MoverEase::Linear,
        ..Default::default()
    }
}

/// A level with a floor far below (out of the way) and `movers`, the hero's spawn at `spawn`.
fn with_movers(spawn: DVec2, movers: Vec<LevelMover>) -> Level {
    let mut l = level(vec![rect(-40.0, -60.0, 40.0, -59.0)], vec![], spawn);
    l.movers = movers;
    l
}

/// A plank 6 m long and 0.4 m thick (top at y = 0.2 at rest) turning about its centre (0, 0):
/// swinging `swing` rad every `period` s, or spinning at `spin` rad/s.
fn plank(swing: f64, spin: f64, period: f64) -> LevelMover {
    let mut m = mover((-3.0, -0.2, 3.0, 0.2), &[(0.0, 0.0), (0.0, 0.0)], period);
    m.swing = swing;
    m.spin = spin;
    m
}

/// The translating movers tried: 5 m/s to the right and back, a lift reversing at once at
/// ±4 m/s, and a loop eased at each corner.
fn translating() -> Vec<(&'static str, LevelMover)> {
    let piece = (-2.0, -0.5, 2.0, 0.0);
    let mut lp = mover(
        piece,
        &[(0.0, 0.0), (3.0, 0.0), (3.0, 3.0), (0.0, 3.0)],
        2.0,
    );
    lp.mode = MoverMode::Loop;
    lp.ease = MoverEase::Smooth;
    vec![
        (
            "5 m/s sideways",
            mover(piece, &[(0.0, 0.0), (20.0, 0.0)], 4.0),
        ),
        ("lift", mover(piece, &[(0.0, 0.0), (0.0, 4.0)], 1.0)),
        ("eased loop", lp),
    ]
}

/// `pos` (world) in mover `m`'s own frame (its rest pose): the offset taken off, and for a
/// turning mover the turn about its pivot undone.
fn in_frame(w: &World, m: u32, pos: DVec2) -> DVec2 {
    let pose = w.movers().pose(m);
    let d = pos - pose.offset;
    let Some(pivot) = w.movers().pivot(m) else {
        return d;
    };
    let (s, c) = (-pose.angle).sin_cos();
    let r = d - pivot;
    pivot + DVec2::new(c * r.x - s * r.y, s * r.x + c * r.y)
}

/// How far above the walkable top of a mover piece under it (inflated by its collider) the
/// character's feet are: ~0 when seated (nudged out of the piece by at most a few ulps).
fn gap_above_top(w: &World, h: &Hero) -> f64 {
    let (_, under) = w
        .movers()
        .support_below(h.collider.0 as usize, h.body.pos, 0.02, 0.5, false)
        .expect("a mover's top under the feet");
    h.body.pos.y - under.y
}

/// Steps `w` idle `ticks` times, checking that the character `who` (the hero: `None`) rides
/// mover 0 on every tick and that its point in the mover's frame stays where it was after
/// `World::new`: to 1e-9 m whole on a translating mover; along the plank and seated on its top
/// on a turning one, and whole each time the angle is the starting one again. Returns how many
/// of those whole-point checks a turning mover had.
fn rides_without_drift(w: &mut World, who: Option<usize>, ticks: u64, what: &str) -> usize {
    let character = |w: &World| match who {
        None => w.hero().clone(),
        Some(i) => w.agents()[i].mover.clone(),
    };
    let h = character(w);
    assert!(
        matches!(h.state, MoveState::Riding { on, speed, .. } if on.mover == 0 && speed == 0.0),
        "{what}: riding from the first tick, at rest: {:?}",
        h.state
    );
    assert_eq!(
        h.vel,
        DVec2::ZERO,
        "{what}: no velocity relative to the mover"
    );
    let turns = w.movers().turns(0);
    let angle0 = w.movers().pose(0).angle;
    let start = in_frame(w, 0, h.body.pos);
    assert!(
        gap_above_top(w, &h).abs() <= 1e-9,
        "{what}: seated at spawn"
    );
    let mut whole = 0;
    for _ in 0..ticks {
        w.step(&Actions::default());
        assert!(w.penetrations().is_empty(), "{what}: tick {}", w.frame());
        let h = character(w);
        assert!(
            matches!(h.state, MoveState::Riding { on, .. } if on.mover == 0),
            "{what}: not riding on tick {}: {:?}",
            w.frame(),
            h.state
        );
        let now = in_frame(w, 0, h.body.pos);
        if !turns {
            let drift = (now - start).length();
            assert!(drift <= 1e-9, "{what}: drift {drift} on tick {}", w.frame());
            continue;
        }
        let along = (now.x - start.x).abs();
        assert!(
            along <= 1e-9,
            "{what}: {along} along the plank, tick {}",
            w.frame()
        );
        let gap = gap_above_top(w, &h).abs();
        assert!(gap <= 1e-9, "{what}: {gap} off the top, tick {}", w.frame());
        if (w.movers().pose(0).angle - angle0).abs() <= 1e-12 {
            let drift = (now - start).length();
            assert!(drift <= 1e-9, "{what}: drift {drift} on tick {}", w.frame());
            whole += 1;
        }
    }
    whole
}

/// Goal 3: the hero spawned on a translating platform (sideways, a lift, an eased loop) rides it
/// from tick 0, not one airborne tick in three seconds, its point in the platform's frame kept
/// to 1e-9 m; spawned a centimetre above the top, it is seated on the top first.
#[test]
fn a_hero_spawned_on_a_translating_platform_rides_it_from_the_first_tick() {
    for (what, m) in translating() {
        for above in [0.0, 0.01] {
            let l = with_movers(p(0.5, above), vec![m.clone()]);
            let mut w = World::new(&l, &Tuning::default()).unwrap();
            assert_eq!(w.hero().body.pos, p(0.5, 0.0), "{what}: seated on the top");
            rides_without_drift(&mut w, None, 3 * TICK_HZ as u64, what);
        }
    }
}

/// Goal 3 on turning platforms: the hero spawned on a plank swinging ±0.32 rad once a second,
/// and on one spinning at 0.3 rad/s (which throws it off only after 2.6 s, at the walkable
/// angle), rides it from tick 0 with no airborne tick; along the plank to 1e-9 m, on its top to
/// 1e-9 m, and (the swing) whole to 1e-9 m at each level pose.
#[test]
fn a_hero_spawned_on_a_turning_plank_rides_it_from_the_first_tick() {
    let swing = plank(2.0 / std::f64::consts::TAU, 0.0, 1.0);
    let mut w = World::new(&with_movers(p(1.5, 0.2), vec![swing]), &Tuning::default()).unwrap();
    let level_poses = rides_without_drift(&mut w, None, 3 * TICK_HZ as u64, "swing");
    assert!(level_poses >= 3, "level again every second: {level_poses}");

    let spin = plank(0.0, 0.3, 1.0);
    let mut w = World::new(&with_movers(p(1.0, 0.2), vec![spin]), &Tuning::default()).unwrap();
    rides_without_drift(&mut w, None, 2 * TICK_HZ as u64, "spin");
    assert!(w.movers().pose(0).angle > 0.55, "it turned while ridden");
}

/// Goal 3 for agents: an idle agent spawned on a platform going sideways at 5 m/s and one
/// spawned on a swinging plank ride from tick 0, with no drift in the platform's frame.
#[test]
fn an_agent_spawned_on_a_mover_rides_it_from_the_first_tick() {
    let movers = [
        ("agent, 5 m/s sideways", translating().swap_remove(0).1, 0.0),
        (
            "agent, swing",
            plank(2.0 / std::f64::consts::TAU, 0.0, 1.0),
            0.2,
        ),
    ];
    for (what, m, top) in movers {
        // The hero far away on the floor below.
        let mut l = with_movers(p(20.0, -59.0), vec![m]);
        l.agents = vec![agent(AgentKind::Idle, AgentSize::Medium, 1.0, top, 1.0)];
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        rides_without_drift(&mut w, Some(0), 3 * TICK_HZ as u64, what);
    }
}

/// Goal 3 for respawns: a checkpoint whose region's bottom centre is on a wide platform going
/// sideways; the hero reaches it, walks off the platform into the pit, and respawns riding the
/// platform where it is on the respawn tick, with no drift from then on.
#[test]
fn a_respawn_at_a_checkpoint_on_a_mover_rides_it() {
    let m = mover((-10.0, -0.5, 10.0, 0.0), &[(0.0, 0.0), (3.0, 0.0)], 1.5);
    let mut l = with_movers(p(0.0, 0.0), vec![m]);
    l.polygons = vec![rect(30.0, 10.0, 31.0, 11.0)];
    l.bounds = Some(Aabb {
        min: p(-40.0, -20.0),
        max: p(40.0, 20.0),
    });
    l.checkpoints = vec![Aabb {
        min: p(-1.0, 0.0),
        max: p(1.0, 2.0),
    }];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let right = Actions {
        move_axis: DVec2::X,
        ..Default::default()
    };
    let mut respawned = false;
    for _ in 0..10 * TICK_HZ {
        w.step(&right);
        if w.play_events().contains(&PlayEvent::Respawned) {
            respawned = true;
            break;
        }
    }
    assert!(respawned, "fell into the pit and respawned");
    assert_eq!(w.checkpoint(), Some(0));
    assert_eq!(w.play().deaths, 1);
    // Where the respawn put it: the checkpoint's bottom centre, on the platform's top.
    assert_eq!(w.hero().body.pos, p(0.0, 0.0));
    rides_without_drift(&mut w, None, 2 * TICK_HZ as u64, "respawn");
}

/// The whole displacement of the tick just stepped (the feet before the carry to the feet
/// after the step) less the velocity the tick reports times the tick.
fn take_off_error(w: &World) -> f64 {
    let moved = w.hero().body.pos - w.prev_pos();
    (moved - w.hero().vel * DT).length()
}

/// Goal 3, the take-off tick: a jump off a platform going sideways at 5 m/s, off a lift going
/// up, off one going down, off a lift just after it reversed (within the momentum grace, which
/// keeps the velocity from before), and off a swinging plank moves the hero once: the tick's
/// displacement is the reported velocity (after the tick's gravity) times the tick, to 1e-9 m.
#[test]
fn the_take_off_tick_moves_a_leaving_rider_once() {
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    };
    let lift = mover((-2.0, -0.5, 2.0, 0.0), &[(0.0, 0.0), (0.0, 4.0)], 1.0);
    let cases = [
        ("5 m/s sideways", translating().swap_remove(0).1, 60u64),
        ("lift going up", lift.clone(), 60),
        ("lift going down", lift.clone(), 180),
        ("lift just reversed", lift, 123),
        ("swing", plank(0.3, 0.0, 2.0), 150),
    ];
    for (what, m, tick) in cases {
        let spawn = if m.swing != 0.0 {
            p(2.0, 0.2)
        } else {
            p(0.5, 0.0)
        };
        let mut w = World::new(&with_movers(spawn, vec![m]), &Tuning::default()).unwrap();
        while w.frame() + 1 < tick {
            w.step(&Actions::default());
            assert!(w.hero().grounded(), "{what}: riding before the jump");
        }
        w.step(&jump);
        assert!(
            w.last_report().events.contains(&MoveEvent::Jumped),
            "{what}"
        );
        assert_eq!(w.hero().state, MoveState::Airborne, "{what}");
        let err = take_off_error(&w);
        assert!(
            err <= 1e-9,
            "{what}: the take-off tick moved {err} m too far"
        );
    }
}

/// The take-off tick of a rider the carry itself leaves in the air: a platform going up and to
/// the right at (2, 1) m/s carries the hero into the side of a block hanging over it, which
/// scrapes it off. In that tick the carry moved it up the block's side with the platform; its
/// air step then flies the tick less that, which leaves only gravity's pull relative to the
/// platform, into the platform's top still under its feet: so the tick moves it up exactly as
/// far as the platform rose, to 1e-9 m (it moved it that far again before the carry was taken
/// off the flight).
#[test]
fn a_rider_scraped_off_by_a_wall_moves_once_in_that_tick() {
    let m = mover((-2.0, -0.5, 2.0, 0.0), &[(0.0, 0.0), (8.0, 4.0)], 4.0);
    let mut l = with_movers(p(1.5, 0.0), vec![m]);
    l.polygons.push(rect(3.0, 1.5, 10.0, 20.0));
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    assert!(matches!(w.hero().state, MoveState::Riding { .. }));
    for _ in 0..TICK_HZ {
        w.step(&Actions::default());
        assert!(w.penetrations().is_empty());
        if !w.hero().grounded() {
            let moved = w.hero().body.pos - w.prev_pos();
            let rose = w.movers().offset(0).y - w.movers().prev_offset(0).y;
            assert!(rose > 0.5 * DT, "{rose}");
            assert!(
                (moved.y - rose).abs() <= 1e-9,
                "tick {}: moved {} m/s up, the platform {} m/s",
                w.frame(),
                moved.y / DT,
                rose / DT
            );
            return;
        }
    }
    panic!("the block never scraped the rider off");
}

/// A level swap keeps a rider riding: the hero walking on a platform that has travelled far
/// from where it starts is relocated onto the new meshes where it is, riding the platform at
/// its pose on that tick with its speed along it kept, and rides on with no drift.
#[test]
fn a_level_swap_keeps_a_rider_riding() {
    let l = with_movers(p(0.5, 0.0), vec![translating().swap_remove(0).1]);
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let left = Actions {
        move_axis: -DVec2::X,
        ..Default::default()
    };
    for k in 0..60 {
        w.step(&if k < 48 { Actions::default() } else { left });
    }
    assert!(w.movers().offset(0).x > 2.0, "the platform travelled");
    let MoveState::Riding { local, speed, .. } = w.hero().state else {
        panic!("riding before the swap: {:?}", w.hero().state);
    };
    assert!(speed.abs() > 1.0, "walking on it: {speed}");
    let (pos, vel) = (w.hero().body.pos, w.hero().vel);
    w.set_level(&l).unwrap();
    let MoveState::Riding {
        local: after,
        speed: kept,
        ..
    } = w.hero().state
    else {
        panic!("riding after the swap: {:?}", w.hero().state);
    };
    assert_eq!(w.hero().body.pos, pos);
    assert!((after - local).length() <= 1e-9, "{after} {local}");
    assert_eq!((kept, w.hero().vel), (speed, vel));
    let before = w.movers().offset(0);
    w.step(&Actions::default());
    assert!(w.hero().grounded());
    let carried = w.movers().offset(0) - before;
    assert!(carried.x > 0.04, "carried on at 5 m/s: {carried}");
}
