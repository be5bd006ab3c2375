//! Shadow pass (`shaders/shadow.wgsl`): depth of the scene seen from the sun into a square
//! shadow map, which the lit pass samples with a comparison sampler; the skinned characters are
//! drawn into it by a second pipeline (`shaders/skinned_shadow.wgsl`), or by a third from the
//! same file where they are posed on the CPU (`vs_posed`, [`crate::render::posed`]).
//!
//! The level's depth is cached: a frame whose [`StaticKey`] (the sun's camera bit for bit, the
//! level upload, the chunks drawn) is the last frame's draws the level once more into a second
//! texture, and the frames after copy it into the map and draw only the characters over it, the
//! same depths as drawing it all (the same draws in the same order, the characters tested against
//! the level as before). A still camera keys the same every frame; on a CPU rasteriser the sun's
//! camera also moves in steps of many texels ([`crate::render::globals::Lighting::shadow_snap`]),
//! so a scrolling one does too between steps. Drawing the level's depth was most of this pass
//! there; a copy of the 512² map is a memory copy of 1 MB.
use super::SceneDraws;
use crate::render::posed::PosedVertex;
use crate::render::shaders::PassShader;
use crate::render::skinned::SkinnedVertex;
use crate::render::targets::DEPTH_FORMAT;
use crate::render::vertex::MeshVertex;

/// The shadow map and the pipeline that fills it.
pub struct ShadowPass {
    pipeline: wgpu::RenderPipeline,
    skinned: wgpu::RenderPipeline,
    posed: wgpu::RenderPipeline,
    map: wgpu::Texture,
    view: wgpu::TextureView,
    /// The level alone from the sun, kept while the sun's camera and the level stay put.
    cache: wgpu::Texture,
    cache_view: wgpu::TextureView,
    /// What `cache` holds, if it holds anything.
    cached: Option<StaticKey>,
    /// What the last frame drew of the level (rewritten in place each frame: no allocation).
    last: StaticKey,
    size: u32,
}

/// What the level's depth in the shadow map depends on: the sun's camera (the uniform block's
/// `light_view_proj`, bit for bit), the level's geometry (a count of uploads) and the index
/// ranges drawn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StaticKey {
    /// `light_view_proj`'s bits.
    pub sun: [u32; 16],
    /// Which upload of the level geometry is drawn ([`crate::render::Renderer::set_level`]
    /// counts them).
    pub level: u64,
    /// The index ranges of the level drawn.
    pub ranges: Vec<std::ops::Range<u32>>,
}

/// How the shadow pass drew its last frame (for tests and the frame log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShadowDraw {
    /// The level and the characters drawn into the map: the sun's camera or the level changed.
    Whole,
    /// The level drawn into the cache (the second frame they stayed put), copied, characters
    /// drawn over it.
    Cached,
    /// The cached level copied into the map, only the characters drawn.
    FromCache,
}

