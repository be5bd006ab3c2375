//! The rules of play: health, damage, death and respawn, checkpoints, the goal, the hero's attack
//! and stomps. What turns the moving world into a game.
//!
//! # What it owns
//! - [`Play`]: the hero's health, invulnerability, deaths, the wait for its respawn, and its
//!   attack's timers. Part of the world's state (hashed, traced, deterministic).
//! - The order of a tick's rules ([`Play::after_moves`]), run by `World::step` after every
//!   character moved. The object kinds' parts of the rules are the kinds' rules phases
//!   (`sim::kinds`), which it runs at their places through the registry's `Objects`, naming no
//!   kind: where the hero respawns and what a respawn resets, the regions (the goal and the
//!   checkpoints, `kinds::goal` and `kinds::checkpoint`, which own what was reached), whether
//!   the level is won, what walls the attack's sight, and a hazard's touch (`kinds::hazard`,
//!   after the enemies).
//!
//! # Rules
//! - **Damage only on real overlap.** A hazard or an enemy hurts when the hero's collider in use
//!   and the other shape overlap with positive area: the exact test of `collision::colliders_meet`
//!   on the Minkowski difference, with `orient2d` signs. Touching (a shared edge or corner) never
//!   hurts; nor does a corner the hero never entered.
//! - **A hit** by an enemy costs one health ([`Tuning::health`]), knocks the hero away from what
//!   hit it (`hurt_knockback_x`, `hurt_knockback_y`) and makes it invulnerable for
//!   `hurt_invulnerability`: nothing hurts it again within that time.
//! - **Hazards are obstacles: a hazard returns the hero to the last safe ground.** Overlapping a
//!   hazard puts the hero back, at rest, on the last safe ground it stood on
//!   (the hazard kind's safe ground: its feet on the last tick it stood on static ground, standing, alive
//!   and overlapping no hazard; the respawn point before any), as Celeste-like platformers and
//!   Hollow Knight do. It costs one health and the invulnerability of a hit unless the hero is
//!   already invulnerable; the return itself happens every time. So no direction held and no
//!   invulnerability carries the hero across a spike bed: it is jumped over or not passed, and
//!   holding into it costs the health until the hero dies and respawns at its checkpoint. (A
//!   stronger knock-back that wins over input was the alternative: it still let invulnerability
//!   carry a hero across a bed wider than the knock-back, and threw the hero into pits beside
//!   spikes.) A hazard hit that takes the last health is a death, with no return.
//! - **Death** at 0 health, in a crush (`WorldEvent::Crushed` for the hero), or in a pit (the
//!   hero's feet within [`PIT_DEPTH`] of the bottom of the level's bounds: it fell out of the
//!   level). The hero is frozen where it died for `respawn_delay` (at most 0.5 s, a tuning range),
//!   then put back at full health at the last checkpoint reached (the bottom centre of its
//!   region), or at the level's spawn.
//! - **Checkpoints and the goal** are regions: the hero's feet entering one is what counts. The
//!   goal is reached once; after it nothing hurts the hero.
//! - **Stomp:** overlapping an enemy while falling with its feet, a tick earlier, at or above the
//!   enemy's top (less [`STOMP_SLACK`]) is a stomp, not a hit: a stompable enemy is defeated, any
//!   enemy bounces the hero (`stomp_bounce_height`, or `jump_height` with jump held).
//! - **Attack:** pressing attack (when its cooldown allows) puts out a hitbox in front of the
//!   hero's collider (`attack_reach` wide, the collider's height) for `attack_active`. Each enemy
//!   it overlaps is hit once per swing, knocked back, and the hero and the agents hold still for
//!   `attack_hitstop` (movers keep their time: they are functions of the tick). A solid between
//!   the hero and the enemy stops the hit: the segment between their colliders' centres must
//!   cross no solid polygon and no closed door ([`wall_between`], exact signs; the kinds say
//!   what of theirs is a wall, `SimKind::blocks_sight`), so a thin wall
//!   the hitbox reaches through protects what is behind it.
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;
use serde::Serialize;

use super::agents::{ticks, Agent};
use super::kinds::{Objects, PlaySlot, Stage, Turn};
use crate::collision::{colliders_meet, Aabb, Meeting};
use crate::level::Level;
use crate::level::PolygonKind;
use crate::movement::character::Change;
use crate::movement::{Actions, Env, Hero, Tuning};

