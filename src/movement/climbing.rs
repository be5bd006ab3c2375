//! The climbing state: holding a ladder (a climbable rectangle from the level).
//!
//! The feet must be inside the rectangle to grab it (up, or down where it continues below). While
//! climbing, the hero moves vertically at `climb_speed` and is drawn to the ladder's centre line;
//! one-way platforms are passable (ladders usually lead through them). Reaching the top with ground
//! under the feet steps off onto it; reaching ground while climbing down steps off too; jump lets go.
use glam::DVec2;

use super::actions::Actions;
use super::env::Env;
use super::hero::{walkable_support, Hero};
use super::state::{MoveEvent, MoveState, StepReport};
use super::supported::walkable;
use super::tuning::Tuning;
use crate::collision::{Aabb, MoveOptions, MoveResult};

/// Distance between a ladder's rungs, m: where the renderer draws them, and the climb travel
/// between two [`MoveEvent::LadderRung`] events. 0.35 m (a usual rung pitch is 0.25 to 0.35 m;
/// the top of the range reads better at the game's scale).
pub const RUNG_SPACING: f64 = 0.35;
/// How far above a ladder's top (m) the feet are lifted to step off onto the ground there.
pub const TOP_STEP: f64 = 0.01;

/// The first ladder containing the feet `p`.
pub fn ladder_at(ladders: &[Aabb], p: DVec2) -> Option<usize> {
    ladders.iter().position(|l| l.contains(p))
}

/// One climbing tick.
pub(crate) fn step(
    h: &mut Hero,
    env: &Env,
    a: &Actions,
    t: &Tuning,
    dt: f64,
    ladder: usize,
    rep: &mut StepReport,
) {
    let mesh = env.mesh(h.collider);
    let Some(l) = env.ladders.get(ladder).copied() else {
        h.state = MoveState::Airborne;
        return;
    };
    if h.timers.jump_buffer > 0.0 {
        rep.events.push(MoveEvent::LeftLadder);
        h.vel = DVec2::new(a.move_axis.x * t.run_speed, 0.0);
        h.jump(t, rep);
        return;
    }
    let centre = 0.5 * (l.min.x + l.max.x);
    let dx = (centre - h.body.pos.x).clamp(-t.climb_speed * dt, t.climb_speed * dt);
    let mut dy = a.move_axis.y * t.climb_speed * dt;
    // Never climb above the top: the feet stop at the ladder's top edge.
    dy = dy.min(l.max.y - h.body.pos.y).max(l.min.y - h.body.pos.y);
    let mut r = MoveResult::at(h.body);
    h.slide(
        mesh,
        DVec2::new(dx, dy),
        MoveOptions { pass_one_way: true },
        rep,
        &mut r,
    );
    h.vel = DVec2::new(0.0, dy / dt);

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
            h.body = down.body;
            h.state = MoveState::Supported {
                edge: c.edge,
                speed: 0.0,
            };
            h.vel = DVec2::ZERO;
            rep.events.push(MoveEvent::LeftLadder);
        }
        return;
    }
    let ground = walkable_support(mesh, h.body, MoveOptions::default(), t);
    let blocked_below = a.move_axis.y < 0.0 && r.travelled < dy.abs() - 1e-9;
    if blocked_below || at_bottom && a.move_axis.y < 0.0 {
        rep.events.push(MoveEvent::LeftLadder);
        h.vel = DVec2::ZERO;
        h.state = match ground {
            Some(edge) => MoveState::Supported { edge, speed: 0.0 },
            None => MoveState::Airborne,
        };
    } else if ladder_at(env.ladders, h.body.pos).is_none() {
        rep.events.push(MoveEvent::LeftLadder);
        h.state = MoveState::Airborne;
    }
}
