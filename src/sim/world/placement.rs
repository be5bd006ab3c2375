//! Putting the characters into a world: the hero and the level's agents when a world is built or
//! its level replaced (one function for both, [`place_characters`]), the agents again when a
//! death resets them, and the hero alone for a play-test from a chosen point. A character whose
//! place is inside geometry is moved to the nearest free point, with a warning.
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use super::rebuild::Built;
use super::{World, WorldError};
use crate::level::Level;
use crate::movement::character::Change;
use crate::movement::{Env, Hero, StepReport, Tuning};
use crate::sim::agents::{Agent, SizeClasses};

/// Where the hero of a world being built or rebuilt comes from.
#[derive(Clone, Copy, Debug)]
pub(super) enum HeroFrom<'a> {
    /// A fresh hero at this point (the level's spawn: a new world).
    Spawn(DVec2),
    /// This hero, moved onto the new meshes where it is if it still fits there, else to the
    /// nearest free point ([`Hero::relocate`]: a level swap).
    Relocate(&'a Hero),
}

/// The characters of a world built on `built` for `level`.
#[derive(Debug)]
pub(super) struct Placed {
    /// The hero.
    pub hero: Hero,
    /// How far the hero was moved from where it was asked to be (m; 0 when it fits there).
    pub moved: f64,
    /// The level's agents, fresh at their spawns, in its order.
    pub agents: Vec<Agent>,
    /// A warning for each character moved out of geometry: the hero's first, then the agents'
    /// in the level's order.
    pub warnings: Vec<String>,
}

/// Places the characters of a world being built or rebuilt on `built` for `level`: the hero
/// (see [`HeroFrom`]) then the level's agents at their spawns, each moved to the nearest free
/// point (with a warning) when its place is inside geometry. The one placement of a new world
/// ([`World::new`]) and a level swap ([`World::set_level`], [`World::edit_level`]). An error
/// (no room for the hero or for an agent) leaves nothing placed.
pub(super) fn place_characters(
    level: &Level,
    built: &Built,
    from: HeroFrom,
) -> Result<Placed, WorldError> {
    let env = built.env();
    let (hero, moved) = match from {
        HeroFrom::Spawn(at) => Hero::spawn(&env, at, &built.tuning)?,
        HeroFrom::Relocate(h) => h.relocate(&env, &built.tuning)?,
    };
    let mut warnings = Vec::new();
    if moved > 0.0 {
        let (what, asked) = match from {
            HeroFrom::Spawn(at) => ("spawn", at),
            HeroFrom::Relocate(h) => ("the hero", h.body.pos),
        };
        warnings.push(moved_warning(what, asked, moved, hero.body.pos));
    }
    let agents = spawn_agents(level, &built.classes, &env, &built.tuning, &mut warnings)?;
    Ok(Placed {
        hero,
        moved,
        agents,
        warnings,
    })
}

/// The level's agents, fresh at their spawn points on the meshes of `classes`, and a warning for
/// each one moved.
pub(super) fn spawn_agents(
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

/// The warning for a hero placed away from where it was asked to be.
pub(super) fn moved_warning(what: &str, from: DVec2, moved: f64, to: DVec2) -> String {
    format!(
        "{what} ({}, {}) is inside level geometry for the standing collider; moved {:.4} m to the nearest free point ({:.4}, {:.4})",
        from.x, from.y, moved, to.x, to.y
    )
}

impl World {
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
}

#[cfg(test)]
mod tests {
    use super::super::rebuild::Meshes;
    use super::*;

    /// A floor with a block on it; the spawn as given.
    fn level(spawn: &str) -> Level {
        let text = format!(
            "(name: \"p\", polygons: [\
             (points: [(-4.0, -1.0), (4.0, -1.0), (4.0, 0.0), (-4.0, 0.0)]),\
             (points: [(1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0)])], spawn: {spawn})"
        );
        crate::level::parse_level(std::path::Path::new("p.ron"), &text).unwrap()
    }

    /// The one placement: a spawn inside the block is moved out with one warning naming the
    /// spawn; the same hero relocated onto the same meshes keeps its place, with none; a free
    /// spawn is kept as given.
    #[test]
    fn a_spawn_in_geometry_is_moved_once_with_a_warning_and_a_relocation_keeps_its_place() {
        let l = level("(1.5, 0.5)");
        let built = Built::new(&l, &Tuning::default(), Meshes::Whole).unwrap();
        let p = place_characters(&l, &built, HeroFrom::Spawn(l.spawn)).unwrap();
        assert!(p.moved > 0.0);
        assert_eq!(p.warnings.len(), 1);
        assert!(
            p.warnings[0].starts_with("spawn (1.5, 0.5)"),
            "{:?}",
            p.warnings
        );
        assert!(p.agents.is_empty());
        let again = place_characters(&l, &built, HeroFrom::Relocate(&p.hero)).unwrap();
        assert_eq!((again.moved, again.warnings.len()), (0.0, 0));
        assert_eq!(again.hero.body.pos, p.hero.body.pos);

        let free = level("(-2.0, 0.0)");
        let built = Built::new(&free, &Tuning::default(), Meshes::Whole).unwrap();
        let p = place_characters(&free, &built, HeroFrom::Spawn(free.spawn)).unwrap();
        assert_eq!((p.moved, p.warnings.len()), (0.0, 0));
        assert_eq!(p.hero.body.pos, free.spawn);
        assert!(p.hero.grounded());
    }
}
