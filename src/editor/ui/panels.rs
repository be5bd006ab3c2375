//! The editor's panels, one function each: toolbar, status bar, the left panel (hero, overlays,
//! tuning, frame times, level), the selection panel, and the dialogs.
use std::path::PathBuf;

use egui::{Color32, RichText, Ui};
use glam::DVec2;

use super::{Command, Dialog, EditorUi, Then};
use crate::collision::{Aabb, PolygonKind};
use crate::editor::recovery;
use crate::editor::session::Tool;
use crate::editor::Edit;
use crate::level::{save_tuning, Level};
use crate::movement::{tuning, FieldMut, MoveState};
use crate::sim::World;

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
            for tool in Tool::ALL.into_iter().filter(|t| !t.is_object()) {
                if ui.selectable_label(s.tool == tool, tool.label()).clicked() {
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
                for tool in Tool::ALL.into_iter().filter(|t| t.is_object()) {
                    if ui.selectable_label(s.tool == tool, tool.label()).clicked() {
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
                .on_hover_text("the hero back to the spawn point")
                .clicked()
            {
                out.push(Command::ResetToSpawn);
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

/// The file, its unsaved mark, the pointer position and the last message.
pub fn status_bar(ed: &mut EditorUi, ui: &mut Ui) {
    egui::Panel::bottom("editor_status").show(ui, |ui| {
        ui.horizontal(|ui| {
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
            }
        });
    });
}

/// Hero, overlays, tuning, frame times and the level's figures.
pub fn left(ed: &mut EditorUi, ui: &mut Ui, world: &World, out: &mut Vec<Command>) {
    egui::Panel::left("editor_left")
        .resizable(true)
        .default_size(280.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                egui::CollapsingHeader::new("Hero")
                    .default_open(true)
                    .show(ui, |ui| hero(ui, world));
                egui::CollapsingHeader::new("Collision overlay")
                    .default_open(false)
                    .show(ui, |ui| overlay(ed, ui, world));
                egui::CollapsingHeader::new("Movement tuning")
                    .default_open(false)
                    .show(ui, |ui| tuning_panel(ed, ui, out));
                egui::CollapsingHeader::new("Frame time")
                    .default_open(true)
                    .show(ui, |ui| frame_graph(ed, ui));
                egui::CollapsingHeader::new("Level")
                    .default_open(true)
                    .show(ui, |ui| level_panel(ed, ui, world));
            });
        });
}

fn hero(ui: &mut Ui, world: &World) {
    let h = world.hero();
    let state = match h.state {
        MoveState::Supported { edge, speed } => {
            format!(
                "supported, edge {:?}/{}, {:.2} m/s",
                edge.face.0, edge.edge, speed
            )
        }
        s => format!("{s:?}"),
    };
    egui::Grid::new("hero_grid").num_columns(2).show(ui, |ui| {
        ui.label("state");
        ui.label(state);
        ui.end_row();
        ui.label("ticks in state");
        ui.label(h.ticks_in_state.to_string());
        ui.end_row();
        ui.label("position");
        ui.monospace(format!("{:.3}, {:.3}", h.body.pos.x, h.body.pos.y));
        ui.end_row();
        ui.label("face");
        ui.label(format!("{}", h.body.face.0));
        ui.end_row();
        ui.label("velocity");
        ui.monospace(format!("{:.2}, {:.2}", h.vel.x, h.vel.y));
        ui.end_row();
        ui.label("collider");
        ui.label(if h.crouching() {
            "crouching"
        } else {
            "standing"
        });
        ui.end_row();
        ui.label("tick");
        ui.label(world.frame().to_string());
        ui.end_row();
    });
    let events = &world.last_report().events;
    if !events.is_empty() {
        ui.label(format!("events: {events:?}"));
    }
}

fn overlay(ed: &mut EditorUi, ui: &mut Ui, world: &World) {
    let n = world.collision().shapes().len().min(ed.overlay.len());
    for (i, layers) in ed.overlay.iter_mut().enumerate().take(n) {
        let name = if i == 0 { "standing" } else { "crouching" };
        ui.label(RichText::new(format!("{name} collider")).strong());
        ui.horizontal(|ui| {
            ui.checkbox(&mut layers.triangles, "triangles");
            ui.checkbox(&mut layers.solid, "solid faces");
            ui.checkbox(&mut layers.inflated, "inflated");
        });
    }
}

fn tuning_panel(ed: &mut EditorUi, ui: &mut Ui, out: &mut Vec<Command>) {
    let mut changed = false;
    for f in ed.tuning.fields_mut() {
        let doc = f.doc.trim();
        match f.value {
            FieldMut::Number(v) => {
                let (lo, hi) = tuning::range(f.name).unwrap_or((0.0, 100.0));
                let hi = hi.min(lo.max(1.0) * 100.0).max(*v);
                changed |= ui
                    .add(
                        egui::Slider::new(v, lo..=hi)
                            .logarithmic(hi / lo.max(1e-3) > 200.0)
                            .text(f.name),
                    )
                    .on_hover_text(doc)
                    .changed();
            }
            FieldMut::Count(v) => {
                let (lo, hi) = tuning::range(f.name).unwrap_or((0.0, 10.0));
                changed |= ui
                    .add(egui::Slider::new(v, lo as u32..=hi as u32).text(f.name))
                    .on_hover_text(doc)
                    .changed();
            }
            FieldMut::Flag(v) => {
                changed |= ui.checkbox(v, f.name).on_hover_text(doc).changed();
            }
            FieldMut::Collider(_) => {
                ui.label(format!("{} (edit in the tuning file)", f.name))
                    .on_hover_text(doc);
            }
        }
    }
    if changed {
        out.push(Command::SetTuning(Box::new(ed.tuning.clone())));
    }
    ui.horizontal(|ui| {
        let path = ed.tuning_path.clone();
        if ui
            .add_enabled(path.is_some(), egui::Button::new("Save tuning"))
            .on_hover_text(
                path.as_ref()
                    .map_or("no tuning file".into(), |p| p.display().to_string()),
            )
            .clicked()
        {
            if let Some(p) = path {
                match save_tuning(&p, &ed.tuning) {
                    Ok(()) => {
                        ed.tuning_saved = ed.tuning.clone();
                        ed.status = Some(format!("saved {}", p.display()));
                    }
                    Err(e) => ed.status = Some(format!("tuning not saved: {e}")),
                }
            }
        }
        if ui
            .add_enabled(ed.tuning != ed.tuning_saved, egui::Button::new("Revert"))
            .clicked()
        {
            ed.tuning = ed.tuning_saved.clone();
            out.push(Command::SetTuning(Box::new(ed.tuning.clone())));
        }
    });
}

fn frame_graph(ed: &EditorUi, ui: &mut Ui) {
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), 60.0), egui::Sense::hover());
    let p = ui.painter_at(rect);
    p.rect_filled(rect, 2.0, Color32::from_black_alpha(120));
    // 0 ms at the bottom, 33 ms at the top; the 16.7 ms line marks one 60 Hz frame.
    let scale = rect.height() / 33.3;
    let y16 = rect.bottom() - 16.7 * scale;
    p.line_segment(
        [egui::pos2(rect.left(), y16), egui::pos2(rect.right(), y16)],
        egui::Stroke::new(1.0, Color32::from_gray(90)),
    );
    let n = super::FRAME_HISTORY as f32;
    let colours = [
        Color32::from_rgb(90, 200, 255),
        Color32::from_rgb(150, 255, 120),
        Color32::from_rgb(255, 170, 60),
        Color32::from_rgb(230, 110, 230),
    ];
    for (k, c) in colours.iter().enumerate() {
        let pts: Vec<egui::Pos2> = ed
            .frame_times()
            .enumerate()
            .map(|(i, t)| {
                let v = [t.sim, t.ui, t.render, t.present][k];
                egui::pos2(
                    rect.left() + i as f32 / n * rect.width(),
                    (rect.bottom() - v * scale).max(rect.top()),
                )
            })
            .collect();
        if pts.len() > 1 {
            p.add(egui::Shape::line(pts, egui::Stroke::new(1.0, *c)));
        }
    }
    if let Some(t) = ed.frame_times().last() {
        ui.label(format!(
            "sim {:.2}, UI {:.2}, render {:.2}, GPU + present {:.2} ms",
            t.sim, t.ui, t.render, t.present
        ));
    }
}

