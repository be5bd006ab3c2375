// Lit pass: level slabs and the hero, flat-shaded. Sun (Lambert) with a 4-tap PCF shadow-map lookup,
// hemispheric ambient, a rim highlight, plank stripes for one-way platforms, distance fog.

@group(1) @binding(0) var shadow_map: texture_depth_2d;
@group(1) @binding(1) var shadow_sampler: sampler_comparison;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) stripes: f32,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) stripes: f32,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    out.clip = globals.view_proj * vec4<f32>(v.position, 1.0);
    out.world = v.position;
    out.normal = v.normal;
    out.color = v.color;
    out.stripes = v.stripes;
    return out;
}

// Fraction of sunlight reaching `world` (1 = fully lit), averaged over 3×3 shadow-map taps.
fn sunlight(world: vec3<f32>, n: vec3<f32>) -> f32 {
    let texel = globals.params.y;
    // Normal offset: move the lookup off the surface by about a texel against acne on slopes.
    let p = globals.light_view_proj * vec4<f32>(world + n * 0.04, 1.0);
    let ndc = p.xyz / p.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || ndc.z > 1.0) {
        return 1.0;
    }
    // Four bilinear comparison taps half a texel apart: a smooth 3×3-texel filter for the price
    // of four fetches (nine point taps cost a CPU rasteriser twice as much for little gain).
    var lit = 0.0;
    lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(-0.5, -0.5) * texel, ndc.z);
    lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(0.5, -0.5) * texel, ndc.z);
    lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(-0.5, 0.5) * texel, ndc.z);
    lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(0.5, 0.5) * texel, ndc.z);
    return mix(1.0, lit / 4.0, globals.params.z);
}

// Darkens thin plank seams every 0.5 m along x, plus a faint grain across z.
fn stripe_shade(world: vec3<f32>) -> f32 {
    let u = fract(world.x / 0.5);
    let seam = smoothstep(0.0, 0.06, u) * smoothstep(1.0, 0.94, u);
    let grain = 0.96 + 0.04 * sin(world.z * 23.0 + world.y * 7.0);
    return mix(0.62, 1.0, seam) * grain;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let to_eye = normalize(globals.eye.xyz - in.world);
    var albedo = in.color;
    if (in.stripes > 0.5) {
        albedo = albedo * stripe_shade(in.world);
    }
    let ndl = max(dot(n, globals.sun_dir.xyz), 0.0);
    let sun = globals.sun_color.rgb * ndl * sunlight(in.world, n);
    let ambient = mix(globals.ground_ambient.rgb, globals.sky_ambient.rgb, n.y * 0.5 + 0.5);
    let rim = pow(1.0 - max(dot(n, to_eye), 0.0), 4.0) * 0.25;
    var color = albedo * (ambient + sun) + globals.sky_ambient.rgb * rim;
    let dist = length(globals.eye.xyz - in.world);
    let fog = 1.0 - exp(-globals.fog.w * dist);
    color = mix(color, globals.fog.rgb, fog);
    return vec4<f32>(color, 1.0);
}
