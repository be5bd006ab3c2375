//! The bad-input corpus (`tests/bad_input/`, expectations in `tests/bad_input/expected.ron`):
//! every bad file gives a clear message naming the file and the culprit, through the library
//! loaders and through the `tessera` binary (`check`, and `sim` with the file in its place), with a
//! non-zero exit and never a panic.
use std::path::{Path, PathBuf};
use std::process::Output;

use serde::Deserialize;
use tessera::level::{design_warnings, load_level, load_tuning};
use tessera::movement::Tuning;
use tessera::sim::{load_replay, World};

use crate::common::tessera;

const DIR: &str = "tests/bad_input";

#[derive(Debug, Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Level,
    Replay,
    Tuning,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Outcome {
    Error,
    Warning,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    file: String,
    kind: Kind,
    outcome: Outcome,
    fragments: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(root().join(DIR).join("expected.ron")).unwrap();
    ron::from_str(&text).unwrap_or_else(|e| panic!("expected.ron: {e}"))
}

/// The path as the tests name it (relative to the package root, where the binary runs).
fn rel(case: &Case) -> String {
    format!("{DIR}/{}", case.file)
}

fn assert_fragments(case: &Case, message: &str) {
    for f in &case.fragments {
        assert!(
            message.contains(f.as_str()),
            "{}: message lacks {f:?}:\n{message}",
            case.file
        );
    }
}

/// Loads a case with the library as the game would: `Ok(warnings)` or `Err(message)`.
fn load_with_library(case: &Case) -> Result<Vec<String>, String> {
    let path = root().join(DIR).join(&case.file);
    match case.kind {
        Kind::Level => {
            let level = load_level(&path).map_err(|e| e.to_string())?;
            let world = World::new(&level, &Tuning::default())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            // The world's warnings (a moved spawn), then the design warnings, as `check` prints.
            let mut warnings = world.warnings().to_vec();
            let design = design_warnings(&level, world.tuning().jump_height);
            warnings.extend(design.iter().map(|w| w.to_string()));
            Ok(warnings)
        }
        Kind::Replay => load_replay(&path)
            .map(|_| vec![])
            .map_err(|e| e.to_string()),
        Kind::Tuning => load_tuning(&path)
            .map(|_| vec![])
            .map_err(|e| e.to_string()),
    }
}

/// Checks a failed run: exit status 1, one `error: PATH...` line with every fragment, no panic.
fn assert_clean_failure(case: &Case, out: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{what}: {}\n{stderr}",
        case.file
    );
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: one line expected:\n{stderr}");
    let prefix = format!("error: {}", rel(case));
    assert!(lines[0].starts_with(&prefix), "{what}: {stderr}");
    assert_fragments(case, lines[0]);
    // Said once: a message that is also its error's source used to be printed again for each
    // level of the chain ("spawn: the spawn point ...: spawn: the spawn point ...: the spawn ...").
    let parts: Vec<&str> = lines[0].split(": ").filter(|p| p.len() > 20).collect();
    for (i, part) in parts.iter().enumerate() {
        assert!(
            !parts[..i].contains(part),
            "{what}: said twice: {part:?}\n{stderr}"
        );
    }
}

#[test]
fn the_corpus_and_its_expectations_match() {
    let listed: Vec<String> = cases().into_iter().map(|c| c.file).collect();
    let mut on_disk: Vec<String> = std::fs::read_dir(root().join(DIR))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // `model/` is the bad-model corpus, checked by tests/it/bad_model.rs.
        .filter(|n| n != "expected.ron" && n != "model")
        .collect();
    on_disk.sort();
    for f in &on_disk {
        assert!(listed.contains(f), "{f} has no entry in expected.ron");
    }
    for f in &listed {
        let exists = on_disk.contains(f);
        assert_eq!(exists, f != "missing.ron", "{f}: listed but not on disk");
    }
    assert!(listed.len() >= 20);
}

