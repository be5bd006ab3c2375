//! The objects in the editor's view and panels, whatever their kind: each registered kind
//! (`editor::kinds`) draws itself through the [`Pen`] implemented here with egui, and fills its
//! panel through the [`PanelUi`] implemented here (its fields generated from the level format's
//! field definitions); the hover highlight of a part (body, handle, corner, region, path
//! segment) is the same for every kind. Also the active tool's settings (its
//! `ToolBehaviour::panel`: the Agent tool's template) and the time preview of moving objects.
//! Every change of the level goes through one [`Edit`](crate::editor::Edit) of the session.
use egui::{Align2, Color32, FontId, Painter, RichText, Stroke, Ui};
use glam::DVec2;

use super::panels::num;
use super::view::{line, outline, rect, ViewMapping};
use super::EditorUi;
use crate::collision::Aabb;
use crate::editor::kinds::{Colour, DrawState, PanelUi, Part, Pen, KINDS};
use crate::editor::objects::ObjectRef;
use crate::editor::session::Hit;
use crate::level::fields::{FieldMut, ObjectField, Widget};

/// A kind's colour on screen.
fn colour(c: Colour) -> Color32 {
    match c {
        Colour::Rgba([r, g, b, a]) => Color32::from_rgba_premultiplied(r, g, b, a),
        Colour::Selected => super::colours::SELECTED,
    }
}

/// The kinds' pen: egui shapes at the view's screen points.
struct EguiPen<'a> {
    painter: &'a Painter,
    map: &'a ViewMapping,
}

impl EguiPen<'_> {
    fn ring_c(&mut self, at: DVec2, radius: f32, width: f32, c: Color32) {
        if let Some(sp) = self.map.to_screen(at) {
            self.painter
                .circle_stroke(sp, radius, Stroke::new(width, c));
        }
    }

    fn square_c(&mut self, at: DVec2, size: f32, width: f32, c: Color32) {
        if let Some(sp) = self.map.to_screen(at) {
            let r = egui::Rect::from_center_size(sp, egui::vec2(size, size));
            self.painter
                .rect_stroke(r, 0.0, Stroke::new(width, c), egui::StrokeKind::Middle);
        }
    }
}

impl Pen for EguiPen<'_> {
    fn outline(&mut self, points: &[DVec2], width: f32, c: Colour) {
        outline(self.painter, self.map, points, width, colour(c));
    }

    fn rect(&mut self, r: Aabb, width: f32, c: Colour) {
        rect(self.painter, self.map, r, width, colour(c));
    }

    fn line(&mut self, a: DVec2, b: DVec2, width: f32, c: Colour) {
        line(self.painter, self.map, a, b, width, colour(c));
    }

    fn ring(&mut self, at: DVec2, radius: f32, width: f32, c: Colour) {
        self.ring_c(at, radius, width, colour(c));
    }

    fn dot(&mut self, at: DVec2, radius: f32, c: Colour) {
        if let Some(sp) = self.map.to_screen(at) {
            self.painter.circle_filled(sp, radius, colour(c));
        }
    }

    fn square(&mut self, at: DVec2, size: f32, width: f32, c: Colour) {
        self.square_c(at, size, width, colour(c));
    }

    fn cross(&mut self, at: DVec2, half: f32, width: f32, c: Colour) {
        if let Some(sp) = self.map.to_screen(at) {
            let stroke = Stroke::new(width, colour(c));
            let (h, v) = (egui::vec2(half, 0.0), egui::vec2(0.0, half));
            self.painter.line_segment([sp - h, sp + h], stroke);
            self.painter.line_segment([sp - v, sp + v], stroke);
        }
    }

    fn label(&mut self, at: DVec2, text: &str, c: Colour) {
        if let Some(sp) = self.map.to_screen(at) {
            self.painter.text(
                sp + egui::vec2(0.0, -4.0),
                Align2::CENTER_BOTTOM,
                text,
                FontId::proportional(11.0),
                colour(c),
            );
        }
    }
}

/// Draws every object, kind by kind in the registry's order, the selected one highlighted and
/// the moving ones also at the previewed time.
pub fn paint_objects(ed: &EditorUi, painter: &Painter, map: &ViewMapping) {
    let s = &ed.session;
    let level = &*s.level();
    let mut pen = EguiPen { painter, map };
    for &k in KINDS {
        for i in 0..k.count(level) {
            let selected = s.selection.object == Some(ObjectRef::new(k.name(), i));
            let state = DrawState {
                selected,
                node: s.selection.node.filter(|_| selected),
                time: ed.scrub,
            };
            k.draw(level, i, state, &mut pen);
        }
    }
}

