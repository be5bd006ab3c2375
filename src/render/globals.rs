//! Per-frame shader globals (mirrors `Globals` in `shaders/common.wgsl`) and the sun that lights
//! the scene and casts its shadow map.
use bytemuck::{Pod, Zeroable};
use glam::camera::rh::proj::directx;
use glam::camera::rh::view::look_at_mat4;
use glam::{DVec2, Mat4, Vec3, Vec4};

use super::palette::srgb;
use crate::collision::Aabb;
use crate::view::camera::CameraView;

/// The uniform block every pass reads (group 0, binding 0). All fields are 16-byte aligned
/// vec4/mat4, so the Rust and WGSL layouts agree without padding.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Globals {
    /// Camera projection × view.
    pub view_proj: [[f32; 4]; 4],
    /// Sun shadow camera projection × view.
    pub light_view_proj: [[f32; 4]; 4],
    /// Eye position (w unused).
    pub eye: [f32; 4],
    /// Unit vector towards the sun (w unused).
    pub sun_dir: [f32; 4],
    /// Sun radiance, linear RGB (w unused).
    pub sun_color: [f32; 4],
    /// Ambient light from above.
    pub sky_ambient: [f32; 4],
    /// Ambient light from below.
    pub ground_ambient: [f32; 4],
    /// Fog colour (rgb) and density per metre (w).
    pub fog: [f32; 4],
    /// x: time (s), y: shadow texel size, z: shadow strength, w: unused.
    pub params: [f32; 4],
}

/// The sun and the ambient light.
#[derive(Clone, Debug, PartialEq)]
pub struct Lighting {
    /// Unit vector towards the sun: from the upper left, in front of the play plane, so tops are
    /// bright, left walls lit, right walls in shade and shadows fall right and behind.
    pub sun_dir: Vec3,
    /// Sun radiance.
    pub sun_color: Vec3,
    /// Ambient from the sky and from the ground.
    pub sky_ambient: Vec3,
    /// Ambient bounced from the ground.
    pub ground_ambient: Vec3,
    /// Fog colour and density (1/m): distant geometry fades into the horizon haze.
    pub fog: Vec4,
    /// How dark shadows are, 0 (none) to 1 (only ambient).
    pub shadow_strength: f32,
    /// Shadow map resolution, texels per side.
    pub shadow_map_size: u32,
    /// The shadow camera moves in steps of this many texels (1: texel by texel), its map covering
    /// `shadow_snap - 1` texels more than it must so the view always fits. With steps of many
    /// texels it stays put while the view moves less than a step, and the shadow pass copies the
    /// level's depth from its cache instead of drawing it ([`super::passes::shadow`]).
    pub shadow_snap: u32,
}

impl Default for Lighting {
    fn default() -> Self {
        let s = srgb(0xd9e8ec);
        Lighting {
            sun_dir: Vec3::new(-0.45, 0.8, 0.55).normalize(),
            sun_color: Vec3::new(1.0, 0.93, 0.82) * 1.05,
            sky_ambient: Vec3::new(0.34, 0.40, 0.50),
            ground_ambient: Vec3::new(0.16, 0.14, 0.12),
            fog: Vec4::new(s[0], s[1], s[2], 0.0025),
            shadow_strength: 0.85,
            shadow_map_size: 1024,
            shadow_snap: 1,
        }
    }
}

/// Half the depth range (z) the shadow map must hold: the thickest slab plus the hero.
const SHADOW_HALF_DEPTH: f32 = 1.5;
/// How far above and beside the view shadow casters are still considered, m.
const CASTER_MARGIN: f64 = 12.0;

impl Lighting {
    /// The sun's orthographic shadow camera covering `visible` (the play-plane rectangle in view)
    /// and casters up to `CASTER_MARGIN` (12 m) outside it. Its position is snapped to whole shadow
    /// texels so shadow edges do not shimmer as the camera moves, and to steps of `shadow_snap`
    /// texels: with steps of more than one, its texel size (rounded up to 1/1024 m, so that float
    /// noise in a moving view's extent does not change it) and its depth range (rounded out to
    /// whole steps) stay the same bit for bit while the view moves within a step.
    pub fn shadow_view_proj(&self, visible: &Aabb) -> Mat4 {
        let up = if self.sun_dir.y.abs() > 0.99 {
            Vec3::Z
        } else {
            Vec3::Y
        };
        let view = look_at_mat4(Vec3::ZERO, -self.sun_dir, up);
        let m = CASTER_MARGIN;
        let lo = visible.min - DVec2::new(m, 0.0);
        let hi = visible.max + DVec2::new(m, m);
        let mut min = Vec3::splat(f32::MAX);
        let mut max = Vec3::splat(f32::MIN);
        for x in [lo.x, hi.x] {
            for y in [lo.y, hi.y] {
                for z in [-SHADOW_HALF_DEPTH, SHADOW_HALF_DEPTH] {
                    let p = view.transform_point3(Vec3::new(x as f32, y as f32, z));
                    min = min.min(p);
                    max = max.max(p);
                }
            }
        }
        let steps = self.shadow_snap.max(1);
        let usable = self.shadow_map_size.saturating_sub(steps - 1).max(1);
        let mut texel = (max.x - min.x).max(max.y - min.y) / usable as f32;
        // Right-handed: the camera looks down −z, so near/far are the negated max/min z.
        let (mut near, mut far) = (-max.z - 1.0, -min.z + 1.0);
        if steps > 1 {
            texel = (texel * 1024.0).ceil() / 1024.0;
        }
        let step = texel * steps as f32;
        if steps > 1 {
            near = (near / step).floor() * step;
            far = (far / step).ceil() * step;
        }
        let snap = |v: f32| (v / step).floor() * step;
        let (x0, y0) = (snap(min.x), snap(min.y));
        let size = texel * self.shadow_map_size as f32;
        let proj = directx::orthographic(x0, x0 + size, y0, y0 + size, near, far);
        proj * view
    }

