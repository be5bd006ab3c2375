//! Collision-core and movement-step benchmarks (issues 3 and 4). Results: `BENCHMARKS.md`.
//!
//! Run with `cargo bench --bench collision` (release profile). Groups:
//! - `moves_floor400`: one body running back and forth on a floor of 400 separate unit tiles at
//!   8 m/s, 120 Hz, gravity pressing down. Tessera's `move_and_slide` next to Rapier's
//!   `KinematicCharacterController::move_shape` on the same tiles (cuboid colliders) with the same
//!   0.8 × 1.8 m box and the same displacements, plus one full `Hero::step`.
//! - `moves_scatter10k`: 10 000 unit tiles scattered on a 200 × 200 grid (fixed seed), a
//!   pseudo-random walk of 0.07 m moves from a free spot in the largest free region, same three
//!   contenders (the hero both in platformer mode with random inputs and in top-down mode).
//! - `scaling_random_walk`: the scatter workload (same 25 % tile density) on 100 … 100 000 tiles.
//! - `build`: `CollisionWorld::new` (standing + crouching mesh, two threads) and single-mesh
//!   `build_mesh`, on the scatter levels of 1 000 and 10 000 tiles, each timed without dropping
//!   its result; and dropping a world, timed on its own.
//! - `long_outline`: one long concave outline (a freehand cave wall or imported hillside) above a
//!   floor, 1 000, 5 000 and 20 000 vertices: a comb-shaped strip with narrow teeth and a noisy
//!   round blob. `CollisionWorld::new` with the shipped stand and crouch colliders (two threads)
//!   and single-mesh `build_mesh` with the stand collider.
//! - `dense`: outlines whose detail is far below the collider's size: a 1 km × 1 m slab whose
//!   right end is a zigzag of 20 000 teeth 1 µm deep (every tooth's inflation overlaps every
//!   other's), and slabs whose top is a zigzag of 1 mm teeth 0.5 mm deep, 20 m (20 000 points)
//!   and 200 m (200 000 points) long; and 20 000-point zigzags of teeth 2 mm deep, 1 mm apart
//!   (narrow enough to fill), and 1 cm deep, 6 mm apart (not filled). `CollisionWorld::new` with
//!   the shipped colliders; the peak
//!   heap of one build, counted by this binary's allocator (`Counting`), is printed first.
//! - `agents`: 100 rows of 100 unit tiles (10 000 polygons) and 1 000 patrolling agents of the
//!   small, medium and large size classes: one `World::step` (the hero idle, then every agent's
//!   patrol probes and state-machine step), `World::new`, which builds the five meshes (the
//!   hero's two, one per size class) in parallel threads, and `World::set_door` on one of eight
//!   doors (the gate flipped in the five meshes, every character checked).
//! - `enemies`: the default level with 100 enemies (crawlers, hoppers and brutes, a third each)
//!   along the tour's path, the hero running the tour among them: one `World::step` with every
//!   enemy's behaviour and every rule of play (hits, stomps, hazards, checkpoints, respawns).
//!
//! Every move benchmark runs `BATCH` moves per iteration on persistent state and reports
//! throughput in moves (elements) per second. Memory per mesh and, at the end, the medians and the
//! ratios against Rapier measured in the same run are printed. Under `cargo test --benches` (no
//! `--bench` argument) each benchmark runs once on small levels, as a smoke test.
//!
//! Environment:
//! - `TESSERA_BENCH_CLOCK=cpu`: measure the benchmark thread's CPU time instead of wall-clock time
//!   (Linux; for a shared, busy machine; the two-thread world builds are skipped). Results are
//!   stored under `<group>_cpu`.
//! - `TESSERA_BENCH_MILLION=1`: the `dense` group also builds 10⁶ random squares.
//! - `TESSERA_BENCH_GROUPS=moves_floor400,build,…` (and `memory`): run only these groups, setup
//!   included (criterion's own filter still runs every group's setup). `benches/instructions.sh`
//!   uses it to count instructions per move under callgrind.
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{BatchSize, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use glam::DVec2;
#[cfg(feature = "rapier")]
use rapier2d::control::KinematicCharacterController;
#[cfg(feature = "rapier")]
use rapier2d::geometry::{ColliderBuilder, Cuboid};
#[cfg(feature = "rapier")]
use rapier2d::math::{Pose, Vector};
#[cfg(feature = "rapier")]
use rapier2d::pipeline::PhysicsWorld;

use tessera::collision::{
    build_mesh, Aabb, Body, ColliderId, ColliderShape, CollisionMesh, CollisionWorld, Face,
    FaceKind, MeshConfig, MoveOptions, PolygonId, Solidity, SourcePolygon,
};
use tessera::movement::{Actions, Env, Hero, StepReport, Tuning};

/// Moves per benchmark iteration.
const BATCH: u64 = 1000;

// ---------------------------------------------------------------------------------------------
// Deterministic inputs.

#[path = "common/inputs.rs"]
mod inputs;
use inputs::{
    box_collider, floor_tiles, hero_tuning, locate_free, rect, scatter_feet_bounds, scatter_tiles,
    spawn_in_largest_region, Rng, COLLIDER, CROUCH_COLLIDER, DT, FLOOR_TILES, GRAVITY, RUN_SPEED,
    SEED, WALK_STEP,
};

/// A level: source polygons, the body-space bounds for our mesh (`None`: automatic), and the
/// extra solid boxes that give Rapier the same bounds.
struct Level {
    polygons: Vec<SourcePolygon>,
    bounds: Option<Aabb>,
    #[cfg_attr(not(feature = "rapier"), allow(dead_code))]
    walls: Vec<(DVec2, DVec2)>,
}

impl Level {
    fn config(&self) -> MeshConfig {
        MeshConfig {
            bounds: self.bounds,
            ..MeshConfig::default()
        }
    }
}

/// `n` separate unit tiles side by side: x in `[0, n]`, top at y = 0.
fn floor(n: usize) -> Level {
    Level {
        polygons: floor_tiles(n),
        bounds: None,
        walls: Vec::new(),
    }
}

/// `n` unit tiles on distinct cells of a square grid filled to 25 % (200 × 200 for 10 000),
/// enclosed: the collider must stay inside the grid square (our mesh: explicit bounds for the
/// feet; Rapier: four walls).
fn scatter(n: usize, seed: u64) -> Level {
    let (polygons, s) = scatter_tiles(n, seed);
    Level {
        polygons,
        bounds: Some(scatter_feet_bounds(s)),
        walls: vec![
            (DVec2::new(-1.0, -1.0), DVec2::new(0.0, s + 1.0)),
            (DVec2::new(s, -1.0), DVec2::new(s + 1.0, s + 1.0)),
            (DVec2::new(0.0, -1.0), DVec2::new(s, 0.0)),
            (DVec2::new(0.0, s), DVec2::new(s, s + 1.0)),
        ],
    }
}

/// A strip 1 m high with narrow teeth along its top (widths and gaps 0.25 or 0.5 m, heights
/// 0.5 … 3 m in 0.25 m steps, fixed seed): `n` points (even, at least 6), counter-clockwise.
/// `(n - 2) / 4` teeth; when `n` is a multiple of 4, a notch at the right end adds two points.
fn comb_outline(n: usize, seed: u64) -> Vec<DVec2> {
    assert!(n >= 6 && n.is_multiple_of(2));
    let mut rng = Rng(seed);
    let mut profile: Vec<(f64, f64, f64)> = Vec::new();
    let mut x = 0.0;
    for _ in 0..(n - 2) / 4 {
        let w = 0.25 * (1 + rng.below(2)) as f64;
        let g = 0.25 * (1 + rng.below(2)) as f64;
        let h = 0.5 + 0.25 * rng.below(11) as f64;
        profile.push((x, x + w, 1.0 + h));
        x += w;
        profile.push((x, x + g, 1.0));
        x += g;
    }
    let mut pts = vec![DVec2::new(0.0, 0.0), DVec2::new(x, 0.0)];
    if n.is_multiple_of(4) {
        pts.extend([DVec2::new(x, 0.5), DVec2::new(x - 0.125, 0.5)]);
        profile.last_mut().unwrap().1 = x - 0.125;
    }
    for &(start, end, level) in profile.iter().rev() {
        pts.push(DVec2::new(end, level));
        pts.push(DVec2::new(start, level));
    }
    debug_assert_eq!(pts.len(), n);
    pts
}

/// A circle of `n` points 0.5 m apart with ±0.5 m of radius noise (fixed seed), centred on the
/// origin: star-shaped around it, so simple.
fn blob_outline(n: usize, seed: u64) -> Vec<DVec2> {
    let mut rng = Rng(seed);
    let r0 = n as f64 * 0.5 / std::f64::consts::TAU;
    (0..n)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / n as f64;
            let r = r0 + rng.unit() - 0.5;
            DVec2::new(r * t.cos(), r * t.sin())
        })
        .collect()
}

