//! The backdrop: a sky gradient and three parallax layers of low-poly ridges (far mountains,
//! hills, near woods), all static geometry built once per level.
//!
//! Parallax comes from real depth: the layers stand 25, 70 and 200 m behind the play plane and the
//! perspective camera moves them slower the farther they are. Each layer is designed in view
//! angles (how high above or below the view centre its ridge appears) and converted to world
//! units at its depth, so it frames the level whatever the level's size. Colours fade towards the
//! horizon haze with distance (aerial perspective), baked into the vertices.
use glam::DVec2;

use super::camera::CameraConfig;
use super::palette::srgb;
use super::vertex::ColorVertex;
use crate::collision::Aabb;

/// Widest aspect ratio the backdrop must fill (wider windows see its edges).
const MAX_ASPECT: f64 = 3.6;

/// One ridge layer.
struct Layer {
    /// Distance behind the play plane, m.
    depth: f64,
    /// Ridge height, as the view angle below the horizon seen from the lowest camera position,
    /// degrees: climbing higher in the level looks over the ridges.
    ridge_deg: f64,
    /// Ridge roughness, as a view angle, degrees.
    amplitude_deg: f64,
    /// Angular width of one low-poly segment, degrees.
    segment_deg: f64,
    /// Ridge colour (sRGB) and haze fraction.
    color: u32,
    haze: f32,
    seed: u32,
}

/// Farthest first.
const LAYERS: [Layer; 3] = [
    Layer {
        depth: 200.0,
        ridge_deg: 1.0,
        amplitude_deg: 3.5,
        segment_deg: 2.2,
        color: 0x7f97b5,
        haze: 0.55,
        seed: 11,
    },
    Layer {
        depth: 70.0,
        ridge_deg: 5.5,
        amplitude_deg: 2.0,
        segment_deg: 3.0,
        color: 0x5f8a78,
        haze: 0.35,
        seed: 23,
    },
    Layer {
        depth: 25.0,
        ridge_deg: 11.0,
        amplitude_deg: 1.6,
        segment_deg: 4.0,
        color: 0x3f6447,
        haze: 0.15,
        seed: 37,
    },
];
const SKY_DEPTH: f64 = 900.0;
/// How far below the nearer layers' cover a farther layer still extends, m at its depth.
const COVER_MARGIN: f64 = 1.0;
const HORIZON: u32 = 0xd9e8ec;
const ZENITH: u32 = 0x5b93cc;

