//! The registry's tests: they know no kind by name, only [`KINDS`], so a kind added to the list
//! is checked here with no test code of its own.
use std::collections::BTreeSet;

use glam::DVec2;

use super::{Colour, DrawState, PanelUi, Part, Pen, KINDS};
use crate::collision::Aabb;
use crate::editor::objects::{self, Grab, ObjectRef};
use crate::editor::History;
use crate::level::fields::ObjectField;
use crate::level::Level;

/// Solid ground from x = -10 to 10, its top at y = 0: the level [`super::ObjectKind::example`]
/// items are made for.
fn level() -> Level {
    let text = "(
        name: \"kinds\",
        polygons: [(points: [(-10.0, -1.0), (10.0, -1.0), (10.0, 0.0), (-10.0, 0.0)])],
        spawn: (-8.0, 0.0),
    )";
    crate::level::parse_ron(std::path::Path::new("kinds.ron"), text).unwrap()
}

/// Every part an object has: its body, each handle and corner, its region.
fn parts(level: &Level, object: ObjectRef) -> Vec<Part> {
    let (k, i) = (object.kind(), object.index);
    let mut parts = vec![Part::Body];
    parts.extend((0..k.handles(level, i).len()).map(Part::Handle));
    parts.extend((0..k.corners(level, i).len()).map(Part::Corner));
    parts.extend(k.region(level, i).map(|_| Part::Region));
    parts
}

/// Each registered kind, by the registry alone: add its example; drag each of its parts (one
/// undoable edit each: undo gives back the level `==`, redo the moved one); copy and paste it;
/// remove it and undo; and undo everything back to the empty level. The level validates at
/// every step.
#[test]
fn every_registered_kind_round_trips() {
    let names: BTreeSet<&str> = KINDS.iter().map(|k| k.name()).collect();
    assert_eq!(
        names.len(),
        KINDS.len(),
        "two kinds share a name: {names:?}"
    );
    for &k in KINDS {
        let name = k.name();
        let l0 = level();
        let mut l = l0.clone();
        let mut h = History::default();
        let fail = |what: &str, e: &dyn std::fmt::Display| panic!("{name}: {what}: {e}");
        let add = k.add_example(&l);
        h.apply(&mut l, add)
            .unwrap_or_else(|e| fail("adding its example", &e));
        assert_eq!(k.count(&l), 1, "{name}");
        l.validate().unwrap_or_else(|e| fail("its example", &e));
        let o = ObjectRef::new(name, 0);
        for part in parts(&l, o) {
            let g = Grab { object: o, part };
            let before = l.clone();
            let from = objects::grab_point(&l, g).expect("the part exists");
            let edit = objects::moved(&l, g, DVec2::new(0.25, 0.0)).expect("it moves");
            h.apply(&mut l, edit)
                .unwrap_or_else(|e| fail(&format!("moving {part:?}"), &e));
            l.validate().unwrap_or_else(|e| fail("moved", &e));
            assert_ne!(l, before, "{name}: moving {part:?} changed nothing");
            assert_eq!(
                objects::grab_point(&l, g),
                Some(from + DVec2::new(0.25, 0.0))
            );
            let moved = l.clone();
            assert!(h.undo(&mut l).unwrap());
            assert_eq!(l, before, "{name}: undo of moving {part:?}");
            assert!(h.redo(&mut l).unwrap());
            assert_eq!(l, moved, "{name}: redo of moving {part:?}");
        }
        // Copy and paste 5 m up, clear of the ground; a kind the level holds one of at most
        // refuses a second, with the reason.
        let clip = k.clip(&l, 0).expect("a copy");
        let (edit, at) = clip.pasted(&l, DVec2::new(0.0, 5.0));
        if k.most() == Some(1) {
            let before = l.clone();
            let e = h.apply(&mut l, edit).expect_err("a second one");
            assert!(e.to_string().contains(name), "{name}: {e}");
            assert_eq!(l, before);
        } else {
            h.apply(&mut l, edit)
                .unwrap_or_else(|e| fail("pasting", &e));
            assert_eq!((at, k.count(&l)), (1, 2), "{name}");
            let pasted = k.clip(&l, 1).unwrap().paste_point(&l);
            assert_eq!(clip.paste_point(&l) + DVec2::new(0.0, 5.0), pasted);
            l.validate().unwrap_or_else(|e| fail("pasted", &e));
        }
        // Remove the first, and undo.
        let before = l.clone();
        let remove = objects::removed(&l, o).expect("it exists");
        h.apply(&mut l, remove)
            .unwrap_or_else(|e| fail("removing", &e));
        assert_eq!(k.count(&l), k.count(&before) - 1, "{name}");
        assert!(h.undo(&mut l).unwrap());
        assert_eq!(l, before, "{name}: undo of removing");
        while h.undo(&mut l).unwrap() {}
        assert_eq!(l, l0, "{name}: undo of everything");
        assert_eq!(
            objects::removed(&l, o),
            None,
            "{name}: nothing left to remove"
        );
    }
}

