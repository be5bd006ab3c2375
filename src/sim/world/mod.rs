//! The simulation world: the level, its collision meshes and the characters, advanced at a
//! fixed rate. This file holds the world's state and the order of a tick; the rest is split by
//! concern:
//! - `rebuild`: what a level turns into (its meshes, ladders, movers, bounds), built whole
//!   or rebuilt in part after an edit, and the level swaps, restarts and tuning changes built on it;
//! - `placement`: putting the characters in a world being built or rebuilt (one function for
//!   both), and placing the hero for a play-test;
//! - `trace`: the per-tick trace line and the state hash;
//! - `snapshot`: the dynamic state saved and put back ([`Snapshot`]), for a search.
//!
//! # The level
//! The world holds its level as a [`LevelDoc`], the game's one level document: an editor edits it
//! in place through [`World::document`] and then tells the world ([`World::level_edited`]), which
//! rebuilds what it derives from it (meshes in part, ladders, movers, regions, characters). A
//! level swap ([`World::set_level`]) puts a new level in it. The world keeps no copy of the level
//! to compare with: for a rebuild in part it keeps the source polygons its meshes were built
//! from.
//!
//! # Timestep
//! [`TICK_HZ`] = 120 ticks per second. Moves are continuous (the collision walk never tunnels),
//! so the rate is not needed for stability; 120 Hz halves input latency compared with 60 Hz, keeps
//! one tick's travel at full run speed under 7 cm (small enough that a crest's hand-off happens
//! within a few centimetres of the joint), and divides evenly into 60, 120 and 240 Hz displays;
//! other refresh rates draw interpolated states.
//!
//! # A tick
//! With movers, Celeste's order (`sim::movers`): each mover's clock (`sim::clock`) advances one
//! tick and the mover is posed at its clock's time (its path's or its track's pure function of
//! it); the movers carry their riders, then push (or crush) what they overlap; then the hero
//! steps, then the agents in the level's order, among movers that no longer move; then the
//! level's signals (`sim::signals`: the sources evaluated, what fired handed to the kinds);
//! then the registered object kinds' `after_moves` (`sim::kinds`: the doors follow their
//! switches, timers and signals, the hazards their signals); then the signals' actions on the movers' clocks; then the rules of play (`Play::after_moves`), which run the kinds' rules phases at
//! their places (the goal and checkpoints' regions, the hazards' touch). What changes a
//! character's body, velocity or state is made by
//! `Hero::apply` (the one writer, `movement::character`): the world hands it the carry's
//! transitions, the doors' and the respawn's changes.
//!
//! # Determinism
//! Everything is `f64` arithmetic in a fixed order with no clocks, threads or hash-map iteration in
//! the step: the same level, tuning and actions give a bit-identical trace ([`World::state_hash`]).
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;
use serde::Serialize;

use super::agents::{Agent, SizeClasses};
use super::clock::MoverClock;
use super::play::{Play, PlayEvent, Rules};
use super::signals::Signals;
use crate::collision::{
    colliders_meet, Aabb, BuildError, CollisionWorld, FaceKind, Meeting, Movers, SourcePolygon,
};
use crate::level::{Level, LevelDoc};
use crate::movement::character::Change;
use crate::movement::{Actions, Env, Hero, SpawnError, StepReport, Tuning, TuningError};

mod placement;
mod rebuild;
mod snapshot;
mod trace;

use placement::{place_characters, spawn_agents, HeroFrom, Placed};
use rebuild::{Built, Meshes};

pub use super::kinds::door::DoorState;
use super::kinds::{Objects, Stage};
pub use rebuild::{automatic_bounds, AUTO_BOUNDS_MARGIN, EDIT_CHUNK_SIZE};
pub use snapshot::Snapshot;
pub use trace::{AgentFrame, TraceFrame};

/// Simulation ticks per second.
pub const TICK_HZ: u32 = 120;
/// Seconds per tick.
pub const DT: f64 = 1.0 / TICK_HZ as f64;

