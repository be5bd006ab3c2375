//! Agents drawn with characters (`view::Cast`, the level's `agents: [(character: ...)]`): each
//! character file is loaded once however many agents name it, each agent is animated from its own
//! state as the hero is, and a character that does not load is refused by `check` and `play` with
//! one line naming the level, the agent and the file. (The golden image of `levels/test/cast.ron`
//! is `render_golden::agents_are_drawn_with_their_characters`.)
use std::path::{Path, PathBuf};

use tessera::anim::HeroClip;
use tessera::app::{load_game, GameLoadError, GameOptions};
use tessera::level::{load_level, DataDir};
use tessera::movement::{Actions, Tuning};
use tessera::sim::World;
use tessera::view::{CameraConfig, Cast, View};

use crate::common::{succeeds, tessera_command};

const LEVEL: &str = "levels/test/cast.ron";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn data() -> DataDir {
    DataDir::at(root())
}

fn world(path: &Path) -> World {
    World::new(&load_level(path).unwrap(), &Tuning::default()).unwrap()
}

#[test]
fn each_character_file_is_loaded_once_and_each_agent_animated_from_its_own_state() {
    let path = root().join(LEVEL);
    let mut w = world(&path);
    let cast = Cast::load(&w, &path, &data()).unwrap();
    // Five agents, four with a character, three files: the two small agents share one.
    assert_eq!(cast.members().count(), 4);
    assert_eq!(cast.files().count(), 3);
    assert!(
        !cast.has(4),
        "the large agent has no character: drawn as its outline"
    );
    let small: Vec<usize> = cast
        .members()
        .filter(|&(i, _)| i == 1 || i == 2)
        .map(|(_, m)| m.model)
        .collect();
    assert_eq!(small[0], small[1], "one model for the two small agents");
    let models: Vec<f32> = cast.models().map(|m| m.mesh.positions[0][1]).collect();
    assert_eq!(models.len(), 3);

    let mut view = View::new(&w, CameraConfig::default(), 16.0 / 9.0);
    view.set_cast(cast);
    for _ in 0..90 {
        w.step(&Actions::default());
        view.after_tick(&w);
    }
    let clip = |i: usize| {
        view.cast()
            .members()
            .find(|&(j, _)| j == i)
            .map(|(_, m)| m.animator.clip())
            .unwrap()
    };
    // The patrols walk, the idle agents stand (the hero, given no input, stands too).
    assert!(
        matches!(clip(0), HeroClip::Walk | HeroClip::Run),
        "{:?}",
        clip(0)
    );
    assert!(
        matches!(clip(2), HeroClip::Walk | HeroClip::Run),
        "{:?}",
        clip(2)
    );
    assert_eq!(clip(1), HeroClip::Idle);
    assert_eq!(clip(3), HeroClip::Idle);
    assert_eq!(view.hero().clip(), HeroClip::Idle);
    // Drawn where the agent is, blended between its last two ticks.
    let (_, patrol) = view.cast().members().next().unwrap();
    let now = w.agents()[0].mover.body.pos;
    assert_eq!(patrol.drawn_at(1.0), now);
    assert!(patrol.drawn_at(0.0).x > now.x, "it walks left: {now:?}");
}

