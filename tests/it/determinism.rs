//! Determinism as pinned hashes: scripted runs on levels built in code, hashed after each tick.
//! The final hashes are pinned, so any behaviour change (intended or not) must update them
//! deliberately; two runs in one process must also agree tick by tick.
//!
//! Together the runs visit every movement state: the course covers supported (flat, slope, one-way
//! top), airborne, climbing and crouching; the shaft covers wall slides and wall jumps; the
//! top-down room covers top-down movement against walls.

use crate::common::*;
use tessera::movement::{Actions, Tuning};
use tessera::sim::world::World;

fn course() -> tessera::level::Level {
    let s = 30f64.to_radians().tan();
    level(
        vec![
            poly(&[
                (-20.0, -2.0),
                (60.0, -2.0),
                (60.0, 0.0),
                (30.0, 0.0),
                (26.0, 4.0 * s),
                (20.0, 4.0 * s),
                (16.0, 0.0),
                (-20.0, 0.0),
            ]),
            rect(40.0, 0.0, 41.0, 10.0),
            one_way(&[(6.0, 2.0), (10.0, 2.0), (10.0, 2.3), (6.0, 2.3)]),
            poly(&[(-8.0, 1.4), (-4.0, 1.6), (-3.0, 3.0), (-7.0, 3.4)]),
        ],
        vec![(p(-0.5, 0.0), p(0.5, 2.5))],
        p(0.0, 0.0),
    )
}

fn script() -> Vec<Actions> {
    let mut s = hold(mv(0.0, 1.0), 60);
    s.extend(hold(jump(1.0), 30));
    s.extend(hold(mv(1.0, 0.0), 120));
    s.extend(hold(
        Actions {
            jump: true,
            ..jump(1.0)
        },
        50,
    ));
    s.extend(hold(mv(1.0, 0.0), 200));
    s.extend(hold(mv(0.0, 0.0), 30));
    s.extend(hold(mv(-1.0, 0.0), 150));
    s.extend(hold(crouch(-1.0), 300));
    s.extend(hold(jump(-1.0), 60));
    s
}

fn hashes() -> Vec<u64> {
    run_hashes(&course(), &Tuning::default(), &script())
}

#[test]
fn the_course_visits_the_ground_air_ladder_and_crouch_states() {
    let frames = run(&course(), &Tuning::default(), &script());
    for state in ["supported", "airborne", "climbing"] {
        assert!(frames.iter().any(|f| f.t.state == state), "never {state}");
    }
    assert!(frames.iter().any(|f| f.crouching));
}

/// A shaft between two walls 3 m apart: jump, press into the right wall (wall slide), wall-jump
/// off it, press into the left wall.
fn shaft() -> tessera::level::Level {
    level(
        vec![
            rect(-6.0, -1.0, 12.0, 0.0),
            rect(-1.0, -0.5, 0.0, 10.0),
            rect(3.0, -0.5, 4.0, 10.0),
        ],
        vec![],
        p(1.5, 0.0),
    )
}

fn shaft_script() -> Vec<Actions> {
    let mut s = hold(jump(1.0), 40);
    s.extend(hold(mv(1.0, 0.0), 30));
    s.extend(hold(jump(-1.0), 25));
    s.extend(hold(mv(-1.0, 0.0), 60));
    s.extend(hold(mv(0.0, 0.0), 60));
    s
}

/// A walled room in top-down mode: run into the right wall, diagonally into a corner, then left.
fn top_down_room() -> (tessera::level::Level, Tuning) {
    let room = level(
        vec![
            rect(-6.0, -6.0, 6.0, -5.0),
            rect(-6.0, 5.0, 6.0, 6.0),
            rect(-6.0, -5.0, -5.0, 5.0),
            rect(5.0, -5.0, 6.0, 5.0),
            poly(&[(-4.0, -4.0), (-2.0, -3.5), (-3.0, -2.5)]),
        ],
        vec![],
        p(0.0, 0.0),
    );
    let tuning = Tuning {
        top_down: true,
        gravity: 0.0,
        ..Tuning::default()
    };
    (room, tuning)
}

