//! Replays: scripts of per-tick actions, in RON, that drive the simulation instead of a device.
//!
//! A replay is a list of segments, each holding the same actions over a range of frames:
//!
//! ```ron
//! (
//!     frames: Some(240),
//!     segments: [
//!         (from: 0, to: 120, move: (1.0, 0.0), jump: false, crouch: false),
//!         (from: 60, to: 75, move: (1.0, 0.0), jump: true, crouch: false),
//!     ],
//! )
//! ```
//!
//! - `from` is the first frame, `to` the first frame after the segment (exclusive).
//! - Where segments overlap, the later one in the list wins; frames covered by none are idle.
//! - `move` defaults to `(0.0, 0.0)`, `jump` and `crouch` to `false`.
//! - `jump` is the button held; the press (`Actions::jump_pressed`) is derived: it is true on the
//!   first frame of each held run (jump held now and not on the frame before).
//! - `frames` is the length; `None` (the default): up to the end of the last segment.
//!
//! Recording ([`Replay::from_actions`]) compacts per-tick actions into segments. A press shorter
//! than a tick (pressed and released between two ticks) becomes a one-frame held jump. What a
//! segment list cannot express is a release and re-press between two ticks while the button stays
//! held at both: the press is lost in the recording (it takes two input events within 8 ms).
//!
//! # Must never depend on
//! Window, GPU, audio or input crates; devices are turned into [`Actions`] elsewhere.
use std::collections::BinaryHeap;
use std::path::{Path, PathBuf};

use glam::DVec2;
use serde::{Deserialize, Serialize};

use crate::level::file::{parse_ron, read_text, to_ron, write_atomic};
use crate::level::FileError;
use crate::movement::Actions;

/// An input script: what the player does on every frame.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Number of frames; `None`: up to the end of the last segment.
    #[serde(default)]
    pub frames: Option<u64>,
    /// Action segments; later ones override earlier ones where they overlap.
    pub segments: Vec<Segment>,
}

/// The same actions held over frames `from..to`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    /// First frame.
    pub from: u64,
    /// First frame after the segment (exclusive); greater than `from`.
    pub to: u64,
    /// Movement axis, x right and y up, each component in `[-1, 1]`.
    #[serde(rename = "move", default)]
    pub move_axis: DVec2,
    /// Jump button held.
    #[serde(default)]
    pub jump: bool,
    /// Crouch held.
    #[serde(default)]
    pub crouch: bool,
    /// Attack held: pressed on the segment's first frame unless it was already held on the frame
    /// before (as `jump`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attack: bool,
}

/// What is wrong with a parsed replay, naming the segment.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayProblem {
    /// A move component is outside `[-1, 1]` or not finite.
    #[error(
        "segment {index}: move ({}, {}) must have finite components between -1 and 1",
        crate::collision::readable(.x),
        crate::collision::readable(.y)
    )]
    Move {
        /// Index in `segments`.
        index: usize,
        /// As written.
        x: f64,
        /// As written.
        y: f64,
    },
    /// `from` is not less than `to`.
    #[error("segment {index}: from ({from}) must be less than to ({to})")]
    Range {
        /// Index in `segments`.
        index: usize,
        /// As written.
        from: u64,
        /// As written.
        to: u64,
    },
}

/// A replay file could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Reading, parsing or writing failed (unknown fields and actions are reported here, with line
    /// and column).
    #[error(transparent)]
    File(#[from] FileError),
    /// The file parsed but a segment is invalid.
    #[error("{}: {problem}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The first problem found.
        problem: ReplayProblem,
    },
}

/// What a segment holds, without its range.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Held {
    move_axis: DVec2,
    jump: bool,
    crouch: bool,
    attack: bool,
}

impl Segment {
    fn held(&self) -> Held {
        Held {
            move_axis: self.move_axis,
            jump: self.jump,
            crouch: self.crouch,
            attack: self.attack,
        }
    }
}

impl Held {
    /// The actions of a frame where this is held, after a frame where `before` was.
    fn actions(self, before: Held) -> Actions {
        Actions {
            move_axis: self.move_axis,
            jump: self.jump,
            jump_pressed: self.jump && !before.jump,
            crouch: self.crouch,
            attack_pressed: self.attack && !before.attack,
        }
    }
}

