//! Smoke tests of the real game: the built `tessera` binary's `play` command, in a window.
//!
//! - Under Xvfb on lavapipe, the default level plays a replay for a few seconds and exits cleanly;
//!   the recorded ticks prove the simulation ran and followed the replay.
//! - With no display (DISPLAY and WAYLAND_DISPLAY unset): one clear line, non-zero exit.
//! - With no Vulkan driver (an empty ICD list) under Xvfb: one clear line, non-zero exit.
//!
//! - The editor, opened with `--editor`, closes on a Tab pressed in the window (a real X key event,
//!   `xdotool`), while the game runs on: the "editor closed" log line must come after the key and
//!   before the game exits. It used to run `--editor --exit-after 2` and find that line, which the
//!   game also prints when it shuts down with the editor open, so it passed with no input at all.
//!
//! Without `xvfb-run` (or `Xvfb` and `xdotool` for the editor) the window tests are skipped with a
//! message, except in CI (`CI` set, as GitHub Actions and `.ci/run` do), where that is a failure:
//! `a_missing_xvfb_run_fails_under_ci` checks both halves of that, and that `.ci/run` sets `CI`.
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use glam::DVec2;
use tessera::movement::Actions;
use tessera::sim::{load_replay, save_replay, Replay};

fn default_level() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("levels/default.ron")
        .display()
        .to_string()
}

fn scratch_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-smoke-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `tessera play ARGS`, logging at info level (for the frame summary).
fn game_command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tessera"));
    c.arg("play").args(args).env("RUST_LOG", "info");
    c
}

const NO_XVFB_RUN: &str = "xvfb-run is not installed (apt-get install xvfb xauth)";

/// `tessera play ARGS` under `xvfb-run -a`, or `None` (skip) when Xvfb is missing outside CI; in
/// CI (`common::in_ci`) a missing `xvfb-run` fails the test.
fn under_xvfb(args: &[&str]) -> Option<Command> {
    if !crate::common::on_path("xvfb-run", None) {
        crate::common::skip_outside_ci(NO_XVFB_RUN);
        return None;
    }
    let mut c = Command::new("xvfb-run");
    c.args([
        "-a",
        "-s",
        "-screen 0 1280x720x24",
        env!("CARGO_BIN_EXE_tessera"),
        "play",
    ])
    .args(args)
    .env("RUST_LOG", "info");
    Some(c)
}

