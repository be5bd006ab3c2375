//! Render preparation: everything the CPU computes for one frame from the simulation state and the
//! view's [`Snapshot`], with no GPU involved (so the frame bench measures it alone). The renderer
//! then only uploads and submits.
use std::ops::Range;

use glam::DVec2;

use super::background_mesh::Backdrop;
use super::collision_overlay::{
    paint_agent, paint_hero, paint_mover_inflations, paint_region, CHECKPOINT, CHECKPOINT_REACHED,
    GOAL, MOVER_INFLATION_CLASSES, MOVER_INFLATION_HERO,
};
use super::debug_draw::LineMesh;
use super::globals::{Globals, Lighting};
use super::level_mesh::ChunkTable;
use super::object_mesh::ObjectMesh;
use super::sign_mesh::paint_sign;
use super::skinned::{Palette, ENEMY_RIM};
use super::switch_paint::{link_colour, paint_lamp, paint_link, paint_switch};
use super::vertex::{ColorVertex, MeshVertex};
use crate::anim::Transform;
use crate::collision::ColliderId;
use crate::sim::World;
use crate::view::{interpolated_hero, Snapshot};

/// How far outside the visible rectangle (m) an agent's feet may be and its character still be
/// drawn: the largest size class is 2.2 m tall, and a character may reach further than its
/// collider (an arm, a weapon).
pub const CAST_CULL_MARGIN: f64 = 4.0;

/// One frame's CPU-side render data. Reused across frames to keep allocations out of the loop.
#[derive(Clone, Debug, Default)]
pub struct FrameData {
    /// The uniform block.
    pub globals: Globals,
    /// The hero's joint palette (uploaded once per frame).
    pub hero_palette: Palette,
    /// Pixels on screen per unit of the hero's mesh (its level of detail follows).
    pub hero_pixels_per_unit: f32,
    /// The hero's drawn pose and joint matrices (scratch, sized on first use).
    hero_pose: Vec<Transform>,
    hero_joints: Vec<glam::Mat4>,
    /// The backdrop's triangles in view.
    pub backdrop: Vec<ColorVertex>,
    /// Whether [`Self::backdrop`] covers every pixel of the view, so that the main pass need not
    /// clear its colour ([`crate::render::background_mesh::Backdrop::vertices`]).
    pub backdrop_covers: bool,
    /// Index ranges of the static level geometry in view (the shadow pass's).
    pub level_ranges: Vec<Range<u32>>,
    /// The same split for the lit pass ([`crate::render::level_mesh::ChunkTable::visible_split`]):
    /// the open front faces, drawn without a shadow lookup, and the rest.
    pub level_open: Vec<Range<u32>>,
    pub level_rest: Vec<Range<u32>>,
    /// The movers' and doors' slabs, switched hazards' spikes, the checkpoints' flags and the
    /// goal's gate placed for this frame ([`ObjectMesh::place_into`]), drawn
    /// with the renderer's index buffer of the level's [`ObjectMesh`].
    pub objects: Vec<MeshVertex>,
    /// The debug overlay's collider mesh, when the overlay is shown.
    pub overlay: Option<ColliderId>,
    /// The debug overlay's per-frame hero drawing.
    pub overlay_hero: Vec<ColorVertex>,
    /// The level's switches and agents, drawn flat on the play plane over the scene (empty in a
    /// level without them), and the signs shown (`sign_mesh`). Agents drawn with a character are in `cast` instead.
    pub living: Vec<ColorVertex>,
    /// The agents drawn with a character and in view, in the world's agent order.
    pub cast: Vec<CastDraw>,
    /// Scratch pose and joint matrices for the cast (sized to the largest skeleton).
    cast_pose: Vec<Transform>,
    cast_joints: Vec<glam::Mat4>,
}

/// One agent drawn with its character this frame.
#[derive(Clone, Copy, Debug)]
pub struct CastDraw {
    /// The agent's index in the world.
    pub agent: usize,
    /// Its model's index in the view's [`crate::view::Cast::models`].
    pub model: usize,
    /// Its joint palette.
    pub palette: Palette,
    /// Pixels on screen per unit of its model's mesh (its level of detail follows).
    pub pixels_per_unit: f32,
}

