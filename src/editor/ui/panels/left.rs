//! The left panel: the hero's state, collision overlays, movement tuning, frame times, the
//! level's figures, bounds and game regions.
use egui::{Color32, Ui};
use glam::DVec2;

use super::super::{Command, EditorUi};
use super::num;
use crate::collision::Aabb;
use crate::editor::kinds::{Placement, KINDS};
use crate::editor::Edit;
use crate::level::{document::MUSIC_TRACKS, save_tuning};
use crate::movement::{tuning, FieldMut, MoveState};
use crate::sim::World;

/// The left panel's width, points (fixed).
pub const LEFT_WIDTH: f32 = 300.0;

/// Hero, overlays, tuning, frame times and the level's figures.
pub fn left(ed: &mut EditorUi, ui: &mut Ui, world: &World, out: &mut Vec<Command>) {
    // A fixed width: the view never moves under the pointer when the panel's content changes.
    egui::Panel::left("editor_left")
        .resizable(false)
        .exact_size(LEFT_WIDTH)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.menu_button("Overlays", |ui| {
                    if ed.overlays.menu(ui) {
                        out.push(Command::SetOverlays(ed.overlays));
                    }
                })
                .response
                .on_hover_text(
                    "collision overlays: the meshes' triangles, solid faces and inflated outlines",
                );
                if ed.overlays.any() {
                    ui.label("(on)");
                }
            });
            egui::ScrollArea::vertical().show(ui, |ui| {
                egui::CollapsingHeader::new("Hero")
                    .default_open(true)
                    .show(ui, |ui| hero(ui, world));
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
    let n = super::super::FRAME_HISTORY as f32;
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
    drop(level);
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

/// A button per registered object kind that can be added at a point: a new one where the hero
/// stands, snapped to the grid (a checkpoint, the goal: a 1 × 2.5 m region, its bottom centre at
/// the hero's feet; none over the spawn),
/// through the same path as its placing tool; and the level's music. A region's corners are
/// edited in its own panel once it is selected.
fn game_regions(ed: &mut EditorUi, ui: &mut Ui, world: &World) {
    ui.separator();
    // Snapped like every placement: the hero's feet are a rounding error above the floor.
    let at = ed.session.grid.snap(world.hero().body.pos);
    for &k in KINDS {
        let can = k.placed(&ed.session.level(), Placement::At(at)).is_some();
        if can && ui.button(format!("Add {} at the hero", k.name())).clicked() {
            ed.session.place_object(k, Placement::At(at), at);
        }
    }
    let music = ed.session.level().music;
    let mut track = music.unwrap_or(1);
    ui.horizontal(|ui| {
        let l = ui.label("music");
        egui::ComboBox::from_id_salt("level_music")
            .selected_text(format!("track {track}"))
            .show_ui(ui, |ui| {
                for t in 1..=MUSIC_TRACKS {
                    ui.selectable_value(&mut track, t, format!("track {t}"));
                }
            })
            .response
            .labelled_by(l.id)
            .on_hover_text("the music this level plays (4 tracks; the campaign plays one a level)");
    });
    if track != music.unwrap_or(1) {
        // Track 1 is the default: written as no `music` field.
        let music = (track != 1).then_some(track);
        let _ = ed.session.edit(Edit::SetMusic { music }, at);
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
