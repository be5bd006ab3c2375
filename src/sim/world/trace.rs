//! What the world reports of itself for checks and tools: the per-tick trace line
//! ([`TraceFrame`], `tessera sim`'s output) and the hash of the complete simulation state
//! ([`World::state_hash`]) that the determinism tests pin.
//!
//! Must never depend on window, GPU, audio or input crates.
use serde::Serialize;

use super::World;
use crate::movement::{Hero, MoveState};
use crate::sim::play::PlayEvent;

/// One line of the per-frame trace: the state after that frame's input.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceFrame {
    /// Tick index, from 0.
    pub frame: u64,
    /// Feet position.
    pub pos: [f64; 2],
    /// Velocity, m/s (zero while dead: the hero is held where it died).
    pub vel: [f64; 2],
    /// Movement state name (`supported`, `airborne`, `wall_slide`, `climbing`, `top_down`), or
    /// `dead` while the hero waits for its respawn.
    pub state: &'static str,
    /// Whether the hero stands on ground (never while dead).
    pub grounded: bool,
    /// Face id on the mesh of the collider in use.
    pub face: u32,
    /// The collider in use, relative to `pos`, counter-clockwise.
    pub collider: Vec<[f64; 2]>,
    /// The level's agents after the tick, in the level's order (left out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentFrame>,
    /// Whether each of the level's doors is open (left out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<bool>,
    /// Each mover's offset from its rest pose after the tick (left out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub movers: Vec<[f64; 2]>,
    /// Each mover's angle about its pivot after the tick, radians (left out when none turns).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<f64>,
    /// Each mover's clock after the tick, ticks (left out when no mover has a track).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clocks: Vec<u64>,
    /// The signals that fired in the tick, as indices in the level's `signals` (empty, and
    /// left out, on a tick none fired and in a level without signals).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub signals: Vec<usize>,
    /// The hazards turned on or off in the tick, `(polygon, on)` (left out on a tick none
    /// changed, and in a level whose hazards never switch).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hazards: Vec<(usize, bool)>,
    /// The hero's health after the tick.
    pub health: u32,
    /// Deaths so far.
    pub deaths: u32,
    /// What the rules of play did in the tick (left out when nothing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<PlayEvent>,
}

/// One agent in a [`TraceFrame`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentFrame {
    /// Feet position.
    pub pos: [f64; 2],
    /// Velocity, m/s.
    pub vel: [f64; 2],
    /// Movement state name.
    pub state: &'static str,
    /// Facing: +1 right, -1 left.
    pub facing: f64,
}

/// The words of a character's state that every hash covers: position, face, velocity, collider,
/// ticks in its state, facing and the state's name (the hero adds its support and timers).
fn character_words(h: &Hero, words: &mut Vec<u64>) {
    words.extend([
        h.body.pos.x.to_bits(),
        h.body.pos.y.to_bits(),
        h.body.face.0 as u64,
        h.vel.x.to_bits(),
        h.vel.y.to_bits(),
        h.collider.0 as u64,
        h.ticks_in_state as u64,
        h.facing.to_bits(),
    ]);
    words.extend(h.state.name().bytes().map(u64::from));
    if let MoveState::Riding { on, local, speed } = h.state {
        words.extend([
            on.mover as u64,
            on.piece as u64,
            on.edge as u64,
            local.x.to_bits(),
            local.y.to_bits(),
            speed.to_bits(),
        ]);
    }
}

impl World {
    /// The trace line for the last tick.
    pub fn trace_frame(&self) -> TraceFrame {
        let h = &self.hero;
        let dead = self.play.is_dead();
        let mut frame = TraceFrame {
            frame: self.steps.saturating_sub(1),
            pos: h.body.pos.to_array(),
            vel: if dead { [0.0; 2] } else { h.vel.to_array() },
            state: if dead { "dead" } else { h.state.name() },
            grounded: !dead && h.grounded(),
            face: h.body.face.0,
            collider: self
                .collision
                .mesh(h.collider)
                .collider()
                .iter()
                .map(|p| p.to_array())
                .collect(),
            agents: self
                .agents
                .iter()
                .map(|a| AgentFrame {
                    pos: a.mover.body.pos.to_array(),
                    vel: a.mover.vel.to_array(),
                    state: a.mover.state.name(),
                    facing: a.mover.facing,
                })
                .collect(),
            doors: Vec::new(),
            movers: (0..self.movers.len() as u32)
                .map(|m| self.movers.offset(m).to_array())
                .collect(),
            turns: if (0..self.movers.len() as u32).any(|m| self.movers.turns(m)) {
                (0..self.movers.len() as u32)
                    .map(|m| self.movers.pose(m).angle)
                    .collect()
            } else {
                Vec::new()
            },
            clocks: if self.level().movers.iter().any(|m| m.track.is_some()) {
                self.clocks.iter().map(|c| c.ticks()).collect()
            } else {
                Vec::new()
            },
            signals: self
                .signals
                .fired()
                .iter()
                .enumerate()
                .filter(|(_, &f)| f)
                .map(|(i, _)| i)
                .collect(),
            hazards: Vec::new(),
            health: self.play.health,
            deaths: self.play.deaths,
            play: self.play_events.clone(),
        };
        self.objects.trace(&mut frame);
        frame
    }

