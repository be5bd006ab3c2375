//! Moving platforms in the world: where each is at every tick, and the first two phases of a tick
//! with movers (Celeste's order): carrying the riders, then pushing what the movers overlap.
//!
//! # What it owns
//! - The path of a mover ([`Path`], [`pose_at`]): its offset and its angle (a spin, a swing; or
//!   its track's, `sim::track`), a pure function of the time on the mover's clock
//!   (`sim::clock`), never integrated, so the same clock gives the same pose whatever came before
//!   (replays, traces and level swaps agree).
//! - [`carry`]: a rider (a character in `MoveState::Riding`) goes to the mover's new pose times
//!   its stored point in the mover's frame, through the static walk and the other movers: a wall
//!   or another mover in the way scrapes it off (it falls, keeping the mover's velocity).
//!   On a turning mover the stored point turns with the piece and is re-seated on the piece's new
//!   inflation (`collision::Movers::reseat`); past the walkable angle the rider is thrown off.
//! - [`push`]: a character now strictly inside a mover piece is moved along the mover's motion
//!   to the piece's boundary, through the static walk. Pushed up onto a walkable top, it rides;
//!   pushed along the ground, it stays on it; else it flies with the mover's velocity. Blocked
//!   (the static geometry or another mover leaves no room), it is crushed, and the squish rule
//!   runs: the crouching collider if that fits where it is, else the nearest room within
//!   [`CRUSH_WIGGLE`](super::world::CRUSH_WIGGLE), else a `Crushed` event and the nearest free
//!   place there is.
//!
//! - [`lift`] (in [`push`]): a one-way mover rising into a character that stood or fell above its
//!   top lifts it onto the top; one-way movers never push or crush otherwise.
//!
//! The third phase, the characters' own steps, is the movement code's: each move is clipped at
//! the first mover piece it would enter (the movers do not move during it).
//!
//! Neither phase writes a character's state, velocity or body itself: they move it through the
//! character's walk (`Hero::move_exactly_to`) and propose the rest as changes that `Hero::apply`
//! makes (the one writer, `movement::character`): [`carry`] returns the rider's transition for
//! the world to apply; [`push`] applies each push's landing (`movement::rules::board` onto a
//! mover's top, the same rule as a fall onto it) before it looks again.
//!
//! # The take-off tick
//! A rider leaves its mover in its own step (a jump, a drop-through), after the carry has
//! already moved it with the mover for the whole tick. The air step that the take-off starts in
//! the same tick therefore flies the tick's velocity less what the carry moved
//! (`Hero::carried`, recorded by [`carry`]): the take-off tick's whole displacement, from the
//! feet before the carry to the feet after the step, is the velocity the tick reports (the
//! inherited one with the jump's, after the tick's gravity and air control) times the tick,
//! whatever the carry did (a turn's re-seat, a momentum grace after the mover stopped or
//! reversed, a momentum cap), unless something stops the flight. The same holds for a rider the
//! carry itself leaves in the air (a wall in the way scrapes it off part-way): its air step
//! flies the tick less the part of the carry it made. Walking off a mover's end is no take-off
//! of this kind: that tick is ridden up to the end, then the air starts on the next.
//!
//! # Riders from the first tick
//! A character placed on a mover's walkable top (a spawn, an agent's spawn, a respawn at a
//! checkpoint or the spawn, a return to safe ground, a play-test's start, at the mover's pose on
//! that tick) starts riding it (`movement::hero`, `Hero::placed`): seated on the top as the carry
//! seats a rider, at rest relative to the mover, so the next tick's carry moves it with the
//! mover from the start, and it never lands, slides or drifts in the mover's frame.
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use super::world::CRUSH_WIGGLE;
use crate::collision::{orient, Location, MoverEdge, Pose, ONE_WAY_MIN_NORMAL_Y};
use crate::level::{Level, LevelMover, MoverEase, MoverMode};
use crate::movement::character::Change;
use crate::movement::rules::{mover_velocity, Transition};
use crate::movement::{Env, Hero, MoveState, StepReport, Tuning};

