//! What the movement states share, written once, below them: the step context, the
//! [`Transition`] a state returns, and the rules more than one state applies (walkable ground,
//! jumps, dropping through a one-way floor, following a turn of the ground, landing on a mover,
//! grabbing a ladder, losing the velocity into contacts). The simulation's movers apply some of
//! them too (`sim::movers` lands a pushed character on a mover by [`board`]).
//!
//! # The state machine's shape
//! Each state (`supported`, `riding`, `airborne`, `climbing`, `top_down`) is one function from a
//! [`Ctx`] (the surroundings, this tick's actions, the tuning, the timestep) and the character's
//! memory to a [`Transition`]: the next state and the velocity, with the tick's events pushed to
//! the report. A state never assigns the character's body, state or velocity and never calls
//! another state: when the next state must also run in the same tick (a jump off the ground flies
//! the rest of the tick), it says so with [`Transition::reenter`], and the hero's step
//! (`hero.rs`) runs it. A state moves the body through the walk (`moves.rs`) or proposes a place
//! (`Change::Move`, a re-seat at a joint), both made by `Hero::apply` (`character.rs`), and
//! updates the character's timers and counters.
//!
//! # Must never depend on
//! The state files or `hero`: the states import this module and never each other, and this
//! module sees only the character's data (`character.rs`) below it (`tests/it/layering.rs`
//! checks both).
use glam::DVec2;

use super::actions::Actions;
use super::character::Hero;
use super::env::Env;
use super::state::{MoveEvent, MoveState, StepReport};

pub(crate) use super::state::Transition;
use super::tuning::Tuning;
use crate::collision::{Aabb, CollisionMesh, Contact, EdgeRef, MoveOptions, MoverEdge, MoverHit};

/// Distance between a ladder's rungs, m: where the renderer draws them, and the climb travel
/// between two [`MoveEvent::LadderRung`] events. 0.35 m (a usual rung pitch is 0.25 to 0.35 m;
/// the top of the range reads better at the game's scale).
pub const RUNG_SPACING: f64 = 0.35;
/// How far below the feet (m) the ground is looked for when (re)attaching to it.
pub const GROUND_PROBE: f64 = 0.02;
/// How far inside a ladder's top or bottom (m) the feet must be for climbing up or down to grab
/// it: at the top there is nothing to climb up to, at the bottom nothing to climb down to.
pub const LADDER_END_MARGIN: f64 = 1e-6;
/// How long one-way platforms (static or movers) stay passable after a drop-through, s.
pub const DROP_THROUGH_TIME: f64 = 0.2;

/// What a state's step reads: the surroundings, this tick's (sanitised) actions, the tuning and
/// the timestep.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a, 'e> {
    /// Meshes and ladders.
    pub env: &'a Env<'e>,
    /// This tick's actions, sanitised.
    pub a: &'a Actions,
    /// The tuning in effect.
    pub t: &'a Tuning,
    /// The timestep, s.
    pub dt: f64,
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

/// Unit direction of an edge (free space on its left).
#[inline]
pub(crate) fn edge_dir(mesh: &CollisionMesh, e: EdgeRef) -> DVec2 {
    let (a, b) = mesh.edge_points(e);
    (b - a).normalize_or_zero()
}

/// The walkable edge right below `body`, if any; `min_normal_y` is [`min_walk_normal_y`] (the
/// hero's cached `walk_limit`: a cosine per call was measurable, and an optimiser may hoist it
/// out of the state dispatch into every step).
pub(crate) fn walkable_support(
    mesh: &CollisionMesh,
    body: crate::collision::Body,
    opts: MoveOptions,
    min_normal_y: f64,
) -> Option<EdgeRef> {
    let s = mesh.support_below(body, GROUND_PROBE, opts)?;
    (walkable(s.normal, min_normal_y) && s.point.distance(body.pos) <= GROUND_PROBE)
        .then_some(s.edge)
}

/// The ground speed after this tick's acceleration or friction: towards the pressed direction's
/// top speed (turning adds friction to the acceleration), or towards rest with friction.
pub(crate) fn ground_speed(h: &Hero, cx: &Ctx, speed: f64) -> f64 {
    let t = cx.t;
    let target = cx.a.move_axis.x * top_speed(h, t);
    if target != 0.0 {
        let accel = if target * speed < 0.0 {
            t.ground_accel + t.ground_friction
        } else {
            t.ground_accel
        };
        approach(speed, target, accel * cx.dt)
    } else {
        approach(speed, 0.0, t.ground_friction * cx.dt)
    }
}

