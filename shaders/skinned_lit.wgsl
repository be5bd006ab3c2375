// Skinned lit pass: the hero, skinned on the GPU by its joint palette (`skinning.wgsl`, group 2)
// (or posed on the CPU: `vs_posed`), then lit exactly
// like the level (`lighting.wgsl`). Normals use the skin matrix's upper 3×3: the clips rotate and
// translate joints without scaling them (a character's uniform scale is undone by `normalize`),
// so it is a rotation and needs no inverse transpose. The albedo is the vertex colour times the
// model's base colour texture where it applies (`uv.z`), times the character's tint, and a masked
// material's fragments below
// its alpha cutoff (`uv.w`) are discarded.
//#include "lighting.wgsl"
//#include "skinning.wgsl"

// An enemy's rim light (render::skinned::ENEMY_RIM): the palette's `tint.a` (0 for the hero and
// friendly characters) times (1 - n.e)^2, added to the rim highlight `light_vertex` computed
// (which `light_parts` lights with the sky's ambient colour): a pale band along the
// silhouette, so a small enemy reads against the level. Per vertex: nothing more per fragment.
fn with_enemy_rim(out: VertexOut, position: vec3<f32>, normal: vec3<f32>) -> VertexOut {
    var o = out;
    let facing = 1.0 - max(dot(normal, normalize(globals.eye.xyz - position)), 0.0);
    o.rim_fog.x += palette.tint.a * facing * facing;
    return o;
}

@group(2) @binding(1) var base_color: texture_2d<f32>;
@group(2) @binding(2) var base_sampler: sampler;

@vertex
fn vs_main(v: SkinnedIn) -> VertexOut {
    let m = skin_matrix(v.joints, v.weights);
    let world = (m * vec4<f32>(v.position, 1.0)).xyz;
    let normal = normalize((m * vec4<f32>(v.normal, 0.0)).xyz);
    var out = with_enemy_rim(light_vertex(world, normal, v.color * palette.tint.rgb, 0.0), world, normal);
    out.uv = v.uv;
    return out;
}

// Characters posed on the CPU (render::posed), drawn in one batch per model (and rim light):
// lit the same way, no skinning.
@vertex
fn vs_posed(v: PosedIn) -> VertexOut {
    var out = with_enemy_rim(light_vertex(v.position, v.normal, v.color, 0.0), v.position, v.normal);
    out.uv = v.uv;
    return out;
}

@fragment
fn fs_skinned(in: VertexOut) -> @location(0) vec4<f32> {
    let t = textureSample(base_color, base_sampler, in.uv.xy);
    if (in.uv.w > 0.0 && t.a < in.uv.w) {
        discard;
    }
    return shade(in, in.color * mix(vec3<f32>(1.0), t.rgb, in.uv.z));
}

// Characters posed on the CPU whose model has no base colour texture: the same colour as
// `vs_posed` and `fs_skinned` with its white texel (`light_parts` in `lighting.wgsl`, per
// vertex instead of per fragment), folded into two colours per vertex, so a triangle carries 9 interpolated values instead of 22 (a CPU
// rasteriser sets up every one of them for every triangle, and a character's triangles are a few
// pixels each). Sun and ambient light are interpolated, not flat: the same for a flat-shaded
// model, whose vertices carry their triangle's normal.
struct LeanOut {
    @builtin(position) clip: vec4<f32>,
    // What the fragment gets without sun: ambient, rim and fog.
    @location(0) base: vec3<f32>,
    // What the sun adds where the shadow map lets it through.
    @location(1) sunlit: vec3<f32>,
    @location(2) shadow: vec3<f32>,
};

@vertex
fn vs_lean(v: PosedIn) -> LeanOut {
    let o = with_enemy_rim(light_vertex(v.position, v.normal, v.color, 0.0), v.position, v.normal);
    let p = light_parts(v.color, o.sun, o.ambient, o.rim_fog);
    var out: LeanOut;
    out.clip = o.clip;
    out.base = p.base;
    out.sunlit = p.sunlit;
    out.shadow = o.shadow;
    return out;
}

@fragment
fn fs_lean(in: LeanOut) -> @location(0) vec4<f32> {
    return vec4<f32>(in.base + in.sunlit * sunlight(in.shadow), 1.0);
}
