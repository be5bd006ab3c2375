//! Regression: the take-off tick counted the platform twice. Jumping off a platform going right
//! at 5 m/s, the hero moved 9.85 m/s × dt to the right in the jump's tick: the world's carry had
//! already moved it with the platform for the tick (0.0417 m), and the air step that the jump
//! started then ran the whole tick again at the inherited velocity (0.0405 m). The velocity it
//! reported (4.854 m/s after the tick's air drag) was right; the position was about 4 cm too far.
use tessera::level::{LevelMover, MoverEase, MoverMode};
use tessera::movement::{Actions, MoveEvent, Tuning};
use tessera::sim::{World, DT};

use crate::common::{level, p, rect};

#[test]
fn a_jump_off_a_platform_moves_once_in_its_tick() {
    let mut l = level(vec![rect(-40.0, -60.0, 40.0, -59.0)], vec![], p(0.0, 0.0));
    l.movers = vec![LevelMover {
        pieces: vec![vec![p(-2.0, -0.5), p(2.0, -0.5), p(2.0, 0.0), p(-2.0, 0.0)]],
        path: vec![p(0.0, 0.0), p(40.0, 0.0)],
        period: 8.0,
        mode: MoverMode::PingPong,
        ease: MoverEase::Linear,
        ..Default::default()
    }];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    for _ in 0..30 {
        w.step(&Actions::default());
        assert!(w.hero().grounded());
    }
    w.step(&Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    });
    assert!(w.last_report().events.contains(&MoveEvent::Jumped));
    let moved = w.hero().body.pos - w.prev_pos();
    let v = w.hero().vel;
    assert!((v.x - 4.854).abs() < 1e-3, "{v:?}");
    assert!(
        (moved.x - v.x * DT).abs() <= 1e-9,
        "moved {} m/s × dt, reported {} m/s",
        moved.x / DT,
        v.x
    );
    assert!((moved.y - v.y * DT).abs() <= 1e-9);
}
