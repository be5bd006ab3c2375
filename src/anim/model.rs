//! Loading a skinned character from a binary glTF: the skeleton, the skinned mesh and the clips.
//!
//! Only self-contained files are read (the `.glb` binary chunk; no external buffers or images),
//! with the `gltf` crate's validation first and then checks of every accessor this module reads
//! (element type, component type, count, stride, bounds), so a bad file gives an [`AnimError`]
//! and never a panic inside the reader.
use std::collections::HashMap;
use std::path::Path;

use glam::{Mat4, Quat, Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::util::ReadOutputs;

use super::clip::{Channel, Clip, Interpolation, Property};
use super::error::{AnimError, ModelFileError};
use super::skeleton::Skeleton;
use super::transform::Transform;

/// Most joints a skin may have: the renderer's palette holds this many matrices.
pub const MAX_JOINTS: usize = 64;

/// The skinned mesh as triangles with up to four joint weights per vertex, in bind pose
/// (model space).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkinnedMesh {
    /// Positions, m.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Linear RGB colours (white where the file has none).
    pub colours: Vec<[f32; 3]>,
    /// Joint indices (into the skeleton) of each vertex's four influences.
    pub joints: Vec<[u16; 4]>,
    /// Weights of the four influences, summing to 1.
    pub weights: Vec<[f32; 4]>,
    /// Triangle list indices.
    pub indices: Vec<u32>,
}

/// A skinned character: skeleton, mesh and clips.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The skin's joints.
    pub skeleton: Skeleton,
    /// The skinned mesh.
    pub mesh: SkinnedMesh,
    /// Every clip in the file, in file order.
    pub clips: Vec<Clip>,
}

