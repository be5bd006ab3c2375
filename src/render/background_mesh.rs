//! The backdrop: a sky gradient and three parallax layers of low-poly ridges (far mountains,
//! hills, near woods). The ridges are designed once per level ([`Backdrop::new`]); each frame
//! [`Backdrop::vertices`] cuts from them only what the current camera can see.
//!
//! Parallax comes from real depth: the layers stand 25, 70 and 200 m behind the play plane and the
//! perspective camera moves them slower the farther they are. Each layer is designed in view
//! angles (how high above or below the view centre its ridge appears) and converted to world
//! units at its depth, so it frames the level whatever the level's size. Colours fade towards the
//! horizon haze with distance (aerial perspective), baked into the vertices.
//!
//! Why per frame: a CPU rasteriser (lavapipe) pays for every fragment it tests, even the ones the
//! depth test rejects, so overdraw is what the backdrop costs. Each frame every layer is clipped to
//! the part of its plane inside the view, and a farther layer (and the sky) stops just below the
//! lowest ridge point of the nearer layer in view, projected from the current eye: nearly every
//! backdrop pixel is drawn once. That is a few hundred vertices per frame; the level's own
//! geometry stays static on the GPU.
use glam::{DVec2, DVec3};

use super::palette::srgb;
use super::vertex::ColorVertex;
use crate::collision::Aabb;
use crate::level::Level;
use crate::view::camera::{CameraConfig, CameraView};

/// Widest aspect ratio the backdrop must fill (wider windows see its edges).
const MAX_ASPECT: f64 = 3.6;

