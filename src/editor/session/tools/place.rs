//! The placing tools: one per registered object kind with a [`Place`] (`editor::kinds`), made
//! from the registry, so a new kind brings its tool with it. A click or a dragged rectangle (as
//! the kind says) becomes a new object of the kind ([`AnyKind::placed`]), added through the
//! history and selected; the level's rules refuse it with the reason at the cursor. With a kind
//! that grows ([`AnyKind::grows`]: a mover), a Shift-drag adds the rectangle to the selected one
//! instead. A kind with a template ([`AnyKind::template`]: an agent's kind, size and facing) is
//! placed from the session's copy of it instead, which the tool's panel edits; the tool then
//! shows what a click would place, red where it would be refused. The region tools
//! ([`RegionTool`]) set a kind's region the same way (a door's switch).
//!
//! The tool is [`Tool::Place`] or [`Tool::Region`] with the kind's name; the behaviour reads the
//! kind from the session's active tool.
use glam::DVec2;

use super::{has_area, start_band, Look, Press, Sketch, Tool, ToolBehaviour, ToolPanel};
use crate::collision::Aabb;
use crate::editor::kinds::{kind, AnyKind, Place, Placement};
use crate::editor::objects::{self, ObjectRef};
use crate::editor::ops::Edit;
use crate::editor::session::EditorSession;

/// The placing tool of the kind the session's active tool names.
pub(super) struct PlaceTool;

/// The kind of the active placing or region tool.
fn active_kind(s: &EditorSession) -> Option<&'static dyn AnyKind> {
    match s.tool {
        Tool::Place(name) | Tool::Region(name) => Some(kind(name)),
        _ => None,
    }
}

/// Adds a new object of `k` at `at` through the history and selects it; `p` is where a refusal
/// shows. The one path every placing tool and the left panel's "add at the hero" take.
pub(in crate::editor::session) fn place(
    s: &mut EditorSession,
    k: &'static dyn AnyKind,
    at: Placement,
    p: DVec2,
) {
    let placed = k.placed(&s.level.read(), at);
    if let Some((edit, object)) = placed {
        add(s, edit, object, p);
    }
}

/// A click of `k`'s placing tool at `at`: a new object made from the session's template of the
/// kind, its anchor at `at`, or for a kind with no template ([`AnyKind::placed`]) at `at`.
fn place_click(s: &mut EditorSession, k: &'static dyn AnyKind, at: DVec2, p: DVec2) {
    let placed = s
        .templates
        .of(k.name())
        .map(|t| k.placed_from_template(&s.level.read(), t, at));
    match placed {
        Some((edit, object)) => add(s, edit, object, p),
        None => place(s, k, Placement::At(at), p),
    }
}

/// Makes `edit` (adding `object`) through the history and selects the object.
fn add(s: &mut EditorSession, edit: Edit, object: ObjectRef, p: DVec2) {
    if s.edit(edit, p).is_ok() {
        s.select_object(object, None);
    }
}

impl ToolBehaviour for PlaceTool {
    fn label(&self) -> &'static str {
        "Place"
    }

    fn hint(&self) -> &'static str {
        "Place a new object of the kind chosen in the Objects menu"
    }

    fn is_object(&self) -> bool {
        true
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        let Some(k) = active_kind(s) else {
            return;
        };
        match k.place() {
            Some(Place::Click) => place_click(s, k, press.snapped, press.at),
            Some(Place::Drag) => start_band(s, press.snapped, press.mods.shift && k.grows()),
            None => {}
        }
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, add: bool) {
        let Some(k) = active_kind(s) else {
            return;
        };
        if !has_area(&r) {
            return;
        }
        if add {
            let selected = s.selection.object.filter(|o| o.kind == k.name());
            let edit = selected.and_then(|o| k.with_box(&s.level.read(), o.index, r));
            match edit {
                Some(edit) => {
                    let _ = s.edit(edit, p);
                }
                None => s.refuse(
                    format!("select a {} first: Shift-drag adds to it", k.name()),
                    p,
                ),
            }
            return;
        }
        place(s, k, Placement::Box(r), p);
    }

    /// The template's settings, for a kind with one.
    fn panel<'s>(&self, s: &'s mut EditorSession) -> Option<ToolPanel<'s>> {
        let k = active_kind(s)?;
        let (title, help) = k.template_panel();
        let t = s.templates.of_mut(k.name())?;
        Some(ToolPanel {
            title,
            fields: k.template_fields(t),
            help,
        })
    }

    fn panel_changed(&self, s: &mut EditorSession, field: &'static str) {
        let Some(k) = active_kind(s) else {
            return;
        };
        if let Some(t) = s.templates.of_mut(k.name()) {
            k.template_changed(t, field);
        }
    }

    /// For a kind with a template: the body of what a click would place, its anchor at the
    /// snapped pointer (a dot), red where the click would be refused.
    fn sketch(&self, s: &EditorSession, pointer: Option<DVec2>) -> Vec<Sketch> {
        let (Some(k), Some(pointer)) = (active_kind(s), pointer) else {
            return Vec::new();
        };
        let Some(t) = s.templates.of(k.name()) else {
            return Vec::new();
        };
        let at = s.grid.snap(pointer);
        let (body, ok) = k.template_preview(&s.level.read(), t, at);
        let look = if ok { Look::Preview } else { Look::Refused };
        body.into_iter()
            .map(|points| Sketch::Path {
                points,
                closed: true,
                width: 1.5,
                look,
            })
            .chain([Sketch::Dot {
                at,
                radius: 3.0,
                look,
            }])
            .collect()
    }
}

