//! What a level turns into for the world, and replacing the level: the tuning with the level's
//! overrides, one collision mesh per collider (the hero's two and one per agent size class in
//! use), built whole or, after an edit, rebuilt only where the polygons changed; the ladders,
//! movers (inflated by every collider, posed at tick 0), hazards and bounds. On it, the level
//! swaps ([`World::set_level`], [`World::edit_level`]), [`World::restart`] and
//! [`World::set_base_tuning`], each leaving the world as it was on error.
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use super::placement::{place_characters, HeroFrom, Placed};
use super::{doors::door_states, World, WorldError};
use crate::collision::{
    Aabb, ColliderId, CollisionWorld, MeshConfig, Movers, PolygonId, Solidity, SourcePolygon,
};
use crate::level::document::polygon_id;
use crate::level::Level;
use crate::movement::character::Change;
use crate::movement::{Env, Tuning};
use crate::sim::agents::SizeClasses;
use crate::sim::play::{Hazards, Play};

pub use crate::collision::AUTO_BOUNDS_MARGIN;

/// The region the hero may occupy when a level sets no bounds: every polygon, ladder and the spawn
/// point, grown by [`AUTO_BOUNDS_MARGIN`] (the collision core's one automatic-bounds rule).
pub fn automatic_bounds(level: &Level) -> Aabb {
    let points = level
        .polygons
        .iter()
        .flat_map(|p| p.points.iter().copied())
        .chain(level.doors.iter().flat_map(|d| d.points.iter().copied()))
        .chain(level.movers.iter().flat_map(|m| {
            // Every piece at every offset of its path (a path's legs are straight); a turning
            // mover's circle about its pivot.
            m.path.iter().flat_map(move |&o| {
                let b = crate::level::validate::turning_box(m, o);
                [b.min, b.max]
            })
        }))
        .chain(level.agents.iter().map(|a| a.spawn))
        .chain(level.ladders.iter().flat_map(|l| [l.min, l.max]))
        .chain(std::iter::once(level.spawn));
    crate::collision::automatic_bounds(points)
}

/// The chunk size (metres) of the meshes [`World::edit_level`] builds and rebuilds in part.
pub const EDIT_CHUNK_SIZE: f64 = crate::collision::DEFAULT_CHUNK_SIZE;

/// What a level turns into before the hero is placed: its tuning, meshes (the hero's two and one
/// per agent size class in use) and ladders.
pub(super) struct Built {
    /// The base tuning with the level's overrides.
    pub tuning: Tuning,
    /// One mesh per collider.
    pub collision: CollisionWorld,
    /// The level's ladders.
    pub ladders: Vec<Aabb>,
    /// The agents' size classes.
    pub classes: SizeClasses,
    /// The movers, inflated by every collider, posed at tick 0.
    pub movers: Movers,
    /// Their paths.
    pub paths: Vec<crate::sim::movers::Path>,
    /// The hazard polygons.
    pub hazards: Hazards,
    /// The level's bounds (explicit or automatic).
    pub bounds: Aabb,
}

/// How [`Built::new`] gets the level's meshes.
pub(super) enum Meshes<'a> {
    /// Built whole ([`CollisionWorld::new`]).
    Whole,
    /// Chunked ([`CollisionWorld::new_chunked`]), and when `previous` holds chunked meshes of
    /// the same colliders, rebuilt in part from them: only the polygons that differ from
    /// `previous_level`'s.
    Edited {
        previous: &'a mut CollisionWorld,
        previous_level: &'a Level,
    },
}

/// The ids of the source polygons (doors included, as [`Level::source_polygons`] numbers them)
/// that differ in kind or points between `old` and `new`, or that only one of them has. Reads
/// the levels in place: O(polygons), no copy.
fn changed_polygons(old: &Level, new: &Level) -> Vec<PolygonId> {
    // Each level's sources in id order: its polygons, then its doors.
    fn sources(level: &Level) -> impl Iterator<Item = (PolygonId, Solidity, &[DVec2])> {
        let polygons = level
            .polygons
            .iter()
            .enumerate()
            .map(|(i, p)| (polygon_id(i), p.kind.solidity(), p.points.as_slice()));
        let doors = level
            .doors
            .iter()
            .enumerate()
            .map(|(i, d)| (level.door_id(i), Solidity::Gate, d.points.as_slice()));
        polygons.chain(doors)
    }
    let (mut a, mut b) = (sources(old).peekable(), sources(new).peekable());
    let mut out = Vec::new();
    loop {
        match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                if x.1 != y.1 || x.2 != y.2 {
                    out.push(x.0);
                }
                a.next();
                b.next();
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                out.push(x.0);
                a.next();
            }
            (Some(x), None) => {
                out.push(x.0);
                a.next();
            }
            (_, Some(y)) => {
                out.push(y.0);
                b.next();
            }
            (None, None) => return out,
        }
    }
}