impl Model {
    /// Reads and loads a `.glb` file.
    pub fn load(path: &Path) -> Result<Model, ModelFileError> {
        let bytes = std::fs::read(path).map_err(|source| ModelFileError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Model::from_glb(&bytes).map_err(|source| ModelFileError::Bad {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Loads a model from the bytes of a binary glTF file.
    pub fn from_glb(bytes: &[u8]) -> Result<Model, AnimError> {
        check_container(bytes)?;
        let gltf = gltf::Gltf::from_slice(bytes).map_err(describe_gltf_error)?;
        let blob = gltf.blob.as_deref();
        for b in gltf.buffers() {
            if !matches!(b.source(), gltf::buffer::Source::Bin) {
                return Err(AnimError::Invalid(format!(
                    "buffer {} refers to an external file; only self-contained .glb models load",
                    b.index()
                )));
            }
            if blob.is_none_or(|d| d.len() < b.length()) {
                return Err(AnimError::Truncated(format!(
                    "buffer {} needs {} bytes, the binary chunk holds {}",
                    b.index(),
                    b.length(),
                    blob.map_or(0, <[u8]>::len)
                )));
            }
        }
        let skin = gltf
            .skins()
            .next()
            .ok_or_else(|| AnimError::MissingSkin("the file has no skin".into()))?;
        let skeleton = load_skeleton(&gltf, &skin, blob)?;
        let node = gltf
            .nodes()
            .find(|n| n.mesh().is_some() && n.skin().is_some_and(|s| s.index() == skin.index()))
            .ok_or_else(|| AnimError::MissingSkin("no node has both a mesh and the skin".into()))?;
        let mesh = node
            .mesh()
            .ok_or_else(|| AnimError::MissingSkin("the skinned node has no mesh".into()))?;
        let mesh = load_mesh(&mesh, skeleton.len(), blob)?;
        let joint_of_node: HashMap<usize, u16> = skin
            .joints()
            .enumerate()
            .map(|(j, n)| (n.index(), j as u16))
            .collect();
        check_channel_targets(gltf.document.as_json())?;
        let mut clips = Vec::new();
        for a in gltf.animations() {
            clips.push(load_clip(&a, &joint_of_node, blob)?);
        }
        if clips.is_empty() {
            return Err(AnimError::NoClips);
        }
        Ok(Model {
            skeleton,
            mesh,
            clips,
        })
    }

    /// The index of the clip called `name`.
    pub fn clip(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name == name)
    }

    /// The rest pose: one local transform per joint.
    pub fn rest_pose(&self) -> Vec<Transform> {
        self.skeleton.rest.clone()
    }
}

/// The GLB header and chunk lengths, checked before the `gltf` crate sees the bytes so that a
/// cut file is reported as truncated (with both lengths) rather than as a parse error.
fn check_container(bytes: &[u8]) -> Result<(), AnimError> {
    if bytes.is_empty() {
        return Err(AnimError::Truncated("the file is empty".into()));
    }
    if !bytes.starts_with(b"glTF") {
        let text = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if text != Some(&b'{') {
            return Err(AnimError::NotGltf(
                "it starts with neither the `glTF` magic of a .glb nor a JSON object".into(),
            ));
        }
        return Ok(());
    }
    if bytes.len() < 20 {
        return Err(AnimError::Truncated(format!(
            "{} bytes, shorter than the 12-byte header and the first chunk's header",
            bytes.len()
        )));
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let declared = u32_at(8) as usize;
    if bytes.len() < declared {
        return Err(AnimError::Truncated(format!(
            "the file is {} bytes but its header says {declared}",
            bytes.len()
        )));
    }
    let json_len = u32_at(12) as usize;
    if 20 + json_len > bytes.len() {
        return Err(AnimError::Truncated(format!(
            "the JSON chunk is {json_len} bytes but only {} follow it",
            bytes.len() - 20
        )));
    }
    Ok(())
}

fn describe_gltf_error(e: gltf::Error) -> AnimError {
    match e {
        gltf::Error::Binary(b) => AnimError::NotGltf(format!("bad binary container: {b}")),
        gltf::Error::Deserialize(d) => AnimError::NotGltf(format!("bad glTF JSON: {d}")),
        gltf::Error::Validation(v) => {
            let first: Vec<String> = v
                .iter()
                .take(3)
                .map(|(path, err)| format!("{}: {err}", path.as_str()))
                .collect();
            AnimError::Invalid(first.join("; "))
        }
        other => AnimError::Invalid(other.to_string()),
    }
}

/// Checks an accessor before it is read: its shape, component types, a non-zero count, no
/// sparse storage, a stride no smaller than an element, and the data inside its buffer.
fn check_accessor(
    a: &gltf::Accessor<'_>,
    what: &str,
    dims: Dimensions,
    types: &[DataType],
) -> Result<(), AnimError> {
    let bad = |why: String| {
        Err(AnimError::Invalid(format!(
            "{what} (accessor {}): {why}",
            a.index()
        )))
    };
    if a.dimensions() != dims {
        return bad(format!("{:?} elements, expected {dims:?}", a.dimensions()));
    }
    if !types.contains(&a.data_type()) {
        return bad(format!(
            "{:?} components, expected one of {types:?}",
            a.data_type()
        ));
    }
    if a.count() == 0 {
        return bad("no elements".into());
    }
    if a.sparse().is_some() {
        return bad("sparse storage is not supported".into());
    }
    let Some(view) = a.view() else {
        return bad("no buffer view".into());
    };
    let size = a.size();
    let stride = view.stride().unwrap_or(size);
    if stride < size {
        return bad(format!(
            "stride {stride} is less than the element size {size}"
        ));
    }
    let end = (a.count() - 1)
        .checked_mul(stride)
        .and_then(|x| x.checked_add(a.offset() + size));
    if end.is_none_or(|e| e > view.length())
        || view.offset() + view.length() > view.buffer().length()
    {
        return bad("its data lies outside its buffer".into());
    }
    Ok(())
}

/// The buffer reader for the accessors: every buffer is the binary chunk (checked on load).
fn buffer_data<'s>(
    blob: Option<&'s [u8]>,
) -> impl Clone + for<'b> Fn(gltf::Buffer<'b>) -> Option<&'s [u8]> + 's {
    move |b: gltf::Buffer<'_>| match b.source() {
        gltf::buffer::Source::Bin => blob,
        gltf::buffer::Source::Uri(_) => None,
    }
}

fn outside(what: &str) -> AnimError {
    AnimError::Invalid(format!("{what}: its data lies outside the binary chunk"))
}

fn load_skeleton(
    gltf: &gltf::Gltf,
    skin: &gltf::Skin<'_>,
    blob: Option<&[u8]>,
) -> Result<Skeleton, AnimError> {
    let joints: Vec<gltf::Node<'_>> = skin.joints().collect();
    let n = joints.len();
    if n == 0 {
        return Err(AnimError::MissingSkin("the skin has no joints".into()));
    }
    if n > MAX_JOINTS {
        return Err(AnimError::Invalid(format!(
            "the skin has {n} joints, more than the {MAX_JOINTS} supported"
        )));
    }
    let inverse_bind: Vec<Mat4> = match skin.inverse_bind_matrices() {
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
            skin.reader(buffer_data(blob))
                .read_inverse_bind_matrices()
                .ok_or_else(|| outside("inverse bind matrices"))?
                .map(|m| Mat4::from_cols_array_2d(&m))
                .collect()
        }
    };
    // Parent node of every node, then the nearest ancestor that is a joint.
    let mut node_parent: HashMap<usize, usize> = HashMap::new();
    for node in gltf.nodes() {
        for c in node.children() {
            node_parent.insert(c.index(), node.index());
        }
    }
    let joint_of_node: HashMap<usize, usize> = joints
        .iter()
        .enumerate()
        .map(|(j, n)| (n.index(), j))
        .collect();
    let local = |node: &gltf::Node<'_>| {
        let (t, r, s) = node.transform().decomposed();
        Transform {
            t: Vec3::from_array(t),
            r: Quat::from_array(r).normalize(),
            s: Vec3::from_array(s),
        }
    };
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
                base = local(&pn).matrix() * base;
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
        rest: joints.iter().map(local).collect(),
        inverse_bind,
        root_base,
        order,
    })
}

