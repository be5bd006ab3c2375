//! Render preparation: everything the CPU computes for one frame from the simulation state, with
//! no GPU involved (so the frame bench measures it alone). The renderer then only uploads and
//! submits.
use std::ops::Range;

use glam::DVec2;

use super::background_mesh::Backdrop;
use super::camera::{CameraRig, FollowTarget};
use super::collision_overlay::paint_hero;
use super::debug_draw::LineMesh;
use super::globals::{Globals, Lighting};
use super::level_mesh::ChunkTable;
use super::skinned::Palette;
use super::vertex::ColorVertex;
use crate::anim::{HeroAnimator, Transform};
use crate::collision::ColliderId;
use crate::movement::MoveEvent;
use crate::sim::World;

/// One frame's CPU-side render data. Reused across frames to keep allocations out of the loop.
#[derive(Clone, Debug, Default)]
pub struct FrameData {
    /// The uniform block.
    pub globals: Globals,
    /// The hero's joint palette (uploaded once per frame).
    pub hero_palette: Palette,
    /// The hero's drawn pose and joint matrices (scratch, sized on first use).
    hero_pose: Vec<Transform>,
    hero_joints: Vec<glam::Mat4>,
    /// The backdrop's triangles in view.
    pub backdrop: Vec<ColorVertex>,
    /// Index ranges of the static level geometry in view.
    pub level_ranges: Vec<Range<u32>>,
    /// The debug overlay's collider mesh, when the overlay is shown.
    pub overlay: Option<ColliderId>,
    /// The debug overlay's per-frame hero drawing.
    pub overlay_hero: Vec<ColorVertex>,
}

/// What a frame is drawn from, besides the world.
#[derive(Clone, Copy, Debug)]
pub struct FrameParams<'a> {
    /// Blend between the previous and the current tick, `[0, 1]`.
    pub alpha: f64,
    /// Width / height of the target.
    pub aspect: f64,
    /// Seconds since start (for shader animation).
    pub time: f32,
    /// Whether to draw the collision overlay.
    pub overlay: bool,
    /// The static geometry's chunks (for culling).
    pub chunks: &'a ChunkTable,
    /// The level's backdrop (cut to the view each frame).
    pub backdrop: &'a Backdrop,
    /// Sun and ambient.
    pub lighting: &'a Lighting,
    /// Added to the hero's drawn height, m: [`StepSmoothing::offset`] (0 for a still shot).
    pub step_offset: f64,
    /// The hero's animation (its pose is drawn at `alpha` like its position).
    pub hero: &'a HeroAnimator,
}

/// Fraction of a step's height still to be drawn after each tick: a step-up is drawn rising over
/// about four ticks (after 4 ticks, 33 ms, 9 % is left; after 8, 1 %) instead of in one.
pub const STEP_SMOOTHING_KEEP: f64 = 0.55;
/// Offsets smaller than this (m, a hundredth of a millimetre) are dropped.
const STEP_SMOOTHING_MIN: f64 = 1e-5;

/// Smooths the drawn height of steps (`MoveEvent::SteppedUp` / `SteppedDown`): the simulation
/// moves the feet onto the step within one tick; the hero and the camera are drawn that much lower
/// (or higher) and catch up over a few ticks. Updated once per tick from the tick's events and
/// interpolated between ticks like the position, so the drawn height is continuous. Front-end state
/// only: the simulation never sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepSmoothing {
    prev: f64,
    now: f64,
}

impl StepSmoothing {
    /// After a tick with these events.
    pub fn tick(&mut self, events: &[MoveEvent]) {
        self.prev = self.now;
        let mut off = self.now * STEP_SMOOTHING_KEEP;
        for e in events {
            match *e {
                MoveEvent::SteppedUp { height } => off -= height,
                MoveEvent::SteppedDown { height } => off += height,
                _ => {}
            }
        }
        self.now = if off.abs() < STEP_SMOOTHING_MIN {
            0.0
        } else {
            off
        };
    }

    /// The drawn height offset at blend `alpha` between the last two ticks.
    pub fn offset(&self, alpha: f64) -> f64 {
        let a = alpha.clamp(0.0, 1.0);
        self.prev + (self.now - self.prev) * a
    }
}

/// Advances the hero's animation by the tick `world` just ran: its state after the tick and the
/// tick's events. Call after every [`World::step`], so no tick's events are missed.
pub fn animate(hero: &mut HeroAnimator, world: &World) {
    let mut input = crate::anim::AnimInput::from_hero(world.hero(), world.tuning());
    input.ground = ground_under(world);
    hero.tick(
        &input,
        &world.last_report().events,
        1.0 / crate::sim::TICK_HZ as f64,
    );
}