/// Builds the backdrop for a level whose camera focus ranges over `focus_range` (the camera
/// bounds, or the level's extent).
pub fn background_vertices(focus_range: &Aabb, cam: &CameraConfig) -> Vec<ColorVertex> {
    let pitch = cam.pitch_deg.to_radians();
    let half_fov = (cam.fov_y_deg / 2.0).to_radians();
    let eye_lift = cam.distance * pitch.sin();
    let eye_depth = cam.distance * pitch.cos();
    let eye_mid = (focus_range.min.y + focus_range.max.y) / 2.0 + eye_lift;
    let eye_lo = focus_range.min.y + eye_lift;
    let eye_hi = focus_range.max.y + eye_lift;
    let haze = srgb(HORIZON);
    let mut out = Vec::new();
    // Horizontal coverage at depth D: the focus range widened by the half view width there.
    // The lower corner rays travel farthest: the downward pitch tilts them away from the planes'
    // normal.
    let lower_corner_reach = 1.0 / (pitch.cos() - half_fov.tan() * pitch.sin());
    let span = |depth: f64| {
        let w =
            (eye_depth + depth) * lower_corner_reach * half_fov.tan() * MAX_ASPECT * 1.02 + 10.0;
        (focus_range.min.x - w, focus_range.max.x + w)
    };
    // Height at depth D where a ray `deg` degrees below the horizontal from `eye_y` lands.
    let at =
        |eye_y: f64, depth: f64, deg: f64| eye_y - (eye_depth + depth) * deg.to_radians().tan();
    let lowest = |depth: f64| at(eye_lo, depth, (pitch + half_fov).to_degrees() + 5.0);
    // Where a farther plane is hidden for sure: the nearer layer's lowest ridge point, seen from
    // the highest eye (the most downward-looking ray over that ridge), projected onto the farther
    // plane, less a margin. Everything below it is covered by the nearer layer (by induction,
    // down to the bottom of every view), so the farther layer and the sky need not be rasterised
    // there: on a CPU rasteriser even fragments that fail the depth test cost fill time.
    let mut cover: Option<(f64, f64)> = None; // (lowest ridge height, distance from the eye)
    let hidden_below = |cover: Option<(f64, f64)>, depth: f64| {
        cover.map_or(f64::NEG_INFINITY, |(ridge_lo, near_dist): (f64, f64)| {
            let r = (eye_depth + depth) / near_dist;
            eye_hi + (ridge_lo - eye_hi) * r - COVER_MARGIN
        })
    };
    // Ridges, nearest first, then the sky: drawn front to back, hidden parts fail the depth test.
    for layer in LAYERS.iter().rev() {
        let (x0, x1) = span(layer.depth);
        let dist = eye_depth + layer.depth;
        let seg = (dist * layer.segment_deg.to_radians().tan()).max(0.5);
        let n = (((x1 - x0) / seg).ceil() as usize).clamp(2, 20_000);
        let lowest_seen = lowest(layer.depth);
        let base = lowest_seen.max(hidden_below(cover, layer.depth));
        let ridge_mid = at(eye_lo, layer.depth, layer.ridge_deg);
        let amp = dist * layer.amplitude_deg.to_radians().tan();
        let c = srgb(layer.color).map(|v| v * (1.0 - layer.haze));
        let top_c: [f32; 3] = std::array::from_fn(|i| c[i] + haze[i] * layer.haze);
        let low_c: [f32; 3] = std::array::from_fn(|i| top_c[i] * 0.8 + haze[i] * 0.2);
        // A vertical gradient, the ridge colour at the mean ridge height and the low colour at the
        // bottom of the lowest view, whatever the clipping: linear in y, so the body and the ridge
        // band below agree along their seam.
        let gradient = |y: f64| -> [f32; 3] {
            let t = ((y - lowest_seen) / (ridge_mid - lowest_seen)) as f32;
            std::array::from_fn(|i| low_c[i] + (top_c[i] - low_c[i]) * t)
        };
        let z = -layer.depth as f32;
        let ridge = |k: usize| {
            let x = x0 + (x1 - x0) * k as f64 / n as f64;
            DVec2::new(x, ridge_mid + amp * ridge_noise(k, layer.seed))
        };
        let ridge_lo = (0..=n).map(|k| ridge(k).y).fold(f64::INFINITY, f64::min);
        cover = Some((ridge_lo, dist));
        // The jagged band above the lowest ridge point, one strip per segment, then the body below
        // it as one quad: a CPU rasteriser fills whole tiles of a big triangle much faster than
        // the same area cut into thin slivers.
        let band_lo = ridge_lo.max(base);
        for k in 0..n {
            let (a, b) = (ridge(k), ridge(k + 1));
            quad(
                &mut out,
                [
                    (a.x, band_lo, gradient(band_lo)),
                    (b.x, band_lo, gradient(band_lo)),
                    (b.x, b.y, gradient(b.y)),
                    (a.x, a.y, gradient(a.y)),
                ],
                z,
            );
        }
        if band_lo > base {
            quad(
                &mut out,
                [
                    (x0, base, gradient(base)),
                    (x1, base, gradient(base)),
                    (x1, band_lo, gradient(band_lo)),
                    (x0, band_lo, gradient(band_lo)),
                ],
                z,
            );
        }
    }
    // Sky: vertical bands from below the lowest view to above the highest, horizon colour at the
    // horizon height, zenith colour at the top of the highest view.
    let (x0, x1) = span(SKY_DEPTH);
    let top = at(eye_hi, SKY_DEPTH, -(half_fov - pitch).to_degrees() - 5.0);
    let bottom = lowest(SKY_DEPTH);
    let z = -SKY_DEPTH as f32;
    let stops = [
        (bottom, srgb(HORIZON)),
        (eye_mid, srgb(HORIZON)),
        (top, srgb(ZENITH)),
    ];
    // The part of the gradient the ridges always hide is left out; the colour where it is cut is
    // interpolated, so the visible gradient is unchanged.
    let cut = hidden_below(cover, SKY_DEPTH);
    for w in stops.windows(2) {
        let (mut ya, mut ca) = w[0];
        let (yb, cb) = w[1];
        if cut > ya && yb > ya {
            let t = ((cut - ya) / (yb - ya)).min(1.0);
            ca = std::array::from_fn(|i| ca[i] + (cb[i] - ca[i]) * t as f32);
            ya = ya + (yb - ya) * t;
        }
        if yb > ya {
            quad(
                &mut out,
                [(x0, ya, ca), (x1, ya, ca), (x1, yb, cb), (x0, yb, cb)],
                z,
            );
        }
    }
    out
}

