//! The hero's movement states and the events a step emits (for animation and sound).
use glam::DVec2;
use serde::Serialize;

use crate::collision::{EdgeRef, MoverEdge, PolygonId};

/// Where the hero is in the movement state machine. Each variant has one step function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveState {
    /// Walking along a blocking edge (seen from the free side). `speed` is the signed speed along
    /// the edge's direction (its direction has free space on the left, so positive is rightwards
    /// on walkable ground).
    Supported { edge: EdgeRef, speed: f64 },
    /// Standing on a mover: walking along edge `on` of its piece (inflated by the collider in
    /// use), the feet at `local` in the mover's frame (so the mover carries them exactly, by its
    /// pose, with no drift), `speed` the signed speed along the edge relative to the mover.
    Riding {
        on: MoverEdge,
        local: DVec2,
        speed: f64,
    },
    /// In the air under gravity.
    Airborne,
    /// Airborne and pressing into a wall steeper than the max slope: the fall is capped.
    /// `normal_x` is the sign of the wall's normal (+1: wall on the left of the hero).
    WallSlide { normal_x: f64 },
    /// Holding a ladder (index into the level's ladders).
    Climbing { ladder: usize },
    /// Top-down mode: no gravity, 8-way movement.
    TopDown,
}

impl MoveState {
    /// The name written in traces.
    pub fn name(&self) -> &'static str {
        match self {
            MoveState::Supported { .. } => "supported",
            MoveState::Riding { .. } => "riding",
            MoveState::Airborne => "airborne",
            MoveState::WallSlide { .. } => "wall_slide",
            MoveState::Climbing { .. } => "climbing",
            MoveState::TopDown => "top_down",
        }
    }
    /// Whether the state variant differs (ignoring its data).
    pub fn same_variant(&self, o: &MoveState) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(o)
    }
}

/// What a state's step decided (or a rule of the world: a mover carrying or pushing a character,
/// a door opening under it): the state after the tick and the velocity to go with it, made by
/// the one writer ([`Hero::apply`](super::Hero::apply) with [`Change::To`](super::character::Change::To)).
#[derive(Clone, Copy, Debug, PartialEq)]
#[must_use]
pub(crate) struct Transition {
    /// The state after this step.
    pub next: MoveState,
    /// The velocity after this step, m/s.
    pub vel: DVec2,
    /// Whether `next` also runs in this tick (with the body where this step left it). Only the
    /// airborne state is re-entered, and it never asks for it (`hero.rs`).
    pub reenter: bool,
}

impl Transition {
    /// Ends the tick in `next` with velocity `vel`.
    pub fn to(next: MoveState, vel: DVec2) -> Transition {
        Transition {
            next,
            vel,
            reenter: false,
        }
    }

    /// Enters `next` with velocity `vel` and runs it for the rest of this tick.
    pub fn reenter(next: MoveState, vel: DVec2) -> Transition {
        Transition {
            next,
            vel,
            reenter: true,
        }
    }
}

/// Something that happened during a step, for animation clips and sound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveEvent {
    /// Left the ground with a jump.
    Jumped,
    /// Jumped in the air (only with `air_jumps` > 0).
    AirJumped,
    /// Jumped off a wall.
    WallJumped,
    /// Landed on walkable ground at this downward speed (m/s), on this surface.
    Landed {
        impact_speed: f64,
        surface: Option<PolygonId>,
    },
    /// Landed on (or walked onto) mover `mover`, which now carries the hero (as well as
    /// `Landed` when it came from the air).
    Boarded { mover: u32 },
    /// Walked or ran off an edge (no jump): coyote time starts.
    LeftGround,
    /// Hit a ceiling while rising.
    Bonked,
    /// Started sliding down a wall.
    WallSlideStarted,
    /// Stopped sliding down a wall (landed, let go, jumped off or slid past its end).
    WallSlideStopped,
    /// A footstep: the hero walked another `footstep_stride` metres along the ground, on this
    /// surface (the source polygon under the feet, if any).
    Footstep { surface: Option<PolygonId> },
    /// Climbed past another rung of a ladder (every [`RUNG_SPACING`](super::climbing::RUNG_SPACING)
    /// metres of climb travel, up or down).
    LadderRung,
    /// Switched to the crouching collider.
    Crouched,
    /// Switched back to the standing collider.
    StoodUp,
    /// Grabbed a ladder.
    GrabbedLadder,
    /// Let go of a ladder (jumped off, stepped off at the top or the bottom).
    LeftLadder,
    /// Dropped down through a one-way platform.
    DroppedThrough,
    /// Was stopped by a wall or a slope too steep to walk up.
    Blocked { normal: [f64; 2] },
    /// Walked up a riser no higher than `max_step_height` onto the ground above: the feet rose
    /// by `height` m within the tick (the front end smooths the drawn height).
    SteppedUp { height: f64 },
    /// Walked down a riser no higher than `max_step_height` and stayed on the ground: the feet
    /// dropped by `height` m within the tick.
    SteppedDown { height: f64 },
}

/// Per-step output besides the new state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Events in the order they happened.
    pub events: Vec<MoveEvent>,
    /// Number of blocking-edge contacts met by the moves this step.
    pub contacts: usize,
    /// The displacement actually made this step.
    pub moved: DVec2,
}

impl StepReport {
    /// Empties the report for the next step, keeping the event list's allocation.
    pub fn clear(&mut self) {
        self.events.clear();
        self.contacts = 0;
        self.moved = DVec2::ZERO;
    }
}