/// A mover's walkable edge right under the feet of `h` (within [`GROUND_PROBE`]): the state that
/// rides it, with `vel` (m/s, in the world) less the mover's velocity as the speed along the
/// edge, and the velocity that state has (relative to the mover); `None` when there is none.
pub(crate) fn mover_support(h: &Hero, cx: &Ctx, vel: DVec2) -> Option<(MoveState, DVec2)> {
    let movers = cx.env.movers;
    let c = h.collider.0 as usize;
    let pass = h.move_options().pass_one_way;
    let (on, _) = movers.support_below(c, h.body.pos, GROUND_PROBE, h.walk_limit, pass)?;
    let tr = board(h, cx.env, on, vel, cx.dt);
    Some((tr.next, tr.vel))
}

/// Landing on a mover: riding its edge `on` from where the feet of `h` are (kept in the mover's
/// frame), with `vel` (m/s, in the world) less the mover's velocity at the feet as the speed along
/// the edge, and the velocity that state has (relative to the mover). One rule for a fall onto a
/// mover, a step up onto one, a walk onto one off a ledge and a push up onto its top
/// (`sim::movers`).
pub(crate) fn board(h: &Hero, env: &Env, on: MoverEdge, vel: DVec2, dt: f64) -> Transition {
    let movers = env.movers;
    let dir = movers
        .piece(on, h.collider.0 as usize)
        .walk_dir(on.edge as usize);
    let speed = (vel - mover_velocity(env, on.mover, h.body.pos, dt)).dot(dir);
    let riding = MoveState::Riding {
        on,
        local: h.body.pos - movers.offset(on.mover),
        speed,
    };
    Transition::to(riding, dir * speed)
}

/// Whether a walk along the ground at `speed` (m/s, signed) follows a turn down from direction
/// `d1` to `d2` (unit vectors, in the direction of travel) rather than flying off it: the turn is
/// no sharper than `max_follow_turn_deg`, shrinking with the square of the speed above
/// `run_speed` (faster walkers fly off crests). One rule for the static ground and a mover's top.
pub(crate) fn follows_turn(t: &Tuning, d1: DVec2, d2: DVec2, speed: f64) -> bool {
    let angle = d1.dot(d2).clamp(-1.0, 1.0).acos();
    let allowed =
        t.max_follow_turn_deg.to_radians() * (t.run_speed / speed.abs().max(t.run_speed)).powi(2);
    angle <= allowed + 1e-12
}

/// Down and jump on a one-way floor (a static top or a mover): through it, into the air at `vel`
/// for the rest of the tick, one-way platforms passable for [`DROP_THROUGH_TIME`] and the jump
/// press spent.
pub(crate) fn drop_through(h: &mut Hero, vel: DVec2, rep: &mut StepReport) -> Transition {
    h.timers.drop_through = DROP_THROUGH_TIME;
    h.timers.jump_buffer = 0.0;
    rep.events.push(MoveEvent::DroppedThrough);
    Transition::reenter(MoveState::Airborne, vel)
}

/// Mover `m`'s velocity over the last tick (m/s) at the point `p` (the feet: a turning mover's
/// points move at different speeds): what a character boarding it walks relative to.
pub(crate) fn mover_velocity(env: &Env, m: u32, p: DVec2, dt: f64) -> DVec2 {
    env.movers.displacement(m, p) / dt
}

/// The velocity (m/s) a character leaving mover `m` from `p` (its feet) keeps: the mover's at the contact
/// (`Movers::carried`: within 0.1 s of a stop or a reversal, the one before it), each component
/// clamped to the tuning's `momentum_max_x`, `momentum_max_up` and `momentum_max_down`.
pub(crate) fn inherited_velocity(env: &Env, m: u32, p: DVec2, t: &Tuning, dt: f64) -> DVec2 {
    let v = env.movers.carried(m, p) / dt;
    DVec2::new(
        v.x.clamp(-t.momentum_max_x, t.momentum_max_x),
        v.y.clamp(-t.momentum_max_down, t.momentum_max_up),
    )
}

