//! The gait table: how fast a planted foot moves in each gait clip, measured from the clips when
//! the controller is built, so that the gait phase runs at the ground speed and the feet do not
//! skate (see `controller`, "Run rate"); and the foot-slide metric that checks it.
//!
//! Reads only the model's clips and skeleton; must never depend on the renderer or a GPU crate.
use glam::{Mat4, Vec3};

use super::model::Model;
use super::transform::Transform;

/// Phase samples per gait cycle in a [`GaitTable`].
const GAIT_SAMPLES: usize = 96;
/// The most gait cycles a second (the full run, 8 m/s over a 1.8 m stride, is 4.4). The crouch
/// walk's keyed stride (0.35 m) would need 10 cycles a second at the tuning's crouch speed
/// (3.5 m/s), a blur of legs: it is capped here and its feet slide (see [`FOOT_SLIDE_FRACTION`](super::controller::FOOT_SLIDE_FRACTION)).
const MAX_CYCLES_PER_SECOND: f64 = 4.5;
/// Blend weights (walk → run) at which the walk/run gait is measured: 0, 1/4, …, 1.
const GAIT_WEIGHTS: usize = 5;
/// The fastest the gait phase may run, as a multiple of its mean rate (where the planted foot
/// barely moves in the clip, around the change of feet).
const MAX_PHASE_SPEEDUP: f64 = 3.0;

/// How fast a planted foot moves backwards in a gait clip: metres per unit of phase, sampled at
/// [`GAIT_SAMPLES`] phases, for the walk/run blend at [`GAIT_WEIGHTS`] weights and for the crouch
/// walk, measured from the clips when the controller is built. Its mean over a cycle is the
/// stride (the ground one cycle covers).
#[derive(Clone, Debug, PartialEq)]
pub struct GaitTable {
    walk_run: [[f64; GAIT_SAMPLES]; GAIT_WEIGHTS],
    crouch: [f64; GAIT_SAMPLES],
}

fn lookup(table: &[f64; GAIT_SAMPLES], phase: f64) -> f64 {
    let x = phase.rem_euclid(1.0) * GAIT_SAMPLES as f64;
    let i = (x.floor() as usize).min(GAIT_SAMPLES - 1);
    let f = x - i as f64;
    table[i] * (1.0 - f) + table[(i + 1) % GAIT_SAMPLES] * f
}

fn mean(table: &[f64; GAIT_SAMPLES]) -> f64 {
    table.iter().sum::<f64>() / GAIT_SAMPLES as f64
}

impl GaitTable {
    /// The planted foot's backward speed (m per unit phase) and the stride (m) of the walk/run
    /// blend at weight `w`, or of the crouch walk.
    fn at(&self, crouch: bool, w: f64, phase: f64) -> (f64, f64) {
        if crouch {
            return (lookup(&self.crouch, phase), mean(&self.crouch));
        }
        let x = w.clamp(0.0, 1.0) * (GAIT_WEIGHTS - 1) as f64;
        let i = (x.floor() as usize).min(GAIT_WEIGHTS - 2);
        let f = x - i as f64;
        let (a, b) = (&self.walk_run[i], &self.walk_run[i + 1]);
        (
            lookup(a, phase) * (1.0 - f) + lookup(b, phase) * f,
            mean(a) * (1.0 - f) + mean(b) * f,
        )
    }

    /// The stride (m per cycle) of the walk/run blend at weight `w` (0 walk, 1 run).
    pub fn stride(&self, w: f64) -> f64 {
        self.at(false, w, 0.0).1
    }

    /// The crouch walk's stride, m per cycle.
    pub fn crouch_stride(&self) -> f64 {
        mean(&self.crouch)
    }

    /// The phase after `dt` s at ground speed `speed`: the phase runs so that the planted foot
    /// keeps pace with the ground (`dφ/dt = speed / foot speed(φ)`), at most
    /// [`MAX_PHASE_SPEEDUP`] times its mean rate where the clip's planted foot nearly stops. A
    /// constant rate (`speed / stride`) would leave the foot sliding by about 45 % of the speed
    /// on average, because the keyed gaits move the stance foot sinusoidally.
    pub(super) fn advance(&self, crouch: bool, w: f64, phase: f64, speed: f64, dt: f64) -> f64 {
        // Two half steps (midpoint rule): the foot speed changes within a tick at a full run.
        let rate = |p: f64| {
            let (foot, stride) = self.at(crouch, w, p);
            let cycles = (speed / stride).min(MAX_CYCLES_PER_SECOND);
            cycles * (stride / foot.max(1e-6)).min(MAX_PHASE_SPEEDUP)
        };
        let mid = phase + 0.5 * dt * rate(phase);
        (phase + dt * rate(mid)).rem_euclid(1.0)
    }
}

