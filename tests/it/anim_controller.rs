//! The hero's animation controller driven by the movement: the clip sequence of the default
//! tour at key frames, the foot-slide bound across gait speeds, continuity of the drawn pose
//! across loops and transitions, the landing strength, the feet planted on slopes, and the game's
//! clips (attack, hurt, death) cued by the rules of play.
use glam::{DVec2, Vec3};
use tessera::anim::controller::{foot_slide, FOOT_SLIDE_FRACTION, MOVING_SPEED};
use tessera::anim::{AnimInput, HeroAnimator, HeroClip, Model, HERO_GLB};
use tessera::level::paths::DataDir;
use tessera::movement::{MoveEvent, MoveState, Tuning};
use tessera::sim::{load_world, ReplayDriver, WorldFiles, TICK_HZ};
use tessera::view::animate;

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
        // As the game does: the hero after the tick, the tick's events, the ground under it.
        animate(&mut anim, &world);
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
        ground: None,
        cue: None,
        dead: false,
        charging: false,
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
            ground: None,
            cue: None,
            dead: false,
            charging: false,
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

/// The soles (the lowest bind-pose vertices skinned only to a foot or a toe) drawn for the hero
/// after `ticks` at `speed` on ground of `slope_deg`, facing `facing`, its feet planted or not:
/// each sole vertex's height above the ground under it, m, for the left and the right foot.
fn sole_gaps(slope_deg: f64, facing: f64, ticks: usize, speed: f64, plant: bool) -> [Vec<f64>; 2] {
    use tessera::anim::Ground;
    use tessera::collision::{EdgeRef, FaceId};
    let mut anim = animator();
    let slope = slope_deg.to_radians().tan();
    let ground = Ground {
        slope,
        half_width: 0.4,
    };
    let input = AnimInput {
        state: MoveState::Supported {
            edge: EdgeRef {
                face: FaceId(0),
                edge: 0,
            },
            speed: speed * facing,
        },
        ticks_in_state: 0,
        facing,
        vel: DVec2::new(speed * facing, 0.0),
        crouched: false,
        climb_speed: 4.0,
        ground: plant.then_some(ground),
        cue: None,
        dead: false,
        charging: false,
    };
    for _ in 0..ticks {
        anim.tick(&input, &[], DT);
    }
    let m = anim.model().clone();
    let foot_bones: Vec<u16> = ["foot.L", "toe.L", "foot.R", "toe.R"]
        .iter()
        .map(|n| m.skeleton.joint(n).unwrap() as u16)
        .collect();
    let sole: Vec<usize> = (0..m.mesh.positions.len())
        .filter(|&i| m.mesh.weights[i][0] == 1.0 && foot_bones.contains(&m.mesh.joints[i][0]))
        .filter(|&i| m.mesh.positions[i][1] < 1e-3)
        .collect();
    assert!(sole.len() >= 8, "{}", sole.len());
    let joints = m.skeleton.len();
    let (mut pose, mut palette) = (
        vec![tessera::anim::Transform::IDENTITY; joints],
        vec![glam::Mat4::IDENTITY; joints],
    );
    anim.palette_into(DVec2::ZERO, 1.0, &mut pose, &mut palette);
    let mut gaps = [Vec::new(), Vec::new()];
    for &i in &sole {
        let j = m.mesh.joints[i][0];
        let p = palette[usize::from(j)].transform_point3(Vec3::from_array(m.mesh.positions[i]));
        // Left side bones are the first two of `foot_bones`.
        let side = usize::from(foot_bones[2..].contains(&j));
        gaps[side].push(f64::from(p.y) - (slope * f64::from(p.x) - 0.4 * slope.abs()));
    }
    gaps
}

#[test]
fn standing_feet_rest_on_slopes_up_to_the_steepest_walkable() {
    // Standing still on straight ground: every sole vertex within 1 cm of the surface (neither
    // sunk nor floating), both facings, slopes up to the tuning's steepest walkable (46°).
    let max = Tuning::default().max_slope_deg;
    let mut report = Vec::new();
    for deg in [0.0, 15.0, 30.0, 40.0, max] {
        for facing in [1.0, -1.0] {
            let gaps = sole_gaps(deg, facing, 90, 0.0, true).concat();
            let worst = gaps.iter().fold(0.0f64, |a, &g| a.max(g.abs()));
            report.push(format!("{deg}° facing {facing}: worst {worst:.4} m"));
            assert!(worst <= 0.01, "{}\n{gaps:?}", report.join("\n"));
        }
    }
    eprintln!("{}", report.join("\n"));
    // The control: without planting the same pose floats over the slope (the collider rests on
    // its corner, 0.4 m × tan 46° = 0.41 m above the surface at the feet).
    let floating = sole_gaps(max, 1.0, 90, 0.0, false).concat();
    assert!(floating.iter().all(|&g| g > 0.15), "{floating:?}");
}

