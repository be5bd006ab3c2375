//! Playing the campaign in the window: the title screen (each level once, with its best time and
//! fewest deaths, the next one to play highlighted; settings; quit), the level-complete screen
//! (time, deaths, the best so far, next level), and the progress saved in the user's data
//! directory when a level is finished.
//!
//! Menus move with Up and Down and choose with Jump (or Enter, or a click), so a gamepad alone
//! drives them, as the pause menu does; the pause key (Escape, Start) backs out: it closes the
//! title's settings, and leaves the level-complete screen for the title. A results screen lets
//! no press through in its first half second, nor one of a key held from play
//! (`app::results_gate`). Which screen is up is the game's mode
//! ([`AppMode::Title`], [`AppMode::LevelComplete`]), whose simulation waits; the screens return
//! [`AppCommand`]s (`app::command` plays a level, from its file, without the editor).
use std::path::PathBuf;

use super::command::{AppCommand, MenuNav};
use super::game::Game;
use super::hud::clock;
use super::mode::AppMode;
use super::ui::GameUi;
use crate::level::campaign::{Campaign, Progress, Record};
use crate::level::DataDir;
use crate::sim::World;

/// A campaign menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    /// The title screen: 0..n the levels (the next to play highlighted when it comes up), n
    /// settings, n + 1 quit.
    Title,
    /// The level just finished: 0 next (or title after the last), 1 again, 2 title.
    Complete,
}

impl Menu {
    /// The menu shown in `mode`, if any.
    pub fn of(mode: AppMode) -> Option<Menu> {
        match mode {
            AppMode::Title => Some(Menu::Title),
            AppMode::LevelComplete => Some(Menu::Complete),
            _ => None,
        }
    }
}

/// The campaign being played.
pub struct CampaignPlay {
    /// The campaign.
    pub campaign: Campaign,
    /// The player's progress.
    pub progress: Progress,
    /// Where the progress is saved (`None`: not saved).
    progress_file: Option<PathBuf>,
    /// The level played, or just finished (at the start: the one "continue" plays).
    pub level: usize,
    /// The highlighted entry of the menu up ([`Menu`]).
    pub item: usize,
    /// The record of the level just finished, before this run (for "new best").
    pub previous: Option<Record>,
    /// Where character files are looked up.
    pub data: DataDir,
    /// A problem to show (progress that did not load or save).
    pub message: Option<String>,
}

/// What the player chose on a campaign screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Play level `index` from its start.
    Play(usize),
    /// Back to the title screen.
    Title,
    /// Show or hide the settings (the pause menu's: display, volumes, keys).
    Settings,
    /// Quit the game.
    Quit,
}

impl CampaignPlay {
    /// The campaign at its title screen, with the progress from `progress_file`.
    pub fn new(campaign: Campaign, progress_file: Option<PathBuf>, data: DataDir) -> Self {
        let (progress, error) = progress_file
            .as_deref()
            .map(Progress::load)
            .unwrap_or_default();
        let message = error.map(|e| format!("progress not read ({e}): starting afresh"));
        if let Some(m) = &message {
            log::warn!("{m}");
        }
        let level = campaign.next_to_play(&progress);
        CampaignPlay {
            campaign,
            progress,
            progress_file,
            level,
            item: level,
            previous: None,
            data,
            message,
        }
    }

    /// The level to play next: the first not yet finished (highlighted on the title screen).
    pub fn continue_index(&self) -> usize {
        self.campaign.next_to_play(&self.progress)
    }

    /// Number of entries of `menu`.
    pub fn entries(&self, menu: Menu) -> usize {
        match menu {
            Menu::Title => self.campaign.levels.len() + 2,
            Menu::Complete => 3,
        }
    }

    /// Moves the highlight of `menu` by `delta` (wrapping), skipping locked levels on the title
    /// screen.
    pub fn move_highlight(&mut self, menu: Menu, delta: isize) {
        let n = self.entries(menu) as isize;
        let mut next = (self.item as isize + delta).rem_euclid(n) as usize;
        if menu == Menu::Title {
            while next < self.campaign.levels.len() && !self.campaign.unlocked(&self.progress, next)
            {
                next = (next as isize + delta).rem_euclid(n) as usize;
            }
        }
        self.item = next;
    }

    /// What choosing entry `item` of `menu` does (`None`: nothing, e.g. a locked level).
    pub fn choose(&self, menu: Menu, item: usize) -> Option<Choice> {
        let n = self.campaign.levels.len();
        let index = self.level;
        match menu {
            Menu::Title => match item {
                i if i < n => self
                    .campaign
                    .unlocked(&self.progress, i)
                    .then_some(Choice::Play(i)),
                i if i == n => Some(Choice::Settings),
                _ => Some(Choice::Quit),
            },
            Menu::Complete => match item {
                0 if index + 1 < n => Some(Choice::Play(index + 1)),
                0 => Some(Choice::Title),
                1 => Some(Choice::Play(index)),
                _ => Some(Choice::Title),
            },
        }
    }

