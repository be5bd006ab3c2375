//! Shadow pass (`shaders/shadow.wgsl`): depth of the scene seen from the sun into a square
//! shadow map, which the lit pass samples with a comparison sampler; the skinned characters are
//! drawn into it by a second pipeline (`shaders/skinned_shadow.wgsl`), or by a third from the
//! same file where they are posed on the CPU (`vs_posed`, [`crate::render::posed`]).
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
    view: wgpu::TextureView,
    size: u32,
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
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadow map"),
            size: wgpu::Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
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
            view: texture.create_view(&Default::default()),
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

    /// Records the pass: clears the map and draws the scene from the sun.
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        globals: &wgpu::BindGroup,
        scene: &SceneDraws<'_>,
    ) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("shadow"),
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, globals, &[]);
        scene.draw(&mut pass);
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
    }
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
