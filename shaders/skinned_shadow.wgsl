// Skinned shadow pass: the hero's depth seen from the sun, skinned like `skinned_lit.wgsl` (its
// palette is group 2 here too; group 1, the lit pass's shadow map, is left empty). Depth only.
//#include "skinning.wgsl"

@vertex
fn vs_main(v: SkinnedIn) -> @builtin(position) vec4<f32> {
    let m = skin_matrix(v.joints, v.weights);
    return globals.light_view_proj * (m * vec4<f32>(v.position, 1.0));
}

// Characters posed on the CPU (render::posed): already in world space.
@vertex
fn vs_posed(v: PosedIn) -> @builtin(position) vec4<f32> {
    return globals.light_view_proj * vec4<f32>(v.position, 1.0);
}
