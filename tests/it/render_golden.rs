//! Golden-image tests: fixed views rendered offscreen on the Vulkan adapter (Mesa lavapipe in CI)
//! at 320×180 and compared with the references in `tests/golden/` with a perceptual tolerance.
//!
//! - A pixel differs when any channel differs by more than [`CHANNEL_TOLERANCE`] (of 255); a view
//!   fails when more than [`MAX_DIFFERING`] of its pixels differ. This absorbs rasteriser and
//!   driver-version noise (edge coverage, rounding) but not a moved object or a changed colour.
//! - On failure the actual image is written next to the reference as `NAME.actual.png`.
//! - `TESSERA_BLESS=1 cargo test --test it render_golden::` rewrites the references after a deliberate
//!   change; look at them before committing.
//! - No Vulkan adapter is a failure with a message saying so, never a silent pass: CI installs
//!   lavapipe (`mesa-vulkan-drivers`).
//!
//! Close-ups show the skinned hero in three poses (running, rising from a jump, crouching) and
//! standing on a 30° slope (feet planted by the IK), animated tick by tick alongside the
//! simulation as in the game; and the hero's skeleton carrying rigid parts (a box per joint,
//! meshes without a skin) running.
//!
//! The views use a showcase level built in code (slopes, a concave rock, a wall, one-way platforms)
//! so other level files can change without touching these references, plus the shipped default
//! level through the `render_level_to_png` entry point when `levels/default.ron` exists.
use std::path::{Path, PathBuf};

use glam::DVec2;
use tessera::anim::HeroClip;
use tessera::level::PolygonKind;
use tessera::level::{DataDir, Level, LevelPolygon};
use tessera::movement::{Actions, Tuning};
use tessera::render::{Headless, Image, Msaa, Quality};
use tessera::sim::{World, WorldFiles};
use tessera::view::{CameraConfig, View};

/// Largest per-channel difference (of 255) for a pixel to count as equal.
const CHANNEL_TOLERANCE: u8 = 24;
/// Largest fraction of differing pixels for a view to pass.
const MAX_DIFFERING: f64 = 0.005;
/// Image size of every view.
const SIZE: (u32, u32) = (320, 180);

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn headless() -> Headless {
    Headless::new(SIZE).unwrap_or_else(|e| {
        panic!("golden-image tests need a Vulkan adapter and found none: {e}. Install Mesa's lavapipe (`apt-get install mesa-vulkan-drivers libvulkan1`) or run on a machine with a GPU.")
    })
}

fn poly(kind: PolygonKind, material: &str, pts: &[(f64, f64)]) -> LevelPolygon {
    LevelPolygon {
        kind,
        material: Some(material.into()),
        ..LevelPolygon::solid(pts.iter().map(|&(x, y)| DVec2::new(x, y)).collect())
    }
}

/// Ground with a slope and a step, a rotated concave rock, a wall, and two one-way platforms.
fn showcase() -> Level {
    use PolygonKind::{OneWay, Solid};
    Level {
        polygons: vec![
            poly(
                Solid,
                "grass",
                &[
                    (-20.0, -4.0),
                    (40.0, -4.0),
                    (40.0, 0.0),
                    (14.0, 0.0),
                    (10.0, 2.0),
                    (2.0, 2.0),
                    (2.0, 0.0),
                    (-20.0, 0.0),
                ],
            ),
            poly(
                Solid,
                "stone",
                &[
                    (-6.0, 0.0),
                    (-3.5, 0.0),
                    (-3.0, 1.6),
                    (-4.2, 1.1),
                    (-5.2, 2.2),
                ],
            ),
            poly(
                Solid,
                "brick",
                &[(20.0, 0.0), (22.0, 0.0), (22.0, 9.0), (20.0, 9.0)],
            ),
            poly(
                OneWay,
                "wood",
                &[(-2.0, 3.2), (1.5, 3.2), (1.5, 3.5), (-2.0, 3.5)],
            ),
            poly(
                OneWay,
                "wood",
                &[(5.0, 5.0), (9.0, 5.0), (9.0, 5.3), (5.0, 5.3)],
            ),
        ],
        spawn: DVec2::new(-1.0, 0.0),
        ..Level::empty("golden showcase")
    }
}

/// The world after `script`, with its view fed after every tick as the game feeds it.
fn world_after(level: &Level, script: &[(u32, Actions)]) -> (World, View) {
    let mut w = World::new(level, &Tuning::default()).expect("showcase level builds");
    let mut view = View::new(&w, CameraConfig::default(), 16.0 / 9.0);
    for (ticks, a) in script {
        for _ in 0..*ticks {
            w.step(a);
            view.after_tick(&w);
        }
    }
    (w, view)
}

fn act(x: f64, jump: bool, crouch: bool) -> Actions {
    Actions {
        move_axis: DVec2::new(x, 0.0),
        jump,
        jump_pressed: jump,
        crouch,
        attack_pressed: false,
    }
}

/// Compares with the reference (or writes it when blessing); panics with the numbers on a mismatch.
fn check(name: &str, actual: &Image) {
    let reference = golden_dir().join(format!("{name}.png"));
    let actual_path = golden_dir().join(format!("{name}.actual.png"));
    if std::env::var_os("TESSERA_BLESS").is_some_and(|v| v == "1") {
        actual.save_png(&reference).unwrap();
        let _ = std::fs::remove_file(&actual_path);
        return;
    }
    let expected = Image::load_png(&reference).unwrap_or_else(|e| {
        actual.save_png(&actual_path).unwrap();
        panic!(
            "{e:#}; wrote {} — bless it with TESSERA_BLESS=1 if it looks right",
            actual_path.display()
        )
    });
    assert_eq!(
        (expected.width, expected.height),
        (actual.width, actual.height),
        "{name}: size changed"
    );
    let differing = differing_pixels(&expected, actual);
    let fraction = differing as f64 / (actual.width * actual.height) as f64;
    if fraction > MAX_DIFFERING {
        actual.save_png(&actual_path).unwrap();
        panic!(
            "{name}: {differing} pixels ({:.2}%) differ by more than {CHANNEL_TOLERANCE}/255 (allowed {:.2}%); actual image: {}",
            fraction * 100.0,
            MAX_DIFFERING * 100.0,
            actual_path.display()
        );
    }
    let _ = std::fs::remove_file(&actual_path);
}

