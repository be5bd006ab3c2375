//! The hero's model: a low-poly skinned humanoid with its animation clips, built as a binary glTF
//! (`assets/hero.glb`) by plain code, so the committed file can be regenerated and checked byte
//! for byte.
//!
//! # The model
//! - Feet at the origin, 1.8 m tall standing (0.33 m deep in x, facing +x; y up; z towards the
//!   camera, so the hero's right side is +z). The crouch poses come down to about 1.0 m, the
//!   height of the crouching collider.
//! - A skeleton of [`JOINT_COUNT`] joints (see [`JOINT_NAMES`]): hips (the root), spine, chest,
//!   neck, head, and per side a shoulder, upper arm, forearm, hand, thigh, shin, foot and toe.
//!   The bind pose is the rest pose of the nodes (no rotation, only translations), so each
//!   inverse bind matrix is the translation by minus the joint's rest position.
//! - One skinned mesh: a box per body part (flat normals, 24 vertices each), skinned to its bone,
//!   with the vertices on the face nearest the parent joint blended 3:1 with the parent bone (two
//!   weights, exactly 0.75 and 0.25, so they sum to 1 in `f32`). Colours per part in `COLOR_0`
//!   (linear RGB): skin, shirt, trousers, boots, hair, eyes. One material, white and rough.
//! - Sixteen clips, named as in [`CLIP_NAMES`], each a rotation channel per joint that moves
//!   (about z only: the game is seen from the side) and a translation channel on the hips:
//!   `idle` (cubic spline), `run`, `walk`, `crouch_walk`, `jump_takeoff`, `rise`, `fall`,
//!   `land`, `crouch_idle`, `wall_slide` (step), `climb`, `push`, and the game's `attack` (a
//!   punch), `hurt` (a recoil), `death` (a fall onto the back) and `charge` (the run's legs, head
//!   down). The loops (`idle`, `run`, `walk`, `crouch_walk`, `crouch_idle`, `climb`,
//!   `wall_slide`, `push`, `charge`) end on their first key. `attack` and `hurt` key the upper
//!   body over a standing pose: the controller plays them over the legs' own clip. `death` ends
//!   with the figure's lowest corner on the ground, so each figure's file lies at its own height.
//!
//! # Determinism
//! Only `f64` addition, multiplication, division, `sqrt`, `round` and `%` are used (the sine is
//! a polynomial, see [`sin_deg`]), JSON objects are `serde_json`'s sorted maps and numbers are
//! printed by `serde_json`, so every platform builds the same bytes.
//!
//! # The enemies' figures
//! [`Figure`] builds the campaign's crawler, hopper and brute on the same skeleton, rest pose and
//! clips: only the boxes on the bones (widened, recoloured, a few added: horns, ears, a shell,
//! shoulder pads) differ, so every clip, the foot IK and the gait timing work for them unchanged
//! ([`figure_glb`]; `assets/crawler.glb`, `hopper.glb`, `brute.glb`).
//!
//! # Regenerating and validating
//! `TESSERA_WRITE_MODEL=1 cargo test --lib anim::hero_model` rewrites `assets/hero.glb` and the
//! figures' files; without the variable the same tests fail when a file differs from what the
//! generator builds. The Khronos validator's reports are kept beside them
//! (`assets/hero.validation.json`, `assets/crawler.validation.json`, ...);
//! `node scripts/validate-hero.mjs [FILE]` (with the npm package `gltf-validator` installed)
//! prints one again.

use serde_json::{json, Value};

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

/// The clips, in file order.
pub const CLIP_NAMES: [&str; 16] = [
    "idle",
    "run",
    "walk",
    "crouch_walk",
    "jump_takeoff",
    "rise",
    "fall",
    "land",
    "crouch_idle",
    "wall_slide",
    "climb",
    "push",
    "attack",
    "hurt",
    "death",
    "charge",
];

const HIPS: usize = 0;
const SPINE: usize = 1;
const CHEST: usize = 2;
const NECK: usize = 3;
const HEAD: usize = 4;
const SHOULDER_L: usize = 5;
const UPPER_ARM_L: usize = 6;
const FOREARM_L: usize = 7;
const HAND_L: usize = 8;
const SHOULDER_R: usize = 9;
const UPPER_ARM_R: usize = 10;
const FOREARM_R: usize = 11;
const HAND_R: usize = 12;
const THIGH_L: usize = 13;
const SHIN_L: usize = 14;
const FOOT_L: usize = 15;
const TOE_L: usize = 16;
const THIGH_R: usize = 17;
const SHIN_R: usize = 18;
const FOOT_R: usize = 19;
const TOE_R: usize = 20;

