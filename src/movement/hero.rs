//! The hero: a body on the collision world plus the movement state machine's memory.
//!
//! [`Hero::step`] is the whole per-tick update: timers, crouch/stand collider switching, then the
//! current state's step function (one per state, in `supported`, `airborne`, `climbing`,
//! `top_down`), each sequential and readable. A state's step returns a
//! [`Transition`](super::rules::Transition); this file applies it (the only place besides the
//! spawn and the collider switch that sets the state) and runs the next state in the same tick
//! when the transition asks for it.
use glam::DVec2;

use super::actions::Actions;
use super::env::{Env, SizeClass, HERO_CLASS};
use super::rules::{min_walk_normal_y, walkable_support, Ctx, Transition, RUNG_SPACING};
use super::state::{MoveEvent, MoveState, StepReport};
use super::tuning::Tuning;
use super::{airborne, climbing, riding, supported, top_down};
use crate::collision::{
    Body, ColliderId, CollisionMesh, EdgeRef, FaceKind, Location, MoveOptions, MoveResult,
    MoverEdge, MoverHit,
};

pub use super::rules::GROUND_PROBE;

/// Distance (m) within which a position counts as on a mesh edge when switching meshes: points on
/// an edge may round to the solid side by a few ulps.
pub const ON_EDGE_TOLERANCE: f64 = 1e-9;

/// Countdown timers, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timers {
    /// Coyote time left after walking off an edge.
    pub coyote: f64,
    /// A jump press remembered until landing.
    pub jump_buffer: f64,
    /// Time since touching a wall during which a wall jump still works.
    pub wall_coyote: f64,
    /// Air control towards the wall is ignored after a wall jump.
    pub wall_jump_lock: f64,
    /// One-way platforms are passable while dropping through.
    pub drop_through: f64,
}

/// The player character's movement state.
#[derive(Clone, Debug, PartialEq)]
pub struct Hero {
    /// Position (feet) and face on the current collider's mesh.
    pub body: Body,
    /// Velocity, m/s (while supported: the edge direction times the ground speed).
    pub vel: DVec2,
    /// The collider (and mesh) in use: the size class's standing or crouching collider.
    pub collider: ColliderId,
    /// The colliders this character moves with ([`HERO_CLASS`] for the hero).
    pub class: SizeClass,
    /// The state machine's state.
    pub state: MoveState,
    /// Ticks spent in the current state variant (0 on the tick it was entered).
    pub ticks_in_state: u32,
    /// Last horizontal direction moved or pressed: +1 right, -1 left.
    pub facing: f64,
    /// Countdown timers.
    pub timers: Timers,
    /// Rising from a jump whose height the jump button still controls.
    pub(crate) jump_rising: bool,
    /// Air jumps left before landing.
    pub(crate) air_jumps_left: u32,
    /// Sign of the normal of the wall last touched (for wall jumps within `wall_coyote`).
    pub(crate) wall_normal_x: f64,
    /// The mover whose side that wall was (`None`: the static mesh): a wall jump off it keeps
    /// its velocity, as a jump off its top does.
    pub(crate) wall_mover: Option<u32>,
    /// The smallest normal `y` of a walkable edge (`rules::min_walk_normal_y`), cached for
    /// `walk_limit_for` (the tuning's `max_slope_deg`): a cosine per query was a few per cent of
    /// a step.
    pub(crate) walk_limit: f64,
    walk_limit_for: f64,
    /// Distance (m) travelled since the last footstep (while supported) or rung (while climbing),
    /// for [`MoveEvent::Footstep`] and [`MoveEvent::LadderRung`]. Sound bookkeeping: not part of
    /// `World::state_hash` (it never changes the motion).
    pub(crate) travel: f64,
}

/// The hero could not be placed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "the spawn point ({}, {}) has no free space anywhere near it for the hero's collider",
    crate::collision::readable(.x),
    crate::collision::readable(.y)
)]
pub struct SpawnError {
    /// Spawn x.
    pub x: f64,
    /// Spawn y.
    pub y: f64,
}

