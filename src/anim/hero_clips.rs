//! The clips the hero's controller plays, found by name in a loaded model.
use super::error::AnimError;
use super::model::Model;

/// A clip the hero's controller plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeroClip {
    /// Standing still (loop).
    Idle,
    /// Running (loop; rate follows the ground speed).
    Run,
    /// Walking (loop; blended with the run by speed).
    Walk,
    /// Crouch-walking (loop).
    CrouchWalk,
    /// The jump's take-off (once).
    JumpTakeoff,
    /// Rising after a jump (once, held at its end).
    Rise,
    /// Falling (once, held at its end).
    Fall,
    /// Landing (once; its strength scales with the impact speed).
    Land,
    /// Crouching still (loop).
    CrouchIdle,
    /// Sliding down a wall (loop).
    WallSlide,
    /// Climbing a ladder (loop; rate follows the climbing speed).
    Climb,
    /// Pushing against a wall (loop).
    Push,
}

impl HeroClip {
    /// Every clip the controller needs.
    pub const ALL: [HeroClip; 12] = [
        HeroClip::Idle,
        HeroClip::Run,
        HeroClip::Walk,
        HeroClip::CrouchWalk,
        HeroClip::JumpTakeoff,
        HeroClip::Rise,
        HeroClip::Fall,
        HeroClip::Land,
        HeroClip::CrouchIdle,
        HeroClip::WallSlide,
        HeroClip::Climb,
        HeroClip::Push,
    ];

    /// The clip's name in the model file.
    pub fn name(self) -> &'static str {
        match self {
            HeroClip::Idle => "idle",
            HeroClip::Run => "run",
            HeroClip::Walk => "walk",
            HeroClip::CrouchWalk => "crouch_walk",
            HeroClip::JumpTakeoff => "jump_takeoff",
            HeroClip::Rise => "rise",
            HeroClip::Fall => "fall",
            HeroClip::Land => "land",
            HeroClip::CrouchIdle => "crouch_idle",
            HeroClip::WallSlide => "wall_slide",
            HeroClip::Climb => "climb",
            HeroClip::Push => "push",
        }
    }

    /// Whether the clip loops (the others play once and hold their last key).
    pub fn looping(self) -> bool {
        !matches!(
            self,
            HeroClip::JumpTakeoff | HeroClip::Rise | HeroClip::Fall | HeroClip::Land
        )
    }
}

/// The model's clip index for each [`HeroClip`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeroClips {
    index: [usize; 12],
}

impl HeroClips {
    /// Finds every clip the controller needs, or names the first one missing.
    pub fn find(model: &Model) -> Result<HeroClips, AnimError> {
        let mut index = [0; 12];
        for (slot, c) in index.iter_mut().zip(HeroClip::ALL) {
            *slot = model
                .clip(c.name())
                .ok_or(AnimError::MissingClip(c.name()))?;
        }
        Ok(HeroClips { index })
    }

    /// The model's index of `clip`.
    pub fn get(&self, clip: HeroClip) -> usize {
        self.index[clip as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::hero_model::CLIP_NAMES;

    #[test]
    fn the_controller_needs_exactly_the_generated_clips() {
        let mut names: Vec<&str> = HeroClip::ALL.iter().map(|c| c.name()).collect();
        let mut file = CLIP_NAMES.to_vec();
        names.sort_unstable();
        file.sort_unstable();
        assert_eq!(names, file);
        for (i, c) in HeroClip::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
    }
}
