//! The side-scroller camera: a perspective view of the z = 0 play plane that follows the hero.
//!
//! Pure CPU state, updated once per rendered frame with that frame's (interpolated) hero position:
//! - a dead zone: the hero moves freely inside a box around the tracked anchor before the camera
//!   follows, so small steps and hops do not shake the view;
//! - look-ahead: the view leads in the direction of motion (held while standing still);
//! - smoothing: exponential approach, frame-rate independent (`1 - exp(-dt / time)`);
//! - clamping: the part of the play plane in view never leaves the level's camera bounds (centred
//!   when the bounds are smaller than the view).
use glam::camera::rh::proj::directx;
use glam::camera::rh::view::look_at_mat4;
use glam::{DVec2, Mat4, Vec3};

use crate::collision::Aabb;

/// Camera constants. Metres, seconds, degrees.
#[derive(Clone, Debug, PartialEq)]
pub struct CameraConfig {
    /// Vertical field of view, degrees. Default 40.
    pub fov_y_deg: f64,
    /// Distance from the eye to the focus point on the play plane, m. Default 17.
    pub distance: f64,
    /// Downward tilt of the view, degrees: shows the tops of the slabs. Default 9.
    pub pitch_deg: f64,
    /// Focus height above the hero's feet, m. Default 1.5.
    pub focus_height: f64,
    /// Half size of the dead zone box around the anchor, m. Default (1.2, 0.9).
    pub dead_zone: DVec2,
    /// Look-ahead distance in the direction of motion, m. Default 2.5.
    pub look_ahead: f64,
    /// Horizontal speed above which the look-ahead turns to the direction of motion, m/s. Default 1.
    pub look_ahead_min_speed: f64,
    /// Time constant of the look-ahead swing, s. Default 0.6.
    pub look_ahead_time: f64,
    /// Time constant of the follow smoothing, s. Default 0.12.
    pub smoothing_time: f64,
    /// Near and far clip planes, m. Default (0.5, 2000).
    pub clip: (f64, f64),
}

impl Default for CameraConfig {
    fn default() -> Self {
        CameraConfig {
            fov_y_deg: 40.0,
            distance: 17.0,
            pitch_deg: 9.0,
            focus_height: 1.5,
            dead_zone: DVec2::new(1.2, 0.9),
            look_ahead: 2.5,
            look_ahead_min_speed: 1.0,
            look_ahead_time: 0.6,
            smoothing_time: 0.12,
            clip: (0.5, 2000.0),
        }
    }
}

/// What the camera follows this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FollowTarget {
    /// Hero feet position (interpolated).
    pub pos: DVec2,
    /// Hero velocity, m/s.
    pub vel: DVec2,
    /// Facing: +1 right, −1 left.
    pub facing: f64,
}

/// The following camera's state.
#[derive(Clone, Debug, PartialEq)]
pub struct CameraRig {
    /// Constants.
    pub config: CameraConfig,
    /// The point the dead zone tracks (feet).
    anchor: DVec2,
    /// Current horizontal look-ahead offset, m.
    look: f64,
    /// The smoothed point on the play plane the camera looks at.
    focus: DVec2,
}

/// A camera pose for one frame, ready for the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraView {
    /// Eye position.
    pub eye: Vec3,
    /// Looked-at point (on the play plane).
    pub target: Vec3,
    /// Projection × view, wgpu clip space (depth 0..1).
    pub view_proj: Mat4,
    /// A rectangle of the play plane that contains everything in view for `|z| <= 3 m`
    /// (conservative, for culling).
    pub visible: Aabb,
}

impl CameraRig {
    /// A camera looking at `target` right away.
    pub fn new(
        config: CameraConfig,
        target: FollowTarget,
        bounds: Option<Aabb>,
        aspect: f64,
    ) -> Self {
        let mut rig = CameraRig {
            config,
            anchor: target.pos,
            look: 0.0,
            focus: target.pos,
        };
        rig.snap(target, bounds, aspect);
        rig
    }

    /// A camera looking straight at `focus` (the editor's free camera: it pans and zooms, and
    /// nothing follows).
    pub fn looking_at(config: CameraConfig, focus: DVec2) -> Self {
        CameraRig {
            config,
            anchor: focus,
            look: 0.0,
            focus,
        }
    }

    /// Moves the focus to `focus` at once.
    pub fn set_focus(&mut self, focus: DVec2) {
        self.anchor = focus;
        self.focus = focus;
    }

