//! Feet on slopes: the legs of a pose bent by two-bone IK so that each foot stands on a straight
//! slope under the hero instead of the flat floor the clips were keyed on.
//!
//! The ground comes from the movement: the edge the hero stands on ([`Ground`]). The collider has
//! a flat bottom, so on a slope it rests on its uphill corner and its reference point (the feet)
//! hangs `half_width × |slope|` above the slope's surface; the surface under a point `x` m ahead of
//! the feet is `slope × x − half_width × |slope|` m below them. Each foot keeps the height above
//! the ground its clip gives it on flat ground: the foot is turned by the slope's angle `φ` and
//! moved so that the sole point under its ankle is as far from the slope, measured across it, as
//! it was above the flat floor (a rigid turn of foot and floor together, so heel and toe keep their
//! clearance too, and a flat-footed stance stands flat on the slope); the hips come down as far as
//! the lower foot needs and the knees take up the rest.
//!
//! The hero's legs bend in the model's x–y plane (every clip rotates joints about z only), so the
//! IK is planar: the law of cosines gives the hip and knee angles, the knee keeps its side, and
//! the angle changes are added as rotations about z to the thigh, the shin and the foot.
use glam::{Mat4, Quat, Vec2};

use super::skeleton::Skeleton;
use super::transform::Transform;

/// The straight ground under the hero, in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// Rise over run of the ground (dy/dx, world x to the right).
    pub slope: f64,
    /// Half the width of the collider's flat bottom, m.
    pub half_width: f64,
}

/// One leg's joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    /// The hip joint (the thigh bone's joint).
    pub thigh: usize,
    /// The knee (the shin bone's joint).
    pub shin: usize,
    /// The ankle (the foot bone's joint).
    pub foot: usize,
}

fn angle(v: Vec2) -> f32 {
    v.y.atan2(v.x)
}

/// `a` wrapped into `(−π, π]`.
fn wrap(a: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    let w = (a + PI).rem_euclid(TAU) - PI;
    if w <= -PI {
        w + TAU
    } else {
        w
    }
}

/// Planar two-bone IK: the changes of the thigh's and the shin's absolute angles (radians, about
/// z) that bring the ankle from `ankle` to `target` with the hip fixed, the knee on the `side` of
/// the hip–target line (+1: counter-clockwise from it, as a forward knee is for a leg pointing
/// down and a body facing +x). A target out of reach is approached as near as the leg's lengths
/// allow.
pub fn two_bone(hip: Vec2, knee: Vec2, ankle: Vec2, target: Vec2, side: f32) -> (f32, f32) {
    let (l1, l2) = ((knee - hip).length(), (ankle - knee).length());
    let to_target = target - hip;
    let d = to_target
        .length()
        .clamp((l1 - l2).abs() + 1e-4, l1 + l2 - 1e-4);
    let cos_hip = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
    let thigh = angle(to_target) + side * cos_hip.acos();
    let new_knee = hip + l1 * Vec2::from_angle(thigh);
    let shin = angle(target - new_knee);
    (
        wrap(thigh - angle(knee - hip)),
        wrap(shin - angle(ankle - knee)),
    )
}

