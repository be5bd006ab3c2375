//! Ladders as geometry: two rails and rungs every [`RUNG_SPACING`] metres, thin wooden boxes
//! standing just behind the play plane so the hero climbs in front of them.
use glam::Vec3;

use super::palette::srgb;
use super::vertex::MeshVertex;
use crate::level::Ladder;

/// Distance between rungs, m: the movement's, so the rung sounds match the rungs drawn.
pub use crate::movement::climbing::RUNG_SPACING;
/// Depth of the ladder's centre plane (behind the hero).
const Z: f32 = -0.55;
/// Rail and rung thickness, m.
const BAR: f32 = 0.07;

/// Appends a ladder's boxes (indexed, outward-facing) to `vertices`/`indices`.
pub fn add_ladder(vertices: &mut Vec<MeshVertex>, indices: &mut Vec<u32>, ladder: &Ladder) {
    let (lo, hi) = (ladder.min.as_vec2(), ladder.max.as_vec2());
    if !(lo.is_finite() && hi.is_finite() && hi.x > lo.x && hi.y > lo.y) {
        return;
    }
    let rail = srgb(0x7a5230);
    let rung = srgb(0x9a6b40);
    let z = (Z - BAR / 2.0, Z + BAR / 2.0);
    for x in [lo.x, hi.x - BAR] {
        push_box(
            vertices,
            indices,
            Vec3::new(x, lo.y, z.0),
            Vec3::new(x + BAR, hi.y, z.1),
            rail,
        );
    }
    let n = ((hi.y - lo.y) as f64 / RUNG_SPACING).floor() as u32;
    for k in 1..=n {
        let y = lo.y + k as f32 * RUNG_SPACING as f32 - BAR;
        if y + BAR <= hi.y {
            push_box(
                vertices,
                indices,
                Vec3::new(lo.x + BAR, y, z.0 + 0.01),
                Vec3::new(hi.x - BAR, y + BAR * 0.8, z.1 - 0.01),
                rung,
            );
        }
    }
}

/// An axis-aligned box: six flat-shaded faces, counter-clockwise seen from outside.
fn push_box(
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
    min: Vec3,
    max: Vec3,
    color: [f32; 3],
) {
    let c = |x: bool, y: bool, z: bool| {
        [
            if x { max.x } else { min.x },
            if y { max.y } else { min.y },
            if z { max.z } else { min.z },
        ]
    };
    let faces: [([f32; 3], [[f32; 3]; 4]); 6] = [
        (
            [1.0, 0.0, 0.0],
            [
                c(true, false, false),
                c(true, true, false),
                c(true, true, true),
                c(true, false, true),
            ],
        ),
        (
            [-1.0, 0.0, 0.0],
            [
                c(false, false, true),
                c(false, true, true),
                c(false, true, false),
                c(false, false, false),
            ],
        ),
        (
            [0.0, 1.0, 0.0],
            [
                c(false, true, true),
                c(true, true, true),
                c(true, true, false),
                c(false, true, false),
            ],
        ),
        (
            [0.0, -1.0, 0.0],
            [
                c(false, false, false),
                c(true, false, false),
                c(true, false, true),
                c(false, false, true),
            ],
        ),
        (
            [0.0, 0.0, 1.0],
            [
                c(false, false, true),
                c(true, false, true),
                c(true, true, true),
                c(false, true, true),
            ],
        ),
        (
            [0.0, 0.0, -1.0],
            [
                c(true, false, false),
                c(false, false, false),
                c(false, true, false),
                c(true, true, false),
            ],
        ),
    ];
    for (normal, quad) in faces {
        let base = vertices.len() as u32;
        vertices.extend(quad.iter().map(|&position| MeshVertex {
            position,
            normal,
            color,
            stripes: 0.0,
        }));
        indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    #[test]
    fn a_ladder_has_two_rails_and_a_rung_every_spacing_all_facing_out() {
        let (mut v, mut i) = (vec![], vec![]);
        add_ladder(
            &mut v,
            &mut i,
            &Ladder {
                min: DVec2::new(1.0, 0.0),
                max: DVec2::new(1.6, 3.5),
            },
        );
        assert_eq!(v.len() / 24, 2 + 10);
        for t in i.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from_array(v[t[k] as usize].position));
            let n = Vec3::from_array(v[t[0] as usize].normal);
            assert!((b - a).cross(c - a).normalize().dot(n) > 0.99);
        }
        let (mut v2, mut i2) = (vec![], vec![]);
        add_ladder(
            &mut v2,
            &mut i2,
            &Ladder {
                min: DVec2::new(1.0, 0.0),
                max: DVec2::new(0.5, 3.5),
            },
        );
        assert!(
            v2.is_empty() && i2.is_empty(),
            "an inverted ladder draws nothing"
        );
    }
}
