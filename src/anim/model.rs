//! Loading a skinned character from a binary glTF: the skeleton, the skinned mesh and the clips.
//!
//! Binary `.glb` files are read, and `.gltf` files whose buffers are files beside them (a
//! relative URI; base64 `data:` URIs are refused by name), with the `gltf` crate's validation
//! first and then checks of every accessor read (element type, component type, count, stride,
//! bounds; `gltf_read`), so a bad file gives an [`AnimError`] and never a panic inside
//! the reader. The skeleton and the skinned mesh are read by `skin_load`; this module
//! puts them together with the clips, and adds clips from animation files
//! ([`Model::add_clips_from`]: channels bound to joints by name).
//!
//! What exporters write, and what becomes of it (`tests/it/model_conformance.rs`):
//! - one skin (see below); every primitive of every node bound to it
//!   (one node per part or material is common), the nodes' own transforms ignored as glTF says
//!   for skinned meshes;
//! - rigid parts: a mesh without a skin on a joint's node or below one (a jointed robot's
//!   limbs, a helmet, a sword) follows the nearest joint above it with its own node transforms:
//!   its vertices are bound to that joint with weight 1, brought into the joint's bind space
//!   (`skin_load::rigid_bind`), so the renderer draws it like any skinned vertex; one under no
//!   joint is left out, with a note;
//! - no skin at all: when the animations move nodes that carry meshes, every mesh-carrying or
//!   animated node and the nodes above them are the skeleton, each mesh a rigid part of its node
//!   (`skin_load::node_skeleton`); a clip whose channels drive no joint holds the rest pose, with
//!   a note;
//! - no `NORMAL`: flat normals, each triangle's own (its vertices are not shared);
//! - `JOINTS_1`/`WEIGHTS_1`: the four largest of the eight influences; weights that do not sum to
//!   1 (beyond 1e-4) are renormalised, `u8`/`u16` normalised weights and colours are read, a
//!   vertex without a usable weight follows its first joint (one log line per primitive);
//! - morph targets: ignored, the base shape drawn (one log line);
//! - refused, naming what: a required extension ([`AnimError::Unsupported`]), a primitive that is
//!   not a triangle list, more joints than [`MAX_JOINTS`], a primitive without `JOINTS_0` or
//!   `WEIGHTS_0` ([`AnimError::MissingAttribute`]).
//!
//! - sparse accessors (the `gltf` crate's reader applies them), with or without a base view.
//!
//! - several skins: the first, with a note, and the meshes of the others whose joints and
//!   inverse bind matrices are the first's (exporters write a skin per skinned mesh of one
//!   armature); or the one a character file names, alone;
//! - the material's `baseColorFactor` (times `COLOR_0`), and its `baseColorTexture` with its
//!   `TEXCOORD_n` and sampler (nearest or linear magnification, repeat), one texture per model
//!   (a primitive with another is drawn with its colours, noted), an image in a buffer view or
//!   a file beside a `.gltf`; `MASK` materials discard texels below their cutoff, `BLEND` ones
//!   are drawn opaque (noted). The renderer decodes the image (PNG or JPEG) and samples it as
//!   sRGB.
//!
//! Not read: base64 `data:` buffers and images (refused by name), metallic-roughness, normal,
//! occlusion and emissive maps (the game's lighting is flat-shaded).
use std::collections::HashMap;
use std::path::Path;

use glam::{Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::util::ReadOutputs;

use super::clip::{Channel, Clip, Interpolation, Property};
use super::error::{AnimError, ModelFileError};
use super::gltf_read::{buffer_data, buffer_slices, check_accessor, load_file, open_gltf, outside};
use super::skeleton::Skeleton;
use super::skin_load::{
    inverse_binds, load_mesh, load_skeleton, node_parents, node_skeleton, node_worlds, rigid_bind,
    MeshContext, TextureChoice,
};
use super::transform::Transform;

/// Most joints a skin may have: the renderer's palette holds this many matrices. 128: what
/// exporters and auto-riggers write for a humanoid with hands fits (Mixamo's skeleton with
/// fingers has 65 joints, some of its characters 67; a Rigify rig exported as deform bones only
/// 36), and the palette stays an 8 KiB uniform, half the 16 KiB every wgpu adapter allows a
/// uniform binding.
pub const MAX_JOINTS: usize = 128;

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
    /// Per vertex: the base colour texture's coordinates (u, v), 1 where the model's texture
    /// applies (else 0: colour only), and the alpha cutoff of a masked material (0: opaque).
    pub uvs: Vec<[f32; 4]>,
}

