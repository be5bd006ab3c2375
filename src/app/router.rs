//! The one owner of keyboard input: every key press is routed to exactly one receiver.
//!
//! Before this router, the window gave every key to egui first while the editor or the pause menu
//! was open and passed a key to the game only when egui had not consumed it; egui took Tab for
//! focus navigation (so Tab could not close the editor) and Space and Enter activated whatever
//! button had keyboard focus (a Space meant as a jump saved the level). Now egui receives key
//! events only while a text field is being edited, so keyboard focus the user did not see can
//! never press a button; everything else is decided here, in a fixed order:
//!
//! 1. A text field is being edited (`egui::Context::text_edit_focused` after the last UI pass):
//!    the key is typing, [`Route::TextField`].
//! 2. The pause menu waits for a key to bind: [`Route::Bind`].
//! 3. The app's own keys, whatever the mode: the keys bound to [`Action::ToggleEditor`] (Tab),
//!    [`Action::ToggleDebug`] (F3) and [`Action::Fullscreen`] (F11) go to the game's input state,
//!    which turns them into UI actions ([`Route::Game`]).
//! 4. By the game's mode ([`AppMode`], read, never derived here), never two receivers for one
//!    key:
//!    - [`AppMode::Playing`]: the game's input state (movement, jump, pause).
//!    - A menu ([`AppMode::menu`]: paused, title, level complete): the game's input state too
//!      (the menu moves with Up and Down and activates with Jump, and Escape resumes), plus
//!      Enter, which activates the highlighted item ([`Route::MenuAccept`]).
//!    - [`AppMode::Editing`] (the editor, simulation paused): editor shortcuts
//!      ([`editor_shortcut`]); other keys are ignored, so they cannot move the hero behind the
//!      editor.
//!    - [`AppMode::PlayTesting`] (the editor with the simulation running): chords with Ctrl and
//!      Escape are editor shortcuts; Ctrl and Alt themselves reach nobody (so Ctrl+Z does not
//!      crouch the hero); every other key drives the hero.
//!
//! Key releases are not routed: they always reach the game's input state (releasing a key it
//! does not hold does nothing, and a key released while a text field has focus must not stay
//! held), and egui as well while a text field is being edited.
//!
//! Game keys are physical (W3C codes: WASD stays in place on any layout); editor shortcuts are
//! matched on the logical key where the window knows it (Ctrl+Z is the key labelled Z), falling
//! back to the physical one.
//!
//! # Must never depend on
//! winit or egui: the window translates its events into [`KeyPress`] and asks [`route`]; the
//! unit tests below cover every mode and key class without a window.
use super::mode::AppMode;
use crate::editor::kinds::{ladder::Ladders, ObjectKind};
use crate::editor::{Shortcut, Tool};
use crate::input::{Action, Bindings, Key};

/// Modifier keys held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// Control (Command on macOS).
    pub ctrl: bool,
    /// Shift.
    pub shift: bool,
    /// Alt.
    pub alt: bool,
}

impl Mods {
    /// Only Control held.
    pub const CTRL: Mods = Mods {
        ctrl: true,
        shift: false,
        alt: false,
    };
}

/// One key press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyPress {
    /// The physical key (what game bindings name).
    pub key: Key,
    /// The key the layout puts there, when it is one of ours (for editor shortcuts).
    pub logical: Option<Key>,
    /// Modifiers held with it.
    pub mods: Mods,
}

impl KeyPress {
    /// A press of `key` with no modifiers (the logical key equals the physical one).
    pub fn plain(key: Key) -> Self {
        KeyPress {
            key,
            logical: None,
            mods: Mods::default(),
        }
    }

    /// A press of `key` with `mods`.
    pub fn with(key: Key, mods: Mods) -> Self {
        KeyPress {
            key,
            logical: None,
            mods,
        }
    }
}

/// What else decides a key's receiver besides the mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Focus {
    /// A text field is being edited.
    pub text_field: bool,
    /// The pause menu waits for a key to bind.
    pub rebinding: bool,
}

/// Where one key press goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// To egui: a text field is being edited.
    TextField,
    /// Bind it to the action waiting for a key.
    Bind,
    /// To the game's input state (actions and UI actions, by the bindings).
    Game,
    /// An editor shortcut.
    Editor(Shortcut),
    /// Activate the pause menu's highlighted item.
    MenuAccept,
    /// Nobody: the key means nothing in this mode.
    Ignore,
}

/// The actions whose keys work in every mode (when no text field is being edited).
pub const APP_ACTIONS: [Action; 3] = [
    Action::ToggleEditor,
    Action::ToggleDebug,
    Action::Fullscreen,
];

