//! The simulation layers (`collision`, `movement`, `level`, `sim`) are a plain headless library:
//! no source file in them names a window, GPU, audio, input or image crate, or a front-end module
//! of this crate. This parses the sources (`syn`), so a new `use wgpu::...` (or a fully qualified
//! `winit::event::...` in an expression) fails here even where it would compile.
//!
//! The animation runtime (`anim`) keeps the same rules: it may read the simulation (the hero's
//! state and events) but no window, GPU, audio, input or image crate, and no other front-end
//! module; the renderer consumes its palette. The editor's model draws nothing: only `editor::ui`
//! knows egui, and nothing in the editor names wgpu, winit, gilrs or rodio. The view (`view`: camera,
//! hero animation, the snapshot the renderer draws) names no such crate either, and the game's
//! frame logic (`app/game.rs`) never names the renderer.
//!
//! Every path in a file counts: each leaf of a `use` tree (renamed, `use wgpu as gpu;`, grouped,
//! `use crate::{render::X, sim::Y}`, over several lines), paths in types and expressions,
//! `::wgpu::` with a leading `::`, `super::` and `self::` resolved against the file's module,
//! `extern crate`, and paths inside macro calls. The check used to read lines of text for
//! `name::` and missed renamed and grouped imports, `::`-rooted paths and imports spread over
//! lines; `the_check_refuses_each_import_form` gives it a fixture of each.
//!
//! Two rules of the movement code are checked the same way, on the parsed sources: the movement
//! states (found from the files) never name each other, nor does anything below them name them;
//! and in the simulation only `Hero::apply` writes a character's body, velocity or state.
//!
//! The collision core speaks only of shapes and solidity: no identifier under `src/collision`
//! names a door or a hazard (the level's kinds; to the core they are gates and passable polygons).
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

const SIMULATION: [&str; 5] = ["collision", "movement", "level", "sim", "solve"];
const FORBIDDEN_CRATES: [&str; 6] = ["wgpu", "winit", "gilrs", "egui", "rodio", "image"];
const FRONT_END: [&str; 8] = [
    "app", "render", "input", "editor", "audio", "anim", "cli", "view",
];

/// What a group of files may not name.
struct Rule<'a> {
    /// External crates (`egui` also covers `egui_wgpu`, `egui_winit`, `egui_kittest`).
    crates: &'a [&'a str],
    /// Modules of this crate, as paths from its root (`render`, `movement::airborne`): each
    /// covers what is inside it.
    modules: &'a [&'a str],
}

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

/// The module path of a file under `src/` (`src/sim/movers.rs` is `["sim", "movers"]`,
/// `src/sim/mod.rs` is `["sim"]`).
fn module_of(file: &Path) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rel = file.strip_prefix(&src).unwrap().with_extension("");
    let mut m: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if m.last().is_some_and(|l| l == "mod" || l == "lib") {
        m.pop();
    }
    m
}

/// Walks one file: every path it names, made absolute where it starts at `crate`, `self` or
/// `super`, checked against the rule.
struct Finder<'a> {
    rule: &'a Rule<'a>,
    /// The module the visitor is in (the file's, plus inline `mod x { ... }`).
    module: Vec<String>,
    found: Vec<String>,
}

