//! The hazard kind: the level's `hazard` polygons as convex pieces, the exact overlap test
//! against a collider, and the rule of play that a hazard returns the hero to the last safe
//! ground it stood on (`sim::play`'s module docs give the rule and why). It owns the safe ground
//! (`None` until the hero first stands on static ground, and again after a respawn) and each
//! hazard's on or off (a hazard that starts `off` or that signals turn on and off: `on_on`,
//! `off_on`, `toggle_on`; an off hazard harms nobody); the health a touch costs is the rules of
//! play's to take ([`Play::hazard_damage`](crate::sim::Play::hazard_damage)).
//!
//! On or off is state only in a level with a switched hazard ([`LevelPolygon::is_switched`]):
//! its words in the state hash, its changes in the trace; a level without keeps the hashes
//! pinned before hazards could be switched. `reset_on_death` puts each hazard back as the level
//! starts it, the one rule the doors keep (`sim::signals`).
//!
//! Must never depend on another kind, the world's private state, or window, GPU, audio or input
//! crates.
use glam::DVec2;

use super::{PlaySlot, SimKind, Stage, Turn};
use crate::collision::{colliders_meet, convex_pieces, Aabb, Meeting};
use crate::level::{Level, LevelPolygon, PolygonKind};
use crate::movement::character::Change;
use crate::movement::{Hero, MoveState};
use crate::sim::play::{boxes_overlap, placed_box, PlayEvent};
use crate::sim::world::TraceFrame;

/// What a signal does to a hazard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HazardAction {
    On,
    Off,
    Toggle,
}

/// The level's hazards: every `hazard` polygon as convex pieces with their boxes, each hazard's
/// on or off, and the safe ground a hazard puts the hero back on.
#[derive(Clone, Debug, Default)]
pub struct Hazards {
    /// Each piece's box, outline and hazard (index in `polygons`).
    pieces: Vec<(Aabb, Vec<DVec2>, usize)>,
    /// Each hazard's polygon index in the level, in the level's order.
    polygons: Vec<usize>,
    /// Each hazard: whether it harms (on).
    on: Vec<bool>,
    /// Each hazard as the level starts it (what a reset puts back).
    start: Vec<bool>,
    /// `(signal, hazard, action)`: the hazards' signal names looked up once, in the hazards'
    /// order, each hazard's fields in file order (`on_on`, `off_on`, `toggle_on`).
    bindings: Vec<(usize, usize, HazardAction)>,
    /// Whether any hazard is switched ([`LevelPolygon::is_switched`]): its on or off is state.
    switched: bool,
    /// The hazards that turned on or off in the last tick: `(polygon, on)`.
    changed: Vec<(usize, bool)>,
    /// Where a hazard puts the hero back (its feet): where it last stood on static ground,
    /// standing, alive and overlapping no hazard (`None`: nowhere yet since the start or the last
    /// respawn, and the respawn point serves).
    safe_ground: Option<DVec2>,
}

