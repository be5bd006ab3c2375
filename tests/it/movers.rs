//! Moving platforms (`level.movers`, `sim::movers`, `collision::Movers`): riding by the mover's
//! pose (no drift), no airborne tick on a platform going down as fast as anything falls or
//! reversing at once, pushes, crushes decided in their tick with no false ones, momentum on
//! leaving, a wall of a mover stopping a walk, and no character ever strictly inside a mover or a
//! static solid, checked by the exact test every tick over random scenarios (paths and tracks
//! with holds, stops and delays).
use glam::DVec2;
use tessera::level::{
    AgentKind, AgentSize, Level, LevelAgent, LevelMover, MoverEase, MoverMode, Track, TrackEase,
    TrackKey, TrackRepeat,
};
use tessera::movement::{Actions, MoveEvent, MoveState, Tuning};
use tessera::sim::{World, WorldEvent, TICK_HZ};

use crate::common::seed::{seed_from, unit_stream, SEED_VAR};
use crate::common::{level, p, rect};

fn mover(
    piece: (f64, f64, f64, f64),
    path: &[(f64, f64)],
    period: f64,
    mode: MoverMode,
    ease: MoverEase,
) -> LevelMover {
    let (x0, y0, x1, y1) = piece;
    LevelMover {
        pieces: vec![vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]],
        path: path.iter().map(|&(x, y)| p(x, y)).collect(),
        period,
        mode,
        ease,
        ..Default::default()
    }
}

fn with_movers(mut l: Level, movers: Vec<LevelMover>) -> Level {
    l.movers = movers;
    l
}

fn idle() -> Actions {
    Actions::default()
}

fn right() -> Actions {
    Actions {
        move_axis: DVec2::X,
        ..Default::default()
    }
}

fn jump_right() -> Actions {
    Actions {
        move_axis: DVec2::X,
        jump: true,
        jump_pressed: true,
        ..Default::default()
    }
}

/// Steps `w` with `a`, asserting the exact no-penetration test after the tick.
fn step(w: &mut World, a: &Actions) {
    w.step(a);
    assert_eq!(
        w.penetrations(),
        Vec::<Option<usize>>::new(),
        "tick {}: a character is inside solid geometry at {:?} ({:?}, {:?}, {:?})",
        w.frame(),
        w.hero().body.pos,
        w.hero().collider,
        w.hero().state,
        w.collision()
            .mesh(w.hero().collider)
            .kind(w.hero().body.face),
    );
}

/// A platform 4 m wide in open space, the hero dropped onto it.
fn platform_level(path: &[(f64, f64)], period: f64, mode: MoverMode, ease: MoverEase) -> Level {
    let l = level(vec![rect(-40.0, -60.0, 40.0, -59.0)], vec![], p(0.0, 0.5));
    with_movers(
        l,
        vec![mover((-2.0, -0.5, 2.0, 0.0), path, period, mode, ease)],
    )
}

fn riding(w: &World) -> Option<(DVec2, f64)> {
    match w.hero().state {
        MoveState::Riding { local, speed, .. } => Some((local, speed)),
        _ => None,
    }
}

/// Goal 2 (exact riding): an idle rider of a platform going back and forth, and one going round a
/// loop, keeps its point in the platform's frame bit for bit over ten minutes of ticks, and its
/// position in the world is the platform's offset plus that point to within 1e-9 m.
#[test]
fn an_idle_rider_keeps_its_place_on_the_platform_for_ten_minutes() {
    for (path, mode) in [
        (vec![(0.0, 0.0), (6.0, 2.0)], MoverMode::PingPong),
        (
            vec![(0.0, 0.0), (5.0, 0.0), (5.0, 5.0), (0.0, 5.0)],
            MoverMode::Loop,
        ),
    ] {
        let mut w = World::new(
            &platform_level(&path, 2.5, mode, MoverEase::Smooth),
            &Tuning::default(),
        )
        .unwrap();
        // Landed, and the landing's sliding speed spent.
        while riding(&w).is_none_or(|(_, speed)| speed != 0.0) {
            step(&mut w, &idle());
            assert!(w.frame() < 480, "landed on the platform and stopped");
        }
        step(&mut w, &idle());
        let (local, _) = riding(&w).unwrap();
        let mut worst: f64 = 0.0;
        for _ in 0..10 * 60 * TICK_HZ {
            w.step(&idle());
            let (now, speed) = riding(&w).expect("still riding");
            assert_eq!(now, local, "tick {}", w.frame());
            assert_eq!(speed, 0.0);
            let off = w.movers().offset(0);
            worst = worst.max((w.hero().body.pos - off - local).length());
        }
        assert!(worst <= 1e-9, "{mode:?}: {worst}");
        assert!(w.penetrations().is_empty());
    }
}

/// Goal 2: a platform going down at the hero's maximum fall speed, and reversing at once between
/// ±10 m/s, never leaves its rider in the air.
#[test]
fn a_rider_never_leaves_a_platform_going_down_fast_or_reversing_at_once() {
    let t = Tuning::default();
    // Down 30 m at the maximum fall speed (linear), then back up.
    let down = 30.0 / t.max_fall_speed;
    let fast = platform_level(
        &[(0.0, 0.0), (0.0, -30.0)],
        down,
        MoverMode::PingPong,
        MoverEase::Linear,
    );
    // ±10 m/s: 2 m in 0.2 s each way, reversing instantly.
    let reversing = platform_level(
        &[(0.0, 0.0), (0.0, -2.0)],
        0.2,
        MoverMode::PingPong,
        MoverEase::Linear,
    );
    for l in [fast, reversing] {
        let mut w = World::new(&l, &t).unwrap();
        while riding(&w).is_none() {
            step(&mut w, &idle());
            assert!(w.frame() < 240);
        }
        let boarded = w.frame();
        for _ in 0..(4.0 * down * TICK_HZ as f64) as usize {
            step(&mut w, &idle());
            assert!(
                riding(&w).is_some(),
                "tick {} (boarded at {boarded}): {:?}",
                w.frame(),
                w.hero().state
            );
        }
    }
}

/// A block coming down on the hero standing on the floor, leaving `gap` m at the bottom of its
/// travel (0.5 s down, linear, and back). Per tick: the block's bottom, whether the hero's
/// crouching collider is in use, and whether a crush was reported.
fn crush_run(gap: f64) -> Vec<(f64, bool, bool)> {
    let mut l = level(vec![rect(-10.0, -1.0, 10.0, 0.0)], vec![], p(0.0, 0.0));
    l.movers = vec![mover(
        (-1.0, 3.0, 1.0, 4.0),
        &[(0.0, 0.0), (0.0, gap - 3.0)],
        0.5,
        MoverMode::PingPong,
        MoverEase::Linear,
    )];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let mut out = Vec::new();
    for _ in 0..120 {
        step(&mut w, &idle());
        let crushed = w
            .events()
            .iter()
            .any(|e| matches!(e, WorldEvent::Crushed { agent: None }));
        out.push((3.0 + w.movers().offset(0).y, w.hero().crouching(), crushed));
    }
    out
}

/// The first tick (index) at which `f` holds.
fn first(run: &[(f64, bool, bool)], f: impl Fn(&(f64, bool, bool)) -> bool) -> Option<usize> {
    run.iter().position(f)
}

