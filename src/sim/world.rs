//! The simulation world: the level, its collision meshes and the hero, advanced at a fixed rate.
//!
//! # Timestep
//! [`TICK_HZ`] = 120 ticks per second. Moves are continuous (the collision walk never tunnels),
//! so the rate is not needed for stability; 120 Hz halves input latency compared with 60 Hz, keeps
//! one tick's travel at full run speed under 7 cm (small enough that a crest's hand-off happens
//! within a few centimetres of the joint), and divides evenly into 60, 120 and 240 Hz displays;
//! other refresh rates draw interpolated states.
//!
//! # A tick
//! With movers, Celeste's order (`sim::movers`): the movers are posed for the tick and carry
//! their riders, then push (or crush) what they overlap; then the hero steps, then the agents in
//! the level's order, among movers that no longer move; then the doors follow their switches and
//! timers.
//!
//! # Determinism
//! Everything is `f64` arithmetic in a fixed order with no clocks, threads or hash-map iteration in
//! the step: the same level, tuning and actions give a bit-identical trace ([`World::state_hash`]).
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;
use serde::Serialize;

use super::agents::{Agent, SizeClasses};
use super::play::{Hazards, Play, PlayEvent, Rules};
use crate::collision::{
    colliders_meet, Aabb, BuildError, ColliderId, CollisionWorld, FaceKind, Meeting, MeshConfig,
    Movers, PolygonId, PolygonKind, SourcePolygon,
};
use crate::level::document::polygon_id;
use crate::level::Level;
use crate::movement::character::Change;
use crate::movement::rules::Transition;
use crate::movement::{Actions, Env, Hero, MoveState, SpawnError, StepReport, Tuning, TuningError};

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

pub use crate::collision::AUTO_BOUNDS_MARGIN;

/// The region the hero may occupy when a level sets no bounds: every polygon, ladder and the spawn
/// point, grown by [`AUTO_BOUNDS_MARGIN`] (the collision core's one automatic-bounds rule).
pub fn automatic_bounds(level: &Level) -> Aabb {
    let points = level
        .polygons
        .iter()
        .flat_map(|p| p.points.iter().copied())
        .chain(level.doors.iter().flat_map(|d| d.points.iter().copied()))
        .chain(level.movers.iter().flat_map(|m| {
            // Every piece at every offset of its path (a path's legs are straight); a turning
            // mover's circle about its pivot.
            m.path.iter().flat_map(move |&o| {
                let b = crate::level::validate::turning_box(m, o);
                [b.min, b.max]
            })
        }))
        .chain(level.agents.iter().map(|a| a.spawn))
        .chain(level.ladders.iter().flat_map(|l| [l.min, l.max]))
        .chain(std::iter::once(level.spawn));
    crate::collision::automatic_bounds(points)
}

/// One line of the per-frame trace: the state after that frame's input.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceFrame {
    /// Tick index, from 0.
    pub frame: u64,
    /// Feet position.
    pub pos: [f64; 2],
    /// Velocity, m/s.
    pub vel: [f64; 2],
    /// Movement state name (`supported`, `airborne`, `wall_slide`, `climbing`, `top_down`).
    pub state: &'static str,
    /// Whether the hero stands on ground.
    pub grounded: bool,
    /// Face id on the mesh of the collider in use.
    pub face: u32,
    /// The collider in use, relative to `pos`, counter-clockwise.
    pub collider: Vec<[f64; 2]>,
    /// The level's agents after the tick, in the level's order (left out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentFrame>,
    /// Whether each of the level's doors is open (left out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<bool>,
    /// Each mover's offset from its rest pose after the tick (left out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub movers: Vec<[f64; 2]>,
    /// Each mover's angle about its pivot after the tick, radians (left out when none turns).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<f64>,
    /// The hero's health after the tick.
    pub health: u32,
    /// Deaths so far.
    pub deaths: u32,
    /// What the rules of play did in the tick (left out when nothing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<PlayEvent>,
}

/// One agent in a [`TraceFrame`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentFrame {
    /// Feet position.
    pub pos: [f64; 2],
    /// Velocity, m/s.
    pub vel: [f64; 2],
    /// Movement state name.
    pub state: &'static str,
    /// Facing: +1 right, -1 left.
    pub facing: f64,
}