    /// The level played was finished in `ticks` with `deaths`: recorded and saved; the complete
    /// screen's highlight goes to its first entry.
    pub fn finished(&mut self, ticks: u64, deaths: u32) {
        let name = self.campaign.levels[self.level].name.clone();
        self.previous = self.progress.finish(&name, ticks, deaths);
        if let Some(path) = &self.progress_file {
            if let Err(e) = self.progress.save(path) {
                log::warn!("{e}");
                self.message = Some(format!("progress not saved: {e}"));
            }
        }
        self.item = 0;
    }
}

/// The campaign's screens in the game's UI pass.
impl GameUi {
    /// [`AppCommand::LevelFinished`] when a campaign level is played (not in the editor) and
    /// its goal was reached since the last frame.
    pub(super) fn level_finished(&self, game: &Game) -> Option<AppCommand> {
        let playing = matches!(game.mode(), AppMode::Playing | AppMode::Paused { .. });
        (self.campaign.is_some() && playing && game.world().goal_tick().is_some())
            .then_some(AppCommand::LevelFinished)
    }

    /// The frame's menu presses as the results screen up (the campaign's level-complete screen,
    /// or the complete panel of a level played on its own) lets them through: its gate opens
    /// when the screen comes up and closes when it goes (`app::results_gate`). Enter (the
    /// router's menu accept) is held back with the rest. Other screens get `nav` as it is.
    pub(super) fn results_nav(&mut self, game: &Game, nav: MenuNav) -> MenuNav {
        use crate::input::Action;
        let results = match game.mode() {
            AppMode::LevelComplete => self.campaign.is_some(),
            AppMode::Playing => {
                self.campaign.is_none() && game.shows_hud() && game.world().goal_tick().is_some()
            }
            _ => false,
        };
        if !results {
            self.results_gate = None;
            return nav;
        }
        let input = game.input();
        let held = [Action::Jump, Action::Up, Action::Down, Action::Pause]
            .into_iter()
            .any(|a| input.held(a));
        let now = std::time::Instant::now();
        let gate = self
            .results_gate
            .get_or_insert_with(|| super::results_gate::ResultsGate::open(now, held));
        let (nav, accept) = gate.pass(now, held, nav, self.menu_accept);
        self.menu_accept = accept;
        nav
    }

    /// The title or level-complete screen (by the game's mode): the menu moves with Up and Down
    /// and chooses with Jump, Enter or a click. Returns what was chosen.
    pub(super) fn campaign_screen(
        &mut self,
        ui: &mut egui::Ui,
        game: &Game,
        nav: MenuNav,
    ) -> Vec<AppCommand> {
        let mut commands = Vec::new();
        // While a key is being bound (the settings), the keys are the binding's.
        let free = self.rebinding().is_none();
        let (Some(c), Some(menu)) = (&mut self.campaign, Menu::of(game.mode())) else {
            return commands;
        };
        if free {
            for _ in 0..nav.up {
                c.move_highlight(menu, -1);
            }
            for _ in 0..nav.down {
                c.move_highlight(menu, 1);
            }
        }
        let item = c.item;
        let mut chosen = ((nav.accept || self.menu_accept) && free).then_some(item);
        let mut back = nav.back && free;
        if back && menu == Menu::Title && self.settings_open {
            self.settings_open = false;
            back = false;
        }
        let ctx = ui.ctx().clone();
        let (title, entries, summary) = campaign_menu(c, menu, game.world());
        let message = c.message.clone();
        let settings = self.settings_open && menu == Menu::Title;
        // With the settings open, the menu and the settings stand side by side (under the menu,
        // a campaign's list of levels and the key bindings no longer fit a 720-pixel window).
        let shift = if settings { -230.0 } else { 0.0 };
        egui::Window::new(title)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(shift, 0.0))
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
                if let Some(m) = &message {
                    ui.label(egui::RichText::new(m).color(egui::Color32::LIGHT_RED));
                }
            });
        if settings {
            let room = (ctx.content_rect().height() - 80.0).max(200.0);
            egui::Window::new("Game settings")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, egui::vec2(230.0, 0.0))
                .show(&ctx, |ui| {
                    ui.set_min_width(420.0);
                    egui::ScrollArea::vertical()
                        .max_height(room)
                        .show(ui, |ui| {
                            commands.extend(self.settings_panel(ui, game));
                        });
                });
        }
        if chosen.is_some() {
            ui.ctx().request_repaint();
        }
        let Some(c) = &mut self.campaign else {
            return commands;
        };
        if back && menu == Menu::Complete {
            commands.push(AppCommand::ShowTitle);
            return commands;
        }
        match chosen.and_then(|i| c.choose(menu, i)) {
            Some(Choice::Play(i)) => {
                self.settings_open = false;
                commands.push(AppCommand::PlayLevel(i));
            }
            Some(Choice::Title) => commands.push(AppCommand::ShowTitle),
            Some(Choice::Settings) => self.settings_open = !self.settings_open,
            Some(Choice::Quit) => commands.push(AppCommand::RequestQuit),
            None => {}
        }
        commands
    }
}

