//! The generator of the game's models: the hero, a low-poly skinned humanoid with its animation
//! clips, built as a binary glTF (`assets/hero.glb`) by plain code, so the committed file can be
//! regenerated and checked byte for byte; the enemies' figures on its skeleton; the frame-rate
//! bench's dense hero.
//!
//! A tool, not part of the game: the game embeds or loads the committed files
//! (`tessera::anim::HERO_GLB`, the character files) and links none of this. It depends on
//! `serde_json` alone.
//!
//! # The model
//! - Feet at the origin, 1.8 m tall standing (0.33 m deep in x, facing +x; y up; z towards the
//!   camera, so the hero's right side is +z). The crouch poses come down to about 1.0 m, the
//!   height of the crouching collider.
//! - A skeleton of [`JOINT_COUNT`] joints (see [`JOINT_NAMES`]): hips (the root), spine, chest,
//!   neck, head, and per side a shoulder, upper arm, forearm, hand, thigh, shin, foot and toe.
//!   The bind pose is the rest pose of the nodes (no rotation, only translations), so each
//!   inverse bind matrix is the translation by minus the joint's rest position.
//! - One skinned mesh: a box per body part (flat normals, 24 vertices each), skinned to its bone,
//!   with the vertices on the face nearest the parent joint blended 3:1 with the parent bone (two
//!   weights, exactly 0.75 and 0.25, so they sum to 1 in `f32`). Colours per part in `COLOR_0`
//!   (linear RGB): skin, shirt, trousers, boots, hair, eyes. One material, white and rough.
//! - Sixteen clips, named as in [`CLIP_NAMES`], each a rotation channel per joint that moves
//!   (about z only: the game is seen from the side) and a translation channel on the hips:
//!   `idle` (cubic spline), `run`, `walk`, `crouch_walk`, `jump_takeoff`, `rise`, `fall`,
//!   `land`, `crouch_idle`, `wall_slide` (step), `climb`, `push`, and the game's `attack` (a
//!   punch), `hurt` (a recoil), `death` (a fall onto the back) and `charge` (the run's legs, head
//!   down). The loops (`idle`, `run`, `walk`, `crouch_walk`, `crouch_idle`, `climb`,
//!   `wall_slide`, `push`, `charge`) end on their first key. `attack` and `hurt` key the upper
//!   body over a standing pose: the controller plays them over the legs' own clip. `death` ends
//!   with the figure's lowest corner on the ground, so each figure's file lies at its own height.
//!
//! # Determinism
//! Only `f64` addition, multiplication, division, `sqrt`, `round` and `%` are used (the sine is
//! a polynomial, see [`sin_deg`]), JSON objects are `serde_json`'s sorted maps and numbers are
//! printed by `serde_json`, so every platform builds the same bytes.
//!
//! # The enemies' figures
//! [`Figure`] builds the campaign's crawler, hopper and brute on the same skeleton, rest pose and
//! clips: only the boxes on the bones (widened, recoloured, a few added: horns, ears, a shell,
//! shoulder pads) differ, so every clip, the foot IK and the gait timing work for them unchanged
//! ([`figure_glb`]; `assets/crawler.glb`, `hopper.glb`, `brute.glb`).
//!
//! # Regenerating and validating
//! `cargo run -p tessera-models` rewrites `assets/hero.glb`, the figures' files and the
//! frame-rate bench's dense hero ([`generated_files`]); `cargo run -p tessera-models -- --check`
//! and the test `tests/it/model_generator.rs` fail when a committed file differs from what the
//! generator builds. The Khronos validator's reports are kept beside them
//! (`assets/hero.validation.json`, `assets/crawler.validation.json`, ...);
//! `node scripts/validate-hero.mjs [FILE]` (with the npm package `gltf-validator` installed)
//! prints one again.

mod body;
mod glb;
mod motion;
mod skeleton;

use body::{build_mesh, figure_parts, mesh_of, parts, subdivide};
use glb::glb_of;
use motion::clips;
pub use motion::{cos_deg, sin_deg};
pub use skeleton::{JOINT_COUNT, JOINT_NAMES};

/// The clips, in file order.
pub const CLIP_NAMES: [&str; 16] = [
    "idle",
    "run",
    "walk",
    "crouch_walk",
    "jump_takeoff",
    "rise",
    "fall",
    "land",
    "crouch_idle",
    "wall_slide",
    "climb",
    "push",
    "attack",
    "hurt",
    "death",
    "charge",
];

/// The hero model as the bytes of a binary glTF file.
pub fn hero_glb() -> Vec<u8> {
    glb_of(build_mesh(), &clips(&parts()))
}

