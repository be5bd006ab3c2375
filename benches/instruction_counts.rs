//! The instruction-count gate's counter (issue 53): runs one workload of the collision benches
//! (`benches/collision.rs`) for a fixed number of moves or steps inside [`measured`], the only
//! function `benches/instruction_gate.sh` has callgrind count (`--toggle-collect`). Everything
//! else (building the level and its meshes, spawning) is left out of the count, so instructions
//! per move are exact and repeatable: the same binary gives the same figure on every run.
//!
//! Workloads (the levels, inputs and seeds of `benches/collision.rs`):
//! - `floor_move`: the raw `move_and_slide` running back and forth on the 400-tile bridge;
//! - `floor_hero`: one full `Hero::step` running on the same bridge;
//! - `scatter_walk`: the raw move's pseudo-random walk on the 10 000 random tiles;
//! - `scatter_jumps`: raw moves of a body jumping through the same tiles (falling through the
//!   field: the most faces crossed per move);
//! - `scatter_hero`: `Hero::step` with random inputs (runs, jumps) on the same tiles.
//!
//! Usage: `instruction_counts WORKLOAD` runs it; `--list` prints the workloads, `--units
//! WORKLOAD` how many moves or steps it runs (the divisor). Without arguments (`cargo test
//! --benches`) every workload runs a few moves on small levels, natively, as a smoke test.
//!
//! Must not depend on anything but the library's public collision and movement API (no criterion:
//! the binary stays small and its counted function holds only the loop).
use std::hint::black_box;

use glam::DVec2;
use tessera::collision::{
    build_mesh, Body, CollisionMesh, CollisionWorld, MeshConfig, MoveOptions, SourcePolygon,
};
use tessera::movement::{Actions, Env, Hero, StepReport, Tuning};

/// Tiles of the scatter level.
const SCATTER_TILES: usize = 10_000;
/// Moves or steps counted per workload: enough to cover every kind of step of the benches (a
/// bridge crossing is 2 400 moves at 8 m/s; the hero respawns every 480 steps).
const UNITS: u64 = 3000;
/// The workloads, in the order the gate reports them.
const WORKLOADS: [&str; 5] = [
    "floor_move",
    "floor_hero",
    "scatter_walk",
    "scatter_jumps",
    "scatter_hero",
];

#[path = "common/inputs.rs"]
mod inputs;
use inputs::{
    box_collider, floor_tiles, hero_tuning, locate_free, scatter_feet_bounds, scatter_tiles,
    spawn_in_largest_region, Rng, COLLIDER, DT, FLOOR_TILES, GRAVITY, RUN_SPEED, SEED, WALK_STEP,
};

/// `n` unit tiles side by side, top at y = 0; automatic bounds.
fn floor(n: usize) -> (Vec<SourcePolygon>, MeshConfig) {
    (floor_tiles(n), MeshConfig::default())
}

/// `n` unit tiles on distinct cells of a square grid filled to 25 %, the feet kept inside it.
fn scatter(n: usize) -> (Vec<SourcePolygon>, MeshConfig) {
    let (polygons, side) = scatter_tiles(n, SEED);
    let config = MeshConfig {
        bounds: Some(scatter_feet_bounds(side)),
        ..MeshConfig::default()
    };
    (polygons, config)
}

/// What one workload repeats.
enum Script {
    /// Run back and forth between x = 1 and x = tiles − 1.
    Floor { dir: f64, max_x: f64 },
    /// 0.07 m moves, a new random heading every 8 to 31 moves.
    Walk { rng: Rng, heading: DVec2, left: u64 },
    /// Ballistic arcs (gravity 40 m/s², at most 20 m/s down), jumping again on ground, back at
    /// the start every 480 moves.
    Jumps {
        start: Body,
        vel: DVec2,
        rng: Rng,
        count: u64,
    },
}

impl Script {
    fn floor_dir(dir: &mut f64, max_x: f64, x: f64) -> f64 {
        if x >= max_x {
            *dir = -1.0;
        } else if x <= 1.0 {
            *dir = 1.0;
        }
        *dir
    }
}

/// A raw-move workload: a body on a mesh and its script.
struct Mover<'a> {
    mesh: &'a CollisionMesh,
    body: Body,
    script: Script,
}

impl Mover<'_> {
    /// `n` moves; returns the path travelled (kept alive with `black_box`).
    fn moves(&mut self, n: u64) -> f64 {
        let mut travelled = 0.0;
        for _ in 0..n {
            let d = match &mut self.script {
                Script::Floor { dir, max_x } => DVec2::new(
                    Script::floor_dir(dir, *max_x, self.body.pos.x) * RUN_SPEED * DT,
                    -GRAVITY * DT * DT,
                ),
                Script::Walk { rng, heading, left } => {
                    if *left == 0 {
                        let a = rng.unit() * std::f64::consts::TAU;
                        *heading = DVec2::new(a.cos(), a.sin());
                        *left = 8 + rng.below(24);
                    }
                    *left -= 1;
                    *heading * WALK_STEP
                }
                Script::Jumps {
                    start, vel, count, ..
                } => {
                    *count += 1;
                    if count.is_multiple_of(480) {
                        self.body = *start;
                        *vel = DVec2::ZERO;
                    }
                    vel.y = (vel.y - 40.0 * DT).max(-20.0);
                    *vel * DT
                }
            };
            let r = self
                .mesh
                .move_and_slide(self.body, black_box(d), MoveOptions::default());
            if let Script::Jumps { vel, rng, .. } = &mut self.script {
                for c in &r.contacts {
                    let into = vel.dot(c.normal);
                    if into < 0.0 {
                        *vel -= c.normal * into;
                    }
                }
                if r.contacts.iter().any(|c| c.normal.y > 0.5) {
                    *vel = DVec2::new((rng.unit() * 2.0 - 1.0) * 8.0, 14.0);
                }
            }
            travelled += r.travelled;
            self.body = r.body;
        }
        travelled
    }
}

