//! The level's moving objects drawn as solid parts of the world: each mover and each door becomes
//! a slab made by the level's own extrusion (`level_mesh::extrude_polygon`: the same depth, bevel
//! and lighting as the static geometry, and the same shadows), built once per level in the rest
//! pose, then placed each frame by a transform of its vertices: a mover at its pose between its
//! last two ticks (offset and turn about its pivot), a door closed, open, or on its way between
//! as the view draws it ([`crate::view::DoorMotion`]). No outline is triangulated again per frame.
//!
//! A hazard that signals turn on and off (`LevelPolygon::is_switched`) has its spikes here (or
//! its lava or saw blades, by its look: `hazard_look`), twice: on (spikes raised) and off (sunk
//! into its bed, the lava crusted); each frame
//! the set its state does not show is collapsed to a point (no area, nothing drawn). Its bed is
//! the level's slab.
//!
//! The checkpoints and the goal are here too (`marker_mesh`): a checkpoint's flag twice, lowered
//! and raised, the one its state does not show collapsed as the spikes are; the goal's gate
//! always as built.
//!
//! A door is drawn as a shutter: it rolls up towards its top as it opens, down to a lintel
//! ([`DOOR_LINTEL`] of its height), so an open door still shows where it is. It stands a little
//! behind the level's slabs ([`DOOR_HALF_DEPTH`]), recessed in the frame its pillars make.
//!
//! # Must never depend on
//! The GPU: this is CPU geometry, uploaded by the renderer. It reads the level's objects and the
//! world's poses, never writes them.
use glam::{DVec2, Vec3};

use super::level_mesh::{extrude_polygon, hazard_dressing, SlabConfig};
use super::marker_mesh::{checkpoint_flag, checkpoint_post, goal_gate};
use super::palette::{lighten, material_style, SurfaceStyle};
use super::vertex::MeshVertex;
use crate::collision::Aabb;
use crate::level::{Level, PolygonKind};

/// Half depth of a door's slab, m: behind the solid slabs' fronts (1.2 m by default), so a door
/// reads as set into its frame.
pub const DOOR_HALF_DEPTH: f32 = 0.9;

/// The part of a door's height still drawn when it is fully open (its lintel), 0 to 1.
pub const DOOR_LINTEL: f64 = 0.12;

/// Which object a run of vertices draws.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Object {
    /// Mover `index`, turning about `pivot`.
    Mover { index: usize, pivot: DVec2 },
    /// Door `index`, whose outline's top edge is at `top` (m).
    Door { index: usize, top: f64 },
    /// The spikes of the hazard that is polygon `polygon`: raised up to vertex `raised` (in
    /// `rest`), sunk from there.
    Spikes { polygon: usize, raised: usize },
    /// Checkpoint `index`: its post, then its lowered flag from vertex `lowered` (in `rest`),
    /// its raised one from `raised`.
    Checkpoint {
        index: usize,
        lowered: usize,
        raised: usize,
    },
    /// Drawn as built, never moved (the goal's gate).
    Still,
}

/// The movers' and doors' slabs in the rest pose, and where each object's vertices lie.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectMesh {
    /// Every object's vertices in the level's coordinates at its rest pose (a door closed).
    rest: Vec<MeshVertex>,
    /// Triangle list into the vertices (the same for every pose).
    pub indices: Vec<u32>,
    /// Per object, what it is and the end of its vertices in `rest` (each starts where the
    /// previous one ends).
    objects: Vec<(Object, usize)>,
}

/// How a mover looks: metal, as the solid level's movers are built; a one-way mover lighter and
/// striped as one-way platforms are.
fn mover_style(one_way: bool) -> SurfaceStyle {
    let metal = material_style(Some("metal"), PolygonKind::Solid);
    if one_way {
        SurfaceStyle {
            side: lighten(metal.side, 0.25),
            top: lighten(metal.top, 0.25),
            stripes: true,
        }
    } else {
        metal
    }
}

/// How a door looks: wooden planks.
fn door_style() -> SurfaceStyle {
    SurfaceStyle {
        stripes: true,
        ..material_style(Some("wood"), PolygonKind::Solid)
    }
}