/// The colours of the links by their action (the field's place among the target's signal
/// fields: opens / starts green, closes / stops red, toggles / reverses amber, ...).
const ACTIONS: [Color32; 5] = [
    Color32::from_rgb(110, 230, 120),
    Color32::from_rgb(255, 110, 100),
    Color32::from_rgb(255, 200, 80),
    Color32::from_rgb(180, 150, 255),
    Color32::from_rgb(120, 210, 255),
];

/// Draws every signal's links (`objects::links`): a line with an arrow from its source's handle
/// to each target acting on it, coloured and labelled by the action; and the link being dragged.
/// Drawn before the objects, so under their selection handles.
pub fn paint_links(ed: &EditorUi, painter: &Painter, map: &ViewMapping) {
    let level = &*ed.session.level();
    for l in crate::editor::objects::links(level) {
        let c = ACTIONS[l.action % ACTIONS.len()];
        arrow(painter, map, l.from, l.to, c);
        if let Some(mid) = map.to_screen((l.from + l.to) * 0.5) {
            painter.text(
                mid,
                Align2::CENTER_BOTTOM,
                crate::editor::kinds::links::action(l.field),
                FontId::proportional(11.0),
                c,
            );
        }
    }
    if let Some((source, from, to)) = ed.session.link_drag() {
        arrow(painter, map, from, to, super::colours::HOVER);
        // The target a release would link, outlined.
        if let Ok((_, t)) = crate::editor::objects::link_edit(level, source, to) {
            for o in t.kind().body(level, t.index) {
                outline(painter, map, &o, 2.5, super::colours::HOVER);
            }
        }
    }
}

/// A line from `a` to `b` with an arrowhead at `b`.
fn arrow(painter: &Painter, map: &ViewMapping, a: DVec2, b: DVec2, c: Color32) {
    let (Some(p), Some(q)) = (map.to_screen(a), map.to_screen(b)) else {
        return;
    };
    painter.line_segment([p, q], Stroke::new(1.5, c));
    let d = q - p;
    if d.length() > 12.0 {
        let back = -d.normalized() * 10.0;
        let side = egui::vec2(-back.y, back.x) * 0.5;
        painter.line_segment([q, q + back + side], Stroke::new(1.5, c));
        painter.line_segment([q, q + back - side], Stroke::new(1.5, c));
    }
}

/// Highlights the object part under the pointer, if `hover` is one.
pub fn paint_hover(painter: &Painter, map: &ViewMapping, ed: &EditorUi, hover: Option<Hit>) {
    let level = &*ed.session.level();
    let c = super::colours::HOVER;
    let mut pen = EguiPen { painter, map };
    match hover {
        Some(Hit::Object(g)) => {
            let (k, i) = (g.object.kind(), g.object.index);
            match g.part {
                Part::Body => {
                    for o in k.body(level, i) {
                        outline(painter, map, &o, 2.5, c);
                    }
                }
                Part::Handle(h) => {
                    if let Some(&q) = k.handles(level, i).get(h) {
                        pen.ring_c(q, 7.0, 2.0, c);
                    }
                }
                Part::Corner(n) => {
                    if let Some(&q) = k.corners(level, i).get(n) {
                        pen.square_c(q, 12.0, 2.0, c);
                    }
                }
                Part::Region => {
                    if let Some(r) = k.region(level, i) {
                        rect(painter, map, r, 2.5, c);
                    }
                }
                Part::Link => {
                    if let Some(q) = k.part_point(level, i, Part::Link) {
                        pen.ring_c(q, 8.0, 2.0, c);
                    }
                }
            }
        }
        Some(Hit::PathSegment {
            object,
            segment,
            point,
        }) => {
            let nodes = object.kind().handles(level, object.index);
            if let (Some(&a), Some(&b)) = (nodes.get(segment), nodes.get(segment + 1)) {
                line(painter, map, a, b, 3.0, c);
            }
            pen.ring_c(point, 3.0, 1.0, c);
        }
        _ => {}
    }
}

/// The active tool's settings (when it has any), the selected object's panel, and the time
/// preview of moving objects.
pub fn panel(ed: &mut EditorUi, ui: &mut Ui) {
    tool_panel(ed, ui);
    if let Some(object) = ed.session.selection.object {
        object_panel(ed, ui, object);
    }
    if longest_period(ed).is_some() {
        scrubber(ed, ui);
    }
}