impl Finder<'_> {
    /// Checks the path `segments` (names; `::` roots it at the crate root of the extern prelude),
    /// found at `line`.
    fn check(&mut self, leading_colon: bool, segments: &[String], line: usize) {
        let Some(first) = segments.first() else {
            return;
        };
        let what = format!(
            "{}{}",
            if leading_colon { "::" } else { "" },
            segments.join("::")
        );
        // A crate: `::name`, or `name::...` (a single name is a local binding or a prelude item;
        // `use name;` and `extern crate name` are checked by their callers with `single`).
        if leading_colon || segments.len() > 1 {
            if let Some(c) = self.forbidden_crate(first) {
                self.found.push(format!("line {line}: crate {c}: {what}"));
                return;
            }
        }
        if leading_colon {
            return;
        }
        // A module of this crate: resolve `crate`, `self`, `super` to an absolute path.
        let mut abs: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.module.clone(),
            "super" => {
                let mut m = self.module.clone();
                m.pop();
                m
            }
            _ => return,
        };
        let mut rest = &segments[1..];
        while rest.first().is_some_and(|s| s == "super") {
            abs.pop();
            rest = &rest[1..];
        }
        abs.extend(rest.iter().cloned());
        let within = |m: &str| {
            let parts: Vec<&str> = m.split("::").collect();
            abs.len() >= parts.len() && abs.iter().zip(&parts).all(|(a, p)| a == p)
        };
        if let Some(m) = self.rule.modules.iter().find(|m| within(m)) {
            self.found
                .push(format!("line {line}: module crate::{m}: {what}"));
        }
    }

    fn forbidden_crate(&self, name: &str) -> Option<&str> {
        self.rule.crates.iter().copied().find(|&c| {
            name == c || (c == "egui" && name.strip_prefix("egui_").is_some_and(|r| !r.is_empty()))
        })
    }

    /// Each leaf of a `use` tree as a path.
    fn use_tree(&mut self, leading_colon: bool, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(leading_colon, prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.use_leaf(leading_colon, prefix, &n.ident),
            syn::UseTree::Rename(r) => self.use_leaf(leading_colon, prefix, &r.ident),
            syn::UseTree::Glob(g) => {
                let line = g.star_token.span.start().line;
                let mut p = prefix.clone();
                p.push("*".into());
                self.check(leading_colon, &p, line);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(leading_colon, prefix, t);
                }
            }
        }
    }

    fn use_leaf(&mut self, leading_colon: bool, prefix: &[String], ident: &syn::Ident) {
        let line = ident.span().start().line;
        let mut p = prefix.to_vec();
        p.push(ident.to_string());
        // `use wgpu;` or `use wgpu as gpu;`: a crate imported by its bare name.
        if p.len() == 1 {
            if let Some(c) = self.forbidden_crate(&p[0]) {
                self.found
                    .push(format!("line {line}: crate {c}: use {}", p[0]));
                return;
            }
        }
        self.check(leading_colon, &p, line);
    }

    /// Paths in a macro call's tokens (`format!("{}", wgpu::X)`), which syn leaves unparsed:
    /// any `a::b::c` run of identifiers, with an optional leading `::`.
    fn tokens(&mut self, tokens: TokenStream) {
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        let colons = |i: usize| {
            matches!((tts.get(i), tts.get(i + 1)),
                (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                    if a.as_char() == ':' && b.as_char() == ':')
        };
        let mut i = 0;
        while i < tts.len() {
            match &tts[i] {
                TokenTree::Group(g) => {
                    self.tokens(g.stream());
                    i += 1;
                }
                TokenTree::Ident(first) => {
                    let leading = i >= 2
                        && colons(i - 2)
                        && !matches!(tts.get(i.wrapping_sub(3)), Some(TokenTree::Ident(_)));
                    let line = first.span().start().line;
                    let mut segs = vec![first.to_string()];
                    let mut j = i + 1;
                    while colons(j) {
                        match tts.get(j + 2) {
                            Some(TokenTree::Ident(next)) => {
                                segs.push(next.to_string());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    if segs.len() > 1 || leading {
                        self.check(leading, &segs, line);
                    }
                    i = j;
                }
                _ => i += 1,
            }
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(u.leading_colon.is_some(), &mut Vec::new(), &u.tree);
    }

    fn visit_item_extern_crate(&mut self, e: &'ast syn::ItemExternCrate) {
        let name = e.ident.to_string();
        if let Some(c) = self.forbidden_crate(&name) {
            let line = e.ident.span().start().line;
            self.found
                .push(format!("line {line}: crate {c}: extern crate {name}"));
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.module.pop();
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        let line = p
            .segments
            .first()
            .map_or(0, |s| s.ident.span().start().line);
        self.check(p.leading_colon.is_some(), &segments, line);
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        syn::visit::visit_macro(self, m);
    }
}

/// What `source` (the text of a file of module `module`) names against `rule`.
fn violations_in(source: &str, module: &[&str], rule: &Rule) -> Vec<String> {
    let file = syn::parse_file(source).unwrap_or_else(|e| panic!("does not parse: {e}"));
    let mut f = Finder {
        rule,
        module: module.iter().map(|s| s.to_string()).collect(),
        found: Vec::new(),
    };
    f.visit_file(&file);
    f.found
}

/// Findings in the files under `src/<dir>`, skipping the subfolder `skip`.
fn violations(dir: &str, skip: Option<&str>, rule: &Rule) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = Vec::new();
    if src.is_file() {
        files.push(src.clone());
    } else {
        rust_files(&src, &mut files);
    }
    assert!(!files.is_empty(), "no sources under src/{dir}");
    let mut found = Vec::new();
    for file in files {
        if skip.is_some_and(|s| file.starts_with(src.join(s))) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let module = module_of(&file);
        let module: Vec<&str> = module.iter().map(String::as_str).collect();
        found.extend(
            violations_in(&text, &module, rule)
                .into_iter()
                .map(|v| format!("{}: {v}", file.display())),
        );
    }
    found
}

/// The rule of a layer: no forbidden crate, no front-end module but itself.
fn layer_rule(layer: &str) -> Vec<&'static str> {
    FRONT_END.iter().copied().filter(|&m| m != layer).collect()
}

#[test]
fn simulation_layers_import_no_front_end_crate_or_module() {
    let mut v = Vec::new();
    for layer in SIMULATION {
        let modules = layer_rule(layer);
        let rule = Rule {
            crates: &FORBIDDEN_CRATES,
            modules: &modules,
        };
        v.extend(violations(layer, None, &rule));
    }
    assert!(
        v.is_empty(),
        "the simulation layers must stay headless:\n{}",
        v.join("\n")
    );
}

#[test]
fn the_animation_runtime_imports_no_front_end_crate_or_other_front_end_module() {
    let modules = layer_rule("anim");
    let rule = Rule {
        crates: &FORBIDDEN_CRATES,
        modules: &modules,
    };
    let v = violations("anim", None, &rule);
    assert!(
        v.is_empty(),
        "the animation runtime must stay renderer-free:\n{}",
        v.join("\n")
    );
}

/// The view (camera, hero animation, step smoothing, the snapshot the renderer draws) is plain
/// state: no window, GPU, audio, input or image crate, and no front-end module but the animation
/// runtime it drives. The game's frame logic (`app/game.rs`) feeds it and never names the
/// renderer: the window hands the renderer the view's snapshot.
#[test]
fn the_view_is_renderer_free_and_the_game_logic_does_not_name_the_renderer() {
    let modules: Vec<&str> = layer_rule("view")
        .into_iter()
        .filter(|&m| m != "anim")
        .collect();
    let view = violations(
        "view",
        None,
        &Rule {
            crates: &FORBIDDEN_CRATES,
            modules: &modules,
        },
    );
    assert!(
        view.is_empty(),
        "the view must stay renderer-free:\n{}",
        view.join("\n")
    );
    let game = violations(
        "app/game.rs",
        None,
        &Rule {
            crates: &FORBIDDEN_CRATES,
            modules: &["render", "editor", "audio", "cli"],
        },
    );
    assert!(
        game.is_empty(),
        "the game's frame logic must not name the renderer:\n{}",
        game.join("\n")
    );
}

#[test]
fn the_editor_model_is_gui_free_and_its_ui_draws_through_egui_only() {
    // The document model (operations, history, snapping, session, recovery) is tested without
    // any UI; only `editor::ui` knows egui, and nothing in the editor opens windows or GPUs.
    let model = violations(
        "editor",
        Some("ui"),
        &Rule {
            crates: &["egui", "wgpu", "winit", "gilrs", "rodio"],
            modules: &[],
        },
    );
    assert!(
        model.is_empty(),
        "the editor model must stay GUI-free:\n{}",
        model.join("\n")
    );
    let ui = violations(
        "editor/ui",
        None,
        &Rule {
            crates: &["wgpu", "winit", "gilrs", "rodio"],
            modules: &[],
        },
    );
    assert!(
        ui.is_empty(),
        "the editor UI draws through egui only:\n{}",
        ui.join("\n")
    );
}

/// The movement states of `src/movement`: every file there that defines a state step (a free
/// function `step` returning a `Transition`), by module name, sorted. Read from the files, so a
/// new state is checked without being listed anywhere.
fn movement_states() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/movement");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut states: Vec<String> = files
        .iter()
        .filter(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file:?}: {e}"));
            parsed.items.iter().any(|item| {
                let syn::Item::Fn(f) = item else {
                    return false;
                };
                let syn::ReturnType::Type(_, ty) = &f.sig.output else {
                    return false;
                };
                let syn::Type::Path(p) = ty.as_ref() else {
                    return false;
                };
                f.sig.ident == "step"
                    && p.path
                        .segments
                        .last()
                        .is_some_and(|s| s.ident == "Transition")
            })
        })
        .map(|file| module_of(file).join("::"))
        .collect();
    states.sort();
    states
}