/// A figure built on the hero's skeleton and clips: the same joints at the same rest positions
/// (so every clip, the foot IK and the speed matching work unchanged), other boxes on the bones
/// and other colours. The campaign's enemies (`assets/characters/*.ron` scale them to their size
/// classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// The hero itself ([`hero_glb`]).
    Hero,
    /// A squat armoured bug: a wide dark-red shell over the back and hips, a big head with two
    /// horns and yellow eyes, thick short claws for hands and feet.
    Crawler,
    /// A lanky green leaper: thin limbs, long feet, two tall ears, a pale belly.
    Hopper,
    /// A hulk: a chest and shoulders twice as broad, huge fists, a small head sunk between the
    /// shoulders, grey-violet skin and iron-dark boots.
    Brute,
}

impl Figure {
    /// Every figure but the hero, with the file each is written to under `assets/`.
    pub const ENEMIES: [(Figure, &'static str); 3] = [
        (Figure::Crawler, "crawler.glb"),
        (Figure::Hopper, "hopper.glb"),
        (Figure::Brute, "brute.glb"),
    ];
}

/// `figure` as the bytes of a binary glTF file.
pub fn figure_glb(figure: Figure) -> Vec<u8> {
    let parts = figure_parts(figure);
    let clips = clips(&parts);
    glb_of(mesh_of(parts), &clips)
}

/// The hero with every face of its boxes cut into an `n` × `n` grid: the same skeleton and clips
/// with `n²` times the triangles (276 at `n = 1`; 9 936 at `n = 6`, the "character of 10 000
/// triangles" of the frame-rate bench, `benches/crowd/`). Positions and skin weights are
/// interpolated across each face (to within 1e-6 m of the hero's faces, as interpolation rounds),
/// so it deforms as the hero does. At most `n = 20` (the indices are 16-bit).
pub fn subdivided_hero_glb(n: usize) -> Vec<u8> {
    glb_of(subdivide(&build_mesh(), n.clamp(1, 20)), &clips(&parts()))
}

/// Every file the generator writes, as `(path from the repository's root, bytes)`: the hero,
/// each enemy figure (`assets/<figure>.glb`) and the frame-rate bench's dense hero
/// ([`subdivided_hero_glb`]`(6)`, `benches/crowd/hero_10k.glb`).
pub fn generated_files() -> Vec<(String, Vec<u8>)> {
    let mut files = vec![("assets/hero.glb".to_string(), hero_glb())];
    for (figure, file) in Figure::ENEMIES {
        files.push((format!("assets/{file}"), figure_glb(figure)));
    }
    files.push((
        "benches/crowd/hero_10k.glb".to_string(),
        subdivided_hero_glb(6),
    ));
    files
}

#[cfg(test)]
mod tests {
    use super::motion::{crouch, vertical_extent_of, Pose};
    use super::*;
    use serde_json::Value;

    /// Splits a GLB into its JSON document and binary chunk.
    fn parse(glb: &[u8]) -> (Value, Vec<u8>) {
        let u32_at = |i: usize| u32::from_le_bytes(glb[i..i + 4].try_into().unwrap()) as usize;
        assert_eq!(&glb[0..4], b"glTF");
        assert_eq!(u32_at(4), 2);
        assert_eq!(u32_at(8), glb.len());
        let json_len = u32_at(12);
        assert_eq!(&glb[16..20], b"JSON");
        let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
        let bin_start = 20 + json_len;
        let bin_len = u32_at(bin_start);
        assert_eq!(&glb[bin_start + 4..bin_start + 8], b"BIN\0");
        (doc, glb[bin_start + 8..bin_start + 8 + bin_len].to_vec())
    }

    fn index(v: &Value) -> usize {
        v.as_u64().unwrap() as usize
    }

