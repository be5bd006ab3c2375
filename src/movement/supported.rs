//! The supported state: walking along a chain of blocking edges.
//!
//! The hero is attached to one edge and its velocity is a signed speed along that edge. Moving
//! walks the edge chain explicitly: up to the end vertex, then [`CollisionMesh::next_boundary_edge`]
//! gives the edge that continues the ground there, and the hero is handed over with its speed
//! unchanged. So seams between tiles, concave joints and gentle convex joints cost no airborne
//! frame and no speed.
//!
//! Rules at a joint (edges seen in the direction of travel):
//! - next edge walkable (slope ≤ `max_slope_deg`) and turning up (concave) or straight: hand over;
//! - walkable and turning down (convex) by at most the followable angle: hand over; more: launch;
//! - too steep and turning up: it is a wall: stop at the joint (speed 0);
//! - too steep and turning down (a ledge), or no edge: launch into the air with the current velocity.
//!
//! Speed along slopes: the target speed (`run_speed`, `crouch_speed`) is the speed *along the
//! surface*, the same on every walkable slope, so a slope takes the same time per metre of
//! surface in both directions. The followable turn-down angle is `max_follow_turn_deg` up to
//! `run_speed`, shrinking with the square of the speed above it (faster heroes fly off crests).
use glam::DVec2;

use super::actions::Actions;
use super::airborne;
use super::climbing::ladder_at;
use super::env::Env;
use super::hero::{approach, Hero};
use super::state::{MoveEvent, MoveState, StepReport};
use super::tuning::Tuning;
use crate::collision::{cross, CollisionMesh, EdgeRef, MoveResult};

/// Most edges one tick may walk across (a bound; ticks cover a few edges at most).
const MAX_EDGES_PER_TICK: usize = 256;
/// How long one-way platforms stay passable after a drop-through, s.
pub const DROP_THROUGH_TIME: f64 = 0.2;

/// Unit direction of an edge (free space on its left).
#[inline]
pub(crate) fn edge_dir(mesh: &CollisionMesh, e: EdgeRef) -> DVec2 {
    let (a, b) = mesh.edge_points(e);
    (b - a).normalize_or_zero()
}

/// The smallest normal `y` of a walkable edge under the tuning's max slope (less 1e-12, so an
/// edge at exactly the max slope counts as walkable despite rounding).
pub(crate) fn min_walk_normal_y(t: &Tuning) -> f64 {
    t.max_slope_deg.to_radians().cos() - 1e-12
}

/// Whether an edge normal is walkable, given [`min_walk_normal_y`] (the hero caches it).
#[inline]
pub(crate) fn walkable(normal: DVec2, min_normal_y: f64) -> bool {
    normal.y >= min_normal_y
}

/// One supported tick.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step(
    h: &mut Hero,
    env: &Env,
    a: &Actions,
    t: &Tuning,
    dt: f64,
    edge: EdgeRef,
    speed: f64,
    rep: &mut StepReport,
) {
    let mesh = env.mesh(h.collider);
    h.air_jumps_left = t.air_jumps;
    h.jump_rising = false;

    if let Some(i) = ladder_at(env.ladders, h.body.pos) {
        let l = env.ladders[i];
        let up = a.move_axis.y > 0.5 && h.body.pos.y < l.max.y - 1e-6;
        let down = a.move_axis.y < -0.5 && h.body.pos.y > l.min.y + 1e-6 && !a.jump_pressed;
        if (up || down) && !h.crouching() {
            h.state = MoveState::Climbing { ladder: i };
            h.vel = DVec2::ZERO;
            rep.events.push(MoveEvent::GrabbedLadder);
            return;
        }
    }
    if h.timers.jump_buffer > 0.0 {
        h.vel = edge_dir(mesh, edge) * speed;
        if a.move_axis.y < -0.5 && mesh.is_one_way_top(edge) {
            h.timers.drop_through = DROP_THROUGH_TIME;
            h.timers.jump_buffer = 0.0;
            h.state = MoveState::Airborne;
            rep.events.push(MoveEvent::DroppedThrough);
        } else {
            h.jump(t, rep);
        }
        airborne::step(h, env, a, t, dt, rep);
        return;
    }

    let max = if h.crouching() {
        t.crouch_speed
    } else {
        t.run_speed
    };
    let target = a.move_axis.x * max;
    let s = if target != 0.0 {
        let accel = if target * speed < 0.0 {
            t.ground_accel + t.ground_friction
        } else {
            t.ground_accel
        };
        approach(speed, target, accel * dt)
    } else {
        approach(speed, 0.0, t.ground_friction * dt)
    };
    walk_chain(h, env, t, dt, edge, s, rep);
}

