//! The app's mode: which screen is up and whether the simulation runs, as one state machine.
//!
//! # What it owns
//! [`AppMode`] (title, playing, paused, level complete, editing, play-testing) and its
//! transitions ([`AppMode::next`] on a [`ModeEvent`]). Everything that used to be derived from
//! flags spread over the game and its UI is read from here: whether the simulation runs
//! ([`AppMode::simulates`]), whether the editor is open, whether egui runs, who has the keyboard
//! (`app::router`), the window title's mode ([`AppMode::label`]).
//!
//! The game ([`super::Game`]) holds the one `AppMode` and is its only writer
//! (`Game::change_mode`): the UIs ask for changes with commands (`app::command`) that one
//! function applies. Pausing is not separate state: the simulation runs exactly in
//! [`AppMode::Playing`] and [`AppMode::PlayTesting`].
//!
//! # Must never depend on
//! Anything else of the crate: this is plain data and a pure function, unit-tested below.

/// Where closing the editor returns to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Back {
    /// Play on from where the world is.
    Playing,
    /// The campaign's title screen.
    Title,
    /// The campaign's level-complete screen.
    LevelComplete,
}

impl Back {
    /// The mode it returns to.
    pub fn mode(self) -> AppMode {
        match self {
            Back::Playing => AppMode::Playing,
            Back::Title => AppMode::Title,
            Back::LevelComplete => AppMode::LevelComplete,
        }
    }
}

/// The app's mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppMode {
    /// The campaign's title screen; the simulation waits.
    Title,
    /// Playing: the simulation runs and the keys drive the hero.
    Playing,
    /// The pause menu is up; `by_focus`: the window lost focus (regaining it plays on).
    Paused {
        /// Paused by a focus loss rather than by the player.
        by_focus: bool,
    },
    /// The campaign's level-complete screen; the simulation waits.
    LevelComplete,
    /// The editor is open and the simulation waits (its step button runs single ticks).
    Editing {
        /// Where closing the editor returns to.
        back: Back,
        /// A play-test paused by a focus loss (regaining focus runs it again).
        by_focus: bool,
    },
    /// The editor is open and the simulation runs: a play-test.
    PlayTesting {
        /// Where closing the editor returns to.
        back: Back,
    },
}

/// What can change the mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeEvent {
    /// The pause key outside the editor: the pause menu opens while playing and closes while it
    /// is up (in the editor, Escape is the editor's; on the campaign screens it does nothing).
    /// The game sends it only outside the menus: in a menu the pause key backs out one level
    /// (`MenuNav::back`: the settings first), and the menu asks for the mode change.
    PauseKey,
    /// Stop the simulation: playing → paused; a play-test → editing.
    Pause,
    /// Run the simulation: a menu (pause, title, level complete) → playing (resume, restart, a
    /// campaign level started); editing → a play-test.
    Play,
    /// The window lost focus (while a focus loss may pause: not during a replay): playing →
    /// paused, a play-test → editing, both marked as paused by the focus loss.
    FocusLost,
    /// The window regained focus: what a focus loss paused runs again.
    FocusGained,
    /// Open the editor over whatever is up (the simulation waits).
    OpenEditor,
    /// Close the editor: back to the screen it was opened over ([`Back`]).
    CloseEditor,
    /// The campaign's title screen.
    ShowTitle,
    /// The campaign level being played reached its goal: its level-complete screen.
    LevelFinished,
}

impl AppMode {
    /// The mode after `event`; an event that means nothing in this mode leaves it unchanged.
    pub fn next(self, event: ModeEvent) -> AppMode {
        use AppMode::*;
        use ModeEvent::*;
        let editing = |back| Editing {
            back,
            by_focus: false,
        };
        match (self, event) {
            (Playing, PauseKey | Pause) => Paused { by_focus: false },
            (Paused { .. }, PauseKey) => Playing,
            (Title | Paused { .. } | LevelComplete, Play) => Playing,
            (Editing { back, .. }, Play) => PlayTesting { back },
            (PlayTesting { back }, Pause) => editing(back),
            (Playing, FocusLost) => Paused { by_focus: true },
            (PlayTesting { back }, FocusLost) => Editing {
                back,
                by_focus: true,
            },
            (Paused { by_focus: true }, FocusGained) => Playing,
            (
                Editing {
                    back,
                    by_focus: true,
                },
                FocusGained,
            ) => PlayTesting { back },
            (Playing | Paused { .. }, OpenEditor) => editing(Back::Playing),
            (Title, OpenEditor) => editing(Back::Title),
            (LevelComplete, OpenEditor) => editing(Back::LevelComplete),
            (Editing { back, .. } | PlayTesting { back }, CloseEditor) => back.mode(),
            (Playing | Paused { .. } | LevelComplete, ShowTitle) => Title,
            (Playing | Paused { .. }, LevelFinished) => LevelComplete,
            (mode, _) => mode,
        }
    }

    /// Whether the simulation runs (ticks follow the clock).
    pub fn simulates(self) -> bool {
        matches!(self, AppMode::Playing | AppMode::PlayTesting { .. })
    }

    /// Whether the editor is open.
    pub fn editor_open(self) -> bool {
        matches!(self, AppMode::Editing { .. } | AppMode::PlayTesting { .. })
    }

    /// Whether a menu (pause, title, level complete) is up: Up, Down and Jump move in it, Enter
    /// chooses.
    pub fn menu(self) -> bool {
        matches!(
            self,
            AppMode::Paused { .. } | AppMode::Title | AppMode::LevelComplete
        )
    }