impl Hazards {
    /// The hazards of `level` as it starts them (a polygon that does not decompose, which
    /// validation refuses, is left out), with no safe ground yet.
    pub fn new(level: &Level) -> Hazards {
        let hazards: Vec<(usize, &LevelPolygon)> = level
            .polygons
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == PolygonKind::Hazard)
            .collect();
        let pieces = hazards
            .iter()
            .enumerate()
            .filter_map(|(h, (_, p))| Some((h, convex_pieces(&p.points)?)))
            .flat_map(|(h, cs)| {
                cs.into_iter()
                    .map(move |c| (Aabb::from_points(c.iter().copied()), c, h))
            })
            .collect();
        let mut bindings = Vec::new();
        let actions = [HazardAction::On, HazardAction::Off, HazardAction::Toggle];
        for (h, (_, p)) in hazards.iter().enumerate() {
            for ((_, names), action) in p.signal_fields().into_iter().zip(actions) {
                // Validation refused a name no source defines.
                bindings.extend(
                    names
                        .iter()
                        .filter_map(|n| level.signal_index(n))
                        .map(|s| (s, h, action)),
                );
            }
        }
        let start: Vec<bool> = hazards.iter().map(|(_, p)| !p.off).collect();
        Hazards {
            pieces,
            polygons: hazards.iter().map(|(i, _)| *i).collect(),
            on: start.clone(),
            start,
            bindings,
            switched: hazards.iter().any(|(_, p)| p.is_switched()),
            changed: Vec::new(),
            safe_ground: None,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Where a hazard puts the hero back now (`None`: the respawn point).
    pub fn safe_ground(&self) -> Option<DVec2> {
        self.safe_ground
    }

    /// Whether the hazard that is polygon `polygon` of the level harms now (`None`: no such
    /// hazard).
    pub fn is_on(&self, polygon: usize) -> Option<bool> {
        let h = self.polygons.iter().position(|&p| p == polygon)?;
        Some(self.on[h])
    }

    /// Each hazard, `(polygon, on)`, in the level's order.
    pub fn states(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.polygons.iter().copied().zip(self.on.iter().copied())
    }

    /// The first piece of a hazard that is on that `collider` (points relative to the feet) at
    /// `pos` overlaps with positive area, by its box's centre (for the knockback's direction).
    pub fn overlapping(&self, collider: &[DVec2], pos: DVec2) -> Option<DVec2> {
        let reach = placed_box(collider, pos);
        self.pieces
            .iter()
            .filter(|(b, _, h)| self.on[*h] && boxes_overlap(b, &reach))
            .find(|(_, piece, _)| {
                colliders_meet(piece, DVec2::ZERO, collider, pos) == Meeting::Overlapping
            })
            .map(|(b, _, _)| (b.min + b.max) * 0.5)
    }

    /// Turns hazard `h` on or off, noting a change for the trace.
    fn set(&mut self, h: usize, on: bool) {
        if self.on[h] != on {
            self.on[h] = on;
            self.changed.push((self.polygons[h], on));
        }
    }

    /// The hero overlaps a hazard: the damage of a touch ([`Play::hazard_damage`](crate::sim::Play::hazard_damage)), then, unless
    /// that killed it, back on the safe ground at rest.
    fn hit(&self, stage: &mut Stage, turn: &mut Turn) {
        let t = stage.tuning;
        if !turn.play.hazard_damage(t, turn.events) {
            return;
        }
        let (env, hero, _) = stage.split();
        let from = hero.body.pos;
        let back = self.safe_ground.unwrap_or(turn.respawn);
        if let Ok((mut fresh, _)) = Hero::spawn(&env, back, t) {
            fresh.facing = hero.facing;
            hero.apply(Change::Replace(Box::new(fresh)));
        }
        turn.events.push(PlayEvent::Returned { from });
    }
}

impl SimKind for Hazards {
    const NAME: &'static str = "hazard";

    fn build(level: &Level) -> Hazards {
        Hazards::new(level)
    }

    /// The level's hazards again, as it starts them; the safe ground stays where it was.
    fn level_replaced(&mut self, level: &Level) {
        let safe_ground = self.safe_ground;
        *self = Hazards::new(level);
        self.safe_ground = safe_ground;
    }

    /// The signals fired this tick turn hazards on and off, in the hazards' order, each
    /// hazard's `on_on`, `off_on`, `toggle_on` in turn (as a door's).
    fn after_moves(&mut self, stage: &mut Stage) {
        self.changed.clear();
        if stage.fired.is_empty() {
            return;
        }
        for b in 0..self.bindings.len() {
            let (signal, h, action) = self.bindings[b];
            if !stage.fired[signal] {
                continue;
            }
            let on = match action {
                HazardAction::On => true,
                HazardAction::Off => false,
                HazardAction::Toggle => !self.on[h],
            };
            self.set(h, on);
        }
    }

    /// Each hazard as the level starts it (the doors' rule).
    fn reset_on_death(&mut self, _stage: &mut Stage) {
        for h in 0..self.on.len() {
            self.set(h, self.start[h]);
        }
    }

    /// Each hazard's on or off, only in a level with a switched hazard (the hashes pinned
    /// before hazards could be switched hold).
    fn hash_words(&self, words: &mut Vec<u64>) {
        if self.switched {
            words.extend(self.on.iter().map(|&on| on as u64));
        }
    }

    fn trace(&self, frame: &mut TraceFrame) {
        frame.hazards.clone_from(&self.changed);
    }

    /// Overlapping a hazard (with the hero's collider as the rules of play began) costs the
    /// damage of a touch and puts the hero back on the safe ground; else, standing (not
    /// crouching) on static ground or top-down, where it stands is the safe ground.
    fn harm(&mut self, stage: &mut Stage, turn: &mut Turn) {
        let env = stage.env();
        let collider = env.mesh(turn.collider).collider();
        let hero = &*stage.hero;
        if self.overlapping(collider, hero.body.pos).is_some() {
            self.hit(stage, turn);
        } else if matches!(hero.state, MoveState::Supported { .. } | MoveState::TopDown)
            && !hero.crouching()
        {
            self.safe_ground = Some(hero.body.pos);
        }
    }

