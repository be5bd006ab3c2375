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
    /// Ticks left of the flash after the hero's attack or stomp hit it ([`HIT_FLASH_TICKS`] on
    /// the hit, then down by one a tick).
    pub flash: u32,
    /// Ticks since its agent was defeated (0 while it is not): the body lies for
    /// [`DEFEATED_SHOWN_TICKS`], blinking for the last [`DEFEATED_BLINK_TICKS`], then is gone.
    pub defeated_ticks: u32,
    prev: DVec2,
    now: DVec2,
}

/// How long an enemy flashes after a hit: 0.15 s at 120 Hz, about as long as the hit-stop and
/// the first frames of its reel, so the hit reads at once.
pub const HIT_FLASH_TICKS: u32 = 18;

/// The tint an enemy flashes towards when hit (linear, multiplying its colours): a hot
/// red-white, brighter than any model colour.
pub const HIT_FLASH_TINT: [f32; 3] = [3.0, 1.4, 1.1];

/// How long a defeated enemy stays drawn: 1.5 s at 120 Hz, the death clip's fall (0.5 s) and
/// a moment lying still, so the player sees what the blow did before the body goes.
pub const DEFEATED_SHOWN_TICKS: u32 = 180;
/// The last part of that time during which the body blinks (drawn 4 ticks, hidden 4), the old
/// arcade convention for "this is going away": 0.5 s.
pub const DEFEATED_BLINK_TICKS: u32 = 60;

impl Member {
    /// Whether to draw it this tick: always while its agent is in play; once defeated, until
    /// [`DEFEATED_SHOWN_TICKS`] have passed, blinking at the end.
    pub fn shown(&self) -> bool {
        let t = self.defeated_ticks;
        if t == 0 {
            return true;
        }
        if t >= DEFEATED_SHOWN_TICKS {
            return false;
        }
        t < DEFEATED_SHOWN_TICKS - DEFEATED_BLINK_TICKS || (t / 4).is_multiple_of(2)
    }

    /// The tint to draw with now: the character's, blended towards [`HIT_FLASH_TINT`] by the
    /// flash left.
    pub fn drawn_tint(&self) -> [f32; 3] {
        let f = self.flash as f32 / HIT_FLASH_TICKS as f32;
        std::array::from_fn(|k| self.tint[k] + (HIT_FLASH_TINT[k] - self.tint[k]) * f)
    }

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
    /// The collider height each of `models` was fitted to, for a model file named directly
    /// (`None`: a character file, loaded as the hero's).
    fits: Vec<Option<f32>>,
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
            // A model named directly (no character file) is fitted to the agent's collider.
            let fit = crate::anim::character::is_model_file(&path)
                .then(|| def.size.box_size().map(|(_, h)| h as f32))
                .flatten();
            let found = (cast.models.iter().zip(&cast.fits))
                .position(|((p, _, _), f)| *p == path && *f == fit);
            let model = match found {
                Some(m) => m,
                None => {
                    let fail = |why: String| CastError {
                        level: level_file.to_path_buf(),
                        index,
                        why,
                    };
                    let fit_height = fit.unwrap_or(crate::anim::measure::FIT_HEIGHT);
                    let c = crate::anim::character::load_character_fitted(&path, fit_height)
                        .map_err(|e| fail(e.to_string()))?;
                    let a = HeroAnimator::for_character(&c)
                        .map_err(|e| fail(format!("{}: {e}", path.display())))?;
                    for n in c.model.notes.iter().chain(&c.notes) {
                        log::warn!("{}: {n}", path.display());
                    }
                    cast.models.push((path, a, c.tint));
                    cast.fits.push(fit);
                    cast.models.len() - 1
                }
            };
            let pos = agent.mover.body.pos;
            cast.members.push(Some(Member {
                model,
                animator: cast.models[model].1.clone(),
                tint: cast.models[model].2,
                flash: 0,
                defeated_ticks: 0,
                prev: pos,
                now: pos,
            }));
        }
        Ok(cast)
    }

    /// After each tick of `world`: every member's animation takes its agent's state and events
    /// (a hit it survives plays `hurt`, a brute's charge `charge`, a defeated agent `death`), its
    /// drawn position moves on, and one the hero's attack or stomp hit this tick flashes.
    pub fn after_tick(&mut self, world: &World) {
        use crate::sim::PlayEvent;
        for (i, (m, agent)) in self.members.iter_mut().zip(world.agents()).enumerate() {
            let Some(m) = m else {
                continue;
            };
            let hit = world.play_events().iter().any(|e| {
                matches!(e, PlayEvent::EnemyHit { agent, .. } | PlayEvent::Stomped { agent, .. }
                    if *agent == i)
            });
            m.flash = if hit {
                HIT_FLASH_TICKS
            } else {
                m.flash.saturating_sub(1)
            };
            m.defeated_ticks = if agent.defeated {
                m.defeated_ticks.saturating_add(1)
            } else {
                0
            };
            m.prev = m.now;
            m.now = agent.mover.body.pos;
            let mut input = super::anim_input(world, &agent.mover);
            input.dead = agent.defeated;
            input.charging = agent.charging;
            input.cue = (hit && !agent.defeated).then_some(crate::anim::Cue::Hurt);
            m.animator.tick(&input, &agent.last.events, crate::sim::DT);
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
