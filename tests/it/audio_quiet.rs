//! The real game without a sound device prints one line about it, and nothing from ALSA: not at
//! start, not at the later looks for a device (`audio::device`, "ALSA's own messages").
//!
//! - No device: `tessera play --exit-after 10` under Xvfb with `ALSA_CARD` naming a card that does
//!   not exist, so ALSA's default device fails the way it does on a machine without a sound card
//!   (`ALSA lib confmisc.c:855:(parse_card) cannot find card ...` and seven more lines, before the
//!   fix at start and at every look again). In 10 s the game looks again twice (after 2 s, then
//!   4 s more). stderr must hold no ALSA line and at most the game's one audio line.
//! - ALSA's null device (`ALSA_CONFIG_PATH` naming `pcm.!default { type null }`): the device
//!   opens, and nothing about audio is printed.
//!
//! On a desktop whose default device is a sound server (PulseAudio, PipeWire), `ALSA_CARD` does not
//! apply and the device may open: then there is no audio line at all, which passes too. Without
//! `xvfb-run` the tests are skipped with a message, except in CI (`CI` set), where that is a
//! failure. Each takes `common::display_lock()`: one game window renders at a time.
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn default_level() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("levels/default.ron")
        .display()
        .to_string()
}

fn scratch_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-quiet-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `tessera play ARGS` under `xvfb-run -a`, logging at info level, user files in `user`; `None`
/// (skip) when Xvfb is missing outside CI.
fn under_xvfb(args: &[&str], user: &Path) -> Option<Command> {
    if !crate::common::on_path("xvfb-run", None) {
        crate::common::skip_outside_ci("xvfb-run is not installed (apt-get install xvfb xauth)");
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
    .env("RUST_LOG", "info")
    .env("TESSERA_USER_DIR", user)
    .env_remove("ALSA_CONFIG_PATH")
    .env_remove("ALSA_PCM_CARD");
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

/// The lines of stderr about sound: ALSA's own, and the game's audio log lines at warn or above.
fn audio_lines(stderr: &str) -> (Vec<&str>, Vec<&str>) {
    let alsa = stderr
        .lines()
        .filter(|l| l.contains("ALSA") || l.contains("alsa"))
        .collect();
    let ours = stderr
        .lines()
        .filter(|l| {
            (l.contains("tessera::audio") && (l.contains("WARN") || l.contains("ERROR")))
                || l.contains("no audio device")
        })
        .collect();
    (alsa, ours)
}

#[test]
fn no_sound_device_prints_one_line_and_nothing_from_alsa() {
    let _display = crate::common::display_lock();
    let user = scratch_dir("nodevice");
    let level = default_level();
    let Some(mut cmd) = under_xvfb(&["--level", &level, "--exit-after", "10"], &user) else {
        return;
    };
    // ALSA's default device names this card (alsa.conf: `defaults.pcm.card` from `ALSA_CARD`).
    cmd.env("ALSA_CARD", "tessera_no_such_card");
    let out = run_with_timeout(cmd, Duration::from_secs(180));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("panicked"),
        "the game did not exit cleanly: {}\n{stderr}",
        out.status
    );
    assert!(stderr.contains("fps"), "no frame was drawn:\n{stderr}");
    let (alsa, ours) = audio_lines(&stderr);
    assert!(
        alsa.is_empty(),
        "ALSA printed {} lines:\n{stderr}",
        alsa.len()
    );
    assert!(
        ours.len() <= 1 && ours.iter().all(|l| l.contains("no audio device")),
        "more than the one audio line:\n{stderr}"
    );
    std::fs::remove_dir_all(&user).unwrap();
}

#[test]
#[cfg(target_os = "linux")]
fn the_alsa_null_device_opens_quietly() {
    let _display = crate::common::display_lock();
    let user = scratch_dir("null");
    let conf = user.join("null.conf");
    std::fs::write(&conf, "pcm.!default { type null }\n").unwrap();
    let level = default_level();
    let Some(mut cmd) = under_xvfb(&["--level", &level, "--exit-after", "2"], &user) else {
        return;
    };
    cmd.env("ALSA_CONFIG_PATH", &conf);
    let out = run_with_timeout(cmd, Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("panicked"),
        "the game did not exit cleanly: {}\n{stderr}",
        out.status
    );
    let (alsa, ours) = audio_lines(&stderr);
    assert!(
        alsa.is_empty() && ours.is_empty(),
        "the null device should open without a word:\n{stderr}"
    );
    std::fs::remove_dir_all(&user).unwrap();
}