/// Why a world could not be made.
#[derive(Debug, thiserror::Error)]
pub enum WorldError {
    /// The tuning (after the level's overrides) is out of range.
    #[error("tuning: {0}")]
    Tuning(#[from] TuningError),
    /// The collision meshes could not be built.
    #[error("level geometry: {0}")]
    Mesh(#[from] BuildError),
    /// No place for the hero.
    #[error("spawn: {0}")]
    Spawn(#[from] SpawnError),
    /// No place for an agent.
    #[error(
        "agent {index}: the spawn point ({}, {}) has no free space anywhere near it for its collider",
        crate::collision::readable(.x),
        crate::collision::readable(.y)
    )]
    AgentSpawn {
        /// Index in the level's `agents`.
        index: usize,
        /// Spawn x.
        x: f64,
        /// Spawn y.
        y: f64,
    },
}

/// The headless game world.
pub struct World {
    /// The level: one document, which an editor on [`World::document`] edits in place and the
    /// world follows ([`World::level_edited`]); everything below is derived from it.
    level: LevelDoc,
    /// The document with its objects expanded into movers, doors and signals
    /// ([`Level::played`]), when it has any: what everything below is built from and the
    /// kinds read. `None`: the document itself.
    expanded: Option<Level>,
    /// The source polygons the meshes were built from, in id order: what an edit is compared
    /// with to rebuild only the polygons that changed (`rebuild`).
    sources: Vec<SourcePolygon>,
    /// The tuning the world was made with, before any level's overrides: every level swap applies
    /// the new level's overrides to this, so an override the new level no longer has is gone.
    base_tuning: Tuning,
    /// `base_tuning` with the current level's overrides: what the hero moves by.
    tuning: Tuning,
    collision: CollisionWorld,
    /// Chunked meshes of `sources` made ahead of the first edit ([`World::prepare_edits`]) while
    /// `collision` is still a whole build: the first edit rebuilds only its chunks of these.
    edit_meshes: Option<CollisionWorld>,
    ladders: Vec<Aabb>,
    hero: Hero,
    /// The level's agents, in its order.
    agents: Vec<Agent>,
    /// Their size classes' colliders.
    classes: SizeClasses,
    /// The registered object kinds' states (`sim::kinds`).
    objects: Objects,
    /// The level's movers, posed for the last tick.
    movers: Movers,
    /// Their paths.
    paths: Vec<super::movers::Path>,
    /// Their clocks (`sim::clock`), in their order: each advanced once per tick, each mover
    /// posed at its clock's time.
    clocks: Vec<MoverClock>,
    /// The level's signals (`sim::signals`): evaluated once per tick, fired to the kinds
    /// through their stage and to the movers' clocks.
    signals: Signals,
    /// What happened in the world in the last tick besides the hero's movement events.
    events: Vec<WorldEvent>,
    /// The rules of play's state: health, deaths, attack.
    play: Play,
    /// What the rules of play did in the last tick.
    play_events: Vec<PlayEvent>,
    /// The level's bounds (explicit or automatic): its bottom is a pit.
    bounds: Aabb,
    prev_pos: DVec2,
    steps: u64,
    /// Ticks the movers' shared time is ahead of (or, negative, behind) `steps`: 0 unless a
    /// play-test started with the movers at a chosen time ([`World::set_mover_time`]). A clock
    /// made for a mover after the start (a level edit, a swap) starts at that time.
    mover_shift: i64,
    last: StepReport,
    warnings: Vec<String>,
}

/// Something that happened in the world during a tick, besides the hero's movement events
/// (`StepReport`): doors and crushes. Sound and animation read them (`World::events`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorldEvent {
    /// Door `door` (index in the level's `doors`) opened.
    DoorOpened {
        /// Index in the level's `doors`.
        door: usize,
    },
    /// Door `door` closed.
    DoorClosed {
        /// Index in the level's `doors`.
        door: usize,
    },
    /// A closing door or a mover left a character no room, not even crouching or within
    /// [`CRUSH_WIGGLE`] of where it was: `agent` is `None` for the hero. It was moved to the
    /// nearest free point (the game decides what a crush costs).
    Crushed {
        /// The agent's index, `None` for the hero.
        agent: Option<usize>,
    },
}

