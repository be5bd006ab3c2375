//! The `tessera` command line: play without a display, `render` to a PNG, `check` on the shipped files, and `sim`
//! with its summary and its JSON-lines trace.
use std::path::PathBuf;

use crate::common::{tessera, tessera_command};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh scratch directory for this test process.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const RUN_AND_JUMP: &str = "(segments: [
    (from: 0, to: 240, move: (1.0, 0.0), jump: false, crouch: false),
    (from: 100, to: 130, move: (1.0, 0.0), jump: true, crouch: false),
])";

#[test]
fn play_without_a_display_fails_with_one_clear_line() {
    let out = tessera_command()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.to_lowercase().contains("display"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn render_writes_a_png_of_the_level() {
    let d = scratch("render");
    let png = d.join("shot.png");
    let out = tessera(&[
        "render",
        "--level",
        "levels/test/slopes.ron",
        "--size",
        "96x54",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let bad = tessera(&[
        "render",
        "--level",
        "levels/test/slopes.ron",
        "--size",
        "0x5",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(tessera(&["fly"]).status.code(), Some(2));
    assert_eq!(tessera(&["check"]).status.code(), Some(2));
    assert_eq!(tessera(&["sim", "--frames", "many"]).status.code(), Some(2));
    assert_eq!(tessera(&["sim", "--level"]).status.code(), Some(2));
    let help = tessera(&["--help"]);
    assert!(help.status.success());
    assert!(text(&help.stdout).contains("sim"));
}

#[test]
fn check_accepts_every_shipped_file_and_detects_its_kind() {
    let mut files = vec![
        "assets/tuning.ron".to_string(),
        "levels/default.ron".to_string(),
        "levels/replays/default_tour.ron".to_string(),
    ];
    for e in std::fs::read_dir(root().join("levels/test")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        files.push(format!("levels/test/{name}"));
    }
    let args: Vec<&str> = std::iter::once("check")
        .chain(files.iter().map(String::as_str))
        .collect();
    let out = tessera(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "no warnings: {}", text(&out.stderr));
    assert_eq!(stdout.lines().count(), files.len(), "{stdout}");
    for f in &files {
        let kind = if f.starts_with("assets") {
            "(tuning"
        } else if f.contains("replays") {
            "(replay"
        } else {
            "(level"
        };
        let want = format!("ok: {f} {kind}");
        assert!(
            stdout.lines().any(|l| l.starts_with(&want)),
            "{want}\n{stdout}"
        );
    }
}

#[test]
fn check_kind_flag_overrides_detection() {
    let out = tessera(&["check", "--kind", "replay", "levels/test/tunnel.ron"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: levels/test/tunnel.ron:"),
        "{stderr}"
    );
    assert!(stderr.contains("`name`"), "{stderr}");
}

#[test]
fn sim_prints_a_summary_and_writes_one_trace_line_per_frame() {
    let dir = scratch("trace");
    let replay = dir.join("run.ron");
    std::fs::write(&replay, RUN_AND_JUMP).unwrap();
    let trace = dir.join("trace.jsonl");
    let out = tessera(&[
        "sim",
        "--level",
        "levels/test/flat_tiles.ron",
        "--replay",
        replay.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let tuning = format!("tuning:   {}", root().join("assets/tuning.ron").display());
    for want in [
        "frames:   240 (2.000 s at 120 Hz)",
        "position: (",
        "state:    supported (grounded)",
        "contacts: ",
        "step:     mean ",
        // Found in the data directory (here the working directory), shown as the path read.
        &tuning,
    ] {
        assert!(stdout.contains(want), "{want:?} in\n{stdout}");
    }

    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 240);
    let mut airborne = 0;
    for (i, l) in lines.iter().enumerate() {
        let o = l.as_object().unwrap();
        let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["collider", "deaths", "face", "frame", "grounded", "health", "pos", "state", "vel"]
        );
        assert_eq!(o["frame"].as_u64(), Some(i as u64));
        assert_eq!(o["pos"].as_array().unwrap().len(), 2);
        assert_eq!(o["vel"].as_array().unwrap().len(), 2);
        assert!(o["face"].is_u64());
        assert_eq!(
            o["grounded"].as_bool().unwrap(),
            o["state"] == "supported",
            "frame {i}"
        );
        airborne += usize::from(o["state"] == "airborne");
        // The collider is relative to pos (feet at the origin) and counter-clockwise.
        let c: Vec<(f64, f64)> = o["collider"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
            .collect();
        let area2: f64 = (0..c.len())
            .map(|k| {
                let (a, b) = (c[k], c[(k + 1) % c.len()]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum();
        assert!(area2 > 0.0, "frame {i}: collider not counter-clockwise");
        let min_y = c.iter().map(|p| p.1).fold(f64::MAX, f64::min);
        assert_eq!(min_y, 0.0, "frame {i}: collider relative to the feet");
    }
    assert!(airborne > 30, "the jump shows in the trace");
    let last = &lines[239];
    assert!(last["pos"][0].as_f64().unwrap() > 15.0, "{last}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sim_is_deterministic_and_frames_extend_a_replay_with_idle() {
    let dir = scratch("determinism");
    let replay = dir.join("run.ron");
    std::fs::write(&replay, RUN_AND_JUMP).unwrap();
    let run = |name: &str, frames: &str| {
        let trace = dir.join(name);
        let out = tessera(&[
            "sim",
            "--level",
            "levels/test/slopes.ron",
            "--replay",
            replay.to_str().unwrap(),
            "--frames",
            frames,
            "--trace",
            trace.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read_to_string(trace).unwrap()
    };
    let a = run("a.jsonl", "400");
    let b = run("b.jsonl", "400");
    assert_eq!(a, b, "same inputs, same trace, bit for bit");
    assert_eq!(a.lines().count(), 400);
    let last: Value = serde_json::from_str(a.lines().last().unwrap()).unwrap();
    assert_eq!(last["vel"][0].as_f64(), Some(0.0), "idle after the replay");
    let short = run("c.jsonl", "10");
    assert!(a.starts_with(&short));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sim_without_a_replay_runs_five_idle_seconds() {
    let out = tessera(&["sim", "--level", "levels/test/fall.ron"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("replay:   none (idle)"), "{stdout}");
    assert!(
        stdout.contains("frames:   600 (5.000 s at 120 Hz)"),
        "{stdout}"
    );
    // 200 m at 24 m/s terminal speed takes under 9 s: after 5 s the hero is still falling.
    assert!(stdout.contains("state:    airborne"), "{stdout}");
}

#[test]
fn sim_reports_an_unwritable_trace_file() {
    let out = tessera(&[
        "sim",
        "--level",
        "levels/test/tunnel.ron",
        "--frames",
        "3",
        "--trace",
        "/nonexistent-dir/trace.jsonl",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: /nonexistent-dir/trace.jsonl: cannot create the trace file: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
