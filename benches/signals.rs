//! The cost of a living level's tick (issue 52, goal 4): one world tick with 1 000 agents,
//! 64 movers on tracks, 16 doors and 200 signals on a 10 000-polygon level (goal: ≤ 0.5 ms on
//! one core), and a tick in which no signal changes against the same world without signals
//! (goal: within 3 %). The world is `benches/common/living.rs`'s, in its three wirings:
//!
//! - `signals/tick_living/1000`: the signals firing (doors toggled on schedules, regions the
//!   agents walk through, track keys restarting movers);
//! - `signals/tick_quiet/1000`: the same sources where nothing fires;
//! - `signals/tick_without/1000`: no signals.
//!
//! After criterion, the quiet and signal-less worlds are ticked in alternating rounds of 120
//! ticks (which one goes first alternating too), each round timed by the thread's CPU clock, and
//! the median of the rounds' ratios is printed: the two worlds step in lockstep (the quiet
//! signals change nothing, which the bench checks), so the ratio is the signals' own cost, and
//! alternating keeps a shared machine's changing load out of it.
//!
//! `cargo bench --bench signals`; `cargo test --benches` runs each once on a small level (CI's
//! smoke stage). Instruction counts, which the machine's load does not change:
//! `TESSERA_SIGNALS_COUNT=quiet:N` (or `without:N`, `living:N`) makes the bench binary build
//! that world alone and tick it N times more; the bench profile strips symbols, so count whole
//! runs (`valgrind --tool=callgrind target/release/deps/signals-*`) at two values of N: the
//! difference is N's ticks alone (the setup is the same instructions every run).
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use tessera::movement::{Actions, Tuning};
use tessera::sim::World;

#[allow(dead_code)]
#[path = "common/inputs.rs"]
mod inputs;
#[path = "common/living.rs"]
mod living;
use living::{living_level, Wiring};

/// Ticks in one round of the quiet-against-none comparison.
const ROUND: usize = 120;

fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// The 1/5/15-minute load averages (the machine is shared).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "n/a".to_string(),
        |s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

/// The calling thread's CPU time, ns.
fn thread_cpu_ns() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    stat.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        })
}

/// A world of `wiring` after a second of ticks (every agent on its feet and walking).
fn world(tiles: usize, agents: usize, wiring: Wiring) -> World {
    let level = living_level(tiles, agents, wiring, inputs::SEED);
    level.validate().expect("the bench level is valid");
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    for _ in 0..120 {
        w.step(&Actions::default());
    }
    w
}

/// Ticks `w` `n` times; returns how many ticks any signal fired in.
fn ticks_firing(w: &mut World, n: usize) -> usize {
    (0..n)
        .filter(|_| {
            w.step(&Actions::default());
            !w.trace_frame().signals.is_empty()
        })
        .count()
}

fn main() {
    if let Ok(which) = std::env::var("TESSERA_SIGNALS_COUNT") {
        let (wiring, n) = which.split_once(':').unwrap_or((&which, "0"));
        let wiring = match wiring {
            "living" => Wiring::Living,
            "quiet" => Wiring::Quiet,
            "without" => Wiring::None,
            _ => panic!("TESSERA_SIGNALS_COUNT={which:?}: living:N, quiet:N or without:N"),
        };
        let mut w = world(10_000, 1_000, wiring);
        let mut contacts = 0;
        for _ in 0..n.parse::<usize>().expect("N ticks") {
            contacts += w.step(black_box(&Actions::default())).contacts;
        }
        println!("{which}: {contacts} contacts");
        return;
    }
    let (tiles, agents) = if measuring() {
        (10_000, 1_000)
    } else {
        (400, 30)
    };
    println!("load average at start: {}", load_average());
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(40)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8));
    let mut living = world(tiles, agents, Wiring::Living);
    let mut quiet = world(tiles, agents, Wiring::Quiet);
    let mut without = world(tiles, agents, Wiring::None);
    // What each wiring does over the next five seconds: the living signals fire, the quiet ones
    // never, and the quiet world steps exactly as the one without signals.
    assert!(
        ticks_firing(&mut living, 600) > 100,
        "the living signals fire"
    );
    assert_eq!(
        ticks_firing(&mut quiet, 600),
        0,
        "the quiet signals never fire"
    );
    ticks_firing(&mut without, 600);
    let same = |a: &World, b: &World| {
        a.agents()
            .iter()
            .zip(b.agents())
            .all(|(x, y)| x.mover.body.pos == y.mover.body.pos)
            && a.mover_clocks() == b.mover_clocks()
            && a.doors() == b.doors()
    };
    assert!(same(&quiet, &without), "the quiet signals change nothing");

    let mut g = c.benchmark_group("signals");
    g.throughput(Throughput::Elements(agents as u64));
    for (name, w) in [
        ("tick_living", &mut living),
        ("tick_quiet", &mut quiet),
        ("tick_without", &mut without),
    ] {
        g.bench_function(BenchmarkId::new(name, agents), |b| {
            b.iter(|| w.step(black_box(&Actions::default())).contacts)
        });
    }
    g.finish();

    // The quiet world against the one without signals, in alternating rounds (see the module
    // docs); both were stepped alike by criterion only if their iteration counts matched, so
    // they are first brought to the same tick.
    while quiet.frame() < without.frame() {
        quiet.step(&Actions::default());
    }
    while without.frame() < quiet.frame() {
        without.step(&Actions::default());
    }
    let rounds = if measuring() { 60 } else { 2 };
    let mut ratios = Vec::with_capacity(rounds);
    let (mut q_ns, mut n_ns) = (0u64, 0u64);
    for r in 0..rounds {
        let time = |w: &mut World| {
            let t = thread_cpu_ns();
            for _ in 0..ROUND {
                black_box(w.step(&Actions::default()).contacts);
            }
            thread_cpu_ns() - t
        };
        let (q, n) = if r % 2 == 0 {
            let q = time(&mut quiet);
            (q, time(&mut without))
        } else {
            let n = time(&mut without);
            (time(&mut quiet), n)
        };
        q_ns += q;
        n_ns += n;
        ratios.push(q as f64 / n as f64);
    }
    assert!(same(&quiet, &without), "the quiet signals change nothing");
    ratios.sort_by(f64::total_cmp);
    let tick = |ns: u64| ns as f64 / (rounds * ROUND) as f64 / 1000.0;
    println!(
        "quiet / without signals, {rounds} alternating rounds of {ROUND} ticks (thread CPU time): \
         median {:.4}, quartiles {:.4}–{:.4}; mean tick {:.1} µs quiet, {:.1} µs without",
        ratios[rounds / 2],
        ratios[rounds / 4],
        ratios[(3 * rounds) / 4],
        tick(q_ns),
        tick(n_ns),
    );
    c.final_summary();
    println!("load average at end: {}", load_average());
}
