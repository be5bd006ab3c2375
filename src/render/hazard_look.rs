//! What stands on a hazard's slab, by its look (`LevelPolygon::look`): steel spikes
//! (`spike_mesh`), a skin of glowing lava over its front and top, or round saw blades standing
//! half out of its top edges. The same geometry on and off (as many vertices: the moving objects
//! swap the two, `object_mesh`): spikes and blades sunk into the bed while the hazard is off,
//! the lava's skin a dark crust.
//!
//! Drawing only: every look hurts by the polygon's outline alone, by the same rule of play.
//!
//! # Must never depend on
//! The GPU or the simulation's state: CPU geometry from the level's outline.
use glam::{DVec2, Vec3};

use super::marker_mesh::GLOW;
use super::spike_mesh::{add_spikes_of, SPIKE_HEIGHT, SUNK_SPIKE_HEIGHT};
use super::vertex::MeshVertex;
use crate::level::HazardLook;

/// Lava's front, glowing (linear RGB): deep orange.
pub const LAVA_FRONT: [f32; 3] = [0.9, 0.08, 0.01];
/// Lava's top, glowing: yellow-orange, brighter than its front.
pub const LAVA_TOP: [f32; 3] = [1.0, 0.42, 0.04];
/// An off lava's crust, lit: near black.
pub const LAVA_CRUST: [f32; 3] = [0.09, 0.05, 0.04];
/// A saw blade's radius, m.
pub const SAW_RADIUS: f64 = 0.45;
/// How far apart saw blades stand along an edge, at least, m.
pub const SAW_PITCH: f64 = 1.0;

/// How far a lava skin stands off its slab, m (in front of the front face, above the top).
const SKIN: f32 = 0.01;
const SAW_TEETH: usize = 14;
const SAW_HALF_THICK: f32 = 0.03;
const SAW_HUB: [f32; 3] = [0.08, 0.08, 0.09];
/// A blade's steel: darker than the spikes', so it stands out against a pale sky.
const SAW_STEEL: [f32; 3] = [0.3, 0.31, 0.35];

/// Appends what stands on the hazard outline `pts` (counter-clockwise, distinct points; its slab
/// `half` deep each side of the play plane) in `look`: `on`, or off (sunk, or crusted).
pub fn add_look(
    look: HazardLook,
    pts: &[DVec2],
    front: &[[u32; 3]],
    half: f32,
    on: bool,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    match look {
        HazardLook::Spikes => {
            let height = if on { SPIKE_HEIGHT } else { SUNK_SPIKE_HEIGHT };
            add_spikes_of(pts, half, height, vertices, indices);
        }
        HazardLook::Lava => add_lava(pts, front, half, on, vertices, indices),
        HazardLook::Saw => add_saws(pts, half, on, vertices, indices),
    }
}

/// Pushes the triangle `a b c` facing `normal` (wound to it), in `colour`, glowing by `glow`
/// (the checkpoints' and the goal's faces too, `marker_mesh`).
pub(super) fn triangle(
    [a, b, c]: [Vec3; 3],
    normal: Vec3,
    colour: [f32; 3],
    glow: f32,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let (b, c) = if (b - a).cross(c - a).dot(normal) < 0.0 {
        (c, b)
    } else {
        (b, c)
    };
    let start = vertices.len() as u32;
    for q in [a, b, c] {
        vertices.push(MeshVertex {
            position: q.to_array(),
            normal: normal.to_array(),
            color: colour,
            stripes: glow,
        });
    }
    indices.extend_from_slice(&[start, start + 1, start + 2]);
}

/// The lava's skin: the outline's front (triangles `front` over `pts`) just before the slab's
/// front face, and a strip across the depth just above every edge that faces up.
fn add_lava(
    pts: &[DVec2],
    front: &[[u32; 3]],
    half: f32,
    on: bool,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let (front_colour, top_colour, glow) = if on {
        (LAVA_FRONT, LAVA_TOP, GLOW)
    } else {
        (LAVA_CRUST, LAVA_CRUST, 0.0)
    };
    let at = |p: DVec2, z: f32| Vec3::new(p.x as f32, p.y as f32, z);
    for t in front {
        let corners = t.map(|i| at(pts[i as usize], half + SKIN));
        triangle(corners, Vec3::Z, front_colour, glow, vertices, indices);
    }
    let n = pts.len();
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        let along = (b - a).normalize_or_zero();
        let out = DVec2::new(along.y, -along.x);
        if out.y < 0.3 {
            continue;
        }
        let lift = out * SKIN as f64;
        let normal = Vec3::new(out.x as f32, out.y as f32, 0.0);
        let (a, b) = (a + lift, b + lift);
        let quad = [at(a, -half), at(b, -half), at(b, half), at(a, half)];
        for tri in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
            triangle(tri, normal, top_colour, glow, vertices, indices);
        }
    }
}

/// Saw blades along every edge that faces up and fits one ([`SAW_PITCH`] apart at least), in one
/// row in front of the slab's middle: each centred on its edge while the hazard is on (half of it out),
/// sunk until only its teeth show while it is off.
fn add_saws(
    pts: &[DVec2],
    half: f32,
    on: bool,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let n = pts.len();
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        let len = a.distance(b);
        if len < SAW_RADIUS * 2.0 {
            continue;
        }
        let along = (b - a) / len;
        let out = DVec2::new(along.y, -along.x);
        if out.y < 0.3 {
            continue;
        }
        let count = (len / SAW_PITCH).floor().max(1.0) as usize;
        let step = len / count as f64;
        let sink = if on { 0.0 } else { SAW_RADIUS * 0.8 };
        for k in 0..count {
            let centre = a + along * (step * (k as f64 + 0.5)) - out * sink;
            add_blade(centre, half * 0.4, vertices, indices);
        }
    }
}

