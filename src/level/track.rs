//! A mover's track as the level file writes it: keys (an offset and an angle each, a hold at
//! each), the leg from each key to the next (a time or a speed, and an easing), and how it
//! repeats. Plain data: the simulation evaluates it (`sim::track`), and [`track_problem`] is its
//! one check, run by the level's validator for every mover that has a track.
//!
//! # The format
//! ```ron
//! track: (
//!     keys: [
//!         (offset: (0, 0), hold: 1.0, speed: 12.0),   // waits 1 s, rises at 12 m/s
//!         (offset: (0, 6), hold: 0.5, speed: 10.0),   // waits 0.5 s, comes back at 10 m/s
//!     ],
//!     repeat: loop,
//! )
//! ```
//! Key `i`'s `time` or `speed` and `ease` describe the leg from key `i` to key `i + 1`; the last
//! key's leg goes back to the first, and only `loop` uses it (`once` and `ping_pong` ignore it,
//! though it is still checked).
//!
//! # Must never depend on
//! The simulation, the editor, or any window, GPU or audio crate.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::fields::{choices, object_fields, Widget};
use super::validate::MAX_MOVER_SPIN;
use crate::collision::Num;

object_fields! {
/// A mover's motion as keys (see the module docs): where it is and how it is turned at each key,
/// how long it waits there, and how it goes on to the next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track {
    /// The keys, in order (at least two); the first is where it starts.
    pub keys: Vec<TrackKey> => ("keys", Widget::Custom),
    /// `once`, `ping_pong` (the default) or `loop`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub repeat: TrackRepeat => ("repeat", Widget::Choice),
    /// Seconds it waits at its first key before it first sets off, once (a hold at the first key
    /// waits there on every round). Default 0.
    #[serde(default, skip_serializing_if = "is_default")]
    pub delay: f64 => (
        "delay",
        Widget::Number {
            min: 0.0,
            max: MAX_TRACK_TIME,
            unit: "s",
            speed: 0.05,
        }
    ),
}
}

object_fields! {
/// One key of a [`Track`], and the leg from it to the next key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackKey {
    /// Offset from the mover's rest pose, m.
    pub offset: DVec2 => ("offset", Widget::Custom),
    /// Angle about the mover's pivot, radians, counter-clockwise. Default 0. A track with any
    /// nonzero angle turns (about `pivot`, as a spinning mover does).
    #[serde(default, skip_serializing_if = "is_default")]
    pub angle: f64 => (
        "angle",
        Widget::Number {
            min: -MAX_TRACK_ANGLE,
            max: MAX_TRACK_ANGLE,
            unit: "rad",
            speed: 0.005,
        }
    ),
    /// Seconds it waits at this key each time it gets there. Default 0. At either end of a
    /// `ping_pong` track it waits once per turn-around.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hold: f64 => (
        "hold",
        Widget::Number {
            min: 0.0,
            max: MAX_TRACK_TIME,
            unit: "s",
            speed: 0.05,
        }
    ),
    /// Seconds the leg to the next key takes. Give this or `speed`, not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64> => (
        "leg time",
        Widget::Optional {
            min: 0.05,
            max: MAX_TRACK_TIME,
            unit: "s",
            speed: 0.05,
            default: 1.0,
        }
    ),
    /// The leg's mean speed: m/s along the offset, or rad/s for a leg that only turns (the leg
    /// takes its length over this). Give this or `time`, not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64> => (
        "leg speed",
        Widget::Optional {
            min: 0.05,
            max: 1000.0,
            unit: "m/s",
            speed: 0.05,
            default: 2.0,
        }
    ),
    /// How the leg's speed varies: `linear` (the default: constant), `smooth` (eases out of this
    /// key and into the next), `in` (starts slow) or `out` (ends slow).
    #[serde(default, skip_serializing_if = "is_default")]
    pub ease: TrackEase => ("leg ease", Widget::Choice),
}
}

