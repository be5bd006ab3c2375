//! The hero's step: the movement state machine run for one tick, and placing a character.
//!
//! [`Hero::step`] is the whole per-tick update: timers, crouch/stand collider switching, then the
//! current state's step function (one per state, in `supported`, `riding`, `airborne`,
//! `climbing`, `top_down`), each sequential and readable. A state's step returns a
//! [`Transition`]; the step hands it to [`Hero::apply`] (`character.rs`, the one writer of a
//! character's body, velocity and state) and runs the next state in the same tick when the
//! transition asks for it. Spawning and relocating build a character and propose the changes
//! the same way.
//!
//! The character's data ([`Hero`], `character.rs`) and its moves (`moves.rs`) lie below the
//! states; this file is above them, and nothing below it names it.
use glam::DVec2;

use super::actions::Actions;
use super::character::{Change, Hero, Timers};
use super::env::{Env, SizeClass, HERO_CLASS};
use super::moves::locate_free;
use super::rules::{min_walk_normal_y, walkable_support, Ctx, Transition, RUNG_SPACING};
use super::state::{MoveEvent, MoveState, StepReport};
use super::tuning::Tuning;
use super::{airborne, climbing, riding, supported, top_down};
use crate::collision::{Body, ColliderId, Location, MoveOptions};

pub use super::rules::GROUND_PROBE;

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
    /// distance moved is returned). Starts supported if ground is right below, riding a mover if
    /// a mover's walkable top is right below (seated on it), else airborne.
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
    /// on the ground when walkable static ground is under its feet, riding a mover when a
    /// walkable top of one (at its pose this tick) is under them ([`seat_on_mover`]), else
    /// airborne (top-down in top-down mode).
    fn placed(
        env: &Env,
        body: Body,
        class: SizeClass,
        collider: ColliderId,
        tuning: &Tuning,
    ) -> Hero {
        let walk_limit = min_walk_normal_y(tuning);
        let (state, body) = if tuning.top_down {
            (MoveState::TopDown, body)
        } else if let Some(s) =
            walkable_support(env.mesh(collider), body, MoveOptions::default(), walk_limit)
        {
            let supported = MoveState::Supported {
                edge: s,
                speed: 0.0,
            };
            (supported, body)
        } else if let Some(seated) = seat_on_mover(env, body, collider, walk_limit) {
            seated
        } else {
            (MoveState::Airborne, body)
        };
        Hero {
            body,
            vel: DVec2::ZERO,
            collider,
            class,
            state,
            ticks_in_state: 0,
            facing: 1.0,
            timers: Timers::default(),
            jump_rising: false,
            air_jumps_left: tuning.air_jumps,
            wall_normal_x: 0.0,
            wall_mover: None,
            walk_limit,
            walk_limit_for: tuning.max_slope_deg,
            travel: 0.5 * tuning.footstep_stride,
            carried: DVec2::ZERO,
        }
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
        self.relocate_as(self.collider, env, tuning)
    }

    /// [`Hero::relocate`] with `collider` (one of the character's class) taken as the one in use:
    /// a door closing on a character tries its crouching collider first.
    pub(crate) fn relocate_as(
        &self,
        collider: ColliderId,
        env: &Env,
        tuning: &Tuning,
    ) -> Result<(Hero, f64), SpawnError> {
        // Crouching where only the crouching collider fits stays crouching; otherwise the standing
        // collider, at the nearest free point.
        let crouched = match env.mesh(collider).locate(self.body.pos, None) {
            Location::Free(body) if collider != self.class.stand => Some(body),
            _ => None,
        };
        let (mut hero, moved) = match crouched {
            Some(body) => (Hero::placed(env, body, self.class, collider, tuning), 0.0),
            None => Hero::spawn_as(env, self.class, self.body.pos, tuning)?,
        };
        hero.facing = self.facing;
        if moved > 0.0 {
            // Moved as a spawn is: it keeps its velocity, but on a mover it starts at rest on it.
            if !matches!(hero.state, MoveState::Riding { .. }) {
                hero.apply(Change::To(Transition::to(hero.state, self.vel)));
            }
            return Ok((hero, moved));
        }
        hero.timers = self.timers;
        hero.jump_rising = self.jump_rising;
        hero.air_jumps_left = self.air_jumps_left.min(tuning.air_jumps);
        hero.wall_normal_x = self.wall_normal_x;
        hero.travel = self.travel;
        let state = match (self.state, hero.state) {
            (MoveState::Supported { speed, .. }, MoveState::Supported { edge, .. }) => {
                MoveState::Supported { edge, speed }
            }
            (MoveState::Riding { speed, .. }, MoveState::Riding { on, local, .. }) => {
                MoveState::Riding { on, local, speed }
            }
            (MoveState::Climbing { ladder }, _)
                if env
                    .ladders
                    .get(ladder)
                    .is_some_and(|l| l.contains(hero.body.pos)) =>
            {
                MoveState::Climbing { ladder }
            }
            (_, state) => state,
        };
        // A rider's velocity is relative to its mover: kept riding, its own; put on a mover, at
        // rest on it (as a spawn there).
        let vel = match (self.state, state) {
            (_, MoveState::Riding { on, speed, .. }) => {
                let piece = env.movers.piece(on, hero.collider.0 as usize);
                piece.walk_dir(on.edge as usize) * speed
            }
            _ => self.vel,
        };
        hero.apply(Change::To(Transition::to(state, vel)));
        if hero.state.same_variant(&self.state) {
            hero.ticks_in_state = self.ticks_in_state;
        }
        Ok((hero, moved))
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
            self.apply(Change::To(Transition::to(MoveState::TopDown, self.vel)));
        } else if !t.top_down && self.state == MoveState::TopDown {
            self.apply(Change::To(Transition::to(MoveState::Airborne, self.vel)));
        }
        self.update_crouch(env, &a, t, rep);
        let cx = Ctx { env, a: &a, t, dt };
        // At most two runs. Only the air is ever re-entered (a jump or a drop-through off the
        // ground flies the rest of the tick) and it never re-enters, so the second run calls it
        // directly: a second dispatch kept `run_state` out of line (+3 % instructions a step),
        // and a loop let the optimiser hoist a state's loop-invariant work into every step.
        let tr = self.run_state(&cx, rep);
        self.apply(Change::To(tr));
        if tr.reenter {
            debug_assert_eq!(tr.next, MoveState::Airborne, "only the air is re-entered");
            // The take-off tick: off a mover, the world's carry has already moved the character
            // with it this tick, so the air flies the tick less that (`sim::movers`); so does a
            // rider the carry left in the air (scraped off by a wall).
            let again = airborne::step(self, &cx, false, self.carried, rep);
            debug_assert!(!again.reenter, "the air re-entered {:?}", again.next);
            self.apply(Change::To(again));
        }
        if self.carried != DVec2::ZERO {
            // Read by this tick's air step only.
            self.apply(Change::Carried(DVec2::ZERO));
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
            MoveState::Airborne => airborne::step(self, cx, false, self.carried, rep),
            MoveState::WallSlide { .. } => airborne::step(self, cx, true, DVec2::ZERO, rep),
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
        let state = match self.state {
            MoveState::Supported { speed, .. } => {
                match walkable_support(mesh, body, self.move_options(), self.walk_limit) {
                    Some(edge) => MoveState::Supported { edge, speed },
                    None => MoveState::Airborne,
                }
            }
            // The same feet on the other collider's inflation of the mover.
            MoveState::Riding { speed, .. } => match env.movers.support_below(
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
            },
            state => state,
        };
        self.apply(Change::Collider {
            body,
            collider: to,
            state,
        });
        true
    }
}