/// How close (m) to the bottom of the level's bounds the hero's feet may come before that is a
/// fall out of the level (a pit): one centimetre, well under any step of the walk and well over
/// the bounds' rounding.
pub const PIT_DEPTH: f64 = 0.01;
/// How far (m) below an enemy's top the hero's feet may have been a tick before a stomp: a tick's
/// fall at the default terminal speed (24 m/s / 120 Hz = 0.2 m) plus a margin for an enemy
/// walking up a slope.
pub const STOMP_SLACK: f64 = 0.25;

/// Why the hero died.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeathCause {
    /// Its health ran out.
    Hurt,
    /// A mover or a door left it no room.
    Crushed,
    /// It fell out of the level.
    Pit,
}

impl DeathCause {
    /// A word for reports.
    pub fn name(self) -> &'static str {
        match self {
            DeathCause::Hurt => "hurt",
            DeathCause::Crushed => "crushed",
            DeathCause::Pit => "pit",
        }
    }
}

/// What the rules of play did in a tick (sound, animation and the HUD read them).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayEvent {
    /// The hero was hurt and has `health` left.
    Hurt {
        /// Health left.
        health: u32,
    },
    /// The hero died.
    Died {
        /// Why.
        cause: DeathCause,
    },
    /// The hero is back, at a checkpoint or the spawn.
    Respawned,
    /// The hero reached checkpoint `index` (in the level's `checkpoints`).
    Checkpoint {
        /// Index in the level's `checkpoints`.
        index: usize,
    },
    /// The hero touched a hazard and was put back on the last safe ground it stood on (the
    /// hazard kind's); a `Hurt` before it says when that cost health.
    Returned {
        /// Where its feet were when it touched the hazard.
        from: DVec2,
    },
    /// The hero reached the goal.
    GoalReached,
    /// The hero swung its attack.
    Attacked,
    /// The hero's attack hit agent `agent`.
    EnemyHit {
        /// Index in the level's `agents`.
        agent: usize,
        /// Whether that defeated it.
        defeated: bool,
    },
    /// The hero stomped agent `agent`.
    Stomped {
        /// Index in the level's `agents`.
        agent: usize,
        /// Whether that defeated it.
        defeated: bool,
    },
}

/// The hero's standing in the game (the checkpoint reached and the goal are their kinds',
/// `kinds::checkpoint` and `kinds::goal`).
#[derive(Clone, Debug, PartialEq)]
pub struct Play {
    /// Health left.
    pub health: u32,
    /// Ticks of invulnerability left.
    pub invulnerable: u32,
    /// Deaths so far.
    pub deaths: u32,
    /// While dead: ticks until the respawn.
    pub dead: Option<u32>,
    /// Ticks the attack's hitbox is still out.
    pub attack: u32,
    /// Ticks until the hero may attack again.
    pub attack_cooldown: u32,
    /// Ticks the hero and the agents still hold still after an attack landed.
    pub hitstop: u32,
    /// Agents the current swing already hit.
    swing_hits: Vec<u32>,
    /// The world's tick count when this play began (a level's start or restart), for the time
    /// shown and recorded. Never changes a tick, so not hashed.
    pub started: u64,
}

impl Play {
    /// A fresh start at tick `started`: full health, no deaths.
    pub fn new(t: &Tuning, started: u64) -> Play {
        Play {
            started,
            health: t.health,
            invulnerable: 0,
            deaths: 0,
            dead: None,
            attack: 0,
            attack_cooldown: 0,
            hitstop: 0,
            swing_hits: Vec::new(),
        }
    }

    /// The words the world's state hash covers, with the object kinds' words among them at their
    /// slots (`SimKind::play_words`).
    pub fn hash_words(&self, words: &mut Vec<u64>, objects: &Objects) {
        words.extend([
            self.health as u64,
            self.invulnerable as u64,
            self.deaths as u64,
        ]);
        objects.play_words(PlaySlot::AfterDeaths, words);
        words.push(self.dead.map_or(u64::MAX, u64::from));
        objects.play_words(PlaySlot::AfterDead, words);
        words.extend([
            self.attack as u64,
            self.attack_cooldown as u64,
            self.hitstop as u64,
        ]);
        objects.play_words(PlaySlot::Last, words);
    }

