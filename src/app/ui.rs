//! The game's egui layer without a window: the level editor and the pause menu.
//!
//! [`GameUi::ui`] runs inside one egui pass (the window's, or `egui_kittest`'s in the tests): by
//! the game's mode ([`AppMode`]) it shows the editor, the campaign's title or level-complete
//! screen (`app::campaign`), or the HUD of a game level (`app::hud`) and the pause menu. Each of
//! them returns [`AppCommand`]s, and so do the key router's routes ([`GameUi::key_press`]); one
//! function applies them all ([`GameUi::apply`], `app::command`). The window only adds
//! egui-winit (events in) and egui-wgpu (drawing), so everything here is tested headless.
use std::path::PathBuf;
use std::time::Instant;

use super::command::{AppCommand, MenuNav};
use super::game::Game;
use super::mode::{AppMode, ModeEvent};
use super::router::{self, Focus, KeyPress, Route};
use super::settings::{MsaaSetting, Settings};
use crate::editor::ui::{EditorUi, FrameTime, SimStatus};
use crate::editor::EditorSession;
use crate::input::{Action, BindingEdit, Bindings, Key};
use crate::level::UserDirs;
use crate::movement::Tuning;
use crate::render::quality::Msaa;

/// What the window must do, queued by [`GameUi::apply`] and carried out in one place
/// (`app::window`'s `apply`), in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The level changed: rebuild the render meshes and the sound map (the world is already
    /// rebuilt).
    LevelChanged,
    /// The settings changed: apply them (fullscreen, anti-aliasing, volumes).
    SettingsChanged,
    /// Switch between fullscreen and a window (the Fullscreen key).
    ToggleFullscreen,
    /// Quit the game (any unsaved-changes prompt has been answered).
    Quit,
}

/// The pause menu's items, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuItem {
    /// Close the menu and play on.
    Resume,
    /// The hero back at the spawn, the level as it is.
    Restart,
    /// Show or hide the settings.
    Settings,
    /// Open the level editor.
    Editor,
    /// Back to the campaign's title screen (only when playing a campaign).
    Title,
    /// Quit the game.
    Quit,
}

impl MenuItem {
    /// Every item of a level played on its own, top to bottom (a campaign adds
    /// [`MenuItem::Title`] before Quit: [`GameUi::menu_items`]).
    pub const ALL: [MenuItem; 5] = [
        MenuItem::Resume,
        MenuItem::Restart,
        MenuItem::Settings,
        MenuItem::Editor,
        MenuItem::Quit,
    ];

    fn label(self) -> &'static str {
        match self {
            MenuItem::Resume => "Resume",
            MenuItem::Restart => "Restart level",
            MenuItem::Settings => "Settings",
            MenuItem::Editor => "Level editor",
            MenuItem::Title => "Title screen",
            MenuItem::Quit => "Quit",
        }
    }
}

/// The editor, the menus and what they keep (the highlighted entries, the settings, the campaign's
/// progress); what they ask for is carried out by [`GameUi::apply`].
pub struct GameUi {
    /// The level editor.
    pub editor: EditorUi,
    /// The settings the pause menu edits.
    pub settings: Settings,
    pub(super) settings_file: Option<PathBuf>,
    bindings_file: Option<PathBuf>,
    /// The highlighted pause-menu item (keyboard and gamepad move it).
    pub menu_item: usize,
    /// Whether the settings are shown in the pause menu.
    pub settings_open: bool,
    /// The action waiting for a key to be bound to it.
    rebinding: Option<Action>,
    /// Enter was pressed in a menu (the input router's `MenuAccept`).
    pub(super) menu_accept: bool,
    /// What the window must do, queued by [`GameUi::apply`].
    pub(super) effects: Vec<Effect>,
    /// The campaign being played, when the game was started on one (its title and
    /// level-complete screens, and the progress).
    pub campaign: Option<super::campaign::CampaignPlay>,
    /// The results screen's gate while one is up (`app::results_gate`).
    pub(super) results_gate: Option<super::results_gate::ResultsGate>,
    /// The play-test under way began with the editor's "Play from here": opening the editor
    /// again resets the world.
    pub(super) played_from_here: bool,
}

