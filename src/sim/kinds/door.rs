//! The door kind: each door's state, its switch and its timer, and what a door that opens or
//! closes does to the characters (one standing on it falls; one caught in it is moved out,
//! clear of the movers too, and moved far that is a crush). A door is a gate in the collision
//! meshes (`Solidity::Gate`), flipped open or closed without a re-mesh.
//!
//! Must never depend on another kind, the world's private state, or window, GPU, audio or input
//! crates.
use glam::DVec2;

use super::{SimKind, Stage};
use crate::collision::{Aabb, ColliderId, CollisionWorld, SourcePolygon};
use crate::level::document::polygon_id;
use crate::level::Level;
use crate::movement::character::Change;
use crate::movement::rules::Transition;
use crate::movement::{Env, Hero, MoveState, Tuning};
use crate::sim::play::polygon_on_segment;
use crate::sim::world::{TraceFrame, WorldEvent, CRUSH_WIGGLE, DT};

/// A door's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DoorState {
    /// Whether it is open.
    pub open: bool,
    /// Ticks it has been open with the hero off its switch (for `close_after`).
    pub open_ticks: u64,
}

/// What a signal does to a door.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DoorAction {
    Open,
    Close,
    Toggle,
}

/// The level's doors' states, in its order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Doors {
    states: Vec<DoorState>,
    /// `(signal, door, action)`: the doors' signal names looked up once, in the doors' order,
    /// each door's fields in file order (`open_on`, `close_on`, `toggle_on`).
    bindings: Vec<(usize, usize, DoorAction)>,
}

impl Doors {
    /// Each door's state, in the level's order.
    pub fn states(&self) -> &[DoorState] {
        &self.states
    }

    /// Opens or closes door `index` now (a script hook; switches and timers call it too): its
    /// gate flips in every mesh, no re-mesh. A character standing on what opened falls; one in
    /// what closed is moved out (crouching if that fits, else to the nearest free point: further
    /// than [`CRUSH_WIGGLE`] is a [`WorldEvent::Crushed`]). Returns false for no such door.
    pub fn set(&mut self, index: usize, open: bool, stage: &mut Stage) -> bool {
        let Some(d) = self.states.get_mut(index) else {
            return false;
        };
        if d.open == open {
            return true;
        }
        d.open = open;
        d.open_ticks = 0;
        stage
            .collision
            .set_gate(stage.level.door_id(index), open);
        stage.events.push(if open {
            WorldEvent::DoorOpened { door: index }
        } else {
            WorldEvent::DoorClosed { door: index }
        });
        let env = Env {
            collision: stage.collision,
            ladders: stage.ladders,
            movers: stage.movers,
        };
        let t = stage.tuning;
        // Only a character whose feet are within its collider's reach of the door's box can be
        // on it or in it (the door's inflation by any collider lies inside that).
        let reach = (0..stage.collision.shapes().len())
            .flat_map(|i| stage.collision.mesh(ColliderId(i as u16)).collider())
            .fold(0.0_f64, |r, q| r.max(q.abs().max_element()));
        let near =
            Aabb::from_points(stage.level.doors[index].points.iter().copied()).expand(reach);
        let mut crushed = Vec::new();
        if near.contains(stage.hero.body.pos) && resettle(stage.hero, &env, t) {
            crushed.push(WorldEvent::Crushed { agent: None });
        }
        for (i, a) in stage.agents.iter_mut().enumerate() {
            if near.contains(a.mover.body.pos) && resettle(&mut a.mover, &env, t) {
                crushed.push(WorldEvent::Crushed { agent: Some(i) });
            }
        }
        stage.events.extend(crushed);
        true
    }
}

impl Doors {
    /// Each door follows its switch and its timer (see [`SimKind::after_moves`]).
    fn follow_switches(&mut self, stage: &mut Stage) {
        for i in 0..self.states.len() {
            let door = &stage.level.doors[i];
            let (switch, close_after) = (door.switch, door.close_after);
            let on_switch = switch.is_some_and(|b| b.contains(stage.hero.body.pos));
            let d = &mut self.states[i];
            if on_switch {
                d.open_ticks = 0;
                if !d.open {
                    self.set(i, true, stage);
                }
            } else if d.open {
                if let Some(t) = close_after {
                    d.open_ticks += 1;
                    if d.open_ticks as f64 * DT >= t {
                        self.set(i, false, stage);
                    }
                }
            }
        }
    }
}