/// The movement states (each file of `src/movement` that defines a state step) are functions
/// returning a transition: none names another (they used to import each other in a loop and call
/// each other within a tick). What they share lives in `movement::rules`, below them;
/// `movement::hero` runs them. Nothing below the states (the character's data and its one writer,
/// its moves, the rules) names a state or `hero`, so `hero.rs` and the states form no circle.
#[test]
fn movement_states_never_name_each_other() {
    let states = movement_states();
    // The derivation finds the states there are (a sanity check on the parse, not the list).
    for known in [
        "movement::supported",
        "movement::riding",
        "movement::airborne",
    ] {
        assert!(
            states.iter().any(|s| s == known),
            "{known} not found among {states:?}"
        );
    }
    let mut v = Vec::new();
    for state in &states {
        let others: Vec<&str> = states
            .iter()
            .map(String::as_str)
            .filter(|&s| s != state)
            .collect();
        let mut forbidden = others.clone();
        forbidden.push("movement::hero");
        let rule = Rule {
            crates: &[],
            modules: &forbidden,
        };
        let file = format!("{}.rs", state.replace("::", "/"));
        let found = violations(&file, None, &rule);
        v.extend(found.iter().cloned());
        // The check fails on this very file with another state named in it, however named.
        let module: Vec<&str> = state.split("::").collect();
        let other = others[0].rsplit("::").next().unwrap();
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src")
                .join(&file),
        )
        .unwrap();
        for planted in [
            format!("use super::{other};"),
            format!("use crate::movement::{{{other}::step, rules}};"),
            format!("fn planted() {{ super::{other}::step(); }}"),
        ] {
            let with = format!("{text}\n{planted}\n");
            let more = violations_in(&with, &module, &rule).len() - found.len();
            assert_eq!(more, 1, "{state} with `{planted}` planted");
        }
    }
    assert!(
        v.is_empty(),
        "a movement state names another state (or `hero`, which runs them):\n{}",
        v.join("\n")
    );
    // Below the states: nothing there names a state or the step that runs them (`hero`), so
    // the states and the character's data form no import circle.
    let mut above: Vec<&str> = states.iter().map(String::as_str).collect();
    above.push("movement::hero");
    let rule = Rule {
        crates: &[],
        modules: &above,
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/movement");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut below = Vec::new();
    for file in &files {
        let module = module_of(file);
        let name = module.join("::");
        if states.contains(&name) || name == "movement" || name == "movement::hero" {
            continue;
        }
        below.push(name);
        let text = std::fs::read_to_string(file).unwrap();
        let module: Vec<&str> = module.iter().map(String::as_str).collect();
        v.extend(
            violations_in(&text, &module, &rule)
                .into_iter()
                .map(|f| format!("{}: {f}", file.display())),
        );
    }
    for known in ["movement::character", "movement::rules"] {
        assert!(
            below.iter().any(|b| b == known),
            "{known} not below the states"
        );
    }
    assert!(
        v.is_empty(),
        "a layer below the movement states names a state or `hero`:\n{}",
        v.join("\n")
    );
    let rule = Rule {
        crates: &[],
        modules: &["movement::airborne"],
    };
    let fine = "use super::rules::{self, Ctx};";
    assert!(violations_in(fine, &["movement", "supported"], &rule).is_empty());
}

