//! Background pass (`shaders/background.wgsl`): sky and parallax layers, cut to the view each
//! frame (see [`crate::render::background_mesh`]).

use crate::render::gpu_buffer::DynamicBuffer;
use crate::render::shaders::PassShader;
use crate::render::targets::Attachments;
use crate::render::vertex::ColorVertex;

/// The background pipeline and the frame's backdrop triangles.
pub struct BackgroundPass {
    pipeline: wgpu::RenderPipeline,
    vertices: DynamicBuffer,
}

impl BackgroundPass {
    /// Builds the pipeline for the main pass's attachments `a`.
    pub fn new(device: &wgpu::Device, globals: &wgpu::BindGroupLayout, a: Attachments) -> Self {
        let pipeline = color_pipeline(device, globals, a, PassShader::Background, None, false);
        BackgroundPass {
            pipeline,
            vertices: DynamicBuffer::new(device, "background", 64 * 1024),
        }
    }

    /// Uploads this frame's backdrop.
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, vertices: &[ColorVertex]) {
        self.vertices.write(device, queue, vertices);
    }

    /// Draws the backdrop (inside the main pass).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        if !self.vertices.is_empty() {
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, globals, &[]);
            pass.set_vertex_buffer(0, self.vertices.buffer().slice(..));
            pass.draw(0..self.vertices.len(), 0..1);
        }
    }
}

/// A pipeline for [`ColorVertex`] triangles with only the globals bound: the background (opaque,
/// before the level) and the overlay (alpha-blended, after it) share this shape with no depth
/// test or write (they are drawn in painter's order); the doors and agents (`depth_tested`) are
/// tested and written like the level, so nearer geometry and the hero hide them.
pub(crate) fn color_pipeline(
    device: &wgpu::Device,
    globals: &wgpu::BindGroupLayout,
    a: Attachments,
    shader: PassShader,
    blend: Option<wgpu::BlendState>,
    depth_tested: bool,
) -> wgpu::RenderPipeline {
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
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(ColorVertex::layout())],
        },
        primitive: wgpu::PrimitiveState {
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: a.depth,
            depth_write_enabled: Some(depth_tested),
            depth_compare: Some(if depth_tested {
                wgpu::CompareFunction::LessEqual
            } else {
                wgpu::CompareFunction::Always
            }),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState {
            count: a.samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: a.color,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
