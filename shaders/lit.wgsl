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

// The level's open front faces (`render::level_mesh`): at its frontmost depth, where no shadow
// can fall, so `shade` without the shadow-map lookup (what a CPU rasteriser spends most on in a
// lit fragment).
@fragment
fn fs_open(in: VertexOut) -> @location(0) vec4<f32> {
    if (in.stripes > 1.5) {
        return glow(in);
    }
    let p = light_parts(level_albedo(in), in.sun, in.ambient, in.rim_fog);
    return vec4<f32>(p.base + p.sunlit, 1.0);
}
