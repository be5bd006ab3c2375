//! Loading a skinned character from a binary glTF: the skeleton, the skinned mesh and the clips.
//!
//! Binary `.glb` files are read, and `.gltf` files whose buffers are files beside them (a
//! relative URI; base64 `data:` URIs are refused by name), with the `gltf` crate's validation first and then checks of every accessor this module reads
//! (element type, component type, count, stride, bounds), so a bad file gives an [`AnimError`]
//! and never a panic inside the reader.
//!
//! What exporters write, and what becomes of it (`tests/it/model_conformance.rs`):
//! - one skin (see below); every primitive of every node bound to it
//!   (one node per part or material is common), the nodes' own transforms ignored as glTF says
//!   for skinned meshes;
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
//! - several skins: the first, with a note, or the one a character file names;
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

use glam::{Mat4, Quat, Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::util::ReadOutputs;

use super::clip::{Channel, Clip, Interpolation, Property};
use super::error::{AnimError, ModelFileError};
use super::skeleton::Skeleton;
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
        let (bytes, dir) = read_model_file(path)?;
        Model::from_gltf_with(&bytes, |uri| read_beside(dir, uri), skin, !clips_elsewhere).map_err(
            |error| ModelFileError::Bad {
                path: path.to_path_buf(),
                error,
            },
        )
    }

    /// Adds the animations of another file (a `.glb`, or a `.gltf` with its buffers beside it)
    /// to the clips: an animation library, or an auto-rigger's "without skin" download of one
    /// clip for a character made with the same rig. Each channel drives the joint named as its
    /// target node (node order and indices may differ between the files); channels of nodes
    /// that no joint is named after are left out, with a note. A file of one animation names
    /// its clip after itself (`Run.glb`: `Run`), since such downloads all call their clip the
    /// same (`mixamo.com`); a file of several keeps their names. Returns the notes.
    pub fn add_clips_from(&mut self, path: &Path) -> Result<Vec<String>, ModelFileError> {
        let (bytes, dir) = read_model_file(path)?;
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        self.add_clips_from_gltf(&bytes, |uri| read_beside(dir, uri), &stem)
            .map_err(|error| ModelFileError::Bad {
                path: path.to_path_buf(),
                error,
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
        let skin = match wanted {
            None => gltf
                .skins()
                .next()
                .ok_or_else(|| AnimError::MissingSkin("the file has no skin".into()))?,
            Some(name) => gltf
                .skins()
                .find(|s| s.name() == Some(name))
                .ok_or_else(|| {
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
                })?,
        };
        let mut notes = Vec::new();
        if gltf.skins().len() > 1 && wanted.is_none() {
            notes.push(format!(
                "the model has {} skins; the first, {:?}, is used (a character file's `skin` \
                 chooses)",
                gltf.skins().len(),
                skin.name().unwrap_or("")
            ));
        }
        let skeleton = load_skeleton(&gltf, &skin, buffers)?;
        // Every primitive of every node bound to the skin: exporters write one node per mesh
        // part or material. A skinned mesh's node transform is ignored (glTF 2.0, "Skins").
        let mut mesh = SkinnedMesh::default();
        let mut parts = Vec::new();
        let mut texture = TextureChoice::default();
        for node in gltf.nodes() {
            if let (Some(m), Some(s)) = (node.mesh(), node.skin()) {
                if s.index() == skin.index() {
                    let mut ctx = MeshContext {
                        parts: &mut parts,
                        notes: &mut notes,
                        texture: &mut texture,
                        buffers,
                        external: &external,
                    };
                    load_mesh(&mut mesh, &mut ctx, &m, skeleton.len())?;
                }
            }
        }
        if parts.is_empty() {
            return Err(AnimError::MissingSkin(
                "no node has both a mesh and the skin".into(),
            ));
        }
        if mesh.indices.is_empty() {
            return Err(AnimError::Invalid("the mesh has no whole triangles".into()));
        }
        let joint_of_node: HashMap<usize, u16> = skin
            .joints()
            .enumerate()
            .map(|(j, n)| (n.index(), j as u16))
            .collect();
        check_channel_targets(gltf.document.as_json())?;
        let mut clips = Vec::new();
        for a in gltf.animations() {
            clips.push(load_clip(&a, &joint_of_node, buffers)?);
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

/// The bytes of a glTF file's buffers that live in files of their own, in buffer order (`None`:
/// the binary chunk's).
type OwnBuffers = Vec<Option<Vec<u8>>>;

/// A glTF file's document and its buffers in other files ([`load_buffers`]), after the checks
/// every file gets first (container lengths, required extensions).
fn open_gltf(
    bytes: &[u8],
    external: &impl Fn(&str) -> Result<Vec<u8>, AnimError>,
) -> Result<(gltf::Gltf, OwnBuffers), AnimError> {
    check_container(bytes)?;
    check_required_extensions(bytes)?;
    let gltf = gltf::Gltf::from_slice(bytes).map_err(describe_gltf_error)?;
    let owned = load_buffers(&gltf, external)?;
    Ok((gltf, owned))
}

/// The first four of `names` with `, ...` after them when there are more.
fn first_names<'a>(names: impl ExactSizeIterator<Item = &'a String>) -> String {
    let n = names.len();
    let shown: Vec<&str> = names.take(4).map(String::as_str).collect();
    format!("{}{}", shown.join(", "), if n > 4 { ", ..." } else { "" })
}

/// The bytes of each of `gltf`'s buffers that lives in another file (`None`: the binary chunk),
/// each checked to be as long as the file says.
fn load_buffers(
    gltf: &gltf::Gltf,
    external: &impl Fn(&str) -> Result<Vec<u8>, AnimError>,
) -> Result<OwnBuffers, AnimError> {
    let blob = gltf.blob.as_deref();
    let mut owned = OwnBuffers::new();
    for b in gltf.buffers() {
        let data = match b.source() {
            gltf::buffer::Source::Bin => None,
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                return Err(AnimError::Unsupported(format!(
                    "buffer {} is embedded as a base64 data URI; export as .glb or as \
                     .gltf with separate files",
                    b.index()
                )))
            }
            gltf::buffer::Source::Uri(uri) => Some(external(uri)?),
        };
        let len = data.as_deref().or(blob).map_or(0, <[u8]>::len);
        if len < b.length() {
            return Err(AnimError::Truncated(format!(
                "buffer {} needs {} bytes, {} holds {len}",
                b.index(),
                b.length(),
                match b.source() {
                    gltf::buffer::Source::Bin => "the binary chunk".to_string(),
                    gltf::buffer::Source::Uri(u) => format!("`{u}`"),
                }
            )));
        }
        owned.push(data);
    }
    Ok(owned)
}

/// Every buffer's bytes: its own file's (`owned`, from [`load_buffers`]) or the binary chunk.
fn buffer_slices<'a>(gltf: &'a gltf::Gltf, owned: &'a OwnBuffers) -> Vec<&'a [u8]> {
    let blob = gltf.blob.as_deref();
    owned
        .iter()
        .map(|d| d.as_deref().or(blob).unwrap_or(&[]))
        .collect()
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

/// Refuses a file that requires an extension, by name, before the `gltf` crate's validation
/// (which reports only "unsupported" at a JSON path). None is supported: every extension this
/// loader could use is optional by nature (a file may list it in `extensionsUsed` and loads).
fn check_required_extensions(bytes: &[u8]) -> Result<(), AnimError> {
    let json = if bytes.starts_with(b"glTF") {
        let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        &bytes[20..20 + len]
    } else {
        bytes
    };
    #[derive(serde::Deserialize)]
    struct Required {
        #[serde(default, rename = "extensionsRequired")]
        required: Vec<String>,
    }
    // A document that does not parse is reported by the `gltf` crate next.
    let Ok(doc) = serde_json::from_slice::<Required>(json) else {
        return Ok(());
    };
    match doc.required.as_slice() {
        [] => Ok(()),
        names => Err(AnimError::Unsupported(format!(
            "the file requires the extension{} {} (re-export without {})",
            if names.len() > 1 { "s" } else { "" },
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if names.len() > 1 { "them" } else { "it" }
        ))),
    }
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

/// Checks an accessor before it is read: its shape, component types, a non-zero count, sparse
/// counts, a stride no smaller than an element, and the data inside its buffer.
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
    // Sparse storage: the reader bounds-checks the indices' and values' views itself (data
    // outside them reads as missing); it needs at least one and at most `count` of them.
    if let Some(sparse) = a.sparse() {
        if sparse.count() == 0 || sparse.count() > a.count() {
            return bad(format!(
                "{} sparse values for {} elements",
                sparse.count(),
                a.count()
            ));
        }
    }
    let Some(view) = a.view() else {
        if a.sparse().is_some() {
            // All zeros but the sparse values.
            return Ok(());
        }
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

/// The buffer reader for the accessors: each buffer's data by index (lengths checked on load).
fn buffer_data<'s>(
    buffers: &'s [&'s [u8]],
) -> impl Clone + for<'b> Fn(gltf::Buffer<'b>) -> Option<&'s [u8]> + 's {
    move |b: gltf::Buffer<'_>| buffers.get(b.index()).copied()
}

/// Most bytes read for one external buffer (a guard against a URI naming a huge file).
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;

/// A `.gltf` file's external buffer `uri`, read from `dir` (the model's directory): a relative
/// path, `%XX` escapes decoded.
/// A model file's bytes and the folder its external buffers and images are read from.
fn read_model_file(path: &Path) -> Result<(Vec<u8>, &Path), ModelFileError> {
    let bytes = std::fs::read(path).map_err(|error| ModelFileError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    Ok((bytes, path.parent().unwrap_or(Path::new(""))))
}

fn read_beside(dir: &Path, uri: &str) -> Result<Vec<u8>, AnimError> {
    let mut name = Vec::with_capacity(uri.len());
    let b = uri.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                name.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                name.push(c);
                i += 1;
            }
        }
    }
    let name = String::from_utf8(name)
        .map_err(|_| AnimError::Invalid(format!("buffer URI `{uri}` is not UTF-8")))?;
    if name.contains("://") {
        return Err(AnimError::Unsupported(format!(
            "buffer URI `{uri}` is not a file beside the model"
        )));
    }
    let path = dir.join(&name);
    let cannot = |e: std::io::Error| {
        AnimError::Invalid(format!(
            "cannot read the buffer file `{}`: {e}",
            path.display()
        ))
    };
    let size = std::fs::metadata(&path).map_err(cannot)?.len();
    if size > MAX_BUFFER_BYTES {
        return Err(AnimError::Unsupported(format!(
            "the buffer file `{}` is {size} bytes, more than {MAX_BUFFER_BYTES}",
            path.display()
        )));
    }
    std::fs::read(&path).map_err(cannot)
}

