//! Interruptible transitions by dead blending (D. Holden, "Dead Blending", 2023, and its
//! closed-form variant in "Dead Blending Node in Unreal Engine", 2023).
//!
//! At a transition the output pose and its velocity (the finite difference of the last two
//! output poses) are recorded. For the blend's duration the recorded pose is extrapolated along
//! its velocity, the velocity decaying exponentially with a half-life, and cross-faded into the
//! new animation with a smoothstep weight. A transition that starts mid-fade records the blended
//! output as its source, so any transition can interrupt any other and the drawn pose never
//! jumps: position continuity holds because the source is exactly the last output, velocity
//! continuity because the extrapolation starts at the last output's velocity.
//!
//! Rejected: offset inertialization (decaying the difference between the source and the new
//! animation), which needs no extrapolated pose but, when the two poses are far apart (a run
//! into a tucked jump), overshoots joints along the decaying offset; the decaying extrapolation
//! stays within `velocity × half-life / ln 2` of the source. A plain cross-fade between the old
//! and the new clip would need both clips sampled during the fade, and an interrupted fade
//! would pop or need a stack of fades.
use glam::{Quat, Vec3};

use super::transform::Transform;

/// The state of one dead blend over a whole skeleton. Buffers are sized once ([`DeadBlend::new`]).
#[derive(Clone, Debug)]
pub struct DeadBlend {
    source: Vec<Transform>,
    vel_t: Vec<Vec3>,
    vel_r: Vec<Vec3>,
    vel_s: Vec<Vec3>,
    elapsed: f32,
    duration: f32,
    /// Rate of the velocity's exponential decay, 1/s (`ln 2 / half-life`).
    decay: f32,
}

/// Smoothstep `3x² − 2x³` on `[0, 1]`: zero slope at both ends, so the blend weight itself
/// starts and ends without a kink.
fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

impl DeadBlend {
    /// A dead blend for `joints` joints whose extrapolated velocity halves every `halflife`
    /// seconds. Starts inactive.
    pub fn new(joints: usize, halflife: f32) -> DeadBlend {
        DeadBlend {
            source: vec![Transform::IDENTITY; joints],
            vel_t: vec![Vec3::ZERO; joints],
            vel_r: vec![Vec3::ZERO; joints],
            vel_s: vec![Vec3::ZERO; joints],
            elapsed: 0.0,
            duration: 0.0,
            decay: std::f32::consts::LN_2 / halflife.max(1e-4),
        }
    }

    /// Starts a transition lasting `duration` s from the output pose `current`, which followed
    /// `previous` by `dt` s (the velocity's finite difference). Any blend in progress is
    /// replaced: `current` already contains it.
    pub fn start(&mut self, current: &[Transform], previous: &[Transform], dt: f32, duration: f32) {
        let inv_dt = if dt > 0.0 { dt.recip() } else { 0.0 };
        for j in 0..self.source.len().min(current.len()).min(previous.len()) {
            let (c, p) = (current[j], previous[j]);
            self.source[j] = c;
            self.vel_t[j] = (c.t - p.t) * inv_dt;
            self.vel_s[j] = (c.s - p.s) * inv_dt;
            let mut d = c.r * p.r.conjugate();
            if d.w < 0.0 {
                d = -d;
            }
            self.vel_r[j] = d.to_scaled_axis() * inv_dt;
        }
        self.elapsed = 0.0;
        self.duration = duration.max(0.0);
    }

    /// Advances the blend by `dt` s.
    pub fn advance(&mut self, dt: f32) {
        self.elapsed = (self.elapsed + dt).min(self.duration);
    }

    /// Whether a transition is still fading in.
    pub fn active(&self) -> bool {
        self.elapsed < self.duration
    }

    /// The weight of the new animation now, in `[0, 1]`.
    pub fn weight(&self) -> f32 {
        if self.active() {
            smoothstep(self.elapsed / self.duration)
        } else {
            1.0
        }
    }

