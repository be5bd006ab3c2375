//! The simulation layers (`collision`, `movement`, `level`, `sim`) are a plain headless library:
//! no source file in them names a window, GPU, audio, input or image crate, or a front-end module
//! of this crate. This reads the sources, so a new `use wgpu::...` (or a fully qualified
//! `winit::event::...` in an expression) fails here even where it would compile.
//!
//! The animation runtime (`anim`) keeps the same rules: it may read the simulation (the hero's
//! state and events) but no window, GPU, audio, input or image crate, and no other front-end
//! module; the renderer consumes its palette.
use std::path::{Path, PathBuf};

const SIMULATION: [&str; 4] = ["collision", "movement", "level", "sim"];
const FORBIDDEN_CRATES: [&str; 6] = ["wgpu", "winit", "gilrs", "egui", "rodio", "image"];
const FRONT_END: [&str; 7] = ["app", "render", "input", "editor", "audio", "anim", "cli"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The code of a line: without `//` comments (doc comments may name anything).
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// Whether `code` names crate `name` as a path root: `name::`, `name_xyz::` for `egui` (egui-wgpu,
/// egui-winit, egui_kittest), `use name;` or `extern crate name`.
fn names_crate(code: &str, name: &str) -> bool {
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(i) = code[from..].find(name) {
        let start = from + i;
        let end = start + name.len();
        from = end;
        let before_ok = start == 0 || {
            let b = bytes[start - 1];
            !(b.is_ascii_alphanumeric() || b == b'_' || b == b':')
        };
        if !before_ok {
            continue;
        }
        let mut rest = &code[end..];
        if name == "egui" {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        }
        if rest.starts_with("::")
            || code.trim_start().starts_with(&format!("use {name};"))
            || code.contains(&format!("extern crate {name}"))
        {
            return true;
        }
    }
    false
}

fn violations(layers: &[&str]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for &layer in layers {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "no sources under src/{layer}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let c = code(line);
                for name in FORBIDDEN_CRATES {
                    if names_crate(c, name) {
                        found.push(format!(
                            "{}:{}: {name}: {}",
                            file.display(),
                            n + 1,
                            line.trim()
                        ));
                    }
                }
                for m in FRONT_END.iter().filter(|&&m| m != layer) {
                    if c.contains(&format!("crate::{m}::")) || c.contains(&format!("crate::{m};")) {
                        found.push(format!(
                            "{}:{}: crate::{m}: {}",
                            file.display(),
                            n + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    found
}

#[test]
fn simulation_layers_import_no_front_end_crate_or_module() {
    let v = violations(&SIMULATION);
    assert!(
        v.is_empty(),
        "the simulation layers must stay headless:\n{}",
        v.join("\n")
    );
}

#[test]
fn the_animation_runtime_imports_no_front_end_crate_or_other_front_end_module() {
    let v = violations(&["anim"]);
    assert!(
        v.is_empty(),
        "the animation runtime must stay renderer-free:\n{}",
        v.join("\n")
    );
}

#[test]
fn the_check_recognises_each_forbidden_form() {
    assert!(names_crate("use wgpu::Device;", "wgpu"));
    assert!(names_crate("    let e: winit::event::Event<()>;", "winit"));
    assert!(names_crate("use egui_wgpu::Renderer;", "egui"));
    assert!(names_crate("use egui;", "egui"));
    assert!(names_crate("fn f(i: &image::RgbaImage) {}", "image"));
    assert!(names_crate("use {rodio::Source, std::fmt};", "rodio"));
    // Not crate paths: other identifiers, module-relative paths, comments.
    assert!(!names_crate("let image = 3; image_count::x", "image"));
    assert!(!names_crate("use crate::render::image::Foo;", "image"));
    assert!(!names_crate("let gilrs_like = 1;", "gilrs"));
    assert_eq!(code("let x = 1; // wgpu::Device"), "let x = 1; ");
}

/// Lines of the files under `src/<dir>` (skipping the subfolder `skip`) that name one of `crates`.
fn crate_uses(dir: &str, skip: Option<&str>, crates: &[&str]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for file in files {
        if skip.is_some_and(|s| file.starts_with(src.join(s))) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for name in crates {
                if names_crate(code(line), name) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn the_editor_model_is_gui_free_and_its_ui_draws_through_egui_only() {
    // The document model (operations, history, snapping, session, recovery) is tested without
    // any UI; only `editor::ui` knows egui, and nothing in the editor opens windows or GPUs.
    let model = crate_uses(
        "editor",
        Some("ui"),
        &["egui", "wgpu", "winit", "gilrs", "rodio"],
    );
    assert!(
        model.is_empty(),
        "the editor model must stay GUI-free:\n{}",
        model.join("\n")
    );
    let ui = crate_uses("editor/ui", None, &["wgpu", "winit", "gilrs", "rodio"]);
    assert!(
        ui.is_empty(),
        "the editor UI draws through egui only:\n{}",
        ui.join("\n")
    );
}
