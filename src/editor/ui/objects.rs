//! The objects in the editor's view and panels: agents (their size class's collider at the
//! spawn), movers (pieces, path nodes as handles, ghosts at every node and at the scrubbed time),
//! doors and their switches (linked by a line); the active tool's settings (its
//! `ToolBehaviour::panel`: the Agent tool's template) and the selected object's fields, all
//! generated from field definitions. Every change of the level goes through one [`Edit`] of the
//! session.
use egui::{Align2, Color32, FontId, Painter, RichText, Stroke, Ui};
use glam::DVec2;

use super::panels::num;
use super::view::{line, outline, rect, ViewMapping};
use super::EditorUi;
use crate::editor::objects::{self, path_points, ObjectRef};
use crate::editor::ops::Edit;
use crate::editor::session::Hit;
use crate::editor::Grab;
use crate::level::fields::{FieldMut, ObjectField, Widget};
use crate::level::MoverMode;

/// Colours of the objects' overlays.
pub mod colours {
    use egui::Color32;
    /// Agents that are not enemies.
    pub const AGENT: Color32 = Color32::from_rgb(120, 200, 255);
    /// Enemies.
    pub const ENEMY: Color32 = Color32::from_rgb(255, 110, 60);
    /// Movers at rest and their paths.
    pub const MOVER: Color32 = Color32::from_rgb(190, 150, 255);
    /// A mover at the other nodes of its path, and at the scrubbed time.
    pub const GHOST: Color32 = Color32::from_rgba_premultiplied(110, 90, 150, 110);
    /// Doors.
    pub const DOOR: Color32 = Color32::from_rgb(230, 170, 90);
    /// Switches, and their links to their doors.
    pub const SWITCH: Color32 = Color32::from_rgb(255, 230, 120);
}