/// A mover's path made ready for posing every tick: its legs with their lengths (computed once),
/// how it repeats and eases; or, for a mover with a track, the track's timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// The track's timeline, which poses the mover when it has one (the shorthand's fields
    /// below are then unused).
    track: Option<super::track::TrackPath>,
    /// `(from, to, length)` of each leg, in order.
    legs: Vec<(DVec2, DVec2, f64)>,
    /// The turn: spin (rad/s) and swing (rad) (see [`Path::pose_at`]).
    spin: f64,
    swing: f64,
    total: f64,
    period: f64,
    mode: MoverMode,
    ease: MoverEase,
}

impl Path {
    /// The path of `m`.
    pub fn new(m: &LevelMover) -> Path {
        let pts = &m.path;
        let closed = m.mode == MoverMode::Loop;
        let count = if closed {
            pts.len()
        } else {
            pts.len().saturating_sub(1)
        };
        let legs: Vec<(DVec2, DVec2, f64)> = (0..count)
            .map(|i| {
                let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
                (a, b, a.distance(b))
            })
            .collect();
        Path {
            track: m.track.as_ref().map(super::track::TrackPath::new),
            spin: m.spin,
            swing: m.swing,
            total: legs.iter().map(|l| l.2).sum(),
            legs,
            period: m.period,
            mode: m.mode,
            ease: m.ease,
        }
    }

    /// The pose at `time` seconds: the offset, and the angle `spin · t + swing · sin(2π t /
    /// period)` (radians, counter-clockwise, about the mover's pivot), with `libm`'s sine: the
    /// same bits on every platform, so the Linux and Windows traces agree.
    pub fn pose_at(&self, time: f64) -> Pose {
        if let Some(t) = &self.track {
            return t.pose_at(time);
        }
        let mut angle = self.spin * time;
        if self.swing != 0.0 {
            angle += self.swing * libm::sin(std::f64::consts::TAU * time / self.period);
        }
        Pose {
            offset: self.offset_at(time),
            angle,
        }
    }

    /// The first tick of its clock at which a `once` track has ended (its pose the last key's
    /// from then on); `None` for a path or a track that repeats.
    pub fn end_tick(&self) -> Option<u64> {
        let end = self.track.as_ref()?.end()?;
        Some((end * super::TICK_HZ as f64).ceil() as u64)
    }

    /// Whether its clock, going from `from` to `to` ticks (one tick), arrives at its track's
    /// key `k` ([`super::track::TrackPath::reaches`]); never for the shorthand's path.
    pub fn reaches_key(&self, k: usize, from: u64, to: u64) -> bool {
        let hz = super::TICK_HZ as f64;
        from.abs_diff(to) == 1
            && self
                .track
                .as_ref()
                .is_some_and(|t| t.reaches(k, from as f64 / hz, to as f64 / hz))
    }

    /// The time (s) the mover first reaches node `k` of its path (`k` from 0 to the number of
    /// nodes − 1; easing stops at the nodes, so it reaches them at their share of the path's
    /// length, eased or not); 0 for a path of no length.
    pub fn node_time(&self, k: usize) -> f64 {
        if let Some(t) = &self.track {
            return t.key_time(k);
        }
        if self.total == 0.0 {
            return 0.0;
        }
        let before: f64 = self.legs.iter().take(k).map(|l| l.2).sum();
        self.period * before / self.total
    }

