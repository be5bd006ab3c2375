//! The editor's tools, one file each behind one small interface, [`ToolBehaviour`].
//!
//! # What it owns
//! What each tool does with the pointer and the keys: a press ([`ToolBehaviour::press`]), the
//! rectangle a rubber band it started ends as ([`ToolBehaviour::band`]), and the drawing keys
//! (Enter, Backspace, Escape: [`ToolBehaviour::key`]). Drags are the gestures' business
//! (`session.rs`): a press starts one (moving vertices, polygons, ladders, the spawn or an
//! object, a band, a tile stroke) and a drag continues it whatever the tool.
//!
//! What a tool shows over the view while it is active is its [`ToolBehaviour::sketch`]: plain
//! shapes in level coordinates ([`Sketch`]: the polygon being drawn with its rubber line, the
//! object a placing tool with a template would place, red where it would be refused, the cell
//! the Tiles brush would fill), which the egui side paints (`editor::ui::view`). The band is a
//! gesture's and is drawn for every tool. A tool with settings of its own (a placing tool's
//! template: an agent's kind, size class and facing) gives them as a [`ToolPanel`] of the level
//! format's field definitions ([`ToolBehaviour::panel`]), which the side panel generates widgets
//! for (`editor::ui::objects`) and reports changes of ([`ToolBehaviour::panel_changed`]). This
//! module and its tools never name egui (`tests/it/layering.rs`).
//!
//! # Adding a tool
//! A new file here with a unit struct implementing [`ToolBehaviour`] (its label and hint,
//! whether it is an object tool, what a press and a band do, what it sketches, its settings
//! panel), and one line in [`Tool`]'s list ([`Tool::behaviour`]).
//!
//! The tools that place objects and set their regions are not added here: they come from the
//! object kinds' registry (`editor::kinds::KINDS`), one [`Tool::Place`] per kind with a placing
//! rule and one [`Tool::Region`] per kind with a region tool, all run by `place.rs`, settings
//! included (a kind's template, `ObjectKind::template`).
mod box_brush;
mod draw;
mod place;
mod place_hero;
mod select;
mod spawn;
mod tiles;

pub(super) use place::place;

use glam::DVec2;

use super::{EditorSession, Gesture, Modifiers};
use crate::collision::Aabb;
use crate::editor::kinds::{kind, KINDS};
use crate::level::fields::ObjectField;

/// A press of the primary button, in level coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Press {
    /// Where the pointer is.
    pub at: DVec2,
    /// That point snapped to the grid (the pointer's own point when the grid is off).
    pub snapped: DVec2,
    /// The picking radius, m (a few pixels at the current zoom).
    pub radius: f64,
    /// The modifier keys held.
    pub mods: Modifiers,
}

/// A key a tool may take before the editor's own meaning of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolKey {
    /// Enter: finish what is being made.
    Finish,
    /// Backspace: take back the last step of it (else the editor deletes the selection).
    Back,
    /// Escape: drop it (else the editor clears the selection).
    Cancel,
}

/// How a [`Sketch`] is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Something being made (the polygon being drawn).
    Making,
    /// What a click would make.
    Preview,
    /// What a click would make, but the edit would be refused (the reason shows on the click).
    Refused,
}

/// A shape a tool shows over the view, in level coordinates; widths and radii are in screen
/// points.
#[derive(Clone, Debug, PartialEq)]
pub enum Sketch {
    /// A polyline, back to its first point when `closed`.
    Path {
        /// Its points.
        points: Vec<DVec2>,
        /// Whether the last point joins the first.
        closed: bool,
        /// Line width, points.
        width: f32,
        /// How it is drawn.
        look: Look,
    },
    /// A filled dot.
    Dot {
        /// Its centre.
        at: DVec2,
        /// Radius, points.
        radius: f32,
        /// How it is drawn.
        look: Look,
    },
}

/// A tool's own settings, edited in the side panel while it is active: generated from the
/// fields' definitions (the level format's, with their ranges and docs), like an object's.
pub struct ToolPanel<'s> {
    /// The panel's heading.
    pub title: &'static str,
    /// The settings.
    pub fields: Vec<ObjectField<'s>>,
    /// A line under them: how the settings are used.
    pub help: &'static str,
}

/// What one tool does (see the module docs).
pub trait ToolBehaviour: Sync {
    /// The toolbar label.
    fn label(&self) -> &'static str;

    /// What it does, in a sentence: the toolbar button's hover text.
    fn hint(&self) -> &'static str;

    /// Whether it places or links objects (agents, movers, doors, switches): the toolbar lists
    /// these in its Objects menu.
    fn is_object(&self) -> bool {
        false
    }

    /// The primary button went down.
    fn press(&self, s: &mut EditorSession, press: Press);

    /// A rubber band this tool started ended as `r` (possibly empty: a click) at `p`; `add`
    /// is the Shift of its press.
    fn band(&self, _s: &mut EditorSession, _r: Aabb, _p: DVec2, _add: bool) {}