fn load_mesh(
    mesh: &gltf::Mesh<'_>,
    joint_count: usize,
    blob: Option<&[u8]>,
) -> Result<SkinnedMesh, AnimError> {
    use gltf::Semantic;
    let mut out = SkinnedMesh::default();
    for p in mesh.primitives() {
        if p.mode() != gltf::mesh::Mode::Triangles {
            return Err(AnimError::Invalid(format!(
                "mesh primitive {} is not a triangle list",
                p.index()
            )));
        }
        let get = |s: Semantic, what: &str| {
            p.get(&s)
                .ok_or_else(|| AnimError::MissingSkin(format!("the mesh has no {what}")))
        };
        let pos = get(Semantic::Positions, "POSITION")?;
        check_accessor(&pos, "POSITION", Dimensions::Vec3, &[DataType::F32])?;
        let nrm = get(Semantic::Normals, "NORMAL")?;
        check_accessor(&nrm, "NORMAL", Dimensions::Vec3, &[DataType::F32])?;
        let jnt = get(Semantic::Joints(0), "JOINTS_0")?;
        check_accessor(
            &jnt,
            "JOINTS_0",
            Dimensions::Vec4,
            &[DataType::U8, DataType::U16],
        )?;
        let wgt = get(Semantic::Weights(0), "WEIGHTS_0")?;
        check_accessor(&wgt, "WEIGHTS_0", Dimensions::Vec4, &[DataType::F32])?;
        let count = pos.count();
        if [nrm.count(), jnt.count(), wgt.count()]
            .iter()
            .any(|&c| c != count)
        {
            return Err(AnimError::Invalid(
                "the mesh's attributes have different counts".into(),
            ));
        }
        let colours = match p.get(&Semantic::Colors(0)) {
            Some(c) => {
                check_accessor(&c, "COLOR_0", Dimensions::Vec3, &[DataType::F32])?;
                if c.count() != count {
                    return Err(AnimError::Invalid("COLOR_0 has a different count".into()));
                }
                Some(())
            }
            None => None,
        };
        let r = p.reader(buffer_data(blob));
        let base = out.positions.len() as u32;
        out.positions
            .extend(r.read_positions().ok_or_else(|| outside("POSITION"))?);
        out.normals
            .extend(r.read_normals().ok_or_else(|| outside("NORMAL"))?);
        match colours {
            Some(()) => out.colours.extend(
                r.read_colors(0)
                    .ok_or_else(|| outside("COLOR_0"))?
                    .into_rgb_f32(),
            ),
            None => out.colours.extend(std::iter::repeat_n([1.0; 3], count)),
        }
        for j in r
            .read_joints(0)
            .ok_or_else(|| outside("JOINTS_0"))?
            .into_u16()
        {
            if j.iter().any(|&x| usize::from(x) >= joint_count) {
                return Err(AnimError::Invalid(format!(
                    "JOINTS_0 names joint {} of a {joint_count}-joint skin",
                    j.iter().max().copied().unwrap_or(0)
                )));
            }
            out.joints.push(j);
        }
        out.weights.extend(
            r.read_weights(0)
                .ok_or_else(|| outside("WEIGHTS_0"))?
                .into_f32(),
        );
        match p.indices() {
            Some(i) => {
                check_accessor(
                    &i,
                    "indices",
                    Dimensions::Scalar,
                    &[DataType::U8, DataType::U16, DataType::U32],
                )?;
                for ix in r
                    .read_indices()
                    .ok_or_else(|| outside("indices"))?
                    .into_u32()
                {
                    if ix as usize >= count {
                        return Err(AnimError::Invalid(format!(
                            "index {ix} past the {count} vertices"
                        )));
                    }
                    out.indices.push(base + ix);
                }
            }
            None => out.indices.extend(base..base + count as u32),
        }
    }
    if out.indices.is_empty() || out.indices.len() % 3 != 0 {
        return Err(AnimError::Invalid("the mesh has no whole triangles".into()));
    }
    Ok(out)
}