/// The cast level with agent 1's character replaced by `character`, in a temporary folder.
fn level_naming(character: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-cast-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    let text = std::fs::read_to_string(root().join(LEVEL))
        .unwrap()
        .replace(
            "\"assets/characters/hero_small.ron\"),\n        (kind: patrol",
            &format!("\"{character}\"),\n        (kind: patrol"),
        )
        .replace("\"assets/", &format!("\"{}/assets/", root().display()));
    let path = dir.join("levels/cast.ron");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_character_that_does_not_load_is_refused_by_check_and_play_in_one_line() {
    let level = level_naming("no_such_character.ron", "missing");
    let missing = level.parent().unwrap().join("no_such_character.ron");
    // The library: the level, the agent and the file, in one line.
    let e = Cast::load(&world(&level), &level, &data())
        .unwrap_err()
        .to_string();
    for part in [
        level.display().to_string(),
        "agents[1]".to_string(),
        missing.display().to_string(),
    ] {
        assert!(e.contains(&part), "{part:?} missing from: {e}");
    }
    assert!(!e.contains('\n'), "{e}");

    // `tessera check`: exit 1, one error line.
    let out = tessera_command().arg("check").arg(&level).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("agents[1]"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    // The play path, before any window opens.
    let opts = GameOptions {
        level: Some(level.clone()),
        data_dir: Some(root()),
        ..GameOptions::default()
    };
    match load_game(&opts) {
        Err(e @ GameLoadError::Cast(_)) => assert!(e.to_string().contains("agents[1]"), "{e}"),
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("a level naming a missing character file was played"),
    }

    // A character whose model lacks a leg joint it maps is refused the same way.
    let bad = level.parent().unwrap().join("bad_joints.ron");
    std::fs::write(
        &bad,
        format!(
            "(model: \"{}/assets/hero.glb\", joints: {{ \"foot.L\": \"Claw\" }})",
            root().display()
        ),
    )
    .unwrap();
    let level2 = level_naming("bad_joints.ron", "missing");
    let e = Cast::load(&world(&level2), &level2, &data())
        .unwrap_err()
        .to_string();
    assert!(e.contains("agents[1]") && e.contains("Claw"), "{e}");
    let _ = std::fs::remove_dir_all(level.parent().unwrap().parent().unwrap());
}

#[test]
fn the_shipped_level_files_name_characters_that_check() {
    let stdout = succeeds(tessera_command().args(["check", LEVEL]));
    assert!(
        stdout.contains("5 agents (4 drawn with 3 character files)"),
        "{stdout}"
    );
}

/// A world of one floor with a hopper (drawn with its character, two hits to defeat) facing the
/// hero within the reach of its attack, and its cast.
fn hopper_in_reach() -> (World, Cast) {
    use tessera::level::{AgentKind, AgentSize};
    let mut level = crate::common::level(
        vec![crate::common::rect(-10.0, -1.0, 10.0, 0.0)],
        vec![],
        crate::common::p(0.0, 0.0),
    );
    let mut hopper = crate::common::agent(AgentKind::Hopper, AgentSize::Medium, 1.1, 0.0, -1.0);
    hopper.character = Some("assets/characters/hopper.ron".into());
    level.agents = vec![hopper];
    let w = World::new(&level, &Tuning::default()).unwrap();
    let cast = Cast::load(&w, &root().join("levels/test/hopper.ron"), &data()).unwrap();
    (w, cast)
}

/// An enemy the hero's attack hits flashes: its drawn tint goes to the hit flash's on the tick of
/// the hit and back to its character's over `HIT_FLASH_TICKS` ticks (a hopper takes two hits, so
/// it is still drawn).
#[test]
fn an_enemy_hit_by_the_attack_flashes_and_fades_back() {
    use tessera::sim::PlayEvent;
    use tessera::view::cast::{HIT_FLASH_TICKS, HIT_FLASH_TINT};
    let (mut w, mut cast) = hopper_in_reach();
    let tint = |c: &Cast| c.members().next().unwrap().1.drawn_tint();
    let base = tint(&cast);
    let attack = Actions {
        attack_pressed: true,
        ..Actions::default()
    };
    let mut hit = false;
    for _ in 0..30 {
        w.step(&attack);
        cast.after_tick(&w);
        if w.play_events()
            .iter()
            .any(|e| matches!(e, PlayEvent::EnemyHit { agent: 0, .. }))
        {
            hit = true;
            break;
        }
    }
    assert!(hit, "the attack never hit the hopper");
    assert_eq!(tint(&cast), HIT_FLASH_TINT);
    for _ in 0..HIT_FLASH_TICKS / 2 {
        w.step(&Actions::default());
        cast.after_tick(&w);
    }
    let half = tint(&cast);
    assert!(half != base && half != HIT_FLASH_TINT, "{half:?}");
    for _ in 0..HIT_FLASH_TICKS {
        w.step(&Actions::default());
        cast.after_tick(&w);
    }
    assert_eq!(tint(&cast), base);
}

/// The game's clips on an enemy: a hopper (two hits) plays `hurt` over its body when the first
/// hit lands and `death` when the second defeats it; its body then stays drawn for
/// `DEFEATED_SHOWN_TICKS`, blinking for the last `DEFEATED_BLINK_TICKS`, and is gone after.
#[test]
fn a_struck_enemy_plays_hurt_then_death_and_its_body_blinks_out() {
    use tessera::sim::PlayEvent;
    use tessera::view::{DEFEATED_BLINK_TICKS, DEFEATED_SHOWN_TICKS};
    let (mut w, mut cast) = hopper_in_reach();
    let member = |c: &Cast| c.members().next().unwrap().1.clone();
    let attack = Actions {
        attack_pressed: true,
        ..Actions::default()
    };
    let mut hits = Vec::new();
    for tick in 0..240 {
        // Press on every other tick: each press after the cooldown swings again.
        let idle = Actions::default();
        w.step(if tick % 2 == 0 { &attack } else { &idle });
        cast.after_tick(&w);
        for e in w.play_events() {
            if let PlayEvent::EnemyHit { defeated, .. } = e {
                hits.push(*defeated);
                let m = member(&cast);
                if *defeated {
                    assert_eq!(m.animator.clip(), HeroClip::Death);
                    assert_eq!(m.animator.layer(), None);
                } else {
                    assert_eq!(m.animator.layer(), Some(HeroClip::Hurt));
                }
            }
        }
        if hits.last() == Some(&true) {
            break;
        }
    }
    assert_eq!(hits, [false, true], "two hits, the second defeats it");
    let mut shown = Vec::new();
    for _ in 0..DEFEATED_SHOWN_TICKS + 10 {
        shown.push(member(&cast).shown());
        w.step(&Actions::default());
        cast.after_tick(&w);
    }
    let solid = (DEFEATED_SHOWN_TICKS - DEFEATED_BLINK_TICKS - 1) as usize;
    assert!(shown[..solid].iter().all(|&s| s), "lying still, drawn");
    let blink = &shown[solid + 1..DEFEATED_SHOWN_TICKS as usize - 1];
    assert!(
        blink.iter().any(|&s| s) && blink.iter().any(|&s| !s),
        "blinking"
    );
    assert!(
        shown[DEFEATED_SHOWN_TICKS as usize..].iter().all(|&s| !s),
        "gone"
    );
    assert_eq!(member(&cast).animator.clip(), HeroClip::Death, "held");
}
