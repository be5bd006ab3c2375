//! Scenario tests for the platformer movement (issue 4): each drives the headless world with
//! scripted or closed-loop inputs and asserts on the per-frame trace. Every run also checks that
//! the collider never penetrates a solid polygon (independently of the mesh, by SAT) and that a
//! second run gives a bit-identical trace (see `common::run`).

use crate::common::*;
use tessera::movement::{MoveEvent, Tuning};
use tessera::sim::world::DT;

fn tiles(n: usize) -> Vec<tessera::level::LevelPolygon> {
    (0..n)
        .map(|i| rect(i as f64, -1.0, i as f64 + 1.0, 0.0))
        .collect()
}

/// Run right across a floor of 400 separate unit tiles and back: never airborne, and once at full
/// speed every frame covers exactly `run_speed * dt` at exactly the floor's height.
#[test]
fn tile_floor_run_there_and_back_is_smooth() {
    let t = Tuning::default();
    let lvl = level(tiles(400), vec![], p(3.0, 0.0));
    let n = (392.0 / t.run_speed / DT) as usize;
    let mut script = hold(mv(1.0, 0.0), n);
    script.extend(hold(mv(-1.0, 0.0), n));
    let frames = run(&lvl, &t, &script);
    assert!(
        frames
            .iter()
            .all(|f| f.t.grounded && f.t.state == "supported"),
        "an airborne frame on a flat tile floor"
    );
    assert!(
        frames.iter().all(|f| f.t.pos[1] == 0.0),
        "left the floor's height"
    );
    let step = t.run_speed * DT;
    let accel_frames = (t.run_speed / t.ground_accel / DT) as usize + 2;
    let turn_frames = ((t.run_speed / (t.ground_accel + t.ground_friction)
        + t.run_speed / t.ground_accel)
        / DT) as usize
        + 2;
    for w in frames[accel_frames..n].windows(2) {
        let dx = w[1].t.pos[0] - w[0].t.pos[0];
        assert!(
            (dx - step).abs() < 1e-9,
            "frame {}: moved {dx} instead of {step}",
            w[1].t.frame
        );
    }
    for w in frames[n + turn_frames..].windows(2) {
        let dx = w[1].t.pos[0] - w[0].t.pos[0];
        assert!(
            (dx + step).abs() < 1e-9,
            "frame {}: moved {dx} instead of {}",
            w[1].t.frame,
            -step
        );
    }
    assert!(pos(&frames[n - 1]).x > 390.0 && pos(frames.last().unwrap()).x < 10.0);
}

/// A ground profile with 15°, 30° and 40° slopes up and down: concave joints going up, convex
/// crests, and back. Below `run_speed` (the stated speed) the hero never leaves the ground, and its
/// speed along the surface stays `run_speed` (the slope speed rule).
#[test]
fn slope_chain_keeps_the_ground_both_ways() {
    let t = Tuning::default();
    let mut prof = vec![(0.0, 0.0), (10.0, 0.0)];
    let mut x = 10.0;
    let mut y = 0.0;
    for (deg, len) in [
        (15.0, 4.0),
        (30.0, 4.0),
        (40.0, 3.0),
        (0.0, 4.0),
        (-40.0, 3.0),
        (-30.0, 4.0),
        (-15.0, 4.0),
    ] {
        let d: f64 = deg;
        x += len;
        y += len * d.to_radians().tan();
        prof.push((x, y));
    }
    prof.push((x + 15.0, y));
    let mut pts = prof.clone();
    pts.extend([(x + 15.0, -5.0), (0.0, -5.0)]);
    let lvl = level(vec![poly(&pts)], vec![], p(2.0, 0.0));
    let n = ((x + 10.0) / t.run_speed / DT) as usize;
    let mut script = hold(mv(1.0, 0.0), n);
    script.extend(hold(mv(-1.0, 0.0), n));
    let frames = run(&lvl, &t, &script);
    for f in &frames {
        assert!(
            f.t.grounded,
            "frame {}: left the ground at {:?}",
            f.t.frame, f.t.pos
        );
    }
    let accel_frames = (t.run_speed / t.ground_accel / DT) as usize + 2;
    for f in frames[accel_frames..n].iter() {
        let speed = (f.t.vel[0].powi(2) + f.t.vel[1].powi(2)).sqrt();
        assert!(
            (speed - t.run_speed).abs() < 1e-9,
            "frame {}: speed along the surface {speed}",
            f.t.frame
        );
    }
    assert!(
        pos(&frames[n - 1]).x > x + 5.0,
        "did not reach the far end: {:?}",
        pos(&frames[n - 1])
    );
    assert!(pos(frames.last().unwrap()).x < 3.0);
}