/// The animation channels' targets, which the `gltf` crate's validation leaves out (1.4: only the
/// samplers are checked) and its accessors unwrap: a damaged target path or an out-of-range node
/// index panicked in `Channel::target().property()` or `.node()` (found by `tests/it/bad_model.rs`
/// changing one byte at 1 500 places of the hero model).
fn check_channel_targets(root: &gltf::json::Root) -> Result<(), AnimError> {
    for (ai, a) in root.animations.iter().enumerate() {
        for (ci, c) in a.channels.iter().enumerate() {
            let what = format!("animation {ai} channel {ci}");
            if !matches!(c.target.path, gltf::json::validation::Checked::Valid(_)) {
                return Err(AnimError::Invalid(format!(
                    "{what}: the target path is not translation, rotation, scale or weights"
                )));
            }
            if c.target.node.value() >= root.nodes.len() {
                return Err(AnimError::Invalid(format!(
                    "{what}: target node {} does not exist ({} nodes)",
                    c.target.node.value(),
                    root.nodes.len()
                )));
            }
        }
    }
    Ok(())
}

fn load_clip(
    a: &gltf::Animation<'_>,
    joint_of_node: &HashMap<usize, u16>,
    blob: Option<&[u8]>,
) -> Result<Clip, AnimError> {
    let name = a.name().unwrap_or("").to_string();
    let mut channels = Vec::new();
    let mut duration = 0.0f32;
    for (ci, c) in a.channels().enumerate() {
        let what = format!("animation `{name}` channel {ci}");
        let Some(&joint) = joint_of_node.get(&c.target().node().index()) else {
            continue; // Drives a node outside the skin: nothing here draws it.
        };
        let property = match c.target().property() {
            gltf::animation::Property::Translation => Property::Translation,
            gltf::animation::Property::Rotation => Property::Rotation,
            gltf::animation::Property::Scale => Property::Scale,
            gltf::animation::Property::MorphTargetWeights => continue,
        };
        let sampler = c.sampler();
        let interpolation = match sampler.interpolation() {
            gltf::animation::Interpolation::Step => Interpolation::Step,
            gltf::animation::Interpolation::Linear => Interpolation::Linear,
            gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
        };
        check_accessor(
            &sampler.input(),
            &format!("{what} times"),
            Dimensions::Scalar,
            &[DataType::F32],
        )?;
        let (dims, types): (Dimensions, &[DataType]) = match property {
            Property::Rotation => (
                Dimensions::Vec4,
                &[
                    DataType::F32,
                    DataType::I8,
                    DataType::U8,
                    DataType::I16,
                    DataType::U16,
                ],
            ),
            _ => (Dimensions::Vec3, &[DataType::F32]),
        };
        check_accessor(&sampler.output(), &format!("{what} values"), dims, types)?;
        let reader = c.reader(buffer_data(blob));
        let times: Vec<f32> = reader
            .read_inputs()
            .ok_or_else(|| outside(&what))?
            .collect();
        if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|w| w[0] >= w[1]) {
            return Err(AnimError::Invalid(format!(
                "{what}: key times are not finite and strictly increasing"
            )));
        }
        let mut values: Vec<Vec4> = match reader.read_outputs().ok_or_else(|| outside(&what))? {
            ReadOutputs::Translations(v) | ReadOutputs::Scales(v) => {
                v.map(|x| Vec4::new(x[0], x[1], x[2], 0.0)).collect()
            }
            ReadOutputs::Rotations(r) => r.into_f32().map(Vec4::from_array).collect(),
            ReadOutputs::MorphTargetWeights(_) => continue,
        };
        let per_key = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        if values.len() != per_key * times.len() {
            return Err(AnimError::Invalid(format!(
                "{what}: {} values for {} keys",
                values.len(),
                times.len()
            )));
        }
        if values.iter().any(|v| !v.is_finite()) {
            return Err(AnimError::Invalid(format!("{what}: a value is not finite")));
        }
        if property == Property::Rotation && per_key == 1 {
            // Interpolation assumes unit quaternions; a zero one is read as no rotation.
            for v in &mut values {
                *v = v.normalize_or(Vec4::W);
            }
        }
        duration = duration.max(times[times.len() - 1]);
        channels.push(Channel {
            joint,
            property,
            interpolation,
            times,
            values,
        });
    }
    Ok(Clip {
        name,
        duration,
        channels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::hero_model::{CLIP_NAMES, JOINT_COUNT, JOINT_NAMES};
    use crate::anim::HERO_GLB;

    fn hero() -> Model {
        Model::from_glb(HERO_GLB).expect("the committed hero loads")
    }

    #[test]
    fn the_hero_has_its_joints_clips_and_mesh() {
        let m = hero();
        assert_eq!(m.skeleton.len(), JOINT_COUNT);
        assert_eq!(m.skeleton.names, JOINT_NAMES.map(String::from).to_vec());
        let names: Vec<&str> = m.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, CLIP_NAMES.to_vec());
        assert_eq!(m.skeleton.parents[0], None);
        assert!(m.skeleton.parents[1..].iter().all(Option::is_some));
        assert_eq!(m.mesh.positions.len(), 552);
        assert_eq!(m.mesh.indices.len(), 3 * 276);
        for w in &m.mesh.weights {
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        }
        let interp = |name: &str| m.clips[m.clip(name).unwrap()].channels[0].interpolation;
        assert_eq!(interp("idle"), Interpolation::CubicSpline);
        assert_eq!(interp("wall_slide"), Interpolation::Step);
        assert_eq!(interp("run"), Interpolation::Linear);
        assert!((m.clips[m.clip("run").unwrap()].duration - 0.66).abs() < 1e-6);
    }

    #[test]
    fn the_bind_pose_puts_each_joint_where_its_inverse_bind_matrix_says() {
        let m = hero();
        let rest = m.rest_pose();
        let at = m.skeleton.joint_positions(Mat4::IDENTITY, &rest);
        for (j, p) in at.iter().enumerate() {
            let bind = m.skeleton.inverse_bind[j].inverse().w_axis.truncate();
            assert!(
                p.abs_diff_eq(bind, 1e-6),
                "{}: {p} vs {bind}",
                JOINT_NAMES[j]
            );
        }
        // Hips at 0.95 m, the left toe 12 cm ahead of the ankle, on the left (−z) side.
        assert!(at[0].abs_diff_eq(Vec3::new(0.0, 0.95, 0.0), 1e-6));
        let toe = m.skeleton.joint("toe.L").unwrap();
        assert!(at[toe].abs_diff_eq(Vec3::new(0.12, 0.03, -0.09), 1e-6));
        // So the rest pose's palette is the identity: the mesh is drawn as stored.
        let mut palette = vec![Mat4::ZERO; m.skeleton.len()];
        m.skeleton.palette(Mat4::IDENTITY, &rest, &mut palette);
        for p in &palette {
            assert!(p.abs_diff_eq(Mat4::IDENTITY, 1e-6), "{p}");
        }
    }

    #[test]
    fn the_palette_follows_the_root_and_the_clip() {
        let m = hero();
        let mut pose = m.rest_pose();
        let crouch = &m.clips[m.clip("crouch_idle").unwrap()];
        crouch.sample_into(0.0, &mut pose);
        let root = Mat4::from_translation(Vec3::new(5.0, 1.0, 0.0));
        let at = m.skeleton.joint_positions(root, &pose);
        // The crouch's key: hips at (−0.12, 0.41) in the model, here moved by the root.
        assert!(
            at[0].abs_diff_eq(Vec3::new(4.88, 1.41, 0.0), 1e-5),
            "{}",
            at[0]
        );
        let mut palette = vec![Mat4::ZERO; m.skeleton.len()];
        m.skeleton.palette(root, &pose, &mut palette);
        // A vertex bound to the hips at its bind position lands on the hips' new position.
        let v = palette[0].transform_point3(Vec3::new(0.0, 0.95, 0.0));
        assert!(v.abs_diff_eq(at[0], 1e-5), "{v}");
    }

    #[test]
    fn every_loop_closes_so_its_wrap_is_seamless() {
        // The hero's loops end on a copy of their first key: the pose just before the end of the
        // cycle is within a hundredth of a cycle's motion of the pose at its start.
        let m = hero();
        for name in [
            "idle",
            "run",
            "walk",
            "crouch_walk",
            "crouch_idle",
            "climb",
            "push",
        ] {
            let c = &m.clips[m.clip(name).unwrap()];
            let at = |t: f32| {
                let mut pose = m.rest_pose();
                c.sample_into(c.wrap(t), &mut pose);
                m.skeleton.joint_positions(Mat4::IDENTITY, &pose)
            };
            let (start, end) = (at(0.0), at(c.duration - 1e-4));
            for (j, (a, b)) in start.iter().zip(&end).enumerate() {
                assert!(
                    (*a - *b).length() < 2e-3,
                    "{name}: joint {j} jumps {}",
                    (*a - *b).length()
                );
            }
            // And the wrap itself lands exactly on the first key.
            assert_eq!(at(c.duration), start, "{name}");
        }
    }

    #[test]
    fn cut_and_foreign_bytes_are_refused_with_their_reason() {
        let cut = Model::from_glb(&HERO_GLB[..HERO_GLB.len() / 2]).unwrap_err();
        assert!(matches!(cut, AnimError::Truncated(_)), "{cut}");
        assert!(cut.to_string().contains("header says"), "{cut}");
        let png = Model::from_glb(b"\x89PNG\r\n\x1a\n....").unwrap_err();
        assert!(matches!(png, AnimError::NotGltf(_)), "{png}");
        assert!(matches!(
            Model::from_glb(b"").unwrap_err(),
            AnimError::Truncated(_)
        ));
        assert!(matches!(
            Model::from_glb(b"glTF").unwrap_err(),
            AnimError::Truncated(_)
        ));
        let json = Model::from_glb(br#"{"asset": {"version": "2.0"}}"#).unwrap_err();
        assert!(matches!(json, AnimError::MissingSkin(_)), "{json}");
    }
}
