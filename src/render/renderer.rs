//! The renderer: GPU resources for one colour format and size, the static level geometry
//! (uploaded once per level), and one frame's submission.
use wgpu::util::DeviceExt;

use super::background_mesh::Backdrop;
use super::frame::{FrameData, FrameParams};
use super::globals::{Globals, Lighting};
use super::gpu::Gpu;
use super::gpu_buffer::DynamicBuffer;
use super::level_mesh::{ChunkTable, Dirty, LevelGeometry, SlabConfig};
use super::object_mesh::ObjectMesh;
use super::passes::background::BackgroundPass;
use super::passes::lit::LitPass;
use super::passes::overlay::OverlayPass;
use super::passes::shadow::{ShadowDraw, ShadowPass};
use super::passes::{globals_layout, SceneDraws};
use super::posed::PosedBatch;
use super::quality::Quality;
use super::skinned::{palette_layout, SkinnedHero, SkinnedInstance, SkinnedModel};
use super::targets::{supported_samples, Attachments, Targets};
use crate::level::Level;
use crate::sim::World;
use crate::view::camera::CameraConfig;

/// The static level geometry on the GPU (with the room [`LevelGeometry`] leaves for edits:
/// an edit uploads what it changed).
struct LevelBuffers {
    vertices: DynamicBuffer,
    indices: DynamicBuffer,
}

/// What a frame is drawn into: a view of a texture of the renderer's format and size and, where
/// the texture has one, its plain (not sRGB) view, into which the backdrop is drawn in a pass of
/// its own where the quality asks for it ([`Quality::plain_backdrop`]).
#[derive(Clone, Copy)]
pub struct FrameTarget<'a> {
    /// The view in the renderer's format.
    pub view: &'a wgpu::TextureView,
    /// The same texture through its format without the sRGB suffix, if the texture allows it.
    pub plain: Option<&'a wgpu::TextureView>,
}

/// Draws worlds into textures of one format.
pub struct Renderer {
    targets: Targets,
    globals: wgpu::Buffer,
    globals_group: wgpu::BindGroup,
    shadow: ShadowPass,
    background: BackgroundPass,
    lit: LitPass,
    /// What it draws with: the quality asked for, as far as the adapter and the target allow.
    quality: Quality,
    overlay: OverlayPass,
    level: Option<LevelBuffers>,
    chunks: ChunkTable,
    /// The static geometry last built, on the CPU, with its slab sizes: the next level (an
    /// edit) rebuilds only the slabs of what changed ([`LevelGeometry::update`]).
    built: Option<(SlabConfig, LevelGeometry)>,
    backdrop: Backdrop,
    /// The level's movers and doors in their rest poses (built with the level), their index
    /// buffer (uploaded with it: every pose has the same triangles), and the buffer their
    /// vertices are placed into each frame.
    objects: ObjectMesh,
    object_indices: Option<wgpu::Buffer>,
    object_vertices: DynamicBuffer,
    hero: SkinnedHero,
    /// The joint palette's bind group layout (a new hero mesh is bound with it).
    hero_layout: wgpu::BindGroupLayout,
    /// The cast's character files, whose models `cast_models` holds (see [`Renderer::set_cast`]).
    cast_files: Vec<std::path::PathBuf>,
    cast_models: Vec<SkinnedModel>,
    /// Per agent index: the model its instance was made for, and the instance (made when the
    /// agent is first drawn). Unused where characters are posed on the CPU.
    cast_instances: Vec<Option<(usize, SkinnedInstance)>>,
    /// Where characters are posed on the CPU ([`Quality::pose_on_cpu`]): two batches per model of
    /// `cast_models` (at `2 * model`, then its enemies' at `2 * model + 1`, whose palette
    /// carries the rim light: [`super::skinned::ENEMY_RIM`]); else empty.
    cast_batches: Vec<PosedBatch>,
    /// Sun and ambient light.
    pub lighting: Lighting,
    /// Slab dimensions used for the next [`Renderer::set_level`].
    pub slabs: SlabConfig,
    /// Triangles of the characters drawn in the last frame, at their levels of detail (before
    /// the lit pass leaves out those turned away from the eye).
    character_triangles: u32,
    /// Uploads of level geometry so far (the shadow pass's cache is keyed by it).
    level_uploads: u64,
    /// How the last frame's shadow pass drew.
    shadow_draw: ShadowDraw,
    /// Frames whose shadow pass drew whole, drew the level into the cache, copied it from
    /// the cache.
    shadow_draws: [u64; 3],
    /// Frames whose backdrop was drawn in a pass of its own, and inside the main pass.
    backdrop_draws: [u64; 2],
}

