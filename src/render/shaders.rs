//! WGSL sources: one file per pass in `shaders/`, each prefixed with `shaders/common.wgsl` (the
//! shared `Globals` struct). Embedded at compile time so the binary needs no data files to draw.
//!
//! # Includes
//! WGSL has no include, so a pass file names the shared files it needs on lines of their own,
//! `//#include "lighting.wgsl"` (a comment to any other WGSL tool), and [`PassShader::source`]
//! replaces each such line with the file (from [`INCLUDES`], once per pass even if named twice;
//! includes do not include). The lit pass and the skinned lit pass share `lighting.wgsl` this
//! way; the two skinned passes share `skinning.wgsl`.
//!
//! Hot reloading from disk was left out: with the sources embedded, a shader edit costs an
//! incremental rebuild of this crate only, and a missing or broken file can never fail at run time.
use std::borrow::Cow;

/// The shared prelude.
pub const COMMON: &str = include_str!("../../shaders/common.wgsl");

/// The files a pass may include, by name.
pub const INCLUDES: [(&str, &str); 2] = [
    ("lighting.wgsl", include_str!("../../shaders/lighting.wgsl")),
    ("skinning.wgsl", include_str!("../../shaders/skinning.wgsl")),
];

/// The prefix of an include line.
const INCLUDE: &str = "//#include ";

/// `body` with each include line replaced by the named file (a name that is not in [`INCLUDES`]
/// is left as the comment it is, and naga's validation of the result then fails on what it
/// lacks).
fn expand(body: &str) -> String {
    let mut out = String::with_capacity(body.len() * 2);
    let mut done: Vec<&str> = Vec::new();
    for line in body.lines() {
        let name = line
            .trim()
            .strip_prefix(INCLUDE)
            .map(|n| n.trim().trim_matches('"'));
        match name.and_then(|n| INCLUDES.iter().find(|(f, _)| *f == n)) {
            Some((file, text)) => {
                if !done.contains(file) {
                    done.push(file);
                    out.push_str(text);
                }
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A render pass's shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassShader {
    /// `shaders/shadow.wgsl`
    Shadow,
    /// `shaders/unlit.wgsl`: the background and overlay passes' unlit coloured triangles.
    Unlit,
    /// `shaders/lit.wgsl`
    Lit,
    /// `shaders/skinned_lit.wgsl`
    SkinnedLit,
    /// `shaders/skinned_shadow.wgsl`
    SkinnedShadow,
}

impl PassShader {
    /// Every pass shader.
    pub const ALL: [PassShader; 5] = [
        PassShader::Shadow,
        PassShader::Unlit,
        PassShader::Lit,
        PassShader::SkinnedLit,
        PassShader::SkinnedShadow,
    ];

    /// The file name under `shaders/`.
    pub fn file_name(self) -> &'static str {
        match self {
            PassShader::Shadow => "shadow.wgsl",
            PassShader::Unlit => "unlit.wgsl",
            PassShader::Lit => "lit.wgsl",
            PassShader::SkinnedLit => "skinned_lit.wgsl",
            PassShader::SkinnedShadow => "skinned_shadow.wgsl",
        }
    }

    fn body(self) -> &'static str {
        match self {
            PassShader::Shadow => include_str!("../../shaders/shadow.wgsl"),
            PassShader::Unlit => include_str!("../../shaders/unlit.wgsl"),
            PassShader::Lit => include_str!("../../shaders/lit.wgsl"),
            PassShader::SkinnedLit => include_str!("../../shaders/skinned_lit.wgsl"),
            PassShader::SkinnedShadow => include_str!("../../shaders/skinned_shadow.wgsl"),
        }
    }

    /// The complete WGSL source: the common prelude, then the pass's file with its includes.
    pub fn source(self) -> String {
        format!("{COMMON}\n{}", expand(self.body()))
    }

    /// Compiles the shader on `device`.
    pub fn module(self, device: &wgpu::Device) -> wgpu::ShaderModule {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.file_name()),
            source: wgpu::ShaderSource::Wgsl(Cow::Owned(self.source())),
        })
    }
}

#[cfg(test)]
mod tests {
    //! The cheapest GPU check: naga parses and validates every WGSL file with no device, and the
    //! Rust structs that mirror shader structs have the shader's size and vertex layout.
    use super::*;
    use crate::render::globals::Globals;
    use crate::render::skinned::{Palette, SkinnedVertex};
    use crate::render::vertex::{ColorVertex, MeshVertex};
    use wgpu::naga;

