//! Characters as other exporters make them (issue "Characters from any exporter"): models built
//! here in code, each the way a kind of file differs from the hero: rigid parts (meshes without a
//! skin) parented to joints, a skinned mesh and rigid parts in one model, a model with no skin
//! whose animated node hierarchy is the skeleton, a model in centimetres, clips named as people
//! name them, no idle clip, and no character file at all.
use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};
use tessera::anim::Model;

use crate::common::{succeeds, tessera_command};

/// A glTF document under construction, with its one binary buffer.
pub struct Doc {
    pub json: Value,
    pub bin: Vec<u8>,
}

impl Doc {
    pub fn new() -> Doc {
        Doc {
            json: json!({
                "asset": { "version": "2.0" },
                "buffers": [{ "byteLength": 0 }],
                "bufferViews": [], "accessors": [], "nodes": [], "meshes": [],
                "animations": [], "scenes": [{ "nodes": [] }], "scene": 0,
            }),
            bin: Vec::new(),
        }
    }

    fn push(&mut self, key: &str, v: Value) -> usize {
        let a = self.json[key].as_array_mut().unwrap();
        a.push(v);
        a.len() - 1
    }

    /// An accessor of `floats` as elements of `kind` (`SCALAR`, `VEC3`, `VEC4`, `MAT4`), with
    /// its bounds.
    pub fn floats(&mut self, kind: &str, width: usize, floats: &[f32]) -> usize {
        let offset = self.bin.len();
        for f in floats {
            self.bin.extend(f.to_le_bytes());
        }
        let view = self.push(
            "bufferViews",
            json!({ "buffer": 0, "byteOffset": offset, "byteLength": 4 * floats.len() }),
        );
        let count = floats.len() / width;
        let mut min = vec![f32::MAX; width];
        let mut max = vec![f32::MIN; width];
        for e in floats.chunks(width) {
            for k in 0..width {
                min[k] = min[k].min(e[k]);
                max[k] = max[k].max(e[k]);
            }
        }
        self.push(
            "accessors",
            json!({ "bufferView": view, "componentType": 5126, "count": count, "type": kind,
                    "min": min, "max": max }),
        )
    }

    /// An accessor of unsigned bytes as `VEC4`s (joint indices).
    pub fn joints(&mut self, joints: &[[u8; 4]]) -> usize {
        let offset = self.bin.len();
        for j in joints {
            self.bin.extend(j);
        }
        let view = self.push(
            "bufferViews",
            json!({ "buffer": 0, "byteOffset": offset, "byteLength": 4 * joints.len() }),
        );
        self.push(
            "accessors",
            json!({ "bufferView": view, "componentType": 5121, "count": joints.len(),
                    "type": "VEC4" }),
        )
    }

    /// A mesh of one triangle list; with `joints`, skinned (each vertex bound to its joint).
    pub fn mesh(&mut self, positions: &[[f32; 3]], joints: Option<&[u8]>) -> usize {
        let flat: Vec<f32> = positions.iter().flatten().copied().collect();
        let pos = self.floats("VEC3", 3, &flat);
        let mut attributes = json!({ "POSITION": pos });
        if let Some(j) = joints {
            let js: Vec<[u8; 4]> = j.iter().map(|&j| [j, 0, 0, 0]).collect();
            let w: Vec<f32> = j.iter().flat_map(|_| [1.0, 0.0, 0.0, 0.0]).collect();
            attributes["JOINTS_0"] = json!(self.joints(&js));
            attributes["WEIGHTS_0"] = json!(self.floats("VEC4", 4, &w));
        }
        self.push(
            "meshes",
            json!({ "primitives": [{ "attributes": attributes }] }),
        )
    }

    /// A node; `parent` gets it as a child, else the scene does.
    pub fn node(&mut self, parent: Option<usize>, node: Value) -> usize {
        let i = self.push("nodes", node);
        match parent {
            Some(p) => {
                let n = &mut self.json["nodes"][p];
                if n.get("children").is_none() {
                    n["children"] = json!([]);
                }
                n["children"].as_array_mut().unwrap().push(json!(i));
            }
            None => self.json["scenes"][0]["nodes"]
                .as_array_mut()
                .unwrap()
                .push(json!(i)),
        }
        i
    }