/// The clear colour (the horizon haze; the sky covers it everywhere but past the backdrop's edge).
const CLEAR: wgpu::Color = wgpu::Color {
    r: 0.69,
    g: 0.80,
    b: 0.84,
    a: 1.0,
};

impl Renderer {
    /// A renderer drawing into `format` textures of `size` pixels at `quality` ([`Quality::FULL`]
    /// normally; less where the adapter cannot afford it, see [`Quality::choose`]).
    pub fn new(gpu: &Gpu, format: wgpu::TextureFormat, size: (u32, u32), quality: Quality) -> Self {
        let device = &gpu.device;
        let samples = supported_samples(&gpu.adapter, format, quality.depth, quality.samples);
        // What it draws with: the samples the adapter supports, and the backdrop's own pass only
        // with one of them (it draws straight into the frame's texture).
        let quality = Quality {
            samples,
            plain_backdrop: quality.plain_backdrop && samples == 1,
            ..quality
        };
        let attachments = Attachments {
            color: format,
            samples,
            depth: quality.depth,
        };
        let lighting = Lighting {
            shadow_map_size: quality.shadow_map,
            shadow_snap: quality.shadow_snap,
            ..Lighting::default()
        };
        let layout = globals_layout(device);
        let globals = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("globals"),
            contents: bytemuck::bytes_of(&Globals::default()),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let globals_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("globals"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: globals.as_entire_binding(),
            }],
        });
        let palette = palette_layout(device);
        let shadow = ShadowPass::new(device, &layout, &palette, lighting.shadow_map_size);
        let lit = LitPass::new(
            device,
            &layout,
            &palette,
            shadow.view(),
            attachments,
            quality.shadow_taps,
        );
        Renderer {
            targets: Targets::new(device, attachments, size),
            globals,
            globals_group,
            background: BackgroundPass::new(device, &layout, attachments, quality.plain_backdrop),
            overlay: OverlayPass::new(device, &layout, attachments),
            shadow,
            lit,
            level: None,
            chunks: ChunkTable::default(),
            built: None,
            backdrop: Backdrop::default(),
            objects: ObjectMesh::default(),
            object_indices: None,
            object_vertices: DynamicBuffer::new(device, "object vertices", 0),
            hero: SkinnedHero::new(
                device,
                &gpu.queue,
                &palette,
                &crate::anim::builtin_hero().mesh,
                None,
            ),
            hero_layout: palette,
            cast_files: Vec::new(),
            cast_models: Vec::new(),
            cast_instances: Vec::new(),
            cast_batches: Vec::new(),
            quality,
            lighting,
            slabs: SlabConfig::default(),
            character_triangles: 0,
            level_uploads: 0,
            shadow_draw: ShadowDraw::Whole,
            shadow_draws: [0; 3],
            backdrop_draws: [0; 2],
        }
    }

    /// Draws the hero with `model`'s mesh and texture (a character's) instead of the built-in
    /// hero's; the joint palette the frame uploads must then come from the same model's skeleton.
    pub fn set_hero_model(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &crate::anim::Model,
    ) {
        self.hero = SkinnedHero::new(
            device,
            queue,
            &self.hero_layout,
            &model.mesh,
            model.texture.as_ref(),
        );
    }

    /// Draws the agents of `cast` with their characters: uploads each of its models once. Cheap
    /// when the cast's files are those already uploaded (call it whenever the view may have a new
    /// cast).
    pub fn set_cast(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        cast: &crate::view::Cast,
    ) {
        if cast.files().eq(self.cast_files.iter().map(|p| p.as_path())) {
            return;
        }
        self.cast_files = cast.files().map(|p| p.to_path_buf()).collect();
        self.cast_models = cast
            .models()
            .map(|m| SkinnedModel::new(device, queue, &m.mesh, m.texture.as_ref()))
            .collect();
        self.cast_instances.clear();
        self.cast_batches = if self.quality.pose_on_cpu {
            self.cast_models
                .iter()
                .flat_map(|m| {
                    [0.0, super::skinned::ENEMY_RIM]
                        .map(|rim| PosedBatch::new(device, queue, &self.hero_layout, m, rim))
                })
                .collect()
        } else {
            Vec::new()
        };
    }

    /// The colour format drawn into.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.targets.attachments.color
    }

    /// Samples per pixel of the main pass.
    pub fn samples(&self) -> u32 {
        self.targets.attachments.samples
    }

    /// The quality drawn at: the one asked for, with the samples the adapter supports (and the
    /// backdrop's own pass only with one sample per pixel).
    pub fn quality(&self) -> Quality {
        self.quality
    }

    /// Recreates the attachments for a new target size.
    pub fn resize(&mut self, device: &wgpu::Device, size: (u32, u32)) {
        if self.targets.size != size {
            self.targets = Targets::new(device, self.targets.attachments, size);
        }
    }

    /// Builds and uploads a level's static geometry and backdrop. Call once per level, and again
    /// only when the level is edited: then only the slabs of the polygons and ladders that differ
    /// from the last level's are built again, and only what they changed is uploaded
    /// ([`LevelGeometry`]'s layout).
    pub fn set_level(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        level: &Level,
        camera: &CameraConfig,
    ) {
        let mut geometry = match self.built.take() {
            Some((slabs, mut g)) if slabs == self.slabs => {
                g.update(level, &self.slabs);
                g
            }
            _ => LevelGeometry::build(level, &self.slabs),
        };
        let (whole, vertices, indices) = match geometry.take_dirty() {
            Dirty::Clean => (false, Vec::new(), Vec::new()),
            Dirty::All => (true, Vec::new(), Vec::new()),
            Dirty::Ranges { vertices, indices } => (false, vertices, indices),
        };
        let buffers = self.level.get_or_insert_with(|| LevelBuffers {
            vertices: DynamicBuffer::new(device, "level vertices", 0),
            indices: DynamicBuffer::index(device, "level indices", 0),
        });
        buffers
            .vertices
            .update(device, queue, &geometry.vertices, &vertices, whole);
        buffers
            .indices
            .update(device, queue, &geometry.indices, &indices, whole);
        self.level_uploads += 1;
        self.chunks = geometry.chunks.clone();
        self.built = Some((self.slabs.clone(), geometry));
        self.backdrop = Backdrop::for_level(level, camera);
        self.objects = ObjectMesh::build(level, &self.slabs);
        self.object_indices = (!self.objects.is_empty()).then(|| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("object indices"),
                contents: bytemuck::cast_slice(&self.objects.indices),
                usage: wgpu::BufferUsages::INDEX,
            })
        });
        self.overlay.clear_cache();
    }

    /// Triangles of the characters drawn in the last frame, at the levels of detail they were
    /// drawn with: what the shadow pass draws (the lit pass culls those turned away from the
    /// eye, on the CPU for characters posed there).
    pub fn character_triangles(&self) -> u32 {
        self.character_triangles
    }

    /// How the last frame's shadow pass drew: whole, or the level from its cache (a still
    /// camera).
    pub fn shadow_draw(&self) -> ShadowDraw {
        self.shadow_draw
    }

    /// Frames so far whose shadow pass drew whole, drew the level into its cache, and copied it
    /// from the cache (the frame log's line).
    pub fn shadow_draws(&self) -> [u64; 3] {
        self.shadow_draws
    }

    /// Frames so far whose backdrop was drawn in a pass of its own through the plain view
    /// ([`Quality::plain_backdrop`]), and inside the main pass (the frame log's line).
    pub fn backdrop_draws(&self) -> [u64; 2] {
        self.backdrop_draws
    }

    /// The static geometry's chunks, for [`FrameData::prepare`].
    pub fn chunks(&self) -> &ChunkTable {
        &self.chunks
    }

    /// The level's backdrop, for [`FrameData::prepare`].
    pub fn backdrop(&self) -> &Backdrop {
        &self.backdrop
    }

    /// What the renderer brings to preparing a frame for a target of this `aspect` ratio: the
    /// level's chunks and backdrop, and the lighting.
    pub fn frame_params(&self, aspect: f64) -> FrameParams<'_> {
        FrameParams {
            aspect,
            height: self.targets.size.1,
            chunks: self.chunks(),
            backdrop: self.backdrop(),
            lighting: &self.lighting,
            objects: &self.objects,
        }
    }

    /// Uploads the palettes of the agents drawn with characters (one instance each, made when
    /// the agent is first drawn), for skinning on the GPU.
    fn write_cast(&mut self, gpu: &Gpu, frame: &FrameData) {
        let (device, queue) = (&gpu.device, &gpu.queue);
        for d in &frame.cast {
            let Some(model) = self.cast_models.get(d.model) else {
                continue; // A cast not given to `set_cast`: drawn without characters.
            };
            if self.cast_instances.len() <= d.agent {
                self.cast_instances.resize_with(d.agent + 1, || None);
            }
            let slot = &mut self.cast_instances[d.agent];
            if slot.as_ref().is_none_or(|(m, _)| *m != d.model) {
                *slot = Some((d.model, model.instance(device, &self.hero_layout)));
            }
            if let Some((_, instance)) = slot {
                instance.write(queue, &d.palette);
            }
        }
    }

    /// Poses the agents drawn with characters on the CPU into their models' batches and
    /// uploads them ([`super::posed`]).
    fn pose_cast(&mut self, gpu: &Gpu, frame: &FrameData) {
        for batch in &mut self.cast_batches {
            batch.clear();
        }
        for d in &frame.cast {
            if let (Some(model), Some(batch)) = (
                self.cast_models.get(d.model),
                self.cast_batches
                    .get_mut(2 * d.model + usize::from(d.palette.tint[3] > 0.0)),
            ) {
                batch.add(model, &d.palette, d.pixels_per_unit);
            }
        }
        let eye = glam::Vec3::from_slice(&frame.globals.eye[..3]);
        for batch in &mut self.cast_batches {
            batch.upload(&gpu.device, &gpu.queue, eye);
        }
    }

    /// Uploads `frame` and draws it into `target` (views of a texture of this renderer's format
    /// and size). `world` is read only for the overlay's mesh drawing, built on first use.
    pub fn render(&mut self, gpu: &Gpu, world: &World, frame: &FrameData, target: FrameTarget<'_>) {
        let (device, queue) = (&gpu.device, &gpu.queue);
        queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(&frame.globals));
        self.hero.write(queue, &frame.hero_palette);
        if self.quality.pose_on_cpu {
            self.pose_cast(gpu, frame);
        } else {
            self.write_cast(gpu, frame);
        }
        self.background.write(device, queue, &frame.backdrop);
        self.overlay.set_living(device, queue, &frame.living);
        // Placed for the mesh this renderer holds (a frame prepared for another level's has a
        // different count and draws no objects).
        let objects_fit = frame.objects.len() == self.objects.vertex_count();
        if objects_fit {
            self.object_vertices.write(device, queue, &frame.objects);
        }
        if let Some(id) = frame.overlay {
            self.overlay
                .ensure_mesh(device, id, world.collision().mesh(id));
            self.overlay.set_hero(device, queue, &frame.overlay_hero);
        }
        let scene = SceneDraws {
            level: self.level.as_ref().map(|l| {
                (
                    l.vertices.buffer(),
                    l.indices.buffer(),
                    frame.level_ranges.as_slice(),
                )
            }),
            level_open: &frame.level_open,
            level_rest: &frame.level_rest,
            objects: self
                .object_indices
                .as_ref()
                .filter(|_| objects_fit)
                .map(|ib| {
                    (
                        self.object_vertices.buffer(),
                        ib,
                        self.objects.indices.len() as u32,
                    )
                }),
            characters: std::iter::once(self.hero.draw(frame.hero_pixels_per_unit))
                .chain(
                    frame
                        .cast
                        .iter()
                        .filter(|_| !self.quality.pose_on_cpu)
                        .filter_map(|d| {
                            let model = self.cast_models.get(d.model)?;
                            let (_, instance) = self.cast_instances.get(d.agent)?.as_ref()?;
                            Some(model.draw(instance, d.pixels_per_unit))
                        }),
                )
                .collect(),
            posed: self
                .cast_batches
                .iter()
                .filter_map(PosedBatch::draw)
                .collect(),
            posed_front: self
                .cast_batches
                .iter()
                .filter_map(PosedBatch::draw_front)
                .collect(),
        };
        self.character_triangles = (scene.characters.iter())
            .chain(&scene.posed)
            .map(|c| c.count / 3)
            .sum();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
        self.shadow_draw = self.shadow.record(
            &mut encoder,
            &self.globals_group,
            &scene,
            bytemuck::cast(frame.globals.light_view_proj),
            self.level_uploads,
        );
        self.shadow_draws[self.shadow_draw as usize] += 1;
        let backdrop_drawn = target.plain.is_some_and(|plain| {
            self.background.draw_plain(
                &mut encoder,
                &self.globals_group,
                plain,
                frame.backdrop_covers,
            )
        });
        self.backdrop_draws[usize::from(!backdrop_drawn)] += 1;
        {
            let target = target.view;
            // With MSAA the samples are resolved into `target` and need not be kept.
            let (view, resolve_target, store) = match &self.targets.color {
                Some(msaa) => (msaa, Some(target), wgpu::StoreOp::Discard),
                None => (target, None, wgpu::StoreOp::Store),
            };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("main"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target,
                    ops: wgpu::Operations {
                        load: if backdrop_drawn {
                            wgpu::LoadOp::Load
                        } else {
                            colour_load(frame.backdrop_covers)
                        },
                        store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.targets.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            // The backdrop first (unless its own pass drew it), in painter's order with no depth
            // test (like a clear: each of its fragments is cheap), then the level and the hero
            // over it.
            if !backdrop_drawn {
                self.background.draw(&mut pass, &self.globals_group);
            }
            self.lit.draw(&mut pass, &self.globals_group, &scene);
            self.overlay.draw_living(&mut pass, &self.globals_group);
            if let Some(id) = frame.overlay {
                self.overlay.draw(&mut pass, &self.globals_group, id);
            }
        }
        queue.submit([encoder.finish()]);
    }
}

/// The main pass's colour load: cleared, unless the backdrop drawn first covers every pixel
/// (`covered`, [`FrameData::backdrop_covers`]); then the old contents are left undefined rather
/// than filled, which saves a CPU rasteriser a full-frame fill (3.7 MB at 1280×720, about 1.7 ms
/// a frame on the development VM) and a GPU the bandwidth.
#[allow(unsafe_code)]
pub(crate) fn colour_load(covered: bool) -> wgpu::LoadOp<wgpu::Color> {
    if covered {
        // SAFETY: `LoadOp::DontCare` leaves the attachment's contents undefined at the start of
        // the pass, which is only unsafe to read. The backdrop is drawn first (in the main pass or
        // in its own, the only callers) with no depth test or blending and writes every pixel (`Backdrop::vertices` checks its own cover, and its
        // tests cast rays through the view to hold it to that), so nothing undefined is read or
        // shown.
        wgpu::LoadOp::DontCare(unsafe { wgpu::LoadOpDontCare::enabled() })
    } else {
        wgpu::LoadOp::Clear(CLEAR)
    }
}