/// Walks `speed * dt` along the edge chain starting at `edge`, handing over at joints.
#[allow(clippy::too_many_arguments)]
fn walk_chain(
    h: &mut Hero,
    env: &Env,
    t: &Tuning,
    dt: f64,
    edge: EdgeRef,
    speed: f64,
    rep: &mut StepReport,
) {
    let mesh = env.mesh(h.collider);
    let opts = h.move_options();
    let forward = speed > 0.0;
    let mut rem = speed.abs() * dt;
    let mut e = edge;
    // The unit direction of `e`, kept across the loop: bit-identical to `edge_dir` (negating a
    // vector commutes with normalising it), and one normalisation per tick fewer.
    let mut dir = edge_dir(mesh, e);
    let mut s = speed;
    let mut r = MoveResult::at(h.body);
    for _ in 0..MAX_EDGES_PER_TICK {
        let (ea, eb) = mesh.edge_points(e);
        let (end, d1) = if forward { (eb, dir) } else { (ea, -dir) };
        if rem <= 0.0 {
            break;
        }
        let to_end = (end - h.body.pos).dot(d1).max(0.0);
        if rem <= to_end {
            h.slide(mesh, d1 * rem, opts, rep, &mut r);
            if r.travelled < rem - 1e-9 {
                // Something other than the ground (a low ceiling, a wall piece) stopped the walk.
                s = 0.0;
            }
            break;
        }
        h.slide(mesh, end - h.body.pos, opts, rep, &mut r);
        if h.body.pos.distance(end) > 1e-9 {
            s = 0.0;
            break;
        }
        rem -= to_end;
        let next = mesh.next_boundary_edge(e, forward, opts);
        let Some(n) = next else {
            launch(h, env, t, d1 * s.abs(), rem, rep);
            return;
        };
        let nn = mesh.edge_normal(n);
        let (na, nb) = mesh.edge_points(n);
        let d2 = if forward {
            (nb - na).normalize_or_zero()
        } else {
            (na - nb).normalize_or_zero()
        };
        // In the boundary's own orientation a left turn is concave (towards the free side).
        let turn = if forward {
            cross(d1, d2)
        } else {
            -cross(d1, d2)
        };
        let concave = turn > 0.0;
        if walkable(nn, h.walk_limit) {
            // A straight joint (a seam between tiles) needs no angle.
            if !concave && d1.dot(d2) < 1.0 {
                let angle = d1.dot(d2).clamp(-1.0, 1.0).acos();
                let allowed = t.max_follow_turn_deg.to_radians()
                    * (t.run_speed / s.abs().max(t.run_speed)).powi(2);
                if angle > allowed + 1e-12 {
                    launch(h, env, t, d1 * s.abs(), rem, rep);
                    return;
                }
            }
            // Re-seat the body in the new edge's face at the shared vertex (exactly a vertex of that
            // face): the next move starts inside the right face, not across the old edge's line.
            h.body = crate::collision::Body {
                pos: if forward { na } else { nb },
                face: n.face,
            };
            e = n;
            dir = if forward { d2 } else { -d2 };
        } else if concave {
            if s != 0.0 && h.ticks_in_state > 0 && h.vel != DVec2::ZERO {
                rep.events.push(MoveEvent::Blocked {
                    normal: [nn.x, nn.y],
                });
            }
            s = 0.0;
            break;
        } else {
            launch(h, env, t, d1 * s.abs(), rem, rep);
            return;
        }
    }
    h.state = MoveState::Supported { edge: e, speed: s };
    h.vel = dir * s;
}

/// Leaves the ground without a jump (off a ledge or over a sharp crest): coyote time starts and the
/// rest of the tick's distance is flown.
fn launch(h: &mut Hero, env: &Env, t: &Tuning, vel: DVec2, rem: f64, rep: &mut StepReport) {
    let mesh = env.mesh(h.collider);
    h.state = MoveState::Airborne;
    h.vel = vel;
    h.timers.coyote = t.coyote_time;
    rep.events.push(MoveEvent::LeftGround);
    let len = vel.length();
    if rem > 0.0 && len > 0.0 {
        let mut r = MoveResult::at(h.body);
        h.slide(mesh, vel / len * rem, h.move_options(), rep, &mut r);
        airborne::absorb_contacts(h, &r.contacts, rep);
    }
}
