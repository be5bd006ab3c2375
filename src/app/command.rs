//! What the app's UIs ask for, and the one function that carries it out.
//!
//! # What it owns
//! - [`AppCommand`]: everything the pause menu, the campaign screens, the editor
//!   ([`crate::editor::ui::Command`]) and the key router (`app::router`) ask of the game. None of
//!   them changes the [`Game`] itself: they return commands.
//! - [`GameUi::apply`]: the one function that applies them, in order, to the game (its mode, its
//!   world, its recording), to the UI's own state (the editor's status, the campaign's progress,
//!   the settings) and to the window, through [`Effect`]s queued for it
//!   ([`GameUi::take_effects`]).
//! - [`read_ui_actions`]: the one place the frame's UI presses ([`UiActions`]) are read.
//!
//! The mode itself ([`AppMode`](super::mode::AppMode)) has one writer, `Game::change_mode`;
//! apply reaches it through [`AppCommand::Mode`] and the commands that imply a mode change. Only
//! the pause key is fed to it straight from `Game::frame`, because it must stop the very frame's
//! ticks.
//!
//! # Must never depend on
//! winit, wgpu or egui's drawing: the window only carries out the [`Effect`]s.
use glam::DVec2;

use super::campaign::CampaignPlay;
use super::game::Game;
use super::mode::ModeEvent;
use super::ui::{Effect, GameUi};
use crate::editor::ui::Command;
use crate::editor::Shortcut;
use crate::input::{BindingEdit, Key, UiActions};
use crate::sim::Replay;

/// A change the app's UIs ask for, applied by [`GameUi::apply`].
#[derive(Clone, Debug, PartialEq)]
pub enum AppCommand {
    /// Change the mode: resume, pause, the campaign's title screen.
    Mode(ModeEvent),
    /// Open the editor (it looks from the game's camera; a play-test being recorded stops), or
    /// close it.
    ToggleEditor,
    /// Switch between fullscreen and a window (the Fullscreen key).
    ToggleFullscreen,
    /// The settings changed (fullscreen, anti-aliasing, volumes): save and apply them.
    SettingsChanged,
    /// The hero back at the spawn, the level as it is, and play on.
    Restart,
    /// Play campaign level `index` from its start.
    PlayLevel(usize),
    /// The campaign level played reached its goal: record it and show its complete screen.
    LevelFinished,
    /// The campaign's title screen.
    ShowTitle,
    /// Quit; with unsaved changes the editor's prompt comes up instead (the editor opens).
    RequestQuit,
    /// One of the editor's commands.
    Editor(Command),
    /// An editor shortcut key (the key router's).
    Shortcut(Shortcut),
    /// Bind a key to the action waiting for one, besides its other keys (the key router's).
    BindKey(Key),
    /// Change the key bindings (the settings' key list: remove a key, reset to the defaults).
    EditBindings(BindingEdit),
    /// Enter in a menu: choose its highlighted entry (the key router's).
    MenuAccept,
}

/// The menus' navigation pressed in one frame: Up, Down, Jump to choose and the pause key to
/// back out, so a gamepad alone drives every menu.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MenuNav {
    /// Move the highlight up this many entries (one per press this frame).
    pub up: u8,
    /// Move the highlight down this many entries (one per press this frame).
    pub down: u8,
    /// Choose the highlighted entry.
    pub accept: bool,
    /// Back out one level: close the settings, resume from the pause menu, leave a level's
    /// complete screen for the title (the pause key, Escape or Start, pressed in a menu).
    pub back: bool,
}

/// One frame's UI presses, sorted by who carries them out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FramePresses {
    /// The pause key (the game feeds it to its mode before the frame's ticks).
    pub pause: bool,
    /// The debug overlay key (the game's view).
    pub overlay: bool,
    /// The app's keys as commands, for [`GameUi::apply`].
    pub commands: Vec<AppCommand>,
    /// The menus' navigation.
    pub nav: MenuNav,
}

/// Sorts one frame's UI presses: the only reader of [`UiActions`].
pub fn read_ui_actions(ui: UiActions) -> FramePresses {
    let mut commands = Vec::new();
    if ui.toggle_editor {
        commands.push(AppCommand::ToggleEditor);
    }
    if ui.fullscreen {
        commands.push(AppCommand::ToggleFullscreen);
    }
    FramePresses {
        pause: ui.pause,
        overlay: ui.toggle_debug,
        commands,
        nav: MenuNav {
            up: ui.up,
            down: ui.down,
            accept: ui.accept,
            back: ui.pause,
        },
    }
}