impl TrackKey {
    /// A key at `offset` and `angle` with no hold, a leg of `time` seconds, linear.
    pub fn timed(offset: DVec2, angle: f64, time: f64) -> TrackKey {
        TrackKey {
            offset,
            angle,
            hold: 0.0,
            time: Some(time),
            speed: None,
            ease: TrackEase::Linear,
        }
    }
}

/// How a track repeats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackRepeat {
    /// To the last key, then it stays there.
    Once,
    /// There and back again, for ever (the way back is the way there played backwards).
    #[default]
    PingPong,
    /// From the last key back to the first (the last key's leg), for ever.
    Loop,
}

/// How a leg's speed varies from its start (`f = 0`) to its end (`f = 1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackEase {
    /// Constant speed: `f`.
    #[default]
    Linear,
    /// Eases out of the start and into the end (smoothstep): `f² (3 − 2 f)`.
    Smooth,
    /// Starts at rest, ends at full speed: `f²`.
    In,
    /// Starts at full speed, ends at rest: `f (2 − f)`.
    Out,
}

impl TrackEase {
    /// Its fastest rate over the leg's mean rate: the largest slope of [`TrackEase::apply`].
    pub fn peak_rate(self) -> f64 {
        match self {
            TrackEase::Linear => 1.0,
            TrackEase::Smooth => 1.5,
            TrackEase::In | TrackEase::Out => 2.0,
        }
    }

    /// The eased fraction of the leg at `f` (from 0 to 1; 0 and 1 exactly at the ends).
    pub fn apply(self, f: f64) -> f64 {
        match self {
            TrackEase::Linear => f,
            TrackEase::Smooth => f * f * (3.0 - 2.0 * f),
            TrackEase::In => f * f,
            TrackEase::Out => f * (2.0 - f),
        }
    }
}

impl Track {
    /// Whether it turns: any key's angle is not 0.
    pub fn turns(&self) -> bool {
        self.keys.iter().any(|k| k.angle != 0.0)
    }

    /// The number of legs it runs: one fewer than the keys, or as many for `loop`.
    pub fn legs(&self) -> usize {
        match self.repeat {
            TrackRepeat::Loop => self.keys.len(),
            TrackRepeat::Once | TrackRepeat::PingPong => self.keys.len().saturating_sub(1),
        }
    }

    /// The keys leg `i` joins: `(i, i + 1)`, the last wrapping to the first.
    pub fn leg_ends(&self, i: usize) -> (&TrackKey, &TrackKey) {
        (&self.keys[i], &self.keys[(i + 1) % self.keys.len()])
    }

    /// Seconds leg `i` takes: its `time`, or its length over its `speed` (the offset's length,
    /// or for a leg that only turns its angle's), or 0 for a leg that gives neither (a track that
    /// does not validate).
    pub fn leg_time(&self, i: usize) -> f64 {
        let (a, b) = self.leg_ends(i);
        match (a.time, a.speed) {
            (Some(t), _) => t,
            (None, Some(v)) => {
                let length = a.offset.distance(b.offset);
                if length > 0.0 {
                    length / v
                } else {
                    (b.angle - a.angle).abs() / v
                }
            }
            (None, None) => 0.0,
        }
    }
}

/// The longest time (s) of one leg or one hold: a day, as for a mover's period.
pub const MAX_TRACK_TIME: f64 = 86_400.0;

/// The largest angle (rad) a key may give: a hundred turns either way.
pub const MAX_TRACK_ANGLE: f64 = 200.0 * std::f64::consts::PI;

