//! A glTF skin's skeleton and its skinned mesh, for [`super::model`]: the joints in parent
//! order with their rest transforms and inverse bind matrices, and every primitive of every node
//! bound to the skin read into one [`SkinnedMesh`] (flat normals where the file has none, the
//! four largest influences renormalised, the base colour and its texture), each accessor checked
//! first ([`super::gltf_read`]).
use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3};
use gltf::accessor::{DataType, Dimensions};

use super::error::AnimError;
use super::gltf_read::{buffer_data, check_accessor, outside, External};
use super::model::{BaseColorTexture, MeshPart, SkinnedMesh, MAX_JOINTS};
use super::skeleton::Skeleton;
use super::transform::Transform;

/// The skeleton of `skin`: its joints in skin order, their parents (the nearest ancestor node
/// that is a joint), rest transforms, inverse bind matrices (identity where the skin has none)
/// and the transforms of the non-joint nodes above each root. No joints, more than
/// [`MAX_JOINTS`], inverse bind matrices not one per joint, and joints in a cycle are refused.
pub(super) fn load_skeleton(
    gltf: &gltf::Gltf,
    skin: &gltf::Skin<'_>,
    buffers: &[&[u8]],
) -> Result<Skeleton, AnimError> {
    let joints: Vec<gltf::Node<'_>> = skin.joints().collect();
    let n = joints.len();
    if n == 0 {
        return Err(AnimError::MissingSkin("the skin has no joints".into()));
    }
    if n > MAX_JOINTS {
        return Err(AnimError::Unsupported(format!(
            "the skin has {n} joints, more than the {MAX_JOINTS} the renderer's joint palette \
             holds"
        )));
    }
    let inverse_bind = inverse_binds(skin, buffers)?;
    build_skeleton(gltf, &joints, inverse_bind)
}

/// The inverse bind matrices of `skin`, one per joint (identity where the skin has none).
pub(super) fn inverse_binds(
    skin: &gltf::Skin<'_>,
    buffers: &[&[u8]],
) -> Result<Vec<Mat4>, AnimError> {
    let n = skin.joints().len();
    Ok(match skin.inverse_bind_matrices() {
        None => vec![Mat4::IDENTITY; n],
        Some(a) => {
            check_accessor(
                &a,
                "inverse bind matrices",
                Dimensions::Mat4,
                &[DataType::F32],
            )?;
            if a.count() != n {
                return Err(AnimError::MissingSkin(format!(
                    "{} inverse bind matrices for {n} joints",
                    a.count()
                )));
            }
            skin.reader(buffer_data(buffers))
                .read_inverse_bind_matrices()
                .ok_or_else(|| outside("inverse bind matrices"))?
                .map(|m| Mat4::from_cols_array_2d(&m))
                .collect()
        }
    })
}