/// A 60° slope is a wall from both sides: the hero stops at its foot, and the two runs are mirror
/// images of each other.
#[test]
fn too_steep_slope_blocks_from_both_sides_symmetrically() {
    let t = Tuning::default();
    let h = 5.0 * 60f64.to_radians().tan();
    let lvl = |spawn| {
        level(
            vec![
                rect(-20.0, -1.0, 70.0, 0.0),
                poly(&[(20.0, 0.0), (30.0, 0.0), (25.0, h)]),
            ],
            vec![],
            spawn,
        )
    };
    let right = run(&lvl(p(5.0, 0.0)), &t, &hold(mv(1.0, 0.0), 400));
    let left = run(&lvl(p(45.0, 0.0)), &t, &hold(mv(-1.0, 0.0), 400));
    let (r, l) = (pos(right.last().unwrap()), pos(left.last().unwrap()));
    assert!(
        (r.x - 19.6).abs() < 1e-9 && r.y == 0.0,
        "right run ended at {r:?}"
    );
    assert!(
        ((r.x - 25.0) + (l.x - 25.0)).abs() < 1e-9 && l.y == r.y,
        "not mirror-symmetric: {r:?} vs {l:?}"
    );
    for f in right.iter().chain(&left) {
        assert!(f.t.grounded);
    }
    assert!(right.iter().any(|f| f
        .events
        .iter()
        .any(|e| matches!(e, MoveEvent::Blocked { .. }))));
}

/// A 200 m fall lands on the floor, exactly at its height, at terminal speed.
#[test]
fn lands_from_a_200_m_fall() {
    let t = Tuning::default();
    let lvl = level(vec![rect(-10.0, -1.0, 10.0, 0.0)], vec![], p(0.0, 200.0));
    let frames = run(&lvl, &t, &hold(mv(0.0, 0.0), 1400));
    let landing = frames
        .iter()
        .position(|f| {
            f.events
                .iter()
                .any(|e| matches!(e, MoveEvent::Landed { .. }))
        })
        .expect("never landed");
    match frames[landing]
        .events
        .iter()
        .find(|e| matches!(e, MoveEvent::Landed { .. }))
    {
        Some(MoveEvent::Landed { impact_speed, .. }) => assert!(
            (impact_speed - t.max_fall_speed).abs() < 1e-9,
            "impact {impact_speed}"
        ),
        _ => unreachable!(),
    }
    for f in &frames[landing..] {
        assert!(
            f.t.grounded && f.t.pos == [0.0, 0.0],
            "frame {}: {:?}",
            f.t.frame,
            f.t.pos
        );
    }
}

/// Jumping sideways into a ceiling of tiles: the bonk zeroes the rise at once (no sticking), the
/// sideways motion carries on, and the hero comes back down.
#[test]
fn jump_into_tile_ceiling_while_moving_sideways() {
    let t = Tuning::default();
    let mut polys = vec![rect(-20.0, -1.0, 40.0, 0.0)];
    polys.extend((0..20).map(|i| rect(i as f64, 3.0, i as f64 + 1.0, 4.0)));
    let lvl = level(polys, vec![], p(2.0, 0.0));
    let mut script = hold(mv(1.0, 0.0), 30);
    script.extend(hold(
        tessera::movement::Actions {
            jump: true,
            ..jump(1.0)
        },
        60,
    ));
    let frames = run(&lvl, &t, &script);
    let bonk = frames
        .iter()
        .position(|f| f.events.contains(&MoveEvent::Bonked))
        .expect("no bonk");
    assert!(frames[bonk].t.vel[1] <= 0.0, "still rising after the bonk");
    assert!(
        (frames[bonk].t.pos[1] - (3.0 - 1.8)).abs() < 1e-9,
        "bonk height {:?}",
        frames[bonk].t.pos
    );
    for w in frames[bonk..bonk + 10].windows(2) {
        assert!(
            w[1].t.pos[1] < w[0].t.pos[1],
            "stuck to the ceiling at frame {}",
            w[1].t.frame
        );
        assert!(
            w[1].t.pos[0] > w[0].t.pos[0],
            "sideways motion stopped at frame {}",
            w[1].t.frame
        );
    }
}

