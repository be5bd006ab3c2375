//! Regression: a hero spawned on the top of a swinging plank (at its spawn pose) was pushed up
//! out of the plank in its first tick, by 1.4e-4 m in the plank's frame, and kept that offset
//! for as long as it rode. It started airborne (the spawn looked for static ground only); the
//! plank's first turn put it inside the plank, and the push moved it out along the plank's
//! motion at its feet rather than back onto the top it stood on. A rider from the first tick is
//! carried by the turn and re-seated on the top, so at every level pose it is where it spawned.
use glam::DVec2;
use tessera::level::{LevelMover, MoverEase, MoverMode};
use tessera::movement::{Actions, MoveState, Tuning};
use tessera::sim::{World, TICK_HZ};

use crate::common::{level, p, rect};

#[test]
fn a_rider_spawned_on_a_swinging_plank_is_where_it_spawned_at_each_level_pose() {
    let mut l = level(vec![rect(-40.0, -60.0, 40.0, -59.0)], vec![], p(1.5, 0.2));
    l.movers = vec![LevelMover {
        pieces: vec![vec![p(-3.0, -0.2), p(3.0, -0.2), p(3.0, 0.2), p(-3.0, 0.2)]],
        path: vec![p(0.0, 0.0), p(0.0, 0.0)],
        period: 1.0,
        mode: MoverMode::PingPong,
        ease: MoverEase::Linear,
        swing: 0.3,
        ..Default::default()
    }];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let spawned = w.hero().body.pos;
    assert_eq!(spawned, p(1.5, 0.2));
    for k in 1..=3 * TICK_HZ as u64 {
        w.step(&Actions::default());
        assert!(
            matches!(w.hero().state, MoveState::Riding { .. }),
            "tick {k}"
        );
        if k % TICK_HZ as u64 == 0 {
            // Level again (the swing's sine of a whole period is within 1e-15 of 0).
            let pose = w.movers().pose(0);
            assert!(pose.angle.abs() < 1e-12);
            let (s, c) = (-pose.angle).sin_cos();
            let d = w.hero().body.pos - pose.offset;
            let back = DVec2::new(c * d.x - s * d.y, s * d.x + c * d.y);
            let off = (back - spawned).length();
            assert!(
                off <= 1e-9,
                "tick {k}: {off} m from the spawn in the plank's frame"
            );
        }
    }
}
