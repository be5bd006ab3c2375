//! The hero's animation controller driven by the movement: the clip sequence of the default
//! tour at key frames, the foot-slide bound across gait speeds, continuity of the drawn pose
//! across loops and transitions, and the landing strength.
use glam::{DVec2, Vec3};
use tessera::anim::controller::{foot_slide, FOOT_SLIDE_FRACTION, MOVING_SPEED};
use tessera::anim::{AnimInput, HeroAnimator, HeroClip, Model, HERO_GLB};
use tessera::level::paths::DataDir;
use tessera::movement::{MoveEvent, MoveState, Tuning};
use tessera::sim::{load_world, ReplayDriver, WorldFiles, TICK_HZ};

const DT: f64 = 1.0 / TICK_HZ as f64;

fn animator() -> HeroAnimator {
    HeroAnimator::new(Model::from_glb(HERO_GLB).unwrap()).unwrap()
}

/// The default tour, animated: per tick, the clip, the hero's state name, its feet, and the
/// joint positions drawn at the tick (alpha 1) and halfway to it (alpha 0.5).
struct TourFrame {
    clip: HeroClip,
    state: &'static str,
    joints: Vec<Vec3>,
    yaw: f32,
}

/// Joint positions of the pose drawn at the tick in the model's frame (feet at the origin,
/// without the facing turn).
fn model_frame(anim: &mut HeroAnimator) -> Vec<Vec3> {
    let pose = anim.pose(1.0).to_vec();
    anim.model()
        .skeleton
        .joint_positions(glam::Mat4::IDENTITY, &pose)
}

fn tour() -> Vec<TourFrame> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = WorldFiles {
        level: Some(root.join("levels/default.ron")),
        replay: Some(root.join("levels/replays/default_tour.ron")),
        ..WorldFiles::new(DataDir::at(&root))
    };
    let loaded = load_world(&files).unwrap();
    let mut world = loaded.world;
    let mut driver = ReplayDriver::new(loaded.replay.as_ref());
    let mut anim = animator();
    let mut frames = Vec::new();
    for _ in 0..driver.len() {
        driver.step(&mut world, Default::default());
        let input = AnimInput::from_hero(world.hero(), world.tuning());
        anim.tick(&input, &world.last_report().events, DT);
        frames.push(TourFrame {
            clip: anim.clip(),
            state: world.hero().state.name(),
            joints: model_frame(&mut anim),
            yaw: anim.yaw(1.0),
        });
    }
    frames
}

/// Runs of equal clips: (first frame, clip).
fn runs(frames: &[TourFrame]) -> Vec<(usize, HeroClip)> {
    let mut out: Vec<(usize, HeroClip)> = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        if out.last().is_none_or(|&(_, c)| c != f.clip) {
            out.push((i, f.clip));
        }
    }
    out
}

