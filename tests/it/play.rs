//! The rules of play (`sim::play`): hazards hurt only on real overlap and return the hero to the
//! last safe ground (so holding a direction never crosses a spike bed), a hit gives knockback and
//! invulnerability, deaths respawn at the last checkpoint within half a second, pits and the
//! goal, stomps and the attack on enemies; all of it deterministic.
use glam::DVec2;
use proptest::prelude::*;
use tessera::collision::{orient, Aabb};
use tessera::level::PolygonKind;
use tessera::level::{AgentKind, AgentSize, Level, LevelAgent, LevelPolygon};
use tessera::movement::{Actions, Tuning};
use tessera::sim::world::World;
use tessera::sim::{DeathCause, PlayEvent};

use crate::common::{level, mv, p, rect};

fn hazard(x0: f64, y0: f64, x1: f64, y1: f64) -> LevelPolygon {
    LevelPolygon {
        kind: PolygonKind::Hazard,
        ..rect(x0, y0, x1, y1)
    }
}

fn region(x0: f64, y0: f64, x1: f64, y1: f64) -> Aabb {
    Aabb {
        min: p(x0, y0),
        max: p(x1, y1),
    }
}

/// A 40 m floor (top at y = 0) with the hero at x = 1.
fn floor_level(extra: Vec<LevelPolygon>) -> Level {
    let mut polygons = vec![rect(-2.0, -1.0, 40.0, 0.0)];
    polygons.extend(extra);
    level(polygons, vec![], p(1.0, 0.0))
}

/// Steps `n` ticks with `a`, returning each tick's play events with its tick index.
fn play(w: &mut World, a: Actions, n: usize) -> Vec<(u64, PlayEvent)> {
    let mut out = Vec::new();
    for _ in 0..n {
        w.step(&a);
        assert!(w.penetrations().is_empty(), "penetration at {}", w.frame());
        out.extend(w.play_events().iter().map(|&e| (w.frame() - 1, e)));
    }
    out
}

fn hurts(events: &[(u64, PlayEvent)]) -> Vec<u64> {
    events
        .iter()
        .filter(|(_, e)| matches!(e, PlayEvent::Hurt { .. } | PlayEvent::Died { .. }))
        .map(|&(t, _)| t)
        .collect()
}

#[test]
fn a_hazard_hurts_on_overlap_and_returns_the_hero_to_the_last_safe_ground() {
    // A strip of spikes 0.3 m high on the floor from x = 5 to 6.
    let l = floor_level(vec![hazard(5.0, 0.0, 6.0, 0.3)]);
    let t = Tuning::default();
    let mut w = World::new(&l, &t).unwrap();
    assert_eq!(w.play().health, 3);
    let mut hit_at = None;
    for _ in 0..240 {
        let before = w.hero().body.pos;
        w.step(&mv(1.0, 0.0));
        if w.play_events().contains(&PlayEvent::Hurt { health: 2 }) {
            // The collider's right edge (x + 0.4) passed x = 5 in this tick, not before: the
            // last safe ground is where it stood before the tick, and it is back there, at rest.
            assert!(before.x + 0.4 <= 5.0, "{before}");
            let from = w.play_events().iter().find_map(|e| match e {
                PlayEvent::Returned { from } => Some(*from),
                _ => None,
            });
            assert!(
                from.is_some_and(|f| f.x + 0.4 > 5.0),
                "{:?}",
                w.play_events()
            );
            assert_eq!(w.hero().body.pos, before);
            assert_eq!(w.hero().vel, DVec2::ZERO);
            assert!(w.hero().grounded());
            assert_eq!(w.prev_pos(), before, "drawn there at once");
            hit_at = Some(w.frame());
            break;
        }
    }
    let hit_at = hit_at.expect("walking into the spikes hurts");
    assert_eq!(w.play().health, 2);
    // Walking on into them: returned every time, hurt again only after the invulnerability,
    // never through.
    let invulnerable = (t.hurt_invulnerability * 120.0).ceil() as u64;
    let events = play(&mut w, mv(1.0, 0.0), 400);
    let next = hurts(&events);
    assert!(
        next.first()
            .is_some_and(|&t2| t2 - hit_at + 1 >= invulnerable),
        "hit again at {next:?} after {hit_at}"
    );
    let returns = events
        .iter()
        .filter(|(_, e)| matches!(e, PlayEvent::Returned { .. }))
        .count();
    assert!(returns > next.len(), "{returns} returns, {next:?}");
    assert!(w.hero().body.pos.x < 6.0);
}

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The tuning the game ships (`assets/tuning.ron`).
fn shipped_tuning() -> Tuning {
    tessera::level::load_tuning(root().join("assets/tuning.ron")).unwrap()
}

