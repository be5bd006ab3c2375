//! Regression: a character that started on a moving platform was not on it. The spawn looked
//! for ground in the static mesh only, so a hero spawned on the top of a platform going right at
//! 5 m/s started airborne at a world speed of 0, landed on the platform in its first tick with
//! −5 m/s relative to it, and friction slid it 0.13 m back along the platform before it came to
//! rest; on a spinning plank it fell for 24 ticks before it landed. Agents spawned on movers and
//! respawns at checkpoints on movers did the same (they are placed by the same spawn).
use glam::DVec2;
use tessera::level::{LevelMover, MoverEase, MoverMode};
use tessera::movement::{Actions, MoveEvent, MoveState, Tuning};
use tessera::sim::{World, TICK_HZ};

use crate::common::{level, p, rect};

fn platform(spin: f64) -> LevelMover {
    LevelMover {
        pieces: vec![vec![p(-3.0, -0.2), p(3.0, -0.2), p(3.0, 0.2), p(-3.0, 0.2)]],
        path: if spin == 0.0 {
            vec![p(0.0, 0.0), p(20.0, 0.0)]
        } else {
            vec![p(0.0, 0.0), p(0.0, 0.0)]
        },
        period: 4.0,
        mode: MoverMode::PingPong,
        ease: MoverEase::Linear,
        spin,
        ..Default::default()
    }
}

#[test]
fn a_hero_spawned_on_a_moving_platform_neither_lands_nor_slides() {
    for spin in [0.0, 0.3] {
        let mut l = level(vec![rect(-40.0, -60.0, 40.0, -59.0)], vec![], p(1.0, 0.2));
        l.movers = vec![platform(spin)];
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let MoveState::Riding { local, .. } = w.hero().state else {
            panic!("spin {spin}: spawned {:?}, not riding", w.hero().state);
        };
        assert_eq!(local, p(1.0, 0.2) - w.movers().offset(0));
        for _ in 0..TICK_HZ {
            w.step(&Actions::default());
            assert!(
                matches!(w.hero().state, MoveState::Riding { .. }),
                "spin {spin}: airborne on tick {}",
                w.frame()
            );
            assert!(!w
                .last_report()
                .events
                .iter()
                .any(|e| matches!(e, MoveEvent::Landed { .. })));
        }
        if spin == 0.0 {
            let slid = (w.hero().body.pos - w.movers().offset(0) - local).length();
            assert!(slid <= 1e-9, "slid {slid} m along the platform");
            assert_eq!(w.hero().vel, DVec2::ZERO);
        }
    }
}