fn level_panel(ed: &mut EditorUi, ui: &mut Ui, world: &World) {
    let level = ed.session.level();
    let vertices: usize = level.polygons.iter().map(|p| p.points.len()).sum();
    let triangles: Vec<String> = (0..world.collision().shapes().len())
        .map(|i| {
            world
                .collision()
                .mesh(crate::collision::ColliderId(i as u16))
                .num_faces()
                .to_string()
        })
        .collect();
    ui.label(format!(
        "{} polygons, {} vertices, {} ladders",
        level.polygons.len(),
        vertices,
        level.ladders.len()
    ));
    ui.label(format!("triangles per mesh: {}", triangles.join(" / ")));
    let at = level.spawn;
    let mut spawn = level.spawn;
    ui.horizontal(|ui| {
        ui.label("spawn");
        let a = num(ui, &mut spawn.x, 0.05, "x");
        let b = num(ui, &mut spawn.y, 0.05, "y");
        if (a.changed() || b.changed()) && spawn != at {
            let _ = ed.session.edit(Edit::MoveSpawn { to: spawn }, at);
        }
    });
    let bounds = ed.session.level().bounds;
    if let Some(b) = bounds_editor(ui, "level bounds", bounds) {
        let _ = ed.session.edit(Edit::SetBounds { bounds: b }, at);
    }
    let cam = ed.session.level().camera_bounds;
    if let Some(b) = bounds_editor(ui, "camera bounds", cam) {
        let _ = ed.session.edit(Edit::SetCameraBounds { bounds: b }, at);
    }
    game_regions(ed, ui, world);
}

