//! Top-down mode: no gravity, 8-way movement with the same move-and-slide (seed 000's game).
use super::actions::Actions;
use super::airborne::absorb_contacts;
use super::env::Env;
use super::hero::Hero;
use super::state::StepReport;
use super::tuning::Tuning;
use crate::collision::MoveResult;

/// One top-down tick: accelerate towards the requested direction, move, slide, lose the velocity
/// into whatever was hit.
pub(crate) fn step(
    h: &mut Hero,
    env: &Env,
    a: &Actions,
    t: &Tuning,
    dt: f64,
    rep: &mut StepReport,
) {
    let mesh = env.mesh(h.collider);
    let dir = if a.move_axis.length() > 1.0 {
        a.move_axis.normalize()
    } else {
        a.move_axis
    };
    let target = dir * t.top_down_speed;
    let delta = target - h.vel;
    let max_step = t.top_down_accel * dt;
    h.vel = if delta.length() <= max_step {
        target
    } else {
        h.vel + delta.normalize() * max_step
    };
    let mut r = MoveResult::at(h.body);
    h.slide(mesh, h.vel * dt, h.move_options(), rep, &mut r);
    absorb_contacts(h, &r.contacts, rep);
}
