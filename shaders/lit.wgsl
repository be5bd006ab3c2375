// Lit pass: the level's slabs, flat-shaded, with the shared lighting (`lighting.wgsl`: sun with
// a filtered shadow-map lookup, hemispheric ambient, rim highlight, plank stripes, fog).
//#include "lighting.wgsl"

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) stripes: f32,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    return light_vertex(v.position, v.normal, v.color, v.stripes);
}
