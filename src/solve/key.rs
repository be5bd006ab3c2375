//! The solver's quantised state key: two states with the same key are taken as the same place
//! in the search (the later one found is dropped), so the search does not try again what it
//! already tried from a point a few centimetres away.
//!
//! The key holds the hero's position cell, its velocity bucket, its movement state's kind and
//! collider (standing or crouching), the jump's rise and air jumps, the move held (whether a
//! jump may be pressed), the poses of the movers near the hero (offset cells, angle buckets and
//! the direction each moves: time is part of the state where something moves near the hero;
//! coarser in the air, where a jump's arc is the same from any phase), the clocks, the doors,
//! the checkpoint, health,
//! and the agents (defeated, and the cells of those within 8 m of the hero). It is a 64-bit hash of those words (FNV-1a, the
//! same on every machine).
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use crate::collision::Aabb;
use crate::movement::MoveState;
use crate::sim::World;

use super::moves::Move;

/// Position cell side, m.
pub const CELL: f64 = 0.5;
/// Velocity bucket, m/s.
pub const VEL_BUCKET: f64 = 2.0;
/// A mover's offset cell, m.
const MOVER_CELL: f64 = 0.25;
/// A mover's angle bucket, rad.
const ANGLE_BUCKET: f64 = 0.05;
/// A mover's offset cell while the hero is in the air, m.
const AIR_MOVER_CELL: f64 = 1.0;
/// A mover's angle bucket while the hero is in the air, rad.
const AIR_ANGLE_BUCKET: f64 = 0.2;
/// An agent's cell, m.
const AGENT_CELL: f64 = 1.0;
/// How near the hero (m) an agent's cell counts.
const AGENT_NEAR: f64 = 8.0;
/// How near the hero (m, each way from its feet) a mover's box must come for its pose to count.
const MOVER_NEAR: f64 = 4.0;

fn bucket(v: f64, size: f64) -> u64 {
    (v / size).floor() as i64 as u64
}

fn fnv(words: &[u64]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The state's kind as a number (its data left out: an edge or a ladder is in the position).
fn state_kind(s: &MoveState) -> u64 {
    match s {
        MoveState::Supported { .. } => 1,
        MoveState::Riding { .. } => 2,
        MoveState::Airborne => 3,
        MoveState::WallSlide { normal_x } => 4 + (*normal_x > 0.0) as u64,
        MoveState::Climbing { .. } => 6,
        MoveState::TopDown => 7,
    }
}

/// The quantised key of `world`'s state with `held` the move held last (see the module docs);
/// `words` is a buffer reused between calls.
pub fn state_key(world: &World, held: Move, words: &mut Vec<u64>) -> u64 {
    words.clear();
    let h = world.hero();
    words.extend([
        bucket(h.body.pos.x, CELL),
        bucket(h.body.pos.y, CELL),
        bucket(h.vel.x, VEL_BUCKET),
        bucket(h.vel.y, VEL_BUCKET),
        state_kind(&h.state),
        h.collider.0 as u64,
        h.jump_rising as u64,
        h.air_jumps_left as u64,
        held.jump as u64 | (held.attack as u64) << 1,
    ]);
    let movers = world.movers();
    let reach = DVec2::splat(MOVER_NEAR);
    let region = Aabb {
        min: h.body.pos - reach,
        max: h.body.pos + reach,
    };
    // In the air a mover's pose counts coarsely: a jump's arc is the same from any of its
    // phases, and a fine pose would make each arc new at every tick it is tried.
    let (cell, angle) = if matches!(h.state, MoveState::Airborne | MoveState::WallSlide { .. }) {
        (AIR_MOVER_CELL, AIR_ANGLE_BUCKET)
    } else {
        (MOVER_CELL, ANGLE_BUCKET)
    };
    // Five words a near mover, in the sweep's order; then sorted by mover, so that the same
    // movers give the same words whatever order their boxes lie in.
    let first = words.len();
    for m in movers.reaching(h.collider.0 as usize, region) {
        let (o, p) = (movers.offset(m), movers.prev_offset(m));
        let pose = movers.pose(m);
        words.extend([
            m as u64,
            bucket(o.x, cell),
            bucket(o.y, cell),
            bucket(pose.angle, angle),
            ((o.x - p.x).signum() as i64 as u64) << 2 | ((o.y - p.y).signum() as i64 as u64),
        ]);
    }
    words[first..]
        .as_chunks_mut::<5>()
        .0
        .sort_unstable_by_key(|w| w[0]);
    for c in world.mover_clocks() {
        words.push(c.running() as u64);
    }
    for d in world.doors() {
        words.push(d.open as u64);
    }
    words.push(world.checkpoint().map_or(u64::MAX, |c| c as u64));
    let play = world.play();
    words.extend([play.health as u64, play.invulnerable.min(1) as u64]);
    for a in world.agents() {
        words.push(a.defeated as u64);
        // Only an agent near the hero is where it is in the key: one far off changes nothing
        // the next moves meet, and its walk would make every state new.
        let near = a.mover.body.pos.distance(h.body.pos) < AGENT_NEAR;
        if !a.defeated && near {
            words.push(bucket(a.mover.body.pos.x, AGENT_CELL));
            words.push(bucket(a.mover.body.pos.y, AGENT_CELL));
        }
    }
    fnv(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::Actions;
    use crate::movement::Tuning;

    /// A floor with a lift 3 m right of the spawn and one 40 m away, each moving up and down.
    fn world() -> World {
        let lift = |x: f64| {
            format!(
                "(pieces: [[({x}, 0.0), ({r}, 0.0), ({r}, 0.3), ({x}, 0.3)]], path: [(0.0, 0.0), \
                 (0.0, 2.0)], period: 2.0)",
                r = x + 2.0
            )
        };
        let text = format!(
            "(name: \"k\", polygons: [(points: [(-5.0, -1.0), (60.0, -1.0), (60.0, 0.0), \
             (-5.0, 0.0)])], movers: [{}, {}], spawn: (0.0, 0.0))",
            lift(3.0),
            lift(40.0)
        );
        let level = crate::level::parse_level(std::path::Path::new("k.ron"), &text).unwrap();
        World::new(&level, &Tuning::default()).unwrap()
    }

    /// The hero standing still: the key changes as the near lift moves, and a far lift's
    /// pose is not in it (a state is the same whatever the far lift's phase).
    #[test]
    fn only_the_movers_near_the_hero_are_in_the_key() {
        let mut w = world();
        let mut words = Vec::new();
        let mut keys = Vec::new();
        for _ in 0..480 {
            w.step(&Actions::default());
            keys.push(state_key(&w, Move::default(), &mut words));
        }
        keys.dedup();
        assert!(keys.len() > 12, "the near lift's phases: {}", keys.len());

        // The same with the far lift stopped at its start: the same keys.
        let mut level = w.level().clone();
        level.movers[1].path = vec![DVec2::ZERO];
        let mut still = World::new(&level, &Tuning::default()).unwrap();
        let mut again = Vec::new();
        for _ in 0..480 {
            still.step(&Actions::default());
            again.push(state_key(&still, Move::default(), &mut words));
        }
        again.dedup();
        assert_eq!(keys, again);
    }
}