/// One outline (polygon 0) above a floor slab 2 m below its box (polygon 1), automatic bounds.
fn outline_level(outline: Vec<DVec2>) -> Level {
    let b = Aabb::from_points(outline.iter().copied());
    Level {
        polygons: vec![
            SourcePolygon {
                id: PolygonId(0),
                kind: Solidity::Solid,
                points: outline,
            },
            rect(
                1,
                b.min.x - 5.0,
                b.min.y - 3.0,
                b.max.x + 5.0,
                b.min.y - 2.0,
            ),
        ],
        bounds: None,
        walls: Vec::new(),
    }
}

/// Displacements of a run along the floor: 8 m/s at 120 Hz, pressed down by one tick of gravity,
/// turning around at the floor's ends (decided by each engine's own position).
#[derive(Clone)]
struct FloorRun {
    dir: f64,
    min_x: f64,
    max_x: f64,
}

impl FloorRun {
    fn new(tiles: usize) -> Self {
        FloorRun {
            dir: 1.0,
            min_x: 1.0,
            max_x: tiles as f64 - 1.0,
        }
    }
    fn next(&mut self, x: f64) -> DVec2 {
        if x >= self.max_x {
            self.dir = -1.0;
        } else if x <= self.min_x {
            self.dir = 1.0;
        }
        DVec2::new(self.dir * RUN_SPEED * DT, -GRAVITY * DT * DT)
    }
}

/// A pseudo-random walk: 0.07 m moves, a new random heading every 8 to 31 moves.
#[derive(Clone)]
struct RandomWalk {
    rng: Rng,
    heading: DVec2,
    left: u64,
}

impl RandomWalk {
    fn new(seed: u64) -> Self {
        RandomWalk {
            rng: Rng(seed),
            heading: DVec2::X,
            left: 0,
        }
    }
    fn next(&mut self) -> DVec2 {
        if self.left == 0 {
            let a = self.rng.unit() * std::f64::consts::TAU;
            self.heading = DVec2::new(a.cos(), a.sin());
            self.left = 8 + self.rng.below(24);
        }
        self.left -= 1;
        self.heading * WALK_STEP
    }
}

// ---------------------------------------------------------------------------------------------
// Tessera.

/// Our body with the floor run.
struct OurFloor<'a> {
    mesh: &'a CollisionMesh,
    body: Body,
    run: FloorRun,
}

impl OurFloor<'_> {
    #[inline(never)]
    fn moves(&mut self, n: u64) -> f64 {
        let mut travelled = 0.0;
        for _ in 0..n {
            let d = self.run.next(self.body.pos.x);
            let r = self
                .mesh
                .move_and_slide(self.body, black_box(d), MoveOptions::default());
            travelled += r.travelled;
            self.body = r.body;
        }
        travelled
    }
}

/// Our body with the random walk.
struct OurWalk<'a> {
    mesh: &'a CollisionMesh,
    body: Body,
    walk: RandomWalk,
}

impl OurWalk<'_> {
    #[inline(never)]
    fn moves(&mut self, n: u64) -> f64 {
        let mut travelled = 0.0;
        for _ in 0..n {
            let d = self.walk.next();
            let r = self
                .mesh
                .move_and_slide(self.body, black_box(d), MoveOptions::default());
            travelled += r.travelled;
            self.body = r.body;
        }
        travelled
    }
}

/// Raw moves of a jumping body (issue 26, goal 7: airborne moves crossing a dense field): each
/// move is one 120 Hz tick of a ballistic arc (gravity 40 m/s², capped at 20 m/s down), slid
/// along what it meets; on ground (a contact facing up) it jumps again at 14 m/s with a fresh
/// pseudo-random horizontal speed of up to ±8 m/s; a wall or ceiling takes the speed into it;
/// back to the start every 480 moves (4 s: the arcs stay among the tiles). Counts the moves'
/// contacts, so the work is visible.
struct OurJumps<'a> {
    mesh: &'a CollisionMesh,
    start: Body,
    body: Body,
    vel: DVec2,
    rng: Rng,
    count: u64,
    contacts: u64,
}

impl<'a> OurJumps<'a> {
    fn new(mesh: &'a CollisionMesh, start: DVec2, seed: u64) -> Self {
        let body = locate_free(mesh, start);
        OurJumps {
            mesh,
            start: body,
            body,
            vel: DVec2::ZERO,
            rng: Rng(seed),
            count: 0,
            contacts: 0,
        }
    }

    #[inline(never)]
    fn moves(&mut self, n: u64) -> f64 {
        const DT: f64 = 1.0 / 120.0;
        let mut travelled = 0.0;
        for _ in 0..n {
            self.count += 1;
            if self.count.is_multiple_of(480) {
                self.body = self.start;
                self.vel = DVec2::ZERO;
            }
            self.vel.y = (self.vel.y - 40.0 * DT).max(-20.0);
            let r = self.mesh.move_and_slide(
                self.body,
                black_box(self.vel * DT),
                MoveOptions::default(),
            );
            travelled += r.travelled;
            self.contacts += r.contacts.len() as u64;
            for c in &r.contacts {
                let into = self.vel.dot(c.normal);
                if into < 0.0 {
                    self.vel -= c.normal * into;
                }
            }
            if r.contacts.iter().any(|c| c.normal.y > 0.5) {
                self.vel = DVec2::new((self.rng.unit() * 2.0 - 1.0) * 8.0, 14.0);
            }
            self.body = r.body;
        }
        travelled
    }
}

// ---------------------------------------------------------------------------------------------
// Rapier (with `--features rapier`: the comparison BENCHMARKS.md's ratios come from; off by
// default, so that test builds do not compile Rapier, parry and nalgebra).