#[test]
fn the_default_tour_plays_the_clips_of_its_moves() {
    let frames = tour();
    let seq = runs(&frames);
    if std::env::var_os("TESSERA_PRINT_CLIPS").is_some() {
        for (i, c) in &seq {
            eprintln!("{i} {c:?} {}", frames[*i].state);
        }
    }
    // Every clip the tour exercises appears.
    for clip in [
        HeroClip::Idle,
        HeroClip::Run,
        HeroClip::JumpTakeoff,
        HeroClip::Rise,
        HeroClip::Fall,
        HeroClip::Land,
        HeroClip::CrouchWalk,
        HeroClip::WallSlide,
        HeroClip::Climb,
    ] {
        assert!(
            seq.iter().any(|&(_, c)| c == clip),
            "never {clip:?}: {seq:?}"
        );
    }
    // The clip matches the movement state on every tick.
    for (i, f) in frames.iter().enumerate() {
        let ok = match f.state {
            "climbing" => f.clip == HeroClip::Climb,
            "wall_slide" => f.clip == HeroClip::WallSlide || f.clip == HeroClip::JumpTakeoff,
            "airborne" => matches!(
                f.clip,
                HeroClip::JumpTakeoff | HeroClip::Rise | HeroClip::Fall
            ),
            _ => !matches!(
                f.clip,
                HeroClip::Rise | HeroClip::Fall | HeroClip::WallSlide | HeroClip::Climb
            ),
        };
        assert!(ok, "frame {i}: {:?} while {}", f.clip, f.state);
    }
    // Jump → rise → fall → land happen in that order, each take-off followed within a few
    // frames by the rise.
    for w in seq.windows(2) {
        if w[0].1 == HeroClip::JumpTakeoff && w[1].1 != HeroClip::JumpTakeoff {
            assert!(
                w[1].0 - w[0].0 <= 20,
                "a take-off lasting {} ticks",
                w[1].0 - w[0].0
            );
        }
        if w[1].1 == HeroClip::Land {
            assert!(
                matches!(
                    w[0].1,
                    HeroClip::Fall | HeroClip::Rise | HeroClip::WallSlide
                ),
                "landed from {:?}",
                w[0].1
            );
        }
    }
    // Key frames of the tour (see levels/default.ron and the replay): running on the tiles, the
    // first jump's take-off, rise, fall and landing, the wall slide in the shaft, crouch-walking
    // in the tunnel (the README's trace line: frame 1989), pushing against a wall,
    // climbing the ladder at the end.
    // (Indices count ticks from 0; `TESSERA_PRINT_CLIPS=1` prints the whole sequence.)
    let key_frames = [
        (300, HeroClip::Run),
        (1210, HeroClip::JumpTakeoff),
        (1240, HeroClip::Rise),
        (1270, HeroClip::Fall),
        (1285, HeroClip::Land),
        (1580, HeroClip::WallSlide),
        (1989, HeroClip::CrouchWalk),
        (2655, HeroClip::Push),
        (3300, HeroClip::Climb),
    ];
    for (i, clip) in key_frames {
        assert_eq!(frames[i].clip, clip, "frame {i} ({})", frames[i].state);
    }
}

#[test]
fn the_drawn_pose_never_jumps_between_ticks_on_the_tour() {
    // Continuity across loop boundaries and every transition. A pop moves a joint far in one tick
    // and then not at all: a spike in its per-tick distance. So on every tick each joint's
    // distance (in the model's frame, without the facing turn) must stay within twice the largest
    // of its two ticks before and two after, plus 1 cm; and no joint ever moves more than 0.45 m
    // in a tick (the fastest authored motion, the take-off's arm swing, moves a hand about 0.3 m;
    // a pop between two poses would move a hand or a foot by 0.5 to 1 m).
    let frames = tour();
    let joints = frames[0].joints.len();
    let step = |i: usize, j: usize| (frames[i + 1].joints[j] - frames[i].joints[j]).length();
    let mut worst = (0.0f32, 0, 0);
    for i in 2..frames.len() - 3 {
        // The wall slide is keyed with STEP interpolation: its jumps between keys are authored.
        // Skipped once it has played alone for longer than its fade-in (0.1 s, 12 ticks).
        if frames[i.saturating_sub(12)..=i + 3]
            .iter()
            .all(|f| f.clip == HeroClip::WallSlide)
        {
            continue;
        }
        for j in 0..joints {
            let d = step(i, j);
            let around = [
                step(i - 2, j),
                step(i - 1, j),
                step(i + 1, j),
                step(i + 2, j),
            ];
            let allowed = (2.0 * around.iter().fold(0.0f32, |a, &b| a.max(b)) + 0.01).min(0.45);
            assert!(
                d <= allowed,
                "frame {}: joint {j} moved {d} m ({:?} → {:?}), around it {around:?}",
                i + 1,
                frames[i].clip,
                frames[i + 1].clip
            );
            if d > worst.0 {
                worst = (d, i + 1, j);
            }
        }
        // The facing turns smoothly: at most a sixth of a half turn per tick.
        let turn = (frames[i + 1].yaw - frames[i].yaw).abs();
        assert!(
            turn < 0.55,
            "the facing turned {turn} rad at frame {}",
            i + 1
        );
    }
    eprintln!("largest step {worst:?}");
}

