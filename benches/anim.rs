//! CPU cost of animating one character for one frame: sample two clips, blend them, build the
//! skinning palette (joint world × inverse bind) into a caller-owned buffer. Results:
//! `BENCHMARKS.md` (goal: at most 5 µs per character).
//!
//! Run with `cargo bench --bench anim`. Benchmarks:
//! - `anim/sample_blend_palette`: the goal's workload on the hero (21 joints): the walk and the run
//!   sampled at one phase, blended, the palette built; the phase moves every iteration.
//! - `anim/controller_tick_and_palette`: what the game does per frame at 60 Hz with a 120 Hz
//!   simulation: two controller ticks (clip choice, gait phase, sampling, dead blend, facing)
//!   and the drawn pose's palette.
//! - `anim/controller_on_a_slope`: the same on a 30° slope, the feet planted by the IK.
//! - `anim/sample_one_clip`: one clip sampled into a pose, for the split.
//! - `anim/sample_blend_palette_50_joints`: the goal's workload on a 50-joint character (the
//!   issue "Characters from files": rigs from exporters and auto-riggers have 24 to 65 joints):
//!   the hero with 29 more joints (five-joint chains under the hands, feet and head), each keyed
//!   in the walk and the run like the joint it hangs from.
//! - `anim/load_hero_glb`: the hero's `.glb` read into a [`Model`] (done once per model and level).
//! - `anim/load_character_inferred`: `assets/hero.glb` named with no character file: read, clips
//!   matched by synonym, size fitted, facing and up measured.
//!
//! Joints per millisecond = 21 joints ÷ the time of `sample_blend_palette` in ms. Under
//! `cargo test --benches` every benchmark runs once, as a smoke test.
use std::hint::black_box;

use criterion::Criterion;
use glam::{DVec2, Mat4};
use tessera::anim::{
    load_character, AnimInput, Channel, Ground, HeroAnimator, Model, Property, Transform, HERO_GLB,
};
use tessera::collision::{EdgeRef, FaceId};
use tessera::movement::MoveState;

fn main() {
    let model = Model::from_glb(HERO_GLB).expect("the hero loads");
    let run = &model.clips[model.clip("run").expect("run")];
    let joints = model.skeleton.len();
    let mut a = vec![Transform::IDENTITY; joints];
    let mut palette = vec![Mat4::IDENTITY; joints];
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(50)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));

    let mut phase = 0.0f32;
    let mut hero_buffers = GaitBuffers::new(&model);
    c.bench_function("anim/sample_blend_palette", |bench| {
        bench.iter(|| {
            phase = (phase + 0.013) % 1.0;
            hero_buffers.sample_blend_palette(&model, phase);
            black_box(&hero_buffers.palette);
        })
    });

    let big = fifty_joints(&model);
    let mut big_buffers = GaitBuffers::new(&big);
    c.bench_function("anim/sample_blend_palette_50_joints", |bench| {
        bench.iter(|| {
            phase = (phase + 0.013) % 1.0;
            big_buffers.sample_blend_palette(&big, phase);
            black_box(&big_buffers.palette);
        })
    });

    c.bench_function("anim/sample_one_clip", |bench| {
        bench.iter(|| {
            phase = (phase + 0.013) % 1.0;
            a.copy_from_slice(&model.skeleton.rest);
            run.sample_into(phase * run.duration, &mut a);
            black_box(&a);
        })
    });

    let mut hero = HeroAnimator::new(model.clone()).expect("every clip");
    // A run at 5 m/s: the walk/run blend (weight 0.86), both clips sampled every tick.
    let input = AnimInput {
        state: MoveState::TopDown,
        ticks_in_state: 0,
        facing: 1.0,
        vel: DVec2::new(5.0, 0.0),
        crouched: false,
        climb_speed: 4.0,
        ground: None,
        cue: None,
        dead: false,
        charging: false,
    };
    let mut pose = vec![Transform::IDENTITY; joints];
    c.bench_function("anim/controller_tick_and_palette", |bench| {
        bench.iter(|| {
            hero.tick(&input, &[], 1.0 / 120.0);
            hero.tick(&input, &[], 1.0 / 120.0);
            hero.palette_into(DVec2::new(3.0, 1.0), 0.5, &mut pose, &mut palette);
            black_box(&palette);
        })
    });

    let mut hero = HeroAnimator::new(model.clone()).expect("every clip");
    let slope = AnimInput {
        state: MoveState::Supported {
            edge: EdgeRef {
                face: FaceId(0),
                edge: 0,
            },
            speed: 5.0,
        },
        ground: Some(Ground {
            slope: 30f64.to_radians().tan(),
            half_width: 0.4,
        }),
        ..input
    };
    c.bench_function("anim/controller_on_a_slope", |bench| {
        bench.iter(|| {
            hero.tick(&slope, &[], 1.0 / 120.0);
            hero.tick(&slope, &[], 1.0 / 120.0);
            hero.palette_into(DVec2::new(3.0, 1.0), 0.5, &mut pose, &mut palette);
            black_box(&palette);
        })
    });
    // Loading, once per model and level: the hero's .glb read and checked, and what a model
    // file named with no character file gets besides (clips by synonym, size, facing, up).
    c.bench_function("anim/load_hero_glb", |bench| {
        bench.iter(|| black_box(Model::from_glb(HERO_GLB).expect("the hero loads")))
    });
    let hero_file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/hero.glb");
    c.bench_function("anim/load_character_inferred", |bench| {
        bench.iter(|| black_box(load_character(&hero_file).expect("the hero loads")))
    });
    c.final_summary();
}

