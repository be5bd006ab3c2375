//! The game's egui layer without a window: the level editor and the pause menu, and what their
//! commands do to the [`Game`].
//!
//! [`GameUi::ui`] runs inside one egui pass (the window's, or `egui_kittest`'s in the tests): it
//! shows the editor when it is open, else the pause menu when the game is paused, carries out
//! their commands on the game, and swaps the world's level when the document changed. The window
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
use crate::sim::{Replay, World};

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
    applied_revision: u64,
    /// Enter was pressed in the pause menu (the input router's `MenuAccept`).
    menu_accept: bool,
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
                hud(ui, game.world(), self.campaign.is_none());
            }
            if game.paused() {
                self.pause_menu(ui, game, ui_actions, &mut effects);
            }
        }
        self.menu_accept = false;
        if self.editor.session.revision() != self.applied_revision {
            self.applied_revision = self.editor.session.revision();
            match game.world_mut().set_level(self.editor.session.level()) {
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

    /// The campaign's screens: the level just finished is recorded; while the title or
    /// level-complete screen is up the simulation waits, the menu moves with Up and Down and
    /// chooses with Jump, Enter or a click. Returns whether a campaign screen was drawn.
    fn campaign_screens(
        &mut self,
        ui: &mut egui::Ui,
        game: &mut Game,
        nav: UiActions,
        effects: &mut Vec<Effect>,
    ) -> bool {
        use super::campaign::{Choice, Screen};
        let Some(c) = &mut self.campaign else {
            return false;
        };
        if let Screen::Playing { index } = c.screen {
            let p = game.world().play();
            if let Some(t) = p.goal_tick {
                let deaths = p.deaths;
                c.finished(index, t + 1, deaths);
            }
        }
        if !c.menu_up() {
            return false;
        }
        game.set_paused(true);
        if nav.up {
            c.move_highlight(-1);
        }
        if nav.down {
            c.move_highlight(1);
        }
        let item = match c.screen {
            Screen::Title { item } | Screen::Complete { item, .. } => item,
            Screen::Playing { .. } => 0,
        };
        let mut chosen = (nav.accept || self.menu_accept).then_some(item);
        let ctx = ui.ctx().clone();
        let (title, entries, summary) = campaign_menu(c, game.world());
        egui::Window::new(title)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(&ctx, |ui| {
                ui.set_min_width(420.0);
                if let Some(s) = &summary {
                    ui.label(egui::RichText::new(s).size(20.0));
                    ui.separator();
                }
                for (i, (text, enabled)) in entries.iter().enumerate() {
                    let label = egui::RichText::new(text).size(20.0);
                    let r = ui.add_enabled(
                        *enabled,
                        egui::Button::selectable(i == item, label)
                            .min_size(egui::vec2(400.0, 32.0)),
                    );
                    if r.clicked() {
                        chosen = Some(i);
                    }
                }
                if let Some(m) = &c.message {
                    ui.label(egui::RichText::new(m).color(egui::Color32::LIGHT_RED));
                }
            });
        if chosen.is_some() {
            ui.ctx().request_repaint();
        }
        match chosen.and_then(|i| c.choose(i)) {
            Some(Choice::Play(i)) => self.start_campaign_level(game, i, effects),
            Some(Choice::Title) => c.screen = Screen::Title { item: 0 },
            Some(Choice::Quit) => {
                if self.editor.request_quit() {
                    effects.push(Effect::Quit);
                } else {
                    self.toggle_editor(game);
                }
            }
            None => {}
        }
        true
    }

    /// Plays campaign level `index` from its start: opened in the editor's session (so the
    /// editor, the world, the meshes, the sounds and the characters follow it), the world
    /// restarted, the simulation running.
    fn start_campaign_level(&mut self, game: &mut Game, index: usize, effects: &mut Vec<Effect>) {
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
            self.editor.open(path.clone());
            if self.editor.session.path() != Some(path.as_path()) {
                c.message = Some(format!("cannot open {}", path.display()));
                return;
            }
            if let Err(e) = game.world_mut().set_level(self.editor.session.level()) {
                c.message = Some(format!("cannot play {}: {e}", path.display()));
                return;
            }
            self.applied_revision = self.editor.session.revision();
            effects.push(Effect::LevelChanged);
            match crate::view::Cast::load(game.world(), &path, &c.data) {
                Ok(cast) => game.set_cast(cast),
                Err(e) => {
                    log::warn!("{e}");
                    c.message = Some(e.to_string());
                }
            }
        }
        if let Err(e) = game.world_mut().restart() {
            c.message = Some(e.to_string());
            return;
        }
        c.message = None;
        c.screen = super::campaign::Screen::Playing { index };
        game.snap_camera(1.0);
        game.set_paused(false);
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
            Command::ResetToSpawn => {
                let spawn = game.world().level().spawn;
                self.place_hero(game, spawn)
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

    fn settings_panel(&mut self, ui: &mut egui::Ui, game: &mut Game, effects: &mut Vec<Effect>) {
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
                ui.label(format!("{a:?}"));
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

/// The heads-up display of a game level: health, deaths and time at the top left (large enough
/// for 1280 × 720 from a sofa), and the level-complete panel once the goal is reached.
/// `complete_panel`: show the simple level-complete panel (a level played on its own; the
/// campaign has its own screen).
pub fn hud(ui: &mut egui::Ui, world: &World, complete_panel: bool) {
    let play = world.play();
    let ctx = ui.ctx().clone();
    let ticks = play.goal_tick.map_or(world.frame(), |t| t + 1);
    let time = clock(ticks);
    egui::Area::new(egui::Id::unique("hud"))
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(16.0, 12.0))
        .interactable(false)
        .show(&ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(140))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(12, 8))
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        let max = world.tuning().health;
                        let (rect, _) = ui.allocate_exact_size(
                            egui::vec2(26.0 * max as f32, 24.0),
                            egui::Sense::hover(),
                        );
                        for i in 0..max {
                            let c = rect.left_center() + egui::vec2(13.0 + 26.0 * i as f32, 0.0);
                            if i < play.health {
                                ui.painter().circle_filled(c, 9.0, HEALTH_COLOUR);
                            } else {
                                ui.painter().circle_stroke(
                                    c,
                                    8.0,
                                    egui::Stroke::new(2.0, HEALTH_COLOUR),
                                );
                            }
                        }
                        ui.add_space(12.0);
                        let text = format!("deaths {}   {time}", play.deaths);
                        ui.label(
                            egui::RichText::new(text)
                                .size(22.0)
                                .color(egui::Color32::WHITE),
                        );
                    });
                });
        });
    if complete_panel && play.goal_tick.is_some() {
        egui::Window::new("Level complete")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
            .show(&ctx, |ui| {
                ui.set_min_width(260.0);
                for line in [format!("time {time}"), format!("deaths {}", play.deaths)] {
                    ui.label(egui::RichText::new(line).size(22.0));
                }
                ui.label("Pause (Esc / Start) and Restart to play it again.");
            });
    }
}