    /// The offset from the rest pose at `time` seconds (see the module docs).
    pub fn offset_at(&self, time: f64) -> DVec2 {
        if let Some(t) = &self.track {
            return t.pose_at(time).offset;
        }
        let Some(&(first, _, _)) = self.legs.first() else {
            return DVec2::ZERO;
        };
        if self.total == 0.0 {
            return first;
        }
        let u = match self.mode {
            MoverMode::PingPong => {
                let c = wrap(time / self.period, 2.0);
                if c <= 1.0 {
                    c
                } else {
                    2.0 - c
                }
            }
            MoverMode::Loop => wrap(time / self.period, 1.0),
        };
        let mut s = u * self.total;
        let last = self.legs.len() - 1;
        for (i, &(a, b, len)) in self.legs.iter().enumerate() {
            if s <= len || i == last {
                let mut f = if len > 0.0 {
                    (s / len).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                if self.ease == MoverEase::Smooth {
                    f = f * f * (3.0 - 2.0 * f);
                }
                return a + (b - a) * f;
            }
            s -= len;
        }
        first
    }
}

/// `x.rem_euclid(m)` for `m` 1 or 2, without the software `fmod` (a tenth of a tick with 16
/// movers went there): for `x ≥ 0`, `x − m·⌊x/m⌋` is exact (`x/m` and `m·k` are exact for a
/// power of two, and the subtraction is exact by Sterbenz's lemma, as `m·k ≤ x < m·k + m ≤ 2·m·k`
/// when `k ≥ 1`), so it has the bits `rem_euclid` gives; other inputs take `rem_euclid`.
fn wrap(x: f64, m: f64) -> f64 {
    debug_assert!(m == 1.0 || m == 2.0);
    if (0.0..9.0e15).contains(&x) {
        x - m * (x / m).floor()
    } else {
        x.rem_euclid(m)
    }
}

/// The offset of mover `m` from its rest pose at `time` seconds ([`Path::offset_at`]).
pub fn offset_at(m: &LevelMover, time: f64) -> DVec2 {
    Path::new(m).offset_at(time)
}

/// The pose of mover `m` at `time` seconds ([`Path::pose_at`]).
pub fn pose_at(m: &LevelMover, time: f64) -> Pose {
    Path::new(m).pose_at(time)
}

/// Mover `m`'s pose as it first reaches each node of its path (the editor's ghosts): the node's
/// offset, and the angle at that time ([`Path::node_time`]); for a track, each key's pose.
pub fn node_poses(m: &LevelMover) -> Vec<Pose> {
    let path = Path::new(m);
    if let Some(t) = &path.track {
        return t.key_poses();
    }
    m.path
        .iter()
        .enumerate()
        .map(|(k, &offset)| Pose {
            offset,
            angle: path.pose_at(path.node_time(k)).angle,
        })
        .collect()
}

/// Every path's offset at tick `tick` (its time: `tick / TICK_HZ` seconds, one division, so the
/// same tick always gives the same bits).
pub fn offsets_at(paths: &[Path], tick: u64) -> impl Iterator<Item = DVec2> + '_ {
    let time = tick as f64 / super::TICK_HZ as f64;
    paths.iter().map(move |p| p.offset_at(time))
}

/// Every path's pose at tick `tick` (the time of [`offsets_at`]).
pub fn poses_at(paths: &[Path], tick: u64) -> impl Iterator<Item = Pose> + '_ {
    let time = tick as f64 / super::TICK_HZ as f64;
    paths.iter().map(move |p| p.pose_at(time))
}

/// Every path's pose at the time of its mover's clock (`clocks` in the movers' order).
pub fn poses_on<'a>(
    paths: &'a [Path],
    clocks: &'a [super::clock::MoverClock],
) -> impl Iterator<Item = Pose> + 'a {
    paths.iter().zip(clocks).map(|(p, c)| p.pose_at(c.time()))
}

/// Per mover, the point it turns about (`LevelMover::pivot_point`), or `None` for one that
/// neither spins nor swings.
pub fn mover_pivots(level: &Level) -> Vec<Option<DVec2>> {
    level
        .movers
        .iter()
        .map(|m| m.turns().then(|| m.pivot_point()))
        .collect()
}

/// Every mover's pieces, counter-clockwise (the level allows either orientation).
pub fn mover_pieces(level: &Level) -> Vec<Vec<Vec<DVec2>>> {
    level
        .movers
        .iter()
        .map(|m| {
            m.pieces
                .iter()
                .map(|p| crate::collision::normalized_ccw(p).into_owned())
                .collect()
        })
        .collect()
}

