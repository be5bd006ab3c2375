//! The climbing state: holding a ladder (a climbable rectangle from the level).
//!
//! The feet must be inside the rectangle to grab it (up, or down where it continues below). While
//! climbing, the hero moves vertically at `climb_speed` and is drawn to the ladder's centre line;
//! one-way platforms are passable (ladders usually lead through them). Reaching the top with ground
//! under the feet steps off onto it; reaching ground while climbing down steps off too; jump lets go.
use glam::DVec2;

use super::character::{Change, Hero};
use super::rules::{self, walkable, walkable_support, Ctx, Transition};
use super::state::{MoveEvent, MoveState, StepReport};
use crate::collision::{MoveOptions, MoveResult};

pub use super::rules::{ladder_at, RUNG_SPACING};

/// How far above a ladder's top (m) the feet are lifted to step off onto the ground there.
pub const TOP_STEP: f64 = 0.01;

/// One climbing tick on ladder `ladder`.
pub(crate) fn step(h: &mut Hero, cx: &Ctx, ladder: usize, rep: &mut StepReport) -> Transition {
    let (a, t, dt) = (cx.a, cx.t, cx.dt);
    let mesh = cx.env.mesh(h.collider);
    let Some(l) = cx.env.ladders.get(ladder).copied() else {
        return Transition::to(MoveState::Airborne, h.vel);
    };
    if h.timers.jump_buffer > 0.0 {
        rep.events.push(MoveEvent::LeftLadder);
        let vel = rules::jump(h, DVec2::new(a.move_axis.x * t.run_speed, 0.0), t, rep);
        return Transition::to(MoveState::Airborne, vel);
    }
    let centre = 0.5 * (l.min.x + l.max.x);
    let dx = (centre - h.body.pos.x).clamp(-t.climb_speed * dt, t.climb_speed * dt);
    let mut dy = a.move_axis.y * t.climb_speed * dt;
    // Never climb above the top: the feet stop at the ladder's top edge.
    dy = dy.min(l.max.y - h.body.pos.y).max(l.min.y - h.body.pos.y);
    let mut r = MoveResult::at(h.body);
    h.slide(
        cx.env,
        DVec2::new(dx, dy),
        MoveOptions { pass_one_way: true },
        rep,
        &mut r,
    );
    let vel = DVec2::new(0.0, dy / dt);
    let climbing = MoveState::Climbing { ladder };

    let at_top = h.body.pos.y >= l.max.y - 1e-9;
    let at_bottom = h.body.pos.y <= l.min.y + 1e-9;
    if at_top && a.move_axis.y > 0.0 {
        // Step off at the top: lift the feet just above the ladder's top (through a one-way floor
        // the ladder leads through), then settle down onto whatever ground is there.
        let lift = l.max.y + TOP_STEP - h.body.pos.y;
        let up = mesh.move_and_slide(
            h.body,
            DVec2::new(0.0, lift),
            MoveOptions { pass_one_way: true },
        );
        let down = mesh.cast(
            up.body,
            DVec2::new(0.0, -2.0 * TOP_STEP),
            MoveOptions::default(),
        );
        let ground = down
            .contacts
            .first()
            .filter(|c| walkable(c.normal, h.walk_limit));
        if let Some(c) = ground {
            h.apply(Change::Move(down.body));
            rep.events.push(MoveEvent::LeftLadder);
            let on = MoveState::Supported {
                edge: c.edge,
                speed: 0.0,
            };
            return Transition::to(on, DVec2::ZERO);
        }
        return Transition::to(climbing, vel);
    }
    let ground = walkable_support(mesh, h.body, MoveOptions::default(), h.walk_limit);
    let blocked_below = a.move_axis.y < 0.0 && r.travelled < dy.abs() - 1e-9;
    if blocked_below || at_bottom && a.move_axis.y < 0.0 {
        rep.events.push(MoveEvent::LeftLadder);
        let next = match ground {
            Some(edge) => MoveState::Supported { edge, speed: 0.0 },
            None => MoveState::Airborne,
        };
        return Transition::to(next, DVec2::ZERO);
    }
    if ladder_at(cx.env.ladders, h.body.pos).is_none() {
        rep.events.push(MoveEvent::LeftLadder);
        return Transition::to(MoveState::Airborne, vel);
    }
    Transition::to(climbing, vel)
}
