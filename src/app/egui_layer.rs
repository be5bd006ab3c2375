//! egui in the window: its input (egui-winit), its textures and tessellation, and its drawing
//! (egui-wgpu) through a cached layer.
//!
//! # Why a layer
//! On a software rasteriser (Mesa's lavapipe, what this project's tests and many VMs run), egui's
//! pixels are expensive: its shapes are thin (feathered lines, glyph quads) and each covers many
//! partly covered 4×4 pixel blocks, so the editor's panels, grid and collision overlay cost about
//! 95 ms of CPU per frame at 1280×720, against 17 ms for the whole 3D frame (BENCHMARKS.md,
//! "Editor frame rate"). But egui's output rarely changes between frames: the editor is still
//! while the designer looks at it. So egui draws into an offscreen texture the size of the
//! window only when what it draws changed (a hash of the tessellated meshes, their clip rects
//! and textures, and any texture upload), and every frame composites that texture over the 3D
//! frame with one full-screen triangle, scissored to the pixels egui's meshes cover
//! (`summary`): the game's HUD is a small box in a corner, and compositing the whole window
//! for it cost about 10 ms of CPU per frame on lavapipe at 1280×720 (BENCHMARKS.md, "A crowd of
//! characters"). A frame where egui draws nothing composites nothing.
//!
//! What changes every frame gains nothing from the layer: the game's HUD shows a clock, and a
//! drag in the editor moves what it drags. Drawing it into the layer would cost a clear of the
//! whole layer (3.7 MB at 1280×720, about 2 ms of CPU on lavapipe) and the composite on top of
//! egui's own pixels. So a frame whose egui differs from the last frame's is drawn straight onto
//! the 3D frame, and the layer keeps what it held; a frame that repeats the last one is drawn
//! into the layer, and composited from it while it stays the same.
//!
//! The composite is exact: egui draws into a transparent layer with its own premultiplied-alpha
//! blend, which leaves premultiplied colour and coverage in the layer, and the layer is blended
//! over the frame with the same "over" operator, so the result equals drawing egui on the frame
//! directly, up to 8-bit rounding of the layer.
//!
//! # Formats
//! egui's colours and its blending are in gamma space. Where the surface allows a second view
//! format (`DownlevelFlags::SURFACE_VIEW_FORMATS`), the layer and the composite use the plain
//! (not sRGB) format, so egui's shader skips its per-pixel sRGB conversions and the blend needs
//! no sRGB decode and encode; otherwise both use the sRGB format the 3D frame is drawn in.
use std::hash::{Hash, Hasher};

use super::GameError;
use crate::render::gpu::Gpu;

/// The composite's shader: a full-screen triangle that copies the layer's texels.
const COMPOSITE_WGSL: &str = r#"
@group(0) @binding(0) var layer: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs_main(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(layer, vec2<i32>(p.xy), 0);
}
"#;

/// egui's input, textures, tessellation and drawing for the window.
pub struct EguiLayer {
    /// egui's context.
    pub ctx: egui::Context,
    /// egui-winit's input state.
    pub state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
    format: wgpu::TextureFormat,
    layer: Option<Layer>,
    composite: wgpu::RenderPipeline,
    bind_layout: wgpu::BindGroupLayout,
    /// The hash of what the layer holds.
    drawn: Option<u64>,
    /// The hash of the last frame drawn (`None` for one that cannot be hashed).
    last: Option<u64>,
    /// Layer redraws, frames drawn straight onto the target and frames composited, for the
    /// frame statistics.
    pub redraws: u64,
    /// Frames whose egui was drawn straight onto the target (it changed since the last frame).
    pub direct: u64,
    /// Frames composited.
    pub composites: u64,
}

/// The offscreen texture egui draws into.
struct Layer {
    size: (u32, u32),
    view: wgpu::TextureView,
    bind: wgpu::BindGroup,
}

/// egui's output of one pass, ready to draw: its textures are already on the GPU.
pub struct EguiFrame {
    jobs: Vec<egui::ClippedPrimitive>,
    pixels_per_point: f32,
    /// A texture was uploaded or freed this frame (the layer must be drawn again).
    textures_changed: bool,
}

