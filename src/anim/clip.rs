//! Animation clips: keyframed channels per joint, sampled with the glTF interpolation modes.
//!
//! # Sampling rules (glTF 2.0, "Animations" and Appendix C)
//! - Before the first key the first value holds, after the last key the last value holds.
//! - `STEP`: the value of the key at or before the time.
//! - `LINEAR`: translation and scale interpolate linearly, rotation by spherical linear
//!   interpolation on the shorter arc.
//! - `CUBICSPLINE`: each key stores an in-tangent, a value and an out-tangent; between keys `k`
//!   and `k + 1`, with `td = t[k+1] - t[k]` and `s` the fraction of the interval, the value is the
//!   cubic Hermite spline `(2s³ − 3s² + 1)·v[k] + td·(s³ − 2s² + s)·b[k] + (−2s³ + 3s²)·v[k+1] +
//!   td·(s³ − s²)·a[k+1]` (tangents are per second, hence the factor `td`); rotations are then
//!   normalised.
use glam::{Quat, Vec3, Vec4};

use super::transform::Transform;

/// Which part of a joint's transform a channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// Translation (xyz).
    Translation,
    /// Rotation (a unit quaternion, xyzw).
    Rotation,
    /// Scale (xyz).
    Scale,
}

/// How values between keys are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Hold the previous key's value.
    Step,
    /// Linear (slerp for rotations).
    Linear,
    /// Cubic Hermite spline with per-key in- and out-tangents.
    CubicSpline,
}

/// One keyframed property of one joint.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    /// The joint (index into the skeleton).
    pub joint: u16,
    /// What it drives.
    pub property: Property,
    /// How it is interpolated.
    pub interpolation: Interpolation,
    /// Key times, s, strictly increasing, at least one.
    pub times: Vec<f32>,
    /// Values (xyz with w = 0 for translation and scale, xyzw for rotation): one per key, or for
    /// [`Interpolation::CubicSpline`] three per key (in-tangent, value, out-tangent).
    pub values: Vec<Vec4>,
}

impl Channel {
    /// The value at time `t` (s).
    pub fn sample(&self, t: f32) -> Vec4 {
        let cubic = self.interpolation == Interpolation::CubicSpline;
        let value = |k: usize| {
            if cubic {
                self.values[3 * k + 1]
            } else {
                self.values[k]
            }
        };
        let n = self.times.len();
        // Index of the last key at or before `t` (NaN compares false: it takes the first key).
        let next = self.times.partition_point(|&k| k <= t);
        if next == 0 {
            return value(0);
        }
        if next >= n {
            return value(n - 1);
        }
        let k = next - 1;
        let (t0, t1) = (self.times[k], self.times[next]);
        let td = t1 - t0;
        let s = ((t - t0) / td).clamp(0.0, 1.0);
        match self.interpolation {
            Interpolation::Step => value(k),
            Interpolation::Linear => {
                let (a, b) = (value(k), value(next));
                if self.property == Property::Rotation {
                    Vec4::from(Quat::from_vec4(a).slerp(Quat::from_vec4(b), s))
                } else {
                    a.lerp(b, s)
                }
            }
            Interpolation::CubicSpline => {
                let (s2, s3) = (s * s, s * s * s);
                let p0 = self.values[3 * k + 1];
                let m0 = self.values[3 * k + 2] * td;
                let p1 = self.values[3 * next + 1];
                let m1 = self.values[3 * next] * td;
                let v = p0 * (2.0 * s3 - 3.0 * s2 + 1.0)
                    + m0 * (s3 - 2.0 * s2 + s)
                    + p1 * (-2.0 * s3 + 3.0 * s2)
                    + m1 * (s3 - s2);
                if self.property == Property::Rotation {
                    v.normalize_or(p0)
                } else {
                    v
                }
            }
        }
    }

    /// Writes the value at `t` into the joint's transform.
    #[inline]
    pub fn apply(&self, t: f32, out: &mut Transform) {
        let v = self.sample(t);
        match self.property {
            Property::Translation => out.t = Vec3::new(v.x, v.y, v.z),
            Property::Rotation => out.r = Quat::from_vec4(v),
            Property::Scale => out.s = Vec3::new(v.x, v.y, v.z),
        }
    }
}

/// A named animation: channels over a common duration.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// The clip's name in the file.
    pub name: String,
    /// The last key time over every channel, s.
    pub duration: f32,
    /// The keyframed properties; joints without a channel keep their rest transform.
    pub channels: Vec<Channel>,
}

impl Clip {
    /// Samples the clip at time `t` (s, clamped to the clip) into `pose`, which must hold the
    /// skeleton's rest pose (or any pose to override) and one transform per joint.
    pub fn sample_into(&self, t: f32, pose: &mut [Transform]) {
        for c in &self.channels {
            if let Some(j) = pose.get_mut(usize::from(c.joint)) {
                c.apply(t, j);
            }
        }
    }