/// The goal and the checkpoints: a region each, edited as numbers; a new checkpoint is placed
/// where the hero stands (1 × 2.5 m, its feet at the bottom centre).
fn game_regions(ed: &mut EditorUi, ui: &mut Ui, world: &World) {
    ui.separator();
    let at = world.hero().body.pos;
    let goal = ed.session.level().goal;
    if let Some(g) = bounds_editor(ui, "goal", goal) {
        let _ = ed.session.edit(Edit::SetGoal { goal: g }, at);
    }
    let mut checkpoints = ed.session.level().checkpoints.clone();
    let mut changed = false;
    let mut delete = None;
    for (i, c) in checkpoints.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("checkpoint {i}"));
            if ui.small_button("delete").clicked() {
                delete = Some(i);
            }
        });
        ui.horizontal(|ui| {
            for (v, name) in [
                (&mut c.min.x, "x0"),
                (&mut c.min.y, "y0"),
                (&mut c.max.x, "x1"),
                (&mut c.max.y, "y1"),
            ] {
                changed |= num(ui, v, 0.1, name).changed();
            }
        });
    }
    if let Some(i) = delete {
        checkpoints.remove(i);
        changed = true;
    }
    if ui.button("Add checkpoint at the hero").clicked() {
        checkpoints.push(Aabb {
            min: at - DVec2::new(0.5, 0.0),
            max: at + DVec2::new(0.5, 2.5),
        });
        changed = true;
    }
    if changed {
        let _ = ed.session.edit(Edit::SetCheckpoints { checkpoints }, at);
    }
}

