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
//! - too steep and turning up: a riser. If the boundary chain climbs from the joint through steep
//!   edges only, rising all the way, to walkable ground no more than `max_step_height` above the
//!   joint, the hero steps up: it is re-seated at the top corner (a vertex of the mesh) and walks on
//!   with its speed. Otherwise it is a wall: stop at the joint (speed 0);
//! - too steep and turning down: a step down or a ledge. If the chain descends through steep edges
//!   only to walkable ground no more than `max_step_height` below the joint, the hero is re-seated
//!   at the bottom corner and walks on (snap down); otherwise, or with no edge, it launches into the
//!   air with the current velocity.
//!
//! Steps are exact for the same reason walking is: the chain of blocking edges is the boundary of
//! the free space of the collider in use (the inflated geometry), so a corner on it is a place the
//! collider fits, touching and not overlapping. A step onto ground with no room above (a low
//! ceiling) does not exist on the chain: the riser's chain turns under the ceiling (not rising)
//! before it reaches walkable ground, so the step is refused. No tolerance is added: a riser higher
//! than `max_step_height` by any amount is a wall. The crouching mesh has its own chain, so a step
//! that only fits crouching is taken crouching.
//!
//! A mover is not on the static chain: a walk its side stops steps up onto it by casts instead
//! (`step_onto_mover`: up by `max_step_height`, across by the rest of the tick's distance, down
//! onto the mover's walkable top), with the same rule (no higher than `max_step_height`, by any
//! amount) and the same exactness (the casts are the meshes' and the movers' exact queries).
//!
//! # Near-miss geometry belongs here, not in the build
//! Hand-drawn tiles overlap or leave gaps of fractions of a millimetre, and their tops differ by
//! as much. None of this is welded away when the mesh is built, for three reasons. (1) A
//! horizontal gap narrower than the collider does not exist in the inflated geometry: the two
//! tiles' inflated pieces overlap by almost the collider's width, so the floor's chain runs
//! straight across (and an overlap is the same, seen from the other side). (2) What remains is a
//! vertical mismatch, a riser, and a riser of 0.5 mm is a step like one of 0.2 m: the step rule
//! above takes both, with no tolerance, so there is no threshold under which near-misses are
//! "merged" and just over which they snag. (3) Welding would move the designer's vertices and
//! change which geometry is solid, by an amount that would itself need a tolerance; the exact
//! triangulation handles slivers of any thinness (the invariant checker passes on 0.1 mm seams),
//! so nothing in the build needs it. `tests/it/steps.rs` crosses floors with ±2 mm tops and
//! ±0.1 mm seams both ways at full speed, 60 % speed and crouching.
//!
//! Speed along slopes: the target speed (`run_speed`, `crouch_speed`) is the speed *along the
//! surface*, the same on every walkable slope, so a slope takes the same time per metre of
//! surface in both directions. The followable turn-down angle is `max_follow_turn_deg` up to
//! `run_speed`, shrinking with the square of the speed above it (faster heroes fly off crests).
use glam::DVec2;

use super::character::{Change, Hero};
use super::rules::{self, edge_dir, walkable, Ctx, Transition};
use super::state::{MoveEvent, MoveState, StepReport};
use super::tuning::Tuning;
use crate::collision::{cross, CollisionMesh, EdgeRef, MoveResult};

/// Most edges one tick may walk across (a bound; ticks cover a few edges at most).
const MAX_EDGES_PER_TICK: usize = 256;
/// Most steep edges one step's riser may consist of (a vertical riser is one edge, or a few where
/// other geometry's corners split it).
const MAX_RISER_EDGES: usize = 16;

/// One supported tick on `edge` at the signed ground speed `speed`.
pub(crate) fn step(
    h: &mut Hero,
    cx: &Ctx,
    edge: EdgeRef,
    speed: f64,
    rep: &mut StepReport,
) -> Transition {
    let (a, t) = (cx.a, cx.t);
    let mesh = cx.env.mesh(h.collider);
    h.air_jumps_left = t.air_jumps;
    h.jump_rising = false;

    if let Some(i) = rules::ladder_to_grab(h, cx) {
        return rules::grab_ladder(h, i, rep);
    }
    if h.timers.jump_buffer > 0.0 {
        // Off the ground with the ground velocity; the air step flies the rest of the tick.
        let vel = edge_dir(mesh, edge) * speed;
        if a.move_axis.y < -0.5 && mesh.is_one_way_top(edge) {
            return rules::drop_through(h, vel, rep);
        }
        let vel = rules::jump(h, vel, t, rep);
        return Transition::reenter(MoveState::Airborne, vel);
    }

    let s = rules::ground_speed(h, cx, speed);
    walk_chain(h, cx, edge, s, rep)
}