/// The same level as cuboid colliders in a Rapier world (broad phase built by one step).
#[cfg(feature = "rapier")]
struct RapierLevel {
    world: PhysicsWorld,
}

#[cfg(feature = "rapier")]
impl RapierLevel {
    fn new(level: &Level) -> Self {
        let mut world = PhysicsWorld::new();
        let boxes = level
            .polygons
            .iter()
            .map(|p| {
                let b = Aabb::from_points(p.points.iter().copied());
                (b.min, b.max)
            })
            .chain(level.walls.iter().copied());
        for (min, max) in boxes {
            let (c, h) = ((min + max) / 2.0, (max - min) / 2.0);
            world.insert_collider(
                ColliderBuilder::cuboid(h.x as f32, h.y as f32)
                    .translation(Vector::new(c.x as f32, c.y as f32)),
                None,
            );
        }
        world.step();
        RapierLevel { world }
    }
}

/// A Rapier character: a cuboid of the collider's size, position = centre of the box.
#[cfg(feature = "rapier")]
struct RapierBody<'a> {
    level: &'a RapierLevel,
    controller: KinematicCharacterController,
    shape: Cuboid,
    centre: Vector,
}

#[cfg(feature = "rapier")]
impl<'a> RapierBody<'a> {
    fn new(level: &'a RapierLevel, feet: DVec2) -> Self {
        let half = Vector::new(COLLIDER.0 as f32 / 2.0, COLLIDER.1 as f32 / 2.0);
        RapierBody {
            level,
            controller: KinematicCharacterController::default(),
            shape: Cuboid::new(half),
            centre: Vector::new(feet.x as f32, feet.y as f32) + Vector::new(0.0, half.y),
        }
    }
    fn feet(&self) -> DVec2 {
        DVec2::new(
            self.centre.x as f64,
            (self.centre.y - self.shape.half_extents.y) as f64,
        )
    }
    fn step(&mut self, d: DVec2) -> f64 {
        let queries = self.level.world.query_pipeline();
        let m = self.controller.move_shape(
            DT as f32,
            &queries,
            &self.shape,
            &Pose::from_translation(self.centre),
            black_box(Vector::new(d.x as f32, d.y as f32)),
            |_| {},
        );
        self.centre += m.translation;
        m.translation.length() as f64
    }
}

#[cfg(feature = "rapier")]
struct RapierFloor<'a> {
    body: RapierBody<'a>,
    run: FloorRun,
}

#[cfg(feature = "rapier")]
impl RapierFloor<'_> {
    #[inline(never)]
    fn moves(&mut self, n: u64) -> f64 {
        let mut travelled = 0.0;
        for _ in 0..n {
            let d = self.run.next(self.body.feet().x);
            travelled += self.body.step(d);
        }
        travelled
    }
}

#[cfg(feature = "rapier")]
struct RapierWalk<'a> {
    body: RapierBody<'a>,
    walk: RandomWalk,
}

#[cfg(feature = "rapier")]
impl RapierWalk<'_> {
    #[inline(never)]
    fn moves(&mut self, n: u64) -> f64 {
        let mut travelled = 0.0;
        for _ in 0..n {
            let d = self.walk.next();
            travelled += self.body.step(d);
        }
        travelled
    }
}

// ---------------------------------------------------------------------------------------------
// Full movement step (issue 4).

fn hero_world(level: &Level, t: &Tuning) -> CollisionWorld {
    CollisionWorld::new(
        &level.polygons,
        &[t.stand_collider.clone(), t.crouch_collider.clone()],
        level.config(),
    )
    .expect("hero world builds")
}

/// How the hero bench picks inputs.
enum Script {
    /// Run right to the floor's end, then left, and so on.
    FloorRun(FloorRun),
    /// Random holds of left/none/right with jumps (platformer) or random 8-way directions
    /// (top-down); respawn every `respawn` steps so a platformer hero does not settle at the
    /// bottom of the level.
    Random {
        rng: Rng,
        held: Actions,
        left: u64,
        top_down: bool,
        respawn: u64,
        since_spawn: u64,
    },
}

struct HeroRun<'a> {
    env: Env<'a>,
    tuning: Tuning,
    hero: Hero,
    /// The hero as spawned: respawning restores it (spawning is deterministic, and its point
    /// location is not part of a step).
    spawned: Hero,
    script: Script,
    report: StepReport,
}

impl<'a> HeroRun<'a> {
    fn new(world: &'a CollisionWorld, tuning: Tuning, spawn: DVec2, script: Script) -> Self {
        let env = Env::new(world, &[]);
        let (hero, moved) = Hero::spawn(&env, spawn, &tuning).expect("hero spawns");
        assert!(moved == 0.0, "hero spawn {spawn:?} is not free");
        HeroRun {
            env,
            tuning,
            spawned: hero.clone(),
            hero,
            script,
            report: StepReport::default(),
        }
    }

    fn actions(&mut self) -> Actions {
        match &mut self.script {
            Script::FloorRun(run) => Actions {
                move_axis: DVec2::new(run.next(self.hero.body.pos.x).x.signum(), 0.0),
                ..Actions::default()
            },
            Script::Random {
                rng,
                held,
                left,
                top_down,
                respawn,
                since_spawn,
            } => {
                *since_spawn += 1;
                if *since_spawn >= *respawn {
                    *since_spawn = 0;
                    self.hero = self.spawned.clone();
                }
                let mut a = *held;
                a.jump_pressed = false;
                if *left == 0 {
                    *left = 15 + rng.below(45);
                    a = if *top_down {
                        let k = rng.below(8) as f64 * std::f64::consts::FRAC_PI_4;
                        Actions {
                            move_axis: DVec2::new(k.cos(), k.sin()),
                            ..Actions::default()
                        }
                    } else {
                        let jump = rng.below(3) == 0;
                        Actions {
                            move_axis: DVec2::new(rng.below(3) as f64 - 1.0, 0.0),
                            jump,
                            jump_pressed: jump,
                            crouch: false,
                            attack_pressed: false,
                        }
                    };
                    *held = a;
                }
                *left -= 1;
                a
            }
        }
    }

    #[inline(never)]
    fn steps(&mut self, n: u64) -> f64 {
        let mut travelled = 0.0;
        for _ in 0..n {
            let a = self.actions();
            self.hero
                .step(&self.env, black_box(&a), &self.tuning, DT, &mut self.report);
            travelled += self.report.moved.length();
        }
        travelled
    }
}

// ---------------------------------------------------------------------------------------------
// Benchmarks.

/// Whether criterion measures (`cargo bench` passes `--bench`); otherwise it is a smoke test.
fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// Whether `TESSERA_BENCH_CLOCK=cpu` asks for thread CPU time instead of wall-clock time.
fn cpu_clock() -> bool {
    std::env::var("TESSERA_BENCH_CLOCK").is_ok_and(|v| v == "cpu")
}

/// The calling thread's time on a CPU, ns (`/proc/thread-self/schedstat`; the kernel updates it at
/// every scheduler tick and context switch, so a reading lags by up to one tick, ~4 ms here).
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .expect("/proc/thread-self/schedstat (Linux) is needed for TESSERA_BENCH_CLOCK=cpu")
}

