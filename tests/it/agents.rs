//! Agents: characters other than the hero, each on the meshes of its size class, moving by the
//! hero's state machine. These scenarios run whole worlds from level data and check what a player
//! would see: a patrol never walks off a ledge or into a wall, each size class goes only where its
//! collider fits, stairs are walked, and worlds with agents stay deterministic.
use glam::DVec2;
use tessera::level::{AgentKind, AgentSize, Level, LevelAgent};
use tessera::movement::{Actions, Tuning};
use tessera::sim::World;

use crate::common::{agent, level, p, rect};

fn with_agents(mut l: Level, agents: Vec<LevelAgent>) -> Level {
    l.agents = agents;
    l
}

/// Runs `ticks` ticks with the hero idle; returns each tick's agent positions and states.
fn run(l: &Level, ticks: usize) -> (World, Vec<Vec<(DVec2, &'static str)>>) {
    let mut w = World::new(l, &Tuning::default()).expect("world");
    let mut frames = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        w.step(&Actions::default());
        frames.push(
            w.agents()
                .iter()
                .map(|a| (a.mover.body.pos, a.mover.state.name()))
                .collect(),
        );
    }
    (w, frames)
}

/// A floating platform from x = -6 to 6 (top at y = 0), far above the hero's floor.
fn platform_level() -> Level {
    level(
        vec![rect(-6.0, -1.0, 6.0, 0.0), rect(-40.0, -30.0, 40.0, -29.0)],
        vec![],
        p(-30.0, -29.0),
    )
}

#[test]
fn a_patrol_turns_at_both_ledges_and_never_leaves_the_ground() {
    for size in [
        AgentSize::Small,
        AgentSize::Medium,
        AgentSize::Large,
        AgentSize::Hero,
    ] {
        let l = with_agents(
            platform_level(),
            vec![agent(AgentKind::Patrol, size, 0.0, 0.0, 1.0)],
        );
        // 60 s: at half the run speed that is many crossings of the 12 m platform.
        let (_, frames) = run(&l, 120 * 60);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for (tick, f) in frames.iter().enumerate() {
            let (pos, state) = f[0];
            assert_eq!(
                state, "supported",
                "{size:?}: left the ground at tick {tick}"
            );
            assert_eq!(pos.y, 0.0, "{size:?}: tick {tick}");
            lo = lo.min(pos.x);
            hi = hi.max(pos.x);
        }
        // The collider turns when its front reaches the ledge: the feet stay half a width inside
        // it (give or take a tick's travel), and get there on both sides.
        let half = size.box_size().map_or(0.4, |(w, _)| w / 2.0);
        for (end, reached) in [(-6.0, lo), (6.0, hi)] {
            let inset = (end - reached).abs();
            assert!(
                inset >= half - 0.05 && inset <= half + 0.1,
                "{size:?}: turned {inset} m from the ledge at {end}, half its width is {half}"
            );
        }
    }
}

#[test]
fn a_patrol_range_keeps_each_walking_kind_to_its_stretch_of_the_floor() {
    // A 12 m platform; the range (-2, 3) lies well inside it, so only the range can turn them.
    // Without it the same agents reach the ledges (the test above); with it their feet stay in
    // the range, give or take a tick's travel (the turn brakes in time), and reach both ends.
    for (kind, size) in [
        (AgentKind::Patrol, AgentSize::Small),
        (AgentKind::Crawler, AgentSize::Small),
        (AgentKind::Brute, AgentSize::Large),
    ] {
        let mut a = agent(kind, size, 0.0, 0.0, 1.0);
        a.patrol = Some([-2.0, 3.0]);
        let l = with_agents(platform_level(), vec![a]);
        let (_, frames) = run(&l, 120 * 30);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for (tick, f) in frames.iter().enumerate() {
            let (pos, state) = f[0];
            assert_eq!(
                state, "supported",
                "{kind:?}: left the ground at tick {tick}"
            );
            lo = lo.min(pos.x);
            hi = hi.max(pos.x);
        }
        let tick_travel = 0.5 * Tuning::default().run_speed / 120.0;
        assert!(
            lo >= -2.0 - tick_travel && hi <= 3.0 + tick_travel,
            "{kind:?}: walked {lo}..{hi}, outside its range (-2, 3)"
        );
        assert!(
            lo < -1.8 && hi > 2.8,
            "{kind:?}: walked only {lo}..{hi}, not to both ends of (-2, 3)"
        );
    }
}

