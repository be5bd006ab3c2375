//! The movement events sound needs: footsteps by ground travel, ladder rungs by climb travel,
//! and the end of a wall slide. Driven through the headless world like the movement scenarios.

use crate::common::*;
use tessera::collision::PolygonId;
use tessera::movement::climbing::RUNG_SPACING;
use tessera::movement::{MoveEvent, Tuning};
use tessera::sim::world::DT;

fn footsteps(frames: &[Frame]) -> Vec<(usize, Option<PolygonId>)> {
    frames
        .iter()
        .enumerate()
        .flat_map(|(i, f)| {
            f.events.iter().filter_map(move |e| match e {
                MoveEvent::Footstep { surface } => Some((i, *surface)),
                _ => None,
            })
        })
        .collect()
}

/// Running across two floors: one footstep per `footstep_stride` of travel, the first after half
/// a stride, each naming the polygon under the feet; standing still makes none.
#[test]
fn footsteps_follow_ground_travel_and_name_the_surface() {
    let t = Tuning::default();
    let lvl = level(
        vec![rect(-10.0, -1.0, 20.0, 0.0), rect(20.0, -1.0, 60.0, 0.0)],
        vec![],
        p(0.0, 0.0),
    );
    let mut script = hold(mv(1.0, 0.0), 600);
    script.extend(hold(mv(0.0, 0.0), 120));
    let frames = run(&lvl, &t, &script);
    let steps = footsteps(&frames);
    let walked = frames.last().unwrap().t.pos[0];
    let expected = ((walked - 0.5 * t.footstep_stride) / t.footstep_stride).floor() as usize + 1;
    assert_eq!(steps.len(), expected, "walked {walked} m: {steps:?}");
    // The last 100 frames stand still: silent.
    assert!(steps.iter().all(|&(i, _)| i < 620), "{steps:?}");
    for &(i, surface) in &steps {
        let x = frames[i].t.pos[0];
        let want = if x < 20.0 - 0.4 {
            0
        } else if x > 20.0 + 0.4 {
            1
        } else {
            continue;
        };
        assert_eq!(surface, Some(PolygonId(want)), "footstep at x = {x}");
    }
    // Evenly spaced at full speed: one stride apart.
    let xs: Vec<f64> = steps.iter().map(|&(i, _)| frames[i].t.pos[0]).collect();
    for w in xs[3..xs.len() - 3].windows(2) {
        assert!(
            (w[1] - w[0] - t.footstep_stride).abs() <= t.run_speed * DT + 1e-9,
            "{xs:?}"
        );
    }
}

/// A longer stride gives proportionally fewer footsteps.
#[test]
fn the_stride_is_a_tuning_field() {
    let lvl = level(vec![rect(-10.0, -1.0, 200.0, 0.0)], vec![], p(0.0, 0.0));
    let script = hold(mv(1.0, 0.0), 600);
    let short = Tuning {
        footstep_stride: 1.0,
        ..Tuning::default()
    };
    let long = Tuning {
        footstep_stride: 2.0,
        ..Tuning::default()
    };
    let a = footsteps(&run(&lvl, &short, &script)).len();
    let b = footsteps(&run(&lvl, &long, &script)).len();
    assert!(
        a > 30 && (a as f64 / b as f64 - 2.0).abs() < 0.1,
        "{a} vs {b}"
    );
}

/// Climbing 4 m: one rung event per rung spacing of climb travel.
#[test]
fn ladder_rungs_follow_climb_travel() {
    let t = Tuning::default();
    let lvl = level(
        vec![rect(-10.0, -1.0, 20.0, 0.0)],
        vec![(p(4.0, 0.0), p(5.0, 8.0))],
        p(4.5, 0.0),
    );
    let climb_ticks = (4.0 / t.climb_speed / DT) as usize;
    let frames = run(&lvl, &t, &hold(mv(0.0, 1.0), climb_ticks + 1));
    assert!(frames[0].events.contains(&MoveEvent::GrabbedLadder));
    let rungs = frames
        .iter()
        .filter(|f| f.events.contains(&MoveEvent::LadderRung))
        .count();
    let climbed = frames.last().unwrap().t.pos[1];
    let expected = ((climbed - 0.5 * RUNG_SPACING) / RUNG_SPACING).floor() as usize + 1;
    assert_eq!(rungs, expected, "climbed {climbed} m");
}

/// Each wall slide that starts also stops (here by landing at the foot of the wall).
#[test]
fn a_wall_slide_that_starts_also_stops() {
    let t = Tuning::default();
    let lvl = level(
        vec![rect(-10.0, -1.0, 20.0, 0.0), rect(5.0, 0.0, 6.0, 20.0)],
        vec![],
        p(3.0, 0.0),
    );
    let mut script = hold(jump(1.0), 200);
    script[0].jump_pressed = true;
    let frames = run(&lvl, &t, &script);
    let started: Vec<usize> = (0..frames.len())
        .filter(|&i| frames[i].events.contains(&MoveEvent::WallSlideStarted))
        .collect();
    let stopped: Vec<usize> = (0..frames.len())
        .filter(|&i| frames[i].events.contains(&MoveEvent::WallSlideStopped))
        .collect();
    assert_eq!(started.len(), 1, "{started:?}");
    assert_eq!(stopped.len(), 1, "{stopped:?}");
    assert!(stopped[0] > started[0]);
    assert!(frames[stopped[0]].t.grounded, "{:?}", frames[stopped[0]].t);
    assert!(frames[stopped[0]]
        .events
        .iter()
        .any(|e| matches!(e, MoveEvent::Landed { .. })));
}

/// A door its switch opens sounds where the door is: the world's `DoorOpened` is placed at the
/// door's centre (`World::placed_events`), and its cue is the door's rumble, panned that way.
#[test]
fn a_door_opening_sounds_from_the_door() {
    use glam::DVec2;
    use tessera::audio::events::world_cues;
    use tessera::audio::sounds::Sound;
    use tessera::collision::Aabb;
    use tessera::level::LevelDoor;
    use tessera::sim::{World, WorldEvent};
    let mut lvl = level(vec![rect(-10.0, -1.0, 20.0, 0.0)], vec![], p(0.0, 0.0));
    lvl.doors = vec![LevelDoor {
        points: vec![p(8.0, 0.0), p(8.5, 0.0), p(8.5, 3.0), p(8.0, 3.0)],
        open: false,
        switch: Some(Aabb {
            min: p(2.0, 0.0),
            max: p(3.0, 1.0),
        }),
        close_after: None,
        open_on: Vec::new(),
        close_on: Vec::new(),
        toggle_on: Vec::new(),
    }];
    let mut w = World::new(&lvl, &Tuning::default()).unwrap();
    let mut placed = Vec::new();
    for _ in 0..120 {
        w.step(&mv(1.0, 0.0));
        placed.extend(w.placed_events());
    }
    assert_eq!(
        placed,
        vec![(WorldEvent::DoorOpened { door: 0 }, p(8.25, 1.5))]
    );
    let mut cues = Vec::new();
    world_cues(&placed[0].0, placed[0].1, DVec2::new(2.5, 0.0), &mut cues);
    assert_eq!(cues.len(), 1);
    assert_eq!(cues[0].sound, Sound::Door);
    assert!(
        cues[0].pan > 0.0,
        "the door is to the right of the listener"
    );
}
