//! Vertex formats shared by the CPU mesh builders and the pipelines. Each mirrors a WGSL
//! `VertexIn` struct (see `shaders/`); the naga test checks the layouts against the shaders.
use bytemuck::{Pod, Zeroable};

/// A lit, flat-shaded vertex (`shaders/lit.wgsl`, `shaders/shadow.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct MeshVertex {
    /// World position, m (the play plane is z = 0, +z towards the camera).
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Albedo, linear RGB.
    pub color: [f32; 3],
    /// 1 for surfaces drawn with plank stripes (one-way platforms), 2 for glowing ones (drawn
    /// at their colour, unlit: [`crate::render::marker_mesh::GLOW`]), 0 otherwise.
    pub stripes: f32,
}

impl MeshVertex {
    /// Attribute locations 0..4: position, normal, color, stripes.
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 4] =
        wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x3, 3 => Float32];

    /// The buffer layout for pipelines.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<MeshVertex>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

/// An unlit coloured vertex (`shaders/unlit.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct ColorVertex {
    /// World position, m.
    pub position: [f32; 3],
    /// Linear RGB and alpha (straight, not premultiplied).
    pub color: [f32; 4],
}

impl ColorVertex {
    /// Attribute locations 0..2: position, color.
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 2] =
        wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];

    /// The buffer layout for pipelines.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<ColorVertex>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}
