//! Overlay pass (`shaders/unlit.wgsl`, the background's shader): the collision-mesh debug view. The mesh part is built
//! once per collider mesh and level and kept on the GPU; the hero part is rewritten every frame.
//! The same pipeline draws the level's doors and agents every frame, overlay or not.
use std::collections::HashMap;

use wgpu::util::DeviceExt;

use super::background::color_pipeline;
use crate::collision::{ColliderId, CollisionMesh};
use crate::render::collision_overlay::paint_mesh;
use crate::render::debug_draw::LineMesh;
use crate::render::gpu_buffer::DynamicBuffer;
use crate::render::targets::Attachments;
use crate::render::vertex::ColorVertex;

/// The overlay pipeline, the cached mesh drawings and the per-frame hero drawing.
pub struct OverlayPass {
    pipeline: wgpu::RenderPipeline,
    /// The doors' and agents' pipeline: the same, depth-tested.
    living_pipeline: wgpu::RenderPipeline,
    meshes: HashMap<ColliderId, (wgpu::Buffer, u32)>,
    hero: DynamicBuffer,
    living: DynamicBuffer,
}

impl OverlayPass {
    /// Builds the pipelines for the main pass's attachments `a`.
    pub fn new(device: &wgpu::Device, globals: &wgpu::BindGroupLayout, a: Attachments) -> Self {
        let pipeline = color_pipeline(
            device,
            globals,
            a,
            Some(wgpu::BlendState::ALPHA_BLENDING),
            false,
        );
        let living_pipeline = color_pipeline(
            device,
            globals,
            a,
            Some(wgpu::BlendState::ALPHA_BLENDING),
            true,
        );
        OverlayPass {
            pipeline,
            living_pipeline,
            meshes: HashMap::new(),
            hero: DynamicBuffer::new(device, "overlay hero", 64 * 1024),
            living: DynamicBuffer::new(device, "doors and agents", 64 * 1024),
        }
    }

    /// Forgets the cached mesh drawings (the level changed).
    pub fn clear_cache(&mut self) {
        self.meshes.clear();
    }

    /// Makes sure the drawing of `mesh` (collider `id`) is on the GPU.
    pub fn ensure_mesh(&mut self, device: &wgpu::Device, id: ColliderId, mesh: &CollisionMesh) {
        self.meshes.entry(id).or_insert_with(|| {
            let mut lines = LineMesh::default();
            paint_mesh(mesh, &mut lines);
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("overlay mesh"),
                contents: bytemuck::cast_slice(&lines.vertices),
                usage: wgpu::BufferUsages::VERTEX,
            });
            (buffer, lines.vertices.len() as u32)
        });
    }

    /// Uploads this frame's hero drawing.
    pub fn set_hero(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        vertices: &[ColorVertex],
    ) {
        self.hero.write(device, queue, vertices);
    }

    /// Uploads this frame's drawing of the doors and agents.
    pub fn set_living(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        vertices: &[ColorVertex],
    ) {
        self.living.write(device, queue, vertices);
    }

    /// Draws the doors and agents (inside the main pass, after the scene; nothing without them).
    pub fn draw_living(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        if self.living.is_empty() {
            return;
        }
        pass.set_pipeline(&self.living_pipeline);
        pass.set_bind_group(0, globals, &[]);
        pass.set_vertex_buffer(0, self.living.buffer().slice(..));
        pass.draw(0..self.living.len(), 0..1);
    }

    /// Draws the mesh of collider `id` and the hero drawing (inside the main pass, last).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup, id: ColliderId) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, globals, &[]);
        if let Some((buffer, count)) = self.meshes.get(&id) {
            if *count > 0 {
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*count, 0..1);
            }
        }
        if !self.hero.is_empty() {
            pass.set_vertex_buffer(0, self.hero.buffer().slice(..));
            pass.draw(0..self.hero.len(), 0..1);
        }
    }
}