    /// An animation called `name` turning `node` about +z from 0 to `degrees` over one second.
    pub fn turn(&mut self, name: &str, node: usize, degrees: f32) {
        let times = self.floats("SCALAR", 1, &[0.0, 1.0]);
        let q = Quat::from_rotation_z(degrees.to_radians());
        let values = self.floats("VEC4", 4, &[0.0, 0.0, 0.0, 1.0, q.x, q.y, q.z, q.w]);
        self.push(
            "animations",
            json!({ "name": name,
                    "samplers": [{ "input": times, "output": values }],
                    "channels": [{ "sampler": 0, "target": { "node": node, "path": "rotation" } }] }),
        );
    }

    /// The `.glb` bytes.
    pub fn glb(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"][0]["byteLength"] = json!(self.bin.len());
        let mut text = serde_json::to_vec(&json).unwrap();
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + text.len() + 8 + bin.len();
        let mut out = b"glTF".to_vec();
        out.extend(2u32.to_le_bytes());
        out.extend((total as u32).to_le_bytes());
        out.extend((text.len() as u32).to_le_bytes());
        out.extend(b"JSON");
        out.extend(text);
        out.extend((bin.len() as u32).to_le_bytes());
        out.extend(b"BIN\0");
        out.extend(bin);
        out
    }
}

const TRIANGLE: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.1, 0.0]];

/// Where the palette of `clip` at `t` (the rest pose without a clip) draws each vertex.
fn posed(m: &Model, clip: Option<&str>, t: f32) -> Vec<Vec3> {
    let mut pose = m.rest_pose();
    if let Some(c) = clip {
        m.clips[m.clip(c).unwrap()].sample_into(t, &mut pose);
    }
    let mut palette = vec![Mat4::ZERO; m.skeleton.len()];
    m.skeleton.palette(Mat4::IDENTITY, &pose, &mut palette);
    (0..m.mesh.positions.len())
        .map(|v| {
            let p = Vec3::from_array(m.mesh.positions[v]);
            (0..4)
                .map(|k| {
                    let (j, w) = (m.mesh.joints[v][k], m.mesh.weights[v][k]);
                    palette[usize::from(j)].transform_point3(p) * w
                })
                .sum()
        })
        .collect()
}

/// A two-joint arm (`root`, `arm` 1 m above it) with a skinned triangle on the root and a rigid
/// hand (no skin) 1 m along +x from the arm, itself turned 90° about +z; the clip
/// `Armature|Running` turns the arm 90° about +z.
fn robot(skinned: bool) -> Vec<u8> {
    let mut d = Doc::new();
    let root = d.node(None, json!({ "name": "root" }));
    let arm = d.node(
        Some(root),
        json!({ "name": "arm", "translation": [0.0, 1.0, 0.0] }),
    );
    let hand_mesh = d.mesh(&TRIANGLE, None);
    let q = Quat::from_rotation_z(90f32.to_radians());
    d.node(
        Some(arm),
        json!({ "name": "hand", "mesh": hand_mesh, "translation": [1.0, 0.0, 0.0],
                "rotation": [q.x, q.y, q.z, q.w] }),
    );
    if skinned {
        let body = d.mesh(&TRIANGLE, Some(&[0, 0, 0]));
        let ibm: Vec<f32> = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)),
        ]
        .iter()
        .flat_map(|m| m.to_cols_array())
        .collect();
        let ibm = d.floats("MAT4", 16, &ibm);
        d.json["skins"] = json!([{ "joints": [root, arm], "inverseBindMatrices": ibm }]);
        d.node(None, json!({ "name": "body", "mesh": body, "skin": 0 }));
    }
    d.turn("Armature|Running", arm, 90.0);
    d.glb()
}

fn near(a: Vec3, b: Vec3) -> bool {
    a.abs_diff_eq(b, 1e-5)
}

#[test]
fn a_rigid_part_follows_its_joint_with_its_own_node_transforms() {
    let m = Model::from_glb(&robot(true)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.parts.len(), 2, "{:?}", m.parts);
    // The hand's corners: at rest 1 m right of the arm, its own 90° turn applied...
    let rest = posed(&m, None, 0.0);
    let hand = &rest[..3];
    assert!(near(hand[0], Vec3::new(1.0, 1.0, 0.0)), "{hand:?}");
    assert!(near(hand[1], Vec3::new(1.0, 1.1, 0.0)), "{hand:?}");
    assert!(near(hand[2], Vec3::new(0.9, 1.0, 0.0)), "{hand:?}");
    // ...and with the arm turned 90°, straight above it; the skinned body stays put.
    let turned = posed(&m, Some("Armature|Running"), 1.0);
    let hand = &turned[..3];
    assert!(near(hand[0], Vec3::new(0.0, 2.0, 0.0)), "{hand:?}");
    assert!(near(hand[1], Vec3::new(-0.1, 2.0, 0.0)), "{hand:?}");
    assert!(near(turned[3], Vec3::ZERO) && near(turned[4], Vec3::new(0.1, 0.0, 0.0)));
}

