//! The game's frame logic fed with synthetic input and frame durations (no window): presses
//! between ticks reach the simulation, pause stops it, replays drive it, focus loss pauses.
use std::time::Duration;

use glam::DVec2;
use tessera::app::{AppMode, Game, ModeEvent};
use tessera::input::{Bindings, InputState, Key};
use tessera::level::{Level, LevelPolygon};
use tessera::movement::{Actions, MoveEvent, Tuning};
use tessera::sim::{Replay, World, TICK_HZ};

const ASPECT: f64 = 16.0 / 9.0;

fn flat() -> Level {
    Level {
        polygons: vec![LevelPolygon::solid(vec![
            DVec2::new(-50.0, -2.0),
            DVec2::new(50.0, -2.0),
            DVec2::new(50.0, 0.0),
            DVec2::new(-50.0, 0.0),
        ])],
        spawn: DVec2::new(0.0, 0.0),
        ..Level::empty("flat")
    }
}

fn game(replay: Option<Vec<Actions>>) -> Game {
    let world = World::new(&flat(), &Tuning::default()).unwrap();
    let replay = replay.map(|r| Replay::from_actions(&r));
    Game::new(
        world,
        InputState::new(Bindings::default()),
        replay.as_ref(),
        true,
        ASPECT,
        tessera::anim::HeroAnimator::builtin(),
    )
}

fn ms(v: f64) -> Duration {
    Duration::from_nanos((v * 1e6).round() as u64)
}

#[test]
fn a_jump_tapped_during_a_frame_without_a_tick_happens_on_the_next_tick() {
    let mut g = game(None);
    assert_eq!(g.frame(ms(0.0), ASPECT).steps, 0);
    // A 240 Hz display: 4.17 ms frames, a tick every other frame.
    g.input_mut().key(Key::Space, true);
    g.input_mut().key(Key::Space, false);
    assert_eq!(g.frame(ms(4.0), ASPECT).steps, 0);
    assert_eq!(g.world().frame(), 0);
    assert_eq!(g.frame(ms(4.5), ASPECT).steps, 1);
    assert!(
        g.world().last_report().events.contains(&MoveEvent::Jumped),
        "{:?}",
        g.world().last_report()
    );
    assert!(g.recorded().unwrap()[0].jump_pressed);
}

#[test]
fn a_slow_frame_runs_several_ticks_and_only_the_first_sees_the_press() {
    let mut g = game(None);
    g.input_mut().key(Key::KeyK, true);
    let r = g.frame(Duration::from_secs_f64(3.5 / TICK_HZ as f64), ASPECT);
    assert_eq!(r.steps, 3);
    assert!((r.alpha - 0.5).abs() < 1e-6);
    let rec = g.recorded().unwrap();
    assert_eq!(
        rec.iter().map(|a| a.jump_pressed).collect::<Vec<_>>(),
        vec![true, false, false]
    );
    assert!(rec.iter().all(|a| a.jump));
}

#[test]
fn pause_stops_ticks_and_resuming_does_not_catch_up_the_pause() {
    let mut g = game(None);
    g.input_mut().key(Key::Escape, true);
    g.input_mut().key(Key::Escape, false);
    let r = g.frame(ms(100.0), ASPECT);
    assert_eq!(r.steps, 0);
    assert!(g.paused());
    // The press that paused is not also the pause menu's back (which would resume at once).
    assert!(!r.nav.back);
    assert_eq!(g.frame(ms(1000.0), ASPECT).steps, 0);
    // In the pause menu the pause key is the menu's back (the menu resumes or closes its
    // settings): the game only reports it.
    g.input_mut().key(Key::KeyP, true);
    let r = g.frame(ms(10.0), ASPECT);
    assert!(r.nav.back && r.steps == 0 && g.paused());
    g.change_mode(ModeEvent::Play);
    assert_eq!(g.frame(ms(10.0), ASPECT).steps, 1);
    assert!(!g.paused());
}

#[test]
fn the_pause_key_neither_pauses_nor_runs_a_campaign_screen() {
    let mut g = game(None);
    g.change_mode(ModeEvent::ShowTitle);
    g.input_mut().key(Key::Escape, true);
    g.input_mut().key(Key::Escape, false);
    assert_eq!(g.frame(ms(100.0), ASPECT).steps, 0);
    assert_eq!(g.mode(), AppMode::Title);
    assert_eq!(g.world().frame(), 0);
}

#[test]
fn a_jump_pressed_in_the_pause_menu_does_not_jump_on_resume() {
    let mut g = game(None);
    g.change_mode(ModeEvent::Pause);
    // Jump activates the menu's "Resume": the press must not reach the first tick.
    g.input_mut().key(Key::Space, true);
    g.input_mut().key(Key::Space, false);
    assert!(g.frame(ms(10.0), ASPECT).nav.accept);
    g.change_mode(ModeEvent::Play);
    g.frame(ms(20.0), ASPECT);
    assert!(g.recorded().unwrap().iter().all(|a| !a.jump_pressed));
    assert!(!g.world().last_report().events.contains(&MoveEvent::Jumped));
}