/// Running into the corner between floor and wall and holding: the position is bit-identical from
/// frame to frame once there (no jitter).
#[test]
fn corner_hold_does_not_jitter() {
    let t = Tuning::default();
    let lvl = level(
        vec![rect(-10.0, -1.0, 11.0, 0.0), rect(10.0, 0.0, 11.0, 5.0)],
        vec![],
        p(2.0, 0.0),
    );
    let frames = run(&lvl, &t, &hold(mv(1.0, 0.0), 400));
    // The first touch may settle by one ulp onto the corner vertex; from then on nothing moves.
    let first = frames
        .iter()
        .position(|f| (f.t.pos[0] - 9.6).abs() < 1e-12)
        .expect("never reached the wall")
        + 1;
    let rest = frames[first].t.pos;
    assert!((rest[0] - 9.6).abs() < 1e-12 && rest[1] == 0.0);
    for f in &frames[first..] {
        assert_eq!(f.t.pos, rest, "frame {}", f.t.frame);
        assert_eq!(f.t.vel, [0.0, 0.0]);
        assert!(f.t.grounded);
    }
}

fn tunnel(height: f64) -> tessera::level::Level {
    level(
        vec![
            rect(-10.0, -1.0, 30.0, 0.0),
            rect(5.0, height, 10.0, height + 2.0),
        ],
        vec![],
        p(2.0, 0.0),
    )
}

/// Crouch into a tunnel lower than standing height, release crouch inside: the hero stays crouched
/// until clear of the ceiling, then stands by itself.
#[test]
fn crouch_tunnel_release_inside_then_stand_outside() {
    let t = Tuning::default();
    let lvl = tunnel(1.5);
    let mut script = hold(crouch(1.0), 150); // into the tunnel (x > 5.4 after ~1.2 s)
    script.extend(hold(mv(1.0, 0.0), 200));
    let frames = run(&lvl, &t, &script);
    assert!(
        pos(&frames[149]).x > 5.5 && pos(&frames[149]).x < 9.5,
        "not inside: {:?}",
        pos(&frames[149])
    );
    for f in &frames[150..] {
        let under = f.t.pos[0] > 5.0 - 0.4 && f.t.pos[0] < 10.0 + 0.4;
        if under {
            assert!(
                f.crouching,
                "frame {}: stood up under the ceiling at {:?}",
                f.t.frame, f.t.pos
            );
        }
    }
    let out = frames.iter().rposition(|f| f.crouching).unwrap();
    assert!(pos(&frames[out]).x >= 10.4 - 1e-9 && !frames.last().unwrap().crouching);
    assert!(frames[out + 1].events.contains(&MoveEvent::StoodUp));
    // Standing still inside with crouch released: still crouched.
    let mut script = hold(crouch(1.0), 150);
    script.extend(hold(mv(0.0, 0.0), 60));
    assert!(run(&lvl, &t, &script).last().unwrap().crouching);
}

/// Standing up exactly at the limit: a ceiling 1e-4 m lower than the standing collider keeps the
/// hero crouched; 1e-4 m higher lets it stand.
#[test]
fn crouch_at_standing_height_plus_minus_1e4() {
    let t = Tuning::default();
    let mut script = hold(crouch(1.0), 150);
    script.extend(hold(mv(0.0, 0.0), 10));
    let low = run(&tunnel(1.8 - 1e-4), &t, &script);
    assert!(
        low.last().unwrap().crouching,
        "stood up under a ceiling lower than the collider"
    );
    let high = run(&tunnel(1.8 + 1e-4), &t, &script);
    assert!(
        !high.last().unwrap().crouching,
        "could not stand under a ceiling higher than the collider"
    );
    assert!(pos(high.last().unwrap()).x > 5.5);
}

