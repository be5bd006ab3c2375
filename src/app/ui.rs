//! The game's egui layer without a window: the level editor and the pause menu, and what their
//! commands do to the [`Game`].
//!
//! [`GameUi::ui`] runs inside one egui pass (the window's, or `egui_kittest`'s in the tests): it
//! shows the editor when it is open, else the campaign's title or level-complete screen when one
//! is up (`app::campaign`), else the HUD of a game level (`app::hud`) and the pause menu when the
//! game is paused; it carries out their commands on the game, and swaps the world's level when
//! the document changed. The window
//! only adds egui-winit (events in) and egui-wgpu (drawing), so everything here is tested
//! headless.
use std::path::PathBuf;
use std::time::Instant;

use glam::DVec2;

use super::game::Game;
use super::router::{self, Focus, KeyPress, Mode, Route};
use super::settings::{MsaaSetting, Settings};
use crate::editor::ui::{Command, EditorUi, FrameTime, SimStatus};
use crate::editor::EditorSession;
use crate::input::{Action, Bindings, Key, UiActions};
use crate::level::UserDirs;
use crate::movement::Tuning;
use crate::render::quality::Msaa;
use crate::sim::Replay;

/// What the window must do after a UI frame, as values applied in one place
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

/// The editor and the pause menu.
pub struct GameUi {
    /// The level editor.
    pub editor: EditorUi,
    /// The settings the pause menu edits.
    pub settings: Settings,
    settings_file: Option<PathBuf>,
    bindings_file: Option<PathBuf>,
    /// The highlighted pause-menu item (keyboard and gamepad move it).
    pub menu_item: usize,
    /// Whether the settings are shown in the pause menu.
    pub settings_open: bool,
    /// The action waiting for a key to be bound to it.
    rebinding: Option<Action>,
    pub(super) applied_revision: u64,
    /// Enter was pressed in the pause menu (the input router's `MenuAccept`).
    pub(super) menu_accept: bool,
    /// The campaign being played, when the game was started on one (its title and
    /// level-complete screens, and the progress).
    pub campaign: Option<super::campaign::CampaignPlay>,
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
        let session = EditorSession::new(game.world().level().clone(), level_path);
        let revision = session.revision();
        let settings = user
            .map(|u| Settings::load_or_default(&u.settings_file()))
            .unwrap_or_default();
        GameUi {
            editor: EditorUi::new(
                session,
                tuning,
                tuning_path,
                user.map(UserDirs::recovery_dir),
            ),
            settings,
            settings_file: user.map(UserDirs::settings_file),
            bindings_file: user.map(UserDirs::bindings_file),
            menu_item: 0,
            settings_open: false,
            rebinding: None,
            applied_revision: revision,
            menu_accept: false,
            campaign: None,
        }
    }

    /// The editor's open/close key (Tab) was pressed.
    pub fn toggle_editor(&mut self, game: &mut Game) {
        let open = !game.editing();
        if open {
            self.editor.look_from(game.view().camera());
            self.stop_recording(game);
        }
        game.set_editing(open);
        log::info!("editor {}", if open { "opened" } else { "closed" });
    }

    /// Whether a key press should bind an action instead of reaching the game.
    pub fn rebinding(&self) -> Option<Action> {
        self.rebinding
    }

    /// Binds `key` to the action waiting for one (it replaces that action's keys), saves the
    /// bindings to the user's file and gives them to the game. Escape cancels.
    pub fn bind_key(&mut self, game: &mut Game, key: Key) -> bool {
        let Some(action) = self.rebinding.take() else {
            return false;
        };
        if key == Key::Escape && action != Action::Pause {
            return true;
        }
        let mut b: Bindings = game.input_mut().bindings().clone();
        b.keyboard.insert(action, vec![key]);
        game.input_mut().set_bindings(b.clone());
        if let Some(path) = &self.bindings_file {
            if let Err(e) = crate::input::save_bindings(path, &b) {
                log::warn!("{e}");
            }
        }
        true
    }

    /// A key press, routed by [`router::route`] from the game's mode and carried out: bound to
    /// an action, given to the game's input state, queued as an editor shortcut or as the pause
    /// menu's accept. `text_field`: a text field is being edited (the caller gives the key to
    /// egui when the route says [`Route::TextField`]). Returns the route taken.
    pub fn key_press(&mut self, game: &mut Game, press: KeyPress, text_field: bool) -> Route {
        let mode = Mode::of(game.editing(), game.paused());
        let focus = Focus {
            text_field,
            rebinding: self.rebinding.is_some(),
        };
        let route = router::route(mode, focus, press, game.input_mut().bindings());
        match route {
            Route::TextField | Route::Ignore => {}
            Route::Bind => {
                self.bind_key(game, press.key);
            }
            Route::Game => game.input_mut().key(press.key, true),
            Route::Editor(s) => self.editor.shortcut(s),
            Route::MenuAccept => self.menu_accept = true,
        }
        route
    }

    /// One egui pass: the editor when open, else the pause menu when paused; then the level swap
    /// and the autosave. `ui_actions` are the frame's UI presses (the menu moves with Up and
    /// Down and activates with Jump, so a gamepad drives it). Returns what the window must do.
    pub fn ui(&mut self, ui: &mut egui::Ui, game: &mut Game, ui_actions: UiActions) -> Vec<Effect> {
        let mut effects = Vec::new();
        if ui_actions.fullscreen {
            effects.push(Effect::ToggleFullscreen);
        }
        if game.editing() {
            let status = SimStatus {
                running: !game.paused(),
                recording: game.recording(),
                playtest_ticks: game.playtest().map(|p| p.actions.len()),
            };
            let commands = self.editor.show(ui, game.world(), status);
            if !commands.is_empty() {
                ui.ctx().request_repaint();
            }
            for c in commands {
                self.command(c, game, &mut effects);
            }
        } else if !self.campaign_screens(ui, game, ui_actions, &mut effects) {
            if game.shows_hud() {
                super::hud::hud(ui, game.world(), self.campaign.is_none());
            }
            if game.paused() {
                self.pause_menu(ui, game, ui_actions, &mut effects);
            }
        }
        self.menu_accept = false;
        if self.editor.session.revision() != self.applied_revision {
            self.applied_revision = self.editor.session.revision();
            match game.world_mut().edit_level(self.editor.session.level()) {
                Ok(()) => {
                    for w in game.world().warnings() {
                        self.editor.set_status(w.clone());
                    }
                    effects.push(Effect::LevelChanged);
                    ui.ctx().request_repaint();
                }
                // A valid level always builds; should it not, the message says why and the
                // world keeps the last level that did.
                Err(e) => self
                    .editor
                    .set_status(format!("cannot play this level: {e}")),
            }
        }
        self.editor.autosave(Instant::now());
        effects
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

    fn command(&mut self, c: Command, game: &mut Game, effects: &mut Vec<Effect>) {
        match c {
            Command::SetRunning(run) => game.set_paused(!run),
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
            Command::Quit => effects.push(Effect::Quit),
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
        game.set_paused(false);
    }

    fn pause_menu(
        &mut self,
        ui: &mut egui::Ui,
        game: &mut Game,
        nav: UiActions,
        effects: &mut Vec<Effect>,
    ) {
        let items = self.menu_items();
        let n = items.len();
        if nav.up && self.rebinding.is_none() {
            self.menu_item = (self.menu_item + n - 1) % n;
        }
        if nav.down && self.rebinding.is_none() {
            self.menu_item = (self.menu_item + 1) % n;
        }
        let mut chosen = ((nav.accept || self.menu_accept) && self.rebinding.is_none())
            .then(|| items[self.menu_item.min(n - 1)]);
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
                    self.settings_panel(ui, game, effects);
                }
            });
        if chosen.is_some() {
            ui.ctx().request_repaint();
        }
        match chosen {
            Some(MenuItem::Resume) => game.set_paused(false),
            Some(MenuItem::Restart) => {
                if let Err(e) = game.world_mut().restart() {
                    self.editor.set_status(e.to_string());
                }
                game.snap_camera(1.0);
                game.set_paused(false);
            }
            Some(MenuItem::Settings) => self.settings_open = !self.settings_open,
            Some(MenuItem::Title) => {
                if let Some(c) = &mut self.campaign {
                    c.screen = super::campaign::Screen::Title { item: 0 };
                }
            }
            Some(MenuItem::Editor) => self.toggle_editor(game),
            Some(MenuItem::Quit) => {
                if self.editor.request_quit() {
                    effects.push(Effect::Quit);
                } else {
                    // The unsaved-changes prompt lives in the editor.
                    self.toggle_editor(game);
                }
            }
            None => {}
        }
    }

    pub(super) fn settings_panel(
        &mut self,
        ui: &mut egui::Ui,
        game: &mut Game,
        effects: &mut Vec<Effect>,
    ) {
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
        if changed {
            effects.push(Effect::SettingsChanged);
            if let Some(p) = &self.settings_file {
                if let Err(e) = s.save(p) {
                    log::warn!("{e}");
                }
            }
        }
        ui.separator();
        ui.label("Keys (click, then press the new key):");
        egui::Grid::new("bindings").num_columns(2).show(ui, |ui| {
            for a in Action::ALL {
                ui.label(a.label());
                let keys = game
                    .input_mut()
                    .bindings()
                    .keyboard
                    .get(&a)
                    .map(|ks| {
                        ks.iter()
                            .map(|k| format!("{k:?}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                let text = if self.rebinding == Some(a) {
                    "press a key...".to_string()
                } else {
                    keys
                };
                if ui.button(text).clicked() {
                    self.rebinding = Some(a);
                }
                ui.end_row();
            }
        });
    }
}