/// Parent of each joint (`None` for the root).
const PARENTS: [Option<usize>; JOINT_COUNT] = [
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
const REST: [[f64; 3]; JOINT_COUNT] = [
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
const STAND_Y: f64 = 0.95;

// Linear colours.
const SKIN: [f64; 3] = [0.80, 0.52, 0.36];
const SHIRT: [f64; 3] = [0.08, 0.30, 0.62];
const TROUSERS: [f64; 3] = [0.20, 0.17, 0.12];
const BOOTS: [f64; 3] = [0.06, 0.04, 0.03];
const HAIR: [f64; 3] = [0.12, 0.06, 0.02];
const EYES: [f64; 3] = [0.02, 0.02, 0.03];

/// The face of a part that is blended with the parent bone.
#[derive(Clone, Copy)]
enum Near {
    /// The top face (y max).
    Top,
    /// The bottom face (y min).
    Bottom,
    /// The back face (x min).
    Back,
    /// Not blended.
    None,
}

/// One body part: an axis-aligned box in the rest pose.
struct Part {
    bone: usize,
    near: Near,
    lo: [f64; 3],
    hi: [f64; 3],
    colour: [f64; 3],
}

fn part(bone: usize, near: Near, lo: [f64; 3], hi: [f64; 3], colour: [f64; 3]) -> Part {
    Part {
        bone,
        near,
        lo,
        hi,
        colour,
    }
}

/// Mirrors a right-side box to the left (z → −z).
fn left(lo: [f64; 3], hi: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    ([lo[0], lo[1], -hi[2]], [hi[0], hi[1], -lo[2]])
}

type SidePart = (usize, usize, Near, [f64; 3], [f64; 3], [f64; 3]);

fn parts() -> Vec<Part> {
    let mut v = vec![
        part(
            HIPS,
            Near::None,
            [-0.12, 0.82, -0.17],
            [0.12, 1.02, 0.17],
            TROUSERS,
        ),
        part(
            SPINE,
            Near::Bottom,
            [-0.11, 1.02, -0.16],
            [0.11, 1.22, 0.16],
            SHIRT,
        ),
        part(
            CHEST,
            Near::Bottom,
            [-0.13, 1.22, -0.2],
            [0.13, 1.46, 0.2],
            SHIRT,
        ),
        part(
            NECK,
            Near::Bottom,
            [-0.05, 1.46, -0.05],
            [0.05, 1.56, 0.05],
            SKIN,
        ),
        part(
            HEAD,
            Near::None,
            [-0.11, 1.56, -0.1],
            [0.12, 1.78, 0.1],
            SKIN,
        ),
        part(
            HEAD,
            Near::None,
            [-0.125, 1.71, -0.105],
            [0.08, 1.8, 0.105],
            HAIR,
        ),
        part(
            HEAD,
            Near::None,
            [0.12, 1.65, -0.07],
            [0.13, 1.68, 0.07],
            EYES,
        ),
    ];
    // Right side boxes (bone, its left twin, blended face, min, max, colour), mirrored.
    let side: [SidePart; 8] = [
        (
            SHOULDER_R,
            SHOULDER_L,
            Near::Bottom,
            [-0.1, 1.36, 0.2],
            [0.1, 1.46, 0.25],
            SHIRT,
        ),
        (
            UPPER_ARM_R,
            UPPER_ARM_L,
            Near::Top,
            [-0.055, 1.14, 0.24],
            [0.055, 1.46, 0.34],
            SHIRT,
        ),
        (
            FOREARM_R,
            FOREARM_L,
            Near::Top,
            [-0.045, 0.88, 0.245],
            [0.045, 1.14, 0.335],
            SKIN,
        ),
        (
            HAND_R,
            HAND_L,
            Near::Top,
            [-0.04, 0.78, 0.255],
            [0.05, 0.88, 0.325],
            SKIN,
        ),
        (
            THIGH_R,
            THIGH_L,
            Near::Top,
            [-0.075, 0.5, 0.02],
            [0.075, 0.9, 0.165],
            TROUSERS,
        ),
        (
            SHIN_R,
            SHIN_L,
            Near::Top,
            [-0.065, 0.1, 0.03],
            [0.065, 0.5, 0.155],
            TROUSERS,
        ),
        (
            FOOT_R,
            FOOT_L,
            Near::Top,
            [-0.075, 0.0, 0.025],
            [0.12, 0.1, 0.16],
            BOOTS,
        ),
        (
            TOE_R,
            TOE_L,
            Near::Back,
            [0.12, 0.0, 0.03],
            [0.2, 0.07, 0.155],
            BOOTS,
        ),
    ];
    for &(right, left_bone, near, lo, hi, colour) in &side {
        v.push(part(right, near, lo, hi, colour));
        let (llo, lhi) = left(lo, hi);
        v.push(part(left_bone, near, llo, lhi, colour));
    }
    v
}

/// Vertex data of the skinned mesh.
#[derive(Default)]
struct Mesh {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    colours: Vec<[f32; 3]>,
    joints: Vec<[u8; 4]>,
    weights: Vec<[f32; 4]>,
    indices: Vec<u16>,
}

fn build_mesh() -> Mesh {
    mesh_of(parts())
}

fn mesh_of(parts: Vec<Part>) -> Mesh {
    let mut m = Mesh::default();
    for p in parts {
        for axis in 0..3 {
            for side in 0..2 {
                let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
                let mut normal = [0.0f64; 3];
                normal[axis] = if side == 1 { 1.0 } else { -1.0 };
                let pick = |i: usize, u: usize| if u == 1 { p.hi[i] } else { p.lo[i] };
                let mut corners = [[0.0f64; 3]; 4];
                for (k, (ub, uc)) in [(0, 0), (1, 0), (1, 1), (0, 1)].into_iter().enumerate() {
                    corners[k][axis] = pick(axis, side);
                    corners[k][b] = pick(b, ub);
                    corners[k][c] = pick(c, uc);
                }
                // Counter-clockwise seen from outside: (c1 − c0) × (c2 − c0) along the normal.
                let e1 = sub(corners[1], corners[0]);
                let e2 = sub(corners[2], corners[0]);
                if dot(cross(e1, e2), normal) < 0.0 {
                    corners.swap(1, 3);
                }
                let base = m.positions.len() as u16;
                for q in corners {
                    let blended = match p.near {
                        Near::Top => q[1] == p.hi[1],
                        Near::Bottom => q[1] == p.lo[1],
                        Near::Back => q[0] == p.lo[0],
                        Near::None => false,
                    };
                    m.positions.push(f32x3(q));
                    m.normals.push(f32x3(normal));
                    m.colours.push(f32x3(p.colour));
                    match (blended, PARENTS[p.bone]) {
                        (true, Some(parent)) => {
                            m.joints.push([p.bone as u8, parent as u8, 0, 0]);
                            m.weights.push([0.75, 0.25, 0.0, 0.0]);
                        }
                        _ => {
                            m.joints.push([p.bone as u8, 0, 0, 0]);
                            m.weights.push([1.0, 0.0, 0.0, 0.0]);
                        }
                    }
                }
                m.indices
                    .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
            }
        }
    }
    m
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn f32x3(v: [f64; 3]) -> [f32; 3] {
    [v[0] as f32, v[1] as f32, v[2] as f32]
}

/// Rounds to micrometres, so that JSON numbers read as written (0.07, not 0.0699999…).
fn round6(x: f64) -> f64 {
    let r = (x * 1e6).round() / 1e6;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// Sine of an angle in degrees: range reduction with `%`, then a Taylor polynomial on
/// [−90°, 90°] (error below 1e−12), so no platform `sin` is involved.
pub fn sin_deg(deg: f64) -> f64 {
    let mut d = deg % 360.0;
    if d > 180.0 {
        d -= 360.0;
    } else if d < -180.0 {
        d += 360.0;
    }
    if d > 90.0 {
        d = 180.0 - d;
    } else if d < -90.0 {
        d = -180.0 - d;
    }
    let x = d * (std::f64::consts::PI / 180.0);
    let x2 = x * x;
    // x − x³/3! + x⁵/5! − … up to x¹⁹, by Horner's rule.
    let mut term = 1.0;
    let mut k = 19.0;
    while k > 1.0 {
        term = 1.0 - x2 / (k * (k - 1.0)) * term;
        k -= 2.0;
    }
    x * term
}

/// Cosine of an angle in degrees.
pub fn cos_deg(deg: f64) -> f64 {
    sin_deg(deg + 90.0)
}

/// A pose: hips position in the model's xy plane and one angle about z per joint (degrees,
/// positive turns a limb hanging down towards +x, the facing direction).
#[derive(Clone, Copy)]
struct Pose {
    root: [f64; 2],
    angles: [f64; JOINT_COUNT],
}

impl Pose {
    fn stand() -> Pose {
        Pose {
            root: [0.0, STAND_Y],
            angles: [0.0; JOINT_COUNT],
        }
    }

    fn with(mut self, joint: usize, deg: f64) -> Pose {
        self.angles[joint] = deg;
        self
    }

    fn add(mut self, joint: usize, deg: f64) -> Pose {
        self.angles[joint] += deg;
        self
    }

    fn at(mut self, x: f64, y: f64) -> Pose {
        self.root = [x, y];
        self
    }

    /// Both sides of a limb pair set at once: `(left, right)` joints.
    fn pair(self, l: usize, r: usize, deg: f64) -> Pose {
        self.with(l, deg).with(r, deg)
    }
}

/// The deep crouch, about 1.0 m tall.
fn crouch() -> Pose {
    Pose::stand()
        .at(-0.12, 0.41)
        .pair(THIGH_L, THIGH_R, 110.0)
        .pair(SHIN_L, SHIN_R, -120.0)
        .pair(FOOT_L, FOOT_R, 10.0)
        .with(SPINE, -35.0)
        .with(CHEST, -35.0)
        .with(NECK, 30.0)
        .with(HEAD, 20.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, 60.0)
        .pair(FOREARM_L, FOREARM_R, 20.0)
}

/// A cyclic gait around a base pose.
struct Gait {
    base: Pose,
    thigh: f64,
    knee: f64,
    arm: f64,
    elbow: f64,
    bob: f64,
}

fn max0(x: f64) -> f64 {
    if x > 0.0 {
        x
    } else {
        0.0
    }
}

impl Gait {
    /// The pose at phase `p` in [0, 1): the left leg forward at 0.25, the right at 0.75.
    fn pose(&self, p: f64) -> Pose {
        let a = 360.0 * p;
        let mut pose = self.base;
        for (thigh, shin, foot, arm, forearm, shift) in [
            (THIGH_L, SHIN_L, FOOT_L, UPPER_ARM_L, FOREARM_L, 0.0),
            (THIGH_R, SHIN_R, FOOT_R, UPPER_ARM_R, FOREARM_R, 180.0),
        ] {
            let s = sin_deg(a + shift);
            let swing = max0(cos_deg(a + shift));
            let dthigh = self.thigh * s;
            let dshin = -self.knee * swing;
            pose = pose
                .add(thigh, dthigh)
                .add(shin, dshin)
                .add(foot, -0.6 * (dthigh + dshin))
                .add(arm, -self.arm * s)
                .add(forearm, self.elbow * max0(-s));
        }
        pose.root[1] += self.bob * cos_deg(2.0 * a);
        pose
    }

    /// Eight keys over `period` seconds, the last key a copy of the first.
    fn keys(&self, period: f64) -> Vec<(f64, Pose)> {
        let mut keys: Vec<(f64, Pose)> = (0..8)
            .map(|i| (period * f64::from(i) / 8.0, self.pose(f64::from(i) / 8.0)))
            .collect();
        keys.push((period, keys[0].1));
        keys
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Interp {
    Linear,
    Step,
    CubicSpline,
}

impl Interp {
    fn name(self) -> &'static str {
        match self {
            Interp::Linear => "LINEAR",
            Interp::Step => "STEP",
            Interp::CubicSpline => "CUBICSPLINE",
        }
    }
}

struct Clip {
    name: &'static str,
    interp: Interp,
    keys: Vec<(f64, Pose)>,
}

fn clip(name: &'static str, interp: Interp, keys: Vec<(f64, Pose)>) -> Clip {
    Clip { name, interp, keys }
}

/// A loop: the first pose is repeated at `period`.
fn looped(poses: &[(f64, Pose)], period: f64) -> Vec<(f64, Pose)> {
    let mut keys = poses.to_vec();
    keys.push((period, poses[0].1));
    keys
}

fn clips(parts: &[Part]) -> Vec<Clip> {
    let stand = Pose::stand()
        .pair(UPPER_ARM_L, UPPER_ARM_R, 3.0)
        .pair(FOREARM_L, FOREARM_R, 8.0);
    let breathe = stand
        .at(0.0, STAND_Y - 0.006)
        .with(CHEST, -2.0)
        .with(HEAD, 2.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, 5.0)
        .pair(FOREARM_L, FOREARM_R, 11.0);

    let walk = Gait {
        base: stand.with(SPINE, -3.0),
        thigh: 25.0,
        knee: 35.0,
        arm: 20.0,
        elbow: 15.0,
        bob: 0.015,
    };
    let run = Gait {
        base: Pose::stand()
            .at(0.0, STAND_Y - 0.03)
            .with(SPINE, -10.0)
            .with(CHEST, -5.0)
            .with(NECK, 8.0)
            .pair(FOREARM_L, FOREARM_R, 70.0)
            .pair(SHIN_L, SHIN_R, -20.0)
            .pair(FOOT_L, FOOT_R, 10.0),
        thigh: 45.0,
        knee: 70.0,
        arm: 40.0,
        elbow: 15.0,
        bob: 0.03,
    };
    let crouch_walk = Gait {
        base: crouch(),
        thigh: 18.0,
        knee: 20.0,
        arm: 15.0,
        elbow: 10.0,
        bob: 0.01,
    };
    let push = Gait {
        base: Pose::stand()
            .at(-0.05, STAND_Y - 0.05)
            .with(SPINE, -20.0)
            .with(CHEST, -15.0)
            .with(NECK, 20.0)
            .with(HEAD, 10.0)
            .pair(UPPER_ARM_L, UPPER_ARM_R, 105.0)
            .pair(FOREARM_L, FOREARM_R, 30.0)
            .pair(HAND_L, HAND_R, -10.0)
            .pair(THIGH_L, THIGH_R, -5.0)
            .pair(SHIN_L, SHIN_R, -15.0)
            .pair(FOOT_L, FOOT_R, 15.0),
        thigh: 20.0,
        knee: 30.0,
        arm: 0.0,
        elbow: 0.0,
        bob: 0.01,
    };

    let anticipate = Pose::stand()
        .at(0.0, 0.80)
        .with(SPINE, -15.0)
        .with(NECK, 10.0)
        .pair(THIGH_L, THIGH_R, 40.0)
        .pair(SHIN_L, SHIN_R, -70.0)
        .pair(FOOT_L, FOOT_R, 30.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, -40.0)
        .pair(FOREARM_L, FOREARM_R, 15.0);
    let extend = Pose::stand()
        .at(0.0, 0.98)
        .with(SPINE, 5.0)
        .with(THIGH_L, 10.0)
        .with(THIGH_R, -5.0)
        .pair(SHIN_L, SHIN_R, -5.0)
        .pair(FOOT_L, FOOT_R, -30.0)
        .pair(TOE_L, TOE_R, 20.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, 140.0)
        .pair(FOREARM_L, FOREARM_R, 10.0);
    let tuck = Pose::stand()
        .with(SPINE, -5.0)
        .with(THIGH_L, 70.0)
        .with(THIGH_R, 45.0)
        .with(SHIN_L, -90.0)
        .with(SHIN_R, -70.0)
        .pair(FOOT_L, FOOT_R, 10.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, 120.0)
        .pair(FOREARM_L, FOREARM_R, 20.0);
    let fall_a = Pose::stand()
        .with(SPINE, 5.0)
        .with(NECK, -5.0)
        .with(THIGH_L, 20.0)
        .with(SHIN_L, -30.0)
        .with(THIGH_R, -10.0)
        .with(SHIN_R, -20.0)
        .pair(FOOT_L, FOOT_R, 5.0)
        .with(UPPER_ARM_L, 100.0)
        .with(UPPER_ARM_R, 120.0)
        .pair(FOREARM_L, FOREARM_R, 25.0);
    let fall_b = fall_a
        .with(UPPER_ARM_L, 115.0)
        .with(UPPER_ARM_R, 105.0)
        .with(THIGH_L, 10.0)
        .with(THIGH_R, -2.0);
    let squash = Pose::stand()
        .at(0.0, 0.70)
        .with(SPINE, -20.0)
        .with(NECK, 12.0)
        .pair(THIGH_L, THIGH_R, 55.0)
        .pair(SHIN_L, SHIN_R, -90.0)
        .pair(FOOT_L, FOOT_R, 35.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, 30.0)
        .pair(FOREARM_L, FOREARM_R, 30.0);

    let crouch_breathe = crouch().at(-0.12, 0.40).add(CHEST, -2.0).add(HEAD, 2.0);

    let slide_a = Pose::stand()
        .at(-0.04, 0.92)
        .with(SPINE, 5.0)
        .with(NECK, -5.0)
        .with(UPPER_ARM_R, 110.0)
        .with(FOREARM_R, 20.0)
        .with(HAND_R, -60.0)
        .with(UPPER_ARM_L, 70.0)
        .with(FOREARM_L, 30.0)
        .with(THIGH_L, 35.0)
        .with(SHIN_L, -50.0)
        .with(FOOT_L, 15.0)
        .with(THIGH_R, 10.0)
        .with(SHIN_R, -15.0)
        .with(FOOT_R, -20.0);
    let slide_b = slide_a
        .at(-0.04, 0.91)
        .with(UPPER_ARM_R, 104.0)
        .with(HAND_R, -55.0)
        .with(THIGH_L, 32.0);

    let climb: Vec<(f64, Pose)> = {
        let mut keys: Vec<(f64, Pose)> = (0..8)
            .map(|i| {
                let s = sin_deg(45.0 * f64::from(i));
                let (up_l, up_r) = (40.0 - 35.0 * s, 40.0 + 35.0 * s);
                let pose = Pose::stand()
                    .at(0.0, 0.92)
                    .with(UPPER_ARM_L, 120.0 + 40.0 * s)
                    .with(UPPER_ARM_R, 120.0 - 40.0 * s)
                    .with(FOREARM_L, 30.0 - 20.0 * s)
                    .with(FOREARM_R, 30.0 + 20.0 * s)
                    .with(THIGH_L, up_l)
                    .with(THIGH_R, up_r)
                    .with(SHIN_L, -1.3 * up_l)
                    .with(SHIN_R, -1.3 * up_r)
                    .with(FOOT_L, 0.3 * up_l)
                    .with(FOOT_R, 0.3 * up_r)
                    .with(NECK, 10.0 + 5.0 * s);
                (0.8 * f64::from(i) / 8.0, pose)
            })
            .collect();
        keys.push((0.8, keys[0].1));
        keys
    };

    // The attack: a straight punch of the near (right) arm, the far arm pulled back to guard,
    // the chest leaning into it. Played over the upper body only: its legs and hips are never
    // read (they stay in the stand).
    let guard = stand
        .with(CHEST, 8.0)
        .with(NECK, -4.0)
        .with(UPPER_ARM_R, -35.0)
        .with(FOREARM_R, 110.0)
        .with(UPPER_ARM_L, 55.0)
        .with(FOREARM_L, 70.0);
    let punch = stand
        .with(SPINE, -12.0)
        .with(CHEST, -14.0)
        .with(NECK, 10.0)
        .with(HEAD, 6.0)
        .with(UPPER_ARM_R, 92.0)
        .with(FOREARM_R, 2.0)
        .with(HAND_R, -6.0)
        .with(UPPER_ARM_L, -25.0)
        .with(FOREARM_L, 80.0);
    let reach = punch
        .with(SPINE, -14.0)
        .with(UPPER_ARM_R, 86.0)
        .with(FOREARM_R, 12.0);
    let attack = vec![
        (0.0, stand),
        (0.05, guard),
        (0.1, punch),
        (0.18, reach),
        (0.34, stand),
    ];
    // Hurt: thrown back from the chest, head snapped back, arms flung up; over the upper body.
    let recoil = stand
        .with(SPINE, 14.0)
        .with(CHEST, 12.0)
        .with(NECK, -18.0)
        .with(HEAD, -10.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, 45.0)
        .pair(FOREARM_L, FOREARM_R, 65.0);
    let hurt = vec![
        (0.0, stand),
        (0.05, recoil),
        (0.16, recoil.with(SPINE, 10.0).with(NECK, -12.0)),
        (0.4, stand),
    ];
    // Death: the recoil, the knees buckle, then the body topples backwards onto the ground (the
    // hips turned a quarter turn, the legs towards the facing; down within 0.3 s, before the
    // hero's default `respawn_delay` of 0.35 s ends) with a small bounce, and lies still,
    // across the feet's point (no horizontal root motion: the body lies where the
    // collider stood, and a character file's `Strip` leaves the clip alone).
    let buckle = recoil
        .at(0.0, 0.74)
        .with(HIPS, 18.0)
        .pair(THIGH_L, THIGH_R, 40.0)
        .pair(SHIN_L, SHIN_R, -75.0)
        .pair(FOOT_L, FOOT_R, 25.0);
    let lying = Pose::stand()
        .at(0.0, 1.0)
        .with(HIPS, 84.0)
        .with(SPINE, 4.0)
        .with(NECK, -6.0)
        .with(HEAD, -8.0)
        .pair(UPPER_ARM_L, UPPER_ARM_R, 150.0)
        .with(FOREARM_L, 20.0)
        .with(FOREARM_R, 35.0)
        .with(THIGH_L, 14.0)
        .with(SHIN_L, -16.0)
        .with(THIGH_R, 9.0)
        .with(SHIN_R, -6.0)
        .pair(FOOT_L, FOOT_R, -10.0);
    // Lowered until the figure's lowest corner rests on the ground (a deep shell lies higher).
    let lying = lying.at(0.0, round6(1.0 - vertical_extent_of(&lying, parts).0));
    let bounce =
        lying
            .at(0.0, lying.root[1] + 0.06)
            .with(HIPS, 80.0)
            .pair(UPPER_ARM_L, UPPER_ARM_R, 130.0);
    let death = vec![
        (0.0, stand),
        (0.05, recoil),
        (0.14, buckle),
        (0.3, lying),
        (0.38, bounce),
        (0.5, lying),
    ];
    // The charge: the run's legs (so the run's gait timing fits it), head down, the chest low
    // and the arms thrust forward.
    let charge = Gait {
        base: run
            .base
            .with(SPINE, -28.0)
            .with(CHEST, -12.0)
            .with(NECK, 30.0)
            .with(HEAD, 10.0)
            .pair(UPPER_ARM_L, UPPER_ARM_R, 60.0)
            .pair(FOREARM_L, FOREARM_R, 40.0),
        arm: 10.0,
        elbow: 5.0,
        ..run
    };

    vec![
        clip(
            "idle",
            Interp::CubicSpline,
            looped(&[(0.0, stand), (1.2, breathe)], 2.4),
        ),
        clip("run", Interp::Linear, run.keys(0.66)),
        clip("walk", Interp::Linear, walk.keys(1.0)),
        clip("crouch_walk", Interp::Linear, crouch_walk.keys(1.2)),
        clip(
            "jump_takeoff",
            Interp::Linear,
            vec![(0.0, stand), (0.08, anticipate), (0.15, extend)],
        ),
        clip("rise", Interp::Linear, vec![(0.0, extend), (0.25, tuck)]),
        clip(
            "fall",
            Interp::Linear,
            vec![(0.0, tuck), (0.3, fall_a), (0.6, fall_b)],
        ),
        clip(
            "land",
            Interp::Linear,
            vec![(0.0, fall_a), (0.06, squash), (0.25, stand)],
        ),
        clip(
            "crouch_idle",
            Interp::Linear,
            looped(&[(0.0, crouch()), (1.0, crouch_breathe)], 2.0),
        ),
        clip(
            "wall_slide",
            Interp::Step,
            looped(&[(0.0, slide_a), (0.12, slide_b)], 0.24),
        ),
        clip("climb", Interp::Linear, climb),
        clip("push", Interp::Linear, push.keys(1.2)),
        clip("attack", Interp::Linear, attack),
        clip("hurt", Interp::Linear, hurt),
        clip("death", Interp::Linear, death),
        clip("charge", Interp::Linear, charge.keys(0.66)),
    ]
}

/// The lowest and highest y of `parts`' box corners in `pose` (rigid skinning: each corner
/// follows its own bone), by forward kinematics about z.
fn vertical_extent_of(pose: &Pose, parts: &[Part]) -> (f64, f64) {
    let mut turn = [0.0f64; JOINT_COUNT];
    let mut at = [[0.0f64; 2]; JOINT_COUNT];
    for j in 0..JOINT_COUNT {
        match PARENTS[j] {
            None => {
                turn[j] = pose.angles[j];
                at[j] = pose.root;
            }
            Some(p) => {
                let (s, c) = (sin_deg(turn[p]), cos_deg(turn[p]));
                let (dx, dy) = (REST[j][0] - REST[p][0], REST[j][1] - REST[p][1]);
                at[j] = [at[p][0] + c * dx - s * dy, at[p][1] + s * dx + c * dy];
                turn[j] = turn[p] + pose.angles[j];
            }
        }
    }
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in parts {
        let (s, c) = (sin_deg(turn[p.bone]), cos_deg(turn[p.bone]));
        for x in [p.lo[0], p.hi[0]] {
            for y in [p.lo[1], p.hi[1]] {
                let (dx, dy) = (x - REST[p.bone][0], y - REST[p.bone][1]);
                let wy = at[p.bone][1] + s * dx + c * dy;
                if std::env::var("DBG_EXTENT").is_ok() && wy < 0.0 {
                    println!("bone {} y {wy:.3}", JOINT_NAMES[p.bone]);
                }
                lo = lo.min(wy);
                hi = hi.max(wy);
            }
        }
    }
    (lo, hi)
}

/// The rotation about z by `deg` degrees as a unit quaternion (x, y, z, w).
fn quat_z(deg: f64) -> [f32; 4] {
    let s = sin_deg(deg / 2.0);
    let c = cos_deg(deg / 2.0);
    let n = (s * s + c * c).sqrt();
    [0.0, 0.0, (s / n) as f32, (c / n) as f32]
}

/// Accumulates the binary chunk, buffer views and accessors.
#[derive(Default)]
struct Bin {
    data: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_SHORT: u32 = 5123;
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;

impl Bin {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let mut v = json!({
            "buffer": 0,
            "byteOffset": self.data.len(),
            "byteLength": bytes.len(),
        });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.data.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    /// A float accessor of `N` components per element, with min and max when `bounds`.
    fn floats<const N: usize>(
        &mut self,
        items: &[[f32; N]],
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let bytes: Vec<u8> = items
            .iter()
            .flatten()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let view = self.view(&bytes, target);
        let ty = match N {
            1 => "SCALAR",
            3 => "VEC3",
            4 => "VEC4",
            _ => "MAT4",
        };
        let mut a = json!({
            "bufferView": view,
            "componentType": FLOAT,
            "count": items.len(),
            "type": ty,
        });
        if bounds {
            let mut lo = [f32::INFINITY; N];
            let mut hi = [f32::NEG_INFINITY; N];
            for item in items {
                for k in 0..N {
                    lo[k] = lo[k].min(item[k]);
                    hi[k] = hi[k].max(item[k]);
                }
            }
            a["min"] = json!(lo.iter().map(|&x| f64::from(x)).collect::<Vec<_>>());
            a["max"] = json!(hi.iter().map(|&x| f64::from(x)).collect::<Vec<_>>());
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn push_accessor(&mut self, a: Value) -> usize {
        self.accessors.push(a);
        self.accessors.len() - 1
    }
}

/// Cubic-spline output: zero in- and out-tangents around each value (eases in and out).
fn with_tangents<const N: usize>(values: &[[f32; N]]) -> Vec<[f32; N]> {
    values
        .iter()
        .flat_map(|v| [[0.0; N], *v, [0.0; N]])
        .collect()
}

/// The hero model as the bytes of a binary glTF file.
pub fn hero_glb() -> Vec<u8> {
    glb_of(build_mesh(), &clips(&parts()))
}

/// A figure built on the hero's skeleton and clips: the same joints at the same rest positions
/// (so every clip, the foot IK and the speed matching work unchanged), other boxes on the bones
/// and other colours. The campaign's enemies (`assets/characters/*.ron` scale them to their size
/// classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// The hero itself ([`hero_glb`]).
    Hero,
    /// A squat armoured bug: a wide dark-red shell over the back and hips, a big head with two
    /// horns and yellow eyes, thick short claws for hands and feet.
    Crawler,
    /// A lanky green leaper: thin limbs, long feet, two tall ears, a pale belly.
    Hopper,
    /// A hulk: a chest and shoulders twice as broad, huge fists, a small head sunk between the
    /// shoulders, grey-violet skin and iron-dark boots.
    Brute,
}

impl Figure {
    /// Every figure but the hero, with the file each is written to under `assets/`.
    pub const ENEMIES: [(Figure, &'static str); 3] = [
        (Figure::Crawler, "crawler.glb"),
        (Figure::Hopper, "hopper.glb"),
        (Figure::Brute, "brute.glb"),
    ];
}

/// `figure` as the bytes of a binary glTF file.
pub fn figure_glb(figure: Figure) -> Vec<u8> {
    let parts = figure_parts(figure);
    let clips = clips(&parts);
    glb_of(mesh_of(parts), &clips)
}

/// `p` widened (x and z, about its centre) by `w`, its colour replaced by `c`.
fn reshaped(p: &Part, w: f64, c: [f64; 3]) -> Part {
    let mid = |i: usize| 0.5 * (p.lo[i] + p.hi[i]);
    let lo = [
        mid(0) + (p.lo[0] - mid(0)) * w,
        p.lo[1],
        mid(2) + (p.lo[2] - mid(2)) * w,
    ];
    let hi = [
        mid(0) + (p.hi[0] - mid(0)) * w,
        p.hi[1],
        mid(2) + (p.hi[2] - mid(2)) * w,
    ];
    part(p.bone, p.near, lo.map(round6), hi.map(round6), c)
}

/// A box on `bone` over the spans `x` and `y`, centred `z` to either side of the middle and `half`
/// deep each way, and its mirror image: the left (−z) one first (horns, ears, shoulder pads).
fn side_pair(
    bone: usize,
    x: [f64; 2],
    y: [f64; 2],
    z: f64,
    half: f64,
    colour: [f64; 3],
) -> [Part; 2] {
    [-1.0, 1.0].map(|s: f64| {
        part(
            bone,
            Near::None,
            [x[0], y[0], s * z - half],
            [x[1], y[1], s * z + half],
            colour,
        )
    })
}

/// The boxes of `figure`: the hero's, each widened and recoloured by the figure's rule for its
/// bone and colour, plus the figure's own extra boxes (horns, ears, a shell).
fn figure_parts(figure: Figure) -> Vec<Part> {
    let hero = parts();
    if figure == Figure::Hero {
        return hero;
    }
    let is = |p: &Part, bones: &[usize]| bones.contains(&p.bone);
    let arms = [
        SHOULDER_L,
        UPPER_ARM_L,
        FOREARM_L,
        SHOULDER_R,
        UPPER_ARM_R,
        FOREARM_R,
    ];
    let hands = [HAND_L, HAND_R];
    let legs = [THIGH_L, SHIN_L, THIGH_R, SHIN_R];
    let feet = [FOOT_L, TOE_L, FOOT_R, TOE_R];
    let torso = [HIPS, SPINE, CHEST];
    let mut v: Vec<Part> = Vec::with_capacity(hero.len() + 6);
    match figure {
        Figure::Hero => unreachable!(),
        Figure::Crawler => {
            let (shell, body, claw, eye) = (
                [0.42, 0.05, 0.03],
                [0.22, 0.10, 0.06],
                [0.08, 0.05, 0.04],
                [0.95, 0.85, 0.10],
            );
            for p in &hero {
                v.push(if p.colour == EYES {
                    reshaped(p, 1.6, eye)
                } else if p.colour == HAIR {
                    reshaped(p, 1.2, shell)
                } else if p.bone == HEAD || p.bone == NECK {
                    reshaped(p, 1.5, body)
                } else if is(p, &torso) {
                    reshaped(p, 1.7, shell)
                } else if is(p, &hands) || is(p, &feet) {
                    reshaped(p, 1.5, claw)
                } else {
                    reshaped(p, 1.2, body)
                });
            }
            // Two horns, and a shell plate over the back.
            v.extend(side_pair(
                HEAD,
                [-0.02, 0.05],
                [1.78, 1.92],
                0.09,
                0.025,
                shell,
            ));
            v.push(part(
                CHEST,
                Near::None,
                [-0.24, 1.0, -0.3],
                [-0.13, 1.5, 0.3],
                shell,
            ));
        }
        Figure::Hopper => {
            let (skin, belly, dark, eye) = (
                [0.12, 0.45, 0.10],
                [0.70, 0.78, 0.45],
                [0.05, 0.18, 0.04],
                [0.90, 0.30, 0.05],
            );
            for p in &hero {
                v.push(if p.colour == EYES {
                    reshaped(p, 1.4, eye)
                } else if p.colour == HAIR {
                    reshaped(p, 1.0, dark)
                } else if p.bone == CHEST || p.bone == SPINE {
                    reshaped(p, 0.85, belly)
                } else if is(p, &feet) {
                    let mut f = reshaped(p, 1.0, dark);
                    // Long feet: the toes reach further forward.
                    f.hi[0] = round6(f.hi[0] + 0.06);
                    f
                } else if is(p, &legs) || is(p, &arms) {
                    reshaped(p, 0.7, skin)
                } else {
                    reshaped(p, 1.0, skin)
                });
            }
            // Two tall ears.
            v.extend(side_pair(
                HEAD,
                [-0.06, -0.01],
                [1.78, 2.02],
                0.06,
                0.02,
                skin,
            ));
        }
        Figure::Brute => {
            let (skin, cloth, iron, eye) = (
                [0.34, 0.30, 0.40],
                [0.22, 0.12, 0.10],
                [0.10, 0.10, 0.12],
                [0.95, 0.15, 0.05],
            );
            for p in &hero {
                v.push(if p.colour == EYES {
                    reshaped(p, 1.0, eye)
                } else if p.colour == HAIR {
                    reshaped(p, 0.9, iron)
                } else if p.bone == HEAD {
                    reshaped(p, 0.85, skin)
                } else if p.bone == CHEST || is(p, &arms) {
                    reshaped(p, if p.bone == CHEST { 1.9 } else { 1.7 }, skin)
                } else if is(p, &hands) {
                    reshaped(p, 2.2, skin)
                } else if is(p, &feet) {
                    reshaped(p, 1.4, iron)
                } else if is(p, &torso) {
                    reshaped(p, 1.5, cloth)
                } else {
                    reshaped(p, 1.3, cloth)
                });
            }
            // Shoulder pads.
            v.extend(side_pair(
                CHEST,
                [-0.16, 0.16],
                [1.42, 1.52],
                0.32,
                0.1,
                iron,
            ));
        }
    }
    v
}

/// The hero with every face of its boxes cut into an `n` × `n` grid: the same skeleton and clips
/// with `n²` times the triangles (276 at `n = 1`; 9 936 at `n = 6`, the "character of 10 000
/// triangles" of the frame-rate bench, `benches/crowd/`). Positions and skin weights are
/// interpolated across each face (to within 1e-6 m of the hero's faces, as interpolation rounds),
/// so it deforms as the hero does. At most `n = 20` (the indices are 16-bit).
pub fn subdivided_hero_glb(n: usize) -> Vec<u8> {
    glb_of(subdivide(&build_mesh(), n.clamp(1, 20)), &clips(&parts()))
}

/// Cuts each quad of `m` (four vertices `c0..c3` around it, two triangles `c0 c1 c2`, `c0 c2 c3`,
/// as [`build_mesh`] writes them) into an `n` × `n` grid, bilinearly interpolated.
fn subdivide(m: &Mesh, n: usize) -> Mesh {
    let mut out = Mesh::default();
    for q in (0..m.positions.len()).step_by(4) {
        let bilinear = |v: [[f32; 4]; 4], u: f32, w: f32| {
            std::array::from_fn::<f32, 4, _>(|k| {
                v[0][k] * (1.0 - u) * (1.0 - w)
                    + v[1][k] * u * (1.0 - w)
                    + v[2][k] * u * w
                    + v[3][k] * (1.0 - u) * w
            })
        };
        let corners3 = |a: &[[f32; 3]]| -> [[f32; 4]; 4] {
            std::array::from_fn(|c| {
                let p = a[q + c];
                [p[0], p[1], p[2], 0.0]
            })
        };
        let pos = corners3(&m.positions);
        let weights: [[f32; 4]; 4] = std::array::from_fn(|c| m.weights[q + c]);
        // The corners' joints are [bone, parent] (blended) or [bone, 0] (weight 0 on the second):
        // the blended set serves the whole face, its weights interpolated.
        let joints = (0..4)
            .map(|c| (m.weights[q + c][1], m.joints[q + c]))
            .fold((-1.0f32, [0u8; 4]), |a, b| if b.0 > a.0 { b } else { a })
            .1;
        let base = out.positions.len() as u16;
        for j in 0..=n {
            for i in 0..=n {
                let (u, w) = (i as f32 / n as f32, j as f32 / n as f32);
                let p = bilinear(pos, u, w);
                out.positions.push([p[0], p[1], p[2]]);
                out.normals.push(m.normals[q]);
                out.colours.push(m.colours[q]);
                out.joints.push(joints);
                out.weights.push(bilinear(weights, u, w));
            }
        }
        let at = |i: usize, j: usize| base + (j * (n + 1) + i) as u16;
        for j in 0..n {
            for i in 0..n {
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                out.indices.extend_from_slice(&[a, b, c, a, c, d]);
            }
        }
    }
    out
}

/// A skinned mesh with the hero's skeleton and clips, as the bytes of a binary glTF file.
fn glb_of(mesh: Mesh, clips: &[Clip]) -> Vec<u8> {
    let mut bin = Bin::default();

    let position = bin.floats(&mesh.positions, Some(ARRAY_BUFFER), true);
    let normal = bin.floats(&mesh.normals, Some(ARRAY_BUFFER), false);
    let colour = bin.floats(&mesh.colours, Some(ARRAY_BUFFER), false);
    let joint_bytes: Vec<u8> = mesh.joints.iter().flatten().copied().collect();
    let joints_view = bin.view(&joint_bytes, Some(ARRAY_BUFFER));
    let joints = bin.push_accessor(json!({
        "bufferView": joints_view,
        "componentType": UNSIGNED_BYTE,
        "count": mesh.joints.len(),
        "type": "VEC4",
    }));
    let weights = bin.floats(&mesh.weights, Some(ARRAY_BUFFER), false);
    let index_bytes: Vec<u8> = mesh.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let index_view = bin.view(&index_bytes, Some(ELEMENT_ARRAY_BUFFER));
    let indices = bin.push_accessor(json!({
        "bufferView": index_view,
        "componentType": UNSIGNED_SHORT,
        "count": mesh.indices.len(),
        "type": "SCALAR",
    }));

    let ibms: Vec<[f32; 16]> = REST
        .iter()
        .map(|p| {
            let mut m = [0.0f32; 16];
            m[0] = 1.0;
            m[5] = 1.0;
            m[10] = 1.0;
            m[15] = 1.0;
            m[12] = round6(-p[0]) as f32;
            m[13] = round6(-p[1]) as f32;
            m[14] = round6(-p[2]) as f32;
            m
        })
        .collect();
    let ibm = bin.floats(&ibms, None, false);

    let mut nodes: Vec<Value> = (0..JOINT_COUNT)
        .map(|j| {
            let parent = PARENTS[j].map_or([0.0; 3], |p| REST[p]);
            let t: Vec<f64> = (0..3).map(|k| round6(REST[j][k] - parent[k])).collect();
            let children: Vec<usize> = (0..JOINT_COUNT)
                .filter(|&c| PARENTS[c] == Some(j))
                .collect();
            let mut n = json!({ "name": JOINT_NAMES[j], "translation": t });
            if !children.is_empty() {
                n["children"] = json!(children);
            }
            n
        })
        .collect();
    nodes.push(json!({ "name": "hero", "mesh": 0, "skin": 0 }));

    let mut animations = Vec::new();
    for c in clips {
        let times: Vec<[f32; 1]> = c.keys.iter().map(|(t, _)| [*t as f32]).collect();
        let input = bin.floats(&times, None, true);
        let interpolation = c.interp.name();
        let cubic = c.interp == Interp::CubicSpline;
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        // Hips translation first, then one rotation channel per joint that moves.
        let translations: Vec<[f32; 3]> = c
            .keys
            .iter()
            .map(|(_, p)| f32x3([round6(p.root[0]), round6(p.root[1]), 0.0]))
            .collect();
        let output = if cubic {
            bin.floats(&with_tangents(&translations), None, false)
        } else {
            bin.floats(&translations, None, false)
        };
        samplers.push(json!({ "input": input, "output": output, "interpolation": interpolation }));
        channels.push(json!({ "sampler": 0, "target": { "node": HIPS, "path": "translation" } }));
        for j in 0..JOINT_COUNT {
            if c.keys.iter().all(|(_, p)| p.angles[j] == 0.0) {
                continue;
            }
            let rotations: Vec<[f32; 4]> =
                c.keys.iter().map(|(_, p)| quat_z(p.angles[j])).collect();
            let output = if cubic {
                bin.floats(&with_tangents(&rotations), None, false)
            } else {
                bin.floats(&rotations, None, false)
            };
            channels.push(json!({
                "sampler": samplers.len(),
                "target": { "node": j, "path": "rotation" },
            }));
            samplers
                .push(json!({ "input": input, "output": output, "interpolation": interpolation }));
        }
        animations.push(json!({ "name": c.name, "samplers": samplers, "channels": channels }));
    }

    while !bin.data.len().is_multiple_of(4) {
        bin.data.push(0);
    }
    let material = json!({
        "name": "hero",
        "pbrMetallicRoughness": {
            "baseColorFactor": [1.0, 1.0, 1.0, 1.0],
            "metallicFactor": 0.0,
            "roughnessFactor": 0.8,
        },
    });
    let primitive = json!({
        "attributes": {
            "POSITION": position,
            "NORMAL": normal,
            "COLOR_0": colour,
            "JOINTS_0": joints,
            "WEIGHTS_0": weights,
        },
        "indices": indices,
        "material": 0,
    });
    let skin = json!({
        "name": "hero",
        "inverseBindMatrices": ibm,
        "skeleton": HIPS,
        "joints": (0..JOINT_COUNT).collect::<Vec<_>>(),
    });
    let doc = json!({
        "asset": { "version": "2.0", "generator": "tessera anim::hero_model" },
        "scene": 0,
        "scenes": [{ "name": "hero", "nodes": [HIPS, JOINT_COUNT] }],
        "nodes": nodes,
        "meshes": [{ "name": "hero", "primitives": [primitive] }],
        "materials": [material],
        "skins": [skin],
        "animations": animations,
        "accessors": bin.accessors,
        "bufferViews": bin.views,
        "buffers": [{ "byteLength": bin.data.len() }],
    });

    let mut text = serde_json::to_vec(&doc).expect("the glTF JSON serialises");
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.data.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.data.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin.data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/hero.glb");

    /// Splits a GLB into its JSON document and binary chunk.
    fn parse(glb: &[u8]) -> (Value, Vec<u8>) {
        let u32_at = |i: usize| u32::from_le_bytes(glb[i..i + 4].try_into().unwrap()) as usize;
        assert_eq!(&glb[0..4], b"glTF");
        assert_eq!(u32_at(4), 2);
        assert_eq!(u32_at(8), glb.len());
        let json_len = u32_at(12);
        assert_eq!(&glb[16..20], b"JSON");
        let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
        let bin_start = 20 + json_len;
        let bin_len = u32_at(bin_start);
        assert_eq!(&glb[bin_start + 4..bin_start + 8], b"BIN\0");
        (doc, glb[bin_start + 8..bin_start + 8 + bin_len].to_vec())
    }

    fn index(v: &Value) -> usize {
        v.as_u64().unwrap() as usize
    }

    /// The bytes of accessor `a`.
    fn accessor_bytes<'a>(doc: &Value, bin: &'a [u8], a: usize) -> &'a [u8] {
        let view = &doc["bufferViews"][index(&doc["accessors"][a]["bufferView"])];
        let start = index(&view["byteOffset"]);
        &bin[start..start + index(&view["byteLength"])]
    }

    fn f32s(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// The frame-rate bench's character (`benches/crowd/hero_10k.glb`) is the hero subdivided:
    /// 9 936 triangles, the same skeleton and clips, and the same shape (every subdivided vertex
    /// lies on one of the hero's faces, inside its bounds).
    #[test]
    fn the_subdivided_hero_is_the_hero_with_more_triangles() {
        const BENCH: &str = "benches/crowd/hero_10k.glb";
        let built = subdivided_hero_glb(6);
        if std::env::var("TESSERA_WRITE_MODEL").as_deref() == Ok("1") {
            std::fs::write(BENCH, &built).unwrap();
        }
        let committed = std::fs::read(BENCH).expect("the bench's model exists");
        assert!(
            committed == built,
            "{BENCH} differs from subdivided_hero_glb(6); regenerate with TESSERA_WRITE_MODEL=1"
        );
        let hero = crate::anim::Model::from_glb(&hero_glb()).unwrap();
        let dense = crate::anim::Model::from_glb(&built).unwrap();
        assert_eq!(dense.mesh.indices.len() / 3, 9_936);
        assert_eq!(hero.mesh.indices.len() / 3 * 36, 9_936);
        assert_eq!(dense.skeleton.len(), hero.skeleton.len());
        assert_eq!(dense.clips.len(), hero.clips.len());
        let bounds = |m: &crate::anim::Model| {
            m.mesh
                .positions
                .iter()
                .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
                    (
                        std::array::from_fn(|k| lo[k].min(p[k])),
                        std::array::from_fn(|k| hi[k].max(p[k])),
                    )
                })
        };
        let (a, b) = (bounds(&hero), bounds(&dense));
        for k in 0..3 {
            assert!(
                (a.0[k] - b.0[k]).abs() < 1e-6 && (a.1[k] - b.1[k]).abs() < 1e-6,
                "{a:?} {b:?}"
            );
        }
        for w in &dense.mesh.weights {
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{w:?}");
        }
        assert_eq!(
            subdivide(&build_mesh(), 1).indices.len(),
            build_mesh().indices.len()
        );
    }

    /// The enemies' figures: each committed `assets/<kind>.glb` is what the generator builds
    /// (`TESSERA_WRITE_MODEL=1` rewrites them), loads with the hero's skeleton (same joints, same
    /// rest positions) and clips, and looks like neither the hero nor the other figures (its
    /// colours, its outline).
    #[test]
    fn the_enemy_figures_are_committed_and_share_the_heros_skeleton() {
        let hero = crate::anim::Model::from_glb(&hero_glb()).unwrap();
        let mut looks = Vec::new();
        for (figure, file) in Figure::ENEMIES {
            let path = format!("assets/{file}");
            let built = figure_glb(figure);
            if std::env::var("TESSERA_WRITE_MODEL").as_deref() == Ok("1") {
                std::fs::write(&path, &built).unwrap();
            }
            let committed = std::fs::read(&path).expect("the figure's model is committed");
            assert!(
                committed == built,
                "{path} differs from figure_glb({figure:?}); regenerate with TESSERA_WRITE_MODEL=1"
            );
            let m = crate::anim::Model::from_glb(&built).unwrap();
            assert_eq!(m.skeleton.len(), hero.skeleton.len(), "{figure:?}");
            assert_eq!(m.clips.len(), hero.clips.len(), "{figure:?}");
            let first = |m: &crate::anim::Model| m.mesh.colours.first().copied();
            let extent = m
                .mesh
                .positions
                .iter()
                .fold(0.0f32, |a, p| a.max(p[2].abs()));
            looks.push((first(&m), extent.to_bits()));
        }
        let hero_extent = hero
            .mesh
            .positions
            .iter()
            .fold(0.0f32, |a, p| a.max(p[2].abs()));
        looks.push((hero.mesh.colours.first().copied(), hero_extent.to_bits()));
        for i in 0..looks.len() {
            for j in 0..i {
                assert_ne!(looks[i], looks[j], "figures {i} and {j} look alike");
            }
        }
        assert_eq!(figure_glb(Figure::Hero), hero_glb());
    }

    #[test]
    fn the_committed_file_is_what_the_generator_builds() {
        let built = hero_glb();
        if std::env::var("TESSERA_WRITE_MODEL").as_deref() == Ok("1") {
            std::fs::write(PATH, &built).unwrap();
            return;
        }
        let committed = std::fs::read(PATH).expect("assets/hero.glb exists");
        assert!(
            committed == built,
            "assets/hero.glb differs from hero_glb(); regenerate with TESSERA_WRITE_MODEL=1"
        );
        // Sixteen clips of a few keys each: about 105 kB; a clip keyed far too densely shows here.
        assert!(built.len() < 120_000, "the model is {} bytes", built.len());
    }

    #[test]
    fn skeleton_clips_and_skin_weights_are_well_formed() {
        let (doc, bin) = parse(&hero_glb());
        let joints = doc["skins"][0]["joints"].as_array().unwrap().len();
        assert!((15..=30).contains(&joints));
        let names: Vec<&str> = doc["animations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, CLIP_NAMES);

        let attributes = &doc["meshes"][0]["primitives"][0]["attributes"];
        let w = f32s(accessor_bytes(&doc, &bin, index(&attributes["WEIGHTS_0"])));
        let j = accessor_bytes(&doc, &bin, index(&attributes["JOINTS_0"]));
        assert_eq!(w.len(), j.len());
        for (ws, js) in w.chunks_exact(4).zip(j.chunks_exact(4)) {
            let sum: f32 = ws.iter().sum();
            assert!((sum - 1.0).abs() <= 1e-6, "weights {ws:?} sum to {sum}");
            for (&wk, &jk) in ws.iter().zip(js) {
                assert!((jk as usize) < joints);
                assert!(wk != 0.0 || jk == 0, "joint {jk} paired with a zero weight");
            }
        }
    }

    #[test]
    fn the_model_stands_in_the_collider() {
        let (doc, _) = parse(&hero_glb());
        let position = index(&doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]);
        let a = &doc["accessors"][position];
        let coord = |bound: &str, k: usize| a[bound][k].as_f64().unwrap();
        assert_eq!(coord("min", 1), 0.0);
        assert!((coord("max", 1) - 1.8).abs() < 1e-6);
        assert!(coord("min", 0) >= -0.4 && coord("max", 0) <= 0.4);
    }

    #[test]
    fn keys_are_increasing_loops_close_and_quaternions_are_unit() {
        let (doc, bin) = parse(&hero_glb());
        let loops = [
            "idle",
            "run",
            "walk",
            "crouch_walk",
            "crouch_idle",
            "climb",
            "wall_slide",
            "push",
        ];
        for anim in doc["animations"].as_array().unwrap() {
            let name = anim["name"].as_str().unwrap();
            for s in anim["samplers"].as_array().unwrap() {
                let input = index(&s["input"]);
                assert!(doc["accessors"][input]["min"].is_array());
                assert!(doc["accessors"][input]["max"].is_array());
                let times = f32s(accessor_bytes(&doc, &bin, input));
                assert!(times.windows(2).all(|t| t[0] < t[1]), "{name}: {times:?}");
                let output = index(&s["output"]);
                let n = if doc["accessors"][output]["type"] == "VEC4" {
                    4
                } else {
                    3
                };
                let values = f32s(accessor_bytes(&doc, &bin, output));
                let mut keys: Vec<&[f32]> = values.chunks_exact(n).collect();
                if s["interpolation"] == "CUBICSPLINE" {
                    keys = keys.into_iter().skip(1).step_by(3).collect();
                }
                assert_eq!(keys.len(), times.len());
                if n == 4 {
                    for q in &keys {
                        let len: f32 = q.iter().map(|x| x * x).sum::<f32>().sqrt();
                        assert!((len - 1.0).abs() < 1e-6, "{name}: {q:?}");
                    }
                }
                if loops.contains(&name) {
                    assert_eq!(keys[0], keys[keys.len() - 1], "{name} does not loop");
                }
            }
        }
        let interpolations: Vec<&str> = doc["animations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["samplers"][0]["interpolation"].as_str().unwrap())
            .collect();
        for kind in ["LINEAR", "STEP", "CUBICSPLINE"] {
            assert!(interpolations.contains(&kind), "no {kind} clip");
        }
    }

    fn vertical_extent(pose: &Pose) -> (f64, f64) {
        vertical_extent_of(pose, &parts())
    }

    #[test]
    fn standing_and_crouching_fit_their_colliders() {
        let (lo, hi) = vertical_extent(&Pose::stand());
        assert!(
            lo.abs() < 1e-9 && (hi - 1.8).abs() < 1e-9,
            "standing {lo}..{hi}"
        );
        let (lo, hi) = vertical_extent(&crouch());
        assert!(lo > -0.05 && lo < 0.05, "crouching feet at {lo}");
        assert!(hi < 1.1, "crouching height {hi}");
    }

    #[test]
    fn the_death_clip_ends_lying_on_the_ground() {
        let all = std::iter::once(Figure::Hero).chain(Figure::ENEMIES.map(|(f, _)| f));
        for figure in all {
            let parts = figure_parts(figure);
            let death = clips(&parts).into_iter().find(|c| c.name == "death");
            let lying = death.unwrap().keys.last().unwrap().1;
            let (lo, hi) = vertical_extent_of(&lying, &parts);
            println!("{figure:?} lying: {lo:.3}..{hi:.3}");
            // On the ground (to the keys' micrometre rounding), and lying down: under half the
            // standing height.
            assert!(lo.abs() < 1e-5, "{figure:?} lies at {lo}");
            assert!(hi < 0.9, "{figure:?} lying reaches {hi}");
        }
    }

    #[test]
    fn the_sine_matches_known_values() {
        assert_eq!(sin_deg(0.0), 0.0);
        assert!((sin_deg(90.0) - 1.0).abs() < 1e-12);
        assert!((sin_deg(30.0) - 0.5).abs() < 1e-12);
        assert!((cos_deg(60.0) - 0.5).abs() < 1e-12);
        assert!((sin_deg(-150.0) + 0.5).abs() < 1e-12);
        assert!((sin_deg(390.0) - 0.5).abs() < 1e-12);
    }
}