/// Criterion measurement of the benchmark thread's CPU time: on a shared machine it leaves out the
/// time other processes hold the CPU, which wall-clock time includes. Single-threaded benchmarks
/// only (the two-thread `CollisionWorld::new` is skipped under it). Used with flat sampling so
/// every sample is long (≥ 100 ms) next to the tick-sized lag of a reading.
struct ThreadCpuTime {
    wall: WallTime,
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        self.wall.formatter()
    }
}

/// Group-name suffix of the clock in use, so wall and CPU results are stored side by side.
fn clock_suffix() -> &'static str {
    if cpu_clock() {
        "_cpu"
    } else {
        ""
    }
}

/// A benchmark group named for the clock in use (flat sampling under the CPU clock).
fn group<'a, M: Measurement>(c: &'a mut Criterion<M>, name: &str) -> BenchmarkGroup<'a, M> {
    let mut g = c.benchmark_group(format!("{name}{}", clock_suffix()));
    if cpu_clock() {
        g.sampling_mode(SamplingMode::Flat);
    }
    g
}

/// Small sample counts so the whole run takes a few minutes on 2 cores; command-line options
/// (`--sample-size`, `--measurement-time`, …) still override these.
fn configure<M: Measurement>(c: Criterion<M>) -> Criterion<M> {
    c.sample_size(20)
        .warm_up_time(Duration::from_millis(800))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}

fn moves_floor<M: Measurement>(c: &mut Criterion<M>) {
    let level = floor(FLOOR_TILES);
    let mesh = build_mesh(&level.polygons, &box_collider(COLLIDER), &level.config()).unwrap();
    #[cfg(feature = "rapier")]
    let rapier = RapierLevel::new(&level);
    let start = DVec2::new(1.0, 0.0);
    let mut ours = OurFloor {
        mesh: &mesh,
        body: locate_free(&mesh, start),
        run: FloorRun::new(FLOOR_TILES),
    };
    // Start Rapier's box a little above the floor: its controller keeps a small gap.
    #[cfg(feature = "rapier")]
    let mut theirs = RapierFloor {
        body: RapierBody::new(&rapier, start + DVec2::new(0.0, 0.02)),
        run: FloorRun::new(FLOOR_TILES),
    };
    let tuning = hero_tuning(false);
    let world = hero_world(&level, &tuning);
    let mut hero = HeroRun::new(
        &world,
        tuning,
        start,
        Script::FloorRun(FloorRun::new(FLOOR_TILES)),
    );
    #[cfg(feature = "rapier")]
    let theirs_path = Some(theirs.moves(BATCH));
    #[cfg(not(feature = "rapier"))]
    let theirs_path = None;
    sanity(
        "floor400",
        ours.moves(BATCH),
        theirs_path,
        hero.steps(BATCH),
        RUN_SPEED * DT,
    );

    let mut g = group(c, "moves_floor400");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("tessera_move_and_slide", |b| b.iter(|| ours.moves(BATCH)));
    #[cfg(feature = "rapier")]
    g.bench_function("rapier_move_shape", |b| b.iter(|| theirs.moves(BATCH)));
    g.bench_function("tessera_hero_step", |b| b.iter(|| hero.steps(BATCH)));
    g.finish();
}

fn moves_scatter<M: Measurement>(c: &mut Criterion<M>) {
    let n = if measuring() { 10_000 } else { 400 };
    let level = scatter(n, SEED);
    let mesh = build_mesh(&level.polygons, &box_collider(COLLIDER), &level.config()).unwrap();
    let (spawn, area, faces) = spawn_in_largest_region(&mesh);
    println!(
        "scatter{n}: {} faces; spawn {spawn:.3} in the largest free region ({area:.1} m², {faces} faces)",
        mesh.num_faces()
    );
    #[cfg(feature = "rapier")]
    let rapier = RapierLevel::new(&level);
    let mut ours = OurWalk {
        mesh: &mesh,
        body: locate_free(&mesh, spawn),
        walk: RandomWalk::new(SEED + 1),
    };
    #[cfg(feature = "rapier")]
    let mut theirs = RapierWalk {
        body: RapierBody::new(&rapier, spawn),
        walk: RandomWalk::new(SEED + 1),
    };
    let random = |top_down, respawn| Script::Random {
        rng: Rng(SEED + 2),
        held: Actions::default(),
        left: 0,
        top_down,
        respawn,
        since_spawn: 0,
    };
    let tuning = hero_tuning(false);
    let world = hero_world(&level, &tuning);
    let mut hero = HeroRun::new(&world, tuning, spawn, random(false, 480));
    let td_tuning = hero_tuning(true);
    let mut hero_td = HeroRun::new(&world, td_tuning, spawn, random(true, u64::MAX));
    #[cfg(feature = "rapier")]
    let theirs_path = Some(theirs.moves(BATCH));
    #[cfg(not(feature = "rapier"))]
    let theirs_path = None;
    sanity(
        &format!("scatter{n}"),
        ours.moves(BATCH),
        theirs_path,
        hero.steps(BATCH),
        WALK_STEP,
    );
    println!(
        "  hero top-down: {:.4} m/step",
        hero_td.steps(BATCH) / BATCH as f64
    );

    let mut g = group(c, "moves_scatter10k");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("tessera_move_and_slide", |b| b.iter(|| ours.moves(BATCH)));
    #[cfg(feature = "rapier")]
    g.bench_function("rapier_move_shape", |b| b.iter(|| theirs.moves(BATCH)));
    g.bench_function("tessera_hero_step", |b| b.iter(|| hero.steps(BATCH)));
    g.bench_function("tessera_hero_step_top_down", |b| {
        b.iter(|| hero_td.steps(BATCH))
    });
    // Jumps crossing the field (issue 26, goal 7), against the same jumps on the floor level.
    let mut jumps = OurJumps::new(&mesh, spawn, SEED + 3);
    let floor_level = floor(FLOOR_TILES);
    let floor_mesh = build_mesh(
        &floor_level.polygons,
        &box_collider(COLLIDER),
        &floor_level.config(),
    )
    .unwrap();
    let mut floor_jumps = OurJumps::new(
        &floor_mesh,
        DVec2::new(FLOOR_TILES as f64 / 2.0, 0.0),
        SEED + 3,
    );
    let (a, b) = (jumps.moves(BATCH), floor_jumps.moves(BATCH));
    println!(
        "  jumps: {:.4} m and {:.3} contacts per move on scatter{n}, {:.4} m and {:.3} on the floor",
        a / BATCH as f64,
        jumps.contacts as f64 / BATCH as f64,
        b / BATCH as f64,
        floor_jumps.contacts as f64 / BATCH as f64
    );
    g.bench_function("tessera_jumps", |b| b.iter(|| jumps.moves(BATCH)));
    g.bench_function("tessera_jumps_on_floor", |b| {
        b.iter(|| floor_jumps.moves(BATCH))
    });
    g.finish();
}

/// Prints how far each contender got per move, so it is visible they did comparable work.
/// (`theirs`: Rapier's, `None` without `--features rapier`.)
fn sanity(name: &str, ours: f64, theirs: Option<f64>, hero: f64, asked: f64) {
    let per = |t: f64| t / BATCH as f64;
    let rapier = theirs.map_or("not built (--features rapier)".to_string(), |t| {
        format!("{:.4} m", per(t))
    });
    println!(
        "{name}: mean path per move over the first {BATCH} (asked {asked:.4} m): tessera {:.4} m, \
         rapier {rapier}, hero step {:.4} m",
        per(ours),
        per(hero)
    );
}