/// Two octaves of hashed value noise in `[-1, 1]` at integer sample `k`.
fn ridge_noise(k: usize, seed: u32) -> f64 {
    let h = |i: u64| {
        let mut x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (seed as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        x ^= x >> 31;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 29;
        (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let k = k as u64;
    let coarse = {
        let (i, t) = (k / 5, (k % 5) as f64 / 5.0);
        h(i) * (1.0 - t) + h(i + 1) * t
    };
    0.7 * coarse + 0.3 * h(k + 1_000_003)
}

/// Appends a quad given counter-clockwise (seen from +z) corners `(x, y, colour)` at depth `z`.
fn quad(out: &mut Vec<ColorVertex>, c: [(f64, f64, [f32; 3]); 4], z: f32) {
    let v = |(x, y, col): (f64, f64, [f32; 3])| ColorVertex {
        position: [x as f32, y as f32, z],
        color: [col[0], col[1], col[2], 1.0],
    };
    out.extend([v(c[0]), v(c[1]), v(c[2]), v(c[0]), v(c[2]), v(c[3])]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::camera::{CameraRig, FollowTarget};

    /// Whether the ray from `near` to `far` hits one of the backdrop's triangles.
    fn ray_hits(verts: &[ColorVertex], near: glam::Vec3, far: glam::Vec3) -> bool {
        verts.chunks(3).any(|t| {
            let z = t[0].position[2];
            let s = (z - near.z) / (far.z - near.z);
            let p = near + (far - near) * s;
            let q = |v: &ColorVertex| glam::Vec2::new(v.position[0], v.position[1]);
            let (a, b, c, p) = (q(&t[0]), q(&t[1]), q(&t[2]), p.truncate());
            let side = |u: glam::Vec2, v: glam::Vec2| (v - u).perp_dot(p - u);
            let (d0, d1, d2) = (side(a, b), side(b, c), side(c, a));
            (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
        })
    }

    #[test]
    fn the_backdrop_fills_the_whole_view_anywhere_in_the_focus_range() {
        // The farther layers and the sky are cut where nearer layers always hide them, so every
        // ray of the view must still hit some part of the backdrop, at the corners and inside.
        let range = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(80.0, 30.0),
        };
        let cfg = CameraConfig::default();
        let verts = background_vertices(&range, &cfg);
        for focus in [
            range.min,
            range.max,
            DVec2::new(0.0, 30.0),
            DVec2::new(80.0, 0.0),
            DVec2::new(40.0, 15.0),
        ] {
            let t = FollowTarget {
                pos: focus - DVec2::new(0.0, cfg.focus_height),
                vel: DVec2::ZERO,
                facing: 0.0,
            };
            let rig = CameraRig::new(cfg.clone(), t, None, MAX_ASPECT);
            let v = rig.view(MAX_ASPECT);
            let inv = v.view_proj.inverse();
            for i in 0..=12 {
                for j in 0..=12 {
                    let (sx, sy) = (i as f32 / 6.0 - 1.0, j as f32 / 6.0 - 1.0);
                    let near = inv.project_point3(glam::Vec3::new(sx, sy, 0.0));
                    let far = inv.project_point3(glam::Vec3::new(sx, sy, 1.0));
                    assert!(
                        ray_hits(&verts, near, far),
                        "focus {focus}: the ray through ({sx}, {sy}) misses the backdrop"
                    );
                }
            }
        }
    }

    #[test]
    fn hidden_parts_of_the_far_layers_and_the_sky_are_left_out() {
        let range = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(80.0, 30.0),
        };
        let verts = background_vertices(&range, &CameraConfig::default());
        let lowest = |z: f32| {
            verts
                .iter()
                .filter(|v| v.position[2] == z)
                .map(|v| v.position[1])
                .fold(f32::MAX, f32::min)
        };
        // Without the cut, every plane would reach the lowest ray of the lowest view.
        let cfg = CameraConfig::default();
        let (pitch, half_fov) = (
            cfg.pitch_deg.to_radians(),
            (cfg.fov_y_deg / 2.0).to_radians(),
        );
        let eye_lo = range.min.y + cfg.distance * pitch.sin();
        let lowest_view = |depth: f64| {
            (eye_lo - (cfg.distance * pitch.cos() + depth) * (pitch + half_fov).tan()) as f32
        };
        assert!(lowest(-SKY_DEPTH as f32) > lowest_view(SKY_DEPTH) / 2.0);
        assert!(lowest(-200.0) > lowest_view(200.0) * 0.75);
        assert!(
            lowest(-25.0) < lowest_view(25.0),
            "the nearest layer reaches the bottom"
        );
    }

    #[test]
    fn layers_are_deterministic_and_farther_layers_are_hazier() {
        let range = Aabb {
            min: DVec2::ZERO,
            max: DVec2::new(10.0, 5.0),
        };
        let a = background_vertices(&range, &CameraConfig::default());
        assert_eq!(a, background_vertices(&range, &CameraConfig::default()));
        let mean_blue_ratio = |z: f32| {
            let vs: Vec<_> = a.iter().filter(|v| v.position[2] == z).collect();
            vs.iter()
                .map(|v| v.color[2] / v.color[1].max(1e-3))
                .sum::<f32>()
                / vs.len() as f32
        };
        assert!(mean_blue_ratio(-200.0) > mean_blue_ratio(-25.0));
    }
}
