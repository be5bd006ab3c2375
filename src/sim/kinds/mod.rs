//! The level's object kinds in the simulation, by registration: each kind is one file here that
//! implements [`SimKind`], and one line in the list of [`registry!`] at the end of this file.
//! `World` holds one [`Objects`] (every registered kind's state, built from the level) and calls
//! its phases at their places in the tick, and the rules of play (`sim::play`) call their
//! phases at their places among the rules; neither names a kind (`tests/it/layering.rs`).
//! Registered: doors, hazards, the goal, checkpoints.
//!
//! # A kind's phases, in the order of a tick
//! Each runs every kind in the list's order; all but `build` do nothing unless the kind says
//! otherwise.
//! - [`SimKind::build`]: its state as the level starts it, when the world is made or restarted;
//!   [`SimKind::level_replaced`]: after a level swap or edit (as the level starts it, unless the
//!   kind keeps something across a swap: the safe ground, the checkpoint reached, the goal).
//! - [`SimKind::after_moves`]: after every character moved and the signals were evaluated
//!   (doors follow their switches, timers and signals, and move out a character a door closed
//!   on; hazards turn on and off on their signals).
//! - The rules of play's phases, run by `Play::after_moves`:
//!   - after a death's wait, [`SimKind::respawn_at`] says where the hero comes back (the last
//!     checkpoint reached; else the level's spawn) and [`SimKind::respawned`] resets what a
//!     respawn resets (the safe ground);
//!   - the hero alive and the level not won ([`SimKind::won_at`]: the goal reached), before the
//!     attack, [`SimKind::regions`]: the hero's feet in a kind's region (the goal, then a
//!     checkpoint, as listed);
//!   - during the attack, [`SimKind::blocks_sight`]: whether the kind's state walls the
//!     attacker's line of sight (a closed door);
//!   - the level not won and the hero alive after the crush, pit and enemy rules,
//!     [`SimKind::harm`]: what the hero's touch does (a hazard's damage and return), until one
//!     kills it.
//! - [`SimKind::reset_on_death`]: the hero respawned in a level with `reset_on_death`.
//! - [`SimKind::remeshed`]: its gates in the collision meshes after they were built again.
//! - [`SimKind::hash_words`] and [`SimKind::play_words`]: its words in the world's state hash,
//!   in the list's order, and among the rules of play's words at a [`PlaySlot`] (where they
//!   were when the rules of play held that state, so the hashes pinned then hold);
//!   [`SimKind::trace`]: its part of the trace line; [`SimKind::is_game`]: whether it makes the
//!   level a game (the front end shows its HUD).
//!
//! The list's order is the order of every phase and of the kinds' words in the state hash: a
//! new kind goes at the end of the list (or where its phases and hash words must go), so the
//! hashes pinned before it stay as they were for levels without it.
//!
//! # How a kind reaches the world
//! Only through a [`Stage`]: the level, the meshes (to flip its gates), the tuning, the hero
//! and the agents (changed only through `Hero::apply`, the one writer of a character) and the
//! world's event list; in the rules of play's phases, also a [`Turn`]: the rules' state (changed
//! only through `Play`'s methods) and events. The front end reads a kind's state through
//! `World`'s accessors (`World::doors`, `World::checkpoint`, `World::goal_tick`). Dispatch is
//! static (the list is a struct with one field per kind, its phases unrolled by the macro): no
//! trait objects, no allocation per tick.
//!
//! # Adding a kind
//! One file here with its state and `impl SimKind`, and one line `module::Type` in the list
//! (where its phases must run); its level data, validation and editor kind are the level's and
//! `editor::kinds`'.
//!
//! # What a kind must never depend on
//! Another kind (kinds speak to each other, when they must, through the world's events, the
//! phases' answers such as [`SimKind::respawn_at`] or the signals fired, [`Stage::fired`]), the
//! world's private state (its tick order, placement, rebuild), the editor, and window, GPU,
//! audio or input crates.
//!
//! Kinds not yet converted, which `World` still runs by name: movers (`sim::movers`, posed and
//! carrying before the characters move) and agents (`sim::agents`: spawned with the hero,
//! stepped after it, and read by the movers, the doors and the rules of play as characters).
use glam::DVec2;