/// Every way of naming a forbidden crate or module is found, in a file of `src/sim/`; names that
/// only look alike are not.
#[test]
fn the_check_refuses_each_import_form() {
    let modules = layer_rule("sim");
    let rule = Rule {
        crates: &FORBIDDEN_CRATES,
        modules: &modules,
    };
    let sim_file = ["sim", "world"];
    let refused = [
        ("plain use", "use wgpu::Device;"),
        ("renamed crate", "use wgpu as gpu;"),
        ("renamed item", "use winit::event::Event as E;"),
        ("bare crate", "use rodio;"),
        ("glob", "use gilrs::*;"),
        (
            "leading ::",
            "fn f() { let _ = ::wgpu::Features::empty(); }",
        ),
        ("leading :: in use", "use ::image::RgbaImage;"),
        ("path in a type", "struct S { e: winit::event::Event<()> }"),
        ("path in an expression", "fn f() { image::open(\"x\"); }"),
        ("egui's companion crates", "use egui_wgpu::Renderer;"),
        ("grouped crates", "use {rodio::Source, std::fmt};"),
        (
            "grouped crate modules",
            "use crate::{level::Level, render::Renderer};",
        ),
        (
            "nested groups over lines",
            "use crate::{\n    level::Level,\n    app::{\n        ui::Ui,\n    },\n};",
        ),
        ("multi-line use", "use wgpu::{\n    Device,\n    Queue,\n};"),
        ("crate module path", "fn f() { crate::audio::play(); }"),
        (
            "super to a front-end module",
            "use super::super::render::Frame;",
        ),
        ("super in a path", "fn f() { super::super::input::poll(); }"),
        (
            "inside an inline module",
            "mod inner { use super::super::super::editor::Session; }",
        ),
        ("extern crate", "extern crate winit;"),
        (
            "a macro's argument",
            "fn f() { let _ = format!(\"{:?}\", wgpu::Features::empty()); }",
        ),
        (
            "a macro's :: path",
            "fn f() { assert!(::gilrs::Gilrs::new().is_ok()); }",
        ),
    ];
    for (what, source) in refused {
        let v = violations_in(source, &sim_file, &rule);
        assert!(!v.is_empty(), "{what} not refused: {source}");
    }
    // The line of a finding in a multi-line import is the line that names it.
    let v = violations_in(
        "use crate::{\n    level::Level,\n    render::Renderer,\n};",
        &sim_file,
        &rule,
    );
    assert_eq!(v, ["line 3: module crate::render: crate::render::Renderer"]);

    let allowed = [
        (
            "a local named like a crate",
            "fn f() { let image = 3; let _ = image + 1; }",
        ),
        (
            "another crate's module named like one",
            "use crate::level::image::Foo;",
        ),
        (
            "a similar name",
            "fn f() { let gilrs_like = 1; let _ = gilrs_like; }",
        ),
        (
            "the layer itself",
            "use crate::sim::world::World; use super::replay::Replay;",
        ),
        (
            "another simulation layer",
            "use crate::{collision::Body, movement::Hero};",
        ),
        (
            "a comment",
            "// use wgpu::Device;\n/// `winit::event::Event`\nfn f() {}",
        ),
        ("a string", "fn f() -> &'static str { \"wgpu::Device\" }"),
        ("std", "use std::{fmt, io::Write};"),
    ];
    for (what, source) in allowed {
        let v = violations_in(source, &sim_file, &rule);
        assert!(v.is_empty(), "{what} refused: {source}: {v:?}");
    }
}