/// The headless game world.
pub struct World {
    level: Level,
    /// The tuning the world was made with, before any level's overrides: every level swap applies
    /// the new level's overrides to this, so an override the new level no longer has is gone.
    base_tuning: Tuning,
    /// `base_tuning` with the current level's overrides: what the hero moves by.
    tuning: Tuning,
    collision: CollisionWorld,
    ladders: Vec<Aabb>,
    hero: Hero,
    /// The level's agents, in its order.
    agents: Vec<Agent>,
    /// Their size classes' colliders.
    classes: SizeClasses,
    /// The level's doors' states, in its order.
    doors: Vec<DoorState>,
    /// The level's movers, posed for the last tick.
    movers: Movers,
    /// Their paths.
    paths: Vec<super::movers::Path>,
    /// What happened in the world in the last tick besides the hero's movement events.
    events: Vec<WorldEvent>,
    /// The rules of play's state: health, deaths, checkpoint, goal, attack.
    play: Play,
    /// What the rules of play did in the last tick.
    play_events: Vec<PlayEvent>,
    /// The level's hazard polygons.
    hazards: Hazards,
    /// The level's bounds (explicit or automatic): its bottom is a pit.
    bounds: Aabb,
    prev_pos: DVec2,
    steps: u64,
    /// Ticks the movers' clock is ahead of (or, negative, behind) `steps`: 0 unless a
    /// play-test started with the movers at a chosen time ([`World::set_mover_time`]).
    mover_shift: i64,
    last: StepReport,
    warnings: Vec<String>,
}

/// A door's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DoorState {
    /// Whether it is open.
    pub open: bool,
    /// Ticks it has been open with the hero off its switch (for `close_after`).
    pub open_ticks: u64,
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

/// The chunk size (metres) of the meshes [`World::edit_level`] builds and rebuilds in part.
pub const EDIT_CHUNK_SIZE: f64 = crate::collision::DEFAULT_CHUNK_SIZE;

/// What a level turns into before the hero is placed: its tuning, meshes (the hero's two and one
/// per agent size class in use) and ladders.
struct Built {
    tuning: Tuning,
    collision: CollisionWorld,
    ladders: Vec<Aabb>,
    classes: SizeClasses,
    movers: Movers,
    paths: Vec<super::movers::Path>,
    hazards: Hazards,
    bounds: Aabb,
}

/// How [`Built::new`] gets the level's meshes.
enum Meshes<'a> {
    /// Built whole ([`CollisionWorld::new`]).
    Whole,
    /// Chunked ([`CollisionWorld::new_chunked`]), and when `previous` holds chunked meshes of
    /// the same colliders, rebuilt in part from them: only the polygons that differ from
    /// `previous_level`'s.
    Edited {
        previous: &'a mut CollisionWorld,
        previous_level: &'a Level,
    },
}

/// The ids of the source polygons (doors included, as [`Level::source_polygons`] numbers them)
/// that differ in kind or points between `old` and `new`, or that only one of them has. Reads
/// the levels in place: O(polygons), no copy.
fn changed_polygons(old: &Level, new: &Level) -> Vec<PolygonId> {
    // Each level's sources in id order: its polygons, then its doors.
    fn sources(level: &Level) -> impl Iterator<Item = (PolygonId, PolygonKind, &[DVec2])> {
        let polygons = level
            .polygons
            .iter()
            .enumerate()
            .map(|(i, p)| (polygon_id(i), p.kind, p.points.as_slice()));
        let doors = level
            .doors
            .iter()
            .enumerate()
            .map(|(i, d)| (level.door_id(i), PolygonKind::Door, d.points.as_slice()));
        polygons.chain(doors)
    }
    let (mut a, mut b) = (sources(old).peekable(), sources(new).peekable());
    let mut out = Vec::new();
    loop {
        match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                if x.1 != y.1 || x.2 != y.2 {
                    out.push(x.0);
                }
                a.next();
                b.next();
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                out.push(x.0);
                a.next();
            }
            (Some(x), None) => {
                out.push(x.0);
                a.next();
            }
            (_, Some(y)) => {
                out.push(y.0);
                b.next();
            }
            (None, None) => return out,
        }
    }
}

