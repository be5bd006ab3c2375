//! Characters other than the hero ("agents"), each moving by the hero's state machine on the
//! collision meshes of its size class, driven by [`Actions`] its behaviour computes every tick.
//!
//! # What it owns
//! - [`Agent`]: a level's [`LevelAgent`] brought to life: its movement state ([`Hero`], the same
//!   type and step as the hero's, so slopes, steps, one-way platforms and ladders work for it with
//!   no new code), its kind and size class, and its last step's report.
//! - The size classes' colliders ([`class_collider`]) and which meshes a level needs
//!   ([`SizeClasses`]): one mesh per collider, as the hero has one standing and one crouching
//!   (seed 004: "if an enemy has a different sized collider, then it should use a different
//!   mesh"). Only the classes a level's agents use are built.
//! - The behaviours ([`Agent::actions`]): plain deterministic code from what the agent can ask the
//!   collision mesh, never markers placed in the level.
//!
//! # Rules
//! - The hero steps first, then the agents in the level's order (`World::step`).
//! - Agents ignore each other and the hero for collision (Celeste's rule): each moves on the
//!   static meshes only.
//! - On a mover, a patrolling agent turns a collider's width before the end of the top it walks.
//! - A patrolling agent turns when its next step would be into a wall (a riser higher than
//!   `max_step_height`, or a ceiling too low for its size: on its inflated mesh both are steep
//!   boundary edges ahead) or off a ledge (no walkable ground under its collider one collider
//!   width ahead, down to `max_step_height` below the feet). Both look further by the distance
//!   it needs to brake and reverse (`v² / 2(ground_accel + ground_friction)`), so it stops with
//!   its collider's front at the ledge, within a tick's travel, and short of the wall. While the
//!   edge it stands on runs on past that look-ahead, there can be neither (the boundary of the
//!   free space turns at both), so the probes only run near an edge's end.
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use crate::collision::{Aabb, ColliderId, ColliderShape, CollisionMesh};
use crate::level::{AgentKind, AgentSize, LevelAgent};
use crate::movement::tuning::head_chamfered_box;
use crate::movement::{
    Actions, Env, Hero, MoveEvent, MoveState, SizeClass, StepReport, Tuning, HERO_CLASS,
};

/// How far ahead (m) a patrolling agent looks for a wall: a little more than one tick's travel at
/// half the default run speed (8 m/s / 2 / 120 Hz = 3.3 cm), so the wall is seen before it is
/// touched.
pub const WALL_LOOKAHEAD: f64 = 0.05;
/// The fraction of the run speed a patrolling agent walks at.
pub const PATROL_SPEED: f64 = 0.5;
/// The head chamfer of a size class's box collider, as a fraction of its width (the hero's is
/// 0.12 m on 0.8 m): slides around ceiling corners as the hero does.
pub const CHAMFER_FRACTION: f64 = 0.15;

/// The collider of a box size class (feet at the bottom centre, head chamfered); `None` for
/// [`AgentSize::Hero`], whose colliders are the tuning's.
pub fn class_collider(size: AgentSize) -> Option<ColliderShape> {
    let (w, h) = size.box_size()?;
    Some(head_chamfered_box(w, h, CHAMFER_FRACTION * w))
}

/// The size classes a level's agents use, and the collider ids of their meshes: the hero's two
/// colliders first (ids 0 and 1), then one per box class in use, in [`AgentSize::ALL`]'s order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SizeClasses {
    /// Box classes in use and their collider id.
    used: Vec<(AgentSize, ColliderId)>,
}

impl SizeClasses {
    /// The classes `agents` need.
    pub fn for_agents(agents: &[LevelAgent]) -> SizeClasses {
        let mut used = Vec::new();
        for size in AgentSize::ALL {
            if size != AgentSize::Hero && agents.iter().any(|a| a.size == size) {
                used.push((size, ColliderId(2 + used.len() as u16)));
            }
        }
        SizeClasses { used }
    }

    /// The colliders to build meshes for after the hero's two, in id order.
    pub fn extra_colliders(&self) -> Vec<ColliderShape> {
        self.used
            .iter()
            .filter_map(|&(size, _)| class_collider(size))
            .collect()
    }

    /// The movement size class of `size` (which must be in use, or the hero's).
    pub fn class(&self, size: AgentSize) -> SizeClass {
        match self.used.iter().find(|&&(s, _)| s == size) {
            Some(&(_, stand)) => SizeClass {
                stand,
                crouch: None,
            },
            None => HERO_CLASS,
        }
    }
}

/// A character other than the hero.
#[derive(Clone, Debug, PartialEq)]
pub struct Agent {
    /// What it does.
    pub kind: AgentKind,
    /// Its size class.
    pub size: AgentSize,
    /// Its movement state (the hero's state machine, on its class's meshes).
    pub mover: Hero,
    /// What its last step reported.
    pub last: StepReport,
}