/// Walks `speed * dt` along the edge chain starting at `edge`, handing over at joints.
fn walk_chain(
    h: &mut Hero,
    cx: &Ctx,
    edge: EdgeRef,
    speed: f64,
    rep: &mut StepReport,
) -> Transition {
    let t = cx.t;
    let mesh = cx.env.mesh(h.collider);
    let opts = h.move_options();
    let forward = speed > 0.0;
    let mut rem = speed.abs() * cx.dt;
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
        let past = (end - h.body.pos).dot(d1);
        if past < 0.0 {
            // Already past this edge's end (a landing slid on across a straight joint onto the
            // next edge, keeping the edge it touched first): go on from the next edge where the
            // body is, rather than back to the joint.
            if let Some(n) = mesh.next_boundary_edge(e, forward, opts) {
                let (na, nb) = mesh.edge_points(n);
                let d2 = if forward { nb - na } else { na - nb }.normalize_or_zero();
                if walkable(mesh.edge_normal(n), h.walk_limit) && d1.dot(d2) >= 1.0 - 1e-9 {
                    e = n;
                    dir = if forward { d2 } else { -d2 };
                    continue;
                }
            }
        }
        let to_end = past.max(0.0);
        if rem <= to_end {
            let hit = h.slide(cx.env, d1 * rem, opts, rep, &mut r);
            if r.travelled < rem - 1e-9 {
                // A mover's side no higher than a step: up onto it.
                if let Some(tr) = step_onto_mover(h, cx, hit, d1, rem - r.travelled, s, rep) {
                    return tr;
                }
                // Something other than the ground (a low ceiling, a wall piece) stopped the walk.
                s = 0.0;
            }
            break;
        }
        let hit = h.slide(cx.env, end - h.body.pos, opts, rep, &mut r);
        if h.body.pos.distance(end) > 1e-9 {
            if let Some(tr) = step_onto_mover(h, cx, hit, d1, rem - r.travelled, s, rep) {
                return tr;
            }
            s = 0.0;
            break;
        }
        rem -= to_end;
        let next = mesh.next_boundary_edge(e, forward, opts);
        let Some(n) = next else {
            // The chain ends (a one-way top, whose sides are passable): a step onto or off other
            // ground is found by casts instead.
            if let Some((landed, edge)) = probe_step(mesh, h, t, d1, rem) {
                rem = 0.0;
                land_step(h, rep, landed, &mut e, &mut dir, edge, mesh);
                continue;
            }
            return launch(h, cx, d1 * s.abs(), rem, rep);
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
            if !concave && d1.dot(d2) < 1.0 && !rules::follows_turn(t, d1, d2, s) {
                return launch(h, cx, d1 * s.abs(), rem, rep);
            }
            // Re-seat the body in the new edge's face at the shared vertex (exactly a vertex of that
            // face): the next move starts inside the right face, not across the old edge's line.
            h.apply(Change::Move(crate::collision::Body {
                pos: if forward { na } else { nb },
                face: n.face,
            }));
            e = n;
            dir = if forward { d2 } else { -d2 };
        } else if let Some((top, corner)) = step_target(
            mesh,
            n,
            forward,
            opts,
            h.walk_limit,
            t.max_step_height,
            concave,
        ) {
            // A step: re-seat at the corner where the ground continues (a vertex of `top`'s face)
            // and walk on along it with the same speed.
            let dy = corner.y - h.body.pos.y;
            rep.events.push(if dy >= 0.0 {
                MoveEvent::SteppedUp { height: dy }
            } else {
                MoveEvent::SteppedDown { height: -dy }
            });
            h.apply(Change::Move(crate::collision::Body {
                pos: corner,
                face: top.face,
            }));
            e = top;
            let (ta, tb) = mesh.edge_points(top);
            let d = (tb - ta).normalize_or_zero();
            dir = d;
        } else if concave {
            if s != 0.0 && h.ticks_in_state > 0 && h.vel != DVec2::ZERO {
                rep.events.push(MoveEvent::Blocked {
                    normal: [nn.x, nn.y],
                });
            }
            s = 0.0;
            break;
        } else if let Some((landed, edge)) = probe_step(mesh, h, t, d1, rem) {
            rem = 0.0;
            land_step(h, rep, landed, &mut e, &mut dir, edge, mesh);
        } else {
            return launch(h, cx, d1 * s.abs(), rem, rep);
        }
    }
    Transition::to(MoveState::Supported { edge: e, speed: s }, dir * s)
}