/// A character placed at `body` (on the mesh of `collider`) over a mover's walkable top within
/// [`GROUND_PROBE`] below its feet, at the mover's pose this tick: riding it from there, at rest
/// relative to it, seated on the top as the carry seats a rider (the point of the top under the
/// feet, nudged out of the piece along the edge's normal: `collision::Movers::nudge_out`), its
/// point in the mover's frame that seat less the mover's offset. `None` when no mover's top is
/// under the feet, or the seat is not free of the static geometry and the other movers.
fn seat_on_mover(
    env: &Env,
    body: Body,
    collider: ColliderId,
    walk_limit: f64,
) -> Option<(MoveState, Body)> {
    let movers = env.movers;
    let c = collider.0 as usize;
    let (on, under) = movers.support_below(c, body.pos, GROUND_PROBE, walk_limit, false)?;
    let normal = movers.piece(on, c).normal(on.edge as usize);
    let seat = movers.nudge_out(on, c, under, normal);
    let Location::Free(seated) = env.mesh(collider).locate(seat, Some(body.face)) else {
        return None;
    };
    if movers.inside(c, seat, Some((on.mover, on.piece))).is_some() {
        return None;
    }
    let riding = MoveState::Riding {
        on,
        local: seat - movers.offset(on.mover),
        speed: 0.0,
    };
    Some((riding, seated))
}
