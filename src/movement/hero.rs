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
use super::{airborne, climbing, supported, top_down};
use crate::collision::{
    Body, ColliderId, CollisionMesh, EdgeRef, FaceKind, Location, MoveOptions, MoveResult,
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

    /// Whether the hero stands on ground.
    pub fn grounded(&self) -> bool {
        matches!(self.state, MoveState::Supported { .. })
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
            (MoveState::Climbing { .. }, MoveState::Climbing { .. }) => {
                self.travel += moved.y.abs();
                if self.travel >= RUNG_SPACING {
                    self.travel %= RUNG_SPACING;
                    rep.events.push(MoveEvent::LadderRung);
                }
            }
            (_, MoveState::Supported { .. }) => self.travel = 0.5 * t.footstep_stride,
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
        self.body = body;
        self.collider = to;
        if let MoveState::Supported { speed, .. } = self.state {
            self.state = match walkable_support(mesh, body, self.move_options(), self.walk_limit) {
                Some(edge) => MoveState::Supported { edge, speed },
                None => MoveState::Airborne,
            };
        }
        true
    }

    /// Moves the body by `d` on `mesh` with move-and-slide, counting the contacts into `rep`; the
    /// result (contacts, distance travelled) is left in `res` for the caller's own use (filled in
    /// place: returning it by value cost ~5 % of a step).
    pub(crate) fn slide(
        &mut self,
        mesh: &CollisionMesh,
        d: DVec2,
        opts: MoveOptions,
        rep: &mut StepReport,
        res: &mut MoveResult,
    ) {
        *res = MoveResult::at(self.body);
        mesh.move_and_slide_in(res, d, opts);
        rep.contacts += res.contacts.len();
        // Field by field: copying the whole `Body` loads its padding with the face id as one
        // 8-byte word, which cannot be forwarded from the walk's 4-byte store and stalled the
        // step (~10 % of it under `perf`).
        self.body.pos = res.body.pos;
        self.body.face = res.body.face;
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