/// The kinds' panel widgets, in egui.
struct EguiPanel<'u> {
    ui: &'u mut Ui,
}

impl PanelUi for EguiPanel<'_> {
    fn fields(&mut self, id: &str, fields: Vec<ObjectField<'_>>, near: DVec2) -> bool {
        field_widgets(self.ui, id, fields, near)
    }

    fn text(&mut self, text: &str) {
        self.ui.label(text);
    }

    fn row(&mut self, text: Option<&str>, buttons: &[&str], hover: Option<&str>) -> Option<usize> {
        let mut clicked = None;
        let row = self.ui.horizontal(|ui| {
            if let Some(t) = text {
                ui.label(t);
            }
            for (n, b) in buttons.iter().enumerate() {
                if ui.button(*b).clicked() {
                    clicked = Some(n);
                }
            }
        });
        if let Some(h) = hover {
            row.response.on_hover_text(h);
        }
        clicked
    }

    fn point_row(&mut self, label: &str, selected: bool, point: &mut DVec2) -> (bool, bool) {
        let (mut picked, mut changed) = (false, false);
        self.ui.horizontal(|ui| {
            picked = ui.selectable_label(selected, label).clicked();
            changed |= num(ui, &mut point.x, 0.05, "x").changed();
            changed |= num(ui, &mut point.y, 0.05, "y").changed();
        });
        (picked, changed)
    }
}

/// The selected object's panel: its heading, its kind's panel (one undoable edit of a change),
/// and its delete button.
fn object_panel(ed: &mut EditorUi, ui: &mut Ui, object: ObjectRef) {
    let s = &mut ed.session;
    let k = object.kind();
    if object.index >= k.count(&s.level()) {
        return;
    }
    ui.separator();
    ui.label(RichText::new(format!("{} {}", k.name(), object.index)).strong());
    let node = s.selection.node;
    let (edit, asks) = k.panel(&s.level(), object.index, node, &mut EguiPanel { ui });
    if let Some(edit) = edit {
        s.edit_object(edit);
    }
    if let Some(n) = asks.pick_node {
        s.selection.node = Some(n);
    }
    if asks.delete_node {
        s.delete_selection();
    }
    if ui.button(format!("Delete {}", k.name())).clicked() {
        s.selection.node = None;
        s.delete_selection();
    }
}

/// The longest period of the level's moving objects, s; `None` when nothing moves.
fn longest_period(ed: &EditorUi) -> Option<f64> {
    let level = &*ed.session.level();
    KINDS
        .iter()
        .flat_map(|&k| (0..k.count(level)).filter_map(move |i| k.period(level, i)))
        .reduce(f64::max)
}

/// The active tool's own settings (`ToolBehaviour::panel`), if it has any.
fn tool_panel(ed: &mut EditorUi, ui: &mut Ui) {
    let Some(panel) = ed.session.tool_panel() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(panel.title).strong());
    let help = panel.help;
    let changed = changed_fields(ui, "tool", panel.fields, DVec2::ZERO);
    ui.label(help);
    for field in changed {
        ed.session.tool_panel_changed(field);
    }
}

/// A number field's drag value: bounded to `min..=max`, `unit` after it, `speed` per pixel.
fn number<'v>(v: &'v mut f64, min: f64, max: f64, unit: &str, speed: f64) -> egui::DragValue<'v> {
    let suffix = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    egui::DragValue::new(v)
        .range(min..=max)
        .speed(speed)
        .suffix(suffix)
}

/// The widgets of `fields` (see `level::fields`): each field's label, its value bounded by its
/// definition, its doc comment as hover text. `id` keeps the drop-downs of several panels apart;
/// `near` is where a newly set stretch of x is centred. Returns whether any value changed.
fn field_widgets<'a>(
    ui: &mut Ui,
    id: &str,
    fields: impl IntoIterator<Item = ObjectField<'a>>,
    near: DVec2,
) -> bool {
    !changed_fields(ui, id, fields, near).is_empty()
}