    /// What the window title says of the mode ("" while playing).
    pub fn label(self) -> &'static str {
        match self {
            AppMode::Playing => "",
            AppMode::Paused { .. } => " (paused)",
            AppMode::Title => " (title screen)",
            AppMode::LevelComplete => " (level complete)",
            AppMode::Editing { .. } | AppMode::PlayTesting { .. } => " (editing)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AppMode::*;
    use ModeEvent::*;

    const EDITING: AppMode = Editing {
        back: Back::Playing,
        by_focus: false,
    };
    const PLAY_TEST: AppMode = PlayTesting {
        back: Back::Playing,
    };
    const PAUSED: AppMode = Paused { by_focus: false };

    fn run(mut mode: AppMode, events: &[ModeEvent]) -> AppMode {
        for e in events {
            mode = mode.next(*e);
        }
        mode
    }

    #[test]
    fn the_pause_key_opens_and_closes_the_pause_menu_only_outside_the_editor() {
        assert_eq!(Playing.next(PauseKey), PAUSED);
        assert_eq!(PAUSED.next(PauseKey), Playing);
        assert_eq!(Paused { by_focus: true }.next(PauseKey), Playing);
        for mode in [Title, LevelComplete, EDITING, PLAY_TEST] {
            assert_eq!(mode.next(PauseKey), mode, "{mode:?}");
        }
    }

    #[test]
    fn play_leaves_every_menu_and_runs_the_editors_simulation() {
        for mode in [Title, PAUSED, LevelComplete, Playing] {
            assert_eq!(mode.next(Play), Playing, "{mode:?}");
        }
        assert_eq!(EDITING.next(Play), PLAY_TEST);
        assert_eq!(PLAY_TEST.next(Pause), EDITING);
        assert_eq!(Playing.next(Pause), PAUSED);
        for mode in [Title, LevelComplete, PAUSED, EDITING] {
            assert_eq!(mode.next(Pause), mode, "{mode:?}");
        }
    }

    #[test]
    fn only_what_a_focus_loss_paused_resumes_on_focus() {
        assert_eq!(run(Playing, &[FocusLost, FocusGained]), Playing);
        assert!(!run(PLAY_TEST, &[FocusLost]).simulates());
        assert_eq!(run(PLAY_TEST, &[FocusLost, FocusGained]), PLAY_TEST);
        // Paused by the player, or waiting on a screen: focus changes nothing.
        for mode in [PAUSED, Title, LevelComplete, EDITING] {
            assert_eq!(run(mode, &[FocusLost, FocusGained]), mode, "{mode:?}");
        }
        // The player resumed and paused again before focus came back: that pause is theirs.
        assert_eq!(
            run(Playing, &[FocusLost, PauseKey, PauseKey, FocusGained]),
            PAUSED
        );
        assert_eq!(
            run(PLAY_TEST, &[FocusLost, Pause]),
            Editing {
                back: Back::Playing,
                by_focus: true
            },
            "a pause of a play-test already paused changes nothing"
        );
        assert_eq!(run(PLAY_TEST, &[FocusLost, Pause, FocusGained]), PLAY_TEST);
    }

    #[test]
    fn closing_the_editor_returns_to_the_screen_it_was_opened_over() {
        for (from, back) in [
            (Playing, Playing),
            (PAUSED, Playing),
            (Title, Title),
            (LevelComplete, LevelComplete),
        ] {
            let open = from.next(OpenEditor);
            assert!(open.editor_open() && !open.simulates(), "{from:?}");
            assert_eq!(open.next(OpenEditor), open, "opening twice changes nothing");
            assert_eq!(open.next(CloseEditor), back, "{from:?}");
            assert_eq!(open.next(Play).next(CloseEditor), back, "{from:?}");
        }
        for mode in [Playing, PAUSED, Title, LevelComplete] {
            assert_eq!(mode.next(CloseEditor), mode);
        }
    }

    #[test]
    fn the_campaign_screens_come_and_go_outside_the_editor() {
        assert_eq!(run(Title, &[Play, LevelFinished]), LevelComplete);
        assert_eq!(run(Playing, &[PauseKey, LevelFinished]), LevelComplete);
        assert_eq!(run(PAUSED, &[ShowTitle]), Title);
        assert_eq!(run(LevelComplete, &[ShowTitle]), Title);
        assert_eq!(Title.next(LevelFinished), Title);
        for mode in [EDITING, PLAY_TEST] {
            assert_eq!(mode.next(ShowTitle), mode);
            assert_eq!(mode.next(LevelFinished), mode);
        }
    }

    #[test]
    fn the_simulation_runs_only_while_playing_or_play_testing() {
        let all = [
            Title,
            Playing,
            PAUSED,
            LevelComplete,
            EDITING,
            PLAY_TEST,
            Paused { by_focus: true },
        ];
        let running: Vec<_> = all.into_iter().filter(|m| m.simulates()).collect();
        assert_eq!(running, vec![Playing, PLAY_TEST]);
        let menus: Vec<_> = all.into_iter().filter(|m| m.menu()).collect();
        assert_eq!(menus.len(), 4);
        assert!(menus.iter().all(|m| !m.editor_open() && !m.simulates()));
        assert_eq!(Playing.label(), "");
        assert_eq!(PLAY_TEST.label(), " (editing)");
    }
}