/// Phase 1: a rider goes where its mover now puts it (see the module docs); scraped off by a
/// wall or another mover, it falls with the mover's velocity. The body moves through the walk;
/// the new state and velocity are returned for the caller to apply ([`Hero::apply`]), `None`
/// when they stay. Nothing for a character not riding. How far the carry moved the character
/// (zero for one not riding) is recorded for its step (`Change::Carried`: the take-off tick).
pub(crate) fn carry(
    h: &mut Hero,
    env: &Env,
    dt: f64,
    scratch: &mut StepReport,
) -> Option<Transition> {
    let from = h.body.pos;
    let tr = carry_rider(h, env, dt, scratch);
    let moved = h.body.pos - from;
    if moved != h.carried {
        h.apply(Change::Carried(moved));
    }
    tr
}

/// [`carry`]'s move and transition.
fn carry_rider(h: &mut Hero, env: &Env, dt: f64, scratch: &mut StepReport) -> Option<Transition> {
    let MoveState::Riding { on, local, speed } = h.state else {
        return None;
    };
    let c = h.collider.0 as usize;
    let movers = env.movers;
    if movers.turns(on.mover) {
        return Some(carry_turning(h, env, dt, scratch));
    }
    let piece = movers.piece(on, c);
    let normal = piece.normal(on.edge as usize);
    let target = movers.nudge_out(on, c, local + movers.offset(on.mover), normal);
    if h.move_exactly_to(env, target, scratch) {
        return None;
    }
    let vel =
        piece.walk_dir(on.edge as usize) * speed + mover_velocity(env, on.mover, h.body.pos, dt);
    Some(Transition::to(MoveState::Airborne, vel))
}

/// [`carry`] on a turning mover: the stored point turned with the piece, re-seated on the
/// piece's new inflation (`Movers::reseat`: the nearest edge facing up, along its normal), and
/// the body moved there through the static walk. A seat on an edge now too steep to stand on,
/// or a wall in the way, leaves the character airborne with the mover's velocity at its feet
/// (a plank tilting past the walkable angle throws its rider off; the push then moves it out).
/// `h` must be riding.
fn carry_turning(h: &mut Hero, env: &Env, dt: f64, scratch: &mut StepReport) -> Transition {
    let MoveState::Riding { on, local, speed } = h.state else {
        unreachable!("carry_turning of a character not riding");
    };
    let c = h.collider.0 as usize;
    let movers = env.movers;
    let q = movers.turn_point(on.mover, local);
    let seat = movers.reseat(on.mover, on.piece, c, q);
    let fall = |h: &Hero, edge: u16| {
        let dir = movers
            .piece(MoverEdge { edge, ..on }, c)
            .walk_dir(edge as usize);
        let vel = dir * speed + mover_velocity(env, on.mover, h.body.pos, dt);
        Transition::to(MoveState::Airborne, vel)
    };
    let Some((edge, at)) = seat else {
        let vel = mover_velocity(env, on.mover, h.body.pos, dt);
        return Transition::to(MoveState::Airborne, vel);
    };
    let on = MoverEdge { edge, ..on };
    let normal = movers.piece(on, c).normal(edge as usize);
    if !crate::movement::rules::walkable(normal, h.walk_limit) {
        return fall(h, edge);
    }
    let target = movers.nudge_out(on, c, at + movers.offset(on.mover), normal);
    if !h.move_exactly_to(env, target, scratch) {
        return fall(h, edge);
    }
    let riding = MoveState::Riding {
        on,
        local: at,
        speed,
    };
    Transition::to(riding, h.vel)
}

/// What [`push`] did to a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// It was in no mover.
    No,
    /// It was moved out of a mover (or crouched, or wiggled free).
    Out,
    /// No room: moved to the nearest free place (the world reports `Crushed`).
    Crushed,
}

/// The rings a crushed character's new place is searched in, m: 5 cm apart out to 8 m (where
/// the static mesh's nearest free point is inside a mover too; a mover piece inflated by the
/// largest size class can be that wide).
const ESCAPE_STEP: f64 = 0.05;
/// See [`ESCAPE_STEP`].
const ESCAPE_RADIUS: f64 = 8.0;

/// Most movers one character is pushed out of in one tick.
const MAX_PUSHES: usize = 4;

