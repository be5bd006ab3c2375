//! Tessera's integration tests: one test crate, one module per subject.
//!
//! Every file under `tests/it/` used to be its own test crate, and each of those linked the whole
//! game (wgpu, egui, rodio, winit) into its own executable: 33 links of about 90 MB each per test
//! build. One crate links once (BENCHMARKS.md, "Test build").
//!
//! Run one subject with a filter on its module: `cargo test --test it collision_props::`, or one
//! test by its path, `cargo test --test it -- --exact steps::stairs_are_climbed_and_descended_without_a_jump`.
//!
//! The modules share one process, so nothing here may change the process's environment, working
//! directory or logger: a test that needs another environment runs itself again as a child process
//! (`common::rerun_as_child`, as `audio_device` does). Tests that start their own X server and a
//! game window take `common::display_lock()`, so at most one such window renders at a time.
//!
//! Shared helpers are in `tests/common/`: levels and scripted runs for the movement tests
//! (`common`), source polygons for the collision tests (`common::source`).

#[path = "../common/mod.rs"]
mod common;

mod agents;
mod anim_controller;
mod audio_device;
mod audio_quiet;
mod audio_render;
mod bad_input;
mod bad_model;
mod campaign;
mod cast;
mod chunked_mesh;
mod cli;
mod collision_bad_input;
mod collision_props;
mod collision_regressions;
mod collision_scenarios;
mod data_files;
mod determinism;
mod dist_checks;
mod doors;
mod editor_kill;
mod editor_objects;
mod editor_props;
mod editor_recovery;
mod editor_save;
mod editor_signals;
mod editor_ui;
mod editor_view;
mod input_game_loop;
mod input_mapping;
mod layering;
mod level_swap;
mod levels;
mod memory_cap;
mod model_conformance;
mod model_exporters;
mod model_generator;
mod movement_scenarios;
mod movers;
mod objects;
mod play;
mod random_triggers;
mod regression_door_closing_on_a_rider_puts_it_in_its_mover;
mod regression_error_said_twice;
mod regression_landing_slide_past_a_joint;
mod regression_long_polygon_drawn;
mod regression_one_way_resting_on_ground;
mod regression_spawn_on_a_mover_rides_it;
mod regression_support_at_exactly_the_max_slope;
mod regression_swinging_plank_rider_keeps_its_seat;
mod regression_take_off_counts_the_platform_once;
mod regression_walk_from_vertex_past_blocking_edge;
mod release_workflow;
mod render_golden;
mod render_smoke;
mod riders;
mod signals;
mod signs;
mod snapshots;
mod solve;
mod sound_events;
mod sound_generator;
mod steps;
mod tracks;
mod window_designer;
mod window_input;
mod window_signs;