/// The ground a step leads to from the joint at the start of `riser` (the steep edge after the
/// walked edge, in the direction of travel): following the boundary chain through steep edges that
/// all rise (`up`) or all descend, the first walkable edge, and its corner where the chain reaches
/// it, when that corner is no more than `max_height` above (or below) the joint. `None`: the riser
/// is a wall (or the drop a ledge).
pub(crate) fn step_target(
    mesh: &CollisionMesh,
    riser: EdgeRef,
    forward: bool,
    opts: crate::collision::MoveOptions,
    walk_limit: f64,
    max_height: f64,
    up: bool,
) -> Option<(EdgeRef, DVec2)> {
    if max_height <= 0.0 {
        return None;
    }
    let ends = |e: EdgeRef| {
        let (a, b) = mesh.edge_points(e);
        if forward {
            (a, b)
        } else {
            (b, a)
        }
    };
    let joint = ends(riser).0;
    let mut e = riser;
    for _ in 0..MAX_RISER_EDGES {
        let (from, to) = ends(e);
        let climbs = if up { to.y > from.y } else { to.y < from.y };
        if !climbs || (to.y - joint.y).abs() > max_height {
            return None;
        }
        let next = mesh.next_boundary_edge(e, forward, opts)?;
        if walkable(mesh.edge_normal(next), walk_limit) {
            return Some((next, to));
        }
        e = next;
    }
    None
}

/// A step found by casts where the boundary chain gives none: at a joint where the chain ends or
/// drops away (one-way platforms end their chains at passable sides). From the joint, a cast up by
/// `max_step_height` (through one-way platforms, stopped by solid ceilings), one across by the
/// tick's remaining distance `rem` (any contact refuses the step: a wall), and one down by the
/// height risen plus `max_step_height`; the step is the walkable blocking edge the last one meets,
/// with the body in a free face. Every cast is the mesh's own exact query, so the landing is a
/// place the collider fits. `None`: nothing within reach (a ledge).
fn probe_step(
    mesh: &CollisionMesh,
    h: &Hero,
    t: &Tuning,
    d1: DVec2,
    rem: f64,
) -> Option<(crate::collision::Body, EdgeRef)> {
    use crate::collision::{FaceKind, MoveOptions};
    let max = t.max_step_height;
    if max <= 0.0 || rem <= 0.0 || d1.x == 0.0 {
        return None;
    }
    let pass = MoveOptions { pass_one_way: true };
    let up = mesh.cast(h.body, DVec2::new(0.0, max), pass);
    let across = mesh.cast(up.body, DVec2::new(rem.copysign(d1.x), 0.0), pass);
    if !across.contacts.is_empty() {
        return None;
    }
    let depth = up.body.pos.y - h.body.pos.y + max;
    let down = mesh.cast(across.body, DVec2::new(0.0, -depth), h.move_options());
    let c = down.contacts.first()?;
    (walkable(c.normal, h.walk_limit) && mesh.kind(down.body.face) == FaceKind::Free)
        .then_some((down.body, c.edge))
}