/// Draws agents, movers, doors and switches, the selected one highlighted.
pub fn paint_objects(ed: &EditorUi, painter: &Painter, map: &ViewMapping) {
    let s = &ed.session;
    let level = s.level();
    let sel = s.selection.object;
    let width = |selected: bool| if selected { 2.5 } else { 1.5 };
    for (i, d) in level.doors.iter().enumerate() {
        let selected = sel == Some(ObjectRef::Door(i));
        let c = if selected {
            super::colours::SELECTED
        } else {
            colours::DOOR
        };
        outline(painter, map, &d.points, width(selected), c);
        if let Some(sw) = d.switch {
            rect(painter, map, sw, width(selected), colours::SWITCH);
            let door = objects::rect_centre(&d.points);
            line(
                painter,
                map,
                (sw.min + sw.max) * 0.5,
                door,
                1.0,
                colours::SWITCH,
            );
        }
        label(
            painter,
            map,
            objects::rect_centre(&d.points),
            if d.open { "door (open)" } else { "door" },
            c,
        );
    }
    for (i, m) in level.movers.iter().enumerate() {
        let selected = sel == Some(ObjectRef::Mover(i));
        let c = if selected {
            super::colours::SELECTED
        } else {
            colours::MOVER
        };
        for piece in &m.pieces {
            outline(painter, map, piece, width(selected), c);
        }
        if m.one_way {
            label(painter, map, objects::mover_anchor(m), "one-way", c);
        }
        if m.turns() {
            // The point it turns about: a ring with a cross, and the circle its farthest point
            // sweeps (what must fit in the level's bounds).
            let pivot = m.pivot_point();
            if let Some(sp) = map.to_screen(pivot) {
                painter.circle_stroke(sp, 5.0, Stroke::new(1.5, c));
                painter.line_segment(
                    [sp - egui::vec2(7.0, 0.0), sp + egui::vec2(7.0, 0.0)],
                    Stroke::new(1.0, c),
                );
                painter.line_segment(
                    [sp - egui::vec2(0.0, 7.0), sp + egui::vec2(0.0, 7.0)],
                    Stroke::new(1.0, c),
                );
            }
            let r = m.turning_radius();
            let circle: Vec<DVec2> = (0..48)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / 48.0;
                    pivot + DVec2::new(a.cos(), a.sin()) * r
                })
                .collect();
            outline(painter, map, &circle, 1.0, colours::GHOST);
        }
        let nodes = path_points(m);
        for w in nodes.windows(2) {
            line(painter, map, w[0], w[1], 1.5, c);
        }
        if m.mode == MoverMode::Loop {
            if let (Some(&a), Some(&b)) = (nodes.last(), nodes.first()) {
                line(painter, map, a, b, 1.0, colours::GHOST);
            }
        }
        // The selected mover's corners: handles that reshape its pieces.
        if selected {
            for q in m.pieces.iter().flatten() {
                if let Some(sp) = map.to_screen(*q) {
                    let r = egui::Rect::from_center_size(sp, egui::vec2(7.0, 7.0));
                    painter.rect_stroke(r, 0.0, Stroke::new(1.5, c), egui::StrokeKind::Middle);
                }
            }
        }
        // Ghosts of the selected mover at each node of its path, turned as it is when it first
        // gets there.
        if selected {
            let pivot = m.pivot_point();
            for pose in crate::sim::movers::node_poses(m).into_iter().skip(1) {
                for piece in &m.pieces {
                    let moved: Vec<DVec2> = piece.iter().map(|&q| pose.place(q, pivot)).collect();
                    outline(painter, map, &moved, 1.0, colours::GHOST);
                }
            }
        }
        if let Some(t) = ed.scrub {
            let pose = crate::sim::movers::pose_at(m, t);
            let pivot = m.pivot_point();
            for piece in &m.pieces {
                let moved: Vec<DVec2> = piece.iter().map(|&q| pose.place(q, pivot)).collect();
                outline(painter, map, &moved, 2.0, colours::GHOST);
            }
        }
        for (k, &q) in nodes.iter().enumerate() {
            if let Some(sp) = map.to_screen(q) {
                if selected && s.selection.node == Some(k) {
                    painter.circle_filled(sp, 5.0, super::colours::SELECTED);
                } else {
                    painter.circle_stroke(sp, 4.0, Stroke::new(1.5, c));
                }
            }
        }
    }
    for (i, a) in level.agents.iter().enumerate() {
        let selected = sel == Some(ObjectRef::Agent(i));
        let c = if selected {
            super::colours::SELECTED
        } else if a.kind.is_enemy() {
            colours::ENEMY
        } else {
            colours::AGENT
        };
        let pts = objects::agent_outline(level, a);
        outline(painter, map, &pts, width(selected), c);
        if let Some([l, r]) = objects::patrol_points(a) {
            // The patrol range: a line at the feet, a bar and a handle at each end.
            line(painter, map, l, r, 1.0, c);
            for q in [l, r] {
                line(
                    painter,
                    map,
                    q - DVec2::new(0.0, 0.25),
                    q + DVec2::new(0.0, 0.25),
                    width(selected),
                    c,
                );
                if let Some(sp) = map.to_screen(q) {
                    painter.circle_stroke(sp, 4.0, Stroke::new(1.5, c));
                }
            }
        }
        let top = pts
            .iter()
            .fold(a.spawn, |t, q| if q.y > t.y { *q } else { t });
        let arrow = if a.facing < 0.0 { "<" } else { ">" };
        label(
            painter,
            map,
            DVec2::new(a.spawn.x, top.y),
            &format!("{} {arrow}", a.kind.name()),
            c,
        );
    }
}

fn label(painter: &Painter, map: &ViewMapping, at: DVec2, text: &str, c: Color32) {
    if let Some(sp) = map.to_screen(at) {
        painter.text(
            sp + egui::vec2(0.0, -4.0),
            Align2::CENTER_BOTTOM,
            text,
            FontId::proportional(11.0),
            c,
        );
    }
}

