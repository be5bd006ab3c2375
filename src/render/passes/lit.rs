//! Lit pass (`shaders/lit.wgsl`): level slabs with sun, shadow map, ambient and fog; and its
//! skinned variant (`shaders/skinned_lit.wgsl`) for the characters, with the same lighting, and
//! its variants for characters posed on the CPU ([`crate::render::posed`]): `vs_posed` for
//! models with a base colour texture, and for models without one `vs_lean`/`fs_lean`, which fold
//! the lighting into two colours per vertex (9 interpolated values a triangle instead of 22: a
//! CPU rasteriser sets up each of them for every triangle, and a character's triangles cover a
//! few pixels each, so this setup is most of what they cost; 1.5 to 3.3 ms of CPU a frame for
//! the 20 enemies on lavapipe, BENCHMARKS.md). For a flat-shaded model (the campaign's figures)
//! the pixels are the same but for rounding; a smooth-shaded one gets its sun and ambient light
//! interpolated across each triangle instead of taken from the triangle's first vertex.
//!
//! The movers and doors are drawn by the level's pipeline, with its shadow lookup.
//!
//! The level's open front faces (those nothing can shadow, [`crate::render::level_mesh`]) are
//! drawn first by `fs_open`, the same lighting without the shadow-map lookup.
use super::SceneDraws;
use crate::render::posed::PosedVertex;
use crate::render::shaders::PassShader;
use crate::render::skinned::SkinnedVertex;
use crate::render::targets::Attachments;
use crate::render::vertex::MeshVertex;

/// The lit pipelines (level and skinned characters) and the shadow-map bind group (group 1).
pub struct LitPass {
    pipeline: wgpu::RenderPipeline,
    /// The level's open front faces, drawn without a shadow lookup (`fs_open`,
    /// [`crate::render::level_mesh`]).
    open: wgpu::RenderPipeline,
    skinned: wgpu::RenderPipeline,
    posed: wgpu::RenderPipeline,
    posed_lean: wgpu::RenderPipeline,
    shadow_group: wgpu::BindGroup,
}

/// How the two lit pipelines differ.
struct Variant<'a> {
    shader: PassShader,
    vertex: wgpu::VertexBufferLayout<'static>,
    groups: &'a [Option<&'a wgpu::BindGroupLayout>],
    /// The vertex entry point.
    vertex_entry: &'static str,
    /// The fragment entry point.
    fragment: &'static str,
}

impl LitPass {
    /// Builds the pipelines for the main pass's attachments `a`, sampling `shadow_map` with
    /// `shadow_taps` (1 or 4) comparison taps per fragment; the skinned one reads its palette
    /// through `palette` (group 2).
    pub fn new(
        device: &wgpu::Device,
        globals: &wgpu::BindGroupLayout,
        palette: &wgpu::BindGroupLayout,
        shadow_map: &wgpu::TextureView,
        a: Attachments,
        shadow_taps: u32,
    ) -> Self {
        let shadow_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("shadow map"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    count: None,
                },
            ],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let shadow_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("shadow map"),
            layout: &shadow_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(shadow_map),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        let build = |v: Variant<'_>| pipeline(device, v, a, shadow_taps);
        let level_groups = [Some(globals), Some(&shadow_layout)];
        let level = |fragment| {
            build(Variant {
                shader: PassShader::Lit,
                vertex: MeshVertex::layout(),
                groups: &level_groups,
                vertex_entry: "vs_main",
                fragment,
            })
        };
        let pipeline = level("fs_main");
        let open = level("fs_open");
        // The characters' pipelines: `skinned_lit.wgsl` with the palette (group 2), differing in
        // vertex layout and entry points.
        let character_groups = [Some(globals), Some(&shadow_layout), Some(palette)];
        let character = |vertex, vertex_entry, fragment| {
            build(Variant {
                shader: PassShader::SkinnedLit,
                vertex,
                groups: &character_groups,
                vertex_entry,
                fragment,
            })
        };
        let skinned = character(SkinnedVertex::layout(), "vs_main", "fs_skinned");
        let posed = character(PosedVertex::layout(), "vs_posed", "fs_skinned");
        let posed_lean = character(PosedVertex::layout(), "vs_lean", "fs_lean");
        LitPass {
            pipeline,
            open,
            skinned,
            posed,
            posed_lean,
            shadow_group,
        }
    }

    /// Draws the scene (inside the main pass).
    pub fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        globals: &wgpu::BindGroup,
        scene: &SceneDraws<'_>,
    ) {
        pass.set_bind_group(0, globals, &[]);
        pass.set_bind_group(1, &self.shadow_group, &[]);
        if !scene.level_open.is_empty() {
            pass.set_pipeline(&self.open);
            scene.draw_level(pass, scene.level_open);
        }
        pass.set_pipeline(&self.pipeline);
        scene.draw_level(pass, scene.level_rest);
        scene.draw_objects(pass);
        if !scene.characters.is_empty() {
            pass.set_pipeline(&self.skinned);
            for c in &scene.characters {
                c.record(pass);
            }
        }
        let mut textured = None;
        for c in &scene.posed_front {
            if textured != Some(c.textured) {
                pass.set_pipeline(if c.textured {
                    &self.posed
                } else {
                    &self.posed_lean
                });
                textured = Some(c.textured);
            }
            c.record(pass);
        }
    }
}

fn pipeline(
    device: &wgpu::Device,
    v: Variant<'_>,
    a: Attachments,
    shadow_taps: u32,
) -> wgpu::RenderPipeline {
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(v.shader.file_name()),
        bind_group_layouts: v.groups,
        immediate_size: 0,
    });
    let module = v.shader.module(device);
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(v.shader.file_name()),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some(v.vertex_entry),
            compilation_options: Default::default(),
            buffers: &[Some(v.vertex)],
        },
        primitive: wgpu::PrimitiveState {
            cull_mode: Some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: a.depth,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState {
            count: a.samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some(v.fragment),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &[("SHADOW_TAPS", if shadow_taps == 1 { 1.0 } else { 4.0 })],
                ..Default::default()
            },
            targets: &[Some(wgpu::ColorTargetState {
                format: a.color,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
