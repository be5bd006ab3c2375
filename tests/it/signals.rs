//! Signals (`level::signal`, `sim::signals`): the cases `levels/test/signals.ron` writes, stepped
//! by the world and checked at chosen ticks: a door on a schedule (closes at 1 s, opens again at
//! 2.5 s), a platform that starts when the hero stands on it (`stood_on`: what the hero rides), a
//! lift that starts when the hero passes a point, a door that opens when a mover stops at its
//! end. Poses to 1e-9 of hand-computed values; no character is ever inside anything.
use glam::DVec2;
use tessera::level::{load_level, Level};
use tessera::movement::{Actions, Tuning};
use tessera::sim::World;

fn level() -> Level {
    load_level(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/signals.ron"
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn near(a: DVec2, b: DVec2) -> bool {
    (a - b).length() <= 1e-9
}

/// Steps the world to `tick` ticks, checking that nothing is inside anything.
fn run_to(w: &mut World, tick: u64) {
    while w.frame() < tick {
        w.step(&Actions::default());
        assert!(w.penetrations().is_empty(), "tick {}", w.frame());
    }
}

#[test]
fn a_scheduled_door_closes_at_its_time_and_opens_again() {
    let mut w = World::new(&level(), &Tuning::default()).unwrap();
    let open = |w: &World| w.doors()[0].open;
    assert!(open(&w));
    // The timers count the signals' ticks from 0: `at: 1.0` fires in tick 120.
    run_to(&mut w, 120);
    assert!(open(&w));
    run_to(&mut w, 121);
    assert!(!open(&w), "closed by `shut` in tick 120");
    run_to(&mut w, 300);
    assert!(!open(&w));
    run_to(&mut w, 301);
    assert!(open(&w), "opened by `reopen` in tick 300");
    assert_eq!(
        w.trace_frame().signals,
        [3],
        "the trace names the signal that fired"
    );
    run_to(&mut w, 302);
    assert!(w.trace_frame().signals.is_empty());
}

#[test]
fn a_platform_starts_when_stood_on_and_a_lift_when_the_hero_passes_a_point() {
    let level = level();
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    assert!(w.hero().grounded(), "the hero starts on the platform");
    let x0 = w.hero().body.pos.x;
    // Tick 0: the hero rides mover 0 from its spawn (`aboard`, a `stood_on` source, fires); the
    // platform's clock starts after the tick, so it moves from tick 1 on: after n ticks it is at (n − 1) / 240 of its 8 m.
    for n in [1, 2, 61, 200, 241] {
        run_to(&mut w, n);
        let want = DVec2::new(8.0 * (n - 1) as f64 / 240.0, 0.0);
        assert!(
            near(w.movers().pose(0).offset, want),
            "mover 0 after {n} ticks: {:?}, want {want}",
            w.movers().pose(0).offset
        );
    }
    // The hero rode it, keeping its place.
    assert!((w.hero().body.pos.x - (x0 + 8.0)).abs() <= 1e-9);
    // Its clock stopped at the track's end in tick 240 (`docked` opened door 1 then), and stays.
    assert_eq!(
        (w.mover_clocks()[0].ticks(), w.mover_clocks()[0].running()),
        (240, false)
    );
    assert!(w.doors()[1].open);
    run_to(&mut w, 400);
    assert!(near(w.movers().pose(0).offset, DVec2::new(8.0, 0.0)));

    // The lift: still until the tick after the hero's feet first were at x ≥ 7.5 (`arrive`),
    // then up at 2 m/s.
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let mut arrived = None;
    while arrived.is_none() {
        w.step(&Actions::default());
        assert!(near(w.movers().pose(1).offset, DVec2::ZERO));
        if w.hero().body.pos.x >= 7.5 {
            arrived = Some(w.frame() - 1);
        }
    }
    let arrived = arrived.unwrap();
    assert!(w.trace_frame().signals.contains(&1));
    for k in [1u64, 60, 120, 180] {
        run_to(&mut w, arrived + 1 + k);
        let t = k as f64 / 120.0;
        let y = if t <= 1.0 { 2.0 * t } else { 2.0 * (2.0 - t) };
        assert!(
            near(w.movers().pose(1).offset, DVec2::new(0.0, y)),
            "mover 1 {k} ticks after it started: {:?}, want y {y}",
            w.movers().pose(1).offset
        );
    }
}

/// Two worlds of a level with signals agree tick by tick.
#[test]
fn signals_are_deterministic() {
    let level = level();
    let mut a = World::new(&level, &Tuning::default()).unwrap();
    let mut b = World::new(&level, &Tuning::default()).unwrap();
    for _ in 0..400 {
        a.step(&Actions::default());
        b.step(&Actions::default());
        assert_eq!(a.state_hash(), b.state_hash());
    }
}

/// `levels/test/defeated.ron`: a door that opens when an enemy is defeated (`defeated(0)`) and
/// one when the last enemy is (`defeated_all`), each the tick after the stomp (the rules of play
/// run after the signals); with `reset_on_death`, a death puts the crawler back undefeated and
/// the doors closed, and a second stomp opens them again.
#[test]
fn a_door_opens_the_tick_after_an_enemy_is_stomped_and_again_after_a_reset() {
    use tessera::sim::PlayEvent;
    let level = load_level(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/defeated.ron"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let doors = |w: &World| [w.doors()[0].open, w.doors()[1].open];
    let stomp = |w: &mut World| -> u64 {
        loop {
            w.step(&Actions::default());
            assert!(w.penetrations().is_empty(), "tick {}", w.frame());
            assert!(w.frame() < 600, "no stomp");
            if w.play_events().contains(&PlayEvent::Stomped {
                agent: 0,
                defeated: true,
            }) {
                return w.frame() - 1;
            }
        }
    };
    let t = stomp(&mut w);
    assert!(w.agents()[0].defeated);
    assert_eq!(doors(&w), [false, false], "tick {t}: the stomp's own tick");
    w.step(&Actions::default());
    assert_eq!(doors(&w), [true, true], "tick {}", t + 1);
    assert_eq!(w.trace_frame().signals, [0, 1]);
    // Fired once: the doors stay open and the signals quiet.
    run_to(&mut w, t + 60);
    assert_eq!(doors(&w), [true, true]);
    assert!(w.trace_frame().signals.is_empty());

    // Right, through both doors and into the pit beyond x = 20: a death, a respawn.
    let right = Actions {
        move_axis: DVec2::new(1.0, 0.0),
        ..Actions::default()
    };
    while !w.play_events().contains(&PlayEvent::Respawned) {
        w.step(&right);
        assert!(w.penetrations().is_empty(), "tick {}", w.frame());
        assert!(w.frame() < 3000, "no respawn");
    }
    assert!(!w.agents()[0].defeated, "reset_on_death brings it back");
    assert_eq!(doors(&w), [false, false], "and closes the doors");
    let again = stomp(&mut w);
    w.step(&Actions::default());
    assert_eq!(doors(&w), [true, true], "tick {}", again + 1);
}

/// `levels/test/hazard_signals.ron`: a spike bed under the hero that starts off and that a
/// timer toggles every 0.5 s harms the hero (puts it back on its safe ground, the first touch
/// costing health) in exactly the ticks it is on; the trace names it on the ticks it changes;
/// a snapshot taken while it is off and restored while it is on puts it back off.
#[test]
fn a_scheduled_hazard_harms_only_while_it_is_on() {
    use tessera::sim::PlayEvent;
    let level = load_level(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/hazard_signals.ron"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let on = |w: &World| w.hazard_states().find(|&(p, _)| p == 1).unwrap().1;
    assert!(!on(&w));
    let mut hurts = Vec::new();
    let mut snap = None;
    for t in 0..280u64 {
        if t == 100 {
            snap = Some(w.snapshot());
        }
        w.step(&Actions::default());
        assert!(w.penetrations().is_empty(), "tick {t}");
        let want_on = (60..120).contains(&t) || (180..240).contains(&t);
        assert_eq!(on(&w), want_on, "tick {t}");
        let returned = w
            .play_events()
            .iter()
            .any(|e| matches!(e, PlayEvent::Returned { .. }));
        assert_eq!(returned, want_on, "tick {t}: harmed only while on");
        if w.play_events()
            .iter()
            .any(|e| matches!(e, PlayEvent::Hurt { .. }))
        {
            hurts.push(t);
        }
        let changed = match t {
            60 | 180 => vec![(1, true)],
            120 | 240 => vec![(1, false)],
            _ => vec![],
        };
        assert_eq!(w.trace_frame().hazards, changed, "tick {t}");
    }
    // The first touch costs health; the second comes after the second's invulnerability (1 s).
    assert_eq!(hurts, [60, 180]);
    assert_eq!(w.play().health, 1);
    // Back to tick 100 (on), then to 120 (off) as before.
    let mut back = World::new(&level, &Tuning::default()).unwrap();
    back.restore(snap.as_ref().unwrap());
    assert!(on(&back));
    run_to(&mut back, 121);
    assert!(!on(&back));

    // The same level with its hazards never switched: on from the first tick, as before
    // hazards could be switched.
    let mut plain = level.clone();
    plain.signals.clear();
    for p in &mut plain.polygons {
        p.off = false;
        p.toggle_on.clear();
    }
    let mut w = World::new(&plain, &Tuning::default()).unwrap();
    w.step(&Actions::default());
    assert!(on(&w));
    assert!(w
        .play_events()
        .iter()
        .any(|e| matches!(e, PlayEvent::Hurt { .. })));
}

/// With `reset_on_death`, a respawn puts a hazard back as the level starts it (the doors' rule):
/// off, named in the trace on the respawn's tick; `level_start` fires again in the next tick and
/// turns it on.
#[test]
fn a_reset_on_death_puts_a_hazard_back_as_the_level_starts_it() {
    use tessera::sim::PlayEvent;
    let mut level = load_level(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/hazard_signals.ron"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    // The bed turned on at the start; the hero spawns over the pit beyond the floor's end.
    level.signals[0].source = tessera::level::SignalSource::LevelStart;
    level.reset_on_death = true;
    level.spawn = DVec2::new(12.0, 2.0);
    level.bounds = Some(tessera::collision::Aabb {
        min: DVec2::new(-12.0, -4.0),
        max: DVec2::new(14.0, 8.0),
    });
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let on = |w: &World| w.hazard_states().find(|&(p, _)| p == 1).unwrap().1;
    w.step(&Actions::default());
    assert!(on(&w), "turned on by level_start in tick 0");
    assert_eq!(w.trace_frame().hazards, [(1, true)]);
    while !w.play_events().contains(&PlayEvent::Respawned) {
        w.step(&Actions::default());
        assert!(on(&w) || w.play_events().contains(&PlayEvent::Respawned));
        assert!(w.frame() < 2000, "no respawn");
    }
    assert!(!on(&w), "back off, as the level starts it");
    assert_eq!(w.trace_frame().hazards, [(1, false)]);
    w.step(&Actions::default());
    assert!(on(&w), "level_start fired again");
}