/// What the renderer brings to a frame: the target's shape and the level's drawing data. The
/// rest comes from the view's [`Snapshot`].
#[derive(Clone, Copy, Debug)]
pub struct FrameParams<'a> {
    /// Width / height of the target.
    pub aspect: f64,
    /// Height of the target, pixels.
    pub height: u32,
    /// The static geometry's chunks (for culling).
    pub chunks: &'a ChunkTable,
    /// The level's backdrop (cut to the view each frame).
    pub backdrop: &'a Backdrop,
    /// Sun and ambient.
    pub lighting: &'a Lighting,
    /// The level's movers and doors in their rest poses.
    pub objects: &'a ObjectMesh,
}

/// Mover `m`'s pose drawn at blend `alpha` between its last two ticks.
fn mover_drawn_at(world: &World, m: usize, alpha: f64) -> crate::collision::Pose {
    world.movers().drawn_pose(m as u32, alpha)
}

/// Pixels on a target `height` pixels tall per unit of a skinned mesh whose feet are `at` on the
/// play plane and whose palette is `joints`: pixels per metre there (the projected height of a
/// metre up from the feet) times the mesh-to-world scale of its first joint's skin matrix (a
/// character file's `scale`, the model's own units).
fn pixels_per_unit(
    view: &crate::view::camera::CameraView,
    height: u32,
    at: DVec2,
    joints: &[glam::Mat4],
) -> f32 {
    let y = |p: glam::Vec3| {
        let c = view.view_proj * p.extend(1.0);
        c.y / c.w
    };
    let feet = glam::Vec3::new(at.x as f32, at.y as f32, 0.0);
    let per_metre = (y(feet + glam::Vec3::Y) - y(feet)).abs() * height as f32 / 2.0;
    let scale = joints.first().map_or(1.0, |m| m.x_axis.truncate().length());
    per_metre * scale
}

impl FrameData {
    /// The palettes of the agents drawn with characters whose feet are in `visible` (an
    /// enemy's with its rim light, [`ENEMY_RIM`]).
    /// A defeated agent is drawn while its body is shown ([`crate::view::Member::shown`]).
    fn prepare_cast(
        &mut self,
        world: &World,
        snap: &Snapshot<'_>,
        view: &crate::view::camera::CameraView,
        height: u32,
    ) {
        let visible = &view.visible.expand(CAST_CULL_MARGIN);
        self.cast.clear();
        for (agent, m) in snap.cast.members() {
            if !m.shown() {
                continue;
            }
            let at = m.drawn_at(snap.alpha);
            if !visible.contains(at) {
                continue;
            }
            let joints = m.animator.model().skeleton.len();
            if self.cast_pose.len() < joints {
                self.cast_pose.resize(joints, Transform::IDENTITY);
            }
            if self.cast_joints.len() < joints {
                self.cast_joints.resize(joints, glam::Mat4::IDENTITY);
            }
            m.animator.palette_into(
                at,
                snap.alpha,
                &mut self.cast_pose[..joints],
                &mut self.cast_joints[..joints],
            );
            let mut palette = Palette::default();
            palette.set(&self.cast_joints[..joints]);
            let tint = m.drawn_tint();
            // An enemy in play is rimmed with light; a defeated one's body is not.
            let enemy = world
                .agents()
                .get(agent)
                .is_some_and(|a| a.kind.is_enemy() && !a.defeated);
            let rim = if enemy { ENEMY_RIM } else { 0.0 };
            palette.tint = [tint[0], tint[1], tint[2], rim];
            self.cast.push(CastDraw {
                agent,
                model: m.model,
                palette,
                pixels_per_unit: pixels_per_unit(view, height, at, &self.cast_joints[..joints]),
            });
        }
    }