/// The straight ground the hero stands on: the slope of its support edge (the collision mesh's
/// edges run parallel to the level's surfaces) and the half width of the collider's flat bottom.
fn ground_under(world: &World) -> Option<crate::anim::Ground> {
    let hero = world.hero();
    let crate::movement::MoveState::Supported { edge, .. } = hero.state else {
        return None;
    };
    let mesh = world.collision().mesh(hero.collider);
    let (a, b) = mesh.edge_points(edge);
    let d = b - a;
    if d.x.abs() < 1e-9 {
        return None;
    }
    let c = mesh.collider();
    let lo = c.iter().fold(f64::MAX, |m, p| m.min(p.x));
    let hi = c.iter().fold(f64::MIN, |m, p| m.max(p.x));
    Some(crate::anim::Ground {
        slope: d.y / d.x,
        half_width: (hi - lo) / 2.0,
    })
}

/// The hero's drawn position: the blend of its positions before and after the last tick.
pub fn interpolated_hero(world: &World, alpha: f64) -> DVec2 {
    world
        .prev_pos()
        .lerp(world.hero().body.pos, alpha.clamp(0.0, 1.0))
}

/// What the camera should follow this frame: the hero's drawn position, `step_offset` (m) added
/// to its height (see [`StepSmoothing`]).
pub fn follow_target(world: &World, alpha: f64, step_offset: f64) -> FollowTarget {
    let h = world.hero();
    FollowTarget {
        pos: interpolated_hero(world, alpha) + DVec2::new(0.0, step_offset),
        vel: h.vel,
        facing: h.facing,
    }
}

impl FrameData {
    /// Fills the frame from the world and the camera (updated by the caller for this frame).
    pub fn prepare(&mut self, world: &World, camera: &CameraRig, p: &FrameParams<'_>) {
        let view = camera.view(p.aspect);
        self.globals = p.lighting.globals(&view, p.time);
        p.chunks.visible(&view.visible, &mut self.level_ranges);
        p.backdrop.vertices(&view, &mut self.backdrop);
        let hero = world.hero();
        let at = interpolated_hero(world, p.alpha) + DVec2::new(0.0, p.step_offset);
        let joints = p.hero.model().skeleton.len();
        if self.hero_pose.len() != joints {
            self.hero_pose = vec![Transform::IDENTITY; joints];
            self.hero_joints = vec![glam::Mat4::IDENTITY; joints];
        }
        p.hero
            .palette_into(at, p.alpha, &mut self.hero_pose, &mut self.hero_joints);
        self.hero_palette.set(&self.hero_joints);
        self.overlay_hero.clear();
        self.overlay = None;
        if p.overlay {
            self.overlay = Some(hero.collider);
            let mut lines = LineMesh {
                vertices: std::mem::take(&mut self.overlay_hero),
                z: 0.0,
            };
            paint_hero(world.collision().mesh(hero.collider), hero, at, &mut lines);
            self.overlay_hero = lines.vertices;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_up_is_drawn_continuously_and_caught_up_within_a_few_ticks() {
        let mut s = StepSmoothing::default();
        s.tick(&[]);
        assert_eq!(s.offset(0.5), 0.0);
        // The tick that steps up 0.2 m: at its start the hero is drawn where it was (offset 0),
        // at its end 0.2 m lower than the simulation's feet, i.e. still at the old height.
        s.tick(&[MoveEvent::SteppedUp { height: 0.2 }]);
        assert_eq!(s.offset(0.0), 0.0);
        assert!((s.offset(1.0) + 0.2).abs() < 1e-15);
        let mut last = s.offset(1.0);
        for _ in 0..8 {
            s.tick(&[]);
            // Continuous across the tick boundary, and rising monotonically.
            assert_eq!(s.offset(0.0), last);
            assert!(s.offset(1.0) > last);
            last = s.offset(1.0);
        }
        assert!(last.abs() < 0.2 * 0.01, "{last}");
        for _ in 0..20 {
            s.tick(&[]);
        }
        assert_eq!(s.offset(1.0), 0.0);
    }

    #[test]
    fn steps_down_are_drawn_from_above_and_other_events_change_nothing() {
        let mut s = StepSmoothing::default();
        s.tick(&[MoveEvent::SteppedDown { height: 0.1 }, MoveEvent::Jumped]);
        assert!((s.offset(1.0) - 0.1).abs() < 1e-15);
        let mut t = StepSmoothing::default();
        t.tick(&[MoveEvent::Jumped, MoveEvent::Crouched]);
        assert_eq!(t, StepSmoothing::default());
    }
}