/// Goal 3 (crush in its tick, no false crush): the hero's standing collider is 1.8 m tall, its
/// crouching one 1.0 m. A block stopping 1 mm higher than the standing collider crushes nobody
/// and moves nothing; one stopping at 1.2 m makes the hero crouch (the squish rule) in the tick
/// its bottom passes 1.8 m; one stopping at 0.3 m also crushes it, in the tick its bottom passes
/// 1.0 m. The hero is never inside the block or the floor (checked every tick).
#[test]
fn a_block_coming_down_crushes_only_when_there_is_no_room() {
    let t = Tuning::default();
    let height = |c: &tessera::collision::ColliderShape| {
        c.points().unwrap().iter().fold(0.0_f64, |m, q| m.max(q.y))
    };
    let (stand, crouch) = (height(&t.stand_collider), height(&t.crouch_collider));

    let run = crush_run(stand + 0.001);
    assert_eq!(first(&run, |r| r.1 || r.2), None, "no crouch, no crush");

    let run = crush_run(1.2);
    let k = first(&run, |r| r.1).expect("crouched");
    assert!(
        run[k].0 < stand && run[k - 1].0 >= stand,
        "tick {k}: {:?}",
        &run[k - 1..=k]
    );
    assert_eq!(
        first(&run, |r| r.2),
        None,
        "room for the crouching collider"
    );

    let run = crush_run(0.3);
    let k = first(&run, |r| r.2).expect("crushed");
    assert!(
        run[k].0 < crouch && run[k - 1].0 >= crouch,
        "tick {k}: {:?}",
        &run[k - 1..=k]
    );
}

/// Goal 4 (momentum): a jump off a platform moving sideways leaves with the platform's velocity
/// added to the jump's; walking off keeps it too.
#[test]
fn leaving_a_moving_platform_keeps_its_velocity() {
    // Constant 4 m/s to the right (linear, 40 m in 10 s).
    let l = platform_level(
        &[(0.0, 0.0), (40.0, 0.0)],
        10.0,
        MoverMode::PingPong,
        MoverEase::Linear,
    );
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    while riding(&w).is_none() {
        step(&mut w, &idle());
    }
    for _ in 0..30 {
        step(&mut w, &idle());
    }
    let v = (w.movers().offset(0) - w.movers().prev_offset(0)) * TICK_HZ as f64;
    assert!((v.x - 4.0).abs() < 1e-9, "{v:?}");
    w.step(&Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    });
    assert!(w.last_report().events.contains(&MoveEvent::Jumped));
    // The jump's first tick: gravity and air drag act on the inherited velocity once.
    let h = w.hero();
    assert_eq!(h.state, MoveState::Airborne);
    assert!((h.vel.x - 4.0).abs() < 0.2, "{:?}", h.vel);
    assert!(h.vel.y > 5.0, "{:?}", h.vel);
}

/// Goal 4 (momentum): a jump off a lift keeps the lift's velocity, both components, to 1e-9 on
/// the jump's tick (before gravity acts); within 0.1 s after the lift reverses at the top of its
/// stroke the velocity from before the reversal, after it the new one; and the tuning's caps
/// clamp it (all three 0: nothing kept).
#[test]
fn a_jump_off_a_lift_keeps_its_velocity_with_a_grace_after_it_reverses() {
    // Straight up 4 m in 1 s, then down (linear: ±4 m/s, reversing at once at t = 1 s).
    let l = platform_level(
        &[(0.0, 0.0), (0.0, 4.0)],
        1.0,
        MoverMode::PingPong,
        MoverEase::Linear,
    );
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    };
    let t = Tuning::default();
    let jump_speed = (2.0 * t.gravity * t.jump_height).sqrt();
    // The jump's tick runs the airborne step once: its vertical speed has one tick of gravity.
    let after_tick = |v0: f64| v0 - t.gravity / TICK_HZ as f64;
    // (the tick the jump is pressed on, the lift's velocity the jump keeps)
    for (jump_tick, kept) in [
        (60u64, 4.0),
        (120, 4.0),
        (121 + 5, 4.0),
        (121 + 11, 4.0),
        (121 + 13, -4.0),
        (160, -4.0),
    ] {
        let mut w = World::new(&l, &t).unwrap();
        while w.frame() + 1 < jump_tick {
            step(&mut w, &idle());
        }
        assert!(
            riding(&w).is_some(),
            "riding before the jump at {jump_tick}"
        );
        w.step(&jump);
        let v = w.hero().vel;
        assert!(
            (v.y - after_tick(jump_speed + kept)).abs() < 1e-9,
            "jump on tick {jump_tick}: {v:?}, expected {kept} m/s kept"
        );
        assert!(v.x.abs() < 1e-9, "{v:?}");
    }
    // Caps: none kept at all.
    let none = Tuning {
        momentum_max_x: 0.0,
        momentum_max_up: 0.0,
        momentum_max_down: 0.0,
        ..t.clone()
    };
    let mut w = World::new(&l, &none).unwrap();
    while w.frame() + 1 < 60 {
        step(&mut w, &idle());
    }
    w.step(&jump);
    assert!((w.hero().vel.y - after_tick(jump_speed)).abs() < 1e-9);
}

/// A mover's side is a wall: walking into it stops the hero, who is never inside it.
#[test]
fn a_movers_side_stops_a_walk() {
    let mut l = level(vec![rect(-10.0, -1.0, 10.0, 0.0)], vec![], p(-3.0, 0.0));
    // A block standing on the floor, moving up and down a little, never below the floor.
    l.movers = vec![mover(
        (0.0, 0.0, 1.0, 2.0),
        &[(0.0, 0.5), (0.0, 0.0)],
        1.0,
        MoverMode::PingPong,
        MoverEase::Smooth,
    )];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    for _ in 0..240 {
        step(&mut w, &right());
    }
    let x = w.hero().body.pos.x;
    assert!(x <= -0.4 + 1e-9 && x > -0.5, "{x}");
}

/// A mover whose top is a step above the floor (a lift resting a little high, a low cart) is
/// stepped onto as static steps are, while it moves and when it stands still; one higher than
/// `max_step_height` (0.25 m) is a wall, by any amount.
#[test]
fn a_movers_side_no_higher_than_a_step_is_stepped_onto() {
    for (top, path, steps) in [
        (0.15, [(0.0, 0.0), (0.0, 0.0)], true),
        (0.2, [(0.0, 0.0), (0.0, 0.04)], true),
        (0.25, [(0.0, 0.0), (0.0, 0.0)], true),
        (0.2501, [(0.0, 0.0), (0.0, 0.0)], false),
        (0.4, [(0.0, 0.0), (0.0, 0.04)], false),
    ] {
        let mut l = level(vec![rect(-10.0, -1.0, 10.0, 0.0)], vec![], p(-3.0, 0.0));
        l.movers = vec![mover(
            (0.0, 0.0, 3.0, top),
            &path,
            1.0,
            MoverMode::PingPong,
            MoverEase::Smooth,
        )];
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let mut stepped = false;
        for _ in 0..150 {
            step(&mut w, &right());
            stepped |= w
                .last_report()
                .events
                .iter()
                .any(|e| matches!(e, MoveEvent::SteppedUp { .. }));
        }
        let x = w.hero().body.pos.x;
        if steps {
            assert!(stepped, "top {top}: a step up");
            assert!(
                riding(&w).is_some() || x > 3.0,
                "top {top}: on it or past it, at {x}"
            );
            assert!(x > 0.5, "top {top}: at {x}");
        } else {
            assert!(!stepped && riding(&w).is_none(), "top {top}: no step");
            assert!(
                x <= -0.4 + 1e-9 && x > -0.5,
                "top {top}: stopped at its side, at {x}"
            );
        }
    }
}

