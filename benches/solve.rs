//! The solver's costs on the campaign's levels: a world's snapshot and restore
//! (`World::snapshot_into`, `World::snapshot`, `World::restore`; issue 57's goal: ≤ 2 µs each)
//! and the simulation's ticks per second as the search runs them (a restore, then 120 ticks of
//! the level's shipped replay). Each level's world is taken halfway through its replay, so it
//! has moved: doors opened, movers running, enemies about.
//!
//! `cargo bench --bench solve`; `cargo test --benches` runs each once (CI's smoke stage).
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput};
use tessera::level::campaign::Campaign;
use tessera::movement::{Actions, Tuning};
use tessera::sim::{load_replay, World};

/// Ticks of one measured run.
const RUN: usize = 120;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    let campaign = Campaign::load(&root.join("levels/campaign.ron")).expect("the campaign loads");
    for l in &campaign.levels {
        let (name, level) = (l.path.file_stem().unwrap().to_string_lossy(), &l.level);
        let replay = load_replay(l.replay_path()).expect("its replay loads");
        let actions: Vec<Actions> = replay.iter().collect();
        let mut world = World::new(level, &Tuning::default()).expect("the level builds");
        let mid = actions.len() / 2;
        for a in &actions[..mid] {
            world.step(a);
        }
        let saved = world.snapshot();
        let mut into = world.snapshot();
        c.bench_function(&format!("snapshot_into/{name}"), |b| {
            b.iter(|| world.snapshot_into(black_box(&mut into)))
        });
        c.bench_function(&format!("snapshot/{name}"), |b| {
            b.iter(|| black_box(world.snapshot()))
        });
        c.bench_function(&format!("restore/{name}"), |b| {
            b.iter(|| world.restore(black_box(&saved)))
        });
        let run = &actions[mid..(mid + RUN).min(actions.len())];
        let mut g = c.benchmark_group("ticks");
        g.throughput(Throughput::Elements(run.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                world.restore(&saved);
                for a in run {
                    world.step(a);
                }
                black_box(world.frame())
            })
        });
        g.finish();
    }
    c.final_summary();
}