/// Highlights the object part under the pointer, if `hover` is one.
pub fn paint_hover(painter: &Painter, map: &ViewMapping, ed: &EditorUi, hover: Option<Hit>) {
    let level = ed.session.level();
    let c = super::colours::HOVER;
    match hover {
        Some(Hit::Object(Grab::PathNode { mover, node })) => {
            if let Some(sp) = path_points(&level.movers[mover])
                .get(node)
                .and_then(|&q| map.to_screen(q))
            {
                painter.circle_stroke(sp, 7.0, Stroke::new(2.0, c));
            }
        }
        Some(Hit::Object(Grab::Corner {
            mover,
            piece,
            corner,
        })) => {
            if let Some(sp) = map.to_screen(level.movers[mover].pieces[piece][corner]) {
                let r = egui::Rect::from_center_size(sp, egui::vec2(12.0, 12.0));
                painter.rect_stroke(r, 0.0, Stroke::new(2.0, c), egui::StrokeKind::Middle);
            }
        }
        Some(Hit::Object(Grab::PatrolEnd { agent, end })) => {
            if let Some(sp) = objects::patrol_points(&level.agents[agent])
                .and_then(|ends| map.to_screen(ends[end]))
            {
                painter.circle_stroke(sp, 7.0, Stroke::new(2.0, c));
            }
        }
        Some(Hit::Object(Grab::Agent(i))) => {
            outline(
                painter,
                map,
                &objects::agent_outline(level, &level.agents[i]),
                2.5,
                c,
            );
        }
        Some(Hit::Object(Grab::Mover(i))) => {
            for piece in &level.movers[i].pieces {
                outline(painter, map, piece, 2.5, c);
            }
        }
        Some(Hit::Object(Grab::Door(i))) => outline(painter, map, &level.doors[i].points, 2.5, c),
        Some(Hit::Object(Grab::Switch(i))) => {
            if let Some(sw) = level.doors[i].switch {
                rect(painter, map, sw, 2.5, c);
            }
        }
        Some(Hit::PathSegment {
            mover,
            segment,
            point,
        }) => {
            let nodes = path_points(&level.movers[mover]);
            line(painter, map, nodes[segment], nodes[segment + 1], 3.0, c);
            if let Some(sp) = map.to_screen(point) {
                painter.circle_stroke(sp, 3.0, Stroke::new(1.0, c));
            }
        }
        _ => {}
    }
}

/// The active tool's settings (when it has any), the selected object's fields, and the movers'
/// time scrubber.
pub fn panel(ed: &mut EditorUi, ui: &mut Ui) {
    tool_panel(ed, ui);
    match ed.session.selection.object {
        Some(ObjectRef::Agent(i)) => agent_fields(ed, ui, i),
        Some(ObjectRef::Mover(i)) => mover_fields(ed, ui, i),
        Some(ObjectRef::Door(i)) => door_fields(ed, ui, i),
        None => {}
    }
    if !ed.session.level().movers.is_empty() {
        scrubber(ed, ui);
    }
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

fn agent_fields(ed: &mut EditorUi, ui: &mut Ui, i: usize) {
    let s = &mut ed.session;
    let Some(old) = s.level().agents.get(i).cloned() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(format!("agent {i}")).strong());
    let mut a = old.clone();
    let (patrols, feet) = (a.kind.patrols(), a.spawn);
    // A patrol range only for the kinds that walk one.
    let fields = a
        .fields_mut()
        .into_iter()
        .filter(|f| patrols || f.def.name != "patrol");
    let changed = field_widgets(ui, "agent", fields, feet);
    if a.kind != old.kind && a.character == objects::default_character(old.kind) {
        a.character = objects::default_character(a.kind);
    }
    if !a.kind.patrols() {
        a.patrol = None;
    }
    ui.label(format!(
        "drawn with: {}",
        a.character.as_deref().unwrap_or("its outline")
    ));
    if changed && a != old {
        let mut agents = s.level().agents.clone();
        agents[i] = a;
        s.edit_object(Edit::SetAgents {
            agents,
            restore: false,
        });
    }
    if ui.button("Delete agent").clicked() {
        s.delete_selection();
    }
}