impl GameUi {
    /// The UI for `game`, editing the level at `level_path`; `tuning` is the base tuning (from
    /// `tuning_path` when it came from a file). `user` holds the settings, bindings and recovery
    /// files (`None`: nothing is saved).
    pub fn new(
        game: &Game,
        level_path: Option<PathBuf>,
        tuning: Tuning,
        tuning_path: Option<PathBuf>,
        user: Option<&UserDirs>,
    ) -> Self {
        // The editor edits the world's level document in place: one level, which the world
        // follows on `Command::LevelEdited`.
        let session = EditorSession::on(game.world().document(), level_path);
        let settings = user
            .map(|u| Settings::load_or_default(&u.settings_file()))
            .unwrap_or_default();
        let mut editor = EditorUi::new(
            session,
            tuning,
            tuning_path,
            user.map(UserDirs::recovery_dir),
        );
        editor.overlays = settings.editor_overlays;
        GameUi {
            editor,
            settings,
            settings_file: user.map(UserDirs::settings_file),
            bindings_file: user.map(UserDirs::bindings_file),
            menu_item: 0,
            settings_open: false,
            rebinding: None,
            menu_accept: false,
            effects: Vec::new(),
            campaign: None,
            results_gate: None,
            played_from_here: false,
        }
    }

    /// Whether a key press should bind an action instead of reaching the game.
    pub fn rebinding(&self) -> Option<Action> {
        self.rebinding
    }

    /// Adds `key` to the keys of the action waiting for one (its other keys stay; the key
    /// leaves any other action), saves the bindings and gives them to the game. Escape cancels.
    pub fn bind_key(&mut self, game: &mut Game, key: Key) -> bool {
        let Some(action) = self.rebinding.take() else {
            return false;
        };
        if key == Key::Escape && action != Action::Pause {
            return true;
        }
        self.edit_bindings(game, BindingEdit::AddKey(action, key));
        true
    }

    /// The one writer of the game's bindings from the settings: makes `edit`, gives the
    /// bindings to the game and saves them to the user's file.
    pub(super) fn edit_bindings(&mut self, game: &mut Game, edit: BindingEdit) {
        let mut b: Bindings = game.input().bindings().clone();
        b.edit(edit);
        game.input_mut().set_bindings(b.clone());
        if let Some(path) = &self.bindings_file {
            if let Err(e) = crate::input::save_bindings(path, &b) {
                log::warn!("{e}");
            }
        }
    }

    /// Waits for a key to add to `action` (`None`: waits for none).
    pub(super) fn wait_for_key(&mut self, action: Option<Action>) {
        self.rebinding = action;
    }

    /// A key press, routed by [`router::route`] from the game's mode: given to the game's input
    /// state, or applied as the route's command (bind it, an editor shortcut, a menu's accept).
    /// `text_field`: a text field is being edited (the caller gives the key to egui when the
    /// route says [`Route::TextField`]). Returns the route taken.
    pub fn key_press(&mut self, game: &mut Game, press: KeyPress, text_field: bool) -> Route {
        let focus = Focus {
            text_field,
            rebinding: self.rebinding.is_some(),
        };
        let route = router::route(game.mode(), focus, press, game.input().bindings());
        let command = match route {
            Route::TextField | Route::Ignore => None,
            Route::Game => {
                game.input_mut().key(press.key, true);
                None
            }
            Route::Bind => Some(AppCommand::BindKey(press.key)),
            Route::Editor(s) => Some(AppCommand::Shortcut(s)),
            Route::MenuAccept => Some(AppCommand::MenuAccept),
        };
        if let Some(c) = command {
            self.apply(game, c);
        }
        route
    }

    /// One egui pass, by the game's mode: the editor, a campaign screen, or the HUD and the
    /// pause menu; their commands are applied ([`GameUi::apply`]), then the autosave runs. `nav`
    /// is the frame's menu navigation. Returns what the window must do (every effect queued
    /// since the last [`GameUi::take_effects`]).
    pub fn ui(&mut self, ui: &mut egui::Ui, game: &mut Game, nav: MenuNav) -> Vec<Effect> {
        if let Some(c) = self.level_finished(game) {
            self.apply(game, c);
        }
        let nav = self.results_nav(game, nav);
        let mode = game.mode();
        let commands = if mode.editor_open() {
            let status = SimStatus {
                running: mode.simulates(),
                recording: game.recording(),
                playtest_ticks: game.playtest().map(|p| p.actions.len()),
            };
            let commands = self.editor.show(ui, game.world(), status);
            commands.into_iter().map(AppCommand::Editor).collect()
        } else if matches!(mode, AppMode::Title | AppMode::LevelComplete) && self.campaign.is_some()
        {
            self.campaign_screen(ui, game, nav)
        } else {
            super::hud::fade(ui.ctx(), game.view().fade(game.world()));
            let complete_panel = self.campaign.is_none();
            if game.shows_hud() {
                super::hud::hud(ui, game.world(), complete_panel);
            }
            if mode.menu() {
                self.pause_menu(ui, game, nav)
            } else if complete_panel && self.results_gate.is_some() && nav.accept {
                // The single-level complete panel: Jump plays the level again.
                vec![AppCommand::Restart]
            } else {
                Vec::new()
            }
        };
        // The controls card beside the title and the pause menu (not over the settings, whose key
        // list it repeats).
        let card = match mode {
            AppMode::Title => self.campaign.is_some(),
            AppMode::Paused { .. } => true,
            _ => false,
        };
        if card && !self.settings_open {
            super::controls_card::controls_card(
                ui.ctx(),
                game.input().bindings(),
                game.input().pad_last(),
            );
        }
        self.menu_accept = false;
        if !commands.is_empty() {
            ui.ctx().request_repaint();
        }
        for c in commands {
            self.apply(game, c);
        }
        self.editor.autosave(Instant::now());
        self.take_effects()
    }