/// How far (m) a character is moved out of a closing door before that counts as a crush: the
/// wiggle of Celeste's squish rule.
pub const CRUSH_WIGGLE: f64 = 0.05;

/// The [`Stage`] of world `$w`'s parts that the kinds act on, with `$level` the level read: a
/// macro, so each field is borrowed apart and the kinds' states, the rules of play and the rest
/// of the world stay free beside it.
macro_rules! stage {
    ($w:expr, $level:expr) => {
        Stage {
            level: $level,
            collision: &mut $w.collision,
            ladders: &$w.ladders,
            movers: &$w.movers,
            tuning: &$w.tuning,
            hero: &mut $w.hero,
            agents: &mut $w.agents,
            events: &mut $w.events,
            fired: $w.signals.fired(),
        }
    };
}

/// The level as a world plays it ([`World::level`]).
pub enum PlayedLevel<'a> {
    /// The document itself (a level without objects).
    Document(std::cell::Ref<'a, Level>),
    /// The document with its objects expanded.
    Expanded(&'a Level),
}

impl std::ops::Deref for PlayedLevel<'_> {
    type Target = Level;

    fn deref(&self) -> &Level {
        match self {
            PlayedLevel::Document(l) => l,
            PlayedLevel::Expanded(l) => l,
        }
    }
}

/// The level a world with document `doc` and `expanded` plays (fields apart, so the rest of
/// the world can be borrowed beside it).
fn played<'a>(doc: &'a LevelDoc, expanded: &'a Option<Level>) -> PlayedLevel<'a> {
    match expanded {
        Some(l) => PlayedLevel::Expanded(l),
        None => PlayedLevel::Document(doc.read()),
    }
}

impl World {
    /// Builds the world: `tuning` (the base tuning) with the level's overrides, one mesh per
    /// collider, the hero at the spawn point (moved to the nearest free point, with a warning, if
    /// the spawn is inside geometry).
    pub fn new(document: &Level, tuning: &Tuning) -> Result<World, WorldError> {
        let played = document.played();
        let level: &Level = &played;
        let built = Built::new(level, tuning, Meshes::Whole)?;
        let Placed {
            hero,
            agents,
            warnings,
            ..
        } = place_characters(level, &built, HeroFrom::Spawn(level.spawn))?;
        let sources = match built.sources {
            rebuild::Sources::All(all) => all,
            rebuild::Sources::Changed { .. } => unreachable!("a whole build has every source"),
        };
        let mut world = World {
            level: LevelDoc::new(document.clone()),
            sources,
            play: Play::new(&built.tuning, 0),
            play_events: Vec::new(),
            bounds: built.bounds,
            prev_pos: hero.body.pos,
            base_tuning: tuning.clone(),
            tuning: built.tuning,
            collision: built.collision,
            edit_meshes: None,
            ladders: built.ladders,
            hero,
            agents,
            classes: built.classes,
            objects: Objects::build(level),
            movers: built.movers,
            clocks: {
                let mut clocks = vec![MoverClock::at(0); built.paths.len()];
                Signals::starting_clocks(level, 0, &mut clocks);
                clocks
            },
            signals: Signals::new(level),
            paths: built.paths,
            events: Vec::new(),
            steps: 0,
            mover_shift: 0,
            last: StepReport::default(),
            warnings,
            expanded: None,
        };
        if let std::borrow::Cow::Owned(expanded) = played {
            world.expanded = Some(expanded);
        }
        // A character placed inside a mover at its start pose is moved out (upwards: nothing
        // moved yet).
        world.push_characters();
        world.events.clear();
        world.prev_pos = world.hero.body.pos;
        Ok(world)
    }

    /// The movers' first two phases of a tick (`sim::movers`): riders carried, then every
    /// character inside a mover pushed out or crushed (`WorldEvent::Crushed`).
    fn carry_and_push(&mut self) {
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        let mut scratch = StepReport::default();
        if let Some(tr) = super::movers::carry(&mut self.hero, &env, DT, &mut scratch) {
            self.hero.apply(Change::To(tr));
        }
        for a in &mut self.agents {
            if let Some(tr) = super::movers::carry(&mut a.mover, &env, DT, &mut scratch) {
                a.mover.apply(Change::To(tr));
            }
        }
        self.push_characters();
    }

