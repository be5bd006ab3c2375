//! Adversarial levels within the limits of `level::limits` are built, or refused in one line,
//! under a memory cap: `tessera check` runs with its address space limited (`ulimit -v`) to
//! [`CAP_MIB`], and must either succeed or exit 1 with the one-line `BuildError::TooIntricate`
//! message, never abort on a failed allocation or crash.
//!
//! The shapes are those that cost the most per point before the collision build bounded them
//! (BENCHMARKS.md, "Big and dense worlds"): teeth far below the collider's size but just too far
//! apart to be filled (each tooth's inflation overlapped about 200 others'), the same 9 000 km
//! from the origin, teeth of 1 µm (filled), separate slivers fanned around one point (their
//! inflations all overlap near it) and a lattice of crossing slivers (more crossings than the
//! build's work limit allows: refused). Each file is 20 000 points or fewer, so the debug build
//! the tests use checks all of them in about 20 s; a file with 10 times the points needs about
//! 10 times the memory, which is what the per-point work limit guarantees.
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// The address-space cap, MiB: the debug executable maps about 40 MiB to check a tiny level, and
/// before the work limit and the thinning of overlapping pieces the 3 mm teeth needed gigabytes.
const CAP_MIB: u64 = 512;

fn level(polygons: &[Vec<(f64, f64)>], spawn: (f64, f64)) -> String {
    let mut s = format!(
        "(name: \"adversarial\", spawn: ({:?}, {:?}), polygons: [",
        spawn.0, spawn.1
    );
    for p in polygons {
        s.push_str("(points: [");
        for (x, y) in p {
            write!(s, "({x:?}, {y:?}), ").unwrap();
        }
        s.push_str("]), ");
    }
    s.push_str("])");
    s
}

/// A slab 1 m deep whose top is `n` teeth `depth` high, `pitch` apart, from `(x0, y0)`.
fn teeth(n: usize, pitch: f64, depth: f64, x0: f64, y0: f64) -> Vec<(f64, f64)> {
    let mut pts = vec![(x0, y0 - 1.0), (x0 + n as f64 * pitch, y0 - 1.0)];
    for i in (0..n).rev() {
        let x = x0 + i as f64 * pitch;
        pts.push((x + 0.5 * pitch, y0 + depth));
        pts.push((x, y0));
    }
    pts
}

fn check_capped(path: &Path) -> (Option<i32>, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {}; exec \"$0\" check \"$1\"",
            CAP_MIB * 1024
        ))
        .arg(env!("CARGO_BIN_EXE_tessera"))
        .arg(path)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn adversarial_levels_within_the_limits_build_or_are_refused_under_a_memory_cap() {
    let dir = crate::common::scratch_dir("memory-cap");
    let fan: Vec<Vec<(f64, f64)>> = (0..2_000)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / 2_000.0;
            let (c, s) = (a.cos(), a.sin());
            vec![
                (0.0, 0.0),
                (100.0 * c, 100.0 * s),
                (100.0 * c - 1e-6 * s, 100.0 * s + 1e-6 * c),
            ]
        })
        .collect();
    let side = 3.0 * 800.0;
    let lattice: Vec<Vec<(f64, f64)>> = (0..800)
        .flat_map(|i| {
            let t = 3.0 * i as f64;
            [
                vec![(0.0, t), (side, t), (side, t + 1e-3), (0.0, t + 1e-3)],
                vec![(t, 0.0), (t + 1e-3, 0.0), (t + 1e-3, side), (t, side)],
            ]
        })
        .collect();
    // (name, level text, refused by the work limit)
    let cases = [
        (
            "teeth_3mm",
            level(&[teeth(10_000, 3e-3, 1e-2, 0.0, 0.0)], (-2.0, 0.5)),
            false,
        ),
        (
            "teeth_3mm_far",
            level(
                &[teeth(10_000, 3e-3, 1e-2, 9e6, -9e6)],
                (9e6 - 2.0, -9e6 + 0.5),
            ),
            false,
        ),
        (
            "teeth_1um",
            level(&[teeth(10_000, 1e-6, 1e-6, 0.0, 0.0)], (-2.0, 0.5)),
            false,
        ),
        ("sliver_fan", level(&fan, (0.0, 150.0)), false),
        ("sliver_lattice", level(&lattice, (1.5, 1.5)), true),
    ];
    for (name, text, refused) in cases {
        let path = dir.join(format!("{name}.ron"));
        std::fs::write(&path, text).unwrap();
        let (code, stderr) = check_capped(&path);
        if refused {
            assert_eq!(
                code,
                Some(1),
                "{name}: refused with exit status 1\n{stderr}"
            );
            let lines: Vec<&str> = stderr.lines().collect();
            assert_eq!(lines.len(), 1, "{name}: one line:\n{stderr}");
            assert!(
                lines[0].contains("overlaps itself or its neighbours too often")
                    && lines[0].contains("polygon ")
                    && lines[0].contains("the limit for this level is 2097152"),
                "{name}: the work limit, naming a polygon:\n{stderr}"
            );
        } else {
            assert_eq!(
                code,
                Some(0),
                "{name}: built under {CAP_MIB} MiB:\n{stderr}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
