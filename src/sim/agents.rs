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
//! - A patrolling agent with a patrol range ([`LevelAgent::patrol`]) turns as its feet, braking,
//!   would reach either end, and walks back towards the range when outside it; walls and ledges
//!   inside the range turn it as they always do.
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
use crate::movement::character::Change;
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
    /// Hits it can still take ([`AgentKind::health`]; 0 for agents that cannot be hurt).
    pub health: u32,
    /// Defeated by the hero: it no longer acts, hurts or can be hit; its body still falls and
    /// rides (see [`Agent::step`]), and the view draws it for a moment.
    pub defeated: bool,
    /// Ticks its behaviour waits before acting again: a hopper resting between hops, a brute
    /// stunned by a wall, any enemy reeling from a hit.
    pub wait: u32,
    /// A brute charging (in its facing direction).
    pub charging: bool,
    /// The x range its walk keeps to: level x, or the frame of the mover it rides
    /// ([`LevelAgent::patrol`]).
    pub patrol: Option<[f64; 2]>,
}

/// How far (m) an enemy sees the hero: a hopper hops towards it, a brute charges.
pub const SIGHT_RANGE: f64 = 9.0;
/// How long (s) a hopper rests on the ground between hops.
pub const HOP_REST: f64 = 0.6;
/// The fraction of the run speed a brute walks at (it charges at the full run speed).
pub const BRUTE_WALK: f64 = 0.3;
/// How far (m) above or below a brute's feet the hero's feet may be for it to charge ("at its
/// height").
pub const CHARGE_HEIGHT: f64 = 0.6;
/// How long (s) a brute stays stunned after charging into a wall.
pub const STUN_TIME: f64 = 1.5;
/// How long (s) an enemy reels (does nothing of its own) after the hero's attack hits it.
pub const REEL_TIME: f64 = 0.3;

