//! The hero's placeholder body: a flat-shaded low-poly capsule sized from the collider in use, with
//! a visor on the side it faces. Rebuilt on the CPU every frame (a few hundred vertices) at the
//! interpolated position, until the skinned model replaces it.
use std::f32::consts::{FRAC_PI_2, TAU};

use glam::{DVec2, Vec3};

use super::palette::srgb;
use super::vertex::MeshVertex;

/// Segments around the capsule's vertical axis.
const SEGMENTS: usize = 10;
/// Rings per hemisphere.
const CAP_RINGS: usize = 3;

/// What the placeholder body needs to know.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeroPose {
    /// Feet position (interpolated).
    pub feet: DVec2,
    /// The collider's bounding box relative to the feet: min and max corners.
    pub extent: (DVec2, DVec2),
    /// +1 facing right, −1 left.
    pub facing: f64,
}

/// Appends the hero's triangles (non-indexed triangle list) to `out`.
pub fn hero_vertices(pose: &HeroPose, out: &mut Vec<MeshVertex>) {
    let (lo, hi) = pose.extent;
    let size = (hi - lo).as_vec2().max(glam::Vec2::splat(0.05));
    let r = (size.x / 2.0).min(size.y / 2.0);
    let cx = (pose.feet.x + (lo.x + hi.x) / 2.0) as f32;
    let bottom = (pose.feet.y + lo.y) as f32;
    let top = bottom + size.y;
    // Profile from bottom pole to top pole: (radius, height).
    let mut profile: Vec<(f32, f32)> = Vec::with_capacity(2 * CAP_RINGS + 2);
    for k in 0..=CAP_RINGS {
        let a = -FRAC_PI_2 + FRAC_PI_2 * k as f32 / CAP_RINGS as f32;
        profile.push((r * a.cos(), bottom + r + r * a.sin()));
    }
    for k in 0..=CAP_RINGS {
        let a = FRAC_PI_2 * k as f32 / CAP_RINGS as f32;
        profile.push((r * a.cos(), top - r + r * a.sin()));
    }
    let body = srgb(0xe2703a);
    let ring = |k: usize, s: usize| {
        let (rad, y) = profile[k];
        let a = TAU * s as f32 / SEGMENTS as f32;
        Vec3::new(cx + rad * a.cos(), y, rad * a.sin())
    };
    for k in 0..profile.len() - 1 {
        for s in 0..SEGMENTS {
            let (a, b, c, d) = (
                ring(k, s),
                ring(k, s + 1),
                ring(k + 1, s + 1),
                ring(k + 1, s),
            );
            // Quads collapse to triangles at the poles: skip the degenerate half.
            push_flat(out, [a, c, b], body);
            push_flat(out, [a, d, c], body);
        }
    }
    let f = pose.facing.signum() as f32;
    let visor_x = (cx + f * r * 0.35, cx + f * r * 1.02);
    let visor = Box3 {
        min: Vec3::new(visor_x.0.min(visor_x.1), top - r * 1.15, -r * 0.55),
        max: Vec3::new(visor_x.0.max(visor_x.1), top - r * 0.6, r * 0.55),
    };
    push_box(out, &visor, srgb(0x26303f));
}

struct Box3 {
    min: Vec3,
    max: Vec3,
}

/// Appends a triangle with its own face normal (skipped when degenerate).
fn push_flat(out: &mut Vec<MeshVertex>, t: [Vec3; 3], color: [f32; 3]) {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    if n.length_squared() < 1e-12 {
        return;
    }
    let normal = n.normalize().to_array();
    out.extend(t.iter().map(|p| MeshVertex {
        position: p.to_array(),
        normal,
        color,
        stripes: 0.0,
    }));
}

/// Appends an axis-aligned box (12 outward-facing triangles).
fn push_box(out: &mut Vec<MeshVertex>, b: &Box3, color: [f32; 3]) {
    let c = |x: bool, y: bool, z: bool| {
        Vec3::new(
            if x { b.max.x } else { b.min.x },
            if y { b.max.y } else { b.min.y },
            if z { b.max.z } else { b.min.z },
        )
    };
    // Each face counter-clockwise seen from outside.
    let faces = [
        [
            c(true, false, false),
            c(true, true, false),
            c(true, true, true),
            c(true, false, true),
        ],
        [
            c(false, false, true),
            c(false, true, true),
            c(false, true, false),
            c(false, false, false),
        ],
        [
            c(false, true, true),
            c(true, true, true),
            c(true, true, false),
            c(false, true, false),
        ],
        [
            c(false, false, false),
            c(true, false, false),
            c(true, false, true),
            c(false, false, true),
        ],
        [
            c(false, false, true),
            c(true, false, true),
            c(true, true, true),
            c(false, true, true),
        ],
        [
            c(true, false, false),
            c(false, false, false),
            c(false, true, false),
            c(true, true, false),
        ],
    ];
    for q in faces {
        push_flat(out, [q[0], q[1], q[2]], color);
        push_flat(out, [q[0], q[2], q[3]], color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(h: f64, facing: f64) -> HeroPose {
        HeroPose {
            feet: DVec2::new(3.0, 1.0),
            extent: (DVec2::new(-0.4, 0.0), DVec2::new(0.4, h)),
            facing,
        }
    }

    #[test]
    fn the_capsule_spans_the_collider_and_crouching_makes_it_shorter() {
        for h in [1.8, 1.0] {
            let mut v = vec![];
            hero_vertices(&pose(h, 1.0), &mut v);
            assert_eq!(v.len() % 3, 0);
            let ys = v.iter().map(|v| v.position[1]);
            let (lo, hi) = ys.fold((f32::MAX, f32::MIN), |(a, b), y| (a.min(y), b.max(y)));
            assert!(
                (lo - 1.0).abs() < 1e-5 && (hi - (1.0 + h as f32)).abs() < 1e-5,
                "{lo} {hi}"
            );
            let xs = v.iter().map(|v| v.position[0]);
            let (l, r) = xs.fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(x), b.max(x)));
            assert!(l >= 2.6 - 1e-5 && r <= 3.4 + 0.01, "{l} {r}");
        }
    }

    #[test]
    fn normals_point_away_from_the_axis_and_the_visor_is_on_the_facing_side() {
        for facing in [1.0, -1.0] {
            let mut v = vec![];
            hero_vertices(&pose(1.8, facing), &mut v);
            let visor = v.iter().filter(|v| v.color == srgb(0x26303f));
            let mean_x: f32 =
                visor.clone().map(|v| v.position[0]).sum::<f32>() / visor.count() as f32;
            assert!((mean_x - 3.0) * facing as f32 > 0.1, "{mean_x}");
            for t in v.chunks(3).filter(|t| t[0].color != srgb(0x26303f)) {
                let centre = (Vec3::from_array(t[0].position)
                    + Vec3::from_array(t[1].position)
                    + Vec3::from_array(t[2].position))
                    / 3.0;
                let out = Vec3::new(centre.x - 3.0, 0.0, centre.z);
                let n = Vec3::from_array(t[0].normal);
                assert!(
                    n.dot(out) >= -1e-4 || n.y.abs() > 0.9,
                    "inward normal {n} at {centre}"
                );
            }
        }
    }
}