    /// Jumps to the settled pose for `target` (no smoothing): for the first frame, teleports and
    /// headless screenshots.
    pub fn snap(&mut self, target: FollowTarget, bounds: Option<Aabb>, aspect: f64) {
        self.anchor = target.pos;
        self.look = target.facing.signum() * self.config.look_ahead;
        self.focus = self.clamp(self.desired(), bounds, aspect);
    }

    /// Advances the follow by `dt` seconds of wall time.
    pub fn update(&mut self, target: FollowTarget, dt: f64, bounds: Option<Aabb>, aspect: f64) {
        let c = &self.config;
        let dz = c.dead_zone;
        self.anchor = self.anchor.clamp(target.pos - dz, target.pos + dz);
        if target.vel.x.abs() > c.look_ahead_min_speed {
            let goal = target.vel.x.signum() * c.look_ahead;
            self.look += (goal - self.look) * blend(dt, c.look_ahead_time);
        }
        let desired = self.clamp(self.desired(), bounds, aspect);
        self.focus += (desired - self.focus) * blend(dt, self.config.smoothing_time);
        self.focus = self.clamp(self.focus, bounds, aspect);
    }

    /// The smoothed focus point on the play plane.
    pub fn focus(&self) -> DVec2 {
        self.focus
    }

    /// Half the width and height of the play plane in view at the focus distance.
    pub fn half_extents(&self, aspect: f64) -> DVec2 {
        let h = self.config.distance * (self.config.fov_y_deg.to_radians() / 2.0).tan();
        DVec2::new(h * aspect, h)
    }

    /// The pose for drawing at this aspect ratio (width / height).
    pub fn view(&self, aspect: f64) -> CameraView {
        let c = &self.config;
        let pitch = c.pitch_deg.to_radians();
        let target = Vec3::new(self.focus.x as f32, self.focus.y as f32, 0.0);
        let eye = target
            + Vec3::new(
                0.0,
                (c.distance * pitch.sin()) as f32,
                (c.distance * pitch.cos()) as f32,
            );
        let view = look_at_mat4(eye, target, Vec3::Y);
        let proj = directx::perspective(
            c.fov_y_deg.to_radians() as f32,
            aspect as f32,
            c.clip.0 as f32,
            c.clip.1 as f32,
        );
        // Depth ±3 m around the plane changes the scale by at most distance / (distance - 3); the
        // pitch moves the view by about distance·sin(pitch) at the edges. Both are covered here.
        let scale = c.distance / (c.distance - 3.0) * 1.1;
        let half = self.half_extents(aspect) * scale + DVec2::splat(1.0 + c.distance * pitch.sin());
        CameraView {
            eye,
            target,
            view_proj: proj * view,
            visible: Aabb {
                min: self.focus - half,
                max: self.focus + half,
            },
        }
    }

    fn desired(&self) -> DVec2 {
        self.anchor + DVec2::new(self.look, self.config.focus_height)
    }

    /// Keeps the view rectangle centred on `p` inside `bounds` (centred where it cannot fit).
    fn clamp(&self, p: DVec2, bounds: Option<Aabb>, aspect: f64) -> DVec2 {
        let Some(b) = bounds else {
            return p;
        };
        let half = self.half_extents(aspect);
        let axis = |v: f64, lo: f64, hi: f64, h: f64| {
            if hi - lo <= 2.0 * h {
                (lo + hi) / 2.0
            } else {
                v.clamp(lo + h, hi - h)
            }
        };
        DVec2::new(
            axis(p.x, b.min.x, b.max.x, half.x),
            axis(p.y, b.min.y, b.max.y, half.y),
        )
    }
}