/// Boarding: the hero runs off a floor onto a bridge flush with it, rides it across the gap, and
/// jumps off the far side onto the floor there.
#[test]
fn the_hero_runs_onto_a_flush_bridge_rides_it_and_jumps_off() {
    let w = World::new(
        &tessera::level::load_level(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/levels/test/movers.ron"
        )))
        .unwrap(),
        &Tuning::default(),
    );
    let mut w = w.unwrap();
    let mut boarded = false;
    for _ in 0..45 {
        step(&mut w, &right());
        boarded |= w
            .last_report()
            .events
            .contains(&MoveEvent::Boarded { mover: 0 });
    }
    assert!(boarded && riding(&w).is_some(), "{:?}", w.hero().state);
    // Ride to the far end of the bridge's travel (3 s there and 3 back: its right end reaches
    // x = 7.5 at t = 3 s), then run and jump to the floor at x = 8.
    while w.frame() < 330 {
        step(&mut w, &idle());
        assert!(riding(&w).is_some(), "tick {}", w.frame());
    }
    for _ in 0..10 {
        step(&mut w, &jump_right());
    }
    for _ in 0..120 {
        step(&mut w, &right());
    }
    let h = w.hero();
    assert!(
        h.body.pos.x > 8.0 && h.body.pos.y.abs() < 1e-9,
        "{:?}",
        h.body.pos
    );
    assert!(
        matches!(h.state, MoveState::Supported { .. }),
        "{:?}",
        h.state
    );
}

/// Goal 1 (zero penetration), the CI-sized run: random movers (linear, loop, ping-pong; up to
/// 20 m/s; boxes and slanted pieces; a quarter one-way; two in three spinning or swinging, the
/// one-way ones too; a third on tracks with holds, stops and delays) over a floor with walls and
/// a ceiling, the hero with random inputs and agents of three size classes patrolling; and, since
/// issue 52's goal 2, triggers (`random_triggers`): movers that start stopped, started, stopped,
/// reversed, returned and restarted by signals of every source (regions, standing on a mover,
/// timers, delays, track keys, a clock's end, the level's start), doors on `timer(at, every)`
/// schedules and on those signals, and the hero and agents placed on a mover's top at tick 0.
/// At tick 0 and after every tick no character is strictly inside a mover or a static solid (a
/// closed door's gate included: `World::penetrations`, exact). `TESSERA_SEED` varies it;
/// `TESSERA_MOVER_SCENARIOS` sets how many (24 by default, a few seconds; the goal's 10 000:
/// `TESSERA_MOVER_SCENARIOS=10000 cargo test --test it -- movers::zero_penetration_among_random_movers`,
/// BENCHMARKS.md records the long runs).
#[test]
fn zero_penetration_among_random_movers() {
    let value = std::env::var(SEED_VAR).ok();
    let seed = seed_from(value.as_deref(), 0x6d6f_7665_7273).unwrap();
    eprintln!("movers seed: {SEED_VAR}={seed:#x}");
    let mut rng = unit_stream(seed);
    let sizes = [AgentSize::Small, AgentSize::Medium, AgentSize::Large];
    let scenarios: usize = std::env::var("TESSERA_MOVER_SCENARIOS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let mut exercised = Exercised::default();
    for scenario in 0..scenarios {
        let mut l = level(
            vec![
                rect(-20.0, -1.0, 20.0, 0.0),
                rect(-21.0, -1.0, -20.0, 12.0),
                rect(20.0, -1.0, 21.0, 12.0),
                rect(-21.0, 12.0, 21.0, 13.0),
                rect(-6.0, 4.0, -2.0, 4.5),
            ],
            vec![],
            p(0.0, 0.0),
        );
        let count = 1 + (rng() * 4.0) as usize;
        for _ in 0..count {
            let x = -16.0 + rng() * 30.0;
            let y = 0.5 + rng() * 8.0;
            let (w, h) = (0.5 + rng() * 3.0, 0.3 + rng() * 1.5);
            let slant = (rng() - 0.5) * h;
            let mut m = mover(
                (x, y, x + w, y + h),
                &[(0.0, 0.0), ((rng() - 0.5) * 12.0, (rng() - 0.5) * 8.0)],
                0.3 + rng() * 3.0,
                if rng() < 0.5 {
                    MoverMode::PingPong
                } else {
                    MoverMode::Loop
                },
                if rng() < 0.5 {
                    MoverEase::Linear
                } else {
                    MoverEase::Smooth
                },
            );
            // A slanted top on some.
            m.pieces[0][3].y += slant.max(0.0);
            m.pieces[0][2].y += (-slant).max(0.0);
            // One in four one-way: characters pass through it but for its top.
            m.one_way = rng() < 0.25;
            // One in three spins (up to 3 rad/s) and one in three swings (up to 1 rad), about
            // a point within a metre of its centre.
            let turn = rng();
            if turn < 2.0 / 3.0 {
                if turn < 1.0 / 3.0 {
                    m.spin = (rng() - 0.5) * 6.0;
                } else {
                    m.swing = (rng() - 0.5) * 2.0;
                }
                m.pivot = p((rng() - 0.5) * 2.0, (rng() - 0.5) * 2.0);
            }
            // One in three moves by a track instead of the shorthand (turning if it turned).
            if rng() < 1.0 / 3.0 {
                m.track = Some(random_track(&mut rng, m.turns()));
                m = LevelMover {
                    path: Vec::new(),
                    period: 0.0,
                    mode: MoverMode::default(),
                    ease: MoverEase::default(),
                    spin: 0.0,
                    swing: 0.0,
                    ..m
                };
            }
            l.movers.push(m);
        }
        l.agents = (0..3)
            .map(|i| LevelAgent {
                kind: AgentKind::Patrol,
                size: sizes[i],
                spawn: p(-15.0 + 12.0 * i as f64, 0.0),
                facing: 1.0,
                character: None,
                patrol: None,
            })
            .collect();
        let room = tessera::collision::Aabb {
            min: p(-19.0, 0.5),
            max: p(14.0, 9.0),
        };
        let drawn = crate::random_triggers::add(&mut l, &mut rng, room);
        let on_movers = crate::random_triggers::spawn_on_movers(&mut l, &mut rng);
        l.validate()
            .unwrap_or_else(|e| panic!("scenario {scenario}: {e}"));
        let mut w = World::new(&l, &Tuning::default())
            .unwrap_or_else(|e| panic!("scenario {scenario}: {e}"));
        assert_eq!(
            w.penetrations(),
            Vec::<Option<usize>>::new(),
            "scenario {scenario}: inside at tick 0"
        );
        exercised.stopped += drawn.stopped;
        exercised.scheduled += drawn.scheduled;
        exercised.on_movers += on_movers;
        exercised.riding_at_0 += matches!(w.hero().state, MoveState::Riding { .. }) as usize;
        let mut running: Vec<bool> = w.mover_clocks().iter().map(|c| c.running()).collect();
        let mut doors: Vec<bool> = w.doors().iter().map(|d| d.open).collect();
        let mut a = idle();
        for tick in 0..600 {
            if tick % 20 == 0 {
                a = Actions {
                    move_axis: DVec2::new((rng() * 3.0).floor() - 1.0, 0.0),
                    jump: rng() < 0.3,
                    jump_pressed: rng() < 0.3,
                    crouch: rng() < 0.15,
                    attack_pressed: false,
                };
            }
            let who = |w: &World, i: Option<usize>| {
                let h = i.map_or(w.hero(), |i| &w.agents()[i].mover);
                let c = h.collider;
                (
                    h.body.pos,
                    h.state,
                    c,
                    h.vel,
                    w.collision().mesh(c).kind(h.body.face),
                    w.movers().inside(c.0 as usize, h.body.pos, None),
                )
            };
            let before: Vec<_> = std::iter::once(None)
                .chain((0..w.agents().len()).map(Some))
                .map(|i| who(&w, i))
                .collect();
            w.step(&a);
            let inside = w.penetrations();
            assert!(
                inside.is_empty(),
                "scenario {scenario}, tick {tick}: {:?} inside: now {:?}, before {:?}; {a:?}; \
                 world events {:?}; movers {:?}",
                inside,
                who(&w, inside[0]),
                before[inside[0].map_or(0, |i| i + 1)],
                w.events(),
                (0..w.movers().len() as u32)
                    .map(|m| (w.movers().prev_offset(m), w.movers().pose(m)))
                    .collect::<Vec<_>>(),
            );
            for (was, c) in running.iter_mut().zip(w.mover_clocks()) {
                exercised.clock_changes += (*was != c.running()) as usize;
                *was = c.running();
            }
            for (was, d) in doors.iter_mut().zip(w.doors()) {
                exercised.door_changes += (*was != d.open) as usize;
                *was = d.open;
            }
        }
    }
    // The triggers happened: a run of the default size that drew none of them tests nothing new.
    eprintln!("{scenarios} scenarios: {exercised:?}");
    if scenarios >= 24 {
        let e = exercised;
        assert!(
            e.stopped > 0
                && e.scheduled > 0
                && e.on_movers > 0
                && e.riding_at_0 > 0
                && e.clock_changes > 0
                && e.door_changes > 0,
            "{e:?}"
        );
    }
}

/// What the scenarios of `zero_penetration_among_random_movers` exercised.
#[derive(Clone, Copy, Debug, Default)]
struct Exercised {
    /// Movers that started stopped.
    stopped: usize,
    /// Doors on a schedule.
    scheduled: usize,
    /// Characters placed on a mover's top.
    on_movers: usize,
    /// Heroes riding at tick 0.
    riding_at_0: usize,
    /// Mover clocks started or stopped (by a signal, or at a stop's end).
    clock_changes: usize,
    /// Doors opened or closed by signals.
    door_changes: usize,
}

/// A random track: two to four keys within 6 m and 4 m of the rest pose (turned up to 0.5 rad
/// either way when `turns`), holds of up to 1 s on half of them, legs of 0.3 to 2 s or 1 to 8
/// m/s with every easing, any repeat (`once` stops and stays), a delay on some.
fn random_track(rng: &mut impl FnMut() -> f64, turns: bool) -> Track {
    let eases = [
        TrackEase::Linear,
        TrackEase::Smooth,
        TrackEase::In,
        TrackEase::Out,
    ];
    let count = 2 + (rng() * 3.0) as usize;
    let keys = (0..count)
        .map(|k| {
            let offset = if k == 0 {
                DVec2::ZERO
            } else {
                p((rng() - 0.5) * 12.0, (rng() - 0.5) * 8.0)
            };
            let angle = if turns { (rng() - 0.5) * 1.0 } else { 0.0 };
            let hold = if rng() < 0.5 { rng() } else { 0.0 };
            // By time mostly, and by a speed when the leg has a length (the next key is
            // random, so a speed is tried only for the legs that move).
            let by_speed = k > 0 && rng() < 0.3;
            TrackKey {
                offset,
                angle,
                hold,
                time: (!by_speed).then(|| 0.3 + rng() * 1.7),
                speed: by_speed.then(|| 1.0 + rng() * 7.0),
                ease: eases[(rng() * 4.0) as usize % 4],
            }
        })
        .collect();
    let repeat =
        [TrackRepeat::Once, TrackRepeat::PingPong, TrackRepeat::Loop][(rng() * 3.0) as usize % 3];
    let delay = if rng() < 0.3 { rng() } else { 0.0 };
    let mut t = Track {
        keys,
        repeat,
        delay,
    };
    // A leg by speed that would turn too fast for its length, or that goes nowhere: by time.
    for i in 0..t.keys.len() {
        if t.keys[i].speed.is_some() && tessera::level::track_problem(&t).is_some() {
            t.keys[i].speed = None;
            t.keys[i].time = Some(1.0);
        }
    }
    assert_eq!(tessera::level::track_problem(&t), None, "{t:?}");
    t
}

/// Goal 8: the same level and inputs give bit-identical states with movers.
#[test]
fn worlds_with_movers_are_deterministic() {
    let level = tessera::level::load_level(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/movers.ron"
    )))
    .unwrap();
    let run = || {
        let mut w = World::new(&level, &Tuning::default()).unwrap();
        let mut hashes = Vec::new();
        for k in 0..900 {
            let a = if k % 200 < 120 { right() } else { jump_right() };
            w.step(&a);
            hashes.push(w.state_hash());
        }
        hashes
    };
    assert_eq!(run(), run());
}