/// A checkbox and four fields; `Some(new)` when the user changed it.
fn bounds_editor(ui: &mut Ui, label: &str, b: Option<Aabb>) -> Option<Option<Aabb>> {
    let mut on = b.is_some();
    let mut r = b.unwrap_or(Aabb {
        min: DVec2::new(-20.0, -10.0),
        max: DVec2::new(20.0, 20.0),
    });
    let mut changed = false;
    ui.horizontal(|ui| {
        changed |= ui.checkbox(&mut on, label).changed();
    });
    if on {
        ui.horizontal(|ui| {
            for (v, name) in [
                (&mut r.min.x, "x0"),
                (&mut r.min.y, "y0"),
                (&mut r.max.x, "x1"),
                (&mut r.max.y, "y1"),
            ] {
                changed |= num(ui, v, 0.1, name).changed();
            }
        });
    }
    changed.then_some(on.then_some(r))
}

/// The selection: numeric fields, kind, material, colour, transforms.
pub fn right(ed: &mut EditorUi, ui: &mut Ui) {
    egui::Panel::right("editor_selection")
        .resizable(true)
        .default_size(240.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| selection(ed, ui));
        });
}

fn selection(ed: &mut EditorUi, ui: &mut Ui) {
    let s = &mut ed.session;
    ui.heading("Selection");
    if s.selection.is_empty() {
        ui.label("Nothing selected. Click a polygon, a vertex, a ladder or an object; drag on empty space to box-select; shift adds.");
        super::objects::panel(ed, ui);
        return;
    }
    let polys = s.selected_polygons();
    if let Some(pi) = s.selection.single_polygon() {
        polygon_fields(ed, ui, pi);
    } else if !polys.is_empty() {
        ui.label(format!(
            "{} polygons, {} vertices",
            s.selection.polygons.len(),
            s.selection.vertices.len()
        ));
    }
    let s = &mut ed.session;
    if !polys.is_empty() {
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("rotate");
            for deg in [-90.0, -15.0, 15.0, 90.0] {
                if ui.button(format!("{deg:+} deg")).clicked() {
                    s.rotate_selection(deg);
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("scale");
            for (label, f) in [
                ("1/2", DVec2::splat(0.5)),
                ("x2", DVec2::splat(2.0)),
                ("flip x", DVec2::new(-1.0, 1.0)),
                ("flip y", DVec2::new(1.0, -1.0)),
            ] {
                if ui.button(label).clicked() {
                    s.scale_selection(f);
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("One-way").clicked() {
                s.set_kind(PolygonKind::OneWay);
            }
            if ui.button("Solid").clicked() {
                s.set_kind(PolygonKind::Solid);
            }
            if ui.button("Hazard").clicked() {
                s.set_kind(PolygonKind::Hazard);
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Copy").clicked() {
                s.copy();
            }
            if ui.button("Delete").clicked() {
                s.delete_selection();
            }
        });
    }
    if let Some(li) = ed.session.selection.ladder {
        ladder_fields(ed, ui, li);
    }
    super::objects::panel(ed, ui);
}

fn polygon_fields(ed: &mut EditorUi, ui: &mut Ui, pi: usize) {
    let s = &mut ed.session;
    let Some(poly) = s.level().polygons.get(pi).cloned() else {
        return;
    };
    let at = poly.points[0];
    ui.label(RichText::new(format!("polygon {pi}")).strong());
    let mut kind = poly.kind;
    egui::ComboBox::from_label("kind")
        .selected_text(match kind {
            PolygonKind::Solid => "solid",
            PolygonKind::OneWay => "one-way",
            PolygonKind::Door => "door",
            PolygonKind::Hazard => "hazard",
        })
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut kind, PolygonKind::Solid, "solid");
            ui.selectable_value(&mut kind, PolygonKind::OneWay, "one-way");
            ui.selectable_value(&mut kind, PolygonKind::Hazard, "hazard");
        });
    if kind != poly.kind {
        let _ = s.edit(Edit::SetKind { polygon: pi, kind }, at);
    }
    let mut material = poly.material.clone().unwrap_or_default();
    ui.horizontal(|ui| {
        let l = ui.label("material");
        if ui
            .text_edit_singleline(&mut material)
            .labelled_by(l.id)
            .lost_focus()
        {
            let m = (!material.trim().is_empty()).then(|| material.trim().to_string());
            if m != poly.material {
                let _ = s.edit(
                    Edit::SetMaterial {
                        polygon: pi,
                        material: m,
                    },
                    at,
                );
            }
        }
    });
    ui.horizontal(|ui| {
        let mut custom = poly.colour.is_some();
        let mut c = poly.colour.unwrap_or([0.5, 0.5, 0.5]);
        let a = ui.checkbox(&mut custom, "colour").changed();
        let b = custom && ui.color_edit_button_rgb(&mut c).changed();
        if a || b {
            let colour = custom.then_some(c);
            let _ = s.edit(
                Edit::SetColour {
                    polygon: pi,
                    colour,
                },
                at,
            );
        }
    });
    ui.label("vertices");
    let mut moved = None;
    egui::Grid::new("vertex_grid")
        .num_columns(3)
        .show(ui, |ui| {
            for (vi, &q) in poly.points.iter().enumerate() {
                let mut p = q;
                let sel = s.selection.vertices.contains(&(pi, vi));
                ui.label(if sel {
                    RichText::new(vi.to_string()).color(super::colours::SELECTED)
                } else {
                    RichText::new(vi.to_string())
                });
                let a = num(ui, &mut p.x, 0.01, "x");
                let b = num(ui, &mut p.y, 0.01, "y");
                if (a.changed() || b.changed()) && p != q {
                    moved = Some((vi, p - q));
                }
                ui.end_row();
            }
        });
    if let Some((vi, delta)) = moved {
        let _ = s.edit(
            Edit::MoveVertices {
                polygon: pi,
                vertices: vec![vi],
                delta,
            },
            poly.points[vi],
        );
    }
}