/// A model's base colour texture: the image file's bytes (decoded by the renderer: PNG or JPEG)
/// and how it is sampled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseColorTexture {
    /// The encoded image.
    pub bytes: Vec<u8>,
    /// Its MIME type when the file says (`image/png`, `image/jpeg`).
    pub mime: Option<String>,
    /// Magnified with the nearest texel (pixel art) rather than linearly.
    pub nearest: bool,
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
    /// The primitives the mesh was made of, in load order.
    pub parts: Vec<MeshPart>,
    /// The base colour texture (one per model: the first a primitive uses).
    pub texture: Option<BaseColorTexture>,
    /// What the loader changed or left out (flat normals computed, morph targets ignored, ...),
    /// one sentence each; also logged.
    pub notes: Vec<String>,
}

/// One primitive of the file that went into [`Model::mesh`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshPart {
    /// `mesh NAME primitive K` (or the mesh's index when it has no name).
    pub name: String,
    /// Vertices it added to the mesh.
    pub vertices: usize,
    /// Triangles it added.
    pub triangles: usize,
    /// A mesh without a skin following a joint (a jointed robot's limb, a helmet, a held sword),
    /// rather than a skinned mesh.
    pub rigid: bool,
}

impl Model {
    /// Reads and loads a `.glb` file, or a `.gltf` file with its buffers in files beside it.
    pub fn load(path: &Path) -> Result<Model, ModelFileError> {
        Model::load_skin(path, None)
    }

    /// [`Model::load`] with the skin called `skin` (default: the file's first).
    pub fn load_skin(path: &Path, skin: Option<&str>) -> Result<Model, ModelFileError> {
        Model::load_for_character(path, skin, false)
    }

    /// [`Model::load_skin`] for a character whose clips may also come from animation files
    /// ([`Model::add_clips_from`]): with `clips_elsewhere`, a model file without animations
    /// loads, with no clips.
    pub fn load_for_character(
        path: &Path,
        skin: Option<&str>,
        clips_elsewhere: bool,
    ) -> Result<Model, ModelFileError> {
        load_file(path, |bytes, external| {
            Model::from_gltf_with(bytes, external, skin, !clips_elsewhere)
        })
    }

    /// Adds the animations of another file (a `.glb`, or a `.gltf` with its buffers beside it)
    /// to the clips: an animation library, or an auto-rigger's "without skin" download of one
    /// clip for a character made with the same rig. Each channel drives the joint named as its
    /// target node (node order and indices may differ between the files); channels of nodes
    /// that no joint is named after are left out, with a note. A file of one animation names
    /// its clip after itself (`Run.glb`: `Run`), since such downloads all call their clip the
    /// same (`mixamo.com`); a file of several keeps their names. Returns the notes.
    pub fn add_clips_from(&mut self, path: &Path) -> Result<Vec<String>, ModelFileError> {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        load_file(path, |bytes, external| {
            self.add_clips_from_gltf(bytes, external, &stem)
        })
    }