use crate::collision::{Aabb, ColliderId, CollisionWorld, Movers, SourcePolygon};
use crate::level::Level;
use crate::movement::{Env, Hero, Tuning};
use crate::sim::agents::Agent;
use crate::sim::play::{Play, PlayEvent};
use crate::sim::world::{TraceFrame, WorldEvent};

/// The parts of the world a kind acts on in a phase, borrowed apart from the kinds' own state.
pub struct Stage<'a> {
    /// The level the world was built from.
    pub level: &'a Level,
    /// The collision meshes (a kind flips its gates in them).
    pub collision: &'a mut CollisionWorld,
    /// The level's ladders.
    pub ladders: &'a [Aabb],
    /// The movers, posed for this tick.
    pub movers: &'a Movers,
    /// The tuning in effect.
    pub tuning: &'a Tuning,
    /// The hero (changed only through `Hero::apply`).
    pub hero: &'a mut Hero,
    /// The level's agents, in its order (changed only through `Hero::apply`).
    pub agents: &'a mut [Agent],
    /// The world's events of this tick: a kind appends to them.
    pub events: &'a mut Vec<WorldEvent>,
    /// The level's signals fired this tick, in its order (`sim::signals`; empty for a level
    /// without signals): the signal bus a kind's target reads (a door's `open_on`).
    pub fired: &'a [bool],
}

impl Stage<'_> {
    /// The surroundings of a movement step: the meshes, ladders and movers.
    pub fn env(&self) -> Env<'_> {
        Env {
            collision: self.collision,
            ladders: self.ladders,
            movers: self.movers,
        }
    }

    /// The surroundings of a movement step with the hero and the agents apart from them, to
    /// change the characters while reading the meshes.
    pub fn split(&mut self) -> (Env<'_>, &mut Hero, &mut [Agent]) {
        let env = Env {
            collision: self.collision,
            ladders: self.ladders,
            movers: self.movers,
        };
        (env, self.hero, self.agents)
    }
}

/// What the rules of play hand a kind's rules phases ([`SimKind::regions`], [`SimKind::harm`]) besides the
/// [`Stage`]: the rules' state, for the damage a kind's touch costs, and their events.
pub struct Turn<'a> {
    /// The tick's index (the world's tick count before it).
    pub tick: u64,
    /// The rules of play's state (health, invulnerability, deaths): changed only through its
    /// methods.
    pub play: &'a mut Play,
    /// The rules of play's events of this tick: a kind appends to them.
    pub events: &'a mut Vec<PlayEvent>,
    /// The hero's collider as the rules of play began this tick (what a touch is tested with).
    pub collider: ColliderId,
    /// Where the hero respawns now (a checkpoint's, or the level's spawn).
    pub respawn: DVec2,
}

/// Where a kind's words go among the rules of play's words in the state hash
/// ([`SimKind::play_words`]): the places they had when the rules of play held that state, so
/// the hashes pinned then hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaySlot {
    /// After the health, the invulnerability and the deaths (the checkpoint's word).
    AfterDeaths,
    /// After the death's countdown (the goal's word).
    AfterDead,
    /// After all of the rules of play's own words (the hazards' safe ground).
    Last,
}

/// An object kind in the simulation: its state and its phases of the tick. Every phase but
/// `build` does nothing unless the kind says otherwise.
pub trait SimKind: Sized {
    /// The kind's name, as the level's documents and reports say it.
    const NAME: &'static str;

    /// The kind's state as `level` starts it.
    fn build(level: &Level) -> Self;

    /// The world's level was swapped or edited (not restarted: a restart builds every kind
    /// anew): the kind's state for `level`. As `level` starts it unless the kind keeps
    /// something across a swap.
    fn level_replaced(&mut self, level: &Level) {
        *self = Self::build(level);
    }

    /// After every character moved this tick (doors follow their switches here).
    fn after_moves(&mut self, _stage: &mut Stage) {}

    /// The rules of play, the hero alive and the level not won at the rules' start
    /// ([`SimKind::won_at`]), before the hero's attack: what the hero's feet in the kind's
    /// region do (the goal is reached, a checkpoint).
    fn regions(&mut self, _stage: &mut Stage, _turn: &mut Turn) {}

    /// The rules of play, the hero alive and the goal not reached, after the enemies touched
    /// the hero and none killed it: what the hero's touch of the kind does (a hazard's damage
    /// and return).
    fn harm(&mut self, _stage: &mut Stage, _turn: &mut Turn) {}

    /// The rules of play put the hero back after a death.
    fn respawned(&mut self) {}