/// Runs `c` to completion, killing it (only it) after `limit`.
fn run_with_timeout(mut c: Command, limit: Duration) -> Output {
    let child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the game starts");
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.expect("the game's output is readable"),
        Err(_) => {
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("the game did not exit within {limit:?}");
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

/// The lines starting with `error:` (what the CLI prints for a failed command).
fn error_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.starts_with("error:"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn plays_a_replay_under_xvfb_and_exits_cleanly() {
    let _display = crate::common::display_lock();
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
    save_replay(&replay_path, &Replay::from_actions(&script)).unwrap();
    let (level, replay, record) = (
        default_level(),
        replay_path.display().to_string(),
        record_path.display().to_string(),
    );
    let Some(cmd) = under_xvfb(&[
        "--level",
        &level,
        "--replay",
        &replay,
        "--record",
        &record,
        "--exit-after",
        "3",
    ]) else {
        return;
    };
    let out = run_with_timeout(cmd, Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("panicked"),
        "the game did not exit cleanly: {}",
        describe(&out)
    );
    assert!(
        stderr.contains("fps"),
        "no frame summary in the log: {}",
        describe(&out)
    );
    // `--msaa auto` (the default): a CPU adapter such as lavapipe draws 1× with one log line why.
    if stderr.contains("(Cpu,") {
        assert!(
            stderr.contains("is a CPU rasteriser") && stderr.contains("1× MSAA, 1-tap shadows"),
            "auto MSAA on a CPU adapter: {}",
            describe(&out)
        );
    }
    let ticks: Vec<Actions> = load_replay(&record_path).unwrap().iter().collect();
    // How many ticks fit in 3 s depends on the machine (a loaded 2-core machine running a debug
    // build draws a few frames per second); no wall-clock bound here, only that the game ran.
    assert!(!ticks.is_empty(), "no tick ran in 3 s: {}", describe(&out));
    // The game may run fewer ticks than the script in 3 s (a slow debug build drops catch-up
    // ticks), so compare the common prefix.
    let n = script.len().min(ticks.len());
    let (played, expected) = (
        Replay::from_actions(&ticks[..n]),
        Replay::from_actions(&script[..n]),
    );
    assert_eq!(played, expected, "the played ticks differ from the replay");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn opens_the_editor_under_xvfb_draws_it_and_closes_it() {
    use crate::window_input::{tools_present, Window};
    if !tools_present() {
        return;
    }
    let level = PathBuf::from(default_level());
    // Its own display and a real window; waits for the first frame (the title is set by it).
    let mut w = Window::open("smoke-editor", &level, &["--editor"]);
    w.wait_editing(true);
    let before = w.log();
    assert!(
        before.contains("editor opened") && !before.contains("editor closed"),
        "the editor did not open, or closed by itself:\n{before}"
    );
    w.key("Tab");
    w.wait_editing(false);
    // The log line too, while the game still runs: the close came from the key, not the exit.
    let log = w.log();
    let opened = log.find("editor opened");
    let closed = log.find("editor closed");
    assert!(
        opened.is_some() && closed > opened,
        "no `editor closed` after the Tab:\n{log}"
    );
    assert!(w.running(), "the game exited instead:\n{log}");
    assert!(
        !log.contains("panicked") && !log.lines().any(|l| l.starts_with("error:")),
        "{log}"
    );
}

/// Without `xvfb-run` on `PATH`, a CI run fails and any other run skips; `.ci/run` sets `CI`, so
/// a machine without Xvfb fails there instead of passing with the window tests skipped.
#[test]
fn a_missing_xvfb_run_fails_under_ci() {
    use crate::common::{ci_value_means_ci, on_path, skip_or_fail};
    let empty = scratch_dir("no-tools");
    assert!(!on_path("xvfb-run", Some(empty.as_os_str())));
    let fails = std::panic::catch_unwind(|| skip_or_fail(true, NO_XVFB_RUN)).is_err();
    assert!(fails, "a missing xvfb-run passed under CI");
    let skips = std::panic::catch_unwind(|| skip_or_fail(false, NO_XVFB_RUN)).is_ok();
    assert!(skips, "a missing xvfb-run failed outside CI");
    std::fs::remove_dir_all(&empty).unwrap();

    // .ci/run exports CI=true before it runs the tests.
    let run =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    let export = run
        .lines()
        .position(|l| l.trim() == "export CI=true")
        .expect(".ci/run exports CI=true");
    let tests = run
        .lines()
        .position(|l| l.trim() == "scripts/test.sh")
        .expect(".ci/run runs scripts/test.sh");
    assert!(export < tests, "CI is set after the tests run");
    assert!(ci_value_means_ci(Some("true".as_ref())));
    assert!(!ci_value_means_ci(Some("false".as_ref())) && !ci_value_means_ci(None));
}

#[test]
fn no_display_is_a_clear_error() {
    let level = default_level();
    let mut c = game_command(&["--level", &level, "--exit-after", "1"]);
    c.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    let out = run_with_timeout(c, Duration::from_secs(60));
    let errors = error_lines(&out);
    assert!(
        !out.status.success()
            && errors.len() == 1
            && errors[0].contains("no display")
            && !describe(&out).contains("panicked"),
        "expected one `error: no display ...` line and a failure status: {}",
        describe(&out)
    );
}

#[test]
fn no_gpu_adapter_is_a_clear_error() {
    let _display = crate::common::display_lock();
    let dir = scratch_dir("nogpu");
    let icd = dir.join("none.json");
    std::fs::write(&icd, "{}").unwrap();
    let level = default_level();
    let Some(mut c) = under_xvfb(&["--level", &level, "--exit-after", "1"]) else {
        return;
    };
    // An ICD list naming no driver: the Vulkan loader finds no device at all.
    c.env("VK_ICD_FILENAMES", &icd).env("VK_DRIVER_FILES", &icd);
    let out = run_with_timeout(c, Duration::from_secs(60));
    std::fs::remove_dir_all(&dir).unwrap();
    let errors = error_lines(&out);
    assert!(
        !out.status.success()
            && errors.len() == 1
            && errors[0].contains("no GPU adapter")
            && !describe(&out).contains("panicked"),
        "expected one `error: no GPU adapter ...` line and a failure status: {}",
        describe(&out)
    );
}