/// Goal 2 of issue 54: a hero holding only Right toward a 2 m spike bed on flat ground never
/// gets past its far end, alive or by respawning beyond it, with the shipped tuning: it is
/// returned to the ground before the bed until its health runs out, and respawns at the spawn.
#[test]
fn holding_right_never_crosses_a_spike_bed() {
    let l = floor_level(vec![hazard(10.0, 0.0, 12.0, 0.3)]);
    let mut w = World::new(&l, &shipped_tuning()).unwrap();
    let mut furthest = f64::MIN;
    let mut events = Vec::new();
    for _ in 0..20 * 120 {
        events.extend(play(&mut w, mv(1.0, 0.0), 1));
        furthest = furthest.max(w.hero().body.pos.x);
        assert!(
            w.hero().body.pos.x < 12.0,
            "past the spikes at {}",
            w.frame()
        );
    }
    assert!(furthest > 9.6, "never reached the spikes: {furthest}");
    assert!(w.play().deaths >= 2, "{} deaths", w.play().deaths);
    assert!(events.iter().any(|(_, e)| *e == PlayEvent::Respawned));
}

/// The same at level 1's spikes (x = 30 to 32 on the grass at y = 1), holding only Right from the
/// level's spawn: the hero meets them and never gets past x = 32 (the checkpoint beyond them at
/// x = 34 is never reached).
#[test]
fn holding_right_never_crosses_level_1s_spikes() {
    let l = tessera::level::load_level(root().join("levels/campaign/01_first_steps.ron")).unwrap();
    let bed = l
        .polygons
        .iter()
        .find(|p| p.kind == PolygonKind::Hazard)
        .map(|p| Aabb::from_points(p.points.iter().copied()))
        .unwrap();
    assert_eq!((bed.min.x, bed.max.x), (30.0, 32.0));
    let mut w = World::new(&l, &shipped_tuning()).unwrap();
    let mut furthest = f64::MIN;
    for _ in 0..30 * 120 {
        w.step(&mv(1.0, 0.0));
        furthest = furthest.max(w.hero().body.pos.x);
        assert!(
            w.hero().body.pos.x < bed.max.x,
            "past the spikes at {}",
            w.frame()
        );
        assert_eq!(w.checkpoint(), None);
    }
    assert!(
        furthest > bed.min.x - 0.5,
        "never reached the spikes: {furthest}"
    );
    assert!(w.play().deaths >= 1, "{} deaths", w.play().deaths);
}

#[test]
fn touching_a_hazard_is_not_a_hit() {
    // The hero's collider (±0.4 m) flush against a hazard's side and standing on another's top.
    let l = Level {
        spawn: p(1.6, 0.0),
        ..floor_level(vec![
            hazard(2.0, 0.0, 3.0, 2.5),
            hazard(-1.0, -0.5, 3.0, 0.0),
        ])
    };
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let events = play(&mut w, Actions::default(), 240);
    assert!(hurts(&events).is_empty(), "{events:?}");
    assert_eq!(w.play().health, 3);
    // One step right overlaps.
    let events = play(&mut w, mv(1.0, 0.0), 10);
    assert_eq!(hurts(&events).len(), 1, "{events:?}");
}

