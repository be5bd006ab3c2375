//! CPU time per rendered frame: the simulation ticks of one 60 Hz frame (two 120 Hz ticks) plus
//! render preparation (camera, culling, the hero's animation and joint palette, the globals), with
//! no GPU submit. Results: `BENCHMARKS.md`.
//!
//! Run with `cargo bench --bench frame`. Groups:
//! - `frame/default_level`: `levels/default.ron`, the hero running and jumping back and forth.
//! - `frame/generated_10k`: a generated level of 10 000 polygons (rocks and one-way platforms on
//!   a 1 km × 300 m field, fixed seed), same driving.
//! - `frame_overlay/*`: the same with the collision debug overlay's per-frame part.
//! - `static_geometry/*`: building the level slabs on the CPU (done once per level or edit).
//! - `edit_to_playable/{tiles,rocks}_{1k,10k}`: the editor's cost of one edit on a level of
//!   1 000 or 10 000 polygons (unit tiles on a grid filled to 25 %, as in the mesh-build rows of
//!   `benches/collision.rs`; or the generated rocks above): one polygon moved by one grid cell through `EditorSession` (checked, with
//!   its inverse for undo), then the world rebuilt (`World::set_level`: both collision meshes, the
//!   hero re-placed) and the level slabs rebuilt. The GPU upload of the slabs is not included.
//!   Goal: under 16 ms at 1 000 polygons (stretch: at 10 000). `.../world` and `.../slabs`
//!   time the two rebuilds alone.
//! - `edit_to_playable/{name}/chunked`: the same edit as the editor makes it now, on the level
//!   with three agents of the three size classes (five meshes: the hero standing and crouching,
//!   small, medium, large): `World::level_edited` rebuilds the chunks of every chunked mesh that
//!   the polygon's inflation covers before and after, and `LevelGeometry::update` the slabs of
//!   its cell (what the renderer does). Goal (issue 27):
//!   under 4 ms at 1 000 polygons, under 16 ms at 10 000. `.../chunked_world` is the world
//!   alone, `.../chunked_mesh` one mesh's `rebuild_polygons` (the standing hero's).
//!
//! Under `cargo test --benches` (no `--bench` argument) every benchmark runs once, on a
//! 500-polygon generated level instead of 10 000, as a smoke test.
use std::hint::black_box;
use std::path::Path;

use criterion::Criterion;
use glam::DVec2;
use tessera::collision::{build_chunked_mesh, MeshConfig, DEFAULT_CHUNK_SIZE};
use tessera::editor::{Edit, EditorSession};
use tessera::level::PolygonKind;
use tessera::level::{load_level, AgentKind, AgentSize, Level, LevelAgent, LevelPolygon};
use tessera::movement::{Actions, Tuning};
use tessera::render::background_mesh::Backdrop;
use tessera::render::frame::{FrameData, FrameParams};
use tessera::render::globals::Lighting;
use tessera::render::object_mesh::ObjectMesh;
use tessera::render::{ChunkTable, LevelGeometry, SlabConfig};
use tessera::sim::World;
use tessera::view::{CameraConfig, View};

/// Ticks per frame: 120 Hz simulation, 60 Hz display.
const TICKS_PER_FRAME: u64 = 2;
const ASPECT: f64 = 16.0 / 9.0;

