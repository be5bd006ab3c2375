//! The airborne state (and its wall-slide variant): gravity, air control, jumps in the air,
//! contacts, landing.
//!
//! Hitting an edge removes the velocity component into it and nothing else, so a ceiling bonk
//! zeroes the upward speed without sticking, and a wall keeps the fall going. Touching a walkable
//! edge while not rising lands: the hero becomes supported on that edge, keeping its horizontal
//! speed as its speed along the surface.
//!
//! A wall slide starts on a static wall or on a solid mover's side (pressed into, within
//! [`WALL_PROBE`]); a wall jump off a mover adds its velocity (`rules::inherited_velocity`, the
//! momentum caps applied), as a jump off its top does.
use glam::DVec2;

use super::actions::Actions;
use super::character::Hero;
use super::rules::{self, approach, walkable, Ctx, Transition};
use super::state::{MoveEvent, MoveState, StepReport};
use crate::collision::{MoveOptions, MoveResult};

/// How far sideways (m) a wall is looked for while pressing towards it.
pub const WALL_PROBE: f64 = 0.02;
/// Air drag without horizontal input, as a fraction of `air_accel`.
pub const AIR_DRAG_FRACTION: f64 = 0.5;

/// One airborne tick; `sliding`: the tick starts in a wall slide. `carried`: how far a mover
/// already moved the character this tick, taken off this tick's move (the take-off tick off a
/// mover, or a rider the carry left in the air: `sim::movers`; zero otherwise), so the tick's
/// whole displacement is the velocity the step ends with times the tick.
pub(crate) fn step(
    h: &mut Hero,
    cx: &Ctx,
    sliding: bool,
    carried: DVec2,
    rep: &mut StepReport,
) -> Transition {
    let (a, t, dt) = (cx.a, cx.t, cx.dt);
    let mesh = cx.env.mesh(h.collider);
    if let Some(i) = rules::ladder_to_grab(h, cx) {
        return rules::grab_ladder(h, i, rep);
    }
    let mut v = h.vel;
    // Whether the tick is still in a wall slide: a jump off the wall (or out of coyote time)
    // ends it, so a slide that starts again this tick is announced again.
    let mut sliding = sliding;
    if h.timers.jump_buffer > 0.0 {
        if h.timers.coyote > 0.0 {
            v = rules::jump(h, v, t, rep);
            sliding = false;
        } else if h.timers.wall_coyote > 0.0 {
            v = DVec2::new(h.wall_normal_x * t.wall_jump_speed_x, t.wall_jump_speed_y);
            if let Some(m) = h.wall_mover {
                // Off a moving wall: its velocity too (clamped by the momentum caps).
                v += rules::inherited_velocity(cx.env, m, h.body.pos, t, dt);
            }
            h.timers.wall_jump_lock = t.wall_jump_lock;
            h.timers.wall_coyote = 0.0;
            h.timers.jump_buffer = 0.0;
            h.jump_rising = true;
            sliding = false;
            rep.events.push(MoveEvent::WallJumped);
        } else if h.air_jumps_left > 0 && h.ticks_in_state > 0 {
            h.air_jumps_left -= 1;
            v.y = (2.0 * t.gravity * t.jump_height).sqrt();
            h.jump_rising = true;
            h.timers.jump_buffer = 0.0;
            rep.events.push(MoveEvent::AirJumped);
        }
    }

    // Air control.
    let target = a.move_axis.x * rules::top_speed(h, t);
    let locked = h.timers.wall_jump_lock > 0.0 && target * h.wall_normal_x < 0.0;
    if target != 0.0 && !locked {
        let faster_same_way = v.x * target > 0.0 && v.x.abs() > target.abs();
        if !faster_same_way {
            v.x = approach(v.x, target, t.air_accel * dt);
        }
    } else if target == 0.0 {
        v.x = approach(v.x, 0.0, t.air_accel * AIR_DRAG_FRACTION * dt);
    }

    // Variable jump height: releasing early cuts the rise.
    if h.jump_rising && !a.jump && v.y > 0.0 {
        v.y *= t.jump_cut;
        h.jump_rising = false;
    }
    if v.y <= 0.0 {
        h.jump_rising = false;
    }
    v.y = (v.y - t.gravity * dt).max(-t.max_fall_speed);

    // Wall slide: falling while pressing into a wall steeper than the max slope (probed only
    // while falling: a ray cast is as dear as the move itself).
    let opts = h.move_options();
    let wall = if v.y < 0.0 {
        pressed_wall(h, cx, a, opts)
    } else {
        None
    };
    let next = match wall {
        Some((nx, mover)) => {
            h.wall_mover = mover;
            v.y = v.y.max(-t.wall_slide_speed);
            if !sliding {
                rep.events.push(MoveEvent::WallSlideStarted);
            }
            h.wall_normal_x = nx;
            h.timers.wall_coyote = t.coyote_time;
            MoveState::WallSlide { normal_x: nx }
        }
        None => MoveState::Airborne,
    };

    let vel_before = v;
    let mut r = MoveResult::at(h.body);
    let hit = h.slide(cx.env, v * dt - carried, opts, rep, &mut r);
    let landing = rules::absorb_contacts(&mut v, &mut h.jump_rising, &r.contacts, rep);
    if let Some(m) = hit {
        if walkable(m.normal, h.walk_limit) && vel_before.y <= 0.0 {
            // Landed on a mover: it carries the hero from the next tick.
            if let Some((riding, vel)) = rules::mover_support(h, cx, vel_before) {
                h.air_jumps_left = t.air_jumps;
                h.timers.coyote = 0.0;
                rep.events.push(MoveEvent::Landed {
                    impact_speed: -vel_before.y,
                    surface: None,
                });
                rep.events.push(MoveEvent::Boarded { mover: m.at.mover });
                return Transition::to(riding, vel);
            }
        }
        rules::absorb_mover(&mut v, &mut h.jump_rising, hit, rep);
    }
    if let Some(c) = landing.filter(|c| walkable(c.normal, h.walk_limit) && vel_before.y <= 0.0) {
        h.air_jumps_left = t.air_jumps;
        h.timers.coyote = 0.0;
        rep.events.push(MoveEvent::Landed {
            impact_speed: -vel_before.y,
            surface: c.source,
        });
        return Transition::to(
            MoveState::Supported {
                edge: c.edge,
                speed: vel_before.x,
            },
            rules::edge_dir(mesh, c.edge) * vel_before.x,
        );
    }
    Transition::to(next, v)
}

/// The sign of the normal of a wall the hero presses into (moving towards it), if touching one
/// within [`WALL_PROBE`]: a static wall, else a solid mover's side (and which mover; one-way
/// movers have no sides to slide on).
fn pressed_wall(h: &Hero, cx: &Ctx, a: &Actions, opts: MoveOptions) -> Option<(f64, Option<u32>)> {
    if a.move_axis.x == 0.0 {
        return None;
    }
    let dir = a.move_axis.x.signum();
    let probe = DVec2::new(dir * WALL_PROBE, 0.0);
    // Steep, not a ceiling, and facing the way pressed.
    let wall = |n: DVec2| !walkable(n, h.walk_limit) && n.y > -0.5 && n.x * dir < 0.0;
    if let Some(hit) = cx.env.mesh(h.collider).ray_cast(h.body, probe, opts) {
        if wall(hit.normal) {
            return Some((hit.normal.x.signum(), None));
        }
    }
    let c = h.collider.0 as usize;
    let hit = cx
        .env
        .movers
        .first_hit(c, h.body.pos, probe, h.riding_piece(), opts.pass_one_way)?;
    wall(hit.normal).then_some((hit.normal.x.signum(), Some(hit.at.mover)))
}