#[test]
fn the_editor_pauses_steps_one_tick_at_a_time_and_resumes_on_close() {
    let mut g = game(None);
    g.change_mode(ModeEvent::OpenEditor);
    assert!(g.editing() && g.paused());
    assert_eq!(g.frame(ms(100.0), ASPECT).steps, 0);
    // Escape belongs to the editor while it is open: it does not unpause.
    g.input_mut().key(Key::Escape, true);
    g.input_mut().key(Key::Escape, false);
    g.frame(ms(10.0), ASPECT);
    assert!(g.paused());
    g.step_once();
    assert_eq!(g.world().frame(), 1);
    g.change_mode(ModeEvent::CloseEditor);
    assert!(!g.paused());
    assert_eq!(g.frame(ms(10.0), ASPECT).steps, 1);
}

#[test]
fn focus_loss_pauses_and_releases_keys_and_focus_gain_resumes() {
    let mut g = game(None);
    g.focus_changed(true);
    g.input_mut().key(Key::KeyD, true);
    g.frame(ms(100.0), ASPECT);
    g.focus_changed(false);
    assert_eq!(g.frame(ms(100.0), ASPECT).steps, 0);
    assert!(g.paused());
    g.focus_changed(true);
    assert!(!g.paused());
    g.frame(ms(50.0), ASPECT);
    assert_eq!(
        g.recorded().unwrap().last().unwrap().move_axis,
        DVec2::ZERO,
        "the key held before focus loss is released"
    );
}

#[test]
fn a_window_that_never_had_focus_is_not_paused_by_a_focus_loss_report() {
    let mut g = game(None);
    g.focus_changed(false);
    assert!(!g.paused());
    assert_eq!(g.frame(ms(50.0), ASPECT).steps, 6);
}

#[test]
fn a_replay_drives_the_first_ticks_then_live_input_takes_over() {
    let right = Actions {
        move_axis: DVec2::new(1.0, 0.0),
        ..Default::default()
    };
    let mut g = game(Some(vec![right; 12]));
    g.input_mut().key(Key::KeyA, true);
    // Two frames of exactly 6 ticks (the catch-up cap is 8 per frame).
    g.frame(ms(50.0), ASPECT);
    assert!(!g.replay_finished());
    g.frame(ms(50.0), ASPECT);
    assert!(g.replay_finished());
    assert!(
        g.world().hero().vel.x > 0.0,
        "the replay moved right despite live input left"
    );
    g.frame(ms(50.0), ASPECT);
    let rec = g.recorded().unwrap();
    assert_eq!(rec.len(), 18);
    assert_eq!(rec.last().unwrap().move_axis.x, -1.0);
    // A replay is not paused by focus loss.
    let mut g = game(Some(vec![right; 12]));
    g.focus_changed(true);
    g.focus_changed(false);
    assert!(!g.paused());
}

#[test]
fn the_debug_overlay_toggles_with_its_key() {
    let mut g = game(None);
    assert!(!g.overlay());
    g.input_mut().key(Key::F3, true);
    g.frame(ms(1.0), ASPECT);
    assert!(g.overlay());
    g.input_mut().key(Key::F3, false);
    g.input_mut().key(Key::F3, true);
    g.frame(ms(1.0), ASPECT);
    assert!(!g.overlay());
}

#[test]
fn the_camera_follows_the_hero_running_right() {
    let mut g = game(None);
    let start = g.view().camera().focus();
    g.input_mut().key(Key::ArrowRight, true);
    for _ in 0..120 {
        g.frame(ms(1000.0 / 60.0), ASPECT);
    }
    let hero = g.world().hero().body.pos;
    let focus = g.view().camera().focus();
    assert!(hero.x > 10.0, "{hero}");
    assert!(focus.x > start.x + 8.0, "{focus}");
    assert!(
        focus.x > hero.x - 1.5,
        "the look-ahead keeps the view ahead of a running hero: {focus} vs {hero}"
    );
}

#[test]
fn frame_events_hold_every_tick_of_the_frame_with_its_tick_number() {
    let mut g = game(None);
    g.input_mut().key(Key::Space, true);
    // A slow frame: the jump happens on its first tick, not its last.
    let r = g.frame(Duration::from_secs_f64(3.5 / TICK_HZ as f64), ASPECT);
    assert_eq!(r.steps, 3);
    assert!(!g.world().last_report().events.contains(&MoveEvent::Jumped));
    assert_eq!(g.frame_events(), &[(1, MoveEvent::Jumped)]);
    // The next frame starts empty; a frame with no tick has no events.
    g.input_mut().key(Key::Space, false);
    g.frame(ms(1.0), ASPECT);
    assert!(g.frame_events().is_empty(), "{:?}", g.frame_events());
}