/// Finds the writes to a character's `body`, `vel` or `state` (whatever the base: `h.state`,
/// `self.hero.vel.x`, `(h.body, h.state)`, `&mut h.state`) outside `Hero::apply`.
struct Writes {
    /// The functions the visitor is in, innermost last.
    fns: Vec<String>,
    /// Whether the file is `movement/character.rs`, where `apply` lives.
    in_character: bool,
    found: Vec<String>,
}

/// The fields only `Hero::apply` writes.
const WRITTEN_BY_APPLY: [&str; 3] = ["body", "vel", "state"];

impl Writes {
    /// The written field of `e` (`x.body.pos` writes `body`) when it is one of
    /// [`WRITTEN_BY_APPLY`] of a character; `res.body` is the walk's result buffer (a
    /// `MoveResult`), not a character.
    fn written_field(e: &syn::Expr) -> Option<String> {
        let mut e = e;
        let mut hit = None;
        while let syn::Expr::Field(f) = e {
            if let syn::Member::Named(n) = &f.member {
                if WRITTEN_BY_APPLY.iter().any(|w| n == w) {
                    hit = Some(n.to_string());
                }
            }
            e = &f.base;
        }
        let is_result = matches!(e, syn::Expr::Path(p) if p.path.is_ident("res"));
        hit.filter(|_| !is_result)
    }

