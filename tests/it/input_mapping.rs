//! The mapping from synthetic key and gamepad events to per-tick action snapshots: no window, no
//! gamepad, just the `InputState` that the window and gilrs feed.
use glam::DVec2;
use tessera::input::{Action, Bindings, InputState, Key, PadButton, UiActions};
use tessera::movement::Actions;

fn input() -> InputState {
    InputState::new(Bindings::default())
}

#[test]
fn wasd_and_arrows_drive_the_movement_axis() {
    let mut i = input();
    i.key(Key::KeyD, true);
    assert_eq!(i.take_tick_actions().move_axis, DVec2::new(1.0, 0.0));
    i.key(Key::KeyD, false);
    i.key(Key::ArrowLeft, true);
    i.key(Key::ArrowUp, true);
    assert_eq!(i.take_tick_actions().move_axis, DVec2::new(-1.0, 1.0));
    i.key(Key::ArrowUp, false);
    i.key(Key::KeyS, true);
    assert_eq!(
        i.take_tick_actions().move_axis,
        DVec2::new(-1.0, -1.0),
        "down is climb down / axis y -1"
    );
}

#[test]
fn opposite_directions_cancel() {
    let mut i = input();
    i.key(Key::KeyA, true);
    i.key(Key::KeyD, true);
    assert_eq!(i.take_tick_actions().move_axis, DVec2::ZERO);
}

#[test]
fn a_held_jump_is_pressed_on_the_first_tick_only() {
    let mut i = input();
    i.key(Key::Space, true);
    let first = i.take_tick_actions();
    assert!(first.jump && first.jump_pressed);
    let second = i.take_tick_actions();
    assert!(second.jump && !second.jump_pressed);
    i.key(Key::Space, false);
    assert_eq!(i.take_tick_actions(), Actions::default());
}

#[test]
fn a_press_shorter_than_a_tick_is_not_lost() {
    let mut i = input();
    // Down and up again between two ticks (e.g. within one 8 ms tick).
    i.key(Key::Space, true);
    i.key(Key::Space, false);
    let tick = i.take_tick_actions();
    assert!(tick.jump_pressed, "the press reaches the tick");
    assert!(tick.jump, "and counts as held for that one tick");
    assert_eq!(
        i.take_tick_actions(),
        Actions::default(),
        "and only that tick"
    );
    // The same for a direction tap and crouch.
    i.key(Key::ArrowRight, true);
    i.key(Key::ArrowRight, false);
    i.key(Key::KeyC, true);
    i.key(Key::KeyC, false);
    let tick = i.take_tick_actions();
    assert_eq!(tick.move_axis, DVec2::new(1.0, 0.0));
    assert!(tick.crouch);
    assert_eq!(i.take_tick_actions(), Actions::default());
}

#[test]
fn a_press_gathered_over_frames_without_a_tick_waits_for_the_next_tick() {
    let mut i = input();
    i.key(Key::KeyK, true);
    // Several rendered frames pass without a tick (e.g. a 240 Hz display): nothing consumes it.
    // (Jump is also the menus' accept, reported to the first frame only.)
    let ui: Vec<UiActions> = (0..3).map(|_| i.take_ui_actions()).collect();
    assert!(ui[0].accept, "{ui:?}");
    assert!(ui[1..].iter().all(|u| *u == UiActions::default()), "{ui:?}");
    i.key(Key::KeyK, false);
    assert!(i.take_tick_actions().jump_pressed);
}

#[test]
fn releasing_one_of_two_keys_bound_to_an_action_keeps_it_held() {
    let mut i = input();
    i.key(Key::ArrowLeft, true);
    i.key(Key::KeyA, true);
    i.key(Key::ArrowLeft, false);
    assert!(i.held(Action::Left));
    assert_eq!(i.take_tick_actions().move_axis.x, -1.0);
    // Pressing the second key while the first is held is not a new press.
    i.key(Key::Space, true);
    i.take_tick_actions();
    i.key(Key::KeyK, true);
    assert!(!i.take_tick_actions().jump_pressed);
}

