//! Smoke tests of the real game window (custom harness: winit needs the main thread).
//!
//! The test binary re-runs itself as the game: with `TESSERA_SMOKE_CHILD` set, `main` calls
//! `tessera::app::run_game` on the main thread, the way `tessera play` does, and reports errors
//! as the CLI does (`error: ...` on stderr, exit status 1).
//!
//! - Under Xvfb on lavapipe, the default level plays a replay for a few seconds and exits cleanly;
//!   the recorded ticks prove the simulation ran and followed the replay.
//! - With no display (DISPLAY and WAYLAND_DISPLAY unset): one clear line, non-zero exit.
//! - With no Vulkan driver (an empty ICD list) under Xvfb: one clear line, non-zero exit.
//!
//! Without `xvfb-run` the Xvfb tests are skipped with a message, except in CI (`CI=true`), where
//! that is a failure. The last line is `N passed, M failed` for test-output readers.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use glam::DVec2;
use tessera::app::{run_game, GameOptions};
use tessera::movement::Actions;
use tessera::sim::{load_replay, save_replay, Replay};

const CHILD_ENV: &str = "TESSERA_SMOKE_CHILD";

/// A named test: `Err` carries the failure's explanation.
type SmokeTest = (&'static str, fn() -> Result<(), String>);

fn main() {
    if let Some(args) = std::env::var_os(CHILD_ENV) {
        child(&args.to_string_lossy());
    }
    let tests: [SmokeTest; 3] = [
        (
            "plays_a_replay_under_xvfb_and_exits_cleanly",
            plays_a_replay_under_xvfb_and_exits_cleanly,
        ),
        ("no_display_is_a_clear_error", no_display_is_a_clear_error),
        (
            "no_gpu_adapter_is_a_clear_error",
            no_gpu_adapter_is_a_clear_error,
        ),
    ];
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let (mut passed, mut failed) = (0, 0);
    for (name, test) in tests {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let start = Instant::now();
        match test() {
            Ok(()) => {
                passed += 1;
                println!(
                    "test {name} ... ok ({:.1} s)",
                    start.elapsed().as_secs_f64()
                );
            }
            Err(e) => {
                failed += 1;
                println!("test {name} ... FAILED\n{e}");
            }
        }
    }
    println!("\n{passed} passed, {failed} failed");
    std::process::exit(if failed == 0 { 0 } else { 1 });
}

/// The game process: `args` is `LEVEL|REPLAY|RECORD|SECONDS[|novsync]` (empty fields: none).
/// Also handy for measuring: `TESSERA_SMOKE_CHILD='levels/default.ron|||10|novsync' xvfb-run -a
/// target/release/deps/render_smoke-*`.
fn child(args: &str) -> ! {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let f: Vec<&str> = args.split('|').collect();
    let path = |i: usize| f.get(i).filter(|s| !s.is_empty()).map(PathBuf::from);
    let mut opts = GameOptions::new(path(0).unwrap_or_default());
    opts.replay = path(1);
    opts.record = path(2);
    opts.exit_after = f.get(3).and_then(|s| s.parse().ok());
    opts.vsync = f.get(4) != Some(&"novsync");
    match run_game(opts) {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(1)
        }
    }
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn scratch_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-smoke-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn game_command(args: &str) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.env(CHILD_ENV, args);
    c
}

/// `xvfb-run -a` around the game, or `None` (skip) when Xvfb is missing outside CI.
fn under_xvfb(args: &str) -> Result<Option<Command>, String> {
    let found = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            return Err("xvfb-run is not installed, and CI must run the window smoke tests (apt-get install xvfb xauth)".into());
        }
        println!("skipped: xvfb-run is not installed (apt-get install xvfb xauth); the window smoke test did not run");
        return Ok(None);
    }
    let mut c = Command::new("xvfb-run");
    c.args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(std::env::current_exe().unwrap())
        .env(CHILD_ENV, args);
    Ok(Some(c))
}