/// The source polygons of `level` among `ids` (sorted, as [`changed_polygons`] gives them):
/// what an edit changed that the level still has.
fn edited_polygons(level: &Level, ids: &[PolygonId]) -> Vec<SourcePolygon> {
    let n = level.polygons.len();
    ids.iter()
        .filter_map(|&id| {
            let i = id.0 as usize;
            if let Some(p) = level.polygons.get(i) {
                Some(SourcePolygon {
                    id,
                    kind: p.kind,
                    points: p.points.clone(),
                })
            } else {
                level.doors.get(i - n).map(|d| SourcePolygon {
                    id,
                    kind: PolygonKind::Door,
                    points: d.points.clone(),
                })
            }
        })
        .collect()
}

impl Built {
    fn new(level: &Level, base_tuning: &Tuning, meshes: Meshes) -> Result<Built, WorldError> {
        let tuning = base_tuning.with_overrides(&level.tuning);
        tuning.validate()?;
        let classes = SizeClasses::for_agents(&level.agents);
        let mut shapes = vec![
            tuning.stand_collider.clone(),
            tuning.crouch_collider.clone(),
        ];
        shapes.extend(classes.extra_colliders());
        let bounds = level.bounds.unwrap_or_else(|| automatic_bounds(level));
        let config = MeshConfig {
            bounds: Some(bounds),
            ..MeshConfig::default()
        };
        let mut collision = match meshes {
            Meshes::Whole => CollisionWorld::new(&level.source_polygons(), &shapes, config)?,
            Meshes::Edited {
                previous,
                previous_level,
            } if previous.chunk_size().is_some() && previous.shapes() == shapes.as_slice() => {
                let changed = changed_polygons(previous_level, level);
                let edited = edited_polygons(level, &changed);
                let mut collision = std::mem::replace(previous, CollisionWorld::empty());
                let rebuilt = match collision.rebuild_edited(&edited, &changed, &config) {
                    Ok(Some(_)) => Ok(collision),
                    Ok(None) => CollisionWorld::new_chunked(
                        &level.source_polygons(),
                        &shapes,
                        config.clone(),
                        EDIT_CHUNK_SIZE,
                    ),
                    Err(e) => Err(e),
                };
                match rebuilt {
                    Ok(c) => c,
                    Err(e) => {
                        // The previous meshes were handed over and may be part rebuilt: the
                        // previous level's are built again, so that nothing changes on error
                        // (the caller puts its doors back as they are).
                        *previous = CollisionWorld::new_chunked(
                            &previous_level.source_polygons(),
                            &shapes,
                            config,
                            EDIT_CHUNK_SIZE,
                        )?;
                        return Err(e.into());
                    }
                }
            }
            Meshes::Edited { .. } => CollisionWorld::new_chunked(
                &level.source_polygons(),
                &shapes,
                config,
                EDIT_CHUNK_SIZE,
            )?,
        };
        // Every door's gate as the level starts it (a fresh build has them all closed).
        for (i, d) in level.doors.iter().enumerate() {
            collision.set_gate(level.door_id(i), d.open);
        }
        let ladders: Vec<Aabb> = level
            .ladders
            .iter()
            .map(|l| Aabb {
                min: l.min,
                max: l.max,
            })
            .collect();
        // Every mover inflated by every collider of the world, posed at tick 0.
        let colliders: Vec<Vec<DVec2>> = (0..collision.shapes().len())
            .map(|i| collision.mesh(ColliderId(i as u16)).collider().to_vec())
            .collect();
        let one_way: Vec<bool> = level.movers.iter().map(|m| m.one_way).collect();
        let pieces = super::movers::mover_pieces(level);
        let mut movers = Movers::new(&pieces, &colliders)
            .with_one_way(&one_way)
            .with_pivots(&pieces, &super::movers::mover_pivots(level));
        let paths: Vec<super::movers::Path> =
            level.movers.iter().map(super::movers::Path::new).collect();
        movers.place_poses(super::movers::poses_at(&paths, 0));
        Ok(Built {
            tuning,
            collision,
            ladders,
            classes,
            movers,
            paths,
            hazards: Hazards::new(level),
            bounds,
        })
    }