    /// Where the hero respawns, if the kind says (a checkpoint reached does; the first kind in
    /// the list's order that says wins, else the level's spawn).
    fn respawn_at(&self, _level: &Level) -> Option<DVec2> {
        None
    }

    /// The tick the level was won, if the kind's state says it was (the goal's): then the
    /// regions count no more and nothing hurts the hero.
    fn won_at(&self) -> Option<u64> {
        None
    }

    /// Whether the kind's state puts a wall on the segment `a b` (a closed door does), for the
    /// attack's line of sight: crossing or touching one of its edges, exact signs
    /// ([`crate::sim::play::polygon_on_segment`]).
    fn blocks_sight(&self, _level: &Level, _a: DVec2, _b: DVec2) -> bool {
        false
    }

    /// The hero respawned in a level with `reset_on_death`: back as the level starts it (the
    /// agents were already put back).
    fn reset_on_death(&mut self, _stage: &mut Stage) {}

    /// The meshes were built again from `sources` (the polygons the world's meshes are built
    /// from, in id order) after a failed rebuild: the kind's gates as its state is now.
    fn remeshed(&self, _collision: &mut CollisionWorld, _sources: &[SourcePolygon]) {}

    /// Appends the kind's words to the world's state hash (nothing for a level without it, so
    /// hashes pinned before the kind existed hold).
    fn hash_words(&self, _words: &mut Vec<u64>) {}

    /// Appends the kind's words among the rules of play's in the state hash, at `slot` (called
    /// once per slot, in the slots' order).
    fn play_words(&self, _slot: PlaySlot, _words: &mut Vec<u64>) {}

    /// Whether the kind makes `level` a game (the front end shows its HUD).
    fn is_game(&self, _level: &Level) -> bool {
        false
    }

    /// Fills the kind's part of the trace line for the last tick.
    fn trace(&self, _frame: &mut TraceFrame) {}
}

/// Declares the list of kinds: one line per kind, `module::Type`, the module a file in this
/// folder. Makes [`Objects`], with one field per kind named after its module, and its phases,
/// each running the kinds in the list's order.
macro_rules! registry {
    ($($module:ident :: $kind:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every registered kind's state in the world, one field per kind in the list's order.
        /// `Clone`: a world's snapshot (`sim::world::snapshot`) holds a copy, so every kind's
        /// state is `Clone`.
        #[derive(Clone)]
        pub struct Objects {
            $(
                #[doc = concat!("The `", stringify!($module), "` kind's state.")]
                pub $module: $module::$kind,
            )*
        }

        impl Objects {
            /// The registered kinds' names, in the list's order.
            pub const NAMES: &'static [&'static str] =
                &[$(<$module::$kind as SimKind>::NAME),*];

            /// Every kind as `level` starts it.
            pub fn build(level: &Level) -> Objects {
                Objects { $($module: <$module::$kind as SimKind>::build(level),)* }
            }

            /// Every kind's [`SimKind::level_replaced`], in the list's order.
            pub fn level_replaced(&mut self, level: &Level) {
                $(self.$module.level_replaced(level);)*
            }

            /// Every kind's [`SimKind::after_moves`], in the list's order.
            pub fn after_moves(&mut self, stage: &mut Stage) {
                $(self.$module.after_moves(stage);)*
            }

            /// Every kind's [`SimKind::regions`], in the list's order.
            pub fn regions(&mut self, stage: &mut Stage, turn: &mut Turn) {
                $(self.$module.regions(stage, turn);)*
            }

            /// Every kind's [`SimKind::harm`], in the list's order, until the hero is dead.
            pub fn harm(&mut self, stage: &mut Stage, turn: &mut Turn) {
                $(
                    if turn.play.is_dead() {
                        return;
                    }
                    self.$module.harm(stage, turn);
                )*
            }

            /// Every kind's [`SimKind::respawned`], in the list's order.
            pub fn respawned(&mut self) {
                $(self.$module.respawned();)*
            }

            /// Where the hero respawns: the first kind's [`SimKind::respawn_at`] in the list's
            /// order, else `level`'s spawn.
            pub fn respawn_point(&self, level: &Level) -> DVec2 {
                None$(.or_else(|| self.$module.respawn_at(level)))*.unwrap_or(level.spawn)
            }

            /// The tick the level was won: the first kind's [`SimKind::won_at`] in the list's
            /// order.
            pub fn won_at(&self) -> Option<u64> {
                None$(.or_else(|| self.$module.won_at()))*
            }

            /// Whether any kind's [`SimKind::blocks_sight`] does.
            pub fn blocks_sight(&self, level: &Level, a: DVec2, b: DVec2) -> bool {
                false $(|| self.$module.blocks_sight(level, a, b))*
            }

            /// Every kind's [`SimKind::reset_on_death`], in the list's order.
            pub fn reset_on_death(&mut self, stage: &mut Stage) {
                $(self.$module.reset_on_death(stage);)*
            }

            /// Every kind's [`SimKind::remeshed`], in the list's order.
            pub fn remeshed(&self, collision: &mut CollisionWorld, sources: &[SourcePolygon]) {
                $(self.$module.remeshed(collision, sources);)*
            }

            /// Every kind's [`SimKind::hash_words`], in the list's order.
            pub fn hash_words(&self, words: &mut Vec<u64>) {
                $(self.$module.hash_words(words);)*
            }

            /// Every kind's [`SimKind::play_words`] at `slot`, in the list's order.
            pub fn play_words(&self, slot: PlaySlot, words: &mut Vec<u64>) {
                $(self.$module.play_words(slot, words);)*
            }

            /// Whether any kind makes `level` a game ([`SimKind::is_game`]).
            pub fn is_game(&self, level: &Level) -> bool {
                false $(|| self.$module.is_game(level))*
            }

            /// Every kind's [`SimKind::trace`], in the list's order.
            pub fn trace(&self, frame: &mut TraceFrame) {
                $(self.$module.trace(frame);)*
            }
        }
    };
}