/// Where a press of `press` goes in `mode`, with `focus`, under `bindings`.
pub fn route(mode: AppMode, focus: Focus, press: KeyPress, bindings: &Bindings) -> Route {
    if focus.text_field {
        return Route::TextField;
    }
    if focus.rebinding {
        return Route::Bind;
    }
    let is_app_key = bindings
        .key_actions(press.key)
        .any(|a| APP_ACTIONS.contains(&a));
    if is_app_key {
        return Route::Game;
    }
    let shortcut = || editor_shortcut(press.logical.unwrap_or(press.key), press.mods);
    match mode {
        AppMode::Playing => Route::Game,
        AppMode::Paused { .. } | AppMode::Title | AppMode::LevelComplete => {
            if press.key == Key::Enter {
                Route::MenuAccept
            } else {
                Route::Game
            }
        }
        AppMode::Editing { .. } => shortcut().map_or(Route::Ignore, Route::Editor),
        AppMode::PlayTesting { .. } => {
            if is_modifier(press.key) && press.key != Key::ShiftLeft && press.key != Key::ShiftRight
            {
                Route::Ignore
            } else if press.mods.ctrl || press.key == Key::Escape {
                shortcut().map_or(Route::Ignore, Route::Editor)
            } else {
                Route::Game
            }
        }
    }
}

/// Whether `key` is a modifier key.
pub fn is_modifier(key: Key) -> bool {
    matches!(
        key,
        Key::ControlLeft
            | Key::ControlRight
            | Key::AltLeft
            | Key::AltRight
            | Key::ShiftLeft
            | Key::ShiftRight
    )
}

