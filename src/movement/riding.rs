//! The riding state: standing and walking on a mover.
//!
//! The feet are kept in the mover's frame (`local`), on a walkable edge of its piece inflated by
//! the collider in use. The world carries riders before they step (`sim::movers`: the mover's
//! new pose times the stored local point, through the static walk, so a wall can scrape a rider
//! off); this step then walks along the edge relative to the mover, as the supported state walks
//! along the static ground:
//! - the speed follows the same acceleration and friction (`rules::ground_speed`);
//! - past the edge's end, the piece's next edge takes over when it is walkable and turns down by
//!   no more than the followable angle (a piece is convex: its boundary only turns down); the
//!   static ground takes over where it is right under the feet (a mover flush with a floor);
//!   otherwise the rider walks off, into the air, with the mover's velocity added;
//! - a jump adds the mover's velocity, both components (momentum: what a rider leaving a lift
//!   keeps; `rules::inherited_velocity`: within 0.1 s of the mover stopping or reversing, its
//!   velocity from before, clamped by the tuning's `momentum_max_*`); the air step it starts
//!   in the same tick flies that velocity less what the carry already moved the rider this
//!   tick, so the take-off tick moves it once (`sim::movers`, "The take-off tick");
//! - down and jump on a one-way mover drops through it (as through a one-way polygon);
//! - the rider's own piece is skipped by its moves (it walks along it); everything else (static
//!   walls, other movers and the mover's other pieces) stops it.
use glam::DVec2;

use super::character::Hero;
use super::rules::{self, walkable, walkable_support, Ctx, Transition};
use super::state::{MoveEvent, MoveState, StepReport};
use crate::collision::MoverEdge;

/// Most piece edges one tick may walk across (a piece has at most a few dozen).
const MAX_EDGES_PER_TICK: usize = 16;

/// One riding tick on edge `on` at `local` (the mover's frame), `speed` relative to the mover.
pub(crate) fn step(
    h: &mut Hero,
    cx: &Ctx,
    on: MoverEdge,
    local: DVec2,
    speed: f64,
    rep: &mut StepReport,
) -> Transition {
    let t = cx.t;
    let movers = cx.env.movers;
    let c = h.collider.0 as usize;
    let carried = rules::inherited_velocity(cx.env, on.mover, h.body.pos, t, cx.dt);
    h.air_jumps_left = t.air_jumps;
    h.jump_rising = false;
    if let Some(i) = rules::ladder_to_grab(h, cx) {
        return rules::grab_ladder(h, i, rep);
    }
    let piece = movers.piece(on, c);
    let mut dir = piece.walk_dir(on.edge as usize);
    if h.timers.jump_buffer > 0.0 {
        if cx.a.move_axis.y < -0.5 && movers.is_one_way(on.mover) {
            // Down and jump on a one-way mover: through it, with its velocity.
            return rules::drop_through(h, dir * speed + carried, rep);
        }
        // The jump's own vertical speed plus the mover's (a lift going up throws higher).
        let vel = rules::jump(h, dir * speed + carried, t, rep) + DVec2::new(0.0, carried.y);
        return Transition::reenter(MoveState::Airborne, vel);
    }

    let s = rules::ground_speed(h, cx, speed);
    let forward = s > 0.0;
    let mut rem = s.abs() * cx.dt;
    let mut e = on;
    let mut at = local;
    for _ in 0..MAX_EDGES_PER_TICK {
        let (a, b) = piece.walk(e.edge as usize);
        let (end, d1) = if forward { (b, dir) } else { (a, -dir) };
        let to_end = (end - at).dot(d1).max(0.0);
        if rem <= to_end {
            at += d1 * rem;
            break;
        }
        at = end;
        rem -= to_end;
        let next = piece.next_walked(e.edge as usize, forward);
        let nn = piece.normal(next);
        let d2 = if forward {
            piece.walk_dir(next)
        } else {
            -piece.walk_dir(next)
        };
        if walkable(nn, h.walk_limit) && rules::follows_turn(t, d1, d2, s) {
            e.edge = next as u16;
            dir = piece.walk_dir(next);
            continue;
        }
        // The piece's top ends here: off the mover.
        let blocked = move_to(h, cx, e, at, rep);
        let vel = d1 * s.abs() + carried;
        if blocked {
            return stopped(h, cx, e);
        }
        if let Some(edge) = walkable_support(
            cx.env.mesh(h.collider),
            h.body,
            h.move_options(),
            h.walk_limit,
        ) {
            // Flush with static ground: walk on along it (the rest of the tick's distance too),
            // the mover's velocity along it kept.
            let ground = rules::edge_dir(cx.env.mesh(h.collider), edge);
            let along = ground * rem.copysign(vel.dot(ground));
            let mut r = crate::collision::MoveResult::at(h.body);
            h.slide(cx.env, along, h.move_options(), rep, &mut r);
            return Transition::to(
                MoveState::Supported {
                    edge,
                    speed: vel.dot(ground),
                },
                ground * vel.dot(ground),
            );
        }
        h.timers.coyote = t.coyote_time;
        rep.events.push(MoveEvent::LeftGround);
        return Transition::to(MoveState::Airborne, vel);
    }
    if move_to(h, cx, e, at, rep) {
        return stopped(h, cx, e);
    }
    Transition::to(
        MoveState::Riding {
            on: e,
            local: at,
            speed: s,
        },
        dir * s,
    )
}

/// Something stopped the walk (a static wall, another mover): still on edge `e`, at rest
/// relative to the mover, where the body is.
fn stopped(h: &Hero, cx: &Ctx, e: MoverEdge) -> Transition {
    Transition::to(
        MoveState::Riding {
            on: e,
            local: h.body.pos - cx.env.movers.offset(e.mover),
            speed: 0.0,
        },
        DVec2::ZERO,
    )
}

/// Moves the body to the point `local` of the mover's frame (nudged out of its piece where the
/// round trip to the world lands inside), through the static walk and the other movers; `true`
/// when something stopped it short (by more than a nanometre).
fn move_to(h: &mut Hero, cx: &Ctx, on: MoverEdge, local: DVec2, rep: &mut StepReport) -> bool {
    let movers = cx.env.movers;
    let c = h.collider.0 as usize;
    let normal = movers.piece(on, c).normal(on.edge as usize);
    let target = movers.nudge_out(on, c, local + movers.offset(on.mover), normal);
    !h.move_exactly_to(cx.env, target, rep)
}