    /// Whether the hero and the agents hold still this tick for a hit-stop, counting it down.
    pub fn frozen(&mut self) -> bool {
        if self.hitstop > 0 {
            self.hitstop -= 1;
            return true;
        }
        false
    }

    /// The hero is hurt by something at `from` (its knockback points away from it): one health
    /// off, knockback and invulnerability, or death at 0.
    fn hurt(&mut self, hero: &mut Hero, from: DVec2, t: &Tuning, events: &mut Vec<PlayEvent>) {
        self.health = self.health.saturating_sub(1);
        if self.health == 0 {
            self.die(DeathCause::Hurt, t, events);
            return;
        }
        let away = if hero.body.pos.x < from.x { -1.0 } else { 1.0 };
        hero.apply(Change::Launch {
            vel: DVec2::new(away * t.hurt_knockback_x, t.hurt_knockback_y),
            controlled: false,
        });
        self.invulnerable = ticks(t.hurt_invulnerability);
        events.push(PlayEvent::Hurt {
            health: self.health,
        });
    }

    fn die(&mut self, cause: DeathCause, t: &Tuning, events: &mut Vec<PlayEvent>) {
        self.health = 0;
        self.deaths += 1;
        self.dead = Some(ticks(t.respawn_delay));
        self.attack = 0;
        self.swing_hits.clear();
        events.push(PlayEvent::Died { cause });
    }

    /// Ticks played, from the start to the tick the level was won (`won_at`) once it was, else
    /// to `now` (the world's tick count).
    pub fn ticks(&self, now: u64, won_at: Option<u64>) -> u64 {
        won_at.map_or(now, |t| t + 1) - self.started
    }

    /// Whether the hero is dead (waiting to respawn).
    pub fn is_dead(&self) -> bool {
        self.dead.is_some()
    }

    /// The rules after every character moved this tick (see the module docs for the order and
    /// each rule), with what the tick did in `ctx`, the characters and the world in `stage`, and
    /// the object kinds' rules phases run at their places through `objects`.
    pub fn after_moves(
        &mut self,
        ctx: &Rules,
        objects: &mut Objects,
        stage: &mut Stage,
        actions: &Actions,
        events: &mut Vec<PlayEvent>,
    ) {
        let (t, level) = (stage.tuning, stage.level);
        let (tick, prev_feet, crushed) = (ctx.tick, ctx.prev_feet, ctx.crushed);
        if let Some(left) = self.dead {
            if left > 0 {
                self.dead = Some(left - 1);
                return;
            }
            let (env, hero, _) = stage.split();
            if let Ok((fresh, _)) = Hero::spawn(&env, objects.respawn_point(level), t) {
                hero.apply(Change::Replace(Box::new(fresh)));
            }
            self.dead = None;
            objects.respawned();
            self.health = t.health;
            self.invulnerable = 0;
            self.attack_cooldown = 0;
            events.push(PlayEvent::Respawned);
            return;
        }
        self.invulnerable = self.invulnerable.saturating_sub(1);
        self.attack_cooldown = self.attack_cooldown.saturating_sub(1);
        if objects.won_at().is_none() {
            // The goal and the checkpoints: the hero's feet in their regions.
            let mut turn = Turn {
                tick,
                play: self,
                events,
                collider: stage.hero.collider,
                respawn: objects.respawn_point(level),
            };
            objects.regions(stage, &mut turn);
        }
        let (env, hero, agents) = stage.split();
        let feet = hero.body.pos;
        let collider_id = hero.collider;
        let collider = env.mesh(collider_id).collider();
        self.swing(
            t, level, &env, objects, hero, collider, agents, actions, events,
        );
        if objects.won_at().is_some() {
            return;
        }
        if crushed {
            self.die(DeathCause::Crushed, t, events);
            return;
        }
        if feet.y <= ctx.bounds.min.y + PIT_DEPTH {
            self.die(DeathCause::Pit, t, events);
            return;
        }
        // Enemies: a stomp from above, else a hit (once per invulnerability). Boxes first: the
        // exact test builds a Minkowski difference.
        let hero_box = placed_box(collider, feet);
        for (i, a) in agents.iter_mut().enumerate() {
            if a.defeated || !a.kind.is_enemy() {
                continue;
            }
            let ac = env.mesh(a.mover.collider).collider();
            if !boxes_overlap(&placed_box(ac, a.mover.body.pos), &hero_box)
                || colliders_meet(ac, a.mover.body.pos, collider, feet) != Meeting::Overlapping
            {
                continue;
            }
            let top = a.mover.body.pos.y + ac.iter().fold(0.0_f64, |m, q| m.max(q.y));
            if hero.vel.y < 0.0 && prev_feet.y >= top - STOMP_SLACK {
                let defeated = a.kind.stompable() && a.hit(0.0, 0.0);
                let height = if actions.jump {
                    t.jump_height
                } else {
                    t.stomp_bounce_height
                };
                hero.apply(Change::Launch {
                    vel: DVec2::new(hero.vel.x, (2.0 * t.gravity * height).sqrt()),
                    controlled: actions.jump,
                });
                events.push(PlayEvent::Stomped { agent: i, defeated });
                continue;
            }
            if self.invulnerable == 0 {
                self.hurt(hero, a.mover.body.pos, t, events);
                if self.is_dead() {
                    return;
                }
            }
        }
        // What the kinds' touch does (a hazard's), with the collider the rules began with.
        let respawn = objects.respawn_point(level);
        let mut turn = Turn {
            tick,
            play: self,
            events,
            collider: collider_id,
            respawn,
        };
        objects.harm(stage, &mut turn);
    }

