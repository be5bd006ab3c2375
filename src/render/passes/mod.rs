//! The render passes. Each owns one pipeline built from one WGSL file (`shaders/<pass>.wgsl`) and
//! records its draws: [`shadow`] into the shadow map, then, in the main multisampled pass,
//! [`background`], [`lit`] and [`overlay`].
//!
//! The three colour stages share one wgpu render pass rather than one each: they draw into the same
//! multisampled target, and separate passes would store and reload 4× MSAA colour and depth between
//! them (costly on CPU rasterisers like lavapipe) for no gain. Their pipelines, shaders and code
//! stay separate.
pub mod background;
pub mod lit;
pub mod overlay;
pub mod shadow;

use std::ops::Range;

use super::skinned::SkinnedDraw;

/// The scene geometry the shadow and lit passes both draw.
pub struct SceneDraws<'a> {
    /// Static level slabs: vertex buffer, u32 index buffer, and the index ranges in view.
    pub level: Option<(&'a wgpu::Buffer, &'a wgpu::Buffer, &'a [Range<u32>])>,
    /// The same ranges split for the lit pass: the open front faces (drawn without a shadow
    /// lookup), and the rest ([`crate::render::level_mesh::ChunkTable::visible_split`]).
    pub level_open: &'a [Range<u32>],
    pub level_rest: &'a [Range<u32>],
    /// The movers and doors placed this frame (`object_mesh`): vertex buffer, u32 index
    /// buffer and index count; drawn by the level's pipelines.
    pub objects: Option<(&'a wgpu::Buffer, &'a wgpu::Buffer, u32)>,
    /// The skinned characters (drawn by the passes' skinned pipelines): the hero, then the
    /// agents drawn with characters.
    pub characters: Vec<SkinnedDraw<'a>>,
    /// The characters posed on the CPU, one batch per model (drawn by the passes' posed
    /// pipelines, `vs_posed`: [`crate::render::posed`]): every triangle, for the shadow pass.
    pub posed: Vec<SkinnedDraw<'a>>,
    /// The same batches' triangles that face the eye, for the lit pass
    /// ([`crate::render::posed::facing_eye`]).
    pub posed_front: Vec<SkinnedDraw<'a>>,
}

impl SceneDraws<'_> {
    /// Issues the level's draws (the pipeline and bind groups must be set).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if let Some((_, _, ranges)) = self.level {
            self.draw_level(pass, ranges);
        }
    }

    /// Issues the draw of the movers and doors (the level's pipeline and bind groups must be
    /// set).
    pub fn draw_objects(&self, pass: &mut wgpu::RenderPass<'_>) {
        if let Some((vb, ib, count)) = self.objects {
            pass.set_vertex_buffer(0, vb.slice(..));
            pass.set_index_buffer(ib.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..count, 0, 0..1);
        }
    }

    /// Issues draws of the level's index `ranges` (the pipeline and bind groups must be set).
    pub fn draw_level(&self, pass: &mut wgpu::RenderPass<'_>, ranges: &[Range<u32>]) {
        if let Some((vb, ib, _)) = self.level.filter(|_| !ranges.is_empty()) {
            pass.set_vertex_buffer(0, vb.slice(..));
            pass.set_index_buffer(ib.slice(..), wgpu::IndexFormat::Uint32);
            for r in ranges {
                pass.draw_indexed(r.clone(), 0, 0..1);
            }
        }
    }
}

/// The bind group layout of the per-frame globals (group 0 of every pass).
pub fn globals_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("globals"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    })
}