const SCALING_SIZES: [usize; 4] = [100, 1_000, 10_000, 100_000];

fn scaling<M: Measurement>(c: &mut Criterion<M>) {
    let sizes: &[usize] = if measuring() {
        &SCALING_SIZES
    } else {
        &SCALING_SIZES[..2]
    };
    let mut g = group(c, "scaling_random_walk");
    g.throughput(Throughput::Elements(BATCH));
    for &n in sizes {
        let level = scatter(n, SEED);
        let mesh = build_mesh(&level.polygons, &box_collider(COLLIDER), &level.config()).unwrap();
        let (spawn, area, faces) = spawn_in_largest_region(&mesh);
        let mut ours = OurWalk {
            mesh: &mesh,
            body: locate_free(&mesh, spawn),
            walk: RandomWalk::new(SEED + 1),
        };
        println!(
            "scaling {n}: {} faces, largest free region {area:.1} m² ({faces} faces), \
             mean path per move {:.4} m",
            mesh.num_faces(),
            ours.moves(BATCH) / BATCH as f64
        );
        g.bench_with_input(BenchmarkId::new("tessera_move_and_slide", n), &n, |b, _| {
            b.iter(|| ours.moves(BATCH))
        });
    }
    g.finish();
}

const BUILD_SIZES: [usize; 2] = [1_000, 10_000];

fn build<M: Measurement>(c: &mut Criterion<M>) {
    let sizes: &[usize] = if measuring() {
        &BUILD_SIZES
    } else {
        &BUILD_SIZES[..1]
    };
    let boxes = [box_collider(COLLIDER), box_collider(CROUCH_COLLIDER)];
    let [stand, crouch] = &boxes;
    let tuned = Tuning::default();
    let shipped = [tuned.stand_collider, tuned.crouch_collider];
    let mut g = group(c, "build");
    g.sample_size(10);
    for &n in sizes {
        let level = scatter(n, SEED);
        let config = level.config();
        let world = |shapes: &[ColliderShape]| {
            CollisionWorld::new(black_box(&level.polygons), shapes, config.clone()).unwrap()
        };
        g.throughput(Throughput::Elements(n as u64));
        // The build rows time the build only: the result is dropped outside the timing
        // (`iter_with_large_drop`), and dropping a world is its own row below. (Up to the fifth
        // session every build row included dropping the previous result, 2.5–4 ms at 10 000 tiles.)
        // Two threads: wall-clock latency only.
        if !cpu_clock() {
            g.bench_with_input(BenchmarkId::new("world_two_boxes", n), &n, |b, _| {
                b.iter_with_large_drop(|| world(&boxes))
            });
            g.bench_with_input(
                BenchmarkId::new("world_two_tuned_colliders", n),
                &n,
                |b, _| b.iter_with_large_drop(|| world(&shipped)),
            );
        }
        for (name, shape) in [
            ("build_mesh_stand_box", stand),
            ("build_mesh_crouch_box", crouch),
        ] {
            g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter_with_large_drop(|| {
                    build_mesh(black_box(&level.polygons), shape, &config).unwrap()
                })
            });
        }
        // What replacing a world costs on top of building the new one (an editor's rebuild drops
        // the old world).
        g.bench_with_input(
            BenchmarkId::new("drop_world_tuned_colliders", n),
            &n,
            |b, _| b.iter_batched(|| world(&shipped), drop, BatchSize::PerIteration),
        );
    }
    g.finish();
}

/// Counts the heap in use and its peak, so the benches can report the peak memory of a build.
struct Counting;

static IN_USE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static PEAK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// The one unsafe code of the project, in a bench: a global allocator is an unsafe trait.
// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = unsafe { std::alloc::System.alloc(layout) };
        if !p.is_null() {
            count_alloc(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            IN_USE.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
            count_alloc(new_size);
        }
        p
    }
}

fn count_alloc(size: usize) {
    use std::sync::atomic::Ordering::Relaxed;
    let now = IN_USE.fetch_add(size, Relaxed) + size;
    PEAK.fetch_max(now, Relaxed);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak heap, bytes above what was in use before, while `f` runs.
fn peak_heap<T>(f: impl FnOnce() -> T) -> (T, usize) {
    use std::sync::atomic::Ordering::Relaxed;
    let before = IN_USE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed) - before)
}

/// A slab from x = 0 to `len`, y = −1 to 0, whose top is a zigzag of `points` points, teeth
/// `depth` m high (counter-clockwise).
fn zigzag_top(len: f64, points: usize, depth: f64) -> Vec<DVec2> {
    let mut v = vec![DVec2::new(0.0, -1.0), DVec2::new(len, -1.0)];
    for i in 0..points {
        let x = len - (i as f64 + 0.5) * len / points as f64;
        v.push(DVec2::new(x, if i % 2 == 0 { depth } else { 0.0 }));
    }
    v
}

/// A 1 km × 1 m slab whose right end is a zigzag of `teeth` teeth `depth` m deep.
fn zigzag_end(teeth: usize, depth: f64) -> Vec<DVec2> {
    let mut v = vec![DVec2::new(0.0, -1.0), DVec2::new(1000.0, -1.0)];
    for i in 0..teeth {
        let y = -1.0 + (i + 1) as f64 / (teeth + 1) as f64;
        v.push(DVec2::new(1000.0 + if i % 2 == 0 { depth } else { 0.0 }, y));
    }
    v.push(DVec2::new(1000.0, 0.0));
    v.push(DVec2::new(0.0, 0.0));
    v
}

/// `n` random squares of side 0.1 … 3 m, uniformly placed (overlaps allowed) over a square of
/// side `side` m: the 200 000 squares over 10 km × 10 km.
fn random_squares(n: usize, side: f64, seed: u64) -> Level {
    let mut rng = Rng(seed);
    let polygons = (0..n)
        .map(|id| {
            let s = 0.1 + 2.9 * rng.unit();
            let (x, y) = (rng.unit() * side, rng.unit() * side);
            rect(id, x, y, x + s, y + s)
        })
        .collect();
    Level {
        polygons,
        bounds: None,
        walls: Vec::new(),
    }
}

/// `n` triangles 1 µm thick and 100 m long from the origin, at equal angles.
fn sliver_fan(n: usize) -> Level {
    let polygons = (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            let d = DVec2::new(a.cos(), a.sin());
            SourcePolygon {
                id: PolygonId(i as u32),
                kind: Solidity::Solid,
                points: vec![DVec2::ZERO, 100.0 * d, 100.0 * d + 1e-6 * d.perp()],
            }
        })
        .collect();
    Level {
        polygons,
        bounds: None,
        walls: Vec::new(),
    }
}

