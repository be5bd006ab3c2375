//! A mover's track made ready for posing (`level::track` is the file's data): its timeline of
//! holds and legs, and the pose at any time on the track's clock (`sim::clock`).
//!
//! # What it owns
//! - [`TrackPath`]: one cycle of the track laid out as segments (a hold at a key, a leg between
//!   two keys, forwards or, on the way back of a `ping_pong`, backwards), each with its start
//!   time, computed once when the level is built.
//! - [`TrackPath::pose_at`]: the offset and angle at a time, a pure function of that time (never
//!   integrated): `once` stays at the last key once its time is past; `loop` and `ping_pong` take
//!   the time modulo the cycle (`libm::fmod`, exact, so the same bits on every platform). In a
//!   hold, and once a `once` track has ended, the pose is the key's exactly; in a leg it is
//!   `a + (b − a) · ease(f)` (offset and angle alike) with `f` the fraction of the leg's time,
//!   so a key is reached to within an ulp or two of its coordinates. The way back of a
//!   `ping_pong` is the way there played backwards (`f` runs from 1 to 0: an `in` leg, slow out
//!   of its first key, comes back into it slowly). Holds at the ends of a `ping_pong` count once per
//!   turn-around, the other keys' holds on each pass.
//!
//! Long times: the time within the cycle is exact (`fmod`), so a track is posed as well after a
//! day of play as in its first cycle, up to the rounding of `tick / 120` itself.
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use crate::collision::Pose;
use crate::level::{Track, TrackEase, TrackRepeat};

/// One piece of a track's timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Segment {
    /// Waiting at key `k`.
    Hold(usize),
    /// Leg from key `from` to key `to` (`to` is the next key, or the first for a loop's last
    /// leg), `backward` on the way back of a `ping_pong`.
    Leg {
        from: usize,
        to: usize,
        ease: TrackEase,
        time: f64,
        backward: bool,
    },
}

/// A track laid out as its timeline (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct TrackPath {
    /// Each key's offset and angle.
    keys: Vec<(DVec2, f64)>,
    /// One cycle's segments in order, none of zero time.
    segments: Vec<Segment>,
    /// Each segment's start time in the cycle.
    starts: Vec<f64>,
    /// The cycle's length, s (for `once`: until the last key's hold ends).
    cycle: f64,
    repeat: TrackRepeat,
    /// The wait before the first cycle, s.
    delay: f64,
}

impl TrackPath {
    /// The timeline of `track` (which validates; a hold or leg of no time, or not a positive
    /// number, is left out).
    pub fn new(track: &Track) -> TrackPath {
        let n = track.keys.len();
        let mut segments = Vec::new();
        let hold = |segments: &mut Vec<Segment>, k: usize| {
            if track.keys[k].hold > 0.0 {
                segments.push(Segment::Hold(k));
            }
        };
        let leg = |segments: &mut Vec<Segment>, i: usize, backward: bool| {
            let time = track.leg_time(i);
            if time > 0.0 && time.is_finite() {
                segments.push(Segment::Leg {
                    from: i,
                    to: (i + 1) % n,
                    ease: track.keys[i].ease,
                    time,
                    backward,
                });
            }
        };
        if n > 0 {
            match track.repeat {
                TrackRepeat::Once | TrackRepeat::PingPong => {
                    for i in 0..n - 1 {
                        hold(&mut segments, i);
                        leg(&mut segments, i, false);
                    }
                    hold(&mut segments, n - 1);
                    if track.repeat == TrackRepeat::PingPong {
                        for i in (0..n - 1).rev() {
                            leg(&mut segments, i, true);
                            if i > 0 {
                                hold(&mut segments, i);
                            }
                        }
                    }
                }
                TrackRepeat::Loop => {
                    for i in 0..n {
                        hold(&mut segments, i);
                        leg(&mut segments, i, false);
                    }
                }
            }
        }
        let mut starts = Vec::with_capacity(segments.len());
        let mut cycle = 0.0;
        for s in &segments {
            starts.push(cycle);
            cycle += match *s {
                Segment::Hold(k) => track.keys[k].hold,
                Segment::Leg { time, .. } => time,
            };
        }
        TrackPath {
            keys: track.keys.iter().map(|k| (k.offset, k.angle)).collect(),
            segments,
            starts,
            cycle,
            repeat: track.repeat,
            delay: track.delay.max(0.0),
        }
    }

