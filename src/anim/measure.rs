//! Measuring a model at rest, for what a character file leaves out: its bounds and height (so a
//! model in centimetres is fitted to the collider), which way it faces (so a model facing
//! glTF's front, +z, is turned to face +x like the hero) and which way is up (a model exported
//! Z-up without conversion lies on its back).
//!
//! Reads a [`Model`] and nothing else; the caller decides what to do with the measures
//! ([`super::character`]).
use glam::{Mat4, Vec3};

use super::character::Up;
use super::model::Model;

/// The height a model is fitted to when its character file gives no `scale`, m: the hero's
/// standing collider (`movement::Tuning::stand_collider`, 1.8 m).
pub const FIT_HEIGHT: f32 = 1.8;

/// A model whose height is within this fraction of [`FIT_HEIGHT`] keeps its own units (a model
/// made in metres for a 1.8 m collider, like the built-in hero, is drawn exactly as modelled).
pub const FIT_TOLERANCE: f32 = 0.1;

/// Where each vertex of `model` is drawn in `pose` (a transform per joint), model space.
pub fn posed_positions(model: &Model, pose: &[super::Transform]) -> Vec<Vec3> {
    let mut palette = vec![Mat4::ZERO; model.skeleton.len()];
    model.skeleton.palette(Mat4::IDENTITY, pose, &mut palette);
    let m = &model.mesh;
    (0..m.positions.len())
        .map(|v| {
            let p = Vec3::from_array(m.positions[v]);
            (0..4)
                .map(|k| palette[usize::from(m.joints[v][k])].transform_point3(p) * m.weights[v][k])
                .sum()
        })
        .collect()
}

