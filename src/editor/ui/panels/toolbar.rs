//! The toolbar (file menu, undo and redo, the tools and the Objects menu, grid, simulation
//! controls) and the status bar.
use egui::Ui;

use super::super::{Command, Dialog, EditorUi};
use crate::editor::session::Tool;

/// File, history, tools, grid and simulation controls.
pub fn toolbar(ed: &mut EditorUi, ui: &mut Ui, out: &mut Vec<Command>) {
    egui::Panel::top("editor_toolbar").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            // File operations in a menu: one row at 1280 px (shortcuts Ctrl+S, Ctrl+O).
            ui.menu_button("File", |ui| {
                if ui.button("Open... (Ctrl+O)").clicked() {
                    ed.open_dialog();
                    ui.close();
                }
                if ui.button("Save (Ctrl+S)").clicked() {
                    ed.save();
                    ui.close();
                }
                if ui.button("Save as...").clicked() {
                    ed.dialog = Some(Dialog::Path {
                        save: true,
                        text: ed
                            .session
                            .path()
                            .map(|p| p.display().to_string())
                            .unwrap_or_default(),
                    });
                    ui.close();
                }
            });
            ui.separator();
            let s = &mut ed.session;
            if ui
                .add_enabled(s.history().can_undo(), egui::Button::new("Undo"))
                .clicked()
            {
                s.undo();
            }
            if ui
                .add_enabled(s.history().can_redo(), egui::Button::new("Redo"))
                .clicked()
            {
                s.redo();
            }
            ui.separator();
            for tool in Tool::all().into_iter().filter(|t| !t.is_object()) {
                if ui
                    .selectable_label(s.tool == tool, tool.label())
                    .on_hover_text(tool.hint())
                    .clicked()
                {
                    s.set_tool(tool);
                }
            }
            // The object tools in one menu: the toolbar stays one row at 1280 px however many
            // object kinds there are.
            let objects = if s.tool.is_object() {
                format!("Objects: {}", s.tool.label())
            } else {
                "Objects".to_string()
            };
            ui.menu_button(objects, |ui| {
                for tool in Tool::all().into_iter().filter(|t| t.is_object()) {
                    if ui
                        .selectable_label(s.tool == tool, tool.label())
                        .on_hover_text(tool.hint())
                        .clicked()
                    {
                        s.set_tool(tool);
                        ui.close();
                    }
                }
            });
            ui.separator();
            let grid = ui.checkbox(&mut s.grid.enabled, "Grid");
            let mut size = s.grid.size();
            if ui
                .add(
                    egui::DragValue::new(&mut size)
                        .range(0.01..=10.0)
                        .speed(0.01)
                        .suffix(" m"),
                )
                .labelled_by(grid.id)
                .on_hover_text("grid size")
                .changed()
            {
                s.grid.set_size(size);
            }
            ui.separator();
            let sim = ed.sim;
            let run = if sim.running { "Pause" } else { "Run" };
            if ui.button(run).clicked() {
                out.push(Command::SetRunning(!sim.running));
            }
            if ui
                .add_enabled(!sim.running, egui::Button::new("Step"))
                .on_hover_text("one 120 Hz tick (.)")
                .clicked()
            {
                out.push(Command::Step);
            }
            if ui
                .button("Reset")
                .on_hover_text(
                    "the level as it starts: the hero at the spawn, the agents, doors and movers \
                     back (the movers at the scrubbed time when the scrubber is on)",
                )
                .clicked()
            {
                out.push(Command::Reset {
                    mover_time: ed.scrub.unwrap_or(0.0),
                });
            }
            let rec = if sim.recording { "Stop" } else { "Record" };
            if ui
                .button(rec)
                .on_hover_text("record a play-test from here, to play it back after an edit")
                .clicked()
            {
                out.push(if sim.recording {
                    Command::StopRecording
                } else {
                    Command::RecordPlaytest
                });
            }
            if ui
                .add_enabled(
                    sim.playtest_ticks.is_some() && !sim.recording,
                    egui::Button::new("Play back"),
                )
                .on_hover_text(
                    "the recorded play-test again from its start, on the level as it is now",
                )
                .clicked()
            {
                out.push(Command::PlayBack);
            }
            ui.separator();
            if ui
                .button("Play (Tab)")
                .on_hover_text("close the editor and play on")
                .clicked()
            {
                out.push(Command::Leave);
            }
        });
    });
}

/// The Solve button (the solver's result comes as the status), the file, its unsaved mark, the
/// pointer position, the last message and the level's design warnings.
pub fn status_bar(ed: &mut EditorUi, ui: &mut Ui) {
    egui::Panel::bottom("editor_status").show(ui, |ui| {
        ui.horizontal(|ui| {
            // Solve first: the line after it can be long.
            let solving = ed.solver.running();
            let label = match solving {
                Some(t) => format!("Solving {t:.0} s"),
                None => "Solve".into(),
            };
            if ui
                .add_enabled(solving.is_none(), egui::Button::new(label))
                .on_hover_text(
                    "search for a route from the spawn to the goal (inputs changed at most every \
                     4 ticks, as tessera solve does), drawn over the level with its narrowest \
                     presses marked",
                )
                .clicked()
            {
                ed.solve();
            }
            ui.separator();
            let s = &ed.session;
            // The file's name; its full path on hover.
            let name = s.path().map_or("(new level)".to_string(), |p| {
                p.file_name().map_or(p.display().to_string(), |n| {
                    n.to_string_lossy().into_owned()
                })
            });
            let mark = if s.dirty() { " (unsaved changes)" } else { "" };
            let full = s
                .path()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            ui.label(format!("{name}{mark}")).on_hover_text(full);
            ui.separator();
            if let Some(p) = ed.pointer_world() {
                ui.monospace(format!("{:8.2} {:8.2}", p.x, p.y));
                ui.separator();
            }
            if let Some(st) = &ed.status {
                ui.label(st);
                ui.separator();
            }
            // The design warnings, live: the first in full, every one on hover.
            let warnings = ed.design_warnings();
            if let Some(first) = warnings.first() {
                let more = match warnings.len() {
                    1 => String::new(),
                    n => format!(" (+{} more)", n - 1),
                };
                let all: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
                ui.colored_label(
                    egui::Color32::from_rgb(240, 200, 80),
                    format!("warning: {first}{more}"),
                )
                .on_hover_text(all.join("\n"));
            }
        });
    });
}