/// The colour of the HUD's health marks.
const HEALTH_COLOUR: egui::Color32 = egui::Color32::from_rgb(230, 60, 60);

/// `ticks` of the simulation as `m:ss.cc`.
pub fn clock(ticks: u64) -> String {
    let centis = ticks * 100 / u64::from(crate::sim::TICK_HZ);
    format!(
        "{}:{:02}.{:02}",
        centis / 6000,
        centis / 100 % 60,
        centis % 100
    )
}

/// The campaign screen's title, its entries (text, enabled: a locked level is not), and
/// A summary line under the entries.
fn campaign_menu(
    c: &super::campaign::CampaignPlay,
    world: &World,
) -> (String, Vec<(String, bool)>, Option<String>) {
    use super::campaign::Screen;
    match c.screen {
        Screen::Title { .. } => {
            let next = &c.campaign.levels[c.continue_index()];
            let mut entries = vec![(format!("Play: {}", next.level.name), true)];
            for (i, l) in c.campaign.levels.iter().enumerate() {
                let unlocked = c.campaign.unlocked(&c.progress, i);
                let text = match c.progress.levels.get(&l.name) {
                    Some(r) => format!(
                        "{}   best {}, {} deaths",
                        l.level.name,
                        clock(r.best_ticks),
                        r.best_deaths
                    ),
                    None if unlocked => l.level.name.clone(),
                    None => format!("{} (locked)", l.level.name),
                };
                entries.push((text, unlocked));
            }
            entries.push(("Quit".into(), true));
            (c.campaign.name.clone(), entries, None)
        }
        Screen::Complete { index, .. } => {
            let play = world.play();
            let ticks = play.goal_tick.map_or(world.frame(), |t| t + 1);
            let best = c.progress.levels.get(&c.campaign.levels[index].name);
            let new_best = c.previous.is_none_or(|r| ticks < r.best_ticks);
            let summary = format!(
                "time {}{}   deaths {}   best {}",
                clock(ticks),
                if new_best { " (best!)" } else { "" },
                play.deaths,
                best.map_or("-".into(), |r| clock(r.best_ticks)),
            );
            let last = index + 1 == c.campaign.levels.len();
            let next = if last {
                "Campaign complete: back to the title".to_string()
            } else {
                format!("Next: {}", c.campaign.levels[index + 1].level.name)
            };
            (
                format!("{}: complete", c.campaign.levels[index].level.name),
                vec![
                    (next, true),
                    ("Play it again".into(), true),
                    ("Title".into(), true),
                ],
                Some(summary),
            )
        }
        Screen::Playing { .. } => (String::new(), Vec::new(), None),
    }
}