    /// `t` wrapped into `[0, duration)` for a looping clip (0 for a clip of zero length).
    pub fn wrap(&self, t: f32) -> f32 {
        if self.duration > 0.0 && t.is_finite() {
            t.rem_euclid(self.duration)
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    //! Every interpolation mode against values computed by hand.
    use super::*;

    fn channel(property: Property, interpolation: Interpolation, values: Vec<Vec4>) -> Channel {
        Channel {
            joint: 0,
            property,
            interpolation,
            times: vec![1.0, 3.0],
            values,
        }
    }

    fn close(a: Vec4, b: Vec4) {
        assert!(a.abs_diff_eq(b, 1e-6), "{a} != {b}");
    }

    #[test]
    fn step_holds_the_previous_key() {
        let c = channel(
            Property::Translation,
            Interpolation::Step,
            vec![Vec4::new(1.0, 2.0, 3.0, 0.0), Vec4::new(5.0, 6.0, 7.0, 0.0)],
        );
        close(c.sample(0.0), Vec4::new(1.0, 2.0, 3.0, 0.0));
        close(c.sample(2.999), Vec4::new(1.0, 2.0, 3.0, 0.0));
        close(c.sample(3.0), Vec4::new(5.0, 6.0, 7.0, 0.0));
        close(c.sample(9.0), Vec4::new(5.0, 6.0, 7.0, 0.0));
    }

    #[test]
    fn linear_translation_is_a_straight_line() {
        let c = channel(
            Property::Translation,
            Interpolation::Linear,
            vec![Vec4::new(1.0, 2.0, 3.0, 0.0), Vec4::new(5.0, 6.0, 7.0, 0.0)],
        );
        // t = 1.5: a quarter of the way from 1 to 3.
        close(c.sample(1.5), Vec4::new(2.0, 3.0, 4.0, 0.0));
        close(c.sample(0.5), Vec4::new(1.0, 2.0, 3.0, 0.0));
    }

    #[test]
    fn linear_rotation_is_a_slerp_on_the_shorter_arc() {
        // 0° to 90° about z; the second key is written with the opposite sign (same rotation).
        let a = Vec4::new(0.0, 0.0, 0.0, 1.0);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let b = Vec4::new(0.0, 0.0, -h, -h);
        let c = channel(Property::Rotation, Interpolation::Linear, vec![a, b]);
        // A quarter of the way: 22.5° about z, i.e. (0, 0, sin 11.25°, cos 11.25°) up to sign.
        let q = Quat::from_vec4(c.sample(1.5));
        let expected = Quat::from_xyzw(0.0, 0.0, 0.195_090_32, 0.980_785_3);
        assert!(
            q.abs_diff_eq(expected, 1e-6) || q.abs_diff_eq(-expected, 1e-6),
            "{q}"
        );
    }

    #[test]
    fn cubic_spline_uses_tangents_scaled_by_the_interval() {
        // Scalar-like: x goes from 0 (out-tangent 1 per s) to 4 (in-tangent -2 per s) over 2 s.
        let v = |x: f32| Vec4::new(x, 0.0, 0.0, 0.0);
        let c = channel(
            Property::Translation,
            Interpolation::CubicSpline,
            vec![v(9.0), v(0.0), v(1.0), v(-2.0), v(4.0), v(9.0)],
        );
        // At t = 2 (s = 0.5): h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125, td = 2:
        // 0.5·0 + 0.125·2·1 + 0.5·4 − 0.125·2·(−2) = 0.25 + 2 + 0.5 = 2.75.
        close(c.sample(2.0), v(2.75));
        // At t = 1.5 (s = 0.25): h10 = 0.140625, h01 = 0.15625, h11 = -0.046875:
        // 0.28125 + 0.625 + 0.1875 = 1.09375.
        close(c.sample(1.5), v(1.093_75));
        // Keys are hit exactly; the tangent slots of the first and last keys are never values.
        close(c.sample(1.0), v(0.0));
        close(c.sample(3.0), v(4.0));
        close(c.sample(7.0), v(4.0));
    }

    #[test]
    fn cubic_spline_rotations_are_normalised() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let z = Vec4::ZERO;
        let c = channel(
            Property::Rotation,
            Interpolation::CubicSpline,
            vec![
                z,
                Vec4::new(0.0, 0.0, 0.0, 1.0),
                z,
                z,
                Vec4::new(0.0, 0.0, h, h),
                z,
            ],
        );
        // Zero tangents: halfway the Hermite weights are 0.5 and 0.5, so the result is the
        // normalised average of 0° and 90° about z: 45°.
        let q = Quat::from_vec4(c.sample(2.0));
        assert!((q.length() - 1.0).abs() < 1e-6);
        assert!(
            q.abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4), 1e-6),
            "{q}"
        );
    }

    #[test]
    fn wrap_loops_into_the_clip() {
        let clip = Clip {
            name: "x".into(),
            duration: 2.0,
            channels: vec![],
        };
        assert_eq!(clip.wrap(5.0), 1.0);
        assert_eq!(clip.wrap(-0.5), 1.5);
        assert_eq!(clip.wrap(f32::NAN), 0.0);
    }
}
