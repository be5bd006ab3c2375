//! The renderer: a low-poly 3D view of the 2D world, drawn with wgpu.
//!
//! # What it owns
//! - CPU geometry: level polygons extruded into bevelled slabs and ladders ([`level_mesh`],
//!   [`ladder_mesh`], built once per level, drawn by chunk), the parallax backdrop
//!   ([`background_mesh`], designed once per level and cut to the view each frame), the
//!   collision debug overlay ([`collision_overlay`] through the [`debug_draw::DebugDraw`] trait),
//!   the level's signs shown near the hero ([`sign_mesh`]), the checkpoints and the goal as
//!   flags and a gate ([`marker_mesh`]).
//! - The skinned hero on the GPU ([`skinned`]: its mesh uploaded once, its joint palette from
//!   `anim` uploaded once per frame, skinned in the vertex stage of the lit and shadow passes),
//!   and the agents drawn with characters: the same way on a GPU, posed on the CPU and drawn in
//!   one batch per model on a CPU rasteriser ([`posed`]).
//! - The light ([`globals`]: sun, ambient, fog, the shadow camera). The camera, the hero's
//!   animation and step smoothing are the view's (`crate::view`): a frame is drawn from the
//!   world and the view's [`crate::view::Snapshot`], nothing else.
//! - Per-frame preparation on the CPU ([`frame`]), then the GPU side: device ([`gpu`]), passes
//!   ([`passes`], one pipeline and one WGSL file in `shaders/` each), the [`renderer`] that
//!   submits a frame, and offscreen rendering to PNG ([`headless`]).
//!
//! Colour is linear in the shaders and written to sRGB targets; the main pass is 4× MSAA on GPUs
//! (and 1× with a cheaper shadow filter on CPU rasterisers such as lavapipe: [`quality`]).
//!
//! # Must never depend on
//! The app, the input module or winit: it draws a `sim::World` and a view snapshot into any
//! texture view, so the game
//! window, `tessera render` and the tests share it. The simulation never depends on it.
pub mod background_mesh;
pub mod collision_overlay;
pub mod debug_draw;
pub mod frame;
pub mod globals;
pub mod gpu;
pub mod gpu_buffer;
pub mod hazard_look;
pub mod headless;
pub mod ladder_mesh;
pub mod level_mesh;
pub mod marker_mesh;
pub mod object_mesh;
pub mod palette;
pub mod passes;
pub mod posed;
pub mod quality;
pub mod renderer;
pub mod shaders;
pub mod sheet_font;
pub mod sign_mesh;
pub mod skinned;
pub mod spike_mesh;
pub mod switch_paint;
pub mod targets;
pub mod vertex;

pub use frame::{FrameData, FrameParams};
pub use gpu::{Gpu, GpuError};
pub use headless::{
    contact_sheet, render_level_to_png, render_level_to_png_with_signs, scene_at_frame,
    scene_with_hero, world_at_frame, Headless, Image, RenderError, SheetRow, SHEET_CELL,
    SHEET_LABEL, SHEET_PHASES,
};
pub use level_mesh::{ChunkTable, LevelGeometry, SlabConfig};
pub use quality::{Msaa, Quality};
pub use renderer::{FrameTarget, Renderer};
