//! Regression: a door closing on a character standing on a mover could put it inside that mover.
//! Found by the zero-penetration property test once its scenarios had doors on schedules among
//! movers (issue 52's goal 2; `movers::zero_penetration_among_random_movers`, the default seed,
//! scenario 150 of 1 000: an agent riding a rocking platform under a door that closed on a timer).
//! A closed door moves whoever it closes on to the nearest point free of the static mesh (the
//! door's gate included), and that search never looked at movers: here, a door reaching down
//! to just above a thick platform's top closes on its rider, the nearest point free of the door
//! is straight down, under the platform's top, and the rider was left inside the platform, where
//! no rule of the tick moves it out (a character strictly inside a mover is what
//! `World::penetrations` reports). Now a character moved out of a closing door is then moved, as
//! a crushed one is (`sim::movers`), to the nearest point free of the movers too.
use tessera::level::{LevelDoor, LevelMover, MoverEase, MoverMode};
use tessera::movement::{Actions, MoveState, Tuning};
use tessera::sim::{World, WorldEvent};

use crate::common::{level, p, rect};

#[test]
fn a_door_closing_on_a_rider_does_not_put_it_inside_its_mover() {
    let mut l = level(vec![rect(-40.0, -30.0, 40.0, -29.0)], vec![], p(0.0, 0.5));
    // A thick platform at rest (its path goes nowhere), its top at y = 0.5.
    l.movers = vec![LevelMover {
        pieces: vec![vec![p(-5.0, -3.0), p(5.0, -3.0), p(5.0, 0.5), p(-5.0, 0.5)]],
        path: vec![p(0.0, 0.0), p(0.0, 0.0)],
        period: 2.0,
        mode: MoverMode::PingPong,
        ease: MoverEase::Linear,
        ..Default::default()
    }];
    // An open door over the rider, from just under the platform's top to 3.5 m: closed, the
    // nearest point free of it for the standing hero (1.8 m tall) is 2 m down, its head at the
    // door's bottom (up is 3 m, sideways 3.4 m).
    l.doors = vec![LevelDoor {
        points: vec![p(-3.0, 0.3), p(3.0, 0.3), p(3.0, 3.5), p(-3.0, 3.5)],
        open: true,
        switch: None,
        close_after: None,
        open_on: Vec::new(),
        close_on: Vec::new(),
        toggle_on: Vec::new(),
    }];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    assert!(
        matches!(w.hero().state, MoveState::Riding { .. }),
        "{:?}",
        w.hero().state
    );
    assert!(w.set_door(0, false));
    assert!(
        w.events().contains(&WorldEvent::Crushed { agent: None }),
        "{:?}",
        w.events()
    );
    assert_eq!(
        w.penetrations(),
        Vec::<Option<usize>>::new(),
        "the hero at {:?}",
        w.hero().body.pos
    );
    for _ in 0..120 {
        w.step(&Actions::default());
        assert_eq!(
            w.penetrations(),
            Vec::<Option<usize>>::new(),
            "tick {}: the hero at {:?}",
            w.frame(),
            w.hero().body.pos
        );
    }
}