fn dense<M: Measurement>(c: &mut Criterion<M>) {
    let shapes: Vec<(&str, usize, Vec<DVec2>)> = if measuring() {
        vec![
            ("teeth_1um_end", 20_000, zigzag_end(20_000, 1e-6)),
            ("zigzag_1mm_top", 20_000, zigzag_top(20.0, 20_000, 0.5e-3)),
            (
                "zigzag_1mm_top",
                200_000,
                zigzag_top(200.0, 200_000, 0.5e-3),
            ),
            // Deep but narrow (filled: mouths of 1 mm), and deep and too wide to fill (tips 6 mm
            // apart: each tooth's inflation overlaps about a hundred others').
            (
                "teeth_2mm_deep_1mm_apart",
                20_000,
                zigzag_top(10.0, 20_000, 2e-3),
            ),
            (
                "teeth_1cm_deep_6mm_apart",
                20_000,
                zigzag_top(60.0, 20_000, 1e-2),
            ),
            // Just wider apart than the fill's mouth: the most overlap per tooth (about 200 for
            // the 0.6 m stand collider) that reaches the splitting stage.
            (
                "teeth_1cm_deep_3mm_apart",
                20_000,
                zigzag_top(30.0, 20_000, 1e-2),
            ),
        ]
    } else {
        vec![("teeth_1um_end", 2_000, zigzag_end(2_000, 1e-6))]
    };
    let tuned = Tuning::default();
    let shipped = [tuned.stand_collider, tuned.crouch_collider];
    let mut g = group(c, "dense");
    g.sample_size(10);
    for (shape, n, outline) in shapes {
        bench_world_build(&mut g, shape, n, &outline_level(outline), &shipped);
    }
    // 2 000 slivers 1 µm thick and 100 m long, fanned around one point: separate polygons whose
    // inflations all overlap near the centre.
    let fan_n = if measuring() { 2_000 } else { 200 };
    bench_world_build(&mut g, "sliver_fan", fan_n, &sliver_fan(fan_n), &shipped);
    // Many ordinary polygons at the density of the 200 000 squares over 10 km × 10 km.
    // TESSERA_BENCH_MILLION=1 adds 10⁶ squares (the size goal: memory, not a timing to repeat).
    let million = std::env::var_os("TESSERA_BENCH_MILLION").is_some_and(|v| v == "1");
    let squares: &[usize] = match (measuring(), million) {
        (true, true) => &[20_000, 200_000, 1_000_000],
        (true, false) => &[20_000, 200_000],
        (false, _) => &[2_000],
    };
    for &n in squares {
        let side = 10_000.0 * (n as f64 / 200_000.0).sqrt();
        bench_world_build(
            &mut g,
            "squares",
            n,
            &random_squares(n, side, SEED),
            &shipped,
        );
    }
    g.finish();
}

/// Builds `level`'s world with the `shipped` colliders once, prints its meshes and the build's
/// peak heap, then times the build as `{shape}_world_two_tuned_colliders/{n}` (wall-clock only:
/// two threads).
fn bench_world_build<M: Measurement>(
    g: &mut BenchmarkGroup<'_, M>,
    shape: &str,
    n: usize,
    level: &Level,
    shipped: &[ColliderShape],
) {
    let config = level.config();
    let world =
        || CollisionWorld::new(black_box(&level.polygons), shipped, config.clone()).unwrap();
    let (w, peak) = peak_heap(world);
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    println!(
        "{shape} {n}: peak heap of one build {:.1} MiB; stand mesh {} faces {:.1} MiB, crouch mesh \
         {} faces {:.1} MiB",
        mib(peak),
        w.mesh(ColliderId(0)).num_faces(),
        mib(w.mesh(ColliderId(0)).memory_bytes()),
        w.mesh(ColliderId(1)).num_faces(),
        mib(w.mesh(ColliderId(1)).memory_bytes()),
    );
    for id in [ColliderId(0), ColliderId(1)] {
        let parts: Vec<String> = w
            .mesh(id)
            .memory_parts()
            .iter()
            .map(|(name, b)| format!("{name} {:.1}", mib(*b)))
            .collect();
        println!("  mesh {} MiB: {}", id.0, parts.join(", "));
    }
    drop(w);
    g.throughput(Throughput::Elements(n as u64));
    if !cpu_clock() {
        g.bench_with_input(
            BenchmarkId::new(format!("{shape}_world_two_tuned_colliders"), n),
            &n,
            |b, _| b.iter_with_large_drop(world),
        );
    }
}

const OUTLINE_SIZES: [usize; 3] = [1_000, 5_000, 20_000];

fn long_outline<M: Measurement>(c: &mut Criterion<M>) {
    let sizes: &[usize] = if measuring() {
        &OUTLINE_SIZES
    } else {
        &OUTLINE_SIZES[..1]
    };
    let tuned = Tuning::default();
    let shipped = [tuned.stand_collider, tuned.crouch_collider];
    let mut g = group(c, "long_outline");
    g.sample_size(10);
    for &n in sizes {
        for (shape, outline) in [
            ("comb", comb_outline(n, SEED)),
            ("blob", blob_outline(n, SEED)),
        ] {
            let level = outline_level(outline);
            let config = level.config();
            bench_world_build(&mut g, shape, n, &level, &shipped);
            g.bench_with_input(
                BenchmarkId::new(format!("{shape}_build_mesh_stand_tuned"), n),
                &n,
                |b, _| {
                    b.iter_with_large_drop(|| {
                        build_mesh(black_box(&level.polygons), &shipped[0], &config).unwrap()
                    })
                },
            );
        }
    }
    g.finish();
}