// The list. Its order is the order of every phase and of the kinds' words in the state hash.
registry! {
    door::Doors,
    hazard::Hazards,
    goal::Goal,
    checkpoint::Checkpoints,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::Actions;
    use crate::sim::World;

    /// A small level with one of everything a kind is built from: a door on a switch with a
    /// timer, a checkpoint and a goal, on a floor.
    fn level() -> Level {
        crate::level::parse_level(
            std::path::Path::new("k.ron"),
            "(name: \"k\", polygons: [\
             (points: [(-6.0, -1.0), (6.0, -1.0), (6.0, 0.0), (-6.0, 0.0)])],\
             doors: [(points: [(3.0, 0.0), (3.5, 0.0), (3.5, 3.0), (3.0, 3.0)],\
             switch: Some((min: (-1.0, 0.0), max: (1.0, 1.0))), close_after: Some(0.1))],\
             checkpoints: [(min: (-5.0, 0.0), max: (-4.0, 2.0))],\
             goal: Some((min: (5.0, 0.0), max: (6.0, 2.0))),\
             reset_on_death: true, spawn: (0.0, 0.0))",
        )
        .unwrap()
    }

    /// Every registered kind is built from the level, takes part in the hash, steps with the
    /// world (the hash moving with its state) and comes back to its start after a restart, so
    /// that two worlds built alike hash alike at every stage.
    #[test]
    fn every_registered_kind_builds_steps_hashes_and_resets() {
        assert!(!Objects::NAMES.is_empty());
        let mut names = Objects::NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Objects::NAMES.len(), "a kind registered twice");

        let level = level();
        let start = Objects::build(&level);
        let mut words = Vec::new();
        start.hash_words(&mut words);
        assert!(!words.is_empty(), "the level's objects leave no hash words");

        let mut a = World::new(&level, &Tuning::default()).unwrap();
        let mut b = World::new(&level, &Tuning::default()).unwrap();
        assert_eq!(a.state_hash(), b.state_hash());
        let mut seen_change = false;
        for _ in 0..60 {
            a.step(&Actions::default());
            b.step(&Actions::default());
            assert_eq!(a.state_hash(), b.state_hash());
            let mut now = Vec::new();
            a.objects().hash_words(&mut now);
            seen_change |= now != words;
        }
        // The hero spawns on the door's switch: the door opened.
        assert!(seen_change, "no registered kind's state changed in a step");
        a.restart().unwrap();
        let mut back = Vec::new();
        a.objects().hash_words(&mut back);
        assert_eq!(
            back, words,
            "a restart puts every kind back as the level starts it"
        );
        let mut line = a.trace_frame();
        line.doors.clear();
        a.objects().trace(&mut line);
        assert_eq!(line, a.trace_frame());
    }
}
