//! The selection panel: a polygon's fields and transforms, a ladder's box, and the objects'
//! panels (`ui::objects`).
use egui::{RichText, Ui};
use glam::DVec2;

use super::super::EditorUi;
use crate::editor::Edit;
use crate::level::PolygonKind;

/// The selection panel's width, points (fixed).
pub const RIGHT_WIDTH: f32 = 280.0;

/// The selection: numeric fields, kind, material, colour, transforms. Returns the rect the panel
/// took (wider than [`RIGHT_WIDTH`] when its content is).
pub fn right(ed: &mut EditorUi, ui: &mut Ui) -> egui::Rect {
    // A fixed width: the view never moves under the pointer when the selection changes.
    egui::Panel::right("editor_selection")
        .resizable(false)
        .exact_size(RIGHT_WIDTH)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| selection(ed, ui));
        })
        .response
        .rect
}

fn selection(ed: &mut EditorUi, ui: &mut Ui) {
    let s = &mut ed.session;
    ui.heading("Selection");
    if s.selection.is_empty() {
        ui.label("Nothing selected. Click a polygon, a vertex, a ladder or an object; drag on empty space to box-select; shift adds.");
        super::super::objects::panel(ed, ui);
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
        // Wrapped: a row wider than the panel would widen it over the view.
        ui.horizontal_wrapped(|ui| {
            ui.label("rotate");
            for deg in [-90.0, -15.0, 15.0, 90.0] {
                if ui.button(format!("{deg:+} deg")).clicked() {
                    s.rotate_selection(deg);
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
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
    super::super::objects::panel(ed, ui);
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
                    RichText::new(vi.to_string()).color(super::super::colours::SELECTED)
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

/// A number field with its name in front (the name is also its accessible label).
pub(in crate::editor::ui) fn num(
    ui: &mut Ui,
    v: &mut f64,
    speed: f64,
    name: &str,
) -> egui::Response {
    let l = ui.label(name);
    ui.add(egui::DragValue::new(v).speed(speed))
        .labelled_by(l.id)
}