    /// Blends the extrapolated source into `pose` (the new animation, sampled now), in place.
    pub fn apply(&self, pose: &mut [Transform]) {
        if !self.active() {
            return;
        }
        let w = self.weight();
        // Distance factor of a velocity decaying at `decay` over `elapsed`: ∫ e^(−λt) dt.
        let k = (1.0 - (-self.decay * self.elapsed).exp()) / self.decay;
        for (j, out) in pose.iter_mut().enumerate().take(self.source.len()) {
            let s = self.source[j];
            let ext = Transform {
                t: s.t + self.vel_t[j] * k,
                r: Quat::from_scaled_axis(self.vel_r[j] * k) * s.r,
                s: s.s + self.vel_s[j] * k,
            };
            *out = ext.blend(out, w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f32, angle: f32) -> Vec<Transform> {
        vec![Transform {
            t: Vec3::new(x, 0.0, 0.0),
            r: Quat::from_rotation_z(angle),
            s: Vec3::ONE,
        }]
    }

    #[test]
    fn the_blend_starts_at_the_source_and_ends_at_the_target() {
        let mut b = DeadBlend::new(1, 0.1);
        b.start(&pose(1.0, 0.5), &pose(1.0, 0.5), 0.01, 0.2);
        let mut p = pose(3.0, -0.5);
        b.apply(&mut p);
        assert!((p[0].t.x - 1.0).abs() < 1e-6 && p[0].r.abs_diff_eq(pose(1.0, 0.5)[0].r, 1e-6));
        b.advance(0.25);
        assert!(!b.active());
        let mut p = pose(3.0, -0.5);
        b.apply(&mut p);
        assert_eq!(p, pose(3.0, -0.5));
    }

    #[test]
    fn the_source_keeps_moving_with_a_decaying_velocity() {
        // Moving +1 m/s and turning +1 rad/s at the transition; the target holds still at 0.
        let mut b = DeadBlend::new(1, 0.1);
        b.start(&pose(0.01, 0.01), &pose(0.0, 0.0), 0.01, 1.0);
        b.advance(0.05);
        // Weight at 5 % of the blend: smoothstep(0.05) = 0.00725; extrapolated distance
        // (1 − e^(−λ·0.05)) / λ with λ = ln 2 / 0.1.
        let lambda = std::f32::consts::LN_2 / 0.1;
        let k = (1.0 - (-lambda * 0.05f32).exp()) / lambda;
        let w = 0.05f32 * 0.05 * (3.0 - 0.1);
        let mut p = pose(0.0, 0.0);
        b.apply(&mut p);
        assert!(
            (p[0].t.x - (0.01 + k) * (1.0 - w)).abs() < 1e-5,
            "{}",
            p[0].t.x
        );
        let angle = 2.0 * p[0].r.z.atan2(p[0].r.w);
        assert!((angle - (0.01 + k) * (1.0 - w)).abs() < 1e-3, "{angle}");
        // The extrapolation never runs further than velocity / λ.
        b.advance(10.0);
        assert!(k < 1.0 / lambda);
    }

    #[test]
    fn an_interrupted_blend_continues_from_the_blended_output() {
        let mut b = DeadBlend::new(1, 0.1);
        b.start(&pose(0.0, 0.0), &pose(0.0, 0.0), 0.01, 0.2);
        b.advance(0.1);
        let mut mid = pose(1.0, 1.0);
        b.apply(&mut mid);
        // A new transition starts from the output as drawn: no jump at the switch.
        let mut c = DeadBlend::new(1, 0.1);
        c.start(&mid, &mid, 0.01, 0.2);
        let mut next = pose(-1.0, -1.0);
        c.apply(&mut next);
        assert!(next[0].t.abs_diff_eq(mid[0].t, 1e-6) && next[0].r.abs_diff_eq(mid[0].r, 1e-6));
    }
}