/// One-way platform: jump through it from below, land on its top, drop through with down + jump,
/// walk off its end, and walk through one resting on the ground from the side.
#[test]
fn one_way_platform_from_below_landing_drop_and_ends() {
    let t = Tuning::default();
    let lvl = level(
        vec![
            rect(-10.0, -1.0, 40.0, 0.0),
            one_way(&[(5.0, 2.0), (10.0, 2.0), (10.0, 2.3), (5.0, 2.3)]),
            one_way(&[(20.0, 0.0), (24.0, 0.0), (24.0, 0.5), (20.0, 0.5)]),
        ],
        vec![],
        p(7.5, 0.0),
    );
    let mut script = hold(
        tessera::movement::Actions {
            jump: true,
            ..jump(0.0)
        },
        100,
    );
    script.extend(hold(mv(0.0, 0.0), 20));
    let drop_at = script.len();
    script.extend(hold(
        tessera::movement::Actions {
            move_axis: p(0.0, -1.0),
            jump: true,
            jump_pressed: true,
            crouch: false,
            attack_pressed: false,
        },
        60,
    ));
    script.extend(hold(mv(0.0, 0.0), 20));
    let frames = run(&lvl, &t, &script);
    assert!(
        frames[..drop_at].iter().any(|f| f.t.pos[1] > 2.3),
        "never rose above the platform"
    );
    let on_top = &frames[drop_at - 1];
    assert!(
        on_top.t.grounded && on_top.t.pos[1] == 2.3,
        "not standing on the platform: {:?}",
        on_top.t.pos
    );
    assert!(frames[drop_at].events.contains(&MoveEvent::DroppedThrough));
    let end = frames.last().unwrap();
    assert!(
        end.t.grounded && end.t.pos[1] == 0.0,
        "did not drop to the floor: {:?}",
        end.t.pos
    );

    // Walk off the platform's right end, then through the low one-way block from its side.
    let lvl2 = tessera::level::Level {
        doors: Vec::new(),
        agents: Vec::new(),
        movers: Vec::new(),
        spawn: p(7.5, 2.3),
        ..lvl
    };
    let frames = run(&lvl2, &t, &hold(mv(1.0, 0.0), 360));
    let off = frames
        .iter()
        .position(|f| !f.t.grounded)
        .expect("never left the platform");
    assert!(
        pos(&frames[off]).x > 10.4 - 0.1 && frames[off].events.contains(&MoveEvent::LeftGround)
    );
    assert!(
        frames[off].t.vel[1] == 0.0,
        "launched off the end at an angle: {:?}",
        frames[off].t.vel
    );
    let last = frames.last().unwrap();
    assert!(
        last.t.pos[0] > 24.5 && last.t.pos[1] == 0.0 && last.t.grounded,
        "blocked by the one-way block's side: {:?}",
        last.t.pos
    );
}

/// Wall jumps up a 3 m wide, 12 m high shaft: a closed-loop policy presses into a wall, and jumps
/// away from it while sliding. The hero climbs out above 10 m.
#[test]
fn wall_jumps_climb_a_shaft() {
    let t = Tuning::default();
    let lvl = level(
        vec![
            rect(-5.0, -1.0, 10.0, 0.0),
            rect(0.0, 0.0, 1.0, 12.0),
            rect(4.0, 0.0, 5.0, 12.0),
        ],
        vec![],
        p(2.5, 0.0),
    );
    let frames = run_policy(&lvl, &t, 900, |w| {
        let h = w.hero();
        match h.state {
            tessera::movement::MoveState::WallSlide { normal_x } => jump(normal_x),
            _ if h.grounded() => jump(1.0),
            _ => tessera::movement::Actions {
                jump: true,
                ..mv(if h.vel.x >= 0.0 { 1.0 } else { -1.0 }, 0.0)
            },
        }
    });
    let jumps = frames
        .iter()
        .filter(|f| f.events.contains(&MoveEvent::WallJumped))
        .count();
    let top = frames.iter().map(|f| f.t.pos[1]).fold(f64::MIN, f64::max);
    assert!(jumps >= 3, "only {jumps} wall jumps");
    assert!(top > 10.0, "only reached {top} m");
    assert!(frames.iter().any(|f| f.t.state == "wall_slide"));
}