impl Replay {
    /// Checks every segment: `from < to`, move components finite and in `[-1, 1]`.
    pub fn validate(&self) -> Result<(), ReplayProblem> {
        for (index, s) in self.segments.iter().enumerate() {
            if s.from >= s.to {
                return Err(ReplayProblem::Range {
                    index,
                    from: s.from,
                    to: s.to,
                });
            }
            let ok = |v: f64| v.is_finite() && (-1.0..=1.0).contains(&v);
            if !(ok(s.move_axis.x) && ok(s.move_axis.y)) {
                return Err(ReplayProblem::Move {
                    index,
                    x: s.move_axis.x,
                    y: s.move_axis.y,
                });
            }
        }
        Ok(())
    }

    /// Number of frames: `frames` if set, else the end of the last segment.
    pub fn len(&self) -> u64 {
        self.frames
            .unwrap_or_else(|| self.segments.iter().map(|s| s.to).max().unwrap_or(0))
    }

    /// Whether the replay has no frames.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What is held on `frame`: the last segment covering it, or nothing.
    fn held(&self, frame: u64) -> Held {
        self.segments
            .iter()
            .rev()
            .find(|s| s.from <= frame && frame < s.to)
            .map(Segment::held)
            .unwrap_or_default()
    }

    /// The actions of one frame (idle past the end). O(segments); use [`Replay::iter`] to play a
    /// whole replay.
    pub fn actions(&self, frame: u64) -> Actions {
        let before = if frame > 0 {
            self.held(frame - 1)
        } else {
            Held::default()
        };
        self.held(frame).actions(before)
    }

    /// The actions of frames `0..len()` in order, in O(segments · log segments + frames).
    pub fn iter(&self) -> ReplayIter<'_> {
        ReplayIter {
            segments: &self.segments,
            runs: self.runs(),
            run: 0,
            frame: 0,
            len: self.len(),
            before: Held::default(),
        }
    }

    /// Splits `0..len()` into runs where one segment (the last in the list covering it) or none
    /// holds. A sweep over the segment boundaries with a max-heap of segment indices; segments
    /// that ended are dropped lazily when they reach the top.
    fn runs(&self) -> Vec<Run> {
        let len = self.len();
        let mut bounds: Vec<u64> = self
            .segments
            .iter()
            .flat_map(|s| [s.from, s.to])
            .chain([0, len])
            .filter(|&b| b <= len)
            .collect();
        bounds.sort_unstable();
        bounds.dedup();
        let mut by_start: Vec<usize> = (0..self.segments.len()).collect();
        by_start.sort_by_key(|&i| self.segments[i].from);
        let mut active = BinaryHeap::new();
        let mut next = 0;
        let mut runs = Vec::with_capacity(bounds.len());
        for w in bounds.windows(2) {
            let (start, end) = (w[0], w[1]);
            while next < by_start.len() && self.segments[by_start[next]].from <= start {
                active.push(by_start[next]);
                next += 1;
            }
            while active.peek().is_some_and(|&i| self.segments[i].to <= start) {
                active.pop();
            }
            runs.push(Run {
                end,
                segment: active.peek().copied(),
            });
        }
        runs
    }

    /// Compacts per-tick actions into a replay of the same length. Consecutive frames with
    /// bit-identical actions become one segment; idle frames get none. A jump pressed and released
    /// within one tick (`jump_pressed` without `jump`) is recorded as held for that frame; an attack
    /// press is recorded as `attack` held for its frame. Move
    /// axes are sanitized first (clamped to `[-1, 1]`, non-finite to 0), so the result validates.
    pub fn from_actions(actions: &[Actions]) -> Replay {
        type Key = (u64, u64, bool, bool, bool);
        let key = |a: &Actions| -> Key {
            let a = a.sanitized();
            (
                a.move_axis.x.to_bits(),
                a.move_axis.y.to_bits(),
                a.jump || a.jump_pressed,
                a.crouch,
                a.attack_pressed,
            )
        };
        let idle = key(&Actions::default());
        let mut segments = Vec::new();
        let mut start = 0;
        while start < actions.len() {
            let k = key(&actions[start]);
            let end = start + actions[start..].iter().take_while(|a| key(a) == k).count();
            if k != idle {
                segments.push(Segment {
                    from: start as u64,
                    to: end as u64,
                    move_axis: DVec2::new(f64::from_bits(k.0), f64::from_bits(k.1)),
                    jump: k.2,
                    crouch: k.3,
                    attack: k.4,
                });
            }
            start = end;
        }
        Replay {
            frames: Some(actions.len() as u64),
            segments,
        }
    }
}

/// A stretch of frames up to `end` (exclusive) held by one segment, or idle.
#[derive(Clone, Copy, Debug)]
struct Run {
    end: u64,
    segment: Option<usize>,
}