    fn check(&mut self, left: &syn::Expr, line: usize) {
        if let syn::Expr::Tuple(t) = left {
            for e in &t.elems {
                self.check(e, line);
            }
            return;
        }
        if let Some(field) = Self::written_field(left) {
            let allowed = self.in_character && self.fns.iter().any(|f| f == "apply");
            if !allowed {
                let within = self.fns.last().map_or("", String::as_str);
                self.found
                    .push(format!("line {line}: writes `{field}` in fn {within}"));
            }
        }
    }
}

impl<'ast> Visit<'ast> for Writes {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.fns.push(f.sig.ident.to_string());
        syn::visit::visit_item_fn(self, f);
        self.fns.pop();
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.fns.push(f.sig.ident.to_string());
        syn::visit::visit_impl_item_fn(self, f);
        self.fns.pop();
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.check(&a.left, a.eq_token.spans[0].start().line);
        syn::visit::visit_expr_assign(self, a);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        use syn::BinOp::*;
        let line = match &b.op {
            AddAssign(t) => Some(t.spans[0]),
            SubAssign(t) => Some(t.spans[0]),
            MulAssign(t) => Some(t.spans[0]),
            DivAssign(t) => Some(t.spans[0]),
            RemAssign(t) => Some(t.spans[0]),
            BitXorAssign(t) => Some(t.spans[0]),
            BitAndAssign(t) => Some(t.spans[0]),
            BitOrAssign(t) => Some(t.spans[0]),
            ShlAssign(t) => Some(t.spans[0]),
            ShrAssign(t) => Some(t.spans[0]),
            _ => None,
        };
        if let Some(span) = line {
            self.check(&b.left, span.start().line);
        }
        syn::visit::visit_expr_binary(self, b);
    }

    fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
        if r.mutability.is_some() {
            self.check(&r.expr, r.and_token.span.start().line);
        }
        syn::visit::visit_expr_reference(self, r);
    }
}

/// The writes that `source` (a file of the simulation; `in_character`: `movement/character.rs`)
/// makes to a character's body, velocity or state outside `Hero::apply`.
fn writes_in(source: &str, in_character: bool) -> Vec<String> {
    let file = syn::parse_file(source).unwrap_or_else(|e| panic!("does not parse: {e}"));
    let mut w = Writes {
        fns: Vec::new(),
        in_character,
        found: Vec::new(),
    };
    w.visit_file(&file);
    w.found
}

/// One writer of a character's state: in the simulation (`movement`, `sim`), only `Hero::apply`
/// (`movement/character.rs`) writes a character's `body`, `vel` or `state`. Movement states,
/// the movers' carry and push, doors, the rules of play and spawns propose a change that `apply`
/// makes (the movers, the doors and the knock-back used to assign them in 20 places).
#[test]
fn only_apply_writes_a_character_s_body_velocity_or_state() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join("movement"), &mut files);
    rust_files(&root.join("sim"), &mut files);
    let character = root.join("movement/character.rs");
    assert!(files.contains(&character));
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        found.extend(
            writes_in(&text, *file == character)
                .into_iter()
                .map(|f| format!("{}: {f}", file.display())),
        );
    }
    assert!(
        found.is_empty(),
        "a character's body, velocity or state written outside `Hero::apply`:\n{}",
        found.join("\n")
    );
    // The check sees each form of write, and only outside `apply`.
    for planted in [
        "fn f(h: &mut Hero) { h.vel = DVec2::ZERO; }",
        "fn f(h: &mut Hero) { h.body.pos.x += 1.0; }",
        "fn f(w: &mut World) { w.hero.state = MoveState::Airborne; }",
        "fn f(h: &mut Hero, from: (Body, u8)) { (h.body, h.jump) = from; }",
        "fn f(h: &mut Hero) { let s = &mut h.state; }",
        "impl Hero { fn apply(&mut self) {} fn g(&mut self) { self.vel.y *= 0.5; } }",
    ] {
        assert_eq!(writes_in(planted, false).len(), 1, "{planted}");
        assert_eq!(writes_in(planted, true).len(), 1, "{planted}");
    }
    for fine in [
        "impl Hero { fn apply(&mut self, v: DVec2) { self.vel = v; self.body.pos = v; } }",
        "fn f(h: &mut Hero, res: &mut MoveResult) { res.body = h.body; h.timers.coyote = 0.0; }",
        "fn f(h: &mut Hero) { let j = &mut h.jump_rising; let v = h.vel; }",
    ] {
        assert!(writes_in(fine, true).is_empty(), "{fine}");
    }
    assert_eq!(
        writes_in(
            "impl Hero { fn apply(&mut self, v: DVec2) { self.vel = v; } }",
            false
        )
        .len(),
        1,
        "`apply` is the one writer only in `movement/character.rs`"
    );
}