    /// The bytes of accessor `a`.
    fn accessor_bytes<'a>(doc: &Value, bin: &'a [u8], a: usize) -> &'a [u8] {
        let view = &doc["bufferViews"][index(&doc["accessors"][a]["bufferView"])];
        let start = index(&view["byteOffset"]);
        &bin[start..start + index(&view["byteLength"])]
    }

    fn f32s(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// Cut one way, each face is itself: the same triangles.
    #[test]
    fn a_subdivision_into_one_keeps_the_triangles() {
        assert_eq!(
            subdivide(&build_mesh(), 1).indices.len(),
            build_mesh().indices.len()
        );
    }

    #[test]
    fn skeleton_clips_and_skin_weights_are_well_formed() {
        let (doc, bin) = parse(&hero_glb());
        let joints = doc["skins"][0]["joints"].as_array().unwrap().len();
        assert!((15..=30).contains(&joints));
        let names: Vec<&str> = doc["animations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, CLIP_NAMES);

        let attributes = &doc["meshes"][0]["primitives"][0]["attributes"];
        let w = f32s(accessor_bytes(&doc, &bin, index(&attributes["WEIGHTS_0"])));
        let j = accessor_bytes(&doc, &bin, index(&attributes["JOINTS_0"]));
        assert_eq!(w.len(), j.len());
        for (ws, js) in w.chunks_exact(4).zip(j.chunks_exact(4)) {
            let sum: f32 = ws.iter().sum();
            assert!((sum - 1.0).abs() <= 1e-6, "weights {ws:?} sum to {sum}");
            for (&wk, &jk) in ws.iter().zip(js) {
                assert!((jk as usize) < joints);
                assert!(wk != 0.0 || jk == 0, "joint {jk} paired with a zero weight");
            }
        }
    }

    #[test]
    fn the_model_stands_in_the_collider() {
        let (doc, _) = parse(&hero_glb());
        let position = index(&doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]);
        let a = &doc["accessors"][position];
        let coord = |bound: &str, k: usize| a[bound][k].as_f64().unwrap();
        assert_eq!(coord("min", 1), 0.0);
        assert!((coord("max", 1) - 1.8).abs() < 1e-6);
        assert!(coord("min", 0) >= -0.4 && coord("max", 0) <= 0.4);
    }

    #[test]
    fn keys_are_increasing_loops_close_and_quaternions_are_unit() {
        let (doc, bin) = parse(&hero_glb());
        let loops = [
            "idle",
            "run",
            "walk",
            "crouch_walk",
            "crouch_idle",
            "climb",
            "wall_slide",
            "push",
        ];
        for anim in doc["animations"].as_array().unwrap() {
            let name = anim["name"].as_str().unwrap();
            for s in anim["samplers"].as_array().unwrap() {
                let input = index(&s["input"]);
                assert!(doc["accessors"][input]["min"].is_array());
                assert!(doc["accessors"][input]["max"].is_array());
                let times = f32s(accessor_bytes(&doc, &bin, input));
                assert!(times.windows(2).all(|t| t[0] < t[1]), "{name}: {times:?}");
                let output = index(&s["output"]);
                let n = if doc["accessors"][output]["type"] == "VEC4" {
                    4
                } else {
                    3
                };
                let values = f32s(accessor_bytes(&doc, &bin, output));
                let mut keys: Vec<&[f32]> = values.chunks_exact(n).collect();
                if s["interpolation"] == "CUBICSPLINE" {
                    keys = keys.into_iter().skip(1).step_by(3).collect();
                }
                assert_eq!(keys.len(), times.len());
                if n == 4 {
                    for q in &keys {
                        let len: f32 = q.iter().map(|x| x * x).sum::<f32>().sqrt();
                        assert!((len - 1.0).abs() < 1e-6, "{name}: {q:?}");
                    }
                }
                if loops.contains(&name) {
                    assert_eq!(keys[0], keys[keys.len() - 1], "{name} does not loop");
                }
            }
        }
        let interpolations: Vec<&str> = doc["animations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["samplers"][0]["interpolation"].as_str().unwrap())
            .collect();
        for kind in ["LINEAR", "STEP", "CUBICSPLINE"] {
            assert!(interpolations.contains(&kind), "no {kind} clip");
        }
    }

    fn vertical_extent(pose: &Pose) -> (f64, f64) {
        vertical_extent_of(pose, &parts())
    }

    #[test]
    fn standing_and_crouching_fit_their_colliders() {
        let (lo, hi) = vertical_extent(&Pose::stand());
        assert!(
            lo.abs() < 1e-9 && (hi - 1.8).abs() < 1e-9,
            "standing {lo}..{hi}"
        );
        let (lo, hi) = vertical_extent(&crouch());
        assert!(lo > -0.05 && lo < 0.05, "crouching feet at {lo}");
        assert!(hi < 1.1, "crouching height {hi}");
    }

    #[test]
    fn the_death_clip_ends_lying_on_the_ground() {
        let all = std::iter::once(Figure::Hero).chain(Figure::ENEMIES.map(|(f, _)| f));
        for figure in all {
            let parts = figure_parts(figure);
            let death = clips(&parts).into_iter().find(|c| c.name == "death");
            let lying = death.unwrap().keys.last().unwrap().1;
            let (lo, hi) = vertical_extent_of(&lying, &parts);
            println!("{figure:?} lying: {lo:.3}..{hi:.3}");
            // On the ground (to the keys' micrometre rounding), and lying down: under half the
            // standing height.
            assert!(lo.abs() < 1e-5, "{figure:?} lies at {lo}");
            assert!(hi < 0.9, "{figure:?} lying reaches {hi}");
        }
    }

    #[test]
    fn the_sine_matches_known_values() {
        assert_eq!(sin_deg(0.0), 0.0);
        assert!((sin_deg(90.0) - 1.0).abs() < 1e-12);
        assert!((sin_deg(30.0) - 0.5).abs() < 1e-12);
        assert!((cos_deg(60.0) - 0.5).abs() < 1e-12);
        assert!((sin_deg(-150.0) + 0.5).abs() < 1e-12);
        assert!((sin_deg(390.0) - 0.5).abs() < 1e-12);
    }
}