    /// No safe ground after a respawn: the respawn point serves until the hero stands again.
    fn respawned(&mut self) {
        self.safe_ground = None;
    }

    /// The safe ground after the rules of play's words, only in a level with hazards (the hashes
    /// of levels without them stay as they were pinned before it existed).
    fn play_words(&self, slot: PlaySlot, words: &mut Vec<u64>) {
        if slot == PlaySlot::Last && !self.is_empty() {
            let g = self.safe_ground.unwrap_or(DVec2::NAN);
            words.extend([g.x.to_bits(), g.y.to_bits()]);
        }
    }

    fn is_game(&self, _level: &Level) -> bool {
        !self.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::LevelPolygon;

    fn hazards(points: Vec<DVec2>) -> Hazards {
        let mut p = LevelPolygon::solid(points);
        p.kind = PolygonKind::Hazard;
        let level = Level {
            polygons: vec![p],
            ..Level::empty("h")
        };
        Hazards::new(&level)
    }

    /// A 1 × 1 m box standing on its bottom centre.
    fn unit_box() -> Vec<DVec2> {
        [(-0.5, 0.0), (0.5, 0.0), (0.5, 1.0), (-0.5, 1.0)]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec()
    }

    #[test]
    fn a_corner_on_a_slanted_hazard_edge_touches_and_a_hair_further_overlaps() {
        // The hypotenuse x + y = 3; the box's top right corner (2, 1) lies on it.
        let h = hazards(vec![
            DVec2::new(1.0, 0.0),
            DVec2::new(3.0, 0.0),
            DVec2::new(1.0, 2.0),
        ]);
        let c = unit_box();
        // Beside it, on the left: the box's right side on x = 1, a shared segment.
        assert_eq!(h.overlapping(&c, DVec2::new(0.5, 0.0)), None);
        // Its corner exactly on the slanted edge, from outside.
        assert_eq!(h.overlapping(&c, DVec2::new(2.5, 1.0)), None);
        assert!(h
            .overlapping(&c, DVec2::new(2.5 - 1.0 / 64.0, 1.0))
            .is_some());
        assert_eq!(h.overlapping(&c, DVec2::new(2.5 + 1.0 / 64.0, 1.0)), None);
        // Deep inside.
        assert!(h.overlapping(&c, DVec2::new(1.6, 0.0)).is_some());
    }

    #[test]
    fn a_concave_hazard_hurts_in_its_arms_and_not_in_its_notch() {
        // An L: the notch's corner at (1, 1).
        let h = hazards(
            [
                (0.0, 0.0),
                (3.0, 0.0),
                (3.0, 1.0),
                (1.0, 1.0),
                (1.0, 3.0),
                (0.0, 3.0),
            ]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec(),
        );
        let c = unit_box();
        // Sitting in the notch, on the lower arm and against the upper one: touching only.
        assert_eq!(h.overlapping(&c, DVec2::new(1.5, 1.0)), None);
        assert!(h.overlapping(&c, DVec2::new(1.5, 0.99)).is_some());
        assert!(h.overlapping(&c, DVec2::new(1.49, 1.0)).is_some());
    }

    /// The safe ground outlives a level swap or edit and is gone after a respawn; its words are
    /// in the hash only for a level with hazards.
    #[test]
    fn the_safe_ground_survives_a_level_swap_and_not_a_respawn() {
        let mut h = hazards(unit_box());
        h.safe_ground = Some(DVec2::new(4.0, 0.0));
        let level = Level {
            polygons: vec![LevelPolygon::solid(unit_box())],
            ..Level::empty("h")
        };
        h.level_replaced(&level);
        assert!(h.is_empty());
        assert_eq!(h.safe_ground(), Some(DVec2::new(4.0, 0.0)));
        let mut words = Vec::new();
        h.play_words(PlaySlot::Last, &mut words);
        assert!(words.is_empty(), "no hazards, no words");
        let mut h = hazards(unit_box());
        h.play_words(PlaySlot::Last, &mut words);
        assert_eq!(words.len(), 2);
        h.safe_ground = Some(DVec2::ONE);
        h.respawned();
        assert_eq!(h.safe_ground(), None);
    }
}
