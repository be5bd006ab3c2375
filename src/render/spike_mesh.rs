//! Spikes along a hazard polygon's exposed edges (`kind: hazard`, the default look:
//! `hazard_look`), so that a player reads danger
//! at a glance rather than a red crate: rows of steel pyramids standing out of every edge that
//! does not face down, across the slab's depth. Part of the static level geometry
//! (`level_mesh`), built once per level with the hazard's slab.
//!
//! The spikes are drawing only: they stand outside the polygon by [`SPIKE_HEIGHT`], while the
//! simulation hurts by the polygon's outline alone. A hazard that signals turn on and off
//! (`LevelPolygon::is_switched`) has its spikes drawn with the moving objects instead
//! (`object_mesh`), raised while it is on and sunk into its bed ([`SUNK_SPIKE_HEIGHT`]) while
//! it is off.
//!
//! # Must never depend on
//! The GPU or the simulation's state: CPU geometry from the level's outline.
use glam::{DVec2, Vec3};

use super::vertex::MeshVertex;

/// Width of a spike's base along its edge, and across the depth, m.
pub const SPIKE_WIDTH: f64 = 0.25;
/// How far a spike stands out of its edge, m.
pub const SPIKE_HEIGHT: f64 = 0.3;
/// Most rows of spikes across a slab's depth (the front row is what a player sees; the others
/// show the bed from above).
pub const SPIKE_ROWS: usize = 4;
/// How far an off hazard's spikes stand out of their edge, m: sunk into the bed, their tips
/// just showing.
pub const SUNK_SPIKE_HEIGHT: f64 = 0.05;
/// The spikes' albedo, linear RGB: pale steel, bright against the hazard's dark red base.
pub const SPIKE_COLOUR: [f32; 3] = [0.62, 0.63, 0.68];

/// Appends the spikes of the counter-clockwise outline `pts` (its slab `half` deep each side of
/// the play plane) to `vertices` and `indices`, standing `height` m out of their edges
/// ([`SPIKE_HEIGHT`] on, [`SUNK_SPIKE_HEIGHT`] off: as many vertices for every height): along
/// each edge at least [`SPIKE_WIDTH`] long whose outward normal does not point down, as many
/// spikes as fit, in up to [`SPIKE_ROWS`] rows.
pub fn add_spikes_of(
    pts: &[DVec2],
    half: f32,
    height: f64,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let n = pts.len();
    let rows = ((2.0 * half as f64 / (2.0 * SPIKE_WIDTH)).floor() as usize).clamp(1, SPIKE_ROWS);
    let row_pitch = 2.0 * half as f64 / rows as f64;
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        let len = a.distance(b);
        if len < SPIKE_WIDTH {
            continue;
        }
        let along = (b - a) / len;
        let out = DVec2::new(along.y, -along.x);
        if out.y < -0.3 {
            continue;
        }
        let count = (len / SPIKE_WIDTH).floor() as usize;
        let width = len / count as f64;
        for k in 0..count {
            let centre = a + along * (width * (k as f64 + 0.5));
            for r in 0..rows {
                let z = -half as f64 + row_pitch * (r as f64 + 0.5);
                add_pyramid(
                    centre,
                    along * (width / 2.0),
                    out * height,
                    z,
                    vertices,
                    indices,
                );
            }
        }
    }
}

/// One spike: a four-sided pyramid on the base centred at `centre` (depth `z`), half as wide as
/// `half_along` along the edge and [`SPIKE_WIDTH`] deep, its apex at `centre + out`.
fn add_pyramid(
    centre: DVec2,
    half_along: DVec2,
    out: DVec2,
    z: f64,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let p = |q: DVec2, z: f64| Vec3::new(q.x as f32, q.y as f32, z as f32);
    let dz = SPIKE_WIDTH / 2.0;
    let base = [
        p(centre - half_along, z - dz),
        p(centre + half_along, z - dz),
        p(centre + half_along, z + dz),
        p(centre - half_along, z + dz),
    ];
    let apex = p(centre + out, z);
    let middle = p(centre, z);
    for s in 0..4 {
        let (mut u, mut v) = (base[s], base[(s + 1) % 4]);
        let mut normal = (v - u).cross(apex - u).normalize_or_zero();
        // Outward: away from the base's centre.
        if normal.dot((u + v) / 2.0 - middle) < 0.0 {
            std::mem::swap(&mut u, &mut v);
            normal = -normal;
        }
        let start = vertices.len() as u32;
        for q in [u, v, apex] {
            vertices.push(MeshVertex {
                position: q.to_array(),
                normal: normal.to_array(),
                color: SPIKE_COLOUR,
                stripes: 0.0,
            });
        }
        indices.extend_from_slice(&[start, start + 1, start + 2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_metre_bed_gets_spikes_on_its_top_and_ends_and_none_underneath() {
        let bed = [
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 0.3),
            DVec2::new(0.0, 0.3),
        ];
        let (mut v, mut i) = (Vec::new(), Vec::new());
        add_spikes_of(&bed, 1.2, SPIKE_HEIGHT, &mut v, &mut i);
        // 8 along the top and one on each end, in 4 rows; 4 triangles each.
        assert_eq!(i.len(), (8 + 2) * 4 * 4 * 3);
        let top = v.iter().map(|v| v.position[1]).fold(f32::MIN, f32::max);
        assert!((top as f64 - (0.3 + SPIKE_HEIGHT)).abs() < 1e-6, "{top}");
        assert!(
            v.iter().all(|v| v.position[1] >= 0.0),
            "nothing below the bed"
        );
        // Every triangle faces the way its normal points.
        for t in i.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from_array(v[t[k] as usize].position));
            let n = Vec3::from_array(v[t[0] as usize].normal);
            assert!((b - a).cross(c - a).normalize().dot(n) > 0.99);
        }
    }
}
