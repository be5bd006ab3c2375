//! The objects people expect (`level::objects`): the cases `levels/test/objects.ron` writes,
//! stepped by the world and checked at chosen ticks against hand-computed poses to 1e-9: a
//! falling platform that shakes then falls after it is stood on and comes back after its delay
//! (and goes again when stood on anew), a crumbling block gone a moment after it is stepped on
//! and back later, a zip mover that runs to its end when touched and comes back slowly, a crusher
//! that drops when the hero passes under it, holds and rises, a timed door on its schedule. No
//! character is ever inside anything.
use glam::DVec2;
use tessera::level::{load_level, Level};
use tessera::movement::{Actions, Tuning};
use tessera::sim::World;

fn level() -> Level {
    load_level(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/test/objects.ron"
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The level with the hero spawned at `spawn`.
fn world_at(spawn: DVec2) -> World {
    let level = Level { spawn, ..level() };
    World::new(&level, &Tuning::default()).unwrap()
}

/// Steps the world with `actions` to `tick` ticks, checking that nothing is inside anything.
fn run_to(w: &mut World, tick: u64, actions: &Actions) {
    while w.frame() < tick {
        w.step(actions);
        assert!(w.penetrations().is_empty(), "tick {}", w.frame());
    }
}

/// Asserts mover `m`'s offset after `tick` ticks.
fn assert_offset(w: &mut World, m: u32, tick: u64, want: DVec2) {
    run_to(w, tick, &Actions::default());
    let got = w.movers().pose(m).offset;
    assert!(
        (got - want).length() <= 1e-9,
        "mover {m} after {tick} ticks: {got:?}, want {want:?}"
    );
}

fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

#[test]
fn the_objects_expand_after_the_levels_own_parts() {
    let level = level();
    let played = level.played();
    assert_eq!(played.movers.len(), 3);
    assert_eq!(played.doors.len(), 2);
    assert!(played.objects.is_empty());
    assert_eq!(played.signals[0].name, "crumbling block 0: stepped");
    // The world plays the expanded level; its document is the level as written.
    let w = World::new(&level, &Tuning::default()).unwrap();
    assert_eq!(w.movers().len(), 3);
    assert_eq!(*w.document().read(), level);
}

#[test]
fn a_falling_platform_shakes_then_falls_when_stood_on_and_comes_back_after_its_delay() {
    let mut w = world_at(p(0.0, 2.5));
    assert!(w.hero().grounded());
    // Stood on in tick 0: its clock runs from tick 1, so after n ticks it is at n − 1 ticks.
    // The shake: eight legs of 0.05 s (6 ticks) side to side, 0.03 m each way.
    assert_offset(&mut w, 2, 1, p(0.0, 0.0));
    assert_offset(&mut w, 2, 4, p(0.015, 0.0));
    assert_offset(&mut w, 2, 7, p(0.03, 0.0));
    assert_offset(&mut w, 2, 19, p(-0.03, 0.0));
    // 0.4 s in (clock 48) the fall begins: 1.5 m in 0.5 s easing in (f²).
    assert_offset(&mut w, 2, 49, p(0.0, 0.0));
    assert_offset(&mut w, 2, 79, p(0.0, -1.5 * 0.25));
    assert_offset(&mut w, 2, 109, p(0.0, -1.5));
    // Waits 1 s at the bottom (to clock 228), the hero riding it.
    assert_offset(&mut w, 2, 200, p(0.0, -1.5));
    assert!(w.hero().grounded());
    assert!((w.hero().body.pos.y - 1.0).abs() <= 1e-9);
    // Rises back in 1 s, smoothly: half way at clock 288.
    assert_offset(&mut w, 2, 289, p(0.0, -0.75));
    // Home at clock 348 (2.9 s), where it stops until it is stood on again.
    assert_offset(&mut w, 2, 349, p(0.0, 0.0));
    let c = w.mover_clocks()[2];
    assert_eq!((c.ticks(), c.running()), (348, false));
    assert_offset(&mut w, 2, 400, p(0.0, 0.0));
    // The hero still stands on it: no new step on, no new fall.
    assert!(!w.mover_clocks()[2].running());

    // A jump and a landing set it off again.
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..Actions::default()
    };
    run_to(&mut w, 401, &jump);
    let mut landed = None;
    while landed.is_none() && w.frame() < 700 {
        let next = w.frame() + 1;
        run_to(&mut w, next, &Actions::default());
        if w.mover_clocks()[2].running() {
            landed = Some(w.frame());
        }
    }
    assert!(landed.is_some(), "the platform did not go again");
    assert!(w.hero().grounded());
}

#[test]
fn a_crumbling_block_is_gone_a_moment_after_it_is_stepped_on_and_back_later() {
    let mut w = world_at(p(-19.5, 3.5));
    assert!(w.hero().grounded());
    let shut = |w: &World| !w.doors()[0].open;
    // Stepped on in tick 0; gone 0.5 s later (tick 60).
    run_to(&mut w, 60, &Actions::default());
    assert!(shut(&w));
    assert!((w.hero().body.pos.y - 3.5).abs() <= 1e-9);
    run_to(&mut w, 61, &Actions::default());
    assert!(!shut(&w), "crumbled in tick 60");
    run_to(&mut w, 200, &Actions::default());
    assert!(
        w.hero().grounded() && w.hero().body.pos.y.abs() <= 1e-9,
        "fell to the floor"
    );
    // Back 3 s after it crumbled (tick 420), over the hero's head.
    run_to(&mut w, 420, &Actions::default());
    assert!(!shut(&w));
    run_to(&mut w, 421, &Actions::default());
    assert!(shut(&w), "back in tick 420");
    // Nobody on it: it stays.
    run_to(&mut w, 900, &Actions::default());
    assert!(shut(&w));
}

#[test]
fn a_zip_mover_runs_to_its_end_when_touched_and_comes_back_slowly() {
    let mut w = world_at(p(21.0, 2.5));
    // Touched in tick 0: 6 m right in 0.5 s easing in (f²), 0.5 s at the end, 3 s back.
    assert_offset(&mut w, 0, 1, p(0.0, 0.0));
    assert_offset(&mut w, 0, 31, p(6.0 * 0.25, 0.0));
    assert_offset(&mut w, 0, 61, p(6.0, 0.0));
    assert_offset(&mut w, 0, 121, p(6.0, 0.0));
    assert_offset(&mut w, 0, 301, p(3.0, 0.0));
    assert_offset(&mut w, 0, 481, p(0.0, 0.0));
    let c = w.mover_clocks()[0];
    assert_eq!((c.ticks(), c.running()), (480, false));
    // The hero rode it there and back.
    assert!((w.hero().body.pos.x - 21.0).abs() <= 1e-9);
    assert_offset(&mut w, 0, 600, p(0.0, 0.0));
}

#[test]
fn a_crusher_drops_when_the_hero_passes_under_it_holds_and_rises() {
    let mut w = world_at(p(37.0, 0.0));
    let right = Actions {
        move_axis: DVec2::X,
        ..Actions::default()
    };
    // Still until the tick the hero's feet first are under it (x ≥ 40).
    let mut under = None;
    while under.is_none() {
        let next = w.frame() + 1;
        run_to(&mut w, next, &right);
        assert!(w.movers().pose(1).offset.length() <= 1e-9);
        if w.hero().body.pos.x >= 40.0 {
            under = Some(w.frame() - 1);
        }
        assert!(w.frame() < 240, "the hero never came under it");
    }
    let t = under.unwrap();
    let y = |k: u64| {
        let s = k as f64 / 120.0;
        if s <= 0.25 {
            -2.5 * (s / 0.25).powi(2)
        } else if s <= 1.25 {
            -2.5
        } else {
            let f = (s - 1.25) / 2.0;
            -2.5 + 2.5 * f * f * (3.0 - 2.0 * f)
        }
    };
    for k in [15u64, 30, 100, 150, 270, 389] {
        assert_offset(&mut w, 1, t + 1 + k, p(0.0, y(k)));
    }
    // Home 3.25 s after it dropped, and stopped there.
    assert_offset(&mut w, 1, t + 1 + 390, p(0.0, 0.0));
    assert!(!w.mover_clocks()[1].running());
}

#[test]
fn a_timed_door_keeps_its_schedule() {
    let mut w = world_at(p(0.0, 2.5));
    let open = |w: &World| w.doors()[1].open;
    // Closed 1 s, then open 0.5 s (60 ticks), every 1.5 s: opens in ticks 120, 300, 480, closes
    // in ticks 180, 360, 540.
    for (tick, want) in [
        (120, false),
        (121, true),
        (180, true),
        (181, false),
        (300, false),
        (301, true),
        (361, false),
        (481, true),
        (541, false),
    ] {
        run_to(&mut w, tick, &Actions::default());
        assert_eq!(open(&w), want, "door open after {tick} ticks");
    }
}

/// Two worlds of the level agree tick by tick, and the hash of a level without objects is as it
/// was (the objects' parts come after the level's own).
#[test]
fn objects_are_deterministic() {
    let mut a = world_at(p(0.0, 2.5));
    let mut b = world_at(p(0.0, 2.5));
    for _ in 0..600 {
        a.step(&Actions::default());
        b.step(&Actions::default());
        assert_eq!(a.state_hash(), b.state_hash());
    }
}