impl SimKind for Doors {
    const NAME: &'static str = "door";

    /// Each door as the level starts it, open or closed, its timer at 0.
    fn build(level: &Level) -> Doors {
        let states = level
            .doors
            .iter()
            .map(|d| DoorState {
                open: d.open,
                open_ticks: 0,
            })
            .collect();
        let mut bindings = Vec::new();
        for (i, d) in level.doors.iter().enumerate() {
            let actions = [DoorAction::Open, DoorAction::Close, DoorAction::Toggle];
            for ((_, names), action) in d.signal_fields().into_iter().zip(actions) {
                // Validation refused a name no source defines.
                bindings.extend(
                    names
                        .iter()
                        .filter_map(|n| level.signal_index(n))
                        .map(|s| (s, i, action)),
                );
            }
        }
        Doors { states, bindings }
    }

    /// A door opens while the hero's feet are in its switch; one with `close_after` closes that
    /// long after the hero left the switch (or a signal opened it). Then the signals fired this
    /// tick act, in the doors' order, each door's `open_on`, `close_on`, `toggle_on` in turn (a
    /// door toggled twice in a tick is as it was).
    fn after_moves(&mut self, stage: &mut Stage) {
        self.follow_switches(stage);
        if stage.fired.is_empty() {
            return;
        }
        for b in 0..self.bindings.len() {
            let (signal, i, action) = self.bindings[b];
            if !stage.fired[signal] {
                continue;
            }
            let open = match action {
                DoorAction::Open => true,
                DoorAction::Close => false,
                DoorAction::Toggle => !self.states[i].open,
            };
            self.set(i, open, stage);
        }
    }

    /// Each door as the level starts it (moving out whoever a door closes on).
    fn reset_on_death(&mut self, stage: &mut Stage) {
        let n = self.states.len().min(stage.level.doors.len());
        for i in 0..n {
            let open = stage.level.doors[i].open;
            self.set(i, open, stage);
        }
    }

    /// Every door's gate as its state is now, the doors numbered as in what the meshes were
    /// built from (the polygons first, the doors last).
    fn remeshed(&self, collision: &mut CollisionWorld, sources: &[SourcePolygon]) {
        let first_door = sources.len() - self.states.len();
        for (i, d) in self.states.iter().enumerate() {
            collision.set_gate(polygon_id(first_door + i), d.open);
        }
    }

    /// A closed door (or one with no state) is a wall for the attack's line of sight.
    fn blocks_sight(&self, level: &Level, a: DVec2, b: DVec2) -> bool {
        level
            .doors
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.states.get(*i).is_some_and(|d| d.open))
            .any(|(_, d)| polygon_on_segment(&d.points, a, b))
    }

    fn hash_words(&self, words: &mut Vec<u64>) {
        for d in &self.states {
            words.extend([d.open as u64, d.open_ticks]);
        }
    }

    fn trace(&self, frame: &mut TraceFrame) {
        frame.doors = self.states.iter().map(|d| d.open).collect();
    }
}