    /// Whether its band's corners snap to the grid (a selection box does not).
    fn band_snaps(&self) -> bool {
        true
    }

    /// A key; returns whether the tool took it. The pointer is at `cursor`.
    fn key(&self, _s: &mut EditorSession, _key: ToolKey, _cursor: DVec2) -> bool {
        false
    }

    /// What it shows over the view with the pointer at `pointer` (in level coordinates, not
    /// snapped; `None` when the pointer is not over the view).
    fn sketch(&self, _s: &EditorSession, _pointer: Option<DVec2>) -> Vec<Sketch> {
        Vec::new()
    }

    /// Its settings, if it has any (see [`ToolPanel`]).
    fn panel<'s>(&self, _s: &'s mut EditorSession) -> Option<ToolPanel<'s>> {
        None
    }

    /// The panel changed its setting `field` (a field definition's name): the tool keeps its
    /// settings consistent.
    fn panel_changed(&self, _s: &mut EditorSession, _field: &'static str) {}
}

/// What a click or drag in the view does: the editor's tools, in toolbar order by [`Tool::all`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Select and move vertices, polygons, ladders, objects and the spawn; box-select on empty
    /// space; Ctrl-click on an edge inserts a vertex.
    Select,
    /// Click points of a new polygon; click the first point (or press Enter) to close it.
    Draw,
    /// Drag a rectangle: a new box polygon.
    BoxBrush,
    /// Click or drag over grid cells: one square polygon per cell (the grid's size).
    TileBrush,
    /// Click: the spawn point goes there.
    Spawn,
    /// Click: the hero is put there (play-test from the cursor).
    PlaceHero,
    /// The placing tool of the object kind of this name (`editor::kinds`: a click or a dragged
    /// rectangle makes a new one, as the kind says).
    Place(&'static str),
    /// The region tool of the object kind of this name: click one to pick it, then drag a
    /// rectangle: its region (a door's switch).
    Region(&'static str),
}

impl Tool {
    /// Every tool, in toolbar order: the tools of this folder, and the registered object kinds'
    /// placing and region tools (in the registry's order, those with a template first: those not
    /// in the Objects menu after the brushes, a ladder's) before Place Hero.
    pub fn all() -> Vec<Tool> {
        let placing = |menu: bool| {
            let mut kinds: Vec<_> = KINDS
                .iter()
                .filter(|k| k.place().is_some() && k.menu() == menu)
                .collect();
            // A tool with settings (an agent's) leads its menu; the sort is stable.
            kinds.sort_by_key(|k| k.template().is_none());
            kinds.into_iter().map(|k| Tool::Place(k.name()))
        };
        let mut all = vec![Tool::Select, Tool::Draw, Tool::BoxBrush, Tool::TileBrush];
        all.extend(placing(false));
        all.push(Tool::Spawn);
        all.extend(placing(true));
        all.extend(
            KINDS
                .iter()
                .filter(|k| k.region_tool().is_some())
                .map(|k| Tool::Region(k.name())),
        );
        all.push(Tool::PlaceHero);
        all
    }

    /// What the tool does: the one list from a tool to its file.
    pub fn behaviour(self) -> &'static dyn ToolBehaviour {
        match self {
            Tool::Select => &select::SelectTool,
            Tool::Draw => &draw::Draw,
            Tool::BoxBrush => &box_brush::BoxBrush,
            Tool::TileBrush => &tiles::TileBrush,
            Tool::Spawn => &spawn::SpawnTool,
            Tool::PlaceHero => &place_hero::PlaceHero,
            Tool::Place(_) => &place::PlaceTool,
            Tool::Region(_) => &place::RegionTool,
        }
    }

    /// Whether it places or links objects ([`ToolBehaviour::is_object`]; a kind's placing tool
    /// unless the kind's tool is on the toolbar itself, [`crate::editor::kinds::ObjectKind::MENU`]).
    pub fn is_object(self) -> bool {
        match self {
            Tool::Place(name) => kind(name).menu(),
            _ => self.behaviour().is_object(),
        }
    }

    /// The toolbar label ([`ToolBehaviour::label`]; a kind's tool's from the kind).
    pub fn label(self) -> &'static str {
        self.text().0
    }

    /// What it does ([`ToolBehaviour::hint`]; a kind's tool's from the kind).
    pub fn hint(self) -> &'static str {
        self.text().1
    }

    fn text(self) -> (&'static str, &'static str) {
        let b = self.behaviour();
        let own = (b.label(), b.hint());
        match self {
            Tool::Place(name) => kind(name).tool(),
            Tool::Region(name) => kind(name).region_tool().unwrap_or(own),
            _ => own,
        }
    }
}

/// Starts a rubber band at `at` (the press of a rectangle tool).
fn start_band(s: &mut EditorSession, at: DVec2, add: bool) {
    s.gesture = Gesture::Band {
        from: at,
        to: at,
        add,
    };
}

