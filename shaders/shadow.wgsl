// Shadow pass: depth of the level slabs and the hero seen from the sun, into the shadow map.
// Depth only (no fragment stage); the pipeline adds a slope-scaled depth bias against acne.

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) stripes: f32,
};

@vertex
fn vs_main(v: VertexIn) -> @builtin(position) vec4<f32> {
    return globals.light_view_proj * vec4<f32>(v.position, 1.0);
}