/// Heap memory of the meshes for the 10 000-tile level, with a rough breakdown: the flat face and
/// vertex arrays the move loop reads, and the rest (spade's triangulation kept for point location,
/// regions, source lists, inflated pieces).
fn report_memory() {
    let n = if measuring() { 10_000 } else { 400 };
    let level = scatter(n, SEED);
    let tuned = Tuning::default();
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    println!("memory per mesh, {n} tiles (CollisionMesh::memory_bytes):");
    for (name, shape) in [
        ("box 0.8 x 1.8", box_collider(COLLIDER)),
        ("box 0.8 x 1.0", box_collider(CROUCH_COLLIDER)),
        ("tuned stand", tuned.stand_collider.clone()),
        ("tuned crouch", tuned.crouch_collider.clone()),
    ] {
        let mesh = build_mesh(&level.polygons, &shape, &level.config()).unwrap();
        let bytes = mesh.memory_bytes();
        let faces = mesh.num_faces() * std::mem::size_of::<Face>();
        let verts = std::mem::size_of_val(mesh.vertices());
        let free = mesh
            .face_ids()
            .filter(|&f| mesh.kind(f) != FaceKind::Solid)
            .count();
        println!(
            "  {name:<14} {:>6.2} MiB ({:>4.0} B/polygon): faces {:.2} MiB ({} faces, {} free or \
             one-way, {} B each), vertices {:.2} MiB ({}), rest {:.2} MiB",
            mib(bytes),
            bytes as f64 / n as f64,
            mib(faces),
            mesh.num_faces(),
            free,
            std::mem::size_of::<Face>(),
            mib(verts),
            mesh.vertices().len(),
            mib(bytes.saturating_sub(faces + verts)),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Summary from criterion's estimates of this run.

fn criterion_dir() -> PathBuf {
    if let Some(h) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(h);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("criterion")
}

/// Median time per iteration (ns) of a benchmark measured since `since`, if any. The median of the
/// samples, not the mean: on a shared machine a few samples are slowed by other processes.
fn median_ns(since: SystemTime, id: &str) -> Option<f64> {
    let path = criterion_dir().join(id).join("new").join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v["median"]["point_estimate"].as_f64()
}

fn summary(since: SystemTime) {
    let sfx = clock_suffix();
    let per_move = |id: &str| median_ns(since, id).map(|ns| ns / BATCH as f64);
    let show =
        |v: Option<f64>, unit: &str| v.map_or("n/a".to_string(), |x| format!("{x:.1}{unit}"));
    let clock = if cpu_clock() {
        "thread CPU time"
    } else {
        "wall-clock time"
    };
    println!("\nsummary (medians of this run, {clock}):");
    for group in ["moves_floor400", "moves_scatter10k"] {
        let rapier = per_move(&format!("{group}{sfx}/rapier_move_shape"));
        for f in [
            "tessera_move_and_slide",
            "tessera_hero_step",
            "tessera_hero_step_top_down",
            "rapier_move_shape",
        ] {
            let Some(t) = per_move(&format!("{group}{sfx}/{f}")) else {
                continue;
            };
            let ratio = rapier.map(|r| r / t);
            println!(
                "  {group:<17} {f:<27} {:>9.1} ns/move {:>8.3} M moves/s  {} vs rapier",
                t,
                1e3 / t,
                show(ratio, "x")
            );
        }
    }
    let base = per_move(&format!(
        "scaling_random_walk{sfx}/tessera_move_and_slide/100"
    ));
    for n in SCALING_SIZES {
        let id = format!("scaling_random_walk{sfx}/tessera_move_and_slide/{n}");
        if let Some(t) = per_move(&id) {
            println!(
                "  scaling {n:>6} polygons {t:>9.1} ns/move  {} of the 100-polygon cost",
                show(base.map(|b| t / b), "x")
            );
        }
    }
    for n in BUILD_SIZES {
        for f in [
            "world_two_boxes",
            "world_two_tuned_colliders",
            "build_mesh_stand_box",
            "build_mesh_crouch_box",
            "drop_world_tuned_colliders",
        ] {
            if let Some(ns) = median_ns(since, &format!("build{sfx}/{f}/{n}")) {
                println!("  build {f:<26} {n:>6} polygons {:>9.2} ms", ns / 1e6);
            }
        }
    }
    for n in OUTLINE_SIZES {
        for shape in ["comb", "blob"] {
            for f in ["world_two_tuned_colliders", "build_mesh_stand_tuned"] {
                let id = format!("long_outline{sfx}/{shape}_{f}/{n}");
                if let Some(ns) = median_ns(since, &id) {
                    println!(
                        "  long outline {shape} {f:<26} {n:>6} vertices {:>9.2} ms",
                        ns / 1e6
                    );
                }
            }
        }
    }
}

/// Whether a group (or `memory`) is selected by `TESSERA_BENCH_GROUPS` (comma-separated; unset:
/// all). Unlike criterion's filter this also skips the group's setup, e.g. for profiling one group
/// under callgrind.
fn selected(group: &str) -> bool {
    std::env::var("TESSERA_BENCH_GROUPS").map_or(true, |v| v.split(',').any(|g| g.trim() == group))
}

/// The 1/5/15-minute load averages: the machine is shared, so every run records how busy it was.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "n/a".to_string(),
        |s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

// ---------------------------------------------------------------------------------------------
// Agents (living levels): many characters on the meshes of their size classes.

/// Rows of unit tiles side by side, 100 to a row, rows 4 m apart (room for the 2.2 m class),
/// `agents` patrols of the three box size classes spread over the rows, facing both ways, and
/// eight doors beyond the rows' right ends.
fn agents_level(tiles: usize, agents: usize, seed: u64) -> tessera::level::Level {
    use tessera::level::{AgentKind, AgentSize, LevelAgent, LevelPolygon};
    let per_row = 100.min(tiles);
    let rows = tiles.div_ceil(per_row);
    let polygons = (0..tiles)
        .map(|i| {
            let (x, y) = ((i % per_row) as f64, 4.0 * (i / per_row) as f64);
            LevelPolygon::solid(vec![
                DVec2::new(x, y - 1.0),
                DVec2::new(x + 1.0, y - 1.0),
                DVec2::new(x + 1.0, y),
                DVec2::new(x, y),
            ])
        })
        .collect();
    let mut rng = Rng(seed);
    let sizes = [AgentSize::Small, AgentSize::Medium, AgentSize::Large];
    let agents = (0..agents)
        .map(|i| LevelAgent {
            kind: AgentKind::Patrol,
            size: sizes[i % 3],
            spawn: DVec2::new(
                2.0 + rng.unit() * (per_row as f64 - 4.0),
                4.0 * rng.below(rows as u64) as f64,
            ),
            facing: if rng.below(2) == 0 { 1.0 } else { -1.0 },
            character: None,
            patrol: None,
        })
        .collect();
    // Eight doors, at the right ends of the first rows (where no agent walks).
    let doors = (0..8.min(rows))
        .map(|r| {
            let (x, y) = (per_row as f64 + 0.5, 4.0 * r as f64);
            tessera::level::LevelDoor {
                points: vec![
                    DVec2::new(x, y - 1.0),
                    DVec2::new(x + 1.0, y - 1.0),
                    DVec2::new(x + 1.0, y + 2.0),
                    DVec2::new(x, y + 2.0),
                ],
                open: false,
                switch: None,
                close_after: None,
                open_on: Vec::new(),
                close_on: Vec::new(),
                toggle_on: Vec::new(),
            }
        })
        .collect();
    tessera::level::Level {
        polygons,
        doors,
        agents,
        spawn: DVec2::new(1.0, 0.0),
        ..tessera::level::Level::empty("agents bench")
    }
}

/// One world tick (the hero idle, then every agent: its patrol's probes and its state machine's
/// step) with 1 000 agents of three size classes on a 10 000-tile level; and the build of that
/// level's five meshes (the hero's standing and crouching, one per size class), in parallel
/// threads (wall-clock only).
fn agents<M: Measurement>(c: &mut Criterion<M>) {
    use tessera::sim::World;
    let (tiles, count) = if measuring() {
        (10_000, 1_000)
    } else {
        (400, 30)
    };
    let level = agents_level(tiles, count, SEED);
    let tuning = Tuning::default();
    let mut g = group(c, "agents");
    if !cpu_clock() {
        g.bench_function(BenchmarkId::new("world_five_meshes", tiles), |b| {
            b.iter_with_large_drop(|| World::new(black_box(&level), &tuning).unwrap())
        });
    }
    let mut w = World::new(&level, &tuning).unwrap();
    assert_eq!(w.collision().shapes().len(), 5);
    // A second of ticks first, so every agent is on its feet and walking.
    for _ in 0..120 {
        w.step(&Actions::default());
    }
    let walking = w.agents().iter().filter(|a| a.mover.vel.x != 0.0).count();
    assert!(
        walking * 10 >= count * 9,
        "{walking} of {count} agents walk"
    );
    g.throughput(Throughput::Elements(count as u64));
    g.bench_function(BenchmarkId::new("tick_with_agents", count), |b| {
        b.iter(|| w.step(black_box(&Actions::default())).contacts)
    });
    // One door opened or closed: its gate flipped in the five meshes, and every character
    // checked against what changed (none is in or on the door here).
    g.throughput(Throughput::Elements(1));
    let mut open = false;
    g.bench_function(BenchmarkId::new("door_toggle", count), |b| {
        b.iter(|| {
            open = !open;
            w.set_door(black_box(0), open)
        })
    });
    g.finish();
}

/// The game (issue goal: a tick with 100 enemies of the three kinds on the default level under
/// 0.1 ms): crawlers (small), hoppers (medium) and brutes (large), spawned at 100 points of the
/// tour replay's path (free for the hero, so near the ground everywhere), the hero running the
/// tour among them (hurt, knocked back, dying and respawning), every rule of play checked each
/// tick.
fn enemies<M: Measurement>(c: &mut Criterion<M>) {
    use tessera::level::{AgentKind, AgentSize, LevelAgent};
    use tessera::sim::World;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut level = tessera::level::load_level(root.join("levels/default.ron")).unwrap();
    let replay = tessera::sim::load_replay(root.join("levels/replays/default_tour.ron")).unwrap();
    let actions: Vec<Actions> = replay.iter().collect();
    let tuning = Tuning::default();
    let mut w = World::new(&level, &tuning).unwrap();
    let path: Vec<DVec2> = actions
        .iter()
        .map(|a| {
            w.step(a);
            w.hero().body.pos
        })
        .collect();
    let count = 100;
    let kinds = [
        (AgentKind::Crawler, AgentSize::Small),
        (AgentKind::Hopper, AgentSize::Medium),
        (AgentKind::Brute, AgentSize::Large),
    ];
    level.agents = (0..count)
        .map(|i| LevelAgent {
            kind: kinds[i % 3].0,
            size: kinds[i % 3].1,
            spawn: path[(i * path.len() / count + path.len() / (2 * count)).min(path.len() - 1)],
            facing: if i % 2 == 0 { 1.0 } else { -1.0 },
            character: None,
            patrol: None,
        })
        .collect();
    let mut w = World::new(&level, &tuning).unwrap();
    for a in actions.iter().take(120) {
        w.step(a);
    }
    let mut g = group(c, "enemies");
    g.throughput(Throughput::Elements(count as u64));
    let mut k = 120;
    g.bench_function(BenchmarkId::new("tick_default_level", count), |b| {
        b.iter(|| {
            k = (k + 1) % actions.len();
            w.step(black_box(&actions[k])).contacts
        })
    });
    g.finish();
}

/// Small platforms (1 m × 0.3 m) going 3 m right and back every 2 s, `count` of them, at the
/// `places` given (their left bottom corners).
fn platforms(places: impl Iterator<Item = DVec2>) -> Vec<tessera::level::LevelMover> {
    use tessera::level::{LevelMover, MoverEase, MoverMode};
    places
        .map(|at| LevelMover {
            pieces: vec![vec![
                at,
                at + DVec2::new(1.0, 0.0),
                at + DVec2::new(1.0, 0.3),
                at + DVec2::new(0.0, 0.3),
            ]],
            path: vec![DVec2::ZERO, DVec2::new(3.0, 0.0)],
            period: 2.0,
            mode: MoverMode::PingPong,
            ease: MoverEase::Smooth,
            ..Default::default()
        })
        .collect()
}

/// Movers: the hero jumping again and again on a floor among 16 platforms moving within 4 m
/// of it (every move it makes is clipped against them), the whole world's tick and the hero's
/// own step alone (the movers frozen); and the agents bench's tick (1 000
/// agents of three size classes, 8 doors, 10 000 tiles) with 64 platforms over its rows.
fn movers<M: Measurement>(c: &mut Criterion<M>) {
    use tessera::sim::World;
    let tuning = Tuning::default();
    let mut g = group(c, "movers");
    let mut level = tessera::level::Level {
        polygons: vec![tessera::level::LevelPolygon::solid(vec![
            DVec2::new(-50.0, -1.0),
            DVec2::new(50.0, -1.0),
            DVec2::new(50.0, 0.0),
            DVec2::new(-50.0, 0.0),
        ])],
        ..tessera::level::Level::empty("sixteen movers")
    };
    level.movers = platforms(
        (0..16).map(|i| DVec2::new(-4.0 + 2.0 * (i % 4) as f64, 2.2 + 0.6 * (i / 4) as f64)),
    );
    let mut w = World::new(&level, &tuning).unwrap();
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..Default::default()
    };
    for _ in 0..120 {
        w.step(&jump);
    }
    g.throughput(Throughput::Elements(1));
    g.bench_function(BenchmarkId::new("hero_step_among", 16), |b| {
        b.iter(|| w.step(black_box(&jump)).contacts)
    });
    // The hero's own step alone (the third phase of a tick: the movers frozen where this tick
    // posed them), jumping again and again among the same 16: every move clipped against them.
    let env = tessera::movement::Env {
        collision: w.collision(),
        ladders: &[],
        movers: w.movers(),
    };
    let mut hero = w.hero().clone();
    let mut report = tessera::movement::StepReport::default();
    let dt = tessera::sim::DT;
    g.bench_function(BenchmarkId::new("hero_own_step_among", 16), |b| {
        b.iter(|| {
            hero.step(&env, black_box(&jump), &tuning, dt, &mut report);
            report.contacts
        })
    });
    // The whole tick among the same 16 spinning at 2 rad/s about their centres: every tick
    // turns and inflates each one's piece again for each of the hero's colliders.
    for m in &mut level.movers {
        m.spin = 2.0;
    }
    let mut turning = World::new(&level, &tuning).unwrap();
    for _ in 0..120 {
        turning.step(&jump);
    }
    g.bench_function(BenchmarkId::new("hero_step_among_turning", 16), |b| {
        b.iter(|| turning.step(black_box(&jump)).contacts)
    });

    let (tiles, count) = if measuring() {
        (10_000, 1_000)
    } else {
        (400, 30)
    };
    let mut level = agents_level(tiles, count, SEED);
    let rows = tiles.div_ceil(100.min(tiles));
    let mut rng = Rng(SEED ^ 0x6d6f_7665);
    level.movers = platforms((0..64).map(|_| {
        DVec2::new(
            1.0 + rng.unit() * 90.0,
            4.0 * rng.below(rows as u64) as f64 + 2.4,
        )
    }));
    let mut w = World::new(&level, &tuning).unwrap();
    for _ in 0..120 {
        w.step(&Actions::default());
    }
    assert!(w.penetrations().is_empty());
    g.throughput(Throughput::Elements(count as u64));
    g.bench_function(BenchmarkId::new("tick_with_agents_64_movers", count), |b| {
        b.iter(|| w.step(black_box(&Actions::default())).contacts)
    });
    g.finish();
}

fn run<M: Measurement>(mut c: Criterion<M>) {
    if selected("moves_floor400") {
        moves_floor(&mut c);
    }
    if selected("moves_scatter10k") {
        moves_scatter(&mut c);
    }
    if selected("scaling_random_walk") {
        scaling(&mut c);
    }
    if selected("build") {
        build(&mut c);
    }
    if selected("long_outline") {
        long_outline(&mut c);
    }
    if selected("dense") {
        dense(&mut c);
    }
    if selected("agents") {
        agents(&mut c);
    }
    if selected("movers") {
        movers(&mut c);
    }
    if selected("enemies") {
        enemies(&mut c);
    }
    c.final_summary();
}

fn main() {
    let since = SystemTime::now();
    println!(
        "load average at start: {} ({} CPUs)",
        load_average(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    if selected("memory") {
        report_memory();
    }
    if cpu_clock() {
        run(configure(
            Criterion::default().with_measurement(ThreadCpuTime { wall: WallTime }),
        ));
    } else {
        run(configure(Criterion::default()));
    }
    if measuring() {
        summary(since);
        println!("load average at end: {}", load_average());
    }
}
