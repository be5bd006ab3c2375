//! Doors: polygons that block while closed, triangulated with the level so that opening or
//! closing one rewrites face kinds and re-meshes nothing. These check the meshes in both states
//! (their invariants, what is solid), the hero against a door (blocked, through an open doorway
//! at full speed, falling through a trapdoor), switches and timers, and what a closing door does
//! to a character inside it (crouch, wiggle, crush).
use glam::DVec2;
use tessera::collision::{Aabb, ColliderId, FaceKind, Location};
use tessera::level::{Level, LevelDoor};
use tessera::movement::{Actions, Tuning, STAND};
use tessera::sim::{World, WorldEvent, CRUSH_WIGGLE};

use crate::common::{level, mv, p, rect};

fn door(x0: f64, y0: f64, x1: f64, y1: f64) -> LevelDoor {
    LevelDoor {
        points: vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)],
        open: false,
        switch: None,
        close_after: None,
        open_on: Vec::new(),
        close_on: Vec::new(),
        toggle_on: Vec::new(),
    }
}

/// A floor from x = -20 to 20, a wall from y = 2.5 up over x = 4..5 (its doorway below), and a
/// door filling the doorway.
fn doorway(d: LevelDoor) -> Level {
    let mut l = level(
        vec![rect(-20.0, -1.0, 20.0, 0.0), rect(4.0, 2.5, 5.0, 8.0)],
        vec![],
        p(-3.0, 0.0),
    );
    l.doors = vec![d];
    l
}

fn kind_at(w: &World, id: ColliderId, at: DVec2) -> Option<FaceKind> {
    let mesh = w.collision().mesh(id);
    match mesh.locate(at, None) {
        Location::Free(b) => Some(mesh.kind(b.face)),
        Location::Solid(f) => Some(mesh.kind(f)),
        Location::Outside => None,
    }
}

#[test]
fn a_door_is_solid_closed_and_free_open_in_every_mesh_with_no_re_mesh() {
    let l = doorway(door(4.0, 0.0, 5.0, 2.5));
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let at = p(4.5, 0.5);
    let faces: Vec<usize> = (0..2)
        .map(|c| w.collision().mesh(ColliderId(c)).num_faces())
        .collect();
    for c in [ColliderId(0), ColliderId(1)] {
        assert_eq!(kind_at(&w, c, at), Some(FaceKind::Solid));
        w.collision().mesh(c).check_invariants().unwrap();
    }
    assert!(w.set_door(0, true));
    assert_eq!(w.events(), [WorldEvent::DoorOpened { door: 0 }]);
    for c in [ColliderId(0), ColliderId(1)] {
        let mesh = w.collision().mesh(c);
        assert_eq!(kind_at(&w, c, at), Some(FaceKind::Free));
        mesh.check_invariants().unwrap();
        assert_eq!(mesh.num_faces(), faces[c.0 as usize]);
        // The door covers few faces: opening it touched only those.
        let n = mesh.gate_faces(l.door_id(0)).count();
        assert!(n > 0 && n < 40, "{n} gated faces");
    }
    // The wall above the doorway stays solid.
    assert_eq!(kind_at(&w, STAND, p(4.5, 3.0)), Some(FaceKind::Solid));
    assert!(w.set_door(0, false));
    assert_eq!(kind_at(&w, STAND, at), Some(FaceKind::Solid));
    w.collision().mesh(STAND).check_invariants().unwrap();
    assert!(!w.set_door(1, true), "no door 1");
}

#[test]
fn the_hero_stops_at_a_closed_door_and_a_switch_opens_it_to_run_through_at_full_speed() {
    let mut d = door(4.0, 0.0, 5.0, 2.5);
    d.switch = Some(Aabb {
        min: p(8.0, 0.0),
        max: p(9.0, 1.0),
    });
    let l = doorway(d);
    let t = Tuning::default();
    let mut w = World::new(&l, &t).unwrap();
    for _ in 0..240 {
        w.step(&mv(1.0, 0.0));
    }
    // Blocked by the door: the feet stop half the collider's width before it.
    assert!((w.hero().body.pos.x - (4.0 - 0.4)).abs() < 1e-9);
    assert!(!w.doors()[0].open);
    // Open it (as its switch would) and run through the doorway from a run-up: no snag, no
    // speed lost.
    w.set_door(0, true);
    w.place_hero(p(-3.0, 0.0)).unwrap();
    let mut ticks_at_speed = 0;
    for _ in 0..240 {
        w.step(&mv(1.0, 0.0));
        let h = w.hero();
        assert!(h.grounded(), "left the ground at x {}", h.body.pos.x);
        if h.vel.x == t.run_speed {
            ticks_at_speed += 1;
        } else {
            assert!(
                h.body.pos.x < 4.0 || h.body.pos.x > 7.0,
                "slowed in the doorway"
            );
        }
    }
    assert!(w.hero().body.pos.x > 9.0);
    assert!(ticks_at_speed > 150);
    // A switch opens a closed door when the hero's feet enter it.
    let mut l2 = l.clone();
    l2.doors[0].switch = Some(Aabb {
        min: p(-4.0, 0.0),
        max: p(-2.0, 1.0),
    });
    let mut w = World::new(&l2, &t).unwrap();
    w.step(&Actions::default());
    assert!(w.doors()[0].open, "the hero spawns on the switch");
    assert_eq!(w.events(), [WorldEvent::DoorOpened { door: 0 }]);
    assert_eq!(w.trace_frame().doors, [true]);
}