    /// The pause menu's items: [`MenuItem::ALL`], with [`MenuItem::Title`] before Quit when a
    /// campaign is played.
    pub fn menu_items(&self) -> Vec<MenuItem> {
        let mut items = MenuItem::ALL.to_vec();
        if self.campaign.is_some() {
            items.insert(items.len() - 1, MenuItem::Title);
        }
        items
    }

    /// Records the time of one frame for the editor's graph.
    pub fn record_frame(&mut self, t: FrameTime) {
        self.editor.record_frame(t, Instant::now());
    }

    /// The pause menu; returns what was chosen.
    fn pause_menu(&mut self, ui: &mut egui::Ui, game: &Game, nav: MenuNav) -> Vec<AppCommand> {
        let mut commands = Vec::new();
        let items = self.menu_items();
        let n = items.len();
        if self.rebinding.is_none() {
            let steps = (nav.down as usize + n - nav.up as usize % n) % n;
            self.menu_item = (self.menu_item + steps) % n;
        }
        let mut chosen = ((nav.accept || self.menu_accept) && self.rebinding.is_none())
            .then(|| items[self.menu_item.min(n - 1)]);
        if nav.back && self.rebinding.is_none() {
            if self.settings_open {
                self.settings_open = false;
            } else {
                chosen = Some(MenuItem::Resume);
            }
        }
        let ctx = ui.ctx().clone();
        egui::Window::new("Paused")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(&ctx, |ui| {
                ui.set_min_width(260.0);
                for (i, item) in items.iter().enumerate() {
                    let selected = i == self.menu_item;
                    let text = egui::RichText::new(item.label()).size(18.0);
                    let r = ui.add_sized([240.0, 30.0], egui::Button::selectable(selected, text));
                    if r.clicked() {
                        self.menu_item = i;
                        chosen = Some(*item);
                    }
                }
                if self.settings_open {
                    ui.separator();
                    commands.extend(self.settings_panel(ui, game));
                }
            });
        if chosen.is_some() {
            ui.ctx().request_repaint();
        }
        match chosen {
            Some(MenuItem::Resume) => commands.push(AppCommand::Mode(ModeEvent::Play)),
            Some(MenuItem::Restart) => commands.push(AppCommand::Restart),
            Some(MenuItem::Settings) => self.settings_open = !self.settings_open,
            Some(MenuItem::Title) => commands.push(AppCommand::ShowTitle),
            Some(MenuItem::Editor) => commands.push(AppCommand::ToggleEditor),
            Some(MenuItem::Quit) => commands.push(AppCommand::RequestQuit),
            None => {}
        }
        commands
    }

    /// The settings: fullscreen, anti-aliasing, volumes and keys. Returns
    /// [`AppCommand::SettingsChanged`] when one changed (a key to bind is waited for by
    /// [`Route::Bind`]).
    pub(super) fn settings_panel(&mut self, ui: &mut egui::Ui, game: &Game) -> Option<AppCommand> {
        let s = &mut self.settings;
        let mut changed = false;
        changed |= ui.checkbox(&mut s.fullscreen, "Fullscreen").changed();
        ui.horizontal(|ui| {
            ui.label("Anti-aliasing");
            for (m, label) in [
                (Msaa::Auto, "auto"),
                (Msaa::Samples(1), "off"),
                (Msaa::Samples(4), "4x"),
            ] {
                changed |= ui
                    .selectable_value(&mut s.msaa, MsaaSetting(m), label)
                    .changed();
            }
        });
        for (label, v) in [
            ("Master volume", &mut s.volumes.master),
            ("Music", &mut s.volumes.music),
            ("Effects", &mut s.volumes.effects),
        ] {
            changed |= ui
                .add(egui::Slider::new(v, 0.0..=1.0).text(label))
                .changed();
        }

        ui.separator();
        let keys = self.keys_panel(ui, game);
        changed.then_some(AppCommand::SettingsChanged).or(keys)
    }
}