impl GaitTable {
    /// The table measured from `model`'s clips `[walk, run, crouch walk]` (clip indices), the
    /// planted foot being one of the joints `feet`.
    pub(super) fn measured(
        model: &Model,
        [walk, run, crouch]: [usize; 3],
        feet: [usize; 2],
    ) -> Self {
        GaitTable {
            walk_run: std::array::from_fn(|i| {
                let w = i as f32 / (GAIT_WEIGHTS - 1) as f32;
                measure_gait(model, walk, run, w, feet)
            }),
            crouch: measure_gait(model, crouch, crouch, 0.0, feet),
        }
    }

    /// The table of gaits whose planted foot moves evenly, at `speeds` (m/s, as the clips
    /// `[walk, run, crouch walk]` play): a stride of speed × duration. For a model whose feet are
    /// not known, or whose character gives its gaits' speeds.
    pub(super) fn even(model: &Model, [walk, run, crouch]: [usize; 3], speeds: [f32; 3]) -> Self {
        let even =
            |clip: usize, speed: f32| [f64::from(speed * model.clips[clip].duration); GAIT_SAMPLES];
        let (a, b) = (even(walk, speeds[0]), even(run, speeds[1]));
        GaitTable {
            walk_run: std::array::from_fn(|i| {
                let w = i as f64 / (GAIT_WEIGHTS - 1) as f64;
                std::array::from_fn(|k| a[k] * (1.0 - w) + b[k] * w)
            }),
            crouch: even(crouch, speeds[2]),
        }
    }
}

/// Samples a gait at phase `p` in `[0, 1)`: `a` blended towards `b` by `w` (`b` ignored at 0).
pub(super) fn sample_gait(
    model: &Model,
    a: usize,
    b: usize,
    w: f32,
    p: f32,
    out: &mut [Transform],
    scratch: &mut [Transform],
) {
    let (ca, cb) = (&model.clips[a], &model.clips[b]);
    out.copy_from_slice(&model.skeleton.rest);
    ca.sample_into(p * ca.duration, out);
    if w > 0.0 {
        scratch.copy_from_slice(&model.skeleton.rest);
        cb.sample_into(p * cb.duration, scratch);
        for (o, s) in out.iter_mut().zip(scratch.iter()) {
            *o = o.blend(s, w);
        }
    }
}

/// The planted foot between two poses in the model's frame: of the two ankles, the one moving
/// backwards faster relative to the body (the stance leg; the swing leg moves forwards). The
/// clips carry no contact data, and their feet heights cross during a stride (the stance leg at
/// full extension rises above the swing foot), so the lower foot is not a reliable test.
fn stance(before: &[Vec3], after: &[Vec3], feet: [usize; 2]) -> f32 {
    let dl = after[feet[0]].x - before[feet[0]].x;
    let dr = after[feet[1]].x - before[feet[1]].x;
    dl.min(dr)
}

/// The foot-slide metric of one step between two poses in the model's frame (feet at the
/// origin, facing +x), `dt` s apart, the body having moved `dx` m forward: the signed horizontal
/// world velocity (m/s) of the planted foot ([`stance`]): 0 when it stays put, negative when it
/// is dragged back, positive when it skates forward.
pub fn foot_slide(before: &[Vec3], after: &[Vec3], feet: [usize; 2], dx: f64, dt: f64) -> f64 {
    (f64::from(stance(before, after, feet)) + dx) / dt
}

/// The planted foot's backward speed (m per unit phase) at each of [`GAIT_SAMPLES`] phases of
/// the gait `a` blended towards `b` by `w`.
fn measure_gait(
    model: &Model,
    a: usize,
    b: usize,
    w: f32,
    feet: [usize; 2],
) -> [f64; GAIT_SAMPLES] {
    let n = model.skeleton.len();
    let (mut pose, mut scratch) = (vec![Transform::IDENTITY; n], vec![Transform::IDENTITY; n]);
    let mut at = |p: f64| {
        sample_gait(
            model,
            a,
            b,
            w,
            p.rem_euclid(1.0) as f32,
            &mut pose,
            &mut scratch,
        );
        model.skeleton.joint_positions(Mat4::IDENTITY, &pose)
    };
    // Central differences half a sample either side.
    let h = 0.5 / GAIT_SAMPLES as f64;
    let mut out = [0.0; GAIT_SAMPLES];
    for (i, o) in out.iter_mut().enumerate() {
        let p = i as f64 / GAIT_SAMPLES as f64;
        let (before, after) = (at(p - h), at(p + h));
        *o = (-f64::from(stance(&before, &after, feet)) / (2.0 * h)).max(0.0);
    }
    out
}