fn run_with_timeout(mut c: Command, limit: Duration) -> Result<Output, String> {
    let child = c
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.map_err(|e| e.to_string()),
        Err(_) => {
            // Kill only the process this test started.
            let _ = Command::new("kill").arg(id.to_string()).status();
            Err(format!("the game did not exit within {limit:?}"))
        }
    }
}

fn describe(out: &Output) -> String {
    format!(
        "status {}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    )
}

fn plays_a_replay_under_xvfb_and_exits_cleanly() -> Result<(), String> {
    let dir = scratch_dir("play");
    let replay_path = dir.join("run.ron");
    let record_path = dir.join("recorded.ron");
    let right = Actions {
        move_axis: DVec2::new(1.0, 0.0),
        ..Default::default()
    };
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..right
    };
    let mut script = vec![right; 120];
    script.extend([jump; 20]);
    script.extend(vec![right; 100]);
    save_replay(&replay_path, &Replay::from_actions(&script)).map_err(|e| e.to_string())?;
    let args = format!(
        "{}|{}|{}|3",
        repo("levels/default.ron").display(),
        replay_path.display(),
        record_path.display()
    );
    let Some(cmd) = under_xvfb(&args)? else {
        return Ok(());
    };
    let out = run_with_timeout(cmd, Duration::from_secs(120))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || stderr.contains("panicked") {
        return Err(format!("the game did not exit cleanly: {}", describe(&out)));
    }
    if !stderr.contains("fps") {
        return Err(format!("no frame summary in the log: {}", describe(&out)));
    }
    let recorded = load_replay(&record_path).map_err(|e| e.to_string())?;
    let ticks: Vec<Actions> = recorded.iter().collect();
    // How many ticks fit in 3 s depends on the machine (a loaded 2-core machine running a debug
    // build draws a few frames per second); no wall-clock bound here, only that the game ran.
    if ticks.is_empty() {
        return Err(format!("no tick ran in 3 s: {}", describe(&out)));
    }
    // The game may run fewer ticks than the script in 3 s (a slow debug build drops catch-up
    // ticks), so compare the common prefix.
    let n = script.len().min(ticks.len());
    let (played, expected) = (
        Replay::from_actions(&ticks[..n]),
        Replay::from_actions(&script[..n]),
    );
    if played != expected {
        return Err(format!(
            "the played ticks differ from the replay: {:?} vs {:?}",
            played.segments, expected.segments
        ));
    }
    std::fs::remove_dir_all(&dir).map_err(|e| e.to_string())?;
    Ok(())
}

fn no_display_is_a_clear_error() -> Result<(), String> {
    let mut c = game_command(&format!("{}|||1", repo("levels/default.ron").display()));
    c.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    let out = run_with_timeout(c, Duration::from_secs(60))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    if out.status.success()
        || errors.len() != 1
        || !errors[0].contains("no display")
        || stderr.contains("panicked")
    {
        return Err(format!(
            "expected one `error: no display ...` line and a failure status: {}",
            describe(&out)
        ));
    }
    Ok(())
}

fn no_gpu_adapter_is_a_clear_error() -> Result<(), String> {
    let dir = scratch_dir("nogpu");
    let icd = dir.join("none.json");
    std::fs::write(&icd, "{}").map_err(|e| e.to_string())?;
    let Some(mut c) = under_xvfb(&format!("{}|||1", repo("levels/default.ron").display()))? else {
        return Ok(());
    };
    // An ICD list naming no driver: the Vulkan loader finds no device at all.
    c.env("VK_ICD_FILENAMES", &icd).env("VK_DRIVER_FILES", &icd);
    let out = run_with_timeout(c, Duration::from_secs(60))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    std::fs::remove_dir_all(&dir).map_err(|e| e.to_string())?;
    if out.status.success()
        || errors.len() != 1
        || !errors[0].contains("no GPU adapter")
        || stderr.contains("panicked")
    {
        return Err(format!(
            "expected one `error: no GPU adapter ...` line and a failure status: {}",
            describe(&out)
        ));
    }
    Ok(())
}