/// Phase 2: a character strictly inside a mover piece is pushed out along the mover's motion,
/// or crushed (see the module docs).
pub fn push(h: &mut Hero, env: &Env, t: &Tuning, dt: f64, scratch: &mut StepReport) -> Pushed {
    let mut pushed = if lift(h, env, dt, scratch) {
        Pushed::Out
    } else {
        Pushed::No
    };
    for _ in 0..MAX_PUSHES {
        let c = h.collider.0 as usize;
        let movers = env.movers;
        let skip = h.riding_piece();
        let Some((m, k)) = movers.inside(c, h.body.pos, skip) else {
            return pushed;
        };
        pushed = Pushed::Out;
        // The mover's motion where the character is (a turning mover's points move apart).
        let motion = movers.displacement(m, h.body.pos);
        let u = if motion == DVec2::ZERO {
            DVec2::Y
        } else {
            motion.normalize()
        };
        let piece = &movers.pieces(m, c)[k as usize];
        let exit = exit_along(piece, h.body.pos - movers.offset(m), u);
        let at = MoverEdge {
            mover: m,
            piece: k,
            edge: exit.1 as u16,
        };
        let target = movers.nudge_out(at, c, h.body.pos + u * exit.0, u);
        let from = h.body;
        if h.move_exactly_to(env, target, scratch) {
            let settled = settle(h, env, at, u, dt);
            h.apply(Change::To(settled));
            continue;
        }
        h.apply(Change::Move(from));
        return if squish(h, env, t, scratch) {
            Pushed::Out
        } else {
            Pushed::Crushed
        };
    }
    pushed
}

/// How far (`s ≥ 0`) the ray from `q` (the piece's frame) along the unit `u` goes before it
/// leaves `piece`, and through which edge: the first edge facing `u` it meets.
fn exit_along(piece: &crate::collision::InflatedConvex, q: DVec2, u: DVec2) -> (f64, usize) {
    let mut exit = (f64::INFINITY, 0usize);
    for i in 0..piece.verts.len() {
        let n = piece.normal(i);
        let rate = n.dot(u);
        if rate > 0.0 {
            let s = -n.dot(q - piece.verts[i]) / rate;
            if s < exit.0 {
                exit = (s.max(0.0), i);
            }
        }
    }
    exit
}

/// Phase 2 for one-way movers: a character strictly inside a one-way mover piece that rose this
/// tick, whose feet were on or above the line of the walkable top the piece rose through
/// (exactly: not strictly on the inner side of that edge at the mover's last pose; for a turning
/// mover, of the top straight above the feet in its inflation at its last angle), is lifted
/// straight up onto that top and rides it; so a platform rising under a character standing or
/// falling just above it never lets it through (Godot #9399). A character that was inside already
/// (jumping up through it), beside it, or with no room above (a ceiling) is left where it is: a
/// one-way mover never pushes or crushes. Returns whether it lifted.
fn lift(h: &mut Hero, env: &Env, dt: f64, scratch: &mut StepReport) -> bool {
    let c = h.collider.0 as usize;
    let movers = env.movers;
    let Some((m, k)) = movers.inside_one_way(c, h.body.pos) else {
        return false;
    };
    let piece = &movers.pieces(m, c)[k as usize];
    let before = h.body.pos - movers.prev_offset(m);
    // The edge straight up from the feet leaves the piece through.
    let exit = exit_along(piece, h.body.pos - movers.offset(m), DVec2::Y);
    if piece.normal(exit.1).y < ONE_WAY_MIN_NORMAL_Y {
        return false;
    }
    if movers.turns(m) {
        // A turning piece changes shape with its angle: the feet against the top straight
        // above them in the piece's inflation at its last pose (a swing's rising end lifts; a
        // falling end, or a top that turned into the feet from beside them, does not).
        let prev = &movers.prev_pieces(m, c)[k as usize];
        let (_, e) = exit_along(prev, before, DVec2::Y);
        let (a, b) = prev.edge(e);
        if prev.normal(e).y < ONE_WAY_MIN_NORMAL_Y || orient(a, b, before) > 0.0 {
            return false;
        }
    } else {
        let (a, b) = piece.edge(exit.1);
        if movers.offset(m).y <= movers.prev_offset(m).y || orient(a, b, before) > 0.0 {
            return false;
        }
    }
    let at = MoverEdge {
        mover: m,
        piece: k,
        edge: exit.1 as u16,
    };
    let target = movers.nudge_out(at, c, h.body.pos + DVec2::Y * exit.0, DVec2::Y);
    // The move changes the body only: where it fails, the body goes back.
    let from = h.body;
    if h.move_exactly_to(env, target, scratch) {
        let settled = settle(h, env, at, DVec2::Y, dt);
        h.apply(Change::To(settled));
        return true;
    }
    h.apply(Change::Move(from));
    false
}

