//! Shared harness for movement scenario tests: build a level in code, drive the headless world
//! with scripted actions, collect the per-frame trace, and check the collider never penetrates.
#![allow(dead_code)]

use glam::DVec2;
use tessera::collision::{convex_pieces, normalized_ccw};
use tessera::level::PolygonKind;
use tessera::level::{AgentKind, AgentSize, Ladder, Level, LevelAgent, LevelPolygon};
use tessera::movement::{Actions, MoveEvent, Tuning};
use tessera::sim::world::{TraceFrame, World};

/// Penetration allowed between the collider and any source polygon, metres.
pub const MAX_PENETRATION: f64 = 1e-5;

/// A fresh, empty directory `tessera-{tag}-{pid}` under the system's temporary directory (any
/// earlier one of that name removed); the caller removes it when done.
pub fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

pub fn poly(points: &[(f64, f64)]) -> LevelPolygon {
    LevelPolygon::solid(points.iter().map(|&(x, y)| p(x, y)).collect())
}

pub fn one_way(points: &[(f64, f64)]) -> LevelPolygon {
    LevelPolygon {
        kind: PolygonKind::OneWay,
        ..poly(points)
    }
}

pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> LevelPolygon {
    poly(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
}

/// An agent of `kind` and `size` with its feet at `(x, y)`, facing `facing` (±1), drawn as its
/// outline (no character) and with no patrol range.
pub fn agent(kind: AgentKind, size: AgentSize, x: f64, y: f64, facing: f64) -> LevelAgent {
    LevelAgent {
        kind,
        size,
        spawn: p(x, y),
        facing,
        character: None,
        patrol: None,
    }
}

pub fn level(polygons: Vec<LevelPolygon>, ladders: Vec<(DVec2, DVec2)>, spawn: DVec2) -> Level {
    Level {
        polygons,
        ladders: ladders
            .into_iter()
            .map(|(min, max)| Ladder { min, max })
            .collect(),
        spawn,
        ..Level::empty("scenario")
    }
}

/// Holds `a` for `n` frames; `jump_pressed` only on the first if set.
pub fn hold(a: Actions, n: usize) -> Vec<Actions> {
    (0..n)
        .map(|i| Actions {
            jump_pressed: a.jump_pressed && i == 0,
            ..a
        })
        .collect()
}

pub fn mv(x: f64, y: f64) -> Actions {
    Actions {
        move_axis: p(x, y),
        ..Actions::default()
    }
}

pub fn jump(x: f64) -> Actions {
    Actions {
        move_axis: p(x, 0.0),
        jump: true,
        jump_pressed: true,
        crouch: false,
        attack_pressed: false,
    }
}

pub fn crouch(x: f64) -> Actions {
    Actions {
        move_axis: p(x, 0.0),
        crouch: true,
        ..Actions::default()
    }
}

/// One frame of a run: the trace line plus what the step reported.
pub struct Frame {
    pub t: TraceFrame,
    pub events: Vec<MoveEvent>,
    pub crouching: bool,
}

/// Runs the script twice, asserts the traces are bit-identical, checks penetration on every frame,
/// and returns the frames.
pub fn run(level: &Level, tuning: &Tuning, script: &[Actions]) -> Vec<Frame> {
    run_checked(level, tuning, script.len(), |i, _| script[i])
}

/// Runs a closed-loop policy (actions chosen from the world's state) for `n` frames, twice, with the
/// same checks as [`run`].
pub fn run_policy(
    level: &Level,
    tuning: &Tuning,
    n: usize,
    policy: impl Fn(&World) -> Actions,
) -> Vec<Frame> {
    run_checked(level, tuning, n, |_, w| policy(w))
}

/// Runs `n` frames with the actions `actions(frame, world)`, twice; asserts the traces are
/// bit-identical and the collider never penetrates the level; returns the frames.
fn run_checked(
    level: &Level,
    tuning: &Tuning,
    n: usize,
    actions: impl Fn(usize, &World) -> Actions,
) -> Vec<Frame> {
    let once = || {
        let mut w = World::new(level, tuning).expect("world");
        (0..n)
            .map(|i| {
                let a = actions(i, &w);
                let events = w.step(&a).events.clone();
                Frame {
                    t: w.trace_frame(),
                    events,
                    crouching: w.hero().crouching(),
                }
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (once(), once());
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.t, y.t, "second run differs at frame {}", x.t.frame);
    }
    let checker = Penetration::new(level);
    for f in &a {
        let depth = checker.max(&f.t);
        assert!(
            depth <= MAX_PENETRATION,
            "frame {}: collider penetrates the level by {depth} m at {:?}",
            f.t.frame,
            f.t.pos
        );
    }
    a
}

/// Measures how deep a collider overlaps the level's solid polygons, independently of the mesh:
/// SAT against each convex piece of each solid source polygon (one-way platforms are passable).
pub struct Penetration {
    pieces: Vec<(Vec<DVec2>, DVec2, DVec2)>,
}

impl Penetration {
    pub fn new(level: &Level) -> Self {
        let mut pieces = Vec::new();
        for lp in level
            .polygons
            .iter()
            .filter(|lp| lp.kind == PolygonKind::Solid)
        {
            for piece in convex_pieces(&normalized_ccw(&lp.points)).unwrap() {
                let lo = piece.iter().fold(DVec2::INFINITY, |a, &b| a.min(b));
                let hi = piece.iter().fold(DVec2::NEG_INFINITY, |a, &b| a.max(b));
                pieces.push((piece, lo, hi));
            }
        }
        Penetration { pieces }
    }

    /// Deepest overlap (metres) of the frame's collider with any piece; ≤ 0 when separated or
    /// touching.
    pub fn max(&self, t: &TraceFrame) -> f64 {
        let pos = p(t.pos[0], t.pos[1]);
        let col: Vec<DVec2> = t.collider.iter().map(|c| pos + p(c[0], c[1])).collect();
        let lo = col.iter().fold(DVec2::INFINITY, |a, &b| a.min(b));
        let hi = col.iter().fold(DVec2::NEG_INFINITY, |a, &b| a.max(b));
        self.pieces
            .iter()
            .filter(|(_, plo, phi)| {
                plo.x <= hi.x && lo.x <= phi.x && plo.y <= hi.y && lo.y <= phi.y
            })
            .map(|(piece, _, _)| sat_overlap(&col, piece))
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// Overlap depth of two convex CCW polygons along the axis of least overlap (≤ 0: separated).
pub fn sat_overlap(a: &[DVec2], b: &[DVec2]) -> f64 {
    let mut min_overlap = f64::INFINITY;
    for poly in [a, b] {
        for i in 0..poly.len() {
            let e = poly[(i + 1) % poly.len()] - poly[i];
            let n = DVec2::new(-e.y, e.x).normalize();
            let (amin, amax) = project(a, n);
            let (bmin, bmax) = project(b, n);
            min_overlap = min_overlap.min(amax.min(bmax) - amin.max(bmin));
        }
    }
    min_overlap
}

fn project(poly: &[DVec2], n: DVec2) -> (f64, f64) {
    poly.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let d = v.dot(n);
            (lo.min(d), hi.max(d))
        })
}

pub fn pos(f: &Frame) -> DVec2 {
    p(f.t.pos[0], f.t.pos[1])
}

pub mod source;

/// The property tests' seed policy (`TESSERA_SEED`), shared with the unit tests.
#[path = "../../src/test_seed.rs"]
pub mod seed;

/// The name libtest gives the test function `f` of the module whose `module_path!()` is
/// `module`: the module path without the crate's name (`editor_recovery::sigkill_at_...`), as
/// `--exact` wants it.
pub fn test_name(module: &str, f: &str) -> String {
    let path = module.split_once("::").map_or("", |(_, rest)| rest);
    if path.is_empty() {
        f.to_string()
    } else {
        format!("{path}::{f}")
    }
}

/// Runs the test `name` (from [`test_name`]) of this test executable again, alone, in a child
/// process with `env` added to the environment; returns its output. For tests that need another
/// environment than the one the whole suite shares (environment variables are per process, and
/// setting one while other tests' threads read theirs is a data race in C libraries).
///
/// The child is the calling test itself: it reads one of `env`'s variables first and, when it is
/// set, plays the child's part; run directly (without it) it is the parent and asserts on the
/// child's output. A child's part is never a `#[test]` of its own, which run directly would find
/// its variable unset and pass having checked nothing.
pub fn rerun_as_child(name: &str, env: &[(&str, &std::ffi::OsStr)]) -> std::process::Output {
    let mut c = std::process::Command::new(std::env::current_exe().unwrap());
    c.args(["--exact", name, "--nocapture", "--test-threads=1"]);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the test executable runs again")
}

/// Held by the tests that start an X server and a game window on it (`render_smoke`,
/// `audio_quiet`, `window_input`): one window renders at a time. Each is a debug build rendering on
/// the CPU
/// (lavapipe); two at once on a 2-core machine, beside the rest of the suite, starve each other
/// and the hang limits of their waits. A test that panics while holding it does not poison it
/// for the others (its own failure is reported).
pub fn display_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether this is a CI run: `CI` set to anything but empty, `0` or `false` (GitHub Actions sets
/// `CI=true`, and so does `.ci/run`). A test that cannot run for want of a tool fails in CI.
pub fn in_ci() -> bool {
    ci_value_means_ci(std::env::var_os("CI").as_deref())
}

pub fn ci_value_means_ci(v: Option<&std::ffi::OsStr>) -> bool {
    v.is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Whether an executable file named `tool` is in one of the directories of `path` (a `PATH`
/// value; `None` is this process's `PATH`).
pub fn on_path(tool: &str, path: Option<&std::ffi::OsStr>) -> bool {
    let path = path.map_or_else(|| std::env::var_os("PATH"), |p| Some(p.to_owned()));
    path.is_some_and(|p| {
        std::env::split_paths(&p)
            .any(|d| std::fs::metadata(d.join(tool)).is_ok_and(|m| m.is_file() && executable(&m)))
    })
}

#[cfg(unix)]
fn executable(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    true
}

/// A test that cannot run here (`why`: a missing tool): under CI ([`in_ci`]) a failure, elsewhere
/// a skip with the message. Returns only when skipping.
pub fn skip_outside_ci(why: &str) {
    skip_or_fail(in_ci(), why);
}

pub fn skip_or_fail(ci: bool, why: &str) {
    assert!(!ci, "{why}, and CI must run this test");
    eprintln!("skipped: {why}");
}

/// `tessera` (the binary under test) with its working directory at the crate's root and no
/// backtraces on failure: add arguments, environment or another directory, then run it.
pub fn tessera_command() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RUST_BACKTRACE", "0");
    c
}

/// `tessera ARGS` run from the crate's root ([`tessera_command`]): its output, whatever its status.
pub fn tessera<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    tessera_command().args(args).output().unwrap()
}

/// Runs `cmd` and returns its standard output; fails the test, showing both outputs, if it
/// does not succeed.
pub fn succeeds(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The game on `world` as a player starts it by hand: the default key bindings, no replay, not
/// recording, the built-in hero, a view of width ÷ height `aspect`.
pub fn game(world: World, aspect: f64) -> tessera::app::Game {
    tessera::app::Game::new(
        world,
        tessera::input::InputState::new(tessera::input::Bindings::default()),
        None,
        false,
        aspect,
        tessera::anim::HeroAnimator::builtin(),
    )
}