#[test]
fn a_death_respawns_at_the_last_checkpoint_within_half_a_second() {
    let mut l = floor_level(vec![hazard(10.0, 0.0, 12.0, 0.3)]);
    l.checkpoints = vec![region(4.0, 0.0, 5.0, 2.0)];
    l.tuning.health = Some(1);
    let t = Tuning::default();
    let mut w = World::new(&l, &t).unwrap();
    let mut events = Vec::new();
    while !events.iter().any(|(_, e)| *e == PlayEvent::Respawned) {
        events.extend(play(&mut w, mv(1.0, 0.0), 1));
        assert!(w.frame() < 600, "{events:?}");
    }
    let at = |want: fn(&PlayEvent) -> bool| {
        events
            .iter()
            .find(|(_, e)| want(e))
            .map(|&(t, _)| t)
            .unwrap()
    };
    let checkpoint = at(|e| matches!(e, PlayEvent::Checkpoint { index: 0 }));
    let died = at(|e| {
        matches!(
            e,
            PlayEvent::Died {
                cause: DeathCause::Hurt
            }
        )
    });
    let back = at(|e| matches!(e, PlayEvent::Respawned));
    assert!(checkpoint < died && died < back);
    assert!(
        (back - died) as f64 / 120.0 <= 0.5,
        "respawned {} ticks after the death",
        back - died
    );
    assert_eq!(w.play().deaths, 1);
    // Back at the checkpoint's bottom centre, whole.
    assert!(
        (w.hero().body.pos - p(4.5, 0.0)).length() < 1e-9,
        "{}",
        w.hero().body.pos
    );
    assert_eq!(w.play().health, 1);
    assert!(!w.play().is_dead());
    assert_eq!(w.prev_pos(), w.hero().body.pos);
}

#[test]
fn falling_out_of_the_level_is_a_death_in_a_pit_and_the_goal_is_reached_once() {
    // A floor with a gap from 6 to 9 over the bottom of the bounds; the goal beyond it.
    let mut l = level(
        vec![rect(-2.0, -1.0, 6.0, 0.0), rect(9.0, -1.0, 30.0, 0.0)],
        vec![],
        p(1.0, 0.0),
    );
    l.bounds = Some(region(-2.0, -6.0, 30.0, 10.0));
    l.goal = Some(region(20.0, 0.0, 22.0, 3.0));
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let events = play(&mut w, mv(1.0, 0.0), 240);
    assert!(
        events.iter().any(|(_, e)| *e
            == PlayEvent::Died {
                cause: DeathCause::Pit
            }),
        "{events:?}"
    );
    assert_eq!(w.play().deaths, 1);
    // A run and a jump over the gap reaches the goal.
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    play(&mut w, mv(1.0, 0.0), 50);
    let jump = Actions {
        jump: true,
        jump_pressed: true,
        ..mv(1.0, 0.0)
    };
    play(&mut w, jump, 1);
    let events = play(
        &mut w,
        Actions {
            jump_pressed: false,
            ..jump
        },
        400,
    );
    let goals: Vec<_> = events
        .iter()
        .filter(|(_, e)| *e == PlayEvent::GoalReached)
        .collect();
    assert_eq!(goals.len(), 1, "{events:?}");
    assert_eq!(w.goal_tick(), Some(goals[0].0));
    assert_eq!(w.play().deaths, 0);
}

fn enemy(kind: AgentKind, size: AgentSize, x: f64, facing: f64) -> LevelAgent {
    LevelAgent {
        kind,
        size,
        spawn: p(x, 0.0),
        facing,
        character: None,
        patrol: None,
    }
}

#[test]
fn walking_into_a_crawler_hurts_and_stomping_it_defeats_it_with_a_bounce() {
    let mut l = floor_level(vec![]);
    l.agents = vec![enemy(AgentKind::Crawler, AgentSize::Small, 6.0, 1.0)];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let events = play(&mut w, mv(1.0, 0.0), 240);
    let hurt = events
        .iter()
        .find(|(_, e)| matches!(e, PlayEvent::Hurt { .. }))
        .expect("touching a crawler from the side hurts");
    assert!(!w.agents()[0].defeated, "{hurt:?}");

    // Dropped onto it from above: a stomp.
    let mut l = floor_level(vec![]);
    l.spawn = p(6.6, 1.0);
    l.agents = vec![enemy(AgentKind::Crawler, AgentSize::Small, 6.0, 1.0)];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let mut stomped = None;
    for _ in 0..120 {
        w.step(&Actions::default());
        if let Some(e) = w
            .play_events()
            .iter()
            .find(|e| matches!(e, PlayEvent::Stomped { .. }))
        {
            stomped = Some(*e);
            break;
        }
    }
    assert_eq!(
        stomped,
        Some(PlayEvent::Stomped {
            agent: 0,
            defeated: true
        })
    );
    assert!(w.agents()[0].defeated);
    assert!(w.hero().vel.y > 0.0, "bounced: {}", w.hero().vel);
    assert_eq!(w.play().health, 3);
}