#[test]
fn a_model_without_a_skin_plays_its_animated_node_hierarchy() {
    let m = Model::from_glb(&robot(false)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.skeleton.names, ["root", "arm", "hand"]);
    assert!(
        m.notes.iter().any(|n| n.contains("the file has no skin")),
        "{:?}",
        m.notes
    );
    let rest = posed(&m, None, 0.0);
    assert!(near(rest[0], Vec3::new(1.0, 1.0, 0.0)), "{rest:?}");
    let turned = posed(&m, Some("Armature|Running"), 1.0);
    assert!(near(turned[0], Vec3::new(0.0, 2.0, 0.0)), "{turned:?}");
    assert!(near(turned[1], Vec3::new(-0.1, 2.0, 0.0)), "{turned:?}");
    // Half way: the arm at 45°.
    let half = posed(&m, Some("Armature|Running"), 0.5);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    assert!(near(half[0], Vec3::new(s, 1.0 + s, 0.0)), "{half:?}");
}

#[test]
fn a_rigid_part_follows_its_joint_when_the_file_is_posed_away_from_the_bind_pose() {
    // The skin's inverse bind matrices say the arm was bound 2 m up; the file's nodes put it
    // 1 m up. The rigid hand is drawn where the nodes put it, relative to the arm.
    let mut doc = Doc::new();
    let root = doc.node(None, json!({ "name": "root" }));
    let arm = doc.node(
        Some(root),
        json!({ "name": "arm", "translation": [0.0, 1.0, 0.0] }),
    );
    let hand_mesh = doc.mesh(&TRIANGLE, None);
    doc.node(
        Some(arm),
        json!({ "name": "hand", "mesh": hand_mesh, "translation": [1.0, 0.0, 0.0] }),
    );
    let body = doc.mesh(&TRIANGLE, Some(&[0, 0, 0]));
    let ibm: Vec<f32> = [
        Mat4::IDENTITY,
        Mat4::from_translation(Vec3::new(0.0, -2.0, 0.0)),
    ]
    .iter()
    .flat_map(|m| m.to_cols_array())
    .collect();
    let ibm = doc.floats("MAT4", 16, &ibm);
    doc.json["skins"] = json!([{ "joints": [root, arm], "inverseBindMatrices": ibm }]);
    doc.node(None, json!({ "name": "body", "mesh": body, "skin": 0 }));
    doc.turn("idle", arm, 90.0);
    let m = Model::from_glb(&doc.glb()).unwrap_or_else(|e| panic!("{e}"));
    let rest = posed(&m, None, 0.0);
    assert!(near(rest[0], Vec3::new(1.0, 1.0, 0.0)), "{rest:?}");
    let turned = posed(&m, Some("idle"), 1.0);
    assert!(near(turned[0], Vec3::new(0.0, 2.0, 0.0)), "{turned:?}");
}

#[test]
fn a_clip_driving_no_joint_is_noted_and_holds_the_rest_pose() {
    let mut d = Doc::new();
    let root = d.node(None, json!({ "name": "root" }));
    let body = d.mesh(&TRIANGLE, Some(&[0, 0, 0]));
    d.json["skins"] = json!([{ "joints": [root] }]);
    d.node(None, json!({ "name": "body", "mesh": body, "skin": 0 }));
    let lamp = d.node(None, json!({ "name": "lamp" }));
    d.turn("Swing", lamp, 90.0);
    let m = Model::from_glb(&d.glb()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        m.notes
            .iter()
            .any(|n| n.contains("clip `Swing` drives no joint of the model")),
        "{:?}",
        m.notes
    );
}