/// The hero with 29 more joints, 50 in all: chains hanging from the hands, feet and head, each
/// joint 5 cm below its parent and keyed in every clip with its parent's rotation channel.
fn fifty_joints(hero: &Model) -> Model {
    let mut m = hero.clone();
    let sk = &mut m.skeleton;
    let anchors = ["hand.L", "hand.R", "foot.L", "foot.R", "head", "hand.L"];
    let mut added = 0;
    for (k, anchor) in anchors.iter().enumerate() {
        let mut parent = sk.joint(anchor).expect("the hero's joint");
        let len = if k < 5 { 5 } else { 4 };
        for i in 0..len {
            let j = sk.len();
            sk.names.push(format!("{anchor}.chain{k}.{i}"));
            sk.parents.push(Some(parent as u16));
            let mut rest = Transform::IDENTITY;
            rest.t = glam::Vec3::new(0.0, -0.05, 0.0);
            sk.rest.push(rest);
            sk.inverse_bind.push(Mat4::IDENTITY);
            sk.root_base.push(Mat4::IDENTITY);
            sk.order.push(j as u16);
            for clip in &mut m.clips {
                if let Some(c) = clip
                    .channels
                    .iter()
                    .find(|c| usize::from(c.joint) == parent && c.property == Property::Rotation)
                    .cloned()
                {
                    clip.channels.push(Channel {
                        joint: j as u16,
                        ..c
                    });
                }
            }
            parent = j;
            added += 1;
        }
    }
    assert_eq!(added, 29);
    assert_eq!(m.skeleton.len(), 50);
    m
}

/// The poses and palette of the goal's workload, sized for one model.
struct GaitBuffers {
    walk: usize,
    run: usize,
    a: Vec<Transform>,
    b: Vec<Transform>,
    palette: Vec<Mat4>,
}

impl GaitBuffers {
    fn new(model: &Model) -> Self {
        let n = model.skeleton.len();
        GaitBuffers {
            walk: model.clip("walk").expect("walk"),
            run: model.clip("run").expect("run"),
            a: vec![Transform::IDENTITY; n],
            b: vec![Transform::IDENTITY; n],
            palette: vec![Mat4::IDENTITY; n],
        }
    }

    /// The walk and the run sampled at `phase`, blended 40 % towards the run, the palette built.
    fn sample_blend_palette(&mut self, model: &Model, phase: f32) {
        let (walk, run) = (&model.clips[self.walk], &model.clips[self.run]);
        self.a.copy_from_slice(&model.skeleton.rest);
        walk.sample_into(phase * walk.duration, &mut self.a);
        self.b.copy_from_slice(&model.skeleton.rest);
        run.sample_into(phase * run.duration, &mut self.b);
        for (x, y) in self.a.iter_mut().zip(&self.b) {
            *x = x.blend(y, 0.4);
        }
        let root = Mat4::from_translation(glam::Vec3::new(3.0, 1.0, 0.0));
        model.skeleton.palette(root, &self.a, &mut self.palette);
    }
}