    /// A hazard's touch (the hazard kind's rule, `kinds::hazard`): one health off and
    /// invulnerability, unless already invulnerable; returns false when that took the last
    /// health (a death).
    pub fn hazard_damage(&mut self, t: &Tuning, events: &mut Vec<PlayEvent>) -> bool {
        if self.invulnerable == 0 {
            self.health = self.health.saturating_sub(1);
            if self.health == 0 {
                self.die(DeathCause::Hurt, t, events);
                return false;
            }
            self.invulnerable = ticks(t.hurt_invulnerability);
            events.push(PlayEvent::Hurt {
                health: self.health,
            });
        }
        true
    }

    /// The attack: a press starts a swing when the cooldown allows; while the swing is out, every
    /// enemy its hitbox overlaps is hit once.
    #[allow(clippy::too_many_arguments)]
    fn swing(
        &mut self,
        t: &Tuning,
        level: &Level,
        env: &Env,
        objects: &Objects,
        hero: &Hero,
        collider: &[DVec2],
        agents: &mut [Agent],
        actions: &Actions,
        events: &mut Vec<PlayEvent>,
    ) {
        if actions.attack_pressed && self.attack_cooldown == 0 {
            self.attack = ticks(t.attack_active);
            self.attack_cooldown = ticks(t.attack_cooldown);
            self.swing_hits.clear();
            events.push(PlayEvent::Attacked);
        }
        if self.attack == 0 {
            return;
        }
        self.attack -= 1;
        let hitbox = attack_hitbox(collider, hero.facing, t.attack_reach);
        let hit_box = placed_box(&hitbox, hero.body.pos);
        for (i, a) in agents.iter_mut().enumerate() {
            if a.defeated || !a.kind.is_enemy() || self.swing_hits.contains(&(i as u32)) {
                continue;
            }
            let ac = env.mesh(a.mover.collider).collider();
            let enemy_box = placed_box(ac, a.mover.body.pos);
            if boxes_overlap(&enemy_box, &hit_box)
                && colliders_meet(&hitbox, hero.body.pos, ac, a.mover.body.pos)
                    == Meeting::Overlapping
                && !wall_between(
                    level,
                    objects,
                    placed_box(collider, hero.body.pos).centre(),
                    enemy_box.centre(),
                )
            {
                self.swing_hits.push(i as u32);
                let defeated = a.hit(hero.facing, t.attack_knockback);
                self.hitstop = ticks(t.attack_hitstop);
                events.push(PlayEvent::EnemyHit { agent: i, defeated });
            }
        }
    }
}

