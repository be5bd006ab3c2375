//! Regression: a model that could not be read or used was reported with its reason twice, as in
//! `error: robot.glb: cannot read: No such file or directory (os error 2): No such file or
//! directory (os error 2)`, and a Rigify rig exported from Blender with the glTF exporter's
//! defaults as `unsupported: the skin has 223 joints, more than the 64 ...: unsupported: the skin
//! has 223 joints, ...`. The error types of model files and of written PNGs put their reason in
//! their own message and also held it as their `source` (a field of that name is one, for
//! `thiserror`), and the command line prints an error with its chain of sources (`{:#}`), so the
//! reason came again after the message. They now hold it as a plain field, like the level
//! files' errors, and every line says its reason once.
use std::process::Command;

/// `tessera ARGS`' standard error, which must be one failing line.
fn error_line(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).trim().to_owned();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

#[test]
fn a_model_that_cannot_be_read_says_why_once() {
    let line = error_line(&["model", "no/such/robot.glb"]);
    assert!(
        line.starts_with("error: no/such/robot.glb: cannot read: "),
        "{line}"
    );
    assert_eq!(line.matches("os error 2").count(), 1, "{line}");
}

#[test]
fn a_model_with_too_many_joints_says_why_once() {
    // Blender 5.0.1's glTF exporter with its defaults, on a rig Rigify generated: every bone of
    // the rig is a joint (scripts/blender/robot.py --rigify).
    let line = error_line(&[
        "model",
        "tests/bad_input/model/blender_rigify_all_bones.glb",
    ]);
    assert!(
        line.contains("the skin has 223 joints, more than the 128"),
        "{line}"
    );
    assert_eq!(line.matches("223 joints").count(), 1, "{line}");
}

#[test]
fn a_png_that_cannot_be_written_says_why_once() {
    let line = error_line(&[
        "model",
        "assets/hero.glb",
        "--sheet",
        "no/such/dir/sheet.png",
    ]);
    assert!(line.contains("no/such/dir/sheet.png"), "{line}");
    assert_eq!(line.matches("No such file").count(), 1, "{line}");
}