/// Climb a ladder through a one-way floor and step off at the top onto it.
#[test]
fn climb_ladder_and_step_off_at_the_top() {
    let t = Tuning::default();
    let lvl = level(
        vec![
            rect(-10.0, -1.0, 20.0, 0.0),
            one_way(&[(3.0, 4.0), (8.0, 4.0), (8.0, 4.3), (3.0, 4.3)]),
        ],
        vec![(p(4.0, 0.0), p(5.0, 4.3))],
        p(4.3, 0.0),
    );
    let mut script = hold(mv(0.0, 1.0), 150);
    script.extend(hold(mv(1.0, 0.0), 40));
    let frames = run(&lvl, &t, &script);
    assert!(frames[0].events.contains(&MoveEvent::GrabbedLadder));
    assert!(frames[1..100].iter().all(|f| f.t.state == "climbing"));
    let off = frames
        .iter()
        .position(|f| f.events.contains(&MoveEvent::LeftLadder))
        .expect("never stepped off");
    assert!(
        frames[off].t.grounded && (frames[off].t.pos[1] - 4.3).abs() < 1e-9,
        "{:?}",
        frames[off].t
    );
    let last = frames.last().unwrap();
    assert!(
        last.t.grounded && last.t.pos[1] == 4.3 && last.t.pos[0] > 5.5,
        "{:?}",
        last.t.pos
    );
}

/// Jump height: holding jump reaches `jump_height` (within the integration error of one tick);
/// releasing early cuts the rise; no second jump in the air.
#[test]
fn variable_jump_height_and_no_double_jump() {
    let t = Tuning::default();
    let lvl = level(vec![rect(-10.0, -1.0, 10.0, 0.0)], vec![], p(0.0, 0.0));
    let full = run(
        &lvl,
        &t,
        &hold(
            tessera::movement::Actions {
                jump: true,
                ..jump(0.0)
            },
            120,
        ),
    );
    let apex = full.iter().map(|f| f.t.pos[1]).fold(f64::MIN, f64::max);
    assert!((apex - t.jump_height).abs() < 0.15, "full jump apex {apex}");
    let mut script = hold(
        tessera::movement::Actions {
            jump: true,
            ..jump(0.0)
        },
        6,
    );
    script.extend(hold(mv(0.0, 0.0), 4));
    script.extend(hold(jump(0.0), 1)); // second press in the air: ignored
    script.extend(hold(mv(0.0, 0.0), 100));
    let short = run(&lvl, &t, &script);
    let short_apex = short.iter().map(|f| f.t.pos[1]).fold(f64::MIN, f64::max);
    assert!(
        short_apex < 0.5 * apex,
        "short hop apex {short_apex} vs {apex}"
    );
    assert_eq!(
        short
            .iter()
            .filter(|f| f
                .events
                .iter()
                .any(|e| matches!(e, MoveEvent::Jumped | MoveEvent::AirJumped)))
            .count(),
        1
    );
}