/// One ridge layer's design.
struct LayerDesign {
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
const LAYERS: [LayerDesign; 3] = [
    LayerDesign {
        depth: 200.0,
        ridge_deg: 1.0,
        amplitude_deg: 3.5,
        segment_deg: 2.2,
        color: 0x7f97b5,
        haze: 0.55,
        seed: 11,
    },
    LayerDesign {
        depth: 70.0,
        ridge_deg: 5.5,
        amplitude_deg: 2.0,
        segment_deg: 3.0,
        color: 0x5f8a78,
        haze: 0.35,
        seed: 23,
    },
    LayerDesign {
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
/// How far below the projected cover of the nearer layers a farther plane is still drawn, as a
/// fraction of the plane's distance from the eye (0.5 %: a few pixels at any window size), so
/// float rounding never opens a crack between them.
const COVER_MARGIN: f64 = 0.005;
const HORIZON: u32 = 0xd9e8ec;
const ZENITH: u32 = 0x5b93cc;

/// One ridge layer, laid out in world units for one level.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    /// Distance behind the play plane, m.
    depth: f64,
    /// x of the first ridge sample and the spacing of the samples, m.
    x0: f64,
    step: f64,
    /// Ridge heights at `x0 + k·step`.
    ridge: Vec<f64>,
    /// The gradient: `low_c` at `y_low`, `top_c` at `y_top` (linear in y).
    y_low: f64,
    y_top: f64,
    low_c: [f32; 3],
    top_c: [f32; 3],
}

impl Layer {
    fn x(&self, k: usize) -> f64 {
        self.x0 + self.step * k as f64
    }

    fn color(&self, y: f64) -> [f32; 3] {
        let t = ((y - self.y_low) / (self.y_top - self.y_low)) as f32;
        std::array::from_fn(|i| self.low_c[i] + (self.top_c[i] - self.low_c[i]) * t)
    }
}

/// A level's backdrop: the ridge layers (nearest first) and the sky's gradient stops.
#[derive(Clone, Debug, PartialEq)]
pub struct Backdrop {
    layers: Vec<Layer>,
    /// `(height, colour)` bottom to top at [`SKY_DEPTH`].
    sky: [(f64, [f32; 3]); 3],
    /// The sky's horizontal extent.
    sky_x: (f64, f64),
}

impl Default for Backdrop {
    /// The backdrop of an empty level at the origin.
    fn default() -> Self {
        let at_origin = Aabb {
            min: DVec2::ZERO,
            max: DVec2::ZERO,
        };
        Backdrop::new(&at_origin, &CameraConfig::default())
    }
}

impl Backdrop {
    /// The backdrop of `level`: designed for its camera bounds, or its extent with the spawn when
    /// it has none (wherever the camera can look from).
    pub fn for_level(level: &Level, cam: &CameraConfig) -> Backdrop {
        let focus_range = level.camera_bounds.unwrap_or_else(|| {
            let points = level
                .polygons
                .iter()
                .flat_map(|p| p.points.iter().copied())
                .chain([level.spawn]);
            Aabb::from_points(points.filter(|p| p.is_finite()))
        });
        Backdrop::new(&focus_range, cam)
    }

    /// Designs the backdrop for a level whose camera focus ranges over `focus_range` (the camera
    /// bounds, or the level's extent): wide and tall enough for every view from inside it.
    pub fn new(focus_range: &Aabb, cam: &CameraConfig) -> Backdrop {
        let pitch = cam.pitch_deg.to_radians();
        let half_fov = (cam.fov_y_deg / 2.0).to_radians();
        let eye_lift = cam.distance * pitch.sin();
        let eye_depth = cam.distance * pitch.cos();
        let eye_mid = (focus_range.min.y + focus_range.max.y) / 2.0 + eye_lift;
        let eye_lo = focus_range.min.y + eye_lift;
        let eye_hi = focus_range.max.y + eye_lift;
        let haze = srgb(HORIZON);
        // Horizontal coverage at depth D: the focus range widened by the half view width there.
        // The lower corner rays travel farthest: the downward pitch tilts them away from the
        // planes' normal.
        let lower_corner_reach = 1.0 / (pitch.cos() - half_fov.tan() * pitch.sin());
        let span = |depth: f64| {
            let w = (eye_depth + depth) * lower_corner_reach * half_fov.tan() * MAX_ASPECT * 1.02
                + 10.0;
            (focus_range.min.x - w, focus_range.max.x + w)
        };
        // Height at depth D where a ray `deg` degrees below the horizontal from `eye_y` lands.
        let at =
            |eye_y: f64, depth: f64, deg: f64| eye_y - (eye_depth + depth) * deg.to_radians().tan();
        let lowest = |depth: f64| at(eye_lo, depth, (pitch + half_fov).to_degrees() + 5.0);
        let layers = LAYERS
            .iter()
            .rev()
            .map(|d| {
                let (x0, x1) = span(d.depth);
                let dist = eye_depth + d.depth;
                let seg = (dist * d.segment_deg.to_radians().tan()).max(0.5);
                let n = (((x1 - x0) / seg).ceil() as usize).clamp(2, 20_000);
                let ridge_mid = at(eye_lo, d.depth, d.ridge_deg);
                let amp = dist * d.amplitude_deg.to_radians().tan();
                let c = srgb(d.color).map(|v| v * (1.0 - d.haze));
                let top_c: [f32; 3] = std::array::from_fn(|i| c[i] + haze[i] * d.haze);
                let low_c: [f32; 3] = std::array::from_fn(|i| top_c[i] * 0.8 + haze[i] * 0.2);
                Layer {
                    depth: d.depth,
                    x0,
                    step: (x1 - x0) / n as f64,
                    ridge: (0..=n)
                        .map(|k| ridge_mid + amp * ridge_noise(k, d.seed))
                        .collect(),
                    // The ridge colour at the mean ridge height and the low colour at the bottom
                    // of the lowest view.
                    y_low: lowest(d.depth),
                    y_top: ridge_mid,
                    low_c,
                    top_c,
                }
            })
            .collect();
        // Sky: horizon colour from below the lowest view up to the middle eye height, then up to
        // the zenith colour at the top of the highest view.
        let top = at(eye_hi, SKY_DEPTH, -(half_fov - pitch).to_degrees() - 5.0);
        Backdrop {
            layers,
            sky: [
                (lowest(SKY_DEPTH), srgb(HORIZON)),
                (eye_mid, srgb(HORIZON)),
                (top, srgb(ZENITH)),
            ],
            sky_x: span(SKY_DEPTH),
        }
    }

    /// Replaces `out` with the triangles of the backdrop in `view`, in painter's order: the sky,
    /// then the layers from the farthest to the nearest. The pass draws them before the level
    /// with no depth test, like a clear: the planes overlap only along the nearer ridges' jagged
    /// bands, and skipping the depth test makes each backdrop fragment cheaper on a CPU
    /// rasteriser than testing it against the level drawn first would.
    ///
    /// Returns whether the triangles cover the whole view: the sky's drawn part spans the view's
    /// width and reaches above its top and down to the nearer layers' cover (or below its bottom
    /// where no layer spans the view). Then the main pass need not clear its colour first (a
    /// 3.7 MB fill per 1280×720 frame on a CPU rasteriser). Anywhere in the focus range it does;
    /// far past it the sky's designed extent ends inside the view.
    pub fn vertices(&self, view: &CameraView, out: &mut Vec<ColorVertex>) -> bool {
        out.clear();
        let eye = view.eye.as_dvec3();
        let window = view_window(view);
        // What is hidden for sure on the next plane: everything below this height on the plane
        // at this distance from the eye (by induction, nearer layers cover each one down to the
        // bottom of the view).
        let mut cover: Option<(f64, f64)> = None;
        let hidden_below = |cover: Option<(f64, f64)>, depth: f64| {
            let dist = eye.z + depth;
            cover.map_or(f64::NEG_INFINITY, |(y, near_dist)| {
                eye.y + (y - eye.y) * dist / near_dist - COVER_MARGIN * dist
            })
        };
        // Where each layer is cut, found nearest first (each cut depends on the nearer ones).
        let mut cuts: [Option<LayerCut>; LAYERS.len()] = [None; LAYERS.len()];
        for (layer, cut) in self.layers.iter().zip(&mut cuts) {
            let n = layer.ridge.len() - 1;
            let (k0, k1, bottom, whole_width) = match window(layer.depth) {
                Some((lo, hi)) => {
                    let k0 = ((lo.x - layer.x0) / layer.step).floor();
                    let k1 = ((hi.x - layer.x0) / layer.step).ceil();
                    let inside = k0 >= 0.0 && k1 <= n as f64;
                    let (k0, k1) = (k0.clamp(0.0, n as f64), k1.clamp(0.0, n as f64));
                    let margin = COVER_MARGIN * (eye.z + layer.depth);
                    (k0 as usize, k1 as usize, lo.y - margin, inside)
                }
                None => (0, n, layer.y_low, false),
            };
            if k0 >= k1 {
                continue;
            }
            let base = bottom.max(hidden_below(cover, layer.depth));
            let ridge = &layer.ridge[k0..=k1];
            let ridge_lo = ridge.iter().copied().fold(f64::INFINITY, f64::min);
            let ridge_hi = ridge.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if ridge_hi > base {
                *cut = Some(LayerCut {
                    k0,
                    k1,
                    base,
                    band_lo: ridge_lo.max(base),
                });
            }
            // Below its lowest ridge point in view (or its base, where nearer layers hide it)
            // this layer covers the view, if it spans the whole width of the view; otherwise the
            // nearer layers' cover is all there is.
            if whole_width {
                cover = Some((ridge_lo.max(base), eye.z + layer.depth));
            }
        }
        // Sky: the gradient's bands inside the view, above the cover. Colours where a band is cut
        // are interpolated, so the visible gradient does not depend on the cut.
        let sky_window = window(SKY_DEPTH);
        let (x0, x1, y_lo, y_hi) = match sky_window {
            Some((lo, hi)) => (lo.x.max(self.sky_x.0), hi.x.min(self.sky_x.1), lo.y, hi.y),
            None => (self.sky_x.0, self.sky_x.1, f64::NEG_INFINITY, f64::INFINITY),
        };
        let margin = COVER_MARGIN * (eye.z + SKY_DEPTH);
        let y_lo = (y_lo - margin).max(hidden_below(cover, SKY_DEPTH));
        let y_hi = y_hi + margin;
        let (sky_bottom, sky_top) = (self.sky[0].0, self.sky[self.sky.len() - 1].0);
        let covers = sky_window.is_some_and(|(lo, hi)| {
            self.sky_x.0 <= lo.x && hi.x <= self.sky_x.1 && sky_bottom <= y_lo && y_hi <= sky_top
        });
        let z = -SKY_DEPTH as f32;
        for w in self.sky.windows(2) {
            let ((ya, ca), (yb, cb)) = (w[0], w[1]);
            if yb <= ya || x1 <= x0 {
                continue;
            }
            let cut = |y: f64| {
                let y = y.clamp(ya, yb);
                let t = ((y - ya) / (yb - ya)) as f32;
                (y, std::array::from_fn(|i| ca[i] + (cb[i] - ca[i]) * t))
            };
            let ((ya, ca), (yb, cb)) = (cut(y_lo), cut(y_hi));
            if yb > ya {
                quad(
                    out,
                    [(x0, ya, ca), (x1, ya, ca), (x1, yb, cb), (x0, yb, cb)],
                    z,
                );
            }
        }
        for (layer, cut) in self.layers.iter().zip(&cuts).rev() {
            if let Some(cut) = cut {
                layer.draw(cut, out);
            }
        }
        covers
    }
}

/// The part of a layer drawn in one view: ridge segments `k0..k1`, from `base` up.
#[derive(Clone, Copy, Debug)]
struct LayerCut {
    k0: usize,
    k1: usize,
    base: f64,
    /// The bottom of the jagged band: the lowest ridge point in view, or `base` if higher.
    band_lo: f64,
}

impl Layer {
    /// Appends the triangles of `cut`: the jagged band above the lowest ridge point, one strip
    /// per segment, then the body below it as one quad (a CPU rasteriser fills whole tiles of a
    /// big triangle much faster than the same area cut into thin slivers).
    fn draw(&self, cut: &LayerCut, out: &mut Vec<ColorVertex>) {
        let z = -self.depth as f32;
        let band_lo = cut.band_lo;
        for k in cut.k0..cut.k1 {
            let (ya, yb) = (self.ridge[k], self.ridge[k + 1]);
            let (xa, xb) = (self.x(k), self.x(k + 1));
            quad(
                out,
                [
                    (xa, band_lo, self.color(band_lo)),
                    (xb, band_lo, self.color(band_lo)),
                    (xb, yb, self.color(yb)),
                    (xa, ya, self.color(ya)),
                ],
                z,
            );
        }
        if band_lo > cut.base {
            let (xa, xb) = (self.x(cut.k0), self.x(cut.k1));
            quad(
                out,
                [
                    (xa, cut.base, self.color(cut.base)),
                    (xb, cut.base, self.color(cut.base)),
                    (xb, band_lo, self.color(band_lo)),
                    (xa, band_lo, self.color(band_lo)),
                ],
                z,
            );
        }
    }
}

/// The bounding rectangle of what `view` sees on the plane `depth` metres behind the play plane:
/// where its four corner rays meet that plane. `None` when a corner ray does not reach it.
fn view_window(view: &CameraView) -> impl Fn(f64) -> Option<(DVec2, DVec2)> {
    let inv = view.view_proj.as_dmat4().inverse();
    let eye = view.eye.as_dvec3();
    let rays: [DVec3; 4] = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| {
        let near = inv.project_point3(DVec3::new(x, y, 0.0));
        let far = inv.project_point3(DVec3::new(x, y, 1.0));
        far - near
    });
    move |depth: f64| {
        let mut lo = DVec2::MAX;
        let mut hi = DVec2::MIN;
        for d in rays {
            if d.z >= 0.0 {
                return None;
            }
            let p = eye + d * ((-depth - eye.z) / d.z);
            lo = lo.min(p.truncate());
            hi = hi.max(p.truncate());
        }
        (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
    }
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
    use crate::view::camera::{CameraRig, FollowTarget};

    /// How many of the backdrop's triangles the ray from `near` to `far` hits.
    fn ray_hits(verts: &[ColorVertex], near: glam::Vec3, far: glam::Vec3) -> usize {
        verts
            .chunks(3)
            .filter(|t| {
                let z = t[0].position[2];
                let s = (z - near.z) / (far.z - near.z);
                let p = near + (far - near) * s;
                let q = |v: &ColorVertex| glam::Vec2::new(v.position[0], v.position[1]);
                let (a, b, c, p) = (q(&t[0]), q(&t[1]), q(&t[2]), p.truncate());
                let side = |u: glam::Vec2, v: glam::Vec2| (v - u).perp_dot(p - u);
                let (d0, d1, d2) = (side(a, b), side(b, c), side(c, a));
                (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
            })
            .count()
    }

    /// The view with the camera focused on `focus`.
    fn view_at(focus: DVec2, aspect: f64) -> CameraView {
        let cfg = CameraConfig::default();
        let t = FollowTarget {
            pos: focus - DVec2::new(0.0, cfg.focus_height),
            vel: DVec2::ZERO,
            facing: 0.0,
        };
        CameraRig::new(cfg, t, None, aspect).view(aspect)
    }

    /// Hits of the rays through a grid of `n + 1` × `n + 1` points of the view.
    fn hits_over_view(verts: &[ColorVertex], view: &CameraView, n: usize) -> Vec<usize> {
        let inv = view.view_proj.inverse();
        let mut hits = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                let sx = i as f32 / n as f32 * 2.0 - 1.0;
                let sy = j as f32 / n as f32 * 2.0 - 1.0;
                let near = inv.project_point3(glam::Vec3::new(sx, sy, 0.0));
                let far = inv.project_point3(glam::Vec3::new(sx, sy, 1.0));
                hits.push(ray_hits(verts, near, far));
            }
        }
        hits
    }

    const RANGE: Aabb = Aabb {
        min: DVec2::new(0.0, 0.0),
        max: DVec2::new(80.0, 30.0),
    };

    fn foci() -> [DVec2; 6] {
        [
            RANGE.min,
            RANGE.max,
            DVec2::new(0.0, 30.0),
            DVec2::new(80.0, 0.0),
            DVec2::new(40.0, 15.0),
            DVec2::new(13.7, 4.2),
        ]
    }

    #[test]
    fn the_backdrop_fills_the_whole_view_anywhere_in_the_focus_range() {
        // Each frame's backdrop is cut to the view and farther planes stop below the nearer
        // layers, so every ray of the view must still hit some part of it, at the corners and
        // inside, at any aspect ratio up to the widest.
        let backdrop = Backdrop::new(&RANGE, &CameraConfig::default());
        let mut verts = Vec::new();
        for focus in foci() {
            for aspect in [1.0, 16.0 / 9.0, MAX_ASPECT] {
                let view = view_at(focus, aspect);
                let covers = backdrop.vertices(&view, &mut verts);
                let hits = hits_over_view(&verts, &view, 24);
                let missed = hits.iter().filter(|&&h| h == 0).count();
                assert_eq!(missed, 0, "focus {focus}, aspect {aspect}: rays miss");
                // So the main pass draws these views without clearing its colour first.
                assert!(covers, "focus {focus}, aspect {aspect}: said not to cover");
            }
        }
    }

    #[test]
    fn nearly_every_backdrop_pixel_is_drawn_once() {
        // Overdraw is what the backdrop costs a CPU rasteriser. The nearer layers' jagged ridge
        // bands may overlap what is behind them; everything else is drawn once.
        let backdrop = Backdrop::new(&RANGE, &CameraConfig::default());
        let mut verts = Vec::new();
        for focus in foci() {
            let view = view_at(focus, 16.0 / 9.0);
            backdrop.vertices(&view, &mut verts);
            let hits = hits_over_view(&verts, &view, 40);
            let mean = hits.iter().sum::<usize>() as f64 / hits.len() as f64;
            assert!(mean < 1.2, "focus {focus}: {mean:.3} triangles per ray");
            assert!(
                verts.len() < 3_000,
                "focus {focus}: {} vertices",
                verts.len()
            );
        }
    }

    #[test]
    fn a_view_past_the_designed_range_falls_back_to_whole_planes() {
        // Far outside the focus range the layers no longer span the view; the farther planes
        // must then not be cut by a cover that does not exist: every ray of the view that meets
        // the sky's plane inside the sky's designed extent hits the backdrop (the corners of such
        // a view may lie past that extent, where nothing is drawn). The test used to check only
        // that some ray hit something, which a sky cut off by a missing cover passes too. With
        // the cover taken from layers that do not span the view (the `whole_width` condition
        // dropped), this fails: at focus (155, 15), where the nearest layer is partly in view,
        // 3 of the 625 rays then hit nothing.
        let backdrop = Backdrop::new(&RANGE, &CameraConfig::default());
        let z = -SKY_DEPTH as f32;
        let (y_min, y_max) = (backdrop.sky[0].0, backdrop.sky[backdrop.sky.len() - 1].0);
        let mut verts = Vec::new();
        // Foci from the range's sides outwards: the layers leave the view one by one, each
        // partly in view (not covering) on the way.
        let foci = (1..=40).flat_map(|k| {
            let d = 15.0 * f64::from(k);
            [
                DVec2::new(RANGE.max.x + d, 15.0),
                DVec2::new(RANGE.min.x - d, 15.0),
            ]
        });
        for focus in foci {
            let view = view_at(focus, 16.0 / 9.0);
            let covers = backdrop.vertices(&view, &mut verts);
            let inv = view.view_proj.inverse();
            let (mut inside, mut missed, mut missed_outside) = (0, 0, 0);
            // Rays through the centres of a 25 × 25 grid of cells over the view, as pixels are
            // sampled at their centres (the sky's sides are the view's edges, exactly).
            for i in 0..25 {
                for j in 0..25 {
                    let c = |k: i32| (k as f32 + 0.5) / 12.5 - 1.0;
                    let (sx, sy) = (c(i), c(j));
                    let near = inv.project_point3(glam::Vec3::new(sx, sy, 0.0));
                    let far = inv.project_point3(glam::Vec3::new(sx, sy, 1.0));
                    let p = near + (far - near) * ((z - near.z) / (far.z - near.z));
                    let (x, y) = (f64::from(p.x), f64::from(p.y));
                    if x < backdrop.sky_x.0 || x > backdrop.sky_x.1 || y < y_min || y > y_max {
                        missed_outside += usize::from(ray_hits(&verts, near, far) == 0);
                        continue;
                    }
                    inside += 1;
                    if ray_hits(&verts, near, far) == 0 {
                        missed += 1;
                    }
                }
            }
            assert!(inside > 0, "focus {focus}: the sky's extent is in view");
            assert_eq!(
                missed, 0,
                "focus {focus}: {missed} of {inside} rays miss the backdrop"
            );
            // Where it says it covers the view, the main pass skips its colour clear: every
            // pixel must be drawn.
            assert!(
                !covers || missed_outside == 0,
                "focus {focus}: said to cover, {missed_outside} rays miss"
            );
        }
        // Farther out the sky's designed extent ends inside the view: some pixels get no
        // backdrop, so the pass must clear them, and the backdrop says so.
        let view = view_at(DVec2::new(RANGE.max.x + 2_000.0, 15.0), 16.0 / 9.0);
        assert!(!backdrop.vertices(&view, &mut verts));
        let hits = hits_over_view(&verts, &view, 24);
        assert!(hits.contains(&0), "a view past the sky is all drawn");
    }

    #[test]
    fn layers_are_deterministic_and_farther_layers_are_hazier() {
        let range = Aabb {
            min: DVec2::ZERO,
            max: DVec2::new(10.0, 5.0),
        };
        let backdrop = Backdrop::new(&range, &CameraConfig::default());
        assert_eq!(backdrop, Backdrop::new(&range, &CameraConfig::default()));
        let view = view_at(DVec2::new(5.0, 5.0), 16.0 / 9.0);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        backdrop.vertices(&view, &mut a);
        backdrop.vertices(&view, &mut b);
        assert_eq!(a, b);
        let mean_blue_ratio = |z: f32| {
            let vs: Vec<_> = a.iter().filter(|v| v.position[2] == z).collect();
            assert!(!vs.is_empty(), "the layer at {z} is in view");
            vs.iter()
                .map(|v| v.color[2] / v.color[1].max(1e-3))
                .sum::<f32>()
                / vs.len() as f32
        };
        assert!(mean_blue_ratio(-200.0) > mean_blue_ratio(-25.0));
    }
}
