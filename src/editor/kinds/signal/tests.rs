//! The signal kind's own tests: placing a region signal, its markers, renaming through its
//! panel, linking by dragging, unlinking in a target's panel, each undone and redone exactly.
use glam::DVec2;

use super::{source_point, Signal};
use crate::collision::Aabb;
use crate::editor::kinds::{kind, ObjectKind, PanelUi, Part};
use crate::editor::objects::{self, Grab, ObjectRef};
use crate::editor::{EditorSession, History, Modifiers, Tool};
use crate::level::fields::{FieldMut, ObjectField};
use crate::level::{Level, SignalSource};

fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

/// The signals test level (`levels/test/signals.ron`) with a delay after `shut`: two movers,
/// two doors, a region, two timers, a `stood_on`, a `mover_end`, an `after`.
fn level() -> Level {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/test/signals.ron"),
    )
    .unwrap();
    let text = text.replace(
        "(name: \"docked\", source: mover_end(0)),",
        "(name: \"docked\", source: mover_end(0)), (name: \"late\", source: after(signal: \
         \"shut\", seconds: 1.0)),",
    );
    let text = text.replace("close_on: [\"shut\"]", "close_on: [\"shut\", \"late\"]");
    crate::level::parse_level(std::path::Path::new("signals.ron"), &text).unwrap()
}

/// A panel that types `name` into a text field labelled `field` and picks choice `pick` of the
/// field `choice`.
#[derive(Default)]
struct Type {
    field: &'static str,
    name: &'static str,
    choice: &'static str,
    pick: usize,
    click: Option<&'static str>,
}

impl PanelUi for Type {
    fn fields(&mut self, _: &str, fields: Vec<ObjectField<'_>>, _: DVec2) -> bool {
        let mut changed = false;
        for f in fields {
            match f.value {
                FieldMut::Text(t) if f.def.name == self.field => {
                    *t = self.name.to_string();
                    changed = true;
                }
                FieldMut::Choice(c) if f.def.name == self.choice => {
                    c.set_index(self.pick);
                    changed = true;
                }
                _ => {}
            }
        }
        changed
    }
    fn text(&mut self, _: &str) {}
    fn row(&mut self, text: Option<&str>, buttons: &[&str], _: Option<&str>) -> Option<usize> {
        let click = self.click?;
        let (row, button) = click.split_once('|')?;
        if text? != row {
            return None;
        }
        buttons.iter().position(|b| *b == button)
    }
    fn point_row(&mut self, _: &str, _: bool, _: &mut DVec2) -> (bool, bool) {
        (false, false)
    }
}

/// Applies `edit`, then checks undo gives back the level before and redo the level after.
fn round_trip(l: &mut Level, edit: crate::editor::Edit) -> Level {
    let before = l.clone();
    let mut h = History::default();
    h.apply(l, edit).unwrap();
    l.validate().unwrap();
    let after = l.clone();
    assert!(h.undo(l).unwrap());
    assert_eq!(*l, before, "undo");
    assert!(h.redo(l).unwrap());
    assert_eq!(*l, after, "redo");
    after
}

#[test]
fn the_signal_tool_places_a_snapped_region_signal_with_a_free_name() {
    let mut s = EditorSession::new(level(), None);
    s.set_tool(Tool::Place(Signal::NAME));
    let n = s.level().signals.len();
    s.press(p(2.1, 0.1), 0.1, Modifiers::default());
    s.drag(p(3.0, 1.0));
    s.release(p(3.9, 2.4));
    let l = s.level().clone();
    assert_eq!(l.signals.len(), n + 1, "{:?}", s.message());
    assert_eq!(l.signals[n].name, "signal 1");
    assert!(matches!(
        l.signals[n].source,
        SignalSource::Region { area, .. } if area == Aabb { min: p(2.0, 0.0), max: p(4.0, 2.5) }
    ));
    assert_eq!(s.selection.object, Some(ObjectRef::new("signal", n)));
    assert!(s.undo());
    assert_eq!(s.level().signals.len(), n);
}