    fn validated(p: PassShader) -> naga::Module {
        let module = naga::front::wgsl::parse_str(&p.source())
            .unwrap_or_else(|e| panic!("{}: {}", p.file_name(), e.emit_to_string(&p.source())));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}: {}", p.file_name(), e.emit_to_string(&p.source())));
        module
    }

    fn struct_size(m: &naga::Module, name: &str) -> u32 {
        m.types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
            .map(|(h, _)| m.types[h].inner.size(m.to_ctx()))
            .unwrap_or_else(|| panic!("no struct {name}"))
    }

    /// Vertex input locations and their byte sizes, from the shader's `VertexIn`.
    fn vertex_inputs(m: &naga::Module) -> Vec<(u32, u32)> {
        struct_inputs(m, "VertexIn")
    }

    /// Vertex input locations and their byte sizes, from the shader struct `name`.
    fn struct_inputs(m: &naga::Module, name: &str) -> Vec<(u32, u32)> {
        let (_, ty) = m
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no struct {name}"));
        let naga::TypeInner::Struct { members, .. } = &ty.inner else {
            panic!("VertexIn is not a struct")
        };
        members
            .iter()
            .map(|mb| {
                let Some(naga::Binding::Location { location, .. }) = mb.binding else {
                    panic!("unbound member")
                };
                (location, m.types[mb.ty].inner.size(m.to_ctx()))
            })
            .collect()
    }

    /// Rust vertex attributes as the shader sees them: location and the size of the WGSL type
    /// the format is read as (packed integers widen to 32-bit components).
    fn rust_inputs(attrs: &[wgpu::VertexAttribute]) -> Vec<(u32, u32)> {
        attrs
            .iter()
            .map(|a| {
                let size = match a.format {
                    wgpu::VertexFormat::Uint16x4 | wgpu::VertexFormat::Uint8x4 => 16,
                    f => f.size() as u32,
                };
                (a.shader_location, size)
            })
            .collect()
    }

    #[test]
    fn every_wgsl_file_parses_and_validates() {
        for p in PassShader::ALL {
            let m = validated(p);
            assert!(
                m.entry_points.iter().any(|e| e.name == "vs_main"),
                "{}",
                p.file_name()
            );
        }
    }

    #[test]
    fn every_file_in_the_shaders_folder_is_a_pass_or_the_prelude() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(
                name == "common.wgsl"
                    || INCLUDES.iter().any(|(f, _)| *f == name)
                    || PassShader::ALL.iter().any(|p| p.file_name() == name),
                "{name} is not loaded by any pass"
            );
        }
    }

    #[test]
    fn rust_structs_mirror_the_shader_structs() {
        let lit = validated(PassShader::Lit);
        assert_eq!(
            struct_size(&lit, "Globals") as usize,
            std::mem::size_of::<Globals>()
        );
        assert_eq!(vertex_inputs(&lit), rust_inputs(&MeshVertex::ATTRIBUTES));
        assert_eq!(
            vertex_inputs(&validated(PassShader::Shadow)),
            rust_inputs(&MeshVertex::ATTRIBUTES)
        );
        assert_eq!(
            vertex_inputs(&validated(PassShader::Unlit)),
            rust_inputs(&ColorVertex::ATTRIBUTES)
        );
        for p in [PassShader::SkinnedLit, PassShader::SkinnedShadow] {
            let m = validated(p);
            assert_eq!(
                struct_inputs(&m, "SkinnedIn"),
                rust_inputs(&SkinnedVertex::ATTRIBUTES),
                "{}",
                p.file_name()
            );
            assert_eq!(
                struct_size(&m, "Palette") as usize,
                std::mem::size_of::<Palette>()
            );
        }
        assert_eq!(
            struct_size(&validated(PassShader::SkinnedLit), "Globals") as usize,
            std::mem::size_of::<Globals>()
        );
    }

    #[test]
    fn includes_are_expanded_once_and_shared() {
        let lit = PassShader::Lit.source();
        let skinned = PassShader::SkinnedLit.source();
        for s in [&lit, &skinned] {
            assert_eq!(s.matches("fn light_vertex(").count(), 1);
            assert!(!s.lines().any(|l| l.trim().starts_with(INCLUDE)));
        }
        assert_eq!(skinned.matches("fn skin_matrix(").count(), 1);
        assert_eq!(
            expand("//#include \"skinning.wgsl\"\n//#include \"skinning.wgsl\"")
                .matches("fn skin_matrix(")
                .count(),
            1
        );
        // An unknown name stays a comment.
        assert_eq!(
            expand("//#include \"nope.wgsl\""),
            "//#include \"nope.wgsl\"\n"
        );
    }

    #[test]
    fn fragment_stages_exist_where_colour_is_written() {
        for p in [PassShader::Unlit, PassShader::Lit, PassShader::SkinnedLit] {
            assert!(
                validated(p)
                    .entry_points
                    .iter()
                    .any(|e| e.name == "fs_main"),
                "{}",
                p.file_name()
            );
        }
        for p in [PassShader::Shadow, PassShader::SkinnedShadow] {
            assert!(!validated(p)
                .entry_points
                .iter()
                .any(|e| e.name == "fs_main"));
        }
    }
}