#[test]
fn a_timed_door_closes_after_the_hero_leaves_its_switch() {
    let mut d = door(4.0, 0.0, 5.0, 2.5);
    d.switch = Some(Aabb {
        min: p(-4.0, 0.0),
        max: p(-2.0, 1.0),
    });
    d.close_after = Some(0.5);
    let l = doorway(d);
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    // Standing on the switch holds it open.
    for _ in 0..120 {
        w.step(&Actions::default());
        assert!(w.doors()[0].open);
    }
    // Walk off to the left; 0.5 s after leaving the switch (60 ticks) it closes.
    let mut closed_at = None;
    for tick in 0..240 {
        w.step(&mv(-1.0, 0.0));
        if !w.doors()[0].open && closed_at.is_none() {
            closed_at = Some(tick);
            assert_eq!(w.events(), [WorldEvent::DoorClosed { door: 0 }]);
        }
    }
    let left = closed_at.expect("closed");
    assert!((60..=130).contains(&left), "closed at tick {left}");
}

#[test]
fn a_door_closing_on_the_hero_makes_it_crouch_or_moves_it_out_or_crushes_it() {
    let t = Tuning::default();
    // A door hanging from the wall down to 1.2 m: closing over a standing hero leaves room to
    // crouch (1.0 m), so it crouches where it is.
    let l = doorway(door(4.0, 1.2, 5.0, 2.5));
    let mut w = World::new(&l, &t).unwrap();
    w.set_door(0, true);
    w.place_hero(p(4.5, 0.0)).unwrap();
    w.set_door(0, false);
    assert_eq!(w.hero().body.pos, p(4.5, 0.0));
    assert!(w.hero().crouching());
    assert!(w.events().contains(&WorldEvent::DoorClosed { door: 0 }));
    assert!(!w.events().contains(&WorldEvent::Crushed { agent: None }));
    // A full-height door 1 cm from the hero's side: moved out by the wiggle, no crush.
    let l = doorway(door(4.0, 0.0, 5.0, 2.5));
    let mut w = World::new(&l, &t).unwrap();
    w.set_door(0, true);
    w.place_hero(p(4.0 - 0.4 + 0.01, 0.0)).unwrap();
    w.set_door(0, false);
    assert!(
        (w.hero().body.pos - p(3.6, 0.0)).length() < 1e-9,
        "{}",
        w.hero().body.pos
    );
    assert!(!w.events().contains(&WorldEvent::Crushed { agent: None }));
    // In the middle of it: no room within the wiggle, a crush; the hero is put outside.
    w.set_door(0, true);
    w.place_hero(p(4.5, 0.0)).unwrap();
    w.set_door(0, false);
    assert!(w.events().contains(&WorldEvent::Crushed { agent: None }));
    let moved = (w.hero().body.pos - p(4.5, 0.0)).length();
    assert!(moved > CRUSH_WIGGLE);
    assert_eq!(kind_at(&w, STAND, w.hero().body.pos), Some(FaceKind::Free));
}

#[test]
fn a_trapdoor_opening_under_the_hero_drops_it() {
    // A floor with a hole over x = -1..1 and a door filling the hole.
    let mut l = level(
        vec![
            rect(-20.0, -1.0, -1.0, 0.0),
            rect(1.0, -1.0, 20.0, 0.0),
            rect(-20.0, -10.0, 20.0, -9.0),
        ],
        vec![],
        p(0.0, 0.0),
    );
    l.doors = vec![door(-1.0, -1.0, 1.0, 0.0)];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    w.step(&Actions::default());
    assert!(w.hero().grounded());
    assert_eq!(w.hero().body.pos, p(0.0, 0.0));
    w.set_door(0, true);
    let mut landed = false;
    for _ in 0..240 {
        w.step(&Actions::default());
        landed |= w.hero().grounded() && w.hero().body.pos.y == -9.0;
    }
    assert!(
        landed,
        "fell through to the floor below: {}",
        w.hero().body.pos
    );
}

#[test]
fn doors_are_in_the_hash_and_a_level_without_doors_keeps_its_hash() {
    let l = doorway(door(4.0, 0.0, 5.0, 2.5));
    let mut a = World::new(&l, &Tuning::default()).unwrap();
    let mut b = World::new(&l, &Tuning::default()).unwrap();
    a.step(&Actions::default());
    b.step(&Actions::default());
    assert_eq!(a.state_hash(), b.state_hash());
    b.set_door(0, true);
    assert_ne!(a.state_hash(), b.state_hash());
    let json = serde_json::to_string(&a.trace_frame()).unwrap();
    assert!(json.contains(",\"doors\":[false],"), "{json}");
}

#[test]
fn a_closed_trapdoor_flush_with_the_floor_is_crossed_at_full_speed_without_a_snag() {
    // The seam between the static floor and a closed door's top (issue 26, goal 6): the door's
    // faces are solid like the floor's, and the free side's boundary runs straight across both,
    // so the hero keeps its speed and never leaves the ground.
    let mut l = level(
        vec![rect(-20.0, -1.0, -1.0, 0.0), rect(1.0, -1.0, 20.0, 0.0)],
        vec![],
        p(-12.0, 0.0),
    );
    l.doors = vec![door(-1.0, -1.0, 1.0, 0.0)];
    let t = Tuning::default();
    let mut w = World::new(&l, &t).unwrap();
    let mut crossed = false;
    for tick in 0..300 {
        w.step(&mv(1.0, 0.0));
        let h = w.hero();
        assert!(
            h.grounded(),
            "tick {tick}: left the ground at {}",
            h.body.pos
        );
        assert_eq!(h.body.pos.y, 0.0);
        if (-2.0..2.0).contains(&h.body.pos.x) {
            assert_eq!(
                h.vel.x, t.run_speed,
                "tick {tick}: slowed at {}",
                h.body.pos
            );
            crossed = true;
        }
    }
    assert!(crossed && w.hero().body.pos.x > 5.0);
}
