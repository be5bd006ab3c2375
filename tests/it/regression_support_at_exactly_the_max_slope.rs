//! Regression: the hero found its ground with a second copy of the walkable-slope test that lacked
//! the rule's 1e-12 allowance. On a slope at exactly `max_slope_deg` the edge's normal `y`
//! (1/√2 rounded) is an ulp below `cos(45°)`, so landing there counted the edge as walkable but
//! spawning, standing up and stepping off a ladder onto it did not: a hero spawned on it started
//! airborne.
use glam::DVec2;
use tessera::collision::*;
use tessera::movement::{Env, Hero, MoveState, Tuning};

#[test]
fn a_hero_spawned_on_a_slope_at_exactly_the_max_angle_stands_on_it() {
    let p = DVec2::new;
    let tuning = Tuning {
        max_slope_deg: 45.0,
        ..Tuning::default()
    };
    // A 45° ramp. The colliders have flat feet 0.8 m wide, so the inflated ramp's top edge is the
    // line y = x + 0.4.
    let ramp = SourcePolygon {
        id: PolygonId(0),
        kind: Solidity::Solid,
        points: vec![p(0.0, 0.0), p(20.0, 0.0), p(20.0, 20.0)],
    };
    let world = CollisionWorld::new(
        &[ramp],
        &[
            tuning.stand_collider.clone(),
            tuning.crouch_collider.clone(),
        ],
        MeshConfig::default(),
    )
    .unwrap();
    let env = Env::new(&world, &[]);
    let (hero, moved) = Hero::spawn(&env, p(10.0, 10.41), &tuning).unwrap();
    assert_eq!(moved, 0.0);
    assert!(
        matches!(hero.state, MoveState::Supported { .. }),
        "spawned {:?}",
        hero.state
    );
}