/// Moves `v` towards `target` by at most `step`.
pub(crate) fn approach(v: f64, target: f64, step: f64) -> f64 {
    if v < target {
        (v + step).min(target)
    } else {
        (v - step).max(target)
    }
}

/// The top speed for the collider in use (`run_speed`, or `crouch_speed` crouching).
pub(crate) fn top_speed(h: &Hero, t: &Tuning) -> f64 {
    if h.crouching() {
        t.crouch_speed
    } else {
        t.run_speed
    }
}

/// A jump (from the ground, a ladder or coyote time): `vel` with the vertical speed that reaches
/// `jump_height`; the jump button now controls the rise, the buffered press and coyote time are
/// spent. The caller's next state is airborne.
pub(crate) fn jump(h: &mut Hero, vel: DVec2, t: &Tuning, rep: &mut StepReport) -> DVec2 {
    h.jump_rising = true;
    h.timers.jump_buffer = 0.0;
    h.timers.coyote = 0.0;
    rep.events.push(MoveEvent::Jumped);
    DVec2::new(vel.x, (2.0 * t.gravity * t.jump_height).sqrt())
}

/// The first ladder containing the feet `p`.
pub fn ladder_at(ladders: &[Aabb], p: DVec2) -> Option<usize> {
    ladders.iter().position(|l| l.contains(p))
}

/// The ladder the hero grabs this tick, from the ground or from the air: one rule for both.
/// Standing (not crouching) with the feet in a ladder, pressing up with the feet below its top,
/// or down (without jumping: down and jump drop through a one-way floor) with the feet above its
/// bottom, by [`LADDER_END_MARGIN`]; never while the drop-through timer runs (after dropping
/// through a one-way platform, which a ladder usually leads through).
pub(crate) fn ladder_to_grab(h: &Hero, cx: &Ctx) -> Option<usize> {
    let a = cx.a;
    if a.move_axis.y.abs() <= 0.5 || h.timers.drop_through > 0.0 || h.crouching() {
        return None;
    }
    let i = ladder_at(cx.env.ladders, h.body.pos)?;
    let l = cx.env.ladders[i];
    let y = h.body.pos.y;
    let up = a.move_axis.y > 0.5 && y < l.max.y - LADDER_END_MARGIN;
    let down = a.move_axis.y < -0.5 && y > l.min.y + LADDER_END_MARGIN && !a.jump_pressed;
    (up || down).then_some(i)
}

/// Grabs ladder `i`: climbing, at rest, the jump's rise over.
pub(crate) fn grab_ladder(h: &mut Hero, i: usize, rep: &mut StepReport) -> Transition {
    h.jump_rising = false;
    rep.events.push(MoveEvent::GrabbedLadder);
    Transition::to(MoveState::Climbing { ladder: i }, DVec2::ZERO)
}

/// Removes from `vel` its component into a mover's edge the move stopped at, as
/// [`absorb_contacts`] does for a static contact.
pub(crate) fn absorb_mover(
    vel: &mut DVec2,
    jump_rising: &mut bool,
    hit: Option<MoverHit>,
    rep: &mut StepReport,
) {
    if let Some(h) = hit {
        absorb(vel, jump_rising, h.normal, rep);
    }
}

/// Removes from `vel` its component into a contact of outward normal `normal`; a contact from
/// above while rising is a bonk, which ends the jump's rise.
fn absorb(vel: &mut DVec2, jump_rising: &mut bool, normal: DVec2, rep: &mut StepReport) {
    let vn = vel.dot(normal);
    if vn < 0.0 {
        if normal.y < -0.5 && vel.y > 0.0 {
            rep.events.push(MoveEvent::Bonked);
            *jump_rising = false;
        }
        *vel -= normal * vn;
    }
}

/// Removes from `vel` its component into each contact; returns the last contact with an upward
/// normal (a landing candidate). A contact from above while rising is a bonk, which ends the
/// jump's rise (`jump_rising`).
pub(crate) fn absorb_contacts(
    vel: &mut DVec2,
    jump_rising: &mut bool,
    contacts: &[Contact],
    rep: &mut StepReport,
) -> Option<Contact> {
    let mut ground = None;
    for c in contacts {
        absorb(vel, jump_rising, c.normal, rep);
        if c.normal.y > 0.0 {
            ground = Some(*c);
        }
    }
    ground
}