/// Goal 6 (seams): a full-speed run from a static floor onto a mover flush with it (at rest
/// here, so the seam alone is measured) and off its far end onto the static floor again: not
/// one airborne tick, the speed along the ground at the run speed on every tick, and the
/// distance covered short of the run speed's by less than a centimetre in all.
#[test]
fn a_full_speed_run_crosses_a_flush_mover_without_a_snag() {
    let t = Tuning::default();
    let mut l = level(
        vec![rect(-20.0, -1.0, 0.0, 0.0), rect(4.0, -1.0, 30.0, 0.0)],
        vec![],
        p(-15.0, 0.0),
    );
    l.movers = vec![mover(
        (0.0, -1.0, 4.0, 0.0),
        &[(0.0, 0.0), (0.0, 0.0)],
        1.0,
        MoverMode::PingPong,
        MoverEase::Linear,
    )];
    let mut w = World::new(&l, &t).unwrap();
    // Up to speed well before the seam.
    while w.hero().vel.x < t.run_speed {
        step(&mut w, &right());
    }
    let (x0, k0) = (w.hero().body.pos.x, w.frame());
    let mut rode = false;
    while w.hero().body.pos.x < 10.0 {
        step(&mut w, &right());
        let h = w.hero();
        let speed = match h.state {
            MoveState::Supported { speed, .. } => speed,
            MoveState::Riding { speed, .. } => {
                rode = true;
                speed
            }
            other => panic!("tick {}: {other:?} at {:?}", w.frame(), h.body.pos),
        };
        assert_eq!(speed, t.run_speed, "tick {}", w.frame());
    }
    assert!(rode, "the run went over the mover");
    let ticks = (w.frame() - k0) as f64;
    let short = x0 + ticks * t.run_speed / TICK_HZ as f64 - w.hero().body.pos.x;
    assert!((0.0..0.01).contains(&short), "{short} m short");
}

/// A patrolling agent on a moving platform over a pit walks back and forth on it, turning
/// before its ends, and never falls off.
#[test]
fn a_patrol_rides_a_platform_and_turns_at_its_ends() {
    let mut l = platform_level(
        &[(0.0, 0.0), (8.0, 3.0)],
        3.0,
        MoverMode::PingPong,
        MoverEase::Smooth,
    );
    l.spawn = p(-30.0, -59.0);
    l.agents = vec![LevelAgent {
        kind: AgentKind::Patrol,
        size: AgentSize::Small,
        spawn: p(0.0, 0.2),
        facing: 1.0,
        character: None,
        patrol: None,
    }];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let mut turns = 0;
    let mut facing = 1.0;
    for _ in 0..TICK_HZ * 20 {
        step(&mut w, &idle());
        let a = &w.agents()[0].mover;
        if w.frame() > 60 {
            assert!(
                matches!(a.state, MoveState::Riding { .. }),
                "tick {}: {:?} at {:?}",
                w.frame(),
                a.state,
                a.body.pos
            );
        }
        if a.facing != facing {
            turns += 1;
            facing = a.facing;
        }
    }
    assert!(turns >= 6, "{turns} turns in 20 s");
}