#[test]
fn the_attack_defeats_a_crawler_before_it_touches_the_hero() {
    let mut l = floor_level(vec![]);
    // A crawler walking left towards the hero, and one far away that the hit-stop holds still.
    l.agents = vec![
        enemy(AgentKind::Crawler, AgentSize::Small, 4.0, -1.0),
        enemy(AgentKind::Crawler, AgentSize::Small, 20.0, -1.0),
    ];
    let t = Tuning::default();
    let mut w = World::new(&l, &t).unwrap();
    // Wait until its left side (x - 0.3) is within the reach (hero's right side 1.4 + 0.9).
    while w.agents()[0].mover.body.pos.x - 0.3 > 1.4 + t.attack_reach - 0.05 {
        play(&mut w, Actions::default(), 1);
        assert!(w.frame() < 600);
    }
    let attack = Actions {
        attack_pressed: true,
        ..Actions::default()
    };
    let events = play(&mut w, attack, 1);
    assert_eq!(
        events.iter().map(|(_, e)| *e).collect::<Vec<_>>(),
        vec![
            PlayEvent::Attacked,
            PlayEvent::EnemyHit {
                agent: 0,
                defeated: true
            }
        ]
    );
    assert!(w.agents()[0].defeated);
    // The hit-stop: the other crawler holds still for its ticks, then walks on.
    let far = w.agents()[1].mover.body.pos;
    let stop = (t.attack_hitstop * 120.0).ceil() as usize;
    play(&mut w, Actions::default(), stop);
    assert_eq!(w.agents()[1].mover.body.pos, far);
    play(&mut w, Actions::default(), 2);
    assert_ne!(w.agents()[1].mover.body.pos, far);
    assert_eq!(w.play().health, 3);
}

/// The hitbox reaches 0.9 m past the hero's side, through a 10 cm wall: the wall protects what
/// is behind it (a solid polygon, or a closed door; an open door does not). The same crawler in
/// the open is hit.
#[test]
fn the_attack_does_not_hit_through_a_wall_or_a_closed_door() {
    use tessera::level::LevelDoor;
    let wall = rect(1.5, 0.0, 1.6, 3.0);
    for (what, polygons, door, hit) in [
        ("in the open", vec![], None, true),
        ("behind a wall", vec![wall.clone()], None, false),
        ("behind a closed door", vec![], Some(false), false),
        ("behind an open door", vec![], Some(true), true),
    ] {
        let mut l = floor_level(polygons);
        if let Some(open) = door {
            l.doors = vec![LevelDoor {
                points: wall.points.clone(),
                open,
                switch: None,
                close_after: None,
                open_on: Vec::new(),
                close_on: Vec::new(),
                toggle_on: Vec::new(),
            }];
        }
        l.agents = vec![enemy(AgentKind::Crawler, AgentSize::Small, 2.0, 1.0)];
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let attack = Actions {
            attack_pressed: true,
            ..Actions::default()
        };
        let events = play(&mut w, attack, 1);
        let hits = events
            .iter()
            .filter(|(_, e)| matches!(e, PlayEvent::EnemyHit { .. }))
            .count();
        assert_eq!(hits, usize::from(hit), "{what}: {events:?}");
    }
}

#[test]
fn one_swing_hits_an_enemy_once_and_the_cooldown_holds_a_second_press() {
    let mut l = floor_level(vec![]);
    // A brute (three hits) whose left side (x - 0.6) is inside the reach at once.
    l.agents = vec![enemy(AgentKind::Brute, AgentSize::Large, 2.8, 1.0)];
    let t = Tuning::default();
    let mut w = World::new(&l, &t).unwrap();
    let attack = Actions {
        attack_pressed: true,
        ..Actions::default()
    };
    let mut events = play(&mut w, attack, 1);
    events.extend(play(&mut w, Actions::default(), 20));
    // A press inside the cooldown does nothing.
    events.extend(play(&mut w, attack, 1));
    let hits: Vec<_> = events
        .iter()
        .filter(|(_, e)| matches!(e, PlayEvent::EnemyHit { .. } | PlayEvent::Attacked))
        .map(|(_, e)| *e)
        .collect();
    assert_eq!(
        hits,
        vec![
            PlayEvent::Attacked,
            PlayEvent::EnemyHit {
                agent: 0,
                defeated: false
            }
        ]
    );
    assert_eq!(w.agents()[0].health, 2);
    // Knocked back, away from the hero.
    assert!(w.agents()[0].mover.body.pos.x > 2.8);
}