#[test]
fn an_agent_spawned_at_its_range_end_facing_out_turns_at_once() {
    // Feet on the right end of (-2, 3), facing right: the first tick already walks left.
    let mut a = agent(AgentKind::Crawler, AgentSize::Small, 3.0, 0.0, 1.0);
    a.patrol = Some([-2.0, 3.0]);
    let l = with_agents(platform_level(), vec![a]);
    let (_, frames) = run(&l, 120 * 5);
    let xs: Vec<f64> = frames.iter().map(|f| f[0].0.x).collect();
    assert!(xs[0] < 3.0, "it stepped out first: {}", xs[0]);
    assert!(
        xs.iter().all(|&x| (-2.05..=3.0).contains(&x)),
        "it left its range: {:?}",
        xs.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (
                a.min(x),
                b.max(x)
            ))
    );
}

#[test]
fn a_patrol_turns_at_walls_and_walks_up_and_down_steps() {
    // A floor with a wall at each end and a 0.2 m step in the middle (the default
    // max_step_height is higher).
    let l = level(
        vec![
            rect(-10.0, -1.0, 10.0, 0.0),
            rect(0.0, 0.0, 10.0, 0.2),
            rect(-11.0, -1.0, -10.0, 5.0),
            rect(10.0, -1.0, 11.0, 5.0),
        ],
        vec![],
        p(-8.0, 0.0),
    );
    let l = with_agents(
        l,
        vec![agent(AgentKind::Patrol, AgentSize::Small, -5.0, 0.0, 1.0)],
    );
    let (_, frames) = run(&l, 120 * 40);
    let mut xs = Vec::new();
    for (tick, f) in frames.iter().enumerate() {
        let (pos, state) = f[0];
        assert_eq!(state, "supported", "left the ground at tick {tick}");
        let ground = if pos.x > 0.0 { 0.2 } else { 0.0 };
        assert!(
            (pos.y - ground).abs() < 1e-9 || (pos.x.abs() < 0.31),
            "tick {tick}: feet at {pos} off the ground"
        );
        xs.push(pos.x);
    }
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // At the walls the feet are half a width (0.3 m) from them, within the look-ahead.
    assert!((-9.7..-9.6).contains(&lo), "lowest x {lo}");
    assert!(hi > 9.6 && hi <= 9.7, "highest x {hi}");
    // It went up and down the step several times.
    let crossings = xs
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count();
    assert!(crossings >= 4, "crossed the step {crossings} times");
}

#[test]
fn each_size_class_goes_only_where_its_collider_fits() {
    // A tunnel 1.5 m high from x = 2 to 8 under a block: the small and medium classes fit, the
    // large (2.2 m tall) does not and turns at its mouth.
    let base = level(
        vec![
            rect(-10.0, -1.0, 12.0, 0.0),
            rect(2.0, 1.5, 8.0, 6.0),
            rect(-11.0, -1.0, -10.0, 8.0),
            rect(12.0, -1.0, 13.0, 8.0),
        ],
        vec![],
        p(-9.0, 0.0),
    );
    for (size, fits) in [
        (AgentSize::Small, true),
        (AgentSize::Medium, true),
        (AgentSize::Large, false),
    ] {
        let l = with_agents(
            base.clone(),
            vec![agent(AgentKind::Patrol, size, -4.0, 0.0, 1.0)],
        );
        let (w, frames) = run(&l, 120 * 30);
        let hi = frames
            .iter()
            .map(|f| f[0].0.x)
            .fold(f64::NEG_INFINITY, f64::max);
        let (width, _) = size.box_size().unwrap();
        if fits {
            assert!(hi > 10.0, "{size:?} should pass the tunnel, reached {hi}");
        } else {
            assert!(
                hi <= 2.0 - width / 2.0 + 1e-9,
                "{size:?} entered the tunnel: reached {hi}"
            );
            assert!(
                hi > 2.0 - width / 2.0 - 0.1,
                "{size:?} turned early at {hi}"
            );
        }
        // Every size class in use has its own mesh, after the hero's two.
        assert_eq!(w.collision().shapes().len(), 3);
    }
}

#[test]
fn agents_of_several_classes_share_one_mesh_per_class() {
    let l = with_agents(
        platform_level(),
        vec![
            agent(AgentKind::Patrol, AgentSize::Large, -3.0, 0.0, 1.0),
            agent(AgentKind::Idle, AgentSize::Small, 0.0, 0.0, 1.0),
            agent(AgentKind::Patrol, AgentSize::Small, 3.0, 0.0, -1.0),
            agent(AgentKind::Idle, AgentSize::Hero, 1.0, 0.0, 1.0),
        ],
    );
    let (w, frames) = run(&l, 240);
    // Hero stand and crouch, then small and large (hero-sized agents use the hero's meshes).
    assert_eq!(w.collision().shapes().len(), 4);
    let colliders: Vec<u16> = w.agents().iter().map(|a| a.mover.collider.0).collect();
    assert_eq!(colliders, [3, 2, 2, 0]);
    // The idle ones stay where they are; agents ignore each other (the patrols walk through).
    for f in &frames {
        assert_eq!(f[1].0, p(0.0, 0.0));
        assert_eq!(f[3].0, p(1.0, 0.0));
    }
    assert!(frames.last().unwrap()[2].0.x < 3.0 - 1.0);
}