/// A one-way mover: `mover(..)` with `one_way` set.
fn one_way(m: LevelMover) -> LevelMover {
    LevelMover { one_way: true, ..m }
}

/// Whether the hero's feet are strictly inside mover 0's piece band `[bottom, top]` (the piece
/// inflated by the standing collider: from the piece's bottom less the hero's height to its
/// top), at the mover's offset this tick, with x over the piece (grown by half the hero).
fn in_band(w: &World, piece: (f64, f64, f64, f64)) -> bool {
    let o = w.movers().offset(0);
    let q = w.hero().body.pos - o;
    let (x0, y0, x1, y1) = piece;
    let half = 0.4;
    let height = 1.8;
    q.x > x0 - half && q.x < x1 + half && q.y > y0 - height && q.y < y1
}

/// A one-way platform overhead is jumped up through from the floor (the hero's feet pass inside
/// it: no bonk, no push) and landed on from above; down and jump then drops through it to the
/// floor. The exact no-penetration test holds every tick (a one-way mover is not solid).
#[test]
fn a_one_way_mover_is_jumped_through_landed_on_and_dropped_through() {
    let piece = (-3.0, 2.5, 3.0, 3.0);
    let l = with_movers(
        level(vec![rect(-40.0, -1.0, 40.0, 0.0)], vec![], p(0.0, 0.0)),
        vec![one_way(mover(
            piece,
            &[(0.0, 0.0), (0.5, 0.0)],
            4.0,
            MoverMode::PingPong,
            MoverEase::Smooth,
        ))],
    );
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    for _ in 0..10 {
        step(&mut w, &idle());
    }
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    };
    step(&mut w, &jump);
    let (mut passed, mut bonked) = (false, false);
    let mut held = jump;
    held.jump_pressed = false;
    while riding(&w).is_none() {
        step(&mut w, &held);
        passed |= in_band(&w, piece);
        bonked |= w.last_report().events.contains(&MoveEvent::Bonked);
        assert!(w.frame() < 240, "never landed on the one-way platform");
    }
    assert!(
        passed && !bonked,
        "went up through it: {passed}, bonked: {bonked}"
    );
    let top = 3.0 + w.movers().offset(0).y;
    assert!((w.hero().body.pos.y - top).abs() < 1e-9);
    // Down and jump: through it, to the floor, with a DroppedThrough event.
    let drop = Actions {
        move_axis: DVec2::new(0.0, -1.0),
        jump: true,
        jump_pressed: true,
        ..Default::default()
    };
    step(&mut w, &drop);
    assert!(w.last_report().events.contains(&MoveEvent::DroppedThrough));
    for _ in 0..120 {
        step(&mut w, &idle());
    }
    assert!(riding(&w).is_none());
    assert_eq!(w.hero().body.pos.y, 0.0, "on the floor under it");
}

/// A one-way mover sweeping sideways through a standing hero passes through it: no push, no
/// crush, the hero stays where it stands.
#[test]
fn a_one_way_mover_sweeping_through_a_standing_hero_never_pushes_it() {
    let l = with_movers(
        level(vec![rect(-40.0, -1.0, 40.0, 0.0)], vec![], p(0.0, 0.0)),
        vec![one_way(mover(
            (-8.0, 0.0, -6.0, 1.0),
            &[(0.0, 0.0), (14.0, 0.0)],
            2.0,
            MoverMode::PingPong,
            MoverEase::Linear,
        ))],
    );
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let start = w.hero().body.pos;
    for _ in 0..4 * TICK_HZ {
        step(&mut w, &idle());
        assert_eq!(w.hero().body.pos, start, "tick {}", w.frame());
        assert!(!w
            .events()
            .iter()
            .any(|e| matches!(e, WorldEvent::Crushed { .. })));
    }
}

/// Godot #9399: a one-way platform rising through where a character stands must pick it up,
/// not pass it by. The hero stands on a thin static pillar; a wide one-way lift rises from 3 m
/// below it to 3 m above at 6 m/s, so one tick its top overtakes the hero's feet (phase 1 moves
/// the lift, the hero is no rider yet). The world's lift rule puts the hero on the top, where it
/// rides to the top of the stroke, its feet never below the top after that. Without the rule the
/// lift passes up through the hero and leaves it on the pillar.
#[test]
fn a_one_way_lift_rising_through_a_standing_hero_picks_it_up() {
    let l = with_movers(
        level(
            vec![rect(-0.1, -20.0, 0.1, 0.0), rect(-40.0, -30.0, 40.0, -29.0)],
            vec![],
            p(0.0, 0.0),
        ),
        vec![one_way(mover(
            (-2.0, -3.5, 2.0, -3.0),
            &[(0.0, 0.0), (0.0, 6.0)],
            1.0,
            MoverMode::PingPong,
            MoverEase::Linear,
        ))],
    );
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let mut boarded = None;
    for _ in 0..TICK_HZ {
        step(&mut w, &idle());
        let top = -3.0 + w.movers().offset(0).y;
        if boarded.is_none() && riding(&w).is_some() {
            boarded = Some((w.frame(), top));
        }
        if boarded.is_some() {
            assert!(
                w.hero().body.pos.y >= top - 1e-9,
                "tick {}: feet {} below the top {top}",
                w.frame(),
                w.hero().body.pos.y
            );
        }
    }
    let (tick, top) = boarded.expect("the lift picked the hero up");
    assert!(
        (0.0..0.06).contains(&top),
        "boarded at tick {tick}, the top at {top}"
    );
    assert!(riding(&w).is_some(), "still riding at the stroke's end");
    assert!(
        w.hero().body.pos.y > 2.9,
        "carried up to {}",
        w.hero().body.pos.y
    );
}

/// What the one-way runs saw, summed over their scenarios.
#[derive(Default)]
struct OneWaySeen {
    /// Ticks the hero started riding the mover.
    landings: usize,
    /// Times the feet came up through the top from well under it.
    passes_up: usize,
    /// Drop-throughs.
    drops: usize,
}

impl std::fmt::Display for OneWaySeen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} boardings, {} passes up through, {} drop-throughs",
            self.landings, self.passes_up, self.drops
        )
    }
}

