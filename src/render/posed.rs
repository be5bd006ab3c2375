//! Characters posed on the CPU and drawn in one batch per model: how a CPU rasteriser (lavapipe)
//! draws a crowd.
//!
//! On a GPU every character is its own draw, skinned in the vertex stage by its own joint palette
//! ([`super::skinned`]). On lavapipe the vertex stage runs on the CPU, one vertex at a time per
//! SIMD lane, and the skinning's four palette lookups per vertex (gathers from a 64-matrix
//! uniform array) made it the largest part of what characters cost there: the 20 enemies of
//! `benches/crowd/enemies.ron` (300 triangles each, drawn in two passes) took about 4 ms of
//! vertex work per frame there. Skinned here instead, once per frame rather than once per pass,
//! the vertex work fell to 1.7 ms and the posing did not show in a profile (the game's own code
//! was 2.3 % of the samples before and after; BENCHMARKS.md, "A crowd of characters on
//! lavapipe").
//!
//! So where [`super::Quality::pose_on_cpu`] is set, each frame every agent drawn with a model is
//! skinned on the CPU (the same linear blend as `shaders/skinning.wgsl`, the tint folded into the
//! vertex colour) into its model's [`PosedBatch`], which the skinned passes draw with their
//! `vs_posed` entry points (no skinning; the lit pass's `vs_lean` for a model without a base
//! colour texture, see [`super::passes::lit`]) from a smaller vertex, [`PosedVertex`]: one draw
//! per model and pass whatever the number of characters. The level of detail of each character is
//! chosen as on the GPU path ([`SkinnedModel::level_at`]), so both paths draw the same triangles.
use glam::{Mat4, Vec3};

use super::gpu_buffer::DynamicBuffer;
use super::skinned::{Palette, SkinnedDraw, SkinnedInstance, SkinnedModel, SkinnedVertex};
use crate::anim::MAX_JOINTS;

/// A vertex posed on the CPU (`PosedIn` in `shaders/skinning.wgsl`): world space, tinted.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PosedVertex {
    /// Position, world space, m.
    pub position: [f32; 3],
    /// Unit normal, world space.
    pub normal: [f32; 3],
    /// Albedo times the character's tint, linear RGB.
    pub color: [f32; 3],
    /// As [`SkinnedVertex::uv`].
    pub uv: [f32; 4],
}

impl PosedVertex {
    /// The locations of [`SkinnedVertex`] it keeps: position, normal, color and uv.
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 4] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x3, 2 => Float32x3, 5 => Float32x4
    ];

    /// The buffer layout for pipelines.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<PosedVertex>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

/// The characters of one model posed this frame, and the buffers they are drawn from.
pub struct PosedBatch {
    /// The model's texture, and in its palette the rim light's weight (its joints are unused).
    instance: SkinnedInstance,
    textured: bool,
    vertices: Vec<PosedVertex>,
    indices: Vec<u32>,
    /// The triangles of `indices` that face the eye (or nearly: [`facing_eye`]), for the lit
    /// pass; the shadow pass draws them all.
    front: Vec<u32>,
    gpu_vertices: DynamicBuffer,
    gpu_indices: DynamicBuffer,
    gpu_front: DynamicBuffer,
}

impl PosedBatch {
    /// An empty batch for characters drawn with `model` (`layout`: the palette layout), with
    /// the rim light of weight `rim` (0 for none; [`super::skinned::ENEMY_RIM`] for enemies).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layout: &wgpu::BindGroupLayout,
        model: &SkinnedModel,
        rim: f32,
    ) -> Self {
        let instance = model.instance(device, layout);
        let mut palette = Palette::default();
        palette.tint[3] = rim;
        instance.write(queue, &palette);
        PosedBatch {
            instance,
            textured: model.textured(),
            vertices: Vec::new(),
            indices: Vec::new(),
            front: Vec::new(),
            gpu_vertices: DynamicBuffer::new(device, "posed vertices", 64 * 1024),
            gpu_indices: DynamicBuffer::index(device, "posed indices", 16 * 1024),
            gpu_front: DynamicBuffer::index(device, "posed front indices", 16 * 1024),
        }
    }

    /// Empties the batch for a new frame (keeping its memory).
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.indices.clear();
    }

    /// Adds one character of `model` (this batch's) posed by `palette`, at the level of detail
    /// drawn at `pixels_per_unit`.
    pub fn add(&mut self, model: &SkinnedModel, palette: &Palette, pixels_per_unit: f32) {
        let (bind_pose, indices) = model.level_at(pixels_per_unit);
        pose(
            bind_pose,
            indices,
            palette,
            &mut self.vertices,
            &mut self.indices,
        );
    }

    /// Uploads what was added since [`PosedBatch::clear`], and the triangles of it that face
    /// `eye` (world space) for the lit pass.
    pub fn upload(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, eye: Vec3) {
        self.front.clear();
        facing_eye(&self.vertices, &self.indices, eye, &mut self.front);
        self.gpu_vertices.write(device, queue, &self.vertices);
        self.gpu_indices.write(device, queue, &self.indices);
        self.gpu_front.write(device, queue, &self.front);
    }

    /// The batch's draw for the shadow pass, every triangle; `None` when it is empty (draws what
    /// the last upload wrote).
    pub fn draw(&self) -> Option<SkinnedDraw<'_>> {
        self.draw_of(&self.gpu_indices)
    }

    /// The batch's draw for the lit pass: the triangles that face the eye; `None` when there are
    /// none.
    pub fn draw_front(&self) -> Option<SkinnedDraw<'_>> {
        self.draw_of(&self.gpu_front)
    }

    /// The posed vertices drawn through `indices` (one of this batch's index buffers).
    fn draw_of<'a>(&'a self, indices: &'a DynamicBuffer) -> Option<SkinnedDraw<'a>> {
        (!indices.is_empty()).then(|| SkinnedDraw {
            vertices: self.gpu_vertices.buffer(),
            indices: indices.buffer(),
            count: indices.len(),
            palette: self.instance.group(),
            textured: self.textured,
        })
    }
}