/// The state after a push out through edge `at` along `u`: riding a walkable top it was pushed
/// up onto (landing on it: `rules::board`), on the static ground it was pushed along, else
/// airborne with the mover's velocity along `u` at least.
fn settle(h: &Hero, env: &Env, at: MoverEdge, u: DVec2, dt: f64) -> Transition {
    let movers = env.movers;
    let c = h.collider.0 as usize;
    let piece = movers.piece(at, c);
    let n = piece.normal(at.edge as usize);
    if u.y > 0.0 && crate::movement::rules::walkable(n, h.walk_limit) {
        return crate::movement::rules::board(h, env, at, h.vel, dt);
    }
    let carried = mover_velocity(env, at.mover, h.body.pos, dt);
    if let MoveState::Supported { .. } = h.state {
        if let Some(edge) = crate::movement::rules::walkable_support(
            env.mesh(h.collider),
            h.body,
            h.move_options(),
            h.walk_limit,
        ) {
            return Transition::to(MoveState::Supported { edge, speed: 0.0 }, DVec2::ZERO);
        }
    }
    let mut vel = h.vel;
    let along = vel.dot(u);
    let want = carried.dot(u);
    if along < want {
        vel += u * (want - along);
    }
    Transition::to(MoveState::Airborne, vel)
}

/// The squish rule for a character a push could not move out (see the module docs); `false`:
/// crushed, moved to the nearest free place.
fn squish(h: &mut Hero, env: &Env, t: &Tuning, scratch: &mut StepReport) -> bool {
    let free_at = |collider: crate::collision::ColliderId, p: DVec2| {
        matches!(env.mesh(collider).locate(p, None), Location::Free(_))
            && env.movers.inside(collider.0 as usize, p, None).is_none()
    };
    if let Some(crouch) = h.class.crouch.filter(|&c| c != h.collider) {
        if free_at(crouch, h.body.pos) && h.switch_collider(env, crouch) {
            h.apply(airborne(h));
            return true;
        }
    }
    // The wiggle: the nearest room within CRUSH_WIGGLE, in 1 cm rings of eight directions.
    let rings = (CRUSH_WIGGLE / 0.01).round() as usize;
    for ring in 1..=rings {
        let r = CRUSH_WIGGLE * ring as f64 / rings as f64;
        for k in 0..8 {
            let a = std::f64::consts::FRAC_PI_4 * k as f64;
            let p = h.body.pos + DVec2::new(a.cos(), a.sin()) * r;
            if !free_at(h.collider, p) {
                continue;
            }
            let from = h.body;
            if h.move_exactly_to(env, p, scratch) {
                h.apply(airborne(h));
                return true;
            }
            h.apply(Change::Move(from));
        }
    }
    // Crushed: the nearest free point of the static mesh for the standing collider; if a mover
    // is there too, the nearest point around it free of both, in rings of [`ESCAPE_STEP`] out to
    // [`ESCAPE_RADIUS`].
    if let Ok((moved, _)) = h.relocate(env, t) {
        h.apply(Change::Replace(Box::new(moved)));
    }
    h.apply(airborne(h));
    out_of_movers(h, env);
    false
}

