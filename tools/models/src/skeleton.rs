//! The skeleton every figure shares: its joints (names, indices, parents) and their rest
//! positions. The bind pose is the rest pose of the nodes (translations only), so each inverse
//! bind matrix is the translation by minus the joint's rest position.
//!
//! Plain constants: depends on nothing.
/// Number of joints in the skeleton.
pub const JOINT_COUNT: usize = 21;

/// The joints, in skin order (the node index is the joint index).
pub const JOINT_NAMES: [&str; JOINT_COUNT] = [
    "hips",
    "spine",
    "chest",
    "neck",
    "head",
    "shoulder.L",
    "upper_arm.L",
    "forearm.L",
    "hand.L",
    "shoulder.R",
    "upper_arm.R",
    "forearm.R",
    "hand.R",
    "thigh.L",
    "shin.L",
    "foot.L",
    "toe.L",
    "thigh.R",
    "shin.R",
    "foot.R",
    "toe.R",
];

pub(crate) const HIPS: usize = 0;
pub(crate) const SPINE: usize = 1;
pub(crate) const CHEST: usize = 2;
pub(crate) const NECK: usize = 3;
pub(crate) const HEAD: usize = 4;
pub(crate) const SHOULDER_L: usize = 5;
pub(crate) const UPPER_ARM_L: usize = 6;
pub(crate) const FOREARM_L: usize = 7;
pub(crate) const HAND_L: usize = 8;
pub(crate) const SHOULDER_R: usize = 9;
pub(crate) const UPPER_ARM_R: usize = 10;
pub(crate) const FOREARM_R: usize = 11;
pub(crate) const HAND_R: usize = 12;
pub(crate) const THIGH_L: usize = 13;
pub(crate) const SHIN_L: usize = 14;
pub(crate) const FOOT_L: usize = 15;
pub(crate) const TOE_L: usize = 16;
pub(crate) const THIGH_R: usize = 17;
pub(crate) const SHIN_R: usize = 18;
pub(crate) const FOOT_R: usize = 19;
pub(crate) const TOE_R: usize = 20;

/// Parent of each joint (`None` for the root).
pub(crate) const PARENTS: [Option<usize>; JOINT_COUNT] = [
    None,
    Some(HIPS),
    Some(SPINE),
    Some(CHEST),
    Some(NECK),
    Some(CHEST),
    Some(SHOULDER_L),
    Some(UPPER_ARM_L),
    Some(FOREARM_L),
    Some(CHEST),
    Some(SHOULDER_R),
    Some(UPPER_ARM_R),
    Some(FOREARM_R),
    Some(HIPS),
    Some(THIGH_L),
    Some(SHIN_L),
    Some(FOOT_L),
    Some(HIPS),
    Some(THIGH_R),
    Some(SHIN_R),
    Some(FOOT_R),
];

/// Rest position of each joint in model space (metres).
pub(crate) const REST: [[f64; 3]; JOINT_COUNT] = [
    [0.0, 0.95, 0.0],
    [0.0, 1.02, 0.0],
    [0.0, 1.22, 0.0],
    [0.0, 1.46, 0.0],
    [0.0, 1.55, 0.0],
    [0.0, 1.42, -0.08],
    [0.0, 1.42, -0.29],
    [0.0, 1.14, -0.29],
    [0.0, 0.88, -0.29],
    [0.0, 1.42, 0.08],
    [0.0, 1.42, 0.29],
    [0.0, 1.14, 0.29],
    [0.0, 0.88, 0.29],
    [0.0, 0.90, -0.09],
    [0.0, 0.50, -0.09],
    [0.0, 0.09, -0.09],
    [0.12, 0.03, -0.09],
    [0.0, 0.90, 0.09],
    [0.0, 0.50, 0.09],
    [0.0, 0.09, 0.09],
    [0.12, 0.03, 0.09],
];

/// Hips height standing (metres).
pub(crate) const STAND_Y: f64 = 0.95;
