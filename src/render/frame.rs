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
use super::hero_mesh::{hero_vertices, HeroPose};
use super::level_mesh::ChunkTable;
use super::vertex::{ColorVertex, MeshVertex};
use crate::collision::ColliderId;
use crate::sim::World;

/// One frame's CPU-side render data. Reused across frames to keep allocations out of the loop.
#[derive(Clone, Debug, Default)]
pub struct FrameData {
    /// The uniform block.
    pub globals: Globals,
    /// The hero's triangles.
    pub hero: Vec<MeshVertex>,
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
}

/// The hero's drawn position: the blend of its positions before and after the last tick.
pub fn interpolated_hero(world: &World, alpha: f64) -> DVec2 {
    world
        .prev_pos()
        .lerp(world.hero().body.pos, alpha.clamp(0.0, 1.0))
}

/// What the camera should follow this frame.
pub fn follow_target(world: &World, alpha: f64) -> FollowTarget {
    let h = world.hero();
    FollowTarget {
        pos: interpolated_hero(world, alpha),
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
        let at = interpolated_hero(world, p.alpha);
        let mesh = world.collision().mesh(hero.collider);
        let c = mesh.collider();
        let lo = c.iter().fold(DVec2::MAX, |a, &b| a.min(b));
        let hi = c.iter().fold(DVec2::MIN, |a, &b| a.max(b));
        self.hero.clear();
        hero_vertices(
            &HeroPose {
                feet: at,
                extent: (lo, hi),
                facing: hero.facing,
            },
            &mut self.hero,
        );
        self.overlay_hero.clear();
        self.overlay = None;
        if p.overlay {
            self.overlay = Some(hero.collider);
            let mut lines = LineMesh {
                vertices: std::mem::take(&mut self.overlay_hero),
                z: 0.0,
            };
            paint_hero(mesh, hero, at, &mut lines);
            self.overlay_hero = lines.vertices;
        }
    }
}