/// Iterator over a replay's per-frame actions; see [`Replay::iter`].
pub struct ReplayIter<'a> {
    segments: &'a [Segment],
    runs: Vec<Run>,
    run: usize,
    frame: u64,
    len: u64,
    /// What the previous frame held (presses are the rising edges).
    before: Held,
}

impl Iterator for ReplayIter<'_> {
    type Item = Actions;

    fn next(&mut self) -> Option<Actions> {
        if self.frame >= self.len {
            return None;
        }
        while self.runs[self.run].end <= self.frame {
            self.run += 1;
        }
        let held = self.runs[self.run]
            .segment
            .map(|i| self.segments[i].held())
            .unwrap_or_default();
        let actions = held.actions(self.before);
        self.before = held;
        self.frame += 1;
        Some(actions)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.len - self.frame).unwrap_or(usize::MAX);
        (left, usize::try_from(self.len - self.frame).ok())
    }
}

/// Nesting depth below which RON is written on one line: one segment per line.
const REPLAY_RON_DEPTH: usize = 2;

/// Reads, parses and validates a replay file. Every error names `path`.
pub fn load_replay(path: impl AsRef<Path>) -> Result<Replay, ReplayError> {
    let path = path.as_ref();
    parse_replay(path, &read_text(path)?)
}

/// Parses and validates replay text as if read from `path` (used in error messages only).
pub fn parse_replay(path: &Path, text: &str) -> Result<Replay, ReplayError> {
    let replay: Replay = parse_ron(path, text)?;
    replay.validate().map_err(|problem| ReplayError::Invalid {
        path: path.to_path_buf(),
        problem,
    })?;
    Ok(replay)
}