/// The skeleton of `joints` (nodes, in joint order) with their inverse bind matrices: parents
/// (the nearest ancestor node that is a joint), rest transforms, the transforms of the non-joint
/// nodes above each root, and the parent-first order. Joints in a cycle are refused.
pub(super) fn build_skeleton(
    gltf: &gltf::Gltf,
    joints: &[gltf::Node<'_>],
    inverse_bind: Vec<Mat4>,
) -> Result<Skeleton, AnimError> {
    let n = joints.len();
    let node_parent = node_parents(gltf);
    // The nearest ancestor that is a joint.
    let joint_of_node: HashMap<usize, usize> = joints
        .iter()
        .enumerate()
        .map(|(j, n)| (n.index(), j))
        .collect();
    let mut parents = vec![None; n];
    let mut root_base = vec![Mat4::IDENTITY; n];
    for (j, node) in joints.iter().enumerate() {
        let mut above = node_parent.get(&node.index()).copied();
        let mut base = Mat4::IDENTITY;
        // A glTF node tree has no cycles (the crate's validation); the step bound also guards.
        for _ in 0..gltf.nodes().len() {
            let Some(p) = above else { break };
            if let Some(&pj) = joint_of_node.get(&p) {
                parents[j] = Some(pj as u16);
                break;
            }
            if let Some(pn) = gltf.nodes().nth(p) {
                base = node_local(&pn).matrix() * base;
            }
            above = node_parent.get(&p).copied();
        }
        if parents[j].is_none() {
            root_base[j] = base;
        }
    }
    // Parents before children: repeatedly take joints whose parent is placed.
    let mut order: Vec<u16> = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while order.len() < n {
        let before = order.len();
        for j in 0..n {
            if !placed[j] && parents[j].is_none_or(|p| placed[usize::from(p)]) {
                placed[j] = true;
                order.push(j as u16);
            }
        }
        if order.len() == before {
            return Err(AnimError::Invalid("the skin's joints form a cycle".into()));
        }
    }
    Ok(Skeleton {
        names: joints
            .iter()
            .map(|n| n.name().unwrap_or("").to_string())
            .collect(),
        parents,
        rest: joints.iter().map(node_local).collect(),
        inverse_bind,
        root_base,
        order,
    })
}

/// A node's own transform (relative to its parent).
fn node_local(node: &gltf::Node<'_>) -> Transform {
    let (t, r, s) = node.transform().decomposed();
    Transform {
        t: Vec3::from_array(t),
        r: Quat::from_array(r).normalize(),
        s: Vec3::from_array(s),
    }
}

/// The parent node of every node that has one.
pub(super) fn node_parents(gltf: &gltf::Gltf) -> HashMap<usize, usize> {
    let mut node_parent = HashMap::new();
    for node in gltf.nodes() {
        for c in node.children() {
            node_parent.insert(c.index(), node.index());
        }
    }
    node_parent
}

/// Every node's world matrix as the file places it (the product of its own and its ancestors'
/// transforms), by node index.
pub(super) fn node_worlds(gltf: &gltf::Gltf) -> Vec<Mat4> {
    let parents = node_parents(gltf);
    let nodes: Vec<gltf::Node<'_>> = gltf.nodes().collect();
    nodes
        .iter()
        .map(|node| {
            let mut m = node_local(node).matrix();
            let mut at = node.index();
            // A glTF node tree has no cycles (the crate's validation); the step bound also guards.
            for _ in 0..nodes.len() {
                let Some(&p) = parents.get(&at) else { break };
                m = node_local(&nodes[p]).matrix() * m;
                at = p;
            }
            m
        })
        .collect()
}

/// The skeleton of a file without a skin whose animations move nodes that carry meshes (a
/// jointed figure exported as a node hierarchy): every node that carries a mesh or is animated,
/// and every ancestor of one, is a joint, its inverse bind matrix the inverse of where the file
/// places it, so the rest pose draws the meshes as the file places them. Returns the joints'
/// node indices with it. Refused, with "no skin" in the message, when no animation moves a
/// node carrying a mesh or one of its ancestors (a skinned mesh whose skin was lost).
pub(super) fn node_skeleton(gltf: &gltf::Gltf) -> Result<(Skeleton, Vec<usize>), AnimError> {
    let parents = node_parents(gltf);
    let count = gltf.nodes().len();
    let animated: std::collections::HashSet<usize> = gltf
        .animations()
        .flat_map(|a| {
            a.channels()
                .map(|c| c.target().node().index())
                .collect::<Vec<_>>()
        })
        .collect();
    let ancestors = |n: usize| {
        let mut out = vec![n];
        let mut at = n;
        for _ in 0..count {
            let Some(&p) = parents.get(&at) else { break };
            out.push(p);
            at = p;
        }
        out
    };
    let mut keep = vec![false; count];
    let mut moved_mesh = false;
    for node in gltf.nodes() {
        let has_mesh = node.mesh().is_some();
        if has_mesh || animated.contains(&node.index()) {
            let up = ancestors(node.index());
            moved_mesh |= has_mesh && up.iter().any(|a| animated.contains(a));
            for a in up {
                keep[a] = true;
            }
        }
    }
    if !moved_mesh {
        return Err(AnimError::MissingSkin(
            "the file has no skin, and no animation moves a node that carries a mesh (or one \
             above it)"
                .into(),
        ));
    }
    let joints: Vec<gltf::Node<'_>> = gltf.nodes().filter(|n| keep[n.index()]).collect();
    if joints.len() > MAX_JOINTS {
        return Err(AnimError::Unsupported(format!(
            "the file has no skin and its animated node hierarchy has {} nodes, more than the \
             {MAX_JOINTS} joints the renderer's joint palette holds",
            joints.len()
        )));
    }
    let worlds = node_worlds(gltf);
    let inverse_bind = joints
        .iter()
        .map(|n| {
            let inv = worlds[n.index()].inverse();
            if inv.is_finite() {
                inv
            } else {
                Mat4::IDENTITY
            }
        })
        .collect();
    let nodes = joints.iter().map(|n| n.index()).collect();
    Ok((build_skeleton(gltf, &joints, inverse_bind)?, nodes))
}

/// The model's base colour texture once a primitive has chosen it: the glTF texture index and
/// the image.
#[derive(Default)]
pub(super) struct TextureChoice {
    pub(super) chosen: Option<(usize, BaseColorTexture)>,
}

/// What [`load_mesh`] reads besides the mesh and adds to besides the vertices.
pub(super) struct MeshContext<'a, 'b> {
    pub(super) parts: &'a mut Vec<MeshPart>,
    pub(super) notes: &'a mut Vec<String>,
    pub(super) texture: &'a mut TextureChoice,
    pub(super) buffers: &'a [&'b [u8]],
    pub(super) external: External<'a>,
}