/// The editor's shortcut on `key` with `mods`: Ctrl+Z undo, Ctrl+Shift+Z and Ctrl+Y redo,
/// Ctrl+C copy, Ctrl+V paste, Ctrl+D duplicate, Ctrl+S save, Ctrl+O open; without modifiers Enter, Backspace,
/// Delete, Escape, G (grid), `.` (step) and the tool keys V, P, B, T, L.
pub fn editor_shortcut(key: Key, mods: Mods) -> Option<Shortcut> {
    use Key::*;
    if mods.ctrl {
        if mods.alt {
            return None;
        }
        return match (key, mods.shift) {
            (KeyZ, true) | (KeyY, _) => Some(Shortcut::Redo),
            (KeyZ, false) => Some(Shortcut::Undo),
            (KeyC, false) => Some(Shortcut::Copy),
            (KeyV, false) => Some(Shortcut::Paste),
            (KeyD, false) => Some(Shortcut::Duplicate),
            (KeyS, false) => Some(Shortcut::Save),
            (KeyO, false) => Some(Shortcut::Open),
            _ => None,
        };
    }
    if mods.alt || mods.shift {
        return None;
    }
    Some(match key {
        Enter => Shortcut::FinishDrawing,
        Backspace => Shortcut::Backspace,
        Delete => Shortcut::Delete,
        Escape => Shortcut::Cancel,
        KeyG => Shortcut::ToggleGrid,
        Period => Shortcut::Step,
        KeyV => Shortcut::Tool(Tool::Select),
        KeyP => Shortcut::Tool(Tool::Draw),
        KeyB => Shortcut::Tool(Tool::BoxBrush),
        KeyT => Shortcut::Tool(Tool::TileBrush),
        KeyL => Shortcut::Tool(Tool::Place(Ladders::NAME)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::mode::Back;
    use super::*;

    const PLAY: AppMode = AppMode::Playing;
    const MENU: AppMode = AppMode::Paused { by_focus: false };
    const EDIT: AppMode = AppMode::Editing {
        back: Back::Playing,
        by_focus: false,
    };
    const PLAY_TEST: AppMode = AppMode::PlayTesting { back: Back::Title };
    const MODES: [AppMode; 6] = [
        PLAY,
        MENU,
        EDIT,
        PLAY_TEST,
        AppMode::Title,
        AppMode::LevelComplete,
    ];

    fn r(mode: AppMode, press: KeyPress) -> Route {
        route(mode, Focus::default(), press, &Bindings::default())
    }

    #[test]
    fn a_text_field_takes_every_key_in_every_mode() {
        let focus = Focus {
            text_field: true,
            rebinding: true,
        };
        for mode in MODES {
            for key in [
                Key::Tab,
                Key::Space,
                Key::Enter,
                Key::KeyZ,
                Key::Escape,
                Key::F11,
            ] {
                for mods in [Mods::default(), Mods::CTRL] {
                    let press = KeyPress::with(key, mods);
                    assert_eq!(
                        route(mode, focus, press, &Bindings::default()),
                        Route::TextField,
                        "{mode:?} {press:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn rebinding_takes_the_next_key_even_an_app_key() {
        let focus = Focus {
            text_field: false,
            rebinding: true,
        };
        for key in [Key::Tab, Key::Space, Key::KeyQ] {
            assert_eq!(
                route(MENU, focus, KeyPress::plain(key), &Bindings::default()),
                Route::Bind
            );
        }
    }

    #[test]
    fn app_keys_reach_the_game_in_every_mode() {
        for mode in MODES {
            for key in [Key::Tab, Key::F3, Key::F11] {
                assert_eq!(
                    r(mode, KeyPress::plain(key)),
                    Route::Game,
                    "{mode:?} {key:?}"
                );
            }
        }
    }

    #[test]
    fn app_keys_follow_the_bindings() {
        let mut b = Bindings::default();
        b.keyboard.insert(Action::ToggleEditor, vec![Key::F1]);
        let press = |k| route(EDIT, Focus::default(), KeyPress::plain(k), &b);
        assert_eq!(press(Key::F1), Route::Game);
        assert_eq!(press(Key::Tab), Route::Ignore);
    }

    #[test]
    fn playing_every_key_drives_the_game() {
        for key in [
            Key::Space,
            Key::Enter,
            Key::ArrowRight,
            Key::KeyZ,
            Key::ControlLeft,
        ] {
            assert_eq!(r(PLAY, KeyPress::plain(key)), Route::Game);
            assert_eq!(r(PLAY, KeyPress::with(key, Mods::CTRL)), Route::Game);
        }
    }

    #[test]
    fn the_menu_moves_with_game_keys_and_accepts_with_enter() {
        for key in [Key::ArrowUp, Key::ArrowDown, Key::Space, Key::Escape] {
            assert_eq!(r(MENU, KeyPress::plain(key)), Route::Game);
        }
        for mode in [MENU, AppMode::Title, AppMode::LevelComplete] {
            assert_eq!(r(mode, KeyPress::plain(Key::Enter)), Route::MenuAccept);
        }
    }

    #[test]
    fn the_paused_editor_gets_shortcuts_and_nothing_reaches_the_hero() {
        let e = |k, m| r(EDIT, KeyPress::with(k, m));
        assert_eq!(e(Key::KeyZ, Mods::CTRL), Route::Editor(Shortcut::Undo));
        assert_eq!(
            e(
                Key::KeyZ,
                Mods {
                    shift: true,
                    ..Mods::CTRL
                }
            ),
            Route::Editor(Shortcut::Redo)
        );
        assert_eq!(e(Key::KeyY, Mods::CTRL), Route::Editor(Shortcut::Redo));
        assert_eq!(e(Key::KeyS, Mods::CTRL), Route::Editor(Shortcut::Save));
        assert_eq!(
            e(Key::KeyP, Mods::default()),
            Route::Editor(Shortcut::Tool(Tool::Draw))
        );
        assert_eq!(
            e(Key::Enter, Mods::default()),
            Route::Editor(Shortcut::FinishDrawing)
        );
        assert_eq!(
            e(Key::Escape, Mods::default()),
            Route::Editor(Shortcut::Cancel)
        );
        // Movement, jump and unbound keys do nothing while the editor is paused; Space in
        // particular is never a button press.
        for key in [
            Key::Space,
            Key::ArrowRight,
            Key::KeyK,
            Key::KeyQ,
            Key::ControlLeft,
        ] {
            assert_eq!(e(key, Mods::default()), Route::Ignore, "{key:?}");
        }
    }

    #[test]
    fn a_play_test_drives_the_hero_but_ctrl_chords_stay_the_editors() {
        let e = |k, m| r(PLAY_TEST, KeyPress::with(k, m));
        for key in [Key::Space, Key::ArrowRight, Key::KeyC, Key::KeyP, Key::KeyA] {
            assert_eq!(e(key, Mods::default()), Route::Game, "{key:?}");
        }
        assert_eq!(e(Key::ControlLeft, Mods::CTRL), Route::Ignore);
        assert_eq!(e(Key::AltLeft, Mods::default()), Route::Ignore);
        assert_eq!(e(Key::KeyZ, Mods::CTRL), Route::Editor(Shortcut::Undo));
        assert_eq!(e(Key::KeyC, Mods::CTRL), Route::Editor(Shortcut::Copy));
        assert_eq!(e(Key::KeyD, Mods::CTRL), Route::Editor(Shortcut::Duplicate));
        assert_eq!(e(Key::KeyQ, Mods::CTRL), Route::Ignore);
        assert_eq!(
            e(Key::Escape, Mods::default()),
            Route::Editor(Shortcut::Cancel)
        );
    }

    #[test]
    fn shortcuts_use_the_logical_key() {
        // An AZERTY layout: the physical KeyW is labelled Z.
        let press = KeyPress {
            key: Key::KeyW,
            logical: Some(Key::KeyZ),
            mods: Mods::CTRL,
        };
        assert_eq!(r(EDIT, press), Route::Editor(Shortcut::Undo));
    }
}