#[test]
fn worlds_with_agents_are_deterministic_and_the_hash_covers_them() {
    let l = with_agents(
        platform_level(),
        vec![
            agent(AgentKind::Patrol, AgentSize::Medium, -2.0, 0.0, 1.0),
            agent(AgentKind::Patrol, AgentSize::Small, 2.0, 0.0, -1.0),
        ],
    );
    let hashes = |l: &Level| {
        let mut w = World::new(l, &Tuning::default()).unwrap();
        (0..600)
            .map(|_| {
                w.step(&Actions::default());
                w.state_hash()
            })
            .collect::<Vec<u64>>()
    };
    let a = hashes(&l);
    assert_eq!(a, hashes(&l));
    // The same hero without the agents hashes differently: the agents are in the state.
    let mut alone = l.clone();
    alone.agents.clear();
    assert_ne!(a.last(), hashes(&alone).last());
    // The trace carries them.
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    w.step(&Actions::default());
    let frame = w.trace_frame();
    assert_eq!(frame.agents.len(), 2);
    assert_eq!(frame.agents[1].facing, -1.0);
    let json = serde_json::to_string(&frame).unwrap();
    assert!(json.contains("\"agents\""), "{json}");
    let mut w = World::new(&alone, &Tuning::default()).unwrap();
    w.step(&Actions::default());
    let json = serde_json::to_string(&w.trace_frame()).unwrap();
    assert!(!json.contains("agents"), "{json}");
}

#[test]
fn an_agent_with_no_room_anywhere_is_a_clear_error() {
    // The large class (2.2 m tall) does not fit under a ceiling 2 m up, and the bounds keep its
    // feet between the floor and the ceiling; the hero (1.8 m) fits.
    let mut l = level(
        vec![rect(-6.0, -1.0, 6.0, 0.0), rect(-6.0, 2.0, 6.0, 3.0)],
        vec![],
        p(0.0, 0.0),
    );
    l.bounds = Some(tessera::collision::Aabb {
        min: p(-4.9, -0.5),
        max: p(4.9, 2.5),
    });
    l.agents = vec![agent(AgentKind::Idle, AgentSize::Large, 0.0, 0.0, 1.0)];
    let e = World::new(&l, &Tuning::default()).err().expect("refused");
    assert_eq!(
        e.to_string(),
        "agent 0: the spawn point (0, 0) has no free space anywhere near it for its collider"
    );
}

#[test]
fn a_level_swap_puts_the_agents_back_at_their_spawns() {
    let l = with_agents(
        platform_level(),
        vec![agent(AgentKind::Patrol, AgentSize::Small, 0.0, 0.0, 1.0)],
    );
    let (mut w, _) = run(&l, 300);
    assert_ne!(w.agents()[0].mover.body.pos, p(0.0, 0.0));
    w.set_level(&l).unwrap();
    assert_eq!(w.agents()[0].mover.body.pos, p(0.0, 0.0));
    let mut gone = l.clone();
    gone.agents.clear();
    w.set_level(&gone).unwrap();
    assert!(w.agents().is_empty());
    assert_eq!(w.collision().shapes().len(), 2);
}

#[test]
fn the_hero_walks_through_an_agent_and_the_meeting_query_sees_it() {
    // Agents ignore the hero for collision; the exact meeting query is what contact reads.
    let l = with_agents(
        level(vec![rect(-20.0, -1.0, 20.0, 0.0)], vec![], p(-5.0, 0.0)),
        vec![agent(AgentKind::Idle, AgentSize::Small, 0.0, 0.0, 1.0)],
    );
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    use tessera::collision::Meeting;
    assert_eq!(w.agents_meeting_hero(), [Meeting::Apart]);
    let mut seen = Vec::new();
    for _ in 0..240 {
        w.step(&tessera::movement::Actions {
            move_axis: p(1.0, 0.0),
            ..Default::default()
        });
        let m = w.agents_meeting_hero()[0];
        if seen.last() != Some(&m) {
            seen.push(m);
        }
        // Overlapping exactly while the boxes' x ranges overlap (hero 0.8 wide, agent 0.6).
        let dx = (w.hero().body.pos.x - 0.0).abs();
        assert_eq!(m == Meeting::Overlapping, dx < 0.7, "dx {dx}: {m:?}");
    }
    assert_eq!(seen[0], Meeting::Apart);
    assert!(seen.contains(&Meeting::Overlapping), "{seen:?}");
    assert!(
        w.hero().body.pos.x > 5.0,
        "the agent did not block the hero"
    );
    assert_eq!(w.agents()[0].mover.body.pos, p(0.0, 0.0));
}

