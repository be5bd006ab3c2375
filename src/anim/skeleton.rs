//! The joint hierarchy of a skin: names, parents, rest transforms and inverse bind matrices, and
//! the two walks down the hierarchy a frame needs (joint world matrices, the skinning palette).
use glam::{Mat4, Vec3};

use super::transform::Transform;

/// A skin's joints, ordered so that every parent comes before its children.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    /// Joint names (the nodes' names; empty when unnamed), in skin order.
    pub names: Vec<String>,
    /// Parent joint of each joint (`None` for a root).
    pub parents: Vec<Option<u16>>,
    /// Rest (bind-time node) transform of each joint, relative to its parent.
    pub rest: Vec<Transform>,
    /// Inverse bind matrix of each joint (model space → joint space at bind time).
    pub inverse_bind: Vec<Mat4>,
    /// For roots: the product of the rest transforms of the nodes above them that are not joints
    /// (identity for every other joint).
    pub root_base: Vec<Mat4>,
    /// Joint indices with every parent before its children.
    pub order: Vec<u16>,
}

impl Skeleton {
    /// Number of joints.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the skeleton has no joints (a loaded model never has none).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Scales the whole skeleton by `scale` and turns it by `turn_deg` degrees about +y, as seen
    /// from above its roots (a character file's `scale` and `turn`): every joint's world matrix,
    /// and so every skinned vertex, is then that correction times what it was. Nothing changes
    /// for scale 1 and turn 0.
    pub fn correct(&mut self, scale: f32, turn_deg: f32) {
        if scale == 1.0 && turn_deg == 0.0 {
            return;
        }
        let c = Mat4::from_scale_rotation_translation(
            Vec3::splat(scale),
            glam::Quat::from_rotation_y(turn_deg.to_radians()),
            Vec3::ZERO,
        );
        for j in 0..self.len() {
            if self.parents[j].is_none() {
                self.root_base[j] = c * self.root_base[j];
            }
        }
    }

    /// Turns the whole skeleton so that its +z is up (+y): for a model exported from a Z-up
    /// tool without conversion. Applied before [`Skeleton::correct`].
    pub fn stand_up_z(&mut self) {
        let c = Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        for j in 0..self.len() {
            if self.parents[j].is_none() {
                self.root_base[j] = c * self.root_base[j];
            }
        }
    }

    /// The index of the joint called `name`.
    pub fn joint(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Model-space matrices of every joint for `pose` (one local transform per joint), written
    /// into `out` (one per joint), each placed by `root` (model → world).
    pub fn world_matrices(&self, root: Mat4, pose: &[Transform], out: &mut [Mat4]) {
        for &j in &self.order {
            let j = usize::from(j);
            let local = pose[j].matrix();
            out[j] = match self.parents[j] {
                Some(p) => out[usize::from(p)] * local,
                None => root * self.root_base[j] * local,
            };
        }
    }

    /// The skinning palette for `pose`: each joint's world matrix times its inverse bind matrix,
    /// written into `out` (one per joint; no allocation). A vertex at model-space position `p`
    /// bound to joint `j` is drawn at `out[j] * p`.
    pub fn palette(&self, root: Mat4, pose: &[Transform], out: &mut [Mat4]) {
        // Children read their parent's world matrix, so the inverse bind matrices go on in a
        // second pass over the finished world matrices.
        self.world_matrices(root, pose, out);
        for (m, ib) in out.iter_mut().zip(&self.inverse_bind) {
            *m *= *ib;
        }
    }

    /// World positions of every joint for `pose`, placed by `root` (for tests and measurements;
    /// allocates).
    pub fn joint_positions(&self, root: Mat4, pose: &[Transform]) -> Vec<Vec3> {
        let mut m = vec![Mat4::IDENTITY; self.len()];
        self.world_matrices(root, pose, &mut m);
        m.iter().map(|m| m.w_axis.truncate()).collect()
    }
}