impl Agent {
    /// A fresh agent of `def` in `env`: standing at its spawn point (moved to the nearest free point
    /// for its size; the distance is returned), facing as the level says.
    pub fn spawn(
        def: &LevelAgent,
        classes: &SizeClasses,
        env: &Env,
        t: &Tuning,
    ) -> Result<(Agent, f64), crate::movement::SpawnError> {
        let (mut mover, moved) = Hero::spawn_as(env, classes.class(def.size), def.spawn, t)?;
        mover.facing = def.facing;
        Ok((
            Agent {
                kind: def.kind,
                size: def.size,
                mover,
                last: StepReport::default(),
            },
            moved,
        ))
    }

    /// This tick's actions, from the agent's state and the meshes of its size class.
    pub fn actions(&self, env: &Env, t: &Tuning) -> Actions {
        match self.kind {
            AgentKind::Idle => Actions::default(),
            AgentKind::Patrol => {
                let h = &self.mover;
                let mut dir = h.facing;
                if let MoveState::Riding { on, local, .. } = h.state {
                    // On a mover: turn before the end of the top it walks (a mover's top ends in
                    // a drop, or where the mover meets something).
                    let piece = env.movers.piece(on, h.collider.0 as usize);
                    let (a, b) = piece.walk(on.edge as usize);
                    let end = if (b.x - a.x) * dir > 0.0 { b } else { a };
                    let width = collider_width(env.mesh(h.collider));
                    if (end - local).length() < width.max(WALL_LOOKAHEAD) {
                        dir = -dir;
                    }
                } else if h.grounded() {
                    let blocked = self
                        .last
                        .events
                        .iter()
                        .any(|e| matches!(e, MoveEvent::Blocked { .. }));
                    let mesh = env.mesh(h.collider);
                    let width = collider_width(mesh);
                    // Where it would stop if it turned now: reversing brakes at the ground
                    // acceleration plus friction.
                    let v = h.vel.length();
                    let stop = v * v / (2.0 * (t.ground_accel + t.ground_friction));
                    // The ground the feet walk on is an edge of the boundary of the free space:
                    // a wall or a ledge ahead ends it (the boundary turns there), so while the
                    // edge runs on past the look-ahead, neither can be there and nothing needs
                    // probing (most ticks, on long floors).
                    let reach = width.max(WALL_LOOKAHEAD) + stop;
                    let clear = support_runs_on(mesh, h, dir, reach);
                    if blocked
                        || !clear
                            && (wall_ahead(mesh, h, t, dir, stop)
                                || ledge_ahead(mesh, h, t, dir, width + stop))
                    {
                        dir = -dir;
                    }
                }
                Actions {
                    move_axis: DVec2::new(PATROL_SPEED * dir, 0.0),
                    ..Actions::default()
                }
            }
        }
    }

    /// Advances the agent one tick.
    pub fn step(&mut self, env: &Env, t: &Tuning, dt: f64) {
        let a = self.actions(env, t);
        self.mover.step(env, &a, t, dt, &mut self.last);
    }
}

/// Whether the edge the agent stands on runs on for at least `reach` ahead of its feet in
/// direction `dir` (±1).
fn support_runs_on(mesh: &CollisionMesh, h: &Hero, dir: f64, reach: f64) -> bool {
    let MoveState::Supported { edge, .. } = h.state else {
        return false;
    };
    let (a, b) = mesh.edge_points(edge);
    let end = if (b.x - a.x) * dir > 0.0 { b } else { a };
    (end - h.body.pos).length() >= reach
}

/// The width of a mesh's collider, m.
fn collider_width(mesh: &CollisionMesh) -> f64 {
    let b = Aabb::from_points(mesh.collider().iter().copied());
    b.max.x - b.min.x
}

/// Whether walking `dir` (±1) is blocked within `stop` (the braking distance) plus
/// [`WALL_LOOKAHEAD`] by a steep edge that faces the agent, even when lifted by `max_step_height`
/// (a riser it could step up is not a wall).
fn wall_ahead(mesh: &CollisionMesh, h: &Hero, t: &Tuning, dir: f64, stop: f64) -> bool {
    let opts = h.move_options();
    let up = mesh.cast(h.body, DVec2::new(0.0, t.max_step_height), opts);
    let reach = stop + WALL_LOOKAHEAD;
    let across = mesh.cast(up.body, DVec2::new(dir * reach, 0.0), opts);
    across.contacts.iter().any(|c| c.normal.x * dir < 0.0)
}

/// Whether `ahead` (one collider width plus the braking distance) in direction `dir` there is no
/// walkable ground within
/// `max_step_height` (plus [`WALL_LOOKAHEAD`]) below the feet. Something in the way across counts
/// as ground (a riser or a wall: [`wall_ahead`] decides).
fn ledge_ahead(mesh: &CollisionMesh, h: &Hero, t: &Tuning, dir: f64, ahead: f64) -> bool {
    let opts = h.move_options();
    let across = mesh.cast(h.body, DVec2::new(dir * ahead, 0.0), opts);
    if !across.contacts.is_empty() {
        return false;
    }
    let depth = t.max_step_height + WALL_LOOKAHEAD;
    let down = mesh.cast(across.body, DVec2::new(0.0, -depth), opts);
    let min_y = crate::movement::rules::min_walk_normal_y(t);
    !down.contacts.iter().any(|c| c.normal.y >= min_y)
}