#[test]
fn a_hopper_hops_towards_a_hero_it_sees_and_not_through_a_wall() {
    let mut l = floor_level(vec![]);
    l.agents = vec![enemy(AgentKind::Hopper, AgentSize::Medium, 7.0, -1.0)];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    play(&mut w, Actions::default(), 60);
    assert!(
        w.agents()[0].mover.body.pos.x < 6.5,
        "{}",
        w.agents()[0].mover.body.pos
    );
    // A wall between them: it stays.
    let mut l = floor_level(vec![rect(4.0, 0.0, 4.5, 6.0)]);
    l.agents = vec![enemy(AgentKind::Hopper, AgentSize::Medium, 7.0, -1.0)];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    play(&mut w, Actions::default(), 120);
    assert_eq!(w.agents()[0].mover.body.pos.x, 7.0);
}

#[test]
fn a_brute_charges_a_hero_at_its_height_and_is_stunned_by_a_wall() {
    let mut l = floor_level(vec![rect(-2.0, 0.0, -1.0, 5.0)]);
    l.agents = vec![enemy(AgentKind::Brute, AgentSize::Large, 8.0, 1.0)];
    // The hero out of its reach above, on a ledge: it does not charge.
    l.polygons.push(rect(0.0, 2.0, 2.0, 2.5));
    l.spawn = p(1.0, 2.5);
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    play(&mut w, Actions::default(), 30);
    assert!(!w.agents()[0].charging);
    // Under the ledge, where it cannot fit, the hero is out of its sight too (its ray runs on its
    // own mesh).
    l.spawn = p(1.0, 0.0);
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    play(&mut w, Actions::default(), 30);
    assert!(!w.agents()[0].charging);
    // In the open at its height: it turns and charges, through the hero (agents do not collide
    // with it: it is hurt), then into the wall at x = -1, which stuns it.
    l.polygons.pop();
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let mut charged = false;
    let mut stunned = false;
    for _ in 0..400 {
        w.step(&Actions::default());
        charged |= w.agents()[0].charging;
        if charged && !w.agents()[0].charging && w.agents()[0].wait > 60 {
            stunned = true;
            break;
        }
    }
    assert!(charged && stunned);
    assert!(w.play().health < 3);
}