/// Drives the controller at a steady ground speed and returns the planted foot's mean signed
/// slide (net drift) and mean absolute slide, m/s, over two seconds after the start blend.
fn slide_at(speed: f64) -> (f64, f64) {
    let mut anim = animator();
    let feet = [
        anim.model().skeleton.joint("foot.L").unwrap(),
        anim.model().skeleton.joint("foot.R").unwrap(),
    ];
    let input = AnimInput {
        state: MoveState::TopDown,
        ticks_in_state: 0,
        facing: 1.0,
        vel: DVec2::new(speed, 0.0),
        crouched: false,
        climb_speed: 4.0,
    };
    for _ in 0..60 {
        anim.tick(&input, &[], DT);
    }
    // In the model's frame (feet at the origin, facing +x); the body moves `speed · DT` a tick.
    let mut before = anim.joint_positions(DVec2::ZERO, 1.0);
    let (mut signed, mut abs) = (0.0, 0.0);
    const TICKS: usize = 240;
    for _ in 0..TICKS {
        anim.tick(&input, &[], DT);
        let after = anim.joint_positions(DVec2::ZERO, 1.0);
        let s = foot_slide(&before, &after, feet, speed * DT, DT);
        signed += s;
        abs += s.abs();
        before = after;
    }
    (signed / TICKS as f64, abs / TICKS as f64)
}

#[test]
fn planted_feet_do_not_skate_from_a_walk_to_a_full_run() {
    let full = Tuning::default().run_speed;
    let mut report = Vec::new();
    let mut ok = true;
    for speed in [MOVING_SPEED * 2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, full] {
        let (drift, mean) = slide_at(speed);
        report.push(format!(
            "{speed:.2} m/s: drift {drift:+.3} m/s, mean |slide| {mean:.3} m/s ({:.0} % of the speed)",
            100.0 * mean / speed
        ));
        ok &= drift.abs() <= mean && mean < FOOT_SLIDE_FRACTION * speed;
    }
    eprintln!("{}", report.join("\n"));
    assert!(ok, "{}", report.join("\n"));
    // The control: legs cycling at the walk's authored rate while the body runs skate far past
    // the bound, so the metric can fail.
    assert!(unmatched_drift(full).abs() > 10.0 * FOOT_SLIDE_FRACTION * full);
}

/// The net drift when the body moves at `speed` but the legs cycle at the walk's authored rate.
fn unmatched_drift(speed: f64) -> f64 {
    let m = Model::from_glb(HERO_GLB).unwrap();
    let walk = &m.clips[m.clip("walk").unwrap()];
    let feet = [
        m.skeleton.joint("foot.L").unwrap(),
        m.skeleton.joint("foot.R").unwrap(),
    ];
    let mut pose = m.rest_pose();
    let at = |t: f32, pose: &mut Vec<_>| {
        pose.copy_from_slice(&m.skeleton.rest);
        walk.sample_into(walk.wrap(t), pose);
        m.skeleton.joint_positions(glam::Mat4::IDENTITY, pose)
    };
    let mut t = 0.0f32;
    let mut before = at(t, &mut pose);
    let mut sum = 0.0;
    for _ in 0..240 {
        t += DT as f32;
        let after = at(t, &mut pose);
        sum += foot_slide(&before, &after, feet, speed * DT, DT);
        before = after;
    }
    sum / 240.0
}

#[test]
fn landing_strength_grows_with_the_impact_speed() {
    let mut strengths = Vec::new();
    for impact in [1.0, 4.0, 8.0, 14.0, 20.0] {
        let mut anim = animator();
        let ground = AnimInput {
            state: MoveState::TopDown,
            ticks_in_state: 0,
            facing: 1.0,
            vel: DVec2::ZERO,
            crouched: false,
            climb_speed: 4.0,
        };
        anim.tick(
            &ground,
            &[MoveEvent::Landed {
                impact_speed: impact,
                surface: None,
            }],
            DT,
        );
        strengths.push((anim.clip(), anim.land_strength()));
    }
    assert_eq!(
        strengths[0],
        (HeroClip::Idle, 0.0),
        "a soft landing plays no landing"
    );
    for w in strengths[1..].windows(2) {
        assert_eq!(w[0].0, HeroClip::Land);
        assert!(w[1].1 >= w[0].1, "{strengths:?}");
    }
    assert!(
        strengths[1].1 > 0.0 && strengths[1].1 < 0.3,
        "{strengths:?}"
    );
    assert_eq!(strengths[4].1, 1.0);
}
