//! Writing a binary glTF: the buffer views and accessors of the binary chunk, and the document
//! (skeleton, skin, mesh, material, animations) around them. JSON objects are `serde_json`'s
//! sorted maps and numbers are printed by `serde_json`, so every platform writes the same bytes.
//!
//! Depends on `serde_json` alone, nothing else outside this crate.
use serde_json::{json, Value};

use super::body::{f32x3, round6, Mesh};
use super::motion::{quat_z, Clip, Interp};
use super::skeleton::{HIPS, JOINT_COUNT, JOINT_NAMES, PARENTS, REST};

/// Accumulates the binary chunk, buffer views and accessors.
#[derive(Default)]
pub(crate) struct Bin {
    data: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

pub(crate) const FLOAT: u32 = 5126;
pub(crate) const UNSIGNED_BYTE: u32 = 5121;
pub(crate) const UNSIGNED_SHORT: u32 = 5123;
pub(crate) const ARRAY_BUFFER: u32 = 34962;
pub(crate) const ELEMENT_ARRAY_BUFFER: u32 = 34963;

impl Bin {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let mut v = json!({
            "buffer": 0,
            "byteOffset": self.data.len(),
            "byteLength": bytes.len(),
        });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.data.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    /// A float accessor of `N` components per element, with min and max when `bounds`.
    fn floats<const N: usize>(
        &mut self,
        items: &[[f32; N]],
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let bytes: Vec<u8> = items
            .iter()
            .flatten()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let view = self.view(&bytes, target);
        let ty = match N {
            1 => "SCALAR",
            3 => "VEC3",
            4 => "VEC4",
            _ => "MAT4",
        };
        let mut a = json!({
            "bufferView": view,
            "componentType": FLOAT,
            "count": items.len(),
            "type": ty,
        });
        if bounds {
            let mut lo = [f32::INFINITY; N];
            let mut hi = [f32::NEG_INFINITY; N];
            for item in items {
                for k in 0..N {
                    lo[k] = lo[k].min(item[k]);
                    hi[k] = hi[k].max(item[k]);
                }
            }
            a["min"] = json!(lo.iter().map(|&x| f64::from(x)).collect::<Vec<_>>());
            a["max"] = json!(hi.iter().map(|&x| f64::from(x)).collect::<Vec<_>>());
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn push_accessor(&mut self, a: Value) -> usize {
        self.accessors.push(a);
        self.accessors.len() - 1
    }
}

/// Cubic-spline output: zero in- and out-tangents around each value (eases in and out).
pub(crate) fn with_tangents<const N: usize>(values: &[[f32; N]]) -> Vec<[f32; N]> {
    values
        .iter()
        .flat_map(|v| [[0.0; N], *v, [0.0; N]])
        .collect()
}

/// A skinned mesh with the hero's skeleton and clips, as the bytes of a binary glTF file.
pub(crate) fn glb_of(mesh: Mesh, clips: &[Clip]) -> Vec<u8> {
    let mut bin = Bin::default();

    let position = bin.floats(&mesh.positions, Some(ARRAY_BUFFER), true);
    let normal = bin.floats(&mesh.normals, Some(ARRAY_BUFFER), false);
    let colour = bin.floats(&mesh.colours, Some(ARRAY_BUFFER), false);
    let joint_bytes: Vec<u8> = mesh.joints.iter().flatten().copied().collect();
    let joints_view = bin.view(&joint_bytes, Some(ARRAY_BUFFER));
    let joints = bin.push_accessor(json!({
        "bufferView": joints_view,
        "componentType": UNSIGNED_BYTE,
        "count": mesh.joints.len(),
        "type": "VEC4",
    }));
    let weights = bin.floats(&mesh.weights, Some(ARRAY_BUFFER), false);
    let index_bytes: Vec<u8> = mesh.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let index_view = bin.view(&index_bytes, Some(ELEMENT_ARRAY_BUFFER));
    let indices = bin.push_accessor(json!({
        "bufferView": index_view,
        "componentType": UNSIGNED_SHORT,
        "count": mesh.indices.len(),
        "type": "SCALAR",
    }));

    let ibms: Vec<[f32; 16]> = REST
        .iter()
        .map(|p| {
            let mut m = [0.0f32; 16];
            m[0] = 1.0;
            m[5] = 1.0;
            m[10] = 1.0;
            m[15] = 1.0;
            m[12] = round6(-p[0]) as f32;
            m[13] = round6(-p[1]) as f32;
            m[14] = round6(-p[2]) as f32;
            m
        })
        .collect();
    let ibm = bin.floats(&ibms, None, false);

    let mut nodes: Vec<Value> = (0..JOINT_COUNT)
        .map(|j| {
            let parent = PARENTS[j].map_or([0.0; 3], |p| REST[p]);
            let t: Vec<f64> = (0..3).map(|k| round6(REST[j][k] - parent[k])).collect();
            let children: Vec<usize> = (0..JOINT_COUNT)
                .filter(|&c| PARENTS[c] == Some(j))
                .collect();
            let mut n = json!({ "name": JOINT_NAMES[j], "translation": t });
            if !children.is_empty() {
                n["children"] = json!(children);
            }
            n
        })
        .collect();
    nodes.push(json!({ "name": "hero", "mesh": 0, "skin": 0 }));

    let mut animations = Vec::new();
    for c in clips {
        let times: Vec<[f32; 1]> = c.keys.iter().map(|(t, _)| [*t as f32]).collect();
        let input = bin.floats(&times, None, true);
        let interpolation = c.interp.name();
        let cubic = c.interp == Interp::CubicSpline;
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        // Hips translation first, then one rotation channel per joint that moves.
        let translations: Vec<[f32; 3]> = c
            .keys
            .iter()
            .map(|(_, p)| f32x3([round6(p.root[0]), round6(p.root[1]), 0.0]))
            .collect();
        let output = if cubic {
            bin.floats(&with_tangents(&translations), None, false)
        } else {
            bin.floats(&translations, None, false)
        };
        samplers.push(json!({ "input": input, "output": output, "interpolation": interpolation }));
        channels.push(json!({ "sampler": 0, "target": { "node": HIPS, "path": "translation" } }));
        for j in 0..JOINT_COUNT {
            if c.keys.iter().all(|(_, p)| p.angles[j] == 0.0) {
                continue;
            }
            let rotations: Vec<[f32; 4]> =
                c.keys.iter().map(|(_, p)| quat_z(p.angles[j])).collect();
            let output = if cubic {
                bin.floats(&with_tangents(&rotations), None, false)
            } else {
                bin.floats(&rotations, None, false)
            };
            channels.push(json!({
                "sampler": samplers.len(),
                "target": { "node": j, "path": "rotation" },
            }));
            samplers
                .push(json!({ "input": input, "output": output, "interpolation": interpolation }));
        }
        animations.push(json!({ "name": c.name, "samplers": samplers, "channels": channels }));
    }

    while !bin.data.len().is_multiple_of(4) {
        bin.data.push(0);
    }
    let material = json!({
        "name": "hero",
        "pbrMetallicRoughness": {
            "baseColorFactor": [1.0, 1.0, 1.0, 1.0],
            "metallicFactor": 0.0,
            "roughnessFactor": 0.8,
        },
    });
    let primitive = json!({
        "attributes": {
            "POSITION": position,
            "NORMAL": normal,
            "COLOR_0": colour,
            "JOINTS_0": joints,
            "WEIGHTS_0": weights,
        },
        "indices": indices,
        "material": 0,
    });
    let skin = json!({
        "name": "hero",
        "inverseBindMatrices": ibm,
        "skeleton": HIPS,
        "joints": (0..JOINT_COUNT).collect::<Vec<_>>(),
    });
    let doc = json!({
        "asset": { "version": "2.0", "generator": "tessera anim::hero_model" },
        "scene": 0,
        "scenes": [{ "name": "hero", "nodes": [HIPS, JOINT_COUNT] }],
        "nodes": nodes,
        "meshes": [{ "name": "hero", "primitives": [primitive] }],
        "materials": [material],
        "skins": [skin],
        "animations": animations,
        "accessors": bin.accessors,
        "bufferViews": bin.views,
        "buffers": [{ "byteLength": bin.data.len() }],
    });

    let mut text = serde_json::to_vec(&doc).expect("the glTF JSON serialises");
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.data.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.data.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin.data);
    out
}