/// Fails, writing `actual` to `<name>.actual.png` beside the golden images, when more than
/// `max_fraction` of its pixels differ from `expected` (`what`, for the message).
fn assert_mostly_same(expected: &Image, actual: &Image, max_fraction: f64, name: &str, what: &str) {
    let fraction = differing_pixels(expected, actual) as f64 / (SIZE.0 * SIZE.1) as f64;
    if fraction > max_fraction {
        let path = golden_dir().join(format!("{name}.actual.png"));
        actual.save_png(&path).unwrap();
        panic!(
            "{:.3}% of the pixels differ from {what}; actual: {}",
            fraction * 100.0,
            path.display()
        );
    }
}

fn differing_pixels(a: &Image, b: &Image) -> usize {
    a.rgba
        .chunks(4)
        .zip(b.rgba.chunks(4))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count()
}

#[test]
fn showcase_standing_at_spawn() {
    let (world, view) = world_after(&showcase(), &[(30, Actions::default())]);
    check("showcase_spawn", &headless().shoot(&world, &view).unwrap());
}

#[test]
fn showcase_jumping_towards_the_platform() {
    let (world, view) = world_after(
        &showcase(),
        &[(90, act(1.0, false, false)), (22, act(1.0, true, false))],
    );
    assert!(
        !world.hero().grounded(),
        "the view must show the hero in the air"
    );
    check("showcase_jump", &headless().shoot(&world, &view).unwrap());
}

#[test]
fn showcase_crouching_with_the_collision_overlay() {
    let (world, view) = world_after(
        &showcase(),
        &[(40, act(-1.0, false, false)), (30, act(0.0, false, true))],
    );
    assert!(
        world.hero().crouching(),
        "the overlay must show the crouching mesh"
    );
    let mut view = view;
    view.set_overlay(true);
    check(
        "showcase_overlay",
        &headless().shoot(&world, &view).unwrap(),
    );
}

/// A close-up of the hero (4 m away, no look-ahead), for the pose references.
fn close_up() -> Headless {
    let mut h = headless();
    h.camera = CameraConfig {
        distance: 4.5,
        focus_height: 0.9,
        look_ahead: 0.0,
        ..CameraConfig::default()
    };
    h
}

#[test]
fn the_hero_running_mid_stride() {
    // Settled on the ground, then 0.15 s running right on the flat (before the wall).
    let (world, view) = world_after(
        &showcase(),
        &[(30, Actions::default()), (18, act(1.0, false, false))],
    );
    assert_eq!(
        view.hero().clip(),
        HeroClip::Run,
        "{:?}",
        world.hero().state
    );
    check("hero_run", &close_up().shoot(&world, &view).unwrap());
}

#[test]
fn the_hero_rising_from_a_jump() {
    let (world, view) = world_after(
        &showcase(),
        &[(30, Actions::default()), (22, act(0.0, true, false))],
    );
    assert_eq!(view.hero().clip(), HeroClip::Rise);
    check("hero_jump", &close_up().shoot(&world, &view).unwrap());
}

#[test]
fn the_hero_crouching_still() {
    let (world, view) = world_after(
        &showcase(),
        &[(30, Actions::default()), (40, act(0.0, false, true))],
    );
    assert_eq!(view.hero().clip(), HeroClip::CrouchIdle);
    check("hero_crouch", &close_up().shoot(&world, &view).unwrap());
}

#[test]
fn the_hero_standing_on_a_slope() {
    // A 30° slope: the feet planted on it by the IK (not hanging level from the collider's
    // corner, 0.23 m above the surface at the feet).
    use PolygonKind::Solid;
    let h = 6.0 * 30f64.to_radians().tan();
    let hill = Level {
        polygons: vec![poly(
            Solid,
            "grass",
            &[
                (-10.0, -3.0),
                (12.0, -3.0),
                (12.0, h),
                (6.0, h),
                (0.0, 0.0),
                (-10.0, 0.0),
            ],
        )],
        spawn: DVec2::new(3.0, 2.5),
        ..Level::empty("golden slope")
    };
    let (world, view) = world_after(&hill, &[(90, Actions::default())]);
    assert!(world.hero().grounded(), "{:?}", world.hero().state);
    assert_eq!(view.hero().clip(), HeroClip::Idle);
    check("hero_slope", &close_up().shoot(&world, &view).unwrap());
}

#[test]
fn the_cpu_quality_draws_the_same_view_as_the_reference() {
    // What `--msaa auto` picks on a CPU adapter (1 sample per pixel, the 1-tap shadow filter, the
    // 512² shadow map)
    // against the full-quality reference: only aliased edges and shadow borders may differ, so
    // the allowance is wider than for the references themselves but far below a changed scene.
    let (world, view) = world_after(
        &showcase(),
        &[(90, act(1.0, false, false)), (22, act(1.0, true, false))],
    );
    let cpu = Quality::choose(Msaa::Auto, wgpu::DeviceType::Cpu).0;
    let mut h = Headless::with_quality(SIZE, cpu).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(h.samples(), 1);
    let actual = h.shoot(&world, &view).unwrap();
    let expected = Image::load_png(&golden_dir().join("showcase_jump.png")).unwrap();
    assert_mostly_same(
        &expected,
        &actual,
        0.02,
        "showcase_jump.cpu",
        "the full-quality reference",
    );
}

