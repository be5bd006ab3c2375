//! Skinned characters on the GPU (the hero, and agents drawn with characters): the vertex format
//! (mirrors `SkinnedIn` in `shaders/skinning.wgsl`), the joint palette uniform (mirrors
//! `Palette`), and the buffers: each model's mesh uploaded once, each character's palette
//! rewritten once per frame with no allocation.
use bytemuck::{Pod, Zeroable};
use glam::Mat4;
use wgpu::util::DeviceExt;

use crate::anim::{BaseColorTexture, SkinnedMesh, MAX_JOINTS};

/// A skinned vertex in the model's bind pose (`shaders/skinning.wgsl`, `SkinnedIn`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct SkinnedVertex {
    /// Bind-pose position, model space, m.
    pub position: [f32; 3],
    /// Unit normal, model space.
    pub normal: [f32; 3],
    /// Albedo, linear RGB.
    pub color: [f32; 3],
    /// The four joints (palette indices) influencing the vertex.
    pub joints: [u16; 4],
    /// Their weights, summing to 1.
    pub weights: [f32; 4],
    /// Base colour texture coordinates, whether the texture applies (1) and the alpha cutoff
    /// (0: opaque), as [`SkinnedMesh::uvs`].
    pub uv: [f32; 4],
}

impl SkinnedVertex {
    /// Attribute locations 0..6: position, normal, color, joints, weights, uv.
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 6] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x3, 2 => Float32x3, 3 => Uint16x4, 4 => Float32x4,
        5 => Float32x4
    ];

    /// The buffer layout for pipelines.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<SkinnedVertex>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

/// The joint palette uniform: joint world × inverse bind, column-major, [`MAX_JOINTS`] matrices
/// (the unused tail is never indexed by the mesh's joints), and the character's tint.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Palette {
    /// One matrix per joint.
    pub joints: [[[f32; 4]; 4]; MAX_JOINTS],
    /// Multiplies the model's colours (rgb): a character file's `tint`; `a`: the weight of the
    /// enemies' rim light ([`ENEMY_RIM`] for an enemy in play, 0 for the hero and every other
    /// character), so an enemy's silhouette reads against the level (`shaders/skinned_lit.wgsl`).
    pub tint: [f32; 4],
}

impl Default for Palette {
    /// Zero matrices, no tint (white), no rim light.
    fn default() -> Self {
        Palette {
            tint: [1.0, 1.0, 1.0, 0.0],
            ..Palette::zeroed()
        }
    }
}

impl Palette {
    /// Copies `matrices` (one per joint, at most [`MAX_JOINTS`]) into the palette.
    pub fn set(&mut self, matrices: &[Mat4]) {
        for (slot, m) in self.joints.iter_mut().zip(matrices) {
            *slot = m.to_cols_array_2d();
        }
    }
}

/// The weight of an enemy's rim light ([`Palette::tint`]'s `a`): the lit shader adds the sky's
/// ambient colour times this times (1 − n·e)² (n the surface's normal, e towards the eye), a
/// pale band along the silhouette, strongest where a surface turns away from the eye.
pub const ENEMY_RIM: f32 = 2.5;

/// The model's mesh as GPU vertices.
pub fn skinned_vertices(mesh: &SkinnedMesh) -> Vec<SkinnedVertex> {
    (0..mesh.positions.len())
        .map(|i| SkinnedVertex {
            position: mesh.positions[i],
            normal: mesh.normals[i],
            color: mesh.colours[i],
            joints: mesh.joints[i],
            weights: mesh.weights[i],
            uv: mesh.uvs.get(i).copied().unwrap_or_default(),
        })
        .collect()
}

/// The bind group layout of the palette (group 2 of both skinned passes): the palette (binding
/// 0), the base colour texture (1, sRGB) and its sampler (2), read by the lit pass.
pub fn palette_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("palette"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 2,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}

/// The base colour texture's RGBA8 pixels: `texture` decoded (PNG or JPEG), else one white texel
/// (a model without a texture, or one that does not decode: logged).
fn texture_pixels(texture: Option<&BaseColorTexture>) -> image::RgbaImage {
    let white = || image::RgbaImage::from_pixel(1, 1, image::Rgba([255; 4]));
    let Some(t) = texture else {
        return white();
    };
    match image::load_from_memory(&t.bytes) {
        Ok(img) => img.to_rgba8(),
        Err(e) => {
            log::warn!(
                "the model's base colour texture ({}) does not decode: {e}; drawn with its colours",
                t.mime.as_deref().unwrap_or("no MIME type")
            );
            white()
        }
    }
}