impl ShadowPass {
    /// A `size`² shadow map; the skinned pipeline reads its palette through `palette` (group 2;
    /// group 1 is left empty so the skinning include binds the same group in both passes).
    pub fn new(
        device: &wgpu::Device,
        globals: &wgpu::BindGroupLayout,
        palette: &wgpu::BindGroupLayout,
        size: u32,
    ) -> Self {
        let texture = |label, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: size,
                    height: size,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: DEPTH_FORMAT,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | usage,
                view_formats: &[],
            })
        };
        let map = texture(
            "shadow map",
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        let cache = texture("shadow map: the level", wgpu::TextureUsages::COPY_SRC);
        let pipeline = depth_pipeline(
            device,
            PassShader::Shadow,
            (MeshVertex::layout(), "vs_main"),
            &[Some(globals)],
        );
        let skinned = depth_pipeline(
            device,
            PassShader::SkinnedShadow,
            (SkinnedVertex::layout(), "vs_main"),
            &[Some(globals), None, Some(palette)],
        );
        let posed = depth_pipeline(
            device,
            PassShader::SkinnedShadow,
            (PosedVertex::layout(), "vs_posed"),
            &[Some(globals), None, Some(palette)],
        );
        ShadowPass {
            pipeline,
            skinned,
            posed,
            view: map.create_view(&Default::default()),
            map,
            cache_view: cache.create_view(&Default::default()),
            cache,
            cached: None,
            last: StaticKey::default(),
            size,
        }
    }

    /// Texels per side of the shadow map.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The shadow map, for the lit pass to sample.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Records the pass: the scene from the sun into the map. `sun` (`light_view_proj`'s bits)
    /// and `level` (the upload drawn) with the scene's level ranges make the [`StaticKey`] of the
    /// level's part: where it is the same as the last frame's, the level is drawn once more into
    /// a cache and from then on copied from it while it stays the same, so a still camera draws
    /// only the characters (on a CPU rasteriser the level's depth was most of this pass).
    pub fn record(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        globals: &wgpu::BindGroup,
        scene: &SceneDraws<'_>,
        sun: [u32; 16],
        level: u64,
    ) -> ShadowDraw {
        let ranges = scene.level.map_or(&[][..], |(_, _, r)| r);
        let last = &mut self.last;
        let still = last.sun == sun && last.level == level && last.ranges == ranges;
        if !still {
            (last.sun, last.level) = (sun, level);
            last.ranges.clear();
            last.ranges.extend_from_slice(ranges);
        }
        let how = match (still, self.cached.as_ref() == Some(&self.last)) {
            (false, _) => ShadowDraw::Whole,
            (true, false) => ShadowDraw::Cached,
            (true, true) => ShadowDraw::FromCache,
        };
        if how == ShadowDraw::Cached {
            let mut pass = depth_pass(encoder, &self.cache_view, wgpu::LoadOp::Clear(1.0));
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, globals, &[]);
            scene.draw(&mut pass);
            drop(pass);
            self.cached = Some(self.last.clone());
        }
        let load = if how == ShadowDraw::Whole {
            wgpu::LoadOp::Clear(1.0)
        } else {
            encoder.copy_texture_to_texture(
                self.cache.as_image_copy(),
                self.map.as_image_copy(),
                self.map.size(),
            );
            wgpu::LoadOp::Load
        };
        let mut pass = depth_pass(encoder, &self.view, load);
        pass.set_bind_group(0, globals, &[]);
        pass.set_pipeline(&self.pipeline);
        if how == ShadowDraw::Whole {
            scene.draw(&mut pass);
        }
        // The movers and doors move: drawn every frame over the level, as the characters are.
        scene.draw_objects(&mut pass);
        if !scene.characters.is_empty() {
            pass.set_pipeline(&self.skinned);
            for c in &scene.characters {
                c.record(&mut pass);
            }
        }
        if !scene.posed.is_empty() {
            pass.set_pipeline(&self.posed);
            for c in &scene.posed {
                c.record(&mut pass);
            }
        }
        how
    }
}

/// A depth-only render pass into `view`, stored.
fn depth_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<f32>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("shadow"),
        color_attachments: &[],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: Some(wgpu::Operations {
                load,
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// A depth-only pipeline from the sun with the shadow bias, for vertices of `vertex`'s layout
/// read by its entry point.
fn depth_pipeline(
    device: &wgpu::Device,
    shader: PassShader,
    vertex: (wgpu::VertexBufferLayout<'static>, &'static str),
    groups: &[Option<&wgpu::BindGroupLayout>],
) -> wgpu::RenderPipeline {
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(shader.file_name()),
        bind_group_layouts: groups,
        immediate_size: 0,
    });
    let module = shader.module(device);
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(shader.file_name()),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some(vertex.1),
            compilation_options: Default::default(),
            buffers: &[Some(vertex.0)],
        },
        // Slabs have no back faces, and the hero casts from both sides: nothing is culled.
        primitive: wgpu::PrimitiveState {
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::LessEqual),
            stencil: Default::default(),
            bias: wgpu::DepthBiasState {
                constant: 2,
                slope_scale: 2.0,
                clamp: 0.0,
            },
        }),
        multisample: Default::default(),
        fragment: None,
        multiview_mask: None,
        cache: None,
    })
}