    /// The uniform block for one frame.
    pub fn globals(&self, camera: &CameraView, time: f32) -> Globals {
        let v4 = |v: Vec3| [v.x, v.y, v.z, 0.0];
        Globals {
            view_proj: camera.view_proj.to_cols_array_2d(),
            light_view_proj: self.shadow_view_proj(&camera.visible).to_cols_array_2d(),
            eye: v4(camera.eye),
            sun_dir: v4(self.sun_dir),
            sun_color: v4(self.sun_color),
            sky_ambient: v4(self.sky_ambient),
            ground_ambient: v4(self.ground_ambient),
            fog: self.fog.to_array(),
            params: [
                time,
                1.0 / self.shadow_map_size as f32,
                self.shadow_strength,
                0.0,
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shadow_camera_holds_the_visible_box_in_its_clip_volume() {
        let l = Lighting::default();
        let visible = Aabb {
            min: DVec2::new(-20.0, -5.0),
            max: DVec2::new(30.0, 20.0),
        };
        let m = l.shadow_view_proj(&visible);
        for x in [-20.0f32, 30.0] {
            for y in [-5.0f32, 20.0] {
                for z in [-1.5f32, 1.5] {
                    let c = m.project_point3(Vec3::new(x, y, z));
                    assert!(
                        c.x.abs() <= 1.0 && c.y.abs() <= 1.0 && (0.0..=1.0).contains(&c.z),
                        "{c}"
                    );
                }
            }
        }
    }

    /// Whether the clip volume of `m` holds the corners of `visible` widened by the caster margin
    /// and the shadow depth range.
    fn holds(m: Mat4, visible: &Aabb) -> bool {
        let (lo, hi) = (
            visible.min - DVec2::new(CASTER_MARGIN, 0.0),
            visible.max + DVec2::splat(CASTER_MARGIN),
        );
        let mut ok = true;
        for x in [lo.x as f32, hi.x as f32] {
            for y in [lo.y as f32, hi.y as f32] {
                for z in [-SHADOW_HALF_DEPTH, SHADOW_HALF_DEPTH] {
                    let c = m.project_point3(Vec3::new(x, y, z));
                    // One texel of slack at the far edges, as texel snapping always had.
                    let slack = 1.0 + 2.0 / 512.0;
                    ok &= c.x.abs() <= slack && c.y.abs() <= slack && (0.0..=1.0).contains(&c.z);
                }
            }
        }
        ok
    }

    #[test]
    fn a_shadow_camera_in_steps_stays_put_while_the_view_moves_within_a_step() {
        let l = Lighting {
            shadow_map_size: 512,
            shadow_snap: 64,
            ..Lighting::default()
        };
        let mut changes = 0;
        let mut last = None;
        // The view (32 × 18 m) moving 40 m right and 10 m up in 1 mm steps.
        for i in 0..40_000 {
            let at = DVec2::new(i as f64 * 0.001, i as f64 * 0.00025) + DVec2::new(-3.3, 1.7);
            let visible = Aabb {
                min: at,
                max: at + DVec2::new(32.0, 18.0),
            };
            let m = l.shadow_view_proj(&visible);
            assert!(holds(m, &visible), "the view at {at} is out of the map");
            if last.is_some_and(|p: Mat4| p.to_cols_array() != m.to_cols_array()) {
                changes += 1;
            }
            last = Some(m);
        }
        // A step is 64 texels, about 8 m here: the 40 m across and 10 m up cross a handful of
        // steps in each of the light's axes and its depth (it looks at the plane at an angle,
        // so a move along either axis of the plane moves all three): 10 changes on 2026-11-27,
        // against 40 000 moves.
        assert!((1..=15).contains(&changes), "{changes} changes");
        let texel_by_texel = Lighting {
            shadow_snap: 1,
            ..l.clone()
        };
        let mut changes = 0;
        let mut last = None;
        for i in 0..4_000 {
            let at = DVec2::new(i as f64 * 0.001, 0.0);
            let visible = Aabb {
                min: at,
                max: at + DVec2::new(32.0, 18.0),
            };
            let m = texel_by_texel.shadow_view_proj(&visible);
            assert!(holds(m, &visible));
            if last.is_some_and(|p: Mat4| p.to_cols_array() != m.to_cols_array()) {
                changes += 1;
            }
            last = Some(m);
        }
        assert!(changes > 30, "texel by texel: {changes} changes over 4 m");
    }

    #[test]
    fn a_point_nearer_the_sun_has_smaller_shadow_depth() {
        let l = Lighting::default();
        let m = l.shadow_view_proj(&Aabb {
            min: DVec2::ZERO,
            max: DVec2::splat(10.0),
        });
        let p = Vec3::new(5.0, 5.0, 0.0);
        let nearer = p + l.sun_dir * 2.0;
        assert!(m.project_point3(nearer).z < m.project_point3(p).z);
        let (a, b) = (m.project_point3(p), m.project_point3(nearer));
        assert!(
            (a.x - b.x).abs() < 1e-4 && (a.y - b.y).abs() < 1e-4,
            "same shadow texel"
        );
    }
}
