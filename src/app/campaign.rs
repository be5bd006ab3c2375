//! Playing the campaign in the window: the title screen (continue, level select, quit), the
//! level-complete screen (time, deaths, the best so far, next level), and the progress saved in
//! the user's data directory when a level is finished.
//!
//! Menus move with Up and Down and choose with Jump (or Enter, or a click), so a gamepad alone
//! drives them, as the pause menu does. While a menu is up the simulation is paused.
//!
//! Switching levels goes through the editor's session (`EditorUi::open`), so the editor, the
//! world, the render meshes, the sound map and the agents' characters all follow one level.
use std::path::PathBuf;

use super::game::Game;
use super::hud::clock;
use super::ui::{Effect, GameUi};
use crate::input::UiActions;
use crate::level::campaign::{Campaign, Progress, Record};
use crate::level::DataDir;
use crate::sim::World;

/// Which campaign screen is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The title screen; `item` is the highlighted entry.
    Title {
        /// The highlighted entry: 0 continue, 1..=n the levels, n + 1 settings, n + 2 quit.
        item: usize,
    },
    /// Playing level `index`.
    Playing {
        /// Index in the campaign.
        index: usize,
    },
    /// Level `index` was just finished; `item`: 0 next (or title after the last), 1 again,
    /// 2 title.
    Complete {
        /// Index in the campaign.
        index: usize,
        /// The highlighted entry.
        item: usize,
    },
}

/// The campaign being played.
pub struct CampaignPlay {
    /// The campaign.
    pub campaign: Campaign,
    /// The player's progress.
    pub progress: Progress,
    /// Where the progress is saved (`None`: not saved).
    progress_file: Option<PathBuf>,
    /// The screen up now.
    pub screen: Screen,
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
        CampaignPlay {
            campaign,
            progress,
            progress_file,
            screen: Screen::Title { item: 0 },
            previous: None,
            data,
            message,
        }
    }

    /// Whether a menu is up (the simulation waits).
    pub fn menu_up(&self) -> bool {
        !matches!(self.screen, Screen::Playing { .. })
    }

    /// The level the title screen's "continue" plays.
    pub fn continue_index(&self) -> usize {
        self.campaign.next_to_play(&self.progress)
    }

    /// Number of entries of the current menu.
    pub fn entries(&self) -> usize {
        match self.screen {
            Screen::Title { .. } => self.campaign.levels.len() + 3,
            Screen::Complete { .. } => 3,
            Screen::Playing { .. } => 0,
        }
    }

    /// Moves the highlight by `delta` (wrapping), skipping locked levels on the title screen.
    pub fn move_highlight(&mut self, delta: isize) {
        let n = self.entries();
        if n == 0 {
            return;
        }
        let step = |i: usize| (i as isize + delta).rem_euclid(n as isize) as usize;
        match &mut self.screen {
            Screen::Title { item } => {
                let mut next = step(*item);
                while (1..=self.campaign.levels.len()).contains(&next)
                    && !self.campaign.unlocked(&self.progress, next - 1)
                {
                    next = (next as isize + delta).rem_euclid(n as isize) as usize;
                }
                *item = next;
            }
            Screen::Complete { item, .. } => *item = step(*item),
            Screen::Playing { .. } => {}
        }
    }

    /// What choosing entry `item` of the current menu does (`None`: nothing, e.g. a locked
    /// level).
    pub fn choose(&self, item: usize) -> Option<Choice> {
        let n = self.campaign.levels.len();
        match self.screen {
            Screen::Title { .. } => match item {
                0 => Some(Choice::Play(self.continue_index())),
                i if i <= n => self
                    .campaign
                    .unlocked(&self.progress, i - 1)
                    .then_some(Choice::Play(i - 1)),
                i if i == n + 1 => Some(Choice::Settings),
                _ => Some(Choice::Quit),
            },
            Screen::Complete { index, .. } => match item {
                0 if index + 1 < n => Some(Choice::Play(index + 1)),
                0 => Some(Choice::Title),
                1 => Some(Choice::Play(index)),
                _ => Some(Choice::Title),
            },
            Screen::Playing { .. } => None,
        }
    }

    /// Level `index` was finished in `ticks` with `deaths`: recorded and saved; the complete
    /// screen comes up.
    pub fn finished(&mut self, index: usize, ticks: u64, deaths: u32) {
        let name = self.campaign.levels[index].name.clone();
        self.previous = self.progress.finish(&name, ticks, deaths);
        if let Some(path) = &self.progress_file {
            if let Err(e) = self.progress.save(path) {
                log::warn!("{e}");
                self.message = Some(format!("progress not saved: {e}"));
            }
        }
        self.screen = Screen::Complete { index, item: 0 };
    }
}

