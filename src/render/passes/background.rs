//! Background pass (`shaders/unlit.wgsl`, shared with the overlay): sky and parallax layers, cut to the view each
//! frame (see [`crate::render::background_mesh`]). Drawn first inside the main pass, or, where
//! [`crate::render::quality::Quality::plain_backdrop`] asks for it, in a pass of its own through
//! the frame's plain (not sRGB) view with no depth attachment ([`BackgroundPass::draw_plain`]).

use crate::render::gpu_buffer::DynamicBuffer;
use crate::render::shaders::PassShader;
use crate::render::targets::Attachments;
use crate::render::vertex::ColorVertex;

/// The background pipelines and the frame's backdrop triangles.
pub struct BackgroundPass {
    pipeline: wgpu::RenderPipeline,
    /// The pipeline of the pass of its own (`vs_plain`), for the plain view of `a.color`; `None`
    /// where the quality does not ask for it.
    plain: Option<wgpu::RenderPipeline>,
    vertices: DynamicBuffer,
}

impl BackgroundPass {
    /// Builds the pipeline for the main pass's attachments `a`, and with `plain` the pipeline for
    /// the pass of its own (one sample per pixel: [`crate::render::quality::Quality::plain_backdrop`]
    /// is only set with one).
    pub fn new(
        device: &wgpu::Device,
        globals: &wgpu::BindGroupLayout,
        a: Attachments,
        plain: bool,
    ) -> Self {
        let pipeline = color_pipeline(device, globals, a, None, false);
        let plain = plain.then(|| plain_pipeline(device, globals, a.color.remove_srgb_suffix()));
        BackgroundPass {
            pipeline,
            plain,
            vertices: DynamicBuffer::new(device, "background", 64 * 1024),
        }
    }

    /// Records the backdrop in a pass of its own into `plain`, the plain (not sRGB) view of the
    /// frame's texture, whose contents it does not load: the backdrop must cover every pixel
    /// (`covered`, [`crate::render::frame::FrameData::backdrop_covers`]). Returns false, recording
    /// nothing, where that cannot be done (no such pipeline, or not covered): the backdrop is
    /// then drawn inside the main pass ([`BackgroundPass::draw`]).
    pub fn draw_plain(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        globals: &wgpu::BindGroup,
        plain: &wgpu::TextureView,
        covered: bool,
    ) -> bool {
        let Some(pipeline) = self.plain.as_ref().filter(|_| covered) else {
            return false;
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("backdrop"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: plain,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: crate::render::renderer::colour_load(true),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        self.record(&mut pass, pipeline, globals);
        true
    }

    /// Uploads this frame's backdrop.
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, vertices: &[ColorVertex]) {
        self.vertices.write(device, queue, vertices);
    }

    /// Draws the backdrop (inside the main pass).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        if !self.vertices.is_empty() {
            self.record(pass, &self.pipeline, globals);
        }
    }

    fn record(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        pipeline: &wgpu::RenderPipeline,
        globals: &wgpu::BindGroup,
    ) {
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, globals, &[]);
        pass.set_vertex_buffer(0, self.vertices.buffer().slice(..));
        pass.draw(0..self.vertices.len(), 0..1);
    }
}

/// The backdrop's pipeline for a pass of its own into a `format` (plain, not sRGB) target of one
/// sample per pixel, with no depth attachment (`vs_plain`/`fs_plain`).
fn plain_pipeline(
    device: &wgpu::Device,
    globals: &wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let entries = ("vs_plain", "fs_plain");
    let target = (format, 1, None);
    globals_pipeline(device, globals, entries, target, None)
}

/// A pipeline for [`ColorVertex`] triangles with only the globals bound: the background (opaque,
/// before the level) and the overlay (alpha-blended, after it) share this shape with no depth
/// test or write (they are drawn in painter's order); the doors and agents (`depth_tested`) are
/// tested and written like the level, so nearer geometry and the hero hide them.
pub(crate) fn color_pipeline(
    device: &wgpu::Device,
    globals: &wgpu::BindGroupLayout,
    a: Attachments,
    blend: Option<wgpu::BlendState>,
    depth_tested: bool,
) -> wgpu::RenderPipeline {
    let depth = wgpu::DepthStencilState {
        format: a.depth,
        depth_write_enabled: Some(depth_tested),
        depth_compare: Some(if depth_tested {
            wgpu::CompareFunction::LessEqual
        } else {
            wgpu::CompareFunction::Always
        }),
        stencil: Default::default(),
        bias: Default::default(),
    };
    let entries = ("vs_main", "fs_main");
    let target = (a.color, a.samples, blend);
    globals_pipeline(device, globals, entries, target, Some(depth))
}

/// A [`ColorVertex`] pipeline of the unlit shader's `(vertex, fragment)` entry points with only
/// the globals bound, drawing into a `(format, samples, blend)` colour target and `depth`.
fn globals_pipeline(
    device: &wgpu::Device,
    globals: &wgpu::BindGroupLayout,
    (vertex, fragment): (&str, &str),
    (format, samples, blend): (wgpu::TextureFormat, u32, Option<wgpu::BlendState>),
    depth: Option<wgpu::DepthStencilState>,
) -> wgpu::RenderPipeline {
    let shader = PassShader::Unlit;
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(shader.file_name()),
        bind_group_layouts: &[Some(globals)],
        immediate_size: 0,
    });
    let module = shader.module(device);
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(shader.file_name()),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some(vertex),
            compilation_options: Default::default(),
            buffers: &[Some(ColorVertex::layout())],
        },
        primitive: wgpu::PrimitiveState {
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: depth,
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