/// A character after a door changed: standing on an edge that no longer blocks (a door that
/// opened under it), it falls; in a face that became solid (a door that closed on it), it is
/// moved out: to its crouching collider if that fits where it is, else to the nearest free point
/// for its standing collider ([`Hero::relocate`]). Returns whether that was a crush (moved further
/// than [`CRUSH_WIGGLE`]).
fn resettle(h: &mut Hero, env: &Env, t: &Tuning) -> bool {
    let mesh = env.mesh(h.collider);
    if mesh.kind(h.body.face) != crate::collision::FaceKind::Solid {
        if let MoveState::Supported { edge, .. } = h.state {
            if !mesh.blocks(edge, h.move_options()) {
                h.apply(Change::To(Transition::to(MoveState::Airborne, h.vel)));
            }
        }
        return false;
    }
    let mut collider = h.collider;
    if let Some(crouch) = h.class.crouch.filter(|&c| c != h.collider) {
        if let crate::collision::Location::Free(_) = env.mesh(crouch).locate(h.body.pos, None) {
            collider = crouch;
        }
    }
    match h.relocate_as(collider, env, t) {
        Ok((moved_to, moved)) => {
            h.apply(Change::Replace(Box::new(moved_to)));
            // The static mesh's nearest free point can be inside a mover (under the top a rider
            // stood on): then out of the movers too, into the air, as a crush does.
            if crate::sim::movers::out_of_movers(h, env) {
                h.apply(Change::To(Transition::to(MoveState::Airborne, h.vel)));
                return true;
            }
            moved > CRUSH_WIGGLE
        }
        // No free space anywhere near: leave it; a crush.
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::World;

    /// A floor with a gap at x = 1..2 filled by door 0 (closed), and door 1 (open) standing on
    /// the floor at x = -3..-2.
    fn world(spawn: &str) -> World {
        let text = format!(
            "(name: \"d\", polygons: [\
             (points: [(-4.0, -1.0), (1.0, -1.0), (1.0, 0.0), (-4.0, 0.0)]),\
             (points: [(2.0, -1.0), (6.0, -1.0), (6.0, 0.0), (2.0, 0.0)])],\
             doors: [(points: [(1.0, -1.0), (2.0, -1.0), (2.0, 0.0), (1.0, 0.0)]),\
             (points: [(-3.0, 0.0), (-2.0, 0.0), (-2.0, 3.0), (-3.0, 3.0)], open: true)],\
             spawn: {spawn})"
        );
        let level = crate::level::parse_level(std::path::Path::new("d.ron"), &text).unwrap();
        World::new(&level, &Tuning::default()).unwrap()
    }

    /// The doors start as the level says; a door opening under the hero drops it, and one
    /// closing on it moves it out (by more than the wiggle: a crush).
    #[test]
    fn a_door_opening_underfoot_drops_the_hero_and_one_closing_on_it_moves_it_out() {
        let mut w = world("(1.5, 0.0)");
        let start: Vec<bool> = w.doors().iter().map(|d| d.open).collect();
        assert_eq!(start, [false, true]);
        assert_eq!(Doors::build(&w.level()).states(), w.doors());
        assert!(w.hero().grounded());
        assert!(w.set_door(0, true));
        assert_eq!(w.hero().state, MoveState::Airborne);
        assert_eq!(w.events(), [WorldEvent::DoorOpened { door: 0 }]);

        let mut w = world("(-2.5, 0.0)");
        let before = w.hero().body.pos;
        assert!(w.set_door(1, false));
        assert!(w.hero().body.pos.distance(before) > CRUSH_WIGGLE);
        assert!(w.penetrations().is_empty());
        assert_eq!(
            w.events(),
            [
                WorldEvent::DoorClosed { door: 1 },
                WorldEvent::Crushed { agent: None }
            ]
        );
        assert!(!w.set_door(2, true), "no such door");
    }

    /// A door's signal fields: `toggle_on` flips it each time its signal fires, `close_on` and
    /// `open_on` set it; in one tick they act in file order (open, close, toggle).
    #[test]
    fn signals_open_close_and_toggle_a_door() {
        let text = "(name: \"s\", polygons: [(points: [(-4.0, -1.0), (6.0, -1.0), (6.0, 0.0), \
                    (-4.0, 0.0)])], doors: [(points: [(3.0, 0.0), (4.0, 0.0), (4.0, 2.0), \
                    (3.0, 2.0)], toggle_on: [\"tick\"]), (points: [(5.0, 0.0), (5.5, 0.0), \
                    (5.5, 2.0), (5.0, 2.0)], open_on: [\"go\"], close_on: [\"go\"])], \
                    signals: [(name: \"tick\", source: timer(every: 0.25)), (name: \"go\", \
                    source: level_start)], spawn: (0.0, 0.0))";
        let level = crate::level::parse_level(std::path::Path::new("s.ron"), text).unwrap();
        let mut w = World::new(&level, &Tuning::default()).unwrap();
        let mut flips = Vec::new();
        for t in 0..100u64 {
            w.step(&crate::movement::Actions::default());
            if t == 0 {
                // Opened, then closed, in the same tick: closed, with both events.
                assert!(!w.doors()[1].open);
                assert_eq!(
                    w.events(),
                    [
                        WorldEvent::DoorOpened { door: 1 },
                        WorldEvent::DoorClosed { door: 1 }
                    ]
                );
            }
            if w.events().contains(&WorldEvent::DoorOpened { door: 0 })
                || w.events().contains(&WorldEvent::DoorClosed { door: 0 })
            {
                flips.push((t, w.doors()[0].open));
            }
        }
        assert_eq!(flips, [(30, true), (60, false), (90, true)]);
    }
}