#[test]
fn markers_sit_at_what_they_read_and_placeless_ones_are_listed_above_the_spawn() {
    let l = level();
    // stood_on(mover 0): the top of mover 0 (x -1..1, top 2.5); mover_end(0): its end, 8 m on.
    assert_eq!(source_point(&l, &l.signals[0].source), Some(p(0.0, 2.5)));
    assert_eq!(source_point(&l, &l.signals[4].source), Some(p(8.0, 2.5)));
    assert_eq!(source_point(&l, &l.signals[2].source), None);
    let k = kind(Signal::NAME);
    let handle = |i| k.part_point(&l, i, Part::Link).unwrap();
    // The timers and the delay: above their first target, door 0 (x 20..21, top 3), one above
    // the other; a timer acting on nothing: above the spawn.
    let (shut, reopen, late) = (handle(2), handle(3), handle(5));
    assert_eq!(shut.x, reopen.x);
    assert_eq!(reopen.x, late.x);
    assert!(shut.x > 20.5 && shut.y > 3.0 && reopen.y > shut.y && late.y > reopen.y);
    let mut alone = l.clone();
    alone.doors[0].open_on.clear();
    let h = k.part_point(&alone, 3, Part::Link).unwrap();
    assert!(h.x > l.spawn.x && h.x < l.spawn.x + 1.0 && h.y > l.spawn.y + 3.0);
    // The region's handle: its top centre.
    assert_eq!(handle(1), p(8.25, 3.5));
    // A marker is not dragged: it has no anchor; a region is.
    assert_eq!(k.part_point(&l, 0, Part::Body), None);
    assert_eq!(k.part_point(&l, 1, Part::Body), Some(p(7.5, 2.4)));
}

#[test]
fn every_link_is_a_line_from_its_source_to_its_target() {
    let l = level();
    let links = objects::links(&l);
    let seen: Vec<(&str, &str, usize, &str)> = links
        .iter()
        .map(|k| (k.target.kind, k.field, k.target.index, k.signal.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            ("door", "open_on", 0, "reopen"),
            ("door", "close_on", 0, "shut"),
            ("door", "close_on", 0, "late"),
            ("door", "open_on", 1, "docked"),
            ("mover", "start_on", 0, "aboard"),
            ("mover", "start_on", 1, "arrive"),
            ("signal", "after", 5, "shut"),
        ]
    );
    let k = kind(Signal::NAME);
    assert_eq!(links[3].from, k.part_point(&l, 4, Part::Link).unwrap());
    assert_eq!(links[3].to, p(24.5, 1.5));
    assert_eq!(links[1].action, 1);
}

#[test]
fn renaming_renames_every_use_in_one_undoable_edit() {
    let mut l = level();
    let k = kind(Signal::NAME);
    let mut ui = Type {
        field: "name",
        name: "shut the door",
        ..Type::default()
    };
    // `shut`: door 0's close_on, and `late` waits on it.
    let (edit, _) = k.panel(&l, 2, None, &mut ui);
    let after = round_trip(&mut l, edit.expect("a rename edits"));
    assert_eq!(after.signals[2].name, "shut the door");
    assert_eq!(after.doors[0].close_on, ["shut the door", "late"]);
    assert!(matches!(
        &after.signals[5].source,
        SignalSource::After { signal, .. } if signal == "shut the door"
    ));
    // `aboard`: mover 0's start_on.
    let mut ui = Type {
        field: "name",
        name: "on board",
        ..Type::default()
    };
    let (edit, _) = k.panel(&l, 0, None, &mut ui);
    let after = round_trip(&mut l, edit.unwrap());
    assert_eq!(after.movers[0].start_on, ["on board"]);
    // A name another signal has is refused, the level unchanged.
    let mut ui = Type {
        field: "name",
        name: "reopen",
        ..Type::default()
    };
    let (edit, _) = k.panel(&l, 2, None, &mut ui);
    let before = l.clone();
    let e = crate::editor::apply(&mut l, &edit.unwrap()).unwrap_err();
    assert!(e.to_string().contains("unique"), "{e}");
    assert_eq!(l, before);
}

#[test]
fn the_panel_changes_the_kind_of_source() {
    let mut l = level();
    let k = kind(Signal::NAME);
    // The region `arrive` becomes a timer at 1 s.
    let mut ui = Type {
        choice: "source",
        pick: 1,
        ..Type::default()
    };
    let (edit, _) = k.panel(&l, 1, None, &mut ui);
    let after = round_trip(&mut l, edit.unwrap());
    assert_eq!(
        after.signals[1].source,
        SignalSource::Timer {
            at: Some(1.0),
            every: None
        }
    );
}

#[test]
fn a_used_signal_is_not_deleted_but_an_unused_one_is() {
    let mut l = level();
    let k = kind(Signal::NAME);
    let remove = k.removed(&l, 4).unwrap();
    let e = crate::editor::apply(&mut l, &remove).unwrap_err();
    assert!(e.to_string().contains("docked"), "{e}");
    l.doors[1].open_on.clear();
    let remove = k.removed(&l, 4).unwrap();
    round_trip(&mut l, remove);
}