/// The encoded image of glTF texture `tex`: a buffer view of the file or a file beside it.
fn texture_image(
    tex: &gltf::Texture<'_>,
    ctx: &MeshContext<'_, '_>,
) -> Result<BaseColorTexture, AnimError> {
    let image = tex.source();
    let (bytes, mime) = match image.source() {
        gltf::image::Source::View { view, mime_type } => {
            let data = ctx
                .buffers
                .get(view.buffer().index())
                .copied()
                .unwrap_or(&[]);
            let bytes = data
                .get(view.offset()..view.offset() + view.length())
                .ok_or_else(|| outside(&format!("image {}", image.index())))?;
            (bytes.to_vec(), Some(mime_type.to_string()))
        }
        gltf::image::Source::Uri { uri, .. } if uri.starts_with("data:") => {
            return Err(AnimError::Unsupported(format!(
                "image {} is embedded as a base64 data URI; export as .glb or as .gltf with \
                 separate files",
                image.index()
            )))
        }
        gltf::image::Source::Uri { uri, mime_type } => {
            ((ctx.external)(uri)?, mime_type.map(str::to_string))
        }
    };
    let nearest = tex.sampler().mag_filter() == Some(gltf::texture::MagFilter::Nearest);
    Ok(BaseColorTexture {
        bytes,
        mime,
        nearest,
    })
}