/// The campaign screen's title, its entries (text, enabled: a locked level is not), and
/// A summary line under the entries.
fn campaign_menu(
    c: &CampaignPlay,
    menu: Menu,
    world: &World,
) -> (String, Vec<(String, bool)>, Option<String>) {
    match menu {
        Menu::Title => {
            let mut entries = Vec::new();
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
            entries.push(("Settings".into(), true));
            entries.push(("Quit".into(), true));
            (c.campaign.name.clone(), entries, None)
        }
        Menu::Complete => {
            let index = c.level;
            let play = world.play();
            let ticks = world.play_ticks();
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::campaign::CAMPAIGN_FILE;
    use crate::level::file::tests::scratch_dir;

    fn play(progress: Option<PathBuf>) -> CampaignPlay {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let c = Campaign::load(&root.join(CAMPAIGN_FILE)).unwrap();
        CampaignPlay::new(c, progress, DataDir::at(root))
    }

    #[test]
    fn the_title_lists_each_level_once_highlights_the_next_and_skips_locked_ones() {
        let mut p = play(None);
        let t = Menu::Title;
        let n = p.campaign.levels.len();
        assert_eq!((p.level, p.item), (0, 0));
        assert_eq!(p.entries(t), n + 2);
        assert_eq!(p.choose(t, 0), Some(Choice::Play(0)));
        // Down from level 1: past the locked levels to the settings, then quit.
        p.move_highlight(t, 1);
        assert_eq!(p.item, n);
        assert_eq!(p.choose(t, n), Some(Choice::Settings));
        p.move_highlight(t, 1);
        assert_eq!(p.choose(t, n + 1), Some(Choice::Quit));
        // Down from quit wraps to level 1, up from it to quit.
        p.move_highlight(t, 1);
        assert_eq!(p.item, 0);
        p.move_highlight(t, -1);
        assert_eq!(p.item, n + 1);
        assert_eq!(p.choose(t, 2), None);
        p.finished(1200, 2);
        assert_eq!((p.level, p.item), (0, 0));
        let c = Menu::Complete;
        assert_eq!(p.choose(c, 0), Some(Choice::Play(1)));
        assert_eq!(p.choose(c, 1), Some(Choice::Play(0)));
        assert_eq!(p.choose(c, 2), Some(Choice::Title));
        p.move_highlight(c, -1);
        assert_eq!(p.item, 2, "the complete screen's three entries wrap");
        assert_eq!(p.continue_index(), 1);
        assert_eq!(p.choose(t, 0), Some(Choice::Play(0)));
        assert_eq!(p.choose(t, 1), Some(Choice::Play(1)));
        assert_eq!(p.choose(t, 2), None);
        // Each level once on the title: the finished one with its best time and deaths.
        let world = World::new(&p.campaign.levels[0].level, &Default::default()).unwrap();
        let (_, entries, _) = campaign_menu(&p, t, &world);
        let names: Vec<&str> = entries.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(
            names,
            [
                "1. First steps   best 0:10.00, 2 deaths",
                "2. Hills",
                "3. Rocks (locked)",
                "4. Climb (locked)",
                "5. Moving parts (locked)",
                "6. Triggered (locked)",
                "7. Doors and foes (locked)",
                "8. All together (locked)",
                "Settings",
                "Quit"
            ]
        );
    }

    #[test]
    fn finishing_saves_the_progress_and_remembers_the_previous_best() {
        let d = scratch_dir("campaign-ui");
        let file = d.join("progress.ron");
        let mut p = play(Some(file.clone()));
        let last = p.campaign.levels.len() - 1;
        p.level = last;
        p.finished(5000, 1);
        assert_eq!(p.previous, None);
        // The last level's "next" goes back to the title.
        assert_eq!(p.choose(Menu::Complete, 0), Some(Choice::Title));
        let mut again = play(Some(file.clone()));
        assert_eq!(again.progress.levels.len(), 1);
        again.level = last;
        again.finished(4000, 2);
        assert_eq!(
            again.previous,
            Some(Record {
                best_ticks: 5000,
                best_deaths: 1
            })
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
