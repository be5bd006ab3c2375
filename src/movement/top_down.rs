//! Top-down mode: no gravity, 8-way movement with the same move-and-slide (seed 000's game).
use super::character::Hero;
use super::rules::{self, Ctx, Transition};
use super::state::{MoveState, StepReport};
use crate::collision::MoveResult;

/// One top-down tick: accelerate towards the requested direction, move, slide, lose the velocity
/// into whatever was hit.
pub(crate) fn step(h: &mut Hero, cx: &Ctx, rep: &mut StepReport) -> Transition {
    let (a, t) = (cx.a, cx.t);
    let dir = if a.move_axis.length() > 1.0 {
        a.move_axis.normalize()
    } else {
        a.move_axis
    };
    let target = dir * t.top_down_speed;
    let delta = target - h.vel;
    let max_step = t.top_down_accel * cx.dt;
    let mut v = if delta.length() <= max_step {
        target
    } else {
        h.vel + delta.normalize() * max_step
    };
    let mut r = MoveResult::at(h.body);
    let hit = h.slide(cx.env, v * cx.dt, h.move_options(), rep, &mut r);
    rules::absorb_contacts(&mut v, &mut h.jump_rising, &r.contacts, rep);
    rules::absorb_mover(&mut v, &mut h.jump_rising, hit, rep);
    Transition::to(MoveState::TopDown, v)
}