/// A little figure (hips, head, two hands, a magenta box from the feet to the head) in
/// centimetres, 180 units tall, facing +z as glTF's front is (its left hand at +x); its one clip
/// `Armature|Walking_01`. With `armature_scale`, its joints hang under an `Armature` node scaled
/// by 0.01, as exporters write a model in centimetres, so it is drawn 1.8 m tall.
fn centimetre_figure(armature_scale: bool) -> Vec<u8> {
    centimetre_figure_doc(armature_scale).0.glb()
}

/// [`centimetre_figure`]'s document, and its joints' nodes (hips, head, hand.L, hand.R).
fn centimetre_figure_doc(armature_scale: bool) -> (Doc, Vec<usize>) {
    let mut d = Doc::new();
    let top = armature_scale.then(|| {
        d.node(
            None,
            json!({ "name": "Armature", "scale": [0.01, 0.01, 0.01] }),
        )
    });
    let world = [
        ("hips", None, Vec3::new(0.0, 90.0, 0.0)),
        ("head", Some(0), Vec3::new(0.0, 170.0, 0.0)),
        ("hand.L", Some(0), Vec3::new(40.0, 140.0, 0.0)),
        ("hand.R", Some(0), Vec3::new(-40.0, 140.0, 0.0)),
    ];
    let mut nodes: Vec<usize> = Vec::new();
    for (name, parent, at) in world {
        let (p, local) = match parent {
            Some(p) => (Some(nodes[p]), at - world[p].2),
            None => (top, at),
        };
        nodes.push(d.node(p, json!({ "name": name, "translation": local.to_array() })));
    }
    let ibm: Vec<f32> = world
        .iter()
        .flat_map(|(_, _, at)| Mat4::from_translation(-*at).to_cols_array())
        .collect();
    let ibm = d.floats("MAT4", 16, &ibm);
    d.json["skins"] = json!([{ "joints": nodes, "inverseBindMatrices": ibm }]);
    // A magenta box 40 × 180 × 20: its bottom on the hips, its top on the head.
    let (x, y, z) = (20.0, 180.0, 10.0);
    let corner = |k: usize| {
        [
            if k & 1 == 0 { -x } else { x },
            if k & 2 == 0 { 0.0 } else { y },
            if k & 4 == 0 { -z } else { z },
        ]
    };
    let faces = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    let corners: Vec<usize> = faces
        .iter()
        .flat_map(|f| [f[0], f[1], f[2], f[0], f[2], f[3]])
        .collect();
    let positions: Vec<[f32; 3]> = corners.iter().map(|&k| corner(k)).collect();
    let joints: Vec<u8> = corners.iter().map(|&k| u8::from(k & 2 != 0)).collect();
    let body = d.mesh(&positions, Some(&joints));
    d.json["materials"] =
        json!([{ "pbrMetallicRoughness": { "baseColorFactor": [1.0, 0.0, 1.0, 1.0] } }]);
    d.json["meshes"][body]["primitives"][0]["material"] = json!(0);
    d.node(top, json!({ "name": "body", "mesh": body, "skin": 0 }));
    d.turn("Armature|Walking_01", nodes[1], 10.0);
    (d, nodes)
}