impl Hero {
    /// Places the hero at `pos` (moved to the nearest free point if that is inside geometry; the
    /// distance moved is returned). Starts supported if ground is right below, else airborne.
    pub fn spawn(env: &Env, pos: DVec2, tuning: &Tuning) -> Result<(Hero, f64), SpawnError> {
        Hero::spawn_as(env, HERO_CLASS, pos, tuning)
    }

    /// [`Hero::spawn`] for a character of size class `class` (standing).
    pub fn spawn_as(
        env: &Env,
        class: SizeClass,
        pos: DVec2,
        tuning: &Tuning,
    ) -> Result<(Hero, f64), SpawnError> {
        let (body, moved) = env
            .mesh(class.stand)
            .nearest_free_point(pos)
            .ok_or(SpawnError { x: pos.x, y: pos.y })?;
        Ok((Hero::placed(env, body, class, class.stand, tuning), moved))
    }

    /// A fresh hero at `body` (a free place on the mesh of `collider`, one of `class`'s): at rest,
    /// on the ground when walkable ground is under its feet, else airborne (top-down in top-down
    /// mode).
    fn placed(
        env: &Env,
        body: Body,
        class: SizeClass,
        collider: ColliderId,
        tuning: &Tuning,
    ) -> Hero {
        let mut hero = Hero {
            body,
            vel: DVec2::ZERO,
            collider,
            class,
            state: MoveState::Airborne,
            ticks_in_state: 0,
            facing: 1.0,
            timers: Timers::default(),
            jump_rising: false,
            air_jumps_left: tuning.air_jumps,
            wall_normal_x: 0.0,
            wall_mover: None,
            walk_limit: min_walk_normal_y(tuning),
            walk_limit_for: tuning.max_slope_deg,
            travel: 0.5 * tuning.footstep_stride,
        };
        if tuning.top_down {
            hero.state = MoveState::TopDown;
        } else if let Some(s) = walkable_support(
            env.mesh(collider),
            body,
            MoveOptions::default(),
            hero.walk_limit,
        ) {
            hero.state = MoveState::Supported {
                edge: s,
                speed: 0.0,
            };
        }
        hero
    }

    /// The hero moved onto another collision world (a live level swap): the same position,
    /// collider, velocity, facing and timers when the position is still free for the collider in
    /// use; otherwise the standing collider at the nearest free point, as for a spawn. Returns the
    /// new hero and how far it was moved (0 when it kept its place).
    ///
    /// The state is re-derived from the new geometry: supported (keeping the ground speed) when
    /// walkable ground is under the feet, still climbing when the feet are inside the same ladder,
    /// top-down in top-down mode, else airborne (its fall continues; a wall slide resumes on the
    /// next tick if the wall is still there).
    pub fn relocate(&self, env: &Env, tuning: &Tuning) -> Result<(Hero, f64), SpawnError> {
        // Crouching where only the crouching collider fits stays crouching; otherwise the standing
        // collider, at the nearest free point.
        let crouched = match env.mesh(self.collider).locate(self.body.pos, None) {
            Location::Free(body) if self.collider != self.class.stand => Some(body),
            _ => None,
        };
        let (mut hero, moved) = match crouched {
            Some(body) => (
                Hero::placed(env, body, self.class, self.collider, tuning),
                0.0,
            ),
            None => Hero::spawn_as(env, self.class, self.body.pos, tuning)?,
        };
        hero.vel = self.vel;
        hero.facing = self.facing;
        if moved > 0.0 {
            return Ok((hero, moved));
        }
        hero.timers = self.timers;
        hero.jump_rising = self.jump_rising;
        hero.air_jumps_left = self.air_jumps_left.min(tuning.air_jumps);
        hero.wall_normal_x = self.wall_normal_x;
        hero.travel = self.travel;
        match (self.state, &mut hero.state) {
            (MoveState::Supported { speed, .. }, MoveState::Supported { speed: s, .. }) => {
                *s = speed;
            }
            (MoveState::Climbing { ladder }, state)
                if env
                    .ladders
                    .get(ladder)
                    .is_some_and(|l| l.contains(hero.body.pos)) =>
            {
                *state = MoveState::Climbing { ladder };
            }
            _ => {}
        }
        if hero.state.same_variant(&self.state) {
            hero.ticks_in_state = self.ticks_in_state;
        }
        Ok((hero, moved))
    }

