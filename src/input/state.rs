//! Gathering device events between simulation ticks into action snapshots.
//!
//! Held state is tracked per source (key, or gamepad button of one pad), so releasing one of two
//! keys bound to an action keeps it held. A press latches the action until a consumer takes it:
//! [`InputState::take_tick_actions`] for the simulation (once per tick) and
//! [`InputState::take_ui_actions`] for UI actions (once per frame). Within one tick, an action that
//! was pressed and released again counts as held for that tick, so a tap shorter than a tick still
//! moves, crouches or jumps. Several ticks in one frame: only the first sees the press.
use std::collections::{BTreeMap, BTreeSet};

use glam::DVec2;

use super::action::{Action, UiActions};
use super::bindings::Bindings;
use super::dead_zone::radial_dead_zone;
use super::device::{Key, PadButton};
use crate::movement::Actions;

/// Identifies a connected gamepad (gilrs' id as a number).
pub type PadId = usize;

/// Held and latched input, fed by device events, read once per tick and once per frame.
#[derive(Clone, Debug)]
pub struct InputState {
    bindings: Bindings,
    keys: BTreeSet<Key>,
    buttons: BTreeSet<(PadId, PadButton)>,
    sticks: BTreeMap<PadId, DVec2>,
    pressed_for_tick: [bool; Action::COUNT],
    /// Presses of each action since the last rendered frame (counted: two quick presses of Down
    /// in one slow frame move a menu's highlight twice).
    pressed_for_frame: [u8; Action::COUNT],
    /// Whether the last key or button pressed was a gamepad's (what signs and the controls card
    /// name: [`InputState::pad_last`]).
    pad_last: bool,
}

impl InputState {
    /// An input state with nothing held.
    pub fn new(bindings: Bindings) -> Self {
        InputState {
            bindings,
            keys: BTreeSet::new(),
            buttons: BTreeSet::new(),
            sticks: BTreeMap::new(),
            pressed_for_tick: [false; Action::COUNT],
            pressed_for_frame: [0; Action::COUNT],
            pad_last: false,
        }
    }

    /// The bindings in use.
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }

    /// A key went down (`pressed`) or up. Auto-repeat must be filtered out by the caller.
    pub fn key(&mut self, key: Key, pressed: bool) {
        let actions: Vec<Action> = self.bindings.key_actions(key).collect();
        let before = self.held_mask(&actions);
        if pressed {
            self.pad_last = false;
            self.keys.insert(key);
        } else {
            self.keys.remove(&key);
        }
        self.latch_new_presses(&actions, &before);
    }

    /// A gamepad button went down or up.
    pub fn button(&mut self, pad: PadId, button: PadButton, pressed: bool) {
        let actions: Vec<Action> = self.bindings.button_actions(button).collect();
        let before = self.held_mask(&actions);
        if pressed {
            self.pad_last = true;
            self.buttons.insert((pad, button));
        } else {
            self.buttons.remove(&(pad, button));
        }
        self.latch_new_presses(&actions, &before);
    }

    /// Whether the device used last is a gamepad: the last key or button pressed was a
    /// gamepad's (a stick alone does not count; `false` until a button is pressed). Signs and
    /// the controls card name the keys or the buttons by it.
    pub fn pad_last(&self) -> bool {
        self.pad_last
    }

    /// A pad's raw left stick position (x right, y up, each in `[-1, 1]`).
    pub fn stick(&mut self, pad: PadId, raw: DVec2) {
        self.sticks.insert(pad, raw);
    }

    /// A pad was unplugged: everything it held is released.
    pub fn pad_disconnected(&mut self, pad: PadId) {
        self.buttons.retain(|(p, _)| *p != pad);
        self.sticks.remove(&pad);
    }

    /// Replaces the bindings (chosen in the pause menu); everything held is released.
    pub fn set_bindings(&mut self, bindings: Bindings) {
        self.bindings = bindings;
        self.release_all();
    }

    /// Releases everything held (on focus loss, so no key stays stuck); latched presses stay.
    pub fn release_all(&mut self) {
        self.keys.clear();
        self.buttons.clear();
        self.sticks.clear();
    }

    /// Whether any key or button bound to `a` is down now.
    pub fn held(&self, a: Action) -> bool {
        let keys = self.bindings.keyboard.get(&a);
        let pads = self.bindings.gamepad.get(&a);
        keys.is_some_and(|ks| ks.iter().any(|k| self.keys.contains(k)))
            || pads.is_some_and(|bs| self.buttons.iter().any(|(_, b)| bs.contains(b)))
    }

    /// The snapshot for one simulation tick; clears the tick latches.
    pub fn take_tick_actions(&mut self) -> Actions {
        let on = |s: &Self, a: Action| s.held(a) || s.pressed_for_tick[a.index()];
        let digital = |s: &Self, neg: Action, pos: Action| {
            on(s, pos) as i32 as f64 - on(s, neg) as i32 as f64
        };
        let stick = self.stick_vector();
        let axis = DVec2::new(
            digital(self, Action::Left, Action::Right) + stick.x,
            digital(self, Action::Down, Action::Up) + stick.y,
        )
        .clamp(DVec2::splat(-1.0), DVec2::splat(1.0));
        let actions = Actions {
            move_axis: axis,
            jump: on(self, Action::Jump),
            jump_pressed: self.pressed_for_tick[Action::Jump.index()],
            crouch: on(self, Action::Crouch),
            attack_pressed: self.pressed_for_tick[Action::Attack.index()],
        };
        self.pressed_for_tick = [false; Action::COUNT];
        actions
    }

    /// UI actions pressed since the last call (once per rendered frame); clears the frame latches.
    pub fn take_ui_actions(&mut self) -> UiActions {
        let p = std::mem::take(&mut self.pressed_for_frame);
        let once = |a: Action| p[a.index()] > 0;
        UiActions {
            pause: once(Action::Pause),
            toggle_editor: once(Action::ToggleEditor),
            toggle_debug: once(Action::ToggleDebug),
            fullscreen: once(Action::Fullscreen),
            up: p[Action::Up.index()],
            down: p[Action::Down.index()],
            accept: once(Action::Jump),
        }
    }

    /// The sum of all pads' sticks after the radial dead zone, clamped to length 1.
    fn stick_vector(&self) -> DVec2 {
        let (dz, full) = (self.bindings.stick_dead_zone, self.bindings.stick_full);
        let sum: DVec2 = self
            .sticks
            .values()
            .map(|&v| radial_dead_zone(v, dz, full))
            .sum();
        sum.clamp_length_max(1.0)
    }

    fn held_mask(&self, actions: &[Action]) -> Vec<bool> {
        actions.iter().map(|&a| self.held(a)).collect()
    }

    fn latch_new_presses(&mut self, actions: &[Action], before: &[bool]) {
        for (&a, &was) in actions.iter().zip(before) {
            if !was && self.held(a) {
                self.pressed_for_tick[a.index()] = true;
                let n = &mut self.pressed_for_frame[a.index()];
                *n = n.saturating_add(1);
            }
        }
    }
}