/// Bends `pose` (the model facing +x, feet at the origin) so its feet stand on ground of slope
/// `slope` (dy/dx in the model's frame) whose surface at the feet is `drop` m below them, by
/// `weight` in `[0, 1]` (0 leaves the pose as it is). `world` is scratch, one matrix per joint.
pub fn plant_feet(
    skeleton: &Skeleton,
    pose: &mut [Transform],
    legs: [Leg; 2],
    slope: f32,
    drop: f32,
    weight: f32,
    world: &mut [Mat4],
) {
    if weight <= 0.0 || (slope == 0.0 && drop == 0.0) {
        return;
    }
    skeleton.world_matrices(Mat4::IDENTITY, pose, world);
    let at = |j: usize| world[j].w_axis.truncate().truncate();
    let tilt = slope.atan();
    // How far each ankle must move up (negative: down) so that the sole point under it (the
    // ankle's bind height `h` down the foot's own axis) keeps its clip height above the ground
    // once the foot is turned by the slope's angle too.
    let lift = legs.map(|leg| {
        let ankle = at(leg.foot);
        let h = skeleton.inverse_bind[leg.foot].inverse().w_axis.y;
        let x_axis = world[leg.foot].x_axis;
        let before = x_axis.y.atan2(x_axis.x);
        let after = before + tilt;
        let sole_x = ankle.x + h * after.sin();
        // Its clip height over the flat floor, kept as the distance to the slope (measured
        // across it), so the whole foot, heel to toe, keeps its clearance.
        let gap = ankle.y - h * before.cos();
        slope * sole_x - drop + gap / tilt.cos() + h * after.cos() - ankle.y
    });
    // The hips come down as far as the lower foot needs (never up: the knees bend instead).
    let hips = weight * lift[0].min(lift[1]).min(0.0);
    if let Some(root) = skeleton.order.first() {
        pose[usize::from(*root)].t.y += hips;
    }
    let down = Vec2::new(0.0, hips);
    for (leg, lift) in legs.into_iter().zip(lift) {
        let (hip, knee, ankle) = (
            at(leg.thigh) + down,
            at(leg.shin) + down,
            at(leg.foot) + down,
        );
        let target = ankle + Vec2::new(0.0, weight * lift - hips);
        // Knees bend forwards. Taking the side from the pose instead flips a nearly straight
        // leg's knee backwards whenever the clip's knee crosses the hip–ankle line.
        let (d_thigh, d_shin) = two_bone(hip, knee, ankle, target, 1.0);
        // Rotations about z commute with the ancestors' (also about z): a change of absolute
        // angle is the same change of local angle, minus what the parent already turned.
        let rot = |a: f32| Quat::from_rotation_z(a);
        pose[leg.thigh].r = rot(d_thigh) * pose[leg.thigh].r;
        pose[leg.shin].r = rot(d_shin - d_thigh) * pose[leg.shin].r;
        pose[leg.foot].r = rot(weight * tilt - d_shin) * pose[leg.foot].r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ankle_reaches_a_target_in_reach_with_the_knee_forward() {
        // A leg bent forward: hip at the origin, knee ahead, ankle below.
        let (hip, knee, ankle) = (Vec2::ZERO, Vec2::new(0.1, -0.4), Vec2::new(0.0, -0.8));
        let target = Vec2::new(0.1, -0.6);
        let (dt, ds) = two_bone(hip, knee, ankle, target, 1.0);
        let k = hip + Vec2::from_angle(angle(knee - hip) + dt) * (knee - hip).length();
        let a = k + Vec2::from_angle(angle(ankle - knee) + ds) * (ankle - knee).length();
        assert!(a.abs_diff_eq(target, 1e-5), "{a}");
        assert!(k.x > 0.0, "the knee stays in front: {k}");
        // The other side puts the knee behind.
        let (dt, _) = two_bone(hip, knee, ankle, target, -1.0);
        let k = hip + Vec2::from_angle(angle(knee - hip) + dt) * (knee - hip).length();
        assert!(k.x < 0.0, "{k}");
    }

    #[test]
    fn flat_ground_changes_nothing() {
        let m = crate::anim::builtin_hero();
        let mut pose = m.rest_pose();
        let legs = [
            Leg {
                thigh: 13,
                shin: 14,
                foot: 15,
            },
            Leg {
                thigh: 17,
                shin: 18,
                foot: 19,
            },
        ];
        let mut world = vec![Mat4::IDENTITY; m.skeleton.len()];
        plant_feet(&m.skeleton, &mut pose, legs, 0.0, 0.0, 1.0, &mut world);
        assert_eq!(pose, m.rest_pose());
    }
}