/// Why `track` is unusable, or `None`: a delay from 0 to [`MAX_TRACK_TIME`]; at least two keys, each with a finite offset and angle
/// (within [`MAX_TRACK_ANGLE`]) and a hold from 0 to [`MAX_TRACK_TIME`]; each leg the track runs
/// with exactly one of a time or a speed, positive and finite, taking at most
/// [`MAX_TRACK_TIME`], turning no faster than a spinning mover may ([`MAX_MOVER_SPIN`], at the
/// ease's fastest); no leg of no length given by a speed. The message names the key or the
/// leg (leg `i` goes from key `i`). The offsets' range against the mover's size is the mover's
/// check.
pub fn track_problem(track: &Track) -> Option<String> {
    let n = track.keys.len();
    if !(track.delay.is_finite() && (0.0..=MAX_TRACK_TIME).contains(&track.delay)) {
        return Some(format!(
            "track delay {} must be a number of seconds from 0 to {MAX_TRACK_TIME}",
            Num(track.delay)
        ));
    }
    if n < 2 {
        return Some(format!(
            "track has {n} key{}, at least 2 needed",
            if n == 1 { "" } else { "s" }
        ));
    }
    for (i, k) in track.keys.iter().enumerate() {
        if !k.offset.is_finite() {
            return Some(format!(
                "track key {i}: offset ({}, {}) must be finite",
                Num(k.offset.x),
                Num(k.offset.y)
            ));
        }
        if !(k.angle.is_finite() && k.angle.abs() <= MAX_TRACK_ANGLE) {
            return Some(format!(
                "track key {i}: angle {} must be a number of radians within ±{}",
                Num(k.angle),
                Num(MAX_TRACK_ANGLE)
            ));
        }
        if !(k.hold.is_finite() && (0.0..=MAX_TRACK_TIME).contains(&k.hold)) {
            return Some(format!(
                "track key {i}: hold {} must be a number of seconds from 0 to {MAX_TRACK_TIME}",
                Num(k.hold)
            ));
        }
    }
    // Every key's leg is checked when given (the last one's too, which only `loop` runs); a leg
    // the track runs must be given.
    for i in 0..n {
        let k = &track.keys[i];
        let runs = i < track.legs();
        let what = match (k.time, k.speed) {
            (Some(_), Some(_)) => {
                return Some(format!(
                    "track leg {i} (key {i} to {}): give a time or a speed, not both",
                    (i + 1) % n
                ))
            }
            (None, None) if runs => {
                return Some(format!(
                    "track leg {i} (key {i} to {}): give a time (s) or a speed",
                    (i + 1) % n
                ))
            }
            (None, None) => continue,
            (Some(t), None) => ("time", t, "seconds"),
            (None, Some(v)) => ("speed", v, "m/s (rad/s for a leg that only turns)"),
        };
        if !(what.1.is_finite() && what.1 > 0.0) {
            return Some(format!(
                "track leg {i} (key {i} to {}): {} {} must be a positive number of {}",
                (i + 1) % n,
                what.0,
                Num(what.1),
                what.2
            ));
        }
        let (a, b) = track.leg_ends(i);
        if k.speed.is_some() && a.offset == b.offset && a.angle == b.angle {
            return Some(format!(
                "track leg {i} (key {i} to {}): a leg of no length cannot be given by a speed \
                 (give a time)",
                (i + 1) % n
            ));
        }
        let t = track.leg_time(i);
        if !(t.is_finite() && t <= MAX_TRACK_TIME) {
            return Some(format!(
                "track leg {i} (key {i} to {}): takes {} s, more than {MAX_TRACK_TIME}",
                (i + 1) % n,
                Num(t)
            ));
        }
        let turn = (b.angle - a.angle).abs() / t * k.ease.peak_rate();
        if turn > MAX_MOVER_SPIN {
            return Some(format!(
                "track leg {i} (key {i} to {}): turns at up to {} rad/s, more than \
                 {MAX_MOVER_SPIN} (a spinning mover's limit)",
                (i + 1) % n,
                Num(turn)
            ));
        }
    }
    None
}