#[test]
fn worlds_with_the_rules_of_play_are_deterministic() {
    let mut l = floor_level(vec![hazard(12.0, 0.0, 13.0, 0.3)]);
    l.checkpoints = vec![region(4.0, 0.0, 5.0, 2.0)];
    l.goal = Some(region(30.0, 0.0, 31.0, 2.0));
    l.agents = vec![
        enemy(AgentKind::Crawler, AgentSize::Small, 8.0, -1.0),
        enemy(AgentKind::Hopper, AgentSize::Medium, 16.0, -1.0),
        enemy(AgentKind::Brute, AgentSize::Large, 24.0, -1.0),
    ];
    let run = || {
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let mut hashes = Vec::new();
        for i in 0..900u32 {
            let a = Actions {
                jump: i % 50 < 20,
                jump_pressed: i % 50 == 0,
                attack_pressed: i % 40 == 7,
                ..mv(1.0, 0.0)
            };
            w.step(&a);
            hashes.push(w.state_hash());
        }
        (hashes, w.play().clone())
    };
    let (a, pa) = run();
    let (b, pb) = run();
    assert_eq!(a, b);
    assert_eq!(pa, pb);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// No damage without overlap: in levels of random hazard triangles and boxes on a lattice
    /// (coordinates multiples of 1/8 m, so that touching is common and exact), with random
    /// inputs, every hazard hit happens in a tick where the hero's collider and a hazard overlap
    /// with positive area, decided independently of the rules' Minkowski test: by separating
    /// axes, exactly ([`interiors_meet`]).
    ///
    /// The first oracle clipped the hazard by the collider's half-planes (Sutherland–Hodgman)
    /// and asked for a positive area. It failed on a case the saved regression replays: the
    /// hero's feet at x = 3.3750000000000004 (one ulp past 3.375, where a walk left them), its
    /// 0.75 m box reaching a hazard that starts at x = 3.75 by 4.4e-16 m. The rules' exact test
    /// calls that an overlap, and it is one; the clipping rounded the crossing points onto
    /// x = 3.75 and found no area. The oracle, not the rule, was wrong.
    #[test]
    fn no_hazard_damage_without_positive_area_overlap(
        shapes in prop::collection::vec((0i32..200, 0i32..24, 1i32..24, 1i32..24, any::<bool>()), 1..10),
        script in prop::collection::vec((-1i32..=1, any::<bool>(), 1usize..40), 1..12),
    ) {
        let q = |v: i32| v as f64 / 8.0;
        let hazards: Vec<LevelPolygon> = shapes
            .iter()
            .map(|&(x, y, w, h, tri)| {
                let (x0, y0) = (q(x) - 2.0, q(y) - 0.5);
                let pts = if tri {
                    vec![p(x0, y0), p(x0 + q(w), y0), p(x0, y0 + q(h))]
                } else {
                    vec![p(x0, y0), p(x0 + q(w), y0), p(x0 + q(w), y0 + q(h)), p(x0, y0 + q(h))]
                };
                LevelPolygon { kind: PolygonKind::Hazard, ..LevelPolygon::solid(pts) }
            })
            .collect();
        let mut l = floor_level(hazards.clone());
        // A dyadic collider, so the independent test is exact.
        l.tuning.stand_collider = Some(tessera::movement::tuning::head_chamfered_box(0.75, 1.75, 0.125));
        l.tuning.crouch_collider = Some(tessera::movement::tuning::head_chamfered_box(0.75, 1.0, 0.125));
        l.tuning.hurt_invulnerability = Some(0.0);
        l.tuning.health = Some(99);
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        for &(x, jump, n) in &script {
            for k in 0..n {
                w.step(&Actions { jump, jump_pressed: jump && k == 0, ..mv(x as f64, 0.0) });
                if w.play_events().iter().any(|e| matches!(e, PlayEvent::Hurt { .. })) {
                    // The rules test the collider in use after the move, at the feet after the
                    // move (before the return to the safe ground, which the event records).
                    let c = w.collision().mesh(w.hero().collider).collider().to_vec();
                    let feet = w
                        .play_events()
                        .iter()
                        .find_map(|e| match e {
                            PlayEvent::Returned { from } => Some(*from),
                            _ => None,
                        })
                        .unwrap_or(w.hero().body.pos);
                    prop_assert!(
                        hazards.iter().any(|h| interiors_meet(&h.points, &c, feet)),
                        "hurt at {feet} with no overlap"
                    );
                }
            }
        }
    }
}

