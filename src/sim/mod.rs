//! The headless simulation: the world stepped at a fixed rate, and the replays that drive it.
//!
//! # What it owns
//! - [`agents`]: characters other than the hero, on the meshes of their size classes.
//! - `world`: the level's collision meshes, the hero and the agents, advanced one fixed tick per
//!   `World::step`; bit-identical for the same level, tuning and actions. Split by concern: the
//!   tick order (`world/mod.rs`), building and rebuilding a level (`rebuild`), placing the
//!   characters (`placement`), the trace and the state hash (`trace`).
//! - [`kinds`]: the level's object kinds by registration (one file per kind, one list): each
//!   kind's state and its phases of the tick (doors, hazards, the goal, checkpoints).
//! - [`movers`]: moving platforms: their paths, carrying riders and pushing (or crushing) what
//!   they overlap; [`track`]: a mover's track laid out and posed; [`clock`]: a mover's clock,
//!   the time it is posed at (state the world holds and advances).
//! - [`play`]: the rules of play: health, damage, death and respawn, the hero's attack and
//!   stomps, running the kinds' rules phases (hazards, checkpoints, the goal) at their places.
//! - [`signals`]: the level's signals: which fire each tick (read by the kinds through their
//!   stage), and their actions on the movers' clocks.
//! - [`replay`]: input scripts (RON) that produce the per-tick actions a device would.
//! - [`driver`]: the one loop that steps a world through a replay (used by `tessera sim`,
//!   offscreen rendering and the game).
//! - [`load`]: a world from files (level, tuning by the one policy, replay), the same for every
//!   command.
//!
//! # Must never depend on
//! Window, GPU, audio or input crates. It reads `level` (documents), `movement` and `collision`;
//! renderer, input, audio and editor read it, never the other way round.
pub mod agents;
pub mod clock;
pub mod driver;
pub mod kinds;
pub mod load;
pub mod movers;
pub mod play;
pub mod replay;
pub mod signals;
pub mod track;
pub mod world;

pub use agents::Agent;
pub use driver::ReplayDriver;
pub use load::{build_world, load_world, LoadError, LoadedWorld, WorldFiles};
pub use play::{DeathCause, Play, PlayEvent};
pub use replay::{
    load_replay, parse_replay, save_replay, Replay, ReplayError, ReplayIter, ReplayProblem, Segment,
};
pub use world::{
    AgentFrame, DoorState, Snapshot, TraceFrame, World, WorldError, WorldEvent, CRUSH_WIGGLE, DT,
    TICK_HZ,
};