/// Appends to `front` the triangles of `indices` (over `vertices`) that are not turned away from
/// `eye`: those the lit pass's back-face culling (counter-clockwise fronts seen through a
/// perspective camera at `eye`) may draw. A triangle goes only when the eye lies behind its
/// plane by more than a millionth of its size times the eye's distance (rounding in the GPU's
/// own test cannot then turn it to the front); edge-on slivers stay for the pipeline to decide.
///
/// lavapipe shades every vertex a draw references on the one submitting thread before its
/// rasteriser threads start, and culls back faces only after that: the cut here saves it the
/// vertex work of a character's far side (about half of a closed model's triangles).
pub fn facing_eye(vertices: &[PosedVertex], indices: &[u32], eye: Vec3, front: &mut Vec<u32>) {
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| Vec3::from(vertices[i as usize].position));
        let n = (b - a).cross(c - a);
        let to_eye = eye - a;
        // d ≥ −10⁻⁶ |n| |to_eye|, without the two square roots.
        let d = n.dot(to_eye);
        if d >= 0.0 || d * d <= 1e-12 * n.length_squared() * to_eye.length_squared() {
            front.extend_from_slice(t);
        }
    }
}

/// Appends `bind_pose` skinned by `palette` to `vertices` and `indices` (offset to follow what
/// is there): each vertex's position and normal by the weighted sum of its joints' matrices
/// (`skin_matrix` in `shaders/skinning.wgsl`), its colour times the palette's tint.
pub fn pose(
    bind_pose: &[SkinnedVertex],
    indices: &[u32],
    palette: &Palette,
    vertices: &mut Vec<PosedVertex>,
    out_indices: &mut Vec<u32>,
) {
    let base = vertices.len() as u32;
    let joints: [Mat4; MAX_JOINTS] =
        std::array::from_fn(|i| Mat4::from_cols_array_2d(&palette.joints[i]));
    let last = MAX_JOINTS - 1;
    let tint = Vec3::from_slice(&palette.tint[..3]);
    vertices.extend(bind_pose.iter().map(|v| {
        let mut m = Mat4::ZERO;
        for (j, w) in v.joints.iter().zip(v.weights) {
            if w != 0.0 {
                // Clamped as the shader clamps (the loader refuses such joints).
                m += joints[(*j as usize).min(last)] * w;
            }
        }
        let position = m.transform_point3(Vec3::from(v.position));
        let normal = m
            .transform_vector3(Vec3::from(v.normal))
            .normalize_or_zero();
        PosedVertex {
            position: position.into(),
            normal: normal.into(),
            color: (Vec3::from(v.color) * tint).into(),
            uv: v.uv,
        }
    }));
    out_indices.extend(indices.iter().map(|i| base + i));
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn vertex(position: [f32; 3], joints: [u16; 4], weights: [f32; 4]) -> SkinnedVertex {
        SkinnedVertex {
            position,
            normal: [0.0, 0.0, 1.0],
            color: [0.5, 0.25, 1.0],
            joints,
            weights,
            uv: [0.25, 0.75, 1.0, 0.0],
        }
    }

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        (Vec3::from(a) - Vec3::from(b)).length() < 1e-5
    }

    fn identity() -> Palette {
        let mut palette = Palette::default();
        palette.set(&[Mat4::IDENTITY; 3]);
        palette
    }

    #[test]
    fn the_identity_palette_leaves_the_bind_pose() {
        let v = vertex([1.0, 2.0, 3.0], [0, 1, 0, 0], [0.75, 0.25, 0.0, 0.0]);
        let (mut out, mut idx) = (Vec::new(), Vec::new());
        pose(&[v], &[0, 0, 0], &identity(), &mut out, &mut idx);
        let kept = PosedVertex {
            position: v.position,
            normal: v.normal,
            color: v.color,
            uv: v.uv,
        };
        assert_eq!(out, vec![kept]);
        assert_eq!(idx, vec![0, 0, 0]);
    }

    #[test]
    fn a_vertex_follows_the_weighted_sum_of_its_joints() {
        // Joint 1 moves up 1 m; joint 2 turns a quarter about y. Half of each.
        let mut palette = Palette::default();
        let turn = Mat4::from_quat(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
        palette.set(&[Mat4::IDENTITY, Mat4::from_translation(Vec3::Y), turn]);
        palette.tint = [0.5, 1.0, 0.5, 1.0];
        let v = vertex([1.0, 0.0, 0.0], [1, 2, 0, 0], [0.5, 0.5, 0.0, 0.0]);
        let (mut out, mut idx) = (Vec::new(), Vec::new());
        pose(&[v], &[0], &palette, &mut out, &mut idx);
        // (1, 0, 0) up 1 m → (1, 1, 0); turned → (0, 0, -1); half of each.
        assert!(close(out[0].position, [0.5, 0.5, -0.5]), "{:?}", out[0]);
        // The normal (0, 0, 1): kept, and turned to (1, 0, 0); their mean, normalised.
        let n = Vec3::new(0.5, 0.0, 0.5).normalize();
        assert!(close(out[0].normal, n.into()), "{:?}", out[0]);
        assert!(close(out[0].color, [0.25, 0.25, 0.5]), "{:?}", out[0]);
        assert_eq!(out[0].uv, v.uv, "texture coordinates are kept");
    }

    #[test]
    fn a_second_character_is_appended_with_its_indices_offset() {
        let tri = [
            vertex([0.0; 3], [0; 4], [1.0, 0.0, 0.0, 0.0]),
            vertex([1.0, 0.0, 0.0], [0; 4], [1.0, 0.0, 0.0, 0.0]),
            vertex([0.0, 1.0, 0.0], [0; 4], [1.0, 0.0, 0.0, 0.0]),
        ];
        let mut moved = identity();
        moved.set(&[Mat4::from_translation(Vec3::X * 10.0)]);
        let (mut out, mut idx) = (Vec::new(), Vec::new());
        pose(&tri, &[0, 1, 2], &identity(), &mut out, &mut idx);
        pose(&tri, &[0, 1, 2], &moved, &mut out, &mut idx);
        assert_eq!(idx, vec![0, 1, 2, 3, 4, 5]);
        assert!(close(out[4].position, [11.0, 0.0, 0.0]));
        assert!(close(out[1].position, [1.0, 0.0, 0.0]));
    }

    #[test]
    fn the_lit_pass_keeps_the_triangles_that_face_the_eye_and_the_edge_on_ones() {
        // A unit square in the plane z = 0 as two counter-clockwise triangles seen from +z, and
        // the same square wound the other way (its back, seen from +z).
        let at = |x: f32, y: f32| PosedVertex {
            position: [x, y, 0.0],
            ..PosedVertex::default()
        };
        let vertices = [at(0.0, 0.0), at(1.0, 0.0), at(1.0, 1.0), at(0.0, 1.0)];
        let front_tris = [0, 1, 2, 0, 2, 3];
        let back_tris = [0, 2, 1, 0, 3, 2];
        let indices: Vec<u32> = front_tris.iter().chain(&back_tris).copied().collect();
        let cut = |eye: Vec3| {
            let mut front = Vec::new();
            facing_eye(&vertices, &indices, eye, &mut front);
            front
        };
        assert_eq!(cut(Vec3::new(0.3, 0.4, 17.0)), front_tris);
        assert_eq!(cut(Vec3::new(0.3, 0.4, -17.0)), back_tris);
        // In the square's plane both sides are edge-on: kept, for the pipeline to decide.
        assert_eq!(cut(Vec3::new(5.0, 0.5, 0.0)), indices);
        // Past the edge by a hair of the distance: still kept on both sides.
        assert_eq!(cut(Vec3::new(5.0, 0.5, 1e-9)), indices);
    }

    #[test]
    fn joints_past_the_palette_are_clamped_like_the_shader() {
        let mut palette = Palette::default();
        let mut all = vec![Mat4::IDENTITY; MAX_JOINTS];
        all[MAX_JOINTS - 1] = Mat4::from_translation(Vec3::Z);
        palette.set(&all);
        let v = vertex([0.0; 3], [u16::MAX, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        let (mut out, mut idx) = (Vec::new(), Vec::new());
        pose(&[v], &[0], &palette, &mut out, &mut idx);
        assert!(close(out[0].position, [0.0, 0.0, 1.0]));
    }
}