impl GameUi {
    /// Carries out `command`: the one place the UIs' requests change the game, the UI's state
    /// and (through the queued [`Effect`]s) the window.
    pub fn apply(&mut self, game: &mut Game, command: AppCommand) {
        match command {
            AppCommand::Mode(event) => {
                game.change_mode(event);
            }
            AppCommand::ToggleEditor => self.toggle_editor(game),
            AppCommand::ToggleFullscreen => self.effects.push(Effect::ToggleFullscreen),
            AppCommand::SettingsChanged => {
                self.save_settings();
                self.effects.push(Effect::SettingsChanged);
            }
            AppCommand::Restart => {
                if let Err(e) = game.world_mut().restart() {
                    self.editor.set_status(e.to_string());
                }
                game.snap_camera(1.0);
                game.change_mode(ModeEvent::Play);
            }
            AppCommand::PlayLevel(index) => self.play_level(game, index),
            AppCommand::LevelFinished => {
                if let Some(c) = &mut self.campaign {
                    let (ticks, deaths) = (game.world().play_ticks(), game.world().play().deaths);
                    c.finished(ticks, deaths);
                }
                game.change_mode(ModeEvent::LevelFinished);
            }
            AppCommand::ShowTitle => {
                if let Some(c) = &mut self.campaign {
                    c.item = c.continue_index();
                }
                game.change_mode(ModeEvent::ShowTitle);
            }
            AppCommand::RequestQuit => {
                if self.editor.request_quit() {
                    self.effects.push(Effect::Quit);
                } else if !game.editing() {
                    // The unsaved-changes prompt lives in the editor.
                    self.toggle_editor(game);
                }
            }
            AppCommand::Editor(c) => self.editor_command(game, c),
            AppCommand::Shortcut(s) => self.editor.shortcut(s),
            AppCommand::BindKey(key) => {
                self.bind_key(game, key);
            }
            AppCommand::EditBindings(edit) => self.edit_bindings(game, edit),
            AppCommand::MenuAccept => self.menu_accept = true,
        }
    }

    /// Takes the window's effects queued by [`GameUi::apply`], in order.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Writes the user's settings file (when there is one); a failure is logged.
    fn save_settings(&self) {
        if let Some(p) = &self.settings_file {
            if let Err(e) = self.settings.save(p) {
                log::warn!("{e}");
            }
        }
    }

    /// Opens the editor over the current screen, or closes it back to that screen.
    fn toggle_editor(&mut self, game: &mut Game) {
        let open = !game.editing();
        if open {
            self.editor.look_from(game.view().camera());
            self.stop_recording(game);
            if std::mem::take(&mut self.played_from_here) {
                // Back from "Play from here": the level as it was, as a reset leaves it.
                let mover_time = self.editor.scrub.unwrap_or(0.0);
                self.editor_command(game, Command::Reset { mover_time });
            }
            // The chunked meshes edits work on, built now rather than at the first edit (a
            // half-second stall in a drag at 10 000 tiles).
            if let Err(e) = game.world_mut().prepare_edits() {
                self.editor.set_status(e.to_string());
            }
            game.change_mode(ModeEvent::OpenEditor);
        } else {
            game.change_mode(ModeEvent::CloseEditor);
        }
        log::info!("editor {}", if open { "opened" } else { "closed" });
    }

    /// The editor's commands (part of [`GameUi::apply`]).
    fn editor_command(&mut self, game: &mut Game, c: Command) {
        match c {
            Command::SetRunning(run) => {
                game.change_mode(if run {
                    ModeEvent::Play
                } else {
                    ModeEvent::Pause
                });
            }
            Command::Step => game.step_once(),
            Command::Leave => self.toggle_editor(game),
            Command::PlaceHero(p) => self.place_hero(game, p),
            Command::SetMoverTime(t) => game.world_mut().set_mover_time(t),
            Command::Reset { mover_time } => {
                // The movers' clock first: the restart places the hero among them as they are.
                game.world_mut().set_mover_time(mover_time);
                if let Err(e) = game.world_mut().restart() {
                    self.editor.set_status(e.to_string());
                }
                game.snap_camera(1.0);
            }
            Command::SetTuning(t) => {
                if let Err(e) = game.world_mut().set_base_tuning(&t) {
                    self.editor.set_status(format!("tuning not applied: {e}"));
                }
            }
            Command::RecordPlaytest => game.start_recording(),
            Command::StopRecording => self.stop_recording(game),
            Command::PlayBack => self.play_back(game),
            Command::LevelEdited => self.level_edited(game),
            Command::Quit => self.effects.push(Effect::Quit),
            Command::PlayFrom(p) => {
                self.place_hero(game, p);
                game.snap_camera(1.0);
                self.played_from_here = true;
                self.toggle_editor(game);
            }
            Command::SetOverlays(o) => {
                self.settings.editor_overlays = o;
                self.save_settings();
            }
        }
    }