/// The campaign's screens in the game's UI pass.
impl GameUi {
    /// The campaign's screens: the level just finished is recorded; while the title or
    /// level-complete screen is up the simulation waits, the menu moves with Up and Down and
    /// chooses with Jump, Enter or a click. Returns whether a campaign screen was drawn.
    pub(super) fn campaign_screens(
        &mut self,
        ui: &mut egui::Ui,
        game: &mut Game,
        nav: UiActions,
        effects: &mut Vec<Effect>,
    ) -> bool {
        // While a key is being bound (the settings), the keys are the binding's.
        let free = self.rebinding().is_none();
        let Some(c) = &mut self.campaign else {
            return false;
        };
        if let Screen::Playing { index } = c.screen {
            let p = game.world().play();
            if p.goal_tick.is_some() {
                let (ticks, deaths) = (game.world().play_ticks(), p.deaths);
                c.finished(index, ticks, deaths);
            }
        }
        if !c.menu_up() {
            return false;
        }
        game.set_paused(true);
        if nav.up && free {
            c.move_highlight(-1);
        }
        if nav.down && free {
            c.move_highlight(1);
        }
        let item = match c.screen {
            Screen::Title { item } | Screen::Complete { item, .. } => item,
            Screen::Playing { .. } => 0,
        };
        let mut chosen = ((nav.accept || self.menu_accept) && free).then_some(item);
        let ctx = ui.ctx().clone();
        let (title, entries, summary) = campaign_menu(c, game.world());
        let message = c.message.clone();
        let settings = self.settings_open && matches!(c.screen, Screen::Title { .. });
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
                if let Some(m) = &message {
                    ui.label(egui::RichText::new(m).color(egui::Color32::LIGHT_RED));
                }
                if settings {
                    ui.separator();
                    self.settings_panel(ui, game, effects);
                }
            });
        if chosen.is_some() {
            ui.ctx().request_repaint();
        }
        let Some(c) = &mut self.campaign else {
            return true;
        };
        match chosen.and_then(|i| c.choose(i)) {
            Some(Choice::Play(i)) => {
                self.settings_open = false;
                self.start_campaign_level(game, i, effects)
            }
            Some(Choice::Title) => c.screen = Screen::Title { item: 0 },
            Some(Choice::Settings) => self.settings_open = !self.settings_open,
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
        c.screen = Screen::Playing { index };
        game.snap_camera(1.0);
        game.set_paused(false);
    }
}

/// The campaign screen's title, its entries (text, enabled: a locked level is not), and
/// A summary line under the entries.
fn campaign_menu(c: &CampaignPlay, world: &World) -> (String, Vec<(String, bool)>, Option<String>) {
    use Screen;
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
            entries.push(("Settings".into(), true));
            entries.push(("Quit".into(), true));
            (c.campaign.name.clone(), entries, None)
        }
        Screen::Complete { index, .. } => {
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
        Screen::Playing { .. } => (String::new(), Vec::new(), None),
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
    fn the_title_continues_at_the_first_unfinished_level_and_skips_locked_ones() {
        let mut p = play(None);
        assert_eq!(p.choose(0), Some(Choice::Play(0)));
        // Down from "continue": level 1, then past the three locked levels to the settings, then
        // quit.
        p.move_highlight(1);
        assert_eq!(p.screen, Screen::Title { item: 1 });
        p.move_highlight(1);
        assert_eq!(p.screen, Screen::Title { item: 5 });
        assert_eq!(p.choose(5), Some(Choice::Settings));
        p.move_highlight(1);
        assert_eq!(p.choose(6), Some(Choice::Quit));
        // Up from "continue" wraps to quit.
        p.move_highlight(1);
        p.move_highlight(-1);
        assert_eq!(p.screen, Screen::Title { item: 6 });
        assert_eq!(p.choose(3), None);
        p.finished(0, 1200, 2);
        assert_eq!(p.screen, Screen::Complete { index: 0, item: 0 });
        assert_eq!(p.choose(0), Some(Choice::Play(1)));
        assert_eq!(p.choose(1), Some(Choice::Play(0)));
        assert_eq!(p.choose(2), Some(Choice::Title));
        p.screen = Screen::Title { item: 0 };
        assert_eq!(p.choose(0), Some(Choice::Play(1)));
        assert_eq!(p.choose(2), Some(Choice::Play(1)));
    }

    #[test]
    fn finishing_saves_the_progress_and_remembers_the_previous_best() {
        let d = scratch_dir("campaign-ui");
        let file = d.join("progress.ron");
        let mut p = play(Some(file.clone()));
        p.finished(3, 5000, 1);
        assert_eq!(p.previous, None);
        // The last level's "next" goes back to the title.
        assert_eq!(p.choose(0), Some(Choice::Title));
        let mut again = play(Some(file.clone()));
        assert_eq!(again.progress.levels.len(), 1);
        again.finished(3, 4000, 2);
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