    fn env(&self) -> Env<'_> {
        Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        }
    }
}

/// The level's agents, fresh at their spawn points on the meshes of `classes`, and a warning for
/// each one moved.
fn spawn_agents(
    level: &Level,
    classes: &SizeClasses,
    env: &Env,
    tuning: &Tuning,
    warnings: &mut Vec<String>,
) -> Result<Vec<Agent>, WorldError> {
    let mut agents = Vec::with_capacity(level.agents.len());
    for (index, def) in level.agents.iter().enumerate() {
        let (agent, moved) =
            Agent::spawn(def, classes, env, tuning).map_err(|_| WorldError::AgentSpawn {
                index,
                x: def.spawn.x,
                y: def.spawn.y,
            })?;
        if moved > 0.0 {
            warnings.push(moved_warning(
                &format!("agent {index}'s spawn"),
                def.spawn,
                moved,
                agent.mover.body.pos,
            ));
        }
        agents.push(agent);
    }
    Ok(agents)
}

/// The words of a character's state that every hash covers: position, face, velocity, collider,
/// ticks in its state, facing and the state's name (the hero adds its support and timers).
fn character_words(h: &Hero, words: &mut Vec<u64>) {
    words.extend([
        h.body.pos.x.to_bits(),
        h.body.pos.y.to_bits(),
        h.body.face.0 as u64,
        h.vel.x.to_bits(),
        h.vel.y.to_bits(),
        h.collider.0 as u64,
        h.ticks_in_state as u64,
        h.facing.to_bits(),
    ]);
    words.extend(h.state.name().bytes().map(u64::from));
    if let MoveState::Riding { on, local, speed } = h.state {
        words.extend([
            on.mover as u64,
            on.piece as u64,
            on.edge as u64,
            local.x.to_bits(),
            local.y.to_bits(),
            speed.to_bits(),
        ]);
    }
}

/// Each door's state at the level's start.
fn door_states(level: &Level) -> Vec<DoorState> {
    level
        .doors
        .iter()
        .map(|d| DoorState {
            open: d.open,
            open_ticks: 0,
        })
        .collect()
}

/// A character after a door changed: standing on an edge that no longer blocks (a door that
/// opened under it), it falls; in a face that became solid (a door that closed on it), it is
/// moved out: to its crouching collider if that fits where it is, else to the nearest free point
/// for its standing collider ([`Hero::relocate`]). Returns whether that was a crush (moved further
/// than [`CRUSH_WIGGLE`]).
fn resettle(h: &mut Hero, env: &Env, t: &Tuning) -> bool {
    let mesh = env.mesh(h.collider);
    if mesh.kind(h.body.face) != crate::collision::FaceKind::Solid {
        if let MoveState::Supported { edge, .. } = h.state {
            if !mesh.blocks(edge, h.move_options()) {
                h.apply(Change::To(Transition::to(MoveState::Airborne, h.vel)));
            }
        }
        return false;
    }
    let mut collider = h.collider;
    if let Some(crouch) = h.class.crouch.filter(|&c| c != h.collider) {
        if let crate::collision::Location::Free(_) = env.mesh(crouch).locate(h.body.pos, None) {
            collider = crouch;
        }
    }
    match h.relocate_as(collider, env, t) {
        Ok((moved_to, moved)) => {
            h.apply(Change::Replace(Box::new(moved_to)));
            moved > CRUSH_WIGGLE
        }
        // No free space anywhere near: leave it; a crush.
        Err(_) => true,
    }
}

/// The warning for a hero placed away from where it was asked to be.
fn moved_warning(what: &str, from: DVec2, moved: f64, to: DVec2) -> String {
    format!(
        "{what} ({}, {}) is inside level geometry for the standing collider; moved {:.4} m to the nearest free point ({:.4}, {:.4})",
        from.x, from.y, moved, to.x, to.y
    )
}