#[test]
fn dragging_from_a_signal_onto_a_door_or_a_mover_links_it() {
    let mut s = EditorSession::new(level(), None);
    let k = kind(Signal::NAME);
    let before = s.level().clone();
    // `shut` (a timer, listed above the spawn) onto door 1: its open_on.
    let from = k.part_point(&before, 2, Part::Link).unwrap();
    assert_eq!(
        s.pick(from, 0.1),
        Some(crate::editor::Hit::Object(Grab::new(
            "signal",
            2,
            Part::Link
        )))
    );
    s.press(from, 0.1, Modifiers::default());
    s.drag(p(10.0, 2.0));
    assert_eq!(
        s.link_drag(),
        Some((ObjectRef::new("signal", 2), from, p(10.0, 2.0)))
    );
    s.release(p(24.5, 1.0));
    assert_eq!(s.link_drag(), None);
    assert_eq!(s.level().doors[1].open_on, ["docked", "shut"]);
    assert_eq!(s.selection.object, Some(ObjectRef::new("door", 1)));
    let linked = s.level().clone();
    assert!(s.undo());
    assert_eq!(*s.level(), before);
    assert!(s.redo());
    assert_eq!(*s.level(), linked);
    // The region `arrive` onto mover 0 (x -1..1, y 2..2.5): its start_on.
    let from = k.part_point(&linked, 1, Part::Link).unwrap();
    s.press(from, 0.1, Modifiers::default());
    s.release(p(0.0, 2.25));
    assert_eq!(s.level().movers[0].start_on, ["aboard", "arrive"]);
    // Onto nothing, or a second time: refused with the reason, nothing changes.
    let now = s.level().clone();
    s.press(from, 0.1, Modifiers::default());
    s.release(p(15.0, 8.0));
    assert!(s.message().unwrap().text.contains("door or a mover"));
    s.press(from, 0.1, Modifiers::default());
    s.release(p(0.5, 2.25));
    assert!(s
        .message()
        .unwrap()
        .text
        .contains("already acts on `arrive`"));
    assert_eq!(*s.level(), now);
    // A click on the handle selects the signal and links nothing.
    s.press(from, 0.1, Modifiers::default());
    s.release(from);
    assert_eq!(s.selection.object, Some(ObjectRef::new("signal", 1)));
    assert_eq!(*s.level(), now);
}

#[test]
fn a_targets_panel_changes_a_links_action_or_unlinks_it() {
    let mut l = level();
    let door = kind("door");
    let mut ui = Type {
        click: Some("`shut`: close|toggle instead"),
        ..Type::default()
    };
    let (edit, _) = door.panel(&l, 0, None, &mut ui);
    let after = round_trip(&mut l, edit.unwrap());
    assert_eq!(after.doors[0].close_on, ["late"]);
    assert_eq!(after.doors[0].toggle_on, ["shut"]);
    let mover = kind("mover");
    let mut ui = Type {
        click: Some("`aboard`: start|Unlink"),
        ..Type::default()
    };
    let (edit, _) = mover.panel(&l, 0, None, &mut ui);
    let after = round_trip(&mut l, edit.unwrap());
    assert!(after.movers[0].start_on.is_empty());
}

#[test]
fn a_region_signal_is_resized_by_its_corners_on_the_grid() {
    let mut s = EditorSession::new(level(), None);
    let k = kind(Signal::NAME);
    s.select_object(ObjectRef::new("signal", 1), None);
    // The upper-right corner (9, 3.5) dragged to about (10.1, 4.1): snapped to (10, 4).
    s.press(p(9.0, 3.5), 0.1, Modifiers::default());
    s.drag(p(9.6, 3.8));
    s.release(p(10.1, 4.1));
    assert!(matches!(
        s.level().signals[1].source,
        SignalSource::Region { area, .. } if area == Aabb { min: p(7.5, 2.4), max: p(10.0, 4.0) }
    ));
    assert!(s.undo());
    assert_eq!(s.level().signals[1], level().signals[1]);
    assert_eq!(k.corners(&s.level(), 0), Vec::<DVec2>::new());
}

#[test]
fn a_delays_panel_picks_the_signal_it_waits_on_among_the_others() {
    let mut l = level();
    let k = kind(Signal::NAME);
    // `late` waits on `shut` (signal 2): the next other signal is `reopen`.
    let mut ui = Type {
        click: Some("after `shut`|next signal"),
        ..Type::default()
    };
    let (edit, _) = k.panel(&l, 5, None, &mut ui);
    let after = round_trip(&mut l, edit.unwrap());
    assert!(matches!(
        &after.signals[5].source,
        SignalSource::After { signal, .. } if signal == "reopen"
    ));
}

#[test]
fn an_object_a_signal_reads_is_not_deleted() {
    let mut l = level();
    l.movers.truncate(1);
    l.signals.retain(|s| s.name != "arrive");
    let before = l.clone();
    let remove = kind("mover").removed(&l, 0).unwrap();
    let e = crate::editor::apply(&mut l, &remove).unwrap_err();
    assert!(
        e.to_string().contains("`aboard`: mover 0 does not exist"),
        "{e}"
    );
    assert_eq!(l, before);
}