/// A pen that counts what it is asked to draw.
#[derive(Default)]
struct Count(usize);

impl Pen for Count {
    fn outline(&mut self, _: &[DVec2], _: f32, _: Colour) {
        self.0 += 1;
    }
    fn rect(&mut self, _: Aabb, _: f32, _: Colour) {
        self.0 += 1;
    }
    fn line(&mut self, _: DVec2, _: DVec2, _: f32, _: Colour) {
        self.0 += 1;
    }
    fn ring(&mut self, _: DVec2, _: f32, _: f32, _: Colour) {
        self.0 += 1;
    }
    fn dot(&mut self, _: DVec2, _: f32, _: Colour) {
        self.0 += 1;
    }
    fn square(&mut self, _: DVec2, _: f32, _: f32, _: Colour) {
        self.0 += 1;
    }
    fn cross(&mut self, _: DVec2, _: f32, _: f32, _: Colour) {
        self.0 += 1;
    }
    fn label(&mut self, _: DVec2, _: &str, _: Colour) {
        self.0 += 1;
    }
}

/// A panel that touches nothing, or sets every flag field it is shown; it counts the widgets
/// it was asked for.
struct Panel {
    flip: bool,
    widgets: usize,
}

impl PanelUi for Panel {
    fn fields(&mut self, _: &str, fields: Vec<ObjectField<'_>>, _: DVec2) -> bool {
        self.widgets += fields.len();
        let mut changed = false;
        for f in fields {
            if let (true, crate::level::fields::FieldMut::Flag(b)) = (self.flip, f.value) {
                *b = !*b;
                changed = true;
            }
        }
        changed
    }
    fn text(&mut self, _: &str) {}
    fn row(&mut self, _: Option<&str>, _: &[&str], _: Option<&str>) -> Option<usize> {
        None
    }
    fn point_row(&mut self, _: &str, _: bool, _: &mut DVec2) -> (bool, bool) {
        self.widgets += 1;
        (false, false)
    }
}

/// Each kind draws its example, selected or not, through the pen; its panel shows widgets (the
/// level format's fields, points), makes no edit when nothing is touched, and one edit (that
/// applies) when a flag changes.
#[test]
fn every_registered_kind_draws_and_has_a_panel() {
    for &k in KINDS {
        let name = k.name();
        let mut l = level();
        let add = k.add_example(&l);
        crate::editor::apply(&mut l, &add).unwrap();
        for selected in [false, true] {
            let mut pen = Count::default();
            let state = DrawState {
                selected,
                node: None,
                time: Some(0.5),
            };
            k.draw(&l, 0, state, &mut pen);
            assert!(pen.0 > 0, "{name} draws nothing");
        }
        let mut still = Panel {
            flip: false,
            widgets: 0,
        };
        let (edit, _) = k.panel(&l, 0, None, &mut still);
        assert!(still.widgets > 0, "{name} shows nothing to edit");
        assert_eq!(edit, None, "{name}: an untouched panel edits");
        let mut flip = Panel {
            flip: true,
            widgets: 0,
        };
        if let (Some(edit), _) = k.panel(&l, 0, None, &mut flip) {
            crate::editor::apply(&mut l, &edit).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}