/// The source polygons of `level` among `ids` (sorted, as [`changed_polygons`] gives them):
/// what an edit changed that the level still has.
fn edited_polygons(level: &Level, ids: &[PolygonId]) -> Vec<SourcePolygon> {
    let n = level.polygons.len();
    ids.iter()
        .filter_map(|&id| {
            let i = id.0 as usize;
            if let Some(p) = level.polygons.get(i) {
                Some(SourcePolygon {
                    id,
                    kind: p.kind.solidity(),
                    points: p.points.clone(),
                })
            } else {
                level.doors.get(i - n).map(|d| SourcePolygon {
                    id,
                    kind: Solidity::Gate,
                    points: d.points.clone(),
                })
            }
        })
        .collect()
}

impl Built {
    /// Builds what `level` turns into, with `base_tuning` and the meshes as `meshes` says.
    pub(super) fn new(
        level: &Level,
        base_tuning: &Tuning,
        meshes: Meshes,
    ) -> Result<Built, WorldError> {
        let tuning = base_tuning.with_overrides(&level.tuning);
        tuning.validate()?;
        let classes = SizeClasses::for_agents(&level.agents);
        let mut shapes = vec![
            tuning.stand_collider.clone(),
            tuning.crouch_collider.clone(),
        ];
        shapes.extend(classes.extra_colliders());
        let bounds = level.bounds.unwrap_or_else(|| automatic_bounds(level));
        let config = MeshConfig {
            bounds: Some(bounds),
            ..MeshConfig::default()
        };
        let mut collision = match meshes {
            Meshes::Whole => CollisionWorld::new(&level.source_polygons(), &shapes, config)?,
            Meshes::Edited {
                previous,
                previous_level,
            } if previous.chunk_size().is_some() && previous.shapes() == shapes.as_slice() => {
                let changed = changed_polygons(previous_level, level);
                let edited = edited_polygons(level, &changed);
                let mut collision = std::mem::replace(previous, CollisionWorld::empty());
                let rebuilt = match collision.rebuild_edited(&edited, &changed, &config) {
                    Ok(Some(_)) => Ok(collision),
                    Ok(None) => CollisionWorld::new_chunked(
                        &level.source_polygons(),
                        &shapes,
                        config.clone(),
                        EDIT_CHUNK_SIZE,
                    ),
                    Err(e) => Err(e),
                };
                match rebuilt {
                    Ok(c) => c,
                    Err(e) => {
                        // The previous meshes were handed over and may be part rebuilt: the
                        // previous level's are built again, so that nothing changes on error
                        // (the caller puts its doors back as they are).
                        *previous = CollisionWorld::new_chunked(
                            &previous_level.source_polygons(),
                            &shapes,
                            config,
                            EDIT_CHUNK_SIZE,
                        )?;
                        return Err(e.into());
                    }
                }
            }
            Meshes::Edited { .. } => CollisionWorld::new_chunked(
                &level.source_polygons(),
                &shapes,
                config,
                EDIT_CHUNK_SIZE,
            )?,
        };
        // Every door's gate as the level starts it (a fresh build has them all closed).
        for (i, d) in level.doors.iter().enumerate() {
            collision.set_gate(level.door_id(i), d.open);
        }
        let ladders: Vec<Aabb> = level
            .ladders
            .iter()
            .map(|l| Aabb {
                min: l.min,
                max: l.max,
            })
            .collect();
        // Every mover inflated by every collider of the world, posed at tick 0.
        let colliders: Vec<Vec<DVec2>> = (0..collision.shapes().len())
            .map(|i| collision.mesh(ColliderId(i as u16)).collider().to_vec())
            .collect();
        let one_way: Vec<bool> = level.movers.iter().map(|m| m.one_way).collect();
        let pieces = crate::sim::movers::mover_pieces(level);
        let mut movers = Movers::new(&pieces, &colliders)
            .with_one_way(&one_way)
            .with_pivots(&pieces, &crate::sim::movers::mover_pivots(level));
        let paths: Vec<crate::sim::movers::Path> = level
            .movers
            .iter()
            .map(crate::sim::movers::Path::new)
            .collect();
        movers.place_poses(crate::sim::movers::poses_at(&paths, 0));
        Ok(Built {
            tuning,
            collision,
            ladders,
            classes,
            movers,
            paths,
            hazards: Hazards::new(level),
            bounds,
        })
    }