/// The region tool of the kind the session's active tool names: a click on an object of the
/// kind picks it; a rectangle dragged then becomes its region (one undoable edit), refused with
/// the reason when none is picked.
pub(super) struct RegionTool;

impl ToolBehaviour for RegionTool {
    fn label(&self) -> &'static str {
        "Region"
    }

    fn hint(&self) -> &'static str {
        "Click an object to pick it, then drag a rectangle: its region"
    }

    fn is_object(&self) -> bool {
        true
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        let Some(k) = active_kind(s) else {
            return;
        };
        let picked = objects::pick_inside(&s.level.read(), press.at).map(|g| g.object);
        if let Some(object) = picked.filter(|o| o.kind == k.name()) {
            s.select_object(object, None);
            return;
        }
        start_band(s, press.snapped, false);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, p: DVec2, _add: bool) {
        let Some(k) = active_kind(s) else {
            return;
        };
        if !has_area(&r) {
            return;
        }
        let picked = s.selection.object.filter(|o| o.kind == k.name());
        let edit = picked.and_then(|o| k.with_region(&s.level.read(), o.index, r));
        let Some(edit) = edit else {
            let tool = k.region_tool().map_or("region", |(label, _)| label);
            s.refuse(
                format!(
                    "pick a {} first: click it with the {} tool",
                    k.name(),
                    tool.to_lowercase()
                ),
                p,
            );
            return;
        };
        let _ = s.edit(edit, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::kinds::{Part, KINDS};
    use crate::editor::session::tests::{level, p};
    use crate::editor::session::Modifiers;

    /// Every registered kind with a placing tool is placed through the path a user's click or
    /// drag takes (the tool chosen from `Tool::all`, a press, a drag, a release on the session),
    /// clear of the ground: one more of the kind, selected, the level still valid, and one undo
    /// takes it away. A kind with a template (an agent) is placed from the session's template,
    /// its anchor at the click, where its tool's sketch showed it. A new kind is covered with no
    /// test code of its own.
    #[test]
    fn every_registered_kind_is_placed_by_its_tool() {
        let placing: Vec<Tool> = Tool::all()
            .into_iter()
            .filter(|t| matches!(t, Tool::Place(_)))
            .collect();
        let with_place = KINDS.iter().filter(|k| k.place().is_some()).count();
        assert_eq!(
            placing.len(),
            with_place,
            "one placing tool per kind: {placing:?}"
        );
        assert!(
            with_place >= 5,
            "door, mover, checkpoint, goal and agent at least"
        );
        let mut templated = 0;
        let none = Modifiers::default();
        for tool in placing {
            let Tool::Place(name) = tool else {
                unreachable!()
            };
            let k = kind(name);
            let mut s = EditorSession::new(level(), None);
            s.grid.enabled = false;
            s.set_tool(tool);
            assert!(!tool.label().is_empty() && tool.hint().len() > tool.label().len());
            let before = k.count(&s.level());
            let (from, to) = (p(-3.0, 2.0), p(-1.0, 4.5));
            let template = s.templates.of(name).is_some();
            if template {
                let sketch = s.tool_sketch(Some(from));
                assert!(
                    sketch.contains(&Sketch::Dot {
                        at: from,
                        radius: 3.0,
                        look: Look::Preview,
                    }),
                    "{name}: {sketch:?}"
                );
            }
            s.press(from, 0.1, none);
            if k.place() == Some(Place::Drag) {
                s.drag(to);
            }
            s.release(to);
            assert_eq!(k.count(&s.level()), before + 1, "{name}: {:?}", s.message());
            let placed = s.selection.object.expect("the new object is selected");
            assert_eq!((placed.kind, placed.index), (name, before));
            if template {
                templated += 1;
                let anchor = k.part_point(&s.level(), before, Part::Body);
                assert_eq!(anchor, Some(from), "{name}: placed from its template");
            }
            s.level().validate().unwrap();
            assert!(s.undo());
            assert_eq!(k.count(&s.level()), before, "{name}: undone");
        }
        assert!(templated >= 1, "the agent's tool has a template");
    }

    /// The left panel's "add at the hero" for every kind made at a point: the same path, a new
    /// one at the feet, selected; the regions (a checkpoint, the goal) are among them, and the
    /// goal a second time is refused (a level has one at most).
    #[test]
    fn every_kind_made_at_a_point_is_added_at_the_hero() {
        let mut s = EditorSession::new(level(), None);
        let feet = p(4.0, 0.0);
        let mut added = Vec::new();
        for &k in KINDS {
            if k.placed(&s.level(), Placement::At(feet)).is_none() {
                continue;
            }
            let before = k.count(&s.level());
            s.place_object(k, Placement::At(feet), feet);
            assert_eq!(
                k.count(&s.level()),
                before + 1,
                "{}: {:?}",
                k.name(),
                s.message()
            );
            assert_eq!(s.selection.object.map(|o| o.kind), Some(k.name()));
            added.push(k.name());
        }
        assert!(
            added.contains(&"checkpoint") && added.contains(&"goal"),
            "{added:?}"
        );
        let goal = kind("goal");
        s.place_object(goal, Placement::At(feet), feet);
        assert_eq!(goal.count(&s.level()), 1);
        assert!(s.message().is_some_and(|m| m.error));
        s.level().validate().unwrap();
    }

    /// A kind that grows by a box (a mover) takes a Shift-drag as a new piece of the selected
    /// one, and refuses it with the reason when none is selected; a region tool refuses a box
    /// before an object of its kind is picked.
    #[test]
    fn shift_drag_grows_the_selected_object_and_a_region_needs_a_pick() {
        let growing = KINDS
            .iter()
            .find(|k| k.grows() && k.place() == Some(Place::Drag))
            .expect("a kind that grows");
        let mut s = EditorSession::new(level(), None);
        s.grid.enabled = false;
        s.set_tool(Tool::Place(growing.name()));
        let shift = Modifiers {
            shift: true,
            ..Modifiers::default()
        };
        s.press(p(-3.0, 2.0), 0.1, shift);
        s.drag(p(-2.0, 3.0));
        s.release(p(-2.0, 3.0));
        assert_eq!(growing.count(&s.level()), 0);
        assert!(s.message().is_some_and(|m| m.text.contains("select a")));
        s.press(p(-3.0, 2.0), 0.1, Modifiers::default());
        s.drag(p(-2.0, 3.0));
        s.release(p(-2.0, 3.0));
        let body = growing.body(&s.level(), 0).len();
        s.press(p(-1.0, 2.0), 0.1, shift);
        s.drag(p(0.0, 3.0));
        s.release(p(0.0, 3.0));
        assert_eq!(growing.count(&s.level()), 1);
        assert_eq!(growing.body(&s.level(), 0).len(), body + 1);

        let region = KINDS
            .iter()
            .find(|k| k.region_tool().is_some())
            .expect("a kind with a region tool");
        s.set_tool(Tool::Region(region.name()));
        s.selection.clear();
        s.press(p(5.0, 2.0), 0.1, Modifiers::default());
        s.drag(p(6.0, 3.0));
        s.release(p(6.0, 3.0));
        assert!(s.message().is_some_and(|m| m.text.contains("pick a")));
    }
}