/// Words of the level and the game that the collision core must not use: it knows shapes and
/// solidity (solid, one-way, gate, passable); a door is a gate to it, a hazard a passable polygon,
/// and what they mean is the level's and the rules of play's.
const LEVEL_WORDS: [&str; 2] = ["door", "hazard"];

/// Every identifier in `source` (items, expressions, macro bodies: the whole token stream, not
/// comments or strings) that contains one of [`LEVEL_WORDS`], whatever its case, with its line.
fn level_words_in(source: &str) -> Vec<String> {
    fn walk(tokens: TokenStream, out: &mut Vec<String>) {
        for t in tokens {
            match t {
                TokenTree::Group(g) => walk(g.stream(), out),
                TokenTree::Ident(i) => {
                    let name = i.to_string().to_lowercase();
                    if LEVEL_WORDS.iter().any(|w| name.contains(w)) {
                        out.push(format!("line {}: `{i}`", i.span().start().line));
                    }
                }
                _ => {}
            }
        }
    }
    let tokens: TokenStream = source.parse().expect("the file tokenizes");
    let mut out = Vec::new();
    walk(tokens, &mut out);
    out
}

#[test]
fn the_collision_core_never_names_a_door_or_a_hazard() {
    // The check itself: identifiers anywhere count (a variant, a local in a macro call, a
    // function), comments and strings do not.
    let planted = "enum Solidity { Door }\n\
                   fn f() { let open_doors = 1; println!(\"{}\", HAZARD_DEPTH); }\n\
                   fn gate_of_door() {}";
    assert_eq!(
        level_words_in(planted).len(),
        4,
        "{:?}",
        level_words_in(planted)
    );
    let clean = "/// A gate (a door, to the level).\n// hazards make no pieces\n\
                 fn f() -> &'static str { \"every door\" }";
    assert!(
        level_words_in(clean).is_empty(),
        "{:?}",
        level_words_in(clean)
    );

    let mut files = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/collision");
    rust_files(&dir, &mut files);
    assert!(
        files.len() > 20,
        "found {} files under {dir:?}",
        files.len()
    );
    let mut found = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        for v in level_words_in(&source) {
            found.push(format!("{}: {v}", file.display()));
        }
    }
    assert!(
        found.is_empty(),
        "the collision core names a level object (it knows only shapes and solidity):\n{}",
        found.join("\n")
    );
}

/// The simulation's registered object kinds, `(module, type)`, as the `registry!` call in
/// `src/sim/kinds/mod.rs` lists them (read from the file, so a kind added to the list is
/// checked with no change here).
fn registered_sim_kinds() -> Vec<(String, String)> {
    use syn::punctuated::Punctuated;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim/kinds/mod.rs");
    let file = syn::parse_file(&std::fs::read_to_string(path).unwrap()).unwrap();
    let list = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Macro(m) if m.mac.path.is_ident("registry") => Some(&m.mac),
            _ => None,
        })
        .expect("src/sim/kinds/mod.rs calls registry!");
    list.parse_body_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        .expect("registry! lists `module::Type` paths")
        .iter()
        .map(|p| {
            let names: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
            assert_eq!(names.len(), 2, "registry! lists `module::Type`: {names:?}");
            (names[0].clone(), names[1].clone())
        })
        .collect()
}