    /// The surroundings of a movement step in it.
    pub(super) fn env(&self) -> Env<'_> {
        Env {
            collision: &self.collision,
            ladders: &self.ladders,
            movers: &self.movers,
        }
    }
}

impl World {
    /// Replaces the level (live editing): the base tuning with the new level's overrides, new
    /// meshes for every collider, and the hero where it is when it still fits there, else moved to
    /// the nearest free point with a warning (the same as for a spawn inside geometry); see
    /// [`Hero::relocate`]. The tick count and the trace continue. On error nothing changes.
    ///
    /// [`World::warnings`] afterwards holds this swap's warnings only.
    pub fn set_level(&mut self, level: &Level) -> Result<(), WorldError> {
        self.replace_level(level, false)
    }

    /// [`World::set_level`] for an edit of the current level (the editor): the meshes are
    /// chunked ([`CollisionWorld::new_chunked`], chunks of [`EDIT_CHUNK_SIZE`]), and once they
    /// are, only the chunks that the polygons which differ from the current level's touch are
    /// built again. A chunked mesh answers as a whole one does up to rounding where an edge
    /// crosses a chunk line (an ulp or so): a level played after edits can differ in the last
    /// bits from the same level loaded afresh, which [`World::set_level`] builds whole.
    pub fn edit_level(&mut self, level: &Level) -> Result<(), WorldError> {
        self.replace_level(level, true)
    }

    fn replace_level(&mut self, level: &Level, edit: bool) -> Result<(), WorldError> {
        let meshes = if edit {
            Meshes::Edited {
                previous: &mut self.collision,
                previous_level: &self.level,
            }
        } else {
            Meshes::Whole
        };
        let built = match Built::new(level, &self.base_tuning, meshes) {
            Ok(b) => b,
            Err(e) => {
                if edit {
                    // The meshes may have been built again: the doors as they are now.
                    for (i, d) in self.doors.iter().enumerate() {
                        self.collision.set_gate(self.level.door_id(i), d.open);
                    }
                }
                return Err(e);
            }
        };
        let placed = place_characters(level, &built, HeroFrom::Relocate(&self.hero));
        let Placed {
            hero,
            moved,
            agents,
            warnings,
        } = match placed {
            Ok(p) => p,
            Err(e) => {
                if edit {
                    // An edit handed the meshes to the new build: the previous level's are
                    // built again (whole), with its doors as they are now.
                    let previous = self.level.clone();
                    self.collision =
                        Built::new(&previous, &self.base_tuning, Meshes::Whole)?.collision;
                    for (i, d) in self.doors.iter().enumerate() {
                        self.collision.set_gate(previous.door_id(i), d.open);
                    }
                }
                return Err(e);
            }
        };
        if moved > 0.0 {
            // Drawn where it is now: no interpolated streak across the jump.
            self.prev_pos = hero.body.pos;
        }
        self.level = level.clone();
        self.tuning = built.tuning;
        self.collision = built.collision;
        self.ladders = built.ladders;
        self.hero.apply(Change::Replace(Box::new(hero)));
        self.agents = agents;
        self.classes = built.classes;
        self.doors = door_states(level);
        self.movers = built.movers;
        self.paths = built.paths;
        self.hazards = built.hazards;
        self.bounds = built.bounds;
        if self
            .play
            .checkpoint
            .is_some_and(|c| c >= level.checkpoints.len())
        {
            self.play.checkpoint = None;
        }
        self.movers.place_poses(crate::sim::movers::poses_at(
            &self.paths,
            self.mover_tick(self.steps),
        ));
        self.warnings = warnings;
        self.push_characters();
        Ok(())
    }

