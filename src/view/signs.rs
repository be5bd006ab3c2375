//! Which of the level's signs are shown, and how strongly: a sign fades in while the hero's feet
//! are within [`SIGN_NEAR`] of its point and out when they leave, over [`SIGN_FADE_TICKS`]
//! ticks each way, and the text each one shows (its placeholders already replaced by the
//! player's keys: the app gives them, [`Signs::set_texts`], from the bindings and the device
//! used last).
//!
//! Front-end state only: the simulation never reads signs (`level::sign`).
//!
//! # Must never depend on
//! The input module, the renderer, or any window, GPU or audio crate: the texts arrive already
//! written, and the renderer reads [`Signs::shown`].
use glam::DVec2;

use crate::level::LevelSign;

/// How near the hero's feet must be to a sign's point for it to be shown, m: about a screen
/// quarter at 1280 × 720 (the camera shows some 22 m across), so a sign is read just before the
/// obstacle it teaches.
pub const SIGN_NEAR: f64 = 4.0;

/// Ticks a sign takes to fade in or out (0.2 s at 120 Hz): a short fade, not a pop.
pub const SIGN_FADE_TICKS: u32 = 24;

/// How strongly each sign of the level is shown, and its text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Signs {
    /// Per sign, 0 (hidden) to 1 (fully shown), in the level's order.
    opacity: Vec<f32>,
    /// Per sign, the text shown (placeholders replaced); see [`Signs::set_texts`].
    texts: Vec<String>,
}

impl Signs {
    /// After a tick in which the hero's feet ended at `feet`: each of `signs` fades a step in
    /// (within [`SIGN_NEAR`]) or out. A level whose list changed (the editor) starts the new
    /// signs hidden.
    pub fn after_tick(&mut self, signs: &[LevelSign], feet: DVec2) {
        self.opacity.resize(signs.len(), 0.0);
        let step = 1.0 / SIGN_FADE_TICKS as f32;
        for (o, s) in self.opacity.iter_mut().zip(signs) {
            let target = if s.at.distance(feet) <= SIGN_NEAR {
                1.0
            } else {
                0.0
            };
            *o = if target > *o {
                (*o + step).min(1.0)
            } else {
                (*o - step).max(0.0)
            };
        }
    }

    /// Sets the text each sign shows, in the level's order (the app: `input::names::sign_text`
    /// of each sign's text with the player's bindings).
    pub fn set_texts(&mut self, texts: Vec<String>) {
        self.texts = texts;
    }

    /// How strongly sign `i` is shown, 0 (hidden, or no such sign) to 1.
    pub fn opacity(&self, i: usize) -> f32 {
        self.opacity.get(i).copied().unwrap_or(0.0)
    }

    /// The texts set last.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// The shown signs of `signs` (the level's list): each with its point, its text and its
    /// opacity (above 0). A sign with no text set shows its text as written.
    pub fn shown<'a>(
        &'a self,
        signs: &'a [LevelSign],
    ) -> impl Iterator<Item = (DVec2, &'a str, f32)> + 'a {
        signs
            .iter()
            .zip(&self.opacity)
            .enumerate()
            .filter(|(_, (_, o))| **o > 0.0)
            .map(|(i, (s, o))| {
                let text = self.texts.get(i).map_or(s.text.as_str(), |t| t.as_str());
                (s.at, text, *o)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(x: f64) -> LevelSign {
        LevelSign {
            at: DVec2::new(x, 0.0),
            text: "{jump} jumps".into(),
        }
    }

    #[test]
    fn a_sign_fades_in_near_the_hero_and_out_away_from_it() {
        let signs = [sign(0.0), sign(20.0)];
        let mut s = Signs::default();
        let at = |s: &Signs| {
            s.shown(&signs)
                .map(|(p, _, o)| (p.x, o))
                .collect::<Vec<_>>()
        };
        assert!(at(&s).is_empty());
        s.after_tick(&signs, DVec2::new(SIGN_NEAR - 0.1, 0.0));
        assert_eq!(at(&s), [(0.0, 1.0 / SIGN_FADE_TICKS as f32)]);
        for _ in 1..SIGN_FADE_TICKS {
            s.after_tick(&signs, DVec2::new(1.0, 0.0));
        }
        assert_eq!(at(&s), [(0.0, 1.0)]);
        s.after_tick(&signs, DVec2::new(10.0, 0.0));
        assert!(at(&s)[0].1 < 1.0);
        for _ in 1..SIGN_FADE_TICKS {
            s.after_tick(&signs, DVec2::new(10.0, 0.0));
        }
        assert!(at(&s).is_empty());
    }

    #[test]
    fn a_sign_shows_the_text_given_else_its_own() {
        let signs = [sign(0.0)];
        let mut s = Signs::default();
        s.after_tick(&signs, DVec2::ZERO);
        assert_eq!(s.shown(&signs).next().unwrap().1, "{jump} jumps");
        s.set_texts(vec!["Space jumps".into()]);
        assert_eq!(s.shown(&signs).next().unwrap().1, "Space jumps");
    }
}