impl EguiLayer {
    /// egui for `window`, drawing in `format` (see the module docs).
    pub fn new(
        gpu: &Gpu,
        window: &winit::window::Window,
        format: wgpu::TextureFormat,
    ) -> Result<Self, GameError> {
        let ctx = egui::Context::default();
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let renderer = egui_wgpu::Renderer::new(
            &gpu.device,
            format,
            egui_wgpu::RendererOptions {
                // Dithering costs a noise function per pixel and hides banding in gradients,
                // which the editor and the menu do not draw.
                dithering: false,
                ..Default::default()
            },
        );
        let device = &gpu.device;
        let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("egui layer"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("egui layer"),
            bind_group_layouts: &[Some(&bind_layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("egui layer composite"),
            source: wgpu::ShaderSource::Wgsl(COMPOSITE_WGSL.into()),
        });
        let composite = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("egui layer composite"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        Ok(EguiLayer {
            ctx,
            state,
            renderer,
            format,
            layer: None,
            composite,
            bind_layout,
            drawn: None,
            last: None,
            redraws: 0,
            direct: 0,
            composites: 0,
        })
    }

    /// The format egui draws in.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Uploads and frees egui's textures (whether or not the frame is then drawn: a surface that
    /// is not ready must not lose a font atlas update) and tessellates its shapes.
    pub fn prepare(&mut self, gpu: &Gpu, mut out: egui::FullOutput) -> EguiFrame {
        let mut delta = std::mem::take(&mut out.textures_delta);
        let textures_changed = !delta.set.is_empty() || !delta.free.is_empty();
        for (id, deltas) in &delta.set {
            for d in deltas {
                self.renderer
                    .update_texture(&gpu.device, &gpu.queue, *id, d);
            }
        }
        // Freed textures are no longer used by this pass's shapes.
        for id in &delta.free {
            self.renderer.free_texture(id);
        }
        delta.clear();
        EguiFrame {
            jobs: self.ctx.tessellate(out.shapes, out.pixels_per_point),
            pixels_per_point: out.pixels_per_point,
            textures_changed,
        }
    }

    /// Draws `f` over `target` (a view of the surface in [`EguiLayer::format`], `size` pixels):
    /// straight onto `target` when it differs from the last frame's, else composited from the
    /// layer (drawn again first if it differs from what the layer holds).
    pub fn draw(&mut self, gpu: &Gpu, f: EguiFrame, size: (u32, u32), target: &wgpu::TextureView) {
        let (device, queue) = (&gpu.device, &gpu.queue);
        if self.layer.as_ref().is_none_or(|l| l.size != size) {
            self.layer = Some(self.new_layer(device, size));
            self.drawn = None;
        }
        let Some(layer) = &self.layer else {
            return;
        };
        let (hash, rect) = summary(&f, size);
        let Some(rect) = rect else {
            // Nothing of egui's is on screen (the game without its HUD or a menu): nothing to
            // draw or composite. The layer keeps what it held, and `drawn` still describes it.
            return;
        };
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("egui"),
        });
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point: f.pixels_per_point,
        };
        if f.textures_changed {
            // The layer's pixels may show a texture that has just changed.
            self.drawn = None;
        }
        let mut extra = Vec::new();
        let changing = hash.is_none() || hash != self.last;
        self.last = hash;
        if hash.is_none() || hash != self.drawn {
            extra = self
                .renderer
                .update_buffers(device, queue, &mut encoder, &f.jobs, &screen);
            // What egui draws changed since the last frame too (a clock, a drag): it is likely
            // to change again, so it is drawn straight onto the frame; the layer keeps what it
            // holds. Once it stays the same for a frame, it goes into the layer.
            let (view, load) = if changing {
                (target, wgpu::LoadOp::Load)
            } else {
                (&layer.view, wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT))
            };
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(if changing { "egui" } else { "egui layer" }),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            self.renderer
                .render(&mut pass.forget_lifetime(), &f.jobs, &screen);
            if changing {
                self.direct += 1;
                queue.submit(extra.into_iter().chain([encoder.finish()]));
                return;
            }
            self.drawn = hash;
            self.redraws += 1;
        }
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui composite"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.composite);
            pass.set_bind_group(0, &layer.bind, &[]);
            // Only where egui drew: outside it the layer is transparent, and the "over" blend
            // of a transparent texel leaves the frame as it is.
            pass.set_scissor_rect(rect.x, rect.y, rect.width, rect.height);
            pass.draw(0..3, 0..1);
        }
        self.composites += 1;
        queue.submit(extra.into_iter().chain([encoder.finish()]));
    }

    fn new_layer(&self, device: &wgpu::Device, size: (u32, u32)) -> Layer {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("egui layer"),
            size: wgpu::Extent3d {
                width: size.0.max(1),
                height: size.1.max(1),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: self.format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("egui layer"),
            layout: &self.bind_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            }],
        });
        Layer { size, view, bind }
    }
}