    /// Throws the character into the air at `vel` (a knockback, a stomp's bounce). With
    /// `controlled`, the rise is a jump's: releasing the jump button cuts it (`jump_cut`).
    pub fn launch(&mut self, vel: DVec2, controlled: bool) {
        self.state = MoveState::Airborne;
        self.vel = vel;
        self.ticks_in_state = 0;
        self.jump_rising = controlled;
    }

    /// Whether the hero stands on ground (static, or a mover).
    pub fn grounded(&self) -> bool {
        matches!(
            self.state,
            MoveState::Supported { .. } | MoveState::Riding { .. }
        )
    }

    /// Whether the crouching collider is in use.
    pub fn crouching(&self) -> bool {
        Some(self.collider) == self.class.crouch
    }

    /// Move options for this tick (one-way platforms pass while dropping through).
    pub fn move_options(&self) -> MoveOptions {
        MoveOptions {
            pass_one_way: self.timers.drop_through > 0.0,
        }
    }

    /// Advances the hero by one fixed tick of `dt` seconds, replacing `rep` with the tick's
    /// report. The report is an out-parameter so its event list's allocation is reused from tick
    /// to tick, and because returning it by value copied it back while its last writes were in
    /// flight (a store-forwarding stall, ~10 % of a top-down step under `perf`).
    pub fn step(
        &mut self,
        env: &Env,
        actions: &Actions,
        t: &Tuning,
        dt: f64,
        rep: &mut StepReport,
    ) {
        rep.clear();
        let a = actions.sanitized();
        if self.walk_limit_for != t.max_slope_deg {
            self.walk_limit = min_walk_normal_y(t);
            self.walk_limit_for = t.max_slope_deg;
        }
        let prev = self.state;
        let start = self.body.pos;
        if a.jump_pressed {
            self.timers.jump_buffer = t.jump_buffer.max(dt);
        }
        if a.move_axis.x != 0.0 {
            self.facing = a.move_axis.x.signum();
        }
        if t.top_down && self.state != MoveState::TopDown {
            self.state = MoveState::TopDown;
        } else if !t.top_down && self.state == MoveState::TopDown {
            self.state = MoveState::Airborne;
        }
        self.update_crouch(env, &a, t, rep);
        let cx = Ctx { env, a: &a, t, dt };
        // At most two runs. Only the air is ever re-entered (a jump or a drop-through off the
        // ground flies the rest of the tick) and it never re-enters, so the second run calls it
        // directly: a second dispatch kept `run_state` out of line (+3 % instructions a step),
        // and a loop let the optimiser hoist a state's loop-invariant work into every step.
        let tr = self.run_state(&cx, rep);
        self.state = tr.next;
        self.vel = tr.vel;
        if tr.reenter {
            debug_assert_eq!(tr.next, MoveState::Airborne, "only the air is re-entered");
            let again = airborne::step(self, &cx, false, rep);
            debug_assert!(!again.reenter, "the air re-entered {:?}", again.next);
            self.state = again.next;
            self.vel = again.vel;
        }
        self.count_travel(env, t, prev, self.body.pos - start, rep);
        if matches!(prev, MoveState::WallSlide { .. })
            && !matches!(self.state, MoveState::WallSlide { .. })
        {
            rep.events.push(MoveEvent::WallSlideStopped);
        }
        let tm = &mut self.timers;
        for v in [
            &mut tm.coyote,
            &mut tm.jump_buffer,
            &mut tm.wall_coyote,
            &mut tm.wall_jump_lock,
            &mut tm.drop_through,
        ] {
            *v = (*v - dt).max(0.0);
        }
        self.ticks_in_state = if self.state.same_variant(&prev) {
            self.ticks_in_state.saturating_add(1)
        } else {
            0
        };
        rep.moved = self.body.pos - start;
    }