    /// [`Model::add_clips_from`] on a file's bytes; `stem` names the clip of a file of one
    /// animation.
    pub fn add_clips_from_gltf(
        &mut self,
        bytes: &[u8],
        external: impl Fn(&str) -> Result<Vec<u8>, AnimError>,
        stem: &str,
    ) -> Result<Vec<String>, AnimError> {
        let (gltf, owned) = open_gltf(bytes, &external)?;
        let buffers = buffer_slices(&gltf, &owned);
        check_channel_targets(gltf.document.as_json())?;
        if gltf.animations().len() == 0 {
            return Err(AnimError::NoClips);
        }
        let joint_of_name: HashMap<&str, u16> = (self.skeleton.names.iter().enumerate())
            .filter(|(_, n)| !n.is_empty())
            .map(|(j, n)| (n.as_str(), j as u16))
            .collect();
        let joint_of_node: HashMap<usize, u16> = gltf
            .nodes()
            .filter_map(|n| Some((n.index(), *joint_of_name.get(n.name()?)?)))
            .collect();
        let mut bound = 0;
        let mut unbound = std::collections::BTreeSet::new();
        for a in gltf.animations() {
            for c in a.channels() {
                let node = c.target().node();
                if c.target().property() == gltf::animation::Property::MorphTargetWeights {
                    continue;
                }
                if joint_of_node.contains_key(&node.index()) {
                    bound += 1;
                } else {
                    unbound.insert(
                        node.name()
                            .map_or_else(|| format!("node {}", node.index()), |n| format!("`{n}`")),
                    );
                }
            }
        }
        if bound == 0 {
            let joints: Vec<String> = (self.skeleton.names.iter())
                .map(|n| format!("`{n}`"))
                .collect();
            return Err(AnimError::NoJointInCommon(format!(
                "no animation drives a node named like a joint of the model (it animates {}; \
                 the model's joints are {})",
                if unbound.is_empty() {
                    "nothing".to_string()
                } else {
                    first_names(unbound.iter())
                },
                first_names(joints.iter())
            )));
        }
        let single = gltf.animations().len() == 1;
        let mut clips: Vec<Clip> = Vec::new();
        for a in gltf.animations() {
            let mut clip = load_clip(&a, &joint_of_node, &buffers)?;
            if single {
                clip.name = stem.to_string();
            }
            if self.clips.iter().chain(&clips).any(|c| c.name == clip.name) {
                return Err(AnimError::DuplicateClip(clip.name));
            }
            clips.push(clip);
        }
        // Only now: a file refused anywhere adds nothing.
        self.clips.extend(clips);
        let mut notes = Vec::new();
        if !unbound.is_empty() {
            notes.push(format!(
                "{} animated node(s) are not joints of the model and are left out: {}",
                unbound.len(),
                first_names(unbound.iter())
            ));
        }
        Ok(notes)
    }

    /// Loads a model from the bytes of a binary glTF file (self-contained: a buffer in another
    /// file is an error).
    pub fn from_glb(bytes: &[u8]) -> Result<Model, AnimError> {
        Model::from_gltf(bytes, |uri| {
            Err(AnimError::Invalid(format!(
                "a buffer refers to the file `{uri}`; without the model's path only \
                 self-contained .glb models load"
            )))
        })
    }

    /// Loads a model from a `.glb` or `.gltf` file's bytes; `external(uri)` reads a buffer that
    /// the file names by URI.
    pub fn from_gltf(
        bytes: &[u8],
        external: impl Fn(&str) -> Result<Vec<u8>, AnimError>,
    ) -> Result<Model, AnimError> {
        Model::from_gltf_skin(bytes, external, None)
    }

    /// [`Model::from_gltf`] with the skin called `skin` (`None`: the first, with a note when
    /// there are more).
    pub fn from_gltf_skin(
        bytes: &[u8],
        external: impl Fn(&str) -> Result<Vec<u8>, AnimError>,
        skin: Option<&str>,
    ) -> Result<Model, AnimError> {
        Model::from_gltf_with(bytes, external, skin, true)
    }