mod zero_penetration {
    //! Issue 26's first goal at CI size: random levels of grid tiles with doors and agents of
    //! the three box classes and the hero's, the hero driven by random actions, doors opened and
    //! closed at random ticks. Every tick, for the hero and every agent, the face its body is in
    //! is not solid on its collider's mesh (the exact, discrete fact), and, independently of the
    //! mesh, its collider overlaps no tile and no closed door by more than 10 µm (separating
    //! axes). A character a closing door has no room for is moved out (crouch, wiggle, or a
    //! crush to the nearest free point): the check holds after every door change too, whether
    //! the test sets the door or a schedule of the level does (a door toggled by a
    //! `timer(at, every)` signal, issue 52's goal 2). `PROPTEST_CASES` sets how many (48 by
    //! default).
    use glam::DVec2;
    use proptest::prelude::*;
    use tessera::collision::FaceKind;
    use tessera::level::{
        AgentKind, AgentSize, Level, LevelAgent, LevelDoor, LevelSignal, SignalSource,
    };
    use tessera::movement::{Actions, Hero, Tuning};
    use tessera::sim::World;

    use crate::common::{level, p, rect, sat_overlap};

    /// Allowed overlap, m (the collision core's own bound in `collision_props`).
    const MAX_OVERLAP: f64 = 1e-5;

