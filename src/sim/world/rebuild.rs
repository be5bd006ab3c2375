//! What a level turns into for the world, and replacing the level: the tuning with the level's
//! overrides, one collision mesh per collider (the hero's two and one per agent size class in
//! use), built whole or, after an edit, rebuilt only where the polygons changed; the ladders,
//! movers (inflated by every collider, posed at tick 0) and bounds. On it, the level
//! swaps ([`World::set_level`]), following an edit of the world's document
//! ([`World::level_edited`]), [`World::restart`] and [`World::set_base_tuning`], each leaving
//! what the world derived as it was on error.
//!
//! An edit is followed in part without a copy of the level before it: the world keeps the
//! source polygons its meshes were built from (`World::sources`, brought up to date by each
//! build, [`Sources::update`]) and compares the document with them.
//!
//! Must never depend on window, GPU, audio or input crates.
use crate::sim::signals::Signals;
use glam::DVec2;

use super::placement::{place_characters, HeroFrom, Placed};
use super::{World, WorldError};
use crate::collision::{
    Aabb, ColliderId, ColliderShape, CollisionWorld, MeshConfig, Movers, PolygonId, Solidity,
    SourcePolygon,
};
use crate::level::document::polygon_id;
use crate::level::Level;
use crate::movement::character::Change;
use crate::movement::{Env, Tuning};
use crate::sim::agents::SizeClasses;
use crate::sim::kinds::Objects;
use crate::sim::play::Play;

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
            m.stops().into_iter().flat_map(move |o| {
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
    /// What the meshes were built from.
    pub sources: Sources,
    /// The level's ladders.
    pub ladders: Vec<Aabb>,
    /// The agents' size classes.
    pub classes: SizeClasses,
    /// The movers, inflated by every collider, posed at tick 0.
    pub movers: Movers,
    /// Their paths.
    pub paths: Vec<crate::sim::movers::Path>,
    /// The level's bounds (explicit or automatic).
    pub bounds: Aabb,
}

/// How [`Built::new`] gets the level's meshes.
pub(super) enum Meshes<'a> {
    /// Built whole ([`CollisionWorld::new`]).
    Whole,
    /// Chunked ([`CollisionWorld::new_chunked`]), and when `previous` holds chunked meshes of
    /// the same colliders, rebuilt in part from them: only the source polygons that differ from
    /// `sources`, what `previous` was built from.
    Edited {
        previous: &'a mut CollisionWorld,
        sources: &'a [SourcePolygon],
    },
}

/// What a build's meshes were made from, to keep the world's record of its source polygons
/// ([`Sources::update`]) without copying the level.
pub(super) enum Sources {
    /// Every source polygon (a build from the whole level).
    All(Vec<SourcePolygon>),
    /// A build in part: the level now has `count` source polygons, and `changed` are the ones
    /// that differ from the record (in id order).
    Changed {
        changed: Vec<SourcePolygon>,
        count: usize,
    },
}

impl Sources {
    /// Brings `record` (the source polygons of the previous build, in id order) to this build's.
    pub(super) fn update(self, record: &mut Vec<SourcePolygon>) {
        match self {
            Sources::All(all) => *record = all,
            Sources::Changed { changed, count } => {
                record.truncate(count);
                // In id order, and every id at or past the record's end is among the changed
                // (only the new level has it): each lands at its index.
                for s in changed {
                    let i = s.id.0 as usize;
                    if i < record.len() {
                        record[i] = s;
                    } else {
                        debug_assert_eq!(i, record.len());
                        record.push(s);
                    }
                }
                debug_assert_eq!(record.len(), count);
            }
        }
    }
}