#[test]
fn a_dense_character_is_drawn_with_fewer_triangles_and_the_same_pixels() {
    // `benches/crowd/hero_10k.glb`: the hero with each face of its boxes cut into a 6 × 6 grid,
    // 9 936 triangles on the hero's own surface. At the game's camera its coarser levels of
    // detail (`anim::lod`: half-edge collapses, error under half a pixel) are drawn instead.
    let (world, view) = world_after(
        &showcase(),
        &[(90, act(1.0, false, false)), (22, act(1.0, true, false))],
    );
    let mut h = headless();
    let built_in = h.shoot(&world, &view).unwrap();
    assert_eq!(h.character_triangles(), 276, "the built-in hero");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/crowd/hero_10k.glb");
    let dense = tessera::anim::Model::from_glb(&std::fs::read(path).unwrap()).unwrap();
    assert_eq!(dense.mesh.indices.len() / 3, 9936);
    h.set_hero_model(&dense);
    let drawn = h.shoot(&world, &view).unwrap();
    let triangles = h.character_triangles();
    assert!(
        triangles <= 2 * 276,
        "{triangles} triangles drawn of the dense hero's 9 936"
    );
    assert_mostly_same(&built_in, &drawn, 0.001, "hero_10k", "the built-in hero's");
}

#[test]
fn the_main_pass_is_multisampled_4x() {
    let h = headless();
    assert_eq!(h.samples(), 4, "4× MSAA on {}", h.describe());
}

#[test]
fn the_comparison_catches_a_changed_image() {
    // The tolerance must not hide real changes: a tinted half of an image fails it.
    let a = Image {
        width: 10,
        height: 10,
        rgba: vec![100; 400],
    };
    let mut b = a.clone();
    for px in b.rgba.chunks_mut(4).take(50) {
        px[0] = 200;
    }
    assert_eq!(differing_pixels(&a, &b), 50);
    let mut c = a.clone();
    c.rgba.iter_mut().for_each(|v| *v += CHANNEL_TOLERANCE);
    assert_eq!(differing_pixels(&a, &c), 0);
}