    /// The current state's step.
    #[inline]
    fn run_state(&mut self, cx: &Ctx, rep: &mut StepReport) -> Transition {
        match self.state {
            MoveState::Supported { edge, speed } => supported::step(self, cx, edge, speed, rep),
            MoveState::Riding { on, local, speed } => riding::step(self, cx, on, local, speed, rep),
            MoveState::Airborne => airborne::step(self, cx, false, rep),
            MoveState::WallSlide { .. } => airborne::step(self, cx, true, rep),
            MoveState::Climbing { ladder } => climbing::step(self, cx, ladder, rep),
            MoveState::TopDown => top_down::step(self, cx, rep),
        }
    }

    /// Footsteps and ladder rungs: ground travel while supported (the length of the tick's
    /// displacement, risers included) and vertical travel while climbing accumulate in `travel`;
    /// each `footstep_stride` (or [`RUNG_SPACING`]) of it emits one event (at most one per tick,
    /// the remainder carried). Entering the ground or a ladder starts the count at half a
    /// spacing, so the first step or rung sounds after half a stride, not a whole one.
    fn count_travel(
        &mut self,
        env: &Env,
        t: &Tuning,
        prev: MoveState,
        moved: glam::DVec2,
        rep: &mut StepReport,
    ) {
        match (prev, self.state) {
            (MoveState::Supported { .. }, MoveState::Supported { edge, .. }) => {
                self.travel += moved.length();
                if self.travel >= t.footstep_stride {
                    self.travel %= t.footstep_stride;
                    let surface = env
                        .mesh(self.collider)
                        .edge_sources_at(edge, self.body.pos)
                        .first()
                        .copied();
                    rep.events.push(MoveEvent::Footstep { surface });
                }
            }
            (MoveState::Riding { .. }, MoveState::Riding { .. }) => {
                self.travel += moved.length();
                if self.travel >= t.footstep_stride {
                    self.travel %= t.footstep_stride;
                    rep.events.push(MoveEvent::Footstep { surface: None });
                }
            }
            (MoveState::Climbing { .. }, MoveState::Climbing { .. }) => {
                self.travel += moved.y.abs();
                if self.travel >= RUNG_SPACING {
                    self.travel %= RUNG_SPACING;
                    rep.events.push(MoveEvent::LadderRung);
                }
            }
            (_, MoveState::Supported { .. } | MoveState::Riding { .. }) => {
                self.travel = 0.5 * t.footstep_stride
            }
            (_, MoveState::Climbing { .. }) => self.travel = 0.5 * RUNG_SPACING,
            _ => {}
        }
    }

    /// Crouch when asked; stand up when crouch is released and the standing collider fits.
    fn update_crouch(&mut self, env: &Env, a: &Actions, t: &Tuning, rep: &mut StepReport) {
        let want = a.crouch && !t.top_down && !matches!(self.state, MoveState::Climbing { .. });
        let Some(crouch) = self.class.crouch else {
            return;
        };
        let stand = self.class.stand;
        if want && self.collider == stand {
            if self.switch_collider(env, crouch) {
                rep.events.push(MoveEvent::Crouched);
            }
        } else if !want && self.collider == crouch && self.switch_collider(env, stand) {
            rep.events.push(MoveEvent::StoodUp);
        }
    }

