//! The solver: a search over the deterministic simulation for a route from the spawn to the
//! goal, under human constraints, with no replay given (`tessera solve`).
//!
//! # Human constraints
//! Inputs change at most every 4 ticks (33 ms): a route is a list of moves ([`Move`]: left,
//! right or neither, jump held or not, plus crouch, up, down or attack where the level needs
//! them), each held for a multiple of 4 ticks ([`Config::step`]). No frame-perfect sequences:
//! each change's slack ([`slack`]) says how many ticks earlier and later it could come.
//!
//! # What it owns
//! - `moves`: the moves and the actions holding one gives;
//! - `key`: the quantised state key that merges states a few centimetres apart;
//! - `search`: weighted A* over the world's snapshots (`sim::world::snapshot`), the budget in
//!   simulated ticks;
//! - `route`: a found route, as per-tick actions and as a replay;
//! - `slack`: each input change's window.
//!
//! # Determinism
//! The budget counts simulated ticks ([`NOMINAL_TICKS_PER_SECOND`] per second of budget), never
//! wall-clock time; the moves are tried in a fixed order, ties broken by the order nodes were
//! made, and the state key is a fixed hash: the same level and budget give the same route on
//! every machine.
//!
//! # Must never depend on
//! Window, GPU, audio or input crates: it reads the simulation (`sim`) and the level, and the
//! simulation never reads it (the world's tick knows nothing of a search).
mod key;
mod moves;
mod route;
mod search;
mod slack;

pub use key::state_key;
pub use moves::{moves_for, Move};
pub use route::{actions_of, Route};
pub use search::{search, Config, Furthest, Outcome, Stats, NOMINAL_TICKS_PER_SECOND};
pub use slack::{narrowest, slack, Slack, MAX_SHIFT};