fn ladder_fields(ed: &mut EditorUi, ui: &mut Ui, li: usize) {
    let s = &mut ed.session;
    let Some(&l) = s.level().ladders.get(li) else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(format!("ladder {li}")).strong());
    let mut m = l;
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("min");
        changed |= num(ui, &mut m.min.x, 0.05, "x").changed();
        changed |= num(ui, &mut m.min.y, 0.05, "y").changed();
    });
    ui.horizontal(|ui| {
        ui.label("max");
        changed |= num(ui, &mut m.max.x, 0.05, "x").changed();
        changed |= num(ui, &mut m.max.y, 0.05, "y").changed();
    });
    if changed && m != l {
        let _ = s.edit(
            Edit::SetLadder {
                index: li,
                ladder: m,
            },
            l.min,
        );
    }
    if ui.button("Delete ladder").clicked() {
        s.delete_selection();
    }
}

/// A number field with its name in front (the name is also its accessible label).
pub(super) fn num(ui: &mut Ui, v: &mut f64, speed: f64, name: &str) -> egui::Response {
    let l = ui.label(name);
    ui.add(egui::DragValue::new(v).speed(speed))
        .labelled_by(l.id)
}

/// The open dialog, if any: a path to open or save as, the unsaved-changes prompt, the
/// recovery prompt.
pub fn dialogs(ed: &mut EditorUi, ui: &mut Ui, out: &mut Vec<Command>) {
    let Some(d) = ed.dialog.clone() else {
        return;
    };
    let ctx = ui.ctx().clone();
    let mut close = false;
    egui::Modal::new(egui::Id::unique("editor_dialog")).show(&ctx, |ui| match d.clone() {
        Dialog::Path { save, mut text } => {
            ui.heading(if save { "Save level as" } else { "Open level" });
            let r = ui.add(
                egui::TextEdit::singleline(&mut text)
                    .hint_text("path/to/level.ron")
                    .desired_width(360.0),
            );
            r.request_focus();
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ed.dialog = Some(Dialog::Path {
                save,
                text: text.clone(),
            });
            ui.horizontal(|ui| {
                let ok = ui.button(if save { "Save" } else { "Open" }).clicked() || enter;
                if ok && !text.trim().is_empty() {
                    let p = PathBuf::from(text.trim());
                    if save {
                        ed.save_as(p);
                    } else {
                        ed.open(p);
                    }
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        }
        Dialog::Unsaved { then } => {
            ui.heading("Unsaved changes");
            ui.label("The level has changes that are not saved.");
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    ed.save();
                    if !ed.session.dirty() {
                        close = true;
                        continue_with(ed, &then, out);
                    } else if let Some(Dialog::Comments { then: after, .. }) = &mut ed.dialog {
                        // Asked about the file's comments first: goes on once saved.
                        *after = Some(then.clone());
                    }
                }
                if ui.button("Discard").clicked() {
                    if let Some(a) = &mut ed.autosave {
                        a.discard();
                    }
                    close = true;
                    continue_with(ed, &then, out);
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        }
        Dialog::Restore { pending } => {
            ui.heading("Recover unsaved work?");
            ui.label(format!(
                "{} holds edits newer than the level file.",
                pending.file.display()
            ));
            ui.horizontal(|ui| {
                if ui.button("Restore").clicked() {
                    match recovery::load(&pending.file) {
                        Ok(level) => restore(ed, level),
                        Err(e) => ed.status = Some(format!("cannot restore: {e}")),
                    }
                    close = true;
                }
                if ui.button("Discard").clicked() {
                    if let Some(a) = &mut ed.autosave {
                        a.discard();
                    }
                    close = true;
                }
            });
        }
        Dialog::Comments {
            path,
            comments,
            first_line,
            then,
        } => {
            let answer = Answer {
                close: &mut close,
                out,
            };
            comments_prompt(ed, ui, path, (comments, first_line), then, answer)
        }
    });
    // A prompt that opened another dialog (Save with no file yet → Save as; Discard → Open)
    // leaves the new one open.
    if close && (ed.dialog.as_ref() == Some(&d) || matches!(d, Dialog::Path { .. })) {
        ed.dialog = None;
    }
}

/// Where a prompt's answer goes: whether the dialog closes, and the game's commands.
struct Answer<'a> {
    close: &'a mut bool,
    out: &'a mut Vec<Command>,
}

/// Saving would replace a file holding comments (the editor writes the level without them).
/// The file holds `comments` comments, the first on `first_line`; `then` is what the
/// unsaved-changes prompt that asked for the save goes on with once saved.
fn comments_prompt(
    ed: &mut EditorUi,
    ui: &mut Ui,
    path: PathBuf,
    (comments, first_line): (usize, usize),
    then: Option<Then>,
    answer: Answer<'_>,
) {
    ui.heading("Save without the file's comments?");
    ui.label(format!(
        "{} holds {comments} comment(s) (the first on line {first_line}). The editor writes the \
         level from what it shows, so saving replaces the file without them.",
        path.display()
    ));
    ui.horizontal(|ui| {
        if ui.button("Save anyway").clicked() {
            *answer.close = true;
            ed.save_dropping_comments(path.clone());
            if let (false, Some(then)) = (ed.session.dirty(), &then) {
                continue_with(ed, then, answer.out);
            }
        }
        if ui.button("Save to another file...").clicked() {
            *answer.close = true;
            ed.dialog = Some(Dialog::Path {
                save: true,
                text: String::new(),
            });
        }
        if ui.button("Cancel").clicked() {
            *answer.close = true;
            ed.status = Some(format!("not saved: {} keeps its comments", path.display()));
        }
    });
}

fn continue_with(ed: &mut EditorUi, then: &Then, out: &mut Vec<Command>) {
    match then {
        Then::Quit => out.push(Command::Quit),
        Then::Open => {
            ed.dialog = Some(Dialog::Path {
                save: false,
                text: String::new(),
            })
        }
    }
}

/// Puts a recovered level in the session, marked unsaved.
pub fn restore(ed: &mut EditorUi, level: Level) {
    let path = ed.session.path().map(|p| p.to_path_buf());
    ed.session.replace(level, path, false);
    ed.status = Some("restored unsaved work from the recovery file".into());
}