/// A character at a free place of the static mesh that is strictly inside a mover (the static
/// mesh's nearest free point, where a crush or a closing door put it) is moved to the nearest
/// point around it free of both, in rings of [`ESCAPE_STEP`] out to [`ESCAPE_RADIUS`]; it keeps
/// its state (the callers put it in the air). Returns whether it moved.
pub(crate) fn out_of_movers(h: &mut Hero, env: &Env) -> bool {
    let free_at = |p: DVec2| {
        matches!(env.mesh(h.collider).locate(p, None), Location::Free(_))
            && env.movers.inside(h.collider.0 as usize, p, None).is_none()
    };
    if env.movers.is_empty() || free_at(h.body.pos) {
        return false;
    }
    let rings = (ESCAPE_RADIUS / ESCAPE_STEP).round() as usize;
    let around = (1..=rings).flat_map(|ring| {
        (0..16).map(move |k| {
            let a = std::f64::consts::PI / 8.0 * k as f64;
            DVec2::new(a.cos(), a.sin()) * (ESCAPE_STEP * ring as f64)
        })
    });
    let at = h.body.pos;
    if let Some(p) = around.map(|d| at + d).find(|&p| free_at(p)) {
        if let Location::Free(b) = env.mesh(h.collider).locate(p, Some(h.body.face)) {
            h.apply(Change::Move(b));
            return true;
        }
    }
    false
}

/// Into the air where it is, its velocity kept (out of a squeeze).
fn airborne(h: &Hero) -> Change {
    Change::To(Transition::to(MoveState::Airborne, h.vel))
}

#[cfg(test)]
mod tests {
    /// The path's wrap has the exact bits of `rem_euclid` (which calls the slow `fmod`), so the
    /// poses, the traces and the pinned replays are unchanged.
    #[test]
    fn wrap_has_the_bits_of_rem_euclid() {
        let mut x = 0.0f64;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let v = f64::from_bits(seed >> 12 | 0x3ff0_0000_0000_0000) - 1.0;
            x = (x + v * 3.7) % 1.0e6;
            for cand in [x, v, x * 1e3, x / 7.0, 2.0, 4.0, 1.0, 0.0, 1e15 + v] {
                for m in [1.0, 2.0] {
                    assert_eq!(
                        super::wrap(cand, m).to_bits(),
                        cand.rem_euclid(m).to_bits(),
                        "{cand} mod {m}"
                    );
                }
            }
        }
        assert_eq!(super::wrap(-0.25, 2.0), 1.75);
    }

    /// The mover reaches each node at its node time (eased or not), and the ghost poses there
    /// carry the turn of that time.
    #[test]
    fn a_mover_is_at_each_node_at_its_node_time() {
        use crate::level::{LevelMover, MoverEase, MoverMode};
        use glam::DVec2;
        // Legs of 3 m and 4 m (and 5 m back, looping) in 7 s.
        for (mode, ease, times) in [
            (MoverMode::PingPong, MoverEase::Smooth, [0.0, 3.0, 7.0]),
            (
                MoverMode::Loop,
                MoverEase::Linear,
                [0.0, 1.75, 7.0 * 7.0 / 12.0],
            ),
        ] {
            let m = LevelMover {
                pieces: vec![vec![
                    DVec2::new(0.0, 0.0),
                    DVec2::new(2.0, 0.0),
                    DVec2::new(2.0, 1.0),
                ]],
                path: vec![DVec2::ZERO, DVec2::new(3.0, 0.0), DVec2::new(3.0, 4.0)],
                period: 7.0,
                mode,
                ease,
                spin: 0.5,
                ..Default::default()
            };
            let path = super::Path::new(&m);
            let ghosts = super::node_poses(&m);
            for (k, &node) in m.path.iter().enumerate() {
                let t = path.node_time(k);
                assert!(
                    (path.offset_at(t) - node).length() < 1e-12,
                    "{mode:?} node {k}"
                );
                assert_eq!(ghosts[k].offset, node);
                assert!((ghosts[k].angle - 0.5 * t).abs() < 1e-12);
            }
            assert_eq!(
                [path.node_time(0), path.node_time(1), path.node_time(2)],
                times
            );
        }
    }
}
