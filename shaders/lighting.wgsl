// Lighting shared by the lit passes (the level's `lit.wgsl` and the skinned hero's
// `skinned_lit.wgsl`), included with `//#include "lighting.wgsl"` (see render::shaders).
//
// Flat-shaded: sun (Lambert) with a percentage-closer filtered shadow-map lookup, hemispheric
// ambient, a rim highlight, plank stripes for one-way platforms, distance fog.
//
// Every triangle has one face normal, so whatever depends only on it (the normal itself, the
// Lambert term, the ambient) is computed per vertex and passed flat, and the shadow-map position
// (an orthographic projection, linear in the position) is interpolated. The fog and the rim
// highlight vary smoothly with the distance and direction to the eye across a face (tens of
// metres away, a face spans a few degrees of view), so they are computed per vertex and
// interpolated too: the fragment stage, which is what a CPU rasteriser spends its time on, does
// only the shadow lookup and the plank stripes.

@group(1) @binding(0) var shadow_map: texture_depth_2d;
@group(1) @binding(1) var shadow_sampler: sampler_comparison;

// Shadow-map comparison taps per fragment: 4 (bilinear taps half a texel apart: a smooth 3×3-texel
// filter) or 1 (one bilinear tap: a 2×2-texel filter, for CPU rasterisers).
override SHADOW_TAPS: u32 = 4u;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) color: vec3<f32>,
    @location(2) @interpolate(flat) stripes: f32,
    // xy: shadow-map uv, z: depth from the sun.
    @location(3) shadow: vec3<f32>,
    // Sun radiance times the Lambert term, and the ambient light.
    @location(4) @interpolate(flat) sun: vec3<f32>,
    @location(5) @interpolate(flat) ambient: vec3<f32>,
    // x: rim highlight strength, y: fog fraction.
    @location(6) rim_fog: vec2<f32>,
    // The skinned hero's base colour texture: uv, whether it applies, alpha cutoff (0: opaque);
    // zero for the level.
    @location(7) uv: vec4<f32>,
};

// The lit vertex: everything the fragment stage needs, from a world-space position and unit
// normal (shared by the level's and the skinned hero's vertex stages).
fn light_vertex(position: vec3<f32>, normal: vec3<f32>, color: vec3<f32>, stripes: f32) -> VertexOut {
    var out: VertexOut;
    out.clip = globals.view_proj * vec4<f32>(position, 1.0);
    out.world = position;
    out.color = color;
    out.stripes = stripes;
    out.uv = vec4<f32>(0.0);
    // Normal offset: move the lookup off the surface by about a texel against acne on slopes.
    // The sun's camera is orthographic (w = 1).
    let p = globals.light_view_proj * vec4<f32>(position + normal * 0.04, 1.0);
    out.shadow = vec3<f32>(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5, p.z);
    out.sun = globals.sun_color.rgb * max(dot(normal, globals.sun_dir.xyz), 0.0);
    out.ambient = mix(globals.ground_ambient.rgb, globals.sky_ambient.rgb, normal.y * 0.5 + 0.5);
    let eye_offset = globals.eye.xyz - position;
    let dist = length(eye_offset);
    let facing = 1.0 - max(dot(normal, eye_offset / dist), 0.0);
    let facing2 = facing * facing;
    out.rim_fog = vec2<f32>(facing2 * facing2 * 0.25, 1.0 - exp(-globals.fog.w * dist));
    return out;
}

// Fraction of sunlight reaching a point at shadow-map position `s` (1 = fully lit).
fn sunlight(s: vec3<f32>) -> f32 {
    let uv = s.xy;
    if (any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || s.z > 1.0) {
        return 1.0;
    }
    var lit: f32;
    if (SHADOW_TAPS == 1u) {
        lit = textureSampleCompareLevel(shadow_map, shadow_sampler, uv, s.z);
    } else {
        // Four bilinear comparison taps half a texel apart: a smooth 3×3-texel filter for the
        // price of four fetches.
        let t = globals.params.y * 0.5;
        lit = textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(-t, -t), s.z);
        lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(t, -t), s.z);
        lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(-t, t), s.z);
        lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(t, t), s.z);
        lit *= 0.25;
    }
    return mix(1.0, lit, globals.params.z);
}

// Darkens thin plank seams every 0.5 m along x, plus a faint grain across z.
fn stripe_shade(world: vec3<f32>) -> f32 {
    let u = fract(world.x / 0.5);
    let seam = smoothstep(0.0, 0.06, u) * smoothstep(1.0, 0.94, u);
    let grain = 0.96 + 0.04 * sin(world.z * 23.0 + world.y * 7.0);
    return mix(0.62, 1.0, seam) * grain;
}

// The lit colour split at the shadow lookup: `base` (ambient, rim highlight, fog) plus `sunlit`
// (what the sun adds, fogged) times the fraction of sunlight reaching the point. The one lighting
// equation: `shade` below, and the lean characters' vertex stage (`skinned_lit.wgsl`).
struct LightParts {
    base: vec3<f32>,
    sunlit: vec3<f32>,
};

fn light_parts(albedo: vec3<f32>, sun: vec3<f32>, ambient: vec3<f32>, rim_fog: vec2<f32>) -> LightParts {
    let keep = 1.0 - rim_fog.y;
    var p: LightParts;
    p.base = (albedo * ambient + globals.sky_ambient.rgb * rim_fog.x) * keep
        + globals.fog.rgb * rim_fog.y;
    p.sunlit = albedo * sun * keep;
    return p;
}

// The lit colour of a fragment of `albedo` (shared by the level's and the skinned hero's
// fragment stages).
fn shade(in: VertexOut, albedo: vec3<f32>) -> vec4<f32> {
    let p = light_parts(albedo, in.sun, in.ambient, in.rim_fog);
    return vec4<f32>(p.base + p.sunlit * sunlight(in.shadow), 1.0);
}

// The level's albedo: its colour, with plank stripes where it has them.
fn level_albedo(in: VertexOut) -> vec3<f32> {
    if (in.stripes > 0.5 && in.stripes < 1.5) {
        return in.color * stripe_shade(in.world);
    }
    return in.color;
}

// A glowing surface (`stripes` 2: lava, a reached checkpoint's flag, `render::marker_mesh`):
// its own colour whatever the light, fogged.
fn glow(in: VertexOut) -> vec4<f32> {
    return vec4<f32>(mix(in.color, globals.fog.rgb, in.rim_fog.y), 1.0);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    if (in.stripes > 1.5) {
        return glow(in);
    }
    return shade(in, level_albedo(in));
}