    /// Phase 2 of a tick with movers: see [`super::movers::push`].
    fn push_characters(&mut self) {
        if self.movers.is_empty() {
            return;
        }
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        let mut scratch = StepReport::default();
        let t = &self.tuning;
        if super::movers::push(&mut self.hero, &env, t, DT, &mut scratch)
            == super::movers::Pushed::Crushed
        {
            self.events.push(WorldEvent::Crushed { agent: None });
        }
        for (i, a) in self.agents.iter_mut().enumerate() {
            if super::movers::push(&mut a.mover, &env, t, DT, &mut scratch)
                == super::movers::Pushed::Crushed
            {
                self.events.push(WorldEvent::Crushed { agent: Some(i) });
            }
        }
    }

    /// Advances one tick with this tick's actions.
    pub fn step(&mut self, actions: &Actions) -> &StepReport {
        self.prev_pos = self.hero.body.pos;
        self.events.clear();
        // The checkpoint the rules of play reached in the tick before: a signal's source.
        let reached = self.play_events.iter().find_map(|e| match *e {
            PlayEvent::Checkpoint { index } => Some(index),
            _ => None,
        });
        self.play_events.clear();
        // Hit-stop holds the hero and the agents still; a dead hero waits for its respawn.
        let hitstop = self.play.frozen();
        let hero_still = hitstop || self.play.is_dead();
        if !self.movers.is_empty() {
            // Celeste's order: the movers move and carry their riders, push what they now
            // overlap, then the characters step among them, frozen.
            for c in &mut self.clocks {
                c.advance();
            }
            self.signals.clamp(&self.paths, &mut self.clocks);
            self.movers
                .set_poses(super::movers::poses_on(&self.paths, &self.clocks));
            self.carry_and_push();
        }
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        if hero_still {
            self.last = StepReport::default();
        } else {
            self.hero
                .step(&env, actions, &self.tuning, DT, &mut self.last);
        }
        if !hitstop {
            let feet = self.hero.body.pos;
            for agent in &mut self.agents {
                agent.step(&env, &self.tuning, DT, feet);
            }
        }
        // The signals: the sources see the characters where they moved; the kinds act on what
        // fired in their `after_moves`, the movers' clocks after them (from the next tick on).
        if !self.signals.is_empty() {
            self.signals.evaluate(&super::signals::Inputs {
                hero: self.hero.body.pos,
                hero_on: self.hero.riding_piece().map(|(m, _)| m as usize),
                agents: &self.agents,
                reached,
                clocks: &self.clocks,
                paths: &self.paths,
            });
        }
        self.with_stage(|objects, stage| objects.after_moves(stage));
        if !self.signals.is_empty() {
            self.signals.drive(&mut self.clocks);
        }
        let rules = Rules {
            tick: self.steps,
            prev_feet: self.prev_pos,
            crushed: self.events.contains(&WorldEvent::Crushed { agent: None }),
            bounds: self.bounds,
        };
        let actions = if hero_still {
            Actions::default()
        } else {
            *actions
        };
        let level = played(&self.level, &self.expanded);
        let mut stage = stage!(self, &level);
        self.play.after_moves(
            &rules,
            &mut self.objects,
            &mut stage,
            &actions,
            &mut self.play_events,
        );
        let reset = level.reset_on_death;
        drop(level);
        if self.play_events.contains(&PlayEvent::Respawned) {
            if reset {
                self.reset_on_death();
            }
            // Out of any mover over the respawn point (a crush there counts next tick), and
            // drawn where it is now: no interpolated streak across the level.
            self.push_characters();
            self.prev_pos = self.hero.body.pos;
        } else if self
            .play_events
            .iter()
            .any(|e| matches!(e, PlayEvent::Returned { .. }))
        {
            // Back on the safe ground: out of any mover there, drawn there at once.
            self.push_characters();
            self.prev_pos = self.hero.body.pos;
        }
        self.steps += 1;
        &self.last
    }