impl ObjectMesh {
    /// The slabs of `level`'s movers (every piece, as deep as a solid or one-way slab of `cfg`)
    /// and doors ([`DOOR_HALF_DEPTH`]), with `cfg`'s bevel.
    pub fn build(level: &Level, cfg: &SlabConfig) -> ObjectMesh {
        let mut out = ObjectMesh::default();
        for (index, m) in level.movers.iter().enumerate() {
            let (half, style) = if m.one_way {
                (cfg.one_way_half_depth, mover_style(true))
            } else {
                (cfg.solid_half_depth, mover_style(false))
            };
            for piece in &m.pieces {
                extrude_polygon(
                    piece,
                    half,
                    cfg.bevel,
                    &style,
                    &mut out.rest,
                    &mut out.indices,
                );
            }
            let pivot = m.pivot_point();
            out.objects
                .push((Object::Mover { index, pivot }, out.rest.len()));
        }
        for (index, d) in level.doors.iter().enumerate() {
            extrude_polygon(
                &d.points,
                DOOR_HALF_DEPTH,
                cfg.bevel,
                &door_style(),
                &mut out.rest,
                &mut out.indices,
            );
            let top = d.points.iter().fold(f64::MIN, |t, p| t.max(p.y));
            out.objects
                .push((Object::Door { index, top }, out.rest.len()));
        }
        for (polygon, p) in level.polygons.iter().enumerate() {
            if p.kind != PolygonKind::Hazard || !p.is_switched() {
                continue;
            }
            hazard_dressing(
                &p.points,
                p.look,
                true,
                cfg,
                &mut out.rest,
                &mut out.indices,
            );
            let raised = out.rest.len();
            hazard_dressing(
                &p.points,
                p.look,
                false,
                cfg,
                &mut out.rest,
                &mut out.indices,
            );
            out.objects
                .push((Object::Spikes { polygon, raised }, out.rest.len()));
        }
        for (index, c) in level.checkpoints.iter().enumerate() {
            checkpoint_post(c, &mut out.rest, &mut out.indices);
            let lowered = out.rest.len();
            checkpoint_flag(c, false, &mut out.rest, &mut out.indices);
            let raised = out.rest.len();
            checkpoint_flag(c, true, &mut out.rest, &mut out.indices);
            out.objects.push((
                Object::Checkpoint {
                    index,
                    lowered,
                    raised,
                },
                out.rest.len(),
            ));
        }
        if let Some(g) = &level.goal {
            goal_gate(g, &mut out.rest, &mut out.indices);
            out.objects.push((Object::Still, out.rest.len()));
        }
        out
    }

    /// Whether there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Vertices in the rest pose (as many as every pose has).
    pub fn vertex_count(&self) -> usize {
        self.rest.len()
    }

    /// Writes every object's vertices, placed, into `out`: mover `m` at `mover(m)` (its pose
    /// this frame), door `d` opened by `door(d)` (0 closed to 1 open), the spikes of the
    /// hazard that is polygon `p` raised if `hazard(p)` (on), else sunk. An object the
    /// callbacks do not know (a level changed since the build) stays at rest. Checkpoint `c`'s
    /// flag is raised if `checkpoint == Some(c)` (the hero's respawn point), else lowered.
    pub fn place_into(
        &self,
        mover: impl Fn(usize) -> Option<crate::collision::Pose>,
        door: impl Fn(usize) -> f64,
        hazard: impl Fn(usize) -> bool,
        checkpoint: Option<usize>,
        out: &mut Vec<MeshVertex>,
    ) {
        out.clear();
        out.extend_from_slice(&self.rest);
        let mut start = 0;
        for &(object, end) in &self.objects {
            if let Object::Spikes { polygon, raised } = object {
                let hidden = if hazard(polygon) {
                    raised..end
                } else {
                    start..raised
                };
                collapse(&mut out[hidden]);
            }
            if let Object::Checkpoint {
                index,
                lowered,
                raised,
            } = object
            {
                let hidden = if checkpoint == Some(index) {
                    lowered..raised
                } else {
                    raised..end
                };
                collapse(&mut out[hidden]);
            }
            let vertices = &mut out[start..end];
            start = end;
            match object {
                Object::Mover { index, pivot } => {
                    if let Some(pose) = mover(index) {
                        place_mover(vertices, pose, pivot);
                    }
                }
                Object::Door { index, top } => {
                    let keep = (1.0 - door(index).clamp(0.0, 1.0)).max(DOOR_LINTEL);
                    if keep < 1.0 {
                        roll_up(vertices, top, keep);
                    }
                }
                Object::Spikes { .. } | Object::Checkpoint { .. } | Object::Still => {}
            }
        }
    }

    /// The box in the play plane of the objects placed in `vertices` (from [`Self::place_into`]),
    /// or `None` for none.
    pub fn bounds(vertices: &[MeshVertex]) -> Option<Aabb> {
        (!vertices.is_empty()).then(|| {
            Aabb::from_points(
                vertices
                    .iter()
                    .map(|v| DVec2::new(v.position[0] as f64, v.position[1] as f64)),
            )
        })
    }
}