/// Whether the convex `shape` and the convex `collider` with its reference point at `at` (both
/// counter-clockwise) overlap with positive area, exactly: their interiors are disjoint exactly
/// when an edge line of one has every vertex of the other on its outer closed side (separating
/// axes). Each side test is the exact `orient` of `at` against two differences of lattice
/// points, which are exact, so `at` is never rounded into a sum:
/// `orient(c + at, d + at, q) = orient(q - c, q - d, at)` and
/// `orient(q, r, c + at) = orient(q - c, r - c, at)`.
fn interiors_meet(shape: &[DVec2], collider: &[DVec2], at: DVec2) -> bool {
    let (n, m) = (shape.len(), collider.len());
    let shape_edge_separates = (0..n).any(|i| {
        let (q, r) = (shape[i], shape[(i + 1) % n]);
        collider.iter().all(|&c| orient(q - c, r - c, at) <= 0.0)
    });
    let collider_edge_separates = (0..m).any(|j| {
        let (c, d) = (collider[j], collider[(j + 1) % m]);
        shape.iter().all(|&q| orient(q - c, q - d, at) <= 0.0)
    });
    !shape_edge_separates && !collider_edge_separates
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A crawler on a floating platform with walls on it, from a random start, facing either way,
    /// for ten seconds: it is on the ground every tick (it never walks off a ledge) and never
    /// blocked by a wall (it turns before it touches one).
    #[test]
    fn a_crawler_never_falls_off_a_ledge_or_walks_into_a_wall(
        width in 3.0f64..30.0,
        walls in prop::collection::vec((0.0f64..1.0, 0.3f64..2.5, 0.2f64..2.0), 0..3),
        start in 0.05f64..0.95,
        left in any::<bool>(),
    ) {
        let mut polygons = vec![rect(0.0, -1.0, width, 0.0)];
        let mut free = vec![(0.0, width)];
        for &(at, h, w) in &walls {
            let x = at * (width - w);
            polygons.push(rect(x, 0.0, x + w, h));
            free = free
                .into_iter()
                .flat_map(|(a, b): (f64, f64)| [(a, b.min(x)), (a.max(x + w), b)])
                .filter(|(a, b)| b - a > 0.0)
                .collect();
        }
        // Start on the longest free stretch, if the crawler (0.6 m) fits on it.
        let (a, b) = free.iter().copied().fold((0.0, 0.0), |m, f| if f.1 - f.0 > m.1 - m.0 { f } else { m });
        prop_assume!(b - a > 1.0);
        let mut l = level(polygons, vec![], p(-30.0, 0.0));
        l.polygons.push(rect(-35.0, -1.0, -25.0, 0.0));
        l.agents = vec![LevelAgent {
            kind: AgentKind::Crawler,
            size: AgentSize::Small,
            spawn: p(a + 0.3 + start * (b - a - 0.6), 0.0),
            facing: if left { -1.0 } else { 1.0 },
            character: None,
            patrol: None,
        }];
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        for _ in 0..1200 {
            w.step(&Actions::default());
            let c = &w.agents()[0];
            prop_assert!(c.mover.grounded(), "off the ground at {} (tick {})", c.mover.body.pos, w.frame());
            prop_assert!(
                !c.last.events.iter().any(|e| matches!(e, tessera::movement::MoveEvent::Blocked { .. })),
                "walked into a wall at {} (tick {})", c.mover.body.pos, w.frame()
            );
        }
    }

    /// Hoppers chasing the hero over random steps and blocks never end a tick inside solid
    /// geometry, nor does the hero.
    #[test]
    fn hoppers_never_penetrate(
        blocks in prop::collection::vec((0.0f64..30.0, 0.2f64..3.0, 0.5f64..4.0), 0..8),
        hoppers in prop::collection::vec(1.0f64..30.0, 1..4),
        run in -1i32..=1,
    ) {
        let mut polygons = vec![rect(-2.0, -1.0, 34.0, 0.0), rect(-3.0, -1.0, -2.0, 8.0), rect(34.0, -1.0, 35.0, 8.0)];
        for &(x, h, w) in &blocks {
            polygons.push(rect(x, 0.0, x + w, h));
        }
        let mut l = level(polygons, vec![], p(15.0, 6.0));
        l.agents = hoppers
            .iter()
            .map(|&x| LevelAgent { kind: AgentKind::Hopper, size: AgentSize::Medium, spawn: p(x, 5.0), facing: 1.0, character: None, patrol: None })
            .collect();
        let Ok(mut w) = World::new(&l, &Tuning::default()) else { return Ok(()); };
        for k in 0..900 {
            let jump = k % 90 == 0;
            w.step(&Actions { jump, jump_pressed: jump, ..mv(run as f64, 0.0) });
            prop_assert!(w.penetrations().is_empty(), "tick {}: {:?}", w.frame(), w.penetrations());
        }
    }
}

#[test]
fn a_brute_never_enters_a_tunnel_only_a_crouching_hero_fits() {
    // A tunnel 1.2 m high over x = 10..16; the hero crouches in it; a brute at its height charges.
    let mut l = floor_level(vec![rect(10.0, 1.2, 16.0, 5.0)]);
    l.spawn = p(13.0, 0.0);
    l.agents = vec![
        enemy(AgentKind::Brute, AgentSize::Large, 4.0, 1.0),
        enemy(AgentKind::Brute, AgentSize::Large, 22.0, -1.0),
    ];
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    let crouch = Actions {
        crouch: true,
        ..Actions::default()
    };
    // How close each brute's side came to a tunnel mouth.
    let mut closest = [f64::INFINITY; 2];
    for _ in 0..1200 {
        w.step(&crouch);
        for (i, a) in w.agents().iter().enumerate() {
            let x = a.mover.body.pos.x;
            assert!(
                !(10.0 - 0.6 < x && x < 16.0 + 0.6),
                "a brute in the tunnel at {x}"
            );
            closest[i] = closest[i].min((x + 0.6 - 10.0).abs().min((x - 0.6 - 16.0).abs()));
        }
    }
    // Both walked up to a mouth (the patrol turns where the ceiling is too low for it).
    assert!(closest.iter().all(|&d| d < 0.2), "{closest:?}");
}