    /// The agents back at their spawns as the level starts them, then every registered kind's
    /// reset (each door as the level starts it): a level's `reset_on_death`.
    fn reset_on_death(&mut self) {
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        let level = played(&self.level, &self.expanded);
        // Every agent spawned before, so each finds room again (its spawn is moved as at the
        // start, without a new warning).
        if let Ok(agents) = spawn_agents(&level, &self.classes, &env, &self.tuning, &mut Vec::new())
        {
            self.agents = agents;
        }
        drop(level);
        self.with_stage(|objects, stage| objects.reset_on_death(stage));
        // The signals and the movers they drive, by the same rule (`sim::signals`): placed at
        // once, nothing carried by the jump.
        if self.signals.reset_on_death(&mut self.clocks) {
            self.movers
                .place_poses(super::movers::poses_on(&self.paths, &self.clocks));
        }
    }

    /// Runs `f` on the registered kinds' states and the parts of the world they act on.
    fn with_stage<R>(&mut self, f: impl FnOnce(&mut Objects, &mut Stage) -> R) -> R {
        let level = played(&self.level, &self.expanded);
        let mut stage = stage!(self, &level);
        f(&mut self.objects, &mut stage)
    }

    /// Opens or closes door `index` now (a script hook): see
    /// [`Doors::set`](super::kinds::door::Doors::set). Returns false for no such door.
    pub fn set_door(&mut self, index: usize, open: bool) -> bool {
        self.with_stage(|objects, stage| objects.door.set(index, open, stage))
    }

    /// The registered object kinds' states (the registry's tests read them).
    #[cfg(test)]
    pub(crate) fn objects(&self) -> &Objects {
        &self.objects
    }

    /// The movers' shared time at world tick `steps`: where a new mover's clock starts.
    fn mover_tick(&self, steps: u64) -> u64 {
        steps.saturating_add_signed(self.mover_shift)
    }

    /// Poses every mover as at `seconds` (rounded to the tick: every clock set there, running)
    /// and runs them on from there: a play-test from the editor's scrubbed time. Nothing is
    /// carried or pushed by the jump (as after a level edit); place the hero after it. The
    /// shift is part of the state (its hash, and so its traces).
    pub fn set_mover_time(&mut self, seconds: f64) {
        let tick = (seconds.max(0.0) * super::TICK_HZ as f64).round() as u64;
        self.mover_shift = tick as i64 - self.steps as i64;
        for c in &mut self.clocks {
            c.set(tick);
        }
        self.movers
            .place_poses(super::movers::poses_on(&self.paths, &self.clocks));
    }

    /// Each mover's clock, in the level's order.
    pub fn mover_clocks(&self) -> &[MoverClock] {
        &self.clocks
    }

    /// Number of ticks run so far.
    pub fn frame(&self) -> u64 {
        self.steps
    }

    /// The hero.
    pub fn hero(&self) -> &Hero {
        &self.hero
    }

    /// The level's agents, in its order.
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// The level's doors' states, in its order.
    pub fn doors(&self) -> &[DoorState] {
        self.objects.door.states()
    }

    /// Each of the level's hazards, `(polygon, on)`, in its order: an off hazard harms nobody
    /// (`sim::kinds::hazard`).
    pub fn hazard_states(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.objects.hazard.states()
    }

    /// The level's movers, posed for the last tick (their offsets this tick and the last).
    pub fn movers(&self) -> &Movers {
        &self.movers
    }