#[test]
fn ui_actions_come_once_per_frame_and_do_not_reach_the_simulation() {
    let mut i = input();
    i.key(Key::Escape, true);
    i.key(Key::F3, true);
    i.key(Key::F3, false);
    i.key(Key::F11, true);
    i.key(Key::Tab, true);
    assert_eq!(
        i.take_ui_actions(),
        UiActions {
            pause: true,
            toggle_editor: true,
            toggle_debug: true,
            fullscreen: true,
            up: 0,
            down: 0,
            accept: false,
        }
    );
    // Menus move with Up and Down and activate with Jump, from any bound key or button.
    i.key(Key::ArrowDown, true);
    i.key(Key::Space, true);
    i.key(Key::ArrowDown, false);
    i.key(Key::Space, false);
    let ui = i.take_ui_actions();
    assert!(ui.down == 1 && ui.accept && ui.up == 0, "{ui:?}");
    i.take_tick_actions();
    assert_eq!(i.take_ui_actions(), UiActions::default());
    assert_eq!(i.take_tick_actions(), Actions::default());
}

/// Two presses of a menu key within one slow frame move the highlight twice: at 2117e57 the
/// frame's presses were flags, so the campaign's window test saw two Downs move it once and a
/// pause menu open the editor instead of the title.
#[test]
fn menu_presses_within_one_frame_are_counted() {
    let mut i = input();
    for _ in 0..2 {
        i.key(Key::ArrowDown, true);
        i.key(Key::ArrowDown, false);
    }
    i.key(Key::ArrowUp, true);
    // Held, not pressed again: one press.
    i.key(Key::ArrowUp, true);
    let ui = i.take_ui_actions();
    assert_eq!((ui.down, ui.up), (2, 1), "{ui:?}");
    assert_eq!(i.take_ui_actions(), UiActions::default());
}

#[test]
fn focus_loss_releases_held_keys_but_keeps_a_press_not_yet_ticked() {
    let mut i = input();
    i.key(Key::KeyD, true);
    i.key(Key::Space, true);
    i.release_all();
    let tick = i.take_tick_actions();
    assert!(tick.jump_pressed);
    assert_eq!(
        i.take_tick_actions(),
        Actions::default(),
        "nothing stays stuck"
    );
}

#[test]
fn the_gamepad_stick_uses_a_radial_dead_zone_and_adds_to_the_dpad_and_keys() {
    let mut i = input();
    i.stick(0, DVec2::new(0.1, 0.1));
    assert_eq!(
        i.take_tick_actions().move_axis,
        DVec2::ZERO,
        "inside the dead zone"
    );
    i.stick(0, DVec2::new(0.9, 0.0));
    assert_eq!(
        i.take_tick_actions().move_axis,
        DVec2::new(1.0, 0.0),
        "full deflection"
    );
    i.stick(0, DVec2::new(0.55, 0.0));
    let x = i.take_tick_actions().move_axis.x;
    assert!((x - 0.5).abs() < 1e-9, "halfway between 0.2 and 0.9: {x}");
    i.stick(0, DVec2::ZERO);
    i.button(0, PadButton::DPadLeft, true);
    i.key(Key::KeyA, true);
    assert_eq!(
        i.take_tick_actions().move_axis,
        DVec2::new(-1.0, 0.0),
        "clamped to [-1, 1]"
    );
}

#[test]
fn face_buttons_jump_and_crouch_and_a_tap_between_ticks_counts() {
    let mut i = input();
    i.button(3, PadButton::South, true);
    i.button(3, PadButton::South, false);
    i.button(3, PadButton::East, true);
    let tick = i.take_tick_actions();
    assert!(tick.jump_pressed && tick.crouch);
    assert!(!i.take_tick_actions().jump);
}

#[test]
fn unplugging_a_pad_releases_what_it_held() {
    let mut i = input();
    i.button(1, PadButton::DPadRight, true);
    i.stick(2, DVec2::new(0.0, 1.0));
    i.take_tick_actions();
    i.pad_disconnected(1);
    assert_eq!(i.take_tick_actions().move_axis, DVec2::new(0.0, 1.0));
    i.pad_disconnected(2);
    assert_eq!(i.take_tick_actions(), Actions::default());
}

#[test]
fn custom_bindings_replace_the_defaults() {
    let mut b = Bindings::default();
    b.keyboard.insert(Action::Jump, vec![Key::KeyZ]);
    let mut i = InputState::new(b);
    i.key(Key::Space, true);
    assert!(!i.take_tick_actions().jump, "space is no longer jump");
    i.key(Key::KeyZ, true);
    assert!(i.take_tick_actions().jump_pressed);
}