/// The ids of the source polygons (doors included, as [`Level::source_polygons`] numbers them)
/// that differ in kind or points between `old` (what the meshes were built from) and `new`, or
/// that only one of them has. Reads both in place: O(polygons), no copy.
fn changed_polygons(old: &[SourcePolygon], new: &Level) -> Vec<PolygonId> {
    // The level's sources in id order: its polygons, then its doors.
    let polygons = new
        .polygons
        .iter()
        .enumerate()
        .map(|(i, p)| (polygon_id(i), p.kind.solidity(), p.points.as_slice()));
    let doors = new
        .doors
        .iter()
        .enumerate()
        .map(|(i, d)| (new.door_id(i), Solidity::Gate, d.points.as_slice()));
    let mut a = old
        .iter()
        .map(|s| (s.id, s.kind, s.points.as_slice()))
        .peekable();
    let mut b = polygons.chain(doors).peekable();
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

/// The colliders a world with `tuning` and `classes` has meshes for, in [`ColliderId`] order:
/// the hero's standing and crouching ones, then the agents' size classes' in use.
fn collider_shapes(tuning: &Tuning, classes: &SizeClasses) -> Vec<ColliderShape> {
    let mut shapes = vec![
        tuning.stand_collider.clone(),
        tuning.crouch_collider.clone(),
    ];
    shapes.extend(classes.extra_colliders());
    shapes
}

/// The mesh settings of a level with these bounds.
fn mesh_config(bounds: Aabb) -> MeshConfig {
    MeshConfig {
        bounds: Some(bounds),
        ..MeshConfig::default()
    }
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
        let shapes = collider_shapes(&tuning, &classes);
        let bounds = level.bounds.unwrap_or_else(|| automatic_bounds(level));
        let config = mesh_config(bounds);
        let (mut collision, sources) = match meshes {
            Meshes::Whole => {
                let all = level.source_polygons();
                (
                    CollisionWorld::new(&all, &shapes, config)?,
                    Sources::All(all),
                )
            }
            Meshes::Edited { previous, sources }
                if previous.chunk_size().is_some() && previous.shapes() == shapes.as_slice() =>
            {
                let changed = changed_polygons(sources, level);
                let edited = edited_polygons(level, &changed);
                let mut collision = std::mem::replace(previous, CollisionWorld::empty());
                let rebuilt = match collision.rebuild_edited(&edited, &changed, &config) {
                    Ok(Some(_)) => Ok((
                        collision,
                        Sources::Changed {
                            changed: edited,
                            count: level.polygons.len() + level.doors.len(),
                        },
                    )),
                    Ok(None) => {
                        let all = level.source_polygons();
                        CollisionWorld::new_chunked(&all, &shapes, config.clone(), EDIT_CHUNK_SIZE)
                            .map(|c| (c, Sources::All(all)))
                    }
                    Err(e) => Err(e),
                };
                match rebuilt {
                    Ok(c) => c,
                    Err(e) => {
                        // The previous meshes were handed over and may be part rebuilt: they are
                        // built again from what they were built from, so that nothing changes
                        // on error (the caller puts its doors back as they are).
                        *previous =
                            CollisionWorld::new_chunked(sources, &shapes, config, EDIT_CHUNK_SIZE)?;
                        return Err(e.into());
                    }
                }
            }
            Meshes::Edited { .. } => {
                let all = level.source_polygons();
                let c = CollisionWorld::new_chunked(&all, &shapes, config, EDIT_CHUNK_SIZE)?;
                (c, Sources::All(all))
            }
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
            sources,
            ladders,
            classes,
            movers,
            paths,
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
    /// Replaces the level (a level swap, a campaign level): the base tuning with the new level's
    /// overrides, new meshes for every collider, and the hero where it is when it still fits
    /// there, else moved to the nearest free point with a warning (the same as for a spawn inside
    /// geometry); see [`Hero::relocate`]. The world's document ([`World::document`], and so an
    /// editor on it) holds `level` afterwards. The tick count and the trace continue. On error
    /// nothing changes.
    ///
    /// [`World::warnings`] afterwards holds this swap's warnings only.
    ///
    /// [`Hero::relocate`]: crate::movement::Hero::relocate
    pub fn set_level(&mut self, level: &Level) -> Result<(), WorldError> {
        self.rebuild(level, false)?;
        self.level.replace(level.clone());
        Ok(())
    }

    /// The world's document was edited in place (the editor, through [`World::document`]): the
    /// world follows it as [`World::set_level`] would, except that the meshes are chunked
    /// ([`CollisionWorld::new_chunked`], chunks of [`EDIT_CHUNK_SIZE`]), and once they are, only
    /// the chunks that the polygons which differ from what the meshes were built from touch are
    /// built again (the world keeps that record, so it needs no copy of the level before the
    /// edit). A chunked mesh answers as a whole one does up to rounding where an edge crosses a
    /// chunk line (an ulp or so): a level played after edits can differ in the last bits from
    /// the same level loaded afresh, which [`World::set_level`] builds whole.
    ///
    /// On error the world keeps everything it derived from the level before the edit; the
    /// caller puts the document back (the editor undoes the edit) and calls this again before
    /// the next tick.
    pub fn level_edited(&mut self) -> Result<(), WorldError> {
        let doc = self.level.clone();
        let level = doc.read();
        self.rebuild(&level, true)
    }

    /// Puts `level` in the world's document and follows it as an edit ([`World::level_edited`]):
    /// what an editor's change does, for a caller that holds the whole new level. On error
    /// nothing changes (the document is put back).
    pub fn edit_level(&mut self, level: &Level) -> Result<(), WorldError> {
        let before = self.level.replace(level.clone());
        self.level_edited().inspect_err(|_| {
            self.level.replace(before);
        })
    }

    /// Builds the chunked meshes an edit needs ahead of it, when the meshes are still a whole
    /// build (a level loaded to play): the editor calls this when it opens, so that its first
    /// edit rebuilds only the chunks it touches (at 10 000 tiles a whole chunked build takes
    /// about half a second, a chunked edit under 10 ms). The world plays on its whole meshes
    /// until that edit, so nothing it does changes; the next rebuild of any kind drops them.
    pub fn prepare_edits(&mut self) -> Result<(), WorldError> {
        if self.collision.chunk_size().is_some() || self.edit_meshes.is_some() {
            return Ok(());
        }
        self.edit_meshes = Some(CollisionWorld::new_chunked(
            &self.sources,
            self.collision.shapes(),
            mesh_config(self.bounds),
            EDIT_CHUNK_SIZE,
        )?);
        Ok(())
    }

    /// Rebuilds everything the world derives from `level` (the document, or the level a swap
    /// puts in it), chunked and in part when `edit`. On error nothing changes.
    fn rebuild(&mut self, document: &Level, edit: bool) -> Result<(), WorldError> {
        // An edit starts from the chunked meshes prepared for it, which answer as the whole
        // build they were made from; put back on error.
        let prepared = self.edit_meshes.take();
        let whole = match prepared {
            Some(p) if edit && self.collision.chunk_size().is_none() => {
                Some(std::mem::replace(&mut self.collision, p))
            }
            _ => None,
        };
        let r = self.rebuild_from(document, edit);
        if let (Err(_), Some(w)) = (&r, whole) {
            self.collision = w;
        }
        r
    }

    fn rebuild_from(&mut self, document: &Level, edit: bool) -> Result<(), WorldError> {
        let played = document.played();
        let level: &Level = &played;
        let meshes = if edit {
            Meshes::Edited {
                previous: &mut self.collision,
                sources: &self.sources,
            }
        } else {
            Meshes::Whole
        };
        let mut built = match Built::new(level, &self.base_tuning, meshes) {
            Ok(b) => b,
            Err(e) => {
                if edit {
                    // The meshes may have been built again: the doors as they are now.
                    self.restore_gates();
                }
                return Err(e);
            }
        };
        // The movers where the world's clock has them before the characters are placed: one
        // placed on a mover's top rides it from there (`Hero::placed`).
        let now = self.mover_tick(self.steps);
        built
            .movers
            .place_poses(crate::sim::movers::poses_at(&built.paths, now));
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
                    // An edit handed the meshes to the new build: the previous ones are built
                    // again (whole) from what they were built from, with the doors as they are.
                    let shapes = collider_shapes(&self.tuning, &self.classes);
                    self.collision =
                        CollisionWorld::new(&self.sources, &shapes, mesh_config(self.bounds))?;
                    self.restore_gates();
                }
                return Err(e);
            }
        };
        if moved > 0.0 {
            // Drawn where it is now: no interpolated streak across the jump.
            self.prev_pos = hero.body.pos;
        }
        built.sources.update(&mut self.sources);
        self.tuning = built.tuning;
        self.collision = built.collision;
        self.ladders = built.ladders;
        self.hero.apply(Change::Replace(Box::new(hero)));
        self.agents = agents;
        self.classes = built.classes;
        self.objects.level_replaced(level);
        self.movers = built.movers;
        self.paths = built.paths;
        self.bounds = built.bounds;
        // An edit keeps each mover's clock (a new mover's starts at the shared time); a new
        // level's movers all start at the shared time.
        let shared = crate::sim::clock::MoverClock::at(self.mover_tick(self.steps));
        if !edit {
            self.clocks.clear();
        }
        self.clocks.resize(self.paths.len(), shared);
        if !edit {
            // A mover with `start: stopped` waits at its start for a signal.
            Signals::starting_clocks(level, shared.ticks(), &mut self.clocks);
        }
        // The signals built anew for the level as it is now (`sim::signals`).
        self.signals = Signals::new(level);
        self.signals.follow_clocks(&self.clocks);
        self.movers
            .place_poses(crate::sim::movers::poses_on(&self.paths, &self.clocks));
        self.warnings = warnings;
        self.expanded = match played {
            std::borrow::Cow::Owned(l) => Some(l),
            std::borrow::Cow::Borrowed(_) => None,
        };
        self.push_characters();
        Ok(())
    }

    /// Every registered kind's gates in the meshes as its state is now, after the meshes were
    /// built again from what they were built from.
    fn restore_gates(&mut self) {
        self.objects.remeshed(&mut self.collision, &self.sources);
    }

    /// Starts the level over (the pause menu's Restart, the next attempt at a level): the agents
    /// and doors as the level has them, the hero at the spawn with full health, no deaths, no
    /// checkpoint, the goal not reached. The tick count and the movers' time continue; on error
    /// nothing changes.
    pub fn restart(&mut self) -> Result<(), WorldError> {
        let doc = self.level.clone();
        let spawn = {
            let level = doc.read();
            self.rebuild(&level, false)?;
            let objects = Objects::build(&self.level());
            self.objects = objects;
            level.spawn
        };
        self.play = Play::new(&self.tuning, self.steps);
        self.place_hero(spawn)?;
        Ok(())
    }

    /// Replaces the base tuning (the tuning editor): the current level's overrides still apply
    /// on top. The meshes are rebuilt when a collider changed; the hero is re-placed as in
    /// [`World::set_level`]. On error nothing changes.
    pub fn set_base_tuning(&mut self, tuning: &Tuning) -> Result<(), WorldError> {
        let previous = std::mem::replace(&mut self.base_tuning, tuning.clone());
        let doc = self.level.clone();
        let level = doc.read();
        self.rebuild(&level, false)
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
        let changed = changed_polygons(&old.source_polygons(), &new);
        assert_eq!(changed, vec![polygon_id(1), polygon_id(2)]);
        assert!(changed_polygons(&new.source_polygons(), &new).is_empty());
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
        let back = changed_polygons(&new.source_polygons(), &old);
        assert_eq!(back, vec![polygon_id(1), polygon_id(2)]);
        assert_eq!(edited_polygons(&old, &back).len(), 1);
        // The record of what the meshes were built from follows the edit in part.
        let mut record = old.source_polygons();
        Sources::Changed {
            changed: edited,
            count: 3,
        }
        .update(&mut record);
        assert_eq!(record, new.source_polygons());
        let mut record = new.source_polygons();
        Sources::Changed {
            changed: edited_polygons(&old, &back),
            count: 2,
        }
        .update(&mut record);
        assert_eq!(record, old.source_polygons());
    }

    /// An edit made in place in the world's document is followed: the meshes are chunked and
    /// rebuilt in part, and the record of what they were built from is the document's source
    /// polygons again after each edit (a moved vertex, a door added, a polygon removed), with no
    /// copy of the level kept.
    #[test]
    fn an_edit_of_the_document_in_place_is_followed() {
        let mut w = World::new(
            &level(&format!(
                "(name: \"a\", polygons: [{FLOOR}, {BLOCK}], spawn: (0.0, 0.0))"
            )),
            &Tuning::default(),
        )
        .unwrap();
        let doc = w.document();
        assert!(doc.same(&w.document()));
        doc.edit(|l| l.polygons[1].points[1].x = 2.5);
        w.level_edited().unwrap();
        assert!(w.collision().chunk_size().is_some());
        assert_eq!(w.sources, doc.read().source_polygons());
        let door = level(&format!(
            "(name: \"d\", polygons: [], doors: [{DOOR}], spawn: (0.0, 0.0))"
        ))
        .doors[0]
            .clone();
        doc.edit(|l| l.doors.push(door));
        w.level_edited().unwrap();
        assert_eq!(w.sources, doc.read().source_polygons());
        assert_eq!(w.doors().len(), 1);
        doc.edit(|l| {
            l.polygons.remove(1);
        });
        w.level_edited().unwrap();
        assert_eq!(w.sources, doc.read().source_polygons());
        assert_eq!(w.level().polygons.len(), 1);
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