    /// The length of one cycle, s: for `ping_pong` there and back with every hold, for `loop`
    /// round once, for `once` to the end of the last key's hold.
    pub fn cycle(&self) -> f64 {
        self.cycle
    }

    /// When a `once` track ends, s on its clock (its delay and its cycle: from then on it stays
    /// at its last key); `None` for a track that repeats.
    pub fn end(&self) -> Option<f64> {
        (self.repeat == TrackRepeat::Once).then_some(self.delay + self.cycle)
    }

    /// The pose at `time` seconds on the track's clock (see the module docs): the first key's
    /// until the track's delay is over, then the cycle's from the delay on.
    pub fn pose_at(&self, time: f64) -> Pose {
        let key = |k: usize| {
            let (offset, angle) = self.keys[k];
            Pose { offset, angle }
        };
        if self.keys.is_empty() {
            return Pose {
                offset: DVec2::ZERO,
                angle: 0.0,
            };
        }
        // No subtraction while there is no delay: the time keeps its bits.
        let time = if self.delay > 0.0 {
            time - self.delay
        } else {
            time
        }
        .max(0.0);
        // Every segment takes a positive time: a track with any has a positive cycle.
        if self.segments.is_empty() {
            return key(0);
        }
        let t = match self.repeat {
            TrackRepeat::Once if time >= self.cycle => return key(self.keys.len() - 1),
            TrackRepeat::Once => time,
            TrackRepeat::PingPong | TrackRepeat::Loop => libm::fmod(time, self.cycle),
        };
        let i = self.starts.partition_point(|&s| s <= t).max(1) - 1;
        match self.segments[i] {
            Segment::Hold(k) => key(k),
            Segment::Leg {
                from,
                to,
                ease,
                time: length,
                backward,
            } => {
                let s = t - self.starts[i];
                let f = if backward {
                    (length - s) / length
                } else {
                    s / length
                };
                let e = ease.apply(f.clamp(0.0, 1.0));
                let ((a, aa), (b, ba)) = (self.keys[from], self.keys[to]);
                Pose {
                    offset: a + (b - a) * e,
                    angle: aa + (ba - aa) * e,
                }
            }
        }
    }

    /// The time (s) the track first reaches key `k` (0 for the first key; the end of the leg
    /// into it otherwise, after the delay), or the first cycle's end for a key it never reaches.
    pub fn key_time(&self, k: usize) -> f64 {
        if k == 0 {
            return 0.0;
        }
        self.delay + self.cycle_key_time(k)
    }

    /// [`TrackPath::key_time`] within the cycle.
    fn cycle_key_time(&self, k: usize) -> f64 {
        for (s, &start) in self.segments.iter().zip(&self.starts) {
            match *s {
                Segment::Hold(h) if h == k => return start,
                Segment::Leg {
                    to, time, backward, ..
                } if to == k && !backward => return start + time,
                _ => {}
            }
        }
        self.cycle
    }