/// A skinned model on the GPU: its bind-pose mesh, its coarser levels of detail
/// ([`crate::anim::lod`]) and its base colour texture, uploaded once and shared by every
/// character drawn with it ([`SkinnedInstance`]).
pub struct SkinnedModel {
    /// The mesh, then its coarser levels, finest first.
    levels: Vec<Level>,
    texture: wgpu::TextureView,
    sampler: wgpu::Sampler,
    /// Whether `texture` is the model's own (else a white texel).
    textured: bool,
}

/// One level of detail on the GPU.
struct Level {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    count: u32,
    /// Its error in mesh units (0 for the mesh itself).
    error: f32,
    /// Its vertices and indices on the CPU, for characters posed there ([`super::posed`]).
    bind_pose: Vec<SkinnedVertex>,
    index_list: Vec<u32>,
}

/// The largest error (pixels on screen) of the level of detail a character is drawn with: a
/// fraction of a pixel, so the coarser level draws the same pixels but where an edge crosses a
/// pixel's centre by less than this.
pub const LOD_PIXEL_ERROR: f32 = 0.5;

/// The index of the coarsest level of `errors` (mesh units, finest first, the first 0) whose
/// error is under [`LOD_PIXEL_ERROR`] at `pixels_per_unit` pixels per mesh unit.
pub fn choose_level(errors: impl IntoIterator<Item = f32>, pixels_per_unit: f32) -> usize {
    errors
        .into_iter()
        .enumerate()
        .filter(|(_, e)| *e * pixels_per_unit <= LOD_PIXEL_ERROR)
        .map(|(i, _)| i)
        .last()
        .unwrap_or(0)
}

/// One character drawn with a [`SkinnedModel`]: its own joint palette, rewritten once per frame
/// with no allocation, and its bind group (the palette and the model's texture).
pub struct SkinnedInstance {
    palette: wgpu::Buffer,
    group: wgpu::BindGroup,
}

/// The hero's model and palette on the GPU.
pub struct SkinnedHero {
    model: SkinnedModel,
    instance: SkinnedInstance,
}

/// What the skinned passes draw.
pub struct SkinnedDraw<'a> {
    /// Bind-pose vertices.
    pub vertices: &'a wgpu::Buffer,
    /// u32 triangle indices.
    pub indices: &'a wgpu::Buffer,
    /// Number of indices.
    pub count: u32,
    /// The palette bind group (group 2).
    pub palette: &'a wgpu::BindGroup,
    /// Whether the model has its own base colour texture (else the lit pass may draw it with
    /// fewer interpolants: [`crate::render::passes::lit`]).
    pub textured: bool,
}

impl SkinnedModel {
    /// Uploads `mesh`, its levels of detail (made here: [`crate::anim::lod::chain`]) and its
    /// `texture`.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        mesh: &SkinnedMesh,
        texture: Option<&BaseColorTexture>,
    ) -> Self {
        let upload = |mesh: &SkinnedMesh, error: f32| {
            let bind_pose = skinned_vertices(mesh);
            Level {
                vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("skinned vertices"),
                    contents: bytemuck::cast_slice(&bind_pose),
                    usage: wgpu::BufferUsages::VERTEX,
                }),
                indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("skinned indices"),
                    contents: bytemuck::cast_slice(&mesh.indices),
                    usage: wgpu::BufferUsages::INDEX,
                }),
                count: mesh.indices.len() as u32,
                error,
                bind_pose,
                index_list: mesh.indices.clone(),
            }
        };
        let levels: Vec<Level> = std::iter::once(upload(mesh, 0.0))
            .chain(
                crate::anim::lod::chain(mesh)
                    .iter()
                    .map(|l| upload(&l.mesh, l.error)),
            )
            .collect();
        let pixels = texture_pixels(texture);
        let size = wgpu::Extent3d {
            width: pixels.width(),
            height: pixels.height(),
            depth_or_array_layers: 1,
        };
        let tex = device.create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some("skinned base colour"),
                size,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8UnormSrgb,
                usage: wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            pixels.as_raw(),
        );
        let nearest = texture.is_some_and(|t| t.nearest);
        let filter = if nearest {
            wgpu::FilterMode::Nearest
        } else {
            wgpu::FilterMode::Linear
        };
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("skinned base colour"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: filter,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        SkinnedModel {
            levels,
            texture: tex.create_view(&wgpu::TextureViewDescriptor::default()),
            sampler,
            textured: texture.is_some(),
        }
    }

    /// A palette buffer and bind group (`layout`: [`palette_layout`]) for one more character
    /// drawn with this model.
    pub fn instance(
        &self,
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
    ) -> SkinnedInstance {
        let palette = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("skinned palette"),
            contents: bytemuck::bytes_of(&Palette::default()),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("skinned palette"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: palette.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&self.texture),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        });
        SkinnedInstance { palette, group }
    }

    /// The draw of `instance` (made by this model's [`SkinnedModel::instance`]) at
    /// `pixels_per_unit` pixels on screen per mesh unit: the coarsest level of detail whose
    /// error stays under [`LOD_PIXEL_ERROR`].
    pub fn draw<'a>(
        &'a self,
        instance: &'a SkinnedInstance,
        pixels_per_unit: f32,
    ) -> SkinnedDraw<'a> {
        let level =
            &self.levels[choose_level(self.levels.iter().map(|l| l.error), pixels_per_unit)];
        SkinnedDraw {
            vertices: &level.vertices,
            indices: &level.indices,
            count: level.count,
            palette: &instance.group,
            textured: self.textured,
        }
    }

    /// Whether the model has its own base colour texture ([`SkinnedDraw::textured`]).
    pub fn textured(&self) -> bool {
        self.textured
    }

    /// The bind-pose vertices and the indices of the level of detail drawn at `pixels_per_unit`
    /// (as [`SkinnedModel::draw`] chooses it), on the CPU.
    pub fn level_at(&self, pixels_per_unit: f32) -> (&[SkinnedVertex], &[u32]) {
        let level =
            &self.levels[choose_level(self.levels.iter().map(|l| l.error), pixels_per_unit)];
        (&level.bind_pose, &level.index_list)
    }

    /// Triangles and error (mesh units) of each level of detail, the mesh itself first.
    pub fn levels(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.levels.iter().map(|l| (l.count / 3, l.error))
    }
}