    fn boxed(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
        vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]
    }

    /// Tiles on a 0.5 m grid inside a 20 m × 12 m walled room, doors of grid boxes, agents.
    fn scenario() -> impl Strategy<Value = (Level, Vec<(u32, usize, bool)>, Vec<Actions>)> {
        // A door's schedule: its first toggle and the ticks between toggles.
        let schedule = prop::option::weighted(0.5, (0u32..240, 12u32..240));
        let tile = (0i32..40, 0i32..24, 1i32..8, 1i32..4);
        let size = prop_oneof![
            Just(AgentSize::Small),
            Just(AgentSize::Medium),
            Just(AgentSize::Large),
            Just(AgentSize::Hero)
        ];
        let agent = (size, 0i32..40, 0i32..24, prop::bool::ANY);
        let action = (
            -1i32..=1,
            -1i32..=1,
            prop::bool::weighted(0.1),
            prop::bool::weighted(0.1),
        );
        (
            prop::collection::vec(tile.clone(), 4..20),
            prop::collection::vec(tile, 1..4),
            prop::collection::vec(agent, 1..8),
            prop::collection::vec((0u32..300, 0usize..4, prop::bool::ANY), 0..16),
            prop::collection::vec((action, 1usize..40), 4..30),
            prop::collection::vec(schedule, 3),
        )
            .prop_map(|(tiles, doors, agents, toggles, script, schedules)| {
                let g = |i: i32| i as f64 * 0.5;
                let mut polygons = vec![
                    rect(-1.0, -1.0, 21.0, 0.0),
                    rect(-1.0, 12.0, 21.0, 13.0),
                    rect(-1.0, 0.0, 0.0, 12.0),
                    rect(20.0, 0.0, 21.0, 12.0),
                ];
                polygons.extend(
                    tiles.iter().map(|&(x, y, w, h)| {
                        rect(g(x), g(y), g(x + w).min(20.0), g(y + h).min(12.0))
                    }),
                );
                polygons.retain(|p| {
                    let a = p.points[0];
                    let c = p.points[2];
                    c.x > a.x && c.y > a.y
                });
                let mut l = level(polygons, vec![], p(10.0, 6.0));
                // Doors start open, and an agent of each size starts inside each door, so that
                // closing one (the first toggles close every door) finds characters inside.
                l.doors = doors
                    .iter()
                    .map(|&(x, y, w, h)| LevelDoor {
                        points: boxed(g(x), g(y), g(x + w).min(20.0) + 0.25, g(y + h) + 0.25),
                        open: true,
                        switch: None,
                        close_after: None,
                        open_on: Vec::new(),
                        close_on: Vec::new(),
                        toggle_on: Vec::new(),
                    })
                    .collect();
                // Half the doors also on a schedule of their own (`timer(at, every)`).
                for (d, s) in schedules.iter().enumerate().take(l.doors.len()) {
                    if let Some((at, every)) = *s {
                        let name = format!("door{d}");
                        l.signals.push(LevelSignal {
                            name: name.clone(),
                            source: SignalSource::Timer {
                                at: Some(at as f64 / 120.0),
                                every: Some(every as f64 / 120.0),
                            },
                        });
                        l.doors[d].toggle_on.push(name);
                    }
                }
                let sizes = [
                    AgentSize::Small,
                    AgentSize::Medium,
                    AgentSize::Large,
                    AgentSize::Hero,
                ];
                let in_doors = doors
                    .iter()
                    .enumerate()
                    .map(|(i, &(x, y, w, _))| LevelAgent {
                        kind: AgentKind::Patrol,
                        size: sizes[i % 4],
                        spawn: p(0.5 * (g(x) + g(x + w).min(20.0)), g(y) + 0.1),
                        facing: 1.0,
                        character: None,
                        patrol: None,
                    });
                l.agents = agents
                    .iter()
                    .map(|&(size, x, y, left)| LevelAgent {
                        kind: AgentKind::Patrol,
                        size,
                        spawn: p(g(x) + 0.25, g(y)),
                        facing: if left { -1.0 } else { 1.0 },
                        character: None,
                        patrol: None,
                    })
                    .chain(in_doors)
                    .collect();
                let mut toggles = toggles;
                toggles.extend((0..doors.len()).map(|d| (1 + d as u32, d, false)));
                let mut actions = Vec::new();
                for ((x, y, jump, crouch), n) in script {
                    for k in 0..n {
                        actions.push(Actions {
                            move_axis: p(x as f64, y as f64),
                            jump,
                            jump_pressed: jump && k == 0,
                            crouch,
                            attack_pressed: false,
                        });
                    }
                }
                (l, toggles, actions)
            })
    }

    /// The deepest overlap of `h`'s collider (on `w`'s meshes) with a tile or a closed door.
    fn deepest(w: &World, l: &Level, h: &Hero) -> (f64, String) {
        let c: Vec<DVec2> = w
            .collision()
            .mesh(h.collider)
            .collider()
            .iter()
            .map(|&q| q + h.body.pos)
            .collect();
        let mut worst = (f64::NEG_INFINITY, String::new());
        for (i, poly) in l.polygons.iter().enumerate() {
            let d = sat_overlap(&c, &poly.points);
            if d > worst.0 {
                worst = (d, format!("polygon {i}"));
            }
        }
        for (i, (door, state)) in l.doors.iter().zip(w.doors()).enumerate() {
            if !state.open {
                let d = sat_overlap(&c, &door.points);
                if d > worst.0 {
                    worst = (d, format!("door {i}"));
                }
            }
        }
        worst
    }

    fn check(w: &World, l: &Level, when: &str) -> Result<(), TestCaseError> {
        let characters = std::iter::once(("hero".to_string(), w.hero())).chain(
            w.agents()
                .iter()
                .enumerate()
                .map(|(i, a)| (format!("agent {i}"), &a.mover)),
        );
        for (who, h) in characters {
            let mesh = w.collision().mesh(h.collider);
            prop_assert_ne!(
                mesh.kind(h.body.face),
                FaceKind::Solid,
                "{}: {} in a solid face at {:?}",
                when,
                who,
                h.body.pos
            );
            let (depth, what) = deepest(w, l, h);
            prop_assert!(
                depth <= MAX_OVERLAP,
                "{}: {} overlaps {} by {} m at {:?}",
                when,
                who,
                what,
                depth,
                h.body.pos
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(crate::common::seed::proptest_config(48, 0x7e55_a6e7))]

        #[test]
        fn no_character_ever_overlaps_a_tile_or_a_closed_door(
            (l, toggles, actions) in scenario(),
        ) {
            let Ok(mut w) = World::new(&l, &Tuning::default()) else {
                // No room for some agent anywhere: a clear error, not this test's subject.
                return Ok(());
            };
            check(&w, &l, "spawn")?;
            for (tick, a) in actions.iter().enumerate() {
                w.step(a);
                check(&w, &l, &format!("tick {tick}"))?;
                for &(at, door, open) in &toggles {
                    if at as usize == tick && door < l.doors.len() {
                        w.set_door(door, open);
                        check(&w, &l, &format!("tick {tick}, door {door} open {open}"))?;
                    }
                }
            }
        }
    }
}