/// 600 ticks of the hero on `w` (one-way mover 0) with random inputs (a new run, jump and down
/// choice every 20 ticks), checked every tick over the mover's top, where `top_at(w, x)` gives
/// the top's height at `x` and whether `x` is over the part of it that is checked:
/// - no fall-through: feet on or above the top one tick and below it the next, with no
///   drop-through in the last 0.3 s;
/// - no snag: no bonk with the head within `bonk_below` m under the top (or 0.1 m over it);
/// - no penetration of static solids (`step`'s check).
///
/// `what` names the scenario in a failure.
fn one_way_run(
    w: &mut World,
    rng: &mut impl FnMut() -> f64,
    top_at: impl Fn(&World, f64) -> (f64, bool),
    bonk_below: f64,
    what: &str,
    seen: &mut OneWaySeen,
) {
    let mut a = idle();
    let mut since_drop = u32::MAX;
    // Last tick: whether the feet were over the top, and how far above it.
    let mut prev: Option<(bool, f64)> = None;
    // Feet last seen well under the top (so a later stand on it came up through it).
    let mut under = false;
    for tick in 0..600 {
        if tick % 20 == 0 {
            let down = rng() < 0.25;
            let jump = rng() < 0.4;
            a = Actions {
                move_axis: DVec2::new((rng() * 3.0).floor() - 1.0, if down { -1.0 } else { 0.0 }),
                jump,
                jump_pressed: jump,
                ..Default::default()
            };
        } else {
            a.jump_pressed = false;
        }
        let was_riding = riding(w).is_some();
        step(w, &a);
        let ev = &w.last_report().events;
        if ev.contains(&MoveEvent::DroppedThrough) {
            since_drop = 0;
            seen.drops += 1;
        } else {
            since_drop = since_drop.saturating_add(1);
        }
        let pos = w.hero().body.pos;
        let (top, over) = top_at(w, pos.x);
        let rel = pos.y - top;
        if let Some((was_over, prel)) = prev {
            if over && was_over && prel >= -1e-9 && rel < -1e-6 {
                assert!(
                    since_drop < 36,
                    "{what} tick {tick}: fell through it: feet {prel:e} then {rel:e} from its \
                     top, {:?}",
                    w.hero().state
                );
            }
            if under && prel <= 0.0 && rel > 0.0 && over {
                seen.passes_up += 1;
                under = false;
            }
        }
        under |= rel < -1.0;
        if over && ev.contains(&MoveEvent::Bonked) {
            let head = pos.y + 1.8;
            assert!(
                !(top - bonk_below..=top + 0.1).contains(&head),
                "{what} tick {tick}: bonked on its underside"
            );
        }
        if !was_riding && riding(w).is_some() {
            seen.landings += 1;
        }
        prev = Some((over, rel));
    }
}