/// Moves a mover's vertices from its rest pose to `pose` (turned about `pivot`, then offset).
fn place_mover(vertices: &mut [MeshVertex], pose: crate::collision::Pose, pivot: DVec2) {
    let (s, c) = pose.angle.sin_cos();
    for v in vertices {
        let p = DVec2::new(v.position[0] as f64, v.position[1] as f64);
        let d = p - pivot;
        let q = pivot + DVec2::new(c * d.x - s * d.y, s * d.x + c * d.y) + pose.offset;
        v.position[0] = q.x as f32;
        v.position[1] = q.y as f32;
        let [nx, ny, nz] = v.normal;
        let (s, c) = (s as f32, c as f32);
        v.normal = [c * nx - s * ny, s * nx + c * ny, nz];
    }
}

/// Puts every one of `vertices` at the first one's place: triangles with no area, not drawn.
fn collapse(vertices: &mut [MeshVertex]) {
    if let Some(first) = vertices.first().map(|v| v.position) {
        for v in vertices {
            v.position = first;
        }
    }
}

/// Squeezes a door's vertices towards its `top` to `keep` of their distance from it (a shutter
/// rolled up), normals turned as the squeeze turns the surfaces.
fn roll_up(vertices: &mut [MeshVertex], top: f64, keep: f64) {
    let k = keep as f32;
    let top = top as f32;
    for v in vertices {
        v.position[1] = top - (top - v.position[1]) * k;
        let n = Vec3::new(v.normal[0], v.normal[1] / k, v.normal[2]).normalize();
        v.normal = n.to_array();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::Pose;
    use crate::level::{LevelDoor, LevelMover, LevelPolygon};
    use crate::render::spike_mesh::{SPIKE_HEIGHT, SUNK_SPIKE_HEIGHT};

    fn level() -> Level {
        let mut level = Level::empty("objects");
        let mover: LevelMover = ron::from_str(
            "(pieces: [[(0.0, 0.0), (2.0, 0.0), (2.0, 0.5), (0.0, 0.5)]], path: [(0.0, 0.0), (4.0, 0.0)], period: 2.0)",
        )
        .unwrap();
        level.movers.push(mover);
        let door: LevelDoor =
            ron::from_str("(points: [(5.0, 0.0), (5.5, 0.0), (5.5, 3.0), (5.0, 3.0)])").unwrap();
        level.doors.push(door);
        level
    }

    #[test]
    fn a_mover_is_the_slab_its_outline_makes_as_a_level_polygon() {
        let cfg = SlabConfig::default();
        let lvl = level();
        let objects = ObjectMesh::build(&lvl, &cfg);
        let as_polygon = crate::render::LevelGeometry::build(
            &Level {
                polygons: vec![LevelPolygon::solid(lvl.movers[0].pieces[0].clone())],
                ..Level::empty("one")
            },
            &cfg,
        );
        let mut placed = Vec::new();
        objects.place_into(|_| None, |_| 0.0, |_| true, None, &mut placed);
        let positions = |v: &[MeshVertex]| v.iter().map(|v| v.position).collect::<Vec<_>>();
        let as_polygon = as_polygon.used_vertices();
        let mover = &placed[..as_polygon.len()];
        assert_eq!(positions(mover), positions(&as_polygon));
        assert!(placed.len() > as_polygon.len(), "and the door's");
        assert_eq!(objects.vertex_count(), placed.len());
    }

    #[test]
    fn a_mover_is_placed_at_its_pose_turned_about_its_pivot() {
        let objects = ObjectMesh::build(&level(), &SlabConfig::default());
        let mut placed = Vec::new();
        let pose = Pose {
            offset: DVec2::new(3.0, 1.0),
            angle: std::f64::consts::FRAC_PI_2,
        };
        objects.place_into(
            |m| (m == 0).then_some(pose),
            |_| 0.0,
            |_| true,
            None,
            &mut placed,
        );
        let moved = &placed[..objects.objects[0].1];
        let b = ObjectMesh::bounds(moved).unwrap();
        // The 2 × 0.5 bar turned a quarter about its centre (1, 0.25), then offset by (3, 1).
        assert!((b.min - DVec2::new(3.75, 0.25)).length() < 1e-5, "{b:?}");
        assert!((b.max - DVec2::new(4.25, 2.25)).length() < 1e-5, "{b:?}");
        // The front face still faces the eye; a wall that faced up now faces left.
        assert!(moved
            .iter()
            .any(|v| (Vec3::from(v.normal) - Vec3::NEG_X).length() < 1e-5));
        assert!(moved.iter().any(|v| v.normal == [0.0, 0.0, 1.0]));
    }

    #[test]
    fn a_door_rolls_up_to_its_lintel_as_it_opens() {
        let objects = ObjectMesh::build(&level(), &SlabConfig::default());
        let mut placed = Vec::new();
        let door_box = |open: f64, placed: &mut Vec<MeshVertex>| {
            objects.place_into(|_| None, |_| open, |_| true, None, placed);
            ObjectMesh::bounds(&placed[objects.objects[0].1..]).unwrap()
        };
        let shut = door_box(0.0, &mut placed);
        assert!((shut.min.y - 0.0).abs() < 1e-6 && (shut.max.y - 3.0).abs() < 1e-6);
        let half = door_box(0.5, &mut placed);
        assert!((half.min.y - 1.5).abs() < 1e-6, "{half:?}");
        let open = door_box(1.0, &mut placed);
        assert!(
            (open.min.y - 3.0 * (1.0 - DOOR_LINTEL)).abs() < 1e-5,
            "{open:?}"
        );
        assert!((open.max.y - 3.0).abs() < 1e-6);
        assert!(placed
            .iter()
            .all(|v| (Vec3::from(v.normal).length() - 1.0).abs() < 1e-5));
    }

    /// A switched hazard's spikes are the objects' (not its slab's): raised while it is on,
    /// sunk into its bed while it is off; a hazard never switched keeps its spikes in the slab.
    #[test]
    fn a_switched_hazards_spikes_stand_while_it_is_on_and_sink_while_it_is_off() {
        let bed = |off: bool| LevelPolygon {
            kind: PolygonKind::Hazard,
            off,
            ..LevelPolygon::solid(vec![
                DVec2::new(0.0, 0.0),
                DVec2::new(2.0, 0.0),
                DVec2::new(2.0, 0.3),
                DVec2::new(0.0, 0.3),
            ])
        };
        let cfg = SlabConfig::default();
        let level = |off: bool| Level {
            polygons: vec![LevelPolygon::solid(vec![]), bed(off)],
            ..Level::empty("bed")
        };
        assert!(ObjectMesh::build(&level(false), &cfg).is_empty());
        let objects = ObjectMesh::build(&level(true), &cfg);
        let slab = crate::render::LevelGeometry::build(&level(true), &cfg);
        let plain = crate::render::LevelGeometry::build(&level(false), &cfg);
        assert!(
            slab.vertices.len() < plain.vertices.len(),
            "no spikes in the slab"
        );
        let mut placed = Vec::new();
        let top = |on: bool, placed: &mut Vec<MeshVertex>| {
            objects.place_into(|_| None, |_| 0.0, |p| on && p == 1, None, placed);
            ObjectMesh::bounds(placed).unwrap().max.y
        };
        assert!((top(true, &mut placed) - (0.3 + SPIKE_HEIGHT)).abs() < 1e-6);
        assert!((top(false, &mut placed) - (0.3 + SUNK_SPIKE_HEIGHT)).abs() < 1e-6);
    }

    /// A checkpoint's flag is raised only while it is the hero's respawn point; its post and
    /// the goal's gate stay where they were built.
    #[test]
    fn a_checkpoints_flag_is_raised_while_it_is_the_respawn_point() {
        let region = Aabb {
            min: DVec2::new(10.0, 0.0),
            max: DVec2::new(11.0, 2.5),
        };
        let level = Level {
            checkpoints: vec![region],
            goal: Some(Aabb {
                min: DVec2::new(20.0, 0.0),
                max: DVec2::new(22.0, 3.0),
            }),
            ..Level::empty("markers")
        };
        let objects = ObjectMesh::build(&level, &SlabConfig::default());
        let end = objects.objects[0].1;
        let flag_bottom = |reached: Option<usize>| {
            let mut placed = Vec::new();
            objects.place_into(|_| None, |_| 0.0, |_| true, reached, &mut placed);
            let goal = ObjectMesh::bounds(&placed[end..]).unwrap();
            assert!(goal.min.x >= 20.0 && goal.max.y > 3.0, "{goal:?}");
            let Object::Checkpoint { lowered, .. } = objects.objects[0].0 else {
                panic!("the checkpoint first");
            };
            // The shown flag's lowest and highest points (the hidden one is collapsed to a
            // point: its triangles have no area).
            let at = |i: u32| Vec3::from_array(placed[i as usize].position);
            objects
                .indices
                .chunks(3)
                .filter(|t| t.iter().all(|&i| (lowered..end).contains(&(i as usize))))
                .filter(|t| (at(t[1]) - at(t[0])).cross(at(t[2]) - at(t[0])).length() > 0.0)
                .flat_map(|t| t.iter().map(|&i| at(i).y))
                .fold((f32::MAX, f32::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)))
        };
        let (down_lo, _) = flag_bottom(None);
        let (up_lo, up_hi) = flag_bottom(Some(0));
        assert!(
            up_hi > 1.9 && up_lo > down_lo + 0.8,
            "{up_hi} {up_lo} {down_lo}"
        );
        assert_eq!(
            flag_bottom(Some(1)).0,
            down_lo,
            "another checkpoint reached"
        );
    }
}