/// SplitMix64, so the generated level never changes with a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A ground strip and `n - 1` obstacles, one per cell of a grid over 1000 × 300 m: irregular
/// convex rocks (5–7 corners), and every fourth a one-way platform.
fn generated_level(n: usize) -> Level {
    let mut rng = Rng(0x7E55_E4A0_F4A3_0005);
    let width = 1000.0;
    let mut polygons = vec![LevelPolygon::solid(vec![
        DVec2::new(0.0, -3.0),
        DVec2::new(width, -3.0),
        DVec2::new(width, 0.0),
        DVec2::new(0.0, 0.0),
    ])];
    let cols = ((n as f64 * width / 300.0).sqrt().ceil() as usize).max(1);
    let cell = width / cols as f64;
    for i in 0..n - 1 {
        let centre = DVec2::new(
            (i % cols) as f64 * cell + cell / 2.0,
            4.0 + (i / cols) as f64 * cell,
        );
        let jitter = DVec2::new(rng.next() - 0.5, rng.next() - 0.5) * cell * 0.2;
        let c = centre + jitter;
        let mut p = if i % 4 == 3 {
            let w = cell * 0.35;
            LevelPolygon::solid(vec![
                c + DVec2::new(-w, 0.0),
                c + DVec2::new(w, 0.0),
                c + DVec2::new(w, 0.25),
                c + DVec2::new(-w, 0.25),
            ])
        } else {
            let corners = 5 + (rng.next() * 3.0) as usize;
            let r = cell * 0.25;
            let phase = rng.next();
            let pts = (0..corners)
                .map(|k| {
                    let a = (k as f64 + phase) / corners as f64 * std::f64::consts::TAU;
                    c + DVec2::new(a.cos(), a.sin()) * r * (0.75 + 0.25 * rng.next())
                })
                .collect();
            LevelPolygon::solid(pts)
        };
        if i % 4 == 3 {
            p.kind = PolygonKind::OneWay;
            p.material = Some("wood".into());
        } else {
            p.material = Some("rock".into());
        }
        polygons.push(p);
    }
    Level {
        polygons,
        spawn: DVec2::new(5.0, 0.0),
        ..Level::empty(format!("generated {n}"))
    }
}

/// `n` unit tiles on distinct cells of a square grid filled to 25 % (fixed seed): the level of
/// the collision benches' mesh-build rows (`benches/collision.rs`, `scatter`).
fn tile_level(n: usize) -> Level {
    let side = ((4 * n) as f64).sqrt().ceil() as usize;
    let mut cells: Vec<usize> = (0..side * side).collect();
    let mut rng = Rng(0x7E55_E4A0_2D00_0003);
    for i in 0..n {
        let j = i + (rng.next() * (cells.len() - i) as f64) as usize;
        let last = cells.len() - 1;
        cells.swap(i, j.min(last));
    }
    let polygons = cells[..n]
        .iter()
        .map(|&c| {
            let (x, y) = ((c % side) as f64, (c / side) as f64);
            LevelPolygon::solid(vec![
                DVec2::new(x, y),
                DVec2::new(x + 1.0, y),
                DVec2::new(x + 1.0, y + 1.0),
                DVec2::new(x, y + 1.0),
            ])
        })
        .collect();
    Level {
        polygons,
        spawn: DVec2::new(side as f64 / 2.0, side as f64 / 2.0),
        ..Level::empty(format!("{n} tiles"))
    }
}

/// What the hero does on tick `t`: runs for 4 s one way, then back, jumping every 0.75 s.
fn actions(t: u64) -> Actions {
    let dir = if (t / 480).is_multiple_of(2) {
        1.0
    } else {
        -1.0
    };
    let jump = t % 90 < 20;
    Actions {
        move_axis: DVec2::new(dir, 0.0),
        jump,
        jump_pressed: t.is_multiple_of(90),
        crouch: false,
        attack_pressed: false,
    }
}

/// A world, its chunk table and a camera, driven frame by frame.
struct Scene {
    world: World,
    chunks: ChunkTable,
    backdrop: Backdrop,
    /// The movers and doors, placed by each frame's preparation.
    objects: ObjectMesh,
    view: View,
    frame: FrameData,
    lighting: Lighting,
    tick: u64,
}

impl Scene {
    fn new(level: &Level) -> Scene {
        let world = World::new(level, &Tuning::default()).expect("bench level builds");
        let chunks = LevelGeometry::build(level, &SlabConfig::default()).chunks;
        let view = View::new(&world, CameraConfig::default(), ASPECT);
        Scene {
            world,
            chunks,
            backdrop: Backdrop::for_level(level, &CameraConfig::default()),
            objects: ObjectMesh::build(level, &SlabConfig::default()),
            view,
            frame: FrameData::default(),
            lighting: Lighting::default(),
            tick: 0,
        }
    }

