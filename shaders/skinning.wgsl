// Linear blend skinning, shared by the skinned passes (`skinned_lit.wgsl`, `skinned_shadow.wgsl`),
// included with `//#include "skinning.wgsl"` (see render::shaders). Rust mirrors:
// render::skinned::{SkinnedVertex, Palette}; the palette is anim's joint world × inverse bind,
// uploaded once per frame.

// Joints in a palette (anim::MAX_JOINTS).
const MAX_JOINTS: u32 = 128u;

struct Palette {
    joints: array<mat4x4<f32>, MAX_JOINTS>,
    // Multiplies the model's colours (rgb): a character file's `tint`, white for none.
    tint: vec4<f32>,
};

// Group 2 in both skinned passes (the shadow pass leaves group 1 empty), so one declaration
// serves both.
@group(2) @binding(0) var<uniform> palette: Palette;

struct SkinnedIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) joints: vec4<u32>,
    @location(4) weights: vec4<f32>,
    // Base colour texture: uv, whether it applies, alpha cutoff (render::skinned::SkinnedVertex).
    @location(5) uv: vec4<f32>,
};

// A vertex posed on the CPU (render::posed::PosedVertex): already in world space, its colour
// already tinted; the locations of `SkinnedIn` it keeps.
struct PosedIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(5) uv: vec4<f32>,
};

// The weighted sum of four palette matrices (the weights sum to 1). Joint indices past the
// palette are clamped (the loader refuses such files; this only keeps a bad upload in bounds).
fn skin_matrix(joints: vec4<u32>, weights: vec4<f32>) -> mat4x4<f32> {
    let j = min(joints, vec4<u32>(MAX_JOINTS - 1u));
    return palette.joints[j.x] * weights.x
        + palette.joints[j.y] * weights.y
        + palette.joints[j.z] * weights.z
        + palette.joints[j.w] * weights.w;
}
