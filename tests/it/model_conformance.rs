//! The model loader reads what exporters write (issue "Characters from files", loader
//! conformance): each test edits the committed hero model the way an exporter or another rig
//! would differ (no normals, several skinned nodes, eight influences, unnormalised weights, morph
//! targets, a required extension, a missing attribute, more joints than the palette) and checks
//! what `anim::Model::from_glb` makes of it against the unedited model.
use std::ffi::OsStr;

use glam::Vec3;
use serde_json::{json, Value};
use tessera::anim::{Model, SkinnedMesh, MAX_JOINTS};

use crate::common::tessera;

fn hero() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/hero.glb")).unwrap()
}

/// The JSON document and the binary chunk of a `.glb`.
fn split(glb: &[u8]) -> (Value, Vec<u8>) {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    (doc, glb[20 + len..].to_vec())
}

/// A `.glb` from a JSON document and a binary chunk (with its own chunk header, as `split`
/// returns it).
fn pack(doc: &Value, bin_chunk: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(doc).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + bin_chunk.len();
    let mut out = b"glTF".to_vec();
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((text.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(text);
    out.extend(bin_chunk);
    out
}

fn edited(f: impl FnOnce(&mut Value)) -> Vec<u8> {
    let (mut doc, bin) = split(&hero());
    f(&mut doc);
    pack(&doc, &bin)
}

fn load(glb: &[u8]) -> Model {
    Model::from_glb(glb).unwrap_or_else(|e| panic!("{e}"))
}

fn error(glb: &[u8]) -> String {
    match Model::from_glb(glb) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

fn attributes(doc: &mut Value) -> &mut serde_json::Map<String, Value> {
    doc["meshes"][0]["primitives"][0]["attributes"]
        .as_object_mut()
        .unwrap()
}

/// Each vertex's weight per joint (joints listed twice add up).
fn per_joint(mesh: &SkinnedMesh, v: usize) -> Vec<(u16, f32)> {
    let mut out: Vec<(u16, f32)> = Vec::new();
    for k in 0..4 {
        let (j, w) = (mesh.joints[v][k], mesh.weights[v][k]);
        if w == 0.0 {
            continue;
        }
        match out.iter_mut().find(|(o, _)| *o == j) {
            Some(e) => e.1 += w,
            None => out.push((j, w)),
        }
    }
    out.sort_by_key(|e| e.0);
    out
}

#[test]
fn a_model_without_normals_gets_flat_normals() {
    let original = load(&hero());
    let flat = load(&edited(|d| {
        attributes(d).remove("NORMAL");
    }));
    let m = &original.mesh;
    let f = &flat.mesh;
    assert_eq!(f.indices.len(), m.indices.len());
    assert_eq!(f.positions.len(), m.indices.len(), "one vertex per corner");
    for (t, tri) in m.indices.chunks_exact(3).enumerate() {
        let corners: Vec<Vec3> = tri
            .iter()
            .map(|&i| Vec3::from_array(m.positions[i as usize]))
            .collect();
        let want = (corners[1] - corners[0])
            .cross(corners[2] - corners[0])
            .normalize();
        for (k, &i) in tri.iter().enumerate() {
            let v = f.indices[3 * t + k] as usize;
            assert_eq!(f.positions[v], m.positions[i as usize]);
            assert_eq!(f.joints[v], m.joints[i as usize]);
            assert_eq!(f.weights[v], m.weights[i as usize]);
            let n = Vec3::from_array(f.normals[v]);
            assert!(n.distance(want) < 1e-6, "triangle {t}: {n} against {want}");
            // The hero's boxes have flat normals already: the file's agree.
            assert!(n.distance(Vec3::from_array(m.normals[i as usize])) < 1e-5);
        }
    }
}

#[test]
fn every_node_bound_to_the_skin_is_loaded() {
    let original = load(&hero());
    let two = load(&edited(|d| {
        let copy = d["meshes"][0].clone();
        d["meshes"].as_array_mut().unwrap().push(copy);
        let nodes = d["nodes"].as_array_mut().unwrap();
        nodes.push(
            json!({ "name": "second part", "mesh": 1, "skin": 0, "translation": [5.0, 0.0, 0.0] }),
        );
        let n = nodes.len() - 1;
        d["scenes"][0]["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!(n));
    }));
    let (m, t) = (&original.mesh, &two.mesh);
    assert_eq!(t.positions.len(), 2 * m.positions.len());
    assert_eq!(t.indices.len(), 2 * m.indices.len());
    let n = m.positions.len() as u32;
    // The second part's vertices follow the first's, unmoved: a skinned node's transform is
    // ignored (the joints place it).
    assert_eq!(&t.positions[m.positions.len()..], &m.positions[..]);
    let second: Vec<u32> = t.indices[m.indices.len()..].iter().map(|i| i - n).collect();
    assert_eq!(second, m.indices);
}

#[test]
fn eight_influences_keep_the_four_largest_and_the_same_blend() {
    let original = load(&hero());
    let eight = load(&edited(|d| {
        let a = attributes(d);
        let (j, w) = (a["JOINTS_0"].clone(), a["WEIGHTS_0"].clone());
        a.insert("JOINTS_1".into(), j);
        a.insert("WEIGHTS_1".into(), w);
    }));
    for v in 0..original.mesh.positions.len() {
        let (a, b) = (per_joint(&original.mesh, v), per_joint(&eight.mesh, v));
        assert_eq!(a.len(), b.len(), "vertex {v}: {a:?} {b:?}");
        for ((ja, wa), (jb, wb)) in a.iter().zip(&b) {
            assert_eq!(ja, jb);
            assert!((wa - wb).abs() < 1e-6, "vertex {v}: {a:?} {b:?}");
        }
    }
}

#[test]
fn weights_that_do_not_sum_to_one_are_renormalised() {
    let original = load(&hero());
    let (doc, mut bin) = split(&hero());
    // Double every weight in the binary chunk (after its 8-byte header).
    let acc = &doc["accessors"][doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"]
        .as_u64()
        .unwrap() as usize];
    let view = &doc["bufferViews"][acc["bufferView"].as_u64().unwrap() as usize];
    let start = 8
        + view["byteOffset"].as_u64().unwrap_or(0) as usize
        + acc["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = acc["count"].as_u64().unwrap() as usize;
    for k in 0..4 * count {
        let at = start + 4 * k;
        let w = f32::from_le_bytes(bin[at..at + 4].try_into().unwrap());
        bin[at..at + 4].copy_from_slice(&(2.0 * w).to_le_bytes());
    }
    let doubled = load(&pack(&doc, &bin));
    for (a, b) in original.mesh.weights.iter().zip(&doubled.mesh.weights) {
        for k in 0..4 {
            assert!((a[k] - b[k]).abs() < 1e-6, "{a:?} {b:?}");
        }
    }
}

#[test]
fn morph_targets_are_ignored_and_the_base_shape_drawn() {
    let original = load(&hero());
    let morphed = load(&edited(|d| {
        let pos = attributes(d)["POSITION"].clone();
        d["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": pos }]);
        d["meshes"][0]["weights"] = json!([0.5]);
    }));
    assert_eq!(morphed.mesh, original.mesh);
}

#[test]
fn a_required_extension_is_refused_by_name() {
    let e = error(&edited(|d| {
        d["extensionsUsed"] = json!(["KHR_draco_mesh_compression", "EXT_meshopt_compression"]);
        d["extensionsRequired"] = json!(["KHR_draco_mesh_compression", "EXT_meshopt_compression"]);
    }));
    assert_eq!(
        e,
        "unsupported: the file requires the extensions `KHR_draco_mesh_compression`, \
         `EXT_meshopt_compression` (re-export without them)"
    );
    // Only used, not required: loads.
    load(&edited(|d| {
        d["extensionsUsed"] = json!(["KHR_materials_emissive_strength"]);
    }));
}

#[test]
fn a_missing_skinning_attribute_is_named() {
    for what in ["JOINTS_0", "WEIGHTS_0"] {
        let e = error(&edited(|d| {
            d["meshes"][0]["name"] = json!("body");
            attributes(d).remove(what);
        }));
        assert!(
            e.starts_with(&format!(
                "missing attribute: mesh `body` primitive 0 has no {what}"
            )),
            "{e}"
        );
    }
    // A primitive without POSITION breaks glTF itself: the `gltf` crate's validation names it.
    let e = error(&edited(|d| {
        attributes(d).remove("POSITION");
    }));
    assert!(
        e.starts_with("invalid glTF: ") && e.contains("POSITION"),
        "{e}"
    );
}

/// The hero with `n` more joints (childless nodes under its first, named `extra K`) and no
/// inverse bind matrices.
fn hero_with_extra_joints(n: usize) -> Vec<u8> {
    edited(|d| {
        let nodes = d["nodes"].as_array_mut().unwrap();
        let first = nodes.len();
        nodes.extend((0..n).map(|k| json!({ "name": format!("extra {k}") })));
        let extra: Vec<Value> = (first..first + n).map(|i| json!(i)).collect();
        nodes[0]["children"]
            .as_array_mut()
            .unwrap()
            .extend(extra.iter().cloned());
        let skin = &mut d["skins"][0];
        skin["joints"].as_array_mut().unwrap().extend(extra);
        skin.as_object_mut().unwrap().remove("inverseBindMatrices");
    })
}

#[test]
fn more_joints_than_the_palette_holds_are_refused_with_both_numbers() {
    let e = error(&hero_with_extra_joints(MAX_JOINTS + 1));
    let n = 21 + MAX_JOINTS + 1;
    assert_eq!(
        e,
        format!(
            "unsupported: the skin has {n} joints, more than the {MAX_JOINTS} the renderer's \
             joint palette holds"
        )
    );
}

/// Auto-riggers' humanoids with hands have more joints than the built-in hero: Mixamo's skeleton
/// with fingers 65, with eyes 67. Such a skin loads whole.
#[test]
fn a_skin_of_sixty_seven_joints_loads() {
    let m = load(&hero_with_extra_joints(46));
    assert_eq!(m.skeleton.len(), 67);
}

/// `tessera model` on a model as another rig names it (clips `Idle`, `Running`, `Walk`, `fall`
/// only, no normals, two skinned parts) with a character file mapping one role: every role's clip
/// or fallback, and what the loader did, in the report.
#[test]
fn tessera_model_reports_parts_clips_roles_and_notes() {
    let dir = crate::common::scratch_dir("model-report");
    let glb = edited(|d| {
        attributes(d).remove("NORMAL");
        let copy = d["meshes"][0].clone();
        d["meshes"].as_array_mut().unwrap().push(copy);
        d["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "mesh": 1, "skin": 0 }));
        let keep = [
            ("idle", "Idle"),
            ("run", "Running"),
            ("walk", "Walk"),
            ("fall", "fall"),
        ];
        let anims = d["animations"].as_array_mut().unwrap();
        anims.retain(|a| keep.iter().any(|(k, _)| a["name"] == *k));
        for a in anims {
            let to = keep.iter().find(|(k, _)| a["name"] == *k).unwrap().1;
            a["name"] = json!(to);
        }
    });
    std::fs::write(dir.join("rig.glb"), glb).unwrap();
    std::fs::write(
        dir.join("rig.ron"),
        "(model: \"rig.glb\", clips: { \"run\": \"Running\" })",
    )
    .unwrap();
    let out = tessera(&[
        OsStr::new("model"),
        dir.join("rig.glb").as_os_str(),
        OsStr::new("--character"),
        dir.join("rig.ron").as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "mesh: 2 parts, 1656 vertices, 552 triangles",
        "  mesh `hero` primitive 0: 828 vertices, 276 triangles",
        "levels of detail: none (under 1000 triangles)",
        "skeleton: 21 joints (root: hips)",
        "clips: 4",
        "  `Running`: 0.66 s, 14 channels",
        "  mesh `hero` primitive 0 has no NORMAL: flat normals computed",
        "  idle: `Idle`",
        "  run: `Running` (character file)",
        "  walk: `Walk`",
        "  crouch_walk: `Walk` (no clip of its own: falls back to walk)",
        "  jump_takeoff: `fall` (no clip of its own: falls back to fall)",
        "  climb: `Idle` (no clip of its own: falls back to idle)",
    ] {
        assert!(
            stdout.lines().any(|l| l == line),
            "no line {line:?} in:\n{stdout}"
        );
    }
    // Without an idle-like clip, the bind pose stands in, with a note.
    std::fs::write(
        dir.join("no_idle.glb"),
        edited(|d| {
            d["animations"]
                .as_array_mut()
                .unwrap()
                .retain(|a| a["name"] != "idle");
        }),
    )
    .unwrap();
    let out = tessera(&[OsStr::new("model"), dir.join("no_idle.glb").as_os_str()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("clips: 16"), "{stdout}");
    assert!(
        stdout.contains("  idle: the bind pose (no idle-like clip)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the bind pose stands in for idle"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tessera render --character` (the same path as `tessera play --character`): a character whose
/// model is the hero with its clips and leg joints named as another rig names them, mapped back
/// by its character file, draws exactly the built-in hero, running mid-tour; the same character
/// at half scale draws a different, smaller hero.
#[test]
fn a_character_file_draws_the_hero_it_renames_exactly() {
    use tessera::level::DataDir;
    use tessera::sim::WorldFiles;
    let dir = crate::common::scratch_dir("character-render");
    let legs = [
        ("thigh.L", "UpperLeg_L"),
        ("shin.L", "LowerLeg_L"),
        ("foot.L", "Foot_L"),
        ("thigh.R", "UpperLeg_R"),
        ("shin.R", "LowerLeg_R"),
        ("foot.R", "Foot_R"),
    ];
    let glb = edited(|d| {
        for n in d["nodes"].as_array_mut().unwrap() {
            if let Some((_, to)) = legs.iter().find(|(from, _)| n["name"] == *from) {
                n["name"] = json!(to);
            }
        }
        for a in d["animations"].as_array_mut().unwrap() {
            if a["name"] == "idle" {
                a["name"] = json!("IDLE");
            } else if a["name"] == "run" {
                a["name"] = json!("Running");
            }
        }
    });
    std::fs::write(dir.join("rig.glb"), glb).unwrap();
    let joints: Vec<String> = legs
        .iter()
        .map(|(from, to)| format!("\"{from}\": \"{to}\""))
        .collect();
    let character = |scale: f64| {
        format!(
            "(model: \"rig.glb\", scale: {scale:?}, clips: {{ \"run\": \"Running\" }}, joints: {{ {} }})",
            joints.join(", ")
        )
    };
    std::fs::write(dir.join("rig.ron"), character(1.0)).unwrap();
    std::fs::write(dir.join("small.ron"), character(0.5)).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = WorldFiles::new(DataDir::at(root));
    files.replay = Some(format!("{root}/levels/replays/default_tour.ron").into());
    let shoot = |c: Option<&str>| {
        let c = c.map(|f| tessera::anim::load_character(&dir.join(f)).unwrap());
        let out = dir.join("shot.png");
        tessera::render::render_level_to_png(&files, Some(240), (320, 180), &out, c.as_ref())
            .unwrap_or_else(|e| panic!("{e:#}"));
        tessera::render::Image::load_png(&out).unwrap()
    };
    let hero = shoot(None);
    let rig = shoot(Some("rig.ron"));
    assert!(
        hero.rgba == rig.rgba,
        "the renamed hero draws like the hero"
    );
    let small = shoot(Some("small.ron"));
    let differing = hero
        .rgba
        .chunks(4)
        .zip(small.rgba.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differing > 100,
        "half scale changes the hero: {differing} pixels"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `.gltf` file with its buffer in a file beside it (Blender's "glTF Separate"; the URI's
/// `%20` is a space) loads like the `.glb`; a missing buffer file and a base64 buffer are named.
#[test]
fn a_gltf_file_with_its_buffer_beside_it_loads_like_the_glb() {
    let dir = crate::common::scratch_dir("gltf-separate");
    let (mut doc, bin) = split(&hero());
    let len = u32::from_le_bytes(bin[0..4].try_into().unwrap()) as usize;
    std::fs::write(dir.join("hero data.bin"), &bin[8..8 + len]).unwrap();
    doc["buffers"][0]["uri"] = json!("hero%20data.bin");
    std::fs::write(
        dir.join("hero.gltf"),
        serde_json::to_vec_pretty(&doc).unwrap(),
    )
    .unwrap();
    let separate = Model::load(&dir.join("hero.gltf")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(separate, load(&hero()));
    std::fs::remove_file(dir.join("hero data.bin")).unwrap();
    let e = Model::load(&dir.join("hero.gltf")).unwrap_err().to_string();
    assert!(
        e.contains("cannot read the buffer file") && e.contains("hero data.bin"),
        "{e}"
    );
    doc["buffers"][0]["uri"] = json!("data:application/octet-stream;base64,AAAA");
    std::fs::write(dir.join("hero.gltf"), serde_json::to_vec(&doc).unwrap()).unwrap();
    let e = Model::load(&dir.join("hero.gltf")).unwrap_err().to_string();
    assert!(
        e.contains("unsupported: buffer 0 is embedded as a base64 data URI"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Appends `data` (padded to 4 bytes) to a binary chunk (with its header, as `split` returns it)
/// and to buffer 0; returns the new buffer view's index.
fn append_view(doc: &mut Value, bin: &mut Vec<u8>, data: &[u8]) -> usize {
    let len = u32::from_le_bytes(bin[0..4].try_into().unwrap()) as usize;
    bin.truncate(8 + len);
    let offset = len;
    bin.extend_from_slice(data);
    while !(bin.len() - 8).is_multiple_of(4) {
        bin.push(0);
    }
    let new_len = (bin.len() - 8) as u32;
    bin[0..4].copy_from_slice(&new_len.to_le_bytes());
    doc["buffers"][0]["byteLength"] = json!(new_len);
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": data.len() }));
    views.len() - 1
}

/// A sparse accessor (glTF's way to store a few changed elements over a base) is read with its
/// changes applied: POSITION with two vertices moved, and the same with no base view (all
/// zeros but the two).
#[test]
fn sparse_accessors_are_read_with_their_changes() {
    let original = load(&hero());
    let moved = [(3u16, [0.5f32, 2.5, -0.25]), (40, [-1.0, 0.0, 1.0])];
    for with_base in [true, false] {
        let (mut doc, mut bin) = split(&hero());
        let idx: Vec<u8> = moved.iter().flat_map(|(i, _)| i.to_le_bytes()).collect();
        let val: Vec<u8> = moved
            .iter()
            .flat_map(|(_, p)| p.iter().flat_map(|c| c.to_le_bytes()))
            .collect();
        let iv = append_view(&mut doc, &mut bin, &idx);
        let vv = append_view(&mut doc, &mut bin, &val);
        let pos = attributes(&mut doc)["POSITION"].as_u64().unwrap() as usize;
        let acc = &mut doc["accessors"][pos];
        acc["sparse"] = json!({
            "count": moved.len(),
            "indices": { "bufferView": iv, "componentType": 5123 },
            "values": { "bufferView": vv },
        });
        if !with_base {
            acc.as_object_mut().unwrap().remove("bufferView");
            acc.as_object_mut().unwrap().remove("byteOffset");
        }
        let m = load(&pack(&doc, &bin));
        for (v, p) in m.mesh.positions.iter().enumerate() {
            let want = match moved.iter().find(|(i, _)| usize::from(*i) == v) {
                Some((_, q)) => *q,
                None if with_base => original.mesh.positions[v],
                None => [0.0; 3],
            };
            assert_eq!(*p, want, "vertex {v}, base view: {with_base}");
        }
    }
}

/// A clip keyed travelling forward (root motion: the hero's `run` with its hips moved 1.5 m
/// along x from the first key to the last) plays in place in a character by default
/// (`root_motion: Strip`: the keys come back to the hero's, within rounding), and as keyed with
/// `root_motion: Keep`; `tessera model` says what was removed.
#[test]
fn root_motion_is_stripped_from_a_character_by_default() {
    let dir = crate::common::scratch_dir("root-motion");
    let (doc, mut bin) = split(&hero());
    let run = doc["animations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "run")
        .unwrap();
    let ch = run["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["path"] == "translation")
        .unwrap();
    let sampler = &run["samplers"][ch["sampler"].as_u64().unwrap() as usize];
    let times = &doc["accessors"][sampler["input"].as_u64().unwrap() as usize];
    let out = &doc["accessors"][sampler["output"].as_u64().unwrap() as usize];
    assert_eq!(
        sampler["interpolation"].as_str().unwrap_or("LINEAR"),
        "LINEAR"
    );
    let at = |a: &Value| {
        let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        8 + view["byteOffset"].as_u64().unwrap_or(0) as usize
            + a["byteOffset"].as_u64().unwrap_or(0) as usize
    };
    let n = out["count"].as_u64().unwrap() as usize;
    let (t_at, x_at) = (at(times), at(out));
    let f = |bin: &[u8], i: usize| f32::from_le_bytes(bin[i..i + 4].try_into().unwrap());
    let (t0, t1) = (f(&bin, t_at), f(&bin, t_at + 4 * (n - 1)));
    for k in 0..n {
        let t = f(&bin, t_at + 4 * k);
        let i = x_at + 12 * k;
        let x = f(&bin, i) + 1.5 * (t - t0) / (t1 - t0);
        bin[i..i + 4].copy_from_slice(&x.to_le_bytes());
    }
    std::fs::write(dir.join("travel.glb"), pack(&doc, &bin)).unwrap();
    std::fs::write(dir.join("strip.ron"), "(model: \"travel.glb\")").unwrap();
    std::fs::write(
        dir.join("keep.ron"),
        "(model: \"travel.glb\", root_motion: Keep)",
    )
    .unwrap();
    let hero_run = &load(&hero()).clips[1];
    let hips = |c: &tessera::anim::Clip| {
        c.channels
            .iter()
            .find(|ch| ch.property == tessera::anim::Property::Translation)
            .unwrap()
            .values
            .clone()
    };
    let strip = tessera::anim::load_character(&dir.join("strip.ron")).unwrap();
    let keep = tessera::anim::load_character(&dir.join("keep.ron")).unwrap();
    let (want, stripped, kept) = (
        hips(hero_run),
        hips(&strip.model.clips[1]),
        hips(&keep.model.clips[1]),
    );
    for k in 0..n {
        assert!(
            (stripped[k] - want[k]).abs().max_element() < 1e-5,
            "key {k}: {} {}",
            stripped[k],
            want[k]
        );
    }
    assert!((kept[n - 1].x - want[n - 1].x - 1.5).abs() < 1e-5);
    assert_eq!(
        strip.notes,
        ["clip `run`: 1.50 model units of horizontal root motion removed (root_motion: Keep plays \
          it as keyed)"]
    );
    assert!(keep.notes.is_empty());
    let report = tessera(&[
        OsStr::new("model"),
        dir.join("travel.glb").as_os_str(),
        OsStr::new("--character"),
        dir.join("strip.ron").as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&report.stdout);
    assert!(
        stdout.contains("  clip `run`: 1.50 model units of horizontal root motion removed"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A model without the controller's leg joints (here the hero with them renamed, and no `joints`
/// map) still plays: no foot planting, each gait timed by its speed (given in `speeds`, else the
/// defaults), and `tessera model` says so. A `joints` entry naming a joint the model lacks is an
/// error naming it.
#[test]
fn a_character_without_leg_joints_plays_with_its_gaits_timed_by_speed() {
    let dir = crate::common::scratch_dir("legless");
    let glb = edited(|d| {
        for n in d["nodes"].as_array_mut().unwrap() {
            if let Some(name) = n["name"].as_str() {
                if ["thigh", "shin", "foot"]
                    .iter()
                    .any(|p| name.starts_with(p))
                {
                    n["name"] = json!(format!("limb {name}"));
                }
            }
        }
    });
    std::fs::write(dir.join("limbs.glb"), glb).unwrap();
    std::fs::write(
        dir.join("limbs.ron"),
        "(model: \"limbs.glb\", speeds: { \"run\": 5.0 })",
    )
    .unwrap();
    let c = tessera::anim::load_character(&dir.join("limbs.ron")).unwrap();
    let hero = tessera::anim::HeroAnimator::for_character(&c).unwrap();
    assert!(!hero.plants_feet());
    let run = &c.model.clips[c.model.clip("run").unwrap()];
    let walk = &c.model.clips[c.model.clip("walk").unwrap()];
    let g = hero.gait();
    assert!((g.stride(1.0) - f64::from(5.0 * run.duration)).abs() < 1e-6);
    let default_walk = tessera::anim::Locomotion::DEFAULT_SPEEDS[0];
    assert!((g.stride(0.0) - f64::from(default_walk * walk.duration)).abs() < 1e-6);
    let out = tessera(&[
        OsStr::new("model"),
        dir.join("limbs.glb").as_os_str(),
        OsStr::new("--character"),
        dir.join("limbs.ron").as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("gaits (timed by speed): walk stride 1.50 m, run stride 3.30 m"),
        "{stdout}"
    );
    assert!(stdout.contains("feet: not planted"), "{stdout}");
    std::fs::write(
        dir.join("misnamed.ron"),
        "(model: \"limbs.glb\", joints: { \"foot.L\": \"LeftFoot\" })",
    )
    .unwrap();
    let c = tessera::anim::load_character(&dir.join("misnamed.ron")).unwrap();
    let e = tessera::anim::HeroAnimator::for_character(&c)
        .unwrap_err()
        .to_string();
    assert!(e.contains("the skeleton has no `"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A model with two skins (a second copy of the hero's, bound by a second node): the first is
/// used with a note, a character file's `skin` chooses, and an unknown name lists the skins.
#[test]
fn a_character_file_chooses_among_several_skins() {
    let dir = crate::common::scratch_dir("skins");
    let glb = edited(|d| {
        d["skins"][0]["name"] = json!("body");
        let mut second = d["skins"][0].clone();
        second["name"] = json!("armour");
        d["skins"].as_array_mut().unwrap().push(second);
        let copy = d["meshes"][0].clone();
        d["meshes"].as_array_mut().unwrap().push(copy);
        d["meshes"][1]["name"] = json!("armour");
        d["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "name": "armour", "mesh": 1, "skin": 1 }));
    });
    // The second skin is the first's copy (an exporter's skin per mesh of one armature): its
    // mesh is drawn with the first unless a skin is chosen by name.
    let first = load(&glb);
    assert_eq!(first.parts.len(), 2);
    assert_eq!(first.parts[0].name, "mesh `hero` primitive 0");
    assert_eq!(first.parts[1].name, "mesh `armour` primitive 0");
    assert!(
        first.notes[0].starts_with("the model has 2 skins; the first, \"body\", is used"),
        "{:?}",
        first.notes
    );
    std::fs::write(dir.join("two.glb"), glb).unwrap();
    std::fs::write(
        dir.join("armour.ron"),
        "(model: \"two.glb\", skin: Some(\"armour\"))",
    )
    .unwrap();
    let c = tessera::anim::load_character(&dir.join("armour.ron")).unwrap();
    assert_eq!(c.model.parts.len(), 1);
    assert_eq!(c.model.parts[0].name, "mesh `armour` primitive 0");
    assert!(c.model.notes.is_empty(), "{:?}", c.model.notes);
    std::fs::write(
        dir.join("cloak.ron"),
        "(model: \"two.glb\", skin: \"cloak\")",
    )
    .unwrap();
    let e = tessera::anim::load_character(&dir.join("cloak.ron"))
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("missing skin: no skin called `cloak` (the file's skins: `body`, `armour`)"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tessera model --sheet`: a contact sheet with a row per role and a column per phase, each cell
/// showing the character (the run's four phases differ from each other, the idle's hardly).
#[test]
fn tessera_model_writes_a_contact_sheet_of_every_role() {
    use tessera::render::{Image, SHEET_CELL, SHEET_PHASES};
    let dir = crate::common::scratch_dir("sheet");
    let out = dir.join("sheet.png");
    let run = tessera(&[
        OsStr::new("model"),
        OsStr::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/hero.glb")),
        OsStr::new("--sheet"),
        out.as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("(a row per role: idle, run, walk,"),
        "{stdout}"
    );
    let sheet = Image::load_png(&out).unwrap();
    let (cw, ch) = (SHEET_CELL.0 as usize, SHEET_CELL.1 as usize);
    assert_eq!(
        (sheet.width as usize, sheet.height as usize),
        (cw * SHEET_PHASES.len(), ch * tessera::anim::HeroClip::COUNT)
    );
    let cell = |row: usize, col: usize| -> Vec<u8> {
        (0..ch)
            .flat_map(|y| {
                let at = ((row * ch + y) * sheet.width as usize + col * cw) * 4;
                sheet.rgba[at..at + cw * 4].to_vec()
            })
            .collect()
    };
    let differing =
        |a: &[u8], b: &[u8]| a.chunks(4).zip(b.chunks(4)).filter(|(p, q)| p != q).count();
    // Row 0 is idle, row 1 run (HeroClip::ALL order).
    for col in 1..SHEET_PHASES.len() {
        assert!(
            differing(&cell(1, 0), &cell(1, col)) > 300,
            "the run's phase {col} looks like its phase 0"
        );
    }
    assert!(
        differing(&cell(0, 0), &cell(1, 0)) > 300,
        "idle and run look alike"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tessera check` knows character files (a top-level `model`): the shipped hero's is fine, one
/// mapping a clip its model lacks is refused in one line naming the clip.
#[test]
fn tessera_check_validates_character_files() {
    let check = |file: &std::path::Path| tessera(&[OsStr::new("check"), file.as_os_str()]);
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/characters/hero.ron");
    let out = check(&shipped);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("(character: ")
            && stdout.contains("21 joints, 16 clips, 0 roles falling back"),
        "{stdout}"
    );
    let dir = crate::common::scratch_dir("check-character");
    std::fs::write(dir.join("hero.glb"), hero()).unwrap();
    std::fs::write(
        dir.join("bad.ron"),
        "(model: \"hero.glb\", clips: { \"run\": \"Sprint\" })",
    )
    .unwrap();
    let out = check(&dir.join("bad.ron"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("the role `run` is mapped to the clip `Sprint`"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Characters exported by Blender 5.0.1 (`scripts/blender/robot.py`, run with Blender as a Python
/// module from PyPI): a hand-made armature and a Rigify rig, each a body bound with automatic
/// weights and a UV grid texture, exported with the glTF exporter's defaults ("Deform Bones
/// Only" for the Rigify rig). Each plays as the hero from a character file of a few lines: its
/// roles find the clips Blender named, its six leg joints are found (so its feet are planted and
/// its gaits timed by them), its texture is drawn, and it draws the tour's hero otherwise than
/// the built-in one.
#[test]
fn characters_exported_by_blender_play_as_the_hero() {
    use tessera::anim::{load_character, HeroAnimator, HeroClip};
    use tessera::level::DataDir;
    use tessera::sim::WorldFiles;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = [
        (
            "blender_robot.ron",
            17,
            vec![
                (HeroClip::Idle, "Idle"),
                (HeroClip::Walk, "Walk"),
                (HeroClip::Run, "Run"),
                (HeroClip::JumpTakeoff, "Jump"),
            ],
        ),
        (
            "blender_rigify.ron",
            36,
            vec![
                (HeroClip::Idle, "Idle"),
                (HeroClip::Walk, "Walk"),
                (HeroClip::Run, "Walk"),
            ],
        ),
    ];
    let mut files = WorldFiles::new(DataDir::at(root));
    files.replay = Some(root.join("levels/replays/default_tour.ron"));
    let dir = crate::common::scratch_dir("blender-characters");
    let shoot = |c: Option<&tessera::anim::Character>| {
        let out = dir.join("shot.png");
        tessera::render::render_level_to_png(&files, Some(150), (320, 180), &out, c)
            .unwrap_or_else(|e| panic!("{e:#}"));
        tessera::render::Image::load_png(&out).unwrap()
    };
    let hero = shoot(None);
    for (file, joints, roles) in cases {
        let path = root.join("assets/characters").join(file);
        let c = load_character(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(c.model.skeleton.len(), joints, "{file}");
        assert!(c.model.texture.is_some(), "{file}: the UV grid texture");
        for (role, clip) in roles {
            let m = c.mapping.iter().find(|m| m.role == role).unwrap();
            assert_eq!(m.clip, clip, "{file}: {m}");
        }
        let animator = HeroAnimator::for_character(&c).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(animator.plants_feet(), "{file}: the six leg joints");
        let stride = animator.gait().stride(0.0);
        assert!(
            (0.5..3.0).contains(&stride),
            "{file}: a walk stride of {stride} m, measured from the planted foot"
        );
        let drawn = shoot(Some(&c));
        let differing = hero
            .rgba
            .chunks(4)
            .zip(drawn.rgba.chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        assert!(
            differing > 100,
            "{file}: drawn like the built-in hero ({differing} pixels differ)"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tessera model` lists a dense model's levels of detail with their errors: the hero cut into
/// 9 936 triangles (`benches/crowd/hero_10k.glb`) goes back to its own 310 at no error.
#[test]
fn tessera_model_lists_the_levels_of_detail_of_a_dense_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/crowd/hero_10k.glb");
    let out = tessera(&[OsStr::new("model"), OsStr::new(path)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("levels of detail"))
        .unwrap_or_else(|| panic!("no levels in:\n{stdout}"));
    assert!(
        line.contains("4968 triangles (error 0.0000 units)")
            && line.contains("310 triangles (error 0.0000 units)"),
        "{line}"
    );
}

/// The hero's armature and clips without its mesh and skin (an auto-rigger's "without skin"
/// download), a node `Camera` put first (every node index moves up by one) and animated by one
/// more channel, as an exporter's animation file may be laid out.
fn hero_moves_shifted() -> Vec<u8> {
    edited(|d| {
        let shift = |v: &mut Value| *v = json!(v.as_u64().unwrap() + 1);
        for n in d["nodes"].as_array_mut().unwrap() {
            if let Some(children) = n.get_mut("children") {
                children.as_array_mut().unwrap().iter_mut().for_each(shift);
            }
        }
        for s in d["scenes"].as_array_mut().unwrap() {
            s["nodes"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .for_each(shift);
        }
        for n in d["nodes"].as_array_mut().unwrap() {
            let n = n.as_object_mut().unwrap();
            n.remove("mesh");
            n.remove("skin");
        }
        let doc = d.as_object_mut().unwrap();
        doc.remove("meshes");
        doc.remove("skins");
        let mut camera_channel = None;
        for a in d["animations"].as_array_mut().unwrap() {
            for c in a["channels"].as_array_mut().unwrap() {
                shift(&mut c["target"]["node"]);
                if camera_channel.is_none() && c["target"]["path"] == "translation" {
                    camera_channel = Some(c.clone());
                }
            }
        }
        let mut c = camera_channel.unwrap();
        c["target"]["node"] = json!(0);
        d["animations"][0]["channels"]
            .as_array_mut()
            .unwrap()
            .push(c);
        d["nodes"]
            .as_array_mut()
            .unwrap()
            .insert(0, json!({ "name": "Camera" }));
    })
}

/// The hero with only its animation called `name` (`None`: none at all).
fn hero_with_only(name: Option<&str>) -> Vec<u8> {
    edited(|d| {
        let kept: Vec<Value> = (d["animations"].as_array().unwrap().iter())
            .filter(|a| Some(a["name"].as_str().unwrap()) == name)
            .cloned()
            .collect();
        if kept.is_empty() {
            d.as_object_mut().unwrap().remove("animations");
        } else {
            d["animations"] = json!(kept);
        }
    })
}

/// A character file's `animations`: clips from other files (an animation library, an
/// auto-rigger's one-clip downloads) play on the model, each channel bound to the joint of its
/// node's name whatever the node indices; a file of one clip names it after itself; animated
/// nodes that are not joints are left out with a note; a file sharing no joint name with the
/// model, and a clip name loaded twice, are errors naming the file.
#[test]
fn a_character_plays_clips_from_animation_files_bound_by_joint_name() {
    let dir = crate::common::scratch_dir("animation-files");
    let hero = load(&hero());
    std::fs::write(dir.join("body.glb"), hero_with_only(None)).unwrap();
    std::fs::write(dir.join("moves.glb"), hero_moves_shifted()).unwrap();
    std::fs::write(dir.join("Run.glb"), hero_with_only(Some("run"))).unwrap();
    std::fs::write(dir.join("idle.glb"), hero_with_only(Some("idle"))).unwrap();
    let unrelated = edited(|d| {
        for n in d["nodes"].as_array_mut().unwrap() {
            let name = format!("other:{}", n["name"].as_str().unwrap());
            n["name"] = json!(name);
        }
    });
    std::fs::write(dir.join("other.glb"), unrelated).unwrap();
    let character = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        tessera::anim::load_character(&path)
    };

    // The model file alone has no clips: an error only without animation files.
    let e = character("bare.ron", "(model: \"body.glb\")").unwrap_err();
    assert!(
        e.to_string().ends_with(
            "body.glb: missing clips: the file has no animations (a character file's \
                        `animations` can bring them from other files)"
        ),
        "{e}"
    );

    // Every clip of the library, exactly the hero's own.
    let c = character(
        "library.ron",
        "(model: \"body.glb\", animations: [\"moves.glb\"])",
    )
    .unwrap();
    assert_eq!(c.model.clips, hero.clips);
    assert!(c.mapping.iter().all(|m| m.fallback.is_none()));
    assert_eq!(
        c.notes,
        ["moves.glb: 1 animated node(s) are not joints of the model and are left out: `Camera`"]
    );

    // One-clip files: each clip named after its file, found by the role's name ignoring case.
    let c = character(
        "downloads.ron",
        "(model: \"body.glb\", animations: [\"idle.glb\", \"Run.glb\"])",
    )
    .unwrap();
    let names: Vec<&str> = c.model.clips.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["idle", "Run"]);
    let run = hero.clips.iter().find(|k| k.name == "run").unwrap();
    assert_eq!(c.model.clips[1].channels, run.channels);
    let role = |r: &str| {
        c.mapping
            .iter()
            .find(|m| m.to_string().starts_with(&format!("{r}:")))
            .unwrap()
            .to_string()
    };
    assert_eq!(role("run"), "run: `Run`");
    assert!(
        role("walk").starts_with("walk: `Run` (no clip of its own"),
        "{}",
        role("walk")
    );

    let e = character(
        "other.ron",
        "(model: \"body.glb\", animations: [\"other.glb\"])",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains(
            "other.glb: no joint in common: no animation drives a node named like a joint \
                    of the model (it animates `other:"
        ),
        "{e}"
    );
    let e = character(
        "twice.ron",
        "(model: \"body.glb\", animations: [\"moves.glb\", \"idle.glb\"])",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains(
            "idle.glb: the clip `idle` is already loaded (from the model or an earlier \
                    animation file)"
        ),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