    /// One 60 Hz frame: two ticks, the camera, render preparation.
    fn frame(&mut self, overlay: bool) {
        for _ in 0..TICKS_PER_FRAME {
            self.world.step(&actions(self.tick));
            self.view.after_tick(&self.world);
            self.tick += 1;
        }
        self.view.frame(&self.world, 0.5, 1.0 / 60.0, ASPECT);
        self.view.set_overlay(overlay);
        let params = FrameParams {
            aspect: ASPECT,
            height: 720,
            chunks: &self.chunks,
            backdrop: &self.backdrop,
            lighting: &self.lighting,
            objects: &self.objects,
        };
        self.frame
            .prepare(&self.world, &self.view.snapshot(), &params);
        black_box(&self.frame);
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let big = if full { 10_000 } else { 500 };
    let default_level =
        load_level(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.ron"))
            .expect("levels/default.ron loads");
    let generated = generated_level(big);
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(4));
    for (name, level) in [
        ("default_level", &default_level),
        ("generated_10k", &generated),
    ] {
        let mut scene = Scene::new(level);
        c.bench_function(&format!("frame/{name}"), |b| b.iter(|| scene.frame(false)));
        let mut scene = Scene::new(level);
        c.bench_function(&format!("frame_overlay/{name}"), |b| {
            b.iter(|| scene.frame(true))
        });
        c.bench_function(&format!("static_geometry/{name}"), |b| {
            b.iter(|| black_box(LevelGeometry::build(level, &SlabConfig::default())))
        });
        if full {
            let g = LevelGeometry::build(level, &SlabConfig::default());
            println!(
                "{name}: {} polygons, {} vertices, {} triangles, {} chunks",
                level.polygons.len(),
                g.vertices.len(),
                g.indices.len() / 3,
                g.chunks.chunks.len()
            );
        }
    }
    type Generator = fn(usize) -> Level;
    let sizes: &[(&str, usize, Generator)] = if full {
        &[
            ("tiles_1k", 1_000, tile_level),
            ("tiles_10k", 10_000, tile_level),
            ("rocks_1k", 1_000, generated_level),
            ("rocks_10k", 10_000, generated_level),
        ]
    } else {
        &[
            ("tiles_1k", 500, tile_level),
            ("rocks_1k", 500, generated_level),
        ]
    };
    for &(name, n, make) in sizes {
        let level = make(n);
        let mut world = World::new(&level, &Tuning::default()).expect("the level builds");
        let mut session = EditorSession::new(level, None);
        // The edited polygon: one in the middle of the list, moved up and down by a grid cell.
        let polygon = n / 2;
        let mut up = true;
        c.bench_function(&format!("edit_to_playable/{name}"), |b| {
            b.iter(|| {
                let delta = DVec2::new(0.0, if up { 0.25 } else { -0.25 });
                up = !up;
                session
                    .edit(
                        Edit::MovePolygons {
                            polygons: vec![polygon],
                            delta,
                        },
                        DVec2::ZERO,
                    )
                    .expect("the edit is valid");
                world.set_level(&session.level()).expect("the level builds");
                black_box(LevelGeometry::build(
                    &session.level(),
                    &SlabConfig::default(),
                ))
            })
        });
        // The parts: the world alone (both meshes, the hero), the slabs alone.
        let edited = session.level().clone();
        c.bench_function(&format!("edit_to_playable/{name}/world"), |b| {
            b.iter(|| {
                world
                    .set_level(black_box(&edited))
                    .expect("the level builds")
            })
        });
        c.bench_function(&format!("edit_to_playable/{name}/slabs"), |b| {
            b.iter(|| black_box(LevelGeometry::build(&edited, &SlabConfig::default())))
        });
        // The same edit with the meshes chunked and rebuilt in part, made as the editor makes it:
        // in place on the world's level document, which the world then follows
        // (`World::level_edited`), on the level with three agents of the three sizes: five meshes
        // (the hero standing and crouching, small, medium, large).
        let mut level = session.level().clone();
        level.agents = [AgentSize::Small, AgentSize::Medium, AgentSize::Large]
            .into_iter()
            .enumerate()
            .map(|(k, size)| LevelAgent {
                kind: AgentKind::Idle,
                size,
                spawn: level.spawn + DVec2::new(2.0 * k as f64 + 2.0, 0.0),
                facing: 1.0,
                character: None,
                patrol: None,
            })
            .collect();
        // Where they were moved to (out of the tiles or rocks they overlap) is their spawn, so
        // that an edit does not move them again (a search of the whole mesh).
        let placed = World::new(&level, &Tuning::default()).expect("the level builds");
        for (a, placed) in level.agents.iter_mut().zip(placed.agents()) {
            a.spawn = placed.mover.body.pos;
        }
        let mut world = World::new(&level, &Tuning::default()).expect("the level builds");
        // The first edit builds the chunked meshes whole: timed once, printed.
        let first = std::time::Instant::now();
        world.edit_level(&level).expect("the level builds");
        println!(
            "{name}: the first edit (five chunked meshes built whole) took {:.1} ms",
            first.elapsed().as_secs_f64() * 1e3
        );
        let mut slabs = LevelGeometry::build(&level, &SlabConfig::default());
        let mut session = EditorSession::on(world.document(), None);
        c.bench_function(&format!("edit_to_playable/{name}/chunked"), |b| {
            b.iter(|| {
                let delta = DVec2::new(0.0, if up { 0.25 } else { -0.25 });
                up = !up;
                session
                    .edit(
                        Edit::MovePolygons {
                            polygons: vec![polygon],
                            delta,
                        },
                        DVec2::ZERO,
                    )
                    .expect("the edit is valid");
                world.level_edited().expect("the level builds");
                slabs.update(&session.level(), &SlabConfig::default());
                black_box(&slabs);
            })
        });
        c.bench_function(&format!("edit_to_playable/{name}/chunked_world"), |b| {
            b.iter(|| {
                let delta = DVec2::new(0.0, if up { 0.25 } else { -0.25 });
                up = !up;
                session
                    .edit(
                        Edit::MovePolygons {
                            polygons: vec![polygon],
                            delta,
                        },
                        DVec2::ZERO,
                    )
                    .expect("the edit is valid");
                world.level_edited().expect("the level builds")
            })
        });
        // One chunked mesh alone (the standing hero's).
        let mut polys = session.level().source_polygons();
        let config = MeshConfig::default();
        let stand = Tuning::default().stand_collider;
        let whole = std::time::Instant::now();
        black_box(tessera::collision::build_mesh(&polys, &stand, &config).expect("it builds"));
        let whole = whole.elapsed();
        let built = std::time::Instant::now();
        let mut mesh = build_chunked_mesh(&polys, &stand, &config, DEFAULT_CHUNK_SIZE)
            .expect("the level builds");
        println!(
            "{name}: one chunked mesh built whole in {:.1} ms (a whole build: {:.1} ms)",
            built.elapsed().as_secs_f64() * 1e3,
            whole.as_secs_f64() * 1e3
        );
        let id = polys[polygon].id;
        c.bench_function(&format!("edit_to_playable/{name}/chunked_mesh"), |b| {
            b.iter(|| {
                let dy = if up { 0.25 } else { -0.25 };
                up = !up;
                for p in &mut polys[polygon].points {
                    p.y += dy;
                }
                black_box(
                    mesh.rebuild_polygons(&polys, &[id], &config)
                        .expect("the level builds"),
                )
            })
        });
    }
    c.final_summary();
}
