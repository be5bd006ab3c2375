//! Live level swaps (`World::set_level`, what the editor calls after every edit): the base tuning
//! with the new level's overrides, the hero kept where it fits, moved to the nearest free point
//! (with a warning) where it does not, and new bounds honoured.

use crate::common::*;
use tessera::collision::Aabb;
use tessera::level::Level;
use tessera::movement::{Tuning, TuningOverrides};
use tessera::sim::World;

fn floor() -> Level {
    level(vec![rect(-20.0, -1.0, 20.0, 0.0)], vec![], p(0.0, 0.0))
}

fn run_right(w: &mut World, ticks: usize) {
    for a in hold(mv(1.0, 0.0), ticks) {
        w.step(&a);
    }
}

#[test]
fn an_override_added_then_removed_is_gone() {
    let base = Tuning::default();
    let mut w = World::new(&floor(), &base).unwrap();
    assert_eq!(w.tuning().run_speed, base.run_speed);

    let mut slow = floor();
    slow.tuning = TuningOverrides {
        run_speed: Some(2.0),
        ..TuningOverrides::default()
    };
    w.set_level(&slow).unwrap();
    assert_eq!(w.tuning().run_speed, 2.0);
    assert_eq!(w.base_tuning(), &base);
    run_right(&mut w, 120);
    assert!((w.hero().vel.x - 2.0).abs() < 1e-9, "{:?}", w.hero().vel);

    // The editor removes the override: the base tuning is back, not the old level's.
    w.set_level(&floor()).unwrap();
    assert_eq!(w.tuning(), &base);
    run_right(&mut w, 120);
    assert!(
        (w.hero().vel.x - base.run_speed).abs() < 1e-9,
        "{:?}",
        w.hero().vel
    );
}

#[test]
fn the_hero_keeps_its_place_and_motion_when_it_still_fits() {
    let mut w = World::new(&floor(), &Tuning::default()).unwrap();
    run_right(&mut w, 60);
    let before = w.hero().clone();
    let frame = w.frame();
    // A platform far away: nothing near the hero changes.
    let mut next = floor();
    next.polygons.push(rect(10.0, 3.0, 12.0, 3.5));
    w.set_level(&next).unwrap();
    assert!(w.warnings().is_empty(), "{:?}", w.warnings());
    assert_eq!(w.hero().body.pos, before.body.pos);
    assert_eq!(w.hero().vel, before.vel);
    assert_eq!(w.hero().facing, before.facing);
    assert_eq!(w.hero().state.name(), "supported");
    assert_eq!(w.frame(), frame);
    assert_eq!(*w.level(), next);
    // It runs on at full speed from there, on the new meshes.
    run_right(&mut w, 1);
    assert!(w.hero().body.pos.x > before.body.pos.x);
    assert_eq!(w.hero().state.name(), "supported");
}

#[test]
fn a_polygon_dropped_on_the_hero_moves_it_to_the_nearest_free_point_with_a_warning() {
    let mut w = World::new(&floor(), &Tuning::default()).unwrap();
    run_right(&mut w, 10);
    let at = w.hero().body.pos;
    let mut next = floor();
    // A 1 m block over the hero's feet.
    next.polygons
        .push(rect(at.x - 0.5, at.y, at.x + 0.5, at.y + 1.0));
    w.set_level(&next).unwrap();
    let now = w.hero().body.pos;
    assert_ne!(now, at);
    assert_eq!(w.warnings().len(), 1, "{:?}", w.warnings());
    assert!(
        w.warnings()[0].contains("inside level geometry") && w.warnings()[0].contains("moved"),
        "{:?}",
        w.warnings()
    );
    // Out of the block, and free: the hero's box does not overlap any polygon.
    let c = Penetration::new(&next);
    for a in hold(mv(0.0, 0.0), 60) {
        w.step(&a);
        assert!(c.max(&w.trace_frame()) <= MAX_PENETRATION);
    }
    assert_eq!(w.prev_pos(), w.hero().body.pos);
}

#[test]
fn a_swap_to_a_level_with_other_bounds_uses_the_new_bounds() {
    let mut w = World::new(&floor(), &Tuning::default()).unwrap();
    // The automatic bounds reach 10 m past the geometry; a level with explicit bounds of x in
    // [-3, 3] keeps the hero inside them.
    let mut boxed = floor();
    boxed.bounds = Some(Aabb {
        min: p(-3.0, -2.0),
        max: p(3.0, 10.0),
    });
    w.set_level(&boxed).unwrap();
    assert!(w.warnings().is_empty(), "{:?}", w.warnings());
    run_right(&mut w, 240);
    let x = w.hero().body.pos.x;
    assert!(x <= 3.0 && x > 2.0, "stopped at the new bound, got {x}");

    // Back to automatic bounds: the hero runs on past x = 3.
    w.set_level(&floor()).unwrap();
    run_right(&mut w, 60);
    assert!(w.hero().body.pos.x > 3.5, "{}", w.hero().body.pos.x);

    // A swap to bounds that exclude the hero moves it inside them, with a warning.
    let mut elsewhere = floor();
    elsewhere.bounds = Some(Aabb {
        min: p(-10.0, -2.0),
        max: p(-5.0, 10.0),
    });
    w.set_level(&elsewhere).unwrap();
    assert_eq!(w.warnings().len(), 1, "{:?}", w.warnings());
    let x = w.hero().body.pos.x;
    assert!((-10.0..=-5.0).contains(&x), "{x}");
}

#[test]
fn a_bad_level_leaves_the_world_unchanged() {
    let mut w = World::new(&floor(), &Tuning::default()).unwrap();
    run_right(&mut w, 30);
    let hash = w.state_hash();
    let mut bad = floor();
    bad.tuning.run_speed = Some(-1.0);
    assert!(w.set_level(&bad).is_err());
    assert_eq!(w.state_hash(), hash);
    assert_eq!(*w.level(), floor());
}

#[test]
fn a_swap_to_the_same_level_changes_nothing_the_hash_sees() {
    // Same level, same meshes: the hero's position, face, state and timers carry over exactly, so
    // a swap in the middle of a run does not perturb it.
    let script = hold(mv(1.0, 0.0), 90);
    let mut a = World::new(&floor(), &Tuning::default()).unwrap();
    let mut b = World::new(&floor(), &Tuning::default()).unwrap();
    for (i, s) in script.iter().enumerate() {
        a.step(s);
        b.step(s);
        if i == 45 {
            b.set_level(&floor()).unwrap();
        }
    }
    assert_eq!(a.state_hash(), b.state_hash());
}
