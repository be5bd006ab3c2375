//! The controls card: every action with the keys the player has bound to it, one line each, by
//! the names players use ("Space or K"), or the gamepad's buttons when a gamepad was used last
//! (`InputState::pad_last`). Shown on the campaign's title and on the pause menu, beside the
//! menu and never over it; hidden while the settings (whose key list says the same and edits it)
//! are open. It takes no input: an area that cannot be clicked or focused, so the menus'
//! navigation (Up, Down, Jump, Escape) is exactly what it was without it.
//!
//! # Must never depend on
//! The window or the renderer: an egui view over the bindings, as the key list is.
use crate::input::{bound_names, Action, Bindings};

/// The card's lines: each action's label ([`Action::label`]) and its keys (`pad` false) or
/// gamepad buttons (`pad` true) as one line of text; an action with none on that device says
/// "not bound". The same bindings the signs name keys from.
pub fn controls_lines(bindings: &Bindings, pad: bool) -> Vec<(&'static str, String)> {
    Action::ALL
        .into_iter()
        .map(|a| {
            let names = bound_names(bindings, a, pad);
            let keys = if names.is_empty() {
                "not bound".to_string()
            } else {
                names
            };
            (a.label(), keys)
        })
        .collect()
}

/// Draws the card at the left of the screen (see the module docs).
pub fn controls_card(ctx: &egui::Context, bindings: &Bindings, pad: bool) {
    let heading = if pad {
        "Controls (gamepad)"
    } else {
        "Controls"
    };
    egui::Area::new(egui::Id::unique("controls card"))
        .anchor(egui::Align2::LEFT_CENTER, egui::vec2(24.0, 0.0))
        .interactable(false)
        .order(egui::Order::Background)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(200))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(14, 10))
                .show(ui, |ui| {
                    ui.label(
                        egui::RichText::new(heading)
                            .size(20.0)
                            .color(egui::Color32::from_rgb(240, 190, 70)),
                    );
                    egui::Grid::new("controls card lines")
                        .num_columns(2)
                        .spacing([16.0, 4.0])
                        .show(ui, |ui| {
                            for (label, keys) in controls_lines(bindings, pad) {
                                ui.label(
                                    egui::RichText::new(label)
                                        .size(16.0)
                                        .color(egui::Color32::LIGHT_GRAY),
                                );
                                ui.label(
                                    egui::RichText::new(keys)
                                        .size(16.0)
                                        .color(egui::Color32::WHITE),
                                );
                                ui.end_row();
                            }
                        });
                });
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{BindingEdit, Key};

    #[test]
    fn the_card_has_a_line_per_action_with_its_keys_as_players_name_them() {
        let mut b = Bindings::default();
        let lines = controls_lines(&b, false);
        assert_eq!(lines.len(), Action::COUNT);
        assert!(lines.contains(&("Jump", "Space or K".to_string())));
        assert!(lines.contains(&("Crouch", "C or Left Ctrl".to_string())));
        let pad = controls_lines(&b, true);
        assert!(pad.contains(&("Jump", "A button".to_string())));
        assert!(pad.contains(&("Level editor", "not bound".to_string())));
        b.edit(BindingEdit::AddKey(Action::Attack, Key::KeyH));
        let attack = controls_lines(&b, false)
            .into_iter()
            .find(|(l, _)| *l == "Attack")
            .unwrap();
        assert!(attack.1.ends_with(" or H"), "{}", attack.1);
    }
}