    /// Every character strictly inside solid geometry: a static solid face of its collider's
    /// mesh, or a mover piece inflated by that collider (the exact test of `collision::Movers`).
    /// `None` is the hero, `Some(i)` agent `i`. Empty whenever the rules hold; the tests check it
    /// every tick.
    pub fn penetrations(&self) -> Vec<Option<usize>> {
        let inside = |h: &Hero| {
            self.collision.mesh(h.collider).kind(h.body.face) == FaceKind::Solid
                || self
                    .movers
                    .inside(h.collider.0 as usize, h.body.pos, None)
                    .is_some()
        };
        std::iter::once((None, &self.hero))
            .chain(
                self.agents
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (Some(i), &a.mover)),
            )
            .filter(|(_, h)| inside(h))
            .map(|(i, _)| i)
            .collect()
    }

    /// The rules of play's state: health, deaths, attack.
    pub fn play(&self) -> &Play {
        &self.play
    }

    /// The last checkpoint the hero reached (index in the level's `checkpoints`).
    pub fn checkpoint(&self) -> Option<usize> {
        self.objects.checkpoint.reached()
    }

    /// The tick the hero reached the goal.
    pub fn goal_tick(&self) -> Option<u64> {
        self.objects.goal.reached()
    }

    /// Ticks played since the level started (or restarted), to the goal once reached.
    pub fn play_ticks(&self) -> u64 {
        self.play.ticks(self.steps, self.objects.won_at())
    }

    /// Whether the level is a game: a goal, checkpoints, hazards or enemies (the front end shows
    /// its HUD).
    pub fn is_game(&self) -> bool {
        self.objects.is_game(&self.level()) || self.agents.iter().any(|a| a.kind.is_enemy())
    }

    /// What the rules of play did in the last tick.
    pub fn play_events(&self) -> &[PlayEvent] {
        &self.play_events
    }

    /// The level's bounds (explicit or automatic).
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// What happened in the world in the last tick (or the last [`World::set_door`]).
    pub fn events(&self) -> &[WorldEvent] {
        &self.events
    }

    /// Where a world event happens (for its sound): a door's centre, the crushed character's
    /// feet.
    pub fn event_position(&self, e: &WorldEvent) -> DVec2 {
        match *e {
            WorldEvent::DoorOpened { door } | WorldEvent::DoorClosed { door } => self
                .level()
                .doors
                .get(door)
                .map_or(self.hero.body.pos, |d| {
                    Aabb::from_points(d.points.iter().copied()).centre()
                }),
            WorldEvent::Crushed { agent: Some(i) } => self
                .agents
                .get(i)
                .map_or(self.hero.body.pos, |a| a.mover.body.pos),
            WorldEvent::Crushed { agent: None } => self.hero.body.pos,
        }
    }

    /// This tick's world events, each with [`World::event_position`].
    pub fn placed_events(&self) -> impl Iterator<Item = (WorldEvent, DVec2)> + '_ {
        self.events.iter().map(|e| (*e, self.event_position(e)))
    }

    /// How each agent's collider meets the hero's now (the colliders in use), in the agents'
    /// order: the exact query that contact damage and stomps read.
    pub fn agents_meeting_hero(&self) -> Vec<Meeting> {
        let h = &self.hero;
        let hc = self.collision.mesh(h.collider).collider();
        self.agents
            .iter()
            .map(|a| {
                let ac = self.collision.mesh(a.mover.collider).collider();
                colliders_meet(ac, a.mover.body.pos, hc, h.body.pos)
            })
            .collect()
    }

    /// The hero's position before the last tick (for interpolated drawing).
    pub fn prev_pos(&self) -> DVec2 {
        self.prev_pos
    }

    /// The level as the world plays it (a guard on the world's document: drop it before the
    /// document is edited): the document, or, when it has objects, the document with its
    /// objects expanded into movers, doors and signals after its own ([`Level::played`]), which
    /// is what the movers, doors and signals of the world follow. [`World::document`] is the
    /// document as written.
    pub fn level(&self) -> PlayedLevel<'_> {
        played(&self.level, &self.expanded)
    }

    /// A handle to the world's level document, for an editor to edit in place (then
    /// [`World::level_edited`]); a level swap ([`World::set_level`]) replaces what it holds.
    pub fn document(&self) -> LevelDoc {
        self.level.clone()
    }

    /// The tuning in effect (the base tuning with the level's overrides).
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// The base tuning, before the level's overrides.
    pub fn base_tuning(&self) -> &Tuning {
        &self.base_tuning
    }

    /// The collision meshes.
    pub fn collision(&self) -> &CollisionWorld {
        &self.collision
    }

    /// Warnings from building the world or the last level swap (e.g. a moved spawn).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// What the last tick reported (events, contacts).
    pub fn last_report(&self) -> &StepReport {
        &self.last
    }

    /// Contacts met by the hero during the last tick.
    pub fn hero_contacts_this_step(&self) -> usize {
        self.last.contacts
    }
}
