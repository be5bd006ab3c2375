// Unlit coloured triangles, one shader for two passes: the colours are baked into the vertices
// (linear RGB) and drawn as they are.
// - The background pass: the sky gradient and the parallax ridge layers (haze included in the
//   colours), opaque, before the level.
// - The overlay pass: the collision-mesh debug view, translucent triangles (lines are thin quads)
//   on the play plane, drawn over everything without depth testing, alpha-blended; and the doors
//   and agents, depth-tested like the level.
//
// Two ways to draw the background, the same triangles:
// - `vs_main`/`fs_main` (also the overlay's): inside the main pass, through the frame's sRGB view
//   (the hardware encodes each fragment), colours interpolated in linear light;
// - `vs_plain`/`fs_plain`: in a pass of its own before the main pass, through the frame's plain
//   (not sRGB) view with no depth attachment: the colours are encoded once per vertex and
//   interpolated between sRGB values. A CPU rasteriser (llvmpipe) fills such triangles about
//   2 ms a 1280×720 frame faster than the sRGB view with a depth attachment (BENCHMARKS.md). The
//   gradients then differ from `fs_main`'s by at most a few levels of 255 in their middles and
//   not at all at the vertices (`render_golden::the_backdrop_in_a_pass_of_its_own_draws_the_same_image`).
//   Interpolated with perspective, like `fs_main`: with `@interpolate(linear)` lavapipe (Mesa
//   22.3) left one of the sky's triangles unfilled in that test's view.

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) color: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    out.clip = globals.view_proj * vec4<f32>(v.position, 1.0);
    out.color = v.color;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return in.color;
}

struct PlainOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
};

// The sRGB transfer function (IEC 61966-2-1), per channel.
fn encode_srgb(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    let low = x * 12.92;
    let high = 1.055 * pow(x, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, x <= vec3<f32>(0.0031308));
}

@vertex
fn vs_plain(v: VertexIn) -> PlainOut {
    var out: PlainOut;
    out.clip = globals.view_proj * vec4<f32>(v.position, 1.0);
    out.color = vec4<f32>(encode_srgb(v.color.rgb), v.color.a);
    return out;
}

@fragment
fn fs_plain(in: PlainOut) -> @location(0) vec4<f32> {
    return in.color;
}