    /// Moves the body onto another collider's mesh at the same feet position, if it fits there.
    pub(crate) fn switch_collider(&mut self, env: &Env, to: ColliderId) -> bool {
        let mesh = env.mesh(to);
        let Some(body) = locate_free(mesh, self.body.pos) else {
            return false;
        };
        if env.movers.inside(to.0 as usize, body.pos, None).is_some() {
            return false; // No room under a mover.
        }
        self.body = body;
        self.collider = to;
        if let MoveState::Supported { speed, .. } = self.state {
            self.state = match walkable_support(mesh, body, self.move_options(), self.walk_limit) {
                Some(edge) => MoveState::Supported { edge, speed },
                None => MoveState::Airborne,
            };
        }
        if let MoveState::Riding { speed, .. } = self.state {
            // The same feet on the other collider's inflation of the mover.
            self.state = match env.movers.support_below(
                to.0 as usize,
                body.pos,
                GROUND_PROBE,
                self.walk_limit,
                self.move_options().pass_one_way,
            ) {
                Some((on, _)) => MoveState::Riding {
                    on,
                    local: body.pos - env.movers.offset(on.mover),
                    speed,
                },
                None => MoveState::Airborne,
            };
        }
        true
    }

    /// Moves the body by `d` with move-and-slide on the mesh of the collider in use, then stops
    /// it where its path first enters a mover (the movers are frozen while characters step),
    /// counting the contacts into `rep`; the result (contacts, distance travelled) is left in
    /// `res` for the caller's own use (filled in place: returning it by value cost ~5 % of a
    /// step). Returns the mover hit, if any: its contact is not among `res.contacts`, which keeps
    /// the static contacts met before it.
    pub(crate) fn slide(
        &mut self,
        env: &Env,
        d: DVec2,
        opts: MoveOptions,
        rep: &mut StepReport,
        res: &mut MoveResult,
    ) -> Option<MoverHit> {
        let mesh = env.mesh(self.collider);
        *res = MoveResult::at(self.body);
        mesh.move_and_slide_in(res, d, opts);
        let hit = if env.movers.is_empty() {
            None
        } else {
            self.clip_to_movers(env, res)
        };
        rep.contacts += res.contacts.len() + usize::from(hit.is_some());
        // Field by field: copying the whole `Body` loads its padding with the face id as one
        // 8-byte word, which cannot be forwarded from the walk's 4-byte store and stalled the
        // step (~10 % of it under `perf`).
        self.body.pos = res.body.pos;
        self.body.face = res.body.face;
        hit
    }

    /// The mover piece this character stands on (skipped by its own moves: it walks along it).
    pub(crate) fn riding_piece(&self) -> Option<(u32, u16)> {
        match self.state {
            MoveState::Riding { on, .. } => Some((on.mover, on.piece)),
            _ => None,
        }
    }