    /// The editor changed the level document in place (the world's, which the session edits):
    /// the world follows it (the meshes of what changed are built again), and the window's
    /// meshes and sounds with it.
    fn level_edited(&mut self, game: &mut Game) {
        let mut followed = game.world_mut().level_edited();
        if let Err(e) = &followed {
            // A valid level always builds; should it not, the world still holds what it built
            // from the level before the edit, and the edit is undone so that the document is
            // that level again.
            self.editor
                .set_status(format!("cannot play this level, the edit is undone: {e}"));
            if self.editor.session.undo() {
                self.editor.session.take_change();
                followed = game.world_mut().level_edited();
            }
        }
        match followed {
            Ok(()) => {
                for w in game.world().warnings() {
                    self.editor.set_status(w.clone());
                }
                self.effects.push(Effect::LevelChanged);
            }
            Err(e) => self
                .editor
                .set_status(format!("cannot play this level: {e}")),
        }
    }

    fn place_hero(&mut self, game: &mut Game, p: DVec2) {
        match game.world_mut().place_hero(p) {
            Ok(moved) if moved > 0.0 => self.editor.set_status(format!(
                "({:.2}, {:.2}) is inside geometry: the hero is {moved:.2} m away",
                p.x, p.y
            )),
            Ok(_) => {}
            Err(e) => self.editor.set_status(e.to_string()),
        }
    }

    /// Stops a play-test recording under way (the game keeps it for playing back).
    fn stop_recording(&mut self, game: &mut Game) {
        if let Some(ticks) = game.stop_recording() {
            self.editor
                .set_status(format!("recorded a play-test of {ticks} ticks"));
        }
    }

    /// Plays the recorded play-test again from its start, on the level as it is now.
    fn play_back(&mut self, game: &mut Game) {
        self.stop_recording(game);
        let Some(p) = game.playtest() else {
            return;
        };
        let replay = Replay::from_actions(&p.actions);
        let start = p.start;
        self.place_hero(game, start);
        game.play_replay(&replay);
        game.change_mode(ModeEvent::Play);
    }

    /// Plays campaign level `index` from its start. Another level than the one played is read
    /// from its file and put in the world's level document, which the editor edits (so the
    /// editor, the world, the meshes, the sounds and the characters follow one level); the world
    /// restarts and the simulation runs. Unsaved edits of another level keep it from changing.
    fn play_level(&mut self, game: &mut Game, index: usize) {
        let Some(c) = &mut self.campaign else {
            return;
        };
        let path = c.campaign.levels[index].path.clone();
        if self.editor.session.path() != Some(path.as_path()) {
            if self.editor.session.dirty() {
                c.message = Some(
                    "the editor has unsaved changes: save or undo them (Tab) before another level"
                        .into(),
                );
                return;
            }
            let level = match crate::level::load_level(&path) {
                Ok(l) => l,
                Err(e) => {
                    log::warn!("{e}");
                    c.message = Some(format!("cannot open {}", path.display()));
                    return;
                }
            };
            // The world's document is the editor's: the swap is the editor's new document.
            if let Err(e) = game.world_mut().set_level(&level) {
                c.message = Some(format!("cannot play {}: {e}", path.display()));
                return;
            }
            self.editor.adopt(path.clone());
            self.effects.push(Effect::LevelChanged);
            load_cast(game, c, &path);
        }
        if let Err(e) = game.world_mut().restart() {
            c.message = Some(e.to_string());
            return;
        }
        c.message = None;
        c.level = index;
        game.snap_camera(1.0);
        game.change_mode(ModeEvent::Play);
    }
}

/// The agents' characters of the level at `path` (a problem is shown on the campaign's screen).
fn load_cast(game: &mut Game, c: &mut CampaignPlay, path: &std::path::Path) {
    match crate::view::Cast::load(game.world(), path, &c.data) {
        Ok(cast) => game.set_cast(cast),
        Err(e) => {
            log::warn!("{e}");
            c.message = Some(e.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ui_press_has_one_reader() {
        assert_eq!(
            read_ui_actions(UiActions::default()),
            FramePresses::default()
        );
        let all = UiActions {
            pause: true,
            toggle_editor: true,
            toggle_debug: true,
            fullscreen: true,
            up: 2,
            down: 0,
            accept: true,
        };
        let p = read_ui_actions(all);
        assert!(p.pause && p.overlay);
        assert_eq!(
            p.commands,
            vec![AppCommand::ToggleEditor, AppCommand::ToggleFullscreen]
        );
        assert_eq!(
            p.nav,
            MenuNav {
                up: 2,
                down: 0,
                accept: true,
                back: true
            }
        );
    }
}
