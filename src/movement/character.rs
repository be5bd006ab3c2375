//! A character's movement data, and the one function that changes its body, velocity and state.
//!
//! # What it owns
//! [`Hero`]: a body on the collision world (the feet and the face of the mesh of the collider in
//! use), a velocity, its size class and collider, a [`MoveState`] and the state machine's memory
//! (timers, counters). The hero is one; `sim::agents` gives every other character one too.
//!
//! # One writer
//! [`Hero::apply`] is the only place that writes a character's `body`, `vel` or `state` (and,
//! with them, its collider). Everything that would change them proposes a [`Change`] instead: a
//! movement state's step returns a [`Transition`] and makes its moves through the walk
//! (`moves.rs`), which hands each move's end to `apply`; a mover carrying or pushing a character
//! (`sim::movers`), a door opening under it or closing on it, a knock-back or a stomp's bounce
//! (`sim::play`, `sim::agents`) and a spawn, a respawn or a relocation after a level swap all
//! return a change that `apply` makes. Readers read the fields directly (they stay public).
//!
//! # Must never depend on
//! The movement states, `rules` or `hero` (they are above it): this module is the bottom of the
//! movement layer with `state`, `env` and `tuning`.
use glam::DVec2;

use super::env::SizeClass;
use super::state::{MoveState, Transition};
use crate::collision::{Body, ColliderId, MoveOptions};

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

/// A character's movement state: the hero's, or an agent's (the same type and step).
///
/// `body`, `vel`, `state` and `collider` are public to read; only [`Hero::apply`] writes them.
#[derive(Clone, Debug, PartialEq)]
pub struct Hero {
    /// Position (feet) and face on the current collider's mesh.
    pub body: Body,
    /// Velocity, m/s (while supported: the edge direction times the ground speed).
    pub vel: DVec2,
    /// The collider (and mesh) in use: the size class's standing or crouching collider.
    pub collider: ColliderId,
    /// The colliders this character moves with ([`HERO_CLASS`](super::HERO_CLASS) for the hero).
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
    /// The `max_slope_deg` that `walk_limit` was computed for.
    pub(crate) walk_limit_for: f64,
    /// Distance (m) travelled since the last footstep (while supported) or rung (while climbing),
    /// for [`MoveEvent::Footstep`](super::MoveEvent::Footstep) and
    /// [`MoveEvent::LadderRung`](super::MoveEvent::LadderRung). Sound bookkeeping: not part of
    /// `World::state_hash` (it never changes the motion).
    pub(crate) travel: f64,
    /// How far the world's carry moved the character in this tick, before its step (zero when it
    /// was not riding): the step's air (a take-off off the mover, or a rider the carry left in
    /// the air) flies the tick less this, so the tick moves it once (`sim::movers`, "The take-off
    /// tick"). Set for every character each tick with movers before its step, which clears it;
    /// not part of `World::state_hash` (nothing of it outlives the tick).
    pub(crate) carried: DVec2,
}

/// A change to a character's body, velocity or state, proposed by whatever decided it and made
/// by [`Hero::apply`] (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Change {
    /// The body moved to this place on the mesh of the collider in use: a move's end (the walk,
    /// or a re-seat at a joint, on a step or off a ladder). The velocity and state stay.
    Move(Body),
    /// The state machine goes to the transition's state with its velocity (a state's step, a
    /// carry, a push, a door under the feet); the body stays. Whether the transition re-enters
    /// within the tick is the hero's step's business, not the change's.
    To(Transition),
    /// Thrown into the air at `vel` (a knock-back, a stomp's bounce): airborne, its ticks in
    /// state from 0; with `controlled`, the rise is a jump's (releasing the jump button cuts it).
    Launch {
        /// The velocity, m/s.
        vel: DVec2,
        /// Whether the jump button controls the rise.
        controlled: bool,
    },
    /// The body on the mesh of another of its colliders (crouching or standing up, the squish
    /// rule), with the state that goes with it there.
    Collider {
        /// The body on the new collider's mesh.
        body: Body,
        /// The collider now in use.
        collider: ColliderId,
        /// The state there.
        state: MoveState,
    },
    /// The character replaced whole: a spawn or respawn, a relocation after a level swap, a door
    /// closing on it or a crush.
    Replace(Box<Hero>),
    /// The world's carry moved the character this far in this tick (`Hero::carried`); the body
    /// has already been moved (through the walk).
    Carried(DVec2),
}

impl Hero {
    /// Makes `change`: the only writer of the character's body, velocity and state (see the
    /// module docs).
    #[inline]
    pub(crate) fn apply(&mut self, change: Change) {
        match change {
            Change::Move(b) => {
                // Field by field: copying the whole `Body` loads its padding with the face id as
                // one 8-byte word, which cannot be forwarded from the walk's 4-byte store and
                // stalled the step (~10 % of it under `perf`).
                self.body.pos = b.pos;
                self.body.face = b.face;
            }
            Change::To(tr) => {
                self.state = tr.next;
                self.vel = tr.vel;
            }
            Change::Launch { vel, controlled } => {
                self.state = MoveState::Airborne;
                self.vel = vel;
                self.ticks_in_state = 0;
                self.jump_rising = controlled;
            }
            Change::Collider {
                body,
                collider,
                state,
            } => {
                self.body = body;
                self.collider = collider;
                self.state = state;
            }
            Change::Replace(hero) => *self = *hero,
            Change::Carried(d) => self.carried = d,
        }
    }

    /// Whether the character stands on ground (static, or a mover).
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

    /// The mover piece this character stands on (skipped by its own moves: it walks along it).
    pub(crate) fn riding_piece(&self) -> Option<(u32, u16)> {
        match self.state {
            MoveState::Riding { on, .. } => Some((on.mover, on.piece)),
            _ => None,
        }
    }
}