    /// Cuts the static move in `res` (from the body's position) where its path, leg by leg
    /// between contacts, first enters a mover piece: the body is left just outside the piece
    /// (`Movers::nudge_out`), on the static mesh (located; where that fails, the move is undone).
    fn clip_to_movers(&self, env: &Env, res: &mut MoveResult) -> Option<MoverHit> {
        let c = self.collider.0 as usize;
        let skip = self.riding_piece();
        let pass = self.move_options().pass_one_way;
        let mut from = self.body.pos;
        let mut travelled = 0.0;
        let legs = res.contacts.len() + 1;
        for k in 0..legs {
            let to = res.contacts.get(k).map_or(res.body.pos, |ct| ct.point);
            let leg = to - from;
            if let Some(hit) = env.movers.first_hit(c, from, leg, skip, pass) {
                let stop = env
                    .movers
                    .nudge_out(hit.at, c, from + leg * hit.t, hit.normal);
                let mesh = env.mesh(self.collider);
                // Located (a point an ulp across a static edge is projected onto it): the place
                // the body ends at is what must be outside every piece.
                match locate_free(mesh, stop) {
                    Some(body) if env.movers.inside(c, body.pos, None).is_none() => {
                        res.body = body;
                        res.travelled = travelled + from.distance(stop);
                    }
                    _ => {
                        res.body = self.body;
                        res.travelled = 0.0;
                    }
                }
                res.contacts.truncate(k);
                return Some(hit);
            }
            // A leg whose end is inside a piece entered it, whatever the clipping's rounding said
            // (a graze of a corner): the move stops at the leg's start, which is outside.
            if let Some((m, p)) = env.movers.inside(c, to, skip) {
                match locate_free(env.mesh(self.collider), from) {
                    Some(body) if env.movers.inside(c, body.pos, None).is_none() => {
                        res.body = body;
                        res.travelled = travelled;
                    }
                    _ => {
                        res.body = self.body;
                        res.travelled = 0.0;
                    }
                }
                res.contacts.truncate(k);
                return Some(MoverHit {
                    at: MoverEdge {
                        mover: m,
                        piece: p,
                        edge: 0,
                    },
                    t: 0.0,
                    normal: -leg.normalize_or_zero(),
                });
            }
            travelled += leg.length();
            from = to;
        }
        // The piece ridden is skipped (the walk runs along it), but a slide along something else
        // (a static ceiling over a slanted top) must not end inside it: the move is undone.
        // An end an ulp inside it (the walk's rounding) is nudged out along the ridden edge's
        // normal; one further in is undone.
        if let MoveState::Riding { on, .. } = self.state {
            let o = env.movers.offset(on.mover);
            let piece = env.movers.piece(on, c);
            if piece.strictly_contains(res.body.pos - o) {
                let n = piece.normal(on.edge as usize);
                let out = env.movers.nudge_out(on, c, res.body.pos, n);
                match locate_free(env.mesh(self.collider), out) {
                    Some(body)
                        if out.distance(res.body.pos) <= 1e-9
                            && env.movers.inside(c, body.pos, None).is_none() =>
                    {
                        res.body = body
                    }
                    _ => {
                        res.body = self.body;
                        res.travelled = 0.0;
                        res.contacts.clear();
                    }
                }
            }
        }
        None
    }

    /// Moves the body to `target` through [`Hero::slide`] and, when it arrives (within a
    /// nanometre, no mover in the way), puts it exactly there (its face located again): the
    /// places the mover code computes (a rider's point, a push's exit) are checked against the
    /// exact inside test before they are handed out, and the walk's rounding would move them by
    /// an ulp. Returns whether it arrived.
    pub(crate) fn move_exactly_to(
        &mut self,
        env: &Env,
        target: DVec2,
        rep: &mut StepReport,
    ) -> bool {
        let mut r = MoveResult::at(self.body);
        let hit = self.slide(
            env,
            target - self.body.pos,
            self.move_options(),
            rep,
            &mut r,
        );
        if hit.is_some() || self.body.pos.distance(target) > 1e-9 {
            return false;
        }
        let c = self.collider.0 as usize;
        if let Location::Free(b) = env.mesh(self.collider).locate(target, Some(self.body.face)) {
            if env.movers.inside(c, target, self.riding_piece()).is_none() {
                self.body = b;
                return true;
            }
        }
        // Within a nanometre but not exactly there (the target is across a static edge): arrived
        // only if where the walk ended is itself outside every mover.
        env.movers
            .inside(c, self.body.pos, self.riding_piece())
            .is_none()
    }
}

/// Locates `p` on `mesh` as a free body; a point on a blocking edge that rounds into the solid face
/// by up to [`ON_EDGE_TOLERANCE`] counts as on the edge (and is projected onto it).
pub(crate) fn locate_free(mesh: &CollisionMesh, p: DVec2) -> Option<Body> {
    match mesh.locate(p, None) {
        Location::Free(b) => Some(b),
        Location::Solid(f) => (0..3u8).find_map(|i| {
            let e = EdgeRef { face: f, edge: i };
            let g = mesh.face(f).adj[i as usize];
            if mesh.kind(g) == FaceKind::Solid {
                return None;
            }
            let (a, b) = mesh.edge_points(e);
            let (q, _) = crate::collision::closest_on_segment(p, a, b);
            (q.distance(p) <= ON_EDGE_TOLERANCE).then_some(Body { pos: q, face: g })
        }),
        Location::Outside => None,
    }
}