/// [`field_widgets`], returning the names of the fields that changed.
fn changed_fields<'a>(
    ui: &mut Ui,
    id: &str,
    fields: impl IntoIterator<Item = ObjectField<'a>>,
    near: DVec2,
) -> Vec<&'static str> {
    let mut names = Vec::new();
    for f in fields {
        let mut changed = false;
        let name = f.def.name;
        let (label, doc) = (f.def.label, f.def.doc.trim());
        match (f.value, f.def.widget) {
            (
                FieldMut::Number(v),
                Widget::Number {
                    min,
                    max,
                    unit,
                    speed,
                },
            ) => {
                ui.horizontal(|ui| {
                    let l = ui.label(label).on_hover_text(doc);
                    changed |= ui
                        .add(number(v, min, max, unit, speed))
                        .labelled_by(l.id)
                        .on_hover_text(doc)
                        .changed();
                });
            }
            (
                FieldMut::Optional(v),
                Widget::Optional {
                    min,
                    max,
                    unit,
                    speed,
                    default,
                },
            ) => {
                ui.horizontal(|ui| {
                    let mut on = v.is_some();
                    changed |= ui.checkbox(&mut on, label).on_hover_text(doc).changed();
                    let mut x = v.unwrap_or(default);
                    if on {
                        changed |= ui
                            .add(number(&mut x, min, max, unit, speed))
                            .on_hover_text(doc)
                            .changed();
                    }
                    *v = on.then_some(x);
                });
            }
            (FieldMut::Flag(b), _) => {
                changed |= ui.checkbox(b, label).on_hover_text(doc).changed();
            }
            (FieldMut::Choice(c), _) => {
                let names = c.names();
                let mut k = c.index();
                ui.horizontal(|ui| {
                    let l = ui.label(label).on_hover_text(doc);
                    if names.len() <= 3 {
                        for (n, name) in names.iter().enumerate() {
                            changed |= ui.radio_value(&mut k, n, *name).changed();
                        }
                    } else {
                        egui::ComboBox::from_id_salt(format!("{id}_{label}"))
                            .selected_text(names[k])
                            .show_ui(ui, |ui| {
                                for (n, name) in names.iter().enumerate() {
                                    changed |= ui.selectable_value(&mut k, n, *name).changed();
                                }
                            })
                            .response
                            .labelled_by(l.id)
                            .on_hover_text(doc);
                    }
                });
                if k != c.index() {
                    c.set_index(k);
                }
            }
            (FieldMut::Facing(v), _) => {
                ui.horizontal(|ui| {
                    ui.label(label).on_hover_text(doc);
                    changed |= ui.radio_value(v, -1.0, "left").changed();
                    changed |= ui.radio_value(v, 1.0, "right").changed();
                });
            }
            (FieldMut::Point(q), _) => {
                ui.horizontal(|ui| {
                    ui.label(label).on_hover_text(doc);
                    changed |= num(ui, &mut q.x, 0.05, "x").changed();
                    changed |= num(ui, &mut q.y, 0.05, "y").changed();
                });
            }
            (FieldMut::XRange(r), Widget::XRange { half_width }) => {
                ui.horizontal(|ui| {
                    let mut on = r.is_some();
                    changed |= ui.checkbox(&mut on, label).on_hover_text(doc).changed();
                    let mut x = r.unwrap_or([near.x - half_width, near.x + half_width]);
                    if on {
                        changed |= num(ui, &mut x[0], 0.05, "from x").changed();
                        changed |= num(ui, &mut x[1], 0.05, "to x").changed();
                    }
                    *r = on.then_some(x);
                });
            }
            (FieldMut::Text(t), _) => {
                ui.label(label).on_hover_text(doc);
                changed |= ui
                    .add(egui::TextEdit::multiline(t).desired_rows(2))
                    .on_hover_text(doc)
                    .changed();
            }
            // Custom fields, and a value whose widget does not fit it (a definition error the
            // level's field tests catch), are the panel's own.
            _ => {}
        }
        if changed {
            names.push(name);
        }
    }
    names
}

/// A slider that poses every moving object at a chosen time (drawn as ghosts), without running
/// the simulation.
fn scrubber(ed: &mut EditorUi, ui: &mut Ui) {
    ui.separator();
    let longest = longest_period(ed).unwrap_or(0.0).max(0.0);
    let mut on = ed.scrub.is_some();
    ui.checkbox(&mut on, "Preview movers at a time")
        .on_hover_text("drawn as ghosts; Hero here then play-tests with the movers at this time");
    if on {
        let mut t = ed.scrub.unwrap_or(0.0).min(longest);
        ui.add(
            egui::Slider::new(&mut t, 0.0..=longest)
                .suffix(" s")
                .text("time"),
        );
        ed.scrub = Some(t);
    } else {
        ed.scrub = None;
    }
}