#[test]
fn a_level_that_resets_on_death_brings_defeated_enemies_back_and_one_that_keeps_does_not() {
    for reset in [false, true] {
        // A crawler below the spawn (stomped at once), a pit beyond the floor's end at x = 20.
        let mut l = level(vec![rect(-2.0, -1.0, 20.0, 0.0)], vec![], p(6.6, 1.0));
        l.bounds = Some(region(-2.0, -6.0, 30.0, 10.0));
        l.agents = vec![enemy(AgentKind::Crawler, AgentSize::Small, 6.0, 1.0)];
        l.reset_on_death = reset;
        let mut w = World::new(&l, &Tuning::default()).unwrap();
        let mut events = Vec::new();
        while !events.iter().any(|(_, e)| *e == PlayEvent::Respawned) {
            let run = if w.agents()[0].defeated { 1.0 } else { 0.0 };
            events.extend(play(&mut w, mv(run, 0.0), 1));
            assert!(w.frame() < 1200, "{events:?}");
        }
        assert!(events
            .iter()
            .any(|(_, e)| matches!(e, PlayEvent::Stomped { defeated: true, .. })));
        assert!(events.iter().any(|(_, e)| *e
            == PlayEvent::Died {
                cause: DeathCause::Pit
            }));
        let a = &w.agents()[0];
        assert_eq!(a.defeated, !reset, "reset_on_death {reset}");
        if reset {
            assert_eq!(a.mover.body.pos, p(6.0, 0.0));
            assert_eq!(a.health, 1);
        }
    }
}

/// The time shown and recorded counts from the level's start or its restart (the world's tick
/// count goes on across a restart) and stops at the goal.
#[test]
fn the_time_played_counts_from_the_start_or_the_restart_to_the_goal() {
    let mut l = floor_level(vec![]);
    l.goal = Some(region(10.0, 0.0, 11.0, 2.0));
    let mut w = World::new(&l, &Tuning::default()).unwrap();
    play(&mut w, Actions::default(), 100);
    assert_eq!(w.play_ticks(), 100);
    w.restart().unwrap();
    assert_eq!(w.play_ticks(), 0);
    let events = play(&mut w, mv(1.0, 0.0), 240);
    let (goal, _) = *events
        .iter()
        .find(|(_, e)| *e == PlayEvent::GoalReached)
        .unwrap();
    assert_eq!(w.play_ticks(), goal + 1 - 100);
    assert!(w.frame() > goal + 1);
}

/// A defeated enemy no longer acts, but its body still falls: a crawler struck dead in mid-air
/// (falling past the hero's ledge) lands on the floor below and stays there, instead of hanging
/// where the blow found it (the view then draws it lying there).
#[test]
fn a_defeated_enemy_falls_to_the_ground_and_lies_there() {
    use tessera::movement::MoveState;
    let mut level = level(
        vec![rect(-10.0, -1.0, 10.0, 0.0), rect(-3.0, 0.0, 0.4, 2.0)],
        vec![],
        p(0.0, 2.0),
    );
    level.agents = vec![crate::common::agent(
        AgentKind::Crawler,
        AgentSize::Small,
        1.0,
        3.0,
        -1.0,
    )];
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let attack = Actions {
        attack_pressed: true,
        ..Actions::default()
    };
    let mut events = play(&mut w, attack, 2);
    events.retain(|(_, e)| matches!(e, PlayEvent::EnemyHit { .. }));
    assert!(
        matches!(
            events[..],
            [(
                _,
                PlayEvent::EnemyHit {
                    agent: 0,
                    defeated: true
                }
            )]
        ),
        "{events:?}"
    );
    let struck = w.agents()[0].mover.body.pos;
    assert!(struck.y > 2.0, "struck in the air at {struck}");
    play(&mut w, Actions::default(), 240);
    let body = &w.agents()[0];
    assert!(body.defeated);
    assert_eq!(
        body.mover.body.pos.y, 0.0,
        "on the floor: {}",
        body.mover.body.pos
    );
    assert!(matches!(body.mover.state, MoveState::Supported { .. }));
    assert_eq!(body.mover.vel, DVec2::ZERO, "at rest");
}