/// One saw blade at `centre`, its middle at depth `z`, facing the eye: a disc of
/// [`SAW_TEETH`] teeth ([`SAW_RADIUS`] at their tips, one at the top) and a dark hub.
fn add_blade(centre: DVec2, z: f32, vertices: &mut Vec<MeshVertex>, indices: &mut Vec<u32>) {
    let outline: Vec<DVec2> = (0..SAW_TEETH * 2)
        .map(|k| {
            let angle = (k as f64 + 1.0) * std::f64::consts::PI / SAW_TEETH as f64;
            // A tooth's tip leads, its back slopes down to the next: a saw's hooked teeth.
            let r = if k % 2 == 0 {
                SAW_RADIUS
            } else {
                SAW_RADIUS * 0.8
            };
            centre + DVec2::from_angle(angle) * r
        })
        .collect();
    add_disc(
        centre,
        &outline,
        z,
        SAW_HALF_THICK,
        SAW_STEEL,
        vertices,
        indices,
    );
    let hub: Vec<DVec2> = (0..8)
        .map(|k| centre + DVec2::from_angle(k as f64 * std::f64::consts::FRAC_PI_4) * 0.08)
        .collect();
    add_disc(
        centre,
        &hub,
        z,
        SAW_HALF_THICK + 0.01,
        SAW_HUB,
        vertices,
        indices,
    );
}

/// The outline (star-shaped about `centre`, counter-clockwise) extruded `half` m each side of
/// depth `z`: its front and back fanned from `centre`, a wall on each edge.
fn add_disc(
    centre: DVec2,
    outline: &[DVec2],
    z: f32,
    half: f32,
    colour: [f32; 3],
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let at = |p: DVec2, dz: f32| Vec3::new(p.x as f32, p.y as f32, z + dz);
    let n = outline.len();
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        for (dz, normal) in [(half, Vec3::Z), (-half, Vec3::NEG_Z)] {
            triangle(
                [at(centre, dz), at(a, dz), at(b, dz)],
                normal,
                colour,
                0.0,
                vertices,
                indices,
            );
        }
        let d = (b - a).normalize_or_zero();
        let normal = Vec3::new(d.y as f32, -d.x as f32, 0.0);
        let quad = [at(a, -half), at(b, -half), at(b, half), at(a, half)];
        for tri in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
            triangle(tri, normal, colour, 0.0, vertices, indices);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bed() -> Vec<DVec2> {
        vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 0.3),
            DVec2::new(0.0, 0.3),
        ]
    }

    fn build(look: HazardLook, on: bool) -> (Vec<MeshVertex>, Vec<u32>) {
        let (mut v, mut i) = (Vec::new(), Vec::new());
        add_look(
            look,
            &bed(),
            &[[0, 1, 2], [0, 2, 3]],
            1.2,
            on,
            &mut v,
            &mut i,
        );
        (v, i)
    }

    fn top(v: &[MeshVertex]) -> f32 {
        v.iter().map(|v| v.position[1]).fold(f32::MIN, f32::max)
    }

    #[test]
    fn every_look_has_as_many_vertices_on_and_off_and_faces_wound_to_their_normals() {
        for look in [HazardLook::Spikes, HazardLook::Lava, HazardLook::Saw] {
            let (on, on_i) = build(look, true);
            let (off, off_i) = build(look, false);
            assert!(!on.is_empty(), "{look:?}");
            assert_eq!((on.len(), on_i.len()), (off.len(), off_i.len()), "{look:?}");
            for t in on_i.chunks(3) {
                let [a, b, c] = [0, 1, 2].map(|k| Vec3::from_array(on[t[k] as usize].position));
                let n = Vec3::from_array(on[t[0] as usize].normal);
                assert!((b - a).cross(c - a).normalize().dot(n) > 0.99, "{look:?}");
            }
        }
    }

    #[test]
    fn lava_glows_on_its_front_and_top_while_on_and_is_a_crust_while_off() {
        let (on, _) = build(HazardLook::Lava, true);
        assert!(on.iter().all(|v| v.stripes == GLOW));
        assert!((top(&on) - 0.31).abs() < 1e-5, "a skin, no spikes");
        assert!(
            on.iter().any(|v| v.position[2] > 1.2),
            "over the front face"
        );
        let (off, _) = build(HazardLook::Lava, false);
        assert!(off
            .iter()
            .all(|v| v.stripes == 0.0 && v.color == LAVA_CRUST));
    }

    #[test]
    fn saw_blades_stand_half_out_of_the_top_and_sink_while_off() {
        let (on, _) = build(HazardLook::Saw, true);
        assert!((top(&on) as f64 - (0.3 + SAW_RADIUS)).abs() < 1e-5);
        let (off, _) = build(HazardLook::Saw, false);
        assert!((top(&off) as f64 - (0.3 + SAW_RADIUS * 0.2)).abs() < 1e-5);
        // Two blades along the 2 m top (1 m apart at least); none on the 0.3 m ends.
        let xs: std::collections::BTreeSet<i32> = on
            .iter()
            .map(|v| (v.position[0] * 10.0).round() as i32)
            .filter(|x| *x == 5 || *x == 15)
            .collect();
        assert_eq!(xs.len(), 2, "{xs:?}");
    }
}