    /// A hash of the complete simulation state (FNV-1a over the bits), for determinism checks.
    pub fn state_hash(&self) -> u64 {
        let h = &self.hero;
        let mut words: Vec<u64> = vec![self.steps];
        if self.mover_shift != 0 {
            // Only a play-test from a scrubbed time has one: earlier hashes stay as they were.
            words.push(self.mover_shift as u64);
        }
        character_words(h, &mut words);
        if let MoveState::Supported { edge, speed } = h.state {
            words.extend([edge.face.0 as u64, edge.edge as u64, speed.to_bits()]);
        }
        let t = &h.timers;
        words.extend(
            [
                t.coyote,
                t.jump_buffer,
                t.wall_coyote,
                t.wall_jump_lock,
                t.drop_through,
            ]
            .map(f64::to_bits),
        );
        // Agents after the hero (nothing when there are none: the hashes of levels without agents
        // are those pinned before agents existed).
        for a in &self.agents {
            character_words(&a.mover, &mut words);
        }
        // The registered object kinds (`sim::kinds`), in the list's order: the doors.
        self.objects.hash_words(&mut words);
        // A clock at the movers' shared time, running forwards (every clock, until something
        // stops or turns one) is the shared time's: the hashes from before each mover had its
        // own clock stay as they were; any other adds its words.
        let shared = super::MoverClock::at(self.mover_tick(self.steps));
        for m in 0..self.movers.len() as u32 {
            let o = self.movers.offset(m);
            words.extend([o.x.to_bits(), o.y.to_bits()]);
            if self.movers.turns(m) {
                // Only turning movers have an angle: other hashes stay as they were.
                words.push(self.movers.pose(m).angle.to_bits());
            }
            match self.clocks.get(m as usize) {
                Some(&c) if c != shared => words.extend(c.hash_words()),
                _ => {}
            }
        }
        // The signals (`sim::signals`): nothing in a level without them.
        self.signals.hash_words(&mut words);
        self.play.hash_words(&mut words, &self.objects);
        for a in &self.agents {
            words.extend([
                a.health as u64,
                a.defeated as u64,
                a.wait as u64,
                a.charging as u64,
            ]);
        }
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for w in words {
            for b in w.to_le_bytes() {
                hash ^= b as u64;
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    use crate::movement::{Actions, Tuning};
    use crate::sim::World;

    fn world() -> World {
        let level = crate::level::parse_level(
            std::path::Path::new("t.ron"),
            "(name: \"t\", polygons: [\
             (points: [(-4.0, -1.0), (4.0, -1.0), (4.0, 0.0), (-4.0, 0.0)])], spawn: (0.0, 0.0))",
        )
        .unwrap();
        World::new(&level, &Tuning::default()).unwrap()
    }

    /// Two worlds made alike hash alike; a tick changes the hash, and its trace line numbers
    /// that tick and shows where the hero went.
    #[test]
    fn the_hash_follows_the_state_and_the_trace_line_numbers_the_last_tick() {
        let (mut a, b) = (world(), world());
        assert_eq!(a.state_hash(), b.state_hash());
        let right = Actions {
            move_axis: glam::DVec2::new(1.0, 0.0),
            ..Actions::default()
        };
        a.step(&right);
        assert_ne!(a.state_hash(), b.state_hash());
        let line = a.trace_frame();
        assert_eq!(line.frame, 0);
        assert_eq!(line.state, "supported");
        assert!(line.grounded && line.pos[0] > 0.0 && line.vel[0] > 0.0);
        assert!(line.agents.is_empty() && line.doors.is_empty() && line.movers.is_empty());
        let mut c = world();
        c.step(&right);
        assert_eq!(a.state_hash(), c.state_hash());
    }

    /// Walking off the floor's end into the pit: every tick the hero is dead says `dead`, at rest
    /// and not grounded (not `supported` at its last speed), and the respawn's tick says what
    /// the hero is again.
    #[test]
    fn the_trace_says_dead_while_the_hero_is_dead() {
        let mut w = world();
        let right = Actions {
            move_axis: glam::DVec2::new(1.0, 0.0),
            ..Actions::default()
        };
        let mut dead_lines = 0;
        for _ in 0..1200 {
            w.step(&right);
            let line = w.trace_frame();
            if w.play().is_dead() {
                dead_lines += 1;
                assert_eq!(line.state, "dead");
                assert_eq!(line.vel, [0.0, 0.0]);
                assert!(!line.grounded);
            } else if dead_lines > 0 {
                assert_ne!(line.state, "dead");
                break;
            }
        }
        assert!(dead_lines > 10, "{dead_lines}");
    }
}
