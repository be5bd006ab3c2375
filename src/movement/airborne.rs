//! The airborne state (and its wall-slide variant): gravity, air control, jumps in the air,
//! contacts, landing.
//!
//! Hitting an edge removes the velocity component into it and nothing else, so a ceiling bonk
//! zeroes the upward speed without sticking, and a wall keeps the fall going. Touching a walkable
//! edge while not rising lands: the hero becomes supported on that edge, keeping its horizontal
//! speed as its speed along the surface.
use glam::DVec2;

use super::actions::Actions;
use super::climbing::ladder_at;
use super::env::Env;
use super::hero::{approach, Hero};
use super::state::{MoveEvent, MoveState, StepReport};
use super::supported::walkable;
use super::tuning::Tuning;
use crate::collision::{Body, CollisionMesh, Contact, MoveOptions, MoveResult};

/// How far sideways (m) a wall is looked for while pressing towards it.
pub const WALL_PROBE: f64 = 0.02;
/// Air drag without horizontal input, as a fraction of `air_accel`.
pub const AIR_DRAG_FRACTION: f64 = 0.5;

/// One airborne (or wall-slide) tick.
pub(crate) fn step(
    h: &mut Hero,
    env: &Env,
    a: &Actions,
    t: &Tuning,
    dt: f64,
    rep: &mut StepReport,
) {
    let mesh = env.mesh(h.collider);
    if a.move_axis.y.abs() > 0.5 && !h.crouching() && h.timers.drop_through <= 0.0 {
        if let Some(i) = ladder_at(env.ladders, h.body.pos) {
            h.state = MoveState::Climbing { ladder: i };
            h.vel = DVec2::ZERO;
            h.jump_rising = false;
            rep.events.push(MoveEvent::GrabbedLadder);
            return;
        }
    }
    if h.timers.jump_buffer > 0.0 {
        if h.timers.coyote > 0.0 {
            h.jump(t, rep);
        } else if h.timers.wall_coyote > 0.0 {
            h.vel = DVec2::new(h.wall_normal_x * t.wall_jump_speed_x, t.wall_jump_speed_y);
            h.timers.wall_jump_lock = t.wall_jump_lock;
            h.timers.wall_coyote = 0.0;
            h.timers.jump_buffer = 0.0;
            h.jump_rising = true;
            h.state = MoveState::Airborne;
            rep.events.push(MoveEvent::WallJumped);
        } else if h.air_jumps_left > 0 && h.ticks_in_state > 0 {
            h.air_jumps_left -= 1;
            h.vel.y = (2.0 * t.gravity * t.jump_height).sqrt();
            h.jump_rising = true;
            h.timers.jump_buffer = 0.0;
            rep.events.push(MoveEvent::AirJumped);
        }
    }

    // Air control.
    let max = if h.crouching() {
        t.crouch_speed
    } else {
        t.run_speed
    };
    let target = a.move_axis.x * max;
    let locked = h.timers.wall_jump_lock > 0.0 && target * h.wall_normal_x < 0.0;
    if target != 0.0 && !locked {
        let faster_same_way = h.vel.x * target > 0.0 && h.vel.x.abs() > target.abs();
        if !faster_same_way {
            h.vel.x = approach(h.vel.x, target, t.air_accel * dt);
        }
    } else if target == 0.0 {
        h.vel.x = approach(h.vel.x, 0.0, t.air_accel * AIR_DRAG_FRACTION * dt);
    }

    // Variable jump height: releasing early cuts the rise.
    if h.jump_rising && !a.jump && h.vel.y > 0.0 {
        h.vel.y *= t.jump_cut;
        h.jump_rising = false;
    }
    if h.vel.y <= 0.0 {
        h.jump_rising = false;
    }
    h.vel.y = (h.vel.y - t.gravity * dt).max(-t.max_fall_speed);

    // Wall slide: falling while pressing into a wall steeper than the max slope (probed only
    // while falling: a ray cast is as dear as the move itself).
    let opts = h.move_options();
    let wall = if h.vel.y < 0.0 {
        pressed_wall(mesh, h.body, a, h.walk_limit, opts)
    } else {
        None
    };
    match wall {
        Some(nx) => {
            h.vel.y = h.vel.y.max(-t.wall_slide_speed);
            if !matches!(h.state, MoveState::WallSlide { .. }) {
                rep.events.push(MoveEvent::WallSlideStarted);
            }
            h.state = MoveState::WallSlide { normal_x: nx };
            h.wall_normal_x = nx;
            h.timers.wall_coyote = t.coyote_time;
        }
        _ => h.state = MoveState::Airborne,
    }

    let vel_before = h.vel;
    let mut r = MoveResult::at(h.body);
    h.slide(mesh, h.vel * dt, opts, rep, &mut r);
    let landing = absorb_contacts(h, &r.contacts, rep);
    if let Some(c) = landing.filter(|c| walkable(c.normal, h.walk_limit) && vel_before.y <= 0.0) {
        h.state = MoveState::Supported {
            edge: c.edge,
            speed: vel_before.x,
        };
        h.vel = super::supported::edge_dir(mesh, c.edge) * vel_before.x;
        h.air_jumps_left = t.air_jumps;
        h.timers.coyote = 0.0;
        rep.events.push(MoveEvent::Landed {
            impact_speed: -vel_before.y,
            surface: c.source,
        });
    }
}

/// Removes the velocity into each contact; returns the last contact with an upward normal (a
/// landing candidate). A contact from above while rising is a bonk.
pub(crate) fn absorb_contacts(
    h: &mut Hero,
    contacts: &[Contact],
    rep: &mut StepReport,
) -> Option<Contact> {
    let mut ground = None;
    for c in contacts {
        let vn = h.vel.dot(c.normal);
        if vn < 0.0 {
            if c.normal.y < -0.5 && h.vel.y > 0.0 {
                rep.events.push(MoveEvent::Bonked);
                h.jump_rising = false;
            }
            h.vel -= c.normal * vn;
        }
        if c.normal.y > 0.0 {
            ground = Some(*c);
        }
    }
    ground
}

/// The sign of the normal of a wall the hero presses into (moving towards it), if touching one.
fn pressed_wall(
    mesh: &CollisionMesh,
    body: Body,
    a: &Actions,
    min_normal_y: f64,
    opts: MoveOptions,
) -> Option<f64> {
    if a.move_axis.x == 0.0 {
        return None;
    }
    let dir = a.move_axis.x.signum();
    let hit = mesh.ray_cast(body, DVec2::new(dir * WALL_PROBE, 0.0), opts)?;
    let n = hit.normal;
    (!walkable(n, min_normal_y) && n.y > -0.5 && n.x * dir < 0.0).then_some(n.x.signum())
}