// The enums as editor choices (their display names; the file's are snake_case).
choices! {
    TrackRepeat => [
        TrackRepeat::Once => "once",
        TrackRepeat::PingPong => "ping-pong",
        TrackRepeat::Loop => "loop",
    ];
    TrackEase => [
        TrackEase::Linear => "linear",
        TrackEase::Smooth => "smooth",
        TrackEase::In => "in",
        TrackEase::Out => "out",
    ];
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn lift() -> Track {
        Track {
            keys: vec![
                TrackKey {
                    hold: 1.0,
                    speed: Some(12.0),
                    time: None,
                    ..TrackKey::timed(p(0., 0.), 0.0, 0.0)
                },
                TrackKey {
                    hold: 0.5,
                    speed: Some(10.0),
                    time: None,
                    ..TrackKey::timed(p(0., 6.), 0.0, 0.0)
                },
            ],
            repeat: TrackRepeat::Loop,
            delay: 0.0,
        }
    }

    /// The module docs' example reads as the track it describes, and a track written back
    /// reads the same.
    #[test]
    fn the_format_reads_and_round_trips() {
        let text = "(keys: [(offset: (0, 0), hold: 1.0, speed: 12.0), \
                    (offset: (0, 6), hold: 0.5, speed: 10.0)], repeat: loop)";
        let t: Track = crate::level::parse_ron(std::path::Path::new("t.ron"), text).unwrap();
        assert_eq!(t, lift());
        assert_eq!((t.leg_time(0), t.leg_time(1)), (0.5, 0.6));
        let back: Track = ron::from_str(&ron::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
        let e = ron::from_str::<Track>("(keys: [], repeat: twice)").unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
    }

    /// The eases start at 0 and end at 1 exactly; `in` and `out` mirror each other.
    #[test]
    fn the_eases_end_exactly() {
        for e in [
            TrackEase::Linear,
            TrackEase::Smooth,
            TrackEase::In,
            TrackEase::Out,
        ] {
            assert_eq!((e.apply(0.0), e.apply(1.0)), (0.0, 1.0), "{e:?}");
        }
        assert_eq!(TrackEase::In.apply(0.25), 0.0625);
        assert_eq!(TrackEase::Out.apply(0.75), 1.0 - 0.0625);
        assert_eq!(TrackEase::Smooth.apply(0.5), 0.5);
    }

    /// Each problem names the key or the leg.
    #[test]
    fn bad_tracks_are_refused_naming_the_key_or_leg() {
        assert_eq!(track_problem(&lift()), None);
        let bad = |f: &dyn Fn(&mut Track)| {
            let mut t = lift();
            f(&mut t);
            track_problem(&t).expect("refused")
        };
        type Edit<'a> = &'a dyn Fn(&mut Track);
        let cases: [(Edit, &str); 11] = [
            (
                &|t| t.keys[1].angle = 6.0,
                "track leg 0 (key 0 to 1): turns at up to 12 rad/s",
            ),
            (&|t| t.delay = -1.0, "track delay -1 must be"),
            (&|t| t.keys.truncate(1), "track has 1 key, at least 2"),
            (
                &|t| t.keys[1].speed = None,
                "track leg 1 (key 1 to 0): give a time",
            ),
            (
                &|t| t.keys[0].time = Some(1.0),
                "track leg 0 (key 0 to 1): give a time or a speed, not both",
            ),
            (
                &|t| t.keys[0].speed = Some(0.0),
                "track leg 0 (key 0 to 1): speed 0 must be a positive",
            ),
            (
                &|t| t.keys[1].speed = Some(-1.0),
                "track leg 1 (key 1 to 0): speed -1 must be",
            ),
            (&|t| t.keys[1].hold = -0.5, "track key 1: hold -0.5 must be"),
            (
                &|t| t.keys[0].offset.x = f64::NAN,
                "track key 0: offset (NaN, 0) must be finite",
            ),
            (&|t| t.keys[1].angle = f64::INFINITY, "track key 1: angle"),
            (
                &|t| t.keys[1].offset = p(0., 0.),
                "track leg 0 (key 0 to 1): a leg of no length",
            ),
        ];
        for (f, want) in cases {
            let why = bad(f);
            assert!(why.starts_with(want), "{why}");
        }
        // `ping_pong` runs no leg from the last key: none needed there.
        let mut t = lift();
        t.repeat = TrackRepeat::PingPong;
        t.keys[1].speed = None;
        assert_eq!(track_problem(&t), None);
        // A leg that only turns, given by a speed, takes its angle over the speed.
        t.keys[0].speed = Some(3.0);
        t.keys[1] = TrackKey {
            angle: 1.5,
            ..t.keys[0].clone()
        };
        assert_eq!(track_problem(&t), None);
        assert_eq!(t.leg_time(0), 0.5);
    }
}