/// Appends every primitive of `mesh` to `out`. A primitive without `NORMAL` gets flat normals
/// (glTF 2.0: "When normals are not specified, client implementations MUST calculate flat
/// normals"): its triangles are unshared, each vertex taking its triangle's normal. Weights are
/// renormalised to sum to 1; with `JOINTS_1`/`WEIGHTS_1` the four largest of the eight
/// influences are kept. Morph targets are ignored (the base shape is drawn), with one log line.
///
/// `rigid: Some((joint, m))` reads a mesh without a skin that follows one joint: its `JOINTS`
/// and `WEIGHTS` are not read, every vertex is bound to `joint` with weight 1, and positions and
/// normals are brought into the skin's bind space by `m` (see [`rigid_bind`]). `remap` reads a
/// mesh bound to another skin on the same joints: its joint `k` is the skeleton's `remap[k]`.
pub(super) fn load_mesh(
    out: &mut SkinnedMesh,
    ctx: &mut MeshContext<'_, '_>,
    mesh: &gltf::Mesh<'_>,
    joint_count: usize,
    rigid: Option<(u16, Mat4)>,
    remap: Option<&[u16]>,
) -> Result<(), AnimError> {
    let joint_count = remap.map_or(joint_count, <[u16]>::len);
    let buffers = ctx.buffers;
    use gltf::Semantic;
    let mesh_name = match mesh.name() {
        Some(n) => format!("mesh `{n}`"),
        None => format!("mesh {}", mesh.index()),
    };
    for p in mesh.primitives() {
        let prim = format!("{mesh_name} primitive {}", p.index());
        if p.mode() != gltf::mesh::Mode::Triangles {
            return Err(AnimError::Unsupported(format!(
                "{prim} is drawn as {:?}, not a triangle list",
                p.mode()
            )));
        }
        let missing = |what: &str| {
            AnimError::MissingAttribute(format!(
                "{prim} has no {what} (a skinned mesh needs POSITION, JOINTS_0 and WEIGHTS_0)"
            ))
        };
        let weight_types = [DataType::F32, DataType::U8, DataType::U16];
        let joint_types = [DataType::U8, DataType::U16];
        let pos = p
            .get(&Semantic::Positions)
            .ok_or_else(|| missing("POSITION"))?;
        check_accessor(&pos, "POSITION", Dimensions::Vec3, &[DataType::F32])?;
        let count = pos.count();
        let same_count = |a: &gltf::Accessor<'_>, what: &str| {
            if a.count() == count {
                Ok(())
            } else {
                Err(AnimError::Invalid(format!(
                    "{prim}: {what} has {} elements, POSITION {count}",
                    a.count()
                )))
            }
        };
        let nrm = p.get(&Semantic::Normals);
        if let Some(n) = &nrm {
            check_accessor(n, "NORMAL", Dimensions::Vec3, &[DataType::F32])?;
            same_count(n, "NORMAL")?;
        }
        let mut sets = Vec::new();
        for set in 0..if rigid.is_some() { 0 } else { 2 } {
            let (j, w) = (
                p.get(&Semantic::Joints(set)),
                p.get(&Semantic::Weights(set)),
            );
            let (j, w) = match (j, w, set) {
                (Some(j), Some(w), _) => (j, w),
                (None, None, 1) => break,
                (None, _, 0) => return Err(missing("JOINTS_0")),
                (_, None, 0) => return Err(missing("WEIGHTS_0")),
                _ => {
                    return Err(AnimError::Invalid(format!(
                        "{prim} has only one of JOINTS_1 and WEIGHTS_1"
                    )))
                }
            };
            let (jn, wn) = (format!("JOINTS_{set}"), format!("WEIGHTS_{set}"));
            check_accessor(&j, &jn, Dimensions::Vec4, &joint_types)?;
            check_accessor(&w, &wn, Dimensions::Vec4, &weight_types)?;
            same_count(&j, &jn)?;
            same_count(&w, &wn)?;
            sets.push(set);
        }
        if rigid.is_none()
            && (p.get(&Semantic::Joints(2)).is_some() || p.get(&Semantic::Weights(2)).is_some())
        {
            return Err(AnimError::Unsupported(format!(
                "{prim} has JOINTS_2/WEIGHTS_2: more than eight joint influences per vertex"
            )));
        }
        let colour = p.get(&Semantic::Colors(0));
        if let Some(c) = &colour {
            let dims = if c.dimensions() == Dimensions::Vec4 {
                Dimensions::Vec4
            } else {
                Dimensions::Vec3
            };
            check_accessor(c, "COLOR_0", dims, &weight_types)?;
            same_count(c, "COLOR_0")?;
        }
        if p.morph_targets().len() > 0 {
            ctx.notes.push(format!(
                "{prim}: its {} morph targets are ignored (the base shape is drawn)",
                p.morph_targets().len()
            ));
        }

        let r = p.reader(buffer_data(buffers));
        let mut positions: Vec<[f32; 3]> = r
            .read_positions()
            .ok_or_else(|| outside("POSITION"))?
            .collect();
        let mut normals: Option<Vec<[f32; 3]>> = match nrm {
            Some(_) => Some(r.read_normals().ok_or_else(|| outside("NORMAL"))?.collect()),
            None => None,
        };
        if let Some((_, m)) = rigid {
            let nm = m.inverse().transpose();
            for p in &mut positions {
                *p = m.transform_point3(Vec3::from_array(*p)).to_array();
            }
            for n in normals.iter_mut().flatten() {
                let v = nm.transform_vector3(Vec3::from_array(*n));
                *n = v.try_normalize().unwrap_or(Vec3::Y).to_array();
            }
        }
        let material = p.material();
        let pbr = material.pbr_metallic_roughness();
        let [fr, fg, fb, _] = pbr.base_color_factor();
        let colours: Vec<[f32; 3]> = match colour {
            Some(_) => r
                .read_colors(0)
                .ok_or_else(|| outside("COLOR_0"))?
                .into_rgb_f32()
                .map(|[r, g, b]| [r * fr, g * fg, b * fb])
                .collect(),
            None => vec![[fr, fg, fb]; count],
        };
        // The base colour texture: the model's first, read once; a primitive with another one
        // or without its coordinates is drawn with its colours only.
        let mut uvs = vec![[0.0f32; 4]; count];
        if let Some(info) = pbr.base_color_texture() {
            let set = info.tex_coord();
            let tex = info.texture();
            let same = ctx
                .texture
                .chosen
                .as_ref()
                .is_none_or(|(i, _)| *i == tex.index());
            match p.get(&Semantic::TexCoords(set)) {
                None => ctx.notes.push(format!(
                    "{prim}: its base colour texture has no TEXCOORD_{set}: drawn with its colours"
                )),
                Some(_) if !same => ctx.notes.push(format!(
                    "{prim} uses a second base colour texture: drawn with its colours (one \
                     texture per model)"
                )),
                Some(t) => {
                    check_accessor(&t, "TEXCOORD", Dimensions::Vec2, &weight_types)?;
                    same_count(&t, "TEXCOORD")?;
                    if ctx.texture.chosen.is_none() {
                        ctx.texture.chosen = Some((tex.index(), texture_image(&tex, ctx)?));
                    }
                    let cutoff = match material.alpha_mode() {
                        gltf::material::AlphaMode::Mask => material.alpha_cutoff().unwrap_or(0.5),
                        _ => 0.0,
                    };
                    for (o, [u, v]) in uvs.iter_mut().zip(
                        r.read_tex_coords(set)
                            .ok_or_else(|| outside("TEXCOORD"))?
                            .into_f32(),
                    ) {
                        *o = [u, v, 1.0, cutoff];
                    }
                }
            }
        }
        if material.alpha_mode() == gltf::material::AlphaMode::Blend {
            ctx.notes
                .push(format!("{prim}: blended transparency is drawn opaque"));
        }
        // Up to eight influences per vertex, then the four largest, renormalised.
        let mut influences: Vec<[(u16, f32); 8]> = vec![[(0, 0.0); 8]; count];
        for &set in &sets {
            let js = r
                .read_joints(set)
                .ok_or_else(|| outside("JOINTS"))?
                .into_u16();
            let ws = r
                .read_weights(set)
                .ok_or_else(|| outside("WEIGHTS"))?
                .into_f32();
            for ((inf, j), w) in influences.iter_mut().zip(js).zip(ws) {
                for k in 0..4 {
                    inf[4 * set as usize + k] = (j[k], w[k]);
                }
            }
        }
        let mut unweighted = 0;
        let mut joints = Vec::with_capacity(count);
        let mut weights = Vec::with_capacity(count);
        for inf in &mut influences {
            if let Some(&(j, _)) = inf
                .iter()
                .find(|(j, w)| *w > 0.0 && usize::from(*j) >= joint_count)
            {
                return Err(AnimError::Invalid(format!(
                    "{prim}: JOINTS names joint {j} of a {joint_count}-joint skin"
                )));
            }
            if sets.len() > 1 {
                // Stable: equal weights keep their order, so four influences stay as written.
                inf.sort_by(|a, b| b.1.total_cmp(&a.1));
            }
            let (mut j, mut w) = match rigid {
                Some((joint, _)) => ([joint, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
                None => (
                    [inf[0].0, inf[1].0, inf[2].0, inf[3].0],
                    [inf[0].1, inf[1].1, inf[2].1, inf[3].1],
                ),
            };
            if j.iter().any(|&x| usize::from(x) >= joint_count) {
                // A joint index past the skin with zero weight: harmless, point it at joint 0.
                for (x, wx) in j.iter_mut().zip(&w) {
                    if usize::from(*x) >= joint_count && *wx == 0.0 {
                        *x = 0;
                    }
                }
            }
            if let Some(r) = remap {
                // Another skin's joint indices, to the skeleton's (validated just above).
                for x in &mut j {
                    *x = r.get(usize::from(*x)).copied().unwrap_or(0);
                }
            }
            let sum: f32 = w.iter().sum();
            if sum.is_nan() || sum <= 0.0 || !sum.is_finite() || w.iter().any(|x| *x < 0.0) {
                unweighted += 1;
                w = [1.0, 0.0, 0.0, 0.0];
            } else if (sum - 1.0).abs() > 1e-4 {
                w = w.map(|x| x / sum);
            }
            joints.push(j);
            weights.push(w);
        }
        if unweighted > 0 {
            ctx.notes.push(format!(
                "{prim}: {unweighted} vertices have no usable weight; each follows its first joint"
            ));
        }
        let indices: Vec<u32> = match p.indices() {
            Some(i) => {
                check_accessor(
                    &i,
                    "indices",
                    Dimensions::Scalar,
                    &[DataType::U8, DataType::U16, DataType::U32],
                )?;
                let ix: Vec<u32> = r
                    .read_indices()
                    .ok_or_else(|| outside("indices"))?
                    .into_u32()
                    .collect();
                if let Some(bad) = ix.iter().find(|&&x| x as usize >= count) {
                    return Err(AnimError::Invalid(format!(
                        "{prim}: index {bad} past the {count} vertices"
                    )));
                }
                ix
            }
            None => (0..count as u32).collect(),
        };
        let whole = indices.len() - indices.len() % 3;
        let base = out.positions.len() as u32;
        if normals.is_none() {
            ctx.notes
                .push(format!("{prim} has no NORMAL: flat normals computed"));
        }
        if sets.len() > 1 {
            ctx.notes.push(format!(
                "{prim} has eight joint influences per vertex: the four largest are kept"
            ));
        }
        match normals {
            Some(n) => {
                out.positions.extend(positions);
                out.normals.extend(n);
                out.colours.extend(colours);
                out.joints.extend(joints);
                out.weights.extend(weights);
                out.uvs.extend(uvs);
                out.indices
                    .extend(indices[..whole].iter().map(|i| base + i));
            }
            None => {
                for (k, t) in indices[..whole].chunks_exact(3).enumerate() {
                    let [a, b, c] =
                        [t[0], t[1], t[2]].map(|i| Vec3::from_array(positions[i as usize]));
                    let n = (b - a).cross(c - a).try_normalize().unwrap_or(Vec3::Z);
                    for &i in t {
                        let i = i as usize;
                        out.positions.push(positions[i]);
                        out.normals.push(n.to_array());
                        out.colours.push(colours[i]);
                        out.joints.push(joints[i]);
                        out.weights.push(weights[i]);
                        out.uvs.push(uvs[i]);
                    }
                    out.indices.extend((0..3).map(|v| base + 3 * k as u32 + v));
                }
            }
        }
        ctx.parts.push(MeshPart {
            name: prim,
            vertices: out.positions.len() - base as usize,
            triangles: whole / 3,
            rigid: rigid.is_some(),
        });
    }
    Ok(())
}

/// The matrix that brings a rigid part's vertices (a mesh without a skin on node `part`) into the
/// bind space of the joint `joint` it follows, so that the skinning palette draws them where the
/// joint's pose puts them with the part's own node transforms:
/// `inverse(inverse_bind) × inverse(world(joint)) × world(part)`, the worlds as the file places
/// the nodes. With the file's node transforms at the bind pose this is `world(part)`.
pub(super) fn rigid_bind(inverse_bind: Mat4, joint_world: Mat4, part_world: Mat4) -> Mat4 {
    let m = inverse_bind.inverse() * joint_world.inverse() * part_world;
    if m.is_finite() {
        m
    } else {
        part_world
    }
}