    /// [`Model::from_gltf_skin`]; a file without animations is an error only when
    /// `clips_required`.
    fn from_gltf_with(
        bytes: &[u8],
        external: impl Fn(&str) -> Result<Vec<u8>, AnimError>,
        skin: Option<&str>,
        clips_required: bool,
    ) -> Result<Model, AnimError> {
        let wanted = skin;
        let (gltf, owned) = open_gltf(bytes, &external)?;
        let buffers = buffer_slices(&gltf, &owned);
        let buffers = buffers.as_slice();
        let skin =
            match wanted {
                None => gltf.skins().next(),
                Some(name) => Some(gltf.skins().find(|s| s.name() == Some(name)).ok_or_else(
                    || {
                        let names: Vec<String> = gltf
                            .skins()
                            .map(|s| format!("`{}`", s.name().unwrap_or("")))
                            .collect();
                        AnimError::MissingSkin(format!(
                            "no skin called `{name}` (the file's skins: {})",
                            if names.is_empty() {
                                "none".to_string()
                            } else {
                                names.join(", ")
                            }
                        ))
                    },
                )?),
            };
        let mut notes = Vec::new();
        if gltf.skins().len() > 1 && wanted.is_none() {
            notes.push(format!(
                "the model has {} skins; the first, {:?}, is used, with the meshes of the others \
                 that share its joints (a character file's `skin` chooses)",
                gltf.skins().len(),
                skin.as_ref().and_then(|s| s.name()).unwrap_or("")
            ));
        }
        check_channel_targets(gltf.document.as_json())?;
        // The joints: the skin's, or without a skin the animated node hierarchy.
        let (skeleton, joint_nodes) = match &skin {
            Some(skin) => (
                load_skeleton(&gltf, skin, buffers)?,
                skin.joints().map(|n| n.index()).collect::<Vec<_>>(),
            ),
            None => {
                if gltf.meshes().len() == 0 {
                    return Err(AnimError::MissingSkin("the file has no skin".into()));
                }
                let (sk, nodes) = node_skeleton(&gltf)?;
                notes.push(format!(
                    "the file has no skin: its {} animated and mesh-carrying nodes are the \
                     skeleton",
                    nodes.len()
                ));
                (sk, nodes)
            }
        };
        let joint_of_node: HashMap<usize, u16> = joint_nodes
            .iter()
            .enumerate()
            .map(|(j, &n)| (n, j as u16))
            .collect();
        // Every primitive of every node bound to the skin: exporters write one node per mesh
        // part or material. A skinned mesh's node transform is ignored (glTF 2.0, "Skins").
        // A mesh without a skin under a joint's node (a jointed robot's limbs, a helmet, a
        // sword) follows that joint with its own node transforms: its vertices are bound to the
        // joint with weight 1, in the joint's bind space, so the renderer needs nothing else.
        let mut mesh = SkinnedMesh::default();
        let mut parts = Vec::new();
        let mut texture = TextureChoice::default();
        let worlds = node_worlds(&gltf);
        let node_parent = node_parents(&gltf);
        let mut loose = Vec::new();
        let mut other_skins = Vec::new();
        for node in gltf.nodes() {
            let Some(m) = node.mesh() else { continue };
            let mut remap = None;
            let rigid = match (node.skin(), &skin) {
                (Some(s), Some(skin)) if s.index() == skin.index() => None,
                // A skin chosen by name draws alone (two outfits on one armature).
                (Some(_), Some(_)) if wanted.is_some() => continue,
                (Some(s), Some(_)) => {
                    match same_joints(&s, &joint_of_node, &skeleton.inverse_bind, buffers)? {
                        Some(r) => remap = Some(r),
                        None => {
                            other_skins.push(node.name().map_or_else(
                                || format!("node {}", node.index()),
                                |n| format!("`{n}`"),
                            ));
                            continue;
                        }
                    }
                    None
                }
                _ => {
                    // The nearest joint at or above the node.
                    let mut at = Some(node.index());
                    let mut joint = None;
                    for _ in 0..=worlds.len() {
                        let Some(n) = at else { break };
                        if let Some(&j) = joint_of_node.get(&n) {
                            joint = Some((j, n));
                            break;
                        }
                        at = node_parent.get(&n).copied();
                    }
                    let Some((j, jn)) = joint else {
                        loose.push(node.name().map_or_else(
                            || format!("node {}", node.index()),
                            |n| format!("`{n}`"),
                        ));
                        continue;
                    };
                    let bind = rigid_bind(
                        skeleton.inverse_bind[usize::from(j)],
                        worlds[jn],
                        worlds[node.index()],
                    );
                    Some((j, bind))
                }
            };
            let mut ctx = MeshContext {
                parts: &mut parts,
                notes: &mut notes,
                texture: &mut texture,
                buffers,
                external: &external,
            };
            load_mesh(
                &mut mesh,
                &mut ctx,
                &m,
                skeleton.len(),
                rigid,
                remap.as_deref(),
            )?;
        }
        if !other_skins.is_empty() {
            notes.push(format!(
                "{} mesh node(s) bound to another skin (other joints or bind matrices) are left \
                 out: {}",
                other_skins.len(),
                first_names(other_skins.iter())
            ));
        }
        if !loose.is_empty() {
            notes.push(format!(
                "{} mesh node(s) without a skin are under no joint and are left out: {}",
                loose.len(),
                first_names(loose.iter())
            ));
        }
        if parts.is_empty() {
            return Err(AnimError::MissingSkin(if loose.is_empty() {
                "no node has both a mesh and the skin, nor a mesh under one of its joints".into()
            } else {
                format!(
                    "no node has both a mesh and the skin, and the mesh nodes without a skin \
                     ({}) are under no joint of it",
                    first_names(loose.iter())
                )
            }));
        }
        if mesh.indices.is_empty() {
            return Err(AnimError::Invalid("the mesh has no whole triangles".into()));
        }
        let mut clips = Vec::new();
        for a in gltf.animations() {
            let clip = load_clip(&a, &joint_of_node, buffers)?;
            if clip.channels.is_empty() {
                notes.push(format!(
                    "clip `{}` drives no joint of the model (its channels name nodes outside \
                     the skeleton): it holds the rest pose",
                    clip.name
                ));
            }
            clips.push(clip);
        }
        if clips.is_empty() && clips_required {
            return Err(AnimError::NoClips);
        }
        for n in &notes {
            log::info!("model: {n}");
        }
        Ok(Model {
            skeleton,
            mesh,
            clips,
            parts,
            texture: texture.chosen.map(|(_, t)| t),
            notes,
        })
    }

