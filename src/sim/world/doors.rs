//! The level's doors in the world: each door's state, its switch and its timer, and what a door
//! that opens or closes does to the characters (one standing on it falls; one caught in it is
//! moved out, and moved far that is a crush).
//!
//! Must never depend on window, GPU, audio or input crates.
use super::{World, WorldEvent, CRUSH_WIGGLE, DT};
use crate::collision::{Aabb, ColliderId};
use crate::level::Level;
use crate::movement::character::Change;
use crate::movement::rules::Transition;
use crate::movement::{Env, Hero, MoveState, Tuning};

/// A door's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DoorState {
    /// Whether it is open.
    pub open: bool,
    /// Ticks it has been open with the hero off its switch (for `close_after`).
    pub open_ticks: u64,
}

/// Each door's state at the level's start.
pub(super) fn door_states(level: &Level) -> Vec<DoorState> {
    level
        .doors
        .iter()
        .map(|d| DoorState {
            open: d.open,
            open_ticks: 0,
        })
        .collect()
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
            moved > CRUSH_WIGGLE
        }
        // No free space anywhere near: leave it; a crush.
        Err(_) => true,
    }
}

impl World {
    /// Doors after the characters' moves: a door opens while the hero's feet are in its switch;
    /// one with `close_after` closes that long after the hero left the switch.
    pub(super) fn run_doors(&mut self) {
        for i in 0..self.doors.len() {
            let (switch, close_after) = {
                let level = self.level.read();
                (level.doors[i].switch, level.doors[i].close_after)
            };
            let on_switch = switch.is_some_and(|b| b.contains(self.hero.body.pos));
            let d = &mut self.doors[i];
            if on_switch {
                d.open_ticks = 0;
                if !d.open {
                    self.set_door(i, true);
                }
            } else if d.open {
                if let Some(t) = close_after {
                    d.open_ticks += 1;
                    if d.open_ticks as f64 * DT >= t {
                        self.set_door(i, false);
                    }
                }
            }
        }
    }

    /// Opens or closes door `index` now (a script hook; switches and timers call it too): its
    /// gate flips in every mesh, no re-mesh. A character standing on what opened falls; one in
    /// what closed is moved out (crouching if that fits, else to the nearest free point: further
    /// than [`CRUSH_WIGGLE`] is a [`WorldEvent::Crushed`]). Returns false for no such door.
    pub fn set_door(&mut self, index: usize, open: bool) -> bool {
        let Some(d) = self.doors.get_mut(index) else {
            return false;
        };
        if d.open == open {
            return true;
        }
        d.open = open;
        d.open_ticks = 0;
        let id = self.level.read().door_id(index);
        self.collision.set_gate(id, open);
        self.events.push(if open {
            WorldEvent::DoorOpened { door: index }
        } else {
            WorldEvent::DoorClosed { door: index }
        });
        let env = Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        };
        let t = &self.tuning;
        // Only a character whose feet are within its collider's reach of the door's box can be
        // on it or in it (the door's inflation by any collider lies inside that).
        let reach = (0..self.collision.shapes().len())
            .flat_map(|i| self.collision.mesh(ColliderId(i as u16)).collider())
            .fold(0.0_f64, |r, q| r.max(q.abs().max_element()));
        let near =
            Aabb::from_points(self.level.read().doors[index].points.iter().copied()).expand(reach);
        let mut crushed = Vec::new();
        if near.contains(self.hero.body.pos) && resettle(&mut self.hero, &env, t) {
            crushed.push(WorldEvent::Crushed { agent: None });
        }
        for (i, a) in self.agents.iter_mut().enumerate() {
            if near.contains(a.mover.body.pos) && resettle(&mut a.mover, &env, t) {
                crushed.push(WorldEvent::Crushed { agent: Some(i) });
            }
        }
        self.events.extend(crushed);
        true
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
        assert_eq!(door_states(&w.level()), w.doors());
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
}