/// Goal 5 (one-way movers), the CI-sized run: a 6 m one-way platform over a floor 2.5 m below its
/// rest pose, moving up or down along a random stroke (up to 6 m) at a random constant speed up
/// to 10 m/s, the hero starting above or under it with random inputs (runs, jumps, down and
/// jump). Every tick, over the platform's top (its middle 6 m, away from the chamfered corners):
/// - no fall-through: feet on or above the top one tick and below it the next, with no
///   drop-through in the last 0.3 s;
/// - no snag: no bonk on the platform's underside (jumping up through it is never stopped);
/// - no penetration of static solids (`World::penetrations`).
///
/// `TESSERA_SEED` varies it; `TESSERA_ONE_WAY_SCENARIOS` sets how many (40 by default;
/// BENCHMARKS.md records a 1 000-seed run).
#[test]
fn one_way_movers_never_let_a_character_fall_through_or_snag_it() {
    let value = std::env::var(SEED_VAR).ok();
    let seed = seed_from(value.as_deref(), 0x6f6e_6577_6179).unwrap();
    eprintln!("one-way seed: {SEED_VAR}={seed:#x}");
    let mut rng = unit_stream(seed);
    let scenarios: usize = std::env::var("TESSERA_ONE_WAY_SCENARIOS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let mut seen = OneWaySeen::default();
    for scenario in 0..scenarios {
        let stroke = (rng() - 0.5) * 12.0;
        let speed = 0.5 + rng() * 9.5;
        let l = with_movers(
            level(vec![rect(-12.0, -3.5, 12.0, -2.5)], vec![], p(0.0, 0.0)),
            vec![one_way(mover(
                (-3.0, -0.5, 3.0, 0.0),
                &[(0.0, 0.0), (0.0, stroke)],
                stroke.abs().max(0.1) / speed,
                MoverMode::PingPong,
                MoverEase::Linear,
            ))],
        );
        let mut l = l;
        l.spawn = if rng() < 0.5 {
            p((rng() - 0.5) * 4.0, 1.0 + rng() * 2.0)
        } else {
            p((rng() - 0.5) * 4.0, -2.5)
        };
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let what = format!(
            "scenario {scenario} (a one-way platform, stroke {stroke:.2} m at {speed:.2} m/s)"
        );
        // Its top is flat: the same height over its whole width.
        let top_at = |w: &World, x: f64| (w.movers().offset(0).y, x.abs() < 3.0);
        one_way_run(&mut w, &mut rng, top_at, 0.6, &what, &mut seen);
    }
    eprintln!("one-way: {scenarios} scenarios, {seen}");
    // The scenarios do what they are for (at the default count).
    if scenarios >= 40 {
        assert!(seen.landings > 0 && seen.passes_up > 0 && seen.drops > 0);
    }
}

/// Goal 5 with turning one-way movers, the CI-sized run: a 6 m one-way plank 2.5 m over a floor
/// rocks about its centre (a random swing of 0.05 to 0.35 rad, its ends up to 1 m up and down,
/// with a period of 1 to 4 s), on half the scenarios also going up or down along a random stroke
/// (up to 6 m, up to 6 m/s); the hero starts above or under it with random inputs. Every tick,
/// over the plank's top (the middle 5 m of its length, away from the chamfered corners), with the
/// top's height at the feet from the plank's pose:
/// - no fall-through: feet on or above the top one tick and below it the next, with no
///   drop-through in the last 0.3 s (a rising end lifts a character standing or falling just
///   above it, as a rising lift does);
/// - no snag: no bonk on the plank's underside;
/// - no penetration of static solids (`World::penetrations`).
///
/// `TESSERA_SEED` varies it; `TESSERA_ONE_WAY_SCENARIOS` sets how many (40 by default).
#[test]
fn rocking_one_way_planks_never_let_a_character_fall_through_or_snag_it() {
    let value = std::env::var(SEED_VAR).ok();
    let seed = seed_from(value.as_deref(), 0x726f_636b_696e).unwrap();
    eprintln!("rocking one-way seed: {SEED_VAR}={seed:#x}");
    let mut rng = unit_stream(seed);
    let scenarios: usize = std::env::var("TESSERA_ONE_WAY_SCENARIOS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let mut seen = OneWaySeen::default();
    for scenario in 0..scenarios {
        let swing = 0.05 + rng() * 0.3;
        let (stroke, period) = if rng() < 0.5 {
            (0.0, 1.0 + rng() * 3.0)
        } else {
            let stroke = (rng() - 0.5) * 12.0;
            (stroke, stroke.abs().max(0.5) / (0.5 + rng() * 5.5))
        };
        let mut m = one_way(mover(
            (-3.0, -0.5, 3.0, 0.0),
            &[(0.0, 0.0), (0.0, stroke)],
            period,
            MoverMode::PingPong,
            MoverEase::Linear,
        ));
        m.swing = swing;
        let mut l = with_movers(
            level(vec![rect(-12.0, -9.5, 12.0, -8.5)], vec![], p(0.0, 0.0)),
            vec![m],
        );
        l.spawn = if rng() < 0.5 {
            p((rng() - 0.5) * 4.0, 1.0 + rng() * 2.0)
        } else {
            p((rng() - 0.5) * 4.0, -2.5)
        };
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        // The top's height at world x, and whether x is over the plank's middle 5 m.
        let top_at = |w: &World, x: f64| {
            let pose = w.movers().pose(0);
            let (sin, cos) = pose.angle.sin_cos();
            let u = (x - pose.offset.x + 0.25 * sin) / cos;
            (pose.offset.y - 0.25 + u * sin + 0.25 * cos, u.abs() < 2.5)
        };
        let what = format!(
            "scenario {scenario} (a rocking one-way plank, swing {swing:.3} rad, stroke \
             {stroke:.2} m, period {period:.2} s)"
        );
        one_way_run(&mut w, &mut rng, top_at, 0.7, &what, &mut seen);
    }
    eprintln!("rocking one-way: {scenarios} scenarios, {seen}");
    if scenarios >= 40 {
        assert!(seen.landings > 0 && seen.passes_up > 0 && seen.drops > 0);
    }
}

/// Goal 4's wall jump: sliding down the side of a mover moving up or down at 3 m/s and jumping
/// off it keeps the wall's velocity, both components (clamped by the momentum caps, here well
/// above it): the velocity after the jump's tick is the static wall jump's plus the mover's, to
/// 1e-9. A wall of a mover is slid on as a static wall is.
#[test]
fn a_wall_jump_off_a_moving_wall_keeps_its_velocity() {
    for stroke in [6.0, -6.0] {
        let l = with_movers(
            level(vec![rect(-10.0, -1.0, 10.0, 0.0)], vec![], p(0.0, 0.0)),
            vec![mover(
                (2.0, -1.0, 3.0, 14.0),
                &[(0.0, 0.0), (0.0, stroke)],
                2.0,
                MoverMode::PingPong,
                MoverEase::Linear,
            )],
        );
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let t = Tuning::default();
        let dt = 1.0 / TICK_HZ as f64;
        let mut jumped = false;
        for tick in 0..240 {
            let sliding =
                matches!(w.hero().state, MoveState::WallSlide { normal_x } if normal_x < 0.0);
            let a = Actions {
                move_axis: DVec2::X,
                jump: tick == 0 || sliding,
                jump_pressed: tick == 0 || sliding,
                ..Default::default()
            };
            step(&mut w, &a);
            if sliding {
                assert!(
                    w.last_report().events.contains(&MoveEvent::WallJumped),
                    "{stroke}: no wall jump at tick {tick}"
                );
                let carried = w.movers().carried(0, w.hero().body.pos) / dt;
                assert!((carried.y - stroke / 2.0).abs() < 1e-9, "{carried}");
                let v = w.hero().vel;
                let want = DVec2::new(-t.wall_jump_speed_x, t.wall_jump_speed_y + carried.y)
                    - DVec2::new(0.0, t.gravity * dt);
                assert!(
                    (v - want).length() < 1e-9,
                    "{stroke}: velocity {v} after the wall jump, {want} wanted"
                );
                jumped = true;
                break;
            }
        }
        assert!(jumped, "{stroke}: never slid down the moving wall");
    }
}

/// A patrol range is in the frame of what the agent stands on: a crawler spawned on a 10 m
/// platform that travels 8 m to the right and back keeps to its range (-2, 2) measured on the
/// platform (its rest pose, where the editor draws the range), reaching both ends, while its
/// feet in the level cover the platform's whole travel. Read in level x, the range would pull
/// it off towards (-2, 2) whenever the platform is away.
#[test]
fn a_patrol_range_on_a_mover_rides_along_with_it() {
    let l = level(
        vec![rect(-40.0, -60.0, 40.0, -59.0)],
        vec![],
        p(-30.0, -59.0),
    );
    let mut l = with_movers(
        l,
        vec![mover(
            (-5.0, -0.5, 5.0, 0.0),
            &[(0.0, 0.0), (8.0, 0.0)],
            4.0,
            MoverMode::PingPong,
            MoverEase::Linear,
        )],
    );
    let mut crawler = crate::common::agent(AgentKind::Crawler, AgentSize::Small, 0.0, 0.0, 1.0);
    crawler.patrol = Some([-2.0, 2.0]);
    l.agents = vec![crawler];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut world_lo, mut world_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for tick in 0..120 * 20 {
        step(&mut w, &idle());
        let a = &w.agents()[0];
        let MoveState::Riding { local, .. } = a.mover.state else {
            assert!(
                tick < 60,
                "tick {tick}: off the platform: {:?}",
                a.mover.state
            );
            continue;
        };
        lo = lo.min(local.x);
        hi = hi.max(local.x);
        world_lo = world_lo.min(a.mover.body.pos.x);
        world_hi = world_hi.max(a.mover.body.pos.x);
    }
    let tick_travel = Tuning::default().run_speed / 120.0;
    assert!(
        lo >= -2.0 - tick_travel && hi <= 2.0 + tick_travel,
        "walked {lo}..{hi} on the platform, outside (-2, 2)"
    );
    assert!(lo < -1.8 && hi > 1.8, "walked only {lo}..{hi}");
    // Its feet in the level cover its range on the platform and (nearly all of) the
    // platform's 8 m of travel. (Which level x the range's left end meets depends on where the
    // platform is when the crawler gets there: spawned riding, it starts walking at once.)
    assert!(
        world_hi - world_lo > (hi - lo) + 6.0 && world_hi > 6.0,
        "its feet in the level: {world_lo}..{world_hi}"
    );
}

/// A plank 6 m long and 0.4 m thick over open space, turning about its centre (0, 0): swinging
/// `swing` rad with period `period` s, or spinning at `spin` rad/s; the hero dropped onto it at
/// x = `x`.
fn plank_level(swing: f64, spin: f64, period: f64, x: f64) -> Level {
    let l = level(vec![rect(-40.0, -60.0, 40.0, -59.0)], vec![], p(x, 1.0));
    let mut m = mover(
        (-3.0, -0.2, 3.0, 0.2),
        &[(0.0, 0.0), (0.0, 0.0)],
        period,
        MoverMode::PingPong,
        MoverEase::Linear,
    );
    m.swing = swing;
    m.spin = spin;
    with_movers(l, vec![m])
}

/// The hero's feet in the turning mover 0's own frame (its rest pose): the world point taken
/// back through the mover's pose.
fn in_mover_frame(w: &World) -> DVec2 {
    let pose = w.movers().pose(0);
    let pivot = w.movers().pivot(0).unwrap();
    let d = w.hero().body.pos - pose.offset - pivot;
    let (s, c) = (-pose.angle).sin_cos();
    pivot + DVec2::new(c * d.x - s * d.y, s * d.x + c * d.y)
}

/// Goal 2 (exact riding) on a turning platform: a seesaw swinging ±0.32 rad once a second (2 rad/s
/// at its fastest, its ends moving at up to 6 m/s) carries an idle rider 1.5 m from its centre
/// for ten minutes of ticks without one airborne tick; each time the plank is level again, the
/// rider's feet are where they were in the plank's frame, to 1e-9 m.
#[test]
fn an_idle_rider_of_a_swinging_plank_keeps_its_place_for_ten_minutes() {
    let period = 1.0;
    let swing = 2.0 / std::f64::consts::TAU;
    let mut w = World::new(&plank_level(swing, 0.0, period, 1.5), &Tuning::default()).unwrap();
    while riding(&w).is_none_or(|(_, speed)| speed != 0.0) {
        step(&mut w, &idle());
        assert!(w.frame() < 480, "landed on the plank and stopped");
    }
    // On to the next level pose (every whole period).
    let ticks = (period * TICK_HZ as f64) as u64;
    while !w.frame().is_multiple_of(ticks) {
        step(&mut w, &idle());
        assert!(riding(&w).is_some());
    }
    let start = in_mover_frame(&w);
    let mut worst: f64 = 0.0;
    let mut tilt: f64 = 0.0;
    for _ in 0..10 * 60 * TICK_HZ {
        step(&mut w, &idle());
        assert!(riding(&w).is_some(), "airborne on tick {}", w.frame());
        tilt = tilt.max(w.movers().pose(0).angle.abs());
        if w.frame().is_multiple_of(ticks) {
            worst = worst.max((in_mover_frame(&w) - start).length());
        }
    }
    assert!(tilt > 0.3, "it swung: {tilt}");
    assert!(worst <= 1e-9, "drift in the plank's frame: {worst}");
    assert!(
        (start.x - 1.5).abs() < 0.5,
        "the rider landed near where it was dropped: {start}"
    );
}

/// A plank tilting past the walkable angle throws its rider off: a windmill arm spinning at
/// 3 rad/s carries the hero up, then lets it fall; the hero is never inside the arm (`step`'s
/// exact check every tick) and is never crushed (there is nothing to crush it against).
#[test]
fn a_spinning_arm_carries_its_rider_then_throws_it_off_without_overlap() {
    let mut w = World::new(&plank_level(0.0, 3.0, 1.0, 1.5), &Tuning::default()).unwrap();
    let mut rode = 0;
    let mut fell_after_riding = false;
    for _ in 0..240 {
        step(&mut w, &idle());
        if riding(&w).is_some() {
            rode += 1;
        } else if rode > 0 {
            fell_after_riding = true;
        }
        assert!(!w
            .events()
            .iter()
            .any(|e| matches!(e, WorldEvent::Crushed { .. })));
    }
    assert!(rode > 0, "it landed on the arm");
    assert!(fell_after_riding, "the arm threw it off");
}

/// A spinning arm sweeping through a hero standing on the ground never overlaps it (exact
/// check every tick): where the arm comes down on its head, the hero ducks under it (the
/// squish rule's crouch); where the arm's tip sweeps along the ground, it is pushed along the
/// arm's motion there. With room to go, it is never crushed.
#[test]
fn a_spinning_arm_sweeps_a_standing_hero_aside() {
    for (spawn, pivot_y) in [(2.0, 3.5), (0.0, 3.6)] {
        // The arm turns clockwise about (0, pivot_y), 6 m long.
        let l = level(vec![rect(-20.0, -1.0, 20.0, 0.0)], vec![], p(spawn, 0.0));
        let mut m = mover(
            (-3.0, pivot_y - 0.15, 3.0, pivot_y + 0.15),
            &[(0.0, 0.0), (0.0, 0.0)],
            1.0,
            MoverMode::PingPong,
            MoverEase::Linear,
        );
        m.spin = -2.0;
        let mut w = World::new(&with_movers(l, vec![m]), &Tuning::default()).unwrap();
        let stand = w.hero().collider;
        let (mut pushed, mut ducked) = (false, false);
        for _ in 0..480 {
            step(&mut w, &idle());
            pushed |= (w.hero().body.pos.x - spawn).abs() > 0.05;
            ducked |= w.hero().collider != stand;
            assert!(!w
                .events()
                .iter()
                .any(|e| matches!(e, WorldEvent::Crushed { .. })));
        }
        if spawn == 0.0 {
            assert!(pushed, "the tip pushed the hero along");
        } else {
            assert!(ducked, "the arm coming down made the hero duck");
        }
    }
}

/// Goal 4 (momentum) on a turning platform: a jump off a swinging plank keeps the plank's
/// velocity at the feet (the displacement of the plank's point there over the tick), not the
/// centre's (which is still): to 1e-9 on the jump's tick, as a lift's.
#[test]
fn a_jump_off_a_swinging_plank_keeps_the_velocity_at_its_feet() {
    let t = Tuning::default();
    let l = plank_level(0.3, 0.0, 2.0, 2.0);
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    };
    let jump_speed = (2.0 * t.gravity * t.jump_height).sqrt();
    let after_tick = |v0: f64| v0 - t.gravity / TICK_HZ as f64;
    let mut checked = 0;
    for jump_tick in [150u64, 200, 250, 300] {
        let run = |last: &Actions| {
            let mut w = World::new(&l, &t).unwrap();
            while w.frame() + 1 < jump_tick {
                step(&mut w, &idle());
            }
            assert!(riding(&w).is_some(), "riding before tick {jump_tick}");
            w.step(last);
            w
        };
        // Where the carry put the feet on the jump's tick: the same world stepped idle.
        let still = run(&idle());
        let kept = still.movers().displacement(0, still.hero().body.pos) * TICK_HZ as f64;
        let w = run(&jump);
        let v = w.hero().vel;
        assert!(
            (v.y - after_tick(jump_speed + kept.y)).abs() < 1e-9,
            "tick {jump_tick}: {v:?}, kept {kept:?}, expected y {}",
            after_tick(jump_speed + kept.y)
        );
        if kept.y.abs() > 0.5 {
            checked += 1;
        }
    }
    assert!(checked >= 2, "the plank moved the feet on most ticks tried");
}

/// Goal 4 (momentum) on a turning lift: a plank rocking ±0.1 rad as it goes straight up 4 m in 1 s
/// and down again (±4 m/s, reversing at once at t = 1 s). A jump off it keeps the lift's 4 m/s
/// from before the reversal for 0.1 s after it, then the new −4 m/s, as a lift that does not turn;
/// plus, always, the rocking's velocity at the feet on the jump's tick (no grace for the turn:
/// a swing reverses gradually), to 1e-9.
#[test]
fn a_jump_off_a_rocking_lift_keeps_its_velocity_with_a_grace_after_it_reverses() {
    let t = Tuning::default();
    let l = level(vec![rect(-40.0, -60.0, 40.0, -59.0)], vec![], p(1.5, 1.0));
    let mut m = mover(
        (-3.0, -0.2, 3.0, 0.2),
        &[(0.0, 0.0), (0.0, 4.0)],
        1.0,
        MoverMode::PingPong,
        MoverEase::Linear,
    );
    m.swing = 0.1;
    let l = with_movers(l, vec![m]);
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    };
    let jump_speed = (2.0 * t.gravity * t.jump_height).sqrt();
    let after_tick = |v0: f64| v0 - t.gravity / TICK_HZ as f64;
    let hz = TICK_HZ as f64;
    let mut turned = 0;
    // (the tick the jump is pressed on, the lift's vertical velocity the jump keeps)
    for (jump_tick, lift) in [
        (60u64, 4.0),
        (120, 4.0),
        (121 + 5, 4.0),
        (121 + 11, 4.0),
        (121 + 13, -4.0),
        (160, -4.0),
    ] {
        let run = |last: &Actions| {
            let mut w = World::new(&l, &t).unwrap();
            while w.frame() + 1 < jump_tick {
                step(&mut w, &idle());
            }
            assert!(riding(&w).is_some(), "riding before tick {jump_tick}");
            w.step(last);
            w
        };
        // The rocking's part at the feet on the jump's tick: the same world stepped idle, the
        // point's displacement less the lift's own this tick.
        let still = run(&idle());
        let mv = still.movers();
        let own = mv.offset(0) - mv.prev_offset(0);
        let turn = (mv.displacement(0, still.hero().body.pos) - own) * hz;
        let v = run(&jump).hero().vel;
        let want = after_tick(jump_speed + lift + turn.y);
        assert!(
            (v.y - want).abs() < 1e-9,
            "tick {jump_tick}: {v:?}, expected y {want} (lift {lift}, turn {turn:?})"
        );
        if turn.y.abs() > 0.05 {
            turned += 1;
        }
    }
    assert!(
        turned >= 3,
        "the rocking moved the feet on most ticks tried"
    );
}

/// Goal 8 with turning movers: the same level and inputs give bit-identical states
/// (`levels/test/turning.ron`: a seesaw and a windmill arm; `levels/test/turning_one_way.ron`: a
/// rocking one-way plank), with no character ever inside anything on the way.
#[test]
fn worlds_with_turning_movers_are_deterministic() {
    for name in ["turning", "turning_one_way"] {
        let l = tessera::level::load_level(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("levels/test/{name}.ron")),
        )
        .unwrap();
        let run = || {
            let mut w = World::new(&l, &Tuning::default()).unwrap();
            (0..1200)
                .map(|k| {
                    step(&mut w, &if k % 100 < 60 { right() } else { jump_right() });
                    w.state_hash()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run(), "{name}");
    }
}