/// Seconds to whole ticks (rounded up, so a positive time is at least one tick).
pub(crate) fn ticks(seconds: f64) -> u32 {
    (seconds * super::world::TICK_HZ as f64).ceil().max(0.0) as u32
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
                health: def.kind.health(),
                defeated: false,
                wait: 0,
                charging: false,
                patrol: def.patrol,
            },
            moved,
        ))
    }

    /// This tick's actions, from the agent's state, the meshes of its size class and where the
    /// hero's feet are (`hero`). Updates the behaviour's own state (`wait`, `charging`).
    pub fn actions(&mut self, env: &Env, t: &Tuning, hero: DVec2) -> Actions {
        if self.wait > 0 {
            self.wait -= 1;
            return Actions::default();
        }
        match self.kind {
            AgentKind::Idle => Actions::default(),
            AgentKind::Patrol | AgentKind::Crawler => walk(self.patrol_dir(env, t), PATROL_SPEED),
            AgentKind::Hopper => self.hop(env, hero),
            AgentKind::Brute => self.brute(env, t, hero),
        }
    }

    /// A hopper: on the ground, hops towards the hero when it sees it, then rests for
    /// [`HOP_REST`] after landing; in the air, steers towards where it hopped.
    fn hop(&mut self, env: &Env, hero: DVec2) -> Actions {
        let h = &self.mover;
        if !h.grounded() {
            return walk(h.facing, 1.0);
        }
        if self
            .last
            .events
            .iter()
            .any(|e| matches!(e, MoveEvent::Landed { .. }))
        {
            self.wait = ticks(HOP_REST);
            return Actions::default();
        }
        if !sees(env, h, hero) {
            return Actions::default();
        }
        let dir = if hero.x < h.body.pos.x { -1.0 } else { 1.0 };
        Actions {
            jump: true,
            jump_pressed: true,
            ..walk(dir, 1.0)
        }
    }

    /// A brute: walks as a patrol at [`BRUTE_WALK`]; when it sees the hero at its height it
    /// charges at the run speed until it meets a wall (stunned for [`STUN_TIME`]) or a ledge
    /// (it stops and turns).
    fn brute(&mut self, env: &Env, t: &Tuning, hero: DVec2) -> Actions {
        let h = &self.mover;
        if self.charging {
            let dir = h.facing;
            let hit_wall = self
                .last
                .events
                .iter()
                .any(|e| matches!(e, MoveEvent::Blocked { normal } if normal[0] * dir < 0.0));
            if hit_wall {
                self.charging = false;
                self.wait = ticks(STUN_TIME);
                return Actions::default();
            }
            if matches!(h.state, MoveState::Supported { .. }) {
                // A ledge ahead: stop the charge there (a wall is what stuns it, so only the
                // ledge probe of the patrol runs).
                let mesh = env.mesh(h.collider);
                let ahead = collider_width(mesh) + braking_distance(h, t);
                if !support_runs_on(mesh, h, dir, ahead) && ledge_ahead(mesh, h, t, dir, ahead) {
                    self.charging = false;
                    return walk(-dir, BRUTE_WALK);
                }
            }
            return walk(dir, 1.0);
        }
        if h.grounded() && (hero.y - h.body.pos.y).abs() <= CHARGE_HEIGHT && sees(env, h, hero) {
            let dir = if hero.x < h.body.pos.x { -1.0 } else { 1.0 };
            self.charging = true;
            return walk(dir, 1.0);
        }
        walk(self.patrol_dir(env, t), BRUTE_WALK)
    }

    /// The direction (±1) a patrolling agent walks this tick: its facing, reversed at a wall or
    /// a ledge ahead (see the module's rules).
    fn patrol_dir(&self, env: &Env, t: &Tuning) -> f64 {
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
            let stop = braking_distance(h, t);
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
        if let (Some([left, right]), true) = (self.patrol, h.grounded()) {
            // The patrol range's ends are turned at as walls are, braking in time; from outside
            // it (a charge or a knock took it there) it walks back in. On a mover the range is
            // in the mover's frame (its rest pose, where the editor draws it): it rides along.
            let x = match h.state {
                MoveState::Riding { local, .. } => local.x,
                _ => h.body.pos.x,
            };
            let stop = braking_distance(h, t);
            if dir > 0.0 && x + stop >= right {
                dir = -1.0;
            } else if dir < 0.0 && x - stop <= left {
                dir = 1.0;
            }
        }
        dir
    }

    /// Advances the agent one tick, the hero's feet at `hero`. A defeated agent no longer acts
    /// but still moves with no input: it falls, slides to a stop and rides a mover, so its body
    /// comes to rest on the ground where it fell (the view draws it lying there for a moment).
    pub fn step(&mut self, env: &Env, t: &Tuning, dt: f64, hero: DVec2) {
        let a = if self.defeated {
            Actions::default()
        } else {
            self.actions(env, t, hero)
        };
        self.mover.step(env, &a, t, dt, &mut self.last);
    }

    /// The hero's attack or stomp hit it, from direction `dir` (±1, the way it is knocked):
    /// one hit off its health (defeated at 0), knocked back at `speed` m/s and reeling for
    /// [`REEL_TIME`]. Returns whether this defeated it.
    pub fn hit(&mut self, dir: f64, speed: f64) -> bool {
        self.health = self.health.saturating_sub(1);
        self.charging = false;
        if self.health == 0 {
            self.defeated = true;
            return true;
        }
        self.mover.apply(Change::Launch {
            vel: DVec2::new(dir * speed, 0.4 * speed),
            controlled: false,
        });
        self.wait = ticks(REEL_TIME);
        false
    }
}

/// Walking actions: direction `dir` (±1) at `speed` (a fraction of the run speed).
fn walk(dir: f64, speed: f64) -> Actions {
    Actions {
        move_axis: DVec2::new(speed * dir, 0.0),
        ..Actions::default()
    }
}

/// Whether the agent `h` sees a hero whose feet are at `hero`: within [`SIGHT_RANGE`], and the
/// segment from its feet to the hero's, cast on its own mesh, meets no solid (its whole
/// collider could slide there unobstructed: solids block the view, and so does a gap too small
/// for it).
fn sees(env: &Env, h: &Hero, hero: DVec2) -> bool {
    let d = hero - h.body.pos;
    if d.length_squared() > SIGHT_RANGE * SIGHT_RANGE {
        return false;
    }
    // Looked at from a little above the feet, so that the floor it stands on is not in the way.
    let mesh = env.mesh(h.collider);
    let opts = h.move_options();
    let lift = mesh.cast(h.body, DVec2::new(0.0, 0.05), opts);
    if !lift.contacts.is_empty() {
        return false;
    }
    let ray = mesh.cast(
        lift.body,
        hero + DVec2::new(0.0, 0.05) - lift.body.pos,
        opts,
    );
    ray.contacts.is_empty()
}

/// Where a walking character would stop if it turned now: reversing brakes at the ground
/// acceleration plus friction (m).
fn braking_distance(h: &Hero, t: &Tuning) -> f64 {
    let v = h.vel.length();
    v * v / (2.0 * (t.ground_accel + t.ground_friction))
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
