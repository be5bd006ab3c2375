//! Checkpoints and the goal drawn as world objects, solid and lit like the level: a checkpoint is
//! a steel post with a lamp on top and a pennant, lowered to half its height and dull while it is
//! not the hero's respawn point, raised to the top and glowing (its lamp lit) once it is
//! (`World::checkpoint`); the goal is a gate, two posts under a chequered crossbar with a gold
//! pennant on each post, as wide as its region. Their regions' boxes are not drawn in play (the
//! editor and the debug overlay draw them).
//!
//! They stand [`MARKER_Z`] behind the play plane, so the hero walking through one is drawn in
//! front of it, and cast and take shadows like the movers and doors they are drawn with
//! (`object_mesh`, which places the raised or the lowered flag each frame).
//!
//! Glowing parts carry [`GLOW`] in their vertices' `stripes`: the lit shader draws them at their
//! own colour, whatever the light.
//!
//! # Must never depend on
//! The GPU or the simulation's state: CPU geometry from the level's regions.
use glam::{DVec2, Vec3};

use super::vertex::MeshVertex;
use crate::collision::Aabb;

/// Depth of the markers' middle, m: behind the play plane, where the hero and agents are drawn,
/// and behind a sign's panel (`sign_mesh::SIGN_Z`).
pub const MARKER_Z: f32 = -0.8;
/// Tallest a checkpoint's post stands, m (a region may be taller): its lamp's top stays under a
/// sign's panel on the same spot (`sign_mesh::SIGN_PANEL_LIFT`), which is translucent.
pub const POST_HEIGHT: f64 = 1.9;
/// Tallest the goal's gate stands (to its crossbar's top), m.
pub const GATE_HEIGHT: f64 = 3.0;
/// A checkpoint's pennant height, before it is reached, as a fraction of its post's.
pub const LOWERED: f64 = 0.4;
/// `MeshVertex::stripes` of a glowing surface (drawn at its colour, unlit: `shaders/lit.wgsl`).
pub const GLOW: f32 = 2.0;

const POST_HALF: f64 = 0.06;
const POST: [f32; 3] = [0.55, 0.56, 0.6];
const LAMP_HALF: f64 = 0.11;
const LAMP_OFF: [f32; 3] = [0.08, 0.09, 0.08];
const FLAG_DULL: [f32; 3] = [0.72, 0.74, 0.7];
const FLAG_LIT: [f32; 3] = [0.25, 1.0, 0.35];
const GOAL_GOLD: [f32; 3] = [1.0, 0.72, 0.1];
const CHECK_DARK: [f32; 3] = [0.03, 0.03, 0.03];
const CHECK_LIGHT: [f32; 3] = [0.9, 0.9, 0.88];

/// Where a checkpoint's post stands: the bottom centre of its region `b`, and its height.
fn post_of(b: &Aabb) -> (DVec2, f64) {
    let h = (b.max.y - b.min.y).clamp(0.5, POST_HEIGHT);
    (DVec2::new((b.min.x + b.max.x) * 0.5, b.min.y), h)
}

/// Appends a checkpoint's post (always drawn) for region `b`.
pub fn checkpoint_post(b: &Aabb, vertices: &mut Vec<MeshVertex>, indices: &mut Vec<u32>) {
    let (foot, h) = post_of(b);
    add_post(foot, h, vertices, indices);
}

/// Appends a checkpoint's pennant and lamp for region `b`: `raised` (the hero's respawn point:
/// at the post's top, glowing, the lamp lit) or lowered ([`LOWERED`] of the way up, dull, the
/// lamp dark). The two have as many vertices.
pub fn checkpoint_flag(
    b: &Aabb,
    raised: bool,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let (foot, h) = post_of(b);
    let top = foot + DVec2::new(0.0, h);
    let (at, colour, glow) = if raised {
        (top - DVec2::new(0.0, LAMP_HALF * 2.0), FLAG_LIT, GLOW)
    } else {
        (foot + DVec2::new(0.0, h * LOWERED), FLAG_DULL, 0.0)
    };
    add_pennant(at, 0.75, 0.5, colour, glow, vertices, indices);
    let lamp = if raised { FLAG_LIT } else { LAMP_OFF };
    add_block(
        top + DVec2::new(-LAMP_HALF, 0.0),
        top + DVec2::new(LAMP_HALF, 2.0 * LAMP_HALF),
        LAMP_HALF as f32,
        lamp,
        glow,
        vertices,
        indices,
    );
}

/// Appends the goal's gate for region `b`: a post at each side (inset from the region's edges),
/// a chequered crossbar on their tops, a glowing gold pennant on each.
pub fn goal_gate(b: &Aabb, vertices: &mut Vec<MeshVertex>, indices: &mut Vec<u32>) {
    let h = (b.max.y - b.min.y).clamp(1.0, GATE_HEIGHT);
    let inset = ((b.max.x - b.min.x) * 0.1).min(0.2);
    let (left, right) = (b.min.x + inset, b.max.x - inset);
    for x in [left, right] {
        add_post(DVec2::new(x, b.min.y), h, vertices, indices);
    }
    // The crossbar: two rows of squares, dark and light in turn.
    let bar = 0.3;
    let count = ((right - left) / (bar / 2.0)).round().max(2.0) as usize;
    let cell = (right - left + 2.0 * POST_HALF) / count as f64;
    for row in 0..2 {
        for k in 0..count {
            let min = DVec2::new(
                left - POST_HALF + cell * k as f64,
                b.min.y + h - bar + row as f64 * bar / 2.0,
            );
            let colour = if (k + row) % 2 == 0 {
                CHECK_DARK
            } else {
                CHECK_LIGHT
            };
            add_block(
                min,
                min + DVec2::new(cell, bar / 2.0),
                0.1,
                colour,
                0.0,
                vertices,
                indices,
            );
        }
    }
    for x in [left, right] {
        let top = DVec2::new(x, b.min.y + h);
        add_post(top, 0.6, vertices, indices);
        add_pennant(
            top + DVec2::new(0.0, 0.6),
            0.6,
            0.4,
            GOAL_GOLD,
            GLOW,
            vertices,
            indices,
        );
    }
}