/// Validates `replay` and writes it to `path` as pretty RON (one segment per line), atomically:
/// on any error the previous file is left as it was.
pub fn save_replay(path: impl AsRef<Path>, replay: &Replay) -> Result<(), ReplayError> {
    let path = path.as_ref();
    replay.validate().map_err(|problem| ReplayError::Invalid {
        path: path.to_path_buf(),
        problem,
    })?;
    let text = to_ron(path, replay, REPLAY_RON_DEPTH)?;
    write_atomic(path, text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::level::file::tests::scratch_dir;

    fn seg(from: u64, to: u64, x: f64, jump: bool) -> Segment {
        Segment {
            from,
            to,
            move_axis: DVec2::new(x, 0.0),
            jump,
            crouch: false,
            attack: false,
        }
    }

    #[test]
    fn later_segments_override_and_gaps_are_idle() {
        let r = Replay {
            frames: None,
            segments: vec![seg(0, 10, 1.0, false), seg(4, 6, -1.0, false)],
        };
        assert_eq!(r.len(), 10);
        assert_eq!(r.actions(3).move_axis.x, 1.0);
        assert_eq!(r.actions(4).move_axis.x, -1.0);
        assert_eq!(r.actions(5).move_axis.x, -1.0);
        assert_eq!(r.actions(6).move_axis.x, 1.0);
        assert_eq!(r.actions(10), Actions::default());
        let r = Replay {
            frames: Some(20),
            segments: vec![seg(4, 6, -1.0, false), seg(0, 10, 1.0, false)],
        };
        assert_eq!(r.len(), 20);
        assert_eq!(r.actions(5).move_axis.x, 1.0);
        assert_eq!(r.iter().count(), 20);
    }

    #[test]
    fn jump_pressed_is_the_rising_edge() {
        let r = Replay {
            frames: None,
            segments: vec![
                seg(2, 5, 0.0, true),
                seg(5, 7, 0.5, true),
                seg(8, 9, 0.0, true),
            ],
        };
        let pressed: Vec<bool> = r.iter().map(|a| a.jump_pressed).collect();
        assert_eq!(
            pressed,
            [false, false, true, false, false, false, false, false, true]
        );
        assert!(r.actions(6).jump && !r.actions(6).jump_pressed);
    }

    #[test]
    fn validation_names_the_segment() {
        let mut r = Replay {
            frames: None,
            segments: vec![seg(0, 10, 1.0, false), seg(10, 10, 0.0, false)],
        };
        assert_eq!(
            r.validate(),
            Err(ReplayProblem::Range {
                index: 1,
                from: 10,
                to: 10
            })
        );
        r.segments[1] = seg(10, 11, 1.5, false);
        let e = r.validate().unwrap_err();
        assert!(e.to_string().starts_with("segment 1: move (1.5, 0)"), "{e}");
        r.segments[1].move_axis.x = f64::NAN;
        assert!(matches!(
            r.validate(),
            Err(ReplayProblem::Move { index: 1, .. })
        ));
    }

    #[test]
    fn parse_reports_unknown_actions_with_position() {
        let text = "(segments: [\n  (from: 0, to: 5, dash: true),\n])";
        let e = parse_replay(Path::new("r.ron"), text).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("r.ron:2:"), "{msg}");
        assert!(msg.contains("dash"), "{msg}");
        let r = parse_replay(Path::new("r.ron"), "(segments: [(from: 0, to: 5)])").unwrap();
        assert_eq!(r.segments[0].move_axis, DVec2::ZERO);
    }

    #[test]
    fn short_press_is_recorded_as_a_one_frame_jump() {
        let mut frames = vec![Actions::default(); 6];
        frames[2].jump_pressed = true;
        let r = Replay::from_actions(&frames);
        assert_eq!(r.segments, vec![seg(2, 3, 0.0, true)]);
        assert_eq!(r.len(), 6);
        assert!(r.actions(2).jump_pressed);
    }

    #[test]
    fn save_and_load_round_trip_exactly() {
        let d = scratch_dir("replay");
        let path = d.join("r.ron");
        let r = Replay {
            frames: Some(50),
            segments: vec![
                seg(0, 10, std::f64::consts::FRAC_1_SQRT_2, false),
                seg(3, 4, -0.0, true),
                Segment {
                    from: 20,
                    to: 30,
                    move_axis: DVec2::new(-1.0 / 3.0, -1.0),
                    jump: false,
                    crouch: true,
                    attack: false,
                },
            ],
        };
        save_replay(&path, &r).unwrap();
        let back = load_replay(&path).unwrap();
        assert_eq!(back, r);
        assert!(back.segments[1].move_axis.x.is_sign_negative());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(
                "(from: 0, to: 10, move: (0.7071067811865476, 0.0), jump: false, crouch: false)"
            ),
            "{text}"
        );
        let mut bad = r.clone();
        bad.segments[0].to = 0;
        assert!(save_replay(&path, &bad).is_err());
        assert_eq!(load_replay(&path).unwrap(), r);
        std::fs::remove_dir_all(&d).unwrap();
    }

    fn arb_actions() -> impl Strategy<Value = Actions> {
        let axis = prop_oneof![Just(0.0), Just(1.0), Just(-1.0), Just(0.5), Just(-0.0)];
        (axis.clone(), axis, any::<bool>(), any::<bool>()).prop_map(|(x, y, jump, crouch)| {
            Actions {
                move_axis: DVec2::new(x, y),
                jump,
                jump_pressed: false,
                crouch,
                attack_pressed: false,
            }
        })
    }

    fn arb_segment() -> impl Strategy<Value = Segment> {
        (
            0u64..60,
            1u64..30,
            -1.0f64..=1.0,
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(from, n, x, jump, crouch)| Segment {
                from,
                to: from + n,
                move_axis: DVec2::new(x, 0.0),
                jump,
                crouch,
                attack: false,
            })
    }

    proptest! {
        /// The sweep in `iter` agrees with the obvious per-frame lookup in `actions`.
        #[test]
        fn iter_matches_actions(segments in prop::collection::vec(arb_segment(), 0..12),
                                frames in prop::option::of(0u64..120)) {
            let r = Replay { frames, segments };
            let all: Vec<Actions> = r.iter().collect();
            prop_assert_eq!(all.len() as u64, r.len());
            for (i, a) in all.iter().enumerate() {
                prop_assert_eq!(*a, r.actions(i as u64), "frame {}", i);
            }
        }

        /// Recording per-tick actions (with presses derived from the held button, as a device
        /// produces them) and playing the recording back gives the same actions, bit for bit.
        #[test]
        fn from_actions_round_trips(mut frames in prop::collection::vec(arb_actions(), 0..80)) {
            for i in 0..frames.len() {
                frames[i].jump_pressed = frames[i].jump && (i == 0 || !frames[i - 1].jump);
            }
            let r = Replay::from_actions(&frames);
            prop_assert!(r.validate().is_ok());
            let back: Vec<Actions> = r.iter().collect();
            prop_assert_eq!(back.len(), frames.len());
            for (a, b) in back.iter().zip(&frames) {
                prop_assert_eq!(a, b);
                prop_assert_eq!(a.move_axis.x.to_bits(), b.move_axis.x.to_bits());
            }
        }
    }
}