/// A hero workload: full movement steps with scripted inputs.
struct HeroRun<'a> {
    env: Env<'a>,
    tuning: Tuning,
    hero: Hero,
    spawned: Hero,
    report: StepReport,
    /// `None`: run the bridge; otherwise random holds and jumps, respawning every 480 steps.
    random: Option<(Rng, Actions, u64, u64)>,
    dir: f64,
}

impl<'a> HeroRun<'a> {
    fn new(world: &'a CollisionWorld, spawn: DVec2, random: bool) -> Self {
        let tuning = hero_tuning(false);
        let env = Env::new(world, &[]);
        let (hero, moved) = Hero::spawn(&env, spawn, &tuning).expect("hero spawns");
        assert!(moved == 0.0, "hero spawn {spawn:?} is not free");
        HeroRun {
            env,
            tuning,
            spawned: hero.clone(),
            hero,
            report: StepReport::default(),
            random: random.then(|| (Rng(SEED + 2), Actions::default(), 0, 0)),
            dir: 1.0,
        }
    }

    fn actions(&mut self) -> Actions {
        let Some((rng, held, left, since_spawn)) = &mut self.random else {
            let x = self.hero.body.pos.x;
            let dir = Script::floor_dir(&mut self.dir, FLOOR_TILES as f64 - 1.0, x);
            return Actions {
                move_axis: DVec2::new(dir, 0.0),
                ..Actions::default()
            };
        };
        *since_spawn += 1;
        if *since_spawn >= 480 {
            *since_spawn = 0;
            self.hero = self.spawned.clone();
        }
        let mut a = *held;
        a.jump_pressed = false;
        if *left == 0 {
            *left = 15 + rng.below(45);
            let jump = rng.below(3) == 0;
            a = Actions {
                move_axis: DVec2::new(rng.below(3) as f64 - 1.0, 0.0),
                jump,
                jump_pressed: jump,
                crouch: false,
                attack_pressed: false,
            };
            *held = a;
        }
        *left -= 1;
        a
    }

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

/// The workload being counted (one value on `run`'s stack, so the variants' sizes do not matter).
#[allow(clippy::large_enum_variant)]
enum Workload<'a> {
    Move(Mover<'a>),
    Hero(HeroRun<'a>),
}

/// The counted function: `n` moves or steps of `w`, nothing else (callgrind collects only while
/// it runs).
#[inline(never)]
fn measured(w: &mut Workload, n: u64) -> f64 {
    match w {
        Workload::Move(m) => m.moves(n),
        Workload::Hero(h) => h.steps(n),
    }
}

/// Builds workload `name` (small levels when `smoke`) and runs `n` units of it in [`measured`];
/// returns the mean path per unit, m.
fn run(name: &str, n: u64, smoke: bool) -> f64 {
    let (floor_tiles, scatter_tiles) = if smoke {
        (40, 400)
    } else {
        (FLOOR_TILES, SCATTER_TILES)
    };
    let (polygons, config) = if name.starts_with("floor") {
        floor(floor_tiles)
    } else {
        scatter(scatter_tiles)
    };
    let collider = box_collider(COLLIDER);
    let travelled = if name.ends_with("hero") {
        let t = hero_tuning(false);
        let world = CollisionWorld::new(
            &polygons,
            &[t.stand_collider.clone(), t.crouch_collider.clone()],
            config.clone(),
        )
        .expect("hero world builds");
        let spawn = if name == "floor_hero" {
            DVec2::new(1.0, 0.0)
        } else {
            let mesh = build_mesh(&polygons, &collider, &config).expect("mesh builds");
            spawn_in_largest_region(&mesh).0
        };
        let mut w = Workload::Hero(HeroRun::new(&world, spawn, name == "scatter_hero"));
        measured(&mut w, n)
    } else {
        let mesh = build_mesh(&polygons, &collider, &config).expect("mesh builds");
        let (spawn, script) = match name {
            "floor_move" => (
                DVec2::new(1.0, 0.0),
                Script::Floor {
                    dir: 1.0,
                    max_x: floor_tiles as f64 - 1.0,
                },
            ),
            "scatter_walk" => (
                spawn_in_largest_region(&mesh).0,
                Script::Walk {
                    rng: Rng(SEED + 1),
                    heading: DVec2::X,
                    left: 0,
                },
            ),
            "scatter_jumps" => {
                let spawn = spawn_in_largest_region(&mesh).0;
                (
                    spawn,
                    Script::Jumps {
                        start: locate_free(&mesh, spawn),
                        vel: DVec2::ZERO,
                        rng: Rng(SEED + 3),
                        count: 0,
                    },
                )
            }
            other => panic!("unknown workload {other}; --list prints them"),
        };
        let mut w = Workload::Move(Mover {
            mesh: &mesh,
            body: locate_free(&mesh, spawn),
            script,
        });
        measured(&mut w, n)
    };
    travelled / n as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["--list"] => println!("{}", WORKLOADS.join("\n")),
        ["--units", _] => println!("{UNITS}"),
        [name] if !name.starts_with('-') => {
            let path = run(name, UNITS, false);
            println!("{name}: {UNITS} units, {path:.5} m per unit");
        }
        // `cargo test --benches` (or `cargo bench`'s own arguments): every workload, briefly.
        _ => {
            for name in WORKLOADS {
                let path = run(name, 50, true);
                assert!(path > 0.0, "{name}: the body did not move");
                println!("{name}: smoke run, {path:.5} m per unit");
            }
        }
    }
}