/// Whether `r` has an inside (a band that was dragged, not clicked).
fn has_area(r: &Aabb) -> bool {
    r.min.x < r.max.x && r.min.y < r.max.y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::session::tests::{level, p};

    #[test]
    fn every_tool_has_its_own_label_and_the_object_tools_are_the_kinds() {
        let all = Tool::all();
        let labels: std::collections::BTreeSet<&str> = all.iter().map(|t| t.label()).collect();
        assert_eq!(labels.len(), all.len(), "{labels:?}");
        for &tool in &all {
            assert!(
                tool.hint().len() > tool.label().len(),
                "{tool:?} has no hint"
            );
        }
        // The object tools: the registry's placing and region tools, a tool with settings (a
        // template) first.
        let objects: Vec<Tool> = all.into_iter().filter(|t| t.is_object()).collect();
        assert!(
            matches!(objects[0], Tool::Place(name) if kind(name).template().is_some()),
            "{objects:?}"
        );
        for k in KINDS {
            assert_eq!(
                objects.contains(&Tool::Place(k.name())),
                k.place().is_some() && k.menu(),
                "{}",
                k.name()
            );
            assert_eq!(
                objects.contains(&Tool::Region(k.name())),
                k.region_tool().is_some(),
                "{}",
                k.name()
            );
        }
        assert!(objects
            .iter()
            .all(|t| matches!(t, Tool::Place(_) | Tool::Region(_))));
    }

    /// Enter, Backspace and Escape go to the Draw tool only while a polygon is being drawn;
    /// otherwise no tool takes them and they keep the editor's meaning (delete or clear the
    /// selection).
    #[test]
    fn the_drawing_keys_reach_the_draw_tool_only_while_it_draws() {
        let mut s = EditorSession::new(level(), None);
        for tool in Tool::all() {
            s.set_tool(tool);
            for key in [ToolKey::Finish, ToolKey::Back, ToolKey::Cancel] {
                assert!(!s.tool_key(key, p(0., 0.)), "{tool:?} took {key:?}");
            }
        }
        s.set_tool(Tool::Draw);
        s.grid.enabled = false;
        let none = Modifiers::default();
        for q in [p(20., 20.), p(22., 20.), p(22., 22.)] {
            s.press(q, 0.1, none);
            s.release(q);
        }
        assert!(s.tool_key(ToolKey::Back, p(0., 0.)));
        assert_eq!(s.drawing().len(), 2);
        s.press(p(21., 23.), 0.1, none);
        s.release(p(21., 23.));
        let before = s.level().polygons.len();
        assert!(s.tool_key(ToolKey::Finish, p(0., 0.)));
        assert_eq!(s.level().polygons.len(), before + 1);
        assert!(
            !s.tool_key(ToolKey::Cancel, p(0., 0.)),
            "nothing left to drop"
        );
    }

    /// Each tool shows what it is about to do: the Draw tool its polygon and the rubber line to
    /// the snapped pointer, the Tiles brush the cell under the pointer, a placing tool with a
    /// template what a click would place (`objects_tools.rs` tests the agent's); the other tools
    /// show nothing of their own.
    #[test]
    fn a_tool_sketches_what_a_click_would_make() {
        let mut s = EditorSession::new(level(), None);
        for tool in Tool::all() {
            s.set_tool(tool);
            let template = matches!(tool, Tool::Place(n) if kind(n).template().is_some());
            if !template && tool != Tool::TileBrush {
                assert_eq!(s.tool_sketch(Some(p(2., 3.))), [], "{tool:?}");
            }
        }
        // Draw: nothing until a point is down, then the points, a rubber line and the dots.
        s.set_tool(Tool::Draw);
        s.grid.enabled = false;
        assert_eq!(s.tool_sketch(Some(p(2., 3.))), []);
        let none = Modifiers::default();
        for q in [p(20., 20.), p(22., 20.)] {
            s.press(q, 0.1, none);
            s.release(q);
        }
        let sketch = s.tool_sketch(Some(p(21., 23.)));
        assert!(sketch.contains(&Sketch::Path {
            points: vec![p(22., 20.), p(21., 23.)],
            closed: false,
            width: 1.0,
            look: Look::Making,
        }));
        let dots = sketch
            .iter()
            .filter(|k| matches!(k, Sketch::Dot { .. }))
            .count();
        assert_eq!(dots, 2);
        // Without a pointer over the view, no rubber line.
        assert_eq!(s.tool_sketch(None).len(), sketch.len() - 1);
        s.tool_key(ToolKey::Cancel, p(0., 0.));
        // Tiles: the grid cell under the pointer.
        s.grid.enabled = true;
        s.set_tool(Tool::TileBrush);
        let g = s.grid.size();
        let Some(Sketch::Path { points, closed, .. }) =
            s.tool_sketch(Some(p(2.3 * g, 5.7 * g))).pop()
        else {
            panic!("no cell sketched");
        };
        assert!(closed);
        assert_eq!(points[0], p(2. * g, 5. * g));
        assert_eq!(points[2], p(3. * g, 6. * g));
    }
}
