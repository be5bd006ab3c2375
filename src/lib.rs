//! Tessera: a 2D side-scroller with arbitrary ("vectorial") level geometry.
//!
//! The simulation layers (`collision`, `movement`, `level`, `sim`) are a plain
//! headless library: they never import window, GPU, audio or input crates.
pub mod collision;
pub mod level;
pub mod movement;
pub mod sim;
/// The solver: a search over the simulation for a route to the goal (`tessera solve`).
pub mod solve;
#[cfg(test)]
pub(crate) mod test_seed;

// The game front end: reads the simulation, never the other way round.
pub mod anim;
pub mod app;
pub mod audio;
pub mod editor;
pub mod input;
pub mod render;
pub mod view;
