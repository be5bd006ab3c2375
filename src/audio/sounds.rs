//! The catalogue of sounds: which sounds exist, how many round-robin variations each has, and
//! their file names under `assets/sounds/`.
use crate::level::FootstepSound;

/// One sound (its variations are separate files, played in turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sound {
    /// A footstep on a surface of this set.
    Footstep(FootstepSound),
    /// A jump (ground, air or wall).
    Jump,
    /// A landing: a filtered thump, louder with the impact speed.
    Land,
    /// The head hit a ceiling.
    Bonk,
    /// A ladder rung: a short blip (also grabbing and leaving a ladder).
    Rung,
    /// Sliding down a wall: filtered noise, looped while the slide lasts.
    WallSlide,
    /// The music: a loop with a seamless loop point.
    Music,
    /// The hero is hurt (or dies): a falling, buzzing tone.
    Hurt,
    /// The hero swings its attack: a short airy sweep.
    Swing,
    /// The attack hits an enemy: a dull thwack.
    Hit,
    /// The hero stomps an enemy: a springy boing.
    Stomp,
    /// A checkpoint is reached: two rising notes.
    Checkpoint,
    /// The goal is reached: a rising arpeggio.
    Goal,
    /// A door slides open or shut: a low grinding rumble (shutting plays it lower).
    Door,
    /// A character is crushed by a mover or a closing door: a heavy crunch.
    Crush,
}

impl Sound {
    /// Every sound, in a fixed order (the index of a sound in this list is its slot in the bank).
    pub fn all() -> Vec<Sound> {
        let mut v: Vec<Sound> = FootstepSound::ALL
            .iter()
            .map(|&f| Sound::Footstep(f))
            .collect();
        v.extend([
            Sound::Jump,
            Sound::Land,
            Sound::Bonk,
            Sound::Rung,
            Sound::WallSlide,
            Sound::Music,
            Sound::Hurt,
            Sound::Swing,
            Sound::Hit,
            Sound::Stomp,
            Sound::Checkpoint,
            Sound::Goal,
            Sound::Door,
            Sound::Crush,
        ]);
        v
    }
    /// Its slot in [`Sound::all`].
    pub fn index(self) -> usize {
        match self {
            Sound::Footstep(f) => FootstepSound::ALL.iter().position(|&g| g == f).unwrap_or(0),
            Sound::Jump => 6,
            Sound::Land => 7,
            Sound::Bonk => 8,
            Sound::Rung => 9,
            Sound::WallSlide => 10,
            Sound::Music => 11,
            Sound::Hurt => 12,
            Sound::Swing => 13,
            Sound::Hit => 14,
            Sound::Stomp => 15,
            Sound::Checkpoint => 16,
            Sound::Goal => 17,
            Sound::Door => 18,
            Sound::Crush => 19,
        }
    }
    /// Number of round-robin variations (files).
    pub fn variations(self) -> usize {
        match self {
            Sound::Footstep(_) => 3,
            Sound::Land | Sound::Rung => 2,
            // One per track a level may choose (`Level::music`).
            Sound::Music => crate::level::document::MUSIC_TRACKS as usize,
            _ => 1,
        }
    }
    /// The file name stem (`footstep_stone`, `jump`, ...).
    pub fn stem(self) -> String {
        match self {
            Sound::Footstep(f) => format!("footstep_{}", f.name()),
            Sound::Jump => "jump".into(),
            Sound::Land => "land".into(),
            Sound::Bonk => "bonk".into(),
            Sound::Rung => "rung".into(),
            Sound::WallSlide => "wall_slide".into(),
            Sound::Music => "music".into(),
            Sound::Hurt => "hurt".into(),
            Sound::Swing => "swing".into(),
            Sound::Hit => "hit".into(),
            Sound::Stomp => "stomp".into(),
            Sound::Checkpoint => "checkpoint".into(),
            Sound::Goal => "goal".into(),
            Sound::Door => "door".into(),
            Sound::Crush => "crush".into(),
        }
    }
    /// The file name of variation `v` (0-based), relative to `assets/sounds/`.
    pub fn file_name(self, v: usize) -> String {
        format!("{}_{}.wav", self.stem(), v + 1)
    }
    /// Whether it loops (wall slide, music).
    pub fn looping(self) -> bool {
        matches!(self, Sound::WallSlide | Sound::Music)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_the_positions_in_the_list() {
        for (i, s) in Sound::all().into_iter().enumerate() {
            assert_eq!(s.index(), i, "{s:?}");
        }
    }
}