impl World {
    /// Builds the world: `tuning` (the base tuning) with the level's overrides, one mesh per
    /// collider, the hero at the spawn point (moved to the nearest free point, with a warning, if
    /// the spawn is inside geometry).
    pub fn new(level: &Level, tuning: &Tuning) -> Result<World, WorldError> {
        let built = Built::new(level, tuning, Meshes::Whole)?;
        let (hero, moved) = Hero::spawn(&built.env(), level.spawn, &built.tuning)?;
        let mut warnings = Vec::new();
        if moved > 0.0 {
            warnings.push(moved_warning("spawn", level.spawn, moved, hero.body.pos));
        }
        let agents = spawn_agents(
            level,
            &built.classes,
            &built.env(),
            &built.tuning,
            &mut warnings,
        )?;
        let mut world = World {
            level: level.clone(),
            play: Play::new(&built.tuning, 0),
            play_events: Vec::new(),
            hazards: built.hazards,
            bounds: built.bounds,
            prev_pos: hero.body.pos,
            base_tuning: tuning.clone(),
            tuning: built.tuning,
            collision: built.collision,
            ladders: built.ladders,
            hero,
            agents,
            classes: built.classes,
            doors: door_states(level),
            movers: built.movers,
            paths: built.paths,
            events: Vec::new(),
            steps: 0,
            mover_shift: 0,
            last: StepReport::default(),
            warnings,
        };
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
        self.play_events.clear();
        // Hit-stop holds the hero and the agents still; a dead hero waits for its respawn.
        let hitstop = self.play.frozen();
        let hero_still = hitstop || self.play.is_dead();
        if !self.movers.is_empty() {
            // Celeste's order: the movers move and carry their riders, push what they now
            // overlap, then the characters step among them, frozen.
            self.movers.set_poses(super::movers::poses_at(
                &self.paths,
                self.mover_tick(self.steps + 1),
            ));
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
        self.run_doors();
        let crushed = self.events.contains(&WorldEvent::Crushed { agent: None });
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        let rules = Rules {
            tick: self.steps,
            prev_feet: self.prev_pos,
            crushed,
            level: &self.level,
            tuning: &self.tuning,
            env: &env,
            hazards: &self.hazards,
            bounds: self.bounds,
            doors: &self.doors,
        };
        let actions = if hero_still {
            Actions::default()
        } else {
            *actions
        };
        self.play.after_moves(
            &rules,
            &mut self.hero,
            &mut self.agents,
            &actions,
            &mut self.play_events,
        );
        if self.play_events.contains(&PlayEvent::Respawned) {
            if self.level.reset_on_death {
                self.reset_agents_and_doors();
            }
            // Out of any mover over the respawn point (a crush there counts next tick), and
            // drawn where it is now: no interpolated streak across the level.
            self.push_characters();
            self.prev_pos = self.hero.body.pos;
        }
        self.steps += 1;
        &self.last
    }

    /// The agents back at their spawns as the level starts them, and each door as the level
    /// starts it (a level's `reset_on_death`).
    fn reset_agents_and_doors(&mut self) {
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        // Every agent spawned before, so each finds room again (its spawn is moved as at the
        // start, without a new warning).
        if let Ok(agents) = spawn_agents(
            &self.level,
            &self.classes,
            &env,
            &self.tuning,
            &mut Vec::new(),
        ) {
            self.agents = agents;
        }
        for i in 0..self.doors.len() {
            let open = self.level.doors[i].open;
            self.set_door(i, open);
        }
    }

    /// Doors after the characters' moves: a door opens while the hero's feet are in its switch;
    /// one with `close_after` closes that long after the hero left the switch.
    fn run_doors(&mut self) {
        for i in 0..self.doors.len() {
            let def = &self.level.doors[i];
            let on_switch = def.switch.is_some_and(|b| b.contains(self.hero.body.pos));
            let close_after = def.close_after;
            let d = &mut self.doors[i];
            if on_switch {
                d.open_ticks = 0;
                if !d.open {
                    self.set_door(i, true);
                }
            } else if d.open {
                if let Some(t) = close_after {
                    d.open_ticks += 1;
                    if d.open_ticks as f64 * DT >= t {
                        self.set_door(i, false);
                    }
                }
            }
        }
    }

    /// Opens or closes door `index` now (a script hook; switches and timers call it too): its
    /// gate flips in every mesh, no re-mesh. A character standing on what opened falls; one in
    /// what closed is moved out (crouching if that fits, else to the nearest free point: further
    /// than [`CRUSH_WIGGLE`] is a [`WorldEvent::Crushed`]). Returns false for no such door.
    pub fn set_door(&mut self, index: usize, open: bool) -> bool {
        let Some(d) = self.doors.get_mut(index) else {
            return false;
        };
        if d.open == open {
            return true;
        }
        d.open = open;
        d.open_ticks = 0;
        self.collision.set_gate(self.level.door_id(index), open);
        self.events.push(if open {
            WorldEvent::DoorOpened { door: index }
        } else {
            WorldEvent::DoorClosed { door: index }
        });
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        let t = &self.tuning;
        // Only a character whose feet are within its collider's reach of the door's box can be
        // on it or in it (the door's inflation by any collider lies inside that).
        let reach = (0..self.collision.shapes().len())
            .flat_map(|i| self.collision.mesh(ColliderId(i as u16)).collider())
            .fold(0.0_f64, |r, q| r.max(q.abs().max_element()));
        let near = Aabb::from_points(self.level.doors[index].points.iter().copied()).expand(reach);
        let mut crushed = Vec::new();
        if near.contains(self.hero.body.pos) && resettle(&mut self.hero, &env, t) {
            crushed.push(WorldEvent::Crushed { agent: None });
        }
        for (i, a) in self.agents.iter_mut().enumerate() {
            if near.contains(a.mover.body.pos) && resettle(&mut a.mover, &env, t) {
                crushed.push(WorldEvent::Crushed { agent: Some(i) });
            }
        }
        self.events.extend(crushed);
        true
    }

    /// Replaces the level (live editing): the base tuning with the new level's overrides, new
    /// meshes for every collider, and the hero where it is when it still fits there, else moved to
    /// the nearest free point with a warning (the same as for a spawn inside geometry); see
    /// [`Hero::relocate`]. The tick count and the trace continue. On error nothing changes.
    ///
    /// [`World::warnings`] afterwards holds this swap's warnings only.
    pub fn set_level(&mut self, level: &Level) -> Result<(), WorldError> {
        self.replace_level(level, false)
    }

    /// [`World::set_level`] for an edit of the current level (the editor): the meshes are
    /// chunked ([`CollisionWorld::new_chunked`], chunks of [`EDIT_CHUNK_SIZE`]), and once they
    /// are, only the chunks that the polygons which differ from the current level's touch are
    /// built again. A chunked mesh answers as a whole one does up to rounding where an edge
    /// crosses a chunk line (an ulp or so): a level played after edits can differ in the last
    /// bits from the same level loaded afresh, which [`World::set_level`] builds whole.
    pub fn edit_level(&mut self, level: &Level) -> Result<(), WorldError> {
        self.replace_level(level, true)
    }

    fn replace_level(&mut self, level: &Level, edit: bool) -> Result<(), WorldError> {
        let meshes = if edit {
            Meshes::Edited {
                previous: &mut self.collision,
                previous_level: &self.level,
            }
        } else {
            Meshes::Whole
        };
        let built = match Built::new(level, &self.base_tuning, meshes) {
            Ok(b) => b,
            Err(e) => {
                if edit {
                    // The meshes may have been built again: the doors as they are now.
                    for (i, d) in self.doors.iter().enumerate() {
                        self.collision.set_gate(self.level.door_id(i), d.open);
                    }
                }
                return Err(e);
            }
        };
        let mut warnings = Vec::new();
        let placed = self
            .hero
            .relocate(&built.env(), &built.tuning)
            .map_err(WorldError::from)
            .and_then(|(hero, moved)| {
                let agents = spawn_agents(
                    level,
                    &built.classes,
                    &built.env(),
                    &built.tuning,
                    &mut warnings,
                )?;
                Ok((hero, moved, agents))
            });
        let (hero, moved, agents) = match placed {
            Ok(p) => p,
            Err(e) => {
                if edit {
                    // An edit handed the meshes to the new build: the previous level's are
                    // built again (whole), with its doors as they are now.
                    let previous = self.level.clone();
                    self.collision =
                        Built::new(&previous, &self.base_tuning, Meshes::Whole)?.collision;
                    for (i, d) in self.doors.iter().enumerate() {
                        self.collision.set_gate(previous.door_id(i), d.open);
                    }
                }
                return Err(e);
            }
        };
        if moved > 0.0 {
            warnings.push(moved_warning(
                "the hero",
                self.hero.body.pos,
                moved,
                hero.body.pos,
            ));
            // Drawn where it is now: no interpolated streak across the jump.
            self.prev_pos = hero.body.pos;
        }
        self.level = level.clone();
        self.tuning = built.tuning;
        self.collision = built.collision;
        self.ladders = built.ladders;
        self.hero.apply(Change::Replace(Box::new(hero)));
        self.agents = agents;
        self.classes = built.classes;
        self.doors = door_states(level);
        self.movers = built.movers;
        self.paths = built.paths;
        self.hazards = built.hazards;
        self.bounds = built.bounds;
        if self
            .play
            .checkpoint
            .is_some_and(|c| c >= level.checkpoints.len())
        {
            self.play.checkpoint = None;
        }
        self.movers.place_poses(super::movers::poses_at(
            &self.paths,
            self.mover_tick(self.steps),
        ));
        self.warnings = warnings;
        self.push_characters();
        Ok(())
    }

    /// The movers' clock at world tick `steps`.
    fn mover_tick(&self, steps: u64) -> u64 {
        steps.saturating_add_signed(self.mover_shift)
    }

    /// Poses every mover as at `seconds` (rounded to the tick) and runs them on from there: a
    /// play-test from the editor's scrubbed time. Nothing is carried or pushed by the jump (as
    /// after a level edit); place the hero after it. The shift is part of the state (its hash,
    /// and so its traces).
    pub fn set_mover_time(&mut self, seconds: f64) {
        let tick = (seconds.max(0.0) * super::TICK_HZ as f64).round() as u64;
        self.mover_shift = tick as i64 - self.steps as i64;
        self.movers
            .place_poses(super::movers::poses_at(&self.paths, tick));
    }

    /// Puts a fresh hero at `pos` (the nearest free point when `pos` is inside geometry), at rest,
    /// as at a spawn: play-testing from a chosen point, or back at the spawn. Returns how far it
    /// was moved from `pos`. The tick count and the trace continue; on error nothing changes.
    pub fn place_hero(&mut self, pos: DVec2) -> Result<f64, WorldError> {
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        let (hero, moved) = Hero::spawn(&env, pos, &self.tuning)?;
        self.hero.apply(Change::Replace(Box::new(hero)));
        // Play-testing starts alive and whole (deaths and checkpoints are kept).
        self.play.dead = None;
        self.play.health = self.tuning.health;
        self.play.invulnerable = 0;
        self.push_characters();
        self.prev_pos = self.hero.body.pos;
        self.last = StepReport::default();
        Ok(moved)
    }

    /// Starts the level over (the pause menu's Restart, the next attempt at a level): the agents
    /// and doors as the level file has them, the hero at the spawn with full health, no deaths, no
    /// checkpoint, the goal not reached. The tick count and the movers' time continue; on error
    /// nothing changes.
    pub fn restart(&mut self) -> Result<(), WorldError> {
        let level = self.level.clone();
        self.set_level(&level)?;
        self.play = Play::new(&self.tuning, self.steps);
        self.place_hero(level.spawn)?;
        Ok(())
    }

    /// Replaces the base tuning (the tuning editor): the current level's overrides still apply
    /// on top. The meshes are rebuilt when a collider changed; the hero is re-placed as in
    /// [`World::set_level`]. On error nothing changes.
    pub fn set_base_tuning(&mut self, tuning: &Tuning) -> Result<(), WorldError> {
        let previous = std::mem::replace(&mut self.base_tuning, tuning.clone());
        let level = self.level.clone();
        self.set_level(&level)
            .inspect_err(|_| self.base_tuning = previous)
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
        &self.doors
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
    /// The rules of play's state: health, deaths, checkpoint, goal.
    pub fn play(&self) -> &Play {
        &self.play
    }
    /// Ticks played since the level started (or restarted), to the goal once reached.
    pub fn play_ticks(&self) -> u64 {
        self.play.ticks(self.steps)
    }
    /// Whether the level is a game: a goal, checkpoints, hazards or enemies (the front end shows
    /// its HUD).
    pub fn is_game(&self) -> bool {
        self.level.goal.is_some()
            || !self.level.checkpoints.is_empty()
            || !self.hazards.is_empty()
            || self.agents.iter().any(|a| a.kind.is_enemy())
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
            WorldEvent::DoorOpened { door } | WorldEvent::DoorClosed { door } => {
                self.level.doors.get(door).map_or(self.hero.body.pos, |d| {
                    Aabb::from_points(d.points.iter().copied()).centre()
                })
            }
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
    /// The level as loaded.
    pub fn level(&self) -> &Level {
        &self.level
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

    /// The trace line for the last tick.
    pub fn trace_frame(&self) -> TraceFrame {
        let h = &self.hero;
        TraceFrame {
            frame: self.steps.saturating_sub(1),
            pos: h.body.pos.to_array(),
            vel: h.vel.to_array(),
            state: h.state.name(),
            grounded: h.grounded(),
            face: h.body.face.0,
            collider: self
                .collision
                .mesh(h.collider)
                .collider()
                .iter()
                .map(|p| p.to_array())
                .collect(),
            agents: self
                .agents
                .iter()
                .map(|a| AgentFrame {
                    pos: a.mover.body.pos.to_array(),
                    vel: a.mover.vel.to_array(),
                    state: a.mover.state.name(),
                    facing: a.mover.facing,
                })
                .collect(),
            doors: self.doors.iter().map(|d| d.open).collect(),
            movers: (0..self.movers.len() as u32)
                .map(|m| self.movers.offset(m).to_array())
                .collect(),
            turns: if (0..self.movers.len() as u32).any(|m| self.movers.turns(m)) {
                (0..self.movers.len() as u32)
                    .map(|m| self.movers.pose(m).angle)
                    .collect()
            } else {
                Vec::new()
            },
            health: self.play.health,
            deaths: self.play.deaths,
            play: self.play_events.clone(),
        }
    }

    /// A hash of the complete simulation state (FNV-1a over the bits), for determinism checks.
    pub fn state_hash(&self) -> u64 {
        let h = &self.hero;
        let mut words: Vec<u64> = vec![self.steps];
        if self.mover_shift != 0 {
            // Only a play-test from a scrubbed time has one: earlier hashes stay as they were.
            words.push(self.mover_shift as u64);
        }
        character_words(h, &mut words);
        if let MoveState::Supported { edge, speed } = h.state {
            words.extend([edge.face.0 as u64, edge.edge as u64, speed.to_bits()]);
        }
        let t = &h.timers;
        words.extend(
            [
                t.coyote,
                t.jump_buffer,
                t.wall_coyote,
                t.wall_jump_lock,
                t.drop_through,
            ]
            .map(f64::to_bits),
        );
        // Agents after the hero (nothing when there are none: the hashes of levels without agents
        // are those pinned before agents existed).
        for a in &self.agents {
            character_words(&a.mover, &mut words);
        }
        for d in &self.doors {
            words.extend([d.open as u64, d.open_ticks]);
        }
        for m in 0..self.movers.len() as u32 {
            let o = self.movers.offset(m);
            words.extend([o.x.to_bits(), o.y.to_bits()]);
            if self.movers.turns(m) {
                // Only turning movers have an angle: other hashes stay as they were.
                words.push(self.movers.pose(m).angle.to_bits());
            }
        }
        self.play.hash_words(&mut words);
        for a in &self.agents {
            words.extend([
                a.health as u64,
                a.defeated as u64,
                a.wait as u64,
                a.charging as u64,
            ]);
        }
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for w in words {
            for b in w.to_le_bytes() {
                hash ^= b as u64;
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }
}