fn top_down_script() -> Vec<Actions> {
    let mut s = hold(mv(1.0, 0.0), 120);
    s.extend(hold(mv(0.7, 0.7), 120));
    s.extend(hold(mv(-1.0, -0.2), 200));
    s
}

fn run_hashes(level: &tessera::level::Level, tuning: &Tuning, script: &[Actions]) -> Vec<u64> {
    let mut w = World::new(level, tuning).unwrap();
    script
        .iter()
        .map(|a| {
            w.step(a);
            w.state_hash()
        })
        .collect()
}

#[test]
fn the_shaft_visits_wall_slides_and_is_deterministic() {
    let frames = run(&shaft(), &Tuning::default(), &shaft_script());
    assert!(
        frames.iter().any(|f| f.t.state == "wall_slide"),
        "never wall_slide"
    );
    let a = run_hashes(&shaft(), &Tuning::default(), &shaft_script());
    assert_eq!(a, run_hashes(&shaft(), &Tuning::default(), &shaft_script()));
    let h = *a.last().unwrap();
    assert_eq!(
        h, PINNED_SHAFT,
        "the simulation changed: new hash {h:#018x}"
    );
}

#[test]
fn the_top_down_room_is_deterministic() {
    let (room, tuning) = top_down_room();
    let frames = run(&room, &tuning, &top_down_script());
    assert!(frames.iter().all(|f| f.t.state == "top_down"));
    // It reaches the right wall (x = 5, less the collider's half width) and stays inside the room.
    assert!(
        frames.iter().any(|f| f.t.pos[0] > 4.0),
        "never reached the wall"
    );
    assert!(frames
        .iter()
        .all(|f| f.t.pos[0].abs() < 5.0 && f.t.pos[1].abs() < 5.0));
    let a = run_hashes(&room, &tuning, &top_down_script());
    assert_eq!(a, run_hashes(&room, &tuning, &top_down_script()));
    let h = *a.last().unwrap();
    assert_eq!(
        h, PINNED_TOP_DOWN,
        "the simulation changed: new hash {h:#018x}"
    );
}

/// Pinned when the shaft and top-down runs were added (the build at commit 5ecdc4d behaves the
/// same); re-pinned when the mesh's triangulation moved from spade into `collision::cdt`
/// (2026-11-26): the hash covers the hero's face number, which the new face order changes, while
/// every position, velocity and state of the three runs is bit for bit what a050472 gives. Re-pinned
/// again when the hash came to cover the rules of play (`sim::play`: health, invulnerability,
/// deaths, checkpoint, respawn, goal and attack timers, 2026-11-26): the three runs still give
/// the hashes above when those words are left out, so nothing moved.
const PINNED_SHAFT: u64 = 0x44ff_f6fe_ef35_15f2;
const PINNED_TOP_DOWN: u64 = 0xa4b6_7684_dd8a_f18d;

#[test]
fn two_runs_agree_tick_by_tick() {
    assert_eq!(hashes(), hashes());
}

#[test]
fn final_state_hash_is_pinned() {
    let h = *hashes().last().unwrap();
    assert_eq!(
        h, PINNED,
        "the simulation changed: new hash {h:#018x}; update PINNED if intended"
    );
}

/// Re-pinned when straight chains of constraint edges through junctions became single edges and
/// dangling constraint edges were left out (the faces changed; on the default tour replay every
/// state matches the build before both and positions differ by at most 2.2e-16 m), and again for
/// the triangulation in `collision::cdt` (face numbers only; see `PINNED_SHAFT`), and for the
/// rules of play's words in the hash (nothing moved; see `PINNED_SHAFT`).
const PINNED: u64 = 0xba55_c5f0_47c2_8b2e;