#[test]
fn running_feet_keep_their_clip_heights_on_slopes() {
    // Running (4 m/s, the walk/run blend) up and down slopes. A foot on the ground (its lowest
    // point within 2 cm of flat ground at the same phase of the same run) is as high above the
    // slope as above the flat within 1 cm: neither sunk nor floating. A foot in the air never
    // sinks more than 1 cm into the slope.
    let max = Tuning::default().max_slope_deg;
    let mut planted = 0;
    for deg in [15.0, 30.0, max] {
        for facing in [1.0, -1.0] {
            for ticks in (60..120).step_by(7) {
                let lowest =
                    |gaps: [Vec<f64>; 2]| gaps.map(|g| g.iter().fold(f64::MAX, |a, &x| a.min(x)));
                let flat = lowest(sole_gaps(0.0, facing, ticks, 4.0, true));
                let slope = lowest(sole_gaps(deg, facing, ticks, 4.0, true));
                for k in 0..2 {
                    let what = format!(
                        "{deg}° facing {facing}, tick {ticks}, foot {k}: {} on the slope, {} on the flat",
                        slope[k], flat[k]
                    );
                    if flat[k] < 0.02 {
                        planted += 1;
                        assert!((slope[k] - flat[k]).abs() <= 0.01, "{what}");
                    } else {
                        assert!(slope[k] >= -0.01, "{what}");
                    }
                }
            }
        }
    }
    assert!(planted >= 20, "only {planted} planted feet checked");
}

/// The rules of play drive the hero's game clips through `view::animate`: the attack key swings
/// `attack` over the upper body (the legs keep their clip), a crawler's touch plays `hurt` over
/// it, and dying plays `death` until the respawn, after which the hero stands again.
#[test]
fn the_attack_a_hit_and_a_death_play_their_clips_on_the_hero() {
    use tessera::level::{AgentKind, AgentSize};
    use tessera::movement::Actions;
    use tessera::sim::{PlayEvent, World};
    let mut level = crate::common::level(
        vec![crate::common::rect(-20.0, -1.0, 20.0, 0.0)],
        vec![],
        crate::common::p(0.0, 0.0),
    );
    level.agents = vec![crate::common::agent(
        AgentKind::Idle,
        AgentSize::Small,
        8.0,
        0.0,
        -1.0,
    )];
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let mut anim = animator();
    let attack = Actions {
        attack_pressed: true,
        ..Actions::default()
    };
    w.step(&attack);
    animate(&mut anim, &w);
    assert!(w.play_events().contains(&PlayEvent::Attacked));
    assert_eq!(anim.layer(), Some(HeroClip::Attack));
    assert_eq!(anim.clip(), HeroClip::Idle, "the legs stand on");
    for _ in 0..60 {
        w.step(&Actions::default());
        animate(&mut anim, &w);
    }
    assert_eq!(anim.layer(), None, "the swing is over");

    // A crawler walks into the standing hero: hurt.
    let mut level = level.clone();
    level.agents[0].kind = AgentKind::Crawler;
    level.agents[0].spawn = crate::common::p(3.0, 0.0);
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let mut anim = animator();
    let mut hurt = false;
    for _ in 0..120 * 5 {
        w.step(&Actions::default());
        animate(&mut anim, &w);
        if w.play_events()
            .iter()
            .any(|e| matches!(e, PlayEvent::Hurt { .. }))
        {
            hurt = true;
            assert_eq!(anim.layer(), Some(HeroClip::Hurt));
            break;
        }
    }
    assert!(hurt, "the crawler never reached the hero");

    // Walking off the end of the floor into the pit: the death clip until the respawn.
    let level = crate::common::level(
        vec![crate::common::rect(-20.0, -1.0, 0.0, 0.0)],
        vec![],
        crate::common::p(-2.0, 0.0),
    );
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let mut anim = animator();
    let right = Actions {
        move_axis: DVec2::X,
        ..Actions::default()
    };
    let (mut died, mut respawned) = (false, false);
    for _ in 0..120 * 20 {
        let idle = Actions::default();
        w.step(if died { &idle } else { &right });
        animate(&mut anim, &w);
        for e in w.play_events() {
            match e {
                PlayEvent::Died { .. } => died = true,
                PlayEvent::Respawned => respawned = true,
                _ => {}
            }
        }
        if w.play().is_dead() {
            assert_eq!(anim.clip(), HeroClip::Death);
        }
        if respawned {
            break;
        }
    }
    assert!(died && respawned, "died {died}, respawned {respawned}");
    for _ in 0..30 {
        w.step(&Actions::default());
        animate(&mut anim, &w);
    }
    assert_ne!(
        anim.clip(),
        HeroClip::Death,
        "standing again after the respawn"
    );
}