fn outside(what: &str) -> AnimError {
    AnimError::Invalid(format!("{what}: its data lies outside the binary chunk"))
}

fn load_skeleton(
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
            skin.reader(buffer_data(buffers))
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

/// Appends every primitive of `mesh` to `out`. A primitive without `NORMAL` gets flat normals
/// (glTF 2.0: "When normals are not specified, client implementations MUST calculate flat
/// normals"): its triangles are unshared, each vertex taking its triangle's normal. Weights are
/// renormalised to sum to 1; with `JOINTS_1`/`WEIGHTS_1` the four largest of the eight
/// influences are kept. Morph targets are ignored (the base shape is drawn), with one log line.
/// The model's base colour texture once a primitive has chosen it: the glTF texture index and
/// the image.
#[derive(Default)]
struct TextureChoice {
    chosen: Option<(usize, BaseColorTexture)>,
}

/// What [`load_mesh`] reads besides the mesh and adds to besides the vertices.
struct MeshContext<'a, 'b> {
    parts: &'a mut Vec<MeshPart>,
    notes: &'a mut Vec<String>,
    texture: &'a mut TextureChoice,
    buffers: &'a [&'b [u8]],
    external: &'a dyn Fn(&str) -> Result<Vec<u8>, AnimError>,
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

fn load_mesh(
    out: &mut SkinnedMesh,
    ctx: &mut MeshContext<'_, '_>,
    mesh: &gltf::Mesh<'_>,
    joint_count: usize,
) -> Result<(), AnimError> {
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
        for set in 0..2 {
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
        if p.get(&Semantic::Joints(2)).is_some() || p.get(&Semantic::Weights(2)).is_some() {
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
        let positions: Vec<[f32; 3]> = r
            .read_positions()
            .ok_or_else(|| outside("POSITION"))?
            .collect();
        let normals: Option<Vec<[f32; 3]>> = match nrm {
            Some(_) => Some(r.read_normals().ok_or_else(|| outside("NORMAL"))?.collect()),
            None => None,
        };
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
            let mut j = [inf[0].0, inf[1].0, inf[2].0, inf[3].0];
            let mut w = [inf[0].1, inf[1].1, inf[2].1, inf[3].1];
            if j.iter().any(|&x| usize::from(x) >= joint_count) {
                // A joint index past the skin with zero weight: harmless, point it at joint 0.
                for (x, wx) in j.iter_mut().zip(&w) {
                    if usize::from(*x) >= joint_count && *wx == 0.0 {
                        *x = 0;
                    }
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
        });
    }
    Ok(())
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