/// Whether a solid polygon or a kind's wall (a closed door: `SimKind::blocks_sight`) stands
/// between `a` and `b`: the segment `a b` crosses or touches one of its edges (exact signs).
/// One-way platforms and hazards are no walls. Cost: a box test per polygon, edges only for
/// those whose box the segment's box meets; it runs only for an enemy the hitbox already
/// overlaps.
pub fn wall_between(level: &Level, objects: &Objects, a: DVec2, b: DVec2) -> bool {
    level
        .polygons
        .iter()
        .filter(|p| p.kind == PolygonKind::Solid)
        .any(|p| polygon_on_segment(&p.points, a, b))
        || objects.blocks_sight(level, a, b)
}

/// Whether the segment `a b` crosses or touches an edge of the polygon `pts` (exact signs),
/// after a test of their boxes.
pub fn polygon_on_segment(pts: &[DVec2], a: DVec2, b: DVec2) -> bool {
    let seg = Aabb::from_points([a, b]);
    if !seg.overlaps(&Aabb::from_points(pts.iter().copied())) {
        return false;
    }
    let n = pts.len();
    (0..n).any(|i| segments_meet(a, b, pts[i], pts[(i + 1) % n]))
}

/// Whether segments `a b` and `p q` cross or touch (exact orientation signs).
fn segments_meet(a: DVec2, b: DVec2, p: DVec2, q: DVec2) -> bool {
    use crate::collision::orient;
    let (d1, d2) = (orient(p, q, a), orient(p, q, b));
    let (d3, d4) = (orient(a, b, p), orient(a, b, q));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return true;
    }
    // Touching: an endpoint on the other segment (collinear and within its box).
    let on = |x: DVec2, y: DVec2, z: DVec2, d: f64| {
        d == 0.0
            && z.x >= x.x.min(y.x)
            && z.x <= x.x.max(y.x)
            && z.y >= x.y.min(y.y)
            && z.y <= x.y.max(y.y)
    };
    on(p, q, a, d1) || on(p, q, b, d2) || on(a, b, p, d3) || on(a, b, q, d4)
}

/// The box of `shape` (points relative to a reference) placed at `at`.
pub(crate) fn placed_box(shape: &[DVec2], at: DVec2) -> Aabb {
    Aabb::from_points(shape.iter().map(|&q| q + at))
}

/// Whether two boxes overlap with positive area: boxes that only touch hold shapes that cannot
/// overlap, so the exact test is skipped for them.
pub(crate) fn boxes_overlap(a: &Aabb, b: &Aabb) -> bool {
    a.min.cmplt(b.max).all() && b.min.cmplt(a.max).all()
}

/// The attack's hitbox relative to the hero's feet: `reach` wide in front of the collider (the
/// side `facing` points to), as tall as the collider, counter-clockwise.
pub fn attack_hitbox(collider: &[DVec2], facing: f64, reach: f64) -> Vec<DVec2> {
    let b = Aabb::from_points(collider.iter().copied());
    let (x0, x1) = if facing < 0.0 {
        (b.min.x - reach, b.min.x)
    } else {
        (b.max.x, b.max.x + reach)
    };
    vec![
        DVec2::new(x0, b.min.y),
        DVec2::new(x1, b.min.y),
        DVec2::new(x1, b.max.y),
        DVec2::new(x0, b.max.y),
    ]
}

/// What the rules read of the tick (the world they read is the kinds' [`Stage`]).
pub struct Rules {
    /// The tick's index (the world's tick count before it).
    pub tick: u64,
    /// Where the hero's feet were before the tick.
    pub prev_feet: DVec2,
    /// Whether a mover or a door crushed the hero this tick.
    pub crushed: bool,
    /// The level's bounds (explicit or automatic).
    pub bounds: Aabb,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1 × 1 m box standing on its bottom centre.
    fn unit_box() -> Vec<DVec2> {
        [(-0.5, 0.0), (0.5, 0.0), (0.5, 1.0), (-0.5, 1.0)]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec()
    }

    #[test]
    fn the_hitbox_is_in_front_of_the_collider() {
        let c = unit_box();
        let right = attack_hitbox(&c, 1.0, 0.75);
        assert_eq!(right[0], DVec2::new(0.5, 0.0));
        assert_eq!(right[2], DVec2::new(1.25, 1.0));
        let left = attack_hitbox(&c, -1.0, 0.75);
        assert_eq!(left[0], DVec2::new(-1.25, 0.0));
        assert_eq!(left[2], DVec2::new(-0.5, 1.0));
    }
}