#[test]
fn library_loaders_name_the_file_and_the_culprit() {
    for case in cases() {
        let path = root().join(DIR).join(&case.file);
        match (case.outcome, load_with_library(&case)) {
            (Outcome::Error, Err(message)) => {
                assert!(
                    message.starts_with(&path.display().to_string()),
                    "{}: message does not start with the path: {message}",
                    case.file
                );
                assert!(!message.contains('\n'), "one line: {message}");
                assert_fragments(&case, &message);
            }
            (Outcome::Warning, Ok(warnings)) => {
                // One warning, or two about the same object (an agent in a wall is moved out
                // by the world and named by the design check).
                assert!(
                    (1..=2).contains(&warnings.len()),
                    "{}: {warnings:?}",
                    case.file
                );
                assert_fragments(&case, &warnings.join("\n"));
            }
            (want, got) => panic!("{}: expected {want:?}, got {got:?}", case.file),
        }
    }
}

#[test]
fn check_reports_each_bad_file_and_exits_non_zero() {
    for case in cases() {
        let path = rel(&case);
        let out = tessera(&["check", &path]);
        match case.outcome {
            Outcome::Error => {
                assert_clean_failure(&case, &out, "check");
                assert!(out.stdout.is_empty(), "{path}: nothing is ok");
            }
            Outcome::Warning => {
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{path}: {stderr}");
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(stdout.starts_with(&format!("ok: {path} ")), "{stdout}");
                let warning = format!("warning: {path}: ");
                assert!(stderr.starts_with(&warning), "{stderr}");
                assert_fragments(&case, &stderr);
            }
        }
    }
}

#[test]
fn sim_refuses_each_bad_file_before_running() {
    let good_level = "levels/test/flat_tiles.ron";
    for case in cases().iter().filter(|c| c.outcome == Outcome::Error) {
        let path = rel(case);
        let flag = match case.kind {
            Kind::Level => "--level",
            Kind::Replay => "--replay",
            Kind::Tuning => "--tuning",
        };
        let mut args = vec!["sim", flag, &path, "--frames", "1"];
        if case.kind != Kind::Level {
            args.extend(["--level", good_level]);
        }
        let out = tessera(&args);
        assert_clean_failure(case, &out, "sim");
        assert!(out.stdout.is_empty(), "{path}: no summary");
    }
}

/// A level file is untrusted input: `tessera check` (and `play`, which loads the same way) refuses
/// a file past a limit of `level::limits` in one line naming the limit, before building anything.
/// The shapes are the adversarial ones that cost the most to build when they are let through: a
/// file of 64 MiB + 1 byte (sparse, refused by its size without being read) and an outline of
/// 250 001 one-micrometre teeth (refused by its point count before validation).
#[test]
fn files_past_a_limit_are_refused_in_one_line_naming_it() {
    let dir = crate::common::scratch_dir("limits");
    let big = dir.join("big.ron");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(tessera::level::limits::MAX_FILE_BYTES + 1)
        .unwrap();
    let teeth = dir.join("teeth.ron");
    let n = tessera::level::limits::MAX_POINTS_PER_POLYGON + 1;
    let mut text =
        String::from("(name: \"teeth\", spawn: (0.0, 5.0), polygons: [(points: [(0.0, -1.0), ");
    for i in 0..n - 2 {
        let y = if i % 2 == 0 { 0.0 } else { 1e-6 };
        let x = 1000.0 - i as f64 * 0.5e-6;
        text.push_str(&format!("({x:.7}, {y:.7}), "));
    }
    text.push_str("(0.0, 0.0)])])");
    std::fs::write(&teeth, text).unwrap();
    for (file, fragment) in [
        (
            &big,
            "67108865 bytes, more than the limit of 67108864 bytes (64 MiB) per data file",
        ),
        (
            &teeth,
            "polygon 0: 250001 points, more than the limit of 250000 points per polygon",
        ),
    ] {
        let path = file.to_str().unwrap();
        let out = tessera(&["check", path]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!("error: {path}: {fragment}"),
            "one line naming the file and the limit"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_stops_at_the_first_bad_file() {
    let out = tessera(&[
        "check",
        "levels/test/tunnel.ron",
        "tests/bad_input/level_two_points.ron",
        "levels/test/shaft.ron",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("ok: levels/test/tunnel.ron"), "{stdout}");
    assert!(!stdout.contains("shaft"), "{stdout}");
    assert!(Path::new(&root().join("levels/test/shaft.ron")).exists());
}