    /// Fills the frame from the world and the view's snapshot (its camera updated for this frame).
    pub fn prepare(&mut self, world: &World, snap: &Snapshot<'_>, p: &FrameParams<'_>) {
        let view = snap.camera.view(p.aspect);
        self.globals = p.lighting.globals(&view, snap.time);
        p.chunks.visible(&view.visible, &mut self.level_ranges);
        p.chunks
            .visible_split(&view.visible, &mut self.level_open, &mut self.level_rest);
        self.backdrop_covers = p.backdrop.vertices(&view, &mut self.backdrop);
        let hero = world.hero();
        let at = interpolated_hero(world, snap.alpha) + DVec2::new(0.0, snap.step_offset);
        let joints = snap.hero.model().skeleton.len();
        if self.hero_pose.len() != joints {
            self.hero_pose = vec![Transform::IDENTITY; joints];
            self.hero_joints = vec![glam::Mat4::IDENTITY; joints];
        }
        snap.hero
            .palette_into(at, snap.alpha, &mut self.hero_pose, &mut self.hero_joints);
        self.hero_palette.set(&self.hero_joints);
        self.hero_pixels_per_unit = pixels_per_unit(&view, p.height, at, &self.hero_joints);
        // Movers where they are drawn this frame (between their last two poses, as the hero),
        // doors as far open as the view draws them, switched hazards' spikes raised or sunk.
        let movers = world.movers().len();
        p.objects.place_into(
            |m| (m < movers).then(|| mover_drawn_at(world, m, snap.alpha)),
            |d| {
                snap.doors.drawn(d, snap.alpha).unwrap_or_else(|| {
                    f64::from(u8::from(world.doors().get(d).is_some_and(|s| s.open)))
                })
            },
            |h| world.hazard_states().any(|(p, on)| p == h && on),
            world.checkpoint(),
            &mut self.objects,
        );
        let mut lines = LineMesh {
            vertices: std::mem::take(&mut self.living),
            z: 0.0,
        };
        lines.vertices.clear();
        lines.z = 0.0;
        // Each switch, its cable along the level's front and its door's lamp, in the door's
        // colour.
        let front = super::level_mesh::SlabConfig::default().front_depth() + 0.02;
        for (i, (door, state)) in world.level().doors.iter().zip(world.doors()).enumerate() {
            let Some(b) = &door.switch else {
                continue;
            };
            let colour = link_colour(i);
            lines.z = 0.0;
            paint_switch(b, colour, state.open, &mut lines);
            lines.z = front;
            paint_link(b, &door.points, colour, &mut lines);
            lines.z = super::object_mesh::DOOR_HALF_DEPTH + 0.01;
            let open = snap.doors.drawn(i, snap.alpha).unwrap_or(0.0);
            paint_lamp(&door.points, colour, open, &mut lines);
        }
        lines.z = 0.0;
        for (i, a) in world.agents().iter().enumerate() {
            if !a.defeated && !snap.cast.has(i) {
                let mesh = world.collision().mesh(a.mover.collider);
                paint_agent(mesh, a, a.mover.body.pos, &mut lines);
            }
        }
        // The signs shown near the hero, in the world behind it.
        for (k, (at, text, opacity)) in snap.signs.shown(&world.level().signs).enumerate() {
            paint_sign(at, text, opacity, k, &mut lines);
        }
        self.living = lines.vertices;
        self.prepare_cast(world, snap, &view, p.height);
        self.overlay_hero.clear();
        self.overlay = None;
        if snap.overlay {
            self.overlay = Some(hero.collider);
            let mut lines = LineMesh {
                vertices: std::mem::take(&mut self.overlay_hero),
                z: 0.0,
            };
            paint_hero(world.collision().mesh(hero.collider), hero, at, &mut lines);
            // The checkpoints' and the goal's regions, which play draws as flags and a gate.
            for (i, c) in world.level().checkpoints.iter().enumerate() {
                let reached = world.checkpoint() == Some(i);
                paint_region(
                    c,
                    if reached {
                        CHECKPOINT_REACHED
                    } else {
                        CHECKPOINT
                    },
                    &mut lines,
                );
            }
            if let Some(g) = &world.level().goal {
                paint_region(g, GOAL, &mut lines);
            }
            // The movers inflated by the hero's collider in use, then by each agent size class
            // (collider ids from 2), each in its colour.
            let classes = world.collision().shapes().len();
            for c in std::iter::once(hero.collider.0 as usize).chain(2..classes) {
                let colour = if c == hero.collider.0 as usize {
                    MOVER_INFLATION_HERO
                } else {
                    MOVER_INFLATION_CLASSES[(c - 2) % MOVER_INFLATION_CLASSES.len()]
                };
                paint_mover_inflations(
                    world.movers(),
                    c,
                    (0..world.movers().len()).map(|m| mover_drawn_at(world, m, snap.alpha)),
                    colour,
                    &mut lines,
                );
            }
            self.overlay_hero = lines.vertices;
        }
    }
}