/// The box around `points` (`None` for none or a non-finite one).
pub fn bounds(points: impl IntoIterator<Item = Vec3>) -> Option<(Vec3, Vec3)> {
    let mut it = points.into_iter();
    let first = it.next()?;
    let (lo, hi) = it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
    (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}

/// The model's bounds in its rest pose (what it is drawn as without a clip), model units.
pub fn rest_bounds(model: &Model) -> Option<(Vec3, Vec3)> {
    bounds(posed_positions(model, &model.skeleton.rest))
}

/// The bounds of the model's body in its rest pose, model units, and whether that is its skinned
/// meshes alone: a model with a skinned mesh is measured by it, so a rigid part reaching past
/// the body (a sword held over the head, a banner on the back) does not shrink the fitted
/// character; a model of rigid parts only (a jointed robot) is measured whole.
pub fn body_bounds(model: &Model) -> Option<(Vec3, Vec3, bool)> {
    let at = posed_positions(model, &model.skeleton.rest);
    let mut skinned = Vec::new();
    let mut first = 0;
    for p in &model.parts {
        if !p.rigid {
            skinned.extend_from_slice(&at[first..first + p.vertices]);
        }
        first += p.vertices;
    }
    match bounds(skinned) {
        Some((lo, hi)) if hi.y > lo.y => Some((lo, hi, true)),
        _ => bounds(at).map(|(lo, hi)| (lo, hi, false)),
    }
}

/// The scale that fits the model to `target` m ([`FIT_HEIGHT`] for the hero) by its body's
/// rest-pose height ([`body_bounds`]; 1 within [`FIT_TOLERANCE`]), with a sentence saying what
/// was measured; `None` for a model of no height.
pub fn fitted_scale(model: &Model, target: f32) -> Option<(f32, String)> {
    let (lo, hi, skinned) = body_bounds(model)?;
    let height = hi.y - lo.y;
    let what = if skinned && model.parts.iter().any(|p| p.rigid) {
        " (its skinned body; rigid parts left out)"
    } else {
        ""
    };
    if height <= 0.0 || height.is_nan() {
        return None;
    }
    let ratio = target / height;
    if (ratio - 1.0).abs() <= FIT_TOLERANCE {
        return Some((
            1.0,
            format!(
                "{height:.3} units tall at rest{what}: drawn as modelled (within {:.0} % of the \
                 {target} m collider)",
                FIT_TOLERANCE * 100.0
            ),
        ));
    }
    Some((
        ratio,
        format!(
            "{height:.3} units tall at rest{what}: scaled by {ratio:.4} to the {target} m collider \
             (a character file's `scale` sets another)"
        ),
    ))
}

/// Which side a joint's name says it is on: `Some(true)` left, `Some(false)` right
/// (`thigh.L`, `UpperLeg_R`, `mixamorig:LeftHand`, `Bip01 L Thigh`, `L_hand`, `ShoulderL`).
pub fn side(name: &str) -> Option<bool> {
    let n = name.to_ascii_lowercase();
    let tagged = |c: char| {
        let seps = ['.', '_', ' ', '-', ':'];
        seps.iter().any(|s| {
            n.ends_with(&format!("{s}{c}"))
                || n.starts_with(&format!("{c}{s}"))
                || n.contains(&format!("{s}{c}{s}"))
        })
    };
    // `ShoulderL`, `UpperLegR`: a capital L or R closing a lower-case word.
    let camel = |c: char| {
        let mut it = name.chars().rev();
        it.next() == Some(c) && it.next().is_some_and(|p| p.is_lowercase())
    };
    match (
        n.contains("left") || tagged('l') || camel('L'),
        n.contains("right") || tagged('r') || camel('R'),
    ) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

/// The turn about +y (degrees, a multiple of 90) that makes the model face +x, measured from its
/// joints named left and right at rest (its left side is at its facing × up): `None` when it has
/// no such joints, or they do not point along a horizontal axis within 20°.
pub fn facing_turn(model: &Model) -> Option<f32> {
    let sk = &model.skeleton;
    let at = sk.joint_positions(Mat4::IDENTITY, &sk.rest);
    let (mut left, mut right, mut nl, mut nr) = (Vec3::ZERO, Vec3::ZERO, 0.0, 0.0);
    for (j, name) in sk.names.iter().enumerate() {
        match side(name) {
            Some(true) => (left, nl) = (left + at[j], nl + 1.0),
            Some(false) => (right, nr) = (right + at[j], nr + 1.0),
            None => {}
        }
    }
    if nl == 0.0 || nr == 0.0 {
        return None;
    }
    let l = left / nl - right / nr;
    let l = Vec3::new(l.x, 0.0, l.z).try_normalize()?;
    // Facing = left × up.
    let f = l.cross(Vec3::Y);
    let deg = f.z.atan2(f.x).to_degrees();
    let snapped = (deg / 90.0).round() * 90.0;
    ((deg - snapped).abs() <= 20.0).then_some(if snapped == -180.0 { 180.0 } else { snapped })
}

/// The model's up axis, measured from its joints at rest: from the mean of the joints named like
/// feet (`foot`, `toe`, `ankle`) to the mean of those named like the head (`head`, `neck`); `Z`
/// when that points along +z at least twice as much as along any other axis, `Y` when along +y
/// so, `None` when the model lacks such joints or the direction is unclear.
pub fn up_axis(model: &Model) -> Option<Up> {
    let sk = &model.skeleton;
    let at = sk.joint_positions(Mat4::IDENTITY, &sk.rest);
    let mean = |words: &[&str]| {
        let picked: Vec<Vec3> = (sk.names.iter().zip(&at))
            .filter(|(n, _)| {
                let n = n.to_ascii_lowercase();
                words.iter().any(|w| n.contains(w))
            })
            .map(|(_, p)| *p)
            .collect();
        (!picked.is_empty()).then(|| picked.iter().sum::<Vec3>() / picked.len() as f32)
    };
    let d = mean(&["head", "neck"])? - mean(&["foot", "toe", "ankle"])?;
    let a = d.abs();
    if d.z > 0.0 && a.z >= 2.0 * a.x.max(a.y) {
        Some(Up::Z)
    } else if d.y > 0.0 && a.y >= 2.0 * a.x.max(a.z) {
        Some(Up::Y)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_are_read_from_the_usual_spellings() {
        assert_eq!(
            (side("ShoulderL"), side("UpperLegR")),
            (Some(true), Some(false))
        );
        assert_eq!(
            (side("HEAD"), side("Ball"), side("Hair")),
            (None, None, None)
        );
        for n in [
            "thigh.L",
            "UpperLeg_l",
            "mixamorig:LeftHand",
            "Bip01 L Thigh",
            "L_hand",
        ] {
            assert_eq!(side(n), Some(true), "{n}");
        }
        for n in ["shin.R", "mixamorig:RightFoot", "R-arm"] {
            assert_eq!(side(n), Some(false), "{n}");
        }
        for n in ["hips", "spine", "Head", "ball", "Neck_1"] {
            assert_eq!(side(n), None, "{n}");
        }
    }

    #[test]
    fn the_hero_faces_x_and_is_drawn_as_modelled() {
        let hero = crate::anim::builtin_hero();
        assert_eq!(facing_turn(hero), Some(0.0));
        assert_eq!(fitted_scale(hero, FIT_HEIGHT).unwrap().0, 1.0);
        // The same hero turned to face +z, as glTF's front is, needs a turn of 90°.
        let mut turned = hero.clone();
        turned.skeleton.correct(1.0, -90.0);
        assert_eq!(facing_turn(&turned), Some(90.0));
        assert_eq!(up_axis(hero), Some(Up::Y));
        // Lying on its back (exported Z-up), it is measured so and stood up again.
        let mut lying = hero.clone();
        for j in 0..lying.skeleton.len() {
            if lying.skeleton.parents[j].is_none() {
                lying.skeleton.root_base[j] = Mat4::from_rotation_x(std::f32::consts::FRAC_PI_2)
                    * lying.skeleton.root_base[j];
            }
        }
        assert_eq!(up_axis(&lying), Some(Up::Z));
        lying.skeleton.stand_up_z();
        let (a, b) = (rest_bounds(&lying).unwrap(), rest_bounds(hero).unwrap());
        assert!(
            a.0.abs_diff_eq(b.0, 1e-5) && a.1.abs_diff_eq(b.1, 1e-5),
            "{a:?} {b:?}"
        );
        // And in centimetres it is fitted back to its height.
        let mut cm = hero.clone();
        cm.skeleton.correct(100.0, 0.0);
        let (s, _) = fitted_scale(&cm, FIT_HEIGHT).unwrap();
        let (lo, hi) = rest_bounds(hero).unwrap();
        assert!((s * 100.0 * (hi.y - lo.y) - FIT_HEIGHT).abs() < 1e-3, "{s}");
    }
}