impl SkinnedInstance {
    /// Uploads this frame's palette: one write of a fixed-size buffer.
    pub fn write(&self, queue: &wgpu::Queue, palette: &Palette) {
        queue.write_buffer(&self.palette, 0, bytemuck::bytes_of(palette));
    }

    /// Its bind group (the palette and the model's texture).
    pub fn group(&self) -> &wgpu::BindGroup {
        &self.group
    }
}

impl SkinnedHero {
    /// Uploads `mesh` and its `texture` (once) and a palette buffer.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layout: &wgpu::BindGroupLayout,
        mesh: &SkinnedMesh,
        texture: Option<&BaseColorTexture>,
    ) -> Self {
        let model = SkinnedModel::new(device, queue, mesh, texture);
        let instance = model.instance(device, layout);
        SkinnedHero { model, instance }
    }

    /// Uploads this frame's palette: one write of a fixed-size buffer.
    pub fn write(&self, queue: &wgpu::Queue, palette: &Palette) {
        self.instance.write(queue, palette);
    }

    /// The draw for the passes at `pixels_per_unit` pixels per mesh unit.
    pub fn draw(&self, pixels_per_unit: f32) -> SkinnedDraw<'_> {
        self.model.draw(&self.instance, pixels_per_unit)
    }
}

impl SkinnedDraw<'_> {
    /// Issues the draw (the pipeline and groups 0 and 1 must be set).
    pub fn record(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_bind_group(2, self.palette, &[]);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.count, 0, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Model, HERO_GLB};

    #[test]
    fn the_coarsest_level_under_half_a_pixel_is_drawn() {
        let errors = [0.0, 0.001, 0.004, 0.02];
        // 100 pixels per unit: 0, 0.1, 0.4 and 2 pixels.
        assert_eq!(choose_level(errors, 100.0), 2);
        // Closer: only the mesh itself.
        assert_eq!(choose_level(errors, 1000.0), 0);
        // Far: the coarsest.
        assert_eq!(choose_level(errors, 10.0), 3);
        // No levels: the mesh.
        assert_eq!(choose_level([0.0], 1.0), 0);
    }

    #[test]
    fn the_vertex_has_no_padding_and_the_palette_holds_every_joint() {
        assert_eq!(std::mem::size_of::<SkinnedVertex>(), 76);
        let m = Model::from_glb(HERO_GLB).unwrap();
        assert!(m.skeleton.len() <= MAX_JOINTS);
        let v = skinned_vertices(&m.mesh);
        assert_eq!(v.len(), m.mesh.positions.len());
        let mut p = Palette::default();
        p.set(&[Mat4::from_translation(glam::Vec3::X); 2]);
        assert_eq!(p.joints[1][3], [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(p.joints[2], [[0.0; 4]; 4]);
    }
}