/// A rectangle of the target in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PixelRect {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

/// What decides the layer, in one pass over egui's meshes:
/// - a hash of everything that decides its pixels (the size, the scale, and every mesh with its
///   clip rect and texture); `None` when a primitive is a paint callback (its pixels are not
///   known here: always draw);
/// - the pixels of the `size` target that egui's output may cover: the union of each mesh's
///   vertex bounds (antialiasing feathers included) cut to its clip rect, widened to whole
///   pixels (a fragment is drawn when its centre is inside a triangle, so this holds every drawn
///   pixel) and cut to the target. The whole target where a primitive is a paint callback;
///   `None` where egui draws nothing.
fn summary(f: &EguiFrame, size: (u32, u32)) -> (Option<u64>, Option<PixelRect>) {
    let mut h = std::hash::DefaultHasher::new();
    size.hash(&mut h);
    f.pixels_per_point.to_bits().hash(&mut h);
    let mut points = egui::Rect::NOTHING;
    let mut hashed = true;
    for job in &f.jobs {
        let r = job.clip_rect;
        [r.min.x, r.min.y, r.max.x, r.max.y]
            .map(f32::to_bits)
            .hash(&mut h);
        match &job.primitive {
            egui::epaint::Primitive::Mesh(m) => {
                m.texture_id.hash(&mut h);
                m.indices.hash(&mut h);
                let mut bounds = egui::Rect::NOTHING;
                for v in &m.vertices {
                    [v.pos.x, v.pos.y, v.uv.x, v.uv.y]
                        .map(f32::to_bits)
                        .hash(&mut h);
                    v.color.to_array().hash(&mut h);
                    bounds.extend_with(v.pos);
                }
                let drawn = bounds.intersect(r);
                if !m.indices.is_empty() && drawn.is_positive() {
                    points = points.union(drawn);
                }
            }
            egui::epaint::Primitive::Callback(_) => {
                hashed = false;
                points = egui::Rect::EVERYTHING;
                break;
            }
        }
    }
    let hash = hashed.then(|| h.finish());
    if !points.is_positive() {
        return (hash, None);
    }
    let ppp = f.pixels_per_point;
    let clamp = |v: f32, max: u32| (v.max(0.0) as u32).min(max);
    let (x0, y0) = (
        clamp((points.min.x * ppp).floor(), size.0),
        clamp((points.min.y * ppp).floor(), size.1),
    );
    let (x1, y1) = (
        clamp((points.max.x * ppp).ceil(), size.0),
        clamp((points.max.y * ppp).ceil(), size.1),
    );
    let rect = (x1 > x0 && y1 > y0).then_some(PixelRect {
        x: x0,
        y: y0,
        width: x1 - x0,
        height: y1 - y0,
    });
    (hash, rect)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::epaint::{Mesh, Primitive};

    fn content_rect(f: &EguiFrame, size: (u32, u32)) -> Option<PixelRect> {
        summary(f, size).1
    }

    fn frame_hash(f: &EguiFrame, size: (u32, u32)) -> Option<u64> {
        summary(f, size).0
    }

    fn frame(colour: egui::Color32) -> EguiFrame {
        let mut m = Mesh::default();
        m.colored_vertex(egui::pos2(0.0, 0.0), colour);
        m.colored_vertex(egui::pos2(10.0, 0.0), colour);
        m.colored_vertex(egui::pos2(0.0, 10.0), colour);
        m.add_triangle(0, 1, 2);
        EguiFrame {
            jobs: vec![egui::ClippedPrimitive {
                clip_rect: egui::Rect::EVERYTHING,
                primitive: Primitive::Mesh(m),
            }],
            pixels_per_point: 1.0,
            textures_changed: false,
        }
    }

    #[test]
    fn the_composite_covers_what_egui_drew_and_nothing_else() {
        // A 10-point triangle at 1.5 pixels per point: pixels 0..15 each way.
        let mut f = frame(egui::Color32::RED);
        f.pixels_per_point = 1.5;
        let full = PixelRect {
            x: 0,
            y: 0,
            width: 15,
            height: 15,
        };
        assert_eq!(content_rect(&f, (100, 100)), Some(full));
        // Cut to the target, and to the clip rect (widened to whole pixels: 3..6 points are
        // pixels 4.5..9).
        assert_eq!(
            content_rect(&f, (10, 12)),
            Some(PixelRect {
                width: 10,
                height: 12,
                ..full
            })
        );
        f.jobs[0].clip_rect = egui::Rect::from_min_max(egui::pos2(3., 3.), egui::pos2(6., 6.));
        assert_eq!(
            content_rect(&f, (100, 100)),
            Some(PixelRect {
                x: 4,
                y: 4,
                width: 5,
                height: 5
            })
        );
        // Two meshes: their union. A mesh moved off the target, or clipped away: nothing.
        let mut other = frame(egui::Color32::RED);
        if let Primitive::Mesh(m) = &mut other.jobs[0].primitive {
            m.translate(egui::vec2(50.0, 60.0));
        }
        let mut two = frame(egui::Color32::RED);
        two.jobs.extend(other.jobs.clone());
        assert_eq!(
            content_rect(&two, (100, 100)),
            Some(PixelRect {
                x: 0,
                y: 0,
                width: 60,
                height: 70
            })
        );
        assert_eq!(content_rect(&other, (40, 40)), None);
        f.jobs[0].clip_rect = egui::Rect::from_min_max(egui::pos2(20., 20.), egui::pos2(30., 30.));
        assert_eq!(content_rect(&f, (100, 100)), None);
        let empty = EguiFrame {
            jobs: Vec::new(),
            pixels_per_point: 1.0,
            textures_changed: true,
        };
        assert_eq!(content_rect(&empty, (100, 100)), None);
    }

    #[test]
    fn the_hash_follows_every_pixel_input() {
        let a = frame_hash(&frame(egui::Color32::RED), (100, 100));
        assert_eq!(a, frame_hash(&frame(egui::Color32::RED), (100, 100)));
        assert!(a.is_some());
        assert_ne!(a, frame_hash(&frame(egui::Color32::BLUE), (100, 100)));
        assert_ne!(a, frame_hash(&frame(egui::Color32::RED), (100, 101)));
        let mut moved = frame(egui::Color32::RED);
        if let Primitive::Mesh(m) = &mut moved.jobs[0].primitive {
            m.vertices[1].pos.x += 0.5;
        }
        assert_ne!(a, frame_hash(&moved, (100, 100)));
        let mut clipped = frame(egui::Color32::RED);
        clipped.jobs[0].clip_rect =
            egui::Rect::from_min_max(egui::pos2(0., 0.), egui::pos2(5., 5.));
        assert_ne!(a, frame_hash(&clipped, (100, 100)));
        let mut scaled = frame(egui::Color32::RED);
        scaled.pixels_per_point = 2.0;
        assert_ne!(a, frame_hash(&scaled, (100, 100)));
    }
}