/// A sword held up over the head (a rigid part under the right hand reaching 90 cm above the
/// head) leaves the fitted size alone: the model is fitted by its skinned body, still scaled by
/// 0.01 to stand 1.8 m tall, the sword drawn on top of that; a model of rigid parts only is
/// measured whole.
#[test]
fn a_rigid_part_held_over_the_head_does_not_change_the_fitted_size() {
    use tessera::anim::{load_character, measure};
    let dir = crate::common::scratch_dir("exporters-sword");
    let (mut d, nodes) = centimetre_figure_doc(false);
    let blade = d.mesh(
        &[[-2.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 120.0, 0.0]],
        None,
    );
    d.node(Some(nodes[3]), json!({ "name": "sword", "mesh": blade }));
    let path = dir.join("sword.glb");
    std::fs::write(&path, d.glb()).unwrap();
    let c = load_character(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.model.parts.iter().filter(|p| p.rigid).count(), 1);
    assert!((c.scale - 0.01).abs() < 1e-6, "scale {}", c.scale);
    let (lo, hi, skinned) = measure::body_bounds(&c.model).unwrap();
    assert!(skinned && (hi.y - lo.y - 1.8).abs() < 1e-4, "{lo} {hi}");
    // The whole model, sword included, reaches 2.6 m (the hand at 1.4 m, the blade 1.2 m).
    let (_, top) = measure::rest_bounds(&c.model).unwrap();
    assert!((top.y - 2.6).abs() < 1e-4, "{top}");
    let (_, why) = measure::fitted_scale(&c.model, measure::FIT_HEIGHT).unwrap();
    assert!(
        why.contains("its skinned body; rigid parts left out"),
        "{why}"
    );
    // The robot (a rigid hand, no skin) is measured by its parts.
    let m = Model::from_glb(&robot(false)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(measure::body_bounds(&m).map(|b| b.2), Some(false));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_model_with_no_file_is_fitted_turned_and_its_clips_found_by_synonym() {
    use tessera::anim::{load_character, HeroAnimator, HeroClip};
    let dir = crate::common::scratch_dir("exporters-no-file");
    for (name, armature_scale, scale) in [("cm.glb", false, 0.01), ("armature.glb", true, 1.0)] {
        let path = dir.join(name);
        std::fs::write(&path, centimetre_figure(armature_scale)).unwrap();
        let c = load_character(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!((c.scale - scale).abs() < 1e-6, "{name}: scale {}", c.scale);
        assert_eq!(c.turn, 90.0, "{name}");
        // Drawn 1.8 m tall, feet on the ground, facing +x: the left hand on the −z side.
        let drawn = tessera::anim::measure::rest_bounds(&c.model).unwrap();
        assert!(
            (drawn.1.y - drawn.0.y - 1.8).abs() < 1e-4,
            "{name}: {drawn:?}"
        );
        let sk = &c.model.skeleton;
        let at = sk.joint_positions(Mat4::IDENTITY, &sk.rest);
        let left = at[sk.joint("hand.L").unwrap()];
        assert!(
            left.abs_diff_eq(Vec3::new(0.0, 1.4, -0.4), 1e-4),
            "{name}: {left}"
        );
        let role = |r: HeroClip| &c.mapping[r as usize];
        assert_eq!(
            role(HeroClip::Walk).to_string(),
            "walk: `Armature|Walking_01` (synonym `walking`)"
        );
        assert_eq!(role(HeroClip::Idle).reason(), "bind pose");
        assert_eq!(role(HeroClip::Run).reason(), "fallback to walk");
        HeroAnimator::for_character(&c).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The file it inferred, read back, makes the same character.
        let ron = c.inferred_file(name);
        assert!(ron.contains("\"walk\": \"Armature|Walking_01\""), "{ron}");
        std::fs::write(dir.join("again.ron"), &ron).unwrap();
        let again = load_character(&dir.join("again.ron")).unwrap_or_else(|e| panic!("{ron}: {e}"));
        assert_eq!((again.scale, again.turn), (c.scale, c.turn), "{ron}");
        assert_eq!(again.model, c.model);
    }
    // `tessera model` prints that file.
    let stdout = succeeds(tessera_command().arg("model").arg(dir.join("cm.glb")));
    for line in [
        "character file (inferred;",
        "      scale: 0.01,",
        "      turn: 90.0,",
        "  idle: the bind pose (no idle-like clip)",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(line)),
            "no {line:?} in:\n{stdout}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The triangles of the box from `lo` to `hi`.
fn box_triangles(lo: [f32; 3], hi: [f32; 3]) -> Vec<[f32; 3]> {
    let corner = |k: usize| {
        [
            if k & 1 == 0 { lo[0] } else { hi[0] },
            if k & 2 == 0 { lo[1] } else { hi[1] },
            if k & 4 == 0 { lo[2] } else { hi[2] },
        ]
    };
    [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ]
    .iter()
    .flat_map(|f| [f[0], f[1], f[2], f[0], f[2], f[3]])
    .map(corner)
    .collect()
}

/// A jointed robot 30 cm tall made of magenta rigid boxes and no skin (hips carrying the torso,
/// a head and two legs under it, every part its own node), whose clip `Walking` swings its left
/// leg: its node hierarchy is its skeleton.
fn small_rigid_robot() -> Vec<u8> {
    let mut d = Doc::new();
    d.json["materials"] =
        json!([{ "pbrMetallicRoughness": { "baseColorFactor": [1.0, 0.0, 1.0, 1.0] } }]);
    let part = |d: &mut Doc, parent, name: &str, at: [f32; 3], lo, hi| {
        let m = d.mesh(&box_triangles(lo, hi), None);
        d.json["meshes"][m]["primitives"][0]["material"] = json!(0);
        d.node(
            parent,
            json!({ "name": name, "translation": at, "mesh": m }),
        )
    };
    let hips = part(
        &mut d,
        None,
        "hips",
        [0.0, 0.15, 0.0],
        [-0.05, 0.0, -0.03],
        [0.05, 0.12, 0.03],
    );
    part(
        &mut d,
        Some(hips),
        "head",
        [0.0, 0.12, 0.0],
        [-0.03, 0.0, -0.03],
        [0.03, 0.05, 0.03],
    );
    let leg = [-0.015, -0.15, -0.015];
    let left = part(
        &mut d,
        Some(hips),
        "leg.L",
        [0.0, 0.0, 0.02],
        leg,
        [0.015, 0.0, 0.015],
    );
    part(
        &mut d,
        Some(hips),
        "leg.R",
        [0.0, 0.0, -0.02],
        leg,
        [0.015, 0.0, 0.015],
    );
    d.turn("Walking", left, 30.0);
    d.glb()
}

/// `tessera model --sheet` frames the character in every cell: the shipped hero, a 1.8 m figure
/// in centimetres and the same at a sixth of the size (which the sheet drew as a speck when its
/// camera was fixed for the hero), and a 30 cm jointed robot of rigid parts each fill at least
/// half of every cell's height under the label; in the death row, where the hero ends lying
/// down, its length does.
#[test]
fn the_contact_sheet_frames_the_character_in_every_cell() {
    use tessera::render::{Image, SHEET_CELL, SHEET_LABEL, SHEET_PHASES};
    let _display = crate::common::display_lock();
    let dir = crate::common::scratch_dir("exporters-sheet");
    std::fs::write(dir.join("fig.glb"), centimetre_figure(false)).unwrap();
    std::fs::write(dir.join("robot.glb"), small_rigid_robot()).unwrap();
    std::fs::write(dir.join("small.ron"), "(model: \"fig.glb\", scale: 0.0017)").unwrap();
    // The test models are magenta; the hero is told from the sky, hills, ground and its shadow
    // (all cool greys and blues) by its warm hair, skin, trousers and shoes.
    let magenta = |[r, g, b]: [u32; 3]| r > 60 && b > 60 && r > 2 * g && b > 2 * g;
    let warm = |[r, _, b]: [u32; 3]| r > b + 5;
    let hero = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/hero.glb"));
    type IsCharacter<'a> = &'a dyn Fn([u32; 3]) -> bool;
    let cases: [(std::path::PathBuf, Option<&str>, IsCharacter); 4] = [
        (hero, None, &warm),
        (dir.join("fig.glb"), None, &magenta),
        (dir.join("fig.glb"), Some("small.ron"), &magenta),
        (dir.join("robot.glb"), None, &magenta),
    ];
    let death = tessera::anim::HeroClip::ALL
        .iter()
        .position(|&c| c == tessera::anim::HeroClip::Death)
        .unwrap();
    for (model, character, is_character) in cases {
        let out = dir.join("sheet.png");
        let mut args = vec![
            std::ffi::OsString::from("model"),
            model.clone().into(),
            "--sheet".into(),
            out.clone().into(),
        ];
        if let Some(c) = character {
            args.extend(["--character".into(), dir.join(c).into()]);
        }
        succeeds(tessera_command().args(&args));
        let sheet = Image::load_png(&out).unwrap();
        let (cw, ch) = (SHEET_CELL.0 as usize, SHEET_CELL.1 as usize);
        let rows = sheet.height as usize / ch;
        assert_eq!(rows, tessera::anim::HeroClip::COUNT);
        for row in 0..rows {
            for col in 0..SHEET_PHASES.len() {
                // The character's pixels in the cell, under the label.
                let pixels: Vec<(usize, usize)> = (SHEET_LABEL as usize..ch)
                    .flat_map(|y| (0..cw).map(move |x| (x, y)))
                    .filter(|&(x, y)| {
                        let at = ((row * ch + y) * sheet.width as usize + col * cw + x) * 4;
                        is_character([0, 1, 2].map(|k| u32::from(sheet.rgba[at + k])))
                    })
                    .collect();
                let span = |of: fn(&(usize, usize)) -> usize| {
                    let lo = pixels.iter().map(of).min().unwrap_or(0);
                    pixels.iter().map(of).max().map_or(0, |hi| hi - lo + 1)
                };
                let (wide, tall) = (span(|p| p.0), span(|p| p.1));
                let extent = if row == death { wide.max(tall) } else { tall };
                assert!(
                    extent >= ch / 2,
                    "{model:?} {character:?}: cell ({row}, {col}): the character spans \
                     {wide} x {tall} of {cw} x {ch} pixels"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Exporters write a skin per skinned mesh of one armature (the same joints, the same inverse
/// bind matrices): every such mesh is drawn with the model's skin; one whose skin has other
/// bind matrices is left out with a note.
#[test]
fn meshes_of_other_skins_on_the_same_joints_are_drawn() {
    let glb = robot(true);
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rebuilt = |doc: &Value| {
        let mut text = serde_json::to_vec(doc).unwrap();
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let bin = &glb[20 + json_len..];
        let mut out = b"glTF".to_vec();
        out.extend(2u32.to_le_bytes());
        out.extend(((12 + 8 + text.len() + bin.len()) as u32).to_le_bytes());
        out.extend((text.len() as u32).to_le_bytes());
        out.extend(b"JSON");
        out.extend(text);
        out.extend(bin);
        out
    };
    // A second skin like the first, and a second body bound to it (joint 1 of its skin: `arm`).
    let skin = doc["skins"][0].clone();
    doc["skins"].as_array_mut().unwrap().push(skin);
    let body = doc["nodes"].as_array().unwrap().len() - 1;
    let mut second = doc["nodes"][body].clone();
    second["skin"] = json!(1);
    second["name"] = json!("second");
    doc["nodes"].as_array_mut().unwrap().push(second);
    let n = doc["nodes"].as_array().unwrap().len() - 1;
    doc["scenes"][0]["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!(n));
    let m = Model::from_glb(&rebuilt(&doc)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.parts.len(), 3, "{:?}", m.notes);
    assert_eq!(posed(&m, None, 0.0)[6..], posed(&m, None, 0.0)[3..6]);
    // The same skin without its bind matrices (identity: other than the first's): left out,
    // noted.
    doc["skins"][1]
        .as_object_mut()
        .unwrap()
        .remove("inverseBindMatrices");
    let m = Model::from_glb(&rebuilt(&doc)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.parts.len(), 2);
    assert!(
        m.notes
            .iter()
            .any(|n| n.contains("1 mesh node(s) bound to another skin") && n.contains("`second`")),
        "{:?}",
        m.notes
    );
}

/// A level's agent drawn with a model file named directly (no character file) is fitted to its
/// own collider: a small agent's figure 0.5 m tall, a medium one's 1.2 m, from the same file.
#[test]
fn an_agent_drawn_with_a_model_file_is_fitted_to_its_collider() {
    let dir = crate::common::scratch_dir("exporters-agents");
    std::fs::write(dir.join("fig.glb"), centimetre_figure(false)).unwrap();
    let text = "(name: \"figures\", spawn: (0.0, 0.0), \
                polygons: [(points: [(-20.0, -1.0), (20.0, -1.0), (20.0, 0.0), (-20.0, 0.0)])], \
                agents: [(kind: patrol, size: small, spawn: (3.0, 0.0), character: \"fig.glb\"), \
                         (kind: patrol, size: medium, spawn: (6.0, 0.0), character: \"fig.glb\"), \
                         (kind: patrol, size: small, spawn: (9.0, 0.0), character: \"fig.glb\")])";
    let path = dir.join("figures.ron");
    std::fs::write(&path, text).unwrap();
    let level = tessera::level::parse_level(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let world = tessera::sim::World::new(&level, &tessera::movement::Tuning::default()).unwrap();
    let data = tessera::level::DataDir::at(env!("CARGO_MANIFEST_DIR"));
    let cast = tessera::view::Cast::load(&world, &path, &data).unwrap_or_else(|e| panic!("{e}"));
    let heights: Vec<f32> = cast
        .models()
        .map(|m| {
            let (lo, hi) = tessera::anim::measure::rest_bounds(m).unwrap();
            hi.y - lo.y
        })
        .collect();
    assert_eq!(heights.len(), 2, "one model per file and size: {heights:?}");
    assert!((heights[0] - 0.5).abs() < 1e-4, "{heights:?}");
    assert!((heights[1] - 1.2).abs() < 1e-4, "{heights:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