#[test]
fn render_level_to_png_draws_the_default_level_at_the_requested_size() {
    // The file entry point behind `tessera render`; a sanity check rather than a reference image,
    // so editing the default level does not need a re-bless.
    let out = std::env::temp_dir().join(format!("tessera-default-{}.png", std::process::id()));
    // No level named: the data directory's default level.
    let files = WorldFiles::new(DataDir::at(env!("CARGO_MANIFEST_DIR")));
    tessera::render::render_level_to_png(&files, Some(30), (200, 120), &out, None)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let img = Image::load_png(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    assert_eq!((img.width, img.height), (200, 120));
    let distinct: std::collections::HashSet<&[u8]> = img.rgba.chunks(4).collect();
    assert!(
        distinct.len() > 50,
        "a real scene has many colours, got {}",
        distinct.len()
    );
    assert!(img.rgba.chunks(4).all(|p| p[3] == 255), "opaque");
}

#[test]
fn render_level_to_png_names_a_missing_level_file() {
    let out = std::env::temp_dir().join("tessera-never-written.png");
    let mut files = WorldFiles::new(DataDir::at(env!("CARGO_MANIFEST_DIR")));
    files.level = Some("no/such/level.ron".into());
    let e = tessera::render::render_level_to_png(&files, None, (64, 36), &out, None).unwrap_err();
    assert!(format!("{e:#}").contains("no/such/level.ron"), "{e:#}");
    assert!(!out.exists());
}

/// The hero model as a textured character (loader conformance: `baseColorTexture` with
/// `TEXCOORD_0` and a nearest-filtered sampler, `baseColorFactor`, an alpha-masked material):
/// `COLOR_0` removed, a 4 × 4 checker of orange and teal texels (one corner texel transparent)
/// mapped by the bind-pose x and y, the factor tinting it, drawn running mid-stride like
/// `hero_run`. Its reference, `hero_textured.png`, shows the checker on the hero's boxes and
/// holes where the transparent texel falls.
#[test]
fn a_textured_character_is_drawn_with_its_texture() {
    use serde_json::json;
    let hero = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/hero.glb")).unwrap();
    let json_len = u32::from_le_bytes(hero[12..16].try_into().unwrap()) as usize;
    let mut doc: serde_json::Value = serde_json::from_slice(&hero[20..20 + json_len]).unwrap();
    let bin_len = u32::from_le_bytes(hero[20 + json_len..24 + json_len].try_into().unwrap());
    let mut bin = hero[28 + json_len..28 + json_len + bin_len as usize].to_vec();
    let add_view = |doc: &mut serde_json::Value, bin: &mut Vec<u8>, data: &[u8]| {
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let views = doc["bufferViews"].as_array_mut().unwrap();
        views.push(json!({ "buffer": 0, "byteOffset": bin.len(), "byteLength": data.len() }));
        bin.extend_from_slice(data);
        views.len() - 1
    };
    // The checker: orange and teal, the top-left texel transparent.
    let mut png = Vec::new();
    let checker = image::RgbaImage::from_fn(4, 4, |x, y| match (x, y, (x + y) % 2) {
        (0, 0, _) => image::Rgba([0, 0, 0, 0]),
        (_, _, 0) => image::Rgba([240, 140, 30, 255]),
        _ => image::Rgba([20, 160, 150, 255]),
    });
    image::DynamicImage::ImageRgba8(checker)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let image_view = add_view(&mut doc, &mut bin, &png);
    // UVs from the bind pose: a texel per 10 cm, so the checker repeats over the body.
    let model = tessera::anim::Model::from_glb(&hero).unwrap();
    let uvs: Vec<u8> = model
        .mesh
        .positions
        .iter()
        .flat_map(|p| [p[0] * 2.5 + p[2] * 2.5, p[1] * 2.5])
        .flat_map(f32::to_le_bytes)
        .collect();
    let uv_view = add_view(&mut doc, &mut bin, &uvs);
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(json!({
        "bufferView": uv_view, "componentType": 5126, "count": model.mesh.positions.len(), "type": "VEC2",
    }));
    let uv_accessor = accessors.len() - 1;
    let prim = &mut doc["meshes"][0]["primitives"][0];
    prim["attributes"]
        .as_object_mut()
        .unwrap()
        .remove("COLOR_0");
    prim["attributes"]["TEXCOORD_0"] = json!(uv_accessor);
    doc["images"] = json!([{ "bufferView": image_view, "mimeType": "image/png" }]);
    doc["samplers"] = json!([{ "magFilter": 9728, "minFilter": 9728 }]);
    doc["textures"] = json!([{ "source": 0, "sampler": 0 }]);
    doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] = json!({ "index": 0 });
    doc["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"] = json!([1.0, 0.9, 0.9, 1.0]);
    doc["materials"][0]["alphaMode"] = json!("MASK");
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let mut text = serde_json::to_vec(&doc).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let mut glb = b"glTF".to_vec();
    glb.extend(2u32.to_le_bytes());
    glb.extend(((12 + 8 + text.len() + 8 + bin.len()) as u32).to_le_bytes());
    glb.extend((text.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(text);
    glb.extend((bin.len() as u32).to_le_bytes());
    glb.extend(b"BIN\0");
    glb.extend(bin);
    // TESSERA_FIXTURE_DIR=DIR writes the fixture there (for the Khronos validator).
    if let Some(dir) = std::env::var_os("TESSERA_FIXTURE_DIR") {
        std::fs::write(std::path::Path::new(&dir).join("hero_textured.glb"), &glb).unwrap();
    }
    let textured = tessera::anim::Model::from_glb(&glb).unwrap_or_else(|e| panic!("{e}"));
    let texture = textured.texture.as_ref().expect("the texture is read");
    assert!(texture.nearest);
    assert_eq!(texture.mime.as_deref(), Some("image/png"));
    assert!(textured
        .mesh
        .uvs
        .iter()
        .all(|uv| uv[2] == 1.0 && uv[3] == 0.5));
    assert!(textured.mesh.colours.iter().all(|c| *c == [1.0, 0.9, 0.9]));

    let clips = tessera::anim::HeroClips::find(&textured).unwrap();
    let hero = tessera::anim::HeroAnimator::with_clips(
        textured.clone(),
        clips,
        &Default::default(),
        &Default::default(),
    )
    .unwrap();
    // The ticks of `the_hero_running_mid_stride`, fed to a view of this hero.
    let mut replay = World::new(&showcase(), &Tuning::default()).unwrap();
    let mut view = View::with_hero(&replay, CameraConfig::default(), 16.0 / 9.0, hero);
    for (ticks, a) in [(30, Actions::default()), (18, act(1.0, false, false))] {
        for _ in 0..ticks {
            replay.step(&a);
            view.after_tick(&replay);
        }
    }
    let mut h = close_up();
    h.set_hero_model(&textured);
    check("hero_textured", &h.shoot(&replay, &view).unwrap());
}

/// `levels/test/cast.ron` at tick 90 through the file entry point behind `tessera render`: the
/// hero, a hero-size patrol drawn with `assets/characters/hero.ron` walking left mid-stride, a
/// medium and two small agents drawn with the hero's model scaled to their size classes (one
/// model uploaded for the two small ones), and a large agent without a character, drawn as its
/// collider's outline.
#[test]
fn agents_are_drawn_with_their_characters() {
    let out = std::env::temp_dir().join(format!("tessera-cast-{}.png", std::process::id()));
    let mut files = WorldFiles::new(DataDir::at(env!("CARGO_MANIFEST_DIR")));
    files.level = Some("levels/test/cast.ron".into());
    tessera::render::render_level_to_png(&files, Some(90), SIZE, &out, None)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let img = Image::load_png(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    check("cast", &img);
}

/// A CPU rasteriser's main pass keeps a 16-bit depth buffer (`Quality::depth`): the same
/// pixels as the 32-bit one, but for ties on a few edges, in the showcase (slabs of both
/// depths, a ladder, the hero by a wall) and the cast (characters over the level).
#[test]
fn a_16_bit_depth_buffer_draws_the_same_images() {
    let sixteen = Quality {
        depth: tessera::render::targets::CPU_DEPTH_FORMAT,
        ..Quality::FULL
    };
    let (world, view) = world_after(&showcase(), &[(30, Actions::default())]);
    let full = headless().shoot(&world, &view).unwrap();
    let mut cpu = Headless::with_quality(SIZE, sixteen).unwrap();
    assert_eq!(cpu.quality().depth, wgpu::TextureFormat::Depth16Unorm);
    let img = cpu.shoot(&world, &view).unwrap();
    assert_mostly_same(&full, &img, 0.001, "showcase.depth16", "the 32-bit depth's");
    let mut files = WorldFiles::new(DataDir::at(env!("CARGO_MANIFEST_DIR")));
    files.level = Some("levels/test/cast.ron".into());
    let (world, view) = tessera::render::scene_at_frame(&files, Some(90)).unwrap();
    let full = headless().shoot(&world, &view).unwrap();
    let img = cpu.shoot(&world, &view).unwrap();
    assert!(cpu.character_triangles() > 276, "the cast is drawn");
    assert_mostly_same(&full, &img, 0.001, "cast.depth16", "the 32-bit depth's");
}

/// The same scenes with the agents posed on the CPU and drawn in one batch per model, as a CPU
/// rasteriser draws them (`render::posed`, lit by `vs_lean`/`fs_lean`; everything else at the
/// full quality): the same triangles, and the same pixels but for rounding on edges (none differ
/// on lavapipe; 0.05 % may). In the open (`cast.ron`) the check fails (0.23 % of pixels) when
/// the lean lighting drops the sun; in the shade of a roof (`cast_shade.ron`) it fails (0.11 %)
/// when it drops the shadow lookup.
#[test]
fn agents_posed_on_the_cpu_draw_the_same_image() {
    let mut gpu = Headless::new(SIZE).unwrap();
    let quality = Quality {
        pose_on_cpu: true,
        ..Quality::FULL
    };
    let mut cpu = Headless::with_quality(SIZE, quality).unwrap();
    for name in ["cast", "cast_shade"] {
        let mut files = WorldFiles::new(DataDir::at(env!("CARGO_MANIFEST_DIR")));
        files.level = Some(format!("levels/test/{name}.ron").into());
        let (world, view) = tessera::render::scene_at_frame(&files, Some(90)).unwrap();
        let skinned = gpu.shoot(&world, &view).unwrap();
        let posed = cpu.shoot(&world, &view).unwrap();
        assert_eq!(cpu.character_triangles(), gpu.character_triangles());
        assert!(gpu.character_triangles() > 276, "{name}: the cast is drawn");
        assert_mostly_same(
            &skinned,
            &posed,
            0.0005,
            &format!("{name}.posed"),
            "the GPU-skinned cast's",
        );
    }
}

/// The shadow pass keeps the level's depth from the sun while the sun's camera and the level stay
/// put (`render::passes::shadow`): the second shot of a still scene draws the level into the
/// cache, the third copies it and draws only the characters, and the three images are the same.
/// An edited level (the lower wooden platform 1 m higher, its shadow elsewhere) is drawn whole
/// again, the same image as a renderer that never saw the old level draws.
#[test]
fn a_still_camera_draws_the_level_s_shadow_from_a_cache() {
    use tessera::render::passes::shadow::ShadowDraw;
    let level = showcase();
    let (world, view) = world_after(&level, &[(90, Actions::default())]);
    let mut h = headless();
    let mut shots = Vec::new();
    for expected in [ShadowDraw::Whole, ShadowDraw::Cached, ShadowDraw::FromCache] {
        shots.push(h.shoot(&world, &view).unwrap());
        assert_eq!(h.shadow_draw(), expected);
    }
    assert_eq!(differing_pixels(&shots[0], &shots[1]), 0);
    assert_eq!(differing_pixels(&shots[0], &shots[2]), 0);

    let mut edited = level.clone();
    for p in &mut edited.polygons[3].points {
        p.y += 1.0;
    }
    let (world, view) = world_after(&edited, &[(90, Actions::default())]);
    let after_edit = h.shoot(&world, &view).unwrap();
    assert_eq!(h.shadow_draw(), ShadowDraw::Whole);
    let fresh = headless().shoot(&world, &view).unwrap();
    assert_eq!(differing_pixels(&fresh, &after_edit), 0);
    assert!(
        differing_pixels(&shots[0], &after_edit) > 100,
        "the edit shows"
    );
}

/// A CPU rasteriser draws the backdrop in a pass of its own through the frame's plain view
/// (`Quality::plain_backdrop`, `shaders/unlit.wgsl`'s `vs_plain`), its colours encoded per
/// vertex and interpolated between sRGB values: the same image as the backdrop drawn inside the
/// main pass, within a few levels of 255 where its gradients run (a missed encode, a doubled
/// one or a pass drawn over the level would be off by tens of levels over most of the frame).
#[test]
fn the_backdrop_in_a_pass_of_its_own_draws_the_same_image() {
    let single = Quality {
        samples: 1,
        ..Quality::FULL
    };
    let (world, view) = world_after(&showcase(), &[(30, Actions::default())]);
    let mut inside = Headless::with_quality(SIZE, single).unwrap();
    let expected = inside.shoot(&world, &view).unwrap();
    assert_eq!(inside.backdrop_draws(), [0, 1]);
    let mut alone = Headless::with_quality(
        SIZE,
        Quality {
            plain_backdrop: true,
            ..single
        },
    )
    .unwrap();
    let actual = alone.shoot(&world, &view).unwrap();
    assert_eq!(alone.backdrop_draws(), [1, 0]);
    let worst = expected
        .rgba
        .iter()
        .zip(&actual.rgba)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap();
    if worst > 6 {
        let path = golden_dir().join("showcase.plain_backdrop.actual.png");
        actual.save_png(&path).unwrap();
        panic!(
            "a channel differs by {worst}/255 from the backdrop drawn in the main pass; actual: {}",
            path.display()
        );
    }
}

/// Rigid parts (meshes without a skin, each a child of a joint's node, as a jointed robot is
/// made): the hero's skeleton with its skinned mesh replaced by a 10 cm box on every joint,
/// running mid-stride like `the_hero_running_mid_stride`: each box is drawn where its joint is.
#[test]
fn rigid_parts_are_drawn_where_their_joints_are() {
    use serde_json::json;
    let hero = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/hero.glb")).unwrap();
    let json_len = u32::from_le_bytes(hero[12..16].try_into().unwrap()) as usize;
    let mut doc: serde_json::Value = serde_json::from_slice(&hero[20..20 + json_len]).unwrap();
    let bin_len = u32::from_le_bytes(hero[20 + json_len..24 + json_len].try_into().unwrap());
    let mut bin = hero[28 + json_len..28 + json_len + bin_len as usize].to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    // A box 10 cm on a side around its node's origin, its triangles unshared (flat normals).
    let h = 0.05f32;
    let corner = |k: usize| [k & 1, k & 2, k & 4].map(|b| if b == 0 { -h } else { h });
    let faces = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let positions: Vec<f32> = faces
        .iter()
        .flat_map(|f| [f[0], f[1], f[2], f[0], f[2], f[3]])
        .flat_map(corner)
        .collect();
    let offset = bin.len();
    bin.extend(positions.iter().flat_map(|f| f.to_le_bytes()));
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": 4 * positions.len() }));
    let view = views.len() - 1;
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(
        json!({ "bufferView": view, "componentType": 5126, "count": 36, "type": "VEC3",
                           "min": [-h, -h, -h], "max": [h, h, h] }),
    );
    let accessor = accessors.len() - 1;
    doc["materials"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "pbrMetallicRoughness": { "baseColorFactor": [0.9, 0.5, 0.1, 1.0] } }));
    let material = doc["materials"].as_array().unwrap().len() - 1;
    let meshes = doc["meshes"].as_array_mut().unwrap();
    meshes.push(
        json!({ "name": "part", "primitives": [{ "attributes": { "POSITION": accessor },
                                                          "material": material }] }),
    );
    let part = meshes.len() - 1;
    // No skinned mesh: the skin stays, its joints each carry a part.
    for n in doc["nodes"].as_array_mut().unwrap() {
        if n.get("skin").is_some() {
            let o = n.as_object_mut().unwrap();
            o.remove("skin");
            o.remove("mesh");
        }
    }
    let joints: Vec<usize> = (doc["skins"][0]["joints"].as_array().unwrap().iter())
        .map(|j| j.as_u64().unwrap() as usize)
        .collect();
    for j in joints {
        let nodes = doc["nodes"].as_array_mut().unwrap();
        nodes.push(json!({ "mesh": part }));
        let child = nodes.len() - 1;
        let node = &mut doc["nodes"][j];
        if node.get("children").is_none() {
            node["children"] = json!([]);
        }
        node["children"].as_array_mut().unwrap().push(json!(child));
    }
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    let mut text = serde_json::to_vec(&doc).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let mut glb = b"glTF".to_vec();
    glb.extend(2u32.to_le_bytes());
    glb.extend(((12 + 8 + text.len() + 8 + bin.len()) as u32).to_le_bytes());
    glb.extend((text.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(text);
    glb.extend((bin.len() as u32).to_le_bytes());
    glb.extend(b"BIN\0");
    glb.extend(bin);
    let robot = tessera::anim::Model::from_glb(&glb).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(robot.parts.len(), robot.skeleton.len());

    let clips = tessera::anim::HeroClips::find(&robot).unwrap();
    let animator = tessera::anim::HeroAnimator::with_clips(
        robot.clone(),
        clips,
        &Default::default(),
        &Default::default(),
    )
    .unwrap();
    let mut replay = World::new(&showcase(), &Tuning::default()).unwrap();
    let mut view = View::with_hero(&replay, CameraConfig::default(), 16.0 / 9.0, animator);
    for (ticks, a) in [(30, Actions::default()), (18, act(1.0, false, false))] {
        for _ in 0..ticks {
            replay.step(&a);
            view.after_tick(&replay);
        }
    }
    let mut h = close_up();
    h.set_hero_model(&robot);
    check("hero_rigid", &h.shoot(&replay, &view).unwrap());
}

/// The showcase with a sign on the raised step, in open air (`{jump} jumps`, in the default
/// keyboard bindings) and the hero's feet at `spawn`, after 30 ticks standing (longer
/// than a sign's fade in).
fn sign_view(spawn: DVec2) -> (World, View) {
    let level = Level {
        spawn,
        signs: vec![tessera::level::LevelSign {
            at: DVec2::new(3.0, 2.0),
            text: "{jump} jumps".into(),
        }],
        ..showcase()
    };
    let (world, mut view) = world_after(&level, &[(30, Actions::default())]);
    let bindings = tessera::input::Bindings::default();
    let texts = level
        .signs
        .iter()
        .map(|s| tessera::input::sign_text(&s.text, &bindings, false))
        .collect();
    view.signs_mut().set_texts(texts);
    (world, view)
}

/// A sign near the hero (2 m, within `view::SIGN_NEAR`): its panel on its post above the step,
/// "SPACE OR K JUMPS", behind the hero.
#[test]
fn a_sign_near_the_hero_is_shown() {
    let (world, view) = sign_view(DVec2::new(5.0, 2.0));
    assert!(view.signs().opacity(0) >= 1.0, "faded in after 30 ticks");
    check("sign_near", &headless().shoot(&world, &view).unwrap());
}

/// The same sign with the hero 5.4 m away (beyond `view::SIGN_NEAR`), still in the camera's view:
/// nothing of it is drawn, the frame is the level's without it.
#[test]
fn a_sign_far_from_the_hero_is_not_drawn() {
    let (world, view) = sign_view(DVec2::new(-2.0, 0.0));
    assert_eq!(view.signs().opacity(0), 0.0);
    let shot = headless().shoot(&world, &view).unwrap();
    check("sign_far", &shot);
    let level = Level {
        spawn: DVec2::new(-2.0, 0.0),
        ..showcase()
    };
    let (bare, bare_view) = world_after(&level, &[(30, Actions::default())]);
    let without = headless().shoot(&bare, &bare_view).unwrap();
    assert_mostly_same(
        &without,
        &shot,
        0.0,
        "sign_far",
        "the level without the sign",
    );
}

/// The showcase with a door standing on the ground just right of the hero (`open` as given), and
/// its switch left of the hero: a wooden slab set into the level, shut, its switch's plate raised;
/// or rolled up to its lintel, open, the plate pressed. A cable joins the plate to the door's foot
/// and a lamp sits on the lintel, all in the door's colour.
fn door_view(open: bool) -> (World, View) {
    let door: tessera::level::LevelDoor = ron::from_str(&format!(
        "(points: [(0.6, 0.0), (1.1, 0.0), (1.1, 2.8), (0.6, 2.8)], open: {open}, switch: Some((min: (-3.0, 0.0), max: (-2.0, 1.0))))"
    ))
    .unwrap();
    let level = Level {
        doors: vec![door],
        ..showcase()
    };
    world_after(&level, &[(30, Actions::default())])
}

/// A shut door: a solid wooden slab, lit and shadowed like the level, right of the hero; its
/// switch up.
#[test]
fn a_shut_door_is_a_solid_slab() {
    let (world, view) = door_view(false);
    check("door_shut", &headless().shoot(&world, &view).unwrap());
}

/// An open door: only its lintel is left at the top of its outline; the way through is clear; its
/// switch pressed, the lamp lit.
#[test]
fn an_open_door_leaves_its_lintel() {
    let (world, view) = door_view(true);
    check("door_open", &headless().shoot(&world, &view).unwrap());
}

/// The showcase with a metal lift left of the hero (rising 2 m and back every 2 s) and a bar
/// turning about its centre above the step (1 rad/s), after `ticks` ticks.
fn movers_view(ticks: u32) -> (World, View) {
    let lift: tessera::level::LevelMover = ron::from_str(
        "(pieces: [[(-9.0, 2.6), (-7.0, 2.6), (-7.0, 3.0), (-9.0, 3.0)]], path: [(0.0, 0.0), (0.0, 2.0)], period: 2.0)",
    )
    .unwrap();
    let bar: tessera::level::LevelMover = ron::from_str(
        "(pieces: [[(3.0, 4.2), (7.0, 4.2), (7.0, 4.6), (3.0, 4.6)]], path: [(0.0, 0.0), (0.0, 0.0)], period: 1.0, spin: 1.0)",
    )
    .unwrap();
    let level = Level {
        movers: vec![lift, bar],
        ..showcase()
    };
    world_after(&level, &[(ticks, Actions::default())])
}

/// Movers at rest (tick 0): both slabs in the level file's place, the bar level.
#[test]
fn movers_at_rest_are_solid_slabs_where_the_level_puts_them() {
    let (world, view) = movers_view(0);
    check("movers_rest", &headless().shoot(&world, &view).unwrap());
}

/// The same movers after 120 ticks (1 s): the lift half way up (1 m), the bar turned a radian.
#[test]
fn moving_movers_are_drawn_at_their_pose() {
    let (world, view) = movers_view(120);
    check("movers_moving", &headless().shoot(&world, &view).unwrap());
}

/// A 2 m spike bed (`kind: hazard`, 0.3 m thick) on the raised step right of the hero: steel
/// spikes along its top and ends on a dark red base.
#[test]
fn a_hazard_is_a_bed_of_spikes() {
    let mut level = showcase();
    level.polygons.push(LevelPolygon {
        kind: PolygonKind::Hazard,
        ..LevelPolygon::solid(
            [(3.0, 2.0), (5.0, 2.0), (5.0, 2.3), (3.0, 2.3)]
                .iter()
                .map(|&(x, y)| DVec2::new(x, y))
                .collect(),
        )
    });
    let (world, view) = world_after(&level, &[(30, Actions::default())]);
    check("hazard", &headless().shoot(&world, &view).unwrap());
}

/// The same spike bed switched off (`off: true`: signals would turn it on): its spikes sunk into
/// its dark red base, their tips just showing.
#[test]
fn an_off_hazard_has_its_spikes_sunk() {
    let mut level = showcase();
    level.polygons.push(LevelPolygon {
        kind: PolygonKind::Hazard,
        off: true,
        ..LevelPolygon::solid(
            [(3.0, 2.0), (5.0, 2.0), (5.0, 2.3), (3.0, 2.3)]
                .iter()
                .map(|&(x, y)| DVec2::new(x, y))
                .collect(),
        )
    });
    let (world, view) = world_after(&level, &[(30, Actions::default())]);
    check("hazard_off", &headless().shoot(&world, &view).unwrap());
}

/// A door opening: the hero stands in its switch from the start, so the gate opened on the first
/// tick; 16 ticks later the door is drawn half rolled up (`view::DOOR_MOTION_TICKS` is 30), its
/// switch pressed and its lamp half lit.
#[test]
fn an_opening_door_is_drawn_on_its_way_up() {
    let door: tessera::level::LevelDoor = ron::from_str(
        "(points: [(0.6, 0.0), (1.1, 0.0), (1.1, 2.8), (0.6, 2.8)], switch: Some((min: (-1.5, -0.5), max: (-0.5, 1.0))))",
    )
    .unwrap();
    let level = Level {
        doors: vec![door],
        ..showcase()
    };
    let (world, view) = world_after(&level, &[(16, Actions::default())]);
    assert!(world.doors()[0].open, "the gate is open at once");
    let drawn = view.doors().drawn(0, 1.0).unwrap();
    assert!(drawn > 0.3 && drawn < 0.7, "{drawn}");
    check("door_opening", &headless().shoot(&world, &view).unwrap());
}

/// The showcase with a checkpoint just right of the hero's spawn and the hero's feet at `spawn`,
/// after 30 ticks standing.
fn checkpoint_view(spawn: DVec2) -> (World, View) {
    let level = Level {
        spawn,
        checkpoints: vec![tessera::collision::Aabb {
            min: DVec2::new(0.3, 0.0),
            max: DVec2::new(1.3, 2.5),
        }],
        ..showcase()
    };
    world_after(&level, &[(30, Actions::default())])
}

/// A checkpoint not reached: a steel post behind the play plane, its dull pennant low on it, its
/// lamp dark; no box around its region.
#[test]
fn a_checkpoint_not_reached_has_its_flag_lowered() {
    let (world, view) = checkpoint_view(DVec2::new(-1.5, 0.0));
    assert_eq!(world.checkpoint(), None);
    check(
        "checkpoint_before",
        &headless().shoot(&world, &view).unwrap(),
    );
}

/// The same checkpoint reached (the hero stands in it): its pennant raised to the top, glowing
/// green, its lamp lit.
#[test]
fn a_reached_checkpoint_has_its_flag_raised_and_lit() {
    let (world, view) = checkpoint_view(DVec2::new(0.8, 0.0));
    assert_eq!(world.checkpoint(), Some(0));
    check(
        "checkpoint_after",
        &headless().shoot(&world, &view).unwrap(),
    );
}

/// The goal (1.8 × 3 m) on the raised step right of the hero: a gate of two posts under a chequered
/// crossbar, a glowing gold pennant on each post; no box around its region.
#[test]
fn the_goal_is_a_gate() {
    let level = Level {
        spawn: DVec2::new(-1.5, 0.0),
        goal: Some(tessera::collision::Aabb {
            min: DVec2::new(2.6, 2.0),
            max: DVec2::new(4.4, 5.0),
        }),
        ..showcase()
    };
    let (world, view) = world_after(&level, &[(30, Actions::default())]);
    check("goal", &headless().shoot(&world, &view).unwrap());
}

/// The showcase with two agents drawn with the campaign's crawler (`assets/characters/crawler.ron`)
/// either side of the hero: an idle one left (no enemy) and a crawler right, walking at the hero,
/// after 30 ticks, seen from 7 m.
fn crawler_view() -> (World, View) {
    let agents = [
        "(kind: idle, size: small, spawn: (-2.4, 0.0), character: Some(\"assets/characters/crawler.ron\"))",
        "(kind: crawler, size: small, spawn: (1.2, 0.0), facing: -1.0, character: Some(\"assets/characters/crawler.ron\"))",
    ];
    let level = Level {
        agents: agents.iter().map(|a| ron::from_str(a).unwrap()).collect(),
        ..showcase()
    };
    let (world, mut view) = world_after(&level, &[(30, Actions::default())]);
    let data = DataDir::at(env!("CARGO_MANIFEST_DIR"));
    let level_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/test/crawlers.ron");
    let cast =
        tessera::view::Cast::load(&world, &level_file, &data).unwrap_or_else(|e| panic!("{e}"));
    view.set_cast(cast);
    (world, view)
}

/// Only enemies are rimmed with light: the crawler (right) has a pale band along its silhouette
/// that the same model idle (left, no enemy) has not, on a GPU and posed on the CPU alike.
#[test]
fn an_enemy_is_rimmed_with_light_and_only_an_enemy() {
    let (world, view) = crawler_view();
    assert!(world.agents()[1].kind.is_enemy() && !world.agents()[0].kind.is_enemy());
    let mut h = headless();
    h.camera = CameraConfig {
        distance: 7.0,
        focus_height: 0.6,
        look_ahead: 0.0,
        ..CameraConfig::default()
    };
    let shot = h.shoot(&world, &view).unwrap();
    check("enemy_rim", &shot);
    let mut cpu = Headless::with_quality(
        SIZE,
        Quality {
            pose_on_cpu: true,
            ..Quality::FULL
        },
    )
    .unwrap();
    cpu.camera = h.camera;
    let posed = cpu.shoot(&world, &view).unwrap();
    assert_mostly_same(
        &shot,
        &posed,
        0.0005,
        "enemy_rim.posed",
        "the GPU-skinned image",
    );
}

/// The spike bed of `a_hazard_is_a_bed_of_spikes` in `look`.
fn hazard_look_view(look: tessera::level::HazardLook) -> (World, View) {
    let mut level = showcase();
    level.polygons.push(LevelPolygon {
        kind: PolygonKind::Hazard,
        look,
        ..LevelPolygon::solid(
            [(3.0, 2.0), (5.0, 2.0), (5.0, 2.3), (3.0, 2.3)]
                .iter()
                .map(|&(x, y)| DVec2::new(x, y))
                .collect(),
        )
    });
    world_after(&level, &[(30, Actions::default())])
}

/// A hazard that looks like lava (`look: lava`): its front and top glow orange and yellow,
/// whatever the light; no spikes.
#[test]
fn a_lava_hazard_glows() {
    let (world, view) = hazard_look_view(tessera::level::HazardLook::Lava);
    check("hazard_lava", &headless().shoot(&world, &view).unwrap());
}

/// A hazard of saw blades (`look: saw`): two steel blades with dark hubs standing half out of
/// its top, in two rows across its depth; no spikes.
#[test]
fn a_saw_hazard_has_round_blades() {
    let (world, view) = hazard_look_view(tessera::level::HazardLook::Saw);
    check("hazard_saw", &headless().shoot(&world, &view).unwrap());
}