    /// Removes the horizontal root motion of every clip: a root joint's translation keys lose
    /// the straight-line horizontal drift (in the model's frame, y up) from the clip's first key
    /// to its last, so a walk keyed moving forward plays in place on the collider while its sway
    /// and vertical bob stay. A clip that ends where it starts (every loop made in place, every
    /// clip of the built-in hero) is left exactly as it was. Returns, per clip changed, its name
    /// and the drift removed (m, in model units).
    pub fn strip_root_motion(&mut self) -> Vec<(String, f32)> {
        let mut changed = Vec::new();
        for clip in &mut self.clips {
            let mut most = 0.0f32;
            for ch in &mut clip.channels {
                let j = usize::from(ch.joint);
                if ch.property != Property::Translation || self.skeleton.parents[j].is_some() {
                    continue;
                }
                let base = self.skeleton.root_base[j];
                let (Some(&t0), Some(&t1)) = (ch.times.first(), ch.times.last()) else {
                    continue;
                };
                let cubic = ch.interpolation == Interpolation::CubicSpline;
                let value = |k: usize| if cubic { 3 * k + 1 } else { k };
                let last = ch.times.len() - 1;
                let at = |v: Vec4| base.transform_point3(v.truncate());
                let drift = at(ch.values[value(last)]) - at(ch.values[value(0)]);
                let drift = Vec3::new(drift.x, 0.0, drift.z);
                if drift == Vec3::ZERO || t1 <= t0 || !drift.is_finite() {
                    continue;
                }
                let inverse = base.inverse();
                let rate = inverse.transform_vector3(drift / (t1 - t0));
                for k in 0..ch.times.len() {
                    let p = at(ch.values[value(k)]) - drift * ((ch.times[k] - t0) / (t1 - t0));
                    ch.values[value(k)] = inverse.transform_point3(p).extend(0.0);
                    if cubic {
                        // Tangents are rates (per second): the drift's rate comes off them too.
                        ch.values[3 * k] -= rate.extend(0.0);
                        ch.values[3 * k + 2] -= rate.extend(0.0);
                    }
                }
                most = most.max(drift.length());
            }
            if most > 0.0 {
                changed.push((clip.name.clone(), most));
            }
        }
        changed
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

/// For a mesh bound to `other`, a skin that is not the model's: when every joint of `other` is a
/// joint of the model's skeleton with the same inverse bind matrix (exporters write a skin per
/// skinned mesh of one armature), the model's joint index of each of `other`'s joints; else
/// `None`.
fn same_joints(
    other: &gltf::Skin<'_>,
    joint_of_node: &HashMap<usize, u16>,
    inverse_bind: &[glam::Mat4],
    buffers: &[&[u8]],
) -> Result<Option<Vec<u16>>, AnimError> {
    let theirs = inverse_binds(other, buffers)?;
    let mut remap = Vec::with_capacity(theirs.len());
    for (k, node) in other.joints().enumerate() {
        let Some(&j) = joint_of_node.get(&node.index()) else {
            return Ok(None);
        };
        if !theirs[k].abs_diff_eq(inverse_bind[usize::from(j)], 1e-4) {
            return Ok(None);
        }
        remap.push(j);
    }
    Ok(Some(remap))
}

/// The first four of `names` with `, ...` after them when there are more.
fn first_names<'a>(names: impl ExactSizeIterator<Item = &'a String>) -> String {
    let n = names.len();
    let shown: Vec<&str> = names.take(4).map(String::as_str).collect();
    format!("{}{}", shown.join(", "), if n > 4 { ", ..." } else { "" })
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
    buffers: &[&[u8]],
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
        let reader = c.reader(buffer_data(buffers));
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
    use crate::anim::HERO_GLB;
    use glam::Mat4;
    use tessera_models::{CLIP_NAMES, JOINT_COUNT, JOINT_NAMES};

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