    /// Whether the track's clock, going from `t0` to `t1` seconds (one tick, either way),
    /// arrives at key `k`: passes a time at which a leg into `k` ends or a hold at `k` begins
    /// (`t0 < x ≤ t1` forwards, `t1 ≤ x < t0` backwards; key 0 also at time 0, backwards). A
    /// `loop` arrives at its first key at the end of each cycle; a `ping_pong` at each key on
    /// the way there and on the way back.
    pub fn reaches(&self, k: usize, t0: f64, t1: f64) -> bool {
        if t0 == t1 || self.segments.is_empty() {
            return false;
        }
        let inside = |x: f64| {
            if t0 < t1 {
                t0 < x && x <= t1
            } else {
                t1 <= x && x < t0
            }
        };
        if k == 0 && inside(0.0) {
            return true;
        }
        let hi = t0.max(t1);
        let repeats = self.repeat != TrackRepeat::Once;
        self.arrivals(k).any(|a| {
            let x0 = self.delay + a;
            if !repeats || hi < x0 {
                return inside(x0);
            }
            let n = ((hi - x0) / self.cycle).floor();
            inside(x0 + n * self.cycle) || (n >= 1.0 && inside(x0 + (n - 1.0) * self.cycle))
        })
    }

    /// The times within the cycle (in `(0, cycle]`) at which the track arrives at key `k`.
    fn arrivals(&self, k: usize) -> impl Iterator<Item = f64> + '_ {
        let repeats = self.repeat != TrackRepeat::Once;
        self.segments
            .iter()
            .zip(&self.starts)
            .filter_map(move |(s, &start)| match *s {
                Segment::Hold(h) if h == k && start > 0.0 => Some(start),
                Segment::Hold(h) if h == k && repeats => Some(self.cycle),
                Segment::Leg {
                    from,
                    to,
                    time,
                    backward,
                    ..
                } if (if backward { from } else { to }) == k => Some(start + time),
                _ => None,
            })
    }

    /// Each key's pose (the editor's ghosts).
    pub fn key_poses(&self) -> Vec<Pose> {
        self.keys
            .iter()
            .map(|&(offset, angle)| Pose { offset, angle })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::TrackKey;

    #[test]
    fn a_key_is_reached_where_its_leg_ends_each_cycle() {
        let track = Track {
            keys: vec![
                TrackKey::timed(DVec2::ZERO, 0.0, 1.0),
                TrackKey {
                    hold: 0.5,
                    ..TrackKey::timed(DVec2::new(0.0, 2.0), 0.0, 2.0)
                },
            ],
            repeat: TrackRepeat::Loop,
            delay: 0.0,
        };
        let path = TrackPath::new(&track);
        let tick = |n: u64| n as f64 / 120.0;
        let hits = |k: usize| {
            (0..900u64)
                .filter(|&n| path.reaches(k, tick(n), tick(n + 1)))
                .map(|n| n + 1)
                .collect::<Vec<_>>()
        };
        // Key 1 at 1 s, then each 3.5 s cycle; key 0 at the cycle's end.
        assert_eq!(hits(1), [120, 540]);
        assert_eq!(hits(0), [420, 840]);
        // Backwards, key 0 at time 0 and key 1 where its leg ends.
        assert!(path.reaches(0, tick(1), 0.0));
        assert!(path.reaches(1, tick(121), tick(120)));
        assert!(!path.reaches(1, tick(119), tick(118)));
    }

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// A key; a leg time of 0 gives none (the last key's, which only `loop` runs).
    fn key(x: f64, y: f64, angle: f64, hold: f64, time: f64, ease: TrackEase) -> TrackKey {
        TrackKey {
            hold,
            ease,
            time: (time > 0.0).then_some(time),
            ..TrackKey::timed(p(x, y), angle, time)
        }
    }

    fn track(keys: Vec<TrackKey>, repeat: TrackRepeat) -> TrackPath {
        let t = Track {
            keys,
            repeat,
            delay: 0.0,
        };
        assert_eq!(crate::level::track_problem(&t), None);
        TrackPath::new(&t)
    }

    fn near(a: Pose, offset: DVec2, angle: f64, what: &str) {
        assert!(
            (a.offset - offset).length() < 1e-12 && (a.angle - angle).abs() < 1e-12,
            "{what}: {a:?}, want {offset} {angle}"
        );
    }

    /// Every easing at a quarter of a 4 s leg from (0, 0) to (8, 0) and a turn of 2 rad.
    #[test]
    fn every_easing_poses_its_fraction() {
        for (ease, at_quarter) in [
            (TrackEase::Linear, 0.25),
            (TrackEase::Smooth, 0.15625),
            (TrackEase::In, 0.0625),
            (TrackEase::Out, 0.4375),
        ] {
            let t = track(
                vec![
                    key(0., 0., 0., 0., 4.0, ease),
                    key(8., 0., 2., 0., 4.0, ease),
                ],
                TrackRepeat::Once,
            );
            near(
                t.pose_at(1.0),
                p(8. * at_quarter, 0.),
                2. * at_quarter,
                "quarter",
            );
            near(t.pose_at(0.0), p(0., 0.), 0., "start");
            assert_eq!(
                t.pose_at(4.0).offset,
                p(8., 0.),
                "{ease:?}: the end exactly"
            );
        }
    }

    /// `once` waits at its first key, runs, waits at the middle one and stays at the last for
    /// ever (its hold there changes nothing).
    #[test]
    fn once_holds_then_stays_at_the_end() {
        let t = track(
            vec![
                key(0., 0., 0., 1.0, 2.0, TrackEase::Linear),
                key(0., 4., 0., 0.5, 1.0, TrackEase::Linear),
                key(2., 4., 0., 3.0, 1.0, TrackEase::Linear),
            ],
            TrackRepeat::Once,
        );
        near(t.pose_at(0.5), p(0., 0.), 0., "first hold");
        near(t.pose_at(2.0), p(0., 2.), 0., "first leg");
        near(t.pose_at(3.2), p(0., 4.), 0., "middle hold");
        near(t.pose_at(4.0), p(1., 4.), 0., "second leg");
        for time in [4.5, 7.5, 100.0, 1.0e9] {
            assert_eq!(t.pose_at(time).offset, p(2., 4.), "{time}");
        }
        assert_eq!(
            [t.key_time(0), t.key_time(1), t.key_time(2)],
            [0.0, 3.0, 4.5]
        );
    }

    /// `ping_pong` with holds: the end holds once per turn-around, the middle's on each pass;
    /// the way back mirrors the way there (an `in` leg, slow out of key 0, comes back into it
    /// slowly).
    #[test]
    fn ping_pong_counts_end_holds_once_and_reverses() {
        let t = track(
            vec![
                key(0., 0., 0., 1.0, 2.0, TrackEase::In),
                key(4., 0., 0., 0.5, 2.0, TrackEase::Linear),
                key(4., 4., 0., 2.0, 0.0, TrackEase::Linear),
            ],
            TrackRepeat::PingPong,
        );
        // 1 + 2 + 0.5 + 2 + 2 (end) + 2 + 0.5 + 2 = 12.
        assert_eq!(t.cycle(), 12.0);
        near(t.pose_at(2.0), p(1., 0.), 0., "in, halfway: a quarter");
        near(t.pose_at(6.0), p(4., 4.), 0., "far end hold");
        near(t.pose_at(8.5), p(4., 2.), 0., "back down");
        near(t.pose_at(9.7), p(4., 0.), 0., "middle hold on the way back");
        near(
            t.pose_at(11.0),
            p(1., 0.),
            0.,
            "in, played backwards: slow into key 0",
        );
        near(t.pose_at(12.5), p(0., 0.), 0., "first hold again");
        // The way back is the way there backwards, over the moving part of the cycle.
        for k in 0..=100 {
            let s = 5.5 * k as f64 / 100.0;
            let there = t.pose_at(1.0 + s);
            let back = t.pose_at(12.0 - s);
            assert!((there.offset - back.offset).length() < 1e-12, "{s}");
        }
    }

    /// `loop` runs the last key's leg back to the first.
    #[test]
    fn loop_closes_the_track() {
        let t = track(
            vec![
                key(0., 0., 0., 0.0, 1.0, TrackEase::Linear),
                key(2., 0., 0., 0.0, 1.0, TrackEase::Linear),
                key(2., 2., 0., 1.0, 2.0, TrackEase::Linear),
            ],
            TrackRepeat::Loop,
        );
        assert_eq!(t.cycle(), 5.0);
        near(t.pose_at(2.5), p(2., 2.), 0., "hold at the last key");
        near(t.pose_at(4.0), p(1., 1.), 0., "closing leg");
        near(t.pose_at(5.5), p(1., 0.), 0., "round again");
    }

    /// A triangle wave: a plank rocks from -0.2 to 0.2 rad at a constant 0.4 rad/s, and again
    /// with a hold at each end.
    #[test]
    fn a_rocker_is_a_triangle_wave() {
        let rock = |hold: f64| {
            let mut a = key(0., 0., -0.2, hold, 0.0, TrackEase::Linear);
            let b = key(0., 0., 0.2, hold, 0.0, TrackEase::Linear);
            a.speed = Some(0.4);
            track(vec![a, b], TrackRepeat::PingPong)
        };
        let t = rock(0.0);
        assert_eq!(t.cycle(), 2.0);
        for (time, angle) in [
            (0.0, -0.2),
            (0.25, -0.1),
            (1.0, 0.2),
            (1.5, 0.0),
            (2.25, -0.1),
        ] {
            near(t.pose_at(time), DVec2::ZERO, angle, "rocker");
        }
        let t = rock(0.5);
        assert_eq!(t.cycle(), 3.0);
        for (time, angle) in [
            (0.25, -0.2),
            (1.0, 0.0),
            (1.75, 0.2),
            (2.5, 0.0),
            (3.2, -0.2),
        ] {
            near(t.pose_at(time), DVec2::ZERO, angle, "rocker with holds");
        }
    }

    /// After a long time (a year of ticks) the pose is that of the same place in the first
    /// cycle, to the rounding of the time itself.
    #[test]
    fn long_times_pose_as_the_first_cycle() {
        let t = track(
            vec![
                key(0., 0., 0., 0.25, 1.5, TrackEase::Smooth),
                key(3., 1., 0.5, 0.75, 1.5, TrackEase::Smooth),
            ],
            TrackRepeat::PingPong,
        );
        assert_eq!(t.cycle(), 4.0);
        let year = 365.0 * 86_400.0;
        for s in [0.1, 0.7, 1.1, 2.0, 2.9, 3.3] {
            let (a, b) = (t.pose_at(s), t.pose_at(year + s));
            assert!((a.offset - b.offset).length() < 1e-6, "{s}");
            assert!((a.angle - b.angle).abs() < 1e-6, "{s}");
        }
        // The cycle is a power of two here: the same bits exactly.
        assert_eq!(t.pose_at(year + 1.0), t.pose_at(1.0));
    }

    /// A delay holds the first key once; the cycle then runs from its start, holds and all.
    #[test]
    fn a_delay_waits_once() {
        let mut t = Track {
            keys: vec![
                key(0., 0., 0., 0.5, 1.0, TrackEase::Linear),
                key(2., 0., 0., 0.0, 0.0, TrackEase::Linear),
            ],
            repeat: TrackRepeat::PingPong,
            delay: 3.0,
        };
        assert_eq!(crate::level::track_problem(&t), None);
        let path = TrackPath::new(&t);
        assert_eq!(path.cycle(), 2.5);
        near(
            path.pose_at(3.4),
            p(0., 0.),
            0.,
            "the delay, then the first hold",
        );
        near(path.pose_at(4.0), p(1., 0.), 0., "first leg");
        near(path.pose_at(5.0), p(1., 0.), 0., "back");
        near(
            path.pose_at(5.75),
            p(0., 0.),
            0.,
            "the first hold again, not the delay",
        );
        near(path.pose_at(6.5), p(1., 0.), 0., "second round");
        assert_eq!(path.key_time(1), 4.5);
        t.delay = 0.0;
        assert_eq!(TrackPath::new(&t).pose_at(1.0), path.pose_at(4.0));
    }
}