/// A steel post from `foot` up `h` m.
fn add_post(foot: DVec2, h: f64, vertices: &mut Vec<MeshVertex>, indices: &mut Vec<u32>) {
    add_block(
        foot - DVec2::new(POST_HALF, 0.0),
        foot + DVec2::new(POST_HALF, h),
        POST_HALF as f32,
        POST,
        0.0,
        vertices,
        indices,
    );
}

/// A pennant flying right from a post at `top` (its upper corner): `long` m out, `tall` m high.
fn add_pennant(
    top: DVec2,
    long: f64,
    tall: f64,
    colour: [f32; 3],
    glow: f32,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let outline = [
        top - DVec2::new(0.0, tall),
        top + DVec2::new(long, -tall * 0.5),
        top,
    ];
    add_prism(&outline, 0.03, colour, glow, vertices, indices);
}

/// A box from `min` to `max` in the play plane, `half` m deep each side of [`MARKER_Z`].
fn add_block(
    min: DVec2,
    max: DVec2,
    half: f32,
    colour: [f32; 3],
    glow: f32,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let outline = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
    add_prism(&outline, half, colour, glow, vertices, indices);
}

/// The convex counter-clockwise `outline` extruded `half` m each side of [`MARKER_Z`]: its front
/// and back faces and a wall on each edge, flat-shaded.
fn add_prism(
    outline: &[DVec2],
    half: f32,
    colour: [f32; 3],
    glow: f32,
    vertices: &mut Vec<MeshVertex>,
    indices: &mut Vec<u32>,
) {
    let at = |p: DVec2, z: f32| Vec3::new(p.x as f32, p.y as f32, MARKER_Z + z);
    let mut face = |corners: &[Vec3], normal: Vec3| {
        for k in 1..corners.len() - 1 {
            let t = [corners[0], corners[k], corners[k + 1]];
            super::hazard_look::triangle(t, normal, colour, glow, vertices, indices);
        }
    };
    let front: Vec<Vec3> = outline.iter().map(|&p| at(p, half)).collect();
    let back: Vec<Vec3> = outline.iter().map(|&p| at(p, -half)).collect();
    face(&front, Vec3::Z);
    face(&back, Vec3::NEG_Z);
    let n = outline.len();
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        let d = (b - a).normalize_or_zero();
        let normal = Vec3::new(d.y as f32, -d.x as f32, 0.0);
        face(
            &[at(a, -half), at(b, -half), at(b, half), at(a, half)],
            normal,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region() -> Aabb {
        Aabb {
            min: DVec2::new(10.0, 1.0),
            max: DVec2::new(11.0, 3.5),
        }
    }

    fn bounds(v: &[MeshVertex]) -> (Vec3, Vec3) {
        v.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), v| {
                let p = Vec3::from_array(v.position);
                (lo.min(p), hi.max(p))
            },
        )
    }

    #[test]
    fn a_reached_checkpoint_raises_a_glowing_flag_to_its_posts_top() {
        let (mut v, mut i) = (Vec::new(), Vec::new());
        checkpoint_post(&region(), &mut v, &mut i);
        let (lo, hi) = bounds(&v);
        assert!((lo.y - 1.0).abs() < 1e-6 && (hi.y as f64 - (1.0 + POST_HEIGHT)).abs() < 1e-6);
        assert!(hi.z < 0.0, "behind the play plane");
        let (mut v, mut i) = (Vec::new(), Vec::new());
        checkpoint_flag(&region(), true, &mut v, &mut i);
        let (_, hi) = bounds(&v);
        assert!(
            hi.z < crate::render::sign_mesh::SIGN_Z - 0.1,
            "behind a sign: {hi}"
        );
        let under = 1.0 + crate::render::sign_mesh::SIGN_PANEL_LIFT;
        assert!((hi.y as f64) < under, "under a sign's panel: {hi}");
        let flag = |raised| {
            let (mut v, mut i) = (Vec::new(), Vec::new());
            checkpoint_flag(&region(), raised, &mut v, &mut i);
            (v, i)
        };
        let (up, up_i) = flag(true);
        let (down, down_i) = flag(false);
        assert_eq!((up.len(), up_i.len()), (down.len(), down_i.len()));
        let pennant = |v: &[MeshVertex]| v.iter().map(|v| v.position[1]).fold(f32::MAX, f32::min);
        assert!(pennant(&up) > pennant(&down) + 0.8);
        assert!(up.iter().all(|v| v.stripes == GLOW));
        assert!(down.iter().all(|v| v.stripes == 0.0));
    }

    #[test]
    fn the_goal_is_a_gate_as_wide_as_its_region_and_every_face_is_wound_to_its_normal() {
        let goal = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(2.0, 3.0),
        };
        let (mut v, mut i) = (Vec::new(), Vec::new());
        goal_gate(&goal, &mut v, &mut i);
        let (lo, hi) = bounds(&v);
        assert!(lo.x >= 0.0 && lo.x < 0.3 && hi.x > 2.0, "{lo} {hi}");
        assert!(v.iter().any(|v| v.stripes == GLOW), "gold pennants glow");
        for t in i.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from_array(v[t[k] as usize].position));
            let n = Vec3::from_array(v[t[0] as usize].normal);
            assert!((b - a).cross(c - a).normalize().dot(n) > 0.99);
        }
    }
}
