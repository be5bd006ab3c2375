//! The cast: the characters a level's agents are drawn with, and their animation.
//!
//! # What it owns
//! - The character files the level's agents name (`agents: [(..., character: "...")]`: a path
//!   relative to the level file's folder, else to the data directory, so a level copied
//!   elsewhere still finds `assets/characters/...`), each loaded once, however many agents name it: one
//!   [`HeroAnimator`] is built per file and cloned for each agent, the clones sharing the model
//!   (so the renderer uploads each model's mesh once, [`Cast::models`]).
//! - One animator per agent with a character, advanced after every tick from the agent's state
//!   and events exactly as the hero's is ([`super::animate`]: the same controller, so an agent
//!   walks, runs, jumps, lands and climbs with the clips its character maps).
//! - The agent's drawn position: the blend of its positions before and after the last tick.
//!
//! Agents without a character are not here: the renderer draws their collider's outline.
//!
//! # Must never depend on
//! Like the rest of `view`: no window, GPU, audio or input crate. The simulation never reads it;
//! a character changes how an agent looks, never how it moves.
use std::path::{Path, PathBuf};

use glam::DVec2;

use crate::anim::HeroAnimator;
use crate::level::DataDir;
use crate::sim::World;

/// A level's agent could not be given its character.
#[derive(Debug, thiserror::Error)]
#[error("{}: agents[{index}]: {why}", level.display())]
pub struct CastError {
    /// The level file.
    pub level: PathBuf,
    /// The agent's index in the level's `agents`.
    pub index: usize,
    /// What went wrong (the character file's own error, which names it).
    pub why: String,
}

/// One agent drawn with a character.
#[derive(Clone, Debug)]
pub struct Member {
    /// Index of the model in [`Cast::models`].
    pub model: usize,
    /// The agent's animation.
    pub animator: HeroAnimator,
    /// Its character file's tint (multiplies the model's colours).
    pub tint: [f32; 3],
    prev: DVec2,
    now: DVec2,
}

impl Member {
    /// The agent's drawn position at blend `alpha` between the last two ticks.
    pub fn drawn_at(&self, alpha: f64) -> DVec2 {
        self.prev.lerp(self.now, alpha.clamp(0.0, 1.0))
    }
}

/// The characters of a level's agents (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Cast {
    /// One entry per agent of the world, in its order: `None` for an agent without a character.
    members: Vec<Option<Member>>,
    /// The character files loaded, in the order agents first name them, each with the animator
    /// its members are cloned from (and which holds the model they share).
    models: Vec<(PathBuf, HeroAnimator, [f32; 3])>,
}

impl Cast {
    /// Loads the characters `world`'s agents name; `level_file` is the level's path (a character
    /// path is looked up in its folder, then in `data`'s places). Fails on the first agent whose
    /// character file does not load or cannot play (a leg joint its model lacks), naming the
    /// level, the agent and the file.
    pub fn load(world: &World, level_file: &Path, data: &DataDir) -> Result<Cast, CastError> {
        let dir = level_file.parent().unwrap_or(Path::new(""));
        let mut cast = Cast::default();
        for (index, (def, agent)) in world.level().agents.iter().zip(world.agents()).enumerate() {
            let Some(name) = &def.character else {
                cast.members.push(None);
                continue;
            };
            let beside = dir.join(name);
            let path = if beside.is_file() {
                beside
            } else {
                data.find_optional(name).unwrap_or(beside)
            };
            let model = match cast.models.iter().position(|(p, _, _)| *p == path) {
                Some(m) => m,
                None => {
                    let fail = |why: String| CastError {
                        level: level_file.to_path_buf(),
                        index,
                        why,
                    };
                    let c = crate::anim::load_character(&path).map_err(|e| fail(e.to_string()))?;
                    let a = HeroAnimator::for_character(&c)
                        .map_err(|e| fail(format!("{}: {e}", path.display())))?;
                    for n in c.model.notes.iter().chain(&c.notes) {
                        log::warn!("{}: {n}", path.display());
                    }
                    cast.models.push((path, a, c.tint));
                    cast.models.len() - 1
                }
            };
            let pos = agent.mover.body.pos;
            cast.members.push(Some(Member {
                model,
                animator: cast.models[model].1.clone(),
                tint: cast.models[model].2,
                prev: pos,
                now: pos,
            }));
        }
        Ok(cast)
    }

    /// After each tick of `world`: every member's animation takes its agent's state and events,
    /// and its drawn position moves on.
    pub fn after_tick(&mut self, world: &World) {
        for (m, agent) in self.members.iter_mut().zip(world.agents()) {
            if let Some(m) = m {
                m.prev = m.now;
                m.now = agent.mover.body.pos;
                super::animate_mover(&mut m.animator, world, &agent.mover, &agent.last.events);
            }
        }
    }

    /// The agents drawn with a character: their index in the world's agents, and their member.
    pub fn members(&self) -> impl Iterator<Item = (usize, &Member)> {
        self.members
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.as_ref().map(|m| (i, m)))
    }

    /// Whether agent `index` is drawn with a character.
    pub fn has(&self, index: usize) -> bool {
        matches!(self.members.get(index), Some(Some(_)))
    }

    /// The models to upload, in [`Member::model`]'s numbering: each character file's model.
    pub fn models(&self) -> impl Iterator<Item = &crate::anim::Model> {
        self.models.iter().map(|(_, a, _)| a.model())
    }

    /// The character files loaded, in [`Member::model`]'s numbering.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.models.iter().map(|(p, _, _)| p.as_path())
    }
}
