//! The clips: poses as joint angles about z (the game is seen from the side), the gait cycles,
//! every clip's keys, and the deterministic sine and cosine they are computed with.
//!
//! Pure arithmetic (no platform maths): depends on nothing outside this crate.
use super::body::{round6, Part};
use super::skeleton::*;

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
pub(crate) struct Pose {
    pub(crate) root: [f64; 2],
    pub(crate) angles: [f64; JOINT_COUNT],
}

impl Pose {
    pub(crate) fn stand() -> Pose {
        Pose {
            root: [0.0, STAND_Y],
            angles: [0.0; JOINT_COUNT],
        }
    }

    pub(crate) fn with(mut self, joint: usize, deg: f64) -> Pose {
        self.angles[joint] = deg;
        self
    }

    pub(crate) fn add(mut self, joint: usize, deg: f64) -> Pose {
        self.angles[joint] += deg;
        self
    }

    pub(crate) fn at(mut self, x: f64, y: f64) -> Pose {
        self.root = [x, y];
        self
    }

    /// Both sides of a limb pair set at once: `(left, right)` joints.
    pub(crate) fn pair(self, l: usize, r: usize, deg: f64) -> Pose {
        self.with(l, deg).with(r, deg)
    }
}

/// The deep crouch, about 1.0 m tall.
pub(crate) fn crouch() -> Pose {
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
pub(crate) struct Gait {
    pub(crate) base: Pose,
    pub(crate) thigh: f64,
    pub(crate) knee: f64,
    pub(crate) arm: f64,
    pub(crate) elbow: f64,
    pub(crate) bob: f64,
}

pub(crate) fn max0(x: f64) -> f64 {
    if x > 0.0 {
        x
    } else {
        0.0
    }
}

impl Gait {
    /// The pose at phase `p` in [0, 1): the left leg forward at 0.25, the right at 0.75.
    pub(crate) fn pose(&self, p: f64) -> Pose {
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
    pub(crate) fn keys(&self, period: f64) -> Vec<(f64, Pose)> {
        let mut keys: Vec<(f64, Pose)> = (0..8)
            .map(|i| (period * f64::from(i) / 8.0, self.pose(f64::from(i) / 8.0)))
            .collect();
        keys.push((period, keys[0].1));
        keys
    }
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Interp {
    Linear,
    Step,
    CubicSpline,
}

impl Interp {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Interp::Linear => "LINEAR",
            Interp::Step => "STEP",
            Interp::CubicSpline => "CUBICSPLINE",
        }
    }
}

pub(crate) struct Clip {
    pub(crate) name: &'static str,
    pub(crate) interp: Interp,
    pub(crate) keys: Vec<(f64, Pose)>,
}

pub(crate) fn clip(name: &'static str, interp: Interp, keys: Vec<(f64, Pose)>) -> Clip {
    Clip { name, interp, keys }
}

/// A loop: the first pose is repeated at `period`.
pub(crate) fn looped(poses: &[(f64, Pose)], period: f64) -> Vec<(f64, Pose)> {
    let mut keys = poses.to_vec();
    keys.push((period, poses[0].1));
    keys
}

pub(crate) fn clips(parts: &[Part]) -> Vec<Clip> {
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
pub(crate) fn vertical_extent_of(pose: &Pose, parts: &[Part]) -> (f64, f64) {
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
pub(crate) fn quat_z(deg: f64) -> [f32; 4] {
    let s = sin_deg(deg / 2.0);
    let c = cos_deg(deg / 2.0);
    let n = (s * s + c * c).sqrt();
    [0.0, 0.0, (s / n) as f32, (c / n) as f32]
}
