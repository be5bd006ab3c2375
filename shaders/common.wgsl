// Shared by every pass: the per-frame globals (bind group 0, binding 0).
// Prepended to each pass's file at load time (WGSL has no include); Rust mirror: render::globals::Globals.

struct Globals {
    // Projection × view of the camera.
    view_proj: mat4x4<f32>,
    // Projection × view of the sun's shadow camera (orthographic).
    light_view_proj: mat4x4<f32>,
    // xyz: eye position, w: unused.
    eye: vec4<f32>,
    // xyz: unit vector towards the sun, w: unused.
    sun_dir: vec4<f32>,
    // rgb: sun radiance (linear), w: unused.
    sun_color: vec4<f32>,
    // rgb: ambient light from the sky (linear), w: unused.
    sky_ambient: vec4<f32>,
    // rgb: ambient light bounced from the ground (linear), w: unused.
    ground_ambient: vec4<f32>,
    // rgb: fog colour (linear), w: fog density per metre.
    fog: vec4<f32>,
    // x: time (s), y: shadow map texel size (1 / resolution), z: shadow strength (0..1), w: unused.
    params: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
