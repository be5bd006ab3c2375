//! Background pass (`shaders/background.wgsl`): sky and parallax layers, static per level.
use wgpu::util::DeviceExt;

use crate::render::shaders::PassShader;
use crate::render::targets::DEPTH_FORMAT;
use crate::render::vertex::ColorVertex;

/// The background pipeline and the current level's backdrop.
pub struct BackgroundPass {
    pipeline: wgpu::RenderPipeline,
    vertices: Option<(wgpu::Buffer, u32)>,
}

impl BackgroundPass {
    /// Builds the pipeline for `format` with `samples` per pixel.
    pub fn new(
        device: &wgpu::Device,
        globals: &wgpu::BindGroupLayout,
        format: wgpu::TextureFormat,
        samples: u32,
    ) -> Self {
        let pipeline = color_pipeline(
            device,
            globals,
            format,
            samples,
            PassShader::Background,
            None,
            true,
        );
        BackgroundPass {
            pipeline,
            vertices: None,
        }
    }

    /// Uploads a new backdrop (once per level).
    pub fn set_vertices(&mut self, device: &wgpu::Device, vertices: &[ColorVertex]) {
        self.vertices = (!vertices.is_empty()).then(|| {
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("background"),
                contents: bytemuck::cast_slice(vertices),
                usage: wgpu::BufferUsages::VERTEX,
            });
            (buffer, vertices.len() as u32)
        });
    }

    /// Draws the backdrop (inside the main pass).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        if let Some((buffer, count)) = &self.vertices {
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, globals, &[]);
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.draw(0..*count, 0..1);
        }
    }
}

/// A pipeline for [`ColorVertex`] triangles with only the globals bound: the background (depth
/// tested and written, opaque) and the overlay (no depth test, alpha-blended) share this shape.
pub(crate) fn color_pipeline(
    device: &wgpu::Device,
    globals: &wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
    samples: u32,
    shader: PassShader,
    blend: Option<wgpu::BlendState>,
    depth_test: bool,
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
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(depth_test),
            depth_compare: Some(if depth_test {
                wgpu::CompareFunction::Less
            } else {
                wgpu::CompareFunction::Always
            }),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
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
