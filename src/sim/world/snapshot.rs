//! The world's dynamic state saved and put back ([`Snapshot`]): what a tick changes, never
//! what the world derives from its level (meshes, ladders, the movers' pieces, paths, the
//! level itself). A search over the simulation (`crate::solve`) saves a world once per node and
//! restores it for each action it tries; after [`World::restore`] the world steps exactly as
//! the saved one did (bit-identical state hash and trace).
//!
//! Held: the hero and the agents, the movers' poses and clocks, every registered kind's state
//! (doors, checkpoint, goal, the hazards' safe ground and on or off), the signals, the rules of
//! play, the last tick's events and report, the tick count and the movers' shift. Derived again on
//! restore: the doors' gates in the collision meshes (each kind's `remeshed`). A snapshot is
//! for the world it was taken from, with the same level and tuning: a level edit, swap or
//! tuning change in between makes it meaningless (restore checks the counts it can).
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use super::World;
use crate::collision::MoverPoses;
use crate::movement::{Hero, StepReport};
use crate::sim::agents::Agent;
use crate::sim::clock::MoverClock;
use crate::sim::kinds::Objects;
use crate::sim::play::{Play, PlayEvent};
use crate::sim::signals::Signals;
use crate::sim::WorldEvent;

/// A world's dynamic state at one tick ([`World::snapshot`], [`World::restore`]).
#[derive(Clone)]
pub struct Snapshot {
    hero: Hero,
    agents: Vec<Agent>,
    objects: Objects,
    poses: MoverPoses,
    clocks: Vec<MoverClock>,
    signals: Signals,
    events: Vec<WorldEvent>,
    play: Play,
    play_events: Vec<PlayEvent>,
    prev_pos: DVec2,
    steps: u64,
    mover_shift: i64,
    last: StepReport,
}

impl Snapshot {
    /// The tick count it was taken at ([`World::frame`]).
    pub fn frame(&self) -> u64 {
        self.steps
    }

    /// The hero as it was.
    pub fn hero(&self) -> &Hero {
        &self.hero
    }
}

impl World {
    /// The world's dynamic state now (see the module docs).
    pub fn snapshot(&self) -> Snapshot {
        let mut poses = MoverPoses::default();
        self.movers.save_poses(&mut poses);
        Snapshot {
            hero: self.hero.clone(),
            agents: self.agents.clone(),
            objects: self.objects.clone(),
            poses,
            clocks: self.clocks.clone(),
            signals: self.signals.clone(),
            events: self.events.clone(),
            play: self.play.clone(),
            play_events: self.play_events.clone(),
            prev_pos: self.prev_pos,
            steps: self.steps,
            mover_shift: self.mover_shift,
            last: self.last.clone(),
        }
    }

    /// The world's dynamic state now, into `into` (its buffers reused where the types allow).
    pub fn snapshot_into(&self, into: &mut Snapshot) {
        into.hero.clone_from(&self.hero);
        into.agents.clone_from(&self.agents);
        into.objects.clone_from(&self.objects);
        self.movers.save_poses(&mut into.poses);
        into.clocks.clone_from(&self.clocks);
        into.signals.clone_from(&self.signals);
        into.events.clone_from(&self.events);
        into.play.clone_from(&self.play);
        into.play_events.clone_from(&self.play_events);
        into.prev_pos = self.prev_pos;
        into.steps = self.steps;
        into.mover_shift = self.mover_shift;
        into.last.clone_from(&self.last);
    }

    /// Puts back the state `s` saved from this world ([`World::snapshot`]): the world then steps
    /// as it did from there. The doors' gates in the meshes follow the restored doors.
    pub fn restore(&mut self, s: &Snapshot) {
        assert_eq!(
            (s.agents.len(), s.clocks.len()),
            (self.agents.len(), self.clocks.len()),
            "a snapshot of another level"
        );
        self.hero.clone_from(&s.hero);
        self.agents.clone_from(&s.agents);
        self.objects.clone_from(&s.objects);
        self.objects.remeshed(&mut self.collision, &self.sources);
        if !self.movers.is_empty() {
            self.movers.restore_poses(&s.poses);
        }
        self.clocks.clone_from(&s.clocks);
        self.signals.clone_from(&s.signals);
        self.events.clone_from(&s.events);
        self.play.clone_from(&s.play);
        self.play_events.clone_from(&s.play_events);
        self.prev_pos = s.prev_pos;
        self.steps = s.steps;
        self.mover_shift = s.mover_shift;
        self.last.clone_from(&s.last);
    }
}