/// A step up onto a mover whose side (`hit`, steep) stopped the walk along `d1` with `rem` of the
/// tick's distance left: the static ground's steps come from its boundary chain, a mover's from
/// casts, as [`probe_step`]'s. From where the walk stopped, up by `max_step_height` (stopped by
/// solid ceilings, the static mesh's exact cast; any mover in the way refuses), across by `rem`
/// (any contact, static or mover, refuses: a wall), then the mover's walkable top under the feet
/// no lower than where the walk stopped; the hero is put on it (riding, its speed along the top
/// relative to the mover). A riser higher than `max_step_height` by any amount stays a wall.
/// `None`: no such step (the caller stops the walk).
fn step_onto_mover(
    h: &mut Hero,
    cx: &Ctx,
    hit: Option<crate::collision::MoverHit>,
    d1: DVec2,
    rem: f64,
    speed: f64,
    rep: &mut StepReport,
) -> Option<Transition> {
    use crate::collision::MoveOptions;
    let hit = hit?;
    let max = cx.t.max_step_height;
    if walkable(hit.normal, h.walk_limit) || max <= 0.0 || rem <= 0.0 || d1.x == 0.0 {
        return None;
    }
    let mesh = cx.env.mesh(h.collider);
    let movers = cx.env.movers;
    let c = h.collider.0 as usize;
    let start = h.body;
    let pass = MoveOptions { pass_one_way: true };
    let up = mesh.cast(start, DVec2::new(0.0, max), pass);
    let rise = up.body.pos - start.pos;
    if movers.first_hit(c, start.pos, rise, None, false).is_some() {
        return None;
    }
    let across_d = DVec2::new(rem.copysign(d1.x), 0.0);
    let across = mesh.cast(up.body, across_d, pass);
    if !across.contacts.is_empty()
        || movers
            .first_hit(c, up.body.pos, across_d, None, false)
            .is_some()
    {
        return None;
    }
    let depth = across.body.pos.y - start.pos.y;
    let (on, top) = movers.support_below(c, across.body.pos, depth, h.walk_limit, false)?;
    // Down to the top through the static mesh: static ground in between makes it no mover step.
    let down = mesh.cast(across.body, top - across.body.pos, h.move_options());
    if !down.contacts.is_empty() || movers.inside(c, down.body.pos, None).is_some() {
        return None;
    }
    rep.events.push(MoveEvent::SteppedUp {
        height: top.y - start.pos.y,
    });
    rep.events.push(MoveEvent::Boarded { mover: on.mover });
    h.apply(Change::Move(down.body));
    Some(rules::board(h, cx.env, on, d1 * speed.abs(), cx.dt))
}

/// Puts the hero on the ground a probed step found (`landed`, on `edge`), reporting the step.
fn land_step(
    h: &mut Hero,
    rep: &mut StepReport,
    landed: crate::collision::Body,
    e: &mut EdgeRef,
    dir: &mut DVec2,
    edge: EdgeRef,
    mesh: &CollisionMesh,
) {
    let dy = landed.pos.y - h.body.pos.y;
    rep.events.push(if dy >= 0.0 {
        MoveEvent::SteppedUp { height: dy }
    } else {
        MoveEvent::SteppedDown { height: -dy }
    });
    h.apply(Change::Move(landed));
    *e = edge;
    *dir = edge_dir(mesh, edge);
}

/// Leaves the ground without a jump (off a ledge or over a sharp crest) at velocity `vel`:
/// coyote time starts and the rest of the tick's distance is flown.
fn launch(h: &mut Hero, cx: &Ctx, vel: DVec2, rem: f64, rep: &mut StepReport) -> Transition {
    // A mover right under the feet takes over (a lift flush with the ledge): no airborne tick.
    if rules::mover_support(h, cx, vel).is_some() {
        // The rest of the tick's distance on along the mover's top (flush with the ground here:
        // no entry into it), then onto it.
        let len = vel.length();
        if rem > 0.0 && len > 0.0 {
            let mut r = MoveResult::at(h.body);
            h.slide(cx.env, vel / len * rem, h.move_options(), rep, &mut r);
        }
        if let Some((riding, ride_vel)) = rules::mover_support(h, cx, vel) {
            if let MoveState::Riding { on, .. } = riding {
                rep.events.push(MoveEvent::Boarded { mover: on.mover });
            }
            return Transition::to(riding, ride_vel);
        }
        // Walked past it within the tick: into the air from here, the distance spent.
        return launch_from(h, cx, vel, 0.0, rep);
    }
    launch_from(h, cx, vel, rem, rep)
}

/// [`launch`] once no mover takes over.
fn launch_from(h: &mut Hero, cx: &Ctx, vel: DVec2, rem: f64, rep: &mut StepReport) -> Transition {
    h.timers.coyote = cx.t.coyote_time;
    rep.events.push(MoveEvent::LeftGround);
    let mut v = vel;
    let len = vel.length();
    if rem > 0.0 && len > 0.0 {
        let mut r = MoveResult::at(h.body);
        let hit = h.slide(cx.env, vel / len * rem, h.move_options(), rep, &mut r);
        rules::absorb_contacts(&mut v, &mut h.jump_rising, &r.contacts, rep);
        rules::absorb_mover(&mut v, &mut h.jump_rising, hit, rep);
    }
    Transition::to(MoveState::Airborne, v)
}
