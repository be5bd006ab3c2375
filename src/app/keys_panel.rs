//! The settings' key list: each action with its keys by name ([`crate::input::Input::name`]), a
//! button per key that removes it, one that waits for a key to add, one that resets the action to
//! its default keys, the gamepad buttons for reading, and a reset of every key.
//!
//! It changes nothing itself: removing and resetting return [`AppCommand::EditBindings`], and the
//! key to add arrives through the key router (`Route::Bind`, [`AppCommand::BindKey`]), both
//! applied by `GameUi::apply`.
//!
//! # Must never depend on
//! The window or the renderer: an egui view over the game's bindings.
use super::command::AppCommand;
use super::game::Game;
use super::ui::GameUi;
use crate::input::{bound_names, Action, BindingEdit, Input};

impl GameUi {
    /// The key list (see the module docs); returns the edit asked for, if any.
    pub(super) fn keys_panel(&mut self, ui: &mut egui::Ui, game: &Game) -> Option<AppCommand> {
        let bindings = game.input().bindings();
        let waiting = self.rebinding();
        let mut command = None;
        let mut wait = waiting;
        ui.label("Keys: × removes a key, + adds the next key pressed (Esc cancels).");
        egui::Grid::new("bindings").num_columns(4).show(ui, |ui| {
            for a in Action::ALL {
                ui.label(a.label());
                ui.horizontal(|ui| {
                    let keys = bindings.keyboard.get(&a).cloned().unwrap_or_default();
                    // The pause key's last key stays: without it the keyboard could not reach
                    // the menu that binds keys.
                    let removable = a != Action::Pause || keys.len() > 1;
                    for k in keys {
                        let name = Input::Key(k).name();
                        if removable {
                            let r = ui
                                .button(format!("{name} ×"))
                                .on_hover_text(format!("Unbind {name} from {}", a.label()));
                            if r.clicked() {
                                command =
                                    Some(AppCommand::EditBindings(BindingEdit::RemoveKey(a, k)));
                            }
                        } else {
                            ui.label(name);
                        }
                    }
                    let add = if waiting == Some(a) {
                        "press a key..."
                    } else {
                        "+"
                    };
                    if ui
                        .button(add)
                        .on_hover_text(format!("Add a key to {}", a.label()))
                        .clicked()
                    {
                        wait = Some(a);
                    }
                });
                if ui
                    .button("Reset")
                    .on_hover_text(format!("{}: the default keys", a.label()))
                    .clicked()
                {
                    command = Some(AppCommand::EditBindings(BindingEdit::ResetAction(a)));
                }
                ui.label(
                    egui::RichText::new(bound_names(bindings, a, true)).color(egui::Color32::GRAY),
                );
                ui.end_row();
            }
        });
        if ui.button("Reset all keys to the defaults").clicked() {
            command = Some(AppCommand::EditBindings(BindingEdit::ResetAll));
        }
        if wait != waiting {
            self.wait_for_key(wait);
        }
        command
    }
}
