//! A joint's local transform (translation, rotation, scale) and the blends between two of them.
use glam::{Mat4, Quat, Vec3};

/// Translation, rotation and scale, applied scale first (the glTF node order `T * R * S`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation, m.
    pub t: Vec3,
    /// Unit rotation.
    pub r: Quat,
    /// Scale per axis.
    pub s: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl Transform {
    /// No translation, rotation or scale.
    pub const IDENTITY: Transform = Transform {
        t: Vec3::ZERO,
        r: Quat::IDENTITY,
        s: Vec3::ONE,
    };

    /// The 4×4 matrix `T * R * S`.
    #[inline]
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.s, self.r, self.t)
    }

    /// The blend `self → other` by `w` in `[0, 1]`: translation and scale linearly, rotation by
    /// normalised linear interpolation on the shorter arc (for the blend weights used here, a few
    /// tenths of a degree from a slerp and about three times cheaper).
    #[inline]
    pub fn blend(&self, other: &Transform, w: f32) -> Transform {
        Transform {
            t: self.t.lerp(other.t, w),
            r: nlerp(self.r, other.r, w),
            s: self.s.lerp(other.s, w),
        }
    }
}

/// Normalised linear interpolation of unit quaternions along the shorter arc.
#[inline]
pub fn nlerp(a: Quat, b: Quat, w: f32) -> Quat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    let q = a * (1.0 - w) + b * w;
    let n = q.length_squared();
    if n > 1e-12 {
        q * n.sqrt().recip()
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nlerp_takes_the_shorter_arc_and_stays_unit() {
        let a = Quat::from_rotation_z(0.1);
        // The same rotation as 0.3 rad, written with the opposite sign.
        let b = -Quat::from_rotation_z(0.3);
        let m = nlerp(a, b, 0.5);
        assert!((m.length() - 1.0).abs() < 1e-6);
        let (axis, angle) = m.to_axis_angle();
        assert!((angle * axis.z - 0.2).abs() < 1e-5, "{axis} {angle}");
    }

    #[test]
    fn blend_ends_are_the_inputs() {
        let a = Transform {
            t: Vec3::new(1.0, 2.0, 3.0),
            r: Quat::from_rotation_y(0.5),
            s: Vec3::ONE,
        };
        let b = Transform {
            t: Vec3::new(-1.0, 0.0, 1.0),
            r: Quat::from_rotation_x(-0.5),
            s: Vec3::splat(2.0),
        };
        assert!(a.blend(&b, 0.0).t.abs_diff_eq(a.t, 1e-6));
        assert!(a.blend(&b, 1.0).r.abs_diff_eq(b.r, 1e-6));
        assert!(a.blend(&b, 0.5).s.abs_diff_eq(Vec3::splat(1.5), 1e-6));
    }
}