fn mover_fields(ed: &mut EditorUi, ui: &mut Ui, i: usize) {
    let s = &mut ed.session;
    let Some(old) = s.level().movers.get(i).cloned() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(format!("mover {i}")).strong());
    let mut m = old.clone();
    let anchor = objects::mover_anchor(&m);
    let mut changed = field_widgets(ui, "mover", m.fields_mut(), anchor);
    ui.label("path (offsets from where it is drawn)");
    let mut pick = None;
    for (k, o) in m.path.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let here = s.selection.node == Some(k);
            if ui.selectable_label(here, format!("node {k}")).clicked() {
                pick = Some(k);
            }
            changed |= num(ui, &mut o.x, 0.05, "x").changed();
            changed |= num(ui, &mut o.y, 0.05, "y").changed();
        });
    }
    if let Some(k) = pick {
        s.selection.node = Some(k);
    }
    ui.horizontal(|ui| {
        if ui.button("Add node").clicked() {
            let last = m.path.last().copied().unwrap_or_default();
            m.path.push(last + DVec2::new(1.0, 0.0));
            changed = true;
        }
        if s.selection.node.is_some() && ui.button("Delete node").clicked() {
            s.delete_selection();
        }
    });
    ui.label("Drag a node in the view; Ctrl-click the path adds one.");
    ui.label("Drag a corner to reshape a piece (it stays convex); Ctrl-click beside it adds one, on it removes it.");
    ui.horizontal(|ui| {
        ui.label(format!(
            "{} piece{}",
            m.pieces.len(),
            if m.pieces.len() == 1 { "" } else { "s" }
        ));
        if m.pieces.len() > 1 && ui.button("Remove last piece").clicked() {
            m.pieces.pop();
            changed = true;
        }
    })
    .response
    .on_hover_text("Shift-drag a rectangle with the Mover tool: another piece of this mover");
    if changed && m != old {
        let mut movers = s.level().movers.clone();
        movers[i] = m;
        s.edit_object(Edit::SetMovers {
            movers,
            restore: false,
        });
    }
    if ui.button("Delete mover").clicked() {
        s.selection.node = None;
        s.delete_selection();
    }
}

fn door_fields(ed: &mut EditorUi, ui: &mut Ui, i: usize) {
    let s = &mut ed.session;
    let Some(old) = s.level().doors.get(i).cloned() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(format!("door {i}")).strong());
    let mut d = old.clone();
    let centre = objects::rect_centre(&d.points);
    let mut changed = field_widgets(ui, "door", d.fields_mut(), centre);
    match d.switch {
        Some(sw) => {
            ui.label(format!(
                "switch: ({:.2}, {:.2}) to ({:.2}, {:.2})",
                sw.min.x, sw.min.y, sw.max.x, sw.max.y
            ));
            if ui.button("Remove switch").clicked() {
                d.switch = None;
                changed = true;
            }
        }
        None => {
            ui.label("no switch: pick the Switch tool and drag its region");
        }
    }
    if changed && d != old {
        let mut doors = s.level().doors.clone();
        doors[i] = d;
        s.edit_object(Edit::SetDoors {
            doors,
            restore: false,
        });
    }
    if ui.button("Delete door").clicked() {
        s.delete_selection();
    }
}

/// A slider that poses every mover at a chosen time (drawn as ghosts), without running the
/// simulation.
fn scrubber(ed: &mut EditorUi, ui: &mut Ui) {
    ui.separator();
    let longest = ed
        .session
        .level()
        .movers
        .iter()
        .map(|m| match m.mode {
            MoverMode::PingPong => 2.0 * m.period,
            MoverMode::Loop => m.period,
        })
        .fold(0.0, f64::max);
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
