//! WGSL sources: one file per pass in `shaders/`, each prefixed with `shaders/common.wgsl` (the
//! shared `Globals` struct; WGSL has no include). Embedded at compile time so the binary needs no
//! data files to draw.
//!
//! Hot reloading from disk was left out: with the sources embedded, a shader edit costs an
//! incremental rebuild of this crate only, and a missing or broken file can never fail at run time.
use std::borrow::Cow;

/// The shared prelude.
pub const COMMON: &str = include_str!("../../shaders/common.wgsl");

/// A render pass's shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassShader {
    /// `shaders/shadow.wgsl`
    Shadow,
    /// `shaders/background.wgsl`
    Background,
    /// `shaders/lit.wgsl`
    Lit,
    /// `shaders/overlay.wgsl`
    Overlay,
}

impl PassShader {
    /// Every pass shader.
    pub const ALL: [PassShader; 4] = [
        PassShader::Shadow,
        PassShader::Background,
        PassShader::Lit,
        PassShader::Overlay,
    ];

    /// The file name under `shaders/`.
    pub fn file_name(self) -> &'static str {
        match self {
            PassShader::Shadow => "shadow.wgsl",
            PassShader::Background => "background.wgsl",
            PassShader::Lit => "lit.wgsl",
            PassShader::Overlay => "overlay.wgsl",
        }
    }

    fn body(self) -> &'static str {
        match self {
            PassShader::Shadow => include_str!("../../shaders/shadow.wgsl"),
            PassShader::Background => include_str!("../../shaders/background.wgsl"),
            PassShader::Lit => include_str!("../../shaders/lit.wgsl"),
            PassShader::Overlay => include_str!("../../shaders/overlay.wgsl"),
        }
    }

    /// The complete WGSL source: the common prelude, then the pass's file.
    pub fn source(self) -> String {
        format!("{COMMON}\n{}", self.body())
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
        let (_, ty) = m
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some("VertexIn"))
            .expect("VertexIn");
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

    fn rust_inputs(attrs: &[wgpu::VertexAttribute]) -> Vec<(u32, u32)> {
        attrs
            .iter()
            .map(|a| (a.shader_location, a.format.size() as u32))
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
                name == "common.wgsl" || PassShader::ALL.iter().any(|p| p.file_name() == name),
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
        for p in [PassShader::Background, PassShader::Overlay] {
            assert_eq!(
                vertex_inputs(&validated(p)),
                rust_inputs(&ColorVertex::ATTRIBUTES),
                "{}",
                p.file_name()
            );
        }
    }

    #[test]
    fn fragment_stages_exist_where_colour_is_written() {
        for p in [PassShader::Background, PassShader::Lit, PassShader::Overlay] {
            assert!(
                validated(p)
                    .entry_points
                    .iter()
                    .any(|e| e.name == "fs_main"),
                "{}",
                p.file_name()
            );
        }
        assert!(!validated(PassShader::Shadow)
            .entry_points
            .iter()
            .any(|e| e.name == "fs_main"));
    }
}