/// Coyote time: a jump pressed a few frames after running off a ledge still jumps. Jump buffer: a
/// press shortly before landing jumps on landing.
#[test]
fn coyote_time_and_jump_buffer() {
    let t = Tuning::default();
    let lvl = level(
        vec![
            rect(-10.0, -10.0, 5.0, 0.0),
            rect(-10.0, -11.0, 30.0, -10.0),
        ],
        vec![],
        p(3.0, 0.0),
    );
    let frames = run_policy(&lvl, &t, 120, |w| {
        let h = w.hero();
        // Press jump 4 ticks after leaving the ground.
        if !h.grounded() && h.ticks_in_state == 3 && w.frame() < 60 {
            jump(1.0)
        } else {
            mv(1.0, 0.0)
        }
    });
    assert!(
        frames.iter().any(|f| f.events.contains(&MoveEvent::Jumped)),
        "coyote jump failed"
    );

    // Buffer: fall from 3 m and press jump 5 ticks before landing.
    let lvl = level(vec![rect(-10.0, -1.0, 10.0, 0.0)], vec![], p(0.0, 3.0));
    let land = run(&lvl, &t, &hold(mv(0.0, 0.0), 120))
        .iter()
        .position(|f| f.t.grounded)
        .unwrap();
    let mut script = hold(mv(0.0, 0.0), land - 5);
    script.extend(hold(jump(0.0), 1));
    script.extend(hold(mv(0.0, 0.0), 30));
    let frames = run(&lvl, &t, &script);
    let jumped = frames
        .iter()
        .position(|f| f.events.contains(&MoveEvent::Jumped))
        .expect("buffered jump lost");
    assert!(
        jumped <= land + 1,
        "buffered jump at {jumped}, landing at {land}"
    );
}

/// Top-down mode (a level tuning override): no gravity, 8-way movement, walls still block.
#[test]
fn top_down_mode_moves_in_eight_directions() {
    let t = Tuning::default();
    let mut lvl = level(
        vec![rect(-10.0, -10.0, 10.0, -9.0), rect(5.0, -9.0, 6.0, 9.0)],
        vec![],
        p(0.0, 0.0),
    );
    lvl.tuning.top_down = Some(true);
    let mut script = hold(mv(0.0, 0.0), 60);
    script.extend(hold(mv(1.0, 1.0), 240));
    let frames = run(&lvl, &t, &script);
    assert!(
        frames[..60]
            .iter()
            .all(|f| f.t.pos == [0.0, 0.0] && f.t.state == "top_down"),
        "drifted without input"
    );
    let last = frames.last().unwrap();
    assert!(
        (last.t.pos[0] - (5.0 - 0.4)).abs() < 1e-9,
        "wall did not stop it: {:?}",
        last.t.pos
    );
    assert!(
        last.t.pos[1] > 3.0,
        "did not slide up along the wall: {:?}",
        last.t.pos
    );
}

/// A rough floor traced at a fine scale: a 12 m slab whose top is a zigzag of 2 400 teeth 0.2 mm
/// high, 5 mm apart, far below what the collider can feel. The collision core fills it to its
/// outer hull (`collision::filled_outline`, within `FILL_TOLERANCE`), so the hero runs across it
/// and back at full speed like a flat floor: never airborne, its feet on the teeth's tips (within
/// the tolerance), and never inside a tooth (the run's penetration check uses the original teeth).
#[test]
fn a_floor_of_fine_teeth_is_run_over_like_a_flat_floor() {
    let t = Tuning::default();
    let (len, teeth, depth) = (12.0, 2_400, 0.2e-3);
    let mut points = vec![p(0.0, -1.0), p(len, -1.0)];
    for i in 0..teeth {
        let x = len - (i as f64 + 0.5) * len / teeth as f64;
        points.push(p(x, if i % 2 == 0 { depth } else { 0.0 }));
    }
    let lvl = level(
        vec![tessera::level::LevelPolygon::solid(points)],
        vec![],
        p(1.0, 0.5),
    );
    let n = (9.0 / t.run_speed / DT) as usize;
    let mut script = hold(mv(0.0, 0.0), 60);
    script.extend(hold(mv(1.0, 0.0), n));
    script.extend(hold(mv(-1.0, 0.0), n));
    let frames = run(&lvl, &t, &script);
    for f in &frames[60..] {
        assert!(
            f.t.grounded && f.t.state == "supported",
            "frame {}: {} over the fine teeth",
            f.t.frame,
            f.t.state
        );
        let y = f.t.pos[1];
        assert!(
            (0.0..=depth + tessera::collision::FILL_TOLERANCE).contains(&y),
            "frame {}: feet at {y} m, not on the teeth",
            f.t.frame
        );
    }
    assert!(pos(&frames[60 + n - 1]).x > 8.0, "ran right");
    assert!(pos(frames.last().unwrap()).x < 2.0, "ran back");
}
