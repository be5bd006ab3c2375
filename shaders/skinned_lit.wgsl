// Skinned lit pass: the hero, skinned on the GPU by its joint palette (`skinning.wgsl`, group 2), then lit exactly
// like the level (`lighting.wgsl`). Normals use the skin matrix's upper 3×3: the clips rotate and
// translate joints without scaling them, so it is a rotation and needs no inverse transpose.
//#include "lighting.wgsl"
//#include "skinning.wgsl"

@vertex
fn vs_main(v: SkinnedIn) -> VertexOut {
    let m = skin_matrix(v.joints, v.weights);
    let world = (m * vec4<f32>(v.position, 1.0)).xyz;
    let normal = normalize((m * vec4<f32>(v.normal, 0.0)).xyz);
    return light_vertex(world, normal, v.color, 0.0);
}