    /// Starts the level over (the pause menu's Restart, the next attempt at a level): the agents
    /// and doors as the level file has them, the hero at the spawn with full health, no deaths, no
    /// checkpoint, the goal not reached. The tick count and the movers' time continue; on error
    /// nothing changes.
    pub fn restart(&mut self) -> Result<(), WorldError> {
        let level = self.level.clone();
        self.set_level(&level)?;
        self.play = Play::new(&self.tuning, self.steps);
        self.place_hero(level.spawn)?;
        Ok(())
    }

    /// Replaces the base tuning (the tuning editor): the current level's overrides still apply
    /// on top. The meshes are rebuilt when a collider changed; the hero is re-placed as in
    /// [`World::set_level`]. On error nothing changes.
    pub fn set_base_tuning(&mut self, tuning: &Tuning) -> Result<(), WorldError> {
        let previous = std::mem::replace(&mut self.base_tuning, tuning.clone());
        let level = self.level.clone();
        self.set_level(&level)
            .inspect_err(|_| self.base_tuning = previous)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(text: &str) -> Level {
        crate::level::parse_level(std::path::Path::new("t.ron"), text).unwrap()
    }

    const FLOOR: &str = "(points: [(-4.0, -1.0), (4.0, -1.0), (4.0, 0.0), (-4.0, 0.0)])";
    const BLOCK: &str = "(points: [(1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0)])";
    const MOVED: &str = "(points: [(1.0, 0.0), (2.5, 0.0), (2.5, 1.0), (1.0, 1.0)])";
    const DOOR: &str = "(points: [(-3.0, 0.0), (-2.0, 0.0), (-2.0, 2.0), (-3.0, 2.0)])";

    /// An edit is rebuilt from the polygons that differ: a moved block, and a door that only the
    /// new level has (doors are numbered after the polygons), handed over with their new points
    /// and kinds; an unchanged polygon is not.
    #[test]
    fn an_edit_rebuilds_the_polygons_that_differ_and_only_those() {
        let old = level(&format!(
            "(name: \"a\", polygons: [{FLOOR}, {BLOCK}], spawn: (0.0, 0.0))"
        ));
        let new = level(&format!(
            "(name: \"a\", polygons: [{FLOOR}, {MOVED}], doors: [{DOOR}], spawn: (0.0, 0.0))"
        ));
        let changed = changed_polygons(&old, &new);
        assert_eq!(changed, vec![polygon_id(1), polygon_id(2)]);
        assert!(changed_polygons(&new, &new).is_empty());
        let edited = edited_polygons(&new, &changed);
        assert_eq!(edited.len(), 2);
        assert_eq!(
            (edited[0].kind, &edited[0].points),
            (Solidity::Solid, &new.polygons[1].points)
        );
        assert_eq!(
            (edited[1].id, edited[1].kind, &edited[1].points),
            (new.door_id(0), Solidity::Gate, &new.doors[0].points)
        );
        // Removing the door: its id is named, and the level no longer has it to hand over.
        let back = changed_polygons(&new, &old);
        assert_eq!(back, vec![polygon_id(1), polygon_id(2)]);
        assert_eq!(edited_polygons(&old, &back).len(), 1);
    }

    /// A level without bounds gets the automatic ones: every polygon and the spawn, grown by the
    /// margin.
    #[test]
    fn automatic_bounds_hold_the_geometry_and_the_spawn_with_a_margin() {
        let l = level(&format!(
            "(name: \"a\", polygons: [{FLOOR}], spawn: (0.0, 9.0))"
        ));
        let b = automatic_bounds(&l);
        assert_eq!(b.min, DVec2::new(-4.0, -1.0) - AUTO_BOUNDS_MARGIN);
        assert_eq!(b.max, DVec2::new(4.0, 9.0) + AUTO_BOUNDS_MARGIN);
        let built = Built::new(&l, &Tuning::default(), Meshes::Whole).unwrap();
        assert_eq!(built.bounds, b);
        assert!(built.ladders.is_empty() && built.movers.is_empty());
    }
}
