//! Regression: a landing whose slide carried the hero across a straight joint of the floor (two
//! collinear edges meeting at a vertex that bounds something else, or that a chunked mesh keeps
//! on a chunk line) lost distance on the next tick. The landing hands the state the edge it
//! touched first (`Supported { edge }`), but the slide had gone on past that edge's end; the next
//! tick's walk along the edge chain (`supported::walk_chain`) slid the hero *back* to the joint
//! before handing it to the next edge, so the run stalled for a tick (on the default level after
//! edits in the editor: 0.045 m short at tick 666 of a scripted run). Now the walk goes on from
//! the next edge where the hero is when it is already past the end of the current one.
//!
//! The floor's top lies on the chunk line y = 0 and crosses the chunk corners x = 0, 8, 16, ...:
//! in a chunked mesh (what `World::edit_level` builds) the floor edge is split there. Hops from
//! 200 starting points 1.5 cm apart land, one of them at least, with a slide across the joint at
//! x = 8; each run must match the same level built whole (no joint), tick by tick.
use glam::DVec2;
use tessera::movement::{Actions, Tuning};
use tessera::sim::World;

use crate::common::{level, rect};

#[test]
fn a_landing_slide_across_a_joint_keeps_its_distance() {
    let mut worst: f64 = 0.0;
    for k in 0..200 {
        let spawn = DVec2::new(3.0 + k as f64 * 0.015, 0.0);
        let lvl = level(vec![rect(-40.0, -2.0, 80.0, 0.0)], vec![], spawn);
        let mut whole = World::new(&lvl, &Tuning::default()).unwrap();
        let mut chunked = World::new(&lvl, &Tuning::default()).unwrap();
        chunked.edit_level(&lvl).unwrap();
        assert!(chunked.collision().chunk_size().is_some());
        for t in 0..100u64 {
            // Short hops to the right at full run speed.
            let a = Actions {
                move_axis: DVec2::new(1.0, 0.0),
                jump: t % 40 < 6,
                jump_pressed: t % 40 == 0,
                crouch: false,
                attack_pressed: false,
            };
            whole.step(&a);
            chunked.step(&a);
            let d = whole.hero().body.pos.distance(chunked.hero().body.pos);
            worst = worst.max(d);
            assert!(
                d <= 1e-9,
                "start {k}, tick {t}: {:?} built whole, {:?} chunked",
                whole.hero().body.pos,
                chunked.hero().body.pos
            );
        }
    }
    eprintln!("largest difference: {worst:e} m");
}