/// Fraction of the remaining distance covered in `dt` by an exponential approach with time
/// constant `time` (1 when `time` is 0).
fn blend(dt: f64, time: f64) -> f64 {
    if time <= 0.0 {
        1.0
    } else {
        1.0 - (-dt.max(0.0) / time).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASPECT: f64 = 16.0 / 9.0;

    fn at(x: f64, y: f64, vx: f64) -> FollowTarget {
        FollowTarget {
            pos: DVec2::new(x, y),
            vel: DVec2::new(vx, 0.0),
            facing: if vx < 0.0 { -1.0 } else { 1.0 },
        }
    }

    fn settle(rig: &mut CameraRig, t: FollowTarget, bounds: Option<Aabb>) {
        for _ in 0..600 {
            rig.update(t, 1.0 / 60.0, bounds, ASPECT);
        }
    }

    #[test]
    fn small_moves_inside_the_dead_zone_do_not_move_the_camera() {
        let mut rig = CameraRig::new(CameraConfig::default(), at(0.0, 0.0, 0.0), None, ASPECT);
        let before = rig.focus();
        settle(&mut rig, at(1.0, 0.5, 0.0), None);
        assert_eq!(rig.focus(), before);
    }

    #[test]
    fn leaving_the_dead_zone_drags_the_camera_by_the_excess() {
        let cfg = CameraConfig::default();
        let mut rig = CameraRig::new(cfg.clone(), at(0.0, 0.0, 0.0), None, ASPECT);
        let start = rig.focus();
        settle(&mut rig, at(5.0, 0.0, 0.0), None);
        let moved = rig.focus() - start;
        assert!((moved.x - (5.0 - cfg.dead_zone.x)).abs() < 1e-6, "{moved}");
        assert!(moved.y.abs() < 1e-9);
    }

    #[test]
    fn the_view_leads_in_the_direction_of_motion() {
        let cfg = CameraConfig::default();
        let mut rig = CameraRig::new(cfg.clone(), at(0.0, 0.0, 8.0), None, ASPECT);
        settle(&mut rig, at(0.0, 0.0, -8.0), None);
        assert!(
            (rig.focus().x + cfg.look_ahead).abs() < 1e-6,
            "{}",
            rig.focus()
        );
        // Standing still keeps the last lead.
        settle(&mut rig, at(0.0, 0.0, 0.0), None);
        assert!((rig.focus().x + cfg.look_ahead).abs() < 1e-6);
    }

    #[test]
    fn smoothing_approaches_without_overshoot_and_independently_of_frame_rate() {
        let run = |fps: f64| {
            let mut rig = CameraRig::new(CameraConfig::default(), at(0.0, 0.0, 0.0), None, ASPECT);
            let start = rig.focus().x;
            let mut xs = vec![];
            for _ in 0..(fps * 0.25) as usize {
                rig.update(at(10.0, 0.0, 0.0), 1.0 / fps, None, ASPECT);
                xs.push(rig.focus().x);
            }
            assert!(xs.windows(2).all(|w| w[1] >= w[0]), "monotonic");
            assert!(xs.iter().all(|&x| x <= start + 10.0), "no overshoot");
            *xs.last().unwrap()
        };
        let (a, b) = (run(40.0), run(240.0));
        assert!((a - b).abs() < 1e-6, "40 fps {a} vs 240 fps {b}");
    }

    #[test]
    fn the_view_stays_inside_the_camera_bounds() {
        let bounds = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(100.0, 30.0),
        };
        let mut rig = CameraRig::new(
            CameraConfig::default(),
            at(1.0, 1.0, 0.0),
            Some(bounds),
            ASPECT,
        );
        let half = rig.half_extents(ASPECT);
        for t in [
            at(1.0, 1.0, -5.0),
            at(99.0, 29.0, 5.0),
            at(50.0, -10.0, 0.0),
        ] {
            settle(&mut rig, t, Some(bounds));
            let f = rig.focus();
            assert!(f.x - half.x >= -1e-9 && f.x + half.x <= 100.0 + 1e-9, "{f}");
            assert!(f.y - half.y >= -1e-9 && f.y + half.y <= 30.0 + 1e-9, "{f}");
        }
    }

    #[test]
    fn bounds_smaller_than_the_view_centre_it() {
        let bounds = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(4.0, 2.0),
        };
        let rig = CameraRig::new(
            CameraConfig::default(),
            at(3.0, 1.0, 0.0),
            Some(bounds),
            ASPECT,
        );
        assert_eq!(rig.focus(), DVec2::new(2.0, 1.0));
    }

    #[test]
    fn the_focus_projects_to_the_screen_centre_and_the_visible_rect_covers_the_screen() {
        let rig = CameraRig::new(CameraConfig::default(), at(3.0, 2.0, 0.0), None, ASPECT);
        let v = rig.view(ASPECT);
        let c = v.view_proj.project_point3(v.target);
        assert!(c.x.abs() < 1e-5 && c.y.abs() < 1e-5, "{c}");
        for (sx, sy) in [(-1.0f32, -1.0f32), (1.0, 1.0), (-1.0, 1.0), (1.0, -1.0)] {
            for z in [-3.0f32, 3.0] {
                // Unproject the screen corner onto the plane at depth z.
                let inv = v.view_proj.inverse();
                let near = inv.project_point3(Vec3::new(sx, sy, 0.0));
                let far = inv.project_point3(Vec3::new(sx, sy, 1.0));
                let t = (z - near.z) / (far.z - near.z);
                let p = near + (far - near) * t;
                let q = DVec2::new(p.x as f64, p.y as f64);
                assert!(
                    v.visible.contains(q),
                    "corner ({sx},{sy}) at z={z}: {q} not in {:?}",
                    v.visible
                );
            }
        }
    }
}