/// The identifiers in `tokens` that name a registered kind: its type, or, with `modules`, its
/// module (the `Objects` field that holds its state), each with its line.
fn kind_names_in(
    tokens: TokenStream,
    kinds: &[(String, String)],
    modules: bool,
    out: &mut Vec<String>,
) {
    for t in tokens {
        match t {
            TokenTree::Group(g) => kind_names_in(g.stream(), kinds, modules, out),
            TokenTree::Ident(i) => {
                let name = i.to_string();
                if kinds
                    .iter()
                    .any(|(m, k)| *k == name || (modules && *m == name))
                {
                    out.push(format!("line {}: `{i}`", i.span().start().line));
                }
            }
            _ => {}
        }
    }
}

/// What a file of the world or the rules of play names of the registered kinds: their types
/// anywhere, and in the tick (`fn step`'s body) or, with `whole`, anywhere, their modules.
fn kinds_named_in(source: &str, kinds: &[(String, String)], whole: bool) -> Vec<String> {
    let tokens: TokenStream = source.parse().expect("the file tokenizes");
    let mut out = Vec::new();
    kind_names_in(tokens.clone(), kinds, whole, &mut out);
    if whole {
        return out;
    }
    // The body of every `fn step`: the first braced group after `fn step`, at any depth.
    fn step_bodies(tokens: TokenStream, out: &mut Vec<TokenStream>) {
        let mut after_fn_step = 0;
        let mut last_fn = false;
        for t in tokens {
            match &t {
                TokenTree::Ident(i) => {
                    if last_fn && i == "step" {
                        after_fn_step = 1;
                    }
                    last_fn = i == "fn";
                }
                TokenTree::Group(g) => {
                    last_fn = false;
                    if after_fn_step == 1 && g.delimiter() == proc_macro2::Delimiter::Brace {
                        out.push(g.stream());
                        after_fn_step = 0;
                    } else {
                        step_bodies(g.stream(), out);
                    }
                }
                TokenTree::Punct(_) | TokenTree::Literal(_) => last_fn = false,
            }
        }
    }
    let mut bodies = Vec::new();
    step_bodies(tokens, &mut bodies);
    for body in bodies {
        kind_names_in(body, kinds, true, &mut out);
    }
    out
}

/// Object kinds are added by registration (`sim::kinds`): the world (`src/sim/world/`) names no
/// registered kind's type, nor in its tick (`World::step`) a kind's field, and the rules of
/// play (`src/sim/play.rs`) name neither; they reach the kinds through `Objects`' phases. The
/// list is read from the registry, so a new kind is covered by its line.
#[test]
fn the_world_and_the_rules_of_play_never_name_a_registered_kind() {
    let kinds = registered_sim_kinds();
    for k in ["Doors", "Hazards", "Goal", "Checkpoints"] {
        assert!(kinds.iter().any(|(_, t)| t == k), "{k} in {kinds:?}");
    }
    // The check itself: a type anywhere; a field only in the tick (or anywhere, `whole`);
    // comments, strings and longer names do not count.
    let planted = "impl World { fn new() { let h = Hazards::new(&level); }\n\
                   fn step(&mut self) { self.objects.goal.reached(); }\n\
                   fn doors(&self) -> &[DoorState] { self.objects.door.states() } }\n\
                   // Checkpoints and a goal\n\
                   fn f() -> &'static str { \"door::Doors\" }";
    assert_eq!(
        kinds_named_in(planted, &kinds, false),
        ["line 1: `Hazards`", "line 2: `goal`"]
    );
    assert_eq!(kinds_named_in(planted, &kinds, true).len(), 3);

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim");
    let mut files = Vec::new();
    rust_files(&root.join("world"), &mut files);
    assert!(files.len() >= 4, "found {files:?}");
    let mut found = Vec::new();
    for (file, whole) in files
        .iter()
        .map(|f| (f, false))
        .chain([(&root.join("play.rs"), true)])
    {
        let source = std::fs::read_to_string(file).unwrap();
        for v in kinds_named_in(&source, &kinds, whole) {
            found.push(format!("{}: {v}", file.display()));
        }
    }
    assert!(
        found.is_empty(),
        "a registered object kind named outside its file (run it through an `Objects` phase):\n{}",
        found.join("\n")
    );
}
